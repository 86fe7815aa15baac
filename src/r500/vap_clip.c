/* VAP back end: primitive assembly (VAP_VF_CNTL.PRIM_TYPE), clipping
 * against the view volume, the guard band and the user clip planes
 * (VAP_CLIP_CNTL, VAP_GB_*), and the viewport transform (VAP_VTE_CNTL,
 * VAP_VPORT_*). Sources: buhman/r500 regs/bits/vap_vf_cntl.txt,
 * vap_clip_cntl.txt, vap_vte_cntl.txt, vap_gb_*.txt; the provoking vertex
 * of each primitive: GA_COLOR_CONTROL (regs/bits/ga_color_control.txt) and
 * the hardware behaviour Mesa's r300_provoking_vertex_fixes (r300_render.c)
 * describes for fans, quads and polygons. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "raster_internal.h"

/* Polygons of up to this many vertices are clipped whole. */
#define RA_POLY_WHOLE 64

typedef struct clipper {
    const r500_draw *dr;
    double plane[16][4]; /* inside: dot(plane, c) >= 0 */
    unsigned nplanes;
    bool disabled;
    ra_vtx *buf[2];
    size_t cap;
    ra_svtx *sv;
    size_t svcap;
} clipper;

static bool finite4(const float *c)
{
    return isfinite(c[0]) && isfinite(c[1]) && isfinite(c[2]) && isfinite(c[3]);
}

/* Guard-band plane factor for one axis: x <= g w maps to window x <= offset
 * + g scale; g is narrowed so the window stays within RA_MAX_COORD. */
static double guard(double g, double scale, double offset)
{
    if (!isfinite(g) || g < 1.0)
        g = 1.0; /* documented: a guard band below 1 or not a number acts as 1 */
    double as = fabs(scale);
    if (isfinite(as) && as > 0.0 && isfinite(offset)) {
        double lim = (RA_MAX_COORD - fabs(offset)) / as;
        if (lim < g)
            g = lim > 0.0 ? lim : 0.0;
    }
    return g;
}

static void clipper_init(clipper *k, const r500_draw *dr)
{
    memset(k, 0, sizeof *k);
    k->dr = dr;
    const r500_raster_state *s = dr->state;
    k->disabled = r500_raster_field(s, R500_RF_VAP_CLIP_CNTL_CLIP_DISABLE) != 0;
    bool sx = r500_raster_field(s, R500_RF_VAP_VTE_CNTL_VPORT_X_SCALE_ENA);
    bool ox = r500_raster_field(s, R500_RF_VAP_VTE_CNTL_VPORT_X_OFFSET_ENA);
    bool sy = r500_raster_field(s, R500_RF_VAP_VTE_CNTL_VPORT_Y_SCALE_ENA);
    bool oy = r500_raster_field(s, R500_RF_VAP_VTE_CNTL_VPORT_Y_OFFSET_ENA);
    double gx = guard(r500_raster_float(s, R500_R_VAP_GB_HORZ_CLIP_ADJ),
                      sx ? r500_raster_float(s, R500_R_VAP_VPORT_XSCALE) : 1.0,
                      ox ? r500_raster_float(s, R500_R_VAP_VPORT_XOFFSET) : 0.0);
    double gy = guard(r500_raster_float(s, R500_R_VAP_GB_VERT_CLIP_ADJ),
                      sy ? r500_raster_float(s, R500_R_VAP_VPORT_YSCALE) : 1.0,
                      oy ? r500_raster_float(s, R500_R_VAP_VPORT_YOFFSET) : 0.0);
    unsigned n = 0;
    /* View volume (GL: -w <= x,y,z <= w; x, y widened by the guard band). */
    double P[6][4] = {{1, 0, 0, gx}, {-1, 0, 0, gx}, {0, 1, 0, gy},
                      {0, -1, 0, gy}, {0, 0, 1, 1},  {0, 0, -1, 1}};
    if (dr->opts.clip_z == R500_CLIP_Z_DX)
        P[4][3] = 0.0; /* 0 <= z */
    for (unsigned i = 0; i < 6; i++)
        memcpy(k->plane[n++], P[i], sizeof P[i]);
    /* Plane 6: w > 0 (dist() special-cases it), which keeps the
     * perspective divide finite when x = y = z = 0. */
    memset(k->plane[n], 0, sizeof k->plane[n]);
    n++;
    unsigned ucp = r500_raster_field(s, R500_RF_VAP_CLIP_CNTL_UCP_ENA);
    for (unsigned i = 0; i < 6; i++)
        if (ucp & (1u << i)) {
            for (unsigned c = 0; c < 4; c++)
                k->plane[n][c] = dr->ucp[i][c];
            n++;
        }
    k->nplanes = n;
}

