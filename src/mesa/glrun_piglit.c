/* lockstep-mesa-gl --shader-test FILE [-o out.bin]: issue a piglit
 * shader_test's GL commands the way piglit's shader_runner does, in a GL 2.1
 * context on an RGBA8 framebuffer object of the test's window size. Under the
 * shim this makes r300 compile the shaders and submit one draw per clear and
 * per `draw rect`, which `lockstep mesa piglit` decodes and runs; with
 * LIBGL_ALWAYS_SOFTWARE=1 it is the llvmpipe reference and -o writes the final
 * framebuffer as RGBA float32, bottom row first. Probes are evaluated by the
 * caller on lockstep's framebuffer, not here.
 *
 * The test file is parsed by the same code as lockstep's side
 * (src/mesa/piglit.c), so both see the same command list. */
#define GL_GLEXT_PROTOTYPES 1
#include <EGL/egl.h>
#include <GL/gl.h>
#include <GL/glext.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "base/buf.h"
#include "glrun.h"
#include "lockstep/mesa_piglit.h"

static const char passthrough_vs[] =
    "attribute vec4 piglit_vertex;\n"
    "void main() { gl_Position = piglit_vertex; }\n";

/* A GL info log on one line (the harness reads the first "fail:" line). */
static void one_line(char *log)
{
    for (char *p = log; *p; p++)
        if (*p == '\n')
            *p = ' ';
}

/* shader_runner adds "#version N" when the text has none. */
static GLuint compile_text(GLenum type, const char *src, int version, const char *what)
{
    char head[32] = "";
    if (!strstr(src, "#version"))
        snprintf(head, sizeof head, "#version %d\n", version);
    const char *srcs[2] = {head, src};
    char log[2048];
    GLuint s = glrun_compile(type, 2, srcs, log, sizeof log);
    if (!s) {
        one_line(log);
        printf("fail: %s shader does not compile: %s\n", what, log);
    }
    return s;
}

static bool has_extension(const char *name)
{
    const char *ext = (const char *)glGetString(GL_EXTENSIONS);
    size_t n = strlen(name);
    for (const char *p = ext ? strstr(ext, name) : NULL; p; p = strstr(p + 1, name))
        if ((p == ext || p[-1] == ' ') && (p[n] == ' ' || p[n] == 0))
            return true;
    return false;
}

/* [require] lines other than versions and SIZE: 0 met, 77 not (printed). */
static int check_requirement(const char *r)
{
    /* limits shader_runner knows, as "GL_MAX_… <cmp> N" */
    static const struct { const char *name; GLenum e; } limits[] = {
        {"GL_MAX_FRAGMENT_UNIFORM_COMPONENTS", GL_MAX_FRAGMENT_UNIFORM_COMPONENTS},
        {"GL_MAX_VERTEX_UNIFORM_COMPONENTS", GL_MAX_VERTEX_UNIFORM_COMPONENTS},
        {"GL_MAX_VARYING_COMPONENTS", GL_MAX_VARYING_FLOATS}, /* the same enum value */
        {"GL_MAX_VARYING_FLOATS", GL_MAX_VARYING_FLOATS},
        {"GL_MAX_VERTEX_ATTRIBS", GL_MAX_VERTEX_ATTRIBS},
        {"GL_MAX_TEXTURE_IMAGE_UNITS", GL_MAX_TEXTURE_IMAGE_UNITS},
        {"GL_MAX_DRAW_BUFFERS", GL_MAX_DRAW_BUFFERS},
    };
    char name[128];
    char cmp[3];
    int want;
    if (sscanf(r, "%127[A-Z_] %2[<>=!] %d", name, cmp, &want) == 3 && !strncmp(name, "GL_MAX_", 7)) {
        size_t i = 0;
        while (i < sizeof limits / sizeof limits[0] && strcmp(limits[i].name, name))
            i++;
        if (i == sizeof limits / sizeof limits[0]) {
            printf("skip: requirement '%s' is not known to the harness\n", r);
            printf("skip-key: requirement '*' is not known to the harness\n");
            return 77;
        }
        GLint have = 0;
        glGetIntegerv(limits[i].e, &have);
        bool ok = !strcmp(cmp, ">=") ? have >= want : !strcmp(cmp, ">") ? have > want
                : !strcmp(cmp, "<=") ? have <= want : !strcmp(cmp, "<") ? have < want
                : !strcmp(cmp, "==") ? have == want : have != want;
        if (!ok) {
            printf("skip: requires %s; the driver has %d\n", r, have);
            printf("skip-key: requires %s %s *\n", name, cmp); /* the limit, not the value */
            return 77;
        }
        return 0;
    }
    bool negate = r[0] == '!';
    if (sscanf(r + negate, "%127s", name) != 1)
        return 0;
    if (has_extension(name) == negate) {
        printf("skip: requires %s%s\n", negate ? "no " : "", name);
        printf("skip-key: requires %s%s\n", negate ? "no " : "", name);
        return 77;
    }
    return 0;
}

