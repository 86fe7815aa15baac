/* lockstep-mesa-gl's scene options (`lockstep mesa run|check --texture,
 * --mesh, --depth, --blend, --clear`; docs/mesa.md "Scenes"): textures
 * uploaded with glTexImage2D (so r300 puts them in its buffer objects as it
 * does for any application), a depth renderbuffer with the depth test,
 * blending, and triangle meshes from files in piglit's [vertex data] format
 * (piglit_mesh_parse), each one glDrawArrays(GL_TRIANGLES). */
#define GL_GLEXT_PROTOTYPES 1
#include <GL/gl.h>
#include <GL/glext.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "glrun.h"
#include "lockstep/image.h"
#include "lockstep/mesa_piglit.h"
#include "lockstep/mesa_r300.h"

/* glBlendFunc's factors by name (MESA_BLEND_FACTORS, mesa_r300.h) */
#define ROW(name, glname, value) {#name, value},
static const struct {
    const char *name;
    GLenum e;
} blend_factors[] = {MESA_BLEND_FACTORS(ROW)};
#undef ROW
#define SAME(name, glname, value) _Static_assert(value == GL_##glname, #glname);
MESA_BLEND_FACTORS(SAME)
#undef SAME

static bool blend_factor(const char *s, size_t n, GLenum *e)
{
    for (size_t i = 0; i < sizeof blend_factors / sizeof blend_factors[0]; i++)
        if (strlen(blend_factors[i].name) == n && !strncmp(blend_factors[i].name, s, n)) {
            *e = blend_factors[i].e;
            return true;
        }
    return false;
}

int glrun_scene_check(const glrun_scene *sc)
{
    if (sc->blend) {
        const char *comma = strchr(sc->blend, ',');
        GLenum a, b;
        if (!comma || !blend_factor(sc->blend, (size_t)(comma - sc->blend), &a) ||
            !blend_factor(comma + 1, strlen(comma + 1), &b)) {
            fprintf(stderr, "lockstep-mesa-gl: --blend %s: expected SRC,DST factors such as "
                            "src_alpha,one_minus_src_alpha\n", sc->blend);
            return 1;
        }
    }
    for (int i = 0; i < sc->ntex; i++)
        if (!strchr(sc->tex[i], '=') || sc->tex[i][0] == '=') {
            fprintf(stderr, "lockstep-mesa-gl: --texture %s: expected SAMPLER=SOURCE\n", sc->tex[i]);
            return 1;
        }
    return 0;
}

/* Blending and the depth test as asked; a depth renderbuffer (24 bits) on
 * the bound framebuffer object for --depth. */
int glrun_scene_state(const glrun_scene *sc, int w, int h)
{
    if (sc->depth) {
        GLuint rb;
        glGenRenderbuffers(1, &rb);
        glBindRenderbuffer(GL_RENDERBUFFER, rb);
        glRenderbufferStorage(GL_RENDERBUFFER, GL_DEPTH_COMPONENT24, w, h);
        glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER, rb);
        if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) {
            fprintf(stderr, "lockstep-mesa-gl: --depth: the framebuffer is incomplete\n");
            return 1;
        }
        glEnable(GL_DEPTH_TEST);
        glDepthFunc(GL_LESS);
        glClearDepth(1.0);
    }
    if (sc->blend) {
        const char *comma = strchr(sc->blend, ',');
        GLenum a = GL_ONE, b = GL_ZERO;
        blend_factor(sc->blend, (size_t)(comma - sc->blend), &a); /* checked by glrun_scene_check */
        blend_factor(comma + 1, strlen(comma + 1), &b);
        glEnable(GL_BLEND);
        glBlendFunc(a, b);
    }
    return 0;
}

/* The texels of a generated source, RGBA8, bottom row first; NULL if the
 * name is not one. */
static unsigned char *pattern(const char *name, size_t n, int *w, int *h)
{
    if (n == 7 && !strncmp(name, "checker", 7)) {
        /* 64×64, tiles of 8×8 texels: light grey and a deep blue */
        static const unsigned char a[4] = {230, 230, 220, 255}, b[4] = {40, 70, 150, 255};
        *w = *h = 64;
        unsigned char *px = malloc(64 * 64 * 4);
        for (int y = 0; px && y < 64; y++)
            for (int x = 0; x < 64; x++)
                memcpy(px + 4 * (y * 64 + x), ((x / 8 + y / 8) & 1) ? b : a, 4);
        return px;
    }
    if (n == 4 && !strncmp(name, "rgbw", 4)) {
        /* piglit's rgbw image: red, green (bottom), blue, white (top), 8×8 */
        static const unsigned char q[4][4] = {
            {255, 0, 0, 255}, {0, 255, 0, 255}, {0, 0, 255, 255}, {255, 255, 255, 255}};
        *w = *h = 8;
        unsigned char *px = malloc(8 * 8 * 4);
        for (int y = 0; px && y < 8; y++)
            for (int x = 0; x < 8; x++)
                memcpy(px + 4 * (y * 8 + x), q[(y >= 4) * 2 + (x >= 4)], 4);
        return px;
    }
    return NULL;
}

