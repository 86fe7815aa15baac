/* piglit shader_test parser and the harness's evaluation rules, against
 * expectations written out by hand from shader_runner's documented
 * semantics (docs/mesa.md "piglit"): command fields, malformed lines with
 * line:col, skip reasons, the pixels a rectangle covers, RGBA8 storage, and
 * probes with their tolerance. */
#include "test_util.h"

#include <math.h>

#include "base/json.h"
#include "lockstep/mesa_piglit.h"
#include "lockstep/mesa_piglit_run.h"

static const char sample[] =
    "# comment before the first section\n"       /* 1 */
    "[require]\n"                                 /* 2 */
    "GLSL >= 1.20\n"                              /* 3 */
    "SIZE 40 20\n"                                /* 4 */
    "GL_ARB_fake_extension\n"                     /* 5 */
    "\n"                                          /* 6 */
    "[vertex shader]\n"                           /* 7 */
    "void main() { gl_Position = gl_Vertex; }\n"  /* 8 */
    "[fragment shader]\n"                         /* 9 */
    "uniform vec3 c; // varying in a comment\n"   /* 10 */
    "void main() { gl_FragColor = vec4(c, gl_FragCoord.x); }\n" /* 11 */
    "\n"                                          /* 12 */
    "[test]\n"                                    /* 13 */
    "clear color 0.0 0.25 0.5 1.0\n"              /* 14 */
    "clear\n"                                     /* 15 */
    "uniform vec3 c 1 -2.5 3e-1\n"                /* 16 */
    "uniform mat2x3 m 1 2 3 4 5 6\n"              /* 17 */
    "draw rect ortho 4 2 8 6\n"                   /* 18 */
    "draw rect -1 -1 2 2\n"                       /* 19 */
    "probe rect rgba (1, 2, 3, 4) (0.1, 0.2, 0.3, 0.4)\n" /* 20 */
    "probe rgb 7 9 1 0 0\n"                       /* 21 */
    "probe all rgba 0 1 0 1\n"                    /* 22 */
    "relative probe rgba (1.0, 0.5) (0, 0, 0, 1)\n" /* 23 */
    "tolerance 0.05\n";                           /* 24 */

static void test_parse_sample(void **state)
{
    (void)state;
    piglit_test t;
    ls_diag d;
    assert_int_equal(piglit_test_parse(sample, strlen(sample), "s.shader_test", &t, &d), LS_OK);
    assert_string_equal(t.skip, "");
    assert_int_equal(t.width, 40);
    assert_int_equal(t.height, 20);
    assert_int_equal(t.glsl_version, 120);
    assert_int_equal(t.nrequires, 1);
    assert_string_equal(t.requires[0], "GL_ARB_fake_extension");
    assert_int_equal(t.nvs, 1);
    assert_int_equal(t.nfs, 1);
    assert_int_equal(t.vs_line[0], 8);
    assert_int_equal(t.fs_line[0], 10);
    assert_non_null(strstr(t.vs[0], "gl_Position = gl_Vertex"));
    assert_non_null(strstr(t.fs[0], "gl_FragCoord"));
    assert_null(strstr(t.fs[0], "[test]"));
    assert_false(piglit_uses_matrices(&t));
    assert_int_equal(t.ncmds, 11);
    const piglit_cmd *c = t.cmds;
    assert_int_equal(c[0].kind, PIGLIT_CLEAR_COLOR);
    assert_true(c[0].v[1] == 0.25f && c[0].v[3] == 1.0f);
    assert_int_equal(c[1].kind, PIGLIT_CLEAR);
    assert_int_equal(c[2].kind, PIGLIT_UNIFORM);
    assert_string_equal(c[2].type, "vec3");
    assert_string_equal(c[2].name, "c");
    assert_int_equal(c[2].nv, 3);
    assert_true(c[2].v[1] == -2.5f && c[2].v[2] == 0.3f);
    assert_int_equal(c[3].nv, 6);
    assert_int_equal(c[4].kind, PIGLIT_DRAW_RECT);
    assert_true(c[4].ortho);
    assert_true(c[4].v[0] == 4 && c[4].v[3] == 6);
    assert_int_equal(c[4].line, 18);
    assert_false(c[5].ortho);
    /* probe rect: x y w h */
    assert_int_equal(c[6].kind, PIGLIT_PROBE);
    assert_int_equal(c[6].ncomp, 4);
    assert_true(c[6].v[0] == 1 && c[6].v[1] == 2 && c[6].v[2] == 3 && c[6].v[3] == 4);
    assert_true(c[6].e[3] == 0.4f);
    /* probe rgb x y: one pixel */
    assert_int_equal(c[7].ncomp, 3);
    assert_true(c[7].v[0] == 7 && c[7].v[1] == 9 && c[7].v[2] == 1 && c[7].v[3] == 1);
    /* probe all: the window */
    assert_true(c[8].v[0] == 0 && c[8].v[2] == 40 && c[8].v[3] == 20);
    /* relative (1.0, 0.5) of 40×20: x = 40 clamps to 39, y = 10 */
    assert_true(c[9].relative);
    assert_true(c[9].v[0] == 39 && c[9].v[1] == 10);
    /* tolerance with one value applies to all four channels */
    assert_int_equal(c[10].kind, PIGLIT_TOLERANCE);
    assert_true(c[10].v[0] == 0.05f && c[10].v[3] == 0.05f);
    /* the input model accepts it: no varyings (the comment does not count),
     * gl_FragCoord is fed, the vertex shader passes the position through */
    assert_true(piglit_fs_uses(&t, "gl_FragCoord"));
    assert_false(piglit_fs_uses(&t, "varying"));
    assert_true(piglit_test_check_inputs(&t));
    piglit_test_free(&t);
}

static void expect_error(const char *text, int line, int col)
{
    piglit_test t;
    ls_diag d;
    ls_diag_clear(&d);
    ls_status st = piglit_test_parse(text, strlen(text), "bad.shader_test", &t, &d);
    if (st == LS_OK)
        fail_msg("accepted: %s", text);
    assert_int_equal(d.line, line);
    if (col)
        assert_int_equal(d.col, col);
    assert_string_equal(d.file, "bad.shader_test");
}

