/* PP5 throughput: simulated IGC+EMC clocks per second for the full 128×128
 * array (64 EMCs) rendering a scene of Gouraud z-buffered triangles on one
 * core, and the two halves on their own, to show what limits it:
 *   - IGC+EMC: pp5_render (host streams → IGC → EMC array → colour read-back);
 *   - EMC alone: the same frame's pins, recorded once, replayed into a fresh
 *     EMC array (pp5_emc_run: the whole frame as one block; then again in
 *     blocks of PP5_STREAM_BLOCK clocks, as pp5_render hands them over);
 *   - IGC alone: the same host streams with no EMC attached (block mode, as
 *     the renderer runs them: pp5_stream_run_blocks).
 * Usage: bench_pp5 [TRIANGLES [FRAMES [DISCS [emc|render]]]] ("emc": only the EMC
 * replay is repeated, for profiling it; "render": only pp5_render). Each figure is the best of
 * FRAMES runs (CPU time of this process, so other jobs on the shared machine
 * disturb it less; the wall-clock figure of the best run is printed too), with
 * the spread (worst/best) beside it. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "base/buf.h"
#include "bench_pp5_scene.h"
#include "pp5/render.h"
#include "pp5/stream.h"
#include "pp5/uasm.h"

static double cpu_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}
static double wall_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

typedef struct timing { double best, worst, best_wall; } timing;
static void timing_add(timing *t, double cpu, double wall)
{
    if (t->best == 0 || cpu < t->best) {
        t->best = cpu;
        t->best_wall = wall;
    }
    if (cpu > t->worst) t->worst = cpu;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void nop_block(void *u, const pp5_pins *p, size_t n) { (void)u; (void)p; (void)n; }

typedef struct recording {
    pp5_pins *p;
    size_t n, cap;
} recording;

static void record_clock(void *user, const pp5_igc *g, const pp5_pins *pins, const pp5_emc *e)
{
    (void)g;
    (void)e;
    recording *r = user;
    if (r->n == r->cap) {
        size_t nc = r->cap ? 2 * r->cap : 4096;
        pp5_pins *np = realloc(r->p, nc * sizeof *np);
        if (!np) exit(1);
        r->p = np;
        r->cap = nc;
    }
    r->p[r->n++] = *pins;
}

int main(int argc, char **argv)
{
    int ntri = argc > 1 ? atoi(argv[1]) : 200, reps = argc > 2 ? atoi(argv[2]) : 40;
    int ndisc = argc > 3 ? atoi(argv[3]) : 0;
    bool emc_only = argc > 4 && !strcmp(argv[4], "emc");
    bool render_only = argc > 4 && !strcmp(argv[4], "render"); /* for profiling pp5_render alone */
    if (reps < 1) reps = 1;
    ls_buf b;
    ls_buf_init(&b);
    bench_pp5_scene(&b, ntri, ndisc);
    pp5_scene sc;
    ls_diag d;
    if (pp5_scene_parse(b.data, b.len, "bench", &sc, &d) != LS_OK) { fprintf(stderr, "%s\n", d.msg); return 1; }
    static uint8_t rgb[128 * 128 * 3];

    /* IGC + EMC: the renderer */
    uint64_t clocks = 0;
    double per_tri = 0;
    timing full = {0, 0, 0};
    double *full_all = calloc((size_t)reps, sizeof *full_all); /* (for the median) */
    if (!full_all) return 1;
    int nfull = 0;
    for (int r = 0; r < (emc_only ? 1 : reps); r++) {
        pp5_render_stats st;
        double c0 = cpu_now(), w0 = wall_now();
        if (pp5_render(&sc, NULL, rgb, &st, &d) != LS_OK) { fprintf(stderr, "%s\n", d.msg); return 1; }
        double cpu = cpu_now() - c0;
        timing_add(&full, cpu, wall_now() - w0);
        full_all[nfull++] = cpu;
        clocks = st.clocks; /* setup included */
        uint64_t sum = 0;
        for (size_t i = 0; i < st.nprims && i < (size_t)ntri; i++) sum += st.prim_clocks[i];
        per_tri = ntri ? (double)sum / (double)ntri : 0;
        free(st.prim_clocks);
    }
    qsort(full_all, (size_t)nfull, sizeof *full_all, cmp_double);
    double full_median = nfull ? full_all[nfull / 2] : 0;
    free(full_all);

    if (render_only) {
        printf("pp5 bench: %d triangles + %d discs: IGC+EMC (pp5_render) %.2f M clocks/s (%.1f ns a clock, "
               "best of %d, spread %.2f; median frame %.2f M clocks/s)\n", ntri, ndisc,
               (double)clocks / full.best / 1e6, full.best / (double)clocks * 1e9, reps, full.worst / full.best,
               full_median > 0 ? (double)clocks / full_median / 1e6 : 0);
        pp5_scene_free(&sc);
        ls_buf_free(&b);
        return 0;
    }

    /* the same frame's pins, recorded, replayed into the EMC array alone */
    recording rec = {NULL, 0, 0};
    pp5_render_opts ro;
    pp5_render_opts_default(&ro);
    ro.on_clock = record_clock;
    ro.user = &rec;
    pp5_render_stats st;
    if (pp5_render(&sc, &ro, rgb, &st, &d) != LS_OK) { fprintf(stderr, "%s\n", d.msg); return 1; }
    free(st.prim_clocks);
    timing emc = {0, 0, 0}, emc_blk = {0, 0, 0};
    for (int r = 0; r < reps; r++) {
        pp5_emc *e;
        if (pp5_emc_create(&e, NULL, &d) != LS_OK) return 1;
        double c0 = cpu_now(), w0 = wall_now();
        pp5_emc_run(e, rec.p, rec.n);
        pp5_emc_sync(e); /* (the frame complete: the segment left open, the deferred Carry) */
        timing_add(&emc, cpu_now() - c0, wall_now() - w0);
        pp5_emc_destroy(e);
        /* the same in blocks of PP5_STREAM_BLOCK clocks, as pp5_render hands them over */
        if (pp5_emc_create(&e, NULL, &d) != LS_OK) return 1;
        c0 = cpu_now();
        w0 = wall_now();
        for (size_t i = 0; i < rec.n; i += PP5_STREAM_BLOCK)
            pp5_emc_run(e, rec.p + i, rec.n - i < PP5_STREAM_BLOCK ? rec.n - i : PP5_STREAM_BLOCK);
        pp5_emc_sync(e);
        timing_add(&emc_blk, cpu_now() - c0, wall_now() - w0);
        pp5_emc_destroy(e);
    }

    /* IGC alone on the same streams (no EMC) */
    pp5_ucode *u = calloc(1, sizeof *u);
    ls_diag_list errs;
    ls_diag_list_init(&errs);
    pp5_uasm(pp5_render_ucode, strlen(pp5_render_ucode), "lib", u, &errs);
    ls_buf sb;
    ls_buf_init(&sb);
    ls_buf_puts(&sb, "write P fbits=20 src=24 lc2=24\nwait\n");
    for (size_t i = 0; i < sc.n; i++) pp5_render_prim_stream(&sc.p[i], &sb, &d);
    pp5_stream ps;
    pp5_stream_parse(sb.data, sb.len, "bench", &ps, &d);
    timing igc = {0, 0, 0};
    uint64_t igc_clocks = 0;
    for (int r = 0; r < (emc_only ? 1 : reps); r++) {
        pp5_igc *g;
        pp5_igc_create(&g, NULL, &d);
        pp5_igc_load_ucode(g, 0, u->words, PP5_UCODE_WORDS, &d);
        double c0 = cpu_now(), w0 = wall_now();
        pp5_stream_run_blocks(&ps, g, 0, nop_block, NULL, &d);
        timing_add(&igc, cpu_now() - c0, wall_now() - w0);
        igc_clocks = pp5_igc_cycle(g);
        pp5_igc_destroy(g);
    }

    double n = (double)rec.n;
    printf("pp5 bench: %d triangles + %d discs, 128x128 array (64 EMCs), %.1f clocks per Gouraud z-buffered "
           "triangle, best of %d (CPU time; spread = worst/best)\n", ntri, ndisc, per_tri, reps);
    printf("  IGC+EMC (pp5_render):  %8.2f M clocks/s   (%llu clocks, %.4f s CPU, %.4f s wall, spread %.2f; "
           "median frame %.2f M clocks/s)\n",
           (double)clocks / full.best / 1e6, (unsigned long long)clocks, full.best, full.best_wall,
           full.worst / full.best, full_median > 0 ? (double)clocks / full_median / 1e6 : 0);
    printf("  EMC alone (replay):    %8.2f M clocks/s   (%zu clocks, %.4f s CPU, %.4f s wall, spread %.2f)\n",
           n / emc.best / 1e6, rec.n, emc.best, emc.best_wall, emc.worst / emc.best);
    printf("  EMC alone, %d-clock blocks: %5.2f M clocks/s   (%.4f s CPU, spread %.2f)\n", (int)PP5_STREAM_BLOCK,
           n / emc_blk.best / 1e6, emc_blk.best, emc_blk.worst / emc_blk.best);
    printf("  IGC alone (streams):   %8.2f M clocks/s   (%llu clocks, %.4f s CPU, %.4f s wall, spread %.2f)\n",
           (double)igc_clocks / igc.best / 1e6, (unsigned long long)igc_clocks, igc.best, igc.best_wall,
           igc.worst / igc.best);
    printf("  per clock: IGC+EMC %.1f ns = EMC %.1f ns + IGC %.1f ns + rest %.1f ns (host streams, read-back); "
           "target 40 M clocks/s = 25 ns\n", full.best / (double)clocks * 1e9, emc.best / n * 1e9,
           igc.best / (double)igc_clocks * 1e9,
           (full.best / (double)clocks - emc.best / n - igc.best / (double)igc_clocks) * 1e9);
    free(rec.p);
    pp5_stream_free(&ps);
    ls_buf_free(&sb);
    ls_diag_list_free(&errs);
    free(u);
    pp5_scene_free(&sc);
    ls_buf_free(&b);
    return 0;
}
