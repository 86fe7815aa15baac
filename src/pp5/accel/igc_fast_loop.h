/* The fast IGC: the closed form of a loop of one or two words, included by
 * igc_fast_seg.c only (static inline: seg_run() inlines it). */
#ifndef LOCKSTEP_PP5_ACCEL_IGC_FAST_LOOP_H
#define LOCKSTEP_PP5_ACCEL_IGC_FAST_LOOP_H

#include "pp5/accel/igc_fast_int.h"

static inline uint64_t spread6(unsigned dat6)
{
    return (dat6 * 0x0000000810204081ull) & SEG_SPREAD6;
}


/* ---- the closed form of a loop of one or two words ----
 * Words w0 (at PC) and w1 (its successor; w1 = w0 for a self-loop), clocks
 * alternating w0, w1, w0, … All that changes from clock to clock is then the
 * PixMemAddr counters, DirectReg, the shift count (with the CoefGate column and
 * CSB), the loop counters and the TRR shifter — provided TRR, TC1 and TC2 stay
 * what they are at each phase and no PostC, MsIn, LSB token or Done can occur.
 * seg_loop_plan() checks that the two words form such a loop under the present
 * conditions and returns how many clocks it keeps doing so. */
typedef pp5_seg_phase seg_phase; /* (igc_internal.h: the plan memo keeps two) */

typedef struct seg_loop_in {
    unsigned pc, n1, n2;
    uint64_t stages;
    uint32_t sc, csb_until;
    bool cbsy, mbi, mp, fp;
    int top;
    unsigned st_cond;
    bool test_oe;
    uint64_t q4_base;
} seg_loop_in;

/* How many of the first K clocks of the pattern (e0, e1, e0, …) count (e0,
 * e1 ∈ {0, 1}). */
static inline uint64_t seg_count(unsigned e0, unsigned e1, uint64_t K)
{
    return (K >> 1) * (e0 + e1) + (K & 1u ? e0 : 0);
}

/* The first clock k at which the count of the pattern (e0, e1) over clocks
 * 0 … k-1 reaches V ≥ 1 (UINT64_MAX: never). */
static inline uint64_t seg_reach(unsigned e0, unsigned e1, uint64_t V)
{
    if (e0 + e1 == 0)
        return UINT64_MAX;
    if (e0 + e1 == 2)
        return V;
    return e0 ? 2 * V - 1 : 2 * V;
}

/* The first clock k after which a 7-bit counter n stepped down by the pattern
 * (d0, d1) holds target, given it does not after clocks 0 and 1 (the caller
 * checks); UINT64_MAX: never. */
static inline uint64_t seg_count_hits(unsigned d0, unsigned d1, unsigned n, unsigned target)
{
    if (d0 + d1 == 0)
        return UINT64_MAX;
    unsigned T = (n - target) & 0x7fu; /* decrements needed (mod 128) */
    uint64_t V = T > d0 + d1 ? T : T + 128u;
    return seg_reach(d0, d1, V) - 1; /* the clock whose decrement makes V */
}

static inline uint64_t seg_min(uint64_t a, uint64_t b) { return a < b ? a : b; }

/* The part of a plan at in->pc that does not depend on the state but through
 * TRR, the status levels and the loop counters' classes (seg_shape_key()):
 * which words loop (w0 at PC, w1 its successor) and what they do — into m
 * (period 0: no loop of one or two words with TC1, TC2 that can stay). */
