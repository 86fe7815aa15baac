/* Host-action streams for the PP5 IGC: what the "inputting device" does, one
 * action per line. Format: docs/pp5.md ("Host streams"). */
#ifndef LOCKSTEP_PP5_STREAM_H
#define LOCKSTEP_PP5_STREAM_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "lockstep/pp5.h"
#include "lockstep/status.h"

typedef enum pp5_action_kind {
    PP5_ACT_WRITE,  /* write REG value: one clock with WrEn */
    PP5_ACT_GO,     /* one clock with Go */
    PP5_ACT_WAIT,   /* idle clocks until Busy = 0 */
    PP5_ACT_RUN,    /* n idle clocks */
    PP5_ACT_RESET,  /* one clock with Reset */
    PP5_ACT_ST1,    /* set the ST1 level (no clock) */
    PP5_ACT_ST2,
    PP5_ACT_TESTPE,
    PP5_ACT_TESTOE,
} pp5_action_kind;

/* Where two fields of the instruction words lie (the parser's "uaddr=" and
 * "aux=" write them here): I<0:8> = UADDR, P<8:15> = AUX. */
enum { PP5_I_UADDR_LSB = 0, PP5_P_AUX_LSB = 8 };

typedef struct pp5_action {
    pp5_action_kind kind;
    pp5_reg reg;
    uint32_t value;     /* register value, level, or clock count */
    int line;
} pp5_action;

typedef struct pp5_stream {
    pp5_action *a;
    size_t n, cap;
    char fname[256];
} pp5_stream;

ls_status pp5_stream_parse(const char *src, size_t len, const char *fname, pp5_stream *s,
                           ls_diag *d);
void pp5_stream_free(pp5_stream *s);
/* Building a stream without text (a program playing the graphics processor):
 * init, append actions (line 0; the checks of the parser: RUN ≤ 10^8 clocks,
 * levels 0/1), run, and set n = 0 to reuse the array. */
void pp5_stream_init(pp5_stream *s, const char *fname);
ls_status pp5_stream_append(pp5_stream *s, pp5_action_kind kind, pp5_reg reg, uint32_t value,
                            ls_diag *d);

/* Called after every clock with the pins of that clock. The clocks are
 * pp5_igc_step_fast(), or pp5_igc_step() while fn reads the named signals
 * (pp5_igc_signal_*()) — the two give the same pins and state, so what fn sees
 * through g is the same either way. */
typedef void (*pp5_clock_fn)(void *user, const pp5_igc *g, const pp5_pins *pins);
/* Run the actions; stops with LS_ERR_FAULT (diag at the action's line) on a
 * host-protocol error, or when max_cycles clocks have run (LS_ERR_FAULT too,
 * "cycle limit"), unless max_cycles is 0 (no limit other than 10^8). */
ls_status pp5_stream_run(const pp5_stream *s, pp5_igc *g, uint64_t max_cycles, pp5_clock_fn fn,
                         void *user, ls_diag *d);

/* Block mode, for a consumer that needs the pins but not the IGC between
 * clocks (the EMC array, pp5_emc_run): the same clocks, pins and final state
 * as pp5_stream_run, handed over in order as blocks of up to
 * PP5_STREAM_BLOCK clocks. Every clock that ran is handed over before the
 * call returns, also when it stops with an error. */
/* (512: pp5_render runs one stream per primitive, ~300 clocks for a small
 * triangle, so most streams fit in one block; every block boundary ends the
 * IGC's quiet segment and any loop in closed form in it) */
enum { PP5_STREAM_BLOCK = 512 };
typedef void (*pp5_block_fn)(void *user, const pp5_pins *pins, size_t n);
ls_status pp5_stream_run_blocks(const pp5_stream *s, pp5_igc *g, uint64_t max_cycles,
                                pp5_block_fn fn, void *user, ls_diag *d);
#endif