static void test_malformed(void **state)
{
    (void)state;
    const char *head = "[require]\nGLSL >= 1.10\n[fragment shader]\nvoid main(){}\n[test]\n";
    char buf[512];
    snprintf(buf, sizeof buf, "%sclear color x 2 3 4\n", head);
    expect_error(buf, 6, 13);
    snprintf(buf, sizeof buf, "%suniform vec2 a\n", head);
    expect_error(buf, 6, 0);
    snprintf(buf, sizeof buf, "%s  draw rect\n", head);
    expect_error(buf, 6, 0);
    snprintf(buf, sizeof buf, "%sprobe rgba (x, y)\n", head);
    expect_error(buf, 6, 0);
    snprintf(buf, sizeof buf, "%suniform\n", head);
    expect_error(buf, 6, 0);
    /* hostile sizes: not finite or beyond 1e6 is an error, never a pixel number */
    snprintf(buf, sizeof buf, "%sprobe rect rgba (2000000000, 0, 2000000000, 1) (0, 1, 0, 1)\n", head);
    expect_error(buf, 6, 0);
    snprintf(buf, sizeof buf, "%sdraw rect 0 0 inf 1\n", head);
    expect_error(buf, 6, 0);
    snprintf(buf, sizeof buf, "%sprobe rgba nan 0 0 0 0 0\n", head);
    expect_error(buf, 6, 0);
    snprintf(buf, sizeof buf, "%sortho 0 1e30 0 1\n", head);
    expect_error(buf, 6, 0);
    snprintf(buf, sizeof buf, "%suniform int i 1e300\n", head); /* saturates like strtol */
    {
        piglit_test tt;
        ls_diag dd;
        assert_int_equal(piglit_test_parse(buf, strlen(buf), "t", &tt, &dd), LS_OK);
        assert_int_equal(tt.cmds[0].iv[0], -1); /* LLONG_MAX's low 32 bits */
        piglit_test_free(&tt);
    }
    expect_error("[require]\nSIZE 0 10\n", 2, 0);
    expect_error("[require]\nGLSL == 1.10\n", 2, 0);
    static const char nul[] = "[require]\nGLSL >= 1.10\n[test]\nclear\0\n";
    piglit_test t;
    ls_diag d;
    assert_int_equal(piglit_test_parse(nul, sizeof nul - 1, "n", &t, &d), LS_ERR_PARSE);
    assert_int_equal(d.line, 4);
    char *longl = malloc(9000);
    memset(longl, 'a', 8999);
    memcpy(longl, "[test]\n", 7);
    longl[8998] = '\n';
    assert_int_equal(piglit_test_parse(longl, 8999, "l", &t, &d), LS_ERR_PARSE);
    free(longl);
    /* shader_runner's leniency: a missing value reads as 0, text after the
     * values is ignored, lines before the first section are ignored */
    snprintf(buf, sizeof buf,
             "a comment without a hash\n%suniform vec4 v 0.1 0.9 0.9\nuniform float i 2.0;\n"
             "probe rgb 1 1 0.5 0.5 0.5 0.0\n",
             head);
    assert_int_equal(piglit_test_parse(buf, strlen(buf), "t", &t, &d), LS_OK);
    assert_int_equal(t.ncmds, 3);
    assert_true(t.cmds[0].v[2] == 0.9f && t.cmds[0].v[3] == 0.0f && t.cmds[0].nv == 4);
    assert_true(t.cmds[1].v[0] == 2.0f);
    assert_true(t.cmds[2].ncomp == 3 && t.cmds[2].e[2] == 0.5f);
    piglit_test_free(&t);
    /* hexadecimal values are bit patterns: a float's, or a 32-bit integer's */
    snprintf(buf, sizeof buf, "%suniform vec4 h 0x7f000000 -5 0x3f800000 0\nuniform ivec2 k 0xffffffff 7\n",
             head);
    assert_int_equal(piglit_test_parse(buf, strlen(buf), "t", &t, &d), LS_OK);
    assert_true(t.cmds[0].v[0] == 0x1p127f && t.cmds[0].v[1] == -5.0f && t.cmds[0].v[2] == 1.0f);
    assert_int_equal(t.cmds[1].iv[0], -1);
    assert_int_equal(t.cmds[1].iv[1], 7);
    piglit_test_free(&t);
    /* a truncated file is fine (no newline at the end) */
    snprintf(buf, sizeof buf, "%sclear", head);
    assert_int_equal(piglit_test_parse(buf, strlen(buf), "t", &t, &d), LS_OK);
    assert_int_equal(t.ncmds, 1);
    piglit_test_free(&t);
}

/* shader_runner's texture commands and the small state commands: the
 * fields as written out from shader_runner.c / piglit-util-gl.c, with GL's
 * enum values from the GL headers' definitions (written here as numbers). */
static const char textures[] =
    "[require]\nGLSL >= 1.10\n[fragment shader]\nuniform sampler2D s;\n"   /* 1-4 */
    "void main(){ gl_FragColor = texture2D(s, vec2(0.5)); }\n"             /* 5 */
    "[test]\n"                                                              /* 6 */
    "texture rgbw 1 (8, 4)\n"                                               /* 7 */
    "texture rgbw 1D 2\n"                                                   /* 8 */
    "texture rgbw 3D 0\n"                                                   /* 9 */
    "texture checkerboard 3 0 (8, 6) (0.0, 0.0, 0.0, 0.0) (1.0, 0.5, 0.25, 1.0)\n" /* 10 */
    "texture quads 0 1 (4, 4) (1, 2) (1, 0, 0, 1) (0, 1, 0, 1) (0, 0, 1, 1) (1, 1, 1, 1)\n" /* 11 */
    "texture miptree 5\n"                                                   /* 12 */
    "texture shadow1D 0 (32)\n"                                             /* 13 */
    "texture shadow2D 0 (32, 16)\n"                                         /* 14 */
    "texture shadowRect 0 (8, 8)\n"                                         /* 15 */
    "texparameter 2D compare_func always\n"                                 /* 16 */
    "texparameter 1D depth_mode intensity\n"                                /* 17 */
    "texparameter Rect min linear_mipmap_nearest\n"                         /* 18 */
    "texparameter 3D wrap_r clamp_to_border\n"                              /* 19 */
    "texparameter 2D lod_bias -1.5\n"                                       /* 20 */
    "texparameter Cube max_level 3\n"                                       /* 21 */
    "texparameter 2D border_color 0.25 0.5 0.75 1\n"                        /* 22 */
    "color 0.25 0.75 0.5 0.25\n"                                            /* 23 */
    "hint GL_FRAGMENT_SHADER_DERIVATIVE_HINT GL_NICEST\n"                   /* 24 */
    "link success\n"                                                        /* 25 */
    "draw rect tex -1 -1 2 2 0 0 1 1\n";                                    /* 26 */