static double dist(const clipper *k, unsigned p, const float *c)
{
    if (p == 6)
        return (double)c[3] - 1e-30;
    const double *P = k->plane[p];
    return P[0] * c[0] + P[1] * c[1] + P[2] * c[2] + P[3] * c[3];
}

static void clipper_free(clipper *k)
{
    free(k->buf[0]);
    free(k->buf[1]);
    free(k->sv);
}

static bool reserve(clipper *k, size_t n)
{
    if (n <= k->cap)
        return true;
    size_t cap = n * 2;
    for (int i = 0; i < 2; i++) {
        ra_vtx *b = realloc(k->buf[i], cap * sizeof *b);
        if (!b)
            return false;
        k->buf[i] = b;
    }
    ra_svtx *s = realloc(k->sv, cap * sizeof *s);
    if (!s)
        return false;
    k->sv = s;
    k->cap = k->svcap = cap;
    return true;
}

static void lerp(ra_vtx *o, const ra_vtx *a, const ra_vtx *b, double t)
{
    for (int c = 0; c < 4; c++)
        o->c[c] = (float)(a->c[c] + t * ((double)b->c[c] - a->c[c]));
    for (int i = 0; i < RA_NATTR; i++)
        o->a[i] = (float)(a->a[i] + t * ((double)b->a[i] - a->a[i]));
}

/* Sutherland-Hodgman over every plane; *out is one of k->buf. Clip space is
 * linear in the attributes, so the perspective-correct interpolation of the
 * pieces equals that of the whole. */

static size_t clip_polygon(clipper *k, size_t n, ra_vtx **out, bool *nomem)
{
    int cur = 0;
    for (unsigned p = 0; p < k->nplanes && n > 0; p++) {
        /* each edge gives at most its start and one intersection */
        if (!reserve(k, 2 * n + 2)) {
            *nomem = true;
            return 0;
        }
        ra_vtx *in = k->buf[cur], *o = k->buf[cur ^ 1];
        size_t m = 0;
        bool all_in = true;
        for (size_t i = 0; i < n; i++)
            if (!(dist(k, p, in[i].c) >= 0))
                all_in = false;
        if (all_in)
            continue;
        for (size_t i = 0; i < n; i++) {
            const ra_vtx *a = &in[i], *b = &in[(i + 1) % n];
            double da = dist(k, p, a->c), db = dist(k, p, b->c);
            bool ia = da >= 0, ib = db >= 0;
            if (ia)
                o[m++] = *a;
            if (ia != ib && n > 1) {
                double t = da / (da - db);
                lerp(&o[m++], a, b, t);
            }
        }
        n = m;
        cur ^= 1;
    }
    *out = k->buf[cur];
    return n;
}

/* Viewport transform (VAP_VTE_CNTL): divide by w unless VTX_XY_FMT / VTX_Z_FMT
 * say the values are already divided; scale and offset where enabled.
 * VTX_W0_FMT = 1: the incoming W0 is w (the SU takes 1/w); 0: it already is
 * 1/w. */
