#include "asm_lex.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"

#define MAX_INCLUDE_DEPTH 16

void asm_line_text(const char *text, size_t len, int line, char *out, size_t n)
{
    const char *p = text, *end = text + len;
    for (int l = 1; l < line && p < end; p++)
        if (*p == '\n')
            l++;
    size_t k = 0;
    while (p < end && *p != '\n' && k + 1 < n)
        out[k++] = *p == '\t' ? ' ' : *p, p++;
    out[k] = 0;
}

static void vdiag_at(const asm_lexed *l, unsigned src, int line, int col, ls_diag *d,
                     const char *fmt, va_list ap)
{
    ls_diag_vset(d, LS_ERR_PARSE, l->srcs[src].name, line, col, fmt, ap);
    asm_line_text(l->srcs[src].text, l->srcs[src].len, line, d->source_line,
                  sizeof d->source_line);
}

void asm_tok_diag(const asm_lexed *l, const asm_tok *t, ls_diag *d, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vdiag_at(l, t->src, t->line, t->col, d, fmt, ap);
    va_end(ap);
}

static void err_at(const asm_lexed *l, ls_diag_list *errs, unsigned src, int line, int col,
                   const char *fmt, ...) __attribute__((format(printf, 6, 7)));
static void err_at(const asm_lexed *l, ls_diag_list *errs, unsigned src, int line, int col,
                   const char *fmt, ...)
{
    ls_diag d;
    va_list ap;
    va_start(ap, fmt);
    vdiag_at(l, src, line, col, &d, fmt, ap);
    va_end(ap);
    if (errs)
        ls_diag_list_push(errs, &d);
}

static bool push_tok(asm_lexed *l, const asm_tok *t, size_t *cap)
{
    if (l->ntoks == *cap) {
        size_t nc = *cap ? *cap * 2 : 256;
        asm_tok *p = realloc(l->toks, nc * sizeof *p);
        if (!p)
            return false;
        l->toks = p;
        *cap = nc;
    }
    l->toks[l->ntoks++] = *t;
    return true;
}

static unsigned add_src(asm_lexed *l, const char *name, char *text, size_t len)
{
    asm_src *p = realloc(l->srcs, (l->nsrcs + 1) * sizeof *p);
    if (!p) {
        free(text);
        return UINT_MAX;
    }
    l->srcs = p;
    p[l->nsrcs].name = strdup(name);
    p[l->nsrcs].text = text;
    p[l->nsrcs].len = len;
    return l->nsrcs++;
}

typedef struct lexctx {
    asm_lexed *l;
    ls_diag_list *errs;
    size_t cap;
    unsigned stack[MAX_INCLUDE_DEPTH]; /* sources being read (cycle check) */
    unsigned depth;
} lexctx;

static void lex_src(lexctx *c, unsigned src);

static void do_include(lexctx *c, unsigned src, const asm_tok *at, const char *fname,
                       size_t flen)
{
    asm_lexed *l = c->l;
    char rel[1024];
    const char *base = l->srcs[src].name;
    const char *slash = strrchr(base, '/');
    if (flen == 0 || flen > 512) {
        err_at(l, c->errs, src, at->line, at->col, "bad #include file name");
        return;
    }
    if (fname[0] == '/' || !slash)
        snprintf(rel, sizeof rel, "%.*s", (int)flen, fname);
    else
        snprintf(rel, sizeof rel, "%.*s%.*s", (int)(slash - base + 1), base, (int)flen, fname);
    char real[PATH_MAX];
    if (!realpath(rel, real)) {
        err_at(l, c->errs, src, at->line, at->col, "cannot open include file '%s': %s", rel,
               strerror(errno));
        return;
    }
    for (unsigned k = 0; k < c->depth; k++) {
        char other[PATH_MAX];
        if (realpath(l->srcs[c->stack[k]].name, other) && !strcmp(other, real)) {
            err_at(l, c->errs, src, at->line, at->col, "#include cycle: '%s' includes itself",
                   rel);
            return;
        }
    }
    if (c->depth >= MAX_INCLUDE_DEPTH) {
        err_at(l, c->errs, src, at->line, at->col, "#include nested more than %d deep",
               MAX_INCLUDE_DEPTH);
        return;
    }
    ls_buf b;
    ls_buf_init(&b);
    if (!ls_read_file(rel, &b)) {
        err_at(l, c->errs, src, at->line, at->col, "cannot read include file '%s'", rel);
        ls_buf_free(&b);
        return;
    }
    unsigned ns = add_src(l, rel, b.data, b.len);
    if (ns == UINT_MAX)
        return;
    lex_src(c, ns);
}

