/* R500 fragment shader unit: whole-program execution over an image.
 *
 * A job is everything one draw needs: the instruction memory, the global US
 * registers (US_CONFIG, US_FC_*, US_CODE_*), 256 constants, the inputs the RS
 * unit preloads into temps (spec/mesa-capture.md §4), textures, the image
 * size, the thread size and the model options. r500_run() executes the
 * program for every pixel, thread by thread (a thread = N pixels in lockstep,
 * N = 1..64), and returns render targets A–D and W, the killed mask,
 * statistics and, on request, a trace.
 *
 * Speed (DESIGN.md): the program is pre-decoded once; each instruction runs
 * over a whole thread with uint64_t lane masks and structure-of-arrays
 * registers; threads of pixels are independent and run on several cores with
 * identical results. */
#ifndef LOCKSTEP_R500_H
#define LOCKSTEP_R500_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lockstep/buf.h"
#include "lockstep/r500_asm.h"
#include "lockstep/r500_fc.h"
#include "lockstep/r500_isa.h"
#include "lockstep/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A texture object (src/r500/tex.c, include/lockstep/r500_tex.h). */
struct r500_texture;

#define R500_MAX_LANES 64
#define R500_NUM_SAMPLERS 16
#define R500_NUM_TARGETS 4

/* ALU / TEX / execution model options (docs/assumptions.md, section "R500:
 * ALU, TEX and whole-program execution"). Set by name with r500_options_set. */
typedef enum r500_rcp_zero { R500_RCP_ZERO_INF, R500_RCP_ZERO_MAX } r500_rcp_zero;
typedef enum r500_rsq_neg { R500_RSQ_NEG_NAN, R500_RSQ_NEG_ABS } r500_rsq_neg;
typedef enum r500_ln2_zero { R500_LN2_ZERO_NEG_INF, R500_LN2_ZERO_NEG_MAX } r500_ln2_zero;
typedef enum r500_clamp_nan { R500_CLAMP_NAN_ZERO, R500_CLAMP_NAN_KEEP } r500_clamp_nan;
typedef enum r500_mad_mode { R500_MAD_SEPARATE, R500_MAD_FUSED } r500_mad_mode;
typedef enum r500_kill_mode { R500_KILL_STOP, R500_KILL_CONTINUE } r500_kill_mode;
typedef enum r500_quad_top { R500_QUAD_TOP_LOW_Y, R500_QUAD_TOP_HIGH_Y } r500_quad_top;
typedef enum r500_pred_write { R500_PRED_WRITE_ACTIVE, R500_PRED_WRITE_PREDICATED } r500_pred_write;
typedef enum r500_texkill_zero { R500_TEXKILL_ZERO_KEEP, R500_TEXKILL_ZERO_KILL } r500_texkill_zero;

typedef struct r500_exec_options {
    r500_rcp_zero rcp_zero;       /* "rcp-zero": inf | max */
    r500_rsq_neg rsq_negative;    /* "rsq-negative": nan | abs */
    r500_ln2_zero ln2_zero;       /* "ln2-zero": -inf | -max */
    r500_clamp_nan clamp_nan;     /* "clamp-nan": zero | keep */
    r500_mad_mode mad;            /* "mad": separate | fused */
    r500_kill_mode kill;          /* "kill": stop | continue */
    r500_quad_top quad_top;       /* "quad-top": low-y | high-y */
    r500_pred_write pred_write;   /* "pred-write": active | predicated */
    r500_texkill_zero texkill_zero; /* "texkill-zero": keep | kill (TEXKILL of -0.0) */
    uint64_t watchdog;            /* "watchdog": max instructions issued per thread */
    /* Job-wide limits (not model choices; docs/assumptions.md, "watchdog"):
     * when one is reached r500_run stops every thread and returns
     * LS_ERR_FAULT without a result. The budget is deterministic (it stops
     * the run exactly when the run would issue more than max_instructions in
     * all); the timeout is the only stop that depends on the host's speed. */
    uint64_t max_instructions;    /* "max-instructions": over all threads; 0 = no limit */
    double timeout;               /* "timeout": wall-clock seconds, checked coarsely
                                   * (every 4096 instructions of a thread); 0 = none */
    /* The first thread stopped by the watchdog stops the whole run, as a
     * job-wide limit does (LS_ERR_FAULT, no result; the diagnostic names the
     * thread and its instruction): the live device's GPU hang
     * (src/mesa/device.c), where a runaway program must end the draw at
     * once rather than after every thread has run into the watchdog. */
    bool watchdog_stops;
} r500_exec_options;

