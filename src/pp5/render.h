/* Pixel-Planes 5 scene renderer: plays the part of the graphics processors.
 * Scene format and numeric rules: docs/pp5-render.md. */
#ifndef LOCKSTEP_PP5_RENDER_H
#define LOCKSTEP_PP5_RENDER_H
#include <stddef.h>
#include <stdint.h>
#include "lockstep/pp5.h"
#include "lockstep/pp5_emc.h"
#include "lockstep/buf.h"
#include "lockstep/status.h"

typedef enum pp5_prim_kind { PP5_PRIM_TRI, PP5_PRIM_DISC } pp5_prim_kind;
typedef struct pp5_prim {
    pp5_prim_kind kind;
    double v[3][6];     /* tri: x y z r g b per vertex; disc: v[0] = cx cy r R G B, v[1][0] = z */
    int line;
} pp5_prim;

typedef struct pp5_scene {
    int region_x, region_y;
    int region_line;            /* line of the last `region` (0: none) */
    uint8_t clear[3];
    pp5_prim *p;
    size_t n, cap;
} pp5_scene;

ls_status pp5_scene_parse(const char *src, size_t len, const char *fname, pp5_scene *s,
                          ls_diag *d);
void pp5_scene_free(pp5_scene *s);

/* Pixel-memory layout used by the renderer. */
enum {
    PP5_R_FBITS = 20,       /* fractional bits of every coefficient */
    PP5_R_ZBITS = 24,
    PP5_R_ZBUF = 0, PP5_R_ZTEMP = 24, PP5_R_RED = 48, PP5_R_GREEN = 56, PP5_R_BLUE = 64,
    PP5_R_UADDR_IDLE = 0, PP5_R_UADDR_ENALL = 1, PP5_R_UADDR_EDGE = 4, PP5_R_UADDR_QLOAD = 8,
    PP5_R_UADDR_QADD = 12, PP5_R_UADDR_ZTEST = 16, PP5_R_UADDR_CONST = 32, PP5_R_UADDR_COPY = 36,
    PP5_R_UADDR_ADDF = 40, PP5_R_UADDR_CONFIG = 48, PP5_R_UADDR_DISC = 52,
};
/* The microcode library (identical to examples/pp5/lib.pp5m). */
extern const char pp5_render_ucode[];
/* The same library assembled at build time (src/pp5/gen_ucode_words.c):
 * words 0 .. pp5_render_ucode_count-1, the rest of the store 0. */
extern const uint32_t pp5_render_ucode_words[];
extern const size_t pp5_render_ucode_count;

typedef void (*pp5_render_clock_fn)(void *user, const pp5_igc *g, const pp5_pins *pins,
                                    const pp5_emc *e);
typedef struct pp5_render_opts {
    pp5_options igc;
    pp5_emc_options emc;
    pp5_render_clock_fn on_clock;   /* may be NULL */
    void *user;
    /* PP5_ENGINE_FAST (default): the fast IGC and EMC array; PP5_ENGINE_MODEL:
     * the IGC's full step and the EMC array model (src/pp5/model/emc_ref.c),
     * clock by clock — same image, clocks and warnings; no on_clock then (the
     * observer's view is the fast array's). */
    pp5_engine engine;
    /* primitives done / primitives of the scene (lockstep/status.h); zero = none */
    ls_progress progress;
} pp5_render_opts;
void pp5_render_opts_default(pp5_render_opts *o);

typedef struct pp5_render_stats {
    uint64_t clocks;            /* all IGC clocks of the frame */
    uint64_t setup_clocks;      /* microcode load (RMode), config load + clear */
    uint64_t *prim_clocks;      /* per primitive (caller frees with free()) */
    size_t nprims;
    uint64_t igc_warnings, emc_warnings;
} pp5_render_stats;

/* Render the scene; rgb gets width·height·3 bytes, bottom row first. */
ls_status pp5_render(const pp5_scene *s, const pp5_render_opts *o, uint8_t *rgb,
                     pp5_render_stats *st, ls_diag *d);

/* The figures of a rendered frame: at the IGC's clock (o->igc.clock_hz),
 * primitive counts and mean clocks per primitive (src/pp5/render_stats.c). */
typedef struct pp5_render_summary {
    double clock_hz, seconds;          /* seconds the frame takes at clock_hz */
    uint64_t triangles, discs;
    double clocks_per_triangle, clocks_per_disc; /* 0 when there are none */
    double triangles_per_second;       /* at clock_hz, from the triangles' clocks */
} pp5_render_summary;
void pp5_render_summarise(const pp5_scene *s, const pp5_render_opts *o, const pp5_render_stats *st,
                          pp5_render_summary *out);
/* The frame's statistics as JSON (docs/schemas/pp5-render-stats.schema.json). */
void pp5_render_stats_json(const pp5_scene *s, const pp5_render_opts *o, const pp5_render_stats *st,
                           ls_buf *b);

/* The Value Change Dump of a run (src/pp5/vcd_rec.c): each clock, every named
 * IGC signal and a clock signal; with emc (a render) also the EMC state at the
 * probe pixel (E, Carry, zbuf, ztemp, red, green, blue) and the count of
 * enabled pixels. Call pp5_vcd_clock from the clock observer, pp5_vcd_end
 * (also on error: it frees) with the time in clocks to close the dump at. */
typedef struct pp5_vcd pp5_vcd;
ls_status pp5_vcd_begin(pp5_vcd **v, ls_buf *b, double clock_hz, const pp5_emc_options *emc, int probe_x,
                        int probe_y, ls_diag *d);
void pp5_vcd_clock(pp5_vcd *v, const pp5_igc *g, const pp5_emc *e /* NULL without emc */);
void pp5_vcd_end(pp5_vcd *v, uint64_t clocks);

/* Three planes of n bytes → n RGB triples in out (3n bytes). isa 2 uses
 * AVX-512 VBMI where the CPU has it, 0 the portable loop; same bytes. */
void pp5_rgb_interleave(const uint8_t *r, const uint8_t *g, const uint8_t *b, size_t n, uint8_t *out,
                        int isa);

/* Host-stream text for one primitive (what the graphics processor sends). */
ls_status pp5_render_prim_stream(const pp5_prim *p, void *buf /* ls_buf* */, ls_diag *d);
#endif
