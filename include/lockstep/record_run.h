/* lockstep — recorders: they turn a run's observer calls into a recording
 * (the format of lockstep/record.h, shown by `lockstep view`;
 * docs/viewer.md). `lockstep pp5 render --record` and `lockstep r500 run
 * --record` use them; the finish functions build the whole recording in an
 * ls_buf (the caller writes it where it likes). */
#ifndef LOCKSTEP_RECORD_RUN_H
#define LOCKSTEP_RECORD_RUN_H
#include <stddef.h>
#include <stdint.h>
#include "lockstep/buf.h"
#include "lockstep/pp5.h"
#include "lockstep/pp5_emc.h"
#include "lockstep/r500.h"
#include "lockstep/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- PP5: pass ls_rec_pp5_clock as pp5_render_opts.on_clock ---- */
typedef struct ls_rec_pp5 ls_rec_pp5;
/* NULL when out of memory. */
ls_rec_pp5 *ls_rec_pp5_new(const char *scene_name);
void ls_rec_pp5_clock(void *user, const pp5_igc *g, const pp5_pins *pins, const pp5_emc *e);
/* After the render: segments of the host stream (setup, one per primitive,
 * drain) from the render's statistics; appends the recording to out.
 * LS_ERR_NOMEM (in d) when an allocation failed, here or while recording. */
ls_status ls_rec_pp5_finish(ls_rec_pp5 *v, uint64_t setup_clocks, const uint64_t *prim_clocks,
                            const int *prim_lines, const char *const *prim_kinds, size_t nprims,
                            uint64_t clocks, ls_buf *out, ls_diag *d);
void ls_rec_pp5_free(ls_rec_pp5 *v);

/* ---- R500: an observer for r500_run_observed ---- */
typedef struct ls_rec_r500 ls_rec_r500;
/* Whose register values the recording keeps (--record-values): every
 * thread, none, or the threads covering a pixel of the rectangle x, y, w, h
 * (y from the bottom row); the others keep control flow, inputs and final
 * outputs. */
typedef enum { LS_REC_VALUES_ALL, LS_REC_VALUES_NONE, LS_REC_VALUES_RECT } ls_rec_values_mode;
typedef struct ls_rec_values {
    ls_rec_values_mode mode;
    int x, y, w, h;
} ls_rec_values;
/* "all", "none" or "X,Y,W,H": 0, or -1 for anything else. */
int ls_rec_values_parse(const char *s, ls_rec_values *v);
/* The default for a WxH image (docs/viewer.md, "Which values"). */
void ls_rec_values_default(int w, int h, ls_rec_values *v);
/* Fills *obs with the recorder's observer; NULL when out of memory. */
ls_rec_r500 *ls_rec_r500_new(const r500_job *job, const char *program_name,
                             const ls_rec_values *values, r500_observer *obs);
/* After the run: appends the recording (with res's statistics) to out.
 * LS_ERR_NOMEM (in d) when an allocation failed, here or while recording. */
ls_status ls_rec_r500_finish(ls_rec_r500 *v, const r500_result *res, ls_buf *out, ls_diag *d);
void ls_rec_r500_free(ls_rec_r500 *v);

#ifdef __cplusplus
}
#endif
#endif