static void test_textures(void **state)
{
    (void)state;
    piglit_test t;
    ls_diag d;
    assert_int_equal(piglit_test_parse(textures, strlen(textures), "tex.shader_test", &t, &d), LS_OK);
    assert_string_equal(t.skip, "");
    assert_true(piglit_test_check_pipeline(&t)); /* samplers run through the pipeline */
    assert_false(piglit_test_check_inputs(&t));  /* not in the rectangle model */
    assert_non_null(strstr(t.skip, "samples a texture"));
    assert_int_equal(t.ncmds, 20);
    const piglit_cmd *c = t.cmds;
    /* unit, kind, width, height, depth */
    static const int want[9][5] = {
        {1, PIGLIT_TEX_RGBW, 8, 4, 1},         {2, PIGLIT_TEX_RGBW_1D, 4, 1, 1},
        {0, PIGLIT_TEX_RGBW_3D, 2, 2, 2},      {3, PIGLIT_TEX_CHECKERBOARD, 8, 6, 1},
        {0, PIGLIT_TEX_QUADS, 4, 4, 1},        {5, PIGLIT_TEX_MIPTREE, 8, 8, 1},
        {0, PIGLIT_TEX_SHADOW_1D, 32, 1, 1},   {0, PIGLIT_TEX_SHADOW_2D, 32, 16, 1},
        {0, PIGLIT_TEX_SHADOW_RECT, 8, 8, 1},
    };
    for (int i = 0; i < 9; i++) {
        assert_int_equal(c[i].kind, PIGLIT_TEXTURE);
        assert_int_equal(c[i].line, 7 + i);
        for (int k = 0; k < 5; k++)
            assert_int_equal(c[i].iv[k], want[i][k]);
    }
    /* checkerboard: level, tiles of half the size, black then white */
    assert_int_equal(c[3].iv[5], 0);
    assert_int_equal(c[3].iv[6], 4);
    assert_int_equal(c[3].iv[7], 3);
    assert_true(c[3].v[3] == 0.0f && c[3].v[4] == 1.0f && c[3].v[5] == 0.5f && c[3].v[6] == 0.25f);
    /* quads: level 1, tiles 1×2, the four colours */
    assert_int_equal(c[4].iv[5], 1);
    assert_int_equal(c[4].iv[6], 1);
    assert_int_equal(c[4].iv[7], 2);
    assert_true(c[4].v[0] == 1.0f && c[4].v[5] == 1.0f && c[4].v[10] == 1.0f && c[4].v[15] == 1.0f);
    /* texparameter: target, pname, value as GL enums (GL_TEXTURE_2D 0x0DE1,
     * GL_TEXTURE_COMPARE_FUNC 0x884D, GL_ALWAYS 0x0207, ...) */
    static const int tp[6][3] = {
        {0x0DE1, 0x884D, 0x0207}, {0x0DE0, 0x884B, 0x8049}, {0x84F5, 0x2801, 0x2701},
        {0x806F, 0x8072, 0x812D}, {0x0DE1, 0x8501, 0},      {0x8513, 0x813D, 3},
    };
    for (int i = 0; i < 6; i++) {
        assert_int_equal(c[9 + i].kind, PIGLIT_TEXPARAMETER);
        for (int k = 0; k < 3; k++)
            assert_int_equal(c[9 + i].iv[k], tp[i][k]);
    }
    assert_true(c[13].v[0] == -1.5f);
    assert_int_equal(c[15].iv[1], 0x1004); /* GL_TEXTURE_BORDER_COLOR */
    assert_true(c[15].v[0] == 0.25f && c[15].v[2] == 0.75f && c[15].v[3] == 1.0f);
    assert_int_equal(c[16].kind, PIGLIT_COLOR);
    assert_true(c[16].v[1] == 0.75f && c[16].v[3] == 0.25f);
    assert_int_equal(c[17].kind, PIGLIT_HINT);
    assert_int_equal(c[17].iv[0], 0x8B8B); /* GL_FRAGMENT_SHADER_DERIVATIVE_HINT */
    assert_int_equal(c[17].iv[1], 0x1102); /* GL_NICEST */
    assert_int_equal(c[18].kind, PIGLIT_LINK_SUCCESS);
    assert_int_equal(c[19].kind, PIGLIT_DRAW_RECT);
    assert_true(c[19].tex && !c[19].ortho);
    assert_true(c[19].v[0] == -1.0f && c[19].v[6] == 1.0f && c[19].v[7] == 1.0f);
    piglit_test_free(&t);

    /* malformed: one error with file, line and column */
    const char *head = "[require]\nGLSL >= 1.10\n[fragment shader]\nvoid main(){}\n[test]\n";
    static const struct { const char *line; int col; } bad[] = {
        {"texture rgbw 0", 15},                    /* no size */
        {"texture rgbw 0 (8)", 19},                /* no height */
        {"texture rgbw 40 (8, 8)", 0},             /* unit beyond 31 */
        {"texture rgbw 0 (0, 8)", 0},              /* empty */
        {"texture rgbw 0 (8.5, 8)", 0},            /* not whole */
        {"texture rgbw 0 (5000, 8)", 0},           /* beyond 4096 */
        {"texture rgbw 1D", 16},                   /* no unit */
        {"texture checkerboard 0 0 (8, 8) (0, 0, 0, 0)", 0},
        {"texture checkerboard 0 0 (1, 8) (0, 0, 0, 0) (1, 1, 1, 1)", 0}, /* a tile of 0 */
        {"texture checkerboard 0 13 (8, 8) (0, 0, 0, 0) (1, 1, 1, 1)", 0}, /* level */
        {"texture checkerboard 0 0 (8, 8) (0, 0, 0, 0) (1, 1, inf, 1)", 0},
        {"texture quads 0 0 (8, 8) (0, 2) (0, 0, 0, 0) (1, 1, 1, 1) (0, 0, 0, 0) (1, 1, 1, 1)", 0},
        {"texture shadow1D 0 (1)", 0},             /* depth x / (W - 1) */
        {"texture shadow2D 0 (8)", 0},
        {"texparameter", 13},
        {"texparameter 4D min nearest", 14},
        {"texparameter 2D min bilinear", 0},
        {"texparameter 2D compare_func", 0},
        {"texparameter 2D lod_bias x", 0},
        {"texparameter 2D max_level -1", 0},
        {"texparameter 2D border_color 1 2 3", 0},
        {"color", 6},
        {"hint GL_FOG_HINT GL_NICEST", 1},
        {"hint GL_LINE_SMOOTH_HINT", 1},
        {"draw rect tex", 14},
        {"draw rect tex 0 0 1 1 0 0 nan 1", 0},
    };
    char buf[512];
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        snprintf(buf, sizeof buf, "%s%s\n", head, bad[i].line);
        ls_diag_clear(&d);
        if (piglit_test_parse(buf, strlen(buf), "bad.shader_test", &t, &d) == LS_OK)
            fail_msg("accepted: %s", bad[i].line);
        if (d.line != 6 || (bad[i].col && d.col != bad[i].col) || strcmp(d.file, "bad.shader_test"))
            fail_msg("'%s': error at %s:%d:%d (%s), expected line 6 col %d", bad[i].line, d.file,
                     d.line, d.col, d.msg, bad[i].col);
    }
}

