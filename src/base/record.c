/* Recordings for the viewer: writer appenders and a checking reader.
 * Format: include/lockstep/record.h and docs/viewer.md ("Recording format"). */
#include "lockstep/record.h"

#include <stdlib.h>
#include <string.h>


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

void ls_rec_varint(ls_buf *b, uint64_t v)
{
    uint8_t x[10];
    size_t k = 0;
    do {
        x[k] = (uint8_t)(v & 0x7f);
        v >>= 7;
        if (v) x[k] |= 0x80;
        k++;
    } while (v);
    ls_buf_append(b, x, k);
}
void ls_rec_svarint(ls_buf *b, int64_t v)
{
    ls_rec_varint(b, ((uint64_t)v << 1) ^ (uint64_t)(v >> 63));
}
void ls_rec_mask_raw(ls_buf *b, uint64_t v, unsigned n)
{
    for (unsigned i = 0; i < (n + 7) / 8; i++) ls_rec_u8(b, (uint8_t)(v >> (8 * i)));
}
void ls_rec_mask(ls_buf *b, uint64_t v, uint64_t ref, unsigned n)
{
    uint64_t x = v ^ ref;
    unsigned k = (unsigned)__builtin_popcountll(x);
    if (k <= (n + 7) / 8) {
        ls_rec_u8(b, (uint8_t)k);
        for (unsigned l = 0; l < 64; l++)
            if ((x >> l) & 1) ls_rec_u8(b, (uint8_t)l);
    } else {
        ls_rec_u8(b, 0xff);
        ls_rec_mask_raw(b, v, n);
    }
}
void ls_rec_floats(ls_buf *b, const uint32_t *v, const uint32_t *ref, size_t k)
{
    for (size_t j = 0; j < k; j += 2) {
        uint8_t nib = 0;
        for (size_t h = 0; h < 2 && j + h < k; h++) {
            uint32_t x = v[j + h] ^ ref[j + h];
            for (int i = 0; i < 4; i++)
                if ((x >> (8 * i)) & 0xff) nib |= (uint8_t)(1u << (4 * h + (size_t)i));
        }
        ls_rec_u8(b, nib);
    }
    for (size_t j = 0; j < k; j++) {
        uint32_t x = v[j] ^ ref[j];
        for (int i = 0; i < 4; i++)
            if ((x >> (8 * i)) & 0xff) ls_rec_u8(b, (uint8_t)(x >> (8 * i)));
    }
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

ls_status ls_rec_open(ls_rec_reader *r, const void *data, size_t len, ls_diag *d)
{
    memset(r, 0, sizeof *r);
    const uint8_t *p = data;
    if (len < LS_REC_HEADER || memcmp(p, "LSR", 4))
        return ls_diag_set(d, LS_ERR_PARSE, NULL, 0, 0, "not a lockstep recording (no LSR header)");
    r->version = rd16(p + 4);
    r->machine = (ls_rec_machine)rd16(p + 6);
    if (r->version == 1)
        return ls_diag_set(d, LS_ERR_UNSUPPORTED, NULL, 0, 0,
                           "recording version 1 (written by an older lockstep); this lockstep reads "
                           "version %d: record the run again",
                           LS_REC_VERSION);
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

/* A bounds-checked cursor over one payload; the first problem is kept. */
typedef struct cur {
    const uint8_t *p;
    size_t n, i;
    bool bad;
    const char *why;
} cur;
static void fail(cur *c, const char *why)
{
    if (!c->bad) c->why = why;
    c->bad = true;
}
static const uint8_t *take(cur *c, size_t k)
{
    if (c->bad || k > c->n - c->i) {
        fail(c, "record shorter than its fields");
        return NULL;
    }
    const uint8_t *q = c->p + c->i;
    c->i += k;
    return q;
}
static uint8_t g8(cur *c) { const uint8_t *q = take(c, 1); return q ? q[0] : 0; }
static uint32_t g32(cur *c) { const uint8_t *q = take(c, 4); return q ? rd32(q) : 0; }
static uint64_t gvar(cur *c)
{
    uint64_t v = 0;
    for (unsigned k = 0; k < 10; k++) {
        uint8_t x = g8(c);
        if (c->bad) return 0;
        if (k == 9 && x > 1) break;
        v |= (uint64_t)(x & 0x7f) << (7 * k);
        if (!(x & 0x80)) return v;
    }
    fail(c, "varint longer than 64 bits");
    return 0;
}
static int64_t gsvar(cur *c)
{
    uint64_t u = gvar(c);
    return (int64_t)(u >> 1) ^ -(int64_t)(u & 1);
}
static uint64_t gmask_raw(cur *c, unsigned n)
{
    uint64_t v = 0;
    const uint8_t *q = take(c, (n + 7) / 8);
    if (!q) return 0;
    for (unsigned i = 0; i < (n + 7) / 8; i++) v |= (uint64_t)q[i] << (8 * i);
    uint64_t lanes = n >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << n) - 1;
    if (v & ~lanes) fail(c, "mask names a lane outside the thread");
    return v;
}
static uint64_t gmask(cur *c, uint64_t ref, unsigned n)
{
    unsigned k = g8(c);
    if (c->bad) return 0;
    if (k == 0xff) return gmask_raw(c, n);
    if (k > 64) {
        fail(c, "mask with a bad count");
        return 0;
    }
    int prev = -1;
    for (unsigned j = 0; j < k && !c->bad; j++) {
        unsigned l = g8(c);
        if (c->bad) break;
        if ((int)l <= prev || l >= n) {
            fail(c, "mask lanes not increasing or outside the thread");
            break;
        }
        prev = (int)l;
        ref ^= (uint64_t)1 << l;
    }
    return ref;
}
/* k values into out[j] = ref[j] ^ xor; out and ref may be the same. */
static void gfloats(cur *c, uint32_t *out, const uint32_t *ref, size_t k)
{
    const uint8_t *nib = take(c, (k + 1) / 2);
    if (!nib) return;
    if ((k & 1) && (nib[k / 2] >> 4)) {
        fail(c, "float block with bits in its unused nibble");
        return;
    }
    for (size_t j = 0; j < k; j++) {
        unsigned m = (nib[j / 2] >> (4 * (j & 1))) & 15;
        uint32_t x = 0;
        for (int i = 0; i < 4; i++)
            if ((m >> i) & 1) x |= (uint32_t)g8(c) << (8 * i);
        if (c->bad) return;
        out[j] = ref[j] ^ x;
    }
}

static ls_status bad(ls_diag *d, const ls_rec_record *rec, const char *what)
{
    ls_diag_set(d, LS_ERR_PARSE, NULL, 0, 0, "record (tag %u) at byte %zu: %s", (unsigned)rec->tag,
                rec->offset, what);
    ls_diag_at_offset(d, (long)rec->offset);
    return LS_ERR_PARSE;
}
static ls_status bad_at(ls_diag *d, size_t offset, const char *what)
{
    ls_rec_record r = {LS_REC_R500_THREAD, NULL, 0, offset};
    return bad(d, &r, what);
}

/* Lane blocks: u8 k, k × (u8 file, u8 reg, u8 ch, u8 r <= 64, n values,
 * lane l XOR lane l-r, XOR 0 where r = 0 or l < r); temps (file 0, reg
 * below ntemps) into regs->temp, outputs (file 1 reg 0..3, file 2 W) into
 * out/w. */
static void gblocks(cur *c, bool temps, unsigned n, unsigned ntemps, uint32_t (*temp)[4][LS_REC_MAX_LANES],
                    uint32_t (*out)[4][LS_REC_MAX_LANES], uint32_t *w)
{
    unsigned k = g8(c);
    for (unsigned j = 0; j < k && !c->bad; j++) {
        unsigned file = g8(c), reg = g8(c), ch = g8(c), r = g8(c);
        if (c->bad) return;
        bool ok = temps ? file == 0 && reg < ntemps && ch < 4
                        : (file == 1 && reg < 4 && ch < 4) || (file == 2 && reg == 0 && ch == 0);
        if (!ok) {
            fail(c, temps ? "initial value of no temp" : "final value of no output register");
            return;
        }
        if (r > 64) {
            fail(c, "lane block reference beyond 64 lanes");
            return;
        }
        uint32_t *dst = file == 0 ? temp[reg][ch] : file == 1 ? out[reg][ch] : w;
        uint32_t v[LS_REC_MAX_LANES];
        static const uint32_t zero[LS_REC_MAX_LANES];
        gfloats(c, v, zero, n);
        if (c->bad) return;
        for (unsigned l = 0; l < n; l++) dst[l] = v[l] ^ (r && l >= r ? dst[l - r] : 0);
    }
}

ls_status ls_rec_r500_begin(ls_rec_r500_cursor *k, const ls_rec_record *rec, ls_diag *d)
{
    memset(k, 0, sizeof *k);
    k->offset = rec->offset;
    cur c = {rec->data, rec->len, 0, false, NULL};
    uint64_t t = gvar(&c);
    unsigned n = g8(&c);
    if (c.bad) return bad(d, rec, "short thread record");
    if (t > UINT32_MAX) return bad(d, rec, "thread number beyond 32 bits");
    if (n < 1 || n > LS_REC_MAX_LANES) return bad(d, rec, "lanes outside 1..64");
    k->thread = (uint32_t)t;
    k->n = n;
    k->lanes = n == 64 ? ~(uint64_t)0 : ((uint64_t)1 << n) - 1;
    k->covered = gmask_raw(&c, n);
    int64_t x = 0, y = 0;
    for (unsigned l = 0; l < n && !c.bad; l++) {
        x += gsvar(&c);
        y += gsvar(&c);
        if (x < 0 || y < 0 || x > 0xffff || y > 0xffff) fail(&c, "lane pixel outside 0..65535");
        k->px[l] = (uint16_t)x;
        k->py[l] = (uint16_t)y;
    }
    k->ntemps = g8(&c);
    if (!c.bad && k->ntemps > LS_REC_MAX_TEMPS) return bad(d, rec, "more than 128 temps");
    gblocks(&c, true, n, k->ntemps, k->regs.temp, NULL, NULL);
    k->ninst = gvar(&c);
    uint64_t nb = gvar(&c);
    if (c.bad) return bad(d, rec, c.why);
    if (nb > c.n - c.i) return bad(d, rec, "control stream runs past the record");
    if (k->ninst > nb) return bad(d, rec, "more instructions than control bytes");
    k->ctl = c.p + c.i;
    k->ctl_len = (size_t)nb;
    c.i += (size_t)nb;
    gblocks(&c, false, n, 0, NULL, k->fout, k->fw);
    unsigned hv = g8(&c);
    if (c.bad) return bad(d, rec, c.why);
    if (hv > 1) return bad(d, rec, "values flag not 0 or 1");
    k->has_values = hv == 1;
    if (k->has_values) {
        uint64_t vb = gvar(&c);
        if (c.bad) return bad(d, rec, c.why);
        if (vb != c.n - c.i) return bad(d, rec, "values stream size disagrees with the record");
        k->val = c.p + c.i;
        k->val_len = (size_t)vb;
        c.i += (size_t)vb;
    }
    if (c.i != c.n) return bad(d, rec, "thread record size disagrees with its fields");
    return LS_OK;
}

ls_status ls_rec_r500_step(ls_rec_r500_cursor *k, ls_diag *d)
{
    if (k->index >= k->ninst) return bad_at(d, k->offset, "more steps than instructions");
    cur c = {k->ctl, k->ctl_len, k->ctl_pos, false, NULL};
    ls_rec_r500_state *s = &k->st;
    unsigned n = k->n;
    unsigned f = 0;
    if (k->run) {
        k->run--; /* inside a run of plain entries */
    } else {
        f = g8(&c);
        if (f & LS_REC_C_EXT) {
            f |= (unsigned)g8(&c) << 8;
            if (!c.bad && !(f >> 8)) { /* a run: r >= 2 plain entries, this the first */
                unsigned r = g8(&c);
                if (!c.bad && r < 2) fail(&c, "run of fewer than 2 entries");
                if (!c.bad && r > k->ninst - k->index) fail(&c, "run beyond the thread's instructions");
                k->run = r - 1;
                f = 0;
            }
        }
    }
    uint64_t pc = (k->index ? s->pc : (uint64_t)-1) + 1;
    if (f & LS_REC_C_PC) pc = gvar(&c);
    if (!c.bad && pc > 0xffff) fail(&c, "pc beyond 65535");
    s->pc = (unsigned)pc;
    if (f & LS_REC_C_ACTIVE) s->active = gmask(&c, s->active, n);
    if (f & LS_REC_C_BRANCH) s->branch = gmask(&c, s->branch, n);
    if (f & LS_REC_C_BREAK) s->brk = gmask(&c, s->brk, n);
    if (f & LS_REC_C_CONT) s->cont = gmask(&c, s->cont, n);
    if (f & LS_REC_C_COUNTERS) {
        unsigned m = g8(&c);
        if (m == 0x80) {
            for (unsigned l = 0; l < n && !c.bad; l++) s->counters[l] = (s->branch >> l) & 1 ? g8(&c) : 0;
        } else if (m < 0x80) {
            int prev = -1;
            for (unsigned j = 0; j < m && !c.bad; j++) {
                unsigned l = g8(&c), v = g8(&c);
                if (c.bad) break;
                if ((int)l <= prev || l >= n) fail(&c, "counter lanes not increasing or outside the thread");
                else s->counters[l] = (uint8_t)v;
                prev = (int)l;
            }
        } else fail(&c, "counters with a bad count");
    }
    if (f & LS_REC_C_LOOPS) {
        unsigned depth = g8(&c);
        if (!c.bad && depth > LS_REC_MAX_STACK) fail(&c, "loop stack deeper than 16");
        for (unsigned j = 0; j < depth && !c.bad; j++) {
            ls_rec_frame *fr = &s->loop[j];
            if (j >= s->loop_depth) memset(fr, 0, sizeof *fr);
            unsigned fm = g8(&c);
            if (fm >= 0x40 || (fm & 0x21) == 0x21) fail(&c, "loop frame with unknown or clashing field bits");
            if (fm & 32) fr->count--; /* one less (wraps as u32) */
            if (fm & 1) {
                uint64_t v = gvar(&c);
                if (v > UINT32_MAX) fail(&c, "loop count beyond 32 bits");
                fr->count = (uint32_t)v;
            }
            if (fm & 2) {
                int64_t v = gsvar(&c);
                if (v < INT32_MIN || v > INT32_MAX) fail(&c, "loop aL beyond 32 bits");
                fr->al = (int32_t)v;
            }
            if (fm & 4) {
                unsigned v = g8(&c);
                if (v > 1) fail(&c, "is_loop not 0 or 1");
                fr->is_loop = (uint8_t)v;
            }
            if (fm & 8) fr->brk = gmask(&c, fr->brk, n);
            if (fm & 16) fr->cont = gmask(&c, fr->cont, n);
        }
        if (!c.bad) s->loop_depth = depth;
    }
    if (f & LS_REC_C_KILLED) s->killed = gmask(&c, s->killed, n);
    for (int i = 0; i < 4; i++)
        if (f & (LS_REC_C_PRED << i)) s->pred[i] = gmask(&c, s->pred[i], n);
    if (f & LS_REC_C_ALU) s->alu = gmask(&c, s->alu, n);
    if (f & LS_REC_C_AL) {
        int64_t v = gsvar(&c);
        if (v < INT32_MIN || v > INT32_MAX) fail(&c, "aL beyond 32 bits");
        s->al = (int32_t)v;
    }
    if (f & LS_REC_C_ADDRS) {
        unsigned depth = g8(&c);
        if (!c.bad && depth > LS_REC_MAX_STACK) fail(&c, "address stack deeper than 16");
        for (unsigned j = 0; j < depth && !c.bad; j++) {
            uint64_t a = gvar(&c);
            if (a > 0xffff) fail(&c, "return address beyond 65535");
            s->addr[j] = (uint16_t)a;
        }
        if (!c.bad) s->addr_depth = depth;
    }
    if (c.bad) return bad_at(d, k->offset, c.why);
    k->ctl_pos = c.i;
    k->nwrites = 0;
    if (k->has_values) {
        cur v = {k->val, k->val_len, k->val_pos, false, NULL};
        uint64_t nw = gvar(&v);
        if (!v.bad && nw > LS_REC_MAX_WRITES) fail(&v, "more than 32 writes in one instruction");
        for (unsigned j = 0; j < nw && !v.bad; j++) {
            uint64_t key = gvar(&v);
            unsigned file = (unsigned)(key & 3), ch = (unsigned)(key >> 2) & 3;
            uint64_t reg = key >> 4;
            if (v.bad) break;
            if (file > 2 || (file == 0 && reg >= k->ntemps) || (file == 1 && reg > 3) ||
                (file == 2 && (reg || ch))) {
                fail(&v, "write to no register");
                break;
            }
            uint64_t m = gmask(&v, s->active, n);
            uint32_t *regv = file == 0 ? k->regs.temp[reg][ch] : file == 1 ? k->regs.out[reg][ch] : k->regs.w;
            uint32_t vals[LS_REC_MAX_LANES], ref[LS_REC_MAX_LANES];
            unsigned q = 0;
            for (unsigned l = 0; l < n; l++)
                if ((m >> l) & 1) ref[q++] = regv[l];
            gfloats(&v, vals, ref, q);
            if (v.bad) break;
            q = 0;
            for (unsigned l = 0; l < n; l++)
                if ((m >> l) & 1) regv[l] = vals[q++];
            k->writes[k->nwrites++] = (ls_rec_r500_write){(uint8_t)file, (uint8_t)reg, (uint8_t)ch, m};
        }
        if (v.bad) return bad_at(d, k->offset, v.why);
        k->val_pos = v.i;
    }
    k->index++;
    return LS_OK;
}

ls_status ls_rec_r500_end(const ls_rec_r500_cursor *k, ls_diag *d)
{
    if (k->index != k->ninst || k->run) return bad_at(d, k->offset, "fewer steps than instructions");
    if (k->ctl_pos != k->ctl_len) return bad_at(d, k->offset, "control stream longer than its instructions");
    if (k->has_values && k->val_pos != k->val_len)
        return bad_at(d, k->offset, "values stream longer than its instructions");
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
    ls_rec_r500_cursor *tc = NULL;
    bool any_thread = false;
    uint32_t last_thread = 0;
    uint32_t last_clock = 0;
    bool any_clock = false;
    for (;;) {
        ls_rec_record rec;
        bool more;
        if ((st = ls_rec_next(&r, &rec, &more, d)) != LS_OK || !more) break;
        s->records++;
        cur c = {rec.data, rec.len, 0, false, NULL};
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
            if (!tc && !(tc = malloc(sizeof *tc))) { st = ls_diag_set(d, LS_ERR_NOMEM, NULL, 0, 0, "out of memory"); break; }
            if ((st = ls_rec_r500_begin(tc, &rec, d))) break;
            if (any_thread && tc->thread <= last_thread) { st = bad(d, &rec, "thread numbers do not increase"); break; }
            any_thread = true;
            last_thread = tc->thread;
            for (uint64_t i = 0; i < tc->ninst && !st; i++) {
                st = ls_rec_r500_step(tc, d);
                for (unsigned j = 0; j < tc->nwrites; j++)
                    s->values += (uint64_t)__builtin_popcountll(tc->writes[j].lanes);
            }
            if (st || (st = ls_rec_r500_end(tc, d))) break;
            s->threads++;
            s->value_threads += tc->has_values;
            s->instructions += tc->ninst;
            break;
        }
        default:
            break; /* unknown tags are skipped (newer writers) */
        }
        if (st) break;
    }
    if (!st && s->records == 0) st = ls_diag_set(d, LS_ERR_PARSE, NULL, 0, 0, "recording without records");
    free(tc);
    return st;
}
