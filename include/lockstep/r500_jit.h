/* The R500 JIT engine (docs/r500-jit.md): its own library, liblockstep_jit,
 * built only when LLVM is found. The core library never links it; a caller
 * that wants engine jit installs the table:
 *
 *     job.options.jit = r500_jit_ops();
 *     r500_options_set(&job.options, "engine", "jit", &d);
 */
#ifndef LOCKSTEP_R500_JIT_PUBLIC_H
#define LOCKSTEP_R500_JIT_PUBLIC_H

#include "lockstep/r500.h"

/* The JIT's engine table (static, read-only): every run compiles. */
const r500_engine_ops *r500_jit_ops(void);

/* A JIT engine with a compile cache: a program is compiled once per engine
 * and reused by every later run with the same instruction words, code range,
 * US_FC_ADDR offset, US_CONFIG and compiled-in model options (mad,
 * clamp-nan, pred-write); runs may share the engine from several threads.
 * The table lives as long as the engine. */
typedef struct r500_jit_engine r500_jit_engine;
r500_jit_engine *r500_jit_engine_new(void);
const r500_engine_ops *r500_jit_engine_ops(const r500_jit_engine *e);
/* Programs in the cache, and how many runs found theirs there. */
size_t r500_jit_engine_cached(const r500_jit_engine *e, size_t *hits);
/* on: the programs the engine compiles from now on are visible to perf
 * (LLVM's perf JIT event listener writes jit-PID.dump files, under
 * $JITDUMPDIR/.debug/jit, for `perf
 * inject --jit`; docs/r500-jit.md, "Speed"). The CLI sets it when the
 * environment has LOCKSTEP_JIT_PERF=1. Off by default. */
void r500_jit_engine_set_perf(r500_jit_engine *e, int on);
void r500_jit_engine_free(r500_jit_engine *e);
/* 1: this library holds a working JIT (lockstep --version reports it). */
int r500_jit_available(void);

#endif
