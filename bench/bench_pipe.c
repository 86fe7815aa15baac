/* The whole R500 pipeline: vertices/s and pixels/s of a captured r300 stream
 * (tests/fuzz/seeds/mesa_exec/capture_immd.bin: Mesa's r300 drawing
 * tests/mesa/data/vf_transform.{vert,frag}, a 2-float attribute through a
 * 12-instruction vertex program and a one-varying fragment program), its
 * draw replaced by larger ones:
 *   mesh    a triangle list of G x G cells (2 triangles each, 6 vertices) over
 *           the view into 256x256: vertex fetch + PVS (mesa_exec_stream), then
 *           clip, set-up, raster, RS and the fragment program
 *           (mesa_exec_render_draw) — vertices/s of each part and of both;
 *   fill    the captured quad into 1024x1024: pixels/s of the back end.
 * One host thread for the fragment runs (-j 1 equivalent). Never part of
 * make check; compare figures taken in the same run (the machine is shared). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/buf.h"
#include "lockstep/mesa_draw.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static uint32_t fbits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

typedef struct ib {
    uint32_t *w;
    size_t n, cap;
} ib;

static void put(ib *b, uint32_t v)
{
    if (b->n == b->cap) {
        b->cap = b->cap ? 2 * b->cap : 4096;
        b->w = realloc(b->w, b->cap * sizeof *b->w);
        if (!b->w)
            exit(1);
    }
    b->w[b->n++] = v;
}

/* type-0 packet: count registers from reg (byte address) */
static void reg0(ib *b, uint32_t reg, const uint32_t *v, unsigned count)
{
    put(b, ((count - 1u) << 16) | (reg >> 2));
    for (unsigned k = 0; k < count; k++)
        put(b, v[k]);
}

/* The stream up to its last draw packet, then the viewport/scissor of a
 * W x H target (r300_reg.h SE_VPORT_* at 0x1D98; SC_SCISSOR0/1, SC_CLIP_0). */
static void prefix(const uint32_t *w, size_t draw, int W, int H, ib *b)
{
    for (size_t k = 0; k < draw; k++)
        put(b, w[k]);
    uint32_t vp[6] = {fbits(W / 2.0f), fbits(W / 2.0f), fbits(H / 2.0f), fbits(H / 2.0f),
                      fbits(0.5f), fbits(0.5f)};
    reg0(b, 0x1d98, vp, 6);
    uint32_t sc[2] = {0, (uint32_t)(W - 1) | ((uint32_t)(H - 1) << 13)};
    reg0(b, 0x43e0, sc, 2);
    reg0(b, 0x43b0, sc, 2);
}

/* 3D_DRAW_IMMD_2 (opcode 0x35), PRIM_WALK 3 (embedded data), 2 floats a vertex */
static void immd(ib *b, unsigned prim, const float (*xy)[2], unsigned nv)
{
    put(b, 0xc0000000u | ((2u * nv) << 16) | (0x35u << 8));
    put(b, prim | (3u << 4) | (nv << 16));
    for (unsigned k = 0; k < nv; k++)
        put(b, fbits(xy[k][0])), put(b, fbits(xy[k][1]));
}

static int run(const char *what, const ib *b, int W, int H, double *t_exec, double *t_raster,
               uint64_t *verts, uint64_t *pixels)
{
    mesa_exec_options o;
    mesa_exec_options_default(&o);
    o.raster_width = W, o.raster_height = H;
    mesa_exec e;
    ls_diag d;
    double t0 = now();
    if (mesa_exec_stream(what, b->w, b->n, NULL, 0, NULL, 0, &o, &e, &d) != LS_OK) {
        fprintf(stderr, "bench_pipe: %s: %s\n", what, d.msg);
        return 1;
    }
    double t1 = now();
    float *img = calloc((size_t)W * (size_t)H * 4, sizeof *img);
    r500_target tg = {.width = W, .height = H, .rgba = img};
    mesa_render_options ro = {.width = W, .height = H, .workers = 1, .out = r500_target_store,
                              .out_ctx = &tg};
    r500_raster_options_default(&ro.raster);
    r500_raster_stats rs;
    memset(&rs, 0, sizeof rs);
    *verts = 0;
    for (size_t k = 0; k < e.ndraws; k++) {
        if (mesa_exec_render_draw(&e, k, &ro, &rs, &d) != LS_OK) {
            fprintf(stderr, "bench_pipe: %s draw %zu: %s\n", what, k, d.msg);
            free(img);
            mesa_exec_free(&e);
            return 1;
        }
        *verts += e.draws[k].nverts;
    }
    double t2 = now();
    *t_exec = t1 - t0;
    *t_raster = t2 - t1;
    *pixels = rs.pixels;
    free(img);
    mesa_exec_free(&e);
    return 0;
}

