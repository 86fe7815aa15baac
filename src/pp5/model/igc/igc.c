/* The IGC top level: wires the eight modules of seed 003 §IV.3.3 and advances
 * one clock per pp5_igc_step(). The order inside a clock is pp5.md §4.8:
 * host inputs presented in clock n act at the end of n. */
#include "pp5/model/igc/igc_internal.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void pp5_options_default(pp5_options *o)
{
    memset(o, 0, sizeof *o);
    for (int i = 0; i < 8; i++) {
        o->seq_table[i] = (pp5_seq_op)i; /* */
        o->reg_of_t[i] = (uint8_t)i;     /* */
    }
    o->rmode_exit_on_p = true;           /* */
    o->rmode_shift = true;               /* */
    o->msb_token = PP5_MSB_TOKEN_MBI_ONLY; /* */
    o->trr_fixed_stages = 24;            /* */
    o->busy_write = PP5_BUSY_WRITE_ERROR; /* */
    o->go_while_busy_error = false;      /* */
    o->warn_reserved_bits = true;        /* */
    o->clock_hz = 40e6;                  /* */
    o->rmode_write_needs_c = true;       /* A-7 (variant, docs/assumptions.md) */
}

void pp5_igc_warn(pp5_igc *g, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *slot = g->warn[g->nwarn % PP5_MAX_WARNINGS];
    int n = snprintf(slot, sizeof g->warn[0], "cycle %llu: ", (unsigned long long)g->cycle);
    if (n < 0)
        n = 0;
    vsnprintf(slot + n, sizeof g->warn[0] - (size_t)n, fmt, ap);
    va_end(ap);
    g->nwarn++;
}

size_t pp5_igc_warning_count(const pp5_igc *g) { return g->nwarn; }
size_t pp5_igc_warnings_kept(const pp5_igc *g)
{
    return g->nwarn < PP5_MAX_WARNINGS ? g->nwarn : PP5_MAX_WARNINGS;
}
const char *pp5_igc_warning(const pp5_igc *g, size_t i)
{
    size_t first = g->nwarn > PP5_MAX_WARNINGS ? g->nwarn - PP5_MAX_WARNINGS : 0;
    if (i >= g->nwarn - first)
        return NULL;
    return g->warn[(first + i) % PP5_MAX_WARNINGS];
}

static ls_status check_options(const pp5_options *o, ls_diag *d)
{
    bool seen[8] = {false};
    for (int i = 0; i < 8; i++) {
        if ((unsigned)o->seq_table[i] > 7 || seen[o->seq_table[i]])
            return ls_diag_set(d, LS_ERR_ARG, NULL, 0, 0,
                               "pp5 options: seq_table must be a permutation of the 8 behaviours");
        seen[o->seq_table[i]] = true;
    }
    bool rs[8] = {false};
    for (int i = 0; i < 8; i++) {
        if (o->reg_of_t[i] > 7 || rs[o->reg_of_t[i]])
            return ls_diag_set(d, LS_ERR_ARG, NULL, 0, 0,
                               "pp5 options: reg_of_t must be a permutation of I,P,A..F");
        rs[o->reg_of_t[i]] = true;
    }
    if (o->trr_fixed_stages < 23 || o->trr_fixed_stages > 33)
        return ls_diag_set(d, LS_ERR_ARG, NULL, 0, 0,
                           "pp5 options: trr_fixed_stages must be 23..33 (seed: 24)");
    return LS_OK;
}

void pp5_igc_reset(pp5_igc *g)
{
    /* everything but the store, the options and the hooks (the accelerator
     * resets its own state: its reset hook) */
    uint32_t saved[PP5_UCODE_WORDS];
    memcpy(saved, g->seq.ucode, sizeof saved);
    uint16_t nonzero = g->seq.nonzero;
    pp5_options opt = g->opt;
    const pp5_igc_hooks *hooks = g->hooks;
    memset(g, 0, sizeof *g);
    g->opt = opt;
    g->hooks = hooks;
    memcpy(g->seq.ucode, saved, sizeof saved);
    g->seq.nonzero = nonzero;
    pp5_controller_reset(&g->ctl);
    pp5_serializer_init(&g->ser);
    if (hooks)
        hooks->reset(g);
}

