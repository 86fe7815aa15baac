/* Differential test: the optimised EMC array (src/pp5/accel/emc_*.c) against the
 * model (src/pp5/model/emc_ref.c), clock by clock.
 *
 * 1. Random pin sequences: microcode-library ALU words and fully random ALU
 *    words, idle words, redundant codes (ExtOps, config mode with same and
 *    paired addressing), addresses inside and outside pixel memory, TrSt
 *    gaps, and coefficient streams shaped like the Serializer's (LSB token two
 *    shifts before bit 0, sign-extended two's complement, separator; constant,
 *    linear and quadratic sets, some with an xy term, some too short or too
 *    close together); random geometries (including tiles whose pixel count is
 *    not a multiple of 64) and random model options (truth tables, gating, S
 *    source, QEE latency); interleaved pp5_emc_set_field / set_config.
 * 2. pp5_render on random scenes, the reference stepped from the same pins.
 *
 * Every part of the state that src/pp5/model/emc_state.h lists (memory bits,
 * Enable, Carry, configuration registers, ExtOp, warning and set counters) is
 * compared (emc_equal.h), after every clock or at random
 * intervals (so that deferred work is checked both right after it was
 * deferred and long after). Seed printed; replay with LOCKSTEP_SEED=...;
 * LOCKSTEP_DIFF_CLOCKS scales the number of clocks per case;
 * LOCKSTEP_DIFF_EVERY=1 compares after every clock (to find the first one);
 * LOCKSTEP_DIFF_NOCARRY=1 leaves Carry out (reading it applies deferred Carry
 * updates early, which can hide a fault in them). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../common/test_util.h"
#include "base/buf.h"
#include "pp5/model/emc_ref.h"
#include "emc_equal.h"
#include "lockstep/pp5_emc.h"
#include "pp5/render.h"

typedef __int128 i128;

static uint64_t g_seed;
static long g_clocks = 6000;
static bool g_every;    /* LOCKSTEP_DIFF_EVERY=1: compare after every clock in every case */
static bool g_near_lib; /* random words are library words with one or two bits flipped */
static bool g_regroup;  /* scripts in which dark chips pend as a group, run, then pend on their own */
static bool g_runs;     /* scripts of field loads over consecutive T bits, then more words reading T */
static bool g_wide;     /* coefficient sets of 60-120 bits with x and y terms of 2^48 .. 2^62: segments
                         * reading bits up to 63 get line ranges past int64 (part_range's 128-bit path) */

static uint64_t rnd(uint64_t *s) { return ls_test_rand(s); }
static int rint_(uint64_t *s, int n) { return (int)(rnd(s) % (uint64_t)n); }
static bool chance(uint64_t *s, int percent) { return rint_(s, 100) < percent; }

/* ---- comparison ---------------------------------------------------------- */

static bool same_state(const pp5_emc *f, const emc_ref *r, const char *where, long clock)
{
    int w = pp5_emc_width(f), h = pp5_emc_height(f);
    const bool with_carry = !getenv("LOCKSTEP_DIFF_NOCARRY");
    /* the state, part by part as src/pp5/model/emc_state.h lists it */
    char why[256];
    bool ok = emc_state_equal(f, r, with_carry, why, sizeof why);
    if (!ok)
        fprintf(stderr, "%s, clock %ld: %s\n", where, clock, why);
    /* the single-pixel accessors agree with the planes */
    for (int t = 0; t < 8 && ok; t++) {
        int x = (int)((clock * 7 + t * 13) % w), y = (int)((clock * 5 + t * 31) % h), abit = (int)((clock + t * 29) % 210);
        if (pp5_emc_mem_bit(f, x, y, abit) != emc_ref_mem_bit(r, x, y, abit) ||
            pp5_emc_enable(f, x, y) != emc_ref_enable(r, x, y) ||
            (with_carry && pp5_emc_carry(f, x, y) != emc_ref_carry(r, x, y)) ||
            pp5_emc_field(f, x, y, abit, 40) != emc_ref_field(r, x, y, abit, 40)) {
            fprintf(stderr, "%s, clock %ld: single-pixel accessors differ at (%d, %d) bit %d\n", where, clock, x, y, abit);
            ok = false;
        }
    }
    return ok;
}

/* ---- random pins ---------------------------------------------------------- */

/* Shift slots of the coefficient streams as the Serializer would send them. */
enum { SLOTS = 4096 };
typedef struct gen {
    uint64_t rng;
    uint8_t dat[SLOTS][6], lsb[SLOTS];
    long head, tail;    /* slots [head, tail) are queued */
    bool next_trst;
    bool shrink;        /* phase in which Enable only shrinks (edge tests), so whole chips go dark */
    bool calm;          /* phase without Enable loads or configuration words, with short coefficient
                         * sets: long runs for pp5_emc_run, reading sets about to leave the QEE ring */
    int nchips;
    uint8_t fields[6];  /* favourite addresses, so reads and writes meet */
    int script[64], script_len, script_pos; /* a scripted run of library words */
    bool s_word_next;   /* the next word is ADDF's (reads S, loads Carry) */
    long calm_hold;     /* clocks the calm phase is held for (segments past SEG_MAX ops) */
} gen;

static void queue_set(gen *g)
{
    uint64_t *s = &g->rng;
    int mode = rint_(s, 10); /* 0-1 const, 2-6 linear, 7-8 quad (E = 0), 9 quad with E */
    i128 v[6] = {0};
    int fb = 8 + rint_(s, 16);
    for (int c = 0; c < 6; c++) {
        bool used = c == 2 || (mode >= 2 && c < 2) || (mode >= 7 && c != 4) || mode == 9;
        if (!used) continue;
        int mag = c == 2 ? fb + rint_(s, 16) : c < 2 ? fb - 6 + rint_(s, 10) : fb - 12 + rint_(s, 8);
        if (g_wide && c != 2 && c != 4) mag = 48 + rint_(s, 15);
        if (mag < 1) mag = 1;
        i128 m = (i128)(rnd(s) & ((1ull << (mag > 62 ? 62 : mag)) - 1));
        v[c] = chance(s, 50) ? -m : m;
    }
    int n;
    if (g->calm_hold > 0) n = 100 + rint_(s, 40); /* (long: eight sets outlast a segment of SEG_MAX ops) */
    else if (g_wide) n = 60 + rint_(s, 60);
    else if (chance(s, 5) || (g->calm && chance(s, 60))) n = 1 + rint_(s, 10); /* too short: sets closer than 12 */
    else if (chance(s, 10)) n = 60 + rint_(s, 80);  /* long: bits past 64 and 128 */
    else n = 11 + rint_(s, 50);
    int gap = chance(s, 70) ? 0 : rint_(s, 6);
    /* token two slots before bit 0: it rides on the previous slots */
    long bit0 = g->tail + gap + (g->tail - g->head < 2 ? 2 : 0);
    if (bit0 + n + 1 >= g->head + SLOTS) return;
    for (long t = g->tail; t < bit0 + n + 1; t++) {
        memset(g->dat[t % SLOTS], 0, 6);
        g->lsb[t % SLOTS] = 0;
    }
    g->lsb[(bit0 - 2) % SLOTS] = 1;
    for (int i = 0; i < n; i++)
        for (int c = 0; c < 6; c++) g->dat[(bit0 + i) % SLOTS][c] = (uint8_t)(v[c] >> (i < 127 ? i : 127) & 1);
    g->tail = bit0 + n + 1; /* + separator 0 */
}

