/* R500 PVS assembler and disassembler, buhman/r500 vertex syntax
 * (docs/r500-vs.md). The language and its encoding rules follow that
 * project's regs/assembler/vs (lexer, parser, validator, emitter), read to
 * understand and written anew here; fields come from R500_PVS_FIELDS.
 *
 *   instruction := operation [',' operation] ';'  |  'raw' hex hex hex hex ';'
 *   operation   := dst '=' OPCODE { '.' suffix } { source }
 *   dst         := type '[' index ']' '.' writemask
 *   source      := ['|'] type '[' index ']' '.' swizzle ['|']
 *   index       := N | ('a0'|'i0') '.' chan ['+' N]       (relative addressing)
 *   comments    := '--' to the end of the line */
#include "lockstep/r500_pvs.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "lockstep/buf.h"

#include "asm_lex.h"

/* ---- opcodes -------------------------------------------------------------- */

typedef enum op_kind { K_VE, K_ME, K_MACRO } op_kind;

typedef struct op_info {
    const char *syn;   /* short name buhman/r500 accepts (or NULL) */
    unsigned nsrc;     /* operand count in the assembly syntax */
} op_info;

/* Operand counts and short names as buhman/r500's regs/assembler/vs/opcodes.py
 * defines them (its syntax is the reference for the corpus). Indexed by
 * opcode value; the full names are the value tables of r500_pvs.h. */
static const op_info ve_info[] = {
    {"VE_NOP", 0}, {"VE_DOT", 2}, {"VE_MUL", 2}, {NULL, 2},     {"VE_MAD", 3}, {NULL, 2},
    {"VE_FRC", 1}, {"VE_MAX", 2}, {"VE_MIN", 2}, {"VE_SGE", 2}, {"VE_SLT", 2}, {NULL, 3},
    {NULL, 3},     {NULL, 1},     {NULL, 1},     {NULL, 2},     {NULL, 2},     {NULL, 2},
    {NULL, 2},     {NULL, 2},     {NULL, 2},     {NULL, 2},     {NULL, 2},     {NULL, 3},
    {NULL, 3},     {NULL, 3},     {"VE_SGT", 2}, {"VE_SEQ", 2}, {"VE_SNE", 2},
};
static const op_info me_info[] = {
    {"ME_NOP", 0}, {"ME_EXP", 1}, {"ME_LOG2", 1}, {"ME_EXPE", 1}, {NULL, 3}, {"ME_POW", 2},
    {"ME_RCP", 1}, {NULL, 1},     {"ME_RSQ", 1},  {NULL, 1},      {"ME_MUL", 2}, {NULL, 1},
    {NULL, 1},     {NULL, 3},     {NULL, 3},      {NULL, 2},      {NULL, 1},  {NULL, 1},
    {NULL, 1},     {NULL, 1},     {NULL, 1},      {NULL, 1},      {NULL, 1},  {NULL, 1},
    {NULL, 1},     {NULL, 0},     {NULL, 1},      {NULL, 1},      {NULL, 1},
};
static const op_info macro_info[] = {{NULL, 3}, {NULL, 3}};

static const op_info *info_of(op_kind k, unsigned v)
{
    switch (k) {
    case K_VE: return v < sizeof ve_info / sizeof ve_info[0] ? &ve_info[v] : NULL;
    case K_ME: return v < sizeof me_info / sizeof me_info[0] ? &me_info[v] : NULL;
    default: return v < 2 ? &macro_info[v] : NULL;
    }
}

static r500_pvs_values table_of(op_kind k)
{
    return k == K_VE ? R500_PVS_V_VE_OP : k == K_ME ? R500_PVS_V_ME_OP : R500_PVS_V_MACRO_OP;
}

static bool find_opcode(const char *s, size_t n, op_kind *k, unsigned *v)
{
    for (int kk = 0; kk < 3; kk++) {
        r500_pvs_values t = table_of((op_kind)kk);
        for (unsigned i = 0; i < r500_pvs_value_count(t); i++) {
            const char *full = r500_pvs_value_name(t, i);
            const char *syn = info_of((op_kind)kk, i)->syn;
            if ((strlen(full) == n && !strncasecmp(full, s, n)) ||
                (syn && strlen(syn) == n && !strncasecmp(syn, s, n))) {
                *k = (op_kind)kk;
                *v = i;
                return true;
            }
        }
    }
    return false;
}

/* ---- lexer ---------------------------------------------------------------- */

typedef struct tok {
    char c;          /* punctuation, or 'i' identifier, 0 end of input */
    const char *s;
    unsigned n;
    int line, col;
} tok;

typedef struct lexer {
    const char *file, *text;
    size_t len, pos;
    int line;
    size_t line_start;
    ls_diag_list *errs;
    unsigned nerr;
} lexer;

