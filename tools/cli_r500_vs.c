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

int cli_r500_vs_run(cli_args *a)
{
    r500_pvs_vertex *v = malloc(sizeof *v);
    if (!v)
        return cli_err(a, CLI_INTERNAL, "out of memory");
    r500_pvs_vertex_init(v);
    int rc = CLI_OK;
    ls_diag d;
    /* --model first (it sets how many inputs there are), then the rest in order */
    for (int pass = 0; pass < 2 && rc == CLI_OK; pass++)
        for (size_t k = 0; rc == CLI_OK && k < a->nov; k++) {
            const char *on = a->ov[k].opt->name;
            if ((pass == 0) != !strcmp(on, "model"))
                continue;
            if (r500_pvs_vertex_apply(v, on, a->ov[k].val, &d) != LS_OK)
                rc = cli_usage(a, "%s", d.msg);
        }
    uint32_t *w = NULL;
    size_t n = 0;
    if (rc == CLI_OK)
        rc = load_program(a, a->ops[0], &w, &n);
    if (rc == CLI_OK) {
        ls_diag_clear(&d);
        r500_pvs_stats stats = {0};
        size_t l = v->last < 0 ? n - 1 : (size_t)v->last;
        ls_status s = r500_pvs_run(w, n, (size_t)v->first, l, (const float(*)[4])v->consts,
                                   v->have_fc ? &v->fc : NULL, &v->options, &v->state, &stats, &d);
        for (unsigned k = 0; k < R500_PVS_MAX_REGS; k++) {
            if (!v->state.out_written[k])
                continue;
            printf("out[%u] = %.9g %.9g %.9g %.9g\n", k, (double)v->state.out[k][0],
                   (double)v->state.out[k][1], (double)v->state.out[k][2], (double)v->state.out[k][3]);
        }
        if (s != LS_OK) {
            snprintf(d.file, sizeof d.file, "%s", cli_name(a->ops[0]));
            rc = cli_report(a, &d);
        }
    }
    free(w);
    free(v);
    return rc;
}
