/* Differential test of the IGC fast step (src/pp5/accel/igc_fast_*.c) against the full
 * step (igc.c, the model of record): two IGCs with the same options, microcode
 * and host inputs, one clocked by pp5_igc_step(), the other by
 * pp5_igc_step_fast(); after every clock the pins, the status and diagnostic,
 * the warnings and every field of every module's state must be equal.
 *
 * Inputs are random: model options (every A-… switch), microcode (raw random
 * words, random words with loop-shaped branches, or the renderer's assembled
 * library), and host streams (coefficient sets, I/P/C words, Go, waits on Busy
 * and violations of it, RMode entry and microcode loading, Reset, ST1/ST2,
 * TestOE/TestPE). The fast IGC is also switched to full steps, has its signals
 * read, its store rewritten and is reset at random moments, so the conversions
 * between the two state forms are exercised. The seed is printed; replay a
 * failure with LOCKSTEP_SEED. */
#include "test_util.h"

#include "base/buf.h"
#include "lockstep/pp5.h"
#include "pp5/accel/igc_fast.h"
#include "pp5/render.h"
#include "pp5/stream.h"
#include "pp5/uasm.h"
#include "igc_equal.h"

static uint64_t rnd(uint64_t *s) { return ls_test_rand(s); }
static unsigned rn(uint64_t *s, unsigned n) { return (unsigned)(rnd(s) % n); }
static bool chance(uint64_t *s, unsigned one_in) { return rn(s, one_in) == 0; }

/* ---------------- state comparison: igc_equal.h ---------------- */

/* ---------------- random inputs ---------------- */

static void random_options(uint64_t *s, pp5_options *o)
{
    pp5_options_default(o);
    if (chance(s, 2))
        return; /* half the runs: the documented defaults */
    if (chance(s, 3))
        for (int i = 7; i > 0; i--) { /* a permutation */
            int j = (int)rn(s, (unsigned)i + 1);
            pp5_seq_op t = o->seq_table[i];
            o->seq_table[i] = o->seq_table[j];
            o->seq_table[j] = t;
        }
    if (chance(s, 3))
        for (int i = 7; i > 0; i--) { /* */
            int j = (int)rn(s, (unsigned)i + 1);
            uint8_t t = o->reg_of_t[i];
            o->reg_of_t[i] = o->reg_of_t[j];
            o->reg_of_t[j] = t;
        }
    o->rmode_exit_on_p = !chance(s, 4);
    o->rmode_shift = !chance(s, 3);
    o->msb_token = chance(s, 3) ? PP5_MSB_TOKEN_ALWAYS : PP5_MSB_TOKEN_MBI_ONLY;
    o->trr_fixed_stages = 23 + (int)rn(s, 11);
    o->busy_write = chance(s, 2) ? PP5_BUSY_WRITE_LAST_WINS : PP5_BUSY_WRITE_ERROR;
    o->go_while_busy_error = chance(s, 2);
    o->warn_reserved_bits = !chance(s, 3);
    o->rmode_write_needs_c = !chance(s, 3);
}

/* A microword with loop-shaped branches and frequent Done. */
static uint32_t structured_word(uint64_t *s, unsigned addr)
{
    uint32_t w = (uint32_t)rnd(s) & 0x7fffu; /* ALU, Ld, MWrt, PMA, DirEn */
    w |= (uint32_t)rn(s, 4) << 15;           /* tree mode */
    if (chance(s, 3))
        w |= PP5_UW_CNT1;
    if (chance(s, 3))
        w |= PP5_UW_CNT2;
    unsigned br = chance(s, 2) ? (addr + 512u - rn(s, 4)) & 0x1ffu
                : chance(s, 8) ? 416u + rn(s, 96) /* no word line */
                               : rn(s, 416);
    w |= br << 19;
    w |= (uint32_t)rn(s, 8) << 28;
    if (chance(s, 4))
        w |= PP5_UW_DONE;
    return w;
}

static void random_ucode(uint64_t *s, uint32_t *words, int kind)
{
    if (kind == 2) { /* the renderer's library, random words after it */
        pp5_ucode *u = calloc(1, sizeof *u);
        ls_diag_list errs;
        ls_diag_list_init(&errs);
        assert_int_equal(pp5_uasm(pp5_render_ucode, strlen(pp5_render_ucode), "lib", u, &errs),
                         LS_OK);
        ls_diag_list_free(&errs);
        for (unsigned a = 0; a < PP5_UCODE_WORDS; a++)
            words[a] = a < u->count ? u->words[a] : structured_word(s, a);
        free(u);
        return;
    }
    /* (structured words: now and then the word before again — runs of equal
     * words, whose fast-path tables are derived from each other) */
    for (unsigned a = 0; a < PP5_UCODE_WORDS; a++)
        words[a] = kind == 0                  ? (uint32_t)rnd(s)
                 : a > 0 && chance(s, 3) ? words[a - 1]
                                         : structured_word(s, a);
}

static uint32_t random_coef(uint64_t *s)
{
    switch (rn(s, 8)) {
    case 0: return (uint32_t)rnd(s);                        /* any bits */
    case 1: return (uint32_t)rn(s, 2) << 31;                /* ±0 */
    case 2: return (uint32_t)rnd(s) | 0x7f800000u;          /* exponent 255 */
    default: /* exponents around the representable range for FBITS 0…30 */
        return ((uint32_t)rn(s, 2) << 31) | ((uint32_t)(96 + rn(s, 70)) << 23) |
               ((uint32_t)rnd(s) & 0x7fffffu);
    }
}

typedef struct host {
    uint64_t rng;
    pp5_host_in q[16];  /* the next actions of the current instruction */
    int nq, iq;
    bool st1, st2, oe, pe;
    unsigned entry[8];  /* microcode start addresses to use */
} host;

static uint8_t t_of(const pp5_options *o, pp5_reg r)
{
    for (int t = 0; t < 8; t++)
        if (o->reg_of_t[t] == r)
            return (uint8_t)t;
    return 0;
}

static void push_write(host *h, const pp5_options *o, pp5_reg r, uint32_t v)
{
    pp5_host_in in = {0};
    in.wr_en = true;
    in.t = t_of(o, r);
    in.d = v;
    h->q[h->nq++] = in;
}

/* One instruction as a host would send it: coefficients, P, C, I, Go. */
static void plan_instruction(host *h, const pp5_options *o)
{
    uint64_t *s = &h->rng;
    h->nq = h->iq = 0;
    for (int r = PP5_REG_A; r <= PP5_REG_F; r++)
        if (r != PP5_REG_C && !chance(s, 3))
            push_write(h, o, (pp5_reg)r, random_coef(s));
    if (chance(s, 3)) {
        uint32_t p = (uint32_t)rnd(s) & 0x7fffffu;
        if (chance(s, 4)) /* FBITS load, mostly legal */
            p |= (1u << 30) | ((chance(s, 10) ? rn(s, 256) : 129u + rn(s, 31)) & 0x7fu) << 23;
        if (chance(s, 8))
            p |= 1u << 31; /* RMode */
        push_write(h, o, PP5_REG_P, p);
    }
    if (!chance(s, 3))
        push_write(h, o, PP5_REG_C, chance(s, 2) ? random_coef(s) : (uint32_t)rnd(s));
    uint32_t i = (chance(s, 4) ? rn(s, 512) : h->entry[rn(s, 8)]) |
                 ((uint32_t)rn(s, 256) << 9) | ((uint32_t)rn(s, 2) << 17) |
                 ((uint32_t)rn(s, 4) << 18) | ((uint32_t)rn(s, 2) << 22) |
                 ((uint32_t)(chance(s, 3) ? rn(s, 256) : 100u + rn(s, 40)) << 23);
    if (chance(s, 6))
        i |= (uint32_t)rn(s, 4) << 20 | (uint32_t)rn(s, 2) << 31; /* reserved bits */
    push_write(h, o, PP5_REG_I, i);
    pp5_host_in go = {0};
    go.go = true;
    h->q[h->nq++] = go;
}

/* The inputs of the next clock; NULL sometimes (the step's idle path). */
static const pp5_host_in *next_input(host *h, const pp5_options *o, bool busy,
                                     pp5_host_in *in)
{
    uint64_t *s = &h->rng;
    memset(in, 0, sizeof *in);
    if (chance(s, 60)) h->st1 = !h->st1;
    if (chance(s, 60)) h->st2 = !h->st2;
    if (chance(s, 150)) h->oe = !h->oe;
    if (chance(s, 150)) h->pe = !h->pe;
    if (h->iq == h->nq && chance(s, 6))
        plan_instruction(h, o);
    if (chance(s, 2500)) {
        in->reset = true;
    } else if (chance(s, 400)) { /* anything at all, Busy or not */
        in->wr_en = chance(s, 2);
        in->go = chance(s, 2);
        in->t = (uint8_t)rn(s, 8);
        in->d = (uint32_t)rnd(s);
    } else if (h->iq < h->nq && (!busy || chance(s, 300))) {
        *in = h->q[h->iq++];
    } else if (!h->oe && !h->pe && chance(s, 3)) {
        return NULL;
    }
    in->st1 = h->st1;
    in->st2 = h->st2;
    in->test_oe = h->oe;
    in->test_pe = h->pe;
    return in;
}

/* ---------------- the differential run ---------------- */

/* How much of the model the random runs reached (clocks with each event), so a
 * generator that stops reaching something fails the test instead of passing it. */
