/* Shared between the render backend's files (src/r500/rb.c, rb_pixel.c). */
#ifndef LOCKSTEP_SRC_R500_RB_INTERNAL_H
#define LOCKSTEP_SRC_R500_RB_INTERNAL_H

#include <stdint.h>

#include "lockstep/r500_rb.h"

typedef r500_rb_pixfmt rb_pixfmt;
enum {
    RB_KIND_UNORM = R500_RB_UNORM,
    RB_KIND_SNORM = R500_RB_SNORM,
    RB_KIND_HALF = R500_RB_HALF,
    RB_KIND_FLOAT = R500_RB_FLOAT,
};

/* A pixel's bytes as up to four little-endian dwords (COLORENDIAN applied). */
void rb_load(const r500_rb_surface *s, int x, int y, uint32_t w[4]);
void rb_store(const r500_rb_surface *s, int x, int y, const uint32_t w[4]);
uint32_t rb_bits_get(const uint32_t w[4], unsigned bits, unsigned shift);
void rb_bits_put(uint32_t w[4], unsigned bits, unsigned shift, uint32_t v);

uint16_t rb_float_to_half(float f);
uint32_t rb_to_unorm(float v, unsigned bits, r500_rbo_round r);
uint32_t rb_to_snorm(float v, unsigned bits, r500_rbo_round r);
float rb_component_to_float(unsigned kind, uint32_t v, unsigned bits);
uint32_t rb_component_from_float(const r500_rb *rb, const r500_rb_surface *s, unsigned k,
                                 float v);
void rb_pack_color(const r500_rb *rb, const r500_rb_surface *s, const float comp[4],
                   uint32_t w[4]);

/* Depth buffer: the fixed-point depth (16 or 24 bits) and stencil. */
uint32_t rb_depth_fixed(const r500_rb *rb, float z);
void rb_depth_load(const r500_rb *rb, int x, int y, uint32_t *z, uint32_t *stencil);
void rb_depth_store(const r500_rb *rb, int x, int y, uint32_t z, uint32_t stencil);

#endif
