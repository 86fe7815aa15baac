/* The fuzzer's AST interpreter and float guard (docs/mesa-fuzz.md, "No false
 * alarms"). GLSL semantics as the GLSL 1.10 specification states them
 * (§5 operators, §6 control flow, §8 built-in functions); every value is
 * computed in double, or rounded to float after each operation (f32 mode). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "lockstep/mesa_fuzz.h"

typedef struct vec {
    double v[4];
    int w;
} vec;

typedef struct ctx {
    const fz_program *p;
    bool f32;
    double vars[FZ_MAX_VARS][4];
    int counters[FZ_MAX_VARS];
    double out[4];
    bool killed;
    bool unstable;
    char why[48];
    double uv[2], fc[2];
} ctx;

enum { FLOW_NEXT, FLOW_BREAK, FLOW_CONTINUE, FLOW_RETURN };

static void unstable(ctx *c, const char *why)
{
    if (!c->unstable) {
        c->unstable = true;
        snprintf(c->why, sizeof c->why, "%s", why);
    }
}

/* Round to the evaluation's precision and check the sane range. */
static double fin(ctx *c, double x)
{
    if (c->f32)
        x = (double)(float)x;
    if (!(fabs(x) <= FZ_GUARD_RANGE))
        unstable(c, isnan(x) ? "NaN" : "value out of range");
    return x;
}

static double scale(double a, double b)
{
    double m = fabs(a) > fabs(b) ? fabs(a) : fabs(b);
    return m > 1 ? m : 1;
}

/* A decision a <op> b, a step or a floor: its operands must not be within
 * FZ_GUARD_MARGIN (relative) of the threshold. */
static void decide(ctx *c, double a, double b, const char *what)
{
    if (fabs(a - b) < FZ_GUARD_MARGIN * scale(a, b))
        unstable(c, what);
}

static void near_int(ctx *c, double x, const char *what)
{
    decide(c, x, nearbyint(x), what);
}

static void domain(ctx *c, bool ok, const char *what)
{
    if (!ok)
        unstable(c, what);
}

static vec eval(ctx *c, const fz_node *n);

static double arg_at(const vec *a, int i) { return a->w == 1 ? a->v[0] : a->v[i]; }

