/* Geometry and rasterizer (include/lockstep/r500_raster.h), checked against
 * references written here, separately from src/r500/{vap_clip,ga_su,sc,rs}.c:
 * - coverage: a rasterizer of its own in exact integer arithmetic (the
 *   triangle's interior side found from the opposite vertex, top and left
 *   edges found geometrically), on random triangles with many samples
 *   exactly on edges;
 * - the fill rule on shared edges: a jittered mesh over the whole target
 *   covers every pixel exactly once, whatever the winding of each triangle;
 * - clipping: triangles crossing the view volume cover what the unclipped
 *   triangle covers inside the target, except pixels whose centre lies
 *   within the snapping distance of an edge;
 * - interpolation: perspective-correct barycentrics in double precision;
 * - the provoking vertex of every primitive type and mode (the table of
 *   docs/r500-raster.md) and the face-culling truth table.
 * Random cases use fixed seeds (printed on failure through the message). */
#include "test_util.h"

#include <math.h>

#include "lockstep/r500.h"
#include "lockstep/r500_asm.h"
#include "lockstep/r500_raster.h"

#define W 32
#define H 32

static uint64_t rng = 0x9E3779B97F4A7C15ull;
static uint32_t rnd(void)
{
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
    return (uint32_t)(rng >> 11);
}
static double urand(double a, double b)
{
    return a + (b - a) * (rnd() / 4294967296.0);
}

/* State whose vertices are window coordinates: x, y already divided, no
 * viewport scale/offset, W0 given as 1/w, clipping off. */
static void window_state(r500_raster_state *s)
{
    r500_raster_state_init(s, W, H);
    s->reg[R500_R_VAP_VTE_CNTL] = (1u << 8) | (1u << 9);
    s->reg[R500_R_VAP_CLIP_CNTL] = 1u << 16;
}

static void draw_setup(r500_draw *dr, const r500_raster_state *s, unsigned prim,
                       const r500_vertex *v, size_t n)
{
    r500_draw_init(dr);
    dr->state = s;
    dr->prim = prim;
    dr->v = v;
    dr->nv = n;
    dr->width = W;
    dr->height = H;
}

static void wv(r500_vertex *v, double x, double y)
{
    memset(v, 0, sizeof *v);
    v->pos[0] = (float)x, v->pos[1] = (float)y, v->pos[2] = 0.0f, v->pos[3] = 1.0f;
}

/* ---- reference coverage ---- */

static int64_t ref_snap(double v, int S)
{
    return (int64_t)floor(v * S + 0.5); /* GA_ROUND_MODE = 1: nearest */
}

static int sgn(int64_t v)
{
    return (v > 0) - (v < 0);
}

/* Is the sample (sx, sy) (subpixel units) covered by triangle X, Y under
 * the top-left rule, y growing downwards? */
static bool ref_covers(const int64_t X[3], const int64_t Y[3], int64_t sx, int64_t sy)
{
    for (int e = 0; e < 3; e++) {
        int a = e, b = (e + 1) % 3, c = (e + 2) % 3;
        int64_t ex = X[b] - X[a], ey = Y[b] - Y[a];
        int sp = sgn(ex * (sy - Y[a]) - ey * (sx - X[a]));
        int sc = sgn(ex * (Y[c] - Y[a]) - ey * (X[c] - X[a]));
        if (sc == 0)
            return false; /* degenerate */
        if (sp == -sc)
            return false;
        if (sp == 0) {
            bool top = ey == 0 && Y[c] > Y[a];
            int64_t num = (X[c] - X[a]) * ey - ex * (Y[c] - Y[a]);
            bool left = ey != 0 && sgn(num) * sgn(ey) > 0; /* interior at larger x */
            if (!top && !left)
                return false;
        }
    }
    return true;
}

static void ref_triangle(const double x[3], const double y[3], int S, uint32_t *hits)
{
    int64_t X[3], Y[3];
    for (int i = 0; i < 3; i++)
        X[i] = ref_snap(x[i], S), Y[i] = ref_snap(y[i], S);
    for (int py = 0; py < H; py++)
        for (int px = 0; px < W; px++)
            if (ref_covers(X, Y, (int64_t)px * S + S / 2, (int64_t)py * S + S / 2))
                hits[py * W + px]++;
}

static double coord(int S)
{
    /* a third of the coordinates fall on pixel centres or subpixel steps */
    switch (rnd() % 3) {
    case 0:
        return floor(urand(-4, W + 4)) + 0.5;
    case 1:
        return floor(urand(-4, W + 4) * S) / S;
    default:
        return urand(-4, W + 4);
    }
}

static void test_coverage_random(void **state)
{
    (void)state;
    static const r500_subpixel opts[3] = {R500_SUBPIXEL_REGISTER, R500_SUBPIXEL_16,
                                          R500_SUBPIXEL_256};
    static const int Ss[3] = {12, 16, 256};
    r500_raster_state s;
    window_state(&s);
    for (int o = 0; o < 3; o++)
        for (int it = 0; it < 400; it++) {
            double x[3], y[3];
            r500_vertex v[3];
            for (int i = 0; i < 3; i++)
                x[i] = coord(Ss[o]), y[i] = coord(Ss[o]), wv(&v[i], x[i], y[i]);
            if (it % 7 == 0) /* axis-aligned edges: horizontal and vertical ties */
                y[1] = y[0], v[1].pos[1] = v[0].pos[1], x[2] = x[0], v[2].pos[0] = v[0].pos[0];
            r500_draw dr;
            draw_setup(&dr, &s, R500_PRIM_TRIANGLES, v, 3);
            dr.opts.subpixel = opts[o];
            uint32_t got[W * H] = {0}, want[W * H] = {0};
            ls_diag d;
            assert_int_equal(r500_draw_coverage(&dr, got, NULL, &d), LS_OK);
            ref_triangle(x, y, Ss[o], want);
            for (int p = 0; p < W * H; p++)
                if (got[p] != want[p])
                    fail_msg("subpixel 1/%d case %d: pixel (%d,%d) covered %u, reference %u "
                             "(%.9g,%.9g) (%.9g,%.9g) (%.9g,%.9g)",
                             Ss[o], it, p % W, p / W, got[p], want[p], x[0], y[0], x[1], y[1],
                             x[2], y[2]);
        }
}

