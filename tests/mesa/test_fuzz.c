/* The fuzzer's library part without Mesa (docs/mesa-fuzz.md): generator
 * determinism and validity, the interpreter's GLSL semantics against values
 * worked out by hand, the float guard on planted borderline shaders, the
 * reducer on planted predicates with known minima, and the outcome table. */
#include "test_util.h"

#include <math.h>

#include "base/buf.h"
#include "lockstep/mesa_fuzz.h"

/* FNV-1a of the texts of generator seeds 0..299 (test_generator_deterministic) */
#define GENERATOR_HASH 0x35f49321e35bffaeull

/* ---- building programs by hand ----------------------------------------- */

static fz_node *node(fz_kind k, int width) {
    fz_node *n = fz_node_new(k);
    assert_non_null(n);
    n->width = width;
    return n;
}

static fz_node *kid(fz_node *parent, fz_node *k) {
    assert_true(fz_node_add(parent, k));
    return parent;
}

static fz_node *cnst(int width, double v) {
    fz_node *n = node(FZ_CONST, width);
    for (int i = 0; i < width; i++)
        n->val[i] = v;
    return n;
}

static fz_node *var(int v, int width) {
    fz_node *n = node(FZ_VAR, width);
    n->op = v;
    return n;
}

static fz_node *swz(fz_node *e, const char *chans) {
    fz_node *n = node(FZ_SWZ, (int)strlen(chans));
    for (int i = 0; chans[i]; i++)
        n->swz[i] = (uint8_t)(chans[i] == 'w' ? 3 : chans[i] - 'x');
    return kid(n, e);
}

static fz_node *bin(fz_node *a, int op, fz_node *b) {
    fz_node *n = node(FZ_BIN, a->width > b->width ? a->width : b->width);
    n->aux = op;
    return kid(kid(n, a), b);
}

static fz_node *call1(fz_builtin f, fz_node *a) {
    fz_node *n = node(FZ_CALL, a->width);
    n->op = f;
    return kid(n, a);
}

static fz_node *out4(fz_node *e) {
    fz_node *n = node(FZ_OUT, 1);
    return kid(n, e);
}

static fz_node *block(void) { return node(FZ_BLOCK, 1); }

/* A program with uv (var 0) and a float local t (var 1, declared 0.0). */
static void base_program(fz_program *p) {
    memset(p, 0, sizeof *p);
    p->nvars = 2;
    p->vars[0].kind = FZ_VAR_UV;
    p->vars[0].width = 2;
    strcpy(p->vars[0].name, "uv");
    p->vars[1].kind = FZ_VAR_LOCAL;
    p->vars[1].width = 1;
    strcpy(p->vars[1].name, "t");
    p->main = block();
    fz_node *d = node(FZ_DECL, 1);
    d->op = 1;
    kid(p->main, kid(d, cnst(1, 0)));
}

static int add_counter(fz_program *p, const char *name) {
    int v = p->nvars++;
    p->vars[v].kind = FZ_VAR_COUNTER;
    p->vars[v].width = 1;
    strcpy(p->vars[v].name, name);
    return v;
}

static fz_node *loop(int form, int counter, int trip, fz_node *body) {
    fz_node *n = node(FZ_LOOP, 1);
    n->aux = form;
    n->op = counter;
    n->ival = trip;
    return kid(n, body);
}

static fz_node *if_(fz_node *cond, fz_node *then, fz_node *els) {
    fz_node *n = node(FZ_IF, 1);
    kid(kid(n, cond), then);
    return els ? kid(n, els) : n;
}

static fz_node *icmp(int counter, int op, int v) {
    fz_node *n = node(FZ_ICMP, 1);
    n->op = counter;
    n->aux = op;
    n->ival = v;
    return n;
}

static fz_node *cmp(fz_node *a, int op, fz_node *b) {
    fz_node *n = node(FZ_CMP, 1);
    n->aux = op;
    return kid(kid(n, a), b);
}

/* t += v */
static fz_node *add_t(fz_node *v) {
    fz_node *n = node(FZ_ASSIGN, 1);
    n->op = 1;
    n->aux = 1;
    return kid(n, v);
}

