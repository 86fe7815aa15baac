/* The piglit tests lockstep runs (include/lockstep/mesa_piglit_run.h,
 * docs/mesa.md "piglit"): Debian's piglit package fetched once with
 * `apt-get download` into a cache, its GLSL 1.10/1.20 execution shader_tests
 * extracted with dpkg-deb | tar, and the list of tests selected by name. */
#define _GNU_SOURCE 1 /* qsort_r, strndup */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lockstep/mesa_piglit_run.h"
#include "lockstep/mesa_piglit_runner.h"

void mesa_piglit_cache_dir(const char *given, char *out, size_t n)
{
    const char *env = getenv("LOCKSTEP_PIGLIT_CACHE"), *home = getenv("HOME");
    if (given)
        snprintf(out, n, "%s", given);
    else if (env && *env)
        snprintf(out, n, "%s", env);
    else
        snprintf(out, n, "%s/.cache/lockstep/piglit", home && *home ? home : "/tmp");
}

/* The piglit_*.deb in cache, if any, into deb (empty if none). */
static void find_deb(const char *cache, char *deb, size_t n)
{
    deb[0] = 0;
    DIR *dd = opendir(cache);
    for (struct dirent *e; dd && (e = readdir(dd));)
        if (!strncmp(e->d_name, "piglit_", 7) && strstr(e->d_name, ".deb"))
            snprintf(deb, n, "%s/%s", cache, e->d_name);
    if (dd)
        closedir(dd);
}

/* dpkg-deb --fsys-tarfile DEB | tar -x -C DIR TAR_ARGS (members, --wildcards,
 * --exclude, -T LIST: given already quoted for the shell). False when there is
 * no package, a path holds a quote, or the pipeline fails. */
static bool deb_untar(const char *deb, const char *dir, const char *tar_args)
{
    if (!deb[0] || strchr(deb, '\'') || strchr(dir, '\''))
        return false;
    char cmd[6 * PATH_MAX];
    snprintf(cmd, sizeof cmd, "dpkg-deb --fsys-tarfile '%s' | tar -x -C '%s' %s", deb, dir, tar_args);
    return system(cmd) == 0;
}

/* One of the cache's trees (the shader_tests, the runner): DIR created, DEB's
 * members extracted into it with TAR_ARGS, then STAMP written so later calls
 * find it done. WHAT names the tree in the diagnostic. */
static ls_status extract_stamped(const char *deb, const char *dir, const char *tar_args, const char *stamp,
                                 const char *what, ls_diag *d)
{
    if (mesa_piglit_make_dirs(dir))
        return ls_diag_set(d, LS_ERR_IO, dir, 0, 0, "cannot create: %s", strerror(errno));
    if (!deb_untar(deb, dir, tar_args))
        return ls_diag_set(d, LS_ERR_IO, deb, 0, 0, "extracting %s failed (needs dpkg-deb and tar)", what);
    FILE *f = fopen(stamp, "w");
    if (f)
        fclose(f);
    return LS_OK;
}

/* Processes filling one cache take turns: an exclusive flock on CACHE/.lock
 * (a second `mesa piglit` waits while the first downloads and extracts,
 * then finds the stamps). Returns the descriptor to close, or -1 with d set. */
static int cache_lock(const char *cache, ls_diag *d)
{
    if (mesa_piglit_make_dirs(cache)) {
        ls_diag_set(d, LS_ERR_IO, cache, 0, 0, "cannot create the piglit cache: %s", strerror(errno));
        return -1;
    }
    char lock[PATH_MAX + 16];
    snprintf(lock, sizeof lock, "%s/.lock", cache);
    int fd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0 || flock(fd, LOCK_EX) != 0) {
        ls_diag_set(d, LS_ERR_IO, lock, 0, 0, "cannot lock the piglit cache: %s", strerror(errno));
        if (fd >= 0)
            close(fd);
        return -1;
    }
    return fd;
}

static ls_status piglit_cache_ensure_locked(const char *cache, mesa_piglit_note_fn note, void *ctx, ls_diag *d);

static ls_status runner_cache_ensure_locked(const char *cache, mesa_runner_note_fn note, void *ctx,
                                           ls_diag *d);

/* The cache's part named by STAMP (extracted.stamp: the piglit package's test
 * tree; runner.stamp: that and piglit's runner) is there, or is made while the
 * cache is locked against other processes filling it. */
static ls_status cache_ensure(const char *cache, const char *stamp_name, bool runner,
                              mesa_piglit_note_fn note, void *ctx, ls_diag *d)
{
    char stamp[PATH_MAX + 32];
    snprintf(stamp, sizeof stamp, "%s/%s", cache, stamp_name);
    if (access(stamp, R_OK) == 0)
        return LS_OK;
    int fd = cache_lock(cache, d);
    if (fd < 0)
        return LS_ERR_IO;
    ls_status st = piglit_cache_ensure_locked(cache, note, ctx, d);
    if (st == LS_OK && runner)
        st = runner_cache_ensure_locked(cache, note, ctx, d);
    close(fd);
    return st;
}

