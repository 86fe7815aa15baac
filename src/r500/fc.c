/* R500 flow-control unit. Sources: seed 001 (US_FC_INST field table; seeds
 * 000 and 002 are renderings of the same table), seed 004 (CTM p.41: special
 * cases), spec/r500.md §2 (semantics, §2.9 reference algorithm, §2.11
 * ambiguities) and §3.2 (Mesa's encodings, which run on real hardware and
 * must give GLSL semantics under the default options).
 *
 * Pixel states (r500.md §2.1, "at least these inactive kinds"): every lane is
 * exactly one of ACTIVE, BRANCH (inactive with a counter), BREAK (waiting for
 * the end of its loop) or CONTINUE (waiting for its ENDLOOP/ENDREP). Killed
 * pixels (TEXKILL, set by the executor) never take part in a decision. */
#include "lockstep/r500_fc.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "base/buf.h"
#include "base/lanes.h"
#include "jit_hints.h"

/* Where r500_fc_exec finds a thread's stacks and counter planes (the fields
 * from cplane on): in the thread itself. The JIT's run-time bitcode (jit/rt.c)
 * defines this before including this file: its compiled code keeps the other
 * fields in a local copy of the thread, which LLVM holds in registers, and the
 * stacks and planes, indexed at run time, in the worker's thread. */
#ifndef R500_FC_STK
#define R500_FC_STK(t) (t)
#endif

void r500_fc_decode(const r500_inst *in, r500_fc_inst *out)
{
    const uint32_t *f = in->field;
    memset(out, 0, sizeof *out);
    out->op = (uint8_t)f[R500_F_FC_OP];
    out->b_else = f[R500_F_FC_B_ELSE];
    out->jump_any = f[R500_F_FC_JUMP_ANY];
    out->a_op = (uint8_t)f[R500_F_FC_A_OP];
    out->jump_func = (uint8_t)f[R500_F_FC_JUMP_FUNC];
    out->b_pop_cnt = (uint8_t)f[R500_F_FC_B_POP_CNT];
    out->b_op0 = (uint8_t)f[R500_F_FC_B_OP0];
    out->b_op1 = (uint8_t)f[R500_F_FC_B_OP1];
    out->ignore_uncovered = f[R500_F_FC_IGNORE_UNCOVERED];
    out->bool_addr = (uint8_t)f[R500_F_FC_BOOL_ADDR];
    out->int_addr = (uint8_t)f[R500_F_FC_INT_ADDR];
    out->jump_addr = (uint16_t)f[R500_F_FC_JUMP_ADDR];
    out->jump_global = f[R500_F_FC_JUMP_GLOBAL];
    /* r500.md §1.2: "For FC it is the predicate of the whole instruction." */
    out->pred_sel = (uint8_t)f[R500_F_RGB_PRED_SEL];
    out->pred_inv = f[R500_F_RGB_PRED_INV];
}

void r500_fc_state_init(r500_fc_state *st)
{
    memset(st, 0, sizeof *st);
    st->fc_ctrl = 0x80000000u;             /* FULL_FC_EN */
    st->code_addr = (uint32_t)(R500_MAX_INSTS - 1) << 16;
    st->code_range = (uint32_t)(R500_MAX_INSTS - 1) << 16;
}

/* ---- options ------------------------------------------------------------ */

void r500_fc_options_default(r500_fc_options *o)
{
    memset(o, 0, sizeof *o);
    o->loop_trips_extra = 0;
    o->al_every_endloop = false;
    o->loop_skip = R500_FC_LOOP_SKIP_FALLTHROUGH;
    o->break_scope = R500_FC_BREAK_INHIBIT_ANY;
    o->pred_none_value = false;
    o->push_current = false;
    o->branch_counter_max = 255;
    o->partial_counter_max = 3;
    o->loop_stack_depth = 4;
    o->addr_stack_depth = 4;
    o->counters_all_inactive = false;
    o->partial_enforce = true;
    o->alu_result_clear = false;
}

