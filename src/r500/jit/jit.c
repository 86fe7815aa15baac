/* R500 JIT engine (docs/r500-jit.md): a program compiled to one native
 * function with LLVM (ORC LLJIT, C API) that runs a whole thread: ALU/OUT
 * instructions compiled here, FC instructions executed by fc.c's own
 * r500_fc_exec, compiled from the same source to bitcode (rt.c) and inlined
 * with the instruction, the FC registers and options as constants; TEX,
 * MDH/MDV, faulting instructions, the watchdog's last steps and traces stay
 * with the interpreter (exec.c), through the segment table (exec_internal.h,
 * r500_seg).
 *
 * This layer depends on the interpreter and reuses its rules; the interpreter
 * never depends on it. The thread's blocks of VW lanes are unrolled: each
 * instruction is emitted once per block (ALU/OUT instructions are lane-local:
 * MDH/MDV, which read quad neighbours, are not compiled; aL and the active
 * masks change only at FC instructions). Temp channels the compiled
 * instructions name live in locals LLVM keeps in registers, written back to
 * the worker's memory around every interpreter step and on return.
 * Everything r500_alu_exec decides per instruction — sources, swizzles,
 * modifiers, presubtract, the opcodes, OMOD, clamp, write masks, predicate
 * selects — is decided here at compile time, and the model options are baked
 * in; constant values are read from memory as the interpreter reads them
 * (load_splat). The transcendental functions are rt.c's vector path
 * (rt_trans.h), which leaves to the interpreter's own r500_alu_transcendental
 * every lane whose result it cannot prove equal; the other operations are the same IEEE
 * single-precision operations, written out as alu.c writes them (no fusing,
 * no fast-math flags). */
#include <float.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <llvm-c/Core.h>
#include <llvm-c/TargetMachine.h>

#include "../exec_internal.h"
#include "jit.h"
#include "llvm_setup.h"

#ifndef R500_JIT_PLANTED
#define R500_JIT_PLANTED 0
#endif

/* Lanes per block: one AVX-512 register, or two AVX2 registers (LLVM splits
 * the vectors for the host); a thread's RL lanes are whole blocks. */
#define VW 16
#define VWS "v16"

typedef struct cg {
    LLVMContextRef ctx;
    LLVMModuleRef mod;
    LLVMBuilderRef b;
    LLVMTypeRef f32, i32, i64, i8, im, v8f, v8i32, v8i1, ptr, trans_ty;
    const r500_job *job;
    bool oom;
    /* the current function's arguments and block */
    LLVMValueRef temps, out, outw, consts, inl, pred, alu_res, active, alive, al, opt, blk;
    LLVMValueRef seg; /* the function's r500_seg_ctx (the worker's, not the local copy) */
    /* temps in registers (regs): treg[temp][ch][block] is the alloca of a
     * tracked channel's block, NULL when untracked; else every temp access
     * goes to the worker's memory */
    bool regs;
    unsigned nb, bi; /* blocks of VW lanes per thread; the block being emitted */
    LLVMValueRef fcp; /* the thread's r500_fc_thread */
    LLVMValueRef treg[R500_NUM_TEMPS][4][RL / VW];
    /* values of the instruction being emitted known to be finite and
     * non-zero in every lane (fnz_note): their products need no
     * zero-times-anything select */
    LLVMValueRef fnz[96];
    unsigned nfnz;
    /* the host has AVX-512 DQ: OMOD's rule classifies with VFPCLASSPS */
    bool fpclass;
    /* clean[t][ch]: every value temp t's channel ch holds is one OMOD's rule
     * leaves as it is (temp_clean); an input's channel counts as clean when
     * guarded: guard[t][ch], the input channels a rule took as clean, which
     * the entry checks once per thread (emit_guard) */
    bool clean[R500_NUM_TEMPS][4];
    bool guard[R500_NUM_TEMPS][4];
    /* the function's entry block, and the constant channels, inline floats
     * and swizzle constants loaded there once (entry_splat), by index */
    LLVMBasicBlockRef entry_bb;
    LLVMValueRef kconst[256 * 4], kinl[R500_ISPLAT_COUNT];
    /* emit_inst's first try (zta_fast): products without the
     * zero-times-anything select, zta_skipped when one was left out */
    bool zta_fast, zta_skipped;
    /* FC instructions that count run compiled whatever the counters
     * (counting_compiled) */
    bool counting_ok;
} cg;

/* A constant channel's value is finite and non-zero (the cache key holds
 * these bits: compiled code depends on them, not on the values). */
static bool const_fnz(const r500_job *job, unsigned idx, unsigned ch)
{
    float v = job->consts[idx][ch];
    return v == v && v != 0.0f && v - v == 0.0f;
}

/* A constant channel is finite and 0 or of magnitude 2^-102 or more (the
 * cache key holds these bits too: sum_clean). */
static bool big_or_zero(float v)
{
    /* R500_JIT_PLANTED 5 (tests only): a wrong bound — every finite
     * constant of 2^-126 or more, whose sum with a clean value can be
     * denormal */
    const float bound = R500_JIT_PLANTED == 5 ? 0x1p-126f : 0x1p-102f;
    return v == 0.0f || (v - v == 0.0f && fabsf(v) >= bound);
}

static bool const_big(const r500_job *job, unsigned idx, unsigned ch)
{
    return big_or_zero(job->consts[idx][ch]);
}

static void fnz_note(cg *g, LLVMValueRef v)
{
    if (g->nfnz < sizeof g->fnz / sizeof g->fnz[0])
        g->fnz[g->nfnz++] = v;
}

static bool fnz_has(const cg *g, LLVMValueRef v)
{
    for (unsigned i = 0; i < g->nfnz; i++)
        if (g->fnz[i] == v)
            return true;
    return false;
}

static LLVMValueRef splatf(cg *g, float v)
{
    LLVMValueRef e[VW];
    for (int i = 0; i < VW; i++)
        e[i] = LLVMConstReal(g->f32, (double)v);
    return LLVMConstVector(e, VW);
}

static LLVMValueRef splati(cg *g, uint32_t v)
{
    LLVMValueRef e[VW];
    for (int i = 0; i < VW; i++)
        e[i] = LLVMConstInt(g->i32, v, 0);
    return LLVMConstVector(e, VW);
}

static LLVMValueRef ci32(cg *g, unsigned v)
{
    return LLVMConstInt(g->i32, v, 0);
}

/* &base[idx * RL + blk] for a register channel index idx (an i32 value). */
static LLVMValueRef chan_ptr(cg *g, LLVMValueRef base, LLVMValueRef idx)
{
    LLVMValueRef off = LLVMBuildAdd(g->b, LLVMBuildMul(g->b, idx, ci32(g, RL), ""), g->blk, "");
    return LLVMBuildGEP2(g->b, g->f32, base, &off, 1, "");
}

static LLVMValueRef load8(cg *g, LLVMValueRef p)
{
    LLVMValueRef v = LLVMBuildLoad2(g->b, g->v8f, p, "");
    LLVMSetAlignment(v, 4);
    return v;
}

/* Temp channel reg.ch, reg + aL (wrapping in 7 bits) when rel. */
static LLVMValueRef temp_index(cg *g, unsigned idx, bool rel, unsigned ch)
{
    LLVMValueRef r = ci32(g, idx);
    if (rel)
        r = LLVMBuildAnd(g->b, LLVMBuildAdd(g->b, r, g->al, ""), ci32(g, 127), "");
    return LLVMBuildAdd(g->b, LLVMBuildMul(g->b, r, ci32(g, 4), ""), ci32(g, ch), "");
}

/* base[idx] replicated over the block. Constants, inline floats and the
 * swizzle constants are read from memory, as the interpreter reads them: an
 * operation on two literals would be folded by LLVM, whose NaN results and
 * payloads are not the host's (found by the differential test: inf - inf
 * folded to 0x7fc00000 where SSE gives 0xffc00000). */
static LLVMValueRef load_splat(cg *g, LLVMValueRef base, LLVMValueRef idx)
{
    LLVMValueRef p = LLVMBuildGEP2(g->b, g->f32, base, &idx, 1, "");
    LLVMValueRef v = LLVMBuildLoad2(g->b, g->f32, p, "");
    /* the job's constants and the inline floats do not change while a
     * program runs */
    LLVMSetMetadata(v, LLVMGetMDKindIDInContext(g->ctx, "invariant.load", 14),
                    LLVMMDNodeInContext(g->ctx, NULL, 0));
    LLVMValueRef vec = LLVMGetUndef(g->v8f);
    for (unsigned i = 0; i < VW; i++)
        vec = LLVMBuildInsertElement(g->b, vec, v, ci32(g, i), "");
    return vec;
}

/* load_splat of base[idx] (the constants or the inline floats; *slot caches
 * it) in the function's entry block, once: a value every instruction that
 * reads it shares, and what LLVM computes of such values alone it may
 * compute once per entry, not once per instruction issued. */
static LLVMValueRef entry_splat(cg *g, LLVMValueRef *slot, LLVMValueRef base, unsigned idx)
{
    if (*slot)
        return *slot;
    LLVMBuilderRef save = g->b;
    g->b = LLVMCreateBuilderInContext(g->ctx);
    LLVMPositionBuilderBefore(g->b, LLVMGetBasicBlockTerminator(g->entry_bb));
    *slot = load_splat(g, base, ci32(g, idx));
    LLVMDisposeBuilder(g->b);
    g->b = save;
    return *slot;
}

/* The address of temp channel idx.ch (+ aL when rel) of the current block:
 * its register (an alloca LLVM promotes) or the worker's memory. */
static LLVMValueRef temp_ptr(cg *g, unsigned idx, bool rel, unsigned ch)
{
    if (g->regs && !rel && g->treg[idx][ch][g->bi])
        return g->treg[idx][ch][g->bi];
    return chan_ptr(g, g->temps, temp_index(g, idx, rel, ch));
}

/* alu.c addr_chan */
static LLVMValueRef addr_chan(cg *g, const r500_xsrc *s, unsigned ch)
{
    switch (s->kind) {
    case R500_XSRC_TEMP:
        return load8(g, temp_ptr(g, s->index, s->rel, ch));
    case R500_XSRC_CONST:
        if (!s->rel) {
            LLVMValueRef v = entry_splat(g, &g->kconst[(s->index * 4u + ch) & 1023u], g->consts,
                                         s->index * 4u + ch);
            if (const_fnz(g->job, s->index, ch))
                fnz_note(g, v);
            return v;
        }
        else {
            LLVMValueRef r = LLVMBuildAnd(g->b, LLVMBuildAdd(g->b, ci32(g, s->index), g->al, ""),
                                          ci32(g, 255), "");
            LLVMValueRef off = LLVMBuildAdd(g->b, LLVMBuildMul(g->b, r, ci32(g, 4), ""),
                                            ci32(g, ch), "");
            return load_splat(g, g->consts, off);
        }
    default: {
        LLVMValueRef v = entry_splat(g, &g->kinl[s->index & 127u], g->inl, (unsigned)s->index * RL);
        float f = r500_inline_float(s->index);
        if (f == f && f != 0.0f && f - f == 0.0f)
            fnz_note(g, v);
        return v;
    }
    }
}

/* alu.c sel_chan */
static LLVMValueRef sel_chan(cg *g, const r500_xinst *x, unsigned sel, unsigned swz,
                             LLVMValueRef const srcp[4])
{
    switch (swz) {
    case 4:
    case 7:
        return entry_splat(g, &g->kinl[R500_ISPLAT_ZERO], g->inl, R500_ISPLAT_ZERO * RL);
    case 5:
    case 6: {
        const unsigned k = swz == 5 ? R500_ISPLAT_HALF : R500_ISPLAT_ONE;
        LLVMValueRef v = entry_splat(g, &g->kinl[k], g->inl, k * RL);
        fnz_note(g, v);
        return v;
    }
    default: break;
    }
    if (sel == 3)
        return srcp[swz];
    return addr_chan(g, &x->src[swz == 3][sel], swz);
}

static LLVMValueRef call_intr(cg *g, const char *name, LLVMValueRef a)
{
    LLVMTypeRef ty = LLVMFunctionType(g->v8f, &g->v8f, 1, 0);
    LLVMValueRef f = LLVMGetNamedFunction(g->mod, name);
    if (!f)
        f = LLVMAddFunction(g->mod, name, ty);
    return LLVMBuildCall2(g->b, ty, f, &a, 1, "");
}

static LLVMValueRef fabs8(cg *g, LLVMValueRef a)
{
    return call_intr(g, "llvm.fabs." VWS "f32", a);
}

