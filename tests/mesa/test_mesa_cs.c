/* The command-stream decoder against (1) hand-built PM4 streams whose expected
 * state is worked out here from r500.md §1.1, and (2) every captured stream of
 * the mesa-r300 corpus: the last draw's job must equal program.json. */
#include "test_util.h"

#include <dirent.h>
#include <math.h>
#include <strings.h>

#include "base/buf.h"
#include "base/json.h"
#include "lockstep/mesa.h"

static uint32_t type0(uint32_t reg, unsigned n, bool one_reg)
{
    return ((uint32_t)(n - 1) << 16) | (one_reg ? 0x8000u : 0u) | (reg >> 2);
}
static uint32_t type3(unsigned op, unsigned n) { return 0xC0000000u | ((uint32_t)(n - 1) << 16) | (op << 8); }

static ls_json *parse(const char *text)
{
    ls_json *v = NULL;
    ls_diag d;
    assert_int_equal(ls_json_parse(text, strlen(text), "job", &v, &d), LS_OK);
    return v;
}

static const char *str_at(const ls_json *arr, size_t i, size_t k)
{
    return arr->items[i]->items[k]->text;
}

static void test_upload_and_draw(void **state)
{
    (void)state;
    uint32_t cs[64];
    size_t n = 0;
    /* INDEX = slot 3, instructions; then 12 data dwords = 2 instructions. */
    cs[n++] = type0(0x4250, 1, false);
    cs[n++] = 3;
    cs[n++] = type0(0x4254, 12, true);
    for (uint32_t k = 0; k < 12; k++)
        cs[n++] = 0x100u + k;
    /* constants at slot 5: 4 dwords */
    cs[n++] = type0(0x4250, 1, false);
    cs[n++] = 0x10005u;
    cs[n++] = type0(0x4254, 4, true);
    cs[n++] = 0x3f800000u;
    cs[n++] = 0;
    cs[n++] = 0x40000000u;
    cs[n++] = 0xbf800000u;
    /* US_CODE_ADDR start 3 end 4; code offset 0 via a 2-register burst */
    cs[n++] = type0(0x4630, 1, false);
    cs[n++] = (4u << 16) | 3u;
    cs[n++] = 0x80000000u; /* type-2 filler */
    cs[n++] = type3(0x35, 2);
    cs[n++] = 0;
    cs[n++] = 0;
    ls_mesa_jobs jobs;
    ls_diag d;
    assert_int_equal(ls_mesa_cs_decode(cs, n, "t", &jobs, &d), LS_OK);
    assert_int_equal(jobs.count, 1);
    ls_json *j = parse(jobs.json[0]);
    const ls_json *inst = ls_json_get(j, "us_inst");
    assert_non_null(inst);
    assert_int_equal(inst->count, 2);
    assert_string_equal(str_at(inst, 0, 0), "0x00000100");
    assert_string_equal(str_at(inst, 1, 5), "0x0000010b");
    const ls_json *c = ls_json_get(ls_json_get(j, "us_const"), "5");
    assert_non_null(c);
    assert_string_equal(ls_json_get(c, "hex")->items[3]->text, "0xbf800000");
    assert_true(ls_json_get(c, "f32")->items[2]->number == 2.0);
    assert_string_equal(ls_json_get(j, "packet")->text, "3D_DRAW_IMMD_2");
    assert_true(ls_json_get(j, "ib_dword")->number == (double)(n - 3));
    ls_json_free(j);
    ls_mesa_jobs_free(&jobs);
}

static void test_bad_streams(void **state)
{
    (void)state;
    ls_mesa_jobs jobs;
    ls_diag d;
    uint32_t trunc[] = {type0(0x4250, 4, false), 1, 2};
    assert_int_equal(ls_mesa_cs_decode(trunc, 3, "t", &jobs, &d), LS_ERR_PARSE);
    assert_int_equal(d.offset, 0);
    assert_int_equal(jobs.count, 0);
    uint32_t t1[] = {0x80000000u, 0x40000000u};
    assert_int_equal(ls_mesa_cs_decode(t1, 2, "t", &jobs, &d), LS_ERR_PARSE);
    assert_int_equal(d.offset, 4);
    uint32_t past[] = {type0(0x7FFC, 2, false), 1, 2};
    assert_int_equal(ls_mesa_cs_decode(past, 3, "t", &jobs, &d), LS_ERR_PARSE);
}

/* Structural equality: every member of want must be in got (got may carry
 * extensions such as "inputs"); numbers compared as float32 (program.json
 * spells f32 values as doubles); strings case-insensitively (hex). */
