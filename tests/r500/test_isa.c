/* R500 instruction codec: conformance with the register documentation
 * (spec/r500.md §1), worked encodings, round trips. */
#include "test_util.h"

#include <dirent.h>
#include <math.h>

#include "base/buf.h"
#include "lockstep/r500_isa.h"
#include "r500/isa_format.h"

/* Claimed bits per (type, word), written out by hand from r500.md §1.2–§1.8
 * (not computed from the field table). */
static void test_claimed_masks(void **st)
{
    (void)st;
    for (int t = 0; t < 4; t++)
        assert_int_equal(r500_claimed_mask((r500_inst_type)t, 0), 0xffffffffu); /* CMN: all bits defined */
    for (int w = 1; w < 6; w++) {
        assert_int_equal(r500_claimed_mask(R500_TYPE_ALU, w), 0xffffffffu);
        assert_int_equal(r500_claimed_mask(R500_TYPE_OUT, w), 0xffffffffu);
    }
    /* US_TEX_INST: TEX_ID 19:16, INST 24:22, ACQUIRE 25, IGNORE_UNCOVERED 26, UNSCALED 27 */
    assert_int_equal(r500_claimed_mask(R500_TYPE_TEX, 1), 0x0FCF0000u);
    assert_int_equal(r500_claimed_mask(R500_TYPE_TEX, 2), 0xffffffffu);
    assert_int_equal(r500_claimed_mask(R500_TYPE_TEX, 3), 0xffffffffu);
    assert_int_equal(r500_claimed_mask(R500_TYPE_TEX, 4), 0);
    assert_int_equal(r500_claimed_mask(R500_TYPE_TEX, 5), 0);
    /* US_FC_INST (seed 001): OP 2:0, B_ELSE 4, JUMP_ANY 5, A_OP 7:6, JUMP_FUNC 15:8,
     * B_POP_CNT 20:16, B_OP0 25:24, B_OP1 27:26, IGNORE_UNCOVERED 28 */
    assert_int_equal(r500_claimed_mask(R500_TYPE_FC, 2), 0x1F1FFFF7u);
    /* US_FC_ADDR: BOOL_ADDR 4:0, INT_ADDR 12:8, JUMP_ADDR 24:16, JUMP_GLOBAL 31 */
    assert_int_equal(r500_claimed_mask(R500_TYPE_FC, 3), 0x81FF1F1Fu);
    assert_int_equal(r500_claimed_mask(R500_TYPE_FC, 1), 0);
    assert_int_equal(r500_claimed_mask(R500_TYPE_FC, 4), 0);
    assert_int_equal(r500_claimed_mask(R500_TYPE_FC, 5), 0);
}

/* No two fields of one type overlap within a word. */
static void test_no_overlap(void **st)
{
    (void)st;
    for (int t = 0; t < 4; t++) {
        uint32_t seen[6] = {0};
        for (int i = 0; i < R500_F_COUNT; i++) {
            const r500_field_desc *f = r500_field((r500_field_id)i);
            if (!r500_field_applies(f, (r500_inst_type)t))
                continue;
            uint32_t m = (f->width == 32 ? 0xffffffffu : ((1u << f->width) - 1)) << f->lo;
            assert_int_equal(seen[f->word] & m, 0);
            assert_true(f->lo + f->width <= 32);
            seen[f->word] |= m;
        }
    }
}

static void decode6(uint32_t a, uint32_t b, uint32_t c, uint32_t d, uint32_t e, uint32_t f,
                    r500_inst *in)
{
    uint32_t w[6] = {a, b, c, d, e, f};
    r500_decode(w, in);
}

/* r500.md §1.10: buhman texture_tile.fs.asm instruction 0. */
static void test_worked_tex(void **st)
{
    (void)st;
    r500_inst in;
    decode6(0x00007807, 0x02400000, 0xe400f400, 0, 0, 0, &in);
    assert_int_equal(in.type, R500_TYPE_TEX);
    assert_int_equal(in.field[R500_F_TEX_SEM_WAIT], 1);
    assert_int_equal(in.field[R500_F_RGB_WMASK], 7);
    assert_int_equal(in.field[R500_F_ALPHA_WMASK], 1);
    assert_int_equal(in.field[R500_F_TEX_INST], 1); /* LD */
    assert_int_equal(in.field[R500_F_TEX_SEM_ACQUIRE], 1);
    assert_int_equal(in.field[R500_F_TEX_SRC_S_SWIZ], 0); /* R */
    assert_int_equal(in.field[R500_F_TEX_SRC_T_SWIZ], 1); /* G */
    assert_int_equal(in.field[R500_F_TEX_SRC_R_SWIZ], 3); /* A */
    assert_int_equal(in.field[R500_F_TEX_SRC_Q_SWIZ], 3); /* A */
    assert_int_equal(in.field[R500_F_TEX_DST_R_SWIZ], 0);
    assert_int_equal(in.field[R500_F_TEX_DST_G_SWIZ], 1);
    assert_int_equal(in.field[R500_F_TEX_DST_B_SWIZ], 2);
    assert_int_equal(in.field[R500_F_TEX_DST_A_SWIZ], 3);
    for (int w = 0; w < 6; w++)
        assert_int_equal(in.unclaimed[w], 0);
}

