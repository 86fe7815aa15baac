/* A small JSON reader (DOM with source positions) and writer helpers.
 * Hand-written so that every error names file:line:col and hostile input
 * (deep nesting, huge numbers, bad UTF-8 escapes) is a diagnostic, never a
 * crash. Numbers keep their source text, so hex-looking strings and exact
 * decimal spellings are never lost. */
#ifndef LOCKSTEP_JSON_H
#define LOCKSTEP_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "buf.h"
#include "lockstep/status.h"

typedef enum ls_json_type {
    LS_JSON_NULL,
    LS_JSON_BOOL,
    LS_JSON_NUMBER,
    LS_JSON_STRING,
    LS_JSON_ARRAY,
    LS_JSON_OBJECT,
} ls_json_type;

typedef struct ls_json ls_json;
struct ls_json {
    ls_json_type type;
    int line, col;      /* position of the value's first character */
    bool boolean;
    double number;
    char *text;         /* STRING: decoded UTF-8 (NUL-terminated); NUMBER: source spelling */
    size_t text_len;
    size_t count;       /* ARRAY/OBJECT: number of children */
    ls_json **items;    /* children */
    char **keys;        /* OBJECT: keys, parallel to items */
};

#define LS_JSON_MAX_DEPTH 200

/* Parse text[0..len). file names the input in diagnostics. */
ls_status ls_json_parse(const char *text, size_t len, const char *file, ls_json **out,
                        ls_diag *d);
void ls_json_free(ls_json *v);

/* Object member by key (last one wins), or NULL. */
const ls_json *ls_json_get(const ls_json *obj, const char *key);
const char *ls_json_type_name(ls_json_type t);

/* Integer value of a NUMBER that is integral and within [lo, hi]; false otherwise. */
bool ls_json_int(const ls_json *v, int64_t lo, int64_t hi, int64_t *out);

/* Writer helpers: escape a string as a JSON string literal (with quotes). */
void ls_json_write_string(ls_buf *b, const char *s);
/* Shortest decimal that round-trips a float32 / double; NaN and infinities
 * (not valid JSON) are written as null. */
void ls_json_write_float(ls_buf *b, float f);
void ls_json_write_double(ls_buf *b, double x);

#endif
