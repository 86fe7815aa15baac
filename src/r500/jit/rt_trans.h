/* The R500 JIT's transcendental operations on 16 lanes at once
 * (docs/r500-jit.md, "Transcendental operations"). The model of record is
 * the interpreter's r500_alu_transcendental (alu.c), which rounds the C
 * library's double-precision exp2/log2/sin/cos to float. r500_rt_trans16
 * evaluates the same double expression with vector polynomials, rounds it to
 * float, and keeps a lane's result only where that float is certain to be
 * the interpreter's: the lane's input lies in the verified range, and both
 * ends of an error interval around the double value (wider than this file's
 * error plus the C library's) round to the same float. Every other lane
 * (special values, inputs outside the range, results near a rounding
 * boundary) is returned in the mask for the caller to compute with
 * r500_alu_transcendental itself, so its special cases and options are the
 * interpreter's, not a second copy. RCP (1.0f / a) and RSQ
 * (1.0 / sqrt((double)a)) are correctly rounded IEEE operations: the vector
 * operations are the same ones, exact for every positive finite input.
 *
 * Included by rt.c (compiled to the JIT's run-time bitcode) and by
 * tests/r500/test_trans.c (compiled natively, with the same
 * -ffp-contract=off): GNU C vector extensions, no FMA contraction, no
 * fast-math. R500_TRANS_PLANTED (tests only): 1 moves LN2's range boundary
 * one binade down, letting the largest denormal binade in (the test must
 * then fail). */
#ifndef R500_RT_TRANS_H
#define R500_RT_TRANS_H

#include <math.h>
#include <stdint.h>
#include <string.h>

#ifndef R500_TRANS_PLANTED
#define R500_TRANS_PLANTED 0
#endif

typedef float r500_tv_f __attribute__((vector_size(64)));
typedef int32_t r500_tv_i __attribute__((vector_size(64)));
typedef double r500_tv_d __attribute__((vector_size(128)));
typedef int64_t r500_tv_l __attribute__((vector_size(128)));
/* Integer arithmetic on bit patterns wraps (lanes out of range carry any bits). */
typedef uint64_t r500_tv_u __attribute__((vector_size(128)));

/* (macros: vectors this wide are not passed to functions, whose ABI depends
 * on the host's vector registers) */
/* bit-wise select: m's lanes all ones or all zeros */
#define R500_TV_SEL(m, a, b) ((r500_tv_d)(((r500_tv_l)(a) & (m)) | ((r500_tv_l)(b) & ~(m))))
#define R500_TV_SPLAT(v) ((r500_tv_d){0} + (v))
#define R500_TV_ABS(x) ((r500_tv_d)((r500_tv_l)(x) & INT64_MAX))

/* The relative width of the error interval: 2^-44 of the value, against
 * an error of this file's polynomials and reductions below 2^-48 of it and
 * the C library's below 2^-52 (glibc: exp2, log2, sin, cos within 1 ulp of
 * double). */
#define R500_TV_REL 0x1p-44

/* p rounded to float into r; the mask of lanes that are not certainly the
 * interpreter's: !ok, or p - e and p + e round to different floats. */
static inline uint32_t r500_tv_finish(const r500_tv_d *pp, const r500_tv_d *ep, const r500_tv_l *okp,
                                      float *r)
{
    r500_tv_d p = *pp, e = *ep;
    r500_tv_l ok = *okp;
    r500_tv_f f = __builtin_convertvector(p, r500_tv_f);
    r500_tv_f lo = __builtin_convertvector(p - e, r500_tv_f);
    r500_tv_f hi = __builtin_convertvector(p + e, r500_tv_f);
    r500_tv_i good = (lo == f) & (hi == f) & __builtin_convertvector(ok, r500_tv_i);
    memcpy(r, &f, sizeof f);
    uint32_t m = 0;
    for (unsigned i = 0; i < 16; i++)
        m |= (uint32_t)(good[i] == 0) << i;
    return m;
}

/* 0x1.8p52: adding it rounds a double below 2^51 in magnitude to an
 * integer, whose two's complement is the low bits of the sum's bits */
#define R500_TV_RND 0x1.8p52

