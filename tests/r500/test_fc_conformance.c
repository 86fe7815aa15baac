/* FC conformance table: every sentence of seeds 000-002 (US_FC_INST; the
 * three seeds are renderings of the same table, quoted here from seed 001)
 * and seed 004 (CTM p.41) that states a behaviour is checked by at least one
 * row below, which quotes it. Expected values are worked out by hand from the
 * quoted sentence, not taken from the implementation. */
#include "test_util.h"

#include "base/buf.h"
#include "lockstep/r500_fc.h"

#define L(i) ((ls_lanes)1 << (i))

typedef struct fx {
    r500_fc_thread t;
    r500_fc_state st;
    r500_fc_options o;
    unsigned next;
    bool jumped;
    ls_status rc;
    ls_diag d;
} fx;

static ls_lanes ls_lanes_first_t(unsigned n)
{
    return n >= 64 ? ~(ls_lanes)0 : ((ls_lanes)1 << n) - 1;
}

static void setup(fx *f, unsigned n)
{
    memset(f, 0, sizeof *f);
    r500_fc_thread_init(&f->t, n, ls_lanes_first_t(n));
    r500_fc_state_init(&f->st);
    r500_fc_options_default(&f->o);
}

/* Execute FC words (CMN, US_FC_INST, US_FC_ADDR) at pc. */
static void run(fx *f, uint32_t cmn, uint32_t inst, uint32_t addr, unsigned pc)
{
    uint32_t w[6] = {cmn | 2u, 0, inst, addr, 0, 0};
    r500_inst in;
    r500_decode(w, &in);
    r500_fc_inst fi;
    r500_fc_decode(&in, &fi);
    r500_fc_inst by_value = r500_fc_inst_from(&in);
    /* field by field: padding bytes of a by-value copy are unspecified */
    assert_true(by_value.op == fi.op && by_value.b_else == fi.b_else &&
                by_value.jump_any == fi.jump_any && by_value.a_op == fi.a_op &&
                by_value.jump_func == fi.jump_func && by_value.b_pop_cnt == fi.b_pop_cnt &&
                by_value.b_op0 == fi.b_op0 && by_value.b_op1 == fi.b_op1 &&
                by_value.ignore_uncovered == fi.ignore_uncovered &&
                by_value.bool_addr == fi.bool_addr && by_value.int_addr == fi.int_addr &&
                by_value.jump_addr == fi.jump_addr && by_value.jump_global == fi.jump_global &&
                by_value.pred_sel == fi.pred_sel && by_value.pred_inv == fi.pred_inv);
    f->rc = r500_fc_exec(&f->t, &fi, &f->st, &f->o, pc, &f->next, &f->jumped, &f->d);
}

/* Field builders for US_FC_INST (seed 001 bit positions). */
#define OP(x) ((uint32_t)(x))
#define B_ELSE (1u << 4)
#define JUMP_ANY (1u << 5)
#define A_OP(x) ((uint32_t)(x) << 6)
#define JF(x) ((uint32_t)(x) << 8)
#define POPC(x) ((uint32_t)(x) << 16)
#define BOP0(x) ((uint32_t)(x) << 24)
#define BOP1(x) ((uint32_t)(x) << 26)
#define IGN (1u << 28)
#define JADDR(x) ((uint32_t)(x) << 16)
#define INT_ADDR(x) ((uint32_t)(x) << 8)
#define GLOBAL (1u << 31)
enum { NONE = 0, DECR = 1, INCR = 2 };
enum { JUMP = 0, LOOP, ENDLOOP, REP, ENDREP, BREAKLOOP, BREAKREP, CONTINUE };

/* make lane l branch-inactive with counter c */
static void deact(fx *f, unsigned l, unsigned c)
{
    f->t.active &= ~L(l);
    f->t.branch |= L(l);
    r500_fc_counter_set(&f->t, l, c);
}

/* ---------------------------------------------------------------- OP ---- */

static void op_jump(void **s)
{
    (void)s;
    fx f;
    /* seed 001 OP=0: "US_FC_OP_JUMP: (if, endif, call, etc)" — JUMP_FUNC 0xFF
     * with every pixel wanting to: the PC goes to JUMP_ADDR. */
    setup(&f, 4);
    run(&f, 0, OP(JUMP) | JF(0xFF), JADDR(9), 3);
    assert_int_equal(f.rc, LS_OK);
    assert_true(f.jumped);
    assert_int_equal(f.next, 9);
    /* JUMP_FUNC 0: never jump, next instruction. */
    run(&f, 0, OP(JUMP) | JF(0x00), JADDR(9), 3);
    assert_false(f.jumped);
    assert_int_equal(f.next, 4);
}

static void op_loop(void **s)
{
    (void)s;
    fx f;
    /* seed 001 OP=1: "US_FC_OP_LOOP: same as jump except always take the jump
     * if the static counter is 0." */
    setup(&f, 4);
    f.st.int_const[2] = 0x00000500; /* KR=0, KG=5 */
    run(&f, 0, OP(LOOP) | JF(0x00), INT_ADDR(2) | JADDR(7), 1);
    assert_true(f.jumped);
    assert_int_equal(f.next, 7);
    assert_int_equal(f.t.loop_depth, 0);
    /* "If we don't take the jump, push initial loop counter and loop register
     * (aL) values onto the loop stack." */
    setup(&f, 4);
    f.st.int_const[2] = 0x00020503; /* KR=3, KG=5, KB=2 */
    run(&f, 0, OP(LOOP) | JF(0x00), INT_ADDR(2) | JADDR(7), 1);
    assert_false(f.jumped);
    assert_int_equal(f.next, 2);
    assert_int_equal(f.t.loop_depth, 1);
    assert_int_equal(f.t.loop[0].count, 3);
    assert_int_equal(f.t.aL, 5);
}

