/* A minimal Value Change Dump (IEEE 1364 §18) writer into an ls_buf. The
 * library builds the text; only tools/ writes it to a file. */
#ifndef LOCKSTEP_VCD_H
#define LOCKSTEP_VCD_H
#include <stddef.h>
#include <stdint.h>
#include "base/buf.h"

typedef struct ls_vcd {
    ls_buf *out;
    size_t n;
    int *width;
    uint64_t *last;
    char (*id)[8];
    int started;
} ls_vcd;

/* Declare n signals (names are sanitised to [A-Za-z0-9_]) in one scope.
 * Returns 0 on success, -1 on allocation failure. */
int ls_vcd_begin(ls_vcd *v, ls_buf *out, const char *timescale, const char *scope, size_t n,
                 const char *const *names, const int *widths);
/* Values of all signals at time t (non-decreasing); only changes are written. */
void ls_vcd_sample(ls_vcd *v, uint64_t t, const uint64_t *values);
/* A final timestamp and free the writer's memory (not the ls_buf). */
void ls_vcd_end(ls_vcd *v, uint64_t t);
#endif
