/* PM4 command-stream decoder for the r300 driver's submissions.
 * Packet formats and register addresses: spec/r500.md §1 (GA_US_VECTOR_*,
 * US_* globals §1.9) and spec/mesa-capture.md ("How the inputs reach the
 * program"). The register addresses not in r500.md (viewport, RS, VAP, FG,
 * RB3D, ZB) are checked by tests/mesa against the corpus's program.json. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/json.h"
#include "lockstep/mesa.h"

#define GA_US_VECTOR_INDEX 0x4250u /* r500.md §1.1 */
#define GA_US_VECTOR_DATA 0x4254u
#define US_FC_BOOL_CONST 0x4620u    /* r500.md §1.9 */
#define US_FC_CTRL 0x4624u
#define US_CODE_ADDR 0x4630u
#define US_CODE_OFFSET 0x4638u
#define RS_IP_0 0x4074u
#define RS_COUNT 0x4300u
#define RS_INST_COUNT 0x4304u
#define RS_INST_0 0x4320u

#define NREGS 0x8000u   /* type-0 BASE_INDEX is 13 bits of dword index */
#define US_SLOTS 512u   /* INDEX[8:0] */

/* Registers reported in "regs", in program.json order. */
#define MESA_REGS(X)                                                                  \
    X(SE_VPORT_XSCALE, 0x1D98) X(SE_VPORT_XOFFSET, 0x1D9C) X(SE_VPORT_YSCALE, 0x1DA0)   \
    X(SE_VPORT_YOFFSET, 0x1DA4) X(SE_VPORT_ZSCALE, 0x1DA8) X(SE_VPORT_ZOFFSET, 0x1DAC)  \
    X(VAP_OUTPUT_VTX_FMT_0, 0x2090) X(VAP_OUTPUT_VTX_FMT_1, 0x2094)                     \
    X(VAP_VTE_CNTL, 0x20B0)                                                             \
    X(RS_IP_0, 0x4074) X(RS_IP_1, 0x4078) X(RS_IP_2, 0x407C) X(RS_IP_3, 0x4080)         \
    X(RS_IP_4, 0x4084) X(RS_IP_5, 0x4088) X(RS_IP_6, 0x408C) X(RS_IP_7, 0x4090)         \
    X(RS_COUNT, 0x4300) X(RS_INST_COUNT, 0x4304)                                        \
    X(RS_INST_0, 0x4320) X(RS_INST_1, 0x4324) X(RS_INST_2, 0x4328)                      \
    X(RS_INST_3, 0x432C) X(RS_INST_4, 0x4330) X(RS_INST_5, 0x4334)                      \
    X(RS_INST_6, 0x4338) X(RS_INST_7, 0x433C)                                           \
    X(US_CONFIG, 0x4600) X(US_PIXSIZE, 0x4604) X(US_FC_CTRL, 0x4624)                    \
    X(US_CODE_ADDR, 0x4630) X(US_CODE_RANGE, 0x4634) X(US_CODE_OFFSET, 0x4638)          \
    X(US_OUT_FMT_0, 0x46A4) X(US_OUT_FMT_1, 0x46A8) X(US_OUT_FMT_2, 0x46AC)             \
    X(US_OUT_FMT_3, 0x46B0) X(US_W_FMT, 0x46B4)                                         \
    X(FG_ALPHA_FUNC, 0x4BD4) X(FG_DEPTH_SRC, 0x4BD8) X(FG_FOG_BLEND, 0x4BC0)            \
    X(US_FC_INT_CONST_0, 0x4C00)                                                        \
    X(RB3D_CCTL, 0x4E00) X(RB3D_BLENDCNTL, 0x4E04) X(RB3D_COLOR_CHANNEL_MASK, 0x4E0C)   \
    X(RB3D_COLORPITCH0, 0x4E38) X(ZB_CNTL, 0x4F00) X(ZB_ZSTENCILCNTL, 0x4F04)

static const struct { const char *name; uint32_t addr; } mesa_regs[] = {
#define X(n, a) {#n, a},
    MESA_REGS(X)
#undef X
};

