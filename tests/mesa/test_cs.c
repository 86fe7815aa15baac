/* Command-stream decoder: each captured corpus stream (out/ * /cs/cs_0000.ib)
 * decodes to exactly the state recorded in its program.json (instructions,
 * constants, FC registers, every named register, the RS set-up, the draw
 * packet and its position), and the decoded job, run on lockstep, matches
 * llvmpipe's rendering within 1e-5. Malformed streams are errors with a byte
 * offset. */
#include "test_util.h"

#include <dirent.h>
#include <math.h>

#include "base/buf.h"
#include "base/json.h"
#include "lockstep/mesa_cs.h"
#include "lockstep/r500.h"

static uint32_t *read_dwords(const char *path, size_t *n)
{
    ls_buf b;
    ls_buf_init(&b);
    assert_true(ls_read_file(path, &b));
    *n = b.len / 4;
    uint32_t *w = malloc(b.len + 4);
    memcpy(w, b.data, b.len);
    ls_buf_free(&b);
    return w;
}

static const ls_json *need(const ls_json *o, const char *k)
{
    const ls_json *v = ls_json_get(o, k);
    if (!v)
        fail_msg("missing key %s", k);
    return v;
}

/* Structural equality of two JSON values; numbers by value, strings exactly. */
static bool json_equal(const ls_json *a, const ls_json *b)
{
    if (a->type != b->type)
        return false;
    switch (a->type) {
    case LS_JSON_NULL: return true;
    case LS_JSON_BOOL: return a->boolean == b->boolean;
    case LS_JSON_NUMBER: return a->number == b->number;
    case LS_JSON_STRING: return !strcmp(a->text, b->text);
    case LS_JSON_ARRAY:
        if (a->count != b->count)
            return false;
        for (size_t i = 0; i < a->count; i++)
            if (!json_equal(a->items[i], b->items[i]))
                return false;
        return true;
    case LS_JSON_OBJECT:
        if (a->count != b->count)
            return false;
        for (size_t i = 0; i < a->count; i++) {
            const ls_json *o = ls_json_get(b, a->keys[i]);
            if (!o || !json_equal(a->items[i], o))
                return false;
        }
        return true;
    }
    return false;
}

static void check_program(const char *dir)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/cs/cs_0000.ib", dir);
    size_t n;
    uint32_t *dw = read_dwords(path, &n);
    mesa_cs cs;
    ls_diag d;
    assert_int_equal(mesa_cs_decode(path, dw, n, &cs, &d), LS_OK);
    free(dw);
    assert_true(cs.ndraws >= 1);
    ls_buf job;
    ls_buf_init(&job);
    mesa_cs_job_json(&cs.draws[cs.ndraws - 1], cs.ndraws - 1, &job);
    ls_json *got, *want;
    assert_int_equal(ls_json_parse(job.data, job.len, "decoded", &got, &d), LS_OK);
    snprintf(path, sizeof path, "%s/program.json", dir);
    ls_buf pj;
    ls_buf_init(&pj);
    assert_true(ls_read_file(path, &pj));
    assert_int_equal(ls_json_parse(pj.data, pj.len, path, &want, &d), LS_OK);
    static const char *keys[] = {"draw", "packet", "ib_dword", "us_code_start", "us_code_end",
                                 "us_inst", "fc_ctrl", "fc_bool_const", "rs"};
    for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++)
        if (!json_equal(need(got, keys[k]), need(want, keys[k])))
            fail_msg("%s: %s differs", dir, keys[k]);
    const ls_json *gc = need(got, "us_const"), *wc = need(want, "us_const");
    assert_int_equal(gc->count, wc->count);
    for (size_t i = 0; i < wc->count; i++) {
        const ls_json *g = ls_json_get(gc, wc->keys[i]);
        if (!g || !json_equal(need(g, "hex"), need(wc->items[i], "hex")))
            fail_msg("%s: constant %s differs", dir, wc->keys[i]);
    }
    const ls_json *gr = need(got, "regs"), *wr = need(want, "regs");
    for (size_t i = 0; i < wr->count; i++) {
        const ls_json *g = ls_json_get(gr, wr->keys[i]);
        if (!g || !json_equal(g, wr->items[i]))
            fail_msg("%s: register %s is %s, program.json has %s", dir, wr->keys[i],
                     g ? g->text : "(not decoded)", wr->items[i]->text);
    }
    /* end to end: the decoded job renders like llvmpipe */
    r500_job rj;
    r500_job_init(&rj);
    assert_int_equal(r500_job_load_json(&rj, "decoded", job.data, job.len, &d), LS_OK);
    rj.width = rj.height = 16;
    rj.workers = 1;
    rj.inputs[0].kind = strstr(dir, "11_fragcoord") ? R500_INPUT_CLIP : R500_INPUT_UV;
    r500_result r;
    assert_int_equal(r500_run(&rj, &r, NULL, &d), LS_OK);
    snprintf(path, sizeof path, "%s/llvmpipe_rgba32f.bin", dir);
    ls_buf ref;
    ls_buf_init(&ref);
    assert_true(ls_read_file(path, &ref));
    assert_int_equal(ref.len, 16 * 16 * 4 * 4);
    const float *rf = (const float *)ref.data;
    for (int i = 0; i < 16 * 16 * 4; i++)
        if (!(fabsf(r.target[0][i] - rf[i]) <= 1e-5f))
            fail_msg("%s: pixel %d channel %d: %g vs llvmpipe %g", dir, i / 4, i % 4,
                     (double)r.target[0][i], (double)rf[i]);
    r500_result_free(&r);
    r500_job_free(&rj);
    ls_buf_free(&ref);
    ls_json_free(got);
    ls_json_free(want);
    ls_buf_free(&pj);
    ls_buf_free(&job);
    mesa_cs_free(&cs);
}

