/* `lockstep mesa fuzz`: differential fuzzing of Mesa's r300 GLSL compiler
 * with lockstep as the R500 oracle and llvmpipe as the reference
 * (docs/mesa-fuzz.md). Random shaders come from the library's generator
 * (include/lockstep/mesa_fuzz.h), pass its float guard, are compiled by r300
 * under the fake-device shim, run on lockstep and drawn by llvmpipe; every
 * shader that does not agree is kept as a finding, and `--reduce DIR` shrinks
 * the findings of a campaign and writes their reports. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <dirent.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "io/image.h"
#include "lockstep/mesa_cs.h"
#include "lockstep/mesa_fuzz.h"
#include "lockstep/r500.h"
#include "lockstep/r500_asm.h"

extern char **environ;

/* ---- configuration ------------------------------------------------------ */

typedef struct fuzz_cfg {
    char shim[PATH_MAX], gl[PATH_MAX];
    char drivers[PATH_MAX];   /* r300_dri.so directory, "" = system */
    const char *chip;
    int w, h;
    double tol;
} fuzz_cfg;

/* `--mesa-drivers DIR`, else $LIBGL_DRIVERS_PATH, else "" (the system's).
 * The directory must hold r300_dri.so. Returns false with a message in why. */
bool cli_mesa_drivers(const char *opt, char *out, size_t n, char *why, size_t wn)
{
    const char *e = opt && *opt ? opt : getenv("LIBGL_DRIVERS_PATH");
    out[0] = 0;
    if (!e || !*e)
        return true;
    snprintf(out, n, "%s", e);
    char p[PATH_MAX + 32];
    /* LIBGL_DRIVERS_PATH may list several directories; the first with
     * r300_dri.so is what the loader takes */
    char tmp[PATH_MAX];
    snprintf(tmp, sizeof tmp, "%s", e);
    for (char *s = strtok(tmp, ":"); s; s = strtok(NULL, ":")) {
        snprintf(p, sizeof p, "%s/r300_dri.so", s);
        if (access(p, R_OK) == 0)
            return true;
    }
    snprintf(why, wn, "no r300_dri.so in %s%s", e,
             opt && *opt ? " (--mesa-drivers)" : " (LIBGL_DRIVERS_PATH)");
    return false;
}

/* ---- processes ---------------------------------------------------------- */

/* Run argv with the caller's environment minus what changes which driver runs
 * (LD_PRELOAD, LIBGL_ALWAYS_SOFTWARE, GALLIUM_DRIVER, the loader override,
 * LIBGL_DRIVERS_PATH, RADEON_DEBUG, LOCKSTEP_SHIM_*), plus extra; stdout and
 * stderr to log. Returns the exit status, 128 + signal, or -1. */
static int spawn_wait(char *const argv[], char *const extra[], const char *log)
{
    static const char *const drop[] = {"LD_PRELOAD=", "LIBGL_ALWAYS_SOFTWARE=", "GALLIUM_DRIVER=",
                                       "MESA_LOADER_DRIVER_OVERRIDE=", "LIBGL_DRIVERS_PATH=",
                                       "RADEON_DEBUG=", "LOCKSTEP_SHIM_", "TMPDIR=", NULL};
    size_t n = 0, k = 0;
    while (environ[n])
        n++;
    while (extra && extra[k])
        k++;
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
        env[m++] = extra[i];
    env[m] = NULL;
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, log ? log : "/dev/null", O_WRONLY | O_CREAT | O_TRUNC,
                                     0644);
    posix_spawn_file_actions_adddup2(&fa, 1, 2);
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

static bool write_text(const char *path, const char *text, size_t len)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return false;
    bool ok = fwrite(text, 1, len, f) == len;
    return fclose(f) == 0 && ok;
}

/* ---- the oracle: one shader through r300, lockstep and llvmpipe --------- */

typedef struct oracle_out {
    mesa_outcome outcome;
    char why[600];
    ls_buf log;          /* the r300 run's output */
    ls_buf job;          /* the decoded job (JSON) */
    ls_buf dis;          /* lockstep's disassembly of the emitted program */
    float *ls, *ref;     /* lockstep's and llvmpipe's RGBA, bottom row first */
    size_t bad, unstable_skipped;
    bool negzero_agrees;  /* lockstep with texkill-zero=kill agrees (docs/assumptions.md) */
    double maxd;
    long first;
} oracle_out;

static void oracle_init(oracle_out *o)
{
    memset(o, 0, sizeof *o);
    ls_buf_init(&o->log);
    ls_buf_init(&o->job);
    ls_buf_init(&o->dis);
    o->first = -1;
}

static void oracle_free(oracle_out *o)
{
    ls_buf_free(&o->log);
    ls_buf_free(&o->job);
    ls_buf_free(&o->dis);
    free(o->ls);
    free(o->ref);
    o->ls = o->ref = NULL;
}