static char *text(const fz_program *p) {
    ls_buf b;
    ls_buf_init(&b);
    fz_program_print(p, &b);
    return b.data; /* caller frees */
}

/* ---- generator ---------------------------------------------------------- */

static uint64_t fnv(const char *s, uint64_t h) {
    for (; *s; s++)
        h = (h ^ (uint8_t)*s) * 0x100000001b3ull;
    return h;
}

static void test_generator_deterministic(void **state) {
    (void)state;
    uint64_t h = 0xcbf29ce484222325ull;
    for (uint64_t seed = 0; seed < 300; seed++) {
        fz_program a, b;
        ls_diag d;
        assert_int_equal(fz_generate(seed, NULL, &a, &d), LS_OK);
        assert_int_equal(fz_generate(seed, NULL, &b, &d), LS_OK);
        assert_true(fz_program_valid(&a));
        char *ta = text(&a), *tb = text(&b);
        assert_string_equal(ta, tb); /* same seed, same bytes */
        assert_non_null(strstr(ta, "#version 110\n"));
        h = fnv(ta, h);
        free(ta);
        free(tb);
        fz_program_free(&a);
        fz_program_free(&b);
    }
    /* The campaign seeds of docs/mesa-fuzz.md are reproduced only while the
     * generator gives exactly these texts: a change of the generator must
     * change this hash on purpose (and the docs' seeds are then stale). */
    printf("generator hash of seeds 0..299: 0x%016llx\n", (unsigned long long)h);
    assert_true(h == GENERATOR_HASH);
}

static void test_generator_covers_the_language(void **state) {
    (void)state;
    static const char *const want[] = {"for (", "while (", "} while (", "break;", "continue;",
        "discard;", "return;", "} else {", "uniform int", "uniform vec", "gl_FragCoord",
        "sin(", "cos(", "exp2(", "log2(", "pow(", "sqrt(", "inversesqrt(", "fract(", "floor(",
        "min(", "max(", "clamp(", "mix(", "step(", "smoothstep(", "dot(", "length(",
        "normalize(", "abs(", "sign(", "cross(", "mod(", "+=", "*=", ".yx", NULL};
    bool seen[64] = {false};
    for (uint64_t seed = 0; seed < 300; seed++) {
        fz_program p;
        ls_diag d;
        assert_int_equal(fz_generate(seed, NULL, &p, &d), LS_OK);
        char *t = text(&p);
        for (int i = 0; want[i]; i++)
            seen[i] = seen[i] || strstr(t, want[i]);
        /* loop trip counts stay below the R500 cap (assumption r500-loop-255) */
        const char *q = t;
        while ((q = strstr(q, " < "))) {
            q += 3;
            if (*q >= '0' && *q <= '9')
                assert_true(atoi(q) <= 255);
        }
        free(t);
        fz_program_free(&p);
    }
    for (int i = 0; want[i]; i++) {
        if (!seen[i])
            printf("never generated: %s\n", want[i]);
        assert_true(seen[i]);
    }
}

static void test_generator_rejects_bad_options(void **state) {
    (void)state;
    fz_gen_options o;
    fz_gen_options_default(&o);
    o.max_trip = 256;
    fz_program p;
    ls_diag d;
    assert_int_equal(fz_generate(1, &o, &p, &d), LS_ERR_ARG);
}

/* ---- interpreter -------------------------------------------------------- */

