/* R500 assembler: see include/lockstep/r500_asm.h and docs/r500-asm.md. */
#include "lockstep/r500_asm.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "asm_lex.h"
#include "base/buf.h"

/* ---- parser state ------------------------------------------------------- */

typedef struct label {
    char name[64];
    int index;          /* instruction index, -1 while only referenced */
    const asm_tok *def; /* where defined */
} label;

typedef struct fixup {
    size_t inst;        /* instruction whose JUMP_ADDR takes the label */
    unsigned label;
    const asm_tok *at;
} fixup;

typedef struct ctl {
    int kind;           /* CTL_IF, CTL_LOOP, CTL_REP */
    size_t ip;          /* IF / LOOP / REP instruction */
    long else_ip;       /* IF: ELSE instruction, -1 */
    int ifs_open;       /* LOOP/REP: IFs open inside it (for B_POP_CNT) */
    size_t *brk;        /* LOOP/REP: BREAK/CONTINUE instructions to patch */
    size_t nbrk;
    const asm_tok *at;
    uint32_t int_addr;
} ctl;

enum { CTL_IF, CTL_LOOP, CTL_REP };

typedef struct parser {
    asm_lexed lx;
    size_t pos;
    ls_diag_list *errs;
    r500_asm_program *out;
    size_t cap;
    label *labels;
    unsigned nlabels;
    fixup *fix;
    size_t nfix;
    ctl ctls[64];
    int nctl;
    bool oom;
} parser;

static const asm_tok *cur(parser *p)
{
    return &p->lx.toks[p->pos];
}

static const asm_tok *peek(parser *p, size_t k)
{
    size_t i = p->pos + k;
    if (i >= p->lx.ntoks)
        i = p->lx.ntoks - 1;
    return &p->lx.toks[i];
}

static void adv(parser *p)
{
    if (p->lx.toks[p->pos].kind != TK_EOF)
        p->pos++;
}

