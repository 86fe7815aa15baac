/* The PP5 recorder (include/lockstep/record_run.h): it turns a render's
 * on_clock calls into the recording of include/lockstep/record.h
 * (docs/viewer.md). */
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/json.h"
#include "lockstep/record.h"
#include "lockstep/record_run.h"
#include "pp5/render.h"
#include "pp5/uasm.h"

/* ===================================================================== PP5 */

/* The pixel-memory fields recorded (src/pp5/render.h layout). */
enum { F_E, F_CARRY, F_ZBUF, F_ZTEMP, F_RED, F_GREEN, F_BLUE, F_N };
static const struct { const char *name; int addr, bits, bytes; } pp5_fields[F_N] = {
    [F_E] = {"Enable", -1, 1, 1},
    [F_CARRY] = {"Carry", -2, 1, 1},
    [F_ZBUF] = {"z", PP5_R_ZBUF, PP5_R_ZBITS, 4},
    [F_ZTEMP] = {"ztemp", PP5_R_ZTEMP, PP5_R_ZBITS, 4},
    [F_RED] = {"red", PP5_R_RED, 8, 1},
    [F_GREEN] = {"green", PP5_R_GREEN, 8, 1},
    [F_BLUE] = {"blue", PP5_R_BLUE, 8, 1},
};

struct ls_rec_pp5 {
    ls_buf body;
    char scene[256];
    size_t nsig;
    uint64_t *sig, *prev_sig;
    int w, h;
    size_t np;
    uint32_t *cur[F_N], *nxt;
    uint8_t *tmp8;
    uint64_t *plane;
    uint64_t first_clock, clocks;
    bool started;
};

ls_rec_pp5 *ls_rec_pp5_new(const char *scene_name)
{
    ls_rec_pp5 *v = calloc(1, sizeof *v);
    if (!v) return NULL;
    ls_buf_init(&v->body);
    snprintf(v->scene, sizeof v->scene, "%s", scene_name);
    v->nsig = pp5_igc_signal_count();
    v->sig = calloc(v->nsig, sizeof *v->sig);
    v->prev_sig = calloc(v->nsig, sizeof *v->prev_sig);
    if (!v->sig || !v->prev_sig) {
        ls_rec_pp5_free(v);
        return NULL;
    }
    return v;
}

void ls_rec_pp5_free(ls_rec_pp5 *v)
{
    if (!v) return;
    ls_buf_free(&v->body);
    free(v->sig);
    free(v->prev_sig);
    for (int f = 0; f < F_N; f++) free(v->cur[f]);
    free(v->nxt);
    free(v->tmp8);
    free(v->plane);
    free(v);
}

static void read_field(ls_rec_pp5 *v, const pp5_emc *e, int f, uint32_t *out)
{
    if (pp5_fields[f].addr < 0) {
        pp5_emc_plane(e, f == F_E ? PP5_EMC_PLANE_E : PP5_EMC_PLANE_CARRY, v->plane);
        for (size_t p = 0; p < v->np; p++) out[p] = (uint32_t)(v->plane[p / 64] >> (p % 64)) & 1u;
        return;
    }
    memset(out, 0, v->np * sizeof *out);
    for (int b = 0; b < pp5_fields[f].bits; b += 8) {
        int n = pp5_fields[f].bits - b < 8 ? pp5_fields[f].bits - b : 8;
        pp5_emc_field8(e, pp5_fields[f].addr + b, n, v->tmp8);
        for (size_t p = 0; p < v->np; p++) out[p] |= (uint32_t)v->tmp8[p] << b;
    }
}

static void put_val(ls_buf *b, uint32_t x, int bytes)
{
    if (bytes == 1) ls_rec_u8(b, (uint8_t)x);
    else if (bytes == 2) ls_rec_u16(b, (uint16_t)x);
    else ls_rec_u32(b, x);
}

