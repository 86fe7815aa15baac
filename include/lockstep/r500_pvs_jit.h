/* The R500 vertex JIT (docs/r500-jit.md, "The vertex JIT"): part of
 * liblockstep_jit, built only when LLVM is found. The core library never
 * links it; a caller that wants engine jit for the vertex engine installs the
 * table in the vertex options:
 *
 *     r500_pvs_jit *e = r500_pvs_jit_new();
 *     o.jit = r500_pvs_jit_ops(e);               (valid while e lives)
 *     r500_pvs_options_set(&o, "engine", "jit", &d);
 *     ... r500_pvs_run_vertices(..., &o, ...) ...
 *     r500_pvs_jit_free(e);
 */
#ifndef LOCKSTEP_R500_PVS_JIT_PUBLIC_H
#define LOCKSTEP_R500_PVS_JIT_PUBLIC_H

#include <stddef.h>

#include "lockstep/r500_pvs.h"

/* An engine with a compile cache: a program is compiled once per engine and
 * reused by every later run with the same instruction words (of the range
 * first..last), range and compiled-in model options; runs may share the
 * engine from several threads. */
typedef struct r500_pvs_jit r500_pvs_jit;
r500_pvs_jit *r500_pvs_jit_new(void);
const r500_pvs_engine_ops *r500_pvs_jit_ops(const r500_pvs_jit *e);
void r500_pvs_jit_free(r500_pvs_jit *e);

typedef struct r500_pvs_jit_counts {
    size_t compiled;        /* programs compiled (in the cache) */
    size_t hits;            /* runs that found their program compiled in the cache */
    size_t interp_programs; /* programs the JIT does not compile (in the cache as such) */
    size_t interp_runs;     /* runs given to the interpreter (those programs, flow control) */
    double compile_seconds; /* time spent compiling, all programs */
} r500_pvs_jit_counts;
void r500_pvs_jit_get_counts(const r500_pvs_jit *e, r500_pvs_jit_counts *out);

/* Why the JIT leaves a program to the interpreter (NULL: it compiles it):
 * for the given range and options; fc as r500_pvs_run_vertices takes it. */
const char *r500_pvs_jit_refusal(const uint32_t *words, size_t count, size_t first, size_t last,
                                 const r500_pvs_fc *fc, const r500_pvs_options *o);

#endif