/* A jittered grid over the whole target, each cell cut along a random
 * diagonal, each triangle in a random winding: every pixel exactly once. */
static void test_mesh_fill_rule(void **state)
{
    (void)state;
    enum { G = 6 };
    for (int o = 0; o < 3; o++)
        for (int it = 0; it < 20; it++) {
            double gx[G + 1][G + 1], gy[G + 1][G + 1];
            for (int j = 0; j <= G; j++)
                for (int i = 0; i <= G; i++) {
                    double cx = (double)W * i / G, cy = (double)H * j / G;
                    if (i > 0 && i < G)
                        cx += urand(-0.4, 0.4) * W / G;
                    if (j > 0 && j < G)
                        cy += urand(-0.4, 0.4) * H / G;
                    if (it % 2) /* snap to pixel centres: many samples on edges */
                        cx = i > 0 && i < G ? floor(cx) + 0.5 : cx,
                        cy = j > 0 && j < G ? floor(cy) + 0.5 : cy;
                    gx[j][i] = cx, gy[j][i] = cy;
                }
            r500_vertex v[G * G * 6];
            size_t n = 0;
            for (int j = 0; j < G; j++)
                for (int i = 0; i < G; i++) {
                    int c[4][2] = {{i, j}, {i + 1, j}, {i + 1, j + 1}, {i, j + 1}};
                    int t[2][3];
                    /* a random diagonal, unless it leaves the (possibly
                     * non-convex) cell: then the other one */
                    static const int A[2][3] = {{0, 1, 2}, {0, 2, 3}}, B[2][3] = {{0, 1, 3}, {1, 2, 3}};
                    bool useA = rnd() & 1;
                    for (int pass = 0; pass < 2; pass++) {
                        const int(*T)[3] = useA ? A : B;
                        bool ok = true;
                        for (int k = 0; k < 2; k++) {
                            double ax = gx[c[T[k][0]][1]][c[T[k][0]][0]], ay = gy[c[T[k][0]][1]][c[T[k][0]][0]];
                            double bx = gx[c[T[k][1]][1]][c[T[k][1]][0]], by = gy[c[T[k][1]][1]][c[T[k][1]][0]];
                            double qx = gx[c[T[k][2]][1]][c[T[k][2]][0]], qy = gy[c[T[k][2]][1]][c[T[k][2]][0]];
                            ok = ok && (bx - ax) * (qy - ay) - (qx - ax) * (by - ay) > 0;
                        }
                        if (ok || pass)
                            break;
                        useA = !useA;
                    }
                    memcpy(t, useA ? A : B, sizeof t);
                    for (int k = 0; k < 2; k++) {
                        bool flip = rnd() & 1;
                        for (int q = 0; q < 3; q++) {
                            int m = t[k][flip ? 2 - q : q];
                            wv(&v[n++], gx[c[m][1]][c[m][0]], gy[c[m][1]][c[m][0]]);
                        }
                    }
                }
            r500_raster_state s;
            window_state(&s);
            r500_draw dr;
            draw_setup(&dr, &s, R500_PRIM_TRIANGLES, v, n);
            dr.opts.subpixel = (r500_subpixel)(o == 0 ? 0 : o + 1);
            uint32_t hits[W * H] = {0};
            ls_diag d;
            assert_int_equal(r500_draw_coverage(&dr, hits, NULL, &d), LS_OK);
            for (int p = 0; p < W * H; p++)
                if (hits[p] != 1)
                    fail_msg("mesh %d/%d: pixel (%d,%d) covered %u times", o, it, p % W, p / W,
                             hits[p]);
        }
}

/* Distance from (px, py) to the line through a and b. */
static double line_dist(double px, double py, double ax, double ay, double bx, double by)
{
    double dx = bx - ax, dy = by - ay, l = sqrt(dx * dx + dy * dy);
    return l > 0 ? fabs(dx * (py - ay) - dy * (px - ax)) / l : 1e9;
}

static void test_clipping(void **state)
{
    (void)state;
    r500_raster_state s;
    r500_raster_state_init(&s, W, H); /* viewport over the target, clipping on */
    int mism = 0, checked = 0;
    for (int it = 0; it < 500; it++) {
        r500_vertex v[3];
        double x[3], y[3];
        for (int i = 0; i < 3; i++) {
            memset(&v[i], 0, sizeof v[i]);
            double w = urand(0.5, 3.0);
            double nx = urand(-3, 3), ny = urand(-3, 3), nz = urand(-0.9, 0.9);
            v[i].pos[0] = (float)(nx * w), v[i].pos[1] = (float)(ny * w);
            v[i].pos[2] = (float)(nz * w), v[i].pos[3] = (float)w;
            double fx = v[i].pos[0] / (double)v[i].pos[3], fy = v[i].pos[1] / (double)v[i].pos[3];
            x[i] = fx * W / 2 + W / 2.0, y[i] = fy * H / 2 + H / 2.0;
        }
        r500_draw dr;
        draw_setup(&dr, &s, R500_PRIM_TRIANGLES, v, 3);
        uint32_t got[W * H] = {0}, want[W * H] = {0};
        ls_diag d;
        assert_int_equal(r500_draw_coverage(&dr, got, NULL, &d), LS_OK);
        ref_triangle(x, y, 12, want);
        for (int p = 0; p < W * H; p++) {
            checked++;
            if (got[p] == want[p])
                continue;
            double cx = p % W + 0.5, cy = p / W + 0.5, dm = 1e9;
            for (int e = 0; e < 3; e++)
                dm = fmin(dm, line_dist(cx, cy, x[e], y[e], x[(e + 1) % 3], y[(e + 1) % 3]));
            /* a clipped vertex moves by at most half a subpixel diagonal */
            if (dm > 0.75 / 12) {
                for (int i = 0; i < 3; i++)
                    print_message("v%d %.9g %.9g %.9g %.9g\n", i, (double)v[i].pos[0],
                                  (double)v[i].pos[1], (double)v[i].pos[2], (double)v[i].pos[3]);
                fail_msg("clip case %d: pixel (%d,%d) covered %u, unclipped %u, %.4f px "
                         "from the nearest edge",
                         it, p % W, p / W, got[p], want[p], dm);
            }
            mism++;
        }
        /* z beyond the far plane: nothing */
        for (int i = 0; i < 3; i++)
            v[i].pos[2] = v[i].pos[3] * 1.5f;
        memset(got, 0, sizeof got);
        assert_int_equal(r500_draw_coverage(&dr, got, NULL, &d), LS_OK);
        for (int p = 0; p < W * H; p++)
            assert_int_equal(got[p], 0);
    }
    print_message("clipping: %d of %d pixels differ, all next to an edge\n", mism, checked);
}