typedef struct word { uint8_t acmp, agts_s, agts_t, bcmp, bgts_e, bgts_m, ccmp, cgts_c, ldc, lde, mwrt; } word;
/* library words (examples/pp5/lib.pp5m), operand encodings of pp5.md §5.2 */
static const word lib_words[] = {
    {0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0}, /* enall a=1 b=1 c=1 lde */
    {1, 0, 1, 0, 1, 0, 1, 0, 0, 1, 0}, /* edge a=~t b=e c=0 lde */
    {0, 0, 1, 1, 0, 0, 1, 0, 0, 0, 1}, /* qload a=t b=0 c=0 mwrt */
    {0, 0, 1, 0, 0, 1, 0, 1, 1, 0, 1}, /* qadd a=t b=m c=cy ldc mwrt */
    {1, 0, 0, 1, 0, 0, 1, 0, 1, 0, 0}, /* a=0 b=0 c=0 ldc */
    {0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0}, /* a=1 b=1 c=1 ldc */
    {0, 0, 1, 1, 0, 1, 0, 1, 1, 0, 0}, /* ztest a=t b=~m c=cy ldc */
    {1, 0, 0, 0, 1, 0, 1, 1, 0, 1, 0}, /* ztest a=0 b=e c=~cy lde */
    {0, 1, 0, 1, 0, 0, 1, 0, 0, 0, 1}, /* copy a=s b=0 c=0 mwrt */
    {0, 1, 0, 0, 0, 1, 0, 1, 1, 0, 1}, /* addf a=s b=m c=cy ldc mwrt */
    {1, 0, 0, 1, 0, 0, 1, 0, 0, 0, 1}, /* const 0: a=d b=0 c=0 mwrt */
    {0, 0, 0, 1, 0, 0, 1, 0, 0, 0, 1}, /* const 1 */
};

