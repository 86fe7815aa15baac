/* The LLVM set-up both R500 JITs share (docs/r500-jit.md): the fragment JIT
 * (jit.c) and the vertex JIT (pvs_jit.c) each build one module from their
 * run-time bitcode (rt.c, pvs_rt.c, compiled by clang and embedded by
 * embed.py) plus the function they emit, and compile it with ORC's LLJIT for
 * this host. What differs between them is only the code they emit, the
 * bitcode, which of its functions are inlined, and the process functions the
 * bitcode may call. Built only with LLVM (liblockstep_jit). */
#ifndef LOCKSTEP_R500_JIT_LLVM_SETUP_H
#define LOCKSTEP_R500_JIT_LLVM_SETUP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include <llvm-c/Core.h>
#include <llvm-c/Error.h>
#include <llvm-c/LLJIT.h>
#include <llvm-c/Orc.h>

#include "lockstep/status.h"

/* A process function the run-time bitcode may call, by its C name. */
typedef struct r500_llvm_sym {
    const char *name;
    void *fn;
} r500_llvm_sym;
#define R500_LLVM_SYM(f) {#f, (void *)(uintptr_t)&f}

/* What becomes of a run-time function of the bitcode (r500_llvm_open's
 * classifier): left as clang wrote it, inlined wherever it is called
 * (alwaysinline, noinline removed), marked cold (declared or defined; out
 * of the way of the registers, never forced inline), or kept one function
 * that its call sites call (noinline: rarely run code that, inlined at every
 * site, would cost compile time). */
enum r500_llvm_fn_kind {
    R500_LLVM_FN_PLAIN,
    R500_LLVM_FN_INLINE,
    R500_LLVM_FN_COLD,
    R500_LLVM_FN_OUTLINE
};

/* The run-time bitcode a JIT embeds, and how its functions are treated. */
typedef struct r500_llvm_bitcode {
    const char *who;                 /* diagnostics' prefix: "jit", "pvs jit" */
    const unsigned char *bytes;      /* the embedded bitcode */
    size_t len;
    const char *source;              /* its source file, for diagnostics: "rt.c" */
    int (*kind)(const char *name);   /* an r500_llvm_fn_kind for each function */
    const char *const *need;         /* functions it must define, NULL-ended */
    const r500_llvm_sym *syms;       /* process functions it may call besides */
    size_t nsyms;                    /*   the shared ones (libc, libm, ls_diag_*) */
} r500_llvm_bitcode;

/* One compile: a thread-safe context (opaque pointers) and its module. */
typedef struct r500_llvm_unit {
    const r500_llvm_bitcode *bc;
    LLVMOrcThreadSafeContextRef tsc;
    LLVMContextRef ctx;
    LLVMModuleRef mod;
    struct timespec t0; /* when r500_llvm_open began */
    /* set before r500_llvm_finish: link through RuntimeDyld with LLVM's
     * perf JIT event listener, so that `perf inject --jit` names and
     * annotates the compiled code (docs/r500-jit.md, "Speed") */
    bool perf;
} r500_llvm_unit;

/* Start a compile: the native target initialised (once per process is
 * enough; LLVM makes repeated calls harmless), a new context, the bitcode
 * parsed into its module with every defined function internal and the
 * classifier's attributes. On an error (d set) nothing is left to release. */
ls_status r500_llvm_open(r500_llvm_unit *u, const r500_llvm_bitcode *bc, ls_diag *d);

/* Give up a compile that r500_llvm_finish will not see. */
void r500_llvm_close(r500_llvm_unit *u);

/* Finish a compile: an LLJIT (*jit; NULL when it cannot be made) for this
 * host's triple and data layout, the module optimised (default<O2>), every
 * call of a declared function resolved to the process's function of that
 * name, the module added, and *addr the address of the function named fn.
 * The unit is released whatever the outcome; on an error (d set) the caller
 * disposes *jit when it is not NULL. */
ls_status r500_llvm_finish(r500_llvm_unit *u, const char *fn, LLVMOrcLLJITRef *jit,
                           LLVMOrcExecutorAddress *addr, ls_diag *d);

/* An LLVM error as a diagnostic "WHO: WHAT: message" (e consumed). */
ls_status r500_llvm_err(const char *who, LLVMErrorRef e, const char *what, ls_diag *d);

/* Seconds since the unit was opened. */
double r500_llvm_seconds(const r500_llvm_unit *u);

/* A process address as a constant pointer in ctx. */
LLVMValueRef r500_llvm_addr(LLVMContextRef ctx, const void *p);

#endif