/* User clip plane 0: x >= 0 in clip space keeps the right half. */
static void test_user_clip_plane(void **state)
{
    (void)state;
    r500_raster_state s;
    r500_raster_state_init(&s, W, H);
    s.reg[R500_R_VAP_CLIP_CNTL] = 1u; /* UCP_ENA_0 */
    r500_vertex v[4];
    float p[4][2] = {{-1, -1}, {1, -1}, {1, 1}, {-1, 1}};
    for (int i = 0; i < 4; i++)
        wv(&v[i], p[i][0], p[i][1]);
    r500_draw dr;
    draw_setup(&dr, &s, R500_PRIM_QUADS, v, 4);
    dr.ucp[0][0] = 1.0f;
    uint32_t hits[W * H] = {0};
    ls_diag d;
    assert_int_equal(r500_draw_coverage(&dr, hits, NULL, &d), LS_OK);
    for (int py = 0; py < H; py++)
        for (int px = 0; px < W; px++)
            assert_int_equal(hits[py * W + px], px >= W / 2 ? 1u : 0u);
}

/* ---- fragment runs ---- */

static void load_fs(r500_job *job, const char *src)
{
    r500_job_init(job);
    job->workers = 1;
    r500_asm_program p;
    ls_diag d;
    assert_int_equal(r500_program_load_mem("t.fs.asm", src, strlen(src), &p, &d), LS_OK);
    assert_int_equal(r500_job_apply_program(job, &p, &d), LS_OK);
    r500_asm_program_free(&p);
}

static const char *const PASS_T0 = "OUT\n"
                                   "src0.a = temp[0], src0.rgb = temp[0] :\n"
                                   "  out[0].a = MAX src0.a src0.a ,\n"
                                   "  out[0].rgb = MAX src0.rgb src0.rgb ;\n";

static void test_interpolation(void **state)
{
    (void)state;
    r500_raster_state s;
    r500_raster_state_init(&s, W, H);
    /* RS: 4 texture components, one instruction, TEX_PTR 0..3 -> temp 0 */
    s.reg[R500_R_RS_COUNT] = 4u | (1u << 18);
    s.reg[R500_R_RS_INST_COUNT] = 0;
    s.reg[R500_R_RS_IP_0] = 0u | (1u << 6) | (2u << 12) | (3u << 18);
    s.reg[R500_R_RS_INST_0] = 1u << 4;
    r500_job job;
    load_fs(&job, PASS_T0);
    double maxerr = 0;
    int pixels = 0;
    for (int it = 0; it < 60; it++) {
        r500_vertex v[3];
        double X[3], Y[3], OW[3];
        for (int i = 0; i < 3; i++) {
            memset(&v[i], 0, sizeof v[i]);
            double w = urand(0.3, 4.0);
            v[i].pos[0] = (float)(urand(-1.2, 1.2) * w);
            v[i].pos[1] = (float)(urand(-1.2, 1.2) * w);
            v[i].pos[2] = (float)(urand(-0.5, 0.5) * w);
            v[i].pos[3] = (float)w;
            for (int c = 0; c < 4; c++)
                v[i].tex[c] = (float)urand(-1, 1);
            X[i] = v[i].pos[0] / (double)v[i].pos[3] * W / 2 + W / 2.0;
            Y[i] = v[i].pos[1] / (double)v[i].pos[3] * H / 2 + H / 2.0;
            OW[i] = 1.0 / v[i].pos[3];
        }
        r500_draw dr;
        draw_setup(&dr, &s, R500_PRIM_TRIANGLES, v, 3);
        float img[W * H * 4];
        for (int k = 0; k < W * H * 4; k++)
            img[k] = -100.0f;
        uint32_t hits[W * H] = {0};
        ls_diag d;
        assert_int_equal(r500_draw_coverage(&dr, hits, NULL, &d), LS_OK);
        assert_int_equal(r500_draw_run(&dr, &job, img, NULL, &d), LS_OK);
        double area = (X[1] - X[0]) * (Y[2] - Y[0]) - (X[2] - X[0]) * (Y[1] - Y[0]);
        for (int p = 0; p < W * H; p++) {
            if (!hits[p]) {
                assert_true(img[4 * p] == -100.0f); /* uncovered: untouched */
                continue;
            }
            double cx = p % W + 0.5, cy = p / W + 0.5;
            double b0 = ((X[1] - cx) * (Y[2] - cy) - (X[2] - cx) * (Y[1] - cy)) / area;
            double b1 = ((X[2] - cx) * (Y[0] - cy) - (X[0] - cx) * (Y[2] - cy)) / area;
            double b[3] = {b0, b1, 1 - b0 - b1}, den = 0;
            for (int i = 0; i < 3; i++)
                den += b[i] * OW[i];
            for (int c = 0; c < 4; c++) {
                double num = 0;
                for (int i = 0; i < 3; i++)
                    num += b[i] * OW[i] * v[i].tex[c];
                double e = fabs(num / den - img[4 * p + c]);
                maxerr = fmax(maxerr, e);
                if (e > 1e-5)
                    fail_msg("case %d pixel (%d,%d) comp %d: %.9g, reference %.9g", it, p % W,
                             p / W, c, img[4 * p + c], num / den);
            }
            pixels++;
        }
    }
    print_message("interpolation: %d pixels, max error %.3g\n", pixels, maxerr);
    r500_job_free(&job);
}

