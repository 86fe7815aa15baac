/* piglit `.shader_test` files for the Mesa r300 harness (`lockstep mesa piglit`).
 *
 * A shader_test has sections: [require] (GLSL/GL versions, extensions,
 * SIZE), [vertex shader], [vertex shader passthrough], [fragment shader] and
 * [test] (a command list: clear, uniform, draw rect, probes, tolerance). The
 * parser keeps the commands the harness can run, in order; anything else
 * makes the test a *skip* with the reason and line (not an error). A
 * malformed line of a supported command is an error with file:line:col.
 *
 * The semantics are those of piglit's shader_runner (window 250×250 unless
 * SIZE, RGBA8, default tolerance 0.01 per channel; `draw rect ortho` takes
 * window pixels); docs/mesa.md lists what is supported and why. */
#ifndef LOCKSTEP_MESA_PIGLIT_H
#define LOCKSTEP_MESA_PIGLIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lockstep/buf.h"
#include "lockstep/status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum piglit_cmd_kind {
    PIGLIT_CLEAR_COLOR, /* v[0..3] */
    PIGLIT_CLEAR,       /* glClear of the bits selected so far (colour once a clear color was given) */
    PIGLIT_UNIFORM,     /* type, name, v[0..nv-1] (ints as exact floats) */
    PIGLIT_DRAW_RECT,   /* v[0..3] = x y w h; ortho: window pixels, else NDC; tex: v[4..7] */
    PIGLIT_PROBE,       /* probe: rect v[0..3] (window pixels, inclusive-exclusive),
                         * expected e[0..ncomp-1] */
    PIGLIT_TOLERANCE,   /* v[0..3] */
    PIGLIT_ORTHO,       /* projection glOrtho(v[0], v[1], v[2], v[3], -1, 1) (L R B T);
                         * plain `ortho` is (0, W, 0, H); modelview back to identity */
    PIGLIT_DRAW_ARRAYS, /* `draw arrays MODE first count` over [vertex data]: iv[0] the GL
                         * mode (GL_POINTS 0 ... GL_POLYGON 9), iv[1] first, iv[2] count */
    PIGLIT_FRUSTUM,     /* projection glFrustum(v[0..5]) (L R B T N F); modelview identity */
    PIGLIT_ENABLE,      /* glEnable (iv[1] = 1) / glDisable (0) of iv[0]: 0..5 GL_CLIP_PLANEn,
                         * 6 GL_VERTEX_PROGRAM_TWO_SIDE, 7 GL_VERTEX_PROGRAM_POINT_SIZE,
                         * 8 GL_POINT_SPRITE */
    PIGLIT_CLIP_PLANE,  /* glClipPlane(GL_CLIP_PLANE0 + iv[0], v[0..3]) */
    PIGLIT_SHADE_MODEL, /* glShadeModel: iv[0] = 1 flat, 0 smooth */
    PIGLIT_TEXTURE,     /* a texture made as shader_runner makes it, on unit iv[0]
                         * (glActiveTexture, which stays active): iv[1] a piglit_tex_kind,
                         * iv[2..4] width, height, depth, iv[5] the mip level it fills
                         * (CHECKERBOARD, QUADS); v[] the colours of CHECKERBOARD
                         * (black, white: 8) and QUADS (bottom-left, bottom-right,
                         * top-left, top-right: 16), iv[6], iv[7] QUADS's tile size */
    PIGLIT_TEXPARAMETER, /* glTexParameter(iv[0] target, iv[1] pname, …) on the active unit:
                          * iv[2] the value (an enum or integer) or, for LOD bias and
                          * border colour, v[0] / v[0..3]; all PIGLIT_GL_* numbers */
    PIGLIT_COLOR,       /* glColor4fv(v[0..3]) (the current vertex colour) */
    PIGLIT_HINT,        /* glHint(iv[0], iv[1]): PIGLIT_GL_* numbers */
    PIGLIT_LINK_SUCCESS, /* `link success`: the program linked (it must have: no GL call) */
} piglit_cmd_kind;

