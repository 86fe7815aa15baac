/* Fuzz target: any instruction words disassemble to source that assembles
 * back to exactly those words (issue 3: "No input crashes the disassembler";
 * round trip for any words). */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "lockstep/r500_asm.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    size_t n = size / 24;
    if (n == 0 || n > 64)
        return 0;
    uint32_t *w = malloc(n * 24);
    if (!w)
        return 0;
    memcpy(w, data, n * 24);
    ls_buf b;
    ls_buf_init(&b);
    r500_disasm(w, n, NULL, &b);
    r500_asm_program p;
    ls_diag_list errs;
    ls_diag_list_init(&errs);
    if (r500_asm_mem("dis", b.data ? b.data : "", b.len, &p, &errs) != LS_OK || p.count != n ||
        memcmp(p.words, w, n * 24) != 0)
        abort();
    r500_asm_program_free(&p);
    ls_diag_list_free(&errs);
    ls_buf_free(&b);
    free(w);
    return 0;
}
