/* The PP5 IGC microword (seed, Sequencer: "The microcode word is 32 bits
 * wide"), declared once: X(id, assembler name, lsb, width). The assembler and
 * disassembler (uasm.c) and the decoder (igc_internal.h's PP5_UW_* accessors,
 * used by the model's modules and the fast path's pre-decode) are all made
 * from this table. Not a public header. */
#ifndef LOCKSTEP_PP5_UWORD_H
#define LOCKSTEP_PP5_UWORD_H

#define PP5_UFIELDS(X)         \
    X(DIREN, "dir", 0, 1)      \
    X(ACMP, "acmp", 1, 1)      \
    X(AGTSS, "agtss", 2, 1)    \
    X(AGTST, "agtst", 3, 1)    \
    X(CCMP, "ccmp", 4, 1)      \
    X(CGTSC, "cgtsc", 5, 1)    \
    X(BCMP, "bcmp", 6, 1)      \
    X(BGTSE, "bgtse", 7, 1)    \
    X(BGTSM, "bgtsm", 8, 1)    \
    X(LDC, "ldc", 9, 1)        \
    X(LDE, "lde", 10, 1)       \
    X(MWRT, "mwrt", 11, 1)     \
    X(PMA, "pma", 12, 3)       \
    X(TREE, "tree", 15, 2)     \
    X(CNT2, "cnt2", 17, 1)     \
    X(CNT1, "cnt1", 18, 1)     \
    X(BRADDR, "braddr", 19, 9) \
    X(SEQ, "seq", 28, 3)       \
    X(DONE, "done", 31, 1)

/* PP5_UF_<id>_LSB, PP5_UF_<id>_WIDTH */
enum {
#define PP5_UF_ENUM(id, name, lsb, width) PP5_UF_##id##_LSB = (lsb), PP5_UF_##id##_WIDTH = (width),
    PP5_UFIELDS(PP5_UF_ENUM)
#undef PP5_UF_ENUM
};
/* field id of word w */
#define PP5_UF_GET(w, id) (((w) >> PP5_UF_##id##_LSB) & ((1u << PP5_UF_##id##_WIDTH) - 1u))
/* the bit of a one-bit field (or bit k of a wider one) */
#define PP5_UF_BIT(id, k) (1u << (PP5_UF_##id##_LSB + (k)))
#endif
