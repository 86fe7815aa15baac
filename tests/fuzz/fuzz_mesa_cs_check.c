/* Fuzz target: the kernel's R5xx command-stream checker (mesa_cs_check) and
 * the live device's submission path (mesa_device_submit: check, then
 * execute) over fuzzed streams, relocations, flags and buffer sizes.
 * It also reads the input as a LOCKSTEP_SHIM_MODEL list of model options.
 * Properties beyond "no crash, no leak, no UB": the checker is a fixed point
 * of its own rewrite (an accepted stream, rewritten as the kernel rewrites
 * it, is accepted again and rewritten to itself), and a refusal always names
 * an errno the kernel returns (EINVAL, ENOENT). */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lockstep/mesa_cs_check.h"
#include "lockstep/mesa_device.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* the input as text: a LOCKSTEP_SHIM_MODEL list (mesa_device_model_list),
     * which may fail but never crash */
    char *txt = malloc(size + 1);
    if (txt) {
        memcpy(txt, data, size);
        txt[size] = 0;
        mesa_device_options mo;
        mesa_device_options_default(&mo);
        ls_diag md;
        (void)mesa_device_model_list(&mo, txt, &md);
        free(txt);
    }
    /* layout: 1 byte options, 1 byte relocation count (0..8), 1 byte flags
     * dwords (0..3), then flags, relocation sizes (4 bytes each, KiB), the
     * IB (the rest, dwords) */
    if (size < 3)
        return 0;
    unsigned opt = data[0], nrel = data[1] % 9, nfl = data[2] % 4;
    size_t at = 3;
    if (size < at + 4 * (nfl + nrel))
        return 0;
    uint32_t flags[3] = {0};
    memcpy(flags, data + at, 4 * nfl);
    at += 4 * nfl;
    uint32_t rel[32] = {0};
    mesa_device_bo bos[8];
    uint8_t *mem[8] = {0};
    memset(bos, 0, sizeof bos);
    for (unsigned k = 0; k < nrel; k++) {
        uint32_t s;
        memcpy(&s, data + at + 4 * k, 4);
        rel[4 * k] = k + 1;
        rel[4 * k + 1] = (s >> 24) & 0x7;         /* domains, CPU (1) refused */
        rel[4 * k + 3] = 0;
        size_t bytes = (size_t)(s & 0x3F) * 1024; /* up to 63 KiB */
        if ((s >> 31) & 1)
            continue;                             /* a handle with no object */
        mem[k] = calloc(1, bytes ? bytes : 1);
        bos[k].data = mem[k];
        bos[k].size = bytes;
        bos[k].tiling_flags = (s >> 8) & 0x23;
    }
    at += 4 * nrel;
    size_t n = (size - at) / 4;
    if (n > 4096)
        n = 4096;
    uint32_t *ib = malloc(n * 4 + 4), *p1 = malloc(n * 4 + 4), *p2 = malloc(n * 4 + 4);
    if (!ib || !p1 || !p2)
        goto out;
    memcpy(ib, data + at, n * 4);

    mesa_device_options o;
    mesa_device_options_default(&o);
    o.check.family = (mesa_chip_family)(opt % 6);
    o.check.hyperz = (opt >> 3) & 1;
    o.check.cmask = (opt >> 4) & 1;
    o.exec.max_vertices = 4096;
    o.exec.max_total = 16384;
    o.exec.pvs.watchdog = 4096;
    mesa_cs_bo_info info[8];
    for (unsigned k = 0; k < nrel; k++)
        info[k] = (mesa_cs_bo_info){bos[k].data != NULL, bos[k].size, bos[k].tiling_flags};
    mesa_cs_submit s = {(opt >> 5) & 1 ? NULL : ib, n, nrel ? rel : NULL, 4 * nrel,
                        nfl || ((opt >> 6) & 1) ? flags : NULL, nfl, info, nrel};
    mesa_cs_check_result r;
    ls_diag d;
    if (mesa_cs_check(&s, &o.check, p1, &r, &d) == LS_OK) {
        if (s.ib && n) {
            mesa_cs_submit s2 = s;
            s2.ib = p1;
            if (mesa_cs_check(&s2, &o.check, p2, &r, &d) != LS_OK || memcmp(p1, p2, n * 4) != 0)
                abort(); /* the rewrite is a fixed point */
        }
    } else if (r.err != EINVAL && r.err != ENOENT) {
        abort();
    }
    /* the device path: check + execute against the buffers */
    s.bos = NULL;
    mesa_submit_result sr;
    (void)mesa_device_submit(&s, bos, nrel, &o, &sr, &d);
out:
    for (unsigned k = 0; k < 8; k++)
        free(mem[k]);
    free(ib);
    free(p1);
    free(p2);
    return 0;
}
