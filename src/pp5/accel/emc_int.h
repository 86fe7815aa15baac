/* The fast EMC array's private declarations (not installed), shared by
 *   emc_planes.c  creation, the accessors and the plane/field read-out
 *   emc_qee.c     the QEE: per-chip values, lines, carries, the bit tree, edge
 *                 signs (four ISA variants), the set ring
 *   emc_alu.c     the ALU, the deferred-carry log, configuration words and
 *                 the clock-by-clock step pp5_emc_step
 *   emc_seg.c     block segments (emc_seg.h): the chip-major pass over a
 *                 segment's ops with the per-chip adder, flushing a segment
 *   emc_run.c     pp5_emc_run: a block's clocks decoded into segments (or
 *                 stepped); the hot paths inline within each file, and the
 *                 small inline helpers they share are below */
#ifndef LOCKSTEP_PP5_ACCEL_EMC_INT_H
#define LOCKSTEP_PP5_ACCEL_EMC_INT_H

/* Pixel-Planes 5 EMC pixel array: bit-plane pixel memory, the 1-bit pixel
 * ALU (A-8…A-12, truth tables as data), redundant codes, ExtOps, per-chip
 * configuration registers and each chip's QEE (pp5.md §2.4, A-17).
 *
 * Timing at the pins (include/lockstep/pp5.h): in EMC clock n the ALU controls
 * of pins[n] belong to microword n−2 and the address of pins[n−1] to the same
 * word, so the EMC latches the address one clock (its memory-read stage, A-12).
 * TrSt of pins[n] is Shift(n−3) and the coefficient bits / LSB token of
 * pins[n−1] are serializer clock n−3: the EMC latches the data one clock and
 * shifts with the unlatched TrSt ("a latch missing on the EMC's TrSt input").
 *
 * Layout (docs/pp5-accel.md): planes are stored per chip,
 * wpc = ⌈tile pixels / 64⌉ words for each chip (pixel i = ly·tile_w + lx of the
 * chip), so one ALU microcycle is a few word operations per chip, and a chip
 * whose Enable register is all 0 is skipped whenever the microword cannot
 * change its state there (writes gated by E; Enable loads that provably give
 * 0). A word whose only effect on such a dark chip is on Carry (LdC is not
 * gated, A-11) is logged and applied to that chip only when its Carry is
 * needed. The QEE result T is produced per chip and only for chips that read
 * it: a chip whose Q range lies inside one aligned 2^k block gets a constant
 * plane; otherwise a bit-serial adder of the chip's x part P(lx) and y part
 * R(ly) advances bit by bit, exactly as the tree would, from a carry computed
 * directly at the first bit read (the xy term, when present in the low bits,
 * falls back to per-pixel evaluation).
 *
 * pp5_emc_run (a block of clocks) runs the words between two Enable loads
 * that can light a pixel or read T chip-major (see "blocks of clocks" below): the QEE advances as the block is
 * decoded, then each chip that can change runs all of those words with its
 * Enable, Carry, S and bit-serial adder in registers, T's bits read from
 * per-segment column and row masks; dark chips log their Carry updates as
 * above. tests/pp5/test_emc_diff.c checks all of it (pp5_emc_step and
 * pp5_emc_run in random blocks) against the straightforward array kept in
 * src/pp5/model/emc_ref.c. */
#include "lockstep/pp5_emc.h"
#include "pp5/model/emc_bits.h"
#include "pp5/model/emc_ref.h"
#include "pp5/model/emc_state.h"
#include <stdlib.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define EMC_AVX512 1
#endif
#ifndef PP5_EMC_SIGN_ISA
#define PP5_EMC_SIGN_ISA 2 /* (below: 1 = AVX2 at most, 0 = portable; the tests build all three) */
#endif

typedef unsigned __int128 u128;
typedef __int128 i128;

enum { QEE_SETS = 8, SET_TOKEN_TO_BIT0 = 2 /* seed: LSB "precedes the coefficient LSBs by 2" */ };
/* 256-bit vectors (GCC/clang vector extensions) for four-word chips. */
typedef uint64_t v4u __attribute__((vector_size(32)));
typedef uint16_t v16u16 __attribute__((vector_size(32)));
/* (macros, not functions: a function taking or returning a 256-bit vector
 * has a different ABI with and without AVX) */
