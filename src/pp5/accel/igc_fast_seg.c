/* ---------------- quiet segments ----------------
 *
 * Most idle clocks change little: no posting, no new instruction, no host
 * input. seg_run() runs such clocks with the state in locals and stops before
 * any clock that would post (PostC, PostI), start an instruction (NewL), read a
 * missing word or run in RMode; pp5_igc_run_idle() takes that clock with
 * clock_body() and comes back. The clocks are the same clocks, computed with
 * the same expressions as clock_body(); what differs is where the values live:
 *  - the pins go straight into the caller's buffer, each clock writing its own
 *    share of them where it belongs (cycle, TrSt, ALUDat, Busy, D pads into its
 *    own pins; AddrL/AddrH into the next clock's; ALU controls, *Dat and LSB
 *    into those two clocks later) instead of through the pins ring;
 *  - each clock's record is a compact pair of words (seg_rec) in a ring of four;
 * at the end, the records of the last four clocks are expanded into olr and
 * their shares of the pins ring put there (ring_put), which leaves olr and the
 * ring exactly as clock_body() would have.
 *
 * In a loop of one or two words whose conditions (TRR, TC1, TC2) stay put,
 * seg_loop_plan() computes how long they do, and the clocks are run without
 * evaluating the controls at all (the closed form below). */
#define SEG_SPREAD6 0x0000010101010101ull /* bit 0 of bytes 0..5 */


#include "pp5/accel/igc_fast_loop.h"

static inline bool seg_host_loopable(const pp5_igc *g, const pp5_host_in *in)
{
    if (in->wr_en && (pp5_reg)g->opt.reg_of_t[in->t & 7u] == PP5_REG_P && (in->d >> 30))
        return false;
    return !(in->reset | in->test_pe);
}

/* PostC in clock kp of a segment (the general clock, or a self-loop's last):
 * the self-loop d keeps the CoefGate columns its records read (a copy in
 * blk_saved, unless it has one), which the posting rebuilds; then the
 * Serializer's posting on the state written back to g (sc_start: s at the
 * clock's start), and the Serializer's state taken back into the segment's
 * locals (*cs: the LSB token pending and the set's MBI). */
static inline __attribute__((always_inline)) void
seg_post_c(pp5_igc *g, seg_self_desc *desc, uint64_t blk_saved[16], uint64_t kp, uint64_t c0,
           uint32_t sc_start, unsigned *cs, uint32_t *sc, uint32_t *csb_until, uint64_t *stages)
{
    pp5_igc_fast *const fx = PP5_FAST(g);
    pp5_serializer *s = &g->ser;
    if (desc->valid && desc->blk == fx->fs.blk) {
        memcpy(blk_saved, fx->fs.blk, sizeof fx->fs.blk);
        desc->blk = blk_saved;
    }
    g->cycle = c0 + kp;
    s->cl.first_pending = (*cs & CS_FP) != 0;
    s->trr.stages = *stages >> (63 - fx->trr_top); /* (seg_run(): stage i at bit i + 63 - top) */
    pp5_igcf_ser_post(g, sc_start);
    g->ctl.cbsy = false;
    *sc = fx->fs.sc;
    *csb_until = fx->fs.csb_until;
    *cs = (*cs & ~(unsigned)(CS_FP | CS_MBI)) | (s->cl.first_pending ? CS_FP : 0) |
          ((s->cl.set_mbi | fx->msin_always) ? CS_MBI : 0);
    *stages = s->trr.stages << (63 - fx->trr_top);
}

/* seg_run()'s state, shared by its parts below (each inlined into it, so that
 * the scalars are locals again, in registers): the segment's constants and
 * the state it carries from clock to clock... */
typedef struct seg_regs {
    pp5_igc *g;
    uint64_t c0, n;             /* the first clock's cycle; clocks at most */
    pp5_pins *pins_out;
    const pp5_igc_item *items;  /* the script (scripted) */
    size_t sn;
    const pp5_uop *uop;
    const uint64_t *ctab, *blk;
    int top;                    /* the TRR shifter's output stage */
    unsigned st_cond;           /* ST1, ST2 as the AddrGen pull-down bits */
    bool test_oe, until_not_busy;
    ls_status *stp;
    ls_diag *d;
    uint64_t k;                 /* clocks run */
    uint64_t sdone;             /* the script's cursor: clocks of item si run */
    size_t si;
    size_t hr_no;               /* no host run in a loop before this item (one failed) */
    uint64_t skip_to;           /* no loop before this clock (SEG_PLAN_SHORT) */
    bool try_loop;              /* at the start and after a branch back */
    /* the control state, one word (seg_trans) */
    unsigned cs;
    unsigned pc, n1, n2;
    uint32_t shreg, sc, csb_until, ctr; /* ctr: the PixMemAddr counters, byte k = counter k */
    /* the TRR shifter with its output stage (top) at bit 63: stage i at bit
     * i + 63 - top (TRR is the top bit, a shift loses what passes it, MsIn
     * enters at stage top - 22: bit 41, SEG_MSIN_BIT) */
    uint64_t stages;
    /* TRR (stages' top bit), kept beside it: the general clock's shift takes
     * the next TRR from the bit below before the MsIn bit is ORed in, so that
     * the next clock's seg_ctab look-up does not wait for this clock's
     * seg_trans entry. (A posting puts the TRR token in a loadable stage,
     * 1…31, never in the output stage, which is 53 or more: it leaves TRR as
     * it is.) */
    unsigned trr_n;
    uint64_t outB, sepB;        /* CoefGate ShiftStage, TokStage: a bit a byte */
    unsigned trst;              /* TrSt of the clock k: bit 0 (the Shift of k-3); then k-2, k-1 */
    uint64_t q4_base;           /* pins bytes 32..39 but TrSt and ALUDat: Busy, TestPE, D pads */
} seg_regs;
#define SEG_MSIN_BIT (1ull << 41)