/* r500.md §1.10: buhman length.fs.asm instruction 0: temp[0].r = DP3 src0.rg0 src0.rg0 */
static void test_worked_alu(void **st)
{
    (void)st;
    r500_inst in;
    decode6(0x00000800, 0x08020000, 0x08020080, 0x00840420, 0x00000000, 0x00000001, &in);
    assert_int_equal(in.type, R500_TYPE_ALU);
    assert_int_equal(in.field[R500_F_RGB_WMASK], 1);
    assert_int_equal(in.field[R500_F_RGB_ADDR0], 0);
    assert_int_equal(in.field[R500_F_RGB_ADDR0_CONST], 0);
    assert_int_equal(in.field[R500_F_RGB_ADDR1], 0x80); /* unused source = inline 0 */
    assert_int_equal(in.field[R500_F_RGB_ADDR2], 0x80);
    assert_int_equal(in.field[R500_F_ALPHA_ADDR0], 0x80);
    assert_int_equal(in.field[R500_F_RGB_OP], 1); /* DP3 */
    assert_int_equal(in.field[R500_F_RED_SWIZ_A], 0);
    assert_int_equal(in.field[R500_F_GREEN_SWIZ_A], 1);
    assert_int_equal(in.field[R500_F_BLUE_SWIZ_A], 4); /* 0.0 */
    assert_int_equal(in.field[R500_F_RED_SWIZ_B], 0);
    assert_int_equal(in.field[R500_F_GREEN_SWIZ_B], 1);
    assert_int_equal(in.field[R500_F_BLUE_SWIZ_B], 4);
    assert_int_equal(in.field[R500_F_ALPHA_OP], 0);
}

/* r500.md §3.2: Mesa's FC encodings, field by field. */
static void test_mesa_fc_words(void **st)
{
    (void)st;
    struct {
        uint32_t inst2;
        unsigned op, jf, any, belse, bop0, bop1, pop, ign;
    } rows[] = {
        {0x1A000F00, 0, 0x0F, 0, 0, 2, 2, 0, 1}, /* IF with ELSE */
        {0x12000F00, 0, 0x0F, 0, 0, 2, 0, 0, 1}, /* IF without ELSE */
        {0x04010010, 0, 0x00, 0, 1, 0, 1, 1, 0}, /* ELSE */
        {0x01010020, 0, 0x00, 1, 0, 1, 0, 1, 0}, /* ENDIF */
        {0x10000001, 1, 0x00, 0, 0, 0, 0, 0, 1}, /* BGNLOOP */
        {0x1000FF22, 2, 0xFF, 1, 0, 0, 0, 0, 1}, /* ENDLOOP */
        {0x1401FF05, 5, 0xFF, 0, 0, 0, 1, 1, 1}, /* BRK, d=1 */
        {0x1403FF07, 7, 0xFF, 0, 0, 0, 1, 3, 1}, /* CONT, d=3 */
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        r500_inst in;
        decode6(0x00000402, 0, rows[i].inst2, 0x00120000, 0, 0, &in);
        assert_int_equal(in.type, R500_TYPE_FC);
        assert_int_equal(in.field[R500_F_ALU_WAIT], 1);
        assert_int_equal(in.field[R500_F_FC_OP], rows[i].op);
        assert_int_equal(in.field[R500_F_FC_JUMP_FUNC], rows[i].jf);
        assert_int_equal(in.field[R500_F_FC_JUMP_ANY], rows[i].any);
        assert_int_equal(in.field[R500_F_FC_B_ELSE], rows[i].belse);
        assert_int_equal(in.field[R500_F_FC_B_OP0], rows[i].bop0);
        assert_int_equal(in.field[R500_F_FC_B_OP1], rows[i].bop1);
        assert_int_equal(in.field[R500_F_FC_B_POP_CNT], rows[i].pop);
        assert_int_equal(in.field[R500_F_FC_IGNORE_UNCOVERED], rows[i].ign);
        assert_int_equal(in.field[R500_F_FC_JUMP_ADDR], 18);
        assert_int_equal(in.field[R500_F_FC_JUMP_GLOBAL], 0);
        char msgs[4][96];
        assert_int_equal(r500_inst_problems(&in, msgs, 4), 0);
    }
}

