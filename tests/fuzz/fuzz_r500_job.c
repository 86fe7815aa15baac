/* Fuzz target: the R500 job loader (JSON jobs, .bin and hex text) and, for
 * jobs that load, a small run: nothing may crash, leak or read out of bounds,
 * whatever the program does (faults are results). For the program forms
 * (not JSON), r500_program_load_mem + r500_disasm with the program's state
 * must reassemble to the same job: words, constants, FC registers. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lockstep/r500.h"
#include "r500/isa_format.h"

static void round_trip(const r500_job *a, const char *name, const char *text, size_t len)
{
    r500_asm_program p;
    ls_diag d;
    if (r500_program_load_mem(name, text, len, &p, &d) != LS_OK)
        abort(); /* the job loaded: so must the program */
    ls_buf b;
    ls_buf_init(&b);
    r500_disasm(p.words, p.count, &p.state, &b);
    r500_job j;
    r500_job_init(&j);
    if (r500_job_load_mem(&j, "dis.fs.asm", b.data ? b.data : "", b.len, &d) != LS_OK ||
        j.ninst != a->ninst || memcmp(j.words, a->words, a->ninst * 24) ||
        memcmp(j.consts, a->consts, sizeof j.consts) ||
        memcmp(&j.regs, &a->regs, sizeof j.regs))
        abort();
    r500_job_free(&j);
    ls_buf_free(&b);
    r500_asm_program_free(&p);
}

static int contains(const uint8_t *d, size_t n, const char *s)
{
    size_t k = strlen(s);
    for (size_t i = 0; i + k <= n; i++)
        if (!memcmp(d + i, s, k))
            return 1;
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* "program" and "textures" name files to read: keep the fuzzer off the
     * file system (those paths are covered by the unit tests). */
    if (size > 0 && (contains(data, size, "program") || contains(data, size, "textures")))
        return 0;
    /* the first byte picks the format by file name */
    static const char *const names[4] = {"fuzz.json", "fuzz.bin", "fuzz.inc", "fuzz"};
    const char *name = size ? names[data[0] & 3] : names[3];
    const char *text = size ? (const char *)data + 1 : "";
    size_t len = size ? size - 1 : 0;
    r500_job job;
    r500_job_init(&job);
    ls_diag d;
    if (r500_job_load_mem(&job, name, text, len, &d) == LS_OK) {
        if (r500_detect_format(name, text, len) != R500_FILE_JSON)
            round_trip(&job, name, text, len);
        job.width = job.width > 8 ? 8 : job.width;
        job.height = job.height > 8 ? 8 : job.height;
        job.workers = 1;
        job.options.exec.watchdog = 4096;
        r500_result r;
        if (r500_run(&job, &r, NULL, &d) == LS_OK)
            r500_result_free(&r);
    }
    r500_job_free(&job);
    return 0;
}
