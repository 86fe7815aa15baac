/* PM4 command-stream decoder: see include/lockstep/mesa_cs.h. Register
 * addresses are those of Mesa's r300_reg.h / AMD's R5xx register reference
 * (spec/r500.md §1.1, §1.9; spec/mesa-capture.md §4); the corpus test checks
 * every one against corpus/mesa-r300/out/ * /program.json. */
#include "lockstep/mesa_cs.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/json.h"
#include "lockstep/r500.h"

#define GA_US_VECTOR_INDEX 0x4250
#define GA_US_VECTOR_DATA 0x4254

typedef struct reg_name {
    uint32_t addr;
    const char *name;
} reg_name;

static const reg_name reg_names[] = {
    {0x1D98, "SE_VPORT_XSCALE"},   {0x1D9C, "SE_VPORT_XOFFSET"},
    {0x1DA0, "SE_VPORT_YSCALE"},   {0x1DA4, "SE_VPORT_YOFFSET"},
    {0x1DA8, "SE_VPORT_ZSCALE"},   {0x1DAC, "SE_VPORT_ZOFFSET"},
    {0x2090, "VAP_OUTPUT_VTX_FMT_0"}, {0x2094, "VAP_OUTPUT_VTX_FMT_1"},
    {0x20B0, "VAP_VTE_CNTL"},
    {0x4074, "RS_IP_0"},  {0x4078, "RS_IP_1"},  {0x407C, "RS_IP_2"},  {0x4080, "RS_IP_3"},
    {0x4084, "RS_IP_4"},  {0x4088, "RS_IP_5"},  {0x408C, "RS_IP_6"},  {0x4090, "RS_IP_7"},
    {0x4250, "GA_US_VECTOR_INDEX"}, {0x4254, "GA_US_VECTOR_DATA"},
    {0x4300, "RS_COUNT"}, {0x4304, "RS_INST_COUNT"},
    {0x4320, "RS_INST_0"}, {0x4324, "RS_INST_1"}, {0x4328, "RS_INST_2"}, {0x432C, "RS_INST_3"},
    {0x4330, "RS_INST_4"}, {0x4334, "RS_INST_5"}, {0x4338, "RS_INST_6"}, {0x433C, "RS_INST_7"},
    {0x4600, "US_CONFIG"}, {0x4604, "US_PIXSIZE"},
    {0x4620, "US_FC_BOOL_CONST"}, {0x4624, "US_FC_CTRL"},
    {0x4630, "US_CODE_ADDR"}, {0x4634, "US_CODE_RANGE"}, {0x4638, "US_CODE_OFFSET"},
    {0x46A4, "US_OUT_FMT_0"}, {0x46A8, "US_OUT_FMT_1"}, {0x46AC, "US_OUT_FMT_2"},
    {0x46B0, "US_OUT_FMT_3"}, {0x46B4, "US_W_FMT"},
    {0x4BC0, "FG_FOG_BLEND"}, {0x4BD4, "FG_ALPHA_FUNC"}, {0x4BD8, "FG_DEPTH_SRC"},
    {0x4E00, "RB3D_CCTL"}, {0x4E04, "RB3D_BLENDCNTL"}, {0x4E0C, "RB3D_COLOR_CHANNEL_MASK"},
    {0x4E38, "RB3D_COLORPITCH0"},
    {0x4F00, "ZB_CNTL"}, {0x4F04, "ZB_ZSTENCILCNTL"},
};

const char *mesa_cs_reg_name(uint32_t addr)
{
    for (size_t i = 0; i < sizeof reg_names / sizeof reg_names[0]; i++)
        if (reg_names[i].addr == addr)
            return reg_names[i].name;
    return NULL;
}

bool mesa_cs_reg_addr(const char *name, uint32_t *addr)
{
    for (size_t i = 0; i < sizeof reg_names / sizeof reg_names[0]; i++)
        if (!strcmp(reg_names[i].name, name)) {
            *addr = reg_names[i].addr;
            return true;
        }
    /* US_FC_INT_CONST_n, n = 0..31 without leading zeros, at 0x4C00 + 4n */
    const char *p = "US_FC_INT_CONST_";
    if (strncmp(name, p, strlen(p)))
        return false;
    const char *k = name + strlen(p);
    if (!(k[0] >= '0' && k[0] <= '9') || (k[0] == '0' && k[1]) || strlen(k) > 2 ||
        (k[1] && !(k[1] >= '0' && k[1] <= '9')))
        return false;
    unsigned n = (unsigned)atoi(k);
    if (n >= 32)
        return false;
    *addr = 0x4C00 + 4 * n;
    return true;
}

