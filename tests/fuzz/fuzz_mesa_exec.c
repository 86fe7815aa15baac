/* Fuzz target: the command-stream executor (mesa_exec_stream) and the whole
 * pipeline over its draws (mesa_render_bo_draw: texture units bound from
 * TX_* and TX_OFFSET relocations, clip, raster, RS, the stream's fragment
 * program, the render backend into writable copies of the buffers or the
 * plain 16x16 store; the first 8 draws):
 * the input is split into a relocation chunk (first byte: relocations, 0..15),
 * two buffer contents A and B (next two bytes: their sizes, 0..255 bytes each,
 * filled from the input; even relocations read A, odd ones B) and the stream. Bounded work: small vertex limits. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "lockstep/mesa_draw.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 3)
        return 0;
    size_t nrel = data[0] & 15u, s0 = data[1], s1 = data[2];
    data += 3;
    size -= 3;
    if (size < s0 + s1)
        return 0;
    mesa_bo bos[16];
    for (int k = 0; k < 16; k++) {
        bos[k].data = k & 1 ? data + s0 : data;
        bos[k].size = k & 1 ? s1 : s0;
    }
    data += s0 + s1;
    size -= s0 + s1;
    size_t n = size / 4;
    if (n > 4096)
        return 0;
    uint32_t *w = malloc(n * 4 + 4);
    uint32_t *rel = calloc(4 * nrel + 1, 4);
    if (!w || !rel) {
        free(w);
        free(rel);
        return 0;
    }
    memcpy(w, data, n * 4);
    mesa_exec_options o;
    mesa_exec_options_default(&o);
    o.max_vertices = 4096;
    o.max_total = 16384;
    o.pvs.watchdog = 4096;
    o.raster_width = o.raster_height = 16;
    mesa_exec e;
    ls_diag d;
    if (mesa_exec_stream("fuzz", w, n, rel, 4 * nrel, bos, 16, &o, &e, &d) == LS_OK) {
        ls_buf b;
        ls_buf_init(&b);
        mesa_exec_json(&e, "fuzz", &b);
        ls_buf_free(&b);
        int tw, th;
        (void)mesa_exec_target_size(&e, &tw, &th);
        float img[16 * 16 * 4];
        r500_target tg = {.width = 16, .height = 16, .rgba = img, .unorm8 = true};
        mesa_render_options ro = {.width = 16, .height = 16, .workers = 1};
        r500_raster_options_default(&ro.raster);
        r500_raster_stats rs;
        memset(&rs, 0, sizeof rs);
        /* writable copies: colour and depth writes land in them, textures
         * read them (hostile TX_* values must stop at their buffer) */
        uint8_t *mem[16] = {NULL}, *ma = malloc(s0 + 1), *mb = malloc(s1 + 1);
        size_t msz[16];
        if (ma && mb) {
            memcpy(ma, bos[0].data, s0);
            memcpy(mb, bos[1].data, s1);
            for (int k = 0; k < 16; k++) {
                mem[k] = k & 1 ? mb : ma;
                msz[k] = k & 1 ? s1 : s0;
            }
            mesa_rb_target rt;
            memset(&rt, 0, sizeof rt);
            rt.plain = &tg;
            for (size_t k = 0; k < e.ndraws && k < 8; k++)
                (void)mesa_render_bo_draw(&e, k, &rt, mem, msz, 16, &ro, &rs, &d);
        }
        free(ma);
        free(mb);
        mesa_exec_free(&e);
    }
    free(w);
    free(rel);
    return 0;
}