static struct {
    long csb, post_c, msin, trr, rmode, errors, dat, mbi, branch, warnings, bursts;
    long seg, seg_loop; /* clocks run as quiet segments, of them as self-loops (igc_fast_seg.c) */
    long seg_host, script_errors, script_warnings; /* host clocks in segments (run_script) */
    long seg_host_loop; /* of them, clocked by loops in closed form */
    long seg_go_last; /* of those loops, the ones ending with the Go's clock (CSB low) */
    long seg_posti_loops; /* loops whose first clock posts I */
    long seg_postc_loops; /* self-loops whose last clock posts C */
    long ctab_rows, ctab_drops; /* seg_ctab rows made on first use, made rows dropped */
    long plans, shapes; /* loop plans made, of them with a shape made (not memoised) */
} cov;

static void fail_at(uint64_t seed, int run, uint64_t cycle, const char *what)
{
    print_error("seed 0x%llx run %d cycle %llu: %s: %s\n", (unsigned long long)seed, run,
                (unsigned long long)cycle, what, why);
    fail();
}

static void one_run(uint64_t seed, int run, int clocks)
{
    uint64_t s = seed ^ (0x9e3779b97f4a7c15ull * (uint64_t)(run + 1));
    pp5_options o;
    random_options(&s, &o);
    pp5_igc *a, *b;
    ls_diag d;
    assert_int_equal(pp5_igc_create(&a, &o, &d), LS_OK);
    assert_int_equal(pp5_igc_create(&b, &o, &d), LS_OK);
    uint32_t words[PP5_UCODE_WORDS];
    int kind = (int)rn(&s, 3);
    random_ucode(&s, words, kind);
    assert_int_equal(pp5_igc_load_ucode(a, 0, words, PP5_UCODE_WORDS, &d), LS_OK);
    assert_int_equal(pp5_igc_load_ucode(b, 0, words, PP5_UCODE_WORDS, &d), LS_OK);
    host h;
    memset(&h, 0, sizeof h);
    h.rng = rnd(&s);
    static const unsigned lib_entries[8] = {
        PP5_R_UADDR_ENALL, PP5_R_UADDR_EDGE, PP5_R_UADDR_QLOAD, PP5_R_UADDR_QADD,
        PP5_R_UADDR_ZTEST, PP5_R_UADDR_CONST, PP5_R_UADDR_DISC, PP5_R_UADDR_ADDF};
    for (int i = 0; i < 8; i++)
        h.entry[i] = kind == 2 ? lib_entries[i] : rn(&s, 416);
    /* leave RMode with a legal FBITS, as every host does first */
    pp5_host_in first = {0};
    first.wr_en = true;
    first.t = t_of(&o, PP5_REG_P);
    first.d = (1u << 30) | ((129u + rn(&s, 31)) << 23);
    bool use_null_status = chance(&s, 2);

    for (int c = 0; c < clocks; c++) {
        pp5_host_in in_buf;
        const pp5_host_in *in = c == 0 ? &first : next_input(&h, &o, pp5_igc_busy(a), &in_buf);
        if (!in && use_null_status) {
            pp5_igc_set_status(a, h.st1, h.st2);
            pp5_igc_set_status(b, h.st1, h.st2);
        }
        /* rare events applied to both */
        if (chance(&s, 700)) {
            unsigned addr = rn(&s, PP5_UCODE_WORDS);
            uint32_t w = kind == 0 ? (uint32_t)rnd(&s) : structured_word(&s, addr);
            assert_int_equal(pp5_igc_load_ucode(a, addr, &w, 1, &d), LS_OK);
            assert_int_equal(pp5_igc_load_ucode(b, addr, &w, 1, &d), LS_OK);
        }
        if (chance(&s, 4000)) {
            pp5_igc_reset(a);
            pp5_igc_reset(b);
        }
        /* sometimes a burst of idle clocks in one pp5_igc_run_fast() call on the
         * fast IGC against as many single full steps (in == NULL) on the other;
         * or in one pp5_igc_run_idle() call with the stream runner's idle
         * inputs (ST1, ST2, TestOE, D; no strobe, no TestPE), stopping when
         * Busy falls or not, against full steps with the same inputs */
        if (!in && chance(&s, 8)) {
            enum { BURST = 300 };
            static pp5_pins burst[BURST];
            unsigned m = 1 + rn(&s, BURST);
            bool keep = !chance(&s, 4); /* pins_out NULL sometimes */
            bool idle_call = chance(&s, 2);
            pp5_host_in idle = {0};
            bool until = false;
            uint64_t ran;
            if (idle_call) {
                idle.st1 = h.st1;
                idle.st2 = h.st2;
                idle.test_oe = h.oe;
                idle.d = chance(&s, 2) ? 0 : (uint32_t)rnd(&s);
                idle.t = (uint8_t)rn(&s, 256); /* T is masked to 3 bits */
                until = chance(&s, 2);
                ran = pp5_igc_run_idle(b, &idle, m, until, NULL, NULL, keep ? burst : NULL);
                if (ran > m || (!until && ran != m))
                    fail_at(seed, run, pp5_igc_cycle(b), "run_idle clock count");
            } else {
                ran = pp5_igc_run_fast(b, m, keep ? burst : NULL);
                assert_int_equal(ran, m);
            }
            for (unsigned j = 0; j < ran; j++) {
                pp5_pins pa;
                ls_diag da;
                if (until && !pp5_igc_busy(a)) {
                    snprintf(why, sizeof why, "run_idle ran %llu clocks, Busy fell after %u",
                             (unsigned long long)ran, j);
                    fail_at(seed, run, pp5_igc_cycle(a), "run_idle stop");
                }
                assert_int_equal(pp5_igc_step(a, idle_call ? &idle : NULL, &pa, &da), LS_OK);
                if (keep && !pins_equal(&pa, &burst[j]))
                    fail_at(seed, run, pp5_igc_cycle(a) - 1, "run_idle/run_fast pins");
            }
            if (until && ran < m && pp5_igc_busy(a)) {
                snprintf(why, sizeof why, "run_idle stopped after %llu of %u clocks while busy",
                         (unsigned long long)ran, m);
                fail_at(seed, run, pp5_igc_cycle(a), "run_idle stop");
            }
            cov.bursts++;
            if (pp5_igc_busy(a) != pp5_igc_busy(b) || pp5_igc_cycle(a) != pp5_igc_cycle(b) ||
                pp5_igc_warning_count(a) != pp5_igc_warning_count(b)) {
                snprintf(why, sizeof why, "busy/cycle/warning count after a burst of %u", m);
                fail_at(seed, run, pp5_igc_cycle(a), "run_fast state");
            }
            if (chance(&s, 2) && !state_equal(a, b))
                fail_at(seed, run, pp5_igc_cycle(a), "run_fast state");
            continue;
        }
        pp5_pins pa, pb;
        ls_diag da, db;
        ls_diag_clear(&da);
        ls_diag_clear(&db);
        ls_status sa = pp5_igc_step(a, in, &pa, &da);
        /* the fast IGC: mostly fast steps, sometimes a full one */
        ls_status sb = chance(&s, 97) ? pp5_igc_step(b, in, &pb, &db)
                                      : pp5_igc_step_fast(b, in, &pb, &db);
        uint64_t cyc = pp5_igc_cycle(a) - 1;
        cov.csb += a->ser.cl.csb;
        cov.post_c += a->ctl.post_c;
        cov.msin += a->ser.cl.msin;
        cov.trr += a->ser.trr.trr;
        cov.rmode += a->ctl.rmode;
        cov.errors += sa != LS_OK;
        cov.dat += pa.dat[0] | pa.dat[3];
        cov.mbi += a->ser.cl.bsy[0];
        cov.branch += a->seq.branch;
        if (sa != sb || strcmp(da.msg, db.msg) != 0 || da.index != db.index) {
            snprintf(why, sizeof why, "status %d \"%.200s\" vs %d \"%.200s\"", sa, da.msg, sb,
                     db.msg);
            fail_at(seed, run, cyc, "status");
        }
        if (!pins_equal(&pa, &pb))
            fail_at(seed, run, cyc, "pins");
        if (pp5_igc_busy(a) != pp5_igc_busy(b) || pp5_igc_cycle(a) != pp5_igc_cycle(b) ||
            pp5_igc_warning_count(a) != pp5_igc_warning_count(b)) {
            snprintf(why, sizeof why, "busy/cycle/warning count");
            fail_at(seed, run, cyc, "state");
        }
        /* the whole state: often, not always (runs of fast steps without a sync) */
        if (chance(&s, 3) && !state_equal(a, b))
            fail_at(seed, run, cyc, "state");
    }
    if (!state_equal(a, b))
        fail_at(seed, run, pp5_igc_cycle(a), "final state");
    cov.warnings += (long)pp5_igc_warning_count(a);
    cov.seg += (long)PP5_FAST(b)->seg_clocks;
    cov.seg_loop += (long)PP5_FAST(b)->seg_loop_clocks;
    cov.ctab_rows += (long)PP5_FAST(b)->seg_ctab_rows;
    cov.ctab_drops += (long)PP5_FAST(b)->seg_ctab_drops;
    cov.plans += (long)PP5_FAST(b)->seg_plans;
    cov.shapes += (long)PP5_FAST(b)->seg_shapes;
    for (int i = 0; i < 512; i++) { /* the pre-decoded store follows the store */
        pp5_uop ua = PP5_FAST(a)->uop[i], ub = PP5_FAST(b)->uop[i];
        ua.ctab_ok = ub.ctab_ok = 0; /* (whether b's seg_ctab row is made yet) */
        assert_memory_equal(&ua, &ub, sizeof ua);
    }
    pp5_igc_destroy(a);
    pp5_igc_destroy(b);
}

