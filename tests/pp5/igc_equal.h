/* The equality the differential tests of the IGC fast step check: every field
 * of the architectural state (made from the lists of src/pp5/model/igc/igc_state.h,
 * so a field added there is compared without editing this file), the kept
 * warnings with their text, and every named signal. b is synchronised first.
 * On a difference, why says where. */
#ifndef LOCKSTEP_TESTS_PP5_IGC_EQUAL_H
#define LOCKSTEP_TESTS_PP5_IGC_EQUAL_H
#include <string.h>
#include "lockstep/pp5.h"
#include "pp5/model/igc/igc_state_diff.h"

static char why[512];

static inline bool pins_equal(const pp5_pins *a, const pp5_pins *b)
{
    return pp5_state_diff_pp5_pins(a, b, why, sizeof why, "");
}

static inline bool state_equal(const pp5_igc *a, const pp5_igc *b)
{
    pp5_igc_sync(b);
    if (!pp5_state_diff_pp5_igc(a, b, why, sizeof why, ""))
        return false;
    /* warnings, text included */
    for (size_t i = 0; pp5_igc_warning(a, i); i++) {
        const char *wb = pp5_igc_warning(b, i);
        if (!wb || strcmp(pp5_igc_warning(a, i), wb) != 0) {
            snprintf(why, sizeof why, "warning %zu: full \"%s\", fast \"%s\"", i,
                     pp5_igc_warning(a, i), wb ? wb : "(none)");
            return false;
        }
    }
    /* and the named signals, read through the public table */
    size_t n = pp5_igc_signal_count();
    for (size_t i = 0; i < n; i++)
        if (pp5_igc_signal_value(a, i) != pp5_igc_signal_value(b, i)) {
            snprintf(why, sizeof why, "signal %s", pp5_igc_signal_info(i)->name);
            return false;
        }
    return true;
}
#endif
