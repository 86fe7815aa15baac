/* R500 fragment shader (US) instruction words: one field table drives the
 * decoder, the encoder, the disassembler and the "unclaimed bits" check.
 *
 * An instruction is 6 dwords (spec/r500.md §1.1):
 *   dword 0  US_CMN_INST        (all types)
 *   dword 1  US_ALU_RGB_ADDR    | US_TEX_INST      | (FC: unused, 0)
 *   dword 2  US_ALU_ALPHA_ADDR  | US_TEX_ADDR      | US_FC_INST
 *   dword 3  US_ALU_RGB_INST    | US_TEX_ADDR_DXDY | US_FC_ADDR
 *   dword 4  US_ALU_ALPHA_INST  | (TEX/FC: unused, 0)
 *   dword 5  US_ALU_RGBA_INST   | (TEX/FC: unused, 0)
 * CMN.TYPE (bits 1:0) selects the layout: 0 ALU, 1 OUT, 2 FC, 3 TEX. */
#ifndef LOCKSTEP_R500_ISA_H
#define LOCKSTEP_R500_ISA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define R500_INST_WORDS 6
#define R500_MAX_INSTS 512     /* instruction slots, 9-bit addresses (r500.md §1.1) */
#define R500_NUM_TEMPS 128
#define R500_NUM_CONSTS 256

typedef enum r500_inst_type {
    R500_TYPE_ALU = 0,
    R500_TYPE_OUT = 1,
    R500_TYPE_FC = 2,
    R500_TYPE_TEX = 3,
} r500_inst_type;

/* Which instruction types a field belongs to (bit per r500_inst_type). */
#define R500_T_ALU (1u << R500_TYPE_ALU)
#define R500_T_OUT (1u << R500_TYPE_OUT)
#define R500_T_FC (1u << R500_TYPE_FC)
#define R500_T_TEX (1u << R500_TYPE_TEX)
#define R500_T_ALUOUT (R500_T_ALU | R500_T_OUT)
#define R500_T_ALL (R500_T_ALU | R500_T_OUT | R500_T_FC | R500_T_TEX)

/* Value-name tables (index = field value; NULL or missing = reserved). */
#define R500_VALUE_TABLES(V)                                                                  \
    V(TYPE, "ALU", "OUT", "FC", "TEX")                                                        \
    V(PRED_SEL, "NONE", "RGBA", "RRRR", "GGGG", "BBBB", "AAAA", NULL, NULL)                    \
    V(CMP, "EQ", "LT", "GE", "NE")                                                            \
    V(SRCP_OP, "BIAS", "SUB", "ADD", "INV")                                                   \
    V(SEL, "src0", "src1", "src2", "srcp")                                                    \
    V(SWIZ, "R", "G", "B", "A", "0.0", "0.5", "1.0", "UNUSED")                                           \
    V(MOD, "NOP", "NEG", "ABS", "NAB")                                                        \
    V(OMOD, "x1", "x2", "x4", "x8", "d2", "d4", "d8", "DISABLE")                              \
    V(ALPHA_OP, "MAD", "DP", "MIN", "MAX", NULL, "CND", "CMP", "FRC", "EX2", "LN2", "RCP",    \
      "RSQ", "SIN", "COS", "MDH", "MDV")                                                      \
    V(RGB_OP, "MAD", "DP3", "DP4", "D2A", "MIN", "MAX", NULL, "CND", "CMP", "FRC", "SOP",     \
      "MDH", "MDV", NULL, NULL, NULL)                                                         \
    V(TEX_OP, "NOP", "LD", "TEXKILL", "PROJ", "LODBIAS", "LOD", "DXDY", NULL)                 \
    V(TEX_SWIZ, "R", "G", "B", "A")                                                           \
    V(FC_OP, "JUMP", "LOOP", "ENDLOOP", "REP", "ENDREP", "BREAKLOOP", "BREAKREP", "CONTINUE") \
    V(A_OP, "NONE", "POP", "PUSH", NULL)                                                      \
    V(B_OP, "NONE", "DECR", "INCR", NULL)

