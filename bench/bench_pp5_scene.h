/* The PP5 benches' scene: NTRI random Gouraud z-buffered triangles over the
 * 128×128 region and a little past it (vertices in [-10, 138)², so some are
 * partly outside), depths in [0, 1), colours 0–255, then NDISC random discs.
 * A fixed LCG, so every bench and every run renders the same frame. */
#ifndef LOCKSTEP_BENCH_PP5_SCENE_H
#define LOCKSTEP_BENCH_PP5_SCENE_H

#include <stdint.h>
#include "base/buf.h"

static inline uint64_t bench_pp5_lcg(uint64_t *s)
{
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return *s;
}

static inline void bench_pp5_scene(ls_buf *b, int ntri, int ndisc)
{
    uint64_t s = 12345;
    ls_buf_puts(b, "clear 0 0 0\n");
    for (int i = 0; i < ntri; i++) {
        ls_buf_puts(b, "tri");
        for (int v = 0; v < 3; v++) {
            uint64_t r = bench_pp5_lcg(&s);
            double x = (double)(r >> 40 & 0xffff) / 65536.0 * 148 - 10;
            double y = (double)(r >> 20 & 0xffff) / 65536.0 * 148 - 10;
            ls_buf_printf(b, " %.3f %.3f %.3f %d %d %d", x, y, (double)(r >> 8 & 0xff) / 256.0,
                          (int)(r >> 10 & 0xff), (int)(r >> 18 & 0xff), (int)(r >> 26 & 0xff));
        }
        ls_buf_puts(b, "\n");
    }
    for (int i = 0; i < ndisc; i++) {
        uint64_t r = bench_pp5_lcg(&s);
        ls_buf_printf(b, "disc %.3f %.3f %.3f %d %d %d %.3f\n", (double)(r >> 40 & 0xffff) / 65536.0 * 128,
                      (double)(r >> 20 & 0xffff) / 65536.0 * 128, 2 + (double)(r >> 8 & 0xff) / 8.0,
                      (int)(r >> 10 & 0xff), (int)(r >> 18 & 0xff), (int)(r >> 26 & 0xff),
                      (double)(r >> 30 & 0xff) / 256.0);
    }
}

#endif
