/* Property test (issue 2, item 5): random structured programs — nested
 * if/else, loops with break and continue, random per-pixel conditions and
 * coverage — are encoded with Mesa's FC words (spec/r500.md §3.2) and run on
 * the FC unit. Every covered pixel must follow exactly the path that a direct
 * interpreter of the structured program (below, written independently of
 * src/r500/fc.c) gives it. Uncovered (helper) pixels may be dragged along by
 * IGNORE_UNCOVERED decisions, so only covered pixels are compared. */
#include "test_util.h"

#include "lockstep/r500_fc.h"

/* ---- structured programs ------------------------------------------------ */

enum { S_MARK, S_IF, S_LOOP, S_BREAK, S_CONT };

typedef struct stmt stmt;
struct stmt {
    int kind;
    int id;          /* MARK: mark id; IF/BREAK/CONT: condition id */
    stmt **a, **b;   /* IF: then/else lists; LOOP: body */
    int na, nb;
    bool has_else;
};

typedef struct gen {
    uint64_t rng;
    int next_mark, next_cond;
    int loops_open, ifs_open, nodes;
} gen;

static int rnd(gen *g, int n)
{
    return (int)(ls_test_rand(&g->rng) % (uint64_t)n);
}

static stmt *new_stmt(int kind)
{
    stmt *s = calloc(1, sizeof *s);
    assert_non_null(s);
    s->kind = kind;
    return s;
}

static void gen_list(gen *g, stmt ***out, int *n, int depth, bool in_loop);

static stmt *gen_stmt(gen *g, int depth, bool in_loop)
{
    g->nodes++;
    int r = rnd(g, 10);
    if (depth >= 5 || g->nodes > 40)
        r = 0;
    if (r <= 3) {
        stmt *s = new_stmt(S_MARK);
        s->id = g->next_mark++;
        return s;
    }
    if (r <= 6) {
        stmt *s = new_stmt(S_IF);
        s->id = g->next_cond++;
        s->has_else = rnd(g, 2);
        gen_list(g, &s->a, &s->na, depth + 1, in_loop);
        if (s->has_else)
            gen_list(g, &s->b, &s->nb, depth + 1, in_loop);
        /* break/continue sit inside if, as GLSL compiles them */
        if (in_loop && rnd(g, 3) == 0) {
            stmt *bc = new_stmt(rnd(g, 2) ? S_BREAK : S_CONT);
            s->a = realloc(s->a, (size_t)(s->na + 1) * sizeof *s->a);
            s->a[s->na++] = bc;
        }
        return s;
    }
    if (r <= 8 && g->loops_open < 3) {
        /* while-style loop: `loop { if (exit) break; ... }` */
        stmt *s = new_stmt(S_LOOP);
        g->loops_open++;
        stmt *guard = new_stmt(S_IF);
        guard->id = g->next_cond++;
        guard->a = calloc(1, sizeof *guard->a);
        guard->a[0] = new_stmt(S_BREAK);
        guard->na = 1;
        stmt **body;
        int nbody;
        gen_list(g, &body, &nbody, depth + 1, true);
        s->a = calloc((size_t)nbody + 1, sizeof *s->a);
        s->a[0] = guard;
        memcpy(s->a + 1, body, (size_t)nbody * sizeof *body);
        free(body);
        s->na = nbody + 1;
        g->loops_open--;
        return s;
    }
    stmt *s = new_stmt(S_MARK);
    s->id = g->next_mark++;
    return s;
}

static void gen_list(gen *g, stmt ***out, int *n, int depth, bool in_loop)
{
    int k = 1 + rnd(g, 3);
    *out = calloc((size_t)k, sizeof **out);
    *n = k;
    for (int i = 0; i < k; i++)
        (*out)[i] = gen_stmt(g, depth, in_loop);
}

static void free_list(stmt **l, int n)
{
    for (int i = 0; i < n; i++) {
        free_list(l[i]->a, l[i]->na);
        free_list(l[i]->b, l[i]->nb);
        free(l[i]);
    }
    free(l);
}