static void next_pins(gen *g, pp5_pins *p, long clock)
{
    uint64_t *s = &g->rng;
    memset(p, 0, sizeof *p);
    p->cycle = (uint64_t)clock;
    p->trst = g->next_trst;
    g->next_trst = chance(s, g->calm ? 55 : 88); /* (calm: T bits read by several words) */
    /* coefficient streams: this clock's bits are shifted in on the next clock if TrSt */
    if (g->tail - g->head < 200 && chance(s, 30)) queue_set(g);
    if (g->head < g->tail) {
        memcpy(p->dat, g->dat[g->head % SLOTS], 6);
        p->lsb = g->lsb[g->head % SLOTS];
    }
    if (g->next_trst && g->head < g->tail) g->head++;
    /* the address */
    int r = rint_(s, 100);
    p->addr_l = r < 70 ? (uint8_t)(g->fields[rint_(s, 6)] + rint_(s, 24)) : r < 95 ? (uint8_t)rint_(s, 208)
                                                                             : (uint8_t)(208 + rint_(s, 48));
    p->addr_h = p->addr_l;
    /* the word */
    if (rint_(s, 300) == 0) g->shrink = !g->shrink;
    if (g->calm_hold > 0 && g->script_pos >= g->script_len) {
        g->calm_hold--;
        g->calm = true;
    } else if (rint_(s, 250) == 0) {
        g->calm = !g->calm;
    }
    if (g->script_pos >= g->script_len && rint_(s, 400) == 0) {
        /* the pattern deferred Carry meets in practice: all lit, edges darken chips, a
         * carry chain reading T (deferred on dark chips), all lit again, then words that
         * read Carry and write memory on chips with Carry still pending */
        int n = 0;
        g->script[n++] = 0;
        for (int i = 1 + rint_(s, 3); i > 0; i--) g->script[n++] = 1;
        g->script[n++] = 5;
        for (int i = 2 + rint_(s, 12); i > 0; i--) g->script[n++] = chance(s, 70) ? 6 : 2;
        if (chance(s, 50)) {
            g->script[n++] = 7;
            /* pp5_emc_run carries its segment on through this Enable load (it only
             * darkens): chips dark from here take the next Carry loads into the log,
             * the fill (4) among them or not, the others write on */
            for (int i = rint_(s, 10); i > 0; i--) {
                static const int after[] = {8, 6, 3, 4, 7, 2, 9, 5};
                g->script[n++] = after[rint_(s, 8)];
            }
        }
        g->script[n++] = 0;
        for (int i = rint_(s, 3); i > 0; i--) g->script[n++] = 1; /* other chips dark now */
        for (int i = 1 + rint_(s, 8); i > 0; i--) g->script[n++] = chance(s, 50) ? 3 : 9;
        g->script_len = n;
        g->script_pos = 0;
    }
    if (g_regroup && g->script_pos >= g->script_len && rint_(s, 120) == 0) {
        /* chips darkened by edges pend from one start (pp5_emc_run's group), more
         * chips join a second group while the first pend on; all lit again, a word
         * reading Carry applies everything (the log empties), Carry all 1 and the
         * z-test's Enable load stop every chip inside the segment, they pend on
         * their own from a new start; all lit, words reading Carry apply it */
        int n = 0;
        g->script[n++] = 0;
        for (int r = 0; r < 2; r++) {
            for (int i = 1 + rint_(s, 2); i > 0; i--) g->script[n++] = 1;
            for (int i = 2 + rint_(s, 3); i > 0; i--) g->script[n++] = 6;
        }
        g->script[n++] = 0;
        g->script[n++] = 3;
        g->script[n++] = 5;
        g->script[n++] = 7;
        for (int i = 2 + rint_(s, 4); i > 0; i--) g->script[n++] = 6;
        g->script[n++] = 0;
        for (int i = 1 + rint_(s, 3); i > 0; i--) g->script[n++] = 3;
        g->script_len = n;
        g->script_pos = 0;
    }
    if (g_runs && g->script_pos >= g->script_len && rint_(s, 40) == 0) {
        /* all lit, field loads on consecutive T bits (the chip pass runs them
         * as one fused run), then words reading T of the same set at later
         * bits (the chip's bit-serial adder must be where the run left it),
         * field loads, copies, the z-test's Carry word */
        int n = 0;
        g->script[n++] = 0;
        for (int i = 2 + rint_(s, 6); i > 0; i--) g->script[n++] = 2;
        for (int i = 1 + rint_(s, 5); i > 0; i--) {
            static const int after[] = {2, 3, 6, 8, 2, 3};
            g->script[n++] = after[rint_(s, 6)];
        }
        g->script_len = n;
        g->script_pos = 0;
    }
    int kind = rint_(s, 100);
    word w;
    memset(&w, 0, sizeof w);
    if (g->s_word_next) {
        w = lib_words[9];
        g->s_word_next = false;
    } else if (g->script_pos < g->script_len) {
        w = lib_words[g->script[g->script_pos++]];
    } else if (kind < 30) {
        /* idle (or any word without loads: CCmp = 0) */
        w.agts_s = chance(s, 20);
        w.agts_t = chance(s, 20);
    } else if (kind < 72) {
        w = lib_words[rint_(s, (int)(sizeof lib_words / sizeof lib_words[0]))];
    } else if (kind < 92 && g_near_lib) {
        /* next to a library word: the array's short kernels and templates
         * must tell its neighbours from it */
        w = lib_words[rint_(s, (int)(sizeof lib_words / sizeof lib_words[0]))];
        for (int i = 1 + rint_(s, 2); i > 0; i--) (&w.acmp)[rint_(s, 11)] ^= 1;
    } else if (kind < 92) {
        uint64_t b = rnd(s);
        w = (word){b & 1, b >> 1 & 1, b >> 2 & 1, b >> 3 & 1, b >> 4 & 1, b >> 5 & 1, b >> 6 & 1, b >> 7 & 1,
                   b >> 8 & 1, b >> 9 & 1, b >> 10 & 1};
    } else {
        /* redundant code: no loads, CCmp = 1 */
        uint64_t b = rnd(s);
        w.acmp = b & 1;
        w.agts_s = b >> 1 & 1;
        w.agts_t = b >> 2 & 1;
        if (chance(s, 50)) w.agts_s = w.agts_t = 1; /* config mode */
        w.ccmp = 1;
        w.bcmp = b >> 3 & 1;
        if (w.agts_s && w.agts_t) {
            /* config: paired addressing selects chip AddrL; same mode needs address 0 */
            p->addr_l = w.acmp ? (uint8_t)rint_(s, g->nchips + 2) : (chance(s, 50) ? 0 : p->addr_l);
        }
    }
    if (g->shrink && w.lde && !(w.acmp && w.agts_t && w.bgts_e && !w.bgts_m && !w.bcmp && w.ccmp && !w.cgts_c) &&
        !(w.acmp && !w.agts_s && !w.agts_t && w.bgts_e && !w.bgts_m && !w.bcmp && w.ccmp && w.cgts_c))
        w.lde = 0; /* only the edge and z-test Enable words: E ← E ∧ … */
    if (g->calm) {
        w.lde = 0;
        if (!w.ldc && !w.mwrt && w.ccmp && w.agts_s && w.agts_t) w.agts_s = 0; /* no config mode */
    }
    p->acmp = w.acmp;
    p->agts_s = w.agts_s;
    p->agts_t = w.agts_t;
    p->bcmp = w.bcmp;
    p->bgts_e = w.bgts_e;
    p->bgts_m = w.bgts_m;
    p->ccmp = w.ccmp;
    p->cgts_c = w.cgts_c;
    p->ldc = w.ldc;
    p->lde = w.lde;
    p->mwrt = w.mwrt;
    /* A-13 decoding as the IGC's OutputLatch does it */
    if (!w.ldc && !w.lde && !w.mwrt && w.ccmp) {
        p->redundant = 1;
        int idx = w.agts_t * 4 + w.agts_s * 2 + w.acmp;
        if (idx < 6) p->extop = (uint8_t)(1u << idx);
        else {
            p->config_mode = 1;
            p->pair = w.acmp;
        }
    }
    p->addr_h = p->pair ? (uint8_t)~p->addr_l : p->addr_l;
    if (p->config_mode && chance(s, 40)) {
        /* any AddrL/AddrH (A-14: chip k is selected when (AddrL & ~k) | (AddrH & k) = 0):
         * disjoint ones select AddrL plus every subset of the bits in neither (both 0: all
         * chips), overlapping ones none; chip numbers past the array's select nothing */
        int r2 = rint_(s, 4);
        uint8_t lo = (uint8_t)rnd(s) & (uint8_t)rnd(s), hi = (uint8_t)rnd(s);
        if (r2 == 0) lo = hi = 0;
        else if (r2 == 1) hi &= (uint8_t)~lo;
        else if (r2 == 2) hi = (uint8_t)~lo & (uint8_t)~(1u << rint_(s, 8));
        p->addr_l = lo;
        p->addr_h = hi;
    }
}

typedef struct geom { int tw, th, cx, cy; } geom;

/* Block length for pp5_emc_run: single clocks, short blocks (so that block
 * edges fall inside z-test pairs and loops), the renderer's few hundred, or
 * everything left. */
static long block_len(uint64_t *s, long left)
{
    int r = rint_(s, 100);
    long n = r < 15 ? 1 : r < 45 ? 2 + rint_(s, 12) : r < 85 ? 16 + rint_(s, 400) : r < 95 ? 400 + rint_(s, 3000) : left;
    return n < left ? n : left;
}

static void print_pins(long hc, const pp5_pins *pp)
{
    pp5_pins p = *pp;
    fprintf(stderr, "  pins %ld: trst %d lsb %d dat %d%d%d%d%d%d addr %d/%d acmp %d s %d t %d bcmp %d e %d m %d "
            "ccmp %d c %d ldc %d lde %d mwrt %d redundant %d\n", hc, p.trst, p.lsb, p.dat[0], p.dat[1], p.dat[2],
            p.dat[3], p.dat[4], p.dat[5], p.addr_l, p.addr_h, p.acmp, p.agts_s, p.agts_t, p.bcmp, p.bgts_e,
            p.bgts_m, p.ccmp, p.cgts_c, p.ldc, p.lde, p.mwrt, p.redundant);
}

/* blocks: the fast array takes the pins through pp5_emc_run in random
 * blocks (compared at block ends, where its state is observable), the
 * reference steps them one by one. */
