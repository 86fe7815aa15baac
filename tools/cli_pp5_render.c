/* `lockstep pp5 render SCENE [options]` (options: cli_table.c): the scene
 * renderer of src/pp5/render.c, its VCD (pp5_vcd: the IGC's signals and the
 * EMC state at a probe pixel), statistics (pp5_render_stats_json) and
 * recording; this file parses, calls and prints. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli.h"
#include "cli_view.h"
#include "io/image.h"
#include "lockstep/pp5.h"
#include "lockstep/pp5_emc.h"
#include "pp5/render.h"

/* --vcd and --record: both observers see every clock. */
typedef struct obs_ctx {
    pp5_vcd *vcd;      /* NULL: no --vcd */
    cli_view_pp5 *rec; /* NULL: no --record */
} obs_ctx;
static void on_clock(void *user, const pp5_igc *g, const pp5_pins *p, const pp5_emc *e)
{
    obs_ctx *b = user;
    if (b->vcd) pp5_vcd_clock(b->vcd, g, e);
    if (b->rec) cli_view_pp5_clock(b->rec, g, p, e);
}

int cli_pp5_render(cli_args *a)
{
    const char *scene = a->ops[0], *png = cli_get(a, "output"), *raw = cli_get(a, "raw"),
               *vcdp = cli_get(a, "vcd"), *stats = cli_get(a, "stats"),
               *record = cli_get(a, "record"), *v;
    pp5_render_opts o;
    pp5_render_opts_default(&o);
    int probe_x = -1, probe_y = -1;
    if ((v = cli_get(a, "chips")) && !ls_parse_pair(v, 'x', 1, 256, &o.emc.chips_x, &o.emc.chips_y))
        return cli_usage(a, "--chips %s: expected CXxCY, e.g. 8x8 (1..256 each)", v);
    if ((v = cli_get(a, "tile")) && !ls_parse_pair(v, 'x', 1, 2048, &o.emc.tile_w, &o.emc.tile_h))
        return cli_usage(a, "--tile %s: expected WxH pixels per chip, e.g. 16x16", v);
    if ((v = cli_get(a, "origins")))
        o.emc.config_origin_full = !strcmp(v, "full");
    if ((v = cli_get(a, "engine")))
        o.engine = !strcmp(v, "model") ? PP5_ENGINE_MODEL : PP5_ENGINE_FAST;
    if ((v = cli_get(a, "probe")) && !ls_parse_pair(v, ',', 0, 2047, &probe_x, &probe_y))
        return cli_usage(a, "--probe %s: expected X,Y (array pixel, 0-based)", v);
    if (probe_x >= 0 && !vcdp)
        return cli_usage(a, "--probe names the pixel shown in --vcd: give --vcd too");
    {
        /* the geometry's own checks (pp5_emc_create) before any work */
        pp5_emc *check;
        ls_diag gd;
        if (pp5_emc_create(&check, &o.emc, &gd) != LS_OK)
            return cli_usage(a, "--chips/--tile: %s", gd.msg);
        pp5_emc_destroy(check);
    }
    int w = o.emc.tile_w * o.emc.chips_x, h = o.emc.tile_h * o.emc.chips_y;
    if (probe_x < 0) {
        probe_x = w / 2;
        probe_y = h / 2;
    }
    if (probe_x >= w || probe_y >= h)
        return cli_usage(a, "--probe %d,%d lies outside the %dx%d array", probe_x, probe_y, w, h);
    ls_diag d;
    ls_diag_clear(&d);
    ls_buf src;
    int rc0 = cli_read(a, scene, &src);
    if (rc0) return rc0;
    pp5_scene s;
    ls_status st = pp5_scene_parse(src.data ? src.data : "", src.len, cli_name(scene), &s, &d);
    ls_buf_free(&src);
    if (st != LS_OK) return cli_report(a, &d);
    ls_buf vbuf;
    ls_buf_init(&vbuf);
    obs_ctx obs = {NULL, NULL};
    if (vcdp && pp5_vcd_begin(&obs.vcd, &vbuf, o.igc.clock_hz, &o.emc, probe_x, probe_y, &d) != LS_OK) {
        pp5_scene_free(&s);
        return cli_report(a, &d);
    }
    if (record && !(obs.rec = cli_view_pp5_new(scene))) {
        pp5_vcd_end(obs.vcd, 0);
        ls_buf_free(&vbuf);
        pp5_scene_free(&s);
        return cli_err(a, CLI_INTERNAL, "out of memory");
    }
    if (obs.vcd || obs.rec) {
        o.on_clock = on_clock;
        o.user = &obs;
    }
    uint8_t *rgb = malloc((size_t)w * (size_t)h * 3);
    pp5_render_stats rs;
    memset(&rs, 0, sizeof rs);
    int rc = CLI_OK;
    if (!rgb) { rc = cli_err(a, CLI_INTERNAL, "out of memory"); goto out; }
    /* primitives done, on a terminal (-q: none) */
    cli_progress progress;
    cli_progress_start(&progress, 0, "primitives");
    if (isatty(2) && !cli_flag(a, "quiet"))
        o.progress = (ls_progress){.report = cli_progress_report, .ctx = &progress};
    st = pp5_render(&s, &o, rgb, &rs, &d);
    cli_progress_end(&progress);
    if (st != LS_OK) {
        if (!d.file[0] && d.line) /* a scene line (the region) */
            snprintf(d.file, sizeof d.file, "%s", cli_name(scene));
        rc = cli_report(a, &d);
        goto out;
    }
    if (png) {
        ls_image8 img = {w, h, 3, malloc((size_t)w * (size_t)h * 3)};
        if (!img.pixels) { rc = cli_err(a, CLI_INTERNAL, "out of memory"); goto out; }
        for (int y = 0; y < h; y++) /* PNG is top row first; the array's row 0 is the bottom */
            memcpy(img.pixels + (size_t)(h - 1 - y) * (size_t)w * 3, rgb + (size_t)y * (size_t)w * 3, (size_t)w * 3);
        ls_buf pb;
        ls_buf_init(&pb);
        st = ls_png_write_mem(&img, &pb, &d);
        free(img.pixels);
        rc = st != LS_OK ? cli_report(a, &d) : cli_write(a, png, &pb);
        ls_buf_free(&pb);
        if (rc) goto out;
    }
    if (raw) {
        ls_buf rb;
        ls_buf_init(&rb);
        ls_buf_append(&rb, rgb, (size_t)w * (size_t)h * 3);
        rc = cli_write(a, raw, &rb);
        ls_buf_free(&rb);
        if (rc) goto out;
    }
    if (obs.rec) {
        int *lines = calloc(rs.nprims + 1, sizeof *lines);
        const char **kinds = calloc(rs.nprims + 1, sizeof *kinds);
        if (!lines || !kinds) rc = cli_err(a, CLI_INTERNAL, "out of memory");
        for (size_t i = 0; !rc && i < rs.nprims; i++) {
            lines[i] = s.p[i].line;
            kinds[i] = s.p[i].kind == PP5_PRIM_TRI ? "tri" : "disc";
        }
        if (!rc)
            rc = cli_view_pp5_finish(a, obs.rec, record, rs.setup_clocks, rs.prim_clocks, lines, kinds,
                                     rs.nprims, rs.clocks);
        free(lines);
        free(kinds);
        if (rc) goto out;
    }
    if (obs.vcd) {
        pp5_vcd_end(obs.vcd, rs.clocks + 64);
        obs.vcd = NULL;
        if ((rc = cli_write(a, vcdp, &vbuf))) goto out;
    }
    pp5_render_summary sum;
    pp5_render_summarise(&s, &o, &rs, &sum);
    if (!cli_flag(a, "quiet"))
        fprintf(stderr, "%s: %zu primitives, %llu IGC clocks = %.3f ms at %.0f MHz "
           "(%.1f clocks per triangle, %.1f per disc)\n",
           a->prog, rs.nprims, (unsigned long long)rs.clocks, sum.seconds * 1e3, sum.clock_hz / 1e6,
           sum.clocks_per_triangle, sum.clocks_per_disc);
    if (stats) {
        ls_buf j;
        ls_buf_init(&j);
        pp5_render_stats_json(&s, &o, &rs, &j);
        rc = cli_write(a, stats, &j);
        ls_buf_free(&j);
    }
out:
    cli_view_pp5_free(obs.rec);
    pp5_vcd_end(obs.vcd, 0);
    free(rgb);
    free(rs.prim_clocks);
    ls_buf_free(&vbuf);
    pp5_scene_free(&s);
    return rc;
}
