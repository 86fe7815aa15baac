/* Fuzz target: the geometry/raster back end (src/r500/vap_clip.c, ga_su.c,
 * sc.c, rs.c, raster_draw.c) on hostile draws. Input: byte 0 = primitive
 * type, byte 1 = number of register writes k, then k records (register
 * index byte, 32-bit value), byte = option bits, then vertices as raw
 * 32-bit floats (NaN, infinities, huge and degenerate positions included).
 * Nothing may crash, leak or loop; the work is bounded (each triangle's
 * box is cut to the 32x32 target), so no pixel is covered more times than
 * there are triangles; small draws also run a fragment program. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lockstep/r500.h"
#include "lockstep/r500_asm.h"
#include "lockstep/r500_raster.h"

#define FW 32
#define FH 32

static const char PROG[] = "OUT\n"
                           "src0.a = temp[0], src0.rgb = temp[1] :\n"
                           "  out[0].a = MAX src0.a src0.a ,\n"
                           "  out[0].rgb = MAX src0.rgb src0.rgb ;\n";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 3)
        return 0;
    size_t at = 0;
    r500_raster_state s;
    r500_raster_state_init(&s, FW, FH);
    unsigned prim = data[at++] & 15u;
    unsigned k = data[at++] & 31u;
    for (unsigned i = 0; i < k && at + 5 <= size; i++, at += 5) {
        uint32_t v;
        memcpy(&v, data + at + 1, 4);
        s.reg[data[at] % R500_RREG_COUNT] = v;
    }
    r500_draw dr;
    r500_draw_init(&dr);
    if (at < size) {
        uint8_t o = data[at++];
        dr.opts.subpixel = (r500_subpixel)(o & 3u);
        dr.opts.clip_z = (r500_clip_z)((o >> 2) & 1u);
        dr.opts.interp_pos = (r500_interp_pos)((o >> 3) & 1u);
        dr.opts.color_interp = (r500_color_interp)((o >> 4) & 1u);
        dr.opts.point_stuff = (r500_point_stuff)(((o >> 5) & 3u) % 3u);
        dr.opts.point_minmax = (r500_point_minmax)((o >> 7) & 1u);
    }
    size_t nv = (size - at) / (4 * 8); /* 8 floats a vertex: position, 2 tex, 2 colour */
    if (nv > 64)
        nv = 64;
    r500_vertex *v = calloc(nv ? nv : 1, sizeof *v);
    if (!v)
        return 0;
    for (size_t i = 0; i < nv; i++, at += 32) {
        memcpy(v[i].pos, data + at, 16);
        memcpy(v[i].tex, data + at + 16, 8);
        memcpy(v[i].col[0], data + at + 24, 8);
        memcpy(&v[i].psize, data + at + 28, 4); /* per-vertex point size: any float */
    }
    for (unsigned i = 0; i < 6; i++)
        for (unsigned c = 0; c < 4; c++)
            dr.ucp[i][c] = (i + c) % 3 ? 0.5f : -1.0f;
    dr.state = &s;
    dr.prim = prim;
    dr.v = v;
    dr.nv = nv;
    dr.width = FW;
    dr.height = FH;
    uint32_t *hits = calloc(FW * FH, sizeof *hits);
    r500_raster_stats st;
    ls_diag d;
    if (hits && r500_draw_coverage(&dr, hits, &st, &d) == LS_OK) {
        for (size_t p = 0; p < FW * FH; p++)
            if (hits[p] > st.triangles)
                abort();
        if (st.pixels > st.triangles * FW * FH)
            abort();
        if (nv <= 8) {
            r500_job job;
            r500_job_init(&job);
            job.workers = 1;
            r500_asm_program prog;
            if (r500_program_load_mem("f.fs.asm", PROG, sizeof PROG - 1, &prog, &d) == LS_OK) {
                if (r500_job_apply_program(&job, &prog, &d) == LS_OK) {
                    float *img = calloc(FW * FH * 4, sizeof *img);
                    if (img)
                        (void)r500_draw_run(&dr, &job, img, NULL, &d);
                    free(img);
                }
                r500_asm_program_free(&prog);
            }
            r500_job_free(&job);
        }
    }
    free(hits);
    free(v);
    return 0;
}
