/* Whole-program execution: ALU result + FC, WRITE_INACTIVE, aL-relative
 * addressing, TEXKILL and the clear colour, faults (watchdog) confined to
 * their thread, statistics, the trace, and the bundled Mandelbrot demo
 * program against a direct C evaluation of its escape-time loop. FC words are
 * Mesa's exact encodings (spec/r500.md §3.2). */
#include <pthread.h>
#include "base/json.h"
#include "lockstep/r500_tex.h"
#include "test_exec_util.h"

/* FC instruction with Mesa's inst0 (TYPE_FC | ALU_WAIT) and words 2, 3. */
static void fc(tx_prog *p, uint32_t inst2, uint32_t jump, uint32_t int_addr)
{
    uint32_t *w = p->words + p->n * R500_INST_WORDS;
    memset(w, 0, R500_INST_WORDS * sizeof *w);
    w[0] = 0x00000402;
    w[2] = inst2;
    w[3] = (jump << 16) | (int_addr << 8);
    p->n++;
}
#define FC_IF 0x12000F00u      /* IF without ELSE */
#define FC_ENDIF 0x01010020u
#define FC_LOOP 0x10000001u
#define FC_ENDLOOP 0x1000FF22u
#define FC_BRK1 0x1401FF05u    /* BRK, pop count 1 */

/* ALU instruction writing the ALU result = (src.r <op> 0), src = t[temp].r + c */
static r500_inst alu_result_from(unsigned temp, unsigned code_c, unsigned neg_c, unsigned op)
{
    r500_inst a = tx_alu(R500_TYPE_ALU);
    TX(a, RGB_ADDR0, temp), TX(a, RGB_ADDR1, 0x80 | code_c);
    TX_RGB_A(a, 0, 0, 0, 0, 0);
    TX_RGB_B(a, 0, 6, 6, 6, 0);
    TX_RGB_C(a, 1, 0, 0, 0, neg_c);
    TX(a, ALU_WMASK, 1), TX(a, ALU_RESULT_SEL, 0), TX(a, ALU_RESULT_OP, op);
    return a;
}

/* t[dst].chmask = inline constant code (MAD 0 0 c) */
static r500_inst set_const(unsigned dst, unsigned mask, unsigned code)
{
    r500_inst a = tx_alu(R500_TYPE_ALU);
    TX(a, RGB_ADDR0, 0x80 | code), TX(a, ALPHA_ADDR0, 0x80 | code);
    TX_RGB_A(a, 0, 4, 4, 4, 0);
    TX_RGB_B(a, 0, 4, 4, 4, 0);
    TX_RGB_C(a, 0, 0, 0, 0, 0);
    TX(a, ALPHA_SWIZ_A, 4), TX(a, ALPHA_SWIZ_B, 4), TX(a, ALPHA_SWIZ_C, 3);
    TX(a, RGB_WMASK, mask & 7), TX(a, ALPHA_WMASK, (mask >> 3) & 1);
    TX(a, RGB_ADDRD, dst), TX(a, ALPHA_ADDRD, dst);
    return a;
}

/* OUT t[temp] (rgba) to target 0: 1 * t + 0. */
static void out_temp(tx_prog *p, unsigned temp)
{
    r500_inst o = tx_alu(R500_TYPE_OUT);
    TX(o, RGB_ADDR0, temp), TX(o, ALPHA_ADDR0, temp);
    TX_RGB_A(o, 0, 0, 1, 2, 0);
    TX_RGB_B(o, 0, 6, 6, 6, 0);
    TX_RGB_C(o, 0, 4, 4, 4, 0);
    TX(o, ALPHA_SWIZ_A, 3), TX(o, ALPHA_SWIZ_B, 6), TX(o, ALPHA_SWIZ_C, 4);
    TX(o, RGB_OMASK, 7), TX(o, ALPHA_OMASK, 1);
    tx_add(p, &o);
}

/* OUT (0.5, 0.5, 0.5, 1) to target 0 (swizzle codes 5 = 0.5, 6 = 1, 4 = 0). */
static void out_half(tx_prog *p)
{
    r500_inst o = tx_alu(R500_TYPE_OUT);
    TX_RGB_A(o, 0, 5, 5, 5, 0);
    TX_RGB_B(o, 0, 6, 6, 6, 0);
    TX_RGB_C(o, 0, 4, 4, 4, 0);
    TX(o, ALPHA_SWIZ_A, 6), TX(o, ALPHA_SWIZ_B, 6), TX(o, ALPHA_SWIZ_C, 4);
    TX(o, RGB_OMASK, 7), TX(o, ALPHA_OMASK, 1);
    tx_add(p, &o);
}

static void test_alu_result_if_and_write_inactive(void **state)
{
    (void)state;
    /* 0: ALU result = uv.x - 0.5 >= 0
     * 1: IF            2: t1.r = 1 with WRITE_INACTIVE   3: t2.r = 1
     * 4: ENDIF         5: OUT (t1.r, t2.r, 0, 1) */
    tx_prog p = {.n = 0};
    r500_inst a = alu_result_from(0, 48, 1, 2); /* t0.r - 0.5 >= 0 */
    tx_add(&p, &a);
    fc(&p, FC_IF, 5, 0);
    r500_inst w1 = set_const(1, 1, 56); /* 1.0 */
    TX(w1, WRITE_INACTIVE, 1);
    tx_add(&p, &w1);
    r500_inst w2 = set_const(2, 1, 56);
    tx_add(&p, &w2);
    fc(&p, FC_ENDIF, 5, 0);
    r500_inst o = tx_alu(R500_TYPE_OUT);
    TX(o, RGB_ADDR0, 1), TX(o, RGB_ADDR1, 2);
    TX_RGB_A(o, 0, 0, 4, 4, 0);
    TX_RGB_B(o, 0, 6, 6, 6, 0);
    TX_RGB_C(o, 1, 4, 0, 4, 0); /* (t1.r*1 + 0, 0*1 + t2.r, 0) */
    TX(o, GREEN_SWIZ_A, 4);
    TX(o, ALPHA_SWIZ_A, 6), TX(o, ALPHA_SWIZ_B, 6), TX(o, ALPHA_SWIZ_C, 4);
    TX(o, RGB_OMASK, 7), TX(o, ALPHA_OMASK, 1);
    tx_add(&p, &o);
    r500_job job;
    tx_job(&job, &p, 8, 2, 16); /* one thread holding both halves: the IF does not jump */
    job.inputs[0].kind = R500_INPUT_UV;
    r500_result res;
    tx_run(&job, &res);
    assert_int_equal(res.nfaults, 0);
    for (int y = 0; y < 2; y++)
        for (int x = 0; x < 8; x++) {
            bool taken = (x + 0.5f) / 8 - 0.5f >= 0;
            assert_true(tx_px(&res, 0, x, y, 0) == 1.0f);           /* WRITE_INACTIVE */
            assert_true(tx_px(&res, 0, x, y, 1) == (taken ? 1.0f : 0.0f));
        }
    /* SIMD efficiency by hand: 16 lanes; instructions 0, 1 and 5 all active;
     * 2, 3 and the ENDIF (issued before it reactivates the others) with 8:
     * (3*16 + 3*8) / (6*16) */
    assert_int_equal(res.stats.lane_slots_issued, 6 * 16);
    assert_int_equal(res.stats.lane_slots_active, 3 * 16 + 3 * 8);
    assert_int_equal(res.stats.inst_alu, 3);
    assert_int_equal(res.stats.inst_fc, 2);
    assert_int_equal(res.stats.inst_out, 1);
    /* work: right-half pixels issued 6 instructions while active, left 3 */
    assert_int_equal(res.work[0], 3);
    assert_int_equal(res.work[7], 6);
    r500_result_free(&res);
    /* without a work image (r500_job.work_image false): no per-pixel counts,
     * the same statistics */
    job.work_image = false;
    tx_run(&job, &res);
    assert_null(res.work);
    assert_int_equal(res.stats.lane_slots_active, 3 * 16 + 3 * 8);
    assert_true(tx_px(&res, 0, 7, 0, 1) == 1.0f);
    r500_result_free(&res);
    r500_job_free(&job);
}

