/* Timing of whole runs for `lockstep mesa bench` and bench/ (docs/mesa.md,
 * "lockstep mesa bench"): wall time (CLOCK_MONOTONIC) and CPU time of the
 * whole process, the workers included (CLOCK_PROCESS_CPUTIME_ID). */
#include <string.h>
#include <time.h>

#include "lockstep/r500.h"

static double clock_sec(clockid_t c)
{
    struct timespec ts;
    clock_gettime(c, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

ls_status r500_run_timed(const r500_job *job, unsigned reps, r500_timing *mean, r500_result *r,
                         ls_diag *d)
{
    memset(mean, 0, sizeof *mean);
    memset(r, 0, sizeof *r);
    if (reps < 1)
        reps = 1;
    double wall = 0, cpu = 0;
    /* one untimed run first, for either engine, as llvmpipe draws once
     * before it is timed: the JIT compiles there, and the images the timed
     * runs write into exist (the first timed run would otherwise also pay
     * for the kernel's zeroing of fresh pages) */
    ls_status st0 = r500_run(job, r, NULL, d);
    if (st0 != LS_OK)
        return st0;
    mean->compile = r->stats.compile_seconds;
    /* each repetition writes into the images of the one before (as
     * llvmpipe's draws go to the same framebuffer): r500_job.recycle */
    r500_job j = *job;
    r500_result prev;
    for (unsigned i = 0; i < reps; i++) {
        prev = *r;
        memset(r, 0, sizeof *r);
        j.recycle = &prev;
        double w0 = clock_sec(CLOCK_MONOTONIC), c0 = clock_sec(CLOCK_PROCESS_CPUTIME_ID);
        ls_status st = r500_run(&j, r, NULL, d);
        double c1 = clock_sec(CLOCK_PROCESS_CPUTIME_ID), w1 = clock_sec(CLOCK_MONOTONIC);
        r500_result_free(&prev);
        if (st != LS_OK)
            return st;
        wall += w1 - w0;
        cpu += c1 - c0;
    }
    mean->wall = wall / reps;
    mean->cpu = cpu / reps;
    return LS_OK;
}
