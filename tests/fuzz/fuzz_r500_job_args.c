/* Fuzz target: r500_job_apply (the text settings of `r500 run`) takes any
 * setting name and value without crashing or leaking: the first byte picks
 * the setting, the rest is the value (textures excluded: they name files). */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lockstep/r500_job_args.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char *const names[] = {"size", "input", "const", "bool", "int",
                                        "lanes", "model", "clear", "nothing"};
    if (size < 1)
        return 0;
    char *v = malloc(size);
    if (!v)
        return 0;
    memcpy(v, data + 1, size - 1);
    v[size - 1] = 0;
    r500_job job;
    r500_job_init(&job);
    ls_diag d;
    (void)r500_job_apply(&job, names[data[0] % (sizeof names / sizeof names[0])], v, &d);
    r500_job_free(&job);
    free(v);
    return 0;
}