/* One --texture SAMPLER=SOURCE[,nearest][,clamp] on unit `unit`. */
static int texture(GLuint prog, const char *spec, int unit)
{
    const char *eq = strchr(spec, '=');
    char name[128];
    snprintf(name, sizeof name, "%.*s", (int)(eq - spec), spec);
    const char *src = eq + 1;
    size_t srclen = strcspn(src, ",");
    GLenum filter = GL_LINEAR, wrap = GL_REPEAT;
    for (const char *o = src + srclen; *o == ',';) {
        o++;
        size_t l = strcspn(o, ",");
        if (l == 7 && !strncmp(o, "nearest", 7))
            filter = GL_NEAREST;
        else if (l == 5 && !strncmp(o, "clamp", 5))
            wrap = GL_CLAMP_TO_EDGE;
        else {
            fprintf(stderr, "lockstep-mesa-gl: --texture %s: unknown option '%.*s' (nearest, clamp)\n",
                    spec, (int)l, o);
            return 1;
        }
        o += l;
    }
    int w = 0, h = 0;
    unsigned char *px = pattern(src, srclen, &w, &h);
    if (!px) {
        /* a PNG file (top row first: the rows are flipped, so that texture
         * coordinate (0, 0) is the image's bottom-left corner) */
        char path[4096];
        snprintf(path, sizeof path, "%.*s", (int)srclen, src);
        ls_image8 img;
        ls_diag d;
        ls_diag_clear(&d);
        if (ls_png_read(path, &img, &d) != LS_OK) {
            char msg[600];
            ls_diag_format(&d, msg, sizeof msg);
            fprintf(stderr, "lockstep-mesa-gl: --texture %s: %s (a PNG file, checker or rgbw)\n",
                    spec, msg);
            return 1;
        }
        w = img.width, h = img.height;
        px = malloc((size_t)w * (size_t)h * 4);
        for (int y = 0; px && y < h; y++)
            memcpy(px + (size_t)y * (size_t)w * 4, img.pixels + (size_t)(h - 1 - y) * (size_t)w * 4,
                   (size_t)w * 4);
        ls_image8_free(&img);
    }
    if (!px) {
        fprintf(stderr, "lockstep-mesa-gl: out of memory\n");
        return 1;
    }
    glActiveTexture((GLenum)(GL_TEXTURE0 + unit));
    glrun_texture_2d(w, h, GL_RGBA8, GL_RGBA, GL_UNSIGNED_BYTE, filter, wrap, px);
    free(px);
    GLint loc = glGetUniformLocation(prog, name);
    if (loc < 0)
        fprintf(stderr, "lockstep-mesa-gl: --texture: sampler %s is not active (ignored)\n", name);
    else
        glUniform1i(loc, unit);
    GLenum err = glGetError();
    if (err != GL_NO_ERROR) {
        fprintf(stderr, "lockstep-mesa-gl: --texture %s: GL error 0x%x\n", spec, err);
        return 1;
    }
    return 0;
}

int glrun_scene_textures(unsigned prog, const glrun_scene *sc)
{
    for (int i = 0; i < sc->ntex; i++)
        if (texture(prog, sc->tex[i], i))
            return 1;
    glActiveTexture(GL_TEXTURE0);
    return 0;
}

int glrun_scene_draw_meshes(unsigned prog, const glrun_scene *sc)
{
    for (int m = 0; m < sc->nmesh; m++) {
        ls_buf text;
        ls_buf_init(&text);
        if (!ls_read_file(sc->mesh[m], &text)) {
            fprintf(stderr, "lockstep-mesa-gl: %s: cannot read\n", sc->mesh[m]);
            ls_buf_free(&text);
            return 1;
        }
        piglit_test t;
        ls_diag d;
        ls_diag_clear(&d);
        ls_status st = piglit_mesh_parse(text.data ? text.data : "", text.len, sc->mesh[m], &t, &d);
        ls_buf_free(&text);
        if (st != LS_OK) {
            char msg[600];
            ls_diag_format(&d, msg, sizeof msg);
            fprintf(stderr, "lockstep-mesa-gl: %s\n", msg);
            return 1;
        }
        /* each column to the vertex attribute of its name (as shader_runner
         * binds [vertex data]); a column the program does not read is left out */
        GLint locs[PIGLIT_MAX_ATTRS];
        for (int k = 0; k < t.nattr; k++) {
            locs[k] = glGetAttribLocation(prog, t.attr_name[k]);
            if (locs[k] < 0)
                continue;
            glVertexAttribPointer((GLuint)locs[k], t.attr_comps[k], GL_FLOAT, GL_FALSE,
                                  t.vstride * (GLsizei)sizeof(float), t.vdata + t.attr_offset[k]);
            glEnableVertexAttribArray((GLuint)locs[k]);
        }
        glDrawArrays(GL_TRIANGLES, 0, (GLsizei)t.nrows);
        for (int k = 0; k < t.nattr; k++)
            if (locs[k] >= 0)
                glDisableVertexAttribArray((GLuint)locs[k]);
        piglit_test_free(&t);
    }
    return 0;
}
