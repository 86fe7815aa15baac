/* A stand-in r300_dri.so that dies of SIGSEGV as soon as the loader opens it:
 * the planted "r300 crash" of tests/mesa/check_status.sh (`lockstep mesa check
 * --mesa-drivers DIR` must report the crash class, docs/mesa-fuzz.md). */
#include <signal.h>

__attribute__((constructor)) static void crash_on_load(void) { raise(SIGSEGV); }

/* The loader looks the driver's entry point up after dlopen; never reached. */
void *__driDriverGetExtensions_r300(void);
void *__driDriverGetExtensions_r300(void) { return 0; }
