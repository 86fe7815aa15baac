/* `lockstep mesa fuzz` (options: cli_table.c): parses, calls the library's
 * campaign, triage or reduction (include/lockstep/mesa_fuzz.h) and prints
 * what it reports (docs/mesa-fuzz.md). */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "io/image.h"
#include "lockstep/mesa_fuzz.h"

/* The diff images of findings: PNG through liblockstep_io. */
static ls_status write_png(const char *path, const float *rgba, int w, int h, ls_diag *d)
{
    ls_imagef img = {w, h, (float *)rgba};
    ls_image8 png = {0};
    ls_status st = ls_imagef_to_8(&img, &png, d);
    if (st == LS_OK)
        st = ls_png_write(path, &png, d);
    ls_image8_free(&png);
    return st;
}

typedef struct fuzz_ui {
    cli_args *a;
    cli_progress prog;
    time_t t0;      /* a --time campaign: progress in seconds */
    size_t done;
} fuzz_ui;

/* Every shader that did not agree: one line on stdout, in index order. */
static void on_case(void *user, const mesa_fuzz_case *k)
{
    fuzz_ui *u = user;
    u->done++;
    if (k->outcome != MESA_OUTCOME_AGREE) {
        if (u->prog.on)
            fprintf(stderr, "\r\033[K");
        printf("shader %" PRIu64 ": %s\t%s\n", k->index, mesa_outcome_table[k->outcome].name, k->why);
        fflush(stdout);
    }
    cli_progress_update(&u->prog, u->t0 ? (size_t)(time(NULL) - u->t0) : u->done);
}

static void on_progress(void *user, size_t done, size_t total)
{
    fuzz_ui *u = user;
    if (!u->prog.on && total != u->prog.total) {
        cli_progress_start(&u->prog, total, "findings");
    }
    cli_progress_update(&u->prog, done);
}

static void on_note(void *user, const char *line)
{
    fuzz_ui *u = user;
    if (u->prog.on)
        fprintf(stderr, "\r\033[K");
    fprintf(stderr, "%s\n", line);
}

/* --print SEED: the shader a generator seed gives, and its uniforms. */
static int print_seed(cli_args *a, const char *v)
{
    char *end;
    errno = 0;
    unsigned long long s = strtoull(v, &end, 0);
    if (errno || *end || !*v || *v == '-')
        return cli_usage(a, "--print %s: expected a generator seed (0..2^64-1)", v);
    fz_program p;
    ls_diag d;
    ls_diag_clear(&d);
    if (fz_generate(s, NULL, &p, &d) != LS_OK)
        return cli_report(a, &d);
    ls_buf b, u;
    ls_buf_init(&b);
    ls_buf_init(&u);
    fz_program_print(&p, &b);
    int nu = fz_program_uniform_args(&p, &u);
    const char *s2 = u.data;
    for (int i = 0; i < nu; i++, s2 += strlen(s2) + 1)
        ls_buf_printf(&b, "// --uniform %s\n", s2);
    int rc = cli_write(a, "-", &b);
    ls_buf_free(&b);
    ls_buf_free(&u);
    fz_program_free(&p);
    return rc;
}