/* US_FC_INT_CONST_n lives at 0x4C00 + 4n (r500.md §1.9). */
static bool int_const_index(uint32_t addr, unsigned *n)
{
    if (addr >= 0x4C00 && addr < 0x4C80) {
        *n = (addr - 0x4C00) / 4;
        return true;
    }
    return false;
}

const char *mesa_cs_packet3_name(uint8_t op)
{
    switch (op) {
    case 0x10: return "NOP";
    case 0x28: return "3D_DRAW_VBUF";
    case 0x29: return "3D_DRAW_IMMD";
    case 0x2A: return "3D_DRAW_INDX";
    case 0x2F: return "3D_LOAD_VBPNTR";
    case 0x32: return "3D_CLEAR_ZMASK";
    case 0x33: return "INDX_BUFFER";
    case 0x34: return "3D_DRAW_VBUF_2";
    case 0x35: return "3D_DRAW_IMMD_2";
    case 0x36: return "3D_DRAW_INDX_2";
    case 0x37: return "3D_CLEAR_HIZ";
    case 0x38: return "3D_CLEAR_CMASK";
    }
    return NULL;
}

static bool is_draw(uint8_t op)
{
    return op == 0x28 || op == 0x29 || op == 0x2A || op == 0x34 || op == 0x35 || op == 0x36;
}

typedef struct vec_upload {
    uint32_t index;     /* GA_US_VECTOR_INDEX: INDEX 8:0 */
    bool constants;     /* TYPE bit 16 */
    bool clamp;         /* CLAMP bit 17: constants clamped to [-1, 1] */
    uint32_t pending[6];
    unsigned npending;
} vec_upload;

static float clamp1(float f)
{
    return f < -1.0f ? -1.0f : (f > 1.0f ? 1.0f : f);
}

static void write_reg(mesa_cs_state *s, vec_upload *v, uint32_t addr, uint32_t val)
{
    uint32_t idx = addr / 4;
    if (idx >= MESA_CS_NREGS)
        return;
    s->reg[idx] = val;
    s->written[idx] = 1;
    if (addr == GA_US_VECTOR_INDEX) {
        /* r500.md §1.1: INDEX[8:0] is the start slot, TYPE bit 16, CLAMP bit 17 */
        v->index = val & 0x1ffu;
        v->constants = (val >> 16) & 1u;
        v->clamp = (val >> 17) & 1u;
        v->npending = 0;
    } else if (addr == GA_US_VECTOR_DATA) {
        v->pending[v->npending++] = val;
        unsigned per = v->constants ? 4 : 6;
        if (v->npending == per) {
            if (v->constants) {
                if (v->index < 256) {
                    for (int k = 0; k < 4; k++) {
                        uint32_t b = v->pending[k];
                        if (v->clamp) {
                            float f;
                            memcpy(&f, &b, 4);
                            if (!isnan(f))
                                f = clamp1(f);
                            memcpy(&b, &f, 4);
                        }
                        s->us_const[v->index][k] = b;
                    }
                    s->us_const_set[v->index] = true;
                }
            } else if (v->index < 512) {
                memcpy(s->us_inst[v->index], v->pending, sizeof s->us_inst[0]);
                s->us_inst_set[v->index] = true;
            }
            v->index++;
            v->npending = 0;
        }
    }
}

