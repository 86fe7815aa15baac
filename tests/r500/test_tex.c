/* Texture sampler: expectations computed here by hand or by a reference
 * written separately from src/r500/tex.c. */
#include "test_util.h"

#include <math.h>
#include <unistd.h>

#include "io/image.h"
#include "lockstep/r500.h"
#include "lockstep/r500_asm.h"
#include "lockstep/r500_tex.h"

static r500_texture *make(int w, int h, float (*fn)(int x, int y, int c))
{
    float *px = malloc((size_t)w * h * 4 * sizeof *px);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
            for (int c = 0; c < 4; c++)
                px[(y * w + x) * 4 + c] = fn(x, y, c);
    r500_texture *t;
    ls_diag d;
    assert_int_equal(r500_texture_create(w, h, px, &t, &d), LS_OK);
    free(px);
    return t;
}

static float ramp(int x, int y, int c)
{
    return (float)(x + 10 * y + 100 * c);
}

static void sample1(const r500_texture *t, float s, float tt, r500_tex_lod_mode mode, float lod,
                    bool unscaled, float out[4])
{
    static float coord[4][64], res[4][64], lodv[64];
    memset(coord, 0, sizeof coord);
    coord[0][0] = s;
    coord[1][0] = tt;
    lodv[0] = lod;
    r500_tex_request rq = {.n = 1, .mask = 1, .unscaled = unscaled, .lod_mode = mode,
                           .coord = coord, .lod = lodv, .out = res};
    ls_diag d;
    assert_int_equal(r500_tex_sample(t, &rq, &d), LS_OK);
    for (int c = 0; c < 4; c++)
        out[c] = res[c][0];
}

static void test_nearest_and_wrap(void **st)
{
    (void)st;
    r500_texture *t = make(4, 2, ramp);
    r500_texture_set_sampler(t, R500_TEX_NEAREST, R500_TEX_REPEAT, R500_TEX_REPEAT);
    float o[4];
    /* s = 0.6 -> texel x = floor(2.4) = 2; t = 0.75 -> y = 1 */
    sample1(t, 0.6f, 0.75f, R500_TEX_LOD_EXPLICIT, 0, false, o);
    assert_true(o[0] == 12 && o[3] == 312);
    /* repeat: s = -0.1 -> x = floor(-0.4) = -1 -> 3 ; t = 2.25 -> 4.5 -> 4 -> 0 */
    sample1(t, -0.1f, 2.25f, R500_TEX_LOD_EXPLICIT, 0, false, o);
    assert_true(o[0] == 3);
    /* huge coordinates still wrap */
    sample1(t, 1e9f + 0.1f, 0.1f, R500_TEX_LOD_EXPLICIT, 0, false, o);
    assert_true(o[0] >= 0 && o[0] <= 3);
    /* clamp to edge */
    r500_texture_set_sampler(t, R500_TEX_NEAREST, R500_TEX_CLAMP, R500_TEX_CLAMP);
    sample1(t, -5.0f, 7.0f, R500_TEX_LOD_EXPLICIT, 0, false, o);
    assert_true(o[0] == 10);
    /* NaN and infinities sample texel (0, 0) */
    sample1(t, NAN, INFINITY, R500_TEX_LOD_EXPLICIT, 0, false, o);
    assert_true(o[0] == 0);
    /* UNSCALED: coordinates in texels */
    sample1(t, 3.5f, 1.2f, R500_TEX_LOD_EXPLICIT, 0, true, o);
    assert_true(o[0] == 13);
    r500_texture_free(t);
}

/* Reference bilinear, written independently: weights from the distance to the
 * four nearest texel centres (x+0.5, y+0.5), clamped addressing. */
static float ref_bilinear(int w, int h, float s, float t, int c)
{
    double x = s * w - 0.5, y = t * h - 0.5;
    double fx = x - floor(x), fy = y - floor(y);
    int x0 = (int)floor(x), y0 = (int)floor(y);
    double acc = 0;
    for (int dy = 0; dy < 2; dy++)
        for (int dx = 0; dx < 2; dx++) {
            int xi = x0 + dx < 0 ? 0 : (x0 + dx >= w ? w - 1 : x0 + dx);
            int yi = y0 + dy < 0 ? 0 : (y0 + dy >= h ? h - 1 : y0 + dy);
            double wgt = (dx ? fx : 1 - fx) * (dy ? fy : 1 - fy);
            acc += wgt * ramp(xi, yi, c);
        }
    return (float)acc;
}

