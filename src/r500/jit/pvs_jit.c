/* The R500 vertex JIT (docs/r500-jit.md, "The vertex JIT"): compiles a
 * straight-line PVS program (instructions first..last, no flow control, no
 * relative operands but A0-relative constants, no instruction that faults
 * for every vertex) into one
 * function, with LLVM (ORC LLJIT, C API), that runs VW vertices at once: every
 * register channel is a <VW x float> (one vertex per lane), every write mask
 * and predicate a <VW x i1>. The rules are pvs_exec.c's (the model of record),
 * instruction by instruction in step()'s order: the vector engine's
 * operations are emitted as the IEEE single-precision operations and selects
 * pvs_exec.c writes (each emitter names the function it follows); the math
 * engine's operations are pvs_exec.c's own me_op, compiled to bitcode with
 * clang (pvs_rt.c) and inlined once per lane. Programs the JIT does not
 * compile run on the interpreter (r500_pvs_run_vertices_interp), and the
 * engine counts them. */
#include "lockstep/r500_pvs_jit.h"

#include <float.h>
#include <pthread.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <math.h>

#include <llvm-c/Core.h>

#include "../exec_internal.h"
#include "llvm_setup.h"

/* Vertices per compiled call: one AVX2 register of floats. */
#define VW 8
#define VWS "v8"

/* Planted rule changes for the differential test's own test
 * (tests/r500/meson.build, r500/pvs-engine-diff-planted-N): 1 = VE_MAXIMUM
 * takes x only when x > y (pvs_exec.c vmax: x >= y), 2 = a source's negate
 * applied before its absolute value (pvs_exec.c modify: abs first). */
#ifndef R500_PVS_JIT_PLANTED
#define R500_PVS_JIT_PLANTED 0
#endif

enum { F_TEMP, F_INPUT, F_ALT, F_OUT, F_NUM };

/* Returns 0, or 1 when some lane's A0-relative constant index is out of
 * range (pvs_exec.c src_reg's fault): then nothing is stored. */
typedef int (*prog_fn)(r500_pvs_state *const *lanes, const float *consts, const float *k,
                       const r500_pvs_options *o);

typedef struct vg {
    LLVMContextRef ctx;
    LLVMModuleRef mod;
    LLVMBuilderRef b;
    LLVMTypeRef f32, i32, i8, i64, i1, vf, vi, vb, v8, ptr, me_ty;
    LLVMValueRef me_fn, consts, kst, opt, rbuf;
    LLVMValueRef sp[VW];
    const r500_pvs_options *o;
    bool touched[F_NUM][R500_PVS_MAX_REGS], written[F_NUM][R500_PVS_MAX_REGS];
    bool a0_written, pred_set;
    LLVMValueRef reg[F_NUM][R500_PVS_MAX_REGS][4];
    LLVMValueRef outw[R500_PVS_MAX_REGS]; /* <VW x i8> out_written */
    LLVMValueRef a0[4];                   /* <VW x i32> */
    LLVMValueRef pred;                    /* <VW x i1> */
    LLVMValueRef oob;                     /* <VW x i1>: an A0-relative index out of range, or NULL */
} vg;

static size_t file_offset(unsigned f)
{
    switch (f) {
    case F_TEMP: return offsetof(r500_pvs_state, temp);
    case F_INPUT: return offsetof(r500_pvs_state, input);
    case F_ALT: return offsetof(r500_pvs_state, alt);
    default: return offsetof(r500_pvs_state, out);
    }
}

static LLVMValueRef ci32(vg *g, unsigned v)
{
    return LLVMConstInt(g->i32, v, 0);
}

static LLVMValueRef splatf(vg *g, float v)
{
    LLVMValueRef e[VW];
    for (int i = 0; i < VW; i++)
        e[i] = LLVMConstReal(g->f32, (double)v);
    return LLVMConstVector(e, VW);
}

static LLVMValueRef splat_val(vg *g, LLVMTypeRef vt, LLVMValueRef s)
{
    LLVMValueRef v = LLVMGetUndef(vt);
    for (int i = 0; i < VW; i++)
        v = LLVMBuildInsertElement(g->b, v, s, ci32(g, (unsigned)i), "");
    return v;
}

static LLVMValueRef lane_ptr(vg *g, int lane, size_t off)
{
    LLVMValueRef o = LLVMConstInt(g->i64, off, 0);
    return LLVMBuildGEP2(g->b, g->i8, g->sp[lane], &o, 1, "");
}

/* A value of every lane's state at byte offset off, of scalar type t. */
static LLVMValueRef gather(vg *g, LLVMTypeRef t, LLVMTypeRef vt, size_t off)
{
    LLVMValueRef v = LLVMGetUndef(vt);
    for (int l = 0; l < VW; l++) {
        LLVMValueRef x = LLVMBuildLoad2(g->b, t, lane_ptr(g, l, off), "");
        v = LLVMBuildInsertElement(g->b, v, x, ci32(g, (unsigned)l), "");
    }
    return v;
}

static void scatter(vg *g, LLVMValueRef v, size_t off)
{
    for (int l = 0; l < VW; l++)
        LLVMBuildStore(g->b, LLVMBuildExtractElement(g->b, v, ci32(g, (unsigned)l), ""),
                       lane_ptr(g, l, off));
}

/* A float from runtime memory, in every lane: constants and the swizzle
 * constants are read as the interpreter reads them, so LLVM folds no
 * operation on two literals (whose NaN results need not be the host's;
 * docs/r500-jit.md). */
static LLVMValueRef load_splat(vg *g, LLVMValueRef base, unsigned idx)
{
    LLVMValueRef i = ci32(g, idx);
    LLVMValueRef p = LLVMBuildGEP2(g->b, g->f32, base, &i, 1, "");
    return splat_val(g, g->vf, LLVMBuildLoad2(g->b, g->f32, p, ""));
}

