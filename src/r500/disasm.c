/* R500 disassembler: prints source that `lockstep r500 asm` turns back into
 * the same words. Structured flow control is used only when the whole
 * program, re-assembled, gives exactly the input words; otherwise every FC
 * instruction is printed in its field form. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "lockstep/r500_asm.h"

static bool is_identifier(const char *s)
{
    if (!s || !(isalpha((unsigned char)*s) || *s == '_'))
        return false;
    for (; *s; s++)
        if (!isalnum((unsigned char)*s) && *s != '_')
            return false;
    return true;
}

static void print_cond(ls_buf *b, uint8_t v, unsigned pred_sel, unsigned bool_addr)
{
    static const char ch[] = "rgba";
    char pred[16], boo[16];
    snprintf(pred, sizeof pred, pred_sel >= 2 && pred_sel <= 5 ? "pred.%c" : "pred",
             pred_sel >= 2 && pred_sel <= 5 ? ch[pred_sel - 2] : 0);
    snprintf(boo, sizeof boo, "bool[%u]", bool_addr);
    switch (v) {
    case 0xFF: ls_buf_puts(b, "always"); return;
    case 0x00: ls_buf_puts(b, "never"); return;
    case 0xF0: ls_buf_puts(b, "alu"); return;
    case 0x0F: ls_buf_puts(b, "!alu"); return;
    case 0xCC: ls_buf_puts(b, pred); return;
    case 0x33: ls_buf_printf(b, "!%s", pred); return;
    case 0xAA: ls_buf_puts(b, boo); return;
    case 0x55: ls_buf_printf(b, "!%s", boo); return;
    }
    bool first = true;
    for (unsigned idx = 0; idx < 8; idx++) {
        if (!((v >> idx) & 1))
            continue;
        ls_buf_printf(b, "%s(%salu&%s%s&%s%s)", first ? "" : "|", idx & 4 ? "" : "!",
                      idx & 2 ? "" : "!", pred, idx & 1 ? "" : "!", boo);
        first = false;
    }
}

static void field_form(ls_buf *b, const r500_inst *in, size_t count)
{
    static const char *kw[] = {".alu", ".out", ".fc", ".tex"};
    ls_buf_puts(b, kw[in->type]);
    for (unsigned i = 0; i < R500_F_COUNT; i++) {
        const r500_field_desc *f = r500_field((r500_field_id)i);
        if (i == R500_F_TYPE || !r500_field_applies(f, in->type) || in->field[i] == 0)
            continue;
        uint32_t v = in->field[i];
        if (i == R500_F_FC_JUMP_FUNC) {
            ls_buf_printf(b, " %s=0x%02x", f->id, (unsigned)v);
        } else if (i == R500_F_FC_JUMP_ADDR && !in->field[R500_F_FC_JUMP_GLOBAL] && v <= count) {
            ls_buf_printf(b, " %s=L%u", f->id, (unsigned)v);
        } else {
            const char *vn = r500_value_name(f->values, v);
            if (is_identifier(vn))
                ls_buf_printf(b, " %s=%s", f->id, vn);
            else
                ls_buf_printf(b, " %s=%u", f->id, (unsigned)v);
        }
    }
    ls_buf_putc(b, '\n');
}

/* Structured form of an FC instruction, or false. */
static bool structured_form(ls_buf *b, const uint32_t *w, const r500_inst *in)
{
    uint32_t pred_sel = (w[0] >> 3) & 7u;
    if ((w[0] & ~(7u << 3)) != 0x00000402u || w[1] || w[4] || w[5])
        return false;
    uint32_t i2 = w[2], i3 = w[3];
    uint32_t lo3 = i3 & 0xffffu;
    if ((i2 & 0xFFFF00FFu) == 0x12000000u || (i2 & 0xFFFF00FFu) == 0x1A000000u) {
        if ((i3 & ~0x01ff001fu) != 0)
            return false;
        ls_buf_puts(b, "    IF ");
        print_cond(b, (uint8_t)~(i2 >> 8), pred_sel, i3 & 0x1f);
        ls_buf_putc(b, '\n');
        return true;
    }
    if (pred_sel || (lo3 & ~0x1f00u))
        return false;
    unsigned int_addr = (i3 >> 8) & 31u;
    switch (i2 & ~(0x1fu << 16)) {
    case 0x1400FF05u:
    case 0x1400FF06u:
        if (lo3)
            return false;
        ls_buf_puts(b, "    BREAK\n");
        return true;
    case 0x1400FF07u:
        if (lo3)
            return false;
        ls_buf_puts(b, "    CONTINUE\n");
        return true;
    }
    switch (i2) {
    case 0x04010010u: if (lo3) return false; ls_buf_puts(b, "    ELSE\n"); return true;
    case 0x01010020u: if (lo3) return false; ls_buf_puts(b, "    ENDIF\n"); return true;
    case 0x10000001u:
    case 0x10000003u:
        ls_buf_printf(b, int_addr ? "    %s %u\n" : "    %s\n", i2 == 0x10000001u ? "LOOP" : "REP",
                      int_addr);
        return true;
    case 0x1000FF22u: ls_buf_puts(b, "    ENDLOOP\n"); return true;
    case 0x1000FF24u: ls_buf_puts(b, "    ENDREP\n"); return true;
    case 0x0000FFA0u:
        if (lo3 || (i3 >> 31))
            return false;
        ls_buf_printf(b, "    CALL L%u\n", (unsigned)in->field[R500_F_FC_JUMP_ADDR]);
        return true;
    case 0x0000FF60u:
        if (i3)
            return false;
        ls_buf_puts(b, "    RET\n");
        return true;
    }
    return false;
}