/* Condition values: the k-th evaluation of condition c by lane l. Loop exit
 * guards become true after a few evaluations so every loop terminates well
 * under the 255-iteration cap. */
static uint64_t cond_seed;
static bool cond_value(int c, unsigned lane, unsigned k, bool is_guard)
{
    if (is_guard && k >= 4)
        return true;
    uint64_t s = cond_seed ^ ((uint64_t)c << 40) ^ ((uint64_t)lane << 20) ^ k;
    return ls_test_rand(&s) & 1;
}

#define MAXC 128
#define MAXT 2048

typedef struct trace {
    int v[MAXT];
    int n;
} trace;

/* ---- the direct interpreter (one pixel at a time) ----------------------- */

typedef struct lane_run {
    unsigned lane;
    unsigned evals[MAXC];
    bool guard[MAXC];
    trace *tr;
} lane_run;

enum { FLOW_NORMAL, FLOW_BREAK, FLOW_CONT };

static int interp_list(lane_run *r, stmt **l, int n);

static int interp(lane_run *r, stmt *s)
{
    switch (s->kind) {
    case S_MARK:
        assert_true(r->tr->n < MAXT);
        r->tr->v[r->tr->n++] = s->id;
        return FLOW_NORMAL;
    case S_IF: {
        bool c = cond_value(s->id, r->lane, r->evals[s->id]++, r->guard[s->id]);
        if (c)
            return interp_list(r, s->a, s->na);
        if (s->has_else)
            return interp_list(r, s->b, s->nb);
        return FLOW_NORMAL;
    }
    case S_LOOP:
        for (;;) {
            int f = interp_list(r, s->a, s->na);
            if (f == FLOW_BREAK)
                return FLOW_NORMAL;
        }
    case S_BREAK:
        return FLOW_BREAK;
    case S_CONT:
        return FLOW_CONT;
    }
    return FLOW_NORMAL;
}

static int interp_list(lane_run *r, stmt **l, int n)
{
    for (int i = 0; i < n; i++) {
        int f = interp(r, l[i]);
        if (f != FLOW_NORMAL)
            return f;
    }
    return FLOW_NORMAL;
}

/* ---- Mesa-style encoding ------------------------------------------------ */

enum { I_FC, I_MARK, I_COND };

typedef struct minst {
    int kind, id;
    uint32_t inst2, inst3; /* FC words */
} minst;

typedef struct enc {
    minst code[4096];
    int n;
    int ifs_open;            /* IFs open since the innermost loop */
    int brk_fix[64], nbrk;   /* break/continue instructions to patch at ENDLOOP */
} enc;

static int emit(enc *e, int kind, int id, uint32_t i2)
{
    assert_true(e->n < 4096);
    e->code[e->n] = (minst){kind, id, i2, 0};
    return e->n++;
}

static void encode_list(enc *e, stmt **l, int n);

