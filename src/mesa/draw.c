/* Command-stream executor, front half: see include/lockstep/mesa_draw.h.
 * Register addresses and fields: Mesa r300_reg.h (R300_VAP_*, R500_VAP_*);
 * packet layouts: r300_emit.c / r300_render.c; relocations: the radeon
 * kernel CS checker (r100_cs_packet_next_reloc). Model options are named in
 * comments ("vf-...", "vs-...") and described in docs/assumptions.md. */
#include "lockstep/mesa_draw.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/json.h"
#include "lockstep/buf.h"
#include "lockstep/r500_raster.h"

/* ---- register table ------------------------------------------------------ */

/* R(name, byte address, count, stride): the vertex-side registers the
 * executor keeps and uses (r300_reg.h). */
#define MESA_VF_REGS(R)                                                                       \
    R(VAP_PORT_IDX0, 0x2040, 1)                                                               \
    R(VAP_CNTL, 0x2080, 1)                                                                    \
    R(VAP_VF_CNTL, 0x2084, 1)                                                                 \
    R(VAP_ALT_NUM_VERTICES, 0x2088, 1)                                                        \
    R(VAP_INDEX_OFFSET, 0x208C, 1)                                                            \
    R(VAP_VPORT_XSCALE, 0x2098, 1) R(VAP_VPORT_XOFFSET, 0x209C, 1)                            \
    R(VAP_VPORT_YSCALE, 0x20A0, 1) R(VAP_VPORT_YOFFSET, 0x20A4, 1)                            \
    R(VAP_VPORT_ZSCALE, 0x20A8, 1) R(VAP_VPORT_ZOFFSET, 0x20AC, 1)                            \
    R(VAP_VTX_SIZE, 0x20B4, 1)                                                                \
    R(VAP_VF_MAX_VTX_INDX, 0x2134, 1)                                                         \
    R(VAP_VF_MIN_VTX_INDX, 0x2138, 1)                                                         \
    R(VAP_CNTL_STATUS, 0x2140, 1)                                                             \
    R(VAP_PROG_STREAM_CNTL_, 0x2150, 8)                                                       \
    R(VAP_VTX_STATE_CNTL, 0x2180, 1)                                                          \
    R(VAP_VSM_VTX_ASSM, 0x2184, 1)                                                            \
    R(VAP_PSC_SGN_NORM_CNTL, 0x21DC, 1)                                                       \
    R(VAP_PROG_STREAM_CNTL_EXT_, 0x21E0, 8)                                                   \
    R(VAP_PVS_VECTOR_INDX_REG, 0x2200, 1)                                                     \
    R(VAP_PVS_UPLOAD_DATA, 0x2208, 1)                                                         \
    R(VAP_PVS_STATE_FLUSH_REG, 0x2284, 1)                                                     \
    R(VAP_PVS_FLOW_CNTL_LOOP_INDEX_, 0x2290, 16)                                              \
    R(VAP_PVS_CODE_CNTL_0, 0x22D0, 1)                                                         \
    R(VAP_PVS_CONST_CNTL, 0x22D4, 1)                                                          \
    R(VAP_PVS_CODE_CNTL_1, 0x22D8, 1)                                                         \
    R(VAP_PVS_FLOW_CNTL_OPC, 0x22DC, 1)                                                       \
    /* R500: ADDRS_LW_n at 0x2500 + 8n, ADDRS_UW_n at 0x2504 + 8n (Mesa emits  \
     * the 32 as one sequence, r300_emit_vs_state) */                                         \
    R(VAP_PVS_FLOW_CNTL_ADDRS_, 0x2500, 32)

enum {
#define R_ENUM_(n, a, c) n = a,
    MESA_VF_REGS(R_ENUM_)
#undef R_ENUM_
};

typedef struct vf_reg {
    const char *name;
    uint32_t addr, count;
} vf_reg;
static const vf_reg vf_regs[] = {
#define R_ROW_(n, a, c) {#n, a, c},
    MESA_VF_REGS(R_ROW_)
#undef R_ROW_
};

const char *mesa_vf_reg_name(uint32_t addr)
{
    /* Names of array registers carry their index: a thread-free table of
     * the 8 names each would be overkill, so arrays report their base name
     * followed by the index via the caller (mesa_exec_reg_label). */
    for (size_t i = 0; i < sizeof vf_regs / sizeof vf_regs[0]; i++)
        if (addr >= vf_regs[i].addr && addr < vf_regs[i].addr + 4 * vf_regs[i].count)
            return vf_regs[i].name;
    return NULL;
}

/* ---- data types ----------------------------------------------------------- */

enum { K_F32, K_U8, K_D3DCOLOR, K_S16, K_F16 };
typedef struct dt_row {
    const char *name;
    unsigned value, bytes, comps, kind;
} dt_row;
static const dt_row dt_rows[] = {
#define DT_ROW_(n, v, b, c, k) {#n, v, b, c, K_##k},
    MESA_VF_DATA_TYPES(DT_ROW_)
#undef DT_ROW_
};

static const dt_row *dt_of(unsigned v)
{
    for (size_t i = 0; i < sizeof dt_rows / sizeof dt_rows[0]; i++)
        if (dt_rows[i].value == v)
            return &dt_rows[i];
    return NULL;
}
unsigned mesa_vf_type_bytes(unsigned t)
{
    const dt_row *r = dt_of(t);
    return r ? r->bytes : 0;
}
const char *mesa_vf_type_name(unsigned t)
{
    const dt_row *r = dt_of(t);
    return r ? r->name : NULL;
}

void mesa_vf_stream_decode(uint32_t psc, uint32_t pse, unsigned sgn_norm, mesa_vf_stream *s)
{
#define GET_(id, lo, w) s->id = (unsigned)((psc >> (lo)) & ((1u << (w)) - 1u));
    MESA_VF_PSC_FIELDS(GET_)
#undef GET_
#define GET_(id, lo, w) s->id = (unsigned)((pse >> (lo)) & ((1u << (w)) - 1u));
    MESA_VF_PSE_FIELDS(GET_)
#undef GET_
    s->sgn_norm = sgn_norm & 3u;
}

