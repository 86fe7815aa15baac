/* Fuzz target: the PP5 scene parser must never crash, leak or read out of bounds. */
#include <stddef.h>
#include <stdint.h>

#include "pp5/render.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    pp5_scene s;
    ls_diag d;
    if (pp5_scene_parse((const char *)data, size, "fuzz", &s, &d) == LS_OK)
        pp5_scene_free(&s);
    return 0;
}
