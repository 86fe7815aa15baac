/* Outcome classes of one shader through r300, lockstep and llvmpipe, and the
 * exit status `lockstep mesa check` gives each (docs/mesa-fuzz.md
 * "Outcome classes"). One table: the CLI maps classes to statuses only here. */
#include <string.h>

#include "lockstep/mesa_fuzz.h"

const mesa_outcome_info mesa_outcome_table[MESA_OUTCOME_COUNT] = {
    {MESA_OUTCOME_AGREE, "agree", 0, "lockstep's pixels equal llvmpipe's within the tolerance"},
    {MESA_OUTCOME_DISAGREE, "disagree", 3, "some pixel differs from llvmpipe beyond the tolerance"},
    {MESA_OUTCOME_R300_COMPILE_ERROR, "r300-compile-error", 4,
     "r300 reported a compiler error and drew with its dummy shader"},
    {MESA_OUTCOME_R300_CRASH, "r300-crash", 5, "the GL program died of a signal under r300"},
    {MESA_OUTCOME_GLSL_ERROR, "glsl-error", 6, "Mesa's GLSL front end refused the shader"},
    {MESA_OUTCOME_LOCKSTEP_FAULT, "lockstep-fault", 7,
     "lockstep threads faulted running the emitted program"},
    {MESA_OUTCOME_HARNESS_ERROR, "harness-error", 1,
     "bad input, I/O, or llvmpipe could not draw the shader"},
    {MESA_OUTCOME_REFERENCE, "reference-mismatch", 8,
     "fuzz only: llvmpipe disagrees with the fuzzer's own interpreter"},
};

mesa_outcome mesa_outcome_of_r300_run(int status, const char *log)
{
    if (!log)
        log = "";
    if (status < 0)
        return MESA_OUTCOME_HARNESS_ERROR;
    /* lockstep-mesa-gl prints "compile error:" / "link error:" when Mesa's
     * GLSL compiler refuses the shader (src/mesa/glrun.c) */
    if (status == 1 && (strstr(log, ": compile error:") || strstr(log, "link error:")))
        return MESA_OUTCOME_GLSL_ERROR;
    if (status > 128)
        return MESA_OUTCOME_R300_CRASH;
    if (status != 0)
        return MESA_OUTCOME_HARNESS_ERROR;
    /* r300_fs.c (Mesa 22.3): "r300 FP: Compiler Error:\n<why>Using a dummy
     * shader instead." */
    if (strstr(log, "r300 FP: Compiler Error") || strstr(log, "Using a dummy shader"))
        return MESA_OUTCOME_R300_COMPILE_ERROR;
    return MESA_OUTCOME_AGREE;
}
