/* Texture units from registers (src/r500/txu.c). Every expectation comes
 * from code written here, separately from the library: a packer per format
 * (bit layouts restated from regs/bits/tx_format1.txt), a sequential writer
 * that lays texels out tile by tile (the order docs/r500-tex.md states), a
 * DXT decoder, and a double-precision sampling model with GL's wrap rules. */
#include "test_util.h"

#include <math.h>

#include "lockstep/r500_txu.h"

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;
static uint32_t rnd(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (uint32_t)(rng_state >> 11);
}
static double rndu(void)
{
    return rnd() / 4294967296.0 * 2.0;
}

/* ---- register table ---- */

static void test_reg_addresses(void **state)
{
    (void)state;
    /* 3d_registers.txt ranges */
    assert_int_equal(r500_tx_reg_addr(R500_TXR_FILTER0, 0), 0x4400);
    assert_int_equal(r500_tx_reg_addr(R500_TXR_FILTER0, 15), 0x443c);
    assert_int_equal(r500_tx_reg_addr(R500_TXR_FILTER1, 15), 0x447c);
    assert_int_equal(r500_tx_reg_addr(R500_TXR_FORMAT0, 1), 0x4484);
    assert_int_equal(r500_tx_reg_addr(R500_TXR_FORMAT1, 15), 0x44fc);
    assert_int_equal(r500_tx_reg_addr(R500_TXR_FORMAT2, 15), 0x453c);
    assert_int_equal(r500_tx_reg_addr(R500_TXR_OFFSET, 15), 0x457c);
    assert_int_equal(r500_tx_reg_addr(R500_TXR_CHROMA_KEY, 15), 0x45bc);
    assert_int_equal(r500_tx_reg_addr(R500_TXR_BORDER_COLOR, 15), 0x45fc);
    assert_int_equal(r500_tx_reg_addr(R500_TXR_FILTER4, 7), 0x4110);
    assert_int_equal(r500_tx_reg_addr(R500_TXR_ENABLE, 7), 0x4104);
    r500_tx_state s;
    memset(&s, 0, sizeof s);
    assert_true(r500_tx_write(&s, 0x4548, 0x1234));
    assert_int_equal(s.reg[R500_TXR_OFFSET][2], 0x1234);
    assert_false(r500_tx_write(&s, 0x4600, 1));
    assert_false(r500_tx_write(&s, 0x4402, 1));
    assert_false(r500_tx_write(&s, 0x4114, 1));
    assert_true(r500_tx_write(&s, 0x4104, 0x8001));
    assert_int_equal(r500_tx_get(&s, 9, R500_TXF_TEX_ENABLE), 0x8001);
    assert_string_equal(r500_tx_reg_name(R500_TXR_BORDER_COLOR), "TX_BORDER_COLOR");
}

static void test_fields(void **state)
{
    (void)state;
    /* hand-placed fields from regs/bits/tx_*.txt */
    r500_tx_state s;
    memset(&s, 0, sizeof s);
    r500_tx_set(&s, 3, R500_TXF_TXPITCH, 0x3fff);
    assert_int_equal(s.reg[R500_TXR_FORMAT2][3], 0x3fff);
    r500_tx_set(&s, 3, R500_TXF_SEL_BLUE, 5);
    assert_int_equal(s.reg[R500_TXR_FORMAT1][3], 5u << 18);
    r500_tx_set(&s, 3, R500_TXF_NUM_LEVELS, 12);
    assert_int_equal(s.reg[R500_TXR_FORMAT0][3], 12u << 26);
    r500_tx_set(&s, 3, R500_TXF_LOD_BIAS, 0x3ff);
    assert_int_equal(s.reg[R500_TXR_FILTER1][3], 0x3ffu << 3);
    r500_tx_set(&s, 3, R500_TXF_TXOFFSET, 1);
    assert_int_equal(s.reg[R500_TXR_OFFSET][3], 32);
    r500_tx_set(&s, 9, R500_TXF_PHASE, 8);
    assert_int_equal(s.reg[R500_TXR_FILTER4][0], 8u << 23);
    /* no two fields of one register overlap; set/get round trip */
    for (unsigned a = 0; a < R500_TXF_COUNT; a++) {
        const r500_tx_field_desc *fa = r500_tx_field_info((r500_tx_field)a);
        assert_true(fa->lo + fa->width <= 32);
        for (unsigned b = a + 1; b < R500_TXF_COUNT; b++) {
            const r500_tx_field_desc *fb = r500_tx_field_info((r500_tx_field)b);
            if (fa->reg == fb->reg)
                assert_true(fa->lo + fa->width <= fb->lo || fb->lo + fb->width <= fa->lo);
        }
        uint32_t v = rnd() & (fa->width == 32 ? 0xffffffffu : (1u << fa->width) - 1);
        memset(&s, 0, sizeof s);
        r500_tx_set(&s, 5, (r500_tx_field)a, v);
        assert_int_equal(r500_tx_get(&s, 5, (r500_tx_field)a), v);
    }
}

/* ---- reference packers ---- */

typedef struct tfmt {
    unsigned code; /* TXFORMAT + 32 * MSB */
    unsigned bytes;
    unsigned n;
    unsigned bits[4]; /* packed unorm widths X, Y, Z, W; 0 = special */
    int kind;         /* 0 packed, 1 half, 2 float, 3 y8x24 */
    const char *name;
} tfmt;

static const tfmt tfmts[] = {
    {0, 1, 1, {8}, 0, "X8"},
    {1, 2, 1, {16}, 0, "X16"},
    {2, 1, 2, {4, 4}, 0, "Y4X4"},
    {3, 2, 2, {8, 8}, 0, "Y8X8"},
    {4, 4, 2, {16, 16}, 0, "Y16X16"},
    {5, 1, 3, {2, 3, 3}, 0, "Z3Y3X2"},
    {6, 2, 3, {5, 6, 5}, 0, "Z5Y6X5"},
    {7, 2, 3, {5, 5, 6}, 0, "Z6Y5X5"},
    {10, 2, 4, {4, 4, 4, 4}, 0, "W4Z4Y4X4"},
    {11, 2, 4, {5, 5, 5, 1}, 0, "W1Z5Y5X5"},
    {12, 4, 4, {8, 8, 8, 8}, 0, "W8Z8Y8X8"},
    {13, 4, 4, {10, 10, 10, 2}, 0, "W2Z10Y10X10"},
    {14, 8, 4, {16, 16, 16, 16}, 0, "W16Z16Y16X16"},
    {24, 2, 1, {0}, 1, "16F"},
    {25, 4, 2, {0}, 1, "16F_16F"},
    {26, 8, 4, {0}, 1, "16F x4"},
    {27, 4, 1, {0}, 2, "32F"},
    {28, 8, 2, {0}, 2, "32F_32F"},
    {29, 16, 4, {0}, 2, "32F x4"},
    {38, 4, 2, {0}, 3, "Y8X24"},
};

/* half -> double, written from the IEEE 754 definition */
static double half_ref(uint16_t h)
{
    int e = (h >> 10) & 0x1f, m = h & 0x3ff;
    double v = e == 0 ? m * pow(2, -24) : e == 31 ? (m ? NAN : INFINITY) : (1024 + m) * pow(2, e - 25);
    return (h & 0x8000) ? -v : v;
}

/* A random texel: its bytes (little endian) and expected X, Y, Z, W. */
static void make_texel(const tfmt *f, bool sign8888, uint8_t *bytes, float exp[4])
{
    exp[0] = exp[1] = exp[2] = 0;
    exp[3] = 1;
    memset(bytes, 0, 16);
    if (f->kind == 0) {
        uint64_t word = 0;
        unsigned at = 0;
        for (unsigned k = 0; k < f->n; k++) {
            unsigned b = f->bits[k];
            uint64_t v = ((uint64_t)rnd() << 32 | rnd()) & ((1ull << b) - 1);
            word |= v << at;
            at += b;
            if (sign8888) {
                double sv = v >= 128 ? (double)v - 256 : (double)v;
                exp[k] = (float)fmax(sv / 127.0, -1.0);
            } else {
                exp[k] = (float)((double)v / (double)((1ull << b) - 1));
            }
        }
        for (unsigned i = 0; i < f->bytes; i++)
            bytes[i] = (uint8_t)(word >> (8 * i));
    } else if (f->kind == 1) {
        for (unsigned k = 0; k < f->n; k++) {
            uint16_t h;
            do
                h = (uint16_t)rnd();
            while (((h >> 10) & 0x1f) == 31);
            bytes[2 * k] = (uint8_t)h;
            bytes[2 * k + 1] = (uint8_t)(h >> 8);
            exp[k] = (float)half_ref(h);
        }
    } else if (f->kind == 2) {
        for (unsigned k = 0; k < f->n; k++) {
            float v = (float)((rndu() - 1.0) * 1e6);
            memcpy(bytes + 4 * k, &v, 4);
            exp[k] = v;
        }
    } else {
        uint32_t z = rnd() & 0xffffff, st = rnd() & 0xff, w = z << 8 | st;
        for (int i = 0; i < 4; i++)
            bytes[i] = (uint8_t)(w >> (8 * i));
        exp[0] = (float)(z / 16777215.0);
        exp[1] = (float)(st / 255.0);
    }
}

