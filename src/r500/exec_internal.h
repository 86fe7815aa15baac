/* Private to the R500 execution modules (alu.c, exec.c, job.c): the
 * pre-decoded program and the per-thread register file. */
#ifndef LOCKSTEP_R500_EXEC_INTERNAL_H
#define LOCKSTEP_R500_EXEC_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "base/lanes.h"
#include "lockstep/r500.h"
#include "lockstep/r500_fc.h"
#include "jit_hints.h"

#define RL R500_MAX_LANES /* lane stride of every register array */

typedef float r500_lanef[RL];

/* A source address of an ALU instruction (r500.md §1.3). */
enum { R500_XSRC_TEMP, R500_XSRC_CONST, R500_XSRC_INLINE };
typedef struct r500_xsrc {
    uint8_t kind, rel;
    uint16_t index; /* temp 0..127, const 0..255, inline code 0..127 */
} r500_xsrc;

/* One of the six ALU inputs (RGB A/B/C, alpha A/B/C): select, swizzle, modifier. */
typedef struct r500_xoperand {
    uint8_t sel;     /* 0..2 src0..2, 3 srcp */
    uint8_t swz[3];  /* RGB: per channel; alpha: swz[0] */
    uint8_t mod;     /* 0 NOP, 1 NEG, 2 ABS, 3 NAB */
} r500_xoperand;

/* A pre-decoded instruction. */
typedef struct r500_xinst {
    r500_inst in;        /* every field by value (for FC, TEX and tracing) */
    uint8_t type;        /* r500_inst_type */
    /* why this instruction cannot execute (reserved opcode...), "" if it can */
    char fault[96];
    /* ALU / OUT */
    r500_xsrc src[2][3]; /* [0] RGB_ADDR0..2, [1] ALPHA_ADDR0..2 */
    uint8_t srcp_op[2];
    bool need_srcp;
    r500_xoperand rgb[3], alpha[3]; /* A, B, C */
    uint8_t rgb_op, alpha_op;
    uint8_t omod[2], clamp[2];
    uint8_t wmask;        /* bits R,G,B,A */
    uint8_t addrd[2], addrd_rel[2];
    uint8_t omask;        /* bits R,G,B,A (OUT: render target channels; ALU: predicates) */
    uint8_t target[2];    /* RGB, alpha TARGET */
    uint8_t alu_wmask, res_sel, res_op;
    uint8_t pred_sel[2], pred_inv[2];
    uint8_t write_inactive, w_omask;
    uint8_t live;         /* bits R,G,B,A: channels whose result is used */
} r500_xinst;

/* The state of one thread's lanes that the ALU reads and writes. The lane
 * masks live in the FC thread; these point at them. */
typedef struct r500_alu_ctx {
    unsigned n;                         /* lanes in this thread */
    r500_lanef (*temps)[4];             /* [128][4] */
    const r500_lanef (*csplat)[4];      /* [256][4] constants, replicated per lane */
    const r500_lanef *isplat;           /* [128 + 3] inline floats, then 0, 0.5, 1 */
    r500_lanef (*out)[4];               /* [4 targets][4] */
    float *outw;
    bool zero_times_anything;           /* US_CONFIG bit 1 */
    const r500_exec_options *opt;
    int al;                             /* loop register aL */
    ls_lanes all;                       /* lanes of this thread */
    ls_lanes active;                    /* active and not stopped by a kill */
    ls_lanes alive;                     /* not stopped by a kill (for WRITE_INACTIVE) */
    ls_lanes *pred;                     /* [4] predicate bits R,G,B,A */
    ls_lanes *alu_result;
    const uint8_t (*quad)[4];           /* [lane][member 0 TL,1 TR,2 BL,3 BR] lane index */
    r500_lanef scratch[24];
} r500_alu_ctx;

#define R500_ISPLAT_ZERO 128
#define R500_ISPLAT_HALF 129
#define R500_ISPLAT_ONE 130
#define R500_ISPLAT_COUNT 131

/* Pre-decode one ALU/OUT instruction (fills the ALU part of x; x->in must be set). */
void r500_alu_predecode(r500_xinst *x);
/* Execute one ALU/OUT instruction over the thread. */
void r500_alu_exec(r500_alu_ctx *c, const r500_xinst *x);

/* Lane mask of channel ch (0..3) allowed by predication for unit (0 RGB, 1
 * alpha): §1.2 RGB_PRED_SEL / ALPHA_PRED_SEL: 0 none, 1 RGBA (per channel;
 * for alpha the same as AAAA), 2..5 RRRR, GGGG, BBBB, AAAA. Inline, so that
 * the JIT's run-time bitcode (jit/rt.c, TEXKILL) has it too. */
