/* (7) Serializer — seed 003 §IV.3.3-7 with its sub-modules ExpDec, ILatch,
 * CoefSer ×6, CoefGate ×6, ITok, CSBLatch and TRRShifter (one section each).
 *
 * Clocking: the Serializer is controlled by Shift<H,L>SP2 and PostC<H,L>SP2 of
 * the same clock ("PostC is delayed by a half-cycle … and this SP2 form controls
 * the Serializer"). A shift clock advances every token shifter and the CoefGate
 * pipeline; a posting loads the new set after that clock's shift, so the last
 * bit of the previous set "is not overwritten". */
#include "pp5/model/igc/igc_internal.h"

#include <string.h>

/* ExpDec: igc_internal.h (inline: every register write decodes). */

static const int ts_len[6] = {PP5_TS_LEN_A, PP5_TS_LEN_B, PP5_TS_LEN_C,
                              PP5_TS_LEN_DEF, PP5_TS_LEN_DEF, PP5_TS_LEN_DEF};

void pp5_serializer_init(pp5_serializer *s)
{
    memset(s, 0, sizeof *s);
    for (int k = 0; k < 6; k++) {
        s->cs[k].len = ts_len[k];
        s->cs[k].tok = -1;
        s->cs[k].dec_latch.index = 64;
        s->cs[k].dec_latch.dec64 = true;
    }
    s->it.tok = -1;
    s->it.dec_latch.index = 64;
    s->it.dec_latch.dec64 = true;
    /* Power-on content of the FBITS register is not given; we start at FBITS = 0
     * (register value 1) — docs/assumptions.md "pp5-fbits-reset". */
    s->fbits_reg = 1;
    s->trr.fbits_pos = 31;
}

/* "The register is loaded by writing the P register with … 129 + FBITS … D30
 * will be high; this causes XWord to be asserted, and the FBITS register is
 * loaded with the 5-bit value FBITS + 1. PWord forces the B inputs to the adder
 * to 0" (erratum §9.9: the polarity names do not matter). The TRRShifter's
 * TokLatch "latches Dec<32:62>LSP1 when XWord … is asserted". */
bool pp5_serializer_load_fbits(pp5_serializer *s, uint32_t d)
{
    unsigned field = (d >> 23) & 0xffu;
    pp5_expdec_out e = pp5_expdec(field, 0);
    if (e.dec64 || e.index < 32 || e.index > 62)
        return false; /* "will cause logical failure of the IGC" */
    s->fbits_reg = (field - 128u) & 31u;  /* FBITS + 1 */
    s->trr.fbits_pos = e.index - 31;      /* Dec<32:62> → loadable stage 1..31 */
    return true;
}

int pp5_serializer_fbits(const pp5_serializer *s) { return (int)s->fbits_reg - 1; }

/* CoefSer, ILatch + ITok (write side): igc_internal.h (inline: the host side
 * of every write). */

/* ========================= CSBLatch =========================
 * "CSBHSP1 is generated as a 7-way logical-OR of 7 busy latches". */
bool pp5_serializer_csb(const pp5_serializer *s)
{
    bool csb = false;
    for (int k = 0; k < 7; k++)
        csb |= s->cl.bsy[k];
    return csb;
}

/* ========================= TRRShifter geometry =========================
 * 31 loadable stages (1…31, position chosen by FBITS) then the shift-only stages
 * the seed's 24), the last of which drives TRRHSP1. The MSB token from
 * MsIn enters the shift-only part so that it reaches TRR 23 shifts after the
 * shift on which it is injected. */
int pp5_trr_top(const pp5_options *o) { return 30 + o->trr_fixed_stages; }
static int trr_msin_stage(const pp5_options *o) { return pp5_trr_top(o) - 22; }

/* The bit a CoefSer bit-line produces with its token at stage st: "Bits 0 to 39
 * … lie to the right of ManReg; … bits 40 to 62, are aligned with ManReg, with
 * bit 40 corresponding to the LSB of the mantissa; bit 63 corresponds to the
 * understood leading 1" and beyond it "only 0's are produced". */
static bool coefser_bit(const pp5_coefser *c)
{
    if (c->tok < 40 || c->tok >= c->len)
        return false;
    if (c->tok == 63)
        return true;
    if (c->tok > 63)
        return false;
    return (c->man_reg >> (c->tok - 40)) & 1u;
}