/* SIN/COS: alu.c evaluates sin/cos(2.0 * M_PI * (double)a). The same x;
 * x = k*pi/2 + y with Cody-Waite's reduction (pi/2 = P1 + P2 + P3 + 2^-123:
 * P1, P2 of 33 bits, so k*P1 and k*P2 are exact for |k| < 2^20 and x - k*P1
 * is exact by Sterbenz's lemma); |a| <= 2^16 keeps |k| < 2^18. The error of
 * y is below 2^-51 |y| + 2^-102 (the rounding of the two later steps and the
 * tail), hence the absolute term 2^-96 of the interval where k != 0 (k = 0:
 * y = x exactly). sin y to y^15 and cos y to y^16 (Taylor, |y| <= pi/4 +
 * a rounding: truncation below 2^-53); sin y as y (1 + ...), which keeps
 * the sign of a zero. */
static inline uint32_t r500_tv_sincos(const float *a, float *r, int cosine)
{
    r500_tv_f af;
    memcpy(&af, a, sizeof af);
    r500_tv_d ad = __builtin_convertvector(af, r500_tv_d);
    r500_tv_l ok = R500_TV_ABS(ad) <= 65536.0;
    r500_tv_d x = 2.0 * M_PI * ad;
    r500_tv_d t = x * 0x1.45f306dc9c883p-1 + R500_TV_RND; /* 2/pi */
    r500_tv_d k = t - R500_TV_RND;
    r500_tv_l q = (r500_tv_l)((r500_tv_u)t + (uint64_t)cosine);
    r500_tv_d y = x - k * 0x1.921fb54400000p+0;
    y = y - k * 0x1.0b4611a600000p-34;
    y = y - k * 0x1.3198a2e037073p-69;
    r500_tv_d z = y * y;
    r500_tv_d s =
        y * (1.0 + z *
                (-1.0 / 6 +
                 z * (1.0 / 120 +
                      z * (-1.0 / 5040 +
                           z * (1.0 / 362880 +
                                z * (-1.0 / 39916800 +
                                     z * (1.0 / 6227020800.0 + z * (-1.0 / 1307674368000.0))))))));
    r500_tv_d c =
        1.0 +
        z * (-1.0 / 2 +
             z * (1.0 / 24 +
                  z * (-1.0 / 720 +
                       z * (1.0 / 40320 +
                            z * (-1.0 / 3628800 +
                                 z * (1.0 / 479001600.0 +
                                      z * (-1.0 / 87178291200.0 +
                                           z * (1.0 / 20922789888000.0))))))));
    /* quadrant q mod 4: sin y, cos y, -sin y, -cos y */
    r500_tv_d p = R500_TV_SEL(-(q & 1), c, s);
    p = (r500_tv_d)((r500_tv_l)p ^ (-((q >> 1) & 1) & INT64_MIN));
    r500_tv_d e = R500_TV_ABS(p) * R500_TV_REL;
    e = e + (r500_tv_d)((r500_tv_l)R500_TV_SPLAT(0x1p-96) & (k != 0.0));
    return r500_tv_finish(&p, &e, &ok, r);
}

/* EX2: alu.c evaluates exp2((double)a). a = k + f, k an integer, |f| <=
 * 1/2 (exact); 2^f = e^(f ln 2) to the 13th power (Taylor, truncation below
 * 2^-57), times 2^k built from its bits; -160 <= a <= 130 keeps 2^k a
 * normal double (results beyond float's range round to 0 or infinity and
 * fail the interval, going to the C library). */
static inline uint32_t r500_tv_ex2(const float *a, float *r)
{
    r500_tv_f af;
    memcpy(&af, a, sizeof af);
    r500_tv_d ad = __builtin_convertvector(af, r500_tv_d);
    r500_tv_l ok = (ad >= -160.0) & (ad <= 130.0);
    r500_tv_d kr = ad + R500_TV_RND;
    r500_tv_d k = kr - R500_TV_RND;
    r500_tv_u ki = (r500_tv_u)kr - (r500_tv_u)R500_TV_SPLAT(R500_TV_RND);
    r500_tv_d t = (ad - k) * 0x1.62e42fefa39efp-1; /* ln 2 */
    r500_tv_d p =
        1.0 +
        t * (1.0 +
             t * (1.0 / 2 +
                  t * (1.0 / 6 +
                       t * (1.0 / 24 +
                            t * (1.0 / 120 +
                                 t * (1.0 / 720 +
                                      t * (1.0 / 5040 +
                                           t * (1.0 / 40320 +
                                                t * (1.0 / 362880 +
                                                     t * (1.0 / 3628800 +
                                                          t * (1.0 / 39916800 +
                                                               t * (1.0 / 479001600.0 +
                                                                    t * (1.0 / 6227020800.0)))))))))))));
    r500_tv_d sc = (r500_tv_d)(((ki + 1023) & 0x7ff) << 52);
    p = p * sc;
    r500_tv_d e = R500_TV_ABS(p) * R500_TV_REL;
    return r500_tv_finish(&p, &e, &ok, r);
}

