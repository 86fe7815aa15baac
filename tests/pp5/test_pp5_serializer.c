/* Serializer tests (seed 003 §IV.3.3-7): ExpDec Table 1, Eqs. (2)/(3), CoefSer
 * token pointer, CoefGate two's complement and gating, TRR token placement
 * and a randomized comparison with an independent model of the
 * float → fixed-point conversion written here from the seed's rules. */
#include "test_util.h"

#include <math.h>

#include "lockstep/pp5.h"
#include "pp5/model/igc/igc_internal.h"

/* ---------------------------------------------------------------- ExpDec */

/* Table 1, "LOADING FBITS REGISTER": D<23:30> = 129 + FBITS → Dec(62 - FBITS). */
static void test_table1_fbits_load(void **state)
{
    (void)state;
    for (int f = 0; f <= 30; f++) {
        pp5_expdec_out o = pp5_expdec(129u + (unsigned)f, 0);
        assert_false(o.dec64);
        assert_int_equal(o.index, 62 - f);
        pp5_serializer s;
        pp5_serializer_init(&s);
        assert_true(pp5_serializer_load_fbits(&s, (uint32_t)(129 + f) << 23));
        /* "the FBITS register is loaded with the 5-bit value FBITS + 1" */
        assert_int_equal(s.fbits_reg, (unsigned)(f + 1));
        assert_int_equal(pp5_serializer_fbits(&s), f);
    }
    /* "any value for which D30 = 1 but which is outside the valid range for
     * FBITS will cause logical failure" → rejected */
    pp5_serializer s;
    pp5_serializer_init(&s);
    assert_false(pp5_serializer_load_fbits(&s, 128u << 23));
    assert_false(pp5_serializer_load_fbits(&s, 160u << 23));
}

/* Table 1, "NORMAL MODE": the adder output EXPONENT + 128 + FBITS; exponents
 * -FBITS..63-FBITS give Dec(63 - (EXPONENT + FBITS)); outside → Dec64. */
static void test_table1_normal(void **state)
{
    (void)state;
    for (int f = 0; f <= 30; f++) {
        for (int e = -127; e <= 128; e++) {
            unsigned field = (unsigned)(e + 127);
            pp5_expdec_out o = pp5_expdec(field, (unsigned)f + 1);
            if (e < -f || e > 63 - f) {
                assert_true(o.dec64);
            } else {
                assert_false(o.dec64);
                assert_int_equal(o.index, 63 - (e + f));
            }
        }
    }
    /* the row "< -FBITS … 64" and "> 63-FBITS … 64" at FBITS = 5 */
    assert_true(pp5_expdec(127 - 6, 6).dec64);
    assert_int_equal(pp5_expdec(127 - 5, 6).index, 63);
    assert_int_equal(pp5_expdec(190 - 5, 6).index, 0);
    assert_true(pp5_expdec(191 - 5, 6).dec64);
}

/* ---------------------------------------------------------------- independent model */

typedef unsigned __int128 u128;

/* Seed rules, restated: truncate |v|·2^FBITS; exponents outside
 * [-FBITS, 63-FBITS] (incl. 0, denormals, Inf, NaN) give 0. */
static bool ref_fixed(uint32_t bits, int fbits, u128 *mag, bool *neg, int *len)
{
    int ef = (int)((bits >> 23) & 0xff);
    int e = ef - 127;
    *neg = bits >> 31;
    *mag = 0;
    *len = 0;
    if (ef == 0 || ef == 255 || e < -fbits || e > 63 - fbits)
        return false;
    u128 m = (u128)((bits & 0x7fffffu) | 0x800000u); /* 24-bit significand */
    int sh = e + fbits - 23;                           /* value·2^F = m·2^sh */
    *mag = sh >= 0 ? m << sh : m >> (-sh);
    *len = 1 + e + fbits; /* "l = 1 + EXPONENT + FBITS" */
    return true;
}

