/* The fast IGC: the run entry points, creation and the model's hooks (see
 * igc_fast_int.h for the file map). */
#include "pp5/accel/igc_fast_int.h"

/* ---------------- the accelerated IGC: creation and the model's hooks ---------------- */

/* The host sides of n host clocks that a loop in closed form clocked
 * (seg_host_loopable(): Busy low, none can fail), in order, each at its own
 * cycle (cycle0, cycle0 + 1, …: its warnings carry it); one call for the run. */
void pp5_igc_host_sides_quiet(pp5_igc *g, const pp5_igc_item *it, size_t n, uint64_t cycle0,
                              ls_diag *d)
{
    for (size_t j = 0; j < n; j++) {
        g->cycle = cycle0 + j;
        (void)pp5_igc_host_side(g, &it[j].in, false, d);
    }
}

static void hook_sync(pp5_igc *g)
{
    pp5_igc_fast *x = PP5_FAST(g);
    if (x->mod_stale) {
        pp5_igc_fast_unpack(g);
        x->mod_stale = false;
    }
}

static void hook_model_step(pp5_igc *g)
{
    hook_sync(g);
    PP5_FAST(g)->fast_stale = true; /* the compact form lags the structs: pack first */
}

static void hook_store_written(pp5_igc *g, unsigned addr) { pp5_igc_fast_word(g, addr); }

/* The accelerator's state before the pre-decoded store, cleared (the engine
 * choice kept): the pre-decode is a function of the store and the options,
 * which a reset keeps, so it is kept too (every store write redoes its word). */
static void fast_clear(pp5_igc_fast *x)
{
    const bool model_only = x->model_only;
    memset(&x->model_only, 0, offsetof(pp5_igc_fast, uop) - offsetof(pp5_igc_fast, model_only));
    x->model_only = model_only;
}

static void hook_reset(pp5_igc *g)
{
    fast_clear(PP5_FAST(g));
    pp5_igc_fast_init(g);
}

static const pp5_igc_hooks fast_hooks = {hook_sync, hook_model_step, hook_store_written,
                                         hook_reset};

ls_status pp5_igc_create(pp5_igc **out, const pp5_options *opt, ls_diag *d)
{
    *out = NULL;
    /* not calloc: the 160 KiB of pre-decode tables after the state are
     * written before they are read (uop[] below, seg_ctab rows on first use) */
    pp5_igc_fast *x = malloc(sizeof *x);
    if (!x)
        return ls_diag_set(d, LS_ERR_NOMEM, NULL, 0, 0, "out of memory");
    ls_status st = pp5_igc_model_init(&x->m, opt, &fast_hooks, d);
    if (st != LS_OK) {
        free(x);
        return st;
    }
    x->model_only = false;
    fast_clear(x);
    pp5_igc_fast_decode_all(&x->m);
    pp5_igc_reset(&x->m);
    *out = &x->m;
    return LS_OK;
}

void pp5_igc_destroy(pp5_igc *g) { free(PP5_FAST(g)); }

void pp5_igc_set_engine(pp5_igc *g, pp5_engine e) { PP5_FAST(g)->model_only = e == PP5_ENGINE_MODEL; }
pp5_engine pp5_igc_engine(const pp5_igc *g)
{
    return PP5_FAST(g)->model_only ? PP5_ENGINE_MODEL : PP5_ENGINE_FAST;
}