static void encode(enc *e, stmt *s)
{
    switch (s->kind) {
    case S_MARK:
        emit(e, I_MARK, s->id, 0);
        break;
    case S_IF: {
        emit(e, I_COND, s->id, 0); /* ALU instruction writing the ALU result */
        /* r500.md §3.2: IF 0x1A000F00 (with ELSE) / 0x12000F00 (without) */
        int ip_if = emit(e, I_FC, 0, s->has_else ? 0x1A000F00u : 0x12000F00u);
        e->ifs_open++;
        encode_list(e, s->a, s->na);
        int ip_else = -1;
        if (s->has_else) {
            ip_else = emit(e, I_FC, 0, 0x04010010u); /* ELSE */
            encode_list(e, s->b, s->nb);
        }
        int ip_endif = emit(e, I_FC, 0, 0x01010020u); /* ENDIF */
        e->ifs_open--;
        e->code[ip_if].inst3 = (uint32_t)((s->has_else ? ip_else : ip_endif) + 1) << 16;
        if (ip_else >= 0)
            e->code[ip_else].inst3 = (uint32_t)(ip_endif + 1) << 16;
        e->code[ip_endif].inst3 = (uint32_t)(ip_endif + 1) << 16;
        break;
    }
    case S_LOOP: {
        int save_ifs = e->ifs_open, save_nbrk = e->nbrk;
        e->ifs_open = 0;
        int ip_loop = emit(e, I_FC, 0, 0x10000001u); /* BGNLOOP */
        encode_list(e, s->a, s->na);
        int ip_end = emit(e, I_FC, 0, 0x1000FF22u); /* ENDLOOP */
        e->code[ip_loop].inst3 = (uint32_t)ip_end << 16;         /* LOOP -> endloop */
        e->code[ip_end].inst3 = (uint32_t)(ip_loop + 1) << 16;  /* ENDLOOP -> bgnloop+1 */
        for (int k = save_nbrk; k < e->nbrk; k++) {
            minst *m = &e->code[e->brk_fix[k]];
            bool is_brk = (m->inst2 & 7) == 5;
            m->inst3 = (uint32_t)(is_brk ? ip_end + 1 : ip_end) << 16;
        }
        e->nbrk = save_nbrk;
        e->ifs_open = save_ifs;
        break;
    }
    case S_BREAK:
    case S_CONT: {
        uint32_t w = (s->kind == S_BREAK ? 0x1400FF05u : 0x1400FF07u) |
                     (uint32_t)e->ifs_open << 16; /* d = IFs between loop and BRK/CONT */
        int ip = emit(e, I_FC, 0, w);
        assert_true(e->nbrk < 64);
        e->brk_fix[e->nbrk++] = ip;
        break;
    }
    }
}

static void encode_list(enc *e, stmt **l, int n)
{
    for (int i = 0; i < n; i++)
        encode(e, l[i]);
}

static void mark_guards(stmt **l, int n, bool *guard)
{
    for (int i = 0; i < n; i++) {
        stmt *s = l[i];
        if (s->kind == S_LOOP && s->na && s->a[0]->kind == S_IF)
            guard[s->a[0]->id] = true;
        mark_guards(s->a, s->na, guard);
        mark_guards(s->b, s->nb, guard);
    }
}

/* ---- run on the FC unit ------------------------------------------------- */

