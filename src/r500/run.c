/* r500_run: the engine named by the job's options (docs/r500-jit.md). The
 * interpreter (exec.c) is the model of record; the JIT (src/r500/jit, its own
 * library liblockstep_jit, built only with LLVM) runs the same rules compiled
 * and is reached only through the hook the caller installs in
 * r500_options.jit, so this library never references it. */
#include "exec_internal.h"

bool r500_engine_available(const r500_options *o, r500_engine e)
{
    if (e == R500_ENGINE_INTERP || e == R500_ENGINE_AUTO)
        return true;
    return e == R500_ENGINE_JIT && o && o->jit && o->jit->run;
}

r500_engine r500_engine_pick(const r500_options *o, size_t pixels)
{
    if (o->engine != R500_ENGINE_AUTO)
        return o->engine;
    return pixels >= R500_ENGINE_AUTO_PIXELS && r500_engine_available(o, R500_ENGINE_JIT)
               ? R500_ENGINE_JIT
               : R500_ENGINE_INTERP;
}

ls_status r500_run(const r500_job *job, r500_result *r, ls_buf *trace, ls_diag *d)
{
    switch (r500_engine_pick(&job->options, (size_t)job->width * job->height)) {
    case R500_ENGINE_JIT:
        if (!r500_engine_available(&job->options, R500_ENGINE_JIT)) {
            *r = (r500_result){0};
            return ls_diag_set(d, LS_ERR_ARG, NULL, 0, 0,
                               "engine jit: not installed in the job's options (r500_jit_ops(), "
                               "liblockstep_jit; docs/r500-jit.md)");
        }
        return job->options.jit->run(job->options.jit, job, r, trace, d);
    default:
        return r500_interp_run(job, r, trace, d);
    }
}
