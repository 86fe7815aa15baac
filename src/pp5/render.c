/* Pixel-Planes 5 scene renderer (host side): computes coefficients as floats
 * the way the graphics processors would, writes IGC host streams, runs the
 * IGC and the EMC array clock by clock and reads the colour fields back.
 * Numeric rules (FBITS, on-edge coverage, z range): docs/pp5-render.md. */
#include "pp5/render.h"
#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "base/buf.h"
#include "pp5/model/emc_ref.h"
#include "pp5/stream.h"
#include "pp5/uasm.h"

#define ZSCALE 16777214.0 /* z in [0,1] -> 0..2^24-2; the clear depth is 2^24-1 */

void pp5_scene_free(pp5_scene *s)
{
    free(s->p);
    memset(s, 0, sizeof *s);
}

static ls_status perr(ls_diag *d, const char *fname, int line, int col, const char *msg)
{
    return ls_diag_set(d, LS_ERR_PARSE, fname, line, col, "%s", msg);
}

static ls_status parse_lines(const char *src, size_t len, const char *fname, pp5_scene *s,
                             ls_diag *d);

ls_status pp5_scene_parse(const char *src, size_t len, const char *fname, pp5_scene *s,
                          ls_diag *d)
{
    memset(s, 0, sizeof *s);
    ls_status st = parse_lines(src, len, fname, s, d);
    if (st != LS_OK) pp5_scene_free(s); /* nothing is returned on error */
    return st;
}

static ls_status parse_lines(const char *src, size_t len, const char *fname, pp5_scene *s,
                             ls_diag *d)
{
    size_t i = 0;
    int line = 0;
    while (i < len) {
        line++;
        size_t b = i;
        while (i < len && src[i] != '\n') i++;
        size_t e = i;
        if (i < len) i++;
        /* tokenize: up to 20 tokens */
        char tok[20][64];
        int col[20], nt = 0;
        size_t j = b;
        while (j < e) {
            while (j < e && (src[j] == ' ' || src[j] == '\t' || src[j] == '\r')) j++;
            if (j >= e || src[j] == '#') break;
            size_t t0 = j;
            while (j < e && src[j] != ' ' && src[j] != '\t' && src[j] != '\r' && src[j] != '#') j++;
            if (nt == 20) return perr(d, fname, line, (int)(t0 - b) + 1, "too many fields");
            if (j - t0 >= 63) return perr(d, fname, line, (int)(t0 - b) + 1, "field too long");
            memcpy(tok[nt], src + t0, j - t0);
            tok[nt][j - t0] = 0;
            if (memchr(tok[nt], 0, j - t0)) return perr(d, fname, line, (int)(t0 - b) + 1, "NUL byte");
            col[nt++] = (int)(t0 - b) + 1;
        }
        if (nt == 0) continue;
        double v[20];
        for (int k = 1; k < nt; k++) {
            char *end;
            v[k] = strtod(tok[k], &end);
            if (*end || !isfinite(v[k]))
                return perr(d, fname, line, col[k], "expected a finite number");
        }
        int want;
        const char *kw = tok[0];
        if (!strcmp(kw, "region")) want = 2;
        else if (!strcmp(kw, "clear")) want = 3;
        else if (!strcmp(kw, "tri")) want = 18;
        else if (!strcmp(kw, "disc")) want = 7;
        else return perr(d, fname, line, col[0], "unknown primitive (region, clear, tri, disc)");
        if (nt - 1 != want) {
            char m[96];
            snprintf(m, sizeof m, "'%.16s' takes %d numbers, got %d", kw, want, nt - 1);
            return perr(d, fname, line, col[0], m);
        }
#define COLOUR_OK(k) (v[k] >= 0 && v[k] <= 255)
        if (!strcmp(kw, "region")) {
            for (int k = 1; k <= 2; k++)
                if (v[k] != floor(v[k]) || v[k] < 0 || v[k] > 1920)
                    return perr(d, fname, line, col[k],
                                "region origin must be an integer 0..1920 (x, y < 2048, A-25)");
            s->region_x = (int)v[1];
            s->region_y = (int)v[2];
            s->region_line = line;
            continue;
        }
        if (!strcmp(kw, "clear")) {
            for (int k = 1; k <= 3; k++) {
                if (!COLOUR_OK(k)) return perr(d, fname, line, col[k], "colour must be 0..255");
                s->clear[k - 1] = (uint8_t)lround(v[k]);
            }
            continue;
        }
        pp5_prim p;
        memset(&p, 0, sizeof p);
        p.line = line;
        if (!strcmp(kw, "tri")) {
            p.kind = PP5_PRIM_TRI;
            for (int vi = 0; vi < 3; vi++)
                for (int k = 0; k < 6; k++) {
                    int t = 1 + vi * 6 + k;
                    double x = v[t];
                    if (k < 2 && fabs(x) > 4096)
                        return perr(d, fname, line, col[t], "coordinate outside -4096..4096");
                    if (k == 2 && (x < 0 || x > 1))
                        return perr(d, fname, line, col[t], "depth must be in 0..1");
                    if (k >= 3 && !COLOUR_OK(t)) return perr(d, fname, line, col[t], "colour must be 0..255");
                    p.v[vi][k] = x;
                }
        } else {
            p.kind = PP5_PRIM_DISC;
            if (fabs(v[1]) > 4096 || fabs(v[2]) > 4096) return perr(d, fname, line, col[1], "centre outside -4096..4096");
            if (!(v[3] > 0 && v[3] <= 2048)) return perr(d, fname, line, col[3], "radius must be in (0, 2048]");
            for (int k = 4; k <= 6; k++)
                if (!COLOUR_OK(k)) return perr(d, fname, line, col[k], "colour must be 0..255");
            if (v[7] < 0 || v[7] > 1) return perr(d, fname, line, col[7], "depth must be in 0..1");
            for (int k = 0; k < 6; k++) p.v[0][k] = v[1 + k];
            p.v[1][0] = v[7];
        }
        if (s->n == s->cap) {
            size_t nc = s->cap ? s->cap * 2 : 16;
            pp5_prim *np = realloc(s->p, nc * sizeof *np);
            if (!np) {
                pp5_scene_free(s);
                return ls_diag_set(d, LS_ERR_NOMEM, fname, line, 1, "out of memory");
            }
            s->p = np;
            s->cap = nc;
        }
        s->p[s->n++] = p;
    }
    return LS_OK;
}

