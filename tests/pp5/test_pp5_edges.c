/* Rough edges of the PP5 library (issue 18, "What to build" 6), each with the
 * behaviour it now has: the bounded warning list, the signals of a Reset clock,
 * hex microcode lists checked like the assembler's output, Go with nothing
 * loaded, and host-stream values that are too wide or given twice. */
#include "test_util.h"

#include "lockstep/pp5.h"
#include "pp5/stream.h"
#include "pp5/uasm.h"

#define IDLE 0x90011000u /* done cond jmp 0 (pma dst) — the idle word */

static uint64_t sig(const pp5_igc *g, const char *name)
{
    long i = pp5_igc_signal_find(name);
    assert_true(i >= 0);
    return pp5_igc_signal_value(g, (size_t)i);
}

static ls_status step(pp5_igc *g, bool fast, const pp5_host_in *in)
{
    ls_diag d;
    pp5_pins p;
    return fast ? pp5_igc_step_fast(g, in, &p, &d) : pp5_igc_step(g, in, &p, &d);
}

/* More than 64 warnings: all are counted, the last 64 are kept and listed,
 * nothing past them is NULL-listed. */
static void test_warnings_bounded(void **state)
{
    (void)state;
    pp5_igc *g;
    ls_diag d;
    assert_int_equal(pp5_igc_create(&g, NULL, &d), LS_OK);
    for (int i = 0; i < 70; i++) /* I<31> is reserved: one warning each */
        assert_int_equal(pp5_igc_write(g, PP5_REG_I, 0x80000000u, NULL, &d), LS_OK);
    assert_int_equal(pp5_igc_warning_count(g), 70);
    assert_int_equal(pp5_igc_warnings_kept(g), 64);
    for (size_t i = 0; i < pp5_igc_warnings_kept(g); i++)
        assert_non_null(pp5_igc_warning(g, i));
    assert_null(pp5_igc_warning(g, 64));
    /* the kept ones are the last: cycles 6 … 69 */
    assert_non_null(strstr(pp5_igc_warning(g, 0), "cycle 6:"));
    assert_non_null(strstr(pp5_igc_warning(g, 63), "cycle 69:"));
    pp5_igc_destroy(g);
}

/* The clock in which Reset is asserted drives Shift, NewL, PostI and PostC as
 * the same clock without Reset does (Reset acts at the clock's end, A-21):
 * twin IGCs, one reset at clock n, show the same four signals at n; both
 * steps. */
static void test_reset_clock_signals(void **state)
{
    (void)state;
    static const char *const names[] = {"Shift", "NewL", "PostI", "PostC"};
    unsigned seen[4] = {0};
    for (int fast = 0; fast < 2; fast++)
        for (int n = 0; n < 12; n++) {
            pp5_igc *a, *b;
            ls_diag d;
            assert_int_equal(pp5_igc_create(&a, NULL, &d), LS_OK);
            assert_int_equal(pp5_igc_create(&b, NULL, &d), LS_OK);
            const uint32_t w[2] = {IDLE, IDLE};
            assert_int_equal(pp5_igc_load_ucode(a, 0, w, 2, &d), LS_OK);
            assert_int_equal(pp5_igc_load_ucode(b, 0, w, 2, &d), LS_OK);
            /* clock 0: P (leaves RMode, A-5), 1: I (uaddr 1, QEE const), 2: Go */
            pp5_host_in seq[3] = {{0}};
            seq[0].wr_en = true, seq[0].t = 1, seq[0].d = 0;
            seq[1].wr_en = true, seq[1].t = 0, seq[1].d = 1u | (1u << 18);
            seq[2].go = true;
            for (int c = 0; c <= n; c++) {
                pp5_host_in in = c < 3 ? seq[c] : (pp5_host_in){0};
                assert_int_equal(step(a, fast, &in), LS_OK);
                if (c == n)
                    in.reset = true, in.wr_en = false, in.go = false;
                assert_int_equal(step(b, fast, &in), LS_OK);
            }
            for (int k = 0; k < 4; k++) {
                assert_int_equal(sig(b, names[k]), sig(a, names[k]));
                seen[k] += (unsigned)sig(a, names[k]);
            }
            pp5_igc_destroy(a);
            pp5_igc_destroy(b);
        }
    for (int k = 0; k < 4; k++) /* each signal was 1 in some reset clock */
        assert_true(seen[k] > 0);
}

/* Go with nothing loaded warns (it would run all-zero words to the cycle cap);
 * with a routine loaded it does not. */
