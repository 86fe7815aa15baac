/* Recordings for the viewer: writer appenders and a checking reader.
 * Format: include/lockstep/record.h and docs/viewer.md ("Recording format"). */
#include "lockstep/record.h"

#include <stdlib.h>
#include <string.h>

enum { MAX_STACK = 16 }; /* R500_FC_MAX_LOOP_DEPTH, R500_FC_MAX_ADDR_DEPTH (r500_fc.h) */
enum { MAX_THREADS_TRACKED = 1 << 24 };

void ls_rec_u8(ls_buf *b, uint8_t v) { ls_buf_append(b, &v, 1); }
void ls_rec_u16(ls_buf *b, uint16_t v)
{
    uint8_t x[2] = {(uint8_t)v, (uint8_t)(v >> 8)};
    ls_buf_append(b, x, 2);
}
void ls_rec_u32(ls_buf *b, uint32_t v)
{
    uint8_t x[4];
    for (int i = 0; i < 4; i++) x[i] = (uint8_t)(v >> (8 * i));
    ls_buf_append(b, x, 4);
}
void ls_rec_u64(ls_buf *b, uint64_t v)
{
    ls_rec_u32(b, (uint32_t)v);
    ls_rec_u32(b, (uint32_t)(v >> 32));
}
void ls_rec_f32(ls_buf *b, float v)
{
    uint32_t u;
    memcpy(&u, &v, 4);
    ls_rec_u32(b, u);
}

void ls_rec_header(ls_buf *b, ls_rec_machine m)
{
    ls_buf_append(b, "LSR", 4); /* with its NUL */
    ls_rec_u16(b, LS_REC_VERSION);
    ls_rec_u16(b, (uint16_t)m);
}

size_t ls_rec_begin(ls_buf *b, ls_rec_tag tag)
{
    size_t start = b->len;
    ls_rec_u8(b, (uint8_t)tag);
    ls_rec_u32(b, 0);
    return start;
}

void ls_rec_end(ls_buf *b, size_t start)
{
    if (b->oom || b->len < start + 5) return;
    size_t n = b->len - start - 5;
    uint32_t v = n > UINT32_MAX ? UINT32_MAX : (uint32_t)n;
    for (int i = 0; i < 4; i++) b->data[start + 1 + (size_t)i] = (char)(uint8_t)(v >> (8 * i));
}

static uint32_t rd32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static uint16_t rd16(const uint8_t *p) { return (uint16_t)(p[0] | p[1] << 8); }
static uint64_t rd64(const uint8_t *p) { return rd32(p) | (uint64_t)rd32(p + 4) << 32; }

ls_status ls_rec_open(ls_rec_reader *r, const void *data, size_t len, ls_diag *d)
{
    memset(r, 0, sizeof *r);
    const uint8_t *p = data;
    if (len < LS_REC_HEADER || memcmp(p, "LSR", 4))
        return ls_diag_set(d, LS_ERR_PARSE, NULL, 0, 0, "not a lockstep recording (no LSR header)");
    r->version = rd16(p + 4);
    r->machine = (ls_rec_machine)rd16(p + 6);
    if (r->version != LS_REC_VERSION)
        return ls_diag_set(d, LS_ERR_UNSUPPORTED, NULL, 0, 0,
                           "recording version %u (this lockstep reads version %d)", r->version,
                           LS_REC_VERSION);
    if (r->machine != LS_REC_PP5 && r->machine != LS_REC_R500)
        return ls_diag_set(d, LS_ERR_PARSE, NULL, 0, 0, "unknown machine %u in the header",
                           (unsigned)r->machine);
    r->p = p;
    r->len = len;
    r->pos = LS_REC_HEADER;
    return LS_OK;
}

ls_status ls_rec_next(ls_rec_reader *r, ls_rec_record *rec, bool *more, ls_diag *d)
{
    *more = false;
    if (r->pos == r->len) return LS_OK;
    if (r->len - r->pos < 5) {
        ls_diag_set(d, LS_ERR_PARSE, NULL, 0, 0, "truncated record header");
        ls_diag_at_offset(d, (long)r->pos);
        return LS_ERR_PARSE;
    }
    uint32_t n = rd32(r->p + r->pos + 1);
    if (n > r->len - r->pos - 5) {
        ls_diag_set(d, LS_ERR_PARSE, NULL, 0, 0, "record of %u bytes runs past the end", n);
        ls_diag_at_offset(d, (long)r->pos);
        return LS_ERR_PARSE;
    }
    rec->tag = (ls_rec_tag)r->p[r->pos];
    rec->len = n;
    rec->data = r->p + r->pos + 5;
    rec->offset = r->pos;
    r->pos += 5 + (size_t)n;
    *more = true;
    return LS_OK;
}

