/* Host-action streams: parsing (errors with file:line:col) and running the
 * bundled example end to end. */
#include "test_util.h"

#include "lockstep/pp5.h"
#include "pp5/render.h"
#include "pp5/stream.h"
#include "pp5/uasm.h"

static void test_parse(void **state)
{
    (void)state;
    const char *src = "# comment\n"
                      "write P fbits=2\n"
                      "coef A -3\n"
                      "write I uaddr=2 qee=linear mbi fni=1\n"
                      "write c 0x10\n"
                      "go\nwait\nrun 5\nst1 1\nst2 0\nreset\n";
    pp5_stream s;
    ls_diag d;
    assert_int_equal(pp5_stream_parse(src, strlen(src), "s", &s, &d), LS_OK);
    assert_int_equal(s.n, 10);
    assert_int_equal(s.a[0].kind, PP5_ACT_WRITE);
    assert_int_equal(s.a[0].reg, PP5_REG_P);
    assert_int_equal(s.a[0].value, 131u << 23); /* 129 + FBITS, D30 = 1 */
    assert_int_equal(s.a[1].value, 0xc0400000u); /* -3.0f */
    /* uaddr 2, QEEMode 10 (D19:18), MBI (D22), exponent field 116 (D23..30) */
    assert_int_equal(s.a[2].value, 2u | (2u << 18) | (1u << 22) | (116u << 23));
    assert_int_equal(s.a[3].reg, PP5_REG_C);
    assert_int_equal(s.a[3].value, 0x10u);
    assert_int_equal(s.a[2].line, 4);
    pp5_stream_free(&s);

    static const struct { const char *src; int line, col; } bad[] = {
        {"write Q 1\n", 1, 7},
        {"go\nwrite I uaddr=2 bogus=1\n", 2, 17},
        {"coef A x1\n", 1, 8},
        {"coef I 1.0\n", 1, 8},
        {"run\n", 1, 1},
        {"\n\nfly\n", 3, 1},
        {"write P fbits=31\n", 1, 9},
        {"write I qee=cubic\n", 1, 9},
        {"st1 2\n", 1, 5},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        assert_int_equal(pp5_stream_parse(bad[i].src, strlen(bad[i].src), "s", &s, &d),
                         LS_ERR_PARSE);
        if (d.line != bad[i].line || d.col != bad[i].col)
            printf("%s -> %d:%d %s\n", bad[i].src, d.line, d.col, d.msg);
        assert_int_equal(d.line, bad[i].line);
        assert_int_equal(d.col, bad[i].col);
    }
}

typedef struct rec { int mwrt_clocks, lde_clocks, addr_first; uint64_t cycles; } rec;

static void on_clock(void *user, const pp5_igc *g, const pp5_pins *p)
{
    rec *r = user;
    (void)g;
    if (p->mwrt) {
        if (!r->mwrt_clocks)
            r->addr_first = -1;
        r->mwrt_clocks++;
    }
    r->lde_clocks += p->lde;
    r->cycles++;
}

static char *slurp(const char *rel, size_t *len)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", ls_test_source_root(), rel);
    ls_buf b;
    ls_buf_init(&b);
    assert_true(ls_read_file(path, &b));
    *len = b.len;
    return b.data;
}

/* The example: ENABLE_ALL (one LdE word), EDGE (one LdE word), QLOAD LEN = 8
 * (eight MWrt words, pp5.md §5.3). */
