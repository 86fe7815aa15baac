/* Pixel-Planes 5 IGC microcode assembler and disassembler.
 *
 * The microword (seed 003, Sequencer: "The microcode word is 32 bits wide,
 * formatted as follows") is described once, in PP5_UFIELDS; the assembler, the
 * disassembler and the checks all use that table. Operand sugar follows the
 * EMC bus model of pp5.md §5.2: each operand is the wired AND of its
 * selected sources (1 when none), XOR its Cmp bit. */
#include "pp5/uasm.h"
#include "pp5/model/uword.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* the microword's fields: pp5/uword.h */

enum {
#define X(id, name, lsb, width) F_##id,
    PP5_UFIELDS(X)
#undef X
    F_COUNT
};
static const struct { const char *name; int lsb, width; } ufield[F_COUNT] = {
#define X(id, name, lsb, width) {name, lsb, width},
    PP5_UFIELDS(X)
#undef X
};
static uint32_t fget(uint32_t w, int f)
{
    return (w >> ufield[f].lsb) & ((1u << ufield[f].width) - 1u);
}
static uint32_t fput(uint32_t w, int f, uint32_t v)
{
    uint32_t m = ((1u << ufield[f].width) - 1u) << ufield[f].lsb;
    return (w & ~m) | ((v << ufield[f].lsb) & m);
}

/* The checks of one word that do not depend on how it was written (the
 * assembler and the hex list reader both make them). */
/* seed, LoopCount: "Cnt1LSP1 must not be asserted when DoneHSP1 is asserted;
 * the microcode assembler asmpp5 should check for this."; Cnt2 likewise. */
static const char *word_counter_problem(uint32_t w)
{
    if (fget(w, F_DONE) && fget(w, F_CNT1))
        return "cnt1 with done: the counter loads on Done (seed, LoopCount)";
    if (fget(w, F_DONE) && fget(w, F_CNT2))
        return "cnt2 with done: the counter loads on Done (A-3)";
    return NULL;
}
/* seed, Sequencer: "The last word in the microcode sequence … as well as the
 * microcode word at address 0 … has the Done microcode bit set, and the branch
 * field set to address 0." A branch must be taken (jmp). */
static bool done_word_ok(uint32_t w)
{
    return !fget(w, F_DONE) || (fget(w, F_BRADDR) == 0 && fget(w, F_SEQ) == 1);
}

/* PMAInstr (seed, PixMemAddr table), by code. */
static const char *const pma_name[8] = {"aux", "dst", "dst+", "dst-", "aux+", "src", "src+", "src-"};
/* Tree<1:0> (seed, Controller table): 00 force, 01 force (Tree0 ignored), 10 cond, 11 halt. */
static const char *const tree_name[4] = {"force", "force.t0", "cond", "halt"};
/* SeqInstr codes. */
static const char *const seq_name[8] = {"inc", "jmp", "bntc1", "btc1", "bntc2", "bntrr", "bnst1", "bnst2"};

/* ---------------------------------------------------------------- disassembler */

static bool is_redundant(uint32_t w)
{
    /* redundant ⇔ LdC = LdE = MWrt = 0 and CCmp = 1 */
    return !fget(w, F_LDC) && !fget(w, F_LDE) && !fget(w, F_MWRT) && fget(w, F_CCMP);
}

static void put_sep(ls_buf *o)
{
    if (o->len && o->data[o->len - 1] != ' ')
        ls_buf_putc(o, ' ');
}

/* "[~]src", with the empty source written 1, and ~1 written 0. */
static void put_operand(ls_buf *o, char bus, bool cmp, const char *src)
{
    put_sep(o);
    if (!strcmp(src, "1"))
        ls_buf_printf(o, "%c=%s", bus, cmp ? "0" : "1");
    else
        ls_buf_printf(o, "%c=%s%s", bus, cmp ? "~" : "", src);
}