static void seg_plan_shape(const pp5_uop *uop, const seg_loop_in *in, bool trr,
                           pp5_seg_shape *m)
{
    const pp5_uop *w[2];
    unsigned pcs[2], m1 = in->n1, m2 = in->n2;
    bool tc1[2], tc2[2], br[2];
    unsigned pc = in->pc;
    int P = 0;
    m->period = 0;
    for (int i = 0; i < 2; i++) {
        const pp5_uop *u = &uop[pc & 511u];
        if (u->done | !u->exists)
            return;
        w[i] = u;
        pcs[i] = pc;
        m1 = (m1 - u->cnt1) & 0x7fu;
        m2 = (m2 - u->cnt2) & 0x7fu;
        tc1[i] = pp5_loopcount_tc1(m1);
        tc2[i] = pp5_loopcount_tc2(m2);
        const unsigned cond = (unsigned)tc1[i] | (unsigned)tc2[i] << 1 | (unsigned)trr << 2 |
                              in->st_cond;
        br[i] = !((u->pulldown >> cond) & 1u);
        const unsigned next = br[i] ? u->braddr : (pc + 1) & 0x1ffu;
        if (next == in->pc) {
            P = i + 1;
            break;
        }
        pc = next;
    }
    if (P == 0)
        return;
    if (P == 1) { /* a self-loop: the second clock is the same word */
        w[1] = w[0];
        pcs[1] = pcs[0];
        br[1] = br[0];
        tc1[1] = pp5_loopcount_tc1((in->n1 - 2u * w[0]->cnt1) & 0x7fu);
        tc2[1] = pp5_loopcount_tc2((in->n2 - 2u * w[0]->cnt2) & 0x7fu);
    }
    /* TC1, TC2: constant if not counted; else low at both phases until the
     * terminal count (seg_loop_plan() finds when) */
    if (w[0]->cnt1 + w[1]->cnt1 ? tc1[0] | tc1[1] : tc1[0] != tc1[1])
        return;
    if (w[0]->cnt2 + w[1]->cnt2 ? tc2[0] | tc2[1] : tc2[0] != tc2[1])
        return;
    for (int i = 0; i < 2; i++) {
        const pp5_uop *u = w[i];
        pp5_seg_phase *f = &m->ph[i];
        const unsigned sh = (u->shift >> trr) & 1u;
        f->alu_lo = ld64(u->alu[0]);
        f->alu_hi = ld64(u->alu[0] + 8);
        const unsigned bits = sh | (unsigned)tc1[i] << 2 | (unsigned)tc2[i] << 3 |
                              (unsigned)br[i] << 4 | (unsigned)trr << 7;
        f->a = pcs[i] | (uint64_t)bits << 16; /* (the LSB bit: the plan's) */
        f->dir = u->dir_en;
        f->pair = u->pair0;
        f->sh = (uint8_t)sh;
        f->ctr_sa = u->ctr_sa;
        f->ctr_mask = u->ctr_mask;
        f->ctr_add = u->ctr_add;
        f->cnt1 = u->cnt1;
        f->cnt2 = u->cnt2;
        m->uw[i] = u->uw;
    }
    m->period = (uint8_t)P;
}

/* The conditions a shape depends on besides the store (seg_plan_shape()):
 * TRR, the status levels, and whether LC1 is 116, 117, 118 or other and LC2
 * 0, 1, 2 or other (TC1 and TC2 at the loop's first two clocks: each word
 * counts by at most one); never 0. */
static inline unsigned seg_shape_key(const seg_loop_in *in, bool trr)
{
    const unsigned n1c = in->n1 - PP5_LC1_TERMINAL < 3u ? in->n1 - (PP5_LC1_TERMINAL - 1u) : 0;
    const unsigned n2c = in->n2 - PP5_LC2_TERMINAL < 3u ? in->n2 - PP5_LC2_TERMINAL + 1u : 0;
    return 1u | (unsigned)trr << 1 | n1c << 2 | n2c << 4 | (in->st_cond >> 3) << 6;
}

/* A loop plan: the shape's phases (the memo's, not copied) and what depends
 * on the state besides. */
typedef struct seg_plan {
    const seg_phase *ph;
    uint64_t q4[2];   /* each phase's pins bytes 32..39 but TrSt, ALUDat */
    uint64_t lsb40;   /* the LSB token (bit 40 of a record, of the pins word) */
    bool first_lsb;   /* the LSB token in the first clock (self-loops only) */
} seg_plan;

/* Fills pl and returns K ≥ 4; or 0: not such a loop; or SEG_PLAN_SHORT | K:
 * such a loop, but for K < 4 clocks only. The shape comes from the memo of
 * the plans made at the same address (seg_shape). */
