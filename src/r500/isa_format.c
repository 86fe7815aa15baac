#include "isa_format.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const char *type_name(r500_inst_type t)
{
    return r500_value_name(R500_V_TYPE, (uint32_t)t);
}

static void format_value(ls_buf *b, const r500_inst *in, r500_field_id id)
{
    const r500_field_desc *f = r500_field(id);
    uint32_t v = in->field[id];
    /* TARGET means a render target on OUT and a compare op on ALU (r500.md §1.4). */
    if ((id == R500_F_RGB_TARGET || id == R500_F_ALPHA_TARGET)) {
        if (in->type == R500_TYPE_OUT)
            ls_buf_printf(b, "%s=%c", f->name, (char)('A' + v));
        else
            ls_buf_printf(b, "%s=%s", f->name, r500_value_name(R500_V_CMP, v));
        return;
    }
    if (id == R500_F_FC_JUMP_FUNC) {
        ls_buf_printf(b, "%s=0x%02x", f->name, (unsigned)v);
        return;
    }
    const char *vn = f->values != R500_V_NONE ? r500_value_name(f->values, v) : NULL;
    if (f->values != R500_V_NONE && !vn)
        ls_buf_printf(b, "%s=%u(RESERVED)", f->name, (unsigned)v);
    else if (vn)
        ls_buf_printf(b, "%s=%s", f->name, vn);
    else
        ls_buf_printf(b, "%s=%u", f->name, (unsigned)v);
}

void r500_format_fields(ls_buf *b, unsigned index, const r500_inst *in)
{
    uint32_t w[R500_INST_WORDS];
    r500_encode(in, w);
    ls_buf_printf(b, "%3u: %-3s 0x%08x 0x%08x 0x%08x 0x%08x 0x%08x 0x%08x\n", index,
                  type_name(in->type), (unsigned)w[0], (unsigned)w[1], (unsigned)w[2],
                  (unsigned)w[3], (unsigned)w[4], (unsigned)w[5]);
    for (unsigned word = 0; word < R500_INST_WORDS; word++) {
        const char *wn = r500_word_name(in->type, word);
        if (!wn && !in->unclaimed[word])
            continue;
        ls_buf_printf(b, "     %-18s", wn ? wn : "(unused)");
        for (unsigned i = 0; i < R500_F_COUNT; i++) {
            const r500_field_desc *f = r500_field((r500_field_id)i);
            if (f->word != word || !r500_field_applies(f, in->type))
                continue;
            ls_buf_putc(b, ' ');
            format_value(b, in, (r500_field_id)i);
        }
        if (in->unclaimed[word])
            ls_buf_printf(b, " UNCLAIMED=0x%08x", (unsigned)in->unclaimed[word]);
        ls_buf_putc(b, '\n');
    }
    if (in->type == R500_TYPE_ALU || in->type == R500_TYPE_OUT) {
        /* Inline constants are common enough to spell out (r500.md §4.2). */
        static const r500_field_id addr[6] = {R500_F_RGB_ADDR0, R500_F_RGB_ADDR1,
                                              R500_F_RGB_ADDR2, R500_F_ALPHA_ADDR0,
                                              R500_F_ALPHA_ADDR1, R500_F_ALPHA_ADDR2};
        bool any = false;
        for (unsigned k = 0; k < 6; k++) {
            uint32_t a = in->field[addr[k]];
            if (in->field[addr[k] + 1] == 0 && (a & 0x80)) {
                if (!any)
                    ls_buf_puts(b, "     inline:");
                any = true;
                ls_buf_printf(b, " %s%u=%g", k < 3 ? "rgb" : "alpha", k % 3,
                              (double)r500_inline_float(a & 0x7f));
            }
        }
        if (any)
            ls_buf_putc(b, '\n');
    }
    char msgs[8][96];
    unsigned n = r500_inst_problems(in, msgs, 8);
    for (unsigned i = 0; i < n && i < 8; i++)
        ls_buf_printf(b, "     !! %s\n", msgs[i]);
}

static bool has_suffix(const char *s, const char *suf)
{
    size_t a = strlen(s), b = strlen(suf);
    return a >= b && strcasecmp(s + a - b, suf) == 0;
}

