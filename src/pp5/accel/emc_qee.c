/* The fast EMC array: the QEE (per-chip values, lines, carries, the bit
 * tree), edge signs and the QEE set ring (see emc_int.h for the file map). */
#include "pp5/accel/emc_int.h"




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
void pp5_emcf_regroup(pp5_emc *e)
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
    /* x part D·x² + A·x (C is added per chip), y part F·y² + B·y; in int64
     * when |D|, |F| < 2^35 and |A|, |B| < 2^47 (x < 2^12: as sign_word_init) */
    i128 co[6] = {0};
    const int qi = is_y ? 5 : 3, li = is_y ? 1 : 0;
    co[qi] = sext(s->coef[qi], k);
    co[li] = sext(s->coef[li], k);
    const bool narrow = co[qi] > -((i128)1 << 35) && co[qi] < (i128)1 << 35 &&
                        co[li] > -((i128)1 << 47) && co[li] < (i128)1 << 47;
    pp5_emc_part_range(co, is_y, narrow, origin, n, mn, mx);
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
        if (e->groups_dirty) pp5_emcf_regroup(e);
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
            x = pp5_emc_transpose8(x);
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

/* The shared entry (emc_int.h): clang makes no plain symbol for a hidden
 * target_clones function used from another file, so the clones stay static
 * here behind this call. */
void pp5_emcf_carry_into(const uint64_t *pl, const uint64_t *rl, int tw, int th, int k, uint64_t *cy, int wpc)
{
    carry_into(pl, rl, tw, th, k, cy, wpc);
}

#ifdef EMC_AVX512
/* carry_into for a 16×16 chip with AVX-512 (chosen at pp5_emc_create when
 * the processor has it): one unsigned compare of the 16 columns a row gives
 * the row's mask directly. */
__attribute__((target("avx512f,avx512bw,avx512vl"))) void pp5_emcf_carry16_avx512(const uint64_t *pl, const uint64_t *rl,
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
    pp5_emcf_carry_into(pl, rl, e->tw, e->th, k, e->t_carry + (size_t)c * (size_t)e->wpc, e->wpc);
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
__attribute__((noinline)) const uint64_t *pp5_emcf_compute_bit(pp5_emc *e, int c, const qee_set *s, int k, uint64_t *out)
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
        if (e->groups_dirty) pp5_emcf_regroup(e);
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
 * A = T ⊕ ACmp, C = ¬CCmp. On a chip where T is constant the
 * result is worked out once per word for T = 0 and T = 1 on the four (E, M)
 * combinations: E unchanged (the chip is skipped, its lit bit stays), E all 0
 * or all 1 (a fill), or else computed. False: not such a word, or R_T not
 * in the int64 range (the caller does it the general way). */
/* (the chips as a mask: chips_in[4], or list[0..n) when chips_in is NULL) */
bool pp5_emcf_sign_exec(pp5_emc *e, const alu_word *u, const int *list, int n, const uint64_t *chips_in)
{
    if (!u->lde || !u->need_t || u->need_s || u->write || u->ldc || u->reads_c || u->save_read || u->keep_sum)
        return false;
    sign_word w;
    if (!sign_word_init(e, &w)) return false;
    if (e->groups_dirty) pp5_emcf_regroup(e);
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
void pp5_emcf_sign_planes(pp5_emc *e, const int *list, int n, const uint64_t **tp)
{
    int k = e->rt_k;
    const qee_set *s = e->rt_set >= 0 ? &e->set[e->rt_set] : NULL;
    if (!s || !e->fast_uv || k > 100 || (s->coef[4] & (((u128)1 << (k + 1)) - 1)) != 0) {
        for (int i = 0; i < n; i++) tp[i] = tree_plane(e, list[i], false);
        return;
    }
    if (e->groups_dirty) pp5_emcf_regroup(e);
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
 * — an older set than the plan's, or the same one. */
void pp5_emcf_qee_plan(pp5_emc *e)
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
void pp5_emcf_qee_shift(pp5_emc *e, const qee_set *kept)
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
    pp5_emcf_qee_plan(e);
}


