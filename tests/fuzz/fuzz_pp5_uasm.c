/* Fuzz target: the PP5 microcode assembler, the hex reader and the
 * disassembler must never crash, leak or read out of bounds; whatever
 * assembles must disassemble and reassemble to the same words. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pp5/uasm.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    pp5_ucode *u = calloc(2, sizeof *u);
    if (!u)
        return 0;
    ls_diag_list errs;
    ls_diag_list_init(&errs);
    if (pp5_uasm((const char *)data, size, "fuzz", u, &errs) == LS_OK) {
        ls_buf b;
        ls_buf_init(&b);
        pp5_udis(u, &b);
        ls_diag_list e2;
        ls_diag_list_init(&e2);
        if (b.data && pp5_uasm(b.data, b.len, "dis", &u[1], &e2) == LS_OK &&
            memcmp(u[0].words, u[1].words, sizeof u[0].words) != 0)
            abort();
        ls_diag_list_free(&e2);
        ls_buf_free(&b);
    }
    ls_diag_list_free(&errs);
    ls_diag d;
    pp5_uhex_parse((const char *)data, size, "fuzz", u, &d);
    free(u);
    return 0;
}