/* Tile shapes restated from r300_texture_desc.c: a micro tile is one 32-byte
 * line (linear: 32 bytes of one row), a macro tile 8 x 8 micro tiles. */
static void micro_shape(unsigned bytes, unsigned micro, unsigned *mw, unsigned *mh)
{
    if (micro == 0) {
        *mw = 32 / bytes;
        *mh = 1;
    } else if (micro == 2) {
        *mw = 4;
        *mh = 4;
    } else {
        switch (bytes) {
        case 1: *mw = 8; *mh = 4; break;
        case 2: *mw = 8; *mh = 2; break;
        case 4: *mw = 4; *mh = 2; break;
        default: *mw = 2; *mh = 2; break;
        }
    }
}

/* Lay out a w x h image (texel bytes in src, row-major) in memory by walking
 * the tiles in order and appending 32-byte lines: returns the bytes used. */
static size_t write_layout(const uint8_t *src, unsigned w, unsigned h, unsigned bytes,
                           unsigned micro, bool macro_req, uint8_t *dst)
{
    unsigned mw, mh;
    micro_shape(bytes, micro, &mw, &mh);
    bool macro = macro_req && w >= 8 * mw && h >= 8 * mh; /* MACRO_SWITCH = 0 */
    unsigned tw = macro ? 8 * mw : mw, th = macro ? 8 * mh : mh;
    unsigned pitch = (w + tw - 1) / tw * tw, rows = (h + th - 1) / th * th;
    size_t out = 0;
    for (unsigned ty = 0; ty < rows; ty += th)
        for (unsigned tx = 0; tx < pitch; tx += tw)
            for (unsigned my = 0; my < th; my += mh)
                for (unsigned mx = 0; mx < tw; mx += mw)
                    for (unsigned y = 0; y < mh; y++)
                        for (unsigned x = 0; x < mw; x++) {
                            unsigned X = tx + mx + x, Y = ty + my + y;
                            for (unsigned b = 0; b < bytes; b++)
                                dst[out++] = X < w && Y < h ? src[((size_t)Y * w + X) * bytes + b] : 0xEE;
                        }
    return out;
}

static void set_size(r500_tx_state *s, unsigned u, unsigned w, unsigned h)
{
    r500_tx_set(s, u, R500_TXF_TXWIDTH, (w - 1) & 0x7ff);
    r500_tx_set(s, u, R500_TXF_TXWIDTH_11, (w - 1) >> 11);
    r500_tx_set(s, u, R500_TXF_TXHEIGHT, (h - 1) & 0x7ff);
    r500_tx_set(s, u, R500_TXF_TXHEIGHT_11, (h - 1) >> 11);
}

static void base_state(r500_tx_state *s, unsigned u, unsigned code)
{
    memset(s, 0, sizeof *s);
    r500_tx_set(s, u, R500_TXF_TXFORMAT, code & 31);
    r500_tx_set(s, u, R500_TXF_TXFORMAT_MSB, code >> 5);
    r500_tx_set(s, u, R500_TXF_SEL_RED, 0);
    r500_tx_set(s, u, R500_TXF_SEL_GREEN, 1);
    r500_tx_set(s, u, R500_TXF_SEL_BLUE, 2);
    r500_tx_set(s, u, R500_TXF_SEL_ALPHA, 3);
    r500_tx_set(s, u, R500_TXF_MAG_FILTER, 1);
    r500_tx_set(s, u, R500_TXF_MIN_FILTER, 1);
}

static void check_format_layout(const tfmt *f, unsigned w, unsigned h, unsigned micro, bool macro,
                                bool sign)
{
    size_t n = (size_t)w * h;
    uint8_t *img = malloc(n * f->bytes);
    float *exp = malloc(n * 4 * sizeof *exp);
    size_t cap = (size_t)(w + 256) * (h + 64) * f->bytes + 4096;
    uint8_t *mem = malloc(cap);
    for (size_t i = 0; i < n; i++) {
        uint8_t b[16];
        make_texel(f, sign, b, exp + 4 * i);
        memcpy(img + i * f->bytes, b, f->bytes);
    }
    size_t base = 96; /* TXOFFSET = 3 */
    memset(mem, 0xEE, cap);
    size_t used = write_layout(img, w, h, f->bytes, micro, macro, mem + base);
    r500_tx_state s;
    unsigned u = 7;
    base_state(&s, u, f->code);
    set_size(&s, u, w, h);
    if (sign)
        s.reg[R500_TXR_FORMAT1][u] |= 0xfu << 5;
    r500_tx_set(&s, u, R500_TXF_MICRO_TILE, micro);
    r500_tx_set(&s, u, R500_TXF_MACRO_TILE, macro);
    r500_tx_set(&s, u, R500_TXF_TXOFFSET, 3);
    r500_txu t;
    ls_diag d;
    ls_status st = r500_txu_bind(&t, &s, u, mem, base + used, NULL, &d);
    if (st != LS_OK)
        fail_msg("%s %ux%u micro %u macro %d: %s", f->name, w, h, micro, macro, d.msg);
    /* one byte less is too little */
    r500_txu t2;
    assert_int_equal(r500_txu_bind(&t2, &s, u, mem, base + used - 1, NULL, &d), LS_ERR_RANGE);
    assert_non_null(strstr(d.msg, "TX_OFFSET_7"));
    for (unsigned y = 0; y < h; y++)
        for (unsigned x = 0; x < w; x++) {
            float c[4];
            r500_txu_texel_raw(&t, 0, 0, (int)x, (int)y, c);
            const float *e = exp + 4 * ((size_t)y * w + x);
            for (int k = 0; k < 4; k++)
                if (memcmp(&c[k], &e[k], 4) != 0)
                    fail_msg("%s micro %u macro %d texel (%u,%u) comp %d: %.9g, expected %.9g",
                             f->name, micro, macro, x, y, k, c[k], e[k]);
        }
    free(img);
    free(exp);
    free(mem);
}

static void test_formats_and_tiling(void **state)
{
    (void)state;
    static const unsigned sizes[][2] = {{64, 64}, {300, 40}, {5, 3}};
    for (size_t i = 0; i < sizeof tfmts / sizeof tfmts[0]; i++)
        for (unsigned micro = 0; micro < 3; micro++)
            for (int macro = 0; macro < 2; macro++)
                for (size_t z = 0; z < 3; z++) {
                    const tfmt *f = &tfmts[i];
                    if (micro == 2 && f->bytes != 2)
                        continue;
                    if (micro == 1 && f->bytes == 16)
                        continue;
                    check_format_layout(f, sizes[z][0], sizes[z][1], micro, macro, false);
                }
    /* signed components (SIGNED_COMP0..3), 8888 */
    check_format_layout(&tfmts[10], 64, 64, 1, true, true);
}

/* ---- DXT ---- */

static void ref_dxt_colour(const uint8_t *b, bool dxt1, int px, int py, double rgba[4])
{
    unsigned c[2] = {b[0] | b[1] << 8, b[2] | b[3] << 8};
    double pal[4][4];
    for (int i = 0; i < 2; i++) {
        unsigned r = c[i] >> 11, g = (c[i] >> 5) & 63, bl = c[i] & 31;
        pal[i][0] = r * 8 + r / 4;
        pal[i][1] = g * 4 + g / 16;
        pal[i][2] = bl * 8 + bl / 4;
        pal[i][3] = 255;
    }
    for (int k = 0; k < 3; k++) {
        if (!dxt1 || c[0] > c[1]) {
            pal[2][k] = floor((2 * pal[0][k] + pal[1][k] + 1) / 3);
            pal[3][k] = floor((pal[0][k] + 2 * pal[1][k] + 1) / 3);
        } else {
            pal[2][k] = floor((pal[0][k] + pal[1][k] + 1) / 2);
            pal[3][k] = 0;
        }
    }
    pal[2][3] = 255;
    pal[3][3] = (!dxt1 || c[0] > c[1]) ? 255 : 0;
    unsigned bits = b[4] | b[5] << 8 | b[6] << 16 | (unsigned)b[7] << 24;
    unsigned i = (bits >> (2 * (py * 4 + px))) & 3;
    for (int k = 0; k < 4; k++)
        rgba[k] = pal[i][k];
}

