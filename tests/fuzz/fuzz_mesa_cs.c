/* Fuzz target: the PM4 command-stream decoder and its job writer, from a
 * file's bytes (mesa_cs_decode_bytes, mesa_cs_jobs_json). */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "lockstep/mesa_cs.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* the file's bytes as `mesa decode` reads them (any length), then every
     * draw as `mesa decode --all` writes them */
    if (size > 4 * 4096)
        return 0;
    mesa_cs cs;
    ls_diag d;
    if (mesa_cs_decode_bytes("fuzz", data, size, &cs, &d) == LS_OK) {
        ls_buf b;
        ls_buf_init(&b);
        (void)mesa_cs_jobs_json(&cs, "fuzz", MESA_CS_ALL, &b, &d);
        ls_buf_free(&b);
        mesa_cs_free(&cs);
    }
    return 0;
}
