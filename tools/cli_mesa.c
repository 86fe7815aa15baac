/* `lockstep mesa decode|run|check|bench` (options: cli_table.c; piglit:
 * cli_mesa_piglit.c). `decode` turns a captured command stream into lockstep
 * R500 jobs; run/check/bench call the library's r300 pipeline
 * (include/lockstep/mesa_r300.h) and print (docs/mesa.md). */
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
#include "lockstep/mesa_piglit.h"
#include "lockstep/mesa_draw.h"
#include "lockstep/mesa_r300.h"
#include "lockstep/r500_job_args.h"
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
    mesa_cs cs;
    ls_status st = mesa_cs_decode_bytes(in, data.data, data.len, &cs, &d);
    ls_buf_free(&data);
    if (st != LS_OK)
        return cli_report(a, &d);
    ls_buf b;
    ls_buf_init(&b);
    int rc = mesa_cs_jobs_json(&cs, in, all ? MESA_CS_ALL : which, &b, &d) != LS_OK ? cli_report(a, &d)
                                                                                    : cli_write(a, out, &b);
    ls_buf_free(&b);
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
    /* the shim is built at the build tree's top (it links the core library) */
    len = snprintf(out, n, "%s/../%s", exe, name);
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

int cli_mesa_drivers(cli_args *a, char *out, size_t n)
{
    ls_diag d;
    ls_diag_clear(&d);
    if (mesa_r300_drivers(cli_get(a, "mesa-drivers"), out, n, &d) != LS_OK)
        return cli_usage(a, "%s", d.msg);
    return CLI_OK;
}

enum mesa_mode { MODE_RUN, MODE_CHECK, MODE_BENCH };

/* The uniforms the shader declares that no --uniform sets: they read 0
 * (mesa_glsl_check_uniforms). */
static void warn_unset_uniforms(cli_args *a, const char *frag, const char *src, size_t len)
{
    const char **settings = calloc(a->nov + 1, sizeof *settings);
    mesa_glsl_uniform_check *u = malloc(sizeof *u);
    if (!settings || !u) {
        free(settings);
        free(u);
        return;
    }
    size_t ns = 0;
    /* --texture SAMPLER=SOURCE sets the sampler uniform SAMPLER */
    const char **opt = calloc(a->nov + 1, sizeof *opt);
    for (size_t k = 0; opt && k < a->nov; k++)
        if (!strcmp(a->ov[k].opt->name, "uniform") || !strcmp(a->ov[k].opt->name, "texture")) {
            opt[ns] = a->ov[k].opt->name;
            settings[ns++] = a->ov[k].val;
        }
    /* the vertex shader's uniforms count too (the program has both) */
    ls_buf both;
    ls_buf_init(&both);
    ls_buf_append(&both, src, len);
    const char *vert = cli_get(a, "vert");
    ls_buf vsrc;
    ls_buf_init(&vsrc);
    if (vert && ls_read_file(vert, &vsrc) && vsrc.len) {
        ls_buf_append(&both, "\n", 1);
        ls_buf_append(&both, vsrc.data, vsrc.len);
    }
    ls_buf_free(&vsrc);
    if (!both.oom && opt)
        mesa_glsl_check_uniforms(both.data ? both.data : "", both.len, settings, ns, u);
    else
        memset(u, 0, sizeof *u);
    ls_buf_free(&both);
    char unset[1024] = "", all[1024] = "";
    size_t ul = 0, al = 0, nun = 0;
    for (size_t i = 0; i < u->kept; i++) {
        if (al < sizeof all)
            al += (size_t)snprintf(all + al, sizeof all - al, "%s%s%s", i ? ", " : "", u->names[i],
                                   u->set[i] ? "" : " (not set)");
        if (!u->set[i] && ul < sizeof unset)
            ul += (size_t)snprintf(unset + ul, sizeof unset - ul, "%s%s", nun++ ? ", " : "", u->names[i]);
    }
    /* the summary names them all (stderr, unless -q) */
    if (u->declared && !cli_flag(a, "quiet"))
        fprintf(stderr, "%s: uniforms: %s%s\n", frag, all, u->declared > u->kept ? ", ..." : "");
    if (u->unset)
        cli_warn(a, "%s declares %zu uniform(s) that --uniform does not set; they read 0: %s",
                 vert ? "the program" : frag, u->unset, unset);
    for (size_t k = 0; k < u->nunknown; k++) {
        const char *v = settings[u->unknown[k]];
        cli_warn(a, "--%s %s: %s declares no uniform '%.*s'", opt[u->unknown[k]], v,
                 vert ? "the program" : frag, (int)strcspn(v, "="), v);
    }
    free(opt);
    free(settings);
    free(u);
}