/* ... and what it keeps in memory */
typedef struct seg_mem {
    seg_rec rec[4];
    pp5_pins tail[2];               /* pins_out[n], pins_out[n+1] (SEG_PINS) */
    const pp5_host_in *in_ring[4];  /* SEG_HOST clocks' inputs */
    seg_self_desc desc;             /* the last self-loop whose records are not made */
    uint64_t blk_saved[16];         /* its CoefGate columns, after a posting (seg_post_c) */
} seg_mem;

/* The next clock's item (scripted), and the host run a loop may take */
typedef struct seg_item {
    const pp5_host_in *hin;     /* a host clock's inputs, or NULL: an idle clock */
    uint64_t idle_max;          /* clocks a loop may take */
    size_t hm;                  /* a run of hm host clocks ending with a Go (0: none) */
    bool go_last;               /* the loop ends with the Go's clock */
} seg_item;

/* The state into seg_run()'s locals (r, m; r's constants are set). */
static inline __attribute__((always_inline)) void
seg_begin(seg_regs *r, seg_mem *m, const bool with_pins)
{
    pp5_igc *g = r->g;
    const pp5_controller *ctl = &g->ctl;
    const uint64_t c0 = r->c0;
    const pp5_olrec *rp = &PP5_FAST(g)->olr[(c0 - 1) & 3];
    for (int i = 0; i < 4; i++)
        m->in_ring[i] = NULL;
    /* PostC', PostI' (a Reset at the end of the last clock cleared them) */
    unsigned cs = (ctl->ip ? CS_IP : 0) | (ctl->ibsy ? CS_IBSY : 0) |
                  (ctl->cbsy ? CS_CBSY : 0) | ((rp->post_c & !rp->in.reset) ? CS_PCP : 0) |
                  ((rp->post_i & !rp->in.reset) ? CS_PIP : 0);
    r->trst = 0;
    if (with_pins) {
        /* the shares of the clocks before the segment: in the ring */
        const uint64_t n = r->n;
        pp5_pins *pins_out = r->pins_out, *tail = m->tail;
        uint64_t q1, q2, q3;
        unsigned t0, t1, t2;
        ring_pins(g, c0, &q1, &q2, &q3, &t0); /* c0-2's controls, c0-1's address */
        unsigned char *p = SEG_PINS(0);
        st64(p + 8, q1);
        st64(p + 16, q2);
        st64(p + 24, q3);
        ring_pins(g, c0 + 1, &q1, &q2, &q3, &t1); /* c0-1's controls (the address: c0) */
        p = SEG_PINS(1);
        st64(p + 8, q1);
        st64(p + 16, q2);
        st64(p + 24, q3);
        const unsigned char *s2 = (const unsigned char *)&PP5_FAST(g)->pins_ring[(c0 + 2) & 3];
        t2 = s2[offsetof(pp5_pins, trst)];
        r->trst = t0 | t1 << 1 | t2 << 2;
    }
    const pp5_ser_fast *f = &PP5_FAST(g)->fs;
    const pp5_serializer *s = &g->ser;
    r->pc = g->seq.pc;
    r->n1 = g->lc.lc1;
    r->n2 = g->lc.lc2;
    r->shreg = g->dr.shreg;
    r->sc = f->sc;
    r->csb_until = f->csb_until;
    r->outB = spread6(f->so6 >> 8);
    r->sepB = spread6(f->so6 & 0xffu);
    cs |= (s->cl.first_pending ? CS_FP : 0) | (s->cl.msin_pending ? CS_MP : 0) |
          ((s->cl.set_mbi | PP5_FAST(g)->msin_always) ? CS_MBI : 0);
    r->cs = cs;
    r->top = PP5_FAST(g)->trr_top;
    r->stages = s->trr.stages << (63 - r->top);
    r->trr_n = (unsigned)(r->stages >> 63);
    r->st_cond = (unsigned)PP5_FAST(g)->run_in.st1 << 3 | (unsigned)PP5_FAST(g)->run_in.st2 << 4;
    r->test_oe = PP5_FAST(g)->run_in.test_oe;
    pp5_igcf_ctab_for(g, (unsigned)PP5_FAST(g)->run_in.st1 | (unsigned)PP5_FAST(g)->run_in.st2 << 1);
    r->ctab = PP5_FAST(g)->seg_ctab;
    r->q4_base = (uint64_t)((cs & (CS_IBSY | CS_CBSY)) != 0) << 16 |
                 (uint64_t)PP5_FAST(g)->run_in.test_pe << 24 | (uint64_t)PP5_FAST(g)->run_in.d << 32;
    r->blk = f->blk;
    r->uop = PP5_FAST(g)->uop;
    r->ctr = (uint32_t)g->pma.ctr[0] | (uint32_t)g->pma.ctr[1] << 8 |
             (uint32_t)g->pma.ctr[2] << 16;
    m->desc.valid = false;
    r->k = 0;
    r->try_loop = true;
    r->skip_to = 0;
    r->hr_no = 0;
}

