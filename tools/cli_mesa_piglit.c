/* `lockstep mesa piglit [FILTER]...`: run Debian's piglit GLSL 1.10/1.20
 * execution shader_tests through Mesa's r300 compiler (under the fake-device
 * shim) and lockstep, and check each test's own probes (docs/mesa.md
 * "piglit"). The tests come from the `piglit` .deb, cached by the library
 * (mesa_piglit_cache_ensure, mesa_piglit_tests_select); this file parses,
 * calls and prints. */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "lockstep/mesa_piglit.h"
#include "lockstep/mesa_piglit_run.h"

typedef mesa_piglit_result result;
enum { RES_PASS = MESA_PIGLIT_PASS, RES_FAIL = MESA_PIGLIT_FAIL, RES_SKIP = MESA_PIGLIT_SKIP };

static const char *const result_name[] = {"PASS", "FAIL", "SKIP"};

/* ---- the command -------------------------------------------------------- */

/* The library's note before a long step (fetching, extracting): stderr. */
static void note(void *ctx, const char *message)
{
    fprintf(stderr, "%s: %s\n", ((cli_args *)ctx)->prog, message);
}

static double wall_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* One result line per test as it is known: data, on stdout (stderr when the
 * JSON goes to stdout); the progress line gives way to it. */
typedef struct show_ctx {
    FILE *lines;
    size_t *count;
    const char **names;
    cli_progress prog;
} show_ctx;
static void show_result(void *ctx, size_t k, const result *r)
{
    show_ctx *s = ctx;
    if (s->prog.on)
        fprintf(stderr, "\r\033[K");
    s->count[r->kind]++;
    fprintf(s->lines, "%s  %s%s%s%s%s\n", result_name[r->kind], s->names[k], r->reason[0] ? "  " : "",
            r->reason, r->fc_issued ? "  [FC]" : "",
            r->llvmpipe < 0    ? ""
            : r->llvmpipe == 2 ? "  (llvmpipe: fails to run too)"
            : r->llvmpipe      ? "  (llvmpipe: pass)"
                               : "  (llvmpipe: fail)");
    fflush(s->lines);
    cli_progress_update(&s->prog, k + 1);
}