static const r500_fc_option_info option_table[] = {
    {"loop-trips", "kr|kr+1", "kr",
     "iterations of a LOOP/REP body for count KR (r500.md 2.11 #1: seed 001 says ENDLOOP "
     "decrements, CTM says increments)"},
    {"al-update", "on-jump|every-endloop", "on-jump",
     "when ENDLOOP adds KB to aL (2.11 #2: CTM 'if jump', seed 001 'every ENDLOOP')"},
    {"loop-skip", "fallthrough|literal", "fallthrough",
     "an ENDLOOP/ENDREP reached by its LOOP/REP's jump (count zero): fall through without "
     "popping, or act literally (decrement/pop the top frame) (2.11 #3)"},
    {"break-inhibit", "any|loop", "any",
     "which branch-inactive pixels inhibit a BREAK/CONTINUE jump: any (seed 004 literally) or "
     "only those deactivated inside the current loop"},
    {"pred-none", "0|1", "0", "FC predicate value when RGB_PRED_SEL = NONE (2.11 #6)"},
    {"push-addr", "next|current", "next",
     "address pushed by A_OP=PUSH: the next instruction (so POP returns after the call) or the "
     "current one (2.11 #7)"},
    {"branch-counter-max", "1..255", "255",
     "largest branch counter in full mode; more faults (2.11 #8)"},
    {"partial-counter-max", "1..255", "3", "largest branch counter in partial mode (2.11 #8)"},
    {"loop-stack-depth", "1..16", "4", "loop stack frames (2.11 #8)"},
    {"addr-stack-depth", "1..16", "4", "address stack entries (2.11 #8)"},
    {"incr-scope", "branch|all", "branch",
     "which inactive pixels B_OP INCR/DECR counts: branch-inactive only, or break/continue "
     "pixels too (2.11 #9)"},
    {"partial-mode", "enforce|ignore", "enforce",
     "whether loops and subroutines fault when US_FC_CTRL.FULL_FC_EN = 0"},
    {"alu-result-after-fc", "keep|clear", "keep",
     "the ALU result after an FC instruction (CTM: not preserved; undefined)"},
};

bool r500_fc_option_info_at(unsigned i, r500_fc_option_info *out)
{
    if (i >= sizeof option_table / sizeof option_table[0])
        return false;
    *out = option_table[i];
    return true;
}

static bool parse_uint(const char *s, unsigned lo, unsigned hi, unsigned *out)
{
    if (!*s)
        return false;
    unsigned v = 0;
    for (; *s; s++) {
        if (*s < '0' || *s > '9' || v > 100000)
            return false;
        v = v * 10 + (unsigned)(*s - '0');
    }
    if (v < lo || v > hi)
        return false;
    *out = v;
    return true;
}

static int pick2(const char *v, const char *a, const char *b)
{
    if (!strcasecmp(v, a))
        return 0;
    if (!strcasecmp(v, b))
        return 1;
    return -1;
}

ls_status r500_fc_options_set(r500_fc_options *o, const char *name, const char *value,
                              ls_diag *d)
{
    const r500_fc_option_info *info = NULL;
    for (size_t i = 0; i < sizeof option_table / sizeof option_table[0]; i++)
        if (!strcmp(option_table[i].name, name))
            info = &option_table[i];
    if (!info)
        return ls_diag_set(d, LS_ERR_ARG, NULL, 0, 0, "unknown FC model option '%s'", name);
    int k = -1;
    unsigned u;
    bool ok = true;
    if (!strcmp(name, "loop-trips")) {
        if ((ok = (k = pick2(value, "kr", "kr+1")) >= 0))
            o->loop_trips_extra = (unsigned)k;
    } else if (!strcmp(name, "al-update")) {
        if ((ok = (k = pick2(value, "on-jump", "every-endloop")) >= 0))
            o->al_every_endloop = k;
    } else if (!strcmp(name, "loop-skip")) {
        if ((ok = (k = pick2(value, "fallthrough", "literal")) >= 0))
            o->loop_skip = (r500_fc_loop_skip)k;
    } else if (!strcmp(name, "break-inhibit")) {
        if ((ok = (k = pick2(value, "any", "loop")) >= 0))
            o->break_scope = (r500_fc_break_scope)k;
    } else if (!strcmp(name, "pred-none")) {
        if ((ok = (k = pick2(value, "0", "1")) >= 0))
            o->pred_none_value = k;
    } else if (!strcmp(name, "push-addr")) {
        if ((ok = (k = pick2(value, "next", "current")) >= 0))
            o->push_current = k;
    } else if (!strcmp(name, "branch-counter-max")) {
        if ((ok = parse_uint(value, 1, R500_FC_COUNTER_MAX, &u)))
            o->branch_counter_max = u;
    } else if (!strcmp(name, "partial-counter-max")) {
        if ((ok = parse_uint(value, 1, R500_FC_COUNTER_MAX, &u)))
            o->partial_counter_max = u;
    } else if (!strcmp(name, "loop-stack-depth")) {
        if ((ok = parse_uint(value, 1, R500_FC_MAX_LOOP_DEPTH, &u)))
            o->loop_stack_depth = u;
    } else if (!strcmp(name, "addr-stack-depth")) {
        if ((ok = parse_uint(value, 1, R500_FC_MAX_ADDR_DEPTH, &u)))
            o->addr_stack_depth = u;
    } else if (!strcmp(name, "incr-scope")) {
        if ((ok = (k = pick2(value, "branch", "all")) >= 0))
            o->counters_all_inactive = k;
    } else if (!strcmp(name, "partial-mode")) {
        if ((ok = (k = pick2(value, "enforce", "ignore")) >= 0))
            o->partial_enforce = k == 0;
    } else if (!strcmp(name, "alu-result-after-fc")) {
        if ((ok = (k = pick2(value, "keep", "clear")) >= 0))
            o->alu_result_clear = k;
    }
    if (!ok)
        return ls_diag_set(d, LS_ERR_ARG, NULL, 0, 0, "model option %s: bad value '%s' (expected %s)",
                           name, value, info->values);
    return LS_OK;
}