/* `mesa run --mesh` files: [vertex data] on its own, three rows a triangle. */
static void test_mesh(void **state)
{
    (void)state;
    static const char ok[] = "# a triangle\n"
                             "pos/float/3  c/float/1\n"
                             "\n"
                             "0 0 0  1\n"
                             "1 0 0  0.5\n"
                             "0 1 0  0.25  # text after the values is ignored\n";
    piglit_test t;
    ls_diag d;
    assert_int_equal(piglit_mesh_parse(ok, strlen(ok), "m.mesh", &t, &d), LS_OK);
    assert_int_equal(t.nattr, 2);
    assert_string_equal(t.attr_name[1], "c");
    assert_int_equal(t.attr_comps[0], 3);
    assert_int_equal(t.attr_offset[1], 3);
    assert_int_equal(t.nrows, 3);
    assert_true(t.vdata[4 * 1 + 3] == 0.5f && t.vdata[4 * 2 + 1] == 1.0f);
    piglit_test_free(&t);
    static const struct { const char *text; int line; } bad[] = {
        {"pos/float/3\n0 0 0\n1 0 0\n", 3},           /* two rows */
        {"# nothing\n", 1},                            /* no header */
        {"pos/float/3\n", 1},                          /* no row */
        {"pos/float/9\n0 0 0\n", 1},                   /* 9 components */
        {"pos/int/2\n0 0\n0 1\n1 0\n", 1},             /* not float */
        {"pos/float/2\n0 0\n0 x\n1 0\n", 3},           /* a missing number */
        {"pos/float/2\n0 0\n0 inf\n1 0\n", 3},         /* not finite */
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        ls_diag_clear(&d);
        if (piglit_mesh_parse(bad[i].text, strlen(bad[i].text), "m.mesh", &t, &d) == LS_OK)
            fail_msg("accepted: %s", bad[i].text);
        if (d.line != bad[i].line || strcmp(d.file, "m.mesh"))
            fail_msg("'%s': error at %s:%d (%s), expected line %d", bad[i].text, d.file, d.line,
                     d.msg, bad[i].line);
    }
}

static void expect_skip(const char *text, const char *reason_part)
{
    piglit_test t;
    ls_diag d;
    assert_int_equal(piglit_test_parse(text, strlen(text), "s", &t, &d), LS_OK);
    piglit_test_check_inputs(&t);
    if (!strstr(t.skip, reason_part))
        fail_msg("skip reason '%s' lacks '%s'", t.skip, reason_part);
    piglit_test_free(&t);
}

static void test_skips(void **state)
{
    (void)state;
    const char *fs = "[fragment shader]\nvoid main(){ gl_FragColor = vec4(1.0); }\n";
    char buf[1024];
    snprintf(buf, sizeof buf, "[require]\nGLSL >= 1.30\n%s", fs);
    expect_skip(buf, "GLSL 1.20");
    snprintf(buf, sizeof buf, "[require]\nGL >= 3.0\nGLSL >= 1.10\n%s", fs);
    expect_skip(buf, "GL 2.1");
    snprintf(buf, sizeof buf, "[require]\nGLSL >= 1.10\n%s[geometry shader]\nvoid main(){}\n", fs);
    expect_skip(buf, "section [geometry shader]");
    snprintf(buf, sizeof buf, "[require]\nGLSL >= 1.10\n%s[vertex data]\nv/int/2\n", fs);
    expect_skip(buf, "type 'int'");
    snprintf(buf, sizeof buf, "[require]\nGLSL >= 1.10\n%s[test]\ntexture integer 0 (8, 8) (0, 0) GL_RGBA8I\n", fs);
    expect_skip(buf, "'texture integer 0 (8, 8) (0, 0) GL_RGBA8");
    snprintf(buf, sizeof buf, "[require]\nGLSL >= 1.10\n%s[test]\ntexture rgbw 2DArray 0 (8, 8, 2)\n", fs);
    expect_skip(buf, "texture rgbw 2DArray (array textures) needs GL 3.0");
    snprintf(buf, sizeof buf, "[require]\nGLSL >= 1.10\n%s[test]\ntexture rgbw 0 (8, 8) GL_RGBA8\n", fs);
    expect_skip(buf, "internal format 'GL_RGBA8'");
    snprintf(buf, sizeof buf, "[require]\nGLSL >= 1.10\n%s[test]\ntexparameter 2DArray min nearest\n", fs);
    expect_skip(buf, "needs GL 3.0");
    snprintf(buf, sizeof buf, "[require]\nGLSL >= 1.10\n%s[test]\ntexparameter 2D aniso 4\n", fs);
    expect_skip(buf, "'texparameter 2D aniso 4' is not supported");
    snprintf(buf, sizeof buf, "[require]\nGLSL >= 1.10\n%s[test]\nlink error\n", fs);
    expect_skip(buf, "'link error' is not supported");
    snprintf(buf, sizeof buf, "[require]\nGLSL >= 1.10\n%s[test]\nuniform uint u 1\n", fs);
    expect_skip(buf, "uniform type 'uint'");
    snprintf(buf, sizeof buf, "[require]\nGLSL >= 1.10\n%s[test]\ndraw rect patch 0 0 1 1\n", fs);
    expect_skip(buf, "not supported");
    const char *hd = "[require]\nGLSL >= 1.10\n[fragment shader]\n";
    snprintf(buf, sizeof buf, "%svarying vec4 a; varying float b;\nvoid main(){ gl_FragColor = a + b; }\n", hd);
    expect_skip(buf, "several varyings");
    snprintf(buf, sizeof buf, "%svarying vec4 a, b;\nvoid main(){ gl_FragColor = a + b; }\n", hd);
    expect_skip(buf, "several varyings");
    snprintf(buf, sizeof buf, "%svarying vec4 a[2];\nvoid main(){ gl_FragColor = a[1]; }\n", hd);
    expect_skip(buf, "array, matrix");
    snprintf(buf, sizeof buf, "%svarying mat2 m;\nvoid main(){ gl_FragColor = m[0].xyxy; }\n", hd);
    expect_skip(buf, "array, matrix");
    snprintf(buf, sizeof buf, "%svarying vec4 a;\nvoid main(){ gl_FragColor = a * gl_Color; }\n", hd);
    expect_skip(buf, "several varyings");
    snprintf(buf, sizeof buf, "%svoid main(){ gl_FragColor = gl_TexCoord[1]; }\n", hd);
    expect_skip(buf, "other than gl_TexCoord[0]");
    snprintf(buf, sizeof buf, "%svoid main(){ gl_FragColor = vec4(gl_FrontFacing); }\n", hd);
    expect_skip(buf, "reads gl_FrontFacing");
    expect_skip("[require]\nGLSL >= 1.10\n[fragment shader]\nuniform sampler2D s;\n"
                "void main(){ gl_FragColor = texture2D(s, vec2(0.0)); }\n",
                "sampler2D");
    expect_skip("[require]\nGLSL >= 1.10\n[vertex shader]\n"
                "void main(){ gl_Position = gl_Vertex * 0.5; }\n"
                "[fragment shader]\nvoid main(){ gl_FragColor = vec4(1.0); }\n",
                "computes gl_Position");
    expect_skip("[require]\nGLSL >= 1.10\n[vertex shader]\n"
                "void main(){ gl_Position = gl_Vertex; gl_Position.w = 2.0; }\n"
                "[fragment shader]\nvoid main(){ gl_FragColor = vec4(1.0); }\n",
                "computes gl_Position");
    expect_skip("[require]\nGLSL >= 1.10\n", "no [fragment shader]");
    /* accepted vertex shaders: the three pass-through forms */
    const char *ok[] = {"gl_Vertex", "ftransform()", "gl_ModelViewProjectionMatrix * gl_Vertex"};
    for (int i = 0; i < 3; i++) {
        snprintf(buf, sizeof buf,
                 "[require]\nGLSL >= 1.10\n[vertex shader]\nvoid main(){ gl_Position = %s; }\n%s",
                 ok[i], fs);
        piglit_test t;
        ls_diag d;
        assert_int_equal(piglit_test_parse(buf, strlen(buf), "ok", &t, &d), LS_OK);
        assert_true(piglit_test_check_inputs(&t));
        piglit_test_free(&t);
    }
}

