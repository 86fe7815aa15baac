/* R500 render backend: the per-fragment operations, in the order GL and the
 * FG -> ZB -> RB3D block order give them: alpha test (FG), stencil and depth
 * test and write (ZB), then per colour target blending, logic op, channel
 * mask and the store (RB3D). Model options: docs/assumptions.md "R500:
 * render backend". */
#include "lockstep/r500_rb.h"
#include "r500/rb_internal.h"

#include <math.h>
#include <string.h>

/* Comparison functions. zb_zstencilcntl.txt ZFUNC / STENCILFUNC: 0 never,
 * 1 less, 2 less or equal, 3 equal, 4 greater or equal, 5 greater, 6 not
 * equal, 7 always ("incoming OP stored"). */
static bool zcmp(unsigned f, uint32_t a, uint32_t b)
{
    switch (f & 7u) {
    case 0: return false;
    case 1: return a < b;
    case 2: return a <= b;
    case 3: return a == b;
    case 4: return a >= b;
    case 5: return a > b;
    case 6: return a != b;
    default: return true;
    }
}

/* fg_alpha_func.txt AF_FUNC: 0 never, 1 less, 2 equal, 3 less or equal,
 * 4 greater, 5 not equal, 6 greater or equal, 7 always (a different order
 * from ZFUNC). */
static bool acmp(unsigned f, double a, double ref)
{
    switch (f & 7u) {
    case 0: return false;
    case 1: return a < ref;
    case 2: return a == ref;
    case 3: return a <= ref;
    case 4: return a > ref;
    case 5: return a != ref;
    case 6: return a >= ref;
    default: return true;
    }
}

static bool alpha_test(const r500_rb *rb, float alpha)
{
    const r500_rb_state *s = &rb->s;
    if (!r500_rb_get(s, R500_RB_FG_ALPHA_FUNC, R500_RBF_AF_EN))
        return true;
    unsigned f = r500_rb_get(s, R500_RB_FG_ALPHA_FUNC, R500_RBF_AF_FUNC);
    if (r500_rb_get(s, R500_RB_FG_ALPHA_FUNC, R500_RBF_FP16_ENABLE)) {
        /* FP16 compare against FG_ALPHA_VALUE as a half (fg_alpha_value.txt) */
        float ref = r500_tx_half_to_float(
            (uint16_t)r500_rb_get(s, R500_RB_FG_ALPHA_VALUE, R500_RBF_AF_VALUE));
        float a = r500_tx_half_to_float(rb_float_to_half(alpha));
        return acmp(f, a, ref);
    }
    if (r500_rb_get(s, R500_RB_FG_ALPHA_FUNC, R500_RBF_AF_EN_8BIT)) {
        /* "8-bit alpha compare value when AF_EN_8BIT is enabled" (AF_VAL 7:0) */
        uint32_t a = rb_to_unorm(alpha, 8, rb->opt.round);
        return acmp(f, a, r500_rb_get(s, R500_RB_FG_ALPHA_FUNC, R500_RBF_AF_VAL));
    }
    /* "Default 10-bit alpha compare": FG_ALPHA_VALUE 0.10 fixed (bits 9:0) */
    uint32_t a = rb_to_unorm(alpha, 10, rb->opt.round);
    return acmp(f, a, r500_rb_get(s, R500_RB_FG_ALPHA_VALUE, R500_RBF_AF_VALUE) & 0x3ffu);
}

/* zb_zstencilcntl.txt STENCILFAIL/ZPASS/ZFAIL: keep, zero, replace, increment
 * (clamp), decrement (clamp), invert, increment (wrap), decrement (wrap). */
static uint32_t stencil_op(unsigned op, uint32_t v, uint32_t ref)
{
    switch (op & 7u) {
    case 0: return v;
    case 1: return 0;
    case 2: return ref;
    case 3: return v < 255 ? v + 1 : 255;
    case 4: return v > 0 ? v - 1 : 0;
    case 5: return ~v & 0xffu;
    case 6: return (v + 1) & 0xffu;
    default: return (v - 1) & 0xffu;
    }
}