/* ---- thread ------------------------------------------------------------- */

void r500_fc_thread_init(r500_fc_thread *t, unsigned n, ls_lanes covered)
{
    /* the stacks are empty; every field before them 0 (ls_zero16: their
     * size is a multiple of 16 bytes) */
    _Static_assert(offsetof(r500_fc_thread, loop) % 16 == 0, "r500_fc_thread layout");
    ls_zero16(t, offsetof(r500_fc_thread, loop));
    if (n < 1)
        n = 1;
    if (n > R500_FC_MAX_LANES)
        n = R500_FC_MAX_LANES;
    t->n = n;
    t->lanes = ls_lanes_first(n);
    t->covered = covered & t->lanes;
    t->active = t->lanes; /* every pixel starts active, covered or not (r500.md §5) */
    t->skip_endloop = -1;
}

/* ---- branch counters as bit-planes (r500_fc_thread.cplane) --------------- */

/* The plane loops run cbits (<= 8) times. In the JIT's run-time bitcode,
 * which inlines this file at every FC instruction, they stay loops
 * (R500_JIT_NO_UNROLL, jit_hints.h): unrolled at every site they cost compile
 * time (a fifth more on 12_while_data_dependent) and no run time was
 * gained. */

unsigned r500_fc_counter(const r500_fc_thread *t, unsigned lane)
{
    unsigned v = 0;
    for (unsigned k = 0; k < t->cbits; k++)
        v |= (unsigned)((t->cplane[k] >> (lane & 63u)) & 1u) << k;
    return v;
}

void r500_fc_counter_set(r500_fc_thread *t, unsigned lane, unsigned value)
{
    const ls_lanes bit = (ls_lanes)1 << (lane & 63u);
    for (unsigned k = 0; k < R500_FC_COUNTER_BITS; k++) {
        t->cplane[k] = (t->cplane[k] & ~bit) | (((value >> k) & 1u) ? bit : 0);
        if ((value >> k) & 1u && k >= t->cbits)
            t->cbits = k + 1;
    }
}

/* The helpers below work on the planes pl (r500_fc_thread.cplane) of a
 * thread whose counters have cbits bits. */

/* Lanes whose counter is >= c: a comparison from the top bit down. */
static ls_lanes counters_ge(const ls_lanes *pl, unsigned cbits, unsigned c)
{
    if (c >> cbits)
        return 0; /* c has a bit above every counter's */
    ls_lanes gt = 0, eq = ~(ls_lanes)0;
    R500_JIT_NO_UNROLL
    for (unsigned k = cbits; k-- > 0;) {
        if ((c >> k) & 1u) {
            eq &= pl[k];
        } else {
            gt |= eq & pl[k];
            eq &= ~pl[k];
        }
    }
    return gt | eq;
}

static void counters_zero(ls_lanes *pl, unsigned cbits, ls_lanes m)
{
    R500_JIT_NO_UNROLL
    for (unsigned k = 0; k < cbits; k++)
        pl[k] &= ~m;
}

