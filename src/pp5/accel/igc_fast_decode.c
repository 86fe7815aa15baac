/* The fast IGC: pre-decode of the microcode store (see igc_fast_int.h for the
 * file map). */
#include "pp5/accel/igc_fast_int.h"


/* Everything a clock needs from a microword, obtained by running the module code
 * on scratch state for every input combination that matters. g: the options,
 * and the memo of the AddrGen pull-downs (seq_pulldown). */
void pp5_uop_decode(pp5_igc *g, pp5_uop *u, uint32_t uw, bool exists)
{
    pp5_igc_fast *const fx = PP5_FAST(g);
    const pp5_options *o = &g->opt;
    memset(u, 0, sizeof *u);
    u->uw = uw;
    u->exists = exists;
    u->done = (uw & PP5_UW_DONE) != 0;
    u->cnt1 = (uw & PP5_UW_CNT1) != 0;
    u->cnt2 = (uw & PP5_UW_CNT2) != 0;
    u->dir_en = (uw & PP5_UW_DIREN) != 0;
    u->braddr = (uint16_t)PP5_UW_BRADDR(uw);
    /* Controller: Shift for RMode × TRR */
    for (unsigned r = 0; r < 2; r++)
        for (unsigned t = 0; t < 2; t++) {
            pp5_controller c;
            pp5_controller_reset(&c);
            c.rmode = r;
            if (pp5_controller_shift(&c, o, uw, t))
                u->shift |= (uint8_t)(1u << (r * 2 + t));
        }
    /* Sequencer AddrGen: the pull-down for each combination of the conditions
     * (NewL is applied by the caller: it always pulls down). It reads the word
     * through its Seq field only (sequencer.c: the behaviour seq_table gives
     * that field; the branch address is not a condition), so it is run once
     * per Seq field value and IGC, on the first word with that field (the
     * tests' random microcode would show a pull-down that depended on more). */
    const unsigned sf = PP5_UW_SEQ(uw);
    if (!((fx->seq_pulldown_ok >> sf) & 1u)) {
        uint32_t pd = 0;
        for (unsigned cond = 0; cond < 32; cond++) {
            pp5_sequencer s; /* AddrGen reads pc and the posted address only (not
                              * the 416-word store: no need to clear it) */
            s.pc = 0;
            s.uaddr_post = 0;
            pp5_sequencer_next(&s, o, uw, false, cond & 1, (cond >> 1) & 1, (cond >> 3) & 1,
                               (cond >> 4) & 1, (cond >> 2) & 1);
            if (!s.branch)
                pd |= 1u << cond;
        }
        fx->seq_pulldown[sf] = pd;
        fx->seq_pulldown_ok |= (uint8_t)(1u << sf);
    }
    u->pulldown = fx->seq_pulldown[sf];
    /* PixMemAddr: which counter and which step */
    pp5_pixmemaddr p;
    memset(&p, 0, sizeof p);
    p.ctr[PP5_CTR_DST] = 10;
    p.ctr[PP5_CTR_SRC] = 20;
    p.ctr[PP5_CTR_AUX] = 30;
    uint8_t a = pp5_pixmemaddr_clock(&p, PP5_UW_PMA(uw), false);
    u->pma_ctr = a == 10 ? PP5_CTR_DST : a == 20 ? PP5_CTR_SRC : PP5_CTR_AUX;
    u->pma_step = (uint8_t)(p.ctr[u->pma_ctr] - a);
    u->ctr_sa = (uint8_t)(8u * u->pma_ctr);
    u->ctr_mask = 0xffu << u->ctr_sa;
    u->ctr_add = (uint32_t)u->pma_step << u->ctr_sa;
    /* OutputLatch: the pin bytes this word drives two clocks later (ACmp before
     * the DirEn XNOR) and its Pair decision one clock later, for RMode 0 and 1:
     * one clock with the word two clocks ago and one clock ago (address 0) */
    for (unsigned r = 0; r < 2; r++) {
        pp5_outputlatch ol;
        memset(&ol, 0, sizeof ol);
        pp5_ol_src src;
        memset(&src, 0, sizeof src);
        src.valid = true;
        src.uw = uw;
        src.rmode = r;
        pp5_pins pins;
        ol.hist[1] = src; /* becomes hist[2]: the ALU controls */
        ol.hist[0] = src; /* becomes hist[1]: the address, Pair */
        pp5_outputlatch_clock(&ol, &src, &pins);
        memcpy(u->alu[r], (const unsigned char *)&pins + offsetof(pp5_pins, acmp), 15);
        if (pins.addr_h != pins.addr_l)
            u->pair |= (uint8_t)(1u << r);
    }
    u->pair0 = (u->pair & 1u) ? 0xff : 0;
}