/* The one varying lockstep feeds, and llvmpipe's pass shader for it. */
static void expect_varying(const char *fs, piglit_varying_kind kind, const char *type,
                           const char *name, const char *pass_fs_part)
{
    char buf[1024];
    snprintf(buf, sizeof buf, "[require]\nGLSL >= 1.10\n[fragment shader]\n%s", fs);
    piglit_test t;
    ls_diag d;
    assert_int_equal(piglit_test_parse(buf, strlen(buf), "v", &t, &d), LS_OK);
    if (!piglit_test_check_inputs(&t))
        fail_msg("skipped: %s", t.skip);
    assert_int_equal(t.varying.kind, kind);
    assert_string_equal(t.varying.type, type);
    assert_string_equal(t.varying.name, name);
    char pass[512];
    piglit_varying_fs(&t, pass, sizeof pass);
    if (!strstr(pass, pass_fs_part))
        fail_msg("varying pass shader '%s' lacks '%s'", pass, pass_fs_part);
    piglit_test_free(&t);
}

static void test_varyings(void **state)
{
    (void)state;
    expect_varying("varying vec4 v;\nvoid main(){ gl_FragColor = v; }\n", PIGLIT_VARYING_USER,
                   "vec4", "v", "varying vec4 v;\nvoid main() { gl_FragColor = vec4(v); }");
    expect_varying("centroid varying float f;\nvoid main(){ gl_FragColor = vec4(f); }\n",
                   PIGLIT_VARYING_USER, "float", "f", "gl_FragColor = vec4(f, 0.0, 0.0, 0.0);");
    expect_varying("invariant varying float var;\nvoid main(){ gl_FragColor = vec4(var); }\n",
                   PIGLIT_VARYING_USER, "float", "var", "invariant varying float var;");
    /* declared but never read: no input */
    expect_varying("varying vec4 color;\nvoid main(){ gl_FragColor = vec4(1.0); }\n",
                   PIGLIT_VARYING_NONE, "", "", "");
    expect_varying("varying vec2 uv ; // varying vec3 commented;\nvoid main(){ gl_FragColor = uv.xyxy; }\n",
                   PIGLIT_VARYING_USER, "vec2", "uv", "vec4(uv, 0.0, 0.0)");
    expect_varying("void main(){ gl_FragColor = gl_Color * 2.0; }\n", PIGLIT_VARYING_COLOR, "", "",
                   "gl_FragColor = gl_Color;");
    expect_varying("void main(){ gl_FragColor = gl_TexCoord [ 0 ]; }\n", PIGLIT_VARYING_TEXCOORD0,
                   "", "", "gl_FragColor = gl_TexCoord[0];");
    /* no varying: an empty pass shader */
    expect_varying("void main(){ gl_FragColor = gl_FragCoord; }\n", PIGLIT_VARYING_NONE, "", "", "");
}

static void rect(const char *line, int w, int h, int ex0, int ey0, int ex1, int ey1)
{
    char buf[256];
    snprintf(buf, sizeof buf, "[require]\nGLSL >= 1.10\nSIZE %d %d\n[test]\n%s\n", w, h, line);
    piglit_test t;
    ls_diag d;
    assert_int_equal(piglit_test_parse(buf, strlen(buf), "r", &t, &d), LS_OK);
    assert_int_equal(t.ncmds, 1);
    int x0, y0, x1, y1;
    piglit_rect_pixels(&t, &t.cmds[0], &x0, &y0, &x1, &y1);
    if (x0 != ex0 || y0 != ey0 || x1 != ex1 || y1 != ey1)
        fail_msg("%s on %dx%d: [%d,%d)x[%d,%d), expected [%d,%d)x[%d,%d)", line, w, h, x0, x1, y0,
                 y1, ex0, ex1, ey0, ey1);
    piglit_test_free(&t);
}

