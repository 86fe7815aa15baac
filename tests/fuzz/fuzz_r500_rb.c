/* Fuzz target: the render backend (src/r500/rb.c, rb_pixel.c) on hostile
 * register sets as a command stream could carry them (issue 16). Input: a
 * byte each for width - 1 and height - 1 (1..64), one word per register
 * (R500_RB_REGS order), then five 16-bit buffer sizes (colour buffers 0..3,
 * depth), then 8 register writes (16-bit address 0x4000 | a, 32-bit value)
 * through r500_rb_write, then quads: x, y, mask/face bytes and 72 bytes that
 * pick each float (colours, W, Z) from a table of ordinary and special
 * values. Property: a bound back end never touches memory outside its
 * buffers (each is a heap block of exactly its size, so ASan sees it). */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lockstep/r500_rb.h"

static float pick(uint8_t b)
{
    static const float special[16] = {0.0f, 1.0f, -1.0f, 0.5f, 2.0f, -0.0f, 1e30f, -1e30f,
                                      1e-40f, 65504.0f, 1.0f / 255.0f, 0.999f, 0, 0, 0, 0};
    if (b < 12)
        return special[b];
    if (b == 12)
        return NAN;
    if (b == 13)
        return INFINITY;
    if (b == 14)
        return -INFINITY;
    return (float)(b - 15) / 240.0f;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    size_t head = 2 + 4 * R500_RB_NREGS + 10 + 8 * 6;
    if (size < head)
        return 0;
    int w = (data[0] & 63) + 1, h = (data[1] & 63) + 1;
    r500_rb_state s;
    for (unsigned r = 0; r < R500_RB_NREGS; r++)
        memcpy(&s.reg[r], data + 2 + 4 * r, 4);
    const uint8_t *p = data + 2 + 4 * R500_RB_NREGS;
    size_t sizes[5];
    for (int i = 0; i < 5; i++)
        sizes[i] = (size_t)(p[2 * i] | p[2 * i + 1] << 8);
    p += 10;
    for (int i = 0; i < 8; i++, p += 6) {
        uint32_t addr = 0x4000u | ((uint32_t)(p[0] | p[1] << 8) & 0xffcu), v;
        memcpy(&v, p + 2, 4);
        (void)r500_rb_write(&s, addr, v);
    }
    r500_rb_memory m;
    memset(&m, 0, sizeof m);
    for (int i = 0; i < 4; i++) {
        m.color[i] = sizes[i] ? calloc(1, sizes[i]) : NULL;
        m.color_size[i] = sizes[i];
    }
    m.depth = sizes[4] ? calloc(1, sizes[4]) : NULL;
    m.depth_size = sizes[4];
    r500_rb rb;
    ls_diag d;
    r500_rb_options o;
    r500_rb_options_default(&o);
    o.dither = (data[0] & 64) ? R500_RBO_DITHER_REGISTER : R500_RBO_DITHER_DIRECT;
    o.discard = (data[0] & 128) ? R500_RBO_DISCARD_REGISTER : R500_RBO_DISCARD_IGNORE;
    if (r500_rb_bind(&rb, &s, &m, w, h, &o, &d) == LS_OK) {
        const uint8_t *q = data + head;
        size_t left = size - head;
        for (int n = 0; left >= 75 && n < 64; n++, q += 75, left -= 75) {
            r500_rb_quad quad;
            memset(&quad, 0, sizeof quad);
            for (int i = 0; i < 4; i++) {
                quad.x[i] = (int)(q[0] % 72) - 4 + (i & 1);
                quad.y[i] = (int)(q[1] % 72) - 4 + (i >> 1);
            }
            quad.mask = q[2] & 15u;
            quad.back_face = (q[2] & 16u) != 0;
            const uint8_t *f = q + 3;
            for (int t = 0; t < R500_RB_TARGETS; t++)
                for (int i = 0; i < 4; i++)
                    for (int c = 0; c < 4; c++)
                        quad.color[t][i][c] = pick(*f++);
            for (int i = 0; i < 4; i++)
                quad.w[i] = pick(*f++);
            for (int i = 0; i < 4; i++)
                quad.z[i] = pick(*f++);
            r500_rb_stats st = {0};
            r500_rb_quad_write(&rb, &quad, &st);
            if (st.pixels_written > st.pixels_in)
                abort();
        }
        float *img = malloc((size_t)w * (size_t)h * 4 * sizeof(float));
        float *depth = malloc((size_t)w * (size_t)h * sizeof(float));
        uint8_t *stencil = malloc((size_t)w * (size_t)h);
        if (img && depth && stencil) {
            for (unsigned t = 0; t < R500_RB_TARGETS; t++)
                r500_rb_read_color(&rb, t, img);
            r500_rb_read_depth(&rb, depth, stencil);
        }
        free(img);
        free(depth);
        free(stencil);
    }
    for (int i = 0; i < 4; i++)
        free(m.color[i]);
    free(m.depth);
    return 0;
}
