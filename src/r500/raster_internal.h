/* Internal interfaces between the geometry/raster blocks:
 * vap_clip.c (primitive assembly, clipping, viewport) -> ga_su.c (face,
 * culling, polygon mode, point/line expansion) -> sc.c (scan conversion) ->
 * rs.c (interpolation) -> raster_draw.c (fragment runs). */
#ifndef LOCKSTEP_R500_RASTER_INTERNAL_H
#define LOCKSTEP_R500_RASTER_INTERNAL_H

#include <stdint.h>

#include "lockstep/r500_raster.h"

/* Attributes of a vertex: the texture components, then the colours. */
#define RA_TEX0 0
#define RA_COL0 R500_RS_TEX_COMPONENTS
#define RA_PSIZE (RA_COL0 + 4 * R500_RS_COLORS) /* the vertex's point size */
#define RA_NATTR (RA_PSIZE + 1)

/* Screen coordinates are kept within +-RA_MAX_COORD pixels: the clipper's
 * guard band is narrowed to it, and a primitive beyond it when clipping is
 * disabled is dropped (bounded work, exact 64-bit edge functions). */
#define RA_MAX_COORD 1048576.0

/* A vertex in clip space with its attributes. */
typedef struct ra_vtx {
    float c[4];
    float a[RA_NATTR];
} ra_vtx;

/* A vertex after the viewport transform: window x, y (y = image row),
 * z, 1/w, and its attributes. */
typedef struct ra_svtx {
    double x, y;
    float z, oow;
    const float *a;
} ra_svtx;

typedef enum ra_kind { RA_TRI, RA_POINT, RA_LINE } ra_kind;

/* One triangle for the scan converter. */
typedef struct ra_tri {
    ra_svtx v[3];
    const float *flat; /* the provoking vertex's attributes (flat colours) */
    bool back;         /* back-facing (SU_CULL_MODE.FACE applied) */
    ra_kind kind;      /* which SC_EDGERULE field applies */
} ra_tri;

typedef void (*ra_tri_fn)(void *ctx, const ra_tri *t);

/* A screen-space primitive after clipping: polygon (n >= 3, a fan), line
 * (n = 2) or point (n = 1). */
typedef struct ra_prim {
    ra_svtx *v;
    size_t n;
    const float *flat;
    ra_kind kind;
} ra_prim;

/* vap_clip.c: assembly, clipping, VTE; hands each primitive to
 * ra_su_prim. */
ls_status ra_vap_draw(const r500_draw *dr, ra_tri_fn fn, void *ctx, r500_raster_stats *st,
                      ls_diag *d);
/* ga_su.c */
void ra_su_prim(const r500_draw *dr, const ra_prim *p, ra_tri_fn fn, void *ctx,
                r500_raster_stats *st);
/* The polygon offset SU_POLY_OFFSET_* adds to the window z of every pixel of
 * triangle t (0 when its face's offset is disabled), in window z units. */
double ra_su_poly_offset(const r500_draw *dr, const ra_tri *t);

/* sc.c: coverage of one triangle inside the target, scissor and clip
 * rectangles. The tile is the bounding box [x0,x1] x [y0,y1] (inclusive,
 * empty when x0 > x1); mask[(y - y0) * (x1 - x0 + 1) + (x - x0)] = 1 where
 * covered. */
typedef struct ra_tile {
    int x0, y0, x1, y1;
    uint8_t *mask; /* owned, realloc'd between calls */
    size_t cap;
    uint64_t count;
} ra_tile;
int ra_sc_subpixel(const r500_draw *dr);
ls_status ra_sc_triangle(const r500_draw *dr, const ra_tri *t, ra_tile *tile, ls_diag *d);

/* rs.c: the inputs of the temps RS writes, for every pixel of the region
 * [rx0, rx0 + rw) x [ry0, ry0 + rh): img[temp] (rw*rh*4 floats, allocated
 * here for each temp written, NULL otherwise). */
ls_status ra_rs_fill(const r500_draw *dr, const ra_tri *t, int rx0, int ry0, int rw, int rh,
                     float *img[R500_NUM_TEMPS], ls_diag *d);
/* Which temps the RS instructions write. */
void ra_rs_written(const r500_raster_state *s, bool out[R500_NUM_TEMPS]);

#endif
