/* Mesa r300 harness: decoder of captured radeon command streams (PM4).
 * Turns every draw of a CS into an R500 job in the program.json format of
 * ../shared/corpus/mesa-r300 (see docs/mesa.md), plus an "inputs" array. */
#ifndef LOCKSTEP_MESA_H
#define LOCKSTEP_MESA_H

#include <stddef.h>
#include <stdint.h>

#include "lockstep/status.h"

/* One job per draw packet: the program.json text of the state at that draw. */
typedef struct ls_mesa_jobs {
    size_t count;
    char **json;        /* count NUL-terminated JSON documents */
} ls_mesa_jobs;

/* Decode ndw little-endian dwords (already in host order) of one IB.
 * file names the input in diagnostics (byte offsets point at the packet). */
ls_status ls_mesa_cs_decode(const uint32_t *dw, size_t ndw, const char *file,
                            ls_mesa_jobs *out, ls_diag *d);
void ls_mesa_jobs_free(ls_mesa_jobs *j);

#endif