void ls_rec_pp5_clock(void *user, const pp5_igc *g, const pp5_pins *pins, const pp5_emc *e)
{
    ls_rec_pp5 *v = user;
    (void)pins;
    if (v->body.oom) return;
    uint32_t clk = (uint32_t)(pp5_igc_cycle(g) - 1);
    if (!v->started) {
        v->started = true;
        v->first_clock = clk;
        v->w = pp5_emc_width(e);
        v->h = pp5_emc_height(e);
        v->np = (size_t)v->w * (size_t)v->h;
        for (int f = 0; f < F_N; f++) v->cur[f] = calloc(v->np, sizeof(uint32_t));
        v->nxt = calloc(v->np, sizeof(uint32_t));
        v->tmp8 = malloc(v->np);
        v->plane = calloc(v->np / 64 + 1, sizeof(uint64_t));
        bool ok = v->nxt && v->tmp8 && v->plane;
        for (int f = 0; f < F_N; f++) ok = ok && v->cur[f];
        if (!ok) {
            v->body.oom = true;
            return;
        }
    }
    v->clocks++;
    /* the signals that changed */
    pp5_igc_signal_values(g, v->sig);
    size_t nch = 0;
    for (size_t i = 0; i < v->nsig; i++) nch += v->sig[i] != v->prev_sig[i];
    if (nch) {
        size_t r = ls_rec_begin(&v->body, LS_REC_PP5_CLOCK);
        ls_rec_u32(&v->body, clk);
        ls_rec_u8(&v->body, (uint8_t)nch);
        for (size_t i = 0; i < v->nsig; i++)
            if (v->sig[i] != v->prev_sig[i]) {
                ls_rec_u8(&v->body, (uint8_t)i);
                ls_rec_u32(&v->body, (uint32_t)v->sig[i]);
            }
        ls_rec_end(&v->body, r);
        memcpy(v->prev_sig, v->sig, v->nsig * sizeof *v->sig);
    }
    /* the fields that changed: sparse or dense, whichever is smaller */
    for (int f = 0; f < F_N; f++) {
        read_field(v, e, f, v->nxt);
        size_t n = 0;
        for (size_t p = 0; p < v->np; p++) n += v->nxt[p] != v->cur[f][p];
        if (!n) continue;
        int by = pp5_fields[f].bytes;
        uint32_t flips = 0;
        for (size_t p = 0; p < v->np; p++) flips |= v->nxt[p] ^ v->cur[f][p];
        size_t planes = (size_t)__builtin_popcount(flips), pbytes = (v->np + 7) / 8;
        size_t dense = pp5_fields[f].bits == 1 ? pbytes : v->np * (size_t)by;
        size_t sparse = 4 + n * (4 + (size_t)by), xor = 1 + planes * (1 + pbytes);
        size_t r = ls_rec_begin(&v->body, LS_REC_PP5_FIELD);
        ls_rec_u32(&v->body, clk);
        ls_rec_u8(&v->body, (uint8_t)f);
        ls_rec_u8(&v->body, (uint8_t)by);
        if (sparse < dense && sparse <= xor) {
            ls_rec_u8(&v->body, LS_REC_PP5_SPARSE);
            ls_rec_u32(&v->body, (uint32_t)v->np);
            ls_rec_u32(&v->body, (uint32_t)n);
            for (size_t p = 0; p < v->np; p++)
                if (v->nxt[p] != v->cur[f][p]) {
                    ls_rec_u32(&v->body, (uint32_t)p);
                    put_val(&v->body, v->nxt[p], by);
                }
        } else if (xor < dense) {
            ls_rec_u8(&v->body, LS_REC_PP5_XOR);
            ls_rec_u32(&v->body, (uint32_t)v->np);
            ls_rec_u8(&v->body, (uint8_t)planes);
            for (int bit = 0; bit < 32; bit++) {
                if (!((flips >> bit) & 1)) continue;
                ls_rec_u8(&v->body, (uint8_t)bit);
                for (size_t p = 0; p < v->np; p += 8) {
                    uint8_t byte = 0;
                    for (size_t k = 0; k < 8 && p + k < v->np; k++)
                        byte |= (uint8_t)((((v->nxt[p + k] ^ v->cur[f][p + k]) >> bit) & 1) << k);
                    ls_rec_u8(&v->body, byte);
                }
            }
        } else if (pp5_fields[f].bits == 1) {
            ls_rec_u8(&v->body, LS_REC_PP5_BITS);
            ls_rec_u32(&v->body, (uint32_t)v->np);
            for (size_t p = 0; p < v->np; p += 8) {
                uint8_t byte = 0;
                for (size_t k = 0; k < 8 && p + k < v->np; k++) byte |= (uint8_t)(v->nxt[p + k] << k);
                ls_rec_u8(&v->body, byte);
            }
        } else {
            ls_rec_u8(&v->body, LS_REC_PP5_DENSE);
            ls_rec_u32(&v->body, (uint32_t)v->np);
            for (size_t p = 0; p < v->np; p++) put_val(&v->body, v->nxt[p], by);
        }
        ls_rec_end(&v->body, r);
        memcpy(v->cur[f], v->nxt, v->np * sizeof *v->nxt);
    }
}

