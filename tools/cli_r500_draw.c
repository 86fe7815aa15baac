/* `lockstep r500 draw CAPTURE_DIR [--cs N] [-o FRAME.png] [--raw F] [--stats S]
 * [--vertices] [--engine interp|jit]`: execute a captured command stream's packets — vertex fetch,
 * the vertex program or bypass, clipping, set-up, scan conversion, RS
 * interpolation and the fragment program of every draw — into one frame, or
 * print every draw's post-transform vertices as JSON (--vertices). Manual:
 * docs/mesa.md "Draws" and "The whole pipeline". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "io/image.h"
#include "lockstep/mesa_draw.h"

int cli_write_frame(cli_args *a, const char *png, const char *raw, const float *rgba, int w,
                    int h)
{
    int rc = CLI_OK;
    ls_diag d;
    ls_diag_clear(&d);
    if (png) {
        ls_imagef img = {w, h, (float *)rgba};
        ls_image8 i8 = {0};
        ls_buf b;
        ls_buf_init(&b);
        if (ls_imagef_to_8(&img, &i8, &d) || ls_png_write_mem(&i8, &b, &d))
            rc = cli_report(a, &d);
        else
            rc = cli_write(a, png, &b);
        ls_buf_free(&b);
        ls_image8_free(&i8);
    }
    if (raw && rc == CLI_OK) {
        ls_buf b;
        ls_buf_init(&b);
        /* float32 RGBA, little-endian, row 0 = window y 0 (as r500 run --raw) */
        ls_buf_append(&b, rgba, (size_t)w * (size_t)h * 4 * sizeof(float));
        rc = cli_write(a, raw, &b);
        ls_buf_free(&b);
    }
    return rc;
}

static void stats_json(ls_buf *b, const char *name, int w, int h, size_t ndraws, size_t nrun,
                       uint64_t nverts, const r500_raster_stats *s, const mesa_exec *e,
                       r500_engine engine)
{
    ls_buf_printf(b,
                  "{\n \"stream\": \"%s\", \"width\": %d, \"height\": %d,\n"
                  " \"draws\": %zu, \"draws_run\": %zu, \"vertices\": %llu,\n",
                  name, w, h, ndraws, nrun, (unsigned long long)nverts);
    ls_buf_printf(b, " \"engine\": \"%s\",\n",
                  engine == R500_ENGINE_JIT ? "jit" : engine == R500_ENGINE_AUTO ? "auto" : "interp");
    cli_jit_counts c;
    if (engine != R500_ENGINE_INTERP && cli_engine_counts(&c))
        ls_buf_printf(b,
                      " \"jit\": {\"fs_compiled\": %zu, \"fs_hits\": %zu, \"vs_compiled\": %zu, "
                      "\"vs_hits\": %zu, \"vs_interp_programs\": %zu, \"vs_interp_runs\": %zu},\n",
                      c.fs_compiled, c.fs_hits, c.vs_compiled, c.vs_hits, c.vs_interp_programs,
                      c.vs_interp_runs);
#define S_(f) ls_buf_printf(b, " \"" #f "\": %llu,\n", (unsigned long long)s->f);
    S_(prims) S_(culled) S_(clipped_away) S_(dropped) S_(triangles) S_(pixels) S_(quads)
    S_(killed) S_(faulted_threads) S_(inst_fc)
#undef S_
    ls_buf_puts(b, " \"unknown_registers\": [");
    for (size_t k = 0; k < e->nunknown; k++) {
        const mesa_exec_unknown *u = &e->unknown[k];
        char nm[64];
        bool named = mesa_reg_name(u->addr, nm, sizeof nm);
        if (u->addr & MESA_EXEC_PACKET3)
            ls_buf_printf(b, "%s\n  {\"packet3\": \"0x%02x\", \"count\": %u}", k ? "," : "",
                          (unsigned)(u->addr & 0xff), u->count);
        else
            ls_buf_printf(b, "%s\n  {\"reg\": \"0x%04x\", \"name\": \"%s\", \"count\": %u}",
                          k ? "," : "", u->addr, named ? nm : "?", u->count);
    }
    ls_buf_puts(b, "\n ]\n}\n");
}

