/* The fast EMC array: QEE, edge signs, ALU, deferred-carry log, block
 * segments and the run (see emc_int.h for the file map). */
#include "pp5/accel/emc_int.h"

static inline int chip_x0(const pp5_emc *e, int c) { return (int)(e->config[c] & e->x0_mask); }
static inline int chip_y0(const pp5_emc *e, int c) { return (int)(e->config[c] >> 11 & e->y0_mask); }

/* coefficient bits 0..k as a signed (k+1)-bit number: congruent mod 2^(k+1) */
static inline i128 sext(u128 v, int k)
{
    int sh = 127 - k;
    return (i128)(v << sh) >> sh;
}

/* P(lx) = D·x² + A·x + C and R(ly) = F·y² + B·y, mod 2^128 */
static void chip_values(pp5_emc *e, int c, const qee_set *s)
{
    u128 *pr = e->pr + (size_t)c * (size_t)(e->tw + e->th);
    const u128 *k = s->coef;
    u128 x0 = (u128)chip_x0(e, c), y0 = (u128)chip_y0(e, c);
    for (int lx = 0; lx < e->tw; lx++) {
        u128 x = x0 + (u128)lx;
        pr[lx] = k[3] * x * x + k[0] * x + k[2];
    }
    for (int ly = 0; ly < e->th; ly++) {
        u128 y = y0 + (u128)ly;
        pr[e->tw + ly] = k[5] * y * y + k[1] * y;
    }
}

/* xlead/ylead: chips with the same X0 (Y0) share their axis line */
static void regroup(pp5_emc *e)
{
    int16_t firstx[2048], firsty[2048];
    memset(firstx, -1, sizeof firstx);
    memset(firsty, -1, sizeof firsty);
    for (int c = 0; c < e->nchips; c++) {
        int x0 = chip_x0(e, c), y0 = chip_y0(e, c);
        if (firstx[x0] < 0) firstx[x0] = (int16_t)c;
        if (firsty[y0] < 0) firsty[y0] = (int16_t)c;
        e->xlead[c] = firstx[x0];
        e->ylead[c] = firsty[y0];
    }
    memset(e->leads, 0, sizeof e->leads);
    for (int c = 0; c < e->nchips; c++) {
        e->leads[0][c >> 6] |= (uint64_t)(e->xlead[c] == c) << (c & 63);
        e->leads[1][c >> 6] |= (uint64_t)(e->ylead[c] == c) << (c & 63);
    }
    e->groups_dirty = false;
}


/* The line belongs to set s at this origin from now on. */
void pp5_emcf_line_key(axis_line *L, const qee_set *s, int origin)
{
    if (L->uid != s->uid || L->origin != origin) {
        L->uid = s->uid;
        L->origin = origin;
        L->m_used = -1;
        L->win_valid = 0;
        L->rk = -1;
    }
}

/* The line of set s at this origin, with values exact below bit upto. */
static void line_values(pp5_emc *e, axis_line *L, const qee_set *s, int is_y, int origin, int upto)
{
    pp5_emcf_line_key(L, s, origin);
    if (upto > L->m_used && L->m_used != s->m) {
        /* more coefficient bits: recompute; windows reaching the old count are stale */
        int n = is_y ? e->th : e->tw;
        const u128 *k = s->coef;
        u128 x = (u128)origin, q = is_y ? k[5] : k[3], l1 = is_y ? k[1] : k[0], c0 = is_y ? 0 : k[2];
        /* forward differences (exact mod 2^128): v(x+1) - v(x) = q(2x+1) + l1, step 2q */
        u128 v = q * x * x + l1 * x + c0, d1 = q * (2 * x + 1) + l1, d2 = 2 * q;
        for (int l = 0; l < n; l++) {
            L->val[l] = v;
            v += d1;
            d1 += d2;
        }
        L->win_valid = L->m_used < 0 ? 0 : L->win_valid & ((1u << (L->m_used >> 3)) - 1);
        L->m_used = s->m;
    }
}

/* Bit k of Q over the chip when every pixel has the same one (-1 otherwise):
 * with the coefficients sign-extended from bit k, Q is an exact integer
 * congruent to the tree's value mod 2^(k+1); if the chip's range of Q lies in
 * one block [j·2^k, (j+1)·2^k), bit k is j mod 2 everywhere. Needs the xy
 * coefficient ≡ 0 mod 2^(k+1) (separable) and k ≤ 100 (no int128 overflow:
 * |coef| ≤ 2^k, x, y < 2^12). */
static void axis_range(const qee_set *s, int k, int is_y, int origin, int n, i128 *mn, i128 *mx)
{
    /* x part D·x² + A·x (C is added per chip), y part F·y² + B·y */
    i128 q = sext(s->coef[is_y ? 5 : 3], k), l = sext(s->coef[is_y ? 1 : 0], k), o = origin;
    if (q > -((i128)1 << 35) && q < (i128)1 << 35 && l > -((i128)1 << 47) && l < (i128)1 << 47) {
        /* in int64 (x < 2^12: |q·x²|, |l·x| < 2^60, as sign_word_init) */
        int64_t q6 = (int64_t)q, l6 = (int64_t)l, lo, hi;
        if (q6 == 0) {
            int64_t a = l6 * origin, b = l6 * (origin + n - 1);
            lo = a < b ? a : b;
            hi = a < b ? b : a;
        } else {
            lo = hi = (q6 * origin + l6) * origin;
            for (int64_t x = origin + 1; x < origin + n; x++) {
                int64_t v = (q6 * x + l6) * x;
                lo = v < lo ? v : lo;
                hi = v > hi ? v : hi;
            }
        }
        *mn = lo;
        *mx = hi;
        return;
    }
    if (q == 0) {
        i128 a = l * o, b = l * (o + n - 1);
        *mn = a < b ? a : b;
        *mx = a < b ? b : a;
        return;
    }
    i128 lo = q * o * o + l * o, hi = lo;
    for (int i = 1; i < n; i++) {
        i128 v = q * (o + i) * (o + i) + l * (o + i);
        if (v < lo) lo = v;
        if (v > hi) hi = v;
    }
    *mn = lo;
    *mx = hi;
}

/* The line's extremes of its part for bit k of set s (at this origin). */
static inline void line_range(axis_line *l, const qee_set *s, int k, int is_y, int origin, int n)
{
    pp5_emcf_line_key(l, s, origin);
    if (!(l->rk == k && (k < l->rk_m || l->rk_m == s->m))) {
        axis_range(s, k, is_y, origin, n, &l->rmin, &l->rmax);
        l->rk = k;
        l->rk_m = s->m;
    }
}

static int range_bit(pp5_emc *e, int c, const qee_set *s, int k)
{
    i128 C = sext(s->coef[2], k);
    i128 pmin, pmax, rmin, rmax;
    if (e->fast_uv) {
        /* the axis extremes are shared by the chips of a column (row) */
        if (e->groups_dirty) regroup(e);
        axis_line *L[2] = {&e->xline[e->xlead[c]], &e->yline[e->ylead[c]]};
        int org[2] = {chip_x0(e, c), chip_y0(e, c)};
        for (int a = 0; a < 2; a++) line_range(L[a], s, k, a, org[a], a ? e->th : e->tw);
        pmin = L[0]->rmin;
        pmax = L[0]->rmax;
        rmin = L[1]->rmin;
        rmax = L[1]->rmax;
    } else {
        axis_range(s, k, 0, chip_x0(e, c), e->tw, &pmin, &pmax);
        axis_range(s, k, 1, chip_y0(e, c), e->th, &rmin, &rmax);
    }
    i128 jmin = (pmin + rmin + C) >> k, jmax = (pmax + rmax + C) >> k;
    return jmin == jmax ? (int)(jmin & 1) : -1;
}

/* Bit j of the axis values at lx (ly) = 0..n-1 as a mask. */
static uint64_t line_mask(pp5_emc *e, axis_line *L, const qee_set *s, int is_y, int origin, int j)
{
    int n = is_y ? e->th : e->tw;
    line_values(e, L, s, is_y, origin, j + 1);
    int b = j >> 3;
    if (!(L->win_valid >> b & 1)) {
        uint64_t *mk = L->mask + 8 * b;
#if defined(__SSE2__)
        if (n <= 16) {
            /* byte b of the 16 values in one vector; the top bit of each byte
             * is a mask bit (movemask), doubling brings the next one up */
            uint8_t by[16] = {0};
            for (int i = 0; i < n; i++)
                by[i] = (uint8_t)(b < 8 ? (uint64_t)L->val[i] >> (8 * b) : L->val[i] >> (8 * b));
            __m128i v;
            memcpy(&v, by, 16);
            for (int i = 7; i >= 0; i--) {
                mk[i] = (uint64_t)(unsigned)_mm_movemask_epi8(v);
                v = _mm_add_epi8(v, v);
            }
            L->win_valid |= 1u << b;
            return L->mask[j];
        }
#endif
        memset(mk, 0, 64);
        for (int g = 0; g * 8 < n; g++) {
            uint64_t x = 0;
            if (b < 8) /* (a 64-bit shift is cheaper) */
                for (int i = 0; i < 8 && g * 8 + i < n; i++)
                    x |= (uint64_t)(uint8_t)((uint64_t)L->val[g * 8 + i] >> (8 * b)) << (8 * i);
            else
                for (int i = 0; i < 8 && g * 8 + i < n; i++)
                    x |= (uint64_t)(uint8_t)(L->val[g * 8 + i] >> (8 * b)) << (8 * i);
            x = transpose8(x);
            for (int i = 0; i < 8; i++) mk[i] |= (x >> (8 * i) & 0xff) << (8 * g);
        }
        L->win_valid |= 1u << b;
    }
    return L->mask[j];
}

static inline uint64_t line_bit(pp5_emc *e, axis_line *L, const qee_set *s, int is_y, int origin, int j)
{
    if (L->uid == s->uid && L->origin == origin && (L->win_valid >> (j >> 3) & 1) &&
        (j < L->m_used || L->m_used == s->m))
        return L->mask[j];
    return line_mask(e, L, s, is_y, origin, j);
}

/* Carry into bit k (1 ≤ k ≤ 63) of P(lx) + R(ly) at every pixel, directly:
 * [P mod 2^k + R mod 2^k ≥ 2^k]; replaces k steps of the adder. */
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
__attribute__((target_clones("avx2", "default")))
#endif
static void carry_into(const uint64_t *pl, const uint64_t *rl, int tw, int th, int k, uint64_t *cy, int wpc)
{
    uint64_t lim = 1ull << k;
    memset(cy, 0, (size_t)wpc * 8);
#if defined(__SSE2__)
    if (tw == 16 && k <= 31) {
        /* 16 columns in four vectors of 32-bit lanes, unsigned compares as
         * signed ones on values offset by 2^31; the 16 "no carry" lanes
         * packed to bytes and read with one movemask */
        const __m128i bias = _mm_set1_epi32(INT32_MIN);
        __m128i p[4];
        for (int v = 0; v < 4; v++)
            p[v] = _mm_xor_si128(_mm_set_epi32((int32_t)(uint32_t)pl[4 * v + 3], (int32_t)(uint32_t)pl[4 * v + 2],
                                               (int32_t)(uint32_t)pl[4 * v + 1], (int32_t)(uint32_t)pl[4 * v]),
                                 bias);
        for (int ly = 0; ly < th; ly++) {
            uint32_t t = (uint32_t)(lim - rl[ly]) ^ 0x80000000u; /* pl < t: no carry */
            __m128i tv = _mm_set1_epi32((int32_t)t);
            __m128i n01 = _mm_packs_epi32(_mm_cmpgt_epi32(tv, p[0]), _mm_cmpgt_epi32(tv, p[1]));
            __m128i n23 = _mm_packs_epi32(_mm_cmpgt_epi32(tv, p[2]), _mm_cmpgt_epi32(tv, p[3]));
            uint64_t mask = ~(uint64_t)(unsigned)_mm_movemask_epi8(_mm_packs_epi16(n01, n23)) & 0xffff;
            int bit = ly * 16;
            cy[bit >> 6] |= mask << (bit & 63);
        }
        return;
    }
#endif
    if (tw == 16 && k <= 31) {
        /* 16 columns as two vectors of 32-bit lanes: compare, weight, OR */
        typedef uint32_t v8u32 __attribute__((vector_size(32)));
        v8u32 p0, p1, w0 = {1, 2, 4, 8, 16, 32, 64, 128};
        v8u32 w1 = w0 * 256u;
        for (int i = 0; i < 8; i++) {
            p0[i] = (uint32_t)pl[i];
            p1[i] = (uint32_t)pl[8 + i];
        }
        for (int ly = 0; ly < th; ly++) {
            if (!rl[ly]) continue;
            uint32_t t = (uint32_t)(lim - rl[ly]);
            v8u32 tv = {t, t, t, t, t, t, t, t};
            v8u32 g = ((v8u32)(p0 >= tv) & w0) | ((v8u32)(p1 >= tv) & w1);
            uint64_t mask = g[0] | g[1] | g[2] | g[3] | g[4] | g[5] | g[6] | g[7];
            int bit = ly * 16;
            cy[bit >> 6] |= mask << (bit & 63);
        }
        return;
    }
    if (tw == 16) {
        /* the same with 64-bit lanes, four vectors */
        v4u p[4], w[4];
        for (int v = 0; v < 4; v++)
            for (int i = 0; i < 4; i++) {
                p[v][i] = pl[4 * v + i];
                w[v][i] = 1ull << (4 * v + i);
            }
        for (int ly = 0; ly < th; ly++) {
            if (!rl[ly]) continue;
            uint64_t t = lim - rl[ly];
            v4u tv = SPLAT4(t);
            v4u g = ((v4u)(p[0] >= tv) & w[0]) | ((v4u)(p[1] >= tv) & w[1]) | ((v4u)(p[2] >= tv) & w[2]) |
                    ((v4u)(p[3] >= tv) & w[3]);
            uint64_t mask = g[0] | g[1] | g[2] | g[3];
            int bit = ly * 16;
            cy[bit >> 6] |= mask << (bit & 63);
        }
        return;
    }
    for (int ly = 0; ly < th; ly++) {
        if (!rl[ly]) continue;
        uint64_t t = lim - rl[ly], mask = 0;
        for (int lx = 0; lx < tw; lx++) mask |= (uint64_t)(pl[lx] >= t) << lx;
        int bit = ly * tw;
        cy[bit >> 6] |= mask << (bit & 63);
    }
}

#ifdef EMC_AVX512
/* carry_into for a 16×16 chip with AVX-512 (chosen at pp5_emc_create when
 * the processor has it): one unsigned compare of the 16 columns a row gives
 * the row's mask directly. */
__attribute__((target("avx512f,avx512bw,avx512vl"))) static void carry16_avx512(const uint64_t *pl, const uint64_t *rl,
                                                                                 int k, uint64_t *cy)
{
    /* (pl, rl: the values; only their low k bits count, for k ≤ 31 R's bit k
     * too, taken out again) */
    uint64_t lim = 1ull << k, low = lim - 1;
    __m512i lowv = _mm512_set1_epi64((long long)low);
    __m512i p0 = _mm512_and_si512(_mm512_loadu_si512(pl), lowv), p1 = _mm512_and_si512(_mm512_loadu_si512(pl + 8), lowv);
    if (k <= 31) {
        /* row ly: bit k of (P(lx) mod 2^k) + R(ly) mod 2^32 in sixteen 32-bit
         * lanes, R's low 32 bits broadcast from memory into the add — that
         * bit is R's bit k
         * ⊕ the carry into bit k, so R's bit k is taken out at the end (a
         * row of all ones where it is 1); the masks joined in mask registers
         * (no read-modify-write of cy). (Before: each row's threshold
         * 2^k − R mod 2^k broadcast by a permute, then a compare.) */
        __m512i p = _mm512_inserti64x4(_mm512_castsi256_si512(_mm512_cvtepi64_epi32(p0)), _mm512_cvtepi64_epi32(p1), 1);
        __m512i bk = _mm512_set1_epi32((int)(1u << k)), bk64 = _mm512_set1_epi64((long long)lim);
        __mmask16 rbit = (__mmask16)(_mm512_test_epi64_mask(_mm512_loadu_si512(rl), bk64) |
                                     (unsigned)_mm512_test_epi64_mask(_mm512_loadu_si512(rl + 8), bk64) << 8);
#define CARRY16_ROW(ly) _mm512_test_epi32_mask(_mm512_add_epi32(p, _mm512_set1_epi32((int)(uint32_t)rl[ly])), bk)
#define CARRY16_WORD(q)                                                                                             \
    (long long)_cvtmask64_u64(                                                                                     \
        _mm512_kunpackd((__mmask64)_mm512_kunpackw((__mmask32)CARRY16_ROW(4 * (q) + 3), (__mmask32)CARRY16_ROW(4 * (q) + 2)), \
                        (__mmask64)_mm512_kunpackw((__mmask32)CARRY16_ROW(4 * (q) + 1), (__mmask32)CARRY16_ROW(4 * (q)))))
        /* the four words joined in registers, one 256-bit store: the caller
         * reads cy as one vector (word stores read back by a vector load
         * stall store forwarding) */
        __m128i w01 = _mm_insert_epi64(_mm_cvtsi64_si128(CARRY16_WORD(0)), CARRY16_WORD(1), 1);
        __m128i w23 = _mm_insert_epi64(_mm_cvtsi64_si128(CARRY16_WORD(2)), CARRY16_WORD(3), 1);
        __m256i sum_bits = _mm256_inserti128_si256(_mm256_castsi128_si256(w01), w23, 1);
        _mm256_storeu_si256((__m256i *)(void *)cy, _mm256_xor_si256(sum_bits, _mm256_movm_epi16(rbit)));
#undef CARRY16_WORD
#undef CARRY16_ROW
        return;
    }
    /* (k > 31, rare: wide sets.) Word by word through memory: the sixteen
     * rows joined in registers, as above, gave wrong words when built by GCC
     * 12 with ASan+UBSan at -O1 (test_emc_diff random_pins_blocks, the
     * `make check` sanitizer build), and plain builds gain nothing here. */
    uint64_t acc[4] = {0, 0, 0, 0};
    for (int ly = 0; ly < 16; ly++) {
        __m512i t = _mm512_set1_epi64((long long)(lim - (rl[ly] & low)));
        uint64_t m = (uint64_t)_mm512_cmpge_epu64_mask(p0, t) | (uint64_t)_mm512_cmpge_epu64_mask(p1, t) << 8;
        acc[ly >> 2] |= m << (16 * (ly & 3));
    }
    memcpy(cy, acc, sizeof acc);
}
#endif

static void jump_start(pp5_emc *e, int c, const qee_set *s, int k)
{
    axis_line *lx = &e->xline[e->xlead[c]], *ly = &e->yline[e->ylead[c]];
    line_values(e, lx, s, 0, chip_x0(e, c), k);
    line_values(e, ly, s, 1, chip_y0(e, c), k);
    uint64_t pl[64], rl[64], low = (1ull << k) - 1;
    for (int i = 0; i < e->tw; i++) pl[i] = (uint64_t)lx->val[i] & low;
    for (int i = 0; i < e->th; i++) rl[i] = (uint64_t)ly->val[i] & low;
    carry_into(pl, rl, e->tw, e->th, k, e->t_carry + (size_t)c * (size_t)e->wpc, e->wpc);
}

/* One step of the chip's bit-serial adder: bit j of P(lx) + R(ly) into out
 * (when out is not NULL), carry into bit j + 1 kept. */
static void serial_step(pp5_emc *e, int c, const qee_set *s, int j, uint64_t *out)
{
    const u128 *pr = e->pr + (size_t)c * (size_t)(e->tw + e->th);
    uint64_t *cy = e->t_carry + (size_t)c * (size_t)e->wpc;
    int tw = e->tw;
    if (e->fast_uv) {
        uint64_t xm = line_bit(e, &e->xline[e->xlead[c]], s, 0, chip_x0(e, c), j);
        uint64_t ym = line_bit(e, &e->yline[e->ylead[c]], s, 1, chip_y0(e, c), j);
        uint64_t u = xm * e->rep;
        for (int w = 0; w < e->wpc; w++) {
            uint64_t rows = e->rpw == 64 ? ym : (ym >> (w * e->rpw)) & e->rows_mask, v;
            if (e->vspread) v = e->vspread[rows];
            else {
                v = 0;
                for (int r = 0; r < e->rpw; r++) v |= (rows >> r & 1) * (e->row_ones << (r * tw));
            }
            uint64_t k = cy[w];
            if (out) out[w] = u ^ v ^ k;
            cy[w] = (u & v) | (k & (u ^ v));
        }
    } else {
        uint64_t *o = out;
        for (int i = 0; i < e->tpix; i++) {
            int lx = i % tw, ly = i / tw;
            uint64_t u = (uint64_t)(pr[lx] >> j & 1), v = (uint64_t)(pr[tw + ly] >> j & 1);
            uint64_t k = cy[i >> 6] >> (i & 63) & 1, m = 1ull << (i & 63);
            if (o) o[i >> 6] = (o[i >> 6] & ~m) | ((u ^ v ^ k) << (i & 63));
            cy[i >> 6] = (cy[i >> 6] & ~m) | (((u & v) | (k & (u ^ v))) << (i & 63));
        }
    }
}

/* Four-word chips (16×16): the adder's steps for bits j0 .. j0+n-1 given the
 * x and y masks of each bit; planes of bits ≥ keep0 go to out[j - keep0]. */
static void serial_run4(const pp5_emc *e, uint64_t *cy, const uint64_t *xm, const uint64_t *ym, int j0, int n,
                        int keep0, uint64_t *out)
{
    /* scalar: four words stay in registers (vectors built from table loads
     * went through the stack) */
    const uint64_t *vs = e->vspread;
    int rpw = e->rpw;
    uint64_t rm = e->rows_mask, rep = e->rep;
    uint64_t k0 = cy[0], k1 = cy[1], k2 = cy[2], k3 = cy[3];
    for (int i = 0; i < n; i++) {
        uint64_t y = ym[i], u = xm[i] * rep;
        uint64_t v0 = vs[y & rm], v1 = vs[(y >> rpw) & rm];
        uint64_t v2 = vs[(y >> 2 * rpw) & rm], v3 = vs[(y >> 3 * rpw) & rm];
        uint64_t x0 = u ^ v0, x1 = u ^ v1, x2 = u ^ v2, x3 = u ^ v3;
        if (j0 + i >= keep0) {
            uint64_t *o = out + (size_t)(j0 + i - keep0) * 4;
            o[0] = x0 ^ k0;
            o[1] = x1 ^ k1;
            o[2] = x2 ^ k2;
            o[3] = x3 ^ k3;
        }
        k0 = (u & v0) | (k0 & x0);
        k1 = (u & v1) | (k1 & x1);
        k2 = (u & v2) | (k2 & x2);
        k3 = (u & v3) | (k3 & x3);
    }
    cy[0] = k0;
    cy[1] = k1;
    cy[2] = k2;
    cy[3] = k3;
}

/* Bit k of Q at every pixel of chip c (k < 128): into out, or a pointer into
 * the chip's window of adder outputs. */
