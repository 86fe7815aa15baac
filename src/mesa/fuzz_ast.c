/* The fuzzer's GLSL AST: nodes, validity, GLSL 1.10 printer
 * (include/lockstep/mesa_fuzz.h, docs/mesa-fuzz.md). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "lockstep/mesa_fuzz.h"

const char *const fz_builtin_names[FZ_BUILTIN_COUNT] = {
    "sin", "cos", "exp2", "log2", "exp", "log", "sqrt", "inversesqrt", "fract", "floor", "ceil",
    "abs", "sign", "normalize", "pow", "min", "max", "mod", "step", "clamp", "mix", "smoothstep",
    "dot", "length", "distance", "cross",
};

fz_node *fz_node_new(fz_kind kind)
{
    fz_node *n = calloc(1, sizeof *n);
    if (n) {
        n->kind = kind;
        n->uni = -1;
        n->width = 1;
    }
    return n;
}

void fz_node_free(fz_node *n)
{
    if (!n)
        return;
    for (int i = 0; i < n->nkids; i++)
        fz_node_free(n->kids[i]);
    free(n->kids);
    free(n);
}

bool fz_node_add(fz_node *parent, fz_node *kid)
{
    if (!parent || !kid) {
        fz_node_free(kid);
        return false;
    }
    fz_node **k = realloc(parent->kids, (size_t)(parent->nkids + 1) * sizeof *k);
    if (!k) {
        fz_node_free(kid);
        return false;
    }
    parent->kids = k;
    parent->kids[parent->nkids++] = kid;
    return true;
}

fz_node *fz_node_clone(const fz_node *n)
{
    if (!n)
        return NULL;
    fz_node *c = malloc(sizeof *c);
    if (!c)
        return NULL;
    *c = *n;
    c->kids = NULL;
    c->nkids = 0;
    if (n->nkids) {
        c->kids = calloc((size_t)n->nkids, sizeof *c->kids);
        if (!c->kids) {
            free(c);
            return NULL;
        }
        for (int i = 0; i < n->nkids; i++) {
            c->kids[i] = fz_node_clone(n->kids[i]);
            c->nkids = i + 1;
            if (!c->kids[i]) {
                fz_node_free(c);
                return NULL;
            }
        }
    }
    return c;
}

void fz_program_free(fz_program *p)
{
    if (!p)
        return;
    fz_node_free(p->main);
    p->main = NULL;
}

bool fz_program_clone(const fz_program *src, fz_program *dst)
{
    *dst = *src;
    dst->main = fz_node_clone(src->main);
    return dst->main != NULL;
}

static size_t node_size(const fz_node *n)
{
    size_t s = 1;
    for (int i = 0; n && i < n->nkids; i++)
        s += node_size(n->kids[i]);
    return s;
}

size_t fz_program_size(const fz_program *p) { return p && p->main ? node_size(p->main) : 0; }

/* ---- validity ----------------------------------------------------------- */

typedef struct scope {
    const fz_program *p;
    bool declared[FZ_MAX_VARS];
    bool counter_live[FZ_MAX_VARS];
    int loops;
} scope;

static bool is_expr(fz_kind k) { return k >= FZ_CONST && k <= FZ_CTOR; }
static bool is_cond(fz_kind k) { return k >= FZ_CMP && k <= FZ_BOOL; }

static bool valid_expr(const fz_node *n, scope *s);

static bool var_readable(const fz_node *n, scope *s)
{
    if (n->op < 0 || n->op >= s->p->nvars)
        return false;
    const fz_var *v = &s->p->vars[n->op];
    switch (v->kind) {
    case FZ_VAR_LOCAL: return s->declared[n->op] && n->width == v->width;
    case FZ_VAR_UNIFORM:
    case FZ_VAR_UV:
    case FZ_VAR_FRAGCOORD: return n->width == v->width;
    default: return false;
    }
}