static bool same(const ls_json *want, const ls_json *got, const char *path)
{
    if (!got) {
        printf("%s: missing\n", path);
        return false;
    }
    if (want->type != got->type) {
        printf("%s: type %s vs %s\n", path, ls_json_type_name(want->type),
               ls_json_type_name(got->type));
        return false;
    }
    char sub[512];
    switch (want->type) {
    case LS_JSON_NULL: return true;
    case LS_JSON_BOOL: return want->boolean == got->boolean;
    case LS_JSON_NUMBER:
        if ((float)want->number != (float)got->number) {
            printf("%s: %s vs %s\n", path, want->text, got->text);
            return false;
        }
        return true;
    case LS_JSON_STRING:
        if (strcasecmp(want->text, got->text) != 0) {
            printf("%s: %s vs %s\n", path, want->text, got->text);
            return false;
        }
        return true;
    case LS_JSON_ARRAY:
        if (want->count != got->count) {
            printf("%s: %zu items vs %zu\n", path, want->count, got->count);
            return false;
        }
        for (size_t i = 0; i < want->count; i++) {
            snprintf(sub, sizeof sub, "%s[%zu]", path, i);
            if (!same(want->items[i], got->items[i], sub))
                return false;
        }
        return true;
    case LS_JSON_OBJECT:
        for (size_t i = 0; i < want->count; i++) {
            snprintf(sub, sizeof sub, "%s.%s", path, want->keys[i]);
            if (!same(want->items[i], ls_json_get(got, want->keys[i]), sub))
                return false;
        }
        return true;
    }
    return false;
}

static void test_corpus(void **state)
{
    (void)state;
    const char *corpus = ls_test_corpus();
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/mesa-r300/out", corpus);
    DIR *dh = opendir(dir);
    if (!dh)
        skip();
    unsigned checked = 0;
    struct dirent *e;
    while ((e = readdir(dh)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        char path[1400];
        ls_buf ib, pj;
        ls_buf_init(&ib);
        ls_buf_init(&pj);
        snprintf(path, sizeof path, "%s/%s/cs/cs_0000.ib", dir, e->d_name);
        assert_true(ls_read_file(path, &ib));
        snprintf(path, sizeof path, "%s/%s/program.json", dir, e->d_name);
        assert_true(ls_read_file(path, &pj));
        size_t ndw = ib.len / 4;
        uint32_t *dw = malloc(ndw * 4 + 4);
        assert_non_null(dw);
        for (size_t i = 0; i < ndw; i++) {
            const unsigned char *p = (const unsigned char *)ib.data + 4 * i;
            dw[i] = p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
        }
        ls_mesa_jobs jobs;
        ls_diag d;
        assert_int_equal(ls_mesa_cs_decode(dw, ndw, path, &jobs, &d), LS_OK);
        /* mesa-capture.md: "Two draws per CS … Our draw is always the last one." */
        assert_int_equal(jobs.count, 2);
        ls_json *want = NULL, *got = parse(jobs.json[jobs.count - 1]);
        assert_int_equal(ls_json_parse(pj.data, pj.len, path, &want, &d), LS_OK);
        printf("%s\n", e->d_name);
        bool ok = same(want, got, e->d_name);
        const ls_json *wr = ls_json_get(want, "regs"), *gr = ls_json_get(got, "regs");
        assert_non_null(gr);
        /* no extra registers either, except the render-target formats 1..3,
         * which the driver writes but the corpus's program.json omits */
        for (size_t r = 0; ok && r < gr->count; r++) {
            if (ls_json_get(wr, gr->keys[r]))
                continue;
            if (strncmp(gr->keys[r], "US_OUT_FMT_", 11) != 0 || gr->keys[r][11] == '0') {
                printf("%s: extra register %s\n", e->d_name, gr->keys[r]);
                ok = false;
            }
        }
        const ls_json *inputs = ls_json_get(got, "inputs");
        assert_non_null(inputs);
        /* README: "Every program here has exactly one input, in temp 0" */
        assert_int_equal(inputs->count, 1);
        assert_true(ls_json_get(inputs->items[0], "temp")->number == 0);
        assert_true(ok);
        checked++;
        ls_json_free(want);
        ls_json_free(got);
        ls_mesa_jobs_free(&jobs);
        free(dw);
        ls_buf_free(&ib);
        ls_buf_free(&pj);
    }
    closedir(dh);
    printf("corpus shaders checked: %u\n", checked);
    assert_int_equal(checked, 15);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_upload_and_draw),
        cmocka_unit_test(test_bad_streams),
        cmocka_unit_test(test_corpus),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