/* Temps start at 0 in every thread, and an input temp holds its input, even
 * where the worker's previous thread wrote them (mesa-capture.md §4): a
 * program adding 1 to t5.r (no input) and to t0.b (the uv input's z = 0) gives
 * 1 in every pixel of every thread, the last one partial (8×7 = 56 pixels in
 * threads of 16: the worker runs four threads, the last of 8 lanes). */
static void test_temps_start_zero_per_thread(void **state)
{
    (void)state;
    tx_prog p = {.n = 0};
    for (unsigned k = 0; k < 2; k++) {
        const unsigned t = k ? 0 : 5, ch = k ? 2 : 0; /* t5.r, then t0.b */
        r500_inst a = tx_alu(R500_TYPE_ALU);
        TX(a, RGB_ADDR0, t);
        TX_RGB_A(a, 0, ch, ch, ch, 0);
        TX_RGB_B(a, 0, 6, 6, 6, 0); /* * 1 */
        TX_RGB_C(a, 0, 6, 6, 6, 0); /* + 1 */
        TX(a, RGB_WMASK, 1u << ch), TX(a, RGB_ADDRD, t);
        tx_add(&p, &a);
    }
    r500_inst o = tx_alu(R500_TYPE_OUT); /* (t5.r, t0.b, 0, 1) */
    TX(o, RGB_ADDR0, 5), TX(o, RGB_ADDR1, 0);
    TX_RGB_A(o, 0, 0, 4, 4, 0);
    TX_RGB_B(o, 0, 6, 6, 6, 0);
    TX_RGB_C(o, 1, 4, 2, 4, 0);
    TX(o, GREEN_SWIZ_A, 4);
    TX(o, ALPHA_SWIZ_A, 6), TX(o, ALPHA_SWIZ_B, 6), TX(o, ALPHA_SWIZ_C, 4);
    TX(o, RGB_OMASK, 7), TX(o, ALPHA_OMASK, 1);
    tx_add(&p, &o);
    r500_job job;
    tx_job(&job, &p, 8, 7, 16);
    job.inputs[0].kind = R500_INPUT_UV;
    r500_result res;
    tx_run(&job, &res);
    assert_int_equal(res.nfaults, 0);
    for (int y = 0; y < 7; y++)
        for (int x = 0; x < 8; x++) {
            assert_true(tx_px(&res, 0, x, y, 0) == 1.0f);
            assert_true(tx_px(&res, 0, x, y, 1) == 1.0f);
            assert_true(tx_px(&res, 0, x, y, 2) == 0.0f);
        }
    r500_result_free(&res);
    r500_job_free(&job);
}

static void test_loop_al_relative(void **state)
{
    (void)state;
    /* US_FC_INT_CONST_1 = KR 3, KG 2, KB 1: the body runs 3 times with
     * aL = 2, 3, 4 (r500.md §2.5). Body: t1.r += c[0 + aL].r (REL constant),
     * t[0 + aL].g = 1 (REL destination). */
    tx_prog p = {.n = 0};
    fc(&p, FC_LOOP, 3, 1); /* 0: LOOP -> ENDLOOP at 3 */
    r500_inst acc = tx_alu(R500_TYPE_ALU);
    TX(acc, RGB_ADDR0, 1), TX(acc, RGB_ADDR1, 0), TX(acc, RGB_ADDR1_CONST, 1),
        TX(acc, RGB_ADDR1_REL, 1);
    TX_RGB_A(acc, 0, 0, 0, 0, 0);
    TX_RGB_B(acc, 0, 6, 6, 6, 0);
    TX_RGB_C(acc, 1, 0, 0, 0, 0);
    TX(acc, RGB_WMASK, 1), TX(acc, RGB_ADDRD, 1);
    tx_add(&p, &acc); /* 1 */
    r500_inst mark = set_const(0, 2, 56);
    TX(mark, RGB_ADDRD_REL, 1);
    tx_add(&p, &mark); /* 2 */
    fc(&p, FC_ENDLOOP, 1, 1); /* 3 */
    r500_inst o = tx_alu(R500_TYPE_OUT);
    TX(o, RGB_ADDR0, 1), TX(o, ALPHA_ADDR0, 1);
    TX_RGB_A(o, 0, 0, 0, 0, 0);
    TX_RGB_B(o, 0, 6, 6, 6, 0);
    TX_RGB_C(o, 0, 4, 4, 4, 0);
    TX(o, ALPHA_SWIZ_A, 6), TX(o, ALPHA_SWIZ_B, 6), TX(o, ALPHA_SWIZ_C, 4);
    TX(o, RGB_OMASK, 1), TX(o, ALPHA_OMASK, 1);
    tx_add(&p, &o); /* 4: target.r = t1.r */
    /* 5: OUT to target B: (t4.g, t5.g, 0): aL reached 4 but never 5 */
    r500_inst ob = tx_alu(R500_TYPE_OUT);
    TX(ob, RGB_ADDR0, 4), TX(ob, RGB_ADDR1, 5);
    TX_RGB_A(ob, 0, 1, 4, 4, 0);
    TX_RGB_B(ob, 0, 6, 6, 6, 0);
    TX_RGB_C(ob, 1, 4, 1, 4, 0);
    TX(ob, RGB_OMASK, 7), TX(ob, RGB_TARGET, 1);
    tx_add(&p, &ob);
    r500_job job;
    tx_job(&job, &p, 4, 4, 16);
    job.regs.fc_int_const[1] = 3u | (2u << 8) | (1u << 16);
    for (unsigned i = 0; i < 8; i++)
        job.consts[i][0] = (float)(1u << i); /* c[i].r = 2^i */
    r500_result res;
    tx_run(&job, &res);
    assert_int_equal(res.nfaults, 0);
    /* c2 + c3 + c4 = 4 + 8 + 16 */
    assert_true(tx_px(&res, 0, 1, 2, 0) == 28.0f);
    assert_true(tx_px(&res, 1, 1, 2, 0) == 1.0f); /* t4.g marked through RGB_ADDRD_REL */
    assert_true(tx_px(&res, 1, 1, 2, 1) == 0.0f); /* t5.g not */
    r500_result_free(&res);
    r500_job_free(&job);
}

