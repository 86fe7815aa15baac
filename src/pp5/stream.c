/* Host-action streams: parser and runner. */
#include "pp5/stream.h"

#include "pp5/accel/igc_fast.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool grow(pp5_stream *s)
{
    if (s->n < s->cap)
        return true;
    size_t nc = s->cap ? s->cap * 2 : 32;
    pp5_action *na = realloc(s->a, nc * sizeof *na);
    if (!na)
        return false;
    s->a = na;
    s->cap = nc;
    return true;
}

void pp5_stream_free(pp5_stream *s)
{
    free(s->a);
    s->a = NULL;
    s->n = s->cap = 0;
}

void pp5_stream_init(pp5_stream *s, const char *fname)
{
    memset(s, 0, sizeof *s);
    snprintf(s->fname, sizeof s->fname, "%s", fname ? fname : "<stream>");
}

ls_status pp5_stream_append(pp5_stream *s, pp5_action_kind kind, pp5_reg reg, uint32_t value,
                            ls_diag *d)
{
    /* the same limits as the text form */
    bool bad = (unsigned)kind > PP5_ACT_TESTOE || (unsigned)reg > PP5_REG_F ||
               (kind == PP5_ACT_RUN && value > 100000000u) ||
               (kind >= PP5_ACT_ST1 && value > 1);
    if (bad)
        return ls_diag_set(d, LS_ERR_ARG, s->fname, 0, 0,
                           "stream action %u (register %u, value %u) out of range",
                           (unsigned)kind, (unsigned)reg, value);
    if (!grow(s))
        return ls_diag_set(d, LS_ERR_NOMEM, s->fname, 0, 0, "out of memory");
    pp5_action a = {kind, reg, value, 0};
    s->a[s->n++] = a;
    return LS_OK;
}

typedef struct word { const char *p; size_t n; int col; } word;

static bool weq(word w, const char *s)
{
    if (strlen(s) != w.n)
        return false;
    for (size_t i = 0; i < w.n; i++)
        if (tolower((unsigned char)w.p[i]) != tolower((unsigned char)s[i]))
            return false;
    return true;
}

static bool wnum(word w, uint64_t max, uint64_t *out)
{
    char buf[40];
    if (w.n == 0 || w.n >= sizeof buf || !isdigit((unsigned char)w.p[0]))
        return false;
    memcpy(buf, w.p, w.n);
    buf[w.n] = 0;
    char *end;
    unsigned long long v = strtoull(buf, &end, 0);
    if (*end || v > max)
        return false;
    *out = v;
    return true;
}

static int reg_index(word w)
{
    static const char names[] = "IPABCDEF";
    if (w.n != 1)
        return -1;
    const char *p = strchr(names, toupper((unsigned char)w.p[0]));
    return p && *p ? (int)(p - names) : -1;
}

/* I and P words by field (positions: seed + A-4/A-5). Returns false and sets
 * *bad to the offending word on error. */
