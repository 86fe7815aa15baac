/* VCD writer: see vcd.h. */
#include "base/vcd.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

static void make_id(size_t i, char id[8])
{
    /* printable identifier codes '!'..'~' (94 symbols), base 94 */
    int k = 0;
    do {
        id[k++] = (char)('!' + i % 94);
        i /= 94;
    } while (i && k < 7);
    id[k] = 0;
}

int ls_vcd_begin(ls_vcd *v, ls_buf *out, const char *timescale, const char *scope, size_t n,
                 const char *const *names, const int *widths)
{
    memset(v, 0, sizeof *v);
    v->out = out;
    v->n = n;
    v->width = calloc(n ? n : 1, sizeof *v->width);
    v->last = calloc(n ? n : 1, sizeof *v->last);
    v->id = calloc(n ? n : 1, sizeof *v->id);
    if (!v->width || !v->last || !v->id) {
        free(v->width);
        free(v->last);
        free(v->id);
        memset(v, 0, sizeof *v);
        return -1;
    }
    ls_buf_printf(out, "$date lockstep $end\n$version lockstep VCD writer $end\n");
    ls_buf_printf(out, "$timescale %s $end\n$scope module %s $end\n", timescale, scope);
    for (size_t i = 0; i < n; i++) {
        v->width[i] = widths[i] < 1 ? 1 : widths[i] > 64 ? 64 : widths[i];
        make_id(i, v->id[i]);
        char nm[64];
        size_t k = 0;
        for (const char *p = names[i]; *p && k < sizeof nm - 1; p++)
            nm[k++] = isalnum((unsigned char)*p) ? *p : '_';
        nm[k] = 0;
        if (v->width[i] == 1)
            ls_buf_printf(out, "$var wire 1 %s %s $end\n", v->id[i], nm);
        else
            ls_buf_printf(out, "$var wire %d %s %s [%d:0] $end\n", v->width[i], v->id[i], nm,
                          v->width[i] - 1);
    }
    ls_buf_puts(out, "$upscope $end\n$enddefinitions $end\n");
    return 0;
}

static void put_value(ls_vcd *v, size_t i, uint64_t x)
{
    if (v->width[i] == 1) {
        ls_buf_printf(v->out, "%c%s\n", (x & 1) ? '1' : '0', v->id[i]);
        return;
    }
    char bits[72];
    int k = 0;
    int top = v->width[i] - 1;
    while (top > 0 && !((x >> top) & 1))
        top--;
    for (int b = top; b >= 0; b--)
        bits[k++] = ((x >> b) & 1) ? '1' : '0';
    bits[k] = 0;
    ls_buf_printf(v->out, "b%s %s\n", bits, v->id[i]);
}

void ls_vcd_sample(ls_vcd *v, uint64_t t, const uint64_t *values)
{
    bool first = !v->started;
    bool any = first;
    for (size_t i = 0; i < v->n && !any; i++)
        any = values[i] != v->last[i];
    if (!any)
        return;
    ls_buf_printf(v->out, "#%llu\n", (unsigned long long)t);
    if (first)
        ls_buf_puts(v->out, "$dumpvars\n");
    for (size_t i = 0; i < v->n; i++) {
        uint64_t x = values[i];
        if (v->width[i] < 64)
            x &= (1ull << v->width[i]) - 1;
        if (first || x != v->last[i])
            put_value(v, i, x);
        v->last[i] = x;
    }
    if (first)
        ls_buf_puts(v->out, "$end\n");
    v->started = 1;
}

void ls_vcd_end(ls_vcd *v, uint64_t t)
{
    if (v->out)
        ls_buf_printf(v->out, "#%llu\n", (unsigned long long)t);
    free(v->width);
    free(v->last);
    free(v->id);
    memset(v, 0, sizeof *v);
}