/* IEEE half to float, exactly (every half is a float). */
static float half_to_float(uint16_t h)
{
    unsigned s = h >> 15, e = (h >> 10) & 31u, m = h & 1023u;
    float f;
    if (e == 0)
        f = ldexpf((float)m, -24);
    else if (e == 31)
        f = m ? NAN : INFINITY;
    else
        f = ldexpf((float)(m | 1024u), (int)e - 25);
    return s ? -f : f;
}

/* A signed normalized integer of n bits (r300_reg.h VAP_PSC_SGN_NORM_CNTL:
 * SGN_NORM_ZERO 0, SGN_NORM_ZERO_CLAMP_MINUS_ONE 1, SGN_NORM_NO_ZERO 2;
 * model option "vf-sgn-norm": ZERO maps v to v / (2^(n-1) - 1) without clamp,
 * ZERO_CLAMP_MINUS_ONE the same clamped to -1, NO_ZERO (2v + 1) / (2^n - 1);
 * value 3 is taken as NO_ZERO). */
static float snorm(int32_t v, unsigned bits, unsigned mode)
{
    double maxp = (double)((1u << (bits - 1)) - 1u);
    if (mode == 0)
        return (float)(v / maxp);
    if (mode == 1) {
        double f = v / maxp;
        return (float)(f < -1.0 ? -1.0 : f);
    }
    return (float)((2.0 * v + 1.0) / (double)((1u << bits) - 1u));
}

static uint16_t rd16(const uint8_t *p) { return (uint16_t)(p[0] | (p[1] << 8)); }
static uint32_t rd32(const uint8_t *p)
{
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}

bool mesa_vf_fetch_element(const mesa_vf_stream *s, const uint8_t *src, float out[4])
{
    const dt_row *r = dt_of(s->DATA_TYPE);
    if (!r)
        return false;
    out[0] = out[1] = out[2] = 0.0f;
    out[3] = 1.0f;
    for (unsigned c = 0; c < r->comps; c++) {
        switch (r->kind) {
        case K_F32: {
            uint32_t b = rd32(src + 4 * c);
            memcpy(&out[c], &b, 4);
            break;
        }
        case K_F16:
            out[c] = half_to_float(rd16(src + 2 * c));
            break;
        case K_U8:
        case K_D3DCOLOR: {
            /* D3DCOLOR: bytes in memory B, G, R, A deliver x = R, y = G,
             * z = B, w = A (r300_state_derived / r300_reg.h "D3DCOLOR";
             * model option "vf-d3dcolor"), always unsigned normalized. */
            unsigned idx = c;
            if (r->kind == K_D3DCOLOR)
                idx = c == 0 ? 2 : (c == 2 ? 0 : c);
            uint8_t b = src[idx];
            if (r->kind == K_D3DCOLOR)
                out[c] = (float)(b / 255.0);
            else if (s->SIGNED)
                out[c] = s->NORMALIZE ? snorm((int8_t)b, 8, s->sgn_norm) : (float)(int8_t)b;
            else
                out[c] = s->NORMALIZE ? (float)(b / 255.0) : (float)b;
            break;
        }
        case K_S16: {
            uint16_t h = rd16(src + 2 * c);
            if (s->SIGNED)
                out[c] = s->NORMALIZE ? snorm((int16_t)h, 16, s->sgn_norm) : (float)(int16_t)h;
            else
                out[c] = s->NORMALIZE ? (float)(h / 65535.0) : (float)h;
            break;
        }
        }
    }
    return true;
}

/* Apply the EXT swizzle and write mask to input register dst. Selects 0..3
 * pick a fetched component, 4 is 0.0, 5 is 1.0 (R300_SWIZZLE_SELECT_*); 6
 * and 7 are undocumented: model option "vf-swizzle-reserved" reads 0.0. */
static void route(const mesa_vf_stream *s, const float f[4], float dst[4])
{
    unsigned sel[4] = {s->SWIZZLE_X, s->SWIZZLE_Y, s->SWIZZLE_Z, s->SWIZZLE_W};
    for (int c = 0; c < 4; c++) {
        if (!((s->WRITE_ENA >> c) & 1u))
            continue;
        dst[c] = sel[c] < 4 ? f[sel[c]] : (sel[c] == 5 ? 1.0f : 0.0f);
    }
}

/* ---- executor state -------------------------------------------------------- */

#define PVS_VECS 2048   /* VAP_PVS_VECTOR_INDX_REG space: code 0..1023, consts 1024.. */
#define PVS_CONST_START 1024 /* r300_reg.h R500_PVS_CONST_START */
#define MAX_ARRAYS 16
#define BATCH 64

typedef struct vf_array {
    uint32_t size_dw, stride_dw, offset;
    long reloc; /* relocation index, -1 if none could be read */
} vf_array;

typedef struct xstate {
    uint32_t reg[MESA_CS_NREGS];
    uint32_t vec[PVS_VECS][4];
    uint32_t vec_index;
    unsigned vec_pending;
    uint32_t pending[4];
    size_t code_hwm; /* highest code vector uploaded + 1 */
    vf_array arr[MAX_ARRAYS];
    unsigned narr;
    char vbpntr_err[400]; /* set when the last VBPNTR could not be read */
    size_t total_verts;
    r500_raster_state raster;
    mesa_exec *out;
    uint32_t last_reg;     /* byte address of the last register a type-0 packet wrote */
    long cb_reloc[4];      /* relocation of RB3D_COLOROFFSETn (-1: none) */
    long zb_reloc;         /* relocation of ZB_DEPTHOFFSET (-1: none) */
    long tx_reloc[16];     /* relocation of TX_OFFSET_n (-1: none) */
    unsigned su_dest, fg_dest; /* SU_REG_DEST, FG_ZBREG_DEST pipe selects (mesa_exec_zpass) */
    size_t ib_at;          /* dword of the packet being walked */
} xstate;

static bool known_reg(uint32_t addr)
{
    if (mesa_vf_reg_name(addr) || mesa_cs_reg_name(addr))
        return true;
    return addr >= 0x4C00 && addr < 0x4C80; /* US_FC_INT_CONST_n (mesa_cs) */
}

static ls_status note_unknown(mesa_exec *e, uint32_t addr)
{
    for (size_t i = 0; i < e->nunknown; i++)
        if (e->unknown[i].addr == addr) {
            e->unknown[i].count++;
            return LS_OK;
        }
    mesa_exec_unknown *u = realloc(e->unknown, (e->nunknown + 1) * sizeof *u);
    if (!u)
        return LS_ERR_NOMEM;
    e->unknown = u;
    u[e->nunknown].addr = addr;
    u[e->nunknown].count = 1;
    e->nunknown++;
    return LS_OK;
}

