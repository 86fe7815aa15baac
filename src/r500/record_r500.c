/* The R500 recorder (include/lockstep/record_run.h): an observer for
 * r500_run_observed that turns a run's calls into the recording of
 * include/lockstep/record.h (docs/viewer.md). */
#include <assert.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/json.h"
#include "lockstep/r500_asm.h"
#include "lockstep/r500_isa.h"
#include "lockstep/record.h"
#include "lockstep/record_run.h"

typedef struct fcstate {
    uint64_t active, killed, pred[5], masks[3];
    int32_t al;
    uint8_t counters[R500_MAX_LANES];
    unsigned loop_depth, addr_depth;
    r500_fc_loop_frame loop[R500_FC_MAX_LOOP_DEPTH];
    uint16_t addr[R500_FC_MAX_ADDR_DEPTH];
} fcstate;

struct ls_rec_r500 {
    ls_buf body;
    ls_buf meta;
    ls_buf ctl, val;        /* the current thread's control and values streams */
    ls_rec_values values; /* whose values are recorded */
    unsigned n;             /* lanes of the current thread */
    bool in_thread, with_values;
    uint64_t covered, ninst;
    int px[R500_MAX_LANES], py[R500_MAX_LANES];
    fcstate prev, cur;
    bool pending;
    unsigned plain; /* plain control entries not yet written */
    uint32_t thread;
    unsigned pc, prev_pc, type, ntemps;
    uint32_t temps0[R500_NUM_TEMPS][4][R500_MAX_LANES];
    float temps[R500_NUM_TEMPS][4][R500_MAX_LANES];
    float out[R500_NUM_TARGETS][4][R500_MAX_LANES];
    float outw[R500_MAX_LANES];
    float fout[R500_NUM_TARGETS][4][R500_MAX_LANES]; /* outputs after the last retire */
    float fw[R500_MAX_LANES];
    uint64_t insts;
};

int ls_rec_values_parse(const char *s, ls_rec_values *v)
{
    memset(v, 0, sizeof *v);
    if (!strcmp(s, "all")) {
        v->mode = LS_REC_VALUES_ALL;
        return 0;
    }
    if (!strcmp(s, "none")) {
        v->mode = LS_REC_VALUES_NONE;
        return 0;
    }
    int n = 0;
    if (sscanf(s, "%d,%d,%d,%d%n", &v->x, &v->y, &v->w, &v->h, &n) != 4 || s[n] || v->x < 0 ||
        v->y < 0 || v->w < 1 || v->h < 1)
        return -1;
    v->mode = LS_REC_VALUES_RECT;
    return 0;
}

void ls_rec_values_default(int w, int h, ls_rec_values *v)
{
    memset(v, 0, sizeof *v);
    if ((long)w * h <= 64 * 64) {
        v->mode = LS_REC_VALUES_ALL;
        return;
    }
    v->mode = LS_REC_VALUES_RECT;
    v->w = w < 32 ? w : 32;
    v->h = h < 32 ? h : 32;
    v->x = (w - v->w) / 2;
    v->y = (h - v->h) / 2;
}

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
    for (unsigned l = 0; l < fc->n; l++)
        s->counters[l] = (fc->branch >> l) & 1 ? (uint8_t)r500_fc_counter(fc, l) : 0;
    s->loop_depth = fc->loop_depth;
    s->addr_depth = fc->addr_depth;
    memcpy(s->loop, fc->loop, fc->loop_depth * sizeof fc->loop[0]);
    memcpy(s->addr, fc->addr, fc->addr_depth * sizeof fc->addr[0]);
}

static uint32_t fbits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

/* The registers that differ from the shadow, lanes relative to active. */
static void write_block(ls_buf *b, unsigned key, float *shadow, const float *now, unsigned n,
                        uint64_t active, unsigned *nw)
{
    uint64_t m = 0;
    uint32_t v[R500_MAX_LANES], ref[R500_MAX_LANES];
    unsigned k = 0;
    for (unsigned l = 0; l < n; l++)
        if (memcmp(&shadow[l], &now[l], 4)) {
            m |= (uint64_t)1 << l;
            v[k] = fbits(now[l]);
            ref[k++] = fbits(shadow[l]);
            shadow[l] = now[l];
        }
    if (!m) return;
    ls_rec_varint(b, key);
    ls_rec_mask(b, m, active, n);
    ls_rec_floats(b, v, ref, k);
    (*nw)++;
}