typedef struct cs_state {
    uint32_t reg[NREGS / 4];
    bool written[NREGS / 4];
    uint32_t inst[US_SLOTS][6];
    uint32_t cnst[US_SLOTS][4];
    bool cnst_written[US_SLOTS];
    unsigned vec_slot, vec_comp;
    bool vec_const;
} cs_state;

static void put_hex(ls_buf *b, uint32_t v) { ls_buf_printf(b, "\"0x%08x\"", v); }

static float as_float(uint32_t v)
{
    float f;
    memcpy(&f, &v, sizeof f);
    return f;
}

static uint32_t reg(const cs_state *s, uint32_t addr) { return s->reg[addr / 4]; }

static void write_reg(cs_state *s, uint32_t addr, uint32_t v)
{
    s->reg[addr / 4] = v;
    s->written[addr / 4] = true;
    if (addr == GA_US_VECTOR_INDEX) {
        /* r500.md §1.1: "INDEX[8:0] is the start slot. TYPE bit 16 selects 0 =
         * instructions, 1 = constants." */
        s->vec_slot = v & 0x1FFu;
        s->vec_const = (v >> 16) & 1u;
        s->vec_comp = 0;
    } else if (addr == GA_US_VECTOR_DATA) {
        /* "the GA then takes n×6 (instructions) or n×4 (constants) data
         * writes and auto-increments" */
        unsigned per = s->vec_const ? 4u : 6u;
        unsigned slot = s->vec_slot % US_SLOTS;
        if (s->vec_const) {
            s->cnst[slot][s->vec_comp] = v;
            s->cnst_written[slot] = true;
        } else {
            s->inst[slot][s->vec_comp] = v;
        }
        if (++s->vec_comp == per) {
            s->vec_comp = 0;
            s->vec_slot = (s->vec_slot + 1) % US_SLOTS;
        }
    }
}

static const char *draw_name(unsigned op)
{
    switch (op) {
    case 0x28: return "3D_DRAW_VBUF";
    case 0x29: return "3D_DRAW_IMMD";
    case 0x2A: return "3D_DRAW_INDX";
    case 0x34: return "3D_DRAW_VBUF_2";
    case 0x35: return "3D_DRAW_IMMD_2";
    case 0x36: return "3D_DRAW_INDX_2";
    default: return NULL;
    }
}

static void emit_rs(const cs_state *s, ls_buf *b)
{
    uint32_t count = reg(s, RS_COUNT), icount = reg(s, RS_INST_COUNT);
    unsigned n = (icount & 0xFu) + 1u;
    static const char *const swz[8] = {"tex_src[0]", "tex_src[1]", "tex_src[2]", "tex_src[3]",
                                       "0.0", "1.0", "6", "7"};
    ls_buf_printf(b, "{\"it_count\": %u, \"ic_count\": %u, \"w_addr\": %u, \"hires\": %s, "
                     "\"inst_count\": %u, \"ip\": [",
                  count & 0x7Fu, (count >> 7) & 0xFu, (count >> 12) & 0x3Fu,
                  (count >> 18) & 1u ? "true" : "false", n);
    for (unsigned i = 0; i < n && i < 8; i++) {
        uint32_t ip = reg(s, RS_IP_0 + 4 * i);
        /* R500 RS_IP_n: S/T/R/Q selects of 6 bits each, 62 = 0.0, 63 = 1.0
         * (mesa-capture.md); col_ptr 29:24, col_fmt 30:27?  see docs/mesa.md */
        const char *names[4] = {"S", "T", "R", "Q"};
        ls_buf_puts(b, i ? ", {" : "{");
        for (unsigned c = 0; c < 4; c++) {
            unsigned sel = (ip >> (6 * c)) & 0x3Fu;
            ls_buf_printf(b, "\"%s\": ", names[c]);
            if (sel == 62)
                ls_buf_puts(b, "\"0.0\"");
            else if (sel == 63)
                ls_buf_puts(b, "\"1.0\"");
            else if (sel < 4)
                ls_buf_printf(b, "\"%s\"", swz[sel]);
            else
                ls_buf_printf(b, "\"tex_src[%u]\"", sel);
            ls_buf_puts(b, ", ");
        }
        ls_buf_printf(b, "\"col_ptr\": %u, \"col_fmt\": %u, \"offset_en\": %s}",
                      (ip >> 24) & 0x7u, (ip >> 27) & 0xFu, (ip >> 31) & 1u ? "true" : "false");
    }
    ls_buf_puts(b, "], \"inst\": [");
    for (unsigned i = 0; i < n && i < 8; i++) {
        uint32_t in = reg(s, RS_INST_0 + 4 * i);
        ls_buf_printf(b,
                      "%s{\"tex_id\": %u, \"tex_write\": %s, \"tex_addr_temp\": %u, "
                      "\"col_id\": %u, \"col_write\": %u, \"col_addr_temp\": %u}",
                      i ? ", " : "", in & 0xFu, (in >> 4) & 1u ? "true" : "false",
                      (in >> 5) & 0x7Fu, (in >> 12) & 0xFu, (in >> 16) & 3u, (in >> 18) & 0x7Fu);
    }
    ls_buf_puts(b, "]}");
}

