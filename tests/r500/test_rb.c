/* The render backend (src/r500/rb.c, rb_pixel.c) and texture units in draws
 * (r500_job_bind_tx_units). Expectations come from code written here: each
 * Mesa colour format's bytes as its pipe format defines them (restated by
 * hand, with the US_OUT_FMT / COLORPITCH values Mesa's r300_texture.c
 * computes), a GL blending model in double precision, GL's depth, stencil,
 * alpha-test and logic-op tables, and the texture units reading what the back
 * end wrote (tiled and linear give one picture). */
#include "test_util.h"

#include <math.h>

#include "lockstep/buf.h"
#include "lockstep/mesa_cs.h"
#include "lockstep/r500.h"
#include "lockstep/r500_rb.h"
#include "lockstep/r500_txu.h"

static uint64_t rng_state = 0x2545f4914f6cdd1dull;
static uint32_t rnd(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (uint32_t)(rng_state >> 11);
}
static float rndf(void)
{
    return (float)(rnd() % 100001) / 100000.0f;
}

/* A whole file (NULL if absent); free with free(). */
static void *slurp(const char *path, size_t *n)
{
    ls_buf b;
    ls_buf_init(&b);
    if (!ls_read_file(path, &b)) {
        ls_buf_free(&b);
        return NULL;
    }
    *n = b.len;
    return b.data;
}

/* A page of docs/, NUL-terminated (free with free()). */
static char *read_doc(const char *name)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/docs/%s", ls_test_source_root(), name);
    size_t n = 0;
    char *doc = slurp(path, &n);
    assert_non_null(doc);
    return doc;
}

/* us_out_fmt.txt C*_SEL values */
enum { SA = 0, SR = 1, SG = 2, SB = 3 };
static uint32_t out_fmt(unsigned fmt, unsigned c0, unsigned c1, unsigned c2, unsigned c3,
                        unsigned sign)
{
    return fmt | c0 << 8 | c1 << 10 | c2 << 12 | c3 << 14 | sign << 16;
}

/* A target of w x h at offset 0 of a buffer: pitch in pixels, tiling bits. */
static void set_target(r500_rb_state *s, unsigned t, uint32_t ofmt, unsigned cbfmt, unsigned pitch,
                       unsigned macro, unsigned micro)
{
    s->reg[R500_RB_US_OUT_FMT_0 + t] = ofmt;
    s->reg[R500_RB_RB3D_COLOROFFSET0 + t] = 0;
    s->reg[R500_RB_RB3D_COLORPITCH0 + t] = pitch | macro << 16 | micro << 17 | cbfmt << 21;
}

/* ---- registers ---------------------------------------------------------- */

static void test_registers(void **st)
{
    (void)st;
    /* 3d_registers.txt */
    assert_int_equal(r500_rb_reg_addr(R500_RB_RB3D_BLENDCNTL), 0x4e04);
    assert_int_equal(r500_rb_reg_addr(R500_RB_RB3D_COLORPITCH3), 0x4e44);
    assert_int_equal(r500_rb_reg_addr(R500_RB_US_OUT_FMT_3), 0x46b0);
    assert_int_equal(r500_rb_reg_addr(R500_RB_ZB_STENCILREFMASK_BF), 0x4fd4);
    assert_int_equal(r500_rb_reg_addr(R500_RB_FG_ALPHA_VALUE), 0x4be0);
    assert_int_equal(r500_rb_reg_addr(R500_RB_RB3D_CONSTANT_COLOR_GB), 0x4efc);
    r500_rb_state s;
    r500_rb_state_init(&s);
    assert_true(r500_rb_write(&s, 0x4f04, 0x12345678));
    assert_int_equal(s.reg[R500_RB_ZB_ZSTENCILCNTL], 0x12345678);
    assert_false(r500_rb_write(&s, 0x4f0c, 1));
    /* fields at their documented bits */
    assert_int_equal(r500_rb_get(&s, R500_RB_ZB_ZSTENCILCNTL, R500_RBF_ZFUNC), 0);
    assert_int_equal(r500_rb_get(&s, R500_RB_ZB_ZSTENCILCNTL, R500_RBF_STENCILFAIL_BF), 0x12345678u >> 18 & 7);
    r500_rb_set(&s, R500_RB_RB3D_COLORPITCH2, R500_RBF_COLORFORMAT, 15);
    assert_int_equal(s.reg[R500_RB_RB3D_COLORPITCH2], 15u << 21);
    assert_string_equal(r500_rb_reg_name(R500_RB_ZB_DEPTHPITCH), "ZB_DEPTHPITCH");
}

/* ---- formats: bytes as the pipe formats define them --------------------- */

static uint32_t un(double v, int bits)
{
    v = v < 0 ? 0 : v > 1 ? 1 : v;
    return (uint32_t)floor(v * ((1u << bits) - 1) + 0.5);
}
static uint32_t sn(double v, int bits)
{
    v = v < -1 ? -1 : v > 1 ? 1 : v;
    return (uint32_t)(int32_t)floor(v * ((1 << (bits - 1)) - 1) + 0.5) & ((1u << bits) - 1);
}
static void put(uint8_t *b, int n, uint64_t v)
{
    for (int i = 0; i < n; i++)
        b[i] = (uint8_t)(v >> (8 * i));
}
static void putf(uint8_t *b, float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    put(b, 4, u);
}

typedef struct fmt_case {
    const char *pipe;   /* Mesa's pipe format */
    unsigned cbfmt;     /* r300_translate_colorformat */
    uint32_t ofmt;      /* r300_translate_out_fmt */
    int bytes;
    void (*pack)(const float c[4], uint8_t *b); /* RGBA -> the pipe format's bytes */
    float tol;          /* read-back tolerance: one step of the narrowest channel */
} fmt_case;

static void p_bgra8(const float c[4], uint8_t *b)
{
    b[0] = (uint8_t)un(c[2], 8), b[1] = (uint8_t)un(c[1], 8), b[2] = (uint8_t)un(c[0], 8), b[3] = (uint8_t)un(c[3], 8);
}
static void p_rgba8(const float c[4], uint8_t *b)
{
    for (int i = 0; i < 4; i++)
        b[i] = (uint8_t)un(c[i], 8);
}
static void p_rgba8s(const float c[4], uint8_t *b)
{
    for (int i = 0; i < 4; i++)
        b[i] = (uint8_t)sn(c[i] * 2 - 1, 8);
}
static void p_565(const float c[4], uint8_t *b)
{
    put(b, 2, un(c[2], 5) | un(c[1], 6) << 5 | un(c[0], 5) << 11);
}
static void p_1555(const float c[4], uint8_t *b)
{
    put(b, 2, un(c[2], 5) | un(c[1], 5) << 5 | un(c[0], 5) << 10 | un(c[3], 1) << 15);
}
static void p_4444(const float c[4], uint8_t *b)
{
    put(b, 2, un(c[2], 4) | un(c[1], 4) << 4 | un(c[0], 4) << 8 | un(c[3], 4) << 12);
}
static void p_r8(const float c[4], uint8_t *b) { b[0] = (uint8_t)un(c[0], 8); }
static void p_a8(const float c[4], uint8_t *b) { b[0] = (uint8_t)un(c[3], 8); }
static void p_rg8(const float c[4], uint8_t *b) { b[0] = (uint8_t)un(c[0], 8), b[1] = (uint8_t)un(c[1], 8); }
static void p_la8(const float c[4], uint8_t *b) { b[0] = (uint8_t)un(c[0], 8), b[1] = (uint8_t)un(c[3], 8); }
static void p_bgr10a2(const float c[4], uint8_t *b)
{
    put(b, 4, un(c[2], 10) | un(c[1], 10) << 10 | (uint64_t)un(c[0], 10) << 20 | (uint64_t)un(c[3], 2) << 30);
}
static void p_rgba16(const float c[4], uint8_t *b)
{
    for (int i = 0; i < 4; i++)
        put(b + 2 * i, 2, un(c[i], 16));
}
static void p_rg16(const float c[4], uint8_t *b)
{
    put(b, 2, un(c[0], 16)), put(b + 2, 2, un(c[1], 16));
}
static void p_rgba32f(const float c[4], uint8_t *b)
{
    for (int i = 0; i < 4; i++)
        putf(b + 4 * i, c[i] * 4 - 2);
}
static void p_r32f(const float c[4], uint8_t *b) { putf(b, c[0] * 4 - 2); }
static void p_rg32f(const float c[4], uint8_t *b) { putf(b, c[0] * 4 - 2), putf(b + 4, c[1] * 4 - 2); }