/* shader_runner's uniform types and the GL call each one uses. In the
 * varying pass a uniform only the real fragment shader uses is absent: fine. */
static int set_uniform(GLuint prog, const piglit_cmd *c, bool varying_pass)
{
    GLint loc = glGetUniformLocation(prog, c->name);
    if (loc < 0 && varying_pass)
        return 0;
    if (loc < 0) {
        printf("fail: line %d: cannot get the location of uniform %s\n", c->line, c->name);
        return 1;
    }
    const GLint *iv = c->iv;
    const char *t = c->type;
    if (!strcmp(t, "float")) glUniform1fv(loc, 1, c->v);
    else if (!strcmp(t, "vec2")) glUniform2fv(loc, 1, c->v);
    else if (!strcmp(t, "vec3")) glUniform3fv(loc, 1, c->v);
    else if (!strcmp(t, "vec4")) glUniform4fv(loc, 1, c->v);
    else if (!strcmp(t, "int") || !strcmp(t, "bool")) glUniform1iv(loc, 1, iv);
    else if (!strcmp(t, "ivec2") || !strcmp(t, "bvec2")) glUniform2iv(loc, 1, iv);
    else if (!strcmp(t, "ivec3") || !strcmp(t, "bvec3")) glUniform3iv(loc, 1, iv);
    else if (!strcmp(t, "ivec4") || !strcmp(t, "bvec4")) glUniform4iv(loc, 1, iv);
    else if (!strcmp(t, "mat2") || !strcmp(t, "mat2x2")) glUniformMatrix2fv(loc, 1, GL_FALSE, c->v);
    else if (!strcmp(t, "mat3") || !strcmp(t, "mat3x3")) glUniformMatrix3fv(loc, 1, GL_FALSE, c->v);
    else if (!strcmp(t, "mat4") || !strcmp(t, "mat4x4")) glUniformMatrix4fv(loc, 1, GL_FALSE, c->v);
    else if (!strcmp(t, "mat2x3")) glUniformMatrix2x3fv(loc, 1, GL_FALSE, c->v);
    else if (!strcmp(t, "mat2x4")) glUniformMatrix2x4fv(loc, 1, GL_FALSE, c->v);
    else if (!strcmp(t, "mat3x2")) glUniformMatrix3x2fv(loc, 1, GL_FALSE, c->v);
    else if (!strcmp(t, "mat3x4")) glUniformMatrix3x4fv(loc, 1, GL_FALSE, c->v);
    else if (!strcmp(t, "mat4x2")) glUniformMatrix4x2fv(loc, 1, GL_FALSE, c->v);
    else if (!strcmp(t, "mat4x3")) glUniformMatrix4x3fv(loc, 1, GL_FALSE, c->v);
    GLenum err = glGetError();
    if (err != GL_NO_ERROR) {
        printf("fail: line %d: setting uniform %s raised GL error 0x%x\n", c->line, c->name, err);
        return 1;
    }
    return 0;
}

