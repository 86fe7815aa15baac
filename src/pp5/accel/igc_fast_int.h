/* The fast IGC's private declarations, shared by its files (not installed, not
 * included outside src/pp5/accel/igc_fast_*.c):
 *   igc_fast_decode.c  pre-decode of the store (pp5_uop, seg_ctab, seg_trans)
 *   igc_fast_clock.c   the compact Serializer, the pins ring, pack/unpack and the
 *                      clock (clock_body)
 *   igc_fast_loop.h    the closed form of loops of one or two words (static
 *                      inline: it inlines into seg_run)
 *   igc_fast_seg.c     quiet segments (seg_run)
 *   igc_fast_run.c     the run entry points, creation and the model's hooks */
#ifndef LOCKSTEP_PP5_ACCEL_IGC_FAST_INT_H
#define LOCKSTEP_PP5_ACCEL_IGC_FAST_INT_H

#include "pp5/accel/igc_fast.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif


#define PIN_OFF(f) (offsetof(pp5_pins, f) - offsetof(pp5_pins, acmp))
_Static_assert(PIN_OFF(redundant) == 14 && PIN_OFF(dat) == 15 && PIN_OFF(lsb) == 21 &&
                   PIN_OFF(addr_l) == 22 && PIN_OFF(addr_h) == 23 && PIN_OFF(trst) == 24 &&
                   PIN_OFF(aludat) == 25 && PIN_OFF(busy) == 26 && PIN_OFF(d_out_en) == 27 &&
                   PIN_OFF(d_out) == 28 && sizeof(pp5_pins) == 40,
               "pp5_pins: the fast step copies acmp…addr_h as blocks (pins_ring)");

/* The pins are written as 8-byte words whose byte k is pins byte (offset + k). */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "src/pp5/accel/igc_fast_*.c write pp5_pins as little-endian words"
#endif

enum { SER_LEN_I = PP5_TS_LEN_I };
_Static_assert(sizeof(pp5_uop) == 64, "pp5_uop: 64 bytes, indexing is a shift");

/* A quiet segment's record of one clock (seg_run() below): a compact pair of
 * words. Bits 48…63 of a are free (seg_ctab entries leave the next address
 * and the branch-back flag there; nothing reads them from a record). */
typedef struct seg_rec {
    uint64_t a;     /* PC (bits 0..15), SEG_* << 16, Addr << 32, LSB << 40 */
    uint64_t dat;   /* *Dat of the clock, bit k in byte k */
} seg_rec;
enum {
    SEG_SHIFT = 1u << 0, SEG_ALUDAT = 1u << 1, SEG_TC1 = 1u << 2, SEG_TC2 = 1u << 3,
    SEG_BRANCH = 1u << 4, SEG_CSB = 1u << 5, SEG_MSIN = 1u << 6, SEG_TRR = 1u << 7,
    SEG_POSTC = 1u << 8, SEG_POSTI = 1u << 9, SEG_NEWL = 1u << 10,
    SEG_HOST = 1u << 11, /* a host clock (run_script): its inputs in the item */
};
/* The control state of the general segment clock, one word (seg_trans) */
enum {
    CS_IP = 1u << 0, CS_IBSY = 1u << 1, CS_CBSY = 1u << 2, CS_PCP = 1u << 3, /* PostC' */
    CS_PIP = 1u << 4, /* PostI' */
    CS_FP = 1u << 5,  /* the LSB token pending (first_pending) */
    CS_MP = 1u << 6,  /* MsIn pending */
    CS_MBI = 1u << 7, /* the set's MBI, or MsIn always */
    /* the clock's conditions, above the state in seg_trans's index */
    CS_SHIFT = 1u << 8, CS_CSB = 1u << 9, CS_LAST = 1u << 10 /* s + 1 ≥ csb_until */,
    CS_DONE = 1u << 11,
};
/* seg_trans entry: the signal bits of the record and LSB where seg_rec.a has
 * them (SEG_* << 16, bit 40), the next state in bits 56…63 */
#define TR_LSB (1ull << 40)
#define TR_BITS(b) ((uint64_t)(b) << 16)
#define TR_EVENT TR_BITS(SEG_POSTC | SEG_POSTI | SEG_NEWL)
#define TR_NEXT(t) ((unsigned)((t) >> 56))
/* bit 48: IBsy or CBsy at the clock's start (the host side's Busy; seg_rec.a's
 * bits 48…63 are not read) */
#define TR_BUSY_THEN (1ull << 48)
/* seg_ctab entry: seg_rec.a's PC and SEG_SHIFT, TC1, TC2, BRANCH, TRR; the next
 * address (no NewL) in bits 48…56; bit 63: a branch to the same or an earlier
 * address (a loop may close) */