/* The textures of shader_runner's `texture` commands (piglit-util-gl.c). */
typedef enum piglit_tex_kind {
    PIGLIT_TEX_RGBW,         /* `texture rgbw UNIT (W, H)`: 2D RGBA quadrants red (bottom
                              * left), green, blue, white (top right), alpha 1, nearest,
                              * clamp to edge */
    PIGLIT_TEX_RGBW_1D,      /* `texture rgbw 1D UNIT`: 4 texels red green blue white */
    PIGLIT_TEX_RGBW_3D,      /* `texture rgbw 3D UNIT`: 2×2×2 texels */
    PIGLIT_TEX_CHECKERBOARD, /* `texture checkerboard UNIT LEVEL (W, H) (black) (white)`:
                              * tiles W/2 × H/2, clamp to border (1, 0, 0, 1), nearest */
    PIGLIT_TEX_QUADS,        /* `texture quads UNIT LEVEL (W, H) (TW, TH) (bl) (br) (tl) (tr)` */
    PIGLIT_TEX_MIPTREE,      /* `texture miptree UNIT`: 8×8 with 4 levels red green blue white */
    PIGLIT_TEX_SHADOW_1D,    /* `texture shadow1D UNIT (W)`: depth x / (W − 1), compare
                              * R to texture, GL_GREATER */
    PIGLIT_TEX_SHADOW_2D,    /* `texture shadow2D UNIT (W, H)` */
    PIGLIT_TEX_SHADOW_RECT,  /* `texture shadowRect UNIT (W, H)` (GL_ARB_texture_rectangle) */
} piglit_tex_kind;

/* The GL enum values the parser stores (GL/gl.h and GL/glext.h; the GL program
 * checks each against its headers at compile time). */
enum {
    PIGLIT_GL_TEXTURE_1D = 0x0DE0,
    PIGLIT_GL_TEXTURE_2D = 0x0DE1,
    PIGLIT_GL_TEXTURE_3D = 0x806F,
    PIGLIT_GL_TEXTURE_RECTANGLE = 0x84F5,
    PIGLIT_GL_TEXTURE_CUBE_MAP = 0x8513,
    PIGLIT_GL_TEXTURE_COMPARE_FUNC = 0x884D,
    PIGLIT_GL_DEPTH_TEXTURE_MODE = 0x884B,
    PIGLIT_GL_TEXTURE_MIN_FILTER = 0x2801,
    PIGLIT_GL_TEXTURE_MAG_FILTER = 0x2800,
    PIGLIT_GL_TEXTURE_WRAP_S = 0x2802,
    PIGLIT_GL_TEXTURE_WRAP_T = 0x2803,
    PIGLIT_GL_TEXTURE_WRAP_R = 0x8072,
    PIGLIT_GL_TEXTURE_LOD_BIAS = 0x8501,
    PIGLIT_GL_TEXTURE_BASE_LEVEL = 0x813C,
    PIGLIT_GL_TEXTURE_MAX_LEVEL = 0x813D,
    PIGLIT_GL_TEXTURE_BORDER_COLOR = 0x1004,
    PIGLIT_GL_TEXTURE_SWIZZLE_R = 0x8E42,
    PIGLIT_GL_NEVER = 0x0200,
    PIGLIT_GL_LESS = 0x0201,
    PIGLIT_GL_EQUAL = 0x0202,
    PIGLIT_GL_LEQUAL = 0x0203,
    PIGLIT_GL_GREATER = 0x0204,
    PIGLIT_GL_NOTEQUAL = 0x0205,
    PIGLIT_GL_GEQUAL = 0x0206,
    PIGLIT_GL_ALWAYS = 0x0207,
    PIGLIT_GL_RED = 0x1903,
    PIGLIT_GL_GREEN = 0x1904,
    PIGLIT_GL_BLUE = 0x1905,
    PIGLIT_GL_ALPHA = 0x1906,
    PIGLIT_GL_LUMINANCE = 0x1909,
    PIGLIT_GL_INTENSITY = 0x8049,
    PIGLIT_GL_NEAREST = 0x2600,
    PIGLIT_GL_LINEAR = 0x2601,
    PIGLIT_GL_NEAREST_MIPMAP_NEAREST = 0x2700,
    PIGLIT_GL_LINEAR_MIPMAP_NEAREST = 0x2701,
    PIGLIT_GL_NEAREST_MIPMAP_LINEAR = 0x2702,
    PIGLIT_GL_LINEAR_MIPMAP_LINEAR = 0x2703,
    PIGLIT_GL_REPEAT = 0x2901,
    PIGLIT_GL_CLAMP_TO_EDGE = 0x812F,
    PIGLIT_GL_CLAMP_TO_BORDER = 0x812D,
    PIGLIT_GL_LINE_SMOOTH_HINT = 0x0C52,
    PIGLIT_GL_POLYGON_SMOOTH_HINT = 0x0C53,
    PIGLIT_GL_TEXTURE_COMPRESSION_HINT = 0x84EF,
    PIGLIT_GL_FRAGMENT_SHADER_DERIVATIVE_HINT = 0x8B8B,
    PIGLIT_GL_DONT_CARE = 0x1100,
    PIGLIT_GL_FASTEST = 0x1101,
    PIGLIT_GL_NICEST = 0x1102,
};

