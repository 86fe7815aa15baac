/* The render backend under the whole pipeline (issue 15/16 wiring): a
 * draw's colour buffer is the buffer object RB3D_COLOROFFSET0's relocation
 * names (Mesa r300_emit.c r300_emit_fb_state: the offset register then
 * OUT_CS_RELOC of the surface's buffer; the radeon kernel r300.c
 * r300_packet0_check adds that buffer's address), and every surviving
 * fragment goes through r500_rb_pixel_write (src/r500/rb_pixel.c) into it.
 * A draw without that relocation (a capture without buffer objects) uses
 * the plain store, r500_target_store. Manual: docs/mesa.md "The whole
 * pipeline". */
#include <string.h>

#include "lockstep/mesa_draw.h"

ls_status mesa_rb_bind_draw(mesa_rb_target *t, const mesa_exec_draw *dr, uint8_t *const *bo_mem,
                            const size_t *bo_size, size_t nbos, int width, int height,
                            const r500_rb_options *o, ls_diag *d)
{
    t->bound = false;
    t->cbzb = false;
    bool cb = dr->cb_reloc[0] >= 0 && (size_t)dr->cb_reloc[0] < nbos && bo_mem[dr->cb_reloc[0]];
    bool zb = dr->zb_reloc >= 0 && (size_t)dr->zb_reloc < nbos && bo_mem[dr->zb_reloc];
    /* A depth-only draw (a framebuffer without colour buffers: r300 emits
     * no RB3D_COLOROFFSET relocation and RB3D_COLOR_CHANNEL_MASK 0, which
     * the kernel accepts, r100_cs_track_check's num_cb = 0) binds its depth
     * buffer alone. Neither buffer: the plain store. */
    if (!dr->frag || (!cb && !zb))
        return LS_OK;
    const mesa_cs_state *fs = &dr->frag->state;
    r500_rb_state s;
    r500_rb_state_from_regfile(&s, fs->reg, fs->written, MESA_CS_NREGS);
    r500_rb_memory m;
    memset(&m, 0, sizeof m);
    for (int k = 0; k < R500_RB_TARGETS; k++) {
        long r = dr->cb_reloc[k];
        if (r >= 0 && (size_t)r < nbos) {
            m.color[k] = bo_mem[r];
            m.color_size[k] = bo_size[r];
        }
    }
    /* The CBZB clear (render.c cbzb_out, model option "cbzb-clear") points
     * the Z pipe into the colour buffer; that half is modelled by storing
     * the clear colour, so the depth/stencil unit stays off for it. */
    if (fs->reg[0x4f1c / 4] & (1u << 5)) { /* ZB_BW_CNTL CB_CLEAR */
        r500_rb_set(&s, R500_RB_ZB_CNTL, R500_RBF_Z_ENABLE, 0);
        r500_rb_set(&s, R500_RB_ZB_CNTL, R500_RBF_STENCIL_ENABLE, 0);
    } else if (dr->zb_reloc >= 0 && (size_t)dr->zb_reloc < nbos) {
        m.depth = bo_mem[dr->zb_reloc];
        m.depth_size = bo_size[dr->zb_reloc];
    }
    ls_status st = r500_rb_bind(&t->rb, &s, &m, width, height, o, d);
    if (st == LS_OK)
        t->bound = true;
    /* The CBZB clear: the Z pipe, pointed dy rows into the colour buffer
     * with its pitch, writes ZB_DEPTHCLEARVALUE there — the clear colour as
     * the surface stores it (r300_blit.c r300_depth_clear_cb_value: the
     * packed pixel for 32-bit formats, the 16-bit one twice for 16-bit) */
    uint32_t pitch = fs->reg[0x4e38 / 4] & 0x1fffu;                             /* RB3D_COLORPITCH0 */
    int64_t zoff = (int64_t)fs->reg[0x4f20 / 4] - (int64_t)fs->reg[0x4e28 / 4]; /* ZB - CB offset */
    if (t->bound && (fs->reg[0x4f1c / 4] & (1u << 5)) && pitch && zoff > 0) {
        t->cbzb = true;
        t->cbzb_dy = (int)(zoff / (4 * (int64_t)pitch));
        t->cbzb_word = fs->reg[0x4f28 / 4]; /* ZB_DEPTHCLEARVALUE */
    }
    return st;
}

