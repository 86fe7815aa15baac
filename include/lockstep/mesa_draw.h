/* R300/R500 command-stream executor, front half (issue 15 items 2 and 6):
 * vertex fetch (3D_LOAD_VBPNTR + VAP_PROG_STREAM_CNTL_n/_EXT_n, index
 * buffers, 3D_DRAW_VBUF_2 / 3D_DRAW_INDX_2 / 3D_DRAW_IMMD_2), the vertex
 * program (PVS, or PVS bypass) and the output mapping (VAP_OUTPUT_VTX_FMT_0/1)
 * into post-transform vertices. Manual: docs/mesa.md "Draws: vertex fetch and
 * the vertex program"; model options: docs/assumptions.md "Vertex fetch".
 *
 * Sources (read, not copied): Mesa src/gallium/drivers/r300/r300_reg.h
 * (register and field layouts), r300_emit.c (r300_emit_vertex_arrays: the
 * 3D_LOAD_VBPNTR layout, one NOP relocation per array after the packet;
 * r300_emit_vs_state: PVS upload through VAP_PVS_VECTOR_INDX_REG /
 * VAP_PVS_UPLOAD_DATA), r300_render.c (the draw packets, INDX_BUFFER),
 * r300_state_derived.c / r300_vs.c (stream control, output order); the
 * radeon kernel's r100.c/r300.c CS checker (a relocation is a type-3 NOP whose
 * one data dword is the relocation's dword offset in the relocation chunk,
 * 4 dwords a relocation). */
#ifndef LOCKSTEP_MESA_DRAW_H
#define LOCKSTEP_MESA_DRAW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lockstep/mesa_cs.h"
#include "lockstep/r500_pvs.h"
#include "lockstep/r500_raster.h"
#include "lockstep/r500_rb.h"
#include "lockstep/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- post-transform vertex (consumed by clipping/setup/rasterizer) ------- */

/* The attribute slots of a post-transform vertex, in the order VAP consumes
 * PVS output registers under VAP_OUTPUT_VTX_FMT_0/1 (model option
 * "vs-output-order"): position, point size, colours 0..3, texcoords 0..7. */
#define R500_VTX_SLOTS(S)                                                                     \
    S(POS, 0) S(PSIZE, 1) S(COL0, 2) S(COL1, 3) S(COL2, 4) S(COL3, 5) S(TEX0, 6) S(TEX1, 7)   \
    S(TEX2, 8) S(TEX3, 9) S(TEX4, 10) S(TEX5, 11) S(TEX6, 12) S(TEX7, 13)
typedef enum r500_vtx_slot {
#define R500_VTX_SLOT_ENUM_(n, v) R500_VTX_##n = v,
    R500_VTX_SLOTS(R500_VTX_SLOT_ENUM_)
#undef R500_VTX_SLOT_ENUM_
    R500_VTX_NSLOTS
} r500_vtx_slot;
const char *r500_vtx_slot_name(unsigned slot); /* "POS", "TEX3", ... */

/* Which slots a draw's vertices carry (same for every vertex of a draw). */
typedef struct r500_vtx_layout {
    uint32_t present;               /* bit per r500_vtx_slot */
    uint8_t comps[R500_VTX_NSLOTS]; /* components the format declares (POS 4, PSIZE 1,
                                       colours 4, texcoords VAP_OUTPUT_VTX_FMT_1 count) */
    uint8_t out_reg[R500_VTX_NSLOTS]; /* PVS output register (or bypass vector) it came from */
    uint8_t written[R500_VTX_NSLOTS]; /* channels (bit per x y z w) the program (or, in
                                         bypass, a stream's write mask) wrote for any vertex */
} r500_vtx_layout;

/* One post-transform vertex: clip-space position in v[R500_VTX_POS] and the
 * other present slots; components past comps[] are whatever the output
 * register held (the rasterizer should not read them). */
typedef struct r500_vtx {
    float v[R500_VTX_NSLOTS][4];
} r500_vtx;

/* ---- vertex formats (VAP_PROG_STREAM_CNTL DATA_TYPE) ---------------------- */

/* DT(name, value, bytes, components, kind); kind: F32, U8, D3DCOLOR, S16, F16.
 * r300_reg.h R300_DATA_TYPE_*; VECTOR_3_TTT/EET and FLOAT_8 (8, 9, 10) are
 * not emitted by Mesa and not modelled (LS_ERR_UNSUPPORTED). */
