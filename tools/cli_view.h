/* Recorders for `--record run.lsr` (pp5 render, r500 run) and the `lockstep
 * view` command. Format: include/lockstep/record.h, docs/viewer.md. */
#ifndef LOCKSTEP_CLI_VIEW_H
#define LOCKSTEP_CLI_VIEW_H
#include <stddef.h>
#include <stdint.h>
#include "base/buf.h"
#include "cli.h"
#include "lockstep/pp5.h"
#include "lockstep/pp5_emc.h"
#include "lockstep/r500.h"

/* ---- PP5: pass cli_view_pp5_clock as pp5_render_opts.on_clock ---- */
typedef struct cli_view_pp5 cli_view_pp5;
cli_view_pp5 *cli_view_pp5_new(const char *scene_name);
void cli_view_pp5_clock(void *user, const pp5_igc *g, const pp5_pins *pins, const pp5_emc *e);
/* After the render: segments of the host stream (setup, one per primitive,
 * drain) from the render's statistics; writes the file. */
int cli_view_pp5_finish(const cli_args *a, cli_view_pp5 *v, const char *path, uint64_t setup_clocks,
                        const uint64_t *prim_clocks, const int *prim_lines, const char *const *prim_kinds,
                        size_t nprims, uint64_t clocks);
void cli_view_pp5_free(cli_view_pp5 *v);

/* ---- R500: an observer for r500_run_observed ---- */
typedef struct cli_view_r500 cli_view_r500;
/* Whose register values the recording keeps (--record-values): every
 * thread, none, or the threads covering a pixel of the rectangle x, y, w, h
 * (y from the bottom row); the others keep control flow, inputs and final
 * outputs. */
typedef enum { CLI_VALUES_ALL, CLI_VALUES_NONE, CLI_VALUES_RECT } cli_view_values_mode;
typedef struct cli_view_values {
    cli_view_values_mode mode;
    int x, y, w, h;
} cli_view_values;
/* "all", "none" or "X,Y,W,H": 0, or -1 for anything else. */
int cli_view_values_parse(const char *s, cli_view_values *v);
/* The default for a WxH image (docs/viewer.md, "Which values"). */
void cli_view_values_default(int w, int h, cli_view_values *v);
cli_view_r500 *cli_view_r500_new(const r500_job *job, const char *program_name,
                                 const cli_view_values *values, r500_observer *obs);
int cli_view_r500_finish(const cli_args *a, cli_view_r500 *v, const char *path, const r500_result *res);
void cli_view_r500_free(cli_view_r500 *v);

/* `lockstep view run.lsr [-o view.html] [--port N] [--requests N] [--no-open]` */

#endif
