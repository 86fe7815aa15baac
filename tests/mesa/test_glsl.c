/* mesa_glsl_uniforms: the uniforms a GLSL source declares (for the warning of
 * `mesa run|check` about uniforms no --uniform sets). Expectations written
 * from the GLSL 1.20 declaration grammar, not from the scanner. */
#include "test_util.h"

#include "lockstep/mesa_glsl.h"

static size_t scan(const char *src, char (*names)[MESA_GLSL_NAME], size_t max)
{
    return mesa_glsl_uniforms(src, strlen(src), names, max);
}

static void test_declarations(void **st)
{
    (void)st;
    char n[8][MESA_GLSL_NAME];
    assert_int_equal(scan("uniform float a;\nuniform vec4 b[4], c;\nvoid main() {}\n", n, 8), 3);
    assert_string_equal(n[0], "a");
    assert_string_equal(n[1], "b");
    assert_string_equal(n[2], "c");
    /* precision qualifier, initialiser, matrix */
    assert_int_equal(scan("uniform highp mat4 m; uniform int z = 3, w;", n, 8), 3);
    assert_string_equal(n[0], "m");
    assert_string_equal(n[1], "z");
    assert_string_equal(n[2], "w");
}

static void test_not_declarations(void **st)
{
    (void)st;
    char n[8][MESA_GLSL_NAME];
    /* comments, preprocessor lines and identifiers containing "uniform" */
    assert_int_equal(scan("// uniform float x;\n/* uniform int y; */\n#define uniform_n 3\n"
                          "float myuniform;\nvec4 uniforms_used;\n", n, 8), 0);
    assert_int_equal(scan("", n, 8), 0);
    assert_int_equal(scan("uniform float", n, 8), 0); /* no ';': no declaration */
}

static void test_more_than_max(void **st)
{
    (void)st;
    char n[2][MESA_GLSL_NAME];
    assert_int_equal(scan("uniform float a, b, c, d;", n, 2), 4);
    assert_string_equal(n[0], "a");
    assert_string_equal(n[1], "b");
}

/* mesa_glsl_check_uniforms: declared but not set, set but not declared */
static void test_check_uniforms(void **st)
{
    (void)st;
    static mesa_glsl_uniform_check u;
    const char *src = "uniform float a;\nuniform vec4 b[4], c;\nvoid main() {}\n";
    const char *set[] = {"c=1,2,3,4", "a=0.5", "ab=1", "bb"};
    mesa_glsl_check_uniforms(src, strlen(src), set, 4, &u);
    assert_int_equal(u.declared, 3);
    assert_int_equal(u.kept, 3);
    assert_true(u.set[0]);   /* a */
    assert_false(u.set[1]);  /* b: "bb" and "ab" are other names */
    assert_true(u.set[2]);   /* c */
    assert_int_equal(u.unset, 1);
    assert_int_equal(u.nunknown, 2);
    assert_int_equal(u.unknown[0], 2);
    assert_int_equal(u.unknown[1], 3);
    /* no settings: every uniform unset, nothing unknown */
    mesa_glsl_check_uniforms(src, strlen(src), NULL, 0, &u);
    assert_int_equal(u.unset, 3);
    assert_int_equal(u.nunknown, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_declarations),
        cmocka_unit_test(test_not_declarations),
        cmocka_unit_test(test_more_than_max),
        cmocka_unit_test(test_check_uniforms),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