#define MESA_VF_DATA_TYPES(DT)                                                                \
    DT(FLOAT_1, 0, 4, 1, F32) DT(FLOAT_2, 1, 8, 2, F32) DT(FLOAT_3, 2, 12, 3, F32)             \
    DT(FLOAT_4, 3, 16, 4, F32) DT(BYTE, 4, 4, 4, U8) DT(D3DCOLOR, 5, 4, 4, D3DCOLOR)           \
    DT(SHORT_2, 6, 4, 2, S16) DT(SHORT_4, 7, 8, 4, S16) DT(FLT16_2, 11, 4, 2, F16)             \
    DT(FLT16_4, 12, 8, 4, F16)

/* Fields of one 16-bit half of VAP_PROG_STREAM_CNTL_n (PSC) and of
 * VAP_PROG_STREAM_CNTL_EXT_n (PSE): F(ID, lo, width). Stream 2n is bits 15:0
 * of register n, stream 2n+1 bits 31:16 (r300_reg.h DATA_TYPE_1_SHIFT 16,
 * SWIZZLE1_SHIFT 16). */
#define MESA_VF_PSC_FIELDS(F)                                                                 \
    F(DATA_TYPE, 0, 4) F(SKIP_DWORDS, 4, 4) F(DST_VEC_LOC, 8, 5) F(LAST_VEC, 13, 1)           \
    F(SIGNED, 14, 1) F(NORMALIZE, 15, 1)
#define MESA_VF_PSE_FIELDS(F)                                                                 \
    F(SWIZZLE_X, 0, 3) F(SWIZZLE_Y, 3, 3) F(SWIZZLE_Z, 6, 3) F(SWIZZLE_W, 9, 3)               \
    F(WRITE_ENA, 12, 4)

typedef struct mesa_vf_stream {
#define MESA_VF_FIELD_MEMBER_(id, lo, w) unsigned id;
    MESA_VF_PSC_FIELDS(MESA_VF_FIELD_MEMBER_)
    MESA_VF_PSE_FIELDS(MESA_VF_FIELD_MEMBER_)
#undef MESA_VF_FIELD_MEMBER_
    unsigned sgn_norm; /* VAP_PSC_SGN_NORM_CNTL: 2 bits for this stream */
} mesa_vf_stream;

/* Decode stream k (0..15) from the two registers' halves. */
void mesa_vf_stream_decode(uint32_t psc_half, uint32_t pse_half, unsigned sgn_norm,
                           mesa_vf_stream *s);
/* Convert one element of stream s at src (at least its format's bytes) into
 * the 4 components it delivers before the EXT swizzle (unsupplied components
 * 0, 0, 0, 1). Returns false for a data type that is not modelled. */
bool mesa_vf_fetch_element(const mesa_vf_stream *s, const uint8_t *src, float out[4]);
/* Bytes one element of a data type occupies (0 = not modelled). */
unsigned mesa_vf_type_bytes(unsigned data_type);
const char *mesa_vf_type_name(unsigned data_type);

/* ---- the executor ---------------------------------------------------------- */

/* A buffer object of a capture, named by relocation index. */
typedef struct mesa_bo {
    const uint8_t *data;
    size_t size;
} mesa_bo;

typedef struct mesa_exec_options {
    r500_pvs_options pvs;
    size_t max_vertices;     /* per draw; larger draws stop with a diagnostic */
    size_t max_total;        /* vertices over the whole stream */
    int raster_width, raster_height; /* target size for r500_raster_state_init (default 16) */
} mesa_exec_options;
void mesa_exec_options_default(mesa_exec_options *o);