static __attribute__((noinline)) const uint64_t *compute_bit(pp5_emc *e, int c, const qee_set *s, int k, uint64_t *out)
{
    size_t wpc = (size_t)e->wpc;
    u128 low = k >= 127 ? ~(u128)0 : (((u128)1 << (k + 1)) - 1);
    if ((s->coef[4] & low) == 0) {
        /* separable: Q = P(lx) + R(ly) in bits 0..k */
        tengine *t = &e->te[c];
        uint32_t cfg = e->config[c];
        bool positioned = t->uid == s->uid && t->cfg == cfg && t->next_k <= k;
        if (!(positioned && t->next_k == k) && k <= 100) {
            int r = range_bit(e, c, s, k);
            if (r >= 0) {
                uint64_t v = r ? ~0ull : 0;
                for (size_t w = 0; w < wpc; w++) out[w] = v;
                return out;
            }
        }
        if (e->groups_dirty) regroup(e);
        if (e->fast_uv && k >= 4 && k <= 63 && (!positioned || k - t->next_k > 4)) {
            jump_start(e, c, s, k);
            t->uid = s->uid;
            t->cfg = cfg;
            t->next_k = k;
        } else if (!positioned) {
            t->uid = s->uid;
            t->cfg = cfg;
            t->next_k = 0;
            t->m_used = -1;
            memset(e->t_carry + (size_t)c * wpc, 0, wpc * 8);
        }
        if (e->fast_uv && wpc == 4 && e->vspread) {
            /* reading bit after bit (a field, not a sign): run on to the end of a
             * window of final bits, so the next reads hit it */
            int end = t->run_on ? k + T_WIN : k + 1;
            if (end > 128) end = 128;
            if (s->open && s->m < 128 && end > s->m) end = s->m; /* bit j is final once j < m */
            if (end < k + 1) end = k + 1;
            while (end > k + 1 && (s->coef[4] & (end >= 128 ? ~(u128)0 : ((u128)1 << end) - 1)) != 0) end--;
            uint64_t xm[T_WIN + 8], ym[T_WIN + 8];
            uint64_t *win = e->t_win + (size_t)c * T_WIN * wpc;
            while (t->next_k < end) {
                int j0 = t->next_k, n = end - j0 < T_WIN + 8 ? end - j0 : T_WIN + 8;
                axis_line *lx = &e->xline[e->xlead[c]], *ly = &e->yline[e->ylead[c]];
                int x0 = chip_x0(e, c), y0 = chip_y0(e, c); /* (line_bit writes memory: not hoisted for us) */
                for (int i = 0; i < n; i++) {
                    xm[i] = line_bit(e, lx, s, 0, x0, j0 + i);
                    ym[i] = line_bit(e, ly, s, 1, y0, j0 + i);
                }
                serial_run4(e, e->t_carry + (size_t)c * wpc, xm, ym, j0, n, k, win);
                t->next_k += n;
            }
            t->win_uid = s->uid;
            t->win_cfg = cfg;
            t->win_k0 = k;
            t->win_n = end - k;
            return win;
        }
        while (t->next_k <= k) {
            int j = t->next_k;
            if (!e->fast_uv && j >= t->m_used && t->m_used != s->m) {
                chip_values(e, c, s); /* bits below m_used are unchanged: the carry stays valid */
                t->m_used = s->m;
            }
            serial_step(e, c, s, j, j == k ? out : NULL);
            t->next_k++;
        }
        return out;
    }
    /* xy term in the low bits: per pixel */
    const u128 *q = s->coef;
    u128 x0 = (u128)chip_x0(e, c), y0 = (u128)chip_y0(e, c);
    memset(out, 0, wpc * 8);
    for (int i = 0; i < e->tpix; i++) {
        u128 x = x0 + (u128)(i % e->tw), y = y0 + (u128)(i / e->tw);
        u128 v = q[0] * x + q[1] * y + q[2] + q[3] * x * x + q[4] * x * y + q[5] * y * y;
        out[i >> 6] |= (uint64_t)(v >> k & 1) << (i & 63);
    }
    return out;
}

/* (inlined into the per-chip loops with tree_plane: most calls are cache hits;
 * compute_bit, the rest, stays out of line) */
/* The plane of bit k of set s at chip c, cached per chip. field: the reading
 * word is likely to read the next bits too (a hint: it only sets how far the
 * adder runs on). */
static inline __attribute__((always_inline)) const uint64_t *tree_bit(pp5_emc *e, int c, const qee_set *s, int k,
                                                                       bool field)
{
    if (k >= 128) return plane(e, PL_ZERO, c);
    tengine *t = &e->te[c];
    uint64_t *out = e->t_last + (size_t)c * (size_t)e->wpc;
    uint32_t cfg = e->config[c];
    /* bit k is final once coefficient bit k has arrived */
    t->run_on = field || (t->seq_uid == s->uid && t->seq_k == k - 1);
    t->seq_uid = s->uid;
    t->seq_k = k;
    if (t->win_uid == s->uid && t->win_cfg == cfg && k >= t->win_k0 && k < t->win_k0 + t->win_n)
        return e->t_win + ((size_t)c * T_WIN + (size_t)(k - t->win_k0)) * (size_t)e->wpc;
    if (t->last_uid == s->uid && t->last_k == k && t->last_cfg == cfg && (k < t->last_m || t->last_m == s->m))
        return out;
    const uint64_t *r = compute_bit(e, c, s, k, out);
    if (r == out) {
        t->last_uid = s->uid;
        t->last_k = k;
        t->last_cfg = cfg;
        t->last_m = s->m;
    }
    return r;
}

/* The plane of T (R_T) at chip c for the current clock. */
static inline __attribute__((always_inline)) const uint64_t *tree_plane(pp5_emc *e, int c, bool field)
{
    if (e->rt_set < 0) return plane(e, PL_ZERO, c);
    return tree_bit(e, c, &e->set[e->rt_set], e->rt_k, field);
}

/* Bit k (k ≤ 63) of P(lx) + R(ly) on a 16×16 chip, directly from the low
 * 64 bits of the values (bit k of a sum mod 2^128 is that of the low words'
 * sum mod 2^64): one add per pixel, four columns a vector. */
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
__attribute__((target_clones("avx2", "default")))
#endif
static void sum_bit16(const uint64_t *pl, const uint64_t *rl, int k, uint64_t *out)
{
    v4u p[4], pos[4];
    for (int v = 0; v < 4; v++)
        for (int i = 0; i < 4; i++) {
            p[v][i] = pl[4 * v + i];
            pos[v][i] = (uint64_t)(4 * v + i);
        }
    for (int w = 0; w < 4; w++) {
        v4u acc = SPLAT4(0);
        for (int r = 0; r < 4; r++) {
            v4u rv = SPLAT4(rl[4 * w + r]), one = SPLAT4(1);
            for (int v = 0; v < 4; v++) acc |= (((p[v] + rv) >> k) & one) << (pos[v] + SPLAT4((uint64_t)(16 * r)));
        }
        out[w] = acc[0] | acc[1] | acc[2] | acc[3];
    }
}

/* ---- Words that read one bit of Q into Enable (polygon edges) ------------- */

/* An Enable load reading T reads the sign of an edge function (EDGE, DISC:
 * E ← E ∧ ¬sign(Q)). Bit k is the same at every pixel of a chip whose range
 * of Q, with the coefficients sign-extended from bit k, lies in one block
 * [j·2^k, (j+1)·2^k) (compute_bit's range test); a chip the edge crosses
 * spans two blocks, and bit k there is a compare of Q with the boundary
 * between them. When the sign-extended coefficients are small enough (below),
 * every value of the test fits in 64 bits, so the extremes of each column's
 * x part and each row's y part are computed once per word in int64, and a
 * crossed chip's plane is one compare per pixel in 32-bit lanes (or, for a
 * linear edge on 16×16 chips, one exact quotient per row). sign_exec does
 * such a word whole; sign_planes gives T planes for the other Enable loads
 * that read T. */
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define SIGN_X86 1
#else
#define SIGN_X86 0
#endif

enum { SIGN_MAXN = 64 };    /* tile side of the fast geometry (tile_w | 64, tile_h ≤ 64) */

/* AVX-512 F, BW, VL and DQ (what the vector code below uses) */
static inline bool sign_avx512(void)
{
#if SIGN_X86
    return PP5_EMC_SIGN_ISA >= 2 && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
           __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512dq");
#else
    return false;
#endif
}

typedef struct sign_word {
    int k, ks;              /* bit read; shift of the block index (min(k, 63)) */
    int n[2];               /* tile_w, tile_h */
    bool avx512;            /* sign_avx512() */
    int64_t q[2], l[2], c;  /* D, A (x) and F, B (y) and C, sign-extended from bit k */
    uint64_t done[2][4];    /* extremes of axis a computed for lead chip i */
    int64_t mn[2][256], mx[2][256];
} sign_word;

/* The set and bit R_T holds, in int64 (false: not this path). Bounds: with
 * x, y ≤ 2047 + 63 < 2^12, |q| < 2^35, |l| < 2^47 and |C| < 2^59 an axis part
 * is below 2^60 in magnitude and Q below 2^62, so every value, sum and
 * difference below (two values) fits in int64. */
static bool sign_word_init(const pp5_emc *e, sign_word *w)
{
    if (e->rt_set < 0 || !e->fast_uv || e->rt_k > 100) return false;
    const qee_set *s = &e->set[e->rt_set];
    int k = e->rt_k;
    static const int lim[5] = {35, 35, 47, 47, 59};
    static const int ci[5] = {3, 5, 0, 1, 2}; /* D, F, A, B, C */
    int64_t v6[5];
    if (k <= 63) {
        /* (the usual case: a (k+1)-bit number fits in int64, and sign-extending
         * the low word is enough — no 128-bit shifts) */
        int sh = 63 - k;
        if ((uint64_t)s->coef[4] << sh) return false; /* xy term in bits 0..k */
        for (int i = 0; i < 5; i++) {
            int64_t v = (int64_t)((uint64_t)s->coef[ci[i]] << sh) >> sh;
            if (v <= -((int64_t)1 << lim[i]) || v >= (int64_t)1 << lim[i]) return false;
            v6[i] = v;
        }
    } else {
        if ((s->coef[4] & (((u128)1 << (k + 1)) - 1)) != 0) return false; /* xy term in bits 0..k */
        for (int i = 0; i < 5; i++) {
            i128 v = sext(s->coef[ci[i]], k);
            if (v <= -((i128)1 << lim[i]) || v >= (i128)1 << lim[i]) return false;
            v6[i] = (int64_t)v;
        }
    }
    w->k = k;
    w->ks = k < 63 ? k : 63; /* |Q| < 2^62: the index is 0 or -1 from bit 63 up */
    w->n[0] = e->tw;
    w->n[1] = e->th;
    w->q[0] = v6[0];
    w->q[1] = v6[1];
    w->l[0] = v6[2];
    w->l[1] = v6[3];
    w->c = v6[4];
    w->avx512 = sign_avx512();
    memset(w->done, 0, sizeof w->done);
    return true;
}

/* The axis part q·x² + l·x at x = origin + i (i < n[a]). */
static inline int64_t sign_part(const sign_word *w, int a, int64_t x) { return w->q[a] * x * x + w->l[a] * x; }

/* The axis extremes of the lead chip ld (origin o). */
static inline void sign_axis_calc(sign_word *w, int a, int ld, int o)
{
    int64_t lo, hi;
    if (w->q[a] == 0) {
        int64_t u = w->l[a] * o, v = w->l[a] * (o + w->n[a] - 1);
        lo = u < v ? u : v;
        hi = u < v ? v : u;
    } else {
        lo = hi = sign_part(w, a, o);
        for (int i = 1; i < w->n[a]; i++) {
            int64_t v = sign_part(w, a, (int64_t)o + i);
            lo = v < lo ? v : lo;
            hi = v > hi ? v : hi;
        }
    }
    w->mn[a][ld] = lo;
    w->mx[a][ld] = hi;
}

/* The same, once per word. */
static inline void sign_axis(sign_word *w, int a, int ld, int o)
{
    if (w->done[a][ld >> 6] >> (ld & 63) & 1) return;
    sign_axis_calc(w, a, ld, o);
    w->done[a][ld >> 6] |= 1ull << (ld & 63);
}

/* Chip c (its axis extremes computed): its Q range [*lo, *hi]. */
static inline void sign_range(const pp5_emc *e, const sign_word *w, int c, int64_t *lo, int64_t *hi)
{
    int xl = e->xlead[c], yl = e->ylead[c];
    *lo = w->mn[0][xl] + w->mn[1][yl] + w->c;
    *hi = w->mx[0][xl] + w->mx[1][yl] + w->c;
}

/* Chip c: its Q range [*lo, *hi]; 0 or 1 when bit k is that everywhere, 2 when
 * the chip spans more than one block. */
static inline int sign_class(const pp5_emc *e, sign_word *w, int c, int64_t *lo, int64_t *hi)
{
    sign_axis(w, 0, e->xlead[c], chip_x0(e, c));
    sign_axis(w, 1, e->ylead[c], chip_y0(e, c));
    sign_range(e, w, c, lo, hi);
    int64_t jmin = *lo >> w->ks, jmax = *hi >> w->ks;
    return jmin == jmax ? (int)(jmin & 1) : 2;
}

/* The four words of a chip's plane from compares: bit ly·tw + lx is
 * [pd[lx] ≥ th[ly]] ⊕ inv for ly < nrows, inv for the words' other bits. Each
 * word is built in a register and stored once (its bits come back as words
 * right after). */
static void sign_rows_portable(const int32_t *pd, const int32_t *th, int tw, int nrows, uint64_t inv, uint64_t *out)
{
    int rpw = 64 / tw;
    for (int wd = 0; wd < 4; wd++) {
        uint64_t acc = 0;
        for (int r = 0; r < rpw && wd * rpw + r < nrows; r++) {
            uint64_t m = 0;
            for (int lx = 0; lx < tw; lx++) m |= (uint64_t)(pd[lx] >= th[wd * rpw + r]) << lx;
            acc |= m << (r * tw);
        }
        out[wd] = acc ^ inv;
    }
}
#if SIGN_X86
__attribute__((target("avx512f"))) static void sign_rows16_avx512(const int32_t *pd, const int32_t *th, int nrows,
                                                                  uint64_t inv, uint64_t *out)
{
    __m512i p = _mm512_loadu_si512(pd);
    for (int wd = 0; wd < 4; wd++) {
        uint64_t acc = 0;
        for (int r = 0; r < 4 && 4 * wd + r < nrows; r++)
            acc |= (uint64_t)_mm512_cmpge_epi32_mask(p, _mm512_set1_epi32(th[4 * wd + r])) << (16 * r);
        out[wd] = acc ^ inv;
    }
}
__attribute__((target("avx2"))) static void sign_rows16_avx2(const int32_t *pd, const int32_t *th, int nrows,
                                                             uint64_t inv, uint64_t *out)
{
    __m256i p0 = _mm256_loadu_si256((const __m256i *)pd), p1 = _mm256_loadu_si256((const __m256i *)(pd + 8));
    for (int wd = 0; wd < 4; wd++) {
        uint64_t acc = 0;
        for (int r = 0; r < 4 && 4 * wd + r < nrows; r++) {
            __m256i t = _mm256_set1_epi32(th[4 * wd + r] - 1); /* th ≥ 0: pd ≥ th is pd > th − 1 */
            unsigned m = (unsigned)_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpgt_epi32(p0, t))) |
                         (unsigned)_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpgt_epi32(p1, t))) << 8;
            acc |= (uint64_t)m << (16 * r);
        }
        out[wd] = acc ^ inv;
    }
}
/* sign_rows16_avx512 with both parts linear, the operands built in vectors:
 * pd[i] = base + step·i (mod 2^32: exact, the values are below 2^31),
 * th[i] = clamp(t0 − tstep·i). */
__attribute__((target("avx512f,avx512dq,avx512bw"))) static inline void sign_lin16_avx512(uint32_t base, uint32_t step, int64_t t0,
                                                                         int64_t tstep, int nrows, uint64_t inv,
                                                                         uint64_t *out)
{
    const __m512i i32 = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    const __m512i i64a = _mm512_setr_epi64(0, 1, 2, 3, 4, 5, 6, 7), i64b = _mm512_setr_epi64(8, 9, 10, 11, 12, 13, 14, 15);
    __m512i p = _mm512_add_epi32(_mm512_set1_epi32((int32_t)base), _mm512_mullo_epi32(_mm512_set1_epi32((int32_t)step), i32));
    __m512i ts = _mm512_set1_epi64(tstep), tz = _mm512_set1_epi64(t0), zero = _mm512_setzero_si512();
    __m512i top = _mm512_set1_epi64(INT32_MAX);
    __m512i a = _mm512_min_epi64(_mm512_max_epi64(_mm512_sub_epi64(tz, _mm512_mullo_epi64(ts, i64a)), zero), top);
    __m512i b = _mm512_min_epi64(_mm512_max_epi64(_mm512_sub_epi64(tz, _mm512_mullo_epi64(ts, i64b)), zero), top);
    int32_t th[16];
    _mm256_storeu_si256((__m256i *)th, _mm512_cvtepi64_epi32(a));
    _mm256_storeu_si256((__m256i *)(th + 8), _mm512_cvtepi64_epi32(b));
    if (nrows == 16) {
        /* four rows a word: their four compare masks joined in mask registers
         * (mask-register operations are the bottleneck here) */
        for (int wd = 0; wd < 4; wd++) {
            __mmask16 m0 = _mm512_cmpge_epi32_mask(p, _mm512_set1_epi32(th[4 * wd]));
            __mmask16 m1 = _mm512_cmpge_epi32_mask(p, _mm512_set1_epi32(th[4 * wd + 1]));
            __mmask16 m2 = _mm512_cmpge_epi32_mask(p, _mm512_set1_epi32(th[4 * wd + 2]));
            __mmask16 m3 = _mm512_cmpge_epi32_mask(p, _mm512_set1_epi32(th[4 * wd + 3]));
            __mmask32 lo = _mm512_kunpackw(m1, m0), hi = _mm512_kunpackw(m3, m2);
            out[wd] = _cvtmask64_u64(_mm512_kunpackd(hi, lo)) ^ inv;
        }
        return;
    }
    for (int wd = 0; wd < 4; wd++) {
        uint64_t acc = 0;
        for (int r = 0; r < 4 && 4 * wd + r < nrows; r++)
            acc |= (uint64_t)_mm512_cmpge_epi32_mask(p, _mm512_set1_epi32(th[4 * wd + r])) << (16 * r);
        out[wd] = acc ^ inv;
    }
}
#endif
static void sign_rows(const int32_t *pd, const int32_t *th, int tw, int nrows, uint64_t inv, uint64_t *out)
{
#if SIGN_X86
    if (tw == 16) {
        if (PP5_EMC_SIGN_ISA >= 2 && __builtin_cpu_supports("avx512f")) sign_rows16_avx512(pd, th, nrows, inv, out);
        else if (PP5_EMC_SIGN_ISA >= 1 && __builtin_cpu_supports("avx2")) sign_rows16_avx2(pd, th, nrows, inv, out);
        else sign_rows_portable(pd, th, 16, nrows, inv, out);
        return;
    }
#endif
    sign_rows_portable(pd, th, tw, nrows, inv, out);
}

/* t clamped to [0, 2^31 − 1], without branches (the side of the boundary a
 * row starts on is not predictable) */
static inline int32_t sign_clamp(int64_t t)
{
    t &= ~(t >> 63);
    int64_t d = t - INT32_MAX;
    return (int32_t)(INT32_MAX + (d & (d >> 63)));
}

/* Bit k of Q on chip c (class 2, range [lo, hi]) into out (wpc = 4 words),
 * when it spans exactly two blocks and its x part less than 2^31: with
 * Pd = P − min P ∈ [0, 2^31) and Rd = R − min R, Q ≥ boundary ⇔ Pd ≥
 * (boundary − lo) − Rd, that threshold clamped to [0, 2^31 − 1] (beyond which
 * the answer is the same for every Pd). False: not done. */
static bool sign_cross(const pp5_emc *e, const sign_word *w, int c, int64_t lo, int64_t hi, uint64_t *out)
{
    int xl = e->xlead[c], yl = e->ylead[c];
    int64_t jmin = lo >> w->ks, jmax = hi >> w->ks, pmin = w->mn[0][xl], rmin = w->mn[1][yl];
    if (jmax != jmin + 1 || w->mx[0][xl] - pmin >= INT32_MAX) return false;
    int64_t boundary = w->k >= 63 ? 0 : (int64_t)((uint64_t)jmax << w->k); /* (k ≥ 63: jmin = -1, jmax = 0) */
    int64_t b = boundary - lo;
    int32_t pd[SIGN_MAXN], th[SIGN_MAXN];
    int64_t x0 = chip_x0(e, c), y0 = chip_y0(e, c);
    uint64_t inv = jmin & 1 ? ~0ull : 0; /* (jmin odd: 1 below the boundary) */
#if SIGN_X86
    if (w->n[0] == 16 && w->q[0] == 0 && w->q[1] == 0 && w->avx512) {
        sign_lin16_avx512((uint32_t)(w->l[0] * x0 - pmin), (uint32_t)w->l[0], b - (w->l[1] * y0 - rmin), w->l[1],
                          w->n[1], inv, out);
        return true;
    }
#endif
    if (w->q[0] == 0) {
        /* linear: steps of A (|A|·(n−1) < 2^31: exact in 32 bits) */
        uint32_t v = (uint32_t)(w->l[0] * x0 - pmin), d = (uint32_t)w->l[0];
        for (int i = 0; i < w->n[0]; i++, v += d) pd[i] = (int32_t)v;
    } else {
        for (int i = 0; i < w->n[0]; i++) pd[i] = (int32_t)(sign_part(w, 0, x0 + i) - pmin);
    }
    if (w->q[1] == 0) {
        int64_t t = b - (w->l[1] * y0 - rmin); /* (y0 + n < 2^12: every step stays in range) */
        for (int i = 0; i < w->n[1]; i++, t -= w->l[1]) th[i] = sign_clamp(t);
    } else {
        for (int i = 0; i < w->n[1]; i++) th[i] = sign_clamp(b - (sign_part(w, 1, y0 + i) - rmin));
    }
    sign_rows(pd, th, w->n[0], w->n[1], inv, out);
    return true;
}

/* A 16×16 chip the edge crosses (k ≤ 63): bit k of P + R directly from the
 * low 64 bits of the line values (bit k of a sum mod 2^128 is that of the low
 * words' sum mod 2^64), kept in the chip's T cache as tree_bit would;
 * otherwise tree_plane. */
static const uint64_t *sign_sum_plane(pp5_emc *e, int c, const qee_set *s, int k)
{
    if (!(k <= 63 && e->tw == 16 && e->th == 16)) return tree_plane(e, c, false);
    axis_line *lx = &e->xline[e->xlead[c]], *ly = &e->yline[e->ylead[c]];
    line_values(e, lx, s, 0, chip_x0(e, c), k + 1);
    line_values(e, ly, s, 1, chip_y0(e, c), k + 1);
    uint64_t pl[16], rl[16], *out = e->t_last + (size_t)c * 4;
    for (int j = 0; j < 16; j++) {
        pl[j] = (uint64_t)lx->val[j];
        rl[j] = (uint64_t)ly->val[j];
    }
    sum_bit16(pl, rl, k, out);
    tengine *t = &e->te[c];
    t->last_uid = s->uid;
    t->last_k = k;
    t->last_cfg = e->config[c];
    t->last_m = s->m;
    return out;
}

#if SIGN_X86
/* sign_exec's chip classes for every chip (0..nchips−1): the extremes of
 * every column and row (each lead chip once), then eight chips a vector, the
 * extremes of each chip's column and row gathered, summed, shifted by k and
 * compared. */
__attribute__((target("avx512f,avx512bw,avx512vl"))) static void sign_classes_avx512(const pp5_emc *e, sign_word *w,
                                                                                    uint64_t *ones, uint64_t *cross)
{
    for (int a = 0; a < 2; a++)
        for (int wd = 0; wd < 4; wd++) {
            for (uint64_t r = e->leads[a][wd]; r; r &= r - 1) { /* (made by regroup) */
                int ld = wd * 64 + __builtin_ctzll(r);
                sign_axis_calc(w, a, ld, a ? chip_y0(e, ld) : chip_x0(e, ld));
            }
            w->done[a][wd] |= e->leads[a][wd];
        }
    const __m512i cc = _mm512_set1_epi64(w->c), one = _mm512_set1_epi64(1), z = _mm512_setzero_si512();
    const __m128i sh = _mm_cvtsi32_si128(w->ks);
    __m256i pxl = _mm256_set1_epi32(-1);
    __m512i xmn = z, xmx = z;
    for (int b = 0; b < e->nchips; b += 8) {
        __mmask8 lm = e->nchips - b >= 8 ? 0xff : (__mmask8)((1u << (e->nchips - b)) - 1);
        __m256i xl = _mm256_cvtepi16_epi32(_mm_maskz_loadu_epi16(lm, e->xlead + b));
        __m256i yl = _mm256_cvtepi16_epi32(_mm_maskz_loadu_epi16(lm, e->ylead + b));
        /* (a grid of chips: the columns of the last eight chips again, and
         * eight chips of one row; gathered otherwise) */
        if (lm != 0xff || _mm256_cmpeq_epi32_mask(xl, pxl) != 0xff) {
            xmn = _mm512_mask_i32gather_epi64(z, lm, xl, w->mn[0], 8);
            xmx = _mm512_mask_i32gather_epi64(z, lm, xl, w->mx[0], 8);
            pxl = xl;
        }
        __m512i ymn, ymx;
        int y0 = e->ylead[b];
        if (_mm256_cmpeq_epi32_mask(yl, _mm256_set1_epi32(y0)) == 0xff) {
            ymn = _mm512_set1_epi64(w->mn[1][y0]);
            ymx = _mm512_set1_epi64(w->mx[1][y0]);
        } else {
            ymn = _mm512_mask_i32gather_epi64(z, lm, yl, w->mn[1], 8);
            ymx = _mm512_mask_i32gather_epi64(z, lm, yl, w->mx[1], 8);
        }
        __m512i lo = _mm512_add_epi64(_mm512_add_epi64(xmn, ymn), cc), hi = _mm512_add_epi64(_mm512_add_epi64(xmx, ymx), cc);
        __m512i jl = _mm512_sra_epi64(lo, sh), jh = _mm512_sra_epi64(hi, sh);
        __mmask8 eq = _mm512_mask_cmpeq_epi64_mask(lm, jl, jh), odd = _mm512_test_epi64_mask(jl, one);
        ones[b >> 6] |= (uint64_t)(eq & odd) << (b & 63);
        cross[b >> 6] |= (uint64_t)(lm & ~eq & 0xff) << (b & 63);
    }
}
#endif

