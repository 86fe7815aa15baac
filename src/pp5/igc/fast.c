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
 * What is different is the representation of the two parts that cost most per
 * clock (see pp5_ser_fast / pp5_olrec in igc_internal.h):
 *  - Serializer. Between two postings the tokens only move, one stage per shift,
 *    so every per-shift field is a function of s = shift clocks since the
 *    posting: token stage tok0 + s (saturating at the end of its shifter), busy
 *    latch k clear from a known s, CSB = (s < csb_until), SOne = a 1 among the
 *    first s bits. The CoefGate input of all six coefficients (serial negation
 *    and nullify included) is computed for every s at the posting, as 64-bit
 *    words, and read one 6-bit column per shift.
 *  - OutputLatch. Four packed records in a ring instead of a shifted array, each
 *    holding the word's pin bytes as pre-decoded for its RMode.
 * The module structs' copies of these fields go stale during fast clocks and are
 * rebuilt by pp5_igc_fast_unpack() when something reads them. */
#include "pp5/igc/igc_internal.h"

#include <stddef.h>
#include <string.h>

_Static_assert(offsetof(pp5_pins, redundant) - offsetof(pp5_pins, acmp) == 14 &&
                   offsetof(pp5_pins, addr_l) - offsetof(pp5_pins, acmp) == 15,
               "pp5_pins: acmp..redundant must be one 15-byte block followed by addr_l");
_Static_assert(offsetof(pp5_pins, trst) - offsetof(pp5_pins, dat) == 7,
               "pp5_pins: dat[6], lsb, trst must be 8 consecutive bytes");

enum { SER_LEN_I = PP5_TS_LEN_I };

/* ---------------- pre-decode ---------------- */

/* Everything a clock needs from a microword, obtained by running the module code
 * on scratch state for every input combination that matters. */
void pp5_uop_decode(pp5_uop *u, uint32_t uw, bool exists, const pp5_options *o)
{
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
     * (NewL is applied by the caller: it always pulls down). */
    for (unsigned cond = 0; cond < 32; cond++) {
        pp5_sequencer s;
        memset(&s, 0, sizeof s);
        pp5_sequencer_next(&s, o, uw, false, cond & 1, (cond >> 1) & 1, (cond >> 3) & 1,
                           (cond >> 4) & 1, (cond >> 2) & 1);
        if (!s.branch)
            u->pulldown |= 1u << cond;
    }
    /* PixMemAddr: which counter and which step */
    pp5_pixmemaddr p;
    memset(&p, 0, sizeof p);
    p.ctr[PP5_CTR_DST] = 10;
    p.ctr[PP5_CTR_SRC] = 20;
    p.ctr[PP5_CTR_AUX] = 30;
    uint8_t a = pp5_pixmemaddr_clock(&p, PP5_UW_PMA(uw), false);
    u->pma_ctr = a == 10 ? PP5_CTR_DST : a == 20 ? PP5_CTR_SRC : PP5_CTR_AUX;
    u->pma_step = (uint8_t)(p.ctr[u->pma_ctr] - a);
    /* OutputLatch: the pin bytes this word drives two clocks later (ACmp before
     * the DirEn XNOR) and its Pair decision one clock later, for RMode 0 and 1. */
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
        pp5_outputlatch_clock(&ol, &src, &pins);
        memcpy(u->alu[r], (const unsigned char *)&pins + offsetof(pp5_pins, acmp), 15);
        /* now the same word one clock ago (hist[1]) with address 0 */
        memset(&ol, 0, sizeof ol);
        ol.hist[0] = src;
        memset(&src, 0, sizeof src);
        pp5_outputlatch_clock(&ol, &src, &pins);
        if (pins.addr_h != pins.addr_l)
            u->pair |= (uint8_t)(1u << r);
    }
}

