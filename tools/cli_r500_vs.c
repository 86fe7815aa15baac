/* `lockstep r500 vs asm|dis|run`: the R500 vertex engine (PVS). Manual:
 * docs/r500-vs.md; options: cli_table.c. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "cli.h"
#include "lockstep/r500_pvs.h"

static bool has_suffix(const char *s, const char *suf)
{
    size_t a = strlen(s), b = strlen(suf);
    return a >= b && !strcasecmp(s + a - b, suf);
}

/* .asm: assemble; .bin: little-endian dwords; anything else: hex text. */
static int load_program(cli_args *a, const char *path, uint32_t **words, size_t *count)
{
    ls_buf data;
    int rc = cli_read(a, path, &data);
    if (rc)
        return rc;
    const char *name = cli_name(path);
    ls_diag d;
    ls_diag_clear(&d);
    if (has_suffix(path, ".asm")) {
        r500_pvs_program p;
        ls_diag_list errs;
        ls_diag_list_init(&errs);
        if (r500_pvs_asm(name, data.data ? data.data : "", data.len, &p, &errs) != LS_OK) {
            rc = cli_report_list(a, &errs);
        } else {
            *words = p.words;
            *count = p.count;
        }
        ls_diag_list_free(&errs);
    } else if (r500_pvs_load_words(name, data.data ? data.data : "", data.len,
                                   has_suffix(path, ".bin"), words, count, &d) != LS_OK) {
        rc = cli_report(a, &d);
    }
    ls_buf_free(&data);
    if (!rc && *count == 0) {
        free(*words);
        *words = NULL;
        rc = cli_err(a, CLI_INPUT, "%s: error: the program has no instructions", name);
    }
    return rc;
}

int cli_r500_vs_asm(cli_args *a)
{
    const char *out = cli_get(a, "output");
    bool hex = cli_flag(a, "hex");
    if (!out)
        out = "-";
    if (!hex && !strcmp(out, "-") && isatty(1))
        return cli_usage(a, "the words are binary and stdout is a terminal: give -o FILE or --hex");
    uint32_t *w = NULL;
    size_t n = 0;
    int rc = load_program(a, a->ops[0], &w, &n);
    if (rc != CLI_OK)
        return rc;
    ls_buf b;
    ls_buf_init(&b);
    for (size_t k = 0; k < 4 * n; k++) {
        if (hex) {
            ls_buf_printf(&b, "0x%08x,%s", (unsigned)w[k], k % 4 == 3 ? "\n" : " ");
        } else {
            uint8_t le[4] = {(uint8_t)w[k], (uint8_t)(w[k] >> 8), (uint8_t)(w[k] >> 16),
                             (uint8_t)(w[k] >> 24)};
            ls_buf_append(&b, le, 4);
        }
    }
    free(w);
    rc = cli_write(a, out, &b);
    ls_buf_free(&b);
    return rc;
}

int cli_r500_vs_dis(cli_args *a)
{
    bool fields = cli_flag(a, "fields");
    const char *out = cli_get(a, "output");
    uint32_t *w = NULL;
    size_t n = 0;
    int rc = load_program(a, a->ops[0], &w, &n);
    if (rc != CLI_OK)
        return rc;
    ls_buf b;
    ls_buf_init(&b);
    if (fields) {
        for (size_t k = 0; k < n; k++) {
            r500_pvs_inst in;
            r500_pvs_decode(w + 4 * k, &in);
            r500_pvs_format_fields(&b, (unsigned)k, &in);
        }
    } else {
        r500_pvs_disasm(w, n, &b);
    }
    free(w);
    rc = cli_write(a, out ? out : "-", &b);
    ls_buf_free(&b);
    return rc;
}

/* "iN=x,y,z,w" / "cN=..." */
static bool parse_vec(const char *s, char prefix, unsigned max, unsigned *idx, float v[4])
{
    if ((s[0] | 32) != prefix)
        return false;
    char *end;
    errno = 0;
    unsigned long i = strtoul(s + 1, &end, 10);
    if (end == s + 1 || *end != '=' || errno || i >= max)
        return false;
    float tmp[4] = {0, 0, 0, 0};
    int n = ls_parse_floats(end + 1, tmp, 4);
    if (n < 1)
        return false;
    *idx = (unsigned)i;
    memcpy(v, tmp, sizeof tmp);
    return true;
}