static void test_interpreter_values(void **state) {
    (void)state;
    fz_program p;
    base_program(&p);
    /* for (i < 5) { t += 1; if (i == 2) break; }        t = 3
     * while (j < 4) { j++; t += float(j); }              t = 13
     * do { k++; t += 100; continue; } while (k < 0);     t = 113 (runs once)
     * gl_FragColor = vec4(t, uv.y, uv.x * 2, 1) */
    int i = add_counter(&p, "i"), j = add_counter(&p, "j"), k = add_counter(&p, "k");
    fz_node *b1 = block();
    kid(b1, add_t(cnst(1, 1)));
    kid(b1, if_(icmp(i, 4, 2), kid(block(), node(FZ_BREAK, 1)), NULL));
    kid(p.main, loop(FZ_FOR, i, 5, b1));
    fz_node *cj = node(FZ_COUNTER, 1);
    cj->op = j;
    kid(p.main, loop(FZ_WHILE, j, 4, kid(block(), add_t(cj))));
    fz_node *b3 = block();
    kid(b3, add_t(cnst(1, 100)));
    kid(b3, node(FZ_CONTINUE, 1));
    kid(b3, add_t(cnst(1, 1000)));
    kid(p.main, loop(FZ_DOWHILE, k, 0, b3));
    fz_node *ctor = node(FZ_CTOR, 4);
    kid(ctor, var(1, 1));
    kid(ctor, swz(var(0, 2), "y"));
    kid(ctor, bin(swz(var(0, 2), "x"), 2, cnst(1, 2)));
    kid(ctor, cnst(1, 1));
    kid(p.main, out4(ctor));
    assert_true(fz_program_valid(&p));
    fz_pixel px[16 * 16];
    char why[128];
    assert_true(fz_guard(&p, 16, 16, px, why, sizeof why));
    const fz_pixel *q = &px[5 * 16 + 3];
    assert_true(q->stable);
    assert_false(q->killed);
    assert_true(q->rgba[0] == 113);
    assert_true(q->rgba[1] == 5.5 / 16);
    assert_true(q->rgba[2] == 2 * 3.5 / 16);
    assert_true(q->rgba[3] == 1);
    char *t = text(&p);
    assert_non_null(strstr(t, "for (int i = 0; i < 5; i++) {\n"));
    assert_non_null(strstr(t, "    int j = 0;\n    while (j < 4) {\n      j++;\n"));
    assert_non_null(strstr(t, "    do {\n      k++;\n"));
    assert_non_null(strstr(t, "    } while (k < 0);\n"));
    free(t);
    fz_program_free(&p);
}

/* ---- float guard -------------------------------------------------------- */

/* gl_FragColor = vec4(e) over 16x16: the guard's verdict and first reason. */
static bool guard_of(fz_node *e, const char *why_part) {
    fz_program p;
    base_program(&p);
    fz_node *c = node(FZ_CTOR, 4);
    kid(p.main, out4(kid(c, e)));
    assert_true(fz_program_valid(&p));
    fz_pixel px[256];
    char why[160] = "";
    bool ok = fz_guard(&p, 16, 16, px, why, sizeof why);
    if (!ok && why_part) {
        if (!strstr(why, why_part))
            printf("guard said: %s\n", why);
        assert_non_null(strstr(why, why_part));
    }
    fz_program_free(&p);
    return ok;
}

static fz_node *ux(void) { return swz(var(0, 2), "x"); }
static fz_node *uy(void) { return swz(var(0, 2), "y"); }

static void test_guard_rejects_borderline(void **state) {
    (void)state;
    /* floor(uv.x * 16 - 0.5): an exact integer at every pixel centre */
    assert_false(guard_of(call1(FZ_FLOOR, bin(bin(ux(), 2, cnst(1, 16)), 1, cnst(1, 0.5))),
                          "floor/fract/ceil near an integer"));
    /* fract(uv.y * 16 + 0.5): the same, through fract */
    assert_false(guard_of(call1(FZ_FRACT, bin(bin(uy(), 2, cnst(1, 16)), 0, cnst(1, 0.5))),
                          "floor/fract/ceil near an integer"));
    /* sign(uv.x - uv.x): zero everywhere */
    assert_false(guard_of(call1(FZ_SIGN, bin(ux(), 1, ux())), "sign near 0"));
    /* sqrt(uv.x - 2): outside the domain */
    assert_false(guard_of(call1(FZ_SQRT, bin(ux(), 1, cnst(1, 2))), "log/sqrt argument"));
    /* exp2(uv.x + 17): beyond the exponent bound */
    assert_false(guard_of(call1(FZ_EXP2, bin(ux(), 0, cnst(1, 17))), "exp argument too large"));
    /* uv.x * 20000: leaves the sane range */
    assert_false(guard_of(bin(ux(), 2, cnst(1, 20000)), "value out of range"));
    /* ((uv.x * 0.3 + 3000) - 3000) * 1000: float rounding is amplified */
    assert_false(guard_of(bin(bin(bin(bin(ux(), 2, cnst(1, 0.3)), 0, cnst(1, 3000)), 1,
                                  cnst(1, 3000)), 2, cnst(1, 1000)),
                          "float and double results differ"));
    /* 1 / (uv.x - uv.x + 0.0001): a near-zero divisor */
    assert_false(guard_of(bin(cnst(1, 1), 3, bin(bin(ux(), 1, ux()), 0, cnst(1, 0.0001))),
                          "division by a near-zero value"));
    /* well-conditioned expressions pass */
    assert_true(guard_of(call1(FZ_SIN, bin(ux(), 2, cnst(1, 3))), NULL));
    assert_true(guard_of(call1(FZ_FLOOR, bin(ux(), 2, cnst(1, 2.5))), NULL));
}

