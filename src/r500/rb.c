/* R500 render backend: registers, options, binding to memory, pixel formats
 * and read-back. The per-fragment operations (alpha test, stencil, depth,
 * blending, ROP, masks) are in rb_pixel.c. Manual: docs/r500-rb.md; model
 * options: docs/assumptions.md "R500: render backend". Sources are listed in
 * include/lockstep/r500_rb.h. */
#include "lockstep/r500_rb.h"
#include "r500/rb_internal.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* ---- registers ---------------------------------------------------------- */

static const struct {
    const char *name;
    uint32_t addr;
} reg_table[R500_RB_NREGS] = {
#define R500_RBR_ROW_(id, name, addr) {name, addr},
    R500_RB_REGS(R500_RBR_ROW_)
#undef R500_RBR_ROW_
};

static const struct {
    const char *name;
    r500_rb_reg reg;
    unsigned lo, width;
} field_table[R500_RBF_COUNT] = {
#define R500_RBF_ROW_(id, reg, lo, width, name) {name, R500_RB_##reg, lo, width},
    R500_RB_FIELDS(R500_RBF_ROW_)
#undef R500_RBF_ROW_
};

const char *r500_rb_reg_name(r500_rb_reg r)
{
    return (unsigned)r < R500_RB_NREGS ? reg_table[r].name : "?";
}

uint32_t r500_rb_reg_addr(r500_rb_reg r)
{
    return (unsigned)r < R500_RB_NREGS ? reg_table[r].addr : 0;
}

const char *r500_rb_field_name(r500_rb_field f)
{
    return (unsigned)f < R500_RBF_COUNT ? field_table[f].name : "?";
}

bool r500_rb_write(r500_rb_state *s, uint32_t addr, uint32_t value)
{
    for (unsigned r = 0; r < R500_RB_NREGS; r++)
        if (reg_table[r].addr == addr) {
            s->reg[r] = value;
            return true;
        }
    return false;
}

static uint32_t fmask(unsigned width)
{
    return width >= 32 ? 0xffffffffu : (1u << width) - 1u;
}

uint32_t r500_rb_get(const r500_rb_state *s, r500_rb_reg reg, r500_rb_field f)
{
    if ((unsigned)f >= R500_RBF_COUNT || (unsigned)reg >= R500_RB_NREGS)
        return 0;
    return (s->reg[reg] >> field_table[f].lo) & fmask(field_table[f].width);
}

void r500_rb_set(r500_rb_state *s, r500_rb_reg reg, r500_rb_field f, uint32_t v)
{
    if ((unsigned)f >= R500_RBF_COUNT || (unsigned)reg >= R500_RB_NREGS)
        return;
    uint32_t m = fmask(field_table[f].width) << field_table[f].lo;
    s->reg[reg] = (s->reg[reg] & ~m) | ((v << field_table[f].lo) & m);
}

void r500_rb_state_init(r500_rb_state *s)
{
    memset(s, 0, sizeof *s);
    /* r300_context.c (r300_init_states) / r300_emit.c: the channel mask
     * enables all four channels, ZB_FORMAT 2 (24-bit Z + stencil), the
     * discard thresholds of RV350 and later; targets 1..3 unused. */
    s->reg[R500_RB_RB3D_COLOR_CHANNEL_MASK] = 0xf;
    s->reg[R500_RB_ZB_FORMAT] = 2;
    s->reg[R500_RB_RB3D_DISCARD_SRC_PIXEL_LTE_THRESHOLD] = 0x01010101u;
    s->reg[R500_RB_RB3D_DISCARD_SRC_PIXEL_GTE_THRESHOLD] = 0xfefefefeu;
    s->reg[R500_RB_US_OUT_FMT_0] = R500_OUT_C4_8 | (3u << 8) | (2u << 10) | (1u << 12) | (0u << 14);
    for (int t = 1; t < R500_RB_TARGETS; t++)
        s->reg[R500_RB_US_OUT_FMT_0 + t] = R500_OUT_UNUSED;
    s->reg[R500_RB_RB3D_COLORPITCH0] = (uint32_t)R500_CB_ARGB8888 << 21;
}

void r500_rb_state_from_regfile(r500_rb_state *s, const uint32_t *reg, const uint8_t *written,
                                size_t nreg)
{
    r500_rb_state_init(s);
    for (unsigned r = 0; r < R500_RB_NREGS; r++) {
        size_t i = reg_table[r].addr / 4;
        if (i < nreg && (!written || written[i]))
            s->reg[r] = reg[i];
    }
}

/* ---- options ------------------------------------------------------------ */

const char *const r500_rb_option_names[] = {"rb-round",   "rb-z-round",     "rb-blend-src",
                                            "rb-dither",  "rb-discard",     "rb-dst-missing",
                                            "tx-tile-order", "rb-beyond-pitch", "rb-zpass",
                                            "rb-cmask-2c", "rb-i8-dst", NULL};

void r500_rb_options_default(r500_rb_options *o)
{
    memset(o, 0, sizeof *o);
    o->round = R500_RBO_ROUND_NEAREST;
    o->z_round = R500_RBO_ROUND_NEAREST;
    o->blend_src = R500_RBO_BLEND_QUANTIZED;
    o->dither = R500_RBO_DITHER_DIRECT;
    o->discard = R500_RBO_DISCARD_IGNORE;
    o->dst_missing_one = true;
    o->tile_order = R500_TXO_TILE_ROW_MAJOR;
    o->beyond_pitch = R500_RBO_PITCH_DROP;
    o->zpass = R500_RBO_ZPASS_PIPE0;
    o->cmask_2c = R500_RBO_CMASK2_PAIR;
    o->i8_dst = R500_RBO_I8_STORED;
}