/* Argument widths of a builtin call (result width n->width). */
static bool valid_call(const fz_node *n)
{
    int w = n->width, k = n->nkids;
    const fz_node *const *a = (const fz_node *const *)n->kids;
    switch ((fz_builtin)n->op) {
    case FZ_SIN: case FZ_COS: case FZ_EXP2: case FZ_LOG2: case FZ_EXP: case FZ_LOG:
    case FZ_SQRT: case FZ_INVERSESQRT: case FZ_FRACT: case FZ_FLOOR: case FZ_CEIL:
    case FZ_ABS: case FZ_SIGN:
        return k == 1 && a[0]->width == w;
    case FZ_NORMALIZE:
        return k == 1 && a[0]->width == w && w >= 2;
    case FZ_POW:
        return k == 2 && a[0]->width == w && a[1]->width == w;
    case FZ_MIN: case FZ_MAX: case FZ_MOD:
        return k == 2 && a[0]->width == w && (a[1]->width == w || a[1]->width == 1);
    case FZ_STEP:
        return k == 2 && a[1]->width == w && (a[0]->width == w || a[0]->width == 1);
    case FZ_CLAMP:
        return k == 3 && a[0]->width == w && a[1]->width == a[2]->width &&
               (a[1]->width == w || a[1]->width == 1);
    case FZ_MIX:
        return k == 3 && a[0]->width == w && a[1]->width == w &&
               (a[2]->width == w || a[2]->width == 1);
    case FZ_SMOOTHSTEP:
        return k == 3 && a[2]->width == w && a[0]->width == a[1]->width &&
               (a[0]->width == w || a[0]->width == 1);
    case FZ_DOT: case FZ_DISTANCE:
        return k == 2 && w == 1 && a[0]->width == a[1]->width;
    case FZ_LENGTH:
        return k == 1 && w == 1;
    case FZ_CROSS:
        return k == 2 && w == 3 && a[0]->width == 3 && a[1]->width == 3;
    default:
        return false;
    }
}

static bool valid_expr(const fz_node *n, scope *s)
{
    if (!n || !is_expr(n->kind) || n->width < 1 || n->width > 4)
        return false;
    for (int i = 0; i < n->nkids; i++)
        if (!valid_expr(n->kids[i], s))
            return false;
    switch (n->kind) {
    case FZ_CONST: return n->nkids == 0;
    case FZ_VAR: return n->nkids == 0 && var_readable(n, s);
    case FZ_COUNTER:
        return n->width == 1 && n->op >= 0 && n->op < s->p->nvars &&
               s->p->vars[n->op].kind == FZ_VAR_COUNTER && s->counter_live[n->op];
    case FZ_SWZ:
        if (n->nkids != 1 || n->kids[0]->width < 2)
            return false;
        for (int c = 0; c < n->width; c++)
            if (n->swz[c] >= n->kids[0]->width)
                return false;
        return true;
    case FZ_NEG: return n->nkids == 1 && n->kids[0]->width == n->width;
    case FZ_BIN:
        return n->nkids == 2 && n->aux >= 0 && n->aux < 4 &&
               ((n->kids[0]->width == n->width && (n->kids[1]->width == n->width || n->kids[1]->width == 1)) ||
                (n->kids[1]->width == n->width && n->kids[0]->width == 1));
    case FZ_CALL: return n->op >= 0 && n->op < FZ_BUILTIN_COUNT && valid_call(n);
    case FZ_CTOR: {
        if (n->nkids == 1 && n->kids[0]->width == 1)
            return n->width >= 2;
        int sum = 0;
        for (int i = 0; i < n->nkids; i++)
            sum += n->kids[i]->width;
        return n->nkids >= 2 && sum == n->width;
    }
    default: return false;
    }
}