static void test_bilinear(void **st)
{
    (void)st;
    r500_texture *t = make(5, 3, ramp);
    r500_texture_set_sampler(t, R500_TEX_BILINEAR, R500_TEX_CLAMP, R500_TEX_CLAMP);
    uint64_t s = ls_test_seed(0x7E57);
    for (int k = 0; k < 2000; k++) {
        float u = (float)(ls_test_rand(&s) % 10000) / 8000.0f - 0.1f;
        float v = (float)(ls_test_rand(&s) % 10000) / 8000.0f - 0.1f;
        float o[4];
        sample1(t, u, v, R500_TEX_LOD_EXPLICIT, 0, false, o);
        for (int c = 0; c < 4; c++)
            if (fabsf(o[c] - ref_bilinear(5, 3, u, v, c)) > 1e-3f)
                fail_msg("bilinear (%g,%g) channel %d: %g vs %g", (double)u, (double)v, c,
                         (double)o[c], (double)ref_bilinear(5, 3, u, v, c));
    }
    /* 1x1 texture: constant */
    r500_texture *one = make(1, 1, ramp);
    float o[4];
    sample1(one, 0.37f, 12.0f, R500_TEX_LOD_IMPLICIT, 0, false, o);
    assert_true(o[2] == 200);
    r500_texture_free(one);
    r500_texture_free(t);
}

static float checker(int x, int y, int c)
{
    (void)c;
    return (float)((x + y) & 1);
}

static void test_mipmaps(void **st)
{
    (void)st;
    r500_texture *t = make(8, 4, checker);
    assert_int_equal(r500_texture_levels(t), 4); /* 8x4, 4x2, 2x1, 1x1 */
    r500_texture_set_sampler(t, R500_TEX_NEAREST, R500_TEX_REPEAT, R500_TEX_REPEAT);
    float o[4];
    sample1(t, 0.1f, 0.1f, R500_TEX_LOD_EXPLICIT, 1.0f, false, o);
    assert_true(o[0] == 0.5f); /* box filter of a checkerboard */
    sample1(t, 0.1f, 0.1f, R500_TEX_LOD_EXPLICIT, 0.4f, false, o);
    assert_true(o[0] == 0.0f); /* rounds to level 0: texel (0,0) */
    /* implicit LOD from a quad whose neighbours are 2 texels apart -> level 1 */
    static float coord[4][64], res[4][64];
    static const uint8_t quad[4][4] = {{0, 1, 2, 3}, {0, 1, 2, 3}, {0, 1, 2, 3}, {0, 1, 2, 3}};
    float du = 2.0f / 8, dv = 2.0f / 4;
    coord[0][0] = 0.01f, coord[1][0] = 0.01f;
    coord[0][1] = 0.01f + du, coord[1][1] = 0.01f;
    coord[0][2] = 0.01f, coord[1][2] = 0.01f + dv;
    coord[0][3] = 0.01f + du, coord[1][3] = 0.01f + dv;
    r500_tex_request rq = {.n = 4, .mask = 1, .quad = quad, .lod_mode = R500_TEX_LOD_IMPLICIT,
                           .coord = coord, .out = res};
    ls_diag d;
    assert_int_equal(r500_tex_sample(t, &rq, &d), LS_OK);
    assert_true(res[0][0] == 0.5f);
    assert_int_equal(r500_tex_sample(NULL, &rq, &d), LS_ERR_ARG);
    r500_texture_free(t);
}

/* Non-power-of-two chain 5x3 -> 2x1 -> 1x1, values by hand from the ramp
 * x + 10y + 100c; LOD edge cases; LODBIAS and DXDY through the request. */
