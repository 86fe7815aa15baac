/* The logic around piglit's own runner (include/lockstep/mesa_piglit_runner.h),
 * against expectations written from deqp-runner's documented behaviour (its
 * README and RunnerStatus): fails/results lines, skips and flakes regexes,
 * --fraction shards, the status of a test against its expectation, and piglit's
 * results JSON (a results.json and a per-test tests/N.json, the shapes
 * framework/backends/json.py writes). No Mesa or piglit needed. */
#include "test_util.h"

#include <string.h>

#include "lockstep/mesa_piglit_runner.h"

static void test_expect(void **state)
{
    (void)state;
    mesa_runner_expect e = {0};
    ls_diag d;
    static const char fails[] = "# r300 on lockstep\n"
                                "\n"
                                "spec@glsl-1.10@execution@loops@glsl-fs-loop-300,Fail\n"
                                "  spec@a@crashes,Crash  \r\n"
                                "spec@a@b,Timeout,12.5\n"
                                "spec@a@b,ExpectedFail\n"; /* a later line wins */
    assert_int_equal(mesa_runner_expect_add(&e, fails, sizeof fails - 1, "fails.txt", &d), LS_OK);
    mesa_runner_status s;
    assert_true(mesa_runner_expect_get(&e, "spec@glsl-1.10@execution@loops@glsl-fs-loop-300", &s));
    assert_int_equal(s, MESA_RUNNER_FAIL);
    assert_true(mesa_runner_expect_get(&e, "spec@a@crashes", &s));
    assert_int_equal(s, MESA_RUNNER_CRASH);
    assert_true(mesa_runner_expect_get(&e, "spec@a@b", &s));
    assert_int_equal(s, MESA_RUNNER_FAIL);
    assert_false(mesa_runner_expect_get(&e, "spec@a", &s));
    assert_false(mesa_runner_expect_get(&e, "spec@a@crashes,Crash", &s));
    /* more lines after a lookup */
    static const char more[] = "spec@a@crashes,Pass\n";
    assert_int_equal(mesa_runner_expect_add(&e, more, sizeof more - 1, "more.txt", &d), LS_OK);
    assert_true(mesa_runner_expect_get(&e, "spec@a@crashes", &s));
    assert_int_equal(s, MESA_RUNNER_PASS);
    /* errors name the file, line and column */
    static const char nostatus[] = "# x\nspec@a@b\n";
    assert_int_equal(mesa_runner_expect_add(&e, nostatus, sizeof nostatus - 1, "bad.txt", &d), LS_ERR_PARSE);
    assert_int_equal(d.line, 2);
    assert_int_equal(d.col, 1);
    static const char unknown[] = "spec@a@b,Failed\n";
    assert_int_equal(mesa_runner_expect_add(&e, unknown, sizeof unknown - 1, "bad.txt", &d), LS_ERR_PARSE);
    assert_int_equal(d.line, 1);
    assert_int_equal(d.col, 10);
    assert_non_null(strstr(d.msg, "'Failed'"));
    mesa_runner_expect_free(&e);
}