typedef enum r500_values {
    R500_V_NONE = 0, /* a plain number */
#define R500_V_ENUM_(name, ...) R500_V_##name,
    R500_VALUE_TABLES(R500_V_ENUM_)
#undef R500_V_ENUM_
    R500_V_COUNT
} r500_values;

/* The field table: F(ID, word, lo bit, width, types, values, "DOC_NAME").
 * Sources: spec/r500.md §1.2–§1.8 (register docs B:regs/bits/ files; seed 001
 * for US_FC_INST). Field names are those of the register documentation. */
#define R500_FIELDS(F)                                                                   \
    /* dword 0: US_CMN_INST (r500.md §1.2) */                                            \
    F(TYPE, 0, 0, 2, R500_T_ALL, TYPE, "TYPE")                                           \
    F(TEX_SEM_WAIT, 0, 2, 1, R500_T_ALL, NONE, "TEX_SEM_WAIT")                           \
    F(RGB_PRED_SEL, 0, 3, 3, R500_T_ALL, PRED_SEL, "RGB_PRED_SEL")                       \
    F(RGB_PRED_INV, 0, 6, 1, R500_T_ALL, NONE, "RGB_PRED_INV")                           \
    F(WRITE_INACTIVE, 0, 7, 1, R500_T_ALL, NONE, "WRITE_INACTIVE")                       \
    F(LAST, 0, 8, 1, R500_T_ALL, NONE, "LAST")                                           \
    F(NOP, 0, 9, 1, R500_T_ALL, NONE, "NOP")                                             \
    F(ALU_WAIT, 0, 10, 1, R500_T_ALL, NONE, "ALU_WAIT")                                  \
    F(RGB_WMASK, 0, 11, 3, R500_T_ALL, NONE, "RGB_WMASK")                                \
    F(ALPHA_WMASK, 0, 14, 1, R500_T_ALL, NONE, "ALPHA_WMASK")                            \
    F(RGB_OMASK, 0, 15, 3, R500_T_ALL, NONE, "RGB_OMASK")                                \
    F(ALPHA_OMASK, 0, 18, 1, R500_T_ALL, NONE, "ALPHA_OMASK")                            \
    F(RGB_CLAMP, 0, 19, 1, R500_T_ALL, NONE, "RGB_CLAMP")                                \
    F(ALPHA_CLAMP, 0, 20, 1, R500_T_ALL, NONE, "ALPHA_CLAMP")                            \
    F(ALU_RESULT_SEL, 0, 21, 1, R500_T_ALL, NONE, "ALU_RESULT_SEL")                      \
    F(ALPHA_PRED_INV, 0, 22, 1, R500_T_ALL, NONE, "ALPHA_PRED_INV")                      \
    F(ALU_RESULT_OP, 0, 23, 2, R500_T_ALL, CMP, "ALU_RESULT_OP")                         \
    F(ALPHA_PRED_SEL, 0, 25, 3, R500_T_ALL, PRED_SEL, "ALPHA_PRED_SEL")                  \
    F(STAT_WE, 0, 28, 4, R500_T_ALL, NONE, "STAT_WE")                                    \
    /* dword 1: US_ALU_RGB_ADDR (r500.md §1.3) */                                        \
    F(RGB_ADDR0, 1, 0, 8, R500_T_ALUOUT, NONE, "ADDR0")                                  \
    F(RGB_ADDR0_CONST, 1, 8, 1, R500_T_ALUOUT, NONE, "ADDR0_CONST")                      \
    F(RGB_ADDR0_REL, 1, 9, 1, R500_T_ALUOUT, NONE, "ADDR0_REL")                          \
    F(RGB_ADDR1, 1, 10, 8, R500_T_ALUOUT, NONE, "ADDR1")                                 \
    F(RGB_ADDR1_CONST, 1, 18, 1, R500_T_ALUOUT, NONE, "ADDR1_CONST")                     \
    F(RGB_ADDR1_REL, 1, 19, 1, R500_T_ALUOUT, NONE, "ADDR1_REL")                         \
    F(RGB_ADDR2, 1, 20, 8, R500_T_ALUOUT, NONE, "ADDR2")                                 \
    F(RGB_ADDR2_CONST, 1, 28, 1, R500_T_ALUOUT, NONE, "ADDR2_CONST")                     \
    F(RGB_ADDR2_REL, 1, 29, 1, R500_T_ALUOUT, NONE, "ADDR2_REL")                         \
    F(RGB_SRCP_OP, 1, 30, 2, R500_T_ALUOUT, SRCP_OP, "SRCP_OP")                          \
    /* dword 2: US_ALU_ALPHA_ADDR (same layout) */                                       \
    F(ALPHA_ADDR0, 2, 0, 8, R500_T_ALUOUT, NONE, "ADDR0")                                \
    F(ALPHA_ADDR0_CONST, 2, 8, 1, R500_T_ALUOUT, NONE, "ADDR0_CONST")                    \
    F(ALPHA_ADDR0_REL, 2, 9, 1, R500_T_ALUOUT, NONE, "ADDR0_REL")                        \
    F(ALPHA_ADDR1, 2, 10, 8, R500_T_ALUOUT, NONE, "ADDR1")                               \
    F(ALPHA_ADDR1_CONST, 2, 18, 1, R500_T_ALUOUT, NONE, "ADDR1_CONST")                   \
    F(ALPHA_ADDR1_REL, 2, 19, 1, R500_T_ALUOUT, NONE, "ADDR1_REL")                       \
    F(ALPHA_ADDR2, 2, 20, 8, R500_T_ALUOUT, NONE, "ADDR2")                               \
    F(ALPHA_ADDR2_CONST, 2, 28, 1, R500_T_ALUOUT, NONE, "ADDR2_CONST")                   \
    F(ALPHA_ADDR2_REL, 2, 29, 1, R500_T_ALUOUT, NONE, "ADDR2_REL")                       \
    F(ALPHA_SRCP_OP, 2, 30, 2, R500_T_ALUOUT, SRCP_OP, "SRCP_OP")                        \
    /* dword 3: US_ALU_RGB_INST (r500.md §1.4) */                                        \
    F(RGB_SEL_A, 3, 0, 2, R500_T_ALUOUT, SEL, "RGB_SEL_A")                               \
    F(RED_SWIZ_A, 3, 2, 3, R500_T_ALUOUT, SWIZ, "RED_SWIZ_A")                            \
    F(GREEN_SWIZ_A, 3, 5, 3, R500_T_ALUOUT, SWIZ, "GREEN_SWIZ_A")                        \
    F(BLUE_SWIZ_A, 3, 8, 3, R500_T_ALUOUT, SWIZ, "BLUE_SWIZ_A")                          \
    F(RGB_MOD_A, 3, 11, 2, R500_T_ALUOUT, MOD, "RGB_MOD_A")                              \
    F(RGB_SEL_B, 3, 13, 2, R500_T_ALUOUT, SEL, "RGB_SEL_B")                              \
    F(RED_SWIZ_B, 3, 15, 3, R500_T_ALUOUT, SWIZ, "RED_SWIZ_B")                           \
    F(GREEN_SWIZ_B, 3, 18, 3, R500_T_ALUOUT, SWIZ, "GREEN_SWIZ_B")                       \
    F(BLUE_SWIZ_B, 3, 21, 3, R500_T_ALUOUT, SWIZ, "BLUE_SWIZ_B")                         \
    F(RGB_MOD_B, 3, 24, 2, R500_T_ALUOUT, MOD, "RGB_MOD_B")                              \
    F(RGB_OMOD, 3, 26, 3, R500_T_ALUOUT, OMOD, "OMOD")                                   \
    F(RGB_TARGET, 3, 29, 2, R500_T_ALUOUT, NONE, "TARGET")                               \
    F(ALU_WMASK, 3, 31, 1, R500_T_ALUOUT, NONE, "ALU_WMASK")                             \
    /* dword 4: US_ALU_ALPHA_INST (r500.md §1.5) */                                      \
    F(ALPHA_OP, 4, 0, 4, R500_T_ALUOUT, ALPHA_OP, "ALPHA_OP")                            \
    F(ALPHA_ADDRD, 4, 4, 7, R500_T_ALUOUT, NONE, "ALPHA_ADDRD")                          \
    F(ALPHA_ADDRD_REL, 4, 11, 1, R500_T_ALUOUT, NONE, "ALPHA_ADDRD_REL")                 \
    F(ALPHA_SEL_A, 4, 12, 2, R500_T_ALUOUT, SEL, "ALPHA_SEL_A")                          \
    F(ALPHA_SWIZ_A, 4, 14, 3, R500_T_ALUOUT, SWIZ, "ALPHA_SWIZ_A")                       \
    F(ALPHA_MOD_A, 4, 17, 2, R500_T_ALUOUT, MOD, "ALPHA_MOD_A")                          \
    F(ALPHA_SEL_B, 4, 19, 2, R500_T_ALUOUT, SEL, "ALPHA_SEL_B")                          \
    F(ALPHA_SWIZ_B, 4, 21, 3, R500_T_ALUOUT, SWIZ, "ALPHA_SWIZ_B")                       \
    F(ALPHA_MOD_B, 4, 24, 2, R500_T_ALUOUT, MOD, "ALPHA_MOD_B")                          \
    F(ALPHA_OMOD, 4, 26, 3, R500_T_ALUOUT, OMOD, "OMOD")                                 \
    F(ALPHA_TARGET, 4, 29, 2, R500_T_ALUOUT, NONE, "TARGET")                             \
    F(W_OMASK, 4, 31, 1, R500_T_ALUOUT, NONE, "W_OMASK")                                 \
    /* dword 5: US_ALU_RGBA_INST (r500.md §1.6) */                                       \
    F(RGB_OP, 5, 0, 4, R500_T_ALUOUT, RGB_OP, "RGB_OP")                                  \
    F(RGB_ADDRD, 5, 4, 7, R500_T_ALUOUT, NONE, "RGB_ADDRD")                              \
    F(RGB_ADDRD_REL, 5, 11, 1, R500_T_ALUOUT, NONE, "RGB_ADDRD_REL")                     \
    F(RGB_SEL_C, 5, 12, 2, R500_T_ALUOUT, SEL, "RGB_SEL_C")                              \
    F(RED_SWIZ_C, 5, 14, 3, R500_T_ALUOUT, SWIZ, "RED_SWIZ_C")                           \
    F(GREEN_SWIZ_C, 5, 17, 3, R500_T_ALUOUT, SWIZ, "GREEN_SWIZ_C")                       \
    F(BLUE_SWIZ_C, 5, 20, 3, R500_T_ALUOUT, SWIZ, "BLUE_SWIZ_C")                         \
    F(RGB_MOD_C, 5, 23, 2, R500_T_ALUOUT, MOD, "RGB_MOD_C")                              \
    F(ALPHA_SEL_C, 5, 25, 2, R500_T_ALUOUT, SEL, "ALPHA_SEL_C")                          \
    F(ALPHA_SWIZ_C, 5, 27, 3, R500_T_ALUOUT, SWIZ, "ALPHA_SWIZ_C")                       \
    F(ALPHA_MOD_C, 5, 30, 2, R500_T_ALUOUT, MOD, "ALPHA_MOD_C")                          \
    /* dword 1: US_TEX_INST (r500.md §1.7; bits 15:0 and 21:20 undefined) */             \
    F(TEX_ID, 1, 16, 4, R500_T_TEX, NONE, "TEX_ID")                                      \
    F(TEX_INST, 1, 22, 3, R500_T_TEX, TEX_OP, "INST")                                    \
    F(TEX_SEM_ACQUIRE, 1, 25, 1, R500_T_TEX, NONE, "TEX_SEM_ACQUIRE")                    \
    F(TEX_IGNORE_UNCOVERED, 1, 26, 1, R500_T_TEX, NONE, "IGNORE_UNCOVERED")              \
    F(TEX_UNSCALED, 1, 27, 1, R500_T_TEX, NONE, "UNSCALED")                              \
    /* dword 2: US_TEX_ADDR */                                                           \
    F(TEX_SRC_ADDR, 2, 0, 7, R500_T_TEX, NONE, "SRC_ADDR")                               \
    F(TEX_SRC_ADDR_REL, 2, 7, 1, R500_T_TEX, NONE, "SRC_ADDR_REL")                       \
    F(TEX_SRC_S_SWIZ, 2, 8, 2, R500_T_TEX, TEX_SWIZ, "SRC_S_SWIZ")                       \
    F(TEX_SRC_T_SWIZ, 2, 10, 2, R500_T_TEX, TEX_SWIZ, "SRC_T_SWIZ")                      \
    F(TEX_SRC_R_SWIZ, 2, 12, 2, R500_T_TEX, TEX_SWIZ, "SRC_R_SWIZ")                      \
    F(TEX_SRC_Q_SWIZ, 2, 14, 2, R500_T_TEX, TEX_SWIZ, "SRC_Q_SWIZ")                      \
    F(TEX_DST_ADDR, 2, 16, 7, R500_T_TEX, NONE, "DST_ADDR")                              \
    F(TEX_DST_ADDR_REL, 2, 23, 1, R500_T_TEX, NONE, "DST_ADDR_REL")                      \
    F(TEX_DST_R_SWIZ, 2, 24, 2, R500_T_TEX, TEX_SWIZ, "DST_R_SWIZ")                      \
    F(TEX_DST_G_SWIZ, 2, 26, 2, R500_T_TEX, TEX_SWIZ, "DST_G_SWIZ")                      \
    F(TEX_DST_B_SWIZ, 2, 28, 2, R500_T_TEX, TEX_SWIZ, "DST_B_SWIZ")                      \
    F(TEX_DST_A_SWIZ, 2, 30, 2, R500_T_TEX, TEX_SWIZ, "DST_A_SWIZ")                      \
    /* dword 3: US_TEX_ADDR_DXDY */                                                      \
    F(TEX_DX_ADDR, 3, 0, 7, R500_T_TEX, NONE, "DX_ADDR")                                 \
    F(TEX_DX_ADDR_REL, 3, 7, 1, R500_T_TEX, NONE, "DX_ADDR_REL")                         \
    F(TEX_DX_S_SWIZ, 3, 8, 2, R500_T_TEX, TEX_SWIZ, "DX_S_SWIZ")                         \
    F(TEX_DX_T_SWIZ, 3, 10, 2, R500_T_TEX, TEX_SWIZ, "DX_T_SWIZ")                        \
    F(TEX_DX_R_SWIZ, 3, 12, 2, R500_T_TEX, TEX_SWIZ, "DX_R_SWIZ")                        \
    F(TEX_DX_Q_SWIZ, 3, 14, 2, R500_T_TEX, TEX_SWIZ, "DX_Q_SWIZ")                        \
    F(TEX_DY_ADDR, 3, 16, 7, R500_T_TEX, NONE, "DY_ADDR")                                \
    F(TEX_DY_ADDR_REL, 3, 23, 1, R500_T_TEX, NONE, "DY_ADDR_REL")                        \
    F(TEX_DY_S_SWIZ, 3, 24, 2, R500_T_TEX, TEX_SWIZ, "DY_S_SWIZ")                        \
    F(TEX_DY_T_SWIZ, 3, 26, 2, R500_T_TEX, TEX_SWIZ, "DY_T_SWIZ")                        \
    F(TEX_DY_R_SWIZ, 3, 28, 2, R500_T_TEX, TEX_SWIZ, "DY_R_SWIZ")                        \
    F(TEX_DY_Q_SWIZ, 3, 30, 2, R500_T_TEX, TEX_SWIZ, "DY_Q_SWIZ")                        \
    /* dword 2: US_FC_INST (seed 001; r500.md §1.8) */                                   \
    F(FC_OP, 2, 0, 3, R500_T_FC, FC_OP, "OP")                                            \
    F(FC_B_ELSE, 2, 4, 1, R500_T_FC, NONE, "B_ELSE")                                     \
    F(FC_JUMP_ANY, 2, 5, 1, R500_T_FC, NONE, "JUMP_ANY")                                 \
    F(FC_A_OP, 2, 6, 2, R500_T_FC, A_OP, "A_OP")                                         \
    F(FC_JUMP_FUNC, 2, 8, 8, R500_T_FC, NONE, "JUMP_FUNC")                               \
    F(FC_B_POP_CNT, 2, 16, 5, R500_T_FC, NONE, "B_POP_CNT")                              \
    F(FC_B_OP0, 2, 24, 2, R500_T_FC, B_OP, "B_OP0")                                      \
    F(FC_B_OP1, 2, 26, 2, R500_T_FC, B_OP, "B_OP1")                                      \
    F(FC_IGNORE_UNCOVERED, 2, 28, 1, R500_T_FC, NONE, "IGNORE_UNCOVERED")                \
    /* dword 3: US_FC_ADDR (r500.md §1.8) */                                             \
    F(FC_BOOL_ADDR, 3, 0, 5, R500_T_FC, NONE, "BOOL_ADDR")                               \
    F(FC_INT_ADDR, 3, 8, 5, R500_T_FC, NONE, "INT_ADDR")                                 \
    F(FC_JUMP_ADDR, 3, 16, 9, R500_T_FC, NONE, "JUMP_ADDR")                              \
    F(FC_JUMP_GLOBAL, 3, 31, 1, R500_T_FC, NONE, "JUMP_GLOBAL")

