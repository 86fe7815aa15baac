/* PP5 IGC alone: simulated IGC clocks per second on the renderer's host streams
 * (random Gouraud z-buffered triangles, as bench_pp5), one core, no EMC array.
 *
 *   bench_pp5_igc [TRIANGLES [SECONDS [ONLY]]]
 *   (ONLY: full, fast, runner, signals or blocks)
 *
 * Five ways of clocking the same streams:
 *   full step      a loop of pp5_igc_step() (the model of record, all signals kept)
 *   fast step      the same loop with pp5_igc_step_fast()
 *   stream runner  pp5_stream_run() with an empty per-clock callback (fast steps)
 *   + signals      pp5_stream_run() with a callback reading every named signal
 *                  each clock (what the VCD writer does)
 *   blocks         pp5_stream_run_blocks(): the idle clocks by pp5_igc_run_idle()
 *                  into a pins buffer (quiet segments), handed over in blocks
 *                  (what the renderer does, without the EMC array)
 * and reports clocks per second of CPU time (this process), ns per clock and
 * the ratio to the full step, and checks that all gave the same pins (a hash
 * over every clock of the first pass). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "base/buf.h"
#include "bench_pp5_scene.h"
#include "pp5/accel/igc_fast.h" /* the segment counters */
#include "pp5/render.h"
#include "pp5/stream.h"
#include "pp5/uasm.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t); /* the machine is shared */
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

typedef ls_status (*step_fn)(pp5_igc *, const pp5_host_in *, pp5_pins *, ls_diag *);

/* FNV-1a over the pins of every clock, field by field */
static uint64_t hash_pins(uint64_t h, const pp5_pins *p)
{
    const uint8_t *b = (const uint8_t *)p;
    for (size_t i = 0; i < sizeof *p; i++)
        h = (h ^ b[i]) * 0x100000001b3ull;
    return h;
}

/* The stream runner's loop, with the step function as a parameter. */
static uint64_t run_loop(const pp5_stream *s, pp5_igc *g, step_fn step, uint64_t *hash)
{
    uint64_t clocks = 0;
    for (size_t i = 0; i < s->n; i++) {
        const pp5_action *a = &s->a[i];
        pp5_host_in in = {0};
        uint64_t n = 1;
        switch (a->kind) {
        case PP5_ACT_WRITE:
            in.wr_en = true;
            in.d = a->value;
            in.t = (uint8_t)a->reg; /* default A-6 order */
            break;
        case PP5_ACT_GO: in.go = true; break;
        case PP5_ACT_RESET: in.reset = true; break;
        case PP5_ACT_RUN: n = a->value; break;
        case PP5_ACT_WAIT: n = UINT64_MAX; break;
        default: continue;
        }
        for (uint64_t c = 0; c < n; c++) {
            if (a->kind == PP5_ACT_WAIT && !pp5_igc_busy(g))
                break;
            pp5_pins p;
            ls_diag d;
            if (step(g, &in, &p, &d) != LS_OK) {
                fprintf(stderr, "bench: host error: %s\n", d.msg);
                exit(1);
            }
            if (hash)
                *hash = hash_pins(*hash, &p);
            clocks++;
            memset(&in, 0, sizeof in);
        }
    }
    return clocks;
}

typedef struct sink { uint64_t *hash; } sink;

static void nop_clock(void *u, const pp5_igc *g, const pp5_pins *p)
{
    (void)g;
    sink *k = u;
    if (k->hash)
        *k->hash = hash_pins(*k->hash, p);
}

static void hash_block(void *u, const pp5_pins *p, size_t n)
{
    sink *k = u;
    if (k->hash)
        for (size_t i = 0; i < n; i++)
            *k->hash = hash_pins(*k->hash, &p[i]);
}

static uint64_t sigbuf[256];
static void signals_clock(void *u, const pp5_igc *g, const pp5_pins *p)
{
    pp5_igc_signal_values(g, sigbuf);
    nop_clock(u, g, p);
}

typedef struct result { double cps; uint64_t hash; } result;

