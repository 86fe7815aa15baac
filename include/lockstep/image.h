/* Image files for people and for exact comparison (src/io/image.c): the
 * only code that needs libpng. In the build tree it is its own static library
 * (liblockstep_io) so the emulator core links without libpng; the installed
 * liblockstep holds both (docs/install.md). */
#ifndef LOCKSTEP_IO_IMAGE_H
#define LOCKSTEP_IO_IMAGE_H

#include <stdint.h>

#include "lockstep/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* 8-bit RGBA or RGB image, rows stored TOP row first (PNG order). */
typedef struct ls_image8 {
    int width, height, channels; /* channels: 3 (RGB) or 4 (RGBA) */
    uint8_t *pixels;             /* width*height*channels bytes */
} ls_image8;

/* float32 RGBA image, rows stored BOTTOM row first (GL / llvmpipe_rgba32f.bin order). */
typedef struct ls_imagef {
    int width, height;
    float *rgba; /* width*height*4 floats */
} ls_imagef;

ls_status ls_png_write(const char *path, const ls_image8 *img, ls_diag *d);
/* Reads any PNG, converted to 8-bit RGBA, top row first. */
ls_status ls_png_read(const char *path, ls_image8 *img, ls_diag *d);
void ls_image8_free(ls_image8 *img);

/* Raw little-endian float32 RGBA, bottom row first; the size must be given. */
ls_status ls_rawf_write(const char *path, const ls_imagef *img, ls_diag *d);
ls_status ls_rawf_read(const char *path, int width, int height, ls_imagef *img, ls_diag *d);
void ls_imagef_free(ls_imagef *img);

/* Convert float RGBA (bottom row first) to 8-bit RGBA (top row first):
 * clamp to [0,1], round to nearest (x*255+0.5); NaN becomes 0. */
ls_status ls_imagef_to_8(const ls_imagef *in, ls_image8 *out, ls_diag *d);

#ifdef __cplusplus
}
#endif
#endif