static int ref_n_bits(const pp5_serialize_req *q)
{
    if (q->mode == PP5_QEE_NONE)
        return 0;
    /* N_I: FN = FNI + FBITS bits, at least 11, FN ≤ 75 (seed, CSBLatch) */
    int fn = q->fni + q->fbits;
    int n = (fn >= 11 && fn <= 75) ? fn : 11;
    if (q->mbi) {
        /* Eq. (2): max(l_D+22, l_E+22, l_F+22, l_A+10, l_B+10, l_C) + 3 + 1 */
        static const int add[6] = {10, 10, 0, 22, 22, 22};
        for (int k = 0; k < 6; k++) {
            bool en = k == 2 || (k < 2 && q->mode >= 2) || (k > 2 && q->mode == 3);
            u128 mag;
            bool neg;
            int l;
            if (en && ref_fixed(q->coef[k], q->fbits, &mag, &neg, &l) && l + add[k] + 4 > n)
                n = l + add[k] + 4;
        }
    }
    return n;
}

static int ref_stream_bit(const pp5_serialize_req *q, int k, int j)
{
    bool en = k == 2 || (k < 2 && q->mode >= 2) || (k > 2 && q->mode == 3);
    u128 mag;
    bool neg;
    int l;
    if (q->mode == PP5_QEE_NONE || !en || !ref_fixed(q->coef[k], q->fbits, &mag, &neg, &l))
        return 0;
    u128 v = neg ? (u128)0 - mag : mag; /* two's complement */
    return j < 128 ? (int)((v >> j) & 1u) : (neg && mag ? 1 : 0);
}

static uint32_t fbits_of(float f)
{
    uint32_t b;
    memcpy(&b, &f, 4);
    return b;
}

static void check_against_model(const pp5_serialize_req *q)
{
    pp5_serialize_result r;
    ls_diag d;
    assert_int_equal(pp5_serialize(q, NULL, &r, &d), LS_OK);
    int n = ref_n_bits(q);
    if (r.n_bits != n) {
        printf("mode %d mbi %d fbits %d fni %d coef %08x %08x %08x %08x %08x %08x: N %d, model %d\n",
               q->mode, q->mbi, q->fbits, q->fni, q->coef[0], q->coef[1], q->coef[2], q->coef[3],
               q->coef[4], q->coef[5], r.n_bits, n);
    }
    assert_int_equal(r.n_bits, n);
    for (int k = 0; k < 6; k++) {
        for (int j = 0; j < n; j++) {
            if (r.stream[k][j] != ref_stream_bit(q, k, j))
                printf("coef %d (%08x) bit %d of %d differs\n", k, q->coef[k], j, n);
            assert_int_equal(r.stream[k][j], ref_stream_bit(q, k, j));
        }
        if (r.stream[k][n])
            printf("separator: mode %d mbi %d fbits %d fni %d k %d coef %08x n %d\n", q->mode, q->mbi,
                   q->fbits, q->fni, k, q->coef[k], n);
        assert_int_equal(r.stream[k][n], 0); /* "a 0 separator bit" */
    }
    /* TRR: LSB token at s = FBITS + 24 when TRREn; MSB token at
     * s = N + 24 when MBI (A-18 default) */
    int want[2], nw = 0;
    if (q->mode != PP5_QEE_NONE && q->trren)
        want[nw++] = q->fbits + 24;
    if (q->mode != PP5_QEE_NONE && q->mbi && !(nw && want[0] == n + 24))
        want[nw++] = n + 24;
    if (nw == 2 && want[1] < want[0]) {
        int t = want[0];
        want[0] = want[1];
        want[1] = t;
    }
    assert_int_equal(r.ntrr, nw);
    for (int i = 0; i < nw; i++)
        assert_int_equal(r.trr[i], want[i]);
    if (q->mode != PP5_QEE_NONE) {
        /* "LSB precedes the LSB's of the coefficients … by 2 clock cycles" */
        assert_int_equal(r.lsb_shift, 1);
        assert_int_equal(r.dat_first_shift, 3);
    }
}

