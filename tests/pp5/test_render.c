/* PP5 renderer validation against an independent reference rasterizer
 * (double-precision edge functions and plane interpolation, written here
 * separately from src/pp5/render.c). docs/pp5-render.md states the bounds. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../common/test_util.h"
#include "base/buf.h"
#include "pp5/render.h"
#include "pp5/uasm.h"

#define W 128
#define H 128
#define ZS 16777214.0

static void lib_matches_example(void **state)
{
    (void)state;
    char path[1024];
    snprintf(path, sizeof path, "%s/examples/pp5/lib.pp5m", ls_test_source_root());
    ls_buf b;
    ls_buf_init(&b);
    assert_true(ls_read_file(path, &b));
    assert_int_equal(b.len, strlen(pp5_render_ucode));
    assert_memory_equal(b.data, pp5_render_ucode, b.len);
    ls_buf_free(&b);
}

/* The words pp5_render loads (assembled at build time by
 * src/pp5/gen_ucode_words.c) are the assembler's words for the library text,
 * and the rest of the store stays 0. */
static void lib_words_match_assembler(void **state)
{
    (void)state;
    pp5_ucode *u = calloc(1, sizeof *u);
    assert_non_null(u);
    ls_diag_list errs;
    ls_diag_list_init(&errs);
    assert_int_equal(pp5_uasm(pp5_render_ucode, strlen(pp5_render_ucode), "lib", u, &errs), LS_OK);
    assert_int_equal(pp5_render_ucode_count, u->count);
    assert_true(u->count > PP5_R_UADDR_DISC && u->count <= PP5_UCODE_WORDS);
    for (size_t a = 0; a < u->count; a++) assert_int_equal(pp5_render_ucode_words[a], u->words[a]);
    ls_diag_list_free(&errs);
    free(u);
}

/* The read-back's interleave, both forms, against a plain loop written here,
 * for every length 0..300 (the vector form's 64-pixel groups and its tail). */
static void rgb_interleave_forms(void **state)
{
    (void)state;
    enum { N = 300 };
    uint8_t pl[3][N], want[3 * N + 8], got[3 * N + 8];
    uint64_t seed = ls_test_seed(0x5eed1e5u);
    for (int c = 0; c < 3; c++)
        for (int i = 0; i < N; i++) pl[c][i] = (uint8_t)ls_test_rand(&seed);
    for (size_t n = 0; n <= N; n++)
        for (int isa = 0; isa <= 2; isa += 2) {
            memset(want, 0xa5, sizeof want);
            memset(got, 0xa5, sizeof got);
            for (size_t p = 0; p < n; p++)
                for (int c = 0; c < 3; c++) want[3 * p + (size_t)c] = pl[c][p];
            pp5_rgb_interleave(pl[0], pl[1], pl[2], n, got, isa);
            assert_memory_equal(got, want, sizeof got); /* (nothing past 3n written) */
        }
}

static double frand(uint64_t *s) { return (double)(ls_test_rand(s) >> 11) / 9007199254740992.0; }

/* reference: state per pixel */
typedef struct refpix {
    double z;       /* nearest depth so far (ZS units), clear = 2^24-1 */
    double ztol;
    int rgb[3];
    bool unsure;    /* an edge within 0.01 px or a depth tie decided this pixel */
} refpix;

static void ref_clear(refpix *r, const uint8_t c[3])
{
    for (int i = 0; i < W * H; i++) {
        r[i].z = 16777215.0;
        r[i].ztol = 0;
        for (int k = 0; k < 3; k++) r[i].rgb[k] = c[k];
        r[i].unsure = false;
    }
}

static double lin(const double v[3][6], int k, double x, double y)
{
    double x1 = v[1][0] - v[0][0], y1 = v[1][1] - v[0][1], x2 = v[2][0] - v[0][0], y2 = v[2][1] - v[0][1];
    double det = x1 * y2 - x2 * y1;
    /* barycentric weights */
    double px = x - v[0][0], py = y - v[0][1];
    double l1 = (px * y2 - x2 * py) / det, l2 = (x1 * py - px * y1) / det;
    return v[0][k] * (1 - l1 - l2) + v[1][k] * l1 + v[2][k] * l2;
}

