/* Fuzz target: the PP5 host-stream parser, and a short run of whatever parses
 * on an IGC holding the idle word (bounded cycles). */
#include <stddef.h>
#include <stdint.h>

#include "lockstep/pp5.h"
#include "pp5/stream.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    pp5_stream s;
    ls_diag d;
    if (pp5_stream_parse((const char *)data, size, "fuzz", &s, &d) != LS_OK)
        return 0;
    pp5_igc *g;
    pp5_options o;
    pp5_options_default(&o);
    o.busy_write = PP5_BUSY_WRITE_LAST_WINS;
    if (pp5_igc_create(&g, &o, &d) == LS_OK) {
        const uint32_t idle = 0x90011000u;
        pp5_igc_load_ucode(g, 0, &idle, 1, &d);
        pp5_stream_run(&s, g, 2000, NULL, NULL, &d);
        pp5_igc_destroy(g);
    }
    pp5_stream_free(&s);
    return 0;
}