typedef struct piglit_cmd {
    piglit_cmd_kind kind;
    int line;                  /* 1-based line in the file */
    bool ortho;                /* DRAW_RECT: pixel coordinates */
    bool tex;                  /* DRAW_RECT: `draw rect tex`, texture coordinates v[4..7] =
                                * tx ty tw th (else (0, 0)..(1, 1)) */
    bool relative;             /* PROBE: coordinates were fractions of the window */
    int ncomp;                 /* PROBE: 3 (rgb) or 4 (rgba) */
    int nv;                    /* UNIFORM: values given */
    char type[16];             /* UNIFORM: float, vec2, ivec3, mat2x3, ... */
    char name[128];            /* UNIFORM */
    float v[16];               /* values; "0x…" is a float's bit pattern (shader_runner) */
    int iv[16];                /* UNIFORM of an int/bool type: the values as integers
                                * ("0x…" is the 32-bit pattern); integer fields of
                                * other commands */
    float e[4];                /* PROBE: expected colour */
} piglit_cmd;

enum { PIGLIT_MAX_SHADERS = 8, PIGLIT_MAX_ATTRS = 8, PIGLIT_MAX_ROWS = 65536 };

/* The one interpolated input a fragment shader may read besides gl_FragCoord
 * (piglit_test_check_inputs): its values come from llvmpipe running the test's
 * vertex shader (assumption piglit-varyings). */
typedef enum piglit_varying_kind {
    PIGLIT_VARYING_NONE = 0,
    PIGLIT_VARYING_USER,      /* `varying float|vec2|vec3|vec4 NAME;` */
    PIGLIT_VARYING_COLOR,     /* gl_Color */
    PIGLIT_VARYING_TEXCOORD0, /* gl_TexCoord[0] */
} piglit_varying_kind;

typedef struct piglit_varying {
    piglit_varying_kind kind;
    char type[8];             /* USER: float, vec2, vec3, vec4 */
    char name[64];            /* USER */
    char qual[24];            /* USER: "invariant " / "centroid " as declared, or "" */
} piglit_varying;

typedef struct piglit_test {
    int width, height;         /* window, 250×250 unless [require] SIZE */
    int glsl_version;          /* from "GLSL >= 1.10": 110 */
    unsigned long long rlimit; /* [require] rlimit: bytes; the GL program limits its data
                                * segment to it (shader_runner: address space) — 0: none */
    /* [vertex shader] / [fragment shader] sections, linked together as
     * shader_runner does (several compilation units per stage) */
    char *vs[PIGLIT_MAX_SHADERS], *fs[PIGLIT_MAX_SHADERS];
    int nvs, nfs;
    int vs_line[PIGLIT_MAX_SHADERS], fs_line[PIGLIT_MAX_SHADERS]; /* first line of each text */
    bool vs_passthrough;       /* [vertex shader passthrough] */
    char **requires;           /* other [require] lines (extensions, limits), verbatim */
    size_t nrequires;
    piglit_cmd *cmds;
    size_t ncmds;
    /* [vertex data]: a header of attributes NAME/float/N, then rows of
     * numbers; vdata holds nrows rows of vstride floats (attribute k at
     * attr_offset[k]) */
    int nattr;
    char attr_name[PIGLIT_MAX_ATTRS][64];
    int attr_comps[PIGLIT_MAX_ATTRS], attr_offset[PIGLIT_MAX_ATTRS];
    int vstride;
    float *vdata;
    size_t nrows, vcap;
    piglit_varying varying;    /* set by piglit_test_check_inputs */
    /* Why the harness cannot run this test ("" if it can), and where. */
    char skip[256];
    int skip_line;
    /* The kind of reason, stable across tests (for grouping skips): the
     * message with its test-specific parts as '*', e.g. "uniform type '*' is
     * not supported (GL 2.1 harness)". "" when skip is "". */
    char skip_key[256];        /* as large as skip: a key is never cut */
} piglit_test;

/* A skip message's key: fmt (a printf format with %s-style conversions)
 * with every conversion replaced by '*'. */
void piglit_skip_key(const char *fmt, char *out, size_t n);

/* Parse text (len bytes, need not be NUL-terminated) named file. On LS_OK the
 * test is filled (free with piglit_test_free) and t->skip says whether it can
 * run; on an error d says where and nothing needs freeing. */
ls_status piglit_test_parse(const char *text, size_t len, const char *file, piglit_test *t,
                            ls_diag *d);
void piglit_test_free(piglit_test *t);
/* A geometry file (`lockstep mesa run --mesh`): a [vertex data] section on its
 * own — a header of NAME/float/N columns, then one row of numbers per vertex,
 * three rows a triangle; '#' lines and blank lines are ignored. Fills t's
 * vertex-data fields (nattr, attr_*, vstride, vdata, nrows; free with
 * piglit_test_free). A bad header or row, no row, or a row count that is not
 * a multiple of 3 is LS_ERR_PARSE with file:line:col. */