static ls_status zpass_event(xstate *x, mesa_zpass_kind kind, uint32_t value, long reloc)
{
    mesa_exec *e = x->out;
    mesa_exec_zpass *z = realloc(e->zpass, (e->nzpass + 1) * sizeof *z);
    if (!z)
        return LS_ERR_NOMEM;
    e->zpass = z;
    z[e->nzpass++] = (mesa_exec_zpass){kind, e->ndraws, x->ib_at, x->su_dest & x->fg_dest & 0xfu,
                                       value, reloc};
    return LS_OK;
}

static ls_status write_reg(xstate *x, uint32_t addr, uint32_t val)
{
    /* the sample counter's registers (mesa_exec_zpass) */
    if (addr == 0x42c8u) /* SU_REG_DEST SELECT 3:0 */
        x->su_dest = val & 0xfu;
    else if (addr == 0x4be8u) /* RV530_FG_ZBREG_DEST (r300_reg.h), bits per pipe */
        x->fg_dest = val & 0xfu;
    else if (addr == 0x4f58u && zpass_event(x, MESA_ZPASS_SET, val, -1))
        return LS_ERR_NOMEM;
    uint32_t idx = addr / 4;
    if (idx >= MESA_CS_NREGS)
        return note_unknown(x->out, addr);
    x->reg[idx] = val;
    bool raster = r500_raster_state_write(&x->raster, addr, val);
    if (!raster && !known_reg(addr)) {
        ls_status st = note_unknown(x->out, addr);
        if (st)
            return st;
    }
    if (addr == VAP_PVS_VECTOR_INDX_REG) {
        /* r300_reg.h: a vector (16-byte) index; code at 0, constants at
         * R500_PVS_CONST_START. Bits past the 2048-vector space: model option
         * "vf-pvs-index-bits" keeps bits 10:0. */
        x->vec_index = val & (PVS_VECS - 1u);
        x->vec_pending = 0;
    } else if (addr == VAP_PVS_UPLOAD_DATA) {
        x->pending[x->vec_pending++] = val;
        if (x->vec_pending == 4) {
            memcpy(x->vec[x->vec_index], x->pending, 16);
            if (x->vec_index < PVS_CONST_START && x->vec_index + 1 > x->code_hwm)
                x->code_hwm = x->vec_index + 1;
            x->vec_index = (x->vec_index + 1) & (PVS_VECS - 1u);
            x->vec_pending = 0;
        }
    }
    return LS_OK;
}

static uint32_t R(const xstate *x, uint32_t addr) { return x->reg[addr / 4]; }

/* A relocation NOP (type-3 opcode 0x10, one data dword) at dword i: returns
 * the relocation index, or -1 with a message. */
static long read_reloc(const uint32_t *ib, size_t n, size_t i, size_t nrelocs_dw, char *msg,
                       size_t msz)
{
    if (i + 1 >= n || (ib[i] >> 30) != 3u || ((ib[i] >> 8) & 0xffu) != 0x10u ||
        ((ib[i] >> 16) & 0x3fffu) != 0) {
        snprintf(msg, msz, "dword %zu: expected a relocation NOP packet", i);
        return -1;
    }
    uint32_t off = ib[i + 1];
    if (off >= nrelocs_dw || off % 4u) {
        snprintf(msg, msz, "dword %zu: relocation offset %u outside the %zu-dword relocation "
                 "chunk", i + 1, off, nrelocs_dw);
        return -1;
    }
    return (long)(off / 4u);
}

static ls_status draw_fail(mesa_exec_draw *dr, ls_status st, const char *name, const char *fmt,
                           ...) __attribute__((format(printf, 4, 5)));
static ls_status draw_fail(mesa_exec_draw *dr, ls_status st, const char *name, const char *fmt,
                           ...)
{
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    const char *pn = mesa_cs_packet3_name(dr->opcode);
    dr->status = ls_diag_set(&dr->diag, st, name, 0, 0, "%s at dword %zu: %s", pn ? pn : "draw",
                             dr->ib_dword, msg);
    ls_diag_at_offset(&dr->diag, (long)(4 * dr->ib_dword));
    free(dr->verts);
    dr->verts = NULL;
    dr->nverts = 0;
    return dr->status;
}

typedef struct fetch_ctx {
    const mesa_bo *bos;
    size_t nbos;
    mesa_vf_stream st[16];
    unsigned nstreams;
    const uint32_t *immd;  /* IMMD_2 data, or NULL */
    size_t nimmd;
    unsigned vtx_size;
} fetch_ctx;

/* Inputs of vertex `index` into st->input. Returns 0 or writes msg. */
static int fetch_vertex(const xstate *x, const fetch_ctx *f, uint64_t index, size_t ordinal,
                        float (*input)[4], char *msg, size_t msz)
{
    size_t cursor = 0;
    for (unsigned k = 0; k < f->nstreams; k++) {
        const mesa_vf_stream *s = &f->st[k];
        unsigned bytes = mesa_vf_type_bytes(s->DATA_TYPE);
        if (!bytes) {
            snprintf(msg, msz, "stream %u: data type %u is not modelled", k, s->DATA_TYPE);
            return -1;
        }
        uint8_t tmp[16];
        if (f->immd) {
            /* Embedded data: each vertex is VAP_VTX_SIZE dwords, the streams
             * in order, each after SKIP_DWORDS (model option "vf-skip-dwords"). */
            cursor += s->SKIP_DWORDS;
            size_t dws = (bytes + 3) / 4;
            size_t at = (size_t)index * f->vtx_size + cursor;
            if (cursor + dws > f->vtx_size || at + dws > f->nimmd) {
                snprintf(msg, msz, "vertex %zu stream %u: embedded data past the packet "
                         "(VAP_VTX_SIZE %u)", ordinal, k, f->vtx_size);
                return -1;
            }
            for (size_t w = 0; w < dws && w < 4; w++) {
                uint32_t v = f->immd[at + w];
                memcpy(tmp + 4 * w, &v, 4); /* host little-endian: tests run on x86/arm LE */
            }
            cursor += dws;
        } else {
            if (k >= x->narr) {
                snprintf(msg, msz, "stream %u has no 3D_LOAD_VBPNTR array (%u arrays)%s%.150s", k,
                         x->narr, x->vbpntr_err[0] ? ": " : "", x->vbpntr_err);
                return -1;
            }
            const vf_array *a = &x->arr[k];
            if (a->reloc < 0) {
                snprintf(msg, msz, "array %u: %.200s", k, x->vbpntr_err);
                return -1;
            }
            if ((size_t)a->reloc >= f->nbos || !f->bos[a->reloc].data) {
                snprintf(msg, msz, "array %u: relocation %ld has no captured buffer", k, a->reloc);
                return -1;
            }
            const mesa_bo *bo = &f->bos[a->reloc];
            uint64_t off = (uint64_t)a->offset + index * 4u * a->stride_dw;
            if (off + bytes > bo->size) {
                snprintf(msg, msz, "vertex %zu (index %llu) array %u: bytes %llu..%llu past "
                         "relocation %ld's buffer (%zu bytes)", ordinal,
                         (unsigned long long)index, k, (unsigned long long)off,
                         (unsigned long long)(off + bytes - 1), a->reloc, bo->size);
                return -1;
            }
            memcpy(tmp, bo->data + off, bytes);
        }
        float v[4];
        mesa_vf_fetch_element(s, tmp, v);
        route(s, v, input[s->DST_VEC_LOC]);
    }
    return 0;
}