/* alu.c apply_mod */
static LLVMValueRef apply_mod(cg *g, LLVMValueRef v, unsigned mod)
{
    LLVMValueRef r;
    switch (mod) {
    case 1: r = LLVMBuildFNeg(g->b, v, ""); break;
    case 2: r = fabs8(g, v); break;
    case 3: r = LLVMBuildFNeg(g->b, fabs8(g, v), ""); break;
    default: return v;
    }
    if (fnz_has(g, v))
        fnz_note(g, r); /* -x, |x|, -|x| of a finite non-zero x */
    return r;
}

static LLVMValueRef sel(cg *g, LLVMValueRef c, LLVMValueRef a, LLVMValueRef b)
{
    return LLVMBuildSelect(g->b, c, a, b, "");
}

/* alu.c mul: zero times anything (US_CONFIG) */
static LLVMValueRef mul(cg *g, LLVMValueRef a, LLVMValueRef b, bool zta)
{
    LLVMValueRef p = LLVMBuildFMul(g->b, a, b, "");
    /* a finite non-zero factor: the product is NaN only when the other is
     * NaN (never 0), so alu.c's select never applies */
    if (!zta || fnz_has(g, a) || fnz_has(g, b))
        return p;
    if (g->zta_fast) {
        g->zta_skipped = true; /* where the select applies, p is NaN (emit_inst) */
        return p;
    }
    LLVMValueRef zero = splatf(g, 0.0f);
    LLVMValueRef nan = LLVMBuildFCmp(g->b, LLVMRealUNO, p, p, "");
    LLVMValueRef az = LLVMBuildFCmp(g->b, LLVMRealOEQ, a, zero, "");
    LLVMValueRef bz = LLVMBuildFCmp(g->b, LLVMRealOEQ, b, zero, "");
    LLVMValueRef c = LLVMBuildAnd(g->b, nan, LLVMBuildOr(g->b, az, bz, ""), "");
    return sel(g, c, zero, p);
}

/* Whether an operand is exactly 1 in every lane, known from the instruction
 * alone: the swizzle constant 1 or an inline float 1.0, without a modifier
 * or with ABS. */
static bool operand_one(const r500_xinst *x, unsigned sel, unsigned swz, unsigned mod)
{
    if (mod == 1 || mod == 3)
        return false;
    if (swz == 6)
        return true;
    if (swz > 3 || sel == 3)
        return false;
    const r500_xsrc *s = &x->src[swz == 3][sel];
    return s->kind == R500_XSRC_INLINE && r500_inline_float(s->index) == 1.0f;
}

/* A product with a factor known to be 1 (operand_one): a·1 is a exactly
 * (IEEE 754: an exact product is not rounded), and never the case of the
 * zero-times-anything select (1 is finite and non-zero); a NaN stays NaN,
 * whose bits the engines do not define (docs/r500-jit.md, "NaN payloads").
 * So the multiplication is left out; the sum with C keeps its rounding. */
static LLVMValueRef times_one(LLVMValueRef a, bool a1, LLVMValueRef b, bool b1)
{
    return b1 ? a : a1 ? b : NULL;
}

/* a·b (alu.c mul), or the other factor when one is exactly 1 (times_one) */
static LLVMValueRef prod(cg *g, LLVMValueRef a, bool a1, LLVMValueRef b, bool b1, bool zta)
{
    LLVMValueRef one = times_one(a, a1, b, b1);
    return one ? one : mul(g, a, b, zta);
}

/* alu.c k_mad (a1, b1: a or b is exactly 1, operand_one) */
static LLVMValueRef mad(cg *g, LLVMValueRef a, bool a1, LLVMValueRef b, bool b1, LLVMValueRef c,
                        bool zta, bool fused)
{
    LLVMValueRef one = times_one(a, a1, b, b1);
    if (one)
        return LLVMBuildFAdd(g->b, one, c, ""); /* fused or not: a + c, one rounding */
    if (fused) {
        LLVMTypeRef t3[3] = {g->v8f, g->v8f, g->v8f};
        LLVMTypeRef ty = LLVMFunctionType(g->v8f, t3, 3, 0);
        LLVMValueRef f = LLVMGetNamedFunction(g->mod, "llvm.fma." VWS "f32");
        if (!f)
            f = LLVMAddFunction(g->mod, "llvm.fma." VWS "f32", ty);
        LLVMValueRef args[3] = {a, b, c};
        LLVMValueRef r = LLVMBuildCall2(g->b, ty, f, args, 3, "");
        /* a finite non-zero factor: the select needs the other to be 0, and
         * then the result is NaN only when c is */
        if (!zta || fnz_has(g, a) || fnz_has(g, b))
            return r;
        if (g->zta_fast) {
            g->zta_skipped = true; /* where the select applies, r is NaN */
            return r;
        }
        LLVMValueRef zero = splatf(g, 0.0f);
        LLVMValueRef rn = LLVMBuildFCmp(g->b, LLVMRealUNO, r, r, "");
        LLVMValueRef cok = LLVMBuildFCmp(g->b, LLVMRealORD, c, c, "");
        LLVMValueRef az = LLVMBuildFCmp(g->b, LLVMRealOEQ, a, zero, "");
        LLVMValueRef bz = LLVMBuildFCmp(g->b, LLVMRealOEQ, b, zero, "");
        LLVMValueRef cond =
            LLVMBuildAnd(g->b, LLVMBuildAnd(g->b, rn, cok, ""), LLVMBuildOr(g->b, az, bz, ""), "");
        return sel(g, cond, c, r);
    }
    return LLVMBuildFAdd(g->b, mul(g, a, b, zta), c, "");
}

static LLVMValueRef op2(cg *g, unsigned op, LLVMValueRef a, LLVMValueRef b, LLVMValueRef c)
{
    /* alu.c k_min, k_max, k_cnd, k_cmp, k_frc; op: 0 min 1 max 2 cnd 3 cmp 4 frc */
    switch (op) {
    case 0: return sel(g, LLVMBuildFCmp(g->b, LLVMRealOLT, a, b, ""), a, b);
    case 1: return sel(g, LLVMBuildFCmp(g->b, LLVMRealOGE, a, b, ""), a, b);
    case 2: return sel(g, LLVMBuildFCmp(g->b, LLVMRealOGT, c, splatf(g, 0.5f), ""), a, b);
    case 3: return sel(g, LLVMBuildFCmp(g->b, LLVMRealOGE, c, splatf(g, 0.0f), ""), a, b);
    default: return LLVMBuildFSub(g->b, a, call_intr(g, "llvm.floor." VWS "f32", a), "");
    }
}

/* R500_JIT_PORTABLE (tests/r500/meson.build, r500/engine-diff-portable
 * only): no host-specific instructions (VFPCLASSPS), so that the portable
 * code is held to the interpreter on hosts that have them too */
#ifndef R500_JIT_PORTABLE
#define R500_JIT_PORTABLE 0
#endif

/* alu.c k_omod (= r500_alu_omod per lane), in parts: the scale, the flush
 * and NaN rule, the clamp. OMOD 7 is none of them. */
static LLVMValueRef omod_scale(cg *g, LLVMValueRef v, unsigned om)
{
    static const float scale[7] = {1.0f, 2.0f, 4.0f, 8.0f, 0.5f, 0.25f, 0.125f};
    return LLVMBuildFMul(g->b, v, splatf(g, scale[om]), "");
}

/* llvm.x86.avx512.fpclass.ps.512(v, classes): <16 x i1> */
static LLVMValueRef fpclass(cg *g, LLVMValueRef v, unsigned classes)
{
    LLVMTypeRef at[2] = {g->v8f, g->i32};
    LLVMTypeRef fty = LLVMFunctionType(g->v8i1, at, 2, 0);
    LLVMValueRef f = LLVMGetNamedFunction(g->mod, "llvm.x86.avx512.fpclass.ps.512");
    if (!f)
        f = LLVMAddFunction(g->mod, "llvm.x86.avx512.fpclass.ps.512", fty);
    LLVMValueRef a[2] = {v, ci32(g, classes)};
    return LLVMBuildCall2(g->b, fty, f, a, 2, "");
}

/* The flush and NaN rule on the scaled value's bits, on a host with
 * AVX-512 DQ: the same two classes from the value's class bits (VFPCLASSPS:
 * 0x20 denormal — exponent 0, mantissa non-zero; 0x81 quiet or signalling
 * NaN — exponent 255, mantissa non-zero), so the flush keeps only the sign
 * of a denormal (a zero keeps itself) and a NaN becomes 0x7FFFFFFF, as
 * omod_bits below. */
static LLVMValueRef omod_fix_fpclass(cg *g, LLVMValueRef prod)
{
    LLVMValueRef u = LLVMBuildBitCast(g->b, prod, g->v8i32, "");
    LLVMValueRef uf = sel(g, fpclass(g, prod, 0x20),
                          LLVMBuildAnd(g->b, u, splati(g, 0x80000000u), ""), u);
    uf = sel(g, fpclass(g, prod, 0x81), splati(g, R500_JIT_PLANTED == 2 ? 0x7fc00000u : 0x7fffffffu),
             uf);
    return LLVMBuildBitCast(g->b, uf, g->v8f, "");
}

/* r500_alu_omod's flush and NaN rule on the bits: |u| below the smallest
 * normal (exponent 0) keeps only the sign; |u| above infinity (a NaN)
 * becomes 0x7FFFFFFF (the same tests as exponent == 0, and exponent ==
 * 255 with a non-zero mantissa) */
static LLVMValueRef omod_bits(cg *g, LLVMValueRef prod)
{
    LLVMValueRef u = LLVMBuildBitCast(g->b, prod, g->v8i32, "");
    LLVMValueRef mag = LLVMBuildAnd(g->b, u, splati(g, 0x7fffffffu), "");
    /* R500_JIT_PLANTED (tests/r500/meson.build, r500/engine-diff-planted-*
     * only): a wrong rule the engines' comparison must catch — 1: the flush
     * threshold 2^-127 instead of 2^-126; 2: NaN becomes 0x7FC00000 */
    LLVMValueRef den = LLVMBuildICmp(g->b, LLVMIntULT, mag,
                                     splati(g, R500_JIT_PLANTED == 1 ? 0x00400000u : 0x00800000u), "");
    LLVMValueRef nan = LLVMBuildICmp(g->b, LLVMIntUGT, mag, splati(g, 0x7f800000u), "");
    u = sel(g, den, LLVMBuildAnd(g->b, u, splati(g, 0x80000000u), ""), u);
    u = sel(g, nan, splati(g, R500_JIT_PLANTED == 2 ? 0x7fc00000u : 0x7fffffffu), u);
    return LLVMBuildBitCast(g->b, u, g->v8f, "");
}

/* alu.c clamp01 */
static LLVMValueRef clamp01(cg *g, LLVMValueRef v, const r500_exec_options *o)
{
    LLVMValueRef one = splatf(g, 1.0f), zero = splatf(g, 0.0f);
    LLVMValueRef c = sel(g, LLVMBuildFCmp(g->b, LLVMRealOGT, v, zero, ""),
                         sel(g, LLVMBuildFCmp(g->b, LLVMRealOLT, v, one, ""), v, one), zero);
    LLVMValueRef isnan = LLVMBuildFCmp(g->b, LLVMRealUNO, v, v, "");
    return sel(g, isnan, o->clamp_nan == R500_CLAMP_NAN_ZERO ? zero : v, c);
}

/* alu.c cmp_lanes: <8 x i1> */
static LLVMValueRef cmp_lanes(cg *g, LLVMValueRef v, unsigned op)
{
    LLVMValueRef fmin = splatf(g, FLT_MIN), nfmin = splatf(g, -FLT_MIN);
    switch (op & 3) {
    case 0: return LLVMBuildFCmp(g->b, LLVMRealOLT, fabs8(g, v), fmin, "");
    case 1: return LLVMBuildFCmp(g->b, LLVMRealOLE, v, nfmin, "");
    case 2: return LLVMBuildFCmp(g->b, LLVMRealOGT, v, nfmin, "");
    default: return LLVMBuildNot(g->b, LLVMBuildFCmp(g->b, LLVMRealOLT, fabs8(g, v), fmin, ""), "");
    }
}

/* The 8 bits of a lane mask (i64) for the current block, as <8 x i1>. */
static LLVMValueRef block_bits(cg *g, LLVMValueRef m64)
{
    LLVMValueRef sh = LLVMBuildLShr(g->b, m64, LLVMBuildZExt(g->b, g->blk, g->i64, ""), "");
    return LLVMBuildBitCast(g->b, LLVMBuildTrunc(g->b, sh, g->im, ""), g->v8i1, "");
}