/* Reserved values and unclaimed bits are reported, never dropped. */
static void test_problems(void **st)
{
    (void)st;
    r500_inst in;
    char msgs[8][96];
    decode6(0x00000002, 0x5, 0x000000C0 /* A_OP=3 */, 0x80000000u | (1u << 20), 0, 0, &in);
    assert_int_equal(in.field[R500_F_FC_A_OP], 3);
    assert_int_equal(in.field[R500_F_FC_JUMP_ADDR], 16);
    assert_int_equal(in.unclaimed[1], 0x5);
    /* unclaimed dword1 + A_OP reserved */
    assert_int_equal(r500_inst_problems(&in, msgs, 8), 2);
    uint32_t w[6];
    r500_encode(&in, w);
    assert_int_equal(w[1], 0x5);
    assert_int_equal(w[2], 0xC0);
    decode6(0x00000000, 0x08020080, 0x08020080, 0, 0, 6 /* RGB_OP reserved */, &in);
    assert_int_equal(r500_inst_problems(&in, msgs, 8), 1);
    assert_non_null(strstr(msgs[0], "RGB_OP"));
}

/* Property: encode(decode(w)) == w for random words of every type. */
static void test_roundtrip_random(void **st)
{
    (void)st;
    uint64_t s = ls_test_seed(0x5eed1234);
    for (int k = 0; k < 200000; k++) {
        uint32_t w[6], back[6];
        for (int i = 0; i < 6; i++)
            w[i] = (uint32_t)ls_test_rand(&s);
        r500_inst in;
        r500_decode(w, &in);
        r500_encode(&in, back);
        assert_memory_equal(w, back, sizeof w);
    }
}

/* r500.md §4.2 examples. */
static void test_inline_floats(void **st)
{
    (void)st;
    assert_true(r500_inline_float(0) == 0.0f);
    assert_true(r500_inline_float(1) == ldexpf(1.0f, -9));
    assert_true(r500_inline_float(7) == 7.0f / 512.0f);
    assert_true(r500_inline_float(8) == ldexpf(1.0f, -6));
    assert_true(r500_inline_float(48) == 0.5f);
    assert_true(r500_inline_float(56) == 1.0f);
    assert_true(r500_inline_float(60) == 1.5f);
    assert_true(r500_inline_float(61) == 1.625f);
    assert_true(r500_inline_float(119) == 240.0f);
    assert_true(r500_inline_float(127) == 480.0f);
}

static void hex_err(const char *text, int line, int col)
{
    uint32_t *w;
    size_t n;
    ls_diag d;
    assert_int_not_equal(r500_parse_hex_words("p.inc", text, strlen(text), &w, &n, &d), LS_OK);
    assert_int_equal(d.line, line);
    assert_int_equal(d.col, col);
}

static void test_hex_parser(void **st)
{
    (void)st;
    const char *ok = "# header\n  0: 0x1 0x2 0x3 0x4 0x5 0x6 -- c\n0x7,\n0x8,0x9 0xa // x\n0xb 0xFFFFFFFF\n";
    uint32_t *w;
    size_t n;
    ls_diag d;
    assert_int_equal(r500_parse_hex_words("p.inc", ok, strlen(ok), &w, &n, &d), LS_OK);
    assert_int_equal(n, 2);
    assert_int_equal(w[6], 7);
    assert_int_equal(w[11], 0xFFFFFFFFu);
    free(w);
    hex_err("0x1 0x2 0x3\n0x4 0x5\n", 3, 1);          /* 5 dwords */
    hex_err("0x1 0x2 zz\n", 1, 9);                     /* junk */
    hex_err("0x1 0x123456789 0x3\n", 1, 5);            /* too long */
    hex_err("0x1 0xg\n", 1, 5);                        /* malformed */
    hex_err("0x1 12 0x3\n", 1, 5);                     /* bare number */
    hex_err("", 1, 1);
    hex_err("0x1 0x2 0x3 0x4 0x5 0x6\nc0: 0x1 0x2\n", 2, 1); /* short constant */
    /* constants */
    const char *withc = "0: 0x1 0x2 0x3 0x4 0x5 0x6\nc3: 0x3f800000 0x0 0x0 0x40000000 # 1 0 0 2\n";
    r500_hex_const *cv;
    size_t ncv;
    assert_int_equal(r500_parse_hex_program("p.txt", withc, strlen(withc), &w, &n, &cv, &ncv, &d), LS_OK);
    assert_int_equal(n, 1);
    assert_int_equal(ncv, 1);
    assert_int_equal(cv[0].index, 3);
    assert_int_equal(cv[0].bits[0], 0x3f800000u);
    assert_int_equal(cv[0].bits[3], 0x40000000u);
    free(w);
    free(cv);
    /* without a constants sink, they are an error */
    assert_int_not_equal(r500_parse_hex_words("p.txt", withc, strlen(withc), &w, &n, &d), LS_OK);
}

