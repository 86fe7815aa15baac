/* A GLSL fragment shader through Mesa's r300 and onto lockstep
 * (include/lockstep/mesa_r300.h; docs/mesa.md). */
#include "lockstep/mesa_r300.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/buf.h"
#include "lockstep/mesa_cs.h"
#include "lockstep/mesa_draw.h"
#include "lockstep/mesa_piglit_run.h"
#include "mesa/proc.h"

/* ---- outcome classes (mesa_r300.h) ---------------------------------------- */

const mesa_outcome_info mesa_outcome_table[MESA_OUTCOME_COUNT] = {
#define ROW(e, name, status, meaning) {MESA_OUTCOME_##e, name, status, meaning},
    MESA_OUTCOME_LIST(ROW)
#undef ROW
};

mesa_outcome mesa_outcome_of_r300_run(int status, const char *log)
{
    if (!log)
        log = "";
    if (status < 0)
        return MESA_OUTCOME_HARNESS_ERROR;
    /* lockstep-mesa-gl prints "compile error:" / "link error:" when Mesa's
     * GLSL compiler refuses the shader (src/mesa/glrun.c) */
    if (status == 1 && (strstr(log, ": compile error:") || strstr(log, "link error:")))
        return MESA_OUTCOME_GLSL_ERROR;
    if (status > 128)
        return MESA_OUTCOME_R300_CRASH;
    if (status != 0)
        return MESA_OUTCOME_HARNESS_ERROR;
    /* r300_fs.c (Mesa 22.3): "r300 FP: Compiler Error:\n<why>Using a dummy
     * shader instead." */
    if (strstr(log, "r300 FP: Compiler Error") || strstr(log, "Using a dummy shader"))
        return MESA_OUTCOME_R300_COMPILE_ERROR;
    return MESA_OUTCOME_AGREE;
}

/* The first line of an r300 run's output that says why it failed: a GLSL
 * error, r300's reason after "r300 FP: Compiler Error:", an assertion. */
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

ls_status mesa_r300_drivers(const char *opt, char *out, size_t n, ls_diag *d)
{
    const char *e = opt && *opt ? opt : getenv("LIBGL_DRIVERS_PATH");
    out[0] = 0;
    if (!e || !*e)
        return LS_OK;
    /* LIBGL_DRIVERS_PATH may list several directories; the loader takes the
     * first that holds the driver */
    const char *s = e;
    while (*s) {
        size_t l = strcspn(s, ":");
        char p[PATH_MAX];
        int k = snprintf(p, sizeof p, "%.*s/r300_dri.so", (int)l, s);
        if (l && k > 0 && (size_t)k < sizeof p && access(p, R_OK) == 0) {
            snprintf(out, n, "%s", e);
            return LS_OK;
        }
        s += l + (s[l] == ':');
    }
    return ls_diag_set(d, LS_ERR_ARG, NULL, 0, 0, "no r300_dri.so in %s (%s)", e,
                       opt && *opt ? "--mesa-drivers" : "LIBGL_DRIVERS_PATH");
}

/* ---- running ------------------------------------------------------------ */

static const char *tmpdir(void)
{
    const char *t = getenv("TMPDIR");
    return t && *t ? t : "/tmp";
}

/* lockstep-mesa-gl FRAG [--vert V] [--uniform U]... --size WxH, the scene
 * options, then extra (NULL-terminated; the scene's --rgba8 wins over an
 * extra --float). Returns a malloc'd argv; size holds the "WxH" text. */
static char **gl_argv(const mesa_r300_config *c, const char *frag, char *size, size_t size_n,
                      const char *const *extra)
{
    size_t ne = 0;
    while (extra && extra[ne])
        ne++;
    char **v = calloc(8 + 2 * c->nuniforms + c->nscene + ne, sizeof *v);
    if (!v)
        return NULL;
    size_t k = 0;
    v[k++] = (char *)c->gl;
    v[k++] = (char *)frag;
    if (c->vert) {
        v[k++] = "--vert";
        v[k++] = (char *)c->vert;
    }
    for (size_t i = 0; i < c->nuniforms; i++) {
        v[k++] = "--uniform";
        v[k++] = (char *)c->uniforms[i];
    }
    snprintf(size, size_n, "%dx%d", c->width, c->height);
    v[k++] = "--size";
    v[k++] = size;
    for (size_t i = 0; i < c->nscene; i++)
        v[k++] = (char *)c->scene[i];
    for (size_t i = 0; i < ne; i++)
        v[k++] = (char *)extra[i];
    v[k] = NULL;
    return v;
}