int cli_mesa_fuzz(cli_args *a)
{
    const char *print = cli_get(a, "print"), *triage = cli_get(a, "triage"),
               *reduce = cli_get(a, "reduce");
    if ((print != NULL) + (triage != NULL) + (reduce != NULL) > 1)
        return cli_usage(a, "--print, --triage and --reduce exclude each other");
    if (print)
        return print_seed(a, print);
    mesa_fuzz_config c;
    mesa_fuzz_config_default(&c);
    long count = -1, secs = -1, workers = 1, tries = (long)c.max_tries, limit = -1;
    int rc = cli_opt_long(a, "count", 1, 100000000, &count);
    if (!rc)
        rc = cli_opt_long(a, "time", 1, 10000000, &secs);
    if (!rc)
        rc = cli_opt_long(a, "workers", 1, 64, &workers);
    if (!rc)
        rc = cli_opt_long(a, "max-tries", 1, 1000000, &tries);
    if (!rc)
        rc = cli_opt_long(a, "limit", 0, 100000000, &limit);
    if (!rc)
        rc = cli_opt_size(a, "size", &c.r300.width, &c.r300.height);
    if (rc)
        return rc;
    if (count > 0 && secs > 0)
        return cli_usage(a, "give --count or --time, not both");
    if (c.r300.width > 256 || c.r300.height > 256)
        return cli_usage(a, "--size %dx%d: at most 256x256", c.r300.width, c.r300.height);
    const char *sv = cli_get(a, "seed");
    if (sv) {
        char *end;
        errno = 0;
        c.seed = strtoull(sv, &end, 0);
        if (errno || *end || !*sv || *sv == '-')
            return cli_usage(a, "--seed %s: expected a number (0..2^64-1)", sv);
    }
    int trc = cli_opt_nonneg(a, "tolerance", &c.tolerance);
    if (trc)
        return trc;
    c.r300.chip = cli_get(a, "chip") ? cli_get(a, "chip") : "rv530";
    char drivers[PATH_MAX], shim[PATH_MAX], gl[PATH_MAX];
    if ((rc = cli_mesa_check_chip(a, c.r300.chip)) || (rc = cli_mesa_drivers(a, drivers, sizeof drivers)))
        return rc;
    c.r300.drivers = drivers;
    c.workers = (unsigned)workers;
    c.max_tries = (size_t)tries;
    c.limit = limit;
    c.all_classes = cli_flag(a, "all-classes");
    c.only_class = cli_get(a, "class");
    c.out = cli_get(a, "out");
    c.png = write_png;
    if ((c.all_classes || c.only_class || cli_get(a, "limit") || cli_get(a, "max-tries")) && !reduce)
        return cli_usage(a, "--all-classes, --class, --limit and --max-tries go with --reduce DIR");
    if (!cli_mesa_find_helper("LOCKSTEP_MESA_SHIM", "liblockstep_r300_shim.so", shim, sizeof shim) ||
        !cli_mesa_find_helper("LOCKSTEP_MESA_GL", "lockstep-mesa-gl", gl, sizeof gl))
        return cli_err(a, CLI_UNAVAILABLE, "the r300 shim is not built (install libdrm-dev libegl-dev "
                                           "libgl-dev and reconfigure; docs/mesa.md)");
    c.r300.shim = shim;
    c.r300.gl = gl;
    fuzz_ui ui;
    memset(&ui, 0, sizeof ui);
    ui.a = a;
    c.user = &ui;
    c.on_note = on_note;
    c.on_progress = on_progress;
    ls_diag d;
    ls_diag_clear(&d);
    if (triage) {
        mesa_fuzz_triage_counts t;
        ls_status st = mesa_fuzz_triage(&c, triage, &t, &d);
        cli_progress_end(&ui.prog);
        if (st != LS_OK)
            return cli_report(a, &d);
        fprintf(stderr,
                "%zu disagreements: %zu agree with RADEON_DEBUG=noopt, %zu agree once their discards "
                "are removed, %zu neither, %zu no longer disagree (%s/triage.json)\n",
                t.total, t.noopt, t.discard, t.other, t.gone, triage);
        return CLI_OK;
    }
    if (reduce) {
        size_t reduced = 0, groups = 0;
        ls_status st = mesa_fuzz_reduce_campaign(&c, reduce, &reduced, &groups, &d);
        cli_progress_end(&ui.prog);
        if (st != LS_OK)
            return cli_report(a, &d);
        fprintf(stderr, "%zu finding(s) reduced; %zu signature group(s) (%s/findings-summary.txt)\n",
                reduced, groups, reduce);
        return CLI_OK;
    }
    /* the campaign */
    if (secs > 0) {
        c.count = 0;
        c.seconds = (double)secs;
    } else if (count > 0) {
        c.count = (uint64_t)count;
    }
    c.on_case = on_case;
    if (c.count) {
        cli_progress_start(&ui.prog, (size_t)c.count, "shaders");
    } else {
        cli_progress_start(&ui.prog, (size_t)secs, "seconds");
        ui.t0 = time(NULL);
    }
    mesa_fuzz_summary s;
    ls_status st = mesa_fuzz_campaign(&c, &s, &d);
    cli_progress_end(&ui.prog);
    if (st != LS_OK)
        return cli_report(a, &d);
    if (!cli_flag(a, "quiet")) {
        fprintf(stderr, "seed %" PRIu64 ": %" PRIu64 " shaders in %.0f s (%" PRIu64
                        " generated shaders rejected by the float guard)\n",
                c.seed, s.shaders, s.seconds, s.rejected);
        for (int k = 0; k < MESA_OUTCOME_COUNT; k++)
            fprintf(stderr, "  %-20s %" PRIu64 "\n", mesa_outcome_table[k].name, s.counts[k]);
        fprintf(stderr, "  (disagreements that texkill-zero=kill removes: %" PRIu64 ")\n", s.texkill_kill);
    }
    /* 0 when every shader agreed, else the status of the first class that
     * occurred, in the table's order */
    for (int k = 1; k < MESA_OUTCOME_COUNT; k++)
        if (s.counts[k])
            return mesa_outcome_table[k].exit_status;
    return CLI_OK;
}
