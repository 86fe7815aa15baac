/* Diagnostics: see include/lockstep/status.h. */
#include "lockstep/status.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void ls_diag_clear(ls_diag *d)
{
    if (!d)
        return;
    memset(d, 0, sizeof *d);
    d->offset = -1;
    d->index = -1;
}

ls_status ls_diag_vset(ls_diag *d, ls_status st, const char *file, int line, int col,
                       const char *fmt, va_list ap)
{
    if (!d)
        return st;
    ls_diag_clear(d);
    d->status = st;
    if (file)
        snprintf(d->file, sizeof d->file, "%s", file);
    d->line = line;
    d->col = col;
    vsnprintf(d->msg, sizeof d->msg, fmt, ap);
    return st;
}

ls_status ls_diag_set(ls_diag *d, ls_status st, const char *file, int line, int col,
                      const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    ls_status r = ls_diag_vset(d, st, file, line, col, fmt, ap);
    va_end(ap);
    return r;
}

void ls_diag_at_offset(ls_diag *d, long offset)
{
    if (d)
        d->offset = offset;
}

void ls_diag_at_index(ls_diag *d, long index)
{
    if (d)
        d->index = index;
}

size_t ls_diag_format(const ls_diag *d, char *buf, size_t n)
{
    if (!buf || n == 0)
        return 0;
    const char *kind = d->status == LS_ERR_FAULT ? "fault" : d->status == LS_OK ? "warning" : "error";
    int k;
    if (d->file[0] && d->line > 0 && d->col > 0)
        k = snprintf(buf, n, "%s:%d:%d: %s: %s", d->file, d->line, d->col, kind, d->msg);
    else if (d->file[0] && d->line > 0)
        k = snprintf(buf, n, "%s:%d: %s: %s", d->file, d->line, kind, d->msg);
    else if (d->file[0] && d->offset >= 0)
        k = snprintf(buf, n, "%s: byte %ld: %s: %s", d->file, d->offset, kind, d->msg);
    else if (d->file[0] && d->index >= 0)
        k = snprintf(buf, n, "%s: instruction %ld: %s: %s", d->file, d->index, kind, d->msg);
    else if (d->file[0])
        k = snprintf(buf, n, "%s: %s: %s", d->file, kind, d->msg);
    else if (d->index >= 0)
        k = snprintf(buf, n, "instruction %ld: %s: %s", d->index, kind, d->msg);
    else
        k = snprintf(buf, n, "%s: %s", kind, d->msg);
    return k < 0 ? 0 : (size_t)k;
}

const char *ls_status_name(ls_status st)
{
    switch (st) {
    case LS_OK: return "ok";
    case LS_ERR_IO: return "i/o error";
    case LS_ERR_PARSE: return "parse error";
    case LS_ERR_RANGE: return "out of range";
    case LS_ERR_NOMEM: return "out of memory";
    case LS_ERR_ARG: return "bad argument";
    case LS_ERR_UNSUPPORTED: return "unsupported";
    case LS_ERR_FAULT: return "machine fault";
    case LS_ERR_MISMATCH: return "mismatch";
    }
    return "unknown status";
}

void ls_diag_list_init(ls_diag_list *l)
{
    memset(l, 0, sizeof *l);
}

void ls_diag_list_free(ls_diag_list *l)
{
    free(l->items);
    memset(l, 0, sizeof *l);
}

ls_status ls_diag_list_push(ls_diag_list *l, const ls_diag *d)
{
    if (l->count == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 8;
        ls_diag *p = realloc(l->items, cap * sizeof *p);
        if (!p)
            return LS_ERR_NOMEM;
        l->items = p;
        l->cap = cap;
    }
    l->items[l->count++] = *d;
    if (d->status != LS_OK)
        l->errors++;
    return LS_OK;
}