static LLVMValueRef intr1(vg *g, const char *name, LLVMValueRef a)
{
    LLVMTypeRef ty = LLVMFunctionType(g->vf, &g->vf, 1, 0);
    LLVMValueRef f = LLVMGetNamedFunction(g->mod, name);
    if (!f)
        f = LLVMAddFunction(g->mod, name, ty);
    return LLVMBuildCall2(g->b, ty, f, &a, 1, "");
}

static LLVMValueRef sel(vg *g, LLVMValueRef c, LLVMValueRef a, LLVMValueRef b)
{
    return LLVMBuildSelect(g->b, c, a, b, "");
}

static LLVMValueRef fcmp(vg *g, LLVMRealPredicate p, LLVMValueRef a, LLVMValueRef b)
{
    return LLVMBuildFCmp(g->b, p, a, b, "");
}

static LLVMValueRef and1(vg *g, LLVMValueRef a, LLVMValueRef b)
{
    if (!a)
        return b;
    if (!b)
        return a;
    return LLVMBuildAnd(g->b, a, b, "");
}

/* ---- the register files ---------------------------------------------------- */

/* Instruction fields of source block n (pvs_exec.c read_src's SF). */
#define SF(f, n, x) (f)[R500_PVS_F_S0_##x + (n) * R500_PVS_SRC_STRIDE]

static int src_file(unsigned type)
{
    return type == 0 ? F_TEMP : type == 1 ? F_INPUT : type == 3 ? F_ALT : -1;
}

/* A source the JIT compiles relative: a constant (type 2) + A0 (mode 1). */
static bool a0_const(unsigned type, unsigned m0, unsigned m1)
{
    return type == 2 && m0 == 1 && m1 == 0;
}

/* Before the code: which registers the program touches (pass 1). */
static void note_inst(vg *g, const r500_pvs_inst *ip)
{
    const uint32_t *f = ip->field;
    bool dual = ip->form == R500_PVS_FORM_DUAL;
    for (unsigned k = 0; k < (dual ? 2u : 3u); k++) {
        int fl = src_file(SF(f, k, REG_TYPE));
        if (fl >= 0)
            g->touched[fl][SF(f, k, OFFSET)] = true;
    }
    if (dual) {
        int fl = src_file(f[R500_PVS_F_DM_SRC_REG_TYPE]);
        if (fl >= 0)
            g->touched[fl][f[R500_PVS_F_DM_SRC_OFFSET]] = true;
        g->touched[F_ALT][f[R500_PVS_F_DM_DST_OFFSET]] = true;
    }
    unsigned t = f[R500_PVS_F_DST_REG_TYPE], off = f[R500_PVS_F_DST_OFFSET];
    int fl = t == 0 ? F_TEMP : t == 2 || t == 3 ? F_OUT : t == 4 ? F_ALT : t == 5 ? F_INPUT : -1;
    if (fl >= 0)
        g->touched[fl][off] = true;
}

/* Constant channel ch of register ridx[lane] in every lane (an in-range
 * <VW x i32> index). */
static LLVMValueRef const_gather(vg *g, LLVMValueRef ridx, unsigned ch)
{
    LLVMValueRef v = LLVMGetUndef(g->vf);
    for (int l = 0; l < VW; l++) {
        LLVMValueRef i = LLVMBuildExtractElement(g->b, ridx, ci32(g, (unsigned)l), "");
        i = LLVMBuildAdd(g->b, LLVMBuildMul(g->b, i, ci32(g, 4), ""), ci32(g, ch), "");
        LLVMValueRef x = LLVMBuildLoad2(g->b, g->f32, LLVMBuildGEP2(g->b, g->f32, g->consts, &i, 1, ""), "");
        v = LLVMBuildInsertElement(g->b, v, x, ci32(g, (unsigned)l), "");
    }
    return v;
}

/* An A0-relative constant operand (the only relative operand compiled):
 * pvs_exec.c effective (OFFSET + A0[ADDR_SEL]) and src_reg's range check.
 * Lanes out of range join g->oob (the program then stores nothing and the
 * run goes to the interpreter, which reports the fault) and read const[0]. */
static LLVMValueRef a0_index(vg *g, unsigned offset, unsigned sel)
{
    LLVMValueRef i = LLVMBuildAdd(g->b, splat_val(g, g->vi, ci32(g, offset)), g->a0[sel & 3], "");
    LLVMValueRef bad = LLVMBuildICmp(g->b, LLVMIntUGE, i,
                                     splat_val(g, g->vi, ci32(g, R500_PVS_NUM_CONSTS)), "");
    g->oob = g->oob ? LLVMBuildOr(g->b, g->oob, bad, "") : bad;
    return LLVMBuildSelect(g->b, bad, LLVMConstNull(g->vi), i, "");
}

/* pvs_exec.c swz + modify, one channel of a source (ridx: an A0-relative
 * constant's lane indices, else NULL). */
static LLVMValueRef src_chan(vg *g, int fl, unsigned type, unsigned idx, LLVMValueRef ridx,
                             unsigned swz, unsigned abs, unsigned neg)
{
    LLVMValueRef v;
    if (swz < 4 && ridx)
        v = const_gather(g, ridx, swz);
    else if (swz < 4)
        v = fl >= 0 ? g->reg[fl][idx][swz] : load_splat(g, g->consts, idx * 4 + swz);
    else /* 4 FORCE_0, 5 FORCE_1, 6 0.5, 7 0 */
        v = load_splat(g, g->kst, swz == 5 ? 1 : swz == 6 ? 2 : 0);
    (void)type;
#if R500_PVS_JIT_PLANTED == 2
    if (neg)
        v = LLVMBuildFNeg(g->b, v, "");
    if (abs)
        v = intr1(g, "llvm.fabs." VWS "f32", v);
    return v;
#else
    if (abs)
        v = intr1(g, "llvm.fabs." VWS "f32", v);
    return neg ? LLVMBuildFNeg(g->b, v, "") : v;
#endif
}