static void test_random_differential(void **state)
{
    (void)state;
    uint64_t seed = ls_test_seed(0x1f5a57c0de5eedull);
    for (int run = 0; run < 120; run++)
        one_run(seed, run, 3000);
    printf("clocks with CSB %ld, PostC %ld, MsIn %ld, TRR %ld, RMode %ld, host errors %ld, "
           "ADat|DDat %ld, MBI busy %ld, Branch %ld; warnings %ld; run_fast/run_idle bursts "
           "%ld, of their clocks %ld in quiet segments, %ld of them self-loops\n",
           cov.csb, cov.post_c, cov.msin, cov.trr, cov.rmode, cov.errors, cov.dat, cov.mbi,
           cov.branch, cov.warnings, cov.bursts, cov.seg, cov.seg_loop);
    /* 360 000 clocks per seed; seeds 1…15 reach at least 3x these */
    assert_true(cov.csb > 50000 && cov.post_c > 2000 && cov.msin > 300 && cov.trr > 10000 &&
                cov.rmode > 10000 && cov.errors > 200 && cov.dat > 5000 && cov.mbi > 5000 &&
                cov.branch > 30000 && cov.warnings > 10000 && cov.bursts > 500);
    /* seg_ctab rows made on a word's first use, and dropped again (a store
     * write or new status levels) before a segment used the word again */
    printf("seg_ctab rows made %ld, made rows dropped %ld\n", cov.ctab_rows, cov.ctab_drops);
    assert_true(cov.ctab_rows > 1000 && cov.ctab_drops > 100);
    /* loop plans whose shape came from the memo, and shapes made (first
     * plans at an address, other conditions, a store write since) */
    printf("loop plans %ld, shapes made %ld\n", cov.plans, cov.shapes);
    assert_true(cov.shapes > 1000 && cov.plans - cov.shapes > 1000);
}

/* The same renderer streams through pp5_stream_run (fast steps, full steps
 * while the observer reads signals) and through a loop of full steps: every
 * clock's pins and observed signals equal, and the final state. */
typedef struct pin_log {
    pp5_pins *p;
    uint64_t *sig;      /* signal values at the clocks where the observer looks */
    size_t n, cap;
} pin_log;

/* An observer that reads every named signal in runs of clocks (the runner then
 * switches to full steps) and only the pins in others (fast steps). */
static bool looks_at(size_t clock) { return (clock / 37) % 3 == 1; }

static void log_pins(void *user, const pp5_igc *g, const pp5_pins *p)
{
    pin_log *l = user;
    size_t ns = pp5_igc_signal_count();
    if (l->n == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 4096;
        l->p = realloc(l->p, l->cap * sizeof *l->p);
        l->sig = realloc(l->sig, l->cap * ns * sizeof *l->sig);
        assert_non_null(l->p);
        assert_non_null(l->sig);
    }
    if (looks_at(l->n))
        pp5_igc_signal_values(g, &l->sig[l->n * ns]);
    l->p[l->n++] = *p;
}

static void full_run(const pp5_stream *s, pp5_igc *g, pin_log *l)
{
    bool st1 = false, st2 = false, pe = false, oe = false;
    for (size_t i = 0; i < s->n; i++) {
        const pp5_action *a = &s->a[i];
        pp5_host_in in = {0};
        uint64_t clocks = 1;
        switch (a->kind) {
        case PP5_ACT_ST1: st1 = a->value; continue;
        case PP5_ACT_ST2: st2 = a->value; continue;
        case PP5_ACT_TESTPE: pe = a->value; continue;
        case PP5_ACT_TESTOE: oe = a->value; continue;
        case PP5_ACT_WRITE:
            in.wr_en = true;
            in.d = a->value;
            in.t = t_of(&g->opt, a->reg);
            break;
        case PP5_ACT_GO: in.go = true; break;
        case PP5_ACT_RESET: in.reset = true; break;
        case PP5_ACT_RUN: clocks = a->value; break;
        case PP5_ACT_WAIT: clocks = UINT64_MAX; break;
        }
        pp5_igc_set_status(g, st1, st2);
        for (uint64_t c = 0; c < clocks; c++) {
            if (a->kind == PP5_ACT_WAIT && !pp5_igc_busy(g))
                break;
            in.st1 = st1;
            in.st2 = st2;
            in.test_pe = pe;
            in.test_oe = oe;
            pp5_pins p;
            ls_diag d;
            assert_int_equal(pp5_igc_step(g, &in, &p, &d), LS_OK);
            log_pins(l, g, &p);
            memset(&in, 0, sizeof in);
        }
    }
}

static void test_stream_runner(void **state)
{
    (void)state;
    uint64_t s = ls_test_seed(0x57e4a11ull);
    pp5_ucode *u = calloc(1, sizeof *u);
    ls_diag_list errs;
    ls_diag_list_init(&errs);
    assert_int_equal(pp5_uasm(pp5_render_ucode, strlen(pp5_render_ucode), "lib", u, &errs),
                     LS_OK);
    ls_diag_list_free(&errs);
    ls_buf b;
    ls_buf_init(&b);
    ls_buf_printf(&b, "write P fbits=%d src=%d lc2=%d\nwait\n", PP5_R_FBITS, PP5_R_ZTEMP,
                  PP5_R_ZBITS);
    ls_diag d;
    for (int i = 0; i < 12; i++) {
        pp5_prim p;
        memset(&p, 0, sizeof p);
        p.kind = i % 4 == 3 ? PP5_PRIM_DISC : PP5_PRIM_TRI;
        for (int v = 0; v < 3; v++)
            for (int k = 0; k < 6; k++)
                p.v[v][k] = k < 2 ? (double)rn(&s, 1480) / 10.0 - 10.0
                          : k == 2 ? (double)rn(&s, 1000) / 1000.0
                                   : (double)rn(&s, 256);
        if (p.kind == PP5_PRIM_DISC) {
            p.v[0][2] = 3 + rn(&s, 30);
            p.v[1][0] = (double)rn(&s, 1000) / 1000.0;
        }
        assert_int_equal(pp5_render_prim_stream(&p, &b, &d), LS_OK);
    }
    ls_buf_puts(&b, "st1 1\nrun 7\nst2 1\ntestoe 1\nrun 3\ntestpe 1\nrun 2\nreset\nrun 40\n");
    pp5_stream st;
    assert_int_equal(pp5_stream_parse(b.data, b.len, "gen", &st, &d), LS_OK);
    pp5_igc *gf, *gr;
    assert_int_equal(pp5_igc_create(&gf, NULL, &d), LS_OK);
    assert_int_equal(pp5_igc_create(&gr, NULL, &d), LS_OK);
    assert_int_equal(pp5_igc_load_ucode(gf, 0, u->words, PP5_UCODE_WORDS, &d), LS_OK);
    assert_int_equal(pp5_igc_load_ucode(gr, 0, u->words, PP5_UCODE_WORDS, &d), LS_OK);
    pin_log lf = {0}, lr = {0};
    assert_int_equal(pp5_stream_run(&st, gf, 0, log_pins, &lf, &d), LS_OK);
    full_run(&st, gr, &lr);
    assert_true(lr.n > 1000);
    assert_int_equal(lf.n, lr.n);
    size_t ns = pp5_igc_signal_count();
    for (size_t i = 0; i < lr.n; i++) {
        if (!pins_equal(&lr.p[i], &lf.p[i])) {
            print_error("clock %zu: %s\n", i, why);
            fail();
        }
        if (looks_at(i))
            for (size_t k = 0; k < ns; k++)
                if (lr.sig[i * ns + k] != lf.sig[i * ns + k]) {
                    print_error("clock %zu: signal %s\n", i, pp5_igc_signal_info(k)->name);
                    fail();
                }
    }
    if (!state_equal(gr, gf)) {
        print_error("final state: %s\n", why);
        fail();
    }
    free(lf.p);
    free(lr.p);
    free(lf.sig);
    free(lr.sig);
    pp5_stream_free(&st);
    ls_buf_free(&b);
    pp5_igc_destroy(gf);
    pp5_igc_destroy(gr);
    free(u);
}

/* The stream semantics of a script, restated for the reference IGC: the
 * inputs of the next clock (NULL: the script is over), skipping the finished
 * items — a host item after its one clock, a run after its count, a wait
 * once Busy is low before a clock. */
static const pp5_host_in *ref_next(const pp5_igc_item *items, size_t n, size_t *ri,
                                   uint64_t *rdone, const pp5_igc *ga, const pp5_host_in *idle)
{
    for (; *ri < n; ++*ri, *rdone = 0) {
        const pp5_igc_item *it = &items[*ri];
        if (it->kind == PP5_ITEM_HOST && *rdone == 0)
            return &it->in;
        if (it->kind == PP5_ITEM_RUN && *rdone < it->clocks)
            return idle;
        if (it->kind == PP5_ITEM_WAIT && pp5_igc_busy(ga))
            return idle;
    }
    return NULL;
}

/* The length of script_check()'s calls (0: random). */
static unsigned script_call_len;

/* Runs the script on gb by pp5_igc_run_script() in calls of random length and
 * the same clocks on ga by full steps; compares every clock's pins, the status
 * of the failing clock, the cursor and the whole state after each call.
 * Returns false when a host clock failed (the runner stops there). */