static void ref_dxt(int kind, const uint8_t *b, int px, int py, float out[4])
{
    double rgba[4];
    int t = py * 4 + px;
    if (kind == 1) {
        ref_dxt_colour(b, true, px, py, rgba);
    } else {
        ref_dxt_colour(b + 8, false, px, py, rgba);
        if (kind == 3) {
            rgba[3] = ((b[t / 2] >> (4 * (t % 2))) & 15) * 17;
        } else {
            double a0 = b[0], a1 = b[1], pal[8] = {a0, a1};
            for (int k = 2; k < 8; k++) {
                if (a0 > a1)
                    pal[k] = floor(((8 - k) * a0 + (k - 1) * a1 + 3) / 7);
                else
                    pal[k] = k < 6 ? floor(((6 - k) * a0 + (k - 1) * a1 + 2) / 5) : (k == 6 ? 0 : 255);
            }
            int bit = 3 * t;
            unsigned v = 0;
            for (int j = 0; j < 3; j++, bit++)
                v |= ((b[2 + bit / 8] >> (bit % 8)) & 1u) << j;
            rgba[3] = pal[v];
        }
    }
    for (int k = 0; k < 4; k++)
        out[k] = (float)(rgba[k] / 255.0);
}

static void test_dxt(void **state)
{
    (void)state;
    for (int kind = 1; kind <= 5; kind += 2) {
        unsigned code = kind == 1 ? 15 : kind == 3 ? 16 : 17, bs = kind == 1 ? 8 : 16;
        unsigned w = 37, h = 22, bw = (w + 3) / 4, bh = (h + 3) / 4;
        unsigned pitch_bytes = (bw * bs + 31) / 32 * 32; /* r300_texture_get_stride: align 32 */
        size_t size = (size_t)pitch_bytes * bh;
        uint8_t *mem = malloc(size);
        for (size_t i = 0; i < size; i++)
            mem[i] = (uint8_t)rnd();
        /* force both DXT1 modes to appear */
        mem[0] = 0x00, mem[1] = 0x10, mem[2] = 0xff, mem[3] = 0xff;
        for (int sw = 0; sw < 2; sw++) {
            r500_tx_state s;
            base_state(&s, 0, code);
            set_size(&s, 0, w, h);
            r500_tx_set(&s, 0, R500_TXF_DXTC_SWIZZLE, (uint32_t)sw);
            r500_txu t;
            ls_diag d;
            assert_int_equal(r500_txu_bind(&t, &s, 0, mem, size, NULL, &d), LS_OK);
            for (unsigned y = 0; y < h; y++)
                for (unsigned x = 0; x < w; x++) {
                    float e[4], c[4];
                    ref_dxt(kind, mem + (size_t)(y / 4) * pitch_bytes + (x / 4) * bs, x % 4, y % 4, e);
                    if (sw) {
                        float r = e[0];
                        e[0] = e[2];
                        e[2] = r;
                    }
                    r500_txu_texel_raw(&t, 0, 0, (int)x, (int)y, c);
                    for (int k = 0; k < 4; k++)
                        if (c[k] != e[k])
                            fail_msg("DXT%d (%u,%u) %d: %g vs %g", kind, x, y, k, c[k], e[k]);
                }
        }
        free(mem);
    }
}

/* RGTC (ATI1N, ATI2N): one 8-byte channel block per component, GL's RGTC
 * rules, 8-bit rounding as the DXT5 alpha above */
static double ref_bc4(const uint8_t *b, int t, bool sgn)
{
    double a0 = sgn ? (int8_t)b[0] : b[0], a1 = sgn ? (int8_t)b[1] : b[1];
    if (sgn) {
        if (a0 == -128)
            a0 = -127;
        if (a1 == -128)
            a1 = -127;
    }
    double pal[8] = {a0, a1};
    for (int k = 2; k < 8; k++) {
        if (a0 > a1)
            pal[k] = floor(((8 - k) * a0 + (k - 1) * a1 + 3) / 7);
        else if (k < 6)
            pal[k] = floor(((6 - k) * a0 + (k - 1) * a1 + 2) / 5);
        else
            pal[k] = k == 6 ? (sgn ? -127 : 0) : (sgn ? 127 : 255);
    }
    int bit = 3 * t;
    unsigned v = 0;
    for (int j = 0; j < 3; j++, bit++)
        v |= ((b[2 + bit / 8] >> (bit % 8)) & 1u) << j;
    return pal[v] / (sgn ? 127.0 : 255.0);
}

static void test_rgtc(void **state)
{
    (void)state;
    for (int two = 0; two < 2; two++)
        for (int sgn = 0; sgn < 2; sgn++) {
            unsigned bs = two ? 16 : 8, w = 13, h = 9, bw = (w + 3) / 4, bh = (h + 3) / 4;
            unsigned pitch_bytes = (bw * bs + 31) / 32 * 32;
            size_t size = (size_t)pitch_bytes * bh;
            uint8_t *mem = malloc(size);
            for (size_t i = 0; i < size; i++)
                mem[i] = (uint8_t)rnd();
            mem[0] = 0x80; /* -128 when signed */
            r500_tx_state s;
            base_state(&s, 0, two ? 31 : 37);
            set_size(&s, 0, w, h);
            if (sgn)
                s.reg[R500_TXR_FORMAT1][0] |= (two ? 3u : 1u) << 5;
            r500_txu t;
            ls_diag d;
            assert_int_equal(r500_txu_bind(&t, &s, 0, mem, size, NULL, &d), LS_OK);
            for (unsigned y = 0; y < h; y++)
                for (unsigned x = 0; x < w; x++) {
                    float c[4];
                    r500_txu_texel_raw(&t, 0, 0, (int)x, (int)y, c);
                    const uint8_t *blk = mem + (size_t)(y / 4) * pitch_bytes + (x / 4) * bs;
                    int ti = (int)((y % 4) * 4 + x % 4);
                    assert_true(c[0] == (float)ref_bc4(blk, ti, sgn));
                    assert_true(c[1] == (two ? (float)ref_bc4(blk + 8, ti, sgn) : 0.0f));
                    assert_true(c[2] == 0.0f && c[3] == 1.0f);
                }
            free(mem);
        }
}

/* ---- swizzle, gamma, endian ---- */

static void test_swizzle_gamma_endian(void **state)
{
    (void)state;
    uint8_t mem[32] = {10, 20, 30, 40};
    r500_tx_state s;
    base_state(&s, 0, 12);
    set_size(&s, 0, 1, 1);
    /* BGRA as Mesa sets it for B8G8R8A8: R from Z, B from X; A = 1 */
    r500_tx_set(&s, 0, R500_TXF_SEL_RED, 2);
    r500_tx_set(&s, 0, R500_TXF_SEL_BLUE, 0);
    r500_tx_set(&s, 0, R500_TXF_SEL_ALPHA, 5);
    r500_txu t;
    ls_diag d;
    float c[4];
    assert_int_equal(r500_txu_bind(&t, &s, 0, mem, sizeof mem, NULL, &d), LS_OK);
    r500_txu_texel(&t, 0, 0, 0, 0, c);
    assert_true(c[0] == (float)(30 / 255.0) && c[1] == (float)(20 / 255.0) &&
                c[2] == (float)(10 / 255.0) && c[3] == 1.0f);
    /* GAMMA: sRGB curve on R, G, B */
    r500_tx_set(&s, 0, R500_TXF_GAMMA, 1);
    assert_int_equal(r500_txu_bind(&t, &s, 0, mem, sizeof mem, NULL, &d), LS_OK);
    r500_txu_texel(&t, 0, 0, 0, 0, c);
    double g = pow((30 / 255.0 + 0.055) / 1.055, 2.4);
    assert_true(fabs(c[0] - g) < 1e-7);
    assert_true(c[3] == 1.0f);
    /* ENDIAN_SWAP 32-bit: bytes of the dword reversed */
    r500_tx_set(&s, 0, R500_TXF_GAMMA, 0);
    r500_tx_set(&s, 0, R500_TXF_ENDIAN_SWAP, 2);
    assert_int_equal(r500_txu_bind(&t, &s, 0, mem, sizeof mem, NULL, &d), LS_OK);
    r500_txu_texel_raw(&t, 0, 0, 0, 0, c);
    assert_true(c[0] == (float)(40 / 255.0) && c[3] == (float)(10 / 255.0));
    /* POW2FIX2FLT: /256 */
    r500_tx_set(&s, 0, R500_TXF_ENDIAN_SWAP, 0);
    r500_tx_set(&s, 0, R500_TXF_POW2FIX2FLT, 1);
    assert_int_equal(r500_txu_bind(&t, &s, 0, mem, sizeof mem, NULL, &d), LS_OK);
    r500_txu_texel_raw(&t, 0, 0, 0, 0, c);
    assert_true(c[0] == 10.0f / 256.0f);
}

