#include "buf.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if defined(__linux__)
#include <sys/mman.h>
#endif

void ls_buf_init(ls_buf *b)
{
    memset(b, 0, sizeof *b);
}

void ls_buf_free(ls_buf *b)
{
    free(b->data);
    memset(b, 0, sizeof *b);
}

void ls_buf_reset(ls_buf *b)
{
    b->len = 0;
    if (b->data)
        b->data[0] = 0;
}

static bool reserve(ls_buf *b, size_t extra)
{
    if (b->oom)
        return false;
    if (b->len + extra + 1 <= b->cap)
        return true;
    size_t cap = b->cap ? b->cap : 256;
    while (cap < b->len + extra + 1)
        cap *= 2;
    char *p = realloc(b->data, cap);
    if (!p) {
        b->oom = true;
        return false;
    }
    b->data = p;
    b->cap = cap;
    return true;
}

void ls_buf_append(ls_buf *b, const void *p, size_t n)
{
    if (!reserve(b, n))
        return;
    if (n)
        memcpy(b->data + b->len, p, n);
    b->len += n;
    b->data[b->len] = 0;
}

void ls_buf_puts(ls_buf *b, const char *s)
{
    ls_buf_append(b, s, strlen(s));
}

void ls_buf_putc(ls_buf *b, char c)
{
    ls_buf_append(b, &c, 1);
}

void ls_buf_printf(ls_buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0 || !reserve(b, (size_t)n))
        return;
    va_start(ap, fmt);
    vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
}

bool ls_read_file(const char *path, ls_buf *out)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return false;
    ls_buf_reset(out);
    char chunk[65536];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
        ls_buf_append(out, chunk, n);
    bool ok = !ferror(f) && !out->oom;
    fclose(f);
    if (ok && !out->data)
        ls_buf_append(out, "", 0); /* empty file: still a valid, empty string */
    return ok;
}

void *ls_alloc_image(size_t n)
{
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    const size_t huge = (size_t)2 << 20;
    if (n >= huge) {
        const size_t len = (n + huge - 1) & ~(huge - 1);
        void *p = aligned_alloc(huge, len);
        if (p)
            madvise(p, len, MADV_HUGEPAGE);
        return p;
    }
#endif
    return malloc(n ? n : 1);
}
