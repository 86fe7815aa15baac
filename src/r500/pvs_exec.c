/* R500 PVS executor: one vertex at a time, the model of record (docs/r500-vs.md,
 * model options in docs/assumptions.md "R500: vertex engine").
 *
 * Operation semantics. AMD's R5xx documentation as public projects transcribe
 * it names the operations (pvs_opcode_and_destination_operand_bits.txt) but
 * its description of each is not among the stored sources; the behaviour below
 * is derived from the names, from how Mesa's r300 compiler uses each
 * operation (r3xx_vertprog.c: which GL opcode it emits it for and which
 * source holds which operand; radeon_vert_fc.c: the predicate-stack use of
 * the PRED_SET operations) and, for SIN/COS, from buhman/r500's hardware
 * note. Every choice the sources leave open is an option or a documented
 * choice in docs/assumptions.md. */
#include "lockstep/r500_pvs.h"

#include <float.h>
#include <stdarg.h>
#include <stdlib.h>
#include <math.h>
#include <string.h>
#include <strings.h>

#include "r500/exec_internal.h"

void r500_pvs_options_default(r500_pvs_options *o)
{
    memset(o, 0, sizeof *o);
    r500_options ro;
    r500_options_default(&ro);
    o->math = ro.exec;
    o->sincos = R500_PVS_SINCOS_CLAMP;
    o->ff_inf = R500_PVS_FF_INF_MAX;
    o->me_b = R500_PVS_ME_B_SRC1;
    o->zta = R500_PVS_ZTA_LEGACY;      /* docs/assumptions.md vs-zero-times-anything */
    o->minmax = R500_PVS_MINMAX_SECOND; /* docs/assumptions.md vs-minmax-nan */
    o->temps = 128;
    o->alt_temps = 20;
    o->inputs = 32;
    o->outputs = 32;
    o->fc_depth = 8;
    o->watchdog = 1u << 24; /* docs/assumptions.md vs-watchdog */
}

static int pick2(const char *v, const char *a, const char *b)
{
    return !strcmp(v, a) ? 0 : !strcmp(v, b) ? 1 : -1;
}

ls_status r500_pvs_options_set(r500_pvs_options *o, const char *name, const char *value,
                               ls_diag *d)
{
    int k;
    if (!strcmp(name, "vs-sincos-range")) {
        if ((k = pick2(value, "clamp", "full")) < 0)
            return ls_diag_set(d, LS_ERR_ARG, NULL, 0, 0, "%s: expected clamp or full", name);
        o->sincos = (r500_pvs_sincos)k;
        return LS_OK;
    }
    if (!strcmp(name, "vs-ff-inf")) {
        if ((k = pick2(value, "max", "inf")) < 0)
            return ls_diag_set(d, LS_ERR_ARG, NULL, 0, 0, "%s: expected max or inf", name);
        o->ff_inf = (r500_pvs_ff_inf)k;
        return LS_OK;
    }
    if (!strcmp(name, "vs-me-b")) {
        if ((k = pick2(value, "src2", "src1")) < 0)
            return ls_diag_set(d, LS_ERR_ARG, NULL, 0, 0, "%s: expected src2 or src1", name);
        o->me_b = (r500_pvs_me_b)k;
        return LS_OK;
    }
    if (!strcmp(name, "vs-zero-times-anything")) {
        if ((k = pick2(value, "legacy", "ieee")) < 0)
            return ls_diag_set(d, LS_ERR_ARG, NULL, 0, 0, "%s: expected legacy or ieee", name);
        o->zta = (r500_pvs_zta)k;
        return LS_OK;
    }
    if (!strcmp(name, "vs-minmax-nan")) {
        if ((k = pick2(value, "second", "number")) < 0)
            return ls_diag_set(d, LS_ERR_ARG, NULL, 0, 0, "%s: expected second or number", name);
        o->minmax = (r500_pvs_minmax)k;
        return LS_OK;
    }
    if (!strcmp(name, "engine")) { /* docs/r500-jit.md, "The vertex JIT" */
        if ((k = pick2(value, "interp", "jit")) < 0)
            return ls_diag_set(d, LS_ERR_ARG, NULL, 0, 0, "%s: expected interp or jit", name);
        if (k == 1 && !o->jit)
            return ls_diag_set(d, LS_ERR_ARG, NULL, 0, 0,
                               "engine jit: not available (built without LLVM, or the caller "
                               "did not install r500_pvs_jit_ops(); docs/r500-jit.md)");
        o->engine = (r500_engine)k;
        return LS_OK;
    }
    if (!strcmp(name, "vs-watchdog")) {
        char *end;
        unsigned long long v = strtoull(value, &end, 0);
        if (!*value || *end || v < 1)
            return ls_diag_set(d, LS_ERR_ARG, NULL, 0, 0, "%s: expected a positive count", name);
        o->watchdog = v;
        return LS_OK;
    }
    if (!strcmp(name, "vs-fc-depth")) {
        char *end;
        unsigned long v = strtoul(value, &end, 10);
        if (!*value || *end || v < 1 || v > 64)
            return ls_diag_set(d, LS_ERR_ARG, NULL, 0, 0, "%s: expected 1..64", name);
        o->fc_depth = (unsigned)v;
        return LS_OK;
    }
    unsigned *count = !strcmp(name, "vs-temps")      ? &o->temps
                      : !strcmp(name, "vs-alt-temps") ? &o->alt_temps
                      : !strcmp(name, "vs-inputs")    ? &o->inputs
                      : !strcmp(name, "vs-outputs")   ? &o->outputs
                                                      : NULL;
    if (count) {
        char *end;
        unsigned long v = strtoul(value, &end, 10);
        if (!*value || *end || v < 1 || v > R500_PVS_MAX_REGS)
            return ls_diag_set(d, LS_ERR_ARG, NULL, 0, 0, "%s: expected 1..%d", name,
                               R500_PVS_MAX_REGS);
        *count = (unsigned)v;
        return LS_OK;
    }
    /* The math options shared with the fragment unit. */
    for (const char *const *n = r500_exec_option_names; *n; n++) {
        if (strcmp(*n, name))
            continue;
        if (strcmp(name, "rcp-zero") && strcmp(name, "rsq-negative") &&
            strcmp(name, "ln2-zero") && strcmp(name, "clamp-nan") && strcmp(name, "mad"))
            break;
        r500_options ro;
        r500_options_default(&ro);
        ro.exec = o->math;
        ls_status st = r500_options_set(&ro, name, value, d);
        if (st == LS_OK)
            o->math = ro.exec;
        return st;
    }
    return ls_diag_set(d, LS_ERR_ARG, NULL, 0, 0, "unknown vertex model option '%s'", name);
}