static const fmt_case fmts[] = {
    {"B8G8R8A8_UNORM", R500_CB_ARGB8888, 0 | SB << 8 | SG << 10 | SR << 12 | SA << 14, 4, p_bgra8, 1 / 255.f},
    {"R8G8B8A8_UNORM", R500_CB_ARGB8888, 0 | SR << 8 | SG << 10 | SB << 12 | SA << 14, 4, p_rgba8, 1 / 255.f},
    {"R8G8B8A8_SNORM", R500_CB_ARGB8888, 0 | SR << 8 | SG << 10 | SB << 12 | SA << 14 | 0xfu << 16, 4, p_rgba8s, 2 / 127.f},
    {"B5G6R5_UNORM", R500_CB_RGB565, 0 | SB << 8 | SG << 10 | SR << 12 | SA << 14, 2, p_565, 1 / 31.f},
    {"B5G5R5A1_UNORM", R500_CB_ARGB1555, 0 | SB << 8 | SG << 10 | SR << 12 | SA << 14, 2, p_1555, 1.f},
    {"B4G4R4A4_UNORM", R500_CB_ARGB4444, 0 | SB << 8 | SG << 10 | SR << 12 | SA << 14, 2, p_4444, 1 / 15.f},
    {"R8_UNORM", R500_CB_I8, 0 | SR << 12, 1, p_r8, 1 / 255.f},
    {"A8_UNORM", R500_CB_I8, 0 | SA << 12, 1, p_a8, 1 / 255.f},
    {"R8G8_UNORM", R500_CB_UV88, 0 | SG << 8 | SR << 12, 2, p_rg8, 1 / 255.f},
    {"L8A8_UNORM", R500_CB_UV88, 0 | SA << 8 | SR << 12, 2, p_la8, 1 / 255.f},
    {"B10G10R10A2_UNORM", R500_CB_ARGB2101010, 1 | SB << 8 | SG << 10 | SR << 12 | SA << 14, 4, p_bgr10a2, 1 / 3.f},
    {"R16G16B16A16_UNORM", R500_CB_ARGB16161616, 5 | SR << 8 | SG << 10 | SB << 12 | SA << 14, 8, p_rgba16, 1e-4f},
    {"R16G16_UNORM", R500_CB_ARGB8888, 4 | SR << 8 | SG << 10 | SB << 12 | SA << 14, 4, p_rg16, 1e-4f},
    {"R32G32B32A32_FLOAT", R500_CB_ARGB32323232, 21 | SR << 8 | SG << 10 | SB << 12 | SA << 14, 16, p_rgba32f, 0},
    {"R32_FLOAT", R500_CB_ARGB8888, 19 | SR << 8 | SG << 10 | SB << 12 | SA << 14, 4, p_r32f, 0},
    {"R32G32_FLOAT", R500_CB_ARGB16161616, 20 | SR << 8 | SG << 12, 8, p_rg32f, 0},
};

/* float formats get values in [-2, 2] (the packers above map c to 4c - 2) */
static bool is_float(const fmt_case *f)
{
    return f->pack == p_rgba32f || f->pack == p_r32f || f->pack == p_rg32f;
}
static bool is_snorm(const fmt_case *f)
{
    return f->pack == p_rgba8s;
}

static void test_format_bytes(void **st)
{
    (void)st;
    enum { W = 9, H = 5 };
    for (size_t fi = 0; fi < sizeof fmts / sizeof fmts[0]; fi++) {
        const fmt_case *f = &fmts[fi];
        r500_rb_state s;
        r500_rb_state_init(&s);
        set_target(&s, 0, f->ofmt, f->cbfmt, 10, 0, 0);
        uint8_t mem[10 * H * 16];
        memset(mem, 0xa5, sizeof mem);
        r500_rb_memory m = {.color = {mem}, .color_size = {sizeof mem}};
        r500_rb rb;
        ls_diag d;
        if (r500_rb_bind(&rb, &s, &m, W, H, NULL, &d) != LS_OK)
            fail_msg("%s: %s", f->pipe, d.msg);
        float in[H][W][4];
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++) {
                r500_rb_quad q = {.x = {x}, .y = {y}, .mask = 1};
                for (int c = 0; c < 4; c++) {
                    in[y][x][c] = rndf();
                    float v = in[y][x][c];
                    q.color[0][0][c] = is_float(f) ? v * 4 - 2 : is_snorm(f) ? v * 2 - 1 : v;
                }
                r500_rb_quad_write(&rb, &q, NULL);
            }
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++) {
                uint8_t want[16];
                f->pack(in[y][x], want);
                const uint8_t *got = mem + ((size_t)y * 10 + (size_t)x) * (size_t)f->bytes;
                if (memcmp(want, got, (size_t)f->bytes) != 0)
                    fail_msg("%s pixel (%d,%d): bytes %02x%02x%02x%02x, want %02x%02x%02x%02x",
                             f->pipe, x, y, got[0], got[1], f->bytes > 2 ? got[2] : 0,
                             f->bytes > 3 ? got[3] : 0, want[0], want[1],
                             f->bytes > 2 ? want[2] : 0, f->bytes > 3 ? want[3] : 0);
            }
        /* the pitch's padding pixel is untouched */
        assert_int_equal(mem[9 * (size_t)f->bytes], 0xa5);
        /* read-back puts each stored component into its channel */
        float back[H * W * 4];
        r500_rb_read_color(&rb, 0, back);
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++) {
                const float *p = back + ((size_t)y * W + (size_t)x) * 4;
                float r = in[y][x][0];
                float want = is_float(f) ? r * 4 - 2 : is_snorm(f) ? r * 2 - 1 : r;
                if (f->pack == p_a8)
                    want = in[y][x][3];
                if (fabsf(p[f->pack == p_a8 ? 3 : 0] - want) > f->tol * 0.5f + 1e-6f)
                    fail_msg("%s read-back (%d,%d): %g, want %g", f->pipe, x, y,
                             (double)p[f->pack == p_a8 ? 3 : 0], (double)want);
            }
    }
    /* half floats: exactly representable values, encodings by hand */
    r500_rb_state s;
    r500_rb_state_init(&s);
    set_target(&s, 0, out_fmt(18, SR, SG, SB, SA, 0), R500_CB_ARGB16161616, 2, 0, 0);
    uint8_t mem[16] = {0};
    r500_rb_memory m = {.color = {mem}, .color_size = {sizeof mem}};
    r500_rb rb;
    ls_diag d;
    assert_int_equal(r500_rb_bind(&rb, &s, &m, 1, 1, NULL, &d), LS_OK);
    r500_rb_quad q = {.mask = 1, .color = {{{0.5f, 0.25f, -2.0f, 1.0f}}}};
    r500_rb_quad_write(&rb, &q, NULL);
    const uint8_t want[8] = {0x00, 0x38, 0x00, 0x34, 0x00, 0xc0, 0x00, 0x3c};
    assert_memory_equal(mem, want, 8);
}

/* ---- tiling: one picture whatever the layout ----------------------------- */