static int pick(const char *v, const char *const *names)
{
    for (int i = 0; names[i]; i++)
        if (strcmp(v, names[i]) == 0)
            return i;
    return -1;
}

ls_status r500_rb_options_set(r500_rb_options *o, const char *name, const char *value,
                              ls_diag *d)
{
    static const char *const rnd[] = {"nearest", "truncate", NULL};
    static const char *const blend[] = {"quantized", "float", NULL};
    static const char *const dith[] = {"direct", "register", NULL};
    static const char *const disc[] = {"ignore", "register", NULL};
    static const char *const miss[] = {"zero", "alpha-one", NULL};
    static const char *const tile[] = {"row-major", "column-major", NULL};
    static const char *const beyond[] = {"drop", "wrap", NULL};
    static const char *const zpass[] = {"pipe0", "off", NULL};
    static const char *const cmask2[] = {"pair", "direct", NULL};
    static const char *const i8[] = {"stored", "replicate", NULL};
    const char *const *names = NULL;
    int k = -1;
    if (!name || !value)
        return ls_diag_set(d, LS_ERR_ARG, NULL, 0, 0, "render backend option without a value");
    if (strcmp(name, "rb-round") == 0 || strcmp(name, "rb-z-round") == 0)
        names = rnd;
    else if (strcmp(name, "rb-blend-src") == 0)
        names = blend;
    else if (strcmp(name, "rb-dither") == 0)
        names = dith;
    else if (strcmp(name, "rb-discard") == 0)
        names = disc;
    else if (strcmp(name, "rb-dst-missing") == 0)
        names = miss;
    else if (strcmp(name, "tx-tile-order") == 0)
        names = tile;
    else if (strcmp(name, "rb-beyond-pitch") == 0)
        names = beyond;
    else if (strcmp(name, "rb-zpass") == 0)
        names = zpass;
    else if (strcmp(name, "rb-cmask-2c") == 0)
        names = cmask2;
    else if (strcmp(name, "rb-i8-dst") == 0)
        names = i8;
    else
        return ls_diag_set(d, LS_ERR_ARG, NULL, 0, 0, "unknown render backend option '%s'", name);
    if ((k = pick(value, names)) < 0) {
        char list[128] = "";
        for (int i = 0; names[i]; i++) {
            strncat(list, i ? ", " : "", sizeof list - strlen(list) - 1);
            strncat(list, names[i], sizeof list - strlen(list) - 1);
        }
        return ls_diag_set(d, LS_ERR_ARG, NULL, 0, 0, "option %s: '%s' is not one of %s", name,
                           value, list);
    }
    if (strcmp(name, "rb-round") == 0)
        o->round = (r500_rbo_round)k;
    else if (strcmp(name, "rb-z-round") == 0)
        o->z_round = (r500_rbo_round)k;
    else if (names == blend)
        o->blend_src = (r500_rbo_blend)k;
    else if (names == dith)
        o->dither = (r500_rbo_dither)k;
    else if (names == disc)
        o->discard = (r500_rbo_discard)k;
    else if (names == miss)
        o->dst_missing_one = k == 1;
    else if (names == beyond)
        o->beyond_pitch = (r500_rbo_pitch)k;
    else if (names == zpass)
        o->zpass = (r500_rbo_zpass)k;
    else if (names == cmask2)
        o->cmask_2c = (r500_rbo_cmask2)k;
    else if (names == i8)
        o->i8_dst = (r500_rbo_i8)k;
    else
        o->tile_order = (r500_txo_tile_order)k;
    return LS_OK;
}

/* ---- pixel formats ------------------------------------------------------ */

/* How a (COLORFORMAT, OUT_FMT) pair stores the components C0..C3: bytes per
 * pixel and, per component, its width, its shift and its kind. The fixed
 * 8-bit-per-channel layouts are COLORFORMAT's (rb3d_colorpitch.txt names
 * them from the most significant component: ARGB8888 has C0 in bits 7:0 —
 * Mesa's B8G8R8A8 with C0_SEL blue, r300_translate_out_fmt); I8 stores C2
 * and UV88 stores C2 in its low byte and C0 in its high byte (Mesa:
 * "COLORFORMAT_I8 stores the Z component (C2)", "COLORFORMAT_UV88 stores ZX
 * (C2 and C0)", with R8G8 = C2 red, C0 green). The 16- and 32-bit OUT_FMTs
 * put their components into formats of the same pixel size (Mesa's
 * r300_translate_colorformat: R16 in UV88, R16G16 and R32F in ARGB8888,
 * RGBA16 and RG32F in ARGB16161616; RG32F stores C0 and C2: "ARGB16161616
 * stores XZ for RG32F"). */