/* Minimal lane iterator for the test (the library's macro lives in base/). */
#define LS_LANES_FOREACH_T(var, mask)                                                         \
    for (ls_lanes var##_m = (mask); var##_m; var##_m &= var##_m - 1)                          \
        for (unsigned var = (unsigned)__builtin_ctzll(var##_m), var##_1 = 1; var##_1; var##_1 = 0)

static trace lane_tr[64], ref_tr[64];

static void run_fc(const enc *e, unsigned n, ls_lanes covered, const bool *guard,
                   const r500_fc_options *o, uint64_t seed)
{
    r500_fc_thread t;
    r500_fc_thread_init(&t, n, covered);
    r500_fc_state st;
    r500_fc_state_init(&st);
    st.int_const[0] = 0xff; /* Mesa: KR=255 for every loop */
    st.code_addr = (uint32_t)(e->n - 1) << 16;
    st.code_range = (uint32_t)(e->n - 1) << 16;
    unsigned evals[64][MAXC];
    memset(evals, 0, sizeof evals);
    for (unsigned l = 0; l < n; l++)
        lane_tr[l].n = 0;
    unsigned pc = 0;
    long steps = 0;
    while ((int)pc < e->n) {
        if (++steps > 2000000)
            fail_msg("seed 0x%llx: watchdog", (unsigned long long)seed);
        const minst *m = &e->code[pc];
        ls_lanes act = t.active & ~t.killed & t.lanes;
        if (m->kind == I_MARK) {
            LS_LANES_FOREACH_T(l, act) {
                if (lane_tr[l].n < MAXT)
                    lane_tr[l].v[lane_tr[l].n++] = m->id;
            }
            pc++;
        } else if (m->kind == I_COND) {
            /* ALU instruction: writes the ALU result of active pixels only */
            LS_LANES_FOREACH_T(l, act) {
                bool c = cond_value(m->id, l, evals[l][m->id]++, guard[m->id]);
                t.alu_result = (t.alu_result & ~((ls_lanes)1 << l)) | ((ls_lanes)c << l);
            }
            pc++;
        } else {
            uint32_t w[6] = {0x00000402u, 0, m->inst2, m->inst3, 0, 0};
            r500_inst in;
            r500_decode(w, &in);
            r500_fc_inst fi;
            r500_fc_decode(&in, &fi);
            unsigned next;
            bool jumped;
            ls_diag d;
            if (r500_fc_exec(&t, &fi, &st, o, pc, &next, &jumped, &d) != LS_OK)
                fail_msg("seed 0x%llx: fault at %u: %s", (unsigned long long)seed, pc, d.msg);
            pc = next;
        }
    }
    /* At the end every pixel is active again and every stack is empty. */
    assert_int_equal(t.loop_depth, 0);
    assert_int_equal(t.branch & covered, 0);
    assert_int_equal(t.active & t.lanes, t.lanes);
}

static void property(const r500_fc_options *o, int programs, uint64_t seed0)
{
    static const unsigned sizes[] = {1, 4, 16, 48, 64, 7};
    long total_insts = 0;
    for (int p = 0; p < programs; p++) {
        uint64_t seed = seed0 + (uint64_t)p * 0x9E3779B97F4A7C15ull;
        gen g = {.rng = seed};
        stmt **prog;
        int np;
        gen_list(&g, &prog, &np, 0, false);
        bool guard[MAXC] = {0};
        assert_true(g.next_cond < MAXC);
        mark_guards(prog, np, guard);
        static enc e;
        memset(&e, 0, sizeof e);
        encode_list(&e, prog, np);
        emit(&e, I_MARK, 9999, 0); /* the final OUT */
        total_insts += e.n;
        cond_seed = ls_test_rand(&g.rng);
        unsigned n = sizes[rnd(&g, 6)];
        ls_lanes all = n == 64 ? ~(ls_lanes)0 : (((ls_lanes)1 << n) - 1);
        ls_lanes covered = (ls_lanes)ls_test_rand(&g.rng) & all;
        if (rnd(&g, 3) == 0)
            covered = all;
        run_fc(&e, n, covered, guard, o, seed);
        for (unsigned l = 0; l < n; l++) {
            if (!((covered >> l) & 1))
                continue;
            lane_run r = {.lane = l, .tr = &ref_tr[l]};
            memcpy(r.guard, guard, sizeof guard);
            ref_tr[l].n = 0;
            interp_list(&r, prog, np);
            ref_tr[l].v[ref_tr[l].n++] = 9999;
            if (ref_tr[l].n != lane_tr[l].n ||
                memcmp(ref_tr[l].v, lane_tr[l].v, (size_t)ref_tr[l].n * sizeof(int)) != 0) {
                int k = 0;
                while (k < ref_tr[l].n && k < lane_tr[l].n && ref_tr[l].v[k] == lane_tr[l].v[k])
                    k++;
                fail_msg("seed 0x%llx (program %d, %u lanes): lane %u diverges at step %d: "
                         "reference %d, FC unit %d (replay: LOCKSTEP_SEED=0x%llx)",
                         (unsigned long long)seed, p, n, l, k,
                         k < ref_tr[l].n ? ref_tr[l].v[k] : -1,
                         k < lane_tr[l].n ? lane_tr[l].v[k] : -1, (unsigned long long)seed0);
            }
        }
        free_list(prog, np);
    }
    printf("%d random structured programs (%ld FC/ALU instructions) agree with the direct "
           "interpreter\n",
           programs, total_insts);
}

static void test_property_default(void **st)
{
    (void)st;
    r500_fc_options o;
    r500_fc_options_default(&o);
    property(&o, 4000, ls_test_seed(0xF10C0001));
}

/* The alternative break-inhibit reading must give the same GLSL paths. */
static void test_property_loop_scope(void **st)
{
    (void)st;
    r500_fc_options o;
    r500_fc_options_default(&o);
    assert_int_equal(r500_fc_options_set(&o, "break-inhibit", "loop", NULL), LS_OK);
    property(&o, 2000, ls_test_seed(0xF10C0002));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_property_default),
        cmocka_unit_test(test_property_loop_scope),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
