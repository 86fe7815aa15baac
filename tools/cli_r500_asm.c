/* `lockstep r500 asm IN.fs.asm -o OUT.bin [--hex]` */
#include <string.h>

#include "cli.h"
#include "lockstep/r500_asm.h"

static void usage(FILE *f)
{
    fprintf(f, "usage: lockstep r500 asm IN.fs.asm -o OUT [--hex]\n"
               "  -o OUT   output file: little-endian dwords (.bin), or with --hex\n"
               "           hex text (0x%%08x, one dword per line, blank line between\n"
               "           instructions, as buhman/r500's .fs.inc); '-' = stdout\n"
               "  language reference: docs/r500-asm.md\n");
}

int cli_r500_report_list(const ls_diag_list *errs)
{
    for (size_t i = 0; i < errs->count; i++)
        cli_report(&errs->items[i]);
    if (errs->count > 1)
        fprintf(stderr, "lockstep: %zu errors\n", errs->count);
    return CLI_FAIL;
}

int cli_r500_asm(int argc, char **argv)
{
    const char *in = NULL, *out = NULL;
    bool hex = false;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            usage(stdout);
            return CLI_OK;
        } else if (!strcmp(argv[i], "--hex")) {
            hex = true;
        } else if (!strcmp(argv[i], "-o")) {
            if (++i >= argc)
                return cli_usage_error("-o needs a file name");
            out = argv[i];
        } else if (argv[i][0] == '-' && argv[i][1]) {
            usage(stderr);
            return cli_usage_error("unknown option '%s'", argv[i]);
        } else if (!in) {
            in = argv[i];
        } else {
            return cli_usage_error("more than one input file");
        }
    }
    if (!in || !out) {
        usage(stderr);
        return CLI_USAGE;
    }
    r500_asm_program prog;
    ls_diag_list errs;
    ls_diag_list_init(&errs);
    if (r500_asm_file(in, &prog, &errs) != LS_OK) {
        int rc = cli_r500_report_list(&errs);
        ls_diag_list_free(&errs);
        return rc;
    }
    ls_diag_list_free(&errs);
    ls_buf b;
    ls_buf_init(&b);
    for (size_t k = 0; k < prog.count; k++) {
        for (int w = 0; w < 6; w++) {
            uint32_t v = prog.words[6 * k + w];
            if (hex) {
                ls_buf_printf(&b, "0x%08x,\n", (unsigned)v);
            } else {
                uint8_t le[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
                ls_buf_append(&b, le, 4);
            }
        }
        if (hex && k + 1 < prog.count)
            ls_buf_putc(&b, '\n');
    }
    r500_asm_program_free(&prog);
    int rc = cli_write_file(out, &b);
    ls_buf_free(&b);
    return rc;
}
