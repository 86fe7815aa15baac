/* R500 whole-program execution: threads of pixels in lockstep.
 *
 * The image is cut into 2x2 quads (spec/r500.md §5: "Pixels are shaded in 2x2
 * quads"); quads are taken in row-major order and a thread is the next N
 * pixels of that sequence (N = 1..64), so quad members are neighbouring lanes
 * whenever N is a multiple of 4. Each thread runs from US_CODE_ADDR start to
 * end with the FC unit (fc.c) deciding the PC and the lane masks, the ALU
 * (alu.c) and TEX (here; sampling in tex.c) executing each instruction over
 * all lanes at once. Threads are independent and are spread over host cores;
 * results do not depend on how many cores run them. */
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#if defined(__SSE__)
#include <xmmintrin.h>
#endif

#include "base/buf.h"
#include "base/json.h"
#include "exec_internal.h"

/* ---- options ------------------------------------------------------------ */

const char *const r500_exec_option_names[] = {
    "rcp-zero", "rsq-negative", "ln2-zero", "clamp-nan", "mad",
    "kill",     "quad-top",     "pred-write", "texkill-zero", "watchdog", "max-instructions",
    "timeout",  NULL,
};

const char *r500_fault_kind_name(r500_fault_kind k)
{
    switch (k) {
    case R500_FAULT_WATCHDOG: return "watchdog";
    case R500_FAULT_FC: return "flow-control";
    case R500_FAULT_ENCODING: return "encoding";
    case R500_FAULT_TEX: return "texture";
    default: return "unknown";
    }
}

void r500_options_default(r500_options *o)
{
    memset(o, 0, sizeof *o);
    o->exec.rcp_zero = R500_RCP_ZERO_INF;
    o->exec.rsq_negative = R500_RSQ_NEG_NAN;
    o->exec.ln2_zero = R500_LN2_ZERO_NEG_INF;
    o->exec.clamp_nan = R500_CLAMP_NAN_ZERO;
    o->exec.mad = R500_MAD_SEPARATE;
    o->exec.kill = R500_KILL_STOP;
    o->exec.quad_top = R500_QUAD_TOP_LOW_Y;
    o->exec.pred_write = R500_PRED_WRITE_ACTIVE;
    o->exec.texkill_zero = R500_TEXKILL_ZERO_KEEP;
    o->exec.watchdog = 1u << 20;
    r500_fc_options_default(&o->fc);
    /* auto: the JIT only where it is installed and the job is large
     * (r500_engine_pick; docs/r500-jit.md) */
    o->engine = R500_ENGINE_AUTO;
}

static int pick(const char *v, const char *a, const char *b)
{
    if (!strcmp(v, a))
        return 0;
    if (!strcmp(v, b))
        return 1;
    return -1;
}

ls_status r500_options_set(r500_options *o, const char *name, const char *value, ls_diag *d)
{
    r500_exec_options *e = &o->exec;
    int k = -2;
    const char *a = NULL, *b = NULL;
    if (!strcmp(name, "rcp-zero")) {
        a = "inf", b = "max";
        if ((k = pick(value, a, b)) >= 0)
            e->rcp_zero = (r500_rcp_zero)k;
    } else if (!strcmp(name, "rsq-negative")) {
        a = "nan", b = "abs";
        if ((k = pick(value, a, b)) >= 0)
            e->rsq_negative = (r500_rsq_neg)k;
    } else if (!strcmp(name, "ln2-zero")) {
        a = "-inf", b = "-max";
        if ((k = pick(value, a, b)) >= 0)
            e->ln2_zero = (r500_ln2_zero)k;
    } else if (!strcmp(name, "clamp-nan")) {
        a = "zero", b = "keep";
        if ((k = pick(value, a, b)) >= 0)
            e->clamp_nan = (r500_clamp_nan)k;
    } else if (!strcmp(name, "mad")) {
        a = "separate", b = "fused";
        if ((k = pick(value, a, b)) >= 0)
            e->mad = (r500_mad_mode)k;
    } else if (!strcmp(name, "kill")) {
        a = "stop", b = "continue";
        if ((k = pick(value, a, b)) >= 0)
            e->kill = (r500_kill_mode)k;
    } else if (!strcmp(name, "quad-top")) {
        a = "low-y", b = "high-y";
        if ((k = pick(value, a, b)) >= 0)
            e->quad_top = (r500_quad_top)k;
    } else if (!strcmp(name, "pred-write")) {
        a = "active", b = "predicated";
        if ((k = pick(value, a, b)) >= 0)
            e->pred_write = (r500_pred_write)k;
    } else if (!strcmp(name, "texkill-zero")) {
        a = "keep", b = "kill";
        if ((k = pick(value, a, b)) >= 0)
            e->texkill_zero = (r500_texkill_zero)k;
    } else if (!strcmp(name, "engine")) {
        a = "interp", b = "jit";
        if (!strcmp(value, "auto")) {
            o->engine = R500_ENGINE_AUTO;
            return LS_OK;
        }
        if ((k = pick(value, a, b)) < 0)
            return ls_diag_set(d, LS_ERR_ARG, NULL, 0, 0,
                               "engine: expected interp, jit or auto, got '%s'", value);
        {
            if (!r500_engine_available(o, (r500_engine)k))
                return ls_diag_set(d, LS_ERR_ARG, NULL, 0, 0,
                                   "engine %s: not available (built without LLVM, or the "
                                   "caller did not install r500_jit_ops(); docs/r500-jit.md)",
                                   value);
            o->engine = (r500_engine)k;
        }
    } else if (!strcmp(name, "watchdog")) {
        char *end;
        unsigned long long v = strtoull(value, &end, 0);
        if (*value && !*end && v > 0) {
            e->watchdog = v;
            return LS_OK;
        }
        return ls_diag_set(d, LS_ERR_ARG, NULL, 0, 0,
                           "model option watchdog: expected a positive instruction count, got '%s'",
                           value);
    } else if (!strcmp(name, "max-instructions")) {
        char *end;
        unsigned long long v = strtoull(value, &end, 0);
        if (*value >= '0' && *value <= '9' && !*end) {
            e->max_instructions = v;
            return LS_OK;
        }
        return ls_diag_set(d, LS_ERR_ARG, NULL, 0, 0,
                           "max-instructions: expected an instruction count (0: no limit), got '%s'",
                           value);
    } else if (!strcmp(name, "timeout")) {
        char *end;
        double v = strtod(value, &end);
        if (*value && !*end && v >= 0 && v <= 1e9) {
            e->timeout = v;
            return LS_OK;
        }
        return ls_diag_set(d, LS_ERR_ARG, NULL, 0, 0,
                           "timeout: expected seconds >= 0 (0: none), got '%s'", value);
    } else {
        r500_fc_option_info info;
        bool fc_name = false;
        for (unsigned i = 0; r500_fc_option_info_at(i, &info); i++)
            fc_name |= !strcmp(info.name, name);
        if (fc_name)
            return r500_fc_options_set(&o->fc, name, value, d);
        /* unknown everywhere: list every name */
        char names[512];
        size_t len = 0;
        names[0] = 0;
        for (unsigned i = 0; r500_exec_option_names[i]; i++)
            len += (size_t)snprintf(names + len, len < sizeof names ? sizeof names - len : 0,
                                    "%s%s", i ? ", " : "", r500_exec_option_names[i]);
        for (unsigned i = 0; r500_fc_option_info_at(i, &info) && len < sizeof names; i++)
            len += (size_t)snprintf(names + len, sizeof names - len, ", %s", info.name);
        return ls_diag_set(d, LS_ERR_ARG, NULL, 0, 0, "unknown model option '%s' (options: %s)",
                           name, names);
    }
    if (k < 0)
        return ls_diag_set(d, LS_ERR_ARG, NULL, 0, 0, "model option %s: expected %s or %s, got '%s'",
                           name, a, b, value);
    return LS_OK;
}

/* ---- pre-decoded program ------------------------------------------------ */

void r500_prog_free(r500_prog *p)
{
    free(p->x);
    free(p->fc);
    free(p->csplat);
    free(p->isplat);
}

static void note_temp(unsigned *used, unsigned idx, bool rel)
{
    unsigned u = rel ? R500_NUM_TEMPS : idx + 1;
    if (u > *used)
        *used = u;
}

/* a destination temp: named, and written (an aL-relative one: any) */
static void note_dst(r500_prog *p, unsigned *used, unsigned idx, bool rel)
{
    note_temp(used, idx, rel);
    if (rel)
        memset(p->temp_written, 1, sizeof p->temp_written);
    else if (idx < R500_NUM_TEMPS)
        p->temp_written[idx] = true;
}