size_t mesa_zpass_apply(const mesa_exec *e, size_t *next, size_t draws, uint32_t *counter,
                        uint8_t *const *bo_mem, const size_t *bo_size, size_t nbos)
{
    size_t stores = 0;
    for (; *next < e->nzpass && e->zpass[*next].before_draw <= draws; ++*next) {
        const mesa_exec_zpass *z = &e->zpass[*next];
        if (!z->store) {
            *counter = z->value;
            continue;
        }
        if (z->reloc < 0 || (size_t)z->reloc >= nbos || !bo_mem[z->reloc] ||
            bo_size[z->reloc] < 4 || z->value > bo_size[z->reloc] - 4)
            continue;
        uint32_t v = (z->pipes & 1u) ? *counter : 0;
        uint8_t *p = bo_mem[z->reloc] + z->value;
        for (int b = 0; b < 4; b++)
            p[b] = (uint8_t)(v >> (8 * b));
        stores++;
    }
    return stores;
}

void mesa_rb_out(void *ctx, const r500_fragment *f)
{
    mesa_rb_target *t = ctx;
    if (!t->bound) {
        if (t->plain)
            r500_target_store(t->plain, f);
        return;
    }
    r500_rb_pixel px;
    memset(&px, 0, sizeof px);
    px.x = f->x;
    px.y = f->y;
    for (int k = 0; k < R500_RB_TARGETS && k < R500_NUM_TARGETS; k++)
        px.color[k] = f->res->target[k] ? f->res->target[k] + 4 * f->i : NULL;
    px.w = f->res->w ? f->res->w[f->i] : 0.0f;
    px.z = f->z;
    px.back_face = f->back;
    r500_rb_pixel_write(&t->rb, &px, &t->stats);
    if (t->cbzb)
        r500_rb_store_word(&t->rb, 0, f->x, f->y + t->cbzb_dy, t->cbzb_word);
}

ls_status mesa_render_bo_draw(const mesa_exec *e, size_t k, mesa_rb_target *t,
                              uint8_t *const *bo_mem, const size_t *bo_size, size_t nbos,
                              const mesa_render_options *o, r500_raster_stats *st, ls_diag *d)
{
    const mesa_exec_draw *dr = &e->draws[k];
    t->bound = false;
    if (dr->status != LS_OK) {
        *d = dr->diag;
        return dr->status;
    }
    /* The colour buffer is bound for the draw's own scissor (SC_SCISSOR1 + 1,
     * at most the frame): r300's blits (texture uploads, read-backs) draw
     * into buffers smaller than the frame with the scissor set to their size
     * (r300_blit.c through u_blitter; r300_emit_scissor_state). */
    int bw = (int)r500_raster_field(&dr->raster, R500_RF_SC_SCISSOR1_XS1) + 1;
    int bh = (int)r500_raster_field(&dr->raster, R500_RF_SC_SCISSOR1_YS1) + 1;
    /* r300's CBZB clear (render.c, assumption cbzb-clear) scissors half the
     * buffer and stores the other half dy rows further: bound whole */
    if (dr->frag && (dr->frag->state.reg[0x4f1c / 4] & (1u << 5))) /* ZB_BW_CNTL CB_CLEAR */
        bh *= 2;
    bw = bw < o->width ? bw : o->width;
    bh = bh < o->height ? bh : o->height;
    ls_status rc = mesa_rb_bind_draw(t, dr, bo_mem, bo_size, nbos, bw, bh, o->rb, d);
    if (rc != LS_OK) {
        char m[400];
        ls_diag_format(d, m, sizeof m);
        return ls_diag_set(d, rc, NULL, 0, 0, "draw %zu (dword %zu): %s", k, dr->ib_dword, m);
    }
    if (!t->bound && !t->plain)
        return LS_OK; /* nowhere to write (the live device without a colour buffer) */
    mesa_render_options ro = *o;
    ro.out = mesa_rb_out;
    ro.out_ctx = t;
    ro.bo_mem = bo_mem;
    ro.bo_size = bo_size;
    ro.nbos = nbos;
    return mesa_exec_render_draw(e, k, &ro, st, d);
}
