#include "test_util.h"

#include "base/json.h"

static ls_json *parse_ok(const char *s)
{
    ls_json *v = NULL;
    ls_diag d;
    ls_diag_clear(&d);
    assert_int_equal(ls_json_parse(s, strlen(s), "t.json", &v, &d), LS_OK);
    return v;
}

static void parse_err(const char *s, int line, int col)
{
    ls_json *v = NULL;
    ls_diag d;
    assert_int_equal(ls_json_parse(s, strlen(s), "t.json", &v, &d), LS_ERR_PARSE);
    assert_null(v);
    assert_string_equal(d.file, "t.json");
    assert_int_equal(d.line, line);
    assert_int_equal(d.col, col);
}

static void test_values(void **st)
{
    (void)st;
    ls_json *v = parse_ok(" {\"a\": [1, -2.5e3, \"x\\u00e9\\n\"], \"b\": true, \"c\": null}\n");
    assert_int_equal(v->type, LS_JSON_OBJECT);
    const ls_json *a = ls_json_get(v, "a");
    assert_non_null(a);
    assert_int_equal(a->count, 3);
    int64_t i;
    assert_true(ls_json_int(a->items[0], 0, 10, &i));
    assert_int_equal(i, 1);
    assert_true(a->items[1]->number == -2500.0);
    assert_string_equal(a->items[1]->text, "-2.5e3");
    assert_string_equal(a->items[2]->text, "x\xc3\xa9\n");
    assert_true(ls_json_get(v, "b")->boolean);
    assert_int_equal(ls_json_get(v, "c")->type, LS_JSON_NULL);
    assert_null(ls_json_get(v, "zz"));
    assert_int_equal(a->line, 1);
    assert_int_equal(a->col, 8);
    ls_json_free(v);
}

static void test_errors(void **st)
{
    (void)st;
    parse_err("", 1, 1);
    parse_err("[1,\n 2,,3]", 2, 4);
    parse_err("{\"a\" 1}", 1, 6);
    parse_err("[01]", 1, 3);
    parse_err("\"abc", 1, 1);
    parse_err("[1] x", 1, 5);
    parse_err("\"\\ud800\"", 1, 2);
    parse_err("tru", 1, 1);
    /* deep nesting is an error, not a stack overflow */
    char deep[1000];
    memset(deep, '[', sizeof deep - 1);
    deep[sizeof deep - 1] = 0;
    ls_json *v = NULL;
    ls_diag d;
    assert_int_equal(ls_json_parse(deep, strlen(deep), "t.json", &v, &d), LS_ERR_PARSE);
}

static void test_write(void **st)
{
    (void)st;
    ls_buf b;
    ls_buf_init(&b);
    ls_json_write_string(&b, "a\"b\\\n\x01");
    ls_buf_putc(&b, ' ');
    ls_json_write_float(&b, 0.1f);
    ls_buf_putc(&b, ' ');
    ls_json_write_float(&b, 1.0f / 0.0f);
    assert_string_equal(b.data, "\"a\\\"b\\\\\\n\\u0001\" 0.1 null");
    ls_buf_free(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_values),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_write),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