static void test_guard_comparison_at_threshold(void **state) {
    (void)state;
    /* if (uv.x * 0 + 0.5 > 0.5) gl_FragColor = vec4(1): every pixel decides
     * exactly at the threshold, the shader is rejected */
    fz_program p;
    base_program(&p);
    kid(p.main, if_(cmp(bin(bin(ux(), 2, cnst(1, 0)), 0, cnst(1, 0.5)), 2, cnst(1, 0.5)),
                    kid(block(), out4(cnst(4, 1))), NULL));
    fz_pixel px[256];
    char why[160];
    assert_false(fz_guard(&p, 16, 16, px, why, sizeof why));
    assert_non_null(strstr(why, "comparison near its threshold"));
    fz_program_free(&p);
    /* if (uv.y < 0.53125) discard: only row 8 (uv.y = 8.5/16) sits on the
     * threshold: its pixels are unstable, the others are compared */
    base_program(&p);
    kid(p.main, if_(cmp(uy(), 0, cnst(1, 0.53125)), kid(block(), node(FZ_DISCARD, 1)), NULL));
    kid(p.main, out4(cnst(4, 1)));
    assert_true(fz_guard(&p, 16, 16, px, why, sizeof why));
    for (int y = 0; y < 16; y++)
        for (int x = 0; x < 16; x++) {
            assert_int_equal(px[y * 16 + x].stable, y != 8);
            if (y != 8)
                assert_int_equal(px[y * 16 + x].killed, y < 8);
        }
    fz_program_free(&p);
}

/* ---- reducer ------------------------------------------------------------ */

static bool contains(const fz_node *n, fz_kind k, bool in_loop, fz_kind inside)
{
    if (n->kind == k && in_loop)
        return true;
    bool now = in_loop || n->kind == inside;
    for (int i = 0; i < n->nkids; i++)
        if (contains(n->kids[i], k, now, inside))
            return true;
    return false;
}

static bool pred_discard_in_loop(const fz_program *p, void *ctx)
{
    (*(int *)ctx)++;
    return contains(p->main, FZ_DISCARD, false, FZ_LOOP);
}

/* an if with an else block holding a break */
static bool has_break_in_else(const fz_node *n)
{
    if (n->kind == FZ_IF && n->nkids == 3 && contains(n->kids[2], FZ_BREAK, true, FZ_BLOCK))
        return true;
    for (int i = 0; i < n->nkids; i++)
        if (has_break_in_else(n->kids[i]))
            return true;
    return false;
}

static bool pred_break_in_else(const fz_program *p, void *ctx)
{
    (*(int *)ctx)++;
    return has_break_in_else(p->main);
}

static bool pred_true(const fz_program *p, void *ctx)
{
    (void)p;
    (*(int *)ctx)++;
    return true;
}

static uint64_t find_seed(fz_predicate pred)
{
    int calls = 0;
    for (uint64_t s = 0; s < 1000; s++) {
        fz_program p;
        ls_diag d;
        assert_int_equal(fz_generate(s, NULL, &p, &d), LS_OK);
        bool ok = pred(&p, &calls);
        fz_program_free(&p);
        if (ok)
            return s;
    }
    fail_msg("no seed satisfies the predicate");
    return 0;
}