/* counter += 1 on lanes m (the caller has checked that none overflows). */
static void counters_incr(ls_lanes *pl, unsigned *cbits, ls_lanes m)
{
    ls_lanes carry = m;
    R500_JIT_NO_UNROLL
    for (unsigned k = 0; k < *cbits && carry; k++) {
        ls_lanes p = pl[k];
        pl[k] = p ^ carry;
        carry &= p;
    }
    if (carry && *cbits < R500_FC_COUNTER_BITS)
        pl[(*cbits)++] = carry;
}

/* counter -= c on lanes m, every one of which holds at least c. */
static void counters_sub(ls_lanes *pl, unsigned *cbits, ls_lanes m, unsigned c)
{
    ls_lanes borrow = 0;
    R500_JIT_NO_UNROLL
    for (unsigned k = 0; k < *cbits; k++) {
        const ls_lanes p = pl[k], q = ((c >> k) & 1u) ? m : 0;
        pl[k] = p ^ ((q ^ borrow) & m);
        borrow = ((~p & (q | borrow)) | (q & borrow)) & m;
    }
    while (*cbits && !pl[*cbits - 1])
        (*cbits)--;
}

static ls_status fault(ls_diag *d, unsigned pc, const char *fmt, const char *what)
{
    ls_diag_set(d, LS_ERR_FAULT, NULL, 0, 0, fmt, pc, what);
    ls_diag_at_index(d, (long)pc);
    return LS_ERR_FAULT;
}

static const char *op_name(unsigned op)
{
    return r500_value_name(R500_V_FC_OP, op);
}

/* Lanes for which JUMP_FUNC says "jump": bit ((alu<<2)|(pred<<1)|bool) of the
 * table (seed 001, JUMP_FUNC). */
static ls_lanes jump_func_lanes(uint8_t jf, ls_lanes alu, ls_lanes pred, bool boolean,
                                ls_lanes all)
{
    ls_lanes want = 0;
    ls_lanes b = boolean ? all : 0;
    for (unsigned idx = 0; idx < 8; idx++) {
        if (!((jf >> idx) & 1u))
            continue;
        want |= ((idx & 4) ? alu : ~alu) & ((idx & 2) ? pred : ~pred) & ((idx & 1) ? b : ~b);
    }
    return want & all;
}

/* What INCR and DECR read and change of a thread: its masks and counter
 * width (the thread's own, copied by branch_op), its stacks and planes, and
 * branch_op's scope and disagree. */
typedef struct fc_counting {
    ls_lanes active, branch, brk, cont;
    ls_lanes scope, disagree;
    unsigned cbits, loop_depth;
    r500_fc_thread *stk; /* R500_FC_STK of the thread */
} fc_counting;

/* DECR's wake: the pixels whose counters went below zero are active again
 * and leave every branch, break and continue mask (the thread's and its
 * loop frames'). */
static void wake_lanes(ls_lanes *active, ls_lanes *branch, ls_lanes *brk, ls_lanes *cont,
                       r500_fc_loop_frame *loop, unsigned loop_depth, ls_lanes wake)
{
    *branch &= ~wake;
    *brk &= ~wake;
    *cont &= ~wake;
    for (unsigned k = 0; k < loop_depth; k++) {
        loop[k].brk &= ~wake;
        loop[k].cont &= ~wake;
    }
    *active |= wake;
}

/* branch_op's shortcut for threads without counters (1; 0 only in
 * tests/r500/test_fc_shortcut.c, which compares the two) */
#ifndef R500_FC_SHORTCUT
#define R500_FC_SHORTCUT 1
#endif

/* INCR and DECR's counting (branch_op below). In the JIT's run-time bitcode,
 * in a program with a loop, one function that the FC instructions call
 * (jit_hints.h), which compiled code seldom reaches; inlined at every FC
 * instruction that counts in a program without one (jit.c's
 * counting_compiled; docs/r500-jit.md, "Flow control"). It takes a copy of
 * the thread's fields, so that the compiled code's copy of the thread stays
 * in registers. */