static void test_tiling(void **st)
{
    (void)st;
    enum { W = 70, H = 37 };
    static const struct {
        unsigned cbfmt, bpp;
        uint32_t ofmt;
        unsigned txfmt; /* the texture format that reads the same bytes */
    } kinds[] = {
        {R500_CB_I8, 1, 0 | SR << 12, R500_TXFMT_X8},
        {R500_CB_RGB565, 2, 0 | SB << 8 | SG << 10 | SR << 12, R500_TXFMT_Z5Y6X5},
        {R500_CB_ARGB8888, 4, 0 | SB << 8 | SG << 10 | SR << 12 | SA << 14, R500_TXFMT_W8Z8Y8X8},
        {R500_CB_ARGB16161616, 8, 18 | SR << 8 | SG << 10 | SB << 12 | SA << 14,
         R500_TXFMT_16F_16F_16F_16F},
    };
    static const unsigned modes[][2] = {{0, 0}, {0, 1}, {0, 2}, {1, 0}, {1, 1}}; /* macro, micro */
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
        float ref[H * W * 4];
        uint8_t *linear_mem = NULL;
        for (size_t mo = 0; mo < sizeof modes / sizeof modes[0]; mo++) {
            unsigned macro = modes[mo][0], micro = modes[mo][1];
            unsigned tw, th;
            if (!r500_tx_tile_size(kinds[k].bpp, macro, micro, &tw, &th))
                continue; /* square exists for 16-bit pixels only */
            unsigned pitch = (W + tw - 1) / tw * tw;
            if (pitch & 1u)
                pitch++;
            size_t rows = (H + th - 1) / th * th;
            size_t size = rows * pitch * kinds[k].bpp;
            uint8_t *mem = calloc(1, size);
            r500_rb_state s;
            r500_rb_state_init(&s);
            set_target(&s, 0, kinds[k].ofmt, kinds[k].cbfmt, pitch, macro, micro);
            r500_rb_memory m = {.color = {mem}, .color_size = {size}};
            r500_rb rb;
            ls_diag d;
            if (r500_rb_bind(&rb, &s, &m, W, H, NULL, &d) != LS_OK)
                fail_msg("bpp %u macro %u micro %u: %s", kinds[k].bpp, macro, micro, d.msg);
            /* the same pseudo-random picture, written in 2x2 quads */
            rng_state = 0x1234567 + k;
            for (int y = 0; y < H; y += 2)
                for (int x = 0; x < W; x += 2) {
                    r500_rb_quad q = {.mask = 0xf};
                    for (int i = 0; i < 4; i++) {
                        q.x[i] = x + (i & 1);
                        q.y[i] = y + (i >> 1);
                        for (int c = 0; c < 4; c++)
                            q.color[0][i][c] = rndf();
                    }
                    r500_rb_quad_write(&rb, &q, NULL);
                }
            float img[H * W * 4];
            r500_rb_read_color(&rb, 0, img);
            if (mo == 0) {
                memcpy(ref, img, sizeof ref);
                linear_mem = mem;
            } else {
                assert_memory_equal(img, ref, sizeof ref);
                /* and the layout really differs from the linear one */
                assert_true(memcmp(mem, linear_mem, 2 * (size_t)W * kinds[k].bpp) != 0);
            }
            /* the texture unit reads what the back end wrote: TX_OFFSET with
             * the same tiling bits, TXPITCH_EN with the same pitch */
            r500_tx_state ts;
            memset(&ts, 0, sizeof ts);
            r500_tx_set(&ts, 0, R500_TXF_TXWIDTH, W - 1);
            r500_tx_set(&ts, 0, R500_TXF_TXHEIGHT, H - 1);
            r500_tx_set(&ts, 0, R500_TXF_TXPITCH_EN, 1);
            r500_tx_set(&ts, 0, R500_TXF_TXPITCH, pitch - 1);
            r500_tx_set(&ts, 0, R500_TXF_TXFORMAT, kinds[k].txfmt);
            r500_tx_set(&ts, 0, R500_TXF_MACRO_TILE, macro);
            r500_tx_set(&ts, 0, R500_TXF_MICRO_TILE, micro);
            r500_tx_set(&ts, 0, R500_TXF_MAG_FILTER, 1);
            r500_tx_set(&ts, 0, R500_TXF_MIN_FILTER, 1);
            r500_txu u;
            if (r500_txu_bind(&u, &ts, 0, mem, size, NULL, &d) != LS_OK)
                fail_msg("texture of bpp %u macro %u micro %u: %s", kinds[k].bpp, macro, micro,
                         d.msg);
            for (int y = 0; y < H && (!macro || u.lv[0].macro); y++) /* macro: if large enough */
                for (int x = 0; x < W; x++) {
                    float t[4], c[4];
                    r500_txu_texel_raw(&u, 0, 0, x, y, t);
                    r500_rb_read_components(&rb, 0, x, y, c);
                    int n = kinds[k].bpp == 1 ? 1 : kinds[k].bpp == 2 ? 3 : 4;
                    for (int i = 0; i < n; i++) {
                        /* I8 stores C2 only: the texture's X */
                        float cv = kinds[k].bpp == 1 ? c[2] : c[i];
                        if (fabsf(t[i] - cv) > 1e-6f)
                            fail_msg("bpp %u macro %u micro %u (%d,%d) comp %d: texture %g, "
                                     "buffer %g",
                                     kinds[k].bpp, macro, micro, x, y, i, (double)t[i], (double)cv);
                    }
                }
            if (mem != linear_mem)
                free(mem);
        }
        free(linear_mem);
    }
}

/* ---- blending against a GL model ----------------------------------------- */

/* GL blend factors in the order of the GL codes 32..46 (r300_reg.h
 * R300_BLEND_GL_*), computed here from GL's definitions. */
static double gl_factor(int f, int ch, const double s[4], const double d[4], const double c[4])
{
    switch (f) {
    case 0: return 0;
    case 1: return 1;
    case 2: return s[ch];
    case 3: return 1 - s[ch];
    case 4: return d[ch];
    case 5: return 1 - d[ch];
    case 6: return s[3];
    case 7: return 1 - s[3];
    case 8: return d[3];
    case 9: return 1 - d[3];
    case 10: return ch == 3 ? 1 : fmin(s[3], 1 - d[3]);
    case 11: return c[ch];
    case 12: return 1 - c[ch];
    case 13: return c[3];
    default: return 1 - c[3];
    }
}

static void test_blend_model(void **st)
{
    (void)st;
    /* equations: GL add, subtract, reverse subtract, min, max -> COMB_FCN */
    static const unsigned comb[5] = {0, 2, 6, 4, 5};
    r500_rb_state s;
    r500_rb_state_init(&s);
    set_target(&s, 0, out_fmt(0, SB, SG, SR, SA, 0), R500_CB_ARGB8888, 2, 0, 0);
    uint8_t mem[8];
    r500_rb_memory m = {.color = {mem}, .color_size = {sizeof mem}};
    int exact = 0, total = 0;
    for (int it = 0; it < 20000; it++) {
        int sf = (int)(rnd() % 15), df = (int)(rnd() % 15), eq = (int)(rnd() % 5);
        int saf = (int)(rnd() % 15), daf = (int)(rnd() % 15), aeq = (int)(rnd() % 5);
        bool separate = rnd() & 1u;
        if (df == 10)
            df = 1; /* SRC_ALPHA_SATURATE is a source factor only */
        if (daf == 10)
            daf = 1;
        if (!separate)
            saf = sf, daf = df, aeq = eq;
        s.reg[R500_RB_RB3D_BLENDCNTL] = 1u | (separate ? 2u : 0u) | 4u | comb[eq] << 12 |
                                        (32u + (unsigned)sf) << 16 | (32u + (unsigned)df) << 24;
        s.reg[R500_RB_RB3D_ABLENDCNTL] =
            comb[aeq] << 12 | (32u + (unsigned)saf) << 16 | (32u + (unsigned)daf) << 24;
        uint32_t cr = rnd() % 1024, cg = rnd() % 1024, cb = rnd() % 1024, ca = rnd() % 1024;
        s.reg[R500_RB_RB3D_CONSTANT_COLOR_AR] = cr | ca << 16;
        s.reg[R500_RB_RB3D_CONSTANT_COLOR_GB] = cb | cg << 16;
        r500_rb rb;
        ls_diag d;
        assert_int_equal(r500_rb_bind(&rb, &s, &m, 1, 1, NULL, &d), LS_OK);
        uint8_t dst[4]; /* B G R A bytes */
        for (int i = 0; i < 4; i++)
            dst[i] = (uint8_t)(rnd() & 0xff);
        memcpy(mem, dst, 4);
        r500_rb_quad q = {.mask = 1};
        for (int c = 0; c < 4; c++)
            q.color[0][0][c] = rndf() * 1.2f - 0.1f;
        r500_rb_quad_write(&rb, &q, NULL);
        /* the model: RGBA in GL order, source clamped and rounded to 8 bits */
        double S[4], D[4] = {dst[2] / 255.0, dst[1] / 255.0, dst[0] / 255.0, dst[3] / 255.0};
        double C[4] = {cr / 1023.0, cg / 1023.0, cb / 1023.0, ca / 1023.0};
        for (int c = 0; c < 4; c++)
            S[c] = un(q.color[0][0][c], 8) / 255.0;
        uint8_t want[4];
        for (int ch = 0; ch < 4; ch++) {
            int e = ch == 3 ? aeq : eq, fs = ch == 3 ? saf : sf, fd = ch == 3 ? daf : df;
            double a = S[ch] * gl_factor(fs, ch, S, D, C), b = D[ch] * gl_factor(fd, ch, S, D, C);
            double r = e == 0 ? a + b : e == 1 ? a - b : e == 2 ? b - a
                     : e == 3 ? fmin(S[ch], D[ch]) : fmax(S[ch], D[ch]);
            want[ch == 3 ? 3 : 2 - ch] = (uint8_t)un(r, 8);
        }
        for (int i = 0; i < 4; i++) {
            total++;
            int diff = abs((int)mem[i] - (int)want[i]);
            if (diff == 0)
                exact++;
            else if (diff > 1)
                fail_msg("blend %d/%d/%d sep %d: byte %d = %u, want %u", sf, df, eq, separate, i,
                         mem[i], want[i]);
        }
    }
    /* ties at .5 may round either way after the float products: at most a
     * handful of the 80,000 bytes */
    printf("blend: %d of %d bytes exact\n", exact, total);
    assert_true(exact >= total - total / 1000);
}

/* ---- depth, stencil, alpha test, logic ops, masks ---------------------- */

static bool gl_cmp(int f, long a, long b) /* GL order: never less equal lequal greater notequal gequal always */
{
    switch (f) {
    case 0: return false;
    case 1: return a < b;
    case 2: return a == b;
    case 3: return a <= b;
    case 4: return a > b;
    case 5: return a != b;
    case 6: return a >= b;
    default: return true;
    }
}
/* GL func -> ZFUNC (zb_zstencilcntl.txt order: never less le equal ge greater ne always) */
static const unsigned gl_to_zfunc[8] = {0, 1, 3, 2, 5, 6, 4, 7};