static void err(lexer *L, int line, int col, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void err(lexer *L, int line, int col, const char *fmt, ...)
{
    L->nerr++;
    if (!L->errs)
        return;
    ls_diag d;
    va_list ap;
    va_start(ap, fmt);
    ls_diag_vset(&d, LS_ERR_PARSE, L->file, line, col, fmt, ap);
    va_end(ap);
    asm_line_text(L->text, L->len, line, d.source_line, sizeof d.source_line);
    ls_diag_list_push(L->errs, &d);
}

/* buhman/r500 regs/assembler/lexer.py: identifiers are runs of letters,
 * digits, '_' and '-'; "--" starting a token begins a comment. */
static bool ident_char(char c)
{
    return isalnum((unsigned char)c) || c == '_' || c == '-';
}

static tok next(lexer *L)
{
    for (;;) {
        if (L->pos >= L->len)
            return (tok){0, L->text + L->len, 0, L->line, (int)(L->pos - L->line_start) + 1};
        char c = L->text[L->pos];
        if (c == '\n') {
            L->line++;
            L->line_start = ++L->pos;
            continue;
        }
        if (c == ' ' || c == '\t' || c == '\r') {
            L->pos++;
            continue;
        }
        if (c == '-' && L->pos + 1 < L->len && L->text[L->pos + 1] == '-') {
            while (L->pos < L->len && L->text[L->pos] != '\n')
                L->pos++;
            continue;
        }
        tok t = {0, L->text + L->pos, 1, L->line, (int)(L->pos - L->line_start) + 1};
        if (ident_char(c)) {
            size_t p = L->pos;
            while (p < L->len && ident_char(L->text[p]))
                p++;
            t.c = 'i';
            t.n = (unsigned)(p - L->pos);
            L->pos = p;
            return t;
        }
        L->pos++;
        if (strchr("[]=.|,;+", c) && c) {
            t.c = c;
            return t;
        }
        t.c = '?';
        return t;
    }
}

/* ---- parsed form -------------------------------------------------------- */

typedef struct psrc {
    unsigned type, offset, mode, sel, abs, nswz;
    unsigned swz[4], neg[4];
    tok at;
} psrc;

typedef struct pop {
    unsigned dtype, doffset, dmode, dsel, we;
    op_kind kind;
    unsigned opcode;
    bool sat, pred, npred, explicit_macro;
    unsigned nsrc;
    psrc src[3];
    tok dst_at, op_at;
} pop;

typedef struct parser {
    lexer L;
    tok t;
    bool failed; /* this instruction */
} parser;

static void adv(parser *P)
{
    P->t = next(&P->L);
}

static bool is_ident(const tok *t, const char *s)
{
    return t->c == 'i' && strlen(s) == t->n && !strncasecmp(t->s, s, t->n);
}

static void perr(parser *P, const tok *t, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void perr(parser *P, const tok *t, const char *fmt, ...)
{
    if (P->failed)
        return;
    P->failed = true;
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    err(&P->L, t->line, t->col, "%s", msg);
}

static bool expect(parser *P, char c, const char *what)
{
    if (P->t.c != c) {
        if (P->t.c == 0)
            perr(P, &P->t, "expected %s, found end of input", what);
        else
            perr(P, &P->t, "expected %s, found '%.*s'", what, (int)P->t.n, P->t.s);
        return false;
    }
    adv(P);
    return true;
}

static bool parse_uint(const tok *t, unsigned long max, unsigned *out)
{
    if (t->c != 'i' || t->n == 0 || t->n > 10)
        return false;
    unsigned long v = 0;
    for (unsigned i = 0; i < t->n; i++) {
        if (!isdigit((unsigned char)t->s[i]))
            return false;
        v = v * 10 + (unsigned)(t->s[i] - '0');
    }
    if (v > max)
        return false;
    *out = (unsigned)v;
    return true;
}

/* Register file keyword; buhman keywords.py: temporary/temp, a0, out,
 * out_repl_x, alt_temporary/alt_temp, input, constant/const. */
static int dst_type(const tok *t)
{
    static const char *const names[][2] = {{"temp", "temporary"}, {"a0", NULL},
                                           {"out", NULL},         {"out_repl_x", NULL},
                                           {"alt_temp", "alt_temporary"}, {"input", NULL}};
    for (int i = 0; i < 6; i++)
        if (is_ident(t, names[i][0]) || (names[i][1] && is_ident(t, names[i][1])))
            return i;
    return -1;
}

static int src_type(const tok *t)
{
    static const char *const names[][2] = {
        {"temp", "temporary"}, {"input", NULL}, {"const", "constant"}, {"alt_temp", "alt_temporary"}};
    for (int i = 0; i < 4; i++)
        if (is_ident(t, names[i][0]) || (names[i][1] && is_ident(t, names[i][1])))
            return i;
    return -1;
}

static int chan_of(char c)
{
    switch (tolower((unsigned char)c)) {
    case 'x': return 0;
    case 'y': return 1;
    case 'z': return 2;
    case 'w': return 3;
    default: return -1;
    }
}

/* '[' index ']' with index := N | (a0|i0) '.' chan ['+' N] */
static void parse_index(parser *P, unsigned max, unsigned *offset, unsigned *mode, unsigned *sel)
{
    *offset = *mode = *sel = 0;
    if (!expect(P, '[', "'['"))
        return;
    if (is_ident(&P->t, "a0") || is_ident(&P->t, "i0")) {
        /* PVS_SRC_ADDR_MODE: 1 relative to A0, 2 relative to I0 (the loop index) */
        *mode = tolower((unsigned char)P->t.s[0]) == 'a' ? 1 : 2;
        adv(P);
        if (!expect(P, '.', "'.' and an address register component"))
            return;
        if (P->t.c != 'i' || P->t.n != 1 || chan_of(P->t.s[0]) < 0) {
            perr(P, &P->t, "expected an address register component x, y, z or w");
            return;
        }
        *sel = (unsigned)chan_of(P->t.s[0]);
        adv(P);
        if (P->t.c == '+') {
            adv(P);
            if (!parse_uint(&P->t, max, offset)) {
                perr(P, &P->t, "expected an offset 0..%u after '+'", max);
                return;
            }
            adv(P);
        }
    } else {
        if (!parse_uint(&P->t, max, offset)) {
            perr(P, &P->t, "expected a register index 0..%u", max);
            return;
        }
        adv(P);
    }
    expect(P, ']', "']'");
}

static void parse_dst(parser *P, pop *op)
{
    op->dst_at = P->t;
    int ty = dst_type(&P->t);
    if (ty < 0) {
        perr(P, &P->t, "expected a destination register (temp, a0, out, out_repl_x, alt_temp, input)");
        return;
    }
    op->dtype = (unsigned)ty;
    adv(P);
    parse_index(P, 127, &op->doffset, &op->dmode, &op->dsel);
    if (P->failed || !expect(P, '.', "'.' and a write mask"))
        return;
    if (P->t.c != 'i') {
        perr(P, &P->t, "expected a write mask (letters x, y, z, w in order; '_' for none)");
        return;
    }
    int last = -1;
    op->we = 0;
    for (unsigned i = 0; i < P->t.n; i++) {
        char c = P->t.s[i];
        if (c == '_')
            continue;
        int ch = chan_of(c);
        if (ch < 0) {
            perr(P, &P->t, "invalid character '%c' in destination write mask", c);
            return;
        }
        /* buhman validator: "misleading non-sequential destination write enable" */
        if (ch <= last) {
            perr(P, &P->t, "write mask letters must be in xyzw order, each once");
            return;
        }
        last = ch;
        op->we |= 1u << ch;
    }
    adv(P);
}

static bool at_source(const parser *P)
{
    return P->t.c == '|' || (P->t.c == 'i' && src_type(&P->t) >= 0);
}

static void parse_src(parser *P, psrc *s)
{
    memset(s, 0, sizeof *s);
    s->at = P->t;
    if (P->t.c == '|') {
        s->abs = 1;
        adv(P);
    }
    int ty = src_type(&P->t);
    if (ty < 0) {
        perr(P, &P->t, "expected a source register (temp, input, const, alt_temp)");
        return;
    }
    s->type = (unsigned)ty;
    s->at = P->t;
    adv(P);
    parse_index(P, 255, &s->offset, &s->mode, &s->sel);
    if (P->failed || !expect(P, '.', "'.' and a swizzle"))
        return;
    if (P->t.c != 'i') {
        perr(P, &P->t, "expected a swizzle (x y z w 0 1 h _, each optionally negated with '-')");
        return;
    }
    bool neg = false;
    for (unsigned i = 0; i < P->t.n; i++) {
        char c = (char)tolower((unsigned char)P->t.s[i]);
        if (c == '-') {
            if (neg) {
                perr(P, &P->t, "'--' inside a swizzle");
                return;
            }
            neg = true;
            continue;
        }
        /* PVS_SRC_SWIZZLE_SEL: 0..3 x y z w, 4 FORCE_0, 5 FORCE_1; buhman also
         * names 6 'h' and 7 '_' (unused). */
        const char *sel = "xyzw01h_";
        const char *p = strchr(sel, c);
        if (!p || !c) {
            perr(P, &P->t, "invalid character '%c' in source swizzle", P->t.s[i]);
            return;
        }
        if (s->nswz == 4) {
            perr(P, &P->t, "a swizzle has at most 4 selects");
            return;
        }
        s->neg[s->nswz] = neg;
        s->swz[s->nswz++] = (unsigned)(p - sel);
        neg = false;
    }
    if (neg) {
        perr(P, &P->t, "a swizzle ends in '-'");
        return;
    }
    adv(P);
    if (s->abs)
        expect(P, '|', "closing '|'");
}

static void parse_operation(parser *P, pop *op)
{
    memset(op, 0, sizeof *op);
    parse_dst(P, op);
    if (P->failed || !expect(P, '=', "'='"))
        return;
    op->op_at = P->t;
    if (P->t.c != 'i' || !find_opcode(P->t.s, P->t.n, &op->kind, &op->opcode)) {
        perr(P, &P->t, "unknown opcode '%.*s'", (int)P->t.n, P->t.s);
        return;
    }
    op->explicit_macro = op->kind == K_MACRO;
    adv(P);
    while (P->t.c == '.') {
        adv(P);
        if (is_ident(&P->t, "sat") || is_ident(&P->t, "saturation"))
            op->sat = true;
        else if (is_ident(&P->t, "pred"))
            op->pred = true;
        else if (is_ident(&P->t, "npred"))
            op->npred = true;
        else {
            perr(P, &P->t, "unknown opcode suffix (SAT, PRED or NPRED)");
            return;
        }
        adv(P);
    }
    while (!P->failed && at_source(P)) {
        if (op->nsrc == 3) {
            perr(P, &P->t, "too many sources in operation");
            return;
        }
        parse_src(P, &op->src[op->nsrc++]);
    }
}

/* ---- validation and encoding ------------------------------------------- */

static void set_src_fields(r500_pvs_inst *in, unsigned n, const psrc *s)
{
    uint32_t *f = &in->field[R500_PVS_F_S0_REG_TYPE + n * R500_PVS_SRC_STRIDE];
#define SF(x) f[R500_PVS_F_S0_##x - R500_PVS_F_S0_REG_TYPE]
    SF(REG_TYPE) = s->type;
    SF(ABS) = s->abs;
    SF(ADDR_MODE_0) = s->mode & 1;
    SF(ADDR_MODE_1) = s->mode >> 1;
    SF(ADDR_SEL) = s->sel;
    SF(OFFSET) = s->offset;
    for (unsigned c = 0; c < 4; c++) {
        (&SF(SWIZZLE_X))[c] = s->swz[c];
        (&SF(MODIFIER_X))[c] = s->neg[c];
    }
#undef SF
}

/* buhman emitter.py: a source the operation does not name repeats the
 * register type and offset of the previous source (src1 <- src0, src2 <- src1
 * or src0) with every swizzle select 7 ("unused"), no negate, no abs. */
static psrc filler(const psrc *prev)
{
    psrc s;
    memset(&s, 0, sizeof s);
    s.type = prev->type;
    s.offset = prev->offset;
    for (int c = 0; c < 4; c++)
        s.swz[c] = 7;
    return s;
}

static void set_dst(r500_pvs_inst *in, const pop *op)
{
    uint32_t *f = in->field;
    f[R500_PVS_F_OPCODE] = op->opcode;
    f[R500_PVS_F_DST_REG_TYPE] = op->dtype;
    f[R500_PVS_F_DST_OFFSET] = op->doffset;
    f[R500_PVS_F_DST_ADDR_MODE_0] = op->dmode & 1;
    f[R500_PVS_F_DST_ADDR_MODE_1] = op->dmode >> 1;
    f[R500_PVS_F_DST_ADDR_SEL] = op->dsel;
    f[R500_PVS_F_DST_WE_X] = op->we & 1;
    f[R500_PVS_F_DST_WE_Y] = (op->we >> 1) & 1;
    f[R500_PVS_F_DST_WE_Z] = (op->we >> 2) & 1;
    f[R500_PVS_F_DST_WE_W] = (op->we >> 3) & 1;
    f[R500_PVS_F_PRED_ENABLE] = op->pred || op->npred;
    f[R500_PVS_F_PRED_SENSE] = op->pred;
}

/* An operation names as many sources as its opcode takes (buhman's rule), or
 * all the sources the word has (`full`: 3, 2 for the VE half of a dual-math
 * instruction, 1 for its ME half) — the extension that spells Mesa's words,
 * whose unused sources are not buhman's fillers. */
static bool check_sources(parser *P, const pop *op, unsigned swz_len, unsigned full)
{
    const op_info *oi = info_of(op->kind, op->opcode);
    if (op->nsrc != oi->nsrc && op->nsrc != full) {
        perr(P, op->nsrc ? &op->src[0].at : &op->op_at,
             "incorrect number of source operands; %s takes %u (or all %u)",
             r500_pvs_value_name(table_of(op->kind), op->opcode), oi->nsrc, full);
        return false;
    }
    for (unsigned i = 0; i < op->nsrc; i++)
        if (op->src[i].nswz != swz_len) {
            perr(P, &op->src[i].at, "a swizzle here has exactly %u selects", swz_len);
            return false;
        }
    if (op->pred && op->npred) {
        perr(P, &op->op_at, "PRED and NPRED together");
        return false;
    }
    return true;
}

/* buhman validator.py validate_source_address_counts: one instruction reads
 * at most one constant, one input and one alt-temp address (Mesa
 * r3xx_vertprog.c transform_source_conflicts: "Vertex engine cannot read two
 * inputs or two constants at the same time"); three distinct temporaries need
 * the macro form of MAD (Mesa ei_mad, "MAD with three unique temporary source
 * registers requires the use of the macro version"). Returns -1 on error, 1
 * if a MAD must become its macro op. */
static int check_addresses(parser *P, const psrc *const *srcs, unsigned n, const pop *ve)
{
    static const char *const what[4] = {"temporary", "input", "constant", "alt temporary"};
    unsigned seen[4][4], nseen[4] = {0};
    const tok *last[4] = {0};
    for (unsigned i = 0; i < n; i++) {
        const psrc *s = srcs[i];
        bool found = false;
        for (unsigned k = 0; k < nseen[s->type]; k++)
            found |= seen[s->type][k] == s->offset;
        if (!found)
            seen[s->type][nseen[s->type]++] = s->offset;
        last[s->type] = &s->at;
    }
    for (unsigned t = 1; t < 4; t++)
        if (nseen[t] > 1) {
            perr(P, last[t], "too many %s addresses in one instruction; at most 1, have %u",
                 what[t], nseen[t]);
            return -1;
        }
    if (nseen[0] == 3) {
        if (ve && ve->kind == K_VE && (ve->opcode == 4 || ve->opcode == 11))
            return 1;
        if (ve && ve->kind == K_MACRO)
            return 0;
        perr(P, last[0], "three different temporaries need MAD or MULTIPLYX2_ADD (macro form)");
        return -1;
    }
    return 0;
}

static bool encode_single(parser *P, pop *op, uint32_t w[4])
{
    if (!check_sources(P, op, 4, 3))
        return false;
    const psrc *srcs[3] = {&op->src[0], &op->src[1], &op->src[2]};
    int m = check_addresses(P, srcs, op->nsrc, op);
    if (m < 0)
        return false;
    if (m == 1) {
        /* VE_MULTIPLY_ADD -> MACRO_OP_2CLK_MADD, VE_MULTIPLYX2_ADD -> ..._M2X_ADD */
        op->kind = K_MACRO;
        op->opcode = op->opcode == 4 ? 0 : 1;
    }
    r500_pvs_inst in;
    memset(&in, 0, sizeof in);
    set_dst(&in, op);
    in.field[R500_PVS_F_MATH_INST] = op->kind == K_ME;
    in.field[R500_PVS_F_MACRO_INST] = op->kind == K_MACRO;
    in.field[op->kind == K_ME ? R500_PVS_F_ME_SAT : R500_PVS_F_VE_SAT] = op->sat;
    if (op->nsrc > 0) {
        psrc s1 = op->nsrc > 1 ? op->src[1] : filler(&op->src[0]);
        psrc s2 = op->nsrc > 2 ? op->src[2] : filler(op->nsrc > 1 ? &op->src[1] : &op->src[0]);
        set_src_fields(&in, 0, &op->src[0]);
        set_src_fields(&in, 1, &s1);
        set_src_fields(&in, 2, &s2);
    }
    r500_pvs_encode(&in, w);
    return true;
}

static bool encode_dual(parser *P, pop *a, pop *b, uint32_t w[4])
{
    pop *ve = a->kind == K_ME ? b : a, *me = a->kind == K_ME ? a : b;
    if (ve->kind != K_VE || me->kind != K_ME) {
        perr(P, &b->op_at, "a dual math instruction pairs one VE_ and one ME_ operation");
        return false;
    }
    if (!check_sources(P, ve, 4, 2) || !check_sources(P, me, 2, 1))
        return false;
    if (info_of(K_VE, ve->opcode)->nsrc > 2) {
        perr(P, &ve->op_at, "3-operand opcode not valid in a dual math instruction");
        return false;
    }
    if (me->nsrc > 1) {
        perr(P, &me->src[1].at, "too many sources in dual math ME operation (at most 1: "
                                "its X and Y selects are the operands)");
        return false;
    }
    /* pvs_dual_math_instruction.txt: DUAL_MATH_DST_OFFSET "Selects Dest Address
     * ATRM 0-3", PVS_DST_WE_SEL one of X, Y, Z, W. */
    if (me->dtype != 4 || me->doffset > 3 || me->dmode) {
        perr(P, &me->dst_at, "the ME operation of a dual math instruction writes alt_temp[0..3]");
        return false;
    }
    if (me->we == 0 || (me->we & (me->we - 1))) {
        perr(P, &me->dst_at, "the ME operation of a dual math instruction writes one component");
        return false;
    }
    if (me->pred || me->npred) {
        perr(P, &me->op_at, "predication is set on the VE operation of a dual math instruction");
        return false;
    }
    const psrc *srcs[3];
    unsigned n = 0;
    for (unsigned i = 0; i < ve->nsrc; i++)
        srcs[n++] = &ve->src[i];
    for (unsigned i = 0; i < me->nsrc; i++)
        srcs[n++] = &me->src[i];
    if (check_addresses(P, srcs, n, NULL) < 0)
        return false;
    r500_pvs_inst in;
    memset(&in, 0, sizeof in);
    set_dst(&in, ve);
    in.form = R500_PVS_FORM_DUAL;
    in.field[R500_PVS_F_DUAL_MATH_OP] = 1;
    in.field[R500_PVS_F_VE_SAT] = ve->sat;
    in.field[R500_PVS_F_ME_SAT] = me->sat;
    if (ve->nsrc > 0) {
        psrc s1 = ve->nsrc > 1 ? ve->src[1] : filler(&ve->src[0]);
        set_src_fields(&in, 0, &ve->src[0]);
        set_src_fields(&in, 1, &s1);
    }
    uint32_t *f = in.field;
    f[R500_PVS_F_DM_OPCODE_MSB] = me->opcode >> 4;
    f[R500_PVS_F_DM_OPCODE] = me->opcode & 15;
    f[R500_PVS_F_DM_DST_OFFSET] = me->doffset;
    f[R500_PVS_F_DM_DST_WE_SEL] = (unsigned)__builtin_ctz(me->we);
    if (me->nsrc) {
        const psrc *s = &me->src[0];
        f[R500_PVS_F_DM_SRC_REG_TYPE] = s->type;
        f[R500_PVS_F_DM_SRC_ABS] = s->abs;
        f[R500_PVS_F_DM_SRC_OFFSET] = s->offset;
        f[R500_PVS_F_DM_SRC_ADDR_MODE_0] = s->mode & 1;
        f[R500_PVS_F_DM_SRC_ADDR_MODE_1] = s->mode >> 1;
        f[R500_PVS_F_DM_SRC_ADDR_SEL] = s->sel;
        f[R500_PVS_F_DM_SRC_SWIZZLE_X] = s->swz[0];
        f[R500_PVS_F_DM_SRC_SWIZZLE_Y] = s->swz[1];
        f[R500_PVS_F_DM_SRC_MODIFIER_X] = s->neg[0];
        f[R500_PVS_F_DM_SRC_MODIFIER_Y] = s->neg[1];
    }
    r500_pvs_encode(&in, w);
    return true;
}

static bool parse_hex(const tok *t, uint32_t *v)
{
    if (t->c != 'i' || t->n < 3 || t->n > 10 || t->s[0] != '0' || (t->s[1] | 32) != 'x')
        return false;
    uint32_t x = 0;
    for (unsigned i = 2; i < t->n; i++) {
        if (!isxdigit((unsigned char)t->s[i]))
            return false;
        x = x * 16 + (uint32_t)(isdigit((unsigned char)t->s[i]) ? t->s[i] - '0'
                                                                : (t->s[i] | 32) - 'a' + 10);
    }
    *v = x;
    return true;
}

/* One instruction; on error skips to the next ';'. Returns true if words set. */
static bool parse_instruction(parser *P, uint32_t w[4])
{
    P->failed = false;
    bool ok = false;
    if (is_ident(&P->t, "raw")) {
        adv(P);
        for (int i = 0; i < 4 && !P->failed; i++) {
            if (!parse_hex(&P->t, &w[i]))
                perr(P, &P->t, "expected a 0x-prefixed hex dword (raw takes 4)");
            else
                adv(P);
        }
        ok = !P->failed && expect(P, ';', "';'");
    } else {
        pop a, b;
        parse_operation(P, &a);
        if (!P->failed && P->t.c == ',') {
            adv(P);
            parse_operation(P, &b);
            if (!P->failed && P->t.c == ',')
                perr(P, &P->t, "too many operations in instruction (at most 2)");
            if (!P->failed && P->t.c == ';') {
                tok semi = P->t;
                ok = encode_dual(P, &a, &b, w);
                (void)semi;
            }
        } else if (!P->failed && P->t.c == ';') {
            ok = encode_single(P, &a, w);
        }
        if (!P->failed && P->t.c != ';') {
            if (P->t.c == 0)
                perr(P, &P->t, "expected ';' or ',' after the operation, found end of input");
            else
                perr(P, &P->t, "expected a source, ',' or ';', found '%.*s'", (int)P->t.n, P->t.s);
        }
        if (!P->failed)
            adv(P); /* ';' */
    }
    if (P->failed) {
        while (P->t.c && P->t.c != ';')
            adv(P);
        if (P->t.c == ';')
            adv(P);
        return false;
    }
    return ok;
}

ls_status r500_pvs_asm(const char *file, const char *text, size_t len, r500_pvs_program *out,
                       ls_diag_list *errs)
{
    out->words = NULL;
    out->count = 0;
    parser P;
    memset(&P, 0, sizeof P);
    P.L = (lexer){.file = file, .text = text, .len = len, .line = 1, .errs = errs};
    size_t cap = 0;
    adv(&P);
    while (P.t.c) {
        if (P.t.c == '?') {
            err(&P.L, P.t.line, P.t.col, "unexpected character '%c'",
                isprint((unsigned char)P.t.s[0]) ? P.t.s[0] : '?');
            adv(&P);
            continue;
        }
        uint32_t w[4];
        int line = P.t.line, col = P.t.col;
        if (!parse_instruction(&P, w))
            continue;
        if (out->count == R500_PVS_MAX_INSTS) {
            err(&P.L, line, col, "more than %d instructions", R500_PVS_MAX_INSTS);
            break;
        }
        if (out->count == cap) {
            cap = cap ? cap * 2 : 32;
            uint32_t *p = realloc(out->words, cap * 16);
            if (!p) {
                err(&P.L, line, col, "out of memory");
                break;
            }
            out->words = p;
        }
        memcpy(out->words + 4 * out->count++, w, 16);
    }
    if (P.L.nerr == 0 && out->count == 0)
        err(&P.L, P.t.line, P.t.col, "no instructions");
    if (P.L.nerr) {
        r500_pvs_program_free(out);
        return LS_ERR_PARSE;
    }
    return LS_OK;
}

void r500_pvs_program_free(r500_pvs_program *p)
{
    free(p->words);
    p->words = NULL;
    p->count = 0;
}

/* ---- disassembler --------------------------------------------------------- */

static void put_index(ls_buf *b, unsigned offset, unsigned mode, unsigned sel)
{
    static const char chans[] = "xyzw";
    if (mode == 0)
        ls_buf_printf(b, "[%u]", offset);
    else
        ls_buf_printf(b, "[%s.%c+%u]", mode == 1 ? "a0" : "i0", chans[sel & 3], offset);
}

static void put_src(ls_buf *b, const uint32_t *f, unsigned nswz)
{
#define SF(x) f[R500_PVS_F_S0_##x - R500_PVS_F_S0_REG_TYPE]
    if (SF(ABS))
        ls_buf_putc(b, '|');
    ls_buf_puts(b, r500_pvs_value_name(R500_PVS_V_SRC_REG, SF(REG_TYPE)));
    put_index(b, SF(OFFSET), SF(ADDR_MODE_1) << 1 | SF(ADDR_MODE_0), SF(ADDR_SEL));
    ls_buf_putc(b, '.');
    for (unsigned c = 0; c < nswz; c++) {
        if ((&SF(MODIFIER_X))[c])
            ls_buf_putc(b, '-');
        ls_buf_puts(b, r500_pvs_value_name(R500_PVS_V_SWZ, (&SF(SWIZZLE_X))[c]));
    }
    if (SF(ABS))
        ls_buf_putc(b, '|');
#undef SF
}

static const char *op_name(op_kind k, unsigned v)
{
    const op_info *oi = info_of(k, v);
    if (!oi)
        return NULL;
    return oi->syn ? oi->syn : r500_pvs_value_name(table_of(k), v);
}

/* Structured text for one instruction, or false if a field has no spelling
 * (reserved register type or opcode, addressing mode 3). */
static bool structured(const r500_pvs_inst *in, bool macro_as_mad, bool all, ls_buf *b)
{
    const uint32_t *f = in->field;
    op_kind k = f[R500_PVS_F_MATH_INST] ? K_ME : f[R500_PVS_F_MACRO_INST] ? K_MACRO : K_VE;
    if (f[R500_PVS_F_MATH_INST] && f[R500_PVS_F_MACRO_INST])
        return false;
    bool dual = in->form == R500_PVS_FORM_DUAL;
    if (dual && k != K_VE)
        return false;
    unsigned op = f[R500_PVS_F_OPCODE];
    const char *name = op_name(k, op);
    if (!name || f[R500_PVS_F_DST_REG_TYPE] > 5)
        return false;
    if (f[R500_PVS_F_DST_ADDR_MODE_1] && f[R500_PVS_F_DST_ADDR_MODE_0])
        return false;
    if (k == K_MACRO && macro_as_mad)
        name = op == 0 ? "VE_MAD" : "VE_MULTIPLYX2_ADD";
    ls_buf_puts(b, r500_pvs_value_name(R500_PVS_V_DST_REG, f[R500_PVS_F_DST_REG_TYPE]));
    put_index(b, f[R500_PVS_F_DST_OFFSET],
              f[R500_PVS_F_DST_ADDR_MODE_1] << 1 | f[R500_PVS_F_DST_ADDR_MODE_0],
              f[R500_PVS_F_DST_ADDR_SEL]);
    ls_buf_putc(b, '.');
    static const char chans[] = "xyzw";
    bool any = false;
    for (int c = 0; c < 4; c++)
        if (f[R500_PVS_F_DST_WE_X + c]) {
            ls_buf_putc(b, chans[c]);
            any = true;
        }
    if (!any)
        ls_buf_putc(b, '_');
    ls_buf_printf(b, " = %s", name);
    if (f[k == K_ME ? R500_PVS_F_ME_SAT : R500_PVS_F_VE_SAT])
        ls_buf_puts(b, ".SAT");
    if (f[R500_PVS_F_PRED_ENABLE])
        ls_buf_puts(b, f[R500_PVS_F_PRED_SENSE] ? ".PRED" : ".NPRED");
    unsigned n = all ? (dual ? 2 : 3) : info_of(k, op)->nsrc;
    for (unsigned s = 0; s < n; s++) {
        const uint32_t *sf = &f[R500_PVS_F_S0_REG_TYPE + s * R500_PVS_SRC_STRIDE];
        if ((sf[R500_PVS_F_S0_ADDR_MODE_0 - R500_PVS_F_S0_REG_TYPE] &
             sf[R500_PVS_F_S0_ADDR_MODE_1 - R500_PVS_F_S0_REG_TYPE]))
            return false;
        ls_buf_putc(b, ' ');
        put_src(b, sf, 4);
    }
    if (!dual) {
        ls_buf_puts(b, " ;\n");
        return true;
    }
    unsigned mop = f[R500_PVS_F_DM_OPCODE_MSB] << 4 | f[R500_PVS_F_DM_OPCODE];
    const char *mname = op_name(K_ME, mop);
    if (!mname)
        return false;
    ls_buf_printf(b, " ,\n    alt_temp[%u].%c = %s", (unsigned)f[R500_PVS_F_DM_DST_OFFSET],
                  chans[f[R500_PVS_F_DM_DST_WE_SEL]], mname);
    if (f[R500_PVS_F_ME_SAT])
        ls_buf_puts(b, ".SAT");
    if (all || info_of(K_ME, mop)->nsrc >= 1) {
        if (f[R500_PVS_F_DM_SRC_ADDR_MODE_0] & f[R500_PVS_F_DM_SRC_ADDR_MODE_1])
            return false;
        /* the dual math source: same bit layout for the fields it has */
        uint32_t sf[R500_PVS_SRC_STRIDE];
        memset(sf, 0, sizeof sf);
#define DS(x, y) sf[R500_PVS_F_S0_##x - R500_PVS_F_S0_REG_TYPE] = f[R500_PVS_F_DM_SRC_##y]
        DS(REG_TYPE, REG_TYPE);
        DS(ABS, ABS);
        DS(ADDR_MODE_0, ADDR_MODE_0);
        DS(ADDR_MODE_1, ADDR_MODE_1);
        DS(ADDR_SEL, ADDR_SEL);
        DS(OFFSET, OFFSET);
        DS(SWIZZLE_X, SWIZZLE_X);
        DS(SWIZZLE_Y, SWIZZLE_Y);
        DS(MODIFIER_X, MODIFIER_X);
        DS(MODIFIER_Y, MODIFIER_Y);
#undef DS
        ls_buf_putc(b, ' ');
        put_src(b, sf, 2);
    }
    ls_buf_puts(b, " ;\n");
    return true;
}

static bool reassembles(const char *text, size_t len, const uint32_t w[4])
{
    r500_pvs_program p;
    if (r500_pvs_asm("dis", text, len, &p, NULL) != LS_OK)
        return false;
    bool same = p.count == 1 && !memcmp(p.words, w, 16);
    r500_pvs_program_free(&p);
    return same;
}

void r500_pvs_disasm(const uint32_t *words, size_t count, ls_buf *out)
{
    ls_buf tmp;
    ls_buf_init(&tmp);
    for (size_t i = 0; i < count; i++) {
        const uint32_t *w = words + 4 * i;
        r500_pvs_inst in;
        r500_pvs_decode(w, &in);
        bool done = false;
        /* buhman's form first (macros as the MAD that assembles to them), then
         * the macro by name, then every source spelled out (Mesa's words) */
        for (int pass = 0; pass < 4 && !done; pass++) {
            bool as_mad = !(pass & 1), all = pass >= 2;
            if (!as_mad && !in.field[R500_PVS_F_MACRO_INST])
                continue;
            ls_buf_reset(&tmp);
            if (structured(&in, as_mad, all, &tmp) && !tmp.oom &&
                reassembles(tmp.data, tmp.len, w)) {
                ls_buf_append(out, tmp.data, tmp.len);
                done = true;
            }
        }
        if (!done) {
            char msgs[4][96];
            unsigned n = r500_pvs_problems(&in, msgs, 4);
            for (unsigned k = 0; k < n && k < 4; k++)
                ls_buf_printf(out, "-- instruction %zu: %s\n", i, msgs[k]);
            if (n == 0)
                ls_buf_printf(out, "-- instruction %zu: no assembly form gives exactly these "
                                   "words (sources beyond the read rules, or field combinations "
                                   "the syntax has no spelling for)\n", i);
            ls_buf_printf(out, "raw 0x%08x 0x%08x 0x%08x 0x%08x ;\n", (unsigned)w[0],
                          (unsigned)w[1], (unsigned)w[2], (unsigned)w[3]);
        }
    }
    ls_buf_free(&tmp);
}

/* ---- loading words ------------------------------------------------------ */

ls_status r500_pvs_load_words(const char *file, const char *data, size_t len, bool binary,
                              uint32_t **words, size_t *count, ls_diag *d)
{
    *words = NULL;
    *count = 0;
    uint32_t *w = NULL;
    size_t n = 0, cap = 0;
    if (binary) {
        if (len == 0 || len % 16)
            return ls_diag_set(d, LS_ERR_PARSE, file, 0, 0,
                               "%zu bytes is not a whole number of 16-byte PVS instructions",
                               len);
        if (len / 16 > R500_PVS_MAX_INSTS)
            return ls_diag_set(d, LS_ERR_RANGE, file, 0, 0, "more than %d instructions",
                               R500_PVS_MAX_INSTS);
        w = malloc(len);
        if (!w)
            return ls_diag_set(d, LS_ERR_NOMEM, file, 0, 0, "out of memory");
        const unsigned char *u = (const unsigned char *)data;
        for (size_t k = 0; k < len / 4; k++)
            w[k] = (uint32_t)u[4 * k] | (uint32_t)u[4 * k + 1] << 8 |
                   (uint32_t)u[4 * k + 2] << 16 | (uint32_t)u[4 * k + 3] << 24;
        *words = w;
        *count = len / 16;
        return LS_OK;
    }
    int line = 1;
    size_t ls = 0;
    for (size_t i = 0; i < len;) {
        char c = data[i];
        if (c == '\n') {
            line++;
            ls = ++i;
            continue;
        }
        if (c == ' ' || c == '\t' || c == '\r' || c == ',') {
            i++;
            continue;
        }
        if (c == '#' || (c == '-' && i + 1 < len && data[i + 1] == '-') ||
            (c == '/' && i + 1 < len && data[i + 1] == '/')) {
            while (i < len && data[i] != '\n')
                i++;
            continue;
        }
        size_t st = i;
        uint64_t v = 0;
        unsigned digits = 0;
        if (c == '0' && i + 1 < len && (data[i + 1] | 32) == 'x') {
            i += 2;
            while (i < len && isxdigit((unsigned char)data[i]) && digits <= 8) {
                char h = data[i++];
                v = v * 16 + (uint64_t)(isdigit((unsigned char)h) ? h - '0' : (h | 32) - 'a' + 10);
                digits++;
            }
        }
        if (digits == 0 || digits > 8 ||
            (i < len && !isspace((unsigned char)data[i]) && data[i] != ',')) {
            free(w);
            return ls_diag_set(d, LS_ERR_PARSE, file, line, (int)(st - ls) + 1,
                               "expected a 0x-prefixed hex dword of at most 8 digits");
        }
        if (n == cap) {
            cap = cap ? cap * 2 : 64;
            uint32_t *p = realloc(w, cap * 4);
            if (!p) {
                free(w);
                return ls_diag_set(d, LS_ERR_NOMEM, file, line, 0, "out of memory");
            }
            w = p;
        }
        w[n++] = (uint32_t)v;
        if (n > (size_t)4 * R500_PVS_MAX_INSTS) {
            free(w);
            return ls_diag_set(d, LS_ERR_RANGE, file, line, (int)(st - ls) + 1,
                               "more than %d instructions", R500_PVS_MAX_INSTS);
        }
    }
    if (n == 0 || n % 4) {
        free(w);
        return ls_diag_set(d, LS_ERR_PARSE, file, line, 0,
                           "%zu dwords is not a whole number of 4-dword PVS instructions", n);
    }
    *words = w;
    *count = n / 4;
    return LS_OK;
}
