/* `lockstep mesa piglit --profile`: piglit's own runner on the virtual R500,
 * with Mesa-CI-style expectations (docs/mesa.md, "piglit's own runner").
 * The command runs `piglit run` under `lockstep mesa exec`; this part of the
 * library holds the logic around it: the expectation files (fails, flakes,
 * skips) as deqp-runner and piglit-runner read them, the shard of the test
 * list (--fraction), the status of each test against its expectation, and the
 * reader of piglit's results (results.json and the runner's per-test files).
 * Never prints. */
#ifndef LOCKSTEP_MESA_PIGLIT_RUNNER_H
#define LOCKSTEP_MESA_PIGLIT_RUNNER_H

#include <stdbool.h>
#include <stddef.h>

#include "lockstep/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A test's status, with deqp-runner's names (its RunnerStatus): the first
 * seven are what a test did (from piglit's result), the last three what that
 * means against the expectation. */
#define MESA_RUNNER_STATUS_LIST(X)                                                  \
    X(PASS, "Pass")                                                                 \
    X(FAIL, "Fail")                                                                 \
    X(SKIP, "Skip")                                                                 \
    X(CRASH, "Crash")                                                               \
    X(TIMEOUT, "Timeout")                                                           \
    X(WARN, "Warn")                                                                 \
    X(MISSING, "Missing")                                                           \
    X(EXPECTED_FAIL, "ExpectedFail")                                                \
    X(UNEXPECTED_PASS, "UnexpectedImprovement")                                     \
    X(FLAKE, "Flake")
#define MESA_RUNNER_ENUM(e, name) MESA_RUNNER_##e,
typedef enum mesa_runner_status { MESA_RUNNER_STATUS_LIST(MESA_RUNNER_ENUM) MESA_RUNNER_NSTATUS } mesa_runner_status;
#undef MESA_RUNNER_ENUM

const char *mesa_runner_status_name(mesa_runner_status s);
/* piglit's result string (pass, fail, skip, crash, timeout, warn, dmesg-warn,
 * dmesg-fail, incomplete, notrun) as a status: dmesg-warn is Warn, dmesg-fail
 * Fail, incomplete Crash (the runner died in it), notrun and anything else
 * Missing. */
mesa_runner_status mesa_runner_status_from_piglit(const char *result);
/* A status as an expectation file spells it: Pass, Fail, Skip, Crash,
 * Timeout, Warn, Missing; ExpectedFail means Fail (a results.csv of a run
 * with expectations); false for anything else. */
bool mesa_runner_status_parse(const char *name, size_t len, mesa_runner_status *out);
/* Success for the run's exit status: Pass, Skip, Warn, ExpectedFail, Flake. */
bool mesa_runner_status_ok(mesa_runner_status s);

/* ---- expectations --------------------------------------------------------- */

/* Expected statuses by test name (a fails file or a run's failures.csv:
 * "name,Status" lines; a run's statuses.csv, every test). */
typedef struct mesa_runner_expect {
    char **name;
    mesa_runner_status *status;
    size_t n, cap;
    bool sorted;
} mesa_runner_expect;
/* Add the lines of text[0..len): "TEST,STATUS[,anything]"; blank lines and
 * lines starting with '#' are ignored; a later line for the same test wins.
 * LS_ERR_PARSE (file:line:col) for a line without a status or with an
 * unknown one, LS_ERR_NOMEM. */
ls_status mesa_runner_expect_add(mesa_runner_expect *e, const char *text, size_t len, const char *file,
                                 ls_diag *d);
/* The expected status of name, or false if the files do not name it. */
bool mesa_runner_expect_get(mesa_runner_expect *e, const char *name, mesa_runner_status *out);
void mesa_runner_expect_free(mesa_runner_expect *e);

/* A list of regular expressions (a skips or flakes file): one per line,
 * POSIX extended syntax, matched anywhere in the test name (as deqp-runner's
 * regex is_match); blank lines and lines starting with '#' are ignored,
 * surrounding blanks trimmed. */
typedef struct mesa_runner_regexes {
    void *re;        /* regex_t[n] */
    char **text;
    size_t n, cap;
} mesa_runner_regexes;
/* LS_ERR_PARSE (file:line:col and regcomp's message) for a bad expression. */
ls_status mesa_runner_regexes_add(mesa_runner_regexes *r, const char *text, size_t len, const char *file,
                                  ls_diag *d);
/* The index of the first expression matching name, or -1. */
long mesa_runner_regexes_match(const mesa_runner_regexes *r, const char *name);
void mesa_runner_regexes_free(mesa_runner_regexes *r);

/* A test name as expectation files and the CSV outputs spell it: piglit's
 * name with every ',' made '-' (piglit-runner's piglit_sanitize_test_name:
 * "formats (fs, arb)" would split a CSV line). In place. */
void mesa_runner_sanitize_name(char *name);

/* The shard: is test k (0-based, in list order) in it? deqp-runner's
 * --fraction N --fraction-start K (K from 1): tests K-1, K-1+N, K-1+2N, ... */
bool mesa_runner_in_shard(size_t k, unsigned fraction, unsigned fraction_start);

/* What a test's status means: actual against the expectation (expected, or
 * Pass when have_expected is false). Equal, or both successes without a
 * failure expected: the actual status (Fail/Crash/Timeout expected and
 * happened: ExpectedFail). A failure expected but Pass, Skip or Warn
 * happened: UnexpectedImprovement. Otherwise the actual status, unless that
 * is not a success and flaky (the test matches a flakes expression): Flake. */
mesa_runner_status mesa_runner_classify(mesa_runner_status actual, bool have_expected,
                                        mesa_runner_status expected, bool flaky);

/* ---- piglit's results ------------------------------------------------------- */

typedef struct mesa_runner_result {
    char *name;
    mesa_runner_status status; /* from piglit's "result" */
    char *piglit;              /* piglit's result string */
    double start, end;         /* "time" (0 if absent) */
} mesa_runner_result;
typedef struct mesa_runner_results {
    mesa_runner_result *r;
    size_t n, cap;
} mesa_runner_results;
/* Read piglit's results JSON text[0..len): a whole results.json (a
 * TestrunResult: its "tests" object) or one of the runner's per-test files
 * (tests/N.json: an object of test name -> TestResult). Each test's "result"
 * string and "time" are appended to out. LS_ERR_PARSE (file:line:col) for
 * bad JSON or a test without a result string. */
ls_status mesa_runner_results_read(const char *text, size_t len, const char *file, mesa_runner_results *out,
                                   ls_diag *d);
void mesa_runner_results_free(mesa_runner_results *r);


/* ---- piglit's runner from the cache ------------------------------------------ */

typedef void (*mesa_runner_note_fn)(void *ctx, const char *message);
/* The cache (mesa_piglit_cache_dir) with piglit's runner: the package is
 * fetched as for the shader_tests (mesa_piglit_cache_ensure), then everything
 * but generated_tests/spec (1.9 GB, fetched per run by
 * mesa_runner_cache_extract) is extracted under cache/runner once: the
 * `piglit` script (cache/runner/usr/bin/piglit), its framework, profiles,
 * test programs and libraries. LS_ERR_IO with what to do when a step fails. */
ls_status mesa_runner_cache_ensure(const char *cache, mesa_runner_note_fn note, void *ctx, ls_diag *d);
/* Extract the files paths[0..n) (relative to piglit's directory,
 * "generated_tests/spec/...") that cache/runner lacks, in one pass over the
 * package. *extracted counts them. */
ls_status mesa_runner_cache_extract(const char *cache, const char *const *paths, size_t n, size_t *extracted,
                                    mesa_runner_note_fn note, void *ctx, ls_diag *d);
/* piglit's directory in the cache: cache/runner/usr/lib/x86_64-linux-gnu/piglit
 * (the architecture is the package's). */
void mesa_runner_piglit_dir(const char *cache, char *out, size_t n);

#ifdef __cplusplus
}
#endif
#endif
