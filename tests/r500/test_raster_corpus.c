/* Corpus test of the whole back end: every Mesa r300 program of
 * corpus/mesa-r300/out/ is drawn as the corpus program drew it — a quad over
 * the 16x16 viewport (clip-space corners -1..1, w = 1), uv (0,0)..(1,1) per
 * corner, or the clip-space position for 11_fragcoord_branch (r300's WPOS
 * texcoord, mesa-capture.md §4) — through clipping, the viewport, the
 * scan converter and the RS with the RS registers of its capture
 * (program.json "regs"), and must equal llvmpipe_rgba32f.bin: interior
 * pixels within 1e-5, and here every pixel, since the quad covers the
 * viewport exactly (no edge pixel: the edges lie on pixel boundaries). */
#include <dirent.h>

#include "base/json.h"
#include "io/image.h"
#include "lockstep/r500_raster.h"
#include "test_exec_util.h"

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *b = malloc((size_t)n + 1);
    if (b && fread(b, 1, (size_t)n, f) != (size_t)n) {
        free(b);
        b = NULL;
    }
    fclose(f);
    if (b)
        b[n] = 0, *len = (size_t)n;
    return b;
}

static int run_one(const char *dir, const char *name)
{
    char path[8192];
    snprintf(path, sizeof path, "%s/%s/program.json", dir, name);
    ls_diag d;
    r500_job job;
    r500_job_init(&job);
    job.workers = 1;
    if (r500_job_load(&job, path, &d)) {
        printf("FAIL %s: %s\n", name, d.msg);
        return 1;
    }
    size_t len;
    char *text = slurp(path, &len);
    ls_json *js = NULL;
    if (!text || ls_json_parse(text, len, path, &js, &d)) {
        printf("FAIL %s: json\n", name);
        free(text);
        r500_job_free(&job);
        return 1;
    }
    r500_raster_state s;
    r500_raster_state_init(&s, 16, 16);
    const ls_json *regs = ls_json_get(js, "regs");
    unsigned known = 0;
    for (size_t i = 0; regs && i < regs->count; i++) {
        int r = r500_raster_reg_find(regs->keys[i]);
        if (r < 0 || regs->items[i]->type != LS_JSON_STRING)
            continue;
        s.reg[r] = (uint32_t)strtoul(regs->items[i]->text, NULL, 0);
        known++;
    }
    ls_json_free(js);
    free(text);
    bool wpos = strstr(name, "fragcoord") != NULL;
    static const float corner[4][2] = {{-1, -1}, {1, -1}, {1, 1}, {-1, 1}};
    r500_vertex v[4];
    for (int i = 0; i < 4; i++) {
        memset(&v[i], 0, sizeof v[i]);
        v[i].pos[0] = corner[i][0], v[i].pos[1] = corner[i][1], v[i].pos[3] = 1.0f;
        if (wpos)
            memcpy(v[i].tex, v[i].pos, sizeof v[i].pos);
        else
            v[i].tex[0] = (corner[i][0] + 1) / 2, v[i].tex[1] = (corner[i][1] + 1) / 2,
            v[i].tex[3] = 1.0f;
    }
    r500_draw dr;
    r500_draw_init(&dr);
    dr.state = &s;
    dr.prim = R500_PRIM_QUADS;
    dr.v = v;
    dr.nv = 4;
    dr.width = dr.height = 16;
    float img[16 * 16 * 4] = {0};
    r500_raster_stats st;
    if (r500_draw_run(&dr, &job, img, &st, &d)) {
        printf("FAIL %s: draw: %s\n", name, d.msg);
        r500_job_free(&job);
        return 1;
    }
    r500_job_free(&job);
    char refpath[8192];
    snprintf(refpath, sizeof refpath, "%s/%s/llvmpipe_rgba32f.bin", dir, name);
    ls_imagef ref;
    if (ls_rawf_read(refpath, 16, 16, &ref, &d)) {
        printf("FAIL %s: reference: %s\n", name, d.msg);
        return 1;
    }
    int bad = 0;
    float maxdiff = 0;
    for (int i = 0; i < 256 * 4; i++) {
        float diff = fabsf(img[i] - ref.rgba[i]);
        if (!(diff <= 1e-5f) && bad++ < 3)
            printf("  %s: pixel (%d,%d) ch %d: %.9g, llvmpipe %.9g\n", name, i / 4 % 16,
                   i / 64, i % 4, (double)img[i], (double)ref.rgba[i]);
        if (diff > maxdiff || diff != diff)
            maxdiff = diff;
    }
    ls_imagef_free(&ref);
    printf("%s %-26s %u RS/raster registers from the capture, %llu pixels, %llu quads, "
           "%llu killed, max |diff| %.3g\n",
           bad ? "FAIL" : "ok  ", name, known, (unsigned long long)st.pixels,
           (unsigned long long)st.quads, (unsigned long long)st.killed, (double)maxdiff);
    return bad != 0 || st.pixels != 256;
}

static void test_corpus_draws(void **state)
{
    (void)state;
    const char *corpus = ls_test_require_corpus();
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/mesa-r300/out", corpus);
    DIR *dd = opendir(dir);
    if (!dd) {
        printf("SKIP: %s not found\n", dir);
        exit(LS_TEST_SKIP);
    }
    int n = 0, failed = 0;
    struct dirent *e;
    while ((e = readdir(dd))) {
        if (e->d_name[0] == '.')
            continue;
        failed += run_one(dir, e->d_name);
        n++;
    }
    closedir(dd);
    printf("%d programs, %d failed\n", n, failed);
    assert_true(n > 0);
    assert_int_equal(failed, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_corpus_draws)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
