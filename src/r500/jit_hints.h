/* Hints for the JIT's run-time bitcode: src/r500/jit/rt.c, which includes
 * fc.c and exec_internal.h, is compiled to LLVM bitcode by clang with
 * R500_JIT_BITCODE (src/r500/meson.build) and inlined into every compiled
 * program (docs/r500-jit.md, "Flow control"). There these macros shape how
 * LLVM compiles the model's code; in every other build they are empty and
 * the compiler chooses. Why each is used is said where it is used. */
#ifndef LOCKSTEP_R500_JIT_HINTS_H
#define LOCKSTEP_R500_JIT_HINTS_H

#if defined(__clang__) && defined(R500_JIT_BITCODE)
/* one function that its call sites call (jit.c's rt_kind_of keeps it so in
 * a program with a loop; inlined in one without) */
#define R500_JIT_NOINLINE __attribute__((noinline))
/* the loop stays a loop */
#define R500_JIT_NO_UNROLL _Pragma("clang loop unroll(disable)")
/* the loop vectorised 16 lanes wide, which the JIT lowers for its host */
#define R500_JIT_VECTORISE_16                                                              \
    _Pragma("clang loop vectorize(enable) vectorize_width(16) interleave_count(1)")
#else
#define R500_JIT_NOINLINE
#define R500_JIT_NO_UNROLL
#define R500_JIT_VECTORISE_16
#endif

#endif
