/* R500 flow-control (FC) unit: per-pixel branch counters, loop and address
 * stacks, JUMP_FUNC / JUMP_ANY decisions (spec/seeds/000-002, 004;
 * spec/r500.md §2). A thread of 1..64 pixels is a set of lane masks.
 *
 * Division of labour with the executor (src/r500/exec.c):
 *   - The executor owns instruction issue, the watchdog and the registers. It
 *     writes pred[] and alu_result (ALU instructions) and killed (TEXKILL), and
 *     reads active / aL. An ALU/TEX/OUT write goes to lanes in `active`
 *     (minus killed lanes), or to all lanes with WRITE_INACTIVE.
 *   - This unit owns everything else in r500_fc_thread and changes it only in
 *     r500_fc_exec. */
#ifndef LOCKSTEP_R500_FC_H
#define LOCKSTEP_R500_FC_H

#include <stdbool.h>
#include <stdint.h>

#include "lockstep/r500_isa.h"
#include "lockstep/buf.h"
#include "lockstep/status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef uint64_t ls_lanes;
struct ls_buf;

#define R500_FC_MAX_LANES 64
#define R500_FC_MAX_LOOP_DEPTH 16 /* storage; the modelled depth is an option */
#define R500_FC_MAX_ADDR_DEPTH 16
/* Width of a branch counter: branch-counter-max and partial-counter-max are
 * 1..R500_FC_COUNTER_MAX (docs/assumptions.md; larger values in an options
 * struct act as R500_FC_COUNTER_MAX). */
#define R500_FC_COUNTER_BITS 8
#define R500_FC_COUNTER_MAX ((1u << R500_FC_COUNTER_BITS) - 1u)

typedef enum r500_fc_op {
    R500_FC_JUMP = 0,
    R500_FC_LOOP = 1,
    R500_FC_ENDLOOP = 2,
    R500_FC_REP = 3,
    R500_FC_ENDREP = 4,
    R500_FC_BREAKLOOP = 5,
    R500_FC_BREAKREP = 6,
    R500_FC_CONTINUE = 7,
} r500_fc_op;

/* One FC instruction, pre-decoded (US_FC_INST, US_FC_ADDR and the CMN
 * predicate select). */
typedef struct r500_fc_inst {
    uint8_t op;          /* r500_fc_op */
    bool b_else;
    bool jump_any;
    uint8_t a_op;        /* 0 NONE, 1 POP, 2 PUSH, 3 reserved */
    uint8_t jump_func;   /* 8-entry table, bit (alu<<2)|(pred<<1)|bool */
    uint8_t b_pop_cnt;
    uint8_t b_op0, b_op1; /* 0 NONE, 1 DECR, 2 INCR, 3 reserved */
    bool ignore_uncovered;
    uint8_t bool_addr, int_addr;
    uint16_t jump_addr;
    bool jump_global;
    uint8_t pred_sel;    /* CMN RGB_PRED_SEL: for FC, the whole instruction's predicate */
    bool pred_inv;       /* CMN RGB_PRED_INV */
} r500_fc_inst;

void r500_fc_decode(const r500_inst *in, r500_fc_inst *out);
/* The same, by value (the name the executor contract uses). */
static inline r500_fc_inst r500_fc_inst_from(const r500_inst *in)
{
    r500_fc_inst out;
    r500_fc_decode(in, &out);
    return out;
}

/* The static FC registers, as raw register values (r500.md §1.9). */
typedef struct r500_fc_state {
    uint32_t bool_const;   /* US_FC_BOOL_CONST */
    uint32_t int_const[32]; /* US_FC_INT_CONST_n: KR 7:0, KG 15:8, KB 23:16 */
    uint32_t fc_ctrl;      /* US_FC_CTRL: FULL_FC_EN bit 31 */
    uint32_t code_addr;    /* US_CODE_ADDR: START 8:0, END 24:16 */
    uint32_t code_range;   /* US_CODE_RANGE: ADDR 8:0, SIZE 24:16 */
    uint32_t code_offset;  /* US_CODE_OFFSET: OFFSET 8:0 */
} r500_fc_state;

/* Full mode, all 512 slots in range, everything else 0. */
void r500_fc_state_init(r500_fc_state *st);

/* Model options: one per point the sources leave open (docs/assumptions.md,
 * "R500: flow-control unit"). */
typedef enum r500_fc_break_scope {
    R500_FC_BREAK_INHIBIT_ANY = 0,   /* any branch-inactive pixel inhibits (seed 004, literal) */
    R500_FC_BREAK_INHIBIT_LOOP = 1,  /* only pixels deactivated inside the current loop */
} r500_fc_break_scope;

typedef enum r500_fc_loop_skip {
    R500_FC_LOOP_SKIP_FALLTHROUGH = 0, /* ENDLOOP reached by its LOOP's jump: no jump, no pop */
    R500_FC_LOOP_SKIP_LITERAL = 1,     /* ENDLOOP behaves as always (pops the top frame) */
} r500_fc_loop_skip;

