/* lockstep — Pixel-Planes 5 Image Generation Controller (IGC), public API.
 *
 * Source: spec/seeds/003 ("IV.3.3 Logic Design"), digest spec/pp5.md
 * (§3–§5; assumptions A-1…A-27 in §8; errata in §9). Every model choice that
 * the seed leaves open is a field of pp5_options, documented in
 * docs/assumptions.md ("PP5: Image Generation Controller").
 *
 * ---------------------------------------------------------------------------
 * TIMING CONVENTION (whole-cycle samples)           see also docs/pp5.md
 * ---------------------------------------------------------------------------
 * One call of pp5_igc_step() = one IGC clock n (Ph1 then Ph2). Internally the
 * microword uw(n) at pc(n) executes in clock n; Shift(n), the Serializer output
 * bits ser(n) (<A-F>DatLSP2, LSBLSP2) and the PixMemAddr address addr(n) all
 * belong to clock n.
 *
 * The pp5_pins returned for clock n hold the value each IGC output pin has
 * during clock n (from its Ph1 to the end of its Ph2). The seed's delays are
 * counted from the phase the source is valid in, so half-cycle delays land on
 * a whole-cycle boundary:
 *
 *   pin                                  seed delay         sample n holds
 *   AddrL, AddrH  (PixMemAddr, HSP1)     1 clock            addr(n-1); AddrH = ~AddrL
 *                                                           when uw(n-1) is a redundant
 *                                                           code with ACmp = 1 (Pair)
 *   AGtsT AGtsS BGtsM BGtsE BCmp CGtsC   2 clocks           uw(n-2) bits
 *   ACmp                                 2 clocks           uw(n-2).ACmp, or
 *                                                           XNOR(ACmp, ALUDat) of
 *                                                           clock n-2 when DirEn(n-2)
 *   LdC LdE CCmp MWrt                    2 clocks           uw(n-2) bits, forced 0
 *                                                           if RMode in clock n-2
 *   ExtOp<0:5>, config, pair             with the ALU ctl.  decoded from uw(n-2)
 *   ADat…FDat, LSB   (Serializer, SP2)   1.5 clocks         ser(n-2)  (Ph2 of n-2
 *                                                           + 1.5 = start of n)
 *   TrSt  (ShiftHSP2 = Shift + ½)        2.5 clocks         Shift(n-3)
 *   ALUDat                                (none stated)      DirectReg LSB in clock n
 *   Busy                                  (none stated)      IBsy|CBsy at end of n
 *
 * For the EMC side this means (pp5.md §5.3 T1–T5, A-12, A-17): an EMC that
 * latches its data/LSB inputs for one clock and has no TrSt latch sees
 * coefficient bits and TrSt of the same serializer clock together (n-3); an
 * EMC that spends one clock reading memory at the pin address sees the word's
 * memory bit in the same clock as its ALU controls (n-2). The delays cancel.
 * pp5_igc_signal_*() exposes the undelayed internal signals by name.
 * ---------------------------------------------------------------------------
 */