static vec call(ctx *c, const fz_node *n)
{
    vec a[3];
    for (int i = 0; i < n->nkids && i < 3; i++)
        a[i] = eval(c, n->kids[i]);
    vec r = {{0, 0, 0, 0}, n->width};
    int w = n->width;
    switch ((fz_builtin)n->op) {
    case FZ_SIN:
    case FZ_COS:
        for (int i = 0; i < w; i++) {
            domain(c, fabs(a[0].v[i]) <= FZ_GUARD_TRIG, "sin/cos argument too large");
            r.v[i] = n->op == FZ_SIN ? sin(a[0].v[i]) : cos(a[0].v[i]);
        }
        break;
    case FZ_EXP2:
    case FZ_EXP:
        for (int i = 0; i < w; i++) {
            domain(c, a[0].v[i] <= FZ_GUARD_EXP, "exp argument too large");
            r.v[i] = n->op == FZ_EXP2 ? exp2(a[0].v[i]) : exp(a[0].v[i]);
        }
        break;
    case FZ_LOG2:
    case FZ_LOG:
    case FZ_SQRT:
    case FZ_INVERSESQRT:
        for (int i = 0; i < w; i++) {
            double x = a[0].v[i];
            domain(c, x >= FZ_GUARD_DOMAIN, "log/sqrt argument near or below 0");
            x = x > 0 ? x : 1;
            r.v[i] = n->op == FZ_LOG2 ? log2(x) : n->op == FZ_LOG ? log(x)
                   : n->op == FZ_SQRT ? sqrt(x) : 1 / sqrt(x);
        }
        break;
    case FZ_FRACT:
    case FZ_FLOOR:
    case FZ_CEIL:
        for (int i = 0; i < w; i++) {
            double x = a[0].v[i];
            near_int(c, x, "floor/fract/ceil near an integer");
            r.v[i] = n->op == FZ_FRACT ? x - floor(x) : n->op == FZ_FLOOR ? floor(x) : ceil(x);
        }
        break;
    case FZ_ABS:
        for (int i = 0; i < w; i++)
            r.v[i] = fabs(a[0].v[i]);
        break;
    case FZ_SIGN:
        for (int i = 0; i < w; i++) {
            double x = a[0].v[i];
            decide(c, x, 0, "sign near 0");
            r.v[i] = x > 0 ? 1 : x < 0 ? -1 : 0;
        }
        break;
    case FZ_NORMALIZE: {
        double s = 0;
        for (int i = 0; i < w; i++)
            s = fin(c, s + fin(c, a[0].v[i] * a[0].v[i]));
        domain(c, sqrt(s) >= FZ_GUARD_DOMAIN, "normalize of a near-zero vector");
        double inv = s > 0 ? fin(c, 1 / sqrt(s)) : 0;
        for (int i = 0; i < w; i++)
            r.v[i] = a[0].v[i] * inv;
        break;
    }
    case FZ_POW:
        for (int i = 0; i < w; i++) {
            double x = a[0].v[i];
            domain(c, x >= FZ_GUARD_DOMAIN, "pow base near or below 0");
            r.v[i] = pow(x > 0 ? x : 1, a[1].v[i]);
        }
        break;
    case FZ_MIN:
    case FZ_MAX:
        for (int i = 0; i < w; i++) {
            double x = a[0].v[i], y = arg_at(&a[1], i);
            r.v[i] = n->op == FZ_MIN ? (y < x ? y : x) : (x < y ? y : x);
        }
        break;
    case FZ_MOD:
        for (int i = 0; i < w; i++) {
            double x = a[0].v[i], y = arg_at(&a[1], i);
            domain(c, fabs(y) >= FZ_GUARD_DOMAIN, "mod by a near-zero value");
            if (y == 0)
                y = 1;
            double q = fin(c, x / y);
            near_int(c, q, "mod near a multiple");
            r.v[i] = x - y * floor(q);
        }
        break;
    case FZ_STEP:
        for (int i = 0; i < w; i++) {
            double e = arg_at(&a[0], i), x = a[1].v[i];
            decide(c, x, e, "step near its edge");
            r.v[i] = x < e ? 0 : 1;
        }
        break;
    case FZ_CLAMP:
        for (int i = 0; i < w; i++) {
            double x = a[0].v[i], lo = arg_at(&a[1], i), hi = arg_at(&a[2], i);
            domain(c, lo <= hi, "clamp with min > max");
            r.v[i] = x < lo ? lo : x > hi ? hi : x;
        }
        break;
    case FZ_MIX:
        for (int i = 0; i < w; i++) {
            double x = a[0].v[i], y = a[1].v[i], t = arg_at(&a[2], i);
            r.v[i] = x * (1 - t) + y * t;
        }
        break;
    case FZ_SMOOTHSTEP:
        for (int i = 0; i < w; i++) {
            double e0 = arg_at(&a[0], i), e1 = arg_at(&a[1], i), x = a[2].v[i];
            domain(c, e1 - e0 >= FZ_GUARD_DOMAIN, "smoothstep with edge0 >= edge1");
            double d = e1 - e0 != 0 ? e1 - e0 : 1;
            double t = (x - e0) / d;
            t = t < 0 ? 0 : t > 1 ? 1 : t;
            r.v[i] = t * t * (3 - 2 * t);
        }
        break;
    case FZ_DOT:
    case FZ_LENGTH:
    case FZ_DISTANCE: {
        double s = 0;
        for (int i = 0; i < a[0].w; i++) {
            double x = n->op == FZ_DOT      ? a[0].v[i] * a[1].v[i]
                       : n->op == FZ_LENGTH ? a[0].v[i] * a[0].v[i]
                                            : (a[0].v[i] - a[1].v[i]) * (a[0].v[i] - a[1].v[i]);
            s = fin(c, s + fin(c, x));
        }
        if (n->op != FZ_DOT) {
            domain(c, sqrt(s) >= FZ_GUARD_DOMAIN, "length of a near-zero vector");
            s = sqrt(s);
        }
        r.v[0] = s;
        break;
    }
    case FZ_CROSS:
        r.v[0] = a[0].v[1] * a[1].v[2] - a[0].v[2] * a[1].v[1];
        r.v[1] = a[0].v[2] * a[1].v[0] - a[0].v[0] * a[1].v[2];
        r.v[2] = a[0].v[0] * a[1].v[1] - a[0].v[1] * a[1].v[0];
        break;
    default:
        unstable(c, "unknown builtin");
        break;
    }
    for (int i = 0; i < w; i++)
        r.v[i] = fin(c, r.v[i]);
    return r;
}