void pp5_render_opts_default(pp5_render_opts *o)
{
    memset(o, 0, sizeof *o);
    pp5_options_default(&o->igc);
    pp5_emc_options_default(&o->emc);
}

/* Where a primitive's host stream goes: appended as text, or appended as
 * actions to a stream (the renderer's own loop: the text of each instruction
 * line is parsed once per frame by pp5_stream_parse and its actions reused,
 * coefficients become register writes directly). */
enum { EMIT_CACHE = 32, EMIT_ARGS = 4, PRIM_ACTIONS = 64, PRIM_COEFS = 24 };
typedef struct emitter {
    ls_buf *text;
    pp5_stream *acts;
    struct {
        const char *fmt;    /* the line is fmt with these %d arguments */
        int arg[EMIT_ARGS];
        pp5_action a[4];
        size_t n;
    } cache[EMIT_CACHE];
    int ncache;
    /* Primitives as actions: every primitive of a kind is the same sequence
     * of actions but for its coefficient values. The first one of a kind is
     * built line by line and kept (tmpl); the next ones copy it and only set
     * the coefficient writes, in the order emit_prim makes them. */
    struct {
        pp5_action a[PRIM_ACTIONS];
        uint8_t coef_at[PRIM_COEFS]; /* indices of the coefficient writes in a */
        int n, ncoef;
        bool ready;
    } tmpl[2];
    int kind;        /* the primitive being emitted (-1: none, or text) */
    bool replay;     /* ... from its kind's template */
    int coef_i;      /* coefficient writes made so far */
    size_t base;     /* its first action in acts */
    ls_status err;
    ls_diag *d;
} emitter;