static void print_state(ls_buf *b, const r500_asm_state *s)
{
    if (!s)
        return;
    if (s->fc_full >= 0)
        ls_buf_printf(b, ".fc %s\n", s->fc_full ? "full" : "partial");
    if (s->offset >= 0)
        ls_buf_printf(b, ".offset %d\n", s->offset);
    for (unsigned n = 0; n < 32; n++)
        if ((s->int_set >> n) & 1)
            ls_buf_printf(b, ".int %u %u %u %d\n", n, s->int_const[n] & 0xff,
                          (s->int_const[n] >> 8) & 0xff, (int)(int8_t)(s->int_const[n] >> 16));
    if (s->bool_set)
        for (unsigned n = 0; n < 32; n++)
            if ((s->bool_const >> n) & 1)
                ls_buf_printf(b, ".bool %u 1\n", n);
    for (unsigned n = 0; n < R500_NUM_CONSTS; n++) {
        if (!s->const_set[n])
            continue;
        ls_buf_printf(b, ".const %u", n);
        for (int k = 0; k < 4; k++) {
            float f;
            memcpy(&f, &s->consts[n][k], 4);
            char tmp[32];
            snprintf(tmp, sizeof tmp, "%.9g", (double)f);
            uint32_t back;
            float fb = strtof(tmp, NULL);
            memcpy(&back, &fb, 4);
            if (isfinite(f) && back == s->consts[n][k] && (f != 0.0f || !signbit(f)))
                ls_buf_printf(b, " %s", tmp);
            else
                ls_buf_printf(b, " 0x%08x", (unsigned)s->consts[n][k]);
        }
        ls_buf_putc(b, '\n');
    }
}

static void render(const uint32_t *words, size_t count, const r500_asm_state *state,
                   bool structured, ls_buf *b)
{
    bool *target = calloc(count + 1, sizeof *target);
    for (size_t k = 0; target && k < count; k++) {
        r500_inst in;
        r500_decode(words + 6 * k, &in);
        if (in.type == R500_TYPE_FC && !in.field[R500_F_FC_JUMP_GLOBAL] &&
            in.field[R500_F_FC_JUMP_ADDR] <= count) {
            uint32_t w[6];
            memcpy(w, words + 6 * k, sizeof w);
            ls_buf tmp;
            ls_buf_init(&tmp);
            bool s = structured && structured_form(&tmp, w, &in);
            /* structured forms compute their own targets, except CALL */
            if (!s || w[2] == 0x0000FFA0u)
                target[in.field[R500_F_FC_JUMP_ADDR]] = true;
            ls_buf_free(&tmp);
        }
    }
    print_state(b, state);
    for (size_t k = 0; k < count; k++) {
        if (target && target[k])
            ls_buf_printf(b, "L%zu:\n", k);
        r500_inst in;
        r500_decode(words + 6 * k, &in);
        bool unclaimed = false;
        for (int w = 0; w < 6; w++)
            unclaimed |= in.unclaimed[w] != 0;
        if (unclaimed) {
            const uint32_t *w = words + 6 * k;
            ls_buf_printf(b, ".raw 0x%08x 0x%08x 0x%08x 0x%08x 0x%08x 0x%08x\n", (unsigned)w[0],
                          (unsigned)w[1], (unsigned)w[2], (unsigned)w[3], (unsigned)w[4],
                          (unsigned)w[5]);
            continue;
        }
        if (in.type == R500_TYPE_FC && structured && structured_form(b, words + 6 * k, &in))
            continue;
        field_form(b, &in, count);
    }
    if (target && target[count])
        ls_buf_printf(b, "L%zu:\n", count);
    free(target);
}

void r500_disasm(const uint32_t *words, size_t count, const r500_asm_state *state, ls_buf *out)
{
    ls_buf b;
    ls_buf_init(&b);
    render(words, count, state, true, &b);
    /* Keep the structured rendering only if it assembles to the same words. */
    r500_asm_program prog;
    ls_diag_list errs;
    ls_diag_list_init(&errs);
    bool same = !b.oom && r500_asm_mem("<disasm>", b.data ? b.data : "", b.len, &prog, &errs) == LS_OK &&
                prog.count == count && !memcmp(prog.words, words, count * 6 * sizeof *words);
    if (errs.errors == 0)
        r500_asm_program_free(&prog);
    ls_diag_list_free(&errs);
    if (!same) {
        ls_buf_reset(&b);
        render(words, count, state, false, &b);
    }
    ls_buf_append(out, b.data ? b.data : "", b.len);
    ls_buf_free(&b);
}
