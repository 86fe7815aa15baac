/* R500 texture unit model: texture objects and whole-thread sampling for the
 * TEX instructions (spec/r500.md §1.7, §4.8). The executor (src/r500/exec.c)
 * decodes TEX words, gathers per-lane coordinates through the source swizzle
 * (PROJ already divided by Q), handles TEXKILL itself, and calls
 * r500_tex_sample; the result goes through the destination swizzle and write
 * mask. Every modelling choice is listed in docs/assumptions.md ("TEX sampler"). */
#ifndef LOCKSTEP_R500_TEX_H
#define LOCKSTEP_R500_TEX_H

#include <stdbool.h>
#include <stdint.h>

#include "lockstep/status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct r500_texture r500_texture;

typedef enum r500_tex_filter {
    R500_TEX_BILINEAR = 0, /* default */
    R500_TEX_NEAREST = 1,
} r500_tex_filter;

typedef enum r500_tex_wrap {
    R500_TEX_REPEAT = 0, /* default */
    R500_TEX_CLAMP = 1,  /* clamp to the edge texel */
} r500_tex_wrap;

/* A 2D texture from float RGBA texels, bottom row first (t = 0 at the bottom,
 * as the render targets), with a box-filtered mip chain. */
ls_status r500_texture_create(int width, int height, const float *rgba, r500_texture **out,
                              ls_diag *d);
/* A texture from a file (src/io/texture_io.c, the libpng side; the emulator
 * core never calls it, a job's texture_loader does): "FILE.png" (8-bit, c/255; the PNG's top row is
 * at t = 1, so an image sampled with uv appears upright), or raw float32 RGBA
 * "FILE@WxH" (bottom row first). Suffixes ",nearest", ",bilinear", ",repeat",
 * ",clamp" set the sampler state. */
ls_status r500_texture_load(const char *spec, r500_texture **out, ls_diag *d);
/* r500_texture_load as a job's texture loader (r500_texture_load_fn,
 * include/lockstep/r500.h; ctx is unused):
 *     job.texture_loader.load = r500_texture_load_file; */
ls_status r500_texture_load_file(void *ctx, const char *spec, r500_texture **out, ls_diag *d);
void r500_texture_free(r500_texture *t);
void r500_texture_set_sampler(r500_texture *t, r500_tex_filter filter, r500_tex_wrap wrap_s,
                              r500_tex_wrap wrap_t);
int r500_texture_width(const r500_texture *t);
int r500_texture_height(const r500_texture *t);
int r500_texture_levels(const r500_texture *t);

typedef enum r500_tex_lod_mode {
    R500_TEX_LOD_IMPLICIT, /* LD, PROJ: LOD from the 2x2 quad's coordinate differences */
    R500_TEX_LOD_BIAS,     /* LODBIAS: implicit + lod[] */
    R500_TEX_LOD_EXPLICIT, /* LOD: lod[] */
    R500_TEX_LOD_DERIV,    /* DXDY: from ddx[] / ddy[] */
} r500_tex_lod_mode;

#define R500_TEX_MAX_LANES 64

typedef struct r500_tex_request {
    unsigned n;                /* lanes in the thread */
    uint64_t mask;             /* lanes to fetch; other lanes' outputs are untouched */
    const uint8_t (*quad)[4];  /* per lane: its quad's lanes: top-left, top-right,
                                  bottom-left, bottom-right (NULL: LOD 0) */
    bool unscaled;             /* UNSCALED: coordinates are in texels, not [0,1] */
    r500_tex_lod_mode lod_mode;
    float (*coord)[R500_TEX_MAX_LANES]; /* coord[k][lane], k = S, T, R, Q */
    const float *lod;                   /* BIAS / EXPLICIT, per lane */
    float (*ddx)[R500_TEX_MAX_LANES], (*ddy)[R500_TEX_MAX_LANES]; /* DERIV: [k][lane] */
    float (*out)[R500_TEX_MAX_LANES];   /* out[channel][lane], RGBA */
} r500_tex_request;

/* Sample for every lane of rq->mask. t NULL (unbound sampler) is LS_ERR_ARG. */
ls_status r500_tex_sample(const r500_texture *t, const r500_tex_request *rq, ls_diag *d);

#ifdef __cplusplus
}
#endif
#endif
