/* The radeon kernel's command-stream checker for R5xx, as lockstep's fake
 * device applies it before executing a DRM_RADEON_CS (issue 17).
 *
 * What the Linux radeon driver refuses for an r300/r500 submission, read in
 * drivers/gpu/drm/radeon/radeon_cs.c (radeon_cs_parser_init: chunks and
 * flags; radeon_cs_parser_relocs: relocation handles and domains;
 * radeon_cs_packet_parse / radeon_cs_packet_next_reloc: packet headers and
 * relocation NOPs), r300.c (r300_cs_parse, r300_packet0_check: the register
 * safe list and the tracked registers; r300_packet3_check) and r100.c
 * (r100_cs_parse_packet0, r100_packet3_load_vbpntr, r100_cs_track_check:
 * colour, depth, AA-resolve, vertex-array, immediate and texture sizes against
 * their buffer objects), with the R5xx safe-register list of
 * drivers/gpu/drm/radeon/reg_srcs/rv515. Written from those sources; no code
 * copied. Manual: docs/mesa.md, "The live device".
 *
 * The result says what the kernel would return (0, or the errno of the
 * refused ioctl) and a diagnostic naming the packet (its header's dword
 * index and kind) and the register or opcode, beside the kernel's own log
 * line for the same case. Library code: never prints. */
#ifndef LOCKSTEP_MESA_CS_CHECK_H
#define LOCKSTEP_MESA_CS_CHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lockstep/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The R5xx families (the kernel's CHIP_*; the checker's only family rule:
 * register 0x4BE8 is valid on RV530 alone). */
typedef enum mesa_chip_family {
    MESA_CHIP_RV515,
    MESA_CHIP_R520,
    MESA_CHIP_RV530,
    MESA_CHIP_RV560,
    MESA_CHIP_RV570,
    MESA_CHIP_R580,
} mesa_chip_family;
const char *mesa_chip_family_name(mesa_chip_family f);
/* Family of an R5xx PCI id (0x7100..0x72FF, the kernel's drm_pciids.h
 * ranges as far as lockstep knows them: see the table in cs_check.c); false
 * for an id outside the R500 family. */
bool mesa_chip_family_of(unsigned pci_id, mesa_chip_family *f);

/* One buffer object a relocation names (radeon_bo_size, tiling flags as
 * GEM_SET_TILING set them). */
typedef struct mesa_cs_bo_info {
    bool exists;           /* false: the GEM handle names no object (ENOENT) */
    uint64_t size;         /* bytes */
    uint32_t tiling_flags; /* RADEON_TILING_* */
} mesa_cs_bo_info;

typedef struct mesa_cs_check_options {
    mesa_chip_family family;
    bool hyperz;       /* this client owns HyperZ (RADEON_INFO_WANT_HYPERZ granted) */
    bool cmask;        /* ... the CMASK (RADEON_INFO_WANT_CMASK granted) */
    bool sizes_known;  /* false: skip every buffer-size rule (a capture without buffers) */
} mesa_cs_check_options;
void mesa_cs_check_options_default(mesa_cs_check_options *o); /* RV530, no HyperZ/CMASK, sizes */

/* A submission: the chunks of a DRM_RADEON_CS. */
typedef struct mesa_cs_submit {
    const uint32_t *ib;       /* RADEON_CHUNK_ID_IB (NULL: no IB chunk) */
    size_t ib_dw;
    const uint32_t *relocs;   /* RADEON_CHUNK_ID_RELOCS (NULL: none); 4 dwords a relocation:
                                 handle, read domains, write domain, flags */
    size_t relocs_dw;
    const uint32_t *flags;    /* RADEON_CHUNK_ID_FLAGS (NULL: none): cs flags, ring, priority */
    size_t flags_dw;
    const mesa_cs_bo_info *bos; /* per relocation (index = relocation number) */
    size_t nbos;
} mesa_cs_submit;

typedef struct mesa_cs_check_result {
    int err;             /* 0 accepted, else the errno the ioctl fails with (EINVAL, ENOENT) */
    long packet;         /* dword index of the offending packet's header, -1 if none */
    uint32_t reg;        /* offending register's byte address, 0 if none */
    int opcode;          /* offending type-3 opcode, -1 if none */
    char kernel_log[160]; /* what the kernel would have logged (its message) */
    size_t draws;        /* draw packets checked */
} mesa_cs_check_result;

/* Check a submission. Returns LS_OK when the kernel would accept it and
 * LS_ERR_PARSE (err = EINVAL) or LS_ERR_RANGE (err = ENOENT: a handle or CRTC
 * that does not exist) when it would refuse it, with d naming the packet and
 * the register. patched, when not NULL, receives ib_dw dwords: the IB as the
 * kernel rewrites it with every buffer at GPU address 0 — the tiling flags
 * of each relocated buffer folded into TX_OFFSET_n, RB3D_COLORPITCHn and
 * ZB_DEPTHPITCH (unless the KEEP_TILING_FLAGS flag is set) and SC_HYPERZ_EN's
 * enable cleared without HyperZ ownership. */
ls_status mesa_cs_check(const mesa_cs_submit *s, const mesa_cs_check_options *o,
                        uint32_t *patched, mesa_cs_check_result *r, ls_diag *d);

/* Name of a register the checker knows (safe list or tracked), or NULL. */
const char *mesa_cs_check_reg_name(uint32_t addr);

#ifdef __cplusplus
}
#endif
#endif
