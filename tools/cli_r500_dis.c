/* `lockstep r500 dis PROGRAM [--fields] [-o OUT]`: every program form `r500
 * run` takes (.bin, hex text with constants, .fs.asm, JSON job). The listing
 * carries the program's state (constants, flow-control registers) as
 * directives, so it reassembles to the same job. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "lockstep/r500.h"
#include "lockstep/r500_asm.h"
#include "r500/isa_format.h"

/* The state of a loaded job that differs from a fresh job's, as assembler
 * directives. */
static void state_of_job(const r500_job *job, r500_asm_state *s)
{
    r500_job fresh;
    r500_job_init(&fresh);
    memset(s, 0, sizeof *s);
    s->fc_full = -1;
    s->offset = -1;
    for (unsigned n = 0; n < R500_NUM_CONSTS; n++)
        if (memcmp(job->consts[n], fresh.consts[n], sizeof job->consts[n])) {
            memcpy(s->consts[n], job->consts[n], sizeof s->consts[n]);
            s->const_set[n] = true;
        }
    if (job->regs.fc_bool_const != fresh.regs.fc_bool_const) {
        s->bool_const = job->regs.fc_bool_const;
        s->bool_set = true;
    }
    for (unsigned n = 0; n < 32; n++)
        if (job->regs.fc_int_const[n] != fresh.regs.fc_int_const[n]) {
            s->int_const[n] = job->regs.fc_int_const[n];
            s->int_set |= 1u << n;
        }
    if (job->regs.fc_ctrl != fresh.regs.fc_ctrl)
        s->fc_full = (int)(job->regs.fc_ctrl >> 31); /* US_FC_CTRL.FULL_FC_EN, bit 31 */
    r500_job_free(&fresh);
}

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
    uint32_t *words = NULL;
    size_t count = 0;
    r500_asm_state state;
    if (r500_detect_format(name, src.data, src.len) == R500_FILE_ASM) {
        r500_asm_program prog;
        ls_diag_list errs;
        ls_diag_list_init(&errs);
        if (r500_asm_mem(name, src.data, src.len, &prog, &errs) != LS_OK) {
            rc = cli_report_list(a, &errs);
            ls_diag_list_free(&errs);
            ls_buf_free(&src);
            return rc;
        }
        ls_diag_list_free(&errs);
        words = prog.words;
        count = prog.count;
        state = prog.state;
    } else {
        r500_job job;
        r500_job_init(&job);
        if (r500_job_load_mem(&job, name, src.data, src.len, &d) != LS_OK) {
            r500_job_free(&job);
            ls_buf_free(&src);
            return cli_report(a, &d);
        }
        words = job.words;
        count = job.ninst;
        job.words = NULL;
        state_of_job(&job, &state);
        r500_job_free(&job);
    }
    ls_buf_free(&src);
    if (count == 0) {
        free(words);
        return cli_err(a, CLI_INPUT, "%s: error: the program has no instructions", name);
    }
    ls_buf o;
    ls_buf_init(&o);
    if (cli_flag(a, "fields")) {
        for (size_t k = 0; k < count; k++) {
            r500_inst in;
            r500_decode(words + k * R500_INST_WORDS, &in);
            r500_format_fields(&o, (unsigned)k, &in);
        }
    } else {
        r500_disasm(words, count, &state, &o);
    }
    free(words);
    rc = cli_write(a, out ? out : "-", &o);
    ls_buf_free(&o);
    return rc;
}