/* A bounds-checked cursor over one payload. */
typedef struct cur {
    const uint8_t *p;
    size_t n, i;
    bool bad;
} cur;
static const uint8_t *take(cur *c, size_t k)
{
    if (c->bad || k > c->n - c->i) {
        c->bad = true;
        return NULL;
    }
    const uint8_t *q = c->p + c->i;
    c->i += k;
    return q;
}
static uint8_t g8(cur *c) { const uint8_t *q = take(c, 1); return q ? q[0] : 0; }
static uint16_t g16(cur *c) { const uint8_t *q = take(c, 2); return q ? rd16(q) : 0; }
static uint32_t g32(cur *c) { const uint8_t *q = take(c, 4); return q ? rd32(q) : 0; }
static uint64_t g64(cur *c) { const uint8_t *q = take(c, 8); return q ? rd64(q) : 0; }

static ls_status bad(ls_diag *d, const ls_rec_record *rec, const char *what)
{
    ls_diag_set(d, LS_ERR_PARSE, NULL, 0, 0, "record (tag %u) at byte %zu: %s", (unsigned)rec->tag,
                rec->offset, what);
    ls_diag_at_offset(d, (long)rec->offset);
    return LS_ERR_PARSE;
}

/* Per-thread lane counts of the R500 threads begun so far (0: not begun);
 * kept sparse as a sorted array would be slower; threads arrive in order
 * from r500_run, but the check must not rely on it: a small open table. */
typedef struct lanes_map {
    uint32_t *key;
    uint8_t *n;
    size_t cap, used;
    bool oom;
} lanes_map;
static size_t hslot(const lanes_map *m, uint32_t k)
{
    size_t h = (size_t)(k * 2654435761u) & (m->cap - 1);
    while (m->n[h] && m->key[h] != k) h = (h + 1) & (m->cap - 1);
    return h;
}
static void map_put(lanes_map *m, uint32_t k, uint8_t n);
static bool map_grow(lanes_map *m)
{
    size_t ncap = m->cap ? m->cap * 2 : 256;
    lanes_map nm = {calloc(ncap, 4), calloc(ncap, 1), ncap, 0, false};
    if (!nm.key || !nm.n) {
        free(nm.key);
        free(nm.n);
        return false;
    }
    for (size_t i = 0; i < m->cap; i++)
        if (m->n[i]) map_put(&nm, m->key[i], m->n[i]);
    free(m->key);
    free(m->n);
    *m = nm;
    return true;
}
static void map_put(lanes_map *m, uint32_t k, uint8_t n)
{
    if ((m->used + 1) * 2 > m->cap && !map_grow(m)) {
        m->oom = true;
        return;
    }
    size_t h = hslot(m, k);
    if (!m->n[h]) m->used++;
    m->key[h] = k;
    m->n[h] = n;
}
static uint8_t map_get(const lanes_map *m, uint32_t k)
{
    if (!m->cap) return 0;
    return m->n[hslot(m, k)];
}

static ls_status check_r500_inst(cur *c, const ls_rec_record *rec, const lanes_map *lm,
                                 ls_rec_summary *s, ls_diag *d)
{
    uint32_t t = g32(c);
    g16(c);
    g8(c);
    uint16_t flags = g16(c);
    if (c->bad) return bad(d, rec, "short instruction record");
    unsigned n = map_get(lm, t);
    if (!n) return bad(d, rec, "instruction of a thread that has not begun");
    uint64_t lanes = n == 64 ? ~(uint64_t)0 : ((uint64_t)1 << n) - 1;
    if (flags & ~(unsigned)LS_REC_F_ALL) return bad(d, rec, "unknown flag bits");
    if (flags & LS_REC_F_ACTIVE) g64(c);
    if (flags & LS_REC_F_KILLED) g64(c);
    if (flags & LS_REC_F_PRED) take(c, 5 * 8);
    if (flags & LS_REC_F_MASKS) take(c, 3 * 8);
    if (flags & LS_REC_F_AL) g32(c);
    if (flags & LS_REC_F_COUNTERS) take(c, n);
    if (flags & LS_REC_F_LOOPS) {
        unsigned k = g8(c);
        if (k > MAX_STACK) return bad(d, rec, "loop stack deeper than 16");
        take(c, (size_t)k * (4 + 4 + 1 + 8 + 8));
    }
    if (flags & LS_REC_F_ADDRS) {
        unsigned k = g8(c);
        if (k > MAX_STACK) return bad(d, rec, "address stack deeper than 16");
        take(c, (size_t)k * 2);
    }
    unsigned nw = g16(c);
    for (unsigned i = 0; i < nw && !c->bad; i++) {
        unsigned file = g8(c), reg = g8(c), ch = g8(c);
        uint64_t m = g64(c);
        if (c->bad) break;
        if (file > 2 || ch > 3 || (file == 0 && reg > 127) || (file == 1 && reg > 3) ||
            (file == 2 && reg))
            return bad(d, rec, "write to no register");
        if (m & ~lanes) return bad(d, rec, "write to a lane outside the thread");
        take(c, 4u * (unsigned)__builtin_popcountll(m));
        s->values += (uint64_t)__builtin_popcountll(m);
    }
    if (c->bad || c->i != c->n) return bad(d, rec, "instruction record size disagrees with its fields");
    s->instructions++;
    return LS_OK;
}