typedef struct mesa_exec_draw {
    size_t ib_dword;       /* draw packet header */
    uint8_t opcode;        /* 0x34 VBUF_2, 0x35 IMMD_2, 0x36 INDX_2 */
    uint32_t vf_cntl;      /* the packet's VAP_VF_CNTL */
    unsigned prim;         /* VAP_VF_CNTL PRIM_TYPE */
    bool bypass;           /* VAP_CNTL_STATUS PVS_BYPASS */
    ls_status status;      /* LS_OK, or why this draw stopped */
    ls_diag diag;          /* names the packet and dword */
    r500_vtx_layout layout;
    r500_vtx *verts;       /* one per vertex in draw order (index order for INDX) */
    size_t nverts;
    const mesa_cs_draw *frag; /* fragment-side snapshot (mesa_cs_decode's), or NULL */
    r500_raster_state raster; /* the raster blocks' registers at the draw (every write
                                 r500_raster_state_write consumes, over
                                 r500_raster_state_init(raster_width, raster_height)) */
    float ucp[6][4];       /* user clip planes: PVS vectors 1536..1541 (r300_reg.h
                              R500_PVS_UCP_START), as uploaded at the draw */
    long cb_reloc[4];      /* relocation index of the buffer RB3D_COLOROFFSETn is an
                              offset into (the NOP after its write), -1: none */
    long zb_reloc;         /* the same for ZB_DEPTHOFFSET */
    long tx_reloc[16];     /* the same for TX_OFFSET_n (r300_emit_textures_state) */
} mesa_exec_draw;

/* The draw's vertices in the rasterizer's form (include/lockstep/r500_raster.h):
 * pos = POS; tex[] = the present TEX0..7 slots' declared components packed in
 * order (what RS_IP_n TEX_PTR_* index; model option "vs-rs-packing"); col[k] =
 * COLk. out holds dr->nverts vertices. */
void mesa_exec_raster_vertices(const mesa_exec_draw *dr, r500_vertex *out);

#define MESA_EXEC_PACKET3 0x80000000u /* mesa_exec_unknown.addr: a type-3 opcode */
typedef struct mesa_exec_unknown {
    uint32_t addr;  /* byte address, or MESA_EXEC_PACKET3 | opcode */
    uint32_t count; /* writes */
} mesa_exec_unknown;

/* An occlusion-query event of the stream, in order among the draws (Mesa
 * r300_emit.c r300_emit_query_start / rv530_emit_query_end_single_z /
 * r300_emit_query_end_frag_pipes): ZB_ZPASS_DATA sets the counter of the
 * samples that pass the Z and stencil tests; ZB_ZPASS_ADDR, followed by a
 * relocation, stores it at that byte offset of the relocation's buffer. */
typedef struct mesa_exec_zpass {
    size_t ib_dword;    /* the register write */
    size_t before_draw; /* draws of the stream before it */
    bool store;         /* false: ZB_ZPASS_DATA = value; true: ZB_ZPASS_ADDR */
    uint32_t value;     /* the value written (ZB_ZPASS_ADDR: the byte offset) */
    long reloc;         /* store: the relocation (-1: none could be read) */
    uint32_t pipes;     /* SU_REG_DEST / FG_ZBREG_DEST, whichever was written last
                           (0xf before either): the pipes the write reaches */
} mesa_exec_zpass;

typedef struct mesa_exec {
    mesa_exec_draw *draws;
    size_t ndraws;
    mesa_exec_zpass *zpass;     /* occlusion-query events in stream order */
    size_t nzpass;
    mesa_exec_unknown *unknown; /* registers neither table names, by address */
    size_t nunknown;
    mesa_cs cs;                 /* fragment-side snapshots */
} mesa_exec;

/* Walk every packet of ib (n dwords) keeping every register's state; relocs
 * is the relocation chunk (nrelocs_dw dwords, 4 per relocation) and bos[k]
 * the contents of relocation k's buffer (a {NULL, 0} entry: not captured).
 * A malformed packet stream returns LS_ERR_PARSE; a bad draw (relocation out
 * of range, fetch past a buffer, vertex count over the limit, PVS fault)
 * stops only that draw, recorded in its status/diag. o may be NULL (defaults). */
ls_status mesa_exec_stream(const char *name, const uint32_t *ib, size_t n,
                           const uint32_t *relocs, size_t nrelocs_dw, const mesa_bo *bos,
                           size_t nbos, const mesa_exec_options *o, mesa_exec *out, ls_diag *d);
void mesa_exec_free(mesa_exec *e);

/* The executed stream as JSON: per draw its packet, VAP_VF_CNTL, slots
 * present and every vertex's present components (or "error": the diagnostic),
 * then the unknown registers ({"reg": "0xADDR", "count": N}) and type-3
 * opcodes ({"packet3": "0xNN", "count": N}). docs/mesa.md shows an example. */
void mesa_exec_json(const mesa_exec *e, const char *name, ls_buf *b);