static bool run_random_case_hold(uint64_t seed, const pp5_emc_options *o, long clocks, int cmp_every,
                                 const char *name, bool blocks, long calm_hold)
{
    ls_diag d;
    pp5_emc *f;
    emc_ref *r;
    assert_int_equal(pp5_emc_create(&f, o, &d), LS_OK);
    assert_int_equal(emc_ref_create(&r, o, &d), LS_OK);
    gen *g = calloc(1, sizeof *g);
    g->rng = seed;
    g->nchips = o->chips_x * o->chips_y;
    g->calm_hold = calm_hold;
    if (calm_hold) { /* (all chips lit first: the calm phase's words change them) */
        g->script[0] = 0;
        g->script_len = 1;
    }
    for (int i = 0; i < 6; i++) g->fields[i] = (uint8_t)rint_(&g->rng, 200);
    int w = pp5_emc_width(f), h = pp5_emc_height(f);
    bool ok = same_state(f, r, name, -1);
    pp5_pins *hist = calloc((size_t)clocks + 1, sizeof *hist);
    long bstart = 0, bend = 0; /* the current block */
    for (long c = 0; c < clocks && ok; c++) {
        if (c == bend) {
            bstart = c;
            long len = calm_hold ? 3000 : blocks ? block_len(&g->rng, clocks - c) : 1;
            bend = c + (len < clocks - c ? len : clocks - c);
            for (long i = bstart; i < bend; i++) next_pins(g, &hist[i], i);
            if (blocks && chance(&g->rng, 10)) {
                /* clock by clock after a block (pp5_emc_run may leave its last
                 * segment open: the step runs it first) */
                for (long i = bstart; i < bend; i++) pp5_emc_step(f, &hist[i]);
            } else if (blocks) {
                pp5_emc_run(f, &hist[bstart], (size_t)(bend - bstart));
            }
        }
        if (!blocks) pp5_emc_step(f, &hist[c]);
        emc_ref_step(r, &hist[c]);
        if (c != bend - 1) continue;
        if (chance(&g->rng, 1)) pp5_emc_sync(f); /* deferred Carry applied early: nothing else changes */
        if (chance(&g->rng, blocks ? 12 : 1)) {
            /* API writes: a field at one pixel, or a chip's configuration */
            if (chance(&g->rng, 80)) {
                int x = rint_(&g->rng, w), y = rint_(&g->rng, h), a = rint_(&g->rng, 215) - 3, len = 1 + rint_(&g->rng, 64);
                if (blocks && chance(&g->rng, 50)) {
                    /* over S's address (the chip keeps S as a snapshot), and the
                     * next block starts with a word that reads S into Carry */
                    a = hist[c].addr_l - rint_(&g->rng, 3);
                    g->s_word_next = true;
                }
                uint64_t v = rnd(&g->rng);
                pp5_emc_set_field(f, x, y, a, len, v);
                emc_ref_set_field(r, x, y, a, len, v);
            } else {
                int k = rint_(&g->rng, g->nchips);
                uint32_t v = (uint32_t)rnd(&g->rng);
                pp5_emc_set_config(f, k, v);
                emc_ref_set_config(r, k, v);
            }
        }
        if (cmp_every <= 1 || rint_(&g->rng, cmp_every) == 0 || c == clocks - 1 || g_every)
            ok = same_state(f, r, name, c);
        if (!ok && blocks) fprintf(stderr, "  (block of clocks %ld..%ld)\n", bstart, bend - 1);
        for (long hc = (blocks ? bstart : c) - 3; !ok && hc <= c; hc++)
            if (hc >= 0) print_pins(hc, &hist[hc]);
    }
    printf("%s%s: %ld clocks, %llu coefficient sets, %llu A-16 warnings: %s\n", name, blocks ? ", blocks" : "",
           clocks, (unsigned long long)pp5_emc_sets(f), (unsigned long long)pp5_emc_warning_count(f),
           ok ? "same" : "DIFFERENT");
    free(hist);
    free(g);
    pp5_emc_destroy(f);
    emc_ref_destroy(r);
    return ok;
}

static bool run_random_case(uint64_t seed, const pp5_emc_options *o, long clocks, int cmp_every, const char *name,
                            bool blocks)
{
    return run_random_case_hold(seed, o, clocks, cmp_every, name, blocks, 0);
}

static void random_pins_default(void **state)
{
    (void)state;
    uint64_t s = g_seed;
    for (int i = 0; i < 3; i++) {
        pp5_emc_options o;
        pp5_emc_options_default(&o);
        uint64_t cs = rnd(&s);
        char name[96];
        snprintf(name, sizeof name, "default options, case seed %#llx", (unsigned long long)cs);
        assert_true(run_random_case(cs, &o, g_clocks, i == 0 ? 1 : 40, name, false));
    }
}

static void random_pins_geometry_and_options(void **state)
{
    (void)state;
    static const geom gs[] = {{16, 16, 8, 8}, {8, 8, 4, 4}, {16, 16, 2, 3}, {5, 3, 8, 8}, {7, 9, 8, 8},
                              {32, 2, 2, 4}, {1, 64, 3, 1}, {64, 1, 1, 5}, {16, 8, 3, 2}, {12, 16, 4, 4},
                              {4, 96, 2, 1}, {2, 2, 16, 16}, {64, 2, 2, 2}};
    /* (256 chips: four words of chip masks; 4×96: tiles taller than a word of rows) */
    uint64_t s = g_seed ^ 0x5eed;
    for (int i = 0; i < 17; i++) {
        pp5_emc_options o;
        pp5_emc_options_default(&o);
        geom gm = gs[i % (int)(sizeof gs / sizeof gs[0])];
        o.tile_w = gm.tw;
        o.tile_h = gm.th;
        o.chips_x = gm.cx;
        o.chips_y = gm.cy;
        if (i >= 4 && gm.cx * gm.cy != 256) { /* (256 chips keep the defaults: deferred Carry) */
            if (chance(&s, 40)) o.sum_table = (uint8_t)rnd(&s);
            if (chance(&s, 40)) o.carry_table = (uint8_t)rnd(&s);
            if (chance(&s, 40)) o.enable_table = (uint8_t)rnd(&s);
            o.mwrt_gated_by_e = chance(&s, 70);
            o.loads_gated_by_e = chance(&s, 30);
            o.s_source = chance(&s, 70) ? PP5_S_PREV_READ : PP5_S_PREV_SUM;
            o.qee_latency = chance(&s, 50) ? 22 : rint_(&s, 41);
        }
        /* A-14 alternative: origins of high-order bits only (power-of-two tiles) */
        if (i >= 1 && !(gm.tw & (gm.tw - 1)) && !(gm.th & (gm.th - 1)) && chance(&s, 50))
            o.config_origin_full = false;
        uint64_t cs = rnd(&s);
        char name[192];
        snprintf(name, sizeof name, "geometry %dx%d tiles, %dx%d chips, tables %02x/%02x/%02x, gate %d/%d, S %d, "
                 "latency %d, origins %s, case seed %#llx", o.tile_w, o.tile_h, o.chips_x, o.chips_y, o.sum_table,
                 o.carry_table, o.enable_table, o.mwrt_gated_by_e, o.loads_gated_by_e, (int)o.s_source,
                 o.qee_latency, o.config_origin_full ? "full" : "tile", (unsigned long long)cs);
        assert_true(run_random_case(cs, &o, g_clocks / 2, i % 3 == 0 ? 1 : 25, name, false));
    }
}

/* pp5_emc_run in random blocks: default options (the chip-major path) and a
 * few other geometries and options (which step clock by clock inside). */
