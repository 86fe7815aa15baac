/* The two engines (PP5_ENGINE_FAST, PP5_ENGINE_MODEL) that the runners offer
 * (pp5 run / pp5 render --engine): the same pins, state, picture, clocks and
 * warnings. */
#include "test_util.h"

#include "base/buf.h"
#include "igc_equal.h"
#include "pp5/render.h"
#include "pp5/stream.h"

typedef struct pin_log { pp5_pins p[4096]; size_t n; } pin_log;
static void log_clock(void *user, const pp5_igc *g, const pp5_pins *p)
{
    (void)g;
    pin_log *l = user;
    if (l->n < 4096) l->p[l->n++] = *p;
}
static void log_block(void *user, const pp5_pins *p, size_t n)
{
    for (size_t i = 0; i < n; i++) log_clock(user, NULL, &p[i]);
}

/* A stream on the renderer's microcode library, both runners, both engines. */
static void test_stream_engines(void **state)
{
    (void)state;
    pp5_scene sc;
    ls_diag d;
    const char *scene = "tri 8 8 0.5 255 0 0  120 24 0.5 0 255 0  56 120 0.5 0 0 255\n";
    assert_int_equal(pp5_scene_parse(scene, strlen(scene), "t.scene", &sc, &d), LS_OK);
    ls_buf text;
    ls_buf_init(&text);
    assert_int_equal(pp5_render_prim_stream(&sc.p[0], &text, &d), LS_OK);
    ls_buf_puts(&text, "run 300\n");
    pp5_stream s;
    assert_int_equal(pp5_stream_parse(text.data, text.len, "prim", &s, &d), LS_OK);
    for (int blocks = 0; blocks < 2; blocks++) {
        pp5_igc *g[2];
        static pin_log log[2];
        for (int e = 0; e < 2; e++) {
            assert_int_equal(pp5_igc_create(&g[e], NULL, &d), LS_OK);
            assert_int_equal(pp5_igc_load_ucode(g[e], 0, pp5_render_ucode_words,
                                                pp5_render_ucode_count, &d), LS_OK);
            pp5_igc_set_engine(g[e], e ? PP5_ENGINE_MODEL : PP5_ENGINE_FAST);
            assert_int_equal(pp5_igc_engine(g[e]), e ? PP5_ENGINE_MODEL : PP5_ENGINE_FAST);
            log[e].n = 0;
            ls_status st = blocks ? pp5_stream_run_blocks(&s, g[e], 0, log_block, &log[e], &d)
                                  : pp5_stream_run(&s, g[e], 0, log_clock, &log[e], &d);
            assert_int_equal(st, LS_OK);
        }
        assert_true(log[0].n > 300);
        assert_int_equal(log[0].n, log[1].n);
        for (size_t i = 0; i < log[0].n; i++)
            assert_true(pins_equal(&log[1].p[i], &log[0].p[i]));
        if (!state_equal(g[1], g[0])) fprintf(stderr, "%s\n", why);
        assert_true(state_equal(g[1], g[0]));
        pp5_igc_destroy(g[0]);
        pp5_igc_destroy(g[1]);
    }
    pp5_stream_free(&s);
    ls_buf_free(&text);
    pp5_scene_free(&sc);
}

/* A frame: the same picture, clocks and warnings from the fast IGC and EMC
 * array and from the IGC's full step with the EMC array model. */
static void test_render_engines(void **state)
{
    (void)state;
    pp5_scene sc;
    ls_diag d;
    const char *scene = "clear 64 64 64\n"
                        "tri 8 8 0.5 255 0 0  120 24 0.5 0 255 0  56 120 0.5 0 0 255\n"
                        "disc 90 90 20 20 200 200 0.2\n";
    assert_int_equal(pp5_scene_parse(scene, strlen(scene), "t.scene", &sc, &d), LS_OK);
    static uint8_t rgb[2][128 * 128 * 3];
    pp5_render_stats st[2];
    for (int e = 0; e < 2; e++) {
        pp5_render_opts o;
        pp5_render_opts_default(&o);
        assert_int_equal(o.engine, PP5_ENGINE_FAST);
        o.engine = e ? PP5_ENGINE_MODEL : PP5_ENGINE_FAST;
        assert_int_equal(pp5_render(&sc, &o, rgb[e], &st[e], &d), LS_OK);
    }
    assert_memory_equal(rgb[0], rgb[1], sizeof rgb[0]);
    assert_int_equal(st[0].clocks, st[1].clocks);
    assert_int_equal(st[0].nprims, st[1].nprims);
    for (size_t i = 0; i < st[0].nprims; i++)
        assert_int_equal(st[0].prim_clocks[i], st[1].prim_clocks[i]);
    assert_int_equal(st[0].igc_warnings, st[1].igc_warnings);
    assert_int_equal(st[0].emc_warnings, st[1].emc_warnings);
    /* the picture is not blank: the clear colour and something else */
    size_t other = 0;
    for (size_t i = 0; i < 128 * 128; i++) other += rgb[0][3 * i] != 64;
    assert_true(other > 1000);
    free(st[0].prim_clocks);
    free(st[1].prim_clocks);
    /* an observer watches the fast array: refused with the model */
    pp5_render_opts o;
    pp5_render_opts_default(&o);
    o.engine = PP5_ENGINE_MODEL;
    o.on_clock = (pp5_render_clock_fn)1;
    pp5_render_stats s2;
    assert_int_equal(pp5_render(&sc, &o, rgb[1], &s2, &d), LS_ERR_ARG);
    pp5_scene_free(&sc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_stream_engines),
        cmocka_unit_test(test_render_engines),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
