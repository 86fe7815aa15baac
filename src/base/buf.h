/* ls_buf is public: include/lockstep/buf.h. */
#include "lockstep/buf.h"

#include <stddef.h>

/* A block of n bytes for an image, released with free(): one of 2 MB or more
 * starts on a 2 MB boundary and is advised to the kernel as wanting 2 MB pages
 * (transparent huge pages in "madvise" mode): fewer page faults on its first
 * writes and fewer TLB misses on every pass over it. NULL when out of memory. */
void *ls_alloc_image(size_t n);
