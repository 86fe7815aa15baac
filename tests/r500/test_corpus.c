/* Corpus test: every Mesa r300 program of corpus/mesa-r300/out/ runs with the
 * inputs its README describes (uv in temp 0; clip-space position for
 * 11_fragcoord_branch; uniforms are in program.json's constants) and render
 * target 0 must equal llvmpipe_rgba32f.bin within 1e-5 per channel, with the
 * same discarded pixels (discarded pixels keep the clear colour 0,0,0,0 in the
 * reference; every shader here writes alpha = 1 otherwise). Each program runs
 * with thread sizes 4, 16, 48 and 64 and with 1 and 2 host workers: the
 * results must not depend on either. */
#include <dirent.h>

#include "io/image.h"
#include "test_exec_util.h"

#define TOL 1e-5f

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Returns the number of failing programs; prints one line per program. */
static int run_program(const char *dir, const char *name)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s/program.json", dir, name);
    ls_diag d;
    ls_diag_clear(&d);
    ls_imagef ref;
    char refpath[4096];
    snprintf(refpath, sizeof refpath, "%s/%s/llvmpipe_rgba32f.bin", dir, name);
    if (ls_rawf_read(refpath, 16, 16, &ref, &d)) {
        printf("FAIL %s: cannot read reference: %s\n", name, d.msg);
        return 1;
    }
    int failed = 0;
    const unsigned threads[] = {48, 4, 16, 64};
    float *first = NULL;
    for (size_t ti = 0; ti < sizeof threads / sizeof threads[0] && !failed; ti++) {
        for (unsigned workers = 1; workers <= 2 && !failed; workers++) {
            r500_job job;
            r500_job_init(&job);
            if (r500_job_load(&job, path, &d)) {
                printf("FAIL %s: load: %s:%d:%d: %s\n", name, d.file, d.line, d.col, d.msg);
                r500_job_free(&job);
                failed = 1;
                break;
            }
            /* corpus README: uv in temp 0, except 11_fragcoord_branch whose
             * temp 0 is the clip-space position (gl_FragCoord's input) */
            job.inputs[0].kind = strstr(name, "fragcoord") ? R500_INPUT_CLIP : R500_INPUT_UV;
            job.width = job.height = 16;
            job.thread_size = threads[ti];
            job.workers = workers;
            r500_result res;
            if (r500_run(&job, &res, NULL, &d)) {
                printf("FAIL %s: run: %s\n", name, d.msg);
                r500_job_free(&job);
                failed = 1;
                break;
            }
            if (res.nfaults) {
                printf("FAIL %s (thread %u): thread %zu faulted: %s\n", name, threads[ti],
                       res.faults[0].thread, res.faults[0].diag.msg);
                failed = 1;
            }
            float maxdiff = 0;
            int killed = 0, bad = 0;
            for (int i = 0; i < 256 && !failed; i++) {
                const float *g = res.target[0] + i * 4, *w = ref.rgba + i * 4;
                bool ref_discarded = w[0] == 0 && w[1] == 0 && w[2] == 0 && w[3] == 0;
                killed += res.killed[i];
                if ((bool)res.killed[i] != ref_discarded) {
                    if (bad++ < 4)
                        printf("  %s: pixel (%d,%d): killed %d, reference discarded %d\n", name,
                               i % 16, i / 16, res.killed[i], ref_discarded);
                }
                for (int ch = 0; ch < 4; ch++) {
                    float diff = fabsf(g[ch] - w[ch]);
                    if (!(diff <= TOL)) {
                        if (bad++ < 4)
                            printf("  %s: pixel (%d,%d) ch %d: got %.9g, llvmpipe %.9g\n", name,
                                   i % 16, i / 16, ch, g[ch], w[ch]);
                    }
                    if (diff > maxdiff || diff != diff)
                        maxdiff = diff;
                }
            }
            if (bad) {
                printf("FAIL %s (thread %u, %u workers): %d mismatches, max diff %g\n", name,
                       threads[ti], workers, bad, maxdiff);
                failed = 1;
            } else if (!first) {
                first = malloc(256 * 4 * sizeof(float));
                memcpy(first, res.target[0], 256 * 4 * sizeof(float));
                printf("ok   %-26s max |diff| %.3g, %3d killed, %llu instructions, SIMD "
                       "efficiency %.1f%% (thread 48)\n",
                       name, maxdiff, killed,
                       (unsigned long long)(res.stats.inst_alu + res.stats.inst_out +
                                            res.stats.inst_tex + res.stats.inst_fc),
                       100 * r500_stats_simd_efficiency(&res.stats));
            } else if (memcmp(first, res.target[0], 256 * 4 * sizeof(float)) != 0) {
                printf("FAIL %s: thread %u / %u workers gives other bits than thread 48\n", name,
                       threads[ti], workers);
                failed = 1;
            }
            r500_result_free(&res);
            r500_job_free(&job);
        }
    }
    free(first);
    ls_imagef_free(&ref);
    return failed;
}