static bool script_check(uint64_t seed, int run, uint64_t *s, pp5_igc *ga, pp5_igc *gb,
                         const pp5_igc_item *items, size_t ni, const pp5_host_in *idle,
                         pp5_pins *buf, unsigned burst, long *bursts)
{
    pp5_igc_script sc = {items, ni, 0, 0, *idle};
    size_t ri = 0;
    uint64_t rdone = 0;
    for (;;) {
        /* (short calls now and then: segments that end inside or just after a
         * loop, whose last records the segment's end makes) */
        const uint64_t m = script_call_len ? script_call_len
                         : rn(s, 8) == 0     ? 0
                                             : 1 + rn(s, chance(s, 3) ? 8 : burst);
        ls_status sb;
        ls_diag db;
        ls_diag_clear(&db);
        const uint64_t got = pp5_igc_run_script(gb, &sc, m, buf, &sb, &db);
        (*bursts)++;
        if (got > m) {
            snprintf(why, sizeof why, "ran %llu of %llu", (unsigned long long)got,
                     (unsigned long long)m);
            fail_at(seed, run, pp5_igc_cycle(gb), "script: count");
        }
        ls_status sa = LS_OK;
        for (uint64_t j = 0; j < got; j++) {
            const pp5_host_in *in = ref_next(items, ni, &ri, &rdone, ga, idle);
            if (!in) {
                snprintf(why, sizeof why, "clock %llu of %llu past the end",
                         (unsigned long long)j, (unsigned long long)got);
                fail_at(seed, run, pp5_igc_cycle(ga), "script: length");
            }
            pp5_pins pa;
            ls_diag da;
            ls_diag_clear(&da);
            sa = pp5_igc_step(ga, in, &pa, &da);
            rdone++;
            if (!pins_equal(&pa, &buf[j]))
                fail_at(seed, run, pp5_igc_cycle(ga) - 1, "script: pins");
            if (sa != LS_OK) {
                if (j + 1 != got || sb != sa || strcmp(da.msg, db.msg) != 0) {
                    snprintf(why, sizeof why, "status %d/%d, \"%.200s\" / \"%.200s\"", (int)sa,
                             (int)sb, da.msg, db.msg);
                    fail_at(seed, run, pp5_igc_cycle(ga) - 1, "script: failed clock");
                }
                cov.script_errors++;
                break;
            }
        }
        if (!state_equal(ga, gb))
            fail_at(seed, run, pp5_igc_cycle(ga), "script: state after a call");
        if (sa != LS_OK) {
            if (sc.i != ri) {
                snprintf(why, sizeof why, "cursor %zu, failed item %zu", sc.i, ri);
                fail_at(seed, run, pp5_igc_cycle(ga), "script: cursor after a failure");
            }
            return false;
        }
        if (sb != LS_OK) {
            snprintf(why, sizeof why, "status %d", (int)sb);
            fail_at(seed, run, pp5_igc_cycle(ga), "script: failed, the full step did not");
        }
        (void)ref_next(items, ni, &ri, &rdone, ga, idle); /* finished items */
        if (sc.i != ri || (ri < ni && sc.done != rdone) || (got < m && ri != ni)) {
            snprintf(why, sizeof why, "cursor %zu/%llu, reference %zu/%llu, ran %llu of %llu",
                     sc.i, (unsigned long long)sc.done, ri, (unsigned long long)rdone,
                     (unsigned long long)got, (unsigned long long)m);
            fail_at(seed, run, pp5_igc_cycle(ga), "script: cursor");
        }
        if (ri == ni || pp5_igc_cycle(ga) > 400000) /* over, or a hung IGC */
            return true;
    }
}

/* The renderer's library microcode and host streams (random triangles and
 * discs), clocked as the block runner does — each action's first clock with its
 * inputs through pp5_igc_clock_fast(), the idle clocks in bursts of
 * pp5_igc_run_idle() into a pins buffer (random lengths; waits stop when Busy
 * falls, or sometimes run a fixed burst past it) — against one full step per
 * clock with the same inputs: every clock's pins, and the whole state after
 * every burst. */
static void blocks_run(uint64_t seed, int run)
{
    /* odd runs: runs of write/go/run/wait as scripts (pp5_igc_run_script), with
     * now and then an extra write (a random register and value: writes while
     * Busy, RMode entry, bad FBITS) before a wait */
    const bool scripted = run % 2 == 1;
    uint64_t s = seed ^ (0x51ed27c0b1ull * (uint64_t)(run + 1));
    pp5_options o;
    pp5_options_default(&o);
    if (run % 3 == 2) { /* the A-18 and TRR-length switches change the token timing */
        random_options(&s, &o);
        pp5_options def; /* the library is written for the default A-1 table */
        pp5_options_default(&def);
        memcpy(o.seq_table, def.seq_table, sizeof o.seq_table);
    }
    /* the extra writes of scripted runs are mostly accepted with a warning
     * (run 7 keeps the strict default: the first one while Busy fails) */
    if (scripted && run != 7)
        o.busy_write = PP5_BUSY_WRITE_LAST_WINS;
    pp5_ucode *u = calloc(1, sizeof *u);
    ls_diag_list errs;
    ls_diag_list_init(&errs);
    assert_int_equal(pp5_uasm(pp5_render_ucode, strlen(pp5_render_ucode), "lib", u, &errs),
                     LS_OK);
    ls_diag_list_free(&errs);
    ls_buf b;
    ls_buf_init(&b);
    ls_buf_printf(&b, "write P fbits=%d src=%d lc2=%d\nwait\n", PP5_R_FBITS, PP5_R_ZTEMP,
                  PP5_R_ZBITS);
    ls_diag d;
    for (int i = 0; i < 16; i++) {
        pp5_prim p;
        memset(&p, 0, sizeof p);
        p.kind = chance(&s, 4) ? PP5_PRIM_DISC : PP5_PRIM_TRI;
        for (int v = 0; v < 3; v++)
            for (int k = 0; k < 6; k++)
                p.v[v][k] = k < 2 ? (double)rn(&s, 1480) / 10.0 - 10.0
                          : k == 2 ? (double)rn(&s, 1000) / 1000.0
                                   : (double)rn(&s, 256);
        if (p.kind == PP5_PRIM_DISC) {
            p.v[0][2] = 3 + rn(&s, 30);
            p.v[1][0] = (double)rn(&s, 1000) / 1000.0;
        }
        assert_int_equal(pp5_render_prim_stream(&p, &b, &d), LS_OK);
        if (chance(&s, 4)) /* status and test levels change now and then */
            ls_buf_printf(&b, "st1 %u\nst2 %u\ntestoe %u\nrun %u\n", rn(&s, 2), rn(&s, 2),
                          chance(&s, 3), 1 + rn(&s, 60));
    }
    ls_buf_puts(&b, "testoe 0\nwrite C 0x12345678\nrun 50\ntestpe 1\nrun 3\ntestpe 0\nrun 9\n");
    pp5_stream st;
    assert_int_equal(pp5_stream_parse(b.data, b.len, "gen", &st, &d), LS_OK);
    pp5_igc *ga, *gb;
    assert_int_equal(pp5_igc_create(&ga, &o, &d), LS_OK);
    assert_int_equal(pp5_igc_create(&gb, &o, &d), LS_OK);
    assert_int_equal(pp5_igc_load_ucode(ga, 0, u->words, PP5_UCODE_WORDS, &d), LS_OK);
    assert_int_equal(pp5_igc_load_ucode(gb, 0, u->words, PP5_UCODE_WORDS, &d), LS_OK);
    enum { BURST = 300 };
    static pp5_pins buf[BURST];
    bool st1 = false, st2 = false, pe = false, oe = false;
    long bursts = 0;
    enum { SCRIPT_MAX = 40 };
    pp5_igc_item items[SCRIPT_MAX];
    bool ended = false; /* a failed host clock ended the stream */
    for (size_t i = 0; i < st.n; i++) {
        const pp5_action *act = &st.a[i];
        const pp5_action_kind ak = act->kind;
        if (scripted && !pe &&
            (ak == PP5_ACT_WRITE || ak == PP5_ACT_GO || ak == PP5_ACT_RUN || ak == PP5_ACT_WAIT)) {
            const size_t len = 1 + rn(&s, 30);
            size_t ni = 0;
            for (; i < st.n && ni + 1 < SCRIPT_MAX && ni < len; i++) {
                const pp5_action *b = &st.a[i];
                pp5_igc_item it;
                memset(&it, 0, sizeof it);
                it.in.st1 = st1;
                it.in.st2 = st2;
                it.in.test_oe = oe;
                if (b->kind == PP5_ACT_WRITE) {
                    it.kind = PP5_ITEM_HOST;
                    it.in.wr_en = true;
                    it.in.t = t_of(&o, b->reg);
                    it.in.d = b->value;
                } else if (b->kind == PP5_ACT_GO) {
                    if (run == 9 && chance(&s, 2)) { /* run 9: P with FBITS before a
                                                     * Go (now and then a bad one: the
                                                     * clock fails, the stream ends) */
                        pp5_igc_item w = it;
                        w.kind = PP5_ITEM_HOST;
                        w.in.wr_en = true;
                        w.in.t = t_of(&o, PP5_REG_P);
                        const uint32_t fb = chance(&s, 8) ? 128u : 129u + rn(&s, 31);
                        w.in.d = ((uint32_t)rnd(&s) & 0x007fffffu) | fb << 23;
                        items[ni++] = w;
                    } else if (chance(&s, 8)) { /* an extra write just before the Go: a
                                          * random value for a random register
                                          * (reserved bits, big exponents:
                                          * warnings), P without RMode entry and
                                          * mostly without FBITS (a bad FBITS
                                          * fails the clock) */
                        pp5_igc_item w = it;
                        w.kind = PP5_ITEM_HOST;
                        w.in.wr_en = true;
                        w.in.t = (uint8_t)rn(&s, 8);
                        w.in.d = (uint32_t)rnd(&s);
                        if (o.reg_of_t[w.in.t & 7u] == PP5_REG_P)
                            w.in.d &= chance(&s, 4) ? 0x7fffffffu : 0x3fffffffu;
                        items[ni++] = w;
                    }
                    it.kind = PP5_ITEM_HOST;
                    it.in.go = true;
                } else if (b->kind == PP5_ACT_RUN) {
                    it.kind = PP5_ITEM_RUN;
                    it.clocks = b->value;
                } else if (b->kind == PP5_ACT_WAIT) {
                    it.kind = PP5_ITEM_WAIT;
                    if (chance(&s, 8)) { /* an extra write first */
                        pp5_igc_item w = it;
                        w.kind = PP5_ITEM_HOST;
                        w.in.wr_en = true;
                        w.in.t = (uint8_t)rn(&s, 8);
                        w.in.d = (uint32_t)rnd(&s);
                        if (!chance(&s, 12)) /* RMode entry, bad FBITS: now and then */
                            w.in.d &= 0x3fffffffu;
                        if (chance(&s, 2))
                            w.in.go = true;
                        items[ni++] = w;
                    }
                } else {
                    break;
                }
                items[ni++] = it;
            }
            i--; /* the for's i++ */
            pp5_igc_set_status(ga, st1, st2);
            pp5_igc_set_status(gb, st1, st2);
            pp5_host_in idle = {0};
            idle.st1 = st1;
            idle.st2 = st2;
            idle.test_oe = oe;
            ended = !script_check(seed, run, &s, ga, gb, items, ni, &idle, buf, BURST, &bursts);
            if (ended || pp5_igc_cycle(ga) > 400000)
                break; /* a failed host clock ends the stream, as in the runner */
            continue;
        }
        pp5_host_in in = {0};
        uint64_t clocks = 1;
        switch (act->kind) {
        case PP5_ACT_ST1: st1 = act->value; continue;
        case PP5_ACT_ST2: st2 = act->value; continue;
        case PP5_ACT_TESTPE: pe = act->value; continue;
        case PP5_ACT_TESTOE: oe = act->value; continue;
        case PP5_ACT_WRITE:
            in.wr_en = true;
            in.d = act->value;
            in.t = t_of(&o, act->reg);
            break;
        case PP5_ACT_GO: in.go = true; break;
        case PP5_ACT_RESET: in.reset = true; break;
        case PP5_ACT_RUN: clocks = act->value; break;
        case PP5_ACT_WAIT: clocks = UINT64_MAX; break;
        }
        pp5_igc_set_status(ga, st1, st2);
        pp5_igc_set_status(gb, st1, st2);
        pp5_host_in idle = {0};
        idle.st1 = in.st1 = st1;
        idle.st2 = in.st2 = st2;
        idle.test_oe = in.test_oe = oe;
        idle.test_pe = in.test_pe = pe;
        const bool wait = act->kind == PP5_ACT_WAIT;
        uint64_t c = 0;
        while (c < clocks && pp5_igc_cycle(ga) < 400000) { /* a hung IGC: stop */
            if (wait && !pp5_igc_busy(gb))
                break;
            if ((c > 0 || act->kind == PP5_ACT_RUN || wait) && !pe) {
                /* a burst */
                bool until = wait && !chance(&s, 5);
                uint64_t m = 1 + rn(&s, until ? BURST : 40);
                if (!wait && m > clocks - c)
                    m = clocks - c;
                uint64_t ran = pp5_igc_run_idle(gb, &idle, m, until, NULL, NULL, buf);
                if (ran > m || (!until && ran != m)) {
                    snprintf(why, sizeof why, "ran %llu of %llu", (unsigned long long)ran,
                             (unsigned long long)m);
                    fail_at(seed, run, pp5_igc_cycle(gb), "blocks: run_idle count");
                }
                for (uint64_t j = 0; j < ran; j++) {
                    pp5_pins pa;
                    ls_diag da;
                    assert_int_equal(pp5_igc_step(ga, &idle, &pa, &da), LS_OK);
                    if (!pins_equal(&pa, &buf[j]))
                        fail_at(seed, run, pp5_igc_cycle(ga) - 1, "blocks: pins");
                    if (until && j + 1 < ran && !pp5_igc_busy(ga)) {
                        snprintf(why, sizeof why, "Busy fell after clock %llu of %llu",
                                 (unsigned long long)j, (unsigned long long)ran);
                        fail_at(seed, run, pp5_igc_cycle(ga), "blocks: run_idle past the fall");
                    }
                }
                if (until && ran < m && pp5_igc_busy(ga)) {
                    snprintf(why, sizeof why, "stopped while busy");
                    fail_at(seed, run, pp5_igc_cycle(ga), "blocks: run_idle stop");
                }
                if (!state_equal(ga, gb))
                    fail_at(seed, run, pp5_igc_cycle(ga), "blocks: state after a burst");
                bursts++;
                c += ran;
                if (until && ran < m)
                    break; /* Busy fell */
                continue;
            }
            pp5_pins pa, pb;
            ls_diag da, db;
            ls_diag_clear(&da);
            ls_diag_clear(&db);
            ls_status sa = pp5_igc_step(ga, c == 0 ? &in : &idle, &pa, &da);
            ls_status sb = pp5_igc_clock_fast(gb, c == 0 ? &in : &idle, &pb, &db);
            if (sa != sb)
                fail_at(seed, run, pp5_igc_cycle(ga) - 1, "blocks: status");
            if (!pins_equal(&pa, &pb))
                fail_at(seed, run, pp5_igc_cycle(ga) - 1, "blocks: host clock pins");
            c++;
        }
    }
    if (!state_equal(ga, gb))
        fail_at(seed, run, pp5_igc_cycle(ga), "blocks: final state");
    assert_true(bursts > (scripted ? 20 : 50) || ended);
    cov.seg += (long)PP5_FAST(gb)->seg_clocks;
    cov.seg_loop += (long)PP5_FAST(gb)->seg_loop_clocks;
    cov.seg_host += (long)PP5_FAST(gb)->seg_host_clocks;
    cov.seg_host_loop += (long)PP5_FAST(gb)->seg_host_loop_clocks;
    cov.seg_go_last += (long)PP5_FAST(gb)->seg_go_last_loops;
    cov.seg_posti_loops += (long)PP5_FAST(gb)->seg_posti_loops;
    cov.seg_postc_loops += (long)PP5_FAST(gb)->seg_postc_loops;
    if (scripted)
        cov.script_warnings += (long)pp5_igc_warning_count(gb);
    cov.bursts += bursts;
    pp5_stream_free(&st);
    ls_buf_free(&b);
    pp5_igc_destroy(ga);
    pp5_igc_destroy(gb);
    free(u);
}