/* Plain entries (pc + 1, nothing changed) pending: one 0x00 each, or runs
 * (0x80 0x00 r: r >= 2 plain entries). */
static void flush_plain(ls_rec_r500 *v)
{
    while (v->plain) {
        unsigned r = v->plain > 255 ? 255 : v->plain;
        if (r == 1) {
            ls_rec_u8(&v->ctl, 0);
        } else {
            ls_rec_u8(&v->ctl, LS_REC_C_EXT);
            ls_rec_u8(&v->ctl, 0);
            ls_rec_u8(&v->ctl, (uint8_t)r);
        }
        v->plain -= r;
    }
}

/* The pending instruction: its control entry and (with values) its writes. */
static void r500_flush(ls_rec_r500 *v, const float (*temps)[4][R500_MAX_LANES], unsigned ntemps,
                       const float (*out)[4][R500_MAX_LANES], const float *outw)
{
    if (!v->pending) return;
    v->pending = false;
    ls_buf *b = &v->ctl;
    const fcstate *c = &v->cur, *p = &v->prev;
    unsigned n = v->n, f = 0;
    bool first = v->ninst == 0;
    if (first ? v->pc != 0 : v->pc != v->prev_pc + 1) f |= LS_REC_C_PC;
    if (c->active != p->active) f |= LS_REC_C_ACTIVE;
    if (c->masks[0] != p->masks[0]) f |= LS_REC_C_BRANCH;
    if (c->masks[1] != p->masks[1]) f |= LS_REC_C_BREAK;
    if (c->masks[2] != p->masks[2]) f |= LS_REC_C_CONT;
    if (memcmp(c->counters, p->counters, n)) f |= LS_REC_C_COUNTERS;
    bool loops = c->loop_depth != p->loop_depth;
    for (unsigned k = 0; k < c->loop_depth && !loops; k++)
        loops = c->loop[k].count != p->loop[k].count || c->loop[k].al != p->loop[k].al ||
                c->loop[k].is_loop != p->loop[k].is_loop || c->loop[k].brk != p->loop[k].brk ||
                c->loop[k].cont != p->loop[k].cont;
    if (loops) f |= LS_REC_C_LOOPS;
    if (c->killed != p->killed) f |= LS_REC_C_KILLED;
    for (int i = 0; i < 4; i++)
        if (c->pred[i] != p->pred[i]) f |= LS_REC_C_PRED << i;
    if (c->pred[4] != p->pred[4]) f |= LS_REC_C_ALU;
    if (c->al != p->al) f |= LS_REC_C_AL;
    if (c->addr_depth != p->addr_depth || memcmp(c->addr, p->addr, c->addr_depth * 2)) f |= LS_REC_C_ADDRS;
    if (f >> 8) f |= LS_REC_C_EXT;
    if (!f) {
        v->plain++; /* written as a run (flush_plain) */
    } else {
        flush_plain(v);
        ls_rec_u8(b, (uint8_t)f);
    }
    if (f & LS_REC_C_EXT) ls_rec_u8(b, (uint8_t)(f >> 8));
    if (f & LS_REC_C_PC) ls_rec_varint(b, v->pc);
    if (f & LS_REC_C_ACTIVE) ls_rec_mask(b, c->active, p->active, n);
    for (int i = 0; i < 3; i++)
        if (f & (LS_REC_C_BRANCH << i)) ls_rec_mask(b, c->masks[i], p->masks[i], n);
    if (f & LS_REC_C_COUNTERS) {
        unsigned changed = 0, inbranch = (unsigned)__builtin_popcountll(c->masks[0]);
        for (unsigned l = 0; l < n; l++) changed += c->counters[l] != p->counters[l];
        if (2 * changed <= inbranch && changed < 0x80) {
            ls_rec_u8(b, (uint8_t)changed);
            for (unsigned l = 0; l < n; l++)
                if (c->counters[l] != p->counters[l]) {
                    ls_rec_u8(b, (uint8_t)l);
                    ls_rec_u8(b, c->counters[l]);
                }
        } else {
            ls_rec_u8(b, 0x80);
            for (unsigned l = 0; l < n; l++)
                if ((c->masks[0] >> l) & 1) ls_rec_u8(b, c->counters[l]);
        }
    }
    if (f & LS_REC_C_LOOPS) {
        ls_rec_u8(b, (uint8_t)c->loop_depth);
        for (unsigned k = 0; k < c->loop_depth; k++) {
            const r500_fc_loop_frame *x = &c->loop[k];
            r500_fc_loop_frame z = {0};
            const r500_fc_loop_frame *o = k < p->loop_depth ? &p->loop[k] : &z;
            unsigned fm = (x->count != o->count) | (x->al != o->al) << 1 | (x->is_loop != o->is_loop) << 2 |
                          (x->brk != o->brk) << 3 | (x->cont != o->cont) << 4;
            if ((fm & 1) && x->count + 1u == o->count) fm ^= 1 | 32; /* one less: no payload */
            ls_rec_u8(b, (uint8_t)fm);
            if (fm & 1) ls_rec_varint(b, x->count);
            if (fm & 2) ls_rec_svarint(b, x->al);
            if (fm & 4) ls_rec_u8(b, x->is_loop ? 1 : 0);
            if (fm & 8) ls_rec_mask(b, x->brk, o->brk, n);
            if (fm & 16) ls_rec_mask(b, x->cont, o->cont, n);
        }
    }
    if (f & LS_REC_C_KILLED) ls_rec_mask(b, c->killed, p->killed, n);
    for (int i = 0; i < 5; i++)
        if (f & (LS_REC_C_PRED << i)) ls_rec_mask(b, c->pred[i], p->pred[i], n);
    if (f & LS_REC_C_AL) ls_rec_svarint(b, c->al);
    if (f & LS_REC_C_ADDRS) {
        ls_rec_u8(b, (uint8_t)c->addr_depth);
        for (unsigned k = 0; k < c->addr_depth; k++) ls_rec_varint(b, c->addr[k]);
    }
    if (v->with_values) {
        /* the writes into a scratch buffer behind the count */
        ls_buf w;
        ls_buf_init(&w);
        unsigned nw = 0;
        if (temps) {
            for (unsigned t = 0; t < ntemps; t++)
                for (unsigned ch = 0; ch < 4; ch++)
                    write_block(&w, t * 16 + ch * 4 + 0, v->temps[t][ch], temps[t][ch], n, c->active, &nw);
            for (unsigned t = 0; t < R500_NUM_TARGETS; t++)
                for (unsigned ch = 0; ch < 4; ch++)
                    write_block(&w, t * 16 + ch * 4 + 1, v->out[t][ch], out[t][ch], n, c->active, &nw);
            write_block(&w, 2, v->outw, outw, n, c->active, &nw);
        }
        ls_rec_varint(&v->val, nw);
        ls_buf_append(&v->val, w.data, w.len);
        if (w.oom) v->val.oom = true;
        ls_buf_free(&w);
    }
    if (temps && v->type != R500_TYPE_FC) {
        memcpy(v->fout, out, sizeof v->fout);
        memcpy(v->fw, outw, sizeof v->fw);
    }
    v->prev = v->cur;
    v->prev_pc = v->pc;
    v->ninst++;
    v->insts++;
}