int main(int argc, char **argv)
{
    const char *path = argc > 1 ? argv[1] : LOCKSTEP_SOURCE_ROOT "/tests/fuzz/seeds/mesa_exec/capture_immd.bin";
    ls_buf f;
    ls_buf_init(&f);
    if (!ls_read_file(path, &f) || f.len < 3 + 64) {
        fprintf(stderr, "bench_pipe: cannot read %s\n", path);
        return 1;
    }
    /* the fuzz seed: 3 bytes (relocations, buffer sizes 0 0), then the stream */
    size_t n = (f.len - 3) / 4;
    uint32_t *w = malloc(n * 4);
    memcpy(w, f.data + 3, n * 4);
    ls_buf_free(&f);
    size_t last = 0;
    for (size_t k = 0; k < n;) { /* walk the packets: the last 3D_DRAW_IMMD_2 */
        uint32_t h = w[k], t = h >> 30;
        if (t == 3 && ((h >> 8) & 0xffu) == 0x35u)
            last = k;
        k += t == 2 ? 1 : t == 1 ? 3 : ((h >> 16) & 0x3fffu) + 2u;
    }
    if (!last) {
        fprintf(stderr, "bench_pipe: no 3D_DRAW_IMMD_2 in %s\n", path);
        return 1;
    }
    /* mesh: G x G cells over [-1, 1]^2, 6 vertices each, in packets of 8190 (the 14-bit packet count) */
    enum { G = 100 };
    float(*xy)[2] = malloc((size_t)G * G * 6 * sizeof *xy);
    unsigned nv = 0;
    for (int j = 0; j < G; j++)
        for (int i = 0; i < G; i++) {
            float x0 = -1 + 2.0f * i / G, x1 = -1 + 2.0f * (i + 1) / G;
            float y0 = -1 + 2.0f * j / G, y1 = -1 + 2.0f * (j + 1) / G;
            float q[6][2] = {{x0, y0}, {x1, y0}, {x0, y1}, {x1, y0}, {x1, y1}, {x0, y1}};
            memcpy(xy[nv], q, sizeof q);
            nv += 6;
        }
    ib mesh = {0};
    prefix(w, last, 256, 256, &mesh);
    for (unsigned v0 = 0; v0 < nv; v0 += 8190)
        immd(&mesh, 4 /* TRIANGLES */, xy + v0, nv - v0 < 8190 ? nv - v0 : 8190);
    ib fill = {0};
    prefix(w, last, 1024, 1024, &fill);
    static const float quad[4][2] = {{-1, -1}, {1, -1}, {-1, 1}, {1, 1}};
    immd(&fill, 6 /* TRIANGLE_STRIP */, quad, 4);
    double te, tr;
    uint64_t v, px;
    if (run("mesh", &mesh, 256, 256, &te, &tr, &v, &px))
        return 1;
    printf("mesh 256x256, %llu vertices (%d triangles), %llu pixels:\n", (unsigned long long)v,
           2 * G * G, (unsigned long long)px);
    printf("  fetch + vertex program: %.4f s, %.3g vertices/s\n", te, (double)v / te);
    printf("  clip .. fragment program: %.4f s, %.3g vertices/s, %.3g pixels/s\n", tr,
           (double)v / tr, (double)px / tr);
    printf("  whole pipeline: %.3g vertices/s\n", (double)v / (te + tr));
    if (run("fill", &fill, 1024, 1024, &te, &tr, &v, &px))
        return 1;
    printf("fill 1024x1024, %llu vertices, %llu pixels: %.4f s, %.3g pixels/s (whole pipeline)\n",
           (unsigned long long)v, (unsigned long long)px, te + tr, (double)px / (te + tr));
    free(xy);
    free(mesh.w);
    free(fill.w);
    free(w);
    return 0;
}