static void read_src(vg *g, const uint32_t *f, unsigned n, LLVMValueRef out[4])
{
    unsigned type = SF(f, n, REG_TYPE), idx = SF(f, n, OFFSET);
    int fl = src_file(type);
    LLVMValueRef ridx = a0_const(type, SF(f, n, ADDR_MODE_0), SF(f, n, ADDR_MODE_1))
                            ? a0_index(g, idx, SF(f, n, ADDR_SEL))
                            : NULL;
    for (unsigned ch = 0; ch < 4; ch++)
        out[ch] = src_chan(g, fl, type, idx, ridx, (&SF(f, n, SWIZZLE_X))[ch], SF(f, n, ABS),
                           (&SF(f, n, MODIFIER_X))[ch]);
}

/* ---- the vector engine ------------------------------------------------------ */

static LLVMValueRef is_zero(vg *g, LLVMValueRef a)
{
    return fcmp(g, LLVMRealOEQ, a, splatf(g, 0.0f));
}

/* pvs_exec.c vmul (vs-zero-times-anything) */
static LLVMValueRef vmul(vg *g, LLVMValueRef a, LLVMValueRef b)
{
    LLVMValueRef p = LLVMBuildFMul(g->b, a, b, "");
    if (g->o->zta != R500_PVS_ZTA_LEGACY)
        return p;
    LLVMValueRef c = LLVMBuildAnd(g->b, fcmp(g, LLVMRealUNO, p, p),
                                  LLVMBuildOr(g->b, is_zero(g, a), is_zero(g, b), ""), "");
    return sel(g, c, splatf(g, 0.0f), p);
}

/* pvs_exec.c mad (option mad) */
static LLVMValueRef vmad(vg *g, LLVMValueRef a, LLVMValueRef b, LLVMValueRef c)
{
    if (g->o->math.mad == R500_MAD_FUSED) {
        LLVMTypeRef t3[3] = {g->vf, g->vf, g->vf};
        LLVMTypeRef ty = LLVMFunctionType(g->vf, t3, 3, 0);
        LLVMValueRef fn = LLVMGetNamedFunction(g->mod, "llvm.fma." VWS "f32");
        if (!fn)
            fn = LLVMAddFunction(g->mod, "llvm.fma." VWS "f32", ty);
        LLVMValueRef args[3] = {a, b, c};
        LLVMValueRef r = LLVMBuildCall2(g->b, ty, fn, args, 3, "");
        if (g->o->zta != R500_PVS_ZTA_LEGACY)
            return r;
        LLVMValueRef cond = LLVMBuildAnd(
            g->b, LLVMBuildAnd(g->b, fcmp(g, LLVMRealUNO, r, r), fcmp(g, LLVMRealORD, c, c), ""),
            LLVMBuildOr(g->b, is_zero(g, a), is_zero(g, b), ""), "");
        return sel(g, cond, c, r);
    }
    return LLVMBuildFAdd(g->b, vmul(g, a, b), c, "");
}

/* pvs_exec.c vmax / vmin (vs-minmax-nan) */
static LLVMValueRef vminmax(vg *g, bool max, LLVMValueRef x, LLVMValueRef y)
{
#if R500_PVS_JIT_PLANTED == 1
    LLVMRealPredicate p = max ? LLVMRealOGT : LLVMRealOLT;
#else
    LLVMRealPredicate p = max ? LLVMRealOGE : LLVMRealOLT;
#endif
    LLVMValueRef r = sel(g, fcmp(g, p, x, y), x, y);
    if (g->o->minmax == R500_PVS_MINMAX_NUMBER)
        r = sel(g, fcmp(g, LLVMRealUNO, x, x), y, sel(g, fcmp(g, LLVMRealUNO, y, y), x, r));
    return r;
}

/* pvs_exec.c cmp0 */
static LLVMValueRef cmp0(vg *g, LLVMValueRef v, unsigned k)
{
    static const LLVMRealPredicate p[4] = {LLVMRealOEQ, LLVMRealOGT, LLVMRealOGE, LLVMRealUNE};
    return fcmp(g, p[k & 3], v, splatf(g, 0.0f));
}

static LLVMValueRef b2f(vg *g, LLVMValueRef c)
{
    return sel(g, c, splatf(g, 1.0f), splatf(g, 0.0f));
}

/* pvs_exec.c ve_op for the operations the JIT compiles (never 12 or a
 * reserved one). chans[k]: the lanes whose channel k is written (NULL: all);
 * false: no write (VECTOR_NO_OP). */
