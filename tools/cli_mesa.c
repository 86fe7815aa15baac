/* `lockstep mesa ...`: the Mesa r300 harness. `decode` turns a captured
 * command stream into lockstep R500 jobs (docs/mesa.md). */
#include <errno.h>
#include <limits.h>
#include <time.h>
#include <math.h>
#include <sys/wait.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli.h"
#include "io/image.h"
#include "lockstep/mesa_cs.h"
#include "lockstep/mesa_glsl.h"
#include "lockstep/r500.h"

int cli_mesa_decode(cli_args *a)
{
    const char *in = a->ops[0], *out = cli_get(a, "output");
    long which = -1;
    bool all = cli_flag(a, "all");
    int rc0 = cli_opt_long(a, "draw", 0, 1000000, &which);
    if (rc0)
        return rc0;
    if (all && which >= 0)
        return cli_usage(a, "--draw and --all exclude each other");
    if (!out)
        out = "-";
    ls_buf data;
    int rcr = cli_read(a, in, &data);
    if (rcr)
        return rcr;
    ls_diag d;
    ls_diag_clear(&d);
    in = cli_name(in);
    if (data.len % 4) {
        ls_diag_set(&d, LS_ERR_PARSE, in, 0, 0, "%zu bytes is not a whole number of dwords",
                    data.len);
        ls_diag_at_offset(&d, (long)(data.len - data.len % 4));
        ls_buf_free(&data);
        return cli_report(a, &d);
    }
    size_t n = data.len / 4;
    uint32_t *dw = malloc(n ? n * 4 : 4);
    for (size_t k = 0; dw && k < n; k++) {
        const uint8_t *p = (const uint8_t *)data.data + 4 * k;
        dw[k] = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
    }
    ls_buf_free(&data);
    mesa_cs cs;
    if (!dw || mesa_cs_decode(in, dw, n, &cs, &d) != LS_OK) {
        free(dw);
        return dw ? cli_report(a, &d) : cli_err(a, CLI_INTERNAL, "out of memory");
    }
    free(dw);
    int rc = CLI_OK;
    if (cs.ndraws == 0) {
        ls_diag_set(&d, LS_ERR_PARSE, in, 0, 0, "the command stream has no draw packet");
        rc = cli_report(a, &d);
    } else if (which >= (long)cs.ndraws) {
        ls_diag_set(&d, LS_ERR_RANGE, in, 0, 0, "draw %ld requested, the stream has %zu", which,
                    cs.ndraws);
        rc = cli_report(a, &d);
    } else {
        ls_buf b;
        ls_buf_init(&b);
        if (all) {
            ls_buf_puts(&b, "[\n");
            for (size_t k = 0; k < cs.ndraws; k++) {
                if (k)
                    ls_buf_puts(&b, ",\n");
                mesa_cs_job_json(&cs.draws[k], k, &b);
            }
            ls_buf_puts(&b, "]\n");
        } else {
            size_t k = which >= 0 ? (size_t)which : cs.ndraws - 1;
            mesa_cs_job_json(&cs.draws[k], k, &b);
        }
        rc = cli_write(a, out, &b);
        ls_buf_free(&b);
    }
    mesa_cs_free(&cs);
    return rc;
}


/* Where the shim and the GL program are: $LOCKSTEP_MESA_SHIM / $LOCKSTEP_MESA_GL,
 * else beside this binary in a build tree (../src/mesa/). */
bool cli_mesa_find_helper(const char *env, const char *name, char *out, size_t n)
{
    const char *e = getenv(env);
    if (e && *e) {
        snprintf(out, n, "%s", e);
        return access(out, R_OK) == 0;
    }
    char exe[PATH_MAX];
    ssize_t l = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (l <= 0)
        return false;
    exe[l] = 0;
    char *slash = strrchr(exe, '/');
    if (slash)
        *slash = 0;
    /* a build tree (tools/lockstep, src/mesa/NAME), then installed layouts */
    static const char *const where[] = {"../src/mesa", "../lib/lockstep", "../libexec/lockstep",
                                        "../lib/x86_64-linux-gnu/lockstep", "../lib", NULL};
    for (const char *const *w = where; *w; w++) {
        int len = snprintf(out, n, "%s/%s/%s", exe, *w, name);
        if (len > 0 && (size_t)len < n && access(out, R_OK) == 0)
            return true;
    }
    return false;
}


