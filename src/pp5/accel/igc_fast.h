/* Pixel-Planes 5 IGC accelerator (igc_fast_*.c): the same clocks as the model
 * (src/pp5/model/igc, pp5_igc_step) with less work per clock. Its state wraps
 * the model's: struct pp5_igc_fast holds the model first, then the compact
 * forms, tables, memo, staleness flags and counters the fast step keeps; the
 * model calls it only through the hooks it installs at creation
 * (pp5_igc_hooks). Depends on the model, never the reverse. Not a public
 * header. */
#ifndef LOCKSTEP_PP5_ACCEL_IGC_FAST_H
#define LOCKSTEP_PP5_ACCEL_IGC_FAST_H
#include "pp5/model/igc/igc_internal.h"

/* ---- same clocks, compact hot state ----
 * The module structs above are the model of record. pp5_igc_step_fast() keeps
 * everything in them up to date except the Serializer's per-shift fields and the
 * OutputLatch history, which it keeps in the compact form below and writes back
 * (pp5_igc_sync()) only when someone looks: the full step, a signal read. */

/* A microword decoded once per store address (DESIGN.md: pre-decode), redone
 * whenever the store is written (pp5_igc_store_write, pp5_igc_load_ucode). */
typedef struct pp5_uop {
    uint8_t alu[2][16];     /* pins bytes acmp…redundant as driven (ACmp before the
                             * DirEn XNOR), for RMode 0 / 1; byte 15 is 0 */
    uint32_t uw;
    uint32_t pulldown;      /* AddrGen pull-down, bit (tc1 | tc2<<1 | trr<<2 | st1<<3 | st2<<4) */
    uint16_t braddr;
    uint8_t shift;          /* Shift, bit (rmode << 1 | trr) */
    uint8_t done, cnt1, cnt2, dir_en;
    uint8_t pma_ctr;        /* PP5_CTR_* issued by the PMA code */
    uint8_t pma_step;       /* +1, 0 or 0xff (-1), mod 256 */
    uint8_t pair;           /* bit r: AddrH = ~AddrL for this word in RMode r */
    uint8_t exists;         /* address < 416 */
    /* the same PixMemAddr step on the three counters as one word (byte k =
     * counter k): the counter's byte, the step there; and the Pair decision of
     * RMode 0 as a byte (0 or 0xff: AddrH = AddrL ^ it) — for igc_fast_seg.c */
    uint8_t ctr_sa;
    uint32_t ctr_mask, ctr_add;
    uint8_t pair0;
    /* seg_ctab's row for this address is made, for the levels seg_ctab_st
     * (igc_fast_seg.c: rows are made on a word's first use in a segment; cleared by
     * every decode and when the levels change). Only for an existing word: the
     * general clock tests this one byte for both. */
    uint8_t ctab_ok;
    uint8_t pad[2];         /* 64 bytes: indexing is a shift */
} pp5_uop;
void pp5_uop_decode(pp5_igc *g, pp5_uop *u, uint32_t uw, bool exists);

/* One phase of a loop in closed form (igc_fast_seg.c: seg_loop_plan(), seg_loop_run()):
 * what one of its words does at every clock of that phase. */
typedef struct pp5_seg_phase {
    uint64_t alu_lo, alu_hi;    /* pins bytes 8..23 as the word drives them */
    uint64_t a;                 /* seg_rec.a but ALUDat, CSB, Addr, the LSB token */
    uint32_t ctr_mask, ctr_add; /* PixMemAddr: the counter's byte, the step there */
    uint8_t dir, pair, sh, ctr_sa, cnt1, cnt2;
} pp5_seg_phase;

/* The part of a loop plan made at address a that depends only on the store,
 * the status levels, TRR and the loop counters' classes (igc_fast_seg.c:
 * seg_plan_shape()): which words loop, and their phases but for the parts
 * that depend on the rest of the state (the pins' Busy/TestPE/D word, the LSB
 * token: the plan's, seg_plan). */
typedef struct pp5_seg_shape {
    pp5_seg_phase ph[2];
    uint32_t uw[2];             /* the words (TestOE drives them on the D pads) */
    uint8_t period;             /* 1: a self-loop, 2: two words, 0: no loop */
} pp5_seg_shape;