ls_status mesa_cs_decode(const char *name, const uint32_t *dw, size_t n, mesa_cs *out,
                         ls_diag *d)
{
    memset(out, 0, sizeof *out);
    mesa_cs_state *s = calloc(1, sizeof *s);
    if (!s)
        return ls_diag_set(d, LS_ERR_NOMEM, name, 0, 0, "out of memory");
    vec_upload v;
    memset(&v, 0, sizeof v);
    size_t i = 0;
    ls_status st = LS_OK;
    while (i < n) {
        uint32_t h = dw[i];
        unsigned type = h >> 30;
        if (type == 0) {
            /* type-0: COUNT 29:16 (+1 dwords), ONE_REG_WR 15, BASE_INDEX 12:0 */
            size_t cnt = ((h >> 16) & 0x3fffu) + 1;
            uint32_t base = (h & 0x1fffu) * 4;
            bool one = (h >> 15) & 1u;
            if (i + 1 + cnt > n) {
                st = ls_diag_set(d, LS_ERR_PARSE, name, 0, 0,
                                 "type-0 packet at dword %zu: %zu data dwords run past the end "
                                 "(%zu dwords)",
                                 i, cnt, n);
                ls_diag_at_offset(d, (long)(4 * i));
                goto fail;
            }
            for (size_t k = 0; k < cnt; k++)
                write_reg(s, &v, one ? base : base + 4 * (uint32_t)k, dw[i + 1 + k]);
            i += 1 + cnt;
        } else if (type == 1) {
            /* type-1: two registers, REG0 10:0 and REG1 21:11 (dword indices) */
            if (i + 2 >= n) {
                st = ls_diag_set(d, LS_ERR_PARSE, name, 0, 0,
                                 "type-1 packet at dword %zu is truncated", i);
                ls_diag_at_offset(d, (long)(4 * i));
                goto fail;
            }
            write_reg(s, &v, (h & 0x7ffu) * 4, dw[i + 1]);
            write_reg(s, &v, ((h >> 11) & 0x7ffu) * 4, dw[i + 2]);
            i += 3;
        } else if (type == 2) {
            i += 1; /* filler */
        } else {
            /* type-3: IT_OPCODE 15:8, COUNT 29:16 (+1 dwords) */
            size_t cnt = ((h >> 16) & 0x3fffu) + 1;
            uint8_t op = (uint8_t)((h >> 8) & 0xffu);
            if (i + 1 + cnt > n) {
                st = ls_diag_set(d, LS_ERR_PARSE, name, 0, 0,
                                 "type-3 packet 0x%02x at dword %zu: %zu data dwords run past "
                                 "the end (%zu dwords)",
                                 op, i, cnt, n);
                ls_diag_at_offset(d, (long)(4 * i));
                goto fail;
            }
            if (is_draw(op)) {
                mesa_cs_draw *nd = realloc(out->draws, (out->ndraws + 1) * sizeof *nd);
                if (!nd) {
                    st = ls_diag_set(d, LS_ERR_NOMEM, name, 0, 0, "out of memory");
                    goto fail;
                }
                out->draws = nd;
                nd[out->ndraws].ib_dword = i;
                nd[out->ndraws].opcode = op;
                memcpy(&nd[out->ndraws].state, s, sizeof *s);
                out->ndraws++;
            }
            i += 1 + cnt;
        }
    }
    free(s);
    return LS_OK;
fail:
    free(s);
    mesa_cs_free(out);
    return st;
}

void mesa_cs_free(mesa_cs *cs)
{
    free(cs->draws);
    memset(cs, 0, sizeof *cs);
}

static uint32_t R(const mesa_cs_state *s, uint32_t addr)
{
    return s->reg[addr / 4];
}

static void ptr_name(ls_buf *b, unsigned p)
{
    /* RS_IP: a pointer 62 means the constant 0.0, 63 means 1.0 (mesa-capture.md §4) */
    if (p == 62)
        ls_buf_puts(b, "\"0.0\"");
    else if (p == 63)
        ls_buf_puts(b, "\"1.0\"");
    else
        ls_buf_printf(b, "\"tex_src[%u]\"", p);
}