static void op_endloop(void **s)
{
    (void)s;
    fx f;
    /* seed 001 OP=2: "US_FC_OP_ENDLOOP: same as jump but decrement the loop
     * counter and increment the loop register (aL), and don't take the jump if
     * the loop counter becomes zero." With KR=2, KG=5, KB=3: first ENDLOOP
     * jumps back with aL=8; the second leaves the loop. */
    setup(&f, 4);
    f.st.int_const[0] = 0x00030502;
    run(&f, 0, OP(LOOP), JADDR(5), 0);
    assert_int_equal(f.t.aL, 5);
    run(&f, 0, OP(ENDLOOP) | JF(0xFF) | JUMP_ANY, JADDR(1), 5);
    assert_true(f.jumped);
    assert_int_equal(f.next, 1);
    assert_int_equal(f.t.aL, 8);
    assert_int_equal(f.t.loop_depth, 1);
    run(&f, 0, OP(ENDLOOP) | JF(0xFF) | JUMP_ANY, JADDR(1), 5);
    assert_false(f.jumped);
    assert_int_equal(f.next, 6);
    /* seed 004: "FC_OP_ENDLOOP = Increment counter and aL if jump, else pop loop stack" */
    assert_int_equal(f.t.loop_depth, 0);
    assert_int_equal(f.t.aL, 0);
}

static void op_rep(void **s)
{
    (void)s;
    fx f;
    /* seed 001 OP=3: "US_FC_OP_REP: same as loop but don't push the loop
     * register aL." Inside a LOOP with aL=5, a REP keeps aL=5. seed 004:
     * "FC_OP_REP = Initialize counter, and push loop stack if stay". */
    setup(&f, 4);
    f.st.int_const[0] = 0x00010502;
    f.st.int_const[1] = 0x00000903; /* KG=9 must not be used by REP */
    run(&f, 0, OP(LOOP), JADDR(9), 0);
    run(&f, 0, OP(REP), INT_ADDR(1) | JADDR(8), 1);
    assert_false(f.jumped);
    assert_int_equal(f.t.loop_depth, 2);
    assert_int_equal(f.t.loop[1].count, 3);
    assert_int_equal(f.t.aL, 5);
    /* seed 001 OP=4: "US_FC_OP_ENDREP: same as endloop but don't update/pop
     * the loop register aL." seed 004: "FC_OP_ENDREP = Increment counter if
     * jump, else pop loop stack". */
    run(&f, 0, OP(ENDREP) | JF(0xFF) | JUMP_ANY, JADDR(2), 8);
    assert_true(f.jumped);
    assert_int_equal(f.t.aL, 5);
    run(&f, 0, OP(ENDREP) | JF(0xFF) | JUMP_ANY, JADDR(2), 8);
    run(&f, 0, OP(ENDREP) | JF(0xFF) | JUMP_ANY, JADDR(2), 8);
    assert_false(f.jumped);
    assert_int_equal(f.t.loop_depth, 1);
    assert_int_equal(f.t.aL, 5);
}

static void op_breakloop(void **s)
{
    (void)s;
    fx f;
    /* seed 001 OP=5: "US_FC_OP_BREAKLOOP: same as jump but pops the loop
     * stacks if a pixel stops being active." Two of four pixels want to break
     * (ALU result), the others do not: no jump; the two leave the loop. */
    setup(&f, 4);
    f.st.int_const[0] = 0x000000ff;
    run(&f, 0, OP(LOOP), JADDR(9), 0);
    f.t.alu_result = L(0) | L(2);
    run(&f, 0, OP(BREAKLOOP) | JF(0xF0), JADDR(10), 3);
    assert_false(f.jumped);
    assert_int_equal(f.t.active & 0xF, L(1) | L(3));
    assert_int_equal(f.t.brk, L(0) | L(2));
    /* ... and come back when the loop ends (ENDLOOP with no jump pops). */
    f.t.alu_result = 0;
    run(&f, 0, OP(ENDLOOP) | JF(0x00) | JUMP_ANY, JADDR(1), 9);
    assert_false(f.jumped);
    assert_int_equal(f.t.active & 0xF, 0xF);
    assert_int_equal(f.t.loop_depth, 0);
    /* seed 004: "FC_OP_BREAKLOOP = Pop loop stack if jump": all want to break. */
    setup(&f, 4);
    f.st.int_const[0] = 0x000000ff;
    run(&f, 0, OP(LOOP), JADDR(9), 0);
    run(&f, 0, OP(BREAKLOOP) | JF(0xFF), JADDR(10), 3);
    assert_true(f.jumped);
    assert_int_equal(f.next, 10);
    assert_int_equal(f.t.loop_depth, 0);
}

