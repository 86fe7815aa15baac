/* R500 texture sampler model; choices documented in docs/assumptions.md
 * ("TEX sampler"). */
#include "lockstep/r500_tex.h"
#include "r500/exec_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAX_LEVELS 16

struct r500_texture {
    int levels;
    int w[MAX_LEVELS], h[MAX_LEVELS];
    float *texels[MAX_LEVELS]; /* RGBA, bottom row first */
    r500_tex_filter filter;
    r500_tex_wrap wrap_s, wrap_t;
};

void r500_texture_free(r500_texture *t)
{
    if (!t)
        return;
    for (int l = 0; l < t->levels; l++)
        free(t->texels[l]);
    free(t);
}

ls_status r500_texture_create(int width, int height, const float *rgba, r500_texture **out,
                              ls_diag *d)
{
    *out = NULL;
    if (!rgba)
        return ls_diag_set(d, LS_ERR_ARG, NULL, 0, 0, "texture without texels");
    if (width < 1 || height < 1 || width > 16384 || height > 16384)
        return ls_diag_set(d, LS_ERR_RANGE, NULL, 0, 0,
                           "texture size %dx%d is outside 1x1..16384x16384", width, height);
    r500_texture *t = calloc(1, sizeof *t);
    if (!t)
        return ls_diag_set(d, LS_ERR_NOMEM, NULL, 0, 0, "out of memory");
    int w = width, h = height;
    for (int l = 0; l < MAX_LEVELS; l++) {
        t->w[l] = w;
        t->h[l] = h;
        t->texels[l] = malloc((size_t)w * (size_t)h * 4 * sizeof(float));
        if (!t->texels[l]) {
            r500_texture_free(t);
            return ls_diag_set(d, LS_ERR_NOMEM, NULL, 0, 0, "out of memory");
        }
        t->levels = l + 1;
        if (l == 0) {
            memcpy(t->texels[0], rgba, (size_t)w * (size_t)h * 4 * sizeof(float));
        } else {
            /* Box filter: each texel averages the 2x2 block (2x..2x+1,
             * 2y..2y+1) of the level above; an odd level's last row/column
             * does not contribute, an axis of size 1 repeats its texel. */
            const float *src = t->texels[l - 1];
            int pw = t->w[l - 1], ph = t->h[l - 1];
            for (int y = 0; y < h; y++)
                for (int x = 0; x < w; x++)
                    for (int c = 0; c < 4; c++) {
                        int x0 = 2 * x < pw ? 2 * x : pw - 1, x1 = 2 * x + 1 < pw ? 2 * x + 1 : pw - 1;
                        int y0 = 2 * y < ph ? 2 * y : ph - 1, y1 = 2 * y + 1 < ph ? 2 * y + 1 : ph - 1;
                        float s = src[((size_t)y0 * pw + x0) * 4 + c] + src[((size_t)y0 * pw + x1) * 4 + c] +
                                  src[((size_t)y1 * pw + x0) * 4 + c] + src[((size_t)y1 * pw + x1) * 4 + c];
                        t->texels[l][((size_t)y * w + x) * 4 + c] = s * 0.25f;
                    }
        }
        if (w == 1 && h == 1)
            break;
        w = w > 1 ? w / 2 : 1;
        h = h > 1 ? h / 2 : 1;
    }
    *out = t;
    return LS_OK;
}

void r500_texture_set_sampler(r500_texture *t, r500_tex_filter filter, r500_tex_wrap wrap_s,
                              r500_tex_wrap wrap_t)
{
    t->filter = filter;
    t->wrap_s = wrap_s;
    t->wrap_t = wrap_t;
}

int r500_texture_width(const r500_texture *t) { return t->w[0]; }
int r500_texture_height(const r500_texture *t) { return t->h[0]; }
int r500_texture_levels(const r500_texture *t) { return t->levels; }

/* Texel index along an axis of size n: repeat (modulo, also for negative
 * and huge values) or clamp to the edge. */
static int wrap_index(double i, int n, r500_tex_wrap wrap)
{
    if (wrap == R500_TEX_CLAMP) {
        if (i < 0)
            return 0;
        if (i > n - 1)
            return n - 1;
        return (int)i;
    }
    double m = i - floor(i / n) * n;
    int k = (int)m;
    return k < 0 ? 0 : (k >= n ? n - 1 : k);
}

static const float *texel(const r500_texture *t, int l, double x, double y)
{
    int i = wrap_index(x, t->w[l], t->wrap_s), j = wrap_index(y, t->h[l], t->wrap_t);
    return t->texels[l] + ((size_t)j * (size_t)t->w[l] + (size_t)i) * 4;
}

