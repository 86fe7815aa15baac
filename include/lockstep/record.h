/* lockstep — recordings of a run (`--record run.lsr`) for the viewer.
 *
 * Format (docs/viewer.md, "Recording format"): an 8-byte header
 * "LSR" 0x00, u16 version (LS_REC_VERSION), u16 machine (ls_rec_machine),
 * then records: u8 tag, u32 payload length, payload. All integers are
 * little-endian. The payload of each tag is fixed by this header (below);
 * a reader skips tags it does not know. The writer side is a set of
 * appenders to an ls_buf; the reader checks every record of the kinds it
 * knows field by field (ls_rec_check), so a viewer can trust what it loads. */
#ifndef LOCKSTEP_RECORD_H
#define LOCKSTEP_RECORD_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "lockstep/buf.h"
#include "lockstep/status.h"
#ifdef __cplusplus
extern "C" {
#endif

enum { LS_REC_VERSION = 1, LS_REC_HEADER = 8, LS_REC_MAX_LANES = 64 };

typedef enum ls_rec_machine { LS_REC_PP5 = 1, LS_REC_R500 = 2 } ls_rec_machine;

/* Record tags and their payloads.
 *  META       UTF-8 JSON object (what the run was: program listing, sizes, names).
 *  PP5_CLOCK  u32 clock, u8 n, n × (u8 signal index, u32 value): the named IGC
 *             signals (pp5_igc_signal_*) that differ from the previous clock
 *             (all are 0 before the first clock).
 *  PP5_FIELD  u32 clock, u8 field (index into META "fields"), u8 bytes (1, 2
 *             or 4 per value), u8 mode, u32 npixels (width·height), then mode 0
 *             (dense): npixels values, or mode 1 (sparse): u32 n, n × (u32 pixel,
 *             value), pixels increasing and below npixels, or mode 2 (bit
 *             plane, bytes = 1): (npixels+7)/8 bytes, bit p%8 of byte p/8 =
 *             pixel p, or mode 3 (changed bits): u8 k, k × (u8 bit 0..31,
 *             (npixels+7)/8 bytes): value bit `bit` of pixel p flips where bit
 *             p%8 of byte p/8 is set. The values after the clock, pixel p =
 *             y·width + x (all 0 before the field's first record).
 *  R500_THREAD u32 thread, u8 n, u64 covered, n × (u16 x, u16 y), u8 ntemps,
 *             ntemps·4·n × f32: temps at instruction 0 (lane fastest).
 *  R500_INST  u32 thread, u16 pc, u8 type, u16 flags, then in flag order the
 *             fields that differ from the thread's previous instruction (all 0
 *             at its start; flags R500_F_*): state when the instruction issued;
 *             then u16 nw, nw × (u8 file, u8 reg, u8 ch, u64 lanes, popcount(lanes)
 *             × f32): values the instruction wrote, lane by lane (file 0 temp,
 *             1 output target reg, 2 W). */
typedef enum ls_rec_tag {
    LS_REC_META = 1,
    LS_REC_PP5_CLOCK = 2,
    LS_REC_PP5_FIELD = 3,
    LS_REC_R500_THREAD = 4,
    LS_REC_R500_INST = 5,
} ls_rec_tag;

enum {
    LS_REC_F_ACTIVE = 1 << 0,   /* u64 active */
    LS_REC_F_KILLED = 1 << 1,   /* u64 killed */
    LS_REC_F_PRED = 1 << 2,     /* 4 × u64 predicate bits R G B A, u64 ALU result */
    LS_REC_F_MASKS = 1 << 3,    /* u64 branch, u64 break, u64 continue */
    LS_REC_F_AL = 1 << 4,       /* i32 aL */
    LS_REC_F_COUNTERS = 1 << 5, /* n × u8 branch counters (thread's n) */
    LS_REC_F_LOOPS = 1 << 6,    /* u8 depth, depth × (u32 count, i32 aL, u8 is_loop, u64 break,
                                 * u64 continue) */
    LS_REC_F_ADDRS = 1 << 7,    /* u8 depth, depth × u16 return address */
    LS_REC_F_ALL = 0xff,
};
enum { LS_REC_PP5_DENSE = 0, LS_REC_PP5_SPARSE = 1, LS_REC_PP5_BITS = 2, LS_REC_PP5_XOR = 3 };

/* ---- writing (appends to b; b->oom tells of a failed allocation) ---- */
void ls_rec_header(ls_buf *b, ls_rec_machine m);
/* Start a record; fill its payload with the appenders; end it (sets the length). */
size_t ls_rec_begin(ls_buf *b, ls_rec_tag tag);
void ls_rec_end(ls_buf *b, size_t start);
void ls_rec_u8(ls_buf *b, uint8_t v);
void ls_rec_u16(ls_buf *b, uint16_t v);
void ls_rec_u32(ls_buf *b, uint32_t v);
void ls_rec_u64(ls_buf *b, uint64_t v);
void ls_rec_f32(ls_buf *b, float v);

/* ---- reading ---- */
typedef struct ls_rec_reader {
    const uint8_t *p;
    size_t len, pos;
    unsigned version;
    ls_rec_machine machine;
} ls_rec_reader;
typedef struct ls_rec_record {
    ls_rec_tag tag;
    const uint8_t *data;
    uint32_t len;
    size_t offset;      /* of the tag byte in the file */
} ls_rec_record;
/* Check the header. */
ls_status ls_rec_open(ls_rec_reader *r, const void *data, size_t len, ls_diag *d);
/* Next record: LS_OK with *more = true and rec filled, LS_OK with *more = false
 * at the end, LS_ERR_PARSE for a record that runs past the end. */
ls_status ls_rec_next(ls_rec_reader *r, ls_rec_record *rec, bool *more, ls_diag *d);

/* What a whole recording holds (ls_rec_check). */
typedef struct ls_rec_summary {
    ls_rec_machine machine;
    unsigned version;
    size_t records, meta_bytes;
    uint64_t clocks;        /* PP5_CLOCK records */
    uint64_t field_records; /* PP5_FIELD records */
    uint64_t threads;       /* R500_THREAD records */
    uint64_t instructions;  /* R500_INST records */
    uint64_t values;        /* lane values in R500_INST writes */
} ls_rec_summary;
/* Read every record and check every field of the kinds above: one META,
 * first; payload sizes agree with the counts inside; clocks never go back;
 * sparse pixels increase and lie below npixels; R500 lanes 1..64, write
 * masks within the thread's lanes, stack depths within the FC limits
 * (r500_fc.h), instructions only of a thread that began. META's JSON is not
 * parsed here. On error d names the record's offset. */
ls_status ls_rec_check(const void *data, size_t len, ls_rec_summary *s, ls_diag *d);

#ifdef __cplusplus
}
#endif
#endif