/* The fragment's depth: FG_DEPTH_SRC 0 "from scan converter", 1 "from
 * shader"; with the shader, US_W_FMT.W_SRC 0 takes the US's W, 1 the
 * rasterizer's, and W_FMT 0 "W is always zero". The value is clamped to
 * [0,1] (GL's window depth range). W24_FP is read as W24 (Mesa never
 * writes it). */
static float frag_depth(const r500_rb *rb, const r500_rb_pixel *px)
{
    const r500_rb_state *s = &rb->s;
    float z = px->z;
    if (r500_rb_get(s, R500_RB_FG_DEPTH_SRC, R500_RBF_DEPTH_SRC)) {
        if (r500_rb_get(s, R500_RB_US_W_FMT, R500_RBF_W_FMT) == 0)
            z = 0.0f;
        else if (!r500_rb_get(s, R500_RB_US_W_FMT, R500_RBF_W_SRC))
            z = px->w;
    }
    return z != z ? 0.0f : z < 0 ? 0.0f : z > 1 ? 1.0f : z;
}

/* ---- blending ------------------------------------------------------------ */

/* rb3d_blendcntl.txt SRCBLEND/DESTBLEND for component k (3 = alpha) with
 * source S, destination D (per component) and constant C. */
static double factor(unsigned code, unsigned k, const double S[4], const double D[4],
                     const double C[4], bool is_src)
{
    switch (code) {
    case 1: case 32: return 0.0;                         /* ZERO */
    case 2: case 33: return 1.0;                         /* ONE */
    case 3: case 34: return S[k];                        /* SRC_COLOR */
    case 4: case 35: return 1.0 - S[k];                  /* ONE_MINUS_SRC_COLOR */
    case 9: case 36: return D[k];                        /* DST_COLOR */
    case 10: case 37: return 1.0 - D[k];                 /* ONE_MINUS_DST_COLOR */
    case 5: case 38: return S[3];                        /* SRC_ALPHA */
    case 6: case 39: return 1.0 - S[3];                  /* ONE_MINUS_SRC_ALPHA */
    case 7: case 40: return D[3];                        /* DST_ALPHA */
    case 8: case 41: return 1.0 - D[3];                  /* ONE_MINUS_DST_ALPHA */
    case 11: case 42:                                    /* SRC_ALPHA_SATURATE */
        if (k == 3)
            return 1.0;
        return S[3] < 1.0 - D[3] ? S[3] : 1.0 - D[3];
    case 12: return is_src ? S[3] : 1.0 - S[3];          /* D3D_BOTHSRCALPHA */
    case 13: return is_src ? 1.0 - S[3] : S[3];          /* D3D_BOTHINVSRCALPHA */
    case 43: return C[k];                                /* CONSTANT_COLOR */
    case 44: return 1.0 - C[k];                          /* ONE_MINUS_CONSTANT_COLOR */
    case 45: return C[3];                                /* CONSTANT_ALPHA */
    case 46: return 1.0 - C[3];                          /* ONE_MINUS_CONSTANT_ALPHA */
    default: return 0.0;                                 /* reserved: refused by bind */
    }
}

/* One component through BLENDCNTL-format register `reg`. COMB_FCN: 0 add
 * and clamp, 1 add, 2 src - dst and clamp, 3 src - dst, 4 min, 5 max (the
 * factors forced to ONE), 6 dst - src and clamp, 7 dst - src. */
static double blend_one(uint32_t reg, unsigned k, const double S[4], const double D[4],
                        const double C[4], double lo, double hi)
{
    unsigned fcn = (reg >> 12) & 7u, src = (reg >> 16) & 63u, dst = (reg >> 24) & 63u;
    if (fcn == 4)
        return S[k] < D[k] ? S[k] : D[k];
    if (fcn == 5)
        return S[k] > D[k] ? S[k] : D[k];
    /* D3D_BOTHSRCALPHA / BOTHINVSRCALPHA as SRCBLEND set both factors */
    unsigned dcode = (src == 12 || src == 13) ? src : dst;
    double a = S[k] * factor(src, k, S, D, C, true), b = D[k] * factor(dcode, k, S, D, C, false);
    double r = fcn <= 1 ? a + b : fcn <= 3 ? a - b : b - a;
    if (fcn == 0 || fcn == 2 || fcn == 6)
        r = r < lo ? lo : r > hi ? hi : r;
    return r;
}

