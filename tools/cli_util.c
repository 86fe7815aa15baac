#include "cli.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

int cli_report(const ls_diag *d)
{
    char line[1024];
    ls_diag_format(d, line, sizeof line);
    fprintf(stderr, "lockstep: %s\n", line);
    if (d->source_line[0]) {
        fprintf(stderr, "  %s\n", d->source_line);
        if (d->col > 0) {
            fprintf(stderr, "  ");
            for (int i = 1; i < d->col && d->source_line[i - 1]; i++)
                fputc(d->source_line[i - 1] == '\t' ? '\t' : ' ', stderr);
            fprintf(stderr, "^\n");
        }
    }
    return CLI_FAIL;
}

int cli_usage_error(const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "lockstep: error: ");
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\n");
    return CLI_USAGE;
}

int cli_write_file(const char *path, const ls_buf *b)
{
    if (b->oom) {
        fprintf(stderr, "lockstep: error: out of memory building %s\n", path);
        return CLI_FAIL;
    }
    if (strcmp(path, "-") == 0) {
        if (b->len)
            fwrite(b->data, 1, b->len, stdout);
        return fflush(stdout) == 0 ? CLI_OK : CLI_FAIL;
    }
    FILE *f = fopen(path, "wb");
    if (!f) {
        fprintf(stderr, "lockstep: %s: error: cannot open for writing: %s\n", path,
                strerror(errno));
        return CLI_FAIL;
    }
    size_t w = b->len ? fwrite(b->data, 1, b->len, f) : 0;
    if (fclose(f) != 0 || w != b->len) {
        fprintf(stderr, "lockstep: %s: error: write failed\n", path);
        return CLI_FAIL;
    }
    return CLI_OK;
}

bool cli_parse_int(const char *s, long lo, long hi, long *out)
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

bool cli_parse_size(const char *s, int *w, int *h)
{
    if (!s)
        return false;
    const char *x = strchr(s, 'x');
    if (!x)
        return false;
    char tmp[32];
    size_t n = (size_t)(x - s);
    if (n == 0 || n >= sizeof tmp)
        return false;
    memcpy(tmp, s, n);
    tmp[n] = 0;
    long a, b;
    if (!cli_parse_int(tmp, 1, 16384, &a) || !cli_parse_int(x + 1, 1, 16384, &b))
        return false;
    *w = (int)a;
    *h = (int)b;
    return true;
}

int cli_parse_floats(const char *s, float *out, int max)
{
    int n = 0;
    const char *p = s;
    if (!p || !*p)
        return -1;
    for (;;) {
        char *end;
        errno = 0;
        float v = strtof(p, &end);
        if (end == p || errno == ERANGE)
            return -1;
        if (n == max)
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
