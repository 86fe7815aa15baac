/* Uniform declarations of a GLSL source (include/lockstep/mesa_glsl.h). The
 * GLSL 1.20 grammar (The OpenGL Shading Language 1.20, §4.3.5 and §9):
 * declarations are "uniform type name[, name]...;" with optional precision
 * qualifiers and array sizes; this scanner needs no more than that. */
#include "lockstep/mesa_glsl.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

static bool ident_char(char c) { return isalnum((unsigned char)c) || c == '_'; }

size_t mesa_glsl_uniforms(const char *src, size_t len, char (*names)[MESA_GLSL_NAME], size_t max)
{
    /* a copy with comments and preprocessor lines blanked */
    char *t = malloc(len + 1);
    if (!t)
        return 0;
    size_t n = 0;
    for (size_t i = 0; i < len; i++) {
        if (src[i] == '/' && i + 1 < len && src[i + 1] == '/') {
            while (i < len && src[i] != '\n')
                i++;
            t[n++] = '\n';
        } else if (src[i] == '/' && i + 1 < len && src[i + 1] == '*') {
            i += 2;
            while (i + 1 < len && !(src[i] == '*' && src[i + 1] == '/'))
                i++;
            i++;
            t[n++] = ' ';
        } else if (src[i] == '#' && (n == 0 || t[n - 1] == '\n')) {
            while (i < len && src[i] != '\n')
                i++;
            t[n++] = '\n';
        } else {
            t[n++] = src[i] ? src[i] : ' ';
        }
    }
    t[n] = 0;
    size_t found = 0;
    for (char *p = t; (p = strstr(p, "uniform")) != NULL; p += 7) {
        if ((p > t && ident_char(p[-1])) || ident_char(p[7]))
            continue;
        char *end = strchr(p, ';');
        if (!end)
            break;
        /* words up to ';': qualifiers and the type, then names (each the
         * identifier before ',' or ';' or '[' or '=') */
        char *q = p + 7;
        char last[MESA_GLSL_NAME] = "";
        int depth = 0;
        while (q <= end) {
            if (depth == 0 && (*q == ',' || *q == ';' || *q == '[' || *q == '=') && last[0]) {
                if (found < max)
                    memcpy(names[found], last, MESA_GLSL_NAME);
                found++;
                last[0] = 0;
                if (*q == '=') /* an initialiser: skip to the next name */
                    while (q < end && *q != ',')
                        q++;
            }
            if (*q == '[' || *q == '(')
                depth++;
            else if (*q == ']' || *q == ')')
                depth--;
            if (ident_char(*q) && depth == 0) {
                size_t k = 0;
                while (ident_char(q[k]))
                    k++;
                if (k < MESA_GLSL_NAME) {
                    memcpy(last, q, k);
                    last[k] = 0;
                }
                q += k;
                continue;
            }
            q++;
        }
        p = end - 6;
    }
    free(t);
    return found;
}

/* The name part of a setting "NAME=..." equals name. */
static bool setting_names(const char *setting, const char *name)
{
    size_t l = strcspn(setting, "=");
    return l == strlen(name) && !strncmp(setting, name, l);
}

void mesa_glsl_check_uniforms(const char *src, size_t len, const char *const *settings, size_t nsettings,
                              mesa_glsl_uniform_check *out)
{
    memset(out, 0, sizeof *out);
    out->declared = mesa_glsl_uniforms(src, len, out->names, MESA_GLSL_MAX_UNIFORMS);
    out->kept = out->declared < MESA_GLSL_MAX_UNIFORMS ? out->declared : MESA_GLSL_MAX_UNIFORMS;
    for (size_t i = 0; i < out->kept; i++) {
        for (size_t k = 0; k < nsettings && !out->set[i]; k++)
            out->set[i] = setting_names(settings[k], out->names[i]);
        out->unset += !out->set[i];
    }
    if (out->declared > out->kept)
        return; /* a setting may name one that was not kept */
    for (size_t k = 0; k < nsettings && out->nunknown < MESA_GLSL_MAX_UNIFORMS; k++) {
        bool found = false;
        for (size_t i = 0; i < out->kept && !found; i++)
            found = setting_names(settings[k], out->names[i]);
        if (!found)
            out->unknown[out->nunknown++] = k;
    }
}
