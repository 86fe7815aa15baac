/* Running many piglit tests (include/lockstep/mesa_piglit_run.h): forked
 * workers, results in test order, a worker's crash confined to its test; and
 * the skips grouped by their kind of reason. What `lockstep mesa piglit`
 * schedules (docs/mesa.md, "lockstep mesa piglit"). */
#define _GNU_SOURCE 1
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lockstep/mesa_piglit_run.h"

enum { MAX_WORKERS = 64 };

ls_status mesa_piglit_run_tests(const mesa_piglit_config *c, const char *const *paths,
                                const char *const *names, size_t n, unsigned workers,
                                mesa_piglit_result *res, mesa_piglit_done_fn done, void *ctx,
                                ls_diag *d)
{
    if (n == 0)
        return LS_OK;
    if (workers > MAX_WORKERS)
        workers = MAX_WORKERS;
    /* Results live in shared memory: with N workers, worker w runs the tests
     * k = w (mod N) and this process hands them out in order as they finish. */
    mesa_piglit_result *sh =
        mmap(NULL, n * sizeof *sh, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (sh == MAP_FAILED)
        return ls_diag_set(d, LS_ERR_NOMEM, NULL, 0, 0, "cannot map memory for %zu results", n);
    pid_t pids[MAX_WORKERS];
    bool exited[MAX_WORKERS] = {false}, crash_reported[MAX_WORKERS] = {false};
    unsigned nw = 0;
    for (unsigned w = 0; workers > 1 && w < workers; w++) {
        pid_t pid = fork();
        if (pid == 0) {
            for (size_t k = w; k < n; k += workers) {
                mesa_piglit_run_test(c, paths[k], names[k], &sh[k]);
                __atomic_store_n(&sh[k].done, 1, __ATOMIC_RELEASE);
            }
            _exit(0);
        }
        if (pid < 0)
            break;
        pids[nw++] = pid;
    }
    if (nw && nw < workers) {
        /* a fork failed: the tests of the missing workers would never run */
        for (unsigned w = 0; w < nw; w++)
            kill(pids[w], SIGKILL), waitpid(pids[w], NULL, 0);
        memset(sh, 0, n * sizeof *sh);
        nw = 0;
    }
    for (size_t k = 0; k < n; k++) {
        if (!nw) {
            mesa_piglit_run_test(c, paths[k], names[k], &sh[k]);
        } else {
            unsigned owner = (unsigned)(k % nw);
            while (!__atomic_load_n(&sh[k].done, __ATOMIC_ACQUIRE)) {
                pid_t p = waitpid(-1, NULL, WNOHANG);
                for (unsigned j = 0; p > 0 && j < nw; j++)
                    if (pids[j] == p)
                        exited[j] = true;
                if (exited[owner] && !__atomic_load_n(&sh[k].done, __ATOMIC_ACQUIRE)) {
                    /* its worker is gone without finishing it: the first such
                     * test is the one it crashed on; this process runs the rest */
                    if (!crash_reported[owner]) {
                        crash_reported[owner] = true;
                        memset(&sh[k], 0, sizeof sh[k]);
                        sh[k].kind = MESA_PIGLIT_FAIL;
                        sh[k].llvmpipe = -1;
                        snprintf(sh[k].reason, sizeof sh[k].reason,
                                 "harness: the worker crashed while running this test");
                    } else {
                        mesa_piglit_run_test(c, paths[k], names[k], &sh[k]);
                    }
                    break;
                }
                usleep(2000);
            }
        }
        res[k] = sh[k];
        if (done)
            done(ctx, k, &res[k]);
    }
    for (unsigned w = 0; w < nw; w++)
        if (!exited[w])
            waitpid(pids[w], NULL, 0);
    munmap(sh, n * sizeof *sh);
    return LS_OK;
}

size_t mesa_piglit_skip_groups(const mesa_piglit_result *res, size_t n, mesa_piglit_group *groups)
{
    size_t ng = 0;
    for (size_t k = 0; k < n; k++) {
        if (res[k].kind != MESA_PIGLIT_SKIP)
            continue;
        /* grouped by the kind of reason (a stable key, not the text) */
        const char *key = res[k].key[0] ? res[k].key : res[k].reason;
        size_t g = 0;
        for (; g < ng; g++) {
            const mesa_piglit_result *f = &res[groups[g].first];
            if (!strcmp(key, f->key[0] ? f->key : f->reason))
                break;
        }
        if (g == ng)
            groups[ng++] = (mesa_piglit_group){k, 0};
        groups[g].count++;
    }
    return ng;
}