/* n cases with default options while a generator flag is set (cleared
 * again, also when a case fails, so that the next test starts without it). */
static void flagged_cases(bool *flag, int n, const char *what, uint64_t *s)
{
    *flag = true;
    for (int i = 0; i < n; i++) {
        pp5_emc_options o;
        pp5_emc_options_default(&o);
        uint64_t cs = rnd(s);
        char name[96];
        snprintf(name, sizeof name, "%s, case seed %#llx", what, (unsigned long long)cs);
        bool ok = run_random_case(cs, &o, g_clocks, 1, name, true);
        if (!ok) *flag = false;
        assert_true(ok);
    }
    *flag = false;
}

static void random_pins_blocks(void **state)
{
    (void)state;
    /* (32×8 and 8×32: four-word chips without the 16×16 adder, T from tree_bit;
     * 16×13: four words with a partial last one, so E has bits past the chip) */
    static const geom gs[] = {{16, 16, 8, 8}, {16, 16, 2, 3}, {8, 8, 4, 4}, {32, 2, 2, 4}, {16, 16, 16, 16},
                              {32, 8, 4, 4}, {8, 32, 4, 2}, {16, 13, 4, 4}};
    uint64_t s = g_seed ^ 0xb10c;
    for (int i = 0; i < 13; i++) {
        pp5_emc_options o;
        pp5_emc_options_default(&o);
        geom gm = gs[i < 5 ? 0 : i < 10 ? i % 5 : i - 5];
        o.tile_w = gm.tw;
        o.tile_h = gm.th;
        o.chips_x = gm.cx;
        o.chips_y = gm.cy;
        if (i == 3) o.qee_latency = rint_(&s, 41); /* T bits read before they are final */
        if (i == 4) o.s_source = PP5_S_PREV_SUM;  /* steps */
        if (i == 8) o.mwrt_gated_by_e = false;      /* steps */
        uint64_t cs = rnd(&s);
        char name[160];
        snprintf(name, sizeof name, "geometry %dx%d tiles, %dx%d chips, S %d, gate %d, latency %d, case seed %#llx",
                 o.tile_w, o.tile_h, o.chips_x, o.chips_y, (int)o.s_source, o.mwrt_gated_by_e, o.qee_latency,
                 (unsigned long long)cs);
        assert_true(run_random_case(cs, &o, g_clocks, i % 2 ? 1 : 4, name, true));
    }
    /* a long calm phase: segments reach SEG_MAX ops and are flushed by seg_add */
    for (int i = 0; i < 2; i++) {
        pp5_emc_options o;
        pp5_emc_options_default(&o);
        uint64_t cs = rnd(&s);
        char name[96];
        snprintf(name, sizeof name, "calm for 4000 clocks, case seed %#llx", (unsigned long long)cs);
        assert_true(run_random_case_hold(cs, &o, g_clocks, 1, name, true, 4000));
    }
    /* wide x and y terms read up to bit 63 (part_range's 128-bit path) */
    flagged_cases(&g_wide, 3, "wide coefficients", &s);
    /* random words next to the library's (one or two bits flipped), compared often */
    flagged_cases(&g_near_lib, 4, "words next to the library's", &s);
    /* dark chips pending as a group, then on their own (the group's start must
     * not stick to them) */
    flagged_cases(&g_regroup, 3, "group, then own pending starts", &s);
    /* fused runs of T bits followed by words reading T of the same set */
    flagged_cases(&g_runs, 3, "runs, then reads of the same set", &s);
}

/* ---- pp5_render on random scenes ---------------------------------------- */

typedef struct render_cmp {
    emc_ref *r;
    uint64_t rng;
    long clocks;
    bool ok;
} render_cmp;

static void render_clock(void *user, const pp5_igc *g, const pp5_pins *pins, const pp5_emc *e)
{
    (void)g;
    render_cmp *c = user;
    emc_ref_step(c->r, pins);
    if (c->ok && rint_(&c->rng, 60) == 0) c->ok = same_state(e, c->r, "pp5_render", c->clocks);
    c->clocks++;
}

static double frand(uint64_t *s) { return (double)(rnd(s) >> 11) / 9007199254740992.0; }

static void render_random_scenes(void **state)
{
    (void)state;
    uint64_t s = g_seed ^ 0x7e4d;
    for (int sc = 0; sc < 3; sc++) {
        ls_buf b;
        ls_buf_init(&b);
        int rx = sc == 1 ? 1000 : 0, ry = sc == 1 ? 700 : 0;
        ls_buf_printf(&b, "region %d %d\nclear %d %d %d\n", rx, ry, rint_(&s, 256), rint_(&s, 256), rint_(&s, 256));
        int ntri = (int)(g_clocks / 600) + 4;
        for (int i = 0; i < ntri; i++) {
            if (chance(&s, 15)) {
                ls_buf_printf(&b, "disc %.3f %.3f %.3f %d %d %d %.4f\n", rx + frand(&s) * 140 - 6, ry + frand(&s) * 140 - 6,
                              1 + frand(&s) * 40, rint_(&s, 256), rint_(&s, 256), rint_(&s, 256), frand(&s));
                continue;
            }
            ls_buf_puts(&b, "tri");
            double cx = rx + frand(&s) * 150 - 10, cy = ry + frand(&s) * 150 - 10, sz = chance(&s, 50) ? 8 : 70;
            for (int v = 0; v < 3; v++)
                ls_buf_printf(&b, " %.3f %.3f %.4f %d %d %d", cx + (frand(&s) - 0.5) * sz, cy + (frand(&s) - 0.5) * sz,
                              frand(&s), rint_(&s, 256), rint_(&s, 256), rint_(&s, 256));
            ls_buf_puts(&b, "\n");
        }
        pp5_scene scene;
        ls_diag d;
        assert_int_equal(pp5_scene_parse(b.data, b.len, "random", &scene, &d), LS_OK);
        pp5_render_opts o;
        pp5_render_opts_default(&o);
        render_cmp c = {NULL, rnd(&s), 0, true};
        assert_int_equal(emc_ref_create(&c.r, &o.emc, &d), LS_OK);
        o.on_clock = render_clock;
        o.user = &c;
        uint8_t *rgb = malloc(128 * 128 * 3);
        pp5_render_stats st;
        assert_int_equal(pp5_render(&scene, &o, rgb, &st, &d), LS_OK);
        free(st.prim_clocks);
        assert_true(c.ok);
        /* the image is the reference's colour fields */
        for (int y = 0; y < 128; y++)
            for (int x = 0; x < 128; x++)
                for (int k = 0; k < 3; k++)
                    assert_int_equal(rgb[(y * 128 + x) * 3 + k], emc_ref_field(c.r, x, y, PP5_R_RED + 8 * k, 8));
        free(rgb);
        emc_ref_destroy(c.r);
        pp5_scene_free(&scene);
        ls_buf_free(&b);
    }
}