typedef enum r500_field_id {
#define R500_F_ENUM_(id, w, lo, width, types, vals, name) R500_F_##id,
    R500_FIELDS(R500_F_ENUM_)
#undef R500_F_ENUM_
    R500_F_COUNT
} r500_field_id;

typedef struct r500_field_desc {
    const char *name;   /* register-doc field name */
    const char *id;     /* unique identifier (enum name without R500_F_) */
    uint8_t word;       /* dword 0..5 */
    uint8_t lo, width;  /* bit range lo .. lo+width-1 */
    uint8_t types;      /* R500_T_* mask */
    r500_values values; /* value-name table, R500_V_NONE for plain numbers */
} r500_field_desc;

/* The field table, indexed by r500_field_id (read-only). */
const r500_field_desc *r500_field(r500_field_id f);

/* Name of value v in table t, or NULL if v is reserved / t has no names. */
const char *r500_value_name(r500_values t, uint32_t v);
/* Number of entries of table t (0 for NONE). */
unsigned r500_value_count(r500_values t);
/* Table lookup by name (case-insensitive); returns false if not found. */
bool r500_value_lookup(r500_values t, const char *name, uint32_t *v);

/* Word names, per type: "US_CMN_INST", "US_ALU_RGB_ADDR", ... or NULL (unused word). */
const char *r500_word_name(r500_inst_type t, unsigned word);