ls_status r500_prog_build(const r500_job *job, r500_prog *p, ls_diag *d)
{
    memset(p, 0, sizeof *p);
    const r500_regs *g = &job->regs;
    unsigned offset = g->code_offset & 0x1ff;
    unsigned start = (g->code_addr & 0x1ff) + offset;
    unsigned end = ((g->code_addr >> 16) & 0x1ff) + offset;
    if (!job->words || job->ninst == 0)
        return ls_diag_set(d, LS_ERR_ARG, NULL, 0, 0, "job has no program");
    if (start > end || end >= job->ninst)
        return ls_diag_set(d, LS_ERR_RANGE, NULL, 0, 0,
                           "US_CODE_ADDR start %u .. end %u (+ offset %u) is outside the %zu "
                           "loaded instructions",
                           g->code_addr & 0x1ff, (g->code_addr >> 16) & 0x1ff, offset, job->ninst);
    p->n = job->ninst;
    p->start = start;
    p->end = end;
    p->x = calloc(p->n, sizeof *p->x);
    p->fc = calloc(p->n, sizeof *p->fc);
    /* on 64-byte boundaries, as the worker's registers (their sizes are
     * multiples of 64) */
    p->csplat = aligned_alloc(64, sizeof(r500_lanef[4]) * R500_NUM_CONSTS);
    p->isplat = aligned_alloc(64, sizeof(r500_lanef) * R500_ISPLAT_COUNT);
    if (!p->x || !p->fc || !p->csplat || !p->isplat) {
        r500_prog_free(p);
        return ls_diag_set(d, LS_ERR_NOMEM, NULL, 0, 0, "out of memory");
    }
    for (unsigned i = 0; i < R500_NUM_CONSTS; i++)
        for (unsigned ch = 0; ch < 4; ch++)
            for (unsigned l = 0; l < RL; l++)
                p->csplat[i][ch][l] = job->consts[i][ch];
    for (unsigned i = 0; i < R500_ISPLAT_COUNT; i++) {
        float v = i < 128 ? r500_inline_float(i) : i == R500_ISPLAT_HALF ? 0.5f
                                                : i == R500_ISPLAT_ONE  ? 1.0f
                                                                        : 0.0f;
        for (unsigned l = 0; l < RL; l++)
            p->isplat[i][l] = v;
    }
    unsigned used = 0;
    for (unsigned t = 0; t < R500_NUM_TEMPS; t++)
        if (job->inputs[t].kind != R500_INPUT_NONE)
            note_temp(&used, t, false);
    for (size_t i = 0; i < p->n; i++) {
        r500_xinst *x = &p->x[i];
        r500_decode(job->words + i * R500_INST_WORDS, &x->in);
        x->type = (uint8_t)x->in.type;
        const uint32_t *f = x->in.field;
        switch (x->in.type) {
        case R500_TYPE_ALU:
        case R500_TYPE_OUT:
            r500_alu_predecode(x);
            for (unsigned u = 0; u < 2; u++) {
                for (unsigned k = 0; k < 3; k++)
                    if (x->src[u][k].kind == R500_XSRC_TEMP)
                        note_temp(&used, x->src[u][k].index, x->src[u][k].rel);
                note_dst(p, &used, x->addrd[u], x->addrd_rel[u]);
            }
            break;
        case R500_TYPE_TEX:
            x->wmask = (uint8_t)(f[R500_F_RGB_WMASK] | (f[R500_F_ALPHA_WMASK] << 3));
            note_temp(&used, f[R500_F_TEX_SRC_ADDR], f[R500_F_TEX_SRC_ADDR_REL]);
            note_dst(p, &used, f[R500_F_TEX_DST_ADDR], f[R500_F_TEX_DST_ADDR_REL]);
            note_temp(&used, f[R500_F_TEX_DX_ADDR], f[R500_F_TEX_DX_ADDR_REL]);
            note_temp(&used, f[R500_F_TEX_DY_ADDR], f[R500_F_TEX_DY_ADDR_REL]);
            if (f[R500_F_TEX_INST] == 7)
                snprintf(x->fault, sizeof x->fault, "reserved TEX INST 7");
            else if (f[R500_F_TEX_INST] != 0 && f[R500_F_TEX_INST] != 2 &&
                     !job->tex[f[R500_F_TEX_ID]])
                snprintf(x->fault, sizeof x->fault,
                         "samples texture %u, which is not bound (--tex %u=FILE)",
                         f[R500_F_TEX_ID], f[R500_F_TEX_ID]);
            break;
        case R500_TYPE_FC:
            r500_fc_decode(&x->in, &p->fc[i]);
            break;
        }
    }
    p->temps_used = used;
    r500_fc_state_init(&p->fc_state);
    p->fc_state.bool_const = g->fc_bool_const;
    memcpy(p->fc_state.int_const, g->fc_int_const, sizeof g->fc_int_const);
    p->fc_state.fc_ctrl = g->fc_ctrl;
    p->fc_state.code_addr = g->code_addr;
    p->fc_state.code_range = g->code_range;
    p->fc_state.code_offset = g->code_offset;
    return LS_OK;
}

/* ---- one worker: runs whole threads ------------------------------------ */

/* Job-wide limits, shared by the workers (r500_exec_options.max_instructions,
 * .timeout). Threads add what they issued every LIMIT_CHECK instructions and
 * when they end; once a limit is reached every worker stops. */
#define LIMIT_CHECK R500_LIMIT_CHECK
enum { STOP_NONE, STOP_BUDGET, STOP_TIMEOUT, STOP_WATCHDOG };
typedef struct run_limits {
    uint64_t max;                 /* 0: none */
    bool timed;
    bool watchdog_stops;          /* r500_exec_options.watchdog_stops */
    struct timespec deadline;     /* CLOCK_MONOTONIC */
    atomic_uint_fast64_t issued;  /* over all threads so far */
    atomic_int stop;              /* STOP_* */
    ls_diag watchdog;             /* STOP_WATCHDOG: the thread's fault (written by the
                                     worker that set the stop, read after the join) */
} run_limits;

static bool limits_check(run_limits *lim, uint64_t add)
{
    if (lim->max) {
        uint64_t tot = atomic_fetch_add(&lim->issued, add) + add;
        if (tot > lim->max) {
            int none = STOP_NONE;
            atomic_compare_exchange_strong(&lim->stop, &none, STOP_BUDGET);
        }
    }
    if (lim->timed) {
        struct timespec now;
        clock_gettime(CLOCK_MONOTONIC, &now);
        if (now.tv_sec > lim->deadline.tv_sec ||
            (now.tv_sec == lim->deadline.tv_sec && now.tv_nsec >= lim->deadline.tv_nsec)) {
            int none = STOP_NONE;
            atomic_compare_exchange_strong(&lim->stop, &none, STOP_TIMEOUT);
        }
    }
    return atomic_load_explicit(&lim->stop, memory_order_relaxed) != STOP_NONE;
}

typedef r500_thread_state thread_state; /* exec_internal.h */

typedef struct worker {
    const r500_job *job;
    const r500_prog *p;
    const r500_seg *segs;   /* compiled runs of ALU/OUT instructions, by slot; NULL: none */
    r500_seg_ctx seg;
    r500_result *r;
    ls_buf *trace;
    const r500_observer *obs; /* NULL: none (r500_run_observed) */
    atomic_size_t *next;    /* shared: first thread not yet handed out */
    atomic_size_t *done;    /* shared: threads finished (job->progress) */
    bool reports;           /* this worker runs on the caller's thread: it calls job->progress */
    unsigned nw;            /* workers */
    size_t chunk_min, chunk_max; /* threads taken per grab (grab_threads) */
    size_t nthreads, total_lanes;
    unsigned qw;            /* quads per row */
    const float *ucol, *vrow; /* (x + 0.5) / W for x = 0..W, (y + 0.5) / H for y = 0..H */
    r500_stats st;
    run_limits *lim;
    r500_fault faults[R500_FAULTS_KEPT]; /* this worker's lowest threads' faults */
    size_t nfaults;
    uint64_t fault_counts[R500_FAULT_KINDS];
    /* per-thread state, reused; the registers on 64-byte boundaries (the
     * worker is allocated on one), where the ALU's and compiled code's
     * blocks of 16 lanes do not straddle cache lines (with the temps 8
     * bytes off a boundary, as they were by chance, 03_loop_const_small
     * took 1.12× and 05_loop_uniform 1.05× the CPU time) */
    _Alignas(64) r500_lanef temps[R500_NUM_TEMPS][4];
    _Alignas(64) r500_lanef out[R500_NUM_TARGETS][4];
    _Alignas(64) r500_lanef outw;
    _Alignas(64) r500_lanef tex_in[4], tex_out[4], tex_dx[4], tex_dy[4];
    uint8_t quad[RL][4];
    int quad_key;           /* quad[] holds the table of (s0 % 4) * 128 + n; -1: none */
    /* each lane's pixel; of a thread of whole quads on one quad row inside
     * the image only lanes 0..3, unless lane_coords */
    int px[RL], py[RL];
    /* a thread of whole quads from a quad boundary: its runs of quads on one
     * quad row (lanes run_l0[i] .. + 4 run_nq[i]); none otherwise */
    unsigned nruns;
    uint8_t run_l0[RL / 4 + 1], run_nq[RL / 4 + 1];
    bool lane_coords;       /* every lane's px, py are read: an observer or an input CLIP */
    _Alignas(64) uint32_t work[RL];
    uint8_t input_temps[R500_NUM_TEMPS]; /* the temps with an input, in order */
    unsigned ninputs;
    r500_alu_ctx alu;
    r500_fc_thread fc;
    thread_state ts;
} worker;