/* Extension to program.json: which temp each RS instruction preloads. The
 * RS cannot tell a varying from the WPOS texcoord (mesa-capture.md: WPOS is
 * "the last temp"), so "source" names the RS texcoord; see docs/mesa.md. */
static void emit_inputs(const cs_state *s, ls_buf *b)
{
    unsigned n = (reg(s, RS_INST_COUNT) & 0xFu) + 1u;
    bool first = true;
    ls_buf_puts(b, "[");
    for (unsigned i = 0; i < n && i < 8; i++) {
        uint32_t in = reg(s, RS_INST_0 + 4 * i);
        if ((in >> 4) & 1u) {
            ls_buf_printf(b, "%s{\"rs_inst\": %u, \"kind\": \"texcoord\", \"index\": %u, "
                             "\"temp\": %u}",
                          first ? "" : ", ", i, in & 0xFu, (in >> 5) & 0x7Fu);
            first = false;
        }
        if ((in >> 16) & 3u) {
            ls_buf_printf(b, "%s{\"rs_inst\": %u, \"kind\": \"color\", \"index\": %u, "
                             "\"temp\": %u}",
                          first ? "" : ", ", i, (in >> 12) & 0xFu, (in >> 18) & 0x7Fu);
            first = false;
        }
    }
    ls_buf_puts(b, "]");
}

static void emit_job(const cs_state *s, unsigned draw, const char *packet, size_t ib_dword,
                     ls_buf *b)
{
    uint32_t addr = reg(s, US_CODE_ADDR), off = reg(s, US_CODE_OFFSET) & 0x1FFu;
    unsigned start = addr & 0x1FFu, end = (addr >> 16) & 0x1FFu;
    ls_buf_printf(b, "{\n \"draw\": %u,\n \"packet\": \"%s\",\n \"ib_dword\": %zu,\n"
                     " \"us_code_start\": %u,\n \"us_code_end\": %u,\n \"us_inst\": [",
                  draw, packet, ib_dword, start, end);
    for (unsigned i = start; i <= end; i++) {
        const uint32_t *w = s->inst[(off + i) % US_SLOTS];
        ls_buf_puts(b, i == start ? "\n  [" : ",\n  [");
        for (unsigned k = 0; k < 6; k++) {
            if (k)
                ls_buf_puts(b, ", ");
            put_hex(b, w[k]);
        }
        ls_buf_puts(b, "]");
    }
    ls_buf_puts(b, "\n ],\n \"us_const\": {");
    bool first = true;
    for (unsigned i = 0; i < US_SLOTS; i++) {
        if (!s->cnst_written[i])
            continue;
        ls_buf_printf(b, "%s\n  \"%u\": {\"hex\": [", first ? "" : ",", i);
        for (unsigned k = 0; k < 4; k++) {
            if (k)
                ls_buf_puts(b, ", ");
            put_hex(b, s->cnst[i][k]);
        }
        ls_buf_puts(b, "], \"f32\": [");
        for (unsigned k = 0; k < 4; k++) {
            if (k)
                ls_buf_puts(b, ", ");
            ls_json_write_float(b, as_float(s->cnst[i][k]));
        }
        ls_buf_puts(b, "]}");
        first = false;
    }
    ls_buf_printf(b, "\n },\n \"fc_ctrl\": %u,\n \"fc_bool_const\": ", reg(s, US_FC_CTRL));
    if (s->written[US_FC_BOOL_CONST / 4])
        ls_buf_printf(b, "%u", reg(s, US_FC_BOOL_CONST));
    else
        ls_buf_puts(b, "null");
    ls_buf_puts(b, ",\n \"rs\": ");
    emit_rs(s, b);
    ls_buf_puts(b, ",\n \"inputs\": ");
    emit_inputs(s, b);
    ls_buf_puts(b, ",\n \"regs\": {");
    first = true;
    for (size_t i = 0; i < sizeof mesa_regs / sizeof mesa_regs[0]; i++) {
        if (!s->written[mesa_regs[i].addr / 4])
            continue;
        ls_buf_printf(b, "%s\n  \"%s\": ", first ? "" : ",", mesa_regs[i].name);
        put_hex(b, reg(s, mesa_regs[i].addr));
        first = false;
    }
    ls_buf_puts(b, "\n }\n}\n");
}