/* pp5.md §2.4 worked example: FBITS 2, linear, MBI, A -3, B 5, C 100.5, FNI 1 → N = 19 */
static void test_worked_example(void **state)
{
    (void)state;
    pp5_serialize_req q = {0};
    q.fbits = 2;
    q.mode = PP5_QEE_LINEAR;
    q.mbi = true;
    q.fni = 1;
    q.coef[0] = fbits_of(-3.0f);
    q.coef[1] = fbits_of(5.0f);
    q.coef[2] = fbits_of(100.5f);
    pp5_serialize_result r;
    ls_diag d;
    assert_int_equal(pp5_serialize(&q, NULL, &r, &d), LS_OK);
    assert_int_equal(r.n_bits, 19);
    /* -3·4 = -12: LSB first 0 0 1 0 1 1 1 … (pass up to the first 1, invert) */
    const char *a = "0010111111111111111";
    for (int j = 0; j < 19; j++)
        assert_int_equal(r.stream[0][j], a[j] - '0');
    check_against_model(&q);
}

/* Eq. (3) for every QEE mode, MBI and not, in range and out of range. */
static void test_eq3_modes(void **state)
{
    (void)state;
    const float vals[] = {0.0f, 1.0f, -1.0f, 1000.0f, -77.25f, 3e9f, 1e30f, 1e-30f, INFINITY, NAN};
    for (int mode = 0; mode <= 3; mode++)
        for (int mbi = 0; mbi <= 1; mbi++)
            for (size_t vi = 0; vi < sizeof vals / sizeof vals[0]; vi++)
                for (int k = 0; k < 6; k++) {
                    pp5_serialize_req q = {0};
                    q.fbits = 3;
                    q.mode = (pp5_qee_mode)mode;
                    q.mbi = mbi;
                    q.fni = 1;
                    q.coef[k] = fbits_of(vals[vi]);
                    q.coef[(k + 2) % 6] = fbits_of(2.5f);
                    check_against_model(&q);
                }
}

/* "at least 11 bits … are generated" and the FNI path: exponent field FNI + 115
 * → FN = FNI + FBITS bits, FNI max 75 - FBITS. */
static void test_min11_and_fni(void **state)
{
    (void)state;
    for (int f = 0; f <= 30; f += 5)
        for (int fni = 0; fni <= 80; fni++) {
            pp5_serialize_req q = {0};
            q.fbits = f;
            q.mode = PP5_QEE_CONST;
            q.fni = fni;
            q.coef[2] = fbits_of(1.0f);
            pp5_serialize_result r;
            ls_diag d;
            assert_int_equal(pp5_serialize(&q, NULL, &r, &d), LS_OK);
            int fn = fni + f;
            int expect = fn <= 11 ? 11 : fn <= 75 ? fn : 11;
            assert_int_equal(r.n_bits, expect);
        }
}

/* CoefSer: the token is a pointer into ManReg; stage 63 is "the understood
 * leading 1"; stages 40..62 are the mantissa bits 0..22. */
static void test_token_pointer(void **state)
{
    (void)state;
    pp5_options o;
    pp5_options_default(&o);
    pp5_serializer s;
    pp5_serializer_init(&s);
    assert_true(pp5_serializer_load_fbits(&s, 129u << 23)); /* FBITS 0 */
    /* 1.5 · 2^2 = 6: exponent 2 → i = 61 */
    pp5_serializer_write_coef(&s, PP5_COEF_C, fbits_of(6.0f));
    pp5_serializer_write_i(&s, (1u << 18) | (116u << 23));
    pp5_serializer_clock(&s, &o, true, true);
    assert_int_equal(s.cs[PP5_COEF_C].tok, 61);
    /* bits on BitHSP2, one per shift: stage 61 (mantissa bit 21 = 0), stage 62
     * (bit 22 = 1), stage 63 (leading 1), then 0's */
    const int want[] = {0, 1, 1, 0, 0, 0};
    for (int j = 0; j < 6; j++) {
        pp5_serializer_clock(&s, &o, true, false);
        assert_int_equal(s.cs[PP5_COEF_C].bit, want[j]);
    }
    /* no shift: token and bit hold */
    int tok = s.cs[PP5_COEF_C].tok;
    pp5_serializer_clock(&s, &o, false, false);
    assert_int_equal(s.cs[PP5_COEF_C].tok, tok);
}