/* ---- Enable loads reading T (polygon edges) -------------------------------- */

/* A coefficient set aimed at the edge-word paths: its six coefficients
 * (A, B, C, D, E, F) and the number of bits sent. */
typedef struct edge_set { i128 v[6]; int n; } edge_set;

static i128 edge_rand_mag(uint64_t *s, int bits)
{
    if (bits <= 0) return 0;
    i128 m = (i128)(rnd(s) >> (bits < 64 ? 64 - bits : 0));
    if (bits > 64) m = m << (bits - 64) | (i128)rnd(s) >> (128 - bits > 63 ? 63 : 128 - bits);
    return chance(s, 50) ? -m : m;
}

static edge_set edge_make_set(uint64_t *s, int w, int h, int tw, int th, int ox, int oy)
{
    edge_set e;
    memset(&e, 0, sizeof e);
    int kind = rint_(s, 8), f = rint_(s, 26);
    i128 one = (i128)1 << f;
    /* a point on a chip corner (Q = 0 exactly there, or ±1 next to it) */
    i128 X = ox + tw * rint_(s, w / tw + 1), Y = oy + th * rint_(s, h / th + 1);
    i128 delta = rint_(s, 4) == 0 ? edge_rand_mag(s, 3) : (i128)rint_(s, 3) - 1;
    switch (kind) {
    case 0: /* axis-aligned edge on a chip boundary */
        if (chance(s, 50)) e.v[0] = chance(s, 50) ? one : -one;
        else e.v[1] = chance(s, 50) ? one : -one;
        e.v[2] = -(e.v[0] * X + e.v[1] * Y) + delta;
        break;
    case 1: /* diagonal or random edge through a chip corner */
    case 2:
        e.v[0] = kind == 1 ? (chance(s, 50) ? one : -one) : edge_rand_mag(s, f + 1);
        e.v[1] = kind == 1 ? (chance(s, 50) ? one : -one) : edge_rand_mag(s, f + 1);
        e.v[2] = -(e.v[0] * X + e.v[1] * Y) + delta;
        break;
    case 3: /* huge coefficients (beyond the 64-bit test) */
        e.v[0] = edge_rand_mag(s, 40 + rint_(s, 80));
        e.v[1] = edge_rand_mag(s, 40 + rint_(s, 80));
        e.v[2] = edge_rand_mag(s, 50 + rint_(s, 70));
        if (chance(s, 30)) e.v[3] = edge_rand_mag(s, 30 + rint_(s, 60));
        break;
    case 4: /* tiny: 0, ±1 */
        for (int c = 0; c < 3; c++) e.v[c] = (i128)rint_(s, 3) - 1;
        break;
    case 5: /* a disc: Q = s·(r² − (x−a)² − (y−b)²) */
    case 6: {
        i128 a = ox + rint_(s, w + 1), b = oy + rint_(s, h + 1), r = rint_(s, 40), sc = (i128)1 << rint_(s, 21);
        e.v[3] = e.v[5] = -sc;
        e.v[0] = 2 * sc * a;
        e.v[1] = 2 * sc * b;
        e.v[2] = sc * (r * r - a * a - b * b) + (kind == 6 ? delta : 0);
        if (chance(s, 15)) e.v[4] = chance(s, 50) ? sc : (i128)1 << (20 + rint_(s, 40)); /* xy term */
        break;
    }
    default: /* anything, with quadratic parts of either sign */
        for (int c = 0; c < 6; c++)
            if (c != 4 || chance(s, 20)) e.v[c] = edge_rand_mag(s, 1 + rint_(s, c < 3 ? 70 : 40));
        break;
    }
    /* bit counts: the sign bit near 31, 32, 62, 63, 64, 100 or anywhere */
    static const int near[] = {32, 33, 34, 63, 64, 65, 101, 102};
    e.n = chance(s, 50) ? near[rint_(s, 8)] + rint_(s, 3) - 1 : 2 + rint_(s, 126);
    if (kind != 3 && chance(s, 60)) {
        /* just enough bits for the values (the sign is the top bit) */
        int need = 2;
        for (int c = 0; c < 6; c++) {
            i128 v = e.v[c] < 0 ? ~e.v[c] : e.v[c];
            int b = 1;
            while (b < 127 && (v >> b) != 0) b++;
            if (b + 1 > need) need = b + 1;
        }
        e.n = need + rint_(s, 3);
    }
    if (e.n > 128) e.n = 128;
    return e;
}

/* Edge words on default and other four-word-chip geometries: sets aimed at
 * chip boundaries, huge and tiny coefficients, discs, sign bits near 31, 63,
 * 64 and 100, words of the EDGE shape and its variants (other operand
 * encodings, S or Carry read too), ENABLE_ALL between them so whole chips are
 * lit and go dark, chips with moved origins. Enable is compared after every
 * word that loads it, everything at random clocks and at the end. */
