/* The LLVM set-up both R500 JITs share (llvm_setup.h; docs/r500-jit.md):
 * context, run-time bitcode, LLJIT, optimisation, external calls. */
#include "llvm_setup.h"

#include <math.h>
#include <stdbool.h>
#include <string.h>

#include <llvm-c/BitReader.h>
#include <llvm-c/ExecutionEngine.h>
#include <llvm-c/OrcEE.h>
#include <llvm-c/Target.h>
#include <llvm-c/TargetMachine.h>
#include <llvm-c/Transforms/PassBuilder.h>

ls_status r500_llvm_err(const char *who, LLVMErrorRef e, const char *what, ls_diag *d)
{
    char *m = LLVMGetErrorMessage(e);
    ls_diag_set(d, LS_ERR_IO, NULL, 0, 0, "%s: %s: %s", who, what, m);
    LLVMDisposeErrorMessage(m);
    return LS_ERR_IO;
}

double r500_llvm_seconds(const r500_llvm_unit *u)
{
    struct timespec t1;
    clock_gettime(CLOCK_MONOTONIC, &t1);
    return (double)(t1.tv_sec - u->t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - u->t0.tv_nsec);
}

LLVMValueRef r500_llvm_addr(LLVMContextRef ctx, const void *p)
{
    return LLVMConstIntToPtr(
        LLVMConstInt(LLVMInt64TypeInContext(ctx), (unsigned long long)(uintptr_t)p, 0),
        LLVMPointerTypeInContext(ctx, 0));
}

/* The bitcode's module in ctx, its functions treated as bc->kind says;
 * NULL on an error (d set). */
static LLVMModuleRef bitcode_module(LLVMContextRef ctx, const r500_llvm_bitcode *bc, ls_diag *d)
{
    LLVMMemoryBufferRef mb = LLVMCreateMemoryBufferWithMemoryRangeCopy(
        (const char *)bc->bytes, bc->len, bc->source);
    LLVMModuleRef m = NULL;
    if (!mb || LLVMParseBitcodeInContext2(ctx, mb, &m)) {
        ls_diag_set(d, LS_ERR_IO, NULL, 0, 0, "%s: cannot read the run-time bitcode (%s)", bc->who,
                    bc->source);
        if (mb)
            LLVMDisposeMemoryBuffer(mb);
        return NULL;
    }
    LLVMDisposeMemoryBuffer(mb);
    unsigned always = LLVMGetEnumAttributeKindForName("alwaysinline", 12);
    unsigned noinl = LLVMGetEnumAttributeKindForName("noinline", 8);
    unsigned cold = LLVMGetEnumAttributeKindForName("cold", 4);
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
        size_t len;
        int kind = bc->kind(LLVMGetValueName2(f, &len));
        if (kind == R500_LLVM_FN_COLD)
            LLVMAddAttributeAtIndex(f, LLVMAttributeFunctionIndex,
                                    LLVMCreateEnumAttribute(ctx, cold, 0));
        if (LLVMIsDeclaration(f))
            continue;
        LLVMSetLinkage(f, LLVMInternalLinkage);
        if (kind == R500_LLVM_FN_OUTLINE)
            LLVMAddAttributeAtIndex(f, LLVMAttributeFunctionIndex,
                                    LLVMCreateEnumAttribute(ctx, noinl, 0));
        if (kind == R500_LLVM_FN_INLINE) {
            LLVMRemoveEnumAttributeAtIndex(f, LLVMAttributeFunctionIndex, noinl);
            LLVMAddAttributeAtIndex(f, LLVMAttributeFunctionIndex,
                                    LLVMCreateEnumAttribute(ctx, always, 0));
        }
    }
    for (const char *const *n = bc->need; n && *n; n++)
        if (!LLVMGetNamedFunction(m, *n)) {
            LLVMDisposeModule(m);
            ls_diag_set(d, LS_ERR_IO, NULL, 0, 0, "%s: the run-time bitcode lacks %s", bc->who, *n);
            return NULL;
        }
    return m;
}

ls_status r500_llvm_open(r500_llvm_unit *u, const r500_llvm_bitcode *bc, ls_diag *d)
{
    memset(u, 0, sizeof *u);
    clock_gettime(CLOCK_MONOTONIC, &u->t0);
    u->bc = bc;
    LLVMInitializeNativeTarget();
    LLVMInitializeNativeAsmPrinter();
    u->tsc = LLVMOrcCreateNewThreadSafeContext();
    u->ctx = LLVMOrcThreadSafeContextGetContext(u->tsc);
    /* opaque pointers, whatever the bitcode's clang wrote (clang 14 writes
     * typed ones) */
    LLVMContextSetOpaquePointers(u->ctx, 1);
    u->mod = bitcode_module(u->ctx, bc, d);
    if (!u->mod) {
        LLVMOrcDisposeThreadSafeContext(u->tsc);
        u->tsc = NULL;
        return LS_ERR_IO;
    }
    return LS_OK;
}

void r500_llvm_close(r500_llvm_unit *u)
{
    if (u->mod)
        LLVMDisposeModule(u->mod);
    if (u->tsc)
        LLVMOrcDisposeThreadSafeContext(u->tsc);
    u->mod = NULL;
    u->tsc = NULL;
}

/* The process functions any run-time bitcode may call (besides its own
 * bc->syms): what clang's code of the model's C calls out to. */
