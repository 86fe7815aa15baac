/* Pixel-Planes 5 EMC array: the bit-plane rules both arrays use (the model,
 * emc_ref.c, and the accelerator, src/pp5/accel/emc_*.c), written once. Not a
 * public header. */
#ifndef LOCKSTEP_PP5_MODEL_EMC_BITS_H
#define LOCKSTEP_PP5_MODEL_EMC_BITS_H
#include <stdint.h>

/* The ALU's truth tables as data (A-8…A-10: each result is an 8-entry table
 * of the operands a, b, c; bit 4a+2b+c of t), 64 pixels at a time. */
static inline uint64_t pp5_emc_truth(uint8_t t, uint64_t a, uint64_t b, uint64_t c)
{
    if (t == 0x96) return a ^ b ^ c;
    if (t == 0xE8) return (a & b) | (c & (a | b));
    uint64_t r = 0;
    for (int i = 0; i < 8; i++)
        if (t >> i & 1) r |= ((i & 4) ? a : ~a) & ((i & 2) ? b : ~b) & ((i & 1) ? c : ~c);
    return r;
}

/* An 8×8 bit matrix transposed: byte j bit i -> byte i bit j. */
static inline uint64_t pp5_emc_transpose8(uint64_t x)
{
    uint64_t t;
    t = (x ^ (x >> 7)) & 0x00AA00AA00AA00AAull;
    x = x ^ t ^ (t << 7);
    t = (x ^ (x >> 14)) & 0x0000CCCC0000CCCCull;
    x = x ^ t ^ (t << 14);
    t = (x ^ (x >> 28)) & 0x00000000F0F0F0F0ull;
    x = x ^ t ^ (t << 28);
    return x;
}
#endif