void pp5_igc_fast_init(pp5_igc *g)
{
    g->trr_top = pp5_trr_top(&g->opt);
    g->trr_mask = g->trr_top >= 63 ? ~0ull : ((1ull << (g->trr_top + 1)) - 1);
    g->trr_msin_bit = 1ull << (g->trr_top - 22); /* as serializer.c: top - 22 */
    for (unsigned a = 0; a < 512; a++) {
        bool exists = a < PP5_UCODE_WORDS;
        pp5_uop_decode(&g->uop[a], exists ? g->seq.ucode[a] : 0, exists, &g->opt);
    }
    g->fast_stale = true;
    g->mod_stale = false;
}

/* ---------------- Serializer, compact form ---------------- */

/* Bit 0 of each byte k (k = 0..7) → bit k: the products land on distinct bits,
 * so nothing carries into the top byte. */
static inline unsigned gather_bytes(uint64_t v)
{
    return (unsigned)(((v & 0x0101010101010101ull) * 0x0102040810204080ull) >> 56);
}

static inline uint64_t low_mask(uint32_t s) { return s >= 64 ? ~0ull : (1ull << s) - 1; }

/* From tok0, sone0, bsy0 and the posted latches (ManReg, sign, nullify): the raw
 * bit streams, the gated CoefGate input per s, the busy-clear points and CSB. */
static void ser_fast_build(pp5_igc *g)
{
    pp5_ser_fast *f = &g->fs;
    const pp5_serializer *s = &g->ser;
    uint64_t y[6];
    unsigned tail = 0;
    for (int k = 0; k < 6; k++) {
        int t = f->tok0[k];
        /* CoefSer bit-line: bits 40..62 = ManReg, 63 = the leading 1, 0 elsewhere
         * (and 0 at and beyond the shifter's end, which is past 63). */
        uint64_t w = (uint64_t)(s->cs[k].man_reg | (1u << 23)) << 40;
        uint64_t x = t >= 0 && t < 64 ? w >> t : 0;
        f->x[k] = x;
        bool so = (f->sone0 >> k) & 1u;
        /* CoefGate: b(s) = enable ∧ (x_s ⊕ (sign ∧ SOne before s)); SOne before s
         * is the bits strictly above x's lowest 1, or all of them if set already. */
        uint64_t inv = s->cg[k].sign ? (so ? ~0ull : ~(x ^ (x - 1))) : 0;
        y[k] = s->cg[k].enable ? x ^ inv : 0;
        if (s->cg[k].enable && s->cg[k].sign && (so || x != 0))
            tail |= 1u << k;
        int len = s->cs[k].len;
        f->clear_at[k] = t < 0 ? UINT32_MAX : (uint32_t)(len + 1 - t > 1 ? len + 1 - t : 1);
    }
    int t = f->tok0[6];
    f->clear_at[6] = t < 0 ? UINT32_MAX : (uint32_t)(SER_LEN_I + 1 - t > 1 ? SER_LEN_I + 1 - t : 1);
    uint32_t until = 0;
    for (int k = 0; k < 7; k++)
        if (((f->bsy0 >> k) & 1u) && f->clear_at[k] > until)
            until = f->clear_at[k];
    f->csb_until = until;
    for (int j = 0; j < 8; j++) {
        uint64_t v = 0;
        for (int k = 0; k < 6; k++)
            v |= ((y[k] >> (8 * j)) & 0xffu) << (8 * k);
        f->blk[j] = v;
    }
    uint64_t tv = 0;
    for (int k = 0; k < 6; k++)
        if ((tail >> k) & 1u)
            tv |= 0xffull << (8 * k);
    for (int j = 8; j < 16; j++)
        f->blk[j] = tv;
}

static unsigned raw_bits_at(const pp5_ser_fast *f, int32_t sc)
{
    unsigned b = 0;
    if (sc >= 0 && sc < 64)
        for (int k = 0; k < 6; k++)
            b |= (unsigned)((f->x[k] >> sc) & 1u) << k;
    return b;
}

/* The pins of the last clock: OutputLatch (outputlatch.c) from the records of 1,
 * 2 and 3 clocks ago, plus ALUDat, Busy and the D pads of the clock itself. */
