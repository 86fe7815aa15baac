/* A real capture through the shim (LOCKSTEP_SHIM_BOS=1) of lockstep-mesa-gl
 * drawing the default quad with data/vf_transform.vert, twice: from client
 * arrays (r300 sends 3D_DRAW_IMMD_2) and with --vbo (a vertex buffer object
 * and a 16-bit index buffer object: 3D_LOAD_VBPNTR, 3D_DRAW_INDX_2,
 * INDX_BUFFER, relocations, captured buffers). In each, the executor's
 * post-transform vertices of the quad's draw equal what the GLSL computes at
 * the four corners (evaluated here in double). Skips (77) when the shim or
 * the GL program was not built or r300_dri.so is absent. */
#include "test_util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "lockstep/mesa_draw.h"
#include "lockstep/r500_raster.h"

static int run_mode(const char *shim, const char *glrun, const char *src, bool vbo);

/* The whole pipeline (mesa_exec_dir + mesa_exec_all_render: clip, raster,
 * RS, the fragment program) over every draw of the first submission (the
 * clear and the quad; cs_0001 is the read-back blit of -o) against
 * llvmpipe's RGBA32F image of the same program: every pixel within 1e-5
 * (the quad's edges fall where both rasterizers agree at 8x8: counted). */
static int frame_vs_llvmpipe(const char *dir, const char *glrun, const char *src, bool vbo)
{
    char cmd[8192];
    snprintf(cmd, sizeof cmd,
             "LIBGL_ALWAYS_SOFTWARE=1 '%s' '%s/tests/mesa/data/vf_transform.frag' --vert "
             "'%s/tests/mesa/data/vf_transform.vert' --size 8x8%s --float -o '%s/ref.bin' "
             ">/dev/null 2>&1",
             glrun, src, src, vbo ? " --vbo" : "", dir);
    if (system(cmd) != 0) {
        printf("llvmpipe run failed\n");
        return 1;
    }
    float ref[8 * 8 * 4], img[8 * 8 * 4] = {0};
    char path[4200];
    snprintf(path, sizeof path, "%s/ref.bin", dir);
    FILE *f = fopen(path, "rb");
    size_t got = f ? fread(ref, sizeof(float), 8 * 8 * 4, f) : 0;
    if (f)
        fclose(f);
    if (got != 8 * 8 * 4) {
        printf("llvmpipe image unreadable\n");
        return 1;
    }
    mesa_capture c;
    ls_diag d;
    if (mesa_capture_load(dir, 0, &c, &d)) {
        printf("load: %s\n", d.msg);
        return 1;
    }
    mesa_exec_options o;
    mesa_exec_options_default(&o);
    o.raster_width = o.raster_height = 8;
    mesa_exec_all a = {0};
    a.ex = calloc(1, sizeof *a.ex);
    if (!a.ex || mesa_exec_stream("cs", c.ib, c.n, c.relocs, c.nrelocs_dw, c.bos, c.nbos, &o,
                                  a.ex, &d)) {
        printf("exec: %s\n", a.ex ? d.msg : "out of memory");
        free(a.ex);
        mesa_capture_free(&c);
        return 1;
    }
    mesa_capture_free(&c);
    a.nex = 1;
    a.ndraws = a.ex[0].ndraws;
    int w = 0, h = 0;
    r500_target tgt = {.width = 8, .height = 8, .rgba = img};
    mesa_render_options ro = {.width = 8, .height = 8, .workers = 1, .out = r500_target_store,
                              .out_ctx = &tgt};
    r500_raster_options_default(&ro.raster);
    r500_raster_stats rs = {0};
    int rc = 0;
    if (!mesa_exec_target_size(&a.ex[0], &w, &h) || w != 8 || h != 8) {
        printf("target size %dx%d from the scissor, expected 8x8\n", w, h);
        rc = 1;
    }
    for (size_t k = 0; k < a.ndraws && !rc; k++)
        if (mesa_exec_all_render(&a, k, &ro, &rs, &d)) {
            printf("render draw %zu: %s\n", k, d.msg);
            rc = 1;
        }
    mesa_exec_all_free(&a);
    unsigned bad = 0, covered = 0;
    double mx = 0;
    for (int p = 0; p < 64 && !rc; p++) {
        covered += ref[4 * p + 3] != 0; /* the varying's w (|x - 0.5|) is never 0 on the quad */
        for (int ch = 0; ch < 4; ch++) {
            double dd = fabs((double)img[4 * p + ch] - (double)ref[4 * p + ch]);
            mx = dd > mx ? dd : mx;
            if (dd > 1e-5) {
                printf("pixel (%d, %d) channel %d: lockstep %.9g, llvmpipe %.9g\n", p % 8, p / 8,
                       ch, img[4 * p + ch], ref[4 * p + ch]);
                bad++;
            }
        }
    }
    printf("whole pipeline: %u pixels covered by llvmpipe, %llu by lockstep's quad and clear, "
           "max |diff| %g\n", covered, (unsigned long long)rs.pixels, mx);
    return rc || bad || covered == 0 ? 1 : 0;
}

int main(void)
{
    const char *shim = getenv("LOCKSTEP_MESA_SHIM"), *glrun = getenv("LOCKSTEP_MESA_GL");
    const char *src = getenv("LOCKSTEP_SOURCE_ROOT");
    if (!shim || !*shim || !glrun || !*glrun || !src) {
        printf("SKIP: the r300 shim / lockstep-mesa-gl were not built\n");
        return LS_TEST_SKIP;
    }
    int a = run_mode(shim, glrun, src, false);
    if (a)
        return a;
    return run_mode(shim, glrun, src, true);
}

