#include "image.h"

#include <errno.h>
#include <math.h>
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"

ls_status ls_png_write(const char *path, const ls_image8 *img, ls_diag *d)
{
    png_image pi;
    memset(&pi, 0, sizeof pi);
    pi.version = PNG_IMAGE_VERSION;
    pi.width = (png_uint_32)img->width;
    pi.height = (png_uint_32)img->height;
    pi.format = img->channels == 4 ? PNG_FORMAT_RGBA : PNG_FORMAT_RGB;
    if (!png_image_write_to_file(&pi, path, 0, img->pixels, 0, NULL))
        return ls_diag_set(d, LS_ERR_IO, path, 0, 0, "cannot write PNG: %s", pi.message);
    return LS_OK;
}

ls_status ls_png_write_mem(const ls_image8 *img, ls_buf *out, ls_diag *d)
{
    png_image pi;
    memset(&pi, 0, sizeof pi);
    pi.version = PNG_IMAGE_VERSION;
    pi.width = (png_uint_32)img->width;
    pi.height = (png_uint_32)img->height;
    pi.format = img->channels == 4 ? PNG_FORMAT_RGBA : PNG_FORMAT_RGB;
    png_alloc_size_t n = 0;
    /* libpng's simplified API: a first call sizes the image, the second writes it */
    if (!png_image_write_to_memory(&pi, NULL, &n, 0, img->pixels, 0, NULL))
        return ls_diag_set(d, LS_ERR_NOMEM, NULL, 0, 0, "cannot encode PNG: %s", pi.message);
    unsigned char *mem = malloc(n ? n : 1);
    if (!mem)
        return ls_diag_set(d, LS_ERR_NOMEM, NULL, 0, 0, "out of memory");
    if (!png_image_write_to_memory(&pi, mem, &n, 0, img->pixels, 0, NULL)) {
        free(mem);
        return ls_diag_set(d, LS_ERR_NOMEM, NULL, 0, 0, "cannot encode PNG: %s", pi.message);
    }
    ls_buf_append(out, mem, (size_t)n);
    free(mem);
    return out->oom ? ls_diag_set(d, LS_ERR_NOMEM, NULL, 0, 0, "out of memory") : LS_OK;
}

ls_status ls_png_read(const char *path, ls_image8 *img, ls_diag *d)
{
    memset(img, 0, sizeof *img);
    png_image pi;
    memset(&pi, 0, sizeof pi);
    pi.version = PNG_IMAGE_VERSION;
    if (!png_image_begin_read_from_file(&pi, path))
        return ls_diag_set(d, LS_ERR_IO, path, 0, 0, "cannot read PNG: %s", pi.message);
    if (pi.width == 0 || pi.height == 0 || pi.width > 16384 || pi.height > 16384) {
        png_image_free(&pi);
        return ls_diag_set(d, LS_ERR_RANGE, path, 0, 0, "PNG size %ux%u is not supported",
                           pi.width, pi.height);
    }
    pi.format = PNG_FORMAT_RGBA;
    size_t n = PNG_IMAGE_SIZE(pi);
    img->pixels = malloc(n);
    if (!img->pixels) {
        png_image_free(&pi);
        return ls_diag_set(d, LS_ERR_NOMEM, path, 0, 0, "out of memory");
    }
    if (!png_image_finish_read(&pi, NULL, img->pixels, 0, NULL)) {
        free(img->pixels);
        img->pixels = NULL;
        return ls_diag_set(d, LS_ERR_PARSE, path, 0, 0, "bad PNG: %s", pi.message);
    }
    img->width = (int)pi.width;
    img->height = (int)pi.height;
    img->channels = 4;
    return LS_OK;
}

void ls_image8_free(ls_image8 *img)
{
    free(img->pixels);
    memset(img, 0, sizeof *img);
}

ls_status ls_rawf_write(const char *path, const ls_imagef *img, ls_diag *d)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return ls_diag_set(d, LS_ERR_IO, path, 0, 0, "cannot open for writing: %s",
                           strerror(errno));
    size_t n = (size_t)img->width * (size_t)img->height * 4;
    /* x86 and every target we build for is little-endian; write byte by byte otherwise. */
    size_t w = fwrite(img->rgba, sizeof(float), n, f);
    if (fclose(f) != 0 || w != n)
        return ls_diag_set(d, LS_ERR_IO, path, 0, 0, "write failed");
    return LS_OK;
}

ls_status ls_rawf_read(const char *path, int width, int height, ls_imagef *img, ls_diag *d)
{
    memset(img, 0, sizeof *img);
    FILE *f = fopen(path, "rb");
    if (!f)
        return ls_diag_set(d, LS_ERR_IO, path, 0, 0, "cannot open: %s", strerror(errno));
    size_t n = (size_t)width * (size_t)height * 4;
    img->rgba = malloc(n * sizeof(float) + 1);
    if (!img->rgba) {
        fclose(f);
        return ls_diag_set(d, LS_ERR_NOMEM, path, 0, 0, "out of memory");
    }
    size_t got = fread(img->rgba, 1, n * sizeof(float) + 1, f);
    fclose(f);
    if (got != n * sizeof(float)) {
        free(img->rgba);
        img->rgba = NULL;
        return ls_diag_set(d, LS_ERR_PARSE, path, 0, 0,
                           "expected %zu bytes of float32 RGBA for %dx%d, found %s%zu",
                           n * sizeof(float), width, height,
                           got > n * sizeof(float) ? "more than " : "", got);
    }
    img->width = width;
    img->height = height;
    return LS_OK;
}

void ls_imagef_free(ls_imagef *img)
{
    free(img->rgba);
    memset(img, 0, sizeof *img);
}

static uint8_t to8(float v)
{
    if (!(v > 0.0f))
        return 0; /* also NaN */
    if (v >= 1.0f)
        return 255;
    return (uint8_t)(v * 255.0f + 0.5f);
}

ls_status ls_imagef_to_8(const ls_imagef *in, ls_image8 *out, ls_diag *d)
{
    out->width = in->width;
    out->height = in->height;
    out->channels = 4;
    out->pixels = malloc((size_t)in->width * (size_t)in->height * 4);
    if (!out->pixels)
        return ls_diag_set(d, LS_ERR_NOMEM, NULL, 0, 0, "out of memory");
    for (int y = 0; y < in->height; y++) {
        const float *src = in->rgba + (size_t)y * (size_t)in->width * 4;
        uint8_t *dst = out->pixels + (size_t)(in->height - 1 - y) * (size_t)in->width * 4;
        for (int i = 0; i < in->width * 4; i++)
            dst[i] = to8(src[i]);
    }
    return LS_OK;
}
