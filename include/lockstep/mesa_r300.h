/* A GLSL fragment shader through Mesa's r300 compiler and onto lockstep
 * (docs/mesa.md, "lockstep mesa run and lockstep mesa check"): what `mesa
 * run|check|bench` do, for any front end. The GL program lockstep-mesa-gl
 * runs as a child process under the fake-device shim (r300) or on llvmpipe.
 * Never prints; temporary files go under $TMPDIR (else /tmp) and are removed. */
#ifndef LOCKSTEP_MESA_R300_H
#define LOCKSTEP_MESA_R300_H

#include <stddef.h>

#include "lockstep/buf.h"

#include "lockstep/r500.h"
#include "lockstep/status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct mesa_r300_config {
    const char *shim;                /* liblockstep_r300_shim.so */
    const char *gl;                  /* lockstep-mesa-gl */
    const char *chip;                /* LOCKSTEP_SHIM_CHIP; NULL: rv530 */
    const char *vert;                /* vertex shader; NULL: the default (uv varying) */
    const char *const *uniforms;     /* "NAME=V[,V...]" each */
    size_t nuniforms;
    int width, height;
    struct ls_buf *output;           /* if not NULL, what the GL program printed (stdout and
                                      * stderr of every run) is appended here */
} mesa_r300_config;

/* Compile frag with r300, decode the last draw of the first command stream
 * it submits (assumption mesa-job-last-draw) into job (initialised by the
 * caller with r500_job_init), size set, inputs from the RS set-up. With a
 * vertex shader, the one varying comes from llvmpipe's varying pass into
 * *varying (malloc'd; the job points at it: free it after the job; NULL when
 * the shader reads none). Errors: LS_ERR_IO when the GL program fails to run
 * or r300 submits nothing (the message carries the program's own verdict),
 * LS_ERR_UNSUPPORTED for inputs lockstep cannot place, decoder errors. */
ls_status mesa_r300_job(const mesa_r300_config *c, const char *frag, r500_job *job, float **varying,
                        ls_diag *d);

/* llvmpipe's RGBA32F image of frag (bottom row first); *rgba malloc'd. */
/* The whole captured stream on lockstep: r300 draws the shader (with c->vert
 * or the default vertex shader) under the shim with its buffer objects
 * saved, and every draw of every submission runs through vertex fetch, the
 * vertex program, clipping, rasterization, RS and the fragment program
 * (mesa_exec_render_draw) into *rgba (width x height RGBA floats, row 0 =
 * window y 0 = the bottom row, target 0 stored as it is). st (may be NULL)
 * gets the sums over the draws; workers: fragment-run threads (0 = cores). */
struct r500_raster_stats;
ls_status mesa_r300_render(const mesa_r300_config *c, const char *frag, unsigned workers,
                           float **rgba, struct r500_raster_stats *st, ls_diag *d);

ls_status mesa_llvmpipe_image(const mesa_r300_config *c, const char *frag, float **rgba, ls_diag *d);

/* llvmpipe's time per draw of frag, the mean of `repeat` draws after a warm-up,
 * with LP_NUM_THREADS = threads. */
ls_status mesa_llvmpipe_time(const mesa_r300_config *c, const char *frag, unsigned threads, int repeat,
                             double *seconds, ls_diag *d);

/* Compare two RGBA float images channel by channel: a pixel differs when a
 * channel's |a - b| > tol (NaN against a number: infinitely different). diff,
 * if not NULL, receives |a - b| / tol clamped to 1 per channel (alpha 1). */
typedef struct mesa_compare {
    size_t bad;      /* pixels that differ */
    double max_diff; /* largest |a - b| */
    long first;      /* index of the first differing pixel, -1 if none */
} mesa_compare;
void mesa_compare_images(const float *a, const float *b, int w, int h, double tol, float *diff,
                         mesa_compare *out);

#ifdef __cplusplus
}
#endif
#endif