/* Count every fault by kind; keep the first few in full. A worker runs its
 * threads in increasing order, so its first faults are its lowest threads'. */
static void add_fault(worker *w, size_t thread, r500_fault_kind kind, const ls_diag *d)
{
    w->fault_counts[kind]++;
    if (w->nfaults == R500_FAULTS_KEPT)
        return;
    w->faults[w->nfaults].thread = thread;
    w->faults[w->nfaults].kind = kind;
    w->faults[w->nfaults].diag = *d;
    w->nfaults++;
}

static ls_lanes lanes_alive(const worker *w)
{
    return w->job->options.exec.kill == R500_KILL_STOP ? w->fc.lanes & ~w->fc.killed
                                                       : w->fc.lanes;
}

static ls_lanes lanes_active(const worker *w)
{
    return w->fc.active & lanes_alive(w);
}

#include "lockstep/r500_tex.h"

/* TEX (spec/r500.md §1.7, §4.8): coordinates from a temp through the
 * STRQ swizzle; the fetched RGBA goes through the destination swizzle under
 * the write mask. */
static ls_status tex_exec(worker *w, const r500_xinst *x, unsigned pc, ls_diag *d)
{
    const uint32_t *f = x->in.field;
    const unsigned n = w->alu.n;
    const int al = w->fc.aL;
    unsigned op = f[R500_F_TEX_INST];
    if (op == 0) /* NOP: nothing is fetched or written (it may only acquire the semaphore) */
        return LS_OK;
    unsigned src = f[R500_F_TEX_SRC_ADDR];
    if (f[R500_F_TEX_SRC_ADDR_REL])
        src = (src + (unsigned)al) & 127u;
    const unsigned sw[4] = {f[R500_F_TEX_SRC_S_SWIZ], f[R500_F_TEX_SRC_T_SWIZ],
                            f[R500_F_TEX_SRC_R_SWIZ], f[R500_F_TEX_SRC_Q_SWIZ]};
    ls_lanes active = lanes_active(w);
    if (op == 2) { /* TEXKILL (exec_internal.h) */
        const float *v[4];
        for (unsigned k = 0; k < 4; k++)
            v[k] = w->temps[src][sw[k]];
        r500_texkill_apply(&w->fc, r500_texkill_lanes(v, n, &w->job->options.exec), active,
                           f[R500_F_RGB_PRED_SEL], f[R500_F_RGB_PRED_INV]);
        return LS_OK;
    }
    for (unsigned k = 0; k < 4; k++)
        memcpy(w->tex_in[k], w->temps[src][sw[k]], n * sizeof(float));
    r500_tex_request rq;
    memset(&rq, 0, sizeof rq);
    rq.n = n;
    rq.quad = w->quad;
    rq.unscaled = f[R500_F_TEX_UNSCALED];
    rq.coord = w->tex_in;
    switch (op) {
    case 3: /* PROJ: S/Q, T/Q, R/Q */
        for (unsigned k = 0; k < 3; k++)
            for (unsigned l = 0; l < n; l++)
                w->tex_in[k][l] = w->tex_in[k][l] / w->tex_in[3][l];
        rq.lod_mode = R500_TEX_LOD_IMPLICIT;
        break;
    case 4: /* LODBIAS: bias from Q (Mesa's TXB convention, §4.8) */
        rq.lod_mode = R500_TEX_LOD_BIAS;
        rq.lod = w->tex_in[3];
        break;
    case 5: /* LOD: explicit LOD from Q */
        rq.lod_mode = R500_TEX_LOD_EXPLICIT;
        rq.lod = w->tex_in[3];
        break;
    case 6: { /* DXDY: explicit derivatives from DX_ADDR / DY_ADDR */
        unsigned dx = f[R500_F_TEX_DX_ADDR], dy = f[R500_F_TEX_DY_ADDR];
        if (f[R500_F_TEX_DX_ADDR_REL])
            dx = (dx + (unsigned)al) & 127u;
        if (f[R500_F_TEX_DY_ADDR_REL])
            dy = (dy + (unsigned)al) & 127u;
        const unsigned sx[4] = {f[R500_F_TEX_DX_S_SWIZ], f[R500_F_TEX_DX_T_SWIZ],
                                f[R500_F_TEX_DX_R_SWIZ], f[R500_F_TEX_DX_Q_SWIZ]};
        const unsigned sy[4] = {f[R500_F_TEX_DY_S_SWIZ], f[R500_F_TEX_DY_T_SWIZ],
                                f[R500_F_TEX_DY_R_SWIZ], f[R500_F_TEX_DY_Q_SWIZ]};
        for (unsigned k = 0; k < 4; k++) {
            memcpy(w->tex_dx[k], w->temps[dx][sx[k]], n * sizeof(float));
            memcpy(w->tex_dy[k], w->temps[dy][sy[k]], n * sizeof(float));
        }
        rq.lod_mode = R500_TEX_LOD_DERIV;
        rq.ddx = w->tex_dx;
        rq.ddy = w->tex_dy;
        break;
    }
    default: /* LD */
        rq.lod_mode = R500_TEX_LOD_IMPLICIT;
        break;
    }
    /* IGNORE_UNCOVERED: "don't fetch for uncovered pixels" -> they are not written */
    ls_lanes fetch = f[R500_F_TEX_IGNORE_UNCOVERED] ? w->fc.covered & w->fc.lanes : w->fc.lanes;
    rq.mask = fetch;
    rq.out = w->tex_out;
    ls_status st = r500_tex_sample(w->job->tex[f[R500_F_TEX_ID]], &rq, d);
    if (st) {
        ls_diag_at_index(d, pc);
        return st;
    }
    unsigned dst = f[R500_F_TEX_DST_ADDR];
    if (f[R500_F_TEX_DST_ADDR_REL])
        dst = (dst + (unsigned)al) & 127u;
    const unsigned ds[4] = {f[R500_F_TEX_DST_R_SWIZ], f[R500_F_TEX_DST_G_SWIZ],
                            f[R500_F_TEX_DST_B_SWIZ], f[R500_F_TEX_DST_A_SWIZ]};
    ls_lanes base = (x->in.field[R500_F_WRITE_INACTIVE] ? lanes_alive(w) : active) & fetch;
    for (unsigned ch = 0; ch < 4; ch++) {
        if (!((x->wmask >> ch) & 1))
            continue;
        unsigned u = ch == 3;
        ls_lanes m = base & r500_pred_mask(w->fc.pred,
                                           f[u ? R500_F_ALPHA_PRED_SEL : R500_F_RGB_PRED_SEL],
                                           f[u ? R500_F_ALPHA_PRED_INV : R500_F_RGB_PRED_INV], ch,
                                           w->fc.lanes);
        const float *s = w->tex_out[ds[ch]];
        float *dp = w->temps[dst][ch];
        for (unsigned l = 0; l < n; l++)
            if ((m >> l) & 1)
                dp[l] = s[l];
    }
    return LS_OK;
}

static void trace_inst(worker *w, size_t t, unsigned pc)
{
    ls_buf *b = w->trace;
    if (b->len)
        ls_buf_puts(b, ",\n");
    ls_buf_printf(b, "{\"thread\":%zu,\"pc\":%u,\"type\":\"%s\",\"active\":\"0x%016llx\","
                     "\"killed\":\"0x%016llx\",",
                  t, pc, r500_value_name(R500_V_TYPE, w->p->x[pc].type),
                  (unsigned long long)w->fc.active, (unsigned long long)w->fc.killed);
    r500_fc_thread_trace_json(&w->fc, b);
    ls_buf_puts(b, "}");
}

static void trace_value(ls_buf *b, float v)
{
    if (isnan(v))
        ls_buf_puts(b, "\"nan\"");
    else if (isinf(v))
        ls_buf_puts(b, v > 0 ? "\"inf\"" : "\"-inf\"");
    else
        ls_buf_printf(b, "%.9g", (double)v);
}

/* After an ALU or TEX instruction (job->trace_writes): the temp channels it
 * writes (its write mask and destination, + aL when relative) with every
 * lane's value, and the lanes it could write (active, or alive with
 * WRITE_INACTIVE; its predicates decide within them). */
static void trace_writes(worker *w, size_t t, unsigned pc, ls_lanes act)
{
    const r500_xinst *x = &w->p->x[pc];
    const uint32_t *f = x->in.field;
    unsigned n = w->alu.n;
    ls_lanes can = x->write_inactive ? lanes_alive(w) : act;
    ls_buf *b = w->trace;
    ls_buf_printf(b, ",\n{\"thread\":%zu,\"pc\":%u,\"writes\":[", t, pc);
    bool first = true;
    for (unsigned ch = 0; ch < 4; ch++) {
        if (!((x->wmask >> ch) & 1))
            continue;
        unsigned dst;
        if (x->type == R500_TYPE_TEX) {
            dst = f[R500_F_TEX_DST_ADDR];
            if (f[R500_F_TEX_DST_ADDR_REL])
                dst = (dst + (unsigned)w->fc.aL) & 127u;
        } else {
            unsigned u = ch == 3;
            dst = x->addrd[u];
            if (x->addrd_rel[u])
                dst = (dst + (unsigned)w->fc.aL) & 127u;
        }
        ls_buf_printf(b, "%s{\"temp\":%u,\"ch\":\"%c\",\"lanes\":\"0x%016llx\",\"values\":[",
                      first ? "" : ",", dst, "rgba"[ch], (unsigned long long)can);
        first = false;
        for (unsigned l = 0; l < n; l++) {
            if (l)
                ls_buf_putc(b, ',');
            trace_value(b, w->temps[dst][ch][l]);
        }
        ls_buf_puts(b, "]}");
    }
    ls_buf_puts(b, "]}");
}