/* Flat shading: colour 0 flat, RS copies it to temp 0; the pixel at (px, py)
 * must have the colour of vertex `want`. */
static void flat_case(unsigned prim, unsigned pv, const double (*pos)[2], size_t n, int px,
                      int py, int want)
{
    r500_raster_state s;
    window_state(&s);
    s.reg[R500_R_GA_COLOR_CONTROL] = 0x5u | (pv << 16); /* RGB0/ALPHA0 flat */
    s.reg[R500_R_RS_COUNT] = 1u << 7;                   /* IC_COUNT 1 */
    s.reg[R500_R_RS_IP_0] = 0;                          /* COL_PTR 0, RGBA */
    s.reg[R500_R_RS_INST_0] = 1u << 16;                 /* COL_CN write, COL_ADDR 0 */
    r500_vertex v[8];
    for (size_t i = 0; i < n; i++) {
        wv(&v[i], pos[i][0], pos[i][1]);
        for (int c = 0; c < 4; c++)
            v[i].col[0][c] = (float)(i + 1) * 0.1f + (float)c;
    }
    r500_draw dr;
    draw_setup(&dr, &s, prim, v, n);
    r500_job job;
    load_fs(&job, PASS_T0);
    float img[W * H * 4] = {0};
    ls_diag d;
    assert_int_equal(r500_draw_run(&dr, &job, img, NULL, &d), LS_OK);
    const float *got = img + 4 * (py * W + px);
    for (int c = 0; c < 4; c++)
        if (got[c] != v[want].col[0][c])
            fail_msg("prim %u mode %u: pixel (%d,%d) has the colour of %.1f, want vertex %d", prim,
                     pv, px, py, (double)(got[0] / 0.1f - 1.0f), want);
    r500_job_free(&job);
}

static void test_provoking_vertex(void **state)
{
    (void)state;
    static const double tri[3][2] = {{2, 2}, {30, 2}, {2, 30}};
    static const double strip[4][2] = {{2, 2}, {2, 30}, {30, 2}, {30, 30}};
    static const double sq[4][2] = {{2, 2}, {30, 2}, {30, 30}, {2, 30}};
    static const double ln[2][2] = {{2, 16.5}, {30, 16.5}};
    static const double qs[4][2] = {{2, 2}, {30, 2}, {2, 30}, {30, 30}};
    for (unsigned pv = 0; pv < 4; pv++) {
        /* docs/r500-raster.md, "Provoking vertex" */
        flat_case(R500_PRIM_TRIANGLES, pv, tri, 3, 8, 8, pv < 2 ? (int)pv : 2);
        flat_case(R500_PRIM_TRIANGLE_STRIP, pv, strip, 4, 24, 24, pv < 2 ? 1 + (int)pv : 3);
        flat_case(R500_PRIM_TRIANGLE_FAN, pv, sq, 4, 8, 24, pv == 0 ? 0 : pv == 1 ? 2 : 3);
        flat_case(R500_PRIM_QUADS, pv, sq, 4, 16, 16, pv < 2 ? 1 + (int)pv : 3);
        flat_case(R500_PRIM_QUAD_STRIP, pv, qs, 4, 16, 16, pv < 2 ? 1 + (int)pv : 3);
        flat_case(R500_PRIM_POLYGON, pv, sq, 4, 16, 16, pv == 3 ? 0 : 1 + (int)pv);
        flat_case(R500_PRIM_LINES, pv, ln, 2, 16, 16, pv == 0 ? 0 : 1);
        flat_case(R500_PRIM_LINE_STRIP, pv, ln, 2, 16, 16, pv == 0 ? 0 : 1);
        flat_case(R500_PRIM_POINTS, pv, ln, 1, 2, 16, 0);
    }
}

/* SU_CULL_MODE: FACE xor (cross product > 0) = front; CULL_FRONT/BACK. The
 * RS backface colour (COL_CN = 3) reads 1 on back faces. Under both readings
 * of the cross product's sign (option face-sign): "mesa" (default), where a
 * triangle counter-clockwise with y = row going up has a negative one, and
 * "doc", where it has a positive one. */