static vec eval(ctx *c, const fz_node *n)
{
    vec r = {{0, 0, 0, 0}, n->width};
    switch (n->kind) {
    case FZ_CONST:
        for (int i = 0; i < n->width; i++)
            r.v[i] = fin(c, n->val[i]);
        break;
    case FZ_VAR: {
        const fz_var *v = &c->p->vars[n->op];
        switch (v->kind) {
        case FZ_VAR_UV: r.v[0] = c->uv[0]; r.v[1] = c->uv[1]; break;
        case FZ_VAR_FRAGCOORD:
            r.v[0] = c->fc[0]; r.v[1] = c->fc[1]; r.v[2] = 0.5; r.v[3] = 1;
            break;
        case FZ_VAR_UNIFORM:
            for (int i = 0; i < v->width; i++)
                r.v[i] = fin(c, v->value[i]);
            break;
        default:
            memcpy(r.v, c->vars[n->op], sizeof r.v);
            break;
        }
        break;
    }
    case FZ_COUNTER: r.v[0] = c->counters[n->op]; break;
    case FZ_SWZ: {
        vec a = eval(c, n->kids[0]);
        for (int i = 0; i < n->width; i++)
            r.v[i] = a.v[n->swz[i]];
        break;
    }
    case FZ_NEG: {
        vec a = eval(c, n->kids[0]);
        for (int i = 0; i < n->width; i++)
            r.v[i] = -a.v[i];
        break;
    }
    case FZ_BIN: {
        vec a = eval(c, n->kids[0]), b = eval(c, n->kids[1]);
        for (int i = 0; i < n->width; i++) {
            double x = arg_at(&a, i), y = arg_at(&b, i);
            switch (n->aux) {
            case 0: r.v[i] = x + y; break;
            case 1: r.v[i] = x - y; break;
            case 2: r.v[i] = x * y; break;
            default:
                domain(c, fabs(y) >= FZ_GUARD_DOMAIN, "division by a near-zero value");
                r.v[i] = x / (y != 0 ? y : 1);
                break;
            }
            r.v[i] = fin(c, r.v[i]);
        }
        break;
    }
    case FZ_CALL: return call(c, n);
    case FZ_CTOR: {
        if (n->nkids == 1 && n->kids[0]->width == 1) {
            vec a = eval(c, n->kids[0]);
            for (int i = 0; i < n->width; i++)
                r.v[i] = a.v[0];
        } else {
            int k = 0;
            for (int j = 0; j < n->nkids; j++) {
                vec a = eval(c, n->kids[j]);
                for (int i = 0; i < a.w && k < 4; i++)
                    r.v[k++] = a.v[i];
            }
        }
        break;
    }
    default:
        unstable(c, "bad expression");
        break;
    }
    return r;
}

static bool cond(ctx *c, const fz_node *n)
{
    switch (n->kind) {
    case FZ_CMP: {
        double a = eval(c, n->kids[0]).v[0], b = eval(c, n->kids[1]).v[0];
        decide(c, a, b, "comparison near its threshold");
        switch (n->aux) {
        case 0: return a < b;
        case 1: return a <= b;
        case 2: return a > b;
        default: return a >= b;
        }
    }
    case FZ_ICMP: {
        int a = c->counters[n->op], b = n->ival;
        switch (n->aux) {
        case 0: return a < b;
        case 1: return a <= b;
        case 2: return a > b;
        case 3: return a >= b;
        case 4: return a == b;
        default: return a != b;
        }
    }
    case FZ_AND: return cond(c, n->kids[0]) && cond(c, n->kids[1]);
    case FZ_OR: return cond(c, n->kids[0]) || cond(c, n->kids[1]);
    case FZ_NOT: return !cond(c, n->kids[0]);
    case FZ_BOOL: return n->ival != 0;
    default: unstable(c, "bad condition"); return false;
    }
}

static void store(ctx *c, double *dst, int var_width, const fz_node *n, vec v)
{
    int nch = n->nswz ? n->nswz : var_width;
    for (int i = 0; i < nch; i++) {
        int ch = n->nswz ? n->swz[i] : i;
        double x = v.v[i];
        if (n->aux == 1)
            x = dst[ch] + x;
        else if (n->aux == 2)
            x = dst[ch] * x;
        dst[ch] = fin(c, x);
    }
}

static int exec_block(ctx *c, const fz_node *b);

