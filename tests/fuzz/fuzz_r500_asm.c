/* Fuzz target: the R500 assembler (lexer, buhman syntax, field forms,
 * structured FC, directives) never crashes, leaks or reads out of bounds;
 * whatever assembles also disassembles and re-assembles to the same words.
 * #include is exercised with the file name "fuzz" (absent): an error. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "lockstep/r500_asm.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    r500_asm_program p;
    ls_diag_list errs;
    ls_diag_list_init(&errs);
    if (r500_asm_mem("fuzz", (const char *)data, size, &p, &errs) == LS_OK) {
        ls_buf b;
        ls_buf_init(&b);
        r500_disasm(p.words, p.count, &p.state, &b);
        r500_asm_program q;
        ls_diag_list e2;
        ls_diag_list_init(&e2);
        if (r500_asm_mem("dis", b.data ? b.data : "", b.len, &q, &e2) != LS_OK ||
            q.count != p.count || memcmp(q.words, p.words, p.count * 24) != 0)
            abort(); /* the round trip is a property: break loudly */
        r500_asm_program_free(&q);
        ls_diag_list_free(&e2);
        ls_buf_free(&b);
        r500_asm_program_free(&p);
    }
    ls_diag_list_free(&errs);
    return 0;
}
