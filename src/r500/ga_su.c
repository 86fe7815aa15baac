/* GA/SU: face determination and culling (SU_CULL_MODE), polygon modes
 * (GA_POLY_MODE), and the expansion of points (GA_POINT_SIZE,
 * GA_POINT_MINMAX) and wide lines (GA_LINE_CNTL) into triangles; polygons
 * become fans of triangles for the scan converter. Sources: buhman/r500
 * regs/bits/su_cull_mode.txt ("FACE: X-Ored with cross product sign to
 * determine positive facing; 0: Positive cross product is front (CCW)"),
 * ga_poly_mode.txt, ga_point_size.txt ("1/2 Height of point; fixed (16.0),
 * subpixel format (1/12 or 1/16, even if in 8b precision)"), ga_line_cntl.txt,
 * ga_point_minmax.txt, gb_tile_config.txt (SUBPIXEL), gb_enable.txt,
 * ga_point_s0.txt..ga_point_t1.txt, vap_out_vtx_fmt_1.txt. */
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

/* Point-sprite texture coordinates (GB_ENABLE, GA_POINT_S0/T0/S1/T1;
 * regs/bits/gb_enable.txt: POINT_STUFF_ENABLE "points will have stuffed
 * texture coordinates", TEXn_SOURCE 2 bits at 16 + 2n: 0 "Replicate VAP
 * source texture coordinates", 1 "Stuff with source texture coordinates
 * (S,T)", 2 "(S,T,R)"; ga_point_s0.txt..t1.txt: the coordinates of "vertex
 * 0" and "vertex 1" of the point). Vertex 0 is the corner at the smallest x
 * and the largest row, vertex 1 the opposite corner: Mesa's blitter puts
 * (s1, t2) of its rectangle (x1, y1)-(x2, y2), y down, in S0/T0 and (s2, t1)
 * in S1/T1, and r300_state.c names the registers left, bottom, right, top.
 * Model option point-stuff (docs/assumptions.md): "vap" (default) = the
 * RS's texture components are the VAP's (VAP_OUT_VTX_FMT_1, 3 bits per
 * texture, 5..7 read as 4) in texture order with a stuffed texture's two
 * (three) components in its place instead — Mesa's r300_state_derived.c
 * leaves a stuffed texture out of VAP_OUT_VTX_FMT_1 and advances its RS
 * pointer by 2 —, R = 0; "pool4" = set n is components 4n..4n+3 and reads
 * (S, T, 0, 1); "off" = no stuffing. */
