/* The equality the differential tests of the EMC array check: every part of
 * the architectural state in the list of src/pp5/model/emc_state.h, read from
 * the accelerator (pp5_emc_*) and the model (emc_ref_*) — a part added to the
 * list is compared without editing this file. */
#ifndef LOCKSTEP_TESTS_PP5_EMC_EQUAL_H
#define LOCKSTEP_TESTS_PP5_EMC_EQUAL_H
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include "lockstep/pp5_emc.h"
#include "pp5/model/emc_ref.h"
#include "pp5/model/emc_state.h"
#ifdef PP5_PLANTED_FIELD /* (the accelerator's accessor of the planted part: src/pp5/accel/emc_planes.c) */
uint64_t pp5_emc_planted(const pp5_emc *e);
#endif

/* Plane `which` of both arrays (a, b: scratch of nw words); index: the
 * plane's index within its list entry, or -1. */
static inline bool emc_plane_equal(const pp5_emc *f, const emc_ref *r, const char *name, int which, int index,
                                   uint64_t *a, uint64_t *b, size_t nw, int w, char *why, size_t n)
{
    pp5_emc_plane(f, which, a);
    emc_ref_plane(r, which, b);
    for (size_t i = 0; i < nw; i++)
        if (a[i] != b[i]) {
            int p = (int)(i * 64) + __builtin_ctzll(a[i] ^ b[i]);
            char ix[16] = "";
            if (index >= 0) snprintf(ix, sizeof ix, " %d", index);
            snprintf(why, n, "%s%s differs at pixel (%d, %d): fast %d, model %d", name, ix, p % w, p / w,
                     (int)(a[i] >> (p & 63) & 1), (int)(b[i] >> (p & 63) & 1));
            return false;
        }
    return true;
}

#define EMC_EQ_PLANES(name, count, which)                                                                   \
    for (int i_ = 0; ok && i_ < (count); i_++)                                                               \
        ok = emc_plane_equal(f, r, #name, (which) + i_, i_, a, b, nw, w, why, n);
#define EMC_EQ_PLANE(name, count, which)                                                                    \
    if (ok && (with_carry || (which) != PP5_EMC_PLANE_CARRY))                                                \
        ok = emc_plane_equal(f, r, #name, (which), -1, a, b, nw, w, why, n);
#define EMC_EQ_CHIP(name, count, which)                                                                     \
    for (int k_ = 0; ok && k_ < pp5_emc_chips(f); k_++)                                                      \
        if ((uint64_t)pp5_emc_##name(f, k_) != (uint64_t)emc_ref_##name(r, k_)) {                            \
            snprintf(why, n, "%s of chip %d: fast %#llx, model %#llx", #name, k_,                            \
                     (unsigned long long)pp5_emc_##name(f, k_), (unsigned long long)emc_ref_##name(r, k_));  \
            ok = false;                                                                                      \
        }
#define EMC_EQ_COUNTS(name, count, which)                                                                   \
    for (int i_ = 0; ok && i_ < (count); i_++)                                                               \
        if ((uint64_t)pp5_emc_##name(f, i_) != (uint64_t)emc_ref_##name(r, i_)) {                            \
            snprintf(why, n, "%s[%d]: fast %llu, model %llu", #name, i_,                                     \
                     (unsigned long long)pp5_emc_##name(f, i_), (unsigned long long)emc_ref_##name(r, i_));  \
            ok = false;                                                                                      \
        }
#define EMC_EQ_COUNT(name, count, which)                                                                    \
    if (ok && (uint64_t)pp5_emc_##name(f) != (uint64_t)emc_ref_##name(r)) {                                  \
        snprintf(why, n, "%s: fast %llu, model %llu", #name, (unsigned long long)pp5_emc_##name(f),          \
                 (unsigned long long)emc_ref_##name(r));                                                     \
        ok = false;                                                                                          \
    }
#define EMC_EQ(kind, name, count, which) EMC_EQ_##kind(name, count, which)

/* True when every listed part of the two arrays' state is the same (Carry
 * only with with_carry); else false with the first difference in why. */
static inline bool emc_state_equal(const pp5_emc *f, const emc_ref *r, bool with_carry, char *why, size_t n)
{
    const int w = pp5_emc_width(f), h = pp5_emc_height(f);
    const size_t nw = (size_t)w * (size_t)h / 64;
    uint64_t *a = malloc(nw * 8), *b = malloc(nw * 8);
    bool ok = a && b;
    if (!ok) snprintf(why, n, "out of memory");
    PP5_EMC_STATE(EMC_EQ)
    free(a);
    free(b);
    return ok;
}
#endif