static void test_lod_edges(void **st)
{
    (void)st;
    r500_texture *t = make(5, 3, ramp);
    assert_int_equal(r500_texture_levels(t), 3);
    r500_texture_set_sampler(t, R500_TEX_NEAREST, R500_TEX_CLAMP, R500_TEX_CLAMP);
    float o[4];
    /* level 1 texel (0,0) = mean of (0,0),(1,0),(0,1),(1,1) = (0+1+10+11)/4 */
    sample1(t, 0.1f, 0.5f, R500_TEX_LOD_EXPLICIT, 1.0f, false, o);
    assert_true(o[0] == 5.5f && o[3] == 305.5f);
    /* level 1 texel (1,0) = (2+3+12+13)/4; column 4 and row 2 do not contribute */
    sample1(t, 0.9f, 0.5f, R500_TEX_LOD_EXPLICIT, 1.0f, false, o);
    assert_true(o[0] == 7.5f);
    /* level 2 (1x1) = mean of 5.5, 7.5 (height 1 repeats its row) */
    sample1(t, 0.9f, 0.5f, R500_TEX_LOD_EXPLICIT, 2.0f, false, o);
    assert_true(o[0] == 6.5f);
    /* +inf LOD: the last level; LOD beyond the chain: clamped to it */
    sample1(t, 0.1f, 0.1f, R500_TEX_LOD_EXPLICIT, INFINITY, false, o);
    assert_true(o[0] == 6.5f);
    sample1(t, 0.1f, 0.1f, R500_TEX_LOD_EXPLICIT, 40.0f, false, o);
    assert_true(o[0] == 6.5f);
    /* NaN, -inf and negative LOD: level 0, texel (0,0) */
    sample1(t, 0.1f, 0.1f, R500_TEX_LOD_EXPLICIT, NAN, false, o);
    assert_true(o[0] == 0.0f);
    sample1(t, 0.1f, 0.1f, R500_TEX_LOD_EXPLICIT, -INFINITY, false, o);
    assert_true(o[0] == 0.0f);
    sample1(t, 0.1f, 0.1f, R500_TEX_LOD_EXPLICIT, -3.0f, false, o);
    assert_true(o[0] == 0.0f);

    static float coord[4][64], res[4][64], dx[4][64], dy[4][64], bias[64];
    static const uint8_t quad[4][4] = {{0, 1, 2, 3}, {0, 1, 2, 3}, {0, 1, 2, 3}, {0, 1, 2, 3}};
    memset(coord, 0, sizeof coord);
    memset(dx, 0, sizeof dx);
    memset(dy, 0, sizeof dy);
    ls_diag d;
    /* DXDY: dS/dx = 2 texels of 5 -> log2(2) = 1 -> level 1 */
    coord[0][0] = 0.1f, coord[1][0] = 0.5f;
    dx[0][0] = 2.0f / 5;
    r500_tex_request rq = {.n = 1, .mask = 1, .lod_mode = R500_TEX_LOD_DERIV, .coord = coord,
                           .ddx = dx, .ddy = dy, .out = res};
    assert_int_equal(r500_tex_sample(t, &rq, &d), LS_OK);
    assert_true(res[0][0] == 5.5f);
    /* DXDY: dT/dy = 4 texels of 3 -> log2(4) = 2 -> level 2; infinite: last level */
    dx[0][0] = 0;
    dy[1][0] = 4.0f / 3;
    assert_int_equal(r500_tex_sample(t, &rq, &d), LS_OK);
    assert_true(res[0][0] == 6.5f);
    dy[1][0] = INFINITY;
    assert_int_equal(r500_tex_sample(t, &rq, &d), LS_OK);
    assert_true(res[0][0] == 6.5f);
    /* LODBIAS: a quad 1 texel apart (LOD 0) plus bias 1 -> level 1; lanes outside
     * the mask keep their output */
    for (int l = 0; l < 4; l++) {
        coord[0][l] = 0.1f + (float)(l & 1) / 5;
        coord[1][l] = 0.5f + (float)(l >> 1) / 3;
        bias[l] = 1.0f;
        res[0][l] = -7.0f;
    }
    r500_tex_request rb = {.n = 4, .mask = 1, .quad = quad, .lod_mode = R500_TEX_LOD_BIAS,
                           .coord = coord, .lod = bias, .out = res};
    assert_int_equal(r500_tex_sample(t, &rb, &d), LS_OK);
    assert_true(res[0][0] == 5.5f);
    assert_true(res[0][1] == -7.0f && res[0][2] == -7.0f && res[0][3] == -7.0f);
    r500_texture_free(t);
}

