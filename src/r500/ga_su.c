/* GA/SU: face determination and culling (SU_CULL_MODE), polygon modes
 * (GA_POLY_MODE), and the expansion of points (GA_POINT_SIZE,
 * GA_POINT_MINMAX) and wide lines (GA_LINE_CNTL) into triangles; polygons
 * become fans of triangles for the scan converter. Sources: buhman/r500
 * regs/bits/su_cull_mode.txt ("FACE: X-Ored with cross product sign to
 * determine positive facing; 0: Positive cross product is front (CCW)"),
 * ga_poly_mode.txt, ga_point_size.txt ("1/2 Height of point; fixed (16.0),
 * subpixel format (1/12 or 1/16, even if in 8b precision)"), ga_line_cntl.txt,
 * ga_point_minmax.txt, gb_tile_config.txt (SUBPIXEL). */
#include <math.h>
#include <string.h>

#include "raster_internal.h"

/* Units of GA_POINT_SIZE / GA_LINE_CNTL: subpixels of GB_TILE_CONFIG. */
static double size_unit(const r500_raster_state *s)
{
    return r500_raster_field(s, R500_RF_GB_TILE_CONFIG_SUBPIXEL) ? 16.0 : 12.0;
}

static void tri(ra_tri_fn fn, void *ctx, r500_raster_stats *st, const ra_svtx *a,
                const ra_svtx *b, const ra_svtx *c, const float *flat, bool back, ra_kind k)
{
    ra_tri t = {.v = {*a, *b, *c}, .flat = flat, .back = back, .kind = k};
    st->triangles++;
    fn(ctx, &t);
}

static void point(const r500_draw *dr, const ra_svtx *p, const float *flat, bool back,
                  ra_tri_fn fn, void *ctx, r500_raster_stats *st)
{
    const r500_raster_state *s = dr->state;
    double u = size_unit(s);
    double mn = r500_raster_field(s, R500_RF_GA_POINT_MINMAX_MIN_SIZE);
    double mx = r500_raster_field(s, R500_RF_GA_POINT_MINMAX_MAX_SIZE);
    double hw = r500_raster_field(s, R500_RF_GA_POINT_SIZE_WIDTH);
    double hh = r500_raster_field(s, R500_RF_GA_POINT_SIZE_HEIGHT);
    /* "Minimum / Maximum point & sprite radius (in subsamples)". Model option
     * point-minmax: the clamp applies to per-vertex sizes (the PSIZE output;
     * not modelled yet, so GA_POINT_SIZE is used as is) by default, or to
     * GA_POINT_SIZE too ("all"). Mesa's r300_state.c sets MIN = MAX = the
     * point size when the size is not per vertex ("We cannot disable the
     * point-size vertex output, so clamp it"), and its blitter draws its
     * rectangles as points of GA_POINT_SIZE with GA_POINT_MINMAX 0
     * (r300_render.c r300_blitter_draw_rectangle), which clear the screen on
     * the hardware. */
    if (dr->opts.point_minmax == R500_MINMAX_ALL) {
        hw = fmin(fmax(hw, mn), mx);
        hh = fmin(fmax(hh, mn), mx);
    }
    hw /= u;
    hh /= u;
    if (hw <= 0 || hh <= 0) {
        st->culled++;
        return;
    }
    ra_svtx c[4];
    static const int sx[4] = {-1, 1, 1, -1}, sy[4] = {-1, -1, 1, 1};
    /* Point texture-coordinate stuffing (GB_ENABLE POINT_STUFF_ENABLE bit 0,
     * TEXn_SOURCE bits 17:16 + 2n: 0 replicate the vertex's, 1 stuff S,T,
     * 2 stuff S,T,R; r300_reg.h). The sprite's left edge gets GA_POINT_S0,
     * the right GA_POINT_S1; its rows nearer image row 0 get GA_POINT_T1,
     * the others GA_POINT_T0 (Mesa writes S0 left, T0 "bottom", S1 right,
     * T1 "top" with gallium's row 0 at the top: r300_state.c
     * r300_create_rs_state / r300_emit_rs_state, and its blitter S0 = x1,
     * T0 = y2, S1 = x2, T1 = y1: r300_render.c r300_blitter_draw_rectangle).
     * Model option "point-stuff" (docs/assumptions.md): pool4, stuffed set n is
     * texture components 4n..4n+3 of the rasterizer's pool (Mesa gives
     * every texcoord set 4 components, r300_state_derived.c) and reads
     * (S, T, 0, 1); off, no stuffing. */
    const r500_raster_state *rs = dr->state;
    uint32_t gb = rs->reg[R500_R_GB_ENABLE];
    float ca[4][RA_NATTR];
    bool stuff = (gb & 1u) && (gb >> 16) && dr->opts.point_stuff == R500_STUFF_POOL4;
    for (int i = 0; i < 4; i++) {
        c[i] = *p;
        c[i].x = p->x + sx[i] * hw;
        c[i].y = p->y + sy[i] * hh;
        if (!stuff)
            continue;
        memcpy(ca[i], p->a, sizeof ca[i]);
        float sv = r500_raster_float(rs, sx[i] < 0 ? R500_R_GA_POINT_S0 : R500_R_GA_POINT_S1);
        float tv = r500_raster_float(rs, sy[i] < 0 ? R500_R_GA_POINT_T1 : R500_R_GA_POINT_T0);
        for (int n = 0; n < 8 && 4 * n + 3 < R500_RS_TEX_COMPONENTS; n++) {
            if (!((gb >> (16 + 2 * n)) & 3u))
                continue;
            float *t = &ca[i][RA_TEX0 + 4 * n];
            t[0] = sv;
            t[1] = tv;
            t[2] = 0.0f;
            t[3] = 1.0f;
        }
        c[i].a = ca[i];
    }
    tri(fn, ctx, st, &c[0], &c[1], &c[2], flat, back, RA_POINT);
    tri(fn, ctx, st, &c[0], &c[2], &c[3], flat, back, RA_POINT);
}