static void test_example(void **state)
{
    (void)state;
    size_t ul, sl;
    char *usrc = slurp("examples/pp5/edge.pp5m", &ul);
    char *ssrc = slurp("examples/pp5/edge.stream", &sl);
    pp5_ucode *u = calloc(1, sizeof *u);
    ls_diag_list errs;
    ls_diag_list_init(&errs);
    assert_int_equal(pp5_uasm(usrc, ul, "edge.pp5m", u, &errs), LS_OK);
    ls_diag_list_free(&errs);
    pp5_stream s;
    ls_diag d;
    assert_int_equal(pp5_stream_parse(ssrc, sl, "edge.stream", &s, &d), LS_OK);
    pp5_igc *g;
    assert_int_equal(pp5_igc_create(&g, NULL, &d), LS_OK);
    assert_int_equal(pp5_igc_load_ucode(g, 0, u->words, u->count, &d), LS_OK);
    rec r = {0};
    assert_int_equal(pp5_stream_run(&s, g, 10000, on_clock, &r, &d), LS_OK);
    assert_int_equal(r.mwrt_clocks, 8);
    assert_int_equal(r.lde_clocks, 2);
    assert_false(pp5_igc_busy(g));
    assert_int_equal(pp5_igc_warning_count(g), 0);
    /* a cycle limit is reported at the action's line */
    pp5_igc_reset(g);
    assert_int_equal(pp5_stream_run(&s, g, 20, NULL, NULL, &d), LS_ERR_FAULT);
    assert_non_null(strstr(d.msg, "cycle limit"));
    assert_true(d.line > 0);
    pp5_igc_destroy(g);
    pp5_stream_free(&s);
    free(u);
    free(usrc);
    free(ssrc);
}

static void on_clock_dout(void *user, const pp5_igc *g, const pp5_pins *p)
{
    (void)g;
    uint32_t *seen = user;
    if (p->d_out_en && p->d_out == 0x90011400u)
        seen[0]++;
    seen[1] |= p->ldc | p->lde | p->mwrt | p->ccmp;
}

/* examples/pp5/load.stream: RMode load of one word and TestPE/TestOE
 * read-back; RMode keeps the state-changing pins at 0. */
static void test_load_example(void **state)
{
    (void)state;
    size_t sl;
    char *ssrc = slurp("examples/pp5/load.stream", &sl);
    pp5_stream s;
    ls_diag d;
    assert_int_equal(pp5_stream_parse(ssrc, sl, "load.stream", &s, &d), LS_OK);
    pp5_igc *g;
    assert_int_equal(pp5_igc_create(&g, NULL, &d), LS_OK);
    const uint32_t idle = 0x90011000u;
    assert_int_equal(pp5_igc_load_ucode(g, 0, &idle, 1, &d), LS_OK);
    uint32_t seen[2] = {0, 0};
    assert_int_equal(pp5_stream_run(&s, g, 1000, on_clock_dout, seen, &d), LS_OK);
    assert_int_equal(pp5_igc_ucode(g, 100), 0x90011400u);
    assert_true(seen[0] >= 1);
    assert_int_equal(seen[1], 0);
    pp5_igc_destroy(g);
    pp5_stream_free(&s);
    free(ssrc);
}

/* ---- block mode: the same clocks as pp5_stream_run ---- */

typedef struct pin_log {
    pp5_pins *p;
    size_t n, cap;
    size_t max_block;
} pin_log;

static void log_push(pin_log *l, const pp5_pins *p)
{
    if (l->n == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 1024;
        l->p = realloc(l->p, l->cap * sizeof *l->p);
        assert_non_null(l->p);
    }
    l->p[l->n++] = *p;
}
static void log_clock(void *user, const pp5_igc *g, const pp5_pins *p)
{
    (void)g;
    log_push(user, p);
}
static void log_block(void *user, const pp5_pins *p, size_t n)
{
    pin_log *l = user;
    assert_true(n >= 1 && n <= PP5_STREAM_BLOCK);
    if (n > l->max_block) l->max_block = n;
    for (size_t i = 0; i < n; i++) log_push(l, &p[i]);
}

/* Runs stream s on two IGCs loaded with words[0..nw), clock by clock and in
 * blocks, and requires the same pins at every clock, the same status and
 * message, and the same cycle count, Busy and warnings at the end. */
