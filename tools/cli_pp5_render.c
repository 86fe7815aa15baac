/* `lockstep pp5 render SCENE [options]` (options: cli_table.c): the scene
 * renderer of src/pp5/render.c, with the VCD of the IGC's signals and the
 * EMC state at a probe pixel. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "base/vcd.h"
#include "cli.h"
#include "cli_view.h"
#include "io/image.h"
#include "lockstep/pp5.h"
#include "lockstep/pp5_emc.h"
#include "pp5/render.h"

/* The VCD holds the IGC's named signals and, after them, what the EMC array
 * holds at one pixel (the probe) and how many pixels are enabled. */
enum { EMC_E, EMC_CARRY, EMC_ZBUF, EMC_ZTEMP, EMC_RED, EMC_GREEN, EMC_BLUE, EMC_ENABLED, EMC_NSIG };
static const struct {
    const char *name;
    int addr, len; /* pixel-memory field (len 0: not a field) */
} emc_sig[EMC_NSIG] = {
    [EMC_E] = {"EMC_probe_E", 0, 0},
    [EMC_CARRY] = {"EMC_probe_Carry", 0, 0},
    [EMC_ZBUF] = {"EMC_probe_zbuf", PP5_R_ZBUF, PP5_R_ZBITS},
    [EMC_ZTEMP] = {"EMC_probe_ztemp", PP5_R_ZTEMP, PP5_R_ZBITS},
    [EMC_RED] = {"EMC_probe_red", PP5_R_RED, 8},
    [EMC_GREEN] = {"EMC_probe_green", PP5_R_GREEN, 8},
    [EMC_BLUE] = {"EMC_probe_blue", PP5_R_BLUE, 8},
    [EMC_ENABLED] = {"EMC_enabled_pixels", 0, 0},
};

typedef struct vcd_ctx {
    ls_vcd vcd;
    uint64_t *vals;
    size_t nsig; /* IGC signals */
    double period_ns;
    int px, py;  /* probe pixel (array coordinates) */
    uint64_t *eplane;
} vcd_ctx;

static void on_clock(void *user, const pp5_igc *g, const pp5_pins *p, const pp5_emc *e)
{
    vcd_ctx *v = user;
    (void)p;
    pp5_igc_signal_values(g, v->vals + 1);
    uint64_t *ev = v->vals + 1 + v->nsig;
    for (int k = 0; k < EMC_NSIG; k++)
        if (emc_sig[k].len) ev[k] = pp5_emc_field(e, v->px, v->py, emc_sig[k].addr, emc_sig[k].len);
    ev[EMC_E] = (uint64_t)pp5_emc_enable(e, v->px, v->py);
    ev[EMC_CARRY] = (uint64_t)pp5_emc_carry(e, v->px, v->py);
    size_t words = (size_t)pp5_emc_width(e) * (size_t)pp5_emc_height(e) / 64;
    pp5_emc_plane(e, PP5_EMC_PLANE_E, v->eplane);
    uint64_t n_en = 0;
    for (size_t i = 0; i < words; i++) n_en += (uint64_t)__builtin_popcountll(v->eplane[i]);
    ev[EMC_ENABLED] = n_en;
    uint64_t n = pp5_igc_cycle(g) - 1;
    uint64_t t0 = (uint64_t)((double)n * v->period_ns);
    v->vals[0] = 1;
    ls_vcd_sample(&v->vcd, t0, v->vals);
    v->vals[0] = 0;
    ls_vcd_sample(&v->vcd, t0 + (uint64_t)(v->period_ns / 2), v->vals);
}