/* ---- execution ---------------------------------------------------------- */

typedef struct vctx {
    const r500_pvs_options *o;
    const float (*consts)[4];
    r500_pvs_state *st;
    ls_diag *d;
    size_t pc;
    ls_status fault;
} vctx;

static ls_status fault(vctx *c, ls_status st, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static ls_status fault(vctx *c, ls_status st, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    ls_diag_vset(c->d, st, NULL, 0, 0, fmt, ap);
    va_end(ap);
    ls_diag_at_index(c->d, (long)c->pc);
    c->fault = st;
    return st;
}

static const char *const src_names[4] = {"temp", "input", "const", "alt_temp"};

/* Effective register index: OFFSET, plus A0[ADDR_SEL] (mode 1) or the loop
 * index I0 (mode 2) — pvs_source_operand_bits.txt PVS_SRC_ADDR_MODE. */
static bool effective(vctx *c, unsigned offset, unsigned mode, unsigned sel, long *idx)
{
    if (mode == 3) {
        fault(c, LS_ERR_FAULT, "addressing mode 3 is reserved");
        return false;
    }
    long i = (long)offset;
    if (mode == 1)
        i += c->st->a0[sel & 3];
    else if (mode == 2) /* I0: the loop index register (ADDR_SEL is not used) */
        i += c->st->i0;
    *idx = i;
    return true;
}

static const float *src_reg(vctx *c, unsigned type, long i)
{
    unsigned lim = type == 0 ? c->o->temps : type == 1 ? c->o->inputs
                 : type == 2 ? R500_PVS_NUM_CONSTS : c->o->alt_temps;
    if (i < 0 || i >= (long)lim) {
        fault(c, LS_ERR_FAULT, "bad register index: %s[%ld] (the model has %u)",
              src_names[type & 3], i, lim);
        return NULL;
    }
    static const float zero[4] = {0, 0, 0, 0};
    switch (type) {
    case 0: return c->st->temp[i];
    case 1: return c->st->input[i];
    case 2: return c->consts ? c->consts[i] : zero;
    default: return c->st->alt[i];
    }
}

/* Swizzle select: 0..3 a channel, 4 FORCE_0, 5 FORCE_1
 * (pvs_source_operand_bits.txt); 6 and 7 are not documented: 6 reads 0.5
 * (buhman/r500 names it 'h'), 7 ("unused" in buhman's emitter) reads 0. */
static float swz(const float *r, unsigned s)
{
    switch (s) {
    case 0: case 1: case 2: case 3: return r[s];
    case 4: return 0.0f;
    case 5: return 1.0f;
    case 6: return 0.5f;
    default: return 0.0f;
    }
}

/* Absolute value first, then negate (so -|x| is expressible), as Mesa's
 * t_src sets both bits for GL's -|x|. */
static float modify(float v, unsigned abs, unsigned neg)
{
    if (abs)
        v = fabsf(v);
    return neg ? -v : v;
}

static bool read_src(vctx *c, const uint32_t *sf, float out[4])
{
#define SF(x) sf[R500_PVS_F_S0_##x - R500_PVS_F_S0_REG_TYPE]
    long i;
    if (!effective(c, SF(OFFSET), SF(ADDR_MODE_1) << 1 | SF(ADDR_MODE_0), SF(ADDR_SEL), &i))
        return false;
    const float *r = src_reg(c, SF(REG_TYPE), i);
    if (!r)
        return false;
    for (unsigned ch = 0; ch < 4; ch++)
        out[ch] = modify(swz(r, (&SF(SWIZZLE_X))[ch]), SF(ABS), (&SF(MODIFIER_X))[ch]);
    return true;
#undef SF
}

static bool read_dual_src(vctx *c, const uint32_t *f, float out[2])
{
    long i;
    if (!effective(c, f[R500_PVS_F_DM_SRC_OFFSET],
                   f[R500_PVS_F_DM_SRC_ADDR_MODE_1] << 1 | f[R500_PVS_F_DM_SRC_ADDR_MODE_0],
                   f[R500_PVS_F_DM_SRC_ADDR_SEL], &i))
        return false;
    const float *r = src_reg(c, f[R500_PVS_F_DM_SRC_REG_TYPE], i);
    if (!r)
        return false;
    out[0] = modify(swz(r, f[R500_PVS_F_DM_SRC_SWIZZLE_X]), f[R500_PVS_F_DM_SRC_ABS],
                    f[R500_PVS_F_DM_SRC_MODIFIER_X]);
    out[1] = modify(swz(r, f[R500_PVS_F_DM_SRC_SWIZZLE_Y]), f[R500_PVS_F_DM_SRC_ABS],
                    f[R500_PVS_F_DM_SRC_MODIFIER_Y]);
    return true;
}

/* Comparisons against 0: EQ, GT, GTE, NEQ (the _EQ/_GT/_GTE/_NEQ suffixes). */
static bool cmp0(float v, unsigned k)
{
    switch (k) {
    case 0: return v == 0.0f;
    case 1: return v > 0.0f;
    case 2: return v >= 0.0f;
    default: return v != 0.0f;
    }
}

/* a*b in the vector engine's multipliers (MUL, MAD, DOT, DST, MULTIPLYX2_ADD)
 * and ME_MULTIPLY. Option vs-zero-times-anything (docs/assumptions.md):
 * legacy = the Shader Model 3 rule the fragment unit has as
 * US_CONFIG.ZERO_TIMES_ANYTHING_EQUALS_ZERO (spec/r500.md §1.9): 0 * inf and
 * 0 * NaN give +0; ieee = IEEE 754 (NaN). The VAP has no such register in
 * any source, so the rule is fixed. */
static float vmul(float a, float b, const r500_pvs_options *o)
{
    float p = a * b;
    if (o->zta == R500_PVS_ZTA_LEGACY && p != p && (a == 0.0f || b == 0.0f))
        p = 0.0f;
    return p;
}

static float mad(float a, float b, float c, const r500_pvs_options *o)
{
    if (o->math.mad == R500_MAD_FUSED) {
        float r = fmaf(a, b, c);
        if (o->zta == R500_PVS_ZTA_LEGACY && r != r && c == c && (a == 0.0f || b == 0.0f))
            r = c;
        return r;
    }
    float p = vmul(a, b, o);
    return p + c;
}

/* VE_MAXIMUM / VE_MINIMUM. Option vs-minmax-nan (docs/assumptions.md):
 * second = written as the comparison (D3D9 vs max/min; ATI's CTM guide for the
 * R5xx fragment unit: "MIN and MAX operations return the second argument if
 * either input is NaN"); number = IEEE 754-2008 maxNum/minNum (the other
 * operand when one is NaN, the D3D10 rule R600 added as MAX_DX10/MIN_DX10). */
static float vmax(float x, float y, const r500_pvs_options *o)
{
    if (o->minmax == R500_PVS_MINMAX_NUMBER) {
        if (x != x)
            return y;
        if (y != y)
            return x;
    }
    return x >= y ? x : y;
}

static float vmin(float x, float y, const r500_pvs_options *o)
{
    if (o->minmax == R500_PVS_MINMAX_NUMBER) {
        if (x != x)
            return y;
        if (y != y)
            return x;
    }
    return x < y ? x : y;
}

/* "_FF" (fixed-function) variants: never an infinity (option vs-ff-inf). */
static float ff(float v, const r500_pvs_options *o)
{
    if (o->ff_inf == R500_PVS_FF_INF_MAX && isinf(v))
        return v > 0 ? FLT_MAX : -FLT_MAX;
    return v;
}

/* Result of a VE operation; returns false for no write (NOP), and sets
 * *cond_mask for COND_WRITE (channels that are written). */
static bool ve_op(vctx *c, unsigned op, const float *a, const float *b, const float *cc,
                  float r[4], unsigned *chan_mask, bool *pred_out, bool *sets_pred)
{
    const r500_pvs_options *o = c->o;
    *chan_mask = 0xf;
    switch (op) {
    case 0: /* VECTOR_NO_OP */
        return false;
    case 1: { /* VE_DOT_PRODUCT: 4-component dot (Mesa: DP4), products rounded,
               * summed x, y, z, w in order */
        float s = vmul(a[0], b[0], o);
        for (int k = 1; k < 4; k++) {
            float p = vmul(a[k], b[k], o);
            s = s + p;
        }
        r[0] = r[1] = r[2] = r[3] = s;
        return true;
    }
    case 5: /* VE_DISTANCE_VECTOR (Mesa: DST): (1, a.y*b.y, a.z, b.w) */
        r[0] = 1.0f;
        r[1] = vmul(a[1], b[1], o);
        r[2] = a[2];
        r[3] = b[3];
        return true;
    case 12: /* VE_MULTIPLY_CLAMP: undocumented (see vs-undocumented) */
        fault(c, LS_ERR_UNSUPPORTED, "VE_MULTIPLY_CLAMP: its semantics are not documented "
                                     "in any source the model has (docs/assumptions.md)");
        return false;
    case 15: case 16: case 17: case 18: { /* VE_PRED_SET_{EQ,GT,GTE,NEQ}_PUSH */
        /* radeon_vert_fc.c lower_if: src0 = the predicate register's W (a
         * nesting counter, 0 = active), src1 = the condition in W. */
        float v;
        if (a[3] == 0.0f) {
            bool t = cmp0(b[3], op - 15);
            v = t ? 0.0f : 1.0f;
            *pred_out = t;
        } else {
            v = a[3] + 1.0f;
            *pred_out = false;
        }
        *sets_pred = true;
        r[0] = r[1] = r[2] = r[3] = v;
        return true;
    }
    default:
        break;
    }
    for (int k = 0; k < 4; k++) {
        float x = a[k], y = b[k], z = cc[k];
        switch (op) {
        case 2: r[k] = vmul(x, y, o); break;                       /* MUL */
        case 3: r[k] = x + y; break;                               /* ADD */
        case 4: r[k] = mad(x, y, z, o); break;                     /* MAD */
        case 6: r[k] = x - floorf(x); break;                       /* FRC */
        case 7: r[k] = vmax(x, y, o); break;                       /* MAX */
        case 8: r[k] = vmin(x, y, o); break;                       /* MIN */
        case 9: r[k] = x >= y ? 1.0f : 0.0f; break;                /* SGE */
        case 10: r[k] = x < y ? 1.0f : 0.0f; break;                /* SLT */
        case 11: r[k] = mad(2.0f * x, y, z, o); break;             /* MULTIPLYX2_ADD */
        case 13: r[k] = floorf(x); break;                          /* FLT2FIX_DX (ARL) */
        case 14: r[k] = floorf(x + 0.5f); break;                   /* FLT2FIX_DX_RND (ARR) */
        case 19: case 20: case 21: case 22:                        /* COND_WRITE_* */
            r[k] = y;
            if (!cmp0(x, op - 19))
                *chan_mask &= ~(1u << k);
            break;
        case 23: case 24: case 25:                                 /* COND_MUX_* */
            /* Mesa ei_cmp: GL CMP (a < 0 ? b : c) is COND_MUX_GTE with its
             * src1/src2 swapped, so the mux is cond(a) ? b : c. */
            r[k] = cmp0(x, op - 23) ? y : z;
            break;
        case 26: r[k] = x > y ? 1.0f : 0.0f; break;                /* SGT */
        case 27: r[k] = x == y ? 1.0f : 0.0f; break;               /* SEQ */
        case 28: r[k] = x != y ? 1.0f : 0.0f; break;               /* SNE */
        default:
            fault(c, LS_ERR_FAULT, "vector opcode %u is reserved", op);
            return false;
        }
    }
    return true;
}

/* Result of an ME operation from scalars a (first operand), b (second), and
 * for LIGHT_COEFF the three ones x, y, w. Vector results (EXP/LOG _DX, LIT)
 * fill r; scalar results are replicated. */
static bool me_op(vctx *c, unsigned op, float a, float b, const float lit[3], float r[4],
                  bool *pred_out, bool *sets_pred)
{
    const r500_pvs_options *o = c->o;
    const r500_exec_options *m = &o->math;
    float v = 0.0f;
    switch (op) {
    case 0: return false; /* MATH_NO_OP */
    case 1: { /* ME_EXP_BASE2_DX (Mesa: ARB EXP) */
        float fl = floorf(a);
        r[0] = (float)exp2((double)fl);
        r[1] = a - fl;
        r[2] = (float)exp2((double)a);
        r[3] = 1.0f;
        return true;
    }
    case 2: { /* ME_LOG_BASE2_DX (Mesa: ARB LOG) of |a| */
        float x = fabsf(a);
        if (x == 0.0f) {
            float l = r500_alu_transcendental(9, 0.0f, m);
            r[0] = l, r[1] = 1.0f, r[2] = l, r[3] = 1.0f;
            return true;
        }
        float e = floorf((float)log2((double)x));
        r[0] = e;
        r[1] = (float)((double)x / exp2((double)e));
        r[2] = (float)log2((double)x);
        r[3] = 1.0f;
        return true;
    }
    case 3: v = ff((float)exp((double)a), o); break; /* ME_EXP_BASEE_FF */
    case 4: { /* ME_LIGHT_COEFF_DX (Mesa: LIT; D3D lit rules, power clamped to ±127.9961) */
        float x = lit[0], y = lit[1], p = lit[2];
        const float maxp = 127.9961f;
        p = p < -maxp ? -maxp : p > maxp ? maxp : p;
        r[0] = 1.0f;
        r[1] = x > 0.0f ? x : 0.0f;
        r[2] = (x > 0.0f && y > 0.0f) ? (float)pow((double)y, (double)p) : 0.0f;
        r[3] = 1.0f;
        return true;
    }
    case 5: /* ME_POWER_FUNC_FF: |a|^b (Mesa: POW; base in src0, exponent in src2) */
        v = ff((float)pow(fabs((double)a), (double)b), o);
        break;
    case 6: v = 1.0f / a; break;                                   /* ME_RECIP_DX */
    case 7: v = ff(1.0f / a, o); break;                            /* ME_RECIP_FF */
    case 8: v = (float)(1.0 / sqrt(fabs((double)a))); break;       /* ME_RECIP_SQRT_DX */
    case 9: v = ff((float)(1.0 / sqrt(fabs((double)a))), o); break; /* ME_RECIP_SQRT_FF */
    case 10: v = vmul(a, b, o); break;                             /* ME_MULTIPLY */
    case 11: v = r500_alu_transcendental(8, a, m); break;          /* EXP_BASE2_FULL_DX = EX2 */
    case 12: v = r500_alu_transcendental(9, fabsf(a), m); break;   /* LOG_BASE2_FULL_DX = LN2(|a|) */
    case 13: case 14: case 15:
        fault(c, LS_ERR_UNSUPPORTED, "%s: its semantics are not documented in any source the "
              "model has (docs/assumptions.md)", r500_pvs_value_name(R500_PVS_V_ME_OP, op));
        return false;
    case 16: case 17: { /* ME_SIN / ME_COS, radians; option vs-sincos-range */
        double x = a;
        if (o->sincos == R500_PVS_SINCOS_CLAMP)
            x = x < -M_PI ? -M_PI : x > M_PI ? M_PI : x;
        v = (float)(op == 16 ? sin(x) : cos(x));
        break;
    }
    case 18: v = r500_alu_transcendental(9, a, m); break;          /* LOG_BASE2_IEEE = LN2 */
    case 19: v = r500_alu_transcendental(10, a, m); break;         /* RECIP_IEEE = RCP */
    case 20: v = r500_alu_transcendental(11, a, m); break;         /* RECIP_SQRT_IEEE = RSQ */
    case 21: case 22: case 23: case 24: { /* ME_PRED_SET_{EQ,GT,GTE,NEQ} */
        bool t = cmp0(a, op - 21);
        v = t ? 0.0f : 1.0f;
        *pred_out = t;
        *sets_pred = true;
        break;
    }
    case 25: /* ME_PRED_SET_CLR: inactive for good (counter FLT_MAX) */
        v = FLT_MAX;
        *pred_out = false;
        *sets_pred = true;
        break;
    case 26: /* ME_PRED_SET_INV (ELSE): 0 -> 1, 1 -> 0, deeper counters kept */
        v = a == 0.0f ? 1.0f : a == 1.0f ? 0.0f : a;
        *pred_out = v == 0.0f;
        *sets_pred = true;
        break;
    case 27: /* ME_PRED_SET_POP (ENDIF): counter - 1, not below 0 */
        v = a <= 1.0f ? 0.0f : a - 1.0f;
        *pred_out = v == 0.0f;
        *sets_pred = true;
        break;
    case 28: /* ME_PRED_SET_RESTORE (ENDLOOP): the saved counter */
        v = a;
        *pred_out = a == 0.0f;
        *sets_pred = true;
        break;
    default:
        fault(c, LS_ERR_FAULT, "math opcode %u is reserved", op);
        return false;
    }
    r[0] = r[1] = r[2] = r[3] = v;
    return true;
}

static float sat(float v, bool on, const r500_pvs_options *o)
{
    if (!on)
        return v;
    if (v != v)
        return o->math.clamp_nan == R500_CLAMP_NAN_ZERO ? 0.0f : v;
    return v > 0.0f ? (v < 1.0f ? v : 1.0f) : 0.0f;
}

/* A pending register write (all reads of an instruction happen first). */
typedef struct pending {
    float *reg;
    uint8_t *written;
    int32_t *a0;
    float v[4];
    unsigned mask;
} pending;

static bool dst_target(vctx *c, unsigned type, unsigned offset, unsigned mode, unsigned sel,
                       pending *w)
{
    long i;
    if (!effective(c, offset, mode, sel, &i))
        return false;
    static const char *const names[6] = {"temp", "a0", "out", "out_repl_x", "alt_temp", "input"};
    unsigned lim;
    switch (type) {
    case 0: lim = c->o->temps; break;
    case 1: lim = 1; break;
    case 2: case 3: lim = c->o->outputs; break;
    case 4: lim = c->o->alt_temps; break;
    case 5: lim = c->o->inputs; break;
    default:
        fault(c, LS_ERR_FAULT, "destination register type %u is reserved", type);
        return false;
    }
    if (i < 0 || i >= (long)lim) {
        fault(c, LS_ERR_FAULT, "bad register index: %s[%ld] (the model has %u)", names[type],
              i, lim);
        return false;
    }
    switch (type) {
    case 0: w->reg = c->st->temp[i]; break;
    case 1: w->a0 = c->st->a0; break;
    case 2: case 3: w->reg = c->st->out[i]; w->written = &c->st->out_written[i]; break;
    case 4: w->reg = c->st->alt[i]; break;
    default: w->reg = c->st->input[i]; break;
    }
    return true;
}

static void commit(const pending *w)
{
    for (int k = 0; k < 4; k++) {
        if (!(w->mask >> k & 1))
            continue;
        if (w->reg) {
            w->reg[k] = w->v[k];
            if (w->written)
                *w->written |= (uint8_t)(1u << k);
        } else if (w->a0) {
            /* A0 holds integers: the value is floored and saturated to the
             * int16 range (docs/assumptions.md, vs a0). */
            float f = floorf(w->v[k]);
            w->a0[k] = f != f ? 0 : f < -32768.0f ? -32768 : f > 32767.0f ? 32767 : (int32_t)f;
        }
    }
}

static ls_status step(vctx *c, const r500_pvs_inst *ip)
{
    const uint32_t *f = ip->field;
    bool dual = ip->form == R500_PVS_FORM_DUAL;
    bool math = f[R500_PVS_F_MATH_INST], macro = f[R500_PVS_F_MACRO_INST];
    if (math && macro)
        return fault(c, LS_ERR_FAULT, "MATH_INST and MACRO_INST both set");
    if (dual && (math || macro))
        return fault(c, LS_ERR_FAULT, "a dual math instruction whose dword 0 is not a vector op");
    unsigned op = f[R500_PVS_F_OPCODE];
    if (macro && op > 1)
        return fault(c, LS_ERR_FAULT, "macro opcode %u is reserved", op);

    float s[3][4] = {{0}};
    unsigned nsrc = dual ? 2 : 3;
    for (unsigned k = 0; k < nsrc; k++)
        if (!read_src(c, &f[R500_PVS_F_S0_REG_TYPE + k * R500_PVS_SRC_STRIDE], s[k]))
            return c->fault;
    float dm[2] = {0, 0};
    if (dual && !read_dual_src(c, f, dm))
        return c->fault;

    bool pred_ok = !f[R500_PVS_F_PRED_ENABLE] || c->st->pred == (bool)f[R500_PVS_F_PRED_SENSE];
    bool new_pred = c->st->pred, sets_pred = false;
    pending w1 = {0}, w2 = {0};
    bool have1 = false, have2 = false;
    float r[4];
    unsigned chans = 0xf;
    if (math) {
        /* ME operands: one scalar per source, its W channel (buhman/r500
         * drm/cube_rotate.vs.asm, run on hardware: ME_SIN temp[0].___x);
         * the second operand of POW is in src2 (Mesa ei_pow), LIT takes
         * N.L from src1.w, N.H from src0.w, the power from src2.w (Mesa ei_lit). */
        float b = op == 5 || c->o->me_b == R500_PVS_ME_B_SRC2 ? s[2][3] : s[1][3];
        float lit[3] = {s[1][3], s[0][3], s[2][3]};
        have1 = me_op(c, op, s[0][3], b, lit, r, &new_pred, &sets_pred);
        if (have1)
            for (int k = 0; k < 4; k++)
                r[k] = sat(r[k], f[R500_PVS_F_ME_SAT], c->o);
    } else if (macro) {
        /* MACRO_OP_2CLK_MADD / _M2X_ADD: the two-clock forms of MAD and
         * MULTIPLYX2_ADD for three distinct temporaries (Mesa ei_mad). */
        have1 = ve_op(c, op == 0 ? 4 : 11, s[0], s[1], s[2], r, &chans, &new_pred, &sets_pred);
        if (have1)
            for (int k = 0; k < 4; k++)
                r[k] = sat(r[k], f[R500_PVS_F_VE_SAT], c->o);
    } else {
        have1 = ve_op(c, op, s[0], s[1], s[2], r, &chans, &new_pred, &sets_pred);
        if (have1)
            for (int k = 0; k < 4; k++)
                r[k] = sat(r[k], f[R500_PVS_F_VE_SAT], c->o);
    }
    if (c->fault != LS_OK)
        return c->fault;
    if (have1) {
        unsigned dtype = f[R500_PVS_F_DST_REG_TYPE];
        if (!dst_target(c, dtype, f[R500_PVS_F_DST_OFFSET],
                        f[R500_PVS_F_DST_ADDR_MODE_1] << 1 | f[R500_PVS_F_DST_ADDR_MODE_0],
                        f[R500_PVS_F_DST_ADDR_SEL], &w1))
            return c->fault;
        w1.mask = (f[R500_PVS_F_DST_WE_X] | f[R500_PVS_F_DST_WE_Y] << 1 |
                   f[R500_PVS_F_DST_WE_Z] << 2 | f[R500_PVS_F_DST_WE_W] << 3) & chans;
        for (int k = 0; k < 4; k++)
            /* PVS_DST_REG_OUT_REPL_X: the X result replicated to every channel */
            w1.v[k] = dtype == 3 ? r[0] : r[k];
    }
    if (dual) {
        /* pvs_dual_math_instruction.txt: a math op with its own 2-component
         * source (A = X select, B = Y select), writing one component of
         * alt_temp[DUAL_MATH_DST_OFFSET]. */
        unsigned mop = f[R500_PVS_F_DM_OPCODE_MSB] << 4 | f[R500_PVS_F_DM_OPCODE];
        if (mop == 4)
            return fault(c, LS_ERR_UNSUPPORTED, "ME_LIGHT_COEFF_DX in a dual math instruction: "
                         "its three operands do not fit the 2-component dual math source");
        float lit[3] = {dm[0], dm[1], 0.0f};
        float r2[4];
        have2 = me_op(c, mop, dm[0], dm[1], lit, r2, &new_pred, &sets_pred);
        if (c->fault != LS_OK)
            return c->fault;
        if (have2) {
            if (!dst_target(c, 4, f[R500_PVS_F_DM_DST_OFFSET], 0, 0, &w2))
                return c->fault;
            unsigned ch = f[R500_PVS_F_DM_DST_WE_SEL];
            w2.mask = 1u << ch;
            w2.v[ch] = sat(r2[ch], f[R500_PVS_F_ME_SAT], c->o);
        }
    }
    /* PVS_DST_PRED_ENABLE / PRED_SENSE: "writes if predicate bit matches
     * predicate sense" — both results of a dual instruction. */
    if (pred_ok) {
        if (have1)
            commit(&w1);
        if (have2)
            commit(&w2);
    }
    if (sets_pred)
        c->st->pred = new_pred;
    return LS_OK;
}

ls_status r500_pvs_fc_set(r500_pvs_fc *fc, const char *name, uint32_t value, ls_diag *d)
{
    static const char *const arrays[3] = {"VAP_PVS_FLOW_CNTL_ADDRS_LW_",
                                          "VAP_PVS_FLOW_CNTL_ADDRS_UW_",
                                          "VAP_PVS_FLOW_CNTL_LOOP_INDEX_"};
    if (!strcasecmp(name, "VAP_PVS_FLOW_CNTL_OPC")) {
        fc->opc = value;
        return LS_OK;
    }
    for (int a = 0; a < 3; a++) {
        size_t n = strlen(arrays[a]);
        if (strncasecmp(name, arrays[a], n))
            continue;
        char *end;
        unsigned long k = strtoul(name + n, &end, 10);
        if (end == name + n || *end || k >= R500_PVS_FC_OPS)
            break;
        uint32_t *r = a == 0 ? fc->addrs_lw : a == 1 ? fc->addrs_uw : fc->loop_index;
        r[k] = value;
        return LS_OK;
    }
    return ls_diag_set(d, LS_ERR_ARG, NULL, 0, 0,
                       "unknown vertex flow-control register '%s' (VAP_PVS_FLOW_CNTL_OPC, "
                       "_ADDRS_LW_n, _ADDRS_UW_n, _LOOP_INDEX_n with n 0..15)", name);
}

/* A loop or subroutine in progress. */
typedef struct fc_frame {
    bool loop;
    uint32_t count, last, rtn;
    int32_t step, saved_i0;
} fc_frame;

/* One vertex over pre-decoded instructions (dec[i] for words 4i..4i+3, or
 * decoded on the fly when dec is NULL). */
static ls_status run_one(const uint32_t *words, const r500_pvs_inst *dec, size_t count,
                         size_t first, size_t last, const float (*consts)[4],
                         const r500_pvs_fc *fc, const r500_pvs_options *o, r500_pvs_state *st,
                         r500_pvs_stats *stats, ls_diag *d)
{
    vctx c = {.o = o, .consts = consts, .st = st, .d = d, .pc = first, .fault = LS_OK};
    if (o->temps > R500_PVS_MAX_REGS || o->alt_temps > R500_PVS_MAX_REGS ||
        o->inputs > R500_PVS_MAX_REGS || o->outputs > R500_PVS_MAX_REGS || o->fc_depth > 64)
        return ls_diag_set(d, LS_ERR_ARG, NULL, 0, 0, "register counts exceed %d",
                           R500_PVS_MAX_REGS);
    if (first > last)
        return ls_diag_set(d, LS_ERR_ARG, NULL, 0, 0,
                           "first instruction %zu is after the last, %zu", first, last);
    fc_frame stack[64];
    unsigned depth = 0;
    uint64_t issued = 0;
    for (;;) {
        if (c.pc >= count)
            return fault(&c, LS_ERR_FAULT,
                         "PC off the end: instruction %zu runs past the program's %zu "
                         "instructions (PVS_LAST_INST %zu)",
                         c.pc, count, last);
        if (issued >= o->watchdog)
            return fault(&c, LS_ERR_FAULT, "watchdog: %llu instructions issued for one vertex",
                         (unsigned long long)issued);
        r500_pvs_inst tmp;
        if (!dec)
            r500_pvs_decode(words + 4 * c.pc, &tmp);
        if (step(&c, dec ? &dec[c.pc] : &tmp) != LS_OK)
            return c.fault;
        issued++;
        if (stats)
            stats->issued++;
        size_t pc = c.pc, next = pc + 1;
        bool redirected = false;
        /* The end of the innermost loop or subroutine (ADDRS_UW LAST_INST):
         * LOOP - "The last instruction of the loop", back to RTN_INST ("First
         * Instruction of Loop") while the count lasts; JSR - "The last
         * instruction of the subroutine", back to RTN_INST ("First Instruction
         * After JSR"). Frames ending at the same instruction end together. */
        while (depth && stack[depth - 1].last == pc) {
            fc_frame *f = &stack[depth - 1];
            if (f->loop && --f->count > 0) {
                st->i0 += f->step;
                next = f->rtn;
                redirected = true;
                break;
            }
            depth--;
            if (!f->loop) {
                next = f->rtn;
                redirected = true;
                break;
            }
            /* loop done: fall through; "after loop completion, the outer loop
             * index register is restored" */
            st->i0 = f->saved_i0;
        }
        /* A flow-control operation whose ACT_ADRS ("the last PVS instruction to
         * execute prior to the control flow redirection") has just run; the
         * lowest-numbered one wins. */
        for (unsigned k = 0; fc && !redirected && k < R500_PVS_FC_OPS; k++) {
            unsigned opc = (fc->opc >> (2 * k)) & 3u;
            if (opc == 0 || (fc->addrs_lw[k] & 0xffffu) != pc)
                continue;
            uint32_t target = fc->addrs_lw[k] >> 16;
            redirected = true;
            if (opc == 1) { /* JUMP */
                next = target;
                break;
            }
            if (depth == o->fc_depth)
                return fault(&c, LS_ERR_FAULT,
                             "flow-control op %u: more than %u nested loops and subroutines", k,
                             o->fc_depth);
            fc_frame *f = &stack[depth];
            f->last = fc->addrs_uw[k] & 0xffffu;
            f->rtn = fc->addrs_uw[k] >> 16;
            if (opc == 2) { /* LOOP */
                if (target == 0)
                    return fault(&c, LS_ERR_FAULT, "flow-control op %u: LOOP with count 0 (the "
                                 "docs: \"loop count of 0 must be replaced by a jump\")", k);
                uint32_t li = fc->loop_index[k];
                f->loop = true;
                f->count = target;
                f->step = (int8_t)((li >> 8) & 0xffu);
                f->saved_i0 = st->i0;
                if (!(li >> 31)) /* PVS_FC_LOOP_REPEAT_NO_FLI: inherit the outer index */
                    st->i0 = (int32_t)(li & 0xffu);
                next = f->rtn;
            } else { /* JSR */
                f->loop = false;
                f->count = 0;
                f->step = 0;
                f->saved_i0 = st->i0;
                next = target;
            }
            depth++;
            break;
        }
        if (!redirected && pc == last)
            return LS_OK;
        c.pc = next;
    }
}

ls_status r500_pvs_run(const uint32_t *words, size_t count, size_t first, size_t last,
                       const float (*consts)[4], const r500_pvs_fc *fc,
                       const r500_pvs_options *o, r500_pvs_state *st, r500_pvs_stats *stats,
                       ls_diag *d)
{
    return run_one(words, NULL, count, first, last, consts, fc, o, st, stats, d);
}

ls_status r500_pvs_run_vertices(const uint32_t *words, size_t count, size_t first, size_t last,
                                const float (*consts)[4], const r500_pvs_fc *fc,
                                const r500_pvs_options *o, r500_pvs_state *states,
                                size_t nverts, size_t *fault_vertex, r500_pvs_stats *stats,
                                ls_diag *d)
{
    if (o->engine == R500_ENGINE_JIT) {
        if (!o->jit)
            return ls_diag_set(d, LS_ERR_ARG, NULL, 0, 0,
                               "engine jit: not installed in the vertex options "
                               "(r500_pvs_jit_ops(), docs/r500-jit.md)");
        return o->jit->run_vertices(o->jit, words, count, first, last, consts, fc, o, states,
                                    nverts, fault_vertex, stats, d);
    }
    return r500_pvs_run_vertices_interp(words, count, first, last, consts, fc, o, states, nverts,
                                        fault_vertex, stats, d);
}

ls_status r500_pvs_run_vertices_interp(const uint32_t *words, size_t count, size_t first,
                                       size_t last, const float (*consts)[4],
                                       const r500_pvs_fc *fc, const r500_pvs_options *o,
                                       r500_pvs_state *states, size_t nverts,
                                       size_t *fault_vertex, r500_pvs_stats *stats, ls_diag *d)
{
    /* pre-decode once (DESIGN.md: "pre-decode a program once") */
    r500_pvs_inst *dec = count ? malloc(count * sizeof *dec) : NULL;
    if (count && !dec)
        return ls_diag_set(d, LS_ERR_NOMEM, NULL, 0, 0, "out of memory");
    for (size_t i = 0; i < count; i++)
        r500_pvs_decode(words + 4 * i, &dec[i]);
    ls_status s = LS_OK;
    for (size_t v = 0; v < nverts && s == LS_OK; v++) {
        s = run_one(words, dec, count, first, last, consts, fc, o, &states[v], stats, d);
        if (s != LS_OK && fault_vertex)
            *fault_vertex = v;
    }
    free(dec);
    return s;
}
