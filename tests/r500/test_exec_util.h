/* Helpers for the R500 execution tests: build instructions field by field,
 * run a program over a small image through the public API. */
#ifndef LOCKSTEP_TEST_EXEC_UTIL_H
#define LOCKSTEP_TEST_EXEC_UTIL_H

#include <math.h>

#include "lockstep/r500.h"
#include "test_util.h"

/* An ALU or OUT instruction with every source slot pointing at inline 0
 * (0x80, as Mesa and buhman encode unused sources, r500.md §4.2). */
static inline r500_inst tx_alu(r500_inst_type t)
{
    r500_inst in;
    r500_inst_init(&in, t);
    in.field[R500_F_RGB_ADDR0] = in.field[R500_F_RGB_ADDR1] = in.field[R500_F_RGB_ADDR2] = 0x80;
    in.field[R500_F_ALPHA_ADDR0] = in.field[R500_F_ALPHA_ADDR1] = in.field[R500_F_ALPHA_ADDR2] =
        0x80;
    return in;
}

#define TX(in, f, v) ((in).field[R500_F_##f] = (uint32_t)(v))

/* Swizzle helpers: RGB operand X (A, B or C) = sel with swizzle r,g,b. */
#define TX_RGB_A(in, sel, r, g, b, mod)                                                           \
    (TX(in, RGB_SEL_A, sel), TX(in, RED_SWIZ_A, r), TX(in, GREEN_SWIZ_A, g),                      \
     TX(in, BLUE_SWIZ_A, b), TX(in, RGB_MOD_A, mod))
#define TX_RGB_B(in, sel, r, g, b, mod)                                                           \
    (TX(in, RGB_SEL_B, sel), TX(in, RED_SWIZ_B, r), TX(in, GREEN_SWIZ_B, g),                      \
     TX(in, BLUE_SWIZ_B, b), TX(in, RGB_MOD_B, mod))
#define TX_RGB_C(in, sel, r, g, b, mod)                                                           \
    (TX(in, RGB_SEL_C, sel), TX(in, RED_SWIZ_C, r), TX(in, GREEN_SWIZ_C, g),                      \
     TX(in, BLUE_SWIZ_C, b), TX(in, RGB_MOD_C, mod))

typedef struct tx_prog {
    uint32_t words[R500_MAX_INSTS * R500_INST_WORDS];
    size_t n;
} tx_prog;

static inline void tx_add(tx_prog *p, const r500_inst *in)
{
    r500_encode(in, p->words + p->n * R500_INST_WORDS);
    p->n++;
}

/* A job for program p on a WxH image with thread size n (defaults otherwise:
 * US_CONFIG as Mesa writes it, no inputs). */
static inline void tx_job(r500_job *job, const tx_prog *p, int w, int h, unsigned thread)
{
    r500_job_init(job);
    ls_diag d;
    assert_int_equal(r500_job_set_program(job, p->words, p->n, true, &d), LS_OK);
    job->width = w;
    job->height = h;
    job->thread_size = thread;
    job->workers = 1;
    job->work_image = true; /* the tests read work counts */
}

static inline void tx_run(const r500_job *job, r500_result *r)
{
    ls_diag d;
    ls_diag_clear(&d);
    ls_status st = r500_run(job, r, NULL, &d);
    if (st)
        fail_msg("r500_run: %s", d.msg);
}

/* Render target t, pixel (x, y) (y from the bottom), channel ch. */
static inline float tx_px(const r500_result *r, unsigned t, int x, int y, unsigned ch)
{
    return r->target[t][((size_t)y * r->width + x) * 4 + ch];
}

static inline uint32_t tx_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

static inline float tx_float(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}

/* Same float, NaNs compared as NaN (any payload) unless exact is set. */
static inline bool tx_same(float a, float b)
{
    if (a != a || b != b)
        return a != a && b != b;
    return tx_bits(a) == tx_bits(b) || (a == 0 && b == 0 && signbit(a) == signbit(b));
}

#endif