ls_status pp5_igc_model_init(pp5_igc *g, const pp5_options *opt, const pp5_igc_hooks *hooks,
                             ls_diag *d)
{
    pp5_options def;
    if (!opt) {
        pp5_options_default(&def);
        opt = &def;
    }
    ls_status st = check_options(opt, d);
    if (st != LS_OK)
        return st;
    memset(g, 0, sizeof *g); /* (the store: all 0) */
    g->opt = *opt;
    g->hooks = hooks;
    return LS_OK;
}

void pp5_igc_set_status(pp5_igc *g, bool st1, bool st2)
{
    g->st1 = st1;
    g->st2 = st2;
}

bool pp5_igc_busy(const pp5_igc *g) { return g->ctl.ibsy || g->ctl.cbsy; }
uint64_t pp5_igc_cycle(const pp5_igc *g) { return g->cycle; }

ls_status pp5_igc_load_ucode(pp5_igc *g, size_t addr, const uint32_t *w, size_t n, ls_diag *d)
{
    if (addr > PP5_UCODE_WORDS || n > PP5_UCODE_WORDS - addr)
        return ls_diag_set(d, LS_ERR_RANGE, NULL, 0, 0,
                           "microcode words %zu..%zu outside the 416-word store", addr,
                           addr + n - 1);
    for (size_t i = 0; i < n; i++)
        pp5_igc_store_write(g, (unsigned)(addr + i), w[i]);
    return LS_OK;
}

/* Every write of the store goes through here, so the accelerator's
 * pre-decoded word follows (its store_written hook). */
void pp5_igc_store_write(pp5_igc *g, unsigned addr, uint32_t w)
{
    if (g->seq.ucode[addr] == w)
        return; /* uop[addr] already decodes w */
    g->seq.nonzero = (uint16_t)(g->seq.nonzero + (w != 0) - (g->seq.ucode[addr] != 0));
    g->seq.ucode[addr] = w;
    if (g->hooks)
        g->hooks->store_written(g, addr);
}

uint32_t pp5_igc_ucode(const pp5_igc *g, size_t addr)
{
    return addr < PP5_UCODE_WORDS ? g->seq.ucode[addr] : 0;
}

static const char *const reg_names = "IPABCDEF";

/* A register write, applied at the end of the clock. The fields are
 * "latched by whichever module owns them" (seed, InputLatch). Returns false
 * when the write is a host error the caller must report. */
