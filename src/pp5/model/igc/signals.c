/* Every signal the seed names, observable by name (for --trace, --wave, the
 * VCD and the viewer's recording). The table and the values are made from the
 * state lists (igc_state.h, igc_internal.h): each field's entry says which
 * named signals it shows, at which rank (the table's order: pins first).
 * Internal signals are the values of the last clock, undelayed; pins are the
 * last pp5_pins. */
#include "pp5/model/igc/igc_internal.h"

#include <string.h>

static const pp5_signal_info signal_table[] = PP5_SIGNAL_TABLE(PP5_IGC_STATE);

/* pp5_sigval_<type>() for every type the IGC's state holds, nested first */
PP5_SIGVAL_FN(pp5_host_in, PP5_HOST_IN_STATE)
PP5_SIGVAL_FN(pp5_pins, PP5_PINS_STATE)
PP5_SIGVAL_FN(pp5_inputlatch, PP5_INPUTLATCH_STATE)
PP5_SIGVAL_FN(pp5_controller, PP5_CONTROLLER_STATE)
PP5_SIGVAL_FN(pp5_sequencer, PP5_SEQUENCER_STATE)
PP5_SIGVAL_FN(pp5_loopcount, PP5_LOOPCOUNT_STATE)
PP5_SIGVAL_FN(pp5_pixmemaddr, PP5_PIXMEMADDR_STATE)
PP5_SIGVAL_FN(pp5_directreg, PP5_DIRECTREG_STATE)
PP5_SIGVAL_FN(pp5_expdec_out, PP5_EXPDEC_OUT_STATE)
PP5_SIGVAL_FN(pp5_coefser, PP5_COEFSER_STATE)
PP5_SIGVAL_FN(pp5_coefgate, PP5_COEFGATE_STATE)
PP5_SIGVAL_FN(pp5_ilatch, PP5_ILATCH_STATE)
PP5_SIGVAL_FN(pp5_itok, PP5_ITOK_STATE)
PP5_SIGVAL_FN(pp5_csblatch, PP5_CSBLATCH_STATE)
PP5_SIGVAL_FN(pp5_trrshifter, PP5_TRRSHIFTER_STATE)
PP5_SIGVAL_FN(pp5_serializer, PP5_SERIALIZER_STATE)
PP5_SIGVAL_FN(pp5_ol_src, PP5_OL_SRC_STATE)
PP5_SIGVAL_FN(pp5_outputlatch, PP5_OUTPUTLATCH_STATE)
PP5_SIGVAL_FN(pp5_igc, PP5_IGC_STATE)

enum { NSIG = sizeof signal_table / sizeof signal_table[0] };

size_t pp5_igc_signal_count(void) { return NSIG; }

const pp5_signal_info *pp5_igc_signal_info(size_t i)
{
    return i < pp5_igc_signal_count() ? &signal_table[i] : NULL;
}

long pp5_igc_signal_find(const char *name)
{
    for (size_t i = 0; i < pp5_igc_signal_count(); i++)
        if (signal_table[i].name && strcmp(signal_table[i].name, name) == 0)
            return (long)i;
    return -1;
}

uint64_t pp5_igc_signal_value(const pp5_igc *g, size_t i)
{
    if (i >= NSIG)
        return 0;
    uint64_t v[NSIG];
    pp5_igc_signal_values(g, v);
    return v[i];
}

void pp5_igc_signal_values(const pp5_igc *g, uint64_t *out)
{
    pp5_igc_sync_signals(g); /* after fast steps: rebuild the module fields read below */
    pp5_sigval_pp5_igc(g, 0, out);
}