static LLVMValueRef pred_ptr(cg *g, unsigned ch)
{
    LLVMValueRef i = ci32(g, ch);
    return LLVMBuildGEP2(g->b, g->i64, g->pred, &i, 1, "");
}

/* r500_pred_mask as the block's bits (and with base) */
static LLVMValueRef chan_mask(cg *g, LLVMValueRef base8, unsigned psel, unsigned inv,
                              unsigned ch)
{
    if (psel == 0)
        return base8;
    unsigned pc = psel == 1 ? ch : (psel - 2) & 3;
    LLVMValueRef m = block_bits(g, LLVMBuildLoad2(g->b, g->i64, pred_ptr(g, pc), ""));
    if (inv)
        m = LLVMBuildNot(g->b, m, "");
    return LLVMBuildAnd(g->b, base8, m, "");
}

/* *p (a lane mask) = (*p & ~m) | (r & m) on the block's bits */
static void update_mask(cg *g, LLVMValueRef p, LLVMValueRef r8, LLVMValueRef m8)
{
    LLVMValueRef old = LLVMBuildLoad2(g->b, g->i64, p, "");
    LLVMValueRef sh = LLVMBuildZExt(g->b, g->blk, g->i64, "");
    LLVMValueRef mm = LLVMBuildShl(
        g->b, LLVMBuildZExt(g->b, LLVMBuildBitCast(g->b, m8, g->im, ""), g->i64, ""), sh, "");
    LLVMValueRef rr = LLVMBuildShl(
        g->b,
        LLVMBuildZExt(g->b, LLVMBuildBitCast(g->b, LLVMBuildAnd(g->b, r8, m8, ""), g->im, ""),
                      g->i64, ""),
        sh, "");
    LLVMValueRef nv = LLVMBuildOr(g->b, LLVMBuildAnd(g->b, old, LLVMBuildNot(g->b, mm, ""), ""),
                                  rr, "");
    LLVMBuildStore(g->b, nv, p);
}

static void masked_store(cg *g, LLVMValueRef p, LLVMValueRef v, LLVMValueRef m8)
{
    LLVMValueRef old = load8(g, p);
    LLVMValueRef st = LLVMBuildStore(g->b, sel(g, m8, v, old), p);
    LLVMSetAlignment(st, 4);
}

/* r500_alu_transcendental of every lane: rt.c's r500_jit_rt_trans on the
 * block (rt_trans.h's vector path, the interpreter's function on the lanes it
 * leaves), inlined with aop constant; the block's input and result pass
 * through two locals of the entry block, which LLVM keeps in registers on the
 * vector path. */
static LLVMValueRef transcendental(cg *g, unsigned aop, LLVMValueRef a)
{
    LLVMValueRef fn = LLVMGetNamedFunction(g->mod, "r500_jit_rt_trans");
    LLVMValueRef cur = LLVMGetBasicBlockParent(LLVMGetInsertBlock(g->b));
    LLVMBasicBlockRef entry = LLVMGetEntryBasicBlock(cur);
    LLVMBuilderRef eb = LLVMCreateBuilderInContext(g->ctx);
    LLVMValueRef first = LLVMGetFirstInstruction(entry);
    if (first)
        LLVMPositionBuilderBefore(eb, first);
    else
        LLVMPositionBuilderAtEnd(eb, entry);
    LLVMValueRef in = LLVMBuildAlloca(eb, g->v8f, "");
    LLVMValueRef res = LLVMBuildAlloca(eb, g->v8f, "");
    LLVMDisposeBuilder(eb);
    LLVMSetAlignment(LLVMBuildStore(g->b, a, in), 4);
    LLVMValueRef args[4] = {ci32(g, aop), in, res, g->opt};
    LLVMBuildCall2(g->b, LLVMGlobalGetValueType(fn), fn, args, 4, "");
    LLVMValueRef r = LLVMBuildLoad2(g->b, g->v8f, res, "");
    LLVMSetAlignment(r, 4);
    return r;
}

static bool is_transcendental(unsigned aop)
{
    return aop >= 8 && aop <= 13;
}

/* One instruction on the current block: r500_alu_exec, statement by statement. */
static void set_block(cg *g, unsigned b)
{
    g->bi = b;
    g->blk = ci32(g, b * VW);
}

/* The results of x's current block before OMOD (out[ch] where x->live has
 * ch). */
static void inst_values(cg *g, const r500_xinst *x, LLVMValueRef out[4])
{
    const r500_exec_options *o = &g->job->options.exec;
    const bool zta = (g->job->regs.us_config >> 1) & 1u;
    const bool fused = o->mad == R500_MAD_FUSED;
    g->nfnz = 0;
    LLVMValueRef srcp[4] = {NULL, NULL, NULL, NULL};
    if (x->need_srcp) {
        for (unsigned ch = 0; ch < 4; ch++) {
            unsigned unit = ch == 3;
            LLVMValueRef s0 = addr_chan(g, &x->src[unit][0], ch);
            LLVMValueRef s1 = addr_chan(g, &x->src[unit][1], ch);
            switch (x->srcp_op[unit]) {
            case 0:
                srcp[ch] = LLVMBuildFSub(g->b, splatf(g, 1.0f),
                                         LLVMBuildFMul(g->b, splatf(g, 2.0f), s0, ""), "");
                break;
            case 1: srcp[ch] = LLVMBuildFSub(g->b, s1, s0, ""); break;
            case 2: srcp[ch] = LLVMBuildFAdd(g->b, s1, s0, ""); break;
            default: srcp[ch] = LLVMBuildFSub(g->b, splatf(g, 1.0f), s0, ""); break;
            }
        }
    }
    const unsigned live = x->live;
    const bool dot_op = x->rgb_op >= 1 && x->rgb_op <= 3;
    const bool need_alpha = (live & 8) || x->rgb_op == 2 || (x->rgb_op == 10 && (live & 7));
    LLVMValueRef ra[3][3], aa[3], zero = splatf(g, 0.0f);
    bool r1[3][3], a1[3]; /* operand_one */
    for (unsigned k = 0; k < 3; k++) {
        const r500_xoperand *op = &x->rgb[k];
        for (unsigned ch = 0; ch < 3; ch++) {
            ra[k][ch] = ((live >> ch) & 1) || dot_op
                            ? apply_mod(g, sel_chan(g, x, op->sel, op->swz[ch], srcp), op->mod)
                            : zero;
            r1[k][ch] = operand_one(x, op->sel, op->swz[ch], op->mod);
        }
        const r500_xoperand *p = &x->alpha[k];
        aa[k] = need_alpha ? apply_mod(g, sel_chan(g, x, p->sel, p->swz[0], srcp), p->mod) : zero;
        a1[k] = operand_one(x, p->sel, p->swz[0], p->mod);
    }
    LLVMValueRef res[4] = {zero, zero, zero, zero}, dot = zero, trans = zero;
    if (is_transcendental(x->alpha_op) && need_alpha)
        trans = transcendental(g, x->alpha_op, aa[0]);
    switch (x->rgb_op) {
    case 0:
        for (unsigned ch = 0; ch < 3; ch++)
            if ((live >> ch) & 1)
                res[ch] = mad(g, ra[0][ch], r1[0][ch], ra[1][ch], r1[1][ch], ra[2][ch], zta,
                              fused);
        break;
    case 1:
    case 2:
    case 3: {
        LLVMValueRef s = LLVMBuildFAdd(g->b, prod(g, ra[0][0], r1[0][0], ra[1][0], r1[1][0], zta),
                                       prod(g, ra[0][1], r1[0][1], ra[1][1], r1[1][1], zta), "");
        if (x->rgb_op == 3)
            s = LLVMBuildFAdd(g->b, s, ra[2][2], "");
        else {
            s = LLVMBuildFAdd(g->b, s, prod(g, ra[0][2], r1[0][2], ra[1][2], r1[1][2], zta), "");
            if (x->rgb_op == 2)
                s = LLVMBuildFAdd(g->b, s, prod(g, aa[0], a1[0], aa[1], a1[1], zta), "");
        }
        dot = s;
        res[0] = res[1] = res[2] = dot;
        break;
    }
    case 4: case 5: case 7: case 8: case 9: {
        unsigned k = x->rgb_op == 4 ? 0 : x->rgb_op == 5 ? 1 : x->rgb_op == 7 ? 2
                   : x->rgb_op == 8 ? 3 : 4;
        for (unsigned ch = 0; ch < 3; ch++)
            if ((live >> ch) & 1)
                res[ch] = op2(g, k, ra[0][ch], ra[1][ch], ra[2][ch]);
        break;
    }
    case 10:
        res[0] = res[1] = res[2] = trans;
        break;
    default:
        break;
    }
    switch ((live & 8) ? x->alpha_op : 4) {
    case 0: res[3] = mad(g, aa[0], a1[0], aa[1], a1[1], aa[2], zta, fused); break;
    case 1: res[3] = dot; break;
    case 2: res[3] = op2(g, 0, aa[0], aa[1], aa[2]); break;
    case 3: res[3] = op2(g, 1, aa[0], aa[1], aa[2]); break;
    case 5: res[3] = op2(g, 2, aa[0], aa[1], aa[2]); break;
    case 6: res[3] = op2(g, 3, aa[0], aa[1], aa[2]); break;
    case 7: res[3] = op2(g, 4, aa[0], aa[1], aa[2]); break;
    case 4: break;
    default: res[3] = trans; break;
    }
    memcpy(out, res, sizeof res);
}

/* The results res (after OMOD and clamp) of x's current block to where x
 * writes them: ALU result, predicates, render target, temps. */
static void inst_stores(cg *g, const r500_xinst *x, LLVMValueRef res[4])
{
    const r500_exec_options *o = &g->job->options.exec;
    LLVMValueRef base8 = block_bits(g, x->write_inactive ? g->alive : g->active);
    LLVMValueRef cm[4];
    for (unsigned ch = 0; ch < 4; ch++) {
        unsigned u = ch == 3;
        cm[ch] = chan_mask(g, base8, x->pred_sel[u], x->pred_inv[u], ch);
    }
    const bool predw = o->pred_write == R500_PRED_WRITE_PREDICATED;
    if (x->alu_wmask) {
        unsigned ch = x->res_sel ? 3 : 0;
        update_mask(g, g->alu_res, cmp_lanes(g, res[ch], x->res_op), predw ? cm[ch] : base8);
    }
    if (x->type == R500_TYPE_ALU) {
        for (unsigned ch = 0; ch < 4; ch++)
            if ((x->omask >> ch) & 1)
                update_mask(g, pred_ptr(g, ch), cmp_lanes(g, res[ch], x->target[ch == 3]),
                            predw ? cm[ch] : base8);
    } else {
        for (unsigned ch = 0; ch < 4; ch++)
            if ((x->omask >> ch) & 1)
                masked_store(g, chan_ptr(g, g->out, ci32(g, x->target[ch == 3] * 4u + ch)),
                             res[ch], cm[ch]);
    }
    if (x->w_omask)
        masked_store(g, chan_ptr(g, g->outw, ci32(g, 0)), res[3], cm[3]);
    for (unsigned ch = 0; ch < 4; ch++) {
        if (!((x->wmask >> ch) & 1))
            continue;
        unsigned u = ch == 3;
        masked_store(g, temp_ptr(g, x->addrd[u], x->addrd_rel[u], ch), res[ch], cm[ch]);
    }
}

/* The results of x in block b: OMOD's scale, then its flush and NaN rule
 * and the clamp on the bits (OMOD_BITS), only the rule with VFPCLASSPS
 * (OMOD_FPCLASS), or neither rule (OMOD_LATER: emit_inst's first try). */
enum { OMOD_BITS, OMOD_FPCLASS, OMOD_LATER };
static void block_results(cg *g, const r500_xinst *x, unsigned b, LLVMValueRef res[4], int rule)
{
    set_block(g, b);
    inst_values(g, x, res);
    for (unsigned ch = 0; ch < 4; ch++) {
        const unsigned om = x->omod[ch == 3];
        if (!((x->live >> ch) & 1) || om >= 7)
            continue;
        res[ch] = omod_scale(g, res[ch], om);
        if (rule == OMOD_FPCLASS)
            res[ch] = omod_fix_fpclass(g, res[ch]);
        if (rule == OMOD_BITS) {
            res[ch] = omod_bits(g, res[ch]);
            if (x->clamp[ch == 3])
                res[ch] = clamp01(g, res[ch], &g->job->options.exec);
        }
    }
}