/* sign_classes_avx512 for a linear edge (D = F = 0): a chip's x part over
 * its columns is A·X0 + A·{0 .. tw−1}, so its range is [A·X0 + min(0, A·(tw−1)),
 * A·X0 + max(0, A·(tw−1))] (y alike), and Q's range over the chip is
 * [A·X0 + B·Y0 + lo0, the same + width] with lo0, width the same for every
 * chip: eight chips a vector straight from their configuration registers —
 * no lead chips' extremes first and no gathers of them (which waited on
 * those extremes' stores). Each chip's min Q goes to qlo[c]: what sign_exec
 * needs of a crossed chip follows from it (sign_lin_params written out). */
__attribute__((target("avx512f,avx512bw,avx512vl,avx512dq"))) static void
sign_classes_lin_avx512(const pp5_emc *e, const sign_word *w, uint64_t *ones, uint64_t *cross, int64_t *qlo)
{
    int64_t sx = w->l[0] * (w->n[0] - 1), sy = w->l[1] * (w->n[1] - 1);
    int64_t lo0 = w->c + (sx < 0 ? sx : 0) + (sy < 0 ? sy : 0), width = (sx < 0 ? -sx : sx) + (sy < 0 ? -sy : sy);
    const __m512i la = _mm512_set1_epi64(w->l[0]), lb = _mm512_set1_epi64(w->l[1]);
    const __m512i base = _mm512_set1_epi64(lo0), wv = _mm512_set1_epi64(width), one = _mm512_set1_epi64(1);
    const __m256i xmask = _mm256_set1_epi32((int)e->x0_mask), ymask = _mm256_set1_epi32((int)e->y0_mask);
    const __m128i sh = _mm_cvtsi32_si128(w->ks);
    uint64_t o = 0, x = 0;
    for (int b = 0; b < e->nchips; b += 8) {
        __mmask8 lm = e->nchips - b >= 8 ? 0xff : (__mmask8)((1u << (e->nchips - b)) - 1);
        __m256i cfg = _mm256_maskz_loadu_epi32(lm, e->config + b);
        __m512i x0 = _mm512_cvtepu32_epi64(_mm256_and_si256(cfg, xmask));
        __m512i y0 = _mm512_cvtepu32_epi64(_mm256_and_si256(_mm256_srli_epi32(cfg, 11), ymask));
        __m512i lo = _mm512_add_epi64(_mm512_add_epi64(_mm512_mullo_epi64(la, x0), _mm512_mullo_epi64(lb, y0)), base);
        _mm512_mask_storeu_epi64(qlo + b, lm, lo); /* (for the crossed chips: sign_exec) */
        __m512i jl = _mm512_sra_epi64(lo, sh), jh = _mm512_sra_epi64(_mm512_add_epi64(lo, wv), sh);
        __mmask8 eq = _mm512_mask_cmpeq_epi64_mask(lm, jl, jh), odd = _mm512_test_epi64_mask(jl, one);
        /* (a word of chips gathered in registers, stored once: an OR into
         * memory each vector was a chain through the store) */
        o |= (uint64_t)(eq & odd) << (b & 63);
        x |= (uint64_t)(lm & ~eq & 0xff) << (b & 63);
        if ((b & 63) == 56 || b + 8 >= e->nchips) {
            ones[b >> 6] = o;
            cross[b >> 6] = x;
            o = x = 0;
        }
    }
}

/* A 16×16 chip crossed by a linear edge (both parts linear, two blocks, x
 * part below 2^31), as sign_cross would do it with sign_lin16_avx512. */
typedef struct sign_lin {
    int c;
    uint32_t base, step;    /* Pd(lx) = base + step·lx (mod 2^32) */
    int64_t t0, tstep;      /* threshold of row ly: t0 − tstep·ly */
    uint64_t inv;
} sign_lin;

static inline bool sign_lin_params(const pp5_emc *e, const sign_word *w, int c, int64_t lo, int64_t hi, sign_lin *q)
{
    int xl = e->xlead[c], yl = e->ylead[c];
    int64_t jmin = lo >> w->ks, jmax = hi >> w->ks, pmin = w->mn[0][xl], rmin = w->mn[1][yl];
    if (!(w->avx512 && w->n[0] == 16 && w->n[1] == 16 && w->q[0] == 0 && w->q[1] == 0 && jmax == jmin + 1 &&
          w->mx[0][xl] - pmin < INT32_MAX))
        return false;
    int64_t boundary = w->k >= 63 ? 0 : (int64_t)((uint64_t)jmax << w->k); /* as sign_cross */
    int64_t x0 = chip_x0(e, c), y0 = chip_y0(e, c);
    q->c = c;
    q->base = (uint32_t)(w->l[0] * x0 - pmin);
    q->step = (uint32_t)w->l[0];
    q->t0 = boundary - lo - (w->l[1] * y0 - rmin);
    q->tstep = w->l[1];
    q->inv = jmin & 1 ? ~0ull : 0;
    return true;
}

#if SIGN_X86
/* The plane of sign_lin16_avx512 when step ≠ 0, without a compare per row:
 * a linear x part is monotonic, so row ly holds a run of lx from one end,
 * bounded by x = (th − base)/step (th = t0 − tstep·ly, unclamped). With
 * step > 0 the pixels are lx ≥ ⌈x⌉, with step < 0 lx ≤ ⌊x⌋. x is a double
 * quotient, correctly rounded: where it decides anything (|x| ≤ 17) its
 * error is below 2^−48 while a non-integer x is at least 1/|step| > 2^−31
 * from an integer, and an integer x is exact, so ⌈x⌉ and ⌊x⌋ are exact; far
 * outside (d = th − base rounded when |d| > 2^53, so |x| > 2^22) only the
 * side counts. */
__attribute__((target("avx512f,avx512dq,avx512bw,avx512vl"))) static inline __m256i
sign_div16_avx512(uint32_t base, int64_t step, int64_t t0, int64_t tstep, uint64_t inv)
{
    const __m512i ra = _mm512_setr_epi64(0, 1, 2, 3, 4, 5, 6, 7), rb = _mm512_setr_epi64(8, 9, 10, 11, 12, 13, 14, 15);
    const __m512i pos = _mm512_setr_epi64(0, 16, 32, 48, 0, 16, 32, 48); /* row ly at bit 16·(ly mod 4) */
    __m512i d0 = _mm512_set1_epi64(t0 - (int64_t)base), ts = _mm512_set1_epi64(tstep);
    __m512d sd = _mm512_set1_pd((double)step), lo = _mm512_setzero_pd(), hi = _mm512_set1_pd(16);
    __m512d xa = _mm512_div_pd(_mm512_cvtepi64_pd(_mm512_sub_epi64(d0, _mm512_mullo_epi64(ts, ra))), sd);
    __m512d xb = _mm512_div_pd(_mm512_cvtepi64_pd(_mm512_sub_epi64(d0, _mm512_mullo_epi64(ts, rb))), sd);
    __m512i ma, mb;
    if (step > 0) {
        /* lx ≥ s, s = clamp(⌈x⌉, 0, 16): 0xFFFF << s, cut to 16 bits */
        const __m512i ff = _mm512_set1_epi64(0xFFFF);
        __m512i sa = _mm512_cvttpd_epi64(_mm512_min_pd(_mm512_max_pd(_mm512_roundscale_pd(xa, _MM_FROUND_TO_POS_INF | _MM_FROUND_NO_EXC), lo), hi));
        __m512i sb = _mm512_cvttpd_epi64(_mm512_min_pd(_mm512_max_pd(_mm512_roundscale_pd(xb, _MM_FROUND_TO_POS_INF | _MM_FROUND_NO_EXC), lo), hi));
        ma = _mm512_and_si512(_mm512_sllv_epi64(ff, sa), ff);
        mb = _mm512_and_si512(_mm512_sllv_epi64(ff, sb), ff);
    } else {
        /* lx ≤ ⌊x⌋: the low clamp(⌊x⌋ + 1, 0, 16) bits */
        const __m512i one = _mm512_set1_epi64(1);
        const __m512d pone = _mm512_set1_pd(1);
        __m512i ca = _mm512_cvttpd_epi64(_mm512_min_pd(_mm512_max_pd(_mm512_add_pd(_mm512_roundscale_pd(xa, _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC), pone), lo), hi));
        __m512i cb = _mm512_cvttpd_epi64(_mm512_min_pd(_mm512_max_pd(_mm512_add_pd(_mm512_roundscale_pd(xb, _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC), pone), lo), hi));
        ma = _mm512_sub_epi64(_mm512_sllv_epi64(one, ca), one);
        mb = _mm512_sub_epi64(_mm512_sllv_epi64(one, cb), one);
    }
    ma = _mm512_sllv_epi64(ma, pos);
    mb = _mm512_sllv_epi64(mb, pos);
    /* OR of each four lanes (one word of the plane), then words 0..3 = lanes 0, 4 of a and b */
    ma = _mm512_or_si512(ma, _mm512_shuffle_epi32(ma, _MM_PERM_BADC));
    mb = _mm512_or_si512(mb, _mm512_shuffle_epi32(mb, _MM_PERM_BADC));
    ma = _mm512_or_si512(ma, _mm512_permutex_epi64(ma, 0x4E));
    mb = _mm512_or_si512(mb, _mm512_permutex_epi64(mb, 0x4E));
    __m512i w = _mm512_permutex2var_epi64(ma, _mm512_setr_epi64(0, 4, 8, 12, 0, 4, 8, 12), mb);
    return _mm256_xor_si256(_mm512_castsi512_si256(w), _mm256_set1_epi64x((long long)inv));
}

/* sign_exec's Enable load on the chips of q[0..nq): each T plane by
 * sign_div16_avx512 (sign_lin16_avx512 when A = 0), then E ← E ⊕ ((E ⊕ maj(T ⊕ ACmp, B, C)) ∧ lg) on the
 * chip's four words in one vector, and its lit bit. (One call for all of
 * them: no call, mask-register set-up and vzeroupper per chip.) */
__attribute__((target("avx512f,avx512dq,avx512bw,avx512vl"))) static void
sign_cross16_batch_avx512(const sign_lin *q, int nq, const alu_word *u, uint64_t *eany)
{
    const __m256i acm = _mm256_set1_epi64x((long long)u->acm), es = _mm256_set1_epi64x((long long)u->es);
    const __m256i ms = _mm256_set1_epi64x((long long)u->ms), bcm = _mm256_set1_epi64x((long long)u->bcm);
    const __m256i C = _mm256_set1_epi64x((long long)(u->cs ^ u->ccm)), lu = _mm256_set1_epi64x((long long)u->l_ungated);
    for (int i = 0; i < nq; i++) {
        __m256i T;
        if (q[i].step != 0) {
            T = sign_div16_avx512(q[i].base, (int32_t)q[i].step, q[i].t0, q[i].tstep, q[i].inv);
        } else {
            uint64_t tw[4];
            sign_lin16_avx512(q[i].base, q[i].step, q[i].t0, q[i].tstep, 16, q[i].inv, tw);
            T = _mm256_loadu_si256((const __m256i *)tw);
        }
        size_t off = (size_t)q[i].c * 4;
        __m256i E = _mm256_loadu_si256((const __m256i *)(u->e_base + off));
        __m256i M = _mm256_loadu_si256((const __m256i *)(u->m_base + off));
        __m256i A = _mm256_xor_si256(T, acm);
        __m256i B = _mm256_xor_si256(_mm256_and_si256(_mm256_or_si256(E, es), _mm256_or_si256(M, ms)), bcm);
        __m256i maj = _mm256_or_si256(_mm256_and_si256(A, B), _mm256_and_si256(C, _mm256_or_si256(A, B)));
        __m256i ne = _mm256_xor_si256(E, _mm256_and_si256(_mm256_xor_si256(E, maj), _mm256_or_si256(E, lu)));
        _mm256_storeu_si256((__m256i *)(u->e_base + off), ne);
        /* (16×16 chips: no pixels past the tile.) The lit bit without a branch:
         * whether the edge leaves a crossed chip lit is not predictable (a
         * branch here was ≈ 17 % of this function's samples) */
        uint64_t nz = (uint64_t)(_mm256_testz_si256(ne, ne) == 0), *ea = &eany[q[i].c >> 6];
        *ea = (*ea & ~(1ull << (q[i].c & 63))) | nz << (q[i].c & 63);
    }
}
#endif

/* A whole Enable-load word that reads T and no S, Carry or memory write
 * (EDGE, DISC), on the chips of list[0..n) (four-word chips, standard truth
 * tables: u->fast4): E ← E ⊕ ((E ⊕ maj(A, B, C)) ∧ lg) as the kernel, with
 * A = T ⊕ ACmp, C = ¬CCmp (A-8, A-9, A-11). On a chip where T is constant the
 * result is worked out once per word for T = 0 and T = 1 on the four (E, M)
 * combinations: E unchanged (the chip is skipped, its lit bit stays), E all 0
 * or all 1 (a fill), or else computed. False: not such a word, or R_T not
 * in the int64 range (the caller does it the general way). */
/* (the chips as a mask: chips_in[4], or list[0..n) when chips_in is NULL) */
static bool sign_exec(pp5_emc *e, const alu_word *u, const int *list, int n, const uint64_t *chips_in)
{
    if (!u->lde || !u->need_t || u->need_s || u->write || u->ldc || u->reads_c || u->save_read || u->keep_sum)
        return false;
    sign_word w;
    if (!sign_word_init(e, &w)) return false;
    if (e->groups_dirty) regroup(e);
    enum { KEEP, FILL0, FILL1, COMPUTE };
    int act[2];
    for (int t = 0; t < 2; t++) {
        uint64_t E = 0xA, M = 0xC, T = t ? ~0ull : 0;
        /* (S and Carry are not selected: their masks ss, cs are all ones) */
        uint64_t A = (T | u->ts) ^ u->acm, B = ((E | u->es) & (M | u->ms)) ^ u->bcm;
        uint64_t C = u->cs ^ u->ccm, lg = E | u->l_ungated;
        uint64_t ne = (E ^ ((E ^ ((A & B) | (C & (A | B)))) & lg)) & 0xF;
        act[t] = ne == E ? KEEP : ne == 0 ? FILL0 : ne == 0xF ? FILL1 : COMPUTE;
    }
    uint64_t in[4] = {0}, ones[4] = {0}, cross[4] = {0};
    bool axes_later = false; /* the crossed chips' axis extremes not made yet (sign_classes_lin_avx512) */
    int64_t qlo[256];        /* (then: chip c's min Q) */
#if SIGN_X86
    if (w.avx512) {
        /* every chip's class, vectors of eight */
        axes_later = w.q[0] == 0 && w.q[1] == 0;
        if (axes_later) sign_classes_lin_avx512(e, &w, ones, cross, qlo);
        else sign_classes_avx512(e, &w, ones, cross);
        if (chips_in) {
            for (int wd = 0; wd < 4; wd++) in[wd] = chips_in[wd];
        } else if (e->nchips <= 64) {
            uint64_t m = 0;
            for (int i = 0; i < n; i++) m |= 1ull << list[i];
            in[0] = m;
        } else {
            for (int i = 0; i < n; i++) in[list[i] >> 6] |= 1ull << (list[i] & 63);
        }
        for (int wd = 0; wd < 4; wd++) {
            ones[wd] &= in[wd];
            cross[wd] &= in[wd];
        }
    } else
#endif
    {
        /* the chips as a mask, and the columns and rows present (their lead chips) */
        uint64_t need[2][4] = {{0}};
        if (chips_in) {
            for (int wd = 0; wd < 4; wd++) {
                in[wd] = chips_in[wd];
                for (uint64_t r = in[wd]; r; r &= r - 1) {
                    int c = wd * 64 + __builtin_ctzll(r), xl = e->xlead[c], yl = e->ylead[c];
                    need[0][xl >> 6] |= 1ull << (xl & 63);
                    need[1][yl >> 6] |= 1ull << (yl & 63);
                }
            }
        } else if (e->nchips <= 64) { /* (one word: kept in registers) */
            uint64_t nx = 0, ny = 0, m = 0;
            for (int i = 0; i < n; i++) {
                int c = list[i];
                nx |= 1ull << e->xlead[c];
                ny |= 1ull << e->ylead[c];
                m |= 1ull << c;
            }
            need[0][0] = nx;
            need[1][0] = ny;
            in[0] = m;
        } else {
            for (int i = 0; i < n; i++) {
                int c = list[i], xl = e->xlead[c], yl = e->ylead[c];
                need[0][xl >> 6] |= 1ull << (xl & 63);
                need[1][yl >> 6] |= 1ull << (yl & 63);
                in[c >> 6] |= 1ull << (c & 63);
            }
        }
        /* their extremes, once each */
        for (int a = 0; a < 2; a++)
            for (int wd = 0; wd < 4; wd++)
                for (uint64_t r = need[a][wd]; r; r &= r - 1) {
                    int ld = wd * 64 + __builtin_ctzll(r);
                    sign_axis(&w, a, ld, a ? chip_y0(e, ld) : chip_x0(e, ld));
                }
        /* chip classes as masks, without branches (the side of an edge a chip is
         * on is not predictable) */
        for (int wd = 0; wd < 4; wd++) {
            uint64_t o = 0, x = 0;
            for (uint64_t r = in[wd]; r; r &= r - 1) {
                int b = __builtin_ctzll(r);
                int64_t lo, hi;
                sign_range(e, &w, wd * 64 + b, &lo, &hi);
                int64_t jmin = lo >> w.ks, jmax = hi >> w.ks;
                o |= (uint64_t)(jmin == jmax && (jmin & 1)) << b;
                x |= (uint64_t)(jmin != jmax) << b;
            }
            ones[wd] = o;
            cross[wd] = x;
        }
    }
    const qee_set *s = &e->set[e->rt_set];
    for (int wd = 0; wd < 4; wd++) {
        uint64_t cl[2] = {in[wd] & ~ones[wd] & ~cross[wd], ones[wd]};
        for (int t = 0; t < 2; t++) {
            if (act[t] == FILL0 || act[t] == FILL1) {
                uint64_t v = act[t] == FILL1 ? ~0ull : 0;
                v4u fv = SPLAT4(v); /* (one vector store a chip, not four word stores) */
                for (uint64_t r = cl[t]; r; r &= r - 1) ST4(u->e_base + (size_t)(wd * 64 + __builtin_ctzll(r)) * 4, fv);
                e->eany[wd] = v ? e->eany[wd] | cl[t] : e->eany[wd] & ~cl[t];
            } else if (act[t] == COMPUTE) {
                cross[wd] |= cl[t]; /* (constant T planes through the general step) */
            }
        }
    }
    sign_lin batch[256];
    int nb = 0;
    /* (axes_later: a linear edge's constants for the crossed chips; lin16: 16×16
     * chips and an x part below 2^31 over a chip, sign_lin_params' conditions
     * but two blocks) */
    int64_t sx = w.l[0] * (w.n[0] - 1), sy = w.l[1] * (w.n[1] - 1);
    int64_t lin_width = (sx < 0 ? -sx : sx) + (sy < 0 ? -sy : sy), lin_ymin = sy < 0 ? sy : 0;
    uint32_t lin_base = (uint32_t)(sx < 0 ? -sx : 0);
    bool lin16 = axes_later && w.n[0] == 16 && w.n[1] == 16 && (sx < 0 ? -sx : sx) < INT32_MAX;
    for (int wd = 0; wd < 4; wd++)
        for (uint64_t r = cross[wd]; r; r &= r - 1) {
            int c = wd * 64 + __builtin_ctzll(r);
            int64_t lo, hi;
            if (axes_later) {
                /* a linear edge: x part A·X0 + A·lx, its min A·X0 + min(0, sx) with
                 * sx = A·(tw − 1), so sign_lin_params' base (the x part less its
                 * min at lx = 0) is −min(0, sx) and its t0, boundary − lo −
                 * (B·Y0 − min R), is boundary − lo + min(0, sy): only lo differs
                 * between chips */
                lo = qlo[c];
                hi = lo + lin_width;
                int64_t jmin = lo >> w.ks, jmax = hi >> w.ks;
                if (lin16 && jmax == jmin + 1) {
                    sign_lin *q = &batch[nb++]; /* (done below, all together) */
                    q->c = c;
                    q->base = lin_base;
                    q->step = (uint32_t)w.l[0];
                    q->t0 = (w.k >= 63 ? 0 : (int64_t)((uint64_t)jmax << w.k)) - lo + lin_ymin;
                    q->tstep = w.l[1];
                    q->inv = jmin & 1 ? ~0ull : 0;
                    continue;
                }
                sign_axis_calc(&w, 0, e->xlead[c], chip_x0(e, c)); /* (for sign_cross, sign_sum_plane) */
                sign_axis_calc(&w, 1, e->ylead[c], chip_y0(e, c));
            }
            sign_range(e, &w, c, &lo, &hi);
            int64_t jmin = lo >> w.ks, jmax = hi >> w.ks;
            if (jmin != jmax && sign_lin_params(e, &w, c, lo, hi, &batch[nb])) {
                nb++; /* (done below, all together) */
                continue;
            }
            uint64_t tb[4];
            const uint64_t *t = tb;
            if (jmin == jmax) {
                for (int j = 0; j < 4; j++) tb[j] = jmin & 1 ? ~0ull : 0;
            } else if (!sign_cross(e, &w, c, lo, hi, tb)) {
                t = sign_sum_plane(e, c, s, w.k);
            }
            uint64_t *en = u->e_base + (size_t)c * 4;
            const uint64_t *m = u->m_base + (size_t)c * 4;
            uint64_t any = 0;
            for (int j = 0; j < 4; j++) {
                uint64_t E = en[j];
                uint64_t A = t[j] ^ u->acm, B = ((E | u->es) & (m[j] | u->ms)) ^ u->bcm, C = u->cs ^ u->ccm;
                uint64_t ne = E ^ ((E ^ ((A & B) | (C & (A | B)))) & (E | u->l_ungated));
                en[j] = ne;
                any |= j == 3 ? ne & e->lastmask : ne;
            }
            uint64_t bit = 1ull << (c & 63);
            e->eany[wd] = any ? e->eany[wd] | bit : e->eany[wd] & ~bit;
        }
#if SIGN_X86
    if (nb) sign_cross16_batch_avx512(batch, nb, u, e->eany);
#endif
    return true;
}

/* T planes of the chips of list[0..n) for a word that reads one bit (an edge's
 * sign, for an Enable load) and is not one sign_exec does: the range test of
 * compute_bit done first, in one loop, so a chip on one side of the edge
 * (most of them) costs a few compares and gets a shared constant plane; a
 * chip the edge crosses gets its plane by compares (sign_cross) or as a sum
 * (sign_sum_plane); the rest take tree_plane. Only where compute_bit would
 * test the range too (fast geometry, separable up to bit k, k ≤ 100); the
 * caches tree_bit skips here are hints and change no result. */