/* Busy (IBsy or CBsy) in the control state's Busy byte of q4_base */
static inline void seg_q4_busy(seg_regs *r)
{
    r->q4_base = (r->q4_base & ~(0xffull << 16)) |
                 (uint64_t)((r->cs & (CS_IBSY | CS_CBSY)) != 0) << 16;
}

/* scripted: a run of hm host clocks ending with a Go, with Busy low now,
 * that a loop may clock (seg_host_loopable()); the loop may go on through the
 * next item's idle clocks if the Go brings no PostI */
static inline __attribute__((always_inline)) void seg_host_run(const seg_regs *r, seg_item *it)
{
    const pp5_igc_item *items = r->items;
    const size_t si = r->si, sn = r->sn;
    if (!(it->hin && r->try_loop && si >= r->hr_no && !(r->cs & (CS_IBSY | CS_CBSY)) &&
          !r->uop[r->pc & 511u].done))
        return;
    size_t m = 0;
    while (si + m < sn && m < 16 && items[si + m].kind == PP5_ITEM_HOST &&
           seg_host_loopable(r->g, &items[si + m].in)) {
        if (items[si + m++].in.go) {
            it->hm = m;
            break;
        }
    }
    /* (a loop that goes on after the Go stops at the CSB end, CBsy being set:
     * if CSB is low already and the word at PC shifts, its first shift after
     * the Go posts C. The loop then ends with the Go's clock, and CBsy is low
     * in all its clocks (the Go sets it at the clock's end): QLOAD's wait,
     * where the host run comes after the CSB end) */
    const size_t hm = it->hm;
    it->go_last = hm && r->sc >= r->csb_until &&
                  ((r->uop[r->pc & 511u].shift >> (r->stages >> 63)) & 1u);
    if (hm) {
        uint64_t idle_max = hm;
        if (!it->go_last && (r->cs & CS_IP) && si + hm < sn) {
            const pp5_igc_item *nx = &items[si + hm];
            idle_max = nx->kind == PP5_ITEM_WAIT  ? r->n - r->k
                     : nx->kind == PP5_ITEM_RUN ? hm + nx->clocks
                                                 : hm;
        }
        it->idle_max = seg_min(idle_max, r->n - r->k);
    }
}

enum { SEG_NEXT_LOOP, SEG_NEXT_GENERAL, SEG_NEXT_OVER };
/* The next clock's item (finished ones skipped) and how many idle clocks it
 * has left; SEG_NEXT_GENERAL: the general clock at once, SEG_NEXT_OVER: the
 * script is over. */
static inline __attribute__((always_inline)) int
seg_next_item(seg_regs *r, seg_item *it, const bool scripted)
{
    it->hin = NULL;
    it->idle_max = r->n - r->k;
    it->hm = 0;
    it->go_last = false;
    if (!scripted)
        return SEG_NEXT_LOOP;
    const pp5_igc_item *items = r->items;
    /* no loop to try: the general clock at once if the item is an idle one
     * not over (what the search below would find; the loop's idle_max is not
     * needed) */
    if (!r->try_loop && r->si < r->sn &&
        ((items[r->si].kind == PP5_ITEM_RUN && r->sdone < items[r->si].clocks) ||
         (items[r->si].kind == PP5_ITEM_WAIT && (r->cs & (CS_IBSY | CS_CBSY)))))
        return SEG_NEXT_GENERAL;
    for (;;) {
        if (r->si == r->sn)
            return SEG_NEXT_OVER;
        const pp5_igc_item *i = &items[r->si];
        if (i->kind == PP5_ITEM_HOST) {
            if (r->sdone == 0) {
                it->hin = &i->in;
                break;
            }
        } else if (i->kind == PP5_ITEM_RUN) {
            if (r->sdone < i->clocks) {
                it->idle_max = seg_min(it->idle_max, i->clocks - r->sdone);
                break;
            }
        } else if (r->cs & (CS_IBSY | CS_CBSY)) {
            break;
        }
        r->si++;
        r->sdone = 0;
    }
    seg_host_run(r, it);
    return SEG_NEXT_LOOP;
}

/* A self-loop that ends because CSB falls with CBsy set: its next clock posts
 * C. If that clock is otherwise one of the loop's (same word, same TC1, TC2,
 * TRR: the seg_ctab entry equals the loop's; no PostI with it: seg_trans), the
 * loop takes it as its last clock (*K + 1) and the posting follows the loop
 * (as the general clock does it after its shift). Returns that clock's
 * seg_trans entry, or 0: no. */