#define CT_NEXT(e) ((unsigned)((e) >> 48) & 0x1ffu)
#define CT_BACK (1ull << 63)
#define CT_BRANCH ((uint64_t)SEG_BRANCH << 16)

/* ---------------- pre-decode ---------------- */

/* ---- across the files ---- */
#if defined(__GNUC__)
#define PP5_IGCF_HIDDEN __attribute__((visibility("hidden")))
#else
#define PP5_IGCF_HIDDEN
#endif
/* Bit 0 of each byte k (k = 0..7) → bit k: the products land on distinct bits,
 * so nothing carries into the top byte. */
static inline unsigned gather_bytes(uint64_t v)
{
    return (unsigned)(((v & 0x0101010101010101ull) * 0x0102040810204080ull) >> 56);
}

static inline uint64_t low_mask(uint32_t s) { return s >= 64 ? ~0ull : (1ull << s) - 1; }

static inline uint64_t ld64(const void *p)
{
    uint64_t v;
    memcpy(&v, p, sizeof v);
    return v;
}
static inline uint32_t ld32(const void *p)
{
    uint32_t v;
    memcpy(&v, p, sizeof v);
    return v;
}
static inline uint16_t ld16(const void *p)
{
    uint16_t v;
    memcpy(&v, p, sizeof v);
    return v;
}
static inline void st64(void *p, uint64_t v) { memcpy(p, &v, sizeof v); }

/* Bytes 16…31 of a pins word: lo | dat << 56 and hi | dat >> 8 — the data
 * bits (one a byte, bytes 0…5 of dat) moved up seven bytes across the two
 * words: one 16-byte store (the EMC reads them a block later, not at once) */
static inline void st_dat16(void *p, uint64_t lo, uint64_t hi, uint64_t dat)
{
#if defined(__SSE2__)
    const __m128i d = _mm_slli_si128(_mm_cvtsi64_si128((long long)dat), 7);
    _mm_storeu_si128((__m128i *)p, _mm_or_si128(d, _mm_set_epi64x((long long)hi, (long long)lo)));
#else
    st64(p, lo | dat << 56);
    st64((unsigned char *)p + 8, hi | dat >> 8);
#endif
}
static inline void st16(void *p, uint16_t v) { memcpy(p, &v, sizeof v); }

/* What clock c contributes to the pins of the next three clocks (OutputLatch,
 * outputlatch.c): its ALU controls, coefficient bits and LSB two clocks later,
 * its address one clock later, its Shift as TrSt three clocks later. The pins
 * bytes 8..31 are three 8-byte words (q1: acmp…cgts_c, q2: ldc…redundant and
 * ADat, q3: BDat…FDat, LSB, AddrL, AddrH) written whole, and read back only
 * in pieces that each lie inside one store (ring_pins()): a load that spans
 * two stores cannot be forwarded and waits for both to reach the cache. */
static inline void ring_put(pp5_igc *g, uint64_t c, const uint8_t *alu16, bool dir_en,
                            bool aludat, unsigned dat6, bool lsb, uint8_t addr, bool pair,
                            bool shift)
{
    pp5_igc_fast *const fx = PP5_FAST(g);
    unsigned char *b2 = (unsigned char *)&fx->pins_ring[(c + 2) & 3] + offsetof(pp5_pins, acmp);
    /* XNOR(ACmp, ALUDat) under DirEn = ACmp ⊕ ¬ALUDat */
    const uint64_t dat = (dat6 * 0x0000000810204081ull) & 0x0000010101010101ull;
    st64(b2, ld64(alu16) ^ (uint64_t)(dir_en & !aludat));
    st64(b2 + 8, ld64(alu16 + 8) | dat << 56); /* alu16[15] is 0 */
    st64(b2 + 16, (dat >> 8) | (uint64_t)lsb << 40); /* AddrL/H: clock c+1 writes them */
    unsigned char *p1 = (unsigned char *)&fx->pins_ring[(c + 1) & 3];
    st16(p1 + offsetof(pp5_pins, addr_l), (uint16_t)(addr | (uint8_t)(pair ? ~addr : addr) << 8));
    fx->pins_ring[(c + 3) & 3].trst = shift;
}

/* The ring slot of clock c: pins bytes 8..31 as q1, q2, q3 and TrSt (each load
 * inside one store of ring_put()). */
static inline void ring_pins(const pp5_igc *g, uint64_t c, uint64_t *q1, uint64_t *q2,
                             uint64_t *q3, unsigned *trst)
{
    const unsigned char *sl = (const unsigned char *)&PP5_FAST(g)->pins_ring[c & 3];
    *q1 = ld64(sl + 8);
    *q2 = ld64(sl + 16);
    *q3 = (uint64_t)ld32(sl + 24) | (uint64_t)ld16(sl + 28) << 32 | (uint64_t)ld16(sl + 30) << 48;
    *trst = sl[offsetof(pp5_pins, trst)];
}