static const char *tmpdir(void)
{
    const char *t = getenv("TMPDIR");
    return t && *t ? t : "/tmp";
}

/* `mesa check`: draw the same shader on llvmpipe into RGBA32F and compare per
 * pixel (max abs difference per channel <= tol). Writes OUT.diff.png: the
 * absolute difference scaled by 1/tol, clamped. */
static ls_status compare_llvmpipe(const char *gl, const char *frag, const char *vert,
                                  const char *uni, const r500_result *r, double tol,
                                  const char *out, bool quiet, ls_diag *d)
{
    char ref[1024];
    snprintf(ref, sizeof ref, "%s/lockstep-mesa-ref-XXXXXX", tmpdir());
    int fd = mkstemp(ref);
    if (fd < 0)
        return ls_diag_set(d, LS_ERR_IO, NULL, 0, 0, "cannot create a temporary file");
    close(fd);
    char cmd[32768];
    snprintf(cmd, sizeof cmd,
             "LIBGL_ALWAYS_SOFTWARE=1 '%s' '%s'%s%s%s%s --size %dx%d --float -o '%s'", gl, frag,
             vert ? " --vert '" : "", vert ? vert : "", vert ? "'" : "", uni, r->width, r->height,
             ref);
    int rc = system(cmd);
    ls_imagef img = {0};
    ls_status st = rc == 0 ? ls_rawf_read(ref, r->width, r->height, &img, d)
                           : ls_diag_set(d, LS_ERR_IO, frag, 0, 0, "llvmpipe run failed");
    unlink(ref);
    if (st != LS_OK)
        return st;
    size_t n = (size_t)r->width * (size_t)r->height, bad = 0;
    double maxd = 0;
    ls_imagef diff = {.width = r->width, .height = r->height, .rgba = calloc(n * 4, sizeof(float))};
    if (!diff.rgba) {
        ls_imagef_free(&img);
        return ls_diag_set(d, LS_ERR_NOMEM, NULL, 0, 0, "out of memory");
    }
    long first = -1;
    for (size_t i = 0; i < n; i++) {
        bool pix_bad = false;
        for (int c = 0; c < 4; c++) {
            float a = r->target[0][4 * i + c], b = img.rgba[4 * i + c];
            double dd = (a == b) ? 0.0 : fabs((double)a - (double)b);
            if (dd != dd)
                dd = INFINITY; /* NaN on one side only */
            if (dd > maxd)
                maxd = dd;
            if (dd > tol)
                pix_bad = true;
            double v = tol > 0 ? dd / tol : (dd > 0);
            diff.rgba[4 * i + c] = c == 3 ? 1.0f : (float)(v > 1 ? 1 : v);
        }
        if (pix_bad) {
            bad++;
            if (first < 0)
                first = (long)i;
        }
    }
    if (!quiet || bad)
        fprintf(stderr, "%s: %zux%d pixels, %zu differ by more than %g (max |diff| %g)\n", frag,
                (size_t)r->width, r->height, bad, tol, maxd);
    if (first >= 0) {
        int x = (int)(first % r->width), y = (int)(first / r->width);
        fprintf(stderr, "  first at (%d, %d) from the bottom: lockstep (%g, %g, %g, %g), llvmpipe (%g, %g, %g, %g)\n",
               x, y, r->target[0][4 * first], r->target[0][4 * first + 1],
               r->target[0][4 * first + 2], r->target[0][4 * first + 3], img.rgba[4 * first],
               img.rgba[4 * first + 1], img.rgba[4 * first + 2], img.rgba[4 * first + 3]);
    }
    char dpath[PATH_MAX + 16] = "";
    if (out && strcmp(out, "-")) {
        snprintf(dpath, sizeof dpath, "%s.diff.png", out);
        ls_image8 png = {0};
        st = ls_imagef_to_8(&diff, &png, d);
        if (st == LS_OK) {
            st = ls_png_write(dpath, &png, d);
            ls_image8_free(&png);
        }
    }
    free(diff.rgba);
    ls_imagef_free(&img);
    if (st == LS_OK && bad)
        st = ls_diag_set(d, LS_ERR_MISMATCH, frag, 0, 0,
                         "%zu pixel(s) differ from llvmpipe%s%s%s", bad, dpath[0] ? " (diff image " : "",
                         dpath, dpath[0] ? ")" : "");
    return st;
}

