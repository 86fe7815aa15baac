/* fc.c's shortcut for threads without branch counters (branch_op, cbits 0)
 * against fc.c without it (R500_FC_SHORTCUT=0: every INCR and DECR through
 * counters_op): the same FC instructions on the same random threads —
 * masks, killed and uncovered pixels, 0 to 3 counter planes, 0 to 2 loop
 * frames, B_ELSE, predicates, the counter limit 0..2 and incr-scope
 * branch|all — must leave the same thread state, next slot, jump and
 * status. The copy without the shortcut is fc.c built again with its
 * external names prefixed fc_plain_ (tests/r500/meson.build). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "lockstep/r500_fc.h"

ls_status fc_plain_r500_fc_exec(r500_fc_thread *t, const r500_fc_inst *in,
                                const r500_fc_state *st, const r500_fc_options *o, unsigned pc,
                                unsigned *next_pc, bool *jumped, ls_diag *d);

static uint64_t rnd(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

static void random_thread(r500_fc_thread *t, uint64_t *s)
{
    memset(t, 0, sizeof *t);
    r500_fc_thread_init(t, 1 + (unsigned)(rnd(s) % 64), rnd(s));
    t->active = rnd(s) & t->lanes;
    t->branch = rnd(s) & t->lanes & ~t->active;
    if (rnd(s) & 1) {
        t->brk = rnd(s) & t->lanes & ~t->active & ~t->branch;
        t->cont = rnd(s) & t->lanes & ~t->active & ~t->branch & ~t->brk;
    }
    if (rnd(s) % 4 == 0)
        t->killed = rnd(s) & t->lanes;
    t->alu_result = rnd(s);
    for (unsigned k = 0; k < 4; k++)
        t->pred[k] = rnd(s);
    t->cbits = rnd(s) % 3 == 0 ? 1 + (unsigned)(rnd(s) % 3) : 0;
    for (unsigned k = 0; k < t->cbits; k++)
        t->cplane[k] = rnd(s) & t->lanes;
    t->loop_depth = (unsigned)(rnd(s) % 3);
    for (unsigned k = 0; k < t->loop_depth; k++) {
        t->loop[k].count = (uint16_t)(rnd(s) % 4);
        t->loop[k].brk = rnd(s) & t->lanes;
        t->loop[k].cont = rnd(s) & t->lanes;
        t->loop[k].outside = rnd(s) & t->lanes;
        t->loop[k].is_loop = rnd(s) & 1;
    }
}

static void test_shortcut(void **st_)
{
    (void)st_;
    uint64_t s = 0x5eedfc01u;
    long shortcut = 0;
    for (long it = 0; it < 2000000; it++) {
        r500_fc_thread a;
        random_thread(&a, &s);
        r500_fc_inst in;
        memset(&in, 0, sizeof in);
        in.op = (unsigned)(rnd(&s) % 8);
        in.jump_func = (uint8_t)rnd(&s);
        in.b_op0 = (unsigned)(rnd(&s) % 3);
        in.b_op1 = (unsigned)(rnd(&s) % 3);
        in.b_pop_cnt = (unsigned)(rnd(&s) % 3);
        in.jump_any = rnd(&s) & 1;
        in.ignore_uncovered = rnd(&s) & 1;
        in.b_else = rnd(&s) % 4 == 0;
        in.jump_addr = (unsigned)(rnd(&s) % 8);
        in.a_op = rnd(&s) % 5 == 0 ? 2 : 0;
        in.pred_sel = rnd(&s) % 2 ? 0 : 2 + (unsigned)(rnd(&s) % 4);
        in.pred_inv = rnd(&s) & 1;
        r500_fc_state st;
        r500_fc_state_init(&st);
        st.code_range = 0x00100000u;
        st.fc_ctrl = 1u << 31;
        r500_fc_options o;
        r500_fc_options_default(&o);
        o.counters_all_inactive = rnd(&s) & 1;
        o.branch_counter_max = (unsigned)(rnd(&s) % 3);
        r500_fc_thread b = a;
        shortcut += a.cbits == 0 && (in.b_op0 || in.b_op1);
        unsigned na = 0, nb = 0;
        bool ja = false, jb = false;
        ls_diag da, db;
        ls_status sa = r500_fc_exec(&a, &in, &st, &o, 3, &na, &ja, &da);
        ls_status sb = fc_plain_r500_fc_exec(&b, &in, &st, &o, 3, &nb, &jb, &db);
        if (sa != sb || na != nb || ja != jb || memcmp(&a, &b, sizeof a) != 0) {
            fprintf(stderr, "iteration %ld: op %u b_op %u/%u: the shortcut differs\n", it, in.op,
                    in.b_op0, in.b_op1);
            fail();
        }
    }
    fprintf(stderr, "2000000 FC instructions, %ld with counting and no counter plane\n", shortcut);
    assert_true(shortcut > 100000);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_shortcut)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
