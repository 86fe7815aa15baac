/* A draw through the back end: assembly and clipping (vap_clip.c), set-up
 * (ga_su.c), scan conversion (sc.c), interpolation (rs.c), and the fragment
 * program over the 2x2 quads of each triangle (exec.c through r500_run). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "exec_internal.h"
#include "raster_internal.h"

void r500_draw_init(r500_draw *dr)
{
    memset(dr, 0, sizeof *dr);
    r500_raster_options_default(&dr->opts);
}

typedef struct cov_ctx {
    const r500_draw *dr;
    uint32_t *hits;
    ra_tile tile;
    r500_raster_stats *st;
    ls_status rc;
    ls_diag *d;
    /* fragment runs */
    const r500_job *fs;
    r500_frag_out_fn out;
    void *out_ctx;
    /* the program pre-decoded once per draw (interpreter engine): its inputs
     * are the same for every triangle (RS-written temps are images) */
    r500_prog prog;
    bool have_prog;
} cov_ctx;

/* The job of a triangle's fragment run: fs with the temps RS writes as
 * images (img, or placeholders when img is NULL: only their kind matters to
 * r500_prog_build), other non-constant inputs cleared. */
static void tri_job(const cov_ctx *c, float *const img[R500_NUM_TEMPS], r500_job *j)
{
    *j = *c->fs; /* shallow: the program and textures stay the caller's */
    bool wr[R500_NUM_TEMPS];
    ra_rs_written(c->dr->state, wr);
    for (unsigned r = 0; r < R500_NUM_TEMPS; r++) {
        if (wr[r]) {
            j->inputs[r].kind = R500_INPUT_IMAGE;
            j->inputs[r].image = img ? img[r] : NULL;
        } else if (j->inputs[r].kind != R500_INPUT_CONST) {
            j->inputs[r].kind = R500_INPUT_NONE;
            j->inputs[r].image = NULL;
        }
    }
}

/* Round to 8-bit unorm as a colour buffer of that format stores it: clamp
 * to [0, 1], scale by 255, round to nearest (assumption piglit-rgba8). */
static float unorm8(float v)
{
    if (!(v > 0.0f))
        return 0.0f; /* NaN and negatives */
    if (v >= 1.0f)
        return 1.0f;
    return floorf(v * 255.0f + 0.5f) / 255.0f;
}

void r500_target_store(void *target, const r500_fragment *f)
{
    const r500_target *t = target;
    if (f->x < 0 || f->y < 0 || f->x >= t->width || f->y >= t->height || !t->rgba)
        return;
    float *dst = t->rgba + 4 * ((size_t)f->y * (size_t)t->width + (size_t)f->x);
    const float *src = f->res->target[0] + 4 * f->i;
    for (int k = 0; k < 4; k++)
        dst[k] = t->unorm8 ? unorm8(src[k]) : src[k];
}

static void cov_tri(void *vc, const ra_tri *t)
{
    cov_ctx *c = vc;
    if (c->rc != LS_OK)
        return;
    if ((c->rc = ra_sc_triangle(c->dr, t, &c->tile, c->d)) != LS_OK)
        return;
    c->st->pixels += c->tile.count;
    if (!c->hits || !c->tile.count)
        return;
    const ra_tile *k = &c->tile;
    int w = k->x1 - k->x0 + 1;
    for (int y = k->y0; y <= k->y1; y++)
        for (int x = k->x0; x <= k->x1; x++)
            if (k->mask[(size_t)(y - k->y0) * (size_t)w + (size_t)(x - k->x0)])
                c->hits[(size_t)y * (size_t)c->dr->width + (size_t)x]++;
}

ls_status r500_draw_coverage(const r500_draw *dr, uint32_t *hits, r500_raster_stats *st,
                             ls_diag *d)
{
    r500_raster_stats local;
    if (!st)
        st = &local;
    memset(st, 0, sizeof *st);
    cov_ctx c = {.dr = dr, .hits = hits, .st = st, .d = d};
    ls_status rc = ra_vap_draw(dr, cov_tri, &c, st, d);
    free(c.tile.mask);
    return rc != LS_OK ? rc : c.rc;
}

/* The fragment program over the tile's quads: the region is the tile's
 * box widened to even coordinates, so its 2x2 quads are the screen's and
 * every pixel of a quad gets its own interpolated inputs (helper pixels
 * included: the RS evaluates the plane equations there too). */