#define SEG_PLAN_SHORT 0x100u
/* (inlined into its one caller: the seg_loop_in stays in registers, no call) */
static inline __attribute__((always_inline)) uint64_t
seg_loop_plan(pp5_igc *g, const seg_loop_in *in, uint64_t n, seg_plan *pl)
{
    pp5_igc_fast *const fx = PP5_FAST(g);
    const bool trr = in->stages >> 63; /* (the output stage: bit 63, see seg_run()) */
    if (__builtin_expect(in->pc >= 512, 0)) /* (no such address: no loop) */
        return 0;
    const unsigned key = seg_shape_key(in, trr);
    const pp5_seg_shape *m = &fx->seg_shape[in->pc];
    if (fx->seg_shape_key[in->pc] != key) {
        /* (a copy: *in then need not live in memory on the common path) */
        const seg_loop_in in_copy = *in;
        seg_plan_shape(fx->uop, &in_copy, trr, &fx->seg_shape[in->pc]);
        fx->seg_shape_key[in->pc] = (uint16_t)key;
        fx->seg_shapes++;
    }
    if (!m->period)
        return 0;
    const unsigned sh0 = m->ph[0].sh, sh1 = m->ph[1].sh;
    const unsigned c10 = m->ph[0].cnt1, c11 = m->ph[1].cnt1;
    const unsigned c20 = m->ph[0].cnt2, c21 = m->ph[1].cnt2;
    uint64_t K = n;
    /* the terminal counts (not reached in the first two clocks: the shape) */
    if (c10 + c11)
        K = seg_min(K, seg_count_hits(c10, c11, in->n1, PP5_LC1_TERMINAL));
    if (c20 + c21)
        K = seg_min(K, seg_count_hits(c20, c21, in->n2, PP5_LC2_TERMINAL));
    const bool csb0 = in->sc < in->csb_until;
    if (sh0 + sh1) {
        /* no MsIn to shift in; the LSB token only in the first clock of a word
         * that loops on itself and shifts every clock (seg_loop_self) */
        if (in->mp | (in->fp & csb0 & !(m->period == 1 && sh0 && !m->ph[0].dir)))
            return 0;
        /* TRR at the j-th shift is stage top - j (0 below stage 0): bit 63 - j
         * of the shifter as seg_run() keeps it (stage i at bit i + 63 - top) */
        const uint64_t low = ((1ull << in->top) - 1) << (63 - in->top); /* stages < top */
        const uint64_t below = in->stages & low;
        const uint64_t differ = trr ? ~below & low : below;
        const uint64_t J = differ ? (uint64_t)__builtin_clzll(differ)
                         : trr ? (uint64_t)in->top + 1 : UINT64_MAX;
        if (J != UINT64_MAX)
            K = seg_min(K, seg_reach(sh0, sh1, J));
        /* no PostC (with CBsy, CSB must stay high), no shift after the CSB fall
         * that sets MsIn pending (the fall itself may be the loop's last shift:
         * the caller sets MsIn pending then), no saturation of the count */
        uint64_t stop = UINT32_MAX - 1;
        if (in->cbsy || (in->mbi && csb0))
            stop = seg_min(stop, in->csb_until);
        if (stop <= in->sc)
            return 0;
        K = seg_min(K, seg_reach(sh0, sh1, stop - in->sc));
    }
    if (K < 4) /* too short to pay; nor can a loop start before it ends */
        return K | SEG_PLAN_SHORT;
    /* LSB: constant when the loop does not shift (CSB stays); else sent by
     * the first clock only (see above) */
    const bool first_lsb = in->fp & csb0 & (sh0 | sh1);
    const bool lsb = in->fp & csb0 & !first_lsb;
    pl->ph = m->ph;
    for (int i = 0; i < 2; i++)
        pl->q4[i] = in->test_oe ? (in->q4_base & 0xffffffffull) | (uint64_t)m->uw[i] << 32
                                : in->q4_base;
    pl->lsb40 = (uint64_t)lsb << 40;
    pl->first_lsb = first_lsb;
    return K;
}


/* Where clock k's pins go: the caller's buffer, or past its end (the shares of
 * the clocks after the segment: they go to the ring at the end) a scratch. */
#define SEG_PINS(k) ((k) < n ? (unsigned char *)&pins_out[k] : (unsigned char *)&tail[(k) - n])

/* One clock's shares of the pins: at p0 (its own record) the clock number and
 * the word of TrSt, ALUDat and the q4 signals (w32); at p1 (the next clock's)
 * the address and its pair; at p2 (the one after) the ALU word and the data. */