static void sign_planes(pp5_emc *e, const int *list, int n, const uint64_t **tp)
{
    int k = e->rt_k;
    const qee_set *s = e->rt_set >= 0 ? &e->set[e->rt_set] : NULL;
    if (!s || !e->fast_uv || k > 100 || (s->coef[4] & (((u128)1 << (k + 1)) - 1)) != 0) {
        for (int i = 0; i < n; i++) tp[i] = tree_plane(e, list[i], false);
        return;
    }
    if (e->groups_dirty) regroup(e);
    const uint64_t *zero = plane(e, PL_ZERO, 0);
    sign_word w;
    if (sign_word_init(e, &w)) {
        for (int i = 0; i < n; i++) {
            int c = list[i];
            int64_t lo, hi;
            int cls = sign_class(e, &w, c, &lo, &hi);
            uint64_t *out = e->t_last + (size_t)c * 4;
            if (cls < 2) {
                tp[i] = cls ? e->ones4 : zero + (size_t)c * 4;
            } else if (sign_cross(e, &w, c, lo, hi, out)) {
                tengine *t = &e->te[c]; /* the chip's T cache holds it, as tree_bit would */
                t->last_uid = s->uid;
                t->last_k = k;
                t->last_cfg = e->config[c];
                t->last_m = s->m;
                tp[i] = out;
            } else {
                tp[i] = sign_sum_plane(e, c, s, k);
            }
        }
        return;
    }
    i128 C = sext(s->coef[2], k);
    for (int i = 0; i < n; i++) {
        int c = list[i];
        axis_line *lx = &e->xline[e->xlead[c]], *ly = &e->yline[e->ylead[c]];
        line_range(lx, s, k, 0, chip_x0(e, c), e->tw);
        line_range(ly, s, k, 1, chip_y0(e, c), e->th);
        i128 jmin = (lx->rmin + ly->rmin + C) >> k, jmax = (lx->rmax + ly->rmax + C) >> k;
        if (jmin == jmax) tp[i] = jmin & 1 ? e->ones4 : zero + (size_t)c * 4;
        else tp[i] = sign_sum_plane(e, c, s, k);
    }
}

/* The ring slot of set number i ≥ 0 (i % QEE_SETS, without the sign fix-up of %) */
_Static_assert((QEE_SETS & (QEE_SETS - 1)) == 0, "QEE_SETS is a power of two");
static inline int qee_ring(int i) { return i & (QEE_SETS - 1); }

/* For the next shift (sh = e->shifts, no LSB token): which set collects the
 * coefficient bits, which one R_T reads, and the first shift from which
 * qee_shift's choices could differ (a set reaching its bit 0 or its output,
 * the collecting set full, R_T's index at its cap): until then qee_step
 * takes the same choices without searching. In the same search of the
 * sets, R_T at the end of the shift just done (sh − 1): result bit k of the
 * newest set that had reached its output, k = sh − 1 − token − 2 − latency
 * (A-17) — an older set than the plan's, or the same one. */
static void qee_plan(pp5_emc *e)
{
    uint64_t sh = e->shifts, ev = UINT64_MAX;
    e->q_into = -1;
    e->q_rt = -1;
    if (e->nset_total > 0) {
        int ni = qee_ring(e->nset_total - 1), into = -1;
        const qee_set *s = &e->set[ni];
        if (sh >= s->token_shift + SET_TOKEN_TO_BIT0) into = ni;
        else {
            ev = s->token_shift + SET_TOKEN_TO_BIT0;
            if (e->nset_total > 1) into = qee_ring(e->nset_total - 2);
        }
        if (into >= 0 && e->set[into].open && e->set[into].m < 128) {
            e->q_into = into;
            uint64_t full = sh + (uint64_t)(128 - e->set[into].m);
            if (full < ev) ev = full;
        }
    }
    uint64_t lead = SET_TOKEN_TO_BIT0 + (uint64_t)e->o.qee_latency;
    e->rt_set = -1;
    for (int i = e->nset_total - 1; i >= 0 && i >= e->nset_total - QEE_SETS; i--) {
        const uint64_t out = e->set[qee_ring(i)].token_shift + lead; /* (the shift of its result bit 0) */
        if (e->q_rt < 0) {
            if (sh < out) {
                if (out < ev) ev = out;
                continue;
            }
            e->q_rt = qee_ring(i);
            e->q_rt_base = out;
            if (out + 1000 < ev) ev = out + 1000;
        }
        if (sh > out) { /* (out ≤ sh − 1: R_T of the shift just done) */
            uint64_t k = sh - 1 - out;
            e->rt_set = qee_ring(i);
            e->rt_k = k > 1000 ? 1000 : (int)k;
            break;
        }
    }
    e->q_event = ev;
}

/* kept: a set whose coefficient bits of this shift the caller keeps
 * itself (pp5_emc_run's cdat; NULL: none) — only its bit count advances */
static void qee_shift(pp5_emc *e, const qee_set *kept)
{
    uint64_t sh = e->shifts;
    /* coefficient bits consumed on this shift go to the newest set whose bit 0
     * has started; an older set stops collecting when a newer one starts */
    if (e->nset_total > 0) {
        qee_set *s = &e->set[qee_ring(e->nset_total - 1)], *into = NULL;
        if (sh >= s->token_shift + SET_TOKEN_TO_BIT0) {
            if (e->nset_total > 1) e->set[qee_ring(e->nset_total - 2)].open = false;
            into = s;
        } else if (e->nset_total > 1) {
            into = &e->set[qee_ring(e->nset_total - 2)];
        }
        if (into && into->open && into->m < 128) {
            if (into != kept) {
                /* (one 64-bit half: a 128-bit negate or OR per coefficient cost more) */
                uint64_t bit = 1ull << (into->m & 63);
                if (into->m < 64)
                    for (int c = 0; c < 6; c++) into->coef[c] |= (u128)(bit & (0 - (uint64_t)(e->lat_dat[c] & 1)));
                else
                    for (int c = 0; c < 6; c++)
                        into->coef[c] |= (u128)(bit & (0 - (uint64_t)(e->lat_dat[c] & 1))) << 64;
            }
            into->m++;
        }
    }
    if (e->lat_lsb) {
        qee_set *s = &e->set[qee_ring(e->nset_total)];
#if defined(__SSE2__)
        /* (eight 16-byte stores: GCC makes the memset a rep stos, whose start-up
         * was ≈ 10 % of this function's samples) */
        _Static_assert(sizeof(qee_set) == 128, "qee_set: 128 bytes");
        __m128i z = _mm_setzero_si128(), *sv = (__m128i *)(void *)s; /* (written out: a loop becomes the memset again) */
        _mm_storeu_si128(sv, z);
        _mm_storeu_si128(sv + 1, z);
        _mm_storeu_si128(sv + 2, z);
        _mm_storeu_si128(sv + 3, z);
        _mm_storeu_si128(sv + 4, z);
        _mm_storeu_si128(sv + 5, z);
        _mm_storeu_si128(sv + 6, z);
        _mm_storeu_si128(sv + 7, z);
#else
        memset(s, 0, sizeof *s);
#endif
        s->token_shift = sh;
        s->open = true;
        s->uid = (uint64_t)e->nset_total;
        e->nset_total++;
    }
    /* (R_T at the end of this shift: qee_plan's, in its search of the sets) */
    e->shifts = sh + 1;
    qee_plan(e);
}

/* A shift with no LSB token before the planned event: only the collecting
 * set and R_T's bit index advance (qee_plan). */
static inline void qee_step(pp5_emc *e)
{
    uint64_t sh = e->shifts;
    if (e->lat_lsb || sh >= e->q_event) {
        qee_shift(e, NULL);
        return;
    }
    if (e->q_into >= 0) {
        qee_set *into = &e->set[e->q_into];
        uint64_t lo = into->m < 64 ? 1ull << (into->m & 63) : 0, hi = into->m >= 64 ? 1ull << (into->m & 63) : 0;
        for (int c = 0; c < 6; c++) {
            uint64_t on = 0 - (uint64_t)(e->lat_dat[c] & 1);
            into->coef[c] |= (u128)(hi & on) << 64 | (lo & on);
        }
        into->m++;
    }
    e->rt_set = e->q_rt;
    if (e->q_rt >= 0) e->rt_k = (int)(sh - e->q_rt_base);
    e->shifts = sh + 1;
}

/* ---- ALU ------------------------------------------------------------------ */

static inline uint64_t truth(uint8_t t, uint64_t a, uint64_t b, uint64_t c)
{
    if (t == 0x96) return a ^ b ^ c;
    if (t == 0xE8) return (a & b) | (c & (a | b));
    uint64_t r = 0;
    for (int i = 0; i < 8; i++)
        if (t >> i & 1) r |= ((i & 4) ? a : ~a) & ((i & 2) ? b : ~b) & ((i & 1) ? c : ~c);
    return r;
}

/* Can the Enable load give anything but 0 at a pixel whose E is 0? Operands
 * that do not depend on the pixel are known; the others range over 0 and 1. */
static bool enable_stays_0_calc(const pp5_emc *e, const pp5_pins *p)
{
    int a0 = 1 ^ p->acmp, b0 = 1 ^ p->bcmp, c0 = 1 ^ p->ccmp;
    bool a_var = p->agts_s || p->agts_t, b_var = !p->bgts_e && p->bgts_m, c_var = p->cgts_c;
    if (p->bgts_e) b0 = p->bcmp; /* wired-AND with E = 0 */
    for (int a = 0; a < 2; a++)
        for (int b = 0; b < 2; b++)
            for (int c = 0; c < 2; c++) {
                if ((!a_var && a != a0) || (!b_var && b != b0) || (!c_var && c != c0)) continue;
                if (e->o.enable_table >> (a << 2 | b << 1 | c) & 1) return false;
            }
    return true;
}

/* The same through a table of the eight operand pins (the edge words ask
 * once a word; the answer depends on the pins and the Enable table only):
 * e->es0[key] 0 = not known yet, 1 = false, 2 = true. Pins other than 0/1
 * (not from an IGC) are not cached. */
static inline bool enable_stays_0(pp5_emc *e, const pp5_pins *p)
{
    uint64_t ops;
    memcpy(&ops, &p->acmp, 8); /* acmp, agts_s, agts_t, bcmp, bgts_e, bgts_m, ccmp, cgts_c */
    if (ops & ~0x0101010101010101ull) return enable_stays_0_calc(e, p);
    unsigned key = (unsigned)((ops * 0x0102040810204080ull) >> 56); /* (the eight bit-0s as one byte) */
    if (!e->es0[key]) e->es0[key] = (uint8_t)(1 + enable_stays_0_calc(e, p));
    return e->es0[key] == 2;
}


/* One microcycle on wpc words of one chip, without branches: every effect is
 * a mask (0 when the word does not have it). */
static inline __attribute__((always_inline)) void alu_words(const pp5_emc *e, const alu_word *u, size_t wpc,
                                                            bool std, uint64_t *m, uint64_t *en, uint64_t *cy,
                                                            const uint64_t *s, const uint64_t *t, uint64_t *snap)
{
    for (size_t w = 0; w < wpc; w++) {
        /* A-8: each bus is a wired-AND of its selected sources (1 if none) XOR its Cmp bit */
        uint64_t E = en[w], M = m[w], K = cy[w], S = s[w];
        uint64_t A = ((S | u->ss) & (t[w] | u->ts)) ^ u->acm;
        uint64_t B = ((E | u->es) & (M | u->ms)) ^ u->bcm;
        uint64_t C = (K | u->cs) ^ u->ccm;
        uint64_t sum, ca, ev;
        if (std) { /* A-9 defaults */
            sum = A ^ B ^ C;
            ca = ev = (A & B) | (C & (A | B));
        } else {
            sum = truth(e->o.sum_table, A, B, C);
            ca = truth(e->o.carry_table, A, B, C);
            ev = truth(e->o.enable_table, A, B, C);
        }
        uint64_t wm = (E | u->w_ungated) & u->w_on;  /* A-11 */
        uint64_t lg = E | u->l_ungated;
        snap[w] = (M & u->snap_read) | (sum & u->snap_sum) | (snap[w] & u->snap_keep); /* A-10 */
        m[w] = M ^ ((M ^ sum) & wm);
        cy[w] = K ^ ((K ^ ca) & lg & u->c_on);
        en[w] = E ^ ((E ^ ev) & lg & u->e_on);
    }
}

/* The common case, one 16×16 chip = 4 words = one 256-bit vector, A-9
 * default tables, S = the previous read: eight variants by which of MWrt,
 * LdC, LdE the word has, so each stores only what it changes. GCC/clang
 * vector extensions; on x86-64 an AVX2 clone is picked at load time. */

static inline __attribute__((always_inline)) void kernel4(const alu_word *u, uint64_t *m, uint64_t *en,
                                                          uint64_t *cy, const uint64_t *s, const uint64_t *t,
                                                          uint64_t *snap, bool wr, bool lc, bool le)
{
    v4u E, M, K, S, T;
    LD4(E, en);
    LD4(M, m);
    LD4(K, cy);
    LD4(S, s);
    LD4(T, t);
    v4u A = ((S | SPLAT4(u->ss)) & (T | SPLAT4(u->ts))) ^ SPLAT4(u->acm); /* A-8 */
    v4u B = ((E | SPLAT4(u->es)) & (M | SPLAT4(u->ms))) ^ SPLAT4(u->bcm);
    v4u C = (K | SPLAT4(u->cs)) ^ SPLAT4(u->ccm);
    v4u lg = E | SPLAT4(u->l_ungated);
    v4u maj = (A & B) | (C & (A | B)); /* A-9 */
    if (wr) {
        v4u nm = M ^ ((M ^ (A ^ B ^ C)) & (E | SPLAT4(u->w_ungated))); /* A-11 */
        ST4(snap, M); /* A-10: the new S is M before the write */
        ST4(m, nm);
    }
    if (lc) {
        v4u nk = K ^ ((K ^ maj) & lg);
        ST4(cy, nk);
    }
    if (le) {
        v4u ne = E ^ ((E ^ maj) & lg);
        ST4(en, ne);
    }
}

/* The chips of list[0..n) (4 words each), T and S planes given per chip
 * (tp, sp NULL: the operand is not selected, any zero words do). */
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
__attribute__((target_clones("avx2", "default")))
#endif
static void alu_many4(const alu_word *u, const int *list, int n, const uint64_t *const *tp,
                      const uint64_t *const *sp, uint64_t *snap_base)
{
#define ALU_MANY4(wr, lc, le)                                                                      \
    for (int i = 0; i < n; i++) {                                                                  \
        size_t off = (size_t)list[i] * 4;                                                          \
        kernel4(u, u->m_base + off, u->e_base + off, u->c_base + off, sp ? sp[i] : u->zero_base,      \
                tp ? tp[i] : u->zero_base, snap_base + off,                                          \
                wr, lc, le);                                                                       \
    }                                                                                              \
    break;
    switch ((u->write ? 1 : 0) | (u->ldc ? 2 : 0) | (u->lde ? 4 : 0)) {
    case 1: ALU_MANY4(true, false, false)
    case 2: ALU_MANY4(false, true, false)
    case 3: ALU_MANY4(true, true, false)
    case 4: ALU_MANY4(false, false, true)
    case 5: ALU_MANY4(true, false, true)
    case 6: ALU_MANY4(false, true, true)
    case 7: ALU_MANY4(true, true, true)
    default: break;
    }
#undef ALU_MANY4
}

static void alu_chip(pp5_emc *e, const alu_word *u, int c, uint64_t new_gen)
{
    size_t wpc = (size_t)e->wpc, off = (size_t)c * wpc;
    uint64_t *m = u->m_base + off, *en = u->e_base + off, *cy = u->c_base + off;
    const uint64_t *t = u->need_t ? tree_plane(e, c, !u->lde) : u->zero_base + off;
    const uint64_t *s = !u->need_s ? u->zero_base + off
                      : e->s_gen[c] == e->gen ? e->s_snap + off : u->s_base + off;
    uint64_t *snap = e->s_snap + off;
    if (u->std) alu_words(e, u, wpc, true, m, en, cy, s, t, snap);
    else alu_words(e, u, wpc, false, m, en, cy, s, t, snap);
    if (u->save_read || u->keep_sum) e->s_gen[c] = new_gen;
    if (u->lde) update_lit(e, c);
}

/* Apply chip c's deferred Carry updates (E was 0 for all of them). */
void pp5_emcf_flush_chip(pp5_emc *e, int c)
{
    if (e->hole_hi > e->hole_lo) pp5_emcf_log_fill(e);
    size_t wpc = (size_t)e->wpc;
    uint64_t *cy = plane(e, PL_CARRY, c);
    const uint64_t *zero = plane(e, PL_ZERO, c);
    bool std = e->o.carry_table == 0xE8;
    for (int i = pend_start(e, c); i < e->log_len; i++) {
        const defer_op *d = &e->log[i];
        const defer_word *u = &d->u;
        const uint64_t *t = u->need_t && d->set_ix >= 0 ? tree_bit(e, c, &e->arch[d->set_ix], d->k, false) : zero;
        const uint64_t *s = u->need_s && d->s_addr >= 0 ? plane(e, d->s_addr, c) : zero;
        const uint64_t *m = plane(e, u->addr, c);
        for (size_t w = 0; w < wpc; w++) {
            uint64_t A = ((s[w] | u->ss) & (t[w] | u->ts)) ^ u->acm;
            uint64_t B = (u->es & (m[w] | u->ms)) ^ u->bcm; /* E = 0 */
            uint64_t C = (cy[w] | u->cs) ^ u->ccm;
            cy[w] = std ? (A & B) | (C & (A | B)) : truth(e->o.carry_table, A, B, C);
        }
    }
    e->pend_from[c] = -1;
    e->pend[c >> 6] &= ~(1ull << (c & 63));
}

void pp5_emcf_flush_all(pp5_emc *e)
{
    for (int wd = 0; wd * 64 < e->nchips; wd++)
        while (e->pend[wd]) pp5_emcf_flush_chip(e, wd * 64 + __builtin_ctzll(e->pend[wd]));
    log_clear(e);
}

static inline void drop_pending(pp5_emc *e, int c)
{
    e->pend_from[c] = -1;
    e->pend[c >> 6] &= ~(1ull << (c & 63));
}

/* Chip c executes microword u: its deferred Carry updates are dropped when u
 * overwrites Carry without reading it, applied first when u reads Carry or
 * writes memory (which they read), and otherwise left pending. */
static inline void settle_pending(pp5_emc *e, const alu_word *u, int c)
{
    if (chip_pending(e, c)) {
        if (u->ldc && !u->reads_c) drop_pending(e, c);
        else if (u->reads_c || u->write) pp5_emcf_flush_chip(e, c);
    }
}

/* Chips wd·64 + (bits of mask) join the list, their pending Carry settled. */
static inline void add_chips(pp5_emc *e, const alu_word *u, int wd, uint64_t mask, int *list, int *n)
{
    for (uint64_t p = mask & e->pend[wd]; p; p &= p - 1) settle_pending(e, u, wd * 64 + __builtin_ctzll(p));
    int k = *n; /* (a local count: the stores through n do not alias list) */
    for (; mask; mask &= mask - 1) list[k++] = wd * 64 + __builtin_ctzll(mask);
    *n = k;
}

/* The chips of list[0..n) execute microword u (pending Carry settled). */
static void exec_list(pp5_emc *e, const alu_word *u, const int *list, int n, uint64_t new_gen)
{
    if (!u->fast4) {
        for (int i = 0; i < n; i++) alu_chip(e, u, list[i], new_gen);
        return;
    }
    const uint64_t *tp[256], *sp[256];
    if (u->need_t && u->lde && sign_exec(e, u, list, n, NULL)) return; /* (an edge's sign: the whole word) */
    if (u->need_t && u->lde) sign_planes(e, list, n, tp); /* (E loads test a sign) */
    else if (u->need_t)
        for (int i = 0; i < n; i++) tp[i] = tree_plane(e, list[i], true);
    if (u->need_s)
        for (int i = 0; i < n; i++) {
            size_t off = (size_t)list[i] * 4;
            sp[i] = e->s_gen[list[i]] == e->gen ? e->s_snap + off : u->s_base + off;
        }
    alu_many4(u, list, n, u->need_t ? tp : NULL, u->need_s ? sp : NULL, e->s_snap);
    if (u->save_read)
        for (int i = 0; i < n; i++) e->s_gen[list[i]] = new_gen;
    if (u->lde)
        for (int i = 0; i < n; i++) update_lit(e, list[i]);
}

/* The log entry for this microword (created on first use). */
static int defer_entry(pp5_emc *e, const alu_word *u, int *entry)
{
    if (*entry >= 0) return *entry;
    if (e->log_len == e->log_cap) {
        int nc = e->log_cap ? 2 * e->log_cap : 256;
        defer_op *n = realloc(e->log, (size_t)nc * sizeof *n);
        if (!n) return -1;
        e->log = n;
        e->log_cap = nc;
    }
    defer_op *d = &e->log[e->log_len];
    d->u = (defer_word){u->ss, u->ts, u->es, u->ms, u->cs, u->acm, u->bcm, u->ccm, u->addr, u->need_t, u->need_s};
    d->s_addr = e->s_addr;
    d->set_ix = -1;
    d->k = 0;
    if (u->need_t && e->rt_set >= 0 && e->rt_k < 128) {
        const qee_set *s = &e->set[e->rt_set];
        if (!(e->arch_len > 0 && e->arch[e->arch_len - 1].uid == s->uid && e->arch[e->arch_len - 1].m == s->m)) {
            if (e->arch_len == e->arch_cap) {
                int nc = e->arch_cap ? 2 * e->arch_cap : 64;
                qee_set *n = realloc(e->arch, (size_t)nc * sizeof *n);
                if (!n) return -1;
                e->arch = n;
                e->arch_cap = nc;
            }
            e->arch[e->arch_len++] = *s;
        }
        d->set_ix = e->arch_len - 1;
        d->k = e->rt_k;
    }
    *entry = e->log_len++;
    return *entry;
}

enum { LOG_LIMIT = 1 << 14 };

/* The microword of pins p at latched address addr, as masks. */
static void word_setup(const pp5_emc *e, const pp5_pins *p, int addr, alu_word *up)
{
    bool valid = addr < PP5_EMC_MEM_BITS;
    alu_word u;
    u.addr = valid ? addr : PL_ZERO;
    u.ss = p->agts_s ? 0 : ~0ull;
    u.ts = p->agts_t ? 0 : ~0ull;
    u.es = p->bgts_e ? 0 : ~0ull;
    u.ms = p->bgts_m ? 0 : ~0ull;
    u.cs = p->cgts_c ? 0 : ~0ull;
    u.acm = p->acmp ? ~0ull : 0;
    u.bcm = p->bcmp ? ~0ull : 0;
    u.ccm = p->ccmp ? ~0ull : 0;
    u.write = p->mwrt && valid;
    u.ldc = p->ldc;
    u.lde = p->lde;
    u.std = e->o.sum_table == 0x96 && e->o.carry_table == 0xE8 && e->o.enable_table == 0xE8;
    u.gate_w = e->o.mwrt_gated_by_e;
    u.gate_l = e->o.loads_gated_by_e;
    bool prev_read = e->o.s_source == PP5_S_PREV_READ;
    u.save_read = prev_read && u.write;
    u.keep_sum = !prev_read;
    u.need_t = p->agts_t;
    u.need_s = p->agts_s;
    u.reads_c = p->cgts_c;
    u.w_ungated = u.gate_w ? 0 : ~0ull;
    u.w_on = u.write ? ~0ull : 0;
    u.l_ungated = u.gate_l ? 0 : ~0ull;
    u.c_on = u.ldc ? ~0ull : 0;
    u.e_on = u.lde ? ~0ull : 0;
    u.snap_read = u.save_read ? ~0ull : 0;
    u.snap_sum = u.keep_sum ? ~0ull : 0;
    u.snap_keep = ~(u.snap_read | u.snap_sum);
    u.fast4 = u.std && prev_read && e->wpc == 4;
    u.m_base = plane(e, u.addr, 0); /* invalid: the zero plane, never changed (write is off) */
    u.e_base = plane(e, PL_E, 0);
    u.c_base = plane(e, PL_CARRY, 0);
    u.zero_base = plane(e, PL_ZERO, 0);
    u.s_base = e->s_addr >= 0 ? plane(e, e->s_addr, 0) : u.zero_base;
    *up = u;
}