static void reduce_to(fz_predicate pred, const char *body_fmt)
{
    uint64_t s = find_seed(pred);
    fz_program p;
    ls_diag d;
    assert_int_equal(fz_generate(s, NULL, &p, &d), LS_OK);
    int calls = 0;
    fz_reduce_stats st;
    assert_int_equal(fz_reduce(&p, pred, &calls, 0, &st, &d), LS_OK);
    assert_true(fz_program_valid(&p));
    assert_true(pred(&p, &calls));
    assert_true(st.size_after < st.size_before);
    /* the one loop's counter name depends on the seed */
    const char *counter = "";
    for (int v = 0; v < p.nvars; v++)
        if (p.vars[v].kind == FZ_VAR_COUNTER && strstr(body_fmt, "%s")) {
            char probe[32];
            snprintf(probe, sizeof probe, "int %s = 0", p.vars[v].name);
            char *t = text(&p);
            bool here = strstr(t, probe) != NULL;
            free(t);
            if (here)
                counter = p.vars[v].name;
        }
    char want[1024];
    snprintf(want, sizeof want, body_fmt, counter, counter, counter);
    char *t = text(&p);
    if (strcmp(t, want))
        printf("seed %llu reduced to:\n%s", (unsigned long long)s, t);
    assert_string_equal(t, want);
    free(t);
    fz_program_free(&p);
}

static void test_reducer_planted(void **state) {
    (void)state;
    reduce_to(pred_discard_in_loop,
              "#version 110\nvoid main()\n{\n  gl_FragColor = vec4(0.0);\n"
              "  for (int %s = 0; %s < 1; %s++) {\n    discard;\n  }\n}\n");
    reduce_to(pred_break_in_else,
              "#version 110\nvoid main()\n{\n  gl_FragColor = vec4(0.0);\n"
              "  for (int %s = 0; %s < 1; %s++) {\n    if (true) {\n    } else {\n"
              "      break;\n    }\n  }\n}\n");
    reduce_to(pred_true, "#version 110\nvoid main()\n{\n  gl_FragColor = vec4(0.0);\n}\n");
}

static bool pred_uses_uniform_in_pow(const fz_program *p, void *ctx);

static bool pow_reads_uniform(const fz_program *p, const fz_node *n, bool in_pow)
{
    if (in_pow && n->kind == FZ_VAR && p->vars[n->op].kind == FZ_VAR_UNIFORM)
        return true;
    bool now = in_pow || (n->kind == FZ_CALL && n->op == FZ_POW);
    for (int i = 0; i < n->nkids; i++)
        if (pow_reads_uniform(p, n->kids[i], now))
            return true;
    return false;
}

static bool pred_uses_uniform_in_pow(const fz_program *p, void *ctx)
{
    (*(int *)ctx)++;
    return pow_reads_uniform(p, p->main, false);
}

static void test_reducer_bounded_and_semantic(void **state) {
    (void)state;
    uint64_t s = find_seed(pred_uses_uniform_in_pow);
    fz_program p;
    ls_diag d;
    assert_int_equal(fz_generate(s, NULL, &p, &d), LS_OK);
    int calls = 0;
    fz_reduce_stats st;
    /* a bound on the predicate calls is honoured */
    assert_int_equal(fz_reduce(&p, pred_uses_uniform_in_pow, &calls, 5, &st, &d), LS_OK);
    assert_true(st.tried <= 5);
    assert_int_equal(fz_reduce(&p, pred_uses_uniform_in_pow, &calls, 0, &st, &d), LS_OK);
    /* what is left: the pow reading the uniform in an output or in a local's
     * declaration or assignment (the reducer does not turn one into the
     * other), everything else gone; the uniform is still declared */
    char *t = text(&p);
    if (p.main->nkids > 2)
        printf("%s", t);
    assert_true(p.main->nkids <= 2);
    assert_non_null(strstr(t, "uniform "));
    assert_non_null(strstr(t, "pow("));
    assert_null(strstr(t, "if "));
    assert_null(strstr(t, "for "));
    free(t);
    fz_program_free(&p);
}

/* ---- outcome classes ---------------------------------------------------- */