static bool field_word(int reg, word *w, size_t nw, uint32_t *out, word *bad, const char **why)
{
    uint32_t v = 0;
    uint32_t seen = 0; /* bits of the word set by a field so far */
    for (size_t i = 0; i < nw; i++) {
        word f = w[i];
        const char *eq = memchr(f.p, '=', f.n);
        word key = f, val = {0};
        if (eq) {
            key.n = (size_t)(eq - f.p);
            val = (word){eq + 1, f.n - key.n - 1, f.col + (int)key.n + 1};
        }
        uint64_t n = 0;
        *bad = f;
        bool flag = !eq;
        if (!flag && !weq(key, "qee") && !wnum(val, 0xffffffffu, &n)) {
            *why = "bad number";
            *bad = val;
            return false;
        }
/* A field's bits: given twice (or overlapping another field given, e.g.
 * fni= and lc1=, both I<23:30>) is an error, not an OR of the two values. */
#define CLAIM(lsb, width)                                        \
    do {                                                         \
        uint32_t m_ = (uint32_t)(((1ull << (width)) - 1) << (lsb)); \
        if (seen & m_) {                                         \
            *why = "field given twice (or overlaps a field already given)"; \
            return false;                                        \
        }                                                        \
        seen |= m_;                                              \
    } while (0)
#define FIELD(name, lsb, width)                                  \
    if (weq(key, name)) {                                        \
        uint64_t x = flag ? 1 : n;                               \
        if (x >> (width)) {                                      \
            *why = "value too wide for the field";               \
            return false;                                        \
        }                                                        \
        CLAIM(lsb, width);                                       \
        v |= (uint32_t)x << (lsb);                               \
        continue;                                                \
    }
        if (reg == PP5_REG_I) {
            if (weq(key, "qee")) {
                static const char *const m[] = {"none", "const", "linear", "quad"};
                int k;
                for (k = 0; k < 4; k++)
                    if (weq(val, m[k]))
                        break;
                if (k == 4 || flag) {
                    *why = "qee must be none, const, linear or quad";
                    return false;
                }
                CLAIM(18, 2);
                v |= (uint32_t)k << 18;
                continue;
            }
            if (weq(key, "fni")) { /* exponent field = FNI + 115 */
                if (flag || n + 115 > 255) {
                    *why = "fni: FNI + 115 must fit in 8 bits";
                    return false;
                }
                CLAIM(23, 8);
                v |= (uint32_t)(n + 115) << 23;
                continue;
            }
            if (weq(key, "lc1")) { /* plain count n → excess-116 */
                if (flag || n > 11) {
                    *why = "lc1: count 0..11 (excess-116 in 7 bits); use lc1x= for the raw field";
                    return false;
                }
                CLAIM(23, 8);
                v |= (uint32_t)(n + 116) << 23;
                continue;
            }
            FIELD("uaddr", PP5_I_UADDR_LSB, 9)
            FIELD("dst", 9, 8)
            FIELD("trren", 17, 1)
            FIELD("mbi", 22, 1)
            FIELD("lc1x", 23, 7)
        } else {
            if (weq(key, "fbits")) {
                if (flag || n > 30) {
                    *why = "fbits must be 0..30";
                    return false;
                }
                CLAIM(23, 8);
                v |= (uint32_t)(129 + n) << 23;
                continue;
            }
            FIELD("src", 0, 8)
            FIELD("aux", PP5_P_AUX_LSB, 8)
            FIELD("lc2", 16, 7)
            FIELD("rmode", 31, 1)
        }
#undef FIELD
#undef CLAIM
        *why = "unknown field";
        return false;
    }
    *out = v;
    return true;
}

