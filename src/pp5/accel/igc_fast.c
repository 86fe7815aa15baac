/* The IGC's fast step: the clock of igc.c (pp5_igc_step) computed with less
 * work per clock, giving the same pins, state, warnings and status.
 *
 * Not a second model: every decision is either taken from the module functions
 * themselves (microwords are decoded once per store address by running
 * Controller, Sequencer, PixMemAddr and OutputLatch code on scratch state) or is
 * the module's update rewritten as a function of the shift count. The full step
 * stays the model of record; tests/pp5/test_igc_fast.c compares the two after
 * every clock (pins, every state field, warnings) on random microcode and host
 * streams.
 *
 * What is different is the representation of the parts that cost most per
 * clock (see pp5_ser_fast, pp5_olrec and pins_ring in igc_internal.h):
 *  - Serializer. Between two postings the tokens only move, one stage per shift,
 *    so every per-shift field is a function of s = shift clocks since the
 *    posting: token stage tok0 + s (saturating at the end of its shifter), busy
 *    latch k clear from a known s, CSB = (s < csb_until), SOne = a 1 among the
 *    first s bits. The CoefGate input of all six coefficients (serial negation
 *    and nullify included) is computed for every s at the posting, as 64-bit
 *    words, and read one 6-bit column per shift.
 *  - OutputLatch. Each clock writes what it contributes to the pins of the next
 *    three clocks into a ring of four pp5_pins (its pin bytes as pre-decoded for
 *    its RMode); the pins of a clock are then one copy.
 *  - The clock's own signals (NewL, PostC, TRR, …) and inputs go into a record
 *    of four clocks instead of the module structs.
 * The module structs' copies of these fields go stale during fast clocks and are
 * rebuilt by pp5_igc_fast_unpack() when something reads them. */
#include "pp5/accel/igc_fast.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#define PIN_OFF(f) (offsetof(pp5_pins, f) - offsetof(pp5_pins, acmp))
_Static_assert(PIN_OFF(redundant) == 14 && PIN_OFF(dat) == 15 && PIN_OFF(lsb) == 21 &&
                   PIN_OFF(addr_l) == 22 && PIN_OFF(addr_h) == 23 && PIN_OFF(trst) == 24 &&
                   PIN_OFF(aludat) == 25 && PIN_OFF(busy) == 26 && PIN_OFF(d_out_en) == 27 &&
                   PIN_OFF(d_out) == 28 && sizeof(pp5_pins) == 40,
               "pp5_pins: the fast step copies acmp…addr_h as blocks (pins_ring)");

/* The pins are written as 8-byte words whose byte k is pins byte (offset + k). */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "src/pp5/accel/igc_fast.c writes pp5_pins as little-endian words"
#endif

enum { SER_LEN_I = PP5_TS_LEN_I };
_Static_assert(sizeof(pp5_uop) == 64, "pp5_uop: 64 bytes, indexing is a shift");

/* A quiet segment's record of one clock (seg_run() below): a compact pair of
 * words. Bits 48…63 of a are free (seg_ctab entries leave the next address
 * and the branch-back flag there; nothing reads them from a record). */
typedef struct seg_rec {
    uint64_t a;     /* PC (bits 0..15), SEG_* << 16, Addr << 32, LSB << 40 */
    uint64_t dat;   /* *Dat of the clock, bit k in byte k */
} seg_rec;
enum {
    SEG_SHIFT = 1u << 0, SEG_ALUDAT = 1u << 1, SEG_TC1 = 1u << 2, SEG_TC2 = 1u << 3,
    SEG_BRANCH = 1u << 4, SEG_CSB = 1u << 5, SEG_MSIN = 1u << 6, SEG_TRR = 1u << 7,
    SEG_POSTC = 1u << 8, SEG_POSTI = 1u << 9, SEG_NEWL = 1u << 10,
    SEG_HOST = 1u << 11, /* a host clock (run_script): its inputs in the item */
};
/* The control state of the general segment clock, one word (seg_trans) */
enum {
    CS_IP = 1u << 0, CS_IBSY = 1u << 1, CS_CBSY = 1u << 2, CS_PCP = 1u << 3, /* PostC' */
    CS_PIP = 1u << 4, /* PostI' */
    CS_FP = 1u << 5,  /* the LSB token pending (first_pending) */
    CS_MP = 1u << 6,  /* MsIn pending */
    CS_MBI = 1u << 7, /* the set's MBI, or MsIn always */
    /* the clock's conditions, above the state in seg_trans's index */
    CS_SHIFT = 1u << 8, CS_CSB = 1u << 9, CS_LAST = 1u << 10 /* s + 1 ≥ csb_until */,
    CS_DONE = 1u << 11,
};
/* seg_trans entry: the signal bits of the record and LSB where seg_rec.a has
 * them (SEG_* << 16, bit 40), the next state in bits 56…63 */
#define TR_LSB (1ull << 40)
#define TR_BITS(b) ((uint64_t)(b) << 16)
#define TR_EVENT TR_BITS(SEG_POSTC | SEG_POSTI | SEG_NEWL)
#define TR_NEXT(t) ((unsigned)((t) >> 56))
/* bit 48: IBsy or CBsy at the clock's start (the host side's Busy; seg_rec.a's
 * bits 48…63 are not read) */
#define TR_BUSY_THEN (1ull << 48)
/* seg_ctab entry: seg_rec.a's PC and SEG_SHIFT, TC1, TC2, BRANCH, TRR; the next
 * address (no NewL) in bits 48…56; bit 63: a branch to the same or an earlier
 * address (a loop may close) */
#define CT_NEXT(e) ((unsigned)((e) >> 48) & 0x1ffu)
#define CT_BACK (1ull << 63)
#define CT_BRANCH ((uint64_t)SEG_BRANCH << 16)

/* ---------------- pre-decode ---------------- */

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
static __attribute__((noinline, cold)) void seg_ctab_build(pp5_igc *g, unsigned a)
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

/* seg_ctab's index bits for the counters n1, n2 at the clock's start:
 * LC1 116 → 1, 117 → 2 (bits 1-2), LC2 0 → 1, 1 → 2 (bits 3-4), else 0 — as
 * two look-ups (the counters are 7-bit; a byte indexes them all) */