void pp5_serializer_clock(pp5_serializer *s, const pp5_options *o, bool shift, bool post_c)
{
    bool csb = pp5_serializer_csb(s);
    s->cl.csb = csb;
    /* LSBLSP2: the set's LSB is on the bit-lines (CSB high, first bit). */
    s->cl.lsb = s->cl.first_pending && csb;
    s->cl.msin = s->cl.msin_pending && shift;
    for (int k = 0; k < 6; k++) {
        s->cs[k].bit = coefser_bit(&s->cs[k]);
        s->cg[k].dat = s->cg[k].out_stage; /* *DatLSP2 */
    }

    if (shift) {
        for (int k = 0; k < 6; k++) {
            pp5_coefser *c = &s->cs[k];
            pp5_coefgate *g = &s->cg[k];
            /* CoefGate: "pass the bits unchanged up to and including the first 1
             * that is seen, then invert all the remaining bits" (sign = 1). */
            bool b = c->bit ^ (g->sign && g->sone);
            g->sone |= c->bit;
            /* "AND-ed with the output of the nullify PostCLatch" */
            b = b && g->enable;
            /* Separator injector (TokStage): a 0 whenever the set's bits are
             * done (CSB low), then one more ShiftStage. */
            g->out_stage = g->sep_stage;
            g->sep_stage = csb ? b : false;
            /* Token Shifter: "For each shift cycle … this token is shifted one
             * position to the left"; the busy latch clears when the token has
             * popped out. */
            if (c->tok >= 0 && c->tok <= c->len)
                c->tok++;
            if (s->cl.bsy[k] && c->tok > c->len)
                s->cl.bsy[k] = false;
        }
        if (s->it.tok >= 0 && s->it.tok <= PP5_TS_LEN_I)
            s->it.tok++;
        if (s->cl.bsy[6] && s->it.tok > PP5_TS_LEN_I)
            s->cl.bsy[6] = false;
        if (csb) {
            s->cl.first_pending = false;
            s->bits_sent++;
        }
        /* TRRShifter shifts; MsIn injects into the shift-only part. */
        int top = pp5_trr_top(o);
        uint64_t mask = top >= 63 ? ~0ull : ((1ull << (top + 1)) - 1);
        s->trr.stages = (s->trr.stages << 1) & mask;
        if (s->cl.msin) {
            s->trr.stages |= 1ull << trr_msin_stage(o);
            s->cl.msin_pending = false;
        }
        /* "MsInLSP2 is asserted for one shift cycle when CSBH has the
         * high-to-low transition" — A-18 decides whether non-MBI sets emit it. */
        bool csb_next = pp5_serializer_csb(s);
        if (csb && !csb_next &&
            (s->cl.set_mbi || o->msb_token == PP5_MSB_TOKEN_ALWAYS))
            s->cl.msin_pending = true;
    }

    if (post_c) {
        pp5_serializer_post_latches(s);
        for (int k = 0; k < 6; k++) {
            pp5_coefser *c = &s->cs[k];
            pp5_coefgate *g = &s->cg[k];
            c->tok = c->tok64 ? -1 : c->dec_latch.index; /* stages 0..63 */
            g->sone = false; /* "SOneHSP2 is cleared when the coefficients are posted" */
            /* "If the instruction requires the full QEE result (MBI) … the 6
             * busy latches … may also be set", qualified by QEEMode and range. */
            s->cl.bsy[k] = s->il.mbi && g->enable;
        }
        /* ITok: "Stages 0 to 64 are loaded"; "Any instruction which uses the
         * QEE's (IWCHSP2) causes IBsyHSP1 to be set." */
        s->it.tok = s->it.dec_latch.index;
        s->cl.bsy[6] = s->il.iwc;
        s->bits_sent = 0;
    }
}

void pp5_serializer_post_latches(pp5_serializer *s)
{
    pp5_serializer_post_il(s);
    for (int k = 0; k < 6; k++)
        pp5_serializer_post_coef(s, k);
    pp5_serializer_post_set(s);
}

bool pp5_serializer_trr(const pp5_serializer *s, const pp5_options *o)
{
    return (s->trr.stages >> pp5_trr_top(o)) & 1u;
}
