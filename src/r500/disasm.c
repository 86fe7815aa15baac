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

static bool structured_text(ls_buf *b, const uint32_t *w, const r500_inst *in, uint32_t pred_sel);
static bool jump_form(ls_buf *b, const uint32_t *w, const r500_inst *in);

/* Structured form of an FC instruction, or false. */
static bool structured_form(ls_buf *b, const uint32_t *w, const r500_inst *in)
{
    uint32_t pred_sel = (w[0] >> 3) & 7u;
    bool sem = (w[0] >> 2) & 1u;
    if ((w[0] & ~(7u << 3 | 1u << 2)) != 0x00000402u || w[1] || w[4] || w[5])
        return false;
    size_t mark = b->len;
    bool ok = structured_text(b, w, in, pred_sel) || (!sem && jump_form(b, w, in));
    if (ok && sem) {
        b->len--; /* before the newline */
        ls_buf_puts(b, " TEX_SEM_WAIT\n");
    }
    if (!ok) {
        b->len = mark;
        if (b->data)
            b->data[mark] = 0;
    }
    return ok;
}

static bool structured_text(ls_buf *b, const uint32_t *w, const r500_inst *in, uint32_t pred_sel)
{
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

/* JUMP L [if cond] [any]: OP=JUMP with only JUMP_FUNC, JUMP_ANY and the
 * condition's predicate/boolean set. */
static bool jump_form(ls_buf *b, const uint32_t *w, const r500_inst *in)
{
    uint32_t pred_sel = (w[0] >> 3) & 7u;
    if ((w[0] & ~(7u << 3)) != 0x00000402u || w[1] || w[4] || w[5] || pred_sel == 1 || pred_sel > 5)
        return false;
    if ((w[2] & ~0xFF20u) != 0 || (w[3] & ~0x01ff001fu) != 0)
        return false;
    uint8_t jf = (uint8_t)(w[2] >> 8);
    bool any = (w[2] >> 5) & 1u;
    ls_buf_printf(b, "    JUMP L%u", (unsigned)in->field[R500_F_FC_JUMP_ADDR]);
    if (jf != 0xFF || pred_sel || (w[3] & 0x1f)) {
        ls_buf_puts(b, " if ");
        print_cond(b, jf, pred_sel, w[3] & 0x1f);
    }
    ls_buf_puts(b, any ? " any\n" : "\n");
    return true;
}

/* ---- buhman/r500 syntax for ALU/OUT/TEX --------------------------------- */

static const char swz_letters[] = "rgba0h1_";

static void print_src_let(ls_buf *b, const r500_inst *in, int unit, int k, bool *first)
{
    r500_field_id fa = (r500_field_id)((unit ? R500_F_ALPHA_ADDR0 : R500_F_RGB_ADDR0) + 3 * k);
    uint32_t a = in->field[fa], c = in->field[fa + 1];
    if (!c && a == 0x80)
        return; /* float(0): the default for a source not given */
    ls_buf_printf(b, "%ssrc%d.%s = ", *first ? "" : ", ", k, unit ? "a" : "rgb");
    if (c)
        ls_buf_printf(b, "const[%u]", (unsigned)a);
    else if (a & 0x80)
        ls_buf_printf(b, "float(%u)", (unsigned)(a & 0x7f));
    else
        ls_buf_printf(b, "temp[%u]", (unsigned)a);
    *first = false;
}

static void print_operand(ls_buf *b, const r500_inst *in, int unit, int k)
{
    static const r500_field_id rs[3] = {R500_F_RGB_SEL_A, R500_F_RGB_SEL_B, R500_F_RGB_SEL_C};
    static const r500_field_id rm[3] = {R500_F_RGB_MOD_A, R500_F_RGB_MOD_B, R500_F_RGB_MOD_C};
    static const r500_field_id rz[3][3] = {
        {R500_F_RED_SWIZ_A, R500_F_GREEN_SWIZ_A, R500_F_BLUE_SWIZ_A},
        {R500_F_RED_SWIZ_B, R500_F_GREEN_SWIZ_B, R500_F_BLUE_SWIZ_B},
        {R500_F_RED_SWIZ_C, R500_F_GREEN_SWIZ_C, R500_F_BLUE_SWIZ_C}};
    static const r500_field_id as[3] = {R500_F_ALPHA_SEL_A, R500_F_ALPHA_SEL_B, R500_F_ALPHA_SEL_C};
    static const r500_field_id am[3] = {R500_F_ALPHA_MOD_A, R500_F_ALPHA_MOD_B, R500_F_ALPHA_MOD_C};
    static const r500_field_id az[3] = {R500_F_ALPHA_SWIZ_A, R500_F_ALPHA_SWIZ_B, R500_F_ALPHA_SWIZ_C};
    uint32_t sel = in->field[unit ? as[k] : rs[k]], mod = in->field[unit ? am[k] : rm[k]];
    ls_buf_puts(b, " ");
    if (mod & 1)
        ls_buf_putc(b, '-');
    if (mod & 2)
        ls_buf_putc(b, '|');
    if (sel == 3)
        ls_buf_puts(b, "srcp.");
    else
        ls_buf_printf(b, "src%u.", (unsigned)sel);
    if (unit)
        ls_buf_putc(b, swz_letters[in->field[az[k]] & 7]);
    else
        for (int c = 0; c < 3; c++)
            ls_buf_putc(b, swz_letters[in->field[rz[k][c]] & 7]);
    if (mod & 2)
        ls_buf_putc(b, '|');
}

static bool operand_zero(const r500_inst *in, int unit, int k)
{
    if (unit)
        return !in->field[R500_F_ALPHA_SEL_A + 3 * k] && !in->field[R500_F_ALPHA_SWIZ_A + 3 * k] &&
               !in->field[R500_F_ALPHA_MOD_A + 3 * k];
    if (k < 2) {
        r500_field_id f0 = k ? R500_F_RGB_SEL_B : R500_F_RGB_SEL_A;
        for (int i = 0; i < 5; i++)
            if (in->field[f0 + i])
                return false;
        return true;
    }
    for (int i = 0; i < 5; i++)
        if (in->field[R500_F_RGB_SEL_C + i])
            return false;
    return true;
}

typedef struct opname {
    const char *name;
    int nsrc;
} opname;

static void print_op(ls_buf *b, const r500_inst *in, int unit)
{
    static const opname rgb_ops[16] = {{"MAD", 3}, {"DP3", 2}, {"DP4", 2}, {"D2A", 3},
                                       {"MIN", 2}, {"MAX", 2}, {NULL, 0}, {"CND", 3},
                                       {"CMP", 3}, {"FRC", 1}, {"SOP", 0}, {"MDH", 3},
                                       {"MDV", 3}, {NULL, 0}, {NULL, 0}, {NULL, 0}};
    static const opname alpha_ops[16] = {{"MAD", 3}, {"DP", 0},  {"MIN", 2}, {"MAX", 2},
                                         {NULL, 0}, {"CND", 3}, {"CMP", 3}, {"FRC", 1},
                                         {"EX2", 1}, {"LN2", 1}, {"RCP", 1}, {"RSQ", 1},
                                         {"SIN", 1}, {"COS", 1}, {"MDH", 3}, {"MDV", 3}};
    static const char *masks[8] = {"none", "r", "g", "rg", "b", "rb", "gb", "rgb"};
    static const char *omods[7] = {"", "2.0 * ", "4.0 * ", "8.0 * ", "0.5 * ", "0.25 * ", "0.125 * "};
    const opname *op = unit ? &alpha_ops[in->field[R500_F_ALPHA_OP]] : &rgb_ops[in->field[R500_F_RGB_OP]];
    const char *name = op->name ? op->name : "MAD"; /* reserved: overridden in { } */
    uint32_t wm = in->field[unit ? R500_F_ALPHA_WMASK : R500_F_RGB_WMASK];
    uint32_t om = in->field[unit ? R500_F_ALPHA_OMASK : R500_F_RGB_OMASK];
    uint32_t omod = in->field[unit ? R500_F_ALPHA_OMOD : R500_F_RGB_OMOD];
    ls_buf_puts(b, "  ");
    if (wm)
        ls_buf_printf(b, "temp[%u].%s = ", (unsigned)in->field[unit ? R500_F_ALPHA_ADDRD : R500_F_RGB_ADDRD],
                      unit ? "a" : masks[wm & 7]);
    else if (om && in->type == R500_TYPE_OUT)
        ls_buf_printf(b, "out[%u].%s = ", (unsigned)in->field[unit ? R500_F_ALPHA_TARGET : R500_F_RGB_TARGET],
                      unit ? "a" : masks[om & 7]);
    if (omod >= 1 && omod <= 6)
        ls_buf_puts(b, omods[omod]);
    /* an op whose unit is ambiguous and has no destination is printed with the
     * mask that names its unit */
    ls_buf_puts(b, name);
    int last = op->nsrc - 1;
    for (int k = 2; k > last; k--)
        if (!operand_zero(in, unit, k)) {
            last = k;
            break;
        }
    for (int k = 0; k <= last; k++)
        print_operand(b, in, unit, k);
}

static bool alpha_unit_idle(const r500_inst *in)
{
    for (int f = R500_F_ALPHA_OP; f <= R500_F_ALPHA_TARGET; f++)
        if (in->field[f])
            return false;
    return !in->field[R500_F_ALPHA_WMASK] && !in->field[R500_F_ALPHA_OMASK] &&
           !in->field[R500_F_ALPHA_SEL_C] && !in->field[R500_F_ALPHA_SWIZ_C] &&
           !in->field[R500_F_ALPHA_MOD_C];
}

/* Core text of an ALU/OUT/TEX instruction in buhman syntax, without the
 * { } block and the final ';'. */
static void buhman_core(ls_buf *b, const r500_inst *in)
{
    const uint32_t *f = in->field;
    if (in->type == R500_TYPE_TEX) {
        static const char *ops[8] = {"NOP", "LD", "TEXKILL", "PROJ", "LODBIAS", "LOD", "DXDY", "NOP"};
        ls_buf_puts(b, "TEX");
        if (f[R500_F_TEX_SEM_WAIT]) ls_buf_puts(b, " TEX_SEM_WAIT");
        if (f[R500_F_TEX_SEM_ACQUIRE]) ls_buf_puts(b, " TEX_SEM_ACQUIRE");
        if (f[R500_F_NOP]) ls_buf_puts(b, " NOP");
        if (f[R500_F_LAST]) ls_buf_puts(b, " LAST");
        if (f[R500_F_ALU_WAIT]) ls_buf_puts(b, " ALU_WAIT");
        uint32_t m = f[R500_F_RGB_WMASK] | f[R500_F_ALPHA_WMASK] << 3;
        char mask[5];
        int k = 0;
        for (int c = 0; c < 4; c++)
            if ((m >> c) & 1)
                mask[k++] = "rgba"[c];
        if (!k)
            mask[k++] = 'r';
        mask[k] = 0;
        ls_buf_printf(b, "\n  temp[%u].%s = %s tex[%u].%c%c%c%c temp[%u].%c%c%c%c",
                      (unsigned)f[R500_F_TEX_DST_ADDR], mask, ops[f[R500_F_TEX_INST] & 7],
                      (unsigned)f[R500_F_TEX_ID], "rgba"[f[R500_F_TEX_DST_R_SWIZ]],
                      "rgba"[f[R500_F_TEX_DST_G_SWIZ]], "rgba"[f[R500_F_TEX_DST_B_SWIZ]],
                      "rgba"[f[R500_F_TEX_DST_A_SWIZ]], (unsigned)f[R500_F_TEX_SRC_ADDR],
                      "rgba"[f[R500_F_TEX_SRC_S_SWIZ]], "rgba"[f[R500_F_TEX_SRC_T_SWIZ]],
                      "rgba"[f[R500_F_TEX_SRC_R_SWIZ]], "rgba"[f[R500_F_TEX_SRC_Q_SWIZ]]);
        return;
    }
    bool tags = false;
    if (in->type == R500_TYPE_OUT) { ls_buf_puts(b, "OUT"); tags = true; }
    if (f[R500_F_TEX_SEM_WAIT]) { ls_buf_puts(b, tags ? " TEX_SEM_WAIT" : "TEX_SEM_WAIT"); tags = true; }
    if (f[R500_F_NOP]) { ls_buf_puts(b, tags ? " NOP" : "NOP"); tags = true; }
    if (f[R500_F_LAST]) { ls_buf_puts(b, tags ? " LAST" : "LAST"); tags = true; }
    if (f[R500_F_ALU_WAIT]) { ls_buf_puts(b, tags ? " ALU_WAIT" : "ALU_WAIT"); tags = true; }
    if (tags)
        ls_buf_putc(b, '\n');
    bool first = true;
    for (int k = 0; k < 3; k++)
        print_src_let(b, in, 1, k, &first);
    for (int k = 0; k < 3; k++)
        print_src_let(b, in, 0, k, &first);
    static const char *srcp[4] = {"neg2", "sub", "add", "neg"};
    if (f[R500_F_ALPHA_SRCP_OP]) {
        ls_buf_printf(b, "%ssrcp.a = %s", first ? "" : ", ", srcp[f[R500_F_ALPHA_SRCP_OP] & 3]);
        first = false;
    }
    if (f[R500_F_RGB_SRCP_OP]) {
        ls_buf_printf(b, "%ssrcp.rgb = %s", first ? "" : ", ", srcp[f[R500_F_RGB_SRCP_OP] & 3]);
        first = false;
    }
    ls_buf_puts(b, first ? ":\n" : " :\n");
    bool alpha = !alpha_unit_idle(in);
    /* An op without destination whose opcode exists in both units goes to the
     * first free unit (r500.md §6.1), so such an alpha op is printed second. */
    static const bool alpha_only[16] = {[1] = true, [8] = true, [9] = true, [10] = true,
                                        [11] = true, [12] = true, [13] = true};
    bool alpha_dest = f[R500_F_ALPHA_WMASK] || (f[R500_F_ALPHA_OMASK] && in->type == R500_TYPE_OUT);
    bool alpha_first = alpha_dest || alpha_only[f[R500_F_ALPHA_OP] & 15];
    if (alpha && alpha_first) {
        print_op(b, in, 1);
        ls_buf_puts(b, " ,\n");
    }
    print_op(b, in, 0);
    if (alpha && !alpha_first) {
        ls_buf_puts(b, " ,\n");
        print_op(b, in, 1);
    }
}

static bool assemble_one(const char *text, size_t len, uint32_t w[6])
{
    r500_asm_program prog;
    ls_diag_list errs;
    ls_diag_list_init(&errs);
    bool ok = r500_asm_mem("<disasm>", text, len, &prog, &errs) == LS_OK && prog.count == 1;
    if (ok)
        memcpy(w, prog.words, 6 * sizeof *w);
    if (errs.errors == 0)
        r500_asm_program_free(&prog);
    ls_diag_list_free(&errs);
    return ok;
}

/* buhman syntax with a { } block for whatever it cannot say; false if the
 * result does not assemble back to exactly these words. */
static bool buhman_form(ls_buf *out, const uint32_t *words, const r500_inst *in)
{
    ls_buf b;
    ls_buf_init(&b);
    buhman_core(&b, in);
    ls_buf_puts(&b, " ;");
    uint32_t w[6];
    bool ok = !b.oom && assemble_one(b.data, b.len, w);
    if (ok && memcmp(w, words, sizeof w) != 0) {
        r500_inst got;
        r500_decode(w, &got);
        b.len -= 2;
        b.data[b.len] = 0;
        ls_buf_puts(&b, " {");
        for (unsigned i = 0; i < R500_F_COUNT; i++) {
            const r500_field_desc *fd = r500_field((r500_field_id)i);
            if (i == R500_F_TYPE || !r500_field_applies(fd, in->type) || got.field[i] == in->field[i])
                continue;
            const char *vn = r500_value_name(fd->values, in->field[i]);
            if (is_identifier(vn))
                ls_buf_printf(&b, " %s=%s", fd->id, vn);
            else
                ls_buf_printf(&b, " %s=%u", fd->id, (unsigned)in->field[i]);
        }
        ls_buf_puts(&b, " } ;");
        ok = !b.oom && assemble_one(b.data, b.len, w) && !memcmp(w, words, sizeof w);
    }
    if (ok) {
        ls_buf_append(out, b.data, b.len);
        ls_buf_putc(out, '\n');
    }
    ls_buf_free(&b);
    return ok;
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
                   int level, ls_buf *b)
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
            bool s = level >= 2 && structured_form(&tmp, w, &in);
            /* structured forms compute their own targets, except CALL and JUMP */
            if (!s || strstr(tmp.data ? tmp.data : "", "CALL") || strstr(tmp.data ? tmp.data : "", "JUMP"))
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
        if (in.type == R500_TYPE_FC && level >= 2 && structured_form(b, words + 6 * k, &in))
            continue;
        if (in.type != R500_TYPE_FC && level >= 1 && buhman_form(b, words + 6 * k, &in))
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
    /* Keep the most readable rendering that assembles to the same words:
     * structured FC + buhman syntax, then buhman syntax alone, then field forms. */
    for (int level = 2; level >= 0; level--) {
        ls_buf_reset(&b);
        render(words, count, state, level, &b);
        if (level == 0)
            break;
        r500_asm_program prog;
        ls_diag_list errs;
        ls_diag_list_init(&errs);
        bool same = !b.oom &&
                    r500_asm_mem("<disasm>", b.data ? b.data : "", b.len, &prog, &errs) == LS_OK &&
                    prog.count == count && !memcmp(prog.words, words, count * 6 * sizeof *words);
        if (errs.errors == 0)
            r500_asm_program_free(&prog);
        ls_diag_list_free(&errs);
        if (same)
            break;
    }
    ls_buf_append(out, b.data ? b.data : "", b.len);
    ls_buf_free(&b);
}
