/* piglit .shader_test parser and input-model check (include/lockstep/mesa_piglit.h).
 * Command semantics follow piglit's shader_runner: window 250×250 (SIZE
 * overrides), `draw rect ortho X Y W H` in window pixels, probes on window
 * pixels from the bottom-left, tolerance 0.01 per channel. */
#include "lockstep/mesa_piglit.h"

#include <ctype.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { PIGLIT_DEFAULT_SIZE = 250, PIGLIT_MAX_SIZE = 4096, PIGLIT_MAX_LINE = 4096 };

typedef enum section {
    SEC_NONE,
    SEC_REQUIRE,
    SEC_VS,
    SEC_VS_PASSTHROUGH,
    SEC_FS,
    SEC_TEST,
    SEC_VERTEX_DATA,
    SEC_OTHER,
} section;

void piglit_skip_key(const char *fmt, char *out, size_t n)
{
    size_t k = 0;
    for (const char *f = fmt; *f && k + 1 < n; f++) {
        if (*f == '%' && f[1] == '%') {
            out[k++] = '%';
            f++;
        } else if (*f == '%') {
            f++;
            while (*f && !strchr("sdiuxXfgc", *f))
                f++; /* flags, width, precision */
            if (!*f)
                break;
            out[k++] = '*';
        } else {
            out[k++] = *f;
        }
    }
    if (n)
        out[k < n ? k : n - 1] = 0;
}

static void set_skip(piglit_test *t, int line, const char *fmt, const char *arg)
{
    if (t->skip[0])
        return; /* the first reason is the one reported */
    snprintf(t->skip, sizeof t->skip, fmt, arg);
    t->skip_line = line;
    /* "%s" alone: the argument is itself a fixed message */
    if (fmt[0] == '%' && fmt[1] == 's' && fmt[2] == 0)
        memcpy(t->skip_key, t->skip, sizeof t->skip_key);
    else
        piglit_skip_key(fmt, t->skip_key, sizeof t->skip_key);
    t->skip_key[sizeof t->skip_key - 1] = 0;
}

/* Components of a uniform type, 0 if the harness does not support it (GL 2.1:
 * float/int/bool vectors and the GLSL 1.20 matrices). */
static int uniform_components(const char *type)
{
    static const struct { const char *name; int n; } types[] = {
        {"float", 1}, {"vec2", 2}, {"vec3", 3}, {"vec4", 4},
        {"int", 1},   {"ivec2", 2}, {"ivec3", 3}, {"ivec4", 4},
        {"bool", 1},  {"bvec2", 2}, {"bvec3", 3}, {"bvec4", 4},
        {"mat2", 4},  {"mat3", 9},  {"mat4", 16},
        {"mat2x2", 4}, {"mat2x3", 6}, {"mat2x4", 8},
        {"mat3x2", 6}, {"mat3x3", 9}, {"mat3x4", 12},
        {"mat4x2", 8}, {"mat4x3", 12}, {"mat4x4", 16},
    };
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
        if (!strcmp(types[i].name, type))
            return types[i].n;
    return 0;
}

/* Read up to max numbers from s the way shader_runner does (strtod one after
 * the other, skipping whitespace, '(' ')' and ','): reading stops at the first
 * text that is not a number and whatever follows is ignored ("2.0;").
 * Returns the count; *bad_col (0-based in s) is where reading stopped. */
static int read_numbers(const char *s, float *v, int *iv, int max, int *bad_col)
{
    int n = 0;
    const char *p = s;
    for (;;) {
        while (*p && (isspace((unsigned char)*p) || *p == '(' || *p == ')' || *p == ','))
            p++;
        *bad_col = (int)(p - s);
        if (!*p || n >= max)
            return n;
        char *end;
        const char *q = p + (*p == '-' || *p == '+');
        if (q[0] == '0' && (q[1] == 'x' || q[1] == 'X')) {
            /* shader_runner: hexadecimal is the value's bit pattern, a float's
             * for float values, a 32-bit integer's for int values */
            unsigned long long u = strtoull(q, &end, 16);
            if (end == q + 2)
                return n;
            uint32_t bits = (uint32_t)u;
            if (*p == '-')
                bits = (uint32_t)(0u - bits);
            float f;
            memcpy(&f, &bits, sizeof f);
            v[n] = f;
            if (iv)
                iv[n] = (int32_t)bits;
        } else if (iv) {
            long long x = strtoll(p, &end, 10);
            if (end == p)
                return n;
            if (*end == '.' || *end == 'e' || *end == 'E') { /* "2.0" for an int: as strtol, 2 */
                double dx = strtod(p, &end);
                x = dx != dx ? 0 : dx >= 9e18 ? LLONG_MAX : dx <= -9e18 ? LLONG_MIN : (long long)dx;
            }
            iv[n] = (int32_t)(uint32_t)(unsigned long long)x;
            v[n] = (float)iv[n];
        } else {
            double x = strtod(p, &end);
            if (end == p)
                return n;
            v[n] = (float)x;
        }
        n++;
        p = end;
    }
}

/* Coordinates, sizes and projections must be finite and of sane size before
 * they become pixel numbers (|v| <= 1e6). */
static bool sane(const float *v, int n)
{
    for (int i = 0; i < n; i++)
        if (!(fabsf(v[i]) <= 1e6f))
            return false;
    return true;
}

/* shader_runner truncates probe coordinates to int; sane() bounded them and a
 * relative one is at most 1e6 · 4096, so clamp before converting */
static float trunc_coord(double x)
{
    if (x > 1e7)
        x = 1e7;
    if (x < -1e7)
        x = -1e7;
    return (float)(long)x;
}

static bool starts_word(const char *s, const char *w, const char **rest)
{
    size_t n = strlen(w);
    if (strncmp(s, w, n) || (s[n] && !isspace((unsigned char)s[n])))
        return false;
    *rest = s + n;
    return true;
}

/* Append one command; false on allocation failure. */
static bool push(piglit_test *t, const piglit_cmd *c, size_t *cap)
{
    if (t->ncmds == *cap) {
        size_t nc = *cap ? 2 * *cap : 32;
        piglit_cmd *p = realloc(t->cmds, nc * sizeof *p);
        if (!p)
            return false;
        t->cmds = p;
        *cap = nc;
    }
    t->cmds[t->ncmds++] = *c;
    return true;
}

static ls_status number_error(ls_diag *d, const char *file, int line, int col, const char *ltext,
                              const char *what)
{
    ls_status st = ls_diag_set(d, LS_ERR_PARSE, file, line, col, "%s", what);
    if (d)
        snprintf(d->source_line, sizeof d->source_line, "%s", ltext);
    return st;
}

/* ---- texture, texparameter, hint: shader_runner's names and their GL enums */

typedef struct name_enum {
    const char *name;
    int value;
} name_enum;

/* Read a word ([A-Za-z0-9_]) at *p (after blanks) into out; advance *p. */
static bool read_word(const char **p, char *out, size_t n)
{
    const char *q = *p + strspn(*p, " \t");
    size_t l = 0;
    while (isalnum((unsigned char)q[l]) || q[l] == '_')
        l++;
    if (!l || l >= n)
        return false;
    memcpy(out, q, l);
    out[l] = 0;
    *p = q + l;
    return true;
}

static bool lookup(const name_enum *tab, const char *name, int *value)
{
    for (; tab->name; tab++)
        if (!strcmp(tab->name, name)) {
            *value = tab->value;
            return true;
        }
    return false;
}

/* shader_runner's parse_tex_target (parser_utils.c) for the targets of a GL
 * 2.1 context; the array targets make the test a skip */
static const name_enum tex_targets[] = {
    {"1D", PIGLIT_GL_TEXTURE_1D},     {"2D", PIGLIT_GL_TEXTURE_2D},
    {"3D", PIGLIT_GL_TEXTURE_3D},     {"Rect", PIGLIT_GL_TEXTURE_RECTANGLE},
    {"Cube", PIGLIT_GL_TEXTURE_CUBE_MAP}, {NULL, 0},
};