/* seg_ctab for the store address a (from uop[a]) and the status levels of
 * seg_ctab_st: the AddrGen and Shift decisions of the clock as
 * clock_body() takes them from the uop with RMode 0 and no NewL, indexed by
 * the loop counters as they are at the clock's start (after the reload of a
 * Done word) — so that the look-up does not wait for the word's Cnt bits:
 * TRR (bit 0: the two entries of a word's usual case share a cache line), LC1
 * (bits 1-2: 116, 117 or neither), LC2 (bits 3-4: 0, 1 or neither). */
__attribute__((noinline, cold)) void pp5_igcf_ctab_build(pp5_igc *g, unsigned a)
{
    pp5_igc_fast *const fx = PP5_FAST(g);
    pp5_uop *u = &fx->uop[a];
    const unsigned st = fx->seg_ctab_st;
    for (unsigned x = 0; x < 32; x++) {
        const unsigned trr = x & 1u, c1 = (x >> 1) & 3u, c2 = (x >> 3) & 3u;
        if ((c1 == 3) | (c2 == 3)) /* (no such code: ct_code()) */
            continue;
        /* the counter after the clock's step is at its terminal count
         * (TC1: 116, TC2: 0) iff it was that plus the step before */
        const unsigned d1 = u->done ? 0 : u->cnt1, d2 = u->done ? 0 : u->cnt2;
        const unsigned tc1 = c1 == 1 + d1, tc2 = c2 == 1 + d2;
        const unsigned cond = tc1 | tc2 << 1 | trr << 2 | st << 3;
        const unsigned shift = (u->shift >> trr) & 1u;
        const unsigned branch = !((u->pulldown >> cond) & 1u);
        const unsigned next = branch ? u->braddr : (a + 1) & 0x1ffu;
        const unsigned bits = shift * SEG_SHIFT | tc1 * SEG_TC1 | tc2 * SEG_TC2 |
                              branch * SEG_BRANCH | trr * SEG_TRR;
        /* (also into a word that branches to itself, QLOAD's ql2 say, so
         * that its loop may start with its first clock; from the word as it
         * is now: a later store write may leave this stale, which only moves
         * where a plan is tried — a plan checks the loop itself. Not into
         * the first word of a two-word loop: ZTEST's zla is entered with the
         * LSB token pending, which fails the plan and with it the host run's
         * loop a clock later, hr_no) */
        const bool head = !branch && fx->uop[next].braddr == next;
        fx->seg_ctab[a * 32 + x] = a | (uint64_t)bits << 16 | (uint64_t)next << 48 |
                                  (((branch && next <= a) || head) ? CT_BACK : 0);
    }
    u->ctab_ok = 1;
    fx->seg_ctab_rows++;
}


/* seg_ctab for the status levels st (ST1 | ST2 << 1): if it is for others,
 * every row is to be made again (on its word's first use: seg_run()). Rows are
 * made lazily because a fresh IGC (pp5_render makes one per frame) runs only
 * a few dozen of its 416 words in segments. */
void pp5_igcf_ctab_for(pp5_igc *g, unsigned st)
{
    pp5_igc_fast *const fx = PP5_FAST(g);
    if (fx->seg_ctab_st == st)
        return;
    fx->seg_ctab_st = st;
    for (unsigned a = 0; a < 512; a++) {
        fx->seg_ctab_drops += fx->uop[a].ctab_ok;
        fx->uop[a].ctab_ok = 0;
    }
}

/* seg_trans: the Controller's posting decisions and IP (controller.c, as
 * clock_body()), NewL = Done ∧ IP (sequencer.c), and the CSBLatch's LSB token
 * and MsIn (serializer.c: LSB while the first token is pending and CSB is high,
 * consumed by a shift; MsIn pending consumed by a shift, set again by a shift
 * in which CSB falls, A-18), for every state and conditions x (RMode 0). A
 * constant of the program (the same for every IGC), written out by the
 * preprocessor: TR_ENTRY(x) for x = 0 … 4095 (octal literals 00000 … 07777). */
#define TB(x, m) (((x) & (m)) ? 1u : 0u)
#define TR_NEWL(x) (TB(x, CS_DONE) & TB(x, CS_IP))
#define TR_POSTC(x) (TB(x, CS_CBSY) & !TB(x, CS_CSB) & TB(x, CS_SHIFT) & !TB(x, CS_PCP))
#define TR_POSTI(x) (TB(x, CS_IBSY) & !TB(x, CS_IP) & !TB(x, CS_PIP))
#define TR_IPN(x) (TR_POSTI(x) | (TB(x, CS_IP) & !TR_NEWL(x)))
#define TR_FPN(x) (TB(x, CS_FP) & !(TB(x, CS_SHIFT) & TB(x, CS_CSB)))
#define TR_FALL(x) (TB(x, CS_CSB) & TB(x, CS_LAST) & TB(x, CS_MBI))
#define TR_MPN(x) (TB(x, CS_SHIFT) ? TR_FALL(x) : TB(x, CS_MP))
#define TR_STATE(x)                                                                        \
    (TR_IPN(x) * CS_IP | (TB(x, CS_IBSY) & !TR_POSTI(x)) * CS_IBSY |                       \
     (TB(x, CS_CBSY) & !TR_POSTC(x)) * CS_CBSY | TR_POSTC(x) * CS_PCP |                    \
     TR_POSTI(x) * CS_PIP | TR_FPN(x) * CS_FP | TR_MPN(x) * CS_MP | TB(x, CS_MBI) * CS_MBI)