/* --vcd and --record together: both observers see every clock. */
typedef struct both_ctx {
    vcd_ctx *vcd;      /* NULL-free: used when vcd->vals is set */
    cli_view_pp5 *rec;
} both_ctx;
static void on_clock_both(void *user, const pp5_igc *g, const pp5_pins *p, const pp5_emc *e)
{
    both_ctx *b = user;
    if (b->vcd->vals) on_clock(b->vcd, g, p, e);
    cli_view_pp5_clock(b->rec, g, p, e);
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
    if (s.region_x + w > 2048 || s.region_y + h > 2048) {
        /* chip origins are 11 bits: the whole array must lie below 2048 */
        ls_diag_set(&d, LS_ERR_ARG, scene, s.region_line, 1,
                    "region (%d, %d) + the %dx%d array reaches past pixel 2047 (11-bit chip "
                    "origins, A-14)", s.region_x, s.region_y, w, h);
        pp5_scene_free(&s);
        return cli_report(a, &d);
    }
    if (!o.emc.config_origin_full && (s.region_x % o.emc.tile_w || s.region_y % o.emc.tile_h)) {
        ls_diag_set(&d, LS_ERR_ARG, scene, s.region_line, 1,
                    "region (%d, %d) is not a multiple of the %dx%d tile: with --origins tile the "
                    "chips keep only the high-order origin bits (A-14 alternative)",
                    s.region_x, s.region_y, o.emc.tile_w, o.emc.tile_h);
        pp5_scene_free(&s);
        return cli_report(a, &d);
    }
    vcd_ctx vc;
    memset(&vc, 0, sizeof vc);
    ls_buf vbuf;
    ls_buf_init(&vbuf);
    if (vcdp) {
        vc.nsig = pp5_igc_signal_count();
        vc.period_ns = 1e9 / o.igc.clock_hz;
        vc.px = probe_x;
        vc.py = probe_y;
        size_t nall = vc.nsig + 1 + EMC_NSIG;
        const char **names = calloc(nall, sizeof *names);
        int *widths = calloc(nall, sizeof *widths);
        vc.vals = calloc(nall, sizeof *vc.vals);
        vc.eplane = calloc((size_t)w * (size_t)h / 64, sizeof *vc.eplane);
        if (!names || !widths || !vc.vals || !vc.eplane) {
            free(names); free(widths); free(vc.vals); free(vc.eplane); pp5_scene_free(&s);
            return cli_err(a, CLI_INTERNAL, "out of memory");
        }
        names[0] = "Clk";
        widths[0] = 1;
        for (size_t i = 0; i < vc.nsig; i++) {
            names[i + 1] = pp5_igc_signal_info(i)->name;
            widths[i + 1] = pp5_igc_signal_info(i)->width;
        }
        int enabled_bits = 1;
        while (((uint64_t)1 << enabled_bits) <= (uint64_t)w * (uint64_t)h) enabled_bits++;
        for (int k = 0; k < EMC_NSIG; k++) {
            names[vc.nsig + 1 + (size_t)k] = emc_sig[k].name;
            widths[vc.nsig + 1 + (size_t)k] = k == EMC_ENABLED ? enabled_bits : emc_sig[k].len ? emc_sig[k].len : 1;
        }
        int r = ls_vcd_begin(&vc.vcd, &vbuf, "1ns", "pp5", nall, names, widths);
        free(names);
        free(widths);
        if (r) { free(vc.vals); free(vc.eplane); pp5_scene_free(&s); return cli_err(a, CLI_INTERNAL, "out of memory"); }
        o.on_clock = on_clock;
        o.user = &vc;
    }
    both_ctx both = {&vc, NULL};
    if (record) {
        if (!(both.rec = cli_view_pp5_new(scene))) {
            free(vc.vals); free(vc.eplane); ls_buf_free(&vbuf); pp5_scene_free(&s);
            return cli_err(a, CLI_INTERNAL, "out of memory");
        }
        o.on_clock = on_clock_both;
        o.user = &both;
    }
    uint8_t *rgb = malloc((size_t)w * (size_t)h * 3);
    pp5_render_stats rs;
    memset(&rs, 0, sizeof rs);
    int rc = CLI_OK;
    bool vcdp_done = false;
    if (!rgb) { rc = cli_err(a, CLI_INTERNAL, "out of memory"); goto out; }
    /* primitives done, on a terminal (-q: none) */
    cli_progress progress;
    cli_progress_start(&progress, 0, "primitives");
    if (isatty(2) && !cli_flag(a, "quiet"))
        o.progress = (ls_progress){.report = cli_progress_report, .ctx = &progress};
    st = pp5_render(&s, &o, rgb, &rs, &d);
    cli_progress_end(&progress);
    if (st != LS_OK) { rc = cli_report(a, &d); goto out; }
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
    if (both.rec) {
        int *lines = calloc(rs.nprims + 1, sizeof *lines);
        const char **kinds = calloc(rs.nprims + 1, sizeof *kinds);
        if (!lines || !kinds) rc = cli_err(a, CLI_INTERNAL, "out of memory");
        for (size_t i = 0; !rc && i < rs.nprims; i++) {
            lines[i] = s.p[i].line;
            kinds[i] = s.p[i].kind == PP5_PRIM_TRI ? "tri" : "disc";
        }
        if (!rc)
            rc = cli_view_pp5_finish(a, both.rec, record, rs.setup_clocks, rs.prim_clocks, lines, kinds,
                                     rs.nprims, rs.clocks);
        free(lines);
        free(kinds);
        if (rc) goto out;
    }
    if (vcdp) {
        ls_vcd_end(&vc.vcd, (uint64_t)((double)(rs.clocks + 64) * vc.period_ns));
        vcdp_done = true;
        if ((rc = cli_write(a, vcdp, &vbuf))) goto out;
    }
    double mhz = o.igc.clock_hz;
    uint64_t tri_sum = 0, ntri = 0, disc_sum = 0, ndisc = 0;
    for (size_t i = 0; i < rs.nprims; i++) {
        if (s.p[i].kind == PP5_PRIM_TRI) { tri_sum += rs.prim_clocks[i]; ntri++; }
        else { disc_sum += rs.prim_clocks[i]; ndisc++; }
    }
    if (!cli_flag(a, "quiet"))
        fprintf(stderr, "%s: %zu primitives, %llu IGC clocks = %.3f ms at %.0f MHz "
           "(%.1f clocks per triangle, %.1f per disc)\n",
           a->prog, rs.nprims, (unsigned long long)rs.clocks, (double)rs.clocks / mhz * 1e3, mhz / 1e6,
           ntri ? (double)tri_sum / (double)ntri : 0.0, ndisc ? (double)disc_sum / (double)ndisc : 0.0);
    if (stats) {
        ls_buf j;
        ls_buf_init(&j);
        ls_buf_printf(&j, "{\"clock_hz\": %.0f, \"clocks\": %llu, \"setup_clocks\": %llu, "
                      "\"seconds_at_clock\": %.9g, \"triangles\": %llu, \"discs\": %llu, "
                      "\"clocks_per_triangle\": %.3f, \"clocks_per_disc\": %.3f, "
                      "\"triangles_per_second_at_clock\": %.1f, \"igc_warnings\": %llu, "
                      "\"emc_warnings\": %llu, \"primitives\": [",
                      mhz, (unsigned long long)rs.clocks, (unsigned long long)rs.setup_clocks,
                      (double)rs.clocks / mhz, (unsigned long long)ntri, (unsigned long long)ndisc,
                      ntri ? (double)tri_sum / (double)ntri : 0.0,
                      ndisc ? (double)disc_sum / (double)ndisc : 0.0,
                      tri_sum ? mhz * (double)ntri / (double)tri_sum : 0.0,
                      (unsigned long long)rs.igc_warnings, (unsigned long long)rs.emc_warnings);
        for (size_t i = 0; i < rs.nprims; i++)
            ls_buf_printf(&j, "%s{\"line\": %d, \"kind\": \"%s\", \"microcycles\": %llu}",
                          i ? ", " : "", s.p[i].line, s.p[i].kind == PP5_PRIM_TRI ? "tri" : "disc",
                          (unsigned long long)rs.prim_clocks[i]);
        ls_buf_puts(&j, "]}\n");
        rc = cli_write(a, stats, &j);
        ls_buf_free(&j);
    }
out:
    cli_view_pp5_free(both.rec);
    if (vcdp && !vcdp_done) ls_vcd_end(&vc.vcd, 0);
    free(rgb);
    free(rs.prim_clocks);
    free(vc.vals);
    free(vc.eplane);
    ls_buf_free(&vbuf);
    pp5_scene_free(&s);
    return rc;
}
