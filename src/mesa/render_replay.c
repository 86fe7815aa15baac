/* Replaying a capture directory over live buffer objects (issue 16 items 2
 * and 3): every submission is executed (mesa_exec_stream), then its draws
 * run in order through mesa_render_bo_draw — texture units and the render
 * backend bound to writable copies of the buffer objects its relocations
 * name — and the frame is read back from the colour buffer by decoding its
 * format and tiling. Used by `r500 draw`, `mesa run|check` and the piglit
 * replays. Manual: docs/mesa.md "The whole pipeline"; model option
 * "bo-carry" (docs/assumptions.md).
 *
 * A relocation's first dword is the buffer's GEM handle (the radeon kernel's
 * drm_radeon_cs_reloc: handle, read domains, write domain, flags; the shim
 * writes the chunk as submitted). Handles name one buffer for the life of
 * the process (Mesa's radeon winsys keeps its buffers open across
 * submissions), so a buffer a draw of submission 3 wrote is the buffer a
 * later submission samples or blends into. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lockstep/mesa_draw.h"

void mesa_replay_options_default(mesa_replay_options *o)
{
    memset(o, 0, sizeof *o);
    mesa_exec_options_default(&o->exec);
    o->bo_carry = true;
}

void mesa_replay_free(mesa_replay *r)
{
    for (size_t k = 0; r->caps && k < r->all.nex; k++)
        mesa_capture_free(&r->caps[k]);
    mesa_exec_all_free(&r->all);
    free(r->caps);
    for (size_t k = 0; k < r->nbo; k++)
        free(r->bo[k].mem);
    free(r->bo);
    free(r->bo_mem);
    free(r->bo_size);
    free(r->plain.rgba);
    memset(r, 0, sizeof *r);
}

ls_status mesa_replay_open(const char *dir, const mesa_replay_options *o, mesa_replay *r,
                           ls_diag *d)
{
    memset(r, 0, sizeof *r);
    if (o)
        r->opt = *o;
    else
        mesa_replay_options_default(&r->opt);
    r->first_cs = r->opt.first_cs;
    for (unsigned k = r->first_cs; k < 10000; k++) {
        if (r->opt.max_cs && k - r->first_cs >= r->opt.max_cs)
            break;
        char ib[PATH_MAX];
        snprintf(ib, sizeof ib, "%.*s/cs_%04u.ib", PATH_MAX - 32, dir, k);
        if (access(ib, R_OK)) {
            if (k == r->first_cs) {
                ls_status st = ls_diag_set(d, LS_ERR_IO, ib, 0, 0, "no such submission");
                mesa_replay_free(r);
                return st;
            }
            break;
        }
        size_t n = r->all.nex;
        mesa_exec *nx = realloc(r->all.ex, (n + 1) * sizeof *nx);
        if (nx)
            r->all.ex = nx;
        mesa_capture *nc = nx ? realloc(r->caps, (n + 1) * sizeof *nc) : NULL;
        if (nc)
            r->caps = nc;
        if (!nx || !nc) {
            mesa_replay_free(r);
            return ls_diag_set(d, LS_ERR_NOMEM, NULL, 0, 0, "out of memory");
        }
        ls_status st = mesa_capture_load(dir, k, &r->caps[n], d);
        if (st != LS_OK) {
            mesa_replay_free(r);
            return st;
        }
        char name[32];
        snprintf(name, sizeof name, "cs_%04u.ib", k);
        const mesa_capture *c = &r->caps[n];
        st = mesa_exec_stream(name, c->ib, c->n, c->relocs, c->nrelocs_dw, c->bos, c->nbos,
                              &r->opt.exec, &r->all.ex[n], d);
        if (st != LS_OK) {
            mesa_capture_free(&r->caps[n]);
            mesa_replay_free(r);
            return st;
        }
        r->all.ndraws += r->all.ex[n].ndraws;
        r->all.nex++;
    }
    return LS_OK;
}

static mesa_replay_bo *find_bo(mesa_replay *r, uint32_t handle)
{
    for (size_t k = 0; k < r->nbo; k++)
        if (r->bo[k].handle == handle && !r->bo[k].retired)
            return &r->bo[k];
    return NULL;
}

/* Make submission s's buffers the live ones: bo_mem[k] is relocation k's
 * buffer. bo-carry = merge: a handle seen before keeps its live contents,
 * updated with every byte its new capture changed since the capture it was
 * last brought up to date with (what the CPU wrote between the
 * submissions); a handle whose size changed, or bo-carry = capture, starts
 * from the capture. */