/* The results of x in every block before the clamp: with exact, with the
 * zero-times-anything selects and OMOD's rule (VFPCLASSPS); else emit_inst's
 * first try, without either (zta_skipped says whether a select was left
 * out). */
static void inst_results(cg *g, const r500_xinst *x, LLVMValueRef res[][4], bool exact)
{
    g->zta_fast = !exact;
    for (unsigned b = 0; b < g->nb; b++)
        block_results(g, x, b, res[b], exact ? OMOD_FPCLASS : OMOD_LATER);
    g->zta_fast = false;
}

static bool is_texkill(const r500_xinst *x);

/* Which temp channels are clean: hold only values that OMOD's flush and NaN
 * rule leaves as they are (0, a normal, an infinity or the NaN 0x7FFFFFFF)
 * in every lane at every point of every thread. Every slot counts, not only
 * start..end: a jump may reach a slot below the start (US_CODE_RANGE bounds
 * jumps, not US_CODE_ADDR), which the interpreter runs. A temp starts at 0;
 * one that is an input holds anyone's values: clean only with inputs (the
 * thread's first entry into compiled code then checks the input channels a
 * rule took as clean, emit_guard). No temp is clean that a TEX instruction
 * (the sampler's values), a write relative to aL (any temp) or an
 * instruction without OMOD's rule (OMOD 7) writes; every other write is a
 * result after the rule (and a clamp to [0, 1], which keeps it clean). */
static void temp_clean(const r500_job *job, const r500_prog *p, bool inputs,
                       bool clean[R500_NUM_TEMPS][4])
{
    for (unsigned t = 0; t < R500_NUM_TEMPS; t++)
        for (unsigned ch = 0; ch < 4; ch++)
            clean[t][ch] = inputs || job->inputs[t].kind == R500_INPUT_NONE;
    for (size_t i = 0; i < p->n; i++) {
        const r500_xinst *x = &p->x[i];
        if (x->type == R500_TYPE_FC || is_texkill(x))
            continue;
        if (x->type == R500_TYPE_TEX || x->fault[0]) {
            const uint32_t *f = x->in.field;
            if (x->type != R500_TYPE_TEX || f[R500_F_TEX_DST_ADDR_REL]) {
                memset(clean, 0, R500_NUM_TEMPS * sizeof *clean);
                return;
            }
            memset(clean[f[R500_F_TEX_DST_ADDR] & 127u], 0, sizeof *clean);
            continue;
        }
        for (unsigned ch = 0; ch < 4; ch++) {
            if (!((x->wmask >> ch) & 1))
                continue;
            const unsigned u = ch == 3;
            if (x->addrd_rel[u]) {
                memset(clean, 0, R500_NUM_TEMPS * sizeof *clean);
                return;
            }
            if (x->omod[u] >= 7)
                clean[x->addrd[u]][ch] = false;
        }
    }
}

/* An operand (sel, swz, mod) that is a constant (a swizzle constant, an
 * inline float or a const channel const_big, not relative to aL) of
 * magnitude 0 or 2^-102 or more, any modifier (*is_const), or a clean temp
 * channel (temp_clean) not negated (a negated 0x7FFFFFFF is another NaN);
 * an input's channel taken as clean is guarded (cg.guard). */
static bool addend_clean(cg *g, const r500_xinst *x, unsigned sel, unsigned swz, unsigned mod,
                         bool *is_const)
{
    *is_const = true;
    if (swz >= 4 && swz <= 6)
        return true; /* 0, 0.5, 1 */
    if (swz > 3 || sel >= 3)
        return false;
    const r500_xsrc *s = &x->src[swz == 3][sel];
    if (s->rel)
        return false;
    if (s->kind == R500_XSRC_INLINE)
        return big_or_zero(r500_inline_float(s->index));
    if (s->kind == R500_XSRC_CONST)
        return const_big(g->job, s->index, swz);
    *is_const = false;
    if (!(mod == 0 || mod == 2) || !g->clean[s->index][swz])
        return false;
    if (g->job->inputs[s->index].kind != R500_INPUT_NONE)
        g->guard[s->index][swz] = true;
    return true;
}

/* Channel ch of x is a MAD with a factor exactly 1 (operand_one) whose
 * other factor and addend are clean (addend_clean), one of them a constant,
 * and OMOD x1: then OMOD's rule leaves its result as it is, which needs no
 * classification. Why: with x clean and a constant c, x + c is not
 * denormal — where |x| lies within a factor 2 of |c| (|c| >= 2^-102) both
 * are multiples of 2^-126, and so is their exact sum, 0 or at least the
 * smallest normal; elsewhere it is more than |c| / 2; and x itself when c is
 * 0 — and a NaN only when x is 0x7FFFFFFF, the only NaN operand, which the
 * sum returns. */
static bool sum_clean(cg *g, const r500_xinst *x, unsigned ch)
{
    const unsigned u = ch == 3;
    if (!g->regs || x->omod[u] != 0 || (u ? x->alpha_op : x->rgb_op) != 0)
        return false;
    const r500_xoperand *o = u ? x->alpha : x->rgb;
    const unsigned c = u ? 0 : ch;
    unsigned other;
    if (operand_one(x, o[1].sel, o[1].swz[c], o[1].mod))
        other = 0;
    else if (operand_one(x, o[0].sel, o[0].swz[c], o[0].mod))
        other = 1;
    else
        return false;
    bool k1, k2;
    if (!addend_clean(g, x, o[other].sel, o[other].swz[c], o[other].mod, &k1) ||
        !addend_clean(g, x, o[2].sel, o[2].swz[c], o[2].mod, &k2))
        return false;
    return k1 || k2;
}

/* Channel ch of x selects one of its first two operands (MIN, MAX, CND,
 * CMP: op2), both clean (addend_clean: a clean temp not negated, or a
 * constant of magnitude 0 or 2^-102 or more), with OMOD x1: its result is
 * one of those values, which OMOD's rule leaves as they are. */
static bool select_clean(cg *g, const r500_xinst *x, unsigned ch)
{
    const unsigned u = ch == 3;
    if (!g->regs || x->omod[u] != 0)
        return false;
    const unsigned op = u ? x->alpha_op : x->rgb_op;
    if (u ? !(op == 2 || op == 3 || op == 5 || op == 6) : !(op == 4 || op == 5 || op == 7 || op == 8))
        return false;
    const r500_xoperand *o = u ? x->alpha : x->rgb;
    const unsigned c = u ? 0 : ch;
    bool k;
    return addend_clean(g, x, o[0].sel, o[0].swz[c], o[0].mod, &k) &&
           addend_clean(g, x, o[1].sel, o[1].swz[c], o[1].mod, &k);
}

/* x over every block of the thread: the results of each block, OMOD's rule,
 * the clamp, then the writes. Without VFPCLASSPS block by block, with the
 * zero-times-anything selects (US_CONFIG) and OMOD's rule on the bits, which
 * need no branch. With it, a first try: the results without the selects and
 * without OMOD's flush and NaN rule, one classification of each (0xa1:
 * denormal or NaN; of a result without OMOD when a select was left out,
 * 0x81: NaN), and the classes of all the instruction's results joined. Where
 * a select would apply, its product is NaN (0 times infinity or NaN), and so
 * is every result it goes into; where the rule would apply, the result is
 * denormal or NaN. So when no lane of any result is either, the first try is
 * exact: the selects and the rule are the identity on every lane. Otherwise
 * (a branch LLVM is told is unlikely) the results are computed again with
 * both. */
static void emit_inst(cg *g, const r500_xinst *x)
{
    const r500_exec_options *o = &g->job->options.exec;
    LLVMValueRef res[RL / VW][4];
    if (!g->fpclass) {
        /* block by block: no branch to share, and fewer values live at once */
        for (unsigned b = 0; b < g->nb; b++) {
            block_results(g, x, b, res[b], OMOD_BITS);
            inst_stores(g, x, res[b]);
        }
        return;
    }
    g->zta_skipped = false;
    inst_results(g, x, res, false);
    LLVMValueRef any = NULL;
    for (unsigned b = 0; b < g->nb; b++)
        for (unsigned ch = 0; ch < 4; ch++) {
            const bool om = x->omod[ch == 3] < 7;
            /* R500_JIT_PLANTED 4 (tests only): a wrong rule — the first
             * try's results without OMOD are not checked for NaN, so where
             * the select applies there they keep the NaN product */
            if (!((x->live >> ch) & 1) || (!om && (!g->zta_skipped || R500_JIT_PLANTED == 4)))
                continue;
            if (om && (sum_clean(g, x, ch) || select_clean(g, x, ch)))
                continue; /* the rule is the identity on its results */
            LLVMValueRef cls =
                LLVMBuildBitCast(g->b, fpclass(g, res[b][ch], om ? 0xa1 : 0x81), g->im, "");
            any = any ? LLVMBuildOr(g->b, any, cls, "") : cls;
        }
    if (any) {
        LLVMValueRef c = LLVMBuildICmp(g->b, LLVMIntNE, any, LLVMConstInt(g->im, 0, 0), "");
        LLVMTypeRef i1 = LLVMInt1TypeInContext(g->ctx);
        LLVMTypeRef et[2] = {i1, i1};
        LLVMTypeRef ety = LLVMFunctionType(i1, et, 2, 0);
        LLVMValueRef ef = LLVMGetNamedFunction(g->mod, "llvm.expect.i1");
        if (!ef)
            ef = LLVMAddFunction(g->mod, "llvm.expect.i1", ety);
        LLVMValueRef ea[2] = {c, LLVMConstInt(i1, 0, 0)};
        c = LLVMBuildCall2(g->b, ety, ef, ea, 2, "");
        LLVMValueRef fn = LLVMGetBasicBlockParent(LLVMGetInsertBlock(g->b));
        LLVMBasicBlockRef from = LLVMGetInsertBlock(g->b);
        LLVMBasicBlockRef fix = LLVMAppendBasicBlockInContext(g->ctx, fn, "omod_fix");
        LLVMBasicBlockRef join = LLVMAppendBasicBlockInContext(g->ctx, fn, "");
        LLVMBuildCondBr(g->b, c, fix, join);
        LLVMPositionBuilderAtEnd(g->b, fix);
        LLVMValueRef exact[RL / VW][4];
        if (g->zta_skipped) {
            inst_results(g, x, exact, true);
        } else {
            for (unsigned b = 0; b < g->nb; b++)
                for (unsigned ch = 0; ch < 4; ch++)
                    if (((x->live >> ch) & 1) && x->omod[ch == 3] < 7)
                        exact[b][ch] = omod_fix_fpclass(g, res[b][ch]);
        }
        LLVMBasicBlockRef fix_end = LLVMGetInsertBlock(g->b);
        LLVMBuildBr(g->b, join);
        LLVMPositionBuilderAtEnd(g->b, join);
        for (unsigned b = 0; b < g->nb; b++)
            for (unsigned ch = 0; ch < 4; ch++)
                if (((x->live >> ch) & 1) && (x->omod[ch == 3] < 7 || g->zta_skipped)) {
                    LLVMValueRef ph = LLVMBuildPhi(g->b, g->v8f, "");
                    LLVMValueRef iv[2] = {res[b][ch], exact[b][ch]};
                    LLVMBasicBlockRef ib[2] = {from, fix_end};
                    LLVMAddIncoming(ph, iv, ib, 2);
                    res[b][ch] = ph;
                }
    }
    for (unsigned b = 0; b < g->nb; b++) {
        set_block(g, b);
        for (unsigned ch = 0; ch < 4; ch++)
            if (((x->live >> ch) & 1) && x->omod[ch == 3] < 7 && x->clamp[ch == 3])
                res[b][ch] = clamp01(g, res[b][ch], o);
        inst_stores(g, x, res[b]);
    }
}

/* A TEXKILL compiled at the end of a run (rt.c's r500_jit_rt_kill with
 * exec_internal.h's rule): one whose source is not aL-relative and that does
 * not fault. */
static bool is_texkill(const r500_xinst *x)
{
    return x->type == R500_TYPE_TEX && !x->fault[0] && x->in.field[R500_F_TEX_INST] == 2 &&
           !x->in.field[R500_F_TEX_SRC_ADDR_REL];
}