/* The active mask changes only at FC instructions and kills: work and
 * active lane-slots are added once per run of instructions with one mask
 * (exec_internal.h). */
static void flush_work(worker *w, ls_lanes mask, uint32_t count)
{
    /* the lanes' counts only for a work image (seg.work NULL without) */
    w->st.lane_slots_active += r500_flush_work(w->seg.work, mask, count);
}

/* Issue accounting of count instructions under the current active mask. */
static void account(worker *w, uint32_t count)
{
    r500_account(&w->seg, count);
}

/* Issue the instruction at pc with the interpreter's rules; *next: the slot
 * that follows. false: the thread stops here (a fault, the watchdog, a
 * job-wide limit). */
static bool step(worker *w, unsigned pc, unsigned *next_pc)
{
    thread_state *ts = &w->ts;
    const r500_job *job = w->job;
    const r500_prog *p = w->p;
    const r500_xinst *x = &p->x[pc];
    const size_t t = ts->t;
    ls_diag d;
    w->seg.temps_dirty = 1; /* an ALU or TEX instruction may write temps */
    if (ts->issued >= ts->watchdog) {
        ls_diag_set(&d, LS_ERR_FAULT, NULL, 0, 0,
                    "watchdog: thread %zu issued %llu instructions without finishing", t,
                    (unsigned long long)ts->issued);
        ls_diag_at_index(&d, pc);
        add_fault(w, t, R500_FAULT_WATCHDOG, &d);
        ts->faulted = true;
        if (w->lim->watchdog_stops) {
            int none = STOP_NONE;
            if (atomic_compare_exchange_strong(&w->lim->stop, &none, STOP_WATCHDOG))
                w->lim->watchdog = d;
            ts->stopped = true;
        }
        return false;
    }
    if (ts->limited && ts->issued - ts->reported == LIMIT_CHECK) {
        ts->reported = ts->issued;
        if (limits_check(w->lim, LIMIT_CHECK)) {
            ts->stopped = true;
            return false;
        }
    }
    account(w, 1);
    ls_lanes act = lanes_active(w);
    if (w->trace)
        trace_inst(w, t, pc);
    const r500_observer *obs = w->obs;
    if (obs && obs->issue)
        obs->issue(obs->user, t, pc, x->type, &w->fc);
    if (x->fault[0]) {
        ls_diag_set(&d, LS_ERR_FAULT, NULL, 0, 0, "%s", x->fault);
        ls_diag_at_index(&d, pc);
        /* prog_build's faults: reserved encodings, and TEX on an unbound sampler */
        bool unbound = x->type == R500_TYPE_TEX && x->in.field[R500_F_TEX_INST] != 7;
        add_fault(w, t, unbound ? R500_FAULT_TEX : R500_FAULT_ENCODING, &d);
        ts->faulted = true;
        return false;
    }
    unsigned next = pc + 1;
    bool faulted = false;
    switch (x->type) {
    case R500_TYPE_ALU:
    case R500_TYPE_OUT: {
        if (x->type == R500_TYPE_ALU)
            w->st.inst_alu++;
        else
            w->st.inst_out++;
        r500_alu_ctx *c = &w->alu;
        c->al = w->fc.aL;
        c->active = act;
        c->alive = lanes_alive(w);
        r500_alu_exec(c, x);
        if (w->trace && job->trace_writes && x->type == R500_TYPE_ALU)
            trace_writes(w, t, pc, act);
        break;
    }
    case R500_TYPE_TEX:
        w->st.inst_tex++;
        if (tex_exec(w, x, pc, &d)) {
            add_fault(w, t, R500_FAULT_TEX, &d);
            faulted = true;
        } else if (w->trace && job->trace_writes) {
            trace_writes(w, t, pc, act);
        }
        break;
    default: {
        w->st.inst_fc++;
        bool jumped = false;
        if (r500_fc_exec(&w->fc, &p->fc[pc], &p->fc_state, &job->options.fc, pc, &next, &jumped,
                         &d)) {
            if (d.index < 0)
                ls_diag_at_index(&d, pc);
            add_fault(w, t, R500_FAULT_FC, &d);
            faulted = true;
        } else if (jumped) {
            w->st.fc_jumps_taken++;
        } else {
            w->st.fc_jumps_not_taken++;
        }
        break;
    }
    }
    if (obs && obs->retire)
        obs->retire(obs->user, t, pc, (const float(*)[4][RL])w->temps, p->temps_used,
                    (const float(*)[4][RL])w->out, w->outw);
    if (faulted) {
        ts->faulted = true;
        return false;
    }
    *next_pc = next;
    return true;
}

uint32_t r500_exec_seg_step(r500_seg_ctx *c, uint32_t pc)
{
    worker *w = c->worker;
    unsigned next;
    return step(w, pc, &next) ? next : R500_SEG_STOP;
}

bool r500_exec_seg_begin(r500_seg_ctx *c, uint32_t len, uint32_t n_alu)
{
    return r500_seg_begin(c, len, n_alu, len - n_alu, 0);
}

void r500_exec_seg_fault(r500_seg_ctx *c, uint32_t pc, r500_fault_kind kind, const ls_diag *d)
{
    worker *w = c->worker;
    ls_diag dd = *d;
    if (dd.index < 0)
        ls_diag_at_index(&dd, pc);
    add_fault(w, w->ts.t, kind, &dd);
    w->ts.faulted = true;
}

/* Lanes 4j, 4j+1 of a row of whole quads go to pixels 2j, 2j+1 of the upper
 * image row (a), lanes 4j+2, 4j+3 to the lower one (b); 4-byte values (the
 * work counts and the w output share it). */
static void quad_rows_split(void *a, void *b, const void *lanes, unsigned nq)
{
    unsigned char *da = a, *db = b;
    const unsigned char *src = lanes;
    for (unsigned j = 0; j < nq; j++) {
        memcpy(da + 8 * j, src + 16 * j, 8);
        memcpy(db + 8 * j, src + 16 * j + 8, 8);
    }
}

/* The RGBA of lanes 4j..4j+3 (channel-major o[ch][lane]) as pixels 2j, 2j+1
 * of the upper image row (a) and of the lower one (b), 4 floats per pixel;
 * a lane whose bit is set in killed gets the colour clear instead. On SSE
 * hosts a 4×4 transpose per quad (four loads, four stores); elsewhere the
 * same values one by one. */
static void quad_rows_rgba(float *a, float *b, const r500_lanef *o, unsigned l0, unsigned nq,
                           ls_lanes killed, const float clear[4])
{
    /* lanes l0 + 4j .. (l0 a multiple of 4) */
    const float *o0 = &o[0][l0], *o1 = &o[1][l0], *o2 = &o[2][l0], *o3 = &o[3][l0];
    killed >>= l0;
#if defined(__SSE__)
    const __m128 c = _mm_loadu_ps(clear);
    for (unsigned j = 0; j < nq; j++) {
        __m128 r0 = _mm_loadu_ps(o0 + 4 * j), r1 = _mm_loadu_ps(o1 + 4 * j);
        __m128 r2 = _mm_loadu_ps(o2 + 4 * j), r3 = _mm_loadu_ps(o3 + 4 * j);
        _MM_TRANSPOSE4_PS(r0, r1, r2, r3); /* r0..r3: lanes 4j..4j+3 */
        const unsigned k = (unsigned)(killed >> (4 * j)) & 15u;
        if (k) {
            r0 = k & 1u ? c : r0;
            r1 = k & 2u ? c : r1;
            r2 = k & 4u ? c : r2;
            r3 = k & 8u ? c : r3;
        }
        _mm_storeu_ps(a + 8 * j, r0);
        _mm_storeu_ps(a + 8 * j + 4, r1);
        _mm_storeu_ps(b + 8 * j, r2);
        _mm_storeu_ps(b + 8 * j + 4, r3);
    }
#else
    const float *oc[4] = {o0, o1, o2, o3};
    for (unsigned j = 0; j < nq; j++)
        for (unsigned m = 0; m < 2; m++)
            for (unsigned ch = 0; ch < 4; ch++) {
                const unsigned la = 4 * j + m, lb = 4 * j + 2 + m;
                a[(2 * j + m) * 4 + ch] = (killed >> la) & 1u ? clear[ch] : oc[ch][la];
                b[(2 * j + m) * 4 + ch] = (killed >> lb) & 1u ? clear[ch] : oc[ch][lb];
            }
#endif
}

/* quad_rows_rgba's inverse without kills: pixels 2j, 2j+1 of the upper
 * image row (a) and of the lower one (b), 4 floats per pixel, into lanes
 * 4j..4j+3 of o[ch][lane]. */
