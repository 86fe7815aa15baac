/* lockstep — recordings of a run (`--record run.lsr`) for the viewer.
 *
 * Format (docs/viewer.md, "Recording format"): an 8-byte header
 * "LSR" 0x00, u16 version (LS_REC_VERSION), u16 machine (ls_rec_machine),
 * then records: u8 tag, u32 payload length, payload. All integers are
 * little-endian. The payload of each tag is fixed by this header (below);
 * a reader skips tags it does not know. Version 2 changed the R500 records
 * (one compact record per thread); version 1 files are refused. The writer side is a set of
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

enum { LS_REC_VERSION = 2, LS_REC_HEADER = 8, LS_REC_MAX_LANES = 64 };

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
 *  R500_THREAD one whole thread (version 2; docs/viewer.md has the layout):
 *             varint thread, u8 n (lanes 1..64), mask covered (raw),
 *             n × (svarint dx, svarint dy): lane pixels as steps from the
 *             previous lane (lane 0 from 0, 0), u8 ntemps (0..128), lane
 *             blocks of file 0: the temps at instruction 0 (channels not
 *             listed are 0);
 *             varint ninst, varint nbytes, nbytes of control stream: ninst
 *             control entries (below);
 *             lane blocks of files 1 and 2: the output registers after the
 *             thread's last instruction (channels not listed are 0);
 *             u8 has_values 0|1, then if 1: varint nbytes (the rest of the
 *             record), a values stream of ninst entries: varint nw (<= 32),
 *             nw × (varint key = reg·16 + ch·4 + file, mask lanes relative
 *             to the entry's active mask, float block of popcount(lanes)
 *             values, each XOR the register's previous value in that lane):
 *             the registers the instruction changed (file 0 temp, 1 output
 *             target reg, 2 W reg 0 ch 0).
 *  lane blocks u8 k, k × (u8 file, u8 reg, u8 ch, u8 r <= 64, float block of
 *             n values, lane l XOR lane l-r, XOR 0 where r = 0 or l < r).
 *
 * Primitives (version 2):
 *  varint     unsigned LEB128 (7 bits a byte, low first, at most 10 bytes);
 *             svarint: zigzag ((v << 1) ^ (v >> 63)) then varint.
 *  mask       a lane mask of a thread of n lanes relative to a reference
 *             mask: u8 k <= 64 then k lane numbers (increasing, below n)
 *             whose bits flip, or u8 0xff then (n+7)/8 bytes: the mask itself
 *             (low lane first). "raw" masks are the (n+7)/8 bytes alone.
 *  float block k float32 values, each XORed with a reference value:
 *             (k+1)/2 bytes of nibbles (value j: low nibble of byte j/2 when j
 *             is even, high nibble when odd; bit i set = byte i of the XOR is
 *             not zero; an unused last high nibble is 0), then for each value its non-zero bytes, low first.
 *
 * Control entry (one per issued instruction; state as the instruction
 * issues, relative to the thread's previous entry; all 0 before the first):
 *  u8 h, and when h & 0x80 a second byte e; then in this order the fields
 *  the bits name. h = 0 is a plain entry (pc + 1, nothing changed); h =
 *  0x80 with e = 0 is a run: u8 r >= 2, then this and the next r - 1
 *  entries are plain.
 *  h 0x01 varint pc (otherwise pc = previous pc + 1; the first entry's
 *         previous pc counts as -1)        0x02 mask active
 *  h 0x04 mask branch   0x08 mask break    0x10 mask continue
 *  h 0x20 counters: u8 k < 0x80 then k × (u8 lane < n, u8 counter),
 *         lanes increasing, or u8 0x80 then one u8 counter per lane of the
 *         (new) branch mask, lanes in order, the others 0
 *  h 0x40 loop stack: u8 depth <= 16, depth × (u8 fm < 0x40, then: fm 1
 *         varint count, 2 svarint aL, 4 u8 is_loop 0|1, 8 mask break, 16
 *         mask continue; fm 32 (not with 1): count one less, no payload),
 *         each relative to the frame at that depth of the previous entry
 *         (a zero frame beyond its depth)
 *  e 0x01 mask killed   0x02 0x04 0x08 0x10 mask predicates R G B A
 *  e 0x20 mask ALU result   0x40 svarint aL
 *  e 0x80 address stack: u8 depth <= 16, depth × varint address < 65536
 */
typedef enum ls_rec_tag {
    LS_REC_META = 1,
    LS_REC_PP5_CLOCK = 2,
    LS_REC_PP5_FIELD = 3,
    LS_REC_R500_THREAD = 4,
} ls_rec_tag;

enum { LS_REC_PP5_DENSE = 0, LS_REC_PP5_SPARSE = 1, LS_REC_PP5_BITS = 2, LS_REC_PP5_XOR = 3 };