/* mesa check: lockstep's image against llvmpipe's; the summary on stderr,
 * the difference image beside -o. */
static int compare(cli_args *a, const mesa_r300_config *c, const char *frag, const r500_result *r,
                   double tol, const char *out)
{
    ls_diag d;
    ls_diag_clear(&d);
    float *ref = NULL;
    if (mesa_llvmpipe_image(c, frag, &ref, &d) != LS_OK) {
        cli_report(a, &d);
        return d.status == LS_ERR_NOMEM ? CLI_INTERNAL : CLI_UNAVAILABLE;
    }
    size_t n = (size_t)r->width * (size_t)r->height;
    /* --reference: llvmpipe's picture beside lockstep's */
    const char *refout = cli_get(a, "reference");
    if (refout) {
        ls_imagef img = {r->width, r->height, ref};
        ls_image8 png = {0};
        if (ls_imagef_to_8(&img, &png, &d) || ls_png_write(refout, &png, &d)) {
            ls_image8_free(&png);
            free(ref);
            cli_report(a, &d);
            return CLI_OUTPUT;
        }
        ls_image8_free(&png);
    }
    float *diff = out ? calloc(n * 4, sizeof *diff) : NULL;
    if (out && !diff) {
        free(ref);
        return cli_err(a, CLI_INTERNAL, "out of memory");
    }
    mesa_compare cmp;
    mesa_compare_images(r->target[0], ref, r->width, r->height, tol, diff, &cmp);
    int rc = CLI_OK;
    if (!cli_flag(a, "quiet") || cmp.bad)
        fprintf(stderr, "%s: %dx%d pixels, %zu differ by more than %g (max |diff| %g)\n", frag, r->width,
                r->height, cmp.bad, tol, cmp.max_diff);
    if (cmp.first >= 0) {
        long f = cmp.first;
        const float *x = r->target[0] + 4 * f, *y = ref + 4 * f;
        fprintf(stderr,
                "  first at (%ld, %ld) from the bottom: lockstep (%g, %g, %g, %g), llvmpipe (%g, %g, %g, %g)\n",
                f % r->width, f / r->width, x[0], x[1], x[2], x[3], y[0], y[1], y[2], y[3]);
    }
    if (diff) {
        char dpath[4096];
        snprintf(dpath, sizeof dpath, "%s.diff.png", out);
        ls_imagef img = {r->width, r->height, diff};
        ls_image8 png = {0};
        if (ls_imagef_to_8(&img, &png, &d) || ls_png_write(dpath, &png, &d)) {
            cli_report(a, &d);
            rc = CLI_OUTPUT;
        }
        ls_image8_free(&png);
    }
    free(diff);
    free(ref);
    if (cmp.bad && !rc)
        rc = cli_err(a, CLI_MISMATCH, "%s: %zu pixel(s) differ from llvmpipe", frag, cmp.bad);
    return rc;
}

/* mesa run/check through the whole pipeline: r300's vertex program and
 * draws, rasterized, interpolated and shaded by lockstep. */