/* End to end: a PNG sampled with uv through `lockstep`'s job API comes out
 * upright (the PNG's top row at the top of the render target). */
static void test_png_through_program(void **st)
{
    (void)st;
    char png[] = "/tmp/lockstep-tex-XXXXXX";
    int fd = mkstemp(png);
    assert_true(fd >= 0);
    close(fd);
    uint8_t px[2 * 2 * 4] = {255, 0, 0, 255, 0, 255, 0, 255,    /* top: red, green */
                             0, 0, 255, 255, 255, 255, 255, 255}; /* bottom: blue, white */
    ls_image8 img = {2, 2, 4, px};
    ls_diag d;
    assert_int_equal(ls_png_write(png, &img, &d), LS_OK);
    const char *src = "TEX temp[1].rgba = LD tex[0].rgba temp[0].rgba ;\n"
                      "OUT src0.a = temp[1], src0.rgb = temp[1] :\n"
                      "  out[0].a = MAX src0.a src0.a , out[0].rgb = MAX src0.rgb src0.rgb ;\n";
    r500_job job;
    r500_job_init(&job);
    assert_int_equal(r500_job_load_mem(&job, "t.fs.asm", src, strlen(src), &d), LS_OK);
    char spec[64];
    snprintf(spec, sizeof spec, "%s,nearest", png);
    /* the core reads no files itself: without a loader a texture file is an error */
    assert_int_equal(r500_job_load_texture(&job, 0, spec, &d), LS_ERR_UNSUPPORTED);
    assert_non_null(strstr(d.msg, "texture loader"));
    assert_null(job.tex[0]);
    job.texture_loader.load = r500_texture_load_file;
    assert_int_equal(r500_job_load_texture(&job, 0, spec, &d), LS_OK);
    job.width = job.height = 2;
    job.thread_size = 4;
    job.workers = 1;
    job.inputs[0].kind = R500_INPUT_UV;
    r500_result r;
    assert_int_equal(r500_run(&job, &r, NULL, &d), LS_OK);
    /* bottom row first: (0,0) blue, (1,0) white, (0,1) red, (1,1) green */
    const float expect[4][4] = {{0, 0, 1, 1}, {1, 1, 1, 1}, {1, 0, 0, 1}, {0, 1, 0, 1}};
    for (int p = 0; p < 4; p++)
        for (int c = 0; c < 4; c++)
            assert_true(r.target[0][p * 4 + c] == expect[p][c]);
    r500_result_free(&r);
    r500_job_free(&job);
    remove(png);
    /* a missing file is a one-line error naming it */
    assert_int_not_equal(r500_texture_load("/nonexistent.png", &(r500_texture *){NULL}, &d), LS_OK);
    assert_string_equal(d.file, "/nonexistent.png");
}

/* Reference bilinear with repeat addressing, written separately: texel index
 * taken modulo the size with a non-negative remainder. */
static float ref_bilinear_repeat(int w, int h, double u, double v, int c)
{
    double x = u * w - 0.5, y = v * h - 0.5;
    int x0 = (int)floor(x), y0 = (int)floor(y);
    double fx = x - x0, fy = y - y0;
    double acc = 0;
    for (int j = 0; j < 2; j++)
        for (int i = 0; i < 2; i++) {
            int xi = ((x0 + i) % w + w) % w, yi = ((y0 + j) % h + h) % h;
            acc += (i ? fx : 1 - fx) * (j ? fy : 1 - fy) * ramp(xi, yi, c);
        }
    return (float)acc;
}