ls_status ls_rec_pp5_finish(ls_rec_pp5 *v, uint64_t setup_clocks, const uint64_t *prim_clocks,
                            const int *prim_lines, const char *const *prim_kinds, size_t nprims,
                            uint64_t clocks, ls_buf *out, ls_diag *d)
{
    ls_buf m;
    ls_buf_init(&m);
    ls_buf_puts(&m, "{\"machine\":\"pp5\",\"scene\":");
    ls_json_write_string(&m, v->scene);
    ls_buf_printf(&m, ",\"width\":%d,\"height\":%d,\"first_clock\":%llu,\"clocks\":%llu,\"signals\":[",
                  v->w, v->h, (unsigned long long)v->first_clock, (unsigned long long)v->clocks);
    for (size_t i = 0; i < v->nsig; i++) {
        const pp5_signal_info *s = pp5_igc_signal_info(i);
        ls_buf_printf(&m, "%s{\"name\":", i ? "," : "");
        ls_json_write_string(&m, s->name);
        ls_buf_printf(&m, ",\"width\":%d,\"pin\":%s}", s->width, s->kind == PP5_SIG_PIN ? "true" : "false");
    }
    ls_buf_puts(&m, "],\"fields\":[");
    for (int f = 0; f < F_N; f++)
        ls_buf_printf(&m, "%s{\"name\":\"%s\",\"addr\":%d,\"bits\":%d,\"bytes\":%d}", f ? "," : "",
                      pp5_fields[f].name, pp5_fields[f].addr, pp5_fields[f].bits, pp5_fields[f].bytes);
    ls_buf_puts(&m, "],\"ucode\":[");
    ls_buf t;
    ls_buf_init(&t);
    for (size_t a = 0; a < pp5_render_ucode_count; a++) {
        ls_buf_reset(&t);
        pp5_udis_word(pp5_render_ucode_words[a], &t);
        ls_buf_printf(&m, "%s[%u,", a ? "," : "", (unsigned)pp5_render_ucode_words[a]);
        ls_json_write_string(&m, t.data ? t.data : "");
        ls_buf_puts(&m, "]");
    }
    ls_buf_free(&t);
    /* the host stream, segment by segment (pp5_render's order: setup, the
     * primitives, the drain) */
    ls_buf_printf(&m, "],\"segments\":[{\"name\":\"setup (microcode, config, clear)\",\"first\":%llu,\"clocks\":%llu}",
                  (unsigned long long)v->first_clock, (unsigned long long)setup_clocks);
    uint64_t at = v->first_clock + setup_clocks;
    for (size_t i = 0; i < nprims; i++) {
        ls_buf_printf(&m, ",{\"name\":\"%s (scene line %d)\",\"first\":%llu,\"clocks\":%llu}",
                      prim_kinds[i], prim_lines[i], (unsigned long long)at,
                      (unsigned long long)prim_clocks[i]);
        at += prim_clocks[i];
    }
    ls_buf_printf(&m, ",{\"name\":\"drain\",\"first\":%llu,\"clocks\":%llu}]}",
                  (unsigned long long)at, (unsigned long long)(v->first_clock + clocks - at));
    ls_status st = ls_rec_assemble(out, LS_REC_PP5, &m, &v->body, d);
    ls_buf_free(&m);
    return st;
}

