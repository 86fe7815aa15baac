/* The live virtual R500's submission path (include/lockstep/mesa_device.h). */
#include "lockstep/mesa_device.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void mesa_device_options_default(mesa_device_options *o)
{
    memset(o, 0, sizeof *o);
    mesa_cs_check_options_default(&o->check);
    mesa_exec_options_default(&o->exec);
    r500_raster_options_default(&o->raster);
    r500_tx_options_default(&o->tx);
    r500_rb_options_default(&o->rb);
    o->execute = true;
}

static bool listed(const char *const *names, const char *name)
{
    for (; *names; names++)
        if (!strcmp(*names, name))
            return true;
    return false;
}

ls_status mesa_device_model_set(mesa_device_options *o, const char *name, const char *value,
                                ls_diag *d)
{
    bool known = false;
    ls_status st = LS_OK;
    if (listed(r500_raster_option_names, name))
        known = true, st = r500_raster_options_set(&o->raster, name, value, d);
    if (!st && listed(r500_tx_option_names, name))
        known = true, st = r500_tx_options_set(&o->tx, name, value, d);
    if (!st && listed(r500_rb_option_names, name))
        known = true, st = r500_rb_options_set(&o->rb, name, value, d);
    if (known)
        return st;
    char all[768];
    size_t len = 0;
    all[0] = 0;
    const char *const *lists[] = {r500_raster_option_names, r500_tx_option_names,
                                  r500_rb_option_names};
    for (size_t l = 0; l < 3; l++)
        for (const char *const *n = lists[l]; *n; n++)
            if (!(l == 2 && listed(r500_tx_option_names, *n)) && len < sizeof all)
                len += (size_t)snprintf(all + len, sizeof all - len, "%s%s", len ? ", " : "", *n);
    return ls_diag_set(d, LS_ERR_ARG, NULL, 0, 0, "unknown model option '%s' (options: %s)", name,
                       all);
}

ls_status mesa_device_model_list(mesa_device_options *o, const char *list, ls_diag *d)
{
    char item[256];
    for (const char *p = list; *p;) {
        size_t n = strcspn(p, ",");
        if (n) {
            if (n >= sizeof item)
                return ls_diag_set(d, LS_ERR_ARG, NULL, 0, 0, "model option '%.40s...': too long", p);
            memcpy(item, p, n);
            item[n] = 0;
            char *eq = strchr(item, '=');
            if (!eq || eq == item)
                return ls_diag_set(d, LS_ERR_ARG, NULL, 0, 0,
                                   "model option '%s': expected NAME=VALUE", item);
            *eq = 0;
            ls_status st = mesa_device_model_set(o, item, eq + 1, d);
            if (st)
                return st;
        }
        p += n;
        if (*p == ',')
            p++;
    }
    return LS_OK;
}

const char *mesa_submit_outcome_name(mesa_submit_outcome o)
{
    switch (o) {
    case MESA_SUBMIT_DONE: return "done";
    case MESA_SUBMIT_REFUSED: return "refused";
    case MESA_SUBMIT_HANG: return "hang";
    }
    return "?";
}

/* A draw stopped by the vertex engine's watchdog ("vs-watchdog": a vertex
 * issued more instructions than allowed) is a GPU hang: the hardware would
 * still be running it. mesa_exec_stream reports the PVS fault in the draw's
 * diagnostic ("vertex V: PVS instruction I: watchdog: ..."; src/mesa/draw.c,
 * src/r500/pvs_exec.c); every other stopped draw is a draw the model could
 * not run (counted, not a hang). */
static bool draw_hung(const mesa_exec_draw *dr)
{
    return dr->status == LS_ERR_FAULT && strstr(dr->diag.msg, "PVS instruction") &&
           strstr(dr->diag.msg, ": watchdog:");
}

/* The fragment side's hang: a fragment thread of the draw issued more than
 * the watchdog's instructions. The draw runs with watchdog_stops
 * (r500_exec_options), so the first such thread ends the fragment run at
 * once with LS_ERR_FAULT and its fault ("watchdog: thread T issued N
 * instructions without finishing", src/r500/exec.c step), which
 * mesa_exec_render_draw prefixes with the draw and its dword. */
static bool render_hung(ls_status rs, const ls_diag *d)
{
    return rs == LS_ERR_FAULT && strstr(d->msg, "watchdog: thread ");
}

static void hang(mesa_submit_result *r, const mesa_exec_draw *dr, const ls_diag *d)
{
    r->outcome = MESA_SUBMIT_HANG;
    r->hang_packet = (long)dr->ib_dword;
    r->diag = *d;
}

/* The execute step: mesa_exec_stream over the (kernel-rewritten) IB with
 * every relocated buffer's current contents, then, in stream order, each
 * draw through the whole pipeline (mesa_render_bo_draw) with its texture
 * units and render backend bound to the buffer objects (TX_OFFSETn,
 * RB3D_COLOROFFSETn, ZB_DEPTHOFFSET relocations), so that texture reads see
 * what the draws before wrote and colour and depth writes land in the
 * buffers. The frame's size is the largest scissor (mesa_exec_target_size);
 * each draw is clipped to its own. A draw with neither a colour- nor a
 * depth-buffer relocation writes nothing; a draw the back end or the pipeline cannot run
 * counts as stopped; a draw whose vertex or fragment program runs past the
 * watchdog hangs the ring there: the draws after it do not run. */
