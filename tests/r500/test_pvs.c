/* R500 vertex engine (PVS): codec conformance with the register documentation
 * (buhman/r500 regs/pvs_bits/ files), assembler diagnostics, corpus golden
 * round trips, executor conformance (expected values worked out by hand from
 * the cited sources) and faults. The random-program property test against a
 * separate interpreter is tests/r500/test_pvs_property.c. */
#include "test_util.h"

#include <dirent.h>
#include <float.h>
#include <math.h>

#include "base/buf.h"
#include "lockstep/r500_pvs.h"

/* ---- codec -------------------------------------------------------------- */

/* Claimed bits, written out by hand from the docs' bit columns. */
static void test_claimed_masks(void **st)
{
    (void)st;
    /* pvs_opcode_and_destination_operand.txt: bits 5:0 .. 31 all named */
    assert_int_equal(r500_pvs_claimed_mask(R500_PVS_FORM_NORMAL, 0), 0xffffffffu);
    assert_int_equal(r500_pvs_claimed_mask(R500_PVS_FORM_DUAL, 0), 0xffffffffu);
    /* pvs_source_operand.txt: bit 2 is SPARE_0, every other bit a field */
    for (unsigned w = 1; w < 4; w++)
        assert_int_equal(r500_pvs_claimed_mask(R500_PVS_FORM_NORMAL, w), 0xfffffffbu);
    assert_int_equal(r500_pvs_claimed_mask(R500_PVS_FORM_DUAL, 1), 0xfffffffbu);
    assert_int_equal(r500_pvs_claimed_mask(R500_PVS_FORM_DUAL, 2), 0xfffffffbu);
    /* pvs_dual_math_instruction.txt: every bit 0..31 named */
    assert_int_equal(r500_pvs_claimed_mask(R500_PVS_FORM_DUAL, 3), 0xffffffffu);
}

static void test_no_overlap(void **st)
{
    (void)st;
    for (unsigned form = 0; form < 2; form++) {
        uint32_t seen[4] = {0};
        for (unsigned i = 0; i < R500_PVS_F_COUNT; i++) {
            const r500_pvs_field_desc *f = r500_pvs_field((r500_pvs_field_id)i);
            if (!((f->forms >> form) & 1))
                continue;
            uint32_t m = ((1u << f->width) - 1u) << f->lo;
            assert_true(f->lo + f->width <= 32);
            assert_int_equal(seen[f->word] & m, 0);
            seen[f->word] |= m;
        }
    }
}

/* Worked decodings of corpus words (drm/cube_rotate_optimize.vs.inc), fields
 * read off by hand with the docs' bit positions. */
static void test_worked_decode(void **st)
{
    (void)st;
    /* "temp[1].yz = VE_MUL input[0]._-zz_ temp[3]._xy_ , alt_temp[3].w = ME_COS temp[0].y_" */
    const uint32_t w[4] = {0x10602002, 0x05d2e001, 0x01c8e060, 0x183f2004};
    r500_pvs_inst in;
    r500_pvs_decode(w, &in);
    assert_int_equal(in.form, R500_PVS_FORM_DUAL);
    assert_int_equal(in.field[R500_PVS_F_OPCODE], 2);        /* VE_MULTIPLY */
    assert_int_equal(in.field[R500_PVS_F_DST_OFFSET], 1);
    assert_int_equal(in.field[R500_PVS_F_DST_WE_Y], 1);
    assert_int_equal(in.field[R500_PVS_F_DST_WE_Z], 1);
    assert_int_equal(in.field[R500_PVS_F_DST_WE_X], 0);
    assert_int_equal(in.field[R500_PVS_F_S0_REG_TYPE], 1);   /* input */
    assert_int_equal(in.field[R500_PVS_F_S0_SWIZZLE_X], 7);
    assert_int_equal(in.field[R500_PVS_F_S0_SWIZZLE_Y], 2);
    assert_int_equal(in.field[R500_PVS_F_S0_MODIFIER_Y], 1); /* -z */
    assert_int_equal(in.field[R500_PVS_F_S1_OFFSET], 3);
    /* dual math: 0x183f2004 = MSB 1 (bit 2), opcode 1 (bits 24:21) -> 17 ME_COS,
     * DST_OFFSET 3 (20:19), WE_SEL 3 = W (28:27), swizzle X = y (15:13) */
    assert_int_equal(in.field[R500_PVS_F_DM_OPCODE_MSB], 1);
    assert_int_equal(in.field[R500_PVS_F_DM_OPCODE], 1);
    assert_int_equal(in.field[R500_PVS_F_DM_DST_OFFSET], 3);
    assert_int_equal(in.field[R500_PVS_F_DM_DST_WE_SEL], 3);
    assert_int_equal(in.field[R500_PVS_F_DM_SRC_SWIZZLE_X], 1);
    assert_int_equal(in.field[R500_PVS_F_DM_SRC_SWIZZLE_Y], 7);
    for (int k = 0; k < 4; k++)
        assert_int_equal(in.unclaimed[k], 0);
    /* macro MAD: 0x00704080 = opcode 0, MACRO_INST (bit 7), dst temp[2].xyz */
    const uint32_t m[4] = {0x00704080, 0x01c10020, 0x01d56060, 0x01d40040};
    r500_pvs_decode(m, &in);
    assert_int_equal(in.field[R500_PVS_F_MACRO_INST], 1);
    assert_int_equal(in.field[R500_PVS_F_OPCODE], 0);
    assert_int_equal(in.field[R500_PVS_F_DST_OFFSET], 2);
    char msgs[4][96];
    assert_int_equal(r500_pvs_problems(&in, msgs, 4), 0);
}

static void test_unclaimed_kept(void **st)
{
    (void)st;
    const uint32_t w[4] = {0x00f00203, 0x00d10005, 0x01248001, 0x01ffe001};
    r500_pvs_inst in;
    r500_pvs_decode(w, &in);
    assert_int_equal(in.unclaimed[1], 4); /* SPARE_0 */
    uint32_t back[4];
    r500_pvs_encode(&in, back);
    assert_memory_equal(back, w, 16);
    char msgs[4][96];
    assert_int_equal(r500_pvs_problems(&in, msgs, 4), 1);
    assert_non_null(strstr(msgs[0], "dword 1"));
    /* the disassembler keeps the bit through its raw form */
    ls_buf b;
    ls_buf_init(&b);
    r500_pvs_disasm(w, 1, &b);
    assert_non_null(strstr(b.data, "raw 0x00f00203 0x00d10005"));
    assert_non_null(strstr(b.data, "belong to no field"));
    r500_pvs_program p;
    assert_int_equal(r500_pvs_asm("t", b.data, b.len, &p, NULL), LS_OK);
    assert_memory_equal(p.words, w, 16);
    r500_pvs_program_free(&p);
    ls_buf_free(&b);
}