static bool run_edge_case(uint64_t seed, const pp5_emc_options *o, long clocks, bool move_chips, const char *name)
{
    ls_diag d;
    pp5_emc *f;
    emc_ref *r;
    assert_int_equal(pp5_emc_create(&f, o, &d), LS_OK);
    assert_int_equal(emc_ref_create(&r, o, &d), LS_OK);
    uint64_t s = seed;
    int w = pp5_emc_width(f), h = pp5_emc_height(f), nchips = pp5_emc_chips(f);
    size_t nw = (size_t)w * (size_t)h / 64;
    uint64_t *pa = malloc(nw * 8), *pb = malloc(nw * 8);
    int ox = 0, oy = 0;
    if (move_chips) {
        /* a region near the top of the 11-bit origins, some chips elsewhere or sharing an origin */
        ox = chance(&s, 50) ? 2047 - w + 1 : rint_(&s, 2048 - w);
        oy = chance(&s, 50) ? 2047 - h + 1 : rint_(&s, 2048 - h);
        for (int k = 0; k < nchips; k++) {
            uint32_t x0 = (uint32_t)(ox + o->tile_w * (k % o->chips_x)), y0 = (uint32_t)(oy + o->tile_h * (k / o->chips_x));
            if (chance(&s, 10)) x0 = (uint32_t)rint_(&s, 2048);
            if (chance(&s, 10)) y0 = (uint32_t)rint_(&s, 2048);
            if (chance(&s, 5)) x0 = pp5_emc_config(f, rint_(&s, nchips)) & 0x7ff;
            pp5_emc_set_config(f, k, x0 | y0 << 11);
            emc_ref_set_config(r, k, x0 | y0 << 11);
        }
    }
    /* coefficient slots: slot t is on the pins at clock t and shifted at t + 1 */
    long nslots = clocks + 8;
    uint8_t (*dat)[6] = calloc((size_t)nslots, 6), *lsb = calloc((size_t)nslots, 1);
    for (long t = 2; t < clocks;) {
        edge_set es = edge_make_set(&s, w, h, o->tile_w, o->tile_h, ox, oy);
        long bit0 = t + 2;
        if (bit0 + es.n + 1 >= nslots) break;
        lsb[t] = 1;
        for (int i = 0; i < es.n; i++)
            for (int c = 0; c < 6; c++) dat[bit0 + i][c] = (uint8_t)(es.v[c] >> i & 1);
        t = bit0 + es.n + 1 + (chance(&s, 70) ? 0 : rint_(&s, 30)); /* separator, a gap */
    }
    bool ok = true;
    for (long c = 0; c < clocks && ok; c++) {
        pp5_pins p;
        memset(&p, 0, sizeof p);
        p.cycle = (uint64_t)c;
        p.trst = c > 0;
        memcpy(p.dat, dat[c], 6);
        p.lsb = lsb[c];
        p.addr_l = p.addr_h = (uint8_t)rint_(&s, 214);
        int kind = rint_(&s, 100);
        word wd;
        memset(&wd, 0, sizeof wd);
        if (kind < 15) {
            wd = lib_words[0]; /* ENABLE_ALL */
        } else if (kind < 55) {
            wd = lib_words[1]; /* EDGE: a=~t b=e c=0 lde */
        } else if (kind < 75) {
            /* EDGE's shape, other operand encodings */
            uint64_t b = rnd(&s);
            wd = (word){b & 1, 0, 1, b >> 1 & 1, b >> 2 & 1, b >> 3 & 1, b >> 4 & 1, 0, 0, 1, 0};
        } else if (kind < 85) {
            /* an Enable load reading T and S or Carry, or loading Carry too */
            uint64_t b = rnd(&s);
            wd = (word){b & 1, b >> 1 & 1, 1, b >> 2 & 1, b >> 3 & 1, b >> 4 & 1, b >> 5 & 1, b >> 6 & 1,
                        b >> 7 & 1, 1, 0};
        } else if (kind < 90) {
            wd = lib_words[2 + rint_(&s, 10)];
        } /* else idle */
        p.acmp = wd.acmp;
        p.agts_s = wd.agts_s;
        p.agts_t = wd.agts_t;
        p.bcmp = wd.bcmp;
        p.bgts_e = wd.bgts_e;
        p.bgts_m = wd.bgts_m;
        p.ccmp = wd.ccmp;
        p.cgts_c = wd.cgts_c;
        p.ldc = wd.ldc;
        p.lde = wd.lde;
        p.mwrt = wd.mwrt;
        if (!p.ldc && !p.lde && !p.mwrt && p.ccmp) p.ccmp = 0; /* (no redundant codes here) */
        pp5_emc_step(f, &p);
        emc_ref_step(r, &p);
        if (p.lde || c == clocks - 1) {
            pp5_emc_plane(f, PP5_EMC_PLANE_E, pa);
            emc_ref_plane(r, PP5_EMC_PLANE_E, pb);
            for (size_t i = 0; i < nw && ok; i++)
                if (pa[i] != pb[i]) {
                    int px = (int)(i * 64) + __builtin_ctzll(pa[i] ^ pb[i]);
                    fprintf(stderr, "%s, clock %ld: Enable differs at pixel (%d, %d): fast %d, reference %d (word "
                            "acmp %d s %d t %d bcmp %d e %d m %d ccmp %d c %d ldc %d)\n", name, c, px % w, px / w,
                            (int)(pa[i] >> (px & 63) & 1), (int)(pb[i] >> (px & 63) & 1), p.acmp, p.agts_s,
                            p.agts_t, p.bcmp, p.bgts_e, p.bgts_m, p.ccmp, p.cgts_c, p.ldc);
                    ok = false;
                }
        }
        if (ok && (rint_(&s, 200) == 0 || c == clocks - 1)) ok = same_state(f, r, name, c);
    }
    printf("%s: %ld clocks, %llu coefficient sets: %s\n", name, clocks, (unsigned long long)pp5_emc_sets(f),
           ok ? "same" : "DIFFERENT");
    free(dat);
    free(lsb);
    free(pa);
    free(pb);
    pp5_emc_destroy(f);
    emc_ref_destroy(r);
    return ok;
}

static void edge_words(void **state)
{
    (void)state;
    /* four-word chips (the edge paths) and two others */
    static const geom gs[] = {{16, 16, 8, 8}, {16, 16, 2, 3}, {16, 13, 4, 4}, {32, 8, 4, 2}, {8, 32, 2, 4},
                              {64, 4, 2, 2}, {4, 64, 4, 1}, {16, 16, 16, 16}, {8, 8, 4, 4}, {12, 16, 4, 4}};
    uint64_t s = g_seed ^ 0xed9e;
    int ngs = (int)(sizeof gs / sizeof gs[0]);
    for (int i = 0; i < 2 * ngs; i++) {
        pp5_emc_options o;
        pp5_emc_options_default(&o);
        geom gm = gs[i % ngs];
        o.tile_w = gm.tw;
        o.tile_h = gm.th;
        o.chips_x = gm.cx;
        o.chips_y = gm.cy;
        if (i >= ngs) {
            o.loads_gated_by_e = chance(&s, 50);
            o.qee_latency = rint_(&s, 41);
            if (chance(&s, 20)) o.enable_table = (uint8_t)rnd(&s);
            if (chance(&s, 10)) o.s_source = PP5_S_PREV_SUM;
        }
        bool move = i % 3 == 2;
        uint64_t cs = rnd(&s);
        char name[160];
        snprintf(name, sizeof name, "edge words, %dx%d tiles, %dx%d chips, %s, gate %d, latency %d, E table %02x, "
                 "case seed %#llx", o.tile_w, o.tile_h, o.chips_x, o.chips_y, move ? "chips moved" : "default origins",
                 o.loads_gated_by_e, o.qee_latency, o.enable_table, (unsigned long long)cs);
        assert_true(run_edge_case(cs, &o, g_clocks / (gm.cx * gm.cy > 64 ? 4 : 2), move, name));
    }
}

/* pp5_render's pins for a random scene, recorded, then replayed through
 * pp5_emc_run in random blocks against the reference stepped clock by clock. */
typedef struct pin_rec {
    pp5_pins *p;
    size_t n, cap;
} pin_rec;

static void record_clock(void *user, const pp5_igc *g, const pp5_pins *pins, const pp5_emc *e)
{
    (void)g;
    (void)e;
    pin_rec *r = user;
    if (r->n == r->cap) {
        r->cap = r->cap ? 2 * r->cap : 4096;
        r->p = realloc(r->p, r->cap * sizeof *r->p);
        assert_non_null(r->p);
    }
    r->p[r->n++] = *pins;
}