static int pipeline_cmd(cli_args *a, mesa_r300_config *c, const char *frag,
                        enum mesa_mode mode, double tol, const char *out, unsigned workers,
                        ls_buf *glout)
{
    ls_diag d;
    ls_diag_clear(&d);
    float *img = NULL;
    r500_raster_stats rs;
    mesa_r300_verdict verdict;
    ls_status st = mesa_r300_render(c, frag, workers, &img, &rs, &verdict, &d);
    /* with the shim's trace asked for, what the GL program printed goes to stderr */
    if (glout->len)
        fwrite(glout->data, 1, glout->len, stderr);
    glout->len = 0;
    c->output = NULL;
    if (st != LS_OK) {
        /* the outcome classes as the rectangle model reports them (docs/mesa-fuzz.md) */
        int rc = cli_report(a, &d);
        if (verdict.outcome == MESA_OUTCOME_R300_CRASH || verdict.outcome == MESA_OUTCOME_GLSL_ERROR)
            return mesa_outcome_table[verdict.outcome].exit_status;
        return st == LS_ERR_IO ? CLI_UNAVAILABLE : rc;
    }
    if (verdict.outcome == MESA_OUTCOME_R300_COMPILE_ERROR)
        cli_warn(a, "%s: r300 reported a compiler error and drew with its dummy shader (%s)%s%s",
                 frag, mesa_outcome_table[verdict.outcome].name, verdict.why[0] ? ": " : "",
                 verdict.why);
    r500_result r;
    memset(&r, 0, sizeof r);
    r.width = c->width;
    r.height = c->height;
    r.target[0] = img;
    int rc = CLI_OK;
    if (out)
        rc = cli_write_frame(a, out, NULL, img, c->width, c->height);
    if (!cli_flag(a, "quiet"))
        fprintf(stderr,
                "%s: %dx%d, whole pipeline: %llu primitives, %llu triangles, %llu pixels, %llu "
                "quads, %llu killed, %llu FC instructions, %llu faulted threads\n",
                frag, c->width, c->height, (unsigned long long)rs.prims,
                (unsigned long long)rs.triangles, (unsigned long long)rs.pixels,
                (unsigned long long)rs.quads, (unsigned long long)rs.killed,
                (unsigned long long)rs.inst_fc, (unsigned long long)rs.faulted_threads);
    int crc = mode == MODE_CHECK ? compare(a, c, frag, &r, tol, out) : CLI_OK;
    if (!rc && crc != CLI_OK && crc != CLI_MISMATCH)
        rc = crc;
    if (!rc && rs.faulted_threads) {
        cli_err(a, CLI_FAULT, "%s: %llu fragment thread(s) faulted", frag,
                (unsigned long long)rs.faulted_threads);
        rc = mesa_outcome_table[MESA_OUTCOME_LOCKSTEP_FAULT].exit_status;
    }
    if (!rc && verdict.outcome == MESA_OUTCOME_R300_COMPILE_ERROR)
        rc = mesa_outcome_table[MESA_OUTCOME_R300_COMPILE_ERROR].exit_status;
    if (!rc)
        rc = crc;
    free(img);
    return rc;
}

/* The scene options of mesa run|check (docs/mesa.md "Scenes"), checked here
 * so that a bad one is a one-line error before Mesa starts, and turned into
 * the GL program's arguments (*out, malloc'd, in the order given). */