static void test_texkill_and_clear(void **state)
{
    (void)state;
    /* 0: t1 = uv - 0.5 (all four channels; .b = -0.5 -> use .rgga via swizzle)
     * 1: TEXKILL t1 (S,T,R,Q = r,g,g,g): kill if uv.x < .5 or uv.y < .5
     * 2: OUT (0.5, 0.5, 0.5, 1) */
    tx_prog p = {.n = 0};
    r500_inst a = tx_alu(R500_TYPE_ALU);
    TX(a, RGB_ADDR0, 0), TX(a, RGB_ADDR1, 0x80 | 48);
    TX_RGB_A(a, 0, 0, 1, 2, 0);
    TX_RGB_B(a, 0, 6, 6, 6, 0);
    TX_RGB_C(a, 1, 0, 0, 0, 1);
    TX(a, RGB_WMASK, 7), TX(a, RGB_ADDRD, 1);
    tx_add(&p, &a);
    r500_inst k;
    r500_inst_init(&k, R500_TYPE_TEX);
    TX(k, TEX_INST, 2), TX(k, TEX_SRC_ADDR, 1);
    TX(k, TEX_SRC_S_SWIZ, 0), TX(k, TEX_SRC_T_SWIZ, 1), TX(k, TEX_SRC_R_SWIZ, 1),
        TX(k, TEX_SRC_Q_SWIZ, 1);
    tx_add(&p, &k);
    out_half(&p);
    r500_job job;
    tx_job(&job, &p, 4, 4, 16);
    job.inputs[0].kind = R500_INPUT_UV;
    const float clear[4] = {0.25f, 0.0f, 1.0f, 0.75f};
    memcpy(job.clear, clear, sizeof clear);
    r500_result res;
    tx_run(&job, &res);
    for (int y = 0; y < 4; y++)
        for (int x = 0; x < 4; x++) {
            bool kill = (x + 0.5f) / 4 < 0.5f || (y + 0.5f) / 4 < 0.5f;
            assert_int_equal(res.killed[y * 4 + x], kill);
            for (unsigned ch = 0; ch < 4; ch++)
                assert_true(tx_px(&res, 0, x, y, ch) ==
                            (kill ? clear[ch] : (ch == 3 ? 1.0f : 0.5f)));
        }
    r500_result_free(&res);
    r500_job_free(&job);
}

/* TEXKILL t1 (S,T,R,Q = r,g,b,a), then OUT of the (zero) result */
static void texkill_t1_prog(tx_prog *p)
{
    r500_inst k;
    r500_inst_init(&k, R500_TYPE_TEX);
    TX(k, TEX_INST, 2), TX(k, TEX_SRC_ADDR, 1);
    TX(k, TEX_SRC_S_SWIZ, 0), TX(k, TEX_SRC_T_SWIZ, 1), TX(k, TEX_SRC_R_SWIZ, 2),
        TX(k, TEX_SRC_Q_SWIZ, 3);
    tx_add(p, &k);
    r500_inst o = tx_alu(R500_TYPE_OUT);
    TX(o, RGB_OMASK, 7);
    tx_add(p, &o);
}

/* Run texkill_t1_prog's job with t1 preloaded from img (RGBA per pixel)
 * and texkill-zero = keep (mode 0) or kill (mode 1). */
static void texkill_t1_run(r500_job *job, const float *img, int mode, r500_result *res)
{
    job->inputs[1].kind = R500_INPUT_IMAGE;
    job->inputs[1].image = img;
    ls_diag d;
    assert_int_equal(r500_options_set(&job->options, "texkill-zero", mode ? "kill" : "keep", &d),
                     LS_OK);
    tx_run(job, res);
}

/* An image input reaches every pixel's lanes unchanged, whatever the
 * thread's shape: OUT t1 of an image of distinct normal values (1 + 4 ×
 * pixel + channel) gives the image back, at sizes and thread sizes whose
 * threads are whole quads on one quad row (exec.c reads those two image
 * rows at a time), span quad rows, or hold helper pixels past an odd edge. */
static void test_image_input_reaches_lanes(void **state)
{
    (void)state;
    static const int shapes[][3] = {{8, 4, 16}, {64, 2, 64}, {34, 6, 48}, {7, 5, 12},
                                    {100, 3, 64}, {2, 2, 4}, {9, 9, 8}};
    for (size_t k = 0; k < sizeof shapes / sizeof shapes[0]; k++) {
        const int W = shapes[k][0], H = shapes[k][1];
        tx_prog p = {.n = 0};
        out_temp(&p, 1);
        r500_job job;
        tx_job(&job, &p, W, H, (unsigned)shapes[k][2]);
        float *img = malloc(sizeof(float) * 4 * (size_t)(W * H));
        assert_non_null(img);
        for (int i = 0; i < 4 * W * H; i++)
            img[i] = (float)(1 + i);
        job.inputs[1].kind = R500_INPUT_IMAGE;
        job.inputs[1].image = img;
        r500_result res;
        tx_run(&job, &res);
        for (int i = 0; i < 4 * W * H; i++)
            assert_true(res.target[0][i] == img[i]);
        r500_result_free(&res);
        r500_job_free(&job);
        free(img);
    }
}

/* TEXKILL of -0.0 (model option texkill-zero, docs/assumptions.md): t1 is
 * preloaded with (-0.0, +0.0, 1, 1) in the left half and (+0.0, ...) in the
 * right half; TEXKILL t1 kills nothing with "keep", the left half with
 * "kill". */
static void test_texkill_negative_zero(void **state)
{
    (void)state;
    for (int mode = 0; mode < 2; mode++) {
        tx_prog p = {.n = 0};
        texkill_t1_prog(&p);
        r500_job job;
        tx_job(&job, &p, 4, 2, 8);
        float img[4 * 2 * 4];
        for (int i = 0; i < 8; i++) {
            img[4 * i] = (i % 4) < 2 ? -0.0f : 0.0f;
            img[4 * i + 1] = 0.0f;
            img[4 * i + 2] = img[4 * i + 3] = 1.0f;
        }
        r500_result res;
        texkill_t1_run(&job, img, mode, &res);
        for (int i = 0; i < 8; i++)
            assert_int_equal(res.killed[i], mode == 1 && (i % 4) < 2);
        r500_result_free(&res);
        r500_job_free(&job);
    }
    r500_options o;
    r500_options_default(&o);
    ls_diag d;
    assert_int_equal(r500_options_set(&o, "texkill-zero", "sometimes", &d), LS_ERR_ARG);
}