static void prim_begin(emitter *em, int kind)
{
    if (!em->acts || em->err != LS_OK) return;
    em->kind = kind;
    em->coef_i = 0;
    em->base = em->acts->n;
    em->replay = em->tmpl[kind].ready;
    if (em->replay) {
        pp5_stream *s = em->acts;
        const int n = em->tmpl[kind].n;
        if (s->cap - s->n < (size_t)n) {
            size_t nc = s->n + (size_t)n + 64;
            pp5_action *na = realloc(s->a, nc * sizeof *na);
            if (!na) {
                em->err = ls_diag_set(em->d, LS_ERR_NOMEM, NULL, 0, 0, "out of memory");
                em->replay = false;
                em->kind = -1;
                return;
            }
            s->a = na;
            s->cap = nc;
        }
        memcpy(s->a + s->n, em->tmpl[kind].a, (size_t)n * sizeof *s->a);
        s->n += (size_t)n;
    }
}

static void prim_end(emitter *em)
{
    if (em->kind < 0) return;
    const int kind = em->kind;
    const size_t n = em->acts->n - em->base;
    if (!em->replay && em->err == LS_OK && n <= PRIM_ACTIONS) {
        memcpy(em->tmpl[kind].a, em->acts->a + em->base, n * sizeof *em->acts->a);
        em->tmpl[kind].n = (int)n;
        em->tmpl[kind].ncoef = em->coef_i;
        em->tmpl[kind].ready = em->coef_i <= PRIM_COEFS;
    }
    em->kind = -1;
    em->replay = false;
}

static bool emit_push(emitter *em, const pp5_action *a)
{
    pp5_stream *s = em->acts;
    if (s->n == s->cap) {
        size_t nc = s->cap ? s->cap * 2 : 64;
        pp5_action *na = realloc(s->a, nc * sizeof *na);
        if (!na) {
            em->err = ls_diag_set(em->d, LS_ERR_NOMEM, NULL, 0, 0, "out of memory");
            return false;
        }
        s->a = na;
        s->cap = nc;
    }
    s->a[s->n++] = *a;
    return true;
}

/* A register write of a value (written as `write R 0x…`). */
static void emit_write(emitter *em, char name, uint32_t value)
{
    if (em->err != LS_OK) return;
    if (em->text) {
        ls_buf_printf(em->text, "write %c 0x%08x\n", name, (unsigned)value);
        return;
    }
    if (em->replay) {
        if (em->coef_i < em->tmpl[em->kind].ncoef)
            em->acts->a[em->base + em->tmpl[em->kind].coef_at[em->coef_i]].value = value;
        em->coef_i++;
        return;
    }
    pp5_action a = {.kind = PP5_ACT_WRITE, .reg = (pp5_reg)(PP5_REG_A + (name - 'A')), .value = value};
    if (emit_push(em, &a) && em->kind >= 0) {
        if (em->coef_i < PRIM_COEFS) em->tmpl[em->kind].coef_at[em->coef_i] = (uint8_t)(em->acts->n - 1 - em->base);
        em->coef_i++;
    }
}

/* A coefficient as the graphics processor sends it: an IEEE single, written
 * as its bit pattern (the action "coef A v" gives for that float). */
static void coef(emitter *em, char name, double v)
{
    float f = (float)v;
    uint32_t bits;
    memcpy(&bits, &f, sizeof bits);
    emit_write(em, name, bits);
}

/* Instruction lines (write I …, go, wait). Building actions, a line already
 * parsed this frame (the same format and %d arguments: the formats here take
 * only %d) reuses its actions without being formatted again. */