static bool emit_ve(vg *g, unsigned op, LLVMValueRef *a, LLVMValueRef *b, LLVMValueRef *cc,
                    LLVMValueRef r[4], LLVMValueRef chans[4], LLVMValueRef *new_pred,
                    bool *sets_pred)
{
    for (int k = 0; k < 4; k++)
        chans[k] = NULL;
    switch (op) {
    case 0:
        return false;
    case 1: { /* DOT: products summed x, y, z, w in order */
        LLVMValueRef s = vmul(g, a[0], b[0]);
        for (int k = 1; k < 4; k++)
            s = LLVMBuildFAdd(g->b, s, vmul(g, a[k], b[k]), "");
        r[0] = r[1] = r[2] = r[3] = s;
        return true;
    }
    case 5: /* DST */
        r[0] = splatf(g, 1.0f);
        r[1] = vmul(g, a[1], b[1]);
        r[2] = a[2];
        r[3] = b[3];
        return true;
    case 15: case 16: case 17: case 18: { /* PRED_SET_*_PUSH */
        LLVMValueRef act = is_zero(g, a[3]);
        LLVMValueRef t = cmp0(g, b[3], op - 15);
        LLVMValueRef v = sel(g, act, sel(g, t, splatf(g, 0.0f), splatf(g, 1.0f)),
                             LLVMBuildFAdd(g->b, a[3], splatf(g, 1.0f), ""));
        *new_pred = LLVMBuildAnd(g->b, act, t, "");
        *sets_pred = true;
        r[0] = r[1] = r[2] = r[3] = v;
        return true;
    }
    default:
        break;
    }
    for (int k = 0; k < 4; k++) {
        LLVMValueRef x = a[k], y = b[k], z = cc[k];
        switch (op) {
        case 2: r[k] = vmul(g, x, y); break;
        case 3: r[k] = LLVMBuildFAdd(g->b, x, y, ""); break;
        case 4: r[k] = vmad(g, x, y, z); break;
        case 6: r[k] = LLVMBuildFSub(g->b, x, intr1(g, "llvm.floor." VWS "f32", x), ""); break;
        case 7: r[k] = vminmax(g, true, x, y); break;
        case 8: r[k] = vminmax(g, false, x, y); break;
        case 9: r[k] = b2f(g, fcmp(g, LLVMRealOGE, x, y)); break;
        case 10: r[k] = b2f(g, fcmp(g, LLVMRealOLT, x, y)); break;
        case 11:
            r[k] = vmad(g, LLVMBuildFMul(g->b, splatf(g, 2.0f), x, ""), y, z);
            break;
        case 13: r[k] = intr1(g, "llvm.floor." VWS "f32", x); break;
        case 14:
            r[k] = intr1(g, "llvm.floor." VWS "f32", LLVMBuildFAdd(g->b, x, splatf(g, 0.5f), ""));
            break;
        case 19: case 20: case 21: case 22:
            r[k] = y;
            chans[k] = cmp0(g, x, op - 19);
            break;
        case 23: case 24: case 25: r[k] = sel(g, cmp0(g, x, op - 23), y, z); break;
        case 26: r[k] = b2f(g, fcmp(g, LLVMRealOGT, x, y)); break;
        case 27: r[k] = b2f(g, fcmp(g, LLVMRealOEQ, x, y)); break;
        default: r[k] = b2f(g, fcmp(g, LLVMRealUNE, x, y)); break; /* 28 SNE */
        }
    }
    return true;
}

/* pvs_exec.c sat (clamp-nan) */
static LLVMValueRef vsat(vg *g, LLVMValueRef v)
{
    LLVMValueRef one = splatf(g, 1.0f), zero = splatf(g, 0.0f);
    LLVMValueRef c = sel(g, fcmp(g, LLVMRealOGT, v, zero),
                         sel(g, fcmp(g, LLVMRealOLT, v, one), v, one), zero);
    LLVMValueRef nan = fcmp(g, LLVMRealUNO, v, v);
    return sel(g, nan, g->o->math.clamp_nan == R500_CLAMP_NAN_ZERO ? zero : v, c);
}

/* ---- the math engine: pvs_exec.c's me_op, per lane (pvs_rt.c) ------------- */

static bool emit_me(vg *g, unsigned op, LLVMValueRef a, LLVMValueRef b, LLVMValueRef l0,
                    LLVMValueRef l1, LLVMValueRef l2, bool sat_on, LLVMValueRef r[4],
                    LLVMValueRef *new_pred, bool *sets_pred)
{
    if (op == 0)
        return false;
    for (int k = 0; k < 4; k++)
        r[k] = LLVMGetUndef(g->vf);
    LLVMValueRef pv = LLVMGetUndef(g->vb);
    for (int l = 0; l < VW; l++) {
        LLVMValueRef li = ci32(g, (unsigned)l);
        LLVMValueRef args[9] = {ci32(g, op),
                                LLVMBuildExtractElement(g->b, a, li, ""),
                                LLVMBuildExtractElement(g->b, b, li, ""),
                                LLVMBuildExtractElement(g->b, l0, li, ""),
                                LLVMBuildExtractElement(g->b, l1, li, ""),
                                LLVMBuildExtractElement(g->b, l2, li, ""),
                                ci32(g, sat_on),
                                g->opt,
                                g->rbuf};
        LLVMValueRef ret = LLVMBuildCall2(g->b, g->me_ty, g->me_fn, args, 9, "");
        for (unsigned k = 0; k < 4; k++) {
            LLVMValueRef idx = ci32(g, k);
            LLVMValueRef p = LLVMBuildGEP2(g->b, g->f32, g->rbuf, &idx, 1, "");
            r[k] = LLVMBuildInsertElement(g->b, r[k], LLVMBuildLoad2(g->b, g->f32, p, ""), li, "");
        }
        LLVMValueRef bit = LLVMBuildICmp(g->b, LLVMIntNE,
                                         LLVMBuildAnd(g->b, ret, ci32(g, 2), ""), ci32(g, 0), "");
        pv = LLVMBuildInsertElement(g->b, pv, bit, li, "");
    }
    if (op >= 21 && op <= 28) { /* the ME_PRED_SET_* operations (pvs_exec.c me_op) */
        *new_pred = pv;
        *sets_pred = true;
    }
    return true;
}

/* ---- writes ---------------------------------------------------------------- */

/* Channel k of register (fl, idx) gets v in the lanes of m (NULL: all);
 * out registers record the channel as written (pvs_exec.c commit). */
static void write_chan(vg *g, int fl, unsigned idx, unsigned k, LLVMValueRef v, LLVMValueRef m)
{
    g->written[fl][idx] = true;
    g->reg[fl][idx][k] = m ? sel(g, m, v, g->reg[fl][idx][k]) : v;
    if (fl == F_OUT) {
        LLVMValueRef bit = LLVMConstInt(g->i8, 1u << k, 0), z = LLVMConstInt(g->i8, 0, 0);
        LLVMValueRef bits = splat_val(g, g->v8, bit);
        if (m)
            bits = sel(g, m, bits, splat_val(g, g->v8, z));
        g->outw[idx] = LLVMBuildOr(g->b, g->outw[idx], bits, "");
    }
}

