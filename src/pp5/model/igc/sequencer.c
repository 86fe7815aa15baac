/* (3) Sequencer — seed 003 §IV.3.3-3: sub-modules Memory (416 words) and
 * AddrGen (new / incremented / branch address selection). */
#include "pp5/model/igc/igc_internal.h"

/* Memory: "416 (nominally 512) 32-bit words"; "only 104 rows in Version 5.0".
 * Addresses 416–511 have no word line: we read 0 and report it (exists=false). */
uint32_t pp5_sequencer_read(const pp5_sequencer *s, uint16_t addr, bool *exists)
{
    if (addr >= PP5_UCODE_WORDS) {
        if (exists)
            *exists = false;
        return 0;
    }
    if (exists)
        *exists = true;
    return s->ucode[addr];
}

/* AddrGen. "For conditional branches, the branch is taken if the condition is
 * 0"; one pull-down for the unconditional increment; Branch is precharged, so
 * the remaining code is the unconditional jump. "the new or incremented
 * address is selected according to whether New is asserted; next, either this
 * address or the branch address is selected according to whether Branch is
 * asserted", and New de-asserts Branch (A-2, erratum §9.3). */
uint16_t pp5_sequencer_next(pp5_sequencer *s, const pp5_options *o, uint32_t uw, bool new_l,
                            bool tc1, bool tc2, bool st1, bool st2, bool trr)
{
    bool pulldown;
    switch (o->seq_table[PP5_UW_SEQ(uw)]) {
    case PP5_SEQ_INC: pulldown = true; break;
    case PP5_SEQ_JMP: pulldown = false; break;
    case PP5_SEQ_BNTC1: pulldown = tc1; break;   /* condition input TC1 */
    case PP5_SEQ_BTC1: pulldown = !tc1; break;   /* condition input TC1L = ¬TC1 */
    case PP5_SEQ_BNTC2: pulldown = tc2; break;
    case PP5_SEQ_BNTRR: pulldown = trr; break;
    case PP5_SEQ_BNST1: pulldown = st1; break;
    case PP5_SEQ_BNST2: pulldown = st2; break;
    default: pulldown = true; break;
    }
    if (new_l)
        pulldown = true; /* New pulls Branch down; new address wins */
    s->new_l = new_l;
    s->branch = !pulldown;
    uint16_t first = new_l ? s->uaddr_post : (uint16_t)((s->pc + 1) & 0x1ffu);
    return s->branch ? (uint16_t)PP5_UW_BRADDR(uw) : first;
}