static void op_breakrep(void **s)
{
    (void)s;
    fx f;
    /* seed 001 OP=6: "US_FC_OP_BREAKREP: same as breakloop but don't pop the
     * loop register if it jumps." A REP inside a LOOP (aL=4): after BREAKREP
     * jumps out of the REP, aL is still the LOOP's 4. seed 004:
     * "FC_OP_BREAKREP = Pop loop stack if jump". */
    setup(&f, 4);
    f.st.int_const[0] = 0x000004ff;
    run(&f, 0, OP(LOOP), JADDR(20), 0);
    run(&f, 0, OP(REP), JADDR(10), 1);
    assert_int_equal(f.t.loop_depth, 2);
    run(&f, 0, OP(BREAKREP) | JF(0xFF), JADDR(11), 2);
    assert_true(f.jumped);
    assert_int_equal(f.t.loop_depth, 1);
    assert_int_equal(f.t.aL, 4);
}

static void op_continue(void **s)
{
    (void)s;
    fx f;
    /* seed 001 OP=7: "US_FC_OP_CONTINUE: used to disable pixels that are
     * ready to jump to the ENDLOOP/ENDREP instruction." seed 004:
     * "FC_OP_CONTINUE = Disable processors until end of current loop". */
    setup(&f, 4);
    f.st.int_const[0] = 0x000000ff;
    run(&f, 0, OP(LOOP), JADDR(9), 0);
    f.t.alu_result = L(1);
    run(&f, 0, OP(CONTINUE) | JF(0xF0), JADDR(9), 4);
    assert_false(f.jumped);
    assert_int_equal(f.t.active & 0xF, 0xD);
    assert_int_equal(f.t.cont, L(1));
    /* The continued pixel takes part again at the ENDLOOP: it is active in the
     * next iteration. */
    run(&f, 0, OP(ENDLOOP) | JF(0xFF) | JUMP_ANY, JADDR(1), 9);
    assert_true(f.jumped);
    assert_int_equal(f.t.active & 0xF, 0xF);
    assert_int_equal(f.t.cont, 0);
}

/* ------------------------------------------------------------ B_ELSE ---- */

static void b_else(void **s)
{
    (void)s;
    fx f;
    /* seed 001 B_ELSE=0: "Don't alter the branch state before executing the
     * instruction." */
    setup(&f, 4);
    deact(&f, 1, 0);
    run(&f, 0, OP(JUMP), JADDR(9), 0);
    assert_int_equal(f.t.active & 0xF, 0xD);
    /* B_ELSE=1: "pixels in the active state are moved to the branch inactive
     * state with zero counter, and vice versa." seed 004: "Activate processors
     * whose branch count is zero ..., and deactivate all processors that were
     * active." Lane 2 has counter 1: stays inactive. */
    setup(&f, 4);
    deact(&f, 1, 0);
    deact(&f, 2, 1);
    run(&f, 0, OP(JUMP) | B_ELSE, JADDR(9), 0);
    assert_int_equal(f.t.active & 0xF, L(1));
    assert_int_equal(f.t.branch & 0xF, L(0) | L(2) | L(3));
    assert_int_equal(r500_fc_counter(&f.t, 0), 0);
    assert_int_equal(r500_fc_counter(&f.t, 3), 0);
    assert_int_equal(r500_fc_counter(&f.t, 2), 1);
}

/* seed 004: "Any processors deactivated by B_ELSE 'want to jump' regardless
 * of JUMP_FUNC." With JUMP_ANY=1 and JUMP_FUNC=0, the active pixel (lane 1)
 * does not want to jump, but the else'd pixels do: the thread jumps. */
static void b_else_wants(void **s)
{
    (void)s;
    fx f;
    setup(&f, 4);
    deact(&f, 1, 0);
    run(&f, 0, OP(JUMP) | B_ELSE | JUMP_ANY | JF(0x00), JADDR(9), 0);
    assert_true(f.jumped);
    /* Same with JUMP_ANY=0: the one active pixel does not want to: no jump. */
    setup(&f, 4);
    deact(&f, 1, 0);
    run(&f, 0, OP(JUMP) | B_ELSE | JF(0x00), JADDR(9), 0);
    assert_false(f.jumped);
}

/* ---------------------------------------------------------- JUMP_ANY ---- */

static void jump_any(void **s)
{
    (void)s;
    fx f;
    /* JUMP_ANY=0: "Jump if ALL active pixels want to take the jump (for if and
     * else)." Lanes 0,1 want (ALU result), lane 2 does not: no jump. */
    setup(&f, 3);
    f.t.alu_result = L(0) | L(1);
    run(&f, 0, OP(JUMP) | JF(0xF0), JADDR(9), 0);
    assert_false(f.jumped);
    /* lane 2 inactive: all *active* pixels want: jump */
    deact(&f, 2, 0);
    run(&f, 0, OP(JUMP) | JF(0xF0), JADDR(9), 0);
    assert_true(f.jumped);
    /* "If no pixels are active, jump." */
    setup(&f, 3);
    f.t.active = 0;
    run(&f, 0, OP(JUMP) | JF(0x00), JADDR(9), 0);
    assert_true(f.jumped);
    /* JUMP_ANY=1: "Jump if ANY active pixels want to take the jump (for call,
     * loop/rep and endrep/endloop)." */
    setup(&f, 3);
    f.t.alu_result = L(2);
    run(&f, 0, OP(JUMP) | JF(0xF0) | JUMP_ANY, JADDR(9), 0);
    assert_true(f.jumped);
    f.t.alu_result = 0;
    run(&f, 0, OP(JUMP) | JF(0xF0) | JUMP_ANY, JADDR(9), 0);
    assert_false(f.jumped);
    /* "If no pixels are active, do not jump." */
    setup(&f, 3);
    f.t.active = 0;
    run(&f, 0, OP(JUMP) | JF(0xFF) | JUMP_ANY, JADDR(9), 0);
    assert_false(f.jumped);
}