static void alu(pp5_emc *e, const pp5_pins *p, int addr)
{
    bool valid = addr < PP5_EMC_MEM_BITS;
    if (!valid) e->warnings++; /* A-16: reads 0, writes ignored */
    alu_word u;
    word_setup(e, p, addr, &u);
    bool prev_read = e->o.s_source == PP5_S_PREV_READ;
    uint64_t new_gen = e->gen + 1;
    if (e->log_len && !(e->pend[0] | e->pend[1] | e->pend[2] | e->pend[3])) log_clear(e);
    if (e->log_len >= LOG_LIMIT) pp5_emcf_flush_all(e);
    if (prev_read && !u.write && !u.gate_l && !p->agts_s && !p->agts_t && !p->bgts_e && !p->bgts_m &&
        !p->cgts_c) {
        /* No operand depends on the pixel (ENABLE_ALL, the z-test's Carry preset):
         * Carry and E become constants everywhere — two plane fills. */
        int idx = (1 ^ (p->acmp & 1)) << 2 | (1 ^ (p->bcmp & 1)) << 1 | (1 ^ (p->ccmp & 1));
        if (u.ldc) {
            int v = e->o.carry_table >> idx & 1;
            if (e->carry_fill != v + 1) { /* (the z-test repeats its preset while it waits) */
                uint64_t *cy = plane(e, PL_CARRY, 0);
                memset(cy, v ? 0xff : 0, e->pw * sizeof *cy);
                e->carry_fill = v + 1;
            }
            memset(e->pend, 0, sizeof e->pend); /* overwritten, never read: nothing pending */
        }
        if (u.lde) {
            int v = e->o.enable_table >> idx & 1;
            memset(plane(e, PL_E, 0), v ? 0xff : 0, e->pw * sizeof(uint64_t));
            for (int wd = 0; wd * 64 < e->nchips; wd++) {
                int nw = e->nchips - wd * 64;
                e->eany[wd] = v ? (nw >= 64 ? ~0ull : (1ull << nw) - 1) : 0;
            }
        }
        e->s_addr = valid ? addr : -1; /* S follows the read (A-10) */
        e->gen = new_gen;
        return;
    }
    if (u.ldc) e->carry_fill = 0; /* Carry may change below (and deferred updates change it later) */
    /* What the word does to a chip whose E is all 0 (A-11): a write or a load
     * not gated by E, or S taking the sum (A-10 alternative). */
    bool dark_mem = u.write && !u.gate_w, dark_carry = u.ldc && !u.gate_l;
    bool dark_en = u.lde && !u.gate_l && !enable_stays_0(e, p);
    int list[256], n = 0;
    if (!prev_read || dark_mem || dark_en) {
        for (int wd = 0; wd * 64 < e->nchips; wd++) {
            int nw = e->nchips - wd * 64;
            add_chips(e, &u, wd, nw >= 64 ? ~0ull : (1ull << nw) - 1, list, &n);
        }
    } else if (dark_carry) {
        /* Carry only: dark chips defer it when it needs T (the costly operand);
         * chip sets as bit masks, 64 chips a word */
        int entry = -1;
        uint64_t run[4], dark[4];
        for (int wd = 0; wd * 64 < e->nchips; wd++) {
            int nw = e->nchips - wd * 64;
            uint64_t all = nw >= 64 ? ~0ull : (1ull << nw) - 1;
            run[wd] = e->eany[wd];
            if (u.need_s) /* S is a snapshot there: not kept in the log */
                for (int i = 0; i < 64 && i < nw; i++)
                    if (e->s_gen[wd * 64 + i] == e->gen) run[wd] |= 1ull << i;
            dark[wd] = all & ~run[wd];
            /* the executing chips settle first: their pending entries end before this word */
            add_chips(e, &u, wd, run[wd], list, &n);
        }
        for (int wd = 0; wd * 64 < e->nchips; wd++) {
            if (!u.reads_c) e->pend[wd] &= ~dark[wd]; /* Carry overwritten: drop what was pending */
            uint64_t later = u.need_t ? dark[wd] : dark[wd] & e->pend[wd], now = dark[wd] & ~later;
            if (later && defer_entry(e, &u, &entry) < 0) { /* out of memory: do it now */
                for (uint64_t r = later; r; r &= r - 1) {
                    int c = wd * 64 + __builtin_ctzll(r);
                    if (chip_pending(e, c)) pp5_emcf_flush_chip(e, c);
                    list[n++] = c;
                }
                later = 0;
            }
            for (uint64_t fresh = later & ~e->pend[wd]; fresh; fresh &= fresh - 1)
                pend_set(e, wd * 64 + __builtin_ctzll(fresh), entry);
            e->pend[wd] |= later;
            for (; now; now &= now - 1) list[n++] = wd * 64 + __builtin_ctzll(now); /* nothing pending */
        }
    } else if (u.fast4 && u.need_t && u.lde && !u.write && !u.ldc && !u.reads_c &&
               sign_exec(e, &u, NULL, 0, (uint64_t[4]){e->eany[0], e->eany[1], e->eany[2], e->eany[3]})) {
        /* an edge's sign on the lit chips, done (no list: their pending Carry
         * stays, as settle_pending leaves it for a word that neither loads nor
         * reads Carry nor writes) */
        n = -1;
    } else {
        for (int wd = 0; wd * 64 < e->nchips; wd++) add_chips(e, &u, wd, e->eany[wd], list, &n);
    }
    if (n >= 0) exec_list(e, &u, list, n, new_gen);
    /* S for the next microcycle (A-10): chips that wrote hold a snapshot; the
     * others read plane addr unchanged */
    if (prev_read) e->s_addr = valid ? addr : -1;
    else e->s_addr = -1;
    e->gen = new_gen;
}

/* S follows the read of a word that changes nothing (A-10 default) */
static void sense_only(pp5_emc *e, int addr)
{
    if (e->o.s_source != PP5_S_PREV_READ) return;
    e->s_addr = addr < PP5_EMC_MEM_BITS ? addr : -1;
    e->gen++;
}

/* A configuration word's shift (the latched AddrL lo, AddrH hi; its ACmp pin acmp). */
static void config_word(pp5_emc *e, unsigned lo, unsigned hi, uint8_t acmp)
{
    /* A-14: chip k takes address bit i from AddrH where bit i of k is 1;
     * selected when the address it sees, (AddrL & ~k) | (AddrH & k), is
     * all 0, i.e. k ⊇ AddrL and k ∩ AddrH = ∅: the selected chips are
     * AddrL | (a subset of the bits in neither), enumerated directly
     * (paired addressing: exactly chip AddrL); shifts in the ACmp pin */
    unsigned free = ~(lo | hi) & 0xffu;
    if (lo & hi) return;
    uint32_t in = (uint32_t)(acmp & 1) << 21;
    unsigned sub = 0;
    do {
        int k = (int)(lo | sub); /* (chip numbers are < 256: k's 8 bits are all of it) */
        if (k < e->nchips) {
            if (chip_pending(e, k)) pp5_emcf_flush_chip(e, k);
            e->config[k] = (e->config[k] >> 1) | in;
            e->groups_dirty = true;
        }
        sub = (sub - free) & free; /* the next subset of free */
    } while (sub);
}

/* The word part of one clock (after the QEE shift, before the pin latches). */
static void step_word(pp5_emc *e, const pp5_pins *p)
{
    int addr = e->lat_addr_l;
    if (p->redundant) {
        /* A-13: redundant code; ExtOp strobes are logged (A-23) */
        for (int i = 0; i < 6; i++)
            if (p->extop >> i & 1) e->extops[i]++;
        if (p->config_mode) config_word(e, e->lat_addr_l, e->lat_addr_h, p->acmp);
        sense_only(e, addr);
    } else if (p->ldc || p->lde || p->mwrt) {
        alu(e, p, addr);
    } else {
        /* no state change: only the sense latch S follows the read */
        sense_only(e, addr);
    }
}

static inline void latch_pins(pp5_emc *e, const pp5_pins *p)
{
    e->lat_addr_l = p->addr_l;
    e->lat_addr_h = p->addr_h;
    memcpy(e->lat_dat, p->dat, 6);
    e->lat_lsb = p->lsb;
}

void pp5_emc_step(pp5_emc *e, const pp5_pins *p)
{
    seg_settle(e);
    if (p->trst) qee_step(e);
    step_word(e, p);
    latch_pins(e, p);
}

/* ---- blocks of clocks (pp5_emc_run) -------------------------------------- */

/* Within a block the array runs chip-major: the words between two Enable
 * loads that can light a pixel or read T (or configuration words, or words
 * whose T bit is not final yet) form a segment; the QEE advances clock by clock as the segment is decoded (it
 * depends only on the pins), and when the segment ends each chip that can
 * change there runs all of its words in turn with Enable, Carry and S held in
 * registers. Chips are independent: a chip's state after a clock depends only
 * on its own state, the pins and its own T, so running them one after the
 * other gives the state of the clock-by-clock array. Within a segment E can
 * only go from 1 to 0: the Enable loads in it are of the E ← E ∧ f kind
 * (enable_stays_0: a pixel with E = 0 keeps it; the z-test's a=0 b=e c=~cy
 * lde), so a chip whose E is all 0 (dark) at the start stays dark and changes
 * only in Carry (writes are gated by E, A-11; LdC is not), and a running chip
 * whose E becomes all 0 at such a load stops there; their Carry updates join
 * the deferred log as pp5_emc_step would log them (seg_defer). An edge's
 * Enable load (it reads T) still ends the segment: sign_exec does it whole,
 * cheaper than the segment's adder for the chips the edge crosses. A segment also ends
 * before a new coefficient set takes the ring slot of a set it reads and after
 * SEG_MAX ops; at the end of the block it stays open (the next block carries
 * it on; pp5_emc_step, the accessors and the API writes run it first:
 * seg_settle). Only the A-9/A-10/A-11 defaults on chips of four words take
 * this path (other options step).
 *
 * Decoding a word is a template copy: the op's fields that depend only on the
 * eleven control pins and the address's validity are made once per array
 * (seg_tmpl_make, keyed by one 16-byte compare of the pins: pins_key). */

enum { SEG_MAX = 512 };
enum { S_INIT, S_PREV_M, S_PLANE };

typedef struct seg_op {
    /* the op's template (seg_tmpl: fixed by the control pins and the address's validity) */
    uint8_t write, ldc, lde, fill, fill_v, need_t, need_s, reads_c;
    uint8_t shape;          /* SH_*: a word of the library with a short kernel */
    uint8_t kind;           /* template only: OPK_* */
    uint8_t opm;            /* the operand masks of alu_word (each all 0 or all 1) as bits: OPM */
    /* (bytes up to here are copied from the template; the rest per op) */
    uint8_t s_mode;
    uint8_t t_same;         /* T is the previous T op's (same set and bit) */
    uint8_t run;            /* first op of a fused run (seg_fuse): its length in bits, else 0 */
    uint8_t k;
    int8_t set_ring;        /* T = bit k of e->set[set_ring]; -1: T = 0 */
    int16_t m_plane;        /* plane read (and written): addr, or PL_ZERO outside memory */
    int16_t s_plane;        /* S_PLANE: the plane the previous clock read */
    int16_t s_addr;         /* e->s_addr in this clock (-1: S = 0), for the log */
    int16_t ldc_rank;       /* Carry-loading ops before this one in the segment */
    uint64_t *m0;           /* chip 0's words of plane m_plane (chip c: + 4c) */
    const uint64_t *s0;     /* S_PLANE: chip 0's words of plane s_plane */
} seg_op;
#define SEG_TMPL_BYTES offsetof(seg_op, s_mode)
/* Operand mask b of op o (OPM_SS .. OPM_CCM: alu_word's ss .. ccm), kept as
 * one bit so that an op is 48 bytes, not 104: the decode writes and the chip
 * pass reads fewer lines. */
enum { OPM_SS, OPM_TS, OPM_ES, OPM_MS, OPM_CS, OPM_ACM, OPM_BCM, OPM_CCM };
#define OPM(o, b) ((uint64_t)0 - (uint64_t)((o)->opm >> (b) & 1))

/* What pp5_emc_run does with a word that changes something (seg_tmpl): join
 * the segment, or step it (an Enable load that reads T or can light a pixel);
 * a word that joins and changes nothing after all (its write outside memory)
 * only moves S (OPK_SENSE) */
enum { OPK_JOIN = 1, OPK_STEP, OPK_SENSE };

/* Templates: key = the eleven control pins acmp .. mwrt as bits 0..10 (the
 * pins' order) and the address's validity as bit 11 (pins_key). */
enum { TMPL_KEYS = 1 << 12, TMPL_MAX = 64 };

enum { SH_GENERIC, SH_WRITE_T, SH_WRITE_S, SH_CARRY_T_NM, SH_LDE_E_NC };
/* (SH_LDE_E_NC, the z-test's Enable load a=0 b=e c=~cy lde, is given by
 * seg_fuse, not by the template: the chip pass's own short kernel) */

/* A coefficient set the segment reads T from, as the chip pass sees it.
 * With the adder, what the chips of one column (row) share sits in the arena,
 * a slot per x (y) line: the range of P (R) over the line, made for every
 * running chip's line when the segment is flushed, and — when a chip's adder
 * first starts there (seg_line) — the 16-bit masks of P's (R's) bits klo ..
 * kmax (bit lx: column lx) and the low 64 bits of the 16 values. */
typedef struct seg_set {
    int kmin, kmax;         /* lowest and highest bit read */
    int klo, nb;            /* masks of bits klo .. klo+nb-1 */
    bool adder;             /* separable in bits 0..kmax, kmax ≤ 63, 16×16 chips, arena room */
    i128 co[6];             /* coefficients sign-extended from bit kmax (≡ the set's mod 2^(kmax+1)) */
    size_t xbase, ybase;    /* arena offsets of slot 0 */
    int nx, ny;
    /* lin: both parts linear and narrow (the z and colour planes): a chip's
     * min of Q is lin_lx·X0 + lin_ly·Y0 + lin_c and its max that + lin_w, all
     * mod 2^64 (seg_chip; the lines' ranges are not made) */
    bool lin;
    uint64_t lin_lx, lin_ly, lin_c, lin_w;
    /* made[a]: bit i, slot i's masks and low words made (seg_line, when a chip
     * first steps there); in the seg, not in the arena: a chip's test then
     * reads a line that stays in L1, not the slot's arena words, which the
     * planes of the chips before it have often evicted */
    uint64_t made[2][4];
} seg_set;

enum { SEG_LOWS = 16, SEG_RANGE = 4, SEG_SLOT_EXTRA = SEG_LOWS + SEG_RANGE };
/* per slot: nb masks, 16 low words, min and max (two i128; not made for a lin set) */

typedef struct seg {
    seg_op *op;             /* opbuf[0] or [1]: the other one may hold the log's hole (seg_defer) */
    seg_op opbuf[2][SEG_MAX];
    seg_set set[QEE_SETS];  /* by ring index */
    int n;                  /* ops (words that write or load Carry) */
    int clocks;             /* clocks decoded (ops and clocks that only read) */
    int prev_plane;         /* plane read in the last clock decoded (PL_ZERO: none) */
    bool prev_write;        /* the last clock decoded was a writing op */
    bool has_t;
    bool has_lde;           /* an op loads Enable (E ← E ∧ f: only darkens, enable_stays_0) */
    int nldc;               /* ops that load Carry */
    int last_ldc;           /* the last of them (-1: none) */
    int last_over;          /* the last op that loads Carry without reading it (a fill too; -1: none) */
    uint64_t min_uid;       /* oldest coefficient set an op reads T from */
    int last_t_ring, last_t_k; /* the last op reading T */
    /* the running chips' columns and rows (the same slots for every set) */
    int16_t xslot[256], yslot[256]; /* by chip of the lead: slot (set at the running chips' leads: seg_slots) */
    int16_t xl[256], yl[256];       /* slot -> lead chip */
    int nx, ny;
    bool slots_made;                /* for this segment's running chips */
    int16_t stop[256];      /* chip pass: a chip whose E became all 0 after op stop[c] - 1 stops there */
    uint64_t stopped[4];    /* those chips */
    uint64_t lit[4];        /* chip pass, has_lde: the running chips whose E is not all 0 at the end */
    unsigned ldc_rings;     /* sets that Carry-loading ops read T from (bit: ring index) */
    bool keep_ops;          /* the log's hole keeps this segment's op buffer (seg_defer) */
    uint64_t *pl0[NPLANES];  /* chip 0's words of each plane (plane(e, a, 0): the ops' m0 and s0 by one load) */
    uint16_t tmap[TMPL_KEYS]; /* key -> the template's byte offset in the seg (0: not made yet; an offset, not an
                               * index: no multiply in the decode's key -> template chain) */
    int ntmpl;
    seg_op tmpl[TMPL_MAX + 1]; /* (+ a spare) */
    uint64_t *arena;
    size_t arena_cap, arena_len;
} seg;

bool pp5_emcf_seg_open(const seg *g) { return g->n || g->clocks; }

bool pp5_emcf_block_capable(const pp5_emc *e)
{
    const pp5_emc_options *o = &e->o;
    return o->sum_table == 0x96 && o->carry_table == 0xE8 && o->enable_table == 0xE8 && o->mwrt_gated_by_e &&
           !o->loads_gated_by_e && o->s_source == PP5_S_PREV_READ && e->wpc == 4;
}

void pp5_emcf_seg_free(seg *g)
{
    if (g) free(g->arena);
    free(g);
}

static void seg_reset(seg *g);
struct seg *pp5_emcf_seg_new(const pp5_emc *e)
{
    seg *g = malloc(sizeof(seg));
    if (g) {
        for (int a = 0; a < NPLANES; a++) g->pl0[a] = plane(e, a, 0);
        g->op = g->opbuf[0];
        g->keep_ops = false;
        g->arena = NULL;
        g->arena_cap = 0;
        memset(g->xslot, -1, sizeof g->xslot);
        memset(g->yslot, -1, sizeof g->yslot);
        g->nx = g->ny = 0;
        g->slots_made = false;
        memset(g->tmap, 0, sizeof g->tmap);
        g->ntmpl = 0;
        seg_reset(g);
    }
    return g;
}

static void seg_reset(seg *g)
{
    if (g->keep_ops) { /* (the log's hole has the ops: the next segment takes the other buffer) */
        g->op = g->opbuf[g->op == g->opbuf[0]];
        g->keep_ops = false;
    }
    g->n = 0;
    g->clocks = 0;
    g->has_t = false;
    g->has_lde = false;
    g->nldc = 0;
    g->ldc_rings = 0;
    g->last_ldc = g->last_over = -1;
    for (int r = 0; r < QEE_SETS; r++) {
        g->set[r].kmax = -1;
        g->set[r].kmin = 128;
    }
    g->min_uid = UINT64_MAX;
    g->last_t_ring = -2;
    g->last_t_k = -1;
}

/* Room in the log for the segment's Carry-loading ops, made before the chip
 * pass (nothing has changed yet if there is none). */
static bool seg_log_room(pp5_emc *e, const seg *g)
{
    int count = g->nldc;
    if (!count) return true;
    if (e->log_len && !(e->pend[0] | e->pend[1] | e->pend[2] | e->pend[3])) log_clear(e);
    if (e->log_len + count > LOG_LIMIT) pp5_emcf_flush_all(e);
    if (e->log_len + count > e->log_cap) {
        int nc = e->log_cap ? e->log_cap : 256;
        while (nc < e->log_len + count) nc *= 2;
        defer_op *nl = realloc(e->log, (size_t)nc * sizeof *nl);
        if (!nl) return false;
        e->log = nl;
        e->log_cap = nc;
    }
    if (e->arch_len + QEE_SETS > e->arch_cap) {
        int nc = e->arch_cap ? e->arch_cap : 64;
        while (nc < e->arch_len + QEE_SETS) nc *= 2;
        qee_set *na = realloc(e->arch, (size_t)nc * sizeof *na);
        if (!na) return false;
        e->arch = na;
        e->arch_cap = nc;
    }
    return true;
}

/* Write the log's reserved entries (the hole seg_defer left) from the
 * segment's ops: what flush_chip reads of each word. */
void pp5_emcf_log_fill(pp5_emc *e)
{
    int j = e->hole_lo;
    for (int i = e->hole_first; i < e->hole_n; i++) {
        const seg_op *o = &e->hole_op[i];
        if (!o->ldc) continue;
        defer_op *d = &e->log[j++];
        d->u.ss = OPM(o, OPM_SS);
        d->u.ts = OPM(o, OPM_TS);
        d->u.es = OPM(o, OPM_ES);
        d->u.ms = OPM(o, OPM_MS);
        d->u.cs = OPM(o, OPM_CS);
        d->u.acm = OPM(o, OPM_ACM);
        d->u.bcm = OPM(o, OPM_BCM);
        d->u.ccm = OPM(o, OPM_CCM);
        d->u.addr = o->m_plane;
        d->u.need_t = o->need_t;
        d->u.need_s = o->need_s;
        d->s_addr = o->s_addr;
        d->set_ix = o->need_t && o->set_ring >= 0 ? e->hole_arch[o->set_ring] : -1;
        d->k = d->set_ix >= 0 ? o->k : 0;
    }
    e->hole_lo = e->hole_hi = 0;
}

/* The dark chips' share of the segment, after the chip pass: their Carry
 * updates, logged (A-11). Dark are the chips dark from the start (dark) and
 * those whose E became all 0 at an Enable load of the segment (from op
 * g->stop[c] on: the load only darkens, enable_stays_0). A chip starting at op
 * s takes the ops from the last one that overwrites Carry without reading it,
 * if that is at or after s (the z-test's preset: a constant written once),
 * else from s. The entries are made once, for the ops from the earliest start,
 * as a hole in the log (log_fill writes them if a chip's entries are ever
 * applied): the segment's op buffer is kept for it, the next segment decodes
 * into the other one. */
static void seg_defer(pp5_emc *e, seg *g, const uint64_t *dark, bool dark_filled)
{
    int last_over = g->last_over, nldc = g->nldc;
    bool any_dark = (dark[0] | dark[1] | dark[2] | dark[3]) != 0;
    bool any_stop = (g->stopped[0] | g->stopped[1] | g->stopped[2] | g->stopped[3]) != 0;
    if (!nldc || !(any_dark || any_stop)) return;
    int over_start = last_over < 0 ? g->n : g->op[last_over].fill ? last_over + 1 : last_over;
#define SEG_EFF(s) (last_over >= (s) ? over_start : (s))
    uint64_t fill_v = last_over >= 0 && g->op[last_over].fill && g->op[last_over].fill_v ? ~0ull : 0;
    bool fill = last_over >= 0 && g->op[last_over].fill;
    /* what the segment overwrites: nothing pending there (the chips that went
     * dark at an Enable load ran: nothing was pending) */
    if (any_dark && last_over >= 0) {
        for (int wd = 0; wd < 4; wd++) e->pend[wd] &= ~dark[wd];
        if (fill && !dark_filled) /* (dark_filled: the whole plane was, before the chip pass) */
            for (int wd = 0; wd < 4; wd++)
                for (uint64_t m = dark[wd]; m; m &= m - 1) {
                    uint64_t *cy = plane(e, PL_CARRY, wd * 64 + __builtin_ctzll(m));
                    cy[0] = cy[1] = cy[2] = cy[3] = fill_v;
                }
    }
    for (int wd = 0; wd < 4; wd++)
        for (uint64_t m = g->stopped[wd]; m; m &= m - 1) {
            int c = wd * 64 + __builtin_ctzll(m);
            if (last_over >= g->stop[c]) {
                drop_pending(e, c);
                if (fill) {
                    uint64_t *cy = plane(e, PL_CARRY, c);
                    cy[0] = cy[1] = cy[2] = cy[3] = fill_v;
                }
            }
        }
    /* no chip left with pending entries: the log (and an earlier hole) is dropped;
     * else an earlier hole is written before its op buffer is reused */
    if (e->log_len && !(e->pend[0] | e->pend[1] | e->pend[2] | e->pend[3])) log_clear(e);
    if (e->hole_hi > e->hole_lo) pp5_emcf_log_fill(e);
    int emin = any_dark ? SEG_EFF(0) : g->n;
    for (int wd = 0; wd < 4; wd++)
        for (uint64_t m = g->stopped[wd]; m; m &= m - 1) {
            int st = g->stop[wd * 64 + __builtin_ctzll(m)], ef = SEG_EFF(st);
            if (ef < emin) emin = ef;
        }
    /* entries (room made by seg_log_room): the Carry-loading ops from emin, the
     * first logged op at or after op i is entry lo + ldc_rank[i] - ldc_rank[emin]
     * (none when ldc_rank[i] = nldc); T of the sets as they are now (bits below k
     * were final when a word read bit k) */
    int lo = e->log_len, base = emin < g->n ? g->op[emin].ldc_rank : nldc;
#define SEG_ENTRY(i) ((i) < g->n && g->op[i].ldc_rank < nldc ? lo + g->op[i].ldc_rank - base : -1)
    if (nldc > base) {
        e->log_len += nldc - base;
        e->hole_lo = lo;
        e->hole_hi = e->log_len;
        e->hole_first = emin;
        e->hole_n = g->n;
        e->hole_op = g->op;
        for (unsigned m = g->ldc_rings; m; m &= m - 1) {
            int r = __builtin_ctz(m);
            e->arch[e->arch_len] = e->set[r];
            e->hole_arch[r] = e->arch_len++;
        }
        g->keep_ops = true; /* (seg_flush moves to the other buffer at its end) */
    }
    /* chips dark from the start (s = 0) */
    if (any_dark) {
        int ef = SEG_EFF(0), en = SEG_ENTRY(ef);
        if (en >= 0)
            for (int wd = 0; wd < 4; wd++) {
                /* the fresh ones become the group (starting at en); chips of
                 * the old group still pending take its start as their own */
                for (uint64_t old = e->grp[wd] & e->pend[wd]; old; old &= old - 1)
                    e->pend_from[wd * 64 + __builtin_ctzll(old)] = e->grp_from;
                e->grp[wd] = dark[wd] & ~e->pend[wd];
                e->pend[wd] |= dark[wd];
            }
        if (en >= 0) e->grp_from = en;
    }
    /* chips that went dark at an Enable load */
    for (int wd = 0; wd < 4; wd++)
        for (uint64_t m = g->stopped[wd]; m; m &= m - 1) {
            int c = wd * 64 + __builtin_ctzll(m), ef = SEG_EFF(g->stop[c]), en = SEG_ENTRY(ef);
            if (en < 0) continue;
            if (!chip_pending(e, c)) pend_set(e, c, en);
            e->pend[wd] |= 1ull << (c & 63);
        }
#undef SEG_EFF
#undef SEG_ENTRY
}

