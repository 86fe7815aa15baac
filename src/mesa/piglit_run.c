/* One piglit shader_test through Mesa's r300 (under the fake-device shim)
 * and lockstep, checked against the test's own probes (docs/mesa.md
 * "piglit"; include/lockstep/mesa_piglit_run.h). Runs the GL program
 * lockstep-mesa-gl as a child process; never prints. */
#define _GNU_SOURCE 1 /* nftw */
#include "lockstep/mesa_piglit_run.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base/buf.h"
#include "lockstep/mesa_cs.h"
#include "lockstep/mesa_draw.h"
#include "lockstep/mesa_piglit.h"
#include "lockstep/r500.h"
#include "mesa/proc.h"


int mesa_piglit_make_dirs(const char *path)
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

/* ---- one test ----------------------------------------------------------- */

/* The test's next draw through the whole pipeline (the texture units and
 * the render backend over the capture's buffer objects: mesa_replay_draw),
 * after the blits r300 put before it (texture uploads: draws into another
 * buffer than the frame's, whose handle is the last draw's colour buffer).
 * *cursor is the next draw of the capture. A draw without a colour buffer
 * stores into the plain image as the RGBA8 colour buffer stores it
 * (assumption piglit-rgba8). */
static ls_status run_draw(const piglit_test *t, mesa_replay *c, long frame, size_t *cursor,
                          r500_raster_stats *rs, ls_diag *d)
{
    mesa_render_options ro;
    memset(&ro, 0, sizeof ro);
    ro.width = t->width;
    ro.height = t->height;
    r500_raster_options_default(&ro.raster);
    ro.workers = 1; /* the harness runs tests in parallel */
    while (*cursor < c->all.ndraws) {
        size_t n = (*cursor)++;
        bool own = mesa_replay_cb_handle(c, n) == frame;
        ls_status st = mesa_replay_draw(c, n, &ro, own ? rs : NULL, d);
        if (st != LS_OK || own)
            return st;
    }
    return ls_diag_set(d, LS_ERR_PARSE, NULL, 0, 0, "the capture has no draw left for the test");
}