static inline __attribute__((always_inline)) uint64_t
seg_loop_last_postc(const seg_regs *r, const seg_phase ph[2], uint64_t *Kp, uint64_t idle_max)
{
    const uint64_t K = *Kp;
    const unsigned pc = r->pc, cs = r->cs;
    if (!(ph[0].a == ph[1].a && ph[0].sh && !ph[0].dir && (cs & CS_CBSY) &&
          (uint64_t)r->sc + K == r->csb_until && K < idle_max && r->k + K < r->n &&
          r->uop[pc & 511u].ctab_ok))
        return 0;
    const unsigned m1 = (r->n1 - (unsigned)(K * ph[0].cnt1)) & 0x7fu;
    const unsigned m2 = (r->n2 - (unsigned)(K * ph[0].cnt2)) & 0x7fu;
    const uint64_t st_k = K >= 64 ? 0 : r->stages << K;
    const unsigned trr_k = (unsigned)(st_k >> 63);
    const uint64_t e = r->ctab[(pc & 511u) * 32 + (ct_code(m1, m2) | trr_k)];
    /* the state after the loop's K clocks: the CSB fall in its last shift set
     * MsIn pending (with the set's MBI), the LSB token went out with its first
     * shift (CSB was high) */
    const unsigned cs_k = (cs & ~(unsigned)(CS_MP | CS_FP | CS_PCP | CS_PIP)) |
                          ((cs & CS_MBI) ? CS_MP : 0);
    const uint64_t t = pp5_igcf_seg_trans[cs_k | CS_SHIFT | CS_LAST];
    if (((e ^ ph[0].a) & 0xffffffffull) != 0 || (t & TR_EVENT) != TR_BITS(SEG_POSTC))
        return 0;
    *Kp = K + 1;
    return t;
}

/* The loop's K clocks from clock k0 = r->k (seg_loop_run()), then the state
 * after them. Returns whether the loop made the segment's self-loop
 * description (m->desc). */
static inline __attribute__((always_inline)) bool
seg_loop_go(seg_regs *r, seg_mem *m, const seg_plan *pl, uint64_t K, const bool with_pins)
{
    const seg_phase *const ph = pl->ph;
    const uint64_t k0 = r->k;
    const uint32_t sc_in = r->sc;
    seg_loop_st ls; /* (field by field: d is not cleared, only marked) */
    ls.q4[0] = pl->q4[0];
    ls.q4[1] = pl->q4[1];
    ls.lsb40 = pl->lsb40;
    ls.shreg = r->shreg;
    ls.sc = r->sc;
    ls.csb_until = r->csb_until;
    ls.outB = r->outB;
    ls.sepB = r->sepB;
    ls.ctr = r->ctr;
    ls.trst = r->trst;
    ls.blk = r->blk;
    ls.rec = m->rec;
    ls.pins_out = with_pins ? r->pins_out : NULL;
    ls.tail = m->tail;
    ls.n = r->n;
    ls.c0 = r->c0;
    ls.d = &m->desc;
    r->k = seg_loop_run(&ls, ph, pl->first_lsb, k0, k0 + K);
    const bool d_new = m->desc.valid && m->desc.k0 >= k0; /* (made by this loop) */
    r->shreg = ls.shreg;
    r->sc = ls.sc;
    r->outB = ls.outB;
    r->sepB = ls.sepB;
    r->ctr = ls.ctr;
    r->trst = ls.trst;
    PP5_FAST(r->g)->seg_loop_clocks += K;
    PP5_FAST(r->g)->seg_loops++;
    /* counters, TRR shifter and PC after K clocks */
    r->n1 = (r->n1 - seg_count(ph[0].cnt1, ph[1].cnt1, K)) & 0x7fu;
    r->n2 = (r->n2 - seg_count(ph[0].cnt2, ph[1].cnt2, K)) & 0x7fu;
    const uint64_t shifts = seg_count(ph[0].sh, ph[1].sh, K);
    r->stages = shifts >= 64 ? 0 : r->stages << shifts;
    r->trr_n = (unsigned)(r->stages >> 63);
    /* the CSB fall in the loop's last shift: MsIn pending */
    if (shifts) { /* (MsIn was not pending: seg_loop_plan) */
        const bool mp = (r->cs & CS_MBI) && sc_in < r->csb_until && r->sc == r->csb_until;
        r->cs = (r->cs & ~(unsigned)CS_MP) | (mp ? CS_MP : 0);
        if (sc_in < r->csb_until) /* the LSB token went out */
            r->cs &= ~(unsigned)CS_FP;
    }
    r->pc = (uint16_t)ph[K & 1].a;
    r->cs &= ~(unsigned)(CS_PCP | CS_PIP); /* (no posting in the loop's last) */
    return d_new;
}

/* The host clocks k0 … k0 + hm - 1 of a loop of K clocks that took a host run
 * (it): their D pads and Busy on the pins, their records, their host sides. */
static inline __attribute__((always_inline)) void
seg_loop_host(seg_regs *r, seg_mem *m, const seg_item *it, uint64_t K, uint64_t k0, bool d_new,
              const bool with_pins)
{
    pp5_igc *g = r->g;
    const size_t hm = it->hm;
    const pp5_igc_item *hit = &r->items[r->si];
    pp5_pins *pins_out = r->pins_out;
    const uint64_t c0 = r->c0;
    const uint64_t kl = r->k - (K < 4 ? K : 4); /* the loop's last four */
    for (size_t j = 0; j < hm; j++) {
        const uint64_t kj = k0 + j;
        if (with_pins && !r->test_oe)
            memcpy((unsigned char *)&pins_out[kj] + offsetof(pp5_pins, d_out), &hit[j].in.d,
                   sizeof hit[j].in.d);
        if (kj >= kl) { /* its record may be one of the segment's last */
            m->in_ring[(c0 + kj) & 3] = &hit[j].in;
            if (!(d_new && kj >= m->desc.k0))
                m->rec[(c0 + kj) & 3].a |= TR_BITS(SEG_HOST);
        }
    }
    /* (cannot fail: Busy low, no FBITS load: seg_host_loopable) */
    pp5_igc_host_sides_quiet(g, hit, hm, c0 + k0, r->d);
    if (d_new) {
        m->desc.hk0 = k0;
        m->desc.hk1 = k0 + hm;
    }
    if (with_pins) /* Busy only from the Go's clock on (seg_try_loop) */
        for (uint64_t kj = k0; kj < k0 + hm - 1; kj++)
            pins_out[kj].busy = false;
    r->cs |= (g->ctl.ibsy ? CS_IBSY : 0) | (g->ctl.cbsy ? CS_CBSY : 0);
    seg_q4_busy(r);
    PP5_FAST(g)->seg_host_clocks += hm;
    PP5_FAST(g)->seg_host_loop_clocks += hm;
    PP5_FAST(g)->seg_go_last_loops += it->go_last;
    r->si += hm;
    r->sdone = K - hm;
}

