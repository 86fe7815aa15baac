/* `lockstep mesa ...`: the Mesa r300 harness. `decode` turns a captured
 * command stream into lockstep R500 jobs (docs/mesa.md). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "lockstep/mesa_cs.h"

static void usage(FILE *f)
{
    fprintf(f, "usage: lockstep mesa decode CS.ib [--draw N|--all] [-o JOB.json]\n"
               "  decodes a captured radeon command stream (little-endian dwords): every\n"
               "  draw becomes an R500 job in the corpus's program.json format, which\n"
               "  `lockstep r500 run JOB.json` runs. Default: the last draw.\n"
               "  (run, check, piglit and bench need the fake-device shim: see docs/mesa.md)\n");
}

static int decode(int argc, char **argv)
{
    const char *in = NULL, *out = "-";
    long which = -1;
    bool all = false;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            usage(stdout);
            return CLI_OK;
        } else if (!strcmp(argv[i], "-o")) {
            if (++i >= argc)
                return cli_usage_error("-o needs a file name");
            out = argv[i];
        } else if (!strcmp(argv[i], "--all")) {
            all = true;
        } else if (!strcmp(argv[i], "--draw")) {
            if (++i >= argc || !cli_parse_int(argv[i], 0, 1000000, &which))
                return cli_usage_error("--draw needs a draw number");
        } else if (argv[i][0] == '-' && argv[i][1]) {
            return cli_usage_error("unknown option '%s'", argv[i]);
        } else if (!in) {
            in = argv[i];
        } else {
            return cli_usage_error("more than one input file");
        }
    }
    if (!in) {
        usage(stderr);
        return CLI_USAGE;
    }
    ls_buf data;
    ls_buf_init(&data);
    ls_diag d;
    ls_diag_clear(&d);
    if (!ls_read_file(in, &data)) {
        ls_diag_set(&d, LS_ERR_IO, in, 0, 0, "cannot read: %s", strerror(errno));
        ls_buf_free(&data);
        return cli_report(&d);
    }
    if (data.len % 4) {
        ls_diag_set(&d, LS_ERR_PARSE, in, 0, 0, "%zu bytes is not a whole number of dwords",
                    data.len);
        ls_diag_at_offset(&d, (long)(data.len - data.len % 4));
        ls_buf_free(&data);
        return cli_report(&d);
    }
    size_t n = data.len / 4;
    uint32_t *dw = malloc(n ? n * 4 : 4);
    for (size_t k = 0; dw && k < n; k++) {
        const uint8_t *p = (const uint8_t *)data.data + 4 * k;
        dw[k] = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
    }
    ls_buf_free(&data);
    mesa_cs cs;
    if (!dw || mesa_cs_decode(in, dw, n, &cs, &d) != LS_OK) {
        free(dw);
        return dw ? cli_report(&d) : CLI_FAIL;
    }
    free(dw);
    int rc = CLI_OK;
    if (cs.ndraws == 0) {
        ls_diag_set(&d, LS_ERR_PARSE, in, 0, 0, "the command stream has no draw packet");
        rc = cli_report(&d);
    } else if (which >= (long)cs.ndraws) {
        ls_diag_set(&d, LS_ERR_RANGE, in, 0, 0, "draw %ld requested, the stream has %zu", which,
                    cs.ndraws);
        rc = cli_report(&d);
    } else {
        ls_buf b;
        ls_buf_init(&b);
        if (all) {
            ls_buf_puts(&b, "[\n");
            for (size_t k = 0; k < cs.ndraws; k++) {
                if (k)
                    ls_buf_puts(&b, ",\n");
                mesa_cs_job_json(&cs.draws[k], k, &b);
            }
            ls_buf_puts(&b, "]\n");
        } else {
            size_t k = which >= 0 ? (size_t)which : cs.ndraws - 1;
            mesa_cs_job_json(&cs.draws[k], k, &b);
        }
        rc = cli_write_file(out, &b);
        ls_buf_free(&b);
    }
    mesa_cs_free(&cs);
    return rc;
}

int cli_mesa(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return CLI_USAGE;
    }
    if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
        usage(stdout);
        return CLI_OK;
    }
    if (!strcmp(argv[1], "decode"))
        return decode(argc - 1, argv + 1);
    if (!strcmp(argv[1], "run") || !strcmp(argv[1], "check") || !strcmp(argv[1], "piglit") ||
        !strcmp(argv[1], "bench"))
        return cli_usage_error("'mesa %s' is not implemented yet: it needs the fake-device "
                               "shim (docs/mesa.md, issue 6); `mesa decode` works on captured "
                               "streams",
                               argv[1]);
    usage(stderr);
    return cli_usage_error("unknown mesa command '%s'", argv[1]);
}