/* Draws of the capture that render into the frame (the last draw's buffer). */
static size_t frame_draws(const mesa_replay *c, long *frame)
{
    *frame = c->all.ndraws ? mesa_replay_cb_handle(c, c->all.ndraws - 1) : -1;
    size_t k = 0;
    for (size_t n = 0; n < c->all.ndraws; n++)
        k += mesa_replay_cb_handle(c, n) == *frame;
    return k;
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
        if (t->cmds[i].kind == PIGLIT_DRAW_RECT || t->cmds[i].kind == PIGLIT_DRAW_ARRAYS ||
            t->cmds[i].kind == PIGLIT_CLEAR)
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

/* The line after the first one of log that contains key (r300 prints the
 * reason of a vertex-program compiler error on the line after its header). */
static bool log_next_line(const char *log, const char *key, char *out, size_t n)
{
    FILE *f = fopen(log, "r");
    if (!f)
        return false;
    char line[1024];
    bool seen = false, found = false;
    while (!found && fgets(line, sizeof line, f)) {
        if (seen) {
            size_t k = strcspn(line, "\n");
            if (k >= n)
                k = n - 1;
            memcpy(out, line, k);
            out[k] = 0;
            found = k > 0;
            break;
        }
        seen = strstr(line, key) != NULL;
    }
    fclose(f);
    return found;
}

static double wall_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void run_test(const mesa_piglit_config *o, const char *path, const char *name,
                     mesa_piglit_result *res);

void mesa_piglit_run_test(const mesa_piglit_config *o, const char *path, const char *name,
                          mesa_piglit_result *res)
{
    double t0 = wall_now();
    run_test(o, path, name, res);
    res->start = t0;
    res->end = wall_now();
}

static void run_test(const mesa_piglit_config *o, const char *path, const char *name,
                     mesa_piglit_result *res)
{
    memset(res, 0, sizeof *res);
    res->llvmpipe = -1;
    ls_buf text;
    ls_buf_init(&text);
    ls_diag d;
    ls_diag_clear(&d);
    if (!ls_read_file(path, &text)) {
        res->kind = MESA_PIGLIT_FAIL;
        snprintf(res->reason, sizeof res->reason, "harness: cannot read %s", path);
        ls_buf_free(&text);
        return;
    }
    piglit_test t;
    ls_status st = piglit_test_parse(text.data, text.len, name, &t, &d);
    ls_buf_free(&text);
    if (st != LS_OK) {
        res->kind = MESA_PIGLIT_FAIL;
        ls_diag_format(&d, res->reason, sizeof res->reason);
        return;
    }
    if (!piglit_test_check_pipeline(&t)) {
        res->kind = MESA_PIGLIT_SKIP;
        char at[32] = "";
        if (t.skip_line > 0)
            snprintf(at, sizeof at, " (line %d)", t.skip_line);
        snprintf(res->reason, sizeof res->reason, "%s%s", t.skip, at);
        snprintf(res->key, sizeof res->key, "harness: %s", t.skip_key);
        piglit_test_free(&t);
        return;
    }
    char dir[PATH_MAX / 2];
    const char *tmp = getenv("TMPDIR");
    snprintf(dir, sizeof dir, "%s/lockstep-piglit-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(dir)) {
        res->kind = MESA_PIGLIT_FAIL;
        snprintf(res->reason, sizeof res->reason, "harness: cannot create a temporary directory");
        piglit_test_free(&t);
        return;
    }
    char log[PATH_MAX], env_out[PATH_MAX + 32], env_chip[64], env_pre[PATH_MAX + 16];
    snprintf(log, sizeof log, "%s/r300.log", dir);
    snprintf(env_out, sizeof env_out, "LOCKSTEP_SHIM_OUT=%s", dir);
    snprintf(env_chip, sizeof env_chip, "LOCKSTEP_SHIM_CHIP=%s", o->chip);
    snprintf(env_pre, sizeof env_pre, "LD_PRELOAD=%s", o->shim);
    /* the shim's sysfs mirror in dir: removed with it, or before it is kept,
     * also when the GL program crashes (the shim cannot clean up then) */
    char env_shimtmp[PATH_MAX];
    snprintf(env_shimtmp, sizeof env_shimtmp, "LOCKSTEP_SHIM_DIR=%s", dir);
    char env_drv[PATH_MAX + 32];
    snprintf(env_drv, sizeof env_drv, "LIBGL_DRIVERS_PATH=%.*s", PATH_MAX - 1, o->drivers ? o->drivers : "");
    char *env_r300[] = {env_out, env_chip, env_pre, env_shimtmp, "LOCKSTEP_SHIM_BOS=1",
                        o->drivers && *o->drivers ? env_drv : NULL, NULL};
    char *argv_r300[] = {(char *)o->gl, "--shader-test", (char *)path, "--pipeline", NULL};
    int rc = 0;
    char line[600] = "";
    static const char *const verdicts[] = {"skip: ", "fail: ", NULL};
    rc = mesa_spawn_wait(argv_r300, env_r300, log);
    /* r300's compiler failures: "r300 FP: Compiler Error:" (r300_fs.c: it draws
     * with a dummy program) and "r300 VP: Compiler error:" (r300_vs.c: "Corresponding
     * draws will be skipped"). Its other "r300 VP:" lines are warnings after which
     * the draw runs as usual: "cannot handle clip vertex output" (gl_ClipVertex is
     * ignored, r300_vs.c r300_shader_read_vs_outputs), "cannot handle edgeflag
     * output", "unknown vertex output semantic"; the probes decide those tests, as
     * under shader_runner. */
    static const char *const compiler[] = {"Compiler Error", "Compiler error", NULL};
    static const char *const warnings[] = {"r300 VP: cannot handle", "r300 VP: unknown", NULL};
    bool keep = false, cites_log = false;
    if (rc == 77) {
        res->kind = MESA_PIGLIT_SKIP;
        if (mesa_log_line(log, verdicts, line, sizeof line))
            snprintf(res->reason, sizeof res->reason, "r300: %.500s", line + 6);
        else
            snprintf(res->reason, sizeof res->reason, "r300: a requirement is not met");
        /* the GL program names the kind of reason (src/mesa/glrun_piglit.c) */
        static const char *const keyp[] = {"skip-key: ", NULL};
        char kl[600];
        if (mesa_log_line(log, keyp, kl, sizeof kl))
            snprintf(res->key, sizeof res->key, "r300: %.300s", kl + 10);
        else
            snprintf(res->key, sizeof res->key, "r300: a requirement is not met");
    } else if (rc != 0) {
        res->kind = MESA_PIGLIT_FAIL;
        if (mesa_log_line(log, verdicts, line, sizeof line))
            snprintf(res->reason, sizeof res->reason, "GL: %.500s", line + 6);
        else
            snprintf(res->reason, sizeof res->reason, "GL program %s %d under r300 (log %.300s)",
                     rc > 128 ? "killed by signal" : "exited with status", rc > 128 ? rc - 128 : rc,
                     log), cites_log = true;
        keep = true;
    } else if (mesa_log_line(log, compiler, line, sizeof line)) {
        /* r300 prints "r300 FP: Compiler Error:", then "file::function(): why",
         * and renders with a dummy program */
        static const char *const detail[] = {"Too many", "():", NULL};
        char why[600] = "";
        if (mesa_log_line(log, detail, why, sizeof why)) {
            char *cut = strstr(why, "Using a dummy shader");
            if (cut)
                *cut = 0;
        }
        res->kind = MESA_PIGLIT_FAIL;
        if (strstr(line, "Compiler error")) /* r300 VP's spelling */
            snprintf(res->reason, sizeof res->reason,
                     "r300 vertex-program compiler error (its draws are skipped): %.400s",
                     log_next_line(log, "r300 VP: Compiler error", why, sizeof why) ? why : line);
        else
            snprintf(res->reason, sizeof res->reason,
                     "r300 compiler error (it renders with a dummy program): %.400s",
                     why[0] ? why : line);
        keep = true;
    } else {
        /* execute every submission in order (vertex fetch, vertex program) */
        mesa_replay cap;
        mesa_replay_options eo;
        mesa_replay_options_default(&eo);
        eo.exec.raster_width = t.width;
        eo.exec.raster_height = t.height;
        eo.plain_unorm8 = true;
        st = mesa_replay_open(dir, &eo, &cap, &d);
        long frame = -1;
        size_t own = 0;
        size_t expect = 0;
        bool color_bits = false;
        for (size_t i = 0; i < t.ncmds; i++) {
            color_bits |= t.cmds[i].kind == PIGLIT_CLEAR_COLOR;
            expect += t.cmds[i].kind == PIGLIT_DRAW_RECT || t.cmds[i].kind == PIGLIT_DRAW_ARRAYS ||
                      (t.cmds[i].kind == PIGLIT_CLEAR && color_bits);
        }
        if (st != LS_OK) {
            res->kind = MESA_PIGLIT_FAIL;
            char m[560];
            ls_diag_format(&d, m, sizeof m);
            snprintf(res->reason, sizeof res->reason, "harness: %s", m);
            keep = true;
        } else if ((own = frame_draws(&cap, &frame)) != expect) {
            res->kind = MESA_PIGLIT_FAIL;
            snprintf(res->reason, sizeof res->reason,
                     "harness: r300 submitted %zu draws into the frame (%zu in all), the test "
                     "makes %zu", own, cap.all.ndraws, expect);
            keep = true;
        } else {
            size_t np = (size_t)t.width * (size_t)t.height * 4, next = 0;
            float *fb = calloc(np, sizeof *fb);
            float tol[4] = {0.01f, 0.01f, 0.01f, 0.01f};
            r500_raster_stats rs;
            memset(&rs, 0, sizeof rs);
            color_bits = false;
            res->kind = fb ? MESA_PIGLIT_PASS : MESA_PIGLIT_FAIL;
            for (size_t i = 0; fb && i < t.ncmds && st == LS_OK; i++) {
                const piglit_cmd *c = &t.cmds[i];
                switch (c->kind) {
                case PIGLIT_CLEAR_COLOR:
                    color_bits = true;
                    break;
                case PIGLIT_CLEAR:
                    /* r300 clears through a blitter draw (a point of the window's size) */
                    if (color_bits)
                        st = run_draw(&t, &cap, frame, &next, &rs, &d);
                    break;
                case PIGLIT_DRAW_RECT:
                case PIGLIT_DRAW_ARRAYS:
                    st = run_draw(&t, &cap, frame, &next, &rs, &d);
                    break;
                case PIGLIT_TOLERANCE:
                    memcpy(tol, c->v, sizeof tol);
                    break;
                case PIGLIT_PROBE:
                    /* the frame as it stands: the colour buffer read back */
                    mesa_replay_frame(&cap, t.width, t.height, fb);
                    if (res->kind == MESA_PIGLIT_PASS &&
                        !piglit_probe(&t, c, tol, fb, res->reason, sizeof res->reason)) {
                        res->kind = MESA_PIGLIT_FAIL;
                        keep = true;
                    }
                    break;
                case PIGLIT_ORTHO:
                case PIGLIT_UNIFORM:
                case PIGLIT_FRUSTUM:
                case PIGLIT_ENABLE:
                case PIGLIT_CLIP_PLANE:
                case PIGLIT_SHADE_MODEL:
                case PIGLIT_TEXTURE:
                case PIGLIT_TEXPARAMETER:
                case PIGLIT_COLOR:
                case PIGLIT_HINT:
                case PIGLIT_LINK_SUCCESS:
                    break; /* state r300 put in the stream (textures: uploads into its BOs) */
                }
            }
            res->fc_issued = rs.inst_fc;
            char warn[600];
            if (res->kind == MESA_PIGLIT_FAIL && mesa_log_line(log, warnings, warn, sizeof warn)) {
                size_t k = strlen(res->reason);
                snprintf(res->reason + k, sizeof res->reason - k, " (r300 warned: %.200s)", warn);
            }
            if (st != LS_OK) {
                res->kind = MESA_PIGLIT_FAIL;
                char m[560];
                ls_diag_format(&d, m, sizeof m);
                snprintf(res->reason, sizeof res->reason, "lockstep: %s", m);
                keep = true;
            } else if (rs.faulted_threads && res->kind == MESA_PIGLIT_PASS) {
                res->kind = MESA_PIGLIT_FAIL;
                snprintf(res->reason, sizeof res->reason, "lockstep: %llu thread(s) faulted",
                         (unsigned long long)rs.faulted_threads);
                keep = true;
            }
            free(fb);
        }
        mesa_replay_free(&cap);
    }
    if (o->llvmpipe && rc != 77) {
        char ref[PATH_MAX + 16], llog[PATH_MAX + 16];
        snprintf(ref, sizeof ref, "%s/llvmpipe.bin", dir);
        snprintf(llog, sizeof llog, "%s/llvmpipe.log", dir);
        char *env_lp[] = {"LIBGL_ALWAYS_SOFTWARE=1", NULL};
        char *argv_lp[] = {(char *)o->gl, "--shader-test", (char *)path, "--pipeline", "-o", ref,
                           NULL};
        float *img = NULL;
        int lrc = mesa_spawn_wait(argv_lp, env_lp, llog);
        if (lrc == 0 && mesa_read_rawf(ref, t.width, t.height, &img, &d) == LS_OK) {
            res->llvmpipe = probes_pass_on(&t, img);
            free(img);
        } else if (lrc != 77) {
            res->llvmpipe = 2; /* the GL program failed or crashed on llvmpipe too */
        }
    }
    if (keep)
        mesa_rm_shim_mirrors(dir); /* a crashed GL program's: not part of the capture */
    if (keep && o->keep) {
        char dst[PATH_MAX * 2];
        snprintf(dst, sizeof dst, "%s/%s", o->keep, name);
        for (char *p = dst + strlen(o->keep) + 1; *p; p++)
            if (*p == '/')
                *p = '@';
        mesa_rm_tree(dst); /* an earlier run's capture of the same test */
        if (mesa_piglit_make_dirs(o->keep) == 0 && rename(dir, dst) == 0) {
            /* the reason's log path: where the log now is */
            char *at = strstr(res->reason, dir);
            if (at) {
                char rest[sizeof res->reason];
                snprintf(rest, sizeof rest, "%s", at + strlen(dir));
                snprintf(at, sizeof res->reason - (size_t)(at - res->reason), "%s%s", dst, rest);
            }
            snprintf(res->reason + strlen(res->reason), sizeof res->reason - strlen(res->reason),
                     " [capture kept in %s]", dst);
        } else {
            snprintf(res->reason + strlen(res->reason), sizeof res->reason - strlen(res->reason),
                     " [capture not kept: %s]", strerror(errno));
            mesa_rm_tree(dir);
        }
    } else if (cites_log && !o->no_keep) {
        /* the reason cites its r300.log: the capture stays where it is */
        snprintf(res->reason + strlen(res->reason), sizeof res->reason - strlen(res->reason),
                 " [capture kept in %s]", dir);
    } else {
        if (cites_log) /* --no-keep: the log the reason names is gone */
            snprintf(res->reason + strlen(res->reason), sizeof res->reason - strlen(res->reason),
                     " [capture deleted: --no-keep]");
        mesa_rm_tree(dir);
    }
    piglit_test_free(&t);
}