/* Which engine runs the job ("engine": interp | jit | auto; docs/r500-jit.md).
 * Both give the same bits; the interpreter is the model of record, the JIT is
 * built only when LLVM is found and runs only when the caller installs it
 * (r500_options.jit). auto, the default: the JIT when it is installed and the
 * job has at least R500_ENGINE_AUTO_PIXELS pixels, the interpreter otherwise
 * (below that a compile costs more than the interpreter's run of the corpus
 * programs; measured in docs/r500-jit.md). */
typedef enum r500_engine { R500_ENGINE_INTERP, R500_ENGINE_JIT, R500_ENGINE_AUTO } r500_engine;
#define R500_ENGINE_AUTO_PIXELS ((size_t)1 << 20)

struct r500_job;
struct r500_result;
/* An engine other than the interpreter, reached only through this hook:
 * the core library never links it. The JIT lives in its own library
 * (liblockstep_jit, include/lockstep/r500_jit.h: r500_jit_ops()); a caller
 * that wants it installs that table in r500_options.jit. */
typedef struct r500_engine_ops {
    ls_status (*run)(const struct r500_engine_ops *self, const struct r500_job *job,
                     struct r500_result *r, ls_buf *trace, ls_diag *d);
    void *state; /* the engine's own (e.g. the JIT's compile cache); may be NULL */
} r500_engine_ops;

typedef struct r500_options {
    r500_exec_options exec;
    r500_fc_options fc;
    r500_engine engine;
    const r500_engine_ops *jit; /* engine jit's implementation; NULL: not built in */
} r500_options;

/* Whether options o can run engine e (interp always; jit when o->jit is set). */
bool r500_engine_available(const r500_options *o, r500_engine e);
/* The engine that runs a job of `pixels` pixels under o (auto resolved): never
 * R500_ENGINE_AUTO. */
r500_engine r500_engine_pick(const r500_options *o, size_t pixels);

void r500_options_default(r500_options *o);
/* Set an option by name ("rcp-zero", "watchdog", or any FC option name). */
ls_status r500_options_set(r500_options *o, const char *name, const char *value, ls_diag *d);
/* Names of the exec options, NULL-terminated (for --help and docs). */
extern const char *const r500_exec_option_names[];

/* Global US registers a job sets (spec/r500.md §1.9). */
typedef struct r500_regs {
    uint32_t us_config;            /* bit 1: ZERO_TIMES_ANYTHING_EQUALS_ZERO */
    uint32_t fc_bool_const;        /* US_FC_BOOL_CONST */
    uint32_t fc_int_const[32];     /* US_FC_INT_CONST_0..31 */
    uint32_t fc_ctrl;              /* US_FC_CTRL */
    uint32_t code_addr;            /* US_CODE_ADDR: START 8:0, END 24:16 */
    uint32_t code_range;           /* US_CODE_RANGE: ADDR 8:0, SIZE 24:16 */
    uint32_t code_offset;          /* US_CODE_OFFSET: OFFSET 8:0 */
} r500_regs;

/* How a temp is preloaded before instruction 0 (the RS unit's job). */
typedef enum r500_input_kind {
    R500_INPUT_NONE = 0, /* temp starts at (0,0,0,0) */
    R500_INPUT_UV,       /* ((x+.5)/W, (y+.5)/H, 0, 1) */
    R500_INPUT_CLIP,     /* (2(x+.5)/W-1, 2(y+.5)/H-1, 0, 1) */
    R500_INPUT_CONST,    /* value[] */
    R500_INPUT_IMAGE,    /* image[4 (y W + x) + c]: one RGBA float per pixel, bottom row
                          * first (an interpolated varying computed outside lockstep) */
} r500_input_kind;

typedef struct r500_input {
    r500_input_kind kind;
    float value[4];
    const float *image;  /* R500_INPUT_IMAGE: W×H×4 floats, not owned */
} r500_input;

