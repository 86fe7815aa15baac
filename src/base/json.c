#include "json.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct parser {
    const char *s, *end, *file;
    const char *line_start;
    int line;
    ls_diag *d;
} parser;

static int col_of(const parser *p, const char *at)
{
    return (int)(at - p->line_start) + 1;
}

static ls_status fail(parser *p, const char *at, const char *msg, ...)
    __attribute__((format(printf, 3, 4)));
static ls_status fail(parser *p, const char *at, const char *msg, ...)
{
    va_list ap;
    va_start(ap, msg);
    ls_diag_vset(p->d, LS_ERR_PARSE, p->file, p->line, col_of(p, at), msg, ap);
    va_end(ap);
    return LS_ERR_PARSE;
}

static void skip_ws(parser *p)
{
    while (p->s < p->end) {
        char c = *p->s;
        if (c == '\n') {
            p->line++;
            p->line_start = ++p->s;
        } else if (c == ' ' || c == '\t' || c == '\r') {
            p->s++;
        } else {
            break;
        }
    }
}

static ls_json *new_value(parser *p, ls_json_type t)
{
    ls_json *v = calloc(1, sizeof *v);
    if (v) {
        v->type = t;
        v->line = p->line;
        v->col = col_of(p, p->s);
    }
    return v;
}

void ls_json_free(ls_json *v)
{
    if (!v)
        return;
    for (size_t i = 0; i < v->count; i++) {
        ls_json_free(v->items[i]);
        if (v->keys)
            free(v->keys[i]);
    }
    free(v->items);
    free(v->keys);
    free(v->text);
    free(v);
}

