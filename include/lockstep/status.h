/* lockstep — status codes and diagnostics.
 *
 * The library never prints and never exits: every fallible call returns an
 * ls_status and fills an ls_diag that says what went wrong and where
 * (file:line:col for text inputs, byte offset for binary inputs, instruction
 * index or cycle for faults of an emulated machine). Only tools/ prints. */
#ifndef LOCKSTEP_STATUS_H
#define LOCKSTEP_STATUS_H

#include <stdarg.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum ls_status {
    LS_OK = 0,
    LS_ERR_IO,          /* a file could not be opened, read or written */
    LS_ERR_PARSE,       /* malformed text or binary input */
    LS_ERR_RANGE,       /* a value outside the range its field allows */
    LS_ERR_NOMEM,       /* allocation failed */
    LS_ERR_ARG,         /* bad argument from the caller (CLI option, API misuse) */
    LS_ERR_UNSUPPORTED, /* well-formed input that the model does not implement */
    LS_ERR_FAULT,       /* a fault of the emulated machine (reported result) */
    LS_ERR_MISMATCH,    /* a comparison failed (check commands) */
} ls_status;

/* Where a diagnostic points. Fields that do not apply are 0 / -1 / "". */
typedef struct ls_diag {
    ls_status status;
    char file[256];     /* input file name, "" if none */
    int line;           /* 1-based line, 0 if not a text position */
    int col;            /* 1-based column, 0 if unknown */
    long offset;        /* byte offset for binary input, -1 if none */
    long index;         /* instruction index / cycle number, -1 if none */
    char msg[512];
    char source_line[256]; /* the offending source line (for caret display), "" if none */
} ls_diag;

/* Reset to "no error". */
void ls_diag_clear(ls_diag *d);

/* Fill d (if non-NULL) and return st. file may be NULL. */
ls_status ls_diag_set(ls_diag *d, ls_status st, const char *file, int line, int col,
                      const char *fmt, ...) __attribute__((format(printf, 6, 7)));
ls_status ls_diag_vset(ls_diag *d, ls_status st, const char *file, int line, int col,
                       const char *fmt, va_list ap);

/* Attach a byte offset / instruction index to an already-set diagnostic. */
void ls_diag_at_offset(ls_diag *d, long offset);
void ls_diag_at_index(ls_diag *d, long index);

/* One-line rendering ("warning" for a diagnostic whose status is LS_OK):
 * "file:line:col: error: msg", "file: byte N: error: msg",
 * "file: instruction N: error: msg" or "error: msg", without newline. */
size_t ls_diag_format(const ls_diag *d, char *buf, size_t n);

const char *ls_status_name(ls_status st);

/* Progress of a long operation (r500_job.progress, pp5_render_opts.progress):
 * the library calls report(ctx, done, total) as units of work complete (R500
 * threads, PP5 primitives), always from the thread that called the library,
 * with done non-decreasing and a last call with done == total when the work
 * ends normally. A zero ls_progress (report NULL) reports nothing. What to
 * show, and how often, is the caller's: lockstep draws a line on a terminal. */
typedef struct ls_progress {
    void (*report)(void *ctx, unsigned long long done, unsigned long long total);
    void *ctx;
} ls_progress;

/* A growable list of diagnostics, for parsers that recover and report several
 * errors in one run. */
typedef struct ls_diag_list {
    ls_diag *items;
    size_t count, cap;
    size_t errors;   /* number of items that are errors (all, today) */
} ls_diag_list;

void ls_diag_list_init(ls_diag_list *l);
void ls_diag_list_free(ls_diag_list *l);
/* Append a copy of d; returns LS_ERR_NOMEM if it could not. */
ls_status ls_diag_list_push(ls_diag_list *l, const ls_diag *d);

#ifdef __cplusplus
}
#endif
#endif