/* TXPITCH_EN: rows of TXPITCH + 1 texels (tx_format2.txt), any pitch when linear */
static void test_pitch(void **state)
{
    (void)state;
    uint8_t mem[7 * 3];
    for (int i = 0; i < 21; i++)
        mem[i] = (uint8_t)(i * 11);
    r500_tx_state s;
    base_state(&s, 0, 0);
    set_size(&s, 0, 5, 3);
    r500_tx_set(&s, 0, R500_TXF_TXPITCH_EN, 1);
    r500_tx_set(&s, 0, R500_TXF_TXPITCH, 6);
    r500_txu t;
    ls_diag d;
    assert_int_equal(r500_txu_bind(&t, &s, 0, mem, sizeof mem, NULL, &d), LS_OK);
    for (int y = 0; y < 3; y++)
        for (int x = 0; x < 5; x++) {
            float c[4];
            r500_txu_texel_raw(&t, 0, 0, x, y, c);
            assert_true(c[0] == (float)((y * 7 + x) * 11 / 255.0));
        }
    assert_int_equal(r500_txu_bind(&t, &s, 0, mem, sizeof mem - 1, NULL, &d), LS_ERR_RANGE);
}

/* ---- mip chain offsets (r300_texture_desc.c rule restated) ---- */

static void test_mip_offsets(void **state)
{
    (void)state;
    /* 2D 40x24 RGBA8, 6 levels, linear: level l at the sum of
     * align(w_l, 8) * 4 * pot(h_l) of the levels before */
    unsigned w = 40, h = 24, levels = 6;
    size_t off[8], total = 0;
    for (unsigned l = 0; l < levels; l++) {
        unsigned wl = w >> l ? w >> l : 1, hl = h >> l ? h >> l : 1, ph = 1;
        while (ph < hl)
            ph *= 2;
        off[l] = total;
        total += (size_t)((wl + 7) / 8 * 8) * 4 * ph;
    }
    uint8_t *mem = calloc(1, total);
    for (unsigned l = 0; l < levels; l++)
        mem[off[l]] = (uint8_t)(l + 1);
    r500_tx_state s;
    base_state(&s, 2, 12);
    set_size(&s, 2, w, h);
    r500_tx_set(&s, 2, R500_TXF_NUM_LEVELS, levels - 1);
    r500_txu t;
    ls_diag d;
    assert_int_equal(r500_txu_bind(&t, &s, 2, mem, total, NULL, &d), LS_OK);
    for (unsigned l = 0; l < levels; l++) {
        float c[4];
        r500_txu_texel_raw(&t, (int)l, 0, 0, 0, c);
        assert_true(c[0] == (float)((l + 1) / 255.0));
    }
    assert_int_equal(r500_txu_bind(&t, &s, 2, mem, total - 1, NULL, &d), LS_ERR_RANGE);
    free(mem);
}

/* ---- sampling against a double-precision model ---- */

/* GL 4.6 §8.14.2 wrap of an integer texel index; -1 = border */
static int ref_wrap(unsigned mode, long i, int n)
{
    long m;
    switch (mode) {
    case 0: m = ((i % n) + n) % n; return (int)m;
    case 1: {
        long k = ((i % (2 * n)) + 2 * n) % (2 * n) - n;
        long mir = k >= 0 ? k : -(1 + k);
        return (int)(n - 1 - mir);
    }
    case 2: return (int)(i < 0 ? 0 : i > n - 1 ? n - 1 : i);
    case 3: m = i >= 0 ? i : -(1 + i); return (int)(m > n - 1 ? n - 1 : m);
    case 5: case 7: m = i >= 0 ? i : -(1 + i); return m >= n ? -1 : (int)m;
    default: return i < 0 || i >= n ? -1 : (int)i;
    }
}

static double ref_coord(unsigned mode, double u, int n)
{
    if (mode == 4)
        return fmin(fmax(u, 0), n);
    if (mode == 5)
        return fmin(fabs(u), n);
    return u;
}

typedef struct refimg {
    int w, h, levels;
    double *lv[8];
    int lw[8], lh[8];
    double border[4];
} refimg;

static void ref_texel(const refimg *r, int l, int x, int y, double out[4])
{
    if (x < 0 || y < 0) {
        memcpy(out, r->border, sizeof r->border);
        return;
    }
    memcpy(out, r->lv[l] + ((size_t)y * r->lw[l] + x) * 4, 4 * sizeof(double));
}

static void ref_level(const refimg *r, int l, bool linear, unsigned ms, unsigned mt, double s,
                      double t, double out[4])
{
    int n = r->lw[l], m = r->lh[l];
    double u = ref_coord(ms, s * n, n), v = ref_coord(mt, t * m, m);
    if (!linear) {
        ref_texel(r, l, ref_wrap(ms, (long)floor(u), n), ref_wrap(mt, (long)floor(v), m), out);
        return;
    }
    double a = u - 0.5 - floor(u - 0.5), b = v - 0.5 - floor(v - 0.5);
    long i0 = (long)floor(u - 0.5), j0 = (long)floor(v - 0.5);
    double p[4][4];
    ref_texel(r, l, ref_wrap(ms, i0, n), ref_wrap(mt, j0, m), p[0]);
    ref_texel(r, l, ref_wrap(ms, i0 + 1, n), ref_wrap(mt, j0, m), p[1]);
    ref_texel(r, l, ref_wrap(ms, i0, n), ref_wrap(mt, j0 + 1, m), p[2]);
    ref_texel(r, l, ref_wrap(ms, i0 + 1, n), ref_wrap(mt, j0 + 1, m), p[3]);
    for (int k = 0; k < 4; k++)
        out[k] = (1 - a) * (1 - b) * p[0][k] + a * (1 - b) * p[1][k] + (1 - a) * b * p[2][k] +
                 a * b * p[3][k];
}

/* GL §8.14: lambda <= 0 magnifies (level 0); mip NONE level 0, NEAREST
 * ceil(lambda + 1/2) - 1 (level 0 up to 1/2), LINEAR between floor and +1. */
static void ref_sample(const refimg *r, unsigned magf, unsigned minf, unsigned mip, unsigned ms,
                       unsigned mt, double s, double t, double lambda, double out[4])
{
    int q = r->levels - 1;
    if (lambda <= 0 || mip == 0) {
        ref_level(r, 0, (lambda <= 0 ? magf : minf) == 2, ms, mt, s, t, out);
        return;
    }
    double lc = fmin(lambda, q);
    if (mip == 1) {
        int l = lc <= 0.5 ? 0 : (int)ceil(lc + 0.5) - 1;
        ref_level(r, l > q ? q : l, minf == 2, ms, mt, s, t, out);
        return;
    }
    int l0 = (int)floor(lc), l1 = l0 + 1 > q ? q : l0 + 1;
    double f = lc - l0, a[4], b[4];
    ref_level(r, l0, minf == 2, ms, mt, s, t, a);
    ref_level(r, l1, minf == 2, ms, mt, s, t, b);
    for (int k = 0; k < 4; k++)
        out[k] = (1 - f) * a[k] + f * b[k];
}

static void test_sampling_model(void **state)
{
    (void)state;
    int w = 32, h = 16, levels = 5;
    size_t off[8], total = 0;
    refimg r = {.w = w, .h = h, .levels = levels};
    for (int l = 0; l < levels; l++) {
        r.lw[l] = w >> l ? w >> l : 1;
        r.lh[l] = h >> l ? h >> l : 1;
        off[l] = total;
        total += (size_t)((r.lw[l] + 7) / 8 * 8) * 4 * r.lh[l]; /* POT height already */
    }
    uint8_t *mem = calloc(1, total);
    for (int l = 0; l < levels; l++) {
        r.lv[l] = malloc((size_t)r.lw[l] * r.lh[l] * 4 * sizeof(double));
        for (int y = 0; y < r.lh[l]; y++)
            for (int x = 0; x < r.lw[l]; x++)
                for (int k = 0; k < 4; k++) {
                    uint8_t v = (uint8_t)rnd();
                    mem[off[l] + ((size_t)y * ((r.lw[l] + 7) / 8 * 8) + x) * 4 + k] = v;
                    r.lv[l][((size_t)y * r.lw[l] + x) * 4 + k] = v / 255.0;
                }
    }
    uint32_t bc = 0x80402010u;
    for (int k = 0; k < 4; k++)
        r.border[k] = ((bc >> (8 * k)) & 0xff) / 255.0;
    double worst = 0;
    for (int iter = 0; iter < 4000; iter++) {
        unsigned magf = 1 + rnd() % 2, minf = 1 + rnd() % 2, mip = rnd() % 3;
        unsigned ms = rnd() % 8, mt = rnd() % 8;
        int bias32 = (int)(rnd() % 64) - 32; /* LOD_BIAS in s4.5 */
        r500_tx_state s;
        base_state(&s, 4, 12);
        set_size(&s, 4, (unsigned)w, (unsigned)h);
        r500_tx_set(&s, 4, R500_TXF_NUM_LEVELS, (uint32_t)levels - 1);
        r500_tx_set(&s, 4, R500_TXF_MAG_FILTER, magf);
        r500_tx_set(&s, 4, R500_TXF_MIN_FILTER, minf);
        r500_tx_set(&s, 4, R500_TXF_MIP_FILTER, mip);
        r500_tx_set(&s, 4, R500_TXF_CLAMP_S, ms);
        r500_tx_set(&s, 4, R500_TXF_CLAMP_T, mt);
        r500_tx_set(&s, 4, R500_TXF_LOD_BIAS, (uint32_t)bias32 & 0x3ff);
        s.reg[R500_TXR_BORDER_COLOR][4] = bc;
        r500_txu t;
        ls_diag d;
        assert_int_equal(r500_txu_bind(&t, &s, 4, mem, total, NULL, &d), LS_OK);
        static float coord[4][64], out[4][64], lod[64];
        memset(coord, 0, sizeof coord);
        float sc = (float)(rndu() * 3 - 3), tc = (float)(rndu() * 3 - 3), lv = (float)(rndu() * 4 - 3);
        coord[0][0] = sc;
        coord[1][0] = tc;
        lod[0] = lv;
        r500_tex_request rq = {.n = 1, .mask = 1, .lod_mode = R500_TEX_LOD_EXPLICIT,
                               .coord = coord, .lod = lod, .out = out};
        assert_int_equal(r500_txu_sample(&t, &rq, &d), LS_OK);
        double e[4];
        ref_sample(&r, magf, minf, mip, ms, mt, sc, tc, (double)lv + bias32 / 32.0, e);
        for (int k = 0; k < 4; k++) {
            double err = fabs(out[k][0] - e[k]);
            if (err > worst)
                worst = err;
            if (err > 1e-5)
                fail_msg("iter %d mag %u min %u mip %u wrap %u/%u s %.9g t %.9g lod %.9g: ch %d "
                         "%.9g vs %.9g",
                         iter, magf, minf, mip, ms, mt, sc, tc, lv + bias32 / 32.0, k, out[k][0],
                         e[k]);
        }
    }
    printf("sampling: worst |lockstep - double model| = %.3g (bound 1e-5)\n", worst);
    for (int l = 0; l < levels; l++)
        free(r.lv[l]);
    free(mem);
}