/* A decoded instruction: every field of its type by value, plus the bits that
 * no field of its type claims (kept so that encode(decode(w)) == w). */
typedef struct r500_inst {
    r500_inst_type type;
    uint32_t field[R500_F_COUNT];        /* 0 for fields not of this type */
    uint32_t unclaimed[R500_INST_WORDS]; /* raw bits outside every field */
} r500_inst;

void r500_decode(const uint32_t words[R500_INST_WORDS], r500_inst *out);
/* Fields of other types and out-of-width values are ignored (masked). */
void r500_encode(const r500_inst *in, uint32_t words[R500_INST_WORDS]);
/* Bits of dword `word` that fields of type t claim. */
uint32_t r500_claimed_mask(r500_inst_type t, unsigned word);
static inline bool r500_field_applies(const r500_field_desc *f, r500_inst_type t)
{
    return (f->types >> t) & 1u;
}

/* A blank instruction of type t: every field 0 except TYPE. For ALU/OUT the
 * unused sources are NOT filled in (see r500_inst_init_alu). */
void r500_inst_init(r500_inst *in, r500_inst_type t);

/* Problems that make an instruction's meaning undefined: unclaimed bits set,
 * or a field holding a reserved value (e.g. A_OP=3, RGB_OP=6, swizzle 7).
 * Each problem is written as a short text into msgs (up to max entries).
 * Returns the number of problems found (may exceed max). */
unsigned r500_inst_problems(const r500_inst *in, char msgs[][96], unsigned max);

/* Inline constants (r500.md §4.2): 7-bit unsigned float, 4-bit exponent
 * (bias 7), 3-bit mantissa, denormal when exponent is 0. */
float r500_inline_float(unsigned code);

#ifdef __cplusplus
}
#endif
#endif