/* CoefGate: "pass the bits unchanged up to and including the first 1 …, then
 * invert all the remaining bits"; gating by QEEMode and by Dec64. */
static void test_coefgate(void **state)
{
    (void)state;
    pp5_serialize_req q = {0};
    q.fbits = 0;
    q.mode = PP5_QEE_CONST;
    q.fni = 1;
    q.coef[0] = fbits_of(-5.0f); /* A: gated off in constant mode */
    q.coef[2] = fbits_of(-5.0f);
    q.coef[3] = fbits_of(7.0f);  /* D: gated off */
    pp5_serialize_result r;
    ls_diag d;
    assert_int_equal(pp5_serialize(&q, NULL, &r, &d), LS_OK);
    const char *c = "11011111111"; /* -5 */
    for (int j = 0; j < 11; j++) {
        assert_int_equal(r.stream[2][j], c[j] - '0');
        assert_int_equal(r.stream[0][j], 0);
        assert_int_equal(r.stream[3][j], 0);
    }
    /* -4: 0 0 1 then inverted 1's */
    q.coef[2] = fbits_of(-4.0f);
    assert_int_equal(pp5_serialize(&q, NULL, &r, &d), LS_OK);
    const char *c4 = "00111111111";
    for (int j = 0; j < 11; j++)
        assert_int_equal(r.stream[2][j], c4[j] - '0');
    /* out of range (exponent > 63 - FBITS) → 0 */
    q.coef[2] = fbits_of(-1e20f);
    assert_int_equal(pp5_serialize(&q, NULL, &r, &d), LS_OK);
    for (int j = 0; j < 11; j++)
        assert_int_equal(r.stream[2][j], 0);
}

/* Randomized: pp5_serialize (the Serializer module) against the model. */
static void test_random(void **state)
{
    (void)state;
    uint64_t seed = ls_test_seed(0x5e71a112ull);
    for (int it = 0; it < 3000; it++) {
        pp5_serialize_req q = {0};
        q.fbits = (int)(ls_test_rand(&seed) % 31);
        q.mode = (pp5_qee_mode)(ls_test_rand(&seed) % 4);
        q.mbi = ls_test_rand(&seed) & 1;
        q.trren = ls_test_rand(&seed) & 1;
        q.fni = (int)(ls_test_rand(&seed) % 90);
        for (int k = 0; k < 6; k++) {
            uint64_t r = ls_test_rand(&seed);
            /* exponents around the interesting range, random mantissa and sign */
            int e = (int)(r % 90) - 40;
            uint32_t bits = (uint32_t)((r >> 8) & 0x7fffff) | ((uint32_t)(e + 127) << 23) |
                            (uint32_t)((r >> 40) & 1) << 31;
            if ((r >> 50) % 13 == 0)
                bits = (uint32_t)(r >> 16); /* any pattern: zero, denormal, Inf, NaN */
            q.coef[k] = bits;
        }
        check_against_model(&q);
    }
}

/* `lockstep pp5 serialize --json` prints what the real Serializer emits:
 * compare random requests with the independent model. */