#define LD4(v, p) memcpy(&(v), (p), sizeof(v4u))
#define ST4(p, v) memcpy((p), &(v), sizeof(v4u))
#define SPLAT4(x) ((v4u){(x), (x), (x), (x)})

enum { T_WIN = 8 };
enum { PL_E = PP5_EMC_MEM_BITS, PL_CARRY, PL_ZERO, NPLANES };
/* Words between two planes' ends and starts (one cache line): with 64 chips
 * a plane is 2 KB, and at a 2 KB stride the 48 planes a chip's z-test reads
 * and writes fall in 2 of a 32 KB 8-way L1's 64 sets (address bits 6..11),
 * 16 lines for 48: conflict misses. A stride of 2 KB + 64 B puts them in 48
 * sets (cachegrind: the chip pass's L1 read misses −44 %). */
#ifndef PLANE_PAD
#define PLANE_PAD 8
#endif

typedef struct qee_set {
    uint64_t token_shift;   /* shift index on which the LSB token was consumed */
    uint64_t uid;           /* sets started before this one */
    u128 coef[6];           /* bits received so far, unsigned (two's complement mod 2^m) */
    int m;                  /* bits received */
    bool open;              /* still collecting */
} qee_set;

/* The x part P(lx) = D·x² + A·x + C (or the y part R(ly) = F·y² + B·y) of one
 * set at one chip origin, shared by the chips with that X0 (Y0), with its bits
 * as lx (ly) masks, cut eight bits at a time (fast geometry only). */
typedef struct axis_line {
    uint64_t uid;           /* set (UINT64_MAX: none) */
    int origin;             /* X0 or Y0 */
    int m_used;             /* values exact below this many coefficient bits */
    uint32_t win_valid;     /* bit b: mask[8b .. 8b+7] computed */
    int rk, rk_m;           /* extremes below are for bit rk (set had rk_m bits) */
    i128 rmin, rmax;        /* of the part, coefficients sign-extended from bit rk */
    u128 val[64];
    uint64_t mask[128];     /* mask[j] bit l = bit j of val[l] */
} axis_line;

/* Per-chip QEE state: the bit-serial adder of P(lx) + R(ly) and the last T plane. */
typedef struct tengine {
    uint64_t uid;           /* set the adder belongs to (UINT64_MAX: none) */
    uint32_t cfg;           /* the chip's configuration when it started */
    int next_k;             /* carry plane = carry into bit next_k */
    int m_used;             /* P/R values are exact below this many coefficient bits */
    uint64_t last_uid;      /* T cache: bit last_k of set last_uid at config last_cfg */
    uint32_t last_cfg;
    int last_k, last_m;
    uint64_t seq_uid;       /* the last bit asked for (a read of k+1 next runs on) */
    int seq_k;
    bool run_on;            /* this read follows bit k-1 */
    uint64_t win_uid;       /* adder output cache: bits win_k0 .. win_k0+win_n-1 (final) */
    uint32_t win_cfg;
    int win_k0, win_n;
} tengine;

typedef struct alu_word {
    uint64_t ss, ts, es, ms, cs, acm, bcm, ccm; /* unselected source: all ones */
    uint64_t w_ungated, w_on, l_ungated, c_on, e_on, snap_read, snap_sum, snap_keep;
    uint64_t *m_base, *e_base, *c_base, *s_base, *zero_base; /* chip 0's words of the planes used */
    bool write, ldc, lde, std, gate_w, gate_l, save_read, keep_sum, need_t, need_s, reads_c, fast4;
    int addr;
} alu_word;

/* A microword whose only effect on a chip with E all 0 is on Carry, kept until
 * that Carry is needed (A-11: LdC is not gated by E; the chip's memory and E
 * cannot change meanwhile without the chip being brought up to date first). */
/* (what of the microword a deferred Carry update reads: flush_chip) */
typedef struct defer_word {
    uint64_t ss, ts, es, ms, cs, acm, bcm, ccm;
    int addr;
    bool need_t, need_s;
} defer_word;

/* The deferred-carry log flushes every chip when it holds this many entries. */
enum { LOG_LIMIT = 1 << 14 };

typedef struct defer_op {
    defer_word u;
    int s_addr;             /* S = this plane (-1: 0) */
    int set_ix;             /* T = bit k of arch[set_ix] (-1: 0) */
    int k;
} defer_op;

