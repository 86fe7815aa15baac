/* mesa_r300_bench (include/lockstep/mesa_r300.h): the measurement sequence of
 * `lockstep mesa bench` (docs/mesa.md, "lockstep mesa bench") — the mean of
 * reps whole r500_run calls of the decoded job, then llvmpipe drawing the same
 * shader reps times after a warm-up, and the rates and ratio from both. */
#include <string.h>

#include "lockstep/mesa_r300.h"

ls_status mesa_r300_bench(const mesa_r300_config *c, const char *frag, const r500_job *job,
                          unsigned reps, unsigned threads, mesa_r300_bench_result *out, ls_diag *d)
{
    memset(out, 0, sizeof *out);
    ls_diag_clear(&out->llvmpipe_diag);
    out->reps = reps < 1 ? 1 : reps;
    out->threads = threads < 1 ? 1 : threads;
    out->pixels = (double)job->width * (double)job->height;
    out->engine = r500_engine_pick(&job->options, (size_t)job->width * job->height);
    out->llvmpipe = -1;
    r500_result r;
    ls_status st = r500_run_timed(job, out->reps, &out->lockstep, &r, d);
    if (st == LS_OK)
        out->compile_seconds = out->lockstep.compile;
    r500_result_free(&r);
    if (st != LS_OK)
        return st;
    out->lockstep_mpixels = out->lockstep.wall > 0 ? out->pixels / out->lockstep.wall / 1e6 : 0;
    /* llvmpipe that cannot be timed is a result, not an error: lockstep's
     * figures stand, the reason is kept */
    double lp = -1, lp_cpu = -1;
    out->llvmpipe_cpu = -1;
    if (mesa_llvmpipe_time(c, frag, out->threads, (int)out->reps, &lp, &lp_cpu, &out->llvmpipe_diag) ==
            LS_OK &&
        lp > 0) {
        out->llvmpipe = lp;
        out->llvmpipe_cpu = lp_cpu;
        out->llvmpipe_mpixels = out->pixels / lp / 1e6;
        out->speed_wall = out->lockstep.wall > 0 ? lp / out->lockstep.wall : 0;
        out->speed_cpu = out->lockstep.cpu > 0 && lp_cpu > 0 ? lp_cpu / out->lockstep.cpu : 0;
    } else if (out->llvmpipe_diag.status == LS_OK) {
        ls_diag_set(&out->llvmpipe_diag, LS_ERR_IO, frag, 0, 0, "llvmpipe: no draw time measured");
    }
    return LS_OK;
}