/* LOD from the quad: a 2x2 quad whose s advances by 4 texels per pixel
 * samples level 2 (nearest mip) */
static void test_quad_lod(void **state)
{
    (void)state;
    int w = 64, h = 64;
    size_t total = 0, off[7];
    for (int l = 0; l < 7; l++) {
        int lw = w >> l ? w >> l : 1, lh = h >> l ? h >> l : 1;
        off[l] = total;
        total += (size_t)((lw + 7) / 8 * 8) * 4 * lh;
    }
    uint8_t *mem = calloc(1, total);
    for (int l = 0; l < 7; l++) {
        int lw = w >> l ? w >> l : 1, lh = h >> l ? h >> l : 1;
        for (int y = 0; y < lh; y++)
            for (int x = 0; x < lw; x++)
                mem[off[l] + ((size_t)y * ((lw + 7) / 8 * 8) + x) * 4] = (uint8_t)(10 * l);
    }
    r500_tx_state s;
    base_state(&s, 0, 12);
    set_size(&s, 0, 64, 64);
    r500_tx_set(&s, 0, R500_TXF_NUM_LEVELS, 6);
    r500_tx_set(&s, 0, R500_TXF_MIP_FILTER, 1);
    r500_txu t;
    ls_diag d;
    assert_int_equal(r500_txu_bind(&t, &s, 0, mem, total, NULL, &d), LS_OK);
    static float coord[4][64], out[4][64];
    static const uint8_t quad[4][4] = {{0, 1, 2, 3}, {0, 1, 2, 3}, {0, 1, 2, 3}, {0, 1, 2, 3}};
    for (int i = 0; i < 4; i++) {
        coord[0][i] = (float)((i & 1) * 4 / 64.0 + 0.3);
        coord[1][i] = (float)((i >> 1) * 1 / 64.0 + 0.3);
    }
    r500_tex_request rq = {.n = 4, .mask = 15, .quad = quad, .lod_mode = R500_TEX_LOD_IMPLICIT,
                           .coord = coord, .out = out};
    assert_int_equal(r500_txu_sample(&t, &rq, &d), LS_OK);
    for (int i = 0; i < 4; i++)
        assert_true(out[0][i] == (float)(20 / 255.0));
    /* explicit LOD 1.5 with nearest mip: GL's ceil(lambda + 1/2) - 1 = level 1 */
    static float lod[64];
    for (int i = 0; i < 4; i++)
        lod[i] = 1.5f;
    r500_tex_request rl = {.n = 4, .mask = 15, .lod_mode = R500_TEX_LOD_EXPLICIT, .lod = lod,
                           .coord = coord, .out = out};
    assert_int_equal(r500_txu_sample(&t, &rl, &d), LS_OK);
    assert_true(out[0][0] == (float)(10 / 255.0));
    /* MAX_MIP_LEVEL 3 clamps to level 3 */
    r500_tx_set(&s, 0, R500_TXF_MAX_MIP_LEVEL, 3);
    assert_int_equal(r500_txu_bind(&t, &s, 0, mem, total, NULL, &d), LS_OK);
    assert_int_equal(r500_txu_sample(&t, &rq, &d), LS_OK);
    assert_true(out[0][0] == (float)(30 / 255.0));
    free(mem);
}

/* cube: each face a constant; the major axis picks the face */
static void test_cube(void **state)
{
    (void)state;
    unsigned w = 8;
    size_t layer = 8 * 4 * 8;
    uint8_t *mem = calloc(6, layer);
    for (int f = 0; f < 6; f++)
        for (size_t i = 0; i < layer; i += 4)
            mem[f * layer + i] = (uint8_t)(f * 40);
    r500_tx_state s;
    base_state(&s, 1, 12);
    set_size(&s, 1, w, w);
    r500_tx_set(&s, 1, R500_TXF_TEX_COORD_TYPE, 2);
    r500_txu t;
    ls_diag d;
    assert_int_equal(r500_txu_bind(&t, &s, 1, mem, 6 * layer, NULL, &d), LS_OK);
    static const float dirs[6][3] = {{1, .2f, .3f}, {-1, .2f, .3f}, {.1f, 1, .3f},
                                     {.1f, -1, .3f}, {.1f, .2f, 1}, {.1f, .2f, -1}};
    static float coord[4][64], out[4][64];
    for (int f = 0; f < 6; f++)
        for (int k = 0; k < 3; k++)
            coord[k][f] = dirs[f][k];
    r500_tex_request rq = {.n = 6, .mask = 63, .lod_mode = R500_TEX_LOD_EXPLICIT, .coord = coord,
                           .out = out};
    assert_int_equal(r500_txu_sample(&t, &rq, &d), LS_OK);
    for (int f = 0; f < 6; f++)
        assert_true(out[0][f] == (float)(f * 40 / 255.0));
    assert_int_equal(r500_txu_bind(&t, &s, 1, mem, 6 * layer - 1, NULL, &d), LS_ERR_RANGE);
    free(mem);
}

/* tx-cube-lod: a 2x2 quad on +Z whose right lanes cross into +X. Levels laid
 * out by r300's rule (r300_texture_desc.c r300_setup_miptree: level after
 * level, six faces a level, pitch align(w, 8) for linear RGBA8, POT rows);
 * texel byte 0 = 10 level + face + 1. On +Z the quad steps 1/4 face a pixel
 * (4 texels of the 16-texel level 0: lambda 2). lane-face takes the +X lane's
 * own face coordinates into the derivative (lambda 3.6: level 4);
 * quad-face projects the lanes on lane 0's face (+Z): level 2. */