static const rb_pixfmt fmt_c4_8[] = {
    {R500_CB_ARGB8888, 4, {{8, 0}, {8, 8}, {8, 16}, {8, 24}}, {0, 0, 0, 0}},
    {R500_CB_RGB565, 2, {{5, 0}, {6, 5}, {5, 11}, {0, 0}}, {0, 0, 0, 0}},
    {R500_CB_ARGB1555, 2, {{5, 0}, {5, 5}, {5, 10}, {1, 15}}, {0, 0, 0, 0}},
    {R500_CB_ARGB4444, 2, {{4, 0}, {4, 4}, {4, 8}, {4, 12}}, {0, 0, 0, 0}},
    {R500_CB_I8, 1, {{0, 0}, {0, 0}, {8, 0}, {0, 0}}, {0, 0, 0, 0}},
    {R500_CB_UV88, 2, {{8, 8}, {0, 0}, {8, 0}, {0, 0}}, {0, 0, 0, 0}},
};
static const rb_pixfmt fmt_c4_10 = {R500_CB_ARGB2101010, 4, {{10, 0}, {10, 10}, {10, 20}, {2, 30}}, {0, 0, 0, 0}};
static const rb_pixfmt fmt_c1_16 = {R500_CB_UV88, 2, {{16, 0}, {0, 0}, {0, 0}, {0, 0}}, {0, 0, 0, 0}};
static const rb_pixfmt fmt_c2_16 = {R500_CB_ARGB8888, 4, {{16, 0}, {16, 16}, {0, 0}, {0, 0}}, {0, 0, 0, 0}};
static const rb_pixfmt fmt_c4_16 = {R500_CB_ARGB16161616, 8, {{16, 0}, {16, 16}, {16, 32}, {16, 48}}, {0, 0, 0, 0}};
static const rb_pixfmt fmt_c1_32 = {R500_CB_ARGB8888, 4, {{32, 0}, {0, 0}, {0, 0}, {0, 0}}, {0, 0, 0, 0}};
static const rb_pixfmt fmt_c2_32 = {R500_CB_ARGB16161616, 8, {{32, 0}, {0, 0}, {32, 32}, {0, 0}}, {0, 0, 0, 0}};
static const rb_pixfmt fmt_c4_32 = {R500_CB_ARGB32323232, 16, {{32, 0}, {32, 32}, {32, 64}, {32, 96}}, {0, 0, 0, 0}};

/* The layout for a pair, with the component kind; NULL if the pair is not one
 * the model (or Mesa) uses. */
static bool pixfmt_for(unsigned cbfmt, unsigned out, unsigned sign, rb_pixfmt *pf)
{
    const rb_pixfmt *p = NULL;
    unsigned kind = RB_KIND_UNORM;
    switch (out) {
    case R500_OUT_C4_8:
        for (size_t i = 0; i < sizeof fmt_c4_8 / sizeof fmt_c4_8[0]; i++)
            if (fmt_c4_8[i].cbfmt == cbfmt)
                p = &fmt_c4_8[i];
        break;
    case R500_OUT_C4_10: p = &fmt_c4_10; break;
    case R500_OUT_C_16: p = &fmt_c1_16; break;
    case R500_OUT_C2_16: p = &fmt_c2_16; break;
    case R500_OUT_C4_16: p = &fmt_c4_16; break;
    case R500_OUT_C_16_FP: p = &fmt_c1_16; kind = RB_KIND_HALF; break;
    case R500_OUT_C2_16_FP: p = &fmt_c2_16; kind = RB_KIND_HALF; break;
    case R500_OUT_C4_16_FP: p = &fmt_c4_16; kind = RB_KIND_HALF; break;
    case R500_OUT_C_32_FP: p = &fmt_c1_32; kind = RB_KIND_FLOAT; break;
    case R500_OUT_C2_32_FP: p = &fmt_c2_32; kind = RB_KIND_FLOAT; break;
    case R500_OUT_C4_32_FP: p = &fmt_c4_32; kind = RB_KIND_FLOAT; break;
    default: break;
    }
    if (!p || p->cbfmt != cbfmt)
        return false;
    *pf = *p;
    for (int k = 0; k < 4; k++) {
        /* OUT_SIGN bit k: component Ck is signed (us_out_fmt.txt "(S/U)";
         * Mesa sets all four for signed formats) */
        pf->kind[k] = kind;
        if (kind == RB_KIND_UNORM && (sign >> k & 1u))
            pf->kind[k] = RB_KIND_SNORM;
    }
    return true;
}

/* COLORENDIAN / DEPTHENDIAN: bytes permuted inside each aligned dword (no
 * swap, 16-bit word swap, dword swap, half-dword swap: the byte orders of
 * r300_reg.h's R300_SURF_*_SWAP, as src/r500/txu.c reads textures). */
static const uint8_t endian_perm[4][4] = {{0, 1, 2, 3}, {1, 0, 3, 2}, {3, 2, 1, 0}, {2, 3, 0, 1}};

static size_t phys(size_t a, unsigned endian)
{
    return (a & ~(size_t)3) + endian_perm[endian & 3][a & 3];
}

void rb_load(const r500_rb_surface *s, int x, int y, uint32_t w[4])
{
    size_t a = r500_txu_texel_addr(&s->layout, 0, 0, x, y);
    unsigned n = s->layout.bpp;
    memset(w, 0, 4 * sizeof *w);
    for (unsigned i = 0; i < n; i++) {
        size_t p = phys(a + i, s->endian);
        uint8_t b = p < s->size ? s->mem[p] : 0;
        w[i / 4] |= (uint32_t)b << (8 * (i % 4));
    }
}

void rb_store(const r500_rb_surface *s, int x, int y, const uint32_t w[4])
{
    size_t a = r500_txu_texel_addr(&s->layout, 0, 0, x, y);
    unsigned n = s->layout.bpp;
    for (unsigned i = 0; i < n; i++) {
        size_t p = phys(a + i, s->endian);
        if (p < s->size) /* the bind checked the whole area; this is a second guard */
            s->mem[p] = (uint8_t)(w[i / 4] >> (8 * (i % 4)));
    }
}

