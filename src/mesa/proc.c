/* Child processes and files of the Mesa harness (src/mesa/proc.h). */
#define _GNU_SOURCE 1 /* nftw */
#include "mesa/proc.h"

#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <limits.h>
#include <ftw.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

/* An image lockstep-mesa-gl wrote: float32 RGBA, bottom row first, exactly
 * w*h*16 bytes (docs/mesa.md). *rgba is malloc'd. */
ls_status mesa_read_rawf(const char *path, int w, int h, float **rgba, ls_diag *d)
{
    ls_buf b;
    ls_buf_init(&b);
    *rgba = NULL;
    if (!ls_read_file(path, &b)) {
        ls_status st = ls_diag_set(d, LS_ERR_IO, path, 0, 0, "cannot read: %s", strerror(errno));
        ls_buf_free(&b);
        return st;
    }
    size_t want = (size_t)w * (size_t)h * 4 * sizeof(float);
    if (b.len != want) {
        ls_buf_free(&b);
        return ls_diag_set(d, LS_ERR_PARSE, path, 0, 0, "%zu bytes, expected %zu (%dx%d RGBA float32)",
                           b.len, want, w, h);
    }
    *rgba = ls_alloc_image(want); /* read on every run (varyings) */
    if (!*rgba) {
        ls_buf_free(&b);
        return ls_diag_set(d, LS_ERR_NOMEM, path, 0, 0, "out of memory");
    }
    memcpy(*rgba, b.data, want);
    ls_buf_free(&b);
    return LS_OK;
}

/* ---- processes ---------------------------------------------------------- */

/* Run argv with extra environment entries, stdout and stderr to log
 * (appended). Returns the exit status, 128 + signal, or -1. */
int mesa_spawn_wait(char *const argv[], char *const extra_env[], const char *log)
{
    /* The inherited environment minus what would change which driver runs or
     * how (ld.so honours the last LD_PRELOAD; a parent's LIBGL_ALWAYS_SOFTWARE
     * would silently bypass the shim), then ours. */
    static const char *const drop[] = {"LD_PRELOAD=", "LIBGL_ALWAYS_SOFTWARE=", "GALLIUM_DRIVER=",
                                       "MESA_LOADER_DRIVER_OVERRIDE=", "LIBGL_DRIVERS_PATH=",
                                       "LOCKSTEP_SHIM_", NULL};
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
        /* the shim's trace is a debugging request, not a change of behaviour */
        keep = keep || !strncmp(environ[i], "LOCKSTEP_SHIM_TRACE=", 20);
        /* a variable extra_env sets replaces the inherited one (getenv takes
         * the first) */
        size_t nl = strcspn(environ[i], "=");
        for (size_t j = 0; j < k && keep; j++)
            keep = !(strncmp(environ[i], extra_env[j], nl) == 0 && extra_env[j][nl] == '=');
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

void mesa_rm_tree(const char *dir) { nftw(dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS); }

void mesa_rm_shim_mirrors(const char *dir)
{
    char pat[PATH_MAX];
    snprintf(pat, sizeof pat, "%s/lockstep-shim-*", dir);
    glob_t g;
    if (glob(pat, GLOB_NOSORT, NULL, &g) == 0)
        for (size_t i = 0; i < g.gl_pathc; i++)
            mesa_rm_tree(g.gl_pathv[i]);
    globfree(&g);
}

/* First line of log starting with one of the prefixes (without newline). */
bool mesa_log_line(const char *log, const char *const *prefixes, char *out, size_t n)
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

ls_status mesa_read_dwords(const char *path, uint32_t **dw, size_t *n, size_t *cap, ls_diag *d)
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