/* piglit_draw_rect: a 4-vertex triangle strip at z = 0, w = 1 with texture
 * coordinates (0,0) (1,0) (0,1) (1,1) (`draw rect tex`: the test's), through the program's piglit_vertex /
 * piglit_texcoord attributes if it has them, else gl_Vertex /
 * gl_MultiTexCoord0. */
static void draw_rect(GLuint prog, const piglit_test *t, const piglit_cmd *c)
{
    float x = c->v[0], y = c->v[1], w = c->v[2], h = c->v[3];
    if (c->ortho) {
        x = -1.0f + 2.0f * (x / (float)t->width);
        y = -1.0f + 2.0f * (y / (float)t->height);
        w = 2.0f * (w / (float)t->width);
        h = 2.0f * (h / (float)t->height);
    }
    const GLfloat verts[16] = {x, y, 0, 1, x + w, y, 0, 1, x, y + h, 0, 1, x + w, y + h, 0, 1};
    GLfloat tex[8] = {0, 0, 1, 0, 0, 1, 1, 1};
    if (c->tex) { /* piglit_draw_rect_tex: (tx, ty) at (x, y), (tx + tw, ty + th) opposite */
        float tx = c->v[4], ty = c->v[5], tw = c->v[6], th = c->v[7];
        const GLfloat t2[8] = {tx, ty, tx + tw, ty, tx, ty + th, tx + tw, ty + th};
        memcpy(tex, t2, sizeof tex);
    }
    GLint loc = glGetAttribLocation(prog, "piglit_vertex");
    GLint tloc = glGetAttribLocation(prog, "piglit_texcoord");
    if (loc >= 0) {
        glVertexAttribPointer((GLuint)loc, 4, GL_FLOAT, GL_FALSE, 0, verts);
        glEnableVertexAttribArray((GLuint)loc);
    } else {
        glVertexPointer(4, GL_FLOAT, 0, verts);
        glEnableClientState(GL_VERTEX_ARRAY);
    }
    if (tloc >= 0) {
        glVertexAttribPointer((GLuint)tloc, 2, GL_FLOAT, GL_FALSE, 0, tex);
        glEnableVertexAttribArray((GLuint)tloc);
    } else {
        glTexCoordPointer(2, GL_FLOAT, 0, tex);
        glEnableClientState(GL_TEXTURE_COORD_ARRAY);
    }
    glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
    if (loc >= 0)
        glDisableVertexAttribArray((GLuint)loc);
    else
        glDisableClientState(GL_VERTEX_ARRAY);
    if (tloc >= 0)
        glDisableVertexAttribArray((GLuint)tloc);
    else
        glDisableClientState(GL_TEXTURE_COORD_ARRAY);
}