void r500_rb_store_word(const r500_rb *rb, unsigned target, int x, int y, uint32_t word)
{
    if (target >= R500_RB_TARGETS || !rb->cb[target].active || x < 0 || y < 0 ||
        x >= rb->width || x >= rb->cols || y >= rb->height)
        return;
    const r500_rb_surface *s = &rb->cb[target];
    uint32_t w[4] = {word, 0, 0, 0};
    if (s->layout.bpp > 4)
        return; /* a pixel wider than the word: not a CBZB surface */
    rb_store(s, x, y, w);
}

uint32_t rb_bits_get(const uint32_t w[4], unsigned bits, unsigned shift)
{
    return (w[shift / 32] >> (shift % 32)) & fmask(bits);
}

void rb_bits_put(uint32_t w[4], unsigned bits, unsigned shift, uint32_t v)
{
    uint32_t m = fmask(bits) << (shift % 32);
    w[shift / 32] = (w[shift / 32] & ~m) | ((v << (shift % 32)) & m);
}

/* IEEE half <-> float, round to nearest even (the FP16 formats; r300's
 * _mesa_float_to_half rounds the same way). */
uint16_t rb_float_to_half(float f)
{
    uint32_t x;
    memcpy(&x, &f, 4);
    uint32_t sign = (x >> 16) & 0x8000u;
    uint32_t e = (x >> 23) & 0xffu, m = x & 0x7fffffu;
    if (e == 0xff)
        return (uint16_t)(sign | 0x7c00u | (m ? 0x200u : 0));
    int ue = (int)e - 127 + 15;
    if (ue >= 31)
        return (uint16_t)(sign | 0x7c00u);
    if (ue <= 0) {
        if (ue < -10)
            return (uint16_t)sign;
        m |= 0x800000u;
        unsigned shift = (unsigned)(14 - ue);
        uint32_t h = m >> shift, rem = m & ((1u << shift) - 1u), half = 1u << (shift - 1);
        if (rem > half || (rem == half && (h & 1u)))
            h++;
        return (uint16_t)(sign | h);
    }
    uint32_t h = ((uint32_t)ue << 10) | (m >> 13), rem = m & 0x1fffu;
    if (rem > 0x1000u || (rem == 0x1000u && (h & 1u)))
        h++; /* a carry into the exponent is still the right encoding */
    return (uint16_t)(sign | h);
}

/* Unsigned / signed normalized conversions (rb-round). NaN reads 0. */
uint32_t rb_to_unorm(float v, unsigned bits, r500_rbo_round r)
{
    double max = (double)fmask(bits);
    double x = v != v ? 0.0 : v < 0 ? 0.0 : v > 1 ? 1.0 : (double)v;
    x *= max;
    return (uint32_t)(r == R500_RBO_ROUND_TRUNCATE ? floor(x) : floor(x + 0.5));
}

uint32_t rb_to_snorm(float v, unsigned bits, r500_rbo_round r)
{
    double max = (double)fmask(bits - 1);
    double x = v != v ? 0.0 : v < -1 ? -1.0 : v > 1 ? 1.0 : (double)v;
    x *= max;
    double q = r == R500_RBO_ROUND_TRUNCATE ? trunc(x) : floor(x + 0.5);
    return (uint32_t)(int32_t)q & fmask(bits);
}

float rb_component_to_float(unsigned kind, uint32_t v, unsigned bits)
{
    switch (kind) {
    case RB_KIND_UNORM: return (float)((double)v / (double)fmask(bits));
    case RB_KIND_SNORM: {
        int32_t s = (int32_t)(v << (32 - bits)) >> (32 - bits);
        double f = (double)s / (double)fmask(bits - 1);
        return (float)(f < -1 ? -1 : f);
    }
    case RB_KIND_HALF: return r500_tx_half_to_float((uint16_t)v);
    default: {
        float f;
        memcpy(&f, &v, 4);
        return f;
    }
    }
}

/* A float into component k of surface s (C4_8 formats narrower than 8 bits
 * per the rb-dither option and RB3D_DITHER_CTL). */
uint32_t rb_component_from_float(const r500_rb *rb, const r500_rb_surface *s, unsigned k,
                                 float v)
{
    unsigned bits = s->pf.c[k].bits;
    switch (s->pf.kind[k]) {
    case RB_KIND_HALF: return rb_float_to_half(v);
    case RB_KIND_FLOAT: {
        uint32_t u;
        memcpy(&u, &v, 4);
        return u;
    }
    case RB_KIND_SNORM:
        if (bits < 8 && s->out_fmt == R500_OUT_C4_8 && rb->opt.dither == R500_RBO_DITHER_REGISTER) {
            /* via the US's 8-bit value, then to the buffer's bits */
            uint32_t v8 = rb_to_snorm(v, 8, rb->opt.round);
            int32_t sv = (int32_t)(v8 << 24) >> 24;
            return (uint32_t)(sv >> (8 - bits)) & fmask(bits);
        }
        return rb_to_snorm(v, bits, rb->opt.round);
    default:
        if (bits < 8 && s->out_fmt == R500_OUT_C4_8 && rb->opt.dither == R500_RBO_DITHER_REGISTER) {
            /* rb3d_dither_ctl.txt: DITHER_MODE (colour) / ALPHA_DITHER_MODE
             * 0 truncate, 1 round, 2 LUT dither (read as round: the table
             * is not documented) */
            uint32_t v8 = rb_to_unorm(v, 8, rb->opt.round);
            r500_rb_field f = k == 3 ? R500_RBF_ALPHA_DITHER_MODE : R500_RBF_DITHER_MODE;
            unsigned mode = r500_rb_get(&rb->s, R500_RB_RB3D_DITHER_CTL, f);
            if (mode == 0)
                return v8 >> (8 - bits);
            return (v8 * fmask(bits) + 127u) / 255u;
        }
        return rb_to_unorm(v, bits, rb->opt.round);
    }
}