/* A0: floored and saturated to the int16 range, NaN 0 (pvs_exec.c commit). */
static void write_a0(vg *g, unsigned k, LLVMValueRef v, LLVMValueRef m)
{
    LLVMValueRef f = intr1(g, "llvm.floor." VWS "f32", v);
    LLVMValueRef c = sel(g, fcmp(g, LLVMRealOLT, f, splatf(g, -32768.0f)), splatf(g, -32768.0f),
                         sel(g, fcmp(g, LLVMRealOGT, f, splatf(g, 32767.0f)),
                             splatf(g, 32767.0f), f));
    c = sel(g, fcmp(g, LLVMRealUNO, f, f), splatf(g, 0.0f), c);
    LLVMValueRef i = LLVMBuildFPToSI(g->b, c, g->vi, "");
    g->a0_written = true;
    g->a0[k] = m ? sel(g, m, i, g->a0[k]) : i;
}

/* ---- one instruction: pvs_exec.c step() ----------------------------------- */

static void emit_inst(vg *g, const r500_pvs_inst *ip)
{
    const uint32_t *f = ip->field;
    bool dual = ip->form == R500_PVS_FORM_DUAL;
    bool math = f[R500_PVS_F_MATH_INST], macro = f[R500_PVS_F_MACRO_INST];
    unsigned op = f[R500_PVS_F_OPCODE];
    LLVMValueRef s[3][4];
    for (unsigned k = 0; k < 3; k++)
        for (unsigned ch = 0; ch < 4; ch++)
            s[k][ch] = splatf(g, 0.0f);
    for (unsigned k = 0; k < (dual ? 2u : 3u); k++)
        read_src(g, f, k, s[k]);
    LLVMValueRef dm[2] = {NULL, NULL};
    if (dual) {
        unsigned type = f[R500_PVS_F_DM_SRC_REG_TYPE], idx = f[R500_PVS_F_DM_SRC_OFFSET];
        int fl = src_file(type);
        LLVMValueRef ridx = a0_const(type, f[R500_PVS_F_DM_SRC_ADDR_MODE_0],
                                     f[R500_PVS_F_DM_SRC_ADDR_MODE_1])
                                ? a0_index(g, idx, f[R500_PVS_F_DM_SRC_ADDR_SEL])
                                : NULL;
        dm[0] = src_chan(g, fl, type, idx, ridx, f[R500_PVS_F_DM_SRC_SWIZZLE_X],
                         f[R500_PVS_F_DM_SRC_ABS], f[R500_PVS_F_DM_SRC_MODIFIER_X]);
        dm[1] = src_chan(g, fl, type, idx, ridx, f[R500_PVS_F_DM_SRC_SWIZZLE_Y],
                         f[R500_PVS_F_DM_SRC_ABS], f[R500_PVS_F_DM_SRC_MODIFIER_Y]);
    }
    /* PRED_ENABLE / PRED_SENSE: the predicate before this instruction */
    LLVMValueRef pred_ok = NULL;
    if (f[R500_PVS_F_PRED_ENABLE])
        pred_ok = f[R500_PVS_F_PRED_SENSE] ? g->pred : LLVMBuildNot(g->b, g->pred, "");
    LLVMValueRef new_pred = g->pred;
    bool sets_pred = false, have1;
    LLVMValueRef r[4], chans[4] = {NULL, NULL, NULL, NULL};
    if (math) {
        LLVMValueRef bsrc = op == 5 || g->o->me_b == R500_PVS_ME_B_SRC2 ? s[2][3] : s[1][3];
        have1 = emit_me(g, op, s[0][3], bsrc, s[1][3], s[0][3], s[2][3], f[R500_PVS_F_ME_SAT], r,
                        &new_pred, &sets_pred);
    } else {
        unsigned vop = macro ? (op == 0 ? 4u : 11u) : op;
        have1 = emit_ve(g, vop, s[0], s[1], s[2], r, chans, &new_pred, &sets_pred);
        if (have1 && f[R500_PVS_F_VE_SAT])
            for (int k = 0; k < 4; k++)
                r[k] = vsat(g, r[k]);
    }
    /* w2 (dual math) is computed from the same reads, written after w1 */
    LLVMValueRef r2[4];
    bool have2 = false;
    unsigned dch = f[R500_PVS_F_DM_DST_WE_SEL];
    if (dual) {
        unsigned mop = f[R500_PVS_F_DM_OPCODE_MSB] << 4 | f[R500_PVS_F_DM_OPCODE];
        have2 = emit_me(g, mop, dm[0], dm[1], dm[0], dm[1], splatf(g, 0.0f), f[R500_PVS_F_ME_SAT],
                        r2, &new_pred, &sets_pred);
    }
    if (have1) {
        unsigned dtype = f[R500_PVS_F_DST_REG_TYPE], off = f[R500_PVS_F_DST_OFFSET];
        unsigned we = f[R500_PVS_F_DST_WE_X] | f[R500_PVS_F_DST_WE_Y] << 1 |
                      f[R500_PVS_F_DST_WE_Z] << 2 | f[R500_PVS_F_DST_WE_W] << 3;
        for (unsigned k = 0; k < 4; k++) {
            if (!(we >> k & 1))
                continue;
            LLVMValueRef m = and1(g, chans[k], pred_ok);
            LLVMValueRef v = dtype == 3 ? r[0] : r[k];
            switch (dtype) {
            case 0: write_chan(g, F_TEMP, off, k, v, m); break;
            case 1: write_a0(g, k, v, m); break;
            case 2: case 3: write_chan(g, F_OUT, off, k, v, m); break;
            case 4: write_chan(g, F_ALT, off, k, v, m); break;
            default: write_chan(g, F_INPUT, off, k, v, m); break;
            }
        }
    }
    if (have2)
        write_chan(g, F_ALT, f[R500_PVS_F_DM_DST_OFFSET], dch, r2[dch], pred_ok);
    if (sets_pred) {
        g->pred = new_pred;
        g->pred_set = true;
    }
}

/* ---- what the JIT compiles ---------------------------------------------------- */