static void test_cube_quad_lod(void **state)
{
    (void)state;
    const unsigned w = 16, levels = 5;
    size_t off[5], layer[5], total = 0;
    for (unsigned l = 0; l < levels; l++) {
        unsigned lw = w >> l, ph = lw; /* square POT: rows = width */
        layer[l] = (size_t)((lw + 7) / 8 * 8) * 4 * ph;
        off[l] = total;
        total += 6 * layer[l];
    }
    uint8_t *mem = calloc(1, total);
    for (unsigned l = 0; l < levels; l++)
        for (unsigned f = 0; f < 6; f++)
            for (size_t i = 0; i < layer[l]; i += 4)
                mem[off[l] + f * layer[l] + i] = (uint8_t)(10 * l + f + 1);
    r500_tx_state s;
    base_state(&s, 3, 12);
    set_size(&s, 3, w, w);
    r500_tx_set(&s, 3, R500_TXF_TEX_COORD_TYPE, 2);
    r500_tx_set(&s, 3, R500_TXF_NUM_LEVELS, levels - 1);
    r500_tx_set(&s, 3, R500_TXF_MIP_FILTER, 1);
    static const float dir[4][3] = {{.6f, -.2f, 1}, {1.1f, -.2f, 1}, {.6f, .3f, 1}, {1.1f, .3f, 1}};
    static const uint8_t quad[4][4] = {{0, 1, 2, 3}, {0, 1, 2, 3}, {0, 1, 2, 3}, {0, 1, 2, 3}};
    static float coord[4][64], out[4][64];
    for (int i = 0; i < 4; i++)
        for (int k = 0; k < 3; k++)
            coord[k][i] = dir[i][k];
    r500_tex_request rq = {.n = 4, .mask = 15, .quad = quad, .lod_mode = R500_TEX_LOD_IMPLICIT,
                           .coord = coord, .out = out};
    r500_tx_options o;
    r500_tx_options_default(&o);
    r500_txu t;
    ls_diag d;
    assert_int_equal(r500_txu_bind(&t, &s, 3, mem, total, &o, &d), LS_OK);
    assert_int_equal(r500_txu_sample(&t, &rq, &d), LS_OK);
    assert_true(out[0][0] == (float)(45 / 255.0)); /* level 4, +Z */
    assert_true(out[0][2] == (float)(45 / 255.0));
    assert_int_equal(r500_tx_options_set(&o, "tx-cube-lod", "quad-face", &d), LS_OK);
    assert_int_equal(r500_txu_bind(&t, &s, 3, mem, total, &o, &d), LS_OK);
    assert_int_equal(r500_txu_sample(&t, &rq, &d), LS_OK);
    assert_true(out[0][0] == (float)(25 / 255.0)); /* level 2, +Z */
    assert_true(out[0][2] == (float)(25 / 255.0));
    assert_int_equal(r500_tx_options_set(&o, "tx-cube-lod", "both", &d), LS_ERR_ARG);
    free(mem);
}

/* TX_BORDER_COLOR of a signed 64-bit format: r300 packs the colour as
 * R8G8B8A8_SNORM (r300_state.c r300_get_border_color, 16-bit channels, 3-4
 * of them), so each byte is int8 / 127 (-128 clamps to -1) where
 * SIGNED_COMPk is set, byte / 255 where it is not. */
static void test_border_signed(void **state)
{
    (void)state;
    uint8_t mem[4 * 4 * 8] = {0};
    static const uint8_t bytes[4] = {0x40, 0xc0, 0x7f, 0x80};
    r500_tx_state s;
    base_state(&s, 5, R500_TXFMT_W16Z16Y16X16);
    set_size(&s, 5, 4, 4);
    r500_tx_set(&s, 5, R500_TXF_CLAMP_S, 6);
    s.reg[R500_TXR_BORDER_COLOR][5] =
        bytes[0] | (uint32_t)bytes[1] << 8 | (uint32_t)bytes[2] << 16 | (uint32_t)bytes[3] << 24;
    static float coord[4][64], out[4][64], lod[64];
    coord[0][0] = -0.5f;
    coord[1][0] = 0.5f;
    r500_tex_request rq = {.n = 1, .mask = 1, .lod_mode = R500_TEX_LOD_EXPLICIT, .lod = lod,
                           .coord = coord, .out = out};
    for (unsigned signs = 0; signs < 16; signs += 5) { /* none, X+Z, Y+W, all */
        r500_tx_set(&s, 5, R500_TXF_SIGNED_COMP0, signs & 1);
        r500_tx_set(&s, 5, R500_TXF_SIGNED_COMP1, signs >> 1 & 1);
        r500_tx_set(&s, 5, R500_TXF_SIGNED_COMP2, signs >> 2 & 1);
        r500_tx_set(&s, 5, R500_TXF_SIGNED_COMP3, signs >> 3 & 1);
        r500_txu t;
        ls_diag d;
        assert_int_equal(r500_txu_bind(&t, &s, 5, mem, sizeof mem, NULL, &d), LS_OK);
        assert_int_equal(r500_txu_sample(&t, &rq, &d), LS_OK);
        for (int k = 0; k < 4; k++) {
            double e = bytes[k] / 255.0;
            if (signs >> k & 1) {
                int v = bytes[k] >= 128 ? bytes[k] - 256 : bytes[k];
                e = v < -127 ? -1.0 : v / 127.0;
            }
            assert_true(fabs(out[k][0] - e) < 1e-6);
        }
    }
}

/* 3D: 4x4x4 RGBA8, slice z holds 40 z; nearest picks the slice, VOL_FILTER
 * linear halfway between slice centres averages; PROJECTED divides by Q */
static void test_volume_projected(void **state)
{
    (void)state;
    size_t slice = 8 * 4 * 4; /* pitch aligned to 8 texels */
    uint8_t *mem = calloc(4, slice);
    for (int z = 0; z < 4; z++)
        for (size_t i = 0; i < slice; i += 4)
            mem[z * slice + i] = (uint8_t)(40 * z);
    r500_tx_state s;
    base_state(&s, 6, 12);
    set_size(&s, 6, 4, 4);
    r500_tx_set(&s, 6, R500_TXF_TEX_COORD_TYPE, 1);
    r500_tx_set(&s, 6, R500_TXF_TXDEPTH, 2);
    r500_txu t;
    ls_diag d;
    assert_int_equal(r500_txu_bind(&t, &s, 6, mem, 4 * slice, NULL, &d), LS_OK);
    assert_int_equal(r500_txu_bind(&t, &s, 6, mem, 4 * slice - 1, NULL, &d), LS_ERR_RANGE);
    static float coord[4][64], out[4][64];
    coord[0][0] = 0.3f, coord[1][0] = 0.3f, coord[2][0] = 0.6f; /* z = 2.4 -> slice 2 */
    coord[0][1] = 0.3f, coord[1][1] = 0.3f, coord[2][1] = 0.5f; /* z = 2.0: between 1 and 2 */
    r500_tex_request rq = {.n = 2, .mask = 3, .lod_mode = R500_TEX_LOD_EXPLICIT, .coord = coord,
                           .out = out};
    assert_int_equal(r500_txu_sample(&t, &rq, &d), LS_OK);
    assert_true(out[0][0] == (float)(80 / 255.0));
    r500_tx_set(&s, 6, R500_TXF_VOL_FILTER, 2);
    assert_int_equal(r500_txu_bind(&t, &s, 6, mem, 4 * slice, NULL, &d), LS_OK);
    assert_int_equal(r500_txu_sample(&t, &rq, &d), LS_OK);
    assert_true(fabs(out[0][1] - 60 / 255.0) < 1e-6);
    /* projected: (0.6, 0.6, 1.2, 2) reads like (0.3, 0.3, 0.6) */
    r500_tx_set(&s, 6, R500_TXF_VOL_FILTER, 1);
    r500_tx_set(&s, 6, R500_TXF_PROJECTED, 1);
    assert_int_equal(r500_txu_bind(&t, &s, 6, mem, 4 * slice, NULL, &d), LS_OK);
    coord[0][0] = 0.6f, coord[1][0] = 0.6f, coord[2][0] = 1.2f, coord[3][0] = 2.0f;
    rq.n = 1, rq.mask = 1;
    assert_int_equal(r500_txu_sample(&t, &rq, &d), LS_OK);
    assert_true(out[0][0] == (float)(80 / 255.0));
    free(mem);
}

