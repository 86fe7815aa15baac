/* Fuzz target: the JSON reader must never crash, leak or read out of bounds. */
#include <stddef.h>
#include <stdint.h>

#include "base/json.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    ls_json *v = NULL;
    ls_diag d;
    if (ls_json_parse((const char *)data, size, "fuzz", &v, &d) == LS_OK)
        ls_json_free(v);
    return 0;
}