/* TEXKILL on every kind of value, in threads of 12 (lanes past a multiple
 * of 4, 8 and 16): a pixel dies when any coordinate compares < 0.0f as C
 * compares it (negative normals, denormals and -inf; not -0.0, no NaN), and
 * with texkill-zero=kill also when one is -0.0. */
static void test_texkill_special_values(void **state)
{
    (void)state;
    static const uint32_t vals[] = {0x00000000u, 0x80000000u, 0x80000001u, 0x807fffffu,
                                    0x00000001u, 0xbf800000u, 0x3f800000u, 0xff7fffffu,
                                    0xff800000u, 0x7f800000u, 0xffc00000u, 0x7fc00000u,
                                    0xff800001u, 0xffffffffu, 0x7fffffffu, 0x80800000u};
    const unsigned nv = sizeof vals / sizeof vals[0];
    enum { W = 6, H = 4 };
    for (int mode = 0; mode < 2; mode++) {
        tx_prog p = {.n = 0};
        texkill_t1_prog(&p);
        r500_job job;
        tx_job(&job, &p, W, H, 12);
        /* pixel i: channel 0 takes value i, channel 1 value 3i+1, the others +1 */
        float img[4 * W * H];
        bool want[W * H];
        for (unsigned i = 0; i < W * H; i++) {
            const uint32_t b[4] = {vals[i % nv], vals[(3 * i + 1) % nv], 0x3f800000u, 0x3f800000u};
            want[i] = false;
            for (unsigned ch = 0; ch < 4; ch++) {
                float f;
                memcpy(&f, &b[ch], sizeof f);
                img[4 * i + ch] = f;
                want[i] |= f < 0.0f || (mode == 1 && b[ch] == 0x80000000u);
            }
        }
        r500_result res;
        texkill_t1_run(&job, img, mode, &res);
        for (unsigned i = 0; i < W * H; i++)
            if (res.killed[i] != want[i])
                fail_msg("texkill-zero=%s: pixel %u (0x%08x, 0x%08x): killed %d, expected %d",
                         mode ? "kill" : "keep", i, vals[i % nv], vals[(3 * i + 1) % nv],
                         res.killed[i], want[i]);
        r500_result_free(&res);
        r500_job_free(&job);
    }
}

static void test_tex_nop_and_unbound_sampler(void **state)
{
    (void)state;
    /* 0: t1 = 0.5 (rgba)   1: TEX NOP into t1 (nothing is fetched or written)
     * 2: OUT t1            -> 0.5 everywhere */
    tx_prog p = {.n = 0};
    r500_inst a = set_const(1, 15, 48);
    tx_add(&p, &a);
    r500_inst t;
    r500_inst_init(&t, R500_TYPE_TEX);
    TX(t, TEX_INST, 0), TX(t, TEX_SRC_ADDR, 0), TX(t, TEX_DST_ADDR, 1);
    TX(t, RGB_WMASK, 7), TX(t, ALPHA_WMASK, 1);
    tx_add(&p, &t);
    out_temp(&p, 1);
    r500_job job;
    tx_job(&job, &p, 4, 4, 16);
    job.inputs[0].kind = R500_INPUT_UV;
    r500_result res;
    tx_run(&job, &res);
    assert_int_equal(res.nfaults, 0);
    for (unsigned ch = 0; ch < 4; ch++)
        assert_true(tx_px(&res, 0, 2, 3, ch) == 0.5f);
    r500_result_free(&res);
    /* the same instruction as LD on sampler 3, which has no texture: the
     * thread faults at instruction 1 with a message naming the sampler */
    TX(t, TEX_INST, 1), TX(t, TEX_ID, 3);
    r500_encode(&t, job.words + 1 * R500_INST_WORDS);
    tx_run(&job, &res);
    assert_int_equal(res.nfaults, 1);
    assert_int_equal(res.faults[0].diag.index, 1);
    assert_non_null(strstr(res.faults[0].diag.msg, "texture 3"));
    r500_result_free(&res);
    r500_job_free(&job);
}

static void test_tex_ld_swizzles_and_mask(void **state)
{
    (void)state;
    /* 2x2 texture, nearest, clamp; texel (i, j) = (i, j, 10 + i + 2j, 100 + i + 2j).
     * 0: TEX LD tex[2] t1.rgb = texel.bgr with coordinates (S, T) = t0.(g, r)
     *    (transposed), destination t[0 + aL] with aL = 0 and DST_ADDR_REL
     * 1: OUT t1 (alpha: never written by the TEX, stays 0) */
    const float texels[16] = {0, 0, 10, 100, 1, 0, 11, 101, 0, 1, 12, 102, 1, 1, 13, 103};
    tx_prog p = {.n = 0};
    r500_inst t;
    r500_inst_init(&t, R500_TYPE_TEX);
    TX(t, TEX_INST, 1), TX(t, TEX_ID, 2);
    TX(t, TEX_SRC_ADDR, 0), TX(t, TEX_SRC_S_SWIZ, 1), TX(t, TEX_SRC_T_SWIZ, 0),
        TX(t, TEX_SRC_R_SWIZ, 2), TX(t, TEX_SRC_Q_SWIZ, 3);
    TX(t, TEX_DST_ADDR, 1), TX(t, TEX_DST_ADDR_REL, 1);
    TX(t, TEX_DST_R_SWIZ, 2), TX(t, TEX_DST_G_SWIZ, 1), TX(t, TEX_DST_B_SWIZ, 0),
        TX(t, TEX_DST_A_SWIZ, 3);
    TX(t, RGB_WMASK, 7);
    tx_add(&p, &t);
    out_temp(&p, 1);
    r500_job job;
    tx_job(&job, &p, 4, 4, 16);
    job.inputs[0].kind = R500_INPUT_UV;
    ls_diag d;
    r500_texture *tex = NULL;
    assert_int_equal(r500_texture_create(2, 2, texels, &tex, &d), LS_OK);
    r500_texture_set_sampler(tex, R500_TEX_NEAREST, R500_TEX_CLAMP, R500_TEX_CLAMP);
    job.tex[2] = tex; /* the job owns it now */
    r500_result res;
    tx_run(&job, &res);
    assert_int_equal(res.nfaults, 0);
    for (int y = 0; y < 4; y++)
        for (int x = 0; x < 4; x++) {
            int i = y / 2, j = x / 2; /* S from v (g), T from u (r) */
            const float *tx = texels + (j * 2 + i) * 4;
            assert_true(tx_px(&res, 0, x, y, 0) == tx[2]);
            assert_true(tx_px(&res, 0, x, y, 1) == tx[1]);
            assert_true(tx_px(&res, 0, x, y, 2) == tx[0]);
            assert_true(tx_px(&res, 0, x, y, 3) == 0.0f);
        }
    r500_result_free(&res);
    r500_job_free(&job);
}

