/* The fuzzer's random GLSL 1.10 fragment-shader generator
 * (docs/mesa-fuzz.md "Generator"). Deterministic: a splitmix64 stream from
 * the seed drives every choice; no global state. */
#include <stdio.h>
#include <string.h>

#include "lockstep/mesa_fuzz.h"

typedef struct gen {
    uint64_t s;
    const fz_gen_options *o;
    fz_program *p;
    int counters[8], ncounters; /* live loop counters, innermost last */
    int loops;
    int locals[8], nlocals;
    int uniforms[8], nuniforms;
    int int_uniforms[4], nint_uniforms;
    int uv, fragcoord;
    bool oom;
} gen;

static uint64_t next(gen *g)
{
    uint64_t z = (g->s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static int rnd(gen *g, int n) { return n <= 1 ? 0 : (int)(next(g) % (uint64_t)n); }
static bool chance(gen *g, int percent) { return rnd(g, 100) < percent; }

/* A constant k/16 in [-lim, lim] (exactly representable, printed exactly). */
static double cval(gen *g, int lim16) { return (double)(rnd(g, 2 * lim16 + 1) - lim16) / 16.0; }

static fz_node *mk(gen *g, fz_kind k, int width)
{
    fz_node *n = fz_node_new(k);
    if (!n)
        g->oom = true;
    else
        n->width = width;
    return n;
}

static void add(gen *g, fz_node *parent, fz_node *kid)
{
    if (!parent || !kid || !fz_node_add(parent, kid))
        g->oom = true;
}

static fz_node *konst(gen *g, int width, double v)
{
    fz_node *n = mk(g, FZ_CONST, width);
    for (int i = 0; n && i < width; i++)
        n->val[i] = v;
    return n;
}

static fz_node *rand_const(gen *g, int width)
{
    fz_node *n = mk(g, FZ_CONST, width);
    bool same = chance(g, 30);
    double v0 = cval(g, 40);
    for (int i = 0; n && i < width; i++)
        n->val[i] = same ? v0 : cval(g, 40);
    return n;
}

static int new_var(gen *g, fz_var_kind kind, int width, const char *prefix, int index)
{
    if (g->p->nvars >= FZ_MAX_VARS) {
        g->oom = true;
        return 0;
    }
    fz_var *v = &g->p->vars[g->p->nvars];
    memset(v, 0, sizeof *v);
    v->kind = kind;
    v->width = width;
    snprintf(v->name, sizeof v->name, "%s%d", prefix, index);
    return g->p->nvars++;
}

static fz_node *expr(gen *g, int width, int depth);

/* A variable read adapted to width: the variable, a swizzle of it, or a
 * scalar broadcast by a constructor. */
static fz_node *var_read(gen *g, int var, int width)
{
    fz_node *v = mk(g, FZ_VAR, g->p->vars[var].width);
    if (!v)
        return NULL;
    v->op = var;
    int vw = v->width;
    if (vw == width && (width == 1 || chance(g, 60)))
        return v;
    if (vw == 1) {
        fz_node *c = mk(g, FZ_CTOR, width);
        add(g, c, v);
        return c;
    }
    fz_node *s = mk(g, FZ_SWZ, width);
    if (s) {
        for (int i = 0; i < width; i++)
            s->swz[i] = (uint8_t)rnd(g, vw);
    }
    add(g, s, v);
    return s;
}

static fz_node *leaf(gen *g, int width)
{
    int pick = rnd(g, 100);
    if (pick < 20)
        return rand_const(g, width);
    if (pick < 30 && g->ncounters && width == 1) {
        fz_node *n = mk(g, FZ_COUNTER, 1);
        if (n)
            n->op = g->counters[rnd(g, g->ncounters)];
        return n;
    }
    if (pick < 30 && g->ncounters) {
        fz_node *n = mk(g, FZ_COUNTER, 1), *c = mk(g, FZ_CTOR, width);
        if (n)
            n->op = g->counters[rnd(g, g->ncounters)];
        add(g, c, n);
        return c;
    }
    if (pick < 45)
        return var_read(g, g->uv, width);
    if (pick < 52 && g->fragcoord >= 0) {
        /* gl_FragCoord.xy scaled to about [0, 2] */
        fz_node *s = mk(g, FZ_SWZ, width), *v = mk(g, FZ_VAR, 4);
        if (s)
            for (int i = 0; i < width; i++)
                s->swz[i] = (uint8_t)rnd(g, 2);
        if (v)
            v->op = g->fragcoord;
        add(g, s, v);
        fz_node *b = mk(g, FZ_BIN, width);
        if (b)
            b->aux = 2;
        add(g, b, s);
        add(g, b, konst(g, 1, 0.125));
        return b;
    }
    if (pick < 65 && g->nuniforms)
        return var_read(g, g->uniforms[rnd(g, g->nuniforms)], width);
    if (g->nlocals)
        return var_read(g, g->locals[rnd(g, g->nlocals)], width);
    return rand_const(g, width);
}

/* abs(e) + c: keeps an argument inside the domain of sqrt/log/pow/division
 * (the guard still checks it). */
static fz_node *positive(gen *g, fz_node *e, int width)
{
    fz_node *a = mk(g, FZ_CALL, width), *b = mk(g, FZ_BIN, width);
    if (a)
        a->op = FZ_ABS;
    add(g, a, e);
    if (b)
        b->aux = 0;
    add(g, b, a);
    static const double cs[] = {0.25, 0.5, 1.0};
    add(g, b, konst(g, 1, cs[rnd(g, 3)]));
    return b;
}

static fz_node *bounded(gen *g, fz_node *e, int width, double lo, double hi)
{
    fz_node *c = mk(g, FZ_CALL, width);
    if (c)
        c->op = FZ_CLAMP;
    add(g, c, e);
    add(g, c, konst(g, 1, lo));
    add(g, c, konst(g, 1, hi));
    return c;
}

static fz_node *call(gen *g, int width, int depth)
{
    static const fz_builtin any[] = {FZ_SIN, FZ_COS, FZ_EXP2, FZ_LOG2, FZ_EXP, FZ_LOG, FZ_SQRT,
        FZ_INVERSESQRT, FZ_FRACT, FZ_FLOOR, FZ_CEIL, FZ_ABS, FZ_SIGN, FZ_NORMALIZE, FZ_POW,
        FZ_MIN, FZ_MAX, FZ_MOD, FZ_STEP, FZ_CLAMP, FZ_MIX, FZ_SMOOTHSTEP, FZ_DOT, FZ_LENGTH,
        FZ_DISTANCE, FZ_CROSS};
    fz_builtin f;
    do {
        f = any[rnd(g, (int)(sizeof any / sizeof any[0]))];
    } while ((f == FZ_NORMALIZE && width < 2) || (f == FZ_CROSS && width != 3) ||
             ((f == FZ_DOT || f == FZ_LENGTH || f == FZ_DISTANCE) && width != 1));
    fz_node *n = mk(g, FZ_CALL, width);
    if (!n)
        return NULL;
    n->op = f;
    int d = depth + 1;
    switch (f) {
    case FZ_SIN: case FZ_COS: case FZ_FRACT: case FZ_FLOOR: case FZ_CEIL: case FZ_ABS:
    case FZ_SIGN: case FZ_NORMALIZE:
        add(g, n, expr(g, width, d));
        break;
    case FZ_EXP2: case FZ_EXP:
        add(g, n, chance(g, 70) ? bounded(g, expr(g, width, d), width, -4, 4) : expr(g, width, d));
        break;
    case FZ_LOG2: case FZ_LOG: case FZ_SQRT: case FZ_INVERSESQRT:
        add(g, n, chance(g, 85) ? positive(g, expr(g, width, d), width) : expr(g, width, d));
        break;
    case FZ_POW:
        add(g, n, chance(g, 85) ? positive(g, expr(g, width, d), width) : expr(g, width, d));
        add(g, n, chance(g, 70) ? bounded(g, expr(g, width, d), width, -3, 3) : expr(g, width, d));
        break;
    case FZ_MIN: case FZ_MAX:
        add(g, n, expr(g, width, d));
        add(g, n, expr(g, chance(g, 40) ? 1 : width, d));
        break;
    case FZ_MOD:
        add(g, n, expr(g, width, d));
        add(g, n, chance(g, 50) ? rand_const(g, 1) : positive(g, expr(g, 1, d), 1));
        if (n->nkids == 2 && n->kids[1]->kind == FZ_CONST && n->kids[1]->val[0] == 0)
            n->kids[1]->val[0] = 0.75;
        break;
    case FZ_STEP:
        add(g, n, expr(g, chance(g, 50) ? 1 : width, d));
        add(g, n, expr(g, width, d));
        break;
    case FZ_CLAMP: {
        double lo = cval(g, 24), hi = cval(g, 24);
        if (lo > hi) {
            double t = lo;
            lo = hi;
            hi = t;
        }
        if (hi - lo < 0.25)
            hi = lo + 0.5;
        add(g, n, expr(g, width, d));
        add(g, n, konst(g, 1, lo));
        add(g, n, konst(g, 1, hi));
        break;
    }
    case FZ_MIX:
        add(g, n, expr(g, width, d));
        add(g, n, expr(g, width, d));
        add(g, n, expr(g, chance(g, 50) ? 1 : width, d));
        break;
    case FZ_SMOOTHSTEP: {
        double lo = cval(g, 24), hi = lo + 0.25 + (double)rnd(g, 32) / 16.0;
        add(g, n, konst(g, 1, lo));
        add(g, n, konst(g, 1, hi));
        add(g, n, expr(g, width, d));
        break;
    }
    case FZ_DOT: case FZ_DISTANCE: {
        int w = 1 + rnd(g, 4);
        add(g, n, expr(g, w, d));
        add(g, n, expr(g, w, d));
        break;
    }
    case FZ_LENGTH:
        add(g, n, expr(g, 1 + rnd(g, 4), d));
        break;
    case FZ_CROSS:
        add(g, n, expr(g, 3, d));
        add(g, n, expr(g, 3, d));
        break;
    default:
        break;
    }
    return n;
}

static fz_node *expr(gen *g, int width, int depth)
{
    if (g->oom)
        return NULL;
    if (depth >= g->o->max_expr_depth || chance(g, 25))
        return leaf(g, width);
    int pick = rnd(g, 100);
    if (pick < 8) {
        fz_node *n = mk(g, FZ_NEG, width);
        add(g, n, expr(g, width, depth + 1));
        return n;
    }
    if (pick < 45) {
        fz_node *n = mk(g, FZ_BIN, width);
        int op = rnd(g, 10);
        if (n)
            n->aux = op < 4 ? 0 : op < 6 ? 1 : op < 9 ? 2 : 3;
        bool scalar_left = width > 1 && chance(g, 15), scalar_right = width > 1 && chance(g, 20);
        add(g, n, expr(g, scalar_left ? 1 : width, depth + 1));
        fz_node *r = expr(g, scalar_right && !scalar_left ? 1 : width, depth + 1);
        if (n && n->aux == 3 && chance(g, 85))
            r = positive(g, r, r ? r->width : 1);
        add(g, n, r);
        return n;
    }
    if (pick < 80)
        return call(g, width, depth);
    if (pick < 90 && width >= 2) {
        fz_node *n = mk(g, FZ_CTOR, width);
        int left = width;
        while (left > 0) {
            int w = 1 + rnd(g, left);
            if (w == width)
                w = width - 1;
            add(g, n, expr(g, w, depth + 1));
            left -= w;
        }
        return n;
    }
    int sw = 2 + rnd(g, 3);
    fz_node *n = mk(g, FZ_SWZ, width);
    if (n)
        for (int i = 0; i < width; i++)
            n->swz[i] = (uint8_t)rnd(g, sw);
    add(g, n, expr(g, sw, depth + 1));
    return n;
}

static fz_node *condition(gen *g, int depth)
{
    int pick = rnd(g, 100);
    if (pick < 12 && depth < 2) {
        fz_node *n = mk(g, chance(g, 50) ? FZ_AND : FZ_OR, 1);
        add(g, n, condition(g, depth + 1));
        add(g, n, condition(g, depth + 1));
        return n;
    }
    if (pick < 17 && depth < 2) {
        fz_node *n = mk(g, FZ_NOT, 1);
        add(g, n, condition(g, depth + 1));
        return n;
    }
    if (pick < 35 && g->ncounters) {
        fz_node *n = mk(g, FZ_ICMP, 1);
        if (n) {
            n->op = g->counters[rnd(g, g->ncounters)];
            n->aux = rnd(g, 6);
            n->ival = rnd(g, 6);
        }
        return n;
    }
    fz_node *n = mk(g, FZ_CMP, 1);
    if (n)
        n->aux = rnd(g, 4);
    add(g, n, expr(g, 1, 1));
    add(g, n, chance(g, 60) ? rand_const(g, 1) : expr(g, 1, 1));
    return n;
}

static void mask(gen *g, fz_node *n, int var_width)
{
    if (var_width == 1 || chance(g, 40)) { /* GLSL 1.10: no swizzle on a float */
        n->nswz = 0;
        return;
    }
    int k = 1 + rnd(g, var_width);
    uint8_t ch[4] = {0, 1, 2, 3};
    for (int i = var_width - 1; i > 0; i--) { /* shuffle, then keep k; sorted mostly */
        int j = rnd(g, i + 1);
        uint8_t t = ch[i];
        ch[i] = ch[j];
        ch[j] = t;
    }
    if (chance(g, 70)) /* ascending, as most code writes them */
        for (int i = 0; i < k; i++)
            for (int j = i + 1; j < k; j++)
                if (ch[j] < ch[i]) {
                    uint8_t t = ch[i];
                    ch[i] = ch[j];
                    ch[j] = t;
                }
    memcpy(n->swz, ch, sizeof n->swz);
    n->nswz = k == var_width && chance(g, 50) ? 0 : k;
}

static fz_node *block(gen *g, int depth);

static fz_node *wrap_if(gen *g, fz_node *stmt, int depth)
{
    fz_node *n = mk(g, FZ_IF, 1), *b = mk(g, FZ_BLOCK, 1);
    add(g, n, condition(g, 0));
    add(g, b, stmt);
    add(g, n, b);
    (void)depth;
    return n;
}

static fz_node *statement(gen *g, int depth)
{
    int pick = rnd(g, 100);
    bool deep = depth >= g->o->max_depth;
    if (pick < 38 || (deep && pick < 70)) {
        if (!g->nlocals || chance(g, 20)) {
            fz_node *n = mk(g, FZ_OUT, 1);
            if (n) {
                mask(g, n, 4);
                n->aux = chance(g, 70) ? 0 : 1;
                add(g, n, expr(g, n->nswz ? n->nswz : 4, 0));
            }
            return n;
        }
        int v = g->locals[rnd(g, g->nlocals)];
        fz_node *n = mk(g, FZ_ASSIGN, 1);
        if (n) {
            n->op = v;
            mask(g, n, g->p->vars[v].width);
            int r = rnd(g, 10);
            n->aux = r < 6 ? 0 : r < 9 ? 1 : 2;
            add(g, n, expr(g, n->nswz ? n->nswz : g->p->vars[v].width, 0));
        }
        return n;
    }
    if (deep) {
        if (g->loops && chance(g, 50)) {
            fz_node *s = mk(g, chance(g, 60) ? FZ_BREAK : FZ_CONTINUE, 1);
            return chance(g, 85) ? wrap_if(g, s, depth) : s;
        }
        return wrap_if(g, mk(g, chance(g, 60) ? FZ_DISCARD : FZ_RETURN, 1), depth);
    }
    if (pick < 62) {
        fz_node *n = mk(g, FZ_IF, 1);
        add(g, n, condition(g, 0));
        add(g, n, block(g, depth + 1));
        if (chance(g, 50))
            add(g, n, block(g, depth + 1));
        return n;
    }
    if (pick < 82 && g->ncounters < 3 && g->p->nvars < FZ_MAX_VARS - 1) {
        fz_node *n = mk(g, FZ_LOOP, 1);
        if (!n)
            return NULL;
        int r = rnd(g, 10);
        n->aux = r < 6 ? FZ_FOR : r < 8 ? FZ_WHILE : FZ_DOWHILE;
        if (g->nint_uniforms && chance(g, 40)) {
            n->uni = g->int_uniforms[rnd(g, g->nint_uniforms)];
        } else {
            n->ival = chance(g, 8) ? 0 : 1 + rnd(g, g->o->max_trip);
        }
        int idx = 0;
        for (int v = 0; v < g->p->nvars; v++)
            idx += g->p->vars[v].kind == FZ_VAR_COUNTER;
        n->op = new_var(g, FZ_VAR_COUNTER, 1, "i", idx);
        g->counters[g->ncounters++] = n->op;
        g->loops++;
        add(g, n, block(g, depth + 1));
        g->loops--;
        g->ncounters--;
        return n;
    }
    if (g->loops && pick < 92) {
        fz_node *s = mk(g, chance(g, 60) ? FZ_BREAK : FZ_CONTINUE, 1);
        return chance(g, 85) ? wrap_if(g, s, depth) : s;
    }
    fz_node *s = mk(g, chance(g, 60) ? FZ_DISCARD : FZ_RETURN, 1);
    return chance(g, 90) ? wrap_if(g, s, depth) : s;
}

static fz_node *block(gen *g, int depth)
{
    fz_node *b = mk(g, FZ_BLOCK, 1);
    int n = 1 + rnd(g, g->o->max_stmts);
    for (int i = 0; i < n && !g->oom; i++)
        add(g, b, statement(g, depth));
    return b;
}

void fz_gen_options_default(fz_gen_options *o)
{
    o->max_depth = 4;
    o->max_stmts = 4;
    o->max_expr_depth = 3;
    o->max_trip = 12;
    o->fragcoord = true;
}

ls_status fz_generate(uint64_t seed, const fz_gen_options *o, fz_program *out, ls_diag *d)
{
    fz_gen_options def;
    if (!o) {
        fz_gen_options_default(&def);
        o = &def;
    }
    if (o->max_trip < 0 || o->max_trip > 255 || o->max_depth < 0 || o->max_depth > 8 ||
        o->max_stmts < 1 || o->max_stmts > 16 || o->max_expr_depth < 0 || o->max_expr_depth > 8)
        return ls_diag_set(d, LS_ERR_ARG, NULL, 0, 0,
                           "generator options out of range (trip counts never exceed 255)");
    memset(out, 0, sizeof *out);
    gen g;
    memset(&g, 0, sizeof g);
    g.s = seed;
    g.o = o;
    g.p = out;
    g.uv = new_var(&g, FZ_VAR_UV, 2, "uv", 0);
    snprintf(out->vars[g.uv].name, sizeof out->vars[g.uv].name, "uv");
    g.fragcoord = -1;
    if (o->fragcoord && chance(&g, 30)) {
        g.fragcoord = new_var(&g, FZ_VAR_FRAGCOORD, 4, "fc", 0);
        snprintf(out->vars[g.fragcoord].name, sizeof out->vars[g.fragcoord].name, "gl_FragCoord");
    }
    g.nuniforms = rnd(&g, 4);
    for (int i = 0; i < g.nuniforms; i++) {
        int v = new_var(&g, FZ_VAR_UNIFORM, 1 + rnd(&g, 4), "u", i);
        for (int c = 0; c < out->vars[v].width; c++)
            out->vars[v].value[c] = cval(&g, 32);
        g.uniforms[i] = v;
    }
    g.nint_uniforms = rnd(&g, 3);
    for (int i = 0; i < g.nint_uniforms; i++) {
        int v = new_var(&g, FZ_VAR_UNIFORM_INT, 1, "n", i);
        out->vars[v].value[0] = chance(&g, 10) ? 0 : 1 + rnd(&g, o->max_trip);
        g.int_uniforms[i] = v;
    }
    out->main = mk(&g, FZ_BLOCK, 1);
    int nl = 1 + rnd(&g, 4);
    for (int i = 0; i < nl && !g.oom; i++) {
        int v = new_var(&g, FZ_VAR_LOCAL, 1 + rnd(&g, 4), "t", i);
        fz_node *dcl = mk(&g, FZ_DECL, 1);
        if (dcl)
            dcl->op = v;
        add(&g, dcl, expr(&g, out->vars[v].width, 1));
        add(&g, out->main, dcl);
        g.locals[g.nlocals++] = v;
    }
    fz_node *body = block(&g, 0);
    for (int i = 0; body && i < body->nkids; i++) {
        add(&g, out->main, body->kids[i]);
        body->kids[i] = NULL;
    }
    fz_node_free(body);
    /* a final colour from everything, most of the time */
    if (chance(&g, 80)) {
        fz_node *n = mk(&g, FZ_OUT, 1);
        if (n)
            n->aux = chance(&g, 50) ? 0 : 1;
        add(&g, n, expr(&g, 4, 1));
        add(&g, out->main, n);
    }
    if (g.oom || !fz_program_valid(out)) {
        bool oom = g.oom;
        fz_program_free(out);
        return ls_diag_set(d, oom ? LS_ERR_NOMEM : LS_ERR_UNSUPPORTED, NULL, 0, 0,
                           oom ? "out of memory generating a shader"
                               : "generator produced an invalid program (seed %llu)",
                           (unsigned long long)seed);
    }
    return LS_OK;
}
