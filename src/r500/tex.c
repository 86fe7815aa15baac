/* R500 texture sampler model; choices documented in docs/assumptions.md
 * ("TEX sampler"). */
#include "lockstep/r500_tex.h"
#include "lockstep/r500_txu.h"
#include "r500/exec_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAX_LEVELS 16

/* A texture is one of three texel sources behind the same sampler: float
 * RGBA images (PNG / raw files, --tex), a texture unit bound to its
 * registers and texture memory (r500_texture_from_unit), or a disabled unit
 * (tx_enable.txt: "Disable, ARGB = 1,0,0,0"). */
typedef enum { TEX_IMAGES, TEX_UNIT, TEX_DISABLED } tex_kind;

struct r500_texture {
    tex_kind kind;
    r500_txu unit;       /* TEX_UNIT: bound by r500_txu_bind (memory not owned) */
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

/* The float images are one source of texels for the register-driven sampler
 * (src/r500/txu.c): r500_tex_sample states the sampler settings of a
 * r500_texture as TX registers of one unit and samples through
 * r500_txu_sample. Nearest filtering is MAG/MIN_FILTER = point, bilinear is
 * linear; repeat is CLAMP_* = wrap, clamp is "clamp to last texel"; the mip
 * filter is point with the half-up rounding this sampler has always used
 * (model option tx-mip-round = half-up, docs/assumptions.md). */
static void fetch_float(const void *ctx, int level, int layer, int x, int y, float rgba[4])
{
    const r500_texture *t = ctx;
    (void)layer;
    memcpy(rgba, t->texels[level] + ((size_t)y * (size_t)t->w[level] + (size_t)x) * 4,
           4 * sizeof(float));
}

ls_status r500_tex_sample(const r500_texture *t, const r500_tex_request *rq, ls_diag *d)
{
    if (!t)
        return ls_diag_set(d, LS_ERR_ARG, NULL, 0, 0, "texture lookup on an unbound sampler");
    if (t->kind == TEX_UNIT)
        return r500_txu_sample(&t->unit, rq, d);
    if (t->kind == TEX_DISABLED) {
        for (unsigned l = 0; l < rq->n && l < R500_TEX_MAX_LANES; l++)
            if (rq->mask >> l & 1u) {
                rq->out[0][l] = rq->out[1][l] = rq->out[2][l] = 0.0f;
                rq->out[3][l] = 1.0f;
            }
        return LS_OK;
    }
    r500_tx_state s;
    memset(&s, 0, sizeof s);
    unsigned filt = t->filter == R500_TEX_NEAREST ? 1u : 2u;
    r500_tx_set(&s, 0, R500_TXF_MAG_FILTER, filt);
    r500_tx_set(&s, 0, R500_TXF_MIN_FILTER, filt);
    r500_tx_set(&s, 0, R500_TXF_MIP_FILTER, 1);
    r500_tx_set(&s, 0, R500_TXF_CLAMP_S, t->wrap_s == R500_TEX_CLAMP ? 2u : 0u);
    r500_tx_set(&s, 0, R500_TXF_CLAMP_T, t->wrap_t == R500_TEX_CLAMP ? 2u : 0u);
    r500_tx_options o;
    r500_tx_options_default(&o);
    o.mip_half_up = true;
    r500_texel_source src = {.fetch = fetch_float, .ctx = t};
    r500_txu u;
    ls_status st = r500_txu_bind_source(&u, &s, 0, t->w[0], t->h[0], t->levels, &src, &o, d);
    if (st != LS_OK)
        return st;
    return r500_txu_sample(&u, rq, d);
}

ls_status r500_texture_from_unit(const r500_tx_state *s, unsigned unit, const uint8_t *mem,
                                 size_t size, const r500_tx_options *o, r500_texture **out,
                                 ls_diag *d)
{
    *out = NULL;
    r500_texture *t = calloc(1, sizeof *t);
    if (!t)
        return ls_diag_set(d, LS_ERR_NOMEM, NULL, 0, 0, "out of memory");
    ls_status st = r500_txu_bind(&t->unit, s, unit, mem, size, o, d);
    if (st != LS_OK) {
        free(t);
        return st;
    }
    t->kind = TEX_UNIT;
    t->w[0] = t->unit.w;
    t->h[0] = t->unit.h;
    *out = t;
    return LS_OK;
}

ls_status r500_texture_disabled(r500_texture **out, ls_diag *d)
{
    *out = calloc(1, sizeof **out);
    if (!*out)
        return ls_diag_set(d, LS_ERR_NOMEM, NULL, 0, 0, "out of memory");
    (*out)->kind = TEX_DISABLED;
    (*out)->w[0] = (*out)->h[0] = 1;
    return LS_OK;
}

/* TEX_ID in a TEX instruction names a logical texture; TX_FILTER0_u.ID is
 * "Logical id for this physical texture" (tx_filter0.txt); Mesa writes
 * ID = u for unit u (r300_emit.c r300_emit_textures_state). Units whose
 * TX_ENABLE bit is clear are not bound; an ID no enabled unit claims reads
 * as a disabled unit (ARGB = 1,0,0,0); when two enabled units claim one ID
 * the lower unit wins. */
ls_status r500_job_bind_tx_units(r500_job *job, const r500_tx_state *s,
                                 const r500_tx_memory mem[R500_TX_UNITS],
                                 const r500_tx_options *o, ls_diag *d)
{
    r500_texture *bound[R500_NUM_SAMPLERS] = {NULL};
    ls_status st = LS_OK;
    uint32_t enable = r500_tx_get(s, 0, R500_TXF_TEX_ENABLE);
    for (unsigned u = 0; u < R500_TX_UNITS && st == LS_OK; u++) {
        if (!(enable >> u & 1u))
            continue;
        unsigned id = r500_tx_get(s, u, R500_TXF_ID);
        if (bound[id])
            continue;
        st = r500_texture_from_unit(s, u, mem ? mem[u].data : NULL, mem ? mem[u].size : 0, o,
                                    &bound[id], d);
    }
    for (unsigned i = 0; i < R500_NUM_SAMPLERS && st == LS_OK; i++)
        if (!bound[i])
            st = r500_texture_disabled(&bound[i], d);
    if (st != LS_OK) {
        for (unsigned i = 0; i < R500_NUM_SAMPLERS; i++)
            r500_texture_free(bound[i]);
        return st;
    }
    for (unsigned i = 0; i < R500_NUM_SAMPLERS; i++) {
        r500_texture_free(job->tex[i]);
        job->tex[i] = bound[i];
    }
    return LS_OK;
}

/* The executor's texture hooks (src/r500/exec_internal.h). Loading from a
 * file is in liblockstep_io (src/io/texture_io.c). */
void r500_exec_texture_free(struct r500_texture *t)
{
    r500_texture_free(t);
}