ls_status piglit_mesh_parse(const char *text, size_t len, const char *file, piglit_test *t,
                            ls_diag *d);

/* The input model of the harness (docs/mesa.md "piglit"): lockstep feeds a
 * fragment program gl_FragCoord (r300's WPOS texcoord), constants, and at most
 * one interpolated input (t->varying: a float..vec4 varying, gl_Color or
 * gl_TexCoord[0]), on axis-aligned rectangles whose position the vertex
 * shader passes through unchanged. Sets t->skip (and returns false) when the
 * shaders need more: several varyings, arrays or matrices of them, other
 * built-in inputs, samplers, a vertex shader that computes gl_Position. */
bool piglit_test_check_inputs(piglit_test *t);
/* What the whole pipeline (vertex program, rasterizer, RS, texture units,
 * fragment program, render backend) cannot run: sets t->skip (and returns
 * false) when a shader reads gl_PointCoord (point-sprite coordinates are not
 * modelled). Every varying, gl_FrontFacing, textures (uploaded by the driver)
 * and any vertex shader run. */
bool piglit_test_check_pipeline(piglit_test *t);

/* The window pixels a DRAW_RECT covers, [x0, x1) × [y0, y1) clamped to the
 * window: those whose centre lies inside the rectangle, left/bottom edges
 * included, right/top excluded (after the same float NDC → window arithmetic
 * as the GL side). */
void piglit_rect_pixels(const piglit_test *t, const piglit_cmd *c, int *x0, int *y0, int *x1,
                        int *y1);
/* The same after the projection ortho = {L, R, B, T} of an ORTHO command
 * (NULL: identity), which applies when piglit_uses_matrices(t). */
void piglit_rect_pixels_proj(const piglit_test *t, const piglit_cmd *c, const float *ortho,
                             int *x0, int *y0, int *x1, int *y1);
/* Is the vertex position transformed by the GL matrices (no vertex shader:
 * fixed function; or ftransform() / gl_ModelViewProjectionMatrix * gl_Vertex)? */
bool piglit_uses_matrices(const piglit_test *t);

/* What an RGBA8 colour buffer stores and reads back for a shader output:
 * clamp to [0, 1], round to the nearest of 256 levels (NaN stores 0);
 * docs/assumptions.md "piglit-rgba8". */
float piglit_unorm8(float v);

/* Evaluate a PROBE on fb (width×height RGBA floats, bottom row first) with
 * the per-channel tolerance tol: true when every pixel of the probe is within
 * it. On failure msg says where and what (shader_runner's first failing
 * pixel). */
bool piglit_probe(const piglit_test *t, const piglit_cmd *c, const float tol[4], const float *fb,
                  char *msg, size_t msg_size);

/* The fragment shader of llvmpipe's varying pass: the test's varying
 * declaration and gl_FragColor = the varying as a vec4 (unused components 0).
 * Empty when t->varying.kind is NONE. */
void piglit_varying_fs(const piglit_test *t, char *out, size_t n);

/* Does a fragment shader text (comments removed) mention the identifier? */
bool piglit_fs_uses(const piglit_test *t, const char *ident);

/* ---- results in piglit's own format ------------------------------------ */

/* One test's outcome, for piglit_results_write_json. */
typedef struct piglit_result {
    const char *name;       /* lockstep's name: a path under piglit's tests/spec, or a file */
    const char *result;     /* "pass", "fail" or "skip" (piglit's lowercase names) */
    const char *out;        /* why (the reason lockstep prints), "" if none */
    const char *skip_key;   /* the kind of skip reason (stable), "" if none */
    const char *command;    /* how to rerun it */
    double start, end;      /* wall clock, seconds since the epoch */
    uint64_t fc_issued;     /* R500 flow-control instructions issued */
    int llvmpipe;           /* -1 not run, 0 its image fails, 1 passes, 2 does not run */
} piglit_result;

/* piglit's test name for a lockstep test name: groups joined with '@',
 * lowercase, without ".shader_test"; names under piglit's tree get "spec@"
 * ("glsl-1.10/execution/fs-abs-vec2" -> "spec@glsl-1.10@execution@fs-abs-vec2"),
 * files given by path keep their path ("tests/x.shader_test" -> "tests@x"). */
void piglit_result_name(const char *name, char *out, size_t n);

/* The results as piglit's JSON results file (TestrunResult, results_version
 * 10: "tests" maps each piglit test name to its TestResult with "result",
 * "out", "err", "returncode", "command" and "time" {start, end}; lockstep's
 * own fields under "lockstep"). docs/mesa.md, "piglit results". */
void piglit_results_write_json(const piglit_result *r, size_t n, const char *run_name,
                               double start, double end, struct ls_buf *out);

#ifdef __cplusplus
}
#endif
#endif
