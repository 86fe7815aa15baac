/* The JIT's vectorised transcendental operations (src/r500/jit/rt_trans.h)
 * against the model of record, alu.c's r500_alu_transcendental: every lane
 * the fast path keeps (not in its fallback mask) must carry the bits of the
 * interpreter's result. docs/r500-jit.md, "Transcendental operations".
 *
 *   test_trans              sampled (make check): special values, range and
 *                           rounding boundaries, the hard cases of
 *                           tests/r500/data/trans_hard.txt, 2^22 random bit
 *                           patterns and 2^20 inputs of [-4, 4] per op;
 *                           also: at most 1 % of [-4, 4] falls back
 *   test_trans --all [OP]   every one of the 2^32 floats (OP 8..13, default
 *                           all six); prints the hard cases (inputs in range
 *                           whose rounded double differs from the
 *                           interpreter's: the boundary test must catch them)
 *
 * Compiled with R500_TRANS_PLANTED=1 (narrow error interval) it must fail. */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lockstep/r500.h"
#include "r500/jit/rt_trans.h"

float r500_alu_transcendental(unsigned alpha_op, float a, const r500_exec_options *o);

static const char *const op_name[14] = {[8] = "EX2", [9] = "LN2", [10] = "RCP",
                                        [11] = "RSQ", [12] = "SIN", [13] = "COS"};

static uint32_t fbits(float v)
{
    uint32_t u;
    memcpy(&u, &v, 4);
    return u;
}

static float bitsf(uint32_t u)
{
    float v;
    memcpy(&v, &u, 4);
    return v;
}

typedef struct tally {
    uint64_t n, kept, wrong, hard;
} tally;

static r500_exec_options opts;

/* whether a lies in the range the fast path evaluates (for the hard cases) */
static bool in_range(unsigned aop, float a)
{
    switch (aop) {
    case 8: return a >= -160.0f && a <= 130.0f;
    case 9: return a >= 0x1p-126f && a <= 0x1.fffffep127f;
    case 12:
    case 13: return a >= -65536.0f && a <= 65536.0f;
    default: return false;
    }
}

/* 16 inputs through the fast path and, where it kept a lane, the
 * interpreter; hard: also the interpreter on fallback lanes in range */
static void check16(unsigned aop, const float *a, tally *t, bool hard, bool quiet)
{
    float r[16];
    uint32_t m = r500_rt_trans16(aop, a, r);
    for (unsigned i = 0; i < 16; i++) {
        t->n++;
        bool fb = (m >> i) & 1;
        if (fb && !(hard && in_range(aop, a[i])))
            continue;
        float ref = r500_alu_transcendental(aop, a[i], &opts);
        if (!fb) {
            t->kept++;
            if (fbits(r[i]) != fbits(ref)) {
                if (t->wrong++ < 10 && !quiet)
                    fprintf(stderr, "%s(0x%08" PRIx32 " = %.9g): fast 0x%08" PRIx32
                                    ", interpreter 0x%08" PRIx32 "\n",
                            op_name[aop], fbits(a[i]), (double)a[i], fbits(r[i]), fbits(ref));
            }
        } else if (fbits(r[i]) != fbits(ref)) {
            t->hard++;
            printf("%u %08" PRIx32 "\n", aop, fbits(a[i]));
        }
    }
}

/* a batch of inputs, in blocks of 16 (the last padded with 0) */
static void check_list(unsigned aop, const float *v, size_t n, tally *t)
{
    for (size_t i = 0; i < n; i += 16) {
        float a[16] = {0};
        for (size_t j = 0; j < 16 && i + j < n; j++)
            a[j] = v[i + j];
        check16(aop, a, t, false, false);
    }
}

static uint64_t rng = 0x9e3779b97f4a7c15u;
static uint32_t next32(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (uint32_t)(rng >> 16);
}

static int exhaustive(unsigned op0, unsigned op1)
{
    int bad = 0;
    for (unsigned aop = op0; aop <= op1; aop++) {
        tally t = {0};
        for (uint64_t u = 0; u < (1ull << 32); u += 16) {
            float a[16];
            for (unsigned i = 0; i < 16; i++)
                a[i] = bitsf((uint32_t)(u + i));
            check16(aop, a, &t, true, false);
        }
        fprintf(stderr,
                "%s: %" PRIu64 " inputs, %" PRIu64 " kept by the fast path, %" PRIu64
                " differ from the interpreter, %" PRIu64 " hard cases sent to it\n",
                op_name[aop], t.n, t.kept, t.wrong, t.hard);
        bad |= t.wrong != 0;
    }
    return bad;
}

