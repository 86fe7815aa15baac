/* Fuzz target: the recording reader and checker (src/base/record.c). Beyond
 * "no crash": a recording the checker accepts is walked again record by
 * record and every record lies inside the input. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "lockstep/record.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    ls_rec_summary s;
    ls_diag d;
    if (ls_rec_check(data, size, &s, &d) != LS_OK) return 0;
    ls_rec_reader r;
    if (ls_rec_open(&r, data, size, &d) != LS_OK) abort();
    size_t n = 0;
    for (;;) {
        ls_rec_record rec;
        bool more;
        if (ls_rec_next(&r, &rec, &more, &d) != LS_OK) abort();
        if (!more) break;
        if (rec.data < data || rec.data + rec.len > data + size) abort();
        n++;
    }
    if (n != s.records) abort();
    return 0;
}
