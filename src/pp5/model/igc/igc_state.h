/* Pixel-Planes 5 IGC: the architectural state, declared once.
 *
 * Each module's state (seed 003 §IV.3.3) is a list X(kind, type, name, count,
 * signal) of its fields; igc_internal.h makes the module structs from the lists
 * (PP5_STATE_DECL), and everything that must visit every field is made from the
 * same lists, so a field added to a list is visited without further work:
 *   - pp5_state_diff_<type>() (PP5_STATE_DIFF_FN below): the first field on
 *     which two states differ, as a path ("ser.cs[2].tok: full 5, fast 6") —
 *     the differential tests' comparison of the full and the fast step;
 *   - the signal table (PP5_SIGNAL_TABLE: name, width, kind of every named
 *     signal) and the signals' values (pp5_sigval_<type>(), PP5_SIGVAL_FN),
 *     which --trace, --wave, the VCD and the viewer's recording read
 *     (signals.c).
 * kind: V a value, A an array of count values, S a struct (of a listed type,
 * whose list PP5_LIST_<type> names), SA an array of count structs.
 * signal: what the field shows as named signals (seed names; pins first):
 *   NOSIG                  none;
 *   SIG(rank, name, width) an internal signal, the field's value;
 *   PINSIG(rank, ...)      the same for a pin;
 *   SIGLIST(L)             several, or a function of the field: L(Y) lists
 *                          Y(rank, name, width, kind, when, value), value an
 *                          expression of a (the struct holding the field) read
 *                          when `when` holds (pidx: the struct's index in an
 *                          array of structs, 0 otherwise).
 * rank is the signal's place in the table (0, 1, …: the order of --trace and
 * the VCD; a rank given twice is an initializer overridden, an error; a rank
 * left out is a row without a name, which pp5/igc's test_signal_table
 * catches). Not a public header. */
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
#define PP5_STATE_DECL(k, t, f, n, sig) PP5_DECL_##k(t, f, n)

/* ---- the public types that module state holds (lockstep/pp5.h declares
 * them; their lists are kept here, checked against the struct sizes) ---- */
#define PP5_HOST_IN_STATE(X)                                                             \
    X(V, bool, wr_en, 1, NOSIG)                                                          \
    X(V, uint8_t, t, 1, NOSIG)                                                           \
    X(V, uint32_t, d, 1, NOSIG)                                                          \
    X(V, bool, go, 1, NOSIG)                                                             \
    X(V, bool, st1, 1, NOSIG)                                                            \
    X(V, bool, st2, 1, NOSIG)                                                            \
    X(V, bool, reset, 1, NOSIG)                                                          \
    X(V, bool, test_oe, 1, NOSIG)                                                        \
    X(V, bool, test_pe, 1, NOSIG)