/* The parser stores GL enums as numbers (mesa_piglit.h): they are the headers'. */
#define SAME(x) _Static_assert(PIGLIT_##x == x, #x)
SAME(GL_TEXTURE_1D);
SAME(GL_TEXTURE_2D);
SAME(GL_TEXTURE_3D);
SAME(GL_TEXTURE_RECTANGLE);
SAME(GL_TEXTURE_CUBE_MAP);
SAME(GL_TEXTURE_COMPARE_FUNC);
SAME(GL_DEPTH_TEXTURE_MODE);
SAME(GL_TEXTURE_MIN_FILTER);
SAME(GL_TEXTURE_MAG_FILTER);
SAME(GL_TEXTURE_WRAP_S);
SAME(GL_TEXTURE_WRAP_T);
SAME(GL_TEXTURE_WRAP_R);
SAME(GL_TEXTURE_LOD_BIAS);
SAME(GL_TEXTURE_BASE_LEVEL);
SAME(GL_TEXTURE_MAX_LEVEL);
SAME(GL_TEXTURE_BORDER_COLOR);
SAME(GL_TEXTURE_SWIZZLE_R);
SAME(GL_NEVER);
SAME(GL_LESS);
SAME(GL_EQUAL);
SAME(GL_LEQUAL);
SAME(GL_GREATER);
SAME(GL_NOTEQUAL);
SAME(GL_GEQUAL);
SAME(GL_ALWAYS);
SAME(GL_RED);
SAME(GL_GREEN);
SAME(GL_BLUE);
SAME(GL_ALPHA);
SAME(GL_LUMINANCE);
SAME(GL_INTENSITY);
SAME(GL_NEAREST);
SAME(GL_LINEAR);
SAME(GL_NEAREST_MIPMAP_NEAREST);
SAME(GL_LINEAR_MIPMAP_NEAREST);
SAME(GL_NEAREST_MIPMAP_LINEAR);
SAME(GL_LINEAR_MIPMAP_LINEAR);
SAME(GL_REPEAT);
SAME(GL_CLAMP_TO_EDGE);
SAME(GL_CLAMP_TO_BORDER);
SAME(GL_LINE_SMOOTH_HINT);
SAME(GL_POLYGON_SMOOTH_HINT);
SAME(GL_TEXTURE_COMPRESSION_HINT);
SAME(GL_FRAGMENT_SHADER_DERIVATIVE_HINT);
SAME(GL_DONT_CARE);
SAME(GL_FASTEST);
SAME(GL_NICEST);
#undef SAME

/* Wrap and filter of a new texture object bound to target. */
static void tex_defaults(GLenum target, GLenum wrap, GLenum mag, GLenum min)
{
    glTexParameteri(target, GL_TEXTURE_WRAP_S, (GLint)wrap);
    glTexParameteri(target, GL_TEXTURE_WRAP_T, (GLint)wrap);
    if (target == GL_TEXTURE_3D)
        glTexParameteri(target, GL_TEXTURE_WRAP_R, (GLint)wrap);
    glTexParameteri(target, GL_TEXTURE_MAG_FILTER, (GLint)mag);
    glTexParameteri(target, GL_TEXTURE_MIN_FILTER, (GLint)min);
}

/* w×h RGBA float texels in tiles of tw×th from the bottom-left: even tile
 * rows alternate bl, br; odd ones tl, tr (piglit_quads_texture's layout). */
static void quads_image(float *px, int w, int h, int tw, int th, const float *bl, const float *br,
                        const float *tl, const float *tr)
{
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            bool odd_row = (y / th) & 1, odd_col = (x / tw) & 1;
            const float *c = odd_row ? (odd_col ? tr : tl) : (odd_col ? br : bl);
            memcpy(px + 4 * ((size_t)y * (size_t)w + (size_t)x), c, 4 * sizeof *c);
        }
}

/* A `texture` command: the texture object shader_runner makes, on the unit
 * it names (glActiveTexture stays there), uploaded with glTexImage* so that
 * the driver puts it in its buffer objects as it does for any application.
 * The images and parameters are piglit-util-gl.c's: piglit_rgbw_texture
 * (alpha 1, nearest, clamp to edge, one level), piglit_rgbw_texture_1d/_3d,
 * piglit_quads_texture (nearest, clamp to border, border (1, 0, 0, 1)),
 * piglit_miptree_texture, piglit_depth_texture (depth x / (W − 1), compare R
 * to texture with GL_GREATER). As there, GL_TEXTURE_2D is also enabled for
 * the 2D colour textures and shadow2D (the compatibility profile). */
