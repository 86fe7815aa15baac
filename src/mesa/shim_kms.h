/* The fake device's mode-setting side (src/mesa/shim_kms.c), inside the
 * shim (src/mesa/shim.c). */
#ifndef LOCKSTEP_SHIM_KMS_H
#define LOCKSTEP_SHIM_KMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* A core DRM ioctl of the display (nr = _IOC_NR): true if it is one, with
 * its return value (-1 and errno on failure) in *ret. */
bool shim_kms_ioctl(unsigned nr, void *arg, int *ret);
/* read() on the device: the next pending event (*handled true), else
 * *handled false (the caller reads as before). */
ssize_t shim_kms_read(void *buf, size_t n, bool *handled);

/* From shim.c: buffer object `handle`'s memory (a memfd) and size; 0, or -1
 * if there is no such object. */
int shim_bo_memfd(uint32_t handle, int *memfd, uint64_t *size);

#endif