/* handle_texparameter's value tables (shader_runner.c) */
static const name_enum compare_funcs[] = {
    {"greater", PIGLIT_GL_GREATER}, {"gequal", PIGLIT_GL_GEQUAL}, {"less", PIGLIT_GL_LESS},
    {"lequal", PIGLIT_GL_LEQUAL},   {"equal", PIGLIT_GL_EQUAL},   {"notequal", PIGLIT_GL_NOTEQUAL},
    {"never", PIGLIT_GL_NEVER},     {"always", PIGLIT_GL_ALWAYS}, {NULL, 0},
};
static const name_enum depth_modes[] = {
    {"intensity", PIGLIT_GL_INTENSITY}, {"luminance", PIGLIT_GL_LUMINANCE},
    {"alpha", PIGLIT_GL_ALPHA},         {"red", PIGLIT_GL_RED}, {NULL, 0},
};
static const name_enum min_filters[] = {
    {"nearest_mipmap_nearest", PIGLIT_GL_NEAREST_MIPMAP_NEAREST},
    {"linear_mipmap_nearest", PIGLIT_GL_LINEAR_MIPMAP_NEAREST},
    {"nearest_mipmap_linear", PIGLIT_GL_NEAREST_MIPMAP_LINEAR},
    {"linear_mipmap_linear", PIGLIT_GL_LINEAR_MIPMAP_LINEAR},
    {"nearest", PIGLIT_GL_NEAREST},
    {"linear", PIGLIT_GL_LINEAR},
    {NULL, 0},
};
static const name_enum mag_filters[] = {
    {"nearest", PIGLIT_GL_NEAREST}, {"linear", PIGLIT_GL_LINEAR}, {NULL, 0},
};
static const name_enum wrap_modes[] = {
    {"repeat", PIGLIT_GL_REPEAT}, {"clamp_to_edge", PIGLIT_GL_CLAMP_TO_EDGE},
    {"clamp_to_border", PIGLIT_GL_CLAMP_TO_BORDER}, {NULL, 0},
};
static const name_enum swizzles[] = {
    {"red", PIGLIT_GL_RED}, {"green", PIGLIT_GL_GREEN}, {"blue", PIGLIT_GL_BLUE},
    {"alpha", PIGLIT_GL_ALPHA}, {NULL, 0},
};

/* The parameters: name, GL pname, value table (NULL: a number, read below). */
static const struct texparam {
    const char *name;
    int pname;
    const name_enum *values;
} texparams[] = {
    {"compare_func", PIGLIT_GL_TEXTURE_COMPARE_FUNC, compare_funcs},
    {"depth_mode", PIGLIT_GL_DEPTH_TEXTURE_MODE, depth_modes},
    {"min", PIGLIT_GL_TEXTURE_MIN_FILTER, min_filters},
    {"mag", PIGLIT_GL_TEXTURE_MAG_FILTER, mag_filters},
    {"wrap_s", PIGLIT_GL_TEXTURE_WRAP_S, wrap_modes},
    {"wrap_t", PIGLIT_GL_TEXTURE_WRAP_T, wrap_modes},
    {"wrap_r", PIGLIT_GL_TEXTURE_WRAP_R, wrap_modes},
    {"swizzle_r", PIGLIT_GL_TEXTURE_SWIZZLE_R, swizzles},
    {"lod_bias", PIGLIT_GL_TEXTURE_LOD_BIAS, NULL},
    {"max_level", PIGLIT_GL_TEXTURE_MAX_LEVEL, NULL},
    {"base_level", PIGLIT_GL_TEXTURE_BASE_LEVEL, NULL},
    {"border_color", PIGLIT_GL_TEXTURE_BORDER_COLOR, NULL},
};

/* shader_runner's hint_target_table and hint_param_table */
static const name_enum hint_targets[] = {
    {"GL_LINE_SMOOTH_HINT", PIGLIT_GL_LINE_SMOOTH_HINT},
    {"GL_POLYGON_SMOOTH_HINT", PIGLIT_GL_POLYGON_SMOOTH_HINT},
    {"GL_TEXTURE_COMPRESSION_HINT", PIGLIT_GL_TEXTURE_COMPRESSION_HINT},
    {"GL_FRAGMENT_SHADER_DERIVATIVE_HINT", PIGLIT_GL_FRAGMENT_SHADER_DERIVATIVE_HINT},
    {NULL, 0},
};
static const name_enum hint_modes[] = {
    {"GL_FASTEST", PIGLIT_GL_FASTEST}, {"GL_NICEST", PIGLIT_GL_NICEST},
    {"GL_DONT_CARE", PIGLIT_GL_DONT_CARE}, {NULL, 0},
};

/* Are v[0..n-1] whole numbers within [lo, hi]? */
static bool whole_in(const float *v, int n, float lo, float hi)
{
    for (int i = 0; i < n; i++)
        if (!(v[i] >= lo && v[i] <= hi) || v[i] != (float)(int)v[i])
            return false;
    return true;
}

/* The forms of shader_runner's `texture` command (shader_runner.c, the
 * texture branches of process_test_script; the textures themselves are
 * piglit-util-gl.c's piglit_rgbw_texture, piglit_quads_texture, …): fills c
 * (unit iv[0], kind iv[1], sizes iv[2..4], level iv[5], colours v[]). A form
 * a GL 2.1 harness does not run sets the skip and leaves c->kind 0. */