ls_status mesa_piglit_cache_ensure(const char *cache, mesa_piglit_note_fn note, void *ctx, ls_diag *d)
{
    return cache_ensure(cache, "extracted.stamp", false, note, ctx, d);
}

static ls_status piglit_cache_ensure_locked(const char *cache, mesa_piglit_note_fn note, void *ctx, ls_diag *d)
{
    char stamp[PATH_MAX + 32], tree[PATH_MAX + 32], msg[3 * PATH_MAX];
    snprintf(stamp, sizeof stamp, "%s/extracted.stamp", cache);
    snprintf(tree, sizeof tree, "%s/tree", cache);
    if (access(stamp, R_OK) == 0)
        return LS_OK; /* another process filled it while this one waited */
    char deb[2 * PATH_MAX];
    find_deb(cache, deb, sizeof deb);
    if (!deb[0]) {
        if (note) {
            snprintf(msg, sizeof msg, "fetching Debian's piglit package into %s (apt-get download piglit, ~34 MB)",
                     cache);
            note(ctx, msg);
        }
        char cmd[PATH_MAX + 128];
        snprintf(cmd, sizeof cmd, "cd '%s' && apt-get download -q piglit >&2", cache);
        if (strchr(cache, '\'') || system(cmd) != 0)
            return ls_diag_set(d, LS_ERR_IO, cache, 0, 0,
                               "could not download piglit; run `cd %s && apt-get download piglit` (needs "
                               "Debian's package archive) and retry",
                               cache);
        find_deb(cache, deb, sizeof deb);
        if (!deb[0])
            return ls_diag_set(d, LS_ERR_IO, cache, 0, 0, "apt-get download left no piglit_*.deb here");
    }
    if (note) {
        snprintf(msg, sizeof msg, "extracting the GLSL 1.10/1.20 execution tests from %s", deb);
        note(ctx, msg);
    }
    return extract_stamped(deb, tree,
                           "--wildcards '*/spec/glsl-1.10/execution/*.shader_test' "
                           "'*/spec/glsl-1.20/execution/*.shader_test'",
                           stamp, "the tests", d);
}

/* Append (path, the first name_len bytes of name). */
static bool push_test(mesa_piglit_tests *t, const char *path, const char *name, size_t name_len)
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

void mesa_piglit_tests_free(mesa_piglit_tests *t)
{
    for (size_t i = 0; i < t->n; i++)
        free(t->path[i]), free(t->name[i]);
    free(t->path);
    free(t->name);
    memset(t, 0, sizeof *t);
}

/* A piglit test under the cache: its name is the path from spec/ on, without
 * the suffix. */
static bool add_test(mesa_piglit_tests *t, const char *p)
{
    size_t l = strlen(p);
    const char *spec = strstr(p, "/spec/glsl-1.");
    if (l < 12 || strcmp(p + l - 12, ".shader_test") || !spec)
        return true;
    return push_test(t, p, spec + 6, strlen(spec + 6) - 12);
}

/* Every .shader_test under dir (recursively). */
static bool collect(mesa_piglit_tests *t, const char *dir, int depth)
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

static int cmp_by_name(const void *a, const void *b, void *ctx)
{
    (void)ctx;
    return strcmp(*(char *const *)a, *(char *const *)b);
}

ls_status mesa_piglit_tests_select(const char *const *files, size_t nfiles, const char *tree,
                                   const char *const *filters, size_t nf, mesa_piglit_tests *out,
                                   ls_diag *d)
{
    memset(out, 0, sizeof *out);
    mesa_piglit_tests all = {0};
    for (size_t k = 0; k < nfiles; k++) {
        if (access(files[k], R_OK))
            return ls_diag_set(d, LS_ERR_IO, files[k], 0, 0, "cannot read: %s", strerror(errno));
        if (!push_test(&all, files[k], files[k], strlen(files[k]))) {
            mesa_piglit_tests_free(&all);
            return ls_diag_set(d, LS_ERR_NOMEM, "", 0, 0, "out of memory");
        }
    }
    if (tree && !collect(&all, tree, 0)) {
        mesa_piglit_tests_free(&all);
        return ls_diag_set(d, LS_ERR_IO, tree, 0, 0, "cannot list the tests");
    }
    /* selected (path, name) pairs, sorted by name through an index of pairs */
    char **pairs = malloc((all.n + 1) * 2 * sizeof *pairs);
    size_t nsel = 0;
    for (size_t i = 0; pairs && i < all.n; i++) {
        bool sel = nf == 0 || i < nfiles;
        for (size_t k = 0; k < nf && !sel; k++)
            sel = strstr(all.name[i], filters[k]) != NULL;
        if (sel) {
            pairs[2 * nsel] = all.name[i];
            pairs[2 * nsel + 1] = all.path[i];
            nsel++;
        }
    }
    if (!pairs) {
        mesa_piglit_tests_free(&all);
        return ls_diag_set(d, LS_ERR_NOMEM, "", 0, 0, "out of memory");
    }
    qsort_r(pairs, nsel, 2 * sizeof *pairs, cmp_by_name, NULL);
    ls_status st = LS_OK;
    for (size_t k = 0; k < nsel && st == LS_OK; k++)
        if (!push_test(out, pairs[2 * k + 1], pairs[2 * k], strlen(pairs[2 * k])))
            st = ls_diag_set(d, LS_ERR_NOMEM, "", 0, 0, "out of memory");
    size_t total = all.n;
    free(pairs);
    mesa_piglit_tests_free(&all);
    if (st == LS_OK && nsel == 0)
        st = ls_diag_set(d, LS_ERR_ARG, tree ? tree : "", 0, 0,
                         "no piglit test matches the filter (%zu tests here)", total);
    if (st != LS_OK)
        mesa_piglit_tests_free(out);
    return st;
}

