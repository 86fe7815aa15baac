/* Microcode assembler / disassembler: encodings against the seed's field
 * table, the seed's and A-3's checks with file:line:col, exact round trip. */
#include "test_util.h"

#include "lockstep/pp5.h"
#include "pp5/uasm.h"

static ls_status assemble(const char *src, pp5_ucode *u, ls_diag_list *errs)
{
    ls_diag_list_init(errs);
    return pp5_uasm(src, strlen(src), "t.pp5m", u, errs);
}

/* Encodings computed by hand from the seed's bit table (Sequencer) and A-1. */
static void test_encodings(void **state)
{
    (void)state;
    const char *src = "idle: nop cond jmp idle done\n"           /* pp5.md §5.3: 0x90011000 */
                      "      a=1 b=1 c=1 lde cond jmp 0 done\n"   /* + LdE (bit 10) */
                      "e:    nop cond bntrr e\n"                  /* seq 5, braddr 2, tree 10, dst */
                      "      a=~t b=e c=0 lde cond jmp 0 done\n"  /* AGtsT|ACmp|BGtsE|CCmp|LdE */
                      "      a=t b=m c=cy ldc mwrt src- halt cnt1 cnt2 btc1 415\n"
                      "      .word 0x5eadbeef\n"
                      "      a=d aux force inc\n";
    pp5_ucode u;
    ls_diag_list errs;
    assert_int_equal(assemble(src, &u, &errs), LS_OK);
    ls_diag_list_free(&errs);
    assert_int_equal(u.count, 7);
    assert_int_equal(u.words[0], 0x90011000u);
    assert_int_equal(u.words[1], 0x90011400u);
    assert_int_equal(u.words[2], (5u << 28) | (2u << 19) | (2u << 15) | (1u << 12));
    assert_int_equal(u.words[3], 0x90011000u | 0x8u | 0x2u | 0x80u | 0x10u | 0x400u);
    assert_int_equal(u.words[4], (3u << 28) | (415u << 19) | (1u << 18) | (1u << 17) | (3u << 15) |
                                     (7u << 12) | 0x800u | 0x200u | 0x100u | 0x20u | 0x8u);
    assert_int_equal(u.words[5], 0x5eadbeefu);
    assert_int_equal(u.words[6], 0x1u); /* DirEn, A no source, ACmp 0, PMA aux, force, inc */
}

static void expect_error(const char *src, int line, int col, const char *needle)
{
    pp5_ucode u;
    ls_diag_list errs;
    assert_int_equal(assemble(src, &u, &errs), LS_ERR_PARSE);
    bool found = false;
    for (size_t i = 0; i < errs.count; i++) {
        const ls_diag *d = &errs.items[i];
        if (strstr(d->msg, needle) && (line == 0 || (d->line == line && d->col == col)))
            found = true;
        else
            printf("other diag %d:%d %s\n", d->line, d->col, d->msg);
    }
    if (!found)
        printf("expected '%s' at %d:%d\n", needle, line, col);
    assert_true(found);
    ls_diag_list_free(&errs);
}

static void test_errors(void **state)
{
    (void)state;
    const char *idle = "idle: nop cond jmp idle done\n";
    char buf[512];
    /* seed, LoopCount: "Cnt1LSP1 must not be asserted when DoneHSP1 is asserted" */
    snprintf(buf, sizeof buf, "%s  nop cnt1 cond jmp 0 done\n", idle);
    expect_error(buf, 2, 3, "cnt1 with done");
    snprintf(buf, sizeof buf, "%s  nop cnt2 cond jmp 0 done\n", idle);
    expect_error(buf, 2, 3, "cnt2 with done");
    /* 416-word store */
    snprintf(buf, sizeof buf, "%s  nop jmp 416\n", idle);
    expect_error(buf, 2, 11, "outside the 416-word store");
    /* redundant code by accident */
    snprintf(buf, sizeof buf, "%s  c=0 cond inc\n", idle);
    expect_error(buf, 2, 3, "redundant ALU code");
    snprintf(buf, sizeof buf, "%s  extop 2 mwrt cond inc\n", idle);
    expect_error(buf, 2, 3, "cannot be combined");
    snprintf(buf, sizeof buf, "%s  extop 9 cond inc\n", idle);
    expect_error(buf, 2, 9, "extop needs");
    /* unknown field, bad operand, missing target, undefined label, duplicate */
    snprintf(buf, sizeof buf, "%s  nop frob\n", idle);
    expect_error(buf, 2, 7, "unknown field");
    snprintf(buf, sizeof buf, "%s  a=q mwrt\n", idle);
    expect_error(buf, 2, 5, "bad A operand");
    snprintf(buf, sizeof buf, "%s  nop bntc1\n", idle);
    expect_error(buf, 2, 7, "needs a target");
    snprintf(buf, sizeof buf, "%s  nop jmp nowhere\n", idle);
    expect_error(buf, 2, 11, "undefined label");
    snprintf(buf, sizeof buf, "%s  nop cond halt\n", idle);
    expect_error(buf, 2, 12, "given twice");
    snprintf(buf, sizeof buf, "%sidle: nop\n", idle);
    expect_error(buf, 2, 1, "defined twice");
    /* seed: a done word has "the branch field set to address 0"; address 0 idle */
    snprintf(buf, sizeof buf, "%s  nop cond jmp 1 done\n", idle);
    expect_error(buf, 0, 0, "must be 'jmp 0'");
    expect_error("  nop cond inc\n", 0, 0, "address 0 must hold the idle word");
}