/* The GL program's own verdict ("fail: ...", "skip: ...", a compiler or
 * link error) from its log, or "": the first line with one of the marks,
 * joined with the next line when it only announces one ("link error:"). */
static void verdict(const char *log, char *why, size_t n)
{
    static const char *const marks[] = {"fail: ", "skip: ", "rror", NULL};
    why[0] = 0;
    FILE *f = fopen(log, "r");
    if (!f)
        return;
    char line[512], next[512];
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = 0;
        bool hit = false;
        for (const char *const *m = marks; *m && !hit; m++)
            hit = strstr(line, *m) != NULL;
        if (!hit)
            continue;
        size_t l = strlen(line);
        if (l && line[l - 1] == ':' && fgets(next, sizeof next, f)) {
            next[strcspn(next, "\n")] = 0;
            snprintf(why, n, "%.280s %.280s", line, next);
        } else {
            snprintf(why, n, "%.560s", line);
        }
        break;
    }
    fclose(f);
}

/* The GL program's output, for a caller that asked for it. */
static void keep_output(const mesa_r300_config *c, const char *log)
{
    if (!c->output)
        return;
    ls_buf b;
    ls_buf_init(&b);
    if (ls_read_file(log, &b) && b.len)
        ls_buf_append(c->output, b.data, b.len);
    ls_buf_free(&b);
}

static ls_status run_gl(const mesa_r300_config *c, const char *frag, char *const *env,
                        const char *const *extra, const char *log, const char *what,
                        mesa_r300_verdict *v, ls_diag *d)
{
    char size[32];
    char **argv = gl_argv(c, frag, size, sizeof size, extra);
    if (!argv)
        return ls_diag_set(d, LS_ERR_NOMEM, NULL, 0, 0, "out of memory");
    int rc = mesa_spawn_wait(argv, env, log);
    free(argv);
    keep_output(c, log);
    if (v) {
        /* the class of the r300 run (docs/mesa-fuzz.md, "Outcome classes") */
        ls_buf b;
        ls_buf_init(&b);
        ls_read_file(log, &b);
        const char *text = b.data ? b.data : "";
        v->gl_status = rc;
        v->outcome = mesa_outcome_of_r300_run(rc, text);
        log_reason(text, v->why, sizeof v->why);
        ls_buf_free(&b);
        if (v->outcome == MESA_OUTCOME_R300_CRASH)
            return ls_diag_set(d, LS_ERR_IO, frag, 0, 0, "%s: the GL program was killed by signal %d "
                               "(%s)%s%s", what, rc - 128, mesa_outcome_table[v->outcome].name,
                               v->why[0] ? ": " : "", v->why);
        if (v->outcome == MESA_OUTCOME_GLSL_ERROR)
            return ls_diag_set(d, LS_ERR_IO, frag, 0, 0, "Mesa's GLSL front end refused the shader "
                               "(%s)%s%s", mesa_outcome_table[v->outcome].name, v->why[0] ? ": " : "",
                               v->why);
    }
    if (rc == 0)
        return LS_OK;
    char why[600];
    verdict(log, why, sizeof why);
    if (rc < 0)
        return ls_diag_set(d, LS_ERR_IO, frag, 0, 0, "%s: cannot start %s", what, c->gl);
    return ls_diag_set(d, LS_ERR_IO, frag, 0, 0, "%s: the GL program %s %d%s%s", what,
                       rc > 128 ? "was killed by signal" : "exited with status",
                       rc > 128 ? rc - 128 : rc, why[0] ? ": " : "", why);
}

/* The varying pass: the one varying the fragment shader reads, per pixel,
 * into the temp the RS set-up names (the colour input for gl_Color, else the
 * texcoord before WPOS; assumption piglit-varyings). */
