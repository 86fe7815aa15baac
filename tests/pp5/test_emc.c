/* PP5 EMC array + microcode library: each routine of examples/pp5/lib.pp5m is
 * run on the IGC model driving the EMC array, and pixel memory is checked
 * against an independent computation written here (fixed-point conversion per
 * pp5.md §2.4: V = sign(v)·floor(|v|·2^FBITS); Q over absolute coordinates). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../common/test_util.h"
#include "base/buf.h"
#include "lockstep/pp5.h"
#include "lockstep/pp5_emc.h"
#include "pp5/render.h"
#include "pp5/stream.h"
#include "pp5/uasm.h"

#define FB 8

typedef struct rig {
    pp5_igc *g;
    pp5_emc *e;
} rig;

static void clock_fn(void *user, const pp5_igc *g, const pp5_pins *p)
{
    (void)g;
    pp5_emc_step(((rig *)user)->e, p);
}

static void rig_open_src(rig *r, const pp5_emc_options *eo, const char *src);
static void rig_open(rig *r, const pp5_emc_options *eo) { rig_open_src(r, eo, pp5_render_ucode); }
static void rig_open_src(rig *r, const pp5_emc_options *eo, const char *src)
{
    pp5_ucode *u = calloc(1, sizeof *u);
    ls_diag_list errs;
    ls_diag_list_init(&errs);
    assert_int_equal(pp5_uasm(src, strlen(src), "lib", u, &errs), LS_OK);
    ls_diag d;
    assert_int_equal(pp5_igc_create(&r->g, NULL, &d), LS_OK);
    assert_int_equal(pp5_igc_load_ucode(r->g, 0, u->words, PP5_UCODE_WORDS, &d), LS_OK);
    assert_int_equal(pp5_emc_create(&r->e, eo, &d), LS_OK);
    free(u);
    ls_diag_list_free(&errs);
}

static void rig_close(rig *r)
{
    pp5_emc_destroy(r->e);
    pp5_igc_destroy(r->g);
}

static void run(rig *r, const char *text)
{
    pp5_stream s;
    ls_diag d;
    ls_diag_clear(&d);
    ls_buf b;
    ls_buf_init(&b);
    ls_buf_printf(&b, "%s\nrun 400\n", text);
    assert_int_equal(pp5_stream_parse(b.data, b.len, "t", &s, &d), LS_OK);
    ls_status st = pp5_stream_run(&s, r->g, 0, clock_fn, r, &d);
    if (st) fprintf(stderr, "%s\n", d.msg);
    assert_int_equal(st, LS_OK);
    pp5_stream_free(&s);
    ls_buf_free(&b);
}

static int64_t fix(float v) /* pp5.md §2.4 item 1 (independent restatement) */
{
    if (v == 0 || !isfinite(v)) return 0;
    int ex;
    frexpf(v, &ex); /* |v| in [2^(ex-1), 2^ex) */
    if (ex - 1 < -FB || ex - 1 > 63 - FB) return 0;
    double m = floor(fabs((double)v) * ldexp(1, FB));
    return v < 0 ? -(int64_t)m : (int64_t)m;
}

static __int128 qref(const float c[6], int x, int y)
{
    __int128 X = x, Y = y;
    return fix(c[0]) * X + fix(c[1]) * Y + fix(c[2]) + fix(c[3]) * X * X + fix(c[4]) * X * Y +
           fix(c[5]) * Y * Y;
}

static const char *hdr = "write P fbits=8 src=100 lc2=%d\nwait\n";

static void enable_all_and_const(void **state)
{
    (void)state;
    rig r;
    rig_open(&r, NULL);
    char t[512];
    snprintf(t, sizeof t, "write P fbits=8\nwait\nwrite I uaddr=1 qee=none\ngo\nwait\n"
                          "write C 0xA5C3\nwrite I uaddr=32 dst=40 qee=none fni=16\ngo\nwait\n");
    run(&r, t);
    for (int y = 0; y < 128; y += 7)
        for (int x = 0; x < 128; x += 5) {
            assert_int_equal(pp5_emc_enable(r.e, x, y), 1);
            assert_int_equal(pp5_emc_field(r.e, x, y, 40, 16), 0xA5C3);
            assert_int_equal(pp5_emc_field(r.e, x, y, 56, 8), 0); /* nothing beyond LEN */
        }
    rig_close(&r);
}