static ls_status texture_cmd(piglit_test *t, piglit_cmd *c, const char *s, const char *rest,
                             const char *file, int line, int col0, ls_diag *d)
{
    char kind[32] = "", sub[32] = "";
    if (!read_word(&rest, kind, sizeof kind)) {
        set_skip(t, line, "test command '%.40s' is not supported", s);
        return LS_OK;
    }
    const char *after_kind = rest;
    float v[24];
    int bad = 0, n, want, k;
    int col = col0 + (int)(rest - s) + 1;
    c->kind = PIGLIT_TEXTURE;
    c->iv[4] = 1;
    if (!strcmp(kind, "rgbw") && read_word(&rest, sub, sizeof sub) &&
        (!strcmp(sub, "1D") || !strcmp(sub, "3D"))) {
        /* `texture rgbw 1D UNIT`, `texture rgbw 3D UNIT`: fixed sizes */
        k = sub[0] == '1' ? PIGLIT_TEX_RGBW_1D : PIGLIT_TEX_RGBW_3D;
        want = 1;
    } else if (!strcmp(kind, "rgbw") && sub[0] && sub[strspn(sub, "0123456789")]) {
        set_skip(t, line, "texture rgbw %.20s (array textures) needs GL 3.0", sub);
        c->kind = 0;
        return LS_OK;
    } else if (!strcmp(kind, "rgbw")) {
        rest = after_kind;
        k = PIGLIT_TEX_RGBW;
        want = 3;
    } else if (!strcmp(kind, "checkerboard")) {
        k = PIGLIT_TEX_CHECKERBOARD;
        want = 12;
    } else if (!strcmp(kind, "quads")) {
        k = PIGLIT_TEX_QUADS;
        want = 22;
    } else if (!strcmp(kind, "miptree")) {
        k = PIGLIT_TEX_MIPTREE;
        want = 1;
    } else if (!strcmp(kind, "shadow1D")) {
        k = PIGLIT_TEX_SHADOW_1D;
        want = 2;
    } else if (!strcmp(kind, "shadow2D")) {
        k = PIGLIT_TEX_SHADOW_2D;
        want = 3;
    } else if (!strcmp(kind, "shadowRect")) {
        k = PIGLIT_TEX_SHADOW_RECT;
        want = 3;
    } else {
        set_skip(t, line, "test command '%.40s' is not supported", s);
        c->kind = 0;
        return LS_OK;
    }
    n = read_numbers(rest, v, NULL, want, &bad);
    if (n != want)
        return number_error(d, file, line, col0 + (int)(rest - s) + bad + 1, s,
                            k == PIGLIT_TEX_RGBW ? "texture rgbw: expected UNIT (W, H)"
                            : k == PIGLIT_TEX_CHECKERBOARD
                                ? "texture checkerboard: expected UNIT LEVEL (W, H) (r, g, b, a) (r, g, b, a)"
                            : k == PIGLIT_TEX_QUADS
                                ? "texture quads: expected UNIT LEVEL (W, H) (TW, TH) and four colours"
                            : k == PIGLIT_TEX_SHADOW_1D ? "texture shadow1D: expected UNIT (W)"
                            : want == 3 ? "texture: expected UNIT (W, H)"
                                        : "texture: expected UNIT");
    /* the texture unit: GL 2.1's GL_MAX_COMBINED_TEXTURE_IMAGE_UNITS is at most 32 */
    if (!whole_in(v, 1, 0, 31))
        return number_error(d, file, line, col, s, "texture: the unit must be 0..31");
    c->iv[0] = (int)v[0];
    c->iv[1] = k;
    switch (k) {
    case PIGLIT_TEX_RGBW_1D:
        c->iv[2] = 4, c->iv[3] = 1;
        break;
    case PIGLIT_TEX_RGBW_3D:
        c->iv[2] = 2, c->iv[3] = 2, c->iv[4] = 2;
        break;
    case PIGLIT_TEX_MIPTREE:
        c->iv[2] = 8, c->iv[3] = 8;
        break;
    case PIGLIT_TEX_CHECKERBOARD:
    case PIGLIT_TEX_QUADS:
        /* UNIT LEVEL (W, H) [(TW, TH)] colours; tiles of W/2 × H/2 for the checkerboard */
        if (!whole_in(v + 1, 1, 0, 12) || !whole_in(v + 2, 2, 1, PIGLIT_MAX_SIZE) ||
            (k == PIGLIT_TEX_QUADS && !whole_in(v + 4, 2, 1, PIGLIT_MAX_SIZE)) ||
            (k == PIGLIT_TEX_CHECKERBOARD && !whole_in(v + 2, 2, 2, PIGLIT_MAX_SIZE)) ||
            !sane(v + want - (k == PIGLIT_TEX_QUADS ? 16 : 8), k == PIGLIT_TEX_QUADS ? 16 : 8))
            return number_error(d, file, line, col, s,
                                "texture: a level 0..12, whole sizes 1..4096 (2.. for a "
                                "checkerboard's, halved into its tiles) and finite colours");
        c->iv[5] = (int)v[1];
        c->iv[2] = (int)v[2], c->iv[3] = (int)v[3];
        if (k == PIGLIT_TEX_QUADS) {
            c->iv[6] = (int)v[4], c->iv[7] = (int)v[5];
            memcpy(c->v, v + 6, 16 * sizeof *v);
        } else {
            c->iv[6] = c->iv[2] / 2, c->iv[7] = c->iv[3] / 2;
            memcpy(c->v, v + 4, 8 * sizeof *v);
        }
        break;
    default: /* RGBW, SHADOW_*: UNIT (W[, H]) */
        /* a shadow texture's depth is x / (W - 1): W = 1 divides by zero */
        if (!whole_in(v + 1, 1, k == PIGLIT_TEX_RGBW ? 1 : 2, PIGLIT_MAX_SIZE) ||
            (want == 3 && !whole_in(v + 2, 1, 1, PIGLIT_MAX_SIZE)))
            return number_error(d, file, line, col, s,
                                "texture: whole sizes 1..4096 (a shadow texture's width 2..4096)");
        c->iv[2] = (int)v[1];
        c->iv[3] = want == 3 ? (int)v[2] : 1;
        if (k == PIGLIT_TEX_RGBW) {
            /* `texture rgbw UNIT (W, H) FORMAT`: an internal format other than GL_RGBA */
            int used = 0;
            read_numbers(rest, v, NULL, 3, &used);
            const char *fmt = rest + used;
            if (*fmt) {
                set_skip(t, line, "texture rgbw with internal format '%.40s' is not supported", fmt);
                c->kind = 0;
            }
        }
        break;
    }
    return LS_OK;
}

/* `texparameter TARGET NAME VALUE` (shader_runner's handle_texparameter). */
static ls_status texparameter_cmd(piglit_test *t, piglit_cmd *c, const char *s, const char *rest,
                                  const char *file, int line, int col0, ls_diag *d)
{
    char target[32], name[32], value[48];
    rest += strspn(rest, " \t");
    int col = col0 + (int)(rest - s) + 1; /* of the word read next */
    if (!read_word(&rest, target, sizeof target))
        return number_error(d, file, line, col, s, "texparameter: expected a target (1D 2D 3D Rect Cube)");
    if (!lookup(tex_targets, target, &c->iv[0])) {
        if (strstr(target, "Array")) {
            set_skip(t, line, "texparameter %.20s (array textures) needs GL 3.0", target);
            return LS_OK;
        }
        return number_error(d, file, line, col, s, "texparameter: expected a target (1D 2D 3D Rect Cube)");
    }
    rest += strspn(rest, " \t");
    col = col0 + (int)(rest - s) + 1;
    const struct texparam *tp = NULL;
    if (read_word(&rest, name, sizeof name))
        for (size_t i = 0; i < sizeof texparams / sizeof texparams[0] && !tp; i++)
            if (!strcmp(texparams[i].name, name))
                tp = &texparams[i];
    if (!tp) {
        set_skip(t, line, "test command '%.40s' is not supported", s);
        return LS_OK;
    }
    c->kind = PIGLIT_TEXPARAMETER;
    c->iv[1] = tp->pname;
    rest += strspn(rest, " \t");
    col = col0 + (int)(rest - s) + 1;
    if (tp->values) {
        if (!read_word(&rest, value, sizeof value) || !lookup(tp->values, value, &c->iv[2]))
            return number_error(d, file, line, col, s, "texparameter: unknown value for this parameter");
        return LS_OK;
    }
    int bad = 0, want = tp->pname == PIGLIT_GL_TEXTURE_BORDER_COLOR ? 4 : 1;
    int n = read_numbers(rest, c->v, NULL, want, &bad);
    if (n != want || !sane(c->v, want))
        return number_error(d, file, line, col0 + (int)(rest - s) + bad + 1, s,
                            want == 4 ? "texparameter border_color: expected four numbers"
                                      : "texparameter: expected a number");
    if (tp->pname != PIGLIT_GL_TEXTURE_LOD_BIAS && want == 1) {
        if (!whole_in(c->v, 1, 0, 1000))
            return number_error(d, file, line, col, s, "texparameter: a level must be 0..1000");
        c->iv[2] = (int)c->v[0];
    }
    return LS_OK;
}