static ls_status varying_pass(const mesa_r300_config *c, const char *frag, const char *dir,
                              const mesa_cs_draw *dr, bool wpos, r500_job *job, float **img,
                              ls_diag *d)
{
    char prefix[PATH_MAX], log[PATH_MAX];
    snprintf(prefix, sizeof prefix, "%.*s/var", PATH_MAX - 16, dir);
    snprintf(log, sizeof log, "%.*s/varying.log", PATH_MAX - 16, dir);
    char *env[] = {"LIBGL_ALWAYS_SOFTWARE=1", NULL};
    const char *extra[] = {"--varying-pass", prefix, NULL};
    char size[32];
    char **argv = gl_argv(c, frag, size, sizeof size, extra);
    if (!argv)
        return ls_diag_set(d, LS_ERR_NOMEM, NULL, 0, 0, "out of memory");
    int rc = mesa_spawn_wait(argv, env, log);
    free(argv);
    keep_output(c, log);
    char why[600] = "";
    static const char *const marks[] = {"skip: ", "fail: ", NULL};
    mesa_log_line(log, marks, why, sizeof why);
    if (rc == 77 && strstr(why, "reads no varying"))
        return LS_OK;
    if (rc != 0)
        return ls_diag_set(d, LS_ERR_UNSUPPORTED, frag, 0, 0, "varyings: %s",
                           why[0] ? why + 6 : "llvmpipe's varying pass failed");
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%.*s.0.bin", PATH_MAX - 16, prefix);
    ls_status st = mesa_read_rawf(path, c->width, c->height, img, d);
    if (st != LS_OK)
        return st;
    mesa_cs_rs_map m;
    mesa_cs_rs_map_of(dr, &m);
    int generics = m.ntex - (wpos && m.ntex > 0), temp = -1;
    if (wpos && m.ntex == 1 && m.ncol == 0)
        return ls_diag_set(d, LS_ERR_UNSUPPORTED, frag, 0, 0,
                           "one texcoord input for gl_FragCoord and a varying: which one r300 "
                           "dropped cannot be told");
    if (m.ncol + generics > 1)
        return ls_diag_set(d, LS_ERR_UNSUPPORTED, frag, 0, 0,
                           "RS has %d colour and %d texcoord inputs; lockstep feeds one varying", m.ncol,
                           generics);
    if (m.ncol == 1)
        temp = m.col[0];
    else if (generics == 1)
        temp = m.tex[0];
    if (temp >= 0 && temp < R500_NUM_TEMPS) {
        job->inputs[temp].kind = R500_INPUT_IMAGE;
        job->inputs[temp].image = *img;
    }
    return LS_OK;
}

