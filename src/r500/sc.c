/* SC: scan conversion of one triangle: vertices snapped to the subpixel
 * grid (GB_TILE_CONFIG.SUBPIXEL, GA_ROUND_MODE.GEOMETRY_ROUND), one sample
 * per pixel at its centre, exact 64-bit edge functions, samples on an edge
 * decided by SC_EDGERULE, then the scissor (SC_SCISSOR0/1) and the clip
 * rectangles (SC_CLIP_n_A/B, SC_CLIP_RULE). Sources: buhman/r500
 * regs/bits/sc_edgerule.txt ("For values 0 to 15, bit 0 specifies whether a
 * sample on a horizontal-bottom edge is in, bit 1 ... horizontal-top edge,
 * bit 2 ... right edge, bit 3 ... left edge"; value 1 = "HB-out", so a set
 * bit means out), sc_scissor0/1.txt, sc_clip_0_a/b.txt, sc_clip_rule.txt
 * ("The `inside` flags for each of the four clip rectangles form a 4-bit
 * binary number. The corresponding bit in this 16-bit number specifies
 * whether the pixel is visible"), gb_tile_config.txt, ga_round_mode.txt.
 * Window y grows with the image row (row 0 = the top of the screen in the
 * SC's terms), so a "top" edge has the triangle below it (larger y). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "raster_internal.h"

int ra_sc_subpixel(const r500_draw *dr)
{
    switch (dr->opts.subpixel) {
    case R500_SUBPIXEL_12:
        return 12;
    case R500_SUBPIXEL_16:
        return 16;
    case R500_SUBPIXEL_256:
        return 256;
    default:
        return r500_raster_field(dr->state, R500_RF_GB_TILE_CONFIG_SUBPIXEL) ? 16 : 12;
    }
}

static int64_t snap(double v, int S, bool nearest)
{
    double t = v * S;
    return (int64_t)(nearest ? floor(t + 0.5) : floor(t));
}

/* Is a sample exactly on edge a->b (interior on the left in a y-up frame,
 * i.e. E > 0 inside) in, by edge rule er? */
static bool on_edge_in(int64_t dx, int64_t dy, unsigned er)
{
    if (er < 16) {
        /* bit 0 HB, bit 1 HT, bit 2 R, bit 3 L: set = out */
        if (dy == 0)
            return dx > 0 ? !(er & 2) : !(er & 1); /* interior at larger y: top edge */
        return dy < 0 ? !(er & 8) : !(er & 4);     /* interior at larger x: left edge */
    }
    /* 16..31: bit 0 VR, bit 1 VL, bit 2 B, bit 3 T: set = out */
    if (dx == 0)
        return dy < 0 ? !(er & 2) : !(er & 1);
    return dx > 0 ? !(er & 8) : !(er & 4);
}

static void rect(uint32_t a, uint32_t b, int r[4])
{
    r[0] = (int)(a & 0x1fff), r[1] = (int)((a >> 13) & 0x1fff);
    r[2] = (int)(b & 0x1fff), r[3] = (int)((b >> 13) & 0x1fff);
}

