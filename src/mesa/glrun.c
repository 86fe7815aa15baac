/* lockstep-mesa-gl: the small GL 2.1 program of the Mesa harness
 * (mesa-capture.md §4). EGL surfaceless, one fragment shader (+ optional
 * vertex shader), uniforms, one full-window quad after a clear to (0,0,0,0).
 * Under the shim it makes r300 compile and submit the program; with
 * LIBGL_ALWAYS_SOFTWARE=1 and --float it is the llvmpipe reference and
 * writes the RGBA32F pixels, bottom row first, to -o.
 *
 * usage: lockstep-mesa-gl FRAG [--vert VS] [--vbo] [--uniform name=v[,v...]]...
 *                              [--size WxH] [--float | --rgba8] [--repeat N] [-o out.bin]
 *                              [--texture SAMPLER=SOURCE]... [--mesh FILE]... [--depth]
 *                              [--blend SRC,DST] [--clear R,G,B,A]
 * The scene options (glrun_scene.c): textures (a PNG file, or the patterns
 * checker and rgbw) on units 0.. for the samplers named, triangle meshes in
 * piglit's [vertex data] format drawn instead of the quad, a depth buffer
 * with GL_LESS, blending, the clear colour. --rgba8 keeps the RGBA8 colour
 * buffer even when --float is given too.
 * --repeat N prints "draw_seconds W cpu_seconds C": the mean wall and process
 *        CPU time of N more draws, each blended and followed by glFinish (bench).
 * --vbo draws the quad from a vertex buffer object through a 16-bit index buffer object.
 *        lockstep-mesa-gl --shader-test FILE [-o out.bin]
 * runs a piglit shader_test's GL commands instead (glrun_piglit.c);
 * --varying-pass PREFIX writes its varying per draw (llvmpipe). */
#define GL_GLEXT_PROTOTYPES 1
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GL/gl.h>
#include <GL/glext.h>
#include <stdio.h>
#include <time.h>
#include <stdlib.h>
#include <string.h>

#include "glrun.h"
#include "lockstep/mesa_piglit.h"

#define MAX_UNIFORMS 64

static const char default_vs[] =
    "#version 110\n"
    "attribute vec2 pos;\n"
    "varying vec2 uv;\n"
    "void main() { gl_Position = vec4(pos, 0.0, 1.0); uv = pos * 0.5 + 0.5; }\n";

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "lockstep-mesa-gl: %s: cannot open\n", path);
        return NULL;
    }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = malloc((size_t)(n > 0 ? n : 0) + 1);
    if (s && fread(s, 1, (size_t)(n > 0 ? n : 0), f) != (size_t)(n > 0 ? n : 0)) {
        free(s);
        s = NULL;
    }
    if (s)
        s[n > 0 ? n : 0] = 0;
    fclose(f);
    return s;
}

static GLuint compile(GLenum type, const char *src, const char *what)
{
    char log[4096];
    GLuint s = glrun_compile(type, 1, &src, log, sizeof log);
    if (!s)
        fprintf(stderr, "lockstep-mesa-gl: %s: compile error:\n%s\n", what, log);
    return s;
}

