/* R500 PVS instruction codec: everything is driven by R500_PVS_FIELDS
 * (include/lockstep/r500_pvs.h). */
#include "lockstep/r500_pvs.h"

#include <stdio.h>
#include <string.h>

#include "lockstep/buf.h"

static const r500_pvs_field_desc field_table[R500_PVS_F_COUNT] = {
#define PVS_FIELD_DESC_(id_, w, lo_, width_, forms_, vals, name_)                               \
    [R500_PVS_F_##id_] = {.name = name_, .id = #id_, .word = w, .lo = lo_, .width = width_,   \
                          .forms = forms_, .values = R500_PVS_V_##vals},
    R500_PVS_FIELDS(PVS_FIELD_DESC_)
#undef PVS_FIELD_DESC_
};

const r500_pvs_field_desc *r500_pvs_field(r500_pvs_field_id f)
{
    return (unsigned)f < R500_PVS_F_COUNT ? &field_table[f] : NULL;
}

#define PVS_VALUE_ARRAY_(name, ...) static const char *const pvs_values_##name[] = {__VA_ARGS__};
R500_PVS_VALUE_TABLES(PVS_VALUE_ARRAY_)
#undef PVS_VALUE_ARRAY_

static const struct {
    const char *const *names;
    unsigned count;
} value_tables[R500_PVS_V_COUNT] = {
    [R500_PVS_V_NONE] = {NULL, 0},
#define PVS_VALUE_ENTRY_(name, ...)                                                             \
    [R500_PVS_V_##name] = {pvs_values_##name,                                                  \
                           sizeof pvs_values_##name / sizeof pvs_values_##name[0]},
    R500_PVS_VALUE_TABLES(PVS_VALUE_ENTRY_)
#undef PVS_VALUE_ENTRY_
};

const char *r500_pvs_value_name(r500_pvs_values t, uint32_t v)
{
    if ((unsigned)t >= R500_PVS_V_COUNT || v >= value_tables[t].count)
        return NULL;
    return value_tables[t].names[v];
}

unsigned r500_pvs_value_count(r500_pvs_values t)
{
    return (unsigned)t < R500_PVS_V_COUNT ? value_tables[t].count : 0;
}

static uint32_t field_mask(const r500_pvs_field_desc *f)
{
    return (f->width >= 32 ? 0xffffffffu : ((1u << f->width) - 1u)) << f->lo;
}

static bool applies(const r500_pvs_field_desc *f, r500_pvs_form form)
{
    return (f->forms >> form) & 1u;
}

uint32_t r500_pvs_claimed_mask(r500_pvs_form form, unsigned word)
{
    uint32_t m = 0;
    for (unsigned i = 0; i < R500_PVS_F_COUNT; i++)
        if (field_table[i].word == word && applies(&field_table[i], form))
            m |= field_mask(&field_table[i]);
    return m;
}

void r500_pvs_decode(const uint32_t words[R500_PVS_INST_WORDS], r500_pvs_inst *out)
{
    memset(out, 0, sizeof *out);
    /* pvs_opcode_and_destination_operand.txt: PVS_DST_DUAL_MATH_OP (bit 28)
     * "Set to describe a dual-math op" — dword 3 is then the dual math word. */
    out->form = (words[0] >> 28) & 1u ? R500_PVS_FORM_DUAL : R500_PVS_FORM_NORMAL;
    uint32_t claimed[R500_PVS_INST_WORDS] = {0};
    for (unsigned i = 0; i < R500_PVS_F_COUNT; i++) {
        const r500_pvs_field_desc *f = &field_table[i];
        if (!applies(f, out->form))
            continue;
        uint32_t m = field_mask(f);
        claimed[f->word] |= m;
        out->field[i] = (words[f->word] & m) >> f->lo;
    }
    for (unsigned w = 0; w < R500_PVS_INST_WORDS; w++)
        out->unclaimed[w] = words[w] & ~claimed[w];
}

void r500_pvs_encode(const r500_pvs_inst *in, uint32_t words[R500_PVS_INST_WORDS])
{
    r500_pvs_form form = in->field[R500_PVS_F_DUAL_MATH_OP] & 1u ? R500_PVS_FORM_DUAL
                                                                   : R500_PVS_FORM_NORMAL;
    uint32_t claimed[R500_PVS_INST_WORDS] = {0};
    memset(words, 0, R500_PVS_INST_WORDS * sizeof words[0]);
    for (unsigned i = 0; i < R500_PVS_F_COUNT; i++) {
        const r500_pvs_field_desc *f = &field_table[i];
        if (!applies(f, form))
            continue;
        uint32_t m = field_mask(f);
        claimed[f->word] |= m;
        words[f->word] |= (in->field[i] << f->lo) & m;
    }
    for (unsigned w = 0; w < R500_PVS_INST_WORDS; w++)
        words[w] |= in->unclaimed[w] & ~claimed[w];
}

static unsigned add_problem(char msgs[][96], unsigned max, unsigned n, const char *fmt,
                            unsigned a, unsigned b)
{
    if (n < max)
        snprintf(msgs[n], sizeof msgs[n], fmt, a, b);
    return n + 1;
}

unsigned r500_pvs_problems(const r500_pvs_inst *in, char msgs[][96], unsigned max)
{
    unsigned n = 0;
    const uint32_t *f = in->field;
    for (unsigned w = 0; w < R500_PVS_INST_WORDS; w++)
        if (in->unclaimed[w])
            n = add_problem(msgs, max, n, "dword %u: bits 0x%08x belong to no field", w,
                            in->unclaimed[w]);
    unsigned op = f[R500_PVS_F_OPCODE];
    if (f[R500_PVS_F_MATH_INST] && f[R500_PVS_F_MACRO_INST])
        n = add_problem(msgs, max, n, "MATH_INST and MACRO_INST both set%.0u%.0u", 0, 0);
    else if (f[R500_PVS_F_MACRO_INST] && op >= r500_pvs_value_count(R500_PVS_V_MACRO_OP))
        n = add_problem(msgs, max, n, "macro opcode %u is reserved%.0u", op, 0);
    else if (f[R500_PVS_F_MATH_INST] && op >= r500_pvs_value_count(R500_PVS_V_ME_OP))
        n = add_problem(msgs, max, n, "math opcode %u is reserved%.0u", op, 0);
    else if (!f[R500_PVS_F_MATH_INST] && !f[R500_PVS_F_MACRO_INST] &&
             op >= r500_pvs_value_count(R500_PVS_V_VE_OP))
        n = add_problem(msgs, max, n, "vector opcode %u is reserved%.0u", op, 0);
    if (f[R500_PVS_F_DST_REG_TYPE] >= r500_pvs_value_count(R500_PVS_V_DST_REG))
        n = add_problem(msgs, max, n, "destination register type %u is reserved%.0u",
                        f[R500_PVS_F_DST_REG_TYPE], 0);
    if (f[R500_PVS_F_DST_ADDR_MODE_1] && f[R500_PVS_F_DST_ADDR_MODE_0])
        n = add_problem(msgs, max, n, "destination addressing mode %u is reserved%.0u", 3, 0);
    unsigned nsrc = in->form == R500_PVS_FORM_DUAL ? 2 : 3;
    for (unsigned s = 0; s < nsrc; s++) {
        unsigned b = R500_PVS_F_S0_REG_TYPE + s * R500_PVS_SRC_STRIDE;
        if (f[b + (R500_PVS_F_S0_ADDR_MODE_0 - R500_PVS_F_S0_REG_TYPE)] &&
            f[b + (R500_PVS_F_S0_ADDR_MODE_1 - R500_PVS_F_S0_REG_TYPE)])
            n = add_problem(msgs, max, n, "source %u: addressing mode %u is reserved", s, 3);
        for (unsigned c = 0; c < 4; c++) {
            unsigned sw = f[b + (R500_PVS_F_S0_SWIZZLE_X - R500_PVS_F_S0_REG_TYPE) + c];
            if (sw == 6)
                n = add_problem(msgs, max, n,
                                "source %u: swizzle select 6 is not documented (channel %u)",
                                s, c);
        }
    }
    if (in->form == R500_PVS_FORM_DUAL) {
        unsigned mop = f[R500_PVS_F_DM_OPCODE_MSB] << 4 | f[R500_PVS_F_DM_OPCODE];
        if (mop >= r500_pvs_value_count(R500_PVS_V_ME_OP))
            n = add_problem(msgs, max, n, "dual math opcode %u is reserved%.0u", mop, 0);
        if (f[R500_PVS_F_DM_SRC_ADDR_MODE_0] && f[R500_PVS_F_DM_SRC_ADDR_MODE_1])
            n = add_problem(msgs, max, n, "dual math source addressing mode %u is reserved%.0u",
                            3, 0);
        if (f[R500_PVS_F_MATH_INST] || f[R500_PVS_F_MACRO_INST])
            n = add_problem(msgs, max, n,
                            "dual math instruction whose dword 0 is not a vector op "
                            "(MATH_INST %u, MACRO_INST %u)",
                            f[R500_PVS_F_MATH_INST], f[R500_PVS_F_MACRO_INST]);
    }
    return n;
}

void r500_pvs_format_fields(ls_buf *b, unsigned index, const r500_pvs_inst *in)
{
    uint32_t w[4];
    r500_pvs_encode(in, w);
    ls_buf_printf(b, "%3u: %s 0x%08x 0x%08x 0x%08x 0x%08x\n", index,
                  in->form == R500_PVS_FORM_DUAL ? "DUAL" : "    ", (unsigned)w[0],
                  (unsigned)w[1], (unsigned)w[2], (unsigned)w[3]);
    static const char *const word_names[2][4] = {
        {"OPCODE_DST", "SRC0", "SRC1", "SRC2"},
        {"OPCODE_DST", "SRC0", "SRC1", "DUAL_MATH"},
    };
    for (unsigned word = 0; word < 4; word++) {
        ls_buf_printf(b, "     %-10s", word_names[in->form][word]);
        for (unsigned i = 0; i < R500_PVS_F_COUNT; i++) {
            const r500_pvs_field_desc *f = &field_table[i];
            if (f->word != word || !applies(f, in->form))
                continue;
            uint32_t v = in->field[i];
            const char *vn = NULL;
            if (f->values != R500_PVS_V_NONE)
                vn = r500_pvs_value_name(f->values, v);
            if (i == R500_PVS_F_OPCODE)
                vn = r500_pvs_value_name(in->field[R500_PVS_F_MATH_INST] ? R500_PVS_V_ME_OP
                                         : in->field[R500_PVS_F_MACRO_INST] ? R500_PVS_V_MACRO_OP
                                                                            : R500_PVS_V_VE_OP,
                                         v);
            if (vn)
                ls_buf_printf(b, " %s=%s", f->name, vn);
            else if (f->values != R500_PVS_V_NONE || i == R500_PVS_F_OPCODE)
                ls_buf_printf(b, " %s=%u(RESERVED)", f->name, (unsigned)v);
            else
                ls_buf_printf(b, " %s=%u", f->name, (unsigned)v);
        }
        if (in->unclaimed[word])
            ls_buf_printf(b, " UNCLAIMED=0x%08x", (unsigned)in->unclaimed[word]);
        ls_buf_putc(b, '\n');
    }
    char msgs[8][96];
    unsigned n = r500_pvs_problems(in, msgs, 8);
    for (unsigned i = 0; i < n && i < 8; i++)
        ls_buf_printf(b, "     !! %s\n", msgs[i]);
}
