/* R500 jobs: the program, the global registers, constants, inputs and
 * options of one run, loaded from .bin, hex-dword text or JSON
 * (docs/assumptions.md, "R500: jobs, inputs and outputs"). */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/json.h"
#include "lockstep/mesa_cs.h"
#include "lockstep/r500_asm.h"
#include "exec_internal.h"
#include "isa_format.h"

void r500_job_init(r500_job *job)
{
    memset(job, 0, sizeof *job);
    /* Registers as Mesa's r300 driver writes them for every fragment program
     * (spec/r500.md §1.9, §3.2): US_CONFIG = ZERO_TIMES_ANYTHING_EQUALS_ZERO
     * (the non-ieeemath default), FULL_FC_EN, US_FC_INT_CONST_0 = KR 255. */
    job->regs.us_config = 0x2;
    job->regs.fc_ctrl = 0x80000000u;
    job->regs.fc_int_const[0] = 0xff;
    job->width = 16;
    job->height = 16;
    job->thread_size = 48; /* RV530 (the corpus's chip), spec/r500.md §5 */
    r500_options_default(&job->options);
}

void r500_job_free(r500_job *job)
{
    if (!job)
        return;
    free(job->words);
    for (unsigned i = 0; i < R500_NUM_SAMPLERS; i++)
        r500_exec_texture_free(job->tex[i]);
    memset(job, 0, sizeof *job);
}

ls_status r500_job_set_program(r500_job *job, const uint32_t *words, size_t ninst,
                               bool set_range, ls_diag *d)
{
    if (ninst == 0 || ninst > R500_MAX_INSTS)
        return ls_diag_set(d, LS_ERR_RANGE, NULL, 0, 0,
                           "program has %zu instructions (1..%d allowed)", ninst, R500_MAX_INSTS);
    uint32_t *w = malloc(ninst * R500_INST_WORDS * sizeof *w);
    if (!w)
        return ls_diag_set(d, LS_ERR_NOMEM, NULL, 0, 0, "out of memory");
    memcpy(w, words, ninst * R500_INST_WORDS * sizeof *w);
    free(job->words);
    job->words = w;
    job->ninst = ninst;
    if (set_range) {
        /* Mesa: US_CODE_RANGE(0, end), US_CODE_OFFSET 0, US_CODE_ADDR(0, end) */
        uint32_t end = (uint32_t)(ninst - 1);
        job->regs.code_addr = end << 16;
        job->regs.code_range = end << 16;
        job->regs.code_offset = 0;
    }
    return LS_OK;
}

/* ---- JSON jobs ---------------------------------------------------------- */

