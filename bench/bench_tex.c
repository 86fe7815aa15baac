/* The whole R500 pipeline with textures and blending over buffer objects:
 * pixels/s and texture lookups/s of a real r300 capture. The scene of test
 * mesa/tex-corpus (tests/mesa/tex_scene_gl.c: two textured quads, nearest
 * and linear RGBA8 textures, one alpha-blended textured quad, plus r300's
 * clear, upload and read-back blits) is captured through r300 under the shim
 * at S x S (default 512, argv[1]), then replayed by mesa_replay — vertex
 * fetch, vertex program, clip .. fragment program with the texture units
 * bound to the texture buffer objects, the render backend writing the tiled
 * colour buffer object — one host thread. Lookups = the covered pixels of
 * the draws that enable a texture unit (each of the scene's programs, and
 * the blits', samples once). Prints a line and exits 0 when the shim, the
 * scene program or r300_dri.so is missing. Never part of make check. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "lockstep/mesa_draw.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

int main(int argc, char **argv)
{
    int S = argc > 1 ? atoi(argv[1]) : 512;
    if (S < 16 || S > 4096)
        S = 512;
    const char *shim = LOCKSTEP_BUILD_ROOT "/liblockstep_r300_shim.so";
    const char *scene = LOCKSTEP_BUILD_ROOT "/tests/mesa/tex_scene_gl";
    if (access(shim, R_OK) || access(scene, X_OK)) {
        printf("bench_tex: skipped (the shim or tests/mesa/tex_scene_gl was not built)\n");
        return 0;
    }
    char dir[] = "/tmp/lockstep-bench-tex-XXXXXX";
    if (!mkdtemp(dir))
        return 1;
    char cmd[4096];
    snprintf(cmd, sizeof cmd,
             "LOCKSTEP_SHIM_BOS=1 LOCKSTEP_SHIM_OUT='%s' LD_PRELOAD='%s' '%s' '%s/out.bin' %d %d "
             ">/dev/null 2>&1",
             dir, shim, scene, dir, S, S);
    int rc = system(cmd);
    if (rc != 0) {
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
        (void)system(cmd);
        printf("bench_tex: skipped (the scene did not run under r300: status %d)\n", rc);
        return 0;
    }
    mesa_replay rp;
    mesa_replay_options o;
    mesa_replay_options_default(&o);
    o.exec.raster_width = o.exec.raster_height = S;
    ls_diag d;
    double t0 = now();
    if (mesa_replay_open(dir, &o, &rp, &d)) {
        fprintf(stderr, "bench_tex: %s\n", d.msg);
        return 1;
    }
    double t1 = now();
    mesa_render_options ro;
    memset(&ro, 0, sizeof ro);
    ro.width = ro.height = S;
    ro.workers = 1;
    r500_raster_options_default(&ro.raster);
    r500_raster_stats all;
    memset(&all, 0, sizeof all);
    uint64_t lookups = 0;
    size_t s = 0, i = 0;
    for (size_t k = 0; k < rp.all.ndraws; k++, i++) {
        while (i >= rp.all.ex[s].ndraws)
            i -= rp.all.ex[s++].ndraws;
        const mesa_exec_draw *dr = &rp.all.ex[s].draws[i];
        r500_raster_stats one;
        memset(&one, 0, sizeof one);
        if (mesa_replay_draw(&rp, k, &ro, &one, &d)) {
            fprintf(stderr, "bench_tex: draw %zu: %s\n", k, d.msg);
            return 1;
        }
        if (dr->frag && dr->frag->state.reg[0x4104 / 4]) /* TX_ENABLE */
            lookups += one.pixels;
        all.pixels += one.pixels;
        all.triangles += one.triangles;
    }
    double t2 = now();
    printf("textured scene %dx%d: %zu submissions, %zu draws, %llu pixels (%llu texture "
           "lookups), %llu written to colour buffers\n",
           S, S, rp.all.nex, rp.all.ndraws, (unsigned long long)all.pixels,
           (unsigned long long)lookups, (unsigned long long)rp.rt.stats.pixels_written);
    printf("  load + execute (fetch, vertex program): %.4f s\n", t1 - t0);
    printf("  draws (clip .. fragment program, texture units, render backend): %.4f s, "
           "%.3g pixels/s, %.3g texture lookups/s\n",
           t2 - t1, (double)all.pixels / (t2 - t1), (double)lookups / (t2 - t1));
    printf("  whole pipeline: %.3g pixels/s\n", (double)all.pixels / (t2 - t0));
    mesa_replay_free(&rp);
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    (void)system(cmd);
    return 0;
}