static inline ls_lanes r500_pred_mask(const ls_lanes pred[4], unsigned sel, unsigned inv,
                                      unsigned ch, ls_lanes all)
{
    ls_lanes m;
    if (sel == 0)
        return all;
    else if (sel == 1)
        m = pred[ch];
    else
        m = pred[(sel - 2) & 3];
    return (inv ? ~m : m) & all;
}
/* Compare v with 0 as TARGET / ALU_RESULT_OP do (0 ==, 1 <, 2 >=, 3 !=); denormals
 * compare as zero (CTM p.36). */
bool r500_cmp_zero(float v, unsigned op);
/* Single-value semantics of the scalar functions, shared with the tests. */
float r500_alu_omod(float v, unsigned omod, bool clamp, const r500_exec_options *o);
float r500_alu_transcendental(unsigned alpha_op, float a, const r500_exec_options *o);

/* ---- the pre-decoded program and the run (exec.c) ----------------------- */

/* A job's program, pre-decoded once per run. */
typedef struct r500_prog {
    r500_xinst *x;       /* one per instruction slot */
    r500_fc_inst *fc;    /* FC form of each slot (valid where type == FC) */
    size_t n;
    unsigned start, end; /* absolute slots */
    unsigned temps_used; /* temps 0..temps_used-1 are the ones named */
    /* temps an instruction may write (an aL-relative destination: all); the
     * others keep the zero of the worker's allocation or their input, so
     * only these (and the lanes of an input above the thread) are cleared
     * per thread */
    bool temp_written[R500_NUM_TEMPS];
    r500_lanef (*csplat)[4];
    r500_lanef *isplat;
    r500_fc_state fc_state;
} r500_prog;

ls_status r500_prog_build(const r500_job *job, r500_prog *p, ls_diag *d);
void r500_prog_free(r500_prog *p);

/* The issue state of the thread a worker runs (exec.c's step, and compiled
 * code through r500_seg_begin below). */
#define R500_LIMIT_CHECK 4096u /* job-wide limits are checked every this many instructions */
typedef struct r500_thread_state {
    size_t t;
    unsigned n;
    ls_lanes covered;
    uint64_t issued, watchdog;
    uint64_t reported; /* instructions already added to the job-wide count */
    bool limited, faulted, stopped;
    ls_lanes work_mask; /* lanes whose work count grows (active, covered) */
    uint32_t work_count;
} r500_thread_state;

/* What compiled code sees (one per worker). al, active and alive are those
 * of the current run of instructions (r500_seg_begin sets them; ALU/OUT
 * instructions do not change them). */
typedef struct r500_seg_ctx {
    float *temps;               /* [128][4][RL] */
    float *out;                 /* [4 targets][4][RL] */
    float *outw;                /* [RL] */
    const float *consts;        /* [256][4] (the job's) */
    const float *inl;           /* r500_prog.isplat: [131][RL], inline floats then 0, 0.5, 1 */
    ls_lanes *pred;             /* [4] */
    ls_lanes *alu_result;
    ls_lanes active, alive;     /* as r500_alu_ctx */
    int32_t al;
    uint32_t nb;                /* lanes in the thread */
    const r500_exec_options *opt;
    void *worker;               /* the interpreter's (for r500_exec_*) */
    r500_fc_thread *fc;         /* the thread's FC state (the worker's) */
    r500_thread_state *ts;      /* the thread's issue state (the worker's) */
    r500_stats *st;             /* the worker's counts */
    uint32_t *work;             /* [RL] the thread's per-lane work counts (the worker's) */
    const r500_prog *p;
    const r500_fc_options *fco; /* the job's FC options */
    /* 1: something wrote temps since run_thread last cleared them (an
     * interpreter step, compiled code storing its register temps or running
     * with every temp in memory); run_thread clears the written temps of
     * the next thread only then */
    uint32_t temps_dirty;
    /* the thread's inputs as compiled code's guard found them (0 not yet
     * checked, 1 clean, 2 not: compiled code is not entered again in the
     * thread); run_thread sets 0 per thread (src/r500/jit emit_guard) */
    uint32_t input_guard;
    /* 1: compiled code is entered at the thread's first instruction with
     * the temps as run_thread prepared them (every temp without an input
     * 0); run_thread sets it for its first call only */
    uint32_t first;
    /* compiled code's local copy only (src/r500/jit/rt.c): the thread's
     * issued count when the copy last took it, from which leaving derives
     * the ALU count of the compiled runs */
    uint64_t issued_base;
} r500_seg_ctx;

/* Lanes not stopped by a kill, and lanes active and not stopped (exec.c). */
static inline ls_lanes r500_lanes_alive(const r500_fc_thread *fc, const r500_exec_options *o)
{
    return o->kill == R500_KILL_STOP ? fc->lanes & ~fc->killed : fc->lanes;
}

