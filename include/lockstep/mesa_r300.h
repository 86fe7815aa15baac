/* A GLSL fragment shader through Mesa's r300 compiler and onto lockstep
 * (docs/mesa.md, "lockstep mesa run and lockstep mesa check"): what `mesa
 * run|check|bench` do, for any front end. The GL program lockstep-mesa-gl
 * runs as a child process under the fake-device shim (r300) or on llvmpipe.
 * Never prints; temporary files go under $TMPDIR (else /tmp) and are removed. */
#ifndef LOCKSTEP_MESA_R300_H
#define LOCKSTEP_MESA_R300_H

#include <stdbool.h>
#include <stddef.h>

#include "lockstep/buf.h"

#include "lockstep/r500.h"
#include "lockstep/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- outcome classes ---------------------------------------------------- */

/* What became of one shader run through r300 + lockstep (+ llvmpipe):
 * X(ENUM, name, exit status of `lockstep mesa check` and `mesa fuzz`,
 * meaning). The one list: the command line's exit-status table
 * (tools/cli_table.c) takes the statuses 10.. from it, so --help, the man
 * pages and docs/cli.md show them (docs/mesa-fuzz.md, "Outcome classes"). */
#define MESA_OUTCOME_LIST(X)                                                                      \
    MESA_OUTCOME_LIST_COMPARE(X) MESA_OUTCOME_LIST_OWN(X) MESA_OUTCOME_LIST_OTHER(X)
/* the comparison's two results: the command line's statuses ok and mismatch */
#define MESA_OUTCOME_LIST_COMPARE(X)                                                              \
    X(AGREE, "agree", 0, "lockstep's pixels equal llvmpipe's within the tolerance")               \
    X(DISAGREE, "disagree", 1, "some pixel differs from llvmpipe beyond the tolerance")
/* the classes with their own exit status (rows of cli_exit_table) */
#define MESA_OUTCOME_LIST_OWN(X)                                                                  \
    X(R300_COMPILE_ERROR, "r300-compile-error", 10,                                               \
      "mesa check/run/fuzz: r300 reported a compiler error and drew with its dummy shader")       \
    X(R300_CRASH, "r300-crash", 11,                                                               \
      "mesa check/run/fuzz: the GL program died of a signal under r300")                          \
    X(GLSL_ERROR, "glsl-error", 12, "mesa check/run/fuzz: Mesa's GLSL front end refused the shader") \
    X(LOCKSTEP_FAULT, "lockstep-fault", 13,                                                       \
      "mesa check/run/fuzz: lockstep threads faulted running the program r300 emitted")           \
    X(REFERENCE, "reference-mismatch", 14,                                                        \
      "mesa fuzz: llvmpipe disagrees with the fuzzer's own interpreter (the reference is in "     \
      "doubt)")
/* anything else: mesa check exits with the error's own status (3, 5, 6, 70) */
#define MESA_OUTCOME_LIST_OTHER(X)                                                                \
    X(HARNESS_ERROR, "harness-error", 6,                                                          \
      "bad input, I/O, llvmpipe could not draw the shader")

typedef enum mesa_outcome {
#define MESA_OUTCOME_ENUM(e, name, status, meaning) MESA_OUTCOME_##e,
    MESA_OUTCOME_LIST(MESA_OUTCOME_ENUM)
#undef MESA_OUTCOME_ENUM
    MESA_OUTCOME_COUNT
} mesa_outcome;

typedef struct mesa_outcome_info {
    mesa_outcome outcome;
    const char *name;     /* "agree", "disagree", "r300-compile-error", ... */
    int exit_status;      /* of `lockstep mesa check` (and `mesa fuzz`) */
    const char *meaning;  /* one line */
} mesa_outcome_info;

/* Indexed by mesa_outcome. */
extern const mesa_outcome_info mesa_outcome_table[MESA_OUTCOME_COUNT];

/* Classify the GL program's run under the r300 shim from its exit status
 * (128 + signal when killed, -1 when it could not be started) and its
 * output (stdout+stderr): GLSL front-end error, r300 crash, r300 compile
 * error (dummy shader) or harness error; MESA_OUTCOME_AGREE means "compiled
 * normally, go on comparing". */