static void test_depth_stencil(void **st)
{
    (void)st;
    for (unsigned zf = 0; zf < 2; zf++) /* ZB_FORMAT 0: Z16, 2: Z24S8 */
        for (int f = 0; f < 8; f++)
            for (int rel = -1; rel <= 1; rel++) {
                r500_rb_state s;
                r500_rb_state_init(&s);
                set_target(&s, 0, out_fmt(0, SB, SG, SR, SA, 0), R500_CB_ARGB8888, 2, 0, 0);
                s.reg[R500_RB_ZB_FORMAT] = zf ? 2 : 0;
                s.reg[R500_RB_ZB_CNTL] = 2u | 4u; /* Z_ENABLE, ZWRITEENABLE */
                s.reg[R500_RB_ZB_ZSTENCILCNTL] = gl_to_zfunc[f];
                s.reg[R500_RB_ZB_DEPTHPITCH] = 4;
                uint8_t cmem[8] = {0}, zmem[16] = {0};
                r500_rb_memory m = {.color = {cmem}, .color_size = {8}, .depth = zmem,
                                    .depth_size = 16};
                r500_rb rb;
                ls_diag d;
                assert_int_equal(r500_rb_bind(&rb, &s, &m, 1, 1, NULL, &d), LS_OK);
                r500_rb_clear_depth(&rb, 0.5f, 0x5a);
                long zmax = zf ? 16777215 : 65535;
                long stored = (long)floor(0.5 * zmax + 0.5);
                long in = stored + rel;
                r500_rb_quad q = {.mask = 1, .z = {(float)((double)in / (double)zmax)},
                                  .color = {{{1, 1, 1, 1}}}};
                r500_rb_stats stats = {0};
                r500_rb_quad_write(&rb, &q, &stats);
                bool pass = gl_cmp(f, in, stored);
                assert_int_equal(cmem[0], pass ? 255 : 0);
                assert_int_equal(stats.depth_failed, pass ? 0 : 1);
                uint32_t word = zmem[0] | zmem[1] << 8 | (uint32_t)zmem[2] << 16 | (uint32_t)zmem[3] << 24;
                long zgot = zf ? (long)(word >> 8) : (long)(word & 0xffff);
                assert_int_equal(zgot, pass ? in : stored);
                if (zf)
                    assert_int_equal(word & 0xff, 0x5a); /* stencil in the low byte, kept */
            }

    /* stencil: GL's ops on values 0, 1, 0x80, 255 with ref 0x33, through each
     * outcome (stencil fail, depth fail, pass), write mask 0xf0 or 0xff */
    static const unsigned vals[4] = {0, 1, 0x80, 255};
    for (unsigned op = 0; op < 8; op++)
        for (int outcome = 0; outcome < 3; outcome++)
            for (int vi = 0; vi < 4; vi++)
                for (int wm = 0; wm < 2; wm++)
                    for (int back = 0; back < 2; back++) {
                        unsigned v = vals[vi], ref = 0x33, wmask = wm ? 0xffu : 0xf0u;
                        r500_rb_state s;
                        r500_rb_state_init(&s);
                        set_target(&s, 0, out_fmt(0, SB, SG, SR, SA, 0), R500_CB_ARGB8888, 2, 0, 0);
                        s.reg[R500_RB_ZB_CNTL] = 1u | 2u | 16u | 64u; /* two-sided */
                        s.reg[R500_RB_ZB_DEPTHPITCH] = 4;
                        /* stencil func: always (pass) or never (fail); depth:
                         * never when the outcome is a depth fail */
                        unsigned sfunc = outcome == 0 ? 0 : 7, zfunc = outcome == 1 ? 0 : 7;
                        unsigned ops = op << 6 | op << 9 | op << 12;
                        uint32_t zs = zfunc | (back ? 0u : (sfunc << 3 | ops));
                        if (back) /* the _BF fields, front ones set to something else */
                            zs |= sfunc << 15 | op << 18 | op << 21 | op << 24 | 7u << 3 | 1u << 6;
                        s.reg[R500_RB_ZB_ZSTENCILCNTL] = zs;
                        uint32_t rm = ref | 0xffu << 8 | wmask << 16;
                        s.reg[back ? R500_RB_ZB_STENCILREFMASK_BF : R500_RB_ZB_STENCILREFMASK] = rm;
                        if (back)
                            s.reg[R500_RB_ZB_STENCILREFMASK] = 0x99 | 0xffu << 8 | 0xffu << 16;
                        uint8_t cmem[8] = {0}, zmem[16] = {0};
                        r500_rb_memory m = {.color = {cmem}, .color_size = {8}, .depth = zmem,
                                            .depth_size = 16};
                        r500_rb rb;
                        ls_diag d;
                        assert_int_equal(r500_rb_bind(&rb, &s, &m, 1, 1, NULL, &d), LS_OK);
                        r500_rb_clear_depth(&rb, 0.25f, (uint8_t)v);
                        r500_rb_quad q = {.mask = 1, .z = {0.75f}, .back_face = back,
                                          .color = {{{1, 1, 1, 1}}}};
                        r500_rb_quad_write(&rb, &q, NULL);
                        /* GL: KEEP ZERO REPLACE INCR DECR INVERT INCR_WRAP DECR_WRAP */
                        unsigned nv;
                        switch (op) {
                        case 0: nv = v; break;
                        case 1: nv = 0; break;
                        case 2: nv = ref; break;
                        case 3: nv = v == 255 ? 255 : v + 1; break;
                        case 4: nv = v == 0 ? 0 : v - 1; break;
                        case 5: nv = 255 - v; break;
                        case 6: nv = (v + 1) % 256; break;
                        default: nv = (v + 255) % 256; break;
                        }
                        unsigned want = (v & ~wmask) | (nv & wmask);
                        assert_int_equal(zmem[0], want);
                        assert_int_equal(cmem[0], outcome == 2 ? 255 : 0);
                    }
}

/* A depth-only draw (a framebuffer without colour buffers): r300 writes
 * US_OUT_FMT_0 = C4_8 BGRA and RB3D_COLOR_CHANNEL_MASK = 0 but leaves
 * RB3D_COLORPITCH0 (and its relocation) as the last colour buffer set it:
 * here ARGB2101010, a pair C4_8 does not make (fbo-blit-d24s8 on a 10-bit
 * GBM window). Nothing is written to the colour buffer, so the bind must not
 * refuse the pair, and the depth is written. With a component enabled the
 * same pair is refused. */
static void test_depth_only_draw(void **st)
{
    (void)st;
    r500_rb_state s;
    r500_rb_state_init(&s);
    set_target(&s, 0, out_fmt(0, SB, SG, SR, SA, 0), R500_CB_ARGB2101010, 2, 0, 0);
    s.reg[R500_RB_RB3D_COLOR_CHANNEL_MASK] = 0;
    s.reg[R500_RB_ZB_FORMAT] = 2;
    s.reg[R500_RB_ZB_CNTL] = 2u | 4u; /* Z_ENABLE, ZWRITEENABLE */
    s.reg[R500_RB_ZB_ZSTENCILCNTL] = 7; /* ALWAYS */
    s.reg[R500_RB_ZB_DEPTHPITCH] = 4;
    uint8_t cmem[8], zmem[16];
    memset(cmem, 0xee, sizeof cmem);
    memset(zmem, 0, sizeof zmem);
    r500_rb_memory m = {.color = {cmem}, .color_size = {8}, .depth = zmem, .depth_size = 16};
    r500_rb rb;
    ls_diag d;
    assert_int_equal(r500_rb_bind(&rb, &s, &m, 1, 1, NULL, &d), LS_OK);
    r500_rb_quad q = {.mask = 1, .z = {0.3f}, .color = {{{1, 1, 1, 1}}}};
    r500_rb_stats stats = {0};
    r500_rb_quad_write(&rb, &q, &stats);
    uint32_t word = zmem[0] | zmem[1] << 8 | (uint32_t)zmem[2] << 16 | (uint32_t)zmem[3] << 24;
    assert_int_equal(word >> 8, (uint32_t)floor(0.3 * 16777215.0 + 0.5)); /* 0x4ccccd */
    for (int i = 0; i < 8; i++)
        assert_int_equal(cmem[i], 0xee);
    /* the ZPASS count (occlusion queries) counts it though no colour is
     * written; a fragment that fails the depth test is not counted */
    assert_int_equal(stats.zpass, 1);
    assert_int_equal(stats.pixels_written, 1);
    s.reg[R500_RB_ZB_ZSTENCILCNTL] = 1; /* LESS: 0.3 is not less than the stored 0.3 */
    assert_int_equal(r500_rb_bind(&rb, &s, &m, 1, 1, NULL, &d), LS_OK);
    r500_rb_quad_write(&rb, &q, &stats);
    assert_int_equal(stats.zpass, 1);
    assert_int_equal(stats.depth_failed, 1);
    s.reg[R500_RB_ZB_ZSTENCILCNTL] = 7;
    /* no colour relocation at all: the same */
    r500_rb_memory mz = {.depth = zmem, .depth_size = 16};
    assert_int_equal(r500_rb_bind(&rb, &s, &mz, 1, 1, NULL, &d), LS_OK);
    /* a component enabled: the pair is refused */
    s.reg[R500_RB_RB3D_COLOR_CHANNEL_MASK] = 0xf;
    assert_int_equal(r500_rb_bind(&rb, &s, &m, 1, 1, NULL, &d), LS_ERR_UNSUPPORTED);
    assert_non_null(strstr(d.msg, "is not a pair the model writes"));
}