static void test_regexes(void **state)
{
    (void)state;
    mesa_runner_regexes r = {0};
    ls_diag d;
    static const char skips[] = "# slow\n"
                                "spec@arb_texture_gather@.*\n"
                                "  glsl-fs-loop-[0-9]+$ \n";
    assert_int_equal(mesa_runner_regexes_add(&r, skips, sizeof skips - 1, "skips.txt", &d), LS_OK);
    assert_int_equal(r.n, 2);
    assert_int_equal(mesa_runner_regexes_match(&r, "spec@arb_texture_gather@texturegather@fs-r"), 0);
    /* unanchored at the start, as deqp-runner's is_match */
    assert_int_equal(mesa_runner_regexes_match(&r, "spec@glsl-1.10@execution@loops@glsl-fs-loop-300"), 1);
    assert_int_equal(mesa_runner_regexes_match(&r, "spec@glsl-1.10@execution@loops@glsl-fs-loop-300x"), -1);
    assert_int_equal(mesa_runner_regexes_match(&r, "spec@arb_texture_rg"), -1);
    /* nested repetitions that would make regcomp's tree explode are refused */
    static const char big[] = "((((((((((((((((((((((x+)+)+)+)+)+)+)+)+)+)+)+)+)+)+)+)+)+)+)+)+)+)+\n";
    assert_int_equal(mesa_runner_regexes_add(&r, big, sizeof big - 1, "skips.txt", &d), LS_ERR_PARSE);
    assert_non_null(strstr(d.msg, "too complex"));
    /* adjacent duplication symbols (undefined in POSIX EREs; a fuzzer found
     * glibc's regcomp taking seconds on ".*+++++++++++") and NUL bytes */
    static const char stacked[] = "glsl.*++++++++++++\n";
    assert_int_equal(mesa_runner_regexes_add(&r, stacked, sizeof stacked - 1, "skips.txt", &d),
                     LS_ERR_PARSE);
    assert_non_null(strstr(d.msg, "adjacent repetitions"));
    static const char braces2[] = "a{2}{3}\n";
    assert_int_equal(mesa_runner_regexes_add(&r, braces2, sizeof braces2 - 1, "skips.txt", &d),
                     LS_ERR_PARSE);
    static const char nul[] = "abc\0def\n";
    assert_int_equal(mesa_runner_regexes_add(&r, nul, sizeof nul - 1, "skips.txt", &d), LS_ERR_PARSE);
    assert_non_null(strstr(d.msg, "NUL"));
    static const char braces[] = "((a{200}){200}){200}\n";
    assert_int_equal(mesa_runner_regexes_add(&r, braces, sizeof braces - 1, "skips.txt", &d), LS_ERR_PARSE);
    static const char fine[] = "spec@a+b{2}[+{]@.*\n";
    assert_int_equal(mesa_runner_regexes_add(&r, fine, sizeof fine - 1, "skips.txt", &d), LS_OK);
    assert_int_equal(mesa_runner_regexes_match(&r, "spec@aabb{@x"), 2);
    static const char bad[] = "ok\n(unclosed\n";
    assert_int_equal(mesa_runner_regexes_add(&r, bad, sizeof bad - 1, "flakes.txt", &d), LS_ERR_PARSE);
    assert_int_equal(d.line, 2);
    mesa_runner_regexes_free(&r);
}

static void test_shard(void **state)
{
    (void)state;
    /* --fraction 3 --fraction-start 2: the 2nd, 5th, 8th test (0-based 1, 4, 7) */
    bool in[9];
    for (size_t k = 0; k < 9; k++)
        in[k] = mesa_runner_in_shard(k, 3, 2);
    static const bool want[9] = {false, true, false, false, true, false, false, true, false};
    assert_memory_equal(in, want, sizeof want);
    /* the shards of one N cover every test once */
    for (size_t k = 0; k < 100; k++) {
        int owners = 0;
        for (unsigned s = 1; s <= 7; s++)
            owners += mesa_runner_in_shard(k, 7, s);
        assert_int_equal(owners, 1);
    }
    /* CSV names: piglit's commas become '-' */
    char name[] = "spec@arb_texture_buffer_object@formats (fs, arb)";
    mesa_runner_sanitize_name(name);
    assert_string_equal(name, "spec@arb_texture_buffer_object@formats (fs- arb)");
    assert_true(mesa_runner_in_shard(0, 1, 1));
    assert_true(mesa_runner_in_shard(41, 1, 1));
}