static void test_cli_json(void **state)
{
    (void)state;
    const char *root = getenv("LOCKSTEP_BUILD_ROOT");
    char exe[1024];
    snprintf(exe, sizeof exe, "%s/tools/lockstep", root ? root : ".");
    struct stat st;
    if (stat(exe, &st) != 0) {
        printf("SKIP part: %s not built\n", exe);
        return;
    }
    uint64_t seed = ls_test_seed(0xc11e5e71ull);
    static const char *const modes[] = {"const", "linear", "quad"};
    for (int it = 0; it < 25; it++) {
        pp5_serialize_req q = {0};
        q.fbits = (int)(ls_test_rand(&seed) % 31);
        q.mode = (pp5_qee_mode)(1 + ls_test_rand(&seed) % 3);
        q.mbi = ls_test_rand(&seed) & 1;
        q.trren = ls_test_rand(&seed) & 1;
        q.fni = (int)(ls_test_rand(&seed) % 40);
        char cmd[2048];
        int n = snprintf(cmd, sizeof cmd, "'%s' pp5 serialize --json --fbits %d --mode %s%s%s --fni %d",
                         exe, q.fbits, modes[q.mode - 1], q.mbi ? " --mbi" : "",
                         q.trren ? " --trren" : "", q.fni);
        for (int k = 0; k < 6; k++) {
            uint64_t r = ls_test_rand(&seed);
            double v = ((double)(int64_t)(r % 2000001) - 1000000.0) / (double)(1u << (r >> 40) % 12);
            float f = (float)v;
            memcpy(&q.coef[k], &f, 4);
            n += snprintf(cmd + n, sizeof cmd - (size_t)n, " %.9g", (double)f);
        }
        FILE *p = popen(cmd, "r");
        assert_non_null(p);
        char out[4096] = {0};
        size_t got = fread(out, 1, sizeof out - 1, p);
        assert_int_equal(pclose(p), 0);
        assert_true(got > 0);
        int bits = -1;
        assert_int_equal(sscanf(out, "{\"bits\": %d", &bits), 1);
        assert_int_equal(bits, ref_n_bits(&q));
        for (int k = 0; k < 6; k++) {
            char key[8];
            snprintf(key, sizeof key, "\"%c\": \"", "ABCDEF"[k]);
            const char *s = strstr(out, key);
            assert_non_null(s);
            s += strlen(key);
            for (int j = 0; j < bits; j++)
                assert_int_equal(s[j] - '0', ref_stream_bit(&q, k, j));
            assert_int_equal(s[bits], '"');
        }
        /* TRR tokens: A-17 placement */
        const char *t = strstr(out, "\"trr\": [");
        assert_non_null(t);
        int a = -1, b = -1;
        int nt = sscanf(t, "\"trr\": [%d, %d", &a, &b);
        if (q.trren)
            assert_true(nt >= 1 && (a == q.fbits + 24 || b == q.fbits + 24));
        if (q.mbi)
            assert_true(nt >= 1 && (a == bits + 24 || b == bits + 24));
    }
}

/* with msb_token = ALWAYS a non-MBI set also emits the MSB token when
 * CSB falls (N + 24); the default qualifies MsIn by MBI. */
static void test_msb_token_option(void **state)
{
    (void)state;
    pp5_serialize_req q = {0};
    q.fbits = 4;
    q.mode = PP5_QEE_LINEAR;
    q.fni = 9; /* N = 13 */
    q.trren = true;
    q.coef[2] = fbits_of(3.0f);
    pp5_serialize_result r;
    ls_diag d;
    assert_int_equal(pp5_serialize(&q, NULL, &r, &d), LS_OK);
    assert_int_equal(r.n_bits, 13);
    assert_int_equal(r.ntrr, 1);
    assert_int_equal(r.trr[0], 4 + 24);
    pp5_options o;
    pp5_options_default(&o);
    o.msb_token = PP5_MSB_TOKEN_ALWAYS;
    assert_int_equal(pp5_serialize(&q, &o, &r, &d), LS_OK);
    assert_int_equal(r.ntrr, 2);
    assert_int_equal(r.trr[0], 4 + 24);
    assert_int_equal(r.trr[1], 13 + 24);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_table1_fbits_load),
        cmocka_unit_test(test_table1_normal),
        cmocka_unit_test(test_worked_example),
        cmocka_unit_test(test_eq3_modes),
        cmocka_unit_test(test_min11_and_fni),
        cmocka_unit_test(test_token_pointer),
        cmocka_unit_test(test_coefgate),
        cmocka_unit_test(test_random),
        cmocka_unit_test(test_cli_json),
        cmocka_unit_test(test_msb_token_option),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