/* A new surface at a pixel: inside (with an "on the edge" doubt), depth, colour. */
static void ref_fragment(refpix *p, bool inside, bool near_edge, double z, double ztol,
                         const double c[3])
{
    if (near_edge) {
        p->unsure = true;
        return;
    }
    if (!inside) return;
    if (fabs(z - p->z) <= ztol + p->ztol) p->unsure = true;
    if (z < p->z) {
        p->z = z;
        p->ztol = ztol;
        for (int k = 0; k < 3; k++) p->rgb[k] = (int)floor(c[k] + 0.5);
    }
}

static void ref_tri(refpix *r, const double v[3][6], int rx, int ry)
{
    double area2 = (v[1][0] - v[0][0]) * (v[2][1] - v[0][1]) - (v[2][0] - v[0][0]) * (v[1][1] - v[0][1]);
    if (!(fabs(area2) > 1e-9)) return;
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            double X = rx + x, Y = ry + y;
            bool in = true, near = false;
            for (int e = 0; e < 3; e++) {
                const double *a = v[e], *b = v[(e + 1) % 3];
                double dx = b[0] - a[0], dy = b[1] - a[1];
                double dist = (dx * (Y - a[1]) - dy * (X - a[0])) / sqrt(dx * dx + dy * dy);
                if (area2 < 0) dist = -dist;
                if (fabs(dist) <= 0.01) near = true;
                if (dist < 0) in = false;
            }
            double z = lin(v, 2, X, Y) * ZS;
            /* FBITS-implied bound on the fixed-point depth, plus float rounding
             * of the coefficients (generous: gradients via the vertex spread) */
            double grad = 0;
            for (int i = 0; i < 3; i++)
                for (int j = 0; j < 3; j++)
                    if (i != j) {
                        double dd = hypot(v[i][0] - v[j][0], v[i][1] - v[j][1]);
                        double g = fabs(v[i][2] - v[j][2]) * ZS / (dd > 1e-9 ? dd : 1e-9);
                        if (g > grad) grad = g;
                    }
            double ztol = 2 + (1 + X + Y) * ldexp(1, -PP5_R_FBITS) + grad * 1e3 * ldexp(1, -23) * (1 + X + Y) + ZS * ldexp(1, -23);
            double c[3] = {lin(v, 3, X, Y), lin(v, 4, X, Y), lin(v, 5, X, Y)};
            ref_fragment(&r[y * W + x], in, near, z, ztol, c);
        }
}

static void ref_disc(refpix *r, const double v[3][6], int rx, int ry)
{
    double cx = v[0][0], cy = v[0][1], rad = v[0][2];
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            double X = rx + x, Y = ry + y;
            double dist = rad - hypot(X - cx, Y - cy);
            double c[3] = {v[0][3], v[0][4], v[0][5]};
            ref_fragment(&r[y * W + x], dist >= 0, fabs(dist) <= 0.01, v[1][0] * ZS, 3, c);
        }
}

static void add_prim(ls_buf *b, const pp5_prim *p)
{
    if (p->kind == PP5_PRIM_TRI) {
        ls_buf_puts(b, "tri");
        for (int i = 0; i < 3; i++)
            for (int k = 0; k < 6; k++) ls_buf_printf(b, " %.17g", p->v[i][k]);
        ls_buf_puts(b, "\n");
    } else {
        ls_buf_printf(b, "disc %.17g %.17g %.17g %.17g %.17g %.17g %.17g\n", p->v[0][0], p->v[0][1],
                      p->v[0][2], p->v[0][3], p->v[0][4], p->v[0][5], p->v[1][0]);
    }
}

static void count_clock(void *user, const pp5_igc *g, const pp5_pins *p, const pp5_emc *e)
{
    (void)g;
    (void)p;
    (void)e;
    ++*(uint64_t *)user;
}