static void error(parser *p, const asm_tok *t, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void error(parser *p, const asm_tok *t, const char *fmt, ...)
{
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    ls_diag d;
    asm_tok_diag(&p->lx, t, &d, "%s", msg);
    ls_diag_list_push(p->errs, &d);
}

static bool is_punct(const asm_tok *t, char c)
{
    return t->kind == TK_PUNCT && t->c == c;
}

static bool ident_is(const asm_tok *t, const char *w)
{
    return t->kind == TK_IDENT && strlen(w) == t->n && !strncasecmp(t->s, w, t->n);
}

static void tok_text(const asm_tok *t, char *buf, size_t n)
{
    size_t k = t->n < n - 1 ? t->n : n - 1;
    memcpy(buf, t->s, k);
    buf[k] = 0;
}

/* Skip to the end of the current statement: a ';' or the first token on a
 * later line than `line` (line-oriented statements). */
static void skip_statement(parser *p, const asm_tok *start, bool line_oriented)
{
    while (cur(p)->kind != TK_EOF) {
        const asm_tok *t = cur(p);
        if (is_punct(t, ';')) {
            adv(p);
            return;
        }
        if (line_oriented && (t->line != start->line || t->src != start->src))
            return;
        adv(p);
    }
}

/* At the end of a line-oriented statement: optional ';', nothing else on the line. */
static bool end_line_statement(parser *p, const asm_tok *start)
{
    const asm_tok *t = cur(p);
    if (is_punct(t, ';')) {
        adv(p);
        return true;
    }
    if (t->kind == TK_EOF || t->line != start->line || t->src != start->src)
        return true;
    error(p, t, "unexpected '%.*s' at the end of the statement", (int)t->n, t->s);
    skip_statement(p, start, true);
    return false;
}

static size_t emit(parser *p, const uint32_t w[6])
{
    r500_asm_program *o = p->out;
    if (o->count == p->cap) {
        size_t nc = p->cap ? p->cap * 2 : 64;
        uint32_t *nw = realloc(o->words, nc * 6 * sizeof *nw);
        if (!nw) {
            p->oom = true;
            return o->count ? o->count - 1 : 0;
        }
        o->words = nw;
        p->cap = nc;
    }
    memcpy(o->words + o->count * 6, w, 6 * sizeof *w);
    return o->count++;
}

static uint32_t *inst_words(parser *p, size_t ip)
{
    return p->out->words + ip * 6;
}

static unsigned find_label(parser *p, const asm_tok *t)
{
    char name[64];
    tok_text(t, name, sizeof name);
    for (unsigned i = 0; i < p->nlabels; i++)
        if (!strcmp(p->labels[i].name, name))
            return i;
    label *nl = realloc(p->labels, (p->nlabels + 1) * sizeof *nl);
    if (!nl) {
        p->oom = true;
        return 0;
    }
    p->labels = nl;
    memset(&nl[p->nlabels], 0, sizeof *nl);
    snprintf(nl[p->nlabels].name, sizeof nl[p->nlabels].name, "%s", name);
    nl[p->nlabels].index = -1;
    return p->nlabels++;
}

static void add_fixup(parser *p, size_t inst, const asm_tok *t)
{
    unsigned li = find_label(p, t);
    if (p->oom)
        return;
    fixup *nf = realloc(p->fix, (p->nfix + 1) * sizeof *nf);
    if (!nf) {
        p->oom = true;
        return;
    }
    p->fix = nf;
    nf[p->nfix++] = (fixup){inst, li, t};
}

/* ---- numbers ------------------------------------------------------------ */

static bool parse_uint_tok(parser *p, uint64_t max, uint64_t *out, const char *what)
{
    const asm_tok *t = cur(p);
    if (t->kind != TK_NUM || !t->is_int) {
        error(p, t, "expected %s (an integer)", what);
        return false;
    }
    if (t->ival > max) {
        error(p, t, "%s %llu is out of range (0..%llu)", what, (unsigned long long)t->ival,
              (unsigned long long)max);
        adv(p);
        return false;
    }
    *out = t->ival;
    adv(p);
    return true;
}

static bool parse_signed_tok(parser *p, long lo, long hi, long *out, const char *what)
{
    bool neg = false;
    const asm_tok *start = cur(p);
    if (is_punct(start, '-')) {
        neg = true;
        adv(p);
    }
    const asm_tok *t = cur(p);
    if (t->kind != TK_NUM || !t->is_int) {
        error(p, t, "expected %s (an integer)", what);
        return false;
    }
    long v = t->ival > 1000000 ? 1000000 : (long)t->ival;
    if (neg)
        v = -v;
    if (v < lo || v > hi) {
        error(p, start, "%s %ld is out of range (%ld..%ld)", what, v, lo, hi);
        adv(p);
        return false;
    }
    *out = v;
    adv(p);
    return true;
}

/* A float, written as a decimal number (optionally negative) or as 0x bits. */
static bool parse_float_bits(parser *p, uint32_t *bits)
{
    bool neg = false;
    if (is_punct(cur(p), '-')) {
        neg = true;
        adv(p);
    }
    const asm_tok *t = cur(p);
    if (t->kind == TK_IDENT && (ident_is(t, "inf") || ident_is(t, "nan"))) {
        float f = ident_is(t, "inf") ? INFINITY : NAN;
        if (neg)
            f = -f;
        memcpy(bits, &f, 4);
        adv(p);
        return true;
    }
    if (t->kind != TK_NUM) {
        error(p, t, "expected a number");
        return false;
    }
    if (t->is_int && t->n > 2 && (t->s[1] == 'x' || t->s[1] == 'X')) {
        if (t->ival > 0xffffffffu || neg) {
            error(p, t, "float bits must be a 32-bit hex value");
            adv(p);
            return false;
        }
        *bits = (uint32_t)t->ival;
    } else {
        char tmp[64];
        tok_text(t, tmp, sizeof tmp);
        float f = strtof(tmp, NULL);
        if (neg)
            f = -f;
        memcpy(bits, &f, 4);
    }
    adv(p);
    return true;
}

/* ---- conditions (JUMP_FUNC tables) -------------------------------------- */

/* cond := term ('|' term)* ; term := unary ('&' unary)* ;
 * unary := '!' unary | '(' cond ')' | alu | pred[.c] | bool[N] | always | never
 * The value is the 8-entry table over index (alu<<2)|(pred<<1)|bool. */
typedef struct cond_ctx {
    int pred_sel;  /* -1 unset, else RGB_PRED_SEL 2..5 */
    int bool_addr; /* -1 unset */
} cond_ctx;

static bool cond_or(parser *p, cond_ctx *c, uint8_t *v, int depth);

static bool cond_unary(parser *p, cond_ctx *c, uint8_t *v, int depth)
{
    const asm_tok *t = cur(p);
    if (depth > 32) {
        error(p, t, "condition nested too deeply");
        return false;
    }
    if (is_punct(t, '!')) {
        adv(p);
        if (!cond_unary(p, c, v, depth + 1))
            return false;
        *v = (uint8_t)~*v;
        return true;
    }
    if (is_punct(t, '(')) {
        adv(p);
        if (!cond_or(p, c, v, depth + 1))
            return false;
        if (!is_punct(cur(p), ')')) {
            error(p, cur(p), "expected ')'");
            return false;
        }
        adv(p);
        return true;
    }
    if (ident_is(t, "alu")) {
        *v = 0xF0;
    } else if (ident_is(t, "always")) {
        *v = 0xFF;
    } else if (ident_is(t, "never")) {
        *v = 0x00;
    } else if (ident_is(t, "pred")) {
        *v = 0xCC;
        if (is_punct(peek(p, 1), '.')) {
            const asm_tok *ch = peek(p, 2);
            static const char *names[] = {"r", "g", "b", "a"};
            int sel = -1;
            for (int k = 0; k < 4; k++)
                if (ident_is(ch, names[k]))
                    sel = 2 + k;
            if (sel < 0) {
                error(p, ch, "expected pred.r, pred.g, pred.b or pred.a");
                return false;
            }
            if (c->pred_sel >= 0 && c->pred_sel != sel) {
                error(p, ch, "a condition can test only one predicate channel");
                return false;
            }
            c->pred_sel = sel;
            adv(p);
            adv(p);
        }
    } else if (ident_is(t, "bool")) {
        *v = 0xAA;
        if (is_punct(peek(p, 1), '[')) {
            adv(p);
            adv(p);
            uint64_t n;
            if (!parse_uint_tok(p, 31, &n, "boolean index"))
                return false;
            if (!is_punct(cur(p), ']')) {
                error(p, cur(p), "expected ']'");
                return false;
            }
            if (c->bool_addr >= 0 && c->bool_addr != (int)n) {
                error(p, t, "a condition can test only one boolean");
                return false;
            }
            c->bool_addr = (int)n;
        }
    } else {
        error(p, t, "expected a condition (alu, pred.r/g/b/a, bool[N], always, never, !, &, |)");
        return false;
    }
    adv(p);
    return true;
}

/* A chain of operands joined by '&' (level 0: the operands are unary
 * conditions) or by '|' (level 1: the operands are '&' chains, so that '&'
 * binds tighter). */
static bool cond_chain(parser *p, cond_ctx *c, uint8_t *v, int depth, int level);

static bool cond_operand(parser *p, cond_ctx *c, uint8_t *v, int depth, int level)
{
    return level ? cond_chain(p, c, v, depth, level - 1) : cond_unary(p, c, v, depth);
}

static bool cond_chain(parser *p, cond_ctx *c, uint8_t *v, int depth, int level)
{
    if (!cond_operand(p, c, v, depth, level))
        return false;
    while (is_punct(cur(p), level ? '|' : '&')) {
        adv(p);
        uint8_t r;
        if (!cond_operand(p, c, &r, depth, level))
            return false;
        *v = (uint8_t)(level ? *v | r : *v & r);
    }
    return true;
}

static bool cond_or(parser *p, cond_ctx *c, uint8_t *v, int depth)
{
    return cond_chain(p, c, v, depth, 1);
}

/* ---- field forms: .alu/.out/.tex/.fc NAME=VALUE ... ---------------------- */

static int field_by_name(r500_inst_type type, const char *name)
{
    int found = -1, count = 0;
    for (int i = 0; i < R500_F_COUNT; i++) {
        const r500_field_desc *f = r500_field((r500_field_id)i);
        if (!r500_field_applies(f, type))
            continue;
        if (!strcasecmp(f->id, name))
            return i;
        if (!strcasecmp(f->name, name)) {
            found = i;
            count++;
        }
    }
    return count == 1 ? found : (count > 1 ? -2 : -1);
}

/* Parse FIELD=VALUE assignments into `in` until `stop` returns true. A label
 * given for FC_JUMP_ADDR is returned in *label_tok. */
static bool field_assignments(parser *p, r500_inst *in, bool *set, const asm_tok **label_tok,
                              bool (*stop)(parser *, const asm_tok *), const asm_tok *start)
{
    r500_inst_type type = in->type;
    while (!stop(p, start)) {
        const asm_tok *nt = cur(p);
        if (nt->kind != TK_IDENT) {
            error(p, nt, "expected FIELD=value");
            return false;
        }
        char name[64];
        tok_text(nt, name, sizeof name);
        int f = field_by_name(type, name);
        if (f == -2) {
            error(p, nt, "field name '%s' is ambiguous for %s instructions: use its full "
                         "identifier",
                  name, r500_value_name(R500_V_TYPE, type));
            return false;
        }
        if (f < 0 || f == R500_F_TYPE) {
            error(p, nt, "unknown field '%s' for %s instructions", name,
                  r500_value_name(R500_V_TYPE, type));
            return false;
        }
        if (set[f]) {
            error(p, nt, "field %s written twice", r500_field((r500_field_id)f)->id);
            return false;
        }
        set[f] = true;
        adv(p);
        if (!is_punct(cur(p), '=')) {
            error(p, cur(p), "expected '=' after %s", name);
            return false;
        }
        adv(p);
        const r500_field_desc *fd = r500_field((r500_field_id)f);
        uint64_t maxv = fd->width >= 32 ? 0xffffffffu : ((1ull << fd->width) - 1);
        const asm_tok *vt = cur(p);
        if (f == R500_F_FC_JUMP_FUNC && vt->kind != TK_NUM) {
            cond_ctx c = {-1, -1};
            uint8_t v;
            if (!cond_or(p, &c, &v, 0))
                return false;
            in->field[f] = v;
            if (c.pred_sel >= 0) {
                if (set[R500_F_RGB_PRED_SEL] && in->field[R500_F_RGB_PRED_SEL] != (uint32_t)c.pred_sel) {
                    error(p, vt, "the condition's predicate channel disagrees with RGB_PRED_SEL");
                    return false;
                }
                in->field[R500_F_RGB_PRED_SEL] = (uint32_t)c.pred_sel;
                set[R500_F_RGB_PRED_SEL] = true;
            }
            if (c.bool_addr >= 0) {
                if (set[R500_F_FC_BOOL_ADDR] && in->field[R500_F_FC_BOOL_ADDR] != (uint32_t)c.bool_addr) {
                    error(p, vt, "the condition's boolean disagrees with BOOL_ADDR");
                    return false;
                }
                in->field[R500_F_FC_BOOL_ADDR] = (uint32_t)c.bool_addr;
                set[R500_F_FC_BOOL_ADDR] = true;
            }
            continue;
        }
        if (f == R500_F_FC_JUMP_ADDR && vt->kind == TK_IDENT) {
            *label_tok = vt;
            adv(p);
            continue;
        }
        if (vt->kind == TK_IDENT && fd->values != R500_V_NONE) {
            char vn[64];
            tok_text(vt, vn, sizeof vn);
            uint32_t v;
            if (!r500_value_lookup(fd->values, vn, &v)) {
                error(p, vt, "'%s' is not a value of %s", vn, fd->id);
                return false;
            }
            in->field[f] = v;
            adv(p);
            continue;
        }
        uint64_t v;
        if (!parse_uint_tok(p, maxv, &v, fd->id))
            return false;
        in->field[f] = (uint32_t)v;
    }
    return true;
}

static bool stop_at_line_end(parser *p, const asm_tok *start)
{
    const asm_tok *t = cur(p);
    return t->kind == TK_EOF || is_punct(t, ';') || t->line != start->line || t->src != start->src;
}


static void field_form(parser *p, r500_inst_type type)
{
    const asm_tok *start = cur(p);
    adv(p); /* the .keyword */
    r500_inst in;
    r500_inst_init(&in, type);
    bool set[R500_F_COUNT] = {0};
    const asm_tok *label_tok = NULL;
    if (!field_assignments(p, &in, set, &label_tok, stop_at_line_end, start)) {
        skip_statement(p, start, true);
        return;
    }
    if (!end_line_statement(p, start))
        return;
    uint32_t w[6];
    r500_encode(&in, w);
    size_t ip = emit(p, w);
    if (label_tok)
        add_fixup(p, ip, label_tok);
}

static void raw_form(parser *p)
{
    const asm_tok *start = cur(p);
    adv(p);
    uint32_t w[6];
    for (int k = 0; k < 6; k++) {
        uint64_t v;
        if (!parse_uint_tok(p, 0xffffffffu, &v, "instruction word")) {
            skip_statement(p, start, true);
            return;
        }
        w[k] = (uint32_t)v;
        if (is_punct(cur(p), ','))
            adv(p);
    }
    if (end_line_statement(p, start))
        emit(p, w);
}

/* ---- directives ---------------------------------------------------------- */

static void directive(parser *p)
{
    const asm_tok *start = cur(p);    /* '.' */
    const asm_tok *kw = peek(p, 1);
    r500_asm_state *s = &p->out->state;
    bool fc_mode = ident_is(kw, "fc") && (ident_is(peek(p, 2), "full") || ident_is(peek(p, 2), "partial")) &&
                   !is_punct(peek(p, 3), '=');
    if (!fc_mode && (ident_is(kw, "alu") || ident_is(kw, "out") || ident_is(kw, "tex") || ident_is(kw, "fc"))) {
        adv(p);
        r500_inst_type t = ident_is(kw, "alu")   ? R500_TYPE_ALU
                           : ident_is(kw, "out") ? R500_TYPE_OUT
                           : ident_is(kw, "tex") ? R500_TYPE_TEX
                                                 : R500_TYPE_FC;
        field_form(p, t);
        return;
    }
    if (ident_is(kw, "raw")) {
        adv(p);
        raw_form(p);
        return;
    }
    adv(p);
    adv(p);
    uint64_t n;
    bool ok = true;
    if (ident_is(kw, "const")) {
        if ((ok = parse_uint_tok(p, R500_NUM_CONSTS - 1, &n, "constant index"))) {
            uint32_t v[4];
            for (int k = 0; ok && k < 4; k++) {
                if (k && is_punct(cur(p), ','))
                    adv(p);
                ok = parse_float_bits(p, &v[k]);
            }
            if (ok) {
                if (s->const_set[n])
                    error(p, start, "constant %llu defined twice", (unsigned long long)n);
                memcpy(s->consts[n], v, sizeof v);
                s->const_set[n] = true;
            }
        }
    } else if (ident_is(kw, "bool")) {
        uint64_t v;
        if ((ok = parse_uint_tok(p, 31, &n, "boolean index") && parse_uint_tok(p, 1, &v, "boolean value"))) {
            s->bool_const = (s->bool_const & ~(1u << n)) | ((uint32_t)v << n);
            s->bool_set = true;
        }
    } else if (ident_is(kw, "int")) {
        uint64_t cnt, init;
        long step;
        if ((ok = parse_uint_tok(p, 31, &n, "integer constant index"))) {
            ok = parse_uint_tok(p, 255, &cnt, "loop count") &&
                 parse_uint_tok(p, 255, &init, "initial aL") &&
                 parse_signed_tok(p, -128, 127, &step, "aL step");
            if (ok) {
                s->int_const[n] = (uint32_t)cnt | (uint32_t)init << 8 | ((uint32_t)step & 0xffu) << 16;
                s->int_set |= 1u << n;
            }
        }
    } else if (ident_is(kw, "fc")) {
        if (ident_is(cur(p), "full"))
            s->fc_full = 1;
        else if (ident_is(cur(p), "partial"))
            s->fc_full = 0;
        else {
            error(p, cur(p), "expected .fc full or .fc partial");
            ok = false;
        }
        if (ok)
            adv(p);
    } else if (ident_is(kw, "offset")) {
        if ((ok = parse_uint_tok(p, R500_MAX_INSTS - 1, &n, "code offset")))
            s->offset = (int)n;
    } else {
        char k[64];
        tok_text(kw, k, sizeof k);
        error(p, kw, "unknown directive '.%s'", k);
        ok = false;
    }
    if (!ok) {
        skip_statement(p, start, true);
        return;
    }
    end_line_statement(p, start);
}

/* ---- structured flow control (r500.md §3.2) ------------------------------ */

#define FC_CMN 0x00000402u /* TYPE=FC | ALU_WAIT, as Mesa emits */

static void fc_emit(parser *p, uint32_t inst2, uint32_t inst3, size_t *ip)
{
    uint32_t w[6] = {FC_CMN, 0, inst2, inst3, 0, 0};
    *ip = emit(p, w);
}

static ctl *ctl_push(parser *p, int kind, const asm_tok *at)
{
    if (p->nctl >= 64) {
        error(p, at, "flow control nested more than 64 deep");
        return NULL;
    }
    ctl *c = &p->ctls[p->nctl++];
    memset(c, 0, sizeof *c);
    c->kind = kind;
    c->at = at;
    c->else_ip = -1;
    return c;
}

static ctl *innermost_loop(parser *p)
{
    for (int k = p->nctl - 1; k >= 0; k--)
        if (p->ctls[k].kind != CTL_IF)
            return &p->ctls[k];
    return NULL;
}

static bool jump_func_cond(parser *p, const asm_tok *start, uint8_t *jf, cond_ctx *c,
                           uint8_t dflt)
{
    c->pred_sel = -1;
    c->bool_addr = -1;
    const asm_tok *t = cur(p);
    if (t->kind == TK_EOF || is_punct(t, ';') || t->line != start->line || t->src != start->src) {
        *jf = dflt;
        return true;
    }
    return cond_or(p, c, jf, 0);
}

static void apply_cond_fields(parser *p, size_t ip, const cond_ctx *c)
{
    uint32_t *w = inst_words(p, ip);
    if (c->pred_sel >= 0)
        w[0] |= (uint32_t)c->pred_sel << 3;
    if (c->bool_addr >= 0)
        w[3] |= (uint32_t)c->bool_addr;
}

/* A structured FC statement may end with TEX_SEM_WAIT (current Mesa adds it
 * when the scheduler asks, r500.md §3.2). It is removed from the token
 * stream view by remembering it here and applied to the emitted word. */
static bool trailing_sem_wait(parser *p, const asm_tok *start)
{
    /* look ahead on the statement's line for the tag as its last token */
    size_t i = p->pos;
    while (i < p->lx.ntoks) {
        const asm_tok *t = &p->lx.toks[i];
        if (t->kind == TK_EOF || t->line != start->line || t->src != start->src || is_punct(t, ';'))
            break;
        i++;
    }
    if (i == p->pos)
        return false;
    const asm_tok *last = &p->lx.toks[i - 1];
    if (!ident_is(last, "TEX_SEM_WAIT"))
        return false;
    /* turn the tag into a statement separator for the parsers below */
    p->lx.toks[i - 1].kind = TK_PUNCT;
    p->lx.toks[i - 1].c = ';';
    return true;
}

static void structured_body(parser *p, const asm_tok *start);

static void structured(parser *p)
{
    const asm_tok *start = cur(p);
    size_t n0 = p->out->count;
    adv(p);
    bool sem = trailing_sem_wait(p, start);
    structured_body(p, start);
    if (sem && p->out->count > n0)
        inst_words(p, p->out->count - 1)[0] |= 1u << 2; /* CMN TEX_SEM_WAIT */
}

static void structured_body(parser *p, const asm_tok *start)
{
    size_t ip;
    cond_ctx c = {-1, -1};
    if (ident_is(start, "IF")) {
        /* IF cond: the body runs where cond holds; the IF jumps past it when no
         * active pixel wants it: JUMP_FUNC = !cond (Mesa: 0x0F for `alu`). */
        uint8_t v;
        if (!jump_func_cond(p, start, &v, &c, 0xF0)) {
            skip_statement(p, start, true);
            return;
        }
        if (!end_line_statement(p, start))
            return;
        fc_emit(p, 0x12000000u | (uint32_t)(uint8_t)~v << 8, 0, &ip);
        apply_cond_fields(p, ip, &c);
        ctl *k = ctl_push(p, CTL_IF, start);
        if (k)
            k->ip = ip;
        ctl *lp = innermost_loop(p);
        if (lp)
            lp->ifs_open++;
        return;
    }
    if (ident_is(start, "ELSE") || ident_is(start, "ENDIF")) {
        if (!end_line_statement(p, start))
            return;
        ctl *k = p->nctl ? &p->ctls[p->nctl - 1] : NULL;
        if (!k || k->kind != CTL_IF) {
            error(p, start, "%s without IF", ident_is(start, "ELSE") ? "ELSE" : "ENDIF");
            return;
        }
        if (ident_is(start, "ELSE")) {
            if (k->else_ip >= 0) {
                error(p, start, "second ELSE for the same IF");
                return;
            }
            fc_emit(p, 0x04010010u, 0, &ip); /* Mesa ELSE */
            k->else_ip = (long)ip;
            return;
        }
        fc_emit(p, 0x01010020u, 0, &ip); /* Mesa ENDIF */
        uint32_t *wi = inst_words(p, k->ip);
        /* keep BOOL_ADDR (from the condition) in the low bits of US_FC_ADDR */
        if (k->else_ip >= 0) {
            wi[2] |= 0x08000000u; /* B_OP1 = INCR: IF with ELSE (0x1A000F00) */
            wi[3] = (wi[3] & 0xffffu) | (uint32_t)(k->else_ip + 1) << 16;
            inst_words(p, (size_t)k->else_ip)[3] = (uint32_t)(ip + 1) << 16;
        } else {
            wi[3] = (wi[3] & 0xffffu) | (uint32_t)(ip + 1) << 16;
        }
        inst_words(p, ip)[3] = (uint32_t)(ip + 1) << 16;
        p->nctl--;
        ctl *lp = innermost_loop(p);
        if (lp)
            lp->ifs_open--;
        return;
    }
    if (ident_is(start, "LOOP") || ident_is(start, "REP")) {
        bool rep = ident_is(start, "REP");
        uint64_t n = 0;
        if (cur(p)->kind == TK_NUM && cur(p)->line == start->line) {
            if (!parse_uint_tok(p, 31, &n, "integer constant index")) {
                skip_statement(p, start, true);
                return;
            }
        }
        if (!end_line_statement(p, start))
            return;
        fc_emit(p, rep ? 0x10000003u : 0x10000001u, (uint32_t)n << 8, &ip);
        ctl *k = ctl_push(p, rep ? CTL_REP : CTL_LOOP, start);
        if (k) {
            k->ip = ip;
            k->int_addr = (uint32_t)n;
        }
        return;
    }
    if (ident_is(start, "ENDLOOP") || ident_is(start, "ENDREP")) {
        bool rep = ident_is(start, "ENDREP");
        if (!end_line_statement(p, start))
            return;
        ctl *k = p->nctl ? &p->ctls[p->nctl - 1] : NULL;
        if (!k || k->kind != (rep ? CTL_REP : CTL_LOOP)) {
            error(p, start, "%s without %s%s", rep ? "ENDREP" : "ENDLOOP", rep ? "REP" : "LOOP",
                  k && k->kind == CTL_IF ? " (an IF is still open)" : "");
            return;
        }
        fc_emit(p, rep ? 0x1000FF24u : 0x1000FF22u, (uint32_t)(k->ip + 1) << 16 | k->int_addr << 8,
                &ip);
        inst_words(p, k->ip)[3] = (uint32_t)ip << 16 | k->int_addr << 8;
        for (size_t b = 0; b < k->nbrk; b++) {
            uint32_t *wb = inst_words(p, k->brk[b]);
            bool is_break = (wb[2] & 7u) != 7u;
            wb[3] = (uint32_t)(is_break ? ip + 1 : ip) << 16;
        }
        free(k->brk);
        p->nctl--;
        return;
    }
    if (ident_is(start, "BREAK") || ident_is(start, "CONTINUE")) {
        bool brk = ident_is(start, "BREAK");
        if (!end_line_statement(p, start))
            return;
        ctl *lp = innermost_loop(p);
        if (!lp) {
            error(p, start, "%s outside LOOP/REP", brk ? "BREAK" : "CONTINUE");
            return;
        }
        /* Mesa: BREAKLOOP 0x1400FF05 / CONTINUE 0x1400FF07, B_POP_CNT = IFs open
         * since the loop; in a REP, BREAKREP (the CTM: "use FC_OP_BREAKREP if
         * the innermost looping construct is REP"). */
        uint32_t op = brk ? (lp->kind == CTL_REP ? 6u : 5u) : 7u;
        fc_emit(p, 0x1400FF00u | op | (uint32_t)lp->ifs_open << 16, 0, &ip);
        size_t *nb = realloc(lp->brk, (lp->nbrk + 1) * sizeof *nb);
        if (!nb) {
            p->oom = true;
            return;
        }
        lp->brk = nb;
        nb[lp->nbrk++] = ip;
        if (lp->ifs_open > 31)
            error(p, start, "more than 31 IFs between the loop and this %s",
                  brk ? "BREAK" : "CONTINUE");
        return;
    }
    if (ident_is(start, "CALL") || ident_is(start, "JUMP")) {
        bool call = ident_is(start, "CALL");
        const asm_tok *lt = cur(p);
        if (lt->kind != TK_IDENT || lt->line != start->line) {
            error(p, lt, "expected a label after %s", call ? "CALL" : "JUMP");
            skip_statement(p, start, true);
            return;
        }
        adv(p);
        uint8_t v = 0xFF;
        bool any = call;
        if (ident_is(cur(p), "if") && cur(p)->line == start->line) {
            adv(p);
            if (!cond_or(p, &c, &v, 0)) {
                skip_statement(p, start, true);
                return;
            }
        }
        if (ident_is(cur(p), "any") && cur(p)->line == start->line) {
            any = true;
            adv(p);
        } else if (ident_is(cur(p), "all") && cur(p)->line == start->line) {
            any = false;
            adv(p);
        }
        if (!end_line_statement(p, start))
            return;
        /* CALL: JUMP, A_OP=PUSH, JUMP_ANY ("for call", seed 001). */
        fc_emit(p, (uint32_t)v << 8 | (any ? 0x20u : 0) | (call ? 0x80u : 0), 0, &ip);
        apply_cond_fields(p, ip, &c);
        add_fixup(p, ip, lt);
        return;
    }
    if (ident_is(start, "RET")) {
        uint8_t v = 0xFF;
        if (ident_is(cur(p), "if") && cur(p)->line == start->line) {
            adv(p);
            if (!cond_or(p, &c, &v, 0)) {
                skip_statement(p, start, true);
                return;
            }
        }
        if (!end_line_statement(p, start))
            return;
        fc_emit(p, (uint32_t)v << 8 | 0x20u | 0x40u, 0, &ip); /* A_OP=POP */
        apply_cond_fields(p, ip, &c);
        return;
    }
}

static bool is_structured_kw(const asm_tok *t)
{
    static const char *kws[] = {"IF", "ELSE", "ENDIF", "LOOP", "ENDLOOP", "REP", "ENDREP",
                                "BREAK", "CONTINUE", "CALL", "RET", "JUMP"};
    for (size_t i = 0; i < sizeof kws / sizeof kws[0]; i++)
        if (t->kind == TK_IDENT && strlen(kws[i]) == t->n && !strncmp(t->s, kws[i], t->n))
            return true; /* upper case only: buhman keywords are case-insensitive */
    return false;
}

static bool is_buhman_tag(const asm_tok *t)
{
    static const char *tags[] = {"OUT", "TEX", "TEX_SEM_WAIT", "TEX_SEM_ACQUIRE", "NOP",
                                 "LAST", "ALU_WAIT"};
    for (size_t i = 0; i < sizeof tags / sizeof tags[0]; i++)
        if (ident_is(t, tags[i]))
            return true;
    return false;
}

/* ---- buhman/r500 ALU/OUT/TEX syntax (r500.md §6.1) ---------------------- */

/* Text of adjacent IDENT/NUM tokens (a swizzle such as `0g0` lexes as "0",
 * "g0"); advances past them. */
static bool read_word(parser *p, char *out, size_t n, const asm_tok **first)
{
    const asm_tok *t = cur(p);
    *first = t;
    size_t k = 0;
    if (t->kind != TK_IDENT && t->kind != TK_NUM)
        return false;
    const char *end = t->s;
    while ((cur(p)->kind == TK_IDENT || cur(p)->kind == TK_NUM) && cur(p)->s == end &&
           cur(p)->src == t->src) {
        const asm_tok *c = cur(p);
        for (unsigned i = 0; i < c->n && k + 1 < n; i++)
            out[k++] = c->s[i];
        end = c->s + c->n;
        adv(p);
    }
    out[k] = 0;
    return true;
}

static bool expect_punct(parser *p, char c)
{
    if (!is_punct(cur(p), c)) {
        error(p, cur(p), "expected '%c'", c);
        return false;
    }
    adv(p);
    return true;
}

/* `name[N]` */
static bool indexed(parser *p, const char *name, uint64_t max, uint64_t *n)
{
    const asm_tok *t = cur(p);
    if (!ident_is(t, name)) {
        error(p, t, "expected %s[N]", name);
        return false;
    }
    adv(p);
    if (!expect_punct(p, '['))
        return false;
    if (!parse_uint_tok(p, max, n, name))
        return false;
    return expect_punct(p, ']');
}

static int swiz_code(char c, bool tex)
{
    /* ALU: r g b a 0 h 1 _ (r500.md §1.4: 0 R .. 3 A, 4 0.0, 5 0.5, 6 1.0, 7 unused);
     * TEX: r g b a only (§1.7; the CTM: no constants). */
    const char *set = tex ? "rgba" : "rgba0h1_";
    const char *q = strchr(set, c);
    return c && q ? (int)(q - set) : -1;
}

typedef struct balu {
    r500_inst in;
    bool set[R500_F_COUNT];
    bool addr_set[2][3]; /* [unit rgb/alpha][src] */
    bool srcp_set[2];
    bool unit_used[2];
} balu;

static bool set_field(parser *p, balu *b, r500_field_id f, uint32_t v, const asm_tok *at)
{
    if (b->set[f] && b->in.field[f] != v) {
        error(p, at, "%s written twice with different values", r500_field(f)->id);
        return false;
    }
    b->set[f] = true;
    b->in.field[f] = v;
    return true;
}

/* let := srcK.rgb|srcK.a = temp[N] | const[N] | float(N)  |  srcp.rgb|srcp.a = neg2|sub|add|neg */
static bool buhman_let(parser *p, balu *b)
{
    const asm_tok *t = cur(p);
    char nm[16];
    tok_text(t, nm, sizeof nm);
    int k = -1;
    if (!strcasecmp(nm, "src0"))
        k = 0;
    else if (!strcasecmp(nm, "src1"))
        k = 1;
    else if (!strcasecmp(nm, "src2"))
        k = 2;
    else if (!strcasecmp(nm, "srcp"))
        k = 3;
    if (t->kind != TK_IDENT || k < 0) {
        error(p, t, "expected src0, src1, src2 or srcp");
        return false;
    }
    adv(p);
    if (!expect_punct(p, '.'))
        return false;
    int unit;
    if (ident_is(cur(p), "rgb"))
        unit = 0;
    else if (ident_is(cur(p), "a"))
        unit = 1;
    else {
        error(p, cur(p), "expected .rgb or .a");
        return false;
    }
    adv(p);
    if (!expect_punct(p, '='))
        return false;
    const asm_tok *v = cur(p);
    if (k == 3) {
        static const char *ops[] = {"neg2", "sub", "add", "neg"};
        int op = -1;
        for (int i = 0; i < 4; i++)
            if (ident_is(v, ops[i]))
                op = i;
        if (op < 0) {
            error(p, v, "expected neg2, sub, add or neg");
            return false;
        }
        adv(p);
        if (b->srcp_set[unit]) {
            error(p, t, "srcp.%s given twice", unit ? "a" : "rgb");
            return false;
        }
        b->srcp_set[unit] = true;
        return set_field(p, b, unit ? R500_F_ALPHA_SRCP_OP : R500_F_RGB_SRCP_OP, (uint32_t)op, v);
    }
    uint64_t n;
    uint32_t addr, cst = 0;
    if (ident_is(v, "temp")) {
        if (!indexed(p, "temp", R500_NUM_TEMPS - 1, &n))
            return false;
        addr = (uint32_t)n;
    } else if (ident_is(v, "const")) {
        if (!indexed(p, "const", R500_NUM_CONSTS - 1, &n))
            return false;
        addr = (uint32_t)n;
        cst = 1;
    } else if (ident_is(v, "float")) {
        /* float(N): the raw 7-bit inline-constant code (r500.md §4.2) */
        adv(p);
        if (!expect_punct(p, '(') || !parse_uint_tok(p, 127, &n, "inline float code") ||
            !expect_punct(p, ')'))
            return false;
        addr = 0x80u | (uint32_t)n;
    } else {
        error(p, v, "expected temp[N], const[N] or float(N)");
        return false;
    }
    if (b->addr_set[unit][k]) {
        error(p, t, "src%d.%s given twice", k, unit ? "a" : "rgb");
        return false;
    }
    b->addr_set[unit][k] = true;
    r500_field_id base = unit ? R500_F_ALPHA_ADDR0 : R500_F_RGB_ADDR0;
    /* ADDRn, ADDRn_CONST, ADDRn_REL are consecutive in the table per source */
    r500_field_id fa = (r500_field_id)(base + 3 * k);
    return set_field(p, b, fa, addr, v) && set_field(p, b, (r500_field_id)(fa + 1), cst, v);
}

typedef struct opinfo {
    const char *name;
    int rgb_op, alpha_op; /* -1 if the unit has no such op */
    int nsrc;
} opinfo;

static const opinfo ops[] = {
    {"MAD", 0, 0, 3},  {"DP3", 1, -1, 2}, {"DP4", 2, -1, 2}, {"D2A", 3, -1, 3},
    {"MIN", 4, 2, 2},  {"MAX", 5, 3, 2},  {"CND", 7, 5, 3},  {"CMP", 8, 6, 3},
    {"FRC", 9, 7, 1},  {"SOP", 10, -1, 0}, {"MDH", 11, 14, 3}, {"MDV", 12, 15, 3},
    {"DP", -1, 1, 0},  {"EX2", -1, 8, 1}, {"LN2", -1, 9, 1}, {"RCP", -1, 10, 1},
    {"RSQ", -1, 11, 1}, {"SIN", -1, 12, 1}, {"COS", -1, 13, 1},
};

static bool stop_at_brace(parser *p, const asm_tok *start)
{
    (void)start;
    const asm_tok *t = cur(p);
    return t->kind == TK_EOF || is_punct(t, '}') || is_punct(t, ';');
}

/* op := {temp|out[N].mask =} [omod *] OPCODE sel {sel} */
static bool buhman_op(parser *p, balu *b)
{
    int dest = -1; /* 0 temp, 1 out */
    uint64_t dn = 0;
    char mask[16] = "";
    const asm_tok *dt = cur(p);
    if ((ident_is(dt, "temp") || ident_is(dt, "out")) && is_punct(peek(p, 1), '[')) {
        dest = ident_is(dt, "out");
        if (!indexed(p, dest ? "out" : "temp", dest ? 3 : R500_NUM_TEMPS - 1, &dn))
            return false;
        if (!expect_punct(p, '.'))
            return false;
        const asm_tok *mt;
        if (!read_word(p, mask, sizeof mask, &mt)) {
            error(p, cur(p), "expected a write mask");
            return false;
        }
        if (!expect_punct(p, '='))
            return false;
    }
    int omod = 0;
    if (cur(p)->kind == TK_NUM && is_punct(peek(p, 1), '*')) {
        static const double vals[] = {1.0, 2.0, 4.0, 8.0, 0.5, 0.25, 0.125};
        static const int codes[] = {0, 1, 2, 3, 4, 5, 6};
        omod = -1;
        for (int i = 0; i < 7; i++)
            if (cur(p)->fval == vals[i])
                omod = codes[i];
        if (omod < 0) {
            error(p, cur(p), "output modifier must be 1.0, 2.0, 4.0, 8.0, 0.5, 0.25 or 0.125");
            return false;
        }
        adv(p);
        adv(p);
    }
    const asm_tok *ot = cur(p);
    const opinfo *op = NULL;
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
        if (ident_is(ot, ops[i].name))
            op = &ops[i];
    if (!op) {
        error(p, ot, "unknown ALU opcode");
        return false;
    }
    adv(p);
    /* which unit: the opcode, else the write mask, else the first free unit */
    int unit;
    if (op->alpha_op < 0)
        unit = 0;
    else if (op->rgb_op < 0)
        unit = 1;
    else if (dest >= 0)
        unit = !strcmp(mask, "a");
    else
        unit = b->unit_used[0] ? 1 : 0;
    if (b->unit_used[unit]) {
        error(p, ot, "the %s unit is already used by this instruction", unit ? "alpha" : "RGB");
        return false;
    }
    b->unit_used[unit] = true;
    if (dest >= 0) {
        uint32_t bits = 0;
        if (unit == 1) {
            if (strcmp(mask, "a") != 0) {
                error(p, dt, "the alpha unit's write mask is .a");
                return false;
            }
            bits = 1;
        } else {
            static const char *masks[] = {"none", "r", "g", "rg", "b", "rb", "gb", "rgb"};
            int m = -1;
            for (int i = 0; i < 8; i++)
                if (!strcmp(mask, masks[i]))
                    m = i;
            if (m < 0) {
                error(p, dt, "RGB write mask must be one of none r g rg b rb gb rgb");
                return false;
            }
            bits = (uint32_t)m;
        }
        if (dest == 0) {
            if (!set_field(p, b, unit ? R500_F_ALPHA_WMASK : R500_F_RGB_WMASK, bits, dt) ||
                !set_field(p, b, unit ? R500_F_ALPHA_ADDRD : R500_F_RGB_ADDRD, (uint32_t)dn, dt))
                return false;
        } else {
            if (!set_field(p, b, unit ? R500_F_ALPHA_OMASK : R500_F_RGB_OMASK, bits, dt) ||
                !set_field(p, b, unit ? R500_F_ALPHA_TARGET : R500_F_RGB_TARGET, (uint32_t)dn, dt))
                return false;
        }
    }
    if (omod && !set_field(p, b, unit ? R500_F_ALPHA_OMOD : R500_F_RGB_OMOD, (uint32_t)omod, ot))
        return false;
    if (!set_field(p, b, unit ? R500_F_ALPHA_OP : R500_F_RGB_OP,
                   (uint32_t)(unit ? op->alpha_op : op->rgb_op), ot))
        return false;
    static const r500_field_id rgb_sel[3] = {R500_F_RGB_SEL_A, R500_F_RGB_SEL_B, R500_F_RGB_SEL_C};
    static const r500_field_id rgb_mod[3] = {R500_F_RGB_MOD_A, R500_F_RGB_MOD_B, R500_F_RGB_MOD_C};
    static const r500_field_id rgb_swz[3][3] = {
        {R500_F_RED_SWIZ_A, R500_F_GREEN_SWIZ_A, R500_F_BLUE_SWIZ_A},
        {R500_F_RED_SWIZ_B, R500_F_GREEN_SWIZ_B, R500_F_BLUE_SWIZ_B},
        {R500_F_RED_SWIZ_C, R500_F_GREEN_SWIZ_C, R500_F_BLUE_SWIZ_C}};
    static const r500_field_id a_sel[3] = {R500_F_ALPHA_SEL_A, R500_F_ALPHA_SEL_B, R500_F_ALPHA_SEL_C};
    static const r500_field_id a_mod[3] = {R500_F_ALPHA_MOD_A, R500_F_ALPHA_MOD_B, R500_F_ALPHA_MOD_C};
    static const r500_field_id a_swz[3] = {R500_F_ALPHA_SWIZ_A, R500_F_ALPHA_SWIZ_B, R500_F_ALPHA_SWIZ_C};
    int k = 0;
    while (cur(p)->kind == TK_IDENT || is_punct(cur(p), '-') || is_punct(cur(p), '|')) {
        const asm_tok *st = cur(p);
        if (st->kind == TK_IDENT && !(st->n == 4 && !strncasecmp(st->s, "src", 3)))
            break;
        bool neg = false, abs_ = false;
        if (is_punct(cur(p), '-')) {
            neg = true;
            adv(p);
        }
        if (is_punct(cur(p), '|')) {
            abs_ = true;
            adv(p);
        }
        const asm_tok *srt = cur(p);
        char sn[16];
        tok_text(srt, sn, sizeof sn);
        int sel = !strcasecmp(sn, "src0") ? 0 : !strcasecmp(sn, "src1") ? 1
                  : !strcasecmp(sn, "src2") ? 2 : !strcasecmp(sn, "srcp") ? 3 : -1;
        if (srt->kind != TK_IDENT || sel < 0) {
            error(p, srt, "expected an operand srcN.swizzle");
            return false;
        }
        adv(p);
        if (!expect_punct(p, '.'))
            return false;
        char sw[16];
        const asm_tok *swt;
        if (!read_word(p, sw, sizeof sw, &swt)) {
            error(p, cur(p), "expected a swizzle");
            return false;
        }
        if (abs_ && !expect_punct(p, '|'))
            return false;
        if (k >= 3) {
            error(p, srt, "more than three operands");
            return false;
        }
        size_t want = unit ? 1 : 3;
        if (strlen(sw) != want) {
            error(p, swt, "the %s unit takes %zu-letter swizzles", unit ? "alpha" : "RGB", want);
            return false;
        }
        uint32_t mod = abs_ ? (neg ? 3u : 2u) : (neg ? 1u : 0u);
        if (!set_field(p, b, unit ? a_sel[k] : rgb_sel[k], (uint32_t)sel, srt) ||
            !set_field(p, b, unit ? a_mod[k] : rgb_mod[k], mod, srt))
            return false;
        for (size_t c = 0; c < want; c++) {
            int code = swiz_code(sw[c], false);
            if (code < 0) {
                error(p, swt, "bad swizzle letter '%c' (r g b a 0 h 1 _)", sw[c]);
                return false;
            }
            if (!set_field(p, b, unit ? a_swz[k] : rgb_swz[k][c], (uint32_t)code, swt))
                return false;
        }
        k++;
    }
    return true;
}

static void buhman_alu(parser *p, const asm_tok *start, uint32_t tags, bool out_type)
{
    balu b;
    memset(&b, 0, sizeof b);
    r500_inst_init(&b.in, out_type ? R500_TYPE_OUT : R500_TYPE_ALU);
    b.in.field[R500_F_TEX_SEM_WAIT] = (tags >> 0) & 1;
    b.in.field[R500_F_NOP] = (tags >> 1) & 1;
    b.in.field[R500_F_LAST] = (tags >> 2) & 1;
    b.in.field[R500_F_ALU_WAIT] = (tags >> 3) & 1;
    /* lets */
    if (!is_punct(cur(p), ':')) {
        for (;;) {
            if (!buhman_let(p, &b))
                goto fail;
            if (is_punct(cur(p), ',')) {
                adv(p);
                continue;
            }
            break;
        }
    }
    if (!expect_punct(p, ':'))
        goto fail;
    for (;;) {
        if (!buhman_op(p, &b))
            goto fail;
        if (is_punct(cur(p), ',')) {
            adv(p);
            continue;
        }
        break;
    }
    /* extension: { FIELD=value ... } sets any field, overriding the syntax above */
    const asm_tok *label_tok = NULL;
    bool xset[R500_F_COUNT] = {0};
    if (is_punct(cur(p), '{')) {
        adv(p);
        if (!field_assignments(p, &b.in, xset, &label_tok, stop_at_brace, start) ||
            !expect_punct(p, '}'))
            goto fail;
    }
    if (!is_punct(cur(p), ';')) {
        error(p, cur(p), "expected ';' at the end of the instruction");
        goto fail;
    }
    adv(p);
    /* "Omitted sources encode as float(0)" (r500.md §6.1; Mesa's use_source). */
    for (int u = 0; u < 2; u++)
        for (int k = 0; k < 3; k++) {
            r500_field_id fa = (r500_field_id)((u ? R500_F_ALPHA_ADDR0 : R500_F_RGB_ADDR0) + 3 * k);
            if (!b.addr_set[u][k] && !b.set[fa] && !xset[fa])
                b.in.field[fa] = 0x80;
        }
    uint32_t w[6];
    r500_encode(&b.in, w);
    emit(p, w);
    return;
fail:
    skip_statement(p, start, false);
}

/* TEX [tags] temp[D].mask = OP tex[ID].dstswz temp[S].srcswz [{...}] ; */
static void buhman_tex(parser *p, const asm_tok *start, uint32_t tags)
{
    balu b;
    memset(&b, 0, sizeof b);
    r500_inst_init(&b.in, R500_TYPE_TEX);
    b.in.field[R500_F_TEX_SEM_WAIT] = (tags >> 0) & 1;
    b.in.field[R500_F_NOP] = (tags >> 1) & 1;
    b.in.field[R500_F_LAST] = (tags >> 2) & 1;
    b.in.field[R500_F_ALU_WAIT] = (tags >> 3) & 1;
    b.in.field[R500_F_TEX_SEM_ACQUIRE] = (tags >> 4) & 1;
    uint64_t d, id, s;
    char mask[16], dsw[16], ssw[16];
    const asm_tok *mt, *dt, *sst, *opt;
    if (!indexed(p, "temp", R500_NUM_TEMPS - 1, &d) || !expect_punct(p, '.'))
        goto fail;
    if (!read_word(p, mask, sizeof mask, &mt)) {
        error(p, cur(p), "expected a write mask");
        goto fail;
    }
    uint32_t m = 0;
    for (const char *c = mask; *c; c++) {
        int code = swiz_code(*c, true);
        if (code < 0 || (m >> code) & 1) {
            error(p, mt, "TEX write mask letters are r g b a, each once");
            goto fail;
        }
        m |= 1u << code;
    }
    if (!expect_punct(p, '='))
        goto fail;
    opt = cur(p);
    uint32_t op;
    char on[16];
    tok_text(opt, on, sizeof on);
    if (opt->kind != TK_IDENT || !r500_value_lookup(R500_V_TEX_OP, on, &op)) {
        error(p, opt, "unknown TEX op (NOP LD TEXKILL PROJ LODBIAS LOD DXDY)");
        goto fail;
    }
    adv(p);
    if (!indexed(p, "tex", 15, &id) || !expect_punct(p, '.'))
        goto fail;
    if (!read_word(p, dsw, sizeof dsw, &dt) || strlen(dsw) != 4) {
        error(p, dt, "expected a 4-letter swizzle");
        goto fail;
    }
    if (!indexed(p, "temp", R500_NUM_TEMPS - 1, &s) || !expect_punct(p, '.'))
        goto fail;
    if (!read_word(p, ssw, sizeof ssw, &sst) || strlen(ssw) != 4) {
        error(p, sst, "expected a 4-letter swizzle");
        goto fail;
    }
    b.in.field[R500_F_RGB_WMASK] = m & 7u;
    b.in.field[R500_F_ALPHA_WMASK] = (m >> 3) & 1u;
    b.in.field[R500_F_TEX_INST] = op;
    b.in.field[R500_F_TEX_ID] = (uint32_t)id;
    b.in.field[R500_F_TEX_DST_ADDR] = (uint32_t)d;
    b.in.field[R500_F_TEX_SRC_ADDR] = (uint32_t)s;
    static const r500_field_id dsf[4] = {R500_F_TEX_DST_R_SWIZ, R500_F_TEX_DST_G_SWIZ,
                                         R500_F_TEX_DST_B_SWIZ, R500_F_TEX_DST_A_SWIZ};
    static const r500_field_id ssf[4] = {R500_F_TEX_SRC_S_SWIZ, R500_F_TEX_SRC_T_SWIZ,
                                         R500_F_TEX_SRC_R_SWIZ, R500_F_TEX_SRC_Q_SWIZ};
    for (int k = 0; k < 4; k++) {
        int a = swiz_code(dsw[k], true), c = swiz_code(ssw[k], true);
        if (a < 0 || c < 0) {
            error(p, a < 0 ? dt : sst, "TEX swizzle letters are r g b a");
            goto fail;
        }
        b.in.field[dsf[k]] = (uint32_t)a;
        b.in.field[ssf[k]] = (uint32_t)c;
    }
    const asm_tok *label_tok = NULL;
    bool xset[R500_F_COUNT] = {0};
    if (is_punct(cur(p), '{')) {
        adv(p);
        /* fields given above may be overridden here */
        if (!field_assignments(p, &b.in, xset, &label_tok, stop_at_brace, start) ||
            !expect_punct(p, '}'))
            goto fail;
    }
    if (!is_punct(cur(p), ';')) {
        error(p, cur(p), "expected ';' at the end of the instruction");
        goto fail;
    }
    adv(p);
    uint32_t w[6];
    r500_encode(&b.in, w);
    emit(p, w);
    return;
fail:
    skip_statement(p, start, false);
}

static void buhman_statement(parser *p)
{
    const asm_tok *start = cur(p);
    /* tags: TEX_SEM_WAIT=1 NOP=2 LAST=4 ALU_WAIT=8 TEX_SEM_ACQUIRE=16 */
    uint32_t tags = 0;
    bool out = false, tex = false;
    for (;;) {
        const asm_tok *t = cur(p);
        uint32_t bit = 0;
        if (ident_is(t, "OUT")) {
            if (out)
                error(p, t, "tag OUT given twice");
            out = true;
        } else if (ident_is(t, "TEX") && !is_punct(peek(p, 1), '[')) {
            if (tex)
                error(p, t, "tag TEX given twice");
            tex = true;
        } else if (ident_is(t, "TEX_SEM_WAIT")) {
            bit = 1;
        } else if (ident_is(t, "NOP")) {
            bit = 2;
        } else if (ident_is(t, "LAST")) {
            bit = 4;
        } else if (ident_is(t, "ALU_WAIT")) {
            bit = 8;
        } else if (ident_is(t, "TEX_SEM_ACQUIRE")) {
            bit = 16;
        } else {
            break;
        }
        if (bit & tags)
            error(p, t, "tag given twice");
        tags |= bit;
        adv(p);
    }
    if (tex && out) {
        error(p, start, "an instruction is either TEX or OUT, not both");
        skip_statement(p, start, false);
        return;
    }
    if ((tags & 16) && !tex) {
        error(p, start, "TEX_SEM_ACQUIRE applies to TEX instructions only");
        skip_statement(p, start, false);
        return;
    }
    const asm_tok *t = cur(p);
    if (tex) {
        buhman_tex(p, start, tags);
        return;
    }
    if (is_punct(t, ':') || (t->kind == TK_IDENT && t->n == 4 && !strncasecmp(t->s, "src", 3))) {
        buhman_alu(p, start, tags, out);
        return;
    }
    error(p, t, "expected an instruction, a directive or a label");
    skip_statement(p, start, false);
}

/* ---- program ------------------------------------------------------------ */

static void resolve_labels(parser *p)
{
    r500_asm_state *s = &p->out->state;
    for (size_t k = 0; k < p->nfix; k++) {
        label *lb = &p->labels[p->fix[k].label];
        if (lb->index < 0) {
            error(p, p->fix[k].at, "undefined label '%s'", lb->name);
            continue;
        }
        uint32_t *w = inst_words(p, p->fix[k].inst);
        /* A label is an instruction index. Jumps are relative to
         * US_CODE_OFFSET unless JUMP_GLOBAL, when the offset is added here. */
        uint32_t target = (uint32_t)lb->index;
        if (w[3] >> 31)
            target += (uint32_t)(s->offset > 0 ? s->offset : 0);
        if (target > 511) {
            error(p, p->fix[k].at, "jump target %u is beyond instruction 511", target);
            continue;
        }
        w[3] = (w[3] & ~(0x1ffu << 16)) | target << 16;
    }
}

ls_status r500_asm_mem(const char *name, const char *text, size_t len, r500_asm_program *out,
                       ls_diag_list *errs)
{
    memset(out, 0, sizeof *out);
    out->state.fc_full = -1;
    out->state.offset = -1;
    parser P;
    memset(&P, 0, sizeof P);
    parser *p = &P;
    p->errs = errs;
    p->out = out;
    size_t errs0 = errs->errors;
    asm_lex(name, text, len, &p->lx, errs);
    if (p->lx.ntoks == 0) {
        ls_diag d;
        ls_diag_set(&d, LS_ERR_NOMEM, name, 0, 0, "out of memory");
        ls_diag_list_push(errs, &d);
        asm_lexed_free(&p->lx);
        return LS_ERR_NOMEM;
    }
    while (cur(p)->kind != TK_EOF && !p->oom) {
        const asm_tok *t = cur(p);
        if (is_punct(t, ';')) {
            adv(p);
            continue;
        }
        if (t->kind == TK_IDENT && is_punct(peek(p, 1), ':') && !is_buhman_tag(t) &&
            !is_structured_kw(t) && peek(p, 1)->line == t->line) {
            unsigned li = find_label(p, t);
            if (p->oom)
                break;
            if (p->labels[li].index >= 0) {
                char nm[64];
                tok_text(t, nm, sizeof nm);
                error(p, t, "duplicate label '%s' (first defined at line %d)", nm,
                      p->labels[li].def->line);
            } else {
                p->labels[li].index = (int)out->count;
                p->labels[li].def = t;
            }
            adv(p);
            adv(p);
            continue;
        }
        if (is_punct(t, '.') && peek(p, 1)->kind == TK_IDENT) {
            directive(p);
            continue;
        }
        if (is_structured_kw(t)) {
            structured(p);
            continue;
        }
        buhman_statement(p);
    }
    for (int k = p->nctl - 1; k >= 0; k--) {
        static const char *names[] = {"IF", "LOOP", "REP"};
        error(p, p->ctls[k].at, "%s is never closed", names[p->ctls[k].kind]);
        free(p->ctls[k].brk);
    }
    if (!p->oom)
        resolve_labels(p);
    if (out->count > R500_MAX_INSTS) {
        ls_diag d;
        ls_diag_set(&d, LS_ERR_RANGE, name, 0, 0, "%zu instructions; the R500 holds at most %d",
                    out->count, R500_MAX_INSTS);
        ls_diag_list_push(errs, &d);
    }
    if (p->oom) {
        ls_diag d;
        ls_diag_set(&d, LS_ERR_NOMEM, name, 0, 0, "out of memory");
        ls_diag_list_push(errs, &d);
    }
    free(p->labels);
    free(p->fix);
    asm_lexed_free(&p->lx);
    if (errs->errors > errs0) {
        r500_asm_program_free(out);
        return errs->items[errs0].status ? errs->items[errs0].status : LS_ERR_PARSE;
    }
    return LS_OK;
}

ls_status r500_asm_file(const char *path, r500_asm_program *out, ls_diag_list *errs)
{
    ls_buf b;
    ls_buf_init(&b);
    if (!ls_read_file(path, &b)) {
        ls_diag d;
        ls_diag_set(&d, LS_ERR_IO, path, 0, 0, "cannot read");
        ls_diag_list_push(errs, &d);
        ls_buf_free(&b);
        memset(out, 0, sizeof *out);
        return LS_ERR_IO;
    }
    ls_status st = r500_asm_mem(path, b.data, b.len, out, errs);
    ls_buf_free(&b);
    return st;
}

void r500_asm_program_free(r500_asm_program *p)
{
    free(p->words);
    p->words = NULL;
    p->count = 0;
}