/* ---- binding ------------------------------------------------------------ */

static ls_status bind_layout(r500_rb_surface *sf, unsigned bpp, size_t offset, size_t pitch,
                             unsigned macro, unsigned micro, int width, int height,
                             const r500_rb_options *o, const char *offreg, const char *pitchreg,
                             const char *what, ls_diag *d)
{
    unsigned tw = 1, th = 1;
    if (micro == 3)
        return ls_diag_set(d, LS_ERR_RANGE, NULL, 0, 0, "%s: micro tiling mode 3 is reserved",
                           pitchreg);
    if (!r500_tx_tile_size(bpp, false, micro, &tw, &th) ||
        (macro && !r500_tx_tile_size(bpp, true, micro, &tw, &th)))
        return ls_diag_set(d, LS_ERR_UNSUPPORTED, NULL, 0, 0,
                           "%s: %s tiling (macro %u, micro %u) does not exist for %u-byte pixels "
                           "(r300_texture_desc.c tile table)",
                           pitchreg, what, macro, micro, bpp);
    /* The buffer has no width register, only a pitch (rb3d_colorpitch.txt,
     * zb_depthpitch.txt); r300's CBZB clear scissors align(width, 64)
     * pixels (r300_texture.c cbzb_width), which can pass the pitch. Pixels
     * right of the pitch: option rb-beyond-pitch (docs/assumptions.md).
     * drop: they are not written, so the buffer is `pitch` pixels wide;
     * wrap: they land where the address arithmetic puts them (the next
     * row's or tile row's start), inside the buffer or refused below. */
    if (pitch == 0)
        return ls_diag_set(d, LS_ERR_RANGE, NULL, 0, 0, "%s: pitch 0", pitchreg);
    int cols = width;
    if (pitch < (size_t)width && o->beyond_pitch == R500_RBO_PITCH_DROP)
        cols = (int)pitch;
    if (!macro && !micro) {
        tw = 1;
        th = 1;
    }
    if (pitch % tw)
        return ls_diag_set(d, LS_ERR_RANGE, NULL, 0, 0,
                           "%s: pitch %zu pixels is not a multiple of the %u-pixel tile", pitchreg,
                           pitch, tw);
    size_t rows = ((size_t)height + th - 1) / th * th;
    size_t need = ((size_t)(height - 1) * pitch + (size_t)cols) * bpp;
    if (macro || micro) {
        /* whole tile rows; a row wider than the pitch (wrap) reaches into
         * the tiles after the last tile row's first pitch/tw */
        size_t per_row = pitch / tw, tile_bytes = (size_t)tw * th * bpp;
        size_t last = (rows / th - 1) * per_row + ((size_t)cols - 1) / tw + 1;
        need = rows * pitch * bpp;
        if (last * tile_bytes > need)
            need = last * tile_bytes;
    }
    if (!sf->mem || offset > sf->size || need > sf->size - offset)
        return ls_diag_set(d, LS_ERR_RANGE, NULL, 0, 0,
                           "%s needs bytes up to %zu (%s = 0x%zx, %s: pitch %zu, %dx%d pixels "
                           "of %u bytes) but its buffer holds %zu",
                           what, offset + need, offreg, offset, pitchreg, pitch, width, height, bpp,
                           sf->mem ? sf->size : 0);
    r500_txu *t = &sf->layout;
    memset(t, 0, sizeof *t);
    r500_tx_options_default(&t->opt);
    t->opt.tile_order = o->tile_order;
    t->bpp = bpp;
    t->micro = micro == 1;
    t->square = micro == 2;
    t->macro_req = macro != 0;
    t->w = width;
    t->h = height;
    t->d = 1;
    t->levels = 1;
    t->mem = sf->mem;
    t->size = sf->size;
    t->lv[0].w = width;
    t->lv[0].h = height;
    t->lv[0].d = 1;
    t->lv[0].macro = macro != 0;
    t->lv[0].offset = offset;
    t->lv[0].pitch = pitch;
    t->lv[0].rows = rows;
    t->lv[0].layer = rows * pitch * bpp;
    sf->cols = cols;
    return LS_OK;
}

static ls_status check_blend_factors(uint32_t reg, const char *name, ls_diag *d)
{
    unsigned src = (reg >> 16) & 63u, dst = (reg >> 24) & 63u;
    /* rb3d_blendcntl.txt: SRCBLEND 1..13 (D3D) and 32..46 (GL); DESTBLEND
     * 1..10 and 32..46 except 42 (SRC_ALPHA_SATURATE) */
    bool src_ok = (src >= 1 && src <= 13) || (src >= 32 && src <= 46);
    bool dst_ok = (dst >= 1 && dst <= 10) || (dst >= 32 && dst <= 46 && dst != 42);
    if (!src_ok)
        return ls_diag_set(d, LS_ERR_RANGE, NULL, 0, 0, "%s.SRCBLEND = %u is reserved", name, src);
    if (!dst_ok)
        return ls_diag_set(d, LS_ERR_RANGE, NULL, 0, 0, "%s.DESTBLEND = %u is reserved", name, dst);
    return LS_OK;
}