/* VAP_OUTPUT_VTX_FMT_0/1 → layout; output registers consumed in slot order
 * from 0 (model option "vs-output-order"). */
static void layout_of(const xstate *x, r500_vtx_layout *l)
{
    memset(l, 0, sizeof *l);
    uint32_t f0 = R(x, 0x2090), f1 = R(x, 0x2094);
    unsigned reg = 0;
    for (unsigned s = 0; s < R500_VTX_NSLOTS; s++) {
        unsigned comps = 0;
        if (s == R500_VTX_POS)
            comps = (f0 & 1u) ? 4 : 0;
        else if (s == R500_VTX_PSIZE)
            comps = (f0 >> 16) & 1u;
        else if (s <= R500_VTX_COL3)
            comps = ((f0 >> (1 + s - R500_VTX_COL0)) & 1u) ? 4 : 0;
        else
            comps = (f1 >> (3 * (s - R500_VTX_TEX0))) & 7u;
        if (comps > 4)
            comps = 4; /* 5..7 undocumented: model option "vs-tex-comp-reserved" */
        if (!comps)
            continue;
        l->present |= 1u << s;
        l->comps[s] = (uint8_t)comps;
        l->out_reg[s] = (uint8_t)reg++;
    }
}

static ls_status run_draw(xstate *x, const char *name, const uint32_t *ib, size_t n, size_t i,
                          size_t cnt, const uint32_t *relocs, size_t nrelocs_dw,
                          const mesa_bo *bos, size_t nbos, const mesa_exec_options *o,
                          mesa_exec_draw *dr, size_t *consumed)
{
    (void)relocs;
    uint8_t op = dr->opcode;
    if (op != 0x34 && op != 0x35 && op != 0x36)
        return draw_fail(dr, LS_ERR_UNSUPPORTED, name, "only the _2 draw packets are modelled");
    uint32_t vf = ib[i + 1];
    dr->vf_cntl = vf;
    dr->prim = vf & 0xfu;
    uint64_t nv = vf >> 16;
    if ((vf >> 14) & 1u) /* R500 USE_ALT_NUM_VERTS: VAP_ALT_NUM_VERTICES (24 bits) */
        nv = R(x, VAP_ALT_NUM_VERTICES) & 0xffffffu;
    if (nv > o->max_vertices)
        return draw_fail(dr, LS_ERR_RANGE, name, "dword %zu: %llu vertices exceed the limit %zu",
                         i + 1, (unsigned long long)nv, o->max_vertices);
    if (x->total_verts + nv > o->max_total)
        return draw_fail(dr, LS_ERR_RANGE, name, "dword %zu: %llu more vertices exceed the "
                         "stream limit %zu", i + 1, (unsigned long long)nv, o->max_total);
    x->total_verts += (size_t)nv;
    for (unsigned k = 0; k < 6; k++)
        memcpy(dr->ucp[k], x->vec[1536 + k], 16);
    dr->bypass = (R(x, VAP_CNTL_STATUS) >> 8) & 1u;

    fetch_ctx f;
    memset(&f, 0, sizeof f);
    f.bos = bos;
    f.nbos = nbos;
    /* Streams 0.. up to the first with LAST_VEC (at most 16). */
    uint32_t sgn = R(x, VAP_PSC_SGN_NORM_CNTL);
    for (unsigned k = 0; k < 16; k++) {
        uint32_t psc = R(x, VAP_PROG_STREAM_CNTL_ + 4 * (k / 2)) >> (16 * (k & 1));
        uint32_t pse = R(x, VAP_PROG_STREAM_CNTL_EXT_ + 4 * (k / 2)) >> (16 * (k & 1));
        mesa_vf_stream_decode(psc & 0xffffu, pse & 0xffffu, (sgn >> (2 * k)) & 3u, &f.st[k]);
        f.nstreams = k + 1;
        if (f.st[k].LAST_VEC)
            break;
        if (k == 15)
            return draw_fail(dr, LS_ERR_PARSE, name, "no VAP_PROG_STREAM_CNTL stream has "
                             "LAST_VEC set");
    }

    /* Indices. */
    uint32_t *idx = NULL;
    bool indexed = op == 0x36;
    if (op == 0x35) {
        f.immd = ib + i + 2;
        f.nimmd = cnt - 1;
        f.vtx_size = R(x, VAP_VTX_SIZE);
        if (f.vtx_size == 0 && nv)
            return draw_fail(dr, LS_ERR_PARSE, name, "VAP_VTX_SIZE is 0");
    }
    if (indexed && nv) {
        bool i32 = (vf >> 11) & 1u;
        idx = malloc((size_t)nv * sizeof *idx);
        if (!idx)
            return draw_fail(dr, LS_ERR_NOMEM, name, "out of memory");
        if (cnt > 1) {
            /* inline indices after VAP_VF_CNTL (r300_render.c immediate
             * elements): 16-bit pairs low half first, or 32-bit */
            size_t need = i32 ? (size_t)nv : (size_t)(nv + 1) / 2;
            if (need > cnt - 1) {
                free(idx);
                return draw_fail(dr, LS_ERR_PARSE, name, "%llu indices need %zu dwords, the "
                                 "packet has %zu", (unsigned long long)nv, need, cnt - 1);
            }
            for (size_t k = 0; k < nv; k++)
                idx[k] = i32 ? ib[i + 2 + k] : (ib[i + 2 + k / 2] >> (16 * (k & 1))) & 0xffffu;
        } else {
            /* INDX_BUFFER (type-3 0x33, 3 data dwords: port, byte offset,
             * size in dwords) and its relocation NOP follow the draw. */
            size_t j = i + 1 + cnt;
            char msg[200];
            if (j + 3 >= n || (ib[j] >> 30) != 3u || ((ib[j] >> 8) & 0xffu) != 0x33u ||
                ((ib[j] >> 16) & 0x3fffu) != 2u) {
                free(idx);
                return draw_fail(dr, LS_ERR_PARSE, name, "dword %zu: expected INDX_BUFFER", j);
            }
            uint32_t boff = ib[j + 2], bdw = ib[j + 3];
            long rl = read_reloc(ib, n, j + 4, nrelocs_dw, msg, sizeof msg);
            if (rl < 0) {
                free(idx);
                return draw_fail(dr, LS_ERR_PARSE, name, "INDX_BUFFER %s", msg);
            }
            *consumed = 4 + 2;
            if ((size_t)rl >= nbos || !bos[rl].data) {
                free(idx);
                return draw_fail(dr, LS_ERR_RANGE, name, "INDX_BUFFER (dword %zu): relocation "
                                 "%ld has no captured buffer", j, rl);
            }
            uint64_t need = i32 ? nv * 4 : nv * 2;
            if (need > (uint64_t)bdw * 4 || (uint64_t)boff + need > bos[rl].size) {
                free(idx);
                return draw_fail(dr, LS_ERR_RANGE, name, "INDX_BUFFER (dword %zu): %llu indices "
                                 "at byte %u past the buffer (%u dwords declared, %zu bytes in "
                                 "relocation %ld)", j, (unsigned long long)nv, boff, bdw,
                                 bos[rl].size, rl);
            }
            const uint8_t *p = bos[rl].data + boff;
            for (size_t k = 0; k < nv; k++)
                idx[k] = i32 ? rd32(p + 4 * k) : rd16(p + 2 * k);
        }
        /* R500 VAP_INDEX_OFFSET is added (model option "vf-index-offset")
         * and the sum clamped to VAP_VF_MIN/MAX_VTX_INDX ("vf-index-clamp").
         * The offset is 25 bits, two's complement: r300 writes
         * (bias & 0xFFFFFF) | (bias < 0 ? 1 << 24 : 0) (r300_render.c
         * r500_emit_index_bias), so bit 24 is the sign and bits 31:25 are
         * not part of it. */
        uint32_t off = R(x, VAP_INDEX_OFFSET) & 0x1ffffffu;
        int32_t bias = (off & 0x1000000u) ? (int32_t)off - 0x2000000 : (int32_t)off;
        uint32_t mn = R(x, VAP_VF_MIN_VTX_INDX), mx = R(x, VAP_VF_MAX_VTX_INDX);
        bool clamp = mx != 0 || mn != 0;
        for (size_t k = 0; k < nv; k++) {
            uint32_t v = idx[k] + (uint32_t)bias;
            if (clamp)
                v = v < mn ? mn : (v > mx ? mx : v);
            idx[k] = v;
        }
    }

    /* The vertex program. */
    uint32_t cc0 = R(x, VAP_PVS_CODE_CNTL_0);
    size_t first = cc0 & 0x3ffu, last = (cc0 >> 20) & 0x3ffu;
    if (!dr->bypass && nv && (last >= x->code_hwm || first > last)) {
        free(idx);
        return draw_fail(dr, LS_ERR_RANGE, name, "VAP_PVS_CODE_CNTL_0 names instructions %zu..%zu "
                         "but %zu were uploaded", first, last, x->code_hwm);
    }
    dr->verts = nv ? calloc((size_t)nv, sizeof *dr->verts) : NULL;
    r500_pvs_state *st = calloc(BATCH, sizeof *st);
    float(*consts)[4] = malloc(R500_PVS_NUM_CONSTS * sizeof *consts);
    if ((nv && !dr->verts) || !st || !consts) {
        free(idx);
        free(st);
        free(consts);
        return draw_fail(dr, LS_ERR_NOMEM, name, "out of memory");
    }
    /* The program's constant c[i] is vector PVS_CONST_START + base + i:
     * VAP_PVS_CONST_CNTL PVS_CONST_BASE_OFFSET (r300_reg.h: bits from 0;
     * PVS_MAX_CONST_ADDR from 16; "Addresses are relative to the vertex
     * program parameters area"). Mesa's r300 on R500 moves the base through
     * its 1024 constant vectors from draw to draw (r300_emit_vs_constants
     * uploads to R500_PVS_CONST_START + buffer_base). Past the vector space:
     * zero. */
    size_t cbase = PVS_CONST_START + (R(x, VAP_PVS_CONST_CNTL) & 0xffffu);
    memset(consts, 0, R500_PVS_NUM_CONSTS * sizeof *consts);
    if (cbase < PVS_VECS) {
        size_t nc = PVS_VECS - cbase < R500_PVS_NUM_CONSTS ? PVS_VECS - cbase : R500_PVS_NUM_CONSTS;
        memcpy(consts, x->vec[cbase], nc * sizeof *consts);
    }
    /* Vertex flow control (docs/r500-vs.md; Mesa writes these for every
     * program, zeros when it has no flow control). */
    r500_pvs_fc fc;
    fc.opc = R(x, VAP_PVS_FLOW_CNTL_OPC);
    for (unsigned k = 0; k < R500_PVS_FC_OPS; k++) {
        fc.addrs_lw[k] = R(x, VAP_PVS_FLOW_CNTL_ADDRS_ + 8 * k);
        fc.addrs_uw[k] = R(x, VAP_PVS_FLOW_CNTL_ADDRS_ + 8 * k + 4);
        fc.loop_index[k] = R(x, VAP_PVS_FLOW_CNTL_LOOP_INDEX_ + 4 * k);
    }
    dr->nverts = (size_t)nv;
    layout_of(x, &dr->layout);
    if (dr->bypass)
        for (unsigned s = 0; s < R500_VTX_NSLOTS; s++)
            for (unsigned k = 0; k < f.nstreams; k++)
                if (((dr->layout.present >> s) & 1u) && f.st[k].DST_VEC_LOC == dr->layout.out_reg[s])
                    dr->layout.written[s] |= (uint8_t)f.st[k].WRITE_ENA;
    ls_status ret = LS_OK;
    for (size_t b0 = 0; b0 < nv && ret == LS_OK; b0 += BATCH) {
        size_t nb = nv - b0 < BATCH ? (size_t)(nv - b0) : BATCH;
        memset(st, 0, nb * sizeof *st);
        for (size_t k = 0; k < nb; k++) {
            char msg[300];
            uint64_t index = indexed ? idx[b0 + k] : b0 + k;
            if (fetch_vertex(x, &f, index, b0 + k, st[k].input, msg, sizeof msg)) {
                ret = draw_fail(dr, LS_ERR_RANGE, name, "%s", msg);
                break;
            }
            if (dr->bypass) /* PVS bypass: input vector k is output k ("vs-bypass-map") */
                memcpy(st[k].out, st[k].input, sizeof st[k].out);
        }
        if (ret)
            break;
        if (!dr->bypass) {
            size_t fv = 0;
            ls_diag pd;
            ls_status ps = r500_pvs_run_vertices(&x->vec[0][0], x->code_hwm, first, last,
                                                 (const float(*)[4])consts, &fc, &o->pvs, st,
                                                 nb, &fv, NULL, &pd);
            if (ps) {
                ret = draw_fail(dr, ps, name, "vertex %zu: PVS instruction %ld: %s", b0 + fv,
                                pd.index, pd.msg);
                break;
            }
        }
        for (size_t k = 0; k < nb; k++)
            for (unsigned s = 0; s < R500_VTX_NSLOTS; s++)
                if ((dr->layout.present >> s) & 1u) {
                    unsigned r = dr->layout.out_reg[s];
                    memcpy(dr->verts[b0 + k].v[s], st[k].out[r], 16);
                    if (!dr->bypass)
                        dr->layout.written[s] |= st[k].out_written[r];
                }
    }
    free(idx);
    free(st);
    free(consts);
    return ret;
}

