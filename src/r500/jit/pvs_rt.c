/* The vertex JIT's run-time rules (docs/r500-jit.md, "The vertex JIT"): not
 * linked into any library. The build compiles this file, with the vertex
 * engine's own source (pvs_exec.c, included below), to LLVM bitcode with
 * clang (src/r500/meson.build, pvs_rt_bc); pvs_jit.c loads that bitcode into
 * every module it compiles and inlines r500_pvs_rt_me into the compiled
 * program once per vertex lane, with the operation a constant, so LLVM keeps
 * only that operation's case of the model's me_op (and its sat): the
 * math engine's rules (EXP/LOG/LIT/POW/RCP/RSQ/SIN/COS, the _FF infinity
 * rule, the shared rcp-zero/rsq-negative/ln2-zero options through alu.c's
 * r500_alu_transcendental, the PRED_SET counters) are pvs_exec.c's code, not
 * a second copy. */
#include "../pvs_exec.c"

/* The ME result of one vertex for operation op (never a faulting one: the
 * JIT compiles only programs that run without a fault), operands as step()
 * passes them (a, b, lit), saturated when sat_on; r[0..3] the result.
 * Returns bit 0: the operation writes (me_op's result), bit 1: the predicate
 * it sets (when it sets one). */
int r500_pvs_rt_me(unsigned op, float a, float b, float l0, float l1, float l2, int sat_on,
                   const r500_pvs_options *o, float *r);

int r500_pvs_rt_me(unsigned op, float a, float b, float l0, float l1, float l2, int sat_on,
                   const r500_pvs_options *o, float *r)
{
    vctx c = {.o = o, .consts = NULL, .st = NULL, .d = NULL, .pc = 0, .fault = LS_OK};
    float lit[3] = {l0, l1, l2};
    bool pred = false, sets = false;
    bool have = me_op(&c, op, a, b, lit, r, &pred, &sets);
    if (have)
        for (int k = 0; k < 4; k++)
            r[k] = sat(r[k], sat_on, o);
    return (int)have | (int)pred << 1;
}