void mesa_cs_job_json(const mesa_cs_draw *dr, size_t draw_index, ls_buf *b)
{
    const mesa_cs_state *s = &dr->state;
    uint32_t off = R(s, 0x4638) & 0x1ffu;
    uint32_t code_addr = R(s, 0x4630);
    unsigned start = code_addr & 0x1ffu, end = (code_addr >> 16) & 0x1ffu;
    const char *pname = mesa_cs_packet3_name(dr->opcode);
    ls_buf_printf(b, "{\n \"draw\": %zu,\n \"packet\": \"%s\",\n \"ib_dword\": %zu,\n", draw_index,
                  pname ? pname : "?", dr->ib_dword);
    ls_buf_printf(b, " \"us_code_start\": %u,\n \"us_code_end\": %u,\n \"us_inst\": [", start, end);
    for (unsigned k = start; k <= end && k + off < 512; k++) {
        const uint32_t *w = s->us_inst[k + off];
        ls_buf_printf(b, "%s\n  [\"0x%08x\", \"0x%08x\", \"0x%08x\", \"0x%08x\", \"0x%08x\", \"0x%08x\"]",
                      k == start ? "" : ",", w[0], w[1], w[2], w[3], w[4], w[5]);
    }
    ls_buf_puts(b, "\n ],\n \"us_const\": {");
    bool first = true;
    for (unsigned k = 0; k < 256; k++) {
        if (!s->us_const_set[k])
            continue;
        ls_buf_printf(b, "%s\n  \"%u\": {\"hex\": [", first ? "" : ",", k);
        for (int c = 0; c < 4; c++)
            ls_buf_printf(b, "%s\"0x%08x\"", c ? ", " : "", s->us_const[k][c]);
        ls_buf_puts(b, "], \"f32\": [");
        for (int c = 0; c < 4; c++) {
            float f;
            memcpy(&f, &s->us_const[k][c], 4);
            if (c)
                ls_buf_puts(b, ", ");
            ls_json_write_float(b, f);
        }
        ls_buf_puts(b, "]}");
        first = false;
    }
    ls_buf_puts(b, "\n },\n");
    ls_buf_printf(b, " \"fc_ctrl\": %u,\n", R(s, 0x4624));
    if (s->written[0x4620 / 4])
        ls_buf_printf(b, " \"fc_bool_const\": %u,\n", R(s, 0x4620));
    else
        ls_buf_puts(b, " \"fc_bool_const\": null,\n");
    /* RS: which temp receives which interpolated input (mesa-capture.md §4) */
    uint32_t count = R(s, 0x4300), icount = R(s, 0x4304);
    unsigned ninst = (icount & 0xfu) + 1;
    ls_buf_printf(b, " \"rs\": {\"it_count\": %u, \"ic_count\": %u, \"w_addr\": %u, \"hires\": %s, "
                     "\"inst_count\": %u, \"ip\": [",
                  count & 0x7fu, (count >> 7) & 0xfu, (count >> 12) & 0x3fu,
                  (count >> 18) & 1u ? "true" : "false", ninst);
    for (unsigned k = 0; k < ninst && k < 8; k++) {
        uint32_t ip = R(s, 0x4074 + 4 * k);
        ls_buf_puts(b, k ? ", {" : "{");
        static const char *cn[4] = {"S", "T", "R", "Q"};
        for (int c = 0; c < 4; c++) {
            ls_buf_printf(b, "\"%s\": ", cn[c]);
            ptr_name(b, (ip >> (6 * c)) & 0x3fu);
            ls_buf_puts(b, ", ");
        }
        ls_buf_printf(b, "\"col_ptr\": %u, \"col_fmt\": %u, \"offset_en\": %s}", (ip >> 24) & 7u,
                      (ip >> 27) & 0xfu, (ip >> 31) ? "true" : "false");
    }
    ls_buf_puts(b, "], \"inst\": [");
    for (unsigned k = 0; k < ninst && k < 8; k++) {
        uint32_t in = R(s, 0x4320 + 4 * k);
        /* R500 RS_INST: TEX_ID 3:0, TEX_CN_WRITE 4, TEX_ADDR 11:5, COL_ID 15:12,
         * COL_CN 17:16 (0 none, 1 write, 2 fbuffer, 3 backface), COL_ADDR 24:18 */
        ls_buf_printf(b, "%s{\"tex_id\": %u, \"tex_write\": %s, \"tex_addr_temp\": %u, "
                         "\"col_id\": %u, \"col_write\": %u, \"col_addr_temp\": %u}",
                      k ? ", " : "", in & 0xfu, (in >> 4) & 1u ? "true" : "false", (in >> 5) & 0x7fu,
                      (in >> 12) & 0xfu, (in >> 16) & 3u, (in >> 18) & 0x7fu);
    }
    ls_buf_puts(b, "]},\n \"regs\": {");
    first = true;
    for (uint32_t idx = 0; idx < MESA_CS_NREGS; idx++) {
        if (!s->written[idx])
            continue;
        uint32_t addr = idx * 4;
        const char *nm = mesa_cs_reg_name(addr);
        char tmp[32];
        unsigned ic;
        if (!nm && int_const_index(addr, &ic)) {
            snprintf(tmp, sizeof tmp, "US_FC_INT_CONST_%u", ic);
            nm = tmp;
        }
        if (!nm || addr == GA_US_VECTOR_INDEX || addr == GA_US_VECTOR_DATA)
            continue;
        ls_buf_printf(b, "%s\n  \"%s\": \"0x%08x\"", first ? "" : ",", nm, s->reg[idx]);
        first = false;
    }
    ls_buf_puts(b, "\n }\n}\n");
}