static void rows_quad_rgba(r500_lanef *o, unsigned l0, const float *a, const float *b,
                           unsigned nq)
{
    /* lanes l0 + 4j .. (l0 a multiple of 4) */
    float *o0 = &o[0][l0], *o1 = &o[1][l0], *o2 = &o[2][l0], *o3 = &o[3][l0];
#if defined(__SSE__)
    for (unsigned j = 0; j < nq; j++) {
        __m128 r0 = _mm_loadu_ps(a + 8 * j), r1 = _mm_loadu_ps(a + 8 * j + 4);
        __m128 r2 = _mm_loadu_ps(b + 8 * j), r3 = _mm_loadu_ps(b + 8 * j + 4);
        _MM_TRANSPOSE4_PS(r0, r1, r2, r3); /* r0..r3: channels 0..3 */
        _mm_storeu_ps(o0 + 4 * j, r0);
        _mm_storeu_ps(o1 + 4 * j, r1);
        _mm_storeu_ps(o2 + 4 * j, r2);
        _mm_storeu_ps(o3 + 4 * j, r3);
    }
#else
    float *oc[4] = {o0, o1, o2, o3};
    for (unsigned j = 0; j < nq; j++)
        for (unsigned m = 0; m < 2; m++)
            for (unsigned ch = 0; ch < 4; ch++) {
                oc[ch][4 * j + m] = a[(2 * j + m) * 4 + ch];
                oc[ch][4 * j + 2 + m] = b[(2 * j + m) * 4 + ch];
            }
#endif
}

/* The bits of lanes 4j..4j+3 of m as bytes 0/1: pixels 2j, 2j+1 of the upper
 * image row (a) and of the lower one (b). */
static void quad_rows_bits(uint8_t *a, uint8_t *b, ls_lanes m, unsigned nq)
{
    for (unsigned j = 0; j < nq; j++, m >>= 4) {
        a[2 * j] = (uint8_t)(m & 1u);
        a[2 * j + 1] = (uint8_t)((m >> 1) & 1u);
        b[2 * j] = (uint8_t)((m >> 2) & 1u);
        b[2 * j + 1] = (uint8_t)((m >> 3) & 1u);
    }
}

/* v[0..n-1] = 0 (n a multiple of 4): SSE stores where there are (GCC makes a
 * memset of a fixed size a `rep stos`, which costs more at this size) */
static void zero_floats(float *v, size_t n)
{
#if defined(__SSE__)
    const __m128 z = _mm_setzero_ps();
    for (size_t i = 0; i < n; i += 4)
        _mm_storeu_ps(v + i, z);
#else
    memset(v, 0, n * sizeof *v);
#endif
}