#define PP5_PINS_STATE(X)                                                                \
    X(V, uint64_t, cycle, 1, NOSIG)                                                      \
    X(V, uint8_t, acmp, 1, PINSIG(1, "ACmp", 1))                                         \
    X(V, uint8_t, agts_s, 1, PINSIG(2, "AGtsS", 1))                                      \
    X(V, uint8_t, agts_t, 1, PINSIG(3, "AGtsT", 1))                                      \
    X(V, uint8_t, bcmp, 1, PINSIG(4, "BCmp", 1))                                         \
    X(V, uint8_t, bgts_e, 1, PINSIG(5, "BGtsE", 1))                                      \
    X(V, uint8_t, bgts_m, 1, PINSIG(6, "BGtsM", 1))                                      \
    X(V, uint8_t, ccmp, 1, PINSIG(7, "CCmp", 1))                                         \
    X(V, uint8_t, cgts_c, 1, PINSIG(8, "CGtsC", 1))                                      \
    X(V, uint8_t, ldc, 1, PINSIG(9, "LdC", 1))                                           \
    X(V, uint8_t, lde, 1, PINSIG(10, "LdE", 1))                                          \
    X(V, uint8_t, mwrt, 1, PINSIG(11, "MWrt", 1))                                        \
    X(V, uint8_t, extop, 1, PINSIG(22, "ExtOp", 6))                                      \
    X(V, uint8_t, config_mode, 1, PINSIG(24, "Config", 1))                               \
    X(V, uint8_t, pair, 1, PINSIG(25, "Pair", 1))                                        \
    X(V, uint8_t, redundant, 1, NOSIG)                                                   \
    X(A, uint8_t, dat, 6, SIGLIST(PP5_PINS_DAT_SIGNALS))                                 \
    X(V, uint8_t, lsb, 1, PINSIG(20, "LSB", 1))                                          \
    X(V, uint8_t, addr_l, 1, PINSIG(12, "AddrL", 8))                                     \
    X(V, uint8_t, addr_h, 1, PINSIG(13, "AddrH", 8))                                     \
    X(V, uint8_t, trst, 1, PINSIG(21, "TrSt", 1))                                        \
    X(V, uint8_t, aludat, 1, PINSIG(23, "ALUDat", 1))                                    \
    X(V, uint8_t, busy, 1, PINSIG(0, "Busy", 1))                                         \
    X(V, uint8_t, d_out_en, 1, PINSIG(26, "TestPE", 1))                                  \
    X(V, uint32_t, d_out, 1, SIGLIST(PP5_PINS_DOUT_SIGNALS))
/* The signals of pp5_pins (with the PINSIG entries above) */
#define PP5_PINS_DAT_SIGNALS(Y)                                                        \
    Y(14, "ADat", 1, PP5_SIG_PIN, 1, a->dat[0]) Y(15, "BDat", 1, PP5_SIG_PIN, 1, a->dat[1]) \
    Y(16, "CDat", 1, PP5_SIG_PIN, 1, a->dat[2]) Y(17, "DDat", 1, PP5_SIG_PIN, 1, a->dat[3]) \
    Y(18, "EDat", 1, PP5_SIG_PIN, 1, a->dat[4]) Y(19, "FDat", 1, PP5_SIG_PIN, 1, a->dat[5])
/* (D<0:31> is driven only with TestPE) */
#define PP5_PINS_DOUT_SIGNALS(Y) Y(27, "DOut", 32, PP5_SIG_PIN, 1, a->d_out_en ? a->d_out : 0u)
#define PP5_LIST_pp5_host_in PP5_HOST_IN_STATE
#define PP5_LIST_pp5_pins PP5_PINS_STATE
/* (a field added to pp5_pins or pp5_host_in changes its size: add it above too) */
#define PP5_SIZE_V(t, f, n) + sizeof(t)
#define PP5_SIZE_A(t, f, n) + sizeof(t) * (n)
#define PP5_SIZE(k, t, f, n, sig) PP5_SIZE_##k(t, f, n)
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
#define PP5_STATE_DIFF(k, t, f, c, sig) PP5_DIFF_##k(t, f, c)
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

/* ---- the signals (see the top of this file) ---- */
#if defined(NOSIG) || defined(SIG) || defined(PINSIG) || defined(SIGLIST)
#error "NOSIG, SIG, PINSIG, SIGLIST are the state lists' signal tokens, not macros"
#endif
/* the table's rows: PP5_SIGROW_<annotation> */
#define PP5_SIGROW_NOSIG
#define PP5_SIGROW_SIG(r, nm, w) [r] = {nm, w, PP5_SIG_INTERNAL},
#define PP5_SIGROW_PINSIG(r, nm, w) [r] = {nm, w, PP5_SIG_PIN},
#define PP5_SIGROW_SIGLIST(L) L(PP5_SIGROW_Y)
#define PP5_SIGROW_Y(r, nm, w, kind, when, v) [r] = {nm, w, kind},
/* the rows of every field, nested structs included (one macro a depth: a
 * macro does not expand inside itself) */