static void lex_src(lexctx *c, unsigned src)
{
    asm_lexed *l = c->l;
    c->stack[c->depth++] = src;
    const char *text = l->srcs[src].text;
    size_t len = l->srcs[src].len;
    size_t i = 0;
    int line = 1;
    size_t line_start = 0;
    while (i < len) {
        /* text may be reallocated by an include (no: sources own their text) */
        char ch = text[i];
        int col = (int)(i - line_start) + 1;
        if (ch == '\n') {
            line++;
            line_start = ++i;
            continue;
        }
        if (ch == ' ' || ch == '\t' || ch == '\r' || ch == '\f' || ch == '\v') {
            i++;
            continue;
        }
        if ((ch == '-' && i + 1 < len && text[i + 1] == '-') ||
            (ch == '/' && i + 1 < len && text[i + 1] == '/')) {
            while (i < len && text[i] != '\n')
                i++;
            continue;
        }
        asm_tok t;
        memset(&t, 0, sizeof t);
        t.src = src;
        t.line = line;
        t.col = col;
        t.s = text + i;
        if (ch == '#') {
            /* #include "file" */
            size_t j = i + 1;
            while (j < len && (text[j] == ' ' || text[j] == '\t'))
                j++;
            if (len - j >= 7 && !strncmp(text + j, "include", 7)) {
                j += 7;
                while (j < len && (text[j] == ' ' || text[j] == '\t'))
                    j++;
                if (j < len && text[j] == '"') {
                    size_t k = j + 1;
                    while (k < len && text[k] != '"' && text[k] != '\n')
                        k++;
                    if (k < len && text[k] == '"') {
                        t.kind = TK_PUNCT;
                        do_include(c, src, &t, text + j + 1, k - j - 1);
                        i = k + 1;
                        continue;
                    }
                }
                err_at(l, c->errs, src, line, col, "expected #include \"file\"");
                while (i < len && text[i] != '\n')
                    i++;
                continue;
            }
            err_at(l, c->errs, src, line, col, "unknown directive after '#'");
            while (i < len && text[i] != '\n')
                i++;
            continue;
        }
        if (isalpha((unsigned char)ch) || ch == '_') {
            size_t j = i;
            while (j < len && (isalnum((unsigned char)text[j]) || text[j] == '_'))
                j++;
            t.kind = TK_IDENT;
            t.n = (unsigned)(j - i);
            i = j;
        } else if (isdigit((unsigned char)ch)) {
            size_t j = i;
            t.kind = TK_NUM;
            if (ch == '0' && j + 1 < len && (text[j + 1] == 'x' || text[j + 1] == 'X')) {
                j += 2;
                uint64_t v = 0;
                size_t d0 = j;
                while (j < len && isxdigit((unsigned char)text[j])) {
                    int h = isdigit((unsigned char)text[j]) ? text[j] - '0'
                                                             : tolower((unsigned char)text[j]) - 'a' + 10;
                    v = v > (UINT64_MAX >> 4) ? UINT64_MAX : v * 16 + (uint64_t)h;
                    j++;
                }
                if (j == d0) {
                    err_at(l, c->errs, src, line, col, "malformed hex number");
                    i = j;
                    continue;
                }
                t.is_int = true;
                t.ival = v;
                t.fval = (double)v;
            } else {
                uint64_t v = 0;
                while (j < len && isdigit((unsigned char)text[j])) {
                    v = v > UINT64_MAX / 10 - 10 ? UINT64_MAX : v * 10 + (uint64_t)(text[j] - '0');
                    j++;
                }
                t.is_int = true;
                /* a fraction or exponent makes it a float */
                if (j + 1 < len && text[j] == '.' && isdigit((unsigned char)text[j + 1])) {
                    t.is_int = false;
                    j++;
                    while (j < len && isdigit((unsigned char)text[j]))
                        j++;
                }
                if (j < len && (text[j] == 'e' || text[j] == 'E') && j + 1 < len &&
                    (isdigit((unsigned char)text[j + 1]) ||
                     ((text[j + 1] == '-' || text[j + 1] == '+') && j + 2 < len &&
                      isdigit((unsigned char)text[j + 2])))) {
                    t.is_int = false;
                    j += 2;
                    while (j < len && isdigit((unsigned char)text[j]))
                        j++;
                }
                char tmp[64];
                size_t n = j - i < sizeof tmp - 1 ? j - i : sizeof tmp - 1;
                memcpy(tmp, text + i, n);
                tmp[n] = 0;
                t.fval = strtod(tmp, NULL);
                t.ival = v;
            }
            t.n = (unsigned)(j - i);
            i = j;
        } else if (ch == '"') {
            size_t j = i + 1;
            while (j < len && text[j] != '"' && text[j] != '\n')
                j++;
            if (j >= len || text[j] != '"') {
                err_at(l, c->errs, src, line, col, "unterminated string");
                i = j;
                continue;
            }
            t.kind = TK_STR;
            t.s = text + i + 1;
            t.n = (unsigned)(j - i - 1);
            i = j + 1;
        } else if (strchr("[]().,;:=-|*!&+{}/", ch)) {
            t.kind = TK_PUNCT;
            t.c = ch;
            t.n = 1;
            i++;
        } else {
            err_at(l, c->errs, src, line, col, "unexpected character '%c'",
                   (ch >= 0x20 && ch < 0x7f) ? ch : '?');
            i++;
            continue;
        }
        if (!push_tok(l, &t, &c->cap)) {
            err_at(l, c->errs, src, line, col, "out of memory");
            break;
        }
    }
    c->depth--;
}

void asm_lex(const char *name, const char *text, size_t len, asm_lexed *out, ls_diag_list *errs)
{
    memset(out, 0, sizeof *out);
    char *copy = malloc(len + 1);
    if (!copy)
        return;
    memcpy(copy, text, len);
    copy[len] = 0;
    unsigned s = add_src(out, name, copy, len);
    if (s == UINT_MAX)
        return;
    lexctx c = {.l = out, .errs = errs};
    lex_src(&c, s);
    asm_tok eof;
    memset(&eof, 0, sizeof eof);
    eof.kind = TK_EOF;
    eof.src = s;
    eof.line = 1;
    eof.col = 1;
    eof.s = copy + len;
    /* EOF points after the last token of the main file */
    for (size_t k = out->ntoks; k-- > 0;)
        if (out->toks[k].src == s) {
            eof.line = out->toks[k].line;
            eof.col = out->toks[k].col + (int)out->toks[k].n;
            break;
        }
    push_tok(out, &eof, &c.cap);
}

void asm_lexed_free(asm_lexed *l)
{
    for (unsigned i = 0; i < l->nsrcs; i++) {
        free(l->srcs[i].name);
        free(l->srcs[i].text);
    }
    free(l->srcs);
    free(l->toks);
    memset(l, 0, sizeof *l);
}