void ls_mesa_jobs_free(ls_mesa_jobs *j)
{
    if (!j)
        return;
    for (size_t i = 0; i < j->count; i++)
        free(j->json[i]);
    free(j->json);
    j->json = NULL;
    j->count = 0;
}

static ls_status bad(ls_diag *d, const char *file, size_t at, const char *msg)
{
    ls_diag_set(d, LS_ERR_PARSE, file, 0, 0, "%s (dword %zu)", msg, at);
    ls_diag_at_offset(d, (long)(at * 4));
    return LS_ERR_PARSE;
}

ls_status ls_mesa_cs_decode(const uint32_t *dw, size_t ndw, const char *file,
                            ls_mesa_jobs *out, ls_diag *d)
{
    out->count = 0;
    out->json = NULL;
    cs_state *s = calloc(1, sizeof *s);
    if (!s)
        return ls_diag_set(d, LS_ERR_NOMEM, file, 0, 0, "out of memory");
    ls_status st = LS_OK;
    unsigned draws = 0;
    size_t i = 0;
    while (i < ndw) {
        uint32_t h = dw[i];
        unsigned type = h >> 30;
        size_t n = ((h >> 16) & 0x3FFFu) + 1u; /* COUNT is payload dwords − 1 */
        if (type == 2) { /* filler */
            i++;
            continue;
        }
        if (type == 1) {
            st = bad(d, file, i, "type-1 packet is not used by r300 and not supported");
            break;
        }
        if (n > ndw - i - 1) {
            st = bad(d, file, i, "packet runs past the end of the command stream");
            break;
        }
        if (type == 0) {
            uint32_t base = (h & 0x1FFFu) * 4u;
            bool one_reg = (h >> 15) & 1u;
            for (size_t k = 0; k < n; k++) {
                uint32_t a = one_reg ? base : base + 4u * (uint32_t)k;
                if (a >= NREGS) {
                    st = bad(d, file, i, "type-0 packet writes past the register space");
                    goto done;
                }
                write_reg(s, a, dw[i + 1 + k]);
            }
        } else {
            unsigned op = (h >> 8) & 0xFFu;
            const char *name = draw_name(op);
            if (name) {
                ls_buf b;
                ls_buf_init(&b);
                emit_job(s, draws, name, i, &b);
                char **grown = realloc(out->json, (out->count + 1) * sizeof *grown);
                if (b.oom || !grown) {
                    if (grown)
                        out->json = grown;
                    ls_buf_free(&b);
                    st = ls_diag_set(d, LS_ERR_NOMEM, file, 0, 0, "out of memory");
                    goto done;
                }
                out->json = grown;
                out->json[out->count++] = b.data;
                draws++;
            }
        }
        i += 1 + n;
    }
done:
    free(s);
    if (st != LS_OK)
        ls_mesa_jobs_free(out);
    return st;
}
