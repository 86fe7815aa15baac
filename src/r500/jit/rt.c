/* The R500 JIT's run-time rules (docs/r500-jit.md, "Flow control"): not
 * linked into any library. The build compiles this file, with the FC unit's
 * own source (fc.c, included below), to LLVM bitcode with clang
 * (src/r500/meson.build, rt_bc); jit.c loads that bitcode into every module
 * it compiles and inlines these functions into the compiled program, where
 * the instruction, the FC registers and the FC options are constants. The
 * compiled code therefore executes fc.c's r500_fc_exec and exec_internal.h's
 * issue accounting themselves, specialised per instruction by LLVM, not a
 * second copy of their rules. */
#include "../exec_internal.h"

/* fc.c's stacks and counter planes: in the worker's thread, which compiled
 * code's local copy of the thread (r500_jit_fc) names */
#define R500_FC_STK(t) (((r500_jit_fc *)(t))->mem)
#include "../fc.c"

/* A run of len compiled instructions, n_out of them OUT, is about to issue
 * (exec_internal.h's r500_seg_issue). The run's ALU and FC instructions are
 * counted when the compiled code leaves (r500_jit_rt_leave): one add per
 * run fewer. counters: the run ends with an FC instruction that counts
 * branch counters (B_OP INCR or DECR) or reads them (B_ELSE) in a program
 * with a loop (jit.c's counting_compiled: in one without, counters_op is
 * inlined and counters is 0); while any pixel of the thread has a non-zero
 * counter (cbits), such a run is left to the interpreter, so that in the
 * compiled FC instruction no counter plane exists: fc.c's rules then need
 * no call (branch_op), around which every vector register would be
 * saved. */
bool r500_jit_rt_begin(r500_seg_ctx *c, uint32_t len, uint32_t n_out, uint32_t counters);
/* Execute the FC instruction in at slot pc as exec.c's step does after its
 * issue accounting: r500_fc_exec, the jump counts, a fault recorded for the
 * thread of the worker's context w (R500_SEG_STOP). The next slot. */
uint32_t r500_jit_rt_fc(r500_seg_ctx *w, r500_seg_ctx *c, const r500_fc_inst *in,
                        const r500_fc_state *st, const r500_fc_options *o, uint32_t pc);

bool r500_jit_rt_begin(r500_seg_ctx *c, uint32_t len, uint32_t n_out, uint32_t counters)
{
    if (counters && c->fc->cbits)
        return false;
    if (!r500_seg_issue(c, len))
        return false;
    c->st->inst_out += n_out;
    return true;
}

uint32_t r500_jit_rt_fc(r500_seg_ctx *w, r500_seg_ctx *c, const r500_fc_inst *in,
                        const r500_fc_state *st, const r500_fc_options *o, uint32_t pc)
{
    unsigned next = pc + 1;
    bool jumped = false;
    ls_diag d;
    if (r500_fc_exec(c->fc, in, st, o, pc, &next, &jumped, &d)) {
        r500_exec_seg_fault(w, pc, R500_FAULT_FC, &d);
        c->st->inst_fc++; /* issued, neither taken nor not (leave) */
        return R500_SEG_STOP;
    }
    if (jumped)
        c->st->fc_jumps_taken++;
    else
        c->st->fc_jumps_not_taken++;
    return next;
}

/* TEXKILL at the end of a run (its issue accounting is the run's, through
 * r500_jit_rt_begin): the lanes whose coordinates are below zero, which the
 * compiled code computed (exec_internal.h's r500_texkill_lo/_span compare
 * on each block), killed where the thread's active lanes of the run and the
 * predicate allow (exec_internal.h's r500_texkill_apply). */
void r500_jit_rt_kill(r500_seg_ctx *c, uint64_t kill, uint32_t pred_sel, uint32_t pred_inv);

void r500_jit_rt_kill(r500_seg_ctx *c, uint64_t kill, uint32_t pred_sel, uint32_t pred_inv)
{
    r500_texkill_apply(c->fc, kill, c->active, pred_sel, pred_inv);
    c->st->inst_tex++;
}