/* The lane blocks of a thread record: u8 k, k × (u8 file, u8 reg, u8 ch,
 * u8 r, n values, lane l XOR lane l-r (XOR 0 where r = 0 or l < r)); the
 * encoder takes the r (0, 1, 2, 4, 8) that gives the fewest bytes. */
static void put_blocks(ls_buf *b, const uint8_t (*key)[3], const uint32_t (*x)[R500_MAX_LANES], unsigned k, unsigned n)
{
    ls_rec_u8(b, (uint8_t)k);
    ls_buf t;
    ls_buf_init(&t);
    for (unsigned j = 0; j < k; j++) {
        size_t best = SIZE_MAX;
        unsigned br = 0;
        for (unsigned r = 0; r <= 8; r = r ? 2 * r : 1) {
            if (r >= n && r) break;
            uint32_t ref[R500_MAX_LANES];
            for (unsigned l = 0; l < n; l++) ref[l] = r && l >= r ? x[j][l - r] : 0;
            ls_buf_reset(&t);
            ls_rec_floats(&t, x[j], ref, n);
            if (t.len < best) best = t.len, br = r;
        }
        ls_buf_append(b, key[j], 3);
        ls_rec_u8(b, (uint8_t)br);
        uint32_t ref[R500_MAX_LANES];
        for (unsigned l = 0; l < n; l++) ref[l] = br && l >= br ? x[j][l - br] : 0;
        ls_rec_floats(b, x[j], ref, n);
    }
    if (t.oom) b->oom = true;
    ls_buf_free(&t);
}