ls_status r500_rb_bind(r500_rb *rb, const r500_rb_state *s, const r500_rb_memory *m, int width,
                       int height, const r500_rb_options *o, ls_diag *d)
{
    memset(rb, 0, sizeof *rb);
    rb->s = *s;
    if (o)
        rb->opt = *o;
    else
        r500_rb_options_default(&rb->opt);
    if (width < 1 || height < 1 || width > 4096 || height > 4096)
        return ls_diag_set(d, LS_ERR_RANGE, NULL, 0, 0,
                           "render target %dx%d is outside 1x1..4096x4096", width, height);
    rb->width = width;
    rb->height = height;
    ls_status st;

    uint32_t bc = s->reg[R500_RB_RB3D_BLENDCNTL];
    if (bc & 1u) {
        if ((st = check_blend_factors(bc, "RB3D_BLENDCNTL", d)) != LS_OK)
            return st;
        if ((bc & 2u) &&
            (st = check_blend_factors(s->reg[R500_RB_RB3D_ABLENDCNTL], "RB3D_ABLENDCNTL", d)) !=
                LS_OK)
            return st;
    }

    unsigned multi = r500_rb_get(s, R500_RB_RB3D_CCTL, R500_RBF_NUM_MULTIWRITES);
    bool indep_fmt = r500_rb_get(s, R500_RB_RB3D_CCTL, R500_RBF_INDEPENDENT_COLORFORMAT_ENABLE);
    bool indep_mask =
        r500_rb_get(s, R500_RB_RB3D_CCTL, R500_RBF_INDEPENDENT_COLOR_CHANNEL_MASK_ENABLE);
    uint32_t chmask = s->reg[R500_RB_RB3D_COLOR_CHANNEL_MASK];
    for (unsigned t = 0; t < R500_RB_TARGETS; t++) {
        r500_rb_surface *sf = &rb->cb[t];
        /* rb3d_cctl.txt NUM_MULTIWRITES: "A quad is replicated and written to
         * this many buffers": buffers 1..N take target 0's output format */
        unsigned src_t = multi ? 0 : t;
        r500_rb_reg ofr = (r500_rb_reg)(R500_RB_US_OUT_FMT_0 + src_t);
        unsigned out = r500_rb_get(s, ofr, R500_RBF_OUT_FMT);
        if (multi ? t > multi : out == R500_OUT_UNUSED)
            continue;
        char offreg[32], pitchreg[32], what[32], ofname[24];
        snprintf(offreg, sizeof offreg, "RB3D_COLOROFFSET%u", t);
        snprintf(pitchreg, sizeof pitchreg, "RB3D_COLORPITCH%u", t);
        snprintf(what, sizeof what, "colour buffer %u", t);
        snprintf(ofname, sizeof ofname, "US_OUT_FMT_%u", src_t);
        r500_rb_reg pr = (r500_rb_reg)(R500_RB_RB3D_COLORPITCH0 + t);
        /* rb3d_cctl.txt: without INDEPENDENT_COLORFORMAT_ENABLE "all the MRTs
         * use color format 0" */
        unsigned cbfmt = r500_rb_get(s, indep_fmt ? pr : R500_RB_RB3D_COLORPITCH0,
                                     R500_RBF_COLORFORMAT);
        unsigned sign = r500_rb_get(s, ofr, R500_RBF_OUT_SIGN);
        /* rb3d_color_channel_mask.txt: BLUE_MASK, GREEN_MASK, RED_MASK,
         * ALPHA_MASK (bits 0..3) gate components C0..C3 (the ARGB8888 view:
         * C0 is blue; Mesa's bgra_cmask/rgba_cmask swizzle GL's mask to
         * components this way); MRT n uses bits 4n..4n+3 with
         * INDEPENDENT_COLOR_CHANNEL_MASK_ENABLE, else mask 0 */
        sf->mask = (indep_mask ? chmask >> (4 * t) : chmask) & 0xfu;
        sf->mem = m ? m->color[t] : NULL;
        sf->size = m ? m->color_size[t] : 0;
        /* every component masked: nothing is written to this buffer, so
         * it is not bound (the kernel's r100_cs_track_check needs no colour
         * buffer when the channel mask is 0: a depth-only draw). Nor is its
         * output format checked against COLORPITCHn: for a framebuffer
         * without colour buffers r300 writes US_OUT_FMT_0 = C4_8 with the
         * BGRA selectors (r300_emit.c r300_emit_fb_state_pipelined) and
         * leaves RB3D_COLORPITCH0 and the buffer's relocation as the last
         * colour buffer set them, which may be a format C4_8 does not pair
         * with (ARGB2101010, a 10-bit window on GBM) */
        if (sf->mask == 0)
            continue;
        if (!pixfmt_for(cbfmt, out, sign, &sf->pf))
            return ls_diag_set(d, LS_ERR_UNSUPPORTED, NULL, 0, 0,
                               "%s.OUT_FMT = %u with %s.COLORFORMAT = %u is not a pair the model "
                               "writes (Mesa's pairs: r300_translate_colorformat / "
                               "r300_translate_out_fmt)",
                               ofname, out, indep_fmt ? pitchreg : "RB3D_COLORPITCH0", cbfmt);
        if (sf->pf.kind[0] <= RB_KIND_SNORM && r500_rb_get(s, ofr, R500_RBF_ROUND_ADJ))
            return ls_diag_set(d, LS_ERR_UNSUPPORTED, NULL, 0, 0,
                               "%s.ROUND_ADJ = 1 (modified rounding of fixed-point data) is not "
                               "modelled",
                               ofname);
        sf->out_fmt = out;
        sf->format = cbfmt;
        sf->sign = sign;
        /* Two-component 16- and 32-bit outputs (option rb-cmask-2c, pair):
         * Mesa's r300 masks them with grrg_cmask / arra_cmask, "figured out
         * by trial-and-error" on the hardware (r300_state.c), for R16G16,
         * RG16F, RG32F and L16A16 (r300_translate_colormask_swizzle) whose
         * first component is C0 and second C1 (C2 for RG32F:
         * r300_translate_out_fmt): C0 is gated by GREEN_MASK or RED_MASK
         * (bits 1, 2), the second by BLUE_MASK or ALPHA_MASK (bits 0, 3).
         * (UV88's C2 and C0 follow the bits directly, as r300's masks do.) */
        if (rb->opt.cmask_2c == R500_RBO_CMASK2_PAIR &&
            (out == R500_OUT_C2_16 || out == R500_OUT_C2_16_FP || out == R500_OUT_C2_32_FP))
            sf->mask = ((sf->mask & 6u) ? 1u : 0u) | ((sf->mask & 9u) ? 6u : 0u);
        static const r500_rb_field sels[4] = {R500_RBF_C0_SEL, R500_RBF_C1_SEL, R500_RBF_C2_SEL,
                                              R500_RBF_C3_SEL};
        for (int k = 0; k < 4; k++)
            sf->sel[k] = r500_rb_get(s, ofr, sels[k]);
        sf->endian = r500_rb_get(s, pr, R500_RBF_COLORENDIAN);
        size_t off = (size_t)s->reg[R500_RB_RB3D_COLOROFFSET0 + t] & ~(size_t)31;
        uint32_t pitchv = s->reg[pr];
        size_t pitch = pitchv & 0x3ffeu;
        if ((st = bind_layout(sf, sf->pf.bytes, off, pitch, (pitchv >> 16) & 1u,
                              (pitchv >> 17) & 3u, width, height, &rb->opt, offreg, pitchreg, what,
                              d)) != LS_OK)
            return st;
        sf->active = true;
    }

    /* constant colour (rb3d_constant_color_ar/gb.txt: "0.10 fixed or FP16";
     * Mesa writes FP16 for RGBA16F targets, float_to_fixed10 otherwise; the
     * R520 ignores RB3D_CONSTANT_COLOR). RED pairs with C2, GREEN C1, BLUE C0,
     * ALPHA C3 — the ARGB8888 view, as r300_set_blend_color swaps red and
     * blue for RGBA8 targets — except that an I8 target blends its one
     * component with GREEN (r300_set_blend_color copies the channel that
     * I8/A8 targets store into green). */
    {
        uint32_t ar = s->reg[R500_RB_RB3D_CONSTANT_COLOR_AR];
        uint32_t gb = s->reg[R500_RB_RB3D_CONSTANT_COLOR_GB];
        uint32_t raw[4] = {gb & 0xffffu, gb >> 16, ar & 0xffffu, ar >> 16}; /* B G R A */
        const r500_rb_surface *c0 = &rb->cb[0];
        bool fp16 = c0->active && c0->pf.kind[0] == RB_KIND_HALF;
        for (int k = 0; k < 4; k++)
            rb->constant[k] =
                fp16 ? r500_tx_half_to_float((uint16_t)raw[k]) : (float)(raw[k] & 0x3ffu) / 1023.0f;
        if (c0->active && c0->format == R500_CB_I8)
            rb->constant[2] = rb->constant[1];
    }

    /* depth / stencil buffer: needed when either test is on */
    bool zen = r500_rb_get(s, R500_RB_ZB_CNTL, R500_RBF_Z_ENABLE);
    bool sen = r500_rb_get(s, R500_RB_ZB_CNTL, R500_RBF_STENCIL_ENABLE);
    if (zen || sen) {
        if (r500_rb_get(s, R500_RB_ZB_CNTL, R500_RBF_ZSIGNED_COMPARE))
            return ls_diag_set(d, LS_ERR_UNSUPPORTED, NULL, 0, 0,
                               "ZB_CNTL.ZSIGNED_COMPARE = 1 (W-buffering) is not modelled");
        unsigned zf = r500_rb_get(s, R500_RB_ZB_FORMAT, R500_RBF_DEPTHFORMAT);
        if (zf != 0 && zf != 2)
            return ls_diag_set(d, LS_ERR_UNSUPPORTED, NULL, 0, 0,
                               "ZB_FORMAT.DEPTHFORMAT = %u is not modelled (0: 16-bit Z, 2: 24-bit "
                               "Z + 8-bit stencil; 1 is the compressed 13E3 format, 3..15 are "
                               "reserved)",
                               zf);
        r500_rb_surface *z = &rb->zb;
        z->format = zf;
        z->endian = r500_rb_get(s, R500_RB_ZB_DEPTHPITCH, R500_RBF_DEPTHENDIAN);
        z->mem = m ? m->depth : NULL;
        z->size = m ? m->depth_size : 0;
        uint32_t pv = s->reg[R500_RB_ZB_DEPTHPITCH];
        if ((st = bind_layout(z, zf == 0 ? 2u : 4u,
                              (size_t)s->reg[R500_RB_ZB_DEPTHOFFSET] & ~(size_t)31, pv & 0x3ffcu,
                              (pv >> 16) & 1u, (pv >> 17) & 3u, width, height, &rb->opt,
                              "ZB_DEPTHOFFSET", "ZB_DEPTHPITCH", "the depth buffer", d)) != LS_OK)
            return st;
        z->active = true;
    }
    /* rb-beyond-pitch drop: a pixel right of any bound buffer's pitch is
     * written to none of them (it goes no further than the scissor would
     * let it) */
    rb->cols = width;
    for (unsigned t = 0; t < R500_RB_TARGETS; t++)
        if (rb->cb[t].active && rb->cb[t].cols < rb->cols)
            rb->cols = rb->cb[t].cols;
    if (rb->zb.active && rb->zb.cols < rb->cols)
        rb->cols = rb->zb.cols;
    return LS_OK;
}