/* --buffers-out: every relocation's buffer object as the submission's draws
 * left it (the replay's live copy; a submission without a draw leaves its
 * captured contents), as DIR/cs_NNNN.after_K — the names and contents the
 * live device's capture gives after executing the same submission
 * (src/mesa/shim.c dump_bos), so the two compare byte for byte. A buffer
 * the capture does not hold is not written. */
static int write_buffers(cli_args *a, const char *dir, unsigned cs, const mesa_replay *rp)
{
    const mesa_capture *c = &rp->caps[0];
    for (size_t k = 0; k < c->nbos; k++) {
        const uint8_t *mem = rp->cur && k < rp->nrel ? rp->bo_mem[k] : NULL;
        size_t size = rp->cur && k < rp->nrel ? rp->bo_size[k] : 0;
        if (!mem) {
            mem = c->bos[k].data;
            size = c->bos[k].size;
        }
        if (!mem)
            continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/cs_%04u.after_%zu", dir, cs, k);
        ls_buf b;
        ls_buf_init(&b);
        ls_buf_append(&b, mem, size);
        int rc = cli_write(a, path, &b);
        ls_buf_free(&b);
        if (rc)
            return rc;
    }
    return CLI_OK;
}

int cli_r500_draw(cli_args *a)
{
    const char *dir = a->ops[0], *out = cli_get(a, "output"), *raw = cli_get(a, "raw"),
               *spath = cli_get(a, "stats");
    long cs = 0, workers = 0;
    int rc = cli_opt_long(a, "cs", 0, 9999, &cs);
    if (!rc)
        rc = cli_opt_long(a, "workers", 0, 256, &workers);
    int w = 0, h = 0;
    if (!rc)
        rc = cli_opt_size(a, "size", &w, &h);
    r500_engine engine;
    if (!rc)
        rc = cli_engine_opt(a, &engine);
    if (rc)
        return rc;
    bool vertices = cli_flag(a, "vertices");
    if (vertices && (raw || spath || cli_get(a, "size")))
        return cli_usage(a, "--vertices prints the vertices only (-o is its JSON)");
    const char *bdir = cli_get(a, "buffers-out");
    if (vertices && bdir)
        return cli_usage(a, "--vertices prints the vertices only (-o is its JSON)");
    if (!vertices && !out && !raw && !spath && !bdir)
        return cli_usage(a, "nothing to write: -o FRAME.png, --raw, --stats, --buffers-out or "
                            "--vertices");
    mesa_render_options ro;
    memset(&ro, 0, sizeof ro);
    r500_raster_options_default(&ro.raster);
    for (size_t i = 0; i < a->nov; i++) {
        if (strcmp(a->ov[i].opt->name, "model"))
            continue;
        const char *v = a->ov[i].val, *eq = strchr(v, '=');
        char name[64];
        if (!eq || (size_t)(eq - v) >= sizeof name)
            return cli_usage(a, "--model %s: expected NAME=VALUE", v);
        memcpy(name, v, (size_t)(eq - v));
        name[eq - v] = 0;
        ls_diag d;
        if (r500_raster_options_set(&ro.raster, name, eq + 1, &d))
            return cli_report(a, &d);
    }
    ls_diag d;
    mesa_replay rp;
    mesa_replay_options rpo;
    mesa_replay_options_default(&rpo);
    rpo.first_cs = (unsigned)cs;
    rpo.max_cs = 1;
    /* --engine: both units (the vertex programs run while the stream is
     * executed, the fragment programs per draw) */
    if (engine == R500_ENGINE_JIT) {
        rpo.exec.pvs.engine = R500_ENGINE_JIT;
        rpo.exec.pvs.jit = cli_pvs_jit_ops();
        ro.fs_engine = R500_ENGINE_JIT;
        ro.fs_jit = cli_jit_ops();
    } else if (engine == R500_ENGINE_AUTO) {
        /* the vertex programs on the interpreter (a draw's vertices are few);
         * each fragment run by its size (r500_engine_pick) */
        ro.fs_engine = R500_ENGINE_AUTO;
        ro.fs_jit = cli_jit_ops(); /* NULL without LLVM: the interpreter */
    }
    if (mesa_replay_open(dir, &rpo, &rp, &d))
        return cli_report(a, &d);
    const mesa_exec *ep = &rp.all.ex[0];
    char name[64];
    snprintf(name, sizeof name, "cs_%04ld.ib", cs);
    if (vertices) {
        ls_buf b;
        ls_buf_init(&b);
        mesa_exec_json(ep, name, &b);
        rc = cli_write(a, out ? out : "-", &b);
        for (size_t k = 0; k < ep->ndraws && rc == CLI_OK; k++)
            if (ep->draws[k].status)
                rc = cli_report(a, &ep->draws[k].diag);
        ls_buf_free(&b);
        mesa_replay_free(&rp);
        return rc;
    }
    if (!w && !mesa_exec_target_size(ep, &w, &h)) {
        mesa_replay_free(&rp);
        return cli_err(a, CLI_USAGE, "%s: no draw sets up a scissor; give --size WxH", name);
    }
    if (w > 8192 || h > 8192) {
        mesa_replay_free(&rp);
        return cli_err(a, CLI_USAGE, "%s: the target is %dx%d; at most 8192x8192", name, w, h);
    }
    float *rgba = calloc((size_t)w * (size_t)h * 4, sizeof *rgba);
    if (!rgba) {
        mesa_replay_free(&rp);
        return cli_err(a, CLI_INTERNAL, "out of memory");
    }
    ro.width = w, ro.height = h, ro.workers = (unsigned)workers;
    r500_raster_stats s;
    memset(&s, 0, sizeof s);
    size_t nrun = 0;
    uint64_t nverts = 0;
    int drc = CLI_OK;
    for (size_t k = 0; k < ep->ndraws; k++) {
        ls_diag dd;
        ls_diag_clear(&dd);
        if (mesa_replay_draw(&rp, k, &ro, &s, &dd) != LS_OK) {
            int r = cli_report(a, &dd);
            drc = drc ? drc : r;
            continue;
        }
        nrun++;
        nverts += ep->draws[k].nverts;
    }
    /* the colour buffer read back (format and tiling decoded), or the plain
     * store's image when no draw names a colour buffer */
    mesa_replay_frame(&rp, w, h, rgba);
    rc = cli_write_frame(a, out, raw, rgba, w, h);
    mesa_replay_finish(&rp); /* the query stores after the last draw */
    if (bdir && rc == CLI_OK)
        rc = write_buffers(a, bdir, (unsigned)cs, &rp);
    if (spath && rc == CLI_OK) {
        ls_buf b;
        ls_buf_init(&b);
        stats_json(&b, name, w, h, ep->ndraws, nrun, nverts, &s, ep, engine);
        rc = cli_write(a, spath, &b);
        ls_buf_free(&b);
    }
    if (!cli_flag(a, "quiet"))
        fprintf(stderr,
                "%s: %dx%d, %zu of %zu draws, %llu vertices, %llu primitives, %llu triangles, "
                "%llu pixels, %llu killed, %llu faulted threads; %zu unknown registers\n",
                name, w, h, nrun, ep->ndraws, (unsigned long long)nverts,
                (unsigned long long)s.prims, (unsigned long long)s.triangles,
                (unsigned long long)s.pixels, (unsigned long long)s.killed,
                (unsigned long long)s.faulted_threads, ep->nunknown);
    cli_jit_counts jc;
    if (!cli_flag(a, "quiet") && engine != R500_ENGINE_INTERP && cli_engine_counts(&jc) &&
        (engine == R500_ENGINE_JIT || jc.fs_compiled || jc.fs_hits))
        fprintf(stderr,
                "%s: engine jit: fragment programs %zu compiled, %zu cache hits; vertex programs "
                "%zu compiled, %zu cache hits, %zu left to the interpreter (%zu runs)\n",
                name, jc.fs_compiled, jc.fs_hits, jc.vs_compiled, jc.vs_hits,
                jc.vs_interp_programs, jc.vs_interp_runs);
    free(rgba);
    mesa_replay_free(&rp);
    return rc ? rc : drc;
}