/* One [test] line (trimmed, non-empty, not a comment). */
static ls_status test_line(piglit_test *t, const char *s, const char *file, int line, int col0,
                           size_t *cap, ls_diag *d)
{
    piglit_cmd c;
    memset(&c, 0, sizeof c);
    c.line = line;
    const char *rest;
    int bad = 0, n;
    /* shader_runner reads the values a command needs one by one and takes 0
     * for a missing one; a line with none at all is an error here. */
#define NUMBERS(arr, max) NUMBERS_I(arr, NULL, max)
#define NUMBERS_I(arr, ints, max)                                                              \
    do {                                                                                       \
        n = read_numbers(rest, arr, ints, max, &bad);                                             \
        if (n == 0 && (max) > 0)                                                               \
            return number_error(d, file, line, col0 + (int)(rest - s) + bad + 1, s,          \
                                "expected a number here");                                   \
    } while (0)
    if (starts_word(s, "frustum", &rest)) {
        c.kind = PIGLIT_FRUSTUM;
        NUMBERS(c.v, 6);
        if (n != 6 || !sane(c.v, 6) || c.v[0] == c.v[1] || c.v[2] == c.v[3] || !(c.v[4] > 0) ||
            !(c.v[5] > c.v[4]))
            return number_error(d, file, line, col0 + 1, s,
                                "frustum: expected left right bottom top near far, 0 < near < far");
    } else if (starts_word(s, "enable", &rest) || starts_word(s, "disable", &rest)) {
        rest += strspn(rest, " \t");
        c.kind = PIGLIT_ENABLE;
        c.iv[1] = s[0] == 'e';
        if (!strncmp(rest, "GL_CLIP_PLANE", 13) && rest[13] >= '0' && rest[13] <= '5' &&
            (!rest[14] || isspace((unsigned char)rest[14])))
            c.iv[0] = rest[13] - '0';
        else if (starts_word(rest, "GL_VERTEX_PROGRAM_TWO_SIDE", &rest))
            c.iv[0] = 6;
        else if (starts_word(rest, "GL_VERTEX_PROGRAM_POINT_SIZE", &rest))
            c.iv[0] = 7;
        else if (starts_word(rest, "GL_POINT_SPRITE", &rest))
            c.iv[0] = 8;
        else {
            set_skip(t, line, "test command '%.40s' is not supported", s);
            return LS_OK;
        }
    } else if (starts_word(s, "clip", &rest) &&
               starts_word(rest + strspn(rest, " \t"), "plane", &rest)) {
        float v[5];
        NUMBERS(v, 5);
        if (n != 5 || v[0] < 0 || v[0] > 5 || v[0] != (float)(int)v[0] || !sane(v + 1, 4))
            return number_error(d, file, line, col0 + 1, s,
                                "clip plane: expected a plane 0..5 and four coefficients");
        c.kind = PIGLIT_CLIP_PLANE;
        c.iv[0] = (int)v[0];
        memcpy(c.v, v + 1, 4 * sizeof *v);
    } else if (starts_word(s, "shade", &rest) &&
               starts_word(rest + strspn(rest, " \t"), "model", &rest)) {
        rest += strspn(rest, " \t");
        c.kind = PIGLIT_SHADE_MODEL;
        if (starts_word(rest, "flat", &rest))
            c.iv[0] = 1;
        else if (!starts_word(rest, "smooth", &rest)) {
            set_skip(t, line, "test command '%.40s' is not supported", s);
            return LS_OK;
        }
    } else if (starts_word(s, "clear", &rest) && starts_word(rest + strspn(rest, " \t"), "color", &rest)) {
        c.kind = PIGLIT_CLEAR_COLOR;
        NUMBERS(c.v, 4);
    } else if (!strcmp(s, "clear")) {
        c.kind = PIGLIT_CLEAR;
    } else if (starts_word(s, "uniform", &rest)) {
        char type[32], name[160];
        int used = 0;
        if (sscanf(rest, " %31s %159s%n", type, name, &used) != 2)
            return number_error(d, file, line, col0 + 8, s, "uniform needs a type, a name and values");
        int comps = uniform_components(type);
        if (!comps) {
            set_skip(t, line, "uniform type '%s' is not supported (GL 2.1 harness)", type);
            return LS_OK;
        }
        if (strlen(name) >= sizeof c.name) {
            set_skip(t, line, "uniform name too long: %.60s", name);
            return LS_OK;
        }
        c.kind = PIGLIT_UNIFORM;
        memcpy(c.type, type, strlen(type) + 1); /* a known type name: < 16 bytes */
        memcpy(c.name, name, strlen(name) + 1); /* checked above: fits */
        rest += used;
        bool integer = type[0] == 'i' || type[0] == 'b';
        NUMBERS_I(c.v, integer ? c.iv : NULL, comps);
        c.nv = comps;
    } else if (starts_word(s, "draw", &rest) &&
               starts_word(rest + strspn(rest, " \t"), "arrays", &rest)) {
        static const char *const modes[] = {"GL_POINTS", "GL_LINES", "GL_LINE_LOOP",
                                            "GL_LINE_STRIP", "GL_TRIANGLES", "GL_TRIANGLE_STRIP",
                                            "GL_TRIANGLE_FAN", "GL_QUADS", "GL_QUAD_STRIP",
                                            "GL_POLYGON", NULL};
        rest += strspn(rest, " \t");
        int m = -1;
        for (int k = 0; modes[k] && m < 0; k++)
            if (starts_word(rest, modes[k], &rest))
                m = k;
        if (m < 0) {
            set_skip(t, line, "test command '%.40s' is not supported", s);
            return LS_OK;
        }
        float fc[2];
        NUMBERS(fc, 2);
        if (n != 2 || fc[0] < 0 || fc[1] < 0 || fc[0] + fc[1] > (float)PIGLIT_MAX_ROWS ||
            fc[0] != (float)(int)fc[0] || fc[1] != (float)(int)fc[1])
            return number_error(d, file, line, col0 + 1, s,
                                "draw arrays: expected whole first and count within the data");
        c.kind = PIGLIT_DRAW_ARRAYS;
        c.iv[0] = m, c.iv[1] = (int)fc[0], c.iv[2] = (int)fc[1];
    } else if (starts_word(s, "draw", &rest) && starts_word(rest + strspn(rest, " \t"), "rect", &rest)) {
        rest += strspn(rest, " \t");
        if (starts_word(rest, "ortho", &rest)) {
            c.ortho = true;
        } else if (starts_word(rest, "tex", &rest)) {
            /* `draw rect tex x y w h tx ty tw th` (piglit_draw_rect_tex) */
            c.kind = PIGLIT_DRAW_RECT;
            c.tex = true;
            NUMBERS(c.v, 8);
            if (!sane(c.v, 8))
                return number_error(d, file, line, col0 + 1, s,
                                    "draw rect tex: a value is not finite or beyond 1e6");
            if (!push(t, &c, cap))
                return ls_diag_set(d, LS_ERR_NOMEM, file, line, 0, "out of memory");
            return LS_OK;
        } else if (isalpha((unsigned char)*rest)) {
            set_skip(t, line, "test command '%.40s' is not supported", s);
            return LS_OK;
        }
        c.kind = PIGLIT_DRAW_RECT;
        NUMBERS(c.v, 4);
        if (!sane(c.v, 4))
            return number_error(d, file, line, col0 + 1, s, "draw rect: a value is not finite or beyond 1e6");
    } else if (starts_word(s, "probe", &rest) || starts_word(s, "relative", &rest)) {
        bool relative = s[0] == 'r';
        if (relative && !starts_word(rest + strspn(rest, " \t"), "probe", &rest)) {
            set_skip(t, line, "test command '%.40s' is not supported", s);
            return LS_OK;
        }
        rest += strspn(rest, " \t");
        bool all = false, rect = false;
        if (starts_word(rest, "all", &rest))
            all = true;
        else if (starts_word(rest, "rect", &rest))
            rect = true;
        rest += strspn(rest, " \t");
        if (starts_word(rest, "rgba", &rest))
            c.ncomp = 4;
        else if (starts_word(rest, "rgb", &rest))
            c.ncomp = 3;
        else {
            set_skip(t, line, "test command '%.40s' is not supported", s);
            return LS_OK;
        }
        if (all && relative) {
            set_skip(t, line, "test command '%.40s' is not supported", s);
            return LS_OK;
        }
        float v[8] = {0};
        int npos = all ? 0 : rect ? 4 : 2;
        NUMBERS(v, npos + c.ncomp);
        if (!sane(v, npos))
            return number_error(d, file, line, col0 + 1, s, "probe: a coordinate is not finite or beyond 1e6");
        c.kind = PIGLIT_PROBE;
        c.relative = relative;
        for (int k = 0; k < c.ncomp; k++)
            c.e[k] = v[npos + k];
        /* shader_runner: a pixel probe truncates its coordinates; a relative
         * one scales by the window and clamps to the last pixel. */
        float W = (float)t->width, H = (float)t->height;
        if (all) {
            c.v[0] = 0, c.v[1] = 0, c.v[2] = W, c.v[3] = H;
        } else if (rect) {
            for (int k = 0; k < 4; k++)
                c.v[k] = trunc_coord(relative ? (double)v[k] * ((k & 1) ? H : W) : v[k]);
        } else {
            int x = (int)trunc_coord(relative ? (double)v[0] * W : v[0]);
            int y = (int)trunc_coord(relative ? (double)v[1] * H : v[1]);
            if (relative && x >= t->width)
                x = t->width - 1;
            if (relative && y >= t->height)
                y = t->height - 1;
            c.v[0] = (float)x, c.v[1] = (float)y, c.v[2] = 1, c.v[3] = 1;
        }
    } else if (starts_word(s, "ortho", &rest)) {
        /* shader_runner: `ortho` = glOrtho(0, W, 0, H, -1, 1); `ortho L R B T` */
        c.kind = PIGLIT_ORTHO;
        n = read_numbers(rest, c.v, NULL, 4, &bad);
        if (n == 0) {
            c.v[0] = 0, c.v[1] = (float)t->width, c.v[2] = 0, c.v[3] = (float)t->height;
        } else if (n != 4) {
            return number_error(d, file, line, col0 + (int)(rest - s) + bad + 1, s,
                                "ortho takes no values or left right bottom top");
        }
        if (c.v[0] == c.v[1] || c.v[2] == c.v[3] || !sane(c.v, 4))
            return number_error(d, file, line, col0 + 1, s, "ortho: an empty, infinite or huge range");
    } else if (starts_word(s, "texture", &rest)) {
        ls_status st = texture_cmd(t, &c, s, rest, file, line, col0, d);
        if (st != LS_OK || c.kind != PIGLIT_TEXTURE)
            return st;
    } else if (starts_word(s, "texparameter", &rest)) {
        ls_status st = texparameter_cmd(t, &c, s, rest, file, line, col0, d);
        if (st != LS_OK || c.kind != PIGLIT_TEXPARAMETER)
            return st;
    } else if (starts_word(s, "color", &rest)) {
        /* shader_runner: glColor4fv of the values (compatibility profile) */
        c.kind = PIGLIT_COLOR;
        NUMBERS(c.v, 4);
    } else if (starts_word(s, "hint", &rest)) {
        char target[48], mode[24];
        c.kind = PIGLIT_HINT;
        if (!read_word(&rest, target, sizeof target) || !lookup(hint_targets, target, &c.iv[0]) ||
            !read_word(&rest, mode, sizeof mode) || !lookup(hint_modes, mode, &c.iv[1]))
            return number_error(d, file, line, col0 + 1, s,
                                "hint: expected a GL_*_HINT target and GL_FASTEST, GL_NICEST or "
                                "GL_DONT_CARE");
    } else if (starts_word(s, "link", &rest) &&
               starts_word(rest + strspn(rest, " \t"), "success", &rest)) {
        c.kind = PIGLIT_LINK_SUCCESS;
    } else if (starts_word(s, "tolerance", &rest)) {
        c.kind = PIGLIT_TOLERANCE;
        NUMBERS(c.v, 4);
        if (n == 1)
            c.v[1] = c.v[2] = c.v[3] = c.v[0];
    } else {
        set_skip(t, line, "test command '%.40s' is not supported", s);
        return LS_OK;
    }
#undef NUMBERS
#undef NUMBERS_I
    if (!push(t, &c, cap))
        return ls_diag_set(d, LS_ERR_NOMEM, file, line, 0, "out of memory");
    return LS_OK;
}