#define TR_SIGNALS(x)                                                                      \
    (TB(x, CS_CSB) * SEG_CSB | (TB(x, CS_MP) & TB(x, CS_SHIFT)) * SEG_MSIN |               \
     TR_POSTC(x) * SEG_POSTC | TR_POSTI(x) * SEG_POSTI | TR_NEWL(x) * SEG_NEWL)
#define TR_ENTRY(x)                                                                        \
    ((uint64_t)TR_STATE(x) << 56 | (uint64_t)(TB(x, CS_IBSY) | TB(x, CS_CBSY)) << 48 |    \
     (uint64_t)(TB(x, CS_FP) & TB(x, CS_CSB)) << 40 | TR_BITS(TR_SIGNALS(x)))
#define TR_O1(a, b, c)                                                                     \
    TR_ENTRY(0##a##b##c##0), TR_ENTRY(0##a##b##c##1), TR_ENTRY(0##a##b##c##2),             \
        TR_ENTRY(0##a##b##c##3), TR_ENTRY(0##a##b##c##4), TR_ENTRY(0##a##b##c##5),         \
        TR_ENTRY(0##a##b##c##6), TR_ENTRY(0##a##b##c##7)
#define TR_O2(a, b)                                                                        \
    TR_O1(a, b, 0), TR_O1(a, b, 1), TR_O1(a, b, 2), TR_O1(a, b, 3), TR_O1(a, b, 4),       \
        TR_O1(a, b, 5), TR_O1(a, b, 6), TR_O1(a, b, 7)
#define TR_O3(a)                                                                           \
    TR_O2(a, 0), TR_O2(a, 1), TR_O2(a, 2), TR_O2(a, 3), TR_O2(a, 4), TR_O2(a, 5),         \
        TR_O2(a, 6), TR_O2(a, 7)
const uint64_t pp5_igcf_seg_trans[4096] = {TR_O3(0), TR_O3(1), TR_O3(2), TR_O3(3),
                                         TR_O3(4), TR_O3(5), TR_O3(6), TR_O3(7)};
_Static_assert(TR_ENTRY(0) == 0 &&
                   TR_ENTRY(CS_IBSY) ==
                       ((uint64_t)(CS_IP | CS_PIP) << 56 | TR_BUSY_THEN | TR_BITS(SEG_POSTI)),
               "seg_trans: an idle state stays; IBsy without IP posts I and sets IP");

void pp5_igc_fast_word(pp5_igc *g, unsigned addr)
{
    pp5_igc_fast *const fx = PP5_FAST(g);
    /* (ctab_ok cleared: the seg_ctab row is made again on the word's first use) */
    fx->seg_ctab_drops += fx->uop[addr].ctab_ok;
    pp5_uop_decode(g, &fx->uop[addr], g->seq.ucode[addr], true);
    /* (any loop plan's shape may read this word: all dropped) */
    memset(fx->seg_shape_key, 0, sizeof fx->seg_shape_key);
}

void pp5_igc_fast_decode_all(pp5_igc *g)
{
    pp5_igc_fast *const fx = PP5_FAST(g);
    fx->seq_pulldown_ok = 0;
    /* most of a store is the same word (0): decode each distinct word once */
    for (unsigned a = 0; a < 512; a++) {
        bool exists = a < PP5_UCODE_WORDS;
        uint32_t w = exists ? g->seq.ucode[a] : 0;
        if (a > 0 && fx->uop[a - 1].uw == w && fx->uop[a - 1].exists == exists)
            fx->uop[a] = fx->uop[a - 1];
        else
            pp5_uop_decode(g, &fx->uop[a], w, exists);
    }
    fx->seg_ctab_st = 0xff; /* no rows yet (seg_ctab_for) */
    memset(fx->seg_shape_key, 0, sizeof fx->seg_shape_key); /* no loop plan shapes yet */
}

void pp5_igc_fast_init(pp5_igc *g)
{
    pp5_igc_fast *const fx = PP5_FAST(g);
    fx->trr_top = pp5_trr_top(&g->opt);
    fx->trr_mask = fx->trr_top >= 63 ? ~0ull : ((1ull << (fx->trr_top + 1)) - 1);
    fx->trr_msin_bit = 1ull << (fx->trr_top - 22); /* as serializer.c: top - 22 */
    fx->msin_always = g->opt.msb_token == PP5_MSB_TOKEN_ALWAYS;
    fx->fast_stale = true;
    fx->mod_stale = false;
}