static void test_rect_pixels(void **state)
{
    (void)state;
    rect("draw rect ortho 4 0 4 4", 250, 250, 4, 0, 8, 4);
    rect("draw rect -1 -1 2 2", 250, 250, 0, 0, 250, 250);
    rect("draw rect 0 0 1 1", 250, 250, 125, 125, 250, 250);   /* upper-right quarter */
    rect("draw rect ortho 10 20 -4 -5", 64, 64, 6, 15, 10, 20); /* negative size */
    /* centres: pixel 2's centre is 2.5; [2.5, 4.5) holds 2 and 3, [2.6, 4.6) only 3 and 4 */
    rect("draw rect ortho 2.5 0 2 1", 16, 16, 2, 0, 4, 1);
    rect("draw rect ortho 2.6 0 2 1", 16, 16, 3, 0, 5, 1);
    rect("draw rect ortho -10 -10 1000 5", 16, 16, 0, 0, 16, 0); /* clamped; height -5 after */
    rect("draw rect ortho -10 -10 1000 15", 16, 16, 0, 0, 16, 5);
}

/* `ortho` projections: glOrtho(L, R, B, T) maps the rectangle's vertices when
 * the vertex shader uses the matrices (or there is none) */
static void test_ortho_and_stages(void **state)
{
    (void)state;
    const char *text =
        "[require]\nGLSL >= 1.10\nSIZE 64 32\n"
        "[vertex shader]\nvec4 f();\nvoid main() { gl_Position = ftransform(); }\n"
        "[vertex shader]\nvec4 f() { return vec4(1.0); }\n"
        "[fragment shader]\nvec4 g();\nvoid main() { gl_FragColor = g(); }\n"
        "[fragment shader]\nvec4 g() { return vec4(gl_FragCoord.x); }\n"
        "[test]\northo\ndraw rect 4 0 4 4\northo 0 1 0 1\ndraw rect 0.5 0.5 0.25 0.5\n";
    piglit_test t;
    ls_diag d;
    assert_int_equal(piglit_test_parse(text, strlen(text), "o", &t, &d), LS_OK);
    assert_int_equal(t.nvs, 2);
    assert_int_equal(t.nfs, 2);
    assert_int_equal(t.fs_line[1], 13);
    assert_true(piglit_test_check_inputs(&t));
    assert_true(piglit_fs_uses(&t, "gl_FragCoord")); /* found in the second unit */
    assert_true(piglit_uses_matrices(&t));
    assert_int_equal(t.ncmds, 4);
    assert_int_equal(t.cmds[0].kind, PIGLIT_ORTHO);
    assert_true(t.cmds[0].v[1] == 64 && t.cmds[0].v[3] == 32);
    int x0, y0, x1, y1;
    piglit_rect_pixels_proj(&t, &t.cmds[1], t.cmds[0].v, &x0, &y0, &x1, &y1);
    assert_true(x0 == 4 && x1 == 8 && y0 == 0 && y1 == 4);
    /* (0.5, 0.5)+(0.25, 0.5) of the unit square: x in [32, 48), y in [16, 32) */
    piglit_rect_pixels_proj(&t, &t.cmds[3], t.cmds[2].v, &x0, &y0, &x1, &y1);
    assert_true(x0 == 32 && x1 == 48 && y0 == 16 && y1 == 32);
    /* without the projection the same numbers are NDC */
    piglit_rect_pixels(&t, &t.cmds[3], &x0, &y0, &x1, &y1);
    assert_true(x0 == 48 && x1 == 56 && y0 == 24 && y1 == 32);
    piglit_test_free(&t);
    /* no vertex shader: fixed function uses the matrices; passthrough does not */
    const char *ff = "[require]\nGLSL >= 1.10\n[fragment shader]\nvoid main(){}\n";
    assert_int_equal(piglit_test_parse(ff, strlen(ff), "f", &t, &d), LS_OK);
    assert_true(piglit_uses_matrices(&t));
    piglit_test_free(&t);
    const char *pt = "[require]\nGLSL >= 1.10\n[vertex shader passthrough]\n"
                     "[fragment shader]\nvoid main(){}\n[test]\northo 1 2 3\n";
    expect_error(pt, 7, 0);
}

static void test_unorm8_and_probes(void **state)
{
    (void)state;
    assert_true(piglit_unorm8(0.5f) == 128.0f / 255.0f);
    assert_true(piglit_unorm8(0.25f) == 64.0f / 255.0f); /* 63.75 rounds up */
    assert_true(piglit_unorm8(1.5f) == 1.0f);
    assert_true(piglit_unorm8(-0.1f) == 0.0f);
    assert_true(piglit_unorm8(NAN) == 0.0f);
    assert_true(piglit_unorm8(1.0f / 255.0f) == 1.0f / 255.0f);

    const char *text = "[require]\nGLSL >= 1.10\nSIZE 4 2\n[test]\n"
                       "probe all rgba 0.5 0.5 0.5 0.5\n"
                       "probe rgb 3 1 0.5 0.5 0.5\n"
                       "probe rect rgba (2, 0, 3, 1) (0.5, 0.5, 0.5, 0.5)\n";
    piglit_test t;
    ls_diag d;
    assert_int_equal(piglit_test_parse(text, strlen(text), "p", &t, &d), LS_OK);
    float fb[4 * 2 * 4];
    for (int i = 0; i < 32; i++)
        fb[i] = 0.5f;
    float tol[4] = {0.01f, 0.01f, 0.01f, 0.01f};
    char msg[256];
    assert_true(piglit_probe(&t, &t.cmds[0], tol, fb, msg, sizeof msg));
    /* pixel (3, 1) is index 7; alpha off by 0.02 fails rgba but not rgb */
    fb[4 * 7 + 3] = 0.52f;
    assert_false(piglit_probe(&t, &t.cmds[0], tol, fb, msg, sizeof msg));
    assert_non_null(strstr(msg, "(3, 1)"));
    assert_true(piglit_probe(&t, &t.cmds[1], tol, fb, msg, sizeof msg));
    float wide[4] = {0.01f, 0.01f, 0.01f, 0.03f};
    assert_true(piglit_probe(&t, &t.cmds[0], wide, fb, msg, sizeof msg));
    fb[4 * 7 + 3] = NAN; /* NaN never matches */
    assert_false(piglit_probe(&t, &t.cmds[0], wide, fb, msg, sizeof msg));
    /* a probe reaching outside the 4×2 window fails with a message */
    assert_false(piglit_probe(&t, &t.cmds[2], tol, fb, msg, sizeof msg));
    assert_non_null(strstr(msg, "outside"));
    piglit_test_free(&t);
}

/* [vertex data] and the state commands the pipeline needs, as shader_runner
 * reads them (piglit's vertex_attrib_description: NAME/TYPE/COUNT columns). */