static void truth_table_is_data(void **state)
{
    (void)state;
    pp5_emc_options o;
    pp5_emc_options_default(&o);
    o.sum_table = 0x69; /* the alternative reading XNOR: one change */
    rig r;
    rig_open(&r, &o);
    run(&r, "write P fbits=8\nwait\nwrite I uaddr=1 qee=none\ngo\nwait\n"
            "write C 0x00F0\nwrite I uaddr=32 dst=40 qee=none fni=16\ngo\nwait\n");
    assert_int_equal(pp5_emc_field(r.e, 3, 9, 40, 16), 0xFF0F);
    rig_close(&r);
}

static void copy_and_add(void **state)
{
    (void)state;
    rig r;
    rig_open(&r, NULL);
    uint64_t rs = ls_test_seed(0xc0b1);
    static uint32_t a[128][128], b[128][128];
    for (int y = 0; y < 128; y++)
        for (int x = 0; x < 128; x++) {
            a[y][x] = (uint32_t)ls_test_rand(&rs) & 0xfffff;
            b[y][x] = (uint32_t)ls_test_rand(&rs) & 0xfffff;
            pp5_emc_set_field(r.e, x, y, 100, 20, a[y][x]);
            pp5_emc_set_field(r.e, x, y, 130, 20, b[y][x]);
        }
    char t[512];
    /* enable only even columns through an edge: Q = x mod... use the E register via a
     * linear edge x - 63.5 >= 0 (right half) */
    snprintf(t, sizeof t,
             "write P fbits=8 src=100 lc2=20\nwait\nwrite I uaddr=1 qee=none\ngo\nwait\n"
             "coef A 1\ncoef B 0\ncoef C -63.5\nwrite I uaddr=4 qee=linear mbi fni=1\ngo\nwait\n"
             "write I uaddr=36 dst=160 qee=none\ngo\nwait\n"   /* COPY 160 <- 100 */
             "write I uaddr=40 dst=130 qee=none\ngo\nwait\n");  /* ADDF 130 += 100 */
    run(&r, t);
    for (int y = 0; y < 128; y++)
        for (int x = 0; x < 128; x++) {
            bool en = x >= 64;
            assert_int_equal(pp5_emc_enable(r.e, x, y), en);
            assert_int_equal(pp5_emc_field(r.e, x, y, 160, 20), en ? a[y][x] : 0);
            assert_int_equal(pp5_emc_field(r.e, x, y, 130, 20),
                             en ? ((a[y][x] + b[y][x]) & 0xfffff) : b[y][x]);
        }
    rig_close(&r);
}

static void qload_qadd_gouraud(void **state)
{
    (void)state;
    uint64_t rs = ls_test_seed(0x91ad);
    for (int trial = 0; trial < 6; trial++) {
        rig r;
        rig_open(&r, NULL);
        float c[6] = {0};
        c[0] = (float)((double)(ls_test_rand(&rs) % 20001) / 100.0 - 100.0);
        c[1] = (float)((double)(ls_test_rand(&rs) % 20001) / 100.0 - 100.0);
        c[2] = (float)((double)(ls_test_rand(&rs) % 2000001) / 100.0 - 10000.0);
        int len = 8 + (int)(ls_test_rand(&rs) % 17);
        for (int y = 0; y < 128; y++)
            for (int x = 0; x < 128; x++) pp5_emc_set_field(r.e, x, y, 60, len, (uint64_t)(x * 977 + y * 131));
        char t[1024];
        snprintf(t, sizeof t,
                 "write P fbits=8\nwait\nwrite I uaddr=1 qee=none\ngo\nwait\n"
                 "coef A %.9g\ncoef B %.9g\ncoef C %.9g\n"
                 "write I uaddr=8 dst=20 qee=linear trren fni=%d\ngo\nwait\n"
                 "write I uaddr=12 dst=60 qee=linear trren fni=%d\ngo\nwait\n",
                 (double)c[0], (double)c[1], (double)c[2], len, len);
        run(&r, t);
        uint64_t mask = (1ull << len) - 1;
        for (int y = 0; y < 128; y++)
            for (int x = 0; x < 128; x++) {
                __int128 q = qref(c, x, y) >> FB; /* integer part (floor) */
                uint64_t want = (uint64_t)q & mask;
                assert_int_equal(pp5_emc_field(r.e, x, y, 20, len), want);
                assert_int_equal(pp5_emc_field(r.e, x, y, 60, len),
                                 ((uint64_t)(x * 977 + y * 131) + want) & mask);
            }
        rig_close(&r);
    }
}

