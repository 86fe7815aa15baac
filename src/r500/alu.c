/* R500 ALU and OUT instructions over a whole thread (spec/r500.md §4).
 *
 * Registers are structure-of-arrays: temps[reg][channel][lane]. An operand
 * channel is a pointer to RL floats (a temp channel, a constant or inline
 * float replicated per lane, or a scratch array holding a modified value), so
 * every opcode is a straight loop over the lanes that the compiler vectorises.
 * Results go to scratch first (a destination may also be a source), then
 * through OMOD and clamp, then to temps / predicates / ALU result / outputs
 * under lane masks. */
/* The lane loops are the emulator's hot path: let GCC vectorise them fully
 * (at -O2 its cost model refuses most of them). Clang does so at -O2. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("O3")
#endif

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "exec_internal.h"

/* Lane loops run over whole blocks of 8 lanes (nb = lanes rounded up to 8),
 * a fixed inner trip count that compilers vectorise at -O2; the lanes past
 * the thread's end hold harmless values and are never stored. */
/* The per-lane helpers are always inlined into r500_alu_exec, so that its
 * AVX2 clone (below) compiles them for AVX2 too. */
#define HOT static inline __attribute__((always_inline))

/* Runtime dispatch (DESIGN.md: "vector paths with runtime dispatch only where
 * a benchmark shows the gain"): bench_r500 runs ~1.6x faster with an AVX2
 * clone of r500_alu_exec on x86-64. Results are bit-identical: the same IEEE
 * single-precision operations, no contraction into FMA (ISO C mode). GCC
 * only: clang 14 leaves the cross-file ifunc symbol undefined. */
#if defined(__x86_64__) && defined(__has_attribute) && !defined(__clang__)
#if __has_attribute(target_clones) && !defined(__SANITIZE_ADDRESS__)
#define ALU_CLONES __attribute__((target_clones("avx2", "default")))
#endif
#endif
#ifndef ALU_CLONES
#define ALU_CLONES
#endif