static void test_blocks_library(void **state)
{
    (void)state;
    uint64_t seed = ls_test_seed(0xb10c5eedull);
    memset(&cov, 0, sizeof cov);
    for (int run = 0; run < 12; run++)
        blocks_run(seed, run);
    printf("library streams: %ld bursts, %ld clocks in quiet segments, %ld of them self-loops, "
           "%ld host clocks (%ld in loops), %ld loops starting with a PostI; scripts: %ld "
           "failed host clocks, %ld warnings\n",
           cov.bursts, cov.seg, cov.seg_loop, cov.seg_host, cov.seg_host_loop,
           cov.seg_posti_loops, cov.script_errors, cov.script_warnings);
    /* most idle clocks of the renderer's routines are quiet, many self-loops */
    assert_true(cov.seg > 20000 && cov.seg_loop > 8000);
    /* host clocks in segments; failed host clocks and warnings in scripts */
    /* (fewer since the extra writes before a Go: a bad FBITS there ends a stream) */
    assert_true(cov.seg_host > 100 && cov.script_errors >= 1 && cov.script_warnings > 20);
    /* host runs ending with a Go clocked by loops (igc_fast_seg.c, seg_host_loopable) */
    assert_true(cov.seg_host_loop > 20);
    /* of them, runs after the CSB end at a word that shifts (QLOAD's wait):
     * the loop ends with the Go's clock (igc_fast_seg.c, go_last) */
    printf("%ld host-run loops ending with the Go\n", cov.seg_go_last);
    assert_true(cov.seg_go_last > 10);
    /* loops whose first clock posts the pending instruction (igc_fast_seg.c, posti_first) */
    assert_true(cov.seg_posti_loops > 100);
    /* self-loops whose last clock posts C (igc_fast_seg.c, t_pc) */
    printf("%ld self-loops ending with a PostC\n", cov.seg_postc_loops);
    assert_true(cov.seg_postc_loops > 100);
}

/* The scripts of the library streams in calls of fixed lengths 3 … 6: the
 * segments end at every offset from the events (loops cut by the call's end to
 * four clocks, whose first clock posts I or is a host clock, their records
 * made by the segment's end). */
static void test_blocks_call_lengths(void **state)
{
    (void)state;
    uint64_t seed = ls_test_seed(0xca11ull);
    memset(&cov, 0, sizeof cov);
    for (unsigned len = 3; len <= 6; len++) {
        script_call_len = len;
        blocks_run(seed + len, 1);
        blocks_run(seed + len, 3);
    }
    script_call_len = 0;
    printf("fixed call lengths: %ld clocks in quiet segments, %ld host clocks (%ld in loops), "
           "%ld loops starting with a PostI, %ld ending with a PostC\n",
           cov.seg, cov.seg_host, cov.seg_host_loop, cov.seg_posti_loops, cov.seg_postc_loops);
    assert_true(cov.seg > 10000 && cov.seg_host_loop > 10 && cov.seg_posti_loops > 0 &&
                cov.seg_postc_loops > 0);
}

/* An IGC with options o and the routine u loaded at 0 (asserted). */
static pp5_igc *igc_loaded(const pp5_options *o, const pp5_ucode *u)
{
    pp5_igc *g;
    ls_diag d;
    assert_int_equal(pp5_igc_create(&g, o, &d), LS_OK);
    assert_int_equal(pp5_igc_load_ucode(g, 0, u->words, u->count, &d), LS_OK);
    return g;
}