/* pp5_render_opts.progress: one report per primitive, 1..n of n, in order */
typedef struct prim_log {
    unsigned long long calls, bad;
} prim_log;
static void prim_progress(void *ctx, unsigned long long done, unsigned long long total)
{
    prim_log *l = ctx;
    l->calls++;
    if (done != l->calls) l->bad++;
    (void)total;
}

static void check_scene(const char *text, size_t *checked_out)
{
    pp5_scene s;
    ls_diag d;
    ls_diag_clear(&d);
    assert_int_equal(pp5_scene_parse(text, strlen(text), "t.scene", &s, &d), LS_OK);
    static uint8_t rgb[W * H * 3];
    pp5_render_stats st;
    ls_status rs = pp5_render(&s, NULL, rgb, &st, &d);
    if (rs != LS_OK) fprintf(stderr, "%s\n", d.msg);
    assert_int_equal(rs, LS_OK);
    assert_int_equal(st.emc_warnings, 0);
    /* with an observer the renderer steps clock by clock (no pins blocks, no
     * look-ahead in the array): the same picture and the same clocks */
    {
        static uint8_t rgb1[W * H * 3];
        pp5_render_opts o;
        pp5_render_opts_default(&o);
        uint64_t seen = 0;
        o.on_clock = count_clock;
        o.user = &seen;
        prim_log plog = {0, 0};
        o.progress = (ls_progress){.report = prim_progress, .ctx = &plog};
        pp5_render_stats st1;
        assert_int_equal(pp5_render(&s, &o, rgb1, &st1, &d), LS_OK);
        assert_int_equal(plog.calls, s.n);
        assert_int_equal(plog.bad, 0);
        assert_memory_equal(rgb, rgb1, sizeof rgb1);
        assert_int_equal(st.clocks, st1.clocks);
        assert_int_equal(seen, st1.clocks);
        for (size_t i = 0; i < s.n; i++) assert_int_equal(st.prim_clocks[i], st1.prim_clocks[i]);
        free(st1.prim_clocks);
    }
    static refpix ref[W * H];
    ref_clear(ref, s.clear);
    for (size_t i = 0; i < s.n; i++) {
        if (s.p[i].kind == PP5_PRIM_TRI) ref_tri(ref, s.p[i].v, s.region_x, s.region_y);
        else ref_disc(ref, s.p[i].v, s.region_x, s.region_y);
    }
    size_t checked = 0, bad = 0;
    for (int i = 0; i < W * H; i++) {
        if (ref[i].unsure) continue;
        checked++;
        for (int k = 0; k < 3; k++)
            if (abs(ref[i].rgb[k] - rgb[i * 3 + k]) > 1) {
                if (bad < 10)
                    fprintf(stderr, "pixel (%d,%d) ch %d: model %d, reference %d\n", i % W, i / W, k,
                            rgb[i * 3 + k], ref[i].rgb[k]);
                bad++;
                break;
            }
    }
    printf("checked %zu of %d pixels, %zu differ\n", checked, W * H, bad);
    assert_int_equal(bad, 0);
    free(st.prim_clocks);
    pp5_scene_free(&s);
    if (checked_out) *checked_out = checked;
}

static void random_vertex(uint64_t *rs, double *v, double lo, double hi)
{
    v[0] = lo + frand(rs) * (hi - lo);
    v[1] = lo + frand(rs) * (hi - lo);
    v[2] = frand(rs);
    for (int k = 3; k < 6; k++) v[k] = floor(frand(rs) * 256) > 255 ? 255 : floor(frand(rs) * 255.99);
}

/* >= 200 random triangles: shared edges (fans), slivers, partly outside,
 * overlapping depths; in two regions. */
