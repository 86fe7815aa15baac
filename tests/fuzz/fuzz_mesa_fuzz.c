/* Fuzz target: the shader fuzzer's own library (include/lockstep/mesa_fuzz.h).
 * The input chooses a generator seed and options; the generated program must
 * be valid, print, evaluate under the guard and reduce (bounded, under a
 * structural predicate) without crashing, leaking or leaving validity. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "lockstep/mesa_fuzz.h"

static bool has_loop(const fz_node *n)
{
    if (n->kind == FZ_LOOP)
        return true;
    for (int i = 0; i < n->nkids; i++)
        if (has_loop(n->kids[i]))
            return true;
    return false;
}

static bool pred(const fz_program *p, void *ctx)
{
    (void)ctx;
    return has_loop(p->main);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    uint8_t b[12] = {0};
    memcpy(b, data, size < sizeof b ? size : sizeof b);
    uint64_t seed = 0;
    for (int i = 0; i < 8; i++)
        seed = seed << 8 | b[i];
    fz_gen_options o;
    fz_gen_options_default(&o);
    /* small programs: a run must stay well under libFuzzer's 10 s timeout
     * on a loaded machine under ASan */
    o.max_depth = b[8] % 4;
    o.max_stmts = 1 + b[9] % 4;
    o.max_expr_depth = b[10] % 4;
    o.max_trip = b[11] % 20;
    fz_program p;
    ls_diag d;
    if (fz_generate(seed, &o, &p, &d) != LS_OK)
        return 0;
    if (!fz_program_valid(&p))
        abort();
    ls_buf t;
    ls_buf_init(&t);
    fz_program_print(&p, &t);
    fz_program_uniform_args(&p, &t);
    ls_buf_free(&t);
    fz_pixel px[16];
    char why[128];
    fz_guard(&p, 4, 4, px, why, sizeof why);
    if (pred(&p, NULL) && fz_program_size(&p) <= 600) {
        fz_reduce_stats st;
        fz_reduce(&p, pred, NULL, 100, &st, &d);
        if (!fz_program_valid(&p) || !pred(&p, NULL))
            abort();
    }
    fz_program_free(&p);
    return 0;
}