static inline __attribute__((always_inline)) void
seg_pins_put(unsigned char *p0, unsigned char *p1, unsigned char *p2, uint64_t clock, uint64_t w32,
             uint8_t addr, uint8_t pair, uint64_t alu_lo, uint64_t alu_hi, uint64_t lsb40,
             uint64_t dat)
{
    st64(p0, clock);
    st64(p0 + 32, w32);
    st16(p1 + 30, (uint16_t)(addr | (addr ^ pair) << 8));
    st64(p2 + 8, alu_lo);
    st_dat16(p2 + 16, alu_hi, lsb40, dat);
}

/* The loop's clocks k … k_end-1 (seg_loop_plan()): the state that changes, in
 * locals of its own (a function of its own, so that they stay in registers). */
/* A self-loop's clocks [k0, kend), enough to make the record of any of them
 * (seg_self_rec()): the segment's end needs those of its last four clocks
 * only, which are rarely the loop's, so they are made there. A posting
 * rebuilds the CoefGate columns they read: it leaves them a copy (blk). */
typedef struct seg_self_desc {
    uint64_t k0, kend;
    uint64_t a;             /* seg_rec.a but ALUDat, CSB, Addr */
    uint64_t outB0, sepB0;  /* *Dat of the clocks k0, k0 + 1 */
    const uint64_t *blk;    /* the CoefGate columns of the loop's clocks */
    uint32_t sc0, csb_until;
    uint8_t a0, step;       /* the address of clock k0, its step */
    bool aludat, valid;
    uint64_t hk0, hk1;      /* the host clocks among them (seg_host_loopable()) */
    uint64_t pik;           /* the clock among them that posts I (or none) */
    uint64_t pck, pcb;      /* the clock among them that posts C (or none), its bits */
} seg_self_desc;

typedef struct seg_loop_st {
    uint64_t q4[2];     /* the plan's (seg_plan) */
    uint64_t lsb40;
    uint32_t shreg, sc, csb_until;
    uint64_t outB, sepB;
    uint32_t ctr;
    unsigned trst;
    const uint64_t *blk;
    seg_rec *rec;
    pp5_pins *pins_out; /* NULL: no pins */
    pp5_pins *tail;     /* pins_out[n], pins_out[n+1] */
    uint64_t n, c0;
    seg_self_desc *d;   /* set by a self-loop whose records are not made (the
                         * segment's description, written in place: one made
                         * by this loop has its k0 at or after the loop's
                         * first clock, an earlier loop's before it) */
} seg_loop_st;

static inline __attribute__((always_inline)) uint64_t
seg_loop_clocks(seg_loop_st *st, const seg_phase ph[2], uint64_t k, uint64_t k_end,
                unsigned *jp, const bool with_pins, const bool checked, const bool records)
{
    uint32_t shreg = st->shreg, sc = st->sc, ctr = st->ctr;
    const uint32_t csb_until = st->csb_until;
    uint64_t outB = st->outB, sepB = st->sepB;
    unsigned trst = st->trst, j = *jp;
    const uint64_t *blk = st->blk;
    seg_rec *rec = st->rec;
    pp5_pins *const pins_out = st->pins_out, *const tail = st->tail;
    const uint64_t n = st->n, c0 = st->c0;
    const uint64_t q4a = st->q4[0], q4b = st->q4[1], lsb40 = st->lsb40;
    for (; k < k_end; k++, j ^= 1u) {
        const seg_phase *P = &ph[j];
        const bool aludat = shreg & 1u;
        if (P->dir)
            shreg = (shreg >> 1) | (shreg & 0x80000000u);
        const bool csb = sc < csb_until;
        const uint64_t dat = outB;
        if (P->sh) {
            const uint64_t col = (blk[(sc < 127 ? sc : 127) >> 3] >> (sc & 7u)) & SEG_SPREAD6 &
                                 (0 - (uint64_t)csb);
            outB = sepB;
            sepB = col;
            sc++;
        }
        const uint8_t addr = (uint8_t)(ctr >> P->ctr_sa);
        ctr = (ctr & ~P->ctr_mask) | ((ctr + P->ctr_add) & P->ctr_mask);
        if (records) {
            seg_rec *r = &rec[(c0 + k) & 3];
            r->a = P->a | lsb40 | (uint64_t)aludat << 17 | (uint64_t)csb << 21 |
                   (uint64_t)addr << 32;
            r->dat = dat;
        }
        if (with_pins) {
            unsigned char *p0 = (unsigned char *)&pins_out[k];
            unsigned char *p1 = checked ? SEG_PINS(k + 1) : p0 + sizeof(pp5_pins);
            unsigned char *p2 = checked ? SEG_PINS(k + 2) : p0 + 2 * sizeof(pp5_pins);
            seg_pins_put(p0, p1, p2, c0 + k, (trst & 1u) | (uint64_t)aludat << 8 | (j ? q4b : q4a),
                         addr, P->pair, P->alu_lo ^ (uint64_t)(P->dir & !aludat), P->alu_hi, lsb40,
                         dat);
            trst = (trst >> 1) | (unsigned)P->sh << 2;
        }
    }
    st->shreg = shreg;
    st->sc = sc;
    st->ctr = ctr;
    st->outB = outB;
    st->sepB = sepB;
    st->trst = trst;
    *jp = j;
    return k;
}