static void test_random_codec_and_disasm(void **st)
{
    (void)st;
    uint64_t seed = ls_test_seed(0x5eed0015);
    unsigned structured = 0;
    ls_buf b;
    ls_buf_init(&b);
    for (int i = 0; i < 20000; i++) {
        uint32_t w[4];
        for (int k = 0; k < 4; k++)
            w[k] = (uint32_t)ls_test_rand(&seed);
        if (i & 1) { /* half the time: plausible words (documented values only) */
            r500_pvs_inst t;
            r500_pvs_decode(w, &t);
            t.field[R500_PVS_F_MACRO_INST] = 0;
            t.field[R500_PVS_F_OPCODE] %= 29;
            t.field[R500_PVS_F_DST_REG_TYPE] %= 6;
            t.field[R500_PVS_F_DST_ADDR_MODE_0] &= ~t.field[R500_PVS_F_DST_ADDR_MODE_1];
            if (t.form == R500_PVS_FORM_DUAL) {
                t.field[R500_PVS_F_MATH_INST] = 0;
                t.field[R500_PVS_F_DM_OPCODE_MSB] = 0;
                t.field[R500_PVS_F_DM_SRC_ADDR_MODE_1] = 0;
            }
            for (unsigned s = 0; s < 3; s++) {
                uint32_t *sf = &t.field[R500_PVS_F_S0_REG_TYPE + s * R500_PVS_SRC_STRIDE];
                sf[R500_PVS_F_S0_ADDR_MODE_1 - R500_PVS_F_S0_REG_TYPE] = 0;
                for (unsigned c = 0; c < 4; c++)
                    sf[R500_PVS_F_S0_SWIZZLE_X - R500_PVS_F_S0_REG_TYPE + c] %= 6;
            }
            memset(t.unclaimed, 0, sizeof t.unclaimed);
            r500_pvs_encode(&t, w);
        }
        r500_pvs_inst in;
        r500_pvs_decode(w, &in);
        uint32_t back[4];
        r500_pvs_encode(&in, back);
        assert_memory_equal(back, w, 16);
        ls_buf_reset(&b);
        r500_pvs_disasm(w, 1, &b);
        if (!strstr(b.data, "raw "))
            structured++;
        r500_pvs_program p;
        ls_diag_list errs;
        ls_diag_list_init(&errs);
        if (r500_pvs_asm("dis", b.data, b.len, &p, &errs) != LS_OK)
            fail_msg("disassembly does not assemble: %s\n%s", errs.items[0].msg, b.data);
        assert_int_equal(p.count, 1);
        if (memcmp(p.words, w, 16))
            fail_msg("round trip differs for %08x %08x %08x %08x:\n%s", w[0], w[1], w[2], w[3],
                     b.data);
        r500_pvs_program_free(&p);
        ls_diag_list_free(&errs);
    }
    printf("20000 random instructions round-trip (%u in structured form)\n", structured);
    ls_buf_free(&b);
}

/* ---- assembler diagnostics ------------------------------------------------ */

static void expect_error(const char *src, int line, int col, const char *msg_part)
{
    r500_pvs_program p;
    ls_diag_list errs;
    ls_diag_list_init(&errs);
    assert_int_equal(r500_pvs_asm("x.vs.asm", src, strlen(src), &p, &errs), LS_ERR_PARSE);
    assert_true(errs.count >= 1);
    if (errs.items[0].line != line || errs.items[0].col != col ||
        !strstr(errs.items[0].msg, msg_part))
        fail_msg("for %s: got %d:%d %s; want %d:%d ...%s...", src, errs.items[0].line,
                 errs.items[0].col, errs.items[0].msg, line, col, msg_part);
    assert_string_equal(errs.items[0].file, "x.vs.asm");
    ls_diag_list_free(&errs);
    assert_null(p.words);
}

static void test_asm_errors(void **st)
{
    (void)st;
    expect_error("temp[0].x = VE_FOO temp[0].x___ ;", 1, 13, "unknown opcode");
    expect_error("-- c\ntemp[0].x = VE_ADD temp[0].x___ ;", 2, 20, "incorrect number");
    expect_error("temp[0].yx = VE_ADD temp[0].x___ temp[0].x___ ;", 1, 9, "xyzw order");
    expect_error("temp[0].x = VE_ADD temp[0].xq__ temp[0].x___ ;", 1, 28, "invalid character");
    expect_error("temp[0].x = VE_ADD const[0].x___ const[1].x___ ;", 1, 34, "constant addresses");
    expect_error("temp[0].x = VE_ADD input[0].x___ input[1].x___ ;", 1, 34, "input addresses");
    expect_error("temp[0].x = VE_ADD temp[0].x___ temp[1].x__ ;", 1, 33, "exactly 4");
    expect_error("temp[0].x = VE_MAD temp[0].x___ temp[1].x___ ;", 1, 20, "incorrect number");
    expect_error("temp[0].x = VE_MAX temp[0].x___ temp[1].x___ ,\n"
                 "temp[1].x = ME_SIN temp[0].x_ ;", 2, 1, "alt_temp[0..3]");
    expect_error("temp[0].x = VE_MAD temp[0].x___ temp[1].x___ temp[2].x___ ,\n"
                 "alt_temp[0].x = ME_SIN temp[0].x_ ;", 1, 13, "3-operand");
    expect_error("temp[128].x = VE_ADD temp[0].x___ temp[0].x___ ;", 1, 6, "index 0..127");
    expect_error("temp[0].x = VE_ADD temp[0].x___ temp[0].x___", 1, 45, "end of input");
    expect_error("raw 0x1 0x2 0x3 ;", 1, 17, "hex dword");
    expect_error("", 1, 1, "no instructions");
    /* several errors in one run */
    const char *two = "temp[0].x = VE_FOO ;\nout[0].x = VE_ADD const[0].x___ const[1].x___ ;\n";
    r500_pvs_program p;
    ls_diag_list errs;
    ls_diag_list_init(&errs);
    assert_int_equal(r500_pvs_asm("t", two, strlen(two), &p, &errs), LS_ERR_PARSE);
    assert_int_equal(errs.count, 2);
    assert_int_equal(errs.items[1].line, 2);
    ls_diag_list_free(&errs);
}

/* Extensions beyond buhman/r500's syntax encode the documented fields. */
static void test_asm_extensions(void **st)
{
    (void)st;
    const char *src = "temp[a0.y+3].xw = VE_ADD.SAT.PRED |const[a0.x+5].x-y01| temp[0].xyzw ;\n"
                      "out[1].x = MACRO_OP_2CLK_MADD temp[0].xxxx temp[0].xxxx temp[1].xxxx ;\n";
    r500_pvs_program p;
    assert_int_equal(r500_pvs_asm("t", src, strlen(src), &p, NULL), LS_OK);
    r500_pvs_inst in;
    r500_pvs_decode(p.words, &in);
    assert_int_equal(in.field[R500_PVS_F_DST_ADDR_MODE_0], 1); /* mode 1 = A0 (bit 31) */
    assert_int_equal(in.field[R500_PVS_F_DST_ADDR_SEL], 1);
    assert_int_equal(in.field[R500_PVS_F_DST_OFFSET], 3);
    assert_int_equal(in.field[R500_PVS_F_VE_SAT], 1);
    assert_int_equal(in.field[R500_PVS_F_PRED_ENABLE], 1);
    assert_int_equal(in.field[R500_PVS_F_PRED_SENSE], 1);
    assert_int_equal(in.field[R500_PVS_F_S0_ABS], 1);
    assert_int_equal(in.field[R500_PVS_F_S0_ADDR_MODE_0], 1);
    assert_int_equal(in.field[R500_PVS_F_S0_OFFSET], 5);
    assert_int_equal(in.field[R500_PVS_F_S0_MODIFIER_Y], 1);
    assert_int_equal(in.field[R500_PVS_F_S0_SWIZZLE_Z], 4);
    assert_int_equal(in.field[R500_PVS_F_S0_SWIZZLE_W], 5);
    assert_int_equal(p.words[0] >> 31, 1);
    r500_pvs_decode(p.words + 4, &in);
    assert_int_equal(in.field[R500_PVS_F_MACRO_INST], 1);
    r500_pvs_program_free(&p);
}

/* Words laid out as Mesa's r3xx_vertprog.c emits them (worked out by hand
 * from its ei_vector1 / ei_math1 and __CONST(x, ZERO): unused sources repeat
 * source 0's register with every select FORCE_0) disassemble in the
 * all-sources form, not raw, and round-trip. */