/* TEX op dispatch: PROJ divides by Q; LOD takes the LOD from Q; LODBIAS adds Q
 * to the implicit LOD; DXDY takes derivatives from DX_ADDR / DY_ADDR. On a 2x2
 * texture (level 1 = the average of its texels) over a 4x4 image. */
static void test_tex_ops(void **state)
{
    (void)state;
    const float texels[16] = {0, 0, 0, 1, 1, 0, 0, 1, 0, 1, 0, 1, 1, 1, 0, 1};
    struct { unsigned op; float q; bool avg; } cases[] = {
        {3, 2.0f, false}, /* PROJ: coordinates (2u, 2v) / 2 = (u, v): level 0 */
        {5, 0.0f, false}, /* LOD 0 */
        {5, 1.0f, true},  /* LOD 1: the average */
        {4, 0.0f, false}, /* LODBIAS 0: implicit LOD (-1 -> level 0) */
        {4, 3.0f, true},  /* LODBIAS +3: level 1 */
        {6, 0.0f, true},  /* DXDY with derivatives (1,0) / (0,1) = 2 texels: level 1 */
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        tx_prog p = {.n = 0};
        /* 0: t2 = (2u, 2v, 0, q) for PROJ, else (u, v, 0, q); t3 = (1,0,0,0), t4 = (0,1,0,0) */
        r500_inst a = tx_alu(R500_TYPE_ALU);
        TX(a, RGB_ADDR0, 0);
        TX_RGB_A(a, 0, 0, 1, 4, 0);
        TX_RGB_B(a, 0, 6, 6, 6, 0);
        TX_RGB_C(a, 0, 4, 4, 4, 0);
        TX(a, RGB_OMOD, cases[k].op == 3 ? 1 : 0);
        TX(a, RGB_WMASK, 7), TX(a, RGB_ADDRD, 2);
        tx_add(&p, &a);
        r500_inst t;
        r500_inst_init(&t, R500_TYPE_TEX);
        TX(t, TEX_INST, cases[k].op), TX(t, TEX_ID, 0);
        TX(t, TEX_SRC_ADDR, 2), TX(t, TEX_SRC_S_SWIZ, 0), TX(t, TEX_SRC_T_SWIZ, 1),
            TX(t, TEX_SRC_R_SWIZ, 2), TX(t, TEX_SRC_Q_SWIZ, 3);
        TX(t, TEX_DX_ADDR, 3), TX(t, TEX_DY_ADDR, 4);
        TX(t, TEX_DX_S_SWIZ, 0), TX(t, TEX_DX_T_SWIZ, 1), TX(t, TEX_DY_S_SWIZ, 0),
            TX(t, TEX_DY_T_SWIZ, 1);
        TX(t, TEX_DST_ADDR, 1), TX(t, TEX_DST_R_SWIZ, 0), TX(t, TEX_DST_G_SWIZ, 1),
            TX(t, TEX_DST_B_SWIZ, 2), TX(t, TEX_DST_A_SWIZ, 3);
        TX(t, RGB_WMASK, 7), TX(t, ALPHA_WMASK, 1);
        tx_add(&p, &t);
        out_temp(&p, 1);
        r500_job job;
        tx_job(&job, &p, 4, 4, 16);
        job.inputs[0].kind = R500_INPUT_UV;
        job.inputs[2].kind = R500_INPUT_CONST; /* .a = q survives: instruction 0 writes rgb */
        job.inputs[2].value[3] = cases[k].q;
        job.inputs[3].kind = R500_INPUT_CONST;
        job.inputs[3].value[0] = 1.0f;
        job.inputs[4].kind = R500_INPUT_CONST;
        job.inputs[4].value[1] = 1.0f;
        ls_diag d;
        r500_texture *tex = NULL;
        assert_int_equal(r500_texture_create(2, 2, texels, &tex, &d), LS_OK);
        r500_texture_set_sampler(tex, R500_TEX_NEAREST, R500_TEX_CLAMP, R500_TEX_CLAMP);
        job.tex[0] = tex;
        r500_result res;
        tx_run(&job, &res);
        assert_int_equal(res.nfaults, 0);
        for (int y = 0; y < 4; y++)
            for (int x = 0; x < 4; x++) {
                float want_r = cases[k].avg ? 0.5f : (float)(x / 2);
                float want_g = cases[k].avg ? 0.5f : (float)(y / 2);
                if (tx_px(&res, 0, x, y, 0) != want_r || tx_px(&res, 0, x, y, 1) != want_g)
                    fail_msg("case %zu (op %u, q %g) pixel (%d,%d): got (%g, %g), want (%g, %g)",
                             k, cases[k].op, cases[k].q, x, y, tx_px(&res, 0, x, y, 0),
                             tx_px(&res, 0, x, y, 1), want_r, want_g);
            }
        r500_result_free(&res);
        r500_job_free(&job);
    }
}

static void test_watchdog_confined_to_thread(void **state)
{
    (void)state;
    /* 0: ALU result = uv.x - 0.25 < 0     1: IF -> 7
     * 2: LOOP -> 5 (KR 255)  3: LOOP -> 4  4: ENDLOOP -> 4  5: ENDLOOP -> 3
     * 6: ENDIF                7: OUT (0.5, 0.5, 0.5, 1)
     * Pixels with uv.x < 0.25 run 255*255 inner iterations: with a watchdog
     * of 2000 their threads fault; the others finish and are written. */
    tx_prog p = {.n = 0};
    r500_inst a = alu_result_from(0, 40, 1, 1); /* t0.r - 0.25 < 0; 40 = 0.25 */
    tx_add(&p, &a);
    fc(&p, FC_IF, 7, 0);
    fc(&p, FC_LOOP, 5, 0);
    fc(&p, FC_LOOP, 4, 0);
    fc(&p, FC_ENDLOOP, 4, 0);
    fc(&p, FC_ENDLOOP, 3, 0);
    fc(&p, FC_ENDIF, 7, 0);
    out_half(&p);
    r500_job job;
    tx_job(&job, &p, 8, 8, 4); /* quads: columns 0-1 are one quad column */
    job.inputs[0].kind = R500_INPUT_UV;
    job.options.exec.watchdog = 2000;
    r500_result res;
    tx_run(&job, &res);
    assert_int_equal(res.nfaults, 4); /* the 4 quads of columns 0-1 */
    for (size_t i = 0; i < res.nfaults; i++) {
        assert_int_equal(res.faults[i].diag.status, LS_ERR_FAULT);
        assert_non_null(strstr(res.faults[i].diag.msg, "watchdog"));
        assert_true(res.faults[i].diag.index >= 2 && res.faults[i].diag.index <= 5);
    }
    for (int y = 0; y < 8; y++)
        for (int x = 2; x < 8; x++)
            assert_true(tx_px(&res, 0, x, y, 0) == 0.5f);
    r500_result_free(&res);
    r500_job_free(&job);
}