ls_status pp5_stream_parse(const char *src, size_t len, const char *fname, pp5_stream *s,
                           ls_diag *d)
{
    memset(s, 0, sizeof *s);
    snprintf(s->fname, sizeof s->fname, "%s", fname ? fname : "<stream>");
    size_t pos = 0;
    int line = 0;
    while (pos < len) {
        size_t e = pos;
        while (e < len && src[e] != '\n')
            e++;
        line++;
        word w[32];
        size_t nw = 0;
        size_t i = pos;
        while (i < e) {
            while (i < e && (src[i] == ' ' || src[i] == '\t' || src[i] == '\r'))
                i++;
            if (i >= e || src[i] == '#' || src[i] == ';')
                break;
            size_t st = i;
            while (i < e && !(src[i] == ' ' || src[i] == '\t' || src[i] == '\r' || src[i] == '#' ||
                              src[i] == ';'))
                i++;
            if (nw == 32) {
                ls_diag_set(d, LS_ERR_PARSE, s->fname, line, (int)(st - pos) + 1, "too many words");
                pp5_stream_free(s);
                return LS_ERR_PARSE;
            }
            w[nw++] = (word){src + st, i - st, (int)(st - pos) + 1};
        }
        if (memchr(src + pos, 0, e - pos)) {
            ls_diag_set(d, LS_ERR_PARSE, s->fname, line, 1, "NUL byte in stream");
            pp5_stream_free(s);
            return LS_ERR_PARSE;
        }
        pos = e < len ? e + 1 : e;
        if (nw == 0)
            continue;
        if (!grow(s)) {
            pp5_stream_free(s);
            return ls_diag_set(d, LS_ERR_NOMEM, s->fname, line, 1, "out of memory");
        }
        pp5_action a = {0};
        a.line = line;
        const char *why = NULL;
        word at = w[0];
        uint64_t n;
        if (weq(w[0], "write") || weq(w[0], "coef")) {
            bool coef = weq(w[0], "coef");
            int r = nw >= 2 ? reg_index(w[1]) : -1;
            if (r < 0) {
                why = "expected a register name I P A B C D E F";
                at = nw >= 2 ? w[1] : w[0];
            } else if (nw < 3) {
                why = "expected a value";
            } else if (coef) {
                /* a coefficient as a float: its IEEE single bit pattern */
                char buf[64];
                at = w[2];
                if (r < PP5_REG_A || nw != 3 || w[2].n >= sizeof buf) {
                    why = "coef takes one of A..F and one number";
                } else {
                    memcpy(buf, w[2].p, w[2].n);
                    buf[w[2].n] = 0;
                    char *end;
                    float f = strtof(buf, &end);
                    if (*end || end == buf) {
                        why = "bad floating-point number";
                    } else {
                        uint32_t bits;
                        memcpy(&bits, &f, 4);
                        a.kind = PP5_ACT_WRITE;
                        a.reg = (pp5_reg)r;
                        a.value = bits;
                    }
                }
            } else if (nw == 3 && wnum(w[2], UINT64_MAX, &n) && n > 0xffffffffu) {
                why = "value too wide for a 32-bit register";
                at = w[2];
            } else if (nw == 3 && wnum(w[2], 0xffffffffu, &n)) {
                a.kind = PP5_ACT_WRITE;
                a.reg = (pp5_reg)r;
                a.value = (uint32_t)n;
            } else if (r == PP5_REG_I || r == PP5_REG_P) {
                word bad;
                uint32_t v;
                if (field_word(r, w + 2, nw - 2, &v, &bad, &why)) {
                    a.kind = PP5_ACT_WRITE;
                    a.reg = (pp5_reg)r;
                    a.value = v;
                } else {
                    at = bad;
                }
            } else {
                why = "expected one 32-bit value (decimal or 0x…)";
                at = w[2];
            }
        } else if (weq(w[0], "go") || weq(w[0], "wait") || weq(w[0], "reset")) {
            a.kind = weq(w[0], "go") ? PP5_ACT_GO : weq(w[0], "wait") ? PP5_ACT_WAIT : PP5_ACT_RESET;
            if (nw != 1) {
                why = "takes no argument";
                at = w[1];
            }
        } else if (weq(w[0], "run")) {
            a.kind = PP5_ACT_RUN;
            if (nw != 2 || !wnum(w[1], 100000000u, &n)) {
                why = "run needs a clock count 0..100000000";
                at = nw >= 2 ? w[1] : w[0];
            } else {
                a.value = (uint32_t)n;
            }
        } else if (weq(w[0], "st1") || weq(w[0], "st2") || weq(w[0], "testpe") ||
                   weq(w[0], "testoe")) {
            a.kind = weq(w[0], "st1") ? PP5_ACT_ST1 : weq(w[0], "st2") ? PP5_ACT_ST2
                   : weq(w[0], "testpe") ? PP5_ACT_TESTPE : PP5_ACT_TESTOE;
            if (nw != 2 || !wnum(w[1], 1, &n)) {
                why = "needs a level 0 or 1";
                at = nw >= 2 ? w[1] : w[0];
            } else {
                a.value = (uint32_t)n;
            }
        } else {
            why = "unknown action (write, coef, go, wait, run, reset, st1, st2, testpe, testoe)";
        }
        if (why) {
            ls_status st = ls_diag_set(d, LS_ERR_PARSE, s->fname, line, at.col, "%s", why);
            pp5_stream_free(s);
            return st;
        }
        s->a[s->n++] = a;
    }
    return LS_OK;
}