#define FOR_LANES(l)                                                                               \
    for (unsigned l##_blk = 0; l##_blk < nb; l##_blk += 8)                                         \
        for (unsigned l = l##_blk; l < l##_blk + 8; l++)

/* ---- pre-decode -------------------------------------------------------- */

static r500_xsrc decode_src(uint32_t addr, uint32_t is_const, uint32_t rel)
{
    r500_xsrc s;
    s.rel = (uint8_t)rel;
    if (is_const) {
        /* r500.md §1.3: CONST=1: constant 0..255 */
        s.kind = R500_XSRC_CONST;
        s.index = (uint16_t)addr;
    } else if (addr & 0x80) {
        /* CONST=0, bit7=1: inline float, low 7 bits (§4.2). REL has no
         * meaning for an inline value and is ignored (docs/assumptions.md). */
        s.kind = R500_XSRC_INLINE;
        s.index = (uint16_t)(addr & 0x7f);
        s.rel = 0;
    } else {
        s.kind = R500_XSRC_TEMP;
        s.index = (uint16_t)addr;
    }
    return s;
}

static bool is_transcendental(unsigned aop)
{
    return aop >= 8 && aop <= 13; /* EX2 LN2 RCP RSQ SIN COS */
}

void r500_alu_predecode(r500_xinst *x)
{
    const uint32_t *f = x->in.field;
    x->type = (uint8_t)x->in.type;
    x->src[0][0] = decode_src(f[R500_F_RGB_ADDR0], f[R500_F_RGB_ADDR0_CONST], f[R500_F_RGB_ADDR0_REL]);
    x->src[0][1] = decode_src(f[R500_F_RGB_ADDR1], f[R500_F_RGB_ADDR1_CONST], f[R500_F_RGB_ADDR1_REL]);
    x->src[0][2] = decode_src(f[R500_F_RGB_ADDR2], f[R500_F_RGB_ADDR2_CONST], f[R500_F_RGB_ADDR2_REL]);
    x->src[1][0] = decode_src(f[R500_F_ALPHA_ADDR0], f[R500_F_ALPHA_ADDR0_CONST], f[R500_F_ALPHA_ADDR0_REL]);
    x->src[1][1] = decode_src(f[R500_F_ALPHA_ADDR1], f[R500_F_ALPHA_ADDR1_CONST], f[R500_F_ALPHA_ADDR1_REL]);
    x->src[1][2] = decode_src(f[R500_F_ALPHA_ADDR2], f[R500_F_ALPHA_ADDR2_CONST], f[R500_F_ALPHA_ADDR2_REL]);
    x->srcp_op[0] = (uint8_t)f[R500_F_RGB_SRCP_OP];
    x->srcp_op[1] = (uint8_t)f[R500_F_ALPHA_SRCP_OP];

    x->rgb[0] = (r500_xoperand){(uint8_t)f[R500_F_RGB_SEL_A],
                                {(uint8_t)f[R500_F_RED_SWIZ_A], (uint8_t)f[R500_F_GREEN_SWIZ_A],
                                 (uint8_t)f[R500_F_BLUE_SWIZ_A]},
                                (uint8_t)f[R500_F_RGB_MOD_A]};
    x->rgb[1] = (r500_xoperand){(uint8_t)f[R500_F_RGB_SEL_B],
                                {(uint8_t)f[R500_F_RED_SWIZ_B], (uint8_t)f[R500_F_GREEN_SWIZ_B],
                                 (uint8_t)f[R500_F_BLUE_SWIZ_B]},
                                (uint8_t)f[R500_F_RGB_MOD_B]};
    x->rgb[2] = (r500_xoperand){(uint8_t)f[R500_F_RGB_SEL_C],
                                {(uint8_t)f[R500_F_RED_SWIZ_C], (uint8_t)f[R500_F_GREEN_SWIZ_C],
                                 (uint8_t)f[R500_F_BLUE_SWIZ_C]},
                                (uint8_t)f[R500_F_RGB_MOD_C]};
    x->alpha[0] = (r500_xoperand){(uint8_t)f[R500_F_ALPHA_SEL_A],
                                  {(uint8_t)f[R500_F_ALPHA_SWIZ_A], 0, 0},
                                  (uint8_t)f[R500_F_ALPHA_MOD_A]};
    x->alpha[1] = (r500_xoperand){(uint8_t)f[R500_F_ALPHA_SEL_B],
                                  {(uint8_t)f[R500_F_ALPHA_SWIZ_B], 0, 0},
                                  (uint8_t)f[R500_F_ALPHA_MOD_B]};
    x->alpha[2] = (r500_xoperand){(uint8_t)f[R500_F_ALPHA_SEL_C],
                                  {(uint8_t)f[R500_F_ALPHA_SWIZ_C], 0, 0},
                                  (uint8_t)f[R500_F_ALPHA_MOD_C]};
    x->need_srcp = false;
    for (int k = 0; k < 3; k++)
        if (x->rgb[k].sel == 3 || x->alpha[k].sel == 3)
            x->need_srcp = true;

    x->rgb_op = (uint8_t)f[R500_F_RGB_OP];
    x->alpha_op = (uint8_t)f[R500_F_ALPHA_OP];
    x->omod[0] = (uint8_t)f[R500_F_RGB_OMOD];
    x->omod[1] = (uint8_t)f[R500_F_ALPHA_OMOD];
    x->clamp[0] = (uint8_t)f[R500_F_RGB_CLAMP];
    x->clamp[1] = (uint8_t)f[R500_F_ALPHA_CLAMP];
    x->wmask = (uint8_t)(f[R500_F_RGB_WMASK] | (f[R500_F_ALPHA_WMASK] << 3));
    x->omask = (uint8_t)(f[R500_F_RGB_OMASK] | (f[R500_F_ALPHA_OMASK] << 3));
    x->addrd[0] = (uint8_t)f[R500_F_RGB_ADDRD];
    x->addrd[1] = (uint8_t)f[R500_F_ALPHA_ADDRD];
    x->addrd_rel[0] = (uint8_t)f[R500_F_RGB_ADDRD_REL];
    x->addrd_rel[1] = (uint8_t)f[R500_F_ALPHA_ADDRD_REL];
    x->target[0] = (uint8_t)f[R500_F_RGB_TARGET];
    x->target[1] = (uint8_t)f[R500_F_ALPHA_TARGET];
    x->alu_wmask = (uint8_t)f[R500_F_ALU_WMASK];
    x->res_sel = (uint8_t)f[R500_F_ALU_RESULT_SEL];
    x->res_op = (uint8_t)f[R500_F_ALU_RESULT_OP];
    x->pred_sel[0] = (uint8_t)f[R500_F_RGB_PRED_SEL];
    x->pred_sel[1] = (uint8_t)f[R500_F_ALPHA_PRED_SEL];
    x->pred_inv[0] = (uint8_t)f[R500_F_RGB_PRED_INV];
    x->pred_inv[1] = (uint8_t)f[R500_F_ALPHA_PRED_INV];
    x->write_inactive = (uint8_t)f[R500_F_WRITE_INACTIVE];
    x->w_omask = (uint8_t)f[R500_F_W_OMASK];
    /* channels whose result goes somewhere: temps, outputs/predicates, the
     * ALU result, W */
    x->live = (uint8_t)(x->wmask | x->omask | (x->alu_wmask ? (x->res_sel ? 8 : 1) : 0) |
                        (x->w_omask ? 8 : 0));

    /* Reserved values make the instruction undefined: a fault when executed. */
    x->fault[0] = 0;
    if (x->rgb_op == 6 || x->rgb_op >= 13)
        snprintf(x->fault, sizeof x->fault, "reserved RGB_OP %u", x->rgb_op);
    else if (x->alpha_op == 4)
        snprintf(x->fault, sizeof x->fault, "reserved ALPHA_OP 4");
    else if (x->pred_sel[0] >= 6 || x->pred_sel[1] >= 6)
        snprintf(x->fault, sizeof x->fault, "reserved PRED_SEL value");
    /* §4.4: alpha DP "valid only with DP3/DP4/D2A"; SOP "valid only with
     * EX2/LN2/RCP/RSQ/SIN/COS". */
    else if (x->alpha_op == 1 && !(x->rgb_op >= 1 && x->rgb_op <= 3))
        snprintf(x->fault, sizeof x->fault, "ALPHA_OP DP needs RGB_OP DP3, DP4 or D2A");
    else if (x->rgb_op == 10 && !is_transcendental(x->alpha_op))
        snprintf(x->fault, sizeof x->fault, "RGB_OP SOP needs a transcendental ALPHA_OP");
}

/* ---- scalar semantics -------------------------------------------------- */

static inline uint32_t fbits(float v)
{
    uint32_t u;
    memcpy(&u, &v, 4);
    return u;
}

static inline float bitsf(uint32_t u)
{
    float v;
    memcpy(&v, &u, 4);
    return v;
}

static const float omod_scale[7] = {1.0f, 2.0f, 4.0f, 8.0f, 0.5f, 0.25f, 0.125f};

HOT float clamp01(float v, const r500_exec_options *o)
{
    if (v != v) /* NaN: see option clamp-nan */
        return o->clamp_nan == R500_CLAMP_NAN_ZERO ? 0.0f : v;
    return v > 0.0f ? (v < 1.0f ? v : 1.0f) : 0.0f;
}

float r500_alu_omod(float v, unsigned omod, bool clamp, const r500_exec_options *o)
{
    /* §4.5: OMOD=7 (disabled) passes the value through bit-exactly and skips
     * the clamp. */
    if (omod >= 7)
        return v;
    /* CTM p.33: the x/÷ OMODs turn every NaN into the canonical NaN
     * 0x7FFFFFFF and flush denormal results to ±0; then the clamp. */
    uint32_t u = fbits(v * omod_scale[omod]);
    if ((u & 0x7f800000u) == 0)
        u &= 0x80000000u;
    else if ((u & 0x7f800000u) == 0x7f800000u && (u & 0x7fffffu))
        u = 0x7fffffffu;
    v = bitsf(u);
    return clamp ? clamp01(v, o) : v;
}

bool r500_cmp_zero(float v, unsigned op)
{
    /* TARGET / ALU_RESULT_OP: 0 ==, 1 <, 2 >=, 3 != (vs 0); denormals compare
     * as zero (CTM p.36). NaN: only != holds. */
    bool zero = fabsf(v) < FLT_MIN;
    switch (op & 3) {
    case 0: return zero;
    case 1: return v < 0.0f && !zero;
    case 2: return v >= 0.0f || zero;
    default: return !zero;
    }
}

float r500_alu_transcendental(unsigned aop, float a, const r500_exec_options *o)
{
    switch (aop) {
    case 8: /* EX2: 2^A */
        return (float)exp2((double)a);
    case 9: /* LN2: log2(A); 0 -> option ln2-zero, < 0 -> NaN */
        if (a == 0.0f)
            return o->ln2_zero == R500_LN2_ZERO_NEG_INF ? -INFINITY : -FLT_MAX;
        return (float)log2((double)a);
    case 10: /* RCP: 1/A; ±0 -> option rcp-zero */
        if (a == 0.0f && o->rcp_zero == R500_RCP_ZERO_MAX)
            return signbit(a) ? -FLT_MAX : FLT_MAX;
        return 1.0f / a;
    case 11: /* RSQ: 1/sqrt(A), "no abs" (§4.4); < 0 -> option rsq-negative */
        if (a < 0.0f && o->rsq_negative == R500_RSQ_NEG_ABS)
            a = -a;
        if (a == 0.0f && o->rcp_zero == R500_RCP_ZERO_MAX)
            return FLT_MAX;
        return (float)(1.0 / sqrt((double)a));
    case 12: /* SIN: sin(2*pi*A) */
        return (float)sin(2.0 * M_PI * (double)a);
    case 13: /* COS: cos(2*pi*A) */
        return (float)cos(2.0 * M_PI * (double)a);
    default:
        return 0.0f;
    }
}

/* ---- operand fetch ------------------------------------------------------ */

static inline const float *addr_chan(const r500_alu_ctx *c, const r500_xsrc *s, unsigned ch)
{
    unsigned idx = s->index;
    switch (s->kind) {
    case R500_XSRC_TEMP:
        /* aL-relative addressing wraps inside the 7-bit temp space
         * (docs/assumptions.md, rel-wrap). */
        if (s->rel)
            idx = (unsigned)(idx + (unsigned)c->al) & 127u;
        return c->temps[idx][ch];
    case R500_XSRC_CONST:
        if (s->rel)
            idx = (unsigned)(idx + (unsigned)c->al) & 255u;
        return c->csplat[idx][ch];
    default:
        return c->isplat[idx];
    }
}

/* Channel swz of select sel. §4.3: "If the RGB unit swizzles in an alpha
 * component, [it] will always come from alpha_addr*. Similarly, if the alpha
 * unit swizzles in an RGB component, it will always come from rgb_addr*". */
static inline const float *sel_chan(const r500_alu_ctx *c, const r500_xinst *x, unsigned sel,
                                    unsigned swz, const float *const srcp[4])
{
    switch (swz) {
    case 4: return c->isplat[R500_ISPLAT_ZERO];
    case 5: return c->isplat[R500_ISPLAT_HALF];
    case 6: return c->isplat[R500_ISPLAT_ONE];
    case 7: return c->isplat[R500_ISPLAT_ZERO]; /* "unused": reads 0 (assumptions) */
    default: break;
    }
    if (sel == 3)
        return srcp[swz];
    return addr_chan(c, &x->src[swz == 3][sel], swz);
}

/* Apply the input modifier: NOP returns p itself, else writes buf. */
static inline const float *apply_mod(const float *p, unsigned mod, float *buf, unsigned nb)
{
    switch (mod) {
    case 1:
        FOR_LANES(l)
            buf[l] = -p[l];
        return buf;
    case 2:
        FOR_LANES(l)
            buf[l] = fabsf(p[l]);
        return buf;
    case 3:
        FOR_LANES(l)
            buf[l] = -fabsf(p[l]);
        return buf;
    default:
        return p;
    }
}

HOT void compute_srcp(r500_alu_ctx *c, const r500_xinst *x, const float *srcp[4])
{
    const unsigned nb = (c->n + 7) & ~7u;
    for (unsigned ch = 0; ch < 4; ch++) {
        unsigned unit = ch == 3;
        const float *s0 = addr_chan(c, &x->src[unit][0], ch);
        const float *s1 = addr_chan(c, &x->src[unit][1], ch);
        float *d = c->scratch[ch];
        /* §1.3 SRCP_OP: 0 1-2*s0 (BIAS), 1 s1-s0, 2 s1+s0, 3 1-s0 */
        switch (x->srcp_op[unit]) {
        case 0:
            FOR_LANES(l)
                d[l] = 1.0f - 2.0f * s0[l];
            break;
        case 1:
            FOR_LANES(l)
                d[l] = s1[l] - s0[l];
            break;
        case 2:
            FOR_LANES(l)
                d[l] = s1[l] + s0[l];
            break;
        default:
            FOR_LANES(l)
                d[l] = 1.0f - s0[l];
            break;
        }
        srcp[ch] = d;
    }
}

/* ---- kernels ------------------------------------------------------------ */

/* a*b under US_CONFIG.ZERO_TIMES_ANYTHING_EQUALS_ZERO (§1.9): with it set,
 * 0*inf and 0*NaN give 0 instead of NaN. */
HOT float mul(float a, float b, bool zta)
{
    float p = a * b;
    if (zta && p != p && (a == 0.0f || b == 0.0f))
        p = 0.0f;
    return p;
}

HOT void k_mad(float *restrict d, const float *a, const float *b, const float *cc, unsigned nb,
                  bool zta, bool fused)
{
    if (fused) {
        FOR_LANES(l) {
            float r = fmaf(a[l], b[l], cc[l]);
            if (zta && r != r && cc[l] == cc[l] && (a[l] == 0.0f || b[l] == 0.0f))
                r = cc[l];
            d[l] = r;
        }
    } else if (zta) {
        FOR_LANES(l)
            d[l] = mul(a[l], b[l], true) + cc[l];
    } else {
        FOR_LANES(l)
            d[l] = a[l] * b[l] + cc[l];
    }
}

/* MIN, MAX, CND, CMP as written in §4.4 (comparisons fix the NaN cases). */
HOT void k_min(float *restrict d, const float *a, const float *b, unsigned nb)
{
    FOR_LANES(l)
        d[l] = a[l] < b[l] ? a[l] : b[l];
}
HOT void k_max(float *restrict d, const float *a, const float *b, unsigned nb)
{
    FOR_LANES(l)
        d[l] = a[l] >= b[l] ? a[l] : b[l];
}
HOT void k_cnd(float *restrict d, const float *a, const float *b, const float *cc, unsigned nb)
{
    FOR_LANES(l)
        d[l] = cc[l] > 0.5f ? a[l] : b[l];
}
HOT void k_cmp(float *restrict d, const float *a, const float *b, const float *cc, unsigned nb)
{
    FOR_LANES(l)
        d[l] = cc[l] >= 0.0f ? a[l] : b[l];
}
HOT void k_frc(float *restrict d, const float *a, unsigned nb)
{
    FOR_LANES(l)
        d[l] = a[l] - floorf(a[l]);
}

/* r500_cmp_zero over a lane array, as a lane mask (lanes < nb). */
HOT ls_lanes cmp_lanes(const float *v, unsigned op, unsigned nb)
{
    uint8_t r[RL];
    switch (op & 3) {
    case 0:
        FOR_LANES(l) r[l] = fabsf(v[l]) < FLT_MIN;
        break;
    case 1:
        FOR_LANES(l) r[l] = v[l] <= -FLT_MIN;
        break;
    case 2:
        FOR_LANES(l) r[l] = v[l] > -FLT_MIN;
        break;
    default:
        FOR_LANES(l) r[l] = !(fabsf(v[l]) < FLT_MIN);
        break;
    }
    ls_lanes m = 0;
    for (unsigned l = 0; l < nb; l++)
        m |= (ls_lanes)r[l] << l;
    return m;
}

/* OMOD + clamp over a lane array (same as r500_alu_omod, vectorisable). */
HOT void k_omod(float *v, unsigned omod, bool clamp, unsigned nb, const r500_exec_options *o)
{
    if (omod >= 7)
        return;
    float s = omod_scale[omod];
    if (omod == 0) {
        /* x1 changes only NaNs and denormals: look for one before rewriting */
        uint32_t special = 0;
        FOR_LANES(l) {
            uint32_t t = fbits(v[l]) & 0x7fffffffu;
            special |= (uint32_t)(t - 1u < 0x007fffffu) | (uint32_t)(t > 0x7f800000u);
        }
        if (!special)
            goto clamp;
    }
    FOR_LANES(l) {
        uint32_t u = fbits(v[l] * s);
        uint32_t e = u & 0x7f800000u;
        u = e == 0 ? (u & 0x80000000u) : u;
        u = (e == 0x7f800000u && (u & 0x7fffffu)) ? 0x7fffffffu : u;
        v[l] = bitsf(u);
    }
clamp:
    if (clamp)
        FOR_LANES(l)
            v[l] = clamp01(v[l], o);
}

/* Copy src into dst on the lanes of mask (blocks of 8 lanes: whole blocks
 * are copied, partial ones lane by lane). */
HOT void masked_store(float *restrict dst, const float *restrict src, ls_lanes mask,
                                ls_lanes all, unsigned nb)
{
    if (mask == all) {
        memcpy(dst, src, nb * sizeof(float));
        return;
    }
    for (unsigned b = 0; mask && b < nb; b += 8, mask >>= 8) {
        unsigned m8 = (unsigned)(mask & 0xff);
        if (m8 == 0xff)
            memcpy(dst + b, src + b, 8 * sizeof(float));
        else
            for (; m8; m8 &= m8 - 1)
                dst[b + (unsigned)__builtin_ctz(m8)] = src[b + (unsigned)__builtin_ctz(m8)];
    }
}

/* ---- execute ------------------------------------------------------------ */

ALU_CLONES void r500_alu_exec(r500_alu_ctx *c, const r500_xinst *x)
{
    const unsigned nb = (c->n + 7) & ~7u;
    const bool zta = c->zero_times_anything;
    const bool fused = c->opt->mad == R500_MAD_FUSED;
    const float *srcp[4] = {NULL, NULL, NULL, NULL};
    if (x->need_srcp)
        compute_srcp(c, x, srcp);

    /* Operands: RGB A/B/C channels into scratch 4..12, alpha A/B/C 13..15. */
    const float *ra[3][3], *aa[3];
    const bool mdx_rgb = x->rgb_op == 11 || x->rgb_op == 12;
    const bool mdx_alpha = x->alpha_op == 14 || x->alpha_op == 15;
    /* Only the inputs of channels whose result is used are fetched
     * (x->live; the dot products read every RGB channel, DP4 and SOP the
     * alpha unit's inputs). */
    const unsigned live = x->live;
    const bool dot_op = x->rgb_op >= 1 && x->rgb_op <= 3;
    const bool need_alpha = (live & 8) || x->rgb_op == 2 || (x->rgb_op == 10 && (live & 7));
    for (unsigned k = 0; k < 3; k++) {
        const r500_xoperand *o = &x->rgb[k];
        for (unsigned ch = 0; ch < 3; ch++)
            ra[k][ch] = ((live >> ch) & 1) || dot_op
                            ? apply_mod(sel_chan(c, x, o->sel, o->swz[ch], srcp), o->mod,
                                        c->scratch[4 + k * 3 + ch], nb)
                            : c->isplat[R500_ISPLAT_ZERO];
        const r500_xoperand *p = &x->alpha[k];
        aa[k] = need_alpha ? apply_mod(sel_chan(c, x, p->sel, p->swz[0], srcp), p->mod,
                                       c->scratch[13 + k], nb)
                           : c->isplat[R500_ISPLAT_ZERO];
    }
    /* MDH/MDV (§4.3): A is topleft.src0 and C is topright.src0 (MDH) or
     * bottomleft.src0 (MDV), ignoring select and swizzle; modifiers apply. */
    if (mdx_rgb || mdx_alpha) {
        for (unsigned ch = 0; ch < 4; ch++) {
            bool is_rgb = ch < 3;
            if ((is_rgb ? !mdx_rgb : !mdx_alpha) || !((live >> ch) & 1))
                continue;
            unsigned op = is_rgb ? x->rgb_op : x->alpha_op;
            unsigned member = (op == 11 || op == 14) ? 1 : 2;
            const float *s0 = addr_chan(c, &x->src[!is_rgb][0], ch);
            float *ta = c->scratch[20], *tc = c->scratch[21];
            unsigned moda = is_rgb ? x->rgb[0].mod : x->alpha[0].mod;
            unsigned modc = is_rgb ? x->rgb[2].mod : x->alpha[2].mod;
            float *da = is_rgb ? c->scratch[4 + ch] : c->scratch[13];
            float *dc = is_rgb ? c->scratch[4 + 6 + ch] : c->scratch[15];
            FOR_LANES(l) {
                ta[l] = s0[c->quad[l][0]];
                tc[l] = s0[c->quad[l][member]];
            }
            const float *pa = apply_mod(ta, moda, da, nb);
            const float *pc = apply_mod(tc, modc, dc, nb);
            if (pa != da)
                memcpy(da, pa, nb * sizeof(float));
            if (pc != dc)
                memcpy(dc, pc, nb * sizeof(float));
            if (is_rgb) {
                ra[0][ch] = da;
                ra[2][ch] = dc;
            } else {
                aa[0] = da;
                aa[2] = dc;
            }
        }
    }

    float *res[4] = {c->scratch[16], c->scratch[17], c->scratch[18], c->scratch[19]};
    float *dot = c->scratch[22];
    float *trans = c->scratch[23];

    /* Alpha unit first when it feeds SOP (transcendental result). */
    if (is_transcendental(x->alpha_op) && need_alpha) {
        const float *a = aa[0];
        FOR_LANES(l)
            trans[l] = r500_alu_transcendental(x->alpha_op, a[l], c->opt);
    }

    /* RGB unit (§4.4). */
    switch (x->rgb_op) {
    case 0: /* MAD */
    case 11: /* MDH */
    case 12: /* MDV */
        for (unsigned ch = 0; ch < 3; ch++)
            if ((live >> ch) & 1)
                k_mad(res[ch], ra[0][ch], ra[1][ch], ra[2][ch], nb, zta, fused);
        break;
    case 1: /* DP3 */
    case 2: /* DP4: 4th component of A and B from the alpha unit's A and B (§4.3) */
    case 3: /* D2A: A.r*B.r + A.g*B.g + C.b */
        FOR_LANES(l) {
            float s = mul(ra[0][0][l], ra[1][0][l], zta) + mul(ra[0][1][l], ra[1][1][l], zta);
            if (x->rgb_op == 3)
                s = s + ra[2][2][l];
            else {
                s = s + mul(ra[0][2][l], ra[1][2][l], zta);
                if (x->rgb_op == 2)
                    s = s + mul(aa[0][l], aa[1][l], zta);
            }
            dot[l] = s;
        }
        for (unsigned ch = 0; ch < 3; ch++)
            memcpy(res[ch], dot, nb * sizeof(float));
        break;
    case 4:
        for (unsigned ch = 0; ch < 3; ch++)
            if ((live >> ch) & 1)
                k_min(res[ch], ra[0][ch], ra[1][ch], nb);
        break;
    case 5:
        for (unsigned ch = 0; ch < 3; ch++)
            if ((live >> ch) & 1)
                k_max(res[ch], ra[0][ch], ra[1][ch], nb);
        break;
    case 7:
        for (unsigned ch = 0; ch < 3; ch++)
            if ((live >> ch) & 1)
                k_cnd(res[ch], ra[0][ch], ra[1][ch], ra[2][ch], nb);
        break;
    case 8:
        for (unsigned ch = 0; ch < 3; ch++)
            if ((live >> ch) & 1)
                k_cmp(res[ch], ra[0][ch], ra[1][ch], ra[2][ch], nb);
        break;
    case 9:
        for (unsigned ch = 0; ch < 3; ch++)
            if ((live >> ch) & 1)
                k_frc(res[ch], ra[0][ch], nb);
        break;
    case 10: /* SOP: the alpha unit's transcendental result, replicated */
        for (unsigned ch = 0; ch < 3; ch++)
            memcpy(res[ch], trans, nb * sizeof(float));
        break;
    default: /* reserved: pre-decode marked a fault; not reached */
        for (unsigned ch = 0; ch < 3; ch++)
            memset(res[ch], 0, nb * sizeof(float));
        break;
    }

    /* Alpha unit. */
    switch ((live & 8) ? x->alpha_op : 4 /* result unused */) {
    case 0:
    case 14:
    case 15:
        k_mad(res[3], aa[0], aa[1], aa[2], nb, zta, fused);
        break;
    case 1: /* DP: copy the RGB unit's dot product */
        memcpy(res[3], dot, nb * sizeof(float));
        break;
    case 2: k_min(res[3], aa[0], aa[1], nb); break;
    case 3: k_max(res[3], aa[0], aa[1], nb); break;
    case 5: k_cnd(res[3], aa[0], aa[1], aa[2], nb); break;
    case 6: k_cmp(res[3], aa[0], aa[1], aa[2], nb); break;
    case 7: k_frc(res[3], aa[0], nb); break;
    case 4:
        break;
    default:
        memcpy(res[3], trans, nb * sizeof(float));
        break;
    }

    /* OMOD then clamp (§4.5). */
    for (unsigned ch = 0; ch < 4; ch++)
        if ((live >> ch) & 1)
            k_omod(res[ch], x->omod[ch == 3], x->clamp[ch == 3], nb, c->opt);

    /* Lane masks per channel (§4.6, §2.10): active pixels, or all with
     * WRITE_INACTIVE, and the channel's predicate. */
    ls_lanes base = x->write_inactive ? c->alive : c->active;
    ls_lanes cm[4];
    for (unsigned ch = 0; ch < 4; ch++) {
        unsigned u = ch == 3;
        cm[ch] = base & r500_pred_mask(c->pred, x->pred_sel[u], x->pred_inv[u], ch, c->all);
    }

    /* ALU result (§2.2): channel by ALU_RESULT_SEL, compare ALU_RESULT_OP. */
    if (x->alu_wmask) {
        unsigned ch = x->res_sel ? 3 : 0;
        ls_lanes m = c->opt->pred_write == R500_PRED_WRITE_PREDICATED ? cm[ch] : base;
        ls_lanes r = cmp_lanes(res[ch], x->res_op, nb);
        *c->alu_result = (*c->alu_result & ~m) | (r & m);
    }

    if (x->type == R500_TYPE_ALU) {
        /* Predicate setting (§4.6): OMASK bits choose the predicate bits,
         * TARGET the comparison. */
        for (unsigned ch = 0; ch < 4; ch++) {
            if (!((x->omask >> ch) & 1))
                continue;
            ls_lanes m = c->opt->pred_write == R500_PRED_WRITE_PREDICATED ? cm[ch] : base;
            ls_lanes r = cmp_lanes(res[ch], x->target[ch == 3], nb);
            c->pred[ch] = (c->pred[ch] & ~m) | (r & m);
        }
    } else {
        /* OUT (§4.7): cached outputs, last write wins. */
        for (unsigned ch = 0; ch < 4; ch++)
            if ((x->omask >> ch) & 1)
                masked_store(c->out[x->target[ch == 3]][ch], res[ch], cm[ch], c->all, nb);
    }
    if (x->w_omask)
        masked_store(c->outw, res[3], cm[3], c->all, nb);

    /* Temp writes (§4.6), each destination optionally + aL (wraps, 7 bits). */
    for (unsigned ch = 0; ch < 4; ch++) {
        if (!((x->wmask >> ch) & 1))
            continue;
        unsigned u = ch == 3;
        unsigned d = x->addrd[u];
        if (x->addrd_rel[u])
            d = (d + (unsigned)c->al) & 127u;
        masked_store(c->temps[d][ch], res[ch], cm[ch], c->all, nb);
    }
}