static void test_bilinear_repeat(void **st)
{
    (void)st;
    r500_texture *t = make(3, 7, ramp); /* non-power-of-two both ways */
    r500_texture_set_sampler(t, R500_TEX_BILINEAR, R500_TEX_REPEAT, R500_TEX_REPEAT);
    uint64_t s = ls_test_seed(0xB11);
    for (int k = 0; k < 2000; k++) {
        float u = (float)(ls_test_rand(&s) % 40000) / 8000.0f - 2.5f;
        float v = (float)(ls_test_rand(&s) % 40000) / 8000.0f - 2.5f;
        float o[4];
        sample1(t, u, v, R500_TEX_LOD_EXPLICIT, 0, false, o);
        for (int c = 0; c < 4; c++) {
            float e = ref_bilinear_repeat(3, 7, u, v, c);
            if (fabsf(o[c] - e) > 1e-3f)
                fail_msg("bilinear repeat (%g,%g) channel %d: %g vs %g", (double)u, (double)v, c,
                         (double)o[c], (double)e);
        }
    }
    /* by hand: s exactly between texel centres 0 and 1 of row 0 (s = 1/3, t = 1/14):
     * (0 + 1) / 2 = 0.5; at the seam s = 0 the left neighbour wraps to column 2:
     * (2 + 0) / 2 = 1 */
    float o[4];
    sample1(t, 1.0f / 3, 1.0f / 14, R500_TEX_LOD_EXPLICIT, 0, false, o);
    assert_true(fabsf(o[0] - 0.5f) < 1e-5f);
    sample1(t, 0.0f, 1.0f / 14, R500_TEX_LOD_EXPLICIT, 0, false, o);
    assert_true(fabsf(o[0] - 1.0f) < 1e-5f);
    /* huge and non-finite coordinates give a texel value, never a crash or NaN */
    const float odd[] = {1e30f, -1e30f, 3.4e38f, -3.4e38f, INFINITY, -INFINITY, NAN};
    for (size_t i = 0; i < sizeof odd / sizeof odd[0]; i++)
        for (int un = 0; un < 2; un++) {
            sample1(t, odd[i], odd[i], R500_TEX_LOD_EXPLICIT, 0, un, o);
            for (int c = 0; c < 4; c++)
                assert_true(o[c] >= 100 * c && o[c] <= 100 * c + 62);
        }
    r500_texture_free(t);
}

/* Two quads in one thread get their own implicit LOD: quad 0 spans 1 texel per
 * pixel (level 0), quad 1 spans 4 texels (level 2). */
static void test_lod_per_quad(void **st)
{
    (void)st;
    r500_texture *t = make(16, 16, checker);
    r500_texture_set_sampler(t, R500_TEX_NEAREST, R500_TEX_REPEAT, R500_TEX_REPEAT);
    static float coord[4][64], res[4][64];
    static const uint8_t quad[8][4] = {{0, 1, 2, 3}, {0, 1, 2, 3}, {0, 1, 2, 3}, {0, 1, 2, 3},
                                       {4, 5, 6, 7}, {4, 5, 6, 7}, {4, 5, 6, 7}, {4, 5, 6, 7}};
    for (int l = 0; l < 8; l++) {
        float step = l < 4 ? 1.0f / 16 : 4.0f / 16;
        /* top-left at texel (0, 15) (centre); x grows right, y (t) falls downward */
        coord[0][l] = 0.5f / 16 + (float)(l & 1) * step;
        coord[1][l] = 15.5f / 16 - (float)((l >> 1) & 1) * step;
    }
    r500_tex_request rq = {.n = 8, .mask = 0xFF, .quad = quad, .lod_mode = R500_TEX_LOD_IMPLICIT,
                           .coord = coord, .out = res};
    ls_diag d;
    assert_int_equal(r500_tex_sample(t, &rq, &d), LS_OK);
    /* level 0 of a checkerboard: (x + y) & 1 of the texel hit */
    assert_true(res[0][0] == 1.0f && res[0][1] == 0.0f && res[0][2] == 0.0f && res[0][3] == 1.0f);
    /* level 2 (4x4 box) of a checkerboard: 0.5 everywhere */
    for (int l = 4; l < 8; l++)
        assert_true(res[0][l] == 0.5f);
    r500_texture_free(t);
}