int cli_mesa_piglit(cli_args *a)
{
    if (cli_get(a, "profile"))
        return cli_mesa_piglit_runner(a); /* piglit's own runner: cli_mesa_piglit_runner.c */
    if (cli_get(a, "model"))
        return cli_usage(a, "--model belongs to --profile (piglit's runner on the live device)");
    mesa_piglit_config o;
    memset(&o, 0, sizeof o);
    char shim[PATH_MAX], gl[PATH_MAX];
    o.chip = cli_get(a, "chip") ? cli_get(a, "chip") : "rv530";
    o.llvmpipe = cli_flag(a, "llvmpipe");
    o.keep = cli_get(a, "keep");
    o.no_keep = cli_flag(a, "no-keep");
    o.shim = shim;
    o.gl = gl;
    const char *json = cli_get(a, "json");
    bool list = cli_flag(a, "list");
    long jobs = 1;
    char drivers[PATH_MAX];
    int rc = cli_opt_long(a, "workers", 1, 64, &jobs);
    if (!rc)
        rc = cli_mesa_drivers(a, drivers, sizeof drivers);
    o.drivers = drivers;
    if (rc || (rc = cli_mesa_check_chip(a, o.chip)))
        return rc;
    const char **filters = calloc(a->nops + 1, sizeof *filters);
    const char **files = calloc(a->nops + 1, sizeof *files);
    size_t nf = 0, nfiles = 0;
    if (!filters || !files) {
        free(filters);
        free(files);
        return cli_err(a, CLI_INTERNAL, "out of memory");
    }
    for (size_t i = 0; i < a->nops; i++) {
        size_t l = strlen(a->ops[i]);
        if (l > 12 && !strcmp(a->ops[i] + l - 12, ".shader_test"))
            files[nfiles++] = a->ops[i]; /* a file of the user's, run as given */
        else
            filters[nf++] = a->ops[i];
    }
    char cache[PATH_MAX];
    mesa_piglit_cache_dir(cli_get(a, "cache"), cache, sizeof cache);
    char tree[PATH_MAX + 8];
    snprintf(tree, sizeof tree, "%s/tree", cache);
    for (size_t k = 0; k < nfiles; k++)
        if (access(files[k], R_OK)) {
            int rc2 = cli_err(a, CLI_INPUT, "cannot read %s: %s", files[k], strerror(errno));
            free(filters);
            free(files);
            return rc2;
        }
    if (!list && (!cli_mesa_find_helper("LOCKSTEP_MESA_SHIM", "liblockstep_r300_shim.so", shim,
                                        sizeof shim) ||
                  !cli_mesa_find_helper("LOCKSTEP_MESA_GL", "lockstep-mesa-gl", gl, sizeof gl))) {
        free(filters);
        free(files);
        return cli_err(a, CLI_UNAVAILABLE, "the r300 shim is not built (install libdrm-dev libegl-dev "
                                           "libgl-dev and reconfigure; docs/mesa.md)");
    }
    ls_diag d;
    ls_diag_clear(&d);
    bool use_tree = nfiles == 0 || nf > 0;
    if (use_tree && mesa_piglit_cache_ensure(cache, note, a, &d) != LS_OK) {
        cli_report(a, &d);
        free(filters);
        free(files);
        return CLI_UNAVAILABLE;
    }
    mesa_piglit_tests tl;
    if (mesa_piglit_tests_select(files, nfiles, use_tree ? tree : NULL, filters, nf, &tl, &d) != LS_OK) {
        free(filters);
        free(files);
        cli_report(a, &d);
        return d.status == LS_ERR_NOMEM ? CLI_INTERNAL : CLI_INPUT; /* unreadable, unlistable or none selected */
    }
    size_t nsel = tl.n;
    if (list) {
        for (size_t k = 0; k < nsel; k++)
            printf("%s\n", tl.name[k]);
    } else {
        FILE *jf = !json ? NULL : strcmp(json, "-") ? fopen(json, "w") : stdout;
        bool json_failed = json && !jf;
        if (json_failed)
            cli_err(a, CLI_OUTPUT, "cannot write %s: %s", json, strerror(errno));
        double run_start = wall_now();
        FILE *lines = jf == stdout ? stderr : stdout;
        size_t count[3] = {0, 0, 0};
        result *res = calloc(nsel, sizeof *res);
        const char **paths = calloc(nsel, sizeof *paths), **names = calloc(nsel, sizeof *names);
        for (size_t k = 0; paths && names && k < nsel; k++) {
            paths[k] = tl.path[k];
            names[k] = tl.name[k];
        }
        show_ctx sc = {lines, count, names, {0}};
        cli_progress_start(&sc.prog, nsel, "piglit tests");
        cli_progress_update(&sc.prog, 0);
        if (res && paths && names &&
            mesa_piglit_run_tests(&o, paths, names, nsel, (unsigned)jobs, res, show_result, &sc, &d) != LS_OK) {
            cli_report(a, &d);
            free(res);
            res = NULL;
        }
        cli_progress_end(&sc.prog);
        free(paths);
        free(names);
        if (jf && res) {
            /* piglit's own results format (src/mesa/piglit_results.c) */
            static const char *const lower[] = {"pass", "fail", "skip"};
            piglit_result *pr = calloc(nsel, sizeof *pr);
            char (*cmd)[PATH_MAX + 32] = calloc(nsel, sizeof *cmd);
            for (size_t k = 0; pr && cmd && k < nsel; k++) {
                snprintf(cmd[k], sizeof cmd[k], "lockstep mesa piglit %s", tl.path[k]);
                pr[k] = (piglit_result){.name = tl.name[k], .result = lower[res[k].kind],
                                        .out = res[k].reason, .skip_key = res[k].key,
                                        .command = cmd[k], .start = res[k].start,
                                        .end = res[k].end, .fc_issued = res[k].fc_issued,
                                        .llvmpipe = res[k].llvmpipe};
            }
            ls_buf jb;
            ls_buf_init(&jb);
            if (pr && cmd)
                piglit_results_write_json(pr, nsel, "lockstep-r300", run_start, wall_now(), &jb);
            if (!pr || !cmd || jb.oom || fwrite(jb.data, 1, jb.len, jf) != jb.len) {
                cli_err(a, CLI_OUTPUT, "cannot write %s", json);
                json_failed = true;
            }
            ls_buf_free(&jb);
            free(pr);
            free(cmd);
        }
        if (jf && (jf == stdout ? fflush(jf) != 0 : fclose(jf) != 0) && !json_failed) {
            cli_err(a, CLI_OUTPUT, "cannot write %s: %s", json, strerror(errno));
            json_failed = true;
        }
        /* summary (stderr): counts, skip reasons grouped */
        size_t fc_run = 0, fc_pass = 0;
        for (size_t k = 0; res && k < nsel; k++) {
            fc_run += res[k].fc_issued > 0;
            fc_pass += res[k].fc_issued > 0 && res[k].kind == MESA_PIGLIT_PASS;
        }
        fprintf(stderr, "\n%zu tests: %zu pass, %zu fail, %zu skip\n", nsel, count[RES_PASS],
                count[RES_FAIL], count[RES_SKIP]);
        fprintf(stderr, "%zu of the tests that ran issued R500 flow-control instructions ([FC]); %zu of "
                        "them pass\n", fc_run, fc_pass);
        if (res && count[RES_SKIP]) {
            fprintf(stderr, "skips by reason:\n");
            mesa_piglit_group *g = calloc(nsel, sizeof *g);
            size_t ng = g ? mesa_piglit_skip_groups(res, nsel, g) : 0;
            for (size_t k = 0; k < ng; k++) {
                const result *f = &res[g[k].first];
                fprintf(stderr, "  %5zu  %s (e.g. %s)\n", g[k].count, f->key[0] ? f->key : f->reason, f->reason);
            }
            free(g);
        }
        rc = !res ? CLI_INTERNAL : json_failed ? CLI_OUTPUT : count[RES_FAIL] ? CLI_MISMATCH : CLI_OK;
        free(res);
    }
    mesa_piglit_tests_free(&tl);
    free(filters);
    free(files);
    return rc;
}
