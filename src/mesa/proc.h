/* Child processes and files of the Mesa harness (piglit_run.c, r300_run.c):
 * the GL program lockstep-mesa-gl runs as a child, with its output in a log
 * file, and hands images back as raw files. Library code: never prints. */
#ifndef LOCKSTEP_MESA_PROC_H
#define LOCKSTEP_MESA_PROC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/buf.h"
#include "lockstep/status.h"

/* Run argv (argv[0] found on $PATH if it has no '/') with the caller's
 * environment minus LD_PRELOAD, LIBGL_ALWAYS_SOFTWARE, GALLIUM_DRIVER,
 * MESA_LOADER_DRIVER_OVERRIDE, LIBGL_DRIVERS_PATH (the r300 runs set it from
 * --mesa-drivers) and LOCKSTEP_SHIM_* (but LOCKSTEP_SHIM_TRACE, which only
 * asks for a trace) and the variables extra_env sets, plus extra_env (NULL-
 * terminated); stdout and stderr appended to log (NULL: inherited). Returns
 * the exit status, 128 + the signal, or -1 if it could not start. */
int mesa_spawn_wait(char *const argv[], char *const extra_env[], const char *log);
/* rm -rf dir */
void mesa_rm_tree(const char *dir);
/* Remove dir/lockstep-shim-* (the sysfs mirror a crashed shim leaves). */
void mesa_rm_shim_mirrors(const char *dir);
/* The first line of log containing one of prefixes (from the prefix on, no
 * newline) into out. */
bool mesa_log_line(const char *log, const char *const *prefixes, char *out, size_t n);
/* A float32 RGBA image of exactly w*h pixels (bottom row first); *rgba malloc'd. */
ls_status mesa_read_rawf(const char *path, int w, int h, float **rgba, ls_diag *d);
/* Append a file's little-endian dwords to *dw (capacity *cap, count *n). */
ls_status mesa_read_dwords(const char *path, uint32_t **dw, size_t *n, size_t *cap, ls_diag *d);

#endif