static void test_mesa_layout(void **st)
{
    (void)st;
    const uint32_t w[8] = {
        /* MOV temp[0], const[1] = VE_ADD, src1 = src2 = const[1].0000 */
        0x00f00003, 0x00d10022, 0x01248022, 0x01248022,
        /* SIN temp[0].y, temp[0].x = ME_SIN (MATH_INST), scalar source .xxxx */
        0x00200050, 0x00000000, 0x01248000, 0x01248000,
    };
    ls_buf b;
    ls_buf_init(&b);
    r500_pvs_disasm(w, 2, &b);
    assert_non_null(strstr(b.data, "temp[0].xyzw = VE_ADD const[1].xyzw const[1].0000 const[1].0000 ;"));
    assert_non_null(strstr(b.data, "temp[0].y = ME_SIN temp[0].xxxx temp[0].0000 temp[0].0000 ;"));
    assert_null(strstr(b.data, "raw"));
    r500_pvs_program p;
    assert_int_equal(r500_pvs_asm("t", b.data, b.len, &p, NULL), LS_OK);
    assert_memory_equal(p.words, w, sizeof w);
    r500_pvs_program_free(&p);
    ls_buf_free(&b);
}

/* ---- corpus --------------------------------------------------------------- */

static int corpus_dir(const char *corpus, const char *sub, bool binary, unsigned *files,
                      unsigned *insts)
{
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/buhman-r500/%s", corpus, sub);
    DIR *dp = opendir(dir);
    if (!dp)
        return 0;
    struct dirent *e;
    while ((e = readdir(dp))) {
        size_t n = strlen(e->d_name);
        if (n < 8 || strcmp(e->d_name + n - 7, ".vs.asm"))
            continue;
        char path[1300], words_path[1300];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        snprintf(words_path, sizeof words_path, "%s/%.*s%s", dir, (int)(n - 4), e->d_name,
                 binary ? ".bin" : ".inc");
        ls_buf src, wb;
        ls_buf_init(&src);
        ls_buf_init(&wb);
        assert_true(ls_read_file(path, &src));
        if (!ls_read_file(words_path, &wb))
            fail_msg("%s has no %s beside it", path, words_path);
        r500_pvs_program p;
        ls_diag_list errs;
        ls_diag_list_init(&errs);
        if (r500_pvs_asm(path, src.data, src.len, &p, &errs) != LS_OK)
            fail_msg("%s: %d:%d %s", path, errs.items[0].line, errs.items[0].col,
                     errs.items[0].msg);
        uint32_t *w;
        size_t count;
        ls_diag d;
        assert_int_equal(r500_pvs_load_words(words_path, wb.data, wb.len, binary, &w, &count, &d),
                         LS_OK);
        assert_int_equal(count, p.count);
        for (size_t k = 0; k < 4 * count; k++)
            if (w[k] != p.words[k])
                fail_msg("%s: instruction %zu dword %zu is 0x%08x, %s has 0x%08x", path, k / 4,
                         k % 4, p.words[k], words_path, w[k]);
        /* and back: disassembly assembles to the same words */
        ls_buf dis;
        ls_buf_init(&dis);
        r500_pvs_disasm(w, count, &dis);
        assert_null(strstr(dis.data, "raw ")); /* every corpus instruction has a spelling */
        r500_pvs_program q;
        assert_int_equal(r500_pvs_asm("dis", dis.data, dis.len, &q, NULL), LS_OK);
        assert_int_equal(q.count, count);
        assert_memory_equal(q.words, w, count * 16);
        r500_pvs_program_free(&q);
        ls_buf_free(&dis);
        free(w);
        r500_pvs_program_free(&p);
        ls_diag_list_free(&errs);
        ls_buf_free(&src);
        ls_buf_free(&wb);
        (*files)++;
        *insts += (unsigned)count;
    }
    closedir(dp);
    return 1;
}

static void test_corpus_round_trips(void **st)
{
    (void)st;
    const char *corpus = ls_test_corpus();
    if (!corpus) {
        printf("SKIP: corpus not found (LOCKSTEP_CORPUS or ../shared/corpus)\n");
        skip();
    }
    unsigned files = 0, insts = 0;
    corpus_dir(corpus, "src", true, &files, &insts);
    corpus_dir(corpus, "drm", false, &files, &insts);
    printf("%u corpus vertex programs, %u instructions: asm -> words -> dis -> asm exact\n",
           files, insts);
    assert_true(files >= 22);
    assert_true(insts >= 150);
}

/* ---- executor conformance ---------------------------------------------- */

typedef struct vm {
    r500_pvs_state st;
    float consts[256][4];
    r500_pvs_options o;
    ls_diag d;
    const r500_pvs_fc *fc; /* NULL: no flow control */
} vm;

static vm *vm_new(void)
{
    vm *v = calloc(1, sizeof *v);
    assert_non_null(v);
    r500_pvs_options_default(&v->o);
    return v;
}

static ls_status run_src(vm *v, const char *src)
{
    r500_pvs_program p;
    ls_diag_list errs;
    ls_diag_list_init(&errs);
    if (r500_pvs_asm("t", src, strlen(src), &p, &errs) != LS_OK)
        fail_msg("does not assemble: %s: %s", src, errs.items[0].msg);
    ls_diag_list_free(&errs);
    ls_status s = r500_pvs_run(p.words, p.count, 0, p.count - 1, (const float(*)[4])v->consts, v->fc,
                               &v->o, &v->st, NULL, &v->d);
    r500_pvs_program_free(&p);
    return s;
}

static void set4(float *r, float a, float b, float c, float d)
{
    r[0] = a, r[1] = b, r[2] = c, r[3] = d;
}

#define EXPECT4(r, a, b, c, d)                                                                 \
    do {                                                                                       \
        assert_float_equal((r)[0], (a), 0);                                                    \
        assert_float_equal((r)[1], (b), 0);                                                    \
        assert_float_equal((r)[2], (c), 0);                                                    \
        assert_float_equal((r)[3], (d), 0);                                                    \
    } while (0)

static void test_exec_vector_ops(void **st)
{
    (void)st;
    vm *v = vm_new();
    set4(v->st.input[0], 1.5f, -2.0f, 3.0f, 0.5f);
    set4(v->consts[0], 2.0f, 4.0f, -1.0f, 8.0f);
    assert_int_equal(run_src(v, "temp[0].xyzw = VE_ADD input[0].xyzw const[0].xyzw ;\n"
                                "temp[1].xyzw = VE_MUL input[0].xyzw const[0].xyzw ;\n"
                                "temp[2].xyzw = VE_MAD input[0].xyzw const[0].xyzw temp[0].xyzw ;\n"
                                "temp[3].xyzw = VE_DOT input[0].xyzw const[0].xyzw ;\n"
                                /* Mesa: DST -> VE_DISTANCE_VECTOR, (1, a.y*b.y, a.z, b.w) */
                                "temp[4].xyzw = VE_DISTANCE_VECTOR input[0].xyzw const[0].xyzw ;\n"
                                "temp[5].xyzw = VE_FRC input[0].xyzw ;\n"
                                "temp[6].xyzw = VE_MAX input[0].xyzw const[0].xyzw ;\n"
                                "temp[7].xyzw = VE_MIN input[0].xyzw const[0].xyzw ;\n"
                                "temp[8].xyzw = VE_SGE input[0].xyzw const[0].xxxx ;\n"
                                "temp[9].xyzw = VE_SLT input[0].xyzw const[0].xxxx ;\n"
                                "temp[10].xyzw = VE_SEQ input[0].xyzw const[0].zxyw ;\n"
                                "temp[11].xyzw = VE_SNE input[0].-x-y-z-w input[0].-xyz-w ;\n"
                                "temp[12].xyzw = VE_SGT |input[0].xyzw| const[0].wzyx ;\n"
                                "temp[13].xyzw = VE_ADD input[0].0101 input[0].-0-0-1-1 ;\n"),
                     LS_OK);
    EXPECT4(v->st.temp[0], 3.5f, 2.0f, 2.0f, 8.5f);
    EXPECT4(v->st.temp[1], 3.0f, -8.0f, -3.0f, 4.0f);
    EXPECT4(v->st.temp[2], 6.5f, -6.0f, -1.0f, 12.5f);
    EXPECT4(v->st.temp[3], 3.0f - 8.0f - 3.0f + 4.0f, -4.0f, -4.0f, -4.0f);
    EXPECT4(v->st.temp[4], 1.0f, -8.0f, 3.0f, 8.0f);
    EXPECT4(v->st.temp[5], 0.5f, 0.0f, 0.0f, 0.5f);
    EXPECT4(v->st.temp[6], 2.0f, 4.0f, 3.0f, 8.0f);
    EXPECT4(v->st.temp[7], 1.5f, -2.0f, -1.0f, 0.5f);
    EXPECT4(v->st.temp[8], 0.0f, 0.0f, 1.0f, 0.0f);
    EXPECT4(v->st.temp[9], 1.0f, 1.0f, 0.0f, 1.0f);
    EXPECT4(v->st.temp[10], 0.0f, 0.0f, 0.0f, 0.0f);
    EXPECT4(v->st.temp[11], 0.0f, 1.0f, 1.0f, 0.0f);
    EXPECT4(v->st.temp[12], 0.0f, 1.0f, 0.0f, 0.0f);
    EXPECT4(v->st.temp[13], 0.0f, 1.0f, -1.0f, 0.0f);
    free(v);
}