static ls_status require_line(piglit_test *t, const char *s, const char *file, int line,
                              int col0, size_t *rcap, ls_diag *d)
{
    unsigned maj, min;
    int w, h;
    char cmp[3];
    if (sscanf(s, "GLSL %2[<>=!] %u.%u", cmp, &maj, &min) == 3) {
        if (strcmp(cmp, ">="))
            return number_error(d, file, line, col0 + 5, s, "a GLSL requirement must use >=");
        t->glsl_version = (int)(maj * 100 + min);
        if (t->glsl_version > 120)
            set_skip(t, line, "%s: r300 exposes GLSL 1.20", s);
        return LS_OK;
    }
    if (!strncmp(s, "GLSL", 4) || !strncmp(s, "GL ES", 5)) {
        set_skip(t, line, "requirement '%.60s' is not supported", s);
        return LS_OK;
    }
    if (sscanf(s, "GL %2[<>=!] %u.%u", cmp, &maj, &min) == 3) {
        if (strcmp(cmp, ">=") || maj * 10 + min > 21)
            set_skip(t, line, "%s: the harness runs a GL 2.1 context", s);
        return LS_OK;
    }
    if (sscanf(s, "SIZE %d %d", &w, &h) == 2) {
        if (w < 1 || h < 1 || w > PIGLIT_MAX_SIZE || h > PIGLIT_MAX_SIZE)
            return number_error(d, file, line, col0 + 6, s, "SIZE must be 1..4096");
        t->width = w, t->height = h;
        return LS_OK;
    }
    if (!strncmp(s, "/*", 2) || !strncmp(s, "//", 2) || !strncmp(s, "*", 1))
        return LS_OK; /* C comments in [require]: shader_runner ignores lines it does not know */
    if (!strncmp(s, "rlimit", 6)) {
        /* shader_runner: an address-space limit for the test process, so that a
         * compiler blow-up fails the test instead of exhausting the machine */
        char *end;
        unsigned long long lim = strtoull(s + 6, &end, 0);
        if (end == s + 6 || lim == 0)
            return number_error(d, file, line, col0 + 7, s, "rlimit needs a byte count");
        t->rlimit = lim;
        return LS_OK;
    }
    if (!strncmp(s, "GL_", 3) || !strncmp(s, "!GL_", 4)) {
        /* extensions and limits: the GL program checks them against r300 */
        if (t->nrequires == *rcap) {
            size_t nc = *rcap ? 2 * *rcap : 4;
            char **p = realloc(t->requires, nc * sizeof *p);
            if (!p)
                return ls_diag_set(d, LS_ERR_NOMEM, file, line, 0, "out of memory");
            t->requires = p;
            *rcap = nc;
        }
        char *dup = strdup(s);
        if (!dup)
            return ls_diag_set(d, LS_ERR_NOMEM, file, line, 0, "out of memory");
        t->requires[t->nrequires++] = dup;
        return LS_OK;
    }
    set_skip(t, line, "requirement '%.60s' is not understood", s);
    return LS_OK;
}

/* A line of [vertex data] (shader_runner's vertex_attrib_description): the
 * first is the header, NAME/TYPE/COUNT per column (float only here), the
 * others one number per component. */
static ls_status vertex_data_line(piglit_test *t, const char *s, const char *file, int line,
                                  int col0, ls_diag *d)
{
    if (t->skip[0])
        return LS_OK;
    if (!t->nattr) {
        const char *p = s;
        while (*p) {
            p += strspn(p, " \t");
            size_t l = strcspn(p, " \t");
            if (!l)
                break;
            char tok[128];
            if (l >= sizeof tok || t->nattr == PIGLIT_MAX_ATTRS) {
                set_skip(t, line, "%s", "[vertex data]: more than 8 attributes or a long name");
                return LS_OK;
            }
            memcpy(tok, p, l);
            tok[l] = 0;
            p += l;
            char *a = strchr(tok, '/'), *b = a ? strchr(a + 1, '/') : NULL;
            long n = b ? strtol(b + 1, NULL, 10) : 0;
            if (!a || !b || (size_t)(a - tok) >= sizeof t->attr_name[0] || n < 1 || n > 4) {
                return ls_diag_set(d, LS_ERR_PARSE, file, line, col0 + 1,
                                   "[vertex data]: expected NAME/TYPE/COUNT, got '%.60s'", tok);
            }
            *a = *b = 0;
            if (strcmp(a + 1, "float")) {
                set_skip(t, line, "[vertex data] type '%s' is not supported", a + 1);
                return LS_OK;
            }
            memcpy(t->attr_name[t->nattr], tok, strlen(tok) + 1);
            t->attr_comps[t->nattr] = (int)n;
            t->attr_offset[t->nattr] = t->vstride;
            t->vstride += (int)n;
            t->nattr++;
        }
        if (!t->nattr)
            return ls_diag_set(d, LS_ERR_PARSE, file, line, col0 + 1, "[vertex data]: no attribute");
        return LS_OK;
    }
    if (t->nrows == PIGLIT_MAX_ROWS)
        return ls_diag_set(d, LS_ERR_PARSE, file, line, col0 + 1,
                           "[vertex data]: more than %d rows", PIGLIT_MAX_ROWS);
    if ((t->nrows + 1) * (size_t)t->vstride > t->vcap) {
        size_t nc = t->vcap ? 2 * t->vcap : 64 * (size_t)t->vstride;
        float *nv = realloc(t->vdata, nc * sizeof *nv);
        if (!nv)
            return ls_diag_set(d, LS_ERR_NOMEM, file, line, 0, "out of memory");
        t->vdata = nv;
        t->vcap = nc;
    }
    float *row = t->vdata + t->nrows * (size_t)t->vstride;
    int bad = 0;
    int n = read_numbers(s, row, NULL, t->vstride, &bad);
    if (n != t->vstride || !sane(row, t->vstride))
        return ls_diag_set(d, LS_ERR_PARSE, file, line, col0 + bad + 1,
                           "[vertex data]: expected %d finite numbers within 1e6", t->vstride);
    t->nrows++;
    return LS_OK;
}

static section section_of(const char *name)
{
    if (!strcmp(name, "require"))
        return SEC_REQUIRE;
    if (!strcmp(name, "vertex shader"))
        return SEC_VS;
    if (!strcmp(name, "vertex shader passthrough"))
        return SEC_VS_PASSTHROUGH;
    if (!strcmp(name, "fragment shader"))
        return SEC_FS;
    if (!strcmp(name, "test"))
        return SEC_TEST;
    if (!strcmp(name, "vertex data"))
        return SEC_VERTEX_DATA;
    return SEC_OTHER;
}

