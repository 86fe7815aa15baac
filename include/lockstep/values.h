/* Values written as text — integers, sizes, lists of numbers — in the one
 * syntax every front end and every text setting of the library uses
 * (r500_job_apply, the lockstep command line: docs/cli.md). */
#ifndef LOCKSTEP_VALUES_H
#define LOCKSTEP_VALUES_H

#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

/* An integer in lo..hi, the whole of s (strtol base 0: 12, 0x1f, 017).
 * False (and *out unchanged) on anything else. */
bool ls_parse_long(const char *s, long lo, long hi, long *out);

/* "AxB" (sep 'x') or "A,B" (sep ','): two integers, each in lo..hi.
 * ls_parse_size is "WxH" with 1..16384 each, the image sizes of lockstep. */
bool ls_parse_pair(const char *s, char sep, long lo, long hi, int *a, int *b);
bool ls_parse_size(const char *s, int *w, int *h);

/* Comma-separated finite-range floats ("1,-0.5,2e3"): at most max of them
 * into out; the count, or -1 when malformed, out of float range or more than
 * max. */
int ls_parse_floats(const char *s, float *out, int max);

#ifdef __cplusplus
}
#endif
#endif