static ls_status jerr(ls_diag *d, const char *file, const ls_json *v, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static ls_status jerr(ls_diag *d, const char *file, const ls_json *v, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    ls_diag_vset(d, LS_ERR_PARSE, file, v ? v->line : 0, v ? v->col : 0, fmt, ap);
    va_end(ap);
    return LS_ERR_PARSE;
}

/* A 32-bit word: "0x..." string or a non-negative integer number. */
static ls_status j_u32(const ls_json *v, const char *file, const char *what, uint32_t *out,
                       ls_diag *d)
{
    if (v && v->type == LS_JSON_STRING) {
        const char *s = v->text;
        char *end;
        if ((s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) && s[2]) {
            errno = 0;
            unsigned long long x = strtoull(s + 2, &end, 16);
            if (!errno && !*end && x <= 0xffffffffull) {
                *out = (uint32_t)x;
                return LS_OK;
            }
        }
        return jerr(d, file, v, "%s: expected a 32-bit hex word \"0x...\", got \"%s\"", what, s);
    }
    int64_t x;
    if (v && ls_json_int(v, 0, 0xffffffffll, &x)) {
        *out = (uint32_t)x;
        return LS_OK;
    }
    return jerr(d, file, v, "%s: expected a 32-bit word (\"0x...\" or integer)", what);
}

static ls_status j_float(const ls_json *v, const char *file, const char *what, float *out,
                         ls_diag *d)
{
    if (!v || v->type != LS_JSON_NUMBER)
        return jerr(d, file, v, "%s: expected a number", what);
    *out = (float)v->number;
    return LS_OK;
}

static ls_status j_vec4(const ls_json *v, const char *file, const char *what, float out[4],
                        ls_diag *d)
{
    if (!v || v->type != LS_JSON_ARRAY || v->count != 4)
        return jerr(d, file, v, "%s: expected an array of 4 numbers", what);
    for (int i = 0; i < 4; i++)
        if (j_float(v->items[i], file, what, &out[i], d))
            return LS_ERR_PARSE;
    return LS_OK;
}

/* An index key "N" (or "tN", "cN" when prefix given) in 0..max-1. */
static bool key_index(const char *k, char prefix, unsigned max, unsigned *out)
{
    if (prefix && (*k == prefix || *k == (prefix ^ 0x20)))
        k++;
    if (!*k)
        return false;
    unsigned v = 0;
    for (; *k; k++) {
        if (*k < '0' || *k > '9' || v > 100000)
            return false;
        v = v * 10 + (unsigned)(*k - '0');
    }
    if (v >= max)
        return false;
    *out = v;
    return true;
}

static ls_status load_consts(r500_job *job, const ls_json *c, const char *file, ls_diag *d)
{
    if (c->type != LS_JSON_OBJECT)
        return jerr(d, file, c, "us_const: expected an object keyed by constant index");
    for (size_t i = 0; i < c->count; i++) {
        unsigned idx;
        const ls_json *v = c->items[i];
        if (!key_index(c->keys[i], 'c', R500_NUM_CONSTS, &idx))
            return jerr(d, file, v, "us_const: bad constant index \"%s\" (0..255)", c->keys[i]);
        /* corpus form {"hex": [4 words], "f32": [...]}: the hex bits are exact */
        const ls_json *hex = v->type == LS_JSON_OBJECT ? ls_json_get(v, "hex") : NULL;
        const ls_json *f32 = v->type == LS_JSON_OBJECT ? ls_json_get(v, "f32") : NULL;
        if (hex) {
            if (hex->type != LS_JSON_ARRAY || hex->count != 4)
                return jerr(d, file, hex, "us_const: \"hex\" must hold 4 words");
            for (int k = 0; k < 4; k++) {
                uint32_t u;
                if (j_u32(hex->items[k], file, "us_const hex", &u, d))
                    return LS_ERR_PARSE;
                memcpy(&job->consts[idx][k], &u, 4);
            }
        } else if (f32) {
            if (j_vec4(f32, file, "us_const f32", job->consts[idx], d))
                return LS_ERR_PARSE;
        } else if (j_vec4(v, file, "us_const", job->consts[idx], d)) {
            return LS_ERR_PARSE;
        }
    }
    return LS_OK;
}

static ls_status parse_input_text(r500_input *in, const char *s)
{
    if (!strcmp(s, "uv"))
        in->kind = R500_INPUT_UV;
    else if (!strcmp(s, "clip"))
        in->kind = R500_INPUT_CLIP;
    else if (!strcmp(s, "none"))
        in->kind = R500_INPUT_NONE;
    else
        return LS_ERR_PARSE;
    return LS_OK;
}

/* Same name up to case and underscores ("US_FC_INT_CONST0"). */
static bool loose_eq(const char *a, const char *b)
{
    for (;;) {
        while (*a == '_')
            a++;
        while (*b == '_')
            b++;
        if ((*a | 0x20) != (*b | 0x20) || (*a && !*b) || (!*a && *b))
            return false;
        if (!*a)
            return true;
        a++, b++;
    }
}

/* A register name no table knows is an error (a misspelt name would
 * otherwise leave the register silently unchanged), with a suggestion. */
static ls_status unknown_reg(ls_diag *d, const char *file, const ls_json *v, const char *k)
{
    char cand[32];
    for (uint32_t a = 0; a < 0x10000; a += 4) {
        const char *nm = mesa_cs_reg_name(a);
        if (!nm && a >= 0x4C00 && a < 0x4C80) {
            snprintf(cand, sizeof cand, "US_FC_INT_CONST_%u", (a - 0x4C00) / 4);
            nm = cand;
        }
        if (nm && loose_eq(nm, k))
            return jerr(d, file, v, "regs: unknown register \"%s\" (did you mean %s?)", k, nm);
    }
    return jerr(d, file, v,
                "regs: unknown register \"%s\" (US_CONFIG, US_FC_CTRL, US_FC_BOOL_CONST, "
                "US_FC_INT_CONST_0..31, US_CODE_ADDR/RANGE/OFFSET or a register of "
                "the command-stream decoder, docs/mesa.md)", k);
}

static ls_status load_regs(r500_job *job, const ls_json *regs, const char *file, ls_diag *d)
{
    if (regs->type != LS_JSON_OBJECT)
        return jerr(d, file, regs, "regs: expected an object of register values");
    for (size_t i = 0; i < regs->count; i++) {
        const char *k = regs->keys[i];
        const ls_json *v = regs->items[i];
        uint32_t *dst = NULL;
        unsigned n;
        if (!strcmp(k, "US_CONFIG"))
            dst = &job->regs.us_config;
        else if (!strcmp(k, "US_FC_BOOL_CONST"))
            dst = &job->regs.fc_bool_const;
        else if (!strcmp(k, "US_FC_CTRL"))
            dst = &job->regs.fc_ctrl;
        else if (!strcmp(k, "US_CODE_ADDR"))
            dst = &job->regs.code_addr;
        else if (!strcmp(k, "US_CODE_RANGE"))
            dst = &job->regs.code_range;
        else if (!strcmp(k, "US_CODE_OFFSET"))
            dst = &job->regs.code_offset;
        else if (!strncmp(k, "US_FC_INT_CONST_", 16) && key_index(k + 16, 0, 32, &n))
            dst = &job->regs.fc_int_const[n];
        uint32_t addr, ignored;
        if (!dst && !mesa_cs_reg_addr(k, &addr))
            return unknown_reg(d, file, v, k);
        /* other registers the command-stream decoder names (RS, VAP, RB3D...)
         * do not affect the US: checked, then ignored */
        if (j_u32(v, file, k, dst ? dst : &ignored, d))
            return LS_ERR_PARSE;
    }
    return LS_OK;
}

static ls_status load_inputs(r500_job *job, const ls_json *in, const char *file, ls_diag *d)
{
    if (in->type != LS_JSON_OBJECT)
        return jerr(d, file, in, "inputs: expected an object {\"tN\": \"uv\"|\"clip\"|[a,b,c,d]}");
    for (size_t i = 0; i < in->count; i++) {
        unsigned t;
        const ls_json *v = in->items[i];
        if (!key_index(in->keys[i], 't', R500_NUM_TEMPS, &t))
            return jerr(d, file, v, "inputs: bad temp \"%s\" (t0..t127)", in->keys[i]);
        r500_input *inp = &job->inputs[t];
        if (v->type == LS_JSON_STRING) {
            if (parse_input_text(inp, v->text))
                return jerr(d, file, v, "inputs: unknown input \"%s\" (uv, clip, none or 4 numbers)",
                            v->text);
        } else {
            if (j_vec4(v, file, "inputs", inp->value, d))
                return LS_ERR_PARSE;
            inp->kind = R500_INPUT_CONST;
        }
    }
    return LS_OK;
}

/* Dirname of path (with trailing slash) into buf, "" if none. */
static void dir_of(const char *path, char *buf, size_t n)
{
    const char *slash = strrchr(path, '/');
    size_t len = slash ? (size_t)(slash - path + 1) : 0;
    if (len >= n)
        len = 0;
    memcpy(buf, path, len);
    buf[len] = 0;
}

static ls_status load_program_file(r500_job *job, const char *path, const ls_json *at,
                                   const char *file, ls_diag *d);

ls_status r500_job_load_json(r500_job *job, const char *name, const char *text, size_t len,
                             ls_diag *d)
{
    ls_json *root = NULL;
    ls_status st = ls_json_parse(text, len, name, &root, d);
    if (st)
        return st;
    if (root->type != LS_JSON_OBJECT) {
        st = jerr(d, name, root, "a job must be a JSON object");
        goto done;
    }
    const ls_json *v;
    bool have_program = false;
    if ((v = ls_json_get(root, "regs")) && (st = load_regs(job, v, name, d)))
        goto done;
    if ((v = ls_json_get(root, "us_inst"))) {
        /* corpus form: [[6 words], ...] from US_CODE_ADDR start to end */
        if (v->type != LS_JSON_ARRAY || v->count == 0 || v->count > R500_MAX_INSTS) {
            st = jerr(d, name, v, "us_inst: expected 1..512 instructions of 6 words");
            goto done;
        }
        uint32_t *w = calloc(v->count * R500_INST_WORDS, sizeof *w);
        if (!w) {
            st = ls_diag_set(d, LS_ERR_NOMEM, name, 0, 0, "out of memory");
            goto done;
        }
        for (size_t i = 0; i < v->count && !st; i++) {
            const ls_json *inst = v->items[i];
            if (inst->type != LS_JSON_ARRAY || inst->count != R500_INST_WORDS) {
                st = jerr(d, name, inst, "us_inst[%zu]: expected an array of 6 words", i);
                break;
            }
            for (size_t k = 0; k < R500_INST_WORDS && !st; k++)
                st = j_u32(inst->items[k], name, "us_inst", &w[i * R500_INST_WORDS + k], d);
        }
        if (!st)
            st = r500_job_set_program(job, w, v->count, !ls_json_get(root, "regs"), d);
        free(w);
        if (st)
            goto done;
        have_program = true;
    }
    if ((v = ls_json_get(root, "program"))) {
        if (v->type != LS_JSON_STRING) {
            st = jerr(d, name, v, "program: expected a file name");
            goto done;
        }
        char dir[1024], path[2048];
        dir_of(name, dir, sizeof dir);
        snprintf(path, sizeof path, "%s%s", v->text[0] == '/' ? "" : dir, v->text);
        if ((st = load_program_file(job, path, v, name, d)))
            goto done;
        have_program = true;
    }
    if (!have_program) {
        st = jerr(d, name, root, "job has no program (\"us_inst\" or \"program\")");
        goto done;
    }
    if ((v = ls_json_get(root, "us_const")) && (st = load_consts(job, v, name, d)))
        goto done;
    if ((v = ls_json_get(root, "fc_ctrl")) && v->type != LS_JSON_NULL &&
        (st = j_u32(v, name, "fc_ctrl", &job->regs.fc_ctrl, d)))
        goto done;
    if ((v = ls_json_get(root, "fc_bool_const")) && v->type != LS_JSON_NULL &&
        (st = j_u32(v, name, "fc_bool_const", &job->regs.fc_bool_const, d)))
        goto done;
    /* rs: each texcoord interpolant the RS unit writes is the quad's uv in the
     * corpus set-up (corpus/mesa-r300/README.md); gl_FragCoord's clip-space
     * input cannot be told apart here and is given with "inputs". */
    if ((v = ls_json_get(root, "rs")) && v->type == LS_JSON_OBJECT) {
        const ls_json *insts = ls_json_get(v, "inst");
        if (insts && insts->type == LS_JSON_ARRAY) {
            for (size_t i = 0; i < insts->count; i++) {
                const ls_json *ri = insts->items[i];
                const ls_json *tw = ri->type == LS_JSON_OBJECT ? ls_json_get(ri, "tex_write") : NULL;
                const ls_json *ta = ri->type == LS_JSON_OBJECT ? ls_json_get(ri, "tex_addr_temp") : NULL;
                int64_t t;
                if (tw && tw->type == LS_JSON_BOOL && tw->boolean) {
                    if (!ta || !ls_json_int(ta, 0, R500_NUM_TEMPS - 1, &t)) {
                        st = jerr(d, name, ta ? ta : ri, "rs: tex_addr_temp must be 0..127");
                        goto done;
                    }
                    job->inputs[t].kind = R500_INPUT_UV;
                }
            }
        }
    }
    if ((v = ls_json_get(root, "inputs")) && (st = load_inputs(job, v, name, d)))
        goto done;
    if ((v = ls_json_get(root, "size"))) {
        int64_t w, h;
        if (v->type != LS_JSON_ARRAY || v->count != 2 || !ls_json_int(v->items[0], 1, 16384, &w) ||
            !ls_json_int(v->items[1], 1, 16384, &h)) {
            st = jerr(d, name, v, "size: expected [width, height], 1..16384");
            goto done;
        }
        job->width = (int)w;
        job->height = (int)h;
    }
    if ((v = ls_json_get(root, "thread"))) {
        int64_t t;
        if (!ls_json_int(v, 1, R500_MAX_LANES, &t)) {
            st = jerr(d, name, v, "thread: expected 1..64");
            goto done;
        }
        job->thread_size = (unsigned)t;
    }
    if ((v = ls_json_get(root, "clear")) && (st = j_vec4(v, name, "clear", job->clear, d)))
        goto done;
    if ((v = ls_json_get(root, "model"))) {
        if (v->type != LS_JSON_OBJECT) {
            st = jerr(d, name, v, "model: expected {\"option\": \"value\"}");
            goto done;
        }
        for (size_t i = 0; i < v->count; i++) {
            const ls_json *o = v->items[i];
            char val[64];
            if (o->type == LS_JSON_STRING)
                snprintf(val, sizeof val, "%s", o->text);
            else if (o->type == LS_JSON_NUMBER)
                snprintf(val, sizeof val, "%s", o->text);
            else if (o->type == LS_JSON_BOOL)
                snprintf(val, sizeof val, "%d", o->boolean);
            else {
                st = jerr(d, name, o, "model: option values are strings or numbers");
                goto done;
            }
            if ((st = r500_options_set(&job->options, v->keys[i], val, d))) {
                d->line = o->line;
                d->col = o->col;
                snprintf(d->file, sizeof d->file, "%s", name);
                goto done;
            }
        }
    }
    if ((v = ls_json_get(root, "textures"))) {
        if (v->type != LS_JSON_OBJECT) {
            st = jerr(d, name, v, "textures: expected {\"N\": \"file\"}");
            goto done;
        }
        char dir[1024], path[2048];
        dir_of(name, dir, sizeof dir);
        for (size_t i = 0; i < v->count; i++) {
            unsigned s;
            const ls_json *t = v->items[i];
            if (!key_index(v->keys[i], 0, R500_NUM_SAMPLERS, &s) || t->type != LS_JSON_STRING) {
                st = jerr(d, name, t, "textures: expected \"0\"..\"15\": \"file\"");
                goto done;
            }
            snprintf(path, sizeof path, "%s%s", t->text[0] == '/' ? "" : dir, t->text);
            if ((st = r500_job_load_texture(job, s, path, d)))
                goto done;
        }
    }
done:
    ls_json_free(root);
    return st;
}

/* ---- raw programs ------------------------------------------------------- */

ls_status r500_job_apply_program(r500_job *job, const r500_asm_program *prog, ls_diag *d)
{
    const r500_asm_state *s = &prog->state;
    if (prog->count == 0 || !prog->words)
        return ls_diag_set(d, LS_ERR_PARSE, NULL, 0, 0, "empty program: no instructions");
    /* .offset N: the program occupies slots N.. of the instruction memory
     * (buhman's convention, r500.md §1.9: CODE_OFFSET = N, CODE_ADDR relative
     * to it, CODE_RANGE absolute); the slots below are left zero. */
    size_t off = s->offset > 0 ? (size_t)s->offset : 0;
    if (off + prog->count > R500_MAX_INSTS)
        return ls_diag_set(d, LS_ERR_RANGE, NULL, 0, 0,
                           ".offset %zu + %zu instructions exceeds the %d slots", off,
                           prog->count, R500_MAX_INSTS);
    uint32_t *w = calloc((off + prog->count) * R500_INST_WORDS, sizeof *w);
    if (!w)
        return ls_diag_set(d, LS_ERR_NOMEM, NULL, 0, 0, "out of memory");
    memcpy(w + off * R500_INST_WORDS, prog->words, prog->count * R500_INST_WORDS * sizeof *w);
    ls_status st = r500_job_set_program(job, w, off + prog->count, true, d);
    free(w);
    if (st)
        return st;
    for (unsigned n = 0; n < R500_NUM_CONSTS; n++)
        if (s->const_set[n])
            memcpy(job->consts[n], s->consts[n], sizeof job->consts[n]);
    if (s->bool_set)
        job->regs.fc_bool_const = s->bool_const;
    for (unsigned n = 0; n < 32; n++)
        if ((s->int_set >> n) & 1)
            job->regs.fc_int_const[n] = s->int_const[n];
    if (s->fc_full >= 0)
        job->regs.fc_ctrl = s->fc_full ? 0x80000000u : 0;
    if (off) {
        uint32_t end = (uint32_t)prog->count - 1;
        job->regs.code_offset = (uint32_t)off;
        job->regs.code_addr = end << 16;
        job->regs.code_range = (uint32_t)off | end << 16;
    }
    return LS_OK;
}

ls_status r500_job_get_program(const r500_job *job, r500_asm_program *out, ls_diag *d)
{
    memset(out, 0, sizeof *out);
    out->state.fc_full = -1;
    out->state.offset = -1;
    if (!job->words || job->ninst == 0)
        return ls_diag_set(d, LS_ERR_ARG, NULL, 0, 0, "the job has no program");
    /* a program behind .offset N: slots below N all zero, CODE_OFFSET = N */
    size_t off = job->regs.code_offset & 0x1ff;
    for (size_t k = 0; off && k < off * R500_INST_WORDS && k < job->ninst * R500_INST_WORDS; k++)
        if (job->words[k])
            off = 0;
    if (off >= job->ninst)
        off = 0;
    out->count = job->ninst - off;
    out->words = malloc(out->count * R500_INST_WORDS * sizeof *out->words);
    if (!out->words)
        return ls_diag_set(d, LS_ERR_NOMEM, NULL, 0, 0, "out of memory");
    memcpy(out->words, job->words + off * R500_INST_WORDS,
           out->count * R500_INST_WORDS * sizeof *out->words);
    if (off)
        out->state.offset = (int)off;
    r500_job def;
    r500_job_init(&def);
    for (unsigned n = 0; n < R500_NUM_CONSTS; n++) {
        memcpy(out->state.consts[n], job->consts[n], sizeof out->state.consts[n]);
        out->state.const_set[n] = memcmp(job->consts[n], def.consts[n], sizeof def.consts[n]) != 0;
    }
    out->state.bool_const = job->regs.fc_bool_const;
    out->state.bool_set = job->regs.fc_bool_const != def.regs.fc_bool_const;
    for (unsigned n = 0; n < 32; n++) {
        out->state.int_const[n] = job->regs.fc_int_const[n];
        if (job->regs.fc_int_const[n] != def.regs.fc_int_const[n])
            out->state.int_set |= 1u << n;
    }
    if ((job->regs.fc_ctrl ^ def.regs.fc_ctrl) & 0x80000000u)
        out->state.fc_full = (int)(job->regs.fc_ctrl >> 31);
    return LS_OK;
}

/* Assembly source: the program and the state its directives give
 * (docs/r500-asm.md). Only the first error is returned here; the CLI's
 * `lockstep r500 asm` lists them all. */
static ls_status load_asm(r500_job *job, const char *name, const char *data, size_t len,
                          ls_diag *d)
{
    r500_asm_program prog;
    ls_diag_list errs;
    ls_diag_list_init(&errs);
    ls_status st = r500_asm_mem(name, data, len, &prog, &errs);
    if (st) {
        if (d && errs.count)
            *d = errs.items[0];
        if (d && errs.count > 1)
            snprintf(d->msg + strlen(d->msg), sizeof d->msg - strlen(d->msg),
                     " (and %zu more errors)", errs.count - 1);
        ls_diag_list_free(&errs);
        return st;
    }
    ls_diag_list_free(&errs);
    st = r500_job_apply_program(job, &prog, d);
    if (st && d && !d->file[0])
        snprintf(d->file, sizeof d->file, "%s", name);
    r500_asm_program_free(&prog);
    return st;
}

ls_status r500_job_load_mem(r500_job *job, const char *name, const char *data, size_t len,
                            ls_diag *d)
{
    uint32_t *words = NULL;
    size_t count = 0;
    ls_status st;
    switch (r500_detect_format(name, data, len)) {
    case R500_FILE_BIN:
        st = r500_parse_bin_words(name, (const uint8_t *)data, len, &words, &count, d);
        break;
    case R500_FILE_HEX: {
        r500_hex_const *cv = NULL;
        size_t ncv = 0;
        st = r500_parse_hex_program(name, data, len, &words, &count, &cv, &ncv, d);
        for (size_t i = 0; !st && i < ncv; i++)
            memcpy(job->consts[cv[i].index], cv[i].bits, sizeof job->consts[0]);
        free(cv);
        break;
    }
    case R500_FILE_JSON:
        return r500_job_load_json(job, name, data, len, d);
    case R500_FILE_ASM:
        return load_asm(job, name, data, len, d);
    default:
        return ls_diag_set(d, LS_ERR_PARSE, name, 0, 0,
                           "not a .bin, hex-dword or JSON program");
    }
    if (!st)
        st = r500_job_set_program(job, words, count, true, d);
    if (st && !d->file[0])
        snprintf(d->file, sizeof d->file, "%s", name);
    free(words);
    return st;
}

static ls_status read_whole(const char *path, ls_buf *b, ls_diag *d)
{
    ls_buf_init(b);
    if (!ls_read_file(path, b)) {
        ls_status st = ls_diag_set(d, LS_ERR_IO, path, 0, 0, "cannot read: %s", strerror(errno));
        ls_buf_free(b);
        return st;
    }
    return LS_OK;
}

static ls_status load_program_file(r500_job *job, const char *path, const ls_json *at,
                                   const char *file, ls_diag *d)
{
    ls_buf b;
    ls_status st = read_whole(path, &b, d);
    if (st)
        return st; /* names the missing file */
    if (r500_detect_format(path, b.data, b.len) == R500_FILE_JSON)
        st = ls_diag_set(d, LS_ERR_PARSE, file, at ? at->line : 0, at ? at->col : 0,
                         "program: %s is a JSON job, not a program", path);
    else
        st = r500_job_load_mem(job, path, b.data ? b.data : "", b.len, d);
    ls_buf_free(&b);
    return st;
}

ls_status r500_job_load(r500_job *job, const char *path, ls_diag *d)
{
    ls_buf b;
    ls_status st = read_whole(path, &b, d);
    if (st)
        return st;
    st = r500_job_load_mem(job, path, b.data ? b.data : "", b.len, d);
    ls_buf_free(&b);
    return st;
}

ls_status r500_job_load_texture(r500_job *job, unsigned sampler, const char *path, ls_diag *d)
{
    if (sampler >= R500_NUM_SAMPLERS)
        return ls_diag_set(d, LS_ERR_RANGE, NULL, 0, 0, "sampler %u outside 0..15", sampler);
    if (!job->texture_loader.load)
        return ls_diag_set(d, LS_ERR_UNSUPPORTED, path, 0, 0,
                           "no texture loader (set job.texture_loader, e.g. to "
                           "r500_texture_load_file)");
    struct r500_texture *t = NULL;
    ls_status st = job->texture_loader.load(job->texture_loader.ctx, path, &t, d);
    if (st)
        return st;
    r500_exec_texture_free(job->tex[sampler]);
    job->tex[sampler] = t;
    return LS_OK;
}

ls_status r500_program_load_mem(const char *name, const char *data, size_t len,
                                r500_asm_program *out, ls_diag *d)
{
    memset(out, 0, sizeof *out);
    out->state.fc_full = -1;
    out->state.offset = -1;
    ls_status st;
    switch (r500_detect_format(name, data, len)) {
    case R500_FILE_BIN:
        st = r500_parse_bin_words(name, (const uint8_t *)data, len, &out->words, &out->count, d);
        break;
    case R500_FILE_HEX: {
        r500_hex_const *cv = NULL;
        size_t ncv = 0;
        st = r500_parse_hex_program(name, data, len, &out->words, &out->count, &cv, &ncv, d);
        /* "cN:" lines are the program's constants: kept as its .const state */
        for (size_t i = 0; !st && i < ncv; i++) {
            memcpy(out->state.consts[cv[i].index], cv[i].bits, sizeof out->state.consts[0]);
            out->state.const_set[cv[i].index] = true;
        }
        free(cv);
        break;
    }
    case R500_FILE_ASM: {
        ls_diag_list errs;
        ls_diag_list_init(&errs);
        st = r500_asm_mem(name, data, len, out, &errs);
        if (st && d && errs.count) {
            *d = errs.items[0];
            if (errs.count > 1)
                snprintf(d->msg + strlen(d->msg), sizeof d->msg - strlen(d->msg),
                         " (and %zu more errors)", errs.count - 1);
        }
        ls_diag_list_free(&errs);
        if (st) {
            memset(out, 0, sizeof *out);
            return st;
        }
        break;
    }
    case R500_FILE_JSON: {
        r500_job job;
        r500_job_init(&job);
        st = r500_job_load_json(&job, name, data, len, d);
        if (!st)
            st = r500_job_get_program(&job, out, d);
        r500_job_free(&job);
        break;
    }
    default:
        st = ls_diag_set(d, LS_ERR_PARSE, name, 0, 0,
                         "not a .bin, hex-dword, assembly or JSON program");
    }
    if (!st && out->count == 0)
        st = ls_diag_set(d, LS_ERR_PARSE, name, 0, 0, "empty program: no instructions");
    if (st) {
        if (d && !d->file[0])
            snprintf(d->file, sizeof d->file, "%s", name);
        r500_asm_program_free(out);
        memset(out, 0, sizeof *out);
    }
    return st;
}

ls_status r500_program_load(const char *path, r500_asm_program *out, ls_diag *d)
{
    ls_buf b;
    memset(out, 0, sizeof *out);
    ls_status st = read_whole(path, &b, d);
    if (st)
        return st;
    st = r500_program_load_mem(path, b.data ? b.data : "", b.len, out, d);
    ls_buf_free(&b);
    return st;
}