/* The CoefGate column at shift count sc, CSB applied. */
static inline uint64_t seg_col(const uint64_t *blk, uint32_t sc, uint32_t csb_until)
{
    return (blk[(sc < 127 ? sc : 127) >> 3] >> (sc & 7u)) & SEG_SPREAD6 &
           (0 - (uint64_t)(sc < csb_until));
}

/* A self-loop's clocks k … k_end-1 with pins (seg_loop_self(): its state in
 * a struct of its own, so that the calls share one set-up). checked: the
 * last two clocks of the buffer (SEG_PINS). The general form
 * (SEG_SELF_ANY), and two for the steady stretches: from the loop's fourth
 * clock on, TrSt is its own shift (1, and stays), and while CSB is high and
 * s < 127 the column needs neither the CSB mask nor the clamp
 * (SEG_SELF_CSB), while CSB is low it is 0 (SEG_SELF_NO_CSB). */
enum { SEG_SELF_ANY, SEG_SELF_CSB, SEG_SELF_NO_CSB };
typedef struct seg_self_k {
    uint32_t sc;
    const uint32_t csb_until;
    uint8_t a;
    const uint8_t step, pair;
    unsigned trst;
    uint64_t outB, sepB;
    const uint64_t q1, q4, alu_hi, lsb40;
    const uint64_t *blk;
    pp5_pins *pins_out, *tail;
    const uint64_t n, c0;
} seg_self_k;

static inline __attribute__((always_inline)) uint64_t
seg_self_clocks(seg_self_k *st, uint64_t k, uint64_t k_end, const int form, const bool checked)
{
    uint32_t sc = st->sc;
    uint8_t a = st->a;
    unsigned trst = st->trst;
    uint64_t outB = st->outB, sepB = st->sepB;
    const uint32_t csb_until = st->csb_until;
    const uint8_t step = st->step, pair = st->pair;
    const uint64_t q1 = st->q1, q4 = st->q4, alu_hi = st->alu_hi, lsb40 = st->lsb40;
    const uint64_t *blk = st->blk;
    pp5_pins *const pins_out = st->pins_out, *const tail = st->tail;
    const uint64_t n = st->n, c0 = st->c0;
    for (; k < k_end; k++) {
        const uint64_t dat = outB;
        const uint64_t col = form == SEG_SELF_CSB      ? (blk[sc >> 3] >> (sc & 7u)) & SEG_SPREAD6
                           : form == SEG_SELF_NO_CSB ? 0
                                                     : seg_col(blk, sc, csb_until);
        outB = sepB;
        sepB = col;
        sc++;
        const uint8_t addr = a;
        a = (uint8_t)(a + step);
        unsigned char *p0 = (unsigned char *)&pins_out[k];
        unsigned char *p1 = checked ? SEG_PINS(k + 1) : p0 + sizeof(pp5_pins);
        unsigned char *p2 = checked ? SEG_PINS(k + 2) : p0 + 2 * sizeof(pp5_pins);
        /* (past the general form's first clocks trst is 7, and stays) */
        seg_pins_put(p0, p1, p2, c0 + k, (form == SEG_SELF_ANY ? trst & 1u : 1u) | q4, addr, pair,
                     q1, alu_hi, lsb40, dat);
        if (form == SEG_SELF_ANY)
            trst = (trst >> 1) | 4u;
    }
    st->sc = sc;
    st->a = a;
    st->trst = trst;
    st->outB = outB;
    st->sepB = sepB;
    return k;
}

