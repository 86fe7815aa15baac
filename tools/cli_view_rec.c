/* Recorders behind `--record run.lsr`: they turn the run's observer calls
 * into the recording of include/lockstep/record.h (docs/viewer.md). */
#include <stdlib.h>
#include <string.h>

#include "base/json.h"
#include "cli.h"
#include "cli_view.h"
#include "lockstep/r500_asm.h"
#include "lockstep/r500_isa.h"
#include "lockstep/record.h"
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

struct cli_view_pp5 {
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

cli_view_pp5 *cli_view_pp5_new(const char *scene_name)
{
    cli_view_pp5 *v = calloc(1, sizeof *v);
    if (!v) return NULL;
    ls_buf_init(&v->body);
    snprintf(v->scene, sizeof v->scene, "%s", scene_name);
    v->nsig = pp5_igc_signal_count();
    v->sig = calloc(v->nsig, sizeof *v->sig);
    v->prev_sig = calloc(v->nsig, sizeof *v->prev_sig);
    if (!v->sig || !v->prev_sig) {
        cli_view_pp5_free(v);
        return NULL;
    }
    return v;
}

void cli_view_pp5_free(cli_view_pp5 *v)
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

static void read_field(cli_view_pp5 *v, const pp5_emc *e, int f, uint32_t *out)
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

void cli_view_pp5_clock(void *user, const pp5_igc *g, const pp5_pins *pins, const pp5_emc *e)
{
    cli_view_pp5 *v = user;
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

static int write_recording(const cli_args *a, const char *path, ls_rec_machine m, const ls_buf *meta, const ls_buf *body)
{
    if (meta->oom || body->oom) return cli_err(a, CLI_INTERNAL, "out of memory while recording");
    ls_buf out;
    ls_buf_init(&out);
    ls_rec_header(&out, m);
    size_t r = ls_rec_begin(&out, LS_REC_META);
    ls_buf_append(&out, meta->data, meta->len);
    ls_rec_end(&out, r);
    ls_buf_append(&out, body->data, body->len);
    int rc = out.oom ? cli_err(a, CLI_INTERNAL, "out of memory while recording") : cli_write(a, path, &out);
    ls_buf_free(&out);
    return rc;
}

int cli_view_pp5_finish(const cli_args *a, cli_view_pp5 *v, const char *path, uint64_t setup_clocks,
                        const uint64_t *prim_clocks, const int *prim_lines, const char *const *prim_kinds,
                        size_t nprims, uint64_t clocks)
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
    int rc = write_recording(a, path, LS_REC_PP5, &m, &v->body);
    ls_buf_free(&m);
    return rc;
}

/* ==================================================================== R500 */

typedef struct fcstate {
    uint64_t active, killed, pred[5], masks[3];
    int32_t al;
    uint8_t counters[R500_MAX_LANES];
    unsigned loop_depth, addr_depth;
    r500_fc_loop_frame loop[R500_FC_MAX_LOOP_DEPTH];
    uint16_t addr[R500_FC_MAX_ADDR_DEPTH];
} fcstate;

struct cli_view_r500 {
    ls_buf body;
    ls_buf meta;
    unsigned n;             /* lanes of the current thread */
    fcstate prev, cur;
    bool pending;
    uint32_t thread;
    unsigned pc, type;
    float temps[R500_NUM_TEMPS][4][R500_MAX_LANES];
    float out[R500_NUM_TARGETS][4][R500_MAX_LANES];
    float outw[R500_MAX_LANES];
    uint64_t insts;
};

static void fc_capture(fcstate *s, const r500_fc_thread *fc)
{
    memset(s, 0, sizeof *s);
    s->active = fc->active;
    s->killed = fc->killed;
    for (int i = 0; i < 4; i++) s->pred[i] = fc->pred[i];
    s->pred[4] = fc->alu_result;
    s->masks[0] = fc->branch;
    s->masks[1] = fc->brk;
    s->masks[2] = fc->cont;
    s->al = fc->aL;
    for (unsigned l = 0; l < fc->n; l++) s->counters[l] = (fc->branch >> l) & 1 ? fc->counter[l] : 0;
    s->loop_depth = fc->loop_depth;
    s->addr_depth = fc->addr_depth;
    memcpy(s->loop, fc->loop, fc->loop_depth * sizeof fc->loop[0]);
    memcpy(s->addr, fc->addr, fc->addr_depth * sizeof fc->addr[0]);
}

static bool loops_equal(const fcstate *a, const fcstate *b)
{
    if (a->loop_depth != b->loop_depth) return false;
    for (unsigned k = 0; k < a->loop_depth; k++)
        if (a->loop[k].count != b->loop[k].count || a->loop[k].al != b->loop[k].al ||
            a->loop[k].is_loop != b->loop[k].is_loop || a->loop[k].brk != b->loop[k].brk ||
            a->loop[k].cont != b->loop[k].cont)
            return false;
    return true;
}

static void write_block(ls_buf *b, uint8_t file, uint8_t reg, float (*shadow)[R500_MAX_LANES],
                        const float (*now)[R500_MAX_LANES], unsigned n, uint16_t *nw)
{
    for (unsigned ch = 0; ch < 4; ch++) {
        uint64_t m = 0;
        for (unsigned l = 0; l < n; l++)
            if (memcmp(&shadow[ch][l], &now[ch][l], 4)) m |= (uint64_t)1 << l;
        if (!m) continue;
        ls_rec_u8(b, file);
        ls_rec_u8(b, reg);
        ls_rec_u8(b, (uint8_t)ch);
        ls_rec_u64(b, m);
        for (unsigned l = 0; l < n; l++)
            if ((m >> l) & 1) {
                ls_rec_f32(b, now[ch][l]);
                shadow[ch][l] = now[ch][l];
            }
        (*nw)++;
    }
}

/* Emit the pending instruction: its state (as a delta) and the writes. */
static void r500_flush(cli_view_r500 *v, const float (*temps)[4][R500_MAX_LANES], unsigned ntemps,
                       const float (*out)[4][R500_MAX_LANES], const float *outw)
{
    if (!v->pending) return;
    v->pending = false;
    ls_buf *b = &v->body;
    const fcstate *c = &v->cur, *p = &v->prev;
    unsigned f = 0;
    if (c->active != p->active) f |= LS_REC_F_ACTIVE;
    if (c->killed != p->killed) f |= LS_REC_F_KILLED;
    if (memcmp(c->pred, p->pred, sizeof c->pred)) f |= LS_REC_F_PRED;
    if (memcmp(c->masks, p->masks, sizeof c->masks)) f |= LS_REC_F_MASKS;
    if (c->al != p->al) f |= LS_REC_F_AL;
    if (memcmp(c->counters, p->counters, v->n)) f |= LS_REC_F_COUNTERS;
    if (!loops_equal(c, p)) f |= LS_REC_F_LOOPS;
    if (c->addr_depth != p->addr_depth || memcmp(c->addr, p->addr, c->addr_depth * 2)) f |= LS_REC_F_ADDRS;
    size_t r = ls_rec_begin(b, LS_REC_R500_INST);
    ls_rec_u32(b, v->thread);
    ls_rec_u16(b, (uint16_t)v->pc);
    ls_rec_u8(b, (uint8_t)v->type);
    ls_rec_u16(b, (uint16_t)f);
    if (f & LS_REC_F_ACTIVE) ls_rec_u64(b, c->active);
    if (f & LS_REC_F_KILLED) ls_rec_u64(b, c->killed);
    if (f & LS_REC_F_PRED)
        for (int i = 0; i < 5; i++) ls_rec_u64(b, c->pred[i]);
    if (f & LS_REC_F_MASKS)
        for (int i = 0; i < 3; i++) ls_rec_u64(b, c->masks[i]);
    if (f & LS_REC_F_AL) ls_rec_u32(b, (uint32_t)c->al);
    if (f & LS_REC_F_COUNTERS) ls_buf_append(b, c->counters, v->n);
    if (f & LS_REC_F_LOOPS) {
        ls_rec_u8(b, (uint8_t)c->loop_depth);
        for (unsigned k = 0; k < c->loop_depth; k++) {
            ls_rec_u32(b, c->loop[k].count);
            ls_rec_u32(b, (uint32_t)c->loop[k].al);
            ls_rec_u8(b, c->loop[k].is_loop ? 1 : 0);
            ls_rec_u64(b, c->loop[k].brk);
            ls_rec_u64(b, c->loop[k].cont);
        }
    }
    if (f & LS_REC_F_ADDRS) {
        ls_rec_u8(b, (uint8_t)c->addr_depth);
        for (unsigned k = 0; k < c->addr_depth; k++) ls_rec_u16(b, c->addr[k]);
    }
    size_t at = b->len;
    uint16_t nw = 0;
    ls_rec_u16(b, 0);
    if (temps) {
        for (unsigned t = 0; t < ntemps; t++)
            write_block(b, 0, (uint8_t)t, v->temps[t], temps[t], v->n, &nw);
        for (unsigned t = 0; t < R500_NUM_TARGETS; t++)
            write_block(b, 1, (uint8_t)t, v->out[t], out[t], v->n, &nw);
        uint64_t m = 0;
        for (unsigned l = 0; l < v->n; l++)
            if (memcmp(&v->outw[l], &outw[l], 4)) m |= (uint64_t)1 << l;
        if (m) {
            ls_rec_u8(b, 2);
            ls_rec_u8(b, 0);
            ls_rec_u8(b, 0);
            ls_rec_u64(b, m);
            for (unsigned l = 0; l < v->n; l++)
                if ((m >> l) & 1) {
                    ls_rec_f32(b, outw[l]);
                    v->outw[l] = outw[l];
                }
            nw++;
        }
    }
    if (!b->oom) {
        b->data[at] = (char)(uint8_t)nw;
        b->data[at + 1] = (char)(uint8_t)(nw >> 8);
    }
    ls_rec_end(b, r);
    v->prev = v->cur;
    v->insts++;
}

static void obs_thread_begin(void *user, size_t thread, unsigned n, const int *px, const int *py,
                             uint64_t covered, const float (*temps)[4][R500_MAX_LANES], unsigned ntemps)
{
    cli_view_r500 *v = user;
    r500_flush(v, NULL, 0, NULL, NULL);
    v->n = n;
    v->thread = (uint32_t)thread;
    memset(&v->prev, 0, sizeof v->prev);
    memset(v->temps, 0, sizeof v->temps);
    memset(v->out, 0, sizeof v->out);
    memset(v->outw, 0, sizeof v->outw);
    ls_buf *b = &v->body;
    size_t r = ls_rec_begin(b, LS_REC_R500_THREAD);
    ls_rec_u32(b, (uint32_t)thread);
    ls_rec_u8(b, (uint8_t)n);
    ls_rec_u64(b, covered);
    for (unsigned l = 0; l < n; l++) {
        ls_rec_u16(b, (uint16_t)px[l]);
        ls_rec_u16(b, (uint16_t)py[l]);
    }
    ls_rec_u8(b, (uint8_t)ntemps);
    for (unsigned t = 0; t < ntemps; t++)
        for (unsigned ch = 0; ch < 4; ch++)
            for (unsigned l = 0; l < n; l++) {
                ls_rec_f32(b, temps[t][ch][l]);
                v->temps[t][ch][l] = temps[t][ch][l];
            }
    ls_rec_end(b, r);
}

static void obs_issue(void *user, size_t thread, unsigned pc, unsigned type, const r500_fc_thread *fc)
{
    cli_view_r500 *v = user;
    r500_flush(v, NULL, 0, NULL, NULL); /* an instruction that did not retire (fault) */
    v->thread = (uint32_t)thread;
    v->pc = pc;
    v->type = type;
    fc_capture(&v->cur, fc);
    v->pending = true;
}

static void obs_retire(void *user, size_t thread, unsigned pc, const float (*temps)[4][R500_MAX_LANES],
                       unsigned ntemps, const float (*out)[4][R500_MAX_LANES], const float *outw)
{
    cli_view_r500 *v = user;
    (void)thread;
    (void)pc;
    r500_flush(v, temps, ntemps, out, outw);
}

cli_view_r500 *cli_view_r500_new(const r500_job *job, const char *program_name, r500_observer *obs)
{
    cli_view_r500 *v = calloc(1, sizeof *v);
    if (!v) return NULL;
    ls_buf_init(&v->body);
    ls_buf_init(&v->meta);
    ls_buf *m = &v->meta;
    ls_buf_puts(m, "{\"machine\":\"r500\",\"program\":");
    ls_json_write_string(m, program_name);
    ls_buf_printf(m, ",\"width\":%d,\"height\":%d,\"thread_size\":%u,\"types\":[", job->width,
                  job->height, job->thread_size);
    for (unsigned t = 0; t < 4; t++) {
        ls_buf_puts(m, t ? "," : "");
        ls_json_write_string(m, r500_value_name(R500_V_TYPE, t));
    }
    ls_buf_puts(m, "],\"listing\":[");
    ls_buf t;
    ls_buf_init(&t);
    for (size_t i = 0; i < job->ninst; i++) {
        ls_buf_reset(&t);
        r500_disasm(job->words + 6 * i, 1, NULL, &t);
        /* keep the instruction's own lines (no comments, no blank lines) */
        ls_buf s;
        ls_buf_init(&s);
        const char *p = t.data ? t.data : "";
        while (*p) {
            const char *e = strchr(p, '\n');
            size_t len = e ? (size_t)(e - p) : strlen(p);
            size_t k = 0;
            while (k < len && (p[k] == ' ' || p[k] == '\t')) k++;
            if (len > k && !(len - k >= 2 && p[k] == '-' && p[k + 1] == '-')) {
                if (s.len) ls_buf_putc(&s, '\n');
                ls_buf_append(&s, p, len);
            }
            p += len + (e ? 1 : 0);
        }
        r500_inst in;
        r500_decode(job->words + 6 * i, &in);
        ls_buf_printf(m, "%s{\"type\":%u,\"text\":", i ? "," : "", (unsigned)in.type);
        ls_json_write_string(m, s.data ? s.data : "");
        ls_buf_puts(m, "}");
        ls_buf_free(&s);
    }
    ls_buf_free(&t);
    ls_buf_puts(m, "]");
    memset(obs, 0, sizeof *obs);
    obs->user = v;
    obs->thread_begin = obs_thread_begin;
    obs->issue = obs_issue;
    obs->retire = obs_retire;
    return v;
}

int cli_view_r500_finish(const cli_args *a, cli_view_r500 *v, const char *path, const r500_result *res)
{
    r500_flush(v, NULL, 0, NULL, NULL);
    ls_buf_puts(&v->meta, ",\"stats\":");
    r500_stats_write_json(&res->stats, &v->meta);
    ls_buf_puts(&v->meta, "}");
    return write_recording(a, path, LS_REC_R500, &v->meta, &v->body);
}

void cli_view_r500_free(cli_view_r500 *v)
{
    if (!v) return;
    ls_buf_free(&v->body);
    ls_buf_free(&v->meta);
    free(v);
}