R500_JIT_NOINLINE static ls_status counters_op(fc_counting *t, unsigned op, unsigned pop,
                                              unsigned max, unsigned pc, unsigned fc_op,
                                              ls_diag *d)
{
    ls_lanes *const pl = t->stk->cplane;
    const ls_lanes scope = t->scope;
    if (op == 2) {
        if (counters_ge(pl, t->cbits, max) & scope)
            return fault(d, pc, "instruction %u: %s: branch counter overflow (INCR above the "
                                "branch-counter-max)",
                         op_name(fc_op)); /* named only when it faults */
        counters_incr(pl, &t->cbits, scope);
        counters_zero(pl, t->cbits, t->disagree);
        t->active &= ~t->disagree;
        t->branch |= t->disagree;
    } else {
        const ls_lanes stay = counters_ge(pl, t->cbits, pop) & scope;
        const ls_lanes wake = scope & ~stay;
        counters_zero(pl, t->cbits, wake);
        counters_sub(pl, &t->cbits, stay, pop);
        wake_lanes(&t->active, &t->branch, &t->brk, &t->cont, t->stk->loop, t->loop_depth, wake);
    }
    return LS_OK;
}

/* Branch-counter operation (seed 001 B_OP0/B_OP1; CTM p.41): 0 none, 1
 * DECR, 2 INCR (3 is refused before). want = lanes that wanted to jump;
 * jumped = the decision.
 *   INCR: "increment branch counter by 1 for inactive pixels. Deactivate
 *   pixels that decided to jump [stay: ... not to jump] and set their
 *   counter to zero."
 *   DECR: "decrement branch counter by B_POP_CNT for inactive pixels.
 *   Activate pixels with negative counters."
 * The inactive pixels that count are scope; the active ones that disagree
 * with the decision leave (INCR). */
static ls_status branch_op(r500_fc_thread *t, unsigned op, unsigned pop, ls_lanes want,
                           bool jumped, const r500_fc_options *o, unsigned max, unsigned pc,
                           unsigned fc_op, ls_diag *d)
{
    if (op != 1 && op != 2)
        return LS_OK;
    ls_lanes scope = t->branch;
    if (o->counters_all_inactive)
        scope |= t->brk | t->cont;
    const ls_lanes disagree =
        op == 2 ? t->active & ~t->killed & (jumped ? ~want : want) & t->lanes : 0;
    if (__builtin_expect(!scope && !disagree, 1))
        return LS_OK; /* no counter counts, no pixel leaves or wakes */
    if (__builtin_expect(R500_FC_SHORTCUT && t->cbits == 0 && (op == 2 ? max >= 1 : pop >= 1),
                         1)) {
        /* Every counter is 0 (no plane), as in an IF/ELSE with no branch
         * inside it: counters_op's result without its plane loops, so that
         * compiled code, which inlines this, need not call it (in a program
         * with a loop the JIT leaves the other FC instructions that count
         * to the interpreter: src/r500/jit/rt.c). INCR: no counter reaches max (>= 1); the
         * scope's counters become 1 (one plane) and the disagreeing pixels'
         * 0. DECR by pop >= 1: every counter of the scope is below pop, so
         * each of its pixels wakes. tests/r500/test_fc_shortcut.c holds it
         * to counters_op (R500_FC_SHORTCUT=0). */
        if (op == 2) {
            if (scope) {
                R500_FC_STK(t)->cplane[0] = scope & ~disagree;
                t->cbits = 1;
            }
            t->active &= ~disagree;
            t->branch |= disagree;
        } else {
            wake_lanes(&t->active, &t->branch, &t->brk, &t->cont, R500_FC_STK(t)->loop,
                       t->loop_depth, scope);
        }
        return LS_OK;
    }
    fc_counting c = {.active = t->active, .branch = t->branch, .brk = t->brk, .cont = t->cont,
                     .scope = scope, .disagree = disagree, .cbits = t->cbits,
                     .loop_depth = t->loop_depth, .stk = R500_FC_STK(t)};
    ls_status s = counters_op(&c, op, pop, max, pc, fc_op, d);
    t->active = c.active;
    t->branch = c.branch;
    t->brk = c.brk;
    t->cont = c.cont;
    t->cbits = c.cbits;
    return s;
}

static void pop_loop(r500_fc_thread *t)
{
    r500_fc_loop_frame *f = &R500_FC_STK(t)->loop[t->loop_depth - 1];
    /* Pixels that broke out of (or continued in) this loop resume after it. */
    ls_lanes back = f->brk | f->cont;
    t->active |= back;
    t->brk &= ~back;
    t->cont &= ~back;
    t->loop_depth--;
    t->aL = t->loop_depth ? R500_FC_STK(t)->loop[t->loop_depth - 1].al : 0;
}