/* Whether the interpreter's r500_alu_exec of x is compiled (else x ends a run). */
static bool compilable(const r500_xinst *x)
{
    if (x->type == R500_TYPE_FC)
        return true; /* rt.c: fc.c's r500_fc_exec, inlined */
    if (is_texkill(x))
        return true;
    if (x->type != R500_TYPE_ALU && x->type != R500_TYPE_OUT)
        return false;
    if (x->fault[0])
        return false;
    /* MDH/MDV read quad neighbours: not lane-local */
    if (x->rgb_op == 11 || x->rgb_op == 12 || x->alpha_op == 14 || x->alpha_op == 15)
        return false;
    return true;
}

/* The field at byte offset off of the structure at p, as ty. */
static LLVMValueRef field_ptr(cg *g, LLVMValueRef p, size_t off)
{
    LLVMValueRef o = LLVMConstInt(g->i64, off, 0);
    return LLVMBuildGEP2(g->b, g->i8, p, &o, 1, "");
}

static LLVMValueRef ctx_field(cg *g, LLVMValueRef c, size_t off, LLVMTypeRef ty)
{
    return LLVMBuildLoad2(g->b, ty, field_ptr(g, c, off), "");
}

static LLVMValueRef fn_const(cg *g, void *f)
{
    return LLVMConstIntToPtr(LLVMConstInt(g->i64, (unsigned long long)(uintptr_t)f, 0), g->ptr);
}

/* The static jump target of the FC instruction at slot i (fc.c, step 5:
 * JUMP_ADDR, plus US_FC_ADDR's offset unless JUMP_GLOBAL), or -1. A_OP=POP
 * jumps to a slot from the address stack, which the dispatch block finds. */
static long fc_target(const r500_prog *p, size_t i)
{
    if (p->x[i].type != R500_TYPE_FC)
        return -1;
    const r500_fc_inst *f = &p->fc[i];
    return (long)(f->jump_addr + (f->jump_global ? 0u : (p->fc_state.code_offset & 0x1ffu)));
}

/* The model options of o (docs/assumptions.md), without the limits (the
 * watchdog, max-instructions, timeout: the thread's issue state holds
 * them), every byte else 0: the options compiled code reads, as constants
 * (emit_prog) and in the cache key. */
static r500_exec_options model_options(const r500_exec_options *o)
{
    r500_exec_options m;
    memset(&m, 0, sizeof m);
    m.rcp_zero = o->rcp_zero;
    m.rsq_negative = o->rsq_negative;
    m.ln2_zero = o->ln2_zero;
    m.clamp_nan = o->clamp_nan;
    m.mad = o->mad;
    m.kill = o->kill;
    m.quad_top = o->quad_top;
    m.pred_write = o->pred_write;
    m.texkill_zero = o->texkill_zero;
    return m;
}

/* A constant global holding n bytes (a C structure the inlined run-time
 * functions read: LLVM folds the reads). */
static LLVMValueRef const_bytes(cg *g, const void *bytes, size_t n)
{
    LLVMValueRef init = LLVMConstStringInContext(g->ctx, (const char *)bytes, (unsigned)n, 1);
    LLVMValueRef gv = LLVMAddGlobal(g->mod, LLVMTypeOf(init), "");
    LLVMSetInitializer(gv, init);
    LLVMSetGlobalConstant(gv, 1);
    LLVMSetLinkage(gv, LLVMPrivateLinkage);
    LLVMSetAlignment(gv, 16);
    return gv;
}

/* run_thread's r500_seg_ctx.temps_dirty = 1: compiled code wrote temps */
static void temps_dirty(cg *g)
{
    LLVMValueRef st = LLVMBuildStore(g->b, ci32(g, 1),
                                     field_ptr(g, g->seg, offsetof(r500_seg_ctx, temps_dirty)));
    LLVMSetAlignment(st, 4);
}

/* How regs_sync moves the registers: to the worker's temps (before an
 * interpreter step and on a return to the interpreter), from them (after a
 * step and at an entry), or at a thread's first entry (r500_seg_ctx.first):
 * an input's channels from the temps, every other tracked channel 0 — one
 * value, the inline floats' zero row, which nothing writes, so that LLVM
 * keeps one register for all of them, not one each. */
enum regs_way { REGS_STORE, REGS_LOAD, REGS_FIRST };

static void regs_sync(cg *g, enum regs_way way)
{
    if (!g->regs)
        return;
    if (way == REGS_STORE)
        temps_dirty(g);
    LLVMValueRef zero = NULL;
    for (unsigned t = 0; t < R500_NUM_TEMPS; t++)
        for (unsigned ch = 0; ch < 4; ch++)
            for (unsigned b = 0; b < g->nb; b++) {
                LLVMValueRef r = g->treg[t][ch][b];
                if (!r)
                    continue;
                g->bi = b;
                g->blk = ci32(g, b * VW);
                LLVMValueRef m = chan_ptr(g, g->temps, ci32(g, t * 4 + ch));
                if (way == REGS_STORE) {
                    LLVMValueRef st = LLVMBuildStore(g->b, load8(g, r), m);
                    LLVMSetAlignment(st, 4);
                } else if (way == REGS_LOAD || g->job->inputs[t].kind != R500_INPUT_NONE) {
                    LLVMBuildStore(g->b, load8(g, m), r);
                } else {
                    if (!zero) {
                        LLVMValueRef idx = ci32(g, R500_ISPLAT_ZERO * RL);
                        zero = load8(g, LLVMBuildGEP2(g->b, g->f32, g->inl, &idx, 1, ""));
                        LLVMSetMetadata(zero,
                                        LLVMGetMDKindIDInContext(g->ctx, "invariant.load", 14),
                                        LLVMMDNodeInContext(g->ctx, NULL, 0));
                    }
                    LLVMBuildStore(g->b, zero, r);
                }
            }
}

static void track_src(const r500_xinst *x, unsigned sel, unsigned swz, bool used[][4])
{
    if (swz >= 4 || sel >= 3)
        return;
    const r500_xsrc *s = &x->src[swz == 3][sel];
    if (s->kind == R500_XSRC_TEMP)
        used[s->index][swz] = true;
}

/* The locals pred[4] and alu_res <-> the thread's FC state. */
static void masks_sync(cg *g, bool to_memory)
{
    for (unsigned k = 0; k < 5; k++) {
        LLVMValueRef idx = ci32(g, k);
        LLVMValueRef loc = k < 4 ? LLVMBuildGEP2(g->b, g->i64, g->pred, &idx, 1, "") : g->alu_res;
        LLVMValueRef mem = field_ptr(g, g->fcp, k < 4 ? offsetof(r500_fc_thread, pred) + 8 * k
                                                      : offsetof(r500_fc_thread, alu_result));
        if (to_memory)
            LLVMBuildStore(g->b, LLVMBuildLoad2(g->b, g->i64, loc, ""), mem);
        else
            LLVMBuildStore(g->b, LLVMBuildLoad2(g->b, g->i64, mem, ""), loc);
    }
}

/* Mark the temp channels compiled instructions read (sel_chan, srcp) or
 * write; false when one is addressed relative to aL (then every temp stays
 * in memory). A channel not marked is read from memory, which the
 * interpreter's steps keep current. */
static bool track_temps(const r500_prog *p, bool used[R500_NUM_TEMPS][4])
{
    memset(used, 0, R500_NUM_TEMPS * sizeof *used);
    for (size_t i = p->start; i <= p->end; i++) {
        const r500_xinst *x = &p->x[i];
        if (!compilable(x) || x->type == R500_TYPE_FC)
            continue;
        if (is_texkill(x)) { /* reads its source's four swizzled channels */
            const uint32_t *f = x->in.field;
            used[f[R500_F_TEX_SRC_ADDR]][f[R500_F_TEX_SRC_S_SWIZ]] = true;
            used[f[R500_F_TEX_SRC_ADDR]][f[R500_F_TEX_SRC_T_SWIZ]] = true;
            used[f[R500_F_TEX_SRC_ADDR]][f[R500_F_TEX_SRC_R_SWIZ]] = true;
            used[f[R500_F_TEX_SRC_ADDR]][f[R500_F_TEX_SRC_Q_SWIZ]] = true;
            continue;
        }
        for (unsigned u = 0; u < 2; u++) {
            for (unsigned k = 0; k < 3; k++)
                if (x->src[u][k].kind == R500_XSRC_TEMP && x->src[u][k].rel)
                    return false;
            if (x->addrd_rel[u])
                return false;
        }
        for (unsigned k = 0; k < 3; k++) {
            for (unsigned ch = 0; ch < 3; ch++)
                track_src(x, x->rgb[k].sel, x->rgb[k].swz[ch], used);
            track_src(x, x->alpha[k].sel, x->alpha[k].swz[0], used);
        }
        if (x->need_srcp)
            for (unsigned ch = 0; ch < 4; ch++)
                for (unsigned k = 0; k < 2; k++)
                    if (x->src[ch == 3][k].kind == R500_XSRC_TEMP)
                        used[x->src[ch == 3][k].index][ch] = true;
        for (unsigned ch = 0; ch < 4; ch++)
            if ((x->wmask >> ch) & 1)
                used[x->addrd[ch == 3]][ch] = true;
    }
    return true;
}

/* The run-time functions of rt.c in the module (rt_module). */
typedef struct rt_fns {
    LLVMValueRef begin, fc, enter, leave, reenter, kill;
} rt_fns;

static LLVMValueRef rt_call(cg *g, LLVMValueRef f, LLVMValueRef *args, unsigned n)
{
    return LLVMBuildCall2(g->b, LLVMGlobalGetValueType(f), f, args, n, "");
}

/* A local of n bytes (16-byte aligned) in the entry block. */
static LLVMValueRef local_bytes(cg *g, size_t n)
{
    LLVMValueRef a = LLVMBuildAlloca(g->b, LLVMArrayType(g->i8, (unsigned)n), "");
    LLVMSetAlignment(a, 16);
    return a;
}

/* The TEXKILL x at the end of a run: the lanes whose coordinates (through
 * the source swizzle) are below zero, by exec_internal.h's compare
 * (r500_texkill_lo/_span: one unsigned compare of each value's bits), block
 * by block into one lane mask; then the predicate bits to the FC state and
 * rt.c's r500_jit_rt_kill (the slot after it is a head: the next run's
 * r500_jit_rt_begin takes the new active lanes). Lanes past the thread's
 * are outside the mask r500_texkill_apply kills in. */
static void emit_texkill(cg *g, const r500_xinst *x, LLVMValueRef cl, LLVMValueRef kill_fn)
{
    const uint32_t *f = x->in.field;
    const unsigned sw[4] = {f[R500_F_TEX_SRC_S_SWIZ], f[R500_F_TEX_SRC_T_SWIZ],
                            f[R500_F_TEX_SRC_R_SWIZ], f[R500_F_TEX_SRC_Q_SWIZ]};
    const r500_exec_options mo = model_options(&g->job->options.exec);
    LLVMValueRef lo = splati(g, r500_texkill_lo(&mo)), span = splati(g, r500_texkill_span(&mo));
    LLVMValueRef kill = LLVMConstInt(g->i64, 0, 0);
    for (unsigned b = 0; b < g->nb; b++) {
        set_block(g, b);
        LLVMValueRef any = NULL;
        for (unsigned k = 0; k < 4; k++) {
            LLVMValueRef v = load8(g, temp_ptr(g, f[R500_F_TEX_SRC_ADDR], false, sw[k]));
            LLVMValueRef u = LLVMBuildSub(g->b, LLVMBuildBitCast(g->b, v, g->v8i32, ""), lo, "");
            LLVMValueRef hit = LLVMBuildICmp(g->b, LLVMIntULE, u, span, "");
            any = any ? LLVMBuildOr(g->b, any, hit, "") : hit;
        }
        LLVMValueRef bits = LLVMBuildZExt(g->b, LLVMBuildBitCast(g->b, any, g->im, ""), g->i64, "");
        if (b)
            bits = LLVMBuildShl(g->b, bits, LLVMConstInt(g->i64, b * VW, 0), "");
        kill = LLVMBuildOr(g->b, kill, bits, "");
    }
    masks_sync(g, true);
    LLVMValueRef kargs[4] = {cl, kill, ci32(g, f[R500_F_RGB_PRED_SEL]),
                             ci32(g, f[R500_F_RGB_PRED_INV])};
    rt_call(g, kill_fn, kargs, 4);
}

/* The guard block, between the entry and the registers' loading: when
 * a rule took an input's channel as clean (cg.guard), the thread's first
 * entry classifies those channels' registers (VFPCLASSPS: denormal or NaN,
 * 0x7FFFFFFF too) and records the verdict in the worker's context
 * (r500_seg_ctx.input_guard: 1 clean, 2 not); on 2 it returns the slot, and
 * run_thread enters no compiled code for the rest of the thread. Every
 * value such a channel holds later is one of those or a result a rule of
 * temp_clean covers. */