static void emit_v(emitter *em, uint32_t or_first, const char *fmt, va_list ap0)
{
    if (em->err != LS_OK || em->replay) return; /* (replay: the template has the line's actions) */
    va_list ap;
    va_copy(ap, ap0);
    int nargs = 0, arg[EMIT_ARGS] = {0};
    bool keyed = !em->text;
    for (const char *c = fmt; keyed && (c = strchr(c, '%')) != NULL; c += 2) {
        if (c[1] != 'd' || nargs == EMIT_ARGS) keyed = false;
        else arg[nargs++] = va_arg(ap, int);
    }
    va_end(ap);
    int i = em->ncache;
    if (keyed)
        for (i = 0; i < em->ncache; i++)
            if (em->cache[i].fmt == fmt && !memcmp(em->cache[i].arg, arg, sizeof arg)) break;
    if (i < em->ncache) {
        for (size_t k = 0; k < em->cache[i].n; k++) {
            pp5_action a = em->cache[i].a[k];
            if (k == 0) a.value |= or_first;
            if (!emit_push(em, &a)) return;
        }
        return;
    }
    char line[112];
    va_copy(ap, ap0);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    if (em->text) { /* (or_first is only used on the action path) */
        ls_buf_puts(em->text, line);
        return;
    }
    pp5_stream ps;
    if ((em->err = pp5_stream_parse(line, strlen(line), "primitive", &ps, em->d)) != LS_OK) return;
    if (keyed && em->ncache < EMIT_CACHE && ps.n <= 4) {
        em->cache[i].fmt = fmt;
        memcpy(em->cache[i].arg, arg, sizeof arg);
        memcpy(em->cache[i].a, ps.a, ps.n * sizeof *ps.a);
        em->cache[i].n = ps.n;
        em->ncache++;
    }
    for (size_t k = 0; k < ps.n; k++) {
        if (k == 0) ps.a[k].value |= or_first;
        if (!emit_push(em, &ps.a[k])) break;
    }
    pp5_stream_free(&ps);
}

__attribute__((format(printf, 2, 3))) static void emit(emitter *em, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    emit_v(em, 0, fmt, ap);
    va_end(ap);
}

/* The same with or_first ORed into the value of the line's first action (a
 * field that changes on every call, such as a chip or store address: the
 * line is parsed once with that field 0). Actions only. */
__attribute__((format(printf, 3, 4))) static void emit_or(emitter *em, uint32_t or_first, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    emit_v(em, or_first, fmt, ap);
    va_end(ap);
}

/* plane v = a x + b y + c through three vertices (x, y, val) */
static void plane3(const double p[3][6], int k, double *a, double *b, double *c)
{
    double x1 = p[1][0] - p[0][0], y1 = p[1][1] - p[0][1];
    double x2 = p[2][0] - p[0][0], y2 = p[2][1] - p[0][1];
    double v1 = p[1][k] - p[0][k], v2 = p[2][k] - p[0][k];
    double det = x1 * y2 - x2 * y1;
    *a = (v1 * y2 - v2 * y1) / det;
    *b = (x1 * v2 - x2 * v1) / det;
    *c = p[0][k] - *a * p[0][0] - *b * p[0][1];
}