/* -------------------------------------------------------------- A_OP ---- */

static void a_op(void **s)
{
    (void)s;
    fx f;
    setup(&f, 4);
    /* A_OP=2: "US_FC_A_OP_PUSH: If we jump, push the current address onto the
     * address stack"; seed 004: "FC_A_OP_PUSH = Push address stack if jump"
     * (default push-addr=next: pc+1 so a POP returns after it) */
    run(&f, 0, OP(JUMP) | JF(0xFF) | A_OP(2), JADDR(20), 5);
    assert_true(f.jumped);
    assert_int_equal(f.next, 20);
    assert_int_equal(f.t.addr_depth, 1);
    assert_int_equal(f.t.addr[0], 6);
    /* A_OP=0: "US_FC_A_OP_NONE: Don't change the address stack" */
    run(&f, 0, OP(JUMP) | JF(0xFF), JADDR(30), 20);
    assert_int_equal(f.t.addr_depth, 1);
    /* A_OP=1: "US_FC_A_OP_POP: If we jump, pop the address stack and use that
     * value for the jump target" (seed 004: "overrides JUMP_ADDR given in
     * instruction") */
    run(&f, 0, OP(JUMP) | JF(0xFF) | A_OP(1), JADDR(99), 31);
    assert_true(f.jumped);
    assert_int_equal(f.next, 6);
    assert_int_equal(f.t.addr_depth, 0);
    /* no jump: no push */
    run(&f, 0, OP(JUMP) | JF(0x00) | A_OP(2), JADDR(20), 5);
    assert_int_equal(f.t.addr_depth, 0);
}

/* --------------------------------------------------------- JUMP_FUNC ---- */

static void jump_func(void **s)
{
    (void)s;
    /* seed 001 JUMP_FUNC: "To determine whether to jump, look at bit
     * ((alu_result<<2) | (predicate<<1) | bool)." For each of the 8 table
     * entries alone, only the matching (alu, pred, bool) combination jumps. */
    for (unsigned bit = 0; bit < 8; bit++) {
        for (unsigned combo = 0; combo < 8; combo++) {
            fx f;
            setup(&f, 1);
            f.t.alu_result = (combo >> 2) & 1;
            f.t.pred[1] = (combo >> 1) & 1; /* predicate from G via RGB_PRED_SEL=GGGG */
            f.st.bool_const = (combo & 1) ? (1u << 7) : 0; /* BOOL_ADDR = 7 */
            run(&f, 3u << 3 /* GGGG */, OP(JUMP) | JF(1u << bit), 7u | JADDR(9), 0);
            assert_int_equal(f.jumped, bit == combo);
        }
    }
    /* RGB_PRED_INV inverts the FC predicate. */
    fx f;
    setup(&f, 1);
    f.t.pred[3] = 0;
    run(&f, (5u << 3) | (1u << 6) /* AAAA, inv */, OP(JUMP) | JF(0xCC), JADDR(9), 0);
    assert_true(f.jumped);
    /* BOOL_ADDR: "Which of 32 constant booleans to use for jump condition." */
    setup(&f, 1);
    f.st.bool_const = 1u << 31;
    run(&f, 0, OP(JUMP) | JF(0xAA), 31u | JADDR(9), 0);
    assert_true(f.jumped);
    run(&f, 0, OP(JUMP) | JF(0xAA), 30u | JADDR(9), 0);
    assert_false(f.jumped);
}

/* ------------------------------------------------- B_OP0 / B_OP1 ---- */

