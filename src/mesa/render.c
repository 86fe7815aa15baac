/* The whole pipeline over an executed command stream (issue 15 item 6):
 * each draw's post-transform vertices (draw.c) through clipping, set-up,
 * scan conversion and RS interpolation (src/r500/vap_clip.c … rs.c) into the
 * fragment program its state holds (mesa_cs's snapshot, run by exec.c per
 * 2x2 quad), and every surviving fragment to one output function (the
 * render backend's place: r500_frag_out_fn). Manual: docs/mesa.md "The
 * whole pipeline". */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lockstep/buf.h"
#include "lockstep/mesa_draw.h"
#include "lockstep/r500.h"
#include "lockstep/r500_txu.h"

bool mesa_exec_target_size(const mesa_exec *e, int *w, int *h)
{
    /* Mesa's r300 sets SC_SCISSOR1 to the framebuffer's last pixel when the
     * GL scissor is off (r300_state.c r300_set_framebuffer_state /
     * r300_emit_scissor_state: R500 has no 1440 offset); the largest over
     * the draws is the colour buffer's size (a blit of the clear is as large). */
    int bw = 0, bh = 0;
    for (size_t k = 0; k < e->ndraws; k++) {
        const r500_raster_state *s = &e->draws[k].raster;
        int x = (int)r500_raster_field(s, R500_RF_SC_SCISSOR1_XS1) + 1;
        int y = (int)r500_raster_field(s, R500_RF_SC_SCISSOR1_YS1) + 1;
        if (x > bw)
            bw = x;
        if (y > bh)
            bh = y;
    }
    if (!bw || !bh)
        return false;
    *w = bw;
    *h = bh;
    return true;
}

/* r300's CBZB clear (Mesa r300_blit.c r300_cbzb_clear_allowed / r300_clear;
 * r300_hyperz.c sets ZB_BW_CNTL CB_CLEAR "cache line write only"): the
 * blitter draws a rectangle of half the colour buffer's height while the Z
 * pipe, pointed at the buffer's middle (ZB_DEPTHOFFSET) with the colour
 * buffer's pitch, writes ZB_DEPTHCLEARVALUE — the clear colour packed as
 * the surface stores it — at every covered pixel: the other half. Model
 * (docs/assumptions.md "cbzb-clear"): each fragment is also stored dy rows
 * further, dy = (ZB_DEPTHOFFSET - RB3D_COLOROFFSET0) / (4 * pitch), with the
 * clear value read as 8-bit R, G, B, A from the low byte up (Mesa's RGBA8
 * surfaces). The render backend (issue 16) replaces this with the ZB. */
typedef struct cbzb {
    r500_frag_out_fn out;
    void *ctx;
    int dy;
    float rgba[4];
} cbzb;

static void cbzb_out(void *c, const r500_fragment *f)
{
    const cbzb *z = c;
    z->out(z->ctx, f);
    float *t[R500_NUM_TARGETS] = {(float *)z->rgba};
    r500_result res;
    memset(&res, 0, sizeof res);
    memcpy(res.target, t, sizeof t);
    r500_fragment g = *f;
    g.y += z->dy;
    g.res = &res;
    g.i = 0;
    z->out(z->ctx, &g);
}

#define REG_(s, addr) ((s)->reg[(addr) / 4])

/* Texture units of a draw (issue 16 item 1): Mesa's r300_emit_textures_state
 * writes, per bound sampler n, TX_FILTER0_n .. TX_FORMAT2_n, TX_BORDER_COLOR_n
 * and TX_OFFSET_n followed by the texture's relocation, and TX_ENABLE with a
 * bit per unit (r300_emit.c); the kernel's r300_packet0_check adds the
 * buffer's address to TX_OFFSET (r300.c), so the register is a byte offset
 * into the relocated buffer, as r500_txu_bind reads it. */
