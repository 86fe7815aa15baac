/* Corpus: GLSL programs with textures and blending (tests/mesa/tex_scene_gl.c:
 * nearest/repeat and linear/clamp RGBA8 textures, a uniform colour, alpha
 * blending) captured through r300 under the shim with its buffer objects,
 * then replayed by lockstep over those buffer objects (mesa_replay: every
 * submission in order, texture units bound from TX_* and TX_OFFSET's
 * relocation, the render backend writing into the colour buffer object,
 * buffers carried across submissions by GEM handle), and the frame read back
 * from the colour buffer — against llvmpipe's picture of the same program.
 *
 * Bound (docs/mesa.md "Textures"): every interior pixel (not on a quad's edge
 * row or column, where the two rasterizers may round coverage differently)
 * within 2/255 per channel: both sides store RGBA8 (1/2 LSB each way) and
 * llvmpipe filters with 8-bit fixed-point weights where lockstep filters in
 * float (tx-weight-bits 0). Skips (77) without the shim or r300_dri.so. */
#include "test_util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lockstep/mesa_draw.h"

#define W 32
#define H 32

static int read_floats(const char *path, float *out, size_t n)
{
    FILE *f = fopen(path, "rb");
    size_t got = f ? fread(out, sizeof(float), n, f) : 0;
    if (f)
        fclose(f);
    return got == n ? 0 : -1;
}

/* pixel on the edge of one of the scene's quads (window coordinates of the
 * NDC edges -1, -0.5, 0, 0.5, 1 at 32 pixels: 0, 8, 16, 24, 32) */
static bool edge(int x, int y)
{
    for (int e = 0; e <= 32; e += 8)
        if (x == e || x == e - 1 || y == e || y == e - 1)
            return true;
    return false;
}

int main(void)
{
    const char *shim = getenv("LOCKSTEP_MESA_SHIM"), *scene = getenv("LOCKSTEP_TEX_SCENE_GL");
    if (!shim || !scene || access(shim, R_OK) || access(scene, X_OK)) {
        printf("SKIP: the shim or the scene program was not built\n");
        return 77;
    }
    char dir[] = "/tmp/lockstep-tex-corpus-XXXXXX";
    if (!mkdtemp(dir))
        return 1;
    char cmd[8192];
    snprintf(cmd, sizeof cmd, "LIBGL_ALWAYS_SOFTWARE=1 '%s' '%s/ref.bin' %d %d >/dev/null 2>&1",
             scene, dir, W, H);
    int rc = system(cmd);
    if (rc == 0) {
        snprintf(cmd, sizeof cmd,
                 "mkdir -p '%s/cap' && LOCKSTEP_SHIM_BOS=1 LOCKSTEP_SHIM_OUT='%s/cap' "
                 "LD_PRELOAD='%s' '%s' '%s/out.bin' %d %d >'%s/r300.log' 2>&1",
                 dir, dir, shim, scene, dir, W, H, dir);
        rc = system(cmd);
    }
    if (rc != 0) {
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
        (void)system(cmd);
        printf("SKIP: the GL program did not run under llvmpipe or r300 (status %d)\n", rc);
        return 77;
    }
    static float ref[W * H * 4], img[W * H * 4];
    char path[4200];
    snprintf(path, sizeof path, "%s/ref.bin", dir);
    int fail = read_floats(path, ref, W * H * 4);
    if (fail)
        printf("llvmpipe image unreadable\n");
    snprintf(path, sizeof path, "%s/cap", dir);
    mesa_replay rp;
    mesa_replay_options o;
    mesa_replay_options_default(&o);
    o.exec.raster_width = W;
    o.exec.raster_height = H;
    ls_diag d;
    ls_diag_clear(&d);
    if (!fail && mesa_replay_open(path, &o, &rp, &d)) {
        printf("replay: %s\n", d.msg);
        fail = 1;
    }
    size_t ntex = 0;
    if (!fail) {
        mesa_render_options ro;
        memset(&ro, 0, sizeof ro);
        ro.width = W;
        ro.height = H;
        ro.workers = 1;
        r500_raster_options_default(&ro.raster);
        r500_raster_stats rs = {0};
        for (size_t k = 0; k < rp.all.ndraws; k++) {
            /* count the draws that sample a texture (TX_ENABLE) */
            size_t s = 0, i = k;
            while (i >= rp.all.ex[s].ndraws)
                i -= rp.all.ex[s++].ndraws;
            const mesa_exec_draw *dr = &rp.all.ex[s].draws[i];
            if (dr->frag && dr->frag->state.reg[0x4104 / 4])
                ntex++;
            if (mesa_replay_draw(&rp, k, &ro, &rs, &d)) {
                printf("draw %zu: %s\n", k, d.msg);
                fail = 1;
            }
        }
        printf("%zu submissions, %zu draws (%zu sample textures), %llu pixels, %llu written "
               "into the colour buffer\n",
               rp.all.nex, rp.all.ndraws, ntex, (unsigned long long)rs.pixels,
               (unsigned long long)rp.rt.stats.pixels_written);
        if (!rp.any_cb) {
            printf("no draw bound a colour buffer\n");
            fail = 1;
        }
        if (ntex < 3) {
            printf("expected at least 3 texturing draws\n");
            fail = 1;
        }
        mesa_replay_frame(&rp, W, H, img);
        mesa_replay_free(&rp);
    }
    unsigned bad = 0, interior = 0;
    double maxd = 0;
    for (int y = 0; y < H && !fail; y++)
        for (int x = 0; x < W; x++) {
            if (edge(x, y))
                continue;
            interior++;
            for (int c = 0; c < 4; c++) {
                double dd = fabs((double)img[4 * (y * W + x) + c] - ref[4 * (y * W + x) + c]);
                if (dd > maxd)
                    maxd = dd;
                if (dd > 2.0 / 255 + 1e-6 && bad++ < 10)
                    printf("pixel (%d, %d) channel %d: lockstep %.6f llvmpipe %.6f\n", x, y, c,
                           img[4 * (y * W + x) + c], ref[4 * (y * W + x) + c]);
            }
        }
    if (!fail)
        printf("%u interior pixels, %u channels beyond 2/255, max |diff| %.6f (%.2f/255)\n",
               interior, bad, maxd, maxd * 255);
    fail |= bad != 0;
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    (void)system(cmd);
    return fail;
}
