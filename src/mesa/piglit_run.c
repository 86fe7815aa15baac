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
    if (!piglit_test_check_inputs(&t)) {
        res->kind = MESA_PIGLIT_SKIP;
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
            res->kind = MESA_PIGLIT_SKIP;
            snprintf(res->reason, sizeof res->reason,
                     "vertex-shader test: the result is computed by the vertex program and "
                     "reaches the fragment shader as a varying");
            snprintf(res->key, sizeof res->key, "harness: vertex-shader test");
            piglit_test_free(&t);
            return;
        }
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
    char env_drv[PATH_MAX + 32];
    snprintf(env_drv, sizeof env_drv, "LIBGL_DRIVERS_PATH=%.*s", PATH_MAX - 1, o->drivers ? o->drivers : "");
    char *env_r300[] = {env_out, env_chip, env_pre, o->drivers && *o->drivers ? env_drv : NULL, NULL};
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
        int vrc = mesa_spawn_wait(argv_v, env_lp, vlog);
        if (vrc != 0) {
            res->kind = MESA_PIGLIT_FAIL;
            if (mesa_log_line(vlog, verdicts, line, sizeof line))
                snprintf(res->reason, sizeof res->reason, "llvmpipe varying pass: %.500s", line + 6);
            else
                snprintf(res->reason, sizeof res->reason, "llvmpipe varying pass exited with %d", vrc);
            mesa_rm_tree(dir);
            piglit_test_free(&t);
            return;
        }
    }
    rc = mesa_spawn_wait(argv_r300, env_r300, log);
    static const char *const compiler[] = {"Compiler Error", "Compiler error", "r300 FP:",
                                           "r300 VP:", NULL};
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
            st = mesa_read_dwords(ib, &dw, &ndw, &cap, &d);
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
            res->kind = MESA_PIGLIT_FAIL;
            char m[560];
            ls_diag_format(&d, m, sizeof m);
            snprintf(res->reason, sizeof res->reason, "harness: %s", m);
            keep = true;
        } else if (cs.ndraws != expect) {
            res->kind = MESA_PIGLIT_FAIL;
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
            float *vimg = NULL;
            float ortho[4];
            bool have_ortho = false;
            color_bits = false;
            res->kind = fb ? MESA_PIGLIT_PASS : MESA_PIGLIT_FAIL;
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
                        st = mesa_read_rawf(vp, t.width, t.height, &vimg, &d);
                    }
                    if (st == LS_OK)
                        st = run_draw(&t, &cs.draws[next], next, fragcoord,
                                      vimg, x0, y0, x1, y1, fb, &faults, &res->fc_issued, &d);
                    free(vimg);
                    vimg = NULL;
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
                    if (res->kind == MESA_PIGLIT_PASS &&
                        !piglit_probe(&t, c, tol, fb, res->reason, sizeof res->reason)) {
                        res->kind = MESA_PIGLIT_FAIL;
                        keep = true;
                    }
                    break;
                case PIGLIT_UNIFORM:
                    break;
                }
            }
            if (st == LS_ERR_UNSUPPORTED) {
                res->kind = MESA_PIGLIT_SKIP; /* the input model cannot place the inputs */
                char m[560];
                ls_diag_format(&d, m, sizeof m);
                snprintf(res->reason, sizeof res->reason, "inputs: %s", m);
            } else if (st != LS_OK) {
                res->kind = MESA_PIGLIT_FAIL;
                char m[560];
                ls_diag_format(&d, m, sizeof m);
                snprintf(res->reason, sizeof res->reason, "lockstep: %s", m);
                keep = true;
            } else if (faults && res->kind == MESA_PIGLIT_PASS) {
                res->kind = MESA_PIGLIT_FAIL;
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
        float *img = NULL;
        int lrc = mesa_spawn_wait(argv_lp, env_lp, llog);
        if (lrc == 0 && mesa_read_rawf(ref, t.width, t.height, &img, &d) == LS_OK) {
            res->llvmpipe = probes_pass_on(&t, img);
            free(img);
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
        mesa_rm_tree(dst); /* an earlier run's capture of the same test */
        if (mesa_piglit_make_dirs(o->keep) == 0 && rename(dir, dst) == 0) {
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
        mesa_rm_tree(dir);
    }
    piglit_test_free(&t);
}