ls_status ls_rec_check(const void *data, size_t len, ls_rec_summary *s, ls_diag *d)
{
    memset(s, 0, sizeof *s);
    ls_rec_reader r;
    ls_status st = ls_rec_open(&r, data, len, d);
    if (st) return st;
    s->machine = r.machine;
    s->version = r.version;
    lanes_map lm = {0};
    uint32_t last_clock = 0;
    bool any_clock = false;
    for (;;) {
        ls_rec_record rec;
        bool more;
        if ((st = ls_rec_next(&r, &rec, &more, d)) != LS_OK || !more) break;
        s->records++;
        cur c = {rec.data, rec.len, 0, false};
        if (s->records == 1 && rec.tag != LS_REC_META) {
            st = bad(d, &rec, "the first record is not META");
            break;
        }
        switch (rec.tag) {
        case LS_REC_META:
            if (s->records != 1) st = bad(d, &rec, "a second META record");
            s->meta_bytes = rec.len;
            break;
        case LS_REC_PP5_CLOCK:
        case LS_REC_PP5_FIELD: {
            if (r.machine != LS_REC_PP5) { st = bad(d, &rec, "a PP5 record in an R500 recording"); break; }
            uint32_t clk = g32(&c);
            if (c.bad) { st = bad(d, &rec, "short record"); break; }
            if (any_clock && clk < last_clock) { st = bad(d, &rec, "clock goes back"); break; }
            any_clock = true;
            last_clock = clk;
            if (rec.tag == LS_REC_PP5_CLOCK) {
                unsigned k = g8(&c);
                take(&c, (size_t)k * 5);
                if (c.bad || c.i != c.n) st = bad(d, &rec, "clock record size disagrees with its count");
                s->clocks++;
                break;
            }
            g8(&c);
            unsigned bytes = g8(&c), mode = g8(&c);
            uint32_t np = g32(&c);
            if (c.bad) { st = bad(d, &rec, "short field record"); break; }
            if (bytes != 1 && bytes != 2 && bytes != 4) { st = bad(d, &rec, "value size not 1, 2 or 4"); break; }
            if (mode == LS_REC_PP5_DENSE) take(&c, (size_t)np * bytes);
            else if (mode == LS_REC_PP5_BITS) {
                if (bytes != 1) { st = bad(d, &rec, "bit plane with values wider than 1 byte"); break; }
                take(&c, ((size_t)np + 7) / 8);
            } else if (mode == LS_REC_PP5_SPARSE) {
                uint32_t k = g32(&c);
                int64_t prev = -1;
                for (uint32_t i = 0; i < k && !c.bad; i++) {
                    uint32_t p = g32(&c);
                    take(&c, bytes);
                    if (!c.bad && ((int64_t)p <= prev || p >= np)) { c.bad = true; break; }
                    prev = p;
                }
            } else if (mode == LS_REC_PP5_XOR) {
                unsigned k = g8(&c);
                for (unsigned i = 0; i < k && !c.bad; i++) {
                    if (g8(&c) >= 8u * bytes) { st = bad(d, &rec, "changed bit beyond the value size"); break; }
                    take(&c, ((size_t)np + 7) / 8);
                }
                if (st) break;
            } else { st = bad(d, &rec, "unknown field mode"); break; }
            if (c.bad || c.i != c.n) st = bad(d, &rec, "field record size disagrees with its counts");
            s->field_records++;
            break;
        }
        case LS_REC_R500_THREAD: {
            if (r.machine != LS_REC_R500) { st = bad(d, &rec, "an R500 record in a PP5 recording"); break; }
            uint32_t t = g32(&c);
            unsigned n = g8(&c);
            uint64_t cov = g64(&c);
            if (c.bad) { st = bad(d, &rec, "short thread record"); break; }
            if (n < 1 || n > LS_REC_MAX_LANES) { st = bad(d, &rec, "lanes outside 1..64"); break; }
            if (n < 64 && (cov >> n)) { st = bad(d, &rec, "covered lanes outside the thread"); break; }
            take(&c, (size_t)n * 4);
            unsigned nt = g8(&c);
            if (nt > 128) { st = bad(d, &rec, "more than 128 temps"); break; }
            take(&c, (size_t)nt * 4 * n * 4);
            if (c.bad || c.i != c.n) { st = bad(d, &rec, "thread record size disagrees with its counts"); break; }
            if (map_get(&lm, t)) { st = bad(d, &rec, "a thread begins twice"); break; }
            if (s->threads >= MAX_THREADS_TRACKED) { st = bad(d, &rec, "too many threads"); break; }
            map_put(&lm, t, (uint8_t)n);
            if (lm.oom) { st = ls_diag_set(d, LS_ERR_NOMEM, NULL, 0, 0, "out of memory"); break; }
            s->threads++;
            break;
        }
        case LS_REC_R500_INST:
            if (r.machine != LS_REC_R500) { st = bad(d, &rec, "an R500 record in a PP5 recording"); break; }
            st = check_r500_inst(&c, &rec, &lm, s, d);
            break;
        default:
            break; /* unknown tags are skipped (newer writers) */
        }
        if (st) break;
    }
    if (!st && s->records == 0) st = ls_diag_set(d, LS_ERR_PARSE, NULL, 0, 0, "recording without records");
    free(lm.key);
    free(lm.n);
    return st;
}