static void test_alpha_test(void **st)
{
    (void)st;
    for (int mode = 0; mode < 3; mode++) /* 8-bit, 10-bit, fp16 */
        for (int f = 0; f < 8; f++)
            for (int rel = -1; rel <= 1; rel++) {
                r500_rb_state s;
                r500_rb_state_init(&s);
                set_target(&s, 0, out_fmt(0, SB, SG, SR, SA, 0), R500_CB_ARGB8888, 2, 0, 0);
                /* AF_FUNC in GL's order (fg_alpha_func.txt) */
                uint32_t af = (unsigned)f << 8 | 1u << 11;
                float a;
                if (mode == 0) {
                    af |= 1u << 12 | 100u;
                    a = (100 + rel) / 255.0f;
                } else if (mode == 1) {
                    s.reg[R500_RB_FG_ALPHA_VALUE] = 700;
                    a = (700 + rel) / 1023.0f;
                } else {
                    af |= 1u << 28;
                    s.reg[R500_RB_FG_ALPHA_VALUE] = 0x3800; /* 0.5 */
                    a = 0.5f + rel / 1024.0f;            /* a neighbouring half */
                }
                s.reg[R500_RB_FG_ALPHA_FUNC] = af;
                uint8_t cmem[8] = {0};
                r500_rb_memory m = {.color = {cmem}, .color_size = {8}};
                r500_rb rb;
                ls_diag d;
                assert_int_equal(r500_rb_bind(&rb, &s, &m, 1, 1, NULL, &d), LS_OK);
                r500_rb_quad q = {.mask = 1, .color = {{{1, 1, 1, a}}}};
                r500_rb_quad_write(&rb, &q, NULL);
                assert_int_equal(cmem[2], gl_cmp(f, rel, 0) ? 255 : 0);
            }
}

static void test_rop_and_masks(void **st)
{
    (void)st;
    /* GL logic ops in PIPE_LOGICOP order (which Mesa writes as ROP) */
    for (unsigned op = 0; op < 16; op++) {
        r500_rb_state s;
        r500_rb_state_init(&s);
        set_target(&s, 0, out_fmt(0, SB, SG, SR, SA, 0), R500_CB_ARGB8888, 2, 0, 0);
        s.reg[R500_RB_RB3D_ROPCNTL] = 4u | op << 8;
        uint8_t cmem[8] = {0x0f, 0x33, 0x55, 0xcc};
        r500_rb_memory m = {.color = {cmem}, .color_size = {8}};
        r500_rb rb;
        ls_diag d;
        assert_int_equal(r500_rb_bind(&rb, &s, &m, 1, 1, NULL, &d), LS_OK);
        const uint8_t src[4] = {0x3c, 0x5a, 0xff, 0x00}; /* B G R A */
        r500_rb_quad q = {.mask = 1};
        q.color[0][0][0] = src[2] / 255.0f, q.color[0][0][1] = src[1] / 255.0f;
        q.color[0][0][2] = src[0] / 255.0f, q.color[0][0][3] = src[3] / 255.0f;
        const uint8_t dst[4] = {0x0f, 0x33, 0x55, 0xcc};
        r500_rb_quad_write(&rb, &q, NULL);
        for (int i = 0; i < 4; i++) {
            uint8_t S = src[i], D = dst[i], r;
            switch (op) {
            case 0: r = 0; break;
            case 1: r = (uint8_t)~(S | D); break;
            case 2: r = (uint8_t)(~S & D); break;
            case 3: r = (uint8_t)~S; break;
            case 4: r = (uint8_t)(S & ~D); break;
            case 5: r = (uint8_t)~D; break;
            case 6: r = S ^ D; break;
            case 7: r = (uint8_t)~(S & D); break;
            case 8: r = S & D; break;
            case 9: r = (uint8_t)~(S ^ D); break;
            case 10: r = D; break;
            case 11: r = (uint8_t)(~S | D); break;
            case 12: r = S; break;
            case 13: r = (uint8_t)(S | ~D); break;
            case 14: r = S | D; break;
            default: r = 0xff; break;
            }
            assert_int_equal(cmem[i], r);
        }
    }
    /* channel masks: BLUE_MASK..ALPHA_MASK gate C0..C3; MRT 1 has its own
     * with INDEPENDENT_COLOR_CHANNEL_MASK_ENABLE, else uses mask 0 */
    for (int indep = 0; indep < 2; indep++)
        for (unsigned mask = 0; mask < 256; mask += 7) {
            r500_rb_state s;
            r500_rb_state_init(&s);
            uint32_t of = out_fmt(0, SB, SG, SR, SA, 0);
            set_target(&s, 0, of, R500_CB_ARGB8888, 2, 0, 0);
            set_target(&s, 1, of, R500_CB_ARGB8888, 2, 0, 0);
            s.reg[R500_RB_RB3D_COLOR_CHANNEL_MASK] = mask;
            s.reg[R500_RB_RB3D_CCTL] = indep ? 1u << 12 : 0;
            uint8_t c0[8], c1[8];
            memset(c0, 0x11, 8), memset(c1, 0x22, 8);
            r500_rb_memory m = {.color = {c0, c1}, .color_size = {8, 8}};
            r500_rb rb;
            ls_diag d;
            assert_int_equal(r500_rb_bind(&rb, &s, &m, 1, 1, NULL, &d), LS_OK);
            r500_rb_quad q = {.mask = 1, .color = {{{1, 1, 1, 1}}, {{0, 0, 0, 0}}}};
            r500_rb_quad_write(&rb, &q, NULL);
            unsigned m1 = indep ? mask >> 4 & 0xf : mask & 0xf;
            for (int i = 0; i < 4; i++) {
                assert_int_equal(c0[i], (mask >> i & 1) ? 0xff : 0x11);
                assert_int_equal(c1[i], (m1 >> i & 1) ? 0x00 : 0x22);
            }
        }
}

/* depth from the shader, multiwrite, format 0 for every MRT, D3D factors,
 * READ_ENABLE, DISCARD_SRC_PIXELS with rb-discard = register */
static void test_more_registers(void **st)
{
    (void)st;
    uint32_t bgra = out_fmt(0, SB, SG, SR, SA, 0);
    r500_rb rb;
    ls_diag d;
    /* FG_DEPTH_SRC 1: US_W_FMT W24 from the US takes w; W_FMT 0 makes it 0;
     * W_SRC 1 takes the rasterizer's z */
    static const struct {
        uint32_t wfmt;
        float want;
    } wcases[] = {{1, 0.25f}, {0, 0.0f}, {1 | 4, 0.75f}};
    for (int c = 0; c < 3; c++) {
        r500_rb_state s;
        r500_rb_state_init(&s);
        set_target(&s, 0, bgra, R500_CB_ARGB8888, 2, 0, 0);
        s.reg[R500_RB_ZB_CNTL] = 2 | 4;
        s.reg[R500_RB_ZB_ZSTENCILCNTL] = 7; /* always */
        s.reg[R500_RB_ZB_FORMAT] = 0;
        s.reg[R500_RB_ZB_DEPTHPITCH] = 4;
        s.reg[R500_RB_FG_DEPTH_SRC] = 1;
        s.reg[R500_RB_US_W_FMT] = wcases[c].wfmt;
        uint8_t cm[8], zm[8];
        r500_rb_memory m = {.color = {cm}, .color_size = {8}, .depth = zm, .depth_size = 8};
        assert_int_equal(r500_rb_bind(&rb, &s, &m, 1, 1, NULL, &d), LS_OK);
        r500_rb_quad q = {.mask = 1, .w = {0.25f}, .z = {0.75f}};
        r500_rb_quad_write(&rb, &q, NULL);
        assert_int_equal(zm[0] | zm[1] << 8, un(wcases[c].want, 16));
    }
    /* NUM_MULTIWRITES 1: buffers 0 and 1 both take target 0; without
     * INDEPENDENT_COLORFORMAT_ENABLE buffer 1 has COLORPITCH0's format */
    {
        r500_rb_state s;
        r500_rb_state_init(&s);
        set_target(&s, 0, bgra, R500_CB_ARGB8888, 2, 0, 0);
        set_target(&s, 1, R500_OUT_UNUSED, R500_CB_RGB565, 2, 0, 0);
        s.reg[R500_RB_RB3D_CCTL] = 1u << 5;
        uint8_t c0[8] = {0}, c1[8] = {0};
        r500_rb_memory m = {.color = {c0, c1}, .color_size = {8, 8}};
        assert_int_equal(r500_rb_bind(&rb, &s, &m, 1, 1, NULL, &d), LS_OK);
        r500_rb_quad q = {.mask = 1, .color = {{{1, 0.5f, 0, 1}}, {{0, 0, 1, 0}}}};
        r500_rb_quad_write(&rb, &q, NULL);
        const uint8_t want[4] = {0, 128, 255, 255};
        assert_memory_equal(c0, want, 4);
        assert_memory_equal(c1, want, 4);
    }
    /* D3D_BOTHSRCALPHA (12) as SRCBLEND: source alpha and its inverse, as
     * GL's SRC_ALPHA / ONE_MINUS_SRC_ALPHA; READ_ENABLE 0: the destination
     * reads 0 */
    for (int read = 0; read < 2; read++) {
        uint8_t got[2][4];
        for (int k = 0; k < 2; k++) {
            r500_rb_state s;
            r500_rb_state_init(&s);
            set_target(&s, 0, bgra, R500_CB_ARGB8888, 2, 0, 0);
            s.reg[R500_RB_RB3D_BLENDCNTL] = 1u | (read ? 4u : 0u) |
                                            (k ? 12u << 16 | 1u << 24 : 38u << 16 | 39u << 24);
            uint8_t cm[8] = {0x40, 0x80, 0xc0, 0xff};
            r500_rb_memory m = {.color = {cm}, .color_size = {8}};
            assert_int_equal(r500_rb_bind(&rb, &s, &m, 1, 1, NULL, &d), LS_OK);
            r500_rb_quad q = {.mask = 1, .color = {{{1, 0.5f, 0.25f, 0.5f}}}};
            r500_rb_quad_write(&rb, &q, NULL);
            memcpy(got[k], cm, 4);
        }
        assert_memory_equal(got[0], got[1], 4);
        if (!read)
            assert_int_equal(got[0][2], un(128 / 255.0, 8)); /* 1 x 128/255 + 0 */
    }
    /* DISCARD_SRC_PIXELS 1 (alpha <= LTE threshold 0x01): honoured only with
     * rb-discard = register */
    for (int opt = 0; opt < 2; opt++) {
        r500_rb_state s;
        r500_rb_state_init(&s);
        set_target(&s, 0, bgra, R500_CB_ARGB8888, 2, 0, 0);
        s.reg[R500_RB_RB3D_BLENDCNTL] = 1u | 4u | 1u << 3 | 33u << 16 | 32u << 24;
        uint8_t cm[8] = {0};
        r500_rb_memory m = {.color = {cm}, .color_size = {8}};
        r500_rb_options o;
        r500_rb_options_default(&o);
        o.discard = opt ? R500_RBO_DISCARD_REGISTER : R500_RBO_DISCARD_IGNORE;
        assert_int_equal(r500_rb_bind(&rb, &s, &m, 1, 1, &o, &d), LS_OK);
        r500_rb_quad q = {.mask = 1, .color = {{{1, 1, 1, 1 / 255.0f}}}};
        r500_rb_stats stats = {0};
        r500_rb_quad_write(&rb, &q, &stats);
        assert_int_equal(stats.discarded, opt);
        assert_int_equal(cm[2], opt ? 0 : 255);
    }
}