static void test_classify(void **state)
{
    (void)state;
    const mesa_runner_status P = MESA_RUNNER_PASS, F = MESA_RUNNER_FAIL, S = MESA_RUNNER_SKIP,
                             C = MESA_RUNNER_CRASH, T = MESA_RUNNER_TIMEOUT;
    /* no expectation: Pass expected */
    assert_int_equal(mesa_runner_classify(P, false, P, false), P);
    assert_int_equal(mesa_runner_classify(S, false, P, false), S);
    assert_int_equal(mesa_runner_classify(F, false, P, false), F);
    assert_int_equal(mesa_runner_classify(C, false, P, false), C);
    /* the failure expected happened */
    assert_int_equal(mesa_runner_classify(F, true, F, false), MESA_RUNNER_EXPECTED_FAIL);
    assert_int_equal(mesa_runner_classify(C, true, C, false), MESA_RUNNER_EXPECTED_FAIL);
    assert_int_equal(mesa_runner_classify(T, true, T, false), MESA_RUNNER_EXPECTED_FAIL);
    /* another failure than expected is that failure */
    assert_int_equal(mesa_runner_classify(C, true, F, false), C);
    /* fixed: an error, so the expectation gets cleared */
    assert_int_equal(mesa_runner_classify(P, true, F, false), MESA_RUNNER_UNEXPECTED_PASS);
    assert_int_equal(mesa_runner_classify(S, true, C, false), MESA_RUNNER_UNEXPECTED_PASS);
    assert_false(mesa_runner_status_ok(MESA_RUNNER_UNEXPECTED_PASS));
    /* flaky tests do not fail the run */
    assert_int_equal(mesa_runner_classify(F, false, P, true), MESA_RUNNER_FLAKE);
    assert_int_equal(mesa_runner_classify(P, true, F, true), MESA_RUNNER_UNEXPECTED_PASS);
    assert_int_equal(mesa_runner_classify(P, false, P, true), P);
    assert_true(mesa_runner_status_ok(MESA_RUNNER_FLAKE));
    assert_true(mesa_runner_status_ok(MESA_RUNNER_EXPECTED_FAIL));
    assert_false(mesa_runner_status_ok(MESA_RUNNER_MISSING));
    /* a skip expected, a pass seen: a change, not an error */
    assert_int_equal(mesa_runner_classify(P, true, S, false), P);
    /* piglit's names */
    assert_int_equal(mesa_runner_status_from_piglit("dmesg-fail"), F);
    assert_int_equal(mesa_runner_status_from_piglit("incomplete"), C);
    assert_int_equal(mesa_runner_status_from_piglit("notrun"), MESA_RUNNER_MISSING);
    assert_string_equal(mesa_runner_status_name(MESA_RUNNER_EXPECTED_FAIL), "ExpectedFail");
}

static void test_results(void **state)
{
    (void)state;
    static const char whole[] =
        "{\"results_version\": 10, \"name\": \"r\", \"tests\": {\n"
        "  \"spec@a@one\": {\"__type__\": \"TestResult\", \"result\": \"pass\",\n"
        "     \"time\": {\"__type__\": \"TimeAttribute\", \"start\": 10.5, \"end\": 12.0}},\n"
        "  \"spec@a@two\": {\"result\": \"crash\", \"returncode\": -6}\n"
        "}}";
    mesa_runner_results r = {0};
    ls_diag d;
    assert_int_equal(mesa_runner_results_read(whole, sizeof whole - 1, "results.json", &r, &d), LS_OK);
    assert_int_equal(r.n, 2);
    assert_string_equal(r.r[0].name, "spec@a@one");
    assert_int_equal(r.r[0].status, MESA_RUNNER_PASS);
    assert_true(r.r[0].start == 10.5 && r.r[0].end == 12.0);
    assert_int_equal(r.r[1].status, MESA_RUNNER_CRASH);
    assert_string_equal(r.r[1].piglit, "crash");
    /* a per-test file appends */
    static const char one[] = "{\"spec@b@three\": {\"result\": \"incomplete\"}}";
    assert_int_equal(mesa_runner_results_read(one, sizeof one - 1, "tests/2.json", &r, &d), LS_OK);
    assert_int_equal(r.n, 3);
    assert_string_equal(r.r[2].piglit, "incomplete");
    /* malformed */
    static const char noresult[] = "{\"spec@b@four\": {\"out\": \"\"}}";
    assert_int_equal(mesa_runner_results_read(noresult, sizeof noresult - 1, "t.json", &r, &d), LS_ERR_PARSE);
    assert_non_null(strstr(d.msg, "spec@b@four"));
    static const char truncated[] = "{\"spec@b@five\": {\"result\": \"pa";
    assert_int_equal(mesa_runner_results_read(truncated, sizeof truncated - 1, "t.json", &r, &d), LS_ERR_PARSE);
    static const char notests[] = "{\"results_version\": 10}";
    assert_int_equal(mesa_runner_results_read(notests, sizeof notests - 1, "t.json", &r, &d), LS_ERR_PARSE);
    assert_int_equal(r.n, 3);
    mesa_runner_results_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_expect),  cmocka_unit_test(test_regexes), cmocka_unit_test(test_shard),
        cmocka_unit_test(test_classify), cmocka_unit_test(test_results),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