/* The host levels (ST1, ST2, TestPE, TestOE) set by the actions so far. */
typedef struct host_levels {
    bool st1, st2, pe, oe;
} host_levels;

/* Action a → the inputs of its first clock (in), of the clocks after it
 * (idle: levels only) and its clock count (UINT64_MAX: until Busy falls).
 * Returns false for a level action, which runs no clock. */
static bool action_inputs(const pp5_action *a, pp5_igc *g, host_levels *lv, pp5_host_in *in,
                          pp5_host_in *idle, uint64_t *clocks)
{
    memset(in, 0, sizeof *in);
    *clocks = 1;
    switch (a->kind) {
    case PP5_ACT_ST1: lv->st1 = a->value; return false;
    case PP5_ACT_ST2: lv->st2 = a->value; return false;
    case PP5_ACT_TESTPE: lv->pe = a->value; return false;
    case PP5_ACT_TESTOE: lv->oe = a->value; return false;
    case PP5_ACT_WRITE:
        in->wr_en = true;
        in->d = a->value;
        for (int t = 0; t < 8; t++)
            if (g->opt.reg_of_t[t] == a->reg)
                in->t = (uint8_t)t;
        break;
    case PP5_ACT_GO: in->go = true; break;
    case PP5_ACT_RESET: in->reset = true; break;
    case PP5_ACT_RUN: *clocks = a->value; break;
    case PP5_ACT_WAIT: *clocks = UINT64_MAX; break;
    }
    pp5_igc_set_status(g, lv->st1, lv->st2);
    in->st1 = lv->st1;
    in->st2 = lv->st2;
    in->test_pe = lv->pe;
    in->test_oe = lv->oe;
    /* the action's inputs in the first clock, idle ones (levels only) after */
    memset(idle, 0, sizeof *idle);
    idle->st1 = lv->st1;
    idle->st2 = lv->st2;
    idle->test_pe = lv->pe;
    idle->test_oe = lv->oe;
    return true;
}

static ls_status limit_reached(const pp5_stream *s, const pp5_action *a, uint64_t limit, ls_diag *d)
{
    return ls_diag_set(d, LS_ERR_FAULT, s->fname, a->line, 1, "cycle limit %llu reached%s",
                       (unsigned long long)limit,
                       a->kind == PP5_ACT_WAIT ? " while waiting for Busy = 0" : "");
}

static ls_status clock_error(const pp5_stream *s, const pp5_action *a, pp5_igc *g, ls_status st,
                             ls_diag *d)
{
    char msg[400];
    snprintf(msg, sizeof msg, "%.300s", d->msg);
    return ls_diag_set(d, st, s->fname, a->line, 1, "%s (cycle %llu)", msg,
                       (unsigned long long)(pp5_igc_cycle(g) - 1));
}

