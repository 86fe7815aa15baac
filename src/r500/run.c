/* r500_run: the engine named by the job's options (docs/r500-jit.md). The
 * interpreter (exec.c) is the model of record; the JIT (jit/, built only with
 * LLVM) runs the same rules compiled. */
#include "exec_internal.h"
#ifdef LOCKSTEP_HAVE_JIT
#include "jit/jit.h"
#endif

bool r500_engine_available(r500_engine e)
{
#ifdef LOCKSTEP_HAVE_JIT
    return e == R500_ENGINE_INTERP || e == R500_ENGINE_JIT;
#else
    return e == R500_ENGINE_INTERP;
#endif
}

ls_status r500_run(const r500_job *job, r500_result *r, ls_buf *trace, ls_diag *d)
{
    switch (job->options.engine) {
    case R500_ENGINE_JIT:
#ifdef LOCKSTEP_HAVE_JIT
        return r500_jit_run(job, r, trace, d);
#else
        *r = (r500_result){0};
        return ls_diag_set(d, LS_ERR_ARG, NULL, 0, 0,
                           "engine jit: this lockstep was built without LLVM (docs/r500-jit.md)");
#endif
    default:
        return r500_interp_run(job, r, trace, d);
    }
}