r500_file_format r500_detect_format(const char *path, const char *data, size_t len)
{
    if (path) {
        if (has_suffix(path, ".bin"))
            return R500_FILE_BIN;
        if (has_suffix(path, ".json"))
            return R500_FILE_JSON;
        if (has_suffix(path, ".asm"))
            return R500_FILE_ASM;
        if (has_suffix(path, ".inc") || has_suffix(path, ".txt") || has_suffix(path, ".hex"))
            return R500_FILE_HEX;
    }
    size_t i = 0;
    while (i < len && isspace((unsigned char)data[i]))
        i++;
    if (i < len && data[i] == '{')
        return R500_FILE_JSON;
    for (size_t k = 0; k < len; k++) {
        unsigned char c = (unsigned char)data[k];
        if (c == 0 || (c < 0x20 && !isspace(c)) || c >= 0x7f)
            return R500_FILE_BIN;
    }
    /* Text: hex dwords if the first token is 0x..., else assembly. */
    if (i + 1 < len && data[i] == '0' && (data[i + 1] == 'x' || data[i + 1] == 'X'))
        return R500_FILE_HEX;
    return len ? R500_FILE_ASM : R500_FILE_UNKNOWN;
}

ls_status r500_parse_bin_words(const char *file, const uint8_t *data, size_t len,
                               uint32_t **words, size_t *count, ls_diag *d)
{
    *words = NULL;
    *count = 0;
    const size_t per = 4 * R500_INST_WORDS;
    if (len == 0)
        return ls_diag_set(d, LS_ERR_PARSE, file, 0, 0, "empty program");
    if (len % per) {
        ls_diag_set(d, LS_ERR_PARSE, file, 0, 0,
                    "truncated program: %zu bytes is not a whole number of 24-byte "
                    "instructions (last instruction has %zu bytes)",
                    len, len % per);
        ls_diag_at_offset(d, (long)(len - len % per));
        return LS_ERR_PARSE;
    }
    if (len / per > R500_MAX_INSTS) {
        ls_diag_set(d, LS_ERR_RANGE, file, 0, 0,
                    "program has %zu instructions; the R500 holds at most %d", len / per,
                    R500_MAX_INSTS);
        ls_diag_at_offset(d, (long)(R500_MAX_INSTS * per));
        return LS_ERR_RANGE;
    }
    uint32_t *w = malloc(len);
    if (!w)
        return ls_diag_set(d, LS_ERR_NOMEM, file, 0, 0, "out of memory");
    for (size_t k = 0; k < len / 4; k++)
        w[k] = (uint32_t)data[4 * k] | (uint32_t)data[4 * k + 1] << 8 |
               (uint32_t)data[4 * k + 2] << 16 | (uint32_t)data[4 * k + 3] << 24;
    *words = w;
    *count = len / per;
    return LS_OK;
}

ls_status r500_parse_hex_words(const char *file, const char *text, size_t len,
                               uint32_t **words, size_t *count, ls_diag *d)
{
    return r500_parse_hex_program(file, text, len, words, count, NULL, NULL, d);
}