static void dis_body(uint32_t w, ls_buf *o, const char *target)
{
    bool red = is_redundant(w);
    /* with a destination, all three operands are shown (readers see the function) */
    bool dest = fget(w, F_LDC) || fget(w, F_LDE) || fget(w, F_MWRT);
    if (red) {
        unsigned idx = fget(w, F_AGTST) * 4 + fget(w, F_AGTSS) * 2 + fget(w, F_ACMP);
        if (idx < 6)
            ls_buf_printf(o, "extop %u", idx);
        else
            ls_buf_puts(o, idx == 7 ? "config pair" : "config");
        if (fget(w, F_DIREN)) {
            put_sep(o);
            ls_buf_puts(o, "dir");
        }
        if (fget(w, F_CGTSC)) {
            put_sep(o);
            ls_buf_puts(o, "cgtsc");
        }
    } else {
        /* A operand */
        unsigned s = fget(w, F_AGTSS), t = fget(w, F_AGTST), cm = fget(w, F_ACMP);
        unsigned de = fget(w, F_DIREN);
        if (de && !s && !t) {
            ls_buf_puts(o, cm ? "a=~d" : "a=d");
        } else {
            if (s || t || cm || dest)
                put_operand(o, 'a', cm, s && t ? "st" : s ? "s" : t ? "t" : "1");
            if (de) {
                put_sep(o);
                ls_buf_puts(o, "dir");
            }
        }
    }
    {
        unsigned m = fget(w, F_BGTSM), e = fget(w, F_BGTSE), cm = fget(w, F_BCMP);
        if (m || e || cm || dest)
            put_operand(o, 'b', cm, m && e ? "me" : m ? "m" : e ? "e" : "1");
    }
    if (!red) {
        unsigned c = fget(w, F_CGTSC), cm = fget(w, F_CCMP);
        if (c || cm || dest)
            put_operand(o, 'c', cm, c ? "cy" : "1");
    }
    if (fget(w, F_LDC)) { put_sep(o); ls_buf_puts(o, "ldc"); }
    if (fget(w, F_LDE)) { put_sep(o); ls_buf_puts(o, "lde"); }
    if (fget(w, F_MWRT)) { put_sep(o); ls_buf_puts(o, "mwrt"); }
    if (o->len == 0 || o->data[o->len - 1] == ':' )
        ls_buf_puts(o, "nop");
    put_sep(o);
    ls_buf_puts(o, pma_name[fget(w, F_PMA)]);
    put_sep(o);
    ls_buf_puts(o, tree_name[fget(w, F_TREE)]);
    if (fget(w, F_CNT1)) { put_sep(o); ls_buf_puts(o, "cnt1"); }
    if (fget(w, F_CNT2)) { put_sep(o); ls_buf_puts(o, "cnt2"); }
    put_sep(o);
    unsigned seq = fget(w, F_SEQ), br = fget(w, F_BRADDR);
    ls_buf_puts(o, seq_name[seq]);
    if (target)
        ls_buf_printf(o, " %s", target);
    else if (seq != 0 || br != 0)
        ls_buf_printf(o, " %u", br);
    if (fget(w, F_DONE)) { put_sep(o); ls_buf_puts(o, "done"); }
}

void pp5_udis_word(uint32_t w, ls_buf *out)
{
    ls_buf tmp;
    ls_buf_init(&tmp);
    dis_body(w, &tmp, NULL);
    ls_buf_puts(out, tmp.data ? tmp.data : "");
    ls_buf_free(&tmp);
}