/* Options vs-zero-times-anything and vs-minmax-nan (docs/assumptions.md).
 * Expected values by hand: legacy 0 * inf = +0 (the fragment unit's
 * ZERO_TIMES_ANYTHING_EQUALS_ZERO rule), IEEE 754 0 * inf = NaN; "second" =
 * the comparison as written (x >= y ? x : y), "number" = maxNum/minNum. */
static void test_exec_special_values(void **st)
{
    (void)st;
    vm *v = vm_new();
    set4(v->st.input[0], 0.0f, INFINITY, 3.0f, NAN);
    /* r300's select lowering (radeon_program_alu.c transform_r300_vertex_CMP
     * = SLT + LRP, LRP = MAD(-c, b, b) then MAD(c, a, tmp)), as it runs in
     * r300's atan2 for atan(0, x < 0): c = 0, a = 1, b = +inf must give inf. */
    const char *sel = "temp[0].x = VE_MAD input[0].-x-_-_-_ input[0].y___ input[0].y___ ;\n"
                      "temp[0].x = VE_MAD input[0].x___ input[0].1___ temp[0].x___ ;\n"
                      "temp[1].xyzw = VE_MUL input[0].xxxx input[0].ywyw ;\n"
                      "temp[2].xyzw = VE_DOT input[0].x000 input[0].y000 ;\n"
                      "temp[3].xyzw = VE_MAX input[0].zwzw input[0].wzwz ;\n"
                      "temp[4].xyzw = VE_MIN input[0].zwzw input[0].wzwz ;\n";
    assert_int_equal(run_src(v, sel), LS_OK);
    assert_true(isinf(v->st.temp[0][0]) && v->st.temp[0][0] > 0);
    EXPECT4(v->st.temp[1], 0.0f, 0.0f, 0.0f, 0.0f);
    assert_false(signbit(v->st.temp[1][0]));
    assert_float_equal(v->st.temp[2][0], 0.0f, 0);
    /* max(3, NaN) = NaN (the second operand), max(NaN, 3) = 3 */
    assert_true(isnan(v->st.temp[3][0]) && v->st.temp[3][1] == 3.0f);
    assert_true(isnan(v->st.temp[4][0]) && v->st.temp[4][1] == 3.0f);

    ls_diag d;
    assert_int_equal(r500_pvs_options_set(&v->o, "vs-zero-times-anything", "ieee", &d), LS_OK);
    assert_int_equal(r500_pvs_options_set(&v->o, "vs-minmax-nan", "number", &d), LS_OK);
    assert_int_equal(run_src(v, sel), LS_OK);
    assert_true(isnan(v->st.temp[0][0]));
    assert_true(isnan(v->st.temp[1][0]) && isnan(v->st.temp[1][1]));
    assert_true(isnan(v->st.temp[2][0]));
    EXPECT4(v->st.temp[3], 3.0f, 3.0f, 3.0f, 3.0f);
    EXPECT4(v->st.temp[4], 3.0f, 3.0f, 3.0f, 3.0f);
    assert_int_equal(r500_pvs_options_set(&v->o, "vs-minmax-nan", "ieee", &d), LS_ERR_ARG);
    assert_int_equal(r500_pvs_options_set(&v->o, "vs-zero-times-anything", "x", &d), LS_ERR_ARG);
    free(v);
}

static void test_exec_cond_and_sat(void **st)
{
    (void)st;
    vm *v = vm_new();
    set4(v->st.input[0], -1.0f, 0.0f, 2.0f, -0.0f);
    set4(v->st.temp[1], 10, 20, 30, 40);
    set4(v->st.temp[2], 1, 2, 3, 4);
    set4(v->st.temp[3], 7, 7, 7, 7);
    /* Mesa ei_cmp: GL CMP(a, b, c) = a < 0 ? b : c is emitted as COND_MUX_GTE
     * with sources (a, c, b): so COND_MUX_GTE(a, x, y) = a >= 0 ? x : y. */
    assert_int_equal(run_src(v, "temp[0].xyzw = VE_COND_MUX_GTE input[0].xyzw temp[1].xyzw temp[2].xyzw ;\n"
                                "temp[3].xyzw = VE_COND_WRITE_GT input[0].xyzw temp[1].xyzw ;\n"
                                "temp[4].xyzw = VE_MAD.SAT input[0].xyzw temp[2].xyzw temp[2].0000 ;\n"
                                "temp[5].xyzw = VE_MULTIPLYX2_ADD input[0].xyzw temp[2].xyzw temp[2].1111 ;\n"),
                     LS_OK);
    EXPECT4(v->st.temp[0], 1, 20, 30, 40);
    EXPECT4(v->st.temp[3], 7, 7, 30, 7); /* only z (2 > 0) written */
    EXPECT4(v->st.temp[4], 0, 0, 1, 0);
    EXPECT4(v->st.temp[5], -1, 1, 13, 1);
    free(v);
}

