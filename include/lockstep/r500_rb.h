/* R500 render backend (issue 16 item 2): what happens to a fragment after the
 * fragment program — the US output conversion (US_OUT_FMT_n, US_W_FMT), the
 * alpha test (FG_ALPHA_FUNC / FG_ALPHA_VALUE), depth source (FG_DEPTH_SRC),
 * depth and stencil test and write (ZB_*), blending (RB3D_BLENDCNTL /
 * ABLENDCNTL, constant colour), logic ops (RB3D_ROPCNTL), colour masks
 * (RB3D_COLOR_CHANNEL_MASK) and the colour buffers (RB3D_COLOROFFSETn /
 * COLORPITCHn: formats, micro and macro tiling, up to four render targets) —
 * writing into buffers laid out as the hardware lays them out, and reading
 * them back into float images. Manual: docs/r500-rb.md; model options:
 * docs/assumptions.md "R500: render backend".
 *
 * Sources (read, not copied): AMD's R5xx register reference as transcribed in
 * buhman/r500 regs/3d_registers.txt (addresses) and regs/bits/rb3d_*.txt,
 * zb_*.txt, fg_*.txt, us_out_fmt.txt, us_w_fmt.txt (fields); Mesa
 * src/gallium/drivers/r300: r300_texture.c (r300_translate_colorformat,
 * r300_translate_out_fmt: which components each colour format stores),
 * r300_state.c (blend, depth/stencil/alpha and colour-mask state,
 * r300_set_blend_color), r300_reg.h (field values), r300_texture_desc.c
 * (tile sizes, shared with the texture units: src/r500/txu.c); the radeon
 * kernel's CS checker (r300.c: COLORPITCH & 0x3FFE, DEPTHPITCH & 0x3FFC
 * pixels). */
#ifndef LOCKSTEP_R500_RB_H
#define LOCKSTEP_R500_RB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lockstep/r500_txu.h"
#include "lockstep/status.h"