static int set_uniform(GLuint prog, const char *spec)
{
    char name[256];
    const char *eq = strchr(spec, '=');
    if (!eq || (size_t)(eq - spec) >= sizeof name) {
        fprintf(stderr, "lockstep-mesa-gl: --uniform %s: expected name=v[,v...]\n", spec);
        return 1;
    }
    memcpy(name, spec, (size_t)(eq - spec));
    name[eq - spec] = 0;
    double v[16];
    int n = 0;
    const char *p = eq + 1;
    while (*p && n < 16) {
        char *end;
        v[n++] = strtod(p, &end);
        if (end == p || (*end && *end != ',')) {
            fprintf(stderr, "lockstep-mesa-gl: --uniform %s: bad number\n", spec);
            return 1;
        }
        p = *end ? end + 1 : end;
    }
    GLint loc = glGetUniformLocation(prog, name);
    if (loc < 0) {
        fprintf(stderr, "lockstep-mesa-gl: uniform %s is not active (ignored)\n", name);
        return 0;
    }
    GLint count = 0;
    glGetProgramiv(prog, GL_ACTIVE_UNIFORMS, &count);
    for (GLint i = 0; i < count; i++) {
        char un[256];
        GLint size;
        GLenum type;
        glGetActiveUniform(prog, (GLuint)i, sizeof un, NULL, &size, &type, un);
        if (strcmp(un, name) != 0)
            continue;
        GLfloat f[16];
        GLint k[16];
        for (int j = 0; j < n; j++) {
            f[j] = (GLfloat)v[j];
            k[j] = (GLint)v[j];
        }
        switch (type) {
        case GL_FLOAT: glUniform1fv(loc, 1, f); break;
        case GL_FLOAT_VEC2: glUniform2fv(loc, 1, f); break;
        case GL_FLOAT_VEC3: glUniform3fv(loc, 1, f); break;
        case GL_FLOAT_VEC4: glUniform4fv(loc, 1, f); break;
        case GL_INT: case GL_BOOL:
        case GL_SAMPLER_1D: case GL_SAMPLER_2D: case GL_SAMPLER_3D: case GL_SAMPLER_CUBE:
        case GL_SAMPLER_1D_SHADOW: case GL_SAMPLER_2D_SHADOW: case GL_SAMPLER_2D_RECT:
            glUniform1iv(loc, 1, k); /* a sampler: its texture unit */
            break;
        case GL_INT_VEC2: case GL_BOOL_VEC2: glUniform2iv(loc, 1, k); break;
        case GL_INT_VEC3: case GL_BOOL_VEC3: glUniform3iv(loc, 1, k); break;
        case GL_INT_VEC4: case GL_BOOL_VEC4: glUniform4iv(loc, 1, k); break;
        case GL_FLOAT_MAT2: glUniformMatrix2fv(loc, 1, GL_FALSE, f); break;
        case GL_FLOAT_MAT3: glUniformMatrix3fv(loc, 1, GL_FALSE, f); break;
        case GL_FLOAT_MAT4: glUniformMatrix4fv(loc, 1, GL_FALSE, f); break;
        default:
            fprintf(stderr, "lockstep-mesa-gl: uniform %s: unsupported type 0x%x\n", name, type);
            return 1;
        }
        return 0;
    }
    return 0;
}