/* How r500_job_load_texture (and a JSON job's "textures") turn a file name
 * into a texture. The core library reads no image files (it does not link
 * libpng): the caller passes a loader. r500_texture_load_file
 * (include/lockstep/r500_tex.h, src/io/texture_io.c) reads PNG and raw
 * float32 files; a program may pass its own (textures from memory, another
 * image library). load == NULL: texture files are an error (LS_ERR_UNSUPPORTED). */
typedef ls_status (*r500_texture_load_fn)(void *ctx, const char *spec,
                                          struct r500_texture **out, ls_diag *d);
typedef struct r500_texture_loader {
    r500_texture_load_fn load;
    void *ctx;
} r500_texture_loader;

typedef struct r500_job {
    uint32_t *words;          /* instruction memory, ninst*6 dwords, slot 0 first (owned) */
    size_t ninst;
    r500_regs regs;
    float consts[R500_NUM_CONSTS][4];
    r500_input inputs[R500_NUM_TEMPS];
    struct r500_texture *tex[R500_NUM_SAMPLERS]; /* owned; NULL = unbound */
    int width, height;        /* image size */
    unsigned thread_size;     /* lanes per thread, 1..64 */
    float clear[4];           /* colour of killed pixels */
    unsigned workers;         /* host threads; 0 = one per online core */
    r500_options options;
    bool trace_writes;        /* the trace also lists the temps each instruction writes */
    bool work_image;          /* fill r500_result.work (false, the default: work is NULL) */
    r500_texture_loader texture_loader; /* for texture file names; zero = none */
    ls_progress progress;     /* threads done / threads of the run (status.h); zero = none */
    /* NULL, or the result of an earlier run whose image buffers (target,
     * w, killed, work) a run of the same size takes over instead of
     * allocating new ones, as a renderer draws again into its framebuffer:
     * they leave *recycle (NULL there), every pixel is written anew. Used by
     * r500_run_timed between its repetitions. */
    struct r500_result *recycle;
} r500_job;

/* A job with defaults: no program, 16x16, threads of 48 pixels (RV530), no
 * inputs, clear colour 0, one worker per core, default model options, and the
 * registers Mesa writes (US_CONFIG 0x2, FULL_FC_EN, US_FC_INT_CONST_0 = 0xFF;
 * US_CODE_* are set with the program). */
void r500_job_init(r500_job *job);
void r500_job_free(r500_job *job);
/* Set the program words (copied) and, when set_range, US_CODE_ADDR/RANGE to
 * cover all of it (offset 0), as Mesa does. */
ls_status r500_job_set_program(r500_job *job, const uint32_t *words, size_t ninst,
                               bool set_range, ls_diag *d);

/* Load a program file into the job: .bin, hex-dword text (its "cN:" constants
 * are loaded too), or a JSON job (the corpus program.json as it is, or a
 * lockstep job: docs/assumptions.md, "R500: jobs, inputs and outputs"). */
ls_status r500_job_load(r500_job *job, const char *path, ls_diag *d);
/* Same from memory (format from the name, then the content). */
ls_status r500_job_load_mem(r500_job *job, const char *name, const char *data, size_t len,
                            ls_diag *d);
/* JSON job text only. */
ls_status r500_job_load_json(r500_job *job, const char *name, const char *text, size_t len,
                             ls_diag *d);

/* Apply an assembled program to the job: its words (behind .offset N when
 * given, with US_CODE_* set as r500_job_load does for assembly) and its state
 * (.const constants, .bool, .int, .fc full|partial). Constants and registers
 * the program does not set keep their values. An empty program is an error. */
ls_status r500_job_apply_program(r500_job *job, const r500_asm_program *prog, ls_diag *d);
/* The reverse: the job's program and, as state, everything of it the
 * assembly language can say: constants that are not zero, US_FC_BOOL_CONST,
 * US_FC_INT_CONST_n and the FC mode where they differ from r500_job_init's,
 * .offset when CODE_OFFSET = N and the slots below N are zero. US_CONFIG, an
 * arbitrary code range, inputs, size and textures are not program state.
 * Free out with r500_asm_program_free. */
