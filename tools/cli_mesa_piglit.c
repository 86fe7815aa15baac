/* `lockstep mesa piglit [FILTER]...`: run Debian's piglit GLSL 1.10/1.20
 * execution shader_tests through Mesa's r300 compiler (under the fake-device
 * shim) and lockstep, and check each test's own probes (docs/mesa.md
 * "piglit"). The tests come from the `piglit` .deb, fetched once with
 * `apt-get download` into a cache and extracted with dpkg-deb | tar. */
#define _GNU_SOURCE 1 /* nftw, qsort_r */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "io/image.h"
#include "lockstep/mesa_cs.h"
#include "lockstep/mesa_piglit.h"
#include "lockstep/r500.h"

extern char **environ;

typedef enum { RES_PASS, RES_FAIL, RES_SKIP } result_kind;
static const char *const result_name[] = {"PASS", "FAIL", "SKIP"};

typedef struct result {
    result_kind kind;
    char reason[600];
    char key[320];      /* a skip's kind of reason, stable across tests (groups the summary) */
    double start, end;  /* wall clock, for the piglit results file */
    int llvmpipe; /* -1 not run / no final probe, 0 its image fails the probes, 1 passes,
                   * 2 the program failed or crashed on llvmpipe too */
    uint64_t fc_issued; /* R500 flow-control instructions issued over all draws */
    int done;           /* set last by the worker that ran it (-j) */
} result;

typedef struct options {
    const char *cache;
    const char *chip;
    bool llvmpipe;
    const char *keep;     /* keep failing tests' captures under this directory */
    bool no_keep;         /* --no-keep: delete failing tests' captures (the logs they cite) */
    const char *json;
    char shim[PATH_MAX], gl[PATH_MAX];
    char drivers[PATH_MAX]; /* r300_dri.so directory ("" = system); llvmpipe stays the system's */
} options;

/* ---- processes ---------------------------------------------------------- */

/* Run argv with extra environment entries, stdout and stderr to log
 * (appended). Returns the exit status, 128 + signal, or -1. */
static int spawn_wait(char *const argv[], char *const extra_env[], const char *log)
{
    /* The inherited environment minus what would change which driver runs or
     * how (ld.so honours the last LD_PRELOAD; a parent's LIBGL_ALWAYS_SOFTWARE
     * would silently bypass the shim), then ours. */
    static const char *const drop[] = {"LD_PRELOAD=", "LIBGL_ALWAYS_SOFTWARE=", "GALLIUM_DRIVER=",
                                       "MESA_LOADER_DRIVER_OVERRIDE=", "LOCKSTEP_SHIM_",
                                       "LIBGL_DRIVERS_PATH=", NULL};
    size_t n = 0, k = 0;
    while (environ[n])
        n++;
    for (; extra_env && extra_env[k]; k++)
        ;
    char **env = malloc((n + k + 1) * sizeof *env);
    if (!env)
        return -1;
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        bool keep = true;
        for (const char *const *dp = drop; *dp && keep; dp++)
            keep = strncmp(environ[i], *dp, strlen(*dp)) != 0;
        if (keep)
            env[m++] = environ[i];
    }
    for (size_t i = 0; i < k; i++)
        env[m++] = extra_env[i];
    env[m] = NULL;
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    if (log) {
        posix_spawn_file_actions_addopen(&fa, 1, log, O_WRONLY | O_CREAT | O_APPEND, 0644);
        posix_spawn_file_actions_adddup2(&fa, 1, 2);
    }
    pid_t pid;
    int rc = posix_spawnp(&pid, argv[0], &fa, NULL, argv, env);
    posix_spawn_file_actions_destroy(&fa);
    free(env);
    if (rc != 0)
        return -1;
    int status;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR)
            return -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}

static int rm_entry(const char *p, const struct stat *sb, int flag, struct FTW *ftw)
{
    (void)sb, (void)flag, (void)ftw;
    return remove(p);
}

static void rm_tree(const char *dir) { nftw(dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS); }

/* First line of log starting with one of the prefixes (without newline). */
static bool log_line(const char *log, const char *const *prefixes, char *out, size_t n)
{
    FILE *f = fopen(log, "r");
    if (!f)
        return false;
    char line[1024];
    bool found = false;
    while (!found && fgets(line, sizeof line, f)) {
        for (const char *const *p = prefixes; *p && !found; p++) {
            const char *at = strstr(line, *p);
            if (at) {
                line[strcspn(line, "\n")] = 0;
                snprintf(out, n, "%s", at);
                found = true;
            }
        }
    }
    fclose(f);
    return found;
}

/* ---- the test cache ----------------------------------------------------- */

static int make_dirs(const char *path)
{
    char tmp[PATH_MAX];
    snprintf(tmp, sizeof tmp, "%s", path);
    for (char *p = tmp + 1; *p; p++)
        if (*p == '/') {
            *p = 0;
            if (mkdir(tmp, 0755) && errno != EEXIST)
                return -1;
            *p = '/';
        }
    return mkdir(tmp, 0755) && errno != EEXIST ? -1 : 0;
}