/* The finished thread as one R500_THREAD record. */
static void r500_end_thread(ls_rec_r500 *v)
{
    r500_flush(v, NULL, 0, NULL, NULL);
    if (!v->in_thread) return;
    v->in_thread = false;
    flush_plain(v);
    ls_buf *b = &v->body;
    unsigned n = v->n;
    size_t r = ls_rec_begin(b, LS_REC_R500_THREAD);
    ls_rec_varint(b, v->thread);
    ls_rec_u8(b, (uint8_t)n);
    ls_rec_mask_raw(b, v->covered, n);
    int x = 0, y = 0;
    for (unsigned l = 0; l < n; l++) {
        ls_rec_svarint(b, v->px[l] - x);
        ls_rec_svarint(b, v->py[l] - y);
        x = v->px[l];
        y = v->py[l];
    }
    /* temps at instruction 0 and final outputs: the channels not 0 in every lane */
    enum { MAXB = R500_NUM_TEMPS * 4 + R500_NUM_TARGETS * 4 + 1 };
    static_assert(MAXB <= 1024, "blocks");
    uint8_t (*key)[3] = malloc(MAXB * sizeof *key);
    uint32_t (*x32)[R500_MAX_LANES] = malloc(MAXB * sizeof *x32);
    if (!key || !x32) {
        b->oom = true;
        free(key);
        free(x32);
        return;
    }
    unsigned k = 0;
    for (unsigned t = 0; t < v->ntemps; t++)
        for (unsigned ch = 0; ch < 4; ch++) {
            uint32_t any = 0;
            for (unsigned l = 0; l < n; l++) any |= x32[k][l] = v->temps0[t][ch][l];
            if (any && k < 255) key[k][0] = 0, key[k][1] = (uint8_t)t, key[k][2] = (uint8_t)ch, k++;
        }
    ls_rec_u8(b, (uint8_t)v->ntemps);
    put_blocks(b, (const uint8_t(*)[3])key, (const uint32_t(*)[R500_MAX_LANES])x32, k, n);
    ls_rec_varint(b, v->ninst);
    ls_rec_varint(b, v->ctl.len);
    ls_buf_append(b, v->ctl.data, v->ctl.len);
    k = 0;
    for (unsigned j = 0; j <= R500_NUM_TARGETS * 4; j++) {
        const float *src = j < R500_NUM_TARGETS * 4 ? v->fout[j / 4][j % 4] : v->fw;
        uint32_t any = 0;
        for (unsigned l = 0; l < n; l++) any |= x32[k][l] = fbits(src[l]);
        if (!any) continue;
        key[k][0] = j < R500_NUM_TARGETS * 4 ? 1 : 2;
        key[k][1] = (uint8_t)(j < R500_NUM_TARGETS * 4 ? j / 4 : 0);
        key[k][2] = (uint8_t)(j < R500_NUM_TARGETS * 4 ? j % 4 : 0);
        k++;
    }
    put_blocks(b, (const uint8_t(*)[3])key, (const uint32_t(*)[R500_MAX_LANES])x32, k, n);
    free(key);
    free(x32);
    ls_rec_u8(b, v->with_values ? 1 : 0);
    if (v->with_values) {
        ls_rec_varint(b, v->val.len);
        ls_buf_append(b, v->val.data, v->val.len);
    }
    if (v->ctl.oom || v->val.oom) b->oom = true;
    ls_rec_end(b, r);
}

