/* `lockstep r500 dis FILE [--fields]`: print every instruction with every
 * field decoded by name. (The assembler issue adds a reassemblable syntax;
 * --fields keeps this field-by-field dump.) */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "lockstep/r500.h"
#include "lockstep/r500_asm.h"
#include "r500/isa_format.h"

static void usage(FILE *f)
{
    fprintf(f, "usage: lockstep r500 dis FILE [--fields]\n"
               "  FILE: .bin (little-endian dwords), hex-dword text (.inc, .txt) or .fs.asm\n"
               "  prints assembly that `lockstep r500 asm` turns back into the same words;\n"
               "  --fields prints every field of every instruction by name instead\n");
}

/* Load instruction words from a .bin or hex-text file. Shared with `run`. */
int cli_r500_load_words(const char *path, uint32_t **words, size_t *count)
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
    ls_status st;
    switch (r500_detect_format(path, data.data, data.len)) {
    case R500_FILE_BIN:
        st = r500_parse_bin_words(path, (const uint8_t *)data.data, data.len, words, count, &d);
        break;
    case R500_FILE_HEX:
        {
        r500_hex_const *cv = NULL;
        size_t ncv = 0;
        st = r500_parse_hex_program(path, data.data, data.len, words, count, &cv, &ncv, &d);
        free(cv); /* constants are not instructions; `run` reads them */
    }
        break;
    case R500_FILE_ASM: {
        r500_asm_program prog;
        ls_diag_list errs;
        ls_diag_list_init(&errs);
        if (r500_asm_mem(path, data.data, data.len, &prog, &errs) != LS_OK) {
            cli_r500_report_list(&errs);
            ls_diag_list_free(&errs);
            ls_buf_free(&data);
            return CLI_FAIL;
        }
        ls_diag_list_free(&errs);
        *words = prog.words;
        *count = prog.count;
        st = LS_OK;
        break;
    }
    default:
        st = ls_diag_set(&d, LS_ERR_UNSUPPORTED, path, 0, 0,
                         "not a .bin, hex-dword or assembly program");
    }
    ls_buf_free(&data);
    return st ? cli_report(&d) : CLI_OK;
}

int cli_r500_dis(int argc, char **argv)
{
    const char *path = NULL;
    bool fields = false;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            usage(stdout);
            return CLI_OK;
        } else if (!strcmp(argv[i], "--fields")) {
            fields = true;
        } else if (argv[i][0] == '-' && argv[i][1]) {
            usage(stderr);
            return cli_usage_error("unknown option '%s'", argv[i]);
        } else if (!path) {
            path = argv[i];
        } else {
            return cli_usage_error("more than one input file");
        }
    }
    if (!path) {
        usage(stderr);
        return CLI_USAGE;
    }
    /* every program form, with its state ("cN:" constants of hex text, a
     * JSON job's constants and registers): printed as directives */
    r500_asm_program prog;
    ls_diag d;
    ls_diag_clear(&d);
    if (r500_program_load(path, &prog, &d))
        return cli_report(&d);
    const uint32_t *words = prog.words;
    size_t count = prog.count;
    int rc;
    ls_buf out;
    ls_buf_init(&out);
    if (fields) {
        for (size_t k = 0; k < count; k++) {
            r500_inst in;
            r500_decode(words + k * R500_INST_WORDS, &in);
            r500_format_fields(&out, (unsigned)k, &in);
        }
    } else {
        r500_disasm(words, count, &prog.state, &out);
    }
    r500_asm_program_free(&prog);
    rc = cli_write_file("-", &out);
    ls_buf_free(&out);
    return rc;
}