/* One clock as the fast step records it: the OutputLatch sources (pp5_ol_src)
 * and the signals of the clock that nothing but an observer reads (rebuilt by
 * the unpack). Bytes, not bit flags: each is one store of a value already in
 * a register. */
typedef struct pp5_olrec {
    pp5_host_in in;         /* the clock's host inputs (InputLatch; Reset also
                             * cleared the Controller at the clock's end) */
    uint32_t uw;
    uint16_t pc;            /* the word's address */
    uint8_t addr;           /* PixMemAddr address */
    uint8_t dat_bits;       /* *DatLSP2, bit k (pp5_ol_src.dat) */
    bool valid, dir_en, aludat, rmode, shift, lsb, pair;
    bool trr, new_l, branch, post_c, post_i, csb, msin, tc1, tc2;
} pp5_olrec;

/* The copies between the record and the module structs, made from lists so
 * that pack and unpack (igc_fast_clock.c) cannot disagree:
 *  - the OutputLatch sources: every field of PP5_OL_SRC_STATE, the record's
 *    field of the same name (a bool array: the bits of <name>_bits); a field
 *    added to the list is copied both ways, or the record lacks it (a compile
 *    error);
 *  - the last clock's signals and inputs: PP5_OLREC_LAST, record field and
 *    model field. */
#define PP5_OLREC_FROM_V(t, f, n) r->f = h->f;
#define PP5_OLREC_FROM_A(t, f, n)                                                      \
    r->f##_bits = 0;                                                                   \
    for (unsigned j_ = 0; j_ < (n); j_++)                                              \
        r->f##_bits |= (uint8_t)((unsigned)h->f[j_] << j_);