/* ---- piglit's runner (include/lockstep/mesa_piglit_runner.h) ------------------ */

void mesa_runner_piglit_dir(const char *cache, char *out, size_t n)
{
    /* usr/lib/<multiarch>/piglit: the one directory the package has there */
    char lib[PATH_MAX];
    snprintf(lib, sizeof lib, "%s/runner/usr/lib", cache);
    snprintf(out, n, "%s/x86_64-linux-gnu/piglit", lib);
    DIR *dd = opendir(lib);
    for (struct dirent *e; dd && (e = readdir(dd));) {
        char p[2 * PATH_MAX];
        snprintf(p, sizeof p, "%s/%s/piglit/framework", lib, e->d_name);
        if (e->d_name[0] != '.' && access(p, R_OK) == 0) {
            snprintf(out, n, "%s/%s/piglit", lib, e->d_name);
            break;
        }
    }
    if (dd)
        closedir(dd);
}

ls_status mesa_runner_cache_ensure(const char *cache, mesa_runner_note_fn note, void *ctx, ls_diag *d)
{
    return cache_ensure(cache, "runner.stamp", true, note, ctx, d);
}

static ls_status runner_cache_ensure_locked(const char *cache, mesa_runner_note_fn note, void *ctx,
                                           ls_diag *d)
{
    char stamp[PATH_MAX + 32], dir[PATH_MAX + 32], deb[2 * PATH_MAX], msg[3 * PATH_MAX];
    snprintf(stamp, sizeof stamp, "%s/runner.stamp", cache);
    snprintf(dir, sizeof dir, "%s/runner", cache);
    if (access(stamp, R_OK) == 0)
        return LS_OK; /* another process extracted it while this one waited */
    find_deb(cache, deb, sizeof deb);
    if (!deb[0])
        return ls_diag_set(d, LS_ERR_IO, cache, 0, 0, "no piglit_*.deb in the cache; run `cd %s && apt-get "
                           "download piglit`", cache);
    if (note) {
        snprintf(msg, sizeof msg, "extracting piglit's runner, profiles and tests (but generated_tests/spec) "
                 "from %s", deb);
        note(ctx, msg);
    }
    return extract_stamped(deb, dir,
                           "--exclude='./usr/share/*' --exclude='./usr/lib/*/piglit/generated_tests/spec/*'",
                           stamp, "piglit's runner", d);
}

ls_status mesa_runner_cache_extract(const char *cache, const char *const *paths, size_t n, size_t *extracted,
                                    mesa_runner_note_fn note, void *ctx, ls_diag *d)
{
    char pdir[PATH_MAX], deb[2 * PATH_MAX], list[PATH_MAX + 32], dir[PATH_MAX + 32];
    mesa_runner_piglit_dir(cache, pdir, sizeof pdir);
    snprintf(dir, sizeof dir, "%s/runner", cache);
    *extracted = 0;
    /* the members' names in the package: ./usr/lib/<arch>/piglit/PATH */
    const char *rel = pdir + strlen(dir);
    snprintf(list, sizeof list, "%s/extract-XXXXXX", cache);
    int fd = mkstemp(list);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (!f) {
        if (fd >= 0)
            close(fd);
        return ls_diag_set(d, LS_ERR_IO, cache, 0, 0, "cannot write a file list: %s", strerror(errno));
    }
    for (size_t k = 0; k < n; k++) {
        char p[2 * PATH_MAX];
        snprintf(p, sizeof p, "%s/%s", pdir, paths[k]);
        if (access(p, R_OK) != 0 && !strchr(paths[k], '\n')) {
            fprintf(f, ".%s/%s\n", rel, paths[k]);
            ++*extracted;
        }
    }
    fclose(f);
    ls_status st = LS_OK;
    if (*extracted) {
        find_deb(cache, deb, sizeof deb);
        char msg[3 * PATH_MAX], args[PATH_MAX + 64];
        if (note) {
            snprintf(msg, sizeof msg, "extracting %zu generated tests from %s", *extracted, deb);
            note(ctx, msg);
        }
        snprintf(args, sizeof args, "-T '%s'", list);
        if (!deb_untar(deb, dir, args))
            st = ls_diag_set(d, LS_ERR_IO, deb[0] ? deb : cache, 0, 0,
                             "extracting the generated tests failed (needs dpkg-deb and tar)");
    }
    unlink(list);
    return st;
}