static void emit_guard(cg *g, LLVMBasicBlockRef guard, LLVMBasicBlockRef enter,
                       LLVMBasicBlockRef exit0)
{
    LLVMPositionBuilderAtEnd(g->b, guard);
    bool any = false;
    for (unsigned t = 0; t < R500_NUM_TEMPS; t++)
        for (unsigned ch = 0; ch < 4; ch++)
            any = any || g->guard[t][ch];
    if (!any) {
        LLVMBuildBr(g->b, enter);
        return;
    }
    LLVMValueRef fn = LLVMGetBasicBlockParent(guard);
    LLVMBasicBlockRef check = LLVMAppendBasicBlockInContext(g->ctx, fn, "guard_check");
    LLVMBasicBlockRef fail = LLVMAppendBasicBlockInContext(g->ctx, fn, "guard_fail");
    LLVMValueRef gp = field_ptr(g, g->seg, offsetof(r500_seg_ctx, input_guard));
    LLVMValueRef v = LLVMBuildLoad2(g->b, g->i32, gp, "");
    LLVMBuildCondBr(g->b, LLVMBuildICmp(g->b, LLVMIntEQ, v, ci32(g, 1), ""), enter, check);
    LLVMPositionBuilderAtEnd(g->b, check);
    LLVMValueRef bad = NULL;
    for (unsigned t = 0; t < R500_NUM_TEMPS; t++)
        for (unsigned ch = 0; ch < 4; ch++)
            for (unsigned b = 0; g->guard[t][ch] && b < g->nb; b++) {
                /* the channel in memory (the registers are loaded after
                 * the guard) */
                g->bi = b;
                g->blk = ci32(g, b * VW);
                LLVMValueRef v = load8(g, chan_ptr(g, g->temps, ci32(g, t * 4 + ch)));
                LLVMValueRef cls = LLVMBuildBitCast(g->b, fpclass(g, v, 0xa1), g->im, "");
                bad = bad ? LLVMBuildOr(g->b, bad, cls, "") : cls;
            }
    LLVMValueRef c = LLVMBuildICmp(g->b, LLVMIntNE, bad, LLVMConstInt(g->im, 0, 0), "");
    LLVMBuildStore(g->b, LLVMBuildSelect(g->b, c, ci32(g, 2), ci32(g, 1), ""), gp);
    LLVMBuildCondBr(g->b, c, fail, enter);
    LLVMPositionBuilderAtEnd(g->b, fail);
    LLVMBuildBr(g->b, exit0);
}

/* Whether slot i lies between a LOOP or REP and its end in address order
 * (the body a thread runs again and again in the usual program). */
static bool in_loop_body(const r500_prog *p, size_t i)
{
    int depth = 0;
    for (size_t k = p->start; k < i; k++) {
        if (p->x[k].type != R500_TYPE_FC)
            continue;
        const unsigned op = p->fc[k].op;
        depth += op == R500_FC_LOOP || op == R500_FC_REP;
        depth -= (op == R500_FC_ENDLOOP || op == R500_FC_ENDREP) && depth > 0;
    }
    return depth > 0;
}

/* The ALU and OUT instructions of the run i..last (up to its FC instruction
 * or TEXKILL). In a loop's body twice: once for the run entered with every
 * lane of a whole thread active, where every write mask is the constant
 * all-lanes one and LLVM drops the selects of the writes (uniform control
 * flow, the common case), and once for any other active mask; the same
 * stores either way, so their values join after both. Outside loops once
 * (the branch and the larger code cost more than they save there:
 * 12_while_data_dependent 1.08× the CPU time). */
static void emit_run(cg *g, const r500_prog *p, LLVMValueRef fn, size_t i, size_t last)
{
    size_t end = i;
    while (end <= last && p->x[end].type != R500_TYPE_FC && !is_texkill(&p->x[end]))
        end++;
    if (end == i)
        return;
    if (!in_loop_body(p, i)) {
        for (size_t j = i; j < end; j++)
            emit_inst(g, &p->x[j]);
        return;
    }
    const unsigned ts = g->job->thread_size;
    const uint64_t full = ts >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << ts) - 1;
    LLVMValueRef act = g->active, alv = g->alive;
    LLVMBasicBlockRef whole = LLVMAppendBasicBlockInContext(g->ctx, fn, "whole");
    LLVMBasicBlockRef part = LLVMAppendBasicBlockInContext(g->ctx, fn, "part");
    LLVMBasicBlockRef join = LLVMAppendBasicBlockInContext(g->ctx, fn, "");
    LLVMValueRef fm = LLVMConstInt(g->i64, full, 0);
    LLVMBuildCondBr(g->b, LLVMBuildICmp(g->b, LLVMIntEQ, act, fm, ""), whole, part);
    for (int k = 0; k < 2; k++) {
        LLVMPositionBuilderAtEnd(g->b, k == 0 ? whole : part);
        /* every lane active: every lane alive too (active is within alive) */
        g->active = k == 0 ? fm : act;
        g->alive = k == 0 ? fm : alv;
        for (size_t j = i; j < end; j++)
            emit_inst(g, &p->x[j]);
        LLVMBuildBr(g->b, join);
    }
    LLVMPositionBuilderAtEnd(g->b, join);
    g->active = act;
    g->alive = alv;
}

/* Emit uint32_t prog(r500_seg_ctx *c, uint32_t slot) (exec_internal.h,
 * r500_seg): one block per head; a head starts a run of compiled
 * instructions (ALU/OUT, ending at the first FC instruction, which rt.c's
 * r500_jit_rt_fc executes with fc.c's rules inlined, or at a TEXKILL, which
 * rt.c's r500_jit_rt_kill applies), or is an instruction the interpreter's
 * r500_exec_seg_step issues. After an FC instruction or a
 * step the function goes on at the block of the next slot (the slot after,
 * the static target, or any head through the dispatch block); elsewhere it
 * returns to the interpreter. */