/* A runaway program (each thread issues exactly `watchdog` instructions and
 * faults at instruction 0) on a W x H image with threads of 4. */
static void runaway_job(r500_job *job, int w, int h, uint64_t watchdog, unsigned workers)
{
    const char *src = "top:\nJUMP top\n";
    ls_diag d;
    r500_job_init(job);
    assert_int_equal(r500_job_load_mem(job, "runaway.fs.asm", src, strlen(src), &d), LS_OK);
    job->width = w;
    job->height = h;
    job->thread_size = 4;
    job->workers = workers;
    job->options.exec.watchdog = watchdog;
}

/* Faults are summarised: every faulted thread counted by kind, the first
 * R500_FAULTS_KEPT (lowest threads) kept in full, the same for any number of
 * workers. */
static void test_fault_summary(void **state)
{
    (void)state;
    for (unsigned workers = 1; workers <= 3; workers++) {
        r500_job job;
        runaway_job(&job, 16, 16, 100, workers); /* 64 threads */
        r500_result res;
        tx_run(&job, &res);
        assert_int_equal(res.stats.faulted_threads, 64);
        assert_int_equal(res.fault_counts[R500_FAULT_WATCHDOG], 64);
        assert_int_equal(res.fault_counts[R500_FAULT_FC], 0);
        assert_int_equal(res.fault_counts[R500_FAULT_ENCODING], 0);
        assert_int_equal(res.fault_counts[R500_FAULT_TEX], 0);
        assert_int_equal(res.nfaults, R500_FAULTS_KEPT);
        for (size_t k = 0; k < res.nfaults; k++) {
            assert_int_equal(res.faults[k].thread, k);
            assert_int_equal(res.faults[k].kind, R500_FAULT_WATCHDOG);
            assert_int_equal(res.faults[k].diag.index, 0);
        }
        assert_string_equal(r500_fault_kind_name(R500_FAULT_WATCHDOG), "watchdog");
        r500_result_free(&res);
        r500_job_free(&job);
    }
    /* an unbound sampler is a texture fault */
    const char *src = "TEX temp[1].rgba = LD tex[3].rgba temp[0].rgba ;\n"
                      "OUT src0.a = temp[1], src0.rgb = temp[1] :\n"
                      "  out[0].a = MAX src0.a src0.a , out[0].rgb = MAX src0.rgb src0.rgb ;\n";
    r500_job job;
    r500_job_init(&job);
    ls_diag d;
    assert_int_equal(r500_job_load_mem(&job, "t.fs.asm", src, strlen(src), &d), LS_OK);
    job.width = job.height = 4;
    job.thread_size = 16;
    r500_result res;
    tx_run(&job, &res);
    assert_int_equal(res.fault_counts[R500_FAULT_TEX], 1);
    assert_int_equal(res.nfaults, 1);
    assert_int_equal(res.faults[0].kind, R500_FAULT_TEX);
    r500_result_free(&res);
    r500_job_free(&job);
}

/* The job-wide budget stops the run exactly when it would issue more than
 * max_instructions in all, whatever the worker count. */
static void test_instruction_budget(void **state)
{
    (void)state;
    /* 64 threads x 5000 instructions = 320000; the check points of a thread
     * (every 4096) do not line up with its end */
    const uint64_t total = 64 * 5000;
    for (unsigned workers = 1; workers <= 3; workers++) {
        r500_job job;
        runaway_job(&job, 16, 16, 5000, workers);
        r500_result res;
        ls_diag d;
        job.options.exec.max_instructions = total;
        assert_int_equal(r500_run(&job, &res, NULL, &d), LS_OK);
        assert_int_equal(res.stats.inst_fc, total);
        r500_result_free(&res);
        job.options.exec.max_instructions = total - 1;
        assert_int_equal(r500_run(&job, &res, NULL, &d), LS_ERR_FAULT);
        assert_non_null(strstr(d.msg, "max-instructions"));
        assert_null(res.target[0]);
        assert_int_equal(res.nfaults, 0);
        /* stopped early: a budget far below one thread's work */
        job.options.exec.watchdog = UINT64_MAX;
        job.options.exec.max_instructions = 10000;
        assert_int_equal(r500_run(&job, &res, NULL, &d), LS_ERR_FAULT);
        r500_job_free(&job);
    }
    r500_options o;
    r500_options_default(&o);
    ls_diag d;
    assert_int_equal(o.exec.max_instructions, 0);
    assert_true(o.exec.timeout == 0);
    assert_int_equal(r500_options_set(&o, "max-instructions", "1000000", &d), LS_OK);
    assert_int_equal(o.exec.max_instructions, 1000000);
    assert_int_equal(r500_options_set(&o, "timeout", "2.5", &d), LS_OK);
    assert_true(o.exec.timeout == 2.5);
    assert_int_equal(r500_options_set(&o, "max-instructions", "-3", &d), LS_ERR_ARG);
    assert_int_equal(r500_options_set(&o, "timeout", "soon", &d), LS_ERR_ARG);
    assert_int_equal(r500_options_set(&o, "timeout", "-1", &d), LS_ERR_ARG);
}

/* engine auto (the default): a job of at least R500_ENGINE_AUTO_PIXELS
 * (2^20) pixels goes to an installed JIT, a smaller one and any job without
 * one to the interpreter; interp and jit are taken as said. A stand-in engine
 * records whether it was called. */
static ls_status fake_engine_run(const r500_engine_ops *self, const r500_job *job, r500_result *r,
                                 ls_buf *trace, ls_diag *d)
{
    (void)job, (void)trace, (void)d;
    ++*(int *)self->state;
    memset(r, 0, sizeof *r);
    return LS_OK;
}

