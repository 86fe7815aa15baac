/* Fuzz target: the outside data piglit's own runner reads
 * (include/lockstep/mesa_piglit_runner.h): the same bytes as an expectation
 * file (fails/baseline lines), as a regex list (skips/flakes) and as piglit's
 * results JSON; each test read is then classified against the expectations. */
#include <stddef.h>
#include <stdint.h>

#include "lockstep/mesa_piglit_runner.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *text = (const char *)data;
    ls_diag d;
    mesa_runner_expect e = {0};
    mesa_runner_regexes r = {0};
    mesa_runner_results res = {0};
    mesa_runner_expect_add(&e, text, size, "fuzz", &d);
    if (size < 4096) /* regcomp's time grows fast with the pattern */
        mesa_runner_regexes_add(&r, text, size, "fuzz", &d);
    mesa_runner_results_read(text, size, "fuzz", &res, &d);
    for (size_t k = 0; k < res.n; k++) {
        mesa_runner_status want = MESA_RUNNER_PASS;
        bool have = mesa_runner_expect_get(&e, res.r[k].name, &want);
        mesa_runner_classify(res.r[k].status, have, want, mesa_runner_regexes_match(&r, res.r[k].name) >= 0);
    }
    mesa_runner_results_free(&res);
    mesa_runner_regexes_free(&r);
    mesa_runner_expect_free(&e);
    return 0;
}