/* Range of the x part D·x² + A·x (is_y: F·y² + B·y) over n values from origin.
 * narrow: −2^38 ≤ D < 2^38 and −2^50 ≤ A < 2^50 (F, B), and origin + n ≤ 2^12 (A-14: 11-bit
 * origins, n ≤ 64): then every term and sum fits in int64 (|q·x²|, |l·x| <
 * 2^62) and 64-bit multiplies do (the usual case: the z-test's and colours'
 * sets are narrow); else the 128-bit ones */
static void part_range(const i128 *co, int is_y, bool narrow, int origin, int n, i128 *mn, i128 *mx)
{
    i128 q = co[is_y ? 5 : 3], l = co[is_y ? 1 : 0], o = origin;
    if (narrow) {
        int64_t q6 = (int64_t)q, l6 = (int64_t)l, o6 = origin;
        int64_t lo, hi;
        if (q6 == 0) {
            int64_t u = l6 * o6, v = l6 * (o6 + n - 1);
            lo = u < v ? u : v;
            hi = u < v ? v : u;
        } else {
            lo = hi = q6 * o6 * o6 + l6 * o6;
            for (int i = 1; i < n; i++) {
                int64_t x = o6 + i, v = q6 * x * x + l6 * x;
                if (v < lo) lo = v;
                if (v > hi) hi = v;
            }
        }
        *mn = lo;
        *mx = hi;
        return;
    }
    if (q == 0) {
        i128 u = l * o, v = l * (o + n - 1);
        *mn = u < v ? u : v;
        *mx = u < v ? v : u;
        return;
    }
    i128 lo = q * o * o + l * o, hi = lo;
    for (int i = 1; i < n; i++) {
        i128 v = q * (o + i) * (o + i) + l * (o + i);
        if (v < lo) lo = v;
        if (v > hi) hi = v;
    }
    *mn = lo;
    *mx = hi;
}

/* Bits klo .. klo+nb-1 (≤ 63) of 16 values as 16-bit masks (bit i: value i). */
static void masks16(const uint64_t *val, int klo, int nb, uint64_t *out)
{
    for (int b = 0; b < nb; b += 8) {
        int n = nb - b < 8 ? nb - b : 8;
#if defined(__SSE2__)
        /* byte i = bits klo+b .. of val[i], gathered in two words (bytes stored
         * one by one and read back as a vector would stall store forwarding) */
        uint64_t w0 = 0, w1 = 0;
        for (int i = 0; i < 8; i++) {
            w0 |= (val[i] >> (klo + b) & 0xff) << (8 * i);
            w1 |= (val[i + 8] >> (klo + b) & 0xff) << (8 * i);
        }
        /* the top bit of each byte by movemask, doubling brings the next one up */
        __m128i v = _mm_set_epi64x((long long)w1, (long long)w0);
        for (int j = 7; j >= 0; j--) {
            if (j < n) out[b + j] = (uint64_t)_mm_movemask_epi8(v);
            v = _mm_add_epi8(v, v);
        }
#else
        uint8_t by[16];
        for (int i = 0; i < 16; i++) by[i] = (uint8_t)(val[i] >> (klo + b));
        for (int j = 0; j < n; j++) {
            unsigned m = 0;
            for (int i = 0; i < 16; i++) m |= (unsigned)(by[i] >> j & 1) << i;
            out[b + j] = m;
        }
#endif
    }
}

/* The running chips' columns and rows as slots, once a segment: the lead
 * chips present as bit masks first (no branch per chip on "a new column?",
 * which mispredicted), then a slot per lead in lead order. (xslot/yslot are
 * read only at the leads of running chips, all set here: no clearing.) */
static void seg_slots(const pp5_emc *e, seg *g, const uint64_t *run)
{
    uint64_t xm[4] = {0}, ym[4] = {0};
    if (e->nchips <= 64) { /* (leads < 64: the masks in registers) */
        uint64_t x = 0, y = 0;
        for (uint64_t m = run[0]; m; m &= m - 1) {
            int c = __builtin_ctzll(m);
            x |= 1ull << e->xlead[c];
            y |= 1ull << e->ylead[c];
        }
        xm[0] = x;
        ym[0] = y;
    } else {
        for (int wd = 0; wd < 4; wd++)
            for (uint64_t m = run[wd]; m; m &= m - 1) {
                int c = wd * 64 + __builtin_ctzll(m), xl = e->xlead[c], yl = e->ylead[c];
                xm[xl >> 6] |= 1ull << (xl & 63);
                ym[yl >> 6] |= 1ull << (yl & 63);
            }
    }
    int nx = 0, ny = 0;
    for (int wd = 0; wd < 4; wd++) {
        for (uint64_t m = xm[wd]; m; m &= m - 1) {
            int l = wd * 64 + __builtin_ctzll(m);
            g->xslot[l] = (int16_t)nx;
            g->xl[nx++] = (int16_t)l;
        }
        for (uint64_t m = ym[wd]; m; m &= m - 1) {
            int l = wd * 64 + __builtin_ctzll(m);
            g->yslot[l] = (int16_t)ny;
            g->yl[ny++] = (int16_t)l;
        }
    }
    g->nx = nx;
    g->ny = ny;
    g->slots_made = true;
}

/* The arena data of set ring r for the running chips (seg_set). */
static bool seg_prepare_set(pp5_emc *e, seg *g, int r, const uint64_t *run)
{
    seg_set *ss = &g->set[r];
    if (!g->slots_made) seg_slots(e, g, run);
    const int16_t *xl = g->xl, *yl = g->yl;
    ss->nx = g->nx;
    ss->ny = g->ny;
    size_t xw = (size_t)ss->nb + SEG_SLOT_EXTRA, yw = xw;
    size_t need = g->arena_len + (size_t)ss->nx * xw + (size_t)ss->ny * yw;
    if (need > g->arena_cap) {
        size_t nc = g->arena_cap ? g->arena_cap : 4096;
        while (nc < need) nc *= 2;
        uint64_t *na = realloc(g->arena, nc * sizeof *na);
        if (!na) return false;
        g->arena = na;
        g->arena_cap = nc;
    }
    ss->xbase = g->arena_len;
    ss->ybase = g->arena_len + (size_t)ss->nx * xw;
    g->arena_len = need;
    memset(ss->made, 0, sizeof ss->made);
    /* (origins < 2^11 and 16 values: part_range's 64-bit path when the coefficients are narrow) */
    bool narrow[2];
    for (int a = 0; a < 2; a++) { /* (the narrow test in int64: an adder set's co[] are sign-extended from bit kmax ≤ 63) */
        int64_t q = (int64_t)ss->co[a ? 5 : 3], l = (int64_t)ss->co[a ? 1 : 0];
        narrow[a] = q >= -((int64_t)1 << 38) && q < (int64_t)1 << 38 && l >= -((int64_t)1 << 50) && l < (int64_t)1 << 50;
    }
    ss->lin = narrow[0] && narrow[1] && ss->co[3] == 0 && ss->co[5] == 0;
    if (ss->lin) {
        /* Q over a chip: C + A·(X0 + {0..15}) + B·(Y0 + {0..15}), its min
         * with min(0, 15A) + min(0, 15B), its width |15A| + |15B| < 2^55 */
        int64_t la = (int64_t)ss->co[0] * 15, lb = (int64_t)ss->co[1] * 15;
        ss->lin_lx = (uint64_t)(int64_t)ss->co[0];
        ss->lin_ly = (uint64_t)(int64_t)ss->co[1];
        ss->lin_c = (uint64_t)(int64_t)ss->co[2] + (uint64_t)(la < 0 ? la : 0) + (uint64_t)(lb < 0 ? lb : 0);
        ss->lin_w = (uint64_t)(la < 0 ? -la : la) + (uint64_t)(lb < 0 ? -lb : lb);
        return true;
    }
    for (int a = 0; a < 2; a++) {
        int n = a ? ss->ny : ss->nx;
        size_t stride = a ? yw : xw;
        if (narrow[a] && ss->co[a ? 5 : 3] == 0) {
            /* linear and narrow (the usual case: the z and colour planes): the
             * extremes l·o and l·(o + 15), in int64 (part_range's 64-bit path
             * written out for the line loop) */
            int64_t l6 = (int64_t)ss->co[a ? 1 : 0], span = l6 * 15;
            uint32_t omask = a ? e->y0_mask : e->x0_mask;
            int osh = a ? 11 : 0;
            const int16_t *ld = a ? yl : xl;
            uint64_t *lo = g->arena + (a ? ss->ybase : ss->xbase) + ss->nb + SEG_LOWS;
            for (int i = 0; i < n; i++, lo += stride) {
                int64_t u = l6 * (int64_t)(e->config[ld[i]] >> osh & omask), v = u + span;
                i128 mn = u < v ? u : v, mx = u < v ? v : u;
                memcpy(lo, &mn, sizeof mn);
                memcpy(lo + 2, &mx, sizeof mx);
            }
            continue;
        }
        for (int i = 0; i < n; i++) {
            int lead = a ? yl[i] : xl[i], origin = a ? chip_y0(e, lead) : chip_x0(e, lead);
            uint64_t *d = g->arena + (a ? ss->ybase + (size_t)i * yw : ss->xbase + (size_t)i * xw);
            uint64_t *lo = d + ss->nb;
            i128 mn, mx;
            part_range(ss->co, a, narrow[a], origin, 16, &mn, &mx);
            memcpy(lo + SEG_LOWS, &mn, sizeof mn);
            memcpy(lo + SEG_LOWS + 2, &mx, sizeof mx);
        }
    }
    return true;
}

/* A line's masks and low words (d: its arena data, a: y line), for a chip
 * whose adder starts: many chips of a segment need none (constant T). */
static __attribute__((noinline)) void seg_line(const qee_set *s, const seg_set *ss, int a, int origin, uint64_t *d)
{
    uint64_t *lo = d + ss->nb;
    /* the part's 16 values mod 2^64 (bits ≤ 63 of the sum need no more):
     * forward differences v(x+1) - v(x) = q(2x+1) + l, step 2q */
    uint64_t q = (uint64_t)s->coef[a ? 5 : 3], l1 = (uint64_t)s->coef[a ? 1 : 0];
    uint64_t x = (uint64_t)origin, v = q * x * x + l1 * x + (a ? 0 : (uint64_t)s->coef[2]);
    uint64_t d1 = q * (2 * x + 1) + l1, d2 = 2 * q;
    for (int j = 0; j < 16; j++) {
        lo[j] = v;
        v += d1;
        d1 += d2;
    }
    masks16(lo, ss->klo, ss->nb, d); /* (d[0 .. nb): below lo) */
}

#ifdef EMC_AVX512
/* seg_line with AVX-512 (DQ: 64-bit products) and GFNI: the 16 values in two
 * vectors (stored as vectors: the adder start loads them so, and a vector
 * load of scalar stores would wait for them), their masks eight bits at a
 * time by a shift, a byte truncation and one affine instruction that
 * transposes the two 8×8 bit blocks (byte i: bits of value i → byte j: bit j
 * of the eight values; it reads matrix row 7 − j for result bit j, so the
 * values go in reversed) */
__attribute__((target("avx512f,avx512bw,avx512vl,avx512dq,gfni"), noinline)) static void
seg_line_gfni(const qee_set *s, const seg_set *ss, int a, int origin, uint64_t *d)
{
    uint64_t *lo = d + ss->nb;
    __m512i q = _mm512_set1_epi64((long long)(uint64_t)s->coef[a ? 5 : 3]);
    __m512i l1 = _mm512_set1_epi64((long long)(uint64_t)s->coef[a ? 1 : 0]);
    __m512i c0 = _mm512_set1_epi64(a ? 0 : (long long)(uint64_t)s->coef[2]);
    __m512i x0 = _mm512_add_epi64(_mm512_set1_epi64(origin), _mm512_set_epi64(7, 6, 5, 4, 3, 2, 1, 0));
    __m512i x1 = _mm512_add_epi64(x0, _mm512_set1_epi64(8));
    /* (q·x + l)·x + c mod 2^64, as the forward differences of seg_line (l·x + c
     * for a linear part, the z and colour planes: one product fewer on the
     * chain to the masks) */
    __m512i va, vb;
    if ((uint64_t)s->coef[a ? 5 : 3] == 0) { /* (mod 2^64: the low word is all that counts) */
        va = _mm512_add_epi64(_mm512_mullo_epi64(l1, x0), c0);
        vb = _mm512_add_epi64(_mm512_mullo_epi64(l1, x1), c0);
    } else {
        va = _mm512_add_epi64(_mm512_mullo_epi64(_mm512_add_epi64(_mm512_mullo_epi64(q, x0), l1), x0), c0);
        vb = _mm512_add_epi64(_mm512_mullo_epi64(_mm512_add_epi64(_mm512_mullo_epi64(q, x1), l1), x1), c0);
    }
    _mm512_storeu_si512((void *)lo, va);
    _mm512_storeu_si512((void *)(lo + 8), vb);
    const __m512i rev = _mm512_set_epi64(0, 1, 2, 3, 4, 5, 6, 7);
    va = _mm512_permutexvar_epi64(rev, va);
    vb = _mm512_permutexvar_epi64(rev, vb);
    const __m128i unit = _mm_set1_epi64x((long long)0x8040201008040201ull); /* byte i = 1 << i */
    int klo = ss->klo, nb = ss->nb;
    for (int bb = 0; bb < nb; bb += 8) {
        int n = nb - bb < 8 ? nb - bb : 8;
        __m128i sh = _mm_cvtsi32_si128(klo + bb);
        __m128i v = _mm_unpacklo_epi64(_mm512_cvtepi64_epi8(_mm512_srl_epi64(va, sh)),
                                       _mm512_cvtepi64_epi8(_mm512_srl_epi64(vb, sh)));
        __m128i t = _mm_gf2p8affine_epi64_epi8(unit, v, 0); /* qword h, byte j: bit j of values 8h .. 8h+7 */
        __m128i w = _mm_unpacklo_epi8(t, _mm_srli_si128(t, 8)); /* 16-bit lane j: bit j of the 16 values */
        _mm512_mask_storeu_epi64(d + bb, (__mmask8)((1u << n) - 1), _mm512_cvtepu16_epi64(w));
    }
}
#endif

#ifdef EMC_AVX512
/* A fused T run of the chip pass (seg_chip) with AVX-512 VL + BW on 256-bit
 * vectors: each of the run's boolean functions one vpternlogq — the
 * z-test's Carry ← maj(T, ~Z, Carry), the write M ← T where E, the adder's
 * sum and carry — and the adder's row bits (R's bit of row ly in lane ly)
 * from a mask register (vpmovm2w) instead of a broadcast, an and and a
 * compare. The run's n bits: bit 0 with T as given, bits 1 .. na-1 from the
 * adder (its carry *ak, masks xk/yk from bit 1 on), bits na .. n-1 the
 * constants of qmin. T, K, the adder's carry and the last M read come back
 * through the pointers (inlined into seg_chips_avx512: registers). */
enum { TL_XOR3 = 0x96, TL_MAJ = 0xE8, TL_SEL = 0xD8 /* a=M b=T c=E: E ? T : M */,
       TL_MAJ_NZ = 0xD4 /* a=K b=T c=Z: maj(T, ~Z, K) */ };
__attribute__((target("avx2,avx512f,avx512vl,avx512bw"))) static inline void
seg_run_avx512(const seg_op *q, size_t off, bool pair, int n, int na, const uint64_t *xk, const uint64_t *yk,
               uint64_t qmin, int k0, const v4u *Ep, v4u *Tp, v4u *Kp, v4u *akp, v4u *Mp)
{
    /* (E by pointer: a 32-byte vector by value from the portable instance of
     * seg_chip, where this call is dead code, breaks -Wpsabi at -O1) */
    __m256i e = (__m256i)*Ep, t = (__m256i)*Tp, kk = (__m256i)*Kp, ak = (__m256i)*akp, m = _mm256_setzero_si256();
#define SEG_RUN_BIT512(PAIR)                                                                                          \
    do {                                                                                                              \
        uint64_t *mp = q[PAIR].m0 + off;                                                                              \
        if (PAIR) kk = _mm256_ternarylogic_epi64(kk, t, _mm256_loadu_si256((const __m256i *)(q->m0 + off)), TL_MAJ_NZ); \
        m = _mm256_loadu_si256((const __m256i *)mp);                                                                  \
        _mm256_storeu_si256((__m256i *)mp, _mm256_ternarylogic_epi64(m, t, e, TL_SEL));                               \
        q += 1 + PAIR;                                                                                                \
    } while (0)
#define SEG_RUN512(PAIR)                                                                                              \
    do {                                                                                                              \
        SEG_RUN_BIT512(PAIR);                                                                                         \
        for (int j = 1; j < na; j++) {                                                                                \
            __m256i u = _mm256_set1_epi16((short)(uint16_t)*xk++);                                                    \
            __m256i v = _mm256_movm_epi16((__mmask16)*yk++);                                                          \
            t = _mm256_ternarylogic_epi64(u, v, ak, TL_XOR3);                                                         \
            ak = _mm256_ternarylogic_epi64(ak, u, v, TL_MAJ);                                                         \
            SEG_RUN_BIT512(PAIR);                                                                                     \
        }                                                                                                             \
        for (int j = na; j < n; j++) {                                                                                \
            t = _mm256_set1_epi64x((long long)((uint64_t)0 - (qmin >> (k0 + j) & 1)));                                \
            SEG_RUN_BIT512(PAIR);                                                                                     \
        }                                                                                                             \
    } while (0)
    if (pair) SEG_RUN512(1);
    else SEG_RUN512(0);
#undef SEG_RUN512
#undef SEG_RUN_BIT512
    *Tp = (v4u)t;
    *Kp = (v4u)kk;
    *akp = (v4u)ak;
    *Mp = (v4u)m;
}
#endif

/* Chip c runs the segment's ops. T of a set marked adder: bits from the
 * chip's constant bit up are constants; below it a bit-serial adder of
 * P(lx) + R(ly) (as compute_bit's) starts at the first bit read and steps
 * with the reads, its carry in registers. Other sets: tree_bit. */
/* One bit of the chip's bit-serial adder P(lx) + R(ly): xw, yw the column and
 * row words of the bit (bit lx of xw, bit ly of yw); *t gets the sum bit at
 * every pixel, *ak the carry into the next bit. Pixel i = 16·ly + lx: sixteen
 * 16-bit lanes, one a row; P's bit of column lx is bit lx of every lane, R's
 * bit of row ly fills lane ly. */
static inline __attribute__((always_inline)) void adder_bit(uint64_t xw, uint64_t yw, v4u *ak, v4u *t)
{
    const v16u16 row_bit = {1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384, 32768};
    uint16_t xm = (uint16_t)xw, ym = (uint16_t)yw;
    v16u16 yv = {ym, ym, ym, ym, ym, ym, ym, ym, ym, ym, ym, ym, ym, ym, ym, ym};
    v16u16 xv = {xm, xm, xm, xm, xm, xm, xm, xm, xm, xm, xm, xm, xm, xm, xm, xm};
    v4u u = (v4u)xv, v = (v4u)((yv & row_bit) == row_bit);
    v4u x = u ^ v;
    *t = x ^ *ak;
    *ak = (u & v) | (*ak & x);
}

/* The chip's bit-serial adder in a segment (seg_chip): the set it is for
 * (ring), Q's constant bits from kc up (qmin), the next bit it can step to
 * and the last it gave (AT), its carry (AK), the chip's column and row data of
 * the set (xd, yd: bit klo first). */
typedef struct seg_adder {
    int ring, kc, next_k, last_k, klo;
    i128 qmin;
    v4u AK, AT;
    uint64_t *xd, *yd;
    size_t xslot, yslot; /* the chip's column and row slots (the same for every set) */
} seg_adder;

/* The adder on set ring for chip c: its data, and kc, qmin (Q over the chip in
 * one 2^kc block: bits ≥ kc are constants). */
static inline __attribute__((always_inline)) void seg_adder_on(pp5_emc *e, seg *g, int c, seg_adder *a, int ring)
{
    const seg_set *ss = &g->set[ring];
    a->ring = ring;
    a->klo = ss->klo;
    a->xd = g->arena + ss->xbase + a->xslot * ((size_t)ss->nb + SEG_SLOT_EXTRA);
    a->yd = g->arena + ss->ybase + a->yslot * ((size_t)ss->nb + SEG_SLOT_EXTRA);
    if (ss->lin) {
        /* (mod 2^64: k ≤ kmax ≤ 63 is all that is read. If lo + w carries out
         * of bit 63, Q's range spans bit 64, true kc ≥ 65, and here lo has bit
         * 63 set and lo + w (w < 2^63) not: kc = 64; both leave every bit read
         * to the adder) */
        uint64_t lo = ss->lin_lx * (uint64_t)chip_x0(e, c) + ss->lin_ly * (uint64_t)chip_y0(e, c) + ss->lin_c,
                 d = lo ^ (lo + ss->lin_w);
        a->kc = d ? 64 - __builtin_clzll(d) : 0;
        a->qmin = (i128)(int64_t)lo;
    } else {
        const uint64_t *xd = a->xd, *yd = a->yd;
        i128 pmn, pmx, rmn, rmx;
        memcpy(&pmn, xd + ss->nb + SEG_LOWS, sizeof pmn);
        memcpy(&pmx, xd + ss->nb + SEG_LOWS + 2, sizeof pmx);
        memcpy(&rmn, yd + ss->nb + SEG_LOWS, sizeof rmn);
        memcpy(&rmx, yd + ss->nb + SEG_LOWS + 2, sizeof rmx);
        i128 lo = pmn + rmn + ss->co[2], hi = pmx + rmx + ss->co[2];
        u128 d = (u128)(lo ^ hi);
        uint64_t dh = (uint64_t)(d >> 64), dl = (uint64_t)d;
        a->kc = dh ? 128 - __builtin_clzll(dh) : dl ? 64 - __builtin_clzll(dl) : 0;
        a->qmin = lo;
    }
    a->next_k = a->last_k = -1;
}

/* Positions the adder (below kc) to step to bit k: the chip's column and row
 * lines made if an earlier chip did not, the carry into bit k computed
 * directly (k ≥ 4) or the adder started from bit 0. */