/* The commonest loop: one word that shifts every clock and leaves DirectReg
 * alone (the waits for the TRR token, the QLOAD/QADD bit loops). ALUDat, the
 * word's pins and its signals are constant; per clock only the address, the
 * shift count and the column change, and the records are made afterwards for
 * the last four clocks only. */
static inline __attribute__((always_inline)) uint64_t
seg_loop_self(seg_loop_st *st, const seg_phase *P, uint64_t k, uint64_t k_mid, uint64_t k_end,
              const bool with_pins, const bool records)
{
    const uint64_t k0 = k;
    uint32_t sc = st->sc;
    const uint32_t sc0 = sc, csb_until = st->csb_until;
    uint64_t outB = st->outB, sepB = st->sepB;
    const uint64_t outB0 = outB, sepB0 = sepB;
    const unsigned sa = P->ctr_sa;
    const uint8_t a0 = (uint8_t)(st->ctr >> sa), step = (uint8_t)(P->ctr_add >> sa);
    uint8_t a = a0;
    const uint8_t pair = P->pair;
    unsigned trst = st->trst;
    const uint64_t *blk = st->blk;
    pp5_pins *const pins_out = st->pins_out, *const tail = st->tail;
    const uint64_t n = st->n, c0 = st->c0;
    const bool aludat = st->shreg & 1u;
    const uint64_t q1 = P->alu_lo ^ (uint64_t)(P->dir & !aludat); /* dir is 0 here */
    const uint64_t q4 = (uint64_t)aludat << 8 | st->q4[0], alu_hi = P->alu_hi;
    const uint64_t lsb40 = st->lsb40;
    if (with_pins) {
        /* the clocks whose shares all land in the buffer, then the last two
         * (checked: SEG_PINS) */
        seg_self_k sk = {sc, csb_until, a, step, pair, trst, outB, sepB, q1, q4, alu_hi, lsb40,
                         blk, pins_out, tail, n, c0};
        if (k_mid - k > 3) {
            /* the first three clocks, then the steady stretches: CSB high
             * with s < 127, CSB high beyond (rare: the general form), CSB low */
            k = seg_self_clocks(&sk, k, k + 3, SEG_SELF_ANY, false);
            const uint32_t lim = csb_until < 127 ? csb_until : 127;
            const uint64_t k_hi = sk.sc < lim ? seg_min(k_mid, k + (lim - sk.sc)) : k;
            k = seg_self_clocks(&sk, k, k_hi, SEG_SELF_CSB, false);
            const uint64_t k_lo = sk.sc < csb_until ? seg_min(k_mid, k + (csb_until - sk.sc)) : k;
            k = seg_self_clocks(&sk, k, k_lo, SEG_SELF_ANY, false);
            k = seg_self_clocks(&sk, k, k_mid, SEG_SELF_NO_CSB, false);
        }
        k = seg_self_clocks(&sk, k, k_mid, SEG_SELF_ANY, false);
        k = seg_self_clocks(&sk, k, k_end, SEG_SELF_ANY, true);
        sc = sk.sc;
        a = sk.a;
        outB = sk.outB;
        sepB = sk.sepB;
        trst = sk.trst;
    } else {
        const uint64_t K = k_end - k;
        sc += (uint32_t)K;
        a = (uint8_t)(a + step * K);
        outB = K == 1 ? sepB0 : seg_col(blk, sc - 2, csb_until);
        sepB = seg_col(blk, sc - 1, csb_until);
        k = k_end;
    }
    /* the records of the last (up to) four clocks (or later: seg_self_desc) */
    for (uint64_t c = k_end - (k_end - k0 < 4 ? k_end - k0 : 4); records && c < k_end; c++) {
        const uint32_t i = (uint32_t)(c - k0), sci = sc0 + i;
        seg_rec *r = &st->rec[(c0 + c) & 3];
        r->a = P->a | lsb40 | (uint64_t)aludat << 17 | (uint64_t)(sci < csb_until) << 21 |
               (uint64_t)(uint8_t)(a0 + step * i) << 32;
        r->dat = i == 0 ? outB0 : i == 1 ? sepB0 : seg_col(blk, sci - 2, csb_until);
    }
    st->sc = sc;
    st->ctr = (st->ctr & ~P->ctr_mask) | (uint32_t)a << sa;
    st->outB = outB;
    st->sepB = sepB;
    st->trst = trst;
    return k;
}