static result measure(const char *name, const pp5_stream *s, const pp5_ucode *u, int mode,
                      double seconds, double ref_cps)
{
    pp5_igc *g;
    ls_diag d;
    if (pp5_igc_create(&g, NULL, &d) != LS_OK ||
        pp5_igc_load_ucode(g, 0, u->words, PP5_UCODE_WORDS, &d) != LS_OK) {
        fprintf(stderr, "bench: %s\n", d.msg);
        exit(1);
    }
    uint64_t clocks = 0, hash = 0xcbf29ce484222325ull;
    double t0 = now(), t = 0;
    bool first = true;
    do {
        uint64_t *h = first ? &hash : NULL; /* the first pass only: timing without it */
        sink k = {h};
        switch (mode) {
        case 0: clocks += run_loop(s, g, pp5_igc_step, h); break;
        case 1: clocks += run_loop(s, g, pp5_igc_step_fast, h); break;
        default: {
            uint64_t c0 = pp5_igc_cycle(g);
            if ((mode == 4 ? pp5_stream_run_blocks(s, g, 0, hash_block, &k, &d)
                           : pp5_stream_run(s, g, 0, mode == 2 ? nop_clock : signals_clock, &k,
                                            &d)) != LS_OK) {
                fprintf(stderr, "bench: %s\n", d.msg);
                exit(1);
            }
            clocks += pp5_igc_cycle(g) - c0;
        }
        }
        if (first) { /* restart the clock after the hashed pass */
            first = false;
            clocks = 0;
            t0 = now();
        }
        t = now() - t0;
    } while (t < seconds);
    result r = {(double)clocks / t, hash};
    printf("  %-14s %8.2f M clocks/s  %6.1f ns/clock", name, r.cps / 1e6, 1e9 / r.cps);
    if (ref_cps > 0)
        printf("  x%.1f", r.cps / ref_cps);
    printf("   (%llu clocks)\n", (unsigned long long)clocks);
    if (mode == 4) { /* how the clocks ran (counters of fast.c), per clock */
        const double all = (double)pp5_igc_cycle(g);
        printf("  %-14s %.1f %% in quiet segments: loops %.1f %%, host clocks %.1f %%; "
               "%.1f loop plans (%.2f shapes made) and %.1f loops per 100 clocks "
               "(%.2f ending with a PostC)\n", "",
               100.0 * (double)PP5_FAST(g)->seg_clocks / all, 100.0 * (double)PP5_FAST(g)->seg_loop_clocks / all,
               100.0 * (double)PP5_FAST(g)->seg_host_clocks / all, 100.0 * (double)PP5_FAST(g)->seg_plans / all,
               100.0 * (double)PP5_FAST(g)->seg_shapes / all, 100.0 * (double)PP5_FAST(g)->seg_loops / all,
               100.0 * (double)PP5_FAST(g)->seg_postc_loops / all);
    }
    pp5_igc_destroy(g);
    return r;
}

int main(int argc, char **argv)
{
    int ntri = argc > 1 ? atoi(argv[1]) : 200;
    double seconds = argc > 2 ? atof(argv[2]) : 1.0;
    /* the scene of bench_pp5.c */
    ls_buf b;
    ls_buf_init(&b);
    bench_pp5_scene(&b, ntri, 0);
    pp5_scene sc;
    ls_diag d;
    if (pp5_scene_parse(b.data, b.len, "bench", &sc, &d) != LS_OK) {
        fprintf(stderr, "%s\n", d.msg);
        return 1;
    }
    pp5_ucode *u = calloc(1, sizeof *u);
    ls_diag_list errs;
    ls_diag_list_init(&errs);
    if (pp5_uasm(pp5_render_ucode, strlen(pp5_render_ucode), "lib", u, &errs) != LS_OK) {
        fprintf(stderr, "bench: microcode library does not assemble\n");
        return 1;
    }
    ls_buf sb;
    ls_buf_init(&sb);
    ls_buf_printf(&sb, "write P fbits=%d src=%d lc2=%d\nwait\n", PP5_R_FBITS, PP5_R_ZTEMP,
                  PP5_R_ZBITS);
    for (size_t i = 0; i < sc.n; i++)
        pp5_render_prim_stream(&sc.p[i], &sb, &d);
    pp5_stream ps;
    if (pp5_stream_parse(sb.data, sb.len, "bench", &ps, &d) != LS_OK) {
        fprintf(stderr, "%s\n", d.msg);
        return 1;
    }
    const char *only = argc > 3 ? argv[3] : NULL;
    printf("pp5 IGC alone, %d triangles of renderer streams, one core:\n", ntri);
    static const char *const names[5] = {"full step", "fast step", "stream runner", "+ signals",
                                         "blocks"};
    static const char *const keys[5] = {"full", "fast", "runner", "signals", "blocks"};
    result r[5] = {{0}};
    uint64_t hash0 = 0;
    bool same = true, any = false;
    for (int m = 0; m < 5; m++) {
        if (only && strcmp(only, keys[m]) != 0)
            continue;
        r[m] = measure(names[m], &ps, u, m, seconds, r[0].cps);
        if (any && r[m].hash != hash0)
            same = false;
        hash0 = r[m].hash;
        any = true;
    }
    printf("  pins of every clock %s\n", same ? "identical across the runs above"
                                              : "DIFFER between the runs above");
    pp5_stream_free(&ps);
    ls_buf_free(&sb);
    ls_diag_list_free(&errs);
    free(u);
    pp5_scene_free(&sc);
    ls_buf_free(&b);
    return same ? 0 : 1;
}