static mesa_outcome fail(oracle_out *o, mesa_outcome oc, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static mesa_outcome fail(oracle_out *o, mesa_outcome oc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(o->why, sizeof o->why, fmt, ap);
    va_end(ap);
    return o->outcome = oc;
}

static bool read_dwords(const char *path, uint32_t **dw, size_t *n)
{
    ls_buf data;
    ls_buf_init(&data);
    if (!ls_read_file(path, &data)) {
        ls_buf_free(&data);
        return false;
    }
    *n = data.len / 4;
    *dw = malloc(*n * 4 + 4);
    for (size_t i = 0; *dw && i < *n; i++) {
        const unsigned char *p = (const unsigned char *)data.data + 4 * i;
        (*dw)[i] = p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
    }
    ls_buf_free(&data);
    return *dw != NULL;
}

/* The first line of the r300 log that says why it failed. */
static void log_reason(const char *log, char *out, size_t n)
{
    static const char *const keys[] = {"): error:", "Too many", "Assertion", "error", "Error",
                                       NULL};
    out[0] = 0;
    for (const char *const *k = keys; *k && !out[0]; k++) {
        const char *p = strstr(log, *k);
        if (!p)
            continue;
        while (p > log && p[-1] != '\n')
            p--;
        size_t l = strcspn(p, "\n");
        if (!strncmp(p, "r300 FP: Compiler Error:", 24) && p[l] == '\n') {
            p += l + 1; /* the next line is the reason */
            l = strcspn(p, "\n");
        }
        snprintf(out, n, "%.*s", (int)(l < 400 ? l : 400), p);
    }
}

/* Run the draw's job on lockstep: *out gets render target 0 (RGBA, bottom
 * row first), dis (when not NULL) the disassembly, fault a description of the
 * first thread fault (empty when none). */
static ls_status lockstep_pixels(const fuzz_cfg *c, const mesa_cs_draw *dr, bool wpos,
                                 const ls_buf *job, r500_texkill_zero tz, float **out, ls_buf *dis,
                                 char *fault, size_t fn, ls_diag *d)
{
    r500_job rj;
    r500_job_init(&rj);
    ls_status st = r500_job_load_json(&rj, "decoded", job->data, job->len, d);
    if (st == LS_OK && dis)
        r500_disasm(rj.words, rj.ninst, NULL, dis);
    r500_result r;
    memset(&r, 0, sizeof r);
    if (st == LS_OK) {
        rj.width = c->w;
        rj.height = c->h;
        rj.workers = 1;
        rj.options.exec.texkill_zero = tz;
        mesa_cs_set_inputs(dr, wpos, &rj);
        st = r500_run(&rj, &r, NULL, d);
    }
    r500_job_free(&rj);
    if (st != LS_OK)
        return st;
    size_t n = (size_t)c->w * (size_t)c->h;
    *out = malloc(n * 4 * sizeof(float));
    if (*out)
        memcpy(*out, r.target[0], n * 4 * sizeof(float));
    fault[0] = 0;
    if (r.nfaults) {
        char fd[300];
        ls_diag_format(&r.faults[0].diag, fd, sizeof fd);
        snprintf(fault, fn, "%llu lockstep thread(s) faulted: %s",
                 (unsigned long long)r.stats.faulted_threads, fd);
    }
    r500_result_free(&r);
    return *out ? LS_OK : ls_diag_set(d, LS_ERR_NOMEM, NULL, 0, 0, "out of memory");
}

/* Pixels of ls that differ from ref beyond the tolerance (relative to
 * 1 + |ref|), unstable pixels skipped. */
static size_t count_bad(const fuzz_cfg *c, const float *ls, const float *ref, const fz_pixel *px,
                        double *maxd, long *first, size_t *skipped)
{
    size_t n = (size_t)c->w * (size_t)c->h, nbad = 0;
    *maxd = 0;
    *first = -1;
    *skipped = 0;
    for (size_t i = 0; i < n; i++) {
        if (px && !px[i].stable) {
            (*skipped)++;
            continue;
        }
        bool bad = false;
        for (int k = 0; k < 4; k++) {
            double x = ls[4 * i + k], y = ref[4 * i + k];
            double dd = x == y ? 0 : fabs(x - y);
            if (dd != dd)
                dd = INFINITY;
            if (dd > *maxd)
                *maxd = dd;
            if (dd > c->tol * (1 + fabs(y)))
                bad = true;
        }
        if (bad) {
            nbad++;
            if (*first < 0)
                *first = (long)i;
        }
    }
    return nbad;
}

/* uniforms: NUL-separated "name=v,..." strings (fz_program_uniform_args).
 * px: the interpreter's pixels (stable mask and reference values) or NULL.
 * radeon_debug: RADEON_DEBUG for the r300 run, or NULL. */
static mesa_outcome oracle(const fuzz_cfg *c, const char *frag, const ls_buf *uniforms,
                           int nuni, const char *radeon_debug, const fz_pixel *px, oracle_out *o)
{
    char dir[] = "/tmp/lockstep-fuzz-XXXXXX";
    if (!mkdtemp(dir))
        return fail(o, MESA_OUTCOME_HARNESS_ERROR, "cannot create a temporary directory");
    char size[32], log[PATH_MAX], ref[PATH_MAX], ib[PATH_MAX];
    snprintf(size, sizeof size, "%dx%d", c->w, c->h);
    snprintf(log, sizeof log, "%s/r300.log", dir);
    snprintf(ref, sizeof ref, "%s/ref.bin", dir);
    snprintf(ib, sizeof ib, "%s/cs_0000.ib", dir);
    char *argv[8 + 2 * 64];
    int a = 0;
    argv[a++] = (char *)c->gl;
    argv[a++] = (char *)frag;
    const char *u = uniforms ? uniforms->data : NULL;
    for (int i = 0; u && i < nuni && i < 64; i++) {
        argv[a++] = "--uniform";
        argv[a++] = (char *)u;
        u += strlen(u) + 1;
    }
    argv[a++] = "--size";
    argv[a++] = size;
    argv[a] = NULL;
    char e_out[PATH_MAX + 32], e_chip[64], e_pre[PATH_MAX + 16], e_drv[PATH_MAX + 32], e_dbg[64];
    snprintf(e_out, sizeof e_out, "LOCKSTEP_SHIM_OUT=%s", dir);
    snprintf(e_chip, sizeof e_chip, "LOCKSTEP_SHIM_CHIP=%s", c->chip);
    snprintf(e_pre, sizeof e_pre, "LD_PRELOAD=%s", c->shim);
    snprintf(e_drv, sizeof e_drv, "LIBGL_DRIVERS_PATH=%s", c->drivers);
    snprintf(e_dbg, sizeof e_dbg, "RADEON_DEBUG=%s", radeon_debug ? radeon_debug : "");
    /* the shim's sysfs mirror goes under TMPDIR: inside dir, so that it is
     * removed with dir even when the GL program crashes */
    char e_tmp[PATH_MAX + 16];
    snprintf(e_tmp, sizeof e_tmp, "TMPDIR=%s", dir);
    char *env[8];
    int ne = 0;
    env[ne++] = e_tmp;
    env[ne++] = e_out;
    env[ne++] = e_chip;
    env[ne++] = e_pre;
    if (c->drivers[0])
        env[ne++] = e_drv;
    if (radeon_debug)
        env[ne++] = e_dbg;
    env[ne] = NULL;
    int rc = spawn_wait(argv, env, log);
    ls_read_file(log, &o->log);
    mesa_outcome oc = mesa_outcome_of_r300_run(rc, o->log.data ? o->log.data : "");
    if (oc != MESA_OUTCOME_AGREE) {
        char why[420];
        log_reason(o->log.data ? o->log.data : "", why, sizeof why);
        rm_tree(dir);
        if (oc == MESA_OUTCOME_R300_CRASH)
            return fail(o, oc, "GL program killed by signal %d under r300%s%s", rc - 128,
                        why[0] ? ": " : "", why);
        return fail(o, oc, "%s", why[0] ? why : "the GL program failed under r300");
    }
    uint32_t *dw = NULL;
    size_t ndw = 0;
    if (!read_dwords(ib, &dw, &ndw)) {
        rm_tree(dir);
        return fail(o, MESA_OUTCOME_HARNESS_ERROR, "r300 submitted no command stream");
    }
    ls_diag d;
    ls_diag_clear(&d);
    mesa_cs cs;
    ls_status st = mesa_cs_decode(ib, dw, ndw, &cs, &d);
    free(dw);
    if (st != LS_OK || cs.ndraws == 0) {
        if (st == LS_OK)
            mesa_cs_free(&cs);
        rm_tree(dir);
        return fail(o, MESA_OUTCOME_HARNESS_ERROR, "command stream: %s",
                    st != LS_OK ? d.msg : "no draw");
    }
    /* assumption mesa-job-last-draw (docs/assumptions.md) */
    const mesa_cs_draw *dr = &cs.draws[cs.ndraws - 1];
    mesa_cs_job_json(dr, cs.ndraws - 1, &o->job);
    ls_buf src;
    ls_buf_init(&src);
    bool wpos = ls_read_file(frag, &src) && strstr(src.data, "gl_FragCoord");
    /* gl_FragCoord in the text but one texcoord input: r300 dropped either
     * WPOS or uv as dead (mesa-capture.md §4); both readings are tried */
    mesa_cs_rs_map rsm;
    mesa_cs_rs_map_of(dr, &rsm);
    bool ambiguous = wpos && rsm.ntex == 1 && src.data && strstr(src.data, "uv");
    ls_buf_free(&src);
    char fault[400] = "";
    st = lockstep_pixels(c, dr, wpos, &o->job, R500_TEXKILL_ZERO_KEEP, &o->ls, &o->dis, fault,
                         sizeof fault, &d);
    if (st != LS_OK) {
        mesa_cs_free(&cs);
        rm_tree(dir);
        return fail(o, MESA_OUTCOME_HARNESS_ERROR, "lockstep could not run the job: %s", d.msg);
    }
    if (fault[0]) {
        mesa_cs_free(&cs);
        rm_tree(dir);
        return fail(o, MESA_OUTCOME_LOCKSTEP_FAULT, "%s", fault);
    }
    /* llvmpipe: the system's driver (LIBGL_DRIVERS_PATH dropped) */
    argv[a++] = "--float";
    argv[a++] = "-o";
    argv[a++] = ref;
    argv[a] = NULL;
    char *env_lp[] = {"LIBGL_ALWAYS_SOFTWARE=1", NULL};
    char lplog[PATH_MAX + 16];
    snprintf(lplog, sizeof lplog, "%s/llvmpipe.log", dir);
    rc = spawn_wait(argv, env_lp, lplog);
    ls_imagef img = {0};
    if (rc != 0 || ls_rawf_read(ref, c->w, c->h, &img, &d) != LS_OK) {
        mesa_cs_free(&cs);
        rm_tree(dir);
        return fail(o, MESA_OUTCOME_HARNESS_ERROR, "llvmpipe could not draw the shader (exit %d)", rc);
    }
    rm_tree(dir);
    size_t n = (size_t)c->w * (size_t)c->h;
    o->ref = img.rgba;
    if (!o->ls) {
        mesa_cs_free(&cs);
        return fail(o, MESA_OUTCOME_HARNESS_ERROR, "out of memory");
    }
    /* llvmpipe against the interpreter first: when they differ, the
     * reference itself is in doubt */
    size_t refbad = 0;
    long reffirst = -1;
    for (size_t i = 0; px && i < n; i++) {
        if (!px[i].stable)
            continue;
        for (int k = 0; k < 4; k++) {
            double e = px[i].rgba[k], g = o->ref[4 * i + k];
            if (!(fabs(e - g) <= c->tol * (1 + fabs(e)))) {
                refbad++;
                if (reffirst < 0)
                    reffirst = (long)i;
                break;
            }
        }
    }
    o->bad = count_bad(c, o->ls, o->ref, px, &o->maxd, &o->first, &o->unstable_skipped);
    if (o->bad && ambiguous) {
        float *alt = NULL;
        char f2[400] = "";
        double md = 0;
        long fi = -1;
        size_t us = 0;
        if (lockstep_pixels(c, dr, !wpos, &o->job, R500_TEXKILL_ZERO_KEEP, &alt, NULL, f2,
                            sizeof f2, &d) == LS_OK && !f2[0] && alt &&
            count_bad(c, alt, o->ref, px, &md, &fi, &us) == 0) {
            free(o->ls);
            o->ls = alt;
            alt = NULL;
            o->bad = 0;
            o->maxd = md;
            o->first = -1;
            wpos = !wpos;
        }
        free(alt);
    }
    /* a disagreement that TEXKILL of -0.0 decides: run the other model */
    if (o->bad && !refbad) {
        float *alt = NULL;
        char f2[400] = "";
        if (lockstep_pixels(c, dr, wpos, &o->job, R500_TEXKILL_ZERO_KILL, &alt, NULL, f2,
                            sizeof f2, &d) == LS_OK && !f2[0] && alt) {
            double md = 0;
            long fi = -1;
            size_t us = 0;
            o->negzero_agrees = count_bad(c, alt, o->ref, px, &md, &fi, &us) == 0;
        }
        free(alt);
    }
    mesa_cs_free(&cs);
    if (refbad) {
        long i = reffirst;
        return fail(o, MESA_OUTCOME_REFERENCE,
                    "%zu pixel(s): llvmpipe differs from the interpreter, first (%ld, %ld): "
                    "llvmpipe (%g, %g, %g, %g), interpreter (%g, %g, %g, %g)",
                    refbad, i % c->w, i / c->w, o->ref[4 * i], o->ref[4 * i + 1], o->ref[4 * i + 2],
                    o->ref[4 * i + 3], px[i].rgba[0], px[i].rgba[1], px[i].rgba[2], px[i].rgba[3]);
    }
    if (o->bad) {
        long i = o->first;
        return fail(o, MESA_OUTCOME_DISAGREE,
                    "%zu pixel(s) differ, max |diff| %g, first (%ld, %ld): lockstep (%g, %g, %g, %g), "
                    "llvmpipe (%g, %g, %g, %g)%s",
                    o->bad, o->maxd, i % c->w, i / c->w, o->ls[4 * i], o->ls[4 * i + 1],
                    o->ls[4 * i + 2], o->ls[4 * i + 3], o->ref[4 * i], o->ref[4 * i + 1],
                    o->ref[4 * i + 2], o->ref[4 * i + 3],
                    o->negzero_agrees ? " [agrees with texkill-zero=kill]" : "");
    }
    return fail(o, MESA_OUTCOME_AGREE, "max |diff| %g", o->maxd);
}

/* diff / tolerance, clamped, as a PNG (bottom row first in, top first out). */
static void write_diff_png(const fuzz_cfg *c, const oracle_out *o, const char *path)
{
    if (!o->ls || !o->ref)
        return;
    size_t n = (size_t)c->w * (size_t)c->h;
    ls_imagef diff = {.width = c->w, .height = c->h, .rgba = calloc(n * 4, sizeof(float))};
    if (!diff.rgba)
        return;
    for (size_t i = 0; i < n; i++)
        for (int k = 0; k < 4; k++) {
            double dd = fabs((double)o->ls[4 * i + k] - o->ref[4 * i + k]);
            double v = dd != dd ? 1 : dd / (c->tol * (1 + fabs(o->ref[4 * i + k])));
            diff.rgba[4 * i + k] = k == 3 ? 1.0f : (float)(v > 1 ? 1 : v);
        }
    ls_image8 png = {0};
    ls_diag d;
    if (ls_imagef_to_8(&diff, &png, &d) == LS_OK) {
        ls_png_write(path, &png, &d);
        ls_image8_free(&png);
    }
    free(diff.rgba);
}

/* ---- one fuzz case ------------------------------------------------------ */

/* The generator seed of shader `index`, attempt `k` of a campaign seeded S. */
static uint64_t case_seed(uint64_t s, uint64_t index, uint64_t k)
{
    uint64_t z = s * 0x9E3779B97F4A7C15ull ^ (index + 1) * 0xBF58476D1CE4E5B9ull ^ k * 0x94D049BB133111EBull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* Generate a shader that passes the guard: up to 64 attempts. */
static bool guarded_program(const fuzz_cfg *c, uint64_t s, uint64_t index, fz_program *p,
                            fz_pixel *px, uint64_t *seed_out, int *rejected)
{
    *rejected = 0;
    for (uint64_t k = 0; k < 64; k++) {
        uint64_t seed = case_seed(s, index, k);
        ls_diag d;
        if (fz_generate(seed, NULL, p, &d) != LS_OK)
            continue;
        char why[200];
        if (fz_guard(p, c->w, c->h, px, why, sizeof why)) {
            *seed_out = seed;
            return true;
        }
        (*rejected)++;
        fz_program_free(p);
    }
    return false;
}

static bool write_program(const fz_program *p, const char *frag, const char *unifile, ls_buf *uni,
                          int *nuni)
{
    ls_buf text;
    ls_buf_init(&text);
    fz_program_print(p, &text);
    bool ok = write_text(frag, text.data, text.len);
    ls_buf_free(&text);
    ls_buf_reset(uni);
    *nuni = fz_program_uniform_args(p, uni);
    if (unifile) {
        ls_buf lines;
        ls_buf_init(&lines);
        const char *u = uni->data;
        for (int i = 0; u && i < *nuni; i++, u += strlen(u) + 1)
            ls_buf_printf(&lines, "--uniform %s\n", u);
        ok = write_text(unifile, lines.data ? lines.data : "", lines.len) && ok;
        ls_buf_free(&lines);
    }
    return ok;
}

static void save_outputs(const fuzz_cfg *c, const oracle_out *o, const char *dir, const char *prefix)
{
    char p[PATH_MAX + 64];
    snprintf(p, sizeof p, "%s/%sr300.log", dir, prefix);
    write_text(p, o->log.data ? o->log.data : "", o->log.len);
    if (o->job.len) {
        snprintf(p, sizeof p, "%s/%sjob.json", dir, prefix);
        write_text(p, o->job.data, o->job.len);
    }
    if (o->dis.len) {
        snprintf(p, sizeof p, "%s/%sprogram.asm", dir, prefix);
        write_text(p, o->dis.data, o->dis.len);
    }
    snprintf(p, sizeof p, "%s/%sdiff.png", dir, prefix);
    write_diff_png(c, o, p);
}

/* Run case `index`; writes OUT/work/INDEX.res ("index seed rejected
 * outcome\twhy") and, for a non-agreeing shader, OUT/findings/INDEX/. */
static void run_case(const fuzz_cfg *c, const char *out, uint64_t s, uint64_t index)
{
    char res[PATH_MAX + 64], frag[PATH_MAX + 64];
    snprintf(res, sizeof res, "%s/work/%06llu.res", out, (unsigned long long)index);
    snprintf(frag, sizeof frag, "%s/work/%06llu.frag", out, (unsigned long long)index);
    size_t npx = (size_t)c->w * (size_t)c->h;
    fz_pixel *px = calloc(npx, sizeof *px);
    fz_program p;
    uint64_t seed = 0;
    int rejected = 0;
    ls_buf line, uni;
    ls_buf_init(&line);
    ls_buf_init(&uni);
    if (!px || !guarded_program(c, s, index, &p, px, &seed, &rejected)) {
        ls_buf_printf(&line, "%llu 0 %d %s\tno shader passed the guard in 64 attempts\n",
                      (unsigned long long)index, rejected,
                      mesa_outcome_table[MESA_OUTCOME_HARNESS_ERROR].name);
        write_text(res, line.data, line.len);
        ls_buf_free(&line);
        free(px);
        return;
    }
    int nuni = 0;
    write_program(&p, frag, NULL, &uni, &nuni);
    oracle_out o;
    oracle_init(&o);
    mesa_outcome oc = oracle(c, frag, &uni, nuni, NULL, px, &o);
    if (oc != MESA_OUTCOME_AGREE) {
        char dir[PATH_MAX + 64], path[PATH_MAX + 96];
        snprintf(dir, sizeof dir, "%s/findings/%06llu", out, (unsigned long long)index);
        mkdir(dir, 0755);
        snprintf(path, sizeof path, "%s/original.frag", dir);
        char up[PATH_MAX + 96];
        snprintf(up, sizeof up, "%s/original.uniforms", dir);
        write_program(&p, path, up, &uni, &nuni);
        save_outputs(c, &o, dir, "original-");
        ls_buf info;
        ls_buf_init(&info);
        ls_buf_printf(&info, "index %llu\nseed %llu\noutcome %s\nwhy %s\nsize %dx%d\nchip %s\n",
                      (unsigned long long)index, (unsigned long long)seed,
                      mesa_outcome_table[oc].name, o.why, c->w, c->h, c->chip);
        snprintf(path, sizeof path, "%s/info.txt", dir);
        write_text(path, info.data, info.len);
        ls_buf_free(&info);
    }
    ls_buf_printf(&line, "%llu %llu %d %s\t%s\n", (unsigned long long)index,
                  (unsigned long long)seed, rejected, mesa_outcome_table[oc].name, o.why);
    write_text(res, line.data, line.len);
    unlink(frag);
    oracle_free(&o);
    ls_buf_free(&line);
    ls_buf_free(&uni);
    fz_program_free(&p);
    free(px);
}

/* ---- the reducer's predicate -------------------------------------------- */

typedef struct reduce_ctx {
    const fuzz_cfg *c;
    char frag[3 * PATH_MAX];
    mesa_outcome want;
    bool negzero;   /* the disagreement goes away with texkill-zero=kill */
    size_t calls;
} reduce_ctx;

static bool still_fails(const fz_program *p, void *vctx)
{
    reduce_ctx *r = vctx;
    r->calls++;
    size_t npx = (size_t)r->c->w * (size_t)r->c->h;
    fz_pixel *px = calloc(npx, sizeof *px);
    if (!px)
        return false;
    char why[200];
    bool ok = fz_guard(p, r->c->w, r->c->h, px, why, sizeof why);
    if (ok) {
        ls_buf uni;
        ls_buf_init(&uni);
        int nuni = 0;
        ok = write_program(p, r->frag, NULL, &uni, &nuni);
        oracle_out o;
        oracle_init(&o);
        ok = ok && oracle(r->c, r->frag, &uni, nuni, NULL, px, &o) == r->want &&
             o.negzero_agrees == r->negzero;
        oracle_free(&o);
        ls_buf_free(&uni);
    }
    free(px);
    return ok;
}

/* A signature of a reduced shader: its statement skeleton and the builtins
 * and operators it uses, names and constants left out. */
static void skeleton(const fz_program *p, const fz_node *n, ls_buf *b)
{
    static const char *const kinds[FZ_KIND_COUNT] = {
        "", "decl", "asg", "out", "if", "loop", "break", "continue", "discard", "return",
        "c", "v", "i", "swz", "neg", "bin", "call", "vec", "cmp", "icmp", "and", "or", "not", "bool"};
    switch (n->kind) {
    case FZ_BLOCK:
        ls_buf_putc(b, '{');
        for (int i = 0; i < n->nkids; i++) {
            if (i)
                ls_buf_putc(b, ';');
            skeleton(p, n->kids[i], b);
        }
        ls_buf_putc(b, '}');
        return;
    case FZ_CONST: ls_buf_putc(b, 'c'); return;
    case FZ_VAR:
        ls_buf_puts(b, p->vars[n->op].kind == FZ_VAR_UNIFORM ? "u" :
                       p->vars[n->op].kind == FZ_VAR_LOCAL ? "t" : "in");
        return;
    case FZ_CALL: ls_buf_puts(b, fz_builtin_names[n->op]); break;
    case FZ_BIN: ls_buf_putc(b, "+-*/"[n->aux & 3]); break;
    case FZ_LOOP: ls_buf_puts(b, n->aux == FZ_FOR ? "for" : n->aux == FZ_WHILE ? "while" : "do"); break;
    default: ls_buf_puts(b, kinds[n->kind]); break;
    }
    if (n->nkids) {
        ls_buf_putc(b, '(');
        for (int i = 0; i < n->nkids; i++) {
            if (i)
                ls_buf_putc(b, ',');
            skeleton(p, n->kids[i], b);
        }
        ls_buf_putc(b, ')');
    }
}

static bool info_get(const char *info, const char *key, char *out, size_t n)
{
    size_t kl = strlen(key);
    for (const char *p = info; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
        if (!strncmp(p, key, kl) && p[kl] == ' ') {
            size_t l = strcspn(p + kl + 1, "\n");
            snprintf(out, n, "%.*s", (int)l, p + kl + 1);
            return true;
        }
    }
    return false;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

typedef struct group {
    char *sig;
    char *members;
    char *first;
    int count;
    char noopt[32];
} group;

static void add_group(group **groups, size_t *ngroups, const char *sig, const char *name,
                      const char *noopt)
{
    size_t g = 0;
    for (; g < *ngroups; g++)
        if (!strcmp((*groups)[g].sig, sig))
            break;
    if (g == *ngroups) {
        group *ng = realloc(*groups, (*ngroups + 1) * sizeof **groups);
        if (!ng)
            return;
        *groups = ng;
        memset(&ng[g], 0, sizeof ng[g]);
        ng[g].sig = strdup(sig);
        ng[g].first = strdup(name);
        ng[g].members = strdup("");
        snprintf(ng[g].noopt, sizeof ng[g].noopt, "%.*s", (int)strcspn(noopt, ":"), noopt);
        (*ngroups)++;
    }
    group *gr = &(*groups)[g];
    gr->count++;
    size_t l = strlen(gr->members) + strlen(name) + 2;
    char *m = malloc(l);
    if (m) {
        snprintf(m, l, "%s%s%s", gr->members, gr->members[0] ? " " : "", name);
        free(gr->members);
        gr->members = m;
    }
}

/* Reduce every finding of a campaign directory and write its report;
 * findings with a report.txt are kept as they are (a campaign is reduced in
 * several runs); at most limit new ones (-1: all). */
static int reduce_campaign(const fuzz_cfg *c, const char *out, size_t max_tries, bool all_classes,
                           long limit, const char *only)
{
    char fdir[PATH_MAX + 32];
    snprintf(fdir, sizeof fdir, "%s/findings", out);
    DIR *dp = opendir(fdir);
    if (!dp)
        return cli_usage_error("%s: no findings directory (run a campaign with --out first)", fdir);
    char **names = NULL;
    size_t nn = 0;
    for (struct dirent *de; (de = readdir(dp));) {
        if (de->d_name[0] == '.')
            continue;
        char **nv = realloc(names, (nn + 1) * sizeof *names);
        if (!nv)
            break;
        names = nv;
        names[nn++] = strdup(de->d_name);
    }
    closedir(dp);
    qsort(names, nn, sizeof *names, cmp_str);
    ls_buf summary;
    ls_buf_init(&summary);
    group *groups = NULL;
    size_t ngroups = 0;
    long reduced = 0;
    for (size_t f = 0; f < nn; f++) {
        char dir[2 * PATH_MAX], path[3 * PATH_MAX], v[128];
        if (strlen(fdir) + strlen(names[f]) + 40 > PATH_MAX)
            continue;
        snprintf(dir, sizeof dir, "%s/%s", fdir, names[f]);
        snprintf(path, sizeof path, "%s/info.txt", dir);
        ls_buf info;
        ls_buf_init(&info);
        if (!ls_read_file(path, &info) || !info_get(info.data, "seed", v, sizeof v)) {
            ls_buf_free(&info);
            continue;
        }
        uint64_t seed = strtoull(v, NULL, 10);
        char oname[64] = "";
        info_get(info.data, "outcome", oname, sizeof oname);
        mesa_outcome want = MESA_OUTCOME_COUNT;
        for (int k = 0; k < MESA_OUTCOME_COUNT; k++)
            if (!strcmp(oname, mesa_outcome_table[k].name))
                want = (mesa_outcome)k;
        bool reducible = want == MESA_OUTCOME_DISAGREE ||
                         (all_classes && (want == MESA_OUTCOME_R300_COMPILE_ERROR ||
                                          want == MESA_OUTCOME_R300_CRASH ||
                                          want == MESA_OUTCOME_LOCKSTEP_FAULT));
        if (only)
            reducible = !strcmp(oname, only) && want != MESA_OUTCOME_AGREE &&
                        want != MESA_OUTCOME_COUNT;
        snprintf(path, sizeof path, "%s/report.txt", dir);
        bool done_before = access(path, R_OK) == 0;
        if (!reducible || (!done_before && limit >= 0 && reduced >= limit)) {
            ls_buf_free(&info);
            continue;
        }
        if (done_before) {
            /* reduced by an earlier run: only its group is counted */
            ls_buf rep;
            ls_buf_init(&rep);
            char sig[4096] = "", nv[600] = "";
            if (ls_read_file(path, &rep)) {
                info_get(rep.data, "signature:", sig, sizeof sig);
                info_get(rep.data, "noopt", nv, sizeof nv);
            }
            ls_buf_free(&rep);
            char *colon = strstr(nv, ": ");
            add_group(&groups, &ngroups, sig, names[f], colon ? colon + 2 : nv);
            ls_buf_free(&info);
            continue;
        }
        reduced++;
        fz_program p;
        ls_diag d;
        if (fz_generate(seed, NULL, &p, &d) != LS_OK) {
            ls_buf_free(&info);
            continue;
        }
        char why0[600] = "";
        info_get(info.data, "why", why0, sizeof why0);
        {
            /* the generator must still give the campaign's shader */
            ls_buf now, then;
            ls_buf_init(&now);
            ls_buf_init(&then);
            fz_program_print(&p, &now);
            snprintf(path, sizeof path, "%s/original.frag", dir);
            bool same = ls_read_file(path, &then) && then.len == now.len &&
                        !memcmp(then.data, now.data, now.len);
            ls_buf_free(&now);
            ls_buf_free(&then);
            if (!same) {
                fprintf(stderr, "  %s: seed %llu no longer generates original.frag (generator "
                        "changed); skipped\n", names[f], (unsigned long long)seed);
                fz_program_free(&p);
                ls_buf_free(&info);
                continue;
            }
        }
        reduce_ctx rc = {.c = c, .want = want, .negzero = strstr(why0, "texkill-zero=kill") != NULL};
        snprintf(rc.frag, sizeof rc.frag, "%s/candidate.frag", dir);
        fprintf(stderr, "reducing %s (%s, %zu nodes)...\n", names[f], oname, fz_program_size(&p));
        fz_reduce_stats rs;
        bool first_ok = still_fails(&p, &rc);
        if (first_ok)
            fz_reduce(&p, still_fails, &rc, max_tries, &rs, &d);
        unlink(rc.frag);
        if (!first_ok) {
            fprintf(stderr, "  %s does not reproduce; left as it is\n", names[f]);
            ls_buf_printf(&summary, "%s: does not reproduce\n", names[f]);
            fz_program_free(&p);
            ls_buf_free(&info);
            continue;
        }
        /* the minimal shader's report */
        char mfrag[3 * PATH_MAX], muni[3 * PATH_MAX];
        snprintf(mfrag, sizeof mfrag, "%s/min.frag", dir);
        snprintf(muni, sizeof muni, "%s/min.uniforms", dir);
        ls_buf uni;
        ls_buf_init(&uni);
        int nuni = 0;
        write_program(&p, mfrag, muni, &uni, &nuni);
        size_t npx = (size_t)c->w * (size_t)c->h;
        fz_pixel *px = calloc(npx, sizeof *px);
        char why[200];
        if (px)
            fz_guard(&p, c->w, c->h, px, why, sizeof why);
        oracle_out o, on;
        oracle_init(&o);
        oracle_init(&on);
        mesa_outcome oc = oracle(c, mfrag, &uni, nuni, "fp", px, &o);
        save_outputs(c, &o, dir, "min-");
        mesa_outcome ocn = oracle(c, mfrag, &uni, nuni, "fp,noopt", px, &on);
        save_outputs(c, &on, dir, "min-noopt-");
        ls_buf sk;
        ls_buf_init(&sk);
        skeleton(&p, p.main, &sk);
        ls_buf rep;
        ls_buf_init(&rep);
        ls_buf_printf(&rep,
                      "%s\nreduced: %zu -> %zu nodes, %zu predicate calls, %zu accepted\n"
                      "minimal: %s: %s\nnoopt (RADEON_DEBUG=noopt): %s: %s\nsignature: %s\n"
                      "first compiler pass that changes the meaning: not determined (see docs/mesa-fuzz.md)\n",
                      info.data, rs.size_before, rs.size_after, rc.calls, rs.accepted,
                      mesa_outcome_table[oc].name, o.why, mesa_outcome_table[ocn].name, on.why,
                      sk.data ? sk.data : "");
        snprintf(path, sizeof path, "%s/report.txt", dir);
        write_text(path, rep.data, rep.len);
        fprintf(stderr, "  %s: %zu -> %zu nodes; minimal %s; noopt %s\n", names[f], rs.size_before,
                rs.size_after, mesa_outcome_table[oc].name, mesa_outcome_table[ocn].name);
        add_group(&groups, &ngroups, sk.data ? sk.data : "", names[f],
                  mesa_outcome_table[ocn].name);
        ls_buf_free(&rep);
        ls_buf_free(&sk);
        oracle_free(&o);
        oracle_free(&on);
        free(px);
        ls_buf_free(&uni);
        fz_program_free(&p);
        ls_buf_free(&info);
    }
    ls_buf_printf(&summary, "%zu signature group(s)\n", ngroups);
    for (size_t g = 0; g < ngroups; g++) {
        ls_buf_printf(&summary, "\n== group %zu: %d finding(s), noopt of the first: %s\n", g + 1,
                      groups[g].count, groups[g].noopt);
        ls_buf_printf(&summary, "signature: %s\nfindings: %s\n", groups[g].sig, groups[g].members);
        char path[PATH_MAX + 300];
        snprintf(path, sizeof path, "%s/%s/min.frag", fdir, groups[g].first);
        ls_buf t;
        ls_buf_init(&t);
        if (ls_read_file(path, &t))
            ls_buf_printf(&summary, "minimal shader (%s):\n%s", groups[g].first, t.data);
        ls_buf_free(&t);
        free(groups[g].sig);
        free(groups[g].members);
        free(groups[g].first);
    }
    free(groups);
    char spath[PATH_MAX + 32];
    snprintf(spath, sizeof spath, "%s/findings-summary.txt", out);
    write_text(spath, summary.data ? summary.data : "", summary.len);
    fputs(summary.data ? summary.data : "", stdout);
    ls_buf_free(&summary);
    for (size_t f = 0; f < nn; f++)
        free(names[f]);
    free(names);
    return CLI_OK;
}


/* Remove every discard statement (and nothing else). */
static void drop_discards(fz_node *n)
{
    for (int i = 0; i < n->nkids;) {
        if (n->kind == FZ_BLOCK && n->kids[i]->kind == FZ_DISCARD) {
            fz_node_free(n->kids[i]);
            memmove(n->kids + i, n->kids + i + 1, (size_t)(n->nkids - i - 1) * sizeof *n->kids);
            n->nkids--;
            continue;
        }
        drop_discards(n->kids[i]);
        i++;
    }
}

/* One oracle run of p (after the guard); NULL radeon_debug = default. */
static mesa_outcome judge(const fuzz_cfg *c, const fz_program *p, const char *frag,
                          const char *radeon_debug, char *why, size_t wn)
{
    size_t npx = (size_t)c->w * (size_t)c->h;
    fz_pixel *px = calloc(npx, sizeof *px);
    if (!px)
        return MESA_OUTCOME_HARNESS_ERROR;
    char g[200];
    if (!fz_guard(p, c->w, c->h, px, g, sizeof g)) {
        free(px);
        snprintf(why, wn, "rejected by the guard: %s", g);
        return MESA_OUTCOME_HARNESS_ERROR;
    }
    ls_buf uni;
    ls_buf_init(&uni);
    int nuni = 0;
    write_program(p, frag, NULL, &uni, &nuni);
    oracle_out o;
    oracle_init(&o);
    mesa_outcome oc = oracle(c, frag, &uni, nuni, radeon_debug, px, &o);
    snprintf(why, wn, "%s", o.why);
    oracle_free(&o);
    ls_buf_free(&uni);
    free(px);
    unlink(frag);
    return oc;
}

/* Triage every disagreement of a campaign without reducing it: does
 * RADEON_DEBUG=noopt agree (an optimisation pass), and does the shader agree
 * once its discards are removed (the discard lowering)? One line per finding
 * in DIR/triage.txt and the counts on stdout. */
static int triage_campaign(const fuzz_cfg *c, const char *out)
{
    char fdir[PATH_MAX + 32];
    snprintf(fdir, sizeof fdir, "%s/findings", out);
    DIR *dp = opendir(fdir);
    if (!dp)
        return cli_usage_error("%s: no findings directory", fdir);
    char **names = NULL;
    size_t nn = 0;
    for (struct dirent *de; (de = readdir(dp));) {
        if (de->d_name[0] == '.')
            continue;
        char **nv = realloc(names, (nn + 1) * sizeof *names);
        if (!nv)
            break;
        names = nv;
        names[nn++] = strdup(de->d_name);
    }
    closedir(dp);
    qsort(names, nn, sizeof *names, cmp_str);
    char tpath[PATH_MAX + 32];
    snprintf(tpath, sizeof tpath, "%s/triage.txt", out);
    FILE *tf = fopen(tpath, "w");
    if (!tf)
        return cli_usage_error("cannot write %s", tpath);
    size_t n_noopt = 0, n_discard = 0, n_other = 0, n_total = 0, n_gone = 0;
    for (size_t f = 0; f < nn; f++) {
        char path[3 * PATH_MAX], v[128], oname[64] = "", frag[3 * PATH_MAX];
        snprintf(path, sizeof path, "%s/%s/info.txt", fdir, names[f]);
        ls_buf info;
        ls_buf_init(&info);
        if (!ls_read_file(path, &info) || !info_get(info.data, "seed", v, sizeof v) ||
            !info_get(info.data, "outcome", oname, sizeof oname) || strcmp(oname, "disagree")) {
            ls_buf_free(&info);
            continue;
        }
        ls_buf_free(&info);
        fz_program p;
        ls_diag d;
        if (fz_generate(strtoull(v, NULL, 10), NULL, &p, &d) != LS_OK)
            continue;
        snprintf(frag, sizeof frag, "%s/%s/triage.frag", fdir, names[f]);
        char w1[600], w2[600], w3[600];
        mesa_outcome base = judge(c, &p, frag, NULL, w1, sizeof w1);
        mesa_outcome noopt = judge(c, &p, frag, "noopt", w2, sizeof w2);
        drop_discards(p.main);
        mesa_outcome nodis = judge(c, &p, frag, NULL, w3, sizeof w3);
        fz_program_free(&p);
        const char *cls;
        n_total++;
        if (base != MESA_OUTCOME_DISAGREE) {
            cls = "no-longer-disagrees";
            n_gone++;
        } else if (noopt == MESA_OUTCOME_AGREE) {
            cls = "noopt-agrees";
            n_noopt++;
        } else if (nodis == MESA_OUTCOME_AGREE) {
            cls = "agrees-without-discard";
            n_discard++;
        } else {
            cls = "other";
            n_other++;
        }
        fprintf(tf, "%s %s noopt=%s without-discard=%s\n", names[f], cls,
                mesa_outcome_table[noopt].name, mesa_outcome_table[nodis].name);
        fflush(tf);
    }
    fclose(tf);
    printf("%zu disagreements: %zu agree with RADEON_DEBUG=noopt, %zu agree once their discards are "
           "removed, %zu neither, %zu no longer disagree\n",
           n_total, n_noopt, n_discard, n_other, n_gone);
    for (size_t f = 0; f < nn; f++)
        free(names[f]);
    free(names);
    return CLI_OK;
}

/* ---- the campaign ------------------------------------------------------- */

static void usage(FILE *f)
{
    fprintf(f,
            "usage: lockstep mesa fuzz [--seed S] [--count N | --time SECONDS] [-j N] [--out DIR]\n"
            "                          [--mesa-drivers DIR] [--size WxH] [--chip C] [--tolerance T]\n"
            "       lockstep mesa fuzz --reduce DIR [--limit N] [--max-tries N] [--all-classes | --class C]\n"
            "       lockstep mesa fuzz --triage DIR\n"
            "       lockstep mesa fuzz --print SEED\n"
            "  Generates random GLSL 1.10 fragment shaders (seeded, deterministic), keeps those\n"
            "  whose result no float rounding can flip (the float guard), compiles them with\n"
            "  Mesa's r300 under the fake-device shim, runs the emitted R500 program on lockstep\n"
            "  and compares with llvmpipe. Every shader that does not agree is kept in\n"
            "  DIR/findings/INDEX/ (original shader, uniforms, r300 log, job, disassembly, diff\n"
            "  image); DIR/log.txt has one line per shader, DIR/summary.txt the counts by class.\n"
            "  --reduce DIR shrinks the disagreements of a campaign (delta debugging over the\n"
            "  AST) and writes min.frag, min.uniforms, min-r300.log (RADEON_DEBUG=fp),\n"
            "  min-program.asm, the noopt verdict and report.txt per finding, and\n"
            "  DIR/findings-summary.txt grouping them by signature. --print SEED prints the\n"
            "  shader a generator seed gives. --triage DIR sorts every disagreement without\n"
            "  reducing it: RADEON_DEBUG=noopt agrees, agrees once its discards are removed,\n"
            "  or neither (DIR/triage.txt). Defaults: --seed 1 --count 100 -j 1 --size 16x16\n"
            "  --tolerance 1e-3 (relative to 1 + |llvmpipe|). Classes and exit statuses:\n"
            "  docs/mesa-fuzz.md.\n");
}

int cli_mesa_fuzz(int argc, char **argv)
{
    static const struct option opts[] = {
        {"seed", required_argument, NULL, 's'},      {"count", required_argument, NULL, 'n'},
        {"time", required_argument, NULL, 't'},      {"jobs", required_argument, NULL, 'j'},
        {"out", required_argument, NULL, 'o'},       {"mesa-drivers", required_argument, NULL, 'D'},
        {"size", required_argument, NULL, 'S'},      {"chip", required_argument, NULL, 'c'},
        {"tolerance", required_argument, NULL, 'T'}, {"reduce", required_argument, NULL, 'r'},
        {"max-tries", required_argument, NULL, 'm'}, {"all-classes", no_argument, NULL, 'a'},
        {"print", required_argument, NULL, 'p'},     {"help", no_argument, NULL, 'h'},
        {"limit", required_argument, NULL, 'l'},     {"triage", required_argument, NULL, 'g'},
        {"class", required_argument, NULL, 'C'},
        {NULL, 0, NULL, 0}};
    fuzz_cfg c;
    memset(&c, 0, sizeof c);
    c.chip = "rv530";
    c.w = c.h = 16;
    c.tol = 1e-3;
    unsigned long long seed = 1;
    long count = -1, secs = -1, jobs = 1, max_tries = 3000, limit = -1;
    const char *out = NULL, *drivers = NULL, *reduce = NULL, *print = NULL, *triage = NULL;
    const char *only = NULL;
    bool all_classes = false;
    optind = 1;
    int ch;
    while ((ch = getopt_long(argc, argv, "j:o:h", opts, NULL)) != -1) {
        char *end;
        switch (ch) {
        case 's':
            errno = 0;
            seed = strtoull(optarg, &end, 0);
            if (errno || *end || !*optarg)
                return cli_usage_error("--seed needs a number");
            break;
        case 'n':
            if (!cli_parse_int(optarg, 1, 100000000, &count))
                return cli_usage_error("--count needs 1..100000000");
            break;
        case 't':
            if (!cli_parse_int(optarg, 1, 10000000, &secs))
                return cli_usage_error("--time needs seconds (1..10000000)");
            break;
        case 'j':
            if (!cli_parse_int(optarg, 1, 64, &jobs))
                return cli_usage_error("-j needs 1..64");
            break;
        case 'o': out = optarg; break;
        case 'D': drivers = optarg; break;
        case 'S':
            if (!cli_parse_size(optarg, &c.w, &c.h) || c.w > 256 || c.h > 256)
                return cli_usage_error("--size needs WxH (at most 256x256)");
            break;
        case 'c': c.chip = optarg; break;
        case 'T':
            c.tol = strtod(optarg, &end);
            if (*end || !(c.tol >= 0))
                return cli_usage_error("--tolerance needs a number >= 0");
            break;
        case 'r': reduce = optarg; break;
        case 'm':
            if (!cli_parse_int(optarg, 1, 1000000, &max_tries))
                return cli_usage_error("--max-tries needs 1..1000000");
            break;
        case 'a': all_classes = true; break;
        case 'l':
            if (!cli_parse_int(optarg, 0, 100000000, &limit))
                return cli_usage_error("--limit needs a number of findings");
            break;
        case 'p': print = optarg; break;
        case 'g': triage = optarg; break;
        case 'C': only = optarg; break;
        case 'h': usage(stdout); return CLI_OK;
        default: usage(stderr); return CLI_USAGE;
        }
    }
    if (optind < argc)
        return cli_usage_error("mesa fuzz: unexpected argument '%s'", argv[optind]);
    if (count > 0 && secs > 0)
        return cli_usage_error("give --count or --time, not both");
    if (print) {
        char *end;
        unsigned long long s = strtoull(print, &end, 0);
        if (*end || !*print)
            return cli_usage_error("--print needs a seed");
        fz_program p;
        ls_diag d;
        if (fz_generate(s, NULL, &p, &d) != LS_OK)
            return cli_report(&d);
        ls_buf b, u;
        ls_buf_init(&b);
        ls_buf_init(&u);
        fz_program_print(&p, &b);
        int nu = fz_program_uniform_args(&p, &u);
        fputs(b.data, stdout);
        const char *s2 = u.data;
        for (int i = 0; i < nu; i++, s2 += strlen(s2) + 1)
            printf("// --uniform %s\n", s2);
        ls_buf_free(&b);
        ls_buf_free(&u);
        fz_program_free(&p);
        return CLI_OK;
    }
    if (strchr(c.chip, '/'))
        return cli_usage_error("--chip: rv515|r520|rv530|r580|HEX");
    char why[PATH_MAX + 64];
    if (!cli_mesa_drivers(drivers, c.drivers, sizeof c.drivers, why, sizeof why))
        return cli_usage_error("%s", why);
    if (!cli_mesa_find_helper("LOCKSTEP_MESA_SHIM", "liblockstep_r300_shim.so", c.shim, sizeof c.shim) ||
        !cli_mesa_find_helper("LOCKSTEP_MESA_GL", "lockstep-mesa-gl", c.gl, sizeof c.gl))
        return cli_usage_error("the r300 shim is not built (install libdrm-dev libegl-dev "
                               "libgl-dev and reconfigure; docs/mesa.md)");
    if (triage)
        return triage_campaign(&c, triage);
    if (reduce)
        return reduce_campaign(&c, reduce, (size_t)max_tries, all_classes, limit, only);
    if (count < 0 && secs < 0)
        count = 100;
    char tmpout[] = "/tmp/lockstep-fuzz-out-XXXXXX";
    bool own_out = !out;
    if (own_out) {
        if (!mkdtemp(tmpout))
            return cli_usage_error("cannot create a temporary directory");
        out = tmpout;
    }
    char p[PATH_MAX + 64];
    mkdir(out, 0755);
    snprintf(p, sizeof p, "%s/work", out);
    mkdir(p, 0755);
    snprintf(p, sizeof p, "%s/findings", out);
    if (mkdir(p, 0755) != 0 && errno != EEXIST)
        return cli_usage_error("cannot create %s: %s", p, strerror(errno));
    snprintf(p, sizeof p, "%s/log.txt", out);
    FILE *logf = fopen(p, "a");
    if (!logf)
        return cli_usage_error("cannot write %s", p);
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    size_t counts[MESA_OUTCOME_COUNT] = {0}, rejected = 0, done = 0, negzero = 0;
    pid_t *pids = calloc((size_t)jobs, sizeof *pids);
    uint64_t *idx = calloc((size_t)jobs, sizeof *idx);
    if (!pids || !idx) {
        fclose(logf);
        free(pids);
        free(idx);
        return cli_usage_error("out of memory");
    }
    fprintf(logf, "# lockstep mesa fuzz --seed %llu, %dx%d, chip %s, tolerance %g, drivers %s\n",
            seed, c.w, c.h, c.chip, c.tol, c.drivers[0] ? c.drivers : "(system)");
    uint64_t next = 0;
    long running = 0;
    for (;;) {
        clock_gettime(CLOCK_MONOTONIC, &t1);
        double el = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
        bool more = count > 0 ? (long)next < count : el < (double)secs;
        if (more && running < jobs) {
            long slot = 0;
            while (pids[slot])
                slot++;
            fflush(NULL);
            pid_t pid = fork();
            if (pid == 0) {
                run_case(&c, out, seed, next);
                _exit(0);
            }
            if (pid < 0) {
                fprintf(stderr, "lockstep: fork failed: %s\n", strerror(errno));
                break;
            }
            pids[slot] = pid;
            idx[slot] = next++;
            running++;
            continue;
        }
        if (!running)
            break;
        int status;
        pid_t pid = wait(&status);
        if (pid < 0)
            break;
        long slot = 0;
        while (slot < jobs && pids[slot] != pid)
            slot++;
        if (slot == jobs)
            continue;
        pids[slot] = 0;
        running--;
        char res[PATH_MAX + 64];
        snprintf(res, sizeof res, "%s/work/%06llu.res", out, (unsigned long long)idx[slot]);
        ls_buf r;
        ls_buf_init(&r);
        mesa_outcome oc = MESA_OUTCOME_HARNESS_ERROR;
        if (ls_read_file(res, &r) && r.len) {
            unsigned long long ii, ss;
            int rej = 0;
            char name[64] = "";
            if (sscanf(r.data, "%llu %llu %d %63s", &ii, &ss, &rej, name) == 4) {
                rejected += (size_t)rej;
                for (int k = 0; k < MESA_OUTCOME_COUNT; k++)
                    if (!strcmp(name, mesa_outcome_table[k].name))
                        oc = (mesa_outcome)k;
            }
            fputs(r.data, logf);
            negzero += oc == MESA_OUTCOME_DISAGREE && strstr(r.data, "texkill-zero=kill");
        } else {
            fprintf(logf, "%llu - 0 %s\tworker died (status 0x%x)\n",
                    (unsigned long long)idx[slot], mesa_outcome_table[oc].name, status);
        }
        ls_buf_free(&r);
        unlink(res);
        fflush(logf);
        counts[oc]++;
        done++;
        if (oc != MESA_OUTCOME_AGREE)
            printf("shader %llu: %s\n", (unsigned long long)idx[slot], mesa_outcome_table[oc].name);
        if (done % 100 == 0) {
            printf("%zu shaders, %zu disagree\n", done, counts[MESA_OUTCOME_DISAGREE]);
            fflush(stdout);
        }
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double el = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
    ls_buf sum;
    ls_buf_init(&sum);
    ls_buf_printf(&sum, "seed %llu: %zu shaders in %.0f s (%zu generated shaders rejected by the float guard)\n",
                  seed, done, el, rejected);
    for (int k = 0; k < MESA_OUTCOME_COUNT; k++)
        ls_buf_printf(&sum, "  %-20s %zu\n", mesa_outcome_table[k].name, counts[k]);
    ls_buf_printf(&sum, "  (disagreements that texkill-zero=kill removes: %zu)\n", negzero);
    fputs(sum.data, stdout);
    for (const char *q = sum.data; q && *q;) { /* every summary line a comment */
        size_t l = strcspn(q, "\n");
        fprintf(logf, "# %.*s\n", (int)l, q);
        q += l + (q[l] == '\n');
    }
    fclose(logf);
    snprintf(p, sizeof p, "%s/summary.txt", out);
    write_text(p, sum.data, sum.len);
    ls_buf_free(&sum);
    snprintf(p, sizeof p, "%s/work", out);
    rmdir(p);
    free(pids);
    free(idx);
    if (own_out)
        rm_tree(tmpout);
    /* 0 when every shader agreed, else the status of the first class seen
     * in table order after agree */
    for (int k = 1; k < MESA_OUTCOME_COUNT; k++)
        if (counts[k])
            return mesa_outcome_table[k].exit_status;
    return CLI_OK;
}