/* ---- hostile registers ----------------------------------------------------- */

static void test_hostile(void **st)
{
    (void)st;
    uint8_t mem[4096];
    r500_rb_memory m = {.color = {mem}, .color_size = {sizeof mem}, .depth = mem,
                        .depth_size = sizeof mem};
    r500_rb rb;
    ls_diag d;
    r500_rb_state s;
    /* each case: register writes over r500_rb_state_init, the status and a
     * piece of the diagnostic that names the register */
    static const struct {
        struct {
            r500_rb_reg r;
            uint32_t v;
        } w[3];
        int w_, h_;
        bool no_depth;
        ls_status st;
        const char *names;
    } cases[] = {
        {{{R500_RB_RB3D_COLORPITCH0, 6u << 21}}, 16, 16, false, LS_ERR_RANGE, "RB3D_COLORPITCH0"},
        {{{R500_RB_RB3D_COLORPITCH0, 64u | 6u << 21}, {R500_RB_RB3D_COLOROFFSET0, 0x800}},
         64, 16, false, LS_ERR_RANGE, "RB3D_COLOROFFSET0"},
        {{{R500_RB_RB3D_COLORPITCH0, 16u | 11u << 21}}, 16, 16, false, LS_ERR_UNSUPPORTED,
         "US_OUT_FMT_0.OUT_FMT"},
        {{{R500_RB_RB3D_COLORPITCH0, 16u | 6u << 21}, {R500_RB_RB3D_BLENDCNTL, 1u | 20u << 16 | 33u << 24}},
         16, 16, false, LS_ERR_RANGE, "RB3D_BLENDCNTL.SRCBLEND"},
        {{{R500_RB_RB3D_COLORPITCH0, 16u | 6u << 21}, {R500_RB_ZB_CNTL, 2}, {R500_RB_ZB_FORMAT, 1}},
         16, 16, false, LS_ERR_UNSUPPORTED, "ZB_FORMAT.DEPTHFORMAT"},
        {{{R500_RB_RB3D_COLORPITCH0, 18u | 1u << 17 | 6u << 21}}, 16, 16, false, LS_ERR_RANGE,
         "multiple of the 4-pixel tile"},
        {{{R500_RB_RB3D_COLORPITCH0, 16u | 6u << 21}, {R500_RB_ZB_CNTL, 1}, {R500_RB_ZB_DEPTHPITCH, 16}},
         16, 16, true, LS_ERR_RANGE, "ZB_DEPTHOFFSET"},
        {{{R500_RB_RB3D_COLORPITCH0, 16u | 6u << 21}, {R500_RB_ZB_CNTL, 2 | 8}}, 16, 16, false,
         LS_ERR_UNSUPPORTED, "ZB_CNTL.ZSIGNED_COMPARE"},
    };
    r500_rb_memory nodepth = {.color = {mem}, .color_size = {sizeof mem}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        r500_rb_state_init(&s);
        for (int k = 0; k < 3; k++)
            if (cases[c].w[k].v || k == 0)
                s.reg[cases[c].w[k].r] = cases[c].w[k].v;
        ls_status got = r500_rb_bind(&rb, &s, cases[c].no_depth ? &nodepth : &m, cases[c].w_,
                                     cases[c].h_, NULL, &d);
        if (got != cases[c].st || !strstr(d.msg, cases[c].names))
            fail_msg("hostile case %zu: status %d, \"%s\"; want %d naming %s", c, got, d.msg,
                     cases[c].st, cases[c].names);
    }
    /* options by name */
    r500_rb_options o;
    r500_rb_options_default(&o);
    assert_int_equal(r500_rb_options_set(&o, "rb-round", "truncate", &d), LS_OK);
    assert_int_equal(o.round, R500_RBO_ROUND_TRUNCATE);
    assert_int_equal(r500_rb_options_set(&o, "rb-round", "sometimes", &d), LS_ERR_ARG);
    assert_non_null(strstr(d.msg, "nearest, truncate"));
    assert_int_equal(r500_rb_options_set(&o, "rb-nothing", "x", &d), LS_ERR_ARG);
}

/* rb-round and rb-dither change exactly what they say */
static void test_options(void **st)
{
    (void)st;
    r500_rb_state s;
    r500_rb_state_init(&s);
    set_target(&s, 0, out_fmt(0, SB, SG, SR, SA, 0), R500_CB_RGB565, 2, 0, 0);
    uint8_t mem[4] = {0};
    r500_rb_memory m = {.color = {mem}, .color_size = {4}};
    r500_rb_options o;
    r500_rb_options_default(&o);
    r500_rb rb;
    ls_diag d;
    /* red 0.5: 15.5 of 31 -> 16 (nearest); 15 (truncate); via 8 bits
     * (128) truncated to 5 bits: 16; blue 0.2: 6.2 -> 6, 6, 51 >> 3 = 6;
     * green 0.99: 62.37 -> 62, 62, 252 >> 2 = 63 */
    const float c[4] = {0.5f, 0.99f, 0.2f, 1};
    const unsigned want[3][3] = {{16, 62, 6}, {15, 62, 6}, {16, 63, 6}};
    for (int k = 0; k < 3; k++) {
        r500_rb_options_default(&o);
        if (k == 1)
            o.round = R500_RBO_ROUND_TRUNCATE;
        if (k == 2)
            o.dither = R500_RBO_DITHER_REGISTER; /* DITHER_CTL 0: truncate */
        assert_int_equal(r500_rb_bind(&rb, &s, &m, 1, 1, &o, &d), LS_OK);
        r500_rb_quad q = {.mask = 1};
        memcpy(q.color[0][0], c, sizeof c);
        r500_rb_quad_write(&rb, &q, NULL);
        unsigned v = mem[0] | mem[1] << 8;
        assert_int_equal(v >> 11, want[k][0]);
        assert_int_equal(v >> 5 & 63, want[k][1]);
        assert_int_equal(v & 31, want[k][2]);
    }
}

/* rb-beyond-pitch: a target wider than its pitch (r300's CBZB clear scissors
 * align(width, 64) pixels, r300_texture.c cbzb_width). Expected bytes are
 * placed by hand: linear rows of `pitch` pixels; in a macro tile of 32x16
 * 4-byte pixels, micro tiles of 4x2 pixels, 32 bytes each, 8 to a row. */
