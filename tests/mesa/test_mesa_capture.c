/* End to end through the real driver: for every corpus shader, compile it with
 * Debian's r300_dri.so under our shim (fake RV530), and check that the captured
 * command stream is byte-identical to the corpus's cs/cs_0000.ib and that its
 * last draw decodes to program.json's instruction words; then draw it on
 * llvmpipe and check the float image equals llvmpipe_rgba32f.bin.
 * Skips (exit 77) with a message when the shim was not built (packages absent)
 * or r300_dri.so is not installed. */
#define _DEFAULT_SOURCE 1
#include "test_util.h"

#include <strings.h>

#include <dirent.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/buf.h"
#include "base/json.h"
#include "lockstep/mesa_cs.h"

static const char *shim, *glrun, *corpus_out;
static char work[256];

static bool files_equal(const char *a, const char *b)
{
    ls_buf x, y;
    ls_buf_init(&x);
    ls_buf_init(&y);
    bool ok = ls_read_file(a, &x) && ls_read_file(b, &y) && x.len == y.len &&
              memcmp(x.data, y.data, x.len) == 0;
    ls_buf_free(&x);
    ls_buf_free(&y);
    return ok;
}

/* Shell-quoted uniforms from meta.json ("uniforms": ["n=5", ...]). */
static void uniform_args(const char *dir, char *out, size_t n)
{
    char path[1400];
    snprintf(path, sizeof path, "%s/meta.json", dir);
    ls_buf b;
    ls_buf_init(&b);
    assert_true(ls_read_file(path, &b));
    ls_json *meta = NULL;
    ls_diag d;
    assert_int_equal(ls_json_parse(b.data, b.len, path, &meta, &d), LS_OK);
    out[0] = 0;
    const ls_json *u = ls_json_get(meta, "uniforms");
    for (size_t i = 0; u && i < u->count; i++) {
        size_t l = strlen(out);
        snprintf(out + l, n - l, " --uniform '%s'", u->items[i]->text);
    }
    ls_json_free(meta);
    ls_buf_free(&b);
}

