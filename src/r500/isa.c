/* R500 instruction codec: everything is driven by R500_FIELDS
 * (include/lockstep/r500_isa.h). */
#include "lockstep/r500_isa.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

static const r500_field_desc field_table[R500_F_COUNT] = {
#define FIELD_DESC_(id_, w, lo_, width_, types_, vals, name_)                                   \
    [R500_F_##id_] = {.name = name_, .id = #id_, .word = w, .lo = lo_, .width = width_,       \
                      .types = types_, .values = R500_V_##vals},
    R500_FIELDS(FIELD_DESC_)
#undef FIELD_DESC_
};

const r500_field_desc *r500_field(r500_field_id f)
{
    return (unsigned)f < R500_F_COUNT ? &field_table[f] : NULL;
}

typedef struct value_table {
    const char *const *names;
    unsigned count;
} value_table;

#define VALUE_ARRAY_(name, ...) static const char *const values_##name[] = {__VA_ARGS__};
R500_VALUE_TABLES(VALUE_ARRAY_)
#undef VALUE_ARRAY_

static const value_table value_tables[R500_V_COUNT] = {
    [R500_V_NONE] = {NULL, 0},
#define VALUE_ENTRY_(name, ...)                                                                 \
    [R500_V_##name] = {values_##name, sizeof values_##name / sizeof values_##name[0]},
    R500_VALUE_TABLES(VALUE_ENTRY_)
#undef VALUE_ENTRY_
};

const char *r500_value_name(r500_values t, uint32_t v)
{
    if ((unsigned)t >= R500_V_COUNT || v >= value_tables[t].count)
        return NULL;
    return value_tables[t].names[v];
}

unsigned r500_value_count(r500_values t)
{
    return (unsigned)t < R500_V_COUNT ? value_tables[t].count : 0;
}

bool r500_value_lookup(r500_values t, const char *name, uint32_t *v)
{
    for (unsigned i = 0; i < r500_value_count(t); i++) {
        const char *n = value_tables[t].names[i];
        if (n && strcasecmp(n, name) == 0) {
            *v = i;
            return true;
        }
    }
    return false;
}

const char *r500_word_name(r500_inst_type t, unsigned word)
{
    /* r500.md §1.1: the register bank aliases per instruction type. */
    static const char *const names[4][R500_INST_WORDS] = {
        [R500_TYPE_ALU] = {"US_CMN_INST", "US_ALU_RGB_ADDR", "US_ALU_ALPHA_ADDR",
                           "US_ALU_RGB_INST", "US_ALU_ALPHA_INST", "US_ALU_RGBA_INST"},
        [R500_TYPE_OUT] = {"US_CMN_INST", "US_ALU_RGB_ADDR", "US_ALU_ALPHA_ADDR",
                           "US_ALU_RGB_INST", "US_ALU_ALPHA_INST", "US_ALU_RGBA_INST"},
        [R500_TYPE_FC] = {"US_CMN_INST", NULL, "US_FC_INST", "US_FC_ADDR", NULL, NULL},
        [R500_TYPE_TEX] = {"US_CMN_INST", "US_TEX_INST", "US_TEX_ADDR", "US_TEX_ADDR_DXDY",
                           NULL, NULL},
    };
    if ((unsigned)t > 3 || word >= R500_INST_WORDS)
        return NULL;
    return names[t][word];
}

static uint32_t field_mask(const r500_field_desc *f)
{
    uint32_t m = f->width >= 32 ? 0xffffffffu : ((1u << f->width) - 1u);
    return m << f->lo;
}

uint32_t r500_claimed_mask(r500_inst_type t, unsigned word)
{
    uint32_t m = 0;
    for (unsigned i = 0; i < R500_F_COUNT; i++) {
        const r500_field_desc *f = &field_table[i];
        if (f->word == word && r500_field_applies(f, t))
            m |= field_mask(f);
    }
    return m;
}

void r500_decode(const uint32_t words[R500_INST_WORDS], r500_inst *out)
{
    memset(out, 0, sizeof *out);
    /* r500.md §1.2: CMN.TYPE (bits 1:0) picks the layout of dwords 1..5. */
    out->type = (r500_inst_type)(words[0] & 3u);
    uint32_t claimed[R500_INST_WORDS] = {0};
    for (unsigned i = 0; i < R500_F_COUNT; i++) {
        const r500_field_desc *f = &field_table[i];
        if (!r500_field_applies(f, out->type))
            continue;
        uint32_t m = field_mask(f);
        claimed[f->word] |= m;
        out->field[i] = (words[f->word] & m) >> f->lo;
    }
    for (unsigned w = 0; w < R500_INST_WORDS; w++)
        out->unclaimed[w] = words[w] & ~claimed[w];
}

void r500_encode(const r500_inst *in, uint32_t words[R500_INST_WORDS])
{
    uint32_t claimed[R500_INST_WORDS] = {0};
    memset(words, 0, R500_INST_WORDS * sizeof words[0]);
    for (unsigned i = 0; i < R500_F_COUNT; i++) {
        const r500_field_desc *f = &field_table[i];
        if (!r500_field_applies(f, in->type))
            continue;
        uint32_t m = field_mask(f);
        claimed[f->word] |= m;
        uint32_t v = in->field[i];
        if (i == R500_F_TYPE)
            v = (uint32_t)in->type; /* the type is the one source of truth */
        words[f->word] |= (v << f->lo) & m;
    }
    for (unsigned w = 0; w < R500_INST_WORDS; w++)
        words[w] |= in->unclaimed[w] & ~claimed[w];
}

void r500_inst_init(r500_inst *in, r500_inst_type t)
{
    memset(in, 0, sizeof *in);
    in->type = t;
    in->field[R500_F_TYPE] = (uint32_t)t;
}

unsigned r500_inst_problems(const r500_inst *in, char msgs[][96], unsigned max)
{
    unsigned n = 0;
    for (unsigned w = 0; w < R500_INST_WORDS; w++) {
        if (!in->unclaimed[w])
            continue;
        if (n < max) {
            const char *wn = r500_word_name(in->type, w);
            snprintf(msgs[n], sizeof msgs[n], "dword %u (%s): bits 0x%08x belong to no field",
                     w, wn ? wn : "unused for this type", (unsigned)in->unclaimed[w]);
        }
        n++;
    }
    for (unsigned i = 0; i < R500_F_COUNT; i++) {
        const r500_field_desc *f = &field_table[i];
        if (!r500_field_applies(f, in->type) || f->values == R500_V_NONE)
            continue;
        uint32_t v = in->field[i];
        if (r500_value_name(f->values, v))
            continue;
        /* Swizzle 7 ("unused") is a named value but still undefined as an operand. */
        if (n < max)
            snprintf(msgs[n], sizeof msgs[n], "%s = %u is a reserved value", f->id,
                     (unsigned)v);
        n++;
    }
    return n;
}

float r500_inline_float(unsigned code)
{
    /* r500.md §4.2: e = N>>3, m = N&7; e == 0: m * 2^-9 (denormal);
     * else (1 + m/8) * 2^(e-7). */
    unsigned e = (code >> 3) & 15u, m = code & 7u;
    if (e == 0)
        return ldexpf((float)m, -9);
    return ldexpf(1.0f + (float)m / 8.0f, (int)e - 7);
}