static void b_ops(void **s)
{
    (void)s;
    fx f;
    /* B_OP0=NONE: "If we don't jump, don't alter the branch counter for any pixel." */
    setup(&f, 4);
    deact(&f, 3, 2);
    run(&f, 0, OP(JUMP) | JF(0x00) | BOP0(NONE) | POPC(1), JADDR(9), 0);
    assert_int_equal(r500_fc_counter(&f.t, 3), 2);
    /* B_OP0=DECR: "If we don't jump, decrement branch counter by B_POP_CNT for
     * inactive pixels. Activate pixels with negative counters." B_POP_CNT: "The
     * amount to decrement the branch counter by". Counters 0,1,3 minus 2.
     * seed 004 (B_OP0, "if stay"): "FC_B_OP_DECR = Decrement branch counter for
     * inactive processors by amount in B_POP_CNT. Activate processors which go
     * negative." */
    setup(&f, 4);
    deact(&f, 1, 0);
    deact(&f, 2, 1);
    deact(&f, 3, 3);
    run(&f, 0, OP(JUMP) | JF(0x00) | BOP0(DECR) | POPC(2), JADDR(9), 0);
    assert_false(f.jumped);
    assert_int_equal(f.t.active & 0xF, L(0) | L(1) | L(2));
    assert_int_equal(r500_fc_counter(&f.t, 3), 1);
    /* B_OP0=INCR: "If we don't jump, increment branch counter by 1 for inactive
     * pixels. Deactivate pixels that decided to jump and set their counter to
     * zero." Lanes 0,1 want to jump (ALU), 2,3 don't: no jump (ALL).
     * seed 004: "FC_B_OP_INCR = Increment branch counter for inactive processors
     * by 1. Deactivate processors which disagree with the jump decision (by
     * deciding to jump) and set their branch counter to 0." */
    setup(&f, 5);
    deact(&f, 4, 2);
    f.t.alu_result = L(0) | L(1);
    run(&f, 0, OP(JUMP) | JF(0xF0) | BOP0(INCR), JADDR(9), 0);
    assert_false(f.jumped);
    assert_int_equal(f.t.active & 0x1F, L(2) | L(3));
    assert_int_equal(r500_fc_counter(&f.t, 0), 0);
    assert_int_equal(r500_fc_counter(&f.t, 1), 0);
    assert_int_equal(r500_fc_counter(&f.t, 4), 3);
    /* B_OP1=NONE: "If we do jump, don't alter the branch counter for any pixel." */
    setup(&f, 4);
    deact(&f, 3, 2);
    run(&f, 0, OP(JUMP) | JF(0xFF) | BOP1(NONE), JADDR(9), 0);
    assert_true(f.jumped);
    assert_int_equal(r500_fc_counter(&f.t, 3), 2);
    /* B_OP1=DECR: "If we do jump, decrement branch counter by B_POP_CNT for
     * inactive pixels. Activate pixels with negative counters." seed 004
     * (B_OP1, "if jump"): same DECR sentence as for B_OP0. */
    setup(&f, 4);
    deact(&f, 2, 0);
    deact(&f, 3, 1);
    run(&f, 0, OP(JUMP) | JF(0xFF) | BOP1(DECR) | POPC(1), JADDR(9), 0);
    assert_true(f.jumped);
    assert_int_equal(f.t.active & 0xF, 0x7);
    assert_int_equal(r500_fc_counter(&f.t, 3), 0);
    /* B_OP1=INCR: "If we do jump, increment branch counter by 1 for inactive
     * pixels. Deactivate pixels that decided not to jump and set their counter
     * to zero." JUMP_ANY=1: lane 0 wants, lane 1 doesn't -> jump; lane 1 goes.
     * seed 004: "Deactivate processors which disagree with the jump decision
     * (by deciding not to jump) and set their branch counter to 0." */
    setup(&f, 3);
    deact(&f, 2, 4);
    f.t.alu_result = L(0);
    run(&f, 0, OP(JUMP) | JUMP_ANY | JF(0xF0) | BOP1(INCR), JADDR(9), 0);
    assert_true(f.jumped);
    assert_int_equal(f.t.active & 7, L(0));
    assert_int_equal(r500_fc_counter(&f.t, 1), 0);
    assert_int_equal(r500_fc_counter(&f.t, 2), 5);
}

/* --------------------------------------------------- IGNORE_UNCOVERED ---- */

static void ignore_uncovered(void **s)
{
    (void)s;
    fx f;
    /* IGNORE_UNCOVERED=0: "Include uncovered pixels in jump decisions". Lane 1
     * is uncovered and does not want to jump: no jump (ALL). */
    setup(&f, 2);
    f.t.covered = L(0);
    f.t.alu_result = L(0);
    run(&f, 0, OP(JUMP) | JF(0xF0), JADDR(9), 0);
    assert_false(f.jumped);
    /* IGNORE_UNCOVERED=1: "Ignore uncovered pixels in making jump decisions" */
    run(&f, 0, OP(JUMP) | JF(0xF0) | IGN, JADDR(9), 0);
    assert_true(f.jumped);
}

/* ------------------------------------------------------ special cases ---- */

static void special_counts(void **s)
{
    (void)s;
    fx f;
    /* seed 004: "When the iteration count is zero, LOOP/REP ignore JUMP_FUNC
     * and jump." (JUMP_FUNC 0x00 would never jump.) */
    for (int rep = 0; rep < 2; rep++) {
        setup(&f, 4);
        f.st.int_const[3] = 0;
        run(&f, 0, OP(rep ? REP : LOOP) | JF(0x00), INT_ADDR(3) | JADDR(8), 2);
        assert_true(f.jumped);
        assert_int_equal(f.next, 8);
        /* "When the iteration count is zero, ENDLOOP/ENDREP ignore JUMP_FUNC and
         * don't jump." The ENDLOOP the LOOP jumped to falls through (JUMP_FUNC
         * 0xFF, JUMP_ANY with active pixels would jump). */
        run(&f, 0, OP(rep ? ENDREP : ENDLOOP) | JF(0xFF) | JUMP_ANY, INT_ADDR(3) | JADDR(3), 8);
        assert_int_equal(f.rc, LS_OK);
        assert_false(f.jumped);
        assert_int_equal(f.next, 9);
        assert_int_equal(f.t.loop_depth, 0);
    }
    /* A count that reaches zero at ENDLOOP: no jump despite JUMP_FUNC 0xFF. */
    setup(&f, 4);
    f.st.int_const[0] = 1;
    run(&f, 0, OP(LOOP), JADDR(5), 0);
    run(&f, 0, OP(ENDLOOP) | JF(0xFF) | JUMP_ANY, JADDR(1), 5);
    assert_false(f.jumped);
}

