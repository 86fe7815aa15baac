/* `lockstep r500 vs asm|dis|run`: the R500 vertex engine (PVS). Manual:
 * docs/r500-vs.md. */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli.h"
#include "lockstep/r500_pvs.h"

static void usage(FILE *f)
{
    fprintf(f,
            "usage: lockstep r500 vs asm IN.vs.asm -o OUT [--hex]\n"
            "       lockstep r500 vs dis FILE [--fields]\n"
            "       lockstep r500 vs run PROGRAM [--input iN=x,y,z,w]... [--const cN=x,y,z,w]...\n"
            "                            [--first N] [--last N] [--reg NAME=VALUE]...\n"
            "                            [--model NAME=VALUE]...\n"
            "  R500 programmable vertex shader (PVS), 4 dwords per instruction, in\n"
            "  buhman/r500's vertex syntax (docs/r500-vs.md).\n"
            "  asm   assemble; OUT is little-endian dwords, or with --hex one instruction\n"
            "        of 4 hex dwords a line (as buhman/r500's drm/*.vs.inc); '-' = stdout\n"
            "  dis   disassemble .bin / hex text / .vs.asm to source that assembles back to\n"
            "        the same words; --fields prints every field by name instead\n"
            "  run   run one vertex: inputs from --input (missing channels are 0), constants\n"
            "        from --const; prints every output register the program wrote.\n"
            "        --first/--last: PVS_FIRST_INST / PVS_LAST_INST (default: whole program)\n"
            "        --reg: VAP_PVS_CODE_CNTL_0 (first/last), VAP_PVS_FLOW_CNTL_OPC,\n"
            "        VAP_PVS_FLOW_CNTL_ADDRS_LW_n, _ADDRS_UW_n, _LOOP_INDEX_n (n 0..15)\n"
            "        --model: vs-sincos-range, vs-ff-inf, vs-me-b, vs-temps, vs-alt-temps,\n"
            "        vs-inputs, vs-outputs, vs-fc-depth, vs-watchdog, rcp-zero,\n"
            "        rsq-negative, ln2-zero, clamp-nan, mad\n"
            "        (docs/assumptions.md)\n");
}

static bool has_suffix(const char *s, const char *suf)
{
    size_t a = strlen(s), b = strlen(suf);
    return a >= b && !strcasecmp(s + a - b, suf);
}

static int report_list(const ls_diag_list *errs)
{
    for (size_t i = 0; i < errs->count; i++)
        cli_report(&errs->items[i]);
    if (errs->count > 1)
        fprintf(stderr, "lockstep: %zu errors\n", errs->count);
    return CLI_FAIL;
}

/* .asm: assemble; .bin: little-endian dwords; anything else: hex text. */
static int load_program(const char *path, uint32_t **words, size_t *count)
{
    ls_buf data;
    ls_buf_init(&data);
    ls_diag d;
    ls_diag_clear(&d);
    if (!ls_read_file(path, &data)) {
        ls_diag_set(&d, LS_ERR_IO, path, 0, 0, "cannot read: %s", strerror(errno));
        ls_buf_free(&data);
        return cli_report(&d);
    }
    int rc = CLI_OK;
    if (has_suffix(path, ".asm")) {
        r500_pvs_program p;
        ls_diag_list errs;
        ls_diag_list_init(&errs);
        if (r500_pvs_asm(path, data.data ? data.data : "", data.len, &p, &errs) != LS_OK) {
            rc = report_list(&errs);
        } else {
            *words = p.words;
            *count = p.count;
        }
        ls_diag_list_free(&errs);
    } else if (r500_pvs_load_words(path, data.data ? data.data : "", data.len,
                                   has_suffix(path, ".bin"), words, count, &d) != LS_OK) {
        rc = cli_report(&d);
    }
    ls_buf_free(&data);
    return rc;
}

static int vs_asm(int argc, char **argv)
{
    static const struct option opts[] = {{"help", no_argument, 0, 'h'},
                                         {"hex", no_argument, 0, 'x'},
                                         {"output", required_argument, 0, 'o'},
                                         {0, 0, 0, 0}};
    const char *out = NULL;
    bool hex = false;
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "ho:", opts, NULL)) != -1) {
        switch (c) {
        case 'h': usage(stdout); return CLI_OK;
        case 'x': hex = true; break;
        case 'o': out = optarg; break;
        default: usage(stderr); return CLI_USAGE;
        }
    }
    if (optind != argc - 1 || !out) {
        usage(stderr);
        return cli_usage_error("vs asm needs one input file and -o OUT");
    }
    uint32_t *w = NULL;
    size_t n = 0;
    int rc = load_program(argv[optind], &w, &n);
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
    rc = cli_write_file(out, &b);
    ls_buf_free(&b);
    return rc;
}

static int vs_dis(int argc, char **argv)
{
    static const struct option opts[] = {
        {"help", no_argument, 0, 'h'}, {"fields", no_argument, 0, 'f'}, {0, 0, 0, 0}};
    bool fields = false;
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        switch (c) {
        case 'h': usage(stdout); return CLI_OK;
        case 'f': fields = true; break;
        default: usage(stderr); return CLI_USAGE;
        }
    }
    if (optind != argc - 1) {
        usage(stderr);
        return cli_usage_error("vs dis needs one input file");
    }
    uint32_t *w = NULL;
    size_t n = 0;
    int rc = load_program(argv[optind], &w, &n);
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
    rc = cli_write_file("-", &b);
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
    int n = cli_parse_floats(end + 1, tmp, 4);
    if (n < 1)
        return false;
    *idx = (unsigned)i;
    memcpy(v, tmp, sizeof tmp);
    return true;
}