static void test_beyond_pitch(void **st)
{
    (void)st;
    r500_rb_state s;
    r500_rb_state_init(&s);
    set_target(&s, 0, out_fmt(0, SB, SG, SR, SA, 0), R500_CB_ARGB8888, 4, 0, 0);
    uint8_t mem[64];
    r500_rb_memory m = {.color = {mem}, .color_size = {sizeof mem}};
    r500_rb_options o;
    r500_rb rb;
    ls_diag d;
    r500_rb_stats stats;
    uint8_t want[64], px[4];
    for (int mode = 0; mode < 2; mode++) {
        r500_rb_options_default(&o);
        if (mode)
            assert_int_equal(r500_rb_options_set(&o, "rb-beyond-pitch", "wrap", &d), LS_OK);
        else
            assert_int_equal(o.beyond_pitch, R500_RBO_PITCH_DROP); /* the default */
        memset(mem, 0xee, sizeof mem);
        memset(want, 0xee, sizeof want);
        memset(&stats, 0, sizeof stats);
        /* a 6x2 target over a pitch of 4 */
        assert_int_equal(r500_rb_bind(&rb, &s, &m, 6, 2, &o, &d), LS_OK);
        for (int y = 0; y < (mode ? 1 : 2); y++)
            for (int x = 0; x < 6; x++) {
                const float c[4] = {(float)x / 8, (float)y / 4, 0.5f, 1};
                r500_rb_quad q = {.x = {x}, .y = {y}, .mask = 1};
                memcpy(q.color[0][0], c, sizeof c);
                r500_rb_quad_write(&rb, &q, &stats);
                p_bgra8(c, px);
                /* drop: (x, y) at byte 16 y + 4 x for x < 4 only; wrap
                 * (row 0 only): (4, 0) and (5, 0) at bytes 16 and 20, where
                 * row 1 starts */
                if (mode || x < 4)
                    memcpy(want + 16 * y + 4 * x, px, 4);
            }
        assert_memory_equal(mem, want, sizeof mem);
        assert_int_equal(stats.beyond_pitch, mode ? 0 : 4);
        assert_int_equal(stats.pixels_written, mode ? 6 : 8);
        /* the bytes a 6x2 target needs: drop 32 (two rows of 4), wrap 40
         * ((2 - 1) * 4 + 6 pixels) */
        m.color_size[0] = 36;
        ls_status got = r500_rb_bind(&rb, &s, &m, 6, 2, &o, &d);
        assert_int_equal(got, mode ? LS_ERR_RANGE : LS_OK);
        if (mode)
            assert_non_null(strstr(d.msg, "needs bytes up to 40"));
        m.color_size[0] = sizeof mem;
    }

    /* macro- and micro-tiled 32x16 pixels of 4 bytes (one 2 KB macro tile
     * per pitch), drawn 64 wide: the CBZB clear of a 32-pixel-wide buffer */
    static uint8_t big[4096];
    r500_rb_memory mb = {.color = {big}, .color_size = {sizeof big}};
    set_target(&s, 0, out_fmt(0, SB, SG, SR, SA, 0), R500_CB_ARGB8888, 32, 1, 1);
    for (int mode = 0; mode < 2; mode++) {
        r500_rb_options_default(&o);
        o.beyond_pitch = mode ? R500_RBO_PITCH_WRAP : R500_RBO_PITCH_DROP;
        memset(big, 0, sizeof big);
        assert_int_equal(r500_rb_bind(&rb, &s, &mb, 64, 16, &o, &d), LS_OK);
        const float c[4] = {0.25f, 0.5f, 0.75f, 1};
        p_bgra8(c, px);
        /* (5, 3): micro tile (1, 1) = the 9th of the macro tile, pixel (1, 1)
         * of it: 9 * 32 + (4 + 1) * 4 = 308; (37, 3) is the same pixel of
         * the second macro tile: 2048 + 308 under wrap */
        int xs[2] = {5, 37};
        for (int i = 0; i < 2; i++) {
            r500_rb_quad q = {.x = {xs[i]}, .y = {3}, .mask = 1};
            memcpy(q.color[0][0], c, sizeof c);
            r500_rb_quad_write(&rb, &q, NULL);
        }
        assert_memory_equal(big + 308, px, 4);
        uint8_t zero[4] = {0};
        assert_memory_equal(big + 2048 + 308, mode ? px : zero, 4);
        size_t nz = 0;
        for (size_t i = 0; i < sizeof big; i++)
            nz += big[i] != 0;
        assert_int_equal(nz, mode ? 8 : 4);
        /* one macro tile of memory: enough for drop, not for wrap */
        mb.color_size[0] = 2048;
        assert_int_equal(r500_rb_bind(&rb, &s, &mb, 64, 16, &o, &d), mode ? LS_ERR_RANGE : LS_OK);
        mb.color_size[0] = sizeof big;
    }
}

/* every option is documented where docs/assumptions.md says options are */
static void test_options_documented(void **st)
{
    (void)st;
    char *doc = read_doc("assumptions.md");
    const char *sec = strstr(doc, "## R500: render backend");
    assert_non_null(sec);
    r500_rb_options o;
    ls_diag d;
    for (int i = 0; r500_rb_option_names[i]; i++) {
        char head[64];
        snprintf(head, sizeof head, "### `%s`", r500_rb_option_names[i]);
        if (!strstr(doc, head))
            fail_msg("docs/assumptions.md has no entry %s", head);
        r500_rb_options_default(&o);
        assert_int_equal(r500_rb_options_set(&o, r500_rb_option_names[i], "bogus", &d),
                         LS_ERR_ARG);
    }
    free(doc);
}

/* ---- Mesa's own register sets, and llvmpipe's bytes ----------------------- */

/* The registers Mesa's r300 driver wrote for each corpus draw (its RGBA8
 * render target, blending off, no depth) bind; llvmpipe's float result
 * written through them comes out as the bytes llvmpipe itself stored
 * (llvmpipe.ppm, its RGBA8 framebuffer). */
static void test_mesa_corpus(void **st)
{
    (void)st;
    const char *corpus = ls_test_corpus();
    if (!corpus)
        skip();
    static const char *const names[] = {"01_if_else", "04_loop_const_large", "06_loop_break",
                                        "08_discard_branch", "11_fragcoord_branch",
                                        "14_if_else_heavy"};
    int checked = 0;
    for (size_t ni = 0; ni < sizeof names / sizeof names[0]; ni++) {
        char path[1024];
        size_t n = 0;
        snprintf(path, sizeof path, "%s/mesa-r300/out/%s/cs/cs_0000.ib", corpus, names[ni]);
        uint32_t *ib = slurp(path, &n);
        if (!ib)
            continue;
        mesa_cs cs;
        ls_diag d;
        assert_int_equal(mesa_cs_decode(path, ib, n / 4, &cs, &d), LS_OK);
        assert_true(cs.ndraws > 0);
        const mesa_cs_state *ms = &cs.draws[cs.ndraws - 1].state;
        r500_rb_state s;
        r500_rb_state_from_regfile(&s, ms->reg, ms->written, MESA_CS_NREGS);
        int written = 0;
        for (unsigned r = 0; r < R500_RB_NREGS; r++)
            written += ms->written[r500_rb_reg_addr((r500_rb_reg)r) / 4];
        assert_true(written >= 4);
        /* Mesa's render target: B8G8R8A8 (C0 blue ... C3 alpha), ARGB8888 */
        assert_int_equal(r500_rb_get(&s, R500_RB_RB3D_COLORPITCH0, R500_RBF_COLORFORMAT),
                         R500_CB_ARGB8888);
        enum { N = 16 };
        unsigned pitch = s.reg[R500_RB_RB3D_COLORPITCH0] & 0x3ffe;
        size_t size = (size_t)pitch * 32 * 16 + 4096;
        uint8_t *cb = calloc(1, size);
        r500_rb_memory m = {.color = {cb}, .color_size = {size}};
        s.reg[R500_RB_RB3D_COLOROFFSET0] = 0; /* the relocation's buffer starts here */
        r500_rb rb;
        if (r500_rb_bind(&rb, &s, &m, N, N, NULL, &d) != LS_OK)
            fail_msg("%s: Mesa's registers do not bind: %s", names[ni], d.msg);
        snprintf(path, sizeof path, "%s/mesa-r300/out/%s/llvmpipe_rgba32f.bin", corpus, names[ni]);
        float *img = slurp(path, &n);
        snprintf(path, sizeof path, "%s/mesa-r300/out/%s/llvmpipe.ppm", corpus, names[ni]);
        size_t pn = 0;
        uint8_t *ppm = slurp(path, &pn);
        assert_non_null(img);
        assert_non_null(ppm);
        assert_int_equal(n, N * N * 16);
        const uint8_t *pix = ppm + pn - N * N * 3; /* P6 header, then rows top first */
        for (int y = 0; y < N; y++)
            for (int x = 0; x < N; x++) {
                r500_rb_quad q = {.x = {x}, .y = {y}, .mask = 1};
                memcpy(q.color[0][0], img + ((size_t)y * N + (size_t)x) * 4, 16);
                r500_rb_quad_write(&rb, &q, NULL);
            }
        float back[N * N * 4];
        r500_rb_read_color(&rb, 0, back);
        for (int y = 0; y < N; y++)
            for (int x = 0; x < N; x++)
                for (int c = 0; c < 3; c++) {
                    /* raw images are bottom row first, the PPM top row first */
                    unsigned got = (unsigned)lrintf(back[((size_t)y * N + (size_t)x) * 4 + c] * 255.0f);
                    unsigned want = pix[((size_t)(N - 1 - y) * N + (size_t)x) * 3 + c];
                    if (got != want)
                        fail_msg("%s (%d,%d) channel %d: %u, llvmpipe stored %u", names[ni], x, y,
                                 c, got, want);
                }
        checked++;
        free(img);
        free(ppm);
        free(cb);
        free(ib);
        mesa_cs_free(&cs);
    }
    assert_true(checked > 0);
}

