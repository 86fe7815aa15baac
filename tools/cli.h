/* The lockstep command-line tool: one table-driven command layer.
 *
 * Every command and sub-command is a cli_cmd in the tree rooted at cli_root
 * (tools/cli_table.c). A command declares its options once (cli_opt: long
 * name, short letter, argument, help line, default, choices); the parser
 * (tools/cli_args.c) reads argv against that table for every command alike,
 * and the help text, the man pages (`lockstep help --man`) and the bash
 * completion (`lockstep help --completion`) are generated from the same
 * table. How to add a command: the comment block at the top of cli_table.c
 * and docs/cli.md.
 *
 * Only tools/ prints; the library returns ls_status + ls_diag. */
#ifndef LOCKSTEP_CLI_H
#define LOCKSTEP_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "base/buf.h"
#include "lockstep/r500.h"
#include "lockstep/status.h"
#include "lockstep/values.h"

/* Exit statuses. The one list of them is cli_exit_table (cli_table.c), which
 * the help, the man pages and docs/cli.md show. */
enum {
    CLI_OK = 0,          /* success: the command did what was asked, everything agreed */
    CLI_MISMATCH = 1,    /* a comparison found a difference (mesa check, mesa piglit) */
    CLI_USAGE = 2,       /* bad command line */
    CLI_INPUT = 3,       /* bad input: unreadable, malformed or unsupported file or value */
    CLI_FAULT = 4,       /* the emulated machine faulted (watchdog, bad access, ...) */
    CLI_OUTPUT = 5,      /* an output could not be written */
    CLI_UNAVAILABLE = 6, /* an outside component is missing or failed (Mesa shim, llvmpipe, piglit) */
    CLI_INTERNAL = 70,   /* out of memory or an internal error (a bug; sysexits EX_SOFTWARE) */
};

typedef struct cli_exit_info {
    int code;       /* first code of the row */
    int last;       /* last code (a range of reserved codes), == code for one */
    const char *name;
    const char *meaning;
} cli_exit_info;
extern const cli_exit_info cli_exit_table[]; /* ends with name == NULL */

/* ---- the table ------------------------------------------------------------ */

enum {
    CLI_O_REPEAT = 1u << 0, /* may be given more than once (all values kept, in order) */
    CLI_O_HIDDEN = 1u << 1, /* not in help, man page or completion (deprecated alias) */
    CLI_O_OUT = 1u << 2,    /* an output file: checked writable before any work */
    CLI_O_STREAM = 1u << 3, /* with CLI_O_OUT: '-' writes to stdout */
    CLI_O_IN = 1u << 4,     /* an input file; '-' reads stdin */
    CLI_O_DIR = 1u << 5,    /* a directory (completion) */
};

typedef struct cli_opt {
    const char *name;    /* long name without "--" */
    char shrt;           /* short letter or 0 */
    const char *arg;     /* metavariable of the value, NULL for a flag */
    const char *help;    /* one line (may hold '\n' for more) */
    const char *def;     /* default shown in help, or NULL */
    const char *choices; /* "a|b|c": the value must be one of these (checked by the parser) */
    unsigned flags;
    const char *alias_of; /* a deprecated spelling of this other option (name) */
} cli_opt;

typedef struct cli_args cli_args;

enum {
    CLI_C_HIDDEN = 1u << 0,   /* not listed (internal commands) */
    CLI_C_IN = 1u << 1,       /* operands are input files; '-' reads stdin (one at most) */
};

typedef struct cli_cmd {
    const char *name;
    const char *operands;     /* synopsis of the operands, e.g. "PROGRAM" */
    const char *summary;      /* one line */
    const char *description;  /* paragraphs for --help and the man page, or NULL */
    const cli_opt *opts;      /* ends with name == NULL; may be NULL */
    int (*run)(cli_args *a);  /* NULL for a command that only has sub-commands */
    const struct cli_cmd *subs; /* sub-commands, ends with name == NULL */
    int min_ops, max_ops;     /* operand count; max -1 = any */
    unsigned flags;
    const char *examples;     /* lines "$ command" / output, for the man page */
} cli_cmd;