static void edge_and_disc(void **state)
{
    (void)state;
    uint64_t rs = ls_test_seed(0xed9e);
    for (int trial = 0; trial < 8; trial++) {
        rig r;
        rig_open(&r, NULL);
        float c[6] = {0};
        bool quad = trial & 1;
        char t[1024];
        if (quad) {
            double a = (double)(ls_test_rand(&rs) % 12800) / 100, b = (double)(ls_test_rand(&rs) % 12800) / 100;
            double rad = 1 + (double)(ls_test_rand(&rs) % 6000) / 100;
            c[0] = (float)(2 * a); c[1] = (float)(2 * b); c[2] = (float)(rad * rad - a * a - b * b);
            c[3] = -1; c[4] = 0; c[5] = -1;
        } else {
            c[0] = (float)((double)(ls_test_rand(&rs) % 2001) / 1000 - 1);
            c[1] = (float)((double)(ls_test_rand(&rs) % 2001) / 1000 - 1);
            c[2] = (float)((double)(ls_test_rand(&rs) % 20001) / 100 - 100);
        }
        snprintf(t, sizeof t,
                 "write P fbits=8\nwait\nwrite I uaddr=1 qee=none\ngo\nwait\n"
                 "coef A %.9g\ncoef B %.9g\ncoef C %.9g\ncoef D %.9g\ncoef E %.9g\ncoef F %.9g\n"
                 "write I uaddr=%d qee=%s mbi fni=1\ngo\nwait\n",
                 (double)c[0], (double)c[1], (double)c[2], (double)c[3], (double)c[4], (double)c[5],
                 quad ? 52 : 4, quad ? "quad" : "linear");
        run(&r, t);
        for (int y = 0; y < 128; y++)
            for (int x = 0; x < 128; x++)
                assert_int_equal(pp5_emc_enable(r.e, x, y), qref(c, x, y) >= 0);
        rig_close(&r);
    }
}

static void ztest(void **state)
{
    (void)state;
    uint64_t rs = ls_test_seed(0x2b0f);
    rig r;
    rig_open(&r, NULL);
    static uint32_t zb[128][128];
    for (int y = 0; y < 128; y++)
        for (int x = 0; x < 128; x++) {
            zb[y][x] = (uint32_t)(ls_test_rand(&rs) % 40000);
            pp5_emc_set_field(r.e, x, y, 0, 16, zb[y][x]);
        }
    float c[6] = {100.25f, 150.5f, 2000.75f, 0, 0, 0};
    char t[1024];
    snprintf(t, sizeof t, hdr, 16);
    strcat(t, "write I uaddr=1 qee=none\ngo\nwait\ncoef A 100.25\ncoef B 150.5\ncoef C 2000.75\n"
              "write I uaddr=16 dst=0 qee=linear trren fni=16\ngo\nwait\n");
    run(&r, t);
    int kept = 0;
    for (int y = 0; y < 128; y++)
        for (int x = 0; x < 128; x++) {
            uint32_t z = (uint32_t)(qref(c, x, y) >> FB) & 0xffff;
            bool nearer = z < zb[y][x];
            kept += nearer;
            assert_int_equal(pp5_emc_enable(r.e, x, y), nearer);
            assert_int_equal(pp5_emc_field(r.e, x, y, 0, 16), nearer ? z : zb[y][x]);
        }
    assert_true(kept > 100 && kept < 128 * 128 - 100);
    rig_close(&r);
}