static ls_status execute(const uint32_t *ib, size_t n, const mesa_cs_submit *s,
                         mesa_device_bo *bos, size_t nbos, const mesa_device_options *o,
                         mesa_submit_result *r, ls_diag *d)
{
    size_t nrel = s->relocs ? s->relocs_dw / 4 : 0;
    mesa_bo *mb = calloc(nrel ? nrel : 1, sizeof *mb);
    if (!mb)
        return ls_diag_set(d, LS_ERR_NOMEM, "cs", 0, 0, "out of memory");
    for (size_t k = 0; k < nrel && k < nbos; k++)
        if (bos[k].data) {
            mb[k].data = bos[k].data;
            mb[k].size = (size_t)bos[k].size;
        }
    mesa_exec e;
    ls_diag ed;
    ls_diag_clear(&ed);
    ls_status st = mesa_exec_stream("cs", ib, n, s->relocs, nrel * 4, mb, nrel, &o->exec, &e, &ed);
    free(mb);
    if (st == LS_ERR_NOMEM) {
        *d = ed;
        return st;
    }
    if (st) {
        /* the checker accepted a stream the executor cannot walk: a draw
         * the model could not run, reported, not a hang */
        r->draws_stopped++;
        r->diag = ed;
        return LS_OK;
    }
    r->draws = e.ndraws;
    int w = 0, h = 0;
    bool frame = mesa_exec_target_size(&e, &w, &h);
    uint8_t **mem = calloc(nrel ? nrel : 1, sizeof *mem);
    size_t *msz = calloc(nrel ? nrel : 1, sizeof *msz);
    mesa_rb_target *rt = calloc(1, sizeof *rt);
    if (!mem || !msz || !rt) {
        st = ls_diag_set(d, LS_ERR_NOMEM, "cs", 0, 0, "out of memory");
    } else {
        for (size_t k = 0; k < nrel && k < nbos; k++) {
            mem[k] = bos[k].data;
            msz[k] = (size_t)bos[k].size;
        }
        mesa_render_options ro;
        memset(&ro, 0, sizeof ro);
        ro.width = w;
        ro.height = h;
        ro.raster = o->raster;
        ro.tx = &o->tx;
        ro.rb = &o->rb;
        ro.workers = 1;
        ro.out = mesa_rb_out;
        ro.out_ctx = rt;
        ro.fs_watchdog = o->fs_watchdog;
        ro.fs_watchdog_stops = true;
        ro.fs_engine = o->fs_engine;
        ro.fs_jit = o->fs_jit;
        uint32_t zlocal = 0, *zc = o->zpass_counter ? o->zpass_counter : &zlocal;
        size_t zn = 0;
        bool ring_stopped = false;
        for (size_t i = 0; i < e.ndraws; i++) {
            const mesa_exec_draw *dr = &e.draws[i];
            /* occlusion queries: the ZB_ZPASS writes before this draw */
            mesa_zpass_apply(&e, &zn, i, zc, mem, msz, nrel);
            if (draw_hung(dr)) {
                ring_stopped = true;
                hang(r, dr, &dr->diag);
                break; /* the ring stops at the hung draw */
            }
            if (dr->status != LS_OK) {
                if (r->draws_stopped++ == 0)
                    r->diag = dr->diag;
                continue;
            }
            if (!frame)
                continue; /* no scissor: nothing to draw into */
            uint64_t zp0 = rt->stats.zpass;
            ls_status rs = mesa_render_bo_draw(&e, i, rt, mem, msz, nrel, &ro, NULL, &ed);
            *zc += (uint32_t)(rt->stats.zpass - zp0);
            if (rs == LS_ERR_NOMEM) {
                *d = ed;
                st = rs;
                ring_stopped = true;
                break;
            }
            if (render_hung(rs, &ed)) {
                hang(r, dr, &ed);
                ring_stopped = true;
                break;
            }
            if (rs != LS_OK && r->draws_stopped++ == 0)
                r->diag = ed;
        }
        if (!ring_stopped) /* the writes after the last draw */
            mesa_zpass_apply(&e, &zn, e.ndraws, zc, mem, msz, nrel);
    }
    free(rt);
    free(mem);
    free(msz);
    mesa_exec_free(&e);
    return st;
}

ls_status mesa_device_submit(const mesa_cs_submit *s, mesa_device_bo *bos, size_t nbos,
                             const mesa_device_options *o, mesa_submit_result *r, ls_diag *d)
{
    mesa_device_options defo;
    if (!o) {
        mesa_device_options_default(&defo);
        o = &defo;
    }
    memset(r, 0, sizeof *r);
    r->hang_packet = -1;
    ls_diag_clear(&r->diag);
    ls_diag_clear(d);
    mesa_cs_submit cs = *s;
    mesa_cs_bo_info *info = NULL;
    if (!cs.bos) {
        info = calloc(nbos ? nbos : 1, sizeof *info);
        if (!info)
            return ls_diag_set(d, LS_ERR_NOMEM, "cs", 0, 0, "out of memory");
        for (size_t k = 0; k < nbos; k++)
            info[k] = (mesa_cs_bo_info){bos[k].data != NULL, bos[k].size, bos[k].tiling_flags};
        cs.bos = info;
        cs.nbos = nbos;
    }
    uint32_t *patched = cs.ib && cs.ib_dw ? malloc(cs.ib_dw * 4) : NULL;
    if (cs.ib && cs.ib_dw && !patched) {
        free(info);
        return ls_diag_set(d, LS_ERR_NOMEM, "cs", 0, 0, "out of memory");
    }
    ls_status st = LS_OK;
    if (mesa_cs_check(&cs, &o->check, patched, &r->check, &r->diag) != LS_OK) {
        r->outcome = MESA_SUBMIT_REFUSED;
        r->err = r->check.err;
    } else if (o->execute && cs.ib && cs.ib_dw) {
        st = execute(patched, cs.ib_dw, &cs, bos, nbos, o, r, d);
    }
    free(patched);
    free(info);
    return st;
}