void pp5_udis(const pp5_ucode *u, ls_buf *out)
{
    bool is_target[PP5_UCODE_WORDS] = {false};
    for (size_t a = 0; a < u->count; a++) {
        if (!u->defined[a])
            continue;
        uint32_t w = u->words[a];
        unsigned br = fget(w, F_BRADDR);
        if ((fget(w, F_SEQ) != 0 || br != 0) && br < PP5_UCODE_WORDS && u->defined[br])
            is_target[br] = true;
    }
    size_t expect = 0;
    for (size_t a = 0; a < u->count; a++) {
        if (!u->defined[a])
            continue;
        if (a != expect)
            ls_buf_printf(out, ".org %zu\n", a);
        expect = a + 1;
        uint32_t w = u->words[a];
        ls_buf line;
        ls_buf_init(&line);
        char lab[16];
        if (is_target[a])
            ls_buf_printf(&line, "L%zu:", a);
        while (line.len < 8)
            ls_buf_putc(&line, ' ');
        /* body in a separate buffer so "nop" detection sees only the body */
        ls_buf body;
        ls_buf_init(&body);
        unsigned br = fget(w, F_BRADDR);
        bool named = (fget(w, F_SEQ) != 0 || br != 0) && br < PP5_UCODE_WORDS && u->defined[br];
        snprintf(lab, sizeof lab, "L%u", br);
        dis_body(w, &body, named ? lab : NULL);
        ls_buf_puts(&line, body.data ? body.data : "");
        ls_buf_printf(&line, "  ; %zu: 0x%08x", a, w);
        ls_buf_puts(out, line.data);
        ls_buf_putc(out, '\n');
        ls_buf_free(&body);
        ls_buf_free(&line);
    }
}

/* ---------------------------------------------------------------- assembler */

typedef struct tok { const char *p; size_t n; int col; } tok;

typedef struct pending_ref {
    size_t addr;
    int line, col;
    char name[64];
    char src[256];
} pending_ref;

typedef struct asm_ctx {
    const char *fname;
    ls_diag_list *errs;
    int line;
    const char *line_p;
    size_t line_n;
    struct { char name[64]; size_t addr; } labels[PP5_UCODE_WORDS * 2];
    size_t nlabels;
    pending_ref refs[PP5_UCODE_WORDS];
    size_t nrefs;
} asm_ctx;

static void diag_at(asm_ctx *c, ls_status st, int col, const char *fmt, va_list ap)
{
    ls_diag d;
    ls_diag_clear(&d);
    ls_diag_vset(&d, st, c->fname, c->line, col, fmt, ap);
    size_t n = c->line_n < sizeof d.source_line - 1 ? c->line_n : sizeof d.source_line - 1;
    memcpy(d.source_line, c->line_p, n);
    d.source_line[n] = 0;
    for (size_t i = 0; i < n; i++)
        if ((unsigned char)d.source_line[i] < 32 && d.source_line[i] != '\t')
            d.source_line[i] = ' ';
    ls_diag_list_push(c->errs, &d);
}