static bool valid_cond(const fz_node *n, scope *s)
{
    if (!n || !is_cond(n->kind))
        return false;
    switch (n->kind) {
    case FZ_CMP:
        return n->nkids == 2 && n->aux >= 0 && n->aux < 4 && valid_expr(n->kids[0], s) &&
               valid_expr(n->kids[1], s) && n->kids[0]->width == 1 && n->kids[1]->width == 1;
    case FZ_ICMP:
        return n->nkids == 0 && n->aux >= 0 && n->aux < 6 && n->op >= 0 && n->op < s->p->nvars &&
               s->p->vars[n->op].kind == FZ_VAR_COUNTER && s->counter_live[n->op];
    case FZ_AND:
    case FZ_OR: return n->nkids == 2 && valid_cond(n->kids[0], s) && valid_cond(n->kids[1], s);
    case FZ_NOT: return n->nkids == 1 && valid_cond(n->kids[0], s);
    case FZ_BOOL: return n->nkids == 0;
    default: return false;
    }
}

static bool valid_mask(const fz_node *n, int var_width)
{
    if (n->nswz == 0)
        return n->nkids == 1 && n->kids[0]->width == var_width;
    if (var_width == 1 || n->nswz > var_width || n->nkids != 1 || n->kids[0]->width != n->nswz)
        return false;
    unsigned seen = 0;
    for (int c = 0; c < n->nswz; c++) {
        if (n->swz[c] >= var_width || (seen >> n->swz[c] & 1))
            return false;
        seen |= 1u << n->swz[c];
    }
    return true;
}

static bool valid_block(const fz_node *b, scope *s);

static bool valid_stmt(const fz_node *n, scope *s)
{
    if (!n)
        return false;
    switch (n->kind) {
    case FZ_BLOCK: return valid_block(n, s);
    case FZ_DECL:
        if (n->op < 0 || n->op >= s->p->nvars || s->p->vars[n->op].kind != FZ_VAR_LOCAL ||
            s->declared[n->op] || n->nkids != 1 || !valid_expr(n->kids[0], s) ||
            n->kids[0]->width != s->p->vars[n->op].width)
            return false;
        s->declared[n->op] = true;
        return true;
    case FZ_ASSIGN:
        return n->op >= 0 && n->op < s->p->nvars && s->p->vars[n->op].kind == FZ_VAR_LOCAL &&
               s->declared[n->op] && n->aux >= 0 && n->aux < 3 &&
               valid_mask(n, s->p->vars[n->op].width) && valid_expr(n->kids[0], s);
    case FZ_OUT:
        return n->aux >= 0 && n->aux < 3 && valid_mask(n, 4) && valid_expr(n->kids[0], s);
    case FZ_IF:
        if (n->nkids < 2 || n->nkids > 3 || !valid_cond(n->kids[0], s))
            return false;
        for (int i = 1; i < n->nkids; i++)
            if (n->kids[i]->kind != FZ_BLOCK || !valid_block(n->kids[i], s))
                return false;
        return true;
    case FZ_LOOP: {
        if (n->nkids != 1 || n->kids[0]->kind != FZ_BLOCK || n->aux < 0 || n->aux > 2 ||
            n->op < 0 || n->op >= s->p->nvars || s->p->vars[n->op].kind != FZ_VAR_COUNTER ||
            s->counter_live[n->op])
            return false;
        if (n->uni >= 0 ? (n->uni >= s->p->nvars || s->p->vars[n->uni].kind != FZ_VAR_UNIFORM_INT)
                        : (n->ival < 0 || n->ival > 255))
            return false;
        s->counter_live[n->op] = true;
        s->loops++;
        bool ok = valid_block(n->kids[0], s);
        s->loops--;
        s->counter_live[n->op] = false;
        return ok;
    }
    case FZ_BREAK:
    case FZ_CONTINUE: return s->loops > 0 && n->nkids == 0;
    case FZ_DISCARD:
    case FZ_RETURN: return n->nkids == 0;
    default: return false;
    }
}

static bool valid_block(const fz_node *b, scope *s)
{
    if (b->kind != FZ_BLOCK)
        return false;
    bool saved[FZ_MAX_VARS];
    memcpy(saved, s->declared, sizeof saved);
    bool ok = true;
    for (int i = 0; ok && i < b->nkids; i++)
        ok = valid_stmt(b->kids[i], s);
    memcpy(s->declared, saved, sizeof saved);
    return ok;
}

