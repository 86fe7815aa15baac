/* The R500 JIT engine (jit.c; docs/r500-jit.md). Built only with LLVM. */
#ifndef LOCKSTEP_R500_JIT_H
#define LOCKSTEP_R500_JIT_H

#include "../exec_internal.h"
#include "lockstep/r500_jit.h"

typedef struct r500_jit_program r500_jit_program;

/* Compile every run of ALU/OUT instructions of a built program (the job's
 * constants and options are baked in). */
ls_status r500_jit_compile(const r500_job *job, const r500_prog *p, r500_jit_program **out,
                           ls_diag *d);
void r500_jit_program_free(r500_jit_program *jp);
/* The segment table for r500_exec_run, indexed by slot. */
const r500_seg *r500_jit_segments(const r500_jit_program *jp);
double r500_jit_compile_seconds(const r500_jit_program *jp);
unsigned r500_jit_segment_count(const r500_jit_program *jp);
/* r500_run with engine jit. */
ls_status r500_jit_run(const r500_job *job, r500_result *r, ls_buf *trace, ls_diag *d);

#endif
