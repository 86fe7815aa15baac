/* PP5 throughput: simulated IGC+EMC clocks per second for the full 128×128
 * array (64 EMCs) rendering a scene of Gouraud z-buffered triangles on one
 * core; also the IGC alone on the same host streams, to show what limits it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "base/buf.h"
#include "pp5/render.h"
#include "pp5/stream.h"
#include "pp5/uasm.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void nop_clock(void *u, const pp5_igc *g, const pp5_pins *p) { (void)u; (void)g; (void)p; }

int main(int argc, char **argv)
{
    int ntri = argc > 1 ? atoi(argv[1]) : 200, reps = argc > 2 ? atoi(argv[2]) : 5;
    ls_buf b;
    ls_buf_init(&b);
    uint64_t s = 12345;
    ls_buf_puts(&b, "clear 0 0 0\n");
    for (int i = 0; i < ntri; i++) {
        ls_buf_puts(&b, "tri");
        for (int v = 0; v < 3; v++) {
            s = s * 6364136223846793005ull + 1442695040888963407ull;
            double x = (double)(s >> 40 & 0xffff) / 65536.0 * 148 - 10;
            double y = (double)(s >> 20 & 0xffff) / 65536.0 * 148 - 10;
            ls_buf_printf(&b, " %.3f %.3f %.3f %d %d %d", x, y, (double)(s >> 8 & 0xff) / 256.0,
                          (int)(s >> 10 & 0xff), (int)(s >> 18 & 0xff), (int)(s >> 26 & 0xff));
        }
        ls_buf_puts(&b, "\n");
    }
    pp5_scene sc;
    ls_diag d;
    if (pp5_scene_parse(b.data, b.len, "bench", &sc, &d) != LS_OK) { fprintf(stderr, "%s\n", d.msg); return 1; }
    static uint8_t rgb[128 * 128 * 3];
    uint64_t clocks = 0;
    double t0 = now(), per_tri = 0;
    for (int r = 0; r < reps; r++) {
        pp5_render_stats st;
        if (pp5_render(&sc, NULL, rgb, &st, &d) != LS_OK) { fprintf(stderr, "%s\n", d.msg); return 1; }
        clocks += st.clocks;
        uint64_t sum = 0;
        for (size_t i = 0; i < st.nprims; i++) sum += st.prim_clocks[i];
        per_tri = (double)sum / (double)st.nprims;
        free(st.prim_clocks);
    }
    double t = now() - t0;
    printf("pp5 IGC+EMC (128x128, 64 EMCs): %d triangles x %d frames: %llu clocks in %.3f s = %.2f M clocks/s "
           "(%.1f clocks per Gouraud z-buffered triangle; 40 MHz original = 40 M clocks/s)\n",
           ntri, reps, (unsigned long long)clocks, t, (double)clocks / t / 1e6, per_tri);
    /* IGC alone on the same streams (no EMC): the floor set by the IGC model */
    pp5_ucode *u = calloc(1, sizeof *u);
    ls_diag_list errs;
    ls_diag_list_init(&errs);
    pp5_uasm(pp5_render_ucode, strlen(pp5_render_ucode), "lib", u, &errs);
    pp5_igc *g;
    pp5_igc_create(&g, NULL, &d);
    pp5_igc_load_ucode(g, 0, u->words, PP5_UCODE_WORDS, &d);
    ls_buf sb;
    ls_buf_init(&sb);
    ls_buf_puts(&sb, "write P fbits=20 src=24 lc2=24\nwait\n");
    for (size_t i = 0; i < sc.n; i++) pp5_render_prim_stream(&sc.p[i], &sb, &d);
    pp5_stream ps;
    pp5_stream_parse(sb.data, sb.len, "bench", &ps, &d);
    uint64_t c0 = pp5_igc_cycle(g);
    t0 = now();
    for (int r = 0; r < reps; r++) pp5_stream_run(&ps, g, 0, nop_clock, NULL, &d);
    t = now() - t0;
    printf("pp5 IGC alone on the same streams: %.2f M clocks/s\n",
           (double)(pp5_igc_cycle(g) - c0) / t / 1e6);
    pp5_stream_free(&ps);
    ls_buf_free(&sb);
    pp5_igc_destroy(g);
    ls_diag_list_free(&errs);
    free(u);
    pp5_scene_free(&sc);
    ls_buf_free(&b);
    return 0;
}