static inline __attribute__((always_inline)) void seg_adder_start(pp5_emc *e, seg *g, int c, seg_adder *a, int k)
{
    const int ring = a->ring;
    const seg_set *ss = &g->set[ring];
    for (int s = 0; s < 2; s++) {
        uint64_t *ld = s ? a->yd : a->xd;
        size_t sl = s ? a->yslot : a->xslot;
        uint64_t *made = &g->set[ring].made[s][sl >> 6];
        if (*made >> (sl & 63) & 1) continue; /* (made for an earlier chip) */
        int origin = s ? chip_y0(e, c) : chip_x0(e, c);
#ifdef EMC_AVX512
        if (e->avx512 == 2) seg_line_gfni(&e->set[ring], ss, s, origin, ld);
        else
#endif
            seg_line(&e->set[ring], ss, s, origin, ld);
        *made |= 1ull << (sl & 63);
    }
    /* start: the carry into bit k directly (klo = k then), or from bit 0 */
    if (k >= 4) {
        const uint64_t *pl = a->xd + ss->nb, *rl = a->yd + ss->nb;
        uint64_t cy[4];
#ifdef EMC_AVX512
        if (e->avx512) {
            carry16_avx512(pl, rl, k, cy);
        } else
#endif
        {
            uint64_t pv[16], rv[16], low = (1ull << k) - 1;
            for (int j = 0; j < 16; j++) {
                pv[j] = pl[j] & low;
                rv[j] = rl[j] & low;
            }
            carry_into(pv, rv, 16, 16, k, cy, 4);
        }
        LD4(a->AK, cy);
        a->next_k = k;
    } else {
        a->AK = SPLAT4(0);
        a->next_k = 0;
    }
}

/* T of op o for chip c into *T (o reads T, not as the previous T op's; by
 * pointer: a 32-byte vector return would change the ABI without AVX). */
static inline __attribute__((always_inline)) void seg_chip_t(pp5_emc *e, seg *g, int c, const seg_op *o, seg_adder *a,
                                                              v4u *T)
{
    if (o->set_ring < 0) {
        *T = SPLAT4(0);
        return;
    }
    const int k = o->k;
    const seg_set *ss = &g->set[o->set_ring];
    if (!ss->adder) {
        LD4(*T, tree_bit(e, c, &e->set[o->set_ring], k, !o->lde));
        return;
    }
    if (o->set_ring != a->ring)
        seg_adder_on(e, g, c, a, o->set_ring);
    if (k == a->last_k) {
        *T = a->AT;
    } else if (k >= a->kc) {
        *T = SPLAT4((uint64_t)0 - (uint64_t)((a->qmin >> k) & 1));
    } else {
        if (!(a->next_k >= 0 && a->next_k <= k && k - a->next_k <= 4))
            seg_adder_start(e, g, c, a, k);
        for (; a->next_k <= k; a->next_k++)
            adder_bit(a->xd[a->next_k - a->klo], a->yd[a->next_k - a->klo], &a->AK, &a->AT);
        a->last_k = k;
        *T = a->AT;
    }
}

/* A fused run (seg_fuse) at op o of chip c (plane words at off): bits k, k+1,
 * ... of one set, T of each bit the next one of the adder (positioned by the
 * bit before) while below kc, then constants; the ops' own kernels. The op's
 * fields in locals: the plane stores could alias its bytes. Returns the ops it
 * took. */
static inline __attribute__((always_inline)) int seg_chip_run(const seg_op *o, size_t off, seg_adder *a, int isa,
                                                               v4u *Ep, v4u *Tp, v4u *Kp, v4u *Mp)
{
    int k0 = o->k, n = o->run;
    bool pair = o->shape == SH_CARRY_T_NM;
    int st = pair ? 2 : 1;
    int na = a->kc - k0; /* bits j < na from the adder (j = 0: T as set above) */
    na = na < 1 ? 1 : na > n ? n : na;
#ifdef EMC_AVX512
    if (isa == 2) { /* (seg_chips_avx512) */
        seg_run_avx512(o, off, pair, n, na, a->xd + (k0 + 1 - a->klo), a->yd + (k0 + 1 - a->klo), (uint64_t)a->qmin,
                       k0, Ep, Tp, Kp, &a->AK, Mp);
        if (na > 1) {
            a->AT = *Tp;
            a->last_k = k0 + na - 1;
            a->next_k = a->last_k + 1;
        }
        return st * n;
    }
#else
    (void)isa;
#endif
    v4u E = *Ep, T = *Tp, K = *Kp, M = *Mp;
    const seg_op *q = o;
#define SEG_RUN_BIT()                                                                                                 \
    do {                                                                                                              \
        uint64_t *tp = q[pair].m0 + off;                                                                              \
        if (pair) { /* the z-test's pair: Carry ← maj(T, ~M), then M' ← T where E */                                  \
            v4u Z;                                                                                                    \
            LD4(Z, q->m0 + off);                                                                                      \
            v4u B = ~Z;                                                                                               \
            K = (T & B) | (K & (T | B));                                                                              \
        }                                                                                                             \
        LD4(M, tp);                                                                                                   \
        v4u nm = M ^ ((M ^ T) & E);                                                                                   \
        ST4(tp, nm);                                                                                                  \
        q += st;                                                                                                      \
    } while (0)
    SEG_RUN_BIT();
    if (na > 1) {
        const uint64_t *xk = a->xd + (k0 + 1 - a->klo), *yk = a->yd + (k0 + 1 - a->klo);
        for (int j = 1; j < na; j++) {
            adder_bit(*xk++, *yk++, &a->AK, &T);
            SEG_RUN_BIT();
        }
        a->AT = T;
        a->last_k = k0 + na - 1;
        a->next_k = a->last_k + 1;
    }
    for (int j = na; j < n; j++) {
        T = SPLAT4((uint64_t)0 - ((uint64_t)a->qmin >> (k0 + j) & 1));
        SEG_RUN_BIT();
    }
#undef SEG_RUN_BIT
    *Tp = T;
    *Kp = K;
    *Mp = M;
    return st * n;
}

static inline __attribute__((always_inline)) int seg_chip(pp5_emc *e, seg *g, int c, bool snap_at_end, bool can_stop,
                                                          int isa)
{
    size_t off = (size_t)c * 4;
    const uint64_t *zero = plane(e, PL_ZERO, c);
    uint64_t *cyp = plane(e, PL_CARRY, c);
    v4u E, K, M, Mprev = SPLAT4(0), S, T = SPLAT4(0);
    LD4(E, plane(e, PL_E, c));
    LD4(K, cyp);
    seg_adder a;
    a.ring = -1;
    a.kc = 0;
    a.next_k = a.last_k = -1;
    a.qmin = 0;
    a.AK = a.AT = SPLAT4(0);
    a.xd = a.yd = NULL;
    a.klo = 0;
    a.xslot = (size_t)g->xslot[e->xlead[c]];
    a.yslot = (size_t)g->yslot[e->ylead[c]];
    for (int i = 0; i < g->n; i++) {
        const seg_op *o = &g->op[i];
        if (o->fill) {
            K = SPLAT4(o->fill_v ? ~0ull : 0);
            continue;
        }
        /* T not read (its mask is all ones), or as the previous T op's: kept */
        if (o->need_t && !o->t_same)
            seg_chip_t(e, g, c, o, &a, &T);
        if (o->run && o->shape == SH_WRITE_S) {
            /* a fused copy run (seg_fuse): M ← S where E, S each op's plane
             * (the plane the clock before it read) */
            int n = o->run;
            for (int j = 0; j < n; j++) {
                uint64_t *tp = o[j].m0 + off;
                LD4(S, o[j].s0 + off);
                LD4(M, tp);
                v4u nm = M ^ ((M ^ S) & E);
                ST4(tp, nm);
            }
            Mprev = M; /* A-10: S of the next clock is M before the last write */
            i += n - 1;
            continue;
        }
        if (o->run) { /* a fused run (seg_fuse) */
            i += seg_chip_run(o, off, &a, isa, &E, &T, &K, &M) - 1;
            Mprev = M; /* A-10 */
            continue;
        }
        if (o->shape == SH_LDE_E_NC) {
            /* a=0 b=e c=~cy lde (seg_fuse): E ← maj(0, E, ~Carry) = E ∧ ~Carry
             * (A-8 a bus without a source is all ones, AComp makes it 0; A-9
             * the majority; A-11 LdE not gated); no M, S or T read */
            E &= ~K;
            if (can_stop && !(E[0] | E[1] | E[2] | (E[3] & e->lastmask))) { /* (as the generic Enable load) */
                ST4(plane(e, PL_E, c), E);
                ST4(cyp, K);
                return i + 1;
            }
            continue;
        }
        uint64_t *mp = o->m0 + off;
        LD4(M, mp);
        switch (o->shape) {
        case SH_WRITE_T: { /* a=t b=0 c=0 mwrt: M ← T where E (A-9, A-11) */
            v4u nm = M ^ ((M ^ T) & E);
            ST4(mp, nm);
            Mprev = M; /* A-10: S of the next clock is M before the write */
            continue;
        }
        case SH_CARRY_T_NM: { /* a=t b=~m c=cy ldc: Carry ← maj(T, ~M, Carry) */
            v4u B = ~M;
            K = (T & B) | (K & (T | B));
            continue;
        }
        default: break;
        }
        if (!o->need_s) S = SPLAT4(0);
        else if (o->s_mode == S_PREV_M) S = Mprev;
        else if (o->s_mode == S_PLANE) LD4(S, o->s0 + off);
        else LD4(S, e->s_gen[c] == e->gen ? e->s_snap + off : e->s_addr >= 0 ? plane(e, e->s_addr, c) : zero);
        if (o->shape == SH_WRITE_S) { /* a=s b=0 c=0 mwrt: M ← S where E */
            v4u nm = M ^ ((M ^ S) & E);
            ST4(mp, nm);
            Mprev = M;
            continue;
        }
        v4u A = ((S | SPLAT4(OPM(o, OPM_SS))) & (T | SPLAT4(OPM(o, OPM_TS)))) ^ SPLAT4(OPM(o, OPM_ACM)); /* A-8 */
        v4u B = ((E | SPLAT4(OPM(o, OPM_ES))) & (M | SPLAT4(OPM(o, OPM_MS)))) ^ SPLAT4(OPM(o, OPM_BCM));
        v4u C = (K | SPLAT4(OPM(o, OPM_CS))) ^ SPLAT4(OPM(o, OPM_CCM));
        if (o->write) {
            v4u nm = M ^ ((M ^ (A ^ B ^ C)) & E); /* A-9 sum, A-11 gated by E */
            ST4(mp, nm);
            Mprev = M; /* A-10: S of the next clock is M before the write */
        }
        v4u maj = (A & B) | (C & (A | B)); /* A-9 */
        if (o->ldc) K = maj; /* A-11: LdC not gated */
        if (o->lde) {
            E = maj; /* A-11: LdE not gated; E ← E ∧ f (enable_stays_0) */
            if (can_stop && !o->write && !(E[0] | E[1] | E[2] | (E[3] & e->lastmask))) {
                /* dark from here on: only Carry changes (seg_defer logs it; S of the
                 * next clock is then the plane this op read, as the log has it — not
                 * after a write, whose S is M before it) */
                ST4(plane(e, PL_E, c), E);
                ST4(cyp, K);
                return i + 1;
            }
        }
    }
    if (g->has_lde) {
        ST4(plane(e, PL_E, c), E);
        /* (update_lit from the registers: a stopped chip is dark, not lit) */
        g->lit[c >> 6] |= (uint64_t)((E[0] | E[1] | E[2] | (E[3] & e->lastmask)) != 0) << (c & 63);
    }
    ST4(cyp, K);
    if (snap_at_end) ST4(e->s_snap + off, Mprev);
    return 0;
}

static inline __attribute__((always_inline)) void seg_chips_body(pp5_emc *e, seg *g, const uint64_t *run,
                                                                  bool snap_at_end, bool can_stop, int isa)
{
    for (int wd = 0; wd < 4; wd++) {
        g->stopped[wd] = 0;
        g->lit[wd] = 0;
        for (uint64_t m = run[wd]; m; m &= m - 1) {
            int c = wd * 64 + __builtin_ctzll(m), st = seg_chip(e, g, c, snap_at_end, can_stop, isa);
            if (st) {
                g->stop[c] = (int16_t)st;
                g->stopped[wd] |= 1ull << (c & 63);
            }
        }
    }
}

/* The chip pass compiled three times: portable (the vector extensions on
 * SSE2), AVX2, and AVX-512 VL (the same 256-bit code; GCC joins its
 * and/or/xor chains into vpternlogq: the select M ^ ((M ^ T) & E) and the
 * adder's sum and carry become one or two instructions each). Chosen by
 * what the processor has and PP5_EMC_SIGN_ISA, so that the isa0 and isa1
 * test builds run the portable and AVX2 forms on any machine. */
static __attribute__((noinline)) void seg_chips_portable(pp5_emc *e, seg *g, const uint64_t *run, bool snap_at_end,
                                                         bool can_stop)
{
    seg_chips_body(e, g, run, snap_at_end, can_stop, 0);
}

#ifdef EMC_AVX512
__attribute__((target("avx2"), noinline)) static void seg_chips_avx2(pp5_emc *e, seg *g, const uint64_t *run,
                                                                      bool snap_at_end, bool can_stop)
{
    seg_chips_body(e, g, run, snap_at_end, can_stop, 1);
}

__attribute__((target("avx2,avx512f,avx512vl,avx512bw"), noinline)) static void
seg_chips_avx512(pp5_emc *e, seg *g, const uint64_t *run, bool snap_at_end, bool can_stop)
{
    seg_chips_body(e, g, run, snap_at_end, can_stop, 2);
}
#endif

static void seg_chips(pp5_emc *e, seg *g, const uint64_t *run, bool snap_at_end, bool can_stop)
{
#ifdef EMC_AVX512
    if (e->avx512) { /* (F, BW, VL, and PP5_EMC_SIGN_ISA ≥ 2) */
        seg_chips_avx512(e, g, run, snap_at_end, can_stop);
        return;
    }
    if (PP5_EMC_SIGN_ISA >= 1 && __builtin_cpu_supports("avx2")) {
        seg_chips_avx2(e, g, run, snap_at_end, can_stop);
        return;
    }
#endif
    seg_chips_portable(e, g, run, snap_at_end, can_stop);
}

/* Fused runs: the z-test's pairs (a=t b=~m c=cy ldc, then a=t b=0 c=0 mwrt
 * reading the same T) and field loads (a=t b=0 c=0 mwrt) over consecutive
 * bits of one set with the adder, and copies (a=s b=0 c=0 mwrt, S the plane
 * the clock before read: the z-test's copy loop); the chip pass takes each
 * in one loop. */
static void seg_fuse(seg *g)
{
    /* (run is 0 from seg_add) */
    for (int i = 0; i < g->n;) {
        seg_op *o = &g->op[i];
        if (o->lde && !o->write && !o->ldc && !o->need_t && !o->need_s &&
            o->opm == (1u << OPM_SS | 1u << OPM_TS | 1u << OPM_MS | 1u << OPM_ACM | 1u << OPM_CCM)) {
            /* a=0 b=e c=~cy lde: A = 1 complemented, B = E, C = ~Carry (the
             * sources' masks as seg_chip's generic kernel reads them) */
            o->shape = SH_LDE_E_NC;
            i++;
            continue;
        }
        bool head = o->need_t && !o->t_same && o->set_ring >= 0 && g->set[o->set_ring].adder;
        int n = 0;
        if (head && o->shape == SH_CARRY_T_NM) {
            while (i + 2 * n + 1 < g->n && n < 255) {
                const seg_op *a = &g->op[i + 2 * n], *b = a + 1;
                if (!(a->shape == SH_CARRY_T_NM && a->need_t && !a->t_same && a->set_ring == o->set_ring &&
                      a->k == o->k + n && b->shape == SH_WRITE_T && b->t_same))
                    break;
                n++;
            }
            if (n >= 2) o->run = (uint8_t)n;
            i += n >= 2 ? 2 * n : 1;
            continue;
        }
        if (o->shape == SH_WRITE_S && o->s_mode == S_PLANE) { /* (the z-test's copy loop) */
            while (i + n < g->n && n < 255 && g->op[i + n].shape == SH_WRITE_S && g->op[i + n].s_mode == S_PLANE) n++;
            if (n >= 2) o->run = (uint8_t)n;
            i += n >= 2 ? n : 1;
            continue;
        }
        if (head && o->shape == SH_WRITE_T) {
            while (i + n < g->n && n < 255) {
                const seg_op *a = &g->op[i + n];
                if (!(a->shape == SH_WRITE_T && a->need_t && !a->t_same && a->set_ring == o->set_ring &&
                      a->k == o->k + n))
                    break;
                n++;
            }
            if (n >= 2) o->run = (uint8_t)n;
            i += n >= 2 ? n : 1;
            continue;
        }
        i++;
    }
}

/* Execute the decoded segment (the QEE is at its end already). */
void pp5_emcf_seg_flush(pp5_emc *e, seg *g)
{
    if (!g->n) {
        if (g->clocks) {
            e->s_addr = g->prev_plane == PL_ZERO ? -1 : g->prev_plane;
            e->gen += (uint64_t)g->clocks;
        }
        /* (no op: seg_add changes the segment's other fields only after it
         * adds one, and the last flush with ops reset them — seg_reset's
         * stores are not needed; ≈ 10 of these a triangle, and 1 408 a frame
         * for the configuration words) */
        g->clocks = 0;
        return;
    }
    /* a running chip's deferred Carry updates: dropped when the first op that
     * touches Carry or memory overwrites Carry without reading it, applied
     * when it reads Carry or writes memory (as settle_pending), else kept */
    int settle = 0;
    for (int i = 0; i < g->n && !settle; i++)
        settle = g->op[i].ldc && !g->op[i].reads_c ? 1 : g->op[i].reads_c || g->op[i].write ? 2 : 0;
    uint64_t run[4] = {0}, dark[4] = {0};
    for (int wd = 0; wd * 64 < e->nchips; wd++) {
        int nw = e->nchips - wd * 64;
        uint64_t all = nw >= 64 ? ~0ull : (1ull << nw) - 1;
        run[wd] = e->eany[wd];
        if (g->op[0].need_s && g->op[0].s_mode == S_INIT) /* (a chip holding S as a snapshot runs: the log reads planes) */
            for (int i = 0; i < 64 && i < nw; i++)
                if (e->s_gen[wd * 64 + i] == e->gen) run[wd] |= 1ull << i;
        dark[wd] = all & ~run[wd];
        if (settle == 1) e->pend[wd] &= ~run[wd];
        else if (settle == 2)
            for (uint64_t p = run[wd] & e->pend[wd]; p; p &= p - 1) pp5_emcf_flush_chip(e, wd * 64 + __builtin_ctzll(p));
    }
    bool can_stop = true; /* (a chip going dark at an Enable load stops, its Carry logged) */
    if (!seg_log_room(e, g)) { /* out of memory for the log: the dark chips run too, none stops */
        for (int wd = 0; wd < 4; wd++) {
            for (uint64_t p = dark[wd] & e->pend[wd]; p; p &= p - 1) pp5_emcf_flush_chip(e, wd * 64 + __builtin_ctzll(p));
            run[wd] |= dark[wd];
            dark[wd] = 0;
        }
        can_stop = false;
    }
    bool snap_at_end = g->prev_write;
    if (e->groups_dirty) regroup(e);
    g->arena_len = 0; /* (kmin, kmax: seg_add) */
    g->slots_made = false;
    for (int r = 0; r < QEE_SETS; r++) {
        seg_set *ss = &g->set[r];
        int km = ss->kmax;
        if (km < 0) continue;
        const qee_set *s = &e->set[r];
        /* the adder's geometry: whole rows in a word, 16×16 (vspread of four rows);
         * the carry into a bit k ≥ 4 comes directly, below it the adder runs from bit 0 */
        ss->adder = e->fast_uv && e->tw == 16 && e->th == 16 && km <= 63 &&
                    (s->coef[4] & (((u128)1 << (km + 1)) - 1)) == 0;
        if (!ss->adder) continue;
        for (int j = 0; j < 6; j++) /* (km ≤ 63: sext of the low word, no 128-bit shifts) */
            ss->co[j] = (int64_t)((uint64_t)s->coef[j] << (63 - km)) >> (63 - km);
        ss->klo = ss->kmin >= 4 ? ss->kmin : 0;
        ss->nb = km - ss->klo + 1;
        if (!seg_prepare_set(e, g, r, run)) ss->adder = false; /* (out of memory: tree_bit) */
    }
    seg_fuse(g);
    /* The dark chips' Carry after a segment whose last Carry overwrite is a
     * constant (the z-test's preset) is that constant (seg_defer). When no op
     * reads Carry before the first overwrite (settle 1: the running chips'
     * pending entries are dropped too), no chip's Carry before the segment
     * is ever read, so the whole plane is filled here, one memset, instead of
     * four stores for each of the ≈ 50 dark chips after the pass (the chips
     * that stop at an Enable load are filled after it, as before). */
    bool dark_filled = false;
    if (settle == 1 && g->last_over >= 0 && g->op[g->last_over].fill &&
        __builtin_popcountll(dark[0]) + __builtin_popcountll(dark[1]) + __builtin_popcountll(dark[2]) +
                __builtin_popcountll(dark[3]) >= 8) {
        memset(plane(e, PL_CARRY, 0), g->op[g->last_over].fill_v ? 0xff : 0, e->pw * sizeof(uint64_t));
        dark_filled = true;
    }
    seg_chips(e, g, run, snap_at_end, can_stop);
    if (g->last_ldc >= 0) e->carry_fill = g->op[g->last_ldc].fill ? 1 + g->op[g->last_ldc].fill_v : 0;
    seg_defer(e, g, dark, dark_filled);
    if (g->has_lde) /* (update_lit for four-word chips: seg_chip's lit bits, a word of chips at a time) */
        for (int wd = 0; wd < 4; wd++) e->eany[wd] = (e->eany[wd] & ~run[wd]) | g->lit[wd];
    e->s_addr = g->prev_plane == PL_ZERO ? -1 : g->prev_plane;
    e->gen += (uint64_t)g->clocks;
    if (snap_at_end)
        for (int wd = 0; wd < 4; wd++)
            for (uint64_t m = run[wd] & ~g->stopped[wd]; m; m &= m - 1) e->s_gen[wd * 64 + __builtin_ctzll(m)] = e->gen;
    seg_reset(g);
}

/* What the decode changes on most clocks — the segment's op count, clocks,
 * the plane the last clock read and whether it wrote, its Carry loads —
 * kept by pp5_emc_run in locals (registers: no store and reload from one
 * clock to the next) and put back into the seg (seg_dec_put) before anything
 * else reads them: seg_flush, the clock-by-clock path, the end of the block. */
typedef struct seg_dec {
    seg_op *op;             /* g->op (the op's byte stores could alias it: not reloaded) */
    int n, clocks, prev_plane, nldc;
    bool prev_write;
} seg_dec;

static inline void seg_dec_put(seg *g, const seg_dec *d)
{
    g->n = d->n;
    g->clocks = d->clocks;
    g->prev_plane = d->prev_plane;
    g->prev_write = d->prev_write;
    g->nldc = d->nldc;
}

static inline void seg_dec_get(const seg *g, seg_dec *d)
{
    d->op = g->op;
    d->n = g->n;
    d->clocks = g->clocks;
    d->prev_plane = g->prev_plane;
    d->prev_write = g->prev_write;
    d->nldc = g->nldc;
}

/* A clock that only reads (S follows it) joins the segment. */
static inline void seg_sense(seg_dec *d, int addr)
{
    d->prev_plane = addr < PP5_EMC_MEM_BITS ? addr : PL_ZERO;
    d->prev_write = false;
    d->clocks++;
}

/* The template key of pins p (TMPL_KEYS): the control bytes acmp .. mwrt
 * are consecutive (pp5.h: the struct has no padding), one compare of 16
 * bytes with 0 gives them as bits. */
_Static_assert(offsetof(pp5_pins, mwrt) == offsetof(pp5_pins, acmp) + 10 &&
                   offsetof(pp5_pins, agts_s) == offsetof(pp5_pins, acmp) + 1 &&
                   offsetof(pp5_pins, cgts_c) == offsetof(pp5_pins, acmp) + 7 &&
                   offsetof(pp5_pins, acmp) + 16 <= sizeof(pp5_pins),
               "pp5_pins: control bytes acmp .. mwrt consecutive");
_Static_assert(offsetof(pp5_pins, dat) + 8 <= sizeof(pp5_pins), "pp5_pins: dat[0..5] read as 8 bytes");
enum { KB_ACMP, KB_AGTS_S, KB_AGTS_T, KB_BCMP, KB_BGTS_E, KB_BGTS_M, KB_CCMP, KB_CGTS_C, KB_LDC, KB_LDE, KB_MWRT,
       KB_VALID };