#define PP5_SIGTAB0(k, t, f, n, sig) PP5_SIGROW_##sig PP5_SIGTAB0_##k(t)
#define PP5_SIGTAB0_V(t)
#define PP5_SIGTAB0_A(t)
#define PP5_SIGTAB0_S(t) PP5_LIST_##t(PP5_SIGTAB1)
#define PP5_SIGTAB0_SA(t) PP5_LIST_##t(PP5_SIGTAB1)
#define PP5_SIGTAB1(k, t, f, n, sig) PP5_SIGROW_##sig PP5_SIGTAB1_##k(t)
#define PP5_SIGTAB1_V(t)
#define PP5_SIGTAB1_A(t)
#define PP5_SIGTAB1_S(t) PP5_LIST_##t(PP5_SIGTAB2)
#define PP5_SIGTAB1_SA(t) PP5_LIST_##t(PP5_SIGTAB2)
#define PP5_SIGTAB2(k, t, f, n, sig) PP5_SIGROW_##sig PP5_SIGTAB2_##k(t)
#define PP5_SIGTAB2_V(t)
#define PP5_SIGTAB2_A(t)
#define PP5_SIGTAB2_S(t) PP5_LIST_##t(PP5_SIGTAB3)
#define PP5_SIGTAB2_SA(t) PP5_LIST_##t(PP5_SIGTAB3)
#define PP5_SIGTAB3(k, t, f, n, sig) PP5_SIGROW_##sig PP5_SIGTAB3_##k(t)
#define PP5_SIGTAB3_V(t)
#define PP5_SIGTAB3_A(t)
/* (S or SA at depth 4: PP5_SIGTAB3_S is not defined, a compile error — add a depth) */
/* The table, as the initializer of a pp5_signal_info array: every signal of
 * the state list LIST, at its rank. */
#define PP5_SIGNAL_TABLE(LIST) {LIST(PP5_SIGTAB0)}

/* the values: out[rank] = value, by a walk of the state */
#define PP5_SIGV_CALL(f, x) PP5_SIGV_CALL_(f, x)
#define PP5_SIGV_CALL_(f, how, ...) PP5_SIGV_##how(f, __VA_ARGS__)
#define PP5_SIGV_NOSIG NONE, 0
#define PP5_SIGV_SIG(r, nm, w) ONE, r
#define PP5_SIGV_PINSIG(r, nm, w) ONE, r
#define PP5_SIGV_SIGLIST(L) LIST, L
#define PP5_SIGV_NONE(f, r)
#define PP5_SIGV_ONE(f, r) out[r] = (uint64_t)a->f;
#define PP5_SIGV_LIST(f, L) L(PP5_SIGV_Y)
#define PP5_SIGV_Y(r, nm, w, kind, when, v)                                              \
    if (when)                                                                          \
        out[r] = (uint64_t)(v);
#define PP5_SIGVAL_V(t, f, c)
#define PP5_SIGVAL_A(t, f, c)
#define PP5_SIGVAL_S(t, f, c) pp5_sigval_##t(&a->f, 0, out);
#define PP5_SIGVAL_SA(t, f, c)                                                         \
    for (size_t i_ = 0; i_ < (c); i_++)                                                \
        pp5_sigval_##t(&a->f[i_], i_, out);
#define PP5_SIGVAL(k, t, f, c, sig) PP5_SIGV_CALL(f, PP5_SIGV_##sig) PP5_SIGVAL_##k(t, f, c)
/* void pp5_sigval_<type>(a, pidx, out): the values of the signals of *a (and
 * of the structs it holds) into out[rank]. */
#define PP5_SIGVAL_FN(type, LIST)                                                      \
    static inline void pp5_sigval_##type(const type *a, size_t pidx, uint64_t *out)    \
    {                                                                                  \
        (void)a, (void)pidx, (void)out;                                                \
        LIST(PP5_SIGVAL)                                                               \
    }
#endif