static inline void fast_pins(const pp5_igc *g, pp5_pins *p, uint64_t cycle, bool aludat)
{
    unsigned pos = g->olr_pos;
    const pp5_olrec *r1 = &g->olr[(pos - 1u) & 3u];
    const pp5_olrec *r2 = &g->olr[(pos - 2u) & 3u];
    const pp5_olrec *r3 = &g->olr[(pos - 3u) & 3u];
    p->cycle = cycle;
    /* XNOR(ACmp, ALUDat) under DirEn = ACmp ⊕ ¬ALUDat */
    uint8_t acmp = r2->alu[0] ^
                   (uint8_t)((r2->flags & (PP5_OLR_DIREN | PP5_OLR_ALUDAT)) == PP5_OLR_DIREN);
    memcpy((unsigned char *)p + offsetof(pp5_pins, acmp), r2->alu, 16); /* addr_l follows */
    p->acmp = acmp;
    p->addr_l = r1->addr;
    p->addr_h = (r1->flags & PP5_OLR_PAIR) ? (uint8_t)~r1->addr : r1->addr;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    /* dat[6], lsb, trst in one store: bit k of dat6 → byte k (the products land
     * on distinct bits, so nothing carries) */
    uint64_t bytes = ((r2->dat6 * 0x0000000810204081ull) & 0x0000010101010101ull) |
                     (uint64_t)((r2->flags & PP5_OLR_LSB) != 0) << 48 |
                     (uint64_t)((r3->flags & PP5_OLR_SHIFT) != 0) << 56;
    memcpy((unsigned char *)p + offsetof(pp5_pins, dat), &bytes, 8);
#else
    for (int k = 0; k < 6; k++)
        p->dat[k] = (r2->dat6 >> k) & 1u;
    p->lsb = (r2->flags & PP5_OLR_LSB) != 0;
    p->trst = (r3->flags & PP5_OLR_SHIFT) != 0;
#endif
    p->aludat = aludat;
    /* end of the clock: after the host side */
    p->busy = g->ctl.ibsy | g->ctl.cbsy;
    p->d_out_en = g->il.in.test_pe;
    p->d_out = g->il.in.test_oe ? g->rd_data : g->il.in.d;
}

/* Module structs → compact form (s = 0 at the current state). */
void pp5_igc_fast_pack(pp5_igc *g)
{
    pp5_ser_fast *f = &g->fs;
    const pp5_serializer *s = &g->ser;
    memset(f, 0, sizeof *f);
    f->bit_sc = -1;
    for (int k = 0; k < 6; k++) {
        f->tok0[k] = (int16_t)s->cs[k].tok;
        f->sone0 |= (uint8_t)(s->cg[k].sone << k);
        f->bsy0 |= (uint8_t)(s->cl.bsy[k] << k);
        f->sep6 |= (uint8_t)(s->cg[k].sep_stage << k);
        f->out6 |= (uint8_t)(s->cg[k].out_stage << k);
        f->bit6 |= (uint8_t)(s->cs[k].bit << k);
        f->dat6 |= (uint8_t)(s->cg[k].dat << k);
    }
    f->tok0[6] = (int16_t)s->it.tok;
    f->bsy0 |= (uint8_t)(s->cl.bsy[6] << 6);
    f->bits_sent0 = s->bits_sent;
    ser_fast_build(g);
    /* OutputLatch history → ring (hist[k] = olr[(pos - k) & 3]) */
    g->olr_pos = 0;
    for (unsigned k = 0; k < 4; k++) {
        const pp5_ol_src *h = &g->ol.hist[k];
        pp5_olrec *r = &g->olr[(0u - k) & 3u];
        memset(r, 0, sizeof *r);
        if (!h->valid)
            continue;
        pp5_uop u;
        pp5_uop_decode(&u, h->uw, true, &g->opt);
        memcpy(r->alu, u.alu[h->rmode], 16);
        r->uw = h->uw;
        r->addr = h->addr;
        for (int j = 0; j < 6; j++)
            r->dat6 |= (uint8_t)(h->dat[j] << j);
        r->flags = (uint8_t)(PP5_OLR_VALID | (h->dir_en ? PP5_OLR_DIREN : 0) |
                             (h->aludat ? PP5_OLR_ALUDAT : 0) | (h->rmode ? PP5_OLR_RMODE : 0) |
                             (h->shift ? PP5_OLR_SHIFT : 0) | (h->lsb ? PP5_OLR_LSB : 0) |
                             (((u.pair >> h->rmode) & 1u) ? PP5_OLR_PAIR : 0));
    }
}