enum { SEG_TRY_GENERAL, SEG_TRY_CONTINUE, SEG_TRY_BREAK };
/* The loop's last clock posted C (seg_loop_last_postc(); t_pc: its seg_trans
 * entry): the posting, after the loop. */
static inline __attribute__((always_inline)) int
seg_loop_postc(seg_regs *r, seg_mem *m, uint64_t t_pc, const bool with_pins)
{
    const uint64_t kp = r->k - 1; /* that clock */
    r->cs = TR_NEXT(t_pc);
    if (t_pc & TR_BITS(SEG_MSIN)) /* MsIn with its shift */
        r->stages |= SEG_MSIN_BIT;
    /* (s at that clock's start: csb_until) */
    seg_post_c(r->g, &m->desc, m->blk_saved, kp, r->c0, r->csb_until, &r->cs, &r->sc,
               &r->csb_until, &r->stages);
    /* that clock's PostC and MsIn (its record: the self-loop's) */
    if (m->desc.valid && kp >= m->desc.k0 && kp < m->desc.kend) {
        m->desc.pck = kp;
        m->desc.pcb = t_pc & TR_BITS(SEG_POSTC | SEG_MSIN);
    } else {
        m->rec[(r->c0 + kp) & 3].a |= t_pc & TR_BITS(SEG_POSTC | SEG_MSIN);
    }
    seg_q4_busy(r);
    if (with_pins) /* Busy at that clock's end */
        r->pins_out[kp].busy = (r->cs & (CS_IBSY | CS_CBSY)) != 0;
    PP5_FAST(r->g)->seg_postc_loops++;
    if (r->k == r->n || (r->until_not_busy & !(r->cs & (CS_IBSY | CS_CBSY))))
        return SEG_TRY_BREAK; /* (Busy fell: the caller's wait is over) */
    return SEG_TRY_CONTINUE;  /* (a loop may start at once: the word branches back) */
}

/* A loop in closed form from clock r->k, if one can start there (the item it:
 * seg_next_item()). SEG_TRY_GENERAL: no loop, the general clock next. */
static inline __attribute__((always_inline)) int
seg_try_loop(seg_regs *r, seg_mem *m, const seg_item *it, const bool with_pins)
{
    pp5_igc *g = r->g;
    /* a PostI in this clock may be the loop's first clock: it changes only
     * IBsy, IP and latches that a NewL reads (a loop has no Done), and Busy
     * stays high with CBsy (so a wait goes on) */
    const bool posti_first = !it->hin && (r->cs & (CS_IBSY | CS_IP | CS_PIP | CS_CBSY)) ==
                                             (CS_IBSY | CS_CBSY);
    /* (no PostI to come, but in the first clock) */
    if (!(r->try_loop & (!it->hin | (it->hm != 0)) &
          (((r->cs & (CS_IBSY | CS_IP)) != CS_IBSY) | posti_first)))
        return SEG_TRY_GENERAL;
    /* (filled when K > 0: cleared for the compiler, which cannot tell) */
    seg_plan pl = {NULL, {0, 0}, 0, false};
    /* (after a Go in the loop, CBsy: the loop stops while CSB is high) */
    const unsigned cs = r->cs;
    const seg_loop_in in = {r->pc, r->n1, r->n2, r->stages, r->sc, r->csb_until,
                            (cs & CS_CBSY) || (it->hm && !it->go_last),
                            (cs & CS_MBI) != 0, (cs & CS_MP) != 0, (cs & CS_FP) != 0, r->top,
                            r->st_cond, r->test_oe, r->q4_base};
    uint64_t K = seg_loop_plan(g, &in, it->idle_max, &pl);
    PP5_FAST(g)->seg_plans++;
    if (K & SEG_PLAN_SHORT) {
        r->skip_to = r->k + (K & 0xffu); /* no loop before those clocks are over */
        K = 0;
    }
    if (K < it->hm) /* the loop must take every host clock of the run */
        K = 0;
    if (it->hm && !K) /* not for this run: its clocks the general way */
        r->hr_no = r->si + it->hm;
    if (!K)
        return SEG_TRY_GENERAL;
    const uint64_t k0 = r->k;
    if (posti_first) { /* as the general clock: the module's posting */
        pp5_igc_post_i(g); /* not in RMode: no store write */
        r->cs = (r->cs | CS_IP) & ~(unsigned)CS_IBSY;
        PP5_FAST(g)->seg_posti_loops++;
    }
    const uint64_t t_pc = it->hm ? 0 : seg_loop_last_postc(r, pl.ph, &K, it->idle_max);
    /* a host run: Busy from the Go's clock on, its clocks before it patched
     * after the loop (fewer: the loop goes on through the wait) */
    if (it->hm) {
        pl.q4[0] |= 1ull << 16;
        pl.q4[1] |= 1ull << 16;
    }
    const bool d_new = seg_loop_go(r, m, &pl, K, with_pins);
    if (posti_first) { /* the record of the PostI clock, if one of the last */
        if (d_new && k0 >= m->desc.k0)
            m->desc.pik = k0;
        else if (k0 + 4 >= r->k)
            m->rec[(r->c0 + k0) & 3].a |= TR_BITS(SEG_POSTI);
    }
    if (it->hm)
        seg_loop_host(r, m, it, K, k0, d_new, with_pins);
    else
        r->sdone += K;
    if (t_pc)
        return seg_loop_postc(r, m, t_pc, with_pins);
    if (r->k == r->n)
        return SEG_TRY_BREAK;
    r->try_loop = false; /* the next clock the general way (its item first) */
    return SEG_TRY_CONTINUE;
}