/* program_words.txt (hex text with "cN:" constants) disassembled with its
 * state reassembles to the same job: words, constants, registers, and the
 * same rendered image. Returns 1 on failure. */
static int dis_round_trip(const char *dir, const char *name)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s/program_words.txt", dir, name);
    ls_diag d;
    r500_job a, b;
    r500_job_init(&a);
    r500_job_init(&b);
    r500_asm_program p = {0};
    ls_buf out;
    ls_buf_init(&out);
    int failed = 0;
    if (r500_job_load(&a, path, &d) || r500_program_load(path, &p, &d)) {
        printf("FAIL %s: %s\n", path, d.msg);
        failed = 1;
    } else {
        r500_disasm(p.words, p.count, &p.state, &out);
        if (r500_job_load_mem(&b, "dis.fs.asm", out.data, out.len, &d)) {
            printf("FAIL %s: disassembly does not assemble: %s\n", name, d.msg);
            failed = 1;
        } else if (a.ninst != b.ninst || memcmp(a.words, b.words, a.ninst * 24) ||
                   memcmp(a.consts, b.consts, sizeof a.consts) ||
                   memcmp(&a.regs, &b.regs, sizeof a.regs)) {
            printf("FAIL %s: disassembly reassembles to another job\n", name);
            failed = 1;
        } else {
            r500_result ra, rb;
            a.width = b.width = a.height = b.height = 16;
            a.inputs[0].kind = b.inputs[0].kind = R500_INPUT_UV;
            a.workers = b.workers = 1;
            if (r500_run(&a, &ra, NULL, &d) || r500_run(&b, &rb, NULL, &d)) {
                printf("FAIL %s: run: %s\n", name, d.msg);
                return 1;
            }
            if (memcmp(ra.target[0], rb.target[0], 256 * 4 * sizeof(float))) {
                printf("FAIL %s: disassembly renders differently\n", name);
                failed = 1;
            }
            r500_result_free(&ra);
            r500_result_free(&rb);
        }
    }
    ls_buf_free(&out);
    r500_asm_program_free(&p);
    r500_job_free(&a);
    r500_job_free(&b);
    return failed;
}

static void test_mesa_r300_corpus(void **state)
{
    (void)state;
    const char *corpus = ls_test_require_corpus();
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/mesa-r300/out", corpus);
    DIR *dp = opendir(dir);
    if (!dp) {
        printf("SKIP: %s not found (corpus without mesa-r300)\n", dir);
        exit(LS_TEST_SKIP);
    }
    char *names[256];
    size_t n = 0;
    struct dirent *e;
    while ((e = readdir(dp)) && n < 256) {
        if (e->d_name[0] == '.')
            continue;
        char p[4096];
        snprintf(p, sizeof p, "%s/%s/program.json", dir, e->d_name);
        struct stat st;
        if (stat(p, &st) == 0)
            names[n++] = strdup(e->d_name);
    }
    closedir(dp);
    qsort(names, n, sizeof names[0], cmp_str);
    int failed = 0;
    for (size_t i = 0; i < n; i++) {
        failed += run_program(dir, names[i]);
        failed += dis_round_trip(dir, names[i]);
        free(names[i]);
    }
    printf("%zu programs, %d failed\n", n, failed);
    assert_true(n > 0);
    assert_int_equal(failed, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_mesa_r300_corpus)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
