/* pp5_vcd (src/pp5/render.h): the Value Change Dump of a PP5 run that
 * `lockstep pp5 run --vcd` and `lockstep pp5 render --vcd` write — every
 * named IGC signal each clock (pp5_igc_signal_*), a clock signal high for the
 * first half of each period, and for a render what the EMC array holds at one
 * probe pixel and how many pixels are enabled. The library builds the text;
 * the caller writes it. */
#include <stdlib.h>
#include <string.h>

#include "base/vcd.h"
#include "pp5/render.h"

/* EMC state at the probe pixel, after the IGC's signals. */
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

struct pp5_vcd {
    ls_vcd vcd;
    uint64_t *vals; /* [0] clock, then the IGC's signals, then the EMC's */
    size_t nsig;    /* IGC signals */
    double period_ns;
    bool emc;
    int px, py;
    uint64_t *eplane;
};

ls_status pp5_vcd_begin(pp5_vcd **out, ls_buf *b, double clock_hz, const pp5_emc_options *emc, int probe_x,
                        int probe_y, ls_diag *d)
{
    *out = NULL;
    pp5_vcd *v = calloc(1, sizeof *v);
    if (!v)
        return ls_diag_set(d, LS_ERR_NOMEM, NULL, 0, 0, "out of memory");
    v->nsig = pp5_igc_signal_count();
    v->period_ns = 1e9 / clock_hz;
    v->emc = emc != NULL;
    size_t w = 0, h = 0, nall = v->nsig + 1 + (v->emc ? EMC_NSIG : 0);
    if (emc) {
        w = (size_t)emc->tile_w * (size_t)emc->chips_x;
        h = (size_t)emc->tile_h * (size_t)emc->chips_y;
        if (probe_x < 0 || probe_y < 0 || (size_t)probe_x >= w || (size_t)probe_y >= h) {
            free(v);
            return ls_diag_set(d, LS_ERR_ARG, NULL, 0, 0, "probe %d,%d lies outside the %zux%zu array",
                               probe_x, probe_y, w, h);
        }
        v->px = probe_x;
        v->py = probe_y;
        v->eplane = calloc(w * h / 64 + 1, sizeof *v->eplane);
    }
    const char **names = calloc(nall, sizeof *names);
    int *widths = calloc(nall, sizeof *widths);
    v->vals = calloc(nall, sizeof *v->vals);
    int r = -1;
    if (names && widths && v->vals && (!emc || v->eplane)) {
        /* pp5 run's dump is the IGC alone (scope igc, clk); a render's adds the array (scope pp5, Clk) */
        names[0] = emc ? "Clk" : "clk";
        widths[0] = 1;
        for (size_t i = 0; i < v->nsig; i++) {
            names[i + 1] = pp5_igc_signal_info(i)->name;
            widths[i + 1] = pp5_igc_signal_info(i)->width;
        }
        if (emc) {
            int enabled_bits = 1;
            while (((uint64_t)1 << enabled_bits) <= (uint64_t)w * (uint64_t)h)
                enabled_bits++;
            for (int k = 0; k < EMC_NSIG; k++) {
                names[v->nsig + 1 + (size_t)k] = emc_sig[k].name;
                widths[v->nsig + 1 + (size_t)k] =
                    k == EMC_ENABLED ? enabled_bits : emc_sig[k].len ? emc_sig[k].len : 1;
            }
        }
        r = ls_vcd_begin(&v->vcd, b, "1ns", emc ? "pp5" : "igc", nall, names, widths);
    }
    free(names);
    free(widths);
    if (r) {
        free(v->vals);
        free(v->eplane);
        free(v);
        return ls_diag_set(d, LS_ERR_NOMEM, NULL, 0, 0, "out of memory");
    }
    *out = v;
    return LS_OK;
}

void pp5_vcd_clock(pp5_vcd *v, const pp5_igc *g, const pp5_emc *e)
{
    pp5_igc_signal_values(g, v->vals + 1);
    if (v->emc && e) {
        uint64_t *ev = v->vals + 1 + v->nsig;
        for (int k = 0; k < EMC_NSIG; k++)
            if (emc_sig[k].len)
                ev[k] = pp5_emc_field(e, v->px, v->py, emc_sig[k].addr, emc_sig[k].len);
        ev[EMC_E] = (uint64_t)pp5_emc_enable(e, v->px, v->py);
        ev[EMC_CARRY] = (uint64_t)pp5_emc_carry(e, v->px, v->py);
        size_t words = (size_t)pp5_emc_width(e) * (size_t)pp5_emc_height(e) / 64;
        pp5_emc_plane(e, PP5_EMC_PLANE_E, v->eplane);
        uint64_t n_en = 0;
        for (size_t i = 0; i < words; i++)
            n_en += (uint64_t)__builtin_popcountll(v->eplane[i]);
        ev[EMC_ENABLED] = n_en;
    }
    uint64_t n = pp5_igc_cycle(g) - 1;
    uint64_t t0 = (uint64_t)((double)n * v->period_ns);
    v->vals[0] = 1;
    ls_vcd_sample(&v->vcd, t0, v->vals);
    v->vals[0] = 0;
    ls_vcd_sample(&v->vcd, t0 + (uint64_t)(v->period_ns / 2), v->vals);
}

void pp5_vcd_end(pp5_vcd *v, uint64_t clocks)
{
    if (!v)
        return;
    ls_vcd_end(&v->vcd, (uint64_t)((double)clocks * v->period_ns));
    free(v->vals);
    free(v->eplane);
    free(v);
}