static int make_texture(const piglit_cmd *c)
{
    static const float red[4] = {1, 0, 0, 1}, green[4] = {0, 1, 0, 1}, blue[4] = {0, 0, 1, 1},
                       white[4] = {1, 1, 1, 1};
    static const float rgbw_1d[16] = {1, 0, 0, 1, 0, 1, 0, 1, 0, 0, 1, 1, 1, 1, 1, 1};
    static const float rgbw_3d[32] = {1, 0, 0, 1, 0, 1, 0, 1, 0, 0, 1, 1, 1, 1, 1, 1,
                                      1, 1, 0, 1, 1, 0, 1, 1, 0, 1, 1, 1, 0, 0, 0, 1};
    static const float border[4] = {1, 0, 0, 1};
    int w = c->iv[2], h = c->iv[3];
    glActiveTexture((GLenum)(GL_TEXTURE0 + c->iv[0]));
    GLuint tex;
    glGenTextures(1, &tex);
    float *px = malloc((size_t)w * (size_t)h * 4 * sizeof *px);
    if (!px) {
        printf("fail: line %d: out of memory\n", c->line);
        return 1;
    }
    switch ((piglit_tex_kind)c->iv[1]) {
    case PIGLIT_TEX_RGBW:
        glBindTexture(GL_TEXTURE_2D, tex);
        tex_defaults(GL_TEXTURE_2D, GL_CLAMP_TO_EDGE, GL_NEAREST, GL_NEAREST);
        /* red bottom-left, green bottom-right, blue top-left, white top-right;
         * the left/bottom halves are x < W/2, y < H/2 (none when W or H is 1) */
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++) {
                bool left = x < w / 2, low = y < h / 2;
                memcpy(px + 4 * ((size_t)y * (size_t)w + (size_t)x),
                       low ? (left ? red : green) : (left ? blue : white), sizeof red);
            }
        glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, w, h, 0, GL_RGBA, GL_FLOAT, px);
        glEnable(GL_TEXTURE_2D);
        break;
    case PIGLIT_TEX_RGBW_1D:
        glBindTexture(GL_TEXTURE_1D, tex);
        tex_defaults(GL_TEXTURE_1D, GL_CLAMP_TO_EDGE, GL_NEAREST, GL_NEAREST);
        glTexImage1D(GL_TEXTURE_1D, 0, GL_RGBA, 4, 0, GL_RGBA, GL_FLOAT, rgbw_1d);
        break;
    case PIGLIT_TEX_RGBW_3D:
        glBindTexture(GL_TEXTURE_3D, tex);
        tex_defaults(GL_TEXTURE_3D, GL_CLAMP_TO_EDGE, GL_NEAREST, GL_NEAREST);
        glTexImage3D(GL_TEXTURE_3D, 0, GL_RGBA, 2, 2, 2, 0, GL_RGBA, GL_FLOAT, rgbw_3d);
        break;
    case PIGLIT_TEX_CHECKERBOARD:
    case PIGLIT_TEX_QUADS: {
        glBindTexture(GL_TEXTURE_2D, tex);
        tex_defaults(GL_TEXTURE_2D, GL_CLAMP_TO_BORDER, GL_NEAREST, GL_NEAREST);
        glTexParameterfv(GL_TEXTURE_2D, GL_TEXTURE_BORDER_COLOR, border);
        const float *k = c->v;
        /* checkerboard: black bottom-left and top-right, white the others */
        if (c->iv[1] == PIGLIT_TEX_CHECKERBOARD)
            quads_image(px, w, h, c->iv[6], c->iv[7], k, k + 4, k + 4, k);
        else
            quads_image(px, w, h, c->iv[6], c->iv[7], k, k + 4, k + 8, k + 12);
        glTexImage2D(GL_TEXTURE_2D, c->iv[5], GL_RGBA, w, h, 0, GL_RGBA, GL_FLOAT, px);
        glEnable(GL_TEXTURE_2D);
        break;
    }
    case PIGLIT_TEX_MIPTREE: {
        glBindTexture(GL_TEXTURE_2D, tex);
        tex_defaults(GL_TEXTURE_2D, GL_CLAMP_TO_EDGE, GL_NEAREST, GL_NEAREST_MIPMAP_NEAREST);
        const float *wheel[4] = {red, green, blue, white};
        for (int level = 0, size = 8; level < 4; level++, size /= 2) {
            for (int i = 0; i < size * size; i++)
                memcpy(px + 4 * i, wheel[level], sizeof red);
            glTexImage2D(GL_TEXTURE_2D, level, GL_RGBA, size, size, 0, GL_RGBA, GL_FLOAT, px);
        }
        glEnable(GL_TEXTURE_2D);
        break;
    }
    case PIGLIT_TEX_SHADOW_1D:
    case PIGLIT_TEX_SHADOW_2D:
    case PIGLIT_TEX_SHADOW_RECT: {
        GLenum target = c->iv[1] == PIGLIT_TEX_SHADOW_1D   ? GL_TEXTURE_1D
                        : c->iv[1] == PIGLIT_TEX_SHADOW_2D ? GL_TEXTURE_2D
                                                           : GL_TEXTURE_RECTANGLE;
        glBindTexture(target, tex);
        tex_defaults(target, GL_CLAMP_TO_EDGE, GL_NEAREST, GL_NEAREST);
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++)
                px[(size_t)y * (size_t)w + (size_t)x] = (float)x / (float)(w - 1);
        if (target == GL_TEXTURE_1D)
            glTexImage1D(target, 0, GL_DEPTH_COMPONENT, w, 0, GL_DEPTH_COMPONENT, GL_FLOAT, px);
        else
            glTexImage2D(target, 0, GL_DEPTH_COMPONENT, w, h, 0, GL_DEPTH_COMPONENT, GL_FLOAT, px);
        glTexParameteri(target, GL_TEXTURE_COMPARE_MODE, GL_COMPARE_R_TO_TEXTURE);
        glTexParameteri(target, GL_TEXTURE_COMPARE_FUNC, GL_GREATER);
        if (target == GL_TEXTURE_2D)
            glEnable(GL_TEXTURE_2D);
        break;
    }
    }
    free(px);
    GLenum err = glGetError();
    if (err != GL_NO_ERROR) {
        printf("fail: line %d: making the texture raised GL error 0x%x\n", c->line, err);
        return 1;
    }
    return 0;
}