/* ---- the whole pipeline (src/mesa/render.c) -------------------------------- */

/* The colour buffer's size as the stream sets it up: the largest
 * SC_SCISSOR1 (XS1, YS1) + 1 over the draws (Mesa writes the framebuffer's
 * last pixel there when the GL scissor is off). False when no draw has one. */
bool mesa_exec_target_size(const mesa_exec *e, int *w, int *h);

typedef struct mesa_render_options {
    int width, height;          /* render target (r500_draw.width/height) */
    r500_raster_options raster; /* model options of the geometry blocks */
    unsigned workers;           /* fragment-run threads (r500_job.workers; 0 = cores) */
    r500_frag_out_fn out;       /* where fragments go (the render backend's hook), with */
    void *out_ctx;              /* its context: e.g. r500_target_store and an r500_target */
    /* Texture memory: relocation k's buffer object is bo_mem[k] (bo_size[k]
     * bytes, nbos relocations; NULL: none). The draw's 16 texture units are
     * bound from its TX_* registers, unit n reading the buffer its TX_OFFSET_n
     * relocation names (mesa_exec_draw.tx_reloc). */
    uint8_t *const *bo_mem;
    const size_t *bo_size;
    size_t nbos;
    const r500_tx_options *tx;  /* texture-unit model options (NULL: defaults) */
    const r500_rb_options *rb;  /* render-backend model options (NULL: defaults) */
    /* The fragment program's watchdog: instructions one thread may issue
     * (r500_exec_options.watchdog; 0: the job's default) and whether the
     * first thread past it stops the draw (watchdog_stops: the draw fails
     * with LS_ERR_FAULT and the thread's "watchdog: ..." diagnostic; the
     * live device's GPU hang). */
    uint64_t fs_watchdog;
    bool fs_watchdog_stops;
    /* The fragment unit's engine (r500_options.engine / .jit; docs/r500-jit.md):
     * R500_ENGINE_INTERP (0, the default), or R500_ENGINE_JIT with fs_jit
     * the JIT's table the caller installs (liblockstep_jit: r500_jit_ops(),
     * r500_jit_engine_ops()). The vertex unit's engine is the executor's
     * (mesa_exec_options.pvs.engine / .jit). */
    r500_engine fs_engine;
    const struct r500_engine_ops *fs_jit;
} mesa_render_options;

/* Draw k of an executed stream through clipping, set-up, scan conversion,
 * RS interpolation and its fragment program (the state of draw k's
 * snapshot); every covered, not killed pixel goes to o->out. The job's 16
 * samplers are bound first (mesa_exec_bind_textures). Adds to *st (may be
 * NULL). A draw that stopped in the executor returns its status and
 * diagnostic; a fragment-run error names the draw and its dword. */
ls_status mesa_exec_render_draw(const mesa_exec *e, size_t k, const mesa_render_options *o,
                                r500_raster_stats *st, ls_diag *d);

/* Bind job's 16 samplers for draw dr (r500_job_bind_tx_units): the TX_*
 * registers of its snapshot (TX_ENABLE, TX_FILTER0/1, TX_FILTER4,
 * TX_FORMAT0/1/2, TX_BORDER_COLOR, TX_OFFSET) and, for each enabled unit n,
 * the buffer object of relocation dr->tx_reloc[n] in bo_mem/bo_size. An
 * enabled unit without a relocation or captured buffer, or whose registers
 * describe a texture its buffer cannot hold (a pitch below the width, an
 * unknown format, a texture past the buffer's end) fails with a diagnostic
 * naming the register and the unit; nothing is read out of bounds. */
struct r500_job;
ls_status mesa_exec_bind_textures(struct r500_job *job, const mesa_exec_draw *dr,
                                  uint8_t *const *bo_mem, const size_t *bo_size, size_t nbos,
                                  const r500_tx_options *tx, ls_diag *d);

/* Every submission of a capture directory, cs_0000 … in order (until the
 * first missing number), each executed with its own relocations and buffer
 * objects; draws are numbered over all of them. */
typedef struct mesa_exec_all {
    mesa_exec *ex;
    size_t nex;
    size_t ndraws;
} mesa_exec_all;
ls_status mesa_exec_dir(const char *dir, const mesa_exec_options *o, mesa_exec_all *out,
                        ls_diag *d);
