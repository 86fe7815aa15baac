/* The live virtual R500 (issue 17): what the fake-device shim calls when a
 * program submits a command stream (DRM_RADEON_CS). One entry point checks
 * the submission as the radeon kernel would (lockstep/mesa_cs_check.h) and
 * then executes it against the buffer objects. Manual: docs/mesa.md, "The
 * live device".
 *
 * The execution is the whole pipeline's: mesa_exec_stream (vertex fetch and
 * the vertex program of every draw), then each draw in stream order through
 * rasterizer, fragment program (its texture units bound to the buffer
 * objects) and render backend into the buffer objects (lockstep/mesa_draw.h,
 * mesa_render_bo_draw). A vertex or fragment program past its watchdog is
 * a GPU hang at that draw.
 * Library code: never prints. */
#ifndef LOCKSTEP_MESA_DEVICE_H
#define LOCKSTEP_MESA_DEVICE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lockstep/mesa_cs_check.h"
#include "lockstep/mesa_draw.h"
#include "lockstep/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A buffer object as the device sees it: its memory (mapped, writable), its
 * size and tiling flags (GEM_SET_TILING). */
typedef struct mesa_device_bo {
    uint8_t *data;         /* NULL: no such object */
    uint64_t size;
    uint32_t tiling_flags; /* RADEON_TILING_* */
} mesa_device_bo;

typedef struct mesa_device_options {
    mesa_cs_check_options check;
    mesa_exec_options exec;   /* exec.pvs.watchdog: instructions a vertex may issue before
                                 the draw counts as a GPU hang */
    uint64_t fs_watchdog;     /* instructions a fragment thread may issue before the draw
                                 counts as a GPU hang (0: the fragment unit's "watchdog"
                                 default, 2^20) */
    r500_engine fs_engine;    /* the fragment unit's engine (mesa_render_options.fs_engine, */
    const struct r500_engine_ops *fs_jit; /* .fs_jit); the vertex unit's: exec.pvs.engine, .jit */
    bool execute;             /* false: check only (the shim's capture-only mode) */
    uint32_t *zpass_counter;  /* the ZB's ZPASS counter, kept across submissions (a
                                 query may begin in one and end in another); NULL:
                                 0 at each submission's start */
    /* Model options of the geometry blocks, the texture units and the render
     * backend (docs/assumptions.md; `lockstep mesa exec --model`). */
    r500_raster_options raster;
    r500_tx_options tx;
    r500_rb_options rb;
} mesa_device_options;
/* Check options' defaults (RV530), exec's defaults, the model options'
 * defaults, execute = true. */
void mesa_device_options_default(mesa_device_options *o);
/* Model option NAME = VALUE for whichever blocks know NAME (r500_raster_,
 * r500_tx_, r500_rb_option_names; tx-tile-order is the texture units' and the
 * render backend's). An unknown name lists every known one. */
ls_status mesa_device_model_set(mesa_device_options *o, const char *name, const char *value,
                                ls_diag *d);
/* A list "NAME=VALUE,NAME=VALUE" (LOCKSTEP_SHIM_MODEL) through
 * mesa_device_model_set, in order; the first bad item stops it. */
ls_status mesa_device_model_list(mesa_device_options *o, const char *list, ls_diag *d);

typedef enum mesa_submit_outcome {
    MESA_SUBMIT_DONE,    /* accepted and executed (or only accepted, with execute = false) */
    MESA_SUBMIT_REFUSED, /* the kernel's checker refuses it: the ioctl fails with err */
    MESA_SUBMIT_HANG,    /* accepted, and a draw ran past the watchdog: a GPU lockup */
} mesa_submit_outcome;

typedef struct mesa_submit_result {
    mesa_submit_outcome outcome;
    int err;                    /* REFUSED: EINVAL or ENOENT */
    mesa_cs_check_result check; /* the checker's verdict (packet, register, kernel message) */
    size_t draws;               /* draw packets executed */
    size_t draws_stopped;       /* ... that the model could not run (not hangs; diag of the first) */
    long hang_packet;           /* HANG: dword index of the draw packet that hung, else -1 */
    ls_diag diag;               /* REFUSED / HANG / the first stopped draw: what and where */
} mesa_submit_result;

/* Check, then (o->execute) execute a submission whose relocation k names
 * bos[k] (the caller resolved the relocation chunk's handles; a relocation
 * whose object does not exist has data == NULL). s->bos may be NULL: the
 * check's sizes and tiling flags are taken from bos. Returns LS_OK for every
 * outcome that is a result (DONE, REFUSED, HANG: in r); an error status only
 * for a failure of lockstep itself (out of memory). */
ls_status mesa_device_submit(const mesa_cs_submit *s, mesa_device_bo *bos, size_t nbos,
                             const mesa_device_options *o, mesa_submit_result *r, ls_diag *d);

const char *mesa_submit_outcome_name(mesa_submit_outcome o); /* "done", "refused", "hang" */

#ifdef __cplusplus
}
#endif
#endif