static inline __attribute__((always_inline)) uint64_t
seg_loop_self_run(seg_loop_st *st, const seg_phase *P, uint64_t k, uint64_t k_end,
                  const bool records)
{
    if (!records) { /* the records later, from this */
        seg_self_desc *d = st->d;
        d->k0 = k;
        d->kend = k_end;
        d->a = P->a | st->lsb40;
        d->outB0 = st->outB;
        d->sepB0 = st->sepB;
        d->blk = st->blk;
        d->sc0 = st->sc;
        d->csb_until = st->csb_until;
        d->a0 = (uint8_t)(st->ctr >> P->ctr_sa);
        d->step = (uint8_t)(P->ctr_add >> P->ctr_sa);
        d->aludat = st->shreg & 1u;
        d->valid = true;
        d->hk0 = d->hk1 = 0;
        d->pik = UINT64_MAX;
        d->pck = UINT64_MAX;
        d->pcb = 0;
    }
    if (!st->pins_out)
        return seg_loop_self(st, P, k, k_end, k_end, false, records);
    /* the clocks whose shares all land in the buffer, then the last two */
    const uint64_t lim = st->n >= 2 ? st->n - 2 : 0;
    const uint64_t k_mid = k_end <= lim ? k_end : lim > k ? lim : k;
    return seg_loop_self(st, P, k, k_mid, k_end, true, records);
}

/* The record of clock kc of the self-loop d (as seg_loop_self() makes it). */
static void seg_self_rec(const seg_self_desc *d, uint64_t kc, seg_rec *r)
{
    const uint32_t i = (uint32_t)(kc - d->k0), sci = d->sc0 + i;
    r->a = d->a | (uint64_t)d->aludat << 17 | (uint64_t)(sci < d->csb_until) << 21 |
           (uint64_t)(uint8_t)(d->a0 + d->step * i) << 32 |
           (kc >= d->hk0 && kc < d->hk1 ? TR_BITS(SEG_HOST) : 0) |
           (kc == d->pik ? TR_BITS(SEG_POSTI) : 0) | (kc == d->pck ? d->pcb : 0);
    r->dat = i == 0 ? d->outB0 : i == 1 ? d->sepB0 : seg_col(d->blk, sci - 2, d->csb_until);
}

/* Clocks k … k_end-1 (an even number, from the loop's first phase) of a loop
 * of two words that leave DirectReg alone, with pins and no records (the
 * unchecked stretch of seg_loop_run()): two clocks per turn, one of each
 * phase, so that what a phase drives (ALUDat among it: DirectReg holds) is
 * taken once per loop. */