static inline ls_lanes r500_lanes_active(const r500_fc_thread *fc, const r500_exec_options *o)
{
    return fc->active & r500_lanes_alive(fc, o);
}

/* Add count to the work of every lane in mask (work NULL: no work image,
 * r500_job.work_image); the active lane-slots that adds, for the caller's
 * counts (exec.c's and compiled code's). */
static inline uint64_t r500_flush_work(uint32_t *work, ls_lanes mask, uint32_t count)
{
    if (!count)
        return 0;
    const uint64_t slots = (uint64_t)ls_lanes_count(mask) * count;
    if (!work)
        return slots;
#if defined(R500_JIT_BITCODE)
    /* In the JIT's run-time bitcode, inlined into every run's accounting
     * (where the active lanes may change): every lane, adding 0 outside the
     * mask, 16 lanes per vector instruction and no branch, so that the
     * compiled code neither loops nor calls here (a call would take every
     * vector register from it) */
    R500_JIT_VECTORISE_16
    for (unsigned l = 0; l < R500_MAX_LANES; l++)
        work[l] += count & (0u - (uint32_t)((mask >> l) & 1));
    return slots;
#endif
    if ((mask & (mask + 1)) == 0) {
        /* lanes 0..k-1 (the common case): one loop the compiler vectorises */
        for (unsigned l = 0, k = (unsigned)ls_lanes_count(mask); l < k; l++)
            work[l] += count;
        return slots;
    }
    if (ls_lanes_count(mask) > 8) {
        /* many lanes: every lane, adding 0 outside the mask (vectorised) */
        for (unsigned l = 0; l < R500_MAX_LANES; l++)
            work[l] += count & (0u - (uint32_t)((mask >> l) & 1));
        return slots;
    }
    LS_LANES_FOREACH(l, mask)
        work[l] += count;
    return slots;
}

/* Issue accounting of count instructions under the thread's current active
 * mask: the active mask changes only at FC instructions and kills, so work
 * and active lane-slots are added once per stretch with one mask. */
static inline void r500_account(r500_seg_ctx *c, uint32_t count)
{
    r500_thread_state *ts = c->ts;
    ls_lanes act = r500_lanes_active(c->fc, c->opt) & ts->covered;
    if (__builtin_expect(act != ts->work_mask, 0)) {
        c->st->lane_slots_active += r500_flush_work(c->work, ts->work_mask, ts->work_count);
        ts->work_mask = act;
        ts->work_count = 0;
    }
    ts->work_count += count;
    ts->issued += count;
}

/* The issue of a run of len instructions about to be executed by compiled
 * code: the issue accounting of len single steps (only the last may change
 * the active mask), and c's al/active/alive for it. false: the run may not
 * be taken here (the watchdog or a job-wide limit check falls inside it);
 * the interpreter steps. Shared by exec.c (r500_seg_begin) and the JIT's
 * compiled code (src/r500/jit/rt.c, inlined), which derives its ALU and FC
 * counts when it leaves. */
static inline bool r500_seg_issue(r500_seg_ctx *c, uint32_t len)
{
    r500_thread_state *ts = c->ts;
    if (ts->watchdog - ts->issued < len ||
        (ts->limited && ts->issued - ts->reported + len > R500_LIMIT_CHECK))
        return false;
    r500_account(c, len);
    c->al = c->fc->aL;
    c->active = r500_lanes_active(c->fc, c->opt);
    c->alive = r500_lanes_alive(c->fc, c->opt);
    return true;
}

/* r500_seg_issue and the run's counts: n_alu ALU, n_out OUT, n_fc FC
 * instructions (ALU/OUT first, at most one FC or TEXKILL, last — a TEXKILL's
 * TEX count is added by whoever applies it). */
static inline bool r500_seg_begin(r500_seg_ctx *c, uint32_t len, uint32_t n_alu, uint32_t n_out,
                                  uint32_t n_fc)
{
    if (!r500_seg_issue(c, len))
        return false;
    c->st->inst_alu += n_alu;
    c->st->inst_out += n_out;
    c->st->inst_fc += n_fc;
    return true;
}