static void err_at(asm_ctx *c, int col, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void err_at(asm_ctx *c, int col, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diag_at(c, LS_ERR_PARSE, col, fmt, ap);
    va_end(ap);
}

/* A warning: pushed with status LS_OK, so it does not fail the assembly. */
static void warn_at(asm_ctx *c, int col, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void warn_at(asm_ctx *c, int col, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diag_at(c, LS_OK, col, fmt, ap);
    va_end(ap);
}

/* the token is exactly s (byte by byte: the renderer assembles the library
 * every frame, and most compares fail at the first byte) */
static bool teq(tok t, const char *s)
{
    size_t i = 0;
    for (; i < t.n; i++)
        if (s[i] == '\0' || t.p[i] != s[i]) return false;
    return s[i] == '\0';
}

static bool parse_num(tok t, long *out)
{
    char buf[40];
    if (t.n == 0 || t.n >= sizeof buf)
        return false;
    memcpy(buf, t.p, t.n);
    buf[t.n] = 0;
    char *end;
    long v = strtol(buf, &end, 0);
    if (*end || !isdigit((unsigned char)buf[0]))
        return false;
    *out = v;
    return true;
}

static bool is_ident(tok t)
{
    if (t.n == 0 || t.n >= 64 || !(isalpha((unsigned char)t.p[0]) || t.p[0] == '_' || t.p[0] == '.'))
        return false;
    for (size_t i = 0; i < t.n; i++)
        if (!(isalnum((unsigned char)t.p[i]) || t.p[i] == '_' || t.p[i] == '.'))
            return false;
    return true;
}

static bool find_label(const asm_ctx *c, const char *name, size_t *addr)
{
    for (size_t i = 0; i < c->nlabels; i++)
        if (strcmp(c->labels[i].name, name) == 0) {
            *addr = c->labels[i].addr;
            return true;
        }
    return false;
}

static bool is_keyword(tok t)
{
    static const char *const kw[] = {"ldc", "lde", "mwrt", "cnt1", "cnt2", "done", "cgtsc", "dir",
                                     "nop", "extop", "config", "pair", "force", "force.t0", "cond",
                                     "halt"};
    for (size_t i = 0; i < sizeof kw / sizeof kw[0]; i++)
        if (teq(t, kw[i]))
            return true;
    for (int k = 0; k < 8; k++)
        if (teq(t, pma_name[k]) || teq(t, seq_name[k]))
            return true;
    return false;
}

/* The A/B/C operand value after '=': optional '~', then a source set. */
static bool parse_operand(tok v, const char *const *srcs, int nsrcs, bool *cmp, int *which)
{
    *cmp = false;
    if (v.n && v.p[0] == '~') {
        *cmp = true;
        v.p++;
        v.n--;
    }
    if (teq(v, "0")) { /* constant 0 = complemented empty bus */
        if (*cmp)
            return false;
        *cmp = true;
        *which = 0;
        return true;
    }
    for (int i = 0; i < nsrcs; i++)
        if (teq(v, srcs[i])) {
            *which = i;
            return true;
        }
    return false;
}

/* Assemble one statement's tokens into *w. Returns false on error (reported). */
static bool assemble_words(asm_ctx *c, tok *tk, int nt, size_t addr, uint32_t *w_out)
{
    uint32_t w = 0;
    bool have_a = false, have_b = false, have_c = false, have_pma = false, have_tree = false;
    bool have_seq = false, have_red = false, have_dir = false;
    bool ok = true;
    w = fput(w, F_PMA, 1); /* default dst (seed: "use Destination (default)") */
    for (int i = 0; i < nt; i++) {
        tok t = tk[i];
#define ONCE(flag, what)                                                  \
    do {                                                                  \
        if (flag) {                                                       \
            err_at(c, t.col, "%s given twice", what);                     \
            ok = false;                                                   \
        }                                                                 \
        flag = true;                                                      \
    } while (0)
        if (t.n > 2 && t.p[1] == '=' && (t.p[0] == 'a' || t.p[0] == 'b' || t.p[0] == 'c')) {
            tok v = {t.p + 2, t.n - 2, t.col + 2};
            bool cmp;
            int which;
            if (t.p[0] == 'a') {
                static const char *const s[] = {"1", "s", "t", "st", "d"};
                ONCE(have_a, "operand a");
                if (!parse_operand(v, s, 5, &cmp, &which)) {
                    err_at(c, v.col, "bad A operand '%.*s' (expected 1 0 s ~s t ~t st ~st d ~d)",
                           (int)v.n, v.p);
                    ok = false;
                    continue;
                }
                w = fput(w, F_ACMP, cmp);
                w = fput(w, F_AGTSS, which == 1 || which == 3);
                w = fput(w, F_AGTST, which == 2 || which == 3);
                if (which == 4) {
                    ONCE(have_dir, "direct data (d/dir)");
                    w = fput(w, F_DIREN, 1);
                }
            } else if (t.p[0] == 'b') {
                static const char *const s[] = {"1", "m", "e", "me"};
                ONCE(have_b, "operand b");
                if (!parse_operand(v, s, 4, &cmp, &which)) {
                    err_at(c, v.col, "bad B operand '%.*s' (expected 1 0 m ~m e ~e me ~me)",
                           (int)v.n, v.p);
                    ok = false;
                    continue;
                }
                w = fput(w, F_BCMP, cmp);
                w = fput(w, F_BGTSM, which == 1 || which == 3);
                w = fput(w, F_BGTSE, which == 2 || which == 3);
            } else {
                static const char *const s[] = {"1", "cy"};
                ONCE(have_c, "operand c");
                if (!parse_operand(v, s, 2, &cmp, &which)) {
                    err_at(c, v.col, "bad C operand '%.*s' (expected 1 0 cy ~cy)", (int)v.n, v.p);
                    ok = false;
                    continue;
                }
                w = fput(w, F_CCMP, cmp);
                w = fput(w, F_CGTSC, which == 1);
            }
        } else if (teq(t, "ldc") || teq(t, "lde") || teq(t, "mwrt") || teq(t, "cnt1") ||
                   teq(t, "cnt2") || teq(t, "done") || teq(t, "cgtsc")) {
            int f = teq(t, "ldc") ? F_LDC : teq(t, "lde") ? F_LDE : teq(t, "mwrt") ? F_MWRT
                  : teq(t, "cnt1") ? F_CNT1 : teq(t, "cnt2") ? F_CNT2 : teq(t, "done") ? F_DONE
                  : F_CGTSC;
            if (fget(w, f)) {
                err_at(c, t.col, "'%.*s' given twice", (int)t.n, t.p);
                ok = false;
            }
            w = fput(w, f, 1);
        } else if (teq(t, "dir")) {
            ONCE(have_dir, "direct data (d/dir)");
            w = fput(w, F_DIREN, 1);
        } else if (teq(t, "nop")) {
            /* explicit "no ALU effect" */
        } else if (teq(t, "extop") || teq(t, "config")) {
            ONCE(have_red, "redundant code (extop/config)");
            unsigned idx;
            if (teq(t, "extop")) {
                long n;
                if (i + 1 >= nt || !parse_num(tk[i + 1], &n) || n < 0 || n > 5) {
                    err_at(c, i + 1 < nt ? tk[i + 1].col : t.col,
                           "extop needs a strobe number 0..5");
                    ok = false;
                    if (i + 1 < nt && !is_keyword(tk[i + 1]))
                        i++;
                    continue;
                }
                i++;
                idx = (unsigned)n;
            } else {
                idx = 6;
                if (i + 1 < nt && teq(tk[i + 1], "pair")) {
                    idx = 7;
                    i++;
                }
            }
            /* seed, OutputLatch: index = AGtsT*4 + AGtsS*2 + ACmp */
            w = fput(w, F_AGTST, idx >> 2 & 1u);
            w = fput(w, F_AGTSS, idx >> 1 & 1u);
            w = fput(w, F_ACMP, idx & 1u);
            w = fput(w, F_CCMP, 1);
        } else if (teq(t, "force") || teq(t, "force.t0") || teq(t, "cond") || teq(t, "halt")) {
            ONCE(have_tree, "tree mode");
            w = fput(w, F_TREE, teq(t, "force") ? 0 : teq(t, "force.t0") ? 1 : teq(t, "cond") ? 2 : 3);
        } else {
            int pm = -1, sq = -1;
            for (int k = 0; k < 8; k++) {
                if (teq(t, pma_name[k]))
                    pm = k;
                if (teq(t, seq_name[k]))
                    sq = k;
            }
            if (pm >= 0) {
                ONCE(have_pma, "pixel-memory address instruction");
                w = fput(w, F_PMA, (uint32_t)pm);
            } else if (sq >= 0) {
                ONCE(have_seq, "sequencer instruction");
                w = fput(w, F_SEQ, (uint32_t)sq);
                /* target: required except for inc */
                if (i + 1 < nt) {
                    tok a = tk[i + 1];
                    long n;
                    if (parse_num(a, &n)) {
                        if (n < 0 || n >= PP5_UCODE_WORDS) {
                            err_at(c, a.col, "branch address %ld outside the 416-word store", n);
                            ok = false;
                        }
                        w = fput(w, F_BRADDR, (uint32_t)n & 0x1ffu);
                        i++;
                        continue;
                    }
                    if (is_ident(a) && !is_keyword(a)) {
                        if (c->nrefs < PP5_UCODE_WORDS) {
                            pending_ref *r = &c->refs[c->nrefs++];
                            r->addr = addr;
                            r->line = c->line;
                            r->col = a.col;
                            snprintf(r->name, sizeof r->name, "%.*s", (int)a.n, a.p);
                            size_t n2 = c->line_n < sizeof r->src - 1 ? c->line_n : sizeof r->src - 1;
                            memcpy(r->src, c->line_p, n2);
                            r->src[n2] = 0;
                        }
                        i++;
                        continue;
                    }
                }
                if (sq != 0) {
                    err_at(c, t.col, "'%s' needs a target (label or address)", seq_name[sq]);
                    ok = false;
                }
            } else {
                err_at(c, t.col, "unknown field '%.*s'", (int)t.n, t.p);
                ok = false;
            }
        }
#undef ONCE
    }
    if (!ok)
        return false;
    int col0 = nt ? tk[0].col : 1;
    if (have_red && (have_a || have_c)) {
        err_at(c, col0, "extop/config set the A and C controls; do not combine with a= or c=");
        return false;
    }
    if (have_red && (fget(w, F_LDC) || fget(w, F_LDE) || fget(w, F_MWRT))) {
        err_at(c, col0, "extop/config is a redundant ALU code: it cannot be combined with ldc, lde or mwrt (A-13)");
        return false;
    }
    if (!have_red && is_redundant(w)) {
        unsigned idx = fget(w, F_AGTST) * 4 + fget(w, F_AGTSS) * 2 + fget(w, F_ACMP);
        err_at(c, col0,
               "operands with c=~... and no ldc/lde/mwrt form a redundant ALU code (%s %u); "
               "write 'extop'/'config' or add a destination (A-13)",
               idx < 6 ? "ExtOp" : "config", idx);
        return false;
    }
    const char *why = word_counter_problem(w);
    if (why) {
        err_at(c, col0, "%s", why);
        return false;
    }
    /* an all-zero Tree field means Force (pp5.md §4.2), easy to get by
     * accident; say so when the word does not name its tree mode. */
    if (!have_tree)
        warn_at(c, col0, "no tree mode given (force, cond or halt): Tree = 00, Force (A-3)");
    *w_out = w;
    return true;
}

static size_t split_tokens(const char *p, size_t n, tok *tk, size_t max)
{
    size_t nt = 0, i = 0;
    while (i < n) {
        while (i < n && (p[i] == ' ' || p[i] == '\t' || p[i] == '\r' || p[i] == ','))
            i++;
        if (i >= n || p[i] == ';' || p[i] == '#')
            break;
        size_t s = i;
        while (i < n && !(p[i] == ' ' || p[i] == '\t' || p[i] == '\r' || p[i] == ',' ||
                          p[i] == ';' || p[i] == '#'))
            i++;
        if (nt < max)
            tk[nt++] = (tok){p + s, i - s, (int)s + 1};
    }
    return nt;
}

ls_status pp5_uasm(const char *src, size_t len, const char *fname, pp5_ucode *out,
                   ls_diag_list *errs)
{
    memset(out, 0, sizeof *out);
    asm_ctx *c = calloc(1, sizeof *c);
    if (!c)
        return LS_ERR_NOMEM;
    c->fname = fname ? fname : "<input>";
    c->errs = errs;
    size_t errs0 = errs->errors;
    size_t addr = 0;
    size_t pos = 0;
    c->line = 0;
    while (pos < len) {
        size_t e = pos;
        while (e < len && src[e] != '\n')
            e++;
        c->line++;
        c->line_p = src + pos;
        c->line_n = e - pos;
        tok tk[64];
        size_t nt = split_tokens(src + pos, e - pos, tk, 64);
        size_t first = 0;
        bool embedded_nul = memchr(src + pos, 0, e - pos) != NULL;
        if (embedded_nul) {
            err_at(c, 1, "NUL byte in source");
            nt = 0;
        }
        if (nt == 64)
            err_at(c, 1, "too many fields on one line");
        /* label */
        if (nt > 0 && tk[0].n > 1 && tk[0].p[tk[0].n - 1] == ':') {
            tok lt = {tk[0].p, tk[0].n - 1, tk[0].col};
            if (!is_ident(lt) || lt.p[0] == '.' || is_keyword(lt)) {
                err_at(c, lt.col, "bad label name '%.*s'", (int)lt.n, lt.p);
            } else {
                char name[64];
                snprintf(name, sizeof name, "%.*s", (int)lt.n, lt.p);
                size_t dummy;
                if (find_label(c, name, &dummy))
                    err_at(c, lt.col, "label '%s' defined twice", name);
                else if (c->nlabels < sizeof c->labels / sizeof c->labels[0]) {
                    snprintf(c->labels[c->nlabels].name, 64, "%s", name);
                    c->labels[c->nlabels].addr = addr;
                    c->nlabels++;
                }
            }
            first = 1;
        }
        if (nt > first && (teq(tk[first], ".org") || teq(tk[first], ".word"))) {
            long v;
            bool is_org = teq(tk[first], ".org");
            if (nt != first + 2 || !parse_num(tk[first + 1], &v) ||
                (is_org ? (v < 0 || v >= PP5_UCODE_WORDS) : (v < 0 || v > 0xffffffffL))) {
                err_at(c, tk[first].col, is_org ? ".org needs an address 0..415"
                                                : ".word needs one value 0..0xffffffff");
            } else if (is_org) {
                addr = (size_t)v;
                if (first)
                    c->labels[c->nlabels - 1].addr = addr;
            } else if (addr >= PP5_UCODE_WORDS) {
                err_at(c, tk[first].col, "microcode store full (416 words)");
            } else {
                if (out->defined[addr])
                    err_at(c, tk[first].col, "address %zu defined twice", addr);
                out->words[addr] = (uint32_t)v;
                out->defined[addr] = true;
                addr++;
            }
        } else if (nt > first) {
            if (addr >= PP5_UCODE_WORDS) {
                err_at(c, tk[first].col, "microcode store full (416 words)");
            } else {
                uint32_t w;
                if (out->defined[addr])
                    err_at(c, tk[first].col, "address %zu defined twice", addr);
                if (assemble_words(c, tk + first, (int)(nt - first), addr, &w)) {
                    out->words[addr] = w;
                }
                out->defined[addr] = true;
                addr++;
            }
        }
        pos = e < len ? e + 1 : e;
    }
    /* resolve label references */
    for (size_t i = 0; i < c->nrefs; i++) {
        pending_ref *r = &c->refs[i];
        size_t a;
        if (!find_label(c, r->name, &a)) {
            ls_diag d;
            ls_diag_clear(&d);
            ls_diag_set(&d, LS_ERR_PARSE, c->fname, r->line, r->col, "undefined label '%s'", r->name);
            snprintf(d.source_line, sizeof d.source_line, "%s", r->src);
            ls_diag_list_push(errs, &d);
            continue;
        }
        out->words[r->addr] = fput(out->words[r->addr], F_BRADDR, (uint32_t)a);
    }
    /* structural checks over the whole store */
    for (size_t a = 0; a < PP5_UCODE_WORDS; a++) {
        if (!out->defined[a])
            continue;
        out->count = a + 1;
        uint32_t w = out->words[a];
        /* seed, Sequencer: "The last word in the microcode sequence … as well as
         * the microcode word at address 0 … has the Done microcode bit set, and
         * the branch field set to address 0." A branch must be taken (jmp). */
        if (!done_word_ok(w)) {
            ls_diag d;
            ls_diag_clear(&d);
            ls_diag_set(&d, LS_ERR_PARSE, c->fname, 0, 0,
                        "word %zu: a done word must be 'jmp 0' (seed, Sequencer)", a);
            ls_diag_at_index(&d, (long)a);
            ls_diag_list_push(errs, &d);
        }
    }
    if (out->count > 0 && (!out->defined[0] || !fget(out->words[0], F_DONE))) {
        ls_diag d;
        ls_diag_clear(&d);
        ls_diag_set(&d, LS_ERR_PARSE, c->fname, 0, 0,
                    "address 0 must hold the idle word ('done jmp 0', seed, Sequencer; A-3)");
        ls_diag_list_push(errs, &d);
    }
    free(c);
    return errs->errors > errs0 ? LS_ERR_PARSE : LS_OK;
}

/* ---------------------------------------------------------------- hex lists */

ls_status pp5_uhex_parse(const char *src, size_t len, const char *fname, pp5_ucode *out,
                         ls_diag *d)
{
    memset(out, 0, sizeof *out);
    size_t pos = 0, addr = 0;
    int line = 0;
    while (pos < len) {
        size_t e = pos;
        while (e < len && src[e] != '\n')
            e++;
        line++;
        size_t i = pos;
        while (i < e) {
            while (i < e && (src[i] == ' ' || src[i] == '\t' || src[i] == '\r' || src[i] == ','))
                i++;
            if (i >= e || src[i] == ';' || src[i] == '#')
                break;
            size_t s = i;
            while (i < e && !(src[i] == ' ' || src[i] == '\t' || src[i] == '\r' || src[i] == ',' ||
                              src[i] == ';' || src[i] == '#'))
                i++;
            char buf[24];
            size_t n = i - s;
            int col = (int)(s - pos) + 1;
            bool is_index = n > 1 && src[i - 1] == ':';
            if (is_index)
                n--;
            if (n == 0 || n >= sizeof buf)
                return ls_diag_set(d, LS_ERR_PARSE, fname, line, col, "bad microcode word");
            memcpy(buf, src + s, n);
            buf[n] = 0;
            char *end;
            unsigned long long v = strtoull(buf, &end, is_index ? 10 : 16);
            if (*end || !isxdigit((unsigned char)buf[0]) || buf[0] == '-')
                return ls_diag_set(d, LS_ERR_PARSE, fname, line, col,
                                   "bad %s '%s'", is_index ? "index" : "hex word", buf);
            if (is_index) {
                if (v >= PP5_UCODE_WORDS)
                    return ls_diag_set(d, LS_ERR_RANGE, fname, line, col,
                                       "index %llu outside the 416-word store", v);
                addr = (size_t)v;
                continue;
            }
            if (v > 0xffffffffULL)
                return ls_diag_set(d, LS_ERR_RANGE, fname, line, col,
                                   "microcode word '%s' wider than 32 bits", buf);
            if (addr >= PP5_UCODE_WORDS)
                return ls_diag_set(d, LS_ERR_RANGE, fname, line, col,
                                   "more than 416 microcode words");
            /* the assembler's checks (a branch field past 415 cannot be
             * written in the language: its targets are 0..415) */
            if (out->defined[addr])
                return ls_diag_set(d, LS_ERR_PARSE, fname, line, col,
                                   "microcode word %zu given twice", addr);
            if (fget((uint32_t)v, F_BRADDR) >= PP5_UCODE_WORDS)
                return ls_diag_set(d, LS_ERR_RANGE, fname, line, col,
                                   "word %zu: branch address %u outside the 416-word store",
                                   addr, fget((uint32_t)v, F_BRADDR));
            const char *why = word_counter_problem((uint32_t)v);
            if (why)
                return ls_diag_set(d, LS_ERR_PARSE, fname, line, col, "word %zu: %s", addr, why);
            if (!done_word_ok((uint32_t)v))
                return ls_diag_set(d, LS_ERR_PARSE, fname, line, col,
                                   "word %zu: a done word must be 'jmp 0' (seed, Sequencer)", addr);
            out->words[addr] = (uint32_t)v;
            out->defined[addr] = true;
            addr++;
            if (addr > out->count)
                out->count = addr;
        }
        pos = e < len ? e + 1 : e;
    }
    if (out->count > 0 && (!out->defined[0] || !fget(out->words[0], F_DONE)))
        return ls_diag_set(d, LS_ERR_PARSE, fname, 0, 0,
                           "address 0 must hold the idle word ('done jmp 0', seed, Sequencer; A-3)");
    return LS_OK;
}

void pp5_uhex_write(const pp5_ucode *u, ls_buf *out)
{
    for (size_t a = 0; a < u->count; a++)
        ls_buf_printf(out, "%3zu: 0x%08x\n", a, u->defined[a] ? u->words[a] : 0u);
}
