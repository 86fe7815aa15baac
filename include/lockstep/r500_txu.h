/* R500 texture units driven by their registers (issue 16 item 1): the
 * TX_* register file of the 16 units, texel decode for the formats Mesa's r300
 * driver uses on R500, linear / micro-tiled / macro-tiled addressing, mip
 * chains, cube and 3D textures, and sampling (wrap modes, min/mag/mip filters,
 * LOD from derivatives with bias and clamps, projection, anisotropy as a model
 * option). Manual: docs/r500-tex.md. Model options: docs/assumptions.md,
 * "R500: texture units from registers".
 *
 * Sources: AMD's R5xx register reference as transcribed in buhman/r500
 * regs/3d_registers.txt (addresses) and regs/bits/tx_*.txt (fields); Mesa
 * src/gallium/drivers/r300/r300_reg.h (field values Mesa uses, incl. DXT1/3/5
 * format codes 15..17 that AMD lists as reserved), r300_texture.c (format
 * translation), r300_texture_desc.c (tile sizes, strides, mip offsets). */
#ifndef LOCKSTEP_R500_TXU_H
#define LOCKSTEP_R500_TXU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lockstep/r500_tex.h"
#include "lockstep/status.h"

#ifdef __cplusplus
extern "C" {
#endif

#define R500_TX_UNITS 16

/* The TX registers: X(ID, "NAME", address of unit 0, one per unit?).
 * 3d_registers.txt: TX_FILTER0_[0-15] 0x4400-0x443c, TX_FILTER1_[0-15]
 * 0x4440-0x447c, TX_FORMAT0_[0-15] 0x4480-0x44bc, TX_FORMAT1_[0-15]
 * 0x44c0-0x44fc, TX_FORMAT2_[0-15] 0x4500-0x453c, TX_OFFSET_[0-15]
 * 0x4540-0x457c, TX_CHROMA_KEY_[0-15] 0x4580-0x45bc, TX_BORDER_COLOR_[0-15]
 * 0x45c0-0x45fc, TX_FILTER4 0x4110 and TX_ENABLE 0x4104 (one register for
 * all units; tx_enable.txt: a disabled unit returns ARGB = 1,0,0,0). */
#define R500_TX_REGS(X)                                                                         \
    X(FILTER0, "TX_FILTER0", 0x4400u, 1)                                                        \
    X(FILTER1, "TX_FILTER1", 0x4440u, 1)                                                        \
    X(FORMAT0, "TX_FORMAT0", 0x4480u, 1)                                                        \
    X(FORMAT1, "TX_FORMAT1", 0x44c0u, 1)                                                        \
    X(FORMAT2, "TX_FORMAT2", 0x4500u, 1)                                                        \
    X(OFFSET, "TX_OFFSET", 0x4540u, 1)                                                          \
    X(CHROMA_KEY, "TX_CHROMA_KEY", 0x4580u, 1)                                                  \
    X(BORDER_COLOR, "TX_BORDER_COLOR", 0x45c0u, 1)                                              \
    X(FILTER4, "TX_FILTER4", 0x4110u, 0)                                                      \
    X(ENABLE, "TX_ENABLE", 0x4104u, 0)

typedef enum r500_tx_reg {
#define R500_TXR_ENUM_(id, name, addr, per_unit) R500_TXR_##id,
    R500_TX_REGS(R500_TXR_ENUM_)
#undef R500_TXR_ENUM_
    R500_TXR_COUNT
} r500_tx_reg;

/* The fields: X(ID, REG, lo, width, "NAME"). regs/bits/tx_filter0.txt,
 * tx_filter1.txt, tx_filter4.txt, tx_format0.txt, tx_format1.txt,
 * tx_format2.txt, tx_offset.txt, tx_border_color.txt; fields marked (Mesa)
 * are absent from the AMD transcription and come from r300_reg.h
 * (R400_DXTC_SWIZZLE_ENABLE bit 21, R500_TX_MAX_ANISO bits 28:23,
 * R500_TX_ANISO_HIGH_QUALITY bit 30 of TX_FILTER1). */
#define R500_TX_FIELDS(X)                                                                       \
    X(CLAMP_S, FILTER0, 0, 3, "CLAMP_S")                                                        \
    X(CLAMP_T, FILTER0, 3, 3, "CLAMP_T")                                                        \
    X(CLAMP_R, FILTER0, 6, 3, "CLAMP_R")                                                        \
    X(MAG_FILTER, FILTER0, 9, 2, "MAG_FILTER")                                                  \
    X(MIN_FILTER, FILTER0, 11, 2, "MIN_FILTER")                                                 \
    X(MIP_FILTER, FILTER0, 13, 2, "MIP_FILTER")                                                 \
    X(VOL_FILTER, FILTER0, 15, 2, "VOL_FILTER")                                                 \
    X(MAX_MIP_LEVEL, FILTER0, 17, 4, "MAX_MIP_LEVEL")                                           \
    X(ID, FILTER0, 28, 4, "ID")                                                                 \
    X(CHROMA_KEY_MODE, FILTER1, 0, 2, "CHROMA_KEY_MODE")                                        \
    X(MC_ROUND, FILTER1, 2, 1, "MC_ROUND")                                                      \
    X(LOD_BIAS, FILTER1, 3, 10, "LOD_BIAS")                                                     \
    X(MC_COORD_TRUNCATE, FILTER1, 14, 1, "MC_COORD_TRUNCATE")                                   \
    X(TRI_PERF, FILTER1, 15, 2, "TRI_PERF")                                                     \
    X(DXTC_SWIZZLE, FILTER1, 21, 1, "DXTC_SWIZZLE")                                             \
    X(MACRO_SWITCH, FILTER1, 22, 1, "MACRO_SWITCH")                                             \
    X(MAX_ANISO, FILTER1, 23, 6, "MAX_ANISO")                                                   \
    X(ANISO_HQ, FILTER1, 30, 1, "ANISO_HIGH_QUALITY")                                           \
    X(BORDER_FIX, FILTER1, 31, 1, "BORDER_FIX")                                                 \
    X(TXWIDTH, FORMAT0, 0, 11, "TXWIDTH")                                                       \
    X(TXHEIGHT, FORMAT0, 11, 11, "TXHEIGHT")                                                    \
    X(TXDEPTH, FORMAT0, 22, 4, "TXDEPTH")                                                       \
    X(NUM_LEVELS, FORMAT0, 26, 4, "NUM_LEVELS")                                                 \
    X(PROJECTED, FORMAT0, 30, 1, "PROJECTED")                                                   \
    X(TXPITCH_EN, FORMAT0, 31, 1, "TXPITCH_EN")                                                 \
    X(TXFORMAT, FORMAT1, 0, 5, "TXFORMAT")                                                      \
    X(SIGNED_COMP0, FORMAT1, 5, 1, "SIGNED_COMP0")                                              \
    X(SIGNED_COMP1, FORMAT1, 6, 1, "SIGNED_COMP1")                                              \
    X(SIGNED_COMP2, FORMAT1, 7, 1, "SIGNED_COMP2")                                              \
    X(SIGNED_COMP3, FORMAT1, 8, 1, "SIGNED_COMP3")                                              \
    X(SEL_ALPHA, FORMAT1, 9, 3, "SEL_ALPHA")                                                    \
    X(SEL_RED, FORMAT1, 12, 3, "SEL_RED")                                                       \
    X(SEL_GREEN, FORMAT1, 15, 3, "SEL_GREEN")                                                   \
    X(SEL_BLUE, FORMAT1, 18, 3, "SEL_BLUE")                                                     \
    X(GAMMA, FORMAT1, 21, 1, "GAMMA")                                                           \
    X(YUV_TO_RGB, FORMAT1, 22, 2, "YUV_TO_RGB")                                                 \
    X(SWAP_YUV, FORMAT1, 24, 1, "SWAP_YUV")                                                     \
    X(TEX_COORD_TYPE, FORMAT1, 25, 2, "TEX_COORD_TYPE")                                         \
    X(CACHE, FORMAT1, 27, 5, "CACHE")                                                           \
    X(TXPITCH, FORMAT2, 0, 14, "TXPITCH")                                                       \
    X(TXFORMAT_MSB, FORMAT2, 14, 1, "TXFORMAT_MSB")                                             \
    X(TXWIDTH_11, FORMAT2, 15, 1, "TXWIDTH_11")                                                 \
    X(TXHEIGHT_11, FORMAT2, 16, 1, "TXHEIGHT_11")                                               \
    X(POW2FIX2FLT, FORMAT2, 17, 1, "POW2FIX2FLT")                                               \
    X(SEL_FILTER4, FORMAT2, 18, 2, "SEL_FILTER4")                                               \
    X(ENDIAN_SWAP, OFFSET, 0, 2, "ENDIAN_SWAP")                                                 \
    X(MACRO_TILE, OFFSET, 2, 1, "MACRO_TILE")                                                   \
    X(MICRO_TILE, OFFSET, 3, 2, "MICRO_TILE")                                                   \
    X(TXOFFSET, OFFSET, 5, 27, "TXOFFSET")                                                      \
    X(CHROMA_KEY, CHROMA_KEY, 0, 32, "CHROMA_KEY")                                              \
    X(BORDER_COLOR, BORDER_COLOR, 0, 32, "BORDER_COLOR")                                        \
    X(WEIGHT_1, FILTER4, 0, 11, "WEIGHT_1")                                                     \
    X(WEIGHT_0, FILTER4, 11, 11, "WEIGHT_0")                                                    \
    X(WEIGHT_PAIR, FILTER4, 22, 1, "WEIGHT_PAIR")                                               \
    X(PHASE, FILTER4, 23, 4, "PHASE")                                                           \
    X(DIRECTION, FILTER4, 27, 1, "DIRECTION")                                                   \
    X(TEX_ENABLE, ENABLE, 0, 16, "TEX_ENABLE")

typedef enum r500_tx_field {
#define R500_TXF_ENUM_(id, reg, lo, width, name) R500_TXF_##id,
    R500_TX_FIELDS(R500_TXF_ENUM_)
#undef R500_TXF_ENUM_
    R500_TXF_COUNT
} r500_tx_field;

typedef struct r500_tx_field_desc {
    const char *name;
    r500_tx_reg reg;
    unsigned lo, width;
} r500_tx_field_desc;

/* TXFORMAT values (tx_format1.txt; with TXFORMAT_MSB the code is 32 + value). */
enum {
    R500_TXFMT_X8 = 0, R500_TXFMT_X16 = 1, R500_TXFMT_Y4X4 = 2, R500_TXFMT_Y8X8 = 3,
    R500_TXFMT_Y16X16 = 4, R500_TXFMT_Z3Y3X2 = 5, R500_TXFMT_Z5Y6X5 = 6, R500_TXFMT_Z6Y5X5 = 7,
    R500_TXFMT_W4Z4Y4X4 = 10, R500_TXFMT_W1Z5Y5X5 = 11, R500_TXFMT_W8Z8Y8X8 = 12,
    R500_TXFMT_W2Z10Y10X10 = 13, R500_TXFMT_W16Z16Y16X16 = 14, R500_TXFMT_DXT1 = 15,
    R500_TXFMT_DXT3 = 16, R500_TXFMT_DXT5 = 17, R500_TXFMT_16F = 24, R500_TXFMT_16F_16F = 25,
    R500_TXFMT_16F_16F_16F_16F = 26, R500_TXFMT_32F = 27, R500_TXFMT_32F_32F = 28,
    R500_TXFMT_32F_32F_32F_32F = 29, R500_TXFMT_ATI2N = 31, R500_TXFMT_ATI1N = 32 + 5,
    R500_TXFMT_Y8X24 = 32 + 6,
};
/* SEL_* values: component 0..3, constant 0, constant 1. */
enum { R500_TXSEL_X, R500_TXSEL_Y, R500_TXSEL_Z, R500_TXSEL_W, R500_TXSEL_0, R500_TXSEL_1 };

/* The register state of the texture block. FILTER4 and ENABLE are stored in
 * unit 0's slot. */
typedef struct r500_tx_state {
    uint32_t reg[R500_TXR_COUNT][R500_TX_UNITS];
} r500_tx_state;

const r500_tx_field_desc *r500_tx_field_info(r500_tx_field f);
const char *r500_tx_reg_name(r500_tx_reg r);
/* Address of register r for unit u (FILTER4: the one address). */
uint32_t r500_tx_reg_addr(r500_tx_reg r, unsigned unit);
/* Store a register write. Returns false (and stores nothing) when addr is not
 * a TX register of this table. */
bool r500_tx_write(r500_tx_state *s, uint32_t addr, uint32_t value);
/* Decode a TX register address: its register and unit. */
bool r500_tx_decode_addr(uint32_t addr, r500_tx_reg *r, unsigned *unit);
uint32_t r500_tx_get(const r500_tx_state *s, unsigned unit, r500_tx_field f);
void r500_tx_set(r500_tx_state *s, unsigned unit, r500_tx_field f, uint32_t v);

/* Model options (docs/assumptions.md, "R500: texture units from registers"). */
typedef enum { R500_TXO_TILE_ROW_MAJOR, R500_TXO_TILE_COLUMN_MAJOR } r500_txo_tile_order;
typedef enum { R500_TXO_Z24_HIGH, R500_TXO_Z24_LOW } r500_txo_y8x24;
typedef enum { R500_TXO_DXT_ROUND8, R500_TXO_DXT_EXACT } r500_txo_dxt;
typedef enum { R500_TXO_ANISO_LINEAR, R500_TXO_ANISO_FOOTPRINT } r500_txo_aniso;
typedef enum { R500_TXO_RHO_SQRT, R500_TXO_RHO_MAXABS } r500_txo_rho;
typedef enum {
    R500_TXO_SHADOW_NONE, R500_TXO_SHADOW_LESS, R500_TXO_SHADOW_LEQUAL,
    R500_TXO_SHADOW_GREATER, R500_TXO_SHADOW_GEQUAL,
} r500_txo_shadow;
typedef struct r500_tx_options {
    r500_txo_tile_order tile_order; /* "tx-tile-order": micro tiles within a macro tile */
    r500_txo_y8x24 y8x24;           /* "tx-y8x24": where the 24-bit depth sits */
    r500_txo_dxt dxt;               /* "tx-dxt-interp": DXT palette interpolation */
    r500_txo_aniso aniso;           /* "tx-aniso": what MIN/MAG_FILTER = 3 does */
    r500_txo_rho rho;               /* "tx-lod-rho": the footprint size */
    unsigned weight_bits;           /* "tx-weight-bits": 0 float weights, else N bits */
    r500_txo_shadow shadow;         /* "tx-shadow": compare depth texels with coord R */
    bool missing_w_one;             /* "tx-missing": absent W reads 1 (else 0) */
    bool mip_half_up;               /* "tx-mip-round": nearest mip of lambda = k + 1/2 is
                                       k + 1 (half-up) instead of GL's k */
    bool cube_quad_face;            /* "tx-cube-lod": a cube quad's LOD from the lanes
                                       projected on each lane's own face (quad-face)
                                       instead of each lane's own face (lane-face) */
} r500_tx_options;

/* A source of texels other than texture memory (e.g. the float RGBA images
 * of r500_texture, include/lockstep/r500_tex.h): fetch writes the RGBA of
 * texel (x, y) of face/slice `layer` of `level`; coordinates are in range. */
typedef struct r500_texel_source {
    void (*fetch)(const void *ctx, int level, int layer, int x, int y, float rgba[4]);
    const void *ctx;
} r500_texel_source;
void r500_tx_options_default(r500_tx_options *o);
ls_status r500_tx_options_set(r500_tx_options *o, const char *name, const char *value,
                              ls_diag *d);
extern const char *const r500_tx_option_names[];

#define R500_TXU_MAX_LEVELS 15 /* 16384 texels (texel sources); registers reach 13 */

/* One unit's texture, validated against its buffer. Built by r500_txu_bind;
 * holds a pointer to the caller's memory (not owned). */
typedef struct r500_txu {
    unsigned unit;
    unsigned format;   /* TXFORMAT + 32 * TXFORMAT_MSB */
    unsigned bpp;      /* bytes per texel (per 4x4 block for DXT) */
    bool block;        /* DXT: addressing in 4x4 blocks */
    unsigned type;     /* TEX_COORD_TYPE: 0 2D, 1 3D, 2 cube */
    int w, h, d;       /* level-0 size in texels (d: 3D depth, else 1) */
    int levels;        /* levels in memory: NUM_LEVELS + 1, capped at the chain */
    int min_level;     /* MAX_MIP_LEVEL (finest level used), <= levels - 1 */
    bool micro, square, macro_req;
    struct r500_txu_level {
        int w, h, d;          /* size in texels */
        bool macro;           /* macro-tiled (after the MACRO_SWITCH rule) */
        size_t offset;        /* byte offset of the level in the buffer */
        size_t pitch;         /* texels (blocks for DXT) per row of the layout */
        size_t rows;          /* rows of texels (blocks) in the layout */
        size_t layer;         /* bytes per face / slice */
    } lv[R500_TXU_MAX_LEVELS];
    uint32_t f0, f1, fmt0, fmt1, fmt2, offset_reg, border;
    const uint8_t *mem;
    size_t size;
    const r500_texel_source *src; /* set by r500_txu_bind_source, else NULL */
    r500_tx_options opt;
} r500_txu;

/* Validate unit `unit` of s against a buffer of `size` bytes at mem (TXOFFSET
 * is a byte offset into it, as after the kernel's relocation). Hostile values
 * (texture past the buffer, pitch below the width, unknown format, tiling a
 * format cannot have) are LS_ERR_RANGE / LS_ERR_UNSUPPORTED with a diagnostic
 * naming the register, e.g. "TX_FORMAT1_3.TXFORMAT = 8 ...". */
ls_status r500_txu_bind(r500_txu *t, const r500_tx_state *s, unsigned unit, const uint8_t *mem,
                        size_t size, const r500_tx_options *o, ls_diag *d);
/* A unit whose texels come from `src` (w x h, `levels` levels halving down
 * to 1x1) while filtering, wrap, LOD and border follow the unit's registers
 * as in r500_txu_bind; TX_FORMAT1's format, swizzle and gamma and TX_OFFSET
 * are not used (the source gives RGBA), TX_BORDER_COLOR reads as W8Z8Y8X8.
 * src must outlive t. */
ls_status r500_txu_bind_source(r500_txu *t, const r500_tx_state *s, unsigned unit, int w, int h,
                               int levels, const r500_texel_source *src,
                               const r500_tx_options *o, ls_diag *d);
/* Byte address (within the buffer) of texel (x, y) of face/slice `layer` of
 * `level`; for DXT x, y are block coordinates. Coordinates must be in range. */
size_t r500_txu_texel_addr(const r500_txu *t, int level, int layer, int x, int y);
/* The decoded components (X, Y, Z, W) of a texel, before swizzle and gamma. */
void r500_txu_texel_raw(const r500_txu *t, int level, int layer, int x, int y, float c[4]);
/* The texel as the shader sees it (RGBA after SEL_*, GAMMA). */
void r500_txu_texel(const r500_txu *t, int level, int layer, int x, int y, float rgba[4]);
/* Sample every lane of rq->mask (coordinates as r500_tex_request: S, T, R, Q). */
ls_status r500_txu_sample(const r500_txu *t, const r500_tex_request *rq, ls_diag *d);

/* The tile, in texels, of `bpp`-byte texels (1, 2, 4, 8 or 16) for a macro
 * (2 KB) or micro (32-byte) tile and micro mode 0 (linear), 1 (tiled) or 2
 * (square): r300_texture_desc.c's r300_get_pixel_alignment table, which the
 * colour and depth buffers share (src/r500/rb.c). False when that layout does
 * not exist. */
bool r500_tx_tile_size(unsigned bpp, bool macro, unsigned micro, unsigned *w, unsigned *h);

/* ---- texture units in draws ---------------------------------------------
 * A texture object (include/lockstep/r500_tex.h) whose texels are unit
 * `unit`'s texture in memory: r500_txu_bind's validation and diagnostics; a
 * job's TEX instructions then sample it through r500_txu_sample. mem must
 * outlive the texture. Free with r500_texture_free. */
ls_status r500_texture_from_unit(const r500_tx_state *s, unsigned unit, const uint8_t *mem,
                                 size_t size, const r500_tx_options *o, r500_texture **out,
                                 ls_diag *d);
/* A disabled unit's texture: every lookup returns (R, G, B, A) = (0, 0, 0, 1)
 * (tx_enable.txt "Disable, ARGB = 1,0,0,0"). */
ls_status r500_texture_disabled(r500_texture **out, ls_diag *d);

/* The memory a unit's TX_OFFSET indexes: a buffer object's contents. */
typedef struct r500_tx_memory {
    const uint8_t *data;
    size_t size;
} r500_tx_memory;
/* Fill s from a flat register file as a stream executor keeps one: reg[i]
 * is the register at byte address 4 i (nreg entries), written[i] whether the
 * stream wrote it (NULL: all were); registers not written read 0. */
void r500_tx_state_from_regfile(r500_tx_state *s, const uint32_t *reg, const uint8_t *written,
                                size_t nreg);
struct r500_job;
/* What a stream executor calls before a draw: bind the job's 16 samplers
 * (TEX_ID 0..15) from the TX register file and each unit's buffer object.
 * Sampler i gets the lowest enabled unit (TX_ENABLE) whose TX_FILTER0.ID is
 * i, or a disabled unit's texture. An enabled unit that does not bind (bad
 * format, texture past its buffer, ...) fails the call with its diagnostic
 * and leaves the job unchanged. mem may be NULL (no memory: only disabled
 * units bind). */
ls_status r500_job_bind_tx_units(struct r500_job *job, const r500_tx_state *s,
                                 const r500_tx_memory mem[R500_TX_UNITS],
                                 const r500_tx_options *o, ls_diag *d);

/* Helpers shared with the tests' documentation: float from IEEE half. */
float r500_tx_half_to_float(uint16_t h);

#ifdef __cplusplus
}
#endif
#endif
