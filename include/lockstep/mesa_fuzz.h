/* Differential GLSL fuzzing of Mesa's r300 compiler with lockstep as the R500
 * oracle (issue 14, docs/mesa-fuzz.md).
 *
 *  - Campaigns (mesa_fuzz_campaign), triage and reduction of their
 *    findings: the shaders run through r300 + lockstep + llvmpipe
 *    (include/lockstep/mesa_r300.h, whose outcome classes they report).
 *  - A random GLSL 1.10 fragment-shader generator working on an AST
 *    (seeded, deterministic), its printer, and an interpreter that evaluates
 *    the AST per pixel in double and in float: the float guard that keeps
 *    rounding artefacts out of the findings.
 *  - A generic reducer (delta debugging over the AST) driven by a predicate.
 *
 * Never prints: results and progress go to the caller's callbacks
 * (tools/cli_mesa_fuzz.c prints them); reports are files in the campaign's
 * directory (docs/mesa-fuzz.md, docs/formats.md). */
#ifndef LOCKSTEP_MESA_FUZZ_H
#define LOCKSTEP_MESA_FUZZ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lockstep/mesa_r300.h"
#include "lockstep/status.h"

#ifdef __cplusplus
extern "C" {
#endif

struct ls_buf;

/* ---- the shader AST ----------------------------------------------------- */

typedef enum fz_kind {
    /* statements */
    FZ_BLOCK,    /* kids: statements */
    FZ_DECL,     /* local var (op) = kids[0] */
    FZ_ASSIGN,   /* var (op) .mask (aux: 0 '=', 1 '+=', 2 '*=') kids[0] */
    FZ_OUT,      /* gl_FragColor.mask = kids[0] (aux as FZ_ASSIGN) */
    FZ_IF,       /* kids[0] condition, kids[1] then-block, kids[2] else-block (optional) */
    FZ_LOOP,     /* aux: loop form; op: counter var; ival / uni: trip count; kids[0] body */
    FZ_BREAK,
    FZ_CONTINUE,
    FZ_DISCARD,
    FZ_RETURN,
    /* expressions (float, width 1..4) */
    FZ_CONST,    /* val[0..width) */
    FZ_VAR,      /* var op (local, uniform or input) */
    FZ_COUNTER,  /* float(counter op) */
    FZ_SWZ,      /* kids[0].swz[0..width) */
    FZ_NEG,      /* -kids[0] */
    FZ_BIN,      /* kids[0] aux(+ - * /) kids[1]; widths equal or one is 1 */
    FZ_CALL,     /* builtin op (kids) */
    FZ_CTOR,     /* vecN(kids): widths sum to N, or one scalar */
    /* conditions (bool) */
    FZ_CMP,      /* kids[0] aux(< <= > >=) kids[1], both scalars */
    FZ_ICMP,     /* counter op aux(< <= > >= == !=) ival */
    FZ_AND,
    FZ_OR,
    FZ_NOT,
    FZ_BOOL,     /* true (ival 1) or false (ival 0): the reducer's simplest condition */
    FZ_KIND_COUNT
} fz_kind;

typedef enum fz_loop_form { FZ_FOR, FZ_WHILE, FZ_DOWHILE } fz_loop_form;

typedef enum fz_builtin {
    FZ_SIN, FZ_COS, FZ_EXP2, FZ_LOG2, FZ_EXP, FZ_LOG, FZ_SQRT, FZ_INVERSESQRT, FZ_FRACT,
    FZ_FLOOR, FZ_CEIL, FZ_ABS, FZ_SIGN, FZ_NORMALIZE,       /* unary, width kept */
    FZ_POW, FZ_MIN, FZ_MAX, FZ_MOD, FZ_STEP,                /* binary (2nd may be scalar) */
    FZ_CLAMP, FZ_MIX, FZ_SMOOTHSTEP,                        /* ternary */
    FZ_DOT, FZ_LENGTH, FZ_DISTANCE,                         /* to scalar */
    FZ_CROSS,                                               /* vec3 */
    FZ_BUILTIN_COUNT
} fz_builtin;

extern const char *const fz_builtin_names[FZ_BUILTIN_COUNT];

typedef struct fz_node {
    fz_kind kind;
    int op;              /* var / counter / builtin index */
    int aux;             /* operator, assignment or loop form */
    int width;           /* expressions: result width 1..4 */
    uint8_t swz[4];      /* FZ_SWZ: source channels; FZ_ASSIGN/FZ_OUT: written channels */
    int nswz;            /* FZ_ASSIGN/FZ_OUT: channels written (0 = whole variable) */
    int ival;            /* FZ_LOOP: constant trip count (uni < 0); FZ_ICMP: constant */
    int uni;             /* FZ_LOOP: int uniform giving the trip count, or -1 */
    double val[4];       /* FZ_CONST (values exactly representable as float) */
    int nkids;
    struct fz_node **kids;
} fz_node;

typedef enum fz_var_kind {
    FZ_VAR_LOCAL, FZ_VAR_UNIFORM, FZ_VAR_UNIFORM_INT, FZ_VAR_UV, FZ_VAR_FRAGCOORD, FZ_VAR_COUNTER
} fz_var_kind;

typedef struct fz_var {
    fz_var_kind kind;
    int width;           /* float widths 1..4; 1 for ints */
    double value[4];     /* uniforms */
    char name[16];
} fz_var;

#define FZ_MAX_VARS 64

typedef struct fz_program {
    fz_var vars[FZ_MAX_VARS];
    int nvars;
    fz_node *main;       /* FZ_BLOCK */
} fz_program;

fz_node *fz_node_new(fz_kind kind);
void fz_node_free(fz_node *n);
fz_node *fz_node_clone(const fz_node *n);
/* Append a kid (takes ownership); false when out of memory. */
bool fz_node_add(fz_node *parent, fz_node *kid);
void fz_program_free(fz_program *p);
bool fz_program_clone(const fz_program *src, fz_program *dst);
/* Number of nodes (a size measure for the reducer). */
size_t fz_program_size(const fz_program *p);
/* Whether the program is well formed: every var used is declared in scope,
 * break/continue only in loops, counters only inside their loop, widths
 * consistent. */
bool fz_program_valid(const fz_program *p);

/* GLSL 1.10 text of the program (appended to out). Only uniforms the program
 * uses are declared. */
void fz_program_print(const fz_program *p, struct ls_buf *out);
/* "--uniform name=v,..." arguments for the uniforms the program uses: one
 * "name=v[,v...]" string per uniform, appended NUL-separated to out; returns
 * how many. */
int fz_program_uniform_args(const fz_program *p, struct ls_buf *out);

/* ---- generator ---------------------------------------------------------- */

typedef struct fz_gen_options {
    int max_depth;        /* statement nesting, default 4 */
    int max_stmts;        /* statements per block, default 5 */
    int max_expr_depth;   /* default 3 */
    int max_trip;         /* largest loop trip count, default 12 (never above 255) */
    bool fragcoord;       /* may read gl_FragCoord (default true) */
} fz_gen_options;

void fz_gen_options_default(fz_gen_options *o);
/* A random program from seed (same seed and options: same program, same
 * text). */
ls_status fz_generate(uint64_t seed, const fz_gen_options *o, fz_program *out, ls_diag *d);

/* ---- interpreter and float guard ---------------------------------------- */

/* Thresholds of the float guard (docs/mesa-fuzz.md "No false alarms"). */
#define FZ_GUARD_MARGIN 1e-4     /* relative distance of a decision to its threshold */
#define FZ_GUARD_DOMAIN 1e-3     /* smallest argument of sqrt/log/pow/inversesqrt, |divisor|, length */
#define FZ_GUARD_RANGE 1e4       /* largest |value| anywhere */
#define FZ_GUARD_TRIG 256.0      /* largest |argument| of sin/cos */
#define FZ_GUARD_EXP 16.0        /* largest argument of exp2/exp */
#define FZ_GUARD_FLOAT 1e-5      /* float vs double result, relative */
#define FZ_GUARD_MAX_UNSTABLE 0.25 /* fraction of unstable pixels that rejects the shader */

typedef struct fz_pixel {
    double rgba[4];
    bool killed;
    bool stable;          /* passed the guard */
    char why[48];         /* when not: the first reason */
} fz_pixel;

/* Evaluate at every pixel of a w×h image (uv = ((x+.5)/w, (y+.5)/h),
 * gl_FragCoord = (x+.5, y+.5, 0.5, 1)), bottom row first. px gets the double
 * results; a pixel is stable when no decision lies within FZ_GUARD_MARGIN of
 * its threshold, no value leaves the sane range or the domain of its
 * function, and the float evaluation agrees with the double one. Returns the
 * number of unstable pixels. The output gl_FragColor starts at (0,0,0,0). */
size_t fz_evaluate(const fz_program *p, int w, int h, fz_pixel *px);
/* The guard's verdict: accepted when at most FZ_GUARD_MAX_UNSTABLE of the
 * pixels are unstable; why says why not. */
bool fz_guard(const fz_program *p, int w, int h, fz_pixel *px, char *why, size_t n);

/* ---- reducer ------------------------------------------------------------ */

/* Keeps a candidate when it returns true ("still interesting"). */
typedef bool (*fz_predicate)(const fz_program *p, void *ctx);

typedef struct fz_reduce_stats {
    size_t tried, accepted;
    size_t size_before, size_after;
} fz_reduce_stats;

/* Delta debugging over the AST: delete statements (in halving chunks, then
 * one by one), unwrap branches and loops, replace expressions by one of their
 * sub-expressions or by a constant (0, 1, or the value a uniform holds),
 * simplify conditions to true/false, shorten loops, until no edit keeps the
 * predicate true. p must satisfy the predicate; it is replaced by the
 * reduced program. max_tries bounds the predicate calls (0: no bound). */
ls_status fz_reduce(fz_program *p, fz_predicate pred, void *ctx, size_t max_tries,
                    fz_reduce_stats *st, ls_diag *d);

/* ---- campaigns (src/mesa/fuzz_campaign.c) -------------------------------- */

/* One shader of a campaign. */
typedef struct mesa_fuzz_case {
    uint64_t index;       /* 0, 1, ... */
    uint64_t seed;        /* the generator seed of the shader that passed the guard (0: none) */
    int rejected;         /* generated shaders the float guard rejected before it */
    mesa_outcome outcome;
    bool texkill_kill;    /* a disagreement that texkill-zero=kill removes */
    char why[600];        /* the first differing pixel, r300's error line, ... */
} mesa_fuzz_case;

typedef struct mesa_fuzz_summary {
    uint64_t shaders, rejected, texkill_kill;
    uint64_t counts[MESA_OUTCOME_COUNT];
    double seconds;
} mesa_fuzz_summary;

/* Writes a float RGBA image (bottom row first) as PNG: the caller's (the core
 * library has no PNG writer; the CLI passes liblockstep_io's). */
typedef ls_status (*mesa_fuzz_png_writer)(const char *path, const float *rgba, int w, int h,
                                          ls_diag *d);

typedef struct mesa_fuzz_config {
    mesa_r300_config r300;     /* shim, gl, chip, drivers, width x height (uniforms, vert unused) */
    double tolerance;          /* |lockstep - llvmpipe| <= tolerance * (1 + |llvmpipe|) */
    uint64_t seed;             /* campaign seed: shader i's generator seed depends on it and i */
    uint64_t count;            /* shaders; 0: until seconds have passed */
    double seconds;
    unsigned workers;          /* shaders at a time (host threads), >= 1 */
    const char *out;           /* campaign directory (made if missing); NULL: nothing written */
    mesa_fuzz_png_writer png;  /* diff images; NULL: none */
    /* reduction */
    size_t max_tries;          /* predicate calls per finding (0: no bound) */
    bool all_classes;          /* also r300 compile errors, crashes, lockstep faults */
    const char *only_class;    /* reduce only the findings of this class (NULL: all of above) */
    long limit;                /* new reductions at most (-1: all) */
    /* callbacks (may be NULL), called on the caller's thread or under a lock,
     * one at a time; the cases in index order */
    void (*on_case)(void *user, const mesa_fuzz_case *c);
    void (*on_progress)(void *user, size_t done, size_t total); /* reduction and triage */
    void (*on_note)(void *user, const char *line); /* one line per finding reduced or triaged */
    void *user;
} mesa_fuzz_config;

void mesa_fuzz_config_default(mesa_fuzz_config *c);

/* The generator seed of shader `index`, attempt `k` of a campaign seeded s. */
uint64_t mesa_fuzz_case_seed(uint64_t s, uint64_t index, uint64_t k);

/* Run a campaign: shaders generated from c->seed (each passing the float
 * guard), compiled by r300, run on lockstep, drawn by llvmpipe. With c->out:
 * log.txt (one line per shader), summary.json, findings/INDEX/ per shader
 * that did not agree (docs/mesa-fuzz.md). */
ls_status mesa_fuzz_campaign(const mesa_fuzz_config *c, mesa_fuzz_summary *s, ls_diag *d);

/* Sort every disagreement of campaign directory dir without reducing it:
 * does RADEON_DEBUG=noopt agree, does it agree once its discards are
 * removed? Writes dir/triage.json. */
typedef struct mesa_fuzz_triage_counts {
    size_t total, noopt, discard, other, gone;
} mesa_fuzz_triage_counts;
ls_status mesa_fuzz_triage(const mesa_fuzz_config *c, const char *dir, mesa_fuzz_triage_counts *t,
                           ls_diag *d);

/* Reduce the findings of campaign directory dir (disagreements; more with
 * c->all_classes / c->only_class; findings with a report.json are kept) and
 * write each one's min.* files and report.json, and dir/findings-summary.txt
 * (grouped by signature). *groups gets the number of signature groups. */
ls_status mesa_fuzz_reduce_campaign(const mesa_fuzz_config *c, const char *dir, size_t *reduced,
                                    size_t *groups, ls_diag *d);

#ifdef __cplusplus
}
#endif
#endif