static void test_bin_parser(void **st)
{
    (void)st;
    uint8_t buf[48] = {0x07, 0x78, 0, 0};
    uint32_t *w;
    size_t n;
    ls_diag d;
    assert_int_equal(r500_parse_bin_words("p.bin", buf, 48, &w, &n, &d), LS_OK);
    assert_int_equal(n, 2);
    assert_int_equal(w[0], 0x7807);
    free(w);
    assert_int_equal(r500_parse_bin_words("p.bin", buf, 30, &w, &n, &d), LS_ERR_PARSE);
    assert_int_equal(d.offset, 24);
    assert_int_equal(r500_parse_bin_words("p.bin", buf, 0, &w, &n, &d), LS_ERR_PARSE);
}

/* Corpus: every program decodes with no unclaimed bits or reserved values
 * (they are real programs) and re-encodes to the same words. */
static int check_file(const char *path, bool bin)
{
    ls_buf b;
    ls_buf_init(&b);
    assert_true(ls_read_file(path, &b));
    uint32_t *w;
    size_t n;
    ls_diag d;
    r500_hex_const *cv = NULL;
    size_t ncv = 0;
    ls_status st = bin ? r500_parse_bin_words(path, (const uint8_t *)b.data, b.len, &w, &n, &d)
                       : r500_parse_hex_program(path, b.data, b.len, &w, &n, &cv, &ncv, &d);
    free(cv);
    if (st)
        fail_msg("%s: %s", path, d.msg);
    for (size_t k = 0; k < n; k++) {
        r500_inst in;
        uint32_t back[6];
        r500_decode(w + 6 * k, &in);
        r500_encode(&in, back);
        assert_memory_equal(back, w + 6 * k, sizeof back);
        char msgs[4][96];
        unsigned np = r500_inst_problems(&in, msgs, 4);
        if (np)
            fail_msg("%s: instruction %zu: %s", path, k, msgs[0]);
    }
    free(w);
    ls_buf_free(&b);
    return (int)n;
}

static void test_corpus(void **st)
{
    (void)st;
    const char *corpus = ls_test_require_corpus();
    char path[1024];
    int files = 0, insts = 0;
    const char *dirs[] = {"buhman-r500/src", "buhman-r500/drm", "mesa-r300/out"};
    for (int di = 0; di < 3; di++) {
        snprintf(path, sizeof path, "%s/%s", corpus, dirs[di]);
        DIR *dir = opendir(path);
        assert_non_null(dir);
        struct dirent *e;
        while ((e = readdir(dir))) {
            const char *nm = e->d_name;
            size_t l = strlen(nm);
            if (di == 2 && nm[0] != '.') {
                snprintf(path, sizeof path, "%s/%s/%s/program_words.txt", corpus, dirs[di], nm);
                insts += check_file(path, false);
                files++;
            } else if (l > 7 && !strcmp(nm + l - 7, ".fs.bin")) { /* vertex programs (.vs.*) are PVS words */
                snprintf(path, sizeof path, "%s/%s/%s", corpus, dirs[di], nm);
                insts += check_file(path, true);
                files++;
            } else if (l > 7 && !strcmp(nm + l - 7, ".fs.inc")) {
                snprintf(path, sizeof path, "%s/%s/%s", corpus, dirs[di], nm);
                insts += check_file(path, false);
                files++;
            }
        }
        closedir(dir);
    }
    printf("corpus: %d files, %d instructions round-trip\n", files, insts);
    assert_true(files >= 38); /* 11 .bin + 12 .inc + 15 mesa programs */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_claimed_masks),   cmocka_unit_test(test_no_overlap),
        cmocka_unit_test(test_worked_tex),      cmocka_unit_test(test_worked_alu),
        cmocka_unit_test(test_mesa_fc_words),   cmocka_unit_test(test_problems),
        cmocka_unit_test(test_roundtrip_random), cmocka_unit_test(test_inline_floats),
        cmocka_unit_test(test_hex_parser),      cmocka_unit_test(test_bin_parser),
        cmocka_unit_test(test_corpus),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
