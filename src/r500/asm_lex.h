/* Tokens of R500 assembly source, with #include expanded (textual
 * inclusion, as in buhman/r500). Private to the assembler. */
#ifndef LOCKSTEP_R500_ASM_LEX_H
#define LOCKSTEP_R500_ASM_LEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lockstep/status.h"

typedef enum asm_tok_kind {
    TK_EOF,
    TK_IDENT,  /* [A-Za-z_][A-Za-z0-9_]* */
    TK_NUM,    /* 12, 0x1f, 1.5, 2.0e3 */
    TK_STR,    /* "..." */
    TK_PUNCT,  /* one character: [ ] ( ) . , ; : = - | * ! & + # { } */
} asm_tok_kind;

typedef struct asm_src {
    char *name;   /* file name as given */
    char *text;   /* whole file, NUL-terminated */
    size_t len;
} asm_src;

typedef struct asm_tok {
    asm_tok_kind kind;
    const char *s;     /* points into its source text */
    unsigned n;        /* length */
    unsigned src;      /* index into the source list */
    int line, col;
    char c;            /* PUNCT: the character */
    bool is_int;       /* NUM: integer spelling (decimal or 0x) */
    uint64_t ival;     /* NUM: integer value (saturating) */
    double fval;       /* NUM: value */
} asm_tok;

typedef struct asm_lexed {
    asm_src *srcs;
    unsigned nsrcs;
    asm_tok *toks;
    size_t ntoks;
} asm_lexed;

/* Tokenise `text` (named `name`); `#include "file"` is replaced by the tokens
 * of that file, found relative to the including file. Errors go to errs. */
void asm_lex(const char *name, const char *text, size_t len, asm_lexed *out, ls_diag_list *errs);
void asm_lexed_free(asm_lexed *l);

/* Line `line` (from 1) of text[0..len) into out (at most n-1 characters, tabs
 * as spaces, NUL-terminated): a diagnostic's source line (also pvs_asm.c's). */
void asm_line_text(const char *text, size_t len, int line, char *out, size_t n);

/* Fill a diagnostic pointing at token t. */
void asm_tok_diag(const asm_lexed *l, const asm_tok *t, ls_diag *d, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

#endif