/* the tx-* model options change what they say (docs/assumptions.md) */
static void test_options(void **state)
{
    (void)state;
    r500_tx_options o;
    ls_diag d;
    r500_tx_options_default(&o);
    assert_int_equal(r500_tx_options_set(&o, "tx-aniso", "sideways", &d), LS_ERR_ARG);
    assert_int_equal(r500_tx_options_set(&o, "tx-nonsense", "1", &d), LS_ERR_ARG);
    for (int i = 0; r500_tx_option_names[i]; i++)
        assert_int_equal(r500_tx_options_set(&o, r500_tx_option_names[i], "bogus", &d), LS_ERR_ARG);

    /* tx-y8x24, tx-missing, tx-shadow on a 2x1 Y8X24 texture */
    uint8_t mem[32] = {0};
    uint32_t w0 = 0x80000011u, w1 = 0x20000022u; /* depth 0x800000 / 0x200000 (z-high) */
    memcpy(mem, &w0, 4);
    memcpy(mem + 4, &w1, 4);
    r500_tx_state s;
    base_state(&s, 0, 38);
    set_size(&s, 0, 2, 1);
    r500_txu t;
    float c[4];
    assert_int_equal(r500_txu_bind(&t, &s, 0, mem, sizeof mem, &o, &d), LS_OK);
    r500_txu_texel_raw(&t, 0, 0, 0, 0, c);
    assert_true(c[0] == (float)(0x800000 / 16777215.0) && c[1] == (float)(0x11 / 255.0));
    assert_true(c[3] == 1.0f);
    assert_int_equal(r500_tx_options_set(&o, "tx-y8x24", "z-low", &d), LS_OK);
    assert_int_equal(r500_tx_options_set(&o, "tx-missing", "0000", &d), LS_OK);
    assert_int_equal(r500_txu_bind(&t, &s, 0, mem, sizeof mem, &o, &d), LS_OK);
    r500_txu_texel_raw(&t, 0, 0, 0, 0, c);
    assert_true(c[0] == (float)(0x000011 / 16777215.0) && c[1] == (float)(0x80 / 255.0));
    assert_true(c[3] == 0.0f);
    r500_tx_options_default(&o);
    assert_int_equal(r500_tx_options_set(&o, "tx-shadow", "less", &d), LS_OK);
    assert_int_equal(r500_txu_bind(&t, &s, 0, mem, sizeof mem, &o, &d), LS_OK);
    static float coord[4][64], out[4][64];
    coord[0][0] = 0.25f, coord[1][0] = 0.5f, coord[2][0] = 0.4f; /* 0.4 < 0.5: pass */
    coord[0][1] = 0.75f, coord[1][1] = 0.5f, coord[2][1] = 0.4f; /* 0.4 < 0.125: fail */
    r500_tex_request rq = {.n = 2, .mask = 3, .lod_mode = R500_TEX_LOD_EXPLICIT, .coord = coord,
                           .out = out};
    assert_int_equal(r500_txu_sample(&t, &rq, &d), LS_OK);
    assert_true(out[0][0] == 1.0f && out[3][0] == 1.0f && out[0][1] == 0.0f);

    /* tx-weight-bits 2: a weight of 0.3 becomes 0.25 */
    uint8_t m2[32] = {0, 0, 0, 0, 255, 0, 0, 0};
    base_state(&s, 0, 12);
    set_size(&s, 0, 2, 1);
    r500_tx_set(&s, 0, R500_TXF_MAG_FILTER, 2);
    r500_tx_set(&s, 0, R500_TXF_CLAMP_S, 2);
    r500_tx_set(&s, 0, R500_TXF_CLAMP_T, 2);
    r500_tx_options_default(&o);
    assert_int_equal(r500_tx_options_set(&o, "tx-weight-bits", "2", &d), LS_OK);
    assert_int_equal(r500_txu_bind(&t, &s, 0, m2, sizeof m2, &o, &d), LS_OK);
    coord[0][0] = 0.4f, coord[1][0] = 0.5f; /* u = 0.8 texels: between centres 0.5 and 1.5 */
    rq.n = 1, rq.mask = 1;
    assert_int_equal(r500_txu_sample(&t, &rq, &d), LS_OK);
    assert_true(out[0][0] == 0.25f);
    r500_tx_options_default(&o);
    assert_int_equal(r500_txu_bind(&t, &s, 0, m2, sizeof m2, &o, &d), LS_OK);
    assert_int_equal(r500_txu_sample(&t, &rq, &d), LS_OK);
    assert_true(fabs(out[0][0] - 0.3) < 1e-6);

    /* tx-lod-rho: derivatives (3, 4) texels: sqrt gives 5 (LOD 2.32 -> level 2),
     * max-abs 4 (LOD 2) -- told apart by a mip chain whose levels differ */
    int sz = 32;
    size_t off[6], total = 0;
    for (int l = 0; l < 6; l++) {
        int lw = sz >> l ? sz >> l : 1;
        off[l] = total;
        total += (size_t)((lw + 7) / 8 * 8) * 4 * lw;
    }
    uint8_t *mm = calloc(1, total);
    for (int l = 0; l < 6; l++) {
        int lw = sz >> l ? sz >> l : 1;
        for (int i = 0; i < lw * lw; i++)
            mm[off[l] + (size_t)((i / lw) * ((lw + 7) / 8 * 8) + i % lw) * 4] = (uint8_t)(10 * l);
    }
    base_state(&s, 0, 12);
    set_size(&s, 0, (unsigned)sz, (unsigned)sz);
    r500_tx_set(&s, 0, R500_TXF_NUM_LEVELS, 5);
    r500_tx_set(&s, 0, R500_TXF_MIP_FILTER, 2);
    static float ddx[4][64], ddy[4][64];
    ddx[0][0] = 3.0f / sz, ddx[1][0] = 4.0f / sz;
    coord[0][0] = 0.5f, coord[1][0] = 0.5f;
    r500_tex_request rd = {.n = 1, .mask = 1, .lod_mode = R500_TEX_LOD_DERIV, .coord = coord,
                           .ddx = ddx, .ddy = ddy, .out = out};
    r500_tx_options_default(&o);
    assert_int_equal(r500_txu_bind(&t, &s, 0, mm, total, &o, &d), LS_OK);
    assert_int_equal(r500_txu_sample(&t, &rd, &d), LS_OK);
    double lam = log2(5.0);
    assert_true(fabs(out[0][0] - (20 + 10 * (lam - 2)) / 255.0) < 1e-6);
    assert_int_equal(r500_tx_options_set(&o, "tx-lod-rho", "max-abs", &d), LS_OK);
    assert_int_equal(r500_txu_bind(&t, &s, 0, mm, total, &o, &d), LS_OK);
    assert_int_equal(r500_txu_sample(&t, &rd, &d), LS_OK);
    assert_true(fabs(out[0][0] - 20 / 255.0) < 1e-6);
    /* tx-aniso footprint: MIN_FILTER 3, footprint 8 x 2 texels -> 4 samples at LOD 1;
     * linear (default) takes LOD 3 */
    r500_tx_set(&s, 0, R500_TXF_MIN_FILTER, 3);
    r500_tx_set(&s, 0, R500_TXF_MIP_FILTER, 1);
    ddx[0][0] = 8.0f / sz, ddx[1][0] = 0;
    ddy[0][0] = 0, ddy[1][0] = 2.0f / sz;
    r500_tx_options_default(&o);
    assert_int_equal(r500_txu_bind(&t, &s, 0, mm, total, &o, &d), LS_OK);
    assert_int_equal(r500_txu_sample(&t, &rd, &d), LS_OK);
    assert_true(out[0][0] == (float)(30 / 255.0));
    assert_int_equal(r500_tx_options_set(&o, "tx-aniso", "footprint", &d), LS_OK);
    assert_int_equal(r500_txu_bind(&t, &s, 0, mm, total, &o, &d), LS_OK);
    assert_int_equal(r500_txu_sample(&t, &rd, &d), LS_OK);
    assert_true(out[0][0] == (float)(10 / 255.0));
    /* tx-mip-round half-up: explicit LOD 1.5 with nearest mip is level 2 (GL: 1) */
    r500_tx_set(&s, 0, R500_TXF_MIN_FILTER, 1);
    static float lodv[64];
    lodv[0] = 1.5f;
    r500_tex_request re = {.n = 1, .mask = 1, .lod_mode = R500_TEX_LOD_EXPLICIT, .lod = lodv,
                           .coord = coord, .out = out};
    r500_tx_options_default(&o);
    assert_int_equal(r500_txu_bind(&t, &s, 0, mm, total, &o, &d), LS_OK);
    assert_int_equal(r500_txu_sample(&t, &re, &d), LS_OK);
    assert_true(out[0][0] == (float)(10 / 255.0));
    assert_int_equal(r500_tx_options_set(&o, "tx-mip-round", "half-up", &d), LS_OK);
    assert_int_equal(r500_txu_bind(&t, &s, 0, mm, total, &o, &d), LS_OK);
    assert_int_equal(r500_txu_sample(&t, &re, &d), LS_OK);
    assert_true(out[0][0] == (float)(20 / 255.0));
    free(mm);

    /* tx-tile-order: in a macro tile of 4x2-texel micro tiles (32-bit, 32x16),
     * texel (4, 0) is in micro tile 1 (row-major) or 8 (column-major) */
    uint8_t *big = calloc(1, 2048);
    base_state(&s, 0, 12);
    set_size(&s, 0, 32, 16);
    r500_tx_set(&s, 0, R500_TXF_MICRO_TILE, 1);
    r500_tx_set(&s, 0, R500_TXF_MACRO_TILE, 1);
    r500_tx_options_default(&o);
    assert_int_equal(r500_txu_bind(&t, &s, 0, big, 2048, &o, &d), LS_OK);
    assert_int_equal(r500_txu_texel_addr(&t, 0, 0, 4, 0), 32);
    assert_int_equal(r500_tx_options_set(&o, "tx-tile-order", "column-major", &d), LS_OK);
    assert_int_equal(r500_txu_bind(&t, &s, 0, big, 2048, &o, &d), LS_OK);
    assert_int_equal(r500_txu_texel_addr(&t, 0, 0, 4, 0), 8 * 32);
    free(big);

    /* tx-dxt-interp: endpoints red 255 and 8, index 2 everywhere:
     * (2*255 + 8) / 3 = 172.67 -> 173 (round8) or 172.67 (exact) */
    uint8_t blk[32] = {0x00, 0xf8, 0x00, 0x08, 0xaa, 0xaa, 0xaa, 0xaa};
    base_state(&s, 0, 15);
    set_size(&s, 0, 4, 4);
    r500_tx_options_default(&o);
    assert_int_equal(r500_txu_bind(&t, &s, 0, blk, sizeof blk, &o, &d), LS_OK);
    r500_txu_texel_raw(&t, 0, 0, 1, 1, c);
    assert_true(c[0] == (float)(173 / 255.0));
    assert_int_equal(r500_tx_options_set(&o, "tx-dxt-interp", "exact", &d), LS_OK);
    assert_int_equal(r500_txu_bind(&t, &s, 0, blk, sizeof blk, &o, &d), LS_OK);
    r500_txu_texel_raw(&t, 0, 0, 1, 1, c);
    assert_true(c[0] == (float)(518.0 / 3 / 255.0));
}