static inline __attribute__((always_inline)) ls_status host_write(pp5_igc *g, pp5_reg r, uint32_t v,
                                                             ls_diag *d)
{
    switch (r) {
    case PP5_REG_I:
        /* UADDR = I<0:8>, DST = I<9:16>; seed: TRREn 17, QEEMode 18-19,
         * MBI 22, LC1 23-29, FNI exponent 23-30. */
        g->seq.uaddr_word = v & 0x1ffu;
        g->pma.word[PP5_CTR_DST] = (v >> 9) & 0xffu;
        g->lc.lc1_word = (v >> 23) & 0x7fu;
        pp5_serializer_write_i(&g->ser, v);
        if (g->opt.warn_reserved_bits && (v & 0x80300000u))
            pp5_igc_warn(g, "I word 0x%08x sets reserved bits 20, 21 or 31 (A-4)", v);
        if (((v >> 22) & 1u) && ((v >> 18) & 3u) == 0)
            pp5_igc_warn(g, "I word 0x%08x: MBI with QEEMode 00 is an illegal opcode (seed, ILatch)", v);
        break;
    case PP5_REG_P:
        /* SRC = P<0:7>, AUX = P<8:15>; seed: LC2 16-22, FBITS 23-30, RMode 31. */
        g->pma.word[PP5_CTR_SRC] = v & 0xffu;
        g->pma.word[PP5_CTR_AUX] = (v >> 8) & 0xffu;
        g->lc.lc2_word = (v >> 16) & 0x7fu;
        if ((v >> 30) & 1u) {
            if (!pp5_serializer_load_fbits(&g->ser, v))
                return ls_diag_set(d, LS_ERR_FAULT, NULL, 0, 0,
                                   "P write 0x%08x: FBITS field %u is outside 129..159 "
                                   "(seed, ExpDec: \"will cause logical failure of the IGC\")",
                                   v, (v >> 23) & 0xffu);
        }
        /* "When the P register is written with D31HTPR = 1, the IGC enters RMode" */
        if (v >> 31)
            g->ctl.rmode = true;
        else if (g->opt.rmode_exit_on_p)
            g->ctl.rmode = false;
        break;
    default:
        break;
    }
    if (r >= PP5_REG_A && r != PP5_REG_C && !g->ctl.rmode) {
        /* ExpDec maps too-large exponents to Dec64 (value 0), which the seed
         * calls "non-sensical results"; the host should know. C is left out: it
         * also carries DirectReg integers and microcode words. */
        unsigned ef = (v >> 23) & 0xffu;
        if (ef == 255 || ef + g->ser.fbits_reg > 191)
            pp5_igc_warn(g, "coefficient %c = 0x%08x: exponent above 63 - FBITS (or Inf/NaN) "
                            "is serialized as 0 (seed, ExpDec; A-20)", reg_names[r], v);
    }
    switch (r) {
    case PP5_REG_I:
    case PP5_REG_P:
        break;
    case PP5_REG_C:
        g->dr.word = v; /* DirectReg: "WordLatch is loaded on a write to the C register" */
        g->c_fresh = true;
        pp5_serializer_write_coef(&g->ser, PP5_COEF_C, v);
        break;
    case PP5_REG_A: pp5_serializer_write_coef(&g->ser, PP5_COEF_A, v); break;
    case PP5_REG_B: pp5_serializer_write_coef(&g->ser, PP5_COEF_B, v); break;
    case PP5_REG_D: pp5_serializer_write_coef(&g->ser, PP5_COEF_D, v); break;
    case PP5_REG_E: pp5_serializer_write_coef(&g->ser, PP5_COEF_E, v); break;
    case PP5_REG_F: pp5_serializer_write_coef(&g->ser, PP5_COEF_F, v); break;
    }
    return LS_OK;
}


/* PostI: the instruction moves from input latching to pending. */
void pp5_igc_post_i(pp5_igc *g)
{
    /* "the starting microcode address, the starting pixel-memory addresses,
     * and the initial counts for the loop counters are passed to another set
     * of latches" (and DirectReg's PostILatch). */
    g->seq.uaddr_post = g->seq.uaddr_word;
    for (int i = 0; i < 3; i++)
        g->pma.post[i] = g->pma.word[i];
    g->lc.lc1_post = g->lc.lc1_word;
    g->lc.lc2_post = g->lc.lc2_word;
    g->dr.post = g->dr.word;
    g->ctl.ibsy = false;
    /* in RMode the posted C word (PostILatch → WrData) is written into
     * the store at the posted start address. */
    if (g->ctl.rmode && g->seq.uaddr_word < PP5_UCODE_WORDS &&
        (g->c_fresh || !g->opt.rmode_write_needs_c))
        pp5_igc_store_write(g, g->seq.uaddr_word, g->dr.word);
    g->c_fresh = false;
}

/* The host side of a clock (InputLatch → modules), at the end of the clock
 * . busy: the Busy the host saw when it drove this clock's inputs. */
/* (always inlined into its two callers below: the quiet run's Busy, a
 * constant, then drops the busy branches) */