/* The general clock's pins: clock k's own bytes, its shares of the next two
 * clocks' (the OutputLatch delays). */
static inline __attribute__((always_inline)) void
seg_general_pins(seg_regs *r, seg_mem *m, const pp5_uop *u, const pp5_host_in *hin,
                 uint8_t addr, unsigned aludat, unsigned shift, uint64_t t, uint64_t dat,
                 const bool scripted)
{
    const uint64_t k = r->k, n = r->n;
    pp5_pins *pins_out = r->pins_out, *tail = m->tail;
    unsigned char *p0 = (unsigned char *)&pins_out[k];
    st64(p0, r->c0 + k);
    const uint64_t q4_base = r->q4_base;
    const uint64_t q4 = r->test_oe ? (q4_base & 0xffffffffull) | (uint64_t)u->uw << 32
                      : scripted && hin ? (q4_base & 0xffffffffull) | (uint64_t)hin->d << 32
                                        : q4_base;
    st64(p0 + 32, (r->trst & 1u) | (uint64_t)aludat << 8 | q4);
    r->trst = (r->trst >> 1) | shift << 2;
    /* (one test for both: the two clocks after are in the buffer but near its
     * end) */
    unsigned char *p1 = p0 + sizeof(pp5_pins), *p2 = p0 + 2 * sizeof(pp5_pins);
    if (__builtin_expect(k + 2 >= n, 0)) {
        p1 = SEG_PINS(k + 1);
        p2 = SEG_PINS(k + 2);
    }
    st16(p1 + 30, (uint16_t)(addr | (addr ^ u->pair0) << 8));
    st64(p2 + 8, ld64(u->alu[0]) ^ (uint64_t)(u->dir_en & !aludat));
    st_dat16(p2 + 16, ld64(u->alu[0] + 8), t & TR_LSB, dat);
}

/* A host clock (scripted) in the general way: the host side at the clock's
 * end, as clock_body(). Returns whether the segment stops after the clock
 * (it failed: *stp, or it entered RMode). */
static inline __attribute__((always_inline)) bool
seg_general_host(seg_regs *r, seg_mem *m, const pp5_host_in *hin, uint64_t t)
{
    pp5_igc *g = r->g;
    bool host_stop = false;
    const uint64_t ck = r->c0 + r->k;
    g->cycle = ck;
    const ls_status hs = pp5_igc_host_side(g, hin, (t & TR_BUSY_THEN) != 0, r->d);
    if (__builtin_expect(hs != LS_OK, 0)) {
        if (r->d)
            ls_diag_at_index(r->d, (long)ck);
        *r->stp = hs;
        host_stop = true;
    }
    r->cs = (r->cs & ~(unsigned)(CS_IBSY | CS_CBSY)) | (g->ctl.ibsy ? CS_IBSY : 0) |
            (g->ctl.cbsy ? CS_CBSY : 0); /* Go */
    seg_q4_busy(r);
    host_stop |= g->ctl.rmode; /* RMode entered: the full clock from now */
    m->in_ring[ck & 3] = hin;
    PP5_FAST(g)->seg_host_clocks++;
    return host_stop;
}

/* One clock, the general way (clock_body() with RMode 0, no host side but
 * scripted host clocks'): what the word does under the clock's conditions
 * (seg_ctab) and what the control state does (seg_trans) are table entries.
 * Returns whether the segment ends after it (or before it: a missing word). */