/* ---- read-back and clears ---------------------------------------------- */

void r500_rb_read_components(const r500_rb *rb, unsigned target, int x, int y, float c[4])
{
    const r500_rb_surface *s = &rb->cb[target % R500_RB_TARGETS];
    uint32_t w[4];
    rb_load(s, x, y, w);
    for (int k = 0; k < 4; k++)
        c[k] = s->pf.c[k].bits
                   ? rb_component_to_float(s->pf.kind[k],
                                           rb_bits_get(w, s->pf.c[k].bits, s->pf.c[k].shift),
                                           s->pf.c[k].bits)
                   : 0.0f;
}

/* us_out_fmt.txt C*_SEL: 0 alpha, 1 red, 2 green, 3 blue -> RGBA index */
static unsigned sel_channel(unsigned sel)
{
    return sel == 0 ? 3u : sel - 1u;
}

void r500_rb_read_color(const r500_rb *rb, unsigned target, float *rgba)
{
    const r500_rb_surface *s = &rb->cb[target % R500_RB_TARGETS];
    for (int y = 0; y < rb->height; y++)
        for (int x = 0; x < rb->width; x++) {
            float *p = rgba + ((size_t)y * (size_t)rb->width + (size_t)x) * 4;
            p[0] = p[1] = p[2] = 0.0f;
            p[3] = 1.0f;
            if (!s->active)
                continue;
            float c[4];
            r500_rb_read_components(rb, target, x, y, c);
            for (int k = 0; k < 4; k++)
                if (s->pf.c[k].bits)
                    p[sel_channel(s->sel[k])] = c[k];
        }
}