int mesa_cs_set_inputs(const mesa_cs_draw *dr, bool fragcoord, r500_job *job)
{
    /* RS_COUNT / RS_INST_COUNT at 0x4304: instructions - 1 in bits 3:0;
     * RS_INST_n at 0x4320 + 4n: TEX_CN_WRITE bit 4, TEX_ADDR bits 11:5. */
    unsigned n = (dr->state.reg[0x4304 / 4] & 0xFu) + 1u;
    int last = -1;
    for (unsigned i = 0; i < n && i < 16; i++) {
        uint32_t in = dr->state.reg[(0x4320 + 4 * i) / 4];
        if ((in >> 4) & 1u) {
            unsigned t = (in >> 5) & 0x7Fu;
            if (t < R500_NUM_TEMPS) {
                job->inputs[t].kind = R500_INPUT_UV;
                last = (int)t;
            }
        }
    }
    if (fragcoord && last >= 0) {
        job->inputs[last].kind = R500_INPUT_CLIP;
        return last;
    }
    return -1;
}

void mesa_cs_rs_map_of(const mesa_cs_draw *dr, mesa_cs_rs_map *m)
{
    memset(m, 0, sizeof *m);
    unsigned n = (dr->state.reg[0x4304 / 4] & 0xFu) + 1u;
    for (unsigned i = 0; i < n && i < 16; i++) {
        uint32_t in = dr->state.reg[(0x4320 + 4 * i) / 4];
        if ((in >> 4) & 1u)
            m->tex[m->ntex++] = (int)((in >> 5) & 0x7Fu);
        if (((in >> 16) & 3u) == 1u)
            m->col[m->ncol++] = (int)((in >> 18) & 0x7Fu);
    }
}

ls_status mesa_cs_decode_bytes(const char *name, const void *bytes, size_t len, mesa_cs *out,
                               ls_diag *d)
{
    memset(out, 0, sizeof *out);
    if (len % 4) {
        ls_diag_set(d, LS_ERR_PARSE, name, 0, 0, "%zu bytes is not a whole number of dwords", len);
        ls_diag_at_offset(d, (long)(len - len % 4));
        return LS_ERR_PARSE;
    }
    size_t n = len / 4;
    uint32_t *dw = malloc(n ? n * 4 : 4);
    if (!dw)
        return ls_diag_set(d, LS_ERR_NOMEM, name, 0, 0, "out of memory");
    const uint8_t *p = bytes;
    for (size_t k = 0; k < n; k++, p += 4)
        dw[k] = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
    ls_status st = mesa_cs_decode(name, dw, n, out, d);
    free(dw);
    return st;
}

ls_status mesa_cs_jobs_json(const mesa_cs *cs, const char *name, long which, ls_buf *b, ls_diag *d)
{
    if (cs->ndraws == 0)
        return ls_diag_set(d, LS_ERR_PARSE, name, 0, 0, "the command stream has no draw packet");
    if (which >= (long)cs->ndraws)
        return ls_diag_set(d, LS_ERR_RANGE, name, 0, 0, "draw %ld requested, the stream has %zu", which,
                           cs->ndraws);
    if (which == MESA_CS_ALL) {
        ls_buf_puts(b, "[\n");
        for (size_t k = 0; k < cs->ndraws; k++) {
            if (k)
                ls_buf_puts(b, ",\n");
            mesa_cs_job_json(&cs->draws[k], k, b);
        }
        ls_buf_puts(b, "]\n");
    } else {
        size_t k = which >= 0 ? (size_t)which : cs->ndraws - 1;
        mesa_cs_job_json(&cs->draws[k], k, b);
    }
    return LS_OK;
}