/* ---- textures in draws ----------------------------------------------------- */

static void test_job_units(void **st)
{
    (void)st;
    /* a 4x4 W8Z8Y8X8 texture in unit 5, logical ID 2, micro-tiled; the
     * program samples TEX_ID 2 with uv and writes the texel */
    enum { N = 4 };
    uint8_t tex[64 * 4];
    memset(tex, 0, sizeof tex);
    r500_tx_state ts;
    memset(&ts, 0, sizeof ts);
    unsigned u = 5;
    r500_tx_set(&ts, u, R500_TXF_TXWIDTH, N - 1);
    r500_tx_set(&ts, u, R500_TXF_TXHEIGHT, N - 1);
    r500_tx_set(&ts, u, R500_TXF_TXFORMAT, R500_TXFMT_W8Z8Y8X8);
    r500_tx_set(&ts, u, R500_TXF_SEL_RED, R500_TXSEL_Z);
    r500_tx_set(&ts, u, R500_TXF_SEL_GREEN, R500_TXSEL_Y);
    r500_tx_set(&ts, u, R500_TXF_SEL_BLUE, R500_TXSEL_X);
    r500_tx_set(&ts, u, R500_TXF_SEL_ALPHA, R500_TXSEL_W);
    r500_tx_set(&ts, u, R500_TXF_MAG_FILTER, 1);
    r500_tx_set(&ts, u, R500_TXF_MIN_FILTER, 1);
    r500_tx_set(&ts, u, R500_TXF_ID, 2);
    r500_tx_set(&ts, u, R500_TXF_MICRO_TILE, 1);
    r500_tx_set(&ts, 0, R500_TXF_TEX_ENABLE, 1u << u);
    /* the texels, placed by the texture unit's own addressing */
    r500_txu t;
    ls_diag d;
    assert_int_equal(r500_txu_bind(&t, &ts, u, tex, sizeof tex, NULL, &d), LS_OK);
    for (int y = 0; y < N; y++)
        for (int x = 0; x < N; x++) {
            uint8_t *p = tex + r500_txu_texel_addr(&t, 0, 0, x, y);
            p[0] = (uint8_t)(x * 60), p[1] = (uint8_t)(y * 60), p[2] = 200, p[3] = 255; /* B G R A */
        }
    /* the same state through a flat register file, as a stream executor keeps it */
    static uint32_t regfile[0x4000];
    static uint8_t wr[0x4000];
    for (unsigned r = 0; r < R500_TXR_COUNT; r++)
        for (unsigned k = 0; k < R500_TX_UNITS; k++) {
            /* TX_FILTER4 and TX_ENABLE: one register for all units */
            bool shared = r == R500_TXR_FILTER4 || r == R500_TXR_ENABLE;
            uint32_t a = r500_tx_reg_addr((r500_tx_reg)r, k);
            regfile[a / 4] = ts.reg[r][shared ? 0 : k];
            wr[a / 4] = 1;
        }
    r500_tx_state ts2;
    r500_tx_state_from_regfile(&ts2, regfile, wr, 0x4000);
    assert_memory_equal(&ts2, &ts, sizeof ts);
    r500_tx_memory mem[R500_TX_UNITS] = {{0}};
    mem[u].data = tex;
    mem[u].size = sizeof tex;
    const char *src = "TEX temp[1].rgba = LD tex[2].rgba temp[0].rgba ;\n"
                      "TEX temp[2].rgba = LD tex[3].rgba temp[0].rgba ;\n"
                      "OUT src0.a = temp[1], src0.rgb = temp[1], src1.rgb = temp[2] :\n"
                      "  out[0].a = MAX src0.a src0.a , out[0].rgb = MAD src0.rgb src0.111 src1.rgb ;\n";
    r500_job job;
    r500_job_init(&job);
    assert_int_equal(r500_job_load_mem(&job, "t.fs.asm", src, strlen(src), &d), LS_OK);
    assert_int_equal(r500_job_bind_tx_units(&job, &ts, mem, NULL, &d), LS_OK);
    job.width = job.height = N;
    job.thread_size = 16;
    job.workers = 1;
    job.inputs[0].kind = R500_INPUT_UV;
    r500_result r;
    assert_int_equal(r500_run(&job, &r, NULL, &d), LS_OK);
    for (int y = 0; y < N; y++)
        for (int x = 0; x < N; x++) {
            const float *p = r.target[0] + ((size_t)y * N + (size_t)x) * 4;
            /* unit 3 is disabled: (0, 0, 0, 1) adds nothing to RGB */
            assert_float_equal(p[0], 200 / 255.0f, 1e-6);
            assert_float_equal(p[1], y * 60 / 255.0f, 1e-6);
            assert_float_equal(p[2], x * 60 / 255.0f, 1e-6);
            assert_float_equal(p[3], 1.0f, 1e-6);
        }
    r500_result_free(&r);
    /* a unit whose texture does not fit its buffer names its register and
     * leaves the job as it was */
    mem[u].size = 16;
    assert_int_equal(r500_job_bind_tx_units(&job, &ts, mem, NULL, &d), LS_ERR_RANGE);
    assert_non_null(strstr(d.msg, "TX_OFFSET_5"));
    assert_non_null(job.tex[2]);
    r500_job_free(&job);
}

/* ---- docs/r500-rb.md: every ```rb block runs ------------------------------ */

static void test_doc_examples(void **st)
{
    (void)st;
    char *doc = read_doc("r500-rb.md");
    int blocks = 0;
    for (char *p = doc; (p = strstr(p, "```rb\n")); blocks++) {
        p += 6;
        char *end = strstr(p, "```");
        assert_non_null(end);
        *end = 0;
        r500_rb_state s;
        r500_rb_state_init(&s);
        uint8_t dst[16] = {0}, want[16] = {0}, mem[16];
        int ndst = 0, nwant = 0;
        float src[4] = {0};
        char *save = NULL;
        for (char *line = strtok_r(p, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
            char *tok, *s2 = NULL;
            char *first = strtok_r(line, " ", &s2);
            if (!first)
                continue;
            if (!strcmp(first, "dst") || !strcmp(first, "=>")) {
                uint8_t *b = first[0] == 'd' ? dst : want;
                int *cnt = first[0] == 'd' ? &ndst : &nwant;
                while ((tok = strtok_r(NULL, " ", &s2)) && *cnt < 16)
                    b[(*cnt)++] = (uint8_t)strtoul(tok, NULL, 16);
            } else if (!strcmp(first, "src")) {
                for (int c = 0; c < 4 && (tok = strtok_r(NULL, " ", &s2)); c++)
                    src[c] = strtof(tok, NULL);
            } else {
                for (tok = first; tok; tok = strtok_r(NULL, " ", &s2)) {
                    char *eq = strchr(tok, '=');
                    assert_non_null(eq);
                    *eq = 0;
                    int found = 0;
                    for (unsigned r = 0; r < R500_RB_NREGS; r++)
                        if (!strcmp(tok, r500_rb_reg_name((r500_rb_reg)r))) {
                            s.reg[r] = (uint32_t)strtoul(eq + 1, NULL, 0);
                            found = 1;
                        }
                    if (!found)
                        fail_msg("docs/r500-rb.md block %d: no register %s", blocks + 1, tok);
                }
            }
        }
        assert_true(ndst > 0 && ndst == nwant);
        memcpy(mem, dst, sizeof mem);
        r500_rb_memory m = {.color = {mem}, .color_size = {sizeof mem}};
        r500_rb rb;
        ls_diag d;
        if (r500_rb_bind(&rb, &s, &m, 1, 1, NULL, &d) != LS_OK)
            fail_msg("docs/r500-rb.md block %d: %s", blocks + 1, d.msg);
        r500_rb_quad q = {.mask = 1};
        memcpy(q.color[0][0], src, sizeof src);
        r500_rb_quad_write(&rb, &q, NULL);
        for (int i = 0; i < nwant; i++)
            if (mem[i] != want[i])
                fail_msg("docs/r500-rb.md block %d: byte %d is %02x, the page says %02x",
                         blocks + 1, i, mem[i], want[i]);
        p = end + 3;
    }
    free(doc);
    assert_true(blocks >= 3);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_registers),   cmocka_unit_test(test_format_bytes),
        cmocka_unit_test(test_tiling),      cmocka_unit_test(test_blend_model),
        cmocka_unit_test(test_depth_stencil), cmocka_unit_test(test_alpha_test),
        cmocka_unit_test(test_rop_and_masks), cmocka_unit_test(test_hostile),
        cmocka_unit_test(test_options),     cmocka_unit_test(test_beyond_pitch),
        cmocka_unit_test(test_depth_only_draw),
        cmocka_unit_test(test_job_units),
        cmocka_unit_test(test_doc_examples), cmocka_unit_test(test_options_documented),
        cmocka_unit_test(test_mesa_corpus), cmocka_unit_test(test_more_registers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