static bool relative(unsigned m0, unsigned m1)
{
    unsigned mode = m1 << 1 | m0;
    return mode == 1 || mode == 2;
}


/* Static reasons (no trial run): flow control, relative addressing, a range
 * the interpreter refuses. */
static const char *static_refusal(const uint32_t *words, size_t count, size_t first, size_t last,
                                  const r500_pvs_fc *fc, const r500_pvs_options *o)
{
    if (first > last || last >= count)
        return "the instruction range is not within the program";
    if (fc && fc->opc)
        return "flow control (VAP_PVS_FLOW_CNTL_OPC is not 0)";
    if (o->watchdog < last - first + 1)
        return "the watchdog is shorter than the program";
    for (size_t i = first; i <= last; i++) {
        r500_pvs_inst in;
        r500_pvs_decode(words + 4 * i, &in);
        const uint32_t *f = in.field;
        bool dual = in.form == R500_PVS_FORM_DUAL;
        /* A0-relative constants are compiled (a0_index); other relative
         * sources are not */
        for (unsigned k = 0; k < (dual ? 2u : 3u); k++)
            if (relative(SF(f, k, ADDR_MODE_0), SF(f, k, ADDR_MODE_1)) &&
                !a0_const(SF(f, k, REG_TYPE), SF(f, k, ADDR_MODE_0), SF(f, k, ADDR_MODE_1)))
                return "a relative source other than an A0-relative constant";
        if (dual && relative(f[R500_PVS_F_DM_SRC_ADDR_MODE_0], f[R500_PVS_F_DM_SRC_ADDR_MODE_1]) &&
            !a0_const(f[R500_PVS_F_DM_SRC_REG_TYPE], f[R500_PVS_F_DM_SRC_ADDR_MODE_0],
                      f[R500_PVS_F_DM_SRC_ADDR_MODE_1]))
            return "a relative source other than an A0-relative constant";
        if (relative(f[R500_PVS_F_DST_ADDR_MODE_0], f[R500_PVS_F_DST_ADDR_MODE_1]))
            return "an A0- or loop-index-relative destination";
    }
    return NULL;
}

const char *r500_pvs_jit_refusal(const uint32_t *words, size_t count, size_t first, size_t last,
                                 const r500_pvs_fc *fc, const r500_pvs_options *o)
{
    const char *why = static_refusal(words, count, first, last, fc, o);
    if (why)
        return why;
    /* Without flow control and relative addressing every fault the
     * interpreter reports is the same for every vertex (reserved fields,
     * undocumented operations, register indices beyond the model's counts):
     * one trial vertex through the interpreter finds them. An A0-relative
     * constant's index depends on the vertex: the compiled code checks it
     * (a0_index) and leaves the vertices to the interpreter. */
    r500_pvs_state *st = calloc(1, sizeof *st);
    if (!st)
        return "out of memory";
    r500_pvs_options io = *o;
    io.engine = R500_ENGINE_INTERP;
    ls_diag d;
    ls_status s = r500_pvs_run(words, count, first, last, NULL, NULL, &io, st, NULL, &d);
    free(st);
    return s == LS_OK ? NULL : "an instruction faults";
}

/* ---- compile --------------------------------------------------------------- */

extern const unsigned char r500_pvs_rt_bc[];
extern const size_t r500_pvs_rt_bc_len;

/* The functions the run-time bitcode (pvs_rt.c) calls outside itself
 * besides the shared ones (llvm_setup.c): the process's own. */
static const r500_llvm_sym rt_syms[] = {
    R500_LLVM_SYM(r500_alu_transcendental),
    R500_LLVM_SYM(r500_pvs_value_name),
};

/* r500_pvs_rt_me, and the me_op and sat it calls, are inlined into every
 * lane; the rest of pvs_exec.c is left as it is (and dropped: unused). */
static int rt_kind(const char *name)
{
    return !strcmp(name, "r500_pvs_rt_me") || !strcmp(name, "me_op") || !strcmp(name, "sat")
               ? R500_LLVM_FN_INLINE
               : R500_LLVM_FN_PLAIN;
}

static const char *const rt_need[] = {"r500_pvs_rt_me", NULL};