/* `texparameter`: glTexParameter on the active unit's texture of the target
 * (shader_runner does not check for a GL error here either). */
static void tex_parameter(const piglit_cmd *c)
{
    GLenum target = (GLenum)c->iv[0], pname = (GLenum)c->iv[1];
    if (pname == GL_TEXTURE_LOD_BIAS)
        glTexParameterf(target, pname, c->v[0]);
    else if (pname == GL_TEXTURE_BORDER_COLOR)
        glTexParameterfv(target, pname, c->v);
    else
        glTexParameteri(target, pname, c->iv[2]);
}

/* varying_prefix: llvmpipe's varying pass (assumption piglit-varyings): the
 * test's vertex shaders with piglit_varying_fs as the fragment shader, into
 * RGBA32F; after each `draw rect` k (cleared to 0 first) the pixels go to
 * PREFIX.k.bin; clears are not issued. */
static int run(const piglit_test *t, const char *out, const char *varying_prefix)
{
    for (size_t i = 0; i < t->nrequires; i++) {
        int rc = check_requirement(t->requires[i]);
        if (rc)
            return rc;
    }
    if (glrun_make_fbo(t->width, t->height, varying_prefix != NULL))
        return 1;
    glViewport(0, 0, t->width, t->height);
    GLuint prog = glCreateProgram();
    if (t->vs_passthrough) {
        GLuint vs = compile_text(GL_VERTEX_SHADER, passthrough_vs, t->glsl_version, "vertex");
        if (!vs)
            return 1;
        glAttachShader(prog, vs);
    }
    for (int k = 0; k < t->nvs; k++) {
        GLuint vs = compile_text(GL_VERTEX_SHADER, t->vs[k], t->glsl_version, "vertex");
        if (!vs)
            return 1;
        glAttachShader(prog, vs);
    }
    char vfs[512];
    piglit_varying_fs(t, vfs, sizeof vfs);
    for (int k = 0; k < (varying_prefix ? 1 : t->nfs); k++) {
        GLuint fs = compile_text(GL_FRAGMENT_SHADER, varying_prefix ? vfs : t->fs[k],
                                 t->glsl_version, "fragment");
        if (!fs)
            return 1;
        glAttachShader(prog, fs);
    }
    char log[2048];
    if (!glrun_link(prog, log, sizeof log)) {
        one_line(log);
        printf("fail: link error: %s\n", log);
        return 1;
    }
    glUseProgram(prog);
    GLbitfield clear_bits = 0;
    int rect = 0;
    for (size_t i = 0; i < t->ncmds; i++) {
        const piglit_cmd *c = &t->cmds[i];
        switch (c->kind) {
        case PIGLIT_CLEAR_COLOR:
            glClearColor(c->v[0], c->v[1], c->v[2], c->v[3]);
            clear_bits |= GL_COLOR_BUFFER_BIT;
            break;
        case PIGLIT_CLEAR:
            if (!varying_prefix)
                glClear(clear_bits);
            break;
        case PIGLIT_UNIFORM:
            if (set_uniform(prog, c, varying_prefix != NULL))
                return 1;
            break;
        case PIGLIT_DRAW_RECT:
            if (varying_prefix) {
                glClearColor(0, 0, 0, 0);
                glClear(GL_COLOR_BUFFER_BIT);
            }
            draw_rect(prog, t, c);
            if (varying_prefix) {
                char path[4096];
                snprintf(path, sizeof path, "%s.%d.bin", varying_prefix, rect);
                if (glrun_write_pixels(path, t->width, t->height))
                    return 1;
            }
            rect++;
            break;
        case PIGLIT_DRAW_ARRAYS: {
            /* shader_runner: each [vertex data] column to the attribute of
             * its name, then glDrawArrays */
            static const GLenum modes[] = {GL_POINTS,         GL_LINES,          GL_LINE_LOOP,
                                           GL_LINE_STRIP,     GL_TRIANGLES,      GL_TRIANGLE_STRIP,
                                           GL_TRIANGLE_FAN,   GL_QUADS,          GL_QUAD_STRIP,
                                           GL_POLYGON};
            GLint locs[PIGLIT_MAX_ATTRS];
            for (int k = 0; k < t->nattr; k++) {
                locs[k] = glGetAttribLocation(prog, t->attr_name[k]);
                if (locs[k] < 0)
                    continue; /* not an active attribute (shader_runner too) */
                glVertexAttribPointer((GLuint)locs[k], t->attr_comps[k], GL_FLOAT, GL_FALSE,
                                      t->vstride * (GLsizei)sizeof(float),
                                      t->vdata + t->attr_offset[k]);
                glEnableVertexAttribArray((GLuint)locs[k]);
            }
            if (!varying_prefix)
                glDrawArrays(modes[c->iv[0]], c->iv[1], c->iv[2]);
            for (int k = 0; k < t->nattr; k++)
                if (locs[k] >= 0)
                    glDisableVertexAttribArray((GLuint)locs[k]);
            break;
        }
        case PIGLIT_FRUSTUM: /* shader_runner: the projection, modelview back to identity */
            glMatrixMode(GL_PROJECTION);
            glLoadIdentity();
            glFrustum(c->v[0], c->v[1], c->v[2], c->v[3], c->v[4], c->v[5]);
            glMatrixMode(GL_MODELVIEW);
            glLoadIdentity();
            break;
        case PIGLIT_ENABLE: {
            GLenum cap = c->iv[0] == 6   ? GL_VERTEX_PROGRAM_TWO_SIDE
                         : c->iv[0] == 7 ? GL_VERTEX_PROGRAM_POINT_SIZE
                         : c->iv[0] == 8 ? GL_POINT_SPRITE
                                         : (GLenum)(GL_CLIP_PLANE0 + c->iv[0]);
            if (c->iv[1])
                glEnable(cap);
            else
                glDisable(cap);
            break;
        }
        case PIGLIT_CLIP_PLANE: {
            GLdouble eq[4] = {c->v[0], c->v[1], c->v[2], c->v[3]};
            glClipPlane((GLenum)(GL_CLIP_PLANE0 + c->iv[0]), eq);
            break;
        }
        case PIGLIT_SHADE_MODEL:
            glShadeModel(c->iv[0] ? GL_FLAT : GL_SMOOTH);
            break;
        case PIGLIT_ORTHO: /* piglit_gen_ortho_projection */
            glMatrixMode(GL_PROJECTION);
            glLoadIdentity();
            glOrtho(c->v[0], c->v[1], c->v[2], c->v[3], -1, 1);
            glMatrixMode(GL_MODELVIEW);
            glLoadIdentity();
            break;
        case PIGLIT_TEXTURE:
            if (make_texture(c))
                return 1;
            break;
        case PIGLIT_TEXPARAMETER:
            tex_parameter(c);
            break;
        case PIGLIT_COLOR: /* the current colour (gl_Color without a vertex shader) */
            glColor4fv(c->v);
            break;
        case PIGLIT_HINT:
            glHint((GLenum)c->iv[0], (GLenum)c->iv[1]);
            break;
        case PIGLIT_LINK_SUCCESS: /* the program linked: run() stops at a link error */
        case PIGLIT_PROBE:
        case PIGLIT_TOLERANCE:
            break;
        }
    }
    glFinish();
    return out ? glrun_write_pixels(out, t->width, t->height) : 0;
}