ls_status mesa_exec_bind_textures(r500_job *job, const mesa_exec_draw *dr, uint8_t *const *bo_mem,
                                  const size_t *bo_size, size_t nbos, const r500_tx_options *tx,
                                  ls_diag *d)
{
    const mesa_cs_state *fs = &dr->frag->state;
    r500_tx_state s;
    r500_tx_state_from_regfile(&s, fs->reg, fs->written, MESA_CS_NREGS);
    uint32_t enable = r500_tx_get(&s, 0, R500_TXF_TEX_ENABLE);
    r500_tx_memory mem[R500_TX_UNITS];
    memset(mem, 0, sizeof mem);
    for (unsigned u = 0; u < R500_TX_UNITS; u++) {
        if (!(enable >> u & 1u))
            continue;
        long rl = dr->tx_reloc[u];
        if (rl < 0)
            return ls_diag_set(d, LS_ERR_RANGE, NULL, 0, 0,
                               "TX_ENABLE enables unit %u but no relocation follows TX_OFFSET_%u",
                               u, u);
        if ((size_t)rl >= nbos || !bo_mem || !bo_mem[rl])
            return ls_diag_set(d, LS_ERR_RANGE, NULL, 0, 0,
                               "TX_OFFSET_%u: relocation %ld has no captured buffer", u, rl);
        mem[u].data = bo_mem[rl];
        mem[u].size = bo_size[rl];
    }
    return r500_job_bind_tx_units(job, &s, mem, tx, d);
}

ls_status mesa_exec_render_draw(const mesa_exec *e, size_t k, const mesa_render_options *o,
                                r500_raster_stats *st, ls_diag *d)
{
    r500_raster_stats local;
    memset(&local, 0, sizeof local);
    const mesa_exec_draw *dr = &e->draws[k];
    if (dr->status != LS_OK) {
        *d = dr->diag;
        return dr->status;
    }
    if (!dr->frag)
        return ls_diag_set(d, LS_ERR_PARSE, NULL, 0, 0,
                           "draw %zu (dword %zu): no fragment-side state", k, dr->ib_dword);
    ls_buf json;
    ls_buf_init(&json);
    mesa_cs_job_json(dr->frag, k, &json);
    r500_job job;
    r500_job_init(&job);
    ls_status rc = r500_job_load_json(&job, "decoded", json.data, json.len, d);
    ls_buf_free(&json);
    r500_vertex *v = NULL;
    if (rc == LS_OK && dr->nverts) {
        v = calloc(dr->nverts, sizeof *v);
        if (!v)
            rc = ls_diag_set(d, LS_ERR_NOMEM, NULL, 0, 0, "out of memory");
    }
    if (rc == LS_OK) {
        rc = mesa_exec_bind_textures(&job, dr, o->bo_mem, o->bo_size, o->nbos, o->tx, d);
        if (rc != LS_OK) {
            char m[400];
            ls_diag_format(d, m, sizeof m);
            rc = ls_diag_set(d, rc, NULL, 0, 0, "draw %zu (dword %zu): %s", k, dr->ib_dword, m);
        }
    }
    if (rc == LS_OK) {
        job.workers = o->workers;
        if (o->fs_watchdog)
            job.options.exec.watchdog = o->fs_watchdog;
        job.options.exec.watchdog_stops = o->fs_watchdog_stops;
        job.options.engine = o->fs_engine;
        job.options.jit = o->fs_jit;
        mesa_exec_raster_vertices(dr, v);
        r500_draw rd;
        r500_draw_init(&rd);
        rd.state = &dr->raster;
        rd.prim = dr->prim;
        rd.v = v;
        rd.nv = dr->nverts;
        memcpy(rd.ucp, dr->ucp, sizeof rd.ucp);
        rd.width = o->width;
        rd.height = o->height;
        rd.opts = o->raster;
        /* VAP_CNTL.DX_CLIP_SPACE_DEF (bit 22: Mesa r300_reg.h R300_DX_CLIP_SPACE_DEF,
         * buhman/r500 3d_registers_bits.h VAP_CNTL__DX_CLIP_SPACE_DEF) selects the
         * D3D view volume 0 <= z <= w; r300 sets it for clip_halfz
         * (glClipControl(..., GL_ZERO_TO_ONE): r300_emit.c r300_emit_vs_state).
         * Model option "clip-z" is the convention without the bit. */
        if (dr->frag && (dr->frag->state.reg[0x2080 / 4] & (1u << 22)))
            rd.opts.clip_z = R500_CLIP_Z_DX;
        /* back colours: VAP_OUTPUT_VTX_FMT_0 COLOR_2/3_PRESENT (r300_state_derived.c) */
        rd.back_colors = (uint8_t)(((dr->layout.present >> R500_VTX_COL2) & 1u) |
                                   (((dr->layout.present >> R500_VTX_COL3) & 1u) << 1));
        rd.out = o->out;
        rd.out_ctx = o->out_ctx;
        const mesa_cs_state *fs = &dr->frag->state;
        cbzb z = {.out = o->out, .ctx = o->out_ctx};
        uint32_t pitch = REG_(fs, 0x4e38) & 0x1fffu;                  /* RB3D_COLORPITCH0 */
        int64_t zoff = (int64_t)REG_(fs, 0x4f20) - (int64_t)REG_(fs, 0x4e28); /* ZB - CB */
        /* (a bound render backend stores the clear word itself, raw:
         * mesa_rb_target.cbzb; this covers the plain store) */
        bool rb_cbzb = o->out == mesa_rb_out && ((const mesa_rb_target *)o->out_ctx)->cbzb;
        if ((REG_(fs, 0x4f1c) & (1u << 5)) && pitch && zoff > 0 && o->out && !rb_cbzb) { /* ZB_BW_CNTL */
            z.dy = (int)(zoff / (4 * (int64_t)pitch));
            uint32_t cv = REG_(fs, 0x4f28); /* ZB_DEPTHCLEARVALUE */
            for (int k = 0; k < 4; k++)
                z.rgba[k] = (float)((cv >> (8 * k)) & 0xffu) / 255.0f;
            rd.out = cbzb_out;
            rd.out_ctx = &z;
        }
        rc = r500_draw_run(&rd, &job, NULL, &local, d);
        if (rc != LS_OK) {
            char m[400];
            ls_diag_format(d, m, sizeof m);
            rc = ls_diag_set(d, rc, NULL, 0, 0, "draw %zu (dword %zu): %s", k, dr->ib_dword, m);
        }
    }
    free(v);
    r500_job_free(&job);
    if (st) {
#define ADD_(f) st->f += local.f;
        ADD_(prims) ADD_(culled) ADD_(clipped_away) ADD_(dropped) ADD_(triangles) ADD_(pixels)
        ADD_(quads) ADD_(killed) ADD_(faulted_threads) ADD_(inst_fc)
#undef ADD_
    }
    return rc;
}