/* Assemble src (must assemble without errors); the caller frees. */
static pp5_ucode *assemble_ok(const char *src, const char *name)
{
    pp5_ucode *u = calloc(1, sizeof *u);
    assert_non_null(u);
    ls_diag_list errs;
    ls_diag_list_init(&errs);
    assert_int_equal(pp5_uasm(src, strlen(src), name, u, &errs), LS_OK);
    ls_diag_list_free(&errs);
    return u;
}

/* The routine of test_postc_loop_edges and test_host_busy_kinds: an idle
 * word, and at 4 a self-loop counting LC1 down, shifting every clock. */
static pp5_ucode *assemble_self_loop_routine(const char *name)
{
    static const char src[] = "idle: nop cond jmp idle done\n"
                              ".org 4\n"
                              "l:    nop force cnt1 bntc1 l\n"
                              "      nop cond jmp idle done\n";
    return assemble_ok(src, name);
}

/* Self-loops whose last clock posts C (igc_fast_seg.c, t_pc): a loop counter's
 * terminal count or the TRR token arriving in that very clock must keep the
 * clock out of the loop. A routine counting LC1 down in a self-loop that
 * shifts every clock, the next instruction's Go while it loops; the I word's
 * bits 23-30 (LC1 and the FNI exponent: the count, the I token's place and so
 * CSB's length) and FBITS swept, so that TC1 and TRR change at every offset
 * from the CSB fall; scripts against full steps (script_check). */
static void test_postc_loop_edges(void **state)
{
    (void)state;
    pp5_ucode *u = assemble_self_loop_routine("edges");
    pp5_options o;
    pp5_options_default(&o);
    uint64_t seed = ls_test_seed(0xed9e5ull), s = seed;
    enum { BURST = 64 };
    static pp5_pins buf[BURST];
    long bursts = 0, postc_loops = 0;
    for (unsigned fb = 129; fb <= 159; fb += 2) {
        for (unsigned v = 0; v < 256; v++) {
            pp5_igc *ga, *gb;
            ga = igc_loaded(&o, u);
            gb = igc_loaded(&o, u);
            /* P: FBITS; I: UADDR 4, TRREn, QEEMode 01, bits 23-30 */
            const uint32_t w[5] = {1u << 30 | fb << 23, 4u | 1u << 17 | 1u << 18 | v << 23, 0,
                                   4u | 1u << 17 | 1u << 18 | ((v * 37u + 11u) & 0xffu) << 23, 0};
            const pp5_reg r[5] = {PP5_REG_P, PP5_REG_I, PP5_REG_I, PP5_REG_I, PP5_REG_I};
            pp5_igc_item items[12];
            size_t ni = 0;
            memset(items, 0, sizeof items);
            for (int i = 0; i < 5; i++) {
                if (i == 2 || i == 4) { /* Go, then wait */
                    items[ni].kind = PP5_ITEM_HOST;
                    items[ni++].in.go = true;
                    items[ni++].kind = PP5_ITEM_WAIT;
                    continue;
                }
                items[ni].kind = PP5_ITEM_HOST;
                items[ni].in.wr_en = true;
                items[ni].in.t = t_of(&o, r[i]);
                items[ni++].in.d = w[i];
            }
            items[ni].kind = PP5_ITEM_RUN;
            items[ni++].clocks = 300;
            pp5_host_in idle;
            memset(&idle, 0, sizeof idle);
            (void)script_check(seed, (int)(fb * 256 + v), &s, ga, gb, items, ni, &idle, buf,
                               BURST, &bursts);
            postc_loops += (long)PP5_FAST(gb)->seg_postc_loops;
            pp5_igc_destroy(ga);
            pp5_igc_destroy(gb);
        }
    }
    free(u);
    printf("PostC-last edges: %ld self-loops ending with a PostC in %ld script calls\n",
           postc_loops, bursts);
    assert_true(postc_loops > 1000);
}

/* A self-loop entered by an inc (QLOAD's ql2: no branch back before its first
 * clock) is planned from that first clock (igc_fast_seg.c: seg_ctab's branch-back
 * flag is also set into a word that branches to itself). A routine of a word
 * that goes on (force inc) into a counted self-loop that shifts every clock,
 * for LC1 counts of 8 to 70 clocks, in one script call each, against full
 * steps (script_check); and the loop must take every clock of the word but
 * its last (the terminal count's, which branches the other way): the clocks
 * at the word counted on a third IGC by full steps. */
static void test_self_loop_head(void **state)
{
    (void)state;
    static const char src[] = "idle: nop cond jmp idle done\n"
                              ".org 4\n"
                              "      nop force inc\n"
                              "l:    nop force cnt1 bntc1 l\n"
                              "      nop cond jmp idle done\n";
    pp5_ucode *u = assemble_ok(src, "head");
    pp5_options o;
    pp5_options_default(&o);
    uint64_t seed = ls_test_seed(0x4eadull), s = seed;
    enum { BURST = 512 };
    static pp5_pins buf[BURST];
    long bursts = 0, tried = 0;
    const unsigned saved_len = script_call_len;
    script_call_len = BURST; /* (one call: no segment ends inside the loop) */
    for (unsigned c = 0; c < 64; c++) {
        const unsigned v = (124u + c) & 0x7fu; /* LC1: 8 … 71 clocks at l */
        pp5_igc *ga, *gb, *gc;
        ls_diag d;
        ga = igc_loaded(&o, u);
        gb = igc_loaded(&o, u);
        gc = igc_loaded(&o, u);
        /* P: FBITS; I: UADDR 4, QEEMode 01, no TRR token, no MBI, LC1 v */
        pp5_igc_item items[6];
        memset(items, 0, sizeof items);
        items[0].kind = items[1].kind = items[2].kind = PP5_ITEM_HOST;
        items[0].in.wr_en = items[1].in.wr_en = true;
        items[0].in.t = t_of(&o, PP5_REG_P);
        items[0].in.d = 1u << 30 | 140u << 23;
        items[1].in.t = t_of(&o, PP5_REG_I);
        items[1].in.d = 4u | 1u << 18 | v << 23;
        items[2].in.go = true;
        items[3].kind = PP5_ITEM_WAIT;
        items[4].kind = PP5_ITEM_RUN;
        items[4].clocks = 120;
        const size_t ni = 5;
        pp5_host_in idle;
        memset(&idle, 0, sizeof idle);
        (void)script_check(seed, (int)c, &s, ga, gb, items, ni, &idle, buf, BURST, &bursts);
        /* the clocks at l (address 5), by full steps */
        size_t ri = 0;
        uint64_t rdone = 0, at_l = 0;
        for (const pp5_host_in *in; (in = ref_next(items, ni, &ri, &rdone, gc, &idle));) {
            pp5_pins p;
            assert_int_equal(pp5_igc_step(gc, in, &p, &d), LS_OK);
            rdone++;
            at_l += gc->pc_exec == 5;
        }
        assert_true(at_l >= 8);
        if (PP5_FAST(gb)->seg_loop_clocks != at_l - 1) {
            snprintf(why, sizeof why, "LC1 %u: %llu clocks at the loop word, %llu in loops", v,
                     (unsigned long long)at_l, (unsigned long long)PP5_FAST(gb)->seg_loop_clocks);
            fail_at(seed, (int)c, pp5_igc_cycle(gb), "self-loop head: loop clocks");
        }
        tried++;
        pp5_igc_destroy(ga);
        pp5_igc_destroy(gb);
        pp5_igc_destroy(gc);
    }
    script_call_len = saved_len;
    free(u);
    printf("self-loop heads: %ld counts, each looped from its first clock\n", tried);
}

/* An older self-loop's description (igc_fast_seg.c: seg_self_desc, the records of a
 * self-loop left to the segment's end) must not be taken for a later two-word
 * loop's: a description is this loop's only if its first clock k0 is at or
 * after the loop's first clock. Taken wrongly, the host flags of a two-word
 * loop's host clocks go to the description (whose clocks they are not) and
 * not to the records; it shows only when those clocks are among the segment's
 * last four, i.e. the two-word loop ends with a host run's Go at the
 * segment's end (a case the segment runner once missed). A routine of
 * a counted self-loop (LC1) going on into a counted two-word loop (LC2, ~250
 * clocks); the script: P, I, Go, a run of gap idle clocks, then a host run of
 * hm loopable clocks (P writes without FBITS or RMode, I writes) ending with a
 * Go, and idle clocks. Calls of 3 + gap + hm clocks, so the first call (one
 * segment: the self-loop, then the two-word loop) ends with that Go; gap and
 * the self-loop's count swept so that the host run meets the two-word loop's
 * first turns, where a plan is tried at its first clock (a loop takes it at
 * two gaps per count and hm of 4 to 6; the gaps that meet the self-loop
 * instead are the legitimate case, a description made by the loop itself).
 * Against full steps (script_check). */