static void test_exec_math_ops(void **st)
{
    (void)st;
    vm *v = vm_new();
    set4(v->st.input[0], 0.0f, 0.0f, 0.0f, 4.0f);
    set4(v->st.input[1], 0.0f, 0.0f, 0.0f, -0.25f);
    set4(v->consts[0], 3.0f, 0.5f, 0.0f, 2.0f);
    /* ME operands are the W channels (buhman/r500 drm/cube_rotate.vs.asm:
     * ME_SIN temp[0].___x); POW's exponent is src2 (Mesa ei_pow). */
    assert_int_equal(run_src(v, "temp[0].xyzw = ME_RCP input[0].xyzw ;\n"
                                "temp[1].xyzw = ME_RSQ input[0].xyzw ;\n"
                                "temp[2].xyzw = ME_RECIP_SQRT_DX input[1].xyzw ;\n" /* |a| */
                                "temp[3].xyzw = ME_EXP_BASE2_FULL_DX input[1].xyzw ;\n"
                                "temp[4].xyzw = ME_LOG_BASE2_FULL_DX input[0].xyzw ;\n"
                                "temp[5].xyzw = ME_EXP input[1].xyzw ;\n"            /* ARB EXP */
                                "temp[6].xyzw = ME_LOG2 const[0].wwwx ;\n"           /* ARB LOG of 3 */
                                "temp[7].xyzw = ME_POW input[0].xyzw input[0].0000 ;\n"
                                "temp[8].xyzw = ME_MUL input[0].xyzw const[0].xyzw ;\n"
                                "temp[9].xyzw = ME_RECIP_IEEE input[0].0000 ;\n"
                                "temp[10].xyzw = ME_RECIP_FF input[0].0000 ;\n"
                                "temp[11].xyzw = ME_SIN const[0].xxxx ;\n"),
                     LS_OK);
    EXPECT4(v->st.temp[0], 0.25f, 0.25f, 0.25f, 0.25f);
    EXPECT4(v->st.temp[1], 0.5f, 0.5f, 0.5f, 0.5f);
    EXPECT4(v->st.temp[2], 2.0f, 2.0f, 2.0f, 2.0f);
    assert_float_equal(v->st.temp[3][0], (float)exp2(-0.25), 0);
    EXPECT4(v->st.temp[4], 2.0f, 2.0f, 2.0f, 2.0f);
    EXPECT4(v->st.temp[5], 0.5f, 0.75f, (float)exp2(-0.25), 1.0f);
    EXPECT4(v->st.temp[6], 1.0f, 1.5f, (float)log2(3.0), 1.0f);
    /* src1 = input[0].0000 (zeros), src2 = filler = src1's register with
     * unused selects (0): 4^0 = 1 */
    EXPECT4(v->st.temp[7], 1.0f, 1.0f, 1.0f, 1.0f);
    /* ME_MUL: src0.w * src1.w (option vs-me-b=src1) = 4 * 2 */
    EXPECT4(v->st.temp[8], 8.0f, 8.0f, 8.0f, 8.0f);
    assert_true(isinf(v->st.temp[9][0]) && v->st.temp[9][0] > 0);
    assert_float_equal(v->st.temp[10][0], FLT_MAX, 0); /* vs-ff-inf=max */
    /* buhman/r500: "ME_SIN and ME_COS clamp their inputs to [-π,+π]": sin(3) */
    assert_float_equal(v->st.temp[11][0], (float)sin(3.0), 0);
    free(v);

    v = vm_new();
    set4(v->consts[1], 0.0f, 0.0f, 0.0f, 5.0f);
    assert_int_equal(run_src(v, "temp[0].xyzw = ME_SIN const[1].xyzw ;\n"), LS_OK);
    assert_float_equal(v->st.temp[0][0], (float)sin(M_PI), 0); /* clamped to π */
    assert_int_equal(r500_pvs_options_set(&v->o, "vs-sincos-range", "full", &v->d), LS_OK);
    assert_int_equal(run_src(v, "temp[0].xyzw = ME_SIN const[1].xyzw ;\n"), LS_OK);
    assert_float_equal(v->st.temp[0][0], (float)sin(5.0), 0);
    free(v);
}

/* LIT (Mesa ei_lit): src0 = (X, W, 0, Y), src1 = (Y, W, 0, X), src2 = (Y, X, 0, W)
 * of the GL operand, so the W channels carry N.H, N.L, power. */
static void test_exec_lit(void **st)
{
    (void)st;
    vm *v = vm_new();
    set4(v->st.input[0], 0.5f, 0.25f, 0.0f, 2.0f); /* N.L, N.H, -, power */
    assert_int_equal(run_src(v, "out[0].xyzw = ME_LIGHT_COEFF_DX input[0].xw0y input[0].yw0x input[0].yx0w ;\n"),
                     LS_OK);
    EXPECT4(v->st.out[0], 1.0f, 0.5f, 0.0625f, 1.0f);
    assert_int_equal(v->st.out_written[0], 0xf);
    free(v);
}

/* The predicate stack as Mesa's radeon_vert_fc.c lowers IF/ELSE/ENDIF:
 * IF -> ME_PRED_SET_NEQ (predicate register .w), body predicated, ELSE ->
 * ME_PRED_SET_INV, ENDIF -> ME_PRED_SET_POP. */
static void test_exec_predicates(void **st)
{
    (void)st;
    for (int cond = 0; cond < 2; cond++) {
        vm *v = vm_new();
        set4(v->st.input[0], 0, 0, 0, (float)cond);
        assert_int_equal(run_src(v, "temp[9].w = ME_PRED_SET_NEQ input[0].xyzw ;\n"
                                    "out[0].x = VE_ADD.PRED input[0].1111 input[0].0000 ;\n"
                                    "temp[9].w = ME_PRED_SET_INV temp[9].xyzw ;\n"
                                    "out[0].y = VE_ADD.PRED input[0].1111 input[0].0000 ;\n"
                                    "temp[9].w = ME_PRED_SET_POP temp[9].xyzw ;\n"
                                    "out[0].z = VE_ADD.PRED input[0].1111 input[0].0000 ;\n"
                                    "out[0].w = VE_ADD.NPRED input[0].1111 input[0].0000 ;\n"),
                         LS_OK);
        EXPECT4(v->st.out[0], cond ? 1.0f : 0.0f, cond ? 0.0f : 1.0f, 1.0f, 0.0f);
        assert_float_equal(v->st.temp[9][3], 0.0f, 0);
        free(v);
    }
    /* nested: VE_PRED_SET_NEQ_PUSH counts the depth while inactive */
    vm *v = vm_new();
    set4(v->st.temp[9], 0, 0, 0, 1.0f); /* outer IF false: counter 1 */
    set4(v->st.input[0], 0, 0, 0, 1.0f);
    assert_int_equal(run_src(v, "temp[9].w = VE_PRED_SET_NEQ_PUSH temp[9].xyzw input[0].xyzw ;\n"),
                     LS_OK);
    assert_float_equal(v->st.temp[9][3], 2.0f, 0);
    assert_false(v->st.pred);
    free(v);
}

/* ARL -> VE_FLT2FIX_DX into a0 (Mesa), then relative addressing. */
static void test_exec_relative(void **st)
{
    (void)st;
    vm *v = vm_new();
    set4(v->st.input[0], 2.7f, -0.5f, 1.5f, 0.0f);
    for (int i = 0; i < 8; i++)
        set4(v->consts[i], (float)i, (float)(10 * i), 0, 0);
    assert_int_equal(run_src(v, "a0[0].xyz = VE_FLT2FIX_DX input[0].xyzw ;\n"
                                "out[0].xyzw = VE_ADD const[a0.x+3].xyzw const[a0.x+3].0000 ;\n"
                                "out[1].xyzw = VE_ADD const[a0.y+1].xyzw const[a0.y+1].0000 ;\n"
                                "a0[0].x = VE_FLT2FIX_DX_RND input[0].zzzz ;\n"),
                     LS_OK);
    assert_int_equal(v->st.a0[0], 2);
    assert_int_equal(v->st.a0[1], -1);
    assert_int_equal(v->st.a0[2], 1);
    EXPECT4(v->st.out[0], 5, 50, 0, 0);
    EXPECT4(v->st.out[1], 0, 0, 0, 0);
    free(v);
    v = vm_new();
    set4(v->st.input[0], 2.5f, 0, 0, 0);
    assert_int_equal(run_src(v, "a0[0].x = VE_FLT2FIX_DX_RND input[0].xxxx ;\n"), LS_OK);
    assert_int_equal(v->st.a0[0], 3);
    free(v);
}