int cli_r500_vs_run(cli_args *a)
{
    r500_pvs_fc fc;
    memset(&fc, 0, sizeof fc);
    bool have_fc = false;
    r500_pvs_options o;
    r500_pvs_options_default(&o);
    r500_pvs_state *st = calloc(1, sizeof *st);
    float(*consts)[4] = calloc(R500_PVS_NUM_CONSTS, sizeof *consts);
    long first = 0, last = -1;
    int rc = CLI_OK;
    if (!st || !consts) {
        free(st);
        free(consts);
        return cli_err(a, CLI_INTERNAL, "out of memory");
    }
    /* --model first (it sets how many inputs there are), then the rest in order */
    for (size_t k = 0; rc == CLI_OK && k < a->nov; k++) {
        const char *on = a->ov[k].opt->name, *optarg = a->ov[k].val;
        if (strcmp(on, "model"))
            continue;
        char name[64];
        const char *eq = strchr(optarg, '=');
        ls_diag d;
        if (!eq || (size_t)(eq - optarg) >= sizeof name) {
            rc = cli_usage(a, "--model %s: expected NAME=VALUE", optarg);
            break;
        }
        memcpy(name, optarg, (size_t)(eq - optarg));
        name[eq - optarg] = 0;
        if (r500_pvs_options_set(&o, name, eq + 1, &d) != LS_OK)
            rc = cli_usage(a, "--model %s: %s", optarg, d.msg);
    }
    for (size_t k = 0; rc == CLI_OK && k < a->nov; k++) {
        const char *on = a->ov[k].opt->name, *optarg = a->ov[k].val;
        unsigned idx;
        float v[4];
        if (!strcmp(on, "input")) {
            if (!parse_vec(optarg, 'i', o.inputs, &idx, v))
                rc = cli_usage(a, "--input %s: expected iN=x[,y[,z[,w]]] with N < %u", optarg, o.inputs);
            else
                memcpy(st->input[idx], v, sizeof v);
        } else if (!strcmp(on, "const")) {
            if (!parse_vec(optarg, 'c', R500_PVS_NUM_CONSTS, &idx, v))
                rc = cli_usage(a, "--const %s: expected cN=x[,y[,z[,w]]] with N < 256", optarg);
            else
                memcpy(consts[idx], v, sizeof v);
        } else if (!strcmp(on, "first")) {
            if (!ls_parse_long(optarg, 0, R500_PVS_MAX_INSTS - 1, &first))
                rc = cli_usage(a, "--first %s: expected 0..%d", optarg, R500_PVS_MAX_INSTS - 1);
        } else if (!strcmp(on, "last")) {
            if (!ls_parse_long(optarg, 0, R500_PVS_MAX_INSTS - 1, &last))
                rc = cli_usage(a, "--last %s: expected 0..%d", optarg, R500_PVS_MAX_INSTS - 1);
        } else if (!strcmp(on, "reg")) {
            char name[64];
            const char *eq = strchr(optarg, '=');
            char *end;
            ls_diag d;
            if (!eq || (size_t)(eq - optarg) >= sizeof name) {
                rc = cli_usage(a, "--reg %s: expected NAME=VALUE", optarg);
                break;
            }
            memcpy(name, optarg, (size_t)(eq - optarg));
            name[eq - optarg] = 0;
            errno = 0;
            unsigned long long rv = strtoull(eq + 1, &end, 0);
            if (!eq[1] || *end || errno || rv > 0xffffffffull) {
                rc = cli_usage(a, "--reg %s: the value is not a 32-bit number", optarg);
                break;
            }
            if (!strcasecmp(name, "VAP_PVS_CODE_CNTL_0")) {
                /* PVS_FIRST_INST 9:0, PVS_LAST_INST 29:20 (vap_pvs_code_cntl_0.txt) */
                first = (long)(rv & 0x3ff);
                last = (long)((rv >> 20) & 0x3ff);
            } else if (r500_pvs_fc_set(&fc, name, (uint32_t)rv, &d) != LS_OK) {
                rc = cli_usage(a, "--reg %s: %s", optarg, d.msg);
            } else {
                have_fc = true;
            }
        }
    }
    uint32_t *w = NULL;
    size_t n = 0;
    if (rc == CLI_OK)
        rc = load_program(a, a->ops[0], &w, &n);
    if (rc == CLI_OK) {
        ls_diag d;
        ls_diag_clear(&d);
        r500_pvs_stats stats = {0};
        size_t l = last < 0 ? n - 1 : (size_t)last;
        ls_status s = r500_pvs_run(w, n, (size_t)first, l, (const float(*)[4])consts,
                                   have_fc ? &fc : NULL, &o, st,
                                   &stats, &d);
        for (unsigned k = 0; k < R500_PVS_MAX_REGS; k++) {
            if (!st->out_written[k])
                continue;
            printf("out[%u] = %.9g %.9g %.9g %.9g\n", k, (double)st->out[k][0],
                   (double)st->out[k][1], (double)st->out[k][2], (double)st->out[k][3]);
        }
        if (s != LS_OK) {
            snprintf(d.file, sizeof d.file, "%s", cli_name(a->ops[0]));
            rc = cli_report(a, &d);
        }
    }
    free(w);
    free(st);
    free(consts);
    return rc;
}
