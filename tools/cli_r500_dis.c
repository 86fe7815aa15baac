/* `lockstep r500 dis PROGRAM [--fields] [-o OUT]`: every program form `r500
 * run` takes (.bin, hex text with constants, .fs.asm, JSON job, '-' for
 * stdin). The library loads it with its state (r500_program_load_mem); the
 * listing carries that state (constants, flow-control registers) as
 * directives, so it reassembles to the same job. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "lockstep/r500.h"
#include "lockstep/r500_asm.h"
#include "r500/isa_format.h"

int cli_r500_dis(cli_args *a)
{
    const char *path = a->ops[0], *out = cli_get(a, "output");
    ls_buf src;
    int rc = cli_read(a, path, &src);
    if (rc)
        return rc;
    const char *name = cli_name(path);
    ls_diag d;
    ls_diag_clear(&d);
    r500_asm_program prog;
    ls_status st = r500_program_load_mem(name, src.data, src.len, &prog, &d);
    ls_buf_free(&src);
    if (st != LS_OK)
        return cli_report(a, &d);
    if (prog.count == 0) {
        r500_asm_program_free(&prog);
        return cli_err(a, CLI_INPUT, "%s: error: the program has no instructions", name);
    }
    ls_buf o;
    ls_buf_init(&o);
    if (cli_flag(a, "fields")) {
        for (size_t k = 0; k < prog.count; k++) {
            r500_inst in;
            r500_decode(prog.words + k * R500_INST_WORDS, &in);
            r500_format_fields(&o, (unsigned)k, &in);
        }
    } else {
        r500_disasm(prog.words, prog.count, &prog.state, &o);
    }
    r500_asm_program_free(&prog);
    rc = cli_write(a, out ? out : "-", &o);
    ls_buf_free(&o);
    return rc;
}
