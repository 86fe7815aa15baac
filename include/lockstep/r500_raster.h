/* R500 geometry and rasterization: primitive assembly and clipping (VAP),
 * setup and culling (GA/SU), scan conversion (SC) and interpolation (RS),
 * feeding the fragment unit (include/lockstep/r500.h).
 *
 * Input: the post-transform vertices of one draw (clip-space position and
 * the rasterizer input packet: texture components and colours, as the VAP
 * sends them to the GA), the register state of the blocks named above, and
 * the primitive type of VAP_VF_CNTL. Output: per-pixel coverage
 * (r500_draw_coverage) or a fragment program run over the covered 2x2 quads
 * with every RS-routed input interpolated (r500_draw_run).
 *
 * Manual: docs/r500-raster.md. Model options: docs/assumptions.md, section
 * "R500: geometry and rasterizer". Registers: AMD's R5xx register reference as
 * transcribed by buhman/r500 (regs/3d_registers.txt, regs/bits/<reg>.txt). */
#ifndef LOCKSTEP_R500_RASTER_H
#define LOCKSTEP_R500_RASTER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lockstep/r500.h"
#include "lockstep/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Registers the geometry/raster blocks consume: X(NAME, byte address).
 * Addresses from regs/3d_registers.txt (MMReg). */
#define R500_RASTER_REGS(X)                                                                        \
    X(VAP_VF_CNTL, 0x2084)                                                                         \
    X(VAP_OUT_VTX_FMT_0, 0x2090)                                                                   \
    X(VAP_OUT_VTX_FMT_1, 0x2094)                                                                   \
    X(VAP_VPORT_XSCALE, 0x2098)                                                                    \
    X(VAP_VPORT_XOFFSET, 0x209c)                                                                   \
    X(VAP_VPORT_YSCALE, 0x20a0)                                                                    \
    X(VAP_VPORT_YOFFSET, 0x20a4)                                                                   \
    X(VAP_VPORT_ZSCALE, 0x20a8)                                                                    \
    X(VAP_VPORT_ZOFFSET, 0x20ac)                                                                   \
    X(VAP_VTE_CNTL, 0x20b0)                                                                        \
    X(VAP_CLIP_CNTL, 0x221c)                                                                       \
    X(VAP_GB_VERT_CLIP_ADJ, 0x2220)                                                                \
    X(VAP_GB_VERT_DISC_ADJ, 0x2224)                                                                \
    X(VAP_GB_HORZ_CLIP_ADJ, 0x2228)                                                                \
    X(VAP_GB_HORZ_DISC_ADJ, 0x222c)                                                                \
    X(GB_ENABLE, 0x4008)                                                                           \
    X(GB_TILE_CONFIG, 0x4018)                                                                      \
    X(GA_POINT_S0, 0x4200)                                                                         \
    X(GA_POINT_T0, 0x4204)                                                                         \
    X(GA_POINT_S1, 0x4208)                                                                         \
    X(GA_POINT_T1, 0x420c)                                                                         \
    X(GA_POINT_SIZE, 0x421c)                                                                       \
    X(GA_POINT_MINMAX, 0x4230)                                                                     \
    X(GA_LINE_CNTL, 0x4234)                                                                        \
    X(GA_COLOR_CONTROL, 0x4278)                                                                    \
    X(GA_POLY_MODE, 0x4288)                                                                        \
    X(GA_ROUND_MODE, 0x428c)                                                                       \
    X(SU_POLY_OFFSET_FRONT_SCALE, 0x42a4)                                                          \
    X(SU_POLY_OFFSET_FRONT_OFFSET, 0x42a8)                                                         \
    X(SU_POLY_OFFSET_BACK_SCALE, 0x42ac)                                                           \
    X(SU_POLY_OFFSET_BACK_OFFSET, 0x42b0)                                                          \
    X(SU_POLY_OFFSET_ENABLE, 0x42b4)                                                               \
    X(SU_CULL_MODE, 0x42b8)                                                                        \
    X(RS_COUNT, 0x4300)                                                                            \
    X(RS_INST_COUNT, 0x4304)                                                                       \
    X(SC_EDGERULE, 0x43a8)                                                                         \
    X(SC_CLIP_0_A, 0x43b0)                                                                         \
    X(SC_CLIP_0_B, 0x43b4)                                                                         \
    X(SC_CLIP_1_A, 0x43b8)                                                                         \
    X(SC_CLIP_1_B, 0x43bc)                                                                         \
    X(SC_CLIP_2_A, 0x43c0)                                                                         \
    X(SC_CLIP_2_B, 0x43c4)                                                                         \
    X(SC_CLIP_3_A, 0x43c8)                                                                         \
    X(SC_CLIP_3_B, 0x43cc)                                                                         \
    X(SC_CLIP_RULE, 0x43d0)                                                                        \
    X(SC_SCISSOR0, 0x43e0)                                                                         \
    X(SC_SCISSOR1, 0x43e4)                                                                         \
    R500_RASTER_REGS_N(X, RS_IP_, 0x4074)                                                          \
    R500_RASTER_REGS_N(X, RS_INST_, 0x4320)