struct pp5_emc {
    pp5_emc_options o;
    int w, h, tw, th, nchips, tpix, wpc, npix;
    size_t pw;              /* words per plane = nchips·wpc */
    size_t ps;              /* plane stride in words: pw + PLANE_PAD (plane a at mem + a·ps, chip c + c·wpc) */
    uint64_t lastmask;      /* valid pixels of a chip's last word */
    uint64_t *mem;          /* NPLANES planes: memory, E, Carry, a zero plane (ps apart) */
    uint64_t *s_snap;       /* S per chip when s_gen[c] == gen, else plane s_addr */
    uint64_t *s_gen, gen;
    int s_addr;             /* -1: S = 0 */
    uint64_t eany[4];       /* chip c has some pixel with E = 1 */
    int carry_fill;         /* 1/2: Carry is all 0/1 since the last fill (0: unknown) */
    uint32_t *config;       /* per chip */
    uint32_t x0_mask, y0_mask; /* bits of X0 / Y0 the QEE uses */
    /* QEE */
    qee_set set[QEE_SETS];
    int nset_total;         /* sets started (ring index = n % QEE_SETS) */
    uint64_t shifts;
    int rt_set;             /* R_T source set (ring index), -1 = no set: T = 0 */
    int rt_k;
    uint64_t q_event;       /* qee_plan: shifts below this take qee_step's short path */
    int q_into, q_rt;       /* ring index of the collecting set, of R_T's set (-1: none) */
    uint64_t q_rt_base;     /* R_T's bit index = shift index - this */
    tengine *te;
    uint64_t *t_carry, *t_last; /* nchips·wpc each */
    uint64_t *t_win;        /* nchips·T_WIN·wpc: the adder's last bits */
    u128 *pr;               /* per chip: P(lx) for lx < tw, then R(ly) for ly < th (slow geometry) */
    axis_line *xline, *yline; /* indexed by the first chip with the same X0 / Y0 */
    int16_t *xlead, *ylead; /* per chip: that first chip */
    bool groups_dirty;      /* a configuration changed since xlead/ylead */
    /* bit-serial fast path: whole rows in a word (tile_w divides 64), tile_h ≤ 64 */
    bool fast_uv;
    int rpw;                /* rows per word */
    uint64_t rep, row_ones, rows_mask;
    uint64_t *vspread;      /* rows bits (rpw ≤ 8) → those rows all ones */
    /* deferred Carry updates of dark chips */
    defer_op *log;
    int log_len, log_cap;
    qee_set *arch;          /* copies of the sets those ops read T from */
    int arch_len, arch_cap;
    int *pend_from;         /* per chip: first log entry not yet applied (-1: none), unless in grp */
    /* chips whose first pending entry is grp_from instead (one value for the
     * chips a segment leaves dark from its start, seg_defer: no store per
     * chip); a bit counts only while the chip's pend bit is set, and a chip's
     * own pend_from is set only with its bit cleared (pend_set) */
    uint64_t grp[4];
    int grp_from;
    /* log[hole_lo .. hole_hi) are reserved, not written (seg_defer): they are the
     * Carry-loading ops of hole_op[hole_first .. hole_n), T from arch[hole_arch[set ring]],
     * written when a chip's entries are applied (log_fill) — in a triangle
     * stream the next z-test's Carry preset drops them first */
    int hole_lo, hole_hi, hole_first, hole_n;
    const struct seg_op *hole_op;
    int hole_arch[8];       /* (QEE_SETS) */
    uint64_t pend[4];       /* chips with pending entries */
    /* pin latches */
    uint8_t lat_addr_l, lat_addr_h, lat_dat[6], lat_lsb;
    uint64_t extops[6], warnings;
    uint64_t ones4[4];      /* a constant T plane of four-word chips */
    struct seg *seg;        /* pp5_emc_run's segment (NULL: it steps clock by clock) */
    int avx512;             /* the processor has AVX-512 (F, BW, VL): 1; and DQ and GFNI: 2 (0: none) */
    bool bits_gfni;         /* and VBMI: pp5_emc_run puts coefficient bits with qee_bits_put_gfni */
    uint8_t es0[256];       /* enable_stays_0 by operand pins (0: not known yet) */
    uint64_t leads[2][4];   /* the chips that lead their column (x) / row (y) group (regroup) */
};


/* The widest vector code the edge paths may use when the CPU has it: 2 =
 * AVX-512, 1 = AVX2, 0 = portable C only (tests/pp5 builds all three). */