static void render_pins_blocks(void **state)
{
    (void)state;
    uint64_t s = g_seed ^ 0x91b5;
    for (int sc = 0; sc < 3; sc++) {
        ls_buf b;
        ls_buf_init(&b);
        ls_buf_printf(&b, "clear %d %d %d\n", rint_(&s, 256), rint_(&s, 256), rint_(&s, 256));
        int ntri = (int)(g_clocks / 600) + 4;
        for (int i = 0; i < ntri; i++) {
            if (chance(&s, 10)) {
                ls_buf_printf(&b, "disc %.3f %.3f %.3f %d %d %d %.4f\n", frand(&s) * 140 - 6, frand(&s) * 140 - 6,
                              1 + frand(&s) * 40, rint_(&s, 256), rint_(&s, 256), rint_(&s, 256), frand(&s));
                continue;
            }
            ls_buf_puts(&b, "tri");
            /* large triangles as in bench_pp5 (many chips lit), or small ones */
            bool big = chance(&s, 60);
            double cx = frand(&s) * 150 - 10, cy = frand(&s) * 150 - 10;
            for (int v = 0; v < 3; v++)
                ls_buf_printf(&b, " %.3f %.3f %.4f %d %d %d", big ? frand(&s) * 148 - 10 : cx + (frand(&s) - 0.5) * 10,
                              big ? frand(&s) * 148 - 10 : cy + (frand(&s) - 0.5) * 10, frand(&s), rint_(&s, 256),
                              rint_(&s, 256), rint_(&s, 256));
            ls_buf_puts(&b, "\n");
        }
        pp5_scene scene;
        ls_diag d;
        assert_int_equal(pp5_scene_parse(b.data, b.len, "random", &scene, &d), LS_OK);
        pp5_render_opts o;
        pp5_render_opts_default(&o);
        pin_rec rec = {NULL, 0, 0};
        o.on_clock = record_clock;
        o.user = &rec;
        uint8_t *rgb = malloc(128 * 128 * 3);
        pp5_render_stats st;
        assert_int_equal(pp5_render(&scene, &o, rgb, &st, &d), LS_OK);
        free(st.prim_clocks);
        pp5_emc *f;
        emc_ref *r;
        assert_int_equal(pp5_emc_create(&f, &o.emc, &d), LS_OK);
        assert_int_equal(emc_ref_create(&r, &o.emc, &d), LS_OK);
        bool ok = true;
        long blocks = 0;
        for (size_t c = 0; c < rec.n && ok;) {
            long rest = (long)(rec.n - c);
            size_t len = (size_t)(sc == 2 ? rest : block_len(&s, rest < 600 ? rest : 600));
            pp5_emc_run(f, rec.p + c, len);
            for (size_t i = 0; i < len; i++) emc_ref_step(r, &rec.p[c + i]);
            c += len;
            blocks++;
            if (chance(&s, 10) || c == rec.n) ok = same_state(f, r, "pp5_render pins in blocks", (long)c - 1);
            if (!ok) fprintf(stderr, "  (block ending at clock %zu, %zu clocks)\n", c - 1, len);
        }
        printf("pp5_render pins, scene %d: %zu clocks in %ld blocks: %s\n", sc, rec.n, blocks, ok ? "same" : "DIFFERENT");
        assert_true(ok);
        /* the image is the colour fields */
        for (int y = 0; y < 128; y++)
            for (int x = 0; x < 128; x++)
                for (int k = 0; k < 3; k++)
                    assert_int_equal(rgb[(y * 128 + x) * 3 + k], pp5_emc_field(f, x, y, PP5_R_RED + 8 * k, 8));
        free(rgb);
        free(rec.p);
        pp5_emc_destroy(f);
        emc_ref_destroy(r);
        pp5_scene_free(&scene);
        ls_buf_free(&b);
    }
}

/* A segment whose first word reading T sees T = 0 (no coefficient set at the
 * QEE's output yet), then a word reading bit k of set 0, then eight new sets
 * while the segment stays open: the new set that takes set 0's ring slot
 * must end the segment first, so set 0 must count among the sets it reads
 * although the last word reading T before it read none (pp5_emc_run skips
 * the set bookkeeping for a T word on the previous T word's set: the T = 0
 * word is no set). One block, then the state against the reference. */
static void t_zero_then_ring_reuse(void **state)
{
    (void)state;
    uint64_t s = g_seed ^ 0x7a0e;
    enum { N = 160 };
    for (int rep = 0; rep < 4; rep++) {
        pp5_emc_options o;
        pp5_emc_options_default(&o);
        pp5_emc *f;
        emc_ref *r;
        ls_diag d;
        assert_int_equal(pp5_emc_create(&f, &o, &d), LS_OK);
        assert_int_equal(emc_ref_create(&r, &o, &d), LS_OK);
        pp5_pins *p = calloc(N, sizeof *p);
        assert_non_null(p);
        for (int i = 0; i < N; i++) {
            p[i].cycle = (uint64_t)i;
            p[i].trst = 1;
            for (int c = 0; c < 6; c++) p[i].dat[c] = (uint8_t)(rnd(&s) & 1);
            p[i].addr_l = p[i].addr_h = (uint8_t)(i < 4 ? 10 : 11); /* (a word writes the address latched a clock before) */
        }
        p[0].lde = 1;  /* a=1 b=1 c=1 lde: E = 1 everywhere */
        p[0].lsb = 1;  /* set 0 */
        /* a=t b=0 c=0 mwrt (QLOAD's word): at clock 4 no set has reached the output (T = 0), at clock
         * 60 + rep set 0 has (its bit about 35, final) */
        int words[2] = {4, 60 + rep};
        for (int w = 0; w < 2; w++) {
            pp5_pins *q = &p[words[w]];
            q->agts_t = 1;
            q->bcmp = 1;
            q->ccmp = 1;
            q->mwrt = 1;
        }
        for (int t = 0; t < 8; t++) p[66 + 5 * t].lsb = 1; /* sets 1 .. 8: set 8 takes set 0's ring slot */
        pp5_emc_run(f, p, N);
        for (int i = 0; i < N; i++) emc_ref_step(r, &p[i]);
        assert_true(same_state(f, r, "T = 0, then set 0, then its ring slot reused", N - 1));
        free(p);
        pp5_emc_destroy(f);
        emc_ref_destroy(r);
    }
}

int main(void)
{
    g_seed = ls_test_seed(0xd1ffe4c0ffeeull);
    const char *n = getenv("LOCKSTEP_DIFF_CLOCKS");
    if (n && *n) g_clocks = atol(n);
    const char *ev = getenv("LOCKSTEP_DIFF_EVERY");
    g_every = ev && *ev == '1';
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(random_pins_default),
        cmocka_unit_test(random_pins_geometry_and_options),
        cmocka_unit_test(random_pins_blocks),
        cmocka_unit_test(render_random_scenes),
        cmocka_unit_test(edge_words),
        cmocka_unit_test(render_pins_blocks),
        cmocka_unit_test(t_zero_then_ring_reuse),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
