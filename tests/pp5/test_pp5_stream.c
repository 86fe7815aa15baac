/* Host-action streams: parsing (errors with file:line:col) and running the
 * bundled example end to end. */
#include "test_util.h"

#include "lockstep/pp5.h"
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse),
        cmocka_unit_test(test_example),
        cmocka_unit_test(test_load_example),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