static int exec(ctx *c, const fz_node *n)
{
    switch (n->kind) {
    case FZ_BLOCK: return exec_block(c, n);
    case FZ_DECL: {
        vec v = eval(c, n->kids[0]);
        memcpy(c->vars[n->op], v.v, sizeof v.v);
        return FLOW_NEXT;
    }
    case FZ_ASSIGN:
        store(c, c->vars[n->op], c->p->vars[n->op].width, n, eval(c, n->kids[0]));
        return FLOW_NEXT;
    case FZ_OUT: store(c, c->out, 4, n, eval(c, n->kids[0])); return FLOW_NEXT;
    case FZ_IF:
        if (cond(c, n->kids[0]))
            return exec_block(c, n->kids[1]);
        return n->nkids > 2 ? exec_block(c, n->kids[2]) : FLOW_NEXT;
    case FZ_LOOP: {
        int trip = n->uni >= 0 ? (int)c->p->vars[n->uni].value[0] : n->ival;
        int *i = &c->counters[n->op];
        if (n->aux == FZ_FOR) {
            for (*i = 0; *i < trip; (*i)++) {
                int f = exec_block(c, n->kids[0]);
                if (f == FLOW_BREAK)
                    break;
                if (f == FLOW_RETURN)
                    return f;
            }
        } else {
            *i = 0;
            if (n->aux == FZ_WHILE && !(*i < trip))
                return FLOW_NEXT;
            do {
                (*i)++;
                int f = exec_block(c, n->kids[0]);
                if (f == FLOW_BREAK)
                    break;
                if (f == FLOW_RETURN)
                    return f;
            } while (*i < trip);
        }
        return FLOW_NEXT;
    }
    case FZ_BREAK: return FLOW_BREAK;
    case FZ_CONTINUE: return FLOW_CONTINUE;
    case FZ_DISCARD: c->killed = true; return FLOW_RETURN;
    case FZ_RETURN: return FLOW_RETURN;
    default: unstable(c, "bad statement"); return FLOW_RETURN;
    }
}

static int exec_block(ctx *c, const fz_node *b)
{
    for (int i = 0; i < b->nkids; i++) {
        int f = exec(c, b->kids[i]);
        if (f != FLOW_NEXT)
            return f;
    }
    return FLOW_NEXT;
}

static void run_pixel(ctx *c, const fz_program *p, bool f32, int x, int y, int w, int h)
{
    memset(c, 0, sizeof *c);
    c->p = p;
    c->f32 = f32;
    c->uv[0] = fin(c, (x + 0.5) / w);
    c->uv[1] = fin(c, (y + 0.5) / h);
    c->fc[0] = x + 0.5;
    c->fc[1] = y + 0.5;
    exec_block(c, p->main);
    if (c->killed)
        memset(c->out, 0, sizeof c->out);
}

size_t fz_evaluate(const fz_program *p, int w, int h, fz_pixel *px)
{
    size_t bad = 0;
    ctx cd, cf;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            fz_pixel *o = &px[(size_t)y * (size_t)w + (size_t)x];
            run_pixel(&cd, p, false, x, y, w, h);
            run_pixel(&cf, p, true, x, y, w, h);
            memcpy(o->rgba, cd.out, sizeof o->rgba);
            o->killed = cd.killed;
            o->stable = !cd.unstable && !cf.unstable;
            snprintf(o->why, sizeof o->why, "%s", cd.unstable ? cd.why : cf.why);
            if (o->stable && cd.killed != cf.killed) {
                o->stable = false;
                snprintf(o->why, sizeof o->why, "float and double differ in discard");
            }
            for (int k = 0; o->stable && k < 4; k++)
                if (fabs(cd.out[k] - cf.out[k]) > FZ_GUARD_FLOAT * scale(cd.out[k], 0)) {
                    o->stable = false;
                    snprintf(o->why, sizeof o->why, "float and double results differ");
                }
            if (!o->stable)
                bad++;
        }
    return bad;
}

bool fz_guard(const fz_program *p, int w, int h, fz_pixel *px, char *why, size_t n)
{
    size_t bad = fz_evaluate(p, w, h, px), total = (size_t)w * (size_t)h;
    if ((double)bad <= FZ_GUARD_MAX_UNSTABLE * (double)total)
        return true;
    const char *first = "";
    for (size_t i = 0; i < total; i++)
        if (!px[i].stable) {
            first = px[i].why;
            break;
        }
    if (why && n)
        snprintf(why, n, "%zu of %zu pixels unstable (first: %s)", bad, total, first);
    return false;
}
