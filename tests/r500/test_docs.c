/* docs/r500-asm.md: every ```asm block assembles, and where a ```words block
 * follows, the words produced are exactly those shown. */
#include "test_util.h"

#include "base/buf.h"
#include "lockstep/r500_asm.h"
#include "r500/isa_format.h"

static void test_doc_examples(void **st)
{
    (void)st;
    char path[1024];
    snprintf(path, sizeof path, "%s/docs/r500-asm.md", ls_test_source_root());
    ls_buf doc;
    ls_buf_init(&doc);
    assert_true(ls_read_file(path, &doc));
    const char *p = doc.data;
    int blocks = 0, checked = 0;
    while ((p = strstr(p, "```asm\n"))) {
        p += 7;
        const char *end = strstr(p, "```");
        assert_non_null(end);
        r500_asm_program prog;
        ls_diag_list errs;
        ls_diag_list_init(&errs);
        if (r500_asm_mem("docs/r500-asm.md", p, (size_t)(end - p), &prog, &errs) != LS_OK)
            fail_msg("example %d does not assemble: %s", blocks + 1, errs.items[0].msg);
        ls_diag_list_free(&errs);
        blocks++;
        const char *after = end + 3;
        while (*after == '\n')
            after++;
        if (!strncmp(after, "```words\n", 9)) {
            const char *w = after + 9;
            const char *wend = strstr(w, "```");
            assert_non_null(wend);
            uint32_t *words;
            size_t n;
            ls_diag d;
            assert_int_equal(r500_parse_hex_words("words", w, (size_t)(wend - w), &words, &n, &d),
                             LS_OK);
            assert_int_equal(n, prog.count);
            for (size_t i = 0; i < n * 6; i++)
                if (words[i] != prog.words[i])
                    fail_msg("example %d: dword %zu is 0x%08x, the doc shows 0x%08x", blocks, i,
                             prog.words[i], words[i]);
            free(words);
            checked++;
            p = wend + 3;
        } else {
            p = end + 3;
        }
        r500_asm_program_free(&prog);
    }
    printf("%d examples assemble, %d checked word for word\n", blocks, checked);
    assert_true(blocks >= 6);
    assert_true(checked >= 6);
    ls_buf_free(&doc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_doc_examples)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