static void emit_prog(vg *g, const uint32_t *words, size_t first, size_t last)
{
    LLVMTypeRef args[4] = {g->ptr, g->ptr, g->ptr, g->ptr};
    LLVMTypeRef fty = LLVMFunctionType(g->i32, args, 4, 0);
    LLVMValueRef fn = LLVMAddFunction(g->mod, "prog", fty);
    LLVMPositionBuilderAtEnd(g->b, LLVMAppendBasicBlockInContext(g->ctx, fn, "entry"));
    LLVMValueRef lanes = LLVMGetParam(fn, 0);
    g->consts = LLVMGetParam(fn, 1);
    g->kst = LLVMGetParam(fn, 2);
    g->opt = LLVMGetParam(fn, 3);
    g->rbuf = LLVMBuildAlloca(g->b, LLVMArrayType(g->f32, 4), "rbuf");
    for (int l = 0; l < VW; l++) {
        LLVMValueRef i = ci32(g, (unsigned)l);
        g->sp[l] = LLVMBuildLoad2(g->b, g->ptr, LLVMBuildGEP2(g->b, g->ptr, lanes, &i, 1, ""), "");
    }
    size_t n = last - first + 1;
    r500_pvs_inst *dec = malloc(n * sizeof *dec);
    for (size_t i = 0; i < n; i++) {
        r500_pvs_decode(words + 4 * (first + i), &dec[i]);
        note_inst(g, &dec[i]);
    }
    /* every load first, every store last: a lane may repeat another's state
     * (the last group of vertices) and must read it unchanged */
    for (int fl = 0; fl < F_NUM; fl++)
        for (unsigned i = 0; i < R500_PVS_MAX_REGS; i++) {
            if (!g->touched[fl][i])
                continue;
            for (unsigned k = 0; k < 4; k++)
                g->reg[fl][i][k] = gather(g, g->f32, g->vf, file_offset((unsigned)fl) + (i * 4 + k) * 4);
            if (fl == F_OUT)
                g->outw[i] = gather(g, g->i8, g->v8, offsetof(r500_pvs_state, out_written) + i);
        }
    for (unsigned k = 0; k < 4; k++)
        g->a0[k] = gather(g, g->i32, g->vi, offsetof(r500_pvs_state, a0) + 4 * k);
    g->pred = LLVMBuildICmp(g->b, LLVMIntNE, gather(g, g->i8, g->v8, offsetof(r500_pvs_state, pred)),
                            LLVMConstNull(g->v8), "");
    for (size_t i = 0; i < n; i++)
        emit_inst(g, &dec[i]);
    free(dec);
    if (g->oob) {
        /* a lane's A0-relative index is out of range: store nothing, return 1 */
        LLVMValueRef any = LLVMBuildICmp(g->b, LLVMIntNE,
                                         LLVMBuildBitCast(g->b, g->oob, LLVMIntTypeInContext(g->ctx, VW), ""),
                                         LLVMConstInt(LLVMIntTypeInContext(g->ctx, VW), 0, 0), "");
        LLVMBasicBlockRef bad = LLVMAppendBasicBlockInContext(g->ctx, fn, "oob");
        LLVMBasicBlockRef ok = LLVMAppendBasicBlockInContext(g->ctx, fn, "store");
        LLVMBuildCondBr(g->b, any, bad, ok);
        LLVMPositionBuilderAtEnd(g->b, bad);
        LLVMBuildRet(g->b, ci32(g, 1));
        LLVMPositionBuilderAtEnd(g->b, ok);
    }
    for (int fl = 0; fl < F_NUM; fl++)
        for (unsigned i = 0; i < R500_PVS_MAX_REGS; i++) {
            if (!g->written[fl][i])
                continue;
            for (unsigned k = 0; k < 4; k++)
                scatter(g, g->reg[fl][i][k], file_offset((unsigned)fl) + (i * 4 + k) * 4);
            if (fl == F_OUT)
                scatter(g, g->outw[i], offsetof(r500_pvs_state, out_written) + i);
        }
    if (g->a0_written)
        for (unsigned k = 0; k < 4; k++)
            scatter(g, g->a0[k], offsetof(r500_pvs_state, a0) + 4 * k);
    if (g->pred_set)
        scatter(g, LLVMBuildZExt(g->b, g->pred, g->v8, ""), offsetof(r500_pvs_state, pred));
    LLVMBuildRet(g->b, ci32(g, 0));
}

typedef struct entry {
    struct entry *next;
    uint32_t *words; /* first..last */
    size_t first, last;
    unsigned temps, alt_temps, inputs, outputs;
    r500_pvs_zta zta;
    r500_pvs_minmax minmax;
    r500_mad_mode mad;
    r500_clamp_nan clamp_nan;
    r500_pvs_me_b me_b;
    bool watchdog_short;
    const char *why; /* not compiled: why */
    LLVMOrcLLJITRef jit;
    prog_fn fn;
    double compile_seconds;
} entry;

struct r500_pvs_jit {
    r500_pvs_engine_ops ops;
    pthread_mutex_t mu;
    entry *head;
    r500_pvs_jit_counts counts;
};

static bool same_key(const entry *e, const uint32_t *words, size_t first, size_t last,
                     const r500_pvs_options *o)
{
    return e->first == first && e->last == last && e->temps == o->temps &&
           e->alt_temps == o->alt_temps && e->inputs == o->inputs && e->outputs == o->outputs &&
           e->zta == o->zta && e->minmax == o->minmax && e->mad == o->math.mad &&
           e->clamp_nan == o->math.clamp_nan && e->me_b == o->me_b &&
           e->watchdog_short == (o->watchdog < last - first + 1) &&
           !memcmp(e->words, words + 4 * first, (last - first + 1) * 16);
}

static ls_status compile(entry *en, const uint32_t *words, const r500_pvs_options *o, ls_diag *d)
{
    const r500_llvm_bitcode bc = {
        .who = "pvs jit", .bytes = r500_pvs_rt_bc, .len = r500_pvs_rt_bc_len,
        .source = "pvs_rt.c", .kind = rt_kind, .need = rt_need,
        .syms = rt_syms, .nsyms = sizeof rt_syms / sizeof rt_syms[0]};
    r500_llvm_unit u;
    if (r500_llvm_open(&u, &bc, d))
        return LS_ERR_IO;
    vg *g = calloc(1, sizeof *g);
    if (!g) {
        r500_llvm_close(&u);
        return ls_diag_set(d, LS_ERR_NOMEM, NULL, 0, 0, "out of memory");
    }
    g->ctx = u.ctx;
    g->mod = u.mod;
    g->o = o;
    g->b = LLVMCreateBuilderInContext(g->ctx);
    g->f32 = LLVMFloatTypeInContext(g->ctx);
    g->i32 = LLVMInt32TypeInContext(g->ctx);
    g->i8 = LLVMInt8TypeInContext(g->ctx);
    g->i64 = LLVMInt64TypeInContext(g->ctx);
    g->i1 = LLVMInt1TypeInContext(g->ctx);
    g->vf = LLVMVectorType(g->f32, VW);
    g->vi = LLVMVectorType(g->i32, VW);
    g->vb = LLVMVectorType(g->i1, VW);
    g->v8 = LLVMVectorType(g->i8, VW);
    g->ptr = LLVMPointerTypeInContext(g->ctx, 0);
    LLVMTypeRef mt[9] = {g->i32, g->f32, g->f32, g->f32, g->f32, g->f32, g->i32, g->ptr, g->ptr};
    g->me_ty = LLVMFunctionType(g->i32, mt, 9, 0);
    g->me_fn = LLVMGetNamedFunction(g->mod, "r500_pvs_rt_me");
    emit_prog(g, words, en->first, en->last);
    LLVMDisposeBuilder(g->b);
    free(g);
    LLVMOrcExecutorAddress addr = 0;
    ls_status st = r500_llvm_finish(&u, "prog", &en->jit, &addr, d);
    if (st == LS_OK) {
        en->fn = (prog_fn)(uintptr_t)addr;
        en->compile_seconds = r500_llvm_seconds(&u);
    }
    return st;
}