static void emit_prog(cg *g, const r500_prog *p, const bool *head, const rt_fns *rt,
                      bool *counting)
{
    LLVMBasicBlockRef *blk = calloc(p->n + 1, sizeof *blk);
    if (!blk) {
        g->oom = true;
        return;
    }
    LLVMTypeRef pa[2] = {g->ptr, g->i32};
    LLVMTypeRef pty = LLVMFunctionType(g->i32, pa, 2, 0);
    LLVMValueRef fn = LLVMAddFunction(g->mod, "prog", pty);
    LLVMValueRef c = LLVMGetParam(fn, 0), slot = LLVMGetParam(fn, 1);
    LLVMBasicBlockRef entry = LLVMAppendBasicBlockInContext(g->ctx, fn, "entry");
    g->entry_bb = entry;
    LLVMBasicBlockRef dispatch = LLVMAppendBasicBlockInContext(g->ctx, fn, "dispatch");
    LLVMBasicBlockRef exit = LLVMAppendBasicBlockInContext(g->ctx, fn, "exit");
    unsigned nheads = 0;
    for (size_t i = p->start; i <= p->end; i++)
        if (head[i]) {
            blk[i] = LLVMAppendBasicBlockInContext(g->ctx, fn, "");
            nheads++;
        }
    /* entry: the context's pointers, the registers loaded */
    LLVMPositionBuilderAtEnd(g->b, entry);
    g->seg = c;
    g->temps = ctx_field(g, c, offsetof(r500_seg_ctx, temps), g->ptr);
    g->out = ctx_field(g, c, offsetof(r500_seg_ctx, out), g->ptr);
    g->outw = ctx_field(g, c, offsetof(r500_seg_ctx, outw), g->ptr);
    g->consts = ctx_field(g, c, offsetof(r500_seg_ctx, consts), g->ptr);
    g->inl = ctx_field(g, c, offsetof(r500_seg_ctx, inl), g->ptr);
    /* the model options as a constant (model_options; the cache key holds
     * them): the run-time functions' reads of them fold */
    const r500_exec_options mo = model_options(&g->job->options.exec);
    g->opt = const_bytes(g, &mo, sizeof mo);
    /* the context, issue state, counts and FC state in locals (rt.c) */
    LLVMValueRef cl = local_bytes(g, sizeof(r500_seg_ctx));
    LLVMValueRef fcp = local_bytes(g, sizeof(r500_jit_fc));
    LLVMValueRef ea[5] = {c, cl, local_bytes(g, sizeof(r500_thread_state)),
                          local_bytes(g, sizeof(r500_stats)), fcp};
    rt_call(g, rt->enter, ea, 5);
    LLVMBuildStore(g->b, g->opt, field_ptr(g, cl, offsetof(r500_seg_ctx, opt)));
    LLVMValueRef lv[2] = {c, cl};
    /* the predicate bits and the ALU result in locals too (the FC unit
     * reads them: written back before FC instructions and steps) */
    g->fcp = fcp;
    g->pred = LLVMBuildAlloca(g->b, LLVMArrayType(g->i64, 4), "");
    g->alu_res = LLVMBuildAlloca(g->b, g->i64, "");
    masks_sync(g, false);
    bool used[R500_NUM_TEMPS][4];
    g->regs = track_temps(p, used);
    if (!g->regs)
        temps_dirty(g); /* every temp in memory: its instructions write them there */
    memset(g->treg, 0, sizeof g->treg);
    if (g->regs)
        for (unsigned t = 0; t < R500_NUM_TEMPS; t++)
            for (unsigned ch = 0; ch < 4; ch++)
                for (unsigned b = 0; used[t][ch] && b < g->nb; b++)
                    g->treg[t][ch][b] = LLVMBuildAlloca(g->b, g->v8f, "");
    /* then the guard of the inputs taken as clean (emit_guard, once the
     * program is emitted), then the registers: at a thread's first entry
     * (first) as run_thread prepared the temps (REGS_FIRST), else loaded
     * from the temps (land) */
    LLVMBasicBlockRef guard = LLVMAppendBasicBlockInContext(g->ctx, fn, "guard");
    LLVMBasicBlockRef enter = LLVMAppendBasicBlockInContext(g->ctx, fn, "enter");
    LLVMBasicBlockRef first = LLVMAppendBasicBlockInContext(g->ctx, fn, "first");
    LLVMBasicBlockRef land = LLVMAppendBasicBlockInContext(g->ctx, fn, "land");
    /* a path on which the registers were never loaded returns without
     * storing them */
    LLVMBasicBlockRef exit0 = LLVMAppendBasicBlockInContext(g->ctx, fn, "exit0");
    LLVMBuildBr(g->b, guard);
    LLVMPositionBuilderAtEnd(g->b, enter);
    LLVMValueRef fv = ctx_field(g, c, offsetof(r500_seg_ctx, first), g->i32);
    LLVMValueRef is_first = LLVMBuildAnd(
        g->b, LLVMBuildICmp(g->b, LLVMIntNE, fv, ci32(g, 0), ""),
        LLVMBuildICmp(g->b, LLVMIntEQ, slot, ci32(g, (unsigned)p->start), ""), "");
    LLVMBuildCondBr(g->b, is_first, first, land);
    LLVMPositionBuilderAtEnd(g->b, first);
    regs_sync(g, REGS_FIRST);
    LLVMBuildBr(g->b, dispatch);
    LLVMPositionBuilderAtEnd(g->b, land);
    regs_sync(g, REGS_LOAD);
    LLVMBuildBr(g->b, dispatch);
    /* dispatch: to the head at a slot, else back to the interpreter */
    LLVMPositionBuilderAtEnd(g->b, dispatch);
    LLVMValueRef dslot = LLVMBuildPhi(g->b, g->i32, "slot");
    LLVMAddIncoming(dslot, &slot, &first, 1);
    LLVMAddIncoming(dslot, &slot, &land, 1);
    LLVMValueRef sw = LLVMBuildSwitch(g->b, dslot, exit, nheads);
    for (size_t i = p->start; i <= p->end; i++)
        if (head[i])
            LLVMAddCase(sw, ci32(g, (unsigned)i), blk[i]);
    /* exit: the registers stored, return the slot in ret */
    LLVMPositionBuilderAtEnd(g->b, exit);
    LLVMValueRef ret = LLVMBuildPhi(g->b, g->i32, "ret");
    LLVMAddIncoming(ret, &dslot, &dispatch, 1);
    masks_sync(g, true); /* into the local FC state, which leave gives back */
    rt_call(g, rt->leave, lv, 2);
    if (g->regs) {
        /* past the end of the program the thread is done: no one reads its
         * temps again (a trace or an observer runs no compiled code), so
         * they are stored only when the interpreter goes on — and the temps
         * in memory stay as run_thread left them (temps_dirty) */
        LLVMBasicBlockRef store = LLVMAppendBasicBlockInContext(g->ctx, fn, "store");
        LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(g->ctx, fn, "done");
        LLVMBuildCondBr(g->b, LLVMBuildICmp(g->b, LLVMIntUGT, ret, ci32(g, (unsigned)p->end), ""),
                        done, store);
        LLVMPositionBuilderAtEnd(g->b, store);
        regs_sync(g, REGS_STORE);
        LLVMBuildBr(g->b, done);
        LLVMPositionBuilderAtEnd(g->b, done);
    }
    LLVMBuildRet(g->b, ret);
    LLVMPositionBuilderAtEnd(g->b, exit0);
    masks_sync(g, true);
    rt_call(g, rt->leave, lv, 2);
    LLVMBuildRet(g->b, slot);
    /* stop: an FC fault (r500_jit_rt_fc recorded it); the counts given back,
     * the registers not stored (see below) */
    LLVMBasicBlockRef stop = LLVMAppendBasicBlockInContext(g->ctx, fn, "stop");
    LLVMPositionBuilderAtEnd(g->b, stop);
    rt_call(g, rt->leave, lv, 2);
    LLVMBuildRet(g->b, ci32(g, R500_SEG_STOP));

    LLVMTypeRef step_ty = LLVMFunctionType(g->i32, pa, 2, 0);
    LLVMValueRef step_fn = fn_const(g, (void *)(uintptr_t)&r500_exec_seg_step);
    LLVMValueRef st_g = const_bytes(g, &p->fc_state, sizeof p->fc_state);
    LLVMValueRef fco_g = const_bytes(g, &g->job->options.fc, sizeof g->job->options.fc);
    for (size_t i = p->start; i <= p->end; i++) {
        if (!head[i])
            continue;
        LLVMPositionBuilderAtEnd(g->b, blk[i]);
        LLVMValueRef np;
        size_t last = i;
        if (compilable(&p->x[i])) {
            /* the run i..last: it ends at the first FC instruction or
             * TEXKILL (rt.c's r500_jit_rt_kill counts it) */
            unsigned len = 0, n_out = 0;
            for (size_t k = i; k <= p->end && compilable(&p->x[k]) && (k == i || !head[k]); k++) {
                len++;
                n_out += p->x[k].type == R500_TYPE_OUT;
                last = k;
                if (p->x[k].type == R500_TYPE_FC || is_texkill(&p->x[k]))
                    break;
            }
            /* the run's FC instruction counts or reads branch counters
             * (rt.c's r500_jit_rt_begin) */
            const r500_fc_inst *lf = &p->fc[last];
            const bool counters = !g->counting_ok && p->x[last].type == R500_TYPE_FC &&
                                  (lf->b_op0 == 1 || lf->b_op0 == 2 || lf->b_op1 == 1 ||
                                   lf->b_op1 == 2 || lf->b_else);
            counting[i] = counters;
            LLVMValueRef args[4] = {cl, ci32(g, len), ci32(g, n_out), ci32(g, counters)};
            LLVMValueRef ok = rt_call(g, rt->begin, args, 4);
            LLVMBasicBlockRef run = LLVMAppendBasicBlockInContext(g->ctx, fn, "");
            LLVMBasicBlockRef here = LLVMGetInsertBlock(g->b);
            LLVMValueRef si = ci32(g, (unsigned)i);
            LLVMAddIncoming(ret, &si, &here, 1);
            LLVMBuildCondBr(g->b, ok, run, exit);
            LLVMPositionBuilderAtEnd(g->b, run);
            g->active = ctx_field(g, cl, offsetof(r500_seg_ctx, active), g->i64);
            g->alive = ctx_field(g, cl, offsetof(r500_seg_ctx, alive), g->i64);
            g->al = ctx_field(g, cl, offsetof(r500_seg_ctx, al), g->i32);
            emit_run(g, p, fn, i, last);
            if (is_texkill(&p->x[last]))
                emit_texkill(g, &p->x[last], cl, rt->kill);
            if (p->x[last].type != R500_TYPE_FC) {
                size_t nx = last + 1;
                if (nx <= p->end && head[nx]) {
                    LLVMBuildBr(g->b, blk[nx]);
                } else {
                    LLVMValueRef sn = ci32(g, (unsigned)nx);
                    LLVMBasicBlockRef h2 = LLVMGetInsertBlock(g->b);
                    LLVMAddIncoming(ret, &sn, &h2, 1);
                    LLVMBuildBr(g->b, exit);
                }
                continue;
            }
            r500_fc_inst fi = p->fc[last];
#if R500_JIT_PLANTED == 3
            /* R500_JIT_PLANTED 3 (tests only): a wrong FC rule — B_ELSE is
             * ignored where an instruction also pops branch counters */
            if (fi.b_pop_cnt && (fi.b_op0 == 1 || fi.b_op1 == 1))
                fi.b_else = false;
#endif
            LLVMValueRef fargs[6] = {c, cl, const_bytes(g, &fi, sizeof fi), st_g, fco_g,
                                     ci32(g, (unsigned)last)};
            masks_sync(g, true);
            np = rt_call(g, rt->fc, fargs, 6);
            /* a fault stops the thread: its temps are not observed again
             * (run_thread clears them for the next thread; a trace or an
             * observer runs no compiled code), so this path returns without
             * storing the registers, and no register needs to be kept in
             * memory across the fault's calls */
            LLVMBasicBlockRef goon = LLVMAppendBasicBlockInContext(g->ctx, fn, "");
            LLVMBuildCondBr(g->b, LLVMBuildICmp(g->b, LLVMIntEQ, np, ci32(g, R500_SEG_STOP), ""),
                            stop, goon);
            LLVMPositionBuilderAtEnd(g->b, goon);
            masks_sync(g, false);
        } else {
            masks_sync(g, true);
            rt_call(g, rt->leave, lv, 2);
            regs_sync(g, REGS_STORE);
            LLVMValueRef args[2] = {c, ci32(g, (unsigned)i)};
            np = LLVMBuildCall2(g->b, step_ty, step_fn, args, 2, "");
            regs_sync(g, REGS_LOAD);
            rt_call(g, rt->reenter, lv, 2);
            masks_sync(g, false);
        }
        /* the next slot: the one after, the static target, else dispatch */
        LLVMBasicBlockRef here = LLVMGetInsertBlock(g->b);
        LLVMAddIncoming(dslot, &np, &here, 1);
        LLVMValueRef s2 = LLVMBuildSwitch(g->b, np, dispatch, 2);
        long tg = fc_target(p, last);
        if (last + 1 <= p->end && head[last + 1])
            LLVMAddCase(s2, ci32(g, (unsigned)(last + 1)), blk[last + 1]);
        if (tg >= (long)p->start && tg <= (long)p->end && tg != (long)last + 1 && head[tg])
            LLVMAddCase(s2, ci32(g, (unsigned)tg), blk[tg]);
    }
    free(blk);
    emit_guard(g, guard, enter, exit0);
}

struct r500_jit_program {
    LLVMOrcLLJITRef jit;
    r500_seg *segs;   /* by slot */
    size_t n;
    double compile_seconds;
    unsigned nsegs;
};

void r500_jit_program_free(r500_jit_program *jp)
{
    if (!jp)
        return;
    if (jp->jit)
        LLVMOrcDisposeLLJIT(jp->jit);
    free(jp->segs);
    free(jp);
}

/* The functions the run-time bitcode (rt.c) calls outside itself besides
 * the shared ones (llvm_setup.c): they are the process's own. */
static const r500_llvm_sym rt_syms[] = {
    R500_LLVM_SYM(r500_value_name),
    R500_LLVM_SYM(r500_exec_seg_fault),
    R500_LLVM_SYM(r500_alu_transcendental),
};

/* The paths of faults are rare: out of the way of the registers. The branch
 * counters' INCR/DECR arithmetic with counter planes (fc.c's counters_op)
 * is one function that FC instructions call (jit_hints.h's
 * R500_JIT_NOINLINE), which compiled FC instructions reach only by a DECR
 * by 0 (rt.c's r500_jit_rt_begin leaves the runs that count to the
 * interpreter while a counter is non-zero, fc.c's branch_op shortcut the
 * others; docs/r500-jit.md) — in a program with a loop. In a program
 * without one (counting_compiled) it is inlined at every FC instruction
 * that counts and those runs stay compiled. Every other function of rt.c is
 * inlined wherever it is called. */
static int rt_kind_of(const char *name, bool counting_compiled)
{
    static const char *const cold[] = {"fault", "r500_exec_seg_fault", "ls_diag_set",
                                       "r500_value_name", "r500_jit_rt_trans_slow"};
    for (size_t i = 0; i < sizeof cold / sizeof cold[0]; i++)
        if (!strcmp(name, cold[i]))
            return R500_LLVM_FN_COLD;
    if (!strcmp(name, "counters_op"))
        return counting_compiled ? R500_LLVM_FN_INLINE : R500_LLVM_FN_OUTLINE;
    return R500_LLVM_FN_INLINE;
}

static int rt_kind(const char *name)
{
    return rt_kind_of(name, false);
}

static int rt_kind_counting(const char *name)
{
    return rt_kind_of(name, true);
}

/* Whether a program's FC instructions that count branch counters run
 * compiled with counters_op inlined (rt_kind_of): when it has no LOOP or
 * REP. In a loop the inlined copies, on paths a uniform thread never
 * takes, still cost the loop's registers (median CPU of alternating runs
 * at 2048², two workers: 10_nested_loops 1.07, Mandelbrot 1.06, with the
 * runs left to the interpreter as before); without one they save a
 * diverging thread's trips through the interpreter (12_while_data_dependent,
 * r300's unrolled loop: 0.86) for about twice the compile time. */
static bool counting_compiled(const r500_prog *p)
{
    for (size_t i = p->start; i <= p->end; i++)
        if (p->x[i].type == R500_TYPE_FC &&
            (p->fc[i].op == R500_FC_LOOP || p->fc[i].op == R500_FC_REP))
            return false;
    return true;
}

/* The embedded bitcode of rt.c (generated: r500_jit_rt_bc.c). */
extern const unsigned char r500_jit_rt_bc[];
extern const size_t r500_jit_rt_bc_len;

/* rt.c's entry points: r500_jit_rt_begin, _fc, _enter, _leave, _reenter,
 * _trans. */
static const char *const rt_need[] = {"r500_jit_rt_begin", "r500_jit_rt_fc", "r500_jit_rt_enter",
                                      "r500_jit_rt_leave", "r500_jit_rt_reenter",
                                      "r500_jit_rt_trans", "r500_jit_rt_kill", NULL};

/* rt.c's bitcode as llvm_setup.c loads it (its length is known at link time). */
static r500_llvm_bitcode rt_bitcode(bool counting)
{
    return (r500_llvm_bitcode){.who = "jit", .bytes = r500_jit_rt_bc, .len = r500_jit_rt_bc_len,
                               .source = "rt.c", .kind = counting ? rt_kind_counting : rt_kind,
                               .need = rt_need, .syms = rt_syms,
                               .nsyms = sizeof rt_syms / sizeof rt_syms[0]};
}