static inline __attribute__((always_inline)) bool
seg_general(seg_regs *r, seg_mem *m, const pp5_host_in *hin, const bool with_pins,
            const bool scripted)
{
    pp5_igc *g = r->g;
    unsigned pc = r->pc, n1 = r->n1, n2 = r->n2;
    const pp5_uop *u = &r->uop[pc & 511u];
    /* a missing word (a warning): the full clock; a word whose seg_ctab row is
     * not made yet: make it (one test for both) */
    if (__builtin_expect(!u->ctab_ok, 0)) {
        if (!u->exists)
            return true;
        pp5_igcf_ctab_build(g, pc & 511u);
    }
    const unsigned done = u->done;
    /* LoopCount: TC1, TC2 are in seg_ctab's entry, found from the counts at
     * the clock's start */
    if (__builtin_expect(done, 0)) {
        n1 = g->lc.lc1_post;
        n2 = g->lc.lc2_post;
    }
    const unsigned trr = r->trr_n;
    /* TRR, Shift, AddrGen */
    uint64_t e = r->ctab[(pc & 511u) * 32 + (ct_code(n1, n2) | trr)];
    if (!done) {
        n1 = (n1 - u->cnt1) & 0x7fu;
        n2 = (n2 - u->cnt2) & 0x7fu;
    }
    r->n1 = n1;
    r->n2 = n2;
    /* (Shift from the word, not from e: the look-up below need not wait for e) */
    const unsigned shift = (u->shift >> trr) & 1u;
    /* Controller, CSBLatch */
    const uint32_t sc = r->sc;
    const unsigned csb = sc < r->csb_until;
    const uint64_t t = pp5_igcf_seg_trans[r->cs | shift << 8 | csb << 9 |
                                 (unsigned)((uint64_t)sc + 1 >= r->csb_until) << 10 | done << 11];
    r->cs = TR_NEXT(t);
    r->pc = CT_NEXT(e);
    /* PixMemAddr */
    const uint8_t addr = (uint8_t)(r->ctr >> u->ctr_sa);
    r->ctr = (r->ctr & ~u->ctr_mask) | ((r->ctr + u->ctr_add) & u->ctr_mask);
    if (__builtin_expect(done, 0))
        r->ctr = (uint32_t)g->pma.post[0] | (uint32_t)g->pma.post[1] << 8 |
                 (uint32_t)g->pma.post[2] << 16;
    /* DirectReg */
    const unsigned aludat = r->shreg & 1u;
    if (u->dir_en)
        r->shreg = (r->shreg >> 1) | (r->shreg & 0x80000000u);
    /* Serializer */
    const uint64_t col = (r->blk[(sc < 127 ? sc : 127) >> 3] >> (sc & 7u)) & SEG_SPREAD6 &
                         (0 - (uint64_t)csb);
    const uint64_t dat = r->outB;
    if (shift) {
        r->outB = r->sepB;
        r->sepB = col;
        r->sc = sc + (sc != UINT32_MAX);
        r->trr_n = (unsigned)(r->stages >> 62) & 1u;
        r->stages = (r->stages << 1) | (t & TR_BITS(SEG_MSIN) ? SEG_MSIN_BIT : 0);
    }
    if (__builtin_expect(t & TR_EVENT, 0)) {
        if (t & TR_BITS(SEG_NEWL)) { /* a new instruction, not a branch */
            r->pc = g->seq.uaddr_post;
            /* (a loop may start with the routine's first word) */
            e = (e & ~CT_BRANCH) | CT_BACK;
            r->shreg = g->dr.post;
        }
        /* as clock_body(): the modules' postings, on the state in g */
        if (t & TR_BITS(SEG_POSTC))
            seg_post_c(g, &m->desc, m->blk_saved, r->k, r->c0, sc, &r->cs, &r->sc,
                       &r->csb_until, &r->stages);
        if (t & TR_BITS(SEG_POSTI))
            pp5_igc_post_i(g); /* not in RMode: no store write */
        seg_q4_busy(r);
    }
    const bool host_stop = scripted && hin ? seg_general_host(r, m, hin, t) : false;
    /* the record (bits 48…63 of e are not read from it), the pins */
    seg_rec *rc = &m->rec[(r->c0 + r->k) & 3];
    rc->a = e | t | (uint64_t)aludat << 17 | (uint64_t)addr << 32 |
            (scripted && hin ? TR_BITS(SEG_HOST) : 0);
    rc->dat = dat;
    if (with_pins)
        seg_general_pins(r, m, u, hin, addr, aludat, shift, t, dat, scripted);
    r->k++;
    if (scripted) {
        if (hin) {
            if (*r->stp != LS_OK)
                return true; /* the cursor stays on the failed item */
            r->si++;
            r->sdone = 0;
            if (host_stop)
                return true;
        } else {
            r->sdone++;
        }
    }
    if (r->until_not_busy & !(r->cs & (CS_IBSY | CS_CBSY)))
        return true; /* Busy fell: the caller's wait is over */
    /* loops close with a branch back; with CBsy and CSB low, the next shift
     * posts (and a loop that does not shift is rare) */
    r->try_loop = (unsigned)(e >> 63) & ~((r->cs & CS_CBSY) / CS_CBSY & (r->sc >= r->csb_until)) &
                  (r->k >= r->skip_to);
    return false;
}

/* The segment's end: the locals back into g, and the last (up to) four
 * clocks' records and, in order, their shares of the pins ring. */
