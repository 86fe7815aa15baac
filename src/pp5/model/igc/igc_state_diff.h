/* The comparison of two IGC states, made from the lists of igc_state.h: every
 * listed field, nested structs and arrays included (the differential tests of
 * the fast step use pp5_state_diff_pp5_igc()). Not a public header. */
#ifndef LOCKSTEP_PP5_IGC_STATE_DIFF_H
#define LOCKSTEP_PP5_IGC_STATE_DIFF_H
#include "pp5/model/igc/igc_internal.h"

PP5_STATE_DIFF_FN(pp5_host_in, PP5_HOST_IN_STATE)
PP5_STATE_DIFF_FN(pp5_pins, PP5_PINS_STATE)
PP5_STATE_DIFF_FN(pp5_inputlatch, PP5_INPUTLATCH_STATE)
PP5_STATE_DIFF_FN(pp5_controller, PP5_CONTROLLER_STATE)
PP5_STATE_DIFF_FN(pp5_sequencer, PP5_SEQUENCER_STATE)
PP5_STATE_DIFF_FN(pp5_loopcount, PP5_LOOPCOUNT_STATE)
PP5_STATE_DIFF_FN(pp5_pixmemaddr, PP5_PIXMEMADDR_STATE)
PP5_STATE_DIFF_FN(pp5_directreg, PP5_DIRECTREG_STATE)
PP5_STATE_DIFF_FN(pp5_expdec_out, PP5_EXPDEC_OUT_STATE)
PP5_STATE_DIFF_FN(pp5_coefser, PP5_COEFSER_STATE)
PP5_STATE_DIFF_FN(pp5_coefgate, PP5_COEFGATE_STATE)
PP5_STATE_DIFF_FN(pp5_ilatch, PP5_ILATCH_STATE)
PP5_STATE_DIFF_FN(pp5_itok, PP5_ITOK_STATE)
PP5_STATE_DIFF_FN(pp5_csblatch, PP5_CSBLATCH_STATE)
PP5_STATE_DIFF_FN(pp5_trrshifter, PP5_TRRSHIFTER_STATE)
PP5_STATE_DIFF_FN(pp5_serializer, PP5_SERIALIZER_STATE)
PP5_STATE_DIFF_FN(pp5_ol_src, PP5_OL_SRC_STATE)
PP5_STATE_DIFF_FN(pp5_outputlatch, PP5_OUTPUTLATCH_STATE)
PP5_STATE_DIFF_FN(pp5_igc, PP5_IGC_STATE)
#endif