static void entry_free(entry *e)
{
    if (e->jit)
        LLVMOrcDisposeLLJIT(e->jit);
    free(e->words);
    free(e);
}

/* The entry for a program (compiled, or refused), NULL with d set on an error. */
static entry *lookup(r500_pvs_jit *j, const uint32_t *words, size_t count, size_t first, size_t last,
                     const r500_pvs_options *o, ls_diag *d)
{
    for (entry *e = j->head; e; e = e->next)
        if (same_key(e, words, first, last, o)) {
            if (!e->why)
                j->counts.hits++;
            return e;
        }
    entry *e = calloc(1, sizeof *e);
    size_t n = last - first + 1;
    if (!e || !(e->words = malloc(n * 16))) {
        free(e);
        ls_diag_set(d, LS_ERR_NOMEM, NULL, 0, 0, "out of memory");
        return NULL;
    }
    memcpy(e->words, words + 4 * first, n * 16);
    e->first = first;
    e->last = last;
    e->temps = o->temps;
    e->alt_temps = o->alt_temps;
    e->inputs = o->inputs;
    e->outputs = o->outputs;
    e->zta = o->zta;
    e->minmax = o->minmax;
    e->mad = o->math.mad;
    e->clamp_nan = o->math.clamp_nan;
    e->me_b = o->me_b;
    e->watchdog_short = o->watchdog < n;
    e->why = r500_pvs_jit_refusal(words, count, first, last, NULL, o);
    if (!e->why) {
        if (compile(e, words, o, d) != LS_OK) {
            entry_free(e);
            return NULL;
        }
        j->counts.compile_seconds += e->compile_seconds;
        j->counts.compiled++;
    } else {
        j->counts.interp_programs++;
    }
    e->next = j->head;
    j->head = e;
    return e;
}

static const float zero_consts[R500_PVS_NUM_CONSTS][4];
/* the swizzle constants FORCE_0, FORCE_1, 0.5 (pvs_exec.c swz), from memory */
static const float swz_consts[4] = {0.0f, 1.0f, 0.5f, 0.0f};

static ls_status run_vertices(const r500_pvs_engine_ops *self, const uint32_t *words, size_t count,
                              size_t first, size_t last, const float (*consts)[4],
                              const r500_pvs_fc *fc, const r500_pvs_options *o,
                              r500_pvs_state *states, size_t nverts, size_t *fault_vertex,
                              r500_pvs_stats *stats, ls_diag *d)
{
    r500_pvs_jit *j = self->state;
    entry *e = NULL;
    bool interp = !nverts || static_refusal(words, count, first, last, fc, o) != NULL;
    pthread_mutex_lock(&j->mu);
    if (!interp) {
        e = lookup(j, words, count, first, last, o, d);
        if (!e) {
            pthread_mutex_unlock(&j->mu);
            return d->status ? d->status : LS_ERR_IO;
        }
        interp = e->why != NULL;
    }
    if (interp)
        j->counts.interp_runs++;
    pthread_mutex_unlock(&j->mu);
    if (interp)
        return r500_pvs_run_vertices_interp(words, count, first, last, consts, fc, o, states,
                                            nverts, fault_vertex, stats, d);
    const float *cp = consts ? &consts[0][0] : &zero_consts[0][0];
    r500_pvs_state *lanes[VW];
    for (size_t v = 0; v < nverts; v += VW) {
        /* past the last vertex the lanes repeat it (their stores are its own
         * values: every load precedes every store) */
        for (size_t l = 0; l < VW; l++)
            lanes[l] = &states[v + l < nverts ? v + l : nverts - 1];
        if (e->fn(lanes, cp, swz_consts, o)) {
            /* an A0-relative constant index out of range in this group: the
             * interpreter runs this and the later vertices and reports the
             * fault at the vertex where it happens */
            pthread_mutex_lock(&j->mu);
            j->counts.interp_runs++;
            pthread_mutex_unlock(&j->mu);
            if (stats)
                stats->issued += (uint64_t)v * (last - first + 1);
            size_t fv = 0;
            ls_status s = r500_pvs_run_vertices_interp(words, count, first, last, consts, fc, o,
                                                       states + v, nverts - v, &fv, stats, d);
            if (s != LS_OK && fault_vertex)
                *fault_vertex = v + fv;
            return s;
        }
    }
    if (stats)
        stats->issued += (uint64_t)nverts * (last - first + 1);
    return LS_OK;
}

r500_pvs_jit *r500_pvs_jit_new(void)
{
    r500_pvs_jit *j = calloc(1, sizeof *j);
    if (!j)
        return NULL;
    if (pthread_mutex_init(&j->mu, NULL)) {
        free(j);
        return NULL;
    }
    j->ops.run_vertices = run_vertices;
    j->ops.state = j;
    return j;
}

const r500_pvs_engine_ops *r500_pvs_jit_ops(const r500_pvs_jit *e)
{
    return &e->ops;
}

void r500_pvs_jit_get_counts(const r500_pvs_jit *e, r500_pvs_jit_counts *out)
{
    r500_pvs_jit *j = (r500_pvs_jit *)(uintptr_t)e;
    pthread_mutex_lock(&j->mu);
    *out = j->counts;
    pthread_mutex_unlock(&j->mu);
}

void r500_pvs_jit_free(r500_pvs_jit *e)
{
    if (!e)
        return;
    for (entry *x = e->head, *nx; x; x = nx) {
        nx = x->next;
        entry_free(x);
    }
    pthread_mutex_destroy(&e->mu);
    free(e);
}