static inline __attribute__((always_inline)) ls_status
host_side(pp5_igc *g, const pp5_host_in *hi, bool busy, ls_diag *d)
{
    ls_status st = LS_OK;
    if (hi->test_pe && hi->wr_en)
        pp5_igc_warn(g, "write with TestPE asserted: D pads are outputs (seed, InputLatch)");
    if (hi->reset) {
        /* "the reset signal, ResetHSP1, also forces the IGC into RMode" and the
         * Controller to its quiescent state. */
        /* The state is reset; the signals of this clock (Shift, PostI, PostC;
         * NewL) were driven and acted in it, so they stay what they were. */
        const bool shift = g->ctl.shift, post_i = g->ctl.post_i, post_c = g->ctl.post_c;
        pp5_controller_reset(&g->ctl);
        g->ctl.shift = shift;
        g->ctl.post_i = post_i;
        g->ctl.post_c = post_c;
    } else {
        if (hi->wr_en) {
            pp5_reg r = (pp5_reg)g->opt.reg_of_t[hi->t & 7u];
            bool rmode_entry = r == PP5_REG_P && (hi->d >> 31);
            if (busy && !rmode_entry) {
                /* seed, Controller: Busy "signals the inputting device that no more
                 * data may be written into the IGC at this time". */
                if (g->opt.busy_write == PP5_BUSY_WRITE_ERROR && st == LS_OK)
                    st = ls_diag_set(d, LS_ERR_FAULT, NULL, 0, 0,
                                     "write to %c while Busy (host protocol, A-26)",
                                     reg_names[r]);
                else
                    pp5_igc_warn(g, "write to %c while Busy; last write wins (A-26)",
                                 reg_names[r]);
            } else if (busy) {
                pp5_igc_warn(g, "P write entering RMode while Busy (hung-IGC recovery)");
            }
            ls_status ws = host_write(g, r, hi->d, st == LS_OK ? d : NULL);
            if (ws != LS_OK && st == LS_OK)
                st = ws;
        }
        if (hi->go) {
            if (busy) {
                if (g->opt.go_while_busy_error && st == LS_OK)
                    st = ls_diag_set(d, LS_ERR_FAULT, NULL, 0, 0,
                                     "Go while Busy (host protocol, A-26)");
                else
                    pp5_igc_warn(g, "Go while Busy ignored (A-26)");
            } else {
                /* "the inputting device asserts GoLLPR; this causes IBsyHSP1 and
                 * CBsyHSP1 to be asserted" */
                g->ctl.ibsy = true;
                g->ctl.cbsy = true;
                /* nothing loaded: the IGC would run all-zero words (no Done)
                 * until the caller's cycle cap */
                if (g->seq.nonzero == 0)
                    pp5_igc_warn(g, "Go with an empty microcode store (no word loaded): "
                                    "the IGC never finishes");
            }
        }
    }
    return st;
}

ls_status pp5_igc_host_side(pp5_igc *g, const pp5_host_in *hi, bool busy, ls_diag *d)
{
    return host_side(g, hi, busy, d);
}

/* The full step: every module struct and named signal, clock by clock. The
 * accelerator's fast step (src/pp5/accel/igc_fast_*.c) must give the same pins,
 * state and warnings. */