extern const cli_cmd cli_root;

/* ---- parsed arguments ------------------------------------------------------ */

typedef struct cli_optval {
    const cli_opt *opt; /* the canonical option (aliases resolved) */
    const char *val;    /* value, or NULL for a flag */
} cli_optval;

struct cli_args {
    const cli_cmd *cmd;
    char prog[96];        /* "lockstep r500 run", for messages */
    cli_optval *ov;       /* every option in command-line order */
    size_t nov;
    char **ops;           /* operands */
    size_t nops;
    size_t nwarn;         /* warnings reported (cli_warn) */
};

/* Entry point: parse argv against the tree, run the command. */
int cli_main(int argc, char **argv);

/* Last value of an option (NULL if absent; "" for a present flag). */
const char *cli_get(const cli_args *a, const char *name);
bool cli_flag(const cli_args *a, const char *name);
/* Integer option in lo..hi; absent: *out unchanged. CLI_OK or a usage error. */
int cli_opt_long(cli_args *a, const char *name, long lo, long hi, long *out);
/* --size-like option WxH (1..16384 each); absent: unchanged. */
/* --NAME as a number >= 0 into *out (untouched when absent); else a usage error. */
int cli_opt_nonneg(cli_args *a, const char *name, double *out);
int cli_opt_size(cli_args *a, const char *name, int *w, int *h);

/* ---- messages ---------------------------------------------------------- */