static bool wants_values(const ls_rec_values *s, unsigned n, const int *px, const int *py, uint64_t covered)
{
    if (s->mode != LS_REC_VALUES_RECT) return s->mode == LS_REC_VALUES_ALL;
    for (unsigned l = 0; l < n; l++)
        if ((covered >> l) & 1 && px[l] >= s->x && px[l] < s->x + s->w && py[l] >= s->y && py[l] < s->y + s->h)
            return true;
    return false;
}

static void obs_thread_begin(void *user, size_t thread, unsigned n, const int *px, const int *py,
                             uint64_t covered, const float (*temps)[4][R500_MAX_LANES], unsigned ntemps)
{
    ls_rec_r500 *v = user;
    r500_end_thread(v);
    v->in_thread = true;
    v->n = n;
    v->thread = (uint32_t)thread;
    v->covered = covered;
    v->ninst = 0;
    v->plain = 0;
    v->ntemps = ntemps;
    v->with_values = wants_values(&v->values, n, px, py, covered);
    ls_buf_reset(&v->ctl);
    ls_buf_reset(&v->val);
    memset(&v->prev, 0, sizeof v->prev);
    memset(v->out, 0, sizeof v->out);
    memset(v->outw, 0, sizeof v->outw);
    memset(v->fout, 0, sizeof v->fout);
    memset(v->fw, 0, sizeof v->fw);
    memcpy(v->px, px, n * sizeof *px);
    memcpy(v->py, py, n * sizeof *py);
    for (unsigned t = 0; t < ntemps; t++)
        for (unsigned ch = 0; ch < 4; ch++)
            for (unsigned l = 0; l < n; l++) {
                v->temps0[t][ch][l] = fbits(temps[t][ch][l]);
                v->temps[t][ch][l] = temps[t][ch][l];
            }
}

static void obs_issue(void *user, size_t thread, unsigned pc, unsigned type, const r500_fc_thread *fc)
{
    ls_rec_r500 *v = user;
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
    ls_rec_r500 *v = user;
    (void)thread;
    (void)pc;
    r500_flush(v, temps, ntemps, out, outw);
}

ls_rec_r500 *ls_rec_r500_new(const r500_job *job, const char *program_name,
                                 const ls_rec_values *values, r500_observer *obs)
{
    ls_rec_r500 *v = calloc(1, sizeof *v);
    if (!v) return NULL;
    ls_buf_init(&v->body);
    ls_buf_init(&v->meta);
    ls_buf_init(&v->ctl);
    ls_buf_init(&v->val);
    v->values = *values;
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
    ls_buf_puts(m, "],\"values\":");
    if (values->mode == LS_REC_VALUES_RECT)
        ls_buf_printf(m, "[%d,%d,%d,%d]", values->x, values->y, values->w, values->h);
    else
        ls_buf_puts(m, values->mode == LS_REC_VALUES_ALL ? "\"all\"" : "\"none\"");
    memset(obs, 0, sizeof *obs);
    obs->user = v;
    obs->thread_begin = obs_thread_begin;
    obs->issue = obs_issue;
    obs->retire = obs_retire;
    return v;
}

ls_status ls_rec_r500_finish(ls_rec_r500 *v, const r500_result *res, ls_buf *out, ls_diag *d)
{
    r500_end_thread(v);
    ls_buf_puts(&v->meta, ",\"stats\":");
    r500_stats_write_json(&res->stats, &v->meta);
    ls_buf_puts(&v->meta, "}");
    return ls_rec_assemble(out, LS_REC_R500, &v->meta, &v->body, d);
}

void ls_rec_r500_free(ls_rec_r500 *v)
{
    if (!v) return;
    ls_buf_free(&v->body);
    ls_buf_free(&v->meta);
    ls_buf_free(&v->ctl);
    ls_buf_free(&v->val);
    free(v);
}