static void line(const r500_draw *dr, const ra_svtx *p0, const ra_svtx *p1, const float *flat,
                 bool back, ra_tri_fn fn, void *ctx, r500_raster_stats *st)
{
    const r500_raster_state *s = dr->state;
    double hw = r500_raster_field(s, R500_RF_GA_LINE_CNTL_WIDTH) / size_unit(s);
    unsigned end = r500_raster_field(s, R500_RF_GA_LINE_CNTL_END_TYPE);
    double dx = p1->x - p0->x, dy = p1->y - p0->y;
    double len = sqrt(dx * dx + dy * dy);
    if (!(len > 0) || hw <= 0) {
        st->culled++;
        return;
    }
    double nx, ny; /* offset from the centre line to one side */
    switch (end) {
    case 0: /* horizontal ends: the sides are offset horizontally */
        nx = hw, ny = 0;
        break;
    case 1: /* vertical ends */
        nx = 0, ny = hw;
        break;
    case 2: /* square: horizontal or vertical depending upon slope */
        if (fabs(dx) >= fabs(dy))
            nx = 0, ny = hw;
        else
            nx = hw, ny = 0;
        break;
    default: /* computed: perpendicular to the slope */
        nx = -dy / len * hw, ny = dx / len * hw;
        break;
    }
    ra_svtx q[4] = {*p0, *p1, *p1, *p0};
    q[0].x += nx, q[0].y += ny, q[1].x += nx, q[1].y += ny;
    q[2].x -= nx, q[2].y -= ny, q[3].x -= nx, q[3].y -= ny;
    tri(fn, ctx, st, &q[0], &q[1], &q[2], flat, back, RA_LINE);
    tri(fn, ctx, st, &q[0], &q[2], &q[3], flat, back, RA_LINE);
}

void ra_su_prim(const r500_draw *dr, const ra_prim *p, ra_tri_fn fn, void *ctx,
                r500_raster_stats *st)
{
    const r500_raster_state *s = dr->state;
    if (p->kind == RA_POINT) {
        point(dr, &p->v[0], p->flat, false, fn, ctx, st);
        return;
    }
    if (p->kind == RA_LINE) {
        line(dr, &p->v[0], &p->v[1], p->flat, false, fn, ctx, st);
        return;
    }
    /* Twice the signed area in window coordinates (y = image row): positive
     * = counter-clockwise with y up. */
    double area = 0;
    for (size_t i = 0; i < p->n; i++) {
        const ra_svtx *a = &p->v[i], *b = &p->v[(i + 1) % p->n];
        area += a->x * b->y - b->x * a->y;
    }
    if (!(area != 0)) {
        st->culled++;
        return;
    }
    /* Model option face-sign (docs/assumptions.md): which sign of the area
     * is the SU's "positive cross product". "mesa" (default): negative area
     * here (clockwise with y = row going up), the sign under which Mesa's
     * SU_CULL_MODE values give GL's facing; "doc": positive area (the
     * register text's "Positive cross product is front (CCW)" read in these
     * coordinates). */
    bool positive = dr->opts.face_sign == R500_FACE_DOC ? area > 0 : area < 0;
    bool front = positive != (r500_raster_field(s, R500_RF_SU_CULL_MODE_FACE) != 0);
    bool back = !front;
    if ((front && r500_raster_field(s, R500_RF_SU_CULL_MODE_CULL_FRONT)) ||
        (back && r500_raster_field(s, R500_RF_SU_CULL_MODE_CULL_BACK))) {
        st->culled++;
        return;
    }
    unsigned ptype = 2;
    if (r500_raster_field(s, R500_RF_GA_POLY_MODE_POLY_MODE) == 1)
        ptype = back ? r500_raster_field(s, R500_RF_GA_POLY_MODE_BACK_PTYPE)
                     : r500_raster_field(s, R500_RF_GA_POLY_MODE_FRONT_PTYPE);
    if (ptype == 0) {
        for (size_t i = 0; i < p->n; i++)
            point(dr, &p->v[i], p->flat, back, fn, ctx, st);
    } else if (ptype == 1) {
        for (size_t i = 0; i < p->n; i++)
            line(dr, &p->v[i], &p->v[(i + 1) % p->n], p->flat, back, fn, ctx, st);
    } else {
        /* ptype 2, and the reserved values 3..7 (documented: as triangles) */
        for (size_t i = 1; i + 1 < p->n; i++)
            tri(fn, ctx, st, &p->v[0], &p->v[i], &p->v[i + 1], p->flat, back, RA_TRI);
    }
}