void rb_depth_load(const r500_rb *rb, int x, int y, uint32_t *z, uint32_t *stencil)
{
    uint32_t w[4];
    rb_load(&rb->zb, x, y, w);
    /* zb_format.txt "24-bit Integer Z, 8 bit Stencil (LSBs)" */
    if (rb->zb.format == 0) {
        *z = w[0] & 0xffffu;
        *stencil = 0;
    } else {
        *z = w[0] >> 8;
        *stencil = w[0] & 0xffu;
    }
}

void rb_depth_store(const r500_rb *rb, int x, int y, uint32_t z, uint32_t stencil)
{
    uint32_t w[4] = {rb->zb.format == 0 ? (z & 0xffffu) : (z << 8) | (stencil & 0xffu), 0, 0, 0};
    rb_store(&rb->zb, x, y, w);
}

void r500_rb_read_depth(const r500_rb *rb, float *depth, uint8_t *stencil)
{
    double max = rb->zb.format == 0 ? 65535.0 : 16777215.0;
    for (int y = 0; y < rb->height; y++)
        for (int x = 0; x < rb->width; x++) {
            uint32_t z = 0, sv = 0;
            if (rb->zb.active)
                rb_depth_load(rb, x, y, &z, &sv);
            size_t i = (size_t)y * (size_t)rb->width + (size_t)x;
            if (depth)
                depth[i] = (float)(z / max);
            if (stencil)
                stencil[i] = (uint8_t)sv;
        }
}

void rb_pack_color(const r500_rb *rb, const r500_rb_surface *s, const float comp[4], uint32_t w[4])
{
    memset(w, 0, 4 * sizeof *w);
    for (unsigned k = 0; k < 4; k++)
        if (s->pf.c[k].bits)
            rb_bits_put(w, s->pf.c[k].bits, s->pf.c[k].shift,
                        rb_component_from_float(rb, s, k, comp[k]));
}

void r500_rb_clear_color(const r500_rb *rb, unsigned target, const float rgba[4])
{
    const r500_rb_surface *s = &rb->cb[target % R500_RB_TARGETS];
    if (!s->active)
        return;
    float comp[4];
    for (int k = 0; k < 4; k++)
        comp[k] = rgba[sel_channel(s->sel[k])];
    uint32_t w[4];
    rb_pack_color(rb, s, comp, w);
    for (int y = 0; y < rb->height; y++)
        for (int x = 0; x < rb->width; x++)
            rb_store(s, x, y, w);
}

uint32_t rb_depth_fixed(const r500_rb *rb, float z)
{
    return rb_to_unorm(z, rb->zb.format == 0 ? 16u : 24u, rb->opt.z_round);
}

void r500_rb_clear_depth(const r500_rb *rb, float depth, uint8_t stencil)
{
    if (!rb->zb.active)
        return;
    uint32_t z = rb_depth_fixed(rb, depth);
    for (int y = 0; y < rb->height; y++)
        for (int x = 0; x < rb->width; x++)
            rb_depth_store(rb, x, y, z, stencil);
}