static void test_round_trip(void **state)
{
    (void)state;
    /* every word of a random store disassembles and reassembles to itself,
     * unless the assembler rejects it (then the disassembly must too). */
    uint64_t seed = ls_test_seed(0xa55e3b1eull);
    for (int it = 0; it < 200; it++) {
        pp5_ucode u;
        memset(&u, 0, sizeof u);
        u.words[0] = 0x90011000u;
        u.defined[0] = true;
        int n = 1 + (int)(ls_test_rand(&seed) % 40);
        for (int a = 1; a <= n; a++) {
            uint32_t w = (uint32_t)ls_test_rand(&seed);
            /* keep what the assembler must reject out of the random words */
            w &= ~(0x1ffu << 19);
            w |= (uint32_t)(ls_test_rand(&seed) % (unsigned)(n + 1)) << 19;
            if (w & 0x80000000u)
                w = (w & ~((0x1ffu << 19) | (7u << 28) | (3u << 17))) | (1u << 28);
            bool red = !(w & 0xe00u) && (w & 0x10u);
            if (red && (ls_test_rand(&seed) & 1))
                w |= 0x800u;
            u.words[a] = w;
            u.defined[a] = true;
        }
        u.count = (size_t)n + 1;
        ls_buf b;
        ls_buf_init(&b);
        pp5_udis(&u, &b);
        pp5_ucode v;
        ls_diag_list errs;
        ls_status st = assemble(b.data, &v, &errs);
        for (size_t i = 0; i < errs.count; i++)
            printf("%d:%d %s\n%s\n", errs.items[i].line, errs.items[i].col, errs.items[i].msg,
                   errs.items[i].source_line);
        assert_int_equal(st, LS_OK);
        ls_diag_list_free(&errs);
        assert_int_equal(v.count, u.count);
        for (size_t a = 0; a < u.count; a++)
            assert_int_equal(v.words[a], u.words[a]);
        ls_buf_free(&b);
    }
}

static void test_hex(void **state)
{
    (void)state;
    pp5_ucode u;
    ls_diag d;
    const char *ok = "0x90011000 ; idle\n2: 0x1 0x2\n";
    assert_int_equal(pp5_uhex_parse(ok, strlen(ok), "h", &u, &d), LS_OK);
    assert_int_equal(u.count, 4);
    assert_int_equal(u.words[3], 2);
    const char *bad = "0x90011000\n  0xzz\n";
    assert_int_equal(pp5_uhex_parse(bad, strlen(bad), "h", &u, &d), LS_ERR_PARSE);
    assert_int_equal(d.line, 2);
    assert_int_equal(d.col, 3);
    const char *wide = "0x190011000\n";
    assert_int_equal(pp5_uhex_parse(wide, strlen(wide), "h", &u, &d), LS_ERR_RANGE);
}

/* a word that names no tree mode gets Tree = 00 (Force) and a warning,
 * which does not fail the assembly. */
static void test_tree_warning(void **st)
{
    (void)st;
    const char *src = "idle: nop cond jmp idle done\n       nop inc\n";
    pp5_ucode u;
    ls_diag_list errs;
    ls_diag_list_init(&errs);
    assert_int_equal(pp5_uasm(src, strlen(src), "w.pp5m", &u, &errs), LS_OK);
    assert_int_equal(errs.count, 1);
    assert_int_equal(errs.errors, 0);
    assert_int_equal(errs.items[0].line, 2);
    assert_non_null(strstr(errs.items[0].msg, "tree mode"));
    char line[600];
    ls_diag_format(&errs.items[0], line, sizeof line);
    assert_non_null(strstr(line, "w.pp5m:2:8: warning:"));
    assert_int_equal((u.words[1] >> 15) & 3u, 0); /* Tree<1:0> = 00 */
    ls_diag_list_free(&errs);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_encodings),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_round_trip),
        cmocka_unit_test(test_hex),
        cmocka_unit_test(test_tree_warning),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
