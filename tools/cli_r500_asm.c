/* `lockstep r500 asm IN.fs.asm [-o OUT] [--hex]` */
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "lockstep/r500_asm.h"

int cli_r500_asm(cli_args *a)
{
    const char *in = a->ops[0], *out = cli_get(a, "output");
    bool hex = cli_flag(a, "hex");
    if (!out)
        out = "-";
    if (!hex && !strcmp(out, "-") && isatty(1))
        return cli_usage(a, "the words are binary and stdout is a terminal: give -o FILE or --hex");
    ls_buf src;
    int rc = cli_read(a, in, &src);
    if (rc)
        return rc;
    r500_asm_program prog;
    ls_diag_list errs;
    ls_diag_list_init(&errs);
    ls_status st = r500_asm_mem(cli_name(in), src.data, src.len, &prog, &errs);
    ls_buf_free(&src);
    if (st != LS_OK) {
        rc = cli_report_list(a, &errs);
        ls_diag_list_free(&errs);
        return rc;
    }
    ls_diag_list_free(&errs);
    if (prog.count == 0) {
        /* as `run` and `dis`: an empty program is an error, not an empty file */
        r500_asm_program_free(&prog);
        return cli_err(a, CLI_INPUT, "%s: error: the program has no instructions", cli_name(in));
    }
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
    rc = cli_write(a, out, &b);
    ls_buf_free(&b);
    return rc;
}
