/* A growable byte buffer. Library code that produces text (JSON, VCD,
 * disassembly, traces) appends to one of these; the caller writes it out.
 *
 *     ls_buf b;
 *     ls_buf_init(&b);
 *     r500_disasm(words, count, NULL, &b);
 *     fwrite(b.data, 1, b.len, stdout);   // b.data is NUL-terminated
 *     ls_buf_free(&b);
 */
#ifndef LOCKSTEP_BUF_H
#define LOCKSTEP_BUF_H

#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ls_buf {
    char *data;   /* always NUL-terminated when non-NULL */
    size_t len, cap;
    bool oom;     /* set once an allocation failed; later appends are dropped */
} ls_buf;

void ls_buf_init(ls_buf *b);
void ls_buf_free(ls_buf *b);
void ls_buf_reset(ls_buf *b);
void ls_buf_append(ls_buf *b, const void *p, size_t n);
void ls_buf_puts(ls_buf *b, const char *s);
void ls_buf_putc(ls_buf *b, char c);
void ls_buf_printf(ls_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Read a whole file. Returns false (with errno set) on failure. */
bool ls_read_file(const char *path, ls_buf *out);

#ifdef __cplusplus
}
#endif
#endif