ls_status piglit_test_parse(const char *text, size_t len, const char *file, piglit_test *t,
                            ls_diag *d)
{
    memset(t, 0, sizeof *t);
    t->width = t->height = PIGLIT_DEFAULT_SIZE;
    size_t cap = 0, rcap = 0;
    section sec = SEC_NONE;
    size_t body_start = 0; /* byte offset of the current shader section's text */
    char **body = NULL;
    ls_status st = LS_OK;
    int line = 0;
    /* SIZE may follow probe lines only in theory; shader_runner reads [require]
     * first, so the window is known before [test] (sections are in order). */
    size_t i = 0;
    while (i <= len && st == LS_OK) {
        size_t j = i;
        while (j < len && text[j] != '\n')
            j++;
        line++;
        if (memchr(text + i, 0, j - i)) {
            st = ls_diag_set(d, LS_ERR_PARSE, file, line, 0, "NUL byte in a text file");
            break;
        }
        char buf[PIGLIT_MAX_LINE];
        size_t ll = j - i;
        if (ll >= sizeof buf) {
            st = ls_diag_set(d, LS_ERR_PARSE, file, line, 1, "line longer than %d bytes",
                             PIGLIT_MAX_LINE - 1);
            break;
        }
        memcpy(buf, text + i, ll);
        buf[ll] = 0;
        /* trim */
        char *s = buf;
        while (*s && isspace((unsigned char)*s))
            s++;
        char *e = s + strlen(s);
        while (e > s && isspace((unsigned char)e[-1]))
            *--e = 0;
        int col0 = (int)(s - buf);
        if (s[0] == '[' && e > s && e[-1] == ']') {
            if (body) {
                *body = strndup(text + body_start, i - body_start);
                if (!*body)
                    st = ls_diag_set(d, LS_ERR_NOMEM, file, line, 0, "out of memory");
                body = NULL;
            }
            e[-1] = 0;
            sec = section_of(s + 1);
            if (sec == SEC_OTHER)
                set_skip(t, line, "section [%.60s] is not supported", s + 1);
            if ((sec == SEC_VS && t->vs_passthrough) || (sec == SEC_VS_PASSTHROUGH && t->nvs))
                set_skip(t, line, "%s", "a passthrough and another vertex shader");
            if ((sec == SEC_VS && t->nvs == PIGLIT_MAX_SHADERS) ||
                (sec == SEC_FS && t->nfs == PIGLIT_MAX_SHADERS))
                set_skip(t, line, "%s", "more than 8 shaders of one stage");
            if (sec == SEC_VS && t->nvs < PIGLIT_MAX_SHADERS) {
                t->vs_line[t->nvs] = line + 1;
                body = &t->vs[t->nvs++];
            } else if (sec == SEC_FS && t->nfs < PIGLIT_MAX_SHADERS) {
                t->fs_line[t->nfs] = line + 1;
                body = &t->fs[t->nfs++];
            } else if (sec == SEC_VS_PASSTHROUGH) {
                t->vs_passthrough = true;
            }
            body_start = j < len ? j + 1 : len;
        } else if (sec == SEC_REQUIRE && *s && *s != '#') {
            st = require_line(t, s, file, line, col0, &rcap, d);
        } else if (sec == SEC_TEST && *s && *s != '#') {
            st = test_line(t, s, file, line, col0, &cap, d);
        } else if (sec == SEC_VERTEX_DATA && *s && *s != '#') {
            st = vertex_data_line(t, s, file, line, col0, d);
        }
        /* lines before the first section are ignored, as by shader_runner */
        i = j + 1;
    }
    if (st == LS_OK && body) {
        *body = strndup(text + body_start, len - body_start);
        if (!*body)
            st = ls_diag_set(d, LS_ERR_NOMEM, file, line, 0, "out of memory");
    }
    for (size_t k = 0; st == LS_OK && k < t->ncmds; k++) {
        const piglit_cmd *c = &t->cmds[k];
        if (c->kind == PIGLIT_DRAW_ARRAYS && (size_t)c->iv[1] + (size_t)c->iv[2] > t->nrows)
            st = ls_diag_set(d, LS_ERR_PARSE, file, c->line, 1,
                             "draw arrays: vertices %d..%d, but [vertex data] has %zu rows",
                             c->iv[1], c->iv[1] + c->iv[2] - 1, t->nrows);
    }
    if (st == LS_OK && !t->nfs)
        set_skip(t, 0, "%s", "no [fragment shader] section");
    if (st == LS_OK && !t->glsl_version)
        set_skip(t, 0, "%s", "no GLSL version requirement");
    if (st != LS_OK)
        piglit_test_free(t);
    return st;
}

ls_status piglit_mesh_parse(const char *text, size_t len, const char *file, piglit_test *t,
                            ls_diag *d)
{
    memset(t, 0, sizeof *t);
    ls_status st = LS_OK;
    int line = 0, last = 0;
    for (size_t i = 0; i <= len && st == LS_OK;) {
        size_t j = i;
        while (j < len && text[j] != '\n')
            j++;
        line++;
        char buf[PIGLIT_MAX_LINE];
        if (memchr(text + i, 0, j - i))
            st = ls_diag_set(d, LS_ERR_PARSE, file, line, 0, "NUL byte in a text file");
        else if (j - i >= sizeof buf)
            st = ls_diag_set(d, LS_ERR_PARSE, file, line, 1, "line longer than %d bytes",
                             PIGLIT_MAX_LINE - 1);
        if (st != LS_OK)
            break;
        memcpy(buf, text + i, j - i);
        buf[j - i] = 0;
        char *s = buf + strspn(buf, " \t\r");
        char *e = s + strlen(s);
        while (e > s && isspace((unsigned char)e[-1]))
            *--e = 0;
        if (*s && *s != '#') {
            st = vertex_data_line(t, s, file, line, (int)(s - buf), d);
            if (st == LS_OK && t->skip[0])
                st = ls_diag_set(d, LS_ERR_PARSE, file, line, 1, "%s", t->skip);
            last = line;
        }
        i = j + 1;
    }
    if (st == LS_OK && (!t->nattr || !t->nrows))
        st = ls_diag_set(d, LS_ERR_PARSE, file, last ? last : 1, 1,
                         "a mesh needs a header of NAME/float/N columns and at least one row");
    else if (st == LS_OK && t->nrows % 3)
        st = ls_diag_set(d, LS_ERR_PARSE, file, last, 1,
                         "%zu rows are not a whole number of triangles (3 rows each)", t->nrows);
    if (st != LS_OK)
        piglit_test_free(t);
    return st;
}

void piglit_test_free(piglit_test *t)
{
    for (int k = 0; k < t->nvs; k++)
        free(t->vs[k]);
    for (int k = 0; k < t->nfs; k++)
        free(t->fs[k]);
    for (size_t i = 0; i < t->nrequires; i++)
        free(t->requires[i]);
    free(t->requires);
    free(t->cmds);
    free(t->vdata);
    memset(t, 0, sizeof *t);
}

/* Copy of src without comments (// to end of line, block comments). */
static char *strip_comments(const char *src)
{
    size_t n = strlen(src);
    char *o = malloc(n + 1), *q = o;
    if (!o)
        return NULL;
    for (size_t i = 0; i < n;) {
        if (src[i] == '/' && src[i + 1] == '/') {
            while (i < n && src[i] != '\n')
                i++;
        } else if (src[i] == '/' && src[i + 1] == '*') {
            i += 2;
            while (i < n && !(src[i] == '*' && src[i + 1] == '/'))
                i++;
            i = i < n ? i + 2 : n;
            *q++ = ' ';
        } else {
            *q++ = src[i++];
        }
    }
    *q = 0;
    return o;
}

static bool uses_ident(const char *code, const char *ident)
{
    size_t n = strlen(ident);
    for (const char *p = strstr(code, ident); p; p = strstr(p + 1, ident)) {
        bool left = p == code || !(isalnum((unsigned char)p[-1]) || p[-1] == '_');
        bool right = !(isalnum((unsigned char)p[n]) || p[n] == '_');
        if (left && right)
            return true;
    }
    return false;
}