void mesa_exec_options_default(mesa_exec_options *o)
{
    memset(o, 0, sizeof *o);
    r500_pvs_options_default(&o->pvs);
    o->max_vertices = 1u << 20;
    o->max_total = 1u << 22;
    o->raster_width = o->raster_height = 16;
}

ls_status mesa_exec_stream(const char *name, const uint32_t *ib, size_t n,
                           const uint32_t *relocs, size_t nrelocs_dw, const mesa_bo *bos,
                           size_t nbos, const mesa_exec_options *o, mesa_exec *out, ls_diag *d)
{
    memset(out, 0, sizeof *out);
    mesa_exec_options defaults;
    if (!o) {
        mesa_exec_options_default(&defaults);
        o = &defaults;
    }
    ls_status st = mesa_cs_decode(name, ib, n, &out->cs, d);
    if (st)
        return st;
    xstate *x = calloc(1, sizeof *x);
    if (!x) {
        mesa_exec_free(out);
        return ls_diag_set(d, LS_ERR_NOMEM, name, 0, 0, "out of memory");
    }
    x->out = out;
    x->last_reg = UINT32_MAX;
    x->su_dest = x->fg_dest = 0xfu; /* su_reg_dest.txt: default 0xF */
    for (int t = 0; t < 4; t++)
        x->cb_reloc[t] = -1;
    x->zb_reloc = -1;
    for (int t = 0; t < 16; t++)
        x->tx_reloc[t] = -1;
    r500_raster_state_init(&x->raster, o->raster_width, o->raster_height);
    size_t i = 0;
    while (i < n) {
        uint32_t h = ib[i];
        unsigned type = h >> 30;
        uint32_t prev_reg = x->last_reg;
        x->last_reg = UINT32_MAX;
        x->ib_at = i;
        if (type == 0) {
            size_t cnt = ((h >> 16) & 0x3fffu) + 1;
            uint32_t base = (h & 0x1fffu) * 4;
            bool one = (h >> 15) & 1u;
            for (size_t k = 0; k < cnt && st == LS_OK; k++)
                st = write_reg(x, one ? base : base + 4 * (uint32_t)k, ib[i + 1 + k]);
            x->last_reg = one ? base : base + 4 * (uint32_t)(cnt - 1);
            i += 1 + cnt;
        } else if (type == 1) {
            st = write_reg(x, (h & 0x7ffu) * 4, ib[i + 1]);
            if (!st)
                st = write_reg(x, ((h >> 11) & 0x7ffu) * 4, ib[i + 2]);
            i += 3;
        } else if (type == 2) {
            i += 1;
        } else {
            size_t cnt = ((h >> 16) & 0x3fffu) + 1;
            uint8_t op = (uint8_t)((h >> 8) & 0xffu);
            size_t extra = 0;
            if (op == 0x2F) {
                /* 3D_LOAD_VBPNTR: VTX_NUM_ARRAYS 4:0, then per pair of arrays
                 * SIZE0 6:0 | STRIDE0 14:8 | SIZE1 22:16 | STRIDE1 30:24 (in
                 * dwords), their two byte offsets; then one relocation NOP per
                 * array (r300_emit_vertex_arrays). */
                unsigned na = ib[i + 1] & 0x1fu;
                x->narr = 0;
                x->vbpntr_err[0] = 0;
                size_t need = 1 + (3 * (size_t)na + 1) / 2;
                if (na > MAX_ARRAYS || need > cnt) {
                    snprintf(x->vbpntr_err, sizeof x->vbpntr_err,
                             "3D_LOAD_VBPNTR at dword %zu: %u arrays do not fit its %zu dwords",
                             i, na, cnt);
                } else {
                    for (unsigned a = 0; a < na; a++) {
                        uint32_t ctl = ib[i + 2 + 3 * (a / 2)];
                        unsigned sh = (a & 1) ? 16 : 0;
                        x->arr[a].size_dw = (ctl >> sh) & 0x7fu;
                        x->arr[a].stride_dw = (ctl >> (sh + 8)) & 0x7fu;
                        x->arr[a].offset = ib[i + 3 + 3 * (a / 2) + (a & 1)];
                        char msg[160];
                        x->arr[a].reloc = read_reloc(ib, n, i + 1 + cnt + 2 * a, nrelocs_dw, msg,
                                                     sizeof msg);
                        if (x->arr[a].reloc < 0 && !x->vbpntr_err[0])
                            snprintf(x->vbpntr_err, sizeof x->vbpntr_err,
                                     "3D_LOAD_VBPNTR at dword %zu: array %u: %s", i, a, msg);
                    }
                    x->narr = na;
                }
            } else if (op == 0x28 || op == 0x29 || op == 0x2A || op == 0x34 || op == 0x35 ||
                       op == 0x36) {
                mesa_exec_draw *nd = realloc(out->draws, (out->ndraws + 1) * sizeof *nd);
                if (!nd) {
                    st = ls_diag_set(d, LS_ERR_NOMEM, name, 0, 0, "out of memory");
                    break;
                }
                out->draws = nd;
                mesa_exec_draw *dr = &nd[out->ndraws++];
                memset(dr, 0, sizeof *dr);
                dr->ib_dword = i;
                dr->opcode = op;
                dr->raster = x->raster;
                memcpy(dr->cb_reloc, x->cb_reloc, sizeof dr->cb_reloc);
                dr->zb_reloc = x->zb_reloc;
                memcpy(dr->tx_reloc, x->tx_reloc, sizeof dr->tx_reloc);
                ls_diag_clear(&dr->diag);
                if (out->ndraws <= out->cs.ndraws)
                    dr->frag = &out->cs.draws[out->ndraws - 1];
                run_draw(x, name, ib, n, i, cnt, relocs, nrelocs_dw, bos, nbos, o, dr, &extra);
                if (dr->status == LS_ERR_NOMEM) {
                    st = ls_diag_set(d, LS_ERR_NOMEM, name, 0, 0, "out of memory");
                    break;
                }
            } else if (op == 0x10) {
                /* r300_emit_fb_state: OUT_CS_REG(RB3D_COLOROFFSETn / ZB_DEPTHOFFSET,
                 * offset) then OUT_CS_RELOC(buffer): the NOP right after the
                 * register write names the buffer the offset is into (the
                 * kernel's r300_packet0_check adds its address). */
                uint32_t a = prev_reg;
                /* r300_emit_textures_state likewise: OUT_CS_REG(TX_OFFSET_n,
                 * tile config) then OUT_CS_RELOC(texture) (r300.c adds the
                 * buffer's offset to TX_OFFSET_0..15, 0x4540..0x457c). */
                /* r300_emit_query_end: OUT_CS_REG(ZB_ZPASS_ADDR, byte offset)
                 * then OUT_CS_RELOC(query buffer); the kernel adds the
                 * buffer's address (r300.c), here the offset stays
                 * buffer-relative like the others. */
                if (a == 0x4f5cu) {
                    char msg[160];
                    long rl = read_reloc(ib, n, i, nrelocs_dw, msg, sizeof msg);
                    if (zpass_event(x, MESA_ZPASS_STORE, x->reg[0x4f5cu / 4], rl))
                        st = LS_ERR_NOMEM;
                }
                if ((a >= 0x4e28u && a <= 0x4e34u) || a == 0x4f20u ||
                    (a >= 0x4540u && a <= 0x457cu)) {
                    char msg[160];
                    long rl = read_reloc(ib, n, i, nrelocs_dw, msg, sizeof msg);
                    if (a == 0x4f20u)
                        x->zb_reloc = rl;
                    else if (a >= 0x4540u && a <= 0x457cu)
                        x->tx_reloc[(a - 0x4540u) / 4] = rl;
                    else if (a >= 0x4e28u && a <= 0x4e34u)
                        x->cb_reloc[(a - 0x4e28u) / 4] = rl;
                }
            } else if (op != 0x33) {
                st = note_unknown(out, MESA_EXEC_PACKET3 | op);
            }
            i += 1 + cnt;
            (void)extra; /* INDX_BUFFER and NOPs are walked as ordinary packets */
        }
        if (st) {
            if (st == LS_ERR_NOMEM)
                ls_diag_set(d, st, name, 0, 0, "out of memory");
            break;
        }
    }
    free(x);
    if (st) {
        mesa_exec_free(out);
        return st;
    }
    return LS_OK;
}