/* The compiled program keeps the context, the thread's issue state, its
 * counts and its FC state (but the counter planes and stacks) in locals
 * (which LLVM keeps in registers) while it runs: enter copies them in (cl,
 * tsl, fcl; stl counts from 0); leave gives back what compiled code changes
 * (before an interpreter step and on return); reenter takes the issue and FC
 * state again after a step. Compiled runs count their OUT instructions
 * (r500_jit_rt_begin), their TEXKILLs (r500_jit_rt_kill) and their FC
 * instructions' jumps taken or not (r500_jit_rt_fc, and inst_fc the one
 * that faulted); leave derives the FC count from those and the ALU count
 * from the instructions issued since the copy took the thread's issue
 * state (issued_base), all of which are ALU, OUT, TEX(KILL) and FC. */
void r500_jit_rt_enter(r500_seg_ctx *c, r500_seg_ctx *cl, r500_thread_state *tsl,
                       r500_stats *stl, r500_jit_fc *fcl);
void r500_jit_rt_leave(r500_seg_ctx *c, r500_seg_ctx *cl);
void r500_jit_rt_reenter(r500_seg_ctx *c, r500_seg_ctx *cl);

/* the fields of r500_fc_thread a local copy holds (r500_jit_fc) */
#define FC_REGS offsetof(r500_fc_thread, cplane)

void r500_jit_rt_enter(r500_seg_ctx *c, r500_seg_ctx *cl, r500_thread_state *tsl,
                       r500_stats *stl, r500_jit_fc *fcl)
{
    *cl = *c;
    *tsl = *c->ts;
    memset(stl, 0, sizeof *stl);
    memcpy(&fcl->t, c->fc, FC_REGS);
    fcl->mem = c->fc;
    cl->ts = tsl;
    cl->st = stl;
    cl->fc = &fcl->t;
    cl->issued_base = tsl->issued;
}

void r500_jit_rt_leave(r500_seg_ctx *c, r500_seg_ctx *cl)
{
    /* compiled code changes only these (r500_seg_begin, FC instructions); a
     * fault recorded by r500_exec_seg_fault went to c's own state */
    memcpy(c->fc, cl->fc, FC_REGS);
    c->ts->issued = cl->ts->issued;
    c->ts->work_mask = cl->ts->work_mask;
    c->ts->work_count = cl->ts->work_count;
    r500_stats *s = c->st, *l = cl->st;
    const uint64_t fc = l->inst_fc + l->fc_jumps_taken + l->fc_jumps_not_taken;
    s->inst_alu += cl->ts->issued - cl->issued_base - fc - l->inst_out - l->inst_tex;
    s->inst_out += l->inst_out;
    s->inst_fc += fc;
    s->inst_tex += l->inst_tex;
    cl->issued_base = cl->ts->issued;
    s->fc_jumps_taken += l->fc_jumps_taken;
    s->fc_jumps_not_taken += l->fc_jumps_not_taken;
    s->lane_slots_active += l->lane_slots_active;
    l->inst_alu = l->inst_out = l->inst_fc = l->inst_tex = 0;
    l->fc_jumps_taken = l->fc_jumps_not_taken = 0;
    l->lane_slots_active = 0;
}

void r500_jit_rt_reenter(r500_seg_ctx *c, r500_seg_ctx *cl)
{
    *cl->ts = *c->ts;
    memcpy(cl->fc, c->fc, FC_REGS);
    cl->issued_base = cl->ts->issued;
}

/* The transcendental ALPHA_OPs on a block of 16 lanes (rt_trans.h): the
 * vector path's lanes, and r500_alu_transcendental itself (alu.c) on the
 * lanes it leaves (special values, inputs outside its range, results near a
 * float rounding boundary). */
#include "rt_trans.h"

void r500_jit_rt_trans_slow(uint32_t aop, const float *a, float *r, uint32_t m,
                            const r500_exec_options *o);
void r500_jit_rt_trans(uint32_t aop, const float *a, float *r, const r500_exec_options *o);

void r500_jit_rt_trans_slow(uint32_t aop, const float *a, float *r, uint32_t m,
                            const r500_exec_options *o)
{
    for (; m; m &= m - 1) {
        unsigned i = (unsigned)__builtin_ctz(m);
        r[i] = r500_alu_transcendental(aop, a[i], o);
    }
}

void r500_jit_rt_trans(uint32_t aop, const float *a, float *r, const r500_exec_options *o)
{
    uint32_t m = r500_rt_trans16(aop, a, r);
    if (__builtin_expect(m != 0, 0))
        r500_jit_rt_trans_slow(aop, a, r, m, o);
}