static void run_thread(worker *w, size_t t)
{
    const r500_job *job = w->job;
    const r500_prog *p = w->p;
    const unsigned N = job->thread_size;
    const size_t s0 = t * N;
    const unsigned n = (unsigned)(w->total_lanes - s0 < N ? w->total_lanes - s0 : N);
    const int W = job->width, H = job->height;
    ls_lanes all = ls_lanes_first(n), covered = 0;
    /* quad_pixel's coordinates: the pixel of sequence index s is member s % 4
     * (0 TL, 1 TR, 2 BL, 3 BR) of quad s / 4, quads in row-major order, qw
     * per row; quad-top: which image row is the quad's "top" row for
     * MDH/MDV */
    size_t q = s0 / 4;
    unsigned qx, qy;
    if (q <= UINT32_MAX) { /* a 32-bit division where it does (it costs less) */
        qx = (uint32_t)q % w->qw, qy = (uint32_t)q / w->qw;
    } else {
        qx = (unsigned)(q % w->qw), qy = (unsigned)(q / w->qw);
    }
    const unsigned qx_first = qx;
    const bool low_y = job->options.exec.quad_top == R500_QUAD_TOP_LOW_Y;
    /* whole quads from a quad boundary on one quad row (the common case):
     * lane l is pixel (2 qx + 2 (l / 4) + l % 2, top or bottom row by bit 1
     * of l), computed without a division per lane */
    const bool one_row = n % 4 == 0 && s0 % 4 == 0 && qx + n / 4 <= w->qw;
    if (one_row) {
        const int x0 = (int)(2 * qx), yt = (int)(low_y ? 2 * qy : 2 * qy + 1);
        const int dy = low_y ? 1 : -1;
        /* every lane inside the image: the first quad's lanes are all that
         * the inputs and results read (the others follow from them), unless
         * an input or observer reads each lane's (lane_coords) */
        const bool inside = x0 + (int)(n / 2) <= W && (int)(2 * qy + 1) < H;
        const unsigned nc = inside && !w->lane_coords ? 4 : n;
        for (unsigned l = 0; l < nc; l++) {
            w->px[l] = x0 + (int)(2 * (l >> 2) + (l & 1));
            w->py[l] = yt + dy * (int)((l >> 1) & 1);
        }
        if (inside)
            covered = all;
        else
            for (unsigned l = 0; l < n; l++)
                if (w->px[l] < W && w->py[l] < H)
                    covered |= (ls_lanes)1 << l;
    } else {
        for (unsigned l = 0; l < n; l++) {
            size_t s = s0 + l;
            if (s / 4 != q) {
                q = s / 4;
                if (++qx == w->qw)
                    qx = 0, qy++;
            }
            unsigned pos = (unsigned)(s % 4), row = pos >> 1;
            w->px[l] = (int)(2 * qx + (pos & 1));
            w->py[l] = (int)(low_y ? 2 * qy + row : 2 * qy + 1 - row);
            if (w->px[l] < W && w->py[l] < H)
                covered |= (ls_lanes)1 << l;
        }
    }
    /* the runs of quads on one quad row of a thread of whole quads from a
     * quad boundary: the first from quad qx on, then from quad 0 of each
     * following quad row */
    w->nruns = 0;
    if (one_row) {
        w->run_l0[0] = 0, w->run_nq[0] = (uint8_t)(n / 4), w->nruns = 1;
    } else if (n % 4 == 0 && s0 % 4 == 0) {
        for (unsigned l = 0, x = qx_first; l < n; x = 0) {
            const unsigned nq = w->qw - x < (n - l) / 4 ? w->qw - x : (n - l) / 4;
            w->run_l0[w->nruns] = (uint8_t)l, w->run_nq[w->nruns++] = (uint8_t)nq;
            l += 4 * nq;
        }
    }
    if (w->r->work)
        memset(w->work, 0, n * sizeof w->work[0]);
    /* quad members (0 TL, 1 TR, 2 BL, 3 BR); a member in another thread
     * (N not a multiple of 4) reads the lane itself (assumptions.md). The
     * table depends only on s0 % 4 and n: kept while they stay. */
    const int quad_key = (int)(s0 % 4) * 128 + (int)n;
    if (w->quad_key != quad_key) {
        w->quad_key = quad_key;
        for (unsigned l = 0; l < n; l++) {
            size_t qbase = (s0 + l) & ~(size_t)3;
            for (unsigned k = 0; k < 4; k++) {
                size_t sk = qbase + k;
                w->quad[l][k] = (uint8_t)(sk >= s0 && sk < s0 + n ? sk - s0 : l);
            }
        }
        for (unsigned l = n; l < RL; l++)
            for (unsigned k = 0; k < 4; k++)
                w->quad[l][k] = (uint8_t)l;
    }
    /* Registers: temps not preloaded start at 0; outputs start at 0. The ALU
     * computes whole blocks of 8 lanes, compiled code (src/r500/jit) blocks
     * of 16 of the thread size: an input's lanes above the thread, up to the
     * thread size rounded up to 16, are cleared; written temps in every
     * lane, outputs up to clr; no one reads or writes the lanes above clr
     * (zero since the worker was allocated). */
    const size_t clr = (size_t)((job->thread_size + 15u) & ~15u) * sizeof(float);
    const bool dirty = w->seg.temps_dirty;
    w->seg.temps_dirty = 0;
    for (unsigned r = 0; r < p->temps_used;) {
        const bool input = job->inputs[r].kind != R500_INPUT_NONE;
        if (input) {
            /* written below in lanes 0..n-1 (every channel): only the lanes
             * above are cleared here */
            const size_t from = n * sizeof(float);
            if (from < clr)
                for (unsigned ch = 0; ch < 4; ch++)
                    memset((char *)w->temps[r][ch] + from, 0, clr - from);
            r++;
            continue;
        }
        /* a stretch of written temps without an input: every lane of them
         * in one call (the lanes above clr are zero anyway), unless nothing
         * wrote temps since they were last cleared (compiled code that keeps
         * them in registers and finishes the thread stores none); the others
         * are zero since the worker was allocated, as nothing writes them */
        unsigned e = r;
        while (e < p->temps_used && p->temp_written[e] &&
               job->inputs[e].kind == R500_INPUT_NONE)
            e++;
        if (e > r && dirty)
            zero_floats(&w->temps[r][0][0], (e - r) * 4 * (size_t)RL);
        r = e > r ? e : r + 1;
    }
    /* a render target no instruction writes has no result image and stays
     * 0 in every thread */
    for (unsigned tgt = 0; tgt < R500_NUM_TARGETS; tgt++)
        if (w->r->target[tgt]) {
            if (clr >= (RL * sizeof(float) * 3) / 4) /* the four channels in one call */
                memset(w->out[tgt], 0, 3 * sizeof w->out[tgt][0] + clr);
            else
                for (unsigned ch = 0; ch < 4; ch++)
                    memset(w->out[tgt][ch], 0, clr);
        }
    if (w->r->w)
        memset(w->outw, 0, clr);
    /* Inputs: temps preloaded before instruction 0 (mesa-capture.md §4);
     * u = ((float)x + 0.5f) / (float)W, v likewise, from the run's tables. */
    for (unsigned i = 0; i < w->ninputs; i++) {
        const unsigned r = w->input_temps[i];
        const r500_input *in = &job->inputs[r];
        r500_lanef *t = w->temps[r];
        switch (in->kind) {
        case R500_INPUT_NONE:
            break;
        case R500_INPUT_UV:
            if (one_row) {
                /* the same values as below: lanes 4j, 4j+2 are column
                 * px[4j], lanes 4j+1, 4j+3 column px[4j]+1; bit 1 of l
                 * picks the row */
                const float *u = w->ucol + w->px[0];
                const float va = w->vrow[w->py[0]], vb = w->vrow[w->py[2]];
                for (unsigned j = 0; j < n / 4; j++) {
                    const float ua = u[2 * j], ub = u[2 * j + 1];
                    t[0][4 * j] = ua, t[0][4 * j + 1] = ub;
                    t[0][4 * j + 2] = ua, t[0][4 * j + 3] = ub;
                    t[1][4 * j] = va, t[1][4 * j + 1] = va;
                    t[1][4 * j + 2] = vb, t[1][4 * j + 3] = vb;
                }
                for (unsigned l = 0; l < n; l++)
                    t[2][l] = 0.0f, t[3][l] = 1.0f;
                break;
            }
            for (unsigned l = 0; l < n; l++) {
                t[0][l] = w->ucol[w->px[l]];
                t[1][l] = w->vrow[w->py[l]];
                t[2][l] = 0.0f;
                t[3][l] = 1.0f;
            }
            break;
        case R500_INPUT_CLIP:
            for (unsigned l = 0; l < n; l++) {
                t[0][l] = 2.0f * w->ucol[w->px[l]] - 1.0f;
                t[1][l] = 2.0f * w->vrow[w->py[l]] - 1.0f;
                t[2][l] = 0.0f;
                t[3][l] = 1.0f;
            }
            break;
        case R500_INPUT_IMAGE:
            if (w->nruns && covered == all) {
                /* whole quads inside the image: the pixels of each quad row
                 * pair of each run, as quad_rows_rgba writes them (the same
                 * values as below) */
                for (unsigned i = 0; i < w->nruns; i++) {
                    const unsigned l0 = w->run_l0[i];
                    const float *ia = in->image + 4 * ((size_t)w->py[l0] * (size_t)W + (size_t)w->px[l0]);
                    const float *ib = in->image + 4 * ((size_t)w->py[l0 + 2] * (size_t)W + (size_t)w->px[l0 + 2]);
                    rows_quad_rgba(t, l0, ia, ib, w->run_nq[i]);
                }
                break;
            }
            for (unsigned l = 0; l < n; l++) {
                /* The image holds W×H pixels; an uncovered helper pixel
                 * (x = W or y = H) reads its nearest image pixel
                 * (docs/assumptions.md, Inputs) — never past the array. */
                size_t x = (size_t)(w->px[l] < W ? w->px[l] : W - 1);
                size_t y = (size_t)(w->py[l] < H ? w->py[l] : H - 1);
                const float *v = in->image + 4 * (y * (size_t)W + x);
                for (unsigned ch = 0; ch < 4; ch++)
                    t[ch][l] = v[ch];
            }
            break;
        default:
            for (unsigned l = 0; l < n; l++)
                for (unsigned ch = 0; ch < 4; ch++)
                    t[ch][l] = in->value[ch];
            break;
        }
    }
    r500_fc_thread_init(&w->fc, n, covered);
    const r500_observer *obs = w->obs;
    if (obs && obs->thread_begin)
        obs->thread_begin(obs->user, t, n, w->px, w->py, covered,
                          (const float(*)[4][RL])w->temps, p->temps_used);

    r500_alu_ctx *c = &w->alu;
    c->n = n;
    c->all = all;
    c->pred = w->fc.pred;
    c->alu_result = &w->fc.alu_result;
    c->quad = (const uint8_t(*)[4])w->quad;

    thread_state *ts = &w->ts;
    memset(ts, 0, sizeof *ts);
    ts->t = t;
    ts->n = n;
    ts->covered = covered;
    ts->watchdog = job->options.exec.watchdog;
    ts->limited = w->lim->max || w->lim->timed || w->lim->watchdog_stops;
    ts->work_mask = lanes_active(w) & covered;
    w->seg.nb = n;
    w->seg.input_guard = 0;
    unsigned pc = p->start;
    const bool compiled = w->segs && !w->trace && !w->obs;
    w->seg.first = 1; /* until compiled code or a step has run */
    while (pc <= p->end) {
        const r500_seg *sg = compiled ? &w->segs[pc] : NULL;
        if (sg && sg->fn && w->seg.input_guard != 2 && !(sg->counting && w->fc.cbits)) {
            /* compiled code (an engine's, e.g. src/r500/jit) from this slot:
             * it runs ALU/OUT runs itself and every other instruction
             * through step (r500_exec_seg_step); it returns where the
             * interpreter goes on (a slot it cannot enter, or one whose run
             * the watchdog or a limit check stops) */
            uint32_t np = sg->fn(&w->seg, pc);
            w->seg.first = 0;
            if (np == R500_SEG_STOP)
                break;
            if (np != pc) {
                pc = np;
                continue;
            }
        }
        w->seg.first = 0;
        if (!step(w, pc, &pc))
            break;
    }
    if (ts->stopped)
        return; /* a job-wide limit: the run has no result */
    const bool faulted = ts->faulted;
    const uint64_t issued = ts->issued;
    if (ts->limited)
        limits_check(w->lim, issued - ts->reported);
    flush_work(w, ts->work_mask, ts->work_count);
    w->st.lane_slots_issued += issued * n;
    w->st.thread_insts[t] = issued;
    if (faulted)
        w->st.faulted_threads++;

    /* Results: covered lanes only; killed pixels keep the clear colour. */
    r500_result *r = w->r;
    unsigned tl[R500_NUM_TARGETS], ntl = 0;
    for (unsigned tgt = 0; tgt < R500_NUM_TARGETS; tgt++)
        if (r->target[tgt])
            tl[ntl++] = tgt;
    const ls_lanes killed = w->fc.killed;
    /* The common case, whole quads from a quad boundary, every lane covered:
     * in each run of quads on one quad row (the thread's first quad row, the
     * next), lanes 4j, 4j+1 are the pixels x0 + 2j, x0 + 2j + 1 of one image
     * row, lanes 4j+2, 4j+3 of the other; copied row by row, the killed
     * lanes' pixels with the clear colour (the same values as the loop
     * below). */
    if (w->nruns && covered == all) {
        const ls_lanes k = killed & covered;
        for (unsigned ri = 0; ri < w->nruns; ri++) {
            const unsigned l0 = w->run_l0[ri], nq = w->run_nq[ri];
            const size_t pa = (size_t)w->py[l0] * (size_t)W + (size_t)w->px[l0];
            const size_t pb = (size_t)w->py[l0 + 2] * (size_t)W + (size_t)w->px[l0 + 2];
            if (k >> l0) {
                quad_rows_bits(r->killed + pa, r->killed + pb, k >> l0, nq);
            } else {
                memset(r->killed + pa, 0, 2 * nq);
                memset(r->killed + pb, 0, 2 * nq);
            }
            if (r->work)
                quad_rows_split(r->work + pa, r->work + pb, w->work + l0, nq);
            for (unsigned i = 0; i < ntl; i++)
                quad_rows_rgba(r->target[tl[i]] + pa * 4, r->target[tl[i]] + pb * 4,
                               w->out[tl[i]], l0, nq, k, job->clear);
            if (r->w)
                quad_rows_split(r->w + pa, r->w + pb, w->outw + l0, nq);
        }
        return;
    }
    LS_LANES_FOREACH(l, covered) {
        size_t pix = (size_t)w->py[l] * (size_t)W + (size_t)w->px[l];
        bool k = (killed >> l) & 1;
        r->killed[pix] = k;
        if (r->work)
            r->work[pix] = w->work[l];
        for (unsigned i = 0; i < ntl; i++) {
            float *dst = r->target[tl[i]] + pix * 4;
            if (k) {
                memcpy(dst, job->clear, 4 * sizeof(float));
            } else {
                const r500_lanef *o = w->out[tl[i]];
                dst[0] = o[0][l];
                dst[1] = o[1][l];
                dst[2] = o[2][l];
                dst[3] = o[3][l];
            }
        }
        if (r->w)
            r->w[pix] = w->outw[l];
    }
}