/* Dual math: both operations read before either writes. */
static void test_exec_dual(void **st)
{
    (void)st;
    vm *v = vm_new();
    set4(v->st.temp[0], 4.0f, 16.0f, 0, 0);
    set4(v->st.alt[1], 9, 9, 9, 9);
    assert_int_equal(run_src(v, "alt_temp[1].xy = VE_ADD temp[0].xyzw temp[0].1111 ,\n"
                                "alt_temp[1].z = ME_RSQ alt_temp[1].y_ ;\n"),
                     LS_OK);
    EXPECT4(v->st.alt[1], 5.0f, 17.0f, 1.0f / 3.0f, 9.0f);
    free(v);
}

/* drm/cube_rotate.vs.asm and its dual-math rewrite compute the same rotation
 * (x-axis by theta1, then y-axis by theta2, scale 0.2, w = -z): expected
 * values from the formulas in the programs' comments, in double. */
static void test_exec_cube_rotate(void **st)
{
    (void)st;
    const char *corpus = ls_test_corpus();
    if (!corpus) {
        printf("SKIP: corpus not found\n");
        skip();
    }
    const double t1 = 0.3, t2 = 0.7, x0 = 0.25, y0 = -0.5, z0 = 0.75;
    double y1 = y0 * cos(t1) - z0 * sin(t1), z1 = y0 * sin(t1) + z0 * cos(t1), x1 = x0;
    double x2 = x1 * cos(t2) - z1 * sin(t2), z2 = x1 * sin(t2) + z1 * cos(t2), y2 = y1;
    double z3 = 0.2 * z2 + 0.5;
    /* out[0] = temp[3].xyzz * temp[3].11-z1 */
    double want[4] = {0.2 * x2, 0.2 * y2, -z3 * z3, z3};
    const char *files[2] = {"drm/cube_rotate.vs.asm", "drm/cube_rotate_optimize.vs.asm"};
    for (int f = 0; f < 2; f++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/buhman-r500/%s", corpus, files[f]);
        ls_buf src;
        ls_buf_init(&src);
        assert_true(ls_read_file(path, &src));
        vm *v = vm_new();
        if (f == 0) {
            set4(v->consts[0], 0.159155f, 0.5f, 6.283185f, -3.141593f);
            set4(v->consts[1], (float)t1, (float)t2, 0.2f, 0.5f);
        } else {
            set4(v->consts[0], (float)t1, (float)t2, 0.159155f, 0.5f);
            set4(v->consts[1], 6.283185f, -3.141593f, 0.2f, 0.5f);
        }
        set4(v->st.input[0], (float)x0, (float)y0, (float)z0, 1.0f);
        set4(v->st.input[1], 0.125f, 0.875f, 0, 0);
        r500_pvs_program p;
        assert_int_equal(r500_pvs_asm(path, src.data, src.len, &p, NULL), LS_OK);
        assert_int_equal(r500_pvs_run(p.words, p.count, 0, p.count - 1,
                                      (const float(*)[4])v->consts, NULL, &v->o, &v->st, NULL, &v->d),
                         LS_OK);
        for (int k = 0; k < 4; k++)
            assert_float_equal(v->st.out[0][k], want[k], 2e-6);
        EXPECT4(v->st.out[1], 0.125f, 0.875f, 0.0f, 0.0f);
        r500_pvs_program_free(&p);
        ls_buf_free(&src);
        free(v);
    }
}

/* ---- faults ---------------------------------------------------------------- */

static void test_faults(void **st)
{
    (void)st;
    vm *v = vm_new();
    /* bad register index through relative addressing */
    v->st.a0[0] = 200;
    assert_int_equal(run_src(v, "out[0].x = VE_ADD temp[a0.x+0].xxxx temp[0].0000 ;\n"), LS_ERR_FAULT);
    assert_non_null(strstr(v->d.msg, "bad register index: temp[200]"));
    assert_int_equal(v->d.index, 0);
    v->st.a0[0] = -1;
    assert_int_equal(run_src(v, "temp[0].x = VE_ADD temp[0].xxxx temp[0].0000 ;\n"
                                "out[a0.x+0].x = VE_ADD temp[0].xxxx temp[0].0000 ;\n"),
                     LS_ERR_FAULT);
    assert_int_equal(v->d.index, 1);
    /* alt temps beyond the model's 20 */
    assert_int_equal(run_src(v, "alt_temp[25].x = VE_ADD temp[0].xxxx temp[0].0000 ;\n"), LS_ERR_FAULT);
    /* undocumented operation */
    assert_int_equal(run_src(v, "temp[0].x = VE_MULTIPLY_CLAMP temp[0].xxxx temp[0].xxxx temp[0].xxxx ;\n"),
                     LS_ERR_UNSUPPORTED);
    /* reserved register type (raw form) */
    assert_int_equal(run_src(v, "raw 0x00f00603 0x00d10001 0x01248001 0x01ffe001 ;\n"), LS_ERR_FAULT);
    assert_non_null(strstr(v->d.msg, "reserved"));
    /* PC off the end: PVS_LAST_INST past the program */
    r500_pvs_program p;
    const char *one = "out[0].x = VE_ADD temp[0].xxxx temp[0].0000 ;\n";
    assert_int_equal(r500_pvs_asm("t", one, strlen(one), &p, NULL), LS_OK);
    assert_int_equal(r500_pvs_run(p.words, p.count, 0, 3, NULL, NULL, &v->o, &v->st, NULL, &v->d),
                     LS_ERR_FAULT);
    assert_int_equal(v->d.index, 1);
    assert_non_null(strstr(v->d.msg, "PC off the end"));
    r500_pvs_program_free(&p);
    free(v);
}

static void test_options(void **st)
{
    (void)st;
    r500_pvs_options o;
    ls_diag d;
    r500_pvs_options_default(&o);
    assert_int_equal(r500_pvs_options_set(&o, "vs-temps", "32", &d), LS_OK);
    assert_int_equal(o.temps, 32);
    assert_int_equal(r500_pvs_options_set(&o, "vs-temps", "0", &d), LS_ERR_ARG);
    assert_int_equal(r500_pvs_options_set(&o, "rcp-zero", "max", &d), LS_OK);
    assert_int_equal(o.math.rcp_zero, R500_RCP_ZERO_MAX);
    assert_int_equal(r500_pvs_options_set(&o, "kill", "stop", &d), LS_ERR_ARG);
    assert_int_equal(r500_pvs_options_set(&o, "vs-me-b", "src3", &d), LS_ERR_ARG);
}

/* ---- flow control (regs/bits/vap_pvs_flow_cntl_*.txt) -------------------- */

/* A loop laid out as Mesa's translate_vertex_program does: the BGNLOOP and
 * ENDLOOP slots are no-ops, ACT_ADRS = the BGNLOOP slot, RTN_INST = the first
 * body instruction, LAST_INST = the last body instruction. */
static const char *const loop_prog =
    "temp[0].x = VE_ADD input[0].0000 input[0].0000 ;\n"            /* 0 */
    "temp[0]._ = VE_NOP ;\n"                                           /* 1: BGNLOOP slot */
    "temp[0].x = VE_ADD temp[0].xxxx input[0].1111 ;\n"              /* 2 */
    "out[0].x = VE_ADD const[i0.x+0].xxxx const[i0.x+0].0000 ;\n"    /* 3 */
    "temp[0]._ = VE_NOP ;\n"                                           /* 4: ENDLOOP slot */
    "out[1].x = VE_ADD temp[0].xxxx temp[0].0000 ;\n";                /* 5 */

