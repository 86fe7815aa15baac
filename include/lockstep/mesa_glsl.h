/* What a GLSL source declares, for the harness's warnings (docs/mesa.md). */
#ifndef LOCKSTEP_MESA_GLSL_H
#define LOCKSTEP_MESA_GLSL_H

#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

enum { MESA_GLSL_NAME = 64 };

/* The names of the uniforms declared in src (comments skipped; "uniform
 * [precision] TYPE a, b[4];" gives a and b), at most max of them, in order.
 * Returns how many were found (possibly more than max). */
size_t mesa_glsl_uniforms(const char *src, size_t len, char (*names)[MESA_GLSL_NAME], size_t max);

/* Which uniforms src declares that the settings ("NAME=V[,V...]", as
 * mesa_r300_config.uniforms) leave unset — they read 0 — and which settings
 * name no uniform src declares. The first MESA_GLSL_MAX_UNIFORMS declared
 * names are kept; settings are checked against the declarations only when
 * all of them were kept. */
enum { MESA_GLSL_MAX_UNIFORMS = 64 };
typedef struct mesa_glsl_uniform_check {
    size_t declared;                                /* uniforms src declares */
    size_t kept;                                    /* min(declared, MESA_GLSL_MAX_UNIFORMS) */
    char names[MESA_GLSL_MAX_UNIFORMS][MESA_GLSL_NAME];
    bool set[MESA_GLSL_MAX_UNIFORMS];               /* names[i] is set by a setting */
    size_t unset;                                   /* kept names no setting sets */
    size_t unknown[MESA_GLSL_MAX_UNIFORMS];         /* indexes of settings naming no declared uniform */
    size_t nunknown;
} mesa_glsl_uniform_check;
void mesa_glsl_check_uniforms(const char *src, size_t len, const char *const *settings, size_t nsettings,
                              mesa_glsl_uniform_check *out);

#ifdef __cplusplus
}
#endif
#endif