/* The range a blend "and clamp" clamps to, per component kind. */
static void kind_range(unsigned kind, double *lo, double *hi)
{
    *lo = kind == RB_KIND_SNORM ? -1.0 : 0.0;
    *hi = 1.0;
}

/* A source component as the blender sees it: clamped to the component's
 * range for fixed-point kinds and, with rb-blend-src = quantized, rounded to
 * the component's precision (what the US's OUT_FMT conversion hands over). */
static double src_component(const r500_rb *rb, const r500_rb_surface *s, unsigned k, float v)
{
    unsigned kind = s->pf.kind[k];
    if (kind == RB_KIND_FLOAT)
        return v;
    if (kind == RB_KIND_HALF)
        return r500_tx_half_to_float(rb_float_to_half(v));
    if (rb->opt.blend_src == R500_RBO_BLEND_QUANTIZED && s->pf.c[k].bits)
        return rb_component_to_float(kind, rb_component_from_float(rb, s, k, v), s->pf.c[k].bits);
    double lo, hi;
    kind_range(kind, &lo, &hi);
    double x = v != v ? 0.0 : (double)v;
    return x < lo ? lo : x > hi ? hi : x;
}

/* rb3d_ropcntl.txt: a GDI ROP2 code, "replicated into 2 nibbles to form the
 * equivalent ROP3 code": bit (2 S + D) of the code is the result for source
 * bit S and destination bit D (0xC, "Disable ROP", is a copy of S; Mesa
 * writes PIPE_LOGICOP_* as they are). */
static uint32_t rop2(unsigned code, uint32_t s, uint32_t d)
{
    uint32_t r = 0;
    if (code & 1u) r |= ~s & ~d;
    if (code & 2u) r |= ~s & d;
    if (code & 4u) r |= s & ~d;
    if (code & 8u) r |= s & d;
    return r;
}

static void write_target(const r500_rb *rb, unsigned t, const float rgba[4], int x, int y)
{
    const r500_rb_surface *s = &rb->cb[t];
    const r500_rb_state *st = &rb->s;
    if (!s->active || !s->mask)
        return;
    /* the US's OUT_FMT swizzle: component Ck takes channel C*_SEL */
    float comp[4];
    for (int k = 0; k < 4; k++) {
        unsigned sel = s->sel[k];
        comp[k] = rgba[sel == 0 ? 3 : sel - 1];
    }
    uint32_t dstw[4] = {0, 0, 0, 0}, outw[4];
    uint32_t bc = st->reg[R500_RB_RB3D_BLENDCNTL];
    bool rop = r500_rb_get(st, R500_RB_RB3D_ROPCNTL, R500_RBF_ROP_ENABLE);
    /* the destination is read when blending, a logic op or a partial mask needs it */
    if ((bc & 1u) || rop || s->mask != 0xfu)
        rb_load(s, x, y, dstw);
    if (bc & 1u) {
        /* rb3d_blendcntl.txt ALPHA_BLEND_ENABLE ("despite the name ... has
         * nothing to do with alpha", r300_state.c) */
        double S[4], D[4], C[4], out[4];
        bool read = (bc >> 2) & 1u; /* READ_ENABLE 0: the destination reads 0 */
        for (unsigned k = 0; k < 4; k++) {
            S[k] = src_component(rb, s, k, comp[k]);
            C[k] = rb->constant[k];
            if (s->pf.c[k].bits)
                D[k] = read ? rb_component_to_float(s->pf.kind[k],
                                                    rb_bits_get(dstw, s->pf.c[k].bits,
                                                                s->pf.c[k].shift),
                                                    s->pf.c[k].bits)
                            : 0.0;
            else
                D[k] = (k == 3 && rb->opt.dst_missing_one) ? 1.0 : 0.0;
        }
        uint32_t areg = (bc & 2u) ? st->reg[R500_RB_RB3D_ABLENDCNTL] : bc;
        for (unsigned k = 0; k < 4; k++) {
            double lo, hi;
            kind_range(s->pf.kind[k], &lo, &hi);
            out[k] = blend_one(k == 3 ? areg : bc, k, S, D, C, lo, hi);
            comp[k] = (float)out[k];
        }
    }
    rb_pack_color(rb, s, comp, outw);
    if (rop) {
        unsigned code = r500_rb_get(st, R500_RB_RB3D_ROPCNTL, R500_RBF_ROP);
        for (int i = 0; i < 4; i++)
            outw[i] = rop2(code, outw[i], dstw[i]);
    }
    /* channel mask: the masked components keep their stored bits */
    uint32_t m[4] = {0, 0, 0, 0};
    for (unsigned k = 0; k < 4; k++)
        if (s->pf.c[k].bits && (s->mask >> k & 1u))
            rb_bits_put(m, s->pf.c[k].bits, s->pf.c[k].shift, 0xffffffffu);
    for (int i = 0; i < 4; i++)
        outw[i] = (outw[i] & m[i]) | (dstw[i] & ~m[i]);
    rb_store(s, x, y, outw);
}

