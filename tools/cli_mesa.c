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

#include "cli.h"
#include "io/image.h"
#include "lockstep/mesa_cs.h"
#include "lockstep/mesa_fuzz.h"
#include "lockstep/r500.h"

static void usage(FILE *f)
{
    fprintf(f, "usage: lockstep mesa decode CS.ib [--draw N|--all] [-o JOB.json]\n"
               "  decodes a captured radeon command stream (little-endian dwords): every\n"
               "  draw becomes an R500 job in the corpus's program.json format, which\n"
               "  `lockstep r500 run JOB.json` runs. Default: the last draw.\n"
               "       lockstep mesa run SHADER.frag [--vert VS] [--uniform name=v[,v...]]...\n"
               "                         [--size WxH] [--chip rv515|r520|rv530|r580] -o out.png\n"
               "       lockstep mesa check (same) [--tolerance T] -o out.png\n"
               "  run/check/bench also take --mesa-drivers DIR (the r300_dri.so to use; default\n"
               "  $LIBGL_DRIVERS_PATH, else the system's). check exits 0 agree, 3 disagree,\n"
               "  4 r300 compiler error (dummy shader), 5 r300 crash, 6 GLSL front-end error,\n"
               "  7 lockstep fault, 1 other errors, 2 usage (docs/mesa-fuzz.md).\n"
               "       lockstep mesa bench SHADER.frag [--size WxH] [--threads N] [--uniform ...]\n"
               "       lockstep mesa piglit [FILTER]... [--llvmpipe] [--keep DIR] [--json F] [--list]\n"
               "       lockstep mesa fuzz [--seed S] [--count N | --time T] [-j N] [--out DIR]\n"
               "  run/check/bench compile with Mesa's r300 under the fake-device shim\n"
               "  (docs/mesa.md); check compares with llvmpipe, bench times both.\n");
}

static int decode(int argc, char **argv)
{
    const char *in = NULL, *out = "-";
    long which = -1;
    bool all = false;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            usage(stdout);
            return CLI_OK;
        } else if (!strcmp(argv[i], "-o")) {
            if (++i >= argc)
                return cli_usage_error("-o needs a file name");
            out = argv[i];
        } else if (!strcmp(argv[i], "--all")) {
            all = true;
        } else if (!strcmp(argv[i], "--draw")) {
            if (++i >= argc || !cli_parse_int(argv[i], 0, 1000000, &which))
                return cli_usage_error("--draw needs a draw number");
        } else if (argv[i][0] == '-' && argv[i][1]) {
            return cli_usage_error("unknown option '%s'", argv[i]);
        } else if (!in) {
            in = argv[i];
        } else {
            return cli_usage_error("more than one input file");
        }
    }
    if (!in) {
        usage(stderr);
        return CLI_USAGE;
    }
    ls_buf data;
    ls_buf_init(&data);
    ls_diag d;
    ls_diag_clear(&d);
    if (!ls_read_file(in, &data)) {
        ls_diag_set(&d, LS_ERR_IO, in, 0, 0, "cannot read: %s", strerror(errno));
        ls_buf_free(&data);
        return cli_report(&d);
    }
    if (data.len % 4) {
        ls_diag_set(&d, LS_ERR_PARSE, in, 0, 0, "%zu bytes is not a whole number of dwords",
                    data.len);
        ls_diag_at_offset(&d, (long)(data.len - data.len % 4));
        ls_buf_free(&data);
        return cli_report(&d);
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
        return dw ? cli_report(&d) : CLI_FAIL;
    }
    free(dw);
    int rc = CLI_OK;
    if (cs.ndraws == 0) {
        ls_diag_set(&d, LS_ERR_PARSE, in, 0, 0, "the command stream has no draw packet");
        rc = cli_report(&d);
    } else if (which >= (long)cs.ndraws) {
        ls_diag_set(&d, LS_ERR_RANGE, in, 0, 0, "draw %ld requested, the stream has %zu", which,
                    cs.ndraws);
        rc = cli_report(&d);
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
        rc = cli_write_file(out, &b);
        ls_buf_free(&b);
    }
    mesa_cs_free(&cs);
    return rc;
}