static void test_engine_auto(void **state)
{
    (void)state;
    r500_options o;
    r500_options_default(&o);
    assert_int_equal(o.engine, R500_ENGINE_AUTO);
    /* nothing installed: the interpreter at any size */
    assert_int_equal(r500_engine_pick(&o, (size_t)1 << 24), R500_ENGINE_INTERP);
    int calls = 0;
    r500_engine_ops fake = {.run = fake_engine_run, .state = &calls};
    o.jit = &fake;
    assert_int_equal(r500_engine_pick(&o, 1024 * 1024 - 1), R500_ENGINE_INTERP);
    assert_int_equal(r500_engine_pick(&o, 1024 * 1024), R500_ENGINE_JIT);
    assert_int_equal(r500_engine_pick(&o, 2048 * 2048), R500_ENGINE_JIT);
    ls_diag d;
    assert_int_equal(r500_options_set(&o, "engine", "interp", &d), LS_OK);
    assert_int_equal(r500_engine_pick(&o, 2048 * 2048), R500_ENGINE_INTERP);
    assert_int_equal(r500_options_set(&o, "engine", "jit", &d), LS_OK);
    assert_int_equal(r500_engine_pick(&o, 1), R500_ENGINE_JIT);
    assert_int_equal(r500_options_set(&o, "engine", "auto", &d), LS_OK);
    assert_int_equal(o.engine, R500_ENGINE_AUTO);
    assert_int_equal(r500_options_set(&o, "engine", "fastest", &d), LS_ERR_ARG);
    assert_non_null(strstr(d.msg, "interp, jit or auto"));
    /* r500_run follows the pick: a 1024x1024 job reaches the stand-in, a
     * 16x16 one runs on the interpreter */
    r500_job job;
    runaway_job(&job, 1024, 1024, 1, 1);
    job.options.jit = &fake;
    r500_result res;
    assert_int_equal(r500_run(&job, &res, NULL, &d), LS_OK);
    assert_int_equal(calls, 1);
    r500_result_free(&res);
    r500_job_free(&job);
    runaway_job(&job, 16, 16, 1, 1);
    job.options.jit = &fake;
    assert_int_equal(r500_run(&job, &res, NULL, &d), LS_OK);
    assert_int_equal(calls, 1);
    assert_true(res.stats.threads > 0);
    r500_result_free(&res);
    r500_job_free(&job);
}

/* A timeout stops a run that would otherwise not end for hours (a runaway
 * program with no watchdog). Not a timed test: it asserts the stop and its
 * message, not how long the run took. */
static void test_timeout_stops_runaway(void **state)
{
    (void)state;
    r500_job job;
    runaway_job(&job, 64, 64, UINT64_MAX, 2);
    job.options.exec.timeout = 0.05;
    r500_result res;
    ls_diag d;
    assert_int_equal(r500_run(&job, &res, NULL, &d), LS_ERR_FAULT);
    assert_non_null(strstr(d.msg, "timeout"));
    assert_null(res.target[0]);
    r500_job_free(&job);
}

/* r500_job.progress: the library reports threads done out of the run's
 * threads, from the calling thread only, never going back, ending at the
 * total; a run stopped by its budget does not claim to have finished. */
typedef struct progress_log {
    pthread_t caller;
    size_t calls;
    unsigned long long last, total;
    bool backwards, other_thread, total_changed;
} progress_log;

static void progress_cb(void *ctx, unsigned long long done, unsigned long long total)
{
    progress_log *p = ctx;
    if (p->calls && (done < p->last))
        p->backwards = true;
    if (p->calls && total != p->total)
        p->total_changed = true;
    if (!pthread_equal(pthread_self(), p->caller))
        p->other_thread = true;
    p->calls++;
    p->last = done;
    p->total = total;
}

static void test_progress_reports(void **state)
{
    (void)state;
    for (unsigned workers = 1; workers <= 3; workers++) {
        r500_job job;
        runaway_job(&job, 64, 64, 100, workers); /* 64*64 / 4 = 1024 threads */
        progress_log log = {.caller = pthread_self()};
        job.progress = (ls_progress){.report = progress_cb, .ctx = &log};
        r500_result res;
        tx_run(&job, &res);
        assert_true(log.calls >= 1);
        assert_int_equal(log.total, 1024);
        assert_int_equal(log.last, 1024);
        assert_false(log.backwards);
        assert_false(log.total_changed);
        assert_false(log.other_thread);
        r500_result_free(&res);
        /* stopped by the budget: the last report is short of the total */
        log = (progress_log){.caller = pthread_self()};
        job.options.exec.max_instructions = 20000;
        ls_diag d;
        assert_int_equal(r500_run(&job, &res, NULL, &d), LS_ERR_FAULT);
        assert_true(log.calls == 0 || log.last < 1024);
        assert_false(log.backwards);
        r500_job_free(&job);
    }
}

static void test_trace_and_stats_json(void **state)
{
    (void)state;
    tx_prog p = {.n = 0};
    r500_inst a = alu_result_from(0, 48, 1, 2);
    tx_add(&p, &a);
    fc(&p, FC_IF, 3, 0);
    fc(&p, FC_ENDIF, 3, 0);
    r500_inst o = tx_alu(R500_TYPE_OUT);
    TX(o, RGB_OMASK, 7);
    tx_add(&p, &o);
    r500_job job;
    tx_job(&job, &p, 4, 4, 8);
    job.workers = 2;
    job.inputs[0].kind = R500_INPUT_UV;
    ls_buf tr;
    ls_buf_init(&tr);
    r500_result res;
    ls_diag d;
    assert_int_equal(r500_run(&job, &res, &tr, &d), LS_OK);
    ls_buf all;
    ls_buf_init(&all);
    ls_buf_puts(&all, "[");
    ls_buf_append(&all, tr.data, tr.len);
    ls_buf_puts(&all, "]");
    ls_json *v = NULL;
    if (ls_json_parse(all.data, all.len, "trace", &v, &d))
        fail_msg("trace is not JSON: %d:%d: %s", d.line, d.col, d.msg);
    uint64_t total = res.stats.inst_alu + res.stats.inst_out + res.stats.inst_fc;
    assert_int_equal(v->count, total);
    assert_int_equal(total, 2 * 4); /* 2 threads x 4 instructions */
    const ls_json *first = v->items[0];
    assert_non_null(ls_json_get(first, "pc"));
    assert_non_null(ls_json_get(first, "active"));
    ls_json_free(v);
    ls_buf sb;
    ls_buf_init(&sb);
    r500_stats_write_json(&res.stats, &sb);
    assert_int_equal(ls_json_parse(sb.data, sb.len, "stats", &v, &d), LS_OK);
    assert_non_null(ls_json_get(v, "simd_efficiency"));
    ls_json_free(v);
    ls_buf_free(&sb);
    ls_buf_free(&all);
    ls_buf_free(&tr);
    r500_result_free(&res);
    r500_job_free(&job);
}

/* --trace-writes: after each ALU instruction, the temp channels it writes
 * with every lane's value; an IF that skips a write leaves the old values. */