ls_status pp5_stream_run(const pp5_stream *s, pp5_igc *g, uint64_t max_cycles, pp5_clock_fn fn,
                         void *user, ls_diag *d)
{
    host_levels lv = {false, false, false, false};
    uint64_t limit = max_cycles ? max_cycles : 100000000u;
    uint64_t ran = 0;
    for (size_t i = 0; i < s->n; i++) {
        const pp5_action *a = &s->a[i];
        pp5_host_in in, idle;
        uint64_t clocks;
        if (!action_inputs(a, g, &lv, &in, &idle, &clocks))
            continue;
        const bool pe = lv.pe;
        for (uint64_t c = 0; c < clocks; c++) {
            if (a->kind == PP5_ACT_WAIT && !(g->ctl.ibsy | g->ctl.cbsy))
                break;
            if (ran >= limit)
                return limit_reached(s, a, limit, d);
            /* Idle clocks (after the action's first, or all of a run/wait)
             * in one call while nobody reads the named signals: the same
             * clocks as the loop below, with the clock inlined into the loop
             * (pp5_igc_run_idle stops when Busy falls in a wait, or when fn
             * starts reading signals). TestPE clocks take the host side. */
            if ((c > 0 || a->kind == PP5_ACT_RUN || a->kind == PP5_ACT_WAIT) && !pe &&
                !g->signals_read && !PP5_FAST(g)->model_only) {
                uint64_t m = clocks - c < limit - ran ? clocks - c : limit - ran;
                uint64_t k = pp5_igc_run_idle(g, &idle, m, a->kind == PP5_ACT_WAIT, fn, user,
                                              NULL);
                ran += k;
                c += k - 1; /* k ≥ 1: Busy was high and the limit not reached above */
                continue;
            }
            pp5_pins p;
            /* The fast clock (same pins and state as pp5_igc_step()), unless fn
             * read the named signals after the last clock: then the full step,
             * which keeps them current, rather than rebuilding them each clock. */
            bool full = g->signals_read || PP5_FAST(g)->model_only;
            g->signals_read = false;
            const pp5_host_in *now = c == 0 ? &in : &idle;
            ls_status st = full ? pp5_igc_step(g, now, &p, d) : pp5_igc_clock_fast(g, now, &p, d);
            ran++;
            if (fn)
                fn(user, g, &p);
            if (st != LS_OK)
                return clock_error(s, a, g, st, d);
        }
    }
    return LS_OK;
}

/* The actions the block runner hands to the IGC as a script (pp5_igc_run_script):
 * those whose clocks are a host clock (write, go) or idle clocks (run, wait). */
static bool scriptable(pp5_action_kind k)
{
    return k == PP5_ACT_WRITE || k == PP5_ACT_GO || k == PP5_ACT_RUN || k == PP5_ACT_WAIT;
}

/* PP5_ENGINE_MODEL: the model's clocks one by one (pp5_stream_run), their
 * pins collected into the same blocks. */
typedef struct model_blocks {
    pp5_block_fn fn;
    void *user;
    size_t n;
    pp5_pins p[PP5_STREAM_BLOCK];
} model_blocks;
static void model_block_clock(void *user, const pp5_igc *g, const pp5_pins *p)
{
    (void)g;
    model_blocks *mb = user;
    mb->p[mb->n++] = *p;
    if (mb->n == PP5_STREAM_BLOCK) {
        mb->fn(mb->user, mb->p, mb->n);
        mb->n = 0;
    }
}

