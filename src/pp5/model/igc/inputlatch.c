/* (1) InputLatch — seed 003 §IV.3.3-1.
 * "All of the IGC inputs … are of type 'latched on the rising edge of Ph' …
 *  The inputs are latched on Ph2 in InputLatch (except for TestOEHLPR and
 *  TestPEHLPR, which are just buffered)." */
#include "pp5/model/igc/igc_internal.h"

#include <string.h>

void pp5_inputlatch_clock(pp5_inputlatch *il, const pp5_host_in *in, bool st1, bool st2)
{
    if (in) {
        il->in = *in;
    } else {
        memset(&il->in, 0, sizeof il->in);
        il->in.st1 = st1;
        il->in.st2 = st2;
    }
    il->in.t &= 7u; /* T<0:2> is three bits */
    /* "ST1HLPR and ST2LLPR latched on Ph2 and sent to the Sequencer module as
     * ST1HSP1 and ST2HSP1": the ST2 pin is active-low; the harness gives the
     * logical (active-high) value. */
    il->st1 = il->in.st1;
    il->st2 = il->in.st2;
    il->d_bus = il->in.d;
}