static bool project(const r500_draw *dr, const ra_vtx *v, ra_svtx *o)
{
    const r500_raster_state *s = dr->state;
    double w = v->c[3];
    double oow = r500_raster_field(s, R500_RF_VAP_VTE_CNTL_VTX_W0_FMT) ? 1.0 / w : w;
    double x = v->c[0], y = v->c[1], z = v->c[2];
    if (!r500_raster_field(s, R500_RF_VAP_VTE_CNTL_VTX_XY_FMT))
        x *= oow, y *= oow;
    if (!r500_raster_field(s, R500_RF_VAP_VTE_CNTL_VTX_Z_FMT))
        z *= oow;
    if (r500_raster_field(s, R500_RF_VAP_VTE_CNTL_VPORT_X_SCALE_ENA))
        x *= r500_raster_float(s, R500_R_VAP_VPORT_XSCALE);
    if (r500_raster_field(s, R500_RF_VAP_VTE_CNTL_VPORT_X_OFFSET_ENA))
        x += r500_raster_float(s, R500_R_VAP_VPORT_XOFFSET);
    if (r500_raster_field(s, R500_RF_VAP_VTE_CNTL_VPORT_Y_SCALE_ENA))
        y *= r500_raster_float(s, R500_R_VAP_VPORT_YSCALE);
    if (r500_raster_field(s, R500_RF_VAP_VTE_CNTL_VPORT_Y_OFFSET_ENA))
        y += r500_raster_float(s, R500_R_VAP_VPORT_YOFFSET);
    if (r500_raster_field(s, R500_RF_VAP_VTE_CNTL_VPORT_Z_SCALE_ENA))
        z *= r500_raster_float(s, R500_R_VAP_VPORT_ZSCALE);
    if (r500_raster_field(s, R500_RF_VAP_VTE_CNTL_VPORT_Z_OFFSET_ENA))
        z += r500_raster_float(s, R500_R_VAP_VPORT_ZOFFSET);
    o->x = x, o->y = y, o->z = (float)z, o->oow = (float)oow;
    o->a = v->a;
    return isfinite(x) && isfinite(y) && isfinite(o->z) && isfinite(o->oow) &&
           fabs(x) <= RA_MAX_COORD && fabs(y) <= RA_MAX_COORD && o->oow != 0.0f;
}

static void load(ra_vtx *o, const r500_vertex *v)
{
    memcpy(o->c, v->pos, sizeof o->c);
    memcpy(o->a + RA_TEX0, v->tex, sizeof v->tex);
    memcpy(o->a + RA_COL0, v->col, sizeof v->col);
    o->a[RA_PSIZE] = v->psize;
}

typedef struct asm_ctx {
    clipper k;
    ra_tri_fn fn;
    void *ctx;
    r500_raster_stats *st;
    ra_vtx flat;
} asm_ctx;

/* One primitive: idx[0..n) in the order that decides its winding, pv the
 * provoking vertex (a draw index). */