static void test_fc_loop(void **st)
{
    (void)st;
    vm *v = vm_new();
    for (int i = 0; i < 8; i++)
        v->consts[i][0] = (float)(100 + i);
    r500_pvs_fc fc;
    memset(&fc, 0, sizeof fc);
    ls_diag d;
    assert_int_equal(r500_pvs_fc_set(&fc, "VAP_PVS_FLOW_CNTL_OPC", 2, &d), LS_OK); /* op 0 LOOP */
    assert_int_equal(r500_pvs_fc_set(&fc, "VAP_PVS_FLOW_CNTL_ADDRS_LW_0", 1 | 3u << 16, &d), LS_OK);
    assert_int_equal(r500_pvs_fc_set(&fc, "VAP_PVS_FLOW_CNTL_ADDRS_UW_0", 3 | 2u << 16, &d), LS_OK);
    /* init 2, step +1 */
    assert_int_equal(r500_pvs_fc_set(&fc, "VAP_PVS_FLOW_CNTL_LOOP_INDEX_0", 2 | 1u << 8, &d), LS_OK);
    assert_int_equal(r500_pvs_fc_set(&fc, "VAP_PVS_FLOW_CNTL_ADDRS_LW_16", 0, &d), LS_ERR_ARG);
    v->fc = &fc;
    r500_pvs_stats stats = {0};
    r500_pvs_program p;
    assert_int_equal(r500_pvs_asm("t", loop_prog, strlen(loop_prog), &p, NULL), LS_OK);
    assert_int_equal(r500_pvs_run(p.words, p.count, 0, p.count - 1, (const float(*)[4])v->consts,
                                  &fc, &v->o, &v->st, &stats, &v->d),
                     LS_OK);
    assert_float_equal(v->st.temp[0][0], 3.0f, 0);   /* three trips */
    assert_float_equal(v->st.out[0][0], 104.0f, 0);  /* i0 = 2, 3, 4 */
    assert_float_equal(v->st.out[1][0], 3.0f, 0);
    assert_int_equal(v->st.i0, 0);                   /* restored after the loop */
    assert_int_equal(stats.issued, 2 + 3 * 2 + 2);
    /* step -1 from 7: 7, 6, 5 */
    memset(&v->st, 0, sizeof v->st);
    fc.loop_index[0] = 7 | 0xffu << 8;
    assert_int_equal(run_src(v, loop_prog), LS_OK);
    assert_float_equal(v->st.out[0][0], 105.0f, 0);
    /* count 0 is illegal ("must be replaced by a jump") */
    fc.addrs_lw[0] = 1;
    assert_int_equal(run_src(v, loop_prog), LS_ERR_FAULT);
    assert_int_equal(v->d.index, 1);
    r500_pvs_program_free(&p);
    free(v);
}

static void test_fc_jump_jsr(void **st)
{
    (void)st;
    vm *v = vm_new();
    r500_pvs_fc fc;
    memset(&fc, 0, sizeof fc);
    v->fc = &fc;
    const char *src = "out[0].x = VE_ADD input[0].1111 input[0].0000 ;\n"  /* 0 */
                      "out[0].y = VE_ADD input[0].1111 input[0].0000 ;\n"  /* 1 */
                      "out[0].z = VE_ADD input[0].1111 input[0].0000 ;\n"  /* 2 */
                      "temp[0]._ = VE_NOP ;\n"                              /* 3: program end */
                      "out[1].x = VE_ADD temp[1].1111 temp[1].xxxx ;\n"    /* 4: subroutine */
                      "temp[1].x = VE_ADD temp[1].1111 temp[1].xxxx ;\n";  /* 5: its last */
    /* op 0: JSR after 0 to 4, last 5, return to 1; op 1: JUMP after 1 to 3 */
    fc.opc = 3 | 1u << 2;
    fc.addrs_lw[0] = 0 | 4u << 16;
    fc.addrs_uw[0] = 5 | 1u << 16;
    fc.addrs_lw[1] = 1 | 3u << 16;
    r500_pvs_program p;
    assert_int_equal(r500_pvs_asm("t", src, strlen(src), &p, NULL), LS_OK);
    assert_int_equal(r500_pvs_run(p.words, p.count, 0, 3, NULL, &fc, &v->o, &v->st, NULL, &v->d),
                     LS_OK);
    EXPECT4(v->st.out[0], 1, 1, 0, 0);        /* z skipped by the JUMP */
    assert_float_equal(v->st.out[1][0], 1.0f, 0); /* the subroutine ran once */
    assert_float_equal(v->st.temp[1][0], 1.0f, 0);
    /* a jump back to itself: the watchdog stops it */
    fc.opc = 1;
    fc.addrs_lw[0] = 2 | 0u << 16;
    assert_int_equal(r500_pvs_options_set(&v->o, "vs-watchdog", "1000", &v->d), LS_OK);
    assert_int_equal(r500_pvs_run(p.words, p.count, 0, 3, NULL, &fc, &v->o, &v->st, NULL, &v->d),
                     LS_ERR_FAULT);
    assert_non_null(strstr(v->d.msg, "watchdog"));
    /* nesting beyond vs-fc-depth: a JSR that calls itself */
    r500_pvs_options_default(&v->o);
    fc.opc = 3;
    fc.addrs_lw[0] = 4 | 4u << 16;
    fc.addrs_uw[0] = 5 | 1u << 16;
    v->o.fc_depth = 3;
    assert_int_equal(r500_pvs_run(p.words, p.count, 4, 5, NULL, &fc, &v->o, &v->st, NULL, &v->d),
                     LS_ERR_FAULT);
    assert_non_null(strstr(v->d.msg, "nested"));
    r500_pvs_program_free(&p);
    free(v);
}

/* The batch entry point gives what one-at-a-time runs give, and names the
 * vertex that faults. */
static void test_run_vertices(void **st)
{
    (void)st;
    const char *src = "a0[0].x = VE_FLT2FIX_DX input[0].xxxx ;\n"
                      "out[0].xyzw = VE_MAD input[0].xyzw const[a0.x+0].xyzw const[a0.x+0].0000 ;\n";
    r500_pvs_program p;
    assert_int_equal(r500_pvs_asm("t", src, strlen(src), &p, NULL), LS_OK);
    float consts[256][4];
    for (int i = 0; i < 256; i++)
        set4(consts[i], (float)i, 1, 2, 3);
    r500_pvs_options o;
    r500_pvs_options_default(&o);
    enum { N = 40 };
    r500_pvs_state *a = calloc(N, sizeof *a), *b = calloc(N, sizeof *b);
    assert_non_null(a);
    assert_non_null(b);
    for (int v = 0; v < N; v++)
        set4(a[v].input[0], (float)v * 7.0f, 1, 2, 3);
    memcpy(b, a, N * sizeof *a);
    ls_diag d;
    size_t fv = 99;
    assert_int_equal(r500_pvs_run_vertices(p.words, p.count, 0, 1, (const float(*)[4])consts, NULL,
                                           &o, a, N, &fv, NULL, &d),
                     LS_ERR_FAULT); /* 37 * 7 = 259 > 255 */
    assert_int_equal(fv, 37);
    for (int v = 0; v < 37; v++) {
        assert_int_equal(r500_pvs_run(p.words, p.count, 0, 1, (const float(*)[4])consts, NULL,
                                      &o, &b[v], NULL, &d),
                         LS_OK);
        assert_memory_equal(&a[v], &b[v], sizeof a[v]);
        assert_float_equal(a[v].out[0][0], (float)(v * 7) * (float)(v * 7), 0);
    }
    free(a);
    free(b);
    r500_pvs_program_free(&p);
}

/* ---- docs/r500-vs.md ------------------------------------------------------ */

/* Every ```pvs block assembles; a ```pvs-run block after it gives options on
 * its "--" lines (--input, --const, --reg) and the expected output lines. */
