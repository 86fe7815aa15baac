/* Text renderings of decoded R500 instructions (field-by-field dump) and the
 * loaders for raw program files (.bin little-endian dwords, hex-dword text). */
#ifndef LOCKSTEP_R500_ISA_FORMAT_H
#define LOCKSTEP_R500_ISA_FORMAT_H

#include <stddef.h>
#include <stdint.h>

#include "base/buf.h"
#include "lockstep/r500_isa.h"
#include "lockstep/status.h"

/* Field-by-field dump of one instruction: a header line with the index, type
 * and the six words, then one line per word listing every field of that word
 * by name and value (with the value's name where the field has a table), and a
 * loud "UNCLAIMED" / "RESERVED" line for anything undefined. */
void r500_format_fields(ls_buf *b, unsigned index, const r500_inst *in);

typedef enum r500_file_format {
    R500_FILE_UNKNOWN,
    R500_FILE_BIN,  /* little-endian dwords, 24 bytes per instruction */
    R500_FILE_HEX,  /* 0x-prefixed hex dwords; see r500_parse_hex_words */
    R500_FILE_JSON, /* a JSON job (corpus program.json or lockstep job) */
    R500_FILE_ASM,  /* assembly (.fs.asm) */
} r500_file_format;

/* Decide the format from the file name (.bin, .inc/.txt/.hex, .json, .asm) and,
 * failing that, from the content. */
r500_file_format r500_detect_format(const char *path, const char *data, size_t len);

/* Little-endian dwords. The length must be a multiple of 24 bytes and at most
 * 512 instructions. *words is malloc'd (count = number of instructions). */
ls_status r500_parse_bin_words(const char *file, const uint8_t *data, size_t len,
                               uint32_t **words, size_t *count, ls_diag *d);

/* A constant given in hex text: "cN: 0x.. 0x.. 0x.. 0x.." (float32 bits, x y z w). */
typedef struct r500_hex_const {
    unsigned index;
    uint32_t bits[4];
} r500_hex_const;

/* Hex-dword text: tokens "0x" + 1..8 hex digits, separated by commas, spaces
 * or newlines; "N:" index labels are skipped; '#', "--" and "//" start
 * comments to end of line. The number of instruction dwords must be a
 * multiple of 6. "cN:" (N < 256) starts a constant: the next four dwords are
 * constant N (as in corpus/mesa-r300/out/ * /program_words.txt). consts may be
 * NULL, in which case constant lines are an error. */
ls_status r500_parse_hex_program(const char *file, const char *text, size_t len,
                                 uint32_t **words, size_t *count, r500_hex_const **consts,
                                 size_t *nconsts, ls_diag *d);
/* Same, without constants. */
ls_status r500_parse_hex_words(const char *file, const char *text, size_t len,
                               uint32_t **words, size_t *count, ls_diag *d);

#endif