bool fz_program_valid(const fz_program *p)
{
    if (!p || !p->main || p->nvars < 0 || p->nvars > FZ_MAX_VARS)
        return false;
    scope s;
    memset(&s, 0, sizeof s);
    s.p = p;
    return valid_block(p->main, &s);
}

/* ---- printer ------------------------------------------------------------ */

static const char *const type_names[5] = {"", "float", "vec2", "vec3", "vec4"};
static const char chan[4] = {'x', 'y', 'z', 'w'};
static const char *const bin_ops[4] = {"+", "-", "*", "/"};
static const char *const cmp_ops[6] = {"<", "<=", ">", ">=", "==", "!="};
static const char *const assign_ops[3] = {"=", "+=", "*="};

static void print_num(ls_buf *b, double v)
{
    /* constants are exact binary fractions (k/64): %.6f prints them exactly */
    char t[64];
    snprintf(t, sizeof t, "%.6f", v);
    /* trim trailing zeros but keep one digit after the point */
    char *dot = strchr(t, '.');
    if (dot) {
        char *e = t + strlen(t) - 1;
        while (e > dot + 1 && *e == '0')
            *e-- = 0;
    }
    if (v < 0)
        ls_buf_printf(b, "(%s)", t);
    else
        ls_buf_puts(b, t);
}

static void print_expr(const fz_program *p, const fz_node *n, ls_buf *b);

static void print_cond(const fz_program *p, const fz_node *n, ls_buf *b)
{
    switch (n->kind) {
    case FZ_CMP:
        ls_buf_putc(b, '(');
        print_expr(p, n->kids[0], b);
        ls_buf_printf(b, " %s ", cmp_ops[n->aux]);
        print_expr(p, n->kids[1], b);
        ls_buf_putc(b, ')');
        break;
    case FZ_ICMP:
        ls_buf_printf(b, "(%s %s %d)", p->vars[n->op].name, cmp_ops[n->aux], n->ival);
        break;
    case FZ_AND:
    case FZ_OR:
        ls_buf_putc(b, '(');
        print_cond(p, n->kids[0], b);
        ls_buf_puts(b, n->kind == FZ_AND ? " && " : " || ");
        print_cond(p, n->kids[1], b);
        ls_buf_putc(b, ')');
        break;
    case FZ_NOT:
        ls_buf_putc(b, '!');
        print_cond(p, n->kids[0], b);
        break;
    case FZ_BOOL: ls_buf_puts(b, n->ival ? "true" : "false"); break;
    default: ls_buf_puts(b, "/*?*/"); break;
    }
}

static void print_expr(const fz_program *p, const fz_node *n, ls_buf *b)
{
    switch (n->kind) {
    case FZ_CONST:
        if (n->width == 1) {
            print_num(b, n->val[0]);
        } else {
            bool same = true;
            for (int c = 1; c < n->width; c++)
                same = same && n->val[c] == n->val[0];
            ls_buf_printf(b, "%s(", type_names[n->width]);
            for (int c = 0; c < (same ? 1 : n->width); c++) {
                if (c)
                    ls_buf_puts(b, ", ");
                print_num(b, n->val[c]);
            }
            ls_buf_putc(b, ')');
        }
        break;
    case FZ_VAR: ls_buf_puts(b, p->vars[n->op].name); break;
    case FZ_COUNTER: ls_buf_printf(b, "float(%s)", p->vars[n->op].name); break;
    case FZ_SWZ: {
        const fz_node *k = n->kids[0];
        bool simple = k->kind == FZ_VAR || k->kind == FZ_CALL || k->kind == FZ_CTOR ||
                      k->kind == FZ_SWZ;
        if (!simple)
            ls_buf_putc(b, '(');
        print_expr(p, k, b);
        if (!simple)
            ls_buf_putc(b, ')');
        ls_buf_putc(b, '.');
        for (int c = 0; c < n->width; c++)
            ls_buf_putc(b, chan[n->swz[c]]);
        break;
    }
    case FZ_NEG:
        ls_buf_puts(b, "(-");
        print_expr(p, n->kids[0], b);
        ls_buf_putc(b, ')');
        break;
    case FZ_BIN:
        ls_buf_putc(b, '(');
        print_expr(p, n->kids[0], b);
        ls_buf_printf(b, " %s ", bin_ops[n->aux]);
        print_expr(p, n->kids[1], b);
        ls_buf_putc(b, ')');
        break;
    case FZ_CALL:
    case FZ_CTOR:
        ls_buf_printf(b, "%s(", n->kind == FZ_CALL ? fz_builtin_names[n->op] : type_names[n->width]);
        for (int i = 0; i < n->nkids; i++) {
            if (i)
                ls_buf_puts(b, ", ");
            print_expr(p, n->kids[i], b);
        }
        ls_buf_putc(b, ')');
        break;
    default: ls_buf_puts(b, "/*?*/"); break;
    }
}