_Static_assert(offsetof(pp5_host_in, wr_en) == 0 && offsetof(pp5_host_in, t) == 1 &&
                   offsetof(pp5_host_in, d) == 4 && offsetof(pp5_host_in, go) == 8 &&
                   offsetof(pp5_host_in, st1) == 9 && offsetof(pp5_host_in, st2) == 10 &&
                   offsetof(pp5_host_in, reset) == 11 && offsetof(pp5_host_in, test_oe) == 12 &&
                   offsetof(pp5_host_in, test_pe) == 13 && sizeof(pp5_host_in) == 16,
               "pp5_host_in: run_in is written as two 8-byte words");

/* A copy of run_in (two words) */
static inline void host_in_copy(pp5_host_in *to, const pp5_host_in *from)
{
    st64(to, ld64(from));
    st64((unsigned char *)to + 8, ld64((const unsigned char *)from + 8));
}

/* The pins of clock c (its record olr[c & 3] done): the ring slot, then ALUDat
 * of the clock, Busy at its end and the D pads — written after the copy, so
 * the copy never reads this clock's stores. */
static inline void fast_pins_patch(const pp5_igc *g, pp5_pins *p, uint64_t c)
{
    const pp5_olrec *r0 = &PP5_FAST(g)->olr[c & 3];
    p->cycle = c;
    p->aludat = r0->aludat;
    p->busy = g->ctl.ibsy | g->ctl.cbsy;
    p->d_out_en = r0->in.test_pe;
    p->d_out = r0->in.test_oe ? r0->uw : r0->in.d;
}

static inline void fast_pins(const pp5_igc *g, pp5_pins *p, uint64_t c)
{
    const pp5_olrec *r0 = &PP5_FAST(g)->olr[c & 3];
    uint64_t q1, q2, q3;
    unsigned trst;
    ring_pins(g, c, &q1, &q2, &q3, &trst);
    unsigned char *b = (unsigned char *)p;
    st64(b, c);
    st64(b + 8, q1);
    st64(b + 16, q2);
    st64(b + 24, q3);
    const uint32_t d_out = r0->in.test_oe ? r0->uw : r0->in.d;
    st64(b + 32, (uint64_t)trst | (uint64_t)r0->aludat << 8 |
                     (uint64_t)(g->ctl.ibsy | g->ctl.cbsy) << 16 |
                     (uint64_t)r0->in.test_pe << 24 | (uint64_t)d_out << 32);
}

/* seg_ctab's index bits for the counters n1, n2 at the clock's start:
 * LC1 116 → 1, 117 → 2 (bits 1-2), LC2 0 → 1, 1 → 2 (bits 3-4), else 0 — as
 * two look-ups (the counters are 7-bit; a byte indexes them all) */
static const uint8_t ct_code1[256] = {[PP5_LC1_TERMINAL] = 1u << 1, [PP5_LC1_TERMINAL + 1] = 2u << 1};
static const uint8_t ct_code2[256] = {[PP5_LC2_TERMINAL] = 1u << 3, [PP5_LC2_TERMINAL + 1] = 2u << 3};
static inline unsigned ct_code(unsigned n1, unsigned n2)
{
    return (unsigned)ct_code1[(uint8_t)n1] | ct_code2[(uint8_t)n2];
}

/* igc_fast_decode.c */
extern const uint64_t pp5_igcf_seg_trans[4096] PP5_IGCF_HIDDEN;
void pp5_igcf_ctab_build(pp5_igc *g, unsigned a) PP5_IGCF_HIDDEN;
void pp5_igcf_ctab_for(pp5_igc *g, unsigned st) PP5_IGCF_HIDDEN;
/* igc_fast_clock.c */
void pp5_igcf_ser_post(pp5_igc *g, uint32_t sc_last) PP5_IGCF_HIDDEN;
/* igc_fast_seg.c: seg_run() with and without pins, and on a script */
uint64_t pp5_igcf_seg_run_pins(pp5_igc *g, uint64_t n, bool until, pp5_pins *pins_out) PP5_IGCF_HIDDEN;
uint64_t pp5_igcf_seg_run_nopins(pp5_igc *g, uint64_t n, bool until) PP5_IGCF_HIDDEN;
uint64_t pp5_igcf_seg_run_script(pp5_igc *g, uint64_t n, pp5_pins *pins_out, pp5_igc_script *sp,
                                 ls_status *st, ls_diag *d) PP5_IGCF_HIDDEN;

#endif
