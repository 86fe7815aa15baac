/* Fuzz target: the uniform scanner of `mesa run|check` (src/mesa/glsl.c)
 * reads any GLSL source without crashing, leaking or reading out of bounds,
 * and the names it returns are NUL-terminated identifiers. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lockstep/mesa_glsl.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char names[8][MESA_GLSL_NAME];
    size_t n = mesa_glsl_uniforms((const char *)data, size, names, 8);
    for (size_t i = 0; i < n && i < 8; i++)
        if (memchr(names[i], 0, MESA_GLSL_NAME) == NULL)
            abort();
    return 0;
}
