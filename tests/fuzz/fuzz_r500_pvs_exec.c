/* Fuzz target: any PVS instruction words decode, format, disassemble (and
 * re-assemble to the same words) and execute without crashing: faults of the
 * emulated machine (bad register index, reserved values, PC off the end) are
 * results. Input: a 2-byte header (last instruction, A0.x), then 16 bytes per
 * instruction; the rest of the bytes fill the inputs. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "lockstep/r500_pvs.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2 + 16)
        return 0;
    size_t last = data[0];
    int a0 = (int8_t)data[1];
    data += 2, size -= 2;
    size_t n = size / 16;
    if (n > 64)
        n = 64;
    uint32_t w[64 * 4];
    memcpy(w, data, n * 16);
    ls_buf b;
    ls_buf_init(&b);
    for (size_t i = 0; i < n; i++) {
        r500_pvs_inst in;
        r500_pvs_decode(w + 4 * i, &in);
        r500_pvs_format_fields(&b, (unsigned)i, &in);
    }
    ls_buf_reset(&b);
    r500_pvs_disasm(w, n, &b);
    r500_pvs_program p;
    if (r500_pvs_asm("dis", b.data ? b.data : "", b.len, &p, NULL) != LS_OK || p.count != n ||
        memcmp(p.words, w, n * 16) != 0)
        abort();
    r500_pvs_program_free(&p);
    ls_buf_free(&b);

    r500_pvs_state *st = calloc(1, sizeof *st);
    if (!st)
        return 0;
    size_t rest = size - n * 16;
    size_t nf = rest / 4 < sizeof st->input / 4 ? rest / 4 : sizeof st->input / 4;
    memcpy(st->input, data + n * 16, nf * 4);
    st->a0[0] = a0;
    r500_pvs_options o;
    r500_pvs_options_default(&o);
    ls_diag d;
    ls_diag_clear(&d);
    r500_pvs_run(w, n, 0, last, NULL, NULL, &o, st, NULL, &d);
    free(st);
    return 0;
}
