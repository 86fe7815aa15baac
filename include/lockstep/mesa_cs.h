/* Radeon R300/R500 command-stream decoder (issue: Mesa r300 harness).
 *
 * Walks the PM4 packets of an indirect buffer (type-0 register writes,
 * type-1 register pairs, type-2 fillers, type-3 commands), tracks every
 * register written, the fragment-shader instruction memory and constants
 * uploaded through GA_US_VECTOR_INDEX/DATA, and takes a snapshot of that
 * state at each draw packet. A snapshot is turned into a lockstep R500 job in
 * the format of corpus/mesa-r300/out/ * /program.json (docs/mesa.md). */
#ifndef LOCKSTEP_MESA_CS_H
#define LOCKSTEP_MESA_CS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lockstep/buf.h"
#include "lockstep/status.h"

#ifdef __cplusplus
extern "C" {
#endif

struct ls_buf;

#define MESA_CS_NREGS 0x4000 /* register file: dword index (byte address / 4) */

typedef struct mesa_cs_state {
    uint32_t reg[MESA_CS_NREGS];
    uint8_t written[MESA_CS_NREGS];
    uint32_t us_inst[512][6];
    bool us_inst_set[512];
    uint32_t us_const[256][4];
    bool us_const_set[256];
} mesa_cs_state;

typedef struct mesa_cs_draw {
    size_t ib_dword;         /* index of the draw packet's header */
    uint8_t opcode;          /* type-3 opcode */
    mesa_cs_state state;     /* registers, instructions and constants at the draw */
} mesa_cs_draw;

typedef struct mesa_cs {
    mesa_cs_draw *draws;
    size_t ndraws;
} mesa_cs;

/* Decode little-endian dwords. Malformed packets (a count running past the
 * end, an unknown packet type) give LS_ERR_PARSE naming the dword offset. */
ls_status mesa_cs_decode(const char *name, const uint32_t *dw, size_t n, mesa_cs *out,
                         ls_diag *d);
void mesa_cs_free(mesa_cs *cs);
/* The same from a file's bytes (little-endian dwords): a length that is not
 * a whole number of dwords is LS_ERR_PARSE at the first incomplete byte. */
ls_status mesa_cs_decode_bytes(const char *name, const void *bytes, size_t len, mesa_cs *out,
                               ls_diag *d);

/* Name of a register the decoder knows (byte address), or NULL. */
const char *mesa_cs_reg_name(uint32_t addr);
/* The reverse: byte address of a register name the decoder knows (including
 * US_FC_INT_CONST_0..31). Returns false for any other name. */
bool mesa_cs_reg_addr(const char *name, uint32_t *addr);
/* Name of a type-3 opcode, or NULL. */
const char *mesa_cs_packet3_name(uint8_t op);

/* The draw as a JSON job (program.json format: us_code_start/end, us_inst,
 * us_const, fc_ctrl, fc_bool_const, regs, rs, plus "inputs": which temp holds
 * which interpolated input). draw_index is its 0-based number. */
void mesa_cs_job_json(const mesa_cs_draw *dr, size_t draw_index, struct ls_buf *out);
/* `lockstep mesa decode`'s output: draw `which` (0-based; -1: the last) as a
 * job, or with MESA_CS_ALL every draw as a JSON list
 * (docs/schemas/mesa-decode.schema.json). A stream without draws, or a draw
 * number past its end, is an error naming the stream. */
enum { MESA_CS_ALL = -2 };
ls_status mesa_cs_jobs_json(const mesa_cs *cs, const char *name, long which, struct ls_buf *out,
                            ls_diag *d);

struct r500_job;
/* The inputs of the draw's fragment program from its RS set-up
 * (mesa-capture.md §4): every RS_INST_n with TEX_CN_WRITE preloads temp
 * TEX_ADDR with a texcoord, fed as R500_INPUT_UV (the default vertex shader's
 * uv); when fragcoord is set (the shader reads gl_FragCoord), the last one is
 * r300's WPOS texcoord and gets the clip-space position (R500_INPUT_CLIP).
 * Returns the WPOS temp, or -1. */
int mesa_cs_set_inputs(const mesa_cs_draw *dr, bool fragcoord, struct r500_job *job);

/* The temps the draw's RS set-up preloads, in RS instruction order: tex[k]
 * receives texcoord input k (r300 orders them generics, fog, WPOS), col[k]
 * colour input k (RS_INST_n: TEX_CN_WRITE bit 4 / TEX_ADDR 11:5, COL_CN_WRITE
 * bits 17:16 = 1 / COL_ADDR 24:18). */
typedef struct mesa_cs_rs_map {
    int tex[16], ntex;
    int col[16], ncol;
} mesa_cs_rs_map;
void mesa_cs_rs_map_of(const mesa_cs_draw *dr, mesa_cs_rs_map *m);

#ifdef __cplusplus
}
#endif
#endif
