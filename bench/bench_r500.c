/* R500 throughput: pixel-instructions per second for a 1024x1024 run of a
 * loop-heavy program (examples/r500/mandelbrot.inc: an escape-time loop with
 * data-dependent breaks), on one core and on all cores. Pixel-instructions =
 * issued lane-slots (each issued instruction times the lanes of its thread);
 * the active-lane figure (useful work) is printed too. Never part of make check.
 *
 * usage: bench_r500 [PROGRAM] [--size N] [--thread N] [--reps N] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "lockstep/r500.h"

#ifndef LOCKSTEP_SOURCE_ROOT
#define LOCKSTEP_SOURCE_ROOT "."
#endif

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    const char *path = LOCKSTEP_SOURCE_ROOT "/examples/r500/mandelbrot.inc";
    int size = 1024, reps = 3;
    unsigned thread = 64;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--size") && i + 1 < argc)
            size = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--thread") && i + 1 < argc)
            thread = (unsigned)atoi(argv[++i]);
        else if (!strcmp(argv[i], "--reps") && i + 1 < argc)
            reps = atoi(argv[++i]);
        else
            path = argv[i];
    }
    r500_job job;
    r500_job_init(&job);
    ls_diag d;
    ls_diag_clear(&d);
    if (r500_job_load(&job, path, &d)) {
        fprintf(stderr, "bench_r500: %s: %s\n", d.file, d.msg);
        return 1;
    }
    job.inputs[0].kind = R500_INPUT_UV;
    job.width = job.height = size > 0 ? size : 1024;
    job.thread_size = thread;
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    if (cores < 1)
        cores = 1;
    printf("bench_r500: %s, %dx%d, thread %u, best of %d\n", path, job.width, job.height, thread,
           reps);
    for (int pass = 0; pass < 2; pass++) {
        job.workers = pass == 0 ? 1 : (unsigned)cores;
        double best = 1e30;
        r500_result res;
        memset(&res, 0, sizeof res);
        for (int r = 0; r < reps; r++) {
            r500_result_free(&res);
            double t0 = now();
            if (r500_run(&job, &res, NULL, &d)) {
                fprintf(stderr, "bench_r500: %s\n", d.msg);
                return 1;
            }
            double t = now() - t0;
            if (t < best)
                best = t;
        }
        const r500_stats *s = &res.stats;
        double issued = (double)s->lane_slots_issued, active = (double)s->lane_slots_active;
        printf("  %ld core(s): %.3f s, %.3g pixel-instructions/s issued (%.3g active), SIMD "
               "efficiency %.1f%%, %llu thread-instructions\n",
               pass == 0 ? 1L : cores, best, issued / best, active / best,
               100 * r500_stats_simd_efficiency(s),
               (unsigned long long)(s->inst_alu + s->inst_out + s->inst_tex + s->inst_fc));
        r500_result_free(&res);
    }
    r500_job_free(&job);
    return 0;
}