static void test_capture_corpus(void **state)
{
    (void)state;
    DIR *dh = opendir(corpus_out);
    assert_non_null(dh);
    unsigned done = 0;
    struct dirent *e;
    while ((e = readdir(dh)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        char dir[1100], uni[512], cmd[4096], path[1400], want[1400];
        snprintf(dir, sizeof dir, "%s/%s", corpus_out, e->d_name);
        uniform_args(dir, uni, sizeof uni);
        snprintf(path, sizeof path, "%s/cs_0000.ib", work);
        unlink(path);
        snprintf(cmd, sizeof cmd,
                 "LOCKSTEP_SHIM_OUT='%s' LD_PRELOAD='%s' '%s' '%s/shader.frag'%s 2>/dev/null",
                 work, shim, glrun, dir, uni);
        assert_int_equal(system(cmd), 0);
        snprintf(want, sizeof want, "%s/cs/cs_0000.ib", dir);
        bool same_ib = files_equal(path, want);
        printf("%-26s r300 capture %s", e->d_name, same_ib ? "identical" : "DIFFERS");

        /* The decoder on the fresh capture gives program.json's words. */
        ls_buf ib, pj;
        ls_buf_init(&ib);
        ls_buf_init(&pj);
        assert_true(ls_read_file(path, &ib));
        uint32_t *dw = malloc(ib.len + 4);
        assert_non_null(dw);
        for (size_t i = 0; i < ib.len / 4; i++) {
            const unsigned char *p = (const unsigned char *)ib.data + 4 * i;
            dw[i] = p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
        }
        mesa_cs cs;
        ls_diag d;
        assert_int_equal(mesa_cs_decode(path, dw, ib.len / 4, &cs, &d), LS_OK);
        assert_true(cs.ndraws >= 1);
        ls_buf job;
        ls_buf_init(&job);
        mesa_cs_job_json(&cs.draws[cs.ndraws - 1], cs.ndraws - 1, &job);
        ls_json *got = NULL, *exp = NULL;
        assert_int_equal(ls_json_parse(job.data, job.len, "job", &got, &d), LS_OK);
        snprintf(want, sizeof want, "%s/program.json", dir);
        assert_true(ls_read_file(want, &pj));
        assert_int_equal(ls_json_parse(pj.data, pj.len, want, &exp, &d), LS_OK);
        const ls_json *gi = ls_json_get(got, "us_inst"), *ei = ls_json_get(exp, "us_inst");
        bool same_words = gi && ei && gi->count == ei->count;
        for (size_t i = 0; same_words && i < ei->count; i++)
            for (size_t k = 0; k < 6; k++)
                same_words = same_words &&
                             strcasecmp(gi->items[i]->items[k]->text, ei->items[i]->items[k]->text) == 0;
        printf(", words %s", same_words ? "equal" : "DIFFER");

        /* llvmpipe reference, float render target. */
        snprintf(path, sizeof path, "%s/ref.bin", work);
        snprintf(cmd, sizeof cmd,
                 "LIBGL_ALWAYS_SOFTWARE=1 '%s' '%s/shader.frag'%s --float -o '%s' 2>/dev/null",
                 glrun, dir, uni, path);
        assert_int_equal(system(cmd), 0);
        snprintf(want, sizeof want, "%s/llvmpipe_rgba32f.bin", dir);
        bool same_ref = files_equal(path, want);
        printf(", llvmpipe %s\n", same_ref ? "identical" : "DIFFERS");
        /* `lockstep mesa check`: r300 -> decode -> lockstep vs llvmpipe (1e-5). */
        snprintf(cmd, sizeof cmd,
                 "LOCKSTEP_MESA_SHIM='%s' LOCKSTEP_MESA_GL='%s' '%s/tools/lockstep' mesa check "
                 "'%s/shader.frag'%s --tolerance 1e-5 -o '%s/check.png' >/dev/null 2>&1",
                 shim, glrun, getenv("LOCKSTEP_BUILD_ROOT"), dir, uni, work);
        bool check_ok = system(cmd) == 0;
        printf("%-26s lockstep mesa check %s\n", "", check_ok ? "agrees" : "DISAGREES");
        assert_true(same_ib && same_words && same_ref && check_ok);
        ls_json_free(got);
        ls_json_free(exp);
        mesa_cs_free(&cs);
        ls_buf_free(&job);
        free(dw);
        ls_buf_free(&ib);
        ls_buf_free(&pj);
        done++;
    }
    closedir(dh);
    assert_int_equal(done, 15);
}

int main(void)
{
    shim = getenv("LOCKSTEP_MESA_SHIM");
    glrun = getenv("LOCKSTEP_MESA_GL");
    if (!shim || !*shim || !glrun || !*glrun) {
        printf("SKIP: the r300 shim was not built: install libdrm-dev libegl-dev libgl-dev "
               "(scripts/deps.sh) and reconfigure\n");
        return LS_TEST_SKIP;
    }
    if (access("/usr/lib/x86_64-linux-gnu/dri/r300_dri.so", R_OK) != 0 &&
        access("/usr/lib/aarch64-linux-gnu/dri/r300_dri.so", R_OK) != 0) {
        printf("SKIP: r300_dri.so not installed (apt-get install libgl1-mesa-dri)\n");
        return LS_TEST_SKIP;
    }
    if (!getenv("LOCKSTEP_BUILD_ROOT")) {
        printf("SKIP: LOCKSTEP_BUILD_ROOT not set (run through meson test)\n");
        return LS_TEST_SKIP;
    }
    const char *corpus = ls_test_require_corpus();
    static char out[1024];
    snprintf(out, sizeof out, "%s/mesa-r300/out", corpus);
    corpus_out = out;
    snprintf(work, sizeof work, "/tmp/lockstep-mesa-test-XXXXXX");
    if (!mkdtemp(work)) {
        printf("cannot create a temporary directory\n");
        return 1;
    }
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_capture_corpus)};
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    char cmd[512];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", work);
    if (system(cmd) != 0)
        rc = rc ? rc : 1;
    return rc;
}