void mesa_exec_all_free(mesa_exec_all *a)
{
    for (size_t k = 0; k < a->nex; k++)
        mesa_exec_free(&a->ex[k]);
    free(a->ex);
    memset(a, 0, sizeof *a);
}

ls_status mesa_exec_dir(const char *dir, const mesa_exec_options *o, mesa_exec_all *a, ls_diag *d)
{
    memset(a, 0, sizeof *a);
    for (unsigned k = 0; k < 10000; k++) {
        char ib[PATH_MAX];
        snprintf(ib, sizeof ib, "%.*s/cs_%04u.ib", PATH_MAX - 32, dir, k);
        if (access(ib, R_OK))
            break;
        mesa_capture cap;
        ls_status st = mesa_capture_load(dir, k, &cap, d);
        mesa_exec *nx = st == LS_OK ? realloc(a->ex, (a->nex + 1) * sizeof *nx) : NULL;
        if (st == LS_OK && !nx) {
            mesa_capture_free(&cap);
            st = ls_diag_set(d, LS_ERR_NOMEM, NULL, 0, 0, "out of memory");
        }
        if (st != LS_OK) {
            mesa_exec_all_free(a);
            return st;
        }
        a->ex = nx;
        char name[32];
        snprintf(name, sizeof name, "cs_%04u.ib", k);
        st = mesa_exec_stream(name, cap.ib, cap.n, cap.relocs, cap.nrelocs_dw, cap.bos, cap.nbos,
                              o, &a->ex[a->nex], d);
        mesa_capture_free(&cap);
        if (st != LS_OK) {
            mesa_exec_all_free(a);
            return st;
        }
        a->ndraws += a->ex[a->nex].ndraws;
        a->nex++;
    }
    return LS_OK;
}

ls_status mesa_exec_all_render(const mesa_exec_all *a, size_t n, const mesa_render_options *o,
                               r500_raster_stats *st, ls_diag *d)
{
    size_t k = 0;
    while (k < a->nex && n >= a->ex[k].ndraws)
        n -= a->ex[k++].ndraws;
    if (k == a->nex)
        return ls_diag_set(d, LS_ERR_ARG, NULL, 0, 0, "no draw %zu in the capture", n);
    return mesa_exec_render_draw(&a->ex[k], n, o, st, d);
}
