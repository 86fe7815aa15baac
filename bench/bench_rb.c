/* R500 render backend and texture units from memory: pixels/s through
 * r500_rb_quad_write (a plain ARGB8888 store; blending + depth test on
 * macro/micro-tiled buffers) and texels/s of r500_txu_sample (a bilinear,
 * mipmapped W8Z8Y8X8 texture). One core. Never part of make check. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lockstep/r500_rb.h"
#include "lockstep/r500_txu.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

enum { W = 512, H = 512, PASSES = 8 };

static int bench_rb(const char *name, uint32_t pitch_bits, uint32_t blend, uint32_t zb_cntl)
{
    r500_rb_state s;
    r500_rb_state_init(&s);
    s.reg[R500_RB_RB3D_COLORPITCH0] = W | pitch_bits | 6u << 21;
    s.reg[R500_RB_RB3D_BLENDCNTL] = blend;
    s.reg[R500_RB_ZB_CNTL] = zb_cntl;
    s.reg[R500_RB_ZB_ZSTENCILCNTL] = 2; /* less or equal */
    s.reg[R500_RB_ZB_DEPTHPITCH] = W | pitch_bits;
    size_t size = (size_t)W * H * 4;
    uint8_t *cb = calloc(1, size), *zb = calloc(1, size);
    r500_rb_memory m = {.color = {cb}, .color_size = {size}, .depth = zb, .depth_size = size};
    r500_rb rb;
    ls_diag d;
    if (!cb || !zb || r500_rb_bind(&rb, &s, &m, W, H, NULL, &d) != LS_OK) {
        fprintf(stderr, "bench_rb: %s: %s\n", name, d.msg);
        return 1;
    }
    r500_rb_clear_depth(&rb, 1.0f, 0);
    r500_rb_stats st = {0};
    double t0 = now();
    for (int p = 0; p < PASSES; p++)
        for (int y = 0; y < H; y += 2)
            for (int x = 0; x < W; x += 2) {
                r500_rb_quad q = {.mask = 0xf};
                for (int i = 0; i < 4; i++) {
                    q.x[i] = x + (i & 1);
                    q.y[i] = y + (i >> 1);
                    q.z[i] = 1.0f - (float)p / PASSES;
                    for (int c = 0; c < 4; c++)
                        q.color[0][i][c] = (float)((x + y + c + p) & 255) / 255.0f;
                }
                r500_rb_quad_write(&rb, &q, &st);
            }
    double dt = now() - t0;
    printf("bench_rb: %-28s %.2f Mpixels/s (%llu written, checksum %u)\n", name,
           (double)st.pixels_in / dt * 1e-6, (unsigned long long)st.pixels_written,
           cb[12345] + cb[size / 2]);
    free(cb);
    free(zb);
    return 0;
}

static int bench_tex(void)
{
    enum { TW = 256 };
    r500_tx_state s;
    memset(&s, 0, sizeof s);
    r500_tx_set(&s, 0, R500_TXF_TXWIDTH, TW - 1);
    r500_tx_set(&s, 0, R500_TXF_TXHEIGHT, TW - 1);
    r500_tx_set(&s, 0, R500_TXF_NUM_LEVELS, 8);
    r500_tx_set(&s, 0, R500_TXF_TXFORMAT, R500_TXFMT_W8Z8Y8X8);
    r500_tx_set(&s, 0, R500_TXF_SEL_GREEN, R500_TXSEL_Y);
    r500_tx_set(&s, 0, R500_TXF_SEL_BLUE, R500_TXSEL_Z);
    r500_tx_set(&s, 0, R500_TXF_SEL_ALPHA, R500_TXSEL_W);
    r500_tx_set(&s, 0, R500_TXF_MAG_FILTER, 2);
    r500_tx_set(&s, 0, R500_TXF_MIN_FILTER, 2);
    r500_tx_set(&s, 0, R500_TXF_MIP_FILTER, 2);
    size_t size = (size_t)TW * TW * 4 * 2;
    uint8_t *mem = malloc(size);
    for (size_t i = 0; i < size; i++)
        mem[i] = (uint8_t)(i * 7);
    r500_txu t;
    ls_diag d;
    if (!mem || r500_txu_bind(&t, &s, 0, mem, size, NULL, &d) != LS_OK) {
        fprintf(stderr, "bench_rb: texture: %s\n", d.msg);
        return 1;
    }
    static float coord[4][R500_TEX_MAX_LANES], out[4][R500_TEX_MAX_LANES];
    static uint8_t quad[R500_TEX_MAX_LANES][4];
    for (int l = 0; l < 64; l++)
        for (int k = 0; k < 4; k++)
            quad[l][k] = (uint8_t)((l & ~3) + k);
    double sum = 0, t0 = now();
    long samples = 0;
    for (int it = 0; it < 20000; it++) {
        for (int l = 0; l < 64; l++) {
            coord[0][l] = (float)((l & 1) + (l >> 2) * 2 + it % 97) * 0.0021f;
            coord[1][l] = (float)((l >> 1 & 1) + it % 89) * 0.0017f * (1 + (it & 3));
        }
        r500_tex_request rq = {.n = 64, .mask = ~0ull, .quad = (const uint8_t(*)[4])quad,
                               .coord = coord, .out = out};
        if (r500_txu_sample(&t, &rq, &d) != LS_OK)
            return 1;
        sum += out[0][5];
        samples += 64;
    }
    double dt = now() - t0;
    printf("bench_rb: %-28s %.2f Msamples/s (checksum %g)\n", "trilinear W8Z8Y8X8 256x256",
           (double)samples / dt * 1e-6, sum);
    free(mem);
    return 0;
}

int main(void)
{
    int rc = bench_rb("ARGB8888 store, linear", 0, 0, 0);
    rc |= bench_rb("blend + Z24 test, macro+micro", 1u << 16 | 1u << 17,
                   1u | 4u | 38u << 16 | 39u << 24, 2u | 4u);
    rc |= bench_tex();
    return rc;
}