/* Fill the cache on first use: the piglit .deb and its GLSL 1.10/1.20
 * execution shader_tests under CACHE/tree. */
static int ensure_cache(const char *cache)
{
    char stamp[PATH_MAX + 32], tree[PATH_MAX + 32];
    snprintf(stamp, sizeof stamp, "%s/extracted.stamp", cache);
    snprintf(tree, sizeof tree, "%s/tree", cache);
    if (access(stamp, R_OK) == 0)
        return CLI_OK;
    if (make_dirs(cache))
        return cli_usage_error("cannot create the piglit cache %s: %s", cache, strerror(errno));
    char deb[2 * PATH_MAX] = "";
    DIR *dd = opendir(cache);
    for (struct dirent *e; dd && (e = readdir(dd));)
        if (!strncmp(e->d_name, "piglit_", 7) && strstr(e->d_name, ".deb"))
            snprintf(deb, sizeof deb, "%s/%s", cache, e->d_name);
    if (dd)
        closedir(dd);
    if (!deb[0]) {
        fprintf(stderr, "lockstep: fetching Debian's piglit package into %s (apt-get download piglit, ~34 MB)\n",
                cache);
        char cmd[PATH_MAX + 128];
        snprintf(cmd, sizeof cmd, "cd '%s' && apt-get download -q piglit >&2", cache);
        if (strchr(cache, '\'') || system(cmd) != 0)
            return cli_usage_error("could not download piglit; run `cd %s && apt-get download "
                                   "piglit` (needs Debian's package archive) and retry",
                                   cache);
        dd = opendir(cache);
        for (struct dirent *e; dd && (e = readdir(dd));)
            if (!strncmp(e->d_name, "piglit_", 7) && strstr(e->d_name, ".deb"))
                snprintf(deb, sizeof deb, "%s/%s", cache, e->d_name);
        if (dd)
            closedir(dd);
        if (!deb[0])
            return cli_usage_error("apt-get download left no piglit_*.deb in %s", cache);
    }
    fprintf(stderr, "lockstep: extracting the GLSL 1.10/1.20 execution tests from %s\n", deb);
    if (make_dirs(tree))
        return cli_usage_error("cannot create %s", tree);
    char cmd[3 * PATH_MAX + 256];
    snprintf(cmd, sizeof cmd,
             "dpkg-deb --fsys-tarfile '%s' | tar -x -C '%s' --wildcards "
             "'*/spec/glsl-1.10/execution/*.shader_test' '*/spec/glsl-1.20/execution/*.shader_test'",
             deb, tree);
    if (strchr(deb, '\'') || strchr(tree, '\'') || system(cmd) != 0)
        return cli_usage_error("extracting %s failed (needs dpkg-deb and tar)", deb);
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

/* ---- one test ----------------------------------------------------------- */

static ls_status read_dwords(const char *path, uint32_t **dw, size_t *n, size_t *cap, ls_diag *d)
{
    ls_buf b;
    ls_buf_init(&b);
    if (!ls_read_file(path, &b)) {
        ls_buf_free(&b);
        return ls_diag_set(d, LS_ERR_IO, path, 0, 0, "cannot read");
    }
    size_t k = b.len / 4;
    if (*n + k > *cap) {
        size_t nc = (*n + k) * 2 + 16;
        uint32_t *p = realloc(*dw, nc * 4);
        if (!p) {
            ls_buf_free(&b);
            return ls_diag_set(d, LS_ERR_NOMEM, path, 0, 0, "out of memory");
        }
        *dw = p;
        *cap = nc;
    }
    for (size_t i = 0; i < k; i++) {
        const unsigned char *q = (const unsigned char *)b.data + 4 * i;
        (*dw)[*n + i] = q[0] | (uint32_t)q[1] << 8 | (uint32_t)q[2] << 16 | (uint32_t)q[3] << 24;
    }
    *n += k;
    ls_buf_free(&b);
    return LS_OK;
}

/* Run draw dr of the capture over the window; write the covered, unkilled
 * pixels of render target 0 into fb as RGBA8 would store them. */
static ls_status run_draw(const piglit_test *t, const mesa_cs_draw *dr, size_t index,
                          bool fragcoord, const float *varying, int x0, int y0, int x1, int y1,
                          float *fb, size_t *faults, uint64_t *fc_issued, ls_diag *d)
{
    ls_buf job;
    ls_buf_init(&job);
    mesa_cs_job_json(dr, index, &job);
    r500_job rj;
    r500_job_init(&rj);
    ls_status st = r500_job_load_json(&rj, "decoded", job.data, job.len, d);
    ls_buf_free(&job);
    if (st != LS_OK) {
        r500_job_free(&rj);
        return st;
    }
    rj.width = t->width;
    rj.height = t->height;
    rj.workers = 1;
    mesa_cs_set_inputs(dr, fragcoord, &rj);
    if (varying) {
        /* The varying's temp from the RS set-up: gl_Color is the colour input;
         * a varying or gl_TexCoord[0] the texcoord input before WPOS (r300:
         * generics, fog, WPOS). None when the linker folded a constant varying. */
        mesa_cs_rs_map m;
        mesa_cs_rs_map_of(dr, &m);
        int temp = -1, generics = m.ntex - (fragcoord && m.ntex > 0);
        if (t->varying.kind == PIGLIT_VARYING_COLOR) {
            if (m.ncol > 1 || generics > 0)
                st = ls_diag_set(d, LS_ERR_UNSUPPORTED, NULL, 0, 0,
                                 "draw %zu: RS has %d colour and %d texcoord inputs, expected 1 colour",
                                 index, m.ncol, generics);
            else if (m.ncol == 1)
                temp = m.col[0];
        } else if (fragcoord && m.ntex == 1 && m.ncol == 0) {
            /* one texcoord input: WPOS with the varying folded to a constant,
             * or the varying with gl_FragCoord only in dead code — the RS
             * set-up cannot tell them apart */
            st = ls_diag_set(d, LS_ERR_UNSUPPORTED, NULL, 0, 0,
                             "draw %zu: one texcoord input for gl_FragCoord and a varying: which "
                             "one r300 dropped cannot be told",
                             index);
        } else if (generics > 1 || m.ncol > 0) {
            st = ls_diag_set(d, LS_ERR_UNSUPPORTED, NULL, 0, 0,
                             "draw %zu: RS has %d texcoord and %d colour inputs, expected 1 texcoord",
                             index, generics, m.ncol);
        } else if (generics == 1) {
            temp = m.tex[0];
        }
        if (temp >= 0 && temp < R500_NUM_TEMPS) {
            rj.inputs[temp].kind = R500_INPUT_IMAGE;
            rj.inputs[temp].image = varying;
        }
        if (st != LS_OK) {
            r500_job_free(&rj);
            return st;
        }
    }
    r500_result r;
    st = r500_run(&rj, &r, NULL, d);
    r500_job_free(&rj);
    if (st != LS_OK)
        return st;
    *faults += (size_t)r.stats.faulted_threads;
    *fc_issued += r.stats.inst_fc;
    for (int y = y0; y < y1; y++)
        for (int x = x0; x < x1; x++) {
            size_t i = (size_t)y * (size_t)t->width + (size_t)x;
            if (r.killed && r.killed[i])
                continue;
            for (int k = 0; k < 4; k++)
                fb[4 * i + k] = piglit_unorm8(r.target[0][4 * i + k]);
        }
    r500_result_free(&r);
    return LS_OK;
}

/* Evaluate the probes that follow the test's last draw on its final image
 * (the llvmpipe triage column; earlier probes saw an earlier framebuffer).
 * 1 pass, 0 fail, -1 no such probe. */
static int probes_pass_on(const piglit_test *t, const float *img)
{
    float tol[4] = {0.01f, 0.01f, 0.01f, 0.01f};
    char msg[512];
    size_t last_draw = 0;
    for (size_t i = 0; i < t->ncmds; i++)
        if (t->cmds[i].kind == PIGLIT_DRAW_RECT || t->cmds[i].kind == PIGLIT_CLEAR)
            last_draw = i;
    int verdict = -1;
    for (size_t i = 0; i < t->ncmds; i++) {
        const piglit_cmd *c = &t->cmds[i];
        if (c->kind == PIGLIT_TOLERANCE)
            memcpy(tol, c->v, sizeof tol);
        else if (c->kind == PIGLIT_PROBE && i > last_draw) {
            if (!piglit_probe(t, c, tol, img, msg, sizeof msg))
                return 0;
            verdict = 1;
        }
    }
    return verdict;
}

static void run_test(const options *o, const char *path, const char *name, result *res)
{
    memset(res, 0, sizeof *res);
    res->llvmpipe = -1;
    ls_buf text;
    ls_buf_init(&text);
    ls_diag d;
    ls_diag_clear(&d);
    if (!ls_read_file(path, &text)) {
        res->kind = RES_FAIL;
        snprintf(res->reason, sizeof res->reason, "harness: cannot read %s", path);
        ls_buf_free(&text);
        return;
    }
    piglit_test t;
    ls_status st = piglit_test_parse(text.data, text.len, name, &t, &d);
    ls_buf_free(&text);
    if (st != LS_OK) {
        res->kind = RES_FAIL;
        ls_diag_format(&d, res->reason, sizeof res->reason);
        return;
    }
    if (!piglit_test_check_inputs(&t)) {
        res->kind = RES_SKIP;
        const char *base = strrchr(name, '/');
        base = base ? base + 1 : name;
        bool vs_test = !strncmp(base, "vs-", 3) || !strncmp(base, "glsl-vs-", 8);
        /* piglit's own naming: vs-* tests check a vertex-shader computation
         * that reaches the fragment shader as a varying */
        char at[32] = "";
        if (t.skip_line > 0)
            snprintf(at, sizeof at, " (line %d)", t.skip_line);
        bool vs_note = vs_test && strstr(t.skip, "fragment shader reads");
        snprintf(res->reason, sizeof res->reason, "%s%s%s", vs_note ? "vertex-shader test; " : "",
                 t.skip, at);
        snprintf(res->key, sizeof res->key, "harness: %s%s", vs_note ? "vertex-shader test; " : "",
                 t.skip_key);
        piglit_test_free(&t);
        return;
    }
    {
        const char *base = strrchr(name, '/');
        base = base ? base + 1 : name;
        if (t.varying.kind != PIGLIT_VARYING_NONE &&
            (!strncmp(base, "vs-", 3) || !strncmp(base, "glsl-vs-", 8))) {
            /* piglit's naming: the computation under test is the vertex
             * shader's, which lockstep does not run (llvmpipe would) */
            res->kind = RES_SKIP;
            snprintf(res->reason, sizeof res->reason,
                     "vertex-shader test: the result is computed by the vertex program and "
                     "reaches the fragment shader as a varying");
            snprintf(res->key, sizeof res->key, "harness: vertex-shader test");
            piglit_test_free(&t);
            return;
        }
    }
    char dir[] = "/tmp/lockstep-piglit-XXXXXX";
    if (!mkdtemp(dir)) {
        res->kind = RES_FAIL;
        snprintf(res->reason, sizeof res->reason, "harness: cannot create a temporary directory");
        piglit_test_free(&t);
        return;
    }
    char log[PATH_MAX], env_out[PATH_MAX + 32], env_chip[64], env_pre[PATH_MAX + 16];
    snprintf(log, sizeof log, "%s/r300.log", dir);
    snprintf(env_out, sizeof env_out, "LOCKSTEP_SHIM_OUT=%s", dir);
    snprintf(env_chip, sizeof env_chip, "LOCKSTEP_SHIM_CHIP=%s", o->chip);
    snprintf(env_pre, sizeof env_pre, "LD_PRELOAD=%s", o->shim);
    char env_drv[PATH_MAX + 32];
    snprintf(env_drv, sizeof env_drv, "LIBGL_DRIVERS_PATH=%s", o->drivers);
    char *env_r300[] = {env_out, env_chip, env_pre, o->drivers[0] ? env_drv : NULL, NULL};
    char *argv_r300[] = {(char *)o->gl, "--shader-test", (char *)path, NULL};
    int rc = 0;
    char line[600] = "";
    static const char *const verdicts[] = {"skip: ", "fail: ", NULL};
    if (t.varying.kind != PIGLIT_VARYING_NONE) {
        /* llvmpipe computes the varying per draw (assumption piglit-varyings) */
        char prefix[PATH_MAX], vlog[PATH_MAX + 16];
        snprintf(prefix, sizeof prefix, "%s/var", dir);
        snprintf(vlog, sizeof vlog, "%s/varying.log", dir);
        char *env_lp[] = {"LIBGL_ALWAYS_SOFTWARE=1", NULL};
        char *argv_v[] = {(char *)o->gl, "--shader-test", (char *)path, "--varying-pass", prefix, NULL};
        int vrc = spawn_wait(argv_v, env_lp, vlog);
        if (vrc != 0) {
            res->kind = RES_FAIL;
            if (log_line(vlog, verdicts, line, sizeof line))
                snprintf(res->reason, sizeof res->reason, "llvmpipe varying pass: %.500s", line + 6);
            else
                snprintf(res->reason, sizeof res->reason, "llvmpipe varying pass exited with %d", vrc);
            rm_tree(dir);
            piglit_test_free(&t);
            return;
        }
    }
    rc = spawn_wait(argv_r300, env_r300, log);
    static const char *const compiler[] = {"Compiler Error", "Compiler error", "r300 FP:",
                                           "r300 VP:", NULL};
    bool keep = false, cites_log = false;
    if (rc == 77) {
        res->kind = RES_SKIP;
        if (log_line(log, verdicts, line, sizeof line))
            snprintf(res->reason, sizeof res->reason, "r300: %.500s", line + 6);
        else
            snprintf(res->reason, sizeof res->reason, "r300: a requirement is not met");
        /* the GL program names the kind of reason (src/mesa/glrun_piglit.c) */
        static const char *const keyp[] = {"skip-key: ", NULL};
        char kl[600];
        if (log_line(log, keyp, kl, sizeof kl))
            snprintf(res->key, sizeof res->key, "r300: %.300s", kl + 10);
        else
            snprintf(res->key, sizeof res->key, "r300: a requirement is not met");
    } else if (rc != 0) {
        res->kind = RES_FAIL;
        if (log_line(log, verdicts, line, sizeof line))
            snprintf(res->reason, sizeof res->reason, "GL: %.500s", line + 6);
        else
            snprintf(res->reason, sizeof res->reason, "GL program %s %d under r300 (log %.300s)",
                     rc > 128 ? "killed by signal" : "exited with status", rc > 128 ? rc - 128 : rc,
                     log), cites_log = true;
        keep = true;
    } else if (log_line(log, compiler, line, sizeof line)) {
        /* r300 prints "r300 FP: Compiler Error:", then "file::function(): why",
         * and renders with a dummy program */
        static const char *const detail[] = {"Too many", "():", NULL};
        char why[600] = "";
        if (log_line(log, detail, why, sizeof why)) {
            char *cut = strstr(why, "Using a dummy shader");
            if (cut)
                *cut = 0;
        }
        res->kind = RES_FAIL;
        if (strstr(line, "VP"))
            snprintf(res->reason, sizeof res->reason,
                     "r300 vertex-program compiler error (its draws are skipped): %.400s", line);
        else
            snprintf(res->reason, sizeof res->reason,
                     "r300 compiler error (it renders with a dummy program): %.400s",
                     why[0] ? why : line);
        keep = true;
    } else {
        /* decode every submission in order, as one stream */
        uint32_t *dw = NULL;
        size_t ndw = 0, cap = 0;
        for (int k = 0; st == LS_OK; k++) {
            char ib[PATH_MAX + 32];
            snprintf(ib, sizeof ib, "%s/cs_%04d.ib", dir, k);
            if (access(ib, R_OK))
                break;
            st = read_dwords(ib, &dw, &ndw, &cap, &d);
        }
        mesa_cs cs = {0};
        if (st == LS_OK)
            st = mesa_cs_decode(name, dw ? dw : (uint32_t[1]){0}, ndw, &cs, &d);
        free(dw);
        size_t expect = 0;
        bool color_bits = false;
        for (size_t i = 0; i < t.ncmds; i++) {
            color_bits |= t.cmds[i].kind == PIGLIT_CLEAR_COLOR;
            expect += t.cmds[i].kind == PIGLIT_DRAW_RECT || (t.cmds[i].kind == PIGLIT_CLEAR && color_bits);
        }
        if (st != LS_OK) {
            res->kind = RES_FAIL;
            char m[560];
            ls_diag_format(&d, m, sizeof m);
            snprintf(res->reason, sizeof res->reason, "harness: %s", m);
            keep = true;
        } else if (cs.ndraws != expect) {
            res->kind = RES_FAIL;
            snprintf(res->reason, sizeof res->reason,
                     "harness: r300 submitted %zu draws, the test makes %zu", cs.ndraws, expect);
            keep = true;
        } else {
            size_t np = (size_t)t.width * (size_t)t.height * 4, next = 0, faults = 0;
            float *fb = calloc(np, sizeof *fb);
            float tol[4] = {0.01f, 0.01f, 0.01f, 0.01f};
            bool fragcoord = piglit_fs_uses(&t, "gl_FragCoord");
            bool matrices = piglit_uses_matrices(&t);
            int rect = 0;
            ls_imagef vimg = {0};
            float ortho[4];
            bool have_ortho = false;
            color_bits = false;
            res->kind = fb ? RES_PASS : RES_FAIL;
            for (size_t i = 0; fb && i < t.ncmds && st == LS_OK; i++) {
                const piglit_cmd *c = &t.cmds[i];
                int x0 = 0, y0 = 0, x1 = t.width, y1 = t.height;
                switch (c->kind) {
                case PIGLIT_CLEAR_COLOR:
                    color_bits = true;
                    break;
                case PIGLIT_CLEAR:
                    if (color_bits) /* r300 clears through a blitter draw (mesa-capture.md §4) */
                        st = run_draw(&t, &cs.draws[next], next, false, NULL, x0, y0, x1, y1, fb,
                                      &faults, &res->fc_issued, &d),
                        next++;
                    break;
                case PIGLIT_DRAW_RECT:
                    piglit_rect_pixels_proj(&t, c, matrices && have_ortho ? ortho : NULL, &x0,
                                            &y0, &x1, &y1);
                    if (t.varying.kind != PIGLIT_VARYING_NONE) {
                        char vp[PATH_MAX + 32];
                        snprintf(vp, sizeof vp, "%s/var.%d.bin", dir, rect);
                        st = ls_rawf_read(vp, t.width, t.height, &vimg, &d);
                    }
                    if (st == LS_OK)
                        st = run_draw(&t, &cs.draws[next], next, fragcoord,
                                      vimg.rgba, x0, y0, x1, y1, fb, &faults, &res->fc_issued, &d);
                    ls_imagef_free(&vimg);
                    next++;
                    rect++;
                    break;
                case PIGLIT_TOLERANCE:
                    memcpy(tol, c->v, sizeof tol);
                    break;
                case PIGLIT_ORTHO:
                    memcpy(ortho, c->v, sizeof ortho);
                    have_ortho = true;
                    break;
                case PIGLIT_PROBE:
                    if (res->kind == RES_PASS &&
                        !piglit_probe(&t, c, tol, fb, res->reason, sizeof res->reason)) {
                        res->kind = RES_FAIL;
                        keep = true;
                    }
                    break;
                case PIGLIT_UNIFORM:
                    break;
                }
            }
            if (st == LS_ERR_UNSUPPORTED) {
                res->kind = RES_SKIP; /* the input model cannot place the inputs */
                char m[560];
                ls_diag_format(&d, m, sizeof m);
                snprintf(res->reason, sizeof res->reason, "inputs: %s", m);
            } else if (st != LS_OK) {
                res->kind = RES_FAIL;
                char m[560];
                ls_diag_format(&d, m, sizeof m);
                snprintf(res->reason, sizeof res->reason, "lockstep: %s", m);
                keep = true;
            } else if (faults && res->kind == RES_PASS) {
                res->kind = RES_FAIL;
                snprintf(res->reason, sizeof res->reason, "lockstep: %zu thread(s) faulted", faults);
                keep = true;
            }
            free(fb);
        }
        mesa_cs_free(&cs);
    }
    if (o->llvmpipe && rc != 77) {
        char ref[PATH_MAX + 16], llog[PATH_MAX + 16];
        snprintf(ref, sizeof ref, "%s/llvmpipe.bin", dir);
        snprintf(llog, sizeof llog, "%s/llvmpipe.log", dir);
        char *env_lp[] = {"LIBGL_ALWAYS_SOFTWARE=1", NULL};
        char *argv_lp[] = {(char *)o->gl, "--shader-test", (char *)path, "-o", ref, NULL};
        ls_imagef img = {0};
        int lrc = spawn_wait(argv_lp, env_lp, llog);
        if (lrc == 0 && ls_rawf_read(ref, t.width, t.height, &img, &d) == LS_OK) {
            res->llvmpipe = probes_pass_on(&t, img.rgba);
            ls_imagef_free(&img);
        } else if (lrc != 77) {
            res->llvmpipe = 2; /* the GL program failed or crashed on llvmpipe too */
        }
    }
    if (keep && o->keep) {
        char dst[PATH_MAX * 2];
        snprintf(dst, sizeof dst, "%s/%s", o->keep, name);
        for (char *p = dst + strlen(o->keep) + 1; *p; p++)
            if (*p == '/')
                *p = '@';
        rm_tree(dst); /* an earlier run's capture of the same test */
        if (make_dirs(o->keep) == 0 && rename(dir, dst) == 0) {
            snprintf(res->reason + strlen(res->reason), sizeof res->reason - strlen(res->reason),
                     " [capture kept in %s]", dst);
        } else {
            snprintf(res->reason + strlen(res->reason), sizeof res->reason - strlen(res->reason),
                     " [capture not kept: %s]", strerror(errno));
            rm_tree(dir);
        }
    } else if (cites_log && !o->no_keep) {
        /* the reason cites its r300.log: the capture stays where it is */
        snprintf(res->reason + strlen(res->reason), sizeof res->reason - strlen(res->reason),
                 " [capture kept in %s]", dir);
    } else {
        rm_tree(dir);
    }
    piglit_test_free(&t);
}

static double wall_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* run_test with its wall-clock start and end (piglit's results "time"). */
static void run_timed(const options *o, const char *path, const char *name, result *res)
{
    double t0 = wall_now();
    run_test(o, path, name, res);
    res->start = t0;
    res->end = wall_now();
}

/* ---- the command -------------------------------------------------------- */

static void usage(FILE *f)
{
    fprintf(f,
            "usage: lockstep mesa piglit [FILTER]... [--cache DIR] [--chip C] [--llvmpipe]\n"
            "                            [--keep DIR] [--json FILE] [--list] [-j N]\n"
            "                            [--mesa-drivers DIR]\n"
            "  runs piglit's GLSL 1.10/1.20 execution shader_tests (Debian's piglit .deb,\n"
            "  downloaded once into the cache) through r300 and lockstep, checking each\n"
            "  test's probes; FILTER selects tests whose name contains it; a FILE.shader_test\n"
            "  argument runs that file.\n"
            "  --llvmpipe   also evaluate the probes on llvmpipe's image (triage column)\n"
            "  --keep DIR   move the captures of failing tests (logs, streams) to DIR;\n"
            "               without it a failure whose reason cites its r300.log keeps\n"
            "               that capture where it is\n"
            "  --no-keep    delete even those\n"
            "  --json FILE  the results in piglit's results.json format\n"
            "  -j N         run N tests at a time (forked workers; output stays in order)\n"
            "  --mesa-drivers DIR  the r300_dri.so to test (default $LIBGL_DRIVERS_PATH, else\n"
            "               the system's); llvmpipe stays the system's\n"
            "  Cache: --cache, else $LOCKSTEP_PIGLIT_CACHE, else ~/.cache/lockstep/piglit.\n"
            "  Exit status 0 when no test fails.\n");
}

int cli_mesa_piglit(int argc, char **argv)
{
    options o;
    memset(&o, 0, sizeof o);
    o.chip = "rv530";
    bool list = false;
    long jobs = 1;
    const char *drivers_opt = NULL;
    const char **filters = calloc((size_t)argc + 1, sizeof *filters);
    const char **files = calloc((size_t)argc + 1, sizeof *files);
    size_t nf = 0, nfiles = 0;
    if (!filters || !files) {
        free(filters);
        free(files);
        return cli_usage_error("out of memory");
    }
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            usage(stdout);
            free(filters);
            free(files);
            return CLI_OK;
        } else if (!strcmp(argv[i], "--cache") && i + 1 < argc) {
            o.cache = argv[++i];
        } else if (!strcmp(argv[i], "--chip") && i + 1 < argc) {
            o.chip = argv[++i];
        } else if (!strcmp(argv[i], "--mesa-drivers") && i + 1 < argc) {
            drivers_opt = argv[++i];
        } else if (!strcmp(argv[i], "--keep") && i + 1 < argc) {
            o.keep = argv[++i];
        } else if (!strcmp(argv[i], "--no-keep")) {
            o.no_keep = true;
        } else if (!strcmp(argv[i], "--json") && i + 1 < argc) {
            o.json = argv[++i];
        } else if (!strcmp(argv[i], "-j") && i + 1 < argc) {
            if (!cli_parse_int(argv[++i], 1, 64, &jobs)) {
                free(filters);
                free(files);
                return cli_usage_error("-j needs 1..64");
            }
        } else if (!strcmp(argv[i], "--llvmpipe")) {
            o.llvmpipe = true;
        } else if (!strcmp(argv[i], "--list")) {
            list = true;
        } else if (argv[i][0] == '-') {
            free(filters);
            free(files);
            return cli_usage_error("mesa piglit: unknown option '%s'", argv[i]);
        } else {
            size_t l = strlen(argv[i]);
            if (l > 12 && !strcmp(argv[i] + l - 12, ".shader_test"))
                files[nfiles++] = argv[i]; /* a file of the user's, run as given */
            else
                filters[nf++] = argv[i];
        }
    }
    char why[PATH_MAX + 64];
    if (!cli_mesa_drivers(drivers_opt, o.drivers, sizeof o.drivers, why, sizeof why)) {
        free(filters);
        free(files);
        return cli_usage_error("%s", why);
    }
    char cache[PATH_MAX];
    const char *env = getenv("LOCKSTEP_PIGLIT_CACHE"), *home = getenv("HOME");
    if (o.cache)
        snprintf(cache, sizeof cache, "%s", o.cache);
    else if (env && *env)
        snprintf(cache, sizeof cache, "%s", env);
    else
        snprintf(cache, sizeof cache, "%s/.cache/lockstep/piglit", home && *home ? home : "/tmp");
    if (!list && (!cli_mesa_find_helper("LOCKSTEP_MESA_SHIM", "liblockstep_r300_shim.so", o.shim,
                                        sizeof o.shim) ||
                  !cli_mesa_find_helper("LOCKSTEP_MESA_GL", "lockstep-mesa-gl", o.gl, sizeof o.gl))) {
        free(filters);
        free(files);
        return cli_usage_error("the r300 shim is not built (install libdrm-dev libegl-dev "
                               "libgl-dev and reconfigure; docs/mesa.md)");
    }
    test_list tl = {0};
    int rc = CLI_OK, wr = 0;
    char tree[PATH_MAX + 8];
    snprintf(tree, sizeof tree, "%s/tree", cache);
    for (size_t k = 0; k < nfiles; k++) {
        if (access(files[k], R_OK)) {
            rc = cli_usage_error("%s: cannot read: %s", files[k], strerror(errno));
            test_list_free(&tl);
            free(filters);
            free(files);
            return rc;
        }
        if (!add_file(&tl, files[k]))
            wr = -1;
    }
    if (nfiles == 0 || nf > 0) {
        rc = ensure_cache(cache);
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
        rc = cli_usage_error("cannot list the tests under %s", tree);
    } else if (nsel == 0) {
        rc = cli_usage_error("no piglit test matches the filter (%zu tests in %s)", tl.n, tree);
    } else if (list) {
        for (size_t k = 0; k < nsel; k++)
            printf("%s\n", tl.name[order[k]]);
    } else {
        FILE *jf = o.json ? fopen(o.json, "w") : NULL;
        bool json_failed = o.json && !jf;
        if (json_failed)
            fprintf(stderr, "lockstep: %s: cannot write: %s\n", o.json, strerror(errno));
        double run_start = wall_now();
        size_t count[3] = {0, 0, 0};
        /* Results live in shared memory: with -j N, N forked workers run tests
         * k ≡ w (mod N) and the parent prints them in order as they finish. */
        result *res = mmap(NULL, nsel * sizeof *res, PROT_READ | PROT_WRITE,
                           MAP_SHARED | MAP_ANONYMOUS, -1, 0);
        if (res == MAP_FAILED)
            res = NULL;
        pid_t workers[64];
        bool exited[64] = {false}, crash_reported[64] = {false};
        int nworkers = 0;
        for (int w = 0; res && jobs > 1 && w < jobs; w++) {
            fflush(stdout);
            pid_t pid = fork();
            if (pid == 0) {
                for (size_t k = (size_t)w; k < nsel; k += (size_t)jobs) {
                    run_timed(&o, tl.path[order[k]], tl.name[order[k]], &res[k]);
                    __atomic_store_n(&res[k].done, 1, __ATOMIC_RELEASE);
                }
                _exit(0);
            }
            if (pid < 0)
                break;
            workers[nworkers++] = pid;
        }
        if (nworkers && nworkers < jobs) {
            /* a fork failed: the tests of the missing workers would never run */
            for (int w = 0; w < nworkers; w++)
                kill(workers[w], SIGKILL), waitpid(workers[w], NULL, 0);
            memset(res, 0, nsel * sizeof *res);
            nworkers = 0;
        }
        for (size_t k = 0; res && k < nsel; k++) {
            size_t i = order[k];
            if (!nworkers) {
                run_timed(&o, tl.path[i], tl.name[i], &res[k]);
            } else {
                int owner = (int)(k % (size_t)nworkers);
                while (!__atomic_load_n(&res[k].done, __ATOMIC_ACQUIRE)) {
                    pid_t w = waitpid(-1, NULL, WNOHANG);
                    for (int j = 0; w > 0 && j < nworkers; j++)
                        if (workers[j] == w)
                            exited[j] = true;
                    if (exited[owner] && !__atomic_load_n(&res[k].done, __ATOMIC_ACQUIRE)) {
                        /* its worker is gone without finishing it: the first such
                         * test is the one it crashed on; the parent runs the rest */
                        if (!crash_reported[owner]) {
                            crash_reported[owner] = true;
                            memset(&res[k], 0, sizeof res[k]);
                            res[k].kind = RES_FAIL;
                            res[k].llvmpipe = -1;
                            snprintf(res[k].reason, sizeof res[k].reason,
                                     "harness: the worker crashed while running this test");
                        } else {
                            run_timed(&o, tl.path[i], tl.name[i], &res[k]);
                        }
                        break;
                    }
                    usleep(2000);
                }
            }
            count[res[k].kind]++;
            printf("%s  %s%s%s%s%s\n", result_name[res[k].kind], tl.name[i],
                   res[k].reason[0] ? "  " : "", res[k].reason, res[k].fc_issued ? "  [FC]" : "",
                   res[k].llvmpipe < 0    ? ""
                   : res[k].llvmpipe == 2 ? "  (llvmpipe: fails to run too)"
                   : res[k].llvmpipe      ? "  (llvmpipe: pass)"
                                          : "  (llvmpipe: fail)");
            fflush(stdout);
        }
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
                fprintf(stderr, "lockstep: %s: cannot write\n", o.json);
                json_failed = true;
            }
            ls_buf_free(&jb);
            free(pr);
            free(cmd);
        }
        if (jf && fclose(jf) != 0 && !json_failed) {
            fprintf(stderr, "lockstep: %s: cannot write: %s\n", o.json, strerror(errno));
            json_failed = true;
        }
        /* summary: counts, skip reasons grouped */
        size_t fc_run = 0, fc_pass = 0;
        for (size_t k = 0; res && k < nsel; k++) {
            fc_run += res[k].fc_issued > 0;
            fc_pass += res[k].fc_issued > 0 && res[k].kind == RES_PASS;
        }
        printf("\n%zu tests: %zu pass, %zu fail, %zu skip\n", nsel, count[RES_PASS], count[RES_FAIL],
               count[RES_SKIP]);
        printf("%zu of the tests that ran issued R500 flow-control instructions ([FC]); %zu of "
               "them pass\n", fc_run, fc_pass);
        if (res && count[RES_SKIP]) {
            printf("skips by reason:\n");
            bool *done = calloc(nsel, 1);
            for (size_t k = 0; done && k < nsel; k++) {
                if (res[k].kind != RES_SKIP || done[k])
                    continue;
                /* grouped by the kind of reason (a stable key, not the text) */
                const char *key = res[k].key[0] ? res[k].key : res[k].reason;
                size_t n = 0;
                for (size_t j = k; j < nsel; j++) {
                    if (res[j].kind != RES_SKIP || done[j])
                        continue;
                    if (!strcmp(key, res[j].key[0] ? res[j].key : res[j].reason))
                        done[j] = true, n++;
                }
                printf("  %5zu  %s (e.g. %s)\n", n, key, res[k].reason);
            }
            free(done);
        }
        rc = res && count[RES_FAIL] == 0 && !json_failed ? CLI_OK : CLI_FAIL;
        for (int w = 0; w < nworkers; w++)
            if (!exited[w])
                waitpid(workers[w], NULL, 0);
        if (res)
            munmap(res, nsel * sizeof *res);
    }
    test_list_free(&tl);
    free(order);
    free(filters);
    free(files);
    return rc;
}