/* Files: raw float32 round trip (bit-exact, bottom row first), PNG values c/255
 * with the top row at t = 1, sampler suffixes, and malformed specs. */
static void test_texture_files(void **st)
{
    (void)st;
    char raw[] = "/tmp/lockstep-texraw-XXXXXX";
    int fd = mkstemp(raw);
    assert_true(fd >= 0);
    close(fd);
    float px[3 * 2 * 4];
    for (int i = 0; i < 24; i++)
        px[i] = (float)i * 0.37f - 2.0f;
    ls_imagef fimg = {3, 2, px};
    ls_diag d;
    assert_int_equal(ls_rawf_write(raw, &fimg, &d), LS_OK);
    char spec[128];
    snprintf(spec, sizeof spec, "%s@3x2,nearest,clamp", raw);
    r500_texture *t = NULL;
    assert_int_equal(r500_texture_load(spec, &t, &d), LS_OK);
    assert_int_equal(r500_texture_width(t), 3);
    assert_int_equal(r500_texture_height(t), 2);
    float o[4];
    for (int y = 0; y < 2; y++)
        for (int x = 0; x < 3; x++) {
            sample1(t, ((float)x + 0.5f) / 3, ((float)y + 0.5f) / 2, R500_TEX_LOD_EXPLICIT, 0,
                    false, o);
            for (int c = 0; c < 4; c++)
                assert_true(o[c] == px[(y * 3 + x) * 4 + c]);
        }
    /* clamp (from the suffix): far right of the bottom row is texel (2, 0) */
    sample1(t, 9.0f, 0.1f, R500_TEX_LOD_EXPLICIT, 0, false, o);
    assert_true(o[0] == px[8]);
    r500_texture_free(t);
    /* wrong size for the file, junk after WxH, bad option, missing size */
    const char *bad[] = {"@4x2", "@3x2junk", "@3x2,fuzzy", "@0x2", "@3y2", "@x"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        snprintf(spec, sizeof spec, "%s%s", raw, bad[i]);
        t = (r500_texture *)&d; /* must be reset to NULL on failure */
        if (r500_texture_load(spec, &t, &d) == LS_OK)
            fail_msg("texture spec '%s' accepted", bad[i]);
        assert_null(t);
        assert_true(d.msg[0] != 0);
    }
    remove(raw);

    /* PNG: 8-bit values / 255, top row of the file at the top (t near 1) */
    char png[] = "/tmp/lockstep-texpng-XXXXXX";
    fd = mkstemp(png);
    assert_true(fd >= 0);
    close(fd);
    uint8_t b[2 * 3 * 4];
    for (int i = 0; i < 24; i++)
        b[i] = (uint8_t)(i * 11);
    ls_image8 img = {2, 3, 4, b};
    assert_int_equal(ls_png_write(png, &img, &d), LS_OK);
    snprintf(spec, sizeof spec, "%s,nearest", png);
    assert_int_equal(r500_texture_load(spec, &t, &d), LS_OK);
    for (int row = 0; row < 3; row++) /* row 0 = top of the file */
        for (int x = 0; x < 2; x++) {
            sample1(t, ((float)x + 0.5f) / 2, (2.5f - (float)row) / 3, R500_TEX_LOD_EXPLICIT, 0,
                    false, o);
            for (int c = 0; c < 4; c++)
                assert_true(o[c] == (float)b[(row * 2 + x) * 4 + c] / 255.0f);
        }
    r500_texture_free(t);
    remove(png);
    /* create: bad sizes and no texels are errors */
    assert_int_equal(r500_texture_create(0, 1, px, &t, &d), LS_ERR_RANGE);
    assert_int_equal(r500_texture_create(1, 1, NULL, &t, &d), LS_ERR_ARG);
    r500_texture_free(NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_nearest_and_wrap), cmocka_unit_test(test_bilinear),
        cmocka_unit_test(test_mipmaps),          cmocka_unit_test(test_lod_edges),
        cmocka_unit_test(test_png_through_program), cmocka_unit_test(test_bilinear_repeat),
        cmocka_unit_test(test_lod_per_quad),        cmocka_unit_test(test_texture_files),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