void mesa_exec_free(mesa_exec *e)
{
    for (size_t k = 0; k < e->ndraws; k++)
        free(e->draws[k].verts);
    free(e->draws);
    free(e->unknown);
    free(e->zpass);
    mesa_cs_free(&e->cs);
    memset(e, 0, sizeof *e);
}

const char *r500_vtx_slot_name(unsigned slot)
{
    static const char *const names[] = {
#define SN_(n, v) #n,
        R500_VTX_SLOTS(SN_)
#undef SN_
    };
    return slot < R500_VTX_NSLOTS ? names[slot] : NULL;
}

/* ---- capture directory ------------------------------------------------------ */

static ls_status load_words(const char *path, uint32_t **w, size_t *n, ls_diag *d)
{
    ls_buf b;
    ls_buf_init(&b);
    if (!ls_read_file(path, &b)) {
        ls_buf_free(&b);
        return ls_diag_set(d, LS_ERR_IO, path, 0, 0, "cannot read");
    }
    *n = b.len / 4;
    *w = malloc(*n * 4 + 4);
    if (!*w) {
        ls_buf_free(&b);
        return ls_diag_set(d, LS_ERR_NOMEM, path, 0, 0, "out of memory");
    }
    for (size_t k = 0; k < *n; k++)
        (*w)[k] = rd32((const uint8_t *)b.data + 4 * k);
    ls_buf_free(&b);
    return LS_OK;
}