static int run_mode(const char *shim, const char *glrun, const char *src, bool vbo)
{
    char dir[] = "/tmp/lockstep-vf-XXXXXX";
    if (!mkdtemp(dir))
        return 1;
    char cmd[8192];
    snprintf(cmd, sizeof cmd,
             "LOCKSTEP_SHIM_BOS=1 LOCKSTEP_SHIM_OUT='%s' LD_PRELOAD='%s' '%s' "
             "'%s/tests/mesa/data/vf_transform.frag' --vert '%s/tests/mesa/data/vf_transform.vert' "
             "--size 8x8%s -o '%s/out.png' >/dev/null 2>&1",
             dir, shim, glrun, src, src, vbo ? " --vbo" : "", dir);
    int rc = system(cmd);
    int result = 1;
    if (rc != 0) {
        printf("SKIP: lockstep-mesa-gl failed under the shim (r300_dri.so missing?)\n");
        result = LS_TEST_SKIP;
        goto out;
    }
    /* The quad: glrun draws a triangle strip over (-1,-1) (1,-1) (-1,1) (1,1). */
    static const double corner[4][2] = {{-1, -1}, {1, -1}, {-1, 1}, {1, 1}};
    int found = 0;
    for (unsigned cs = 0; cs < 16 && !found; cs++) {
        mesa_capture c;
        ls_diag d;
        if (mesa_capture_load(dir, cs, &c, &d))
            break;
        mesa_exec_options o;
        mesa_exec_options_default(&o);
        o.raster_width = o.raster_height = 8;
        mesa_exec e;
        if (mesa_exec_stream("cs", c.ib, c.n, c.relocs, c.nrelocs_dw, c.bos, c.nbos, &o, &e, &d)) {
            printf("exec cs %u: %s\n", cs, d.msg);
            mesa_capture_free(&c);
            goto out;
        }
        for (size_t k = 0; k < e.ndraws; k++) {
            const mesa_exec_draw *dr = &e.draws[k];
            if (dr->status) {
                printf("cs %u draw %zu stopped: %s\n", cs, k, dr->diag.msg);
                mesa_exec_free(&e);
                mesa_capture_free(&c);
                goto out;
            }
            if (dr->nverts != 4 || dr->prim != 6 /* TRIANGLE_STRIP */)
                continue;
            if (dr->opcode != (vbo ? 0x36 : 0x35)) {
                printf("the quad came as packet 0x%02x\n", dr->opcode);
                goto fail_draw;
            }
            unsigned tex = R500_VTX_TEX0;
            if (!((dr->layout.present >> tex) & 1u)) {
                printf("the quad draw has no TEX0 slot\n");
                goto fail_draw;
            }
            for (int v = 0; v < 4; v++) {
                double x = corner[v][0], y = corner[v][1];
                double pos[4] = {x * 0.75 + 0.125, y * 0.75 - 0.25, 0.5 * x, 1.0 + 0.25 * y};
                /* sin: the R500 ME_SIN model against libm, 1e-6 (docs/r500-vs.md) */
                double var[4] = {x * y, sin(x), y * y * 3.0, fabs(x - 0.5)};
                for (int ch = 0; ch < 4; ch++) {
                    double gp = dr->verts[v].v[R500_VTX_POS][ch], gv = dr->verts[v].v[tex][ch];
                    if (fabs(gp - pos[ch]) > 1e-7 || fabs(gv - var[ch]) > (ch == 1 ? 1e-6 : 1e-7)) {
                        printf("corner %d channel %d: position %.9g (expected %.9g), varying "
                               "%.9g (expected %.9g)\n", v, ch, gp, pos[ch], gv, var[ch]);
                        goto fail_draw;
                    }
                }
            }
            {
                /* joined to the rasterizer: the strip (clipped at x = w) covers
                 * pixels, none twice (fill rule on the shared edge) */
                r500_vertex rv[4];
                mesa_exec_raster_vertices(dr, rv);
                r500_draw rd;
                r500_draw_init(&rd);
                rd.state = &dr->raster;
                rd.prim = dr->prim;
                rd.v = rv;
                rd.nv = 4;
                rd.width = rd.height = 8;
                memcpy(rd.ucp, dr->ucp, sizeof rd.ucp);
                uint32_t hits[64] = {0};
                r500_raster_stats rs;
                memset(&rs, 0, sizeof rs);
                ls_diag rdg;
                if (r500_draw_coverage(&rd, hits, &rs, &rdg)) {
                    printf("coverage: %s\n", rdg.msg);
                    goto fail_draw;
                }
                unsigned covered = 0;
                for (int p = 0; p < 64; p++) {
                    if (hits[p] > 1) {
                        printf("pixel %d covered %u times\n", p, hits[p]);
                        goto fail_draw;
                    }
                    covered += hits[p];
                }
                printf("coverage: %u of 64 pixels, %llu triangles\n", covered,
                       (unsigned long long)rs.triangles);
                if (covered == 0 || covered == 64) /* the quad is partly off-screen */
                    goto fail_draw;
            }
            found = 1;
            printf("%s: cs %u draw %zu (%s): 4 corners match\n", vbo ? "--vbo" : "client arrays", cs, k,
                   mesa_cs_packet3_name(dr->opcode));
            continue;
        fail_draw:
            mesa_exec_free(&e);
            mesa_capture_free(&c);
            goto out;
        }
        mesa_exec_free(&e);
        mesa_capture_free(&c);
    }
    if (!found)
        printf("no 4-vertex triangle-strip draw in the capture\n");
    result = found ? frame_vs_llvmpipe(dir, glrun, src, vbo) : 1;
out:
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        result = 1;
    return result;
}