ls_status pp5_stream_run_blocks(const pp5_stream *s, pp5_igc *g, uint64_t max_cycles,
                                pp5_block_fn fn, void *user, ls_diag *d)
{
    if (PP5_FAST(g)->model_only) {
        model_blocks *mb = malloc(sizeof *mb);
        if (!mb)
            return ls_diag_set(d, LS_ERR_NOMEM, s->fname, 0, 0, "out of memory");
        mb->fn = fn;
        mb->user = user;
        mb->n = 0;
        ls_status st = pp5_stream_run(s, g, max_cycles, model_block_clock, mb, d);
        if (mb->n)
            fn(user, mb->p, mb->n);
        free(mb);
        return st;
    }
    pp5_pins buf[PP5_STREAM_BLOCK];
    size_t k = 0; /* clocks in buf */
    host_levels lv = {false, false, false, false};
    uint64_t limit = max_cycles ? max_cycles : 100000000u;
    uint64_t ran = 0;
    ls_status st = LS_OK;
    /* T of each register (the last T naming it, as action_inputs) */
    uint8_t t_of_reg[8] = {0};
    for (int t = 0; t < 8; t++)
        if ((unsigned)g->opt.reg_of_t[t] < 8)
            t_of_reg[g->opt.reg_of_t[t]] = (uint8_t)t;
    enum { CHUNK = 64 };
    pp5_igc_item items[CHUNK];
    size_t idx[CHUNK]; /* the action of each item */
    for (size_t i = 0; i < s->n && st == LS_OK; i++) {
        const pp5_action *a = &s->a[i];
        if (scriptable(a->kind) && !lv.pe) {
            /* a run of such actions (up to CHUNK) in as few calls as the
             * buffer allows: the same clocks as the per-action code below */
            size_t ni = 0;
            for (; i < s->n && ni < CHUNK && scriptable(s->a[i].kind); i++, ni++) {
                const pp5_action *b = &s->a[i];
                pp5_igc_item *it = &items[ni];
                memset(it, 0, sizeof *it);
                idx[ni] = i;
                switch (b->kind) {
                case PP5_ACT_WRITE:
                    it->kind = PP5_ITEM_HOST;
                    it->in.wr_en = true;
                    it->in.t = (unsigned)b->reg < 8 ? t_of_reg[b->reg] : 0;
                    it->in.d = b->value;
                    break;
                case PP5_ACT_GO:
                    it->kind = PP5_ITEM_HOST;
                    it->in.go = true;
                    break;
                case PP5_ACT_RUN:
                    it->kind = PP5_ITEM_RUN;
                    it->clocks = b->value;
                    break;
                default:
                    it->kind = PP5_ITEM_WAIT;
                    break;
                }
                it->in.st1 = lv.st1;
                it->in.st2 = lv.st2;
                it->in.test_oe = lv.oe;
            }
            i--; /* the for's i++ */
            pp5_igc_set_status(g, lv.st1, lv.st2);
            pp5_igc_script sc = {items, ni, 0, 0, {0}};
            sc.idle.st1 = lv.st1;
            sc.idle.st2 = lv.st2;
            sc.idle.test_oe = lv.oe;
            for (;;) {
                if (k == PP5_STREAM_BLOCK) {
                    if (fn) fn(user, buf, k);
                    k = 0;
                }
                uint64_t m = PP5_STREAM_BLOCK - k;
                if (m > limit - ran) m = limit - ran;
                ls_status cs = LS_OK;
                uint64_t r = pp5_igc_run_script(g, &sc, m, &buf[k], &cs, d);
                k += r;
                ran += r;
                if (cs != LS_OK) {
                    st = clock_error(s, &s->a[idx[sc.i]], g, cs, d);
                    break;
                }
                if (sc.i == sc.n)
                    break;
                if (ran >= limit) {
                    st = limit_reached(s, &s->a[idx[sc.i]], limit, d);
                    break;
                }
            }
            continue;
        }
        pp5_host_in in, idle;
        uint64_t clocks;
        if (!action_inputs(a, g, &lv, &in, &idle, &clocks))
            continue;
        const bool wait = a->kind == PP5_ACT_WAIT;
        uint64_t c = 0;
        while (c < clocks) {
            if (wait && !(g->ctl.ibsy | g->ctl.cbsy))
                break;
            if (ran >= limit) {
                st = limit_reached(s, a, limit, d);
                break;
            }
            if (k == PP5_STREAM_BLOCK) {
                if (fn) fn(user, buf, k);
                k = 0;
            }
            /* the clocks pp5_stream_run would take: the action's first one with
             * its inputs (and every TestPE clock) through the host side, the
             * idle ones in bursts straight into the buffer */
            if ((c > 0 || a->kind == PP5_ACT_RUN || wait) && !lv.pe) {
                uint64_t room = PP5_STREAM_BLOCK - k, m = clocks - c;
                if (m > limit - ran) m = limit - ran;
                if (m > room) m = room;
                uint64_t n = pp5_igc_run_idle(g, &idle, m, wait, NULL, NULL, &buf[k]);
                k += n;
                ran += n;
                c += n;
                continue;
            }
            ls_status cs = pp5_igc_clock_fast(g, c == 0 ? &in : &idle, &buf[k++], d);
            ran++;
            c++;
            if (cs != LS_OK)
                st = clock_error(s, a, g, cs, d);
            if (st != LS_OK)
                break;
        }
    }
    if (k && fn) fn(user, buf, k);
    return st;
}