static int vs_run(int argc, char **argv)
{
    static const struct option opts[] = {{"help", no_argument, 0, 'h'},
                                         {"input", required_argument, 0, 'i'},
                                         {"const", required_argument, 0, 'c'},
                                         {"first", required_argument, 0, 'F'},
                                         {"last", required_argument, 0, 'L'},
                                         {"model", required_argument, 0, 'm'},
                                         {"reg", required_argument, 0, 'r'},
                                         {0, 0, 0, 0}};
    r500_pvs_fc fc;
    memset(&fc, 0, sizeof fc);
    bool have_fc = false;
    r500_pvs_options o;
    r500_pvs_options_default(&o);
    r500_pvs_state *st = calloc(1, sizeof *st);
    float(*consts)[4] = calloc(R500_PVS_NUM_CONSTS, sizeof *consts);
    long first = 0, last = -1;
    int rc = CLI_OK, c;
    if (!st || !consts) {
        free(st);
        free(consts);
        fprintf(stderr, "lockstep: error: out of memory\n");
        return CLI_FAIL;
    }
    optind = 1;
    while (rc == CLI_OK && (c = getopt_long(argc, argv, "hi:c:m:", opts, NULL)) != -1) {
        unsigned idx;
        float v[4];
        switch (c) {
        case 'h':
            usage(stdout);
            free(st);
            free(consts);
            return CLI_OK;
        case 'i':
            if (!parse_vec(optarg, 'i', o.inputs, &idx, v))
                rc = cli_usage_error("--input %s: expected iN=x[,y[,z[,w]]] with N < %u", optarg,
                                     o.inputs);
            else
                memcpy(st->input[idx], v, sizeof v);
            break;
        case 'c':
            if (!parse_vec(optarg, 'c', R500_PVS_NUM_CONSTS, &idx, v))
                rc = cli_usage_error("--const %s: expected cN=x[,y[,z[,w]]] with N < 256", optarg);
            else
                memcpy(consts[idx], v, sizeof v);
            break;
        case 'F':
            if (!cli_parse_int(optarg, 0, R500_PVS_MAX_INSTS - 1, &first))
                rc = cli_usage_error("--first %s: expected 0..%d", optarg, R500_PVS_MAX_INSTS - 1);
            break;
        case 'L':
            if (!cli_parse_int(optarg, 0, R500_PVS_MAX_INSTS - 1, &last))
                rc = cli_usage_error("--last %s: expected 0..%d", optarg, R500_PVS_MAX_INSTS - 1);
            break;
        case 'r': {
            char name[64];
            const char *eq = strchr(optarg, '=');
            char *end;
            ls_diag d;
            if (!eq || (size_t)(eq - optarg) >= sizeof name) {
                rc = cli_usage_error("--reg %s: expected NAME=VALUE", optarg);
                break;
            }
            memcpy(name, optarg, (size_t)(eq - optarg));
            name[eq - optarg] = 0;
            errno = 0;
            unsigned long long v = strtoull(eq + 1, &end, 0);
            if (!eq[1] || *end || errno || v > 0xffffffffull) {
                rc = cli_usage_error("--reg %s: the value is not a 32-bit number", optarg);
                break;
            }
            if (!strcasecmp(name, "VAP_PVS_CODE_CNTL_0")) {
                /* PVS_FIRST_INST 9:0, PVS_LAST_INST 29:20 (vap_pvs_code_cntl_0.txt) */
                first = (long)(v & 0x3ff);
                last = (long)((v >> 20) & 0x3ff);
            } else if (r500_pvs_fc_set(&fc, name, (uint32_t)v, &d) != LS_OK) {
                rc = cli_usage_error("--reg %s: %s", optarg, d.msg);
            } else {
                have_fc = true;
            }
            break;
        }
        case 'm': {
            char name[64];
            const char *eq = strchr(optarg, '=');
            ls_diag d;
            if (!eq || (size_t)(eq - optarg) >= sizeof name) {
                rc = cli_usage_error("--model %s: expected NAME=VALUE", optarg);
                break;
            }
            memcpy(name, optarg, (size_t)(eq - optarg));
            name[eq - optarg] = 0;
            if (r500_pvs_options_set(&o, name, eq + 1, &d) != LS_OK)
                rc = cli_usage_error("--model %s: %s", optarg, d.msg);
            break;
        }
        default:
            usage(stderr);
            rc = CLI_USAGE;
        }
    }
    if (rc == CLI_OK && optind != argc - 1) {
        usage(stderr);
        rc = cli_usage_error("vs run needs one program file");
    }
    uint32_t *w = NULL;
    size_t n = 0;
    if (rc == CLI_OK)
        rc = load_program(argv[optind], &w, &n);
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
            snprintf(d.file, sizeof d.file, "%s", argv[optind]);
            rc = cli_report(&d);
        }
    }
    free(w);
    free(st);
    free(consts);
    return rc;
}

int cli_r500_vs(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return CLI_USAGE;
    }
    const char *c = argv[1];
    if (!strcmp(c, "-h") || !strcmp(c, "--help")) {
        usage(stdout);
        return CLI_OK;
    }
    if (!strcmp(c, "asm"))
        return vs_asm(argc - 1, argv + 1);
    if (!strcmp(c, "dis"))
        return vs_dis(argc - 1, argv + 1);
    if (!strcmp(c, "run"))
        return vs_run(argc - 1, argv + 1);
    usage(stderr);
    return cli_usage_error("unknown r500 vs command '%s'", c);
}
