/* pp5_emc_field8 (the renderer's read-back: a field of up to 8 bits as one
 * byte a pixel) against the array read pixel by pixel, bit by bit through
 * pp5_emc_mem_bit, on random pixel memory in several chip geometries (the
 * 16-pixel-wide chips take the transposing fast path, the others the
 * general one; the test is also built with the portable path, isa0). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../common/test_util.h"
#include "lockstep/pp5_emc.h"

static void check_geometry(int tw, int th, int cx, int cy, uint64_t *rng)
{
    pp5_emc_options o;
    pp5_emc_options_default(&o);
    o.tile_w = tw;
    o.tile_h = th;
    o.chips_x = cx;
    o.chips_y = cy;
    pp5_emc *e;
    ls_diag d;
    ls_status st = pp5_emc_create(&e, &o, &d);
    if (st != LS_OK) printf("%dx%d chips of %dx%d: %s\n", cx, cy, tw, th, d.msg);
    assert_int_equal(st, LS_OK);
    const int w = pp5_emc_width(e), h = pp5_emc_height(e);
    /* random bits in every memory bit of every pixel, 64 at a time */
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
            for (int a = 0; a < PP5_EMC_MEM_BITS; a += 64) {
                int len = PP5_EMC_MEM_BITS - a < 64 ? PP5_EMC_MEM_BITS - a : 64;
                pp5_emc_set_field(e, x, y, a, len, ls_test_rand(rng));
            }
    const size_t npix = (size_t)w * (size_t)h;
    uint8_t *out = malloc(npix + 64);
    assert_non_null(out);
    static const int firsts[] = {-9, -3, 0, 1, 17, 63, 64, 100, 200, 203, 207, 208, 1000};
    static const int ns[] = {0, 1, 3, 7, 8, 9, -1};
    size_t bad = 0;
    for (size_t fi = 0; fi < sizeof firsts / sizeof *firsts; fi++)
        for (size_t ni = 0; ni < sizeof ns / sizeof *ns; ni++) {
            const int first = firsts[fi], n = ns[ni], nb = n < 0 ? 0 : n > 8 ? 8 : n;
            memset(out, 0xa5, npix + 64);
            pp5_emc_field8(e, first, n, out);
            for (int y = 0; y < h; y++)
                for (int x = 0; x < w; x++) {
                    unsigned want = 0;
                    for (int b = 0; b < nb; b++) {
                        int a = first + b;
                        if (a >= 0 && a < PP5_EMC_MEM_BITS) want |= (unsigned)pp5_emc_mem_bit(e, x, y, a) << b;
                    }
                    unsigned got = out[(size_t)y * (size_t)w + (size_t)x];
                    if (got != want && bad++ < 5)
                        printf("%dx%d chips of %dx%d: field8(%d, %d) at (%d, %d) = 0x%02x, bit by bit 0x%02x\n",
                               cx, cy, tw, th, first, n, x, y, got, want);
                }
            for (size_t i = npix; i < npix + 64; i++)
                if (out[i] != 0xa5 && bad++ < 5) printf("field8(%d, %d) wrote past the picture\n", first, n);
        }
    assert_int_equal(bad, 0);
    free(out);
    pp5_emc_destroy(e);
}

static void test_field8(void **state)
{
    (void)state;
    uint64_t rng = ls_test_seed(0x5eed0f1e1d8ull);
    check_geometry(16, 16, 8, 8, &rng);  /* the default array: fast path */
    check_geometry(16, 16, 3, 2, &rng);
    check_geometry(16, 4, 2, 5, &rng);   /* one-word chips */
    check_geometry(16, 7, 4, 2, &rng);   /* a chip's last word partly used */
    check_geometry(8, 8, 3, 2, &rng);
    check_geometry(5, 7, 8, 8, &rng);    /* rows straddle words */
    check_geometry(64, 2, 1, 2, &rng);
    check_geometry(100, 4, 4, 4, &rng);  /* a chip row longer than a word */
    check_geometry(1, 1, 16, 4, &rng);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_field8)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
