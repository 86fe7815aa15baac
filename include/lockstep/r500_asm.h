/* R500 assembler and disassembler (docs/r500-asm.md).
 *
 * The language: buhman/r500's fragment-shader syntax for ALU/OUT/TEX
 * instructions (spec/r500.md §6.1), plus
 *   - field forms `.alu`, `.out`, `.tex`, `.fc` naming any field of the
 *     instruction table (include/lockstep/r500_isa.h) by its identifier;
 *   - `.raw w0 w1 w2 w3 w4 w5` for exact words (bits no field claims);
 *   - structured flow control (IF/ELSE/ENDIF, LOOP/ENDLOOP, REP/ENDREP,
 *     BREAK, CONTINUE, CALL/RET, JUMP) expanding to Mesa's words;
 *   - labels and directives for the program's state (.const, .bool, .int,
 *     .fc full|partial, .offset).
 * Errors are `file:line:col: error: message` with the source line; several
 * per run where recovery is sound. */
#ifndef LOCKSTEP_R500_ASM_H
#define LOCKSTEP_R500_ASM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lockstep/r500_isa.h"
#include "lockstep/buf.h"
#include "lockstep/status.h"

#ifdef __cplusplus
extern "C" {
#endif

struct ls_buf;

/* What a source file defines besides the instructions. */
typedef struct r500_asm_state {
    uint32_t consts[R500_NUM_CONSTS][4]; /* float32 bits */
    bool const_set[R500_NUM_CONSTS];
    uint32_t bool_const;
    bool bool_set;
    uint32_t int_const[32];
    uint32_t int_set;        /* bit n: US_FC_INT_CONST_n was given */
    int fc_full;             /* -1 not given, 0 partial, 1 full */
    int offset;              /* -1 not given, else US_CODE_OFFSET */
} r500_asm_state;

typedef struct r500_asm_program {
    uint32_t *words;         /* 6 per instruction */
    size_t count;            /* instructions */
    r500_asm_state state;
} r500_asm_program;

/* Assemble a file (with #include) or a buffer. On error returns LS_ERR_PARSE
 * (or the first error's status) and fills errs with every error found. */
ls_status r500_asm_file(const char *path, r500_asm_program *out, ls_diag_list *errs);
ls_status r500_asm_mem(const char *name, const char *text, size_t len, r500_asm_program *out,
                       ls_diag_list *errs);
void r500_asm_program_free(r500_asm_program *p);

/* Disassemble to source that assembles back to the same words: labels for
 * jump targets, structured FC where the words are exactly an expansion,
 * buhman syntax or field forms for ALU/OUT/TEX, `.raw` where bits belong to
 * no field. state may be NULL. */
void r500_disasm(const uint32_t *words, size_t count, const r500_asm_state *state,
                 struct ls_buf *out);

#ifdef __cplusplus
}
#endif
#endif
