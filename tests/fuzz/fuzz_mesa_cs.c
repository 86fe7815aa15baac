/* Fuzz target: the PM4 command-stream decoder and its job writer. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "lockstep/mesa_cs.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    size_t n = size / 4;
    if (n > 4096)
        return 0;
    uint32_t *w = malloc(n * 4 + 4);
    if (!w)
        return 0;
    memcpy(w, data, n * 4);
    mesa_cs cs;
    ls_diag d;
    if (mesa_cs_decode("fuzz", w, n, &cs, &d) == LS_OK) {
        if (cs.ndraws) {
            ls_buf b;
            ls_buf_init(&b);
            mesa_cs_job_json(&cs.draws[cs.ndraws - 1], cs.ndraws - 1, &b);
            ls_buf_free(&b);
        }
        mesa_cs_free(&cs);
    }
    free(w);
    return 0;
}
