/* Shared helpers of the lockstep command-line tool. Only tools/ prints. */
#ifndef LOCKSTEP_CLI_H
#define LOCKSTEP_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "base/buf.h"
#include "lockstep/status.h"

/* Exit statuses: 0 success, 1 failure of the job (fault, mismatch, bad input),
 * 2 usage error. */
enum { CLI_OK = 0, CLI_FAIL = 1, CLI_USAGE = 2 };

/* Print "lockstep: <diag>" (one line) to stderr; with source_line/col, also the
 * line and a caret. Returns CLI_FAIL. */
int cli_report(const ls_diag *d);
/* Print "lockstep: error: <msg>" and return CLI_USAGE. */
int cli_usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Write a buffer to a file ("-" = stdout). Returns CLI_OK or reports. */
int cli_write_file(const char *path, const ls_buf *b);

/* Parse helpers for option values; return false on malformed input. */
bool cli_parse_int(const char *s, long lo, long hi, long *out);
bool cli_parse_size(const char *s, int *w, int *h); /* "WxH" */
/* Comma-separated floats; returns the count parsed, or -1 if malformed. */
int cli_parse_floats(const char *s, float *out, int max);

/* Sub-command entry points (argv[0] is the sub-command name). */
int cli_r500(int argc, char **argv);
int cli_r500_run(int argc, char **argv);
int cli_r500_asm(int argc, char **argv);
int cli_r500_dis(int argc, char **argv);
/* Load .bin / hex-text instruction words (count = instructions); reports errors. */
int cli_r500_load_words(const char *path, uint32_t **words, size_t *count);
/* Print every diagnostic of a list (with source line and caret); returns CLI_FAIL. */
int cli_r500_report_list(const ls_diag_list *errs);
int cli_pp5(int argc, char **argv);
int cli_pp5_render(int argc, char **argv);
int cli_mesa(int argc, char **argv);
int cli_mesa_piglit(int argc, char **argv);
int cli_mesa_fuzz(int argc, char **argv);
/* The r300 driver directory: `--mesa-drivers DIR` (opt), else
 * $LIBGL_DRIVERS_PATH, else "" (the system's). false (why filled) when the
 * directory has no r300_dri.so. */
bool cli_mesa_drivers(const char *opt, char *out, size_t n, char *why, size_t wn);
/* Where the shim / GL program are: $env, else beside the lockstep binary in a
 * build tree (../src/mesa/NAME). */
bool cli_mesa_find_helper(const char *env, const char *name, char *out, size_t n);

#endif