#ifndef LOCKSTEP_PP5_H
#define LOCKSTEP_PP5_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "lockstep/status.h"
#ifdef __cplusplus
extern "C" {
#endif

enum {
    PP5_UCODE_WORDS = 416, /* seed, Sequencer: "416 (nominally 512) 32-bit words" */
    PP5_NREGS = 8,
};

/* Virtual registers in T<0:2> order (A-6: order of the seed's load-enable list). */
typedef enum pp5_reg {
    PP5_REG_I = 0, PP5_REG_P, PP5_REG_A, PP5_REG_B, PP5_REG_C, PP5_REG_D,
    PP5_REG_E, PP5_REG_F
} pp5_reg;

/* The IGC output pins as the EMCs see them in one clock (see the convention
 * above). Every field is 0 or 1 unless stated. The fields from acmp to lsb all
 * come from clock n-2 and are kept together, addr_l/addr_h (clock n-1) follow
 * (the fast step copies them as blocks); the struct has no padding. */
typedef struct pp5_pins {
    uint64_t cycle;             /* n */
    uint8_t acmp, agts_s, agts_t, bcmp, bgts_e, bgts_m, ccmp, cgts_c;
    uint8_t ldc, lde, mwrt;
    uint8_t extop;              /* ExtOp<0:5> as bits 0..5 (one-hot or 0) */
    /* Decoded from the redundant ALU code of the same word as the ALU
     * controls (seed, OutputLatch table): */
    uint8_t config_mode;        /* AGtsT = AGtsS = 1 on a redundant code */
    uint8_t pair;               /* Pair: AddrH = ~AddrL (redundant code, ACmp=1) */
    uint8_t redundant;          /* the word was a redundant ALU code */
    uint8_t dat[6];             /* ADat, BDat, CDat, DDat, EDat, FDat */
    uint8_t lsb;                /* LSB pipeline token */
    uint8_t addr_l, addr_h;     /* AddrL<0:7>, AddrH<0:7> (8-bit values) */
    uint8_t trst;               /* TrSt: QEE shift enable */
    uint8_t aludat;             /* ALUDat */
    uint8_t busy;               /* Busy = IBsy | CBsy */
    /* Test mode: with TestPE the D pads drive out. */
    uint8_t d_out_en;           /* TestPE */
    uint32_t d_out;             /* RdData when TestOE, else the latched D */
} pp5_pins;

/* Host inputs for one clock (all LPR inputs, latched on Ph2 of this clock). */
typedef struct pp5_host_in {
    bool wr_en;         /* WrEn */
    uint8_t t;          /* T<0:2> register address (pp5_reg) */
    uint32_t d;         /* D<0:31> */
    bool go;            /* Go */
    bool st1;           /* ST1 (logical, active high) */
    bool st2;           /* ST2 (logical; the pin ST2LLPR is active-low, A-23) */
    bool reset;         /* Reset */
    bool test_oe, test_pe;
} pp5_host_in;

/* Sequencer instruction behaviours (A-1: which code means what is a table). */
typedef enum pp5_seq_op {
    PP5_SEQ_INC = 0, PP5_SEQ_JMP, PP5_SEQ_BNTC1, PP5_SEQ_BTC1, PP5_SEQ_BNTC2,
    PP5_SEQ_BNTRR, PP5_SEQ_BNST1, PP5_SEQ_BNST2
} pp5_seq_op;

typedef enum pp5_msb_token {
    PP5_MSB_TOKEN_MBI_ONLY = 0, /* A-18 default: MsIn qualified by MBI */
    PP5_MSB_TOKEN_ALWAYS,       /* literal reading: on every CSB fall */
} pp5_msb_token;

typedef enum pp5_busy_write {
    PP5_BUSY_WRITE_ERROR = 0,   /* A-26 strict: a write while Busy is an error */
    PP5_BUSY_WRITE_LAST_WINS,   /* A-26 lenient: accepted, warning counted */
} pp5_busy_write;

/* Model options (pp5.md §8). pp5_options_default() gives the documented
 * defaults; every field names the assumption it implements. */
typedef struct pp5_options {
    pp5_seq_op seq_table[8];    /* behaviour of SeqInstr code 0..7 */
    uint8_t reg_of_t[8];        /* pp5_reg selected by T = 0..7 */
    bool rmode_exit_on_p;       /* a P write with D31 = 0 leaves RMode */
    bool rmode_shift;           /* Shift in RMode (true = text; false = table) */
    pp5_msb_token msb_token;    /* */
    int trr_fixed_stages;       /* shift-only TRR stages (seed: 24) */
    pp5_busy_write busy_write;  /* */
    bool go_while_busy_error;   /* Go while Busy: false = ignore + warning */
    bool warn_reserved_bits;    /* warn when I<20:21> or I<31> is set */
    double clock_hz;            /* 40 MHz, for time estimates only */
    bool rmode_write_needs_c;   /* A-7 variant: in RMode a posting writes the store only
                                 * if C was written since the last posting (default true,
                                 * so TestOE read-back does not overwrite the store) */
} pp5_options;

void pp5_options_default(pp5_options *o);

typedef struct pp5_igc pp5_igc;

/* Create an IGC in its power-on state: Reset asserted for one clock has the
 * same effect (RMode, controller quiescent). Microcode store is all zero. */
ls_status pp5_igc_create(pp5_igc **out, const pp5_options *opt, ls_diag *d);
void pp5_igc_destroy(pp5_igc *g);
/* Back to the power-on state (microcode kept). */
void pp5_igc_reset(pp5_igc *g);

/* One clock. in may be NULL (all inputs idle). Returns LS_OK, or LS_ERR_FAULT
 * with d filled for a host-protocol violation in strict mode; the clock
 * has still been simulated and *pins filled. */
ls_status pp5_igc_step(pp5_igc *g, const pp5_host_in *in, pp5_pins *pins, ls_diag *d);

/* The same clock as pp5_igc_step() — identical pins, state, warnings and
 * status — without keeping the named signals' bookkeeping current every clock:
 * the Serializer's per-shift state and the OutputLatch history are kept in a
 * compact form and written back into the module state only when it is looked
 * at (pp5_igc_signal_*(), pp5_igc_step()). Both may be mixed freely on one
 * IGC. tests/pp5/test_igc_fast.c checks the equivalence clock by clock. */
ls_status pp5_igc_step_fast(pp5_igc *g, const pp5_host_in *in, pp5_pins *pins, ls_diag *d);

/* n clocks with all inputs idle (as pp5_igc_step_fast(g, NULL, …) n times:
 * ST1/ST2 from pp5_igc_set_status()), in one call: the clock is inlined into
 * the loop. pins_out, if not NULL, gets the pins of the k-th clock in
 * pins_out[k] (n entries). Idle inputs cannot break the host protocol, so
 * there is no status; returns n. */
uint64_t pp5_igc_run_fast(pp5_igc *g, uint64_t n, pp5_pins *pins_out);

/* Convenience host actions, each one clock (the inputs of the other fields
 * idle); pins may be NULL. */
ls_status pp5_igc_write(pp5_igc *g, pp5_reg reg, uint32_t value, pp5_pins *pins, ls_diag *d);
ls_status pp5_igc_go(pp5_igc *g, pp5_pins *pins, ls_diag *d);
/* Steady status inputs ST1/ST2 used when step() gets in == NULL. */
void pp5_igc_set_status(pp5_igc *g, bool st1, bool st2);

bool pp5_igc_busy(const pp5_igc *g);
uint64_t pp5_igc_cycle(const pp5_igc *g);

/* Back-door microcode access (the host-side path is RMode + I/C/Go, A-7). */
ls_status pp5_igc_load_ucode(pp5_igc *g, size_t addr, const uint32_t *words, size_t n,
                             ls_diag *d);
uint32_t pp5_igc_ucode(const pp5_igc *g, size_t addr);

/* Which engine clocks the IGC when a runner (pp5_stream_run*, pp5_render)
 * drives it: the fast step (default) or the readable model's full step
 * (pp5_igc_step). Same pins, state and warnings (tests/pp5/test_igc_fast.c);
 * the model is the one of record, the fast one the one to use. */
typedef enum pp5_engine { PP5_ENGINE_FAST = 0, PP5_ENGINE_MODEL } pp5_engine;
void pp5_igc_set_engine(pp5_igc *g, pp5_engine e);
pp5_engine pp5_igc_engine(const pp5_igc *g);

/* Warnings counted by the model (A-4, A-20, A-26 lenient, …). */
size_t pp5_igc_warning_count(const pp5_igc *g);
/* Warnings kept: min(count, 64), the last ones (a caller lists these and says
 * how many earlier ones were not kept: count - kept). */
size_t pp5_igc_warnings_kept(const pp5_igc *g);
/* The i-th kept warning (oldest first, i < pp5_igc_warnings_kept()), or NULL. */
const char *pp5_igc_warning(const pp5_igc *g, size_t i);

/* Named signals (pins and internal), for traces and VCD. */
typedef enum pp5_signal_kind { PP5_SIG_PIN = 0, PP5_SIG_INTERNAL } pp5_signal_kind;
typedef struct pp5_signal_info {
    const char *name;   /* the seed's name without the timing suffix, e.g. "PostI" */
    int width;          /* bits */
    pp5_signal_kind kind;
} pp5_signal_info;
size_t pp5_igc_signal_count(void);
const pp5_signal_info *pp5_igc_signal_info(size_t i);
/* Index of a signal by name (case-sensitive), or -1. */
long pp5_igc_signal_find(const char *name);
/* Value after the last step (pins: of the last returned pp5_pins). After fast
 * steps the first read rebuilds the signals inside g (a cache fill: g is not
 * changed in any way a step could see, but two threads must not read one IGC's
 * signals at once). */
uint64_t pp5_igc_signal_value(const pp5_igc *g, size_t i);
/* All values at once, in signal order (out holds pp5_igc_signal_count()). */
void pp5_igc_signal_values(const pp5_igc *g, uint64_t *out);


/* ---- Serializer in isolation (`lockstep pp5 serialize`) ----
 * Runs the real Serializer module: loads FBITS through the P-word path, writes
 * the I word (QEEMode, TRREn, MBI, exponent field FNI + 115) and the six
 * coefficients, posts them on shift clock s = 0 and shifts every clock. */
enum { PP5_SER_MAX_BITS = 128 };
typedef enum pp5_qee_mode {
    PP5_QEE_NONE = 0, PP5_QEE_CONST = 1, PP5_QEE_LINEAR = 2, PP5_QEE_QUAD = 3
} pp5_qee_mode;
typedef struct pp5_serialize_req {
    int fbits;              /* 0..30 */
    pp5_qee_mode mode;
    bool mbi, trren;
    int fni;                /* exponent field = FNI + 115 (0 <= FNI + 115 <= 255) */
    uint32_t coef[6];       /* IEEE-754 single bit patterns, A..F */
} pp5_serialize_req;
typedef struct pp5_serialize_result {
    int n_bits;             /* shift cycles with CSB high (Eq. 3) */
    /* bit j of stream k as it leaves *DatLSP2 (j = 0 first); j = n_bits is the
     * separator bit */
    uint8_t stream[6][PP5_SER_MAX_BITS + 1];
    int dat_first_shift;    /* shift cycle s on which bit 0 is on *DatLSP2 */
    int lsb_shift;          /* shift cycle s of the LSB token */
    int trr[8];             /* shift cycles s with TRRHSP1 = 1 */
    int ntrr;
} pp5_serialize_result;
ls_status pp5_serialize(const pp5_serialize_req *req, const pp5_options *opt,
                        pp5_serialize_result *res, ls_diag *d);

#ifdef __cplusplus
}
#endif
#endif
