/* Fuzz target: the piglit shader_test parser (texture commands included), the
 * mesh parser of `mesa run --mesh`, the input-model checks, and the
 * rectangle / probe evaluation on a window of the parsed size. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "lockstep/mesa_piglit.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    piglit_test t;
    ls_diag d;
    /* the same bytes as a `mesa run --mesh` file */
    if (piglit_mesh_parse((const char *)data, size, "fuzz", &t, &d) == LS_OK)
        piglit_test_free(&t);
    if (piglit_test_parse((const char *)data, size, "fuzz", &t, &d) != LS_OK)
        return 0;
    piglit_test_check_inputs(&t);
    piglit_test_check_pipeline(&t);
    size_t npix = (size_t)t.width * (size_t)t.height;
    float *fb = npix <= 512 * 512 ? calloc(npix * 4, sizeof *fb) : NULL;
    float tol[4] = {0.01f, 0.01f, 0.01f, 0.01f};
    char msg[256];
    for (size_t i = 0; fb && i < t.ncmds; i++) {
        int x0, y0, x1, y1;
        if (t.cmds[i].kind == PIGLIT_DRAW_RECT) {
            piglit_rect_pixels(&t, &t.cmds[i], &x0, &y0, &x1, &y1);
            for (int y = y0; y < y1; y++)
                for (int x = x0; x < x1; x++)
                    fb[4 * ((size_t)y * (size_t)t.width + (size_t)x)] = piglit_unorm8(t.cmds[i].v[0]);
        } else if (t.cmds[i].kind == PIGLIT_PROBE) {
            piglit_probe(&t, &t.cmds[i], tol, fb, msg, sizeof msg);
        }
    }
    free(fb);
    piglit_test_free(&t);
    return 0;
}
