/* Fuzz target: the R500 vertex (PVS) assembler never crashes, leaks or reads
 * out of bounds; whatever assembles also disassembles and re-assembles to the
 * same words. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "lockstep/r500_pvs.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    r500_pvs_program p;
    ls_diag_list errs;
    ls_diag_list_init(&errs);
    if (r500_pvs_asm("fuzz", (const char *)data, size, &p, &errs) == LS_OK) {
        ls_buf b;
        ls_buf_init(&b);
        r500_pvs_disasm(p.words, p.count, &b);
        r500_pvs_program q;
        if (r500_pvs_asm("dis", b.data ? b.data : "", b.len, &q, NULL) != LS_OK ||
            q.count != p.count || memcmp(q.words, p.words, p.count * 16) != 0)
            abort(); /* the round trip is a property: break loudly */
        r500_pvs_program_free(&q);
        ls_buf_free(&b);
        r500_pvs_program_free(&p);
    }
    ls_diag_list_free(&errs);
    return 0;
}