ls_status r500_job_get_program(const r500_job *job, r500_asm_program *out, ls_diag *d);

/* Load any program form as words + state: .bin, hex-dword text (its "cN:"
 * constants become .const state), assembly, or a JSON job (through
 * r500_job_get_program). r500_disasm(out->words, out->count, &out->state, b)
 * then prints source that assembles back to the same program and state.
 * An empty program is an error. */
ls_status r500_program_load(const char *path, r500_asm_program *out, ls_diag *d);
ls_status r500_program_load_mem(const char *name, const char *data, size_t len,
                                r500_asm_program *out, ls_diag *d);

/* Bind sampler 0..15 to a texture file through job->texture_loader (with
 * r500_texture_load_file: a PNG, or raw float32 RGBA given as
 * "FILE@WxH", bottom row first). Replaces any texture bound before. */
ls_status r500_job_load_texture(r500_job *job, unsigned sampler, const char *path, ls_diag *d);

/* Statistics of one run. */
/* The counters of a run, one declaration for the struct and for every user
 * that walks them (the engines' differential test compares all of them):
 *   inst_alu, inst_out, inst_tex, inst_fc: instructions issued, by type;
 *   fc_jumps_taken, fc_jumps_not_taken;
 *   lane_slots_issued: sum over issued instructions of the thread's lanes;
 *   lane_slots_active: ... of its active (not killed) lanes;
 *   threads, faulted_threads. */
#define R500_STATS_COUNTERS(X)                                                                     \
    X(inst_alu) X(inst_out) X(inst_tex) X(inst_fc) X(fc_jumps_taken) X(fc_jumps_not_taken)         \
    X(lane_slots_issued) X(lane_slots_active) X(threads) X(faulted_threads)

typedef struct r500_stats {
#define R500_STATS_FIELD_(f) uint64_t f;
    R500_STATS_COUNTERS(R500_STATS_FIELD_)
#undef R500_STATS_FIELD_
    uint64_t *thread_insts;      /* per thread: instructions issued (owned) */
    size_t nthreads;
    double compile_seconds;      /* engine jit: time this run spent compiling, 0 when its
                                  * engine's cache had the program (not a result) */
} r500_stats;

/* Kinds of thread faults, for the summary in r500_result. */
typedef enum r500_fault_kind {
    R500_FAULT_WATCHDOG,  /* the thread issued `watchdog` instructions */
    R500_FAULT_FC,        /* flow control: stack overflow/underflow, bad address... */
    R500_FAULT_ENCODING,  /* a reserved or unsupported field value */
    R500_FAULT_TEX,       /* a TEX instruction could not sample (unbound sampler) */
    R500_FAULT_KINDS
} r500_fault_kind;
/* "watchdog", "flow-control", "encoding", "texture". */
const char *r500_fault_kind_name(r500_fault_kind k);

/* A fault of one thread (watchdog, FC fault, bad field): the thread stops. */
typedef struct r500_fault {
    size_t thread;
    r500_fault_kind kind;
    ls_diag diag;   /* index = instruction address */
} r500_fault;

/* The per-pixel outputs of a run: (member of r500_result, bytes per pixel,
 * 1 if float32 values). Every result a run gives is here, in
 * R500_STATS_COUNTERS, thread_insts or faults; the engines must agree on all
 * of them (tests/r500/test_engine_diff.c). */
#define R500_RESULT_IMAGES(X)                                                                      \
    X(target[0], 4 * sizeof(float), 1) X(target[1], 4 * sizeof(float), 1)                         \
    X(target[2], 4 * sizeof(float), 1) X(target[3], 4 * sizeof(float), 1)                         \
    X(w, sizeof(float), 1) X(killed, sizeof(uint8_t), 0) X(work, sizeof(uint32_t), 0)

/* How many faults r500_result keeps in full (those of the lowest threads). */
#define R500_FAULTS_KEPT 8