static void test_trace_writes(void **state)
{
    (void)state;
    tx_prog p = {.n = 0};
    r500_inst w1 = set_const(5, 5, 56); /* t5.rb = 1.0 */
    tx_add(&p, &w1);
    r500_inst o = tx_alu(R500_TYPE_OUT);
    TX(o, RGB_OMASK, 7);
    tx_add(&p, &o);
    r500_job job;
    tx_job(&job, &p, 2, 2, 4);
    job.workers = 1;
    job.trace_writes = true;
    ls_buf tr;
    ls_buf_init(&tr);
    r500_result res;
    ls_diag d;
    assert_int_equal(r500_run(&job, &res, &tr, &d), LS_OK);
    ls_buf all;
    ls_buf_init(&all);
    ls_buf_puts(&all, "[");
    ls_buf_append(&all, tr.data, tr.len);
    ls_buf_puts(&all, "]");
    ls_json *v = NULL;
    if (ls_json_parse(all.data, all.len, "trace", &v, &d))
        fail_msg("trace is not JSON: %d:%d: %s", d.line, d.col, d.msg);
    /* instruction 0, its writes, the OUT (OUT writes no temp: no record) */
    assert_int_equal(v->count, 3);
    const ls_json *wr = ls_json_get(v->items[1], "writes");
    assert_non_null(wr);
    assert_int_equal(wr->count, 2);
    static const char *const chans[2] = {"r", "b"};
    for (int k = 0; k < 2; k++) {
        const ls_json *e = wr->items[k];
        assert_int_equal((int)ls_json_get(e, "temp")->number, 5);
        assert_string_equal(ls_json_get(e, "ch")->text, chans[k]);
        assert_string_equal(ls_json_get(e, "lanes")->text, "0x000000000000000f");
        const ls_json *vals = ls_json_get(e, "values");
        assert_int_equal(vals->count, 4);
        for (size_t l = 0; l < 4; l++)
            assert_true(vals->items[l]->number == 1.0);
    }
    ls_json_free(v);
    ls_buf_free(&all);
    ls_buf_free(&tr);
    r500_result_free(&res);
    r500_job_free(&job);
}

/* The demo program, evaluated directly: the same float operations in the
 * same order as its instructions (examples/r500/mandelbrot.inc comments). */
static void mandel_ref(float u, float v, float rgb[3], int *iters)
{
    const float c0[4] = {3.0f, 1.2f, -2.2f, -0.6f};
    float cx = u * c0[0] + c0[2], hy = v * c0[1] + c0[3];
    float x = 0, y = 0, n = 0;
    for (int i = 0; i < 255; i++) {
        float t4r = x * x + cx, t4a = y * y + 0.0f;
        float nx = -t4a * 1.0f + t4r;
        float ny = 2.0f * (x * y + hy);
        x = nx, y = ny;
        float t5 = x * x + -4.0f;
        n = n * 1.0f + 1.0f;
        if (y * y + t5 >= 0)
            break;
    }
    *iters = (int)n;
    const float f[3] = {tx_float(0x3d4ccccd), tx_float(0x3d17b426), tx_float(0x3cea0ea1)};
    const float ph[3] = {0.0f, tx_float(0x3ea8f5c3), tx_float(0x3f2b851f)};
    for (int ch = 0; ch < 3; ch++) {
        float t = n * f[ch] + ph[ch];
        t = t - floorf(t);
        float s = (float)sin(2.0 * M_PI * (double)t);
        float col = s * 0.5f + 0.5f;
        rgb[ch] = n - 254.5f >= 0 ? 0.0f : col;
    }
}

static void test_mandelbrot_demo(void **state)
{
    (void)state;
    char path[1024];
    snprintf(path, sizeof path, "%s/examples/r500/mandelbrot.inc", ls_test_source_root());
    r500_job job;
    r500_job_init(&job);
    ls_diag d;
    if (r500_job_load(&job, path, &d))
        fail_msg("%s: %s", path, d.msg);
    job.inputs[0].kind = R500_INPUT_UV;
    job.width = 48;
    job.height = 32;
    job.workers = 2;
    job.work_image = true;
    r500_result res;
    tx_run(&job, &res);
    assert_int_equal(res.nfaults, 0);
    int maxn = 0, minn = 1000;
    for (int y = 0; y < job.height; y++)
        for (int x = 0; x < job.width; x++) {
            float rgb[3];
            int n;
            mandel_ref((x + 0.5f) / job.width, (y + 0.5f) / job.height, rgb, &n);
            maxn = n > maxn ? n : maxn;
            minn = n < minn ? n : minn;
            for (int ch = 0; ch < 3; ch++)
                if (!(fabsf(tx_px(&res, 0, x, y, ch) - rgb[ch]) <= 1e-6f))
                    fail_msg("pixel (%d,%d) ch %d: got %g, want %g (n=%d)", x, y, ch,
                             tx_px(&res, 0, x, y, ch), rgb[ch], n);
            assert_true(tx_px(&res, 0, x, y, 3) == 1.0f);
        }
    assert_int_equal(maxn, 255); /* some pixels never escape: the 255-iteration cap */
    assert_true(minn <= 2);
    /* work grows with the escape count: compare two pixels' counts */
    float rgb[3];
    int n_lo, n_hi;
    size_t lo = 0, hi = 0;
    for (int i = 0; i < job.width * job.height; i++) {
        mandel_ref((i % job.width + 0.5f) / job.width, (i / job.width + 0.5f) / job.height, rgb,
                   &n_hi);
        mandel_ref((lo % job.width + 0.5f) / job.width, (lo / job.width + 0.5f) / job.height, rgb,
                   &n_lo);
        if (n_hi < n_lo)
            lo = (size_t)i;
        mandel_ref((hi % job.width + 0.5f) / job.width, (hi / job.width + 0.5f) / job.height, rgb,
                   &n_lo);
        if (n_hi > n_lo)
            hi = (size_t)i;
    }
    assert_true(res.work[hi] > res.work[lo]);
    assert_true(r500_stats_simd_efficiency(&res.stats) < 1.0);
    assert_true(r500_stats_simd_efficiency(&res.stats) > 0.0);
    /* the same image bit for bit with other thread sizes and one worker */
    const unsigned sizes[] = {1, 4, 16, 64};
    for (size_t i = 0; i < 4; i++) {
        job.thread_size = sizes[i];
        job.workers = 1;
        r500_result other;
        tx_run(&job, &other);
        assert_memory_equal(other.target[0], res.target[0],
                            (size_t)job.width * job.height * 4 * sizeof(float));
        r500_result_free(&other);
    }
    r500_result_free(&res);
    r500_job_free(&job);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_alu_result_if_and_write_inactive),
        cmocka_unit_test(test_loop_al_relative),
        cmocka_unit_test(test_texkill_and_clear),
        cmocka_unit_test(test_image_input_reaches_lanes),
        cmocka_unit_test(test_texkill_negative_zero),
        cmocka_unit_test(test_texkill_special_values),
        cmocka_unit_test(test_tex_nop_and_unbound_sampler),
        cmocka_unit_test(test_tex_ld_swizzles_and_mask),
        cmocka_unit_test(test_tex_ops),
        cmocka_unit_test(test_watchdog_confined_to_thread),
        cmocka_unit_test(test_fault_summary),
        cmocka_unit_test(test_instruction_budget),
        cmocka_unit_test(test_timeout_stops_runaway),
        cmocka_unit_test(test_progress_reports),
        cmocka_unit_test(test_trace_and_stats_json),
        cmocka_unit_test(test_trace_writes),
        cmocka_unit_test(test_mandelbrot_demo),
        cmocka_unit_test(test_engine_auto),
        cmocka_unit_test(test_temps_start_zero_per_thread),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
