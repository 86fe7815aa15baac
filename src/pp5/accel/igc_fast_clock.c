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
#include "pp5/accel/igc_fast_int.h"

/* ---------------- Serializer, compact form ---------------- */


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
        PP5_OL_SRC_STATE(PP5_OLREC_FROM)
        pp5_uop u;
        pp5_uop_decode(g, &u, h->uw, true);
        r->pair = (u.pair >> h->rmode) & 1u;
        if (k < 3)
            ring_put(g, c, u.alu[h->rmode], h->dir_en, h->aludat, r->dat_bits, h->lsb, h->addr,
                     r->pair, h->shift);
    }
    /* the last clock's signals and inputs → the latest record */
    pp5_olrec *r0 = &fx->olr[(n - 1) & 3];
    PP5_OLREC_LAST(PP5_OLREC_LAST_FROM)
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
        s->cg[k].dat = (r0->dat_bits >> k) & 1u;
        s->cl.bsy[k] = ((f->bsy0 >> k) & 1u) && sc < f->clear_at[k];
    }
    int t0 = f->tok0[6];
    s->it.tok = t0 < 0 || t0 > SER_LEN_I ? t0
              : (int)((uint64_t)t0 + sc > SER_LEN_I + 1 ? SER_LEN_I + 1 : (uint64_t)t0 + sc);
    s->cl.bsy[6] = ((f->bsy0 >> 6) & 1u) && sc < f->clear_at[6];
    s->bits_sent = f->bits_sent0 + (sc < f->csb_until ? sc : f->csb_until);
    /* the last clock's signals and inputs (the clock's signals: Reset leaves
     * them, igc.c host_side), and what the model keeps of them elsewhere */
    PP5_OLREC_LAST(PP5_OLREC_LAST_TO)
    s->cl.lsb = r0->lsb;
    g->rd_data = r0->uw;
    g->pma.addr = r0->addr;
    g->dr.aludat = r0->aludat;
    g->ctl.shift = r0->shift;
    g->ctl.post_c_prev = !reset && r0->post_c;
    g->ctl.post_i_prev = !reset && r0->post_i;
    pp5_inputlatch *il = &g->il;
    il->st1 = r0->in.st1;
    il->st2 = r0->in.st2;
    il->d_bus = r0->in.d;
    /* OutputLatch history */
    for (unsigned k = 0; k < 4; k++) {
        const pp5_olrec *r = &fx->olr[(last - k) & 3u];
        pp5_ol_src *h = &g->ol.hist[k];
        memset(h, 0, sizeof *h);
        if (r->valid) {
            PP5_OL_SRC_STATE(PP5_OLREC_TO)
        }
    }
    fast_pins(g, &g->last_pins, last);
}

/* PostC after this clock's shift: the module's posting (serializer.c) with the
 * per-shift fields started afresh at s = 0. sc_last: s at the clock's start. */
void pp5_igcf_ser_post(pp5_igc *g, uint32_t sc_last)
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
#define HOST_IN_COPY(k, t, f, n, sig) ri->f = in->f;
        PP5_HOST_IN_STATE(HOST_IN_COPY)
#undef HOST_IN_COPY
        ri->t &= 7u;
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
    /* MsIn pending: consumed by a shift, set again on the CSB fall */
    const bool fall = csb & ((uint64_t)sc + 1 >= csb_until) & (s->cl.set_mbi | fx->msin_always);
    s->cl.msin_pending = shift ? fall : msin_pending;
    r0->lsb = lsb;
    r0->msin = msin;
    r0->dat_bits = out6;

    /* OutputLatch: the pins this clock makes (the pin bytes are copied, so a
     * PostI that rewrites the store below cannot change them) */
    const bool pair = (u->pair >> rmode) & 1u;
    r0->pair = pair;
    ring_put(g, cycle, u->alu[rmode], dir_en, aludat, out6, lsb, addr, pair, shift);

    /* rare: a missing word, postings, the host side */
    if (__builtin_expect(!u->exists, 0))
        pp5_igc_warn(g, "microcode address %u does not exist (416-word store); read as 0", pc);
    if (__builtin_expect(post_c, 0)) {
        pp5_igcf_ser_post(g, sc);
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


/* ---------------- the run entry points ---------------- */

/* The idle clocks' inputs into fx->run_in as the clock's record keeps them (T
 * masked), as two 8-byte words (each clock copies them so: every load inside
 * one store). */
static void run_in_set(pp5_igc_fast *fx, const pp5_host_in *idle)
{
    const uint64_t lo = (uint64_t)idle->wr_en | (uint64_t)(idle->t & 7u) << 8 |
                        (uint64_t)idle->d << 32;
    const uint64_t hi = (uint64_t)idle->go | (uint64_t)idle->st1 << 8 |
                        (uint64_t)idle->st2 << 16 | (uint64_t)idle->reset << 24 |
                        (uint64_t)idle->test_oe << 32 | (uint64_t)idle->test_pe << 40;
    st64(&fx->run_in, lo);
    st64((unsigned char *)&fx->run_in + 8, hi);
}

uint64_t pp5_igc_run_idle(pp5_igc *g, const pp5_host_in *idle, uint64_t n, bool until_not_busy,
                          pp5_igc_clock_cb fn, void *user, pp5_pins *pins_out)
{
    pp5_igc_fast *const fx = PP5_FAST(g);
    run_in_set(fx, idle);
    uint64_t k = 0;
    while (k < n) {
        if (until_not_busy && !(g->ctl.ibsy | g->ctl.cbsy))
            break;
        if (!fn && !fx->fast_stale) {
            /* quiet clocks in one go (Busy does not change in them) */
            uint64_t m = pins_out ? pp5_igcf_seg_run_pins(g, n - k, until_not_busy, pins_out + k)
                                  : pp5_igcf_seg_run_nopins(g, n - k, until_not_busy);
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
    run_in_set(fx, &sc->idle);
    *st = LS_OK;
    uint64_t k = 0;
    for (;;) {
        script_skip(g, sc);
        if (sc->i == sc->n || k == n)
            break;
        if (!fx->fast_stale) {
            k += pp5_igcf_seg_run_script(g, n - k, pins_out + k, sc, st, d);
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