static void emit_prim(const pp5_prim *p, emitter *b)
{
    if (p->kind == PP5_PRIM_TRI) {
        const double(*v)[6] = p->v;
        double area2 = (v[1][0] - v[0][0]) * (v[2][1] - v[0][1]) - (v[2][0] - v[0][0]) * (v[1][1] - v[0][1]);
        if (!(fabs(area2) > 1e-9)) return; /* degenerate: covers no pixel centre */
        double sg = area2 > 0 ? 1 : -1;
        prim_begin(b, 0);
        emit(b, "write I uaddr=%d qee=none\ngo\nwait\n", PP5_R_UADDR_ENALL);
        for (int k = 0; k < 3; k++) {
            const double *p0 = v[k], *p1 = v[(k + 1) % 3];
            double dx = p1[0] - p0[0], dy = p1[1] - p0[1], l = sqrt(dx * dx + dy * dy);
            /* unit-gradient edge function, positive inside: distance in pixels */
            double A = -dy / l * sg, B = dx / l * sg, C = -(A * p0[0] + B * p0[1]);
            coef(b, 'A', A);
            coef(b, 'B', B);
            coef(b, 'C', C);
            emit(b, "write I uaddr=%d qee=linear mbi fni=1\ngo\nwait\n", PP5_R_UADDR_EDGE);
        }
        double a, bb, c;
        plane3(v, 2, &a, &bb, &c);
        coef(b, 'A', a * ZSCALE);
        coef(b, 'B', bb * ZSCALE);
        coef(b, 'C', c * ZSCALE);
        emit(b, "write I uaddr=%d dst=%d qee=linear trren fni=%d\ngo\nwait\n",
                      PP5_R_UADDR_ZTEST, PP5_R_ZBUF, PP5_R_ZBITS);
        static const int field[3] = {PP5_R_RED, PP5_R_GREEN, PP5_R_BLUE};
        for (int k = 0; k < 3; k++) {
            plane3(v, 3 + k, &a, &bb, &c);
            coef(b, 'A', a);
            coef(b, 'B', bb);
            coef(b, 'C', c + 0.5); /* round to nearest: the QEE keeps the integer part */
            emit(b, "write I uaddr=%d dst=%d qee=linear trren fni=8\ngo\nwait\n",
                          PP5_R_UADDR_QLOAD, field[k]);
        }
        prim_end(b);
    } else {
        double cx = p->v[0][0], cy = p->v[0][1], r = p->v[0][2];
        prim_begin(b, 1);
        emit(b, "write I uaddr=%d qee=none\ngo\nwait\n", PP5_R_UADDR_ENALL);
        /* pp5.md §6: Q = r^2 - (x-a)^2 - (y-b)^2 */
        coef(b, 'A', 2 * cx);
        coef(b, 'B', 2 * cy);
        coef(b, 'C', r * r - cx * cx - cy * cy);
        coef(b, 'D', -1);
        coef(b, 'E', 0);
        coef(b, 'F', -1);
        emit(b, "write I uaddr=%d qee=quad mbi fni=1\ngo\nwait\n", PP5_R_UADDR_DISC);
        coef(b, 'C', p->v[1][0] * ZSCALE);
        emit(b, "write I uaddr=%d dst=%d qee=const trren fni=%d\ngo\nwait\n",
                      PP5_R_UADDR_ZTEST, PP5_R_ZBUF, PP5_R_ZBITS);
        static const int field[3] = {PP5_R_RED, PP5_R_GREEN, PP5_R_BLUE};
        for (int k = 0; k < 3; k++) {
            coef(b, 'C', p->v[0][3 + k] + 0.5);
            emit(b, "write I uaddr=%d dst=%d qee=const trren fni=8\ngo\nwait\n",
                          PP5_R_UADDR_QLOAD, field[k]);
        }
        prim_end(b);
    }
}


ls_status pp5_render_prim_stream(const pp5_prim *p, void *bufp, ls_diag *d)
{
    emitter em;
    memset(&em, 0, sizeof em);
    em.kind = -1;
    em.text = bufp;
    em.d = d;
    emit_prim(p, &em);
    return em.err;
}

typedef struct run_ctx {
    pp5_emc *emc;
    const pp5_render_opts *o;
    emc_ref *ref;   /* PP5_ENGINE_MODEL: the array model, clocked instead of emc */
} run_ctx;

static void on_block_model(void *user, const pp5_pins *pins, size_t n)
{
    for (size_t i = 0; i < n; i++)
        emc_ref_step(((run_ctx *)user)->ref, &pins[i]);
}

static void on_clock(void *user, const pp5_igc *g, const pp5_pins *pins)
{
    run_ctx *r = user;
    pp5_emc_step(r->emc, pins);
    if (r->o->on_clock) r->o->on_clock(r->o->user, g, pins, r->emc);
}

static void on_block(void *user, const pp5_pins *pins, size_t n)
{
    pp5_emc_run(((run_ctx *)user)->emc, pins, n);
}

/* Clock by clock while an observer watches (VCD, --trace: it sees the IGC
 * and the array after every clock), otherwise in blocks: the same clocks and
 * pins, and the array may look ahead within a block (pp5_emc_run). */
static ls_status run_stream(const pp5_stream *s, pp5_igc *g, run_ctx *rc, ls_diag *d)
{
    if (rc->ref) return pp5_stream_run_blocks(s, g, 0, on_block_model, rc, d);
    if (rc->o->on_clock) return pp5_stream_run(s, g, 0, on_clock, rc, d);
    return pp5_stream_run_blocks(s, g, 0, on_block, rc, d);
}