bool piglit_fs_uses(const piglit_test *t, const char *ident)
{
    bool r = false;
    for (int k = 0; k < t->nfs && !r; k++) {
        char *c = strip_comments(t->fs[k]);
        r = c && uses_ident(c, ident);
        free(c);
    }
    return r;
}

/* Is this vertex shader's only effect on the position a pass-through of the
 * rectangle's vertex (gl_Vertex with the identity matrices of a GL context
 * nobody changed)? */
static bool scan_position(const char *vs, int *assignments_io, char *rhs_out, size_t rhs_n);

/* The right-hand side of the one `gl_Position = …;` of the vertex shaders,
 * blanks removed, into rhs; false when there is not exactly one such
 * assignment or gl_Position is written otherwise (gl_Position.w = …, *=). */
static bool vs_position_rhs(const piglit_test *t, char *rhs_out, size_t n)
{
    int assignments = 0;
    bool ok = true;
    for (int k = 0; k < t->nvs && ok; k++)
        ok = scan_position(t->vs[k], &assignments, rhs_out, n);
    return ok && assignments == 1;
}

static bool vs_passes_position(const piglit_test *t)
{
    char rhs[128];
    if (!vs_position_rhs(t, rhs, sizeof rhs))
        return false;
    return !strcmp(rhs, "gl_Vertex") || !strcmp(rhs, "ftransform()") ||
           !strcmp(rhs, "gl_ModelViewProjectionMatrix*gl_Vertex");
}

bool piglit_uses_matrices(const piglit_test *t)
{
    char rhs[128];
    if (t->vs_passthrough)
        return false;
    if (!t->nvs)
        return true; /* fixed-function vertex processing */
    return vs_position_rhs(t, rhs, sizeof rhs) &&
           (!strcmp(rhs, "ftransform()") || !strcmp(rhs, "gl_ModelViewProjectionMatrix*gl_Vertex"));
}

static bool scan_position(const char *vs, int *assignments_io, char *rhs_out, size_t rhs_n)
{
    char *c = strip_comments(vs);
    if (!c)
        return false;
    int assignments = *assignments_io;
    bool ok = true;
    for (const char *p = strstr(c, "gl_Position"); p; p = strstr(p + 1, "gl_Position")) {
        const char *q = p + strlen("gl_Position");
        while (isspace((unsigned char)*q))
            q++;
        if (*q != '=' || q[1] == '=') {
            /* gl_Position.w = …, gl_Position *= …: the position is computed */
            if (*q == '.' || (*q && strchr("+-*/", *q) && q[1] == '=') || *q == '[')
                ok = false;
            continue;
        }
        assignments++;
        q++;
        size_t k = 0;
        for (; *q && *q != ';' && k + 1 < rhs_n; q++)
            if (!isspace((unsigned char)*q))
                rhs_out[k++] = *q;
        rhs_out[k] = 0;
    }
    free(c);
    *assignments_io = assignments;
    return ok;
}

/* Collect the names declared by `[centroid] varying TYPE a, b;` in code into
 * v (at most max, deduplicated). *bad is set for an array, a type other than
 * float/vec2-4, or more than max names. Returns the count. */
static int scan_varyings(const char *code, piglit_varying *v, int n, int max, bool *bad)
{
    for (const char *p = strstr(code, "varying"); p; p = strstr(p + 1, "varying")) {
        if ((p > code && (isalnum((unsigned char)p[-1]) || p[-1] == '_')) ||
            isalnum((unsigned char)p[7]) || p[7] == '_')
            continue;
        /* qualifiers before `varying` (invariant, centroid): the varying pass
         * must declare it the same way or the link fails */
        bool invariant = false, centroid = false;
        for (const char *b = p, *kw; b > code;) {
            const char *e = b;
            while (e > code && isspace((unsigned char)e[-1]))
                e--;
            kw = e;
            while (kw > code && isalpha((unsigned char)kw[-1]))
                kw--;
            size_t l = (size_t)(e - kw);
            if (l == 9 && !strncmp(kw, "invariant", 9))
                invariant = true;
            else if (l == 8 && !strncmp(kw, "centroid", 8))
                centroid = true;
            else
                break;
            b = kw;
        }
        char qual[24];
        snprintf(qual, sizeof qual, "%s%s", invariant ? "invariant " : "", centroid ? "centroid " : "");
        const char *q = p + 7;
        char type[32];
        int used = 0;
        if (sscanf(q, " %31[A-Za-z0-9_]%n", type, &used) != 1) {
            *bad = true;
            continue;
        }
        q += used;
        bool ok_type = !strcmp(type, "float") || !strcmp(type, "vec2") ||
                       !strcmp(type, "vec3") || !strcmp(type, "vec4");
        for (;;) {
            char name[64];
            if (sscanf(q, " %63[A-Za-z0-9_]%n", name, &used) != 1) {
                *bad = true;
                break;
            }
            q += used;
            while (isspace((unsigned char)*q))
                q++;
            if (*q == '[' || !ok_type)
                *bad = true;
            bool dup = false;
            for (int k = 0; k < n; k++)
                dup |= !strcmp(v[k].name, name);
            if (!dup) {
                if (n == max) {
                    *bad = true;
                } else {
                    v[n].kind = PIGLIT_VARYING_USER;
                    snprintf(v[n].type, sizeof v[n].type, "%.7s", type);
                    memcpy(v[n].qual, qual, sizeof v[n].qual);
                    memcpy(v[n].name, name, strlen(name) + 1);
                    n++;
                }
            }
            while (*q && *q != ',' && *q != ';')
                q++;
            if (*q != ',')
                break;
            q++;
        }
    }
    return n;
}

static int count_ident(const char *code, const char *ident)
{
    size_t n = strlen(ident);
    int k = 0;
    for (const char *p = strstr(code, ident); p; p = strstr(p + 1, ident))
        k += (p == code || !(isalnum((unsigned char)p[-1]) || p[-1] == '_')) &&
             !(isalnum((unsigned char)p[n]) || p[n] == '_');
    return k;
}

/* How many `varying … name` declarations name it in code. */
static int count_declarations(const char *code, const char *name)
{
    piglit_varying v[8];
    bool bad = false;
    int k = 0;
    /* each declaration statement is scanned separately */
    for (const char *p = strstr(code, "varying"); p; p = strstr(p + 1, "varying")) {
        const char *end = strchr(p, ';');
        if (!end)
            break;
        char stmt[512];
        size_t l = (size_t)(end - p + 1) < sizeof stmt ? (size_t)(end - p + 1) : sizeof stmt - 1;
        memcpy(stmt, p, l);
        stmt[l] = 0;
        int n = scan_varyings(stmt, v, 0, 8, &bad);
        for (int j = 0; j < n; j++)
            k += !strcmp(v[j].name, name);
    }
    return k;
}

/* Is every use of gl_TexCoord in code the literal gl_TexCoord[0]? */
static bool texcoord0_only(const char *code)
{
    for (const char *p = strstr(code, "gl_TexCoord"); p; p = strstr(p + 1, "gl_TexCoord")) {
        const char *q = p + 11;
        while (isspace((unsigned char)*q))
            q++;
        if (q[0] != '[')
            return false;
        q++;
        while (isspace((unsigned char)*q))
            q++;
        if (q[0] != '0' || isalnum((unsigned char)q[1]))
            return false;
        q++;
        while (isspace((unsigned char)*q))
            q++;
        if (*q != ']')
            return false;
    }
    return true;
}