static void random_triangles(void **state)
{
    (void)state;
    uint64_t rs = ls_test_seed(0x5eed5);
    /* scene 2: flat, distinct colours (R or G differ by >= 2 between any two
     * triangles), so agreement within +-1 means the same triangle won the pixel:
     * an exact coverage and depth-order check */
    for (int scene = 0; scene < 3; scene++) {
        ls_buf b;
        ls_buf_init(&b);
        int rx = scene ? 1000 : 0, ry = scene ? 700 : 0;
        ls_buf_printf(&b, "region %d %d\nclear 10 20 30\n", rx, ry);
        int ntri = 0;
        while (ntri < 220) {
            pp5_prim p;
            memset(&p, 0, sizeof p);
            p.kind = PP5_PRIM_TRI;
            int kind = (int)(ls_test_rand(&rs) % 4);
            for (int i = 0; i < 3; i++) random_vertex(&rs, p.v[i], -30, 158);
            if (kind == 1) { /* sliver */
                for (int k = 0; k < 6; k++) p.v[2][k] = p.v[0][k] + (p.v[1][k] - p.v[0][k]) * 0.37;
                p.v[2][0] += 0.3 * (frand(&rs) - 0.5);
                p.v[2][1] += 0.3 * (frand(&rs) - 0.5);
            }
            for (int i = 0; i < 3; i++) { p.v[i][0] += rx; p.v[i][1] += ry; }
            if (scene == 2)
                for (int i = 0; i < 3; i++) {
                    p.v[i][3] = 2 * (ntri % 128);
                    p.v[i][4] = 100 * (ntri / 128);
                    p.v[i][5] = 7;
                }
            add_prim(&b, &p);
            ntri++;
            if (kind == 2) { /* a neighbour sharing edge v0-v1 */
                pp5_prim q = p;
                random_vertex(&rs, q.v[2], -30, 158);
                q.v[2][0] += rx;
                q.v[2][1] += ry;
                if (scene == 2)
                    for (int i = 0; i < 3; i++) {
                        q.v[i][3] = 2 * (ntri % 128);
                        q.v[i][4] = 100 * (ntri / 128);
                    }
                /* same depth/colour along the shared edge: continuous surface */
                add_prim(&b, &q);
                ntri++;
            }
        }
        size_t checked;
        check_scene(b.data, &checked);
        assert_true(checked > W * H / 2);
        ls_buf_free(&b);
    }
}

static void random_discs(void **state)
{
    (void)state;
    uint64_t rs = ls_test_seed(0xd15c);
    ls_buf b;
    ls_buf_init(&b);
    ls_buf_puts(&b, "clear 0 0 0\n");
    for (int i = 0; i < 40; i++) {
        ls_buf_printf(&b, "disc %.6f %.6f %.6f %d %d %d %.6f\n", -10 + frand(&rs) * 148,
                      -10 + frand(&rs) * 148, 0.5 + frand(&rs) * 40, (int)(frand(&rs) * 255),
                      (int)(frand(&rs) * 255), (int)(frand(&rs) * 255), frand(&rs));
    }
    size_t checked;
    check_scene(b.data, &checked);
    assert_true(checked > W * H / 2);
    ls_buf_free(&b);
}

static void parse_errors(void **state)
{
    (void)state;
    static const char *const bad[] = {
        "tri 1 2 3\n", "disc 1 2 -3 0 0 0 0\n", "clear 256 0 0\n", "region -1 0\n",
        "frob 1\n", "tri 0 0 2 0 0 0 1 1 0 0 0 0 2 2 0 0 0 0\n", "disc 1 2 3 4 5 6 nan\n",
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        pp5_scene s;
        ls_diag d;
        ls_diag_clear(&d);
        assert_int_equal(pp5_scene_parse(bad[i], strlen(bad[i]), "bad.scene", &s, &d), LS_ERR_PARSE);
        assert_int_equal(d.line, 1);
        assert_true(d.col >= 1);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(lib_matches_example),
        cmocka_unit_test(lib_words_match_assembler),
        cmocka_unit_test(rgb_interleave_forms),
        cmocka_unit_test(parse_errors),
        cmocka_unit_test(random_discs),
        cmocka_unit_test(random_triangles),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