/* Three planes of bytes → RGB triples. isa 2: 64 pixels at a time by byte
 * permutes (AVX-512 VBMI, when the CPU has it), the rest as below; isa 0: a
 * pixel's three bytes as one 4-byte store, the next pixel overwriting the
 * fourth (one store a pixel, not three), the last pixel byte by byte. */
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define RENDER_VBMI 1
#include <immintrin.h>
__attribute__((target("avx512f,avx512bw,avx512vbmi"))) static size_t rgb_interleave_vbmi(
    const uint8_t *r, const uint8_t *g, const uint8_t *b, size_t n, uint8_t *out)
{
    /* output byte j of vector v is channel (64v + j) % 3 of pixel (64v + j) / 3;
     * first r and g (indices 0..63 and 64..127 of the pair), then b over them */
    uint8_t m_rg[3][64], m_b[3][64];
    for (int v = 0; v < 3; v++)
        for (int j = 0; j < 64; j++) {
            int q = 64 * v + j, px = q / 3, ch = q % 3;
            m_rg[v][j] = (uint8_t)(ch == 1 ? 64 + px : px);
            m_b[v][j] = (uint8_t)(ch == 2 ? 64 + px : j);
        }
    __m512i irg[3], ib[3];
    for (int v = 0; v < 3; v++) {
        irg[v] = _mm512_loadu_si512(m_rg[v]);
        ib[v] = _mm512_loadu_si512(m_b[v]);
    }
    size_t p = 0;
    for (; p + 64 <= n; p += 64) {
        __m512i vr = _mm512_loadu_si512(r + p), vg = _mm512_loadu_si512(g + p), vb = _mm512_loadu_si512(b + p);
        for (int v = 0; v < 3; v++) {
            __m512i t = _mm512_permutex2var_epi8(vr, irg[v], vg);
            _mm512_storeu_si512(out + 3 * p + 64 * v, _mm512_permutex2var_epi8(t, ib[v], vb));
        }
    }
    return p;
}
#endif

void pp5_rgb_interleave(const uint8_t *r, const uint8_t *g, const uint8_t *b, size_t n, uint8_t *out,
                        int isa)
{
    size_t p = 0;
#ifdef RENDER_VBMI
    if (isa >= 2) {
        __builtin_cpu_init();
        if (__builtin_cpu_supports("avx512vbmi") && __builtin_cpu_supports("avx512bw"))
            p = rgb_interleave_vbmi(r, g, b, n, out);
    }
#else
    (void)isa;
#endif
    for (; p + 1 < n; p++) {
        uint32_t v = (uint32_t)r[p] | (uint32_t)g[p] << 8 | (uint32_t)b[p] << 16;
        uint8_t b4[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), 0};
        memcpy(out + 3 * p, b4, 4);
    }
    if (p < n) {
        out[3 * p] = r[p];
        out[3 * p + 1] = g[p];
        out[3 * p + 2] = b[p];
    }
}