static inline __attribute__((always_inline)) void
seg_end(const seg_regs *r, seg_mem *m, const bool scripted)
{
    pp5_igc *g = r->g;
    pp5_ser_fast *f = &PP5_FAST(g)->fs;
    pp5_serializer *s = &g->ser;
    const unsigned cs = r->cs;
    g->seq.pc = (uint16_t)r->pc;
    g->lc.lc1 = (uint8_t)r->n1;
    g->lc.lc2 = (uint8_t)r->n2;
    g->dr.shreg = r->shreg;
    g->pma.ctr[0] = (uint8_t)r->ctr;
    g->pma.ctr[1] = (uint8_t)(r->ctr >> 8);
    g->pma.ctr[2] = (uint8_t)(r->ctr >> 16);
    f->sc = r->sc;
    f->so6 = (uint16_t)(gather_bytes(r->sepB) | gather_bytes(r->outB) << 8);
    s->cl.first_pending = (cs & CS_FP) != 0;
    s->cl.msin_pending = (cs & CS_MP) != 0;
    s->trr.stages = r->stages >> (63 - r->top);
    g->ctl.ip = (cs & CS_IP) != 0;
    PP5_FAST(g)->mod_stale = true;
    const uint64_t c0 = r->c0, k = r->k, c_end = c0 + k;
    for (uint64_t c = c_end - (k < 4 ? k : 4); c < c_end; c++) {
        if (m->desc.valid && c - c0 >= m->desc.k0 && c - c0 < m->desc.kend)
            seg_self_rec(&m->desc, c - c0, &m->rec[c & 3]);
        const seg_rec *rc = &m->rec[c & 3];
        const unsigned bits = (unsigned)(rc->a >> 16) & 0xffffu;
        const unsigned rpc = (unsigned)rc->a & 0xffffu;
        const pp5_uop *u = &r->uop[rpc & 511u];
        const uint8_t addr = (uint8_t)(rc->a >> 32);
        const unsigned dat6 = gather_bytes(rc->dat);
        const bool lsb = (rc->a >> 40) & 1u, aludat = (bits & SEG_ALUDAT) != 0;
        const bool shift = bits & SEG_SHIFT, pair = u->pair & 1u;
        pp5_olrec *o = &PP5_FAST(g)->olr[c & 3];
        host_in_copy(&o->in, scripted && (bits & SEG_HOST) ? m->in_ring[c & 3] : &PP5_FAST(g)->run_in);
        o->uw = u->uw;
        o->pc = (uint16_t)rpc;
        o->addr = addr;
        o->dat_bits = (uint8_t)dat6;
        o->valid = true;
        o->dir_en = u->dir_en;
        o->aludat = aludat;
        o->rmode = false;
        o->shift = shift;
        o->lsb = lsb;
        o->pair = pair;
        o->trr = (bits & SEG_TRR) != 0;
        o->new_l = (bits & SEG_NEWL) != 0;
        o->branch = (bits & SEG_BRANCH) != 0;
        o->post_c = (bits & SEG_POSTC) != 0;
        o->post_i = (bits & SEG_POSTI) != 0;
        o->csb = (bits & SEG_CSB) != 0;
        o->msin = (bits & SEG_MSIN) != 0;
        o->tc1 = (bits & SEG_TC1) != 0;
        o->tc2 = (bits & SEG_TC2) != 0;
        ring_put(g, c, u->alu[0], u->dir_en, aludat, dat6, lsb, addr, pair, shift);
    }
    g->cycle = c_end;
    PP5_FAST(g)->seg_clocks += k;
}

/* Up to n quiet clocks (see above); returns how many ran (0: the next clock is
 * not quiet). The fast form is current (!fast_stale). */
static inline __attribute__((always_inline)) uint64_t
seg_run(pp5_igc *g, uint64_t n, bool until_not_busy, pp5_pins *pins_out, const bool with_pins,
        pp5_igc_script *sp, ls_status *stp, ls_diag *d, const bool scripted)
{
    /* RMode: NewL every clock, the store written by PostI: the full clock */
    if (g->ctl.rmode)
        return 0;
    seg_regs r;
    seg_mem m;
    r.g = g;
    r.c0 = g->cycle;
    r.n = n;
    r.pins_out = pins_out;
    r.until_not_busy = until_not_busy;
    r.stp = stp;
    r.d = d;
    /* the script's cursor (scripted: the host actions of the run) */
    r.items = scripted ? sp->items : NULL;
    r.sn = scripted ? sp->n : 0;
    r.si = scripted ? sp->i : 0;
    r.sdone = scripted ? sp->done : 0;
    seg_begin(&r, &m, with_pins);
    while (r.k < n) {
        seg_item it;
        const int next = seg_next_item(&r, &it, scripted);
        if (next == SEG_NEXT_OVER)
            break;
        if (next == SEG_NEXT_LOOP) {
            const int tl = seg_try_loop(&r, &m, &it, with_pins);
            if (tl == SEG_TRY_BREAK)
                break;
            if (tl == SEG_TRY_CONTINUE)
                continue;
        }
        if (seg_general(&r, &m, it.hin, with_pins, scripted))
            break;
    }
    if (scripted) {
        sp->i = r.si;
        sp->done = r.sdone;
    }
    if (r.k == 0)
        return 0;
    seg_end(&r, &m, scripted);
    return r.k;
}
#undef SEG_PINS

__attribute__((noinline)) uint64_t pp5_igcf_seg_run_pins(pp5_igc *g, uint64_t n, bool until,
                                                       pp5_pins *pins_out)
{
    return seg_run(g, n, until, pins_out, true, NULL, NULL, NULL, false);
}

__attribute__((noinline)) uint64_t pp5_igcf_seg_run_nopins(pp5_igc *g, uint64_t n, bool until)
{
    return seg_run(g, n, until, NULL, false, NULL, NULL, NULL, false);
}

__attribute__((noinline)) uint64_t pp5_igcf_seg_run_script(pp5_igc *g, uint64_t n,
                                                         pp5_pins *pins_out, pp5_igc_script *sp,
                                                         ls_status *st, ls_diag *d)
{
    return seg_run(g, n, false, pins_out, true, sp, st, d, true);
}

