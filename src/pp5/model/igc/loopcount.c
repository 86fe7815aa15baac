/* (4) LoopCount — seed 003 §IV.3.3-4: two 7-bit down counters with look-ahead
 * zero detect. */
#include "pp5/model/igc/igc_internal.h"

/* "When DoneHSP1 is asserted, the counter is loaded from the PostILatch. When
 * Cnt1LSP1 is asserted, the count value is decremented." "The zero-detect
 * circuit asserts TC1HSP1 when the count value is 116" and, for counter 2,
 * "TC2HSP1 is asserted when the count value is zero" — computed on the value
 * the counter will hold ("whether or not the new count value will equal the
 * offset"). "The loop counters do not halt when they reach 0": 7-bit wrap. */
void pp5_loopcount_clock(pp5_loopcount *lc, bool done, bool cnt1, bool cnt2)
{
    /* Counting is enabled by Cnt2 (the seed's "TC2LSP1" is erratum §9.4). */
    uint8_t n1 = done ? lc->lc1_post : (uint8_t)((cnt1 ? lc->lc1 - 1u : lc->lc1) & 0x7fu);
    uint8_t n2 = done ? lc->lc2_post : (uint8_t)((cnt2 ? lc->lc2 - 1u : lc->lc2) & 0x7fu);
    lc->tc1 = pp5_loopcount_tc1(n1);
    lc->tc2 = pp5_loopcount_tc2(n2);
    lc->lc1 = n1;
    lc->lc2 = n2;
}