ls_status mesa_r300_job(const mesa_r300_config *c, const char *frag, r500_job *job, float **varying,
                        mesa_r300_verdict *vout, ls_diag *d)
{
    *varying = NULL;
    mesa_r300_verdict vbuf;
    mesa_r300_verdict *v = vout ? vout : &vbuf;
    memset(v, 0, sizeof *v);
    v->outcome = MESA_OUTCOME_HARNESS_ERROR;
    v->rs_texcoords = -1;
    ls_buf src;
    ls_buf_init(&src);
    if (!ls_read_file(frag, &src)) {
        ls_status st = ls_diag_set(d, LS_ERR_IO, frag, 0, 0, "cannot read: %s", strerror(errno));
        ls_buf_free(&src);
        return st;
    }
    /* gl_FragCoord is detected in the GLSL text (mesa-capture.md §4) */
    bool wpos = c->wpos == 1 || (c->wpos == 0 && strstr(src.data, "gl_FragCoord") != NULL);
    v->wpos = wpos;
    ls_buf_free(&src);
    char dir[PATH_MAX / 2];
    snprintf(dir, sizeof dir, "%.*s/lockstep-mesa-XXXXXX", PATH_MAX / 2 - 32, tmpdir());
    if (!mkdtemp(dir))
        return ls_diag_set(d, LS_ERR_IO, NULL, 0, 0, "cannot create a temporary directory in %s: %s",
                           tmpdir(), strerror(errno));
    char env_out[PATH_MAX], env_chip[64], env_pre[PATH_MAX + 16], log[PATH_MAX], ib[PATH_MAX];
    char env_run[PATH_MAX], env_drv[PATH_MAX + 32], env_dbg[128];
    snprintf(env_out, sizeof env_out, "LOCKSTEP_SHIM_OUT=%s", dir);
    /* the shim's sysfs mirror goes inside dir, so that it goes with dir even
     * when the GL program dies of a signal (docs/mesa.md; src/mesa/shim.c) */
    snprintf(env_run, sizeof env_run, "LOCKSTEP_SHIM_DIR=%s", dir);
    snprintf(env_drv, sizeof env_drv, "LIBGL_DRIVERS_PATH=%.*s", PATH_MAX - 1, c->drivers ? c->drivers : "");
    snprintf(env_dbg, sizeof env_dbg, "RADEON_DEBUG=%.100s", c->radeon_debug ? c->radeon_debug : "");
    snprintf(env_chip, sizeof env_chip, "LOCKSTEP_SHIM_CHIP=%s", c->chip ? c->chip : "rv530");
    snprintf(env_pre, sizeof env_pre, "LD_PRELOAD=%s", c->shim);
    snprintf(log, sizeof log, "%s/r300.log", dir);
    snprintf(ib, sizeof ib, "%s/cs_0000.ib", dir);
    char *env[8] = {env_out, env_chip, env_pre, env_run};
    size_t ne = 4;
    if (c->drivers && *c->drivers)
        env[ne++] = env_drv;
    if (c->radeon_debug)
        env[ne++] = env_dbg;
    env[ne] = NULL;
    ls_status st = run_gl(c, frag, env, NULL, log, "r300", v, d);
    uint32_t *dw = NULL;
    size_t ndw = 0, cap = 0;
    if (st == LS_OK && access(ib, R_OK) != 0)
        st = ls_diag_set(d, LS_ERR_IO, frag, 0, 0, "r300 did not compile or submit the shader");
    if (st == LS_OK)
        st = mesa_read_dwords(ib, &dw, &ndw, &cap, d);
    mesa_cs cs;
    memset(&cs, 0, sizeof cs);
    bool have_cs = false;
    if (st == LS_OK) {
        st = mesa_cs_decode(ib, dw ? dw : (uint32_t[1]){0}, ndw, &cs, d);
        have_cs = st == LS_OK;
    }
    free(dw);
    if (st == LS_OK && cs.ndraws == 0)
        st = ls_diag_set(d, LS_ERR_PARSE, frag, 0, 0, "the command stream r300 submitted has no draw");
    if (st == LS_OK) {
        /* assumption mesa-job-last-draw: our quad is the last draw */
        const mesa_cs_draw *dr = &cs.draws[cs.ndraws - 1];
        ls_buf json;
        ls_buf_init(&json);
        mesa_cs_job_json(dr, cs.ndraws - 1, &json);
        if (c->job_json)
            ls_buf_append(c->job_json, json.data, json.len);
        mesa_cs_rs_map m;
        mesa_cs_rs_map_of(dr, &m);
        v->rs_texcoords = m.ntex;
        st = r500_job_load_json(job, "decoded", json.data, json.len, d);
        ls_buf_free(&json);
        if (st == LS_OK) {
            job->width = c->width;
            job->height = c->height;
            mesa_cs_set_inputs(dr, wpos, job);
            /* With a vertex shader, the varying is what it writes, interpolated:
             * llvmpipe computes it (the default vertex shader's uv is fed exactly). */
            if (c->vert)
                st = varying_pass(c, frag, dir, dr, wpos, job, varying, d);
        }
    }
    if (have_cs)
        mesa_cs_free(&cs);
    mesa_rm_tree(dir);
    if (st != LS_OK && (v->outcome == MESA_OUTCOME_AGREE || v->outcome == MESA_OUTCOME_R300_COMPILE_ERROR))
        v->outcome = MESA_OUTCOME_HARNESS_ERROR; /* r300 ran, but lockstep got no job */
    return st;
}