/* TEXKILL (spec/r500.md §4.8; us_tex_inst.txt: "kill pixel if any component
 * is < 0"; whether -0.0 counts is model option texkill-zero,
 * docs/assumptions.md): the lanes 0..n-1 whose coordinates v[0..3] (after
 * the source swizzle) kill, and the kill itself — of the active lanes its
 * predicate (RGB_PRED_SEL/INV, as channel R) selects. Shared by exec.c's
 * tex_exec and the JIT (its compiled code compares with r500_texkill_lo and
 * _span; src/r500/jit/rt.c applies the kill).
 *
 * As IEEE single bits, "< 0" is 0x80000001 (the smallest negative denormal)
 * ..0xff800000 (-inf): not -0.0 (0x80000000) and no NaN; with
 * texkill-zero=kill the range starts at -0.0. A value with bits u is below
 * zero when u - lo <= span (unsigned): one compare, no branch. The JIT
 * emits this compare with these two constants (src/r500/jit/jit.c,
 * emit_texkill). */
static inline uint32_t r500_texkill_lo(const r500_exec_options *o)
{
    return 0x80000001u - (o->texkill_zero == R500_TEXKILL_ZERO_KILL);
}

static inline uint32_t r500_texkill_span(const r500_exec_options *o)
{
    return 0xff800000u - r500_texkill_lo(o);
}

static inline ls_lanes r500_texkill_lanes(const float *const v[4], unsigned n,
                                          const r500_exec_options *o)
{
    const uint32_t lo = r500_texkill_lo(o), span = r500_texkill_span(o);
    ls_lanes kill = 0;
    for (unsigned l = 0; l < n; l++) {
        uint32_t a = 0;
        for (unsigned k = 0; k < 4; k++) {
            uint32_t u;
            memcpy(&u, &v[k][l], sizeof u);
            a |= (uint32_t)(u - lo <= span);
        }
        kill |= (ls_lanes)a << l;
    }
    return kill;
}

static inline void r500_texkill_apply(r500_fc_thread *fc, ls_lanes kill, ls_lanes active,
                                      unsigned pred_sel, unsigned pred_inv)
{
    fc->killed |= kill & active & r500_pred_mask(fc->pred, pred_sel, pred_inv, 0, fc->lanes);
}

/* A thread's FC state as compiled code keeps it (src/r500/jit/rt.c): t, a
 * copy of the fields before cplane, which LLVM keeps in registers, and mem,
 * the worker's thread, whose counter planes and stacks fc.c uses there
 * (fc.c's R500_FC_STK). */
typedef struct r500_jit_fc {
    r500_fc_thread t;
    r500_fc_thread *mem;
} r500_jit_fc;

/* A fault of kind at slot pc, described by d, for the thread (as step
 * records it): the thread stops. */
void r500_exec_seg_fault(r500_seg_ctx *c, uint32_t pc, r500_fault_kind kind, const ls_diag *d);

/* Compiled code for a program, entered at a slot: fn(c, slot) executes the
 * thread from that slot exactly as the interpreter would — runs of
 * instructions itself (each announced with r500_seg_begin), every other
 * instruction through r500_exec_seg_step — and returns the slot where the
 * interpreter goes on (one it cannot enter, or whose run r500_seg_begin
 * refused), or R500_SEG_STOP when the thread stopped (a fault, the watchdog, a
 * job-wide limit). The differential test holds engines to it. */
#define R500_SEG_STOP 0xffffffffu
typedef struct r500_seg {
    uint32_t (*fn)(r500_seg_ctx *c, uint32_t slot);
    /* fn does not take the run at this slot while a counter of the thread
     * is non-zero (r500_fc_thread.cbits): its FC instruction counts branch
     * counters (src/r500/jit/rt.c, r500_jit_rt_begin); run_thread steps it
     * then without entering */
    bool counting;
} r500_seg;

/* r500_seg_begin for ALU/OUT runs (n_alu ALU, the rest OUT). */
bool r500_exec_seg_begin(r500_seg_ctx *c, uint32_t len, uint32_t n_alu);
/* Issue the instruction at slot with the interpreter (exactly its step):
 * the next slot, or R500_SEG_STOP when the thread stops. */
uint32_t r500_exec_seg_step(r500_seg_ctx *c, uint32_t slot);

/* Check a job's size, thread size and inputs. */
ls_status r500_exec_check(const r500_job *job, ls_diag *d);
/* Run a built program; segs (indexed by slot, may be NULL) is compiled code
 * entered where fn is set (not when tracing or observing: obs, may be NULL,
 * sees every issued instruction). */
ls_status r500_exec_run(const r500_job *job, const r500_prog *p, const r500_seg *segs,
                        r500_result *r, ls_buf *trace, const r500_observer *obs, ls_diag *d);
/* The interpreter engine: r500_run with engine interp. */
ls_status r500_interp_run(const r500_job *job, r500_result *r, ls_buf *trace, ls_diag *d);

/* The texture unit seam (tex.c): free a texture (files are loaded through
 * the job's texture_loader, include/lockstep/r500.h). */
void r500_exec_texture_free(struct r500_texture *t);

#endif