static const r500_llvm_sym shared_syms[] = {
    R500_LLVM_SYM(ls_diag_set), R500_LLVM_SYM(ls_diag_vset), R500_LLVM_SYM(ls_diag_at_index),
    R500_LLVM_SYM(memset), R500_LLVM_SYM(memcpy),
    R500_LLVM_SYM(exp), R500_LLVM_SYM(exp2), R500_LLVM_SYM(log2), R500_LLVM_SYM(pow),
    R500_LLVM_SYM(sqrt), R500_LLVM_SYM(sin), R500_LLVM_SYM(cos), R500_LLVM_SYM(fabs),
    R500_LLVM_SYM(floor), R500_LLVM_SYM(expf), R500_LLVM_SYM(exp2f), R500_LLVM_SYM(log2f),
    R500_LLVM_SYM(powf), R500_LLVM_SYM(sqrtf), R500_LLVM_SYM(sinf), R500_LLVM_SYM(cosf),
    R500_LLVM_SYM(fabsf), R500_LLVM_SYM(floorf),
};

static void *symbol(const r500_llvm_bitcode *bc, const char *name)
{
    for (size_t i = 0; i < bc->nsyms; i++)
        if (!strcmp(bc->syms[i].name, name))
            return bc->syms[i].fn;
    for (size_t i = 0; i < sizeof shared_syms / sizeof shared_syms[0]; i++)
        if (!strcmp(shared_syms[i].name, name))
            return shared_syms[i].fn;
    return NULL;
}

/* Replace every call of a declared (external) function by a call of the
 * process's function of that name; false: one is unknown (d set). */
static bool resolve_externals(const r500_llvm_unit *u, ls_diag *d)
{
    for (LLVMValueRef f = LLVMGetFirstFunction(u->mod); f; f = LLVMGetNextFunction(f)) {
        if (!LLVMIsDeclaration(f) || LLVMGetIntrinsicID(f) || !LLVMGetFirstUse(f))
            continue;
        size_t len;
        const char *name = LLVMGetValueName2(f, &len);
        void *addr = symbol(u->bc, name);
        if (!addr) {
            ls_diag_set(d, LS_ERR_IO, NULL, 0, 0, "%s: the run-time code calls %s, unknown",
                        u->bc->who, name);
            return false;
        }
        LLVMReplaceAllUsesWith(f, r500_llvm_addr(u->ctx, addr));
    }
    return true;
}

/* LLJIT's object layer when u->perf: RuntimeDyld with LLVM's perf JIT event
 * listener (it writes jit-PID.dump under $JITDUMPDIR/.debug/jit, which
 * `perf inject --jit` reads; NULL from LLVM when built without perf support:
 * then the layer links as usual). */
static LLVMOrcObjectLayerRef perf_layer(void *ctx, LLVMOrcExecutionSessionRef es,
                                        const char *triple)
{
    (void)ctx;
    (void)triple;
    LLVMOrcObjectLayerRef l = LLVMOrcCreateRTDyldObjectLinkingLayerWithSectionMemoryManager(es);
    LLVMJITEventListenerRef li = LLVMCreatePerfJITEventListener();
    if (l && li)
        LLVMOrcRTDyldObjectLinkingLayerRegisterJITEventListener(l, li);
    return l;
}

ls_status r500_llvm_finish(r500_llvm_unit *u, const char *fn, LLVMOrcLLJITRef *jit,
                           LLVMOrcExecutorAddress *addr, ls_diag *d)
{
    const char *who = u->bc->who;
    ls_status st = LS_OK;
    LLVMErrorRef e;
    *jit = NULL;
    *addr = 0;
    LLVMOrcLLJITBuilderRef jb = LLVMOrcCreateLLJITBuilder();
    if (u->perf)
        LLVMOrcLLJITBuilderSetObjectLinkingLayerCreator(jb, perf_layer, NULL);
    if ((e = LLVMOrcCreateLLJIT(jit, jb))) {
        *jit = NULL;
        st = r500_llvm_err(who, e, "cannot create LLJIT", d);
        LLVMDisposeModule(u->mod);
    } else {
        /* optimise for this host's CPU (AVX2 where present) */
        char *triple = LLVMGetDefaultTargetTriple();
        LLVMSetTarget(u->mod, triple);
        LLVMDisposeMessage(triple);
        LLVMSetDataLayout(u->mod, LLVMOrcLLJITGetDataLayoutStr(*jit));
        LLVMPassBuilderOptionsRef po = LLVMCreatePassBuilderOptions();
        if ((e = LLVMRunPasses(u->mod, "default<O2>", NULL, po)))
            st = r500_llvm_err(who, e, "optimisation", d);
        LLVMDisposePassBuilderOptions(po);
        if (st == LS_OK && !resolve_externals(u, d))
            st = LS_ERR_IO;
        LLVMOrcThreadSafeModuleRef tsm = LLVMOrcCreateNewThreadSafeModule(u->mod, u->tsc);
        if (st == LS_OK &&
            (e = LLVMOrcLLJITAddLLVMIRModule(*jit, LLVMOrcLLJITGetMainJITDylib(*jit), tsm)))
            st = r500_llvm_err(who, e, "adding the module", d);
        else if (st != LS_OK)
            LLVMOrcDisposeThreadSafeModule(tsm);
    }
    u->mod = NULL;
    LLVMOrcDisposeThreadSafeContext(u->tsc);
    u->tsc = NULL;
    if (st == LS_OK && (e = LLVMOrcLLJITLookup(*jit, addr, fn)))
        st = r500_llvm_err(who, e, "lookup", d);
    return st;
}
