/* lockstep-mesa-gl internals shared by its two modes (one shader on a quad;
 * a piglit shader_test). */
#ifndef LOCKSTEP_MESA_GLRUN_H
#define LOCKSTEP_MESA_GLRUN_H
#include <stdbool.h>
#include <stddef.h>

#include <EGL/egl.h>

/* The GL plumbing (glrun_gl.c; test GL programs link it too). GL types as
 * their C types: GLenum, GLuint = unsigned; GLsizei = int. */
/* EGL surfaceless display and a current GL 2.1 context; 0 on success. */
int glrun_make_context(EGLDisplay *dpy, EGLContext *ctx);
/* Release what glrun_make_context made. */
void glrun_free_context(EGLDisplay dpy, EGLContext ctx);
/* A shader of type from nsrc strings: its name, or 0 with the info log in
 * log (logsize bytes). */
unsigned glrun_compile(unsigned type, int nsrc, const char *const *srcs, char *log, size_t logsize);
/* Link prog: true, or false with the info log in log. */
bool glrun_link(unsigned prog, char *log, size_t logsize);
/* A 2D texture bound on the active unit: MIN and MAG filter `filter`, WRAP_S
 * and WRAP_T `wrap` (0: GL's default left alone), level 0 from px (NULL:
 * storage only). Returns its name. */
unsigned glrun_texture_2d(int w, int h, unsigned internal, unsigned format, unsigned type, unsigned filter,
                          unsigned wrap, const void *px);
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

/* The scene options of the quad program (glrun_scene.c; docs/mesa.md
 * "Scenes"). */
enum { GLRUN_MAX_SCENE = 8 };
typedef struct glrun_scene {
    const char *tex[GLRUN_MAX_SCENE];  /* "SAMPLER=SOURCE[,nearest][,clamp]": unit = index */
    int ntex;
    const char *mesh[GLRUN_MAX_SCENE]; /* [vertex data] files, one draw each, in order */
    int nmesh;
    bool depth;                        /* 24-bit depth buffer, GL_LESS, cleared to 1 */
    const char *blend;                 /* "SRC,DST" factors, or NULL */
} glrun_scene;
/* The option values are well formed (else a message on stderr): 0. */
int glrun_scene_check(const glrun_scene *sc);
/* The depth buffer and test and the blend state on the bound framebuffer. */
int glrun_scene_state(const glrun_scene *sc, int w, int h);
/* The textures on units 0.., each sampler uniform set to its unit (the
 * program in use). */
int glrun_scene_textures(unsigned prog, const glrun_scene *sc);
/* One glDrawArrays(GL_TRIANGLES) per mesh file. */
int glrun_scene_draw_meshes(unsigned prog, const glrun_scene *sc);
#endif