int main(int argc, char **argv)
{
    /* the fast path's lanes do not depend on the options (their special
     * inputs fall back); the defaults of docs/assumptions.md */
    memset(&opts, 0, sizeof opts);
    if (argc >= 2 && !strcmp(argv[1], "--all")) {
        unsigned op = argc >= 3 ? (unsigned)atoi(argv[2]) : 0;
        if (op && (op < 8 || op > 13)) {
            fprintf(stderr, "usage: test_trans [--all [8..13]]\n");
            return 2;
        }
        return exhaustive(op ? op : 8, op ? op : 13);
    }
    /* special values and boundaries */
    static const uint32_t special[] = {
        0x00000000, 0x80000000, 0x00000001, 0x80000001, 0x007fffff, 0x807fffff, 0x00800000,
        0x80800000, 0x7f7fffff, 0xff7fffff, 0x7f800000, 0xff800000, 0x7fc00000, 0xffc00000,
        0x7f800001, 0xff800001, 0x7fffffff, 0xffffffff, 0x3f800000, 0xbf800000, 0x3f7fffff,
        0x3f800001, 0x47800000, 0xc7800000, 0x477fffff, 0x47800001, 0xc7800001, 0xc3200000,
        0xc3200001, 0xc31fffff, 0x43020000, 0x43020001, 0x4301ffff, 0x43000000, 0xc3150000,
        0xc3160000, 0x3f000000, 0x3e800000, 0xbf000000, 0xbe800000, 0x3fb504f3, 0x3fb504f4,
        0x3f3504f3, 0x3f3504f4, 0x33800000, 0x1f800000, 0x0c800000, 0x24000000,
    };
    size_t nsp = sizeof special / sizeof special[0];
    float *v = malloc(sizeof(float) * (1u << 22));
    if (!v)
        return 2;
    int bad = 0;
    for (unsigned aop = 8; aop <= 13; aop++) {
        tally t = {0};
        size_t n = 0;
        for (size_t i = 0; i < nsp; i++)
            v[n++] = bitsf(special[i]);
        /* integers, halves, quarters, eighths of [-300, 300] (exact points
         * of EX2, SIN, COS); powers of two and their neighbours */
        for (int k = -2400; k <= 2400; k++)
            v[n++] = (float)k / 8.0f;
        for (int e = -149; e <= 127; e++) {
            float p = ldexpf(1.0f, e);
            v[n++] = p;
            v[n++] = -p;
            v[n++] = nextafterf(p, 0.0f);
            v[n++] = nextafterf(p, INFINITY);
        }
        check_list(aop, v, n, &t);
        /* the hard cases of the exhaustive run */
        FILE *f = fopen(TRANS_HARD, "r");
        if (!f) {
            fprintf(stderr, "cannot read %s\n", TRANS_HARD);
            return 1;
        }
        unsigned hop;
        uint32_t hb;
        n = 0;
        while (fscanf(f, "%u %" SCNx32, &hop, &hb) == 2)
            if (hop == aop)
                v[n++] = bitsf(hb);
        fclose(f);
        check_list(aop, v, n, &t);
        /* random bit patterns; random inputs of [-4, 4] */
        for (n = 0; n < (1u << 22); n++)
            v[n] = bitsf(next32());
        check_list(aop, v, n, &t);
        tally w = {0};
        for (n = 0; n < (1u << 20); n++) {
            /* LN2, RSQ: of |x| (their negative inputs go to the interpreter) */
            v[n] = ((float)(next32() >> 8) * 0x1p-24f - 0.5f) * 8.0f;
            if (aop == 9 || aop == 11)
                v[n] = fabsf(v[n]);
        }
        check_list(aop, v, n, &w);
        bool slow = w.kept < w.n - w.n / 100;
        fprintf(stderr,
                "%s: %" PRIu64 " sampled inputs, %" PRIu64 " kept by the fast path, %" PRIu64
                " differ; [-4, 4] (LN2, RSQ: [0, 4]): %" PRIu64 " of %" PRIu64 " kept, %" PRIu64 " differ%s\n",
                op_name[aop], t.n, t.kept, t.wrong, w.kept, w.n, w.wrong,
                slow ? " (more than 1 % fall back)" : "");
        bad |= t.wrong != 0 || w.wrong != 0 || slow;
    }
    free(v);
    return bad;
}