static void test_cull_table(void **state)
{
    (void)state;
    static const char *const BF = "OUT\n"
                                  "src0.a = temp[1], src0.rgb = temp[1] :\n"
                                  "  out[0].a = MAX src0.a src0.a ,\n"
                                  "  out[0].rgb = MAX src0.rgb src0.rgb ;\n";
    r500_job job;
    load_fs(&job, BF);
    for (unsigned mode = 0; mode < 16; mode++)
        for (int ccw = 0; ccw < 2; ccw++) {
            bool doc = mode & 8;
            r500_raster_state s;
            window_state(&s);
            s.reg[R500_R_SU_CULL_MODE] = mode & 7;
            s.reg[R500_R_RS_INST_0] = (3u << 16) | (1u << 18); /* backface -> temp 1 */
            r500_vertex v[3];
            /* (2,2) (30,2) (2,30): positive cross product (counter-clockwise, y up) */
            wv(&v[0], 2, 2);
            wv(&v[1], ccw ? 30 : 2, ccw ? 2 : 30);
            wv(&v[2], ccw ? 2 : 30, ccw ? 30 : 2);
            r500_draw dr;
            draw_setup(&dr, &s, R500_PRIM_TRIANGLES, v, 3);
            assert_int_equal(r500_raster_options_set(&dr.opts, "face-sign", doc ? "doc" : "mesa", NULL),
                             LS_OK);
            float img[W * H * 4];
            for (int k = 0; k < W * H * 4; k++)
                img[k] = -1.0f;
            r500_raster_stats st;
            ls_diag d;
            assert_int_equal(r500_draw_run(&dr, &job, img, &st, &d), LS_OK);
            bool face_cw = mode & 4, positive = doc ? ccw : !ccw, front = positive != face_cw;
            bool culled = (front && (mode & 1)) || (!front && (mode & 2));
            const float *px = img + 4 * (8 * W + 8);
            if (culled) {
                assert_int_equal(st.culled, 1);
                assert_true(px[0] == -1.0f);
            } else {
                assert_int_equal(st.culled, 0);
                assert_true(px[0] == (front ? 0.0f : 1.0f));
            }
        }
    r500_job_free(&job);
}

/* Derivatives see real neighbours: MDH of the interpolated s (= window x/W
 * here) is 1/W on every covered pixel, edge pixels included. */
static void test_helper_pixels(void **state)
{
    (void)state;
    r500_raster_state s;
    r500_raster_state_init(&s, W, H);
    s.reg[R500_R_RS_COUNT] = 4u;
    s.reg[R500_R_RS_IP_0] = 0u | (1u << 6) | (2u << 12) | (3u << 18);
    s.reg[R500_R_RS_INST_0] = 1u << 4;
    static const char *const DDX = "src0.rgb = temp[0], src0.a = temp[0] :\n"
                                   "  temp[1].rgb = MDH src0.rgb -src0.111 src0.rgb ,\n"
                                   "  temp[1].a = MDH src0.a -src0.1 src0.a ;\n"
                                   "OUT\n"
                                   "src0.a = temp[1], src0.rgb = temp[1] :\n"
                                   "  out[0].a = MAX src0.a src0.a ,\n"
                                   "  out[0].rgb = MAX src0.rgb src0.rgb ;\n";
    r500_job job;
    r500_job_init(&job);
    job.workers = 1;
    r500_asm_program p;
    ls_diag d;
    if (r500_program_load_mem("t.fs.asm", DDX, strlen(DDX), &p, &d) != LS_OK) {
        print_message("MDH program: %s\n", d.msg);
        fail();
    }
    assert_int_equal(r500_job_apply_program(&job, &p, &d), LS_OK);
    r500_asm_program_free(&p);
    r500_vertex v[3];
    float pos[3][2] = {{-0.9f, -0.8f}, {0.85f, -0.3f}, {-0.2f, 0.9f}};
    for (int i = 0; i < 3; i++) {
        wv(&v[i], pos[i][0], pos[i][1]);
        v[i].tex[0] = (pos[i][0] + 1) / 2; /* s = window x / W */
    }
    r500_draw dr;
    draw_setup(&dr, &s, R500_PRIM_TRIANGLES, v, 3);
    float img[W * H * 4] = {0};
    uint32_t hits[W * H] = {0};
    assert_int_equal(r500_draw_coverage(&dr, hits, NULL, &d), LS_OK);
    assert_int_equal(r500_draw_run(&dr, &job, img, NULL, &d), LS_OK);
    int n = 0;
    for (int q = 0; q < W * H; q++)
        if (hits[q]) {
            n++;
            /* MDH = topright - topleft (quad-top), i.e. s(x+1) - s(x) */
            if (fabsf(img[4 * q] - 1.0f / W) > 1e-6f)
                fail_msg("pixel (%d,%d): d/dx s = %.9g, want %.9g", q % W, q / W,
                         (double)img[4 * q], 1.0 / W);
        }
    assert_true(n > 100);
    r500_job_free(&job);
}

static void test_scissor_and_clip_rects(void **state)
{
    (void)state;
    r500_raster_state s;
    window_state(&s);
    s.reg[R500_R_SC_SCISSOR0] = 4u | (6u << 13);
    s.reg[R500_R_SC_SCISSOR1] = 20u | (25u << 13);
    /* rectangle 1 = x 10..31; visible where rect 0 and not rect 1 (flags 01) */
    s.reg[R500_R_SC_CLIP_1_A] = 10u;
    s.reg[R500_R_SC_CLIP_1_B] = 31u | (31u << 13);
    s.reg[R500_R_SC_CLIP_RULE] = 1u << 1;
    r500_vertex v[4];
    float p[4][2] = {{-5, -5}, {40, -5}, {40, 40}, {-5, 40}};
    for (int i = 0; i < 4; i++)
        wv(&v[i], p[i][0], p[i][1]);
    r500_draw dr;
    draw_setup(&dr, &s, R500_PRIM_QUADS, v, 4);
    uint32_t hits[W * H] = {0};
    ls_diag d;
    assert_int_equal(r500_draw_coverage(&dr, hits, NULL, &d), LS_OK);
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++)
            assert_int_equal(hits[y * W + x], (x >= 4 && x <= 9 && y >= 6 && y <= 25) ? 1u : 0u);
}

/* Hostile vertices: NaN, infinities, huge values, w = 0, degenerate
 * primitives never crash and cover nothing outside the target. */