/* r500_jit_compile; perf: make the code visible to perf (r500_llvm_unit). */
static ls_status compile(const r500_job *job, const r500_prog *p, bool perf,
                         r500_jit_program **out, ls_diag *d)
{
    *out = NULL;
    r500_jit_program *jp = calloc(1, sizeof *jp);
    if (!jp || !(jp->segs = calloc(p->n, sizeof *jp->segs))) {
        free(jp);
        return ls_diag_set(d, LS_ERR_NOMEM, NULL, 0, 0, "out of memory");
    }
    jp->n = p->n;
    /* Heads (blocks of the compiled program): the program's start, every
     * static jump target, every instruction that is not compiled, and every
     * slot after one, after an FC instruction or after a TEXKILL. */
    bool *head = calloc(p->n + 1, 1);
    if (!head) {
        r500_jit_program_free(jp);
        return ls_diag_set(d, LS_ERR_NOMEM, NULL, 0, 0, "out of memory");
    }
    head[p->start] = true;
    for (size_t i = p->start; i <= p->end; i++) {
        if (!compilable(&p->x[i])) {
            head[i] = true;
            head[i + 1] = true;
        }
        if (is_texkill(&p->x[i]))
            head[i + 1] = true; /* the kill changes the active lanes */
        if (p->x[i].type == R500_TYPE_FC) {
            head[i + 1] = true;
            long t = fc_target(p, i);
            if (t >= 0 && (size_t)t < p->n)
                head[t] = true;
        }
    }
    const bool counting_ok = counting_compiled(p);
    const r500_llvm_bitcode bc = rt_bitcode(counting_ok);
    r500_llvm_unit u;
    if (r500_llvm_open(&u, &bc, d)) {
        free(head);
        r500_jit_program_free(jp);
        return LS_ERR_IO;
    }
    u.perf = perf;
    cg g;
    memset(&g, 0, sizeof g);
    g.ctx = u.ctx;
    g.mod = u.mod;
    rt_fns rt = {LLVMGetNamedFunction(g.mod, "r500_jit_rt_begin"),
                 LLVMGetNamedFunction(g.mod, "r500_jit_rt_fc"),
                 LLVMGetNamedFunction(g.mod, "r500_jit_rt_enter"),
                 LLVMGetNamedFunction(g.mod, "r500_jit_rt_leave"),
                 LLVMGetNamedFunction(g.mod, "r500_jit_rt_reenter"),
                 LLVMGetNamedFunction(g.mod, "r500_jit_rt_kill")};
    g.b = LLVMCreateBuilderInContext(g.ctx);
    g.f32 = LLVMFloatTypeInContext(g.ctx);
    g.i32 = LLVMInt32TypeInContext(g.ctx);
    g.i64 = LLVMInt64TypeInContext(g.ctx);
    g.i8 = LLVMInt8TypeInContext(g.ctx);
    g.im = LLVMIntTypeInContext(g.ctx, VW);
    g.v8f = LLVMVectorType(g.f32, VW);
    g.v8i32 = LLVMVectorType(g.i32, VW);
    g.v8i1 = LLVMVectorType(LLVMInt1TypeInContext(g.ctx), VW);
    g.ptr = LLVMPointerTypeInContext(g.ctx, 0);
    LLVMTypeRef tp[3] = {g.i32, g.f32, g.ptr};
    g.trans_ty = LLVMFunctionType(g.f32, tp, 3, 0);
    g.job = job;
    g.counting_ok = counting_ok;
    g.nb = (job->thread_size + VW - 1) / VW;
    /* VFPCLASSPS for OMOD's rule: a 512-bit block and AVX-512 DQ on this
     * host (not in the planted variant 1, whose wrong threshold it cannot
     * express) */
    char *feat = LLVMGetHostCPUFeatures();
    g.fpclass = VW == 16 && R500_JIT_PLANTED != 1 && !R500_JIT_PORTABLE && feat &&
                strstr(feat, "+avx512dq");
    /* the clean rules apply with VFPCLASSPS only, which the guard uses */
    temp_clean(job, p, g.fpclass, g.clean);
    LLVMDisposeMessage(feat);
    bool *counting = calloc(p->n + 1, 1);
    if (!counting)
        g.oom = true;
    else
        emit_prog(&g, p, head, &rt, counting);
    for (size_t i = p->start; i <= p->end; i++)
        if (head[i] && compilable(&p->x[i]))
            jp->nsegs++;
    LLVMDisposeBuilder(g.b);
    if (g.oom) {
        free(head);
        free(counting);
        r500_llvm_close(&u);
        r500_jit_program_free(jp);
        return ls_diag_set(d, LS_ERR_NOMEM, NULL, 0, 0, "out of memory");
    }
    LLVMOrcExecutorAddress addr = 0;
    ls_status st = r500_llvm_finish(&u, "prog", &jp->jit, &addr, d);
    for (size_t i = p->start; st == LS_OK && i <= p->end; i++)
        if (head[i])
            jp->segs[i] = (r500_seg){(uint32_t(*)(r500_seg_ctx *, uint32_t))(uintptr_t)addr,
                                     counting[i]};
    free(head);
    free(counting);
    if (st) {
        r500_jit_program_free(jp);
        return st;
    }
    jp->compile_seconds = r500_llvm_seconds(&u);
    *out = jp;
    return LS_OK;
}

ls_status r500_jit_compile(const r500_job *job, const r500_prog *p, r500_jit_program **out,
                           ls_diag *d)
{
    return compile(job, p, false, out, d);
}

const r500_seg *r500_jit_segments(const r500_jit_program *jp)
{
    return jp->segs;
}

double r500_jit_compile_seconds(const r500_jit_program *jp)
{
    return jp->compile_seconds;
}

unsigned r500_jit_segment_count(const r500_jit_program *jp)
{
    return jp->nsegs;
}

/* ---- the compile cache ---------------------------------------------------- */

/* What a compiled program depends on (r500_jit_compile): the instruction
 * words, the code range and US_FC_ADDR's offset (prog_build, the heads),
 * US_CONFIG's zero-times-anything bit and the model options emit_inst bakes
 * in. Constants, inline floats, the other options and the FC state are read
 * at run time. */
typedef struct cache_key {
    uint32_t ninst, start, end, code_offset, us_config;
    r500_exec_options exec;     /* the model options (model_options) */
    uint32_t nb;                /* blocks of VW lanes per thread (thread size) */
    r500_fc_state fc_state;     /* the FC registers (constants in the code) */
    uint32_t fco[13];           /* the FC options, field by field */
    uint32_t cfnz[R500_NUM_CONSTS * 4 / 32]; /* constant channels finite and non-zero (const_fnz) */
    uint32_t cbig[R500_NUM_CONSTS * 4 / 32]; /* const_big */
    uint64_t inputs[2];         /* bit t: temp t is an input (temp_clean) */
} cache_key;

typedef struct cache_entry {
    struct cache_entry *next;
    cache_key k;
    uint32_t *words; /* ninst * R500_INST_WORDS */
    r500_jit_program *jp;
} cache_entry;

struct r500_jit_engine {
    r500_engine_ops ops;
    pthread_mutex_t mu;
    cache_entry *head;
    size_t count, hits;
    bool perf; /* r500_jit_engine_set_perf */
};

static cache_key key_of(const r500_job *job, const r500_prog *p)
{
    cache_key k;
    memset(&k, 0, sizeof k);
    k.ninst = (uint32_t)job->ninst;
    k.start = p->start;
    k.end = p->end;
    k.code_offset = p->fc_state.code_offset & 0x1ffu;
    k.us_config = (job->regs.us_config >> 1) & 1u;
    const r500_exec_options mo = model_options(&job->options.exec);
    memcpy(&k.exec, &mo, sizeof mo); /* with its padding's zeros */
    k.nb = (job->thread_size + VW - 1) / VW;
    k.fc_state = p->fc_state;
    const r500_fc_options *o = &job->options.fc;
    const uint32_t fco[13] = {o->loop_trips_extra, o->al_every_endloop, o->loop_skip,
                              o->break_scope, o->pred_none_value, o->push_current,
                              o->branch_counter_max, o->partial_counter_max,
                              o->loop_stack_depth, o->addr_stack_depth,
                              o->counters_all_inactive, o->partial_enforce,
                              o->alu_result_clear};
    memcpy(k.fco, fco, sizeof fco);
    for (unsigned i = 0; i < R500_NUM_CONSTS * 4; i++)
        if (const_fnz(job, i / 4, i % 4))
            k.cfnz[i / 32] |= 1u << (i % 32);
    for (unsigned i = 0; i < R500_NUM_CONSTS * 4; i++)
        if (const_big(job, i / 4, i % 4))
            k.cbig[i / 32] |= 1u << (i % 32);
    for (unsigned t = 0; t < R500_NUM_TEMPS; t++)
        if (job->inputs[t].kind != R500_INPUT_NONE)
            k.inputs[t / 64] |= (uint64_t)1 << (t % 64);
    return k;
}

/* Run with the compiled program jp (NULL: the interpreter alone). */
static ls_status run_with(const r500_job *job, const r500_prog *p, const r500_jit_program *jp,
                          r500_result *r, ls_buf *trace, ls_diag *d)
{
    return r500_exec_run(job, p, jp ? jp->segs : NULL, r, trace, NULL, d);
}

static ls_status jit_run(r500_jit_engine *e, const r500_job *job, r500_result *r, ls_buf *trace,
                         ls_diag *d)
{
    memset(r, 0, sizeof *r);
    ls_status st = r500_exec_check(job, d);
    if (st)
        return st;
    r500_prog p;
    if ((st = r500_prog_build(job, &p, d)))
        return st;
    if (trace) {
        /* a traced run steps every instruction (exec.c): nothing to compile */
        st = run_with(job, &p, NULL, r, trace, d);
        r500_prog_free(&p);
        return st;
    }
    if (!e) {
        r500_jit_program *jp = NULL;
        st = r500_jit_compile(job, &p, &jp, d);
        if (st == LS_OK) {
            st = run_with(job, &p, jp, r, trace, d);
            if (st == LS_OK)
                r->stats.compile_seconds = jp->compile_seconds;
        }
        r500_jit_program_free(jp);
        r500_prog_free(&p);
        return st;
    }
    cache_key k = key_of(job, &p);
    size_t nw = job->ninst * R500_INST_WORDS;
    r500_jit_program *jp = NULL;
    double compiled = 0;
    /* entries are never removed while the engine lives: jp stays valid
     * after the lock is released */
    pthread_mutex_lock(&e->mu);
    for (cache_entry *c = e->head; c; c = c->next)
        if (!memcmp(&c->k, &k, sizeof k) && !memcmp(c->words, job->words, nw * sizeof(uint32_t))) {
            jp = c->jp;
            e->hits++;
            break;
        }
    if (!jp) {
        cache_entry *c = calloc(1, sizeof *c);
        uint32_t *w = malloc(nw * sizeof *w);
        if (!c || !w) {
            st = ls_diag_set(d, LS_ERR_NOMEM, NULL, 0, 0, "out of memory");
        } else if ((st = compile(job, &p, e->perf, &jp, d)) == LS_OK) {
            memcpy(w, job->words, nw * sizeof *w);
            c->k = k;
            c->words = w;
            c->jp = jp;
            c->next = e->head;
            e->head = c;
            e->count++;
            compiled = jp->compile_seconds;
            c = NULL;
            w = NULL;
        }
        free(c);
        free(w);
    }
    pthread_mutex_unlock(&e->mu);
    if (st == LS_OK) {
        st = run_with(job, &p, jp, r, trace, d);
        if (st == LS_OK)
            r->stats.compile_seconds = compiled;
    }
    r500_prog_free(&p);
    return st;
}

ls_status r500_jit_run(const r500_job *job, r500_result *r, ls_buf *trace, ls_diag *d)
{
    return jit_run(NULL, job, r, trace, d);
}

static ls_status jit_run_hook(const r500_engine_ops *self, const struct r500_job *job,
                              struct r500_result *r, ls_buf *trace, ls_diag *d)
{
    return jit_run(self->state, job, r, trace, d);
}

static const r500_engine_ops jit_ops = {.run = jit_run_hook, .state = NULL};

const r500_engine_ops *r500_jit_ops(void)
{
    return &jit_ops;
}

r500_jit_engine *r500_jit_engine_new(void)
{
    r500_jit_engine *e = calloc(1, sizeof *e);
    if (!e)
        return NULL;
    if (pthread_mutex_init(&e->mu, NULL)) {
        free(e);
        return NULL;
    }
    e->ops.run = jit_run_hook;
    e->ops.state = e;
    return e;
}

void r500_jit_engine_set_perf(r500_jit_engine *e, int on)
{
    pthread_mutex_lock(&e->mu);
    e->perf = on != 0;
    pthread_mutex_unlock(&e->mu);
}

const r500_engine_ops *r500_jit_engine_ops(const r500_jit_engine *e)
{
    return e ? &e->ops : NULL;
}

size_t r500_jit_engine_cached(const r500_jit_engine *e, size_t *hits)
{
    r500_jit_engine *m = (r500_jit_engine *)e; /* the lock only */
    pthread_mutex_lock(&m->mu);
    size_t n = e->count;
    if (hits)
        *hits = e->hits;
    pthread_mutex_unlock(&m->mu);
    return n;
}

void r500_jit_engine_free(r500_jit_engine *e)
{
    if (!e)
        return;
    for (cache_entry *c = e->head, *nx; c; c = nx) {
        nx = c->next;
        r500_jit_program_free(c->jp);
        free(c->words);
        free(c);
    }
    pthread_mutex_destroy(&e->mu);
    free(e);
}

int r500_jit_available(void)
{
    return 1;
}