ls_status r500_fc_exec(r500_fc_thread *t, const r500_fc_inst *in, const r500_fc_state *st,
                       const r500_fc_options *o, unsigned pc, unsigned *next_pc, bool *jumped,
                       ls_diag *d)
{
    const bool full = (st->fc_ctrl >> 31) & 1u;
    const unsigned op = in->op;
    const bool is_loop_op = op != R500_FC_JUMP;
    const int skip = t->skip_endloop;
    t->skip_endloop = -1;
    *jumped = false;
    *next_pc = pc + 1;

    /* Reserved field values (seed 001 lists A_OP 0..2 and B_OP 0..2 only). */
    if (in->a_op == 3)
        return fault(d, pc, "instruction %u: %s with A_OP=3, a reserved value", op_name(op));
    if (in->b_op0 == 3 || in->b_op1 == 3)
        return fault(d, pc, "instruction %u: %s with B_OP=3, a reserved value", op_name(op));
    /* CTM p.39: the FC predicate "must be a replicate select". */
    if (in->pred_sel == 1 || in->pred_sel > 5)
        return fault(d, pc, "instruction %u: %s: the FC predicate must be NONE or a replicate "
                            "select (RRRR/GGGG/BBBB/AAAA)",
                     op_name(op));
    /* US_FC_CTRL: partial mode has "no loops or subroutines". */
    if (!full && o->partial_enforce && (is_loop_op || in->a_op != 0))
        return fault(d, pc, "instruction %u: %s needs full flow-control mode "
                            "(US_FC_CTRL.FULL_FC_EN=0: no loops or subroutines)",
                     op_name(op));
    unsigned max = full ? o->branch_counter_max : o->partial_counter_max;
    if (max > R500_FC_COUNTER_MAX)
        max = R500_FC_COUNTER_MAX;

    const ls_lanes alive = t->lanes & ~t->killed;

    /* 1. B_ELSE (seed 001): "pixels in the active state are moved to the branch
     * inactive state with zero counter, and vice versa." */
    ls_lanes elsed = 0;
    if (in->b_else) {
        ls_lanes nonzero = 0;
        R500_JIT_NO_UNROLL
        for (unsigned k = 0; k < t->cbits; k++)
            nonzero |= R500_FC_STK(t)->cplane[k];
        const ls_lanes zero = t->branch & ~t->killed & ~nonzero;
        elsed = t->active & alive;
        counters_zero(R500_FC_STK(t)->cplane, t->cbits, elsed);
        t->active = (t->active & ~elsed) | zero;
        t->branch = (t->branch & ~zero) | elsed;
    }

    /* 2. ENDLOOP/ENDREP reached by its own LOOP/REP's jump (count zero). */
    r500_fc_loop_frame *top = t->loop_depth ? &R500_FC_STK(t)->loop[t->loop_depth - 1] : NULL;
    const bool is_end = op == R500_FC_ENDLOOP || op == R500_FC_ENDREP;
    const bool is_break = op == R500_FC_BREAKLOOP || op == R500_FC_BREAKREP;
    if (is_end && skip == (int)pc && o->loop_skip == R500_FC_LOOP_SKIP_FALLTHROUGH) {
        /* seed 004: "When the iteration count is zero, ENDLOOP/ENDREP ignore
         * JUMP_FUNC and don't jump." The loop was never entered: nothing to pop. */
        ls_status s = branch_op(t, in->b_op0, in->b_pop_cnt, 0, false, o, max, pc, op, d);
        if (s)
            return s;
        if (o->alu_result_clear)
            t->alu_result = 0;
        return LS_OK;
    }
    if ((is_end || is_break || op == R500_FC_CONTINUE) && !top)
        return fault(d, pc, "instruction %u: %s with an empty loop stack (underflow)",
                     op_name(op));
    if (is_end) {
        /* CONTINUE'd pixels were "ready to jump to the ENDLOOP/ENDREP"
         * (seed 001, CONTINUE): they rejoin here, before the decision. */
        t->active |= top->cont;
        t->cont &= ~top->cont;
        top->cont = 0;
    }

    /* 3. Who takes part and who wants to jump. */
    const ls_lanes part_mask = alive & (in->ignore_uncovered ? t->covered : t->lanes);
    const ls_lanes part = t->active & part_mask;
    const ls_lanes part_elsed = elsed & part_mask;
    ls_lanes pred;
    if (in->pred_sel == 0)
        pred = o->pred_none_value ? t->lanes : 0;
    else
        pred = t->pred[in->pred_sel - 2];
    if (in->pred_inv)
        pred = ~pred & t->lanes;
    const bool boolean = (st->bool_const >> in->bool_addr) & 1u;
    const ls_lanes want = jump_func_lanes(in->jump_func, t->alu_result, pred, boolean, t->lanes);
    /* seed 004: "Any processors deactivated by B_ELSE 'want to jump' regardless
     * of JUMP_FUNC." */
    const ls_lanes P = part | part_elsed;
    const ls_lanes W = (want & part) | part_elsed;
    bool jump;
    if (in->jump_any)
        /* "Jump if ANY active pixels want to take the jump ... If no pixels are
         * active, do not jump." */
        jump = part != 0 && W != 0;
    else
        /* "Jump if ALL active pixels want to take the jump ... If no pixels are
         * active, jump." */
        jump = part == 0 || (P & ~W) == 0;
    t->last_part = P;
    t->last_want = W;

    /* 4. Op-specific overrides (seed 004 special cases). */
    const uint32_t ic = st->int_const[in->int_addr & 31u];
    const unsigned kr = ic & 0xffu, kg = (ic >> 8) & 0xffu;
    const int kb = (int8_t)(uint8_t)((ic >> 16) & 0xffu); /* KB: signed 8-bit (2.11 #11) */
    if ((op == R500_FC_LOOP || op == R500_FC_REP) && kr == 0)
        jump = true; /* "When the iteration count is zero, LOOP/REP ignore JUMP_FUNC and jump." */
    if (is_end) {
        if (top->count > 0)
            top->count--;
        if (top->count == 0)
            jump = false; /* "... ENDLOOP/ENDREP ignore JUMP_FUNC and don't jump." */
    }
    if (is_break || op == R500_FC_CONTINUE) {
        /* "Any processors deactivated by a branching statement (if, else) will
         * inhibit a decision to jump by a BREAK or CONTINUE statement." */
        ls_lanes inhibit = t->branch & alive;
        if (o->break_scope == R500_FC_BREAK_INHIBIT_LOOP)
            inhibit &= ~top->outside;
        /* "Any processors deactivated by a CONTINUE statement will inhibit a
         * decision to jump by a BREAK statement; they will not inhibit a
         * decision to jump by another CONTINUE statement." */
        if (is_break)
            inhibit |= t->cont & alive;
        if (inhibit)
            jump = false;
    }

    /* 5. Target and address stack (seed 001 A_OP; US_FC_ADDR JUMP_GLOBAL). */
    unsigned target = in->jump_addr + (in->jump_global ? 0u : (st->code_offset & 0x1ffu));
    if (jump && in->a_op == 1) {
        if (t->addr_depth == 0)
            return fault(d, pc, "instruction %u: %s with A_OP=POP on an empty address stack "
                                "(underflow)",
                         op_name(op));
        target = R500_FC_STK(t)->addr[--t->addr_depth];
    }
    if (jump) {
        unsigned lo = st->code_range & 0x1ffu;
        unsigned hi = lo + ((st->code_range >> 16) & 0x1ffu);
        if (target < lo || target > hi + 1) {
            ls_diag_set(d, LS_ERR_FAULT, NULL, 0, 0,
                        "instruction %u: %s jumps to %u, outside the code range %u..%u", pc,
                        op_name(op), target, lo, hi);
            ls_diag_at_index(d, (long)pc);
            return LS_ERR_FAULT;
        }
    }
    if (jump && in->a_op == 2) {
        if (t->addr_depth >= o->addr_stack_depth || t->addr_depth >= R500_FC_MAX_ADDR_DEPTH)
            return fault(d, pc, "instruction %u: %s with A_OP=PUSH on a full address stack "
                                "(overflow)",
                         op_name(op));
        R500_FC_STK(t)->addr[t->addr_depth++] = (uint16_t)(o->push_current ? pc : pc + 1);
    }

    /* 6. Branch counters: B_OP1 if we jump, B_OP0 if we stay. */
    ls_status s = branch_op(t, jump ? in->b_op1 : in->b_op0, in->b_pop_cnt, want, jump, o, max,
                            pc, op, d);
    if (s)
        return s;

    /* 7. Loop stack. */
    switch (op) {
    case R500_FC_LOOP:
    case R500_FC_REP:
        if (jump) {
            t->skip_endloop = (int)target;
        } else {
            /* "If we don't take the jump, push initial loop counter and loop
             * register (aL) values onto the loop stack." REP: "don't push aL". */
            if (t->loop_depth >= o->loop_stack_depth || t->loop_depth >= R500_FC_MAX_LOOP_DEPTH)
                return fault(d, pc, "instruction %u: %s on a full loop stack (overflow)",
                             op_name(op));
            r500_fc_loop_frame *f = &R500_FC_STK(t)->loop[t->loop_depth++];
            memset(f, 0, sizeof *f);
            f->count = (uint16_t)(kr + o->loop_trips_extra);
            f->is_loop = op == R500_FC_LOOP;
            f->al = (int16_t)(f->is_loop ? (int)kg : t->aL);
            f->step = (int8_t)kb;
            f->outside = t->branch;
            t->aL = f->al;
        }
        break;
    case R500_FC_ENDLOOP:
    case R500_FC_ENDREP:
        /* ENDLOOP: "increment the loop register (aL)"; ENDREP: "don't
         * update/pop the loop register aL". */
        if (op == R500_FC_ENDLOOP && top->is_loop && (jump || o->al_every_endloop)) {
            top->al = (int16_t)(top->al + top->step);
            t->aL = top->al;
        }
        if (!jump)
            pop_loop(t); /* CTM: "... else pop loop stack" */
        break;
    case R500_FC_BREAKLOOP:
    case R500_FC_BREAKREP:
        if (jump) {
            pop_loop(t); /* CTM p.41: "Pop loop stack if jump" */
        } else {
            /* seed 001: "pops the loop stacks if a pixel stops being active":
             * the pixels that want to break leave the loop (frame mask). */
            ls_lanes go = t->active & alive & want;
            top->brk |= go;
            t->brk |= go;
            t->active &= ~go;
        }
        break;
    case R500_FC_CONTINUE:
        if (!jump) {
            /* "used to disable pixels that are ready to jump to the
             * ENDLOOP/ENDREP instruction" */
            ls_lanes go = t->active & alive & want;
            top->cont |= go;
            t->cont |= go;
            t->active &= ~go;
        }
        break;
    default:
        break;
    }

    if (o->alu_result_clear)
        t->alu_result = 0;
    *jumped = jump;
    if (jump)
        *next_pc = target;
    return LS_OK;
}