/* `mesa run --vert`: llvmpipe's varying pass (lockstep-mesa-gl --varying-pass)
 * gives the one varying per pixel; it becomes an image input of the temp the
 * RS set-up names (the colour input for gl_Color, else the texcoord before
 * WPOS). No varying read: nothing to do. */
static ls_status varying_from_llvmpipe(const char *gl, const char *frag, const char *vert,
                                       const char *uni, int w, int h, const mesa_cs_draw *dr,
                                       bool wpos, r500_job *rj, ls_imagef *img, ls_diag *d)
{
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/lockstep-mesa-var-XXXXXX", tmpdir());
    if (!mkdtemp(dir))
        return ls_diag_set(d, LS_ERR_IO, NULL, 0, 0, "cannot create a temporary directory");
    char cmd[32768];
    snprintf(cmd, sizeof cmd,
             "LIBGL_ALWAYS_SOFTWARE=1 '%s' '%s' --vert '%s'%s --size %dx%d --varying-pass '%s/var' "
             ">'%s/log' 2>&1",
             gl, frag, vert, uni, w, h, dir, dir);
    int rc = system(cmd);
    int code = WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
    char path[PATH_MAX + 32], why[512] = "";
    snprintf(path, sizeof path, "%s/log", dir);
    FILE *f = fopen(path, "r");
    while (f && fgets(why, sizeof why, f))
        if (!strncmp(why, "skip: ", 6) || !strncmp(why, "fail: ", 6))
            break;
    if (f)
        fclose(f);
    why[strcspn(why, "\n")] = 0;
    ls_status st = LS_OK;
    if (code == 77 && strstr(why, "reads no varying")) {
        st = LS_OK;
    } else if (code != 0) {
        st = ls_diag_set(d, LS_ERR_UNSUPPORTED, frag, 0, 0, "varyings: %s",
                         why[0] ? why + 6 : "llvmpipe's varying pass failed");
    } else {
        snprintf(path, sizeof path, "%s/var.0.bin", dir);
        st = ls_rawf_read(path, w, h, img, d);
        if (st == LS_OK) {
            mesa_cs_rs_map m;
            mesa_cs_rs_map_of(dr, &m);
            int generics = m.ntex - (wpos && m.ntex > 0), temp = -1;
            if (wpos && m.ntex == 1 && m.ncol == 0)
                st = ls_diag_set(d, LS_ERR_UNSUPPORTED, frag, 0, 0,
                                 "one texcoord input for gl_FragCoord and a varying: which one "
                                 "r300 dropped cannot be told");
            else if (m.ncol + generics > 1)
                st = ls_diag_set(d, LS_ERR_UNSUPPORTED, frag, 0, 0,
                                 "RS has %d colour and %d texcoord inputs; lockstep feeds one varying",
                                 m.ncol, generics);
            else if (m.ncol == 1)
                temp = m.col[0];
            else if (generics == 1)
                temp = m.tex[0];
            if (temp >= 0 && temp < R500_NUM_TEMPS) {
                rj->inputs[temp].kind = R500_INPUT_IMAGE;
                rj->inputs[temp].image = img->rgba;
            }
        }
    }
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0 && st == LS_OK)
        st = ls_diag_set(d, LS_ERR_IO, NULL, 0, 0, "could not remove %s", dir);
    return st;
}

/* --chip: the names and PCI ids the shim knows (src/mesa/shim.c: rv515,
 * r520, rv530, r580, or a hex PCI id). The ids are the R500 family's: R520,
 * RV515, RV530, RV560, RV570 and R580 are 0x7100..0x72FF in the kernel's
 * radeon PCI id list (drm_pciids.h); any other id starts a different driver
 * or none (Mesa then falls back to llvmpipe), so it is refused here. */