/* The next chunk of consecutive threads [*t0, *t1) for w; false: none left.
 * Guided: a quarter of the remaining threads' share per worker, between
 * chunk_min and chunk_max — long stretches of consecutive threads while
 * much is left (each worker reads and writes long runs of image rows: at
 * 2048², two workers, 0.8-0.9 of the CPU time of 1024-lane grabs), short
 * ones at the end so that the workers finish together. */
static bool grab_threads(worker *w, size_t *t0, size_t *t1)
{
    size_t t = atomic_load_explicit(w->next, memory_order_relaxed), c;
    do {
        if (t >= w->nthreads)
            return false;
        c = (w->nthreads - t) / (4 * (size_t)w->nw);
        c = c > w->chunk_max ? w->chunk_max : c < w->chunk_min ? w->chunk_min : c;
        if (c < 1)
            c = 1;
        if (c > w->nthreads - t)
            c = w->nthreads - t;
    } while (!atomic_compare_exchange_weak(w->next, &t, t + c));
    *t0 = t;
    *t1 = t + c;
    return true;
}

static void *worker_main(void *arg)
{
    worker *w = arg;
    w->alu.temps = w->temps;
    w->alu.csplat = (const r500_lanef(*)[4])w->p->csplat;
    w->alu.isplat = (const r500_lanef *)w->p->isplat;
    w->alu.out = w->out;
    w->alu.outw = w->outw;
    w->alu.zero_times_anything = (w->job->regs.us_config >> 1) & 1u;
    w->alu.opt = &w->job->options.exec;
    w->seg.temps = &w->temps[0][0][0];
    w->seg.out = &w->out[0][0][0];
    w->seg.outw = w->outw;
    w->seg.consts = &w->job->consts[0][0];
    w->seg.inl = &w->p->isplat[0][0];
    w->seg.pred = w->fc.pred;
    w->seg.alu_result = &w->fc.alu_result;
    w->seg.opt = &w->job->options.exec;
    w->seg.worker = w;
    w->seg.fc = &w->fc;
    w->seg.ts = &w->ts;
    w->seg.st = &w->st;
    /* each lane's count only for a work image (job->work_image) */
    w->seg.work = w->r->work ? w->work : NULL;
    w->seg.p = w->p;
    w->seg.fco = &w->job->options.fc;
    w->ninputs = 0;
    for (unsigned r = 0; r < R500_NUM_TEMPS; r++)
        if (w->job->inputs[r].kind != R500_INPUT_NONE)
            w->input_temps[w->ninputs++] = (uint8_t)r;
    w->lane_coords = w->obs != NULL;
    for (unsigned i = 0; i < w->ninputs; i++)
        if (w->job->inputs[w->input_temps[i]].kind == R500_INPUT_CLIP)
            w->lane_coords = true;
    /* Workers take chunks of consecutive threads from a shared counter: the
     * load stays balanced (escape-time loops vary a lot) and each worker
     * writes its own stretch of the images. Results do not depend on which
     * worker ran a thread. */
    for (;;) {
        if (atomic_load_explicit(&w->lim->stop, memory_order_relaxed) != STOP_NONE)
            break;
        size_t t0, t1;
        if (!grab_threads(w, &t0, &t1))
            break;
        /* a job-wide stop (limits) is seen between threads too: a chunk
         * may hold many */
        for (size_t t = t0;
             t < t1 && atomic_load_explicit(&w->lim->stop, memory_order_relaxed) == STOP_NONE; t++)
            run_thread(w, t);
        if (w->job->progress.report) { /* only what progress reports reads it */
            size_t done = atomic_fetch_add(w->done, t1 - t0) + (t1 - t0);
            if (w->reports)
                w->job->progress.report(w->job->progress.ctx, done, w->nthreads);
        }
    }
    return NULL;
}

void r500_result_free(r500_result *r)
{
    if (!r)
        return;
    for (unsigned i = 0; i < R500_NUM_TARGETS; i++)
        free(r->target[i]);
    free(r->w);
    free(r->killed);
    free(r->work);
    free(r->stats.thread_insts);
    free(r->faults);
    memset(r, 0, sizeof *r);
}

static int cmp_fault(const void *a, const void *b)
{
    const r500_fault *x = a, *y = b;
    return x->thread < y->thread ? -1 : x->thread > y->thread;
}

static void limits_init(run_limits *lim, const r500_exec_options *o)
{
    memset(lim, 0, sizeof *lim);
    lim->max = o->max_instructions;
    lim->watchdog_stops = o->watchdog_stops;
    atomic_init(&lim->issued, 0);
    atomic_init(&lim->stop, STOP_NONE);
    if (o->timeout > 0) {
        lim->timed = true;
        clock_gettime(CLOCK_MONOTONIC, &lim->deadline);
        double whole = (double)(long long)o->timeout;
        lim->deadline.tv_sec += (time_t)whole;
        lim->deadline.tv_nsec += (long)((o->timeout - whole) * 1e9);
        if (lim->deadline.tv_nsec >= 1000000000L) {
            lim->deadline.tv_sec++;
            lim->deadline.tv_nsec -= 1000000000L;
        }
    }
}

ls_status r500_interp_run(const r500_job *job, r500_result *r, ls_buf *trace, ls_diag *d)
{
    return r500_run_observed(job, r, trace, NULL, d);
}

ls_status r500_run_observed(const r500_job *job, r500_result *r, ls_buf *trace,
                            const r500_observer *obs, ls_diag *d)
{
    memset(r, 0, sizeof *r);
    ls_status st = r500_exec_check(job, d);
    if (st)
        return st;
    r500_prog p;
    st = r500_prog_build(job, &p, d);
    if (st)
        return st;
    st = r500_exec_run(job, &p, NULL, r, trace, obs, d);
    r500_prog_free(&p);
    return st;
}

ls_status r500_exec_check(const r500_job *job, ls_diag *d)
{
    if (job->width < 1 || job->height < 1 || job->width > 16384 || job->height > 16384)
        return ls_diag_set(d, LS_ERR_ARG, NULL, 0, 0, "image size %dx%d outside 1..16384",
                           job->width, job->height);
    if (job->thread_size < 1 || job->thread_size > R500_MAX_LANES)
        return ls_diag_set(d, LS_ERR_ARG, NULL, 0, 0, "thread size %u outside 1..64",
                           job->thread_size);
    for (unsigned t = 0; t < R500_NUM_TEMPS; t++)
        if (job->inputs[t].kind == R500_INPUT_IMAGE && !job->inputs[t].image)
            return ls_diag_set(d, LS_ERR_ARG, NULL, 0, 0, "temp %u: image input without an image", t);
    return LS_OK;
}

/* A result image of n bytes (r500_result_free frees it): *old when the job
 * recycles an earlier result's buffer (r500_job.recycle, of the same size:
 * it moves here), else a new one. Every covered lane of every thread writes
 * its pixel (run_thread), so neither needs clearing. */
static void *result_alloc(size_t n, void **old)
{
    if (old && *old) {
        void *p = *old;
        *old = NULL;
        return p;
    }
    /* result images of 2 MB or more in 2 MB pages (05_loop_uniform at 2048²,
     * 2 workers: 0.95 of the CPU time) */
    return ls_alloc_image(n);
}