static inline unsigned pins_key(const pp5_pins *p, bool valid)
{
#if defined(__SSE2__)
    __m128i v = _mm_loadu_si128((const __m128i *)(const void *)&p->acmp);
    unsigned m = ~(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_setzero_si128())) & 0x7ffu;
#else
    const uint8_t *b = &p->acmp;
    unsigned m = 0;
    for (int i = 0; i < 11; i++) m |= (unsigned)(b[i] != 0) << i;
#endif
    return m | (unsigned)valid << KB_VALID;
}

/* The template of key (made once per array): the op's fields that depend
 * only on the control pins and the address's validity. */
static __attribute__((noinline)) const seg_op *seg_tmpl_make(const pp5_emc *e, seg *g, unsigned key)
{
    _Static_assert(offsetof(seg, tmpl) + sizeof(((seg *)0)->tmpl) <= 65535, "tmap holds an offset in 16 bits");
    /* (more than TMPL_MAX keys: the spare slot, remade each time) */
    seg_op *o = &g->tmpl[g->ntmpl < TMPL_MAX ? g->ntmpl : TMPL_MAX];
    memset(o, 0, sizeof *o);
    pp5_pins q;
    memset(&q, 0, sizeof q);
    uint8_t *b = &q.acmp;
    for (int i = 0; i < 11; i++) b[i] = (uint8_t)(key >> i & 1);
    const pp5_pins *p = &q;
    bool valid = key >> KB_VALID & 1, write = p->mwrt && valid;
    bool fill = !write && !p->lde && !p->agts_s && !p->agts_t && !p->bgts_e && !p->bgts_m && !p->cgts_c;
    int idx = (1 ^ (p->acmp & 1)) << 2 | (1 ^ (p->bcmp & 1)) << 1 | (1 ^ (p->ccmp & 1));
    /* (an unselected source is all ones: A-8's wired AND) */
    o->opm = (uint8_t)(!p->agts_s << OPM_SS | !p->agts_t << OPM_TS | !p->bgts_e << OPM_ES | !p->bgts_m << OPM_MS |
                       !p->cgts_c << OPM_CS | !!p->acmp << OPM_ACM | !!p->bcmp << OPM_BCM | !!p->ccmp << OPM_CCM);
    o->write = write;
    o->ldc = p->ldc;
    o->lde = p->lde;
    o->need_t = p->agts_t;
    o->need_s = p->agts_s;
    o->reads_c = p->cgts_c;
    /* no operand depends on the pixel: Carry becomes a constant (as alu's fill) */
    o->fill = fill;
    o->fill_v = (uint8_t)(e->o.carry_table >> idx & 1);
    /* operand buses (A-8) of the library's words: b=0 is BCmp with no source,
     * c=0 CCmp with no source, b=~m M with BCmp, c=cy Carry without CCmp */
    bool b0 = !p->bgts_e && !p->bgts_m && p->bcmp, c0 = !p->cgts_c && p->ccmp;
    bool at = p->agts_t && !p->agts_s && !p->acmp, as = p->agts_s && !p->agts_t && !p->acmp;
    o->shape = SH_GENERIC;
    if (p->lde) { /* (Enable loads: the generic kernel) */
    } else if (write && !p->ldc && b0 && c0 && at) o->shape = SH_WRITE_T;
    else if (write && !p->ldc && b0 && c0 && as) o->shape = SH_WRITE_S;
    else if (!write && p->ldc && at && !p->bgts_e && p->bgts_m && p->bcmp && p->cgts_c && !p->ccmp)
        o->shape = SH_CARRY_T_NM;
    /* an Enable load that only darkens (E ← E ∧ f) joins: a chip whose E
     * becomes all 0 there stops (seg_chip), dark chips stay dark */
    o->kind = !p->lde || (!p->agts_t && enable_stays_0_calc(e, p)) ? (write || p->ldc || p->lde ? OPK_JOIN : OPK_SENSE)
                                                              : OPK_STEP;
    if (g->ntmpl < TMPL_MAX) g->tmap[key] = (uint16_t)((const char *)&g->tmpl[g->ntmpl++] - (const char *)g);
    return o;
}

static inline const seg_op *seg_tmpl(const pp5_emc *e, seg *g, unsigned key)
{
    unsigned off = g->tmap[key];
    return off ? (const seg_op *)(const void *)((const char *)g + off) : seg_tmpl_make(e, g, key);
}

/* seg_add's answer: the word joined the segment; it cannot (its T bit may
 * still change: the caller steps it); the segment is full (SEG_MAX ops: the
 * caller flushes it and adds the word again) */
enum { SEG_ADDED, SEG_STEP, SEG_FULL };

/* R_T for a word that reads T, from pp5_emc_run's QEE locals (what
 * QEE_RT_PUT would store, without the stores and their loads back): the
 * shift count sh, the collecting set into and its bit count m. T is bit
 * *k of e->set[*set] (*set = -1: T = 0); false when that bit is not final
 * yet (the word steps). */
static inline __attribute__((always_inline)) bool qee_rt_now(const pp5_emc *e, const qee_set *into, uint64_t m,
                                                              uint64_t sh, int *set, int *k)
{
    int rs, rk;
    if (sh != e->shifts) { /* (a short step since the last full one: the plan's R_T) */
        rs = e->q_rt;
        rk = (int)(sh - 1 - e->q_rt_base);
    } else {
        rs = e->rt_set;
        rk = e->rt_k;
    }
    *set = -1;
    *k = 0;
    if (rs < 0 || rk >= 128) return true;
    const qee_set *s = &e->set[rs];
    int sm = s == into ? (int)m : s->m;
    /* bit k is final once coefficient bit k has arrived (or no more will) */
    if (!(rk < sm || !s->open || sm >= 128)) return false;
    *set = rs;
    *k = rk;
    return true;
}

/* The word of pins p (ALU controls; its template t of kind OPK_JOIN or
 * OPK_SENSE) joins the segment (g with its decode state d); T is bit k of
 * coefficient set set_ring (-1: T = 0, or the word does not read T:
 * qee_rt_now). lde: the word may load Enable (a constant where it is
 * inlined: the common words' copy has no Enable code). */
static inline __attribute__((always_inline)) int seg_add(pp5_emc *e, seg *g, seg_dec *d, int addr, int set_ring,
                                                         int k, const seg_op *t, bool lde)
{
    bool valid = addr < PP5_EMC_MEM_BITS;
    if (t->kind == OPK_SENSE) { /* changes nothing: S follows the read */
        if (!valid) e->warnings++; /* A-16 */
        seg_sense(d, addr);
        return SEG_ADDED;
    }
    if (t->fill && d->n && d->clocks && d->op[d->n - 1].fill && !d->prev_write) {
        /* (a fill right after a fill: the second one is all that is seen; the
         * waiting z-test repeats its Carry preset) */
        if (!valid) e->warnings++;
        seg_op *o = &d->op[d->n - 1];
        o->fill_v = t->fill_v;
        d->prev_plane = valid ? addr : PL_ZERO;
        d->clocks++;
        return SEG_ADDED;
    }
    if (d->n == SEG_MAX) return SEG_FULL;
    if (!valid) e->warnings++;
    seg_op *o = &d->op[d->n++];
    memcpy(o, t, SEG_TMPL_BYTES);
    int m_plane = valid ? addr : PL_ZERO, s_plane = d->clocks ? d->prev_plane : PL_ZERO;
    o->m_plane = (int16_t)m_plane;
    if (lde && t->lde) g->has_lde = true;
    o->set_ring = (int8_t)set_ring;
    o->k = (uint8_t)k;
    o->ldc_rank = (int16_t)d->nldc;
    if (t->ldc) {
        if (t->need_t && set_ring >= 0) g->ldc_rings |= 1u << set_ring;
        d->nldc++;
        g->last_ldc = d->n - 1;
        if (t->fill || !t->reads_c) g->last_over = d->n - 1;
    }
    o->s_plane = (int16_t)s_plane;
    if (!d->clocks) {
        o->s_mode = S_INIT;
        o->s_addr = (int16_t)e->s_addr;
    } else {
        o->s_mode = d->prev_write ? S_PREV_M : S_PLANE;
        o->s_addr = (int16_t)(s_plane == PL_ZERO ? -1 : s_plane);
    }
    o->m0 = g->pl0[m_plane];
    o->s0 = g->pl0[s_plane];
    o->t_same = 0;
    o->run = 0;
    if (t->need_t) {
        bool same = g->last_t_ring == set_ring && g->last_t_k == k;
        o->t_same = same;
        if (!same) { /* (the same set and bit as the last T op: the set's bookkeeping has it) */
            if (set_ring >= 0) {
                seg_set *ss = &g->set[set_ring];
                if (set_ring != g->last_t_ring) { /* (the same set: the segment's has it) */
                    if (k > ss->kmax) ss->kmax = k;
                    if (k < ss->kmin) ss->kmin = k;
                    g->has_t = true;
                    if (e->set[set_ring].uid < g->min_uid) g->min_uid = e->set[set_ring].uid;
                } else if (k > g->last_t_k) { /* (above a bit read: not the lowest) */
                    if (k > ss->kmax) ss->kmax = k;
                } else if (k < ss->kmin)
                    ss->kmin = k;
            }
            g->last_t_ring = set_ring;
            g->last_t_k = k;
        }
    }
    d->prev_plane = m_plane;
    d->prev_write = t->write;
    d->clocks++;
    return SEG_ADDED;
}

/* The collecting set's coefficient bits lo .. hi-1 of the short path ORed
 * into set s: dat[j] holds bit j of coefficient c at bit 8c (the pins'
 * dat[0..5] masked to bit 0, stored as one 64-bit word a shift: each is read
 * back by a load of its size, which store forwarding serves). Eight words
 * ORed at shifts 0..7 transpose them: byte c then holds bits b .. b+7 of
 * coefficient c (dat has room for the words past hi up to the next
 * multiple of 8, all holding only bits 8c: the words outside lo .. hi-1 are
 * masked off after the transpose). */
static void qee_bits_put(qee_set *s, const uint64_t *dat, int lo, int hi)
{
    for (int half = lo >> 6; half <= (hi - 1) >> 6; half++) { /* (64-bit halves: no 128-bit shifts) */
        uint64_t w0 = 0, w1 = 0, w2 = 0, w3 = 0, w4 = 0, w5 = 0;
        int b0 = lo > half * 64 ? lo & ~7 : half * 64, b1 = hi < half * 64 + 64 ? hi : half * 64 + 64;
        for (int b = b0; b < b1; b += 8) {
            uint64_t x = dat[b] | dat[b + 1] << 1 | dat[b + 2] << 2 | dat[b + 3] << 3 | dat[b + 4] << 4 |
                         dat[b + 5] << 5 | dat[b + 6] << 6 | dat[b + 7] << 7;
            unsigned keep = (hi - b >= 8 ? 0xffu : (1u << (hi - b)) - 1) & (0xffu << (lo > b ? lo - b : 0));
            x &= keep * 0x010101010101ull;
            int at = b & 63;
            w0 |= (x & 0xff) << at;
            w1 |= (x >> 8 & 0xff) << at;
            w2 |= (x >> 16 & 0xff) << at;
            w3 |= (x >> 24 & 0xff) << at;
            w4 |= (x >> 32 & 0xff) << at;
            w5 |= (x >> 40 & 0xff) << at;
        }
        int up = half * 64;
        s->coef[0] |= (u128)w0 << up;
        s->coef[1] |= (u128)w1 << up;
        s->coef[2] |= (u128)w2 << up;
        s->coef[3] |= (u128)w3 << up;
        s->coef[4] |= (u128)w4 << up;
        s->coef[5] |= (u128)w5 << up;
    }
}

#if defined(EMC_AVX512)
/* qee_bits_put with AVX-512 VBMI and GFNI, a 64-bit half at a time: the
 * half's 64 words (8 vectors of 8; only bit 0 of bytes 0..5 is set in each)
 * merged into one, group g shifted by g (word j, byte c, bit g = bit 8g + j
 * of coefficient c), then field8's bit transpose puts bit 8g + j of
 * coefficient c at word c, byte g, bit j. dat must hold the words of each
 * half it touches (pp5_emc_run's cdat: 256 + 8). */
__attribute__((target("avx512f,avx512bw,avx512vbmi,gfni"))) static void qee_bits_put_gfni(qee_set *s,
                                                                                         const uint64_t *dat, int lo,
                                                                                         int hi)
{
    for (int half = lo >> 6; half <= (hi - 1) >> 6; half++) {
        const uint64_t *d = dat + half * 64;
#define BITS_GROUP(g) _mm512_slli_epi64(_mm512_loadu_si512(d + 8 * (g)), g) /* (shift counts constant) */
        __m512i y = _mm512_or_si512(_mm512_or_si512(_mm512_or_si512(BITS_GROUP(0), BITS_GROUP(1)),
                                                     _mm512_or_si512(BITS_GROUP(2), BITS_GROUP(3))),
                                    _mm512_or_si512(_mm512_or_si512(BITS_GROUP(4), BITS_GROUP(5)),
                                                    _mm512_or_si512(BITS_GROUP(6), BITS_GROUP(7))));
#undef BITS_GROUP
        int b0 = lo > half * 64 ? lo - half * 64 : 0, b1 = hi < half * 64 + 64 ? hi - half * 64 : 64;
        uint64_t keep = (b1 == 64 ? ~0ull : (1ull << b1) - 1) & (~0ull << b0), w[8];
        _mm512_storeu_si512(w, _mm512_and_si512(bits_transpose_8x64_gfni(y), _mm512_set1_epi64((long long)keep)));
        if (half) /* (a constant shift: a variable 128-bit shift costs a few instructions a coefficient) */
            for (int c = 0; c < 6; c++) s->coef[c] |= (u128)w[c] << 64;
        else
            for (int c = 0; c < 6; c++) s->coef[c] |= w[c];
    }
}
#endif

/* Pins p load Carry or Enable, write, or are a redundant code (else the clock
 * only reads: seg_sense). */
_Static_assert(offsetof(pp5_pins, ldc) + 1 == offsetof(pp5_pins, lde) &&
                   offsetof(pp5_pins, lde) + 1 == offsetof(pp5_pins, mwrt) &&
                   offsetof(pp5_pins, ldc) + 6 == offsetof(pp5_pins, redundant),
               "pp5_pins: ldc, lde, mwrt .. redundant in one 8-byte word");
static inline bool pins_change(const pp5_pins *p)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    uint64_t w;
    memcpy(&w, &p->ldc, 8); /* (ldc lde mwrt extop config_mode pair redundant dat[0]) */
    return (w & 0x00ff000000ffffffull) != 0;
#else
    return (p->ldc | p->lde | p->mwrt | p->redundant) != 0;
#endif
}

/* dat[0..5] of pins p, bit 0 of each, as bits 0, 8, .., 40 (qee_bits_put) */
static inline uint64_t dat_bits(const pp5_pins *p)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    uint64_t dat;
    memcpy(&dat, p->dat, 8); /* (dat[0..5], then lsb and addr_l: masked off) */
    return dat & 0x010101010101ull;
#else
    uint64_t dat = 0;
    for (int c = 0; c < 6; c++) dat |= (uint64_t)(p->dat[c] & 1) << 8 * c;
    return dat;
#endif
}

/* (GCC's straight-line vectorizer packs the decode's counters into one
 * vector register and unpacks them every clock: −6 % in the decode alone) */
#if defined(__GNUC__) && !defined(__clang__)
__attribute__((optimize("no-tree-slp-vectorize")))
#endif
void pp5_emc_run(pp5_emc *e, const pp5_pins *pins, size_t n)
{
    seg *g = e->seg;
    if (!g) {
        for (size_t i = 0; i < n; i++) pp5_emc_step(e, &pins[i]);
        return;
    }
    /* (the segment the last block left open carries on) */
    /* the pin latches are the previous clock's pins: read there, written back
     * before the clock-by-clock path and at the end */
    /* (the loop reads the previous clock's pins at p − 1, one register fewer
     * than a pointer of its own: the first clock runs on a copy of pins[0]
     * that follows the latches, head[1], the rest on pins[1 .. n)) */
    pp5_pins head[2];
    memset(head, 0, sizeof head);
    head[0].addr_l = e->lat_addr_l;
    head[0].addr_h = e->lat_addr_h;
    memcpy(head[0].dat, e->lat_dat, 6);
    head[0].lsb = e->lat_lsb;
    if (n) head[1] = pins[0];
    seg_dec d;
    seg_dec_get(g, &d);
    /* The QEE's short path (qee_step) in locals: the collecting set's bit
     * count m (stored in the set before seg_add reads it), the shift count
     * sh_base + m, and the set's coefficient bits of the shifts since bit
     * m_lo, one word a shift (cdat, ORed into the set before anything reads its coefficients:
     * QEE_PUT); e->shifts, R_T's set and bit index are brought up to date when
     * something reads them (QEE_RT_PUT). Every clock stores its coefficient
     * bits at m (a clock without TrSt: overwritten by the next one, or past
     * the bits read; with a collecting set m ≤ 128, the shift that fills it
     * stores at 128: cdat has room, bit 0 stays). With no collecting set, m
     * counts into nothing (cdat[m & 255]). A full step (qee_shift) that
     * collects into the same set leaves its bits to cdat too (kept). */
    qee_set *into;
    /* (the shift count is sh_base + m: both advance on a short step, so the
     * loop carries m alone, and the planned event is a bit count, m_event) */
    uint64_t m, m_lo, sh_base, m_event;
    uint64_t cdat[256 + 8];
    memset(cdat, 0, sizeof cdat); /* (qee_bits_put reads whole groups of eight, the GFNI form halves) */
    void (*const bits_put)(qee_set *, const uint64_t *, int, int) =
#if defined(EMC_AVX512)
        e->bits_gfni ? qee_bits_put_gfni :
#endif
                     qee_bits_put;
#define QEE_SH_GET()                                                                               \
    do {                                                                                           \
        sh_base = e->shifts - m;                                                                   \
        m_event = e->q_event >= sh_base ? e->q_event - sh_base : 0;                                \
    } while (0)
#define QEE_GET()                                                                                  \
    do {                                                                                           \
        into = e->q_into >= 0 ? &e->set[e->q_into] : NULL;                                         \
        m = m_lo = into ? (uint64_t)into->m : 0;                                                   \
        QEE_SH_GET();                                                                              \
    } while (0)
#define QEE_RT_PUT()                                                                               \
    do {                                                                                           \
        uint64_t sh_ = sh_base + m;                                                                \
        if (into) into->m = (int)m;                                                                \
        if (sh_ != e->shifts) {                                                                    \
            e->rt_set = e->q_rt;                                                                   \
            if (e->q_rt >= 0) e->rt_k = (int)(sh_ - 1 - e->q_rt_base);                             \
            e->shifts = sh_;                                                                       \
        }                                                                                          \
    } while (0)
#define QEE_PUT()                                                                                  \
    do {                                                                                           \
        QEE_RT_PUT();                                                                              \
        if (m > m_lo && into) bits_put(into, cdat, (int)m_lo, (int)m);                             \
        m_lo = m;                                                                                  \
    } while (0)
    QEE_GET();
    /* two ranges, one loop body: head[1] (none when n = 0), then pins[1 .. n) */
    const pp5_pins *p = head + 1, *end = n ? head + 2 : head + 1;
    for (int range = 0; range < 2; range++, p = pins + (n > 0), end = pins + n)
    for (; p < end; p++) { /* (not indented: the clock's body) */
        const pp5_pins *const prev = p - 1;
        /* the shift's coefficient bits (a clock without TrSt: overwritten by
         * the next one, or past the bits read) */
        cdat[m & 255] = dat_bits(prev);
        if (p->trst) {
            if (__builtin_expect(prev->lsb || m >= m_event, 0)) {
                /* the QEE's full step (an event of qee_plan, a new LSB token):
                 * when it collects into the set the short path would (into,
                 * the plan's), the bits just stored stand and qee_shift only
                 * counts them (kept); else it collects them itself */
                QEE_RT_PUT();
                /* a new set would take the ring slot of one the segment reads */
                if (prev->lsb && g->has_t && e->nset_total >= QEE_SETS &&
                    (uint64_t)(e->nset_total - QEE_SETS) >= g->min_uid) {
                    QEE_PUT();
                    seg_dec_put(g, &d);
                    pp5_emcf_seg_flush(e, g);
                    seg_dec_get(g, &d);
                }
                latch_pins(e, prev);
                qee_shift(e, into); /* (into's bits of this shift: cdat[m]) */
                if (into) m = (uint64_t)into->m;
                QEE_SH_GET(); /* (e->shifts and R_T are qee_shift's) */
                if (e->q_into < 0 || &e->set[e->q_into] != into) { /* (another collecting set) */
                    QEE_PUT();
                    QEE_GET();
                }
            } else {
                /* qee_step's short path (a branch on TrSt, not m += TrSt: the
                 * next clock's store address would wait on this clock's TrSt
                 * load; the branch is predicted) */
                m++;
            }
        }
        int addr = prev->addr_l;
        int added = SEG_ADDED, t_set = -1, t_k = 0;
        if (!pins_change(p)) {
            /* a run of clocks that only read: the clocks after this one
             * while they only read too and their QEE step is the short one
             * (no LSB token before them, no planned event); only the
             * coefficient bits and m change there, S follows the run's last
             * read */
            const pp5_pins *q = p;
            while (q + 1 < end && !pins_change(q + 1)) {
                cdat[m & 255] = dat_bits(q);
                if (q[1].trst) {
                    if (q->lsb || m >= m_event) break;
                    m++;
                }
                q++;
            }
            d.clocks += (int)(q - p);
            p = q;
            seg_sense(&d, p[-1].addr_l);
        } else if (!(p->lde | p->redundant)) {
            /* (a word that loads no Enable joins: OPK_JOIN; tested on the pins
             * first, so that the rare steps' branch does not wait on the
             * template's loads) */
            const seg_op *t = seg_tmpl(e, g, pins_key(p, addr < PP5_EMC_MEM_BITS));
            added = !p->agts_t ? seg_add(e, g, &d, addr, -1, 0, t, false)
                    : qee_rt_now(e, into, m, sh_base + m, &t_set, &t_k)
                        ? seg_add(e, g, &d, addr, t_set, t_k, t, false)
                        : SEG_STEP;
        } else if (p->redundant) {
            /* a configuration word joins a segment that has no op yet (its
             * read as a clock that only reads, after the segment's reads: S
             * follows it); after an op it steps (the segment's ops would run
             * with the new origins) */
            if (p->config_mode && d.n) added = SEG_STEP;
            else {
                for (int x = 0; x < 6; x++)
                    if (p->extop >> x & 1) e->extops[x]++; /* A-13, A-23 */
                if (p->config_mode) config_word(e, prev->addr_l, prev->addr_h, p->acmp);
                seg_sense(&d, addr);
            }
        } else {
            const seg_op *t = seg_tmpl(e, g, pins_key(p, addr < PP5_EMC_MEM_BITS));
            if (t->kind == OPK_STEP) added = SEG_STEP;
            else {
                added = !p->agts_t ? seg_add(e, g, &d, addr, -1, 0, t, true)
                        : qee_rt_now(e, into, m, sh_base + m, &t_set, &t_k)
                            ? seg_add(e, g, &d, addr, t_set, t_k, t, true)
                            : SEG_STEP;
            }
        }
        if (added == SEG_FULL) {
            QEE_PUT();
            seg_dec_put(g, &d);
            pp5_emcf_seg_flush(e, g);
            seg_dec_get(g, &d);
            /* (R_T as before: the flush changed no QEE state) */
            added = seg_add(e, g, &d, addr, t_set, t_k, seg_tmpl(e, g, pins_key(p, addr < PP5_EMC_MEM_BITS)), true);
        }
        if (added == SEG_STEP) {
            QEE_PUT();
            seg_dec_put(g, &d);
            pp5_emcf_seg_flush(e, g);
            latch_pins(e, prev);
            step_word(e, p);
            seg_dec_get(g, &d);
        }
    }
    QEE_PUT();
    seg_dec_put(g, &d);
#undef QEE_SH_GET
#undef QEE_GET
#undef QEE_RT_PUT
#undef QEE_PUT
    latch_pins(e, n > 1 ? pins + n - 1 : head + n);
    /* (the segment stays open: seg_settle) */
}
