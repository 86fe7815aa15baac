/* lockstep — Pixel-Planes 5 EMC pixel array (Enhanced Memory Chips), public API.
 *
 * Source: spec/seeds/003 (OutputLatch, Serializer, CSBLatch, TRRShifter) and the
 * digest spec/pp5.md §2 (the EMC) with assumptions A-8…A-19. The array is
 * driven by the IGC output pins (pp5_pins, with the OutputLatch delays) one
 * clock at a time. Pixel memory is kept as bit-planes (plane a holds bit a of
 * every pixel), stored chip by chip inside; pp5_emc_plane gives a whole plane
 * in row-major order (pixel p = y·width + x, x, y local). Speed and layout:
 * docs/pp5-render.md, "Speed".
 * Model choices are fields of pp5_emc_options, documented in docs/assumptions.md
 * ("PP5: EMC array, QEE and renderer").
 */
#ifndef LOCKSTEP_PP5_EMC_H
#define LOCKSTEP_PP5_EMC_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "lockstep/pp5.h"
#include "lockstep/status.h"
#ifdef __cplusplus
extern "C" {
#endif

enum {
    PP5_EMC_MEM_BITS = 208,     /* PP5-89: 208 bits of pixel memory per pixel */
    PP5_EMC_ADDRS = 256,        /* Addr<0:7> */
    PP5_EMC_PLANE_E = 256,      /* pp5_emc_plane: the Enable register */
    PP5_EMC_PLANE_CARRY = 257,  /* pp5_emc_plane: the Carry register */
};

/* S source. */
typedef enum pp5_s_source {
    PP5_S_PREV_READ = 0,        /* default: the memory bit read on the previous microcycle */
    PP5_S_PREV_SUM,             /* alternative: the previous ALU sum */
} pp5_s_source;

typedef struct pp5_emc_options {
    int tile_w, tile_h;         /* pixels per EMC (16 × 16) */
    int chips_x, chips_y;       /* EMCs per row/column (8 × 8); chip k = chips_x·ty + tx */
    /* ALU truth tables, indexed by (A<<2)|(B<<1)|C: bit i = output for input i.
     * sum (to memory) default 0x96 = A⊕B⊕C; carry (to Carry and Enable) 0xE8 = maj. */
    uint8_t sum_table, carry_table, enable_table;
    bool mwrt_gated_by_e;       /* memory writes only where E = 1 (default true) */
    bool loads_gated_by_e;      /* A-11 alternative: LdC/LdE also gated (default false) */
    pp5_s_source s_source;      /* */
    int qee_latency;            /* shifts from coefficient bit k to result bit k in R_T
                                 * (22 = 25 − 3: result bit k enters R_T at the end of
                                 * s = 25 + k, coefficient bit k is consumed at s = 3 + k) */
    bool config_origin_full;    /* config holds full 11-bit X0/Y0 (default); false:
                                 * only the bits above the tile size count (origins are
                                 * multiples of the tile size; power-of-two tiles) */
} pp5_emc_options;

void pp5_emc_options_default(pp5_emc_options *o);

typedef struct pp5_emc pp5_emc;

/* Each chip's config register starts as the A-15 layout origin
 * (X0 = tile_w·tx, Y0 = tile_h·ty), i.e. the array at screen (0, 0). */
ls_status pp5_emc_create(pp5_emc **out, const pp5_emc_options *opt, ls_diag *d);
void pp5_emc_destroy(pp5_emc *e);

/* One clock with the IGC pins of that clock. */
void pp5_emc_step(pp5_emc *e, const pp5_pins *p);
/* n clocks, pins[0..n) in order: exactly n calls of pp5_emc_step (same state
 * after the last one, for every geometry and option). The array looks ahead
 * within the block: with the defaults and 256-pixel (four-word)
 * chips it runs the words between two Enable loads (other than E ← E ∧ f
 * loads without T, which it runs through) chip by chip instead of clock by clock (docs/pp5-render.md, "Speed"); other options step inside.
 * The renderer hands it the IGC's pins a block at a time when nobody
 * observes the clocks in between. pins must stay valid for the call only
 * (the pins are decoded during the call; the words of the last segment may
 * be run later — by the next pp5_emc_run, pp5_emc_step or any accessor below,
 * which is why the const ones may modify the array's private state). */
void pp5_emc_run(pp5_emc *e, const pp5_pins *pins, size_t n);
/* Apply the Carry updates the array defers on chips whose Enable is all 0
 * (an optimisation: the accessors below do this themselves when they read
 * Carry, which is why they may modify the array's private state). */
void pp5_emc_sync(pp5_emc *e);

int pp5_emc_width(const pp5_emc *e);
int pp5_emc_height(const pp5_emc *e);
int pp5_emc_chips(const pp5_emc *e);
/* Bit a of local pixel (x, y); E, Carry registers. */
int pp5_emc_mem_bit(const pp5_emc *e, int x, int y, int a);
/* Unsigned field of len bits at address a (LSB at a). */
uint64_t pp5_emc_field(const pp5_emc *e, int x, int y, int a, int len);
void pp5_emc_set_field(pp5_emc *e, int x, int y, int a, int len, uint64_t v);
int pp5_emc_enable(const pp5_emc *e, int x, int y);
int pp5_emc_carry(const pp5_emc *e, int x, int y);
/* Chip k's 22-bit configuration register (A-14: X0<0:10>, Y0<0:10>). */
uint32_t pp5_emc_config(const pp5_emc *e, int k);
void pp5_emc_set_config(pp5_emc *e, int k, uint32_t v);
/* ExtOp strobes seen, per index 0..5 (A-23: logged). */
uint64_t pp5_emc_extop_count(const pp5_emc *e, int i);
/* A-16 warnings: accesses at addresses 208–255. */
uint64_t pp5_emc_warning_count(const pp5_emc *e);
/* Coefficient sets received (LSB tokens seen). */
uint64_t pp5_emc_sets(const pp5_emc *e);
/* One whole plane in row-major pixel order: bit p % 64 of out[p / 64] is pixel
 * p = y·width + x; which = 0..207 (memory), PP5_EMC_PLANE_E or
 * PP5_EMC_PLANE_CARRY (anything else reads 0). out holds width·height/64 words. */
void pp5_emc_plane(const pp5_emc *e, int which, uint64_t *out);
/* An n-bit field (n = 0..8) as one byte per pixel in row-major order (out[y·width
 * + x]): bit b of the byte is memory bit first + b of the pixel (bits outside
 * 0..207, and bits b >= n, read 0). out holds width·height bytes. */
void pp5_emc_field8(const pp5_emc *e, int first, int n, uint8_t *out);

#ifdef __cplusplus
}
#endif
#endif
