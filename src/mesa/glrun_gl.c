/* GL plumbing of lockstep-mesa-gl (glrun.c, glrun_piglit.c, glrun_scene.c),
 * also linked by the test GL programs (tests/mesa/tex_scene_gl.c): the EGL
 * context, shader compile and program link, 2D texture upload, the
 * framebuffer object and the pixel read-back. Each caller reports a failure
 * in its own words; only the context and the read-back print here. */
#define GL_GLEXT_PROTOTYPES 1
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GL/gl.h>
#include <GL/glext.h>
#include <stdio.h>
#include <stdlib.h>

#include "glrun.h"

int glrun_make_context(EGLDisplay *dpy_out, EGLContext *ctx_out)
{
    PFNEGLGETPLATFORMDISPLAYEXTPROC get_display =
        (PFNEGLGETPLATFORMDISPLAYEXTPROC)eglGetProcAddress("eglGetPlatformDisplayEXT");
    EGLDisplay dpy = get_display
        ? get_display(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL)
        : EGL_NO_DISPLAY;
    if (dpy == EGL_NO_DISPLAY || !eglInitialize(dpy, NULL, NULL) || !eglBindAPI(EGL_OPENGL_API)) {
        fprintf(stderr, "lockstep-mesa-gl: no EGL surfaceless display (0x%x)\n", eglGetError());
        return 1;
    }
    static const EGLint ctx_attr[] = {EGL_CONTEXT_MAJOR_VERSION, 2, EGL_CONTEXT_MINOR_VERSION, 1,
                                      EGL_NONE};
    EGLContext ctx = eglCreateContext(dpy, EGL_NO_CONFIG_KHR, EGL_NO_CONTEXT, ctx_attr);
    if (ctx == EGL_NO_CONTEXT || !eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, ctx)) {
        fprintf(stderr, "lockstep-mesa-gl: cannot make a GL 2.1 context (0x%x)\n", eglGetError());
        return 1;
    }
    fprintf(stderr, "lockstep-mesa-gl: %s | GL_VERSION = %s\n",
            (const char *)glGetString(GL_RENDERER), (const char *)glGetString(GL_VERSION));

    *dpy_out = dpy;
    *ctx_out = ctx;
    return 0;
}

void glrun_free_context(EGLDisplay dpy, EGLContext ctx)
{
    eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    eglDestroyContext(dpy, ctx);
    eglTerminate(dpy);
}

unsigned glrun_compile(unsigned type, int nsrc, const char *const *srcs, char *log, size_t logsize)
{
    GLuint s = glCreateShader(type);
    glShaderSource(s, nsrc, (const GLchar *const *)srcs, NULL);
    glCompileShader(s);
    GLint ok = 0;
    glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
    if (ok)
        return s;
    glGetShaderInfoLog(s, (GLsizei)logsize, NULL, log);
    return 0;
}

bool glrun_link(unsigned prog, char *log, size_t logsize)
{
    glLinkProgram(prog);
    GLint ok = 0;
    glGetProgramiv(prog, GL_LINK_STATUS, &ok);
    if (!ok)
        glGetProgramInfoLog(prog, (GLsizei)logsize, NULL, log);
    return ok != 0;
}

unsigned glrun_texture_2d(int w, int h, unsigned internal, unsigned format, unsigned type, unsigned filter,
                          unsigned wrap, const void *px)
{
    GLuint tex;
    glGenTextures(1, &tex);
    glBindTexture(GL_TEXTURE_2D, tex);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, (GLint)filter);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, (GLint)filter);
    if (wrap) {
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, (GLint)wrap);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, (GLint)wrap);
    }
    glTexImage2D(GL_TEXTURE_2D, 0, (GLint)internal, w, h, 0, format, type, px);
    return tex;
}

int glrun_make_fbo(int w, int h, int use_float)
{
    GLuint tex = glrun_texture_2d(w, h, use_float ? GL_RGBA32F_ARB : GL_RGBA8, GL_RGBA,
                                  use_float ? GL_FLOAT : GL_UNSIGNED_BYTE, GL_NEAREST, 0, NULL);
    GLuint fbo;
    glGenFramebuffers(1, &fbo);
    glBindFramebuffer(GL_FRAMEBUFFER, fbo);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, tex, 0);
    if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) {
        fprintf(stderr, "lockstep-mesa-gl: framebuffer incomplete\n");
        return 1;
    }
    return 0;
}

int glrun_write_pixels(const char *path, int w, int h)
{
    size_t n = (size_t)w * (size_t)h * 4;
    float *px = malloc(n * sizeof *px);
    if (!px)
        return 1;
    glReadPixels(0, 0, w, h, GL_RGBA, GL_FLOAT, px);
    FILE *f = fopen(path, "wb");
    int rc = 0;
    if (!f || fwrite(px, sizeof *px, n, f) != n) {
        fprintf(stderr, "lockstep-mesa-gl: %s: cannot write\n", path);
        rc = 1;
    }
    if (f)
        fclose(f);
    free(px);
    return rc;
}