/* The 16 registers NAME0..NAME15 at base + 4n. */
#define R500_RASTER_REGS_N(X, P, base)                                                             \
    X(P##0, base) X(P##1, base + 4) X(P##2, base + 8) X(P##3, base + 12) X(P##4, base + 16)        \
    X(P##5, base + 20) X(P##6, base + 24) X(P##7, base + 28) X(P##8, base + 32)                    \
    X(P##9, base + 36) X(P##10, base + 40) X(P##11, base + 44) X(P##12, base + 48)                 \
    X(P##13, base + 52) X(P##14, base + 56) X(P##15, base + 60)

typedef enum r500_rreg {
#define R500_RREG_ENUM(name, addr) R500_R_##name,
    R500_RASTER_REGS(R500_RREG_ENUM)
#undef R500_RREG_ENUM
    R500_RREG_COUNT
} r500_rreg;

/* Fields the model reads: X(REG, FIELD, hi, lo), from regs/bits/<reg>.txt.
 * RS_IP_n / RS_INST_n fields are named after RS_IP_0 / RS_INST_0 and apply
 * to every n. Float registers (viewport, guard band, poly offset, point
 * texture coordinates) are whole 32-bit IEEE values and have no fields. */
#define R500_RASTER_FIELDS(X)                                                                      \
    X(VAP_VF_CNTL, PRIM_TYPE, 3, 0)                                                                \
    X(VAP_VF_CNTL, PRIM_WALK, 5, 4)                                                                \
    X(VAP_VF_CNTL, NUM_VERTICES, 31, 16)                                                           \
    X(VAP_VTE_CNTL, VPORT_X_SCALE_ENA, 0, 0)                                                       \
    X(VAP_VTE_CNTL, VPORT_X_OFFSET_ENA, 1, 1)                                                      \
    X(VAP_VTE_CNTL, VPORT_Y_SCALE_ENA, 2, 2)                                                       \
    X(VAP_VTE_CNTL, VPORT_Y_OFFSET_ENA, 3, 3)                                                      \
    X(VAP_VTE_CNTL, VPORT_Z_SCALE_ENA, 4, 4)                                                       \
    X(VAP_VTE_CNTL, VPORT_Z_OFFSET_ENA, 5, 5)                                                      \
    X(VAP_VTE_CNTL, VTX_XY_FMT, 8, 8)                                                              \
    X(VAP_VTE_CNTL, VTX_Z_FMT, 9, 9)                                                               \
    X(VAP_VTE_CNTL, VTX_W0_FMT, 10, 10)                                                            \
    X(VAP_CLIP_CNTL, UCP_ENA, 5, 0)                                                                \
    X(VAP_CLIP_CNTL, PS_UCP_MODE, 15, 14)                                                          \
    X(VAP_CLIP_CNTL, CLIP_DISABLE, 16, 16)                                                         \
    X(VAP_CLIP_CNTL, UCP_CULL_ONLY_ENA, 17, 17)                                                    \
    X(VAP_OUT_VTX_FMT_0, PT_SIZE_PRESENT, 16, 16)                                                  \
    X(GB_ENABLE, POINT_STUFF_ENABLE, 0, 0)                                                         \
    X(GB_TILE_CONFIG, SUBPIXEL, 16, 16)                                                            \
    X(GA_POINT_SIZE, HEIGHT, 15, 0)                                                                \
    X(GA_POINT_SIZE, WIDTH, 31, 16)                                                                \
    X(GA_POINT_MINMAX, MIN_SIZE, 15, 0)                                                            \
    X(GA_POINT_MINMAX, MAX_SIZE, 31, 16)                                                           \
    X(GA_LINE_CNTL, WIDTH, 15, 0)                                                                  \
    X(GA_LINE_CNTL, END_TYPE, 17, 16)                                                              \
    X(GA_COLOR_CONTROL, SHADING, 15, 0)                                                            \
    X(GA_COLOR_CONTROL, PROVOKING_VERTEX, 17, 16)                                                  \
    X(GA_POLY_MODE, POLY_MODE, 1, 0)                                                               \
    X(GA_POLY_MODE, FRONT_PTYPE, 6, 4)                                                             \
    X(GA_POLY_MODE, BACK_PTYPE, 9, 7)                                                              \
    X(GA_ROUND_MODE, GEOMETRY_ROUND, 1, 0)                                                         \
    X(SU_POLY_OFFSET_ENABLE, FRONT_ENABLE, 0, 0)                                                   \
    X(SU_POLY_OFFSET_ENABLE, BACK_ENABLE, 1, 1)                                                    \
    X(SU_CULL_MODE, CULL_FRONT, 0, 0)                                                              \
    X(SU_CULL_MODE, CULL_BACK, 1, 1)                                                               \
    X(SU_CULL_MODE, FACE, 2, 2)                                                                    \
    X(RS_COUNT, IT_COUNT, 6, 0)                                                                    \
    X(RS_COUNT, IC_COUNT, 10, 7)                                                                   \
    X(RS_COUNT, W_ADDR, 17, 12)                                                                    \
    X(RS_COUNT, HIRES_EN, 18, 18)                                                                  \
    X(RS_INST_COUNT, INST_COUNT, 3, 0)                                                             \
    X(RS_INST_COUNT, TX_OFFSET, 7, 5)                                                              \
    X(SC_EDGERULE, ER_TRI, 4, 0)                                                                   \
    X(SC_EDGERULE, ER_POINT, 9, 5)                                                                 \
    X(SC_EDGERULE, ER_LINE_LR, 14, 10)                                                             \
    X(SC_EDGERULE, ER_LINE_RL, 19, 15)                                                             \
    X(SC_EDGERULE, ER_LINE_TB, 24, 20)                                                             \
    X(SC_EDGERULE, ER_LINE_BT, 29, 25)                                                             \
    X(SC_CLIP_0_A, XS0, 12, 0)                                                                     \
    X(SC_CLIP_0_A, YS0, 25, 13)                                                                    \
    X(SC_CLIP_0_B, XS1, 12, 0)                                                                     \
    X(SC_CLIP_0_B, YS1, 25, 13)                                                                    \
    X(SC_CLIP_RULE, CLIP_RULE, 15, 0)                                                              \
    X(SC_SCISSOR0, XS0, 12, 0)                                                                     \
    X(SC_SCISSOR0, YS0, 25, 13)                                                                    \
    X(SC_SCISSOR1, XS1, 12, 0)                                                                     \
    X(SC_SCISSOR1, YS1, 25, 13)                                                                    \
    X(RS_IP_0, TEX_PTR_S, 5, 0)                                                                    \
    X(RS_IP_0, TEX_PTR_T, 11, 6)                                                                   \
    X(RS_IP_0, TEX_PTR_R, 17, 12)                                                                  \
    X(RS_IP_0, TEX_PTR_Q, 23, 18)                                                                  \
    X(RS_IP_0, COL_PTR, 26, 24)                                                                    \
    X(RS_IP_0, COL_FMT, 30, 27)                                                                    \
    X(RS_IP_0, OFFSET_EN, 31, 31)                                                                  \
    X(RS_INST_0, TEX_ID, 3, 0)                                                                     \
    X(RS_INST_0, TEX_CN, 4, 4)                                                                     \
    X(RS_INST_0, TEX_ADDR, 11, 5)                                                                  \
    X(RS_INST_0, COL_ID, 15, 12)                                                                   \
    X(RS_INST_0, COL_CN, 17, 16)                                                                   \
    X(RS_INST_0, COL_ADDR, 24, 18)                                                                 \
    X(RS_INST_0, TEX_ADJ, 25, 25)                                                                  \
    X(RS_INST_0, W_CN, 26, 26)

typedef enum r500_rfield {
#define R500_RFIELD_ENUM(reg, field, hi, lo) R500_RF_##reg##_##field,
    R500_RASTER_FIELDS(R500_RFIELD_ENUM)
#undef R500_RFIELD_ENUM
    R500_RFIELD_COUNT
} r500_rfield;

/* The register state: raw values by r500_rreg. */
typedef struct r500_raster_state {
    uint32_t reg[R500_RREG_COUNT];
} r500_raster_state;

/* Values Mesa's r300 driver writes for a GL draw into a W x H target
 * (docs/r500-raster.md, "Initial state"): smooth shading with the last
 * vertex provoking, no culling, SC_EDGERULE 0x2DA49525, GA_ROUND_MODE 1,
 * guard band 1.0, a viewport and scissor covering the target, no RS
 * instruction. */
void r500_raster_state_init(r500_raster_state *s, int width, int height);
/* Write a register by byte address; false when the address is not one the
 * raster blocks consume (the caller reports it). */
bool r500_raster_state_write(r500_raster_state *s, uint32_t addr, uint32_t value);
/* Name and address of a register; index of a name (-1 if unknown). */
const char *r500_raster_reg_name(r500_rreg r);
uint32_t r500_raster_reg_addr(r500_rreg r);
int r500_raster_reg_find(const char *name);
/* A field of a register (for RS_IP_n / RS_INST_n fields: of register reg). */
uint32_t r500_raster_field(const r500_raster_state *s, r500_rfield f);
uint32_t r500_raster_field_of(uint32_t value, r500_rfield f);
const char *r500_raster_field_name(r500_rfield f);
/* A float register's value. */
float r500_raster_float(const r500_raster_state *s, r500_rreg r);
void r500_raster_set_float(r500_raster_state *s, r500_rreg r, float v);

/* Post-transform vertex, as the VAP hands it to the GA: clip-space position
 * (x, y, z, w) and the rasterizer input packet: texture components (RS_IP_n
 * TEX_PTR_* index them, 0..IT_COUNT-1) and colours (COL_PTR, 0..IC_COUNT-1). */
#define R500_RS_TEX_COMPONENTS 32
#define R500_RS_COLORS 4
typedef struct r500_vertex {
    float pos[4];
    float tex[R500_RS_TEX_COMPONENTS];
    float col[R500_RS_COLORS][4];
    float psize; /* the vertex program's point size, read when VAP_OUT_VTX_FMT_0.PT_SIZE_PRESENT */
} r500_vertex;

/* VAP_VF_CNTL.PRIM_TYPE values (regs/bits/vap_vf_cntl.txt). */
enum {
    R500_PRIM_NONE = 0,
    R500_PRIM_POINTS = 1,
    R500_PRIM_LINES = 2,
    R500_PRIM_LINE_STRIP = 3,
    R500_PRIM_TRIANGLES = 4,
    R500_PRIM_TRIANGLE_FAN = 5,
    R500_PRIM_TRIANGLE_STRIP = 6,
    R500_PRIM_LINE_LOOP = 12,
    R500_PRIM_QUADS = 13,
    R500_PRIM_QUAD_STRIP = 14,
    R500_PRIM_POLYGON = 15,
};

/* Model options (docs/assumptions.md, "R500: geometry and rasterizer"). */
typedef enum r500_subpixel {
    R500_SUBPIXEL_REGISTER = 0, /* GB_TILE_CONFIG.SUBPIXEL: 1/12 or 1/16 */
    R500_SUBPIXEL_12,
    R500_SUBPIXEL_16,
    R500_SUBPIXEL_256, /* llvmpipe's 8 fractional bits */
} r500_subpixel;
typedef enum r500_clip_z { R500_CLIP_Z_GL, R500_CLIP_Z_DX } r500_clip_z;
typedef enum r500_interp_pos { R500_INTERP_EXACT, R500_INTERP_SNAPPED } r500_interp_pos;
typedef enum r500_color_interp { R500_COLOR_PERSPECTIVE, R500_COLOR_LINEAR } r500_color_interp;
typedef enum r500_point_minmax { R500_MINMAX_VERTEX, R500_MINMAX_ALL } r500_point_minmax;
typedef enum r500_face_sign { R500_FACE_MESA, R500_FACE_DOC } r500_face_sign;
typedef enum r500_point_stuff { R500_STUFF_VAP, R500_STUFF_POOL4, R500_STUFF_OFF } r500_point_stuff;
typedef enum r500_poly_offset { R500_POFS_MAX, R500_POFS_SQRT, R500_POFS_OFF } r500_poly_offset;

typedef struct r500_raster_options {
    r500_subpixel subpixel;         /* "raster-subpixel": register | 12 | 16 | 256 */
    r500_clip_z clip_z;             /* "clip-z": gl (-w..w) | dx (0..w) */
    r500_interp_pos interp_pos;     /* "interp-position": exact | snapped */
    r500_color_interp color_interp; /* "color-interp": perspective | linear */
    r500_point_minmax point_minmax; /* "point-minmax": vertex | all */
    r500_face_sign face_sign;       /* "face-sign": mesa | doc */
    r500_point_stuff point_stuff;   /* "point-stuff": vap | pool4 | off */
    r500_poly_offset poly_offset;   /* "poly-offset": max | sqrt | off */
} r500_raster_options;

void r500_raster_options_default(r500_raster_options *o);
ls_status r500_raster_options_set(r500_raster_options *o, const char *name, const char *value,
                                  ls_diag *d);
extern const char *const r500_raster_option_names[];

/* One fragment leaving the fragment program: what the render backend
 * (RB3D/ZB: colour format, blending, depth and stencil) receives. Every
 * covered pixel that was not killed passes through one call of the draw's
 * output function, in primitive order, so a render backend replaces that one
 * function (issue 16). */
typedef struct r500_fragment {
    int x, y;               /* window pixel (row y = window y) */
    float z;                /* window z at the pixel centre (linear in screen space) */
    bool back;              /* the primitive is back-facing (SU_CULL_MODE.FACE applied) */
    const r500_result *res; /* the fragment program's outputs: target k at */
    size_t i;               /* res->target[k] + 4 * i; res->w[i] if written */
} r500_fragment;
typedef void (*r500_frag_out_fn)(void *ctx, const r500_fragment *f);

/* The plain store the draw uses without an output function: target 0 into
 * an RGBA float image (width x height x 4, row 0 = window y 0), rounded to
 * 8-bit unorm as an RGBA8 colour buffer stores it when unorm8 is set
 * (round to nearest after clamping to [0, 1]). No blending, no depth. */
typedef struct r500_target {
    int width, height;
    float *rgba;
    bool unorm8;
} r500_target;
void r500_target_store(void *target, const r500_fragment *f);

/* One draw. */
typedef struct r500_draw {
    const r500_raster_state *state;
    unsigned prim;            /* PRIM_TYPE; R500_PRIM_NONE: take VAP_VF_CNTL's */
    const r500_vertex *v;     /* vertices in draw order (after index fetch) */
    size_t nv;
    float ucp[6][4];          /* user clip planes in clip space (the VAP's UCP constants) */
    int width, height;        /* render target size, 1..8192 */
    r500_raster_options opts;
    uint8_t back_colors;      /* bit k (0, 1): on back-facing primitives colour k reads
                                 colour k + 2 (the VAP's back colours; set from
                                 VAP_OUTPUT_VTX_FMT_0 COLOR_2/3_PRESENT by the executor) */
    r500_frag_out_fn out;     /* r500_draw_run's output; NULL: r500_target_store into */
    void *out_ctx;            /* its rgba (unorm8 off) */
} r500_draw;

/* Zeroed draw with default options; state, vertices and size to be set. */
void r500_draw_init(r500_draw *dr);

typedef struct r500_raster_stats {
    uint64_t prims;           /* primitives assembled */
    uint64_t culled;          /* ... removed by face culling or zero area */
    uint64_t clipped_away;    /* ... entirely outside a clip plane */
    uint64_t dropped;         /* ... with a non-finite coordinate */
    uint64_t triangles;       /* triangles scan-converted (after clipping/expansion) */
    uint64_t pixels;          /* pixels covered (counted once per triangle) */
    uint64_t quads;           /* 2x2 quads run through the fragment program */
    uint64_t killed;          /* covered pixels the fragment program killed */
    uint64_t faulted_threads; /* fragment threads that faulted (r500_result.stats) */
    uint64_t inst_fc;         /* flow-control instructions the fragment runs issued */
} r500_raster_stats;

/* Coverage only: hits[y * width + x] += 1 for every pixel a triangle
 * covers (row 0 = window y 0). hits may be NULL (statistics only). */
ls_status r500_draw_coverage(const r500_draw *dr, uint32_t *hits, r500_raster_stats *st,
                             ls_diag *d);

/* The whole back end: for every triangle, the 2x2 quads that hold covered
 * pixels run the fragment program of fs (its program, constants, registers,
 * textures and options; its width/height and the inputs of the temps RS
 * writes are replaced by the interpolated values; its other R500_INPUT_CONST
 * inputs stay, other input kinds are cleared). Every covered pixel that was
 * not killed goes, in primitive order, to dr->out — by default the colour of
 * target 0 is written into rgba (width x height x 4 floats, row 0 = window
 * y 0; rgba is unused, and may be NULL, when dr->out is set). */
ls_status r500_draw_run(const r500_draw *dr, const r500_job *fs, float *rgba,
                        r500_raster_stats *st, ls_diag *d);

#ifdef __cplusplus
}
#endif
#endif