ls_status mesa_r300_render(const mesa_r300_config *c, const char *frag, unsigned workers,
                           float **rgba, r500_raster_stats *rs, mesa_r300_verdict *v, ls_diag *d)
{
    *rgba = NULL;
    if (v)
        memset(v, 0, sizeof *v);
    char dir[PATH_MAX / 2];
    if (c->capture) {
        /* the caller's capture directory: new or empty, so that every file in
         * it is this run's */
        snprintf(dir, sizeof dir, "%.*s", PATH_MAX / 2 - 32, c->capture);
        if (mesa_piglit_make_dirs(dir))
            return ls_diag_set(d, LS_ERR_IO, dir, 0, 0, "cannot create the capture directory: %s",
                               strerror(errno));
        DIR *dd = opendir(dir);
        struct dirent *e = NULL;
        while (dd && (e = readdir(dd)) && (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")))
            ;
        bool empty = dd && !e;
        if (dd)
            closedir(dd);
        if (!empty)
            return ls_diag_set(d, LS_ERR_IO, dir, 0, 0,
                               "the capture directory must be new or empty");
    } else {
        snprintf(dir, sizeof dir, "%.*s/lockstep-mesa-XXXXXX", PATH_MAX / 2 - 32, tmpdir());
        if (!mkdtemp(dir))
            return ls_diag_set(d, LS_ERR_IO, NULL, 0, 0,
                               "cannot create a temporary directory in %s: %s", tmpdir(),
                               strerror(errno));
    }
    char env_out[PATH_MAX], env_chip[64], env_pre[PATH_MAX + 16], log[PATH_MAX];
    snprintf(env_out, sizeof env_out, "LOCKSTEP_SHIM_OUT=%s", dir);
    snprintf(env_chip, sizeof env_chip, "LOCKSTEP_SHIM_CHIP=%s", c->chip ? c->chip : "rv530");
    snprintf(env_pre, sizeof env_pre, "LD_PRELOAD=%s", c->shim);
    snprintf(log, sizeof log, "%s/r300.log", dir);
    /* as mesa_r300_job: the shim's mirror inside dir, the caller's drivers */
    char env_run[PATH_MAX], env_drv[PATH_MAX + 32], env_dbg[128];
    snprintf(env_run, sizeof env_run, "XDG_RUNTIME_DIR=%s", dir);
    snprintf(env_drv, sizeof env_drv, "LIBGL_DRIVERS_PATH=%.*s", PATH_MAX - 1, c->drivers ? c->drivers : "");
    snprintf(env_dbg, sizeof env_dbg, "RADEON_DEBUG=%.100s", c->radeon_debug ? c->radeon_debug : "");
    char *env[8] = {env_out, env_chip, env_pre, env_run, "LOCKSTEP_SHIM_BOS=1"};
    size_t ne = 5;
    if (c->drivers && *c->drivers)
        env[ne++] = env_drv;
    if (c->radeon_debug)
        env[ne++] = env_dbg;
    env[ne] = NULL;
    /* r300 renders into an RGBA32F colour buffer (--float, as the llvmpipe
     * reference does): the frame read back from it is the fragment
     * program's output without an 8-bit rounding */
    static const char *const float_arg[] = {"--float", NULL};
    ls_status st = run_gl(c, frag, env, float_arg, log, "r300", v, d);
    mesa_replay rp;
    memset(&rp, 0, sizeof rp);
    if (st == LS_OK) {
        mesa_replay_options po;
        mesa_replay_options_default(&po);
        po.exec.raster_width = c->width;
        po.exec.raster_height = c->height;
        st = mesa_replay_open(dir, &po, &rp, d);
    }
    if (st == LS_OK && rp.all.ndraws == 0)
        st = ls_diag_set(d, LS_ERR_PARSE, frag, 0, 0, "the command stream r300 submitted has no draw");
    float *img = NULL;
    if (st == LS_OK && !(img = calloc((size_t)c->width * (size_t)c->height * 4, sizeof *img)))
        st = ls_diag_set(d, LS_ERR_NOMEM, NULL, 0, 0, "out of memory");
    if (st == LS_OK) {
        mesa_render_options ro;
        memset(&ro, 0, sizeof ro);
        ro.width = c->width;
        ro.height = c->height;
        r500_raster_options_default(&ro.raster);
        ro.workers = workers;
        if (rs)
            memset(rs, 0, sizeof *rs);
        for (size_t k = 0; k < rp.all.ndraws && st == LS_OK; k++)
            st = mesa_replay_draw(&rp, k, &ro, rs, d);
        /* the colour buffer read back by decoding its format and tiling */
        if (st == LS_OK)
            mesa_replay_frame(&rp, c->width, c->height, img);
    }
    mesa_replay_free(&rp);
    if (!c->capture)
        mesa_rm_tree(dir);
    if (st != LS_OK) {
        free(img);
        return st;
    }
    *rgba = img;
    return LS_OK;
}

ls_status mesa_llvmpipe_image(const mesa_r300_config *c, const char *frag, float **rgba, ls_diag *d)
{
    *rgba = NULL;
    char dir[PATH_MAX / 2];
    snprintf(dir, sizeof dir, "%.*s/lockstep-mesa-ref-XXXXXX", PATH_MAX / 2 - 32, tmpdir());
    if (!mkdtemp(dir))
        return ls_diag_set(d, LS_ERR_IO, NULL, 0, 0, "cannot create a temporary directory in %s: %s",
                           tmpdir(), strerror(errno));
    char ref[PATH_MAX], log[PATH_MAX];
    snprintf(ref, sizeof ref, "%s/ref.bin", dir);
    snprintf(log, sizeof log, "%s/llvmpipe.log", dir);
    char *env[] = {"LIBGL_ALWAYS_SOFTWARE=1", NULL};
    const char *extra[] = {"--float", "-o", ref, NULL};
    ls_status st = run_gl(c, frag, env, extra, log, "llvmpipe", NULL, d);
    if (st == LS_OK)
        st = mesa_read_rawf(ref, c->width, c->height, rgba, d);
    mesa_rm_tree(dir);
    return st;
}

ls_status mesa_llvmpipe_time(const mesa_r300_config *c, const char *frag, unsigned threads, int repeat,
                             double *seconds, double *cpu_seconds, ls_diag *d)
{
    char dir[PATH_MAX / 2];
    snprintf(dir, sizeof dir, "%.*s/lockstep-mesa-time-XXXXXX", PATH_MAX / 2 - 32, tmpdir());
    if (!mkdtemp(dir))
        return ls_diag_set(d, LS_ERR_IO, NULL, 0, 0, "cannot create a temporary directory in %s: %s",
                           tmpdir(), strerror(errno));
    char log[PATH_MAX], lp[64], rep[16];
    snprintf(log, sizeof log, "%s/llvmpipe.log", dir);
    snprintf(lp, sizeof lp, "LP_NUM_THREADS=%u", threads);
    snprintf(rep, sizeof rep, "%d", repeat);
    char *env[] = {"LIBGL_ALWAYS_SOFTWARE=1", lp, NULL};
    const char *extra[] = {"--float", "--repeat", rep, NULL};
    ls_status st = run_gl(c, frag, env, extra, log, "llvmpipe", NULL, d);
    char line[128];
    static const char *const marks[] = {"draw_seconds ", NULL};
    double cpu = -1;
    if (st == LS_OK && (!mesa_log_line(log, marks, line, sizeof line) ||
                        sscanf(line, "draw_seconds %lf cpu_seconds %lf", seconds, &cpu) != 2))
        st = ls_diag_set(d, LS_ERR_IO, frag, 0, 0, "llvmpipe: the GL program printed no draw time");
    if (cpu_seconds)
        *cpu_seconds = cpu;
    mesa_rm_tree(dir);
    return st;
}

void mesa_compare_images(const float *a, const float *b, int w, int h, double tol, float *diff,
                         mesa_compare *out)
{
    size_t n = (size_t)w * (size_t)h;
    out->bad = 0;
    out->max_diff = 0;
    out->first = -1;
    for (size_t i = 0; i < n; i++) {
        bool pix_bad = false;
        for (int ch = 0; ch < 4; ch++) {
            float x = a[4 * i + ch], y = b[4 * i + ch];
            double dd = (x == y) ? 0.0 : fabs((double)x - (double)y);
            if (dd != dd)
                dd = INFINITY; /* NaN on one side only */
            if (dd > out->max_diff)
                out->max_diff = dd;
            if (dd > tol)
                pix_bad = true;
            if (diff) {
                double v = tol > 0 ? dd / tol : (dd > 0);
                diff[4 * i + ch] = ch == 3 ? 1.0f : (float)(v > 1 ? 1 : v);
            }
        }
        if (pix_bad) {
            out->bad++;
            if (out->first < 0)
                out->first = (long)i;
        }
    }
}