static void same_both_ways(const pp5_stream *s, const uint32_t *words, int nw, uint64_t limit)
{
    pp5_igc *g[2];
    pin_log l[2];
    ls_diag d[2];
    ls_status st[2];
    memset(l, 0, sizeof l);
    memset(d, 0, sizeof d);
    for (int k = 0; k < 2; k++) {
        assert_int_equal(pp5_igc_create(&g[k], NULL, &d[k]), LS_OK);
        assert_int_equal(pp5_igc_load_ucode(g[k], 0, words, nw, &d[k]), LS_OK);
    }
    st[0] = pp5_stream_run(s, g[0], limit, log_clock, &l[0], &d[0]);
    st[1] = pp5_stream_run_blocks(s, g[1], limit, log_block, &l[1], &d[1]);
    assert_int_equal(st[0], st[1]);
    if (st[0] != LS_OK) {
        assert_string_equal(d[0].msg, d[1].msg);
        assert_int_equal(d[0].line, d[1].line);
    }
    assert_int_equal(l[0].n, l[1].n);
    assert_int_equal(l[0].n, pp5_igc_cycle(g[0]));
    for (size_t i = 0; i < l[0].n; i++)
        if (memcmp(&l[0].p[i], &l[1].p[i], sizeof(pp5_pins))) fail_msg("pins differ at clock %zu", i);
    assert_int_equal(pp5_igc_cycle(g[0]), pp5_igc_cycle(g[1]));
    assert_int_equal(pp5_igc_busy(g[0]), pp5_igc_busy(g[1]));
    assert_int_equal(pp5_igc_warning_count(g[0]), pp5_igc_warning_count(g[1]));
    if (l[0].n > 2 * PP5_STREAM_BLOCK) assert_int_equal(l[1].max_block, PP5_STREAM_BLOCK);
    for (int k = 0; k < 2; k++) {
        pp5_igc_destroy(g[k]);
        free(l[k].p);
    }
}

static void test_blocks(void **state)
{
    (void)state;
    ls_diag d;
    /* edge example, with cycle limits landing anywhere in a block */
    size_t ul, sl;
    char *usrc = slurp("examples/pp5/edge.pp5m", &ul);
    char *ssrc = slurp("examples/pp5/edge.stream", &sl);
    pp5_ucode *u = calloc(1, sizeof *u);
    ls_diag_list errs;
    ls_diag_list_init(&errs);
    assert_int_equal(pp5_uasm(usrc, ul, "edge.pp5m", u, &errs), LS_OK);
    pp5_stream s;
    assert_int_equal(pp5_stream_parse(ssrc, sl, "edge.stream", &s, &d), LS_OK);
    static const uint64_t limits[] = {0, 1, 2, 20, 255, 256, 257};
    for (size_t i = 0; i < sizeof limits / sizeof limits[0]; i++) same_both_ways(&s, u->words, u->count, limits[i]);
    pp5_stream_free(&s);
    /* TestPE/TestOE read-back and an RMode load (load.stream) */
    free(ssrc);
    ssrc = slurp("examples/pp5/load.stream", &sl);
    assert_int_equal(pp5_stream_parse(ssrc, sl, "load.stream", &s, &d), LS_OK);
    const uint32_t idle = 0x90011000u;
    same_both_ways(&s, &idle, 1, 0);
    pp5_stream_free(&s);
    /* the renderer's library and the streams of the demo scene (long runs,
     * waits, every routine), whole and cut off at odd clocks */
    free(ssrc);
    ssrc = slurp("examples/pp5/demo.scene", &sl);
    pp5_scene sc;
    assert_int_equal(pp5_scene_parse(ssrc, sl, "demo.scene", &sc, &d), LS_OK);
    memset(u, 0, sizeof *u);
    assert_int_equal(pp5_uasm(pp5_render_ucode, strlen(pp5_render_ucode), "lib", u, &errs), LS_OK);
    ls_buf b;
    ls_buf_init(&b);
    ls_buf_puts(&b, "write P fbits=20 src=24 lc2=24\nwait\n");
    for (size_t i = 0; i < sc.n; i++) assert_int_equal(pp5_render_prim_stream(&sc.p[i], &b, &d), LS_OK);
    ls_buf_puts(&b, "run 700\n");
    assert_int_equal(pp5_stream_parse(b.data, b.len, "demo", &s, &d), LS_OK);
    same_both_ways(&s, u->words, PP5_UCODE_WORDS, 0);
    same_both_ways(&s, u->words, PP5_UCODE_WORDS, 5000);
    same_both_ways(&s, u->words, PP5_UCODE_WORDS, 4097);
    pp5_stream_free(&s);
    ls_buf_free(&b);
    pp5_scene_free(&sc);
    ls_diag_list_free(&errs);
    free(u);
    free(usrc);
    free(ssrc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse),
        cmocka_unit_test(test_example),
        cmocka_unit_test(test_load_example),
        cmocka_unit_test(test_blocks),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