mesa_outcome mesa_outcome_of_r300_run(int status, const char *log);

/* The verdict of the r300 side of a run (mesa_r300_job). */
typedef struct mesa_r300_verdict {
    mesa_outcome outcome; /* AGREE: compiled normally (nothing compared yet);
                           * R300_COMPILE_ERROR: the job is r300's dummy shader;
                           * R300_CRASH, GLSL_ERROR, HARNESS_ERROR: no job */
    int gl_status;        /* the GL program's exit status under r300 (128 + signal) */
    char why[440];        /* r300's or the front end's error line, or "" */
    bool wpos;            /* gl_FragCoord was fed to the program */
    int rs_texcoords;     /* texcoord inputs of the RS set-up (-1 unknown) */
} mesa_r300_verdict;

/* The r300 driver directory: opt (`--mesa-drivers`), else $LIBGL_DRIVERS_PATH,
 * else "" (the system's). A directory (or, for LIBGL_DRIVERS_PATH, a
 * ':'-separated list) without r300_dri.so is LS_ERR_ARG. */
ls_status mesa_r300_drivers(const char *opt, char *out, size_t n, ls_diag *d);

/* ---- scenes ------------------------------------------------------------- */

/* The blend factors of `mesa run|check --blend SRC,DST`: X(name, GL name
 * without GL_, GL enum value) — glBlendFunc's factors by their lower-case
 * names (the values are GL/gl.h's; the GL program checks them against its
 * headers). */
#define MESA_BLEND_FACTORS(X)                                                                     \
    X(zero, ZERO, 0x0000)                                                                         \
    X(one, ONE, 0x0001)                                                                           \
    X(src_color, SRC_COLOR, 0x0300)                                                               \
    X(one_minus_src_color, ONE_MINUS_SRC_COLOR, 0x0301)                                           \
    X(src_alpha, SRC_ALPHA, 0x0302)                                                               \
    X(one_minus_src_alpha, ONE_MINUS_SRC_ALPHA, 0x0303)                                           \
    X(dst_alpha, DST_ALPHA, 0x0304)                                                               \
    X(one_minus_dst_alpha, ONE_MINUS_DST_ALPHA, 0x0305)                                           \
    X(dst_color, DST_COLOR, 0x0306)                                                               \
    X(one_minus_dst_color, ONE_MINUS_DST_COLOR, 0x0307)                                           \
    X(src_alpha_saturate, SRC_ALPHA_SATURATE, 0x0308)

/* The built-in texture sources of `--texture SAMPLER=SOURCE` besides PNG
 * files: "checker" (64×64 RGBA8, tiles of 8×8 texels, light grey and blue)
 * and "rgbw" (piglit's 8×8 red/green/blue/white quadrants). */
#define MESA_TEXTURE_PATTERNS "checker", "rgbw"

/* ---- running ------------------------------------------------------------ */

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
    const char *drivers;             /* LIBGL_DRIVERS_PATH of the r300 runs (mesa_r300_drivers);
                                      * NULL or "": the system's. llvmpipe always runs the
                                      * system's drivers. */
    const char *radeon_debug;        /* RADEON_DEBUG of the r300 run; NULL: inherited */
    int wpos;                        /* gl_FragCoord input: 0 when the GLSL text mentions it,
                                      * 1 always, 2 never */
    struct ls_buf *job_json;         /* if not NULL, the decoded job (JSON) is appended here */
    const char *const *scene;        /* more arguments for every run of the GL program: its
                                      * scene options (--texture S=SRC, --mesh F, --depth,
                                      * --blend A,B, --clear R,G,B,A, --rgba8; docs/mesa.md
                                      * "Scenes"), validated by the caller */
    size_t nscene;
    const char *capture;             /* mesa_r300_render: keep the r300 run's capture
                                      * (cs_NNNN.ib/.relocs/.flags/.bo_K, r300.log) in this
                                      * directory (made if missing; it must hold no file) for
                                      * `lockstep r500 draw` instead of a temporary one */
} mesa_r300_config;

