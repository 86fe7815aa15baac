/* r500_texture_load: textures from files (PNG via libpng, raw float32). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/image.h"
#include "lockstep/r500_tex.h"

ls_status r500_texture_load(const char *spec, r500_texture **out, ls_diag *d)
{
    *out = NULL;
    char path[1024];
    if ((size_t)snprintf(path, sizeof path, "%s", spec) >= sizeof path)
        return ls_diag_set(d, LS_ERR_ARG, NULL, 0, 0, "texture file name longer than %zu bytes",
                           sizeof path - 1);
    r500_tex_filter filter = R500_TEX_BILINEAR;
    r500_tex_wrap wrap = R500_TEX_REPEAT;
    /* sampler suffixes: FILE[@WxH][,nearest|,bilinear][,repeat|,clamp] */
    char *comma;
    while ((comma = strrchr(path, ','))) {
        const char *opt = comma + 1;
        if (!strcmp(opt, "nearest"))
            filter = R500_TEX_NEAREST;
        else if (!strcmp(opt, "bilinear"))
            filter = R500_TEX_BILINEAR;
        else if (!strcmp(opt, "repeat"))
            wrap = R500_TEX_REPEAT;
        else if (!strcmp(opt, "clamp"))
            wrap = R500_TEX_CLAMP;
        else
            return ls_diag_set(d, LS_ERR_ARG, spec, 0, 0,
                               "unknown texture option '%s' (nearest, bilinear, repeat, clamp)",
                               opt);
        *comma = 0;
    }
    ls_status st;
    char *at = strrchr(path, '@');
    if (at) {
        int w, h, end = 0;
        char x;
        /* the whole suffix must be WxH: "4x2junk" is an error, not 4x2 */
        if (sscanf(at + 1, "%d%c%d%n", &w, &x, &h, &end) != 3 || at[1 + end] != 0 || x != 'x' ||
            w < 1 || h < 1 ||
            w > 16384 || h > 16384)
            return ls_diag_set(d, LS_ERR_ARG, spec, 0, 0, "expected FILE@WxH for raw float32 RGBA");
        *at = 0;
        ls_imagef img;
        if ((st = ls_rawf_read(path, w, h, &img, d)))
            return st;
        st = r500_texture_create(w, h, img.rgba, out, d);
        ls_imagef_free(&img);
    } else {
        ls_image8 img;
        if ((st = ls_png_read(path, &img, d)))
            return st;
        float *f = malloc((size_t)img.width * (size_t)img.height * 4 * sizeof *f);
        if (!f) {
            ls_image8_free(&img);
            return ls_diag_set(d, LS_ERR_NOMEM, path, 0, 0, "out of memory");
        }
        /* PNG rows are top first; texture rows bottom first */
        for (int y = 0; y < img.height; y++)
            for (int x = 0; x < img.width * 4; x++)
                f[((size_t)(img.height - 1 - y) * (size_t)img.width * 4) + (size_t)x] =
                    img.pixels[(size_t)y * (size_t)img.width * 4 + (size_t)x] / 255.0f;
        st = r500_texture_create(img.width, img.height, f, out, d);
        free(f);
        ls_image8_free(&img);
    }
    if (st)
        return st;
    r500_texture_set_sampler(*out, filter, wrap, wrap);
    return LS_OK;
}

/* A job's texture loader (include/lockstep/r500.h, r500_texture_loader):
 * the job loader is in the core library, file formats are here. */
ls_status r500_texture_load_file(void *ctx, const char *spec, r500_texture **out, ls_diag *d)
{
    (void)ctx;
    return r500_texture_load(spec, out, d);
}