#ifndef PP5_EMC_SIGN_ISA
#define PP5_EMC_SIGN_ISA 2
#endif

/* ---- across the files (emc_planes.c, emc_run.c) ---- */
#if defined(__GNUC__)
#define PP5_EMCF_HIDDEN __attribute__((visibility("hidden")))
#else
#define PP5_EMCF_HIDDEN
#endif
struct seg;
void pp5_emcf_flush_chip(pp5_emc *e, int c) PP5_EMCF_HIDDEN;
void pp5_emcf_flush_all(pp5_emc *e) PP5_EMCF_HIDDEN;
void pp5_emcf_log_fill(pp5_emc *e) PP5_EMCF_HIDDEN;
bool pp5_emcf_block_capable(const pp5_emc *e) PP5_EMCF_HIDDEN;
struct seg *pp5_emcf_seg_new(const pp5_emc *e) PP5_EMCF_HIDDEN;
void pp5_emcf_seg_free(struct seg *g) PP5_EMCF_HIDDEN;
void pp5_emcf_seg_flush(pp5_emc *e, struct seg *g) PP5_EMCF_HIDDEN;
bool pp5_emcf_seg_open(const struct seg *g) PP5_EMCF_HIDDEN;
void pp5_emcf_regroup(pp5_emc *e) PP5_EMCF_HIDDEN;
void pp5_emcf_carry_into(const uint64_t *pl, const uint64_t *rl, int tw, int th, int k, uint64_t *cy, int wpc) PP5_EMCF_HIDDEN;
const uint64_t *pp5_emcf_compute_bit(pp5_emc *e, int c, const qee_set *s, int k, uint64_t *out) PP5_EMCF_HIDDEN;
bool pp5_emcf_sign_exec(pp5_emc *e, const alu_word *u, const int *list, int n, const uint64_t *chips_in) PP5_EMCF_HIDDEN;
void pp5_emcf_sign_planes(pp5_emc *e, const int *list, int n, const uint64_t **tp) PP5_EMCF_HIDDEN;
void pp5_emcf_qee_plan(pp5_emc *e) PP5_EMCF_HIDDEN;
void pp5_emcf_qee_shift(pp5_emc *e, const qee_set *kept) PP5_EMCF_HIDDEN;
#ifdef EMC_AVX512
__attribute__((target("avx512f,avx512bw,avx512vl"))) void pp5_emcf_carry16_avx512(const uint64_t *pl, const uint64_t *rl, int k, uint64_t *cy) PP5_EMCF_HIDDEN;
#endif
void pp5_emcf_line_key(axis_line *L, const qee_set *s, int origin) PP5_EMCF_HIDDEN;
/* emc_alu.c: can the Enable load of pins p give anything but 0 at a pixel whose
 * E is 0; a configuration word; the word part of one clock */
bool pp5_emcf_enable_stays_0_calc(const pp5_emc *e, const pp5_pins *p) PP5_EMCF_HIDDEN;
void pp5_emcf_config_word(pp5_emc *e, unsigned lo, unsigned hi, uint8_t acmp) PP5_EMCF_HIDDEN;
void pp5_emcf_step_word(pp5_emc *e, const pp5_pins *p) PP5_EMCF_HIDDEN;

static inline uint64_t *plane(const pp5_emc *e, int a, int c)
{
    return e->mem + (size_t)a * e->ps + (size_t)c * (size_t)e->wpc;
}
static inline void log_clear(pp5_emc *e)
{
    e->log_len = 0;
    e->arch_len = 0;
    e->hole_lo = e->hole_hi = 0;
}
static inline bool chip_pending(const pp5_emc *e, int c) { return e->pend[c >> 6] >> (c & 63) & 1; }
/* chip c's first pending entry (c pending) */
static inline int pend_start(const pp5_emc *e, int c)
{
    return e->grp[c >> 6] >> (c & 63) & 1 ? e->grp_from : e->pend_from[c];
}
/* chip c's first pending entry becomes en (its own value, out of the group) */
static inline void pend_set(pp5_emc *e, int c, int en)
{
    e->pend_from[c] = en;
    e->grp[c >> 6] &= ~(1ull << (c & 63));
}

/* Chip c's deferred Carry updates dropped (a word overwrote Carry). */
static inline void drop_pending(pp5_emc *e, int c)
{
    e->pend_from[c] = -1;
    e->pend[c >> 6] &= ~(1ull << (c & 63));
}