static void test_corpus_streams(void **st)
{
    (void)st;
    const char *corpus = ls_test_require_corpus();
    char path[1024];
    snprintf(path, sizeof path, "%s/mesa-r300/out", corpus);
    DIR *dir = opendir(path);
    assert_non_null(dir);
    struct dirent *e;
    int count = 0;
    while ((e = readdir(dir))) {
        if (e->d_name[0] == '.')
            continue;
        char sub[2048];
        snprintf(sub, sizeof sub, "%s/%s", path, e->d_name);
        check_program(sub);
        count++;
    }
    closedir(dir);
    printf("%d captured streams decode to their program.json and render like llvmpipe\n", count);
    assert_int_equal(count, 15);
}

static void test_malformed(void **st)
{
    (void)st;
    mesa_cs cs;
    ls_diag d;
    /* a type-0 packet claiming 4 data dwords with 1 present */
    uint32_t a[] = {0x00030000u | (0x4600 / 4), 1};
    assert_int_equal(mesa_cs_decode("x.ib", a, 2, &cs, &d), LS_ERR_PARSE);
    assert_int_equal(d.offset, 0);
    assert_string_equal(d.file, "x.ib");
    /* a type-3 packet running past the end, after a good packet */
    uint32_t b[] = {0x00000000u | (0x4600 / 4), 2, 0xC0053500u, 1};
    assert_int_equal(mesa_cs_decode("x.ib", b, 4, &cs, &d), LS_ERR_PARSE);
    assert_int_equal(d.offset, 8);
    /* vector uploads: instruction words land at INDEX, constants at INDEX with TYPE=1 */
    uint32_t c[] = {0x00000000u | (0x4250 / 4), 7,
                    0x00058000u | (0x4254 / 4), 1, 2, 3, 4, 5, 6,
                    0x00000000u | (0x4250 / 4), 0x30003u,            /* constants, clamp, index 3 */
                    0x00038000u | (0x4254 / 4), 0x40000000u, 0xbf000000u, 0, 0x7fc00000u,
                    0xC0033500u, 0, 0, 0, 0};
    assert_int_equal(mesa_cs_decode("c.ib", c, sizeof c / 4, &cs, &d), LS_OK);
    assert_int_equal(cs.ndraws, 1);
    assert_true(cs.draws[0].state.us_inst_set[7]);
    assert_int_equal(cs.draws[0].state.us_inst[7][5], 6);
    assert_int_equal(cs.draws[0].state.us_const[3][0], 0x3f800000u); /* 2.0 clamped to 1 */
    assert_int_equal(cs.draws[0].state.us_const[3][1], 0xbf000000u);
    assert_int_equal(cs.draws[0].state.us_const[3][3], 0x7fc00000u); /* NaN kept */
    assert_int_equal(cs.draws[0].ib_dword, 16);
    mesa_cs_free(&cs);
}

/* Bytes to dwords (little-endian), and the decode command's selection */
static void test_bytes_and_selection(void **st)
{
    (void)st;
    mesa_cs cs;
    ls_diag d;
    /* a type-0 write of one register, then a draw: as bytes, least significant first */
    uint32_t w[] = {0x00000000u | (0x4600 / 4), 0x12345678u, 0xC0033500u, 0, 0, 0, 0};
    uint8_t bytes[sizeof w + 3];
    for (size_t k = 0; k < sizeof w / 4; k++)
        for (int j = 0; j < 4; j++)
            bytes[4 * k + (size_t)j] = (uint8_t)(w[k] >> (8 * j));
    assert_int_equal(mesa_cs_decode_bytes("b.ib", bytes, sizeof w, &cs, &d), LS_OK);
    assert_int_equal(cs.ndraws, 1);
    assert_int_equal(cs.draws[0].state.reg[0x4600 / 4], 0x12345678u);
    ls_buf b;
    ls_buf_init(&b);
    assert_int_equal(mesa_cs_jobs_json(&cs, "b.ib", MESA_CS_ALL, &b, &d), LS_OK);
    assert_true(b.len > 2 && b.data[0] == '[' && b.data[b.len - 2] == ']');
    ls_buf_reset(&b);
    assert_int_equal(mesa_cs_jobs_json(&cs, "b.ib", -1, &b, &d), LS_OK);
    assert_true(b.data[0] == '{');
    assert_int_equal(mesa_cs_jobs_json(&cs, "b.ib", 1, &b, &d), LS_ERR_RANGE);
    assert_non_null(strstr(d.msg, "draw 1 requested, the stream has 1"));
    ls_buf_free(&b);
    mesa_cs_free(&cs);
    /* not whole dwords: the error points at the incomplete dword */
    assert_int_equal(mesa_cs_decode_bytes("b.ib", bytes, sizeof w + 3, &cs, &d), LS_ERR_PARSE);
    assert_int_equal(d.offset, (long)sizeof w);
    /* no draw packet */
    assert_int_equal(mesa_cs_decode_bytes("b.ib", bytes, 8, &cs, &d), LS_OK);
    ls_buf_init(&b);
    assert_int_equal(mesa_cs_jobs_json(&cs, "b.ib", -1, &b, &d), LS_ERR_PARSE);
    assert_non_null(strstr(d.msg, "no draw packet"));
    ls_buf_free(&b);
    mesa_cs_free(&cs);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_corpus_streams),
        cmocka_unit_test(test_malformed),
        cmocka_unit_test(test_bytes_and_selection),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