/* Control entry bits (h, and e << 8). */
enum {
    LS_REC_C_PC = 1 << 0,
    LS_REC_C_ACTIVE = 1 << 1,
    LS_REC_C_BRANCH = 1 << 2,
    LS_REC_C_BREAK = 1 << 3,
    LS_REC_C_CONT = 1 << 4,
    LS_REC_C_COUNTERS = 1 << 5,
    LS_REC_C_LOOPS = 1 << 6,
    LS_REC_C_EXT = 1 << 7,
    LS_REC_C_KILLED = 1 << 8,
    LS_REC_C_PRED = 1 << 9, /* R; G, B, A are the next three bits */
    LS_REC_C_ALU = 1 << 13,
    LS_REC_C_AL = 1 << 14,
    LS_REC_C_ADDRS = 1 << 15,
};
enum { LS_REC_MAX_STACK = 16, LS_REC_MAX_TEMPS = 128, LS_REC_MAX_WRITES = 32 };

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
/* Version 2 primitives (above). */
void ls_rec_varint(ls_buf *b, uint64_t v);
void ls_rec_svarint(ls_buf *b, int64_t v);
/* v as a mask of an n-lane thread relative to ref (the shorter form). */
void ls_rec_mask(ls_buf *b, uint64_t v, uint64_t ref, unsigned n);
void ls_rec_mask_raw(ls_buf *b, uint64_t v, unsigned n);
/* k values (bit patterns) as a float block, value j XOR ref[j]. */
void ls_rec_floats(ls_buf *b, const uint32_t *v, const uint32_t *ref, size_t k);

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

/* ---- R500 threads (version 2): a cursor over one R500_THREAD record ---- */
typedef struct ls_rec_frame {
    uint32_t count;
    int32_t al;
    uint8_t is_loop;
    uint64_t brk, cont;
} ls_rec_frame;
/* The state of an instruction as it issues (the trace's fields). */
typedef struct ls_rec_r500_state {
    unsigned pc;
    uint64_t active, killed, pred[4], alu, branch, brk, cont;
    int32_t al;
    uint8_t counters[LS_REC_MAX_LANES]; /* 0 where the lane is not in branch */
    unsigned loop_depth, addr_depth;
    ls_rec_frame loop[LS_REC_MAX_STACK];
    uint16_t addr[LS_REC_MAX_STACK];
} ls_rec_r500_state;
typedef struct ls_rec_r500_write {
    uint8_t file, reg, ch; /* file 0 temp, 1 output, 2 W */
    uint64_t lanes;
} ls_rec_r500_write;
/* Registers as float32 bit patterns, [reg][channel][lane]. */
typedef struct ls_rec_r500_regs {
    uint32_t temp[LS_REC_MAX_TEMPS][4][LS_REC_MAX_LANES];
    uint32_t out[4][4][LS_REC_MAX_LANES];
    uint32_t w[LS_REC_MAX_LANES];
} ls_rec_r500_regs;
typedef struct ls_rec_r500_cursor {
    /* the thread */
    uint32_t thread;
    unsigned n, ntemps;
    uint64_t lanes, covered;
    uint16_t px[LS_REC_MAX_LANES], py[LS_REC_MAX_LANES];
    uint64_t ninst;
    bool has_values;
    uint32_t fout[4][4][LS_REC_MAX_LANES], fw[LS_REC_MAX_LANES]; /* outputs, W after the
                                                                  * last instruction */
    /* after ls_rec_r500_step: the instruction read (index 0..ninst-1) */
    uint64_t index;
    ls_rec_r500_state st;
    unsigned nwrites;         /* when has_values: what it changed ... */
    ls_rec_r500_write writes[LS_REC_MAX_WRITES];
    ls_rec_r500_regs regs;    /* ... and the registers after it (temps at 0 before) */
    /* where the streams are (private) */
    const uint8_t *ctl, *val;
    size_t ctl_len, ctl_pos, val_len, val_pos;
    unsigned run;             /* plain entries left in a run */
    size_t offset;            /* of the record, for diagnostics */
} ls_rec_r500_cursor;
/* Open an R500_THREAD record: the thread, its temps at instruction 0 (in
 * regs), its final outputs; checks every field outside the streams. */
ls_status ls_rec_r500_begin(ls_rec_r500_cursor *c, const ls_rec_record *rec, ls_diag *d);
/* The next instruction (at most ninst times): st, and with values the
 * writes and regs; every field checked (masks within the lanes, stack
 * depths, lanes increasing). */
ls_status ls_rec_r500_step(ls_rec_r500_cursor *c, ls_diag *d);
/* After ninst steps: both streams must be used up exactly. */
ls_status ls_rec_r500_end(const ls_rec_r500_cursor *c, ls_diag *d);

/* What a whole recording holds (ls_rec_check). */
typedef struct ls_rec_summary {
    ls_rec_machine machine;
    unsigned version;
    size_t records, meta_bytes;
    uint64_t clocks;        /* PP5_CLOCK records */
    uint64_t field_records; /* PP5_FIELD records */
    uint64_t threads;       /* R500_THREAD records */
    uint64_t value_threads; /* ... of them with values */
    uint64_t instructions;  /* R500 control entries */
    uint64_t values;        /* lane values in R500 writes */
} ls_rec_summary;
/* Read every record and check every field of the kinds above: one META,
 * first; payload sizes agree with the counts inside; clocks never go back;
 * sparse pixels increase and lie below npixels; R500 threads each once,
 * every entry decoded (ls_rec_r500_step). META's JSON is not parsed here.
 * A version 1 recording is refused (record the run again). On error d
 * names the record's offset. */
ls_status ls_rec_check(const void *data, size_t len, ls_rec_summary *s, ls_diag *d);

#ifdef __cplusplus
}
#endif
#endif