/* RB3D_BLENDCNTL.DISCARD_SRC_PIXELS with the thresholds (rb-discard =
 * register): 1..3 discard when alpha / colour / ARGB <= the LTE threshold,
 * 4..6 when >= the GTE threshold; the thresholds compare 8-bit components,
 * A in bits 31:24, R 23:16, G 15:8, B 7:0 (the layout of the registers Mesa
 * writes, 0x01010101 / 0xFEFEFEFE). */
static bool discard_src(const r500_rb *rb, const float rgba[4])
{
    unsigned mode = r500_rb_get(&rb->s, R500_RB_RB3D_BLENDCNTL, R500_RBF_DISCARD_SRC_PIXELS);
    if (rb->opt.discard != R500_RBO_DISCARD_REGISTER || mode == 0 || mode == 7 ||
        !(rb->s.reg[R500_RB_RB3D_BLENDCNTL] & 1u))
        return false;
    uint32_t th = rb->s.reg[mode <= 3 ? R500_RB_RB3D_DISCARD_SRC_PIXEL_LTE_THRESHOLD
                                      : R500_RB_RB3D_DISCARD_SRC_PIXEL_GTE_THRESHOLD];
    static const unsigned shift[4] = {16, 8, 0, 24}; /* R G B A */
    unsigned which = (mode - 1) % 3;                /* alpha, colour, argb */
    for (int c = 0; c < 4; c++) {
        bool is_alpha = c == 3;
        if ((which == 0 && !is_alpha) || (which == 1 && is_alpha))
            continue;
        uint32_t v = rb_to_unorm(rgba[c], 8, rb->opt.round), t = (th >> shift[c]) & 0xffu;
        if (mode <= 3 ? v > t : v < t)
            return false;
    }
    return true;
}

