/* `lockstep mesa piglit [FILTER]...`: run Debian's piglit GLSL 1.10/1.20
 * execution shader_tests through Mesa's r300 compiler (under the fake-device
 * shim) and lockstep, and check each test's own probes (docs/mesa.md
 * "piglit"). The tests come from the `piglit` .deb, fetched once with
 * `apt-get download` into a cache and extracted with dpkg-deb | tar. */
#define _GNU_SOURCE 1 /* qsort_r */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "lockstep/mesa_piglit.h"
#include "lockstep/mesa_piglit_run.h"

typedef mesa_piglit_result result;
enum { RES_PASS = MESA_PIGLIT_PASS, RES_FAIL = MESA_PIGLIT_FAIL, RES_SKIP = MESA_PIGLIT_SKIP };

static const char *const result_name[] = {"PASS", "FAIL", "SKIP"};

/* ---- the test cache ----------------------------------------------------- */


/* Fill the cache on first use: the piglit .deb and its GLSL 1.10/1.20
 * execution shader_tests under CACHE/tree. */
static int ensure_cache(cli_args *a, const char *cache)
{
    char stamp[PATH_MAX + 32], tree[PATH_MAX + 32];
    snprintf(stamp, sizeof stamp, "%s/extracted.stamp", cache);
    snprintf(tree, sizeof tree, "%s/tree", cache);
    if (access(stamp, R_OK) == 0)
        return CLI_OK;
    if (mesa_piglit_make_dirs(cache))
        return cli_err(a, CLI_UNAVAILABLE, "cannot create the piglit cache %s: %s", cache, strerror(errno));
    char deb[2 * PATH_MAX] = "";
    DIR *dd = opendir(cache);
    for (struct dirent *e; dd && (e = readdir(dd));)
        if (!strncmp(e->d_name, "piglit_", 7) && strstr(e->d_name, ".deb"))
            snprintf(deb, sizeof deb, "%s/%s", cache, e->d_name);
    if (dd)
        closedir(dd);
    if (!deb[0]) {
        fprintf(stderr, "%s: fetching Debian's piglit package into %s (apt-get download piglit, ~34 MB)\n",
                a->prog, cache);
        char cmd[PATH_MAX + 128];
        snprintf(cmd, sizeof cmd, "cd '%s' && apt-get download -q piglit >&2", cache);
        if (strchr(cache, '\'') || system(cmd) != 0)
            return cli_err(a, CLI_UNAVAILABLE, "could not download piglit; run `cd %s && apt-get download "
                                   "piglit` (needs Debian's package archive) and retry",
                                   cache);
        dd = opendir(cache);
        for (struct dirent *e; dd && (e = readdir(dd));)
            if (!strncmp(e->d_name, "piglit_", 7) && strstr(e->d_name, ".deb"))
                snprintf(deb, sizeof deb, "%s/%s", cache, e->d_name);
        if (dd)
            closedir(dd);
        if (!deb[0])
            return cli_err(a, CLI_UNAVAILABLE, "apt-get download left no piglit_*.deb in %s", cache);
    }
    fprintf(stderr, "%s: extracting the GLSL 1.10/1.20 execution tests from %s\n", a->prog, deb);
    if (mesa_piglit_make_dirs(tree))
        return cli_err(a, CLI_UNAVAILABLE, "cannot create %s", tree);
    char cmd[3 * PATH_MAX + 256];
    snprintf(cmd, sizeof cmd,
             "dpkg-deb --fsys-tarfile '%s' | tar -x -C '%s' --wildcards "
             "'*/spec/glsl-1.10/execution/*.shader_test' '*/spec/glsl-1.20/execution/*.shader_test'",
             deb, tree);
    if (strchr(deb, '\'') || strchr(tree, '\'') || system(cmd) != 0)
        return cli_err(a, CLI_UNAVAILABLE, "extracting %s failed (needs dpkg-deb and tar)", deb);
    FILE *f = fopen(stamp, "w");
    if (f)
        fclose(f);
    return CLI_OK;
}

/* ---- test list ---------------------------------------------------------- */

typedef struct test_list {
    char **path, **name;
    size_t n, cap;
} test_list;

/* Append (path, the first name_len bytes of name). */
static bool push_test(test_list *t, const char *path, const char *name, size_t name_len)
{
    if (t->n == t->cap) {
        size_t nc = t->cap ? 2 * t->cap : 1024;
        char **a = realloc(t->path, nc * sizeof *a);
        if (!a)
            return false;
        t->path = a;
        char **b = realloc(t->name, nc * sizeof *b);
        if (!b)
            return false;
        t->name = b;
        t->cap = nc;
    }
    char *pd = strdup(path), *nd = strndup(name, name_len);
    if (!pd || !nd) {
        free(pd);
        free(nd);
        return false;
    }
    t->path[t->n] = pd;
    t->name[t->n++] = nd;
    return true;
}

static void test_list_free(test_list *t)
{
    for (size_t i = 0; i < t->n; i++)
        free(t->path[i]), free(t->name[i]);
    free(t->path);
    free(t->name);
    memset(t, 0, sizeof *t);
}