static void special_inhibit(void **s)
{
    (void)s;
    fx f;
    /* seed 004: "Any processors deactivated by a branching statement (if,
     * else) will inhibit a decision to jump by a BREAK or CONTINUE statement." */
    for (int cont = 0; cont < 2; cont++) {
        setup(&f, 4);
        f.st.int_const[0] = 0xff;
        run(&f, 0, OP(LOOP), JADDR(9), 0);
        f.t.alu_result = L(0) | L(1); /* IF deactivates lanes 2,3 */
        run(&f, 0, OP(JUMP) | JF(0x0F) | BOP0(INCR) | BOP1(INCR), JADDR(4), 1);
        assert_false(f.jumped);
        assert_int_equal(f.t.branch, L(2) | L(3));
        run(&f, 0, OP(cont ? CONTINUE : BREAKLOOP) | JF(0xFF) | BOP1(DECR) | POPC(1),
            JADDR(cont ? 9 : 10), 2);
        assert_false(f.jumped);
        assert_int_equal(f.t.active & 0xF, 0);
    }
    /* "Any processors deactivated by a CONTINUE statement will inhibit a
     * decision to jump by a BREAK statement; they will not inhibit a decision
     * to jump by another CONTINUE statement." */
    setup(&f, 4);
    f.st.int_const[0] = 0xff;
    run(&f, 0, OP(LOOP), JADDR(9), 0);
    f.t.alu_result = L(3);
    run(&f, 0, OP(CONTINUE) | JF(0xF0), JADDR(9), 1); /* lane 3 continues */
    assert_int_equal(f.t.cont, L(3));
    run(&f, 0, OP(BREAKLOOP) | JF(0xFF), JADDR(10), 2);
    assert_false(f.jumped); /* inhibited by lane 3 */
    setup(&f, 4);
    f.st.int_const[0] = 0xff;
    run(&f, 0, OP(LOOP), JADDR(9), 0);
    f.t.alu_result = L(3);
    run(&f, 0, OP(CONTINUE) | JF(0xF0), JADDR(9), 1);
    run(&f, 0, OP(CONTINUE) | JF(0xFF), JADDR(9), 2);
    assert_true(f.jumped); /* not inhibited */
    assert_int_equal(f.next, 9);
    /* "Processors deactivated by other flow control are indifferent to the
     * decision to jump by a BREAK or CONTINUE statement." A pixel that broke
     * earlier (BREAK-inactive) does not stop a later BREAK from jumping. */
    setup(&f, 4);
    f.st.int_const[0] = 0xff;
    run(&f, 0, OP(LOOP), JADDR(9), 0);
    f.t.alu_result = L(0);
    run(&f, 0, OP(BREAKLOOP) | JF(0xF0), JADDR(10), 1);
    assert_false(f.jumped);
    assert_int_equal(f.t.brk, L(0));
    run(&f, 0, OP(BREAKLOOP) | JF(0xFF), JADDR(10), 2);
    assert_true(f.jumped);
    assert_int_equal(f.t.active & 0xF, 0xF); /* the loop is left by everyone */
}

/* ------------------------------------------------ addresses, faults ---- */

static void addresses(void **s)
{
    (void)s;
    fx f;
    /* US_FC_ADDR JUMP_GLOBAL (r500.md §1.8): 0 adds US_CODE_OFFSET, 1 is absolute. */
    setup(&f, 1);
    f.st.code_offset = 100;
    run(&f, 0, OP(JUMP) | JF(0xFF), JADDR(5), 100);
    assert_int_equal(f.next, 105);
    run(&f, 0, OP(JUMP) | JF(0xFF), JADDR(5) | GLOBAL, 100);
    assert_int_equal(f.next, 5);
    /* a jump outside US_CODE_RANGE is a fault naming the instruction */
    setup(&f, 1);
    f.st.code_range = 10u << 16; /* 0..10 */
    run(&f, 0, OP(JUMP) | JF(0xFF), JADDR(40), 3);
    assert_int_equal(f.rc, LS_ERR_FAULT);
    assert_int_equal(f.d.index, 3);
}

static void faults(void **s)
{
    (void)s;
    fx f;
    struct {
        uint32_t cmn, inst, addr;
        const char *what;
    } rows[] = {
        {0, OP(JUMP) | JF(0xFF) | A_OP(3), 0, "A_OP=3"},
        {0, OP(JUMP) | BOP0(3), 0, "B_OP=3"},
        {0, OP(JUMP) | JF(0xFF) | BOP1(3), 0, "B_OP=3"},
        {0, OP(ENDLOOP) | JF(0xFF), 0, "underflow"},
        {0, OP(BREAKLOOP), 0, "underflow"},
        {0, OP(JUMP) | JF(0xFF) | A_OP(1), 0, "underflow"},
        {1u << 3, OP(JUMP), 0, "replicate"},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        setup(&f, 4);
        run(&f, rows[i].cmn, rows[i].inst, rows[i].addr, 7);
        assert_int_equal(f.rc, LS_ERR_FAULT);
        assert_int_equal(f.d.index, 7);
        assert_non_null(strstr(f.d.msg, rows[i].what));
    }
    /* loop stack overflow (default depth 4) */
    setup(&f, 4);
    f.st.int_const[0] = 0xff;
    for (int k = 0; k < 4; k++) {
        run(&f, 0, OP(LOOP), JADDR(9), (unsigned)k);
        assert_int_equal(f.rc, LS_OK);
    }
    run(&f, 0, OP(LOOP), JADDR(9), 4);
    assert_int_equal(f.rc, LS_ERR_FAULT);
    assert_non_null(strstr(f.d.msg, "overflow"));
    /* address stack overflow */
    setup(&f, 4);
    for (int k = 0; k < 5; k++)
        run(&f, 0, OP(JUMP) | JF(0xFF) | A_OP(2), JADDR(9), 1);
    assert_int_equal(f.rc, LS_ERR_FAULT);
    /* branch counter overflow (partial mode: counters up to 3) */
    setup(&f, 2);
    f.st.fc_ctrl = 0;
    deact(&f, 1, 3);
    run(&f, 0, OP(JUMP) | JF(0x00) | BOP0(INCR), JADDR(9), 2);
    assert_int_equal(f.rc, LS_ERR_FAULT);
    /* partial mode: "no loops or subroutines" */
    setup(&f, 2);
    f.st.fc_ctrl = 0;
    f.st.int_const[0] = 1;
    run(&f, 0, OP(LOOP), JADDR(9), 2);
    assert_int_equal(f.rc, LS_ERR_FAULT);
    assert_non_null(strstr(f.d.msg, "full flow-control"));
}

