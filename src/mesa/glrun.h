/* lockstep-mesa-gl internals shared by its two modes (one shader on a quad;
 * a piglit shader_test). */
#ifndef LOCKSTEP_MESA_GLRUN_H
#define LOCKSTEP_MESA_GLRUN_H
#include <stdbool.h>

#include <EGL/egl.h>

/* EGL surfaceless display and a current GL 2.1 context; 0 on success. */
int glrun_make_context(EGLDisplay *dpy, EGLContext *ctx);
/* A w×h framebuffer object (RGBA8, or RGBA32F when use_float) bound for
 * drawing; 0 on success. */
int glrun_make_fbo(int w, int h, int use_float);
/* Write the w×h RGBA float pixels of the bound framebuffer (bottom row first)
 * to path; 0 on success. */
int glrun_write_pixels(const char *path, int w, int h);
/* Run a piglit shader_test's GL commands (docs/mesa.md "piglit"), or with
 * varying_prefix llvmpipe's pass computing its varying per draw: exit status
 * 0 done, 77 a requirement r300/llvmpipe lacks (reason on stdout), 1 failure. */
int glrun_shader_test(const char *path, const char *out, const char *varying_prefix, bool pipeline);
#endif