static void test_go_empty_store(void **state)
{
    (void)state;
    for (int fast = 0; fast < 2; fast++) {
        pp5_igc *g;
        ls_diag d;
        assert_int_equal(pp5_igc_create(&g, NULL, &d), LS_OK);
        pp5_host_in in = {0};
        in.go = true;
        assert_int_equal(step(g, fast, &in), LS_OK);
        assert_int_equal(pp5_igc_warning_count(g), 1);
        assert_non_null(strstr(pp5_igc_warning(g, 0), "empty microcode store"));
        pp5_igc_destroy(g);
        assert_int_equal(pp5_igc_create(&g, NULL, &d), LS_OK);
        const uint32_t w = IDLE;
        assert_int_equal(pp5_igc_load_ucode(g, 0, &w, 1, &d), LS_OK);
        pp5_igc_reset(g); /* keeps the store */
        assert_int_equal(step(g, fast, &in), LS_OK);
        assert_int_equal(pp5_igc_warning_count(g), 0);
        pp5_igc_destroy(g);
    }
}

/* Hex lists get the assembler's checks. */
static void test_hex_checks(void **state)
{
    (void)state;
    static const struct { const char *src; ls_status st; const char *msg; } bad[] = {
        {"0x90011000\n0x0d000000\n", LS_ERR_RANGE, "branch address 416"},
        {"0x90011000\n0x90051000\n", LS_ERR_PARSE, "cnt1 with done"},
        {"0x90011000\n0x90031000\n", LS_ERR_PARSE, "cnt2 with done"},
        {"0: 0x90011000\n1: 0x1\n0: 0x90011000\n", LS_ERR_PARSE, "given twice"},
        {"0x00000001\n", LS_ERR_PARSE, "address 0 must hold the idle word"},
        {"1: 0x1\n", LS_ERR_PARSE, "address 0 must hold the idle word"},
        {"0x90011000\n0x80000000\n", LS_ERR_PARSE, "done word must be 'jmp 0'"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        pp5_ucode u;
        ls_diag d;
        ls_diag_clear(&d);
        assert_int_equal(pp5_uhex_parse(bad[i].src, strlen(bad[i].src), "h", &u, &d), bad[i].st);
        if (!strstr(d.msg, bad[i].msg))
            printf("%s -> %s\n", bad[i].src, d.msg);
        assert_non_null(strstr(d.msg, bad[i].msg));
    }
    /* the assembler's own output reads back */
    const char *ok = "0x90011000\n0x0cf80000\n0x90011000\n";
    pp5_ucode u;
    ls_diag d;
    assert_int_equal(pp5_uhex_parse(ok, strlen(ok), "h", &u, &d), LS_OK);
    assert_int_equal(u.words[1] >> 19 & 0x1ffu, 415);
}

/* Host streams: a whole-register value wider than 32 bits, a field given
 * twice, two fields on the same bits. */
static void test_stream_values(void **state)
{
    (void)state;
    static const struct { const char *src; int col; const char *msg; } bad[] = {
        {"write I 0x1ffffffff\n", 9, "too wide"},
        {"write P 99999999999999999999999\n", 9, "too wide"},
        {"write I uaddr=1 uaddr=2\n", 17, "twice"},
        {"write I trren trren\n", 15, "twice"},
        {"write I qee=const qee=quad\n", 19, "twice"},
        {"write I fni=1 lc1=2\n", 15, "twice"},
        {"write P lc2=1 src=2 lc2=3\n", 21, "twice"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        pp5_stream s;
        ls_diag d;
        assert_int_equal(pp5_stream_parse(bad[i].src, strlen(bad[i].src), "s", &s, &d),
                         LS_ERR_PARSE);
        if (!strstr(d.msg, bad[i].msg) || d.col != bad[i].col)
            printf("%s -> %d %s\n", bad[i].src, d.col, d.msg);
        assert_non_null(strstr(d.msg, bad[i].msg));
        assert_int_equal(d.col, bad[i].col);
    }
    /* distinct fields still combine */
    const char *ok = "write I uaddr=1 dst=2 trren\nwrite I 0xffffffff\n";
    pp5_stream s;
    ls_diag d;
    assert_int_equal(pp5_stream_parse(ok, strlen(ok), "s", &s, &d), LS_OK);
    assert_int_equal(s.a[0].value, 1u | 2u << 9 | 1u << 17);
    assert_int_equal(s.a[1].value, 0xffffffffu);
    pp5_stream_free(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_warnings_bounded),
        cmocka_unit_test(test_reset_clock_signals),
        cmocka_unit_test(test_go_empty_store),
        cmocka_unit_test(test_hex_checks),
        cmocka_unit_test(test_stream_values),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