static void test_hostile(void **state)
{
    (void)state;
    const float bad[] = {NAN, INFINITY, -INFINITY, 1e30f, -1e30f, 0.0f, 1e-30f, 3e38f};
    for (int clip = 0; clip < 2; clip++)
        for (int it = 0; it < 300; it++) {
            r500_raster_state s;
            r500_raster_state_init(&s, W, H);
            if (clip)
                s.reg[R500_R_VAP_CLIP_CNTL] = 1u << 16;
            r500_vertex v[6];
            for (int i = 0; i < 6; i++) {
                memset(&v[i], 0, sizeof v[i]);
                for (int c = 0; c < 4; c++)
                    v[i].pos[c] = rnd() % 3 ? (float)urand(-2, 2)
                                             : bad[rnd() % (sizeof bad / sizeof *bad)];
            }
            r500_draw dr;
            draw_setup(&dr, &s, 1 + rnd() % 15, v, 6);
            uint32_t hits[W * H] = {0};
            ls_diag d;
            ls_status rc = r500_draw_coverage(&dr, hits, NULL, &d);
            assert_true(rc == LS_OK || rc == LS_ERR_UNSUPPORTED);
        }
}


/* Points and wide lines (GA_POINT_SIZE / GA_LINE_CNTL half sizes in 1/12
 * pixel) and polygon mode: the pixels they cover, counted by hand. */
static void test_points_lines_polymode(void **state)
{
    (void)state;
    r500_raster_state s;
    window_state(&s);
    s.reg[R500_R_GA_POINT_SIZE] = 24u | (12u << 16); /* half height 2, half width 1 */
    s.reg[R500_R_GA_LINE_CNTL] = 12u | (3u << 16);   /* half width 1, perpendicular ends */
    r500_vertex v[3];
    wv(&v[0], 10, 10);
    r500_draw dr;
    draw_setup(&dr, &s, R500_PRIM_POINTS, v, 1);
    uint32_t hits[W * H] = {0};
    ls_diag d;
    assert_int_equal(r500_draw_coverage(&dr, hits, NULL, &d), LS_OK);
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++)
            assert_int_equal(hits[y * W + x], (x >= 9 && x <= 10 && y >= 8 && y <= 11) ? 1u : 0u);
    wv(&v[0], 2, 10);
    wv(&v[1], 30, 10);
    draw_setup(&dr, &s, R500_PRIM_LINES, v, 2);
    memset(hits, 0, sizeof hits);
    assert_int_equal(r500_draw_coverage(&dr, hits, NULL, &d), LS_OK);
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++)
            assert_int_equal(hits[y * W + x], (x >= 2 && x <= 29 && y >= 9 && y <= 10) ? 1u : 0u);
    /* a front-facing triangle drawn as lines (POLY_MODE dual, FRONT_PTYPE
     * lines): its edges are covered, its centre is not */
    s.reg[R500_R_GA_POLY_MODE] = 1u | (1u << 4) | (2u << 7);
    s.reg[R500_R_GA_LINE_CNTL] = 6u | (3u << 16);
    /* (face-sign mesa: clockwise with y = row going up is the positive cross
     * product, front under FACE = 0) */
    wv(&v[0], 4, 4);
    wv(&v[1], 4, 28);
    wv(&v[2], 28, 4);
    draw_setup(&dr, &s, R500_PRIM_TRIANGLES, v, 3);
    memset(hits, 0, sizeof hits);
    r500_raster_stats st;
    assert_int_equal(r500_draw_coverage(&dr, hits, &st, &d), LS_OK);
    assert_int_equal(st.triangles, 6); /* three edges, two triangles each */
    assert_int_equal(hits[10 * W + 10], 0);
    /* 1-pixel lines centred on y = 4, x = 4 and x + y = 32: rows/columns 3 by the top-left rule */
    assert_true(hits[3 * W + 16] == 1 && hits[16 * W + 3] == 1 && hits[15 * W + 16] >= 1);
    /* the same triangle back-facing is filled (BACK_PTYPE triangles) */
    wv(&v[1], 28, 4);
    wv(&v[2], 4, 28);
    memset(hits, 0, sizeof hits);
    assert_int_equal(r500_draw_coverage(&dr, hits, &st, &d), LS_OK);
    assert_int_equal(st.triangles, 1);
    assert_int_equal(hits[10 * W + 10], 1);
}

/* Point sprites as r300 programs them (r300_state_derived.c, r300_state.c):
 * the vertex program's point size (VAP_OUT_VTX_FMT_0.PT_SIZE_PRESENT, a
 * diameter in pixels) clamped by GA_POINT_MINMAX (radius in 1/12 pixel),
 * and texture 1 stuffed with (S, T) (GB_ENABLE) between the VAP's texture 0
 * (2 components) and texture 2 (1 component). Expected by hand: a point of
 * size 6 at (10, 10) covers x, y in 7..12; S runs from S0 = 0 at x = 7 to
 * S1 = 1 at x = 13, T from T1 = 1 at row 7 to T0 = 0 at row 13, so pixel
 * (x, y) has S = (x + 0.5 - 7) / 6, T = 1 - (y + 0.5 - 7) / 6; the VAP
 * components keep their values around them. */
