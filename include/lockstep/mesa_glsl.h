/* What a GLSL source declares, for the harness's warnings (docs/mesa.md). */
#ifndef LOCKSTEP_MESA_GLSL_H
#define LOCKSTEP_MESA_GLSL_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

enum { MESA_GLSL_NAME = 64 };

/* The names of the uniforms declared in src (comments skipped; "uniform
 * [precision] TYPE a, b[4];" gives a and b), at most max of them, in order.
 * Returns how many were found (possibly more than max). */
size_t mesa_glsl_uniforms(const char *src, size_t len, char (*names)[MESA_GLSL_NAME], size_t max);

#ifdef __cplusplus
}
#endif
#endif