static void config_load(void **state)
{
    (void)state;
    rig r;
    rig_open(&r, NULL);
    uint32_t before[64];
    for (int k = 0; k < 64; k++) before[k] = pp5_emc_config(r.e, k);
    /* chip 37 to screen origin (1234, 567) */
    run(&r, "write P fbits=8 aux=37\nwait\nwrite C 1162450\nwrite I uaddr=48 qee=none fni=22\ngo\nwait\n");
    for (int k = 0; k < 64; k++)
        assert_int_equal(pp5_emc_config(r.e, k), k == 37 ? (1234u | 567u << 11) : before[k]);
    /* QEE now sees absolute coordinates there: Q = x (FNI bits of the integer part) */
    run(&r, "write I uaddr=1 qee=none\ngo\nwait\ncoef A 1\ncoef B 0\ncoef C 0\n"
            "write I uaddr=8 dst=20 qee=linear trren fni=11\ngo\nwait\n");
    int tx = 37 % 8, ty = 37 / 8;
    assert_int_equal(pp5_emc_field(r.e, tx * 16 + 3, ty * 16 + 4, 20, 11), 1237);
    assert_int_equal(pp5_emc_field(r.e, 3, 4, 20, 11), 3);
    rig_close(&r);
}

/* S is the bit read by the previous word, before that word's write-back. */
static void s_is_prewrite_read(void **state)
{
    (void)state;
    static const char *src = "idle: nop cond jmp idle done\n"
                             "w: a=1 b=0 c=0 mwrt dst+ cond inc\n"
                             "   a=s b=0 c=0 mwrt dst cond jmp idle done\n";
    rig r;
    rig_open_src(&r, NULL, src);
    for (int y = 0; y < 128; y++)
        for (int x = 0; x < 128; x++) pp5_emc_set_field(r.e, x, y, 70, 2, 2); /* bit 70 = 0, 71 = 1 */
    run(&r, "write P fbits=8\nwait\nwrite I uaddr=1 qee=none\ngo\nwait\n"
            "write I uaddr=1 dst=70 qee=none\ngo\nwait\n");
    /* E starts at 0 (power-on), so nothing may change */
    assert_int_equal(pp5_emc_field(r.e, 5, 5, 70, 2), 2);
    rig_close(&r);
    static const char *src2 = "idle: nop cond jmp idle done\n"
                              "en: a=1 b=1 c=1 lde cond jmp idle done\n"
                              "w: a=1 b=0 c=0 mwrt dst+ cond inc\n"
                              "   a=s b=0 c=0 mwrt dst cond jmp idle done\n";
    rig_open_src(&r, NULL, src2);
    for (int y = 0; y < 128; y++)
        for (int x = 0; x < 128; x++) pp5_emc_set_field(r.e, x, y, 70, 2, 2);
    run(&r, "write P fbits=8\nwait\nwrite I uaddr=1 qee=none\ngo\nwait\n"
            "write I uaddr=2 dst=70 qee=none\ngo\nwait\n");
    /* bit 70 <- 1; bit 71 <- S = bit 70 as read before the write = 0 */
    assert_int_equal(pp5_emc_field(r.e, 5, 5, 70, 2), 1);
    assert_int_equal(pp5_emc_field(r.e, 127, 127, 70, 2), 1);
    rig_close(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(enable_all_and_const), cmocka_unit_test(truth_table_is_data),
        cmocka_unit_test(copy_and_add),         cmocka_unit_test(qload_qadd_gouraud),
        cmocka_unit_test(edge_and_disc),        cmocka_unit_test(ztest),
        cmocka_unit_test(config_load),          cmocka_unit_test(s_is_prewrite_read),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
