/* Lane masks: one bit per pixel ("lane") of a SIMD thread, up to 64 lanes.
 * Shared by the R500 thread interpreter (active/covered/branch masks) and the
 * PP5 pixel array (bit-planes are arrays of these words). */
#ifndef LOCKSTEP_LANES_H
#define LOCKSTEP_LANES_H

#include <stdbool.h>
#include <stdint.h>

typedef uint64_t ls_lanes;

/* Mask with the low n lanes set, n in 0..64. */
static inline ls_lanes ls_lanes_first(unsigned n)
{
    return n >= 64 ? ~(ls_lanes)0 : (((ls_lanes)1 << n) - 1);
}

static inline unsigned ls_lanes_count(ls_lanes m)
{
#if defined(__POPCNT__) || !(defined(__x86_64__) || defined(__i386__))
    return (unsigned)__builtin_popcountll(m);
#else
    /* x86 without POPCNT in the target (the default x86-64): the builtin
     * would be a call into libgcc; the same count in a few instructions */
    m = m - ((m >> 1) & 0x5555555555555555u);
    m = (m & 0x3333333333333333u) + ((m >> 2) & 0x3333333333333333u);
    m = (m + (m >> 4)) & 0x0f0f0f0f0f0f0f0fu;
    return (unsigned)((m * 0x0101010101010101u) >> 56);
#endif
}

static inline bool ls_lanes_has(ls_lanes m, unsigned lane)
{
    return (m >> lane) & 1u;
}

/* Index of the lowest set lane; m must be non-zero. */
static inline unsigned ls_lanes_lowest(ls_lanes m)
{
    return (unsigned)__builtin_ctzll(m);
}

/* Iterate set lanes: for (ls_lanes it = m; it; it &= it - 1) { unsigned l = ls_lanes_lowest(it); } */
#define LS_LANES_FOREACH(var, mask)                                                            \
    for (ls_lanes var##_it_ = (mask); var##_it_; var##_it_ &= var##_it_ - 1)                  \
        for (unsigned var = ls_lanes_lowest(var##_it_), var##_once_ = 1; var##_once_;         \
             var##_once_ = 0)

#endif