void mesa_exec_all_free(mesa_exec_all *a);
/* Draw n (over all submissions) through mesa_exec_render_draw. */
ls_status mesa_exec_all_render(const mesa_exec_all *a, size_t n, const mesa_render_options *o,
                               r500_raster_stats *st, ls_diag *d);

/* ---- the render backend over buffer objects (src/mesa/render_rb.c) --------- */

/* Where a draw's fragments go: with a colour buffer (RB3D_COLOROFFSET0
 * relocated to a buffer object the caller holds writable) through the
 * render backend (r500_rb_bind from the draw's register snapshot,
 * r500_rb_pixel_write per fragment) into that buffer object; without one,
 * the plain store (r500_target_store into `plain`, may be NULL). */
typedef struct mesa_rb_target {
    r500_rb rb;
    bool bound;             /* set by mesa_rb_bind_draw: true = render backend */
    r500_target *plain;     /* the fallback store */
    r500_rb_stats stats;    /* summed over the draws */
    /* r300's CBZB clear (docs/assumptions.md "cbzb-clear"), set by
     * mesa_rb_bind_draw: every fragment also stores cbzb_word, as the Z pipe
     * writes ZB_DEPTHCLEARVALUE, cbzb_dy rows further */
    bool cbzb;
    int cbzb_dy;
    uint32_t cbzb_word;
} mesa_rb_target;

/* Apply e's occlusion-query events (mesa_exec_zpass) from *next on whose
 * before_draw <= draws, in order: ZB_ZPASS_DATA sets *counter, ZB_ZPASS_ADDR
 * stores it (32 bits, little-endian) at its byte offset of the relocation's
 * buffer in bo_mem/bo_size when the write reaches pipe 0, 0 otherwise (model:
 * pipe 0 counts every sample, docs/assumptions.md "zpass-pipes"). A store
 * outside its buffer is skipped. Returns the stores made. */
size_t mesa_zpass_apply(const mesa_exec *e, size_t *next, size_t draws, uint32_t *counter,
                        uint8_t *const *bo_mem, const size_t *bo_size, size_t nbos);

/* Bind t for draw dr: bo_mem[k] / bo_size[k] are relocation k's buffers
 * (writable; the colour and depth buffers are written in place). Sets
 * t->bound; a register set the back end rejects returns its status. o may
 * be NULL (defaults). */
ls_status mesa_rb_bind_draw(mesa_rb_target *t, const mesa_exec_draw *dr, uint8_t *const *bo_mem,
                            const size_t *bo_size, size_t nbos, int width, int height,
                            const r500_rb_options *o, ls_diag *d);
/* The r500_frag_out_fn of a mesa_rb_target (context: the target). */
void mesa_rb_out(void *t, const r500_fragment *f);

/* The one way a draw of a stream runs over buffer objects (r500 draw, mesa
 * run/check, piglit replays and the live device): mesa_rb_bind_draw, then
 * mesa_exec_render_draw with the texture units bound to the same buffers
 * (o->bo_mem / bo_size / nbos are replaced by the arguments) and fragments
 * through mesa_rb_out into t. A draw without a colour buffer writes into
 * t->plain, or is not run when t->plain is NULL (returns LS_OK, t->bound
 * false). o->out / out_ctx are not used. Errors name the draw. */
ls_status mesa_render_bo_draw(const mesa_exec *e, size_t k, mesa_rb_target *t,
                              uint8_t *const *bo_mem, const size_t *bo_size, size_t nbos,
                              const mesa_render_options *o, r500_raster_stats *st, ls_diag *d);

/* A capture directory (docs/mesa.md "Capture directory"): cs_NNNN.ib,
 * cs_NNNN.relocs and cs_NNNN.bo_K (relocation K's buffer contents). */
typedef struct mesa_capture {
    uint32_t *ib;
    size_t n;
    uint32_t *relocs;
    size_t nrelocs_dw;
    mesa_bo *bos;
    uint8_t **bo_mem;
    size_t nbos;
} mesa_capture;
ls_status mesa_capture_load(const char *dir, unsigned cs_index, mesa_capture *c, ls_diag *d);
void mesa_capture_free(mesa_capture *c);