ls_status mesa_capture_load(const char *dir, unsigned cs, mesa_capture *c, ls_diag *d)
{
    memset(c, 0, sizeof *c);
    char path[4096];
    snprintf(path, sizeof path, "%s/cs_%04u.ib", dir, cs);
    ls_status st = load_words(path, &c->ib, &c->n, d);
    if (st)
        return st;
    snprintf(path, sizeof path, "%s/cs_%04u.relocs", dir, cs);
    st = load_words(path, &c->relocs, &c->nrelocs_dw, d);
    if (st) {
        mesa_capture_free(c);
        return st;
    }
    c->nbos = c->nrelocs_dw / 4;
    c->bos = calloc(c->nbos + 1, sizeof *c->bos);
    c->bo_mem = calloc(c->nbos + 1, sizeof *c->bo_mem);
    if (!c->bos || !c->bo_mem) {
        mesa_capture_free(c);
        return ls_diag_set(d, LS_ERR_NOMEM, dir, 0, 0, "out of memory");
    }
    for (size_t k = 0; k < c->nbos; k++) {
        snprintf(path, sizeof path, "%s/cs_%04u.bo_%zu", dir, cs, k);
        ls_buf b;
        ls_buf_init(&b);
        if (!ls_read_file(path, &b)) { /* not captured: draws reading it stop */
            ls_buf_free(&b);
            continue;
        }
        c->bo_mem[k] = (uint8_t *)b.data; /* ownership moves to the capture */
        c->bos[k].data = c->bo_mem[k];
        c->bos[k].size = b.len;
    }
    return LS_OK;
}