static void test_desc_two_word_host_end(void **state)
{
    (void)state;
    static const char src[] = "idle: nop cond jmp idle done\n"
                              ".org 4\n"
                              "l:    nop force cnt1 bntc1 l\n"
                              "w:    nop force inc\n"
                              "      nop force cnt2 bntc2 w\n"
                              "      nop cond jmp idle done\n";
    pp5_ucode *u = assemble_ok(src, "desc");
    pp5_options o;
    pp5_options_default(&o);
    uint64_t seed = ls_test_seed(0xde5cull), s = seed;
    enum { BURST = 512 };
    static pp5_pins buf[BURST];
    long bursts = 0, looped = 0, looped4 = 0, runs = 0;
    const unsigned saved_len = script_call_len;
    for (unsigned c = 0; c < 4; c++) {
        const unsigned v = (124u + 6u * c) & 0x7fu; /* LC1: ~8 … 26 clocks at l */
        for (unsigned hm = 3; hm <= 6; hm++) {
            for (unsigned gap = 0; gap < 48; gap++) {
                pp5_igc *ga, *gb;
                ga = igc_loaded(&o, u);
                gb = igc_loaded(&o, u);
                pp5_igc_item items[16];
                size_t ni = 0;
                memset(items, 0, sizeof items);
                /* P: FBITS 140, LC2 115; I: UADDR 4, QEEMode 01, LC1 v; Go */
                items[ni].kind = PP5_ITEM_HOST;
                items[ni].in.wr_en = true;
                items[ni].in.t = t_of(&o, PP5_REG_P);
                items[ni++].in.d = 1u << 30 | 140u << 23 | 115u << 16;
                items[ni].kind = PP5_ITEM_HOST;
                items[ni].in.wr_en = true;
                items[ni].in.t = t_of(&o, PP5_REG_I);
                items[ni++].in.d = 4u | 1u << 18 | v << 23;
                items[ni].kind = PP5_ITEM_HOST;
                items[ni++].in.go = true;
                if (gap) {
                    items[ni].kind = PP5_ITEM_RUN;
                    items[ni++].clocks = gap;
                }
                /* the host run: writes of P (LC2 only) and I, then the Go */
                for (unsigned j = 0; j + 1 < hm; j++) {
                    items[ni].kind = PP5_ITEM_HOST;
                    items[ni].in.wr_en = true;
                    items[ni].in.t = t_of(&o, j & 1u ? PP5_REG_I : PP5_REG_P);
                    items[ni++].in.d = j & 1u ? 4u | 1u << 18 | (v + j) << 23 : (113u + j) << 16;
                }
                items[ni].kind = PP5_ITEM_HOST;
                items[ni++].in.go = true;
                items[ni].kind = PP5_ITEM_RUN;
                items[ni++].clocks = 12;
                pp5_host_in idle;
                memset(&idle, 0, sizeof idle);
                script_call_len = 3 + gap + hm;
                (void)script_check(seed, (int)((c * 8 + hm) * 64 + gap), &s, ga, gb, items, ni,
                                   &idle, buf, BURST, &bursts);
                /* (a loop took the host run, after the self-loop) */
                const bool took = PP5_FAST(gb)->seg_host_loop_clocks >= hm && PP5_FAST(gb)->seg_loops >= 2;
                looped += took;
                looped4 += took && hm >= 4;
                runs++;
                pp5_igc_destroy(ga);
                pp5_igc_destroy(gb);
            }
        }
    }
    script_call_len = saved_len;
    free(u);
    printf("description vs two-word loop: %ld of %ld runs with the host run in a loop (%ld of "
           "them runs of 4 or more), %ld script calls\n",
           looped, runs, looped4, bursts);
    assert_true(looped4 > 20);
}

/* The Busy that a script's host clock sees (in the general clock, from the
 * clock's seg_trans entry: IBsy or CBsy at the clock's start): a write of P
 * and I and a Go a few clocks after a Go — while IBsy is high (before PostI),
 * while only CBsy is (the coefficients still being sent), and after — under
 * each busy-write policy, with a Go while busy a warning or an error. Against
 * full steps (script_check: pins, state, warnings, statuses). */
static void test_host_busy_kinds(void **state)
{
    (void)state;
    pp5_ucode *u = assemble_self_loop_routine("busy");
    uint64_t seed = ls_test_seed(0xb5b1ull), s = seed;
    enum { BURST = 64 };
    static pp5_pins buf[BURST];
    long bursts = 0, warned = 0, failed = 0;
    for (unsigned policy = 0; policy < 4; policy++) {
        pp5_options o;
        pp5_options_default(&o);
        o.busy_write = policy & 1u ? PP5_BUSY_WRITE_ERROR : PP5_BUSY_WRITE_LAST_WINS;
        o.go_while_busy_error = (policy & 2u) != 0;
        for (unsigned gap = 0; gap < 120; gap++) {
            pp5_igc *ga, *gb;
            ga = igc_loaded(&o, u);
            gb = igc_loaded(&o, u);
            const unsigned fb = 129u + 2u * (gap % 16u), v = (gap * 37u + 11u) & 0xffu;
            /* P: FBITS; I: UADDR 4, TRREn, QEEMode 01, bits 23-30 */
            const uint32_t w[2] = {1u << 30 | fb << 23, 4u | 1u << 17 | 1u << 18 | v << 23};
            const pp5_reg r[2] = {PP5_REG_P, PP5_REG_I};
            pp5_igc_item items[16];
            size_t ni = 0;
            memset(items, 0, sizeof items);
            for (int round = 0; round < 3; round++) {
                for (int i = 0; i < 2; i++) {
                    items[ni].kind = PP5_ITEM_HOST;
                    items[ni].in.wr_en = true;
                    items[ni].in.t = t_of(&o, r[i]);
                    items[ni++].in.d = w[i];
                }
                items[ni].kind = PP5_ITEM_HOST;
                items[ni++].in.go = true;
                if (round == 0) { /* the first set posted and being sent */
                    items[ni++].kind = PP5_ITEM_WAIT;
                } else if (round == 1 && gap > 0) { /* the third writes gap clocks after */
                    items[ni].kind = PP5_ITEM_RUN;
                    items[ni++].clocks = gap;
                }
            }
            items[ni++].kind = PP5_ITEM_WAIT;
            items[ni].kind = PP5_ITEM_RUN;
            items[ni++].clocks = 100;
            pp5_host_in idle;
            memset(&idle, 0, sizeof idle);
            failed += !script_check(seed, (int)(policy * 100 + gap), &s, ga, gb, items, ni, &idle,
                                    buf, BURST, &bursts);
            warned += pp5_igc_warning_count(gb) > 0;
            pp5_igc_destroy(ga);
            pp5_igc_destroy(gb);
        }
    }
    free(u);
    printf("host clocks while busy: %ld runs with warnings, %ld ending in an error, %ld script "
           "calls\n",
           warned, failed, bursts);
    assert_true(warned > 20 && failed > 30);
}

/* The loop plans' memo of shapes (igc_fast_seg.c) follows the store and the loop
 * counters: counted loops of one word (LC1, LC2) and of two words run as a
 * script of two instructions — the first with a count far from the terminal
 * one, the second with every count near it (where a loop's first two clocks
 * reach it, which the memo's key must tell apart) and some others; then one
 * of the loop's words (the first, or the second: the shape at the first reads
 * it too) is written again with another word of the same loop form (other
 * pins, other PixMemAddr step) and the script runs again; then the word is
 * put back. Against full steps (script_check). */
static void test_shape_memo(void **state)
{
    (void)state;
    static const struct {
        const char *src;
        unsigned addr, other; /* the loop word rewritten, the word written there */
        bool lc2;             /* the loop counts LC2 (else LC1) */
    } progs[3] = {
        {"idle: nop cond jmp idle done\n"
         ".org 4\n"
         "l:    nop force cnt1 bntc1 l\n"
         "      nop cond jmp idle done\n"
         "      a=t b=0 c=0 mwrt dst+ force cnt1 bntc1 l\n",
         4, 6, false},
        {"idle: nop cond jmp idle done\n"
         ".org 4\n"
         "l:    nop cond inc\n"
         "      nop force cnt1 bntc1 l\n"
         "      nop cond jmp idle done\n"
         "      a=1 b=1 c=1 ldc src+ force cnt1 bntc1 l\n",
         5, 7, false},
        {"idle: nop cond jmp idle done\n"
         ".org 4\n"
         "l:    nop force cnt2 bntc2 l\n"
         "      nop cond jmp idle done\n"
         "      a=t b=0 c=0 mwrt dst+ force cnt2 bntc2 l\n",
         4, 6, true},
    };
    /* the second instruction's count: near the terminal count (TC1: 116,
     * TC2: 0) and elsewhere */
    static const unsigned near1[] = {113, 114, 115, 116, 117, 118, 119, 120, 121, 30, 31};
    static const unsigned near2[] = {125, 126, 127, 0, 1, 2, 3, 4, 5, 30, 31};
    pp5_options o;
    pp5_options_default(&o);
    uint64_t seed = ls_test_seed(0x5a9e3ull), s = seed;
    enum { BURST = 64 };
    static pp5_pins buf[BURST];
    long bursts = 0, plans = 0, shapes = 0;
    for (int prog = 0; prog < 3; prog++) {
        pp5_ucode *u = calloc(1, sizeof *u);
        assert_non_null(u);
        ls_diag_list errs;
        ls_diag_list_init(&errs);
        assert_int_equal(pp5_uasm(progs[prog].src, strlen(progs[prog].src), "memo", u, &errs),
                         LS_OK);
        ls_diag_list_free(&errs);
        const unsigned addr = progs[prog].addr, other = progs[prog].other;
        for (unsigned v = 0; v < sizeof near1 / sizeof near1[0]; v++) {
            pp5_igc *ga, *gb;
            ls_diag d;
            ga = igc_loaded(&o, u);
            gb = igc_loaded(&o, u);
            /* P: FBITS; then twice P (LC2), I (UADDR 4, LC1), Go, wait */
            pp5_igc_item items[12];
            memset(items, 0, sizeof items);
            items[0].kind = PP5_ITEM_HOST;
            items[0].in.wr_en = true;
            items[0].in.t = t_of(&o, PP5_REG_P);
            items[0].in.d = 1u << 30 | 141u << 23;
            for (int i = 0; i < 2; i++) {
                const unsigned lc1 = progs[prog].lc2 || i == 0 ? 40 : near1[v];
                const unsigned lc2 = !progs[prog].lc2 || i == 0 ? 40 : near2[v];
                pp5_igc_item *it = &items[1 + 4 * i];
                it[0].kind = PP5_ITEM_HOST;
                it[0].in.wr_en = true;
                it[0].in.t = t_of(&o, PP5_REG_P);
                it[0].in.d = lc2 << 16;
                it[1].kind = PP5_ITEM_HOST;
                it[1].in.wr_en = true;
                it[1].in.t = t_of(&o, PP5_REG_I);
                it[1].in.d = 4u | lc1 << 23;
                it[2].kind = PP5_ITEM_HOST;
                it[2].in.go = true;
                it[3].kind = PP5_ITEM_WAIT;
            }
            items[9].kind = PP5_ITEM_RUN;
            items[9].clocks = 20;
            pp5_host_in idle;
            memset(&idle, 0, sizeof idle);
            for (int round = 0; round < 3; round++) {
                /* round 1: the loop word replaced; round 2: put back */
                if (round > 0) {
                    const uint32_t w = u->words[round == 1 ? other : addr];
                    assert_int_equal(pp5_igc_load_ucode(ga, addr, &w, 1, &d), LS_OK);
                    assert_int_equal(pp5_igc_load_ucode(gb, addr, &w, 1, &d), LS_OK);
                }
                (void)script_check(seed, (int)(prog * 1000 + v * 10 + round), &s, ga, gb, items,
                                   10, &idle, buf, BURST, &bursts);
            }
            plans += (long)PP5_FAST(gb)->seg_plans;
            shapes += (long)PP5_FAST(gb)->seg_shapes;
            pp5_igc_destroy(ga);
            pp5_igc_destroy(gb);
        }
        free(u);
    }
    printf("shape memo: %ld loop plans, %ld shapes made, in %ld script calls\n", plans, shapes,
           bursts);
    /* (shapes from the memo too: the later plans at a word) */
    assert_true(plans - shapes > 100 && shapes > 100);
}