static ls_status emit(asm_ctx *a, const size_t *idx, size_t n, size_t pv, ra_kind kind)
{
    const r500_draw *dr = a->k.dr;
    clipper *k = &a->k;
    a->st->prims++;
    if (!reserve(k, n + k->nplanes + 2))
        return LS_ERR_NOMEM;
    for (size_t i = 0; i < n; i++) {
        load(&k->buf[0][i], &dr->v[idx[i]]);
        if (!finite4(k->buf[0][i].c)) {
            a->st->dropped++;
            return LS_OK;
        }
    }
    load(&a->flat, &dr->v[pv]);
    ra_vtx *poly = k->buf[0];
    size_t m = n;
    if (!k->disabled) {
        if (kind == RA_POINT) {
            /* PS_UCP_MODE 0, and points against the view volume: a point
             * is culled when its centre is outside (documented choice). */
            for (unsigned p = 0; p < k->nplanes; p++)
                if (!(dist(k, p, poly[0].c) >= 0)) {
                    a->st->clipped_away++;
                    return LS_OK;
                }
        } else if (kind == RA_LINE) {
            /* parametric segment clip */
            double t0 = 0, t1 = 1;
            for (unsigned p = 0; p < k->nplanes; p++) {
                double d0 = dist(k, p, poly[0].c), d1 = dist(k, p, poly[1].c);
                if (d0 < 0 && d1 < 0) {
                    t0 = 2;
                    break;
                }
                if (d0 < 0)
                    t0 = fmax(t0, d0 / (d0 - d1));
                else if (d1 < 0)
                    t1 = fmin(t1, d0 / (d0 - d1));
            }
            if (!(t0 <= t1)) {
                a->st->clipped_away++;
                return LS_OK;
            }
            ra_vtx *o = k->buf[1];
            lerp(&o[0], &poly[0], &poly[1], t0);
            lerp(&o[1], &poly[0], &poly[1], t1);
            poly = o;
        } else {
            bool nomem = false;
            m = clip_polygon(k, n, &poly, &nomem);
            if (nomem)
                return LS_ERR_NOMEM;
            if (m < 3) {
                a->st->clipped_away++;
                return LS_OK;
            }
        }
    }
    for (size_t i = 0; i < m; i++)
        if (!project(dr, &poly[i], &k->sv[i])) {
            a->st->dropped++;
            return LS_OK;
        }
    ra_prim p = {.v = k->sv, .n = m, .flat = a->flat.a, .kind = kind};
    ra_su_prim(dr, &p, a->fn, a->ctx, a->st);
    return LS_OK;
}

/* Provoking vertex (GA_COLOR_CONTROL.PROVOKING_VERTEX: 0 first, 1 second,
 * 2 third, 3 last) among the primitive's vertices in assembly order. */
static size_t pick_pv(unsigned mode, const size_t *v, size_t n)
{
    size_t i = mode >= 3 ? n - 1 : mode;
    return v[i < n ? i : n - 1];
}

