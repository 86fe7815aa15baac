/* The fast EMC array's block segments (pp5_emc_run): the segment and its
 * ops, shared by emc_seg.c (the log's hole, the sets' slots and lines, the
 * chip pass, flushing a segment) and emc_run.c (decoding the clocks of a
 * block into a segment). Not a public header. */
#ifndef LOCKSTEP_PP5_ACCEL_EMC_SEG_H
#define LOCKSTEP_PP5_ACCEL_EMC_SEG_H
#include "pp5/accel/emc_int.h"

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
 * seg_settle). Only the defaults on chips of four words take
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

void pp5_emcf_seg_reset(seg *g) PP5_EMCF_HIDDEN;
#endif