void mesa_capture_free(mesa_capture *c)
{
    free(c->ib);
    free(c->relocs);
    if (c->bo_mem)
        for (size_t k = 0; k < c->nbos; k++)
            free(c->bo_mem[k]);
    free(c->bo_mem);
    free(c->bos);
    memset(c, 0, sizeof *c);
}

/* ---- JSON ---------------------------------------------------------------------- */

void mesa_exec_json(const mesa_exec *e, const char *name, ls_buf *b)
{
    ls_buf_puts(b, "{\n \"stream\": ");
    ls_json_write_string(b, name ? name : "");
    ls_buf_puts(b, ",\n \"draws\": [");
    for (size_t k = 0; k < e->ndraws; k++) {
        const mesa_exec_draw *dr = &e->draws[k];
        const char *pn = mesa_cs_packet3_name(dr->opcode);
        ls_buf_printf(b, "%s\n  {\"draw\": %zu, \"packet\": \"%s\", \"ib_dword\": %zu, "
                         "\"vf_cntl\": \"0x%08x\", \"prim\": %u, \"bypass\": %s, ",
                      k ? "," : "", k, pn ? pn : "?", dr->ib_dword, dr->vf_cntl, dr->prim,
                      dr->bypass ? "true" : "false");
        if (dr->status) {
            ls_buf_puts(b, "\"error\": ");
            ls_json_write_string(b, dr->diag.msg);
            ls_buf_puts(b, "}");
            continue;
        }
        ls_buf_puts(b, "\"slots\": {");
        bool first = true;
        for (unsigned s = 0; s < R500_VTX_NSLOTS; s++)
            if ((dr->layout.present >> s) & 1u) {
                ls_buf_printf(b, "%s\"%s\": {\"comps\": %u, \"out\": %u, \"written\": \"%s%s%s%s\"}",
                              first ? "" : ", ", r500_vtx_slot_name(s), dr->layout.comps[s],
                              dr->layout.out_reg[s], dr->layout.written[s] & 1 ? "x" : "",
                              dr->layout.written[s] & 2 ? "y" : "", dr->layout.written[s] & 4 ? "z" : "",
                              dr->layout.written[s] & 8 ? "w" : "");
                first = false;
            }
        ls_buf_puts(b, "},\n   \"vertices\": [");
        for (size_t v = 0; v < dr->nverts; v++) {
            ls_buf_puts(b, v ? ",\n    {" : "\n    {");
            first = true;
            for (unsigned s = 0; s < R500_VTX_NSLOTS; s++) {
                if (!((dr->layout.present >> s) & 1u))
                    continue;
                ls_buf_printf(b, "%s\"%s\": [", first ? "" : ", ", r500_vtx_slot_name(s));
                for (unsigned c = 0; c < dr->layout.comps[s]; c++) {
                    if (c)
                        ls_buf_puts(b, ", ");
                    ls_json_write_float(b, dr->verts[v].v[s][c]);
                }
                ls_buf_puts(b, "]");
                first = false;
            }
            ls_buf_puts(b, "}");
        }
        ls_buf_puts(b, "]}");
    }
    ls_buf_puts(b, "\n ],\n \"unknown_registers\": [");
    for (size_t k = 0; k < e->nunknown; k++) {
        uint32_t a = e->unknown[k].addr;
        if (a & MESA_EXEC_PACKET3)
            ls_buf_printf(b, "%s\n  {\"packet3\": \"0x%02x\", \"count\": %u}", k ? "," : "",
                          a & 0xffu, e->unknown[k].count);
        else {
            char nm[64];
            bool named = mesa_reg_name(a, nm, sizeof nm);
            ls_buf_printf(b, "%s\n  {\"reg\": \"0x%04x\", \"name\": %s%s%s, \"count\": %u}",
                          k ? "," : "", a, named ? "\"" : "", named ? nm : "null",
                          named ? "\"" : "", e->unknown[k].count);
        }
    }
    ls_buf_puts(b, "\n ]\n}\n");
}

void mesa_exec_raster_vertices(const mesa_exec_draw *dr, r500_vertex *out)
{
    for (size_t v = 0; v < dr->nverts; v++) {
        r500_vertex *o = &out[v];
        memset(o, 0, sizeof *o);
        const r500_vtx *in = &dr->verts[v];
        memcpy(o->pos, in->v[R500_VTX_POS], sizeof o->pos);
        if ((dr->layout.present >> R500_VTX_PSIZE) & 1u)
            o->psize = in->v[R500_VTX_PSIZE][0];
        unsigned t = 0;
        for (unsigned s = R500_VTX_TEX0; s <= R500_VTX_TEX7; s++)
            if ((dr->layout.present >> s) & 1u)
                for (unsigned c = 0; c < dr->layout.comps[s] && t < R500_RS_TEX_COMPONENTS; c++)
                    o->tex[t++] = in->v[s][c];
        for (unsigned k = 0; k < R500_RS_COLORS; k++)
            if ((dr->layout.present >> (R500_VTX_COL0 + k)) & 1u)
                memcpy(o->col[k], in->v[R500_VTX_COL0 + k], sizeof o->col[k]);
    }
}