ls_status r500_exec_run(const r500_job *job, const r500_prog *pp, const r500_seg *segs,
                        r500_result *r, ls_buf *trace, const r500_observer *obs, ls_diag *d)
{
    memset(r, 0, sizeof *r);
    const r500_prog p = *pp;
    size_t npix = (size_t)job->width * (size_t)job->height;
    unsigned qw = (unsigned)(job->width + 1) / 2, qh = (unsigned)(job->height + 1) / 2;
    size_t total = (size_t)qw * qh * 4;
    size_t nthreads = (total + job->thread_size - 1) / job->thread_size;
    r->width = job->width;
    r->height = job->height;
    /* Render target 0 always; B..D and W only when an instruction writes them. */
    bool writes[R500_NUM_TARGETS + 1] = {true, false, false, false, false};
    for (size_t i = 0; i < p.n; i++) {
        const r500_xinst *x = &p.x[i];
        if (x->type == R500_TYPE_OUT) {
            if (x->omask & 7)
                writes[x->target[0]] = true;
            if (x->omask & 8)
                writes[x->target[1]] = true;
        }
        if ((x->type == R500_TYPE_OUT || x->type == R500_TYPE_ALU) && x->w_omask)
            writes[R500_NUM_TARGETS] = true;
    }
    bool oom = false;
    r500_result *old = job->recycle;
    if (old && (old->width != job->width || old->height != job->height))
        old = NULL;
    for (unsigned i = 0; i < R500_NUM_TARGETS; i++)
        if (writes[i] && !(r->target[i] = result_alloc(npix * 4 * sizeof(float),
                                                       old ? (void **)&old->target[i] : NULL)))
            oom = true;
    if (writes[R500_NUM_TARGETS] &&
        !(r->w = result_alloc(npix * sizeof(float), old ? (void **)&old->w : NULL)))
        oom = true;
    r->killed = result_alloc(npix, old ? (void **)&old->killed : NULL);
    if (job->work_image &&
        !(r->work = result_alloc(npix * sizeof(uint32_t), old ? (void **)&old->work : NULL)))
        oom = true;
    r->stats.thread_insts = calloc(nthreads, sizeof(uint64_t));
    r->stats.nthreads = nthreads;
    unsigned nw = job->workers;
    if (nw == 0) {
        long c = sysconf(_SC_NPROCESSORS_ONLN);
        nw = c > 0 ? (unsigned)c : 1;
    }
    if (trace || obs)
        nw = 1; /* one ordered trace / observer */
    if (nw > nthreads)
        nw = (unsigned)nthreads;
    if (nw > 256)
        nw = 256;
    worker **ws = calloc(nw, sizeof *ws);
    run_limits lim;
    limits_init(&lim, &job->options.exec);
    /* the counters the workers share, each on its own cache line (the
     * struct's size is a multiple of its alignment) */
    struct {
        _Alignas(64) atomic_size_t next;
        _Alignas(64) atomic_size_t done;
    } sh;
    atomic_init(&sh.next, 0);
    atomic_init(&sh.done, 0);
    /* grab_threads' chunk sizes: 1024 to 65536 lanes, and the smallest one
     * at most an eighth of each worker's share (a small job of long threads
     * is still shared out) */
    size_t chunk_min = 1024 / job->thread_size, chunk_max = 65536 / job->thread_size;
    if (chunk_min > nthreads / (8 * (size_t)nw))
        chunk_min = nthreads / (8 * (size_t)nw);
    /* the inputs' coordinates per column and row (helper pixels reach x = W,
     * y = H), computed once */
    float *ucol = malloc(((size_t)job->width + 1) * sizeof *ucol);
    float *vrow = malloc(((size_t)job->height + 1) * sizeof *vrow);
    for (int x = 0; ucol && x <= job->width; x++)
        ucol[x] = ((float)x + 0.5f) / (float)job->width;
    for (int y = 0; vrow && y <= job->height; y++)
        vrow[y] = ((float)y + 0.5f) / (float)job->height;
    oom = oom || !r->killed || !r->stats.thread_insts || !ws || !ucol || !vrow;
    for (unsigned i = 0; !oom && i < nw; i++) {
        ws[i] = aligned_alloc(64, (sizeof(worker) + 63) & ~(size_t)63);
        if (!ws[i]) {
            oom = true;
            break;
        }
        memset(ws[i], 0, sizeof(worker));
        ws[i]->quad_key = -1;
        worker *w = ws[i];
        w->job = job;
        w->p = pp;
        w->segs = segs;
        w->r = r;
        w->trace = trace;
        w->obs = obs;
        w->next = &sh.next;
        w->done = &sh.done;
        w->reports = i == 0 && job->progress.report; /* ws[0] runs on this thread */
        w->nw = nw;
        w->chunk_min = chunk_min;
        w->chunk_max = chunk_max;
        w->nthreads = nthreads;
        w->total_lanes = total;
        w->qw = qw;
        w->ucol = ucol;
        w->vrow = vrow;
        w->st.thread_insts = r->stats.thread_insts;
        w->lim = &lim;
    }
    if (oom) {
        for (unsigned i = 0; ws && i < nw; i++)
            free(ws[i]);
        free(ws);
        free(ucol);
        free(vrow);
        r500_result_free(r);
        return ls_diag_set(d, LS_ERR_NOMEM, NULL, 0, 0, "out of memory for a %dx%d run",
                           job->width, job->height);
    }
    pthread_t *tids = calloc(nw, sizeof *tids);
    bool *started = calloc(nw, sizeof *started);
    for (unsigned i = 1; tids && started && i < nw; i++)
        started[i] = pthread_create(&tids[i], NULL, worker_main, ws[i]) == 0;
    worker_main(ws[0]);
    /* Progress while the other workers finish (only when they all started:
     * one that did not runs below, on this thread). */
    bool all_started = tids && started;
    for (unsigned i = 1; all_started && i < nw; i++)
        all_started = started[i];
    if (job->progress.report && all_started)
        while (atomic_load(&sh.done) < nthreads && atomic_load(&lim.stop) == STOP_NONE) {
            struct timespec nap = {0, 50 * 1000 * 1000};
            nanosleep(&nap, NULL);
            job->progress.report(job->progress.ctx, atomic_load(&sh.done), nthreads);
        }
    /* A worker that could not be started runs here, on this thread. */
    for (unsigned i = 1; i < nw; i++) {
        if (tids && started && started[i])
            pthread_join(tids[i], NULL);
        else
            worker_main(ws[i]);
    }
    free(tids);
    free(started);
    free(ucol);
    free(vrow);

    r500_stats *s = &r->stats;
    s->threads = nthreads;
    r500_fault *kept = malloc((size_t)nw * R500_FAULTS_KEPT * sizeof *kept);
    size_t nkept = 0;
    for (unsigned i = 0; i < nw; i++) {
        worker *w = ws[i];
        s->inst_alu += w->st.inst_alu;
        s->inst_out += w->st.inst_out;
        s->inst_tex += w->st.inst_tex;
        s->inst_fc += w->st.inst_fc;
        s->fc_jumps_taken += w->st.fc_jumps_taken;
        s->fc_jumps_not_taken += w->st.fc_jumps_not_taken;
        s->lane_slots_issued += w->st.lane_slots_issued;
        s->lane_slots_active += w->st.lane_slots_active;
        s->faulted_threads += w->st.faulted_threads;
        for (unsigned k = 0; k < R500_FAULT_KINDS; k++)
            r->fault_counts[k] += w->fault_counts[k];
        if (kept && w->nfaults) {
            memcpy(kept + nkept, w->faults, w->nfaults * sizeof *kept);
            nkept += w->nfaults;
        }
        free(w);
    }
    free(ws);
    int stop = atomic_load(&lim.stop);
    if (stop == STOP_NONE && job->progress.report)
        job->progress.report(job->progress.ctx, nthreads, nthreads);
    if (stop != STOP_NONE || !kept) {
        free(kept);
        r500_result_free(r);
        if (stop == STOP_NONE)
            return ls_diag_set(d, LS_ERR_NOMEM, NULL, 0, 0, "out of memory recording faults");
        if (stop == STOP_WATCHDOG) {
            *d = lim.watchdog; /* "watchdog: thread T issued N instructions ...", at its pc */
            return LS_ERR_FAULT;
        }
        if (stop == STOP_BUDGET)
            return ls_diag_set(d, LS_ERR_FAULT, NULL, 0, 0,
                               "instruction budget exhausted: the run issues more than %llu "
                               "instructions (max-instructions)",
                               (unsigned long long)job->options.exec.max_instructions);
        return ls_diag_set(d, LS_ERR_FAULT, NULL, 0, 0,
                           "timeout: the run took longer than %g s (timeout)",
                           job->options.exec.timeout);
    }
    /* the lowest threads' faults: each worker's are its lowest */
    if (nkept)
        qsort(kept, nkept, sizeof *kept, cmp_fault);
    r->nfaults = nkept < R500_FAULTS_KEPT ? nkept : R500_FAULTS_KEPT;
    if (r->nfaults) {
        r->faults = malloc(r->nfaults * sizeof *r->faults);
        if (!r->faults) {
            free(kept);
            r500_result_free(r);
            return ls_diag_set(d, LS_ERR_NOMEM, NULL, 0, 0, "out of memory recording faults");
        }
        memcpy(r->faults, kept, r->nfaults * sizeof *r->faults);
    }
    free(kept);
    return LS_OK;
}

double r500_stats_simd_efficiency(const r500_stats *s)
{
    return s->lane_slots_issued ? (double)s->lane_slots_active / (double)s->lane_slots_issued
                                : 0.0;
}

void r500_stats_write_json(const r500_stats *s, ls_buf *b)
{
    ls_buf_printf(b,
                  "{\n  \"instructions\": {\"alu\": %llu, \"out\": %llu, \"tex\": %llu, "
                  "\"fc\": %llu, \"total\": %llu},\n",
                  (unsigned long long)s->inst_alu, (unsigned long long)s->inst_out,
                  (unsigned long long)s->inst_tex, (unsigned long long)s->inst_fc,
                  (unsigned long long)(s->inst_alu + s->inst_out + s->inst_tex + s->inst_fc));
    ls_buf_printf(b, "  \"fc_jumps\": {\"taken\": %llu, \"not_taken\": %llu},\n",
                  (unsigned long long)s->fc_jumps_taken, (unsigned long long)s->fc_jumps_not_taken);
    ls_buf_printf(b,
                  "  \"lane_slots\": {\"issued\": %llu, \"active\": %llu},\n"
                  "  \"simd_efficiency\": ",
                  (unsigned long long)s->lane_slots_issued,
                  (unsigned long long)s->lane_slots_active);
    ls_json_write_double(b, r500_stats_simd_efficiency(s));
    ls_buf_printf(b, ",\n  \"threads\": %llu,\n  \"faulted_threads\": %llu,\n",
                  (unsigned long long)s->threads, (unsigned long long)s->faulted_threads);
    ls_buf_puts(b, "  \"thread_instructions\": [");
    for (size_t i = 0; i < s->nthreads; i++)
        ls_buf_printf(b, "%s%llu", i ? (i % 16 ? ", " : ",\n    ") : "",
                      (unsigned long long)s->thread_insts[i]);
    ls_buf_puts(b, "]\n}\n");
}