static void test_point_sprite(void **state)
{
    (void)state;
    r500_raster_state s;
    window_state(&s);
    s.reg[R500_R_VAP_OUT_VTX_FMT_0] = 1u | (1u << 16);
    s.reg[R500_R_VAP_OUT_VTX_FMT_1] = 2u | (1u << 6); /* tex0: 2, tex1: none, tex2: 1 */
    s.reg[R500_R_GB_ENABLE] = 1u | (1u << 18);        /* points stuffed, TEX1_SOURCE = ST */
    const float st[4] = {0.0f, 0.0f, 1.0f, 1.0f};     /* S0 T0 S1 T1 */
    memcpy(&s.reg[R500_R_GA_POINT_S0], &st[0], 4);
    memcpy(&s.reg[R500_R_GA_POINT_T0], &st[1], 4);
    memcpy(&s.reg[R500_R_GA_POINT_S1], &st[2], 4);
    memcpy(&s.reg[R500_R_GA_POINT_T1], &st[3], 4);
    s.reg[R500_R_GA_POINT_MINMAX] = 6u | (120u << 16); /* radius 0.5 .. 10 pixels */
    /* RS: temp 0 = (tex comps 2, 3, 0, 4): S, T, the VAP's tex0.x, tex2.x */
    s.reg[R500_R_RS_COUNT] = 5u | (1u << 18);
    s.reg[R500_R_RS_IP_0] = 2u | (3u << 6) | (0u << 12) | (4u << 18);
    s.reg[R500_R_RS_INST_0] = 1u << 4;
    r500_vertex v[1];
    wv(&v[0], 10, 10);
    v[0].psize = 6.0f;
    v[0].tex[0] = 0.25f, v[0].tex[1] = 0.5f, v[0].tex[2] = 0.75f;
    r500_draw dr;
    draw_setup(&dr, &s, R500_PRIM_POINTS, v, 1);
    r500_job job;
    load_fs(&job, PASS_T0);
    float img[W * H * 4];
    for (int k = 0; k < W * H * 4; k++)
        img[k] = -100.0f;
    ls_diag d;
    assert_int_equal(r500_draw_run(&dr, &job, img, NULL, &d), LS_OK);
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            const float *p = img + 4 * (y * W + x);
            if (x < 7 || x > 12 || y < 7 || y > 12) {
                assert_true(p[0] == -100.0f);
                continue;
            }
            assert_float_equal(p[0], (x + 0.5 - 7) / 6, 1e-6);
            assert_float_equal(p[1], 1 - (y + 0.5 - 7) / 6, 1e-6);
            assert_float_equal(p[2], 0.25, 1e-6);
            assert_float_equal(p[3], 0.75, 1e-6);
        }
    /* the clamp: size 100 is radius 50 > MAX 10 pixels -> x in 0..19 */
    v[0].psize = 100.0f;
    uint32_t hits[W * H] = {0};
    assert_int_equal(r500_draw_coverage(&dr, hits, NULL, &d), LS_OK);
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++)
            assert_int_equal(hits[y * W + x], (x <= 19 && y <= 19) ? 1u : 0u);
    /* without PT_SIZE_PRESENT, GA_POINT_SIZE (half width 1, half height 2) */
    s.reg[R500_R_VAP_OUT_VTX_FMT_0] = 1u;
    s.reg[R500_R_GA_POINT_SIZE] = 24u | (12u << 16);
    memset(hits, 0, sizeof hits);
    assert_int_equal(r500_draw_coverage(&dr, hits, NULL, &d), LS_OK);
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++)
            assert_int_equal(hits[y * W + x], (x >= 9 && x <= 10 && y >= 8 && y <= 11) ? 1u : 0u);
    r500_job_free(&job);
}

/* The output hook: every covered, unkilled pixel reaches r500_draw.out once,
 * with the window z of the plane through the vertices (hand-computed here)
 * and the face; r500_target_store rounds to 8-bit unorm when asked. */
typedef struct hook_log {
    uint32_t calls[W * H];
    double max_dz;
    int back;
    double zoff; /* expected polygon offset */
} hook_log;

static void hook(void *ctx, const r500_fragment *f)
{
    hook_log *l = ctx;
    l->calls[f->y * W + f->x]++;
    /* z = 0.25 at (2,2), 0.5 at (30,2), 0.75 at (2,30) */
    double z = 0.25 + 0.25 * (f->x + 0.5 - 2) / 28 + 0.5 * (f->y + 0.5 - 2) / 28 + l->zoff;
    double dz = fabs(z - f->z);
    l->max_dz = dz > l->max_dz ? dz : l->max_dz;
    l->back += f->back;
}

/* A triangle with a depth slope: z 0.25, 0.5, 0.75 at its corners. */
static void sloped_tri(r500_vertex v[3])
{
    wv(&v[0], 2, 2), v[0].pos[2] = 0.25f;
    wv(&v[1], 30, 2), v[1].pos[2] = 0.5f;
    wv(&v[2], 2, 30), v[2].pos[2] = 0.75f;
}

static void test_output_hook(void **state)
{
    (void)state;
    r500_job job;
    load_fs(&job, PASS_T0);
    r500_raster_state s;
    window_state(&s);
    r500_vertex v[3];
    sloped_tri(v);
    r500_draw dr;
    draw_setup(&dr, &s, R500_PRIM_TRIANGLES, v, 3);
    uint32_t hits[W * H] = {0};
    ls_diag d;
    assert_int_equal(r500_draw_coverage(&dr, hits, NULL, &d), LS_OK);
    hook_log l;
    memset(&l, 0, sizeof l);
    dr.out = hook;
    dr.out_ctx = &l;
    assert_int_equal(r500_draw_run(&dr, &job, NULL, NULL, &d), LS_OK);
    for (int p = 0; p < W * H; p++)
        assert_int_equal(l.calls[p], hits[p]);
    assert_true(l.max_dz < 1e-6);
    r500_job_free(&job);
    /* the plain store, RGBA8 rounding: clamp, *255, nearest */
    float out[4] = {0}, t0[4] = {0.5f, 1.5f, -0.25f, 0.002f};
    float *targets[R500_NUM_TARGETS] = {t0};
    r500_result res;
    memset(&res, 0, sizeof res);
    memcpy(res.target, targets, sizeof targets);
    r500_target tg = {.width = 1, .height = 1, .rgba = out, .unorm8 = true};
    r500_fragment f = {.x = 0, .y = 0, .res = &res, .i = 0};
    r500_target_store(&tg, &f);
    assert_true(out[0] == 128.0f / 255.0f && out[1] == 1.0f && out[2] == 0.0f &&
                out[3] == 1.0f / 255.0f);
    f.x = 1; /* outside the target: nothing written */
    out[0] = 7.0f;
    r500_target_store(&tg, &f);
    assert_true(out[0] == 7.0f);
}