typedef struct r500_fc_options {
    unsigned loop_trips_extra;  /* loop-trips: 0 = KR iterations, 1 = KR+1 */
    bool al_every_endloop;      /* al-update: false = on jump only (CTM), true = every ENDLOOP (seed 001) */
    r500_fc_loop_skip loop_skip;   /* loop-skip */
    r500_fc_break_scope break_scope; /* break-inhibit */
    bool pred_none_value;       /* pred-none: FC predicate when RGB_PRED_SEL = NONE */
    bool push_current;          /* push-addr: false = push pc+1 (next), true = push pc (current) */
    unsigned branch_counter_max; /* branch-counter-max (full mode); INCR above it faults */
    unsigned partial_counter_max; /* partial-counter-max (partial mode) */
    unsigned loop_stack_depth;  /* loop-stack-depth */
    unsigned addr_stack_depth;  /* addr-stack-depth */
    bool counters_all_inactive; /* incr-scope: false = branch-inactive only, true = also break/continue pixels */
    bool partial_enforce;       /* partial-mode: true = loops/subroutines fault in partial mode */
    bool alu_result_clear;      /* alu-result-after-fc: false = keep, true = clear to 0 */
} r500_fc_options;

void r500_fc_options_default(r500_fc_options *o);
/* Set an option by name ("loop-trips", ...) from text; unknown names or bad
 * values give LS_ERR_ARG with a message listing the accepted values. */
ls_status r500_fc_options_set(r500_fc_options *o, const char *name, const char *value,
                              ls_diag *d);
/* Option catalogue for help and docs: returns false past the end. */
typedef struct r500_fc_option_info {
    const char *name, *values, *dflt, *help;
} r500_fc_option_info;
bool r500_fc_option_info_at(unsigned i, r500_fc_option_info *out);
/* Alias of r500_fc_options_set (the name the executor contract uses). */
static inline ls_status r500_fc_option_set(r500_fc_options *o, const char *name,
                                           const char *value, ls_diag *d)
{
    return r500_fc_options_set(o, name, value, d);
}

/* One frame of the loop stack (CTM p.39: iteration count, aL, processor mask). */
typedef struct r500_fc_loop_frame {
    uint16_t count;     /* iterations left */
    int16_t al;         /* this frame's loop register */
    int8_t step;        /* KB */
    bool is_loop;       /* LOOP (holds aL) vs REP */
    ls_lanes brk;       /* pixels that broke out and wait for the loop's end */
    ls_lanes cont;      /* pixels that continued and wait for the ENDLOOP */
    ls_lanes outside;   /* branch-inactive pixels when the loop was entered */
} r500_fc_loop_frame;

typedef struct r500_fc_thread {
    unsigned n;          /* pixels in the thread, 1..64 */
    ls_lanes lanes;      /* mask of the n lanes */
    ls_lanes covered;    /* covered by the primitive (uncovered = helper pixels) */
    ls_lanes active;     /* active pixels (killed pixels may still be set here) */
    ls_lanes branch;     /* inactive because of a branch, with a counter */
    ls_lanes brk;        /* inactive because of BREAK (union of the frames' brk) */
    ls_lanes cont;       /* inactive because of CONTINUE */
    ls_lanes killed;     /* written by the executor (TEXKILL) */
    ls_lanes pred[4];    /* predicate bits R, G, B, A (written by ALU instructions) */
    ls_lanes alu_result; /* ALU result bit (written by ALU instructions) */
    int aL;              /* current loop register, for relative addressing */
    unsigned cbits;      /* bits of the branch counters (cplane below) */
    unsigned loop_depth, addr_depth;
    int skip_endloop;    /* address a LOOP/REP just jumped to, or -1 */
    /* What the last r500_fc_exec did (statistics, trace). */
    ls_lanes last_want;  /* participating pixels that wanted to jump */
    ls_lanes last_part;  /* pixels that took part in the decision */
    /* Branch counters (meaningful where `branch`) as bit-planes: bit l of
     * cplane[k] is bit k of lane l's counter, so INCR/DECR/compare are a few
     * mask operations per thread rather than a loop over lanes. Planes at and
     * above cbits are zero. Read and write one lane with r500_fc_counter /
     * r500_fc_counter_set. The planes and the stacks come last: the fields
     * before cplane are the ones indexed only by name (src/r500/jit keeps
     * them in registers). */
    ls_lanes cplane[R500_FC_COUNTER_BITS];
    /* The stacks (last: r500_fc_thread_init leaves entries at and above the
     * depths as they were; they are written when pushed). */
    r500_fc_loop_frame loop[R500_FC_MAX_LOOP_DEPTH];
    uint16_t addr[R500_FC_MAX_ADDR_DEPTH];
} r500_fc_thread;

void r500_fc_thread_init(r500_fc_thread *t, unsigned n, ls_lanes covered);

/* Lane l's branch counter, and setting it (tests, tools; value is taken
 * modulo 2^R500_FC_COUNTER_BITS). */
unsigned r500_fc_counter(const r500_fc_thread *t, unsigned lane);
void r500_fc_counter_set(r500_fc_thread *t, unsigned lane, unsigned value);

/* Execute the FC instruction `in` at absolute address pc. On LS_OK, *next_pc
 * is the address to issue next and *jumped tells whether the jump was taken.
 * A fault (stack over/underflow, counter overflow, reserved field value, jump
 * outside the code range, loop in partial mode) returns LS_ERR_FAULT with a
 * diagnostic naming the instruction; the thread must stop. */
ls_status r500_fc_exec(r500_fc_thread *t, const r500_fc_inst *in, const r500_fc_state *st,
                       const r500_fc_options *o, unsigned pc, unsigned *next_pc, bool *jumped,
                       ls_diag *d);

/* Append `"fc":{...}` (branch counters, loop stack, address stack) to b. */
void r500_fc_thread_trace_json(const r500_fc_thread *t, struct ls_buf *b);

#ifdef __cplusplus
}
#endif
#endif