static void indent(ls_buf *b, int depth)
{
    for (int i = 0; i < depth; i++)
        ls_buf_puts(b, "  ");
}

static void print_block_body(const fz_program *p, const fz_node *blk, ls_buf *b, int depth);

static void print_mask(ls_buf *b, const fz_node *n)
{
    if (n->nswz) {
        ls_buf_putc(b, '.');
        for (int c = 0; c < n->nswz; c++)
            ls_buf_putc(b, chan[n->swz[c]]);
    }
}

static void print_stmt(const fz_program *p, const fz_node *n, ls_buf *b, int depth)
{
    switch (n->kind) {
    case FZ_BLOCK:
        indent(b, depth);
        ls_buf_puts(b, "{\n");
        print_block_body(p, n, b, depth + 1);
        indent(b, depth);
        ls_buf_puts(b, "}\n");
        break;
    case FZ_DECL:
        indent(b, depth);
        ls_buf_printf(b, "%s %s = ", type_names[p->vars[n->op].width], p->vars[n->op].name);
        print_expr(p, n->kids[0], b);
        ls_buf_puts(b, ";\n");
        break;
    case FZ_ASSIGN:
    case FZ_OUT:
        indent(b, depth);
        ls_buf_puts(b, n->kind == FZ_OUT ? "gl_FragColor" : p->vars[n->op].name);
        print_mask(b, n);
        ls_buf_printf(b, " %s ", assign_ops[n->aux]);
        print_expr(p, n->kids[0], b);
        ls_buf_puts(b, ";\n");
        break;
    case FZ_IF:
        indent(b, depth);
        ls_buf_puts(b, "if ");
        if (n->kids[0]->kind == FZ_BOOL || n->kids[0]->kind == FZ_NOT) {
            ls_buf_putc(b, '(');
            print_cond(p, n->kids[0], b);
            ls_buf_putc(b, ')');
        } else {
            print_cond(p, n->kids[0], b);
        }
        ls_buf_puts(b, " {\n");
        print_block_body(p, n->kids[1], b, depth + 1);
        indent(b, depth);
        if (n->nkids > 2) {
            ls_buf_puts(b, "} else {\n");
            print_block_body(p, n->kids[2], b, depth + 1);
            indent(b, depth);
        }
        ls_buf_puts(b, "}\n");
        break;
    case FZ_LOOP: {
        const char *i = p->vars[n->op].name;
        char trip[32];
        if (n->uni >= 0)
            snprintf(trip, sizeof trip, "%s", p->vars[n->uni].name);
        else
            snprintf(trip, sizeof trip, "%d", n->ival);
        indent(b, depth);
        if (n->aux == FZ_FOR) {
            ls_buf_printf(b, "for (int %s = 0; %s < %s; %s++) {\n", i, i, trip, i);
            print_block_body(p, n->kids[0], b, depth + 1);
            indent(b, depth);
            ls_buf_puts(b, "}\n");
        } else {
            /* the counter steps first, so continue cannot skip it */
            ls_buf_printf(b, "{\n");
            indent(b, depth + 1);
            ls_buf_printf(b, "int %s = 0;\n", i);
            indent(b, depth + 1);
            if (n->aux == FZ_WHILE)
                ls_buf_printf(b, "while (%s < %s) {\n", i, trip);
            else
                ls_buf_puts(b, "do {\n");
            indent(b, depth + 2);
            ls_buf_printf(b, "%s++;\n", i);
            print_block_body(p, n->kids[0], b, depth + 2);
            indent(b, depth + 1);
            if (n->aux == FZ_WHILE)
                ls_buf_puts(b, "}\n");
            else
                ls_buf_printf(b, "} while (%s < %s);\n", i, trip);
            indent(b, depth);
            ls_buf_puts(b, "}\n");
        }
        break;
    }
    case FZ_BREAK: indent(b, depth); ls_buf_puts(b, "break;\n"); break;
    case FZ_CONTINUE: indent(b, depth); ls_buf_puts(b, "continue;\n"); break;
    case FZ_DISCARD: indent(b, depth); ls_buf_puts(b, "discard;\n"); break;
    case FZ_RETURN: indent(b, depth); ls_buf_puts(b, "return;\n"); break;
    default: indent(b, depth); ls_buf_puts(b, "/*?*/\n"); break;
    }
}