/* Polygon offset (SU_POLY_OFFSET_*, ga_su.c): the output hook's triangle
 * (back-facing under face-sign mesa) has dz/dx = 0.25/28, dz/dy = 0.5/28 per
 * pixel. r300 writes SCALE = 12 * factor, OFFSET = 2 * units for 24-bit depth
 * (r300_state.c); the registers' units are 1/(2^24-1) of the depth range and
 * the slope is per subpixel (su_poly_offset_front_scale.txt), so with factor 2,
 * units 3 and 1/12 subpixels the offset is 2 * 0.5/28 + 6/(2^24-1) (option
 * max), 2 * |(0.25, 0.5)|/28 + 6/(2^24-1) (sqrt); with 1/16 subpixels the slope
 * term is 12/16 of that; the front face's enable bit leaves a back face alone. */
static void test_poly_offset(void **state)
{
    (void)state;
    r500_job job;
    load_fs(&job, PASS_T0);
    const double R = 16777215.0, mx = 0.5 / 28, len = sqrt(0.25 * 0.25 + 0.5 * 0.5) / 28;
    struct {
        uint32_t enable, subpixel16;
        r500_poly_offset opt;
        double want;
    } cases[] = {
        {2, 0, R500_POFS_MAX, 2 * mx + 6 / R},
        {2, 0, R500_POFS_SQRT, 2 * len + 6 / R},
        {2, 1, R500_POFS_MAX, 2 * mx * 12 / 16 + 6 / R},
        {1, 0, R500_POFS_MAX, 0},
        {0, 0, R500_POFS_MAX, 0},
        {3, 0, R500_POFS_OFF, 0},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        r500_raster_state s;
        window_state(&s);
        s.reg[R500_R_SU_POLY_OFFSET_ENABLE] = cases[k].enable;
        if (cases[k].subpixel16)
            s.reg[R500_R_GB_TILE_CONFIG] |= 1u << 16; /* gb_tile_config.txt SUBPIXEL */
        /* the front registers hold other values: only the back ones may apply */
        r500_raster_set_float(&s, R500_R_SU_POLY_OFFSET_FRONT_SCALE, 100.0f);
        r500_raster_set_float(&s, R500_R_SU_POLY_OFFSET_FRONT_OFFSET, 1e5f);
        r500_raster_set_float(&s, R500_R_SU_POLY_OFFSET_BACK_SCALE, 24.0f);
        r500_raster_set_float(&s, R500_R_SU_POLY_OFFSET_BACK_OFFSET, 6.0f);
        r500_vertex v[3];
        sloped_tri(v);
        r500_draw dr;
        draw_setup(&dr, &s, R500_PRIM_TRIANGLES, v, 3);
        dr.opts.poly_offset = cases[k].opt;
        hook_log l;
        memset(&l, 0, sizeof l);
        l.zoff = cases[k].want;
        dr.out = hook;
        dr.out_ctx = &l;
        ls_diag d;
        assert_int_equal(r500_draw_run(&dr, &job, NULL, NULL, &d), LS_OK);
        assert_true(l.back > 0);
        assert_true(l.max_dz < 1e-6);
    }
    r500_job_free(&job);
}

/* Two-sided colour (r500_draw.back_colors): a back-facing triangle's colour 0
 * reads colour 2 when bit 0 is set, a front-facing one colour 0 (Mesa's
 * r300_state_derived.c: back colours are colours 2 and 3, selected by the
 * rasterizer). */
static void test_back_colors(void **state)
{
    (void)state;
    r500_job job;
    load_fs(&job, PASS_T0);
    for (int back = 0; back < 2; back++)
        for (int two = 0; two < 2; two++) {
            r500_raster_state s;
            window_state(&s);
            s.reg[R500_R_RS_COUNT] = 1u << 7;     /* IC_COUNT 1 */
            s.reg[R500_R_RS_IP_0] = 0;            /* COL_PTR 0, RGBA */
            s.reg[R500_R_RS_INST_0] = 1u << 16;   /* colour -> temp 0 */
            r500_vertex v[3];
            /* face-sign mesa: (2,2) (2,30) (30,2) is front under FACE = 0 */
            wv(&v[0], 2, 2);
            wv(&v[1], back ? 30 : 2, back ? 2 : 30);
            wv(&v[2], back ? 2 : 30, back ? 30 : 2);
            for (int k = 0; k < 3; k++)
                for (int c = 0; c < 4; c++)
                    v[k].col[0][c] = 0.25f, v[k].col[2][c] = 0.75f;
            r500_draw dr;
            draw_setup(&dr, &s, R500_PRIM_TRIANGLES, v, 3);
            dr.back_colors = two ? 1 : 0;
            float img[W * H * 4];
            ls_diag d;
            assert_int_equal(r500_draw_run(&dr, &job, img, NULL, &d), LS_OK);
            float want = back && two ? 0.75f : 0.25f;
            assert_true(fabsf(img[4 * (6 * W + 6)] - want) < 1e-6f);
        }
    r500_job_free(&job);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_coverage_random),  cmocka_unit_test(test_mesh_fill_rule),
        cmocka_unit_test(test_clipping),         cmocka_unit_test(test_user_clip_plane),
        cmocka_unit_test(test_interpolation),    cmocka_unit_test(test_provoking_vertex),
        cmocka_unit_test(test_cull_table), cmocka_unit_test(test_output_hook), cmocka_unit_test(test_poly_offset), cmocka_unit_test(test_back_colors),       cmocka_unit_test(test_helper_pixels),
        cmocka_unit_test(test_scissor_and_clip_rects), cmocka_unit_test(test_hostile), cmocka_unit_test(test_points_lines_polymode),
        cmocka_unit_test(test_point_sprite),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
