/* ls_buf is public: include/lockstep/buf.h. */
#ifndef LOCKSTEP_BASE_BUF_H
#define LOCKSTEP_BASE_BUF_H
#include "lockstep/buf.h"

#include <stddef.h>

/* A block of n bytes for an image, released with free(): one of 2 MB or more
 * starts on a 2 MB boundary and is advised to the kernel as wanting 2 MB pages
 * (transparent huge pages in "madvise" mode): fewer page faults on its first
 * writes and fewer TLB misses on every pass over it. NULL when out of memory. */
void *ls_alloc_image(size_t n);

/* p[0..n-1] = 0 for n a multiple of 16, with 16-byte stores where the host
 * has them: for the small blocks cleared once per thread (GCC makes a
 * memset of a fixed size of a few hundred bytes a `rep stos`, which costs
 * more at these sizes; it would make this loop one too if it knew the value
 * stored is zero). */
#if defined(__SSE2__)
#include <emmintrin.h>
static inline void ls_zero16(void *p, size_t n)
{
    __m128i z = _mm_setzero_si128();
    __asm__("" : "+x"(z)); /* not known as zero: the loop stays stores */
    for (size_t i = 0; i < n; i += 16)
        _mm_storeu_si128((__m128i *)((char *)p + i), z);
}
#else
#include <string.h>
static inline void ls_zero16(void *p, size_t n)
{
    memset(p, 0, n);
}
#endif

#endif