/* ---- hostile registers ---- */

static void test_hostile(void **state)
{
    (void)state;
    uint8_t mem[256] = {0};
    struct {
        r500_tx_field f;
        uint32_t v;
        ls_status st;
        const char *want;
    } cases[] = {
        {R500_TXF_TXFORMAT, 8, LS_ERR_UNSUPPORTED, "TX_FORMAT1_3.TXFORMAT = 8"},
        {R500_TXF_TXWIDTH, 2047, LS_ERR_RANGE, "TX_OFFSET_3"},
        {R500_TXF_TXOFFSET, 1000, LS_ERR_RANGE, "TX_OFFSET_3"},
        {R500_TXF_MICRO_TILE, 3, LS_ERR_RANGE, "TX_OFFSET_3.MICRO_TILE"},
        {R500_TXF_MAG_FILTER, 0, LS_ERR_UNSUPPORTED, "TX_FILTER0_3.MAG_FILTER"},
        {R500_TXF_SEL_RED, 7, LS_ERR_UNSUPPORTED, "TX_FORMAT1_3.SEL_RED"},
        {R500_TXF_TEX_COORD_TYPE, 3, LS_ERR_RANGE, "TX_FORMAT1_3.TEX_COORD_TYPE"},
        {R500_TXF_CHROMA_KEY_MODE, 1, LS_ERR_UNSUPPORTED, "TX_FILTER1_3.CHROMA_KEY_MODE"},
        {R500_TXF_TXFORMAT_MSB, 1, LS_ERR_UNSUPPORTED, "TX_FORMAT2_3.TXFORMAT_MSB = 1"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        r500_tx_state s;
        base_state(&s, 3, 12);
        set_size(&s, 3, 4, 4);
        r500_tx_set(&s, 3, cases[i].f, cases[i].v);
        r500_txu t;
        ls_diag d;
        assert_int_equal(r500_txu_bind(&t, &s, 3, mem, sizeof mem, NULL, &d), cases[i].st);
        if (!strstr(d.msg, cases[i].want))
            fail_msg("case %zu: '%s' lacks '%s'", i, d.msg, cases[i].want);
    }
    /* a pitch below the width (TXPITCH_EN, TXPITCH 0 = 1 texel) */
    r500_tx_state s;
    base_state(&s, 3, 12);
    set_size(&s, 3, 4, 4);
    r500_tx_set(&s, 3, R500_TXF_TXPITCH_EN, 1);
    r500_txu t;
    ls_diag d;
    assert_int_equal(r500_txu_bind(&t, &s, 3, mem, sizeof mem, NULL, &d), LS_ERR_RANGE);
    assert_non_null(strstr(d.msg, "TX_FORMAT2_3.TXPITCH"));
    /* a 3D depth of 2^15 slices with 16 levels */
    base_state(&s, 3, 12);
    set_size(&s, 3, 4, 4);
    r500_tx_set(&s, 3, R500_TXF_TEX_COORD_TYPE, 1);
    r500_tx_set(&s, 3, R500_TXF_TXDEPTH, 15);
    r500_tx_set(&s, 3, R500_TXF_NUM_LEVELS, 15);
    assert_int_equal(r500_txu_bind(&t, &s, 3, mem, sizeof mem, NULL, &d), LS_ERR_RANGE);
    assert_non_null(strstr(d.msg, "TX_FORMAT0_3.TXDEPTH"));
    /* no buffer */
    base_state(&s, 3, 12);
    assert_int_equal(r500_txu_bind(&t, &s, 3, NULL, 0, NULL, &d), LS_ERR_RANGE);
    /* random registers over a small buffer: bind either refuses or every
     * sample stays inside (ASan checks) */
    uint8_t *small = malloc(4096);
    for (int i = 0; i < 4096; i++)
        small[i] = (uint8_t)rnd();
    int bound = 0;
    for (int iter = 0; iter < 20000; iter++) {
        for (int r = 0; r < R500_TXR_COUNT; r++)
            s.reg[r][5] = rnd();
        if (rnd() & 1) { /* small sizes often */
            s.reg[R500_TXR_FORMAT0][5] &= ~0x3fffffu;
            s.reg[R500_TXR_FORMAT0][5] |= (rnd() & 0x1f) | (rnd() & 0x1f) << 11;
            s.reg[R500_TXR_FORMAT2][5] &= ~(3u << 15);
        }
        s.reg[R500_TXR_OFFSET][5] &= 0x1ffu;
        if (rnd() % 4) { /* mostly legal enums, so that sampling is reached */
            static const unsigned codes[] = {0, 1, 2, 3, 4, 5, 6, 7, 10, 11, 12, 13, 14, 15,
                                             16, 17, 24, 25, 26, 27, 28, 29, 31, 37, 38};
            unsigned c = codes[rnd() % (sizeof codes / sizeof codes[0])];
            r500_tx_set(&s, 5, R500_TXF_TXFORMAT, c & 31);
            r500_tx_set(&s, 5, R500_TXF_TXFORMAT_MSB, c >> 5);
            r500_tx_set(&s, 5, R500_TXF_MAG_FILTER, 1 + rnd() % 3);
            r500_tx_set(&s, 5, R500_TXF_MIN_FILTER, 1 + rnd() % 3);
            r500_tx_set(&s, 5, R500_TXF_MIP_FILTER, rnd() % 3);
            r500_tx_set(&s, 5, R500_TXF_VOL_FILTER, rnd() % 3);
            r500_tx_set(&s, 5, R500_TXF_CHROMA_KEY_MODE, 0);
            r500_tx_set(&s, 5, R500_TXF_YUV_TO_RGB, 0);
            r500_tx_set(&s, 5, R500_TXF_TEX_COORD_TYPE, rnd() % 3);
            r500_tx_set(&s, 5, R500_TXF_MICRO_TILE, rnd() % 3);
            for (int k = 0; k < 4; k++)
                r500_tx_set(&s, 5, (r500_tx_field)(R500_TXF_SEL_ALPHA + k), rnd() % 6);
            if (rnd() & 1)
                r500_tx_set(&s, 5, R500_TXF_TXDEPTH, rnd() % 3);
        }
        if (r500_txu_bind(&t, &s, 5, small, 4096, NULL, &d) != LS_OK)
            continue;
        bound++;
        static float coord[4][64], out[4][64], lod[64], ddx[4][64], ddy[4][64];
        static const uint8_t quad[4][4] = {{0, 1, 2, 3}, {0, 1, 2, 3}, {0, 1, 2, 3}, {0, 1, 2, 3}};
        for (int k = 0; k < 4; k++)
            for (int l = 0; l < 4; l++) {
                uint32_t b = rnd();
                float f;
                memcpy(&f, &b, 4);
                coord[k][l] = (rnd() & 1) ? f : (float)(rndu() * 4 - 4);
                ddx[k][l] = (float)(rndu() - 1);
                ddy[k][l] = (float)(rndu() - 1);
                lod[l] = (float)(rndu() * 20 - 20);
            }
        r500_tex_request rq = {.n = 4, .mask = 15, .quad = quad, .coord = coord, .lod = lod,
                               .ddx = ddx, .ddy = ddy, .out = out,
                               .lod_mode = (r500_tex_lod_mode)(rnd() % 4)};
        assert_int_equal(r500_txu_sample(&t, &rq, &d), LS_OK);
    }
    assert_true(bound > 100);
    free(small);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reg_addresses),
        cmocka_unit_test(test_fields),
        cmocka_unit_test(test_formats_and_tiling),
        cmocka_unit_test(test_dxt),
        cmocka_unit_test(test_rgtc),
        cmocka_unit_test(test_swizzle_gamma_endian),
        cmocka_unit_test(test_pitch),
        cmocka_unit_test(test_mip_offsets),
        cmocka_unit_test(test_sampling_model),
        cmocka_unit_test(test_quad_lod),
        cmocka_unit_test(test_cube),
        cmocka_unit_test(test_cube_quad_lod),
        cmocka_unit_test(test_border_signed),
        cmocka_unit_test(test_volume_projected),
        cmocka_unit_test(test_options),
        cmocka_unit_test(test_hostile),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