/* Self-loops in their steady stretches (igc_fast_seg.c, seg_self_clocks()): a
 * counted self-loop that shifts every clock, entered right after the NewL of
 * a Done word that shifts or not (the loop's first three clocks take TrSt from
 * the clocks before it), while the C coefficient of a fresh posting is still
 * being sent, so that the loop runs across the CSB fall at every offset (the
 * column with CSB high, then 0); LC1, FBITS and the coefficient swept.
 * Against full steps (script_check), in long calls. */
static void test_self_loop_stretches(void **state)
{
    (void)state;
    static const char *const src[3] = {
        "idle: nop force jmp idle done\n.org 4\n"
        "l:    a=t b=0 c=0 mwrt dst+ force cnt1 bntc1 l\n"
        "      nop force jmp idle done\n",
        "idle: nop halt jmp idle done\n.org 4\n"
        "l:    a=t b=0 c=0 mwrt dst+ force cnt1 bntc1 l\n"
        "      nop halt jmp idle done\n",
        "idle: nop cond jmp idle done\n.org 4\n"
        "l:    nop force cnt1 bntc1 l\n"
        "      nop cond jmp idle done\n"};
    pp5_options o;
    pp5_options_default(&o);
    uint64_t seed = ls_test_seed(0x5e1f5ull), s = seed;
    enum { BURST = 300 };
    static pp5_pins buf[BURST];
    long bursts = 0, loop_clocks = 0;
    for (int prog = 0; prog < 3; prog++) {
        pp5_ucode *u = calloc(1, sizeof *u);
        assert_non_null(u);
        ls_diag_list errs;
        ls_diag_list_init(&errs);
        assert_int_equal(pp5_uasm(src[prog], strlen(src[prog]), "stretch", u, &errs), LS_OK);
        ls_diag_list_free(&errs);
        for (unsigned fb = 129; fb <= 159; fb += 6) {
            for (unsigned lc = 0; lc < 48; lc++) {
                pp5_igc *ga, *gb;
                ga = igc_loaded(&o, u);
                gb = igc_loaded(&o, u);
                /* P: FBITS; then twice C, I (UADDR 4, QEEMode 01: C only,
                 * LC1), Go, wait */
                pp5_igc_item items[12];
                memset(items, 0, sizeof items);
                items[0].kind = PP5_ITEM_HOST;
                items[0].in.wr_en = true;
                items[0].in.t = t_of(&o, PP5_REG_P);
                items[0].in.d = 1u << 30 | fb << 23;
                for (int i = 0; i < 2; i++) {
                    pp5_igc_item *it = &items[1 + 4 * i];
                    it[0].kind = PP5_ITEM_HOST;
                    it[0].in.wr_en = true;
                    it[0].in.t = t_of(&o, PP5_REG_C);
                    it[0].in.d = random_coef(&s);
                    it[1].kind = PP5_ITEM_HOST;
                    it[1].in.wr_en = true;
                    it[1].in.t = t_of(&o, PP5_REG_I);
                    it[1].in.d = 4u | 1u << 18 | (i ? 2 * lc + 5 : lc) << 23;
                    it[2].kind = PP5_ITEM_HOST;
                    it[2].in.go = true;
                    it[3].kind = PP5_ITEM_WAIT;
                }
                items[9].kind = PP5_ITEM_RUN;
                items[9].clocks = 40;
                pp5_host_in idle;
                memset(&idle, 0, sizeof idle);
                (void)script_check(seed, (int)(prog * 100000 + fb * 100 + lc), &s, ga, gb, items,
                                   10, &idle, buf, BURST, &bursts);
                loop_clocks += (long)PP5_FAST(gb)->seg_loop_clocks;
                pp5_igc_destroy(ga);
                pp5_igc_destroy(gb);
            }
        }
        free(u);
    }
    printf("self-loop stretches: %ld clocks in loops, %ld script calls\n", loop_clocks, bursts);
    assert_true(loop_clocks > 10000);
}

/* A stream built with pp5_stream_append() is the stream its text parses to. */
static void test_stream_append(void **state)
{
    (void)state;
    const char *text = "write P fbits=3 src=1\ncoef A -2.5\nwrite I uaddr=2 qee=const\ngo\nwait\n"
                       "st1 1\nrun 12\ntestoe 1\ntestpe 0\nst2 1\nreset\n";
    pp5_stream t, a;
    ls_diag d;
    assert_int_equal(pp5_stream_parse(text, strlen(text), "t", &t, &d), LS_OK);
    pp5_stream_init(&a, "built");
    static const struct { pp5_action_kind k; pp5_reg r; uint32_t v; } acts[] = {
        {PP5_ACT_WRITE, PP5_REG_P, (132u << 23) | 1u}, /* 129 + FBITS with D30, SRC = 1 */
        {PP5_ACT_WRITE, PP5_REG_A, 0xc0200000u},       /* -2.5f */
        {PP5_ACT_WRITE, PP5_REG_I, 2u | (1u << 18)},
        {PP5_ACT_GO, 0, 0}, {PP5_ACT_WAIT, 0, 0}, {PP5_ACT_ST1, 0, 1}, {PP5_ACT_RUN, 0, 12},
        {PP5_ACT_TESTOE, 0, 1}, {PP5_ACT_TESTPE, 0, 0}, {PP5_ACT_ST2, 0, 1},
        {PP5_ACT_RESET, 0, 0},
    };
    for (size_t i = 0; i < sizeof acts / sizeof acts[0]; i++)
        assert_int_equal(pp5_stream_append(&a, acts[i].k, acts[i].r, acts[i].v, &d), LS_OK);
    assert_int_equal(a.n, t.n);
    for (size_t i = 0; i < t.n; i++) {
        assert_int_equal(a.a[i].kind, t.a[i].kind);
        if (t.a[i].kind == PP5_ACT_WRITE)
            assert_int_equal(a.a[i].reg, t.a[i].reg);
        assert_int_equal(a.a[i].value, t.a[i].value);
    }
    /* the parser's limits */
    assert_int_equal(pp5_stream_append(&a, PP5_ACT_RUN, 0, 100000001u, &d), LS_ERR_ARG);
    assert_int_equal(pp5_stream_append(&a, PP5_ACT_ST1, 0, 2, &d), LS_ERR_ARG);
    assert_int_equal(pp5_stream_append(&a, (pp5_action_kind)99, 0, 0, &d), LS_ERR_ARG);
    assert_int_equal(a.n, t.n);
    pp5_stream_free(&a);
    pp5_stream_free(&t);
}

/* The two bit tricks of igc_fast_*.c, against loops. */
static void test_bit_tricks(void **state)
{
    (void)state;
    for (unsigned v = 0; v < 64; v++) { /* dat6 → bytes */
        uint64_t bytes = (v * 0x0000000810204081ull) & 0x0000010101010101ull;
        for (int k = 0; k < 8; k++)
            assert_int_equal((bytes >> (8 * k)) & 0xffu, k < 6 ? (v >> k) & 1u : 0u);
    }
    uint64_t s = 7;
    for (int i = 0; i < 10000; i++) { /* bytes' bit 0 → bits */
        uint64_t x = rnd(&s);
        unsigned want = 0;
        for (int k = 0; k < 8; k++)
            want |= (unsigned)((x >> (8 * k)) & 1u) << k;
        assert_int_equal(((x & 0x0101010101010101ull) * 0x0102040810204080ull) >> 56, want);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bit_tricks),
        cmocka_unit_test(test_random_differential),
        cmocka_unit_test(test_stream_runner),
        cmocka_unit_test(test_blocks_library),
        cmocka_unit_test(test_blocks_call_lengths),
        cmocka_unit_test(test_postc_loop_edges),
        cmocka_unit_test(test_self_loop_head),
        cmocka_unit_test(test_host_busy_kinds),
        cmocka_unit_test(test_desc_two_word_host_end),
        cmocka_unit_test(test_shape_memo),
        cmocka_unit_test(test_self_loop_stretches),
        cmocka_unit_test(test_stream_append),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