ls_status ra_sc_triangle(const r500_draw *dr, const ra_tri *t, ra_tile *tile, ls_diag *d)
{
    const r500_raster_state *s = dr->state;
    const int S = ra_sc_subpixel(dr);
    const bool nearest = r500_raster_field(s, R500_RF_GA_ROUND_MODE_GEOMETRY_ROUND) == 1;
    tile->count = 0;
    tile->x0 = tile->y0 = 0;
    tile->x1 = tile->y1 = -1;
    int64_t X[3], Y[3];
    for (int i = 0; i < 3; i++) {
        if (!isfinite(t->v[i].x) || !isfinite(t->v[i].y) || fabs(t->v[i].x) > 2 * RA_MAX_COORD ||
            fabs(t->v[i].y) > 2 * RA_MAX_COORD)
            return LS_OK; /* bounded coordinates only (clipper, SU) */
        X[i] = snap(t->v[i].x, S, nearest);
        Y[i] = snap(t->v[i].y, S, nearest);
    }
    int64_t area = (X[1] - X[0]) * (Y[2] - Y[0]) - (X[2] - X[0]) * (Y[1] - Y[0]);
    if (area == 0)
        return LS_OK;
    if (area < 0) { /* make E > 0 inside */
        int64_t tx = X[1], ty = Y[1];
        X[1] = X[2], Y[1] = Y[2], X[2] = tx, Y[2] = ty;
    }
    unsigned er;
    switch (t->kind) {
    case RA_POINT:
        er = r500_raster_field(s, R500_RF_SC_EDGERULE_ER_POINT);
        break;
    case RA_LINE: /* left-right lines' rule for every wide line (documented) */
        er = r500_raster_field(s, R500_RF_SC_EDGERULE_ER_LINE_LR);
        break;
    default:
        er = r500_raster_field(s, R500_RF_SC_EDGERULE_ER_TRI);
        break;
    }
    /* bounding box in pixels, inside target and scissor */
    int64_t mnx = X[0], mxx = X[0], mny = Y[0], mxy = Y[0];
    for (int i = 1; i < 3; i++) {
        mnx = X[i] < mnx ? X[i] : mnx, mxx = X[i] > mxx ? X[i] : mxx;
        mny = Y[i] < mny ? Y[i] : mny, mxy = Y[i] > mxy ? Y[i] : mxy;
    }
    int sc[4];
    rect(s->reg[R500_R_SC_SCISSOR0], s->reg[R500_R_SC_SCISSOR1], sc);
    int64_t bx0 = mnx / S - 1, bx1 = mxx / S + 1, by0 = mny / S - 1, by1 = mxy / S + 1;
    int64_t lx = sc[0] > 0 ? sc[0] : 0, ly = sc[1] > 0 ? sc[1] : 0;
    int64_t hx = sc[2] < dr->width - 1 ? sc[2] : dr->width - 1;
    int64_t hy = sc[3] < dr->height - 1 ? sc[3] : dr->height - 1;
    bx0 = bx0 < lx ? lx : bx0, by0 = by0 < ly ? ly : by0;
    bx1 = bx1 > hx ? hx : bx1, by1 = by1 > hy ? hy : by1;
    if (bx0 > bx1 || by0 > by1)
        return LS_OK;
    size_t w = (size_t)(bx1 - bx0 + 1), h = (size_t)(by1 - by0 + 1);
    if (w * h > tile->cap) {
        uint8_t *m = realloc(tile->mask, w * h);
        if (!m)
            return ls_diag_set(d, LS_ERR_NOMEM, NULL, 0, 0, "out of memory");
        tile->mask = m;
        tile->cap = w * h;
    }
    memset(tile->mask, 0, w * h);
    tile->x0 = (int)bx0, tile->y0 = (int)by0, tile->x1 = (int)bx1, tile->y1 = (int)by1;
    int cr[4][4];
    for (int i = 0; i < 4; i++)
        rect(s->reg[R500_R_SC_CLIP_0_A + 2 * i], s->reg[R500_R_SC_CLIP_0_B + 2 * i], cr[i]);
    uint32_t rule = r500_raster_field(s, R500_RF_SC_CLIP_RULE_CLIP_RULE);
    int64_t dx[3], dy[3];
    bool tie[3];
    for (int e = 0; e < 3; e++) {
        int b = (e + 1) % 3;
        dx[e] = X[b] - X[e], dy[e] = Y[b] - Y[e];
        tie[e] = on_edge_in(dx[e], dy[e], er);
    }
    for (int64_t py = by0; py <= by1; py++) {
        int64_t sy = py * S + S / 2;
        for (int64_t px = bx0; px <= bx1; px++) {
            int64_t sx = px * S + S / 2;
            bool in = true;
            for (int e = 0; e < 3 && in; e++) {
                int64_t E = dx[e] * (sy - Y[e]) - dy[e] * (sx - X[e]);
                in = E > 0 || (E == 0 && tie[e]);
            }
            if (!in)
                continue;
            unsigned flags = 0;
            for (int i = 0; i < 4; i++)
                if (px >= cr[i][0] && px <= cr[i][2] && py >= cr[i][1] && py <= cr[i][3])
                    flags |= 1u << i;
            if (!((rule >> flags) & 1u))
                continue;
            tile->mask[(size_t)(py - by0) * w + (size_t)(px - bx0)] = 1;
            tile->count++;
        }
    }
    return LS_OK;
}
