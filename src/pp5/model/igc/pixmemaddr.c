/* (5) PixMemAddr — seed 003 §IV.3.3-5: three 8-bit address counters. */
#include "pp5/model/igc/igc_internal.h"

/* PMAInstr decode (seed table):
 *   000 aux  001 dst  010 dst+  011 dst-  100 aux+  101 src  110 src+  111 src-
 * "the Auxiliary address counter cannot be decremented, and … no mechanism
 * exits for pre-incrementing or pre-decrementing": the address leaves first,
 * the counter steps after. "when DoneHSP2 is asserted … the starting addresses
 * are loaded into the 3 address counters" — after this word's access. */
uint8_t pp5_pixmemaddr_clock(pp5_pixmemaddr *p, unsigned pma, bool done)
{
    static const struct { int ctr, step; } dec[8] = {
        {PP5_CTR_AUX, 0}, {PP5_CTR_DST, 0}, {PP5_CTR_DST, +1}, {PP5_CTR_DST, -1},
        {PP5_CTR_AUX, +1}, {PP5_CTR_SRC, 0}, {PP5_CTR_SRC, +1}, {PP5_CTR_SRC, -1},
    };
    int c = dec[pma & 7u].ctr;
    p->addr = p->ctr[c];
    p->ctr[c] = (uint8_t)(p->ctr[c] + dec[pma & 7u].step);
    if (done)
        for (int i = 0; i < 3; i++)
            p->ctr[i] = p->post[i];
    return p->addr;
}
