/* Fuzz target: r500_job_apply (the text settings of `r500 run`) and
 * r500_pvs_vertex_apply (those of `r500 vs run`) take any setting name and
 * value without crashing or leaking: the first byte picks the setting (even:
 * a job's, odd: a vertex's), the rest is the value (textures excluded: they
 * name files). Both parse their numbers with lockstep/values.h. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lockstep/r500_job_args.h"
#include "lockstep/r500_pvs.h"

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
    ls_diag d;
    if (data[0] & 1) {
        static const char *const vnames[] = {"model", "input", "const", "first", "last", "reg", "nothing"};
        r500_pvs_vertex *vx = malloc(sizeof *vx);
        if (vx) {
            r500_pvs_vertex_init(vx);
            (void)r500_pvs_vertex_apply(vx, vnames[(data[0] >> 1) % (sizeof vnames / sizeof vnames[0])], v, &d);
            free(vx);
        }
    } else {
        r500_job job;
        r500_job_init(&job);
        (void)r500_job_apply(&job, names[(data[0] >> 1) % (sizeof names / sizeof names[0])], v, &d);
        r500_job_free(&job);
    }
    free(v);
    return 0;
}
