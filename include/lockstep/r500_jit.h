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

/* The JIT's engine table (static, read-only). */
const r500_engine_ops *r500_jit_ops(void);
/* 1: this library holds a working JIT (lockstep --version reports it). */
int r500_jit_available(void);

#endif