/* Where the shim and the GL program are: $LOCKSTEP_MESA_SHIM / $LOCKSTEP_MESA_GL,
 * else beside this binary in a build tree (../src/mesa/), else where
 * `meson install` put them: PREFIX/LOCKSTEP_PKGLIBEXECDIR with PREFIX this
 * binary's directory less LOCKSTEP_BINDIR (tools/meson.build). */
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
    int len = snprintf(out, n, "%s/../src/mesa/%s", exe, name);
    if (len > 0 && (size_t)len < n && access(out, R_OK) == 0)
        return true;
    const char *rel = LOCKSTEP_PKGLIBEXECDIR;
    if (rel[0] != '/') { /* relative to the prefix: go up one level per bindir component */
        static const char bindir[] = LOCKSTEP_BINDIR;
        for (size_t k = 0; bindir[k]; k++)
            if (bindir[k] != '/' && (k == 0 || bindir[k - 1] == '/') && (slash = strrchr(exe, '/')))
                *slash = 0;
        len = snprintf(out, n, "%s/%s/%s", exe, rel, name);
    } else {
        len = snprintf(out, n, "%s/%s", rel, name);
    }
    return len > 0 && (size_t)len < n && access(out, R_OK) == 0;
}


/* `mesa check`: draw the same shader on llvmpipe into RGBA32F and compare per
 * pixel (max abs difference per channel <= tol). Writes OUT.diff.png: the
 * absolute difference scaled by 1/tol, clamped. */