static double finite_or_zero(double v)
{
    return isfinite(v) ? v : 0.0;
}

static void sample_level(const r500_texture *t, int l, double u, double v, float out[4])
{
    /* u, v in texels of level 0; this level's texel space is 2^l coarser */
    double su = u * t->w[l] / t->w[0], sv = v * t->h[l] / t->h[0];
    if (t->filter == R500_TEX_NEAREST) {
        const float *p = texel(t, l, floor(su), floor(sv));
        memcpy(out, p, 4 * sizeof(float));
        return;
    }
    /* bilinear: texel centres at half-integers */
    double x = su - 0.5, y = sv - 0.5;
    double x0 = floor(x), y0 = floor(y);
    float fx = (float)(x - x0), fy = (float)(y - y0);
    const float *a = texel(t, l, x0, y0), *b = texel(t, l, x0 + 1, y0);
    const float *c = texel(t, l, x0, y0 + 1), *e = texel(t, l, x0 + 1, y0 + 1);
    for (int k = 0; k < 4; k++) {
        float top = a[k] + (b[k] - a[k]) * fx;
        float bot = c[k] + (e[k] - c[k]) * fx;
        out[k] = top + (bot - top) * fy;
    }
}

ls_status r500_tex_sample(const r500_texture *t, const r500_tex_request *rq, ls_diag *d)
{
    if (!t)
        return ls_diag_set(d, LS_ERR_ARG, NULL, 0, 0, "texture lookup on an unbound sampler");
    unsigned n = rq->n > R500_TEX_MAX_LANES ? R500_TEX_MAX_LANES : rq->n;
    double sx = rq->unscaled ? 1.0 : (double)t->w[0], sy = rq->unscaled ? 1.0 : (double)t->h[0];
    double u[R500_TEX_MAX_LANES], v[R500_TEX_MAX_LANES];
    for (unsigned l = 0; l < n; l++) {
        /* NaN or infinite coordinates sample texel 0 (documented choice) */
        u[l] = finite_or_zero((double)rq->coord[0][l] * sx);
        v[l] = finite_or_zero((double)rq->coord[1][l] * sy);
    }
    for (unsigned l = 0; l < n; l++) {
        if (!((rq->mask >> l) & 1u))
            continue;
        double lod = 0.0;
        if (rq->lod_mode == R500_TEX_LOD_EXPLICIT) {
            lod = rq->lod ? rq->lod[l] : 0.0;
        } else if (rq->lod_mode == R500_TEX_LOD_DERIV) {
            double dux = rq->ddx[0][l] * sx, dvx = rq->ddx[1][l] * sy;
            double duy = rq->ddy[0][l] * sx, dvy = rq->ddy[1][l] * sy;
            double rho = fmax(sqrt(dux * dux + dvx * dvx), sqrt(duy * duy + dvy * dvy));
            lod = rho > 0 ? log2(rho) : -INFINITY;
        } else if (rq->quad) {
            /* per quad: x difference top-right - top-left, y difference
             * bottom-left - top-left (r500.md §3.4, as MDH/MDV) */
            const uint8_t *q = rq->quad[l];
            unsigned tl = q[0] < n ? q[0] : l, tr = q[1] < n ? q[1] : l, bl = q[2] < n ? q[2] : l;
            double dux = u[tr] - u[tl], dvx = v[tr] - v[tl];
            double duy = u[bl] - u[tl], dvy = v[bl] - v[tl];
            double rho = fmax(sqrt(dux * dux + dvx * dvx), sqrt(duy * duy + dvy * dvy));
            lod = rho > 0 ? log2(rho) : -INFINITY;
            if (rq->lod_mode == R500_TEX_LOD_BIAS && rq->lod)
                lod += rq->lod[l];
        } else if (rq->lod_mode == R500_TEX_LOD_BIAS && rq->lod) {
            lod = rq->lod[l];
        }
        /* nearest mip level: round(lod), clamped to the chain (no trilinear);
         * NaN (fails the comparison) and -inf use level 0, +inf the last */
        int level = 0;
        if (lod > 0.5)
            level = lod >= t->levels - 1 ? t->levels - 1 : (int)floor(lod + 0.5);
        float px[4];
        sample_level(t, level, u[l], v[l], px);
        for (int c = 0; c < 4; c++)
            rq->out[c][l] = px[c];
    }
    return LS_OK;
}

/* The executor's texture hooks (src/r500/exec_internal.h). Loading from a
 * file is in liblockstep_io (src/io/texture_io.c). */
void r500_exec_texture_free(struct r500_texture *t)
{
    r500_texture_free(t);
}