static const uint8_t ct_code1[256] = {[PP5_LC1_TERMINAL] = 1u << 1, [PP5_LC1_TERMINAL + 1] = 2u << 1};
static const uint8_t ct_code2[256] = {[PP5_LC2_TERMINAL] = 1u << 3, [PP5_LC2_TERMINAL + 1] = 2u << 3};
static inline unsigned ct_code(unsigned n1, unsigned n2)
{
    return (unsigned)ct_code1[(uint8_t)n1] | ct_code2[(uint8_t)n2];
}

/* seg_ctab for the status levels st (ST1 | ST2 << 1): if it is for others,
 * every row is to be made again (on its word's first use: seg_run()). Rows are
 * made lazily because a fresh IGC (pp5_render makes one per frame) runs only
 * a few dozen of its 416 words in segments. */
static void seg_ctab_for(pp5_igc *g, unsigned st)
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
static const uint64_t seg_trans[4096] = {TR_O3(0), TR_O3(1), TR_O3(2), TR_O3(3),
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

/* ---------------- Serializer, compact form ---------------- */

/* Bit 0 of each byte k (k = 0..7) → bit k: the products land on distinct bits,
 * so nothing carries into the top byte. */
static inline unsigned gather_bytes(uint64_t v)
{
    return (unsigned)(((v & 0x0101010101010101ull) * 0x0102040810204080ull) >> 56);
}

static inline uint64_t low_mask(uint32_t s) { return s >= 64 ? ~0ull : (1ull << s) - 1; }

/* Coefficient k of the compact form, from its posted latches (ManReg, sign,
 * nullify), its token stage at the base t (tok0[k]), SOne (sone) and busy
 * latch (bsy) at the base: its raw bit stream x[k] and busy-clear point; returns
 * its gated CoefGate input by s; puts bit k of the tail (the input past the
 * stream's end) in *tail and raises *until to the clear point if busy.
 * Branch-free (masks and selects): the bits are data, a branch on them is
 * mispredicted often, once per posting. */
static inline __attribute__((always_inline)) uint64_t
ser_fast_coef(pp5_ser_fast *f, const pp5_serializer *s, int k, int t, unsigned sone,
              unsigned bsy, unsigned *tail, uint32_t *until)
{
    /* CoefSer bit-line: bits 40..62 = ManReg, 63 = the leading 1, 0 elsewhere
     * (and 0 at and beyond the shifter's end, which is past 63). */
    const uint64_t w = (uint64_t)(s->cs[k].man_reg | (1u << 23)) << 40;
    const uint64_t x = (unsigned)t < 64u ? w >> t : 0;
    f->x[k] = x;
    const uint64_t so = 0 - (uint64_t)sone;
    const uint64_t sign = 0 - (uint64_t)s->cg[k].sign, en = 0 - (uint64_t)s->cg[k].enable;
    /* CoefGate: b(s) = enable ∧ (x_s ⊕ (sign ∧ SOne before s)); SOne before s
     * is the bits strictly above x's lowest 1, or all of them if set already. */
    const uint64_t inv = sign & (so | ~(x ^ (x - 1)));
    *tail |= (unsigned)(en & sign & (so | (0 - (uint64_t)(x != 0))) & 1u) << k;
    const int len = s->cs[k].len;
    const uint32_t clear = t < 0 ? UINT32_MAX : (uint32_t)(len + 1 - t > 1 ? len + 1 - t : 1);
    f->clear_at[k] = clear;
    const uint32_t c = bsy ? clear : 0;
    *until = c > *until ? c : *until;
    return en & (x ^ inv);
}

/* The rest of the compact form, from the six coefficients' gated inputs y, tail
 * bits and latest clear point (ser_fast_coef()), tok0[6] and bsy0: ITok's clear
 * point, CSB's end, the CoefGate input blocks. */
static void ser_fast_blk(pp5_ser_fast *f, const uint64_t y[6], unsigned tail, uint32_t until)
{
    const int t = f->tok0[6];
    const uint32_t clear6 = t < 0 ? UINT32_MAX
                                  : (uint32_t)(SER_LEN_I + 1 - t > 1 ? SER_LEN_I + 1 - t : 1);
    f->clear_at[6] = clear6;
    const uint32_t c6 = ((f->bsy0 >> 6) & 1u) ? clear6 : 0;
    f->csb_until = c6 > until ? c6 : until;
    /* bit k of tail → 0xff in byte k (no carries: each byte is 0 or 1 times 255) */
    const uint64_t tv = ((tail * 0x0000000810204081ull) & 0x0000010101010101ull) * 0xffu;
#if defined(__SSE2__)
    /* blk[j] byte k = y[k] byte j: an 8×8 byte transpose (rows 6, 7 zero) as
     * three rounds of unpacks in registers (bytes, 16-bit pairs, 32-bit
     * quads), stored as 16-byte pairs of blk words (a load of one word lies
     * inside one store: forwarded) */
    const __m128i z = _mm_setzero_si128();
    const __m128i a01 = _mm_unpacklo_epi8(_mm_cvtsi64_si128((long long)y[0]),
                                          _mm_cvtsi64_si128((long long)y[1]));
    const __m128i a23 = _mm_unpacklo_epi8(_mm_cvtsi64_si128((long long)y[2]),
                                          _mm_cvtsi64_si128((long long)y[3]));
    const __m128i a45 = _mm_unpacklo_epi8(_mm_cvtsi64_si128((long long)y[4]),
                                          _mm_cvtsi64_si128((long long)y[5]));
    const __m128i lo03 = _mm_unpacklo_epi16(a01, a23), hi03 = _mm_unpackhi_epi16(a01, a23);
    const __m128i lo47 = _mm_unpacklo_epi16(a45, z), hi47 = _mm_unpackhi_epi16(a45, z);
    _mm_storeu_si128((__m128i *)&f->blk[0], _mm_unpacklo_epi32(lo03, lo47));
    _mm_storeu_si128((__m128i *)&f->blk[2], _mm_unpackhi_epi32(lo03, lo47));
    _mm_storeu_si128((__m128i *)&f->blk[4], _mm_unpacklo_epi32(hi03, hi47));
    _mm_storeu_si128((__m128i *)&f->blk[6], _mm_unpackhi_epi32(hi03, hi47));
    const __m128i t2 = _mm_set1_epi64x((long long)tv);
    for (int j = 8; j < 16; j += 2)
        _mm_storeu_si128((__m128i *)&f->blk[j], t2);
#else
    /* blk[j] byte k = y[k] byte j: an 8×8 byte transpose (rows 6, 7 zero) in
     * three rounds of block swaps */
    /* (named scalars, not arrays: a vectorised version mixes 8- and 16-byte
     * stores and loads of the same bytes, which the CPU cannot forward) */
    uint64_t r0 = y[0], r1 = y[1], r2 = y[2], r3 = y[3], r4 = y[4], r5 = y[5], r6 = 0, r7 = 0;
#define SWAP_BLOCKS(a, b, sh, lo)                                                          \
    do {                                                                                   \
        const uint64_t a_ = a, b_ = b;                                                     \
        a = (a_ & (lo)) | ((b_ & (lo)) << (sh));                                           \
        b = ((a_ >> (sh)) & (lo)) | (b_ & ~(lo));                                          \
    } while (0)
    SWAP_BLOCKS(r0, r4, 32, 0x00000000ffffffffull);
    SWAP_BLOCKS(r1, r5, 32, 0x00000000ffffffffull);
    SWAP_BLOCKS(r2, r6, 32, 0x00000000ffffffffull);
    SWAP_BLOCKS(r3, r7, 32, 0x00000000ffffffffull);
    SWAP_BLOCKS(r0, r2, 16, 0x0000ffff0000ffffull);
    SWAP_BLOCKS(r1, r3, 16, 0x0000ffff0000ffffull);
    SWAP_BLOCKS(r4, r6, 16, 0x0000ffff0000ffffull);
    SWAP_BLOCKS(r5, r7, 16, 0x0000ffff0000ffffull);
    SWAP_BLOCKS(r0, r1, 8, 0x00ff00ff00ff00ffull);
    SWAP_BLOCKS(r2, r3, 8, 0x00ff00ff00ff00ffull);
    SWAP_BLOCKS(r4, r5, 8, 0x00ff00ff00ff00ffull);
    SWAP_BLOCKS(r6, r7, 8, 0x00ff00ff00ff00ffull);
#undef SWAP_BLOCKS
    f->blk[0] = r0;
    f->blk[1] = r1;
    f->blk[2] = r2;
    f->blk[3] = r3;
    f->blk[4] = r4;
    f->blk[5] = r5;
    f->blk[6] = r6;
    f->blk[7] = r7;
    for (int j = 8; j < 16; j++)
        f->blk[j] = tv;
#endif
}

/* From tok0, sone0, bsy0 and the posted latches (ManReg, sign, nullify): the raw
 * bit streams, the gated CoefGate input per s, the busy-clear points and CSB. */
static void ser_fast_build(pp5_igc *g)
{
    pp5_ser_fast *f = &PP5_FAST(g)->fs;
    uint64_t y[6];
    unsigned tail = 0;
    uint32_t until = 0;
    for (int k = 0; k < 6; k++)
        y[k] = ser_fast_coef(f, &g->ser, k, f->tok0[k], (f->sone0 >> k) & 1u,
                             (f->bsy0 >> k) & 1u, &tail, &until);
    ser_fast_blk(f, y, tail, until);
}

/* Bit sc of the six raw bit streams, as bits 0..5 (0 outside 0..63). */
static unsigned raw_bits_at(const pp5_ser_fast *f, int32_t sc)
{
    if ((uint32_t)sc >= 64)
        return 0;
    /* (written out: as a loop it was compiled as one, ~60 instructions a posting) */
    return (unsigned)((f->x[0] >> sc) & 1u) | (unsigned)((f->x[1] >> sc) & 1u) << 1 |
           (unsigned)((f->x[2] >> sc) & 1u) << 2 | (unsigned)((f->x[3] >> sc) & 1u) << 3 |
           (unsigned)((f->x[4] >> sc) & 1u) << 4 | (unsigned)((f->x[5] >> sc) & 1u) << 5;
}

static inline uint64_t ld64(const void *p)
{
    uint64_t v;
    memcpy(&v, p, sizeof v);
    return v;
}
static inline uint32_t ld32(const void *p)
{
    uint32_t v;
    memcpy(&v, p, sizeof v);
    return v;
}
static inline uint16_t ld16(const void *p)
{
    uint16_t v;
    memcpy(&v, p, sizeof v);
    return v;
}
static inline void st64(void *p, uint64_t v) { memcpy(p, &v, sizeof v); }

/* Bytes 16…31 of a pins word: lo | dat << 56 and hi | dat >> 8 — the data
 * bits (one a byte, bytes 0…5 of dat) moved up seven bytes across the two
 * words: one 16-byte store (the EMC reads them a block later, not at once) */
static inline void st_dat16(void *p, uint64_t lo, uint64_t hi, uint64_t dat)
{
#if defined(__SSE2__)
    const __m128i d = _mm_slli_si128(_mm_cvtsi64_si128((long long)dat), 7);
    _mm_storeu_si128((__m128i *)p, _mm_or_si128(d, _mm_set_epi64x((long long)hi, (long long)lo)));
#else
    st64(p, lo | dat << 56);
    st64((unsigned char *)p + 8, hi | dat >> 8);
#endif
}
static inline void st16(void *p, uint16_t v) { memcpy(p, &v, sizeof v); }

/* What clock c contributes to the pins of the next three clocks (OutputLatch,
 * outputlatch.c): its ALU controls, coefficient bits and LSB two clocks later,
 * its address one clock later, its Shift as TrSt three clocks later. The pins
 * bytes 8..31 are three 8-byte words (q1: acmp…cgts_c, q2: ldc…redundant and
 * ADat, q3: BDat…FDat, LSB, AddrL, AddrH) written whole, and read back only
 * in pieces that each lie inside one store (ring_pins()): a load that spans
 * two stores cannot be forwarded and waits for both to reach the cache. */
static inline void ring_put(pp5_igc *g, uint64_t c, const uint8_t *alu16, bool dir_en,
                            bool aludat, unsigned dat6, bool lsb, uint8_t addr, bool pair,
                            bool shift)
{
    pp5_igc_fast *const fx = PP5_FAST(g);
    unsigned char *b2 = (unsigned char *)&fx->pins_ring[(c + 2) & 3] + offsetof(pp5_pins, acmp);
    /* XNOR(ACmp, ALUDat) under DirEn = ACmp ⊕ ¬ALUDat */
    const uint64_t dat = (dat6 * 0x0000000810204081ull) & 0x0000010101010101ull;
    st64(b2, ld64(alu16) ^ (uint64_t)(dir_en & !aludat));
    st64(b2 + 8, ld64(alu16 + 8) | dat << 56); /* alu16[15] is 0 */
    st64(b2 + 16, (dat >> 8) | (uint64_t)lsb << 40); /* AddrL/H: clock c+1 writes them */
    unsigned char *p1 = (unsigned char *)&fx->pins_ring[(c + 1) & 3];
    st16(p1 + offsetof(pp5_pins, addr_l), (uint16_t)(addr | (uint8_t)(pair ? ~addr : addr) << 8));
    fx->pins_ring[(c + 3) & 3].trst = shift;
}

/* The ring slot of clock c: pins bytes 8..31 as q1, q2, q3 and TrSt (each load
 * inside one store of ring_put()). */
static inline void ring_pins(const pp5_igc *g, uint64_t c, uint64_t *q1, uint64_t *q2,
                             uint64_t *q3, unsigned *trst)
{
    const unsigned char *sl = (const unsigned char *)&PP5_FAST(g)->pins_ring[c & 3];
    *q1 = ld64(sl + 8);
    *q2 = ld64(sl + 16);
    *q3 = (uint64_t)ld32(sl + 24) | (uint64_t)ld16(sl + 28) << 32 | (uint64_t)ld16(sl + 30) << 48;
    *trst = sl[offsetof(pp5_pins, trst)];
}

_Static_assert(offsetof(pp5_host_in, wr_en) == 0 && offsetof(pp5_host_in, t) == 1 &&
                   offsetof(pp5_host_in, d) == 4 && offsetof(pp5_host_in, go) == 8 &&
                   offsetof(pp5_host_in, st1) == 9 && offsetof(pp5_host_in, st2) == 10 &&
                   offsetof(pp5_host_in, reset) == 11 && offsetof(pp5_host_in, test_oe) == 12 &&
                   offsetof(pp5_host_in, test_pe) == 13 && sizeof(pp5_host_in) == 16,
               "pp5_host_in: run_in is written as two 8-byte words");

/* A copy of run_in (two words) */
static inline void host_in_copy(pp5_host_in *to, const pp5_host_in *from)
{
    st64(to, ld64(from));
    st64((unsigned char *)to + 8, ld64((const unsigned char *)from + 8));
}

/* The pins of clock c (its record olr[c & 3] done): the ring slot, then ALUDat
 * of the clock, Busy at its end and the D pads — written after the copy, so
 * the copy never reads this clock's stores. */
static inline void fast_pins_patch(const pp5_igc *g, pp5_pins *p, uint64_t c)
{
    const pp5_olrec *r0 = &PP5_FAST(g)->olr[c & 3];
    p->cycle = c;
    p->aludat = r0->aludat;
    p->busy = g->ctl.ibsy | g->ctl.cbsy;
    p->d_out_en = r0->in.test_pe;
    p->d_out = r0->in.test_oe ? r0->uw : r0->in.d;
}

static inline void fast_pins(const pp5_igc *g, pp5_pins *p, uint64_t c)
{
    const pp5_olrec *r0 = &PP5_FAST(g)->olr[c & 3];
    uint64_t q1, q2, q3;
    unsigned trst;
    ring_pins(g, c, &q1, &q2, &q3, &trst);
    unsigned char *b = (unsigned char *)p;
    st64(b, c);
    st64(b + 8, q1);
    st64(b + 16, q2);
    st64(b + 24, q3);
    const uint32_t d_out = r0->in.test_oe ? r0->uw : r0->in.d;
    st64(b + 32, (uint64_t)trst | (uint64_t)r0->aludat << 8 |
                     (uint64_t)(g->ctl.ibsy | g->ctl.cbsy) << 16 |
                     (uint64_t)r0->in.test_pe << 24 | (uint64_t)d_out << 32);
}


/* Module structs → compact form (s = 0 at the current state). */
void pp5_igc_fast_pack(pp5_igc *g)
{
    pp5_igc_fast *const fx = PP5_FAST(g);
    pp5_ser_fast *f = &fx->fs;
    const pp5_serializer *s = &g->ser;
    memset(f, 0, sizeof *f);
    for (int k = 0; k < 6; k++) {
        f->tok0[k] = (int16_t)s->cs[k].tok;
        f->sone0 |= (uint8_t)(s->cg[k].sone << k);
        f->bsy0 |= (uint8_t)(s->cl.bsy[k] << k);
        f->so6 |= (uint16_t)(s->cg[k].sep_stage << k | s->cg[k].out_stage << (8 + k));
        f->bit6 |= (uint8_t)(s->cs[k].bit << k);
    }
    f->bit6_at = g->cycle;
    f->tok0[6] = (int16_t)s->it.tok;
    f->bsy0 |= (uint8_t)(s->cl.bsy[6] << 6);
    f->bits_sent0 = s->bits_sent;
    ser_fast_build(g);
    /* OutputLatch history → records (hist[k] = clock n-1-k) and the pins ring,
     * oldest first (the clocks n-4 … n-1 have their pins of n … n+2 to put) */
    const uint64_t n = g->cycle;
    memset(fx->pins_ring, 0, sizeof fx->pins_ring);
    for (unsigned k = 4; k-- > 0;) {
        const pp5_ol_src *h = &g->ol.hist[k];
        const uint64_t c = n - 1 - k;
        pp5_olrec *r = &fx->olr[c & 3];
        memset(r, 0, sizeof *r);
        if (!h->valid)
            continue;
        pp5_uop u;
        pp5_uop_decode(g, &u, h->uw, true);
        unsigned dat6 = 0;
        for (int j = 0; j < 6; j++)
            dat6 |= (unsigned)h->dat[j] << j;
        bool pair = (u.pair >> h->rmode) & 1u;
        if (k < 3)
            ring_put(g, c, u.alu[h->rmode], h->dir_en, h->aludat, dat6, h->lsb, h->addr, pair,
                     h->shift);
        r->uw = h->uw;
        r->addr = h->addr;
        r->dat6 = (uint8_t)dat6;
        r->valid = true;
        r->dir_en = h->dir_en;
        r->aludat = h->aludat;
        r->rmode = h->rmode;
        r->shift = h->shift;
        r->lsb = h->lsb;
        r->pair = pair;
    }
    /* the last clock's signals and inputs → the latest record */
    pp5_olrec *r0 = &fx->olr[(n - 1) & 3];
    r0->in = g->il.in;
    r0->uw = g->uw;
    r0->pc = g->pc_exec;
    r0->trr = s->trr.trr;
    r0->new_l = g->seq.new_l;
    r0->branch = g->seq.branch;
    r0->post_c = g->ctl.post_c;
    r0->post_i = g->ctl.post_i;
    r0->csb = s->cl.csb;
    r0->msin = s->cl.msin;
    r0->tc1 = g->lc.tc1;
    r0->tc2 = g->lc.tc2;
}

/* Compact form → module structs (every field the module clock would hold). */
void pp5_igc_fast_unpack(pp5_igc *g)
{
    pp5_igc_fast *const fx = PP5_FAST(g);
    const pp5_ser_fast *f = &fx->fs;
    pp5_serializer *s = &g->ser;
    const uint64_t last = g->cycle - 1; /* between clocks: the counter has advanced */
    const pp5_olrec *r0 = &fx->olr[last & 3];
    const bool reset = r0->in.reset; /* the Controller was reset at the clock's end */
    uint32_t sc = f->sc;
    /* s at the start of the last clock */
    uint32_t sc_last = !r0->shift ? sc : sc == UINT32_MAX ? sc : sc - 1;
    unsigned bits = f->bit6_at == g->cycle ? f->bit6 : raw_bits_at(f, (int32_t)(sc_last < 64 ? sc_last : 64));
    for (int k = 0; k < 6; k++) {
        int t0 = f->tok0[k], len = s->cs[k].len;
        s->cs[k].tok = t0 < 0 || t0 > len ? t0
                     : (int)((uint64_t)t0 + sc > (uint64_t)len + 1 ? (uint64_t)len + 1
                                                                   : (uint64_t)t0 + sc);
        s->cs[k].bit = (bits >> k) & 1u;
        s->cg[k].sone = ((f->sone0 >> k) & 1u) || (f->x[k] & low_mask(sc)) != 0;
        s->cg[k].sep_stage = (f->so6 >> k) & 1u;
        s->cg[k].out_stage = (f->so6 >> (8 + k)) & 1u;
        s->cg[k].dat = (r0->dat6 >> k) & 1u;
        s->cl.bsy[k] = ((f->bsy0 >> k) & 1u) && sc < f->clear_at[k];
    }
    int t0 = f->tok0[6];
    s->it.tok = t0 < 0 || t0 > SER_LEN_I ? t0
              : (int)((uint64_t)t0 + sc > SER_LEN_I + 1 ? SER_LEN_I + 1 : (uint64_t)t0 + sc);
    s->cl.bsy[6] = ((f->bsy0 >> 6) & 1u) && sc < f->clear_at[6];
    s->bits_sent = f->bits_sent0 + (sc < f->csb_until ? sc : f->csb_until);
    s->cl.csb = r0->csb;
    s->cl.lsb = r0->lsb;
    s->cl.msin = r0->msin;
    s->trr.trr = r0->trr;
    /* the other signals of the last clock */
    g->uw = r0->uw;
    g->rd_data = r0->uw;
    g->pc_exec = r0->pc;
    g->lc.tc1 = r0->tc1;
    g->lc.tc2 = r0->tc2;
    g->pma.addr = r0->addr;
    g->dr.aludat = r0->aludat;
    g->seq.branch = r0->branch;
    g->seq.new_l = r0->new_l; /* the clock's signals: Reset leaves them (igc.c host_side) */
    g->ctl.shift = r0->shift;
    g->ctl.post_c = r0->post_c;
    g->ctl.post_i = r0->post_i;
    g->ctl.post_c_prev = !reset && r0->post_c;
    g->ctl.post_i_prev = !reset && r0->post_i;
    pp5_inputlatch *il = &g->il;
    il->in = r0->in;
    il->st1 = r0->in.st1;
    il->st2 = r0->in.st2;
    il->d_bus = r0->in.d;
    /* OutputLatch history */
    for (unsigned k = 0; k < 4; k++) {
        const pp5_olrec *r = &fx->olr[(last - k) & 3u];
        pp5_ol_src *h = &g->ol.hist[k];
        memset(h, 0, sizeof *h);
        if (!r->valid)
            continue;
        h->valid = true;
        h->uw = r->uw;
        h->dir_en = r->dir_en;
        h->aludat = r->aludat;
        h->rmode = r->rmode;
        h->shift = r->shift;
        h->lsb = r->lsb;
        h->addr = r->addr;
        for (int j = 0; j < 6; j++)
            h->dat[j] = (r->dat6 >> j) & 1u;
    }
    fast_pins(g, &g->last_pins, last);
}

/* PostC after this clock's shift: the module's posting (serializer.c) with the
 * per-shift fields started afresh at s = 0. sc_last: s at the clock's start. */
static void ser_fast_post(pp5_igc *g, uint32_t sc_last)
{
    pp5_ser_fast *f = &PP5_FAST(g)->fs;
    pp5_serializer *s = &g->ser;
    /* this clock's *Bit came from the set being replaced */
    f->bit6 = (uint8_t)raw_bits_at(f, (int32_t)(sc_last < 64 ? sc_last : 64));
    f->bit6_at = g->cycle + 1;
    /* the module's posting (pp5_serializer_post_latches()) and the compact
     * form's build (ser_fast_build(), with SOne cleared) in one loop over the
     * coefficients (no branches: the bits are data, mispredicted once per
     * posting) */
    pp5_serializer_post_il(s);
    const unsigned mbi = s->il.mbi;
    unsigned bsy0 = (unsigned)s->il.iwc << 6;
    uint64_t y[6];
    unsigned tail = 0;
    uint32_t until = 0;
#pragma GCC unroll 6 /* (mode_en and the shifts by k become constants) */
    for (int k = 0; k < 6; k++) {
        pp5_serializer_post_coef(s, k);
        const int t = s->cs[k].dec_latch.index | -(int)s->cs[k].tok64;
        const unsigned bsy = mbi & (unsigned)s->cg[k].enable;
        f->tok0[k] = (int16_t)t;
        bsy0 |= bsy << k;
        y[k] = ser_fast_coef(f, s, k, t, 0, bsy, &tail, &until);
    }
    pp5_serializer_post_set(s);
    f->tok0[6] = (int16_t)s->it.dec_latch.index;
    f->sone0 = 0;
    f->bsy0 = (uint8_t)bsy0;
    f->bits_sent0 = 0;
    f->sc = 0;
    ser_fast_blk(f, y, tail, until);
}

/* ---------------- the clock ---------------- */

ls_status pp5_igc_step_fast(pp5_igc *g, const pp5_host_in *in, pp5_pins *pins, ls_diag *d)
{
    if (in)
        return pp5_igc_clock_fast(g, in, pins, d);
    pp5_host_in idle = {0}; /* InputLatch: no inputs, the status levels */
    idle.st1 = g->st1;
    idle.st2 = g->st2;
    return pp5_igc_clock_fast(g, &idle, pins, d);
}

/* The clock. host = false: the caller guarantees in has no strobe (WrEn, Go,
 * Reset) and no TestPE, so the host side has nothing to do (pp5_igc_run_idle);
 * inlined into both callers, the constant drops that test from the idle loop. */
static inline __attribute__((always_inline)) ls_status
clock_body(pp5_igc *g, const pp5_host_in *in, pp5_pins *pins, ls_diag *d, const bool host)
{
    pp5_igc_fast *const fx = PP5_FAST(g);
    if (__builtin_expect(fx->fast_stale, 0)) {
        pp5_igc_fast_pack(g);
        fx->fast_stale = false;
    }
    fx->mod_stale = true;
    /* Each value goes into the clock's record as soon as it is known: short
     * lives, fewer registers to spill. */
    pp5_controller *ctl = &g->ctl;
    const bool busy = ctl->ibsy | ctl->cbsy;
    const bool rmode = ctl->rmode;
    const uint64_t cycle = g->cycle;
    const pp5_olrec *rp = &fx->olr[(cycle - 1) & 3];
    /* PostC', PostI' (a Reset at the end of the last clock cleared them) */
    const bool post_c_prev = rp->post_c & !rp->in.reset;
    const bool post_i_prev = rp->post_i & !rp->in.reset;
    /* InputLatch (inputlatch.c): the clock's record keeps the inputs */
    pp5_olrec *r0 = &fx->olr[cycle & 3];
    if (host) {
        /* field by field: the caller has just written *in field by field, and
         * one wide load of it could not be forwarded from those stores */
        pp5_host_in *ri = &r0->in;
        ri->wr_en = in->wr_en;
        ri->t = in->t & 7u;
        ri->d = in->d;
        ri->go = in->go;
        ri->st1 = in->st1;
        ri->st2 = in->st2;
        ri->reset = in->reset;
        ri->test_oe = in->test_oe;
        ri->test_pe = in->test_pe;
    } else { /* fx->run_in, T already masked, stored as two words: copied as such */
        host_in_copy(&r0->in, in);
    }
    r0->valid = true;
    r0->rmode = rmode;

    /* Sequencer: Memory read, pre-decoded */
    const unsigned pc = g->seq.pc;
    const pp5_uop *u = &fx->uop[pc & 511u];
    const bool done = u->done;
    r0->uw = u->uw;
    r0->pc = (uint16_t)pc;

    /* LoopCount (loopcount.c) */
    pp5_loopcount *lc = &g->lc;
    const unsigned n1 = done ? lc->lc1_post : (lc->lc1 - u->cnt1) & 0x7fu;
    const unsigned n2 = done ? lc->lc2_post : (lc->lc2 - u->cnt2) & 0x7fu;
    const bool tc1 = pp5_loopcount_tc1(n1), tc2 = pp5_loopcount_tc2(n2);
    lc->lc1 = (uint8_t)n1;
    lc->lc2 = (uint8_t)n2;
    r0->tc1 = tc1;
    r0->tc2 = tc2;

    /* TRR, Shift (controller.c), NewL, AddrGen (sequencer.c) */
    pp5_serializer *s = &g->ser;
    const uint64_t stages = s->trr.stages;
    const bool trr = (stages >> fx->trr_top) & 1u;
    const bool shift = (u->shift >> (rmode * 2u + trr)) & 1u;
    const bool ip = ctl->ip;
    const bool new_l = rmode | (done & ip);
    const unsigned cond = (unsigned)tc1 | (unsigned)tc2 << 1 | (unsigned)trr << 2 |
                          (unsigned)in->st1 << 3 | (unsigned)in->st2 << 4;
    const bool branch = !new_l & !((u->pulldown >> cond) & 1u);
    const unsigned first = new_l ? g->seq.uaddr_post : (pc + 1) & 0x1ffu;
    g->seq.pc = (uint16_t)(branch ? u->braddr : first);
    r0->trr = trr;
    r0->shift = shift;
    r0->new_l = new_l;
    r0->branch = branch;

    /* PixMemAddr (pixmemaddr.c) */
    pp5_pixmemaddr *pm = &g->pma;
    const unsigned c = u->pma_ctr;
    const uint8_t addr = pm->ctr[c];
    pm->ctr[c] = (uint8_t)(addr + u->pma_step);
    if (done) /* once per instruction: a predictable branch, three bytes */
        memcpy(pm->ctr, pm->post, sizeof pm->ctr);
    r0->addr = addr;

    /* DirectReg (directreg.c) */
    pp5_directreg *dr = &g->dr;
    const uint32_t shreg = dr->shreg;
    const bool aludat = shreg & 1u;
    const bool dir_en = u->dir_en;
    const uint32_t sh = dir_en ? (shreg >> 1) | (shreg & 0x80000000u) : shreg;
    dr->shreg = new_l ? dr->post : sh;
    r0->aludat = aludat;
    r0->dir_en = dir_en;

    /* Controller posting (controller.c); "In RMode, CSBHSP1 is disabled" */
    pp5_ser_fast *f = &fx->fs;
    const uint32_t sc = f->sc, csb_until = f->csb_until;
    const bool csb = sc < csb_until;
    const bool post_c = ctl->cbsy & !(csb & !rmode) & shift & !post_c_prev;
    const bool post_i = ctl->ibsy & !ip & !post_i_prev;
    ctl->ip = post_i | (ip & !new_l);
    r0->csb = csb;
    r0->post_c = post_c;
    r0->post_i = post_i;

    /* Serializer clock (serializer.c, as a function of s) */
    const bool first_pending = s->cl.first_pending, msin_pending = s->cl.msin_pending;
    const bool lsb = first_pending & csb;
    const bool msin = msin_pending & shift;
    const unsigned so6 = f->so6, sep6 = so6 & 0xffu, out6 = so6 >> 8;
    const unsigned b6 = gather_bytes(f->blk[(sc < 127 ? sc : 127) >> 3] >> (sc & 7u));
    f->so6 = (uint16_t)(shift ? (b6 & (0u - (unsigned)csb)) | sep6 << 8 : so6);
    f->sc = sc + (shift & (sc != UINT32_MAX));
    s->cl.first_pending = first_pending & !(shift & csb);
    const uint64_t shifted = ((stages << 1) & fx->trr_mask) | (msin ? fx->trr_msin_bit : 0);
    s->trr.stages = shift ? shifted : stages;
    /* MsIn pending: consumed by a shift, set again on the CSB fall (A-18) */
    const bool fall = csb & ((uint64_t)sc + 1 >= csb_until) & (s->cl.set_mbi | fx->msin_always);
    s->cl.msin_pending = shift ? fall : msin_pending;
    r0->lsb = lsb;
    r0->msin = msin;
    r0->dat6 = out6;

    /* OutputLatch: the pins this clock makes (the pin bytes are copied, so a
     * PostI that rewrites the store below cannot change them) */
    const bool pair = (u->pair >> rmode) & 1u;
    r0->pair = pair;
    ring_put(g, cycle, u->alu[rmode], dir_en, aludat, out6, lsb, addr, pair, shift);

    /* rare: a missing word, postings, the host side */
    if (__builtin_expect(!u->exists, 0))
        pp5_igc_warn(g, "microcode address %u does not exist (416-word store); read as 0", pc);
    if (__builtin_expect(post_c, 0)) {
        ser_fast_post(g, sc);
        ctl->cbsy = false;
    }
    if (__builtin_expect(post_i, 0))
        pp5_igc_post_i(g);
    ls_status st = LS_OK;
    if (host && __builtin_expect(in->wr_en | in->go | in->reset | in->test_pe, 0)) {
        st = pp5_igc_host_side(g, &r0->in, busy, d);
        if (st != LS_OK && d)
            ls_diag_at_index(d, (long)cycle);
    }
    /* the pins go straight to the caller; last_pins is rebuilt by the unpack */
    if (pins)
        fast_pins(g, pins, cycle);
    g->cycle = cycle + 1;
    return st;
}

ls_status pp5_igc_clock_fast(pp5_igc *g, const pp5_host_in *in, pp5_pins *pins, ls_diag *d)
{
    return clock_body(g, in, pins, d, true);
}

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
            st64(p0, c0 + k);
            st64(p0 + 32, (trst & 1u) | (uint64_t)aludat << 8 | (j ? q4b : q4a));
            trst = (trst >> 1) | (unsigned)P->sh << 2;
            st16(p1 + 30, (uint16_t)(addr | (addr ^ P->pair) << 8));
            st64(p2 + 8, P->alu_lo ^ (uint64_t)(P->dir & !aludat));
            st_dat16(p2 + 16, P->alu_hi, lsb40, dat);
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
        st64(p0, c0 + k);
        if (form == SEG_SELF_ANY) {
            st64(p0 + 32, (trst & 1u) | q4);
            trst = (trst >> 1) | 4u;
        } else { /* (trst is 7, and stays) */
            st64(p0 + 32, 1u | q4);
        }
        st16(p1 + 30, (uint16_t)(addr | (addr ^ pair) << 8));
        st64(p2 + 8, q1);
        st_dat16(p2 + 16, alu_hi, lsb40, dat);
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
            st64(p0, c0 + k + (unsigned)i);
            st64(p0 + 32, (trst & 1u) | f[i].q4);
            trst = (trst >> 1) | f[i].sh << 2;
            st16(p0 + sizeof(pp5_pins) + 30, (uint16_t)(addr | (addr ^ f[i].pair) << 8));
            st64(p0 + 2 * sizeof(pp5_pins) + 8, f[i].alu_lo);
            st_dat16(p0 + 2 * sizeof(pp5_pins) + 16, f[i].alu_hi, lsb40, dat);
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
    ser_fast_post(g, sc_start);
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
    seg_ctab_for(g, (unsigned)PP5_FAST(g)->run_in.st1 | (unsigned)PP5_FAST(g)->run_in.st2 << 1);
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
    const uint64_t t = seg_trans[cs_k | CS_SHIFT | CS_LAST];
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
    /* the CSB fall in the loop's last shift: MsIn pending (A-18) */
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
        seg_ctab_build(g, pc & 511u);
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
    const uint64_t t = seg_trans[r->cs | shift << 8 | csb << 9 |
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
        o->dat6 = (uint8_t)dat6;
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

static __attribute__((noinline)) uint64_t seg_run_pins(pp5_igc *g, uint64_t n, bool until,
                                                       pp5_pins *pins_out)
{
    return seg_run(g, n, until, pins_out, true, NULL, NULL, NULL, false);
}

static __attribute__((noinline)) uint64_t seg_run_nopins(pp5_igc *g, uint64_t n, bool until)
{
    return seg_run(g, n, until, NULL, false, NULL, NULL, NULL, false);
}

static __attribute__((noinline)) uint64_t seg_run_script(pp5_igc *g, uint64_t n,
                                                         pp5_pins *pins_out, pp5_igc_script *sp,
                                                         ls_status *st, ls_diag *d)
{
    return seg_run(g, n, false, pins_out, true, sp, st, d, true);
}

uint64_t pp5_igc_run_idle(pp5_igc *g, const pp5_host_in *idle, uint64_t n, bool until_not_busy,
                          pp5_igc_clock_cb fn, void *user, pp5_pins *pins_out)
{
    pp5_igc_fast *const fx = PP5_FAST(g);
    /* the inputs as the record keeps them (T masked), in g, as two 8-byte words
     * (each clock copies them so: every load inside one store) */
    const uint64_t lo = (uint64_t)idle->wr_en | (uint64_t)(idle->t & 7u) << 8 |
                        (uint64_t)idle->d << 32;
    const uint64_t hi = (uint64_t)idle->go | (uint64_t)idle->st1 << 8 |
                        (uint64_t)idle->st2 << 16 | (uint64_t)idle->reset << 24 |
                        (uint64_t)idle->test_oe << 32 | (uint64_t)idle->test_pe << 40;
    st64(&fx->run_in, lo);
    st64((unsigned char *)&fx->run_in + 8, hi);
    uint64_t k = 0;
    while (k < n) {
        if (until_not_busy && !(g->ctl.ibsy | g->ctl.cbsy))
            break;
        if (!fn && !fx->fast_stale) {
            /* quiet clocks in one go (Busy does not change in them) */
            uint64_t m = pins_out ? seg_run_pins(g, n - k, until_not_busy, pins_out + k)
                                  : seg_run_nopins(g, n - k, until_not_busy);
            k += m;
            if (k == n || (m && until_not_busy && !(g->ctl.ibsy | g->ctl.cbsy)))
                break;
        }
        pp5_pins *pp;
        if (pins_out) {
            pp = &pins_out[k];
            (void)clock_body(g, &fx->run_in, pp, NULL, false); /* no host side: LS_OK */
        } else {
            /* the pins in place, in the clock's ring slot: complete once the
             * clock is done (fast_pins) and not written again before the next
             * clock, which rewrites only fields fast_pins writes again */
            const uint64_t c = g->cycle;
            (void)clock_body(g, &fx->run_in, NULL, NULL, false);
            pp = &fx->pins_ring[c & 3];
            fast_pins_patch(g, pp, c);
        }
        k++;
        if (fn) {
            fn(user, g, pp);
            if (g->signals_read) /* the observer wants signals: the caller steps fully */
                break;
        }
    }
    return k;
}

/* The script's cursor past its finished items (Busy as it is now). */
static void script_skip(const pp5_igc *g, pp5_igc_script *sc)
{
    while (sc->i < sc->n) {
        const pp5_igc_item *it = &sc->items[sc->i];
        const bool finished = it->kind == PP5_ITEM_HOST  ? sc->done >= 1
                            : it->kind == PP5_ITEM_RUN ? sc->done >= it->clocks
                                                       : !(g->ctl.ibsy | g->ctl.cbsy);
        if (!finished)
            return;
        sc->i++;
        sc->done = 0;
    }
}

uint64_t pp5_igc_run_script(pp5_igc *g, pp5_igc_script *sc, uint64_t n, pp5_pins *pins_out,
                            ls_status *st, ls_diag *d)
{
    pp5_igc_fast *const fx = PP5_FAST(g);
    /* the idle inputs as run_idle keeps them (T masked, two words) */
    const pp5_host_in *idle = &sc->idle;
    const uint64_t lo = (uint64_t)idle->wr_en | (uint64_t)(idle->t & 7u) << 8 |
                        (uint64_t)idle->d << 32;
    const uint64_t hi = (uint64_t)idle->go | (uint64_t)idle->st1 << 8 |
                        (uint64_t)idle->st2 << 16 | (uint64_t)idle->reset << 24 |
                        (uint64_t)idle->test_oe << 32 | (uint64_t)idle->test_pe << 40;
    st64(&fx->run_in, lo);
    st64((unsigned char *)&fx->run_in + 8, hi);
    *st = LS_OK;
    uint64_t k = 0;
    for (;;) {
        script_skip(g, sc);
        if (sc->i == sc->n || k == n)
            break;
        if (!fx->fast_stale) {
            k += seg_run_script(g, n - k, pins_out + k, sc, st, d);
            if (*st != LS_OK)
                break;
            script_skip(g, sc);
            if (sc->i == sc->n || k == n)
                break;
        }
        /* the clock the segment would not take (RMode, a missing word) */
        const pp5_igc_item *it = &sc->items[sc->i];
        if (it->kind == PP5_ITEM_HOST) {
            const ls_status cs = clock_body(g, &it->in, &pins_out[k], d, true);
            k++;
            if (cs != LS_OK) {
                *st = cs;
                break; /* the cursor stays on the failed item */
            }
        } else {
            (void)clock_body(g, &fx->run_in, &pins_out[k], NULL, false); /* LS_OK */
            k++;
        }
        sc->done++;
    }
    return k;
}

uint64_t pp5_igc_run_fast(pp5_igc *g, uint64_t n, pp5_pins *pins_out)
{
    pp5_host_in idle = {0}; /* as pp5_igc_step_fast(g, NULL, …) */
    idle.st1 = g->st1;
    idle.st2 = g->st2;
    return pp5_igc_run_idle(g, &idle, n, false, NULL, NULL, pins_out);
}

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
