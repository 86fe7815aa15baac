/* A textured, blended scene for tests/mesa/test_tex_corpus.c: run under
 * llvmpipe it is the reference, under the shim (LOCKSTEP_SHIM_BOS=1) its
 * command streams are the capture lockstep replays. GLSL 1.10 programs on an
 * RGBA8 framebuffer object of W x H:
 *   1. clear to (0.1, 0.2, 0.3, 1);
 *   2. quad A (left half): texture2D of a 8x8 RGBA8 texture of random texels,
 *      nearest filtering, repeat, texcoords 0..2 (two repeats);
 *   3. quad B (right half): a 4x4 RGBA8 texture, linear filtering, clamp to
 *      edge, texcoords -0.25..1.25, times a uniform colour;
 *   4. quad C (centre, overlapping A and B): the 8x8 texture modulated by
 *      vertex-interpolated alpha, blended with SRC_ALPHA, ONE_MINUS_SRC_ALPHA.
 * Writes the W x H RGBA float pixels (bottom row first) to argv[1].
 * Usage: tex_scene_gl OUT.bin [W H]. Exit 77 when no GL context. */
#define GL_GLEXT_PROTOTYPES 1
#include <GL/gl.h>
#include <GL/glext.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "mesa/glrun.h" /* the GL plumbing of lockstep-mesa-gl (src/mesa/glrun_gl.c) */

static GLuint compile(GLenum kind, const char *src)
{
    char log[2048];
    GLuint s = glrun_compile(kind, 1, &src, log, sizeof log);
    if (!s) {
        fprintf(stderr, "tex_scene_gl: compile error: %s\n", log);
        exit(1);
    }
    return s;
}

static GLuint program(const char *vs, const char *fs)
{
    GLuint p = glCreateProgram();
    glAttachShader(p, compile(GL_VERTEX_SHADER, vs));
    glAttachShader(p, compile(GL_FRAGMENT_SHADER, fs));
    glBindAttribLocation(p, 0, "pos");
    glBindAttribLocation(p, 1, "tc");
    glBindAttribLocation(p, 2, "a");
    char log[2048];
    if (!glrun_link(p, log, sizeof log)) {
        fprintf(stderr, "tex_scene_gl: link error\n");
        exit(1);
    }
    return p;
}

/* texels from a fixed xorshift sequence, so both runs upload the same */
static GLuint texture(int w, int h, uint32_t seed, GLenum filter, GLenum wrap)
{
    unsigned char *t = malloc((size_t)w * (size_t)h * 4);
    if (!t)
        exit(1);
    for (int i = 0; i < w * h * 4; i++) {
        seed ^= seed << 13;
        seed ^= seed >> 17;
        seed ^= seed << 5;
        t[i] = (unsigned char)(seed >> 24);
    }
    GLuint id = glrun_texture_2d(w, h, GL_RGBA8, GL_RGBA, GL_UNSIGNED_BYTE, filter, wrap, t);
    free(t);
    return id;
}

static void quad(float x0, float y0, float x1, float y1, float s0, float t0, float s1, float t1,
                 float a0, float a1)
{
    const GLfloat pos[] = {x0, y0, x1, y0, x0, y1, x1, y1};
    const GLfloat tc[] = {s0, t0, s1, t0, s0, t1, s1, t1};
    const GLfloat al[] = {a0, a1, a0, a1};
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, pos);
    glVertexAttribPointer(1, 2, GL_FLOAT, GL_FALSE, 0, tc);
    glVertexAttribPointer(2, 1, GL_FLOAT, GL_FALSE, 0, al);
    glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
}

int main(int argc, char **argv)
{
    if (argc < 2)
        return 2;
    int w = argc > 3 ? atoi(argv[2]) : 32, h = argc > 3 ? atoi(argv[3]) : 32;
    EGLDisplay dpy;
    EGLContext ctx;
    if (glrun_make_context(&dpy, &ctx))
        return 77;
    if (glrun_make_fbo(w, h, 0))
        return 1;
    static const char *vs = "#version 110\n"
                            "attribute vec2 pos; attribute vec2 tc; attribute float a;\n"
                            "varying vec2 uv; varying float al;\n"
                            "void main() { gl_Position = vec4(pos, 0.0, 1.0); uv = tc; al = a; }\n";
    static const char *fs_plain = "#version 110\n"
                                  "uniform sampler2D s; uniform vec4 k; varying vec2 uv;\n"
                                  "void main() { gl_FragColor = texture2D(s, uv) * k; }\n";
    static const char *fs_blend = "#version 110\n"
                                  "uniform sampler2D s; varying vec2 uv; varying float al;\n"
                                  "void main() { vec4 c = texture2D(s, uv);\n"
                                  "  gl_FragColor = vec4(c.rgb, al); }\n";
    GLuint p1 = program(vs, fs_plain), p2 = program(vs, fs_blend);
    GLuint t8 = texture(8, 8, 0x1234567u, GL_NEAREST, GL_REPEAT);
    GLuint t4 = texture(4, 4, 0x89abcdefu, GL_LINEAR, GL_CLAMP_TO_EDGE);
    glViewport(0, 0, w, h);
    glClearColor(0.1f, 0.2f, 0.3f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    glEnableVertexAttribArray(0);
    glEnableVertexAttribArray(1);
    glEnableVertexAttribArray(2);
    glUseProgram(p1);
    glUniform1i(glGetUniformLocation(p1, "s"), 0);
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, t8);
    glUniform4f(glGetUniformLocation(p1, "k"), 1, 1, 1, 1);
    quad(-1, -1, 0, 1, 0, 0, 2, 2, 1, 1);
    glBindTexture(GL_TEXTURE_2D, t4);
    glUniform4f(glGetUniformLocation(p1, "k"), 0.75f, 1, 0.5f, 1);
    quad(0, -1, 1, 1, -0.25f, -0.25f, 1.25f, 1.25f, 1, 1);
    glUseProgram(p2);
    glUniform1i(glGetUniformLocation(p2, "s"), 0);
    glBindTexture(GL_TEXTURE_2D, t8);
    glEnable(GL_BLEND);
    glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
    quad(-0.5f, -0.5f, 0.5f, 0.5f, 0, 0, 1, 1, 0.1f, 0.9f);
    glDisable(GL_BLEND);
    glFinish();
    if (glrun_write_pixels(argv[1], w, h))
        return 1;
    glrun_free_context(dpy, ctx);
    return 0;
}