static inline __attribute__((always_inline)) uint64_t
seg_loop_pairs(seg_loop_st *st, const seg_phase ph[2], uint64_t k, uint64_t k_end)
{
    uint32_t sc = st->sc, ctr = st->ctr;
    const uint32_t csb_until = st->csb_until;
    uint64_t outB = st->outB, sepB = st->sepB;
    unsigned trst = st->trst;
    const uint64_t *blk = st->blk;
    pp5_pins *const pins_out = st->pins_out;
    const uint64_t c0 = st->c0;
    const uint64_t aludat8 = (uint64_t)(st->shreg & 1u) << 8;
    const uint64_t lsb40 = st->lsb40;
    struct {
        uint64_t q4, alu_lo, alu_hi;
        uint32_t mask, add;
        unsigned sa, sh;
        uint8_t pair;
    } f[2];
#pragma GCC unroll 2
    for (int i = 0; i < 2; i++) {
        f[i].q4 = st->q4[i] | aludat8;
        f[i].alu_lo = ph[i].alu_lo; /* (dir 0: no ALUDat term) */
        f[i].alu_hi = ph[i].alu_hi;
        f[i].mask = ph[i].ctr_mask;
        f[i].add = ph[i].ctr_add;
        f[i].sa = ph[i].ctr_sa;
        f[i].sh = ph[i].sh;
        f[i].pair = ph[i].pair;
    }
    for (; k < k_end; k += 2) {
#pragma GCC unroll 2
        for (int i = 0; i < 2; i++) {
            const uint64_t dat = outB;
            if (f[i].sh) {
                outB = sepB;
                sepB = seg_col(blk, sc, csb_until);
                sc++;
            }
            const uint8_t addr = (uint8_t)(ctr >> f[i].sa);
            ctr = (ctr & ~f[i].mask) | ((ctr + f[i].add) & f[i].mask);
            unsigned char *p0 = (unsigned char *)&pins_out[k + (unsigned)i];
            seg_pins_put(p0, p0 + sizeof(pp5_pins), p0 + 2 * sizeof(pp5_pins), c0 + k + (unsigned)i,
                         (trst & 1u) | f[i].q4, addr, f[i].pair, f[i].alu_lo, f[i].alu_hi, lsb40, dat);
            trst = (trst >> 1) | f[i].sh << 2;
        }
    }
    st->sc = sc;
    st->ctr = ctr;
    st->outB = outB;
    st->sepB = sepB;
    st->trst = trst;
    return k;
}

/* (inlined into its one caller: the loop's state struct need not live in memory) */
static inline __attribute__((always_inline)) uint64_t
seg_loop_run(seg_loop_st *st, const seg_phase ph[2], bool first_lsb, uint64_t k, uint64_t k_end)
{
    if (ph[0].a == ph[1].a && ph[0].sh && !ph[0].dir) { /* one word (same PC and signals) */
        if (first_lsb) { /* the first clock sends the LSB token */
            const uint64_t lsb40 = st->lsb40;
            st->lsb40 = 1ull << 40;
            k = seg_loop_self_run(st, ph, k, k + 1, true);
            st->lsb40 = lsb40;
        }
        return seg_loop_self_run(st, ph, k, k_end, false);
    }
    unsigned j = 0;
    /* records for the last four clocks only: any earlier ones are overwritten
     * by the clocks after the loop before the segment's end reads them (a loop
     * has at least four clocks: seg_loop_plan) */
    const uint64_t k_rec = k_end - 4 > k ? k_end - 4 : k;
    if (!st->pins_out) {
        k = seg_loop_clocks(st, ph, k, k_rec, &j, false, false, false);
        return seg_loop_clocks(st, ph, k, k_end, &j, false, false, true);
    }
    /* the clocks whose shares all land in the buffer, then the last two */
    const uint64_t lim = st->n >= 2 ? st->n - 2 : 0;
    const uint64_t k_mid = k_end <= lim ? k_end : lim > k ? lim : k;
    const uint64_t a = k_mid < k_rec ? k_mid : k_rec, b = k_mid > k_rec ? k_mid : k_rec;
    if (!(ph[0].dir | ph[1].dir)) /* (ZTEST's loops) */
        k = seg_loop_pairs(st, ph, k, k + ((a - k) & ~1ull));
    k = seg_loop_clocks(st, ph, k, a, &j, true, false, false);
    k = seg_loop_clocks(st, ph, k, k_mid, &j, true, false, true); /* (k_rec … k_mid) */
    k = seg_loop_clocks(st, ph, k, b, &j, true, true, false);     /* (k_mid … k_rec) */
    return seg_loop_clocks(st, ph, k, k_end, &j, true, true, true);
}

/* Host clocks inside a loop in closed form (run_script): a run of host items
 * that ends with a Go, met while Busy is low, can be clocked by a loop (and
 * the loop can go on through the wait after the Go) when no host side in it
 * can touch what the loop reads or fail: a write with Busy low changes only
 * latches that the postings read (A-F, C, I, P's counts and addresses) — not a
 * P write with D30 (FBITS: may fail) or D31 (RMode) —, and the Go only raises
 * IBsy and CBsy (the loop then stops before any posting they allow). The loop
 * runs the clocks; the host sides run after it, in order, each at its own
 * cycle (the warnings they give are those of that clock), and the pins of the
 * host clocks get their D pads, those from the Go on their Busy. */

#endif