ls_status r500_parse_hex_program(const char *file, const char *text, size_t len,
                                 uint32_t **words, size_t *count, r500_hex_const **consts,
                                 size_t *nconsts, ls_diag *d)
{
    *words = NULL;
    *count = 0;
    if (consts) {
        *consts = NULL;
        *nconsts = 0;
    }
    r500_hex_const *cv = NULL;
    size_t ncv = 0;
    int const_fill = -1; /* >= 0: dwords still owed to constant cv[ncv-1] */
    int const_line = 0, const_col = 0;
    size_t cap = 0, n = 0;
    uint32_t *w = NULL;
    int line = 1;
    size_t line_start = 0;
    size_t i = 0;
    ls_status st = LS_OK;
#define COL() ((int)(i - line_start) + 1)
    while (i < len) {
        char c = text[i];
        if (c == '\n') {
            line++;
            line_start = ++i;
            continue;
        }
        if (c == ' ' || c == '\t' || c == '\r' || c == ',') {
            i++;
            continue;
        }
        if (c == '#' || (c == '-' && i + 1 < len && text[i + 1] == '-') ||
            (c == '/' && i + 1 < len && text[i + 1] == '/')) {
            while (i < len && text[i] != '\n')
                i++;
            continue;
        }
        size_t start = i;
        if (c == '0' && i + 1 < len && (text[i + 1] == 'x' || text[i + 1] == 'X')) {
            i += 2;
            uint64_t v = 0;
            size_t digits = 0;
            while (i < len && isxdigit((unsigned char)text[i])) {
                int h = isdigit((unsigned char)text[i]) ? text[i] - '0'
                                                         : (tolower((unsigned char)text[i]) - 'a' + 10);
                v = v * 16 + (uint64_t)h;
                digits++;
                i++;
                if (digits > 8)
                    break;
            }
            if (digits == 0 || digits > 8 ||
                (i < len && !isspace((unsigned char)text[i]) && text[i] != ',' &&
                 text[i] != '#' && text[i] != '/' && text[i] != '-')) {
                size_t save = i;
                i = start;
                st = ls_diag_set(d, LS_ERR_PARSE, file, line, COL(),
                                 digits > 8 ? "hex dword has more than 8 digits"
                                            : "malformed hex dword");
                i = save;
                goto fail;
            }
            if (const_fill > 0) {
                cv[ncv - 1].bits[4 - const_fill] = (uint32_t)v;
                const_fill--;
                continue;
            }
            if (n == cap) {
                cap = cap ? cap * 2 : 64;
                uint32_t *p = realloc(w, cap * sizeof *p);
                if (!p) {
                    st = ls_diag_set(d, LS_ERR_NOMEM, file, line, COL(), "out of memory");
                    goto fail;
                }
                w = p;
            }
            w[n++] = (uint32_t)v;
            if (n > (size_t)R500_MAX_INSTS * R500_INST_WORDS) {
                i = start;
                st = ls_diag_set(d, LS_ERR_RANGE, file, line, COL(),
                                 "more than %d instructions; the R500 holds at most %d",
                                 R500_MAX_INSTS, R500_MAX_INSTS);
                goto fail;
            }
            continue;
        }
        if ((c == 'c' || c == 'C') && i + 1 < len && isdigit((unsigned char)text[i + 1])) {
            /* "cN:" constant */
            if (const_fill > 0) {
                st = ls_diag_set(d, LS_ERR_PARSE, file, const_line, const_col,
                                 "constant needs 4 dwords, found %d", 4 - const_fill);
                goto fail;
            }
            i++;
            unsigned idx = 0;
            while (i < len && isdigit((unsigned char)text[i]) && idx < 100000)
                idx = idx * 10 + (unsigned)(text[i++] - '0');
            if (i >= len || text[i] != ':' || idx >= R500_NUM_CONSTS || !consts) {
                i = start;
                st = ls_diag_set(d, LS_ERR_PARSE, file, line, COL(),
                                 !consts ? "constants are not accepted here"
                                 : idx >= R500_NUM_CONSTS ? "constant index out of range (0..255)"
                                                          : "expected ':' after constant index");
                goto fail;
            }
            r500_hex_const *p = realloc(cv, (ncv + 1) * sizeof *p);
            if (!p) {
                st = ls_diag_set(d, LS_ERR_NOMEM, file, line, COL(), "out of memory");
                goto fail;
            }
            cv = p;
            cv[ncv].index = idx;
            memset(cv[ncv].bits, 0, sizeof cv[ncv].bits);
            ncv++;
            i++;
            const_line = line;
            const_col = (int)(start - line_start) + 1;
            const_fill = 4;
            continue;
        }
        if (const_fill > 0) {
            st = ls_diag_set(d, LS_ERR_PARSE, file, const_line, const_col,
                             "constant needs 4 dwords, found %d", 4 - const_fill);
            goto fail;
        }
        if (isdigit((unsigned char)c)) {
            /* "N:" index label */
            while (i < len && isdigit((unsigned char)text[i]))
                i++;
            if (i < len && text[i] == ':') {
                i++;
                continue;
            }
            i = start;
            st = ls_diag_set(d, LS_ERR_PARSE, file, line, COL(),
                             "expected a 0x-prefixed hex dword or an 'N:' index");
            goto fail;
        }
        st = ls_diag_set(d, LS_ERR_PARSE, file, line, COL(),
                         "unexpected character '%c' (expected a 0x-prefixed hex dword)",
                         (c >= 0x20 && c < 0x7f) ? c : '?');
        goto fail;
    }
    if (const_fill > 0) {
        st = ls_diag_set(d, LS_ERR_PARSE, file, const_line, const_col,
                         "constant needs 4 dwords, found %d", 4 - const_fill);
        goto fail;
    }
    if (n == 0) {
        st = ls_diag_set(d, LS_ERR_PARSE, file, line, COL(), "no instruction words found");
        goto fail;
    }
    if (n % R500_INST_WORDS) {
        st = ls_diag_set(d, LS_ERR_PARSE, file, line, COL(),
                         "%zu dwords is not a whole number of 6-dword instructions "
                         "(the last instruction has %zu)",
                         n, n % R500_INST_WORDS);
        goto fail;
    }
#undef COL
    *words = w;
    *count = n / R500_INST_WORDS;
    if (consts) {
        *consts = cv;
        *nconsts = ncv;
    }
    return LS_OK;
fail:
    free(w);
    free(cv);
    return st;
}