ls_status ra_vap_draw(const r500_draw *dr, ra_tri_fn fn, void *ctx, r500_raster_stats *st,
                      ls_diag *d)
{
    if (!dr->state || (!dr->v && dr->nv))
        return ls_diag_set(d, LS_ERR_ARG, NULL, 0, 0, "draw without state or vertices");
    if (dr->width < 1 || dr->height < 1 || dr->width > 8192 || dr->height > 8192)
        return ls_diag_set(d, LS_ERR_RANGE, NULL, 0, 0, "render target %dx%d (1..8192)",
                           dr->width, dr->height);
    unsigned prim = dr->prim ? dr->prim
                             : r500_raster_field(dr->state, R500_RF_VAP_VF_CNTL_PRIM_TYPE);
    unsigned pvm = r500_raster_field(dr->state, R500_RF_GA_COLOR_CONTROL_PROVOKING_VERTEX);
    asm_ctx a = {.fn = fn, .ctx = ctx, .st = st};
    clipper_init(&a.k, dr);
    ls_status rc = LS_OK;
    const size_t n = dr->nv;
    size_t v[4];
    /* an expression, so it can follow the vertex assignments; after an
     * error (out of memory) the remaining primitives are skipped */
#define EMIT(cnt, pv, kind) (void)(rc = rc != LS_OK ? rc : emit(&a, v, cnt, pv, kind))
    switch (prim) {
    case R500_PRIM_NONE:
        break;
    case R500_PRIM_POINTS:
        for (size_t i = 0; i < n; i++)
            v[0] = i, EMIT(1, i, RA_POINT);
        break;
    case R500_PRIM_LINES:
        for (size_t i = 0; i + 1 < n; i += 2)
            v[0] = i, v[1] = i + 1, EMIT(2, pick_pv(pvm, v, 2), RA_LINE);
        break;
    case R500_PRIM_LINE_STRIP:
    case R500_PRIM_LINE_LOOP:
        for (size_t i = 0; i + 1 < n; i++)
            v[0] = i, v[1] = i + 1, EMIT(2, pick_pv(pvm, v, 2), RA_LINE);
        if (prim == R500_PRIM_LINE_LOOP && n >= 2)
            v[0] = n - 1, v[1] = 0, EMIT(2, pick_pv(pvm, v, 2), RA_LINE);
        break;
    case R500_PRIM_TRIANGLES:
        for (size_t i = 0; i + 2 < n; i += 3)
            v[0] = i, v[1] = i + 1, v[2] = i + 2, EMIT(3, pick_pv(pvm, v, 3), RA_TRI);
        break;
    case R500_PRIM_TRIANGLE_STRIP:
        for (size_t i = 0; i + 2 < n; i++) {
            /* provoking vertex in strip order (i, i+1, i+2); odd triangles
             * swap their first two vertices to keep the winding (GL) */
            v[0] = i, v[1] = i + 1, v[2] = i + 2;
            size_t pv = pick_pv(pvm, v, 3);
            if (i & 1)
                v[0] = i + 1, v[1] = i;
            EMIT(3, pv, RA_TRI);
        }
        break;
    case R500_PRIM_TRIANGLE_FAN:
        /* triangle (0, i+1, i+2); Mesa: "Triangle fans must be reduced to
         * the second vertex" for GL's first-vertex convention, so the
         * hardware's second vertex of a fan triangle is i+1 */
        for (size_t i = 0; i + 2 < n; i++)
            v[0] = 0, v[1] = i + 1, v[2] = i + 2, EMIT(3, pick_pv(pvm, v, 3), RA_TRI);
        break;
    case R500_PRIM_QUADS:
    case R500_PRIM_QUAD_STRIP: {
        /* Mesa (r300_provoking_vertex_fixes): "Quads never provoke correctly
         * in flatshade-first mode. The first vertex is never considered as
         * provoking, so only the second, third, and fourth vertices can be
         * selected, and both third and last modes select the fourth." */
        size_t step = prim == R500_PRIM_QUADS ? 4 : 2;
        for (size_t i = 0; i + 3 < n; i += step) {
            size_t q[4] = {i, i + 1, i + 2, i + 3};
            size_t pv = q[pvm >= 2 ? 3 : pvm + 1];
            if (prim == R500_PRIM_QUADS)
                v[0] = i, v[1] = i + 1, v[2] = i + 2, v[3] = i + 3;
            else
                v[0] = i, v[1] = i + 1, v[2] = i + 3, v[3] = i + 2;
            EMIT(4, pv, RA_TRI);
        }
        break;
    }
    case R500_PRIM_POLYGON: {
        if (n < 3)
            break;
        /* Mesa: "polygons reduce to the first, not the last, vertex, when in
         * 'last' mode, and all other modes start from the second vertex." */
        size_t pv = pvm >= 3 ? 0 : (pvm + 1 < n ? pvm + 1 : n - 1);
        if (n > RA_POLY_WHOLE) {
            /* bounded clipping work: a large polygon is clipped as the fan
             * of triangles (0, i+1, i+2) it is drawn as (documented) */
            for (size_t i = 0; i + 2 < n; i++)
                v[0] = 0, v[1] = i + 1, v[2] = i + 2, EMIT(3, pv, RA_TRI);
            break;
        }
        size_t all[RA_POLY_WHOLE];
        for (size_t i = 0; i < n; i++)
            all[i] = i;
        rc = emit(&a, all, n, pv, RA_TRI);
        break;
    }
    default:
        rc = ls_diag_set(d, LS_ERR_UNSUPPORTED, NULL, 0, 0,
                         "VAP_VF_CNTL.PRIM_TYPE %u is not a primitive type the model draws",
                         prim);
        clipper_free(&a.k);
        return rc;
    }
#undef EMIT
    clipper_free(&a.k);
    if (rc == LS_ERR_NOMEM)
        return ls_diag_set(d, rc, NULL, 0, 0, "out of memory");
    return rc;
}