static int scene_args(cli_args *a, const char ***out, size_t *n)
{
    *n = 0;
    *out = calloc(2 * a->nov + 1, sizeof **out);
    if (!*out)
        return cli_err(a, CLI_INTERNAL, "out of memory");
    const char **v = *out;
    for (size_t k = 0; k < a->nov; k++) {
        const char *name = a->ov[k].opt->name, *val = a->ov[k].val;
        if (!strcmp(name, "depth") || !strcmp(name, "rgba8")) {
            v[(*n)++] = !strcmp(name, "depth") ? "--depth" : "--rgba8";
            continue;
        }
        if (!strcmp(name, "texture")) {
            const char *eq = strchr(val, '=');
            if (!eq || eq == val)
                return cli_usage(a, "--texture %s: expected SAMPLER=SOURCE", val);
            const char *src = eq + 1;
            size_t l = strcspn(src, ",");
            static const char *const patterns[] = {MESA_TEXTURE_PATTERNS};
            bool pattern = false;
            for (size_t i = 0; i < sizeof patterns / sizeof patterns[0]; i++)
                pattern |= strlen(patterns[i]) == l && !strncmp(patterns[i], src, l);
            for (const char *o = src + l; *o == ',';) {
                size_t ol = strcspn(++o, ",");
                if (!(ol == 7 && !strncmp(o, "nearest", 7)) && !(ol == 5 && !strncmp(o, "clamp", 5)))
                    return cli_usage(a, "--texture %s: unknown option '%.*s' (nearest, clamp)", val,
                                     (int)ol, o);
                o += ol;
            }
            if (!pattern) {
                char path[PATH_MAX];
                snprintf(path, sizeof path, "%.*s", (int)l, src);
                ls_image8 img;
                ls_diag d;
                ls_diag_clear(&d);
                if (ls_png_read(path, &img, &d) != LS_OK)
                    return cli_report(a, &d);
                ls_image8_free(&img);
            }
        } else if (!strcmp(name, "mesh")) {
            ls_buf text;
            int rc = cli_read(a, val, &text);
            if (rc)
                return rc;
            piglit_test t;
            ls_diag d;
            ls_diag_clear(&d);
            ls_status st = piglit_mesh_parse(text.data ? text.data : "", text.len, val, &t, &d);
            ls_buf_free(&text);
            if (st != LS_OK)
                return cli_report(a, &d);
            piglit_test_free(&t);
        } else if (!strcmp(name, "blend")) {
            const char *comma = strchr(val, ',');
            bool ok_src = false, ok_dst = false;
#define FACTOR(fname, glname, value)                                                              \
    ok_src |= comma && (size_t)(comma - val) == strlen(#fname) && !strncmp(val, #fname, strlen(#fname)); \
    ok_dst |= comma && !strcmp(comma + 1, #fname);
            MESA_BLEND_FACTORS(FACTOR)
#undef FACTOR
            if (!ok_src || !ok_dst)
                return cli_usage(a, "--blend %s: expected SRC,DST glBlendFunc factors such as "
                                    "src_alpha,one_minus_src_alpha", val);
        } else if (!strcmp(name, "clear")) {
            float c[4];
            int used = 0;
            if (sscanf(val, "%f,%f,%f,%f%n", &c[0], &c[1], &c[2], &c[3], &used) != 4 || val[used])
                return cli_usage(a, "--clear %s: expected R,G,B,A", val);
        } else {
            continue;
        }
        v[(*n)++] = !strcmp(name, "texture") ? "--texture" : !strcmp(name, "mesh") ? "--mesh"
                    : !strcmp(name, "blend")  ? "--blend" : "--clear";
        v[(*n)++] = val;
    }
    return CLI_OK;
}

static int mesa_cmd(cli_args *a, enum mesa_mode mode)
{
    long threads = sysconf(_SC_NPROCESSORS_ONLN) > 0 ? sysconf(_SC_NPROCESSORS_ONLN) : 1;
    const char *frag = a->ops[0], *out = cli_get(a, "output");
    mesa_r300_config c;
    memset(&c, 0, sizeof c);
    c.vert = cli_get(a, "vert");
    c.chip = cli_get(a, "chip") ? cli_get(a, "chip") : "rv530";
    c.width = c.height = 16;
    double tol = 1e-3;
    int rc = cli_opt_size(a, "size", &c.width, &c.height);
    if (!rc)
        rc = cli_opt_long(a, "workers", 1, 256, &threads);
    if (!rc)
        rc = cli_mesa_check_chip(a, c.chip);
    char drivers[PATH_MAX];
    if (!rc)
        rc = cli_mesa_drivers(a, drivers, sizeof drivers);
    c.drivers = drivers;
    long reps = 5;
    if (!rc && mode == MODE_BENCH)
        rc = cli_opt_long(a, "reps", 1, 1000, &reps);
    if (rc)
        return rc;
    if ((rc = cli_opt_nonneg(a, "tolerance", &tol)))
        return rc;
    const char **uni = calloc(a->nov + 1, sizeof *uni);
    if (!uni)
        return cli_err(a, CLI_INTERNAL, "out of memory");
    for (size_t k = 0; k < a->nov; k++) {
        if (strcmp(a->ov[k].opt->name, "uniform"))
            continue;
        const char *v = a->ov[k].val;
        if (!strchr(v, '=') || *v == '=') {
            free(uni);
            return cli_usage(a, "--uniform %s: expected NAME=V[,V...]", v);
        }
        uni[c.nuniforms++] = v;
    }
    c.uniforms = uni;
    /* the inputs exist before Mesa starts */
    ls_buf fsrc;
    if ((rc = cli_read(a, frag, &fsrc))) {
        free(uni);
        return rc;
    }
    warn_unset_uniforms(a, frag, fsrc.data, fsrc.len);
    ls_buf_free(&fsrc);
    if (c.vert && access(c.vert, R_OK)) {
        free(uni);
        return cli_err(a, CLI_INPUT, "cannot read %s: %s", c.vert, strerror(errno));
    }
    char shim[PATH_MAX], gl[PATH_MAX];
    if (!cli_mesa_find_helper("LOCKSTEP_MESA_SHIM", "liblockstep_r300_shim.so", shim, sizeof shim) ||
        !cli_mesa_find_helper("LOCKSTEP_MESA_GL", "lockstep-mesa-gl", gl, sizeof gl)) {
        free(uni);
        return cli_err(a, CLI_UNAVAILABLE, "the r300 shim is not built (install libdrm-dev libegl-dev "
                                           "libgl-dev and reconfigure; docs/mesa.md)");
    }
    c.shim = shim;
    c.gl = gl;
    const char **scene = NULL;
    if ((rc = scene_args(a, &scene, &c.nscene))) {
        free(scene);
        free(uni);
        return rc;
    }
    c.scene = scene;
    c.capture = cli_get(a, "capture");
    /* with the shim's trace asked for, what the GL program printed goes to stderr */
    ls_buf glout;
    ls_buf_init(&glout);
    const char *trace_env = getenv("LOCKSTEP_SHIM_TRACE");
    if (trace_env && *trace_env)
        c.output = &glout;
    /* The whole captured stream runs unless an output needs one fragment run
     * over the window (--stats, --trace) or its job-wide limits: those use
     * the rectangle model (docs/mesa.md). */
    if (mode != MODE_BENCH && !cli_get(a, "stats") && !cli_get(a, "trace") &&
        !cli_get(a, "max-instructions") && !cli_get(a, "timeout") && !cli_get(a, "engine")) {
        rc = pipeline_cmd(a, &c, frag, mode, tol, out, (unsigned)threads, &glout);
        ls_buf_free(&glout);
        free(scene);
        free(uni);
        return rc;
    }
    if (c.nscene || c.capture) {
        /* a scene is several draws: the rectangle model runs one fragment program */
        ls_buf_free(&glout);
        free(scene);
        free(uni);
        return cli_usage(a, "--texture, --mesh, --depth, --blend, --clear, --rgba8 and --capture run "
                            "through the whole pipeline; --stats, --trace, --max-instructions and "
                            "--timeout run the rectangle model (docs/mesa.md)");
    }
    ls_diag d;
    ls_diag_clear(&d);
    r500_job rj;
    r500_job_init(&rj);
    float *varying = NULL;
    mesa_r300_verdict verdict;
    ls_status st = mesa_r300_job(&c, frag, &rj, &varying, &verdict, &d);
    if (glout.len)
        fwrite(glout.data, 1, glout.len, stderr);
    ls_buf_free(&glout);
    c.output = NULL;
    if (st != LS_OK) {
        /* the GL program or r300 failing is an outside component's failure */
        rc = cli_report(a, &d);
        if (verdict.outcome == MESA_OUTCOME_R300_CRASH || verdict.outcome == MESA_OUTCOME_GLSL_ERROR)
            rc = mesa_outcome_table[verdict.outcome].exit_status;
        else if (st == LS_ERR_IO)
            rc = CLI_UNAVAILABLE;
    } else {
        if (verdict.outcome == MESA_OUTCOME_R300_COMPILE_ERROR)
            cli_warn(a, "%s: r300 reported a compiler error and drew with its dummy shader (%s)%s%s",
                     frag, mesa_outcome_table[verdict.outcome].name, verdict.why[0] ? ": " : "",
                     verdict.why);
        rj.workers = (unsigned)threads;
        rj.options.jit = cli_jit_ops(); /* --engine jit (NULL without LLVM) */
        /* the job-wide limits, as r500 run takes them */
        for (size_t k = 0; k < a->nov && st == LS_OK; k++) {
            const char *on = a->ov[k].opt->name;
            if (!strcmp(on, "max-instructions") || !strcmp(on, "timeout") ||
                !strcmp(on, "engine"))
                st = r500_job_apply(&rj, on, a->ov[k].val, &d);
        }
    }
    if (st != LS_OK && !rc) {
        rc = st == LS_ERR_ARG ? cli_usage(a, "%s", d.msg) : cli_report(a, &d);
    } else if (st == LS_OK) {
        ls_buf tbuf;
        ls_buf_init(&tbuf);
        r500_result r;
        memset(&r, 0, sizeof r);
        mesa_r300_bench_result bench;
        if (mode == MODE_BENCH)
            st = mesa_r300_bench(&c, frag, &rj, (unsigned)reps, (unsigned)threads, &bench, &d);
        else
            st = r500_run(&rj, &r, cli_get(a, "trace") ? &tbuf : NULL, &d);
        if (st != LS_OK) {
            rc = cli_report(a, &d);
        } else if (mode == MODE_BENCH) {
            if (bench.llvmpipe < 0)
                cli_report(a, &bench.llvmpipe_diag);
            /* the timings are what bench produces: stdout */
            printf("%s %dx%d, %u thread(s)\n", frag, c.width, c.height, bench.threads);
            printf("  lockstep (engine %s): %.6f s wall, %.6f s CPU (%.2f Mpixel/s, mean of %u runs",
                   bench.engine == R500_ENGINE_JIT ? "jit" : "interp", bench.lockstep.wall,
                   bench.lockstep.cpu, bench.lockstep_mpixels, bench.reps);
            if (bench.engine == R500_ENGINE_JIT)
                printf(", compiled once in %.6f s before them", bench.compile_seconds);
            printf(")\n");
            if (bench.llvmpipe > 0) {
                printf("  llvmpipe: %.6f s wall, %.6f s CPU (%.2f Mpixel/s, mean of %u draws, "
                       "LP_NUM_THREADS=%u)\n",
                       bench.llvmpipe, bench.llvmpipe_cpu, bench.llvmpipe_mpixels, bench.reps, bench.threads);
                /* speed of lockstep relative to llvmpipe: > 1 is faster */
                printf("  speed lockstep/llvmpipe: %.2f wall, %.2f CPU\n", bench.speed_wall, bench.speed_cpu);
            } else {
                printf("  llvmpipe: could not be timed\n");
            }
        } else {
            /* the outcome classes (docs/mesa-fuzz.md): a lockstep fault, then
             * r300's dummy shader, then a disagreement */
            int frc = cli_r500_faults(a, frag, &r);
            int wr = cli_r500_outputs(a, frag, &rj, &r, &tbuf);
            int crc = mode == MODE_CHECK ? compare(a, &c, frag, &r, tol, out) : CLI_OK;
            rc = wr ? wr : crc != CLI_OK && crc != CLI_MISMATCH ? crc : 0;
            if (!rc && frc)
                rc = mesa_outcome_table[MESA_OUTCOME_LOCKSTEP_FAULT].exit_status;
            if (!rc && verdict.outcome == MESA_OUTCOME_R300_COMPILE_ERROR)
                rc = mesa_outcome_table[MESA_OUTCOME_R300_COMPILE_ERROR].exit_status;
            if (!rc)
                rc = crc;
            r500_result_free(&r);
        }
        ls_buf_free(&tbuf);
    }
    r500_job_free(&rj);
    free(varying);
    free(scene);
    free(uni);
    return rc;
}

int cli_mesa_run(cli_args *a) { return mesa_cmd(a, MODE_RUN); }
int cli_mesa_check(cli_args *a) { return mesa_cmd(a, MODE_CHECK); }
int cli_mesa_bench(cli_args *a) { return mesa_cmd(a, MODE_BENCH); }