/* A piglit test under the cache: its name is the path from spec/ on, without
 * the suffix (glsl-1.10/execution/loops/glsl-fs-loop-300). */
static bool add_test(test_list *t, const char *p)
{
    size_t l = strlen(p);
    const char *spec = strstr(p, "/spec/glsl-1.");
    if (l < 12 || strcmp(p + l - 12, ".shader_test") || !spec)
        return true;
    return push_test(t, p, spec + 6, strlen(spec + 6) - 12);
}

/* A shader_test named on the command line: its name is its path. */
static bool add_file(test_list *t, const char *p) { return push_test(t, p, p, strlen(p)); }

/* Every .shader_test under dir (recursively). */
static bool collect(test_list *t, const char *dir, int depth)
{
    DIR *dd = opendir(dir);
    if (!dd)
        return false;
    bool ok = true;
    for (struct dirent *e; ok && (e = readdir(dd));) {
        if (e->d_name[0] == '.')
            continue;
        char p[PATH_MAX];
        if (snprintf(p, sizeof p, "%s/%s", dir, e->d_name) >= (int)sizeof p)
            continue;
        struct stat sb;
        if (lstat(p, &sb))
            continue;
        if (S_ISDIR(sb.st_mode) && depth < 32)
            ok = collect(t, p, depth + 1);
        else if (S_ISREG(sb.st_mode))
            ok = add_test(t, p);
    }
    closedir(dd);
    return ok;
}

static int cmp_index_by_name(const void *a, const void *b, void *ctx)
{
    char **names = ctx;
    return strcmp(names[*(const size_t *)a], names[*(const size_t *)b]);
}

/* ---- the command -------------------------------------------------------- */

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
    const char *env = getenv("LOCKSTEP_PIGLIT_CACHE"), *home = getenv("HOME");
    if (cli_get(a, "cache"))
        snprintf(cache, sizeof cache, "%s", cli_get(a, "cache"));
    else if (env && *env)
        snprintf(cache, sizeof cache, "%s", env);
    else
        snprintf(cache, sizeof cache, "%s/.cache/lockstep/piglit", home && *home ? home : "/tmp");
    test_list tl = {0};
    int wr = 0;
    char tree[PATH_MAX + 8];
    snprintf(tree, sizeof tree, "%s/tree", cache);
    for (size_t k = 0; k < nfiles; k++) {
        if (access(files[k], R_OK)) {
            rc = cli_err(a, CLI_INPUT, "cannot read %s: %s", files[k], strerror(errno));
            test_list_free(&tl);
            free(filters);
            free(files);
            return rc;
        }
        if (!add_file(&tl, files[k]))
            wr = -1;
    }
    if (!list && (!cli_mesa_find_helper("LOCKSTEP_MESA_SHIM", "liblockstep_r300_shim.so", shim,
                                        sizeof shim) ||
                  !cli_mesa_find_helper("LOCKSTEP_MESA_GL", "lockstep-mesa-gl", gl, sizeof gl))) {
        test_list_free(&tl);
        free(filters);
        free(files);
        return cli_err(a, CLI_UNAVAILABLE, "the r300 shim is not built (install libdrm-dev libegl-dev "
                                           "libgl-dev and reconfigure; docs/mesa.md)");
    }
    if (nfiles == 0 || nf > 0) {
        rc = ensure_cache(a, cache);
        if (rc != CLI_OK) {
            test_list_free(&tl);
            free(filters);
            free(files);
            return rc;
        }
        if (!collect(&tl, tree, 0))
            wr = -1;
    }
    size_t *order = malloc((tl.n + 1) * sizeof *order), nsel = 0;
    for (size_t i = 0; order && i < tl.n; i++) {
        bool sel = nf == 0 || i < nfiles;
        for (size_t k = 0; k < nf && !sel; k++)
            sel = strstr(tl.name[i], filters[k]) != NULL;
        if (sel)
            order[nsel++] = i;
    }
    if (order)
        qsort_r(order, nsel, sizeof *order, cmp_index_by_name, tl.name);
    if (wr != 0 || !order) {
        rc = cli_err(a, CLI_INPUT, "cannot list the tests under %s", tree);
    } else if (nsel == 0) {
        rc = cli_err(a, CLI_INPUT, "no piglit test matches the filter (%zu tests in %s)", tl.n, tree);
    } else if (list) {
        for (size_t k = 0; k < nsel; k++)
            printf("%s\n", tl.name[order[k]]);
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
            paths[k] = tl.path[order[k]];
            names[k] = tl.name[order[k]];
        }
        show_ctx sc = {lines, count, names, {0}};
        cli_progress_start(&sc.prog, nsel, "piglit tests");
        cli_progress_update(&sc.prog, 0);
        ls_diag d;
        ls_diag_clear(&d);
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
                snprintf(cmd[k], sizeof cmd[k], "lockstep mesa piglit %s", tl.path[order[k]]);
                pr[k] = (piglit_result){.name = tl.name[order[k]], .result = lower[res[k].kind],
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
    test_list_free(&tl);
    free(order);
    free(filters);
    free(files);
    return rc;
}