static void stuff(const r500_draw *dr, const float *in, float *out, float S, float T)
{
    const r500_raster_state *s = dr->state;
    memcpy(out, in, RA_NATTR * sizeof *out);
    uint32_t fmt = s->reg[R500_R_VAP_OUT_VTX_FMT_1], gb = s->reg[R500_R_GB_ENABLE];
    if (dr->opts.point_stuff == R500_STUFF_POOL4) {
        for (unsigned n = 0; n < 8 && 4 * n + 3 < R500_RS_TEX_COMPONENTS; n++)
            if ((gb >> (16 + 2 * n)) & 3u) {
                float *t = out + RA_TEX0 + 4 * n;
                t[0] = S, t[1] = T, t[2] = 0.0f, t[3] = 1.0f;
            }
        return;
    }
    unsigned si = 0, di = 0;
    float packed[R500_RS_TEX_COMPONENTS] = {0};
    for (unsigned n = 0; n < 8; n++) {
        unsigned cn = (fmt >> (3 * n)) & 7u, src = (gb >> (16 + 2 * n)) & 3u;
        cn = cn > 4 ? 4 : cn;
        if (src == 1 || src == 2) {
            const float v[3] = {S, T, 0.0f};
            for (unsigned c = 0; c < 1 + src && di < R500_RS_TEX_COMPONENTS; c++)
                packed[di++] = v[c];
            si += cn;
            continue;
        }
        for (unsigned c = 0; c < cn && di < R500_RS_TEX_COMPONENTS; c++, si++)
            packed[di++] = si < R500_RS_TEX_COMPONENTS ? in[RA_TEX0 + si] : 0.0f;
    }
    memcpy(out + RA_TEX0, packed, sizeof packed);
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
    /* "Minimum / Maximum point & sprite radius (in subsamples)". A vertex
     * program that writes the point size (VAP_OUT_VTX_FMT_0.PT_SIZE_PRESENT)
     * gives the point's diameter in pixels (D3D's psize; Mesa maps GL's size
     * s to GA_POINT_SIZE = s * 6 twelfths, a radius), clamped to the min/max
     * radius (a NaN size gives the minimum). Model option point-minmax:
     * whether the clamp also applies to GA_POINT_SIZE ("all") or not
     * ("vertex", default). Mesa's r300_state.c sets MIN = MAX = the point
     * size when the size is not per vertex ("We cannot disable the
     * point-size vertex output, so clamp it"), and its blitter draws its
     * rectangles as points of GA_POINT_SIZE with GA_POINT_MINMAX 0
     * (r300_render.c r300_blitter_draw_rectangle), which clear the screen on
     * the hardware. */
    if (r500_raster_field(s, R500_RF_VAP_OUT_VTX_FMT_0_PT_SIZE_PRESENT)) {
        double r = (double)p->a[RA_PSIZE] * 0.5 * u;
        r = fmin(fmax(r, mn), mx); /* fmax(NaN, mn) = mn */
        hw = hh = r;
    } else if (dr->opts.point_minmax == R500_MINMAX_ALL) {
        hw = fmin(fmax(hw, mn), mx);
        hh = fmin(fmax(hh, mn), mx);
    }
    hw /= u;
    hh /= u;
    if (!(hw > 0) || !(hh > 0)) {
        st->culled++;
        return;
    }
    ra_svtx c[4];
    static const int sx[4] = {-1, 1, 1, -1}, sy[4] = {-1, -1, 1, 1};
    bool stuffed = r500_raster_field(s, R500_RF_GB_ENABLE_POINT_STUFF_ENABLE) != 0 &&
                   dr->opts.point_stuff != R500_STUFF_OFF;
    float attr[4][RA_NATTR];
    for (int i = 0; i < 4; i++) {
        c[i] = *p;
        c[i].x = p->x + sx[i] * hw;
        c[i].y = p->y + sy[i] * hh;
        if (stuffed) {
            /* left (sx < 0): S0, right: S1; larger row (sy > 0): T0, smaller: T1 */
            float S = r500_raster_float(s, sx[i] < 0 ? R500_R_GA_POINT_S0 : R500_R_GA_POINT_S1);
            float T = r500_raster_float(s, sy[i] > 0 ? R500_R_GA_POINT_T0 : R500_R_GA_POINT_T1);
            stuff(dr, p->a, attr[i], S, T);
            c[i].a = attr[i];
        }
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

/* Polygon offset (su_poly_offset_enable.txt, su_poly_offset_front_scale.txt,
 * ..._front_offset.txt, ..._back_scale.txt, ..._back_offset.txt): FRONT_ENABLE
 * / BACK_ENABLE select the face's SCALE and OFFSET (IEEE floats) "applied after
 * Z scale & offset (0 to 2^24-1 range); slope computed in subpixels (1/12 or
 * 1/16)". So in units of 1/(2^24-1) of the window depth range the offset is
 * SCALE * m + OFFSET, with m the triangle's depth slope in those units per
 * subpixel of GB_TILE_CONFIG.SUBPIXEL. Mesa's r300 (r300_state.c,
 * r300_create_rs_state) writes SCALE = 12 * factor and OFFSET = 2 * units (24-bit
 * depth) or 4 * units (16-bit), which with 1/12 subpixels is GL's factor * m +
 * r * units. What m is (the larger of |dz/dx| and |dz/dy|, or their Euclidean
 * length) is assumption poly-offset (docs/assumptions.md); PARA_ENABLE (never
 * set by r300) is not modelled. The sum is formed in double precision and the
 * caller adds it to the interpolated window z before the render backend clamps
 * z to [0, 1]. */
double ra_su_poly_offset(const r500_draw *dr, const ra_tri *t)
{
    if (dr->opts.poly_offset == R500_POFS_OFF)
        return 0.0;
    const r500_raster_state *s = dr->state;
    if (!r500_raster_field(s, t->back ? R500_RF_SU_POLY_OFFSET_ENABLE_BACK_ENABLE
                                      : R500_RF_SU_POLY_OFFSET_ENABLE_FRONT_ENABLE))
        return 0.0;
    double scale = r500_raster_float(s, t->back ? R500_R_SU_POLY_OFFSET_BACK_SCALE
                                                : R500_R_SU_POLY_OFFSET_FRONT_SCALE);
    double offset = r500_raster_float(s, t->back ? R500_R_SU_POLY_OFFSET_BACK_OFFSET
                                                 : R500_R_SU_POLY_OFFSET_FRONT_OFFSET);
    const double range = 16777215.0; /* 2^24 - 1 */
    double x1 = t->v[1].x - t->v[0].x, y1 = t->v[1].y - t->v[0].y;
    double x2 = t->v[2].x - t->v[0].x, y2 = t->v[2].y - t->v[0].y;
    double z1 = (double)t->v[1].z - t->v[0].z, z2 = (double)t->v[2].z - t->v[0].z;
    double area = x1 * y2 - x2 * y1;
    double m = 0.0;
    if (area != 0.0) {
        double dzdx = (z1 * y2 - z2 * y1) / area, dzdy = (x1 * z2 - x2 * z1) / area;
        m = dr->opts.poly_offset == R500_POFS_SQRT ? sqrt(dzdx * dzdx + dzdy * dzdy)
                                                    : fmax(fabs(dzdx), fabs(dzdy));
    }
    /* m per pixel in window z -> per subpixel in 2^24-1 units */
    m = m * range / size_unit(s);
    double o = (scale * m + offset) / range;
    return isfinite(o) ? o : 0.0;
}
