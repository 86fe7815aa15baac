/* Text values (include/lockstep/values.h): the one parser of integers,
 * sizes and number lists for the library's text settings and the CLI. */
#include "lockstep/values.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

bool ls_parse_long(const char *s, long lo, long hi, long *out)
{
    if (!s || !*s)
        return false;
    char *end;
    errno = 0;
    long v = strtol(s, &end, 0);
    if (errno || *end || v < lo || v > hi)
        return false;
    *out = v;
    return true;
}

bool ls_parse_pair(const char *s, char sep, long lo, long hi, int *a, int *b)
{
    if (!s)
        return false;
    const char *x = strchr(s, sep);
    char tmp[32];
    size_t n = x ? (size_t)(x - s) : 0;
    if (n == 0 || n >= sizeof tmp)
        return false;
    memcpy(tmp, s, n);
    tmp[n] = 0;
    long va, vb;
    if (!ls_parse_long(tmp, lo, hi, &va) || !ls_parse_long(x + 1, lo, hi, &vb))
        return false;
    *a = (int)va;
    *b = (int)vb;
    return true;
}

bool ls_parse_size(const char *s, int *w, int *h) { return ls_parse_pair(s, 'x', 1, 16384, w, h); }

int ls_parse_floats(const char *s, float *out, int max)
{
    int n = 0;
    const char *p = s;
    if (!p || !*p)
        return -1;
    for (;;) {
        char *end;
        errno = 0;
        float v = strtof(p, &end);
        if (end == p || errno == ERANGE || n == max)
            return -1;
        out[n++] = v;
        p = end;
        if (*p == 0)
            return n;
        if (*p != ',')
            return -1;
        p++;
    }
}