/* ---- replaying a capture directory over live buffer objects ----------------
 * (src/mesa/render_replay.c) Every submission cs_NNNN of a capture is
 * executed; its draws then run in order through mesa_render_bo_draw into
 * writable copies of the buffer objects. A buffer object is one GEM handle
 * (the relocation's first dword) over the whole capture: when a later
 * submission names the same handle, the copy the earlier draws wrote stays,
 * and only the bytes the capture shows changed since the handle's previous
 * capture (the CPU's writes: uploads, maps) are taken from the new capture
 * (model option "bo-carry", docs/assumptions.md). */
typedef struct mesa_replay_options {
    mesa_exec_options exec;
    unsigned first_cs;     /* first submission replayed (default 0) */
    unsigned max_cs;       /* at most this many submissions (0: all until a gap) */
    bool bo_carry;         /* "bo-carry" = merge (true, default) | capture */
    bool plain_unorm8;     /* the plain store rounds as RGBA8 stores (r500_target.unorm8) */
} mesa_replay_options;
void mesa_replay_options_default(mesa_replay_options *o);

typedef struct mesa_replay_bo {
    uint32_t handle;
    uint8_t *mem;          /* the live contents (owned) */
    size_t size;
    const uint8_t *synced; /* the capture it was last brought up to date with */
    size_t active_in;      /* submission that last activated it (+1; 0 none) */
    bool retired;          /* the handle now names another buffer */
} mesa_replay_bo;

typedef struct mesa_replay {
    mesa_exec_all all;     /* the executed submissions; draws numbered over all */
    mesa_capture *caps;    /* each submission's capture (its buffers stay loaded) */
    unsigned first_cs;
    mesa_replay_bo *bo;    /* live buffer objects by handle */
    size_t nbo;
    size_t cur;            /* submission whose buffers are active (+1; 0 none) */
    uint8_t **bo_mem;      /* the active submission's relocations -> live memory */
    size_t *bo_size;
    size_t nrel;
    mesa_rb_target rt;     /* the render backend; rt.rb: the last colour buffer bound */
    bool any_cb;           /* some draw of the frame's size wrote through a colour buffer */
    r500_rb frame;         /* the last such draw's binding: the frame read back */
    r500_target plain;     /* the fallback store (allocated at the first draw) */
    size_t next;           /* draws before this one have been run (or passed) */
    mesa_replay_options opt;
    uint32_t zpass;        /* the ZB's ZPASS counter (occlusion queries) */
    size_t zs, zn;         /* its events: submission zs's, from zn on, are still to apply */
} mesa_replay;

ls_status mesa_replay_open(const char *dir, const mesa_replay_options *o, mesa_replay *r,
                           ls_diag *d);
/* Run draw n (n >= every draw run before; draws in between are passed
 * without running, their submissions' buffers still carried) with the
 * width, height, raster, workers and model options of ro. */
ls_status mesa_replay_draw(mesa_replay *r, size_t n, const mesa_render_options *ro,
                           r500_raster_stats *st, ls_diag *d);
/* The frame as it stands (width x height float RGBA, row 0 = window y 0):
 * colour buffer 0 of the last draw that bound one, read back by decoding
 * its format and tiling (r500_rb_read_color); else the plain store's image
 * (zeros before any draw). */
void mesa_replay_frame(const mesa_replay *r, int width, int height, float *rgba);
/* The GEM handle of the buffer draw n renders into (its RB3D_COLOROFFSET0
 * relocation), or -1. A harness tells its own draws from r300's blits
 * (texture uploads draw into the texture's buffer) by it. */
long mesa_replay_cb_handle(const mesa_replay *r, size_t n);
/* Apply the occlusion-query stores that follow the last draw run in its
 * submission (mesa_zpass_apply), as the device does at the end of a
 * submission: before reading the buffer objects back. */
void mesa_replay_finish(mesa_replay *r);
void mesa_replay_free(mesa_replay *r);

/* Name of any R5xx 3D register by byte address (the vertex side's, the
 * fragment side's, the raster blocks', and those no stage models yet:
 * src/mesa/regnames.c), e.g. "ZB_CNTL", "TX_FORMAT0_3". False (and "") for
 * an address no table names. */
bool mesa_reg_name(uint32_t addr, char *buf, size_t n);

/* Name of a register the vertex side knows (byte address), or NULL. */
const char *mesa_vf_reg_name(uint32_t addr);


#ifdef __cplusplus
}
#endif
#endif