/* Compact form → module structs (every field the module clock would hold). */
void pp5_igc_fast_unpack(pp5_igc *g)
{
    const pp5_ser_fast *f = &g->fs;
    pp5_serializer *s = &g->ser;
    uint32_t sc = f->sc;
    for (int k = 0; k < 6; k++) {
        int t0 = f->tok0[k], len = s->cs[k].len;
        s->cs[k].tok = t0 < 0 || t0 > len ? t0
                     : (int)((uint64_t)t0 + sc > (uint64_t)len + 1 ? (uint64_t)len + 1
                                                                   : (uint64_t)t0 + sc);
        s->cs[k].bit = f->bit_sc < 0 ? (f->bit6 >> k) & 1u
                                     : (raw_bits_at(f, f->bit_sc) >> k) & 1u;
        s->cg[k].sone = ((f->sone0 >> k) & 1u) || (f->x[k] & low_mask(sc)) != 0;
        s->cg[k].sep_stage = (f->sep6 >> k) & 1u;
        s->cg[k].out_stage = (f->out6 >> k) & 1u;
        s->cg[k].dat = (f->dat6 >> k) & 1u;
        s->cl.bsy[k] = ((f->bsy0 >> k) & 1u) && sc < f->clear_at[k];
    }
    int t0 = f->tok0[6];
    s->it.tok = t0 < 0 || t0 > SER_LEN_I ? t0
              : (int)((uint64_t)t0 + sc > SER_LEN_I + 1 ? SER_LEN_I + 1 : (uint64_t)t0 + sc);
    s->cl.bsy[6] = ((f->bsy0 >> 6) & 1u) && sc < f->clear_at[6];
    s->bits_sent = f->bits_sent0 + (sc < f->csb_until ? sc : f->csb_until);
    for (unsigned k = 0; k < 4; k++) {
        const pp5_olrec *r = &g->olr[(g->olr_pos - k) & 3u];
        pp5_ol_src *h = &g->ol.hist[k];
        memset(h, 0, sizeof *h);
        if (!(r->flags & PP5_OLR_VALID))
            continue;
        h->valid = true;
        h->uw = r->uw;
        h->dir_en = r->flags & PP5_OLR_DIREN;
        h->aludat = r->flags & PP5_OLR_ALUDAT;
        h->rmode = r->flags & PP5_OLR_RMODE;
        h->shift = r->flags & PP5_OLR_SHIFT;
        h->lsb = r->flags & PP5_OLR_LSB;
        h->addr = r->addr;
        for (int j = 0; j < 6; j++)
            h->dat[j] = (r->dat6 >> j) & 1u;
    }
    /* between clocks: the cycle counter has already advanced */
    fast_pins(g, &g->last_pins, g->cycle - 1, g->dr.aludat);
}

/* PostC after this clock's shift: the module's posting (serializer.c) with the
 * per-shift fields started afresh at s = 0. */
static void ser_fast_post(pp5_igc *g)
{
    pp5_ser_fast *f = &g->fs;
    pp5_serializer *s = &g->ser;
    /* this clock's *Bit came from the set being replaced */
    f->bit6 = (uint8_t)raw_bits_at(f, f->bit_sc);
    f->bit_sc = -1;
    pp5_serializer_post_latches(s);
    f->sone0 = 0;
    f->bsy0 = 0;
    for (int k = 0; k < 6; k++) {
        f->tok0[k] = (int16_t)(s->cs[k].tok64 ? -1 : s->cs[k].dec_latch.index);
        if (s->il.mbi && s->cg[k].enable)
            f->bsy0 |= (uint8_t)(1u << k);
    }
    f->tok0[6] = (int16_t)s->it.dec_latch.index;
    if (s->il.iwc)
        f->bsy0 |= 1u << 6;
    f->bits_sent0 = 0;
    f->sc = 0;
    ser_fast_build(g);
}

