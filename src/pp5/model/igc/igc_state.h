/* Pixel-Planes 5 IGC: the architectural state, declared once.
 *
 * Each module's state (seed 003 §IV.3.3) is a list X(kind, type, name, count)
 * of its fields; igc_internal.h makes the module structs from the lists
 * (PP5_STATE_DECL), and everything that must visit every field is made from the
 * same lists, so a field added to a list is visited without further work:
 *   - pp5_state_diff_<type>() (PP5_STATE_DIFF_FN below): the first field on
 *     which two states differ, as a path ("ser.cs[2].tok: full 5, fast 6") —
 *     the differential tests' comparison of the full and the fast step.
 * kind: V a value, A an array of count values, S a struct (of a listed type),
 * SA an array of count structs. Not a public header. */
#ifndef LOCKSTEP_PP5_IGC_STATE_H
#define LOCKSTEP_PP5_IGC_STATE_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "lockstep/pp5.h"

/* ---- declaring a struct from a list ---- */
#define PP5_DECL_V(t, f, n) t f;
#define PP5_DECL_A(t, f, n) t f[n];
#define PP5_DECL_S(t, f, n) t f;
#define PP5_DECL_SA(t, f, n) t f[n];
#define PP5_STATE_DECL(k, t, f, n) PP5_DECL_##k(t, f, n)

/* ---- the public types that module state holds (lockstep/pp5.h declares
 * them; their lists are kept here, checked against the struct sizes) ---- */
#define PP5_HOST_IN_STATE(X)                                                           \
    X(V, bool, wr_en, 1) X(V, uint8_t, t, 1) X(V, uint32_t, d, 1) X(V, bool, go, 1)    \
    X(V, bool, st1, 1) X(V, bool, st2, 1) X(V, bool, reset, 1) X(V, bool, test_oe, 1)  \
    X(V, bool, test_pe, 1)
#define PP5_PINS_STATE(X)                                                              \
    X(V, uint64_t, cycle, 1) X(V, uint8_t, acmp, 1) X(V, uint8_t, agts_s, 1)           \
    X(V, uint8_t, agts_t, 1) X(V, uint8_t, bcmp, 1) X(V, uint8_t, bgts_e, 1)           \
    X(V, uint8_t, bgts_m, 1) X(V, uint8_t, ccmp, 1) X(V, uint8_t, cgts_c, 1)           \
    X(V, uint8_t, ldc, 1) X(V, uint8_t, lde, 1) X(V, uint8_t, mwrt, 1)                 \
    X(V, uint8_t, extop, 1) X(V, uint8_t, config_mode, 1) X(V, uint8_t, pair, 1)       \
    X(V, uint8_t, redundant, 1) X(A, uint8_t, dat, 6) X(V, uint8_t, lsb, 1)            \
    X(V, uint8_t, addr_l, 1) X(V, uint8_t, addr_h, 1) X(V, uint8_t, trst, 1)           \
    X(V, uint8_t, aludat, 1) X(V, uint8_t, busy, 1) X(V, uint8_t, d_out_en, 1)         \
    X(V, uint32_t, d_out, 1)
/* (a field added to pp5_pins or pp5_host_in changes its size: add it above too) */
#define PP5_SIZE_V(t, f, n) + sizeof(t)
#define PP5_SIZE_A(t, f, n) + sizeof(t) * (n)
#define PP5_SIZE(k, t, f, n) PP5_SIZE_##k(t, f, n)
_Static_assert(sizeof(pp5_pins) == 0 PP5_PINS_STATE(PP5_SIZE),
               "pp5_pins changed: update PP5_PINS_STATE");
_Static_assert(sizeof(pp5_host_in) == 16 && offsetof(pp5_host_in, test_pe) == 13,
               "pp5_host_in changed: update PP5_HOST_IN_STATE");

/* ---- comparing two states field by field ---- */
#define PP5_DIFF_MSG(f, i, va, vb)                                                     \
    (void)snprintf(why, n, "%s%s%s: full %lld, fast %lld", path, #f, i, (long long)(va),      \
             (long long)(vb))
#define PP5_DIFF_V(t, f, c)                                                            \
    if (a->f != b->f) {                                                                \
        PP5_DIFF_MSG(f, "", a->f, b->f);                                               \
        return false;                                                                  \
    }
#define PP5_DIFF_A(t, f, c)                                                            \
    for (size_t i_ = 0; i_ < (c); i_++)                                                \
        if (a->f[i_] != b->f[i_]) {                                                    \
            char ix_[24];                                                              \
            snprintf(ix_, sizeof ix_, "[%zu]", i_);                                    \
            PP5_DIFF_MSG(f, ix_, a->f[i_], b->f[i_]);                                  \
            return false;                                                              \
        }
#define PP5_DIFF_S(t, f, c)                                                            \
    {                                                                                  \
        char p_[160];                                                                  \
        if (snprintf(p_, sizeof p_, "%s%s.", path, #f) < 0) /* (truncation: fine) */  \
            p_[0] = 0;                                                                 \
        if (!pp5_state_diff_##t(&a->f, &b->f, why, n, p_))                             \
            return false;                                                              \
    }
#define PP5_DIFF_SA(t, f, c)                                                           \
    for (size_t i_ = 0; i_ < (c); i_++) {                                              \
        char p_[160];                                                                  \
        if (snprintf(p_, sizeof p_, "%s%s[%zu].", path, #f, i_) < 0)                  \
            p_[0] = 0;                                                                 \
        if (!pp5_state_diff_##t(&a->f[i_], &b->f[i_], why, n, p_))                     \
            return false;                                                              \
    }
#define PP5_STATE_DIFF(k, t, f, c) PP5_DIFF_##k(t, f, c)
/* bool pp5_state_diff_<type>(a, b, why, n, path): true when equal, else false
 * with the first differing field's path and values in why. */
#define PP5_STATE_DIFF_FN(type, LIST)                                                  \
    static inline bool pp5_state_diff_##type(const type *a, const type *b, char *why,  \
                                             size_t n, const char *path)               \
    {                                                                                  \
        (void)why, (void)n, (void)path;                                                \
        LIST(PP5_STATE_DIFF)                                                           \
        return true;                                                                   \
    }
#endif