static void test_vertex_data(void **state)
{
    (void)state;
    static const char text[] =
        "[require]\nGLSL >= 1.10\n[fragment shader]\nvoid main(){ gl_FragColor = vec4(1.0); }\n"
        "[vertex data]\nvertex/float/3  input_data/float/4\n"
        "-1 -1 0   1 0 0 1\n 1 -1 0   0 1 0 1\n# a comment\n 0 1 0.5   0 0 1 0.5\n"
        "[test]\nfrustum -1.0 1.0 -1.0 1.0 1.0 3.0\nenable GL_VERTEX_PROGRAM_TWO_SIDE\n"
        "enable GL_CLIP_PLANE3\nclip plane 3 0.0 0.0 -1.0 -1.75\nshade model flat\n"
        "disable GL_CLIP_PLANE3\ndraw arrays GL_TRIANGLE_FAN 0 3\n";
    piglit_test t;
    ls_diag d;
    assert_int_equal(piglit_test_parse(text, strlen(text), "vd", &t, &d), LS_OK);
    assert_string_equal(t.skip, "");
    assert_int_equal(t.nattr, 2);
    assert_string_equal(t.attr_name[0], "vertex");
    assert_string_equal(t.attr_name[1], "input_data");
    assert_int_equal(t.attr_comps[0], 3);
    assert_int_equal(t.attr_comps[1], 4);
    assert_int_equal(t.attr_offset[1], 3);
    assert_int_equal(t.vstride, 7);
    assert_int_equal(t.nrows, 3);
    assert_true(t.vdata[2 * 7 + 2] == 0.5f && t.vdata[2 * 7 + 6] == 0.5f && t.vdata[7 + 4] == 1.0f);
    assert_int_equal(t.ncmds, 7);
    assert_int_equal(t.cmds[0].kind, PIGLIT_FRUSTUM);
    assert_true(t.cmds[0].v[4] == 1.0f && t.cmds[0].v[5] == 3.0f);
    assert_int_equal(t.cmds[1].kind, PIGLIT_ENABLE);
    assert_int_equal(t.cmds[1].iv[0], 6);
    assert_int_equal(t.cmds[1].iv[1], 1);
    assert_int_equal(t.cmds[2].iv[0], 3);
    assert_int_equal(t.cmds[3].kind, PIGLIT_CLIP_PLANE);
    assert_int_equal(t.cmds[3].iv[0], 3);
    assert_true(t.cmds[3].v[2] == -1.0f && t.cmds[3].v[3] == -1.75f);
    assert_int_equal(t.cmds[4].kind, PIGLIT_SHADE_MODEL);
    assert_int_equal(t.cmds[4].iv[0], 1);
    assert_int_equal(t.cmds[5].iv[1], 0);
    assert_int_equal(t.cmds[6].kind, PIGLIT_DRAW_ARRAYS);
    assert_int_equal(t.cmds[6].iv[0], 6); /* GL_TRIANGLE_FAN */
    assert_int_equal(t.cmds[6].iv[2], 3);
    assert_true(piglit_test_check_pipeline(&t));
    piglit_test_free(&t);
    /* a draw past the data, a short row: errors with the line */
    static const char past[] = "[require]\nGLSL >= 1.10\n[fragment shader]\nvoid main(){}\n"
                               "[vertex data]\nv/float/2\n0 0\n1 1\n[test]\n"
                               "draw arrays GL_TRIANGLES 0 3\n";
    assert_int_equal(piglit_test_parse(past, strlen(past), "p", &t, &d), LS_ERR_PARSE);
    assert_int_equal(d.line, 10);
    static const char shortrow[] = "[require]\nGLSL >= 1.10\n[fragment shader]\nvoid main(){}\n"
                                   "[vertex data]\nv/float/2\n0\n";
    assert_int_equal(piglit_test_parse(shortrow, strlen(shortrow), "s", &t, &d), LS_ERR_PARSE);
    assert_int_equal(d.line, 7);
}

/* Skip keys: the kind of reason, the same for two tests whose reasons
 * differ only in their specific parts, never cut. */
static void skip_key_of(const char *text, char *key, size_t n)
{
    piglit_test t;
    ls_diag d;
    assert_int_equal(piglit_test_parse(text, strlen(text), "s", &t, &d), LS_OK);
    piglit_test_check_inputs(&t);
    assert_string_not_equal(t.skip, "");
    snprintf(key, n, "%s", t.skip_key);
    piglit_test_free(&t);
}

static void test_skip_keys(void **state)
{
    (void)state;
    const char *fs = "[require]\nGLSL >= 1.10\n[fragment shader]\nvoid main(){ gl_FragColor = vec4(1.0); }\n";
    char buf[1024], k1[256], k2[256];
    snprintf(buf, sizeof buf, "%s[test]\nuniform uint u 1\n", fs);
    skip_key_of(buf, k1, sizeof k1);
    snprintf(buf, sizeof buf, "%s[test]\nuniform ivec4 v 1 2 3 4\nuniform uvec2 w 1 2\n", fs);
    skip_key_of(buf, k2, sizeof k2);
    assert_string_equal(k1, "uniform type '*' is not supported (GL 2.1 harness)");
    assert_string_equal(k1, k2);
    snprintf(buf, sizeof buf, "%s[geometry shader]\n", fs);
    skip_key_of(buf, k1, sizeof k1);
    assert_string_equal(k1, "section [*] is not supported");
    /* a fixed message is its own key, whole */
    skip_key_of("[require]\nGLSL >= 1.10\n[fragment shader]\nvarying vec4 a, b;\n"
                "void main(){ gl_FragColor = a + b; }\n", k1, sizeof k1);
    assert_non_null(strstr(k1, "several varyings"));
    assert_non_null(strstr(k1, "packing of several is not reproduced)"));
    char key[64];
    piglit_skip_key("requires %s; the driver has %d (%.40s) 100%%", key, sizeof key);
    assert_string_equal(key, "requires *; the driver has * (*) 100%");
}