static void print_block_body(const fz_program *p, const fz_node *blk, ls_buf *b, int depth)
{
    for (int i = 0; i < blk->nkids; i++)
        print_stmt(p, blk->kids[i], b, depth);
}

static void mark_used(const fz_node *n, bool *used)
{
    if (!n)
        return;
    if (n->kind == FZ_VAR)
        used[n->op] = true;
    if (n->kind == FZ_LOOP && n->uni >= 0)
        used[n->uni] = true;
    for (int i = 0; i < n->nkids; i++)
        mark_used(n->kids[i], used);
}

void fz_program_print(const fz_program *p, ls_buf *b)
{
    bool used[FZ_MAX_VARS] = {false};
    mark_used(p->main, used);
    ls_buf_puts(b, "#version 110\n");
    for (int v = 0; v < p->nvars; v++) {
        const fz_var *var = &p->vars[v];
        if (!used[v])
            continue;
        if (var->kind == FZ_VAR_UNIFORM)
            ls_buf_printf(b, "uniform %s %s;\n", type_names[var->width], var->name);
        else if (var->kind == FZ_VAR_UNIFORM_INT)
            ls_buf_printf(b, "uniform int %s;\n", var->name);
    }
    for (int v = 0; v < p->nvars; v++)
        if (used[v] && p->vars[v].kind == FZ_VAR_UV)
            ls_buf_printf(b, "varying vec2 %s;\n", p->vars[v].name);
    ls_buf_puts(b, "void main()\n{\n  gl_FragColor = vec4(0.0);\n");
    print_block_body(p, p->main, b, 1);
    ls_buf_puts(b, "}\n");
}

int fz_program_uniform_args(const fz_program *p, ls_buf *out)
{
    bool used[FZ_MAX_VARS] = {false};
    mark_used(p->main, used);
    int n = 0;
    for (int v = 0; v < p->nvars; v++) {
        const fz_var *var = &p->vars[v];
        if (!used[v] || (var->kind != FZ_VAR_UNIFORM && var->kind != FZ_VAR_UNIFORM_INT))
            continue;
        ls_buf_printf(out, "%s=", var->name);
        for (int c = 0; c < var->width; c++) {
            if (var->kind == FZ_VAR_UNIFORM_INT)
                ls_buf_printf(out, "%s%d", c ? "," : "", (int)var->value[c]);
            else
                ls_buf_printf(out, "%s%.6f", c ? "," : "", var->value[c]);
        }
        ls_buf_putc(out, 0);
        n++;
    }
    return n;
}