typedef struct r500_result {
    int width, height;
    /* RGBA float, bottom row first; killed pixels = clear colour. Target 0
     * always; B..D NULL when no OUT instruction names them. */
    float *target[R500_NUM_TARGETS];
    float *w;                        /* W output per pixel; NULL when never written */
    uint8_t *killed;                 /* 1 = pixel killed (TEXKILL) */
    uint32_t *work;                  /* instructions executed while the pixel was active;
                                      * NULL unless the job's work_image */
    r500_stats stats;
    /* Faults, summarised: every faulted thread is counted by kind (their sum
     * is stats.faulted_threads); the first R500_FAULTS_KEPT by thread index
     * are kept in full, in thread order. Deterministic for any worker count. */
    uint64_t fault_counts[R500_FAULT_KINDS];
    r500_fault *faults;
    size_t nfaults;                  /* faults kept (<= R500_FAULTS_KEPT) */
} r500_result;

void r500_result_free(r500_result *r);

/* Trace sink: when non-NULL, r500_run appends one JSON object per issued
 * instruction and thread (pc, active mask, branch counters, loop stack) to
 * trace (a JSON array's items, comma-separated; the caller wraps them). With
 * job->trace_writes, each ALU or TEX instruction is followed by an object
 * {"thread","pc","writes":[{"temp","ch","lanes","values"}]}: every temp
 * channel the instruction writes, the lanes it could write (mask) and the
 * channel's value in every lane of the thread afterwards (numbers; "nan",
 * "inf", "-inf" as strings). */

/* Run the job. Returns LS_OK when the program could run (faults of single
 * threads are results, in r->faults); an error status for a bad job (no
 * program, bad size, code range outside the program); LS_ERR_FAULT when a
 * job-wide limit stopped the run (options.exec.max_instructions, timeout:
 * *r is then empty). */
ls_status r500_run(const r500_job *job, r500_result *r, ls_buf *trace, ls_diag *d);

/* An observer of a run (the viewer's recorder, tools/cli_view.c): called on
 * the run's one host thread, threads in order, for every thread and every
 * issued instruction, at the point where --trace writes its object. Any
 * callback may be NULL. Register arrays are [reg][channel][lane] with lane
 * stride R500_MAX_LANES; only lanes below n mean anything. */
typedef struct r500_observer {
    void *user;
    /* A thread begins: n lanes, lane l at pixel (px[l], py[l]), covered lanes,
     * temps 0..ntemps-1 as preloaded (the program uses no higher temp). */
    void (*thread_begin)(void *user, size_t thread, unsigned n, const int *px, const int *py,
                         uint64_t covered, const float (*temps)[4][R500_MAX_LANES],
                         unsigned ntemps);
    /* Instruction pc issues; fc is the thread's state as it issues (what the
     * trace shows: masks, counters, stacks). */
    void (*issue)(void *user, size_t thread, unsigned pc, unsigned type,
                  const r500_fc_thread *fc);
    /* ... and has executed: registers after it (temps, render targets, W). */
    void (*retire)(void *user, size_t thread, unsigned pc,
                   const float (*temps)[4][R500_MAX_LANES], unsigned ntemps,
                   const float (*out)[4][R500_MAX_LANES], const float *outw);
} r500_observer;

/* r500_run with an observer (obs may be NULL): the same run on one host
 * thread. */
ls_status r500_run_observed(const r500_job *job, r500_result *r, ls_buf *trace,
                            const r500_observer *obs, ls_diag *d);
/* Mean wall and CPU seconds of one run (CPU: the whole process, its
 * workers included). */
typedef struct r500_timing {
    double wall, cpu;
    double compile; /* engine jit: compile seconds of the untimed warm-up run */
} r500_timing;
/* Run the job reps times (>= 1) and return the mean times; r holds the last
 * run's result (the caller frees it, also on error). One untimed run comes
 * first, with either engine, as llvmpipe draws once before it is timed (the
 * JIT compiles there; an engine with a compile cache does not compile again
 * in the timed runs). Each run writes into the images of the run before it
 * (r500_job.recycle), as llvmpipe's draws go to one framebuffer. */
ls_status r500_run_timed(const r500_job *job, unsigned reps, r500_timing *mean, r500_result *r,
                         ls_diag *d);

/* SIMD efficiency: active lane-slots / issued lane-slots (0 if none). */
double r500_stats_simd_efficiency(const r500_stats *s);
/* Statistics as JSON. */
void r500_stats_write_json(const r500_stats *s, ls_buf *b);

#ifdef __cplusplus
}
#endif
#endif