/* "PROG: msg" on stderr (one line), return code. */
int cli_err(const cli_args *a, int code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* A usage error: "PROG: msg (see PROG --help)", return CLI_USAGE. */
int cli_usage(const cli_args *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* "PROG: warning: msg": the first CLI_WARN_SHOWN in full, then counted;
 * cli_main prints "... N more warnings" at the end. */
enum { CLI_WARN_SHOWN = 10 };
void cli_warn(cli_args *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Print a diagnostic (with source line and caret); returns the exit status
 * of its ls_status (cli_exit_of). */
int cli_report(const cli_args *a, const ls_diag *d);
/* The JIT's engine table when the CLI is built with liblockstep_jit, else NULL. */
const struct r500_engine_ops *cli_jit_ops(void);
/* The vertex JIT's table (one compile cache per process) when built with
 * liblockstep_jit, else NULL. */
const struct r500_pvs_engine_ops *cli_pvs_jit_ops(void);
/* --engine interp|jit for both the fragment and the vertex unit (default
 * interp); jit without the JIT built in is a usage error. */
int cli_engine_opt(cli_args *a, r500_engine *e);
/* --model NAME=VALUE... of mesa exec / mesa piglit --profile, checked with
 * mesa_device_model_set, as "LOCKSTEP_SHIM_MODEL=N=V,..." in env (empty: none
 * given); a bad one is a usage error. */
int cli_mesa_model_env(cli_args *a, char *env, size_t size);
/* What the process's JIT engines did so far (false: no JIT built in):
 * fragment programs compiled and cache hits (r500_jit_engine_cached), vertex
 * programs compiled, cache hits, programs left to the interpreter and the
 * runs given to it (r500_pvs_jit_counts). */
typedef struct cli_jit_counts {
    size_t fs_compiled, fs_hits;
    size_t vs_compiled, vs_hits, vs_interp_programs, vs_interp_runs;
} cli_jit_counts;
bool cli_engine_counts(cli_jit_counts *c);
int cli_report_list(const cli_args *a, const ls_diag_list *errs);
int cli_exit_of(ls_status st);

/* ---- files -------------------------------------------------------------- */

/* Read a whole input ("-" = stdin); on failure "cannot read FILE: reason",
 * CLI_INPUT. */
int cli_read(const cli_args *a, const char *path, ls_buf *b);
/* Write a buffer ("-" = stdout); CLI_OK or CLI_OUTPUT after a message. */
int cli_write(const cli_args *a, const char *path, const ls_buf *b);
/* The name to show for an input path ("<stdin>" for "-"). */
const char *cli_name(const char *path);

/* ---- value parsers: the library's (lockstep/values.h) ------------------ */

/* ---- progress on a terminal ---------------------------------------------- */

typedef struct cli_progress {
    bool on;            /* stderr is a terminal (and there is more than one unit) */
    size_t total;
    double t0, last;    /* start, last drawn (-1: not yet) */
    const char *what;
} cli_progress;
/* Counts, rate and ETA on stderr while it is a terminal; nothing otherwise. */
void cli_progress_start(cli_progress *p, size_t total, const char *what);
void cli_progress_update(cli_progress *p, size_t done);
void cli_progress_end(cli_progress *p);
/* An ls_progress report function (ctx: a started cli_progress): the library's
 * long operations (r500_job.progress, pp5_render_opts.progress) draw here. */
void cli_progress_report(void *ctx, unsigned long long done, unsigned long long total);

/* ---- help, man pages, completion (cli_doc.c) ---------------------------- */

void cli_help(FILE *f, const cli_cmd *const *path, size_t depth);
int cli_man(FILE *f, const char *page);
void cli_completion(FILE *f);
/* Every command with a function, one per line, for tests/cli: the words of
 * the command, then tab-separated: min operands, max operands (-1 any), the
 * options that take a value (comma-separated, "-" none), the outputs that may
 * be '-' (likewise), the outputs that may not (likewise). */
void cli_list_commands(FILE *f);
void cli_version(FILE *f);

/* ---- shared pieces of the commands ----------------------------------------- */

/* Where the shim / GL program are: $env, else beside the lockstep binary in a
 * build tree (../src/mesa/NAME), else installed (../lib/lockstep/NAME). */
bool cli_mesa_find_helper(const char *env, const char *name, char *out, size_t n);
/* --chip: what the shim accepts (src/mesa/shim.c), checked before Mesa starts. */
int cli_mesa_check_chip(cli_args *a, const char *chip);
/* --mesa-drivers DIR, else $LIBGL_DRIVERS_PATH, else "" (mesa_r300_drivers);
 * CLI_OK or a usage error. */
int cli_mesa_drivers(cli_args *a, char *out, size_t n);

/* Command entry points (tools/cli_*.c). */
int cli_r500_run(cli_args *a);
int cli_mesa_piglit_runner(cli_args *a);
int cli_r500_asm(cli_args *a);
int cli_r500_dis(cli_args *a);
int cli_r500_vs_asm(cli_args *a);
int cli_r500_vs_dis(cli_args *a);
int cli_r500_vs_run(cli_args *a);
int cli_r500_draw(cli_args *a); /* tools/cli_r500_draw.c */
/* A float RGBA frame (row 0 first) as an 8-bit PNG and/or raw float32; either
 * path may be NULL ('-' = stdout). tools/cli_r500_draw.c */
int cli_write_frame(cli_args *a, const char *png, const char *raw, const float *rgba, int w,
                    int h);
int cli_pp5_asm(cli_args *a);
int cli_pp5_dis(cli_args *a);
int cli_pp5_run(cli_args *a);
int cli_pp5_serialize(cli_args *a);
int cli_pp5_render(cli_args *a);
int cli_view(cli_args *a); /* lockstep view (cli_view.c) */
int cli_mesa_decode(cli_args *a);
int cli_mesa_run(cli_args *a);
int cli_mesa_check(cli_args *a);
int cli_mesa_bench(cli_args *a);
int cli_mesa_piglit(cli_args *a);
int cli_mesa_exec(cli_args *a); /* tools/cli_mesa_exec.c */
int cli_mesa_fuzz(cli_args *a); /* tools/cli_mesa_fuzz.c */

/* r500 run / mesa run: write the outputs asked for (-o, --raw, --work,
 * --stats, --trace) and print the summary unless -q. */
struct r500_job;
struct r500_result;
int cli_r500_outputs(cli_args *a, const char *prog, const struct r500_job *job,
                     const struct r500_result *res, const ls_buf *trace);
/* Report a result's faults: bounded, grouped by kind. Returns CLI_FAULT if any. */
int cli_r500_faults(cli_args *a, const char *prog, const struct r500_result *res);

#endif