static int hexval(char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

static void put_utf8(ls_buf *b, uint32_t cp)
{
    char o[4];
    if (cp < 0x80) {
        o[0] = (char)cp;
        ls_buf_append(b, o, 1);
    } else if (cp < 0x800) {
        o[0] = (char)(0xC0 | (cp >> 6));
        o[1] = (char)(0x80 | (cp & 0x3F));
        ls_buf_append(b, o, 2);
    } else if (cp < 0x10000) {
        o[0] = (char)(0xE0 | (cp >> 12));
        o[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        o[2] = (char)(0x80 | (cp & 0x3F));
        ls_buf_append(b, o, 3);
    } else {
        o[0] = (char)(0xF0 | (cp >> 18));
        o[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
        o[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
        o[3] = (char)(0x80 | (cp & 0x3F));
        ls_buf_append(b, o, 4);
    }
}

static ls_status read_hex4(parser *p, uint32_t *out)
{
    if (p->end - p->s < 4)
        return fail(p, p->s, "truncated \\u escape");
    uint32_t v = 0;
    for (int i = 0; i < 4; i++) {
        int h = hexval(p->s[i]);
        if (h < 0)
            return fail(p, p->s + i, "bad hex digit in \\u escape");
        v = v * 16 + (uint32_t)h;
    }
    p->s += 4;
    *out = v;
    return LS_OK;
}

/* p->s at the opening quote. Decoded string into b. */
static ls_status parse_string_raw(parser *p, ls_buf *b)
{
    const char *start = p->s;
    p->s++;
    for (;;) {
        if (p->s >= p->end)
            return fail(p, start, "unterminated string");
        unsigned char c = (unsigned char)*p->s;
        if (c == '"') {
            p->s++;
            break;
        }
        if (c < 0x20)
            return fail(p, p->s, "control character in string");
        if (c != '\\') {
            ls_buf_append(b, p->s, 1);
            p->s++;
            continue;
        }
        p->s++;
        if (p->s >= p->end)
            return fail(p, start, "unterminated string");
        char e = *p->s++;
        switch (e) {
        case '"': ls_buf_putc(b, '"'); break;
        case '\\': ls_buf_putc(b, '\\'); break;
        case '/': ls_buf_putc(b, '/'); break;
        case 'b': ls_buf_putc(b, '\b'); break;
        case 'f': ls_buf_putc(b, '\f'); break;
        case 'n': ls_buf_putc(b, '\n'); break;
        case 'r': ls_buf_putc(b, '\r'); break;
        case 't': ls_buf_putc(b, '\t'); break;
        case 'u': {
            const char *esc = p->s - 2;
            uint32_t cp;
            ls_status st = read_hex4(p, &cp);
            if (st)
                return st;
            if (cp >= 0xD800 && cp <= 0xDBFF) {
                uint32_t lo;
                if (p->end - p->s < 2 || p->s[0] != '\\' || p->s[1] != 'u')
                    return fail(p, esc, "unpaired surrogate in \\u escape");
                p->s += 2;
                st = read_hex4(p, &lo);
                if (st)
                    return st;
                if (lo < 0xDC00 || lo > 0xDFFF)
                    return fail(p, esc, "bad low surrogate in \\u escape");
                cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
            } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
                return fail(p, esc, "unpaired surrogate in \\u escape");
            }
            if (cp == 0)
                return fail(p, esc, "NUL character in string");
            put_utf8(b, cp);
            break;
        }
        default:
            return fail(p, p->s - 2, "bad escape '\\%c' in string", e);
        }
    }
    if (b->oom)
        return ls_diag_set(p->d, LS_ERR_NOMEM, p->file, p->line, col_of(p, start),
                           "out of memory");
    return LS_OK;
}

static ls_status parse_value(parser *p, ls_json **out, int depth);

static bool match_word(parser *p, const char *w)
{
    size_t n = strlen(w);
    if ((size_t)(p->end - p->s) >= n && memcmp(p->s, w, n) == 0) {
        p->s += n;
        return true;
    }
    return false;
}

static ls_status parse_number(parser *p, ls_json *v)
{
    const char *start = p->s;
    const char *q = p->s;
    if (q < p->end && *q == '-')
        q++;
    if (q >= p->end || !(*q >= '0' && *q <= '9'))
        return fail(p, start, "invalid number");
    if (*q == '0') {
        q++;
    } else {
        while (q < p->end && *q >= '0' && *q <= '9')
            q++;
    }
    if (q < p->end && *q == '.') {
        q++;
        if (q >= p->end || !(*q >= '0' && *q <= '9'))
            return fail(p, q, "digit expected after '.'");
        while (q < p->end && *q >= '0' && *q <= '9')
            q++;
    }
    if (q < p->end && (*q == 'e' || *q == 'E')) {
        q++;
        if (q < p->end && (*q == '+' || *q == '-'))
            q++;
        if (q >= p->end || !(*q >= '0' && *q <= '9'))
            return fail(p, q, "digit expected in exponent");
        while (q < p->end && *q >= '0' && *q <= '9')
            q++;
    }
    size_t n = (size_t)(q - start);
    v->text = malloc(n + 1);
    if (!v->text)
        return ls_diag_set(p->d, LS_ERR_NOMEM, p->file, p->line, col_of(p, start),
                           "out of memory");
    memcpy(v->text, start, n);
    v->text[n] = 0;
    v->text_len = n;
    v->number = strtod(v->text, NULL); /* overflow gives +-HUGE_VAL; kept as is */
    p->s = q;
    return LS_OK;
}

static ls_status push_child(parser *p, ls_json *parent, ls_json *child, char *key)
{
    size_t n = parent->count + 1;
    ls_json **items = realloc(parent->items, n * sizeof *items);
    if (!items)
        goto oom;
    parent->items = items;
    if (parent->type == LS_JSON_OBJECT) {
        char **keys = realloc(parent->keys, n * sizeof *keys);
        if (!keys)
            goto oom;
        parent->keys = keys;
        keys[n - 1] = key;
    }
    items[n - 1] = child;
    parent->count = n;
    return LS_OK;
oom:
    ls_json_free(child);
    free(key);
    return ls_diag_set(p->d, LS_ERR_NOMEM, p->file, p->line, 0, "out of memory");
}

static ls_status parse_container(parser *p, ls_json *v, int depth)
{
    bool is_obj = v->type == LS_JSON_OBJECT;
    char close = is_obj ? '}' : ']';
    p->s++; /* opening bracket */
    skip_ws(p);
    if (p->s < p->end && *p->s == close) {
        p->s++;
        return LS_OK;
    }
    for (;;) {
        char *key = NULL;
        skip_ws(p);
        if (is_obj) {
            if (p->s >= p->end)
                return fail(p, p->s, "unexpected end of input in object");
            if (*p->s != '"')
                return fail(p, p->s, "expected a string key in object");
            ls_buf kb;
            ls_buf_init(&kb);
            ls_status st = parse_string_raw(p, &kb);
            if (st) {
                ls_buf_free(&kb);
                return st;
            }
            if (!kb.data)
                ls_buf_append(&kb, "", 0);
            if (kb.oom) {
                ls_buf_free(&kb);
                return ls_diag_set(p->d, LS_ERR_NOMEM, p->file, p->line, 0, "out of memory");
            }
            key = kb.data;
            skip_ws(p);
            if (p->s >= p->end || *p->s != ':') {
                free(key);
                return fail(p, p->s, "expected ':' after object key");
            }
            p->s++;
        }
        ls_json *child = NULL;
        ls_status st = parse_value(p, &child, depth + 1);
        if (st) {
            free(key);
            return st;
        }
        st = push_child(p, v, child, key);
        if (st)
            return st;
        skip_ws(p);
        if (p->s >= p->end)
            return fail(p, p->s, "unexpected end of input in %s", is_obj ? "object" : "array");
        if (*p->s == ',') {
            p->s++;
            continue;
        }
        if (*p->s == close) {
            p->s++;
            return LS_OK;
        }
        return fail(p, p->s, "expected ',' or '%c'", close);
    }
}

static ls_status parse_value(parser *p, ls_json **out, int depth)
{
    *out = NULL;
    skip_ws(p);
    if (depth > LS_JSON_MAX_DEPTH)
        return fail(p, p->s, "nesting deeper than %d levels", LS_JSON_MAX_DEPTH);
    if (p->s >= p->end)
        return fail(p, p->s, "unexpected end of input, value expected");
    char c = *p->s;
    ls_json *v = NULL;
    ls_status st = LS_OK;
    switch (c) {
    case '{':
    case '[':
        v = new_value(p, c == '{' ? LS_JSON_OBJECT : LS_JSON_ARRAY);
        if (!v)
            break;
        st = parse_container(p, v, depth);
        break;
    case '"': {
        v = new_value(p, LS_JSON_STRING);
        if (!v)
            break;
        ls_buf b;
        ls_buf_init(&b);
        st = parse_string_raw(p, &b);
        if (!st && !b.data)
            ls_buf_append(&b, "", 0);
        if (!st && b.oom)
            st = ls_diag_set(p->d, LS_ERR_NOMEM, p->file, p->line, 0, "out of memory");
        if (st) {
            ls_buf_free(&b);
        } else {
            v->text = b.data;
            v->text_len = b.len;
        }
        break;
    }
    case 't':
    case 'f':
    case 'n':
        v = new_value(p, c == 'n' ? LS_JSON_NULL : LS_JSON_BOOL);
        if (!v)
            break;
        if (match_word(p, "true"))
            v->boolean = true;
        else if (match_word(p, "false"))
            v->boolean = false;
        else if (!match_word(p, "null"))
            st = fail(p, p->s, "unknown literal");
        else if (v->type != LS_JSON_NULL)
            st = fail(p, p->s, "unknown literal");
        break;
    default:
        if (c == '-' || (c >= '0' && c <= '9')) {
            v = new_value(p, LS_JSON_NUMBER);
            if (!v)
                break;
            st = parse_number(p, v);
        } else {
            return fail(p, p->s, "unexpected character '%c'",
                        (c >= 0x20 && c < 0x7f) ? c : '?');
        }
    }
    if (!v)
        return ls_diag_set(p->d, LS_ERR_NOMEM, p->file, p->line, 0, "out of memory");
    if (st) {
        ls_json_free(v);
        return st;
    }
    *out = v;
    return LS_OK;
}

ls_status ls_json_parse(const char *text, size_t len, const char *file, ls_json **out,
                        ls_diag *d)
{
    parser p = {text, text + len, file, text, 1, d};
    *out = NULL;
    /* Skip a UTF-8 byte-order mark. */
    if (len >= 3 && (unsigned char)text[0] == 0xEF && (unsigned char)text[1] == 0xBB &&
        (unsigned char)text[2] == 0xBF)
        p.s += 3;
    ls_json *v;
    ls_status st = parse_value(&p, &v, 0);
    if (st)
        return st;
    skip_ws(&p);
    if (p.s != p.end) {
        ls_json_free(v);
        return fail(&p, p.s, "trailing characters after the JSON value");
    }
    *out = v;
    return LS_OK;
}

const ls_json *ls_json_get(const ls_json *obj, const char *key)
{
    if (!obj || obj->type != LS_JSON_OBJECT)
        return NULL;
    const ls_json *found = NULL;
    for (size_t i = 0; i < obj->count; i++)
        if (strcmp(obj->keys[i], key) == 0)
            found = obj->items[i];
    return found;
}

const char *ls_json_type_name(ls_json_type t)
{
    switch (t) {
    case LS_JSON_NULL: return "null";
    case LS_JSON_BOOL: return "boolean";
    case LS_JSON_NUMBER: return "number";
    case LS_JSON_STRING: return "string";
    case LS_JSON_ARRAY: return "array";
    case LS_JSON_OBJECT: return "object";
    }
    return "?";
}

bool ls_json_int(const ls_json *v, int64_t lo, int64_t hi, int64_t *out)
{
    if (!v || v->type != LS_JSON_NUMBER)
        return false;
    double x = v->number;
    if (!(x >= (double)lo && x <= (double)hi) || x != floor(x))
        return false;
    *out = (int64_t)x;
    return true;
}

void ls_json_write_string(ls_buf *b, const char *s)
{
    ls_buf_putc(b, '"');
    for (const unsigned char *q = (const unsigned char *)s; *q; q++) {
        switch (*q) {
        case '"': ls_buf_puts(b, "\\\""); break;
        case '\\': ls_buf_puts(b, "\\\\"); break;
        case '\n': ls_buf_puts(b, "\\n"); break;
        case '\r': ls_buf_puts(b, "\\r"); break;
        case '\t': ls_buf_puts(b, "\\t"); break;
        default:
            if (*q < 0x20)
                ls_buf_printf(b, "\\u%04x", *q);
            else
                ls_buf_putc(b, (char)*q);
        }
    }
    ls_buf_putc(b, '"');
}

void ls_json_write_float(ls_buf *b, float f)
{
    if (!isfinite(f)) {
        ls_buf_puts(b, "null");
        return;
    }
    char tmp[48];
    for (int prec = 6; prec <= 9; prec++) {
        snprintf(tmp, sizeof tmp, "%.*g", prec, (double)f);
        if (strtof(tmp, NULL) == f)
            break;
    }
    ls_buf_puts(b, tmp);
}

void ls_json_write_double(ls_buf *b, double x)
{
    if (!isfinite(x)) {
        ls_buf_puts(b, "null");
        return;
    }
    char tmp[48];
    for (int prec = 15; prec <= 17; prec++) {
        snprintf(tmp, sizeof tmp, "%.*g", prec, x);
        if (strtod(tmp, NULL) == x)
            break;
    }
    ls_buf_puts(b, tmp);
}