#ifdef __cplusplus
extern "C" {
#endif

#define R500_RB_TARGETS 4

/* The registers: X(ID, "NAME", byte address). 3d_registers.txt. The cache
 * control registers are accepted and stored (a flush has no effect on the
 * model: every write lands in memory at once). */
#define R500_RB_REGS(X)                                                                         \
    X(US_OUT_FMT_0, "US_OUT_FMT_0", 0x46a4u)                                                    \
    X(US_OUT_FMT_1, "US_OUT_FMT_1", 0x46a8u)                                                    \
    X(US_OUT_FMT_2, "US_OUT_FMT_2", 0x46acu)                                                    \
    X(US_OUT_FMT_3, "US_OUT_FMT_3", 0x46b0u)                                                    \
    X(US_W_FMT, "US_W_FMT", 0x46b4u)                                                            \
    X(FG_ALPHA_FUNC, "FG_ALPHA_FUNC", 0x4bd4u)                                                  \
    X(FG_DEPTH_SRC, "FG_DEPTH_SRC", 0x4bd8u)                                                    \
    X(FG_ALPHA_VALUE, "FG_ALPHA_VALUE", 0x4be0u)                                                \
    X(RB3D_CCTL, "RB3D_CCTL", 0x4e00u)                                                          \
    X(RB3D_BLENDCNTL, "RB3D_BLENDCNTL", 0x4e04u)                                                \
    X(RB3D_ABLENDCNTL, "RB3D_ABLENDCNTL", 0x4e08u)                                              \
    X(RB3D_COLOR_CHANNEL_MASK, "RB3D_COLOR_CHANNEL_MASK", 0x4e0cu)                              \
    X(RB3D_CONSTANT_COLOR, "RB3D_CONSTANT_COLOR", 0x4e10u)                                      \
    X(RB3D_ROPCNTL, "RB3D_ROPCNTL", 0x4e18u)                                                    \
    X(RB3D_COLOROFFSET0, "RB3D_COLOROFFSET0", 0x4e28u)                                          \
    X(RB3D_COLOROFFSET1, "RB3D_COLOROFFSET1", 0x4e2cu)                                          \
    X(RB3D_COLOROFFSET2, "RB3D_COLOROFFSET2", 0x4e30u)                                          \
    X(RB3D_COLOROFFSET3, "RB3D_COLOROFFSET3", 0x4e34u)                                          \
    X(RB3D_COLORPITCH0, "RB3D_COLORPITCH0", 0x4e38u)                                            \
    X(RB3D_COLORPITCH1, "RB3D_COLORPITCH1", 0x4e3cu)                                            \
    X(RB3D_COLORPITCH2, "RB3D_COLORPITCH2", 0x4e40u)                                            \
    X(RB3D_COLORPITCH3, "RB3D_COLORPITCH3", 0x4e44u)                                            \
    X(RB3D_DSTCACHE_CTLSTAT, "RB3D_DSTCACHE_CTLSTAT", 0x4e4cu)                                  \
    X(RB3D_DITHER_CTL, "RB3D_DITHER_CTL", 0x4e50u)                                              \
    X(RB3D_DISCARD_SRC_PIXEL_LTE_THRESHOLD, "RB3D_DISCARD_SRC_PIXEL_LTE_THRESHOLD", 0x4ea0u)    \
    X(RB3D_DISCARD_SRC_PIXEL_GTE_THRESHOLD, "RB3D_DISCARD_SRC_PIXEL_GTE_THRESHOLD", 0x4ea4u)    \
    X(RB3D_CONSTANT_COLOR_AR, "RB3D_CONSTANT_COLOR_AR", 0x4ef8u)                                \
    X(RB3D_CONSTANT_COLOR_GB, "RB3D_CONSTANT_COLOR_GB", 0x4efcu)                                \
    X(ZB_CNTL, "ZB_CNTL", 0x4f00u)                                                              \
    X(ZB_ZSTENCILCNTL, "ZB_ZSTENCILCNTL", 0x4f04u)                                              \
    X(ZB_STENCILREFMASK, "ZB_STENCILREFMASK", 0x4f08u)                                          \
    X(ZB_FORMAT, "ZB_FORMAT", 0x4f10u)                                                          \
    X(ZB_ZCACHE_CTLSTAT, "ZB_ZCACHE_CTLSTAT", 0x4f18u)                                          \
    X(ZB_DEPTHOFFSET, "ZB_DEPTHOFFSET", 0x4f20u)                                                \
    X(ZB_DEPTHPITCH, "ZB_DEPTHPITCH", 0x4f24u)                                                  \
    X(ZB_STENCILREFMASK_BF, "ZB_STENCILREFMASK_BF", 0x4fd4u)

typedef enum r500_rb_reg {
#define R500_RBR_ENUM_(id, name, addr) R500_RB_##id,
    R500_RB_REGS(R500_RBR_ENUM_)
#undef R500_RBR_ENUM_
    R500_RB_NREGS
} r500_rb_reg;

/* The fields the model reads: X(ID, REG, lo, width, "NAME"), from
 * regs/bits/<register>.txt. COLOROFFSET/DEPTHOFFSET are byte offsets into the
 * bound buffer (as after the kernel's relocation); COLORPITCH is in pixels
 * (the field at 13:1 counts pairs, the kernel masks the register with
 * 0x3FFE), DEPTHPITCH likewise (13:2, 0x3FFC). */
#define R500_RB_FIELDS(X)                                                                       \
    X(OUT_FMT, US_OUT_FMT_0, 0, 5, "OUT_FMT")                                                   \
    X(C0_SEL, US_OUT_FMT_0, 8, 2, "C0_SEL")                                                     \
    X(C1_SEL, US_OUT_FMT_0, 10, 2, "C1_SEL")                                                    \
    X(C2_SEL, US_OUT_FMT_0, 12, 2, "C2_SEL")                                                    \
    X(C3_SEL, US_OUT_FMT_0, 14, 2, "C3_SEL")                                                    \
    X(OUT_SIGN, US_OUT_FMT_0, 16, 4, "OUT_SIGN")                                                \
    X(ROUND_ADJ, US_OUT_FMT_0, 20, 1, "ROUND_ADJ")                                              \
    X(W_FMT, US_W_FMT, 0, 2, "W_FMT")                                                           \
    X(W_SRC, US_W_FMT, 2, 1, "W_SRC")                                                           \
    X(AF_VAL, FG_ALPHA_FUNC, 0, 8, "AF_VAL")                                                    \
    X(AF_FUNC, FG_ALPHA_FUNC, 8, 3, "AF_FUNC")                                                  \
    X(AF_EN, FG_ALPHA_FUNC, 11, 1, "AF_EN")                                                     \
    X(AF_EN_8BIT, FG_ALPHA_FUNC, 12, 1, "AF_EN_8BIT")                                           \
    X(AM_EN, FG_ALPHA_FUNC, 16, 1, "AM_EN")                                                     \
    X(FP16_ENABLE, FG_ALPHA_FUNC, 28, 1, "FP16_ENABLE")                                         \
    X(DEPTH_SRC, FG_DEPTH_SRC, 0, 1, "DEPTH_SRC")                                               \
    X(AF_VALUE, FG_ALPHA_VALUE, 0, 16, "AF_VAL")                                                \
    X(NUM_MULTIWRITES, RB3D_CCTL, 5, 2, "NUM_MULTIWRITES")                                      \
    X(INDEPENDENT_COLOR_CHANNEL_MASK_ENABLE, RB3D_CCTL, 12, 1,                                  \
      "INDEPENDENT_COLOR_CHANNEL_MASK_ENABLE")                                                  \
    X(INDEPENDENT_COLORFORMAT_ENABLE, RB3D_CCTL, 14, 1, "INDEPENDENT_COLORFORMAT_ENABLE")       \
    X(ALPHA_BLEND_ENABLE, RB3D_BLENDCNTL, 0, 1, "ALPHA_BLEND_ENABLE")                           \
    X(SEPARATE_ALPHA_ENABLE, RB3D_BLENDCNTL, 1, 1, "SEPARATE_ALPHA_ENABLE")                     \
    X(READ_ENABLE, RB3D_BLENDCNTL, 2, 1, "READ_ENABLE")                                         \
    X(DISCARD_SRC_PIXELS, RB3D_BLENDCNTL, 3, 3, "DISCARD_SRC_PIXELS")                           \
    X(COMB_FCN, RB3D_BLENDCNTL, 12, 3, "COMB_FCN")                                              \
    X(SRCBLEND, RB3D_BLENDCNTL, 16, 6, "SRCBLEND")                                              \
    X(DESTBLEND, RB3D_BLENDCNTL, 24, 6, "DESTBLEND")                                            \
    X(ROP_ENABLE, RB3D_ROPCNTL, 2, 1, "ROP_ENABLE")                                             \
    X(ROP, RB3D_ROPCNTL, 8, 4, "ROP")                                                           \
    X(COLOROFFSET, RB3D_COLOROFFSET0, 5, 27, "COLOROFFSET")                                     \
    X(COLORPITCH, RB3D_COLORPITCH0, 1, 13, "COLORPITCH")                                        \
    X(COLORTILE, RB3D_COLORPITCH0, 16, 1, "COLORTILE")                                          \
    X(COLORMICROTILE, RB3D_COLORPITCH0, 17, 2, "COLORMICROTILE")                                \
    X(COLORENDIAN, RB3D_COLORPITCH0, 19, 2, "COLORENDIAN")                                      \
    X(COLORFORMAT, RB3D_COLORPITCH0, 21, 4, "COLORFORMAT")                                      \
    X(DITHER_MODE, RB3D_DITHER_CTL, 0, 2, "DITHER_MODE")                                        \
    X(ALPHA_DITHER_MODE, RB3D_DITHER_CTL, 2, 2, "ALPHA_DITHER_MODE")                            \
    X(STENCIL_ENABLE, ZB_CNTL, 0, 1, "STENCIL_ENABLE")                                          \
    X(Z_ENABLE, ZB_CNTL, 1, 1, "Z_ENABLE")                                                      \
    X(ZWRITEENABLE, ZB_CNTL, 2, 1, "ZWRITEENABLE")                                              \
    X(ZSIGNED_COMPARE, ZB_CNTL, 3, 1, "ZSIGNED_COMPARE")                                        \
    X(STENCIL_FRONT_BACK, ZB_CNTL, 4, 1, "STENCIL_FRONT_BACK")                                  \
    X(STENCIL_REFMASK_FRONT_BACK, ZB_CNTL, 6, 1, "STENCIL_REFMASK_FRONT_BACK")                  \
    X(ZFUNC, ZB_ZSTENCILCNTL, 0, 3, "ZFUNC")                                                    \
    X(STENCILFUNC, ZB_ZSTENCILCNTL, 3, 3, "STENCILFUNC")                                        \
    X(STENCILFAIL, ZB_ZSTENCILCNTL, 6, 3, "STENCILFAIL")                                        \
    X(STENCILZPASS, ZB_ZSTENCILCNTL, 9, 3, "STENCILZPASS")                                      \
    X(STENCILZFAIL, ZB_ZSTENCILCNTL, 12, 3, "STENCILZFAIL")                                     \
    X(STENCILFUNC_BF, ZB_ZSTENCILCNTL, 15, 3, "STENCILFUNC_BF")                                 \
    X(STENCILFAIL_BF, ZB_ZSTENCILCNTL, 18, 3, "STENCILFAIL_BF")                                 \
    X(STENCILZPASS_BF, ZB_ZSTENCILCNTL, 21, 3, "STENCILZPASS_BF")                               \
    X(STENCILZFAIL_BF, ZB_ZSTENCILCNTL, 24, 3, "STENCILZFAIL_BF")                               \
    X(ZERO_OUTPUT_MASK, ZB_ZSTENCILCNTL, 27, 1, "ZERO_OUTPUT_MASK")                             \
    X(STENCILREF, ZB_STENCILREFMASK, 0, 8, "STENCILREF")                                        \
    X(STENCILMASK, ZB_STENCILREFMASK, 8, 8, "STENCILMASK")                                      \
    X(STENCILWRITEMASK, ZB_STENCILREFMASK, 16, 8, "STENCILWRITEMASK")                           \
    X(DEPTHFORMAT, ZB_FORMAT, 0, 4, "DEPTHFORMAT")                                              \
    X(DEPTHOFFSET, ZB_DEPTHOFFSET, 5, 27, "DEPTHOFFSET")                                        \
    X(DEPTHPITCH, ZB_DEPTHPITCH, 2, 12, "DEPTHPITCH")                                           \
    X(DEPTHMACROTILE, ZB_DEPTHPITCH, 16, 1, "DEPTHMACROTILE")                                   \
    X(DEPTHMICROTILE, ZB_DEPTHPITCH, 17, 2, "DEPTHMICROTILE")                                   \
    X(DEPTHENDIAN, ZB_DEPTHPITCH, 19, 2, "DEPTHENDIAN")

typedef enum r500_rb_field {
#define R500_RBF_ENUM_(id, reg, lo, width, name) R500_RBF_##id,
    R500_RB_FIELDS(R500_RBF_ENUM_)
#undef R500_RBF_ENUM_
    R500_RBF_COUNT
} r500_rb_field;

/* COLORFORMAT values (rb3d_colorpitch.txt). */
enum {
    R500_CB_ARGB10101010 = 0, R500_CB_UV1010 = 1, R500_CB_CI8 = 2, R500_CB_ARGB1555 = 3,
    R500_CB_RGB565 = 4, R500_CB_ARGB2101010 = 5, R500_CB_ARGB8888 = 6, R500_CB_ARGB32323232 = 7,
    R500_CB_I8 = 9, R500_CB_ARGB16161616 = 10, R500_CB_UV88 = 13, R500_CB_ARGB4444 = 15,
};
/* OUT_FMT values (us_out_fmt.txt). */
enum {
    R500_OUT_C4_8 = 0, R500_OUT_C4_10 = 1, R500_OUT_C4_10_GAMMA = 2, R500_OUT_C_16 = 3,
    R500_OUT_C2_16 = 4, R500_OUT_C4_16 = 5, R500_OUT_UNUSED = 15, R500_OUT_C_16_FP = 16,
    R500_OUT_C2_16_FP = 17, R500_OUT_C4_16_FP = 18, R500_OUT_C_32_FP = 19,
    R500_OUT_C2_32_FP = 20, R500_OUT_C4_32_FP = 21,
};

/* The registers of the back end, by r500_rb_reg. */
typedef struct r500_rb_state {
    uint32_t reg[R500_RB_NREGS];
} r500_rb_state;

/* Mesa's reset values for the registers it never rewrites per draw
 * (r300_context.c / r300_emit.c: COLOR_CHANNEL_MASK 0xF, ZB_FORMAT 2, the
 * discard thresholds 0x01010101 / 0xFEFEFEFE), US_OUT_FMT_1..3 UNUSED, the
 * rest 0 (no blending, no depth/stencil, no alpha test). */
void r500_rb_state_init(r500_rb_state *s);
/* Fill s from a flat register file (reg[i]: the register at byte address
 * 4 i, nreg entries; written[i]: whether the stream wrote it, NULL: all
 * were); registers not written keep r500_rb_state_init's values. */
void r500_rb_state_from_regfile(r500_rb_state *s, const uint32_t *reg, const uint8_t *written,
                                size_t nreg);
const char *r500_rb_reg_name(r500_rb_reg r);
uint32_t r500_rb_reg_addr(r500_rb_reg r);
/* Store a register write; false (nothing stored) for an address that is not
 * one of R500_RB_REGS. */
bool r500_rb_write(r500_rb_state *s, uint32_t addr, uint32_t value);
/* Field f of register `reg` (for the per-target fields: pass the target's
 * register, e.g. R500_RB_US_OUT_FMT_2 with R500_RBF_OUT_FMT). */
uint32_t r500_rb_get(const r500_rb_state *s, r500_rb_reg reg, r500_rb_field f);
void r500_rb_set(r500_rb_state *s, r500_rb_reg reg, r500_rb_field f, uint32_t v);
const char *r500_rb_field_name(r500_rb_field f);

/* Model options (docs/assumptions.md, "R500: render backend"). */
typedef enum { R500_RBO_ROUND_NEAREST, R500_RBO_ROUND_TRUNCATE } r500_rbo_round;
typedef enum { R500_RBO_BLEND_QUANTIZED, R500_RBO_BLEND_FLOAT } r500_rbo_blend;
typedef enum { R500_RBO_DITHER_DIRECT, R500_RBO_DITHER_REGISTER } r500_rbo_dither;
typedef enum { R500_RBO_DISCARD_IGNORE, R500_RBO_DISCARD_REGISTER } r500_rbo_discard;
typedef enum { R500_RBO_PITCH_DROP, R500_RBO_PITCH_WRAP } r500_rbo_pitch;
typedef struct r500_rb_options {
    r500_rbo_round round;     /* "rb-round": float -> fixed-point components */
    r500_rbo_round z_round;   /* "rb-z-round": depth -> Z16 / Z24 */
    r500_rbo_blend blend_src; /* "rb-blend-src": source quantized to the target first */
    r500_rbo_dither dither;   /* "rb-dither": 565/1555/4444 from float, or via 8 bits */
    r500_rbo_discard discard; /* "rb-discard": RB3D_BLENDCNTL.DISCARD_SRC_PIXELS */
    bool dst_missing_one;     /* "rb-dst-missing": a component the format lacks reads
                                 1 for C3 (alpha), else 0 */
    r500_txo_tile_order tile_order; /* "tx-tile-order", shared with the texture units:
                                       a buffer is laid out one way for both */
    r500_rbo_pitch beyond_pitch;    /* "rb-beyond-pitch": pixels right of a buffer's pitch
                                       (a scissor wider than COLORPITCH/DEPTHPITCH) */
} r500_rb_options;
void r500_rb_options_default(r500_rb_options *o);
ls_status r500_rb_options_set(r500_rb_options *o, const char *name, const char *value,
                              ls_diag *d);
extern const char *const r500_rb_option_names[];

/* The memory the back end writes: colour buffer n and the depth buffer,
 * each a caller-owned byte range that RB3D_COLOROFFSETn / ZB_DEPTHOFFSET
 * index (NULL: that buffer is not bound). */
typedef struct r500_rb_memory {
    uint8_t *color[R500_RB_TARGETS];
    size_t color_size[R500_RB_TARGETS];
    uint8_t *depth;
    size_t depth_size;
} r500_rb_memory;

/* How a pixel stores components C0..C3: bytes per pixel, each component's
 * width and shift (0 bits: not stored) and kind (R500_RB_UNORM, _SNORM,
 * _HALF, _FLOAT). */
enum { R500_RB_UNORM, R500_RB_SNORM, R500_RB_HALF, R500_RB_FLOAT };
typedef struct r500_rb_pixfmt {
    unsigned cbfmt, bytes;
    struct {
        unsigned bits, shift;
    } c[4];
    unsigned kind[4];
} r500_rb_pixfmt;

/* One colour buffer or the depth buffer after validation. */
typedef struct r500_rb_surface {
    bool active;
    unsigned format;      /* COLORFORMAT, or DEPTHFORMAT */
    unsigned out_fmt;     /* OUT_FMT (colour) */
    unsigned sel[4];      /* C0..C3_SEL: 0 alpha, 1 red, 2 green, 3 blue */
    unsigned sign;        /* OUT_SIGN */
    unsigned endian;      /* COLORENDIAN / DEPTHENDIAN */
    unsigned mask;        /* channel mask, bit k = component Ck */
    r500_rb_pixfmt pf;    /* colour: the component layout */
    r500_txu layout;      /* the addressing (one level), shared with src/r500/txu.c */
    int cols;             /* pixels per row it takes: the width, or the pitch when
                             narrower and rb-beyond-pitch is drop */
    uint8_t *mem;
    size_t size;
} r500_rb_surface;

/* The back end bound to registers and memory for a width x height target. */
typedef struct r500_rb {
    r500_rb_state s;
    r500_rb_options opt;
    int width, height;
    int cols; /* pixels at x >= cols are dropped: the narrowest active surface's cols */
    r500_rb_surface cb[R500_RB_TARGETS];
    r500_rb_surface zb;
    float constant[4];     /* blend constant per component C0..C3 of target 0 */
} r500_rb;

/* Validate the registers against the memory for pixels (0..width-1,
 * 0..height-1): colour formats and OUT_FMT combinations, pitches and tiling,
 * every active buffer inside its memory. Hostile values are LS_ERR_RANGE /
 * LS_ERR_UNSUPPORTED with a diagnostic naming the register. o may be NULL. */
ls_status r500_rb_bind(r500_rb *rb, const r500_rb_state *s, const r500_rb_memory *m, int width,
                       int height, const r500_rb_options *o, ls_diag *d);

/* One quad's fragments as the fragment program and the rasterizer hand them
 * over: up to four pixels, each at (x[i], y[i]) and covered when bit i of
 * `mask` is set (killed pixels: clear the bit). */
typedef struct r500_rb_quad {
    int x[4], y[4];
    unsigned mask;
    float color[R500_RB_TARGETS][4][4]; /* [target][pixel] RGBA from the US */
    float w[4];      /* the US's W output (shader depth) */
    float z[4];      /* the rasterizer's window depth, 0..1 */
    bool back_face;
} r500_rb_quad;

typedef struct r500_rb_stats {
    uint64_t pixels_in;      /* covered pixels handed over */
    uint64_t beyond_pitch;   /* removed: right of a buffer's pitch (rb-beyond-pitch drop) */
    uint64_t alpha_failed;   /* removed by the alpha test */
    uint64_t stencil_failed; /* removed by the stencil test */
    uint64_t depth_failed;   /* removed by the depth test */
    uint64_t zpass;          /* passed the alpha, stencil and depth tests: what the ZB's
                                ZPASS counter counts (occlusion queries), colour written
                                or not */
    uint64_t discarded;      /* removed by DISCARD_SRC_PIXELS */
    uint64_t pixels_written; /* pixels that reached the colour buffers */
} r500_rb_stats;

/* One fragment (the form a draw's per-pixel output call hands over). */
typedef struct r500_rb_pixel {
    int x, y;
    const float *color[R500_RB_TARGETS]; /* RGBA per target (NULL: reads 0) */
    float w, z;                          /* the US's W; the rasterizer's window z */
    bool back_face;
} r500_rb_pixel;
/* The same for one pixel: r500_rb_quad_write runs each covered pixel of a
 * quad through this. */
void r500_rb_pixel_write(const r500_rb *rb, const r500_rb_pixel *px, r500_rb_stats *stats);

/* Run the fragments of q through alpha test, stencil, depth, blending, ROP
 * and masks, and write them. Pixels outside the bound width x height are
 * dropped. stats may be NULL. */
void r500_rb_quad_write(const r500_rb *rb, const r500_rb_quad *q, r500_rb_stats *stats);

/* Read colour buffer `target` back as float RGBA (width x height, row y of
 * the buffer is image row y): the stored components decoded and put back
 * into the channels US_OUT_FMT selected for them; channels no component
 * holds read 0 (alpha 1). */
void r500_rb_read_color(const r500_rb *rb, unsigned target, float *rgba);
/* Read the depth buffer back: depth in [0,1] and stencil (NULL to skip). */
void r500_rb_read_depth(const r500_rb *rb, float *depth, uint8_t *stencil);
/* The raw components C0..C3 of one colour pixel as stored (unorm / snorm /
 * float decoded to float; absent components 0). x, y must be in range. */
void r500_rb_read_components(const r500_rb *rb, unsigned target, int x, int y, float c[4]);
/* Store `word` as the raw bits of colour pixel (x, y) of `target` (its low
 * bytes, as many as a pixel has; COLORENDIAN applies): a write that bypasses
 * the pixel pipeline, such as the Z pipe's ZB_DEPTHCLEARVALUE in r300's CBZB
 * clear. Pixels outside the bound area or an inactive target: nothing. */
void r500_rb_store_word(const r500_rb *rb, unsigned target, int x, int y, uint32_t word);
/* Fill the colour buffer / depth buffer of the bound area with a value
 * (what a clear draw produces: every pixel written, no test, no blending). */
void r500_rb_clear_color(const r500_rb *rb, unsigned target, const float rgba[4]);
void r500_rb_clear_depth(const r500_rb *rb, float depth, uint8_t stencil);

#ifdef __cplusplus
}
#endif
#endif