/* Compile frag with r300, decode the last draw of the first command stream
 * it submits (assumption mesa-job-last-draw) into job (initialised by the
 * caller with r500_job_init), size set, inputs from the RS set-up. With a
 * vertex shader, the one varying comes from llvmpipe's varying pass into
 * *varying (malloc'd; the job points at it: free it after the job; NULL when
 * the shader reads none). Errors: LS_ERR_IO when the GL program fails to run
 * or r300 submits nothing (the message carries the program's own verdict),
 * LS_ERR_UNSUPPORTED for inputs lockstep cannot place, decoder errors.
 * v (may be NULL) receives the class of the r300 run: when r300 drew with
 * its dummy shader the job is the dummy's and the status LS_OK. */
ls_status mesa_r300_job(const mesa_r300_config *c, const char *frag, r500_job *job, float **varying,
                        mesa_r300_verdict *v, ls_diag *d);

/* llvmpipe's RGBA32F image of frag (bottom row first); *rgba malloc'd. */
/* The whole captured stream on lockstep: r300 draws the shader (with c->vert
 * or the default vertex shader) under the shim with its buffer objects
 * saved, and every draw of every submission runs through vertex fetch, the
 * vertex program, clipping, rasterization, RS and the fragment program
 * (mesa_exec_render_draw) into *rgba (width x height RGBA floats, row 0 =
 * window y 0 = the bottom row, target 0 stored as it is). st (may be NULL)
 * gets the sums over the draws; workers: fragment-run threads (0 = cores);
 * v (may be NULL) the class of the r300 run, as mesa_r300_job's. */
struct r500_raster_stats;
ls_status mesa_r300_render(const mesa_r300_config *c, const char *frag, unsigned workers,
                           float **rgba, struct r500_raster_stats *st, mesa_r300_verdict *v,
                           ls_diag *d);

ls_status mesa_llvmpipe_image(const mesa_r300_config *c, const char *frag, float **rgba, ls_diag *d);

/* llvmpipe's time per draw of frag, the mean of `repeat` draws after a warm-up,
 * with LP_NUM_THREADS = threads: wall time in *seconds, CPU time of the GL
 * process (its rasteriser threads included) in *cpu_seconds (may be NULL). */
ls_status mesa_llvmpipe_time(const mesa_r300_config *c, const char *frag, unsigned threads, int repeat,
                             double *seconds, double *cpu_seconds, ls_diag *d);

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

/* `lockstep mesa bench`'s measurement: the mean of reps (>= 1) whole
 * r500_run calls of job (r500_run_timed; the job built by mesa_r300_job, its
 * workers and engine set), then llvmpipe's time per draw of frag, the mean of
 * reps draws after a warm-up with LP_NUM_THREADS = threads
 * (mesa_llvmpipe_time). Returns lockstep's error if the job does not run;
 * llvmpipe failing to draw is a result (llvmpipe < 0, llvmpipe_diag says
 * why), not an error. */
typedef struct mesa_r300_bench_result {
    unsigned reps, threads;
    double pixels;              /* width x height */
    r500_engine engine;         /* the engine lockstep ran */
    r500_timing lockstep;       /* mean wall and process-CPU seconds of one run */
    double compile_seconds;     /* engine jit: compile time of the untimed warm-up run (0: interpreter
                                   or a compile-cache hit) */
    double lockstep_mpixels;    /* pixels / wall, in millions per second */
    double llvmpipe;            /* mean wall seconds per llvmpipe draw; < 0: could not be timed */
    double llvmpipe_cpu;        /* mean CPU seconds of the GL process per draw; < 0: unknown */
    double llvmpipe_mpixels;
    double speed_wall, speed_cpu; /* llvmpipe / lockstep time: above 1 lockstep is faster
                                     (0 when llvmpipe was not timed) */
    ls_diag llvmpipe_diag;      /* why llvmpipe was not timed */
} mesa_r300_bench_result;
ls_status mesa_r300_bench(const mesa_r300_config *c, const char *frag, const r500_job *job,
                          unsigned reps, unsigned threads, mesa_r300_bench_result *out, ls_diag *d);

#ifdef __cplusplus
}
#endif
#endif