/* LN2: alu.c evaluates log2((double)a) for a != 0. A positive normal finite
 * a = m 2^e with sqrt(1/2) <= m < sqrt(2) (from its bits); ln m = 2 atanh s,
 * s = (m - 1)/(m + 1), |s| <= 0.172, to s^19 (truncation below 2^-53);
 * log2 a = e + ln m / ln 2, |result| >= 1/2 where e != 0. */
static inline uint32_t r500_tv_lg2(const float *a, float *r)
{
    r500_tv_f af;
    memcpy(&af, a, sizeof af);
    r500_tv_i u = (r500_tv_i)af;
    #if R500_TRANS_PLANTED == 1
    r500_tv_i okf = (af >= 0x1p-127f) & (af <= 0x1.fffffep127f);
#else
    r500_tv_i okf = (af >= 0x1p-126f) & (af <= 0x1.fffffep127f);
#endif
    r500_tv_i ef = ((u >> 23) & 255) - 127;
    r500_tv_f mf = (r500_tv_f)((u & 0x7fffff) | 0x3f800000);
    r500_tv_d m = __builtin_convertvector(mf, r500_tv_d);
    r500_tv_d e = __builtin_convertvector(ef, r500_tv_d);
    r500_tv_l big = m > 0x1.6a09e667f3bcdp+0; /* sqrt 2 */
    m = R500_TV_SEL(big, m * 0.5, m);
    e = e + (r500_tv_d)((r500_tv_l)R500_TV_SPLAT(1.0) & big);
    r500_tv_d s = (m - 1.0) / (m + 1.0);
    r500_tv_d z = s * s;
    r500_tv_d l =
        2.0 * s *
        (1.0 +
         z * (1.0 / 3 +
              z * (1.0 / 5 +
                   z * (1.0 / 7 +
                        z * (1.0 / 9 +
                             z * (1.0 / 11 +
                                  z * (1.0 / 13 +
                                       z * (1.0 / 15 + z * (1.0 / 17 + z * (1.0 / 19))))))))));
    r500_tv_d p = e + l * 0x1.71547652b82fep+0; /* 1/ln 2 */
    r500_tv_d er = R500_TV_ABS(p) * R500_TV_REL;
    r500_tv_l ok = __builtin_convertvector(okf, r500_tv_l);
    return r500_tv_finish(&p, &er, &ok, r);
}

/* Lanes of ALPHA_OP aop (8 EX2, 9 LN2, 10 RCP, 11 RSQ, 12 SIN, 13 COS) of
 * a into r; the mask of lanes the caller must compute with
 * r500_alu_transcendental (their r[i] is unspecified). */
static inline uint32_t r500_rt_trans16(unsigned aop, const float *a, float *r)
{
    switch (aop) {
    case 8: return r500_tv_ex2(a, r);
    case 9: return r500_tv_lg2(a, r);
    case 10: { /* 1.0f / a; zero, infinities and NaN to the interpreter */
        r500_tv_f af;
        memcpy(&af, a, sizeof af);
        r500_tv_f aa = (r500_tv_f)((r500_tv_i)af & INT32_MAX);
        r500_tv_i ok = (aa > 0.0f) & (aa <= 0x1.fffffep127f);
        r500_tv_f f = 1.0f / af;
        memcpy(r, &f, sizeof f);
        uint32_t m = 0;
        for (unsigned i = 0; i < 16; i++)
            m |= (uint32_t)(ok[i] == 0) << i;
        return m;
    }
    case 11: { /* (float)(1.0 / sqrt((double)a)) for a > 0 finite */
        r500_tv_f af;
        memcpy(&af, a, sizeof af);
        r500_tv_i ok = (af > 0.0f) & (af <= 0x1.fffffep127f);
        r500_tv_d ad = __builtin_convertvector(af, r500_tv_d), sq;
        for (unsigned i = 0; i < 16; i++)
            sq[i] = __builtin_sqrt(ad[i]);
        r500_tv_f f = __builtin_convertvector(1.0 / sq, r500_tv_f);
        memcpy(r, &f, sizeof f);
        uint32_t m = 0;
        for (unsigned i = 0; i < 16; i++)
            m |= (uint32_t)(ok[i] == 0) << i;
        return m;
    }
    case 12: return r500_tv_sincos(a, r, 0);
    case 13: return r500_tv_sincos(a, r, 1);
    default: return 0xffffu;
    }
}

#endif