int glrun_shader_test(const char *path, const char *out, const char *varying_prefix, bool pipeline)
{
    ls_buf text;
    ls_buf_init(&text);
    if (!ls_read_file(path, &text)) {
        printf("fail: %s: cannot read\n", path);
        ls_buf_free(&text);
        return 1;
    }
    piglit_test t;
    ls_diag d;
    ls_diag_clear(&d);
    ls_status st = piglit_test_parse(text.data, text.len, path, &t, &d);
    ls_buf_free(&text);
    if (st != LS_OK) {
        char msg[1024];
        ls_diag_format(&d, msg, sizeof msg);
        printf("fail: %s\n", msg);
        return 1;
    }
    int rc;
    EGLDisplay dpy;
    EGLContext ctx;
    if (t.skip[0]) {
        printf("skip: %s\nskip-key: %s\n", t.skip, t.skip_key);
        rc = 77;
    } else if (pipeline ? !piglit_test_check_pipeline(&t) : !piglit_test_check_inputs(&t)) {
        printf("skip: %s\nskip-key: %s\n", t.skip, t.skip_key);
        rc = 77;
    } else if (varying_prefix && t.varying.kind == PIGLIT_VARYING_NONE) {
        printf("fail: the test reads no varying\n");
        rc = 1;
    } else if (glrun_make_context(&dpy, &ctx)) {
        rc = 1;
    } else {
        /* shader_runner applies [require] rlimit after creating the context;
         * every run also gets a CPU-time guard against a compiler that never ends */
        struct rlimit cpu = {300, 300};
        setrlimit(RLIMIT_CPU, &cpu);
        if (t.rlimit && !varying_prefix) { /* not in the harness's own pass */
            struct rlimit as = {(rlim_t)t.rlimit, (rlim_t)t.rlimit};
            setrlimit(RLIMIT_DATA, &as);
        }
        rc = run(&t, out, varying_prefix);
        eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
        eglDestroyContext(dpy, ctx);
        eglTerminate(dpy);
    }
    piglit_test_free(&t);
    fflush(stdout);
    return rc;
}