#define PP5_OLREC_FROM(k, t, f, n, sig) PP5_OLREC_FROM_##k(t, f, n)
#define PP5_OLREC_TO_V(t, f, n) h->f = r->f;
#define PP5_OLREC_TO_A(t, f, n)                                                        \
    for (unsigned j_ = 0; j_ < (n); j_++)                                              \
        h->f[j_] = (r->f##_bits >> j_) & 1u;
#define PP5_OLREC_TO(k, t, f, n, sig) PP5_OLREC_TO_##k(t, f, n)
#define PP5_OLREC_LAST(X)                                                              \
    X(in, il.in) X(uw, uw) X(pc, pc_exec) X(trr, ser.trr.trr) X(new_l, seq.new_l)      \
    X(branch, seq.branch) X(post_c, ctl.post_c) X(post_i, ctl.post_i)                  \
    X(csb, ser.cl.csb) X(msin, ser.cl.msin) X(tc1, lc.tc1) X(tc2, lc.tc2)
#define PP5_OLREC_LAST_FROM(rf, mf) r0->rf = g->mf;
#define PP5_OLREC_LAST_TO(rf, mf) g->mf = r0->rf;

/* The Serializer's per-shift state, as a function of s = shift clocks since the
 * last posting (or since the compact form was taken from the module structs):
 * each token is at tok0 + s (saturating), each busy latch clears at a known s,
 * CSB is s < csb_until, and the CoefGate input bits of all six coefficients are
 * precomputed for every s (blk: byte k of blk[s >> 3] holds coefficient k's bits
 * for s = 8j … 8j + 7, bit s & 7). */
typedef struct pp5_ser_fast {
    uint32_t sc;            /* shift clocks since the base (saturating) */
    uint32_t csb_until;
    uint32_t bits_sent0;
    uint32_t clear_at[7];   /* s at which busy latch k clears */
    int16_t tok0[7];        /* token stages at the base (CoefSer ×6, ITok) */
    uint8_t sone0, bsy0;    /* SOne and busy latches at the base (bit k) */
    uint16_t so6;           /* CoefGate TokStage (bit k) | ShiftStage (bit 8 + k): one
                             * word, stored and loaded as one by every clock */
    uint8_t bit6;           /* *Bit of the clock before cycle bit6_at (a posting or a
                             * pack: not a function of s) */
    uint64_t bit6_at;
    uint64_t x[6];          /* raw CoefSer bits: bit s = the bit with the token at tok0 + s */
    uint64_t blk[16];       /* gated CoefGate input bits by s (see above); 8…15: the tail */
} pp5_ser_fast;

/* The accelerated IGC: the model, then the accelerator's own state (every
 * pp5_igc that pp5_igc_create() makes is one of these). */
typedef struct pp5_igc_fast {
    pp5_igc m;                  /* the model (first: a pp5_igc * is one of these) */
    bool model_only;            /* PP5_ENGINE_MODEL: runners take the full step only */
    bool fast_stale;            /* fs/olr do not reflect the module structs: pack first */
    bool mod_stale;             /* the module structs' Serializer hot fields, ol.hist and
                                 * the last clock's signals do not reflect fs/olr:
                                 * pp5_igc_sync() first */
    pp5_olrec olr[4];           /* olr[c & 3]: clock c (the last: hist[0]) */
    /* pins_ring[c & 3]: the pins of clock c, built ahead by the clocks they
     * come from: acmp…lsb by c-2, AddrL/AddrH by c-1, TrSt by c-3 */
    pp5_pins pins_ring[4];
    pp5_ser_fast fs;
    pp5_host_in run_in;         /* pp5_igc_run_idle(): its idle inputs, T masked */
    int trr_top;                /* pp5_trr_top(&opt) */
    bool msin_always;           /* opt.msb_token == PP5_MSB_TOKEN_ALWAYS */
    uint64_t trr_mask, trr_msin_bit;
    /* clocks pp5_igc_run_idle() ran as quiet segments, and of them in the
     * self-loop form (igc_fast_seg.c; for the tests' coverage checks) */
    uint64_t seg_clocks, seg_loop_clocks;
    uint64_t seg_host_clocks;   /* host clocks run inside segments (run_script) */
    uint64_t seg_host_loop_clocks; /* of them, inside loops in closed form */
    uint64_t seg_go_last_loops; /* loops of a host run ending with the Go's clock (CSB low) */
    uint64_t seg_posti_loops;   /* loops whose first clock posts I */
    uint64_t seg_postc_loops;   /* self-loops whose last clock posts C */
    uint64_t seg_plans, seg_loops; /* loop plans made, loops run (for the bench) */
    uint64_t seg_shapes;        /* of the plans, those whose shape was not in the memo */
    /* seg_ctab rows made, and made rows dropped by a store write or a change
     * of the status levels (for the tests' coverage checks) */
    uint64_t seg_ctab_rows, seg_ctab_drops;
    /* ---- the pre-decoded store: a function of the store and the options,
     * which pp5_igc_reset() keeps, so it keeps these too (not cleared: made
     * by pp5_igc_create(), then kept current by every store write) ---- */
    pp5_uop uop[512];           /* per store address (416…511: no word line) */
    /* The quiet segments' general clock as two table look-ups (igc_fast_*.c):
     * seg_ctab[a * 32 + x]: what the word at a does in RMode 0 with the status
     * levels seg_ctab_st, for the loop counters and TRR coded in x (igc_fast_*.c) — its
     * record bits, next address and whether that is a branch back — made
     * from uop[a] on the word's first use by a segment after a store write
     * or a change of the levels (uop[a].ctab_ok). (With seg_trans, a constant table of
     * igc_fast_*.c: the Controller's and the CSBLatch's next control state and the
     * clock's signal bits, for every control state × Shift, CSB, CSB's last
     * shift and Done.) */
    uint64_t seg_ctab[512 * 32];
    unsigned seg_ctab_st;       /* the status levels seg_ctab is for (> 3: none yet) */
    /* pp5_uop_decode(): the AddrGen pull-down of a word by its Seq field
     * (bit f of seq_pulldown_ok: seq_pulldown[f] made) */
    uint32_t seq_pulldown[8];
    uint8_t seq_pulldown_ok;
    /* The loop plans' memo (igc_fast_loop.h, seg_loop_plan()): seg_shape[a] is the
     * shape of the last plan made at address a, for the conditions coded in
     * seg_shape_key[a] (0: none). Every decode of a word clears all keys (the
     * shape reads the word after a too), pp5_igc_create() included. */
    uint16_t seg_shape_key[512];
    pp5_seg_shape seg_shape[512];
} pp5_igc_fast;
/* The accelerator's state of g (every pp5_igc is a pp5_igc_fast; const kept). */
#define PP5_FAST(g)                                                                    \
    _Generic((g), const pp5_igc *: (const pp5_igc_fast *)(const void *)(g),             \
             pp5_igc *: (pp5_igc_fast *)(void *)(g))

void pp5_igc_fast_decode_all(pp5_igc *g); /* at creation: uop[] for the whole store */
void pp5_igc_fast_init(pp5_igc *g);     /* after reset: derived constants */
void pp5_igc_fast_word(pp5_igc *g, unsigned addr); /* decode the store word at addr again */
void pp5_igc_fast_pack(pp5_igc *g);     /* module structs → compact */
void pp5_igc_fast_unpack(pp5_igc *g);   /* compact → module structs */
/* The fast clock; in is not NULL (pp5_igc_step_fast() supplies the idle inputs). */
ls_status pp5_igc_clock_fast(pp5_igc *g, const pp5_host_in *in, pp5_pins *pins, ls_diag *d);
/* Up to n clocks with the idle inputs *idle (no WrEn, Go, Reset or TestPE:
 * the caller checks), each exactly pp5_igc_clock_fast(g, idle, …). Stops
 * before a clock when until_not_busy and Busy is low, and after a clock whose
 * callback fn read the named signals (g->signals_read). fn (may be NULL) is
 * called after every clock with its pins; pins_out, if not NULL, gets the
 * pins of clock k in pins_out[k]. Returns the number of clocks run. Without
 * fn, the clocks run as quiet segments (igc_fast_seg.c, seg_run()): the same clocks,
 * the same pins and state, with the state in locals between the events. */
typedef void (*pp5_igc_clock_cb)(void *user, const pp5_igc *g, const pp5_pins *pins);
uint64_t pp5_igc_run_idle(pp5_igc *g, const pp5_host_in *idle, uint64_t n, bool until_not_busy,
                          pp5_igc_clock_cb fn, void *user, pp5_pins *pins_out);
/* A run of host actions for pp5_igc_run_script(): the block runner hands the
 * write, write, …, go, wait of each instruction to one call, so that the host
 * clocks run inside the quiet segments too. An item is one host clock
 * (PP5_ITEM_HOST: its inputs, T masked; no Reset, no TestPE), a number of idle
 * clocks (PP5_ITEM_RUN) or idle clocks while Busy is high at the clock's start
 * (PP5_ITEM_WAIT) — the clocks pp5_stream_run() gives a write/go, run and wait. */
enum { PP5_ITEM_HOST, PP5_ITEM_RUN, PP5_ITEM_WAIT };
typedef struct pp5_igc_item {
    pp5_host_in in;         /* PP5_ITEM_HOST */
    uint64_t clocks;        /* PP5_ITEM_RUN */
    uint8_t kind;
} pp5_igc_item;
/* The host sides of a host run clocked by a loop (seg_run()), in order, each
 * at its own cycle. */
void pp5_igc_host_sides_quiet(pp5_igc *g, const pp5_igc_item *it, size_t n, uint64_t cycle0,
                              ls_diag *d);
typedef struct pp5_igc_script {
    const pp5_igc_item *items;
    size_t n;
    size_t i;               /* the item of the next clock */
    uint64_t done;          /* clocks of item i already run */
    pp5_host_in idle;       /* the idle clocks' inputs (levels only, as run_idle) */
} pp5_igc_script;
/* Up to n clocks of the script from its cursor, each exactly as
 * pp5_igc_clock_fast(g, in, …) with the item's inputs; pins of clock k into
 * pins_out[k]. Returns the clocks run, and leaves the cursor past every
 * finished item (a wait whose Busy is low is finished). Stops early at the
 * script's end, or after a host clock that failed: *st gets its status (with
 * d, as pp5_igc_clock_fast) and the cursor stays on that item. */
uint64_t pp5_igc_run_script(pp5_igc *g, pp5_igc_script *sc, uint64_t n, pp5_pins *pins_out,
                            ls_status *st, ls_diag *d);
#endif