void r500_fc_thread_trace_json(const r500_fc_thread *t, struct ls_buf *b)
{
    ls_buf_printf(b, "\"fc\":{\"branch\":\"0x%016llx\",\"break\":\"0x%016llx\",\"continue\":"
                     "\"0x%016llx\",\"aL\":%d,\"counters\":[",
                  (unsigned long long)t->branch, (unsigned long long)t->brk,
                  (unsigned long long)t->cont, t->aL);
    for (unsigned l = 0; l < t->n; l++) {
        if (l)
            ls_buf_putc(b, ',');
        if ((t->branch >> l) & 1)
            ls_buf_printf(b, "%u", r500_fc_counter(t, l));
        else
            ls_buf_puts(b, "null");
    }
    ls_buf_puts(b, "],\"loop_stack\":[");
    for (unsigned k = 0; k < t->loop_depth; k++)
        ls_buf_printf(b, "%s{\"count\":%u,\"aL\":%d,\"kind\":\"%s\",\"break\":\"0x%016llx\","
                         "\"continue\":\"0x%016llx\"}",
                      k ? "," : "", t->loop[k].count, t->loop[k].al,
                      t->loop[k].is_loop ? "LOOP" : "REP", (unsigned long long)t->loop[k].brk,
                      (unsigned long long)t->loop[k].cont);
    ls_buf_puts(b, "],\"addr_stack\":[");
    for (unsigned k = 0; k < t->addr_depth; k++)
        ls_buf_printf(b, "%s%u", k ? "," : "", t->addr[k]);
    ls_buf_puts(b, "]}");
}