int cli_mesa_check_chip(cli_args *a, const char *chip)
{
    static const char *const names[] = {"rv515", "r520", "rv530", "r580"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (!strcasecmp(chip, names[i]))
            return CLI_OK;
    char *end;
    errno = 0;
    unsigned long id = strtoul(chip, &end, 16);
    if (end != chip && !*end && !errno && id >= 0x7100 && id <= 0x72ff)
        return CLI_OK;
    return cli_usage(a, "--chip %s: expected rv515, r520, rv530, r580 or an R500 PCI id 0x7100..0x72ff",
                     chip);
}

enum mesa_mode { MODE_RUN, MODE_CHECK, MODE_BENCH };

/* The uniforms the shader declares that no --uniform sets: they read 0. */
static void warn_unset_uniforms(cli_args *a, const char *frag, const char *src, size_t len)
{
    enum { MAXU = 64 };
    char (*names)[MESA_GLSL_NAME] = calloc(MAXU, MESA_GLSL_NAME);
    if (!names)
        return;
    size_t n = mesa_glsl_uniforms(src, len, names, MAXU);
    char unset[1024] = "", all[1024] = "";
    size_t nun = 0, ul = 0, al = 0;
    for (size_t i = 0; i < n && i < MAXU; i++) {
        bool set = false;
        for (size_t k = 0; k < a->nov && !set; k++)
            if (!strcmp(a->ov[k].opt->name, "uniform")) {
                const char *v = a->ov[k].val;
                size_t l = strcspn(v, "=");
                set = l == strlen(names[i]) && !strncmp(v, names[i], l);
            }
        if (al < sizeof all)
            al += (size_t)snprintf(all + al, sizeof all - al, "%s%s%s", i ? ", " : "", names[i],
                                   set ? "" : " (not set)");
        if (!set) {
            nun++;
            if (ul < sizeof unset)
                ul += (size_t)snprintf(unset + ul, sizeof unset - ul, "%s%s", nun > 1 ? ", " : "", names[i]);
        }
    }
    /* the summary names them all (stderr, unless -q) */
    if (n && !cli_flag(a, "quiet"))
        fprintf(stderr, "%s: uniforms: %s%s\n", frag, all, n > MAXU ? ", ..." : "");
    if (nun)
        cli_warn(a, "%s declares %zu uniform(s) that --uniform does not set; they read 0: %s", frag, nun,
                 unset);
    /* --uniform naming something the shader does not declare */
    for (size_t k = 0; k < a->nov; k++) {
        if (strcmp(a->ov[k].opt->name, "uniform"))
            continue;
        const char *v = a->ov[k].val;
        size_t l = strcspn(v, "=");
        bool found = false;
        for (size_t i = 0; i < n && i < MAXU && !found; i++)
            found = l == strlen(names[i]) && !strncmp(v, names[i], l);
        if (!found && n <= MAXU)
            cli_warn(a, "--uniform %s: %s declares no uniform '%.*s'", v, frag, (int)l, v);
    }
    free(names);
}

static int mesa_cmd(cli_args *a, enum mesa_mode mode)
{
    bool check = mode == MODE_CHECK, bench = mode == MODE_BENCH, quiet = cli_flag(a, "quiet");
    long threads = sysconf(_SC_NPROCESSORS_ONLN) > 0 ? sysconf(_SC_NPROCESSORS_ONLN) : 1;
    const char *frag = a->ops[0], *vert = cli_get(a, "vert"), *out = cli_get(a, "output"),
               *chip = cli_get(a, "chip") ? cli_get(a, "chip") : "rv530";
    int w = 16, h = 16;
    double tol = 1e-3;
    char uni[4096] = "";
    int rc = cli_opt_size(a, "size", &w, &h);
    if (!rc)
        rc = cli_opt_long(a, "workers", 1, 256, &threads);
    if (!rc)
        rc = cli_mesa_check_chip(a, chip);
    if (rc)
        return rc;
    const char *tv = cli_get(a, "tolerance");
    if (tv) {
        char *end;
        tol = strtod(tv, &end);
        if (end == tv || *end || !(tol >= 0))
            return cli_usage(a, "--tolerance %s: expected a number >= 0", tv);
    }
    for (size_t k = 0; k < a->nov; k++) {
        if (strcmp(a->ov[k].opt->name, "uniform"))
            continue;
        const char *v = a->ov[k].val;
        if (strchr(v, '\'') || !strchr(v, '=') || *v == '=')
            return cli_usage(a, "--uniform %s: expected NAME=V[,V...] (no quote characters)", v);
        size_t l = strlen(uni);
        snprintf(uni + l, sizeof uni - l, " --uniform '%s'", v);
    }
    if (strchr(frag, '\'') || (vert && strchr(vert, '\'')))
        return cli_usage(a, "file names with quote characters are not supported");
    /* the inputs exist before Mesa starts */
    ls_buf fsrc;
    if ((rc = cli_read(a, frag, &fsrc)))
        return rc;
    if (vert && access(vert, R_OK)) {
        ls_buf_free(&fsrc);
        return cli_err(a, CLI_INPUT, "cannot read %s: %s", vert, strerror(errno));
    }
    bool wpos = strstr(fsrc.data, "gl_FragCoord") != NULL;
    warn_unset_uniforms(a, frag, fsrc.data, fsrc.len);
    ls_buf_free(&fsrc);
    char shim[PATH_MAX], gl[PATH_MAX];
    if (!cli_mesa_find_helper("LOCKSTEP_MESA_SHIM", "liblockstep_r300_shim.so", shim, sizeof shim) ||
        !cli_mesa_find_helper("LOCKSTEP_MESA_GL", "lockstep-mesa-gl", gl, sizeof gl))
        return cli_err(a, CLI_UNAVAILABLE, "the r300 shim is not built (install libdrm-dev libegl-dev "
                                           "libgl-dev and reconfigure; docs/mesa.md)");
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/lockstep-mesa-XXXXXX", tmpdir());
    if (!mkdtemp(dir))
        return cli_err(a, CLI_UNAVAILABLE, "cannot create a temporary directory in %s: %s", tmpdir(),
                       strerror(errno));
    char cmd[32768];
    snprintf(cmd, sizeof cmd,
             "LOCKSTEP_SHIM_OUT='%s' LOCKSTEP_SHIM_CHIP='%s' LD_PRELOAD='%s' '%s' '%s'%s%s%s%s "
             "--size %dx%d >'%s/gl.log' 2>&1",
             dir, chip, shim, gl, frag, vert ? " --vert '" : "", vert ? vert : "",
             vert ? "'" : "", uni, w, h, dir);
    int sysrc = system(cmd);
    char ib[PATH_MAX + 32], why[512] = "";
    snprintf(ib, sizeof ib, "%s/cs_0000.ib", dir);
    ls_diag d;
    ls_diag_clear(&d);
    ls_buf data;
    ls_buf_init(&data);
    bool have = sysrc == 0 && ls_read_file(ib, &data);
    if (!have) {
        /* the GL program's own verdict, if it gave one */
        char lp[PATH_MAX + 16];
        snprintf(lp, sizeof lp, "%s/gl.log", dir);
        FILE *f = fopen(lp, "r");
        char line[512];
        while (f && fgets(line, sizeof line, f))
            if (strstr(line, "rror") || !strncmp(line, "fail: ", 6) || !strncmp(line, "skip: ", 6))
                snprintf(why, sizeof why, "%s", line);
        if (f)
            fclose(f);
        why[strcspn(why, "\n")] = 0;
    }
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        cli_warn(a, "could not remove %s", dir);
    if (!have) {
        ls_buf_free(&data);
        return cli_err(a, CLI_UNAVAILABLE, "%s: r300 did not compile or submit the shader%s%s", frag,
                       why[0] ? ": " : "", why);
    }
    size_t ndw = data.len / 4;
    uint32_t *dw = malloc(ndw * 4 + 4);
    if (!dw) {
        ls_buf_free(&data);
        return cli_err(a, CLI_INTERNAL, "out of memory");
    }
    for (size_t i = 0; i < ndw; i++) {
        const unsigned char *p = (const unsigned char *)data.data + 4 * i;
        dw[i] = p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
    }
    ls_buf_free(&data);
    mesa_cs cs;
    ls_status st = mesa_cs_decode(ib, dw, ndw, &cs, &d);
    free(dw);
    if (st != LS_OK)
        return cli_report(a, &d);
    if (cs.ndraws == 0) {
        mesa_cs_free(&cs);
        ls_diag_set(&d, LS_ERR_PARSE, ib, 0, 0, "the command stream has no draw");
        return cli_report(a, &d);
    }
    /* assumption mesa-job-last-draw: our quad is the last draw */
    const mesa_cs_draw *dr = &cs.draws[cs.ndraws - 1];
    ls_buf job;
    ls_buf_init(&job);
    mesa_cs_job_json(dr, cs.ndraws - 1, &job);
    r500_job rj;
    r500_job_init(&rj);
    st = r500_job_load_json(&rj, "decoded", job.data, job.len, &d);
    ls_buf_free(&job);
    ls_imagef vimg = {0};
    rc = CLI_OK;
    if (st == LS_OK) {
        rj.width = w;
        rj.height = h;
        /* Inputs from the RS set-up (mesa-capture.md §4); gl_FragCoord is
         * detected in the GLSL text. */
        mesa_cs_set_inputs(dr, wpos, &rj);
        /* With --vert, the one varying the fragment shader reads is what that
         * vertex shader writes, interpolated: llvmpipe computes it (assumption
         * piglit-varyings; the default vertex shader's uv is fed exactly). */
        if (vert)
            st = varying_from_llvmpipe(gl, frag, vert, uni, w, h, dr, wpos, &rj, &vimg, &d);
    }
    if (st == LS_OK) {
        r500_result r;
        rj.workers = (unsigned)threads;
        ls_buf tbuf;
        ls_buf_init(&tbuf);
        struct timespec t0, t1;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        st = r500_run(&rj, &r, !bench && cli_get(a, "trace") ? &tbuf : NULL, &d);
        clock_gettime(CLOCK_MONOTONIC, &t1);
        if (st == LS_OK && bench) {
            double ls_sec = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
            char cmd2[32768];
            snprintf(cmd2, sizeof cmd2,
                     "LIBGL_ALWAYS_SOFTWARE=1 LP_NUM_THREADS=%ld '%s' '%s'%s%s%s%s --size %dx%d "
                     "--float --repeat 5 2>/dev/null",
                     threads, gl, frag, vert ? " --vert '" : "", vert ? vert : "",
                     vert ? "'" : "", uni, w, h);
            FILE *pf = popen(cmd2, "r");
            double lp_sec = -1;
            if (pf) {
                if (fscanf(pf, "draw_seconds %lf", &lp_sec) != 1)
                    lp_sec = -1;
                pclose(pf);
            }
            /* the timings are what bench produces: stdout */
            printf("%s %dx%d, %ld thread(s)\n", frag, w, h, threads);
            printf("  lockstep: %.6f s (%.2f Mpixel/s)\n", ls_sec, (double)w * h / ls_sec / 1e6);
            if (lp_sec > 0) {
                printf("  llvmpipe: %.6f s (%.2f Mpixel/s, mean of 5 draws, LP_NUM_THREADS=%ld)\n",
                       lp_sec, (double)w * h / lp_sec / 1e6, threads);
                printf("  ratio lockstep/llvmpipe: %.1fx slower\n", ls_sec / lp_sec);
            } else {
                printf("  llvmpipe: could not be timed\n");
            }
            r500_result_free(&r);
        } else if (st == LS_OK) {
            rc = cli_r500_faults(a, frag, &r);
            int wr = cli_r500_outputs(a, frag, &rj, &r, &tbuf);
            rc = rc ? rc : wr;
            if (check) {
                ls_status cst = compare_llvmpipe(gl, frag, vert, uni, &r, tol, out, quiet, &d);
                if (cst != LS_OK) {
                    int crc = cli_report(a, &d);
                    /* llvmpipe failing to run is an outside component's failure */
                    rc = cst == LS_ERR_IO ? CLI_UNAVAILABLE : rc ? rc : crc;
                }
            }
            r500_result_free(&r);
        }
        ls_buf_free(&tbuf);
    }
    if (st != LS_OK && !rc)
        rc = cli_report(a, &d);
    ls_imagef_free(&vimg);
    r500_job_free(&rj);
    mesa_cs_free(&cs);
    return rc;
}

int cli_mesa_run(cli_args *a) { return mesa_cmd(a, MODE_RUN); }
int cli_mesa_check(cli_args *a) { return mesa_cmd(a, MODE_CHECK); }
int cli_mesa_bench(cli_args *a) { return mesa_cmd(a, MODE_BENCH); }
