/* Pixel-Planes 5 EMC array: the architectural state, declared once.
 *
 * Each entry X(kind, name, count, which) is one part of the state as both
 * arrays expose it — the model (emc_ref_<name>, src/pp5/model/emc_ref.c) and
 * the accelerator (pp5_emc_<name>, src/pp5/accel/emc_*.c) — so everything that
 * must visit every part is made from this list and a part added here is
 * visited without further work: the differential test's comparison
 * (tests/pp5/emc_equal.h, pp5/emc-diff) reads both arrays through it.
 * kind:
 *   PLANES  count bit planes over the array, read as *_plane(e, which + i, out)
 *           (row-major pixels, p = y·width + x, bit p%64 of word p/64);
 *   PLANE   one such plane (which: PP5_EMC_PLANE_*);
 *   CHIP    a 22-bit register a chip, *_<name>(e, k);
 *   COUNTS  count counters, *_<name>(e, i);
 *   COUNT   one counter, *_<name>(e).
 * Not a public header. */
#ifndef LOCKSTEP_PP5_MODEL_EMC_STATE_H
#define LOCKSTEP_PP5_MODEL_EMC_STATE_H
#include "lockstep/pp5_emc.h"

#ifdef PP5_PLANTED_FIELD /* tests/pp5: a part only the model keeps up */
#define PP5_EMC_PLANTED(X) X(COUNT, planted, 1, 0)
uint64_t emc_ref_planted(const struct emc_ref *e);
#else
#define PP5_EMC_PLANTED(X)
#endif

#define PP5_EMC_STATE(X)                                                               \
    X(PLANES, mem, PP5_EMC_MEM_BITS, 0)  /* pixel memory, bit a of every pixel */        \
    X(PLANE, enable, 1, PP5_EMC_PLANE_E) /* Enable */                                     \
    X(PLANE, carry, 1, PP5_EMC_PLANE_CARRY) /* Carry */                                   \
    X(CHIP, config, 1, 0)                /* configuration register (origin, A-14) */     \
    X(COUNTS, extop_count, 6, 0)         /* ExtOp strobes (A-23) */                      \
    X(COUNT, warning_count, 1, 0)        /* model warnings */                            \
    X(COUNT, sets, 1, 0)                 /* coefficient sets started (QEE) */            \
    PP5_EMC_PLANTED(X)
#endif
