/* Pixel-Planes 5 IGC microcode assembler / disassembler.
 * Syntax: docs/pp5.md ("Microcode language"); field table: uasm.c. */
#ifndef LOCKSTEP_PP5_UASM_H
#define LOCKSTEP_PP5_UASM_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "base/buf.h"
#include "lockstep/pp5.h"
#include "lockstep/status.h"

typedef struct pp5_ucode {
    uint32_t words[PP5_UCODE_WORDS];
    bool defined[PP5_UCODE_WORDS];
    size_t count;              /* highest defined address + 1 */
} pp5_ucode;

/* Assemble src (len bytes, need not be NUL-terminated). Every error goes to
 * errs (file:line:col); returns LS_ERR_PARSE if there was any. */
ls_status pp5_uasm(const char *src, size_t len, const char *fname, pp5_ucode *out,
                   ls_diag_list *errs);
/* Disassemble one word (no label, no newline). */
void pp5_udis_word(uint32_t w, ls_buf *out);
/* Disassemble a store: labels L<addr> for defined branch targets, .org for gaps. */
void pp5_udis(const pp5_ucode *u, ls_buf *out);
/* Hex word list: one 0xXXXXXXXX per line from address 0 ("N:" prefixes and
 * ';' '#' comments allowed). */
ls_status pp5_uhex_parse(const char *src, size_t len, const char *fname, pp5_ucode *out,
                         ls_diag *d);
void pp5_uhex_write(const pp5_ucode *u, ls_buf *out);
#endif