/* Counters at the full width: full mode counts up to branch-counter-max
 * (default 255) and faults one above; the option's range is the counter's. */
static void counters_full_width(void **s)
{
    (void)s;
    fx f;
    setup(&f, 8);
    deact(&f, 1, 253);
    deact(&f, 6, 200);
    run(&f, 0, OP(JUMP) | JF(0x00) | BOP0(INCR), JADDR(9), 2);
    run(&f, 0, OP(JUMP) | JF(0x00) | BOP0(INCR), JADDR(9), 3);
    assert_int_equal(f.rc, LS_OK);
    assert_int_equal(r500_fc_counter(&f.t, 1), 255);
    assert_int_equal(r500_fc_counter(&f.t, 6), 202);
    run(&f, 0, OP(JUMP) | JF(0x00) | BOP0(INCR), JADDR(9), 4);
    assert_int_equal(f.rc, LS_ERR_FAULT);
    assert_non_null(strstr(f.d.msg, "branch counter overflow"));
    setup(&f, 8);
    deact(&f, 1, 255);
    deact(&f, 2, 30);
    run(&f, 0, OP(JUMP) | JF(0x00) | POPC(31) | BOP0(DECR), JADDR(9), 2);
    assert_int_equal(r500_fc_counter(&f.t, 1), 224);
    assert_true(f.t.active & L(2)); /* 30 - 31 < 0: active again, counter 0 */
    assert_int_equal(r500_fc_counter(&f.t, 2), 0);
    r500_fc_options o;
    r500_fc_options_default(&o);
    assert_int_equal(r500_fc_options_set(&o, "branch-counter-max", "255", &f.d), LS_OK);
    assert_int_equal(r500_fc_options_set(&o, "branch-counter-max", "256", &f.d), LS_ERR_ARG);
    assert_non_null(strstr(f.d.msg, "1..255"));
}

/* Random JUMPs with every B_OP/B_POP_CNT/B_ELSE combination on 64 lanes
 * with random counters, checked lane by lane against the seed sentences
 * written out per pixel here (seed 001 B_OP0/B_OP1, B_ELSE; CTM p.41), with
 * fc.c's jump decision as the input: "increment branch counter by 1 for
 * inactive pixels; deactivate pixels that disagree and set their counter to
 * zero"; "decrement branch counter by B_POP_CNT for inactive pixels; activate
 * pixels with negative counters"; B_ELSE swaps active and zero-counter
 * branch-inactive pixels. */
static void counters_random_reference(void **s)
{
    (void)s;
    uint64_t rng = 0x5eed0c0u;
    for (unsigned trial = 0; trial < 200; trial++) {
        fx f;
        setup(&f, 64);
        bool act[64], br[64], kil[64];
        unsigned cnt[64];
        for (unsigned l = 0; l < 64; l++) {
            uint64_t r = ls_test_rand(&rng);
            act[l] = r % 3 == 0;
            br[l] = !act[l];
            kil[l] = (r >> 8) % 9 == 0;
            unsigned top = (r >> 16) % 4 == 0 ? 256 : 6; /* mostly small, some wide */
            cnt[l] = br[l] ? (unsigned)((r >> 24) % top) : 0;
            if (br[l])
                deact(&f, l, cnt[l]);
            if (kil[l])
                f.t.killed |= L(l);
        }
        for (unsigned step = 0; step < 12; step++) {
            uint64_t r = ls_test_rand(&rng);
            unsigned b0 = (unsigned)(r % 3), b1 = (unsigned)((r >> 2) % 3);
            unsigned pop = (unsigned)((r >> 4) % 32), jf = (r >> 9) & 1 ? 0xF0 : 0x0F;
            bool belse = (r >> 10) % 4 == 0, any = (r >> 12) & 1;
            f.t.alu_result = ls_test_rand(&rng);
            run(&f, 0,
                OP(JUMP) | JF(jf) | POPC(pop) | BOP0(b0) | BOP1(b1) | (belse ? B_ELSE : 0) |
                    (any ? JUMP_ANY : 0),
                JADDR(9), 2);
            /* the reference */
            if (belse) {
                bool a2[64], b2[64];
                for (unsigned l = 0; l < 64; l++) {
                    a2[l] = act[l];
                    b2[l] = br[l];
                    if (act[l] && !kil[l]) {
                        a2[l] = false, b2[l] = true, cnt[l] = 0;
                    } else if (br[l] && !kil[l] && cnt[l] == 0) {
                        a2[l] = true, b2[l] = false;
                    }
                }
                memcpy(act, a2, sizeof act);
                memcpy(br, b2, sizeof br);
            }
            if (f.rc != LS_OK) {
                /* a fault leaves the decision unknown: it must be an INCR
                 * (of either B_OP) meeting a counter at the maximum */
                bool full = false;
                for (unsigned l = 0; l < 64; l++)
                    full |= br[l] && cnt[l] == 255;
                if (!full || (b0 != INCR && b1 != INCR))
                    fail_msg("trial %u step %u: %s", trial, step, f.d.msg);
                assert_non_null(strstr(f.d.msg, "branch counter overflow"));
                break;
            }
            unsigned bop = f.jumped ? b1 : b0;
            bool overflow = false;
            if (bop == INCR) {
                bool dis[64];
                for (unsigned l = 0; l < 64; l++) {
                    bool want = jf == 0xF0 ? (f.t.alu_result >> l) & 1 : !((f.t.alu_result >> l) & 1);
                    dis[l] = act[l] && !kil[l] && (f.jumped ? !want : want);
                    if (br[l] && ++cnt[l] > 255)
                        overflow = true;
                }
                for (unsigned l = 0; l < 64; l++)
                    if (dis[l])
                        act[l] = false, br[l] = true, cnt[l] = 0;
            } else if (bop == DECR) {
                for (unsigned l = 0; l < 64; l++) {
                    if (!br[l])
                        continue;
                    if (cnt[l] < pop)
                        br[l] = false, act[l] = true, cnt[l] = 0;
                    else
                        cnt[l] -= pop;
                }
            }
            if (overflow)
                fail_msg("trial %u step %u: INCR of a counter at 255 did not fault", trial, step);
            for (unsigned l = 0; l < 64; l++) {
                if (act[l] != (bool)((f.t.active >> l) & 1) ||
                    br[l] != (bool)((f.t.branch >> l) & 1) ||
                    (br[l] && cnt[l] != r500_fc_counter(&f.t, l)))
                    fail_msg("trial %u step %u lane %u: reference active %d branch %d counter %u,"
                             " fc.c %d %d %u",
                             trial, step, l, act[l], br[l], cnt[l],
                             (int)((f.t.active >> l) & 1), (int)((f.t.branch >> l) & 1),
                             r500_fc_counter(&f.t, l));
            }
        }
    }
}

