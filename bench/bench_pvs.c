/* R500 vertex engine: vertices/s of the model of record (one core), running
 * examples/r500/transform.vs.asm (4 DOT + 2 moves) and a dual-math rotation.
 * Never part of make check. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/buf.h"
#include "lockstep/r500_pvs.h"
#ifdef LOCKSTEP_HAVE_JIT
#include "lockstep/r500_pvs_jit.h"
#endif

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

enum { BATCH = 256 };

/* Run nverts vertices (input[0] = (v * 1e-3, 1, 2, 1) for vertex v) through
 * the batch entry point r500_pvs_run_vertices with options o, BATCH at a time
 * in batch[] (cleared first; only the first batch when first_only): the
 * seconds it took, and in *sum the sum of every vertex's out[0].x. -1 when a
 * vertex faults (reported). */
static double run_batches(const char *name, const r500_pvs_program *p, const float (*consts)[4],
                          const r500_pvs_options *o, r500_pvs_state *batch, unsigned nverts,
                          bool first_only, double *sum)
{
    memset(batch, 0, BATCH * sizeof *batch);
    *sum = 0;
    double t0 = now();
    for (unsigned v0 = 0; v0 < nverts; v0 += BATCH) {
        unsigned nb = nverts - v0 < BATCH ? nverts - v0 : BATCH;
        for (unsigned k = 0; k < nb; k++) {
            batch[k].input[0][0] = (float)(v0 + k) * 1e-3f;
            batch[k].input[0][1] = 1.0f;
            batch[k].input[0][2] = 2.0f;
            batch[k].input[0][3] = 1.0f;
        }
        ls_diag d;
        if (r500_pvs_run_vertices(p->words, p->count, 0, p->count - 1, consts, NULL, o, batch, nb,
                                  NULL, NULL, &d) != LS_OK) {
            fprintf(stderr, "bench_pvs: %s faults (engine %s): %s\n", name,
                    o->engine == R500_ENGINE_JIT ? "jit" : "interp", d.msg);
            return -1;
        }
        for (unsigned k = 0; k < nb; k++)
            *sum += batch[k].out[0][0];
        if (first_only)
            break;
    }
    return now() - t0;
}

static int bench(const char *name, const char *src, unsigned nverts)
{
    r500_pvs_program p;
    ls_diag_list errs;
    ls_diag_list_init(&errs);
    if (r500_pvs_asm(name, src, strlen(src), &p, &errs) != LS_OK) {
        fprintf(stderr, "bench_pvs: %s does not assemble\n", name);
        return 1;
    }
    ls_diag_list_free(&errs);
    static float consts[256][4];
    for (int i = 0; i < 256; i++)
        for (int k = 0; k < 4; k++)
            consts[i][k] = (float)(i + k) * 0.125f;
    r500_pvs_options o;
    r500_pvs_options_default(&o);
    r500_pvs_state *st = calloc(1, sizeof *st);
    r500_pvs_stats stats = {0};
    /* the batch entry point: the program decoded once for all vertices;
     * engine interp, then (with LLVM) engine jit after one compiling run */
    r500_pvs_state *batch = calloc(BATCH, sizeof *batch);
    double dtj = 0, jsum = 0;
#ifdef LOCKSTEP_HAVE_JIT
    r500_pvs_jit *jit = r500_pvs_jit_new();
    r500_pvs_options oj = o;
    oj.jit = r500_pvs_jit_ops(jit);
    oj.engine = R500_ENGINE_JIT;
    /* the compiling run (one batch), then the timed one */
    if (run_batches(name, &p, (const float(*)[4])consts, &oj, batch, nverts, true, &jsum) < 0 ||
        (dtj = run_batches(name, &p, (const float(*)[4])consts, &oj, batch, nverts, false,
                           &jsum)) < 0)
        return 1;
    r500_pvs_jit_counts jc;
    r500_pvs_jit_get_counts(jit, &jc);
    r500_pvs_jit_free(jit);
#endif
    double bsum = 0;
    double dtb = run_batches(name, &p, (const float(*)[4])consts, &o, batch, nverts, false, &bsum);
    if (dtb < 0)
        return 1;
    free(batch);
    double sum = 0, t0 = now();
    for (unsigned v = 0; v < nverts; v++) {
        st->input[0][0] = (float)v * 1e-3f;
        st->input[0][1] = 1.0f;
        st->input[0][2] = 2.0f;
        st->input[0][3] = 1.0f;
        ls_diag d;
        if (r500_pvs_run(p.words, p.count, 0, p.count - 1, (const float(*)[4])consts, NULL, &o,
                         st, &stats, &d) != LS_OK) {
            fprintf(stderr, "bench_pvs: %s faults: %s\n", name, d.msg);
            return 1;
        }
        sum += st->out[0][0];
    }
    double dt = now() - t0;
    printf("bench_pvs: %-10s %u vertices x %zu instructions: %.2f Mvertices/s one at a time "
           "(%.1f Minstructions/s), %.2f Mvertices/s in batches of %d (checksums %g %g)\n",
           name, nverts, p.count, nverts / dt * 1e-6, (double)stats.issued / dt * 1e-6,
           nverts / dtb * 1e-6, BATCH, sum, bsum);
#ifdef LOCKSTEP_HAVE_JIT
    printf("bench_pvs: %-10s engine interp %.2f Mvertices/s, engine jit %.2f Mvertices/s in "
           "batches of %d (%.1fx; compile %.3f s; checksums %g %g)\n",
           name, nverts / dtb * 1e-6, nverts / dtj * 1e-6, BATCH, dtb / dtj,
           jc.compile_seconds, bsum, jsum);
#else
    (void)dtj, (void)jsum;
#endif
    free(st);
    r500_pvs_program_free(&p);
    return 0;
}

int main(void)
{
    const char *transform = "temp[0].x = VE_DOT const[0].xyzw input[0].xyzw ;\n"
                            "temp[0].y = VE_DOT const[1].xyzw input[0].xyzw ;\n"
                            "temp[0].z = VE_DOT const[2].xyzw input[0].xyzw ;\n"
                            "temp[0].w = VE_DOT const[3].xyzw input[0].xyzw ;\n"
                            "out[0].xyzw = VE_ADD temp[0].xyzw temp[0].0000 ;\n"
                            "out[1].xyzw = VE_MAX input[1].xyzw input[1].xyzw ;\n";
    const char *dual = "temp[0].xy = VE_MAD const[0].xy__ input[0].zz__ const[0].ww__ ;\n"
                       "temp[0].xy = VE_FRC temp[0].xy__ ;\n"
                       "temp[3].x = ME_SIN temp[0].___x ;\n"
                       "temp[1].yz = VE_MUL input[0]._-zz_ temp[3]._xx_ ,\n"
                       "alt_temp[3].w = ME_COS temp[0].y_ ;\n"
                       "out[0].xyzw = VE_MUL temp[1].xyzz alt_temp[3].11-w1 ;\n";
    return bench("transform", transform, 2000000) || bench("dual-math", dual, 2000000);
}
