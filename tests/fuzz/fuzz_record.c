/* Fuzz target: the recording reader and checker (src/base/record.c),
 * version 2 (R500 threads through the cursor). Beyond "no crash": a
 * recording the checker accepts is walked again record by record, every
 * record lies inside the input, and every R500 thread decodes again with
 * its masks inside its lanes and as many instructions and values as the
 * checker counted. */
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
    uint64_t insts = 0, values = 0;
    ls_rec_r500_cursor *c = malloc(sizeof *c);
    if (!c) return 0;
    for (;;) {
        ls_rec_record rec;
        bool more;
        if (ls_rec_next(&r, &rec, &more, &d) != LS_OK) abort();
        if (!more) break;
        if (rec.data < data || rec.data + rec.len > data + size) abort();
        n++;
        if (rec.tag != LS_REC_R500_THREAD || r.machine != LS_REC_R500) continue;
        if (ls_rec_r500_begin(c, &rec, &d) != LS_OK) abort();
        for (uint64_t i = 0; i < c->ninst; i++) {
            if (ls_rec_r500_step(c, &d) != LS_OK) abort();
            const ls_rec_r500_state *st = &c->st;
            uint64_t all = st->active | st->killed | st->branch | st->brk | st->cont | st->alu |
                           st->pred[0] | st->pred[1] | st->pred[2] | st->pred[3];
            if (all & ~c->lanes) abort();
            if (st->loop_depth > LS_REC_MAX_STACK || st->addr_depth > LS_REC_MAX_STACK) abort();
            for (unsigned j = 0; j < c->nwrites; j++) {
                if (c->writes[j].lanes & ~c->lanes) abort();
                values += (uint64_t)__builtin_popcountll(c->writes[j].lanes);
            }
        }
        if (ls_rec_r500_end(c, &d) != LS_OK) abort();
        insts += c->ninst;
    }
    free(c);
    if (n != s.records || insts != s.instructions || values != s.values) abort();
    return 0;
}
