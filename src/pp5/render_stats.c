/* The figures of a rendered frame (src/pp5/render.h): what `lockstep pp5
 * render` prints as its summary and writes with --stats
 * (docs/schemas/pp5-render-stats.schema.json, docs/pp5-render.md). */
#include <string.h>

#include "base/buf.h"
#include "pp5/render.h"

void pp5_render_summarise(const pp5_scene *s, const pp5_render_opts *o, const pp5_render_stats *st,
                          pp5_render_summary *out)
{
    memset(out, 0, sizeof *out);
    pp5_options def;
    pp5_options_default(&def);
    out->clock_hz = o ? o->igc.clock_hz : def.clock_hz;
    out->seconds = (double)st->clocks / out->clock_hz;
    uint64_t tri_sum = 0, disc_sum = 0;
    for (size_t i = 0; i < st->nprims && i < s->n; i++) {
        if (s->p[i].kind == PP5_PRIM_TRI) {
            tri_sum += st->prim_clocks[i];
            out->triangles++;
        } else {
            disc_sum += st->prim_clocks[i];
            out->discs++;
        }
    }
    out->clocks_per_triangle = out->triangles ? (double)tri_sum / (double)out->triangles : 0.0;
    out->clocks_per_disc = out->discs ? (double)disc_sum / (double)out->discs : 0.0;
    out->triangles_per_second = tri_sum ? out->clock_hz * (double)out->triangles / (double)tri_sum : 0.0;
}

void pp5_render_stats_json(const pp5_scene *s, const pp5_render_opts *o, const pp5_render_stats *st,
                           ls_buf *b)
{
    pp5_render_summary m;
    pp5_render_summarise(s, o, st, &m);
    ls_buf_printf(b,
                  "{\"clock_hz\": %.0f, \"clocks\": %llu, \"setup_clocks\": %llu, "
                  "\"seconds_at_clock\": %.9g, \"triangles\": %llu, \"discs\": %llu, "
                  "\"clocks_per_triangle\": %.3f, \"clocks_per_disc\": %.3f, "
                  "\"triangles_per_second_at_clock\": %.1f, \"igc_warnings\": %llu, "
                  "\"emc_warnings\": %llu, \"primitives\": [",
                  m.clock_hz, (unsigned long long)st->clocks, (unsigned long long)st->setup_clocks,
                  m.seconds, (unsigned long long)m.triangles, (unsigned long long)m.discs,
                  m.clocks_per_triangle, m.clocks_per_disc, m.triangles_per_second,
                  (unsigned long long)st->igc_warnings, (unsigned long long)st->emc_warnings);
    for (size_t i = 0; i < st->nprims && i < s->n; i++)
        ls_buf_printf(b, "%s{\"line\": %d, \"kind\": \"%s\", \"microcycles\": %llu}", i ? ", " : "",
                      s->p[i].line, s->p[i].kind == PP5_PRIM_TRI ? "tri" : "disc",
                      (unsigned long long)st->prim_clocks[i]);
    ls_buf_puts(b, "]}\n");
}
