/* `lockstep pp5 render SCENE -o frame.png [--raw frame.rgb] [--vcd trace.vcd]
 *  [--stats stats.json]`: the scene renderer of src/pp5/render.c. */
#include <stdlib.h>
#include <string.h>
#include "base/vcd.h"
#include "cli.h"
#include "io/image.h"
#include "lockstep/pp5.h"
#include "lockstep/pp5_emc.h"
#include "pp5/render.h"

typedef struct vcd_ctx {
    ls_vcd vcd;
    uint64_t *vals;
    size_t nsig;
    double period_ns;
} vcd_ctx;

static void on_clock(void *user, const pp5_igc *g, const pp5_pins *p, const pp5_emc *e)
{
    vcd_ctx *v = user;
    (void)p;
    (void)e;
    pp5_igc_signal_values(g, v->vals + 1);
    uint64_t n = pp5_igc_cycle(g) - 1;
    uint64_t t0 = (uint64_t)((double)n * v->period_ns);
    v->vals[0] = 1;
    ls_vcd_sample(&v->vcd, t0, v->vals);
    v->vals[0] = 0;
    ls_vcd_sample(&v->vcd, t0 + (uint64_t)(v->period_ns / 2), v->vals);
}

int cli_pp5_render(int argc, char **argv)
{
    const char *scene = NULL, *png = NULL, *raw = NULL, *vcdp = NULL, *stats = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        bool has = i + 1 < argc;
        if (!strcmp(a, "-o") && has) png = argv[++i];
        else if (!strcmp(a, "--raw") && has) raw = argv[++i];
        else if (!strcmp(a, "--vcd") && has) vcdp = argv[++i];
        else if (!strcmp(a, "--stats") && has) stats = argv[++i];
        else if (a[0] == '-' && a[1]) return cli_usage_error("unknown or incomplete option '%s'", a);
        else if (!scene) scene = a;
        else return cli_usage_error("more than one scene file");
    }
    if (!scene || !png)
        return cli_usage_error("usage: lockstep pp5 render SCENE -o frame.png [--raw frame.rgb] "
                               "[--vcd trace.vcd] [--stats stats.json]");
    ls_diag d;
    ls_diag_clear(&d);
    ls_buf src;
    ls_buf_init(&src);
    if (!ls_read_file(scene, &src)) {
        ls_diag_set(&d, LS_ERR_IO, scene, 0, 0, "cannot read the scene file");
        return cli_report(&d);
    }
    pp5_scene s;
    ls_status st = pp5_scene_parse(src.data ? src.data : "", src.len, scene, &s, &d);
    ls_buf_free(&src);
    if (st != LS_OK) return cli_report(&d);
    pp5_render_opts o;
    pp5_render_opts_default(&o);
    vcd_ctx vc;
    memset(&vc, 0, sizeof vc);
    ls_buf vbuf;
    ls_buf_init(&vbuf);
    if (vcdp) {
        vc.nsig = pp5_igc_signal_count();
        vc.period_ns = 1e9 / o.igc.clock_hz;
        const char **names = calloc(vc.nsig + 1, sizeof *names);
        int *widths = calloc(vc.nsig + 1, sizeof *widths);
        vc.vals = calloc(vc.nsig + 1, sizeof *vc.vals);
        if (!names || !widths || !vc.vals) {
            free(names); free(widths); free(vc.vals); pp5_scene_free(&s);
            return cli_usage_error("out of memory");
        }
        names[0] = "Clk";
        widths[0] = 1;
        for (size_t i = 0; i < vc.nsig; i++) {
            names[i + 1] = pp5_igc_signal_info(i)->name;
            widths[i + 1] = pp5_igc_signal_info(i)->width;
        }
        int r = ls_vcd_begin(&vc.vcd, &vbuf, "1ns", "pp5", vc.nsig + 1, names, widths);
        free(names);
        free(widths);
        if (r) { free(vc.vals); pp5_scene_free(&s); return cli_usage_error("out of memory"); }
        o.on_clock = on_clock;
        o.user = &vc;
    }
    int w = o.emc.tile_w * o.emc.chips_x, h = o.emc.tile_h * o.emc.chips_y;
    uint8_t *rgb = malloc((size_t)w * (size_t)h * 3);
    pp5_render_stats rs;
    memset(&rs, 0, sizeof rs);
    int rc = CLI_OK;
    bool vcdp_done = false;
    if (!rgb) { rc = cli_usage_error("out of memory"); goto out; }
    st = pp5_render(&s, &o, rgb, &rs, &d);
    if (st != LS_OK) { rc = cli_report(&d); goto out; }
    ls_image8 img = {w, h, 3, malloc((size_t)w * (size_t)h * 3)};
    if (!img.pixels) { rc = cli_usage_error("out of memory"); goto out; }
    for (int y = 0; y < h; y++) /* PNG is top row first; the array's row 0 is the bottom */
        memcpy(img.pixels + (size_t)(h - 1 - y) * (size_t)w * 3, rgb + (size_t)y * (size_t)w * 3, (size_t)w * 3);
    st = ls_png_write(png, &img, &d);
    free(img.pixels);
    if (st != LS_OK) { rc = cli_report(&d); goto out; }
    if (raw) {
        ls_buf rb;
        ls_buf_init(&rb);
        ls_buf_append(&rb, rgb, (size_t)w * (size_t)h * 3);
        rc = cli_write_file(raw, &rb);
        ls_buf_free(&rb);
        if (rc) goto out;
    }
    if (vcdp) {
        ls_vcd_end(&vc.vcd, (uint64_t)((double)(rs.clocks + 64) * vc.period_ns));
        vcdp_done = true;
        if ((rc = cli_write_file(vcdp, &vbuf))) goto out;
    }
    double mhz = o.igc.clock_hz;
    uint64_t tri_sum = 0, ntri = 0, disc_sum = 0, ndisc = 0;
    for (size_t i = 0; i < rs.nprims; i++) {
        if (s.p[i].kind == PP5_PRIM_TRI) { tri_sum += rs.prim_clocks[i]; ntri++; }
        else { disc_sum += rs.prim_clocks[i]; ndisc++; }
    }
    printf("pp5 render: %zu primitives, %llu IGC clocks = %.3f ms at %.0f MHz "
           "(%.1f clocks per triangle, %.1f per disc)\n",
           rs.nprims, (unsigned long long)rs.clocks, (double)rs.clocks / mhz * 1e3, mhz / 1e6,
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
        rc = cli_write_file(stats, &j);
        ls_buf_free(&j);
    }
out:
    if (vcdp && !vcdp_done) ls_vcd_end(&vc.vcd, 0);
    free(rgb);
    free(rs.prim_clocks);
    free(vc.vals);
    ls_buf_free(&vbuf);
    pp5_scene_free(&s);
    return rc;
}