void r500_rb_pixel_write(const r500_rb *rb, const r500_rb_pixel *px, r500_rb_stats *stats)
{
    r500_rb_stats dummy;
    if (!stats) {
        memset(&dummy, 0, sizeof dummy);
        stats = &dummy;
    }
    static const float zero[4] = {0, 0, 0, 0};
    const float *color[R500_RB_TARGETS];
    for (int t = 0; t < R500_RB_TARGETS; t++)
        color[t] = px->color[t] ? px->color[t] : zero;
    const r500_rb_state *s = &rb->s;
    int x = px->x, y = px->y;
    if (x < 0 || y < 0 || x >= rb->width || y >= rb->height)
        return;
    stats->pixels_in++;
    if (x >= rb->cols) { /* right of a buffer's pitch, rb-beyond-pitch drop (rb.c) */
        stats->beyond_pitch++;
        return;
    }
    /* FG: alpha test on target 0's alpha (fg_alpha_func.txt) */
    if (!alpha_test(rb, color[0][3])) {
        stats->alpha_failed++;
        return;
    }
    if (discard_src(rb, color[0])) {
        stats->discarded++;
        return;
    }
    bool zen = r500_rb_get(s, R500_RB_ZB_CNTL, R500_RBF_Z_ENABLE);
    bool sen = r500_rb_get(s, R500_RB_ZB_CNTL, R500_RBF_STENCIL_ENABLE) && rb->zb.format == 2;
    uint32_t zs = s->reg[R500_RB_ZB_ZSTENCILCNTL];
    /* ZB: stencil, then depth */
    if (zen || sen) {
        bool zwrite = r500_rb_get(s, R500_RB_ZB_CNTL, R500_RBF_ZWRITEENABLE);
        bool back = px->back_face;
        /* zb_cntl.txt STENCIL_FRONT_BACK: the _BF function and ops for quads
         * of back-facing primitives; STENCIL_REFMASK_FRONT_BACK:
         * ZB_STENCILREFMASK_BF */
        bool bf_ops = back && r500_rb_get(s, R500_RB_ZB_CNTL, R500_RBF_STENCIL_FRONT_BACK);
        bool bf_ref = back && r500_rb_get(s, R500_RB_ZB_CNTL, R500_RBF_STENCIL_REFMASK_FRONT_BACK);
        r500_rb_reg refreg = bf_ref ? R500_RB_ZB_STENCILREFMASK_BF : R500_RB_ZB_STENCILREFMASK;
        uint32_t sref = r500_rb_get(s, refreg, R500_RBF_STENCILREF);
        uint32_t smask = r500_rb_get(s, refreg, R500_RBF_STENCILMASK);
        uint32_t swmask = r500_rb_get(s, refreg, R500_RBF_STENCILWRITEMASK);
        unsigned sfunc = (zs >> (bf_ops ? 15 : 3)) & 7u, sfail = (zs >> (bf_ops ? 18 : 6)) & 7u;
        unsigned zpass = (zs >> (bf_ops ? 21 : 9)) & 7u, zfail = (zs >> (bf_ops ? 24 : 12)) & 7u;
        uint32_t zold, sold;
        rb_depth_load(rb, x, y, &zold, &sold);
        uint32_t znew = rb_depth_fixed(rb, frag_depth(rb, px)), snew = sold;
        bool pass = true;
        if (sen && !zcmp(sfunc, sref & smask, sold & smask)) {
            snew = stencil_op(sfail, sold, sref);
            stats->stencil_failed++;
            pass = false;
        } else {
            bool zpass_ok = !zen || zcmp(zs & 7u, znew, zold);
            if (sen)
                snew = stencil_op(zpass_ok ? zpass : zfail, sold, sref);
            if (!zpass_ok) {
                stats->depth_failed++;
                pass = false;
            }
        }
        snew = (sold & ~swmask) | (snew & swmask);
        bool write_z = pass && zen && zwrite;
        if (write_z || snew != sold)
            rb_depth_store(rb, x, y, write_z ? znew : zold, sen ? snew : sold);
        if (!pass)
            return;
    }
    /* the ZB's pass counter (ZB_ZPASS_DATA/ADDR; Mesa r300_query.c counts
     * samples with it): every fragment past the Z and stencil tests */
    stats->zpass++;
    if ((zs >> 27) & 1u) /* ZERO_OUTPUT_MASK: no colour, Z/stencil still update */
        return;
    stats->pixels_written++;
    unsigned multi = r500_rb_get(s, R500_RB_RB3D_CCTL, R500_RBF_NUM_MULTIWRITES);
    for (unsigned t = 0; t < R500_RB_TARGETS; t++)
        write_target(rb, t, color[multi ? 0 : t], x, y);
}

void r500_rb_quad_write(const r500_rb *rb, const r500_rb_quad *q, r500_rb_stats *stats)
{
    for (int i = 0; i < 4; i++) {
        if (!(q->mask >> i & 1u))
            continue;
        r500_rb_pixel px = {.x = q->x[i], .y = q->y[i], .z = q->z[i], .w = q->w[i],
                            .back_face = q->back_face};
        for (int t = 0; t < R500_RB_TARGETS; t++)
            px.color[t] = q->color[t][i];
        r500_rb_pixel_write(rb, &px, stats);
    }
}