static void test_outcome_table(void **state) {
    (void)state;
    for (int i = 0; i < MESA_OUTCOME_COUNT; i++) {
        assert_int_equal(mesa_outcome_table[i].outcome, i);
        for (int j = 0; j < i; j++) {
            assert_int_not_equal(mesa_outcome_table[i].exit_status, mesa_outcome_table[j].exit_status);
            assert_string_not_equal(mesa_outcome_table[i].name, mesa_outcome_table[j].name);
        }
        assert_int_not_equal(mesa_outcome_table[i].exit_status, 2);  /* usage */
        assert_int_not_equal(mesa_outcome_table[i].exit_status, 77); /* skip */
    }
    /* agree and disagree are the command line's ok and mismatch (docs/cli.md);
     * every other class has its own status in 10..19 but the harness error,
     * which is "outside component unavailable" (6) */
    assert_int_equal(mesa_outcome_table[MESA_OUTCOME_AGREE].exit_status, 0);
    assert_int_equal(mesa_outcome_table[MESA_OUTCOME_DISAGREE].exit_status, 1);
    assert_int_equal(mesa_outcome_table[MESA_OUTCOME_HARNESS_ERROR].exit_status, 6);
    for (int i = MESA_OUTCOME_R300_COMPILE_ERROR; i <= MESA_OUTCOME_REFERENCE; i++) {
        assert_true(mesa_outcome_table[i].exit_status >= 10);
        assert_true(mesa_outcome_table[i].exit_status <= 19);
    }
    assert_string_equal(mesa_outcome_table[MESA_OUTCOME_R300_CRASH].name, "r300-crash");
    /* campaign seeds: shader i of a campaign depends on the seed and i only */
    assert_true(mesa_fuzz_case_seed(7, 3, 0) == mesa_fuzz_case_seed(7, 3, 0));
    assert_true(mesa_fuzz_case_seed(7, 3, 0) != mesa_fuzz_case_seed(7, 4, 0));
    assert_true(mesa_fuzz_case_seed(7, 3, 0) != mesa_fuzz_case_seed(8, 3, 0));
    assert_true(mesa_fuzz_case_seed(7, 3, 0) != mesa_fuzz_case_seed(7, 3, 1));
    assert_int_equal(mesa_outcome_of_r300_run(0, "lockstep-mesa-gl: ATI RV530\n"),
                     MESA_OUTCOME_AGREE);
    assert_int_equal(mesa_outcome_of_r300_run(0, "r300 FP: Compiler Error:\n"
                     "../r500_fragprog_emit.c::emit_paired(): emit_alu: Too many instructions\n"
                     "Using a dummy shader instead.\n"), MESA_OUTCOME_R300_COMPILE_ERROR);
    assert_int_equal(mesa_outcome_of_r300_run(128 + 11, ""), MESA_OUTCOME_R300_CRASH);
    assert_int_equal(mesa_outcome_of_r300_run(128 + 6, "r300: assertion failed"),
                     MESA_OUTCOME_R300_CRASH);
    assert_int_equal(mesa_outcome_of_r300_run(1, "lockstep-mesa-gl: x.frag: compile error:\n"
                     "0:1(15): error: type mismatch\n"), MESA_OUTCOME_GLSL_ERROR);
    assert_int_equal(mesa_outcome_of_r300_run(1, "lockstep-mesa-gl: link error:\n"),
                     MESA_OUTCOME_GLSL_ERROR);
    assert_int_equal(mesa_outcome_of_r300_run(1, "lockstep-mesa-gl: no EGL display\n"),
                     MESA_OUTCOME_HARNESS_ERROR);
    assert_int_equal(mesa_outcome_of_r300_run(-1, NULL), MESA_OUTCOME_HARNESS_ERROR);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_generator_deterministic),
        cmocka_unit_test(test_generator_covers_the_language),
        cmocka_unit_test(test_generator_rejects_bad_options),
        cmocka_unit_test(test_interpreter_values),
        cmocka_unit_test(test_guard_rejects_borderline),
        cmocka_unit_test(test_guard_comparison_at_threshold),
        cmocka_unit_test(test_reducer_planted),
        cmocka_unit_test(test_reducer_bounded_and_semantic),
        cmocka_unit_test(test_outcome_table),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