int main(int argc, char **argv)
{
    const char *frag = NULL, *vert = NULL, *out = NULL, *shader_test = NULL;
    const char *varying_prefix = NULL;
    bool pipeline = false;
    const char *uniforms[MAX_UNIFORMS];
    int nuni = 0, w = 16, h = 16, use_float = 0, repeat = 0;
    bool vbo = false, rgba8 = false;
    glrun_scene sc;
    memset(&sc, 0, sizeof sc);
    float clear[4] = {0, 0, 0, 0};
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--vert") && i + 1 < argc)
            vert = argv[++i];
        else if (!strcmp(argv[i], "--uniform") && i + 1 < argc && nuni < MAX_UNIFORMS)
            uniforms[nuni++] = argv[++i];
        else if (!strcmp(argv[i], "--size") && i + 1 < argc) {
            if (sscanf(argv[++i], "%dx%d", &w, &h) != 2 || w < 1 || h < 1 || w > 8192 || h > 8192) {
                fprintf(stderr, "lockstep-mesa-gl: --size: expected WxH\n");
                return 2;
            }
        } else if (!strcmp(argv[i], "--repeat") && i + 1 < argc) {
            repeat = atoi(argv[++i]);
            if (repeat < 1 || repeat > 100000) {
                fprintf(stderr, "lockstep-mesa-gl: --repeat: expected 1..100000\n");
                return 2;
            }
        } else if (!strcmp(argv[i], "--texture") && i + 1 < argc && sc.ntex < GLRUN_MAX_SCENE) {
            sc.tex[sc.ntex++] = argv[++i];
        } else if (!strcmp(argv[i], "--mesh") && i + 1 < argc && sc.nmesh < GLRUN_MAX_SCENE) {
            sc.mesh[sc.nmesh++] = argv[++i];
        } else if (!strcmp(argv[i], "--blend") && i + 1 < argc) {
            sc.blend = argv[++i];
        } else if (!strcmp(argv[i], "--depth")) {
            sc.depth = true;
        } else if (!strcmp(argv[i], "--rgba8")) {
            rgba8 = true;
        } else if (!strcmp(argv[i], "--clear") && i + 1 < argc) {
            if (sscanf(argv[++i], "%f,%f,%f,%f", &clear[0], &clear[1], &clear[2], &clear[3]) != 4) {
                fprintf(stderr, "lockstep-mesa-gl: --clear: expected R,G,B,A\n");
                return 2;
            }
        } else if (!strcmp(argv[i], "--vbo"))
            vbo = true;
        else if (!strcmp(argv[i], "--float"))
            use_float = 1;
        else if (!strcmp(argv[i], "--shader-test") && i + 1 < argc)
            shader_test = argv[++i];
        else if (!strcmp(argv[i], "--varying-pass") && i + 1 < argc)
            varying_prefix = argv[++i];
        else if (!strcmp(argv[i], "--pipeline"))
            pipeline = true;
        else if (!strcmp(argv[i], "-o") && i + 1 < argc)
            out = argv[++i];
        else if (argv[i][0] != '-' && !frag)
            frag = argv[i];
        else {
            fprintf(stderr, "usage: lockstep-mesa-gl FRAG [--vert VS] [--vbo] [--uniform n=v,...]... "
                            "[--size WxH] [--float | --rgba8] [--texture SAMPLER=SRC]... "
                            "[--mesh FILE]... [--depth] [--blend SRC,DST] [--clear R,G,B,A] "
                            "[-o out.bin]\n"
                            "       lockstep-mesa-gl --shader-test FILE [-o out.bin] "
                            "[--varying-pass PREFIX | --pipeline]\n");
            return 2;
        }
    }
    if (shader_test)
        return glrun_shader_test(shader_test, out, varying_prefix, pipeline);
    if (rgba8) /* --rgba8 wins over --float, wherever they stand */
        use_float = 0;
    if (glrun_scene_check(&sc))
        return 2;
    if (!frag) {
        fprintf(stderr, "lockstep-mesa-gl: no fragment shader given\n");
        return 2;
    }
    char *fs_src = slurp(frag), *vs_src = vert ? slurp(vert) : NULL;
    if (!fs_src || (vert && !vs_src))
        return 1;
    char pass_out[4096], pass_fs[640];
    if (varying_prefix) {
        /* llvmpipe's varying pass for `lockstep mesa run --vert`: the vertex
         * shader with a fragment shader writing the one varying (mesa_piglit.h) */
        piglit_test pt;
        memset(&pt, 0, sizeof pt);
        pt.fs[0] = fs_src;
        pt.nfs = 1;
        pt.fs_line[0] = 1;
        if (!piglit_test_check_inputs(&pt)) {
            printf("skip: %s\n", pt.skip);
            return 77;
        }
        if (pt.varying.kind == PIGLIT_VARYING_NONE) {
            printf("skip: the fragment shader reads no varying\n");
            return 77;
        }
        const char *ver = strstr(fs_src, "#version");
        int vlen = ver ? (int)strcspn(ver, "\n") : 0;
        int n = snprintf(pass_fs, sizeof pass_fs, "%.*s%s", vlen, ver ? ver : "", ver ? "\n" : "");
        piglit_varying_fs(&pt, pass_fs + n, sizeof pass_fs - (size_t)n);
        free(fs_src);
        fs_src = strdup(pass_fs);
        if (!fs_src)
            return 1;
        snprintf(pass_out, sizeof pass_out, "%s.0.bin", varying_prefix);
        out = pass_out;
        use_float = 1;
    }

    EGLDisplay dpy;
    EGLContext ctx;
    if (glrun_make_context(&dpy, &ctx))
        return 1;
    if (glrun_make_fbo(w, h, use_float) || glrun_scene_state(&sc, w, h))
        return 1;
    GLuint vs = compile(GL_VERTEX_SHADER, vs_src ? vs_src : default_vs, vert ? vert : "vertex");
    GLuint fs = compile(GL_FRAGMENT_SHADER, fs_src, frag);
    if (!vs || !fs)
        return 1;
    GLuint prog = glCreateProgram();
    glAttachShader(prog, vs);
    glAttachShader(prog, fs);
    glBindAttribLocation(prog, 0, "pos");
    char log[4096];
    if (!glrun_link(prog, log, sizeof log)) {
        fprintf(stderr, "lockstep-mesa-gl: link error:\n%s\n", log);
        return 1;
    }
    glUseProgram(prog);
    for (int i = 0; i < nuni; i++)
        if (set_uniform(prog, uniforms[i]))
            return 1;
    if (glrun_scene_textures(prog, &sc))
        return 1;
    glViewport(0, 0, w, h);
    glClearColor(clear[0], clear[1], clear[2], clear[3]);
    glClear(GL_COLOR_BUFFER_BIT | (sc.depth ? GL_DEPTH_BUFFER_BIT : 0));
    static const GLfloat quad[] = {-1, -1, 1, -1, -1, 1, 1, 1};
    if (sc.nmesh) {
        /* --mesh: the files' triangles instead of the quad */
        if (glrun_scene_draw_meshes(prog, &sc))
            return 1;
    } else if (vbo) {
        glEnableVertexAttribArray(0);
        /* --vbo: the quad from a buffer object, drawn through a 16-bit index
         * buffer object (r300: 3D_LOAD_VBPNTR + INDX_BUFFER instead of
         * embedded data; docs/mesa.md "Draws") */
        static const GLushort idx[] = {0, 1, 2, 3};
        GLuint bufs[2];
        glGenBuffers(2, bufs);
        glBindBuffer(GL_ARRAY_BUFFER, bufs[0]);
        glBufferData(GL_ARRAY_BUFFER, sizeof quad, quad, GL_STATIC_DRAW);
        glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, bufs[1]);
        glBufferData(GL_ELEMENT_ARRAY_BUFFER, sizeof idx, idx, GL_STATIC_DRAW);
        glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, (const void *)0);
        glDrawElements(GL_TRIANGLE_STRIP, 4, GL_UNSIGNED_SHORT, (const void *)0);
    } else {
        glEnableVertexAttribArray(0);
        glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, quad);
        glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
    }
    glFinish();
    int rc = 0;
    if (out)
        rc = glrun_write_pixels(out, w, h);
    if (repeat && rc == 0) {
        /* bench: N timed draws after the warm-up draw above, each followed by
         * glFinish, with additive blending on. llvmpipe drops the queued
         * commands of a tile an opaque draw covers completely, so N opaque
         * draws in one batch cost about one; with blending every draw reads
         * and writes every pixel, and glFinish ends each batch. Wall time
         * (CLOCK_MONOTONIC) and CPU time of the whole process, llvmpipe's
         * rasteriser threads included (CLOCK_PROCESS_CPUTIME_ID), per draw. */
        glEnable(GL_BLEND);
        glBlendFunc(GL_ONE, GL_ONE);
        struct timespec t0, t1, c0, c1;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c0);
        for (int i = 0; i < repeat; i++) {
            glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
            glFinish();
        }
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c1);
        clock_gettime(CLOCK_MONOTONIC, &t1);
        glDisable(GL_BLEND);
        double sec = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
        double cpu = (double)(c1.tv_sec - c0.tv_sec) + 1e-9 * (double)(c1.tv_nsec - c0.tv_nsec);
        printf("draw_seconds %.9f cpu_seconds %.9f\n", sec / repeat, cpu / repeat);
    }
    glrun_free_context(dpy, ctx);
    free(fs_src);
    free(vs_src);
    return rc;
}