ls_status pp5_igc_step(pp5_igc *g, const pp5_host_in *in, pp5_pins *pins, ls_diag *d)
{
    ls_status st = LS_OK;
    if (g->hooks)
        g->hooks->model_step(g); /* the module structs current; the accelerator's form lags */
#ifdef PP5_PLANTED_FIELD /* tests/pp5/test_igc_planted.c: a field the fast step misses */
    g->ctl.planted = (uint8_t)(g->cycle | 1u);
#endif
    /* the Busy the host saw when it decided to drive this clock's inputs */
    bool busy = pp5_igc_busy(g);
    pp5_inputlatch_clock(&g->il, in, g->st1, g->st2);
    const pp5_host_in *hi = &g->il.in;

    /* ---- Sequencer: Memory read ---- */
    bool exists;
    uint32_t uw = pp5_sequencer_read(&g->seq, g->seq.pc, &exists);
    if (!exists)
        pp5_igc_warn(g, "microcode address %u does not exist (416-word store); read as 0",
                     g->seq.pc);
    g->uw = uw;
    g->pc_exec = g->seq.pc;
    g->rd_data = uw; /* RdData<0:31>HSP1 */
    bool done = uw & PP5_UW_DONE;

    /* ---- LoopCount ---- */
    pp5_loopcount_clock(&g->lc, done, uw & PP5_UW_CNT1, uw & PP5_UW_CNT2);

    /* ---- Serializer TRR, Controller Shift, Sequencer next address ---- */
    bool trr = pp5_serializer_trr(&g->ser, &g->opt);
    g->ser.trr.trr = trr;
    g->ctl.shift = pp5_controller_shift(&g->ctl, &g->opt, uw, trr);
    /* "NewLSP1 is asserted when DoneHSP1 … and IPHSP1 = 1 … also unconditionally
     * asserted if RModeHSP1 is asserted." */
    bool new_l = g->ctl.rmode || (done && g->ctl.ip);
    uint16_t pc_next = pp5_sequencer_next(&g->seq, &g->opt, uw, new_l, g->lc.tc1, g->lc.tc2,
                                          g->il.st1, g->il.st2, trr);

    /* ---- PixMemAddr, DirectReg ---- */
    uint8_t addr = pp5_pixmemaddr_clock(&g->pma, PP5_UW_PMA(uw), done);
    bool aludat = pp5_directreg_clock(&g->dr, uw & PP5_UW_DIREN, new_l);

    /* ---- Controller: posting ---- */
    bool csb = pp5_serializer_csb(&g->ser);
    bool post_c = pp5_controller_post_c(&g->ctl, g->ctl.rmode ? false : csb, g->ctl.shift);
    bool post_i = pp5_controller_post_i(&g->ctl);
    g->ctl.post_c = post_c;
    g->ctl.post_i = post_i;

    /* ---- Serializer clock ---- */
    pp5_serializer_clock(&g->ser, &g->opt, g->ctl.shift, post_c);
    if (post_c)
        g->ctl.cbsy = false;
    if (post_i)
        pp5_igc_post_i(g);
    /* IP: "an RS flip-flop which is set by PostI and cleared by NewLSP1"; a NewL
     * in the clock of a PostI concerns the previously pending instruction. */
    if (post_i)
        g->ctl.ip = true;
    else if (new_l)
        g->ctl.ip = false;
    g->ctl.post_i_prev = post_i;
    g->ctl.post_c_prev = post_c;
    g->seq.pc = pc_next;

    /* ---- OutputLatch ---- */
    pp5_ol_src src = {0};
    src.valid = true;
    src.uw = uw;
    src.dir_en = uw & PP5_UW_DIREN;
    src.aludat = aludat;
    src.rmode = g->ctl.rmode;
    src.shift = g->ctl.shift;
    src.addr = addr;
    for (int k = 0; k < 6; k++)
        src.dat[k] = g->ser.cg[k].dat;
    src.lsb = g->ser.cl.lsb;
    pp5_pins p;
    memset(&p, 0, sizeof p);
    p.cycle = g->cycle;
    pp5_outputlatch_clock(&g->ol, &src, &p);

    /* ---- host side of the clock (InputLatch → modules), end of clock ---- */
    st = pp5_igc_host_side(g, hi, busy, d);
    p.busy = pp5_igc_busy(g);
    /* Test mode: "TestOE … causing Sequencer to assert the current microcode
     * word, RdData<0:31>HSP1, onto D<0:31>HSP2"; TestPE drives it off-chip. */
    p.d_out_en = hi->test_pe;
    p.d_out = hi->test_oe ? g->rd_data : hi->d;
    g->last_pins = p;
    if (pins)
        *pins = p;
    if (st != LS_OK && d)
        ls_diag_at_index(d, (long)g->cycle);
    g->cycle++;
    return st;
}

ls_status pp5_igc_write(pp5_igc *g, pp5_reg reg, uint32_t value, pp5_pins *pins, ls_diag *d)
{
    pp5_host_in in = {0};
    in.st1 = g->st1;
    in.st2 = g->st2;
    in.wr_en = true;
    for (int t = 0; t < 8; t++)
        if (g->opt.reg_of_t[t] == reg)
            in.t = (uint8_t)t;
    in.d = value;
    return pp5_igc_step(g, &in, pins, d);
}

ls_status pp5_igc_go(pp5_igc *g, pp5_pins *pins, ls_diag *d)
{
    pp5_host_in in = {0};
    in.st1 = g->st1;
    in.st2 = g->st2;
    in.go = true;
    return pp5_igc_step(g, &in, pins, d);
}
