/* R500 jobs from text settings: what `lockstep r500 run --input t0=uv
 * --const 3=1,0,0,1 ...` does, for any front end (docs/cli.md). */
#ifndef LOCKSTEP_R500_JOB_ARGS_H
#define LOCKSTEP_R500_JOB_ARGS_H

#include <stdint.h>

#include "lockstep/r500.h"
#include "lockstep/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Apply one setting to a job. name and the value's syntax:
 *   "size"   WxH, 1..16384 each
 *   "input"  tN=uv|clip|none|a,b,c,d   (N 0..127; the t is optional)
 *   "const"  N=a,b,c,d                 (N 0..255; a c prefix is allowed)
 *   "bool"   N=0|1                     (bit N of US_FC_BOOL_CONST, N 0..31)
 *   "int"    N=count,init,step         (US_FC_INT_CONST_N: 0..255, 0..255, -128..127)
 *   "tex"    N=FILE[@WxH][,options]    (sampler N 0..15; r500_job_load_texture)
 *   "lanes"  1..64|quad|r520|rv530|r580 (pixels per thread)
 *   "model"  NAME=VALUE                (r500_options_set)
 *   "clear"  r,g,b,a
 *   "max-instructions" N (job-wide; 0: no limit), "timeout" SECONDS (0: none)
 *   "engine" interp|jit (jit needs job->options.jit installed: r500_jit.h)
 * Returns LS_ERR_ARG with a message naming the expected form on a bad value
 * (the texture's own status for a texture that cannot be loaded). */
ls_status r500_job_apply(r500_job *job, const char *name, const char *value, ls_diag *d);

/* The work image of a result: RGB8, top row first (PNG order), one pixel per
 * result pixel, log-scaled heat ramp (black, blue, magenta, orange, yellow,
 * white) of the instructions executed while active; *max is the largest
 * count. rgb holds width*height*3 bytes. A result without a work image
 * (r500_job.work_image false) gives the ramp's first colour, *max 0. */
void r500_work_heatmap(const r500_result *r, uint8_t *rgb, uint32_t *max);

#ifdef __cplusplus
}
#endif
#endif