/* The pins the array latches for the next clock (address, data, LSB token). */
static inline void latch_pins(pp5_emc *e, const pp5_pins *p)
{
    e->lat_addr_l = p->addr_l;
    e->lat_addr_h = p->addr_h;
    memcpy(e->lat_dat, p->dat, 6);
    e->lat_lsb = p->lsb;
}

static inline void update_lit(pp5_emc *e, int c)
{
    const uint64_t *en = plane(e, PL_E, c);
    uint64_t any = 0;
    for (int w = 0; w + 1 < e->wpc; w++) any |= en[w];
    any |= en[e->wpc - 1] & e->lastmask;
    if (any) e->eany[c >> 6] |= 1ull << (c & 63);
    else e->eany[c >> 6] &= ~(1ull << (c & 63));
}


/* pp5_emc_run leaves its last segment open (the next block carries it on:
 * a renderer's 256-clock blocks cut no segment); whatever looks at the state
 * or changes it from outside runs it first. Logically const (the accessors
 * take a const array, as pp5_emc_carry): the clocks were handed over already. */
static inline void seg_settle(const pp5_emc *ce)
{
    if (ce->seg && pp5_emcf_seg_open(ce->seg)) {
        pp5_emc *e = (pp5_emc *)ce;
        pp5_emcf_seg_flush(e, e->seg);
    }
}


#if defined(EMC_AVX512)
/* The 8×64 bit transpose of field_word_c with AVX-512 VBMI and GFNI: x holds
 * eight words x[b]; the result's byte p (of word p / 8) holds bit p of each,
 * bit b from x[b]. One byte permutation gathers byte j of the 8 words into
 * word j (word 7 first: the affine instruction's matrix rows run from bit 7
 * down), one affine transform against the unit bytes transposes each word's
 * 8×8 bits. (Also qee_bits_put_gfni's.) */
__attribute__((target("avx512f,avx512bw,avx512vbmi,gfni"))) static inline __m512i bits_transpose_8x64_gfni(__m512i x)
{
    static const uint8_t idx_bytes[64] = {
#define FW_ROW(j) 56 + (j), 48 + (j), 40 + (j), 32 + (j), 24 + (j), 16 + (j), 8 + (j), (j)
        FW_ROW(0), FW_ROW(1), FW_ROW(2), FW_ROW(3), FW_ROW(4), FW_ROW(5), FW_ROW(6), FW_ROW(7)
#undef FW_ROW
    };
    const __m512i idx = _mm512_loadu_si512(idx_bytes);
    const __m512i unit = _mm512_set1_epi64(0x8040201008040201ll); /* byte k = 1 << k */
    return _mm512_gf2p8affine_epi64_epi8(unit, _mm512_permutexvar_epi8(idx, x), 0);
}
#endif

static inline int chip_x0(const pp5_emc *e, int c) { return (int)(e->config[c] & e->x0_mask); }

static inline int chip_y0(const pp5_emc *e, int c) { return (int)(e->config[c] >> 11 & e->y0_mask); }

/* coefficient bits 0..k as a signed (k+1)-bit number: congruent mod 2^(k+1) */
static inline i128 sext(u128 v, int k)
{
    int sh = 127 - k;
    return (i128)(v << sh) >> sh;
}

/* Range of the x part D·x² + A·x (is_y: F·y² + B·y) over n values from origin.
 * narrow: −2^38 ≤ D < 2^38 and −2^50 ≤ A < 2^50 (F, B), and origin + n ≤ 2^12 (A-14: 11-bit
 * origins, n ≤ 64): then every term and sum fits in int64 (|q·x²|, |l·x| <
 * 2^62) and 64-bit multiplies do (the usual case: the z-test's and colours'
 * sets are narrow); else the 128-bit ones */
static inline void pp5_emc_part_range(const i128 *co, int is_y, bool narrow, int origin, int n, i128 *mn, i128 *mx)
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
    const uint64_t *r = pp5_emcf_compute_bit(e, c, s, k, out);
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

/* A shift with no LSB token before the planned event: only the collecting
 * set and R_T's bit index advance (qee_plan). */
static inline void qee_step(pp5_emc *e)
{
    uint64_t sh = e->shifts;
    if (e->lat_lsb || sh >= e->q_event) {
        pp5_emcf_qee_shift(e, NULL);
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

#endif