static ls_status compare_llvmpipe(const char *gl, const char *frag, const char *vert,
                                  const char *uni, const r500_result *r, double tol,
                                  const char *out, ls_diag *d)
{
    char ref[] = "/tmp/lockstep-mesa-ref-XXXXXX";
    int fd = mkstemp(ref);
    if (fd < 0)
        return ls_diag_set(d, LS_ERR_IO, NULL, 0, 0, "cannot create a temporary file");
    close(fd);
    char cmd[16384];
    snprintf(cmd, sizeof cmd,
             "env -u LIBGL_DRIVERS_PATH LIBGL_ALWAYS_SOFTWARE=1 '%s' '%s'%s%s%s%s --size %dx%d "
             "--float -o '%s'",
             gl, frag,
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
    printf("%s: %zux%d pixels, %zu differ by more than %g (max |diff| %g)\n", frag,
           (size_t)r->width, r->height, bad, tol, maxd);
    if (first >= 0) {
        int x = (int)(first % r->width), y = (int)(first / r->width);
        printf("  first at (%d, %d) from the bottom: lockstep (%g, %g, %g, %g), llvmpipe (%g, %g, %g, %g)\n",
               x, y, r->target[0][4 * first], r->target[0][4 * first + 1],
               r->target[0][4 * first + 2], r->target[0][4 * first + 3], img.rgba[4 * first],
               img.rgba[4 * first + 1], img.rgba[4 * first + 2], img.rgba[4 * first + 3]);
    }
    char dpath[PATH_MAX + 16];
    snprintf(dpath, sizeof dpath, "%s.diff.png", out);
    ls_image8 png = {0};
    st = ls_imagef_to_8(&diff, &png, d);
    if (st == LS_OK) {
        st = ls_png_write(dpath, &png, d);
        ls_image8_free(&png);
    }
    free(diff.rgba);
    ls_imagef_free(&img);
    if (st == LS_OK && bad)
        st = ls_diag_set(d, LS_ERR_MISMATCH, frag, 0, 0,
                         "%zu pixel(s) differ from llvmpipe (diff image %s)", bad, dpath);
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
    char dir[] = "/tmp/lockstep-mesa-var-XXXXXX";
    if (!mkdtemp(dir))
        return ls_diag_set(d, LS_ERR_IO, NULL, 0, 0, "cannot create a temporary directory");
    char cmd[16384];
    snprintf(cmd, sizeof cmd,
             "env -u LIBGL_DRIVERS_PATH LIBGL_ALWAYS_SOFTWARE=1 '%s' '%s' --vert '%s'%s --size %dx%d "
             "--varying-pass '%s/var' "
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
    if (system(cmd) != 0)
        fprintf(stderr, "warning: could not remove %s\n", dir);
    return st;
}

static int run(int argc, char **argv, bool check, bool bench)
{
    long threads = sysconf(_SC_NPROCESSORS_ONLN) > 0 ? sysconf(_SC_NPROCESSORS_ONLN) : 1;
    const char *frag = NULL, *vert = NULL, *out = NULL, *chip = "rv530", *drivers_opt = NULL;
    int w = 16, h = 16;
    double tol = 1e-3;
    char uni[4096] = "";
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--vert") && i + 1 < argc)
            vert = argv[++i];
        else if (!strcmp(argv[i], "--uniform") && i + 1 < argc) {
            size_t l = strlen(uni);
            if (strchr(argv[i + 1], '\''))
                return cli_usage_error("--uniform: quote characters are not allowed");
            snprintf(uni + l, sizeof uni - l, " --uniform '%s'", argv[++i]);
        } else if (!strcmp(argv[i], "--size") && i + 1 < argc) {
            if (!cli_parse_size(argv[++i], &w, &h))
                return cli_usage_error("--size needs WxH");
        } else if (check && !strcmp(argv[i], "--tolerance") && i + 1 < argc) {
            char *end;
            tol = strtod(argv[++i], &end);
            if (*end || !(tol >= 0))
                return cli_usage_error("--tolerance needs a number >= 0");
        } else if (bench && !strcmp(argv[i], "--threads") && i + 1 < argc) {
            if (!cli_parse_int(argv[++i], 1, 256, &threads))
                return cli_usage_error("--threads needs 1..256");
        } else if (!strcmp(argv[i], "--chip") && i + 1 < argc)
            chip = argv[++i];
        else if (!strcmp(argv[i], "--mesa-drivers") && i + 1 < argc)
            drivers_opt = argv[++i];
        else if (!strcmp(argv[i], "-o") && i + 1 < argc)
            out = argv[++i];
        else if (argv[i][0] != '-' && !frag)
            frag = argv[i];
        else
            return cli_usage_error("mesa run: unexpected argument '%s'", argv[i]);
    }
    if (!frag || (!out && !bench))
        return cli_usage_error("usage: lockstep mesa run SHADER.frag [--vert VS] "
                               "[--uniform name=v[,v...]]... [--size WxH] [--chip C] -o out.png");
    if (strchr(frag, '\'') || (vert && strchr(vert, '\'')) || strchr(chip, '\''))
        return cli_usage_error("file names with quote characters are not supported");
    /* the r300 driver: --mesa-drivers, else LIBGL_DRIVERS_PATH (llvmpipe
     * stays the system's) */
    char drivers[PATH_MAX], why[PATH_MAX + 64];
    if (!cli_mesa_drivers(drivers_opt, drivers, sizeof drivers, why, sizeof why))
        return cli_usage_error("%s", why);
    if (strchr(drivers, '\''))
        return cli_usage_error("driver paths with quote characters are not supported");
    char shim[PATH_MAX], gl[PATH_MAX];
    if (!cli_mesa_find_helper("LOCKSTEP_MESA_SHIM", "liblockstep_r300_shim.so", shim, sizeof shim) ||
        !cli_mesa_find_helper("LOCKSTEP_MESA_GL", "lockstep-mesa-gl", gl, sizeof gl))
        return cli_usage_error("the r300 shim is not built (install libdrm-dev libegl-dev "
                               "libgl-dev and reconfigure; docs/mesa.md)");
    char dir[] = "/tmp/lockstep-mesa-XXXXXX";
    if (!mkdtemp(dir))
        return cli_usage_error("cannot create a temporary directory");
    char cmd[16384];
    /* the GL program's output is kept to classify the run (docs/mesa-fuzz.md
     * "Outcome classes"), then shown; TMPDIR puts the shim's mirror in dir */
    int cmdlen = snprintf(cmd, sizeof cmd,
             "%s%s%s TMPDIR='%s' LOCKSTEP_SHIM_OUT='%s' LOCKSTEP_SHIM_CHIP='%s' LD_PRELOAD='%s' "
             "'%s' '%s'%s%s%s%s --size %dx%d >'%s/r300.log' 2>&1",
             drivers[0] ? "LIBGL_DRIVERS_PATH='" : "", drivers, drivers[0] ? "'" : "", dir, dir,
             chip, shim, gl, frag, vert ? " --vert '" : "", vert ? vert : "", vert ? "'" : "", uni,
             w, h, dir);
    if (cmdlen < 0 || (size_t)cmdlen >= sizeof cmd) {
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
        if (system(cmd) != 0)
            fprintf(stderr, "warning: could not remove %s\n", dir);
        return cli_usage_error("file names too long");
    }
    int rc = system(cmd);
    int status = rc < 0 ? -1 : WIFEXITED(rc) ? WEXITSTATUS(rc) : 128 + WTERMSIG(rc);
    char ib[PATH_MAX + 32], logp[PATH_MAX + 32];
    snprintf(ib, sizeof ib, "%s/cs_0000.ib", dir);
    snprintf(logp, sizeof logp, "%s/r300.log", dir);
    ls_diag d;
    ls_diag_clear(&d);
    ls_buf data, r300log;
    ls_buf_init(&data);
    ls_buf_init(&r300log);
    ls_read_file(logp, &r300log);
    if (r300log.len)
        fputs(r300log.data, stderr);
    mesa_outcome oc = mesa_outcome_of_r300_run(status, r300log.data ? r300log.data : "");
    bool have = status == 0 && ls_read_file(ib, &data);
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "warning: could not remove %s\n", dir);
    if (oc == MESA_OUTCOME_GLSL_ERROR || oc == MESA_OUTCOME_R300_CRASH || !have) {
        ls_buf_free(&data);
        ls_buf_free(&r300log);
        if (oc == MESA_OUTCOME_AGREE)
            oc = MESA_OUTCOME_HARNESS_ERROR;
        if (oc == MESA_OUTCOME_R300_CRASH)
            ls_diag_set(&d, LS_ERR_FAULT, frag, 0, 0,
                        "r300: the GL program died of signal %d (%s)", status - 128,
                        mesa_outcome_table[oc].name);
        else if (oc == MESA_OUTCOME_GLSL_ERROR)
            ls_diag_set(&d, LS_ERR_PARSE, frag, 0, 0,
                        "Mesa's GLSL compiler refused the shader (%s)", mesa_outcome_table[oc].name);
        else
            ls_diag_set(&d, LS_ERR_IO, frag, 0, 0, "r300 did not compile or submit the shader");
        cli_report(&d);
        return mesa_outcome_table[oc].exit_status;
    }
    /* r300 printed "Compiler Error" and drew with a dummy shader: go on
     * (the image shows the dummy) but say so and exit with its status */
    ls_buf_free(&r300log);
    size_t ndw = data.len / 4;
    uint32_t *dw = malloc(ndw * 4 + 4);
    if (!dw) {
        ls_buf_free(&data);
        return cli_usage_error("out of memory");
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
        return cli_report(&d);
    if (cs.ndraws == 0) {
        mesa_cs_free(&cs);
        ls_diag_set(&d, LS_ERR_PARSE, ib, 0, 0, "the command stream has no draw");
        return cli_report(&d);
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
    if (st == LS_OK) {
        rj.width = w;
        rj.height = h;
        /* Inputs from the RS set-up (mesa-capture.md §4); gl_FragCoord is
         * detected in the GLSL text. */
        ls_buf src;
        ls_buf_init(&src);
        bool wpos = ls_read_file(frag, &src) && strstr(src.data, "gl_FragCoord");
        ls_buf_free(&src);
        mesa_cs_set_inputs(dr, wpos, &rj);
        /* With --vert, the one varying the fragment shader reads is what that
         * vertex shader writes, interpolated: llvmpipe computes it (assumption
         * piglit-varyings; the default vertex shader's uv is fed exactly). */
        if (st == LS_OK && vert)
            st = varying_from_llvmpipe(gl, frag, vert, uni, w, h, dr, wpos, &rj, &vimg, &d);
        r500_result r;
        rj.workers = (unsigned)threads;
        struct timespec t0, t1;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        st = r500_run(&rj, &r, NULL, &d);
        clock_gettime(CLOCK_MONOTONIC, &t1);
        if (st == LS_OK && bench) {
            double ls_sec = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
            char cmd2[16384];
            snprintf(cmd2, sizeof cmd2,
                     "env -u LIBGL_DRIVERS_PATH LIBGL_ALWAYS_SOFTWARE=1 LP_NUM_THREADS=%ld '%s' '%s'%s%s%s%s "
                     "--size %dx%d "
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
            printf("%s %dx%d, %ld thread(s)\n", frag, w, h, threads);
            printf("  lockstep: %.6f s (%.2f Mpixel/s)\n", ls_sec, (double)w * h / ls_sec / 1e6);
            if (lp_sec > 0) {
                printf("  llvmpipe: %.6f s (%.2f Mpixel/s, mean of 5 draws, LP_NUM_THREADS=%ld)\n",
                       lp_sec, (double)w * h / lp_sec / 1e6, threads);
                printf("  ratio lockstep/llvmpipe: %.1fx slower\n", ls_sec / lp_sec);
            } else {
                printf("  llvmpipe: could not be timed\n");
            }
        }
        if (st == LS_OK && !bench) {
            ls_imagef img = {.width = r.width, .height = r.height, .rgba = r.target[0]};
            ls_image8 png = {0};
            /* PNG rows go top first; the result is bottom row first */
            st = ls_imagef_to_8(&img, &png, &d);
            if (st == LS_OK) {
                st = ls_png_write(out, &png, &d);
                ls_image8_free(&png);
            }
            if (st == LS_OK && check)
                st = compare_llvmpipe(gl, frag, vert, uni, &r, tol, out, &d);
            if (st == LS_ERR_MISMATCH && oc == MESA_OUTCOME_AGREE)
                oc = MESA_OUTCOME_DISAGREE;
            if (r.nfaults && (st == LS_OK || st == LS_ERR_MISMATCH)) {
                /* faulted threads: their pixels are not the program's result */
                char fd[400];
                ls_diag_format(&r.faults[0].diag, fd, sizeof fd);
                st = ls_diag_set(&d, LS_ERR_FAULT, frag, 0, 0, "%llu lockstep thread(s) faulted, "
                                 "first: %s (%s)", (unsigned long long)r.stats.faulted_threads, fd,
                                 mesa_outcome_table[MESA_OUTCOME_LOCKSTEP_FAULT].name);
                oc = MESA_OUTCOME_LOCKSTEP_FAULT;
            }
            if (oc == MESA_OUTCOME_R300_COMPILE_ERROR && (st == LS_OK || st == LS_ERR_MISMATCH))
                st = ls_diag_set(&d, LS_ERR_UNSUPPORTED, frag, 0, 0,
                                 "r300 reported a compiler error and drew with its dummy shader "
                                 "(%s)", mesa_outcome_table[oc].name);
            r500_result_free(&r);
        }
    }
    ls_imagef_free(&vimg);
    r500_job_free(&rj);
    mesa_cs_free(&cs);
    if (st == LS_OK)
        return CLI_OK;
    cli_report(&d);
    if (oc == MESA_OUTCOME_AGREE) /* an error of lockstep or of the harness */
        oc = MESA_OUTCOME_HARNESS_ERROR;
    return mesa_outcome_table[oc].exit_status;
}

int cli_mesa(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return CLI_USAGE;
    }
    if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
        usage(stdout);
        return CLI_OK;
    }
    if (!strcmp(argv[1], "decode"))
        return decode(argc - 1, argv + 1);
    if (!strcmp(argv[1], "run"))
        return run(argc - 1, argv + 1, false, false);
    if (!strcmp(argv[1], "check"))
        return run(argc - 1, argv + 1, true, false);
    if (!strcmp(argv[1], "bench"))
        return run(argc - 1, argv + 1, false, true);
    if (!strcmp(argv[1], "piglit"))
        return cli_mesa_piglit(argc - 1, argv + 1);
    if (!strcmp(argv[1], "fuzz"))
        return cli_mesa_fuzz(argc - 1, argv + 1);
    usage(stderr);
    return cli_usage_error("unknown mesa command '%s'", argv[1]);
}
