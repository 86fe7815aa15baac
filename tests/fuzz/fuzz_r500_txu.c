/* Fuzz target: random TX register values for one unit, a random buffer and
 * random coordinates go through r500_txu_bind and r500_txu_sample (issue 16:
 * hostile register values never read out of bounds). Input: one word per
 * TX register (R500_TX_REGS order), then 4 lanes x 4 coordinates and 4 LODs
 * (float bits), one byte of LOD mode, then the texture buffer (the rest). */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lockstep/r500_txu.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    size_t head = R500_TXR_COUNT * 4 + 20 * 4 + 1;
    if (size < head)
        return 0;
    r500_tx_state s;
    memset(&s, 0, sizeof s);
    unsigned unit = data[0] & 15u;
    for (int r = 0; r < R500_TXR_COUNT; r++)
        memcpy(&s.reg[r][r == R500_TXR_FILTER4 || r == R500_TXR_ENABLE ? 0 : unit], data + 4 * r, 4);
    static float coord[4][R500_TEX_MAX_LANES], out[4][R500_TEX_MAX_LANES],
        lod[R500_TEX_MAX_LANES];
    for (int k = 0; k < 4; k++)
        for (int l = 0; l < 4; l++)
            memcpy(&coord[k][l], data + R500_TXR_COUNT * 4 + 4 * (4 * k + l), 4);
    for (int l = 0; l < 4; l++)
        memcpy(&lod[l], data + R500_TXR_COUNT * 4 + 64 + 4 * l, 4);
    r500_tex_lod_mode mode = (r500_tex_lod_mode)(data[head - 1] % 4);
    size_t n = size - head;
    /* a heap copy of exactly n bytes, so ASan sees any read past it */
    uint8_t *buf = malloc(n ? n : 1);
    if (!buf)
        return 0;
    memcpy(buf, data + head, n);
    r500_txu t;
    ls_diag d;
    if (r500_txu_bind(&t, &s, unit, buf, n, NULL, &d) == LS_OK) {
        static const uint8_t quad[4][4] = {{0, 1, 2, 3}, {0, 1, 2, 3}, {0, 1, 2, 3}, {0, 1, 2, 3}};
        r500_tex_request rq = {.n = 4, .mask = 15, .quad = quad, .lod_mode = mode,
                               .coord = coord, .lod = lod, .ddx = coord, .ddy = coord,
                               .out = out, .unscaled = (data[1] & 1) != 0};
        if (r500_txu_sample(&t, &rq, &d) != LS_OK)
            abort();
    }
    free(buf);
    return 0;
}