static void run_tri(void *vc, const ra_tri *t)
{
    cov_ctx *c = vc;
    if (c->rc != LS_OK)
        return;
    if ((c->rc = ra_sc_triangle(c->dr, t, &c->tile, c->d)) != LS_OK)
        return;
    const ra_tile *k = &c->tile;
    c->st->pixels += k->count;
    if (!k->count)
        return;
    int tw = k->x1 - k->x0 + 1;
    int rx0 = k->x0 & ~1, ry0 = k->y0 & ~1;
    int rw = ((k->x1 | 1) + 1) - rx0, rh = ((k->y1 | 1) + 1) - ry0;
    /* quads holding a covered pixel */
    for (int qy = ry0; qy < ry0 + rh; qy += 2)
        for (int qx = rx0; qx < rx0 + rw; qx += 2) {
            bool any = false;
            for (int y = qy; y < qy + 2; y++)
                for (int x = qx; x < qx + 2; x++)
                    if (x >= k->x0 && x <= k->x1 && y >= k->y0 && y <= k->y1 &&
                        k->mask[(size_t)(y - k->y0) * (size_t)tw + (size_t)(x - k->x0)])
                        any = true;
            c->st->quads += any;
        }
    float *img[R500_NUM_TEMPS];
    if ((c->rc = ra_rs_fill(c->dr, t, rx0, ry0, rw, rh, img, c->d)) != LS_OK)
        return;
    r500_job j;
    if (!c->have_prog &&
        r500_engine_pick(&c->fs->options, (size_t)rw * rh) == R500_ENGINE_INTERP) {
        /* built at the draw's first fragment run (a draw that covers nothing
         * never looks at its program) */
        tri_job(c, NULL, &j);
        if ((c->rc = r500_prog_build(&j, &c->prog, c->d)) != LS_OK) {
            for (unsigned r = 0; r < R500_NUM_TEMPS; r++)
                free(img[r]);
            return;
        }
        c->have_prog = true;
    }
    tri_job(c, img, &j);
    j.width = rw;
    j.height = rh;
    r500_result res;
    memset(&res, 0, sizeof res);
    if (c->have_prog) {
        /* r500_run's interpreter path (r500_interp_run) with the draw's program */
        c->rc = r500_exec_check(&j, c->d);
        if (c->rc == LS_OK)
            c->rc = r500_exec_run(&j, &c->prog, NULL, &res, NULL, NULL, c->d);
    } else {
        c->rc = r500_run(&j, &res, NULL, c->d);
    }
    for (unsigned r = 0; r < R500_NUM_TEMPS; r++)
        free(img[r]);
    if (c->rc != LS_OK)
        return;
    c->st->faulted_threads += res.stats.faulted_threads;
    c->st->inst_fc += res.stats.inst_fc;
    /* window z: linear in screen space over the triangle's window positions */
    double X[3], Y[3];
    for (int i = 0; i < 3; i++)
        X[i] = t->v[i].x, Y[i] = t->v[i].y;
    double area = (X[1] - X[0]) * (Y[2] - Y[0]) - (X[2] - X[0]) * (Y[1] - Y[0]);
    double zoff = ra_su_poly_offset(c->dr, t); /* SU_POLY_OFFSET_* (ga_su.c) */
    r500_fragment f = {.back = t->back, .res = &res};
    for (int y = k->y0; y <= k->y1; y++)
        for (int x = k->x0; x <= k->x1; x++) {
            if (!k->mask[(size_t)(y - k->y0) * (size_t)tw + (size_t)(x - k->x0)])
                continue;
            size_t ri = (size_t)(y - ry0) * (size_t)rw + (size_t)(x - rx0);
            if (res.killed && res.killed[ri]) {
                c->st->killed++;
                continue;
            }
            double cx = x + 0.5, cy = y + 0.5, l0 = 1, l1 = 0;
            if (area != 0) {
                l0 = ((X[1] - cx) * (Y[2] - cy) - (X[2] - cx) * (Y[1] - cy)) / area;
                l1 = ((X[2] - cx) * (Y[0] - cy) - (X[0] - cx) * (Y[2] - cy)) / area;
            }
            f.x = x, f.y = y, f.i = ri;
            f.z = (float)(l0 * t->v[0].z + l1 * t->v[1].z + (1.0 - l0 - l1) * t->v[2].z + zoff);
            c->out(c->out_ctx, &f);
        }
    r500_result_free(&res);
}

ls_status r500_draw_run(const r500_draw *dr, const r500_job *fs, float *rgba,
                        r500_raster_stats *st, ls_diag *d)
{
    r500_raster_stats local;
    if (!st)
        st = &local;
    memset(st, 0, sizeof *st);
    if (!fs || (!rgba && !dr->out))
        return ls_diag_set(d, LS_ERR_ARG, NULL, 0, 0, "draw run without a job or an image");
    r500_target plain = {.width = dr->width, .height = dr->height, .rgba = rgba};
    cov_ctx c = {.dr = dr, .st = st, .d = d, .fs = fs, .out = dr->out ? dr->out : r500_target_store,
                 .out_ctx = dr->out ? dr->out_ctx : &plain};
    ls_status rc = ra_vap_draw(dr, run_tri, &c, st, d);
    free(c.tile.mask);
    if (c.have_prog)
        r500_prog_free(&c.prog);
    return rc != LS_OK ? rc : c.rc;
}