bool piglit_test_check_inputs(piglit_test *t)
{
    memset(&t->varying, 0, sizeof t->varying);
    if (t->skip[0])
        return false;
    /* Inputs lockstep cannot feed: r300 routes them through RS from the
     * vertex program; one interpolated input is computed by llvmpipe
     * (assumption piglit-varyings), more cannot be told apart. */
    static const char *const unsupported[] = {"gl_SecondaryColor", "gl_FrontFacing",
                                              "gl_FogFragCoord", "gl_PointCoord"};
    for (size_t i = 0; i < sizeof unsupported / sizeof unsupported[0]; i++)
        if (piglit_fs_uses(t, unsupported[i])) {
            set_skip(t, t->fs_line[0],
                     "the fragment shader reads %s: lockstep feeds only gl_FragCoord, uniforms "
                     "and one varying",
                     unsupported[i]);
            return false;
        }
    piglit_varying v[4];
    int nv = 0;
    bool bad = false, texcoord0 = true;
    for (int k = 0; k < t->nfs; k++) {
        char *c = strip_comments(t->fs[k]);
        if (!c)
            return false;
        nv = scan_varyings(c, v, nv, 4, &bad);
        texcoord0 &= texcoord0_only(c);
        free(c);
    }
    /* a varying only declared, never read, is no input (GLSL allows it; the
     * vertex shader need not write it) */
    for (int k = 0; k < nv;) {
        int uses = 0, decls = 0;
        for (int u = 0; u < t->nfs; u++) {
            char *c = strip_comments(t->fs[u]);
            if (!c)
                return false;
            uses += count_ident(c, v[k].name);
            decls += count_declarations(c, v[k].name);
            free(c);
        }
        if (uses <= decls)
            v[k] = v[--nv];
        else
            k++;
    }
    bool color = piglit_fs_uses(t, "gl_Color"), texcoord = piglit_fs_uses(t, "gl_TexCoord");
    int inputs = nv + color + texcoord;
    if (bad) {
        set_skip(t, t->fs_line[0], "%s",
                 "the fragment shader reads an array, matrix or struct varying: lockstep feeds "
                 "one float..vec4 varying at most");
        return false;
    }
    if (inputs > 1) {
        set_skip(t, t->fs_line[0], "%s",
                 "the fragment shader reads several varyings: lockstep feeds one at most (r300's "
                 "packing of several is not reproduced)");
        return false;
    }
    if (texcoord && !texcoord0) {
        set_skip(t, t->fs_line[0], "%s",
                 "the fragment shader reads gl_TexCoord[i] other than gl_TexCoord[0]");
        return false;
    }
    static const char *const samplers[] = {"sampler1D", "sampler2D", "sampler3D", "samplerCube",
                                           "sampler1DShadow", "sampler2DShadow", "sampler2DRect"};
    for (size_t i = 0; i < sizeof samplers / sizeof samplers[0]; i++)
        if (piglit_fs_uses(t, samplers[i])) {
            set_skip(t, t->fs_line[0], "the fragment shader samples a texture (%s): not supported by the harness",
                     samplers[i]);
            return false;
        }
    if (t->nvs && !vs_passes_position(t)) {
        set_skip(t, t->vs_line[0], "%s",
                 "the vertex shader computes gl_Position: lockstep draws the rectangle as given");
        return false;
    }
    if (nv == 1)
        t->varying = v[0];
    else if (color)
        t->varying.kind = PIGLIT_VARYING_COLOR;
    else if (texcoord)
        t->varying.kind = PIGLIT_VARYING_TEXCOORD0;
    return true;
}

bool piglit_test_check_pipeline(piglit_test *t)
{
    memset(&t->varying, 0, sizeof t->varying);
    if (t->skip[0])
        return false;
    return true;
}

void piglit_varying_fs(const piglit_test *t, char *out, size_t n)
{
    const piglit_varying *v = &t->varying;
    static const char *const pad[] = {"", ", 0.0, 0.0, 0.0", ", 0.0, 0.0", ", 0.0", ""};
    switch (v->kind) {
    case PIGLIT_VARYING_USER: {
        int comps = !strcmp(v->type, "float") ? 1 : v->type[3] - '0';
        snprintf(out, n, "%svarying %s %s;\nvoid main() { gl_FragColor = vec4(%s%s); }\n", v->qual,
                 v->type, v->name, v->name, pad[comps]);
        break;
    }
    case PIGLIT_VARYING_COLOR:
        snprintf(out, n, "void main() { gl_FragColor = gl_Color; }\n");
        break;
    case PIGLIT_VARYING_TEXCOORD0:
        snprintf(out, n, "void main() { gl_FragColor = gl_TexCoord[0]; }\n");
        break;
    default:
        if (n)
            out[0] = 0;
    }
}

void piglit_rect_pixels(const piglit_test *t, const piglit_cmd *c, int *x0, int *y0, int *x1,
                        int *y1)
{
    piglit_rect_pixels_proj(t, c, NULL, x0, y0, x1, y1);
}

void piglit_rect_pixels_proj(const piglit_test *t, const piglit_cmd *c, const float *ortho,
                             int *x0, int *y0, int *x1, int *y1)
{
    float x = c->v[0], y = c->v[1], w = c->v[2], h = c->v[3];
    if (c->ortho) { /* the GL side's float arithmetic (glrun_piglit.c draw_rect) */
        x = -1.0f + 2.0f * (x / (float)t->width);
        y = -1.0f + 2.0f * (y / (float)t->height);
        w = 2.0f * (w / (float)t->width);
        h = 2.0f * (h / (float)t->height);
    }
    /* corners in clip space: glOrtho maps [L, R] × [B, T] to [-1, 1]² */
    double cx0 = x, cx1 = (double)(x + w), cy0 = y, cy1 = (double)(y + h);
    if (ortho) {
        double L = ortho[0], R = ortho[1], B = ortho[2], T = ortho[3];
        cx0 = 2.0 * (cx0 - L) / (R - L) - 1.0, cx1 = 2.0 * (cx1 - L) / (R - L) - 1.0;
        cy0 = 2.0 * (cy0 - B) / (T - B) - 1.0, cy1 = 2.0 * (cy1 - B) / (T - B) - 1.0;
    }
    /* viewport transform of the NDC corners */
    double ax = (cx0 + 1.0) * 0.5 * t->width, bx = (cx1 + 1.0) * 0.5 * t->width;
    double ay = (cy0 + 1.0) * 0.5 * t->height, by = (cy1 + 1.0) * 0.5 * t->height;
    double lo_x = fmin(ax, bx), hi_x = fmax(ax, bx), lo_y = fmin(ay, by), hi_y = fmax(ay, by);
    /* pixel p is covered when lo <= p + 0.5 < hi */
    double fx0 = ceil(lo_x - 0.5), fx1 = ceil(hi_x - 0.5);
    double fy0 = ceil(lo_y - 0.5), fy1 = ceil(hi_y - 0.5);
    *x0 = (int)fmax(0.0, fmin(fx0, (double)t->width));
    *x1 = (int)fmax(0.0, fmin(fx1, (double)t->width));
    *y0 = (int)fmax(0.0, fmin(fy0, (double)t->height));
    *y1 = (int)fmax(0.0, fmin(fy1, (double)t->height));
}

float piglit_unorm8(float v)
{
    if (!(v > 0.0f)) /* NaN and negatives */
        return 0.0f;
    if (v >= 1.0f)
        return 1.0f;
    return (float)(int)(v * 255.0f + 0.5f) / 255.0f;
}

bool piglit_probe(const piglit_test *t, const piglit_cmd *c, const float tol[4], const float *fb,
                  char *msg, size_t msg_size)
{
    /* the parser bounds the values (|v| <= 1e6), so these fit; compare in 64 bits */
    long long x0 = (long long)c->v[0], y0 = (long long)c->v[1], w = (long long)c->v[2],
              h = (long long)c->v[3];
    if (x0 < 0 || y0 < 0 || w < 0 || h < 0 || x0 + w > t->width || y0 + h > t->height) {
        snprintf(msg, msg_size, "line %d: probe (%lld, %lld, %lld, %lld) reaches outside the %dx%d window",
                 c->line, x0, y0, w, h, t->width, t->height);
        return false;
    }
    for (int y = (int)y0; y < (int)(y0 + h); y++)
        for (int x = (int)x0; x < (int)(x0 + w); x++) {
            const float *p = fb + 4 * ((size_t)y * (size_t)t->width + (size_t)x);
            for (int k = 0; k < c->ncomp; k++)
                if (!(fabsf(p[k] - c->e[k]) <= tol[k])) {
                    if (c->ncomp == 4)
                        snprintf(msg, msg_size,
                                 "line %d: probe at (%d, %d): expected (%g, %g, %g, %g), observed "
                                 "(%g, %g, %g, %g)",
                                 c->line, x, y, c->e[0], c->e[1], c->e[2], c->e[3], p[0], p[1],
                                 p[2], p[3]);
                    else
                        snprintf(msg, msg_size,
                                 "line %d: probe at (%d, %d): expected (%g, %g, %g), observed "
                                 "(%g, %g, %g)",
                                 c->line, x, y, c->e[0], c->e[1], c->e[2], p[0], p[1], p[2]);
                    return false;
                }
        }
    return true;
}
