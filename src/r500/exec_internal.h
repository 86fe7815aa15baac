/* Private to the R500 execution modules (alu.c, exec.c, job.c): the
 * pre-decoded program and the per-thread register file. */
#ifndef LOCKSTEP_R500_EXEC_INTERNAL_H
#define LOCKSTEP_R500_EXEC_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "base/lanes.h"
#include "lockstep/r500.h"

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

/* Lane mask of channel ch (0..3) allowed by predication for unit (0 RGB, 1 alpha). */
ls_lanes r500_pred_mask(const ls_lanes pred[4], unsigned sel, unsigned inv, unsigned ch,
                        ls_lanes all);
/* Compare v with 0 as TARGET / ALU_RESULT_OP do (0 ==, 1 <, 2 >=, 3 !=); denormals
 * compare as zero (CTM p.36). */
bool r500_cmp_zero(float v, unsigned op);
/* Single-value semantics of the scalar functions, shared with the tests. */
float r500_alu_omod(float v, unsigned omod, bool clamp, const r500_exec_options *o);
float r500_alu_transcendental(unsigned alpha_op, float a, const r500_exec_options *o);

/* The texture unit seam (tex.c): free a texture (files are loaded through
 * the job's texture_loader, include/lockstep/r500.h). */
void r500_exec_texture_free(struct r500_texture *t);

#endif
