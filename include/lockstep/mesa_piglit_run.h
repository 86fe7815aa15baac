/* Running one piglit shader_test through Mesa's r300 and lockstep
 * (docs/mesa.md "piglit"): the harness `lockstep mesa piglit` drives, for
 * any front end. It starts the GL program (lockstep-mesa-gl) under the
 * fake-device shim, decodes what r300 submits, runs every draw on lockstep
 * and evaluates the test's probes. Never prints. */
#ifndef LOCKSTEP_MESA_PIGLIT_RUN_H
#define LOCKSTEP_MESA_PIGLIT_RUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lockstep/status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum mesa_piglit_verdict {
    MESA_PIGLIT_PASS,
    MESA_PIGLIT_FAIL,
    MESA_PIGLIT_SKIP,
} mesa_piglit_verdict;

typedef struct mesa_piglit_result {
    mesa_piglit_verdict kind;
    char reason[600];   /* why it failed or was skipped ("" for a pass) */
    char key[320];      /* a skip's kind of reason, stable across tests (groups a summary) */
    double start, end;  /* wall clock, seconds since the epoch (piglit's results "time") */
    int llvmpipe;       /* -1 not run / no final probe, 0 llvmpipe's image fails the probes,
                         * 1 passes, 2 the program failed or crashed on llvmpipe too */
    uint64_t fc_issued; /* R500 flow-control instructions issued over all draws */
    int done;           /* set last by whoever ran it (for a parent polling workers) */
} mesa_piglit_result;

typedef struct mesa_piglit_config {
    const char *chip;   /* LOCKSTEP_SHIM_CHIP (rv515, r520, rv530, r580, PCI id) */
    bool llvmpipe;      /* also evaluate the final probes on llvmpipe's image */
    const char *keep;   /* move failing tests' captures under this directory, or NULL */
    bool no_keep;       /* without keep: delete even the captures a failure's reason cites
                         * (by default a failure citing its r300.log keeps it in place) */
    const char *shim;   /* liblockstep_r300_shim.so */
    const char *gl;     /* lockstep-mesa-gl */
    const char *drivers; /* LIBGL_DRIVERS_PATH of the r300 runs (mesa_r300_drivers); NULL or "":
                          * the system's; llvmpipe always runs the system's */
} mesa_piglit_config;

/* Run the shader_test at path (name: how the result names it). The
 * temporary directory ($TMPDIR or /tmp) is removed unless kept. */
void mesa_piglit_run_test(const mesa_piglit_config *c, const char *path, const char *name,
                          mesa_piglit_result *res);

/* mkdir -p; 0 or -1 (errno set). */
int mesa_piglit_make_dirs(const char *path);

/* Run tests paths[0..n) (names[k] names test k in its result) into
 * res[0..n): with workers > 1 in that many forked processes (worker w runs the
 * tests k = w mod workers), else in this process. done(ctx, k, &res[k]), if
 * not NULL, is called in this process for k = 0, 1, ... in order, as each
 * result is known. A worker that dies mid-test fails that test ("harness:
 * the worker crashed while running this test") and this process runs the
 * rest of its tests. LS_ERR_NOMEM if the shared results cannot be mapped. */
typedef void (*mesa_piglit_done_fn)(void *ctx, size_t k, const mesa_piglit_result *r);
ls_status mesa_piglit_run_tests(const mesa_piglit_config *c, const char *const *paths,
                                const char *const *names, size_t n, unsigned workers,
                                mesa_piglit_result *res, mesa_piglit_done_fn done, void *ctx,
                                ls_diag *d);

/* The skips of res[0..n) grouped by their kind of reason (key, else the
 * reason text), in order of first appearance: each group's first test and
 * count. groups holds up to n entries; returns the number of groups. */
typedef struct mesa_piglit_group {
    size_t first, count;
} mesa_piglit_group;
size_t mesa_piglit_skip_groups(const mesa_piglit_result *res, size_t n, mesa_piglit_group *groups);

/* ---- the tests: Debian's piglit package, cached (docs/mesa.md "piglit") ---- */

/* The cache directory: given (--cache) if not NULL, else $LOCKSTEP_PIGLIT_CACHE,
 * else $HOME/.cache/lockstep/piglit (/tmp/.cache/... without $HOME). */
void mesa_piglit_cache_dir(const char *given, char *out, size_t n);

/* Fill the cache on first use: `apt-get download piglit` into cache (unless a
 * piglit_*.deb is there) and its GLSL 1.10/1.20 execution shader_tests
 * extracted under cache/tree (dpkg-deb | tar); a stamp file marks it done.
 * note(ctx, message), if not NULL, is told before each long step. LS_ERR_IO
 * with a diagnostic saying what to do when a step fails. */
typedef void (*mesa_piglit_note_fn)(void *ctx, const char *message);
ls_status mesa_piglit_cache_ensure(const char *cache, mesa_piglit_note_fn note, void *ctx, ls_diag *d);

/* A list of tests: path of the .shader_test and its name. */
typedef struct mesa_piglit_tests {
    char **path, **name;
    size_t n, cap;
} mesa_piglit_tests;
void mesa_piglit_tests_free(mesa_piglit_tests *t);

/* The tests to run, sorted by name: the user's files[0..nfiles) (named by
 * their path, all selected), then, when tree is not NULL, every .shader_test
 * under tree (named from spec/ on without the suffix,
 * glsl-1.10/execution/loops/glsl-fs-loop-300) whose name contains one of
 * filters[0..nf) (all when nf == 0). LS_ERR_IO if a file is unreadable or the
 * tree cannot be listed, LS_ERR_ARG if nothing is selected. */
ls_status mesa_piglit_tests_select(const char *const *files, size_t nfiles, const char *tree,
                                   const char *const *filters, size_t nf, mesa_piglit_tests *out,
                                   ls_diag *d);

#ifdef __cplusplus
}
#endif
#endif