/* Two threads never share state: the thread is the whole context. */
static void threads_independent(void **s)
{
    (void)s;
    fx a, b;
    setup(&a, 64);
    setup(&b, 48);
    a.st.int_const[0] = b.st.int_const[0] = 0xff;
    run(&a, 0, OP(LOOP), JADDR(9), 0);
    assert_int_equal(a.t.loop_depth, 1);
    assert_int_equal(b.t.loop_depth, 0);
    assert_int_equal(b.t.lanes, (((ls_lanes)1 << 48) - 1));
    assert_int_equal(a.t.lanes, ~(ls_lanes)0);
}

static void options(void **s)
{
    (void)s;
    r500_fc_options o;
    r500_fc_options_default(&o);
    ls_diag d;
    assert_int_equal(r500_fc_options_set(&o, "loop-trips", "kr+1", &d), LS_OK);
    assert_int_equal(o.loop_trips_extra, 1);
    assert_int_equal(r500_fc_options_set(&o, "loop-trips", "7", &d), LS_ERR_ARG);
    assert_non_null(strstr(d.msg, "kr|kr+1"));
    assert_int_equal(r500_fc_options_set(&o, "nope", "1", &d), LS_ERR_ARG);
    r500_fc_option_info info;
    unsigned n = 0;
    while (r500_fc_option_info_at(n, &info)) {
        assert_non_null(info.help);
        n++;
    }
    assert_true(n >= 10);

    /* Every catalogue entry: its documented default, set by name, gives the
     * defaults struct back, and docs/assumptions.md documents it. */
    char path[1024];
    snprintf(path, sizeof path, "%s/docs/assumptions.md", ls_test_source_root());
    ls_buf doc;
    ls_buf_init(&doc);
    assert_true(ls_read_file(path, &doc));
    r500_fc_options dflt, x;
    r500_fc_options_default(&dflt);
    r500_fc_options_default(&x);
    for (unsigned i = 0; r500_fc_option_info_at(i, &info); i++) {
        assert_int_equal(r500_fc_option_set(&x, info.name, info.dflt, &d), LS_OK);
        char quoted[80];
        snprintf(quoted, sizeof quoted, "`%s`", info.name);
        if (!strstr(doc.data, quoted))
            fail_msg("option %s is not documented in docs/assumptions.md", info.name);
    }
    assert_memory_equal(&x, &dflt, sizeof x);
    ls_buf_free(&doc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(op_jump),         cmocka_unit_test(op_loop),
        cmocka_unit_test(op_endloop),      cmocka_unit_test(op_rep),
        cmocka_unit_test(op_breakloop),    cmocka_unit_test(op_breakrep),
        cmocka_unit_test(op_continue),     cmocka_unit_test(b_else),
        cmocka_unit_test(b_else_wants),    cmocka_unit_test(jump_any),
        cmocka_unit_test(a_op),            cmocka_unit_test(jump_func),
        cmocka_unit_test(b_ops),           cmocka_unit_test(ignore_uncovered),
        cmocka_unit_test(special_counts),  cmocka_unit_test(special_inhibit),
        cmocka_unit_test(addresses),       cmocka_unit_test(faults),
        cmocka_unit_test(threads_independent), cmocka_unit_test(options),
        cmocka_unit_test(counters_full_width), cmocka_unit_test(counters_random_reference),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
