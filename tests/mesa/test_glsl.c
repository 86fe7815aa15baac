/* mesa_glsl_uniforms: the uniforms a GLSL source declares (for the warning of
 * `mesa run|check` about uniforms no --uniform sets). Expectations written
 * from the GLSL 1.20 declaration grammar, not from the scanner. */
#include "test_util.h"

#include "lockstep/mesa_glsl.h"

static size_t scan(const char *src, char (*names)[MESA_GLSL_NAME], size_t max)
{
    return mesa_glsl_uniforms(src, strlen(src), names, max);
}

static void test_declarations(void **st)
{
    (void)st;
    char n[8][MESA_GLSL_NAME];
    assert_int_equal(scan("uniform float a;\nuniform vec4 b[4], c;\nvoid main() {}\n", n, 8), 3);
    assert_string_equal(n[0], "a");
    assert_string_equal(n[1], "b");
    assert_string_equal(n[2], "c");
    /* precision qualifier, initialiser, matrix */
    assert_int_equal(scan("uniform highp mat4 m; uniform int z = 3, w;", n, 8), 3);
    assert_string_equal(n[0], "m");
    assert_string_equal(n[1], "z");
    assert_string_equal(n[2], "w");
}

static void test_not_declarations(void **st)
{
    (void)st;
    char n[8][MESA_GLSL_NAME];
    /* comments, preprocessor lines and identifiers containing "uniform" */
    assert_int_equal(scan("// uniform float x;\n/* uniform int y; */\n#define uniform_n 3\n"
                          "float myuniform;\nvec4 uniforms_used;\n", n, 8), 0);
    assert_int_equal(scan("", n, 8), 0);
    assert_int_equal(scan("uniform float", n, 8), 0); /* no ';': no declaration */
}

static void test_more_than_max(void **st)
{
    (void)st;
    char n[2][MESA_GLSL_NAME];
    assert_int_equal(scan("uniform float a, b, c, d;", n, 2), 4);
    assert_string_equal(n[0], "a");
    assert_string_equal(n[1], "b");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_declarations),
        cmocka_unit_test(test_not_declarations),
        cmocka_unit_test(test_more_than_max),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