ls_status pp5_render(const pp5_scene *s, const pp5_render_opts *o, uint8_t *rgb,
                     pp5_render_stats *st, ls_diag *d)
{
    pp5_render_opts def;
    if (!o) {
        pp5_render_opts_default(&def);
        o = &def;
    }
    memset(st, 0, sizeof *st);
    pp5_igc *g = NULL;
    pp5_emc *e = NULL;
    emc_ref *ref = NULL; /* PP5_ENGINE_MODEL */
    emitter *em = NULL;
    pp5_stream acts;
    memset(&acts, 0, sizeof acts);
    ls_status rs;
    /* the microcode library, assembled at build time (pp5_render_ucode_words) */
    const uint32_t *uw = pp5_render_ucode_words;
    const size_t ucount = pp5_render_ucode_count;
    if ((rs = pp5_igc_create(&g, &o->igc, d)) != LS_OK) goto out;
    if ((rs = pp5_emc_create(&e, &o->emc, d)) != LS_OK) goto out;
    if (s->region_x + pp5_emc_width(e) > 2048 || s->region_y + pp5_emc_height(e) > 2048) {
        /* a chip origin is 11 bits: no pixel of the array may lie past 2047 */
        rs = ls_diag_set(d, LS_ERR_ARG, NULL, s->region_line, s->region_line ? 1 : 0,
                         "region (%d, %d) + the %dx%d array reaches past pixel 2047 "
                         "(11-bit chip origins, A-14)",
                         s->region_x, s->region_y, pp5_emc_width(e), pp5_emc_height(e));
        goto out;
    }
    if (!o->emc.config_origin_full && (s->region_x % o->emc.tile_w || s->region_y % o->emc.tile_h)) {
        /* the chips would see their origins rounded down to the tile size */
        rs = ls_diag_set(d, LS_ERR_ARG, NULL, s->region_line, s->region_line ? 1 : 0,
                         "region (%d, %d) is not a multiple of the %dx%d tile: with --origins tile "
                         "the chips keep only the high-order origin bits (A-14 alternative)",
                         s->region_x, s->region_y, o->emc.tile_w, o->emc.tile_h);
        goto out;
    }
    run_ctx rc = {e, o, NULL};
    if (o->engine == PP5_ENGINE_MODEL) {
        if (o->on_clock) {
            rs = ls_diag_set(d, LS_ERR_ARG, NULL, 0, 0,
                             "pp5 render: an observer (trace, VCD, probe) watches the fast EMC "
                             "array; the model engine runs without one");
            goto out;
        }
        if ((rs = emc_ref_create(&ref, &o->emc, d)) != LS_OK) goto out;
        rc.ref = ref;
        pp5_igc_set_engine(g, PP5_ENGINE_MODEL);
    }
    /* host streams as actions (each instruction line parsed once per frame) */
    em = calloc(1, sizeof *em);
    if (!em) {
        rs = ls_diag_set(d, LS_ERR_NOMEM, NULL, 0, 0, "out of memory");
        goto out;
    }
    snprintf(acts.fname, sizeof acts.fname, "setup");
    em->acts = &acts;
    em->kind = -1;
    em->d = d;
    /* the microcode library goes in as the host loads it: RMode postings of
     * UADDR with the word in C (seed, RMode; A-7), checked after the setup */
    emit(em, "write P rmode\n");
    for (size_t a = 0; a < ucount; a++) {
        emit_or(em, (uint32_t)a << PP5_I_UADDR_LSB, "write I uaddr=0\n");
        emit_write(em, 'C', uw[a]);
        emit(em, "go\nwait\n");
    }
    emit(em, "run 3\n");
    /* frame setup: leave RMode, FBITS, then each chip's origin */
    emit(em, "write P fbits=%d src=%d lc2=%d\nwait\n", PP5_R_FBITS, PP5_R_ZTEMP, PP5_R_ZBITS);
    int cw = o->emc.tile_w, ch = o->emc.tile_h;
    for (int k = 0; k < o->emc.chips_x * o->emc.chips_y; k++) {
        unsigned x0 = (unsigned)(s->region_x + cw * (k % o->emc.chips_x));
        unsigned y0 = (unsigned)(s->region_y + ch * (k / o->emc.chips_x));
        emit_write(em, 'C', (x0 & 0x7ffu) | (y0 & 0x7ffu) << 11);
        emit_or(em, (uint32_t)k << PP5_P_AUX_LSB, "write P fbits=%d src=%d lc2=%d\n", PP5_R_FBITS,
                PP5_R_ZTEMP, PP5_R_ZBITS);
        emit(em, "write I uaddr=%d qee=none fni=22\ngo\nwait\n", PP5_R_UADDR_CONFIG);
    }
    emit(em, "write P fbits=%d src=%d lc2=%d\n", PP5_R_FBITS, PP5_R_ZTEMP, PP5_R_ZBITS);
    /* clear: all enabled, zbuf = farthest, colour = background */
    emit(em, "write I uaddr=%d qee=none\ngo\nwait\n", PP5_R_UADDR_ENALL);
    emit_write(em, 'C', (1u << PP5_R_ZBITS) - 1);
    emit(em, "write I uaddr=%d dst=%d qee=none fni=%d\ngo\nwait\n", PP5_R_UADDR_CONST, PP5_R_ZBUF,
         PP5_R_ZBITS);
    static const int field[3] = {PP5_R_RED, PP5_R_GREEN, PP5_R_BLUE};
    for (int k = 0; k < 3; k++) {
        emit_write(em, 'C', s->clear[k]);
        emit(em, "write I uaddr=%d dst=%d qee=none fni=8\ngo\nwait\n", PP5_R_UADDR_CONST, field[k]);
    }
    if ((rs = em->err) != LS_OK) goto out;
    uint64_t c0 = pp5_igc_cycle(g);
    if ((rs = run_stream(&acts, g, &rc, d)) != LS_OK) goto out;
    st->setup_clocks = pp5_igc_cycle(g) - c0;
    for (size_t a = 0; a < PP5_UCODE_WORDS; a++)
        if (pp5_igc_ucode(g, a) != (a < ucount ? uw[a] : 0)) {
            rs = ls_diag_set(d, LS_ERR_FAULT, "lib.pp5m", 0, 0,
                             "pp5 render: the microcode store holds 0x%08x at %zu after the RMode "
                             "load, not 0x%08x", (unsigned)pp5_igc_ucode(g, a), a,
                             (unsigned)(a < ucount ? uw[a] : 0));
            goto out;
        }
    st->prim_clocks = calloc(s->n ? s->n : 1, sizeof *st->prim_clocks);
    if (!st->prim_clocks) {
        rs = ls_diag_set(d, LS_ERR_NOMEM, NULL, 0, 0, "out of memory");
        goto out;
    }
    st->nprims = s->n;
    /* primitives: the same host streams as pp5_render_prim_stream writes */
    snprintf(acts.fname, sizeof acts.fname, "primitive");
    for (size_t i = 0; i < s->n; i++) {
        uint64_t t0 = pp5_igc_cycle(g);
        acts.n = 0;
        emit_prim(&s->p[i], em);
        if ((rs = em->err) != LS_OK) goto out;
        if ((rs = run_stream(&acts, g, &rc, d)) != LS_OK) {
            ls_diag_at_index(d, s->p[i].line);
            goto out;
        }
        st->prim_clocks[i] = pp5_igc_cycle(g) - t0;
        if (o->progress.report && i + 1 < s->n)
            o->progress.report(o->progress.ctx, i + 1, s->n);
    }
    /* drain: the last instruction finishes and its pins reach the EMCs */
    acts.n = 0;
    snprintf(acts.fname, sizeof acts.fname, "drain");
    emit(em, "run 400\n");
    if ((rs = em->err) != LS_OK || (rs = run_stream(&acts, g, &rc, d)) != LS_OK) goto out;
    st->clocks = pp5_igc_cycle(g) - c0;
    if (o->progress.report)
        o->progress.report(o->progress.ctx, s->n, s->n);
    st->igc_warnings = pp5_igc_warning_count(g);
    st->emc_warnings = rc.ref ? emc_ref_warning_count(rc.ref) : pp5_emc_warning_count(e);
    /* read-back: each colour field as a byte per pixel (pp5_emc_field8), then
     * interleaved as RGB */
    size_t npix = (size_t)pp5_emc_width(e) * (size_t)pp5_emc_height(e);
    uint8_t *chan = malloc(3 * npix);
    if (!chan) {
        rs = ls_diag_set(d, LS_ERR_NOMEM, NULL, 0, 0, "out of memory");
        goto out;
    }
    if (rc.ref) {
        const int w = emc_ref_width(rc.ref);
        for (int k = 0; k < 3; k++)
            for (size_t p = 0; p < npix; p++)
                chan[(size_t)k * npix + p] = (uint8_t)emc_ref_field(rc.ref, (int)(p % (size_t)w),
                                                                    (int)(p / (size_t)w), field[k], 8);
    } else {
        for (int k = 0; k < 3; k++) pp5_emc_field8(e, field[k], 8, chan + (size_t)k * npix);
    }
    pp5_rgb_interleave(chan, chan + npix, chan + 2 * npix, npix, rgb, 2);
    free(chan);
out:
    if (rs != LS_OK && st->prim_clocks) {
        free(st->prim_clocks);
        st->prim_clocks = NULL;
    }
    free(em);
    pp5_stream_free(&acts);
    if (ref) emc_ref_destroy(ref);
    pp5_emc_destroy(e);
    pp5_igc_destroy(g);
    return rs;
}