static void test_doc_examples(void **st)
{
    (void)st;
    char path[1024];
    snprintf(path, sizeof path, "%s/docs/r500-vs.md", ls_test_source_root());
    ls_buf doc;
    ls_buf_init(&doc);
    assert_true(ls_read_file(path, &doc));
    const char *p = doc.data;
    int blocks = 0, runs = 0;
    while ((p = strstr(p, "```pvs\n"))) {
        p += 7;
        const char *end = strstr(p, "```");
        assert_non_null(end);
        r500_pvs_program prog;
        ls_diag_list errs;
        ls_diag_list_init(&errs);
        if (r500_pvs_asm("docs/r500-vs.md", p, (size_t)(end - p), &prog, &errs) != LS_OK)
            fail_msg("example %d does not assemble: %s", blocks + 1, errs.items[0].msg);
        ls_diag_list_free(&errs);
        blocks++;
        p = end + 3;
        while (*p == '\n')
            p++;
        if (strncmp(p, "```pvs-run\n", 11)) {
            r500_pvs_program_free(&prog);
            continue;
        }
        p += 11;
        end = strstr(p, "```");
        assert_non_null(end);
        vm *v = vm_new();
        r500_pvs_fc fc;
        memset(&fc, 0, sizeof fc);
        ls_buf want, got;
        ls_buf_init(&want);
        ls_buf_init(&got);
        while (p < end) {
            const char *nl = strchr(p, '\n');
            char line[512];
            snprintf(line, sizeof line, "%.*s", (int)(nl - p), p);
            p = nl + 1;
            if (strncmp(line, "--", 2)) {
                ls_buf_printf(&want, "%s\n", line);
                continue;
            }
            for (char *tok = strtok(line, " "); tok; tok = strtok(NULL, " ")) {
                char *arg = strtok(NULL, " ");
                assert_non_null(arg);
                char *eq = strchr(arg, '=');
                assert_non_null(eq);
                *eq = 0;
                if (!strcmp(tok, "--reg")) {
                    ls_diag d;
                    assert_int_equal(r500_pvs_fc_set(&fc, arg, (uint32_t)strtoul(eq + 1, NULL, 0), &d),
                                     LS_OK);
                    continue;
                }
                float vals[4] = {0, 0, 0, 0};
                char *q = eq + 1;
                for (int k = 0; k < 4 && *q; k++) {
                    vals[k] = strtof(q, &q);
                    if (*q == ',')
                        q++;
                }
                int idx = atoi(arg + 1);
                if (!strcmp(tok, "--input"))
                    memcpy(v->st.input[idx], vals, sizeof vals);
                else if (!strcmp(tok, "--const"))
                    memcpy(v->consts[idx], vals, sizeof vals);
                else
                    fail_msg("unknown option %s in a pvs-run block", tok);
            }
        }
        assert_int_equal(r500_pvs_run(prog.words, prog.count, 0, prog.count - 1,
                                      (const float(*)[4])v->consts, &fc, &v->o, &v->st, NULL,
                                      &v->d),
                         LS_OK);
        for (int k = 0; k < R500_PVS_MAX_REGS; k++)
            if (v->st.out_written[k])
                ls_buf_printf(&got, "out[%d] = %.9g %.9g %.9g %.9g\n", k, (double)v->st.out[k][0],
                              (double)v->st.out[k][1], (double)v->st.out[k][2],
                              (double)v->st.out[k][3]);
        if (strcmp(want.data ? want.data : "", got.data ? got.data : ""))
            fail_msg("example %d: the doc shows\n%sthe run gives\n%s", blocks, want.data,
                     got.data);
        runs++;
        ls_buf_free(&want);
        ls_buf_free(&got);
        free(v);
        r500_pvs_program_free(&prog);
        p = end + 3;
    }
    printf("%d examples assemble, %d run with the outputs the doc shows\n", blocks, runs);
    assert_true(blocks >= 4);
    assert_true(runs >= 4);
    ls_buf_free(&doc);
}

/* r500_pvs_vertex_apply: the settings of `r500 vs run`, each form and its errors */
static void test_vertex_settings(void **state)
{
    (void)state;
    static r500_pvs_vertex v;
    ls_diag d;
    r500_pvs_vertex_init(&v);
    assert_int_equal(v.first, 0);
    assert_int_equal(v.last, -1);
    assert_int_equal(r500_pvs_vertex_apply(&v, "input", "i3=1,-2", &d), LS_OK);
    assert_true(v.state.input[3][0] == 1 && v.state.input[3][1] == -2 && v.state.input[3][2] == 0 &&
                v.state.input[3][3] == 0);
    assert_int_equal(r500_pvs_vertex_apply(&v, "const", "c255=0.5,1,2,3", &d), LS_OK);
    assert_true(v.consts[255][0] == 0.5f && v.consts[255][3] == 3);
    assert_int_equal(r500_pvs_vertex_apply(&v, "const", "c256=1", &d), LS_ERR_ARG);
    assert_int_equal(r500_pvs_vertex_apply(&v, "input", "t0=1", &d), LS_ERR_ARG);
    /* fewer inputs: i3 is then out of range */
    assert_int_equal(r500_pvs_vertex_apply(&v, "model", "vs-inputs=2", &d), LS_OK);
    assert_int_equal(v.options.inputs, 2);
    assert_int_equal(r500_pvs_vertex_apply(&v, "input", "i3=1", &d), LS_ERR_ARG);
    assert_non_null(strstr(d.msg, "N < 2"));
    assert_int_equal(r500_pvs_vertex_apply(&v, "model", "vs-inputs", &d), LS_ERR_ARG);
    /* VAP_PVS_CODE_CNTL_0: PVS_FIRST_INST 9:0, PVS_LAST_INST 29:20 */
    assert_int_equal(r500_pvs_vertex_apply(&v, "reg", "VAP_PVS_CODE_CNTL_0=0x00300002", &d), LS_OK);
    assert_int_equal(v.first, 2);
    assert_int_equal(v.last, 3);
    assert_false(v.have_fc);
    assert_int_equal(r500_pvs_vertex_apply(&v, "reg", "VAP_PVS_FLOW_CNTL_OPC=0x1", &d), LS_OK);
    assert_true(v.have_fc);
    assert_int_equal(v.fc.opc, 1);
    assert_int_equal(r500_pvs_vertex_apply(&v, "reg", "VAP_PVS_FLOW_CNTL_OPC=0x100000000", &d), LS_ERR_ARG);
    assert_int_equal(r500_pvs_vertex_apply(&v, "last", "1024", &d), LS_ERR_ARG);
    assert_int_equal(r500_pvs_vertex_apply(&v, "last", "7", &d), LS_OK);
    assert_int_equal(v.last, 7);
    assert_int_equal(r500_pvs_vertex_apply(&v, "size", "1", &d), LS_ERR_ARG);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_claimed_masks),
        cmocka_unit_test(test_no_overlap),
        cmocka_unit_test(test_worked_decode),
        cmocka_unit_test(test_unclaimed_kept),
        cmocka_unit_test(test_random_codec_and_disasm),
        cmocka_unit_test(test_asm_errors),
        cmocka_unit_test(test_asm_extensions),
        cmocka_unit_test(test_mesa_layout),
        cmocka_unit_test(test_corpus_round_trips),
        cmocka_unit_test(test_exec_vector_ops),
        cmocka_unit_test(test_exec_special_values),
        cmocka_unit_test(test_exec_cond_and_sat),
        cmocka_unit_test(test_exec_math_ops),
        cmocka_unit_test(test_exec_lit),
        cmocka_unit_test(test_exec_predicates),
        cmocka_unit_test(test_exec_relative),
        cmocka_unit_test(test_exec_dual),
        cmocka_unit_test(test_exec_cube_rotate),
        cmocka_unit_test(test_faults),
        cmocka_unit_test(test_options),
        cmocka_unit_test(test_fc_loop),
        cmocka_unit_test(test_fc_jump_jsr),
        cmocka_unit_test(test_doc_examples),
        cmocka_unit_test(test_run_vertices),
        cmocka_unit_test(test_vertex_settings),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