static ls_status activate(mesa_replay *r, size_t s, ls_diag *d)
{
    if (r->cur == s + 1)
        return LS_OK;
    const mesa_capture *c = &r->caps[s];
    size_t nrel = c->nbos;
    uint8_t **mem = calloc(nrel ? nrel : 1, sizeof *mem);
    size_t *msz = calloc(nrel ? nrel : 1, sizeof *msz);
    if (!mem || !msz) {
        free(mem);
        free(msz);
        return ls_diag_set(d, LS_ERR_NOMEM, NULL, 0, 0, "out of memory");
    }
    free(r->bo_mem);
    free(r->bo_size);
    r->bo_mem = mem;
    r->bo_size = msz;
    r->nrel = nrel;
    r->cur = s + 1;
    for (size_t k = 0; k < nrel; k++) {
        const mesa_bo *cb = &c->bos[k];
        if (!cb->data)
            continue; /* not captured: a draw reading it stops */
        uint32_t handle = c->relocs[4 * k];
        mesa_replay_bo *b = find_bo(r, handle);
        if (b && b->active_in == s + 1) {
            /* the same buffer twice in one relocation list */
        } else if (b && r->opt.bo_carry && b->size == cb->size && b->synced) {
            for (size_t i = 0; i < cb->size; i++)
                if (cb->data[i] != b->synced[i])
                    b->mem[i] = cb->data[i];
        } else if (b && b->size == cb->size) {
            memcpy(b->mem, cb->data, cb->size);
        } else {
            /* a handle now naming a buffer of another size: a new buffer
             * (the old copy stays allocated: a bound colour buffer may
             * still point into it) */
            if (b)
                b->retired = true;
            b = NULL;
            {
                mesa_replay_bo *nb = realloc(r->bo, (r->nbo + 1) * sizeof *nb);
                if (!nb)
                    return ls_diag_set(d, LS_ERR_NOMEM, NULL, 0, 0, "out of memory");
                r->bo = nb;
                b = &r->bo[r->nbo++];
                memset(b, 0, sizeof *b);
                b->handle = handle;
            }
            b->mem = malloc(cb->size ? cb->size : 1);
            if (!b->mem)
                return ls_diag_set(d, LS_ERR_NOMEM, NULL, 0, 0, "out of memory");
            memcpy(b->mem, cb->data, cb->size);
            b->size = cb->size;
        }
        b->synced = cb->data;
        b->active_in = s + 1;
        mem[k] = b->mem;
        msz[k] = b->size;
    }
    return LS_OK;
}

ls_status mesa_replay_draw(mesa_replay *r, size_t n, const mesa_render_options *ro,
                           r500_raster_stats *st, ls_diag *d)
{
    if (n >= r->all.ndraws)
        return ls_diag_set(d, LS_ERR_ARG, NULL, 0, 0, "no draw %zu in the capture", n);
    if (n < r->next)
        return ls_diag_set(d, LS_ERR_ARG, NULL, 0, 0,
                           "draw %zu: the replay has already run draw %zu", n, r->next - 1);
    if (!r->plain.rgba) {
        r->plain.rgba = calloc((size_t)ro->width * (size_t)ro->height * 4, sizeof(float));
        if (!r->plain.rgba)
            return ls_diag_set(d, LS_ERR_NOMEM, NULL, 0, 0, "out of memory");
        r->plain.width = ro->width;
        r->plain.height = ro->height;
        r->plain.unorm8 = r->opt.plain_unorm8;
        r->rt.plain = &r->plain;
    }
    size_t s = 0, k = n;
    while (s < r->all.nex && k >= r->all.ex[s].ndraws)
        k -= r->all.ex[s++].ndraws;
    /* bring every submission up to s in order, so each handle's CPU writes
     * are merged against the capture just before */
    size_t from = r->cur ? r->cur - 1 : 0;
    for (size_t i = from; i <= s; i++) {
        if (i != r->zs) { /* leaving submission zs: its last query stores, its buffers active */
            mesa_replay_finish(r);
            r->zs = i;
            r->zn = 0;
        }
        ls_status rc = activate(r, i, d);
        if (rc != LS_OK)
            return rc;
    }
    r->next = n + 1;
    /* occlusion queries: the ZB_ZPASS writes before this draw (as the device) */
    mesa_zpass_apply(&r->all.ex[s], &r->zn, k, &r->zpass, r->bo_mem, r->bo_size, r->nrel);
    uint64_t zp0 = r->rt.stats.zpass;
    ls_status rc = mesa_render_bo_draw(&r->all.ex[s], k, &r->rt, r->bo_mem, r->bo_size, r->nrel,
                                       ro, st, d);
    r->zpass += (uint32_t)(r->rt.stats.zpass - zp0);
    if (r->rt.bound && r->rt.rb.width == ro->width && r->rt.rb.height == ro->height) {
        r->any_cb = true;
        r->frame = r->rt.rb;
    }
    return rc;
}

void mesa_replay_finish(mesa_replay *r)
{
    if (r->cur && r->zs < r->all.nex)
        mesa_zpass_apply(&r->all.ex[r->zs], &r->zn, r->all.ex[r->zs].ndraws, &r->zpass, r->bo_mem,
                         r->bo_size, r->nrel);
}

void mesa_replay_frame(const mesa_replay *r, int width, int height, float *rgba)
{
    size_t np = (size_t)width * (size_t)height * 4;
    memset(rgba, 0, np * sizeof *rgba);
    if (r->any_cb && r->frame.width == width && r->frame.height == height) {
        r500_rb_read_color(&r->frame, 0, rgba);
        return;
    }
    if (r->plain.rgba && r->plain.width == width && r->plain.height == height)
        memcpy(rgba, r->plain.rgba, np * sizeof *rgba);
}

long mesa_replay_cb_handle(const mesa_replay *r, size_t n)
{
    size_t s = 0;
    while (s < r->all.nex && n >= r->all.ex[s].ndraws)
        n -= r->all.ex[s++].ndraws;
    if (s == r->all.nex)
        return -1;
    long rl = r->all.ex[s].draws[n].cb_reloc[0];
    const mesa_capture *c = &r->caps[s];
    if (rl < 0 || (size_t)rl >= c->nbos)
        return -1;
    return (long)c->relocs[4 * (size_t)rl];
}
