/* R500 programmable vertex shader (VAP "PVS"): instruction words, assembler,
 * disassembler and executor. Manual: docs/r500-vs.md.
 *
 * An instruction is 4 dwords (buhman/r500 regs/pvs_bits/ files, transcribed
 * from AMD's R5xx register documentation; Mesa r300_reg.h PVS_* defines):
 *   dword 0  PVS opcode and destination operand
 *   dword 1  PVS source operand 0
 *   dword 2  PVS source operand 1
 *   dword 3  PVS source operand 2, or — when dword 0 has PVS_DST_DUAL_MATH_OP
 *            set — the "dual math instruction": a math-engine operation with
 *            its own source and alt-temp destination, issued beside the
 *            vector-engine operation of dword 0.
 * One field table (R500_PVS_FIELDS) drives decoder, encoder, assembler,
 * disassembler and the unclaimed-bits check, as R500_FIELDS does for the
 * fragment unit. */
#ifndef LOCKSTEP_R500_PVS_H
#define LOCKSTEP_R500_PVS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lockstep/buf.h"
#include "lockstep/r500.h"
#include "lockstep/status.h"

#ifdef __cplusplus
extern "C" {
#endif

#define R500_PVS_INST_WORDS 4
/* VAP_PVS_CODE_CNTL_0 PVS_LAST_INST is 10 bits (regs/bits/vap_pvs_code_cntl_0.txt):
 * up to 1024 instruction slots. */
#define R500_PVS_MAX_INSTS 1024
#define R500_PVS_NUM_CONSTS 256 /* PVS_SRC_OFFSET is 8 bits; R500 has 256 VS constants */

/* The layout of dword 3, chosen by PVS_DST_DUAL_MATH_OP (dword 0 bit 28). */
typedef enum r500_pvs_form {
    R500_PVS_FORM_NORMAL = 0, /* dword 3 = source operand 2 */
    R500_PVS_FORM_DUAL = 1,   /* dword 3 = dual math instruction */
} r500_pvs_form;
#define R500_PVS_T_NORMAL 1u
#define R500_PVS_T_DUAL 2u
#define R500_PVS_T_ALL 3u

/* Value-name tables (index = value; NULL = reserved). Names are the register
 * documentation's (pvs_opcode_and_destination_operand_bits.txt,
 * pvs_source_operand_bits.txt). */
#define R500_PVS_VALUE_TABLES(V)                                                              \
    V(VE_OP, "VECTOR_NO_OP", "VE_DOT_PRODUCT", "VE_MULTIPLY", "VE_ADD", "VE_MULTIPLY_ADD",    \
      "VE_DISTANCE_VECTOR", "VE_FRACTION", "VE_MAXIMUM", "VE_MINIMUM",                        \
      "VE_SET_GREATER_THAN_EQUAL", "VE_SET_LESS_THAN", "VE_MULTIPLYX2_ADD",                   \
      "VE_MULTIPLY_CLAMP", "VE_FLT2FIX_DX", "VE_FLT2FIX_DX_RND", "VE_PRED_SET_EQ_PUSH",       \
      "VE_PRED_SET_GT_PUSH", "VE_PRED_SET_GTE_PUSH", "VE_PRED_SET_NEQ_PUSH",                  \
      "VE_COND_WRITE_EQ", "VE_COND_WRITE_GT", "VE_COND_WRITE_GTE", "VE_COND_WRITE_NEQ",       \
      "VE_COND_MUX_EQ", "VE_COND_MUX_GT", "VE_COND_MUX_GTE", "VE_SET_GREATER_THAN",           \
      "VE_SET_EQUAL", "VE_SET_NOT_EQUAL")                                                     \
    V(ME_OP, "MATH_NO_OP", "ME_EXP_BASE2_DX", "ME_LOG_BASE2_DX", "ME_EXP_BASEE_FF",          \
      "ME_LIGHT_COEFF_DX", "ME_POWER_FUNC_FF", "ME_RECIP_DX", "ME_RECIP_FF",                  \
      "ME_RECIP_SQRT_DX", "ME_RECIP_SQRT_FF", "ME_MULTIPLY", "ME_EXP_BASE2_FULL_DX",          \
      "ME_LOG_BASE2_FULL_DX", "ME_POWER_FUNC_FF_CLAMP_B", "ME_POWER_FUNC_FF_CLAMP_B1",        \
      "ME_POWER_FUNC_FF_CLAMP_01", "ME_SIN", "ME_COS", "ME_LOG_BASE2_IEEE", "ME_RECIP_IEEE",  \
      "ME_RECIP_SQRT_IEEE", "ME_PRED_SET_EQ", "ME_PRED_SET_GT", "ME_PRED_SET_GTE",           \
      "ME_PRED_SET_NEQ", "ME_PRED_SET_CLR", "ME_PRED_SET_INV", "ME_PRED_SET_POP",             \
      "ME_PRED_SET_RESTORE")                                                                  \
    V(MACRO_OP, "MACRO_OP_2CLK_MADD", "MACRO_OP_2CLK_M2X_ADD")                                \
    V(DST_REG, "temp", "a0", "out", "out_repl_x", "alt_temp", "input")                        \
    V(SRC_REG, "temp", "input", "const", "alt_temp")                                          \
    V(SWZ, "x", "y", "z", "w", "0", "1", "h", "_")                                            \
    V(CHAN, "x", "y", "z", "w")

typedef enum r500_pvs_values {
    R500_PVS_V_NONE = 0,
#define R500_PVS_V_ENUM_(name, ...) R500_PVS_V_##name,
    R500_PVS_VALUE_TABLES(R500_PVS_V_ENUM_)
#undef R500_PVS_V_ENUM_
    R500_PVS_V_COUNT
} r500_pvs_values;

/* The field table: F(ID, word, lo bit, width, forms, values, "DOC_NAME").
 * Sources: buhman/r500 regs/pvs_bits/pvs_opcode_and_destination_operand.txt,
 * pvs_source_operand.txt, pvs_dual_math_instruction.txt (AMD R5xx register
 * docs as transcribed); the same shifts are Mesa r300_reg.h's PVS_DST_* /
 * PVS_SRC_* defines. Source operand bit 2 is "SPARE_0" in the docs: no field
 * claims it, so a set bit is kept and reported. Note the two ADDR_MODE halves:
 * destination MODE_1 is bit 12 and MODE_0 bit 31; sources have MODE_0 at 4
 * and MODE_1 at 31 (as documented). */
#define R500_PVS_SRC_FIELDS_(F, n, w, forms)                                                  \
    F(S##n##_REG_TYPE, w, 0, 2, forms, SRC_REG, "PVS_SRC_REG_TYPE")                           \
    F(S##n##_ABS, w, 3, 1, forms, NONE, "PVS_SRC_ABS_XYZW")                                   \
    F(S##n##_ADDR_MODE_0, w, 4, 1, forms, NONE, "PVS_SRC_ADDR_MODE_0")                        \
    F(S##n##_OFFSET, w, 5, 8, forms, NONE, "PVS_SRC_OFFSET")                                  \
    F(S##n##_SWIZZLE_X, w, 13, 3, forms, SWZ, "PVS_SRC_SWIZZLE_X")                            \
    F(S##n##_SWIZZLE_Y, w, 16, 3, forms, SWZ, "PVS_SRC_SWIZZLE_Y")                            \
    F(S##n##_SWIZZLE_Z, w, 19, 3, forms, SWZ, "PVS_SRC_SWIZZLE_Z")                            \
    F(S##n##_SWIZZLE_W, w, 22, 3, forms, SWZ, "PVS_SRC_SWIZZLE_W")                            \
    F(S##n##_MODIFIER_X, w, 25, 1, forms, NONE, "PVS_SRC_MODIFIER_X")                         \
    F(S##n##_MODIFIER_Y, w, 26, 1, forms, NONE, "PVS_SRC_MODIFIER_Y")                         \
    F(S##n##_MODIFIER_Z, w, 27, 1, forms, NONE, "PVS_SRC_MODIFIER_Z")                         \
    F(S##n##_MODIFIER_W, w, 28, 1, forms, NONE, "PVS_SRC_MODIFIER_W")                         \
    F(S##n##_ADDR_SEL, w, 29, 2, forms, CHAN, "PVS_SRC_ADDR_SEL")                             \
    F(S##n##_ADDR_MODE_1, w, 31, 1, forms, NONE, "PVS_SRC_ADDR_MODE_1")

#define R500_PVS_FIELDS(F)                                                                    \
    /* dword 0: opcode and destination operand */                                            \
    F(OPCODE, 0, 0, 6, R500_PVS_T_ALL, NONE, "PVS_DST_OPCODE")                                \
    F(MATH_INST, 0, 6, 1, R500_PVS_T_ALL, NONE, "PVS_DST_MATH_INST")                          \
    F(MACRO_INST, 0, 7, 1, R500_PVS_T_ALL, NONE, "PVS_DST_MACRO_INST")                        \
    F(DST_REG_TYPE, 0, 8, 4, R500_PVS_T_ALL, DST_REG, "PVS_DST_REG_TYPE")                     \
    F(DST_ADDR_MODE_1, 0, 12, 1, R500_PVS_T_ALL, NONE, "PVS_DST_ADDR_MODE_1")                 \
    F(DST_OFFSET, 0, 13, 7, R500_PVS_T_ALL, NONE, "PVS_DST_OFFSET")                           \
    F(DST_WE_X, 0, 20, 1, R500_PVS_T_ALL, NONE, "PVS_DST_WE_X")                               \
    F(DST_WE_Y, 0, 21, 1, R500_PVS_T_ALL, NONE, "PVS_DST_WE_Y")                               \
    F(DST_WE_Z, 0, 22, 1, R500_PVS_T_ALL, NONE, "PVS_DST_WE_Z")                               \
    F(DST_WE_W, 0, 23, 1, R500_PVS_T_ALL, NONE, "PVS_DST_WE_W")                               \
    F(VE_SAT, 0, 24, 1, R500_PVS_T_ALL, NONE, "PVS_DST_VE_SAT")                               \
    F(ME_SAT, 0, 25, 1, R500_PVS_T_ALL, NONE, "PVS_DST_ME_SAT")                               \
    F(PRED_ENABLE, 0, 26, 1, R500_PVS_T_ALL, NONE, "PVS_DST_PRED_ENABLE")                     \
    F(PRED_SENSE, 0, 27, 1, R500_PVS_T_ALL, NONE, "PVS_DST_PRED_SENSE")                       \
    F(DUAL_MATH_OP, 0, 28, 1, R500_PVS_T_ALL, NONE, "PVS_DST_DUAL_MATH_OP")                   \
    F(DST_ADDR_SEL, 0, 29, 2, R500_PVS_T_ALL, CHAN, "PVS_DST_ADDR_SEL")                       \
    F(DST_ADDR_MODE_0, 0, 31, 1, R500_PVS_T_ALL, NONE, "PVS_DST_ADDR_MODE_0")                 \
    /* dwords 1, 2: source operands 0 and 1 */                                               \
    R500_PVS_SRC_FIELDS_(F, 0, 1, R500_PVS_T_ALL)                                             \
    R500_PVS_SRC_FIELDS_(F, 1, 2, R500_PVS_T_ALL)                                             \
    /* dword 3: source operand 2 (normal form) */                                            \
    R500_PVS_SRC_FIELDS_(F, 2, 3, R500_PVS_T_NORMAL)                                          \
    /* dword 3: dual math instruction (pvs_dual_math_instruction.txt) */                      \
    F(DM_SRC_REG_TYPE, 3, 0, 2, R500_PVS_T_DUAL, SRC_REG, "PVS_SRC_REG_TYPE")                 \
    F(DM_OPCODE_MSB, 3, 2, 1, R500_PVS_T_DUAL, NONE, "PVS_DST_OPCODE_MSB")                    \
    F(DM_SRC_ABS, 3, 3, 1, R500_PVS_T_DUAL, NONE, "PVS_SRC_ABS_XYZW")                         \
    F(DM_SRC_ADDR_MODE_0, 3, 4, 1, R500_PVS_T_DUAL, NONE, "PVS_SRC_ADDR_MODE_0")              \
    F(DM_SRC_OFFSET, 3, 5, 8, R500_PVS_T_DUAL, NONE, "PVS_SRC_OFFSET")                        \
    F(DM_SRC_SWIZZLE_X, 3, 13, 3, R500_PVS_T_DUAL, SWZ, "PVS_SRC_SWIZZLE_X")                  \
    F(DM_SRC_SWIZZLE_Y, 3, 16, 3, R500_PVS_T_DUAL, SWZ, "PVS_SRC_SWIZZLE_Y")                  \
    F(DM_DST_OFFSET, 3, 19, 2, R500_PVS_T_DUAL, NONE, "DUAL_MATH_DST_OFFSET")                 \
    F(DM_OPCODE, 3, 21, 4, R500_PVS_T_DUAL, NONE, "PVS_DST_OPCODE")                           \
    F(DM_SRC_MODIFIER_X, 3, 25, 1, R500_PVS_T_DUAL, NONE, "PVS_SRC_MODIFIER_X")               \
    F(DM_SRC_MODIFIER_Y, 3, 26, 1, R500_PVS_T_DUAL, NONE, "PVS_SRC_MODIFIER_Y")               \
    F(DM_DST_WE_SEL, 3, 27, 2, R500_PVS_T_DUAL, CHAN, "PVS_DST_WE_SEL")                       \
    F(DM_SRC_ADDR_SEL, 3, 29, 2, R500_PVS_T_DUAL, CHAN, "PVS_SRC_ADDR_SEL")                   \
    F(DM_SRC_ADDR_MODE_1, 3, 31, 1, R500_PVS_T_DUAL, NONE, "PVS_SRC_ADDR_MODE_1")

typedef enum r500_pvs_field_id {
#define R500_PVS_F_ENUM_(id, w, lo, width, forms, vals, name) R500_PVS_F_##id,
    R500_PVS_FIELDS(R500_PVS_F_ENUM_)
#undef R500_PVS_F_ENUM_
    R500_PVS_F_COUNT
} r500_pvs_field_id;

/* Offsets from S0_* to S1_* / S2_*: the three source blocks have the same
 * shape (index by R500_PVS_F_S0_x + n * R500_PVS_SRC_STRIDE). */
#define R500_PVS_SRC_STRIDE (R500_PVS_F_S1_REG_TYPE - R500_PVS_F_S0_REG_TYPE)

typedef struct r500_pvs_field_desc {
    const char *name; /* register-doc field name */
    const char *id;   /* unique identifier (enum name without R500_PVS_F_) */
    uint8_t word, lo, width;
    uint8_t forms;    /* R500_PVS_T_* */
    r500_pvs_values values;
} r500_pvs_field_desc;

const r500_pvs_field_desc *r500_pvs_field(r500_pvs_field_id f);
const char *r500_pvs_value_name(r500_pvs_values t, uint32_t v);
unsigned r500_pvs_value_count(r500_pvs_values t);

/* A decoded instruction: every field of its form, plus unclaimed bits. */
typedef struct r500_pvs_inst {
    r500_pvs_form form;
    uint32_t field[R500_PVS_F_COUNT];
    uint32_t unclaimed[R500_PVS_INST_WORDS];
} r500_pvs_inst;

void r500_pvs_decode(const uint32_t words[R500_PVS_INST_WORDS], r500_pvs_inst *out);
/* The form is taken from field DUAL_MATH_OP. */
void r500_pvs_encode(const r500_pvs_inst *in, uint32_t words[R500_PVS_INST_WORDS]);
uint32_t r500_pvs_claimed_mask(r500_pvs_form form, unsigned word);
/* Undefined meaning: unclaimed bits, reserved values (register types, opcodes,
 * addressing mode 3, swizzle 6/7 outside the documented 0..5, MATH+MACRO).
 * Returns the number of problems (messages written up to max). */
unsigned r500_pvs_problems(const r500_pvs_inst *in, char msgs[][96], unsigned max);
/* Field-by-field dump of one instruction (names and values, UNCLAIMED loudly). */
void r500_pvs_format_fields(ls_buf *b, unsigned index, const r500_pvs_inst *in);

/* ---- assembler / disassembler (src/r500/pvs_asm.c) ---------------------- */

typedef struct r500_pvs_program {
    uint32_t *words; /* 4 per instruction, malloc'd */
    size_t count;    /* instructions */
} r500_pvs_program;

/* Assemble buhman/r500 vertex syntax (docs/r500-vs.md). Every error is pushed
 * to errs with file:line:col; returns LS_OK only if there were none. */
ls_status r500_pvs_asm(const char *file, const char *text, size_t len, r500_pvs_program *out,
                       ls_diag_list *errs);
void r500_pvs_program_free(r500_pvs_program *p);
/* Reassemblable source for count instructions (raw form where needed). */
void r500_pvs_disasm(const uint32_t *words, size_t count, ls_buf *out);
/* Load .bin (little-endian dwords) or hex text (0x.. dwords, 4 per instruction). */
ls_status r500_pvs_load_words(const char *file, const char *data, size_t len, bool binary,
                              uint32_t **words, size_t *count, ls_diag *d);

/* ---- executor (src/r500/pvs_exec.c) --------------------------------------- */

/* Model options (docs/assumptions.md, "R500: vertex engine"). */
typedef enum r500_pvs_sincos { R500_PVS_SINCOS_CLAMP, R500_PVS_SINCOS_FULL } r500_pvs_sincos;
typedef enum r500_pvs_ff_inf { R500_PVS_FF_INF_MAX, R500_PVS_FF_INF_INF } r500_pvs_ff_inf;
typedef enum r500_pvs_me_b { R500_PVS_ME_B_SRC2, R500_PVS_ME_B_SRC1 } r500_pvs_me_b;
typedef enum r500_pvs_zta { R500_PVS_ZTA_LEGACY, R500_PVS_ZTA_IEEE } r500_pvs_zta;
typedef enum r500_pvs_minmax { R500_PVS_MINMAX_SECOND, R500_PVS_MINMAX_NUMBER } r500_pvs_minmax;

struct r500_pvs_engine_ops;

typedef struct r500_pvs_options {
    r500_exec_options math;   /* shared with the fragment unit: rcp-zero, rsq-negative, ln2-zero, clamp-nan */
    r500_pvs_sincos sincos;   /* "vs-sincos-range": clamp | full */
    r500_pvs_ff_inf ff_inf;   /* "vs-ff-inf": max | inf */
    r500_pvs_me_b me_b;       /* "vs-me-b": src1 | src2 (ME_MULTIPLY's second operand) */
    r500_pvs_zta zta;         /* "vs-zero-times-anything": legacy (0*x = 0) | ieee */
    r500_pvs_minmax minmax;   /* "vs-minmax-nan": second | number */
    unsigned temps;           /* "vs-temps": temporaries */
    unsigned alt_temps;       /* "vs-alt-temps" */
    unsigned inputs;          /* "vs-inputs" */
    unsigned outputs;         /* "vs-outputs" */
    unsigned fc_depth;        /* "vs-fc-depth": loop + subroutine nesting */
    uint64_t watchdog;        /* "vs-watchdog": instructions issued per vertex */
    /* Which engine r500_pvs_run_vertices uses ("engine": interp | jit;
     * docs/r500-jit.md, "The vertex JIT"). Both give the same bits; default
     * interp. jit: the hook below, liblockstep_jit's r500_pvs_jit_ops(),
     * installed by the caller (the core library never links LLVM). */
    r500_engine engine;
    const struct r500_pvs_engine_ops *jit;
} r500_pvs_options;

void r500_pvs_options_default(r500_pvs_options *o);
ls_status r500_pvs_options_set(r500_pvs_options *o, const char *name, const char *value,
                               ls_diag *d);

#define R500_PVS_MAX_REGS 128

/* The registers of one vertex. */
typedef struct r500_pvs_state {
    float temp[R500_PVS_MAX_REGS][4];
    float alt[R500_PVS_MAX_REGS][4];
    float input[R500_PVS_MAX_REGS][4];
    float out[R500_PVS_MAX_REGS][4];
    int32_t a0[4]; /* address register */
    int32_t i0;    /* loop index register (flow control) */
    bool pred;     /* predicate bit */
    uint8_t out_written[R500_PVS_MAX_REGS]; /* channels (bit per x y z w) ever written */
} r500_pvs_state;

/* Vertex flow control (regs/bits/vap_pvs_flow_cntl_opc.txt,
 * vap_pvs_flow_cntl_addrs_lw.txt, _uw.txt, vap_pvs_flow_cntl_loop_index.txt):
 * up to 16 flow-control operations, each JUMP, LOOP or JSR, triggered when
 * the instruction at its ACT_ADRS has executed. Register layouts as written
 * (R500: ADDRS_LW = ACT_ADRS 15:0 | LOOP_CNT_JMP_INST 31:16, ADDRS_UW =
 * LAST_INST 15:0 | RTN_INST 31:16; Mesa r300_reg.h R500_PVS_FC_*). */
#define R500_PVS_FC_OPS 16
typedef struct r500_pvs_fc {
    uint32_t opc;                          /* VAP_PVS_FLOW_CNTL_OPC: 2 bits per op */
    uint32_t addrs_lw[R500_PVS_FC_OPS];    /* VAP_PVS_FLOW_CNTL_ADDRS_LW_0..15 */
    uint32_t addrs_uw[R500_PVS_FC_OPS];    /* VAP_PVS_FLOW_CNTL_ADDRS_UW_0..15 */
    uint32_t loop_index[R500_PVS_FC_OPS];  /* VAP_PVS_FLOW_CNTL_LOOP_INDEX_0..15 */
} r500_pvs_fc;

/* Set a VAP_PVS_FLOW_CNTL_* register by name ("VAP_PVS_FLOW_CNTL_ADDRS_LW_3"). */
ls_status r500_pvs_fc_set(r500_pvs_fc *fc, const char *name, uint32_t value, ls_diag *d);

typedef struct r500_pvs_stats {
    uint64_t issued; /* instructions issued */
} r500_pvs_stats;

/* Run instructions first..last (inclusive; VAP_PVS_CODE_CNTL_0 PVS_FIRST_INST /
 * PVS_LAST_INST) of prog over one vertex: st holds inputs on entry and every
 * register on return. consts: 256 x 4 floats (may be NULL: all zero); fc: the
 * flow-control registers (NULL: none). A fault
 * (PC off the end, bad register index, reserved field value, undocumented
 * operation, flow-control stack overflow, watchdog) stops the vertex and is returned as LS_ERR_FAULT /
 * LS_ERR_UNSUPPORTED with the instruction index in d. */
ls_status r500_pvs_run(const uint32_t *words, size_t count, size_t first, size_t last,
                       const float (*consts)[4], const r500_pvs_fc *fc, const r500_pvs_options *o,
                       r500_pvs_state *st, r500_pvs_stats *stats, ls_diag *d);

/* The same for nverts vertices (states[0..nverts-1]), the program decoded
 * once, with the engine o->engine names (engine jit: o->jit). Stops at the
 * first vertex that faults (its index in *fault_vertex). */
ls_status r500_pvs_run_vertices(const uint32_t *words, size_t count, size_t first, size_t last,
                                const float (*consts)[4], const r500_pvs_fc *fc,
                                const r500_pvs_options *o, r500_pvs_state *states,
                                size_t nverts, size_t *fault_vertex, r500_pvs_stats *stats,
                                ls_diag *d);

/* The same with the interpreter whatever o->engine says (what an engine
 * falls back to for a program it does not compile). */
ls_status r500_pvs_run_vertices_interp(const uint32_t *words, size_t count, size_t first,
                                       size_t last, const float (*consts)[4],
                                       const r500_pvs_fc *fc, const r500_pvs_options *o,
                                       r500_pvs_state *states, size_t nverts,
                                       size_t *fault_vertex, r500_pvs_stats *stats, ls_diag *d);

/* An engine other than the interpreter for r500_pvs_run_vertices, reached
 * only through r500_pvs_options.jit (liblockstep_jit: r500_pvs_jit_ops(),
 * include/lockstep/r500_pvs_jit.h). run_vertices has r500_pvs_run_vertices'
 * contract and results, bit for bit. */
typedef struct r500_pvs_engine_ops {
    ls_status (*run_vertices)(const struct r500_pvs_engine_ops *self, const uint32_t *words,
                              size_t count, size_t first, size_t last, const float (*consts)[4],
                              const r500_pvs_fc *fc, const r500_pvs_options *o,
                              r500_pvs_state *states, size_t nverts, size_t *fault_vertex,
                              r500_pvs_stats *stats, ls_diag *d);
    void *state; /* the engine's own (its compile cache) */
} r500_pvs_engine_ops;

/* ---- one vertex from text settings (src/r500/pvs_args.c) -------------------- */

/* What `lockstep r500 vs run` takes (docs/r500-vs.md), for any front end. */
typedef struct r500_pvs_vertex {
    r500_pvs_options options;
    r500_pvs_state state;                   /* inputs on entry */
    float consts[R500_PVS_NUM_CONSTS][4];
    r500_pvs_fc fc;
    bool have_fc;                           /* a VAP_PVS_FLOW_CNTL_* register was set */
    long first, last;                       /* instruction range; last < 0: the program's last */
} r500_pvs_vertex;
/* Default options, zero inputs and constants, no flow control, 0..last. */
void r500_pvs_vertex_init(r500_pvs_vertex *v);
/* Apply one setting (name and the value's syntax):
 *   "model" NAME=VALUE             (r500_pvs_options_set)
 *   "input" iN=x[,y[,z[,w]]]       (N < options.inputs: apply "model" first)
 *   "const" cN=x[,y[,z[,w]]]       (N 0..255)
 *   "first" N, "last" N            (0..1023)
 *   "reg"   NAME=VALUE             (VAP_PVS_CODE_CNTL_0: first and last; a
 *                                   VAP_PVS_FLOW_CNTL_* register; VALUE 32-bit)
 * Missing components are 0. LS_ERR_ARG with a message naming the expected form. */
ls_status r500_pvs_vertex_apply(r500_pvs_vertex *v, const char *name, const char *value, ls_diag *d);

#ifdef __cplusplus
}
#endif
#endif