/* ---------------- the clock ---------------- */

ls_status pp5_igc_step_fast(pp5_igc *g, const pp5_host_in *in, pp5_pins *pins, ls_diag *d)
{
    if (g->fast_stale) {
        pp5_igc_fast_pack(g);
        g->fast_stale = false;
    }
    g->mod_stale = true;
    bool busy = g->ctl.ibsy | g->ctl.cbsy;

    /* InputLatch (inputlatch.c) */
    pp5_inputlatch *il = &g->il;
    /* field by field: a whole-struct copy of the caller's freshly written
     * inputs stalls on store-to-load forwarding */
    if (in) {
        il->in.wr_en = in->wr_en;
        il->in.t = in->t & 7u;
        il->in.d = in->d;
        il->in.go = in->go;
        il->in.st1 = in->st1;
        il->in.st2 = in->st2;
        il->in.reset = in->reset;
        il->in.test_oe = in->test_oe;
        il->in.test_pe = in->test_pe;
    } else {
        memset(&il->in, 0, sizeof il->in);
        il->in.st1 = g->st1;
        il->in.st2 = g->st2;
    }
    il->st1 = il->in.st1;
    il->st2 = il->in.st2;
    il->d_bus = il->in.d;
    const pp5_host_in *hi = &il->in;

    /* Sequencer: Memory read, pre-decoded */
    unsigned pc = g->seq.pc;
    const pp5_uop *u = &g->uop[pc & 511u];
    if (__builtin_expect(!u->exists, 0))
        pp5_igc_warn(g, "microcode address %u does not exist (416-word store); read as 0", pc);
    g->uw = u->uw;
    g->pc_exec = (uint16_t)pc;
    g->rd_data = u->uw;
    bool done = u->done;

    /* LoopCount (loopcount.c) */
    pp5_loopcount *lc = &g->lc;
    uint8_t n1 = done ? lc->lc1_post : (uint8_t)((lc->lc1 - u->cnt1) & 0x7fu);
    uint8_t n2 = done ? lc->lc2_post : (uint8_t)((lc->lc2 - u->cnt2) & 0x7fu);
    bool tc1 = n1 == 116, tc2 = n2 == 0;
    lc->tc1 = tc1;
    lc->tc2 = tc2;
    lc->lc1 = n1;
    lc->lc2 = n2;

    /* TRR, Shift, NewL, next address */
    pp5_serializer *s = &g->ser;
    pp5_ser_fast *f = &g->fs;
    bool trr = (s->trr.stages >> g->trr_top) & 1u;
    s->trr.trr = trr;
    bool rmode = g->ctl.rmode;
    bool shift = (u->shift >> (rmode * 2u + trr)) & 1u;
    g->ctl.shift = shift;
    bool new_l = rmode | (done & g->ctl.ip);
    unsigned cond = (unsigned)tc1 | (unsigned)tc2 << 1 | (unsigned)trr << 2 |
                    (unsigned)il->st1 << 3 | (unsigned)il->st2 << 4;
    bool branch = !new_l & !((u->pulldown >> cond) & 1u);
    g->seq.new_l = new_l;
    g->seq.branch = branch;
    unsigned first = new_l ? g->seq.uaddr_post : (pc + 1) & 0x1ffu;
    uint16_t pc_next = (uint16_t)(branch ? u->braddr : first);

    /* PixMemAddr (pixmemaddr.c) */
    pp5_pixmemaddr *pm = &g->pma;
    uint8_t addr = pm->ctr[u->pma_ctr];
    pm->ctr[u->pma_ctr] = (uint8_t)(addr + u->pma_step);
    uint8_t load = (uint8_t)-(int)done; /* branch-free: Done is data */
    for (int i = 0; i < 3; i++)
        pm->ctr[i] = (uint8_t)((pm->post[i] & load) | (pm->ctr[i] & ~load));
    pm->addr = addr;

    /* DirectReg (directreg.c) */
    pp5_directreg *dr = &g->dr;
    bool aludat = dr->shreg & 1u;
    dr->aludat = aludat;
    uint32_t sh = dr->shreg;
    sh = u->dir_en ? (sh >> 1) | (sh & 0x80000000u) : sh;
    dr->shreg = new_l ? dr->post : sh;

    /* Controller posting (controller.c); "In RMode, CSBHSP1 is disabled" */
    uint32_t sc = f->sc;
    bool csb = sc < f->csb_until;
    pp5_controller *ctl = &g->ctl;
    bool post_c = ctl->cbsy & !(csb & !rmode) & shift & !ctl->post_c_prev;
    bool post_i = ctl->ibsy & !ctl->ip & !ctl->post_i_prev;
    ctl->post_c = post_c;
    ctl->post_i = post_i;

    /* Serializer clock (serializer.c, as a function of s) */
    s->cl.csb = csb;
    bool lsb = s->cl.first_pending & csb;
    s->cl.lsb = lsb;
    bool msin = s->cl.msin_pending & shift;
    s->cl.msin = msin;
    uint8_t dat6 = f->out6;
    f->dat6 = dat6;
    f->bit_sc = (int32_t)(sc < 0x7fffffffu ? sc : 0x7fffffffu);
    /* OutputLatch: record this clock's sources now, before a PostI in RMode
     * can rewrite the store word u was decoded from */
    unsigned pos = (g->olr_pos + 1u) & 3u;
    g->olr_pos = pos;
    pp5_olrec *r0 = &g->olr[pos];
    memcpy(r0->alu, u->alu[rmode], 16);
    r0->uw = u->uw;
    r0->addr = addr;
    r0->dat6 = dat6;
    r0->flags = (uint8_t)(PP5_OLR_VALID | (u->dir_en ? PP5_OLR_DIREN : 0) |
                          (aludat ? PP5_OLR_ALUDAT : 0) | (rmode ? PP5_OLR_RMODE : 0) |
                          (shift ? PP5_OLR_SHIFT : 0) | (lsb ? PP5_OLR_LSB : 0) |
                          (((u->pair >> rmode) & 1u) ? PP5_OLR_PAIR : 0));
    /* a shift clock, without branches (Shift and CSB are data) */
    unsigned b6 = gather_bytes(f->blk[(sc < 127 ? sc : 127) >> 3] >> (sc & 7u));
    uint8_t sep6 = f->sep6;
    f->out6 = shift ? sep6 : dat6;
    f->sep6 = shift ? (uint8_t)(b6 & (0u - (unsigned)csb)) : sep6;
    f->sc = sc + (shift & (sc != UINT32_MAX));
    s->cl.first_pending &= !(shift & csb);
    uint64_t stages = s->trr.stages;
    uint64_t shifted = ((stages << 1) & g->trr_mask) | (msin ? g->trr_msin_bit : 0);
    s->trr.stages = shift ? shifted : stages;
    /* MsIn pending: consumed by this shift, set again on the CSB fall */
    bool fall = csb & ((uint64_t)sc + 1 >= f->csb_until) &
                (s->cl.set_mbi | (g->opt.msb_token == PP5_MSB_TOKEN_ALWAYS));
    s->cl.msin_pending = shift ? fall : s->cl.msin_pending;
    if (post_c) {
        ser_fast_post(g);
        ctl->cbsy = false;
    }
    if (post_i)
        pp5_igc_post_i(g);
    ctl->ip = post_i | (ctl->ip & !new_l);
    ctl->post_i_prev = post_i;
    ctl->post_c_prev = post_c;
    g->seq.pc = pc_next;

    /* host side, end of clock */
    ls_status st = LS_OK;
    if (hi->wr_en | hi->go | hi->reset | hi->test_pe)
        st = pp5_igc_host_side(g, hi, busy, d);
    /* the pins go straight to the caller; last_pins is rebuilt by the unpack */
    if (pins)
        fast_pins(g, pins, g->cycle, aludat);
    if (st != LS_OK && d)
        ls_diag_at_index(d, (long)g->cycle);
    g->cycle++;
    return st;
}
