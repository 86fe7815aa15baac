/* (2) Controller — seed 003 §IV.3.3-2: the three-stage instruction pipeline
 * (input latching → pending → executing) and the shift control ShiftHSP1. */
#include "pp5/model/igc/igc_internal.h"

#include <string.h>

/* Shift-control table (seed, Controller):
 *   Reset        RMode=1                       Shift 0 (table) / 1 (text)  — A-27, erratum §9.1
 *   Tree Force   RMode=0 Tree1=0               Shift 1
 *   Conditional  RMode=0 Tree1=1 Tree0=0       Shift = ¬TRR
 *   Tree Halt    RMode=0 Tree1=1 Tree0=1       Shift 0 */
bool pp5_controller_shift(const pp5_controller *c, const pp5_options *o, uint32_t uw, bool trr)
{
    if (c->rmode)
        return o->rmode_shift; /* "In RMode, … Shift is unconditionally asserted" */
    if (!(uw & PP5_UW_TREE1))
        return true;
    if (uw & PP5_UW_TREE0)
        return false;
    return !trr; /* "ShiftHSP1 is asserted unless TRRHSP1 is asserted" */
}

/* "PostC is asserted when: CBsyHSP1 = 1 …; CSBHSP1 = 0 …; and Shift will also be
 * asserted … Neither PostI nor PostC should be asserted on successive cycles".
 * "In RMode, CSBHSP1 is disabled" — the caller passes csb = 0 in RMode. */
bool pp5_controller_post_c(const pp5_controller *c, bool csb, bool shift)
{
    return c->cbsy && !csb && shift && !c->post_c_prev;
}

/* "PostI is asserted when IBsyHSP1 = 1 … and IPHSP1 = 0", qualified by the
 * previous PostI (NIHidHSP2). */
bool pp5_controller_post_i(const pp5_controller *c)
{
    return c->ibsy && !c->ip && !c->post_i_prev;
}

/* Quiescent state: "IBsyHSP1 = CBsyHSP1 = BusyHBP1 = IPHSP1 = PostCHSP1 =
 * PostIHSP1 = 0"; Reset "forces the IGC into RMode". */
void pp5_controller_reset(pp5_controller *c)
{
    memset(c, 0, sizeof *c);
    c->rmode = true;
}