/* piglit's results format: names, lowercase results, per-test times. */
static void test_results_json(void **state)
{
    (void)state;
    char name[256];
    piglit_result_name("glsl-1.10/execution/Loops/glsl-fs-loop-300", name, sizeof name);
    assert_string_equal(name, "spec@glsl-1.10@execution@loops@glsl-fs-loop-300");
    piglit_result_name("tests/mesa/data/varying_loop.shader_test", name, sizeof name);
    assert_string_equal(name, "tests@mesa@data@varying_loop");
    piglit_result_name("./x/y.shader_test", name, sizeof name);
    assert_string_equal(name, "x@y");
    piglit_result_name("abc/def", name, 8);
    assert_string_equal(name, "spec@ab");

    piglit_result r[2] = {
        {.name = "glsl-1.10/a/b", .result = "pass", .out = "", .skip_key = "",
         .command = "lockstep mesa piglit b", .start = 100.5, .end = 101.25, .fc_issued = 7,
         .llvmpipe = -1},
        {.name = "glsl-1.20/c", .result = "skip", .out = "uniform type 'uint' \"q\"",
         .skip_key = "harness: uniform type '*'", .command = "c", .start = 101.25, .end = 102,
         .llvmpipe = 1},
    };
    ls_buf b;
    ls_buf_init(&b);
    piglit_results_write_json(r, 2, "run", 100, 102, &b);
    ls_json *root;
    ls_diag d;
    assert_int_equal(ls_json_parse(b.data, b.len, "results.json", &root, &d), LS_OK);
    const ls_json *v = ls_json_get(root, "results_version");
    int64_t ver;
    assert_true(v && ls_json_int(v, 0, 100, &ver) && ver == 10);
    assert_string_equal(ls_json_get(root, "__type__")->text, "TestrunResult");
    const ls_json *te = ls_json_get(root, "time_elapsed");
    assert_true(ls_json_get(te, "start")->number == 100 && ls_json_get(te, "end")->number == 102);
    const ls_json *tests = ls_json_get(root, "tests");
    assert_int_equal(tests->type, LS_JSON_OBJECT);
    assert_int_equal(tests->count, 2);
    const ls_json *t0 = ls_json_get(tests, "spec@glsl-1.10@a@b");
    assert_non_null(t0);
    assert_string_equal(ls_json_get(t0, "result")->text, "pass");
    assert_string_equal(ls_json_get(t0, "__type__")->text, "TestResult");
    const ls_json *tm = ls_json_get(t0, "time");
    assert_true(ls_json_get(tm, "start")->number == 100.5 && ls_json_get(tm, "end")->number == 101.25);
    assert_string_equal(ls_json_get(tm, "__type__")->text, "TimeAttribute");
    const ls_json *t1 = ls_json_get(tests, "spec@glsl-1.20@c");
    assert_string_equal(ls_json_get(t1, "result")->text, "skip");
    assert_string_equal(ls_json_get(t1, "out")->text, "uniform type 'uint' \"q\"");
    const ls_json *ls = ls_json_get(t1, "lockstep");
    assert_string_equal(ls_json_get(ls, "skip_key")->text, "harness: uniform type '*'");
    assert_string_equal(ls_json_get(ls, "llvmpipe")->text, "pass");
    ls_json_free(root);
    ls_buf_free(&b);
    /* no tests: still a valid file */
    ls_buf_init(&b);
    piglit_results_write_json(NULL, 0, NULL, 0, 0, &b);
    assert_int_equal(ls_json_parse(b.data, b.len, "empty.json", &root, &d), LS_OK);
    assert_int_equal(ls_json_get(root, "tests")->count, 0);
    ls_json_free(root);
    ls_buf_free(&b);
}

/* mesa_piglit_run_tests: results in test order, with or without forked
 * workers (tests that cannot be read need no Mesa: each result names its own
 * path); done is called once per test, in order. */
typedef struct order_log {
    size_t calls;
    bool out_of_order;
} order_log;
static void order_cb(void *ctx, size_t k, const mesa_piglit_result *r)
{
    order_log *l = ctx;
    (void)r;
    if (k != l->calls)
        l->out_of_order = true;
    l->calls++;
}

static void test_run_tests_order(void **state)
{
    (void)state;
    enum { N = 7 };
    char pbuf[N][64];
    const char *paths[N], *names[N];
    for (int k = 0; k < N; k++) {
        snprintf(pbuf[k], sizeof pbuf[k], "/nonexistent/lockstep-test-%d.shader_test", k);
        paths[k] = names[k] = pbuf[k];
    }
    mesa_piglit_config c = {.chip = "rv530", .shim = "/nonexistent", .gl = "/nonexistent"};
    for (unsigned workers = 1; workers <= 3; workers++) {
        mesa_piglit_result res[N];
        order_log log = {0, false};
        ls_diag d;
        assert_int_equal(mesa_piglit_run_tests(&c, paths, names, N, workers, res, order_cb, &log, &d), LS_OK);
        assert_int_equal(log.calls, N);
        assert_false(log.out_of_order);
        for (int k = 0; k < N; k++) {
            assert_int_equal(res[k].kind, MESA_PIGLIT_FAIL);
            assert_non_null(strstr(res[k].reason, pbuf[k]));
        }
    }
}

/* mesa_piglit_skip_groups: skips grouped by key (else by reason), in order of
 * first appearance, passes and fails not counted */
static void test_skip_groups(void **state)
{
    (void)state;
    mesa_piglit_result r[6];
    memset(r, 0, sizeof r);
    r[0].kind = MESA_PIGLIT_SKIP, strcpy(r[0].key, "r300: requires GL_X"), strcpy(r[0].reason, "r300: requires GL_X 1");
    r[1].kind = MESA_PIGLIT_PASS;
    r[2].kind = MESA_PIGLIT_SKIP, strcpy(r[2].reason, "harness: no key");
    r[3].kind = MESA_PIGLIT_SKIP, strcpy(r[3].key, "r300: requires GL_X"), strcpy(r[3].reason, "r300: requires GL_X 2");
    r[4].kind = MESA_PIGLIT_FAIL, strcpy(r[4].reason, "harness: no key");
    r[5].kind = MESA_PIGLIT_SKIP, strcpy(r[5].reason, "harness: no key");
    mesa_piglit_group g[6];
    assert_int_equal(mesa_piglit_skip_groups(r, 6, g), 2);
    assert_int_equal(g[0].first, 0);
    assert_int_equal(g[0].count, 2);
    assert_int_equal(g[1].first, 2);
    assert_int_equal(g[1].count, 2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse_sample),
        cmocka_unit_test(test_malformed),
        cmocka_unit_test(test_textures),
        cmocka_unit_test(test_mesh),
        cmocka_unit_test(test_skips), cmocka_unit_test(test_vertex_data),
        cmocka_unit_test(test_varyings),
        cmocka_unit_test(test_rect_pixels),
        cmocka_unit_test(test_ortho_and_stages),
        cmocka_unit_test(test_unorm8_and_probes),
        cmocka_unit_test(test_skip_keys),
        cmocka_unit_test(test_results_json),
        cmocka_unit_test(test_run_tests_order),
        cmocka_unit_test(test_skip_groups),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
