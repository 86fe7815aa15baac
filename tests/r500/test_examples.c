/* The programs in examples/r500: each runs (through the assembler and the emulator)
 * to the image its header comment describes, computed here independently,
 * for several thread sizes (flow control must not change per-pixel results). */
#include "test_util.h"

#include <math.h>

#include "lockstep/r500.h"

typedef void (*expect_fn)(float u, float v, float out[4]);

static void exp_nested_if(float u, float v, float o[4])
{
    static const float c[4][4] = {{1, 1, 1, 1}, {0, 1, 0, 1}, {0, 0, 1, 1}, {1, 0, 0, 1}};
    int q = (u >= 0.5f) + 2 * (v >= 0.5f);
    static const int map[4] = {0, 1, 2, 3}; /* white, green, blue, red */
    memcpy(o, c[map[q]], sizeof c[0]);
}

static void exp_loop(float u, float v, float o[4])
{
    (void)v;
    float r = 0, g = 0;
    for (int k = 0; k < 255; k++) {
        r += 1.0f / 16;
        if (r >= u)
            break;
        if (r < 0.25f)
            continue;
        g += 1.0f / 16;
    }
    o[0] = r, o[1] = g, o[2] = 0, o[3] = 1;
}

static void exp_rep(float u, float v, float o[4])
{
    (void)u, (void)v;
    o[0] = 0.875f, o[1] = 0, o[2] = 0, o[3] = 1;
}

static void exp_sub(float u, float v, float o[4])
{
    (void)v;
    o[0] = o[1] = o[2] = u, o[3] = 1;
}

static void exp_pred(float u, float v, float o[4])
{
    (void)v;
    bool red = u - 0.5f >= 0;
    o[0] = red, o[1] = 0, o[2] = !red, o[3] = 1;
}

static void exp_kill(float u, float v, float o[4])
{
    bool killed = u - 0.5f < 0 && v - 0.5f < 0; /* keeps the clear colour, 0 */
    o[0] = !killed, o[1] = 0, o[2] = 0, o[3] = !killed;
}

static void exp_partial(float u, float v, float o[4])
{
    (void)v;
    float g = u < 0.33333334f ? 0.25f : u < 0.6666667f ? 0.5f : 0.75f;
    o[0] = o[1] = o[2] = g, o[3] = 1;
}

static void run_example(const char *name, expect_fn fn)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/examples/r500/%s", ls_test_source_root(), name);
    static const unsigned threads[] = {4, 16, 48, 64};
    for (int t = 0; t < 4; t++) {
        r500_job job;
        r500_job_init(&job);
        ls_diag d;
        if (r500_job_load(&job, path, &d) != LS_OK)
            fail_msg("%s: %s", path, d.msg);
        job.width = 16;
        job.height = 16;
        job.thread_size = threads[t];
        job.workers = 1;
        job.inputs[0].kind = R500_INPUT_UV;
        r500_result r;
        if (r500_run(&job, &r, NULL, &d) != LS_OK)
            fail_msg("%s: %s", path, d.msg);
        assert_int_equal(r.nfaults, 0);
        for (int y = 0; y < 16; y++)
            for (int x = 0; x < 16; x++) {
                float e[4];
                fn((x + 0.5f) / 16, (y + 0.5f) / 16, e);
                const float *o = r.target[0] + (y * 16 + x) * 4;
                for (int c = 0; c < 4; c++)
                    if (fabsf(o[c] - e[c]) > 1e-6f)
                        fail_msg("%s (thread %u): pixel (%d,%d) channel %d = %g, expected %g",
                                 name, threads[t], x, y, c, (double)o[c], (double)e[c]);
            }
        r500_result_free(&r);
        r500_job_free(&job);
    }
}

static void test_nested_if(void **s) { (void)s; run_example("nested_if.fs.asm", exp_nested_if); }
static void test_loop(void **s) { (void)s; run_example("loop_break_continue.fs.asm", exp_loop); }
static void test_rep(void **s) { (void)s; run_example("rep_al.fs.asm", exp_rep); }
static void test_sub(void **s) { (void)s; run_example("subroutine.fs.asm", exp_sub); }
static void test_pred(void **s) { (void)s; run_example("predicated_jump.fs.asm", exp_pred); }
static void test_partial(void **s) { (void)s; run_example("partial_mode.fs.asm", exp_partial); }
static void test_kill(void **s) { (void)s; run_example("predicated_kill.fs.asm", exp_kill); }

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_nested_if), cmocka_unit_test(test_loop),
        cmocka_unit_test(test_rep),       cmocka_unit_test(test_sub),
        cmocka_unit_test(test_pred),      cmocka_unit_test(test_partial),
        cmocka_unit_test(test_kill),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
