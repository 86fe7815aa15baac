/* Fuzz target: the PM4 command-stream decoder must never crash, leak or read
 * out of bounds, and every job it emits must be valid JSON. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/json.h"
#include "lockstep/mesa.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    size_t ndw = size / 4;
    uint32_t *dw = malloc(ndw * 4 + 4);
    if (!dw)
        return 0;
    memcpy(dw, data, ndw * 4);
    ls_mesa_jobs jobs;
    ls_diag d;
    if (ls_mesa_cs_decode(dw, ndw, "fuzz", &jobs, &d) == LS_OK) {
        for (size_t i = 0; i < jobs.count; i++) {
            ls_json *v = NULL;
            if (ls_json_parse(jobs.json[i], strlen(jobs.json[i]), "job", &v, &d) != LS_OK)
                abort();
            ls_json_free(v);
        }
        ls_mesa_jobs_free(&jobs);
    }
    free(dw);
    return 0;
}
