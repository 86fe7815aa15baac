/* Property test: random PVS programs run on the library's executor and on a
 * small reference interpreter written here, separately, from the register
 * documentation's tables (buhman/r500 regs/pvs_bits/ files) and the
 * operation semantics stated in docs/r500-vs.md. The reference never sees
 * instruction words: it interprets the random description directly, while
 * the library gets words (and, for half the programs, flow-control registers)
 * this file encodes with its own shifts. Every
 * register of both machines must agree bit for bit (any NaN equals any NaN),
 * including where the program faults. The words also round-trip through the
 * disassembler and assembler. */
#include "test_util.h"

#include <float.h>
#include <math.h>

#include "base/buf.h"
#include "lockstep/r500_pvs.h"

enum { NT = 8, NI = 4, NC = 24, NA = 4, NO = 4, MAXN = 24 };

typedef struct rsrc {
    unsigned file;      /* 0 temp, 1 input, 2 const, 3 alt temp */
    unsigned index;
    bool rel;           /* const[a0.sel + index] */
    bool rel_i0;        /* const[i0 + index] */
    unsigned sel;
    unsigned swz[4];    /* 0..5 */
    bool neg[4], abs;
} rsrc;

typedef struct rinst {
    bool dual, math, macro;
    unsigned op;        /* VE / ME / macro opcode */
    unsigned dfile;     /* 0 temp, 1 a0, 2 out, 3 out_repl_x, 4 alt temp */
    unsigned dindex, we;
    bool vsat, msat, pred_en, pred_sense;
    rsrc s[3];
    /* dual math */
    unsigned mop, mdst, mwe;
    rsrc ms;
} rinst;

typedef struct machine {
    float t[NT][4], in[NI][4], c[NC + 210][4], alt[NA][4], out[NO][4];
    int a0[4];
    int i0;
    bool pred;
} machine;

/* A flow-control operation (vap_pvs_flow_cntl_*.txt): 0 none, 1 JUMP, 2 LOOP, 3 JSR. */
typedef struct rfc {
    unsigned kind, act, target, last, rtn, init;
    int step;
    bool nofli;
} rfc;

/* ---- encoding, by hand from the docs' bit columns ------------------------- */

static uint32_t enc_src(const rsrc *s)
{
    uint32_t w = s->file | (uint32_t)s->abs << 3 | s->index << 5;
    for (int k = 0; k < 4; k++)
        w |= s->swz[k] << (13 + 3 * k) | (uint32_t)s->neg[k] << (25 + k);
    if (s->rel) /* ADDR_MODE 1 = MODE_0 (bit 4), ADDR_SEL 30:29 */
        w |= 1u << 4 | s->sel << 29;
    if (s->rel_i0) /* ADDR_MODE 2 = MODE_1 (bit 31) */
        w |= 1u << 31;
    return w;
}

static void encode(const rinst *r, uint32_t w[4])
{
    w[0] = r->op | (uint32_t)r->math << 6 | (uint32_t)r->macro << 7 | r->dfile << 8 |
           r->dindex << 13 | r->we << 20 | (uint32_t)r->vsat << 24 | (uint32_t)r->msat << 25 |
           (uint32_t)r->pred_en << 26 | (uint32_t)r->pred_sense << 27 | (uint32_t)r->dual << 28;
    w[1] = enc_src(&r->s[0]);
    w[2] = enc_src(&r->s[1]);
    if (!r->dual) {
        w[3] = enc_src(&r->s[2]);
    } else {
        const rsrc *s = &r->ms;
        w[3] = s->file | (r->mop >> 4) << 2 | (uint32_t)s->abs << 3 | s->index << 5 |
               s->swz[0] << 13 | s->swz[1] << 16 | r->mdst << 19 | (r->mop & 15) << 21 |
               (uint32_t)s->neg[0] << 25 | (uint32_t)s->neg[1] << 26 | r->mwe << 27;
        if (s->rel)
            w[3] |= 1u << 4 | s->sel << 29;
        if (s->rel_i0)
            w[3] |= 1u << 31;
    }
}

/* ---- reference interpreter ---------------------------------------------- */

/* A product in the vector engine's multipliers and ME_MULTIPLY under the
 * default vs-zero-times-anything=legacy (docs/assumptions.md): a zero factor
 * makes the product zero even against inf or NaN, which IEEE makes NaN. */
static float fmul0(float a, float b)
{
    if ((a == 0.0f || b == 0.0f) && (isinf(a) || isinf(b) || isnan(a) || isnan(b)))
        return 0.0f;
    return a * b;
}

typedef struct ref {
    machine m;
    bool faulted;
    size_t fault_pc;
} ref;

static float *reg_of(machine *m, unsigned file, long i, bool *bad)
{
    long lim = file == 0 ? NT : file == 1 ? NI : file == 2 ? 256 : NA;
    if (i < 0 || i >= lim) {
        *bad = true;
        return NULL;
    }
    static float zero[4];
    memset(zero, 0, sizeof zero);
    if (file == 2 && i >= NC + 210)
        return zero;
    return file == 0 ? m->t[i] : file == 1 ? m->in[i] : file == 2 ? m->c[i] : m->alt[i];
}

static bool fetch(machine *m, const rsrc *s, unsigned n, float *v)
{
    long i = (long)s->index + (s->rel ? m->a0[s->sel] : 0) + (s->rel_i0 ? m->i0 : 0);
    bool bad = false;
    float *r = reg_of(m, s->file, i, &bad);
    if (bad)
        return false;
    for (unsigned k = 0; k < n; k++) {
        float x = s->swz[k] < 4 ? r[s->swz[k]] : s->swz[k] == 4 ? 0.0f : 1.0f;
        if (s->abs)
            x = fabsf(x);
        v[k] = s->neg[k] ? -x : x;
    }
    return true;
}

static float clamp01(float x)
{
    if (isnan(x) || x <= 0.0f)
        return 0.0f; /* NaN and -0 saturate to +0 */
    return x > 1.0f ? 1.0f : x;
}

static bool test0(float x, unsigned k) /* EQ GT GTE NEQ */
{
    return k == 0 ? x == 0.0f : k == 1 ? x > 0.0f : k == 2 ? x >= 0.0f : x != 0.0f;
}

static float noinf(float x)
{
    return isinf(x) ? (x > 0 ? FLT_MAX : -FLT_MAX) : x;
}

/* Math engine: returns the 4-wide result; pr = predicate result if set. */
static void me(unsigned op, float a, float b, const float lit[3], float r[4], int *pr)
{
    float x = 0.0f;
    switch (op) {
    case 1: r[0] = (float)exp2((double)floorf(a)); r[1] = a - floorf(a); r[2] = (float)exp2((double)a); r[3] = 1.0f; return;
    case 2:
        if (a == 0.0f) {
            r[0] = r[2] = -INFINITY, r[1] = r[3] = 1.0f;
        } else {
            double ab = fabs((double)a), e = floor((double)(float)log2(ab));
            r[0] = (float)e, r[1] = (float)(ab / exp2(e)), r[2] = (float)log2(ab), r[3] = 1.0f;
        }
        return;
    case 3: x = noinf((float)exp((double)a)); break;
    case 4: {
        float p = fmaxf(-127.9961f, fminf(127.9961f, lit[2]));
        r[0] = 1.0f;
        r[1] = lit[0] > 0.0f ? lit[0] : 0.0f;
        r[2] = lit[0] > 0.0f && lit[1] > 0.0f ? (float)pow((double)lit[1], (double)p) : 0.0f;
        r[3] = 1.0f;
        return;
    }
    case 5: x = noinf((float)pow(fabs((double)a), (double)b)); break;
    case 6: x = 1.0f / a; break;
    case 7: x = noinf(1.0f / a); break;
    case 8: x = (float)(1.0 / sqrt(fabs((double)a))); break;
    case 9: x = noinf((float)(1.0 / sqrt(fabs((double)a)))); break;
    case 10: x = fmul0(a, b); break;
    case 11: x = (float)exp2((double)a); break;
    case 12: x = a == 0.0f ? -INFINITY : (float)log2(fabs((double)a)); break;
    case 16: case 17: { /* clamped to [-pi, pi]; NaN stays NaN */
        double t = a;
        if (t < -M_PI)
            t = -M_PI;
        if (t > M_PI)
            t = M_PI;
        x = (float)(op == 16 ? sin(t) : cos(t));
        break;
    }
    case 18: x = a == 0.0f ? -INFINITY : (float)log2((double)a); break;
    case 19: x = 1.0f / a; break;
    case 20: x = (float)(1.0 / sqrt((double)a)); break;
    case 21: case 22: case 23: case 24: *pr = test0(a, op - 21); x = *pr ? 0.0f : 1.0f; break;
    case 25: *pr = 0; x = FLT_MAX; break;
    case 26: x = a == 0.0f ? 1.0f : a == 1.0f ? 0.0f : a; *pr = x == 0.0f; break;
    case 27: x = a <= 1.0f ? 0.0f : a - 1.0f; *pr = x == 0.0f; break;
    case 28: x = a; *pr = a == 0.0f; break;
    }
    r[0] = r[1] = r[2] = r[3] = x;
}

/* Vector engine; mask = channels written (COND_WRITE), pr = predicate result. */
static void ve(unsigned op, const float *a, const float *b, const float *c, float r[4],
               unsigned *mask, int *pr)
{
    *mask = 15;
    if (op == 1) {
        float s = fmul0(a[0], b[0]);
        for (int k = 1; k < 4; k++) {
            float p = fmul0(a[k], b[k]);
            s += p;
        }
        r[0] = r[1] = r[2] = r[3] = s;
        return;
    }
    if (op == 5) {
        r[0] = 1.0f, r[1] = fmul0(a[1], b[1]), r[2] = a[2], r[3] = b[3];
        return;
    }
    if (op >= 15 && op <= 18) {
        float x;
        if (a[3] == 0.0f) {
            *pr = test0(b[3], op - 15);
            x = *pr ? 0.0f : 1.0f;
        } else {
            *pr = 0;
            x = a[3] + 1.0f;
        }
        r[0] = r[1] = r[2] = r[3] = x;
        return;
    }
    for (int k = 0; k < 4; k++) {
        float p;
        switch (op) {
        case 2: r[k] = fmul0(a[k], b[k]); break;
        case 3: r[k] = a[k] + b[k]; break;
        case 4: p = fmul0(a[k], b[k]); r[k] = p + c[k]; break;
        case 6: r[k] = a[k] - floorf(a[k]); break;
        case 7: r[k] = a[k] >= b[k] ? a[k] : b[k]; break;
        case 8: r[k] = a[k] < b[k] ? a[k] : b[k]; break;
        case 9: r[k] = a[k] >= b[k]; break;
        case 10: r[k] = a[k] < b[k]; break;
        case 11: p = fmul0(2.0f * a[k], b[k]); r[k] = p + c[k]; break;
        case 13: r[k] = floorf(a[k]); break;
        case 14: r[k] = floorf(a[k] + 0.5f); break;
        case 19: case 20: case 21: case 22:
            r[k] = b[k];
            if (!test0(a[k], op - 19))
                *mask &= ~(1u << k);
            break;
        case 23: case 24: case 25: r[k] = test0(a[k], op - 23) ? b[k] : c[k]; break;
        case 26: r[k] = a[k] > b[k]; break;
        case 27: r[k] = a[k] == b[k]; break;
        case 28: r[k] = a[k] != b[k]; break;
        }
    }
}

static bool store(machine *m, unsigned file, unsigned index, unsigned we, const float v[4])
{
    long lim = file == 0 ? NT : file == 1 ? 1 : file == 4 ? NA : NO;
    if ((long)index >= lim)
        return false;
    for (int k = 0; k < 4; k++) {
        if (!(we >> k & 1))
            continue;
        float x = file == 3 ? v[0] : v[k];
        switch (file) {
        case 0: m->t[index][k] = x; break;
        case 1: {
            float f = floorf(x);
            m->a0[k] = isnan(f) ? 0 : f < -32768.0f ? -32768 : f > 32767.0f ? 32767 : (int)f;
            break;
        }
        case 2: case 3: m->out[index][k] = x; break;
        default: m->alt[index][k] = x; break;
        }
    }
    return true;
}

/* One instruction; false (and R->faulted) on a fault. */
static bool ref_exec(ref *R, const rinst *r, size_t pc)
{
    machine *m = &R->m;
    {
        float s[3][4] = {{0}}, d2[4] = {0, 0, 0, 0};
        bool ok = true;
        for (unsigned k = 0; k < (r->dual ? 2u : 3u); k++)
            ok = ok && fetch(m, &r->s[k], 4, s[k]);
        if (r->dual)
            ok = ok && fetch(m, &r->ms, 2, d2);
        if (!ok) {
            R->faulted = true;
            R->fault_pc = pc;
            return false;
        }
        float v[4] = {0}, v2[4] = {0};
        unsigned mask = 15;
        int pr = -1;
        bool w1 = true;
        if (r->math) {
            float lit[3] = {s[1][3], s[0][3], s[2][3]};
            me(r->op, s[0][3], r->op == 5 ? s[2][3] : s[1][3], lit, v, &pr);
            w1 = r->op != 0;
            for (int k = 0; k < 4 && r->msat; k++)
                v[k] = clamp01(v[k]);
        } else {
            ve(r->macro ? (r->op ? 11 : 4) : r->op, s[0], s[1], s[2], v, &mask, &pr);
            w1 = r->macro || r->op != 0;
            for (int k = 0; k < 4 && r->vsat; k++)
                v[k] = clamp01(v[k]);
        }
        bool w2 = r->dual && r->mop != 0;
        if (r->dual) {
            float lit[3] = {0, 0, 0};
            me(r->mop, d2[0], d2[1], lit, v2, &pr);
            for (int k = 0; k < 4 && r->msat; k++)
                v2[k] = clamp01(v2[k]);
        }
        bool fire = !r->pred_en || m->pred == r->pred_sense;
        /* destination range is checked whether or not the write fires */
        machine scratch = *m;
        if ((w1 && !store(&scratch, r->dfile, r->dindex, r->we & mask, v)) ||
            (w2 && !store(&scratch, 4, r->mdst, 1u << r->mwe, v2))) {
            R->faulted = true;
            R->fault_pc = pc;
            return false;
        }
        if (fire) {
            if (w1)
                store(m, r->dfile, r->dindex, r->we & mask, v);
            if (w2)
                store(m, 4, r->mdst, 1u << r->mwe, v2);
        }
        if (pr >= 0)
            m->pred = pr;
    }
    return true;
}

/* The program with flow control: after each instruction, the end of the
 * innermost loop/subroutine (LAST_INST) first, else the first operation whose
 * ACT_ADRS it was, else the end of the program at its last instruction. */
static void ref_run(ref *R, const rinst *prog, size_t n, const rfc *fc, unsigned nfc,
                    unsigned max_depth, unsigned long watchdog)
{
    struct frame { bool loop; unsigned left, last, rtn; int step, outer_i0; } st[64];
    unsigned depth = 0;
    unsigned long issued = 0;
    size_t pc = 0;
    for (;;) {
        if (pc >= n || issued >= watchdog) {
            R->faulted = true;
            R->fault_pc = pc;
            return;
        }
        if (!ref_exec(R, &prog[pc], pc))
            return;
        issued++;
        size_t next = pc + 1;
        bool moved = false;
        while (depth > 0 && st[depth - 1].last == pc) {
            struct frame *f = &st[depth - 1];
            if (f->loop) {
                f->left--;
                if (f->left != 0) {
                    R->m.i0 += f->step;
                    next = f->rtn;
                    moved = true;
                    break;
                }
                R->m.i0 = f->outer_i0;
                depth--;
                continue;
            }
            depth--;
            next = f->rtn;
            moved = true;
            break;
        }
        for (unsigned k = 0; !moved && k < nfc; k++) {
            const rfc *c = &fc[k];
            if (c->kind == 0 || c->act != pc)
                continue;
            moved = true;
            if (c->kind == 1) {
                next = c->target;
            } else if (depth == max_depth || (c->kind == 2 && c->target == 0)) {
                R->faulted = true;
                R->fault_pc = pc;
                return;
            } else if (c->kind == 2) {
                st[depth++] = (struct frame){true, c->target, c->last, c->rtn, c->step, R->m.i0};
                if (!c->nofli)
                    R->m.i0 = (int)c->init;
                next = c->rtn;
            } else {
                st[depth++] = (struct frame){false, 0, c->last, c->rtn, 0, R->m.i0};
                next = c->target;
            }
        }
        if (!moved && pc == n - 1)
            return;
        pc = next;
    }
}

/* ---- random programs ---------------------------------------------------- */

static unsigned rnd(uint64_t *s, unsigned n)
{
    return (unsigned)(ls_test_rand(s) % n);
}

static void rand_src(uint64_t *S, rsrc *s)
{
    memset(s, 0, sizeof *s);
    s->file = rnd(S, 4);
    unsigned lim[4] = {NT, NI, NC, NA};
    s->index = rnd(S, lim[s->file]);
    if (s->file == 2 && rnd(S, 4) == 0) {
        s->rel = true;
        s->sel = rnd(S, 4);
        s->index = rnd(S, 200);
    } else if (s->file == 2 && rnd(S, 4) == 0) {
        s->rel_i0 = true;
        s->index = rnd(S, 20);
    }
    for (int k = 0; k < 4; k++) {
        s->swz[k] = rnd(S, 3) ? rnd(S, 4) : rnd(S, 6);
        s->neg[k] = rnd(S, 4) == 0;
    }
    s->abs = rnd(S, 5) == 0;
}

static void rand_inst(uint64_t *S, rinst *r)
{
    memset(r, 0, sizeof *r);
    static const unsigned me_ops[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 16, 17,
                                      18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28};
    const unsigned nme = sizeof me_ops / sizeof me_ops[0];
    unsigned kind = rnd(S, 10);
    if (kind < 2) {
        r->math = true;
        r->op = me_ops[rnd(S, nme)];
    } else if (kind == 2) {
        r->macro = true;
        r->op = rnd(S, 2);
    } else {
        do
            r->op = rnd(S, 29);
        while (r->op == 12); /* VE_MULTIPLY_CLAMP: undocumented, faults */
        r->dual = kind == 3;
    }
    static const unsigned files[] = {0, 0, 0, 2, 3, 4, 1};
    r->dfile = files[rnd(S, 7)];
    if (r->dfile == 1 && rnd(S, 2))
        r->dfile = 0;
    r->dindex = r->dfile == 1 ? 0 : rnd(S, r->dfile == 4 ? NA : r->dfile >= 2 ? NO : NT);
    if (rnd(S, 40) == 0)
        r->dindex = 100; /* out of the model's range: a fault */
    r->we = rnd(S, 16);
    r->vsat = rnd(S, 4) == 0;
    r->msat = rnd(S, 4) == 0;
    r->pred_en = rnd(S, 5) == 0;
    r->pred_sense = rnd(S, 2);
    for (int k = 0; k < 3; k++)
        rand_src(S, &r->s[k]);
    if (r->dual) {
        do
            r->mop = me_ops[rnd(S, nme)];
        while (r->mop == 4); /* LIGHT_COEFF has no dual form (3 operands) */
        r->mdst = rnd(S, 4);
        r->mwe = rnd(S, 4);
        rand_src(S, &r->ms);
        r->ms.swz[2] = r->ms.swz[3] = 0;
        r->ms.neg[2] = r->ms.neg[3] = false;
        memset(&r->s[2], 0, sizeof r->s[2]);
    }
}

static float rand_val(uint64_t *S)
{
    static const float specials[] = {0.0f, -0.0f, 1.0f, -1.0f, 0.5f, 2.0f, 3.0f, 1e30f, -1e-30f};
    if (rnd(S, 4) == 0)
        return specials[rnd(S, 9)];
    return ((float)rnd(S, 20001) - 10000.0f) / 1000.0f;
}

static bool same(float a, float b)
{
    if (isnan(a) && isnan(b))
        return true;
    uint32_t x, y;
    memcpy(&x, &a, 4);
    memcpy(&y, &b, 4);
    return x == y;
}

static void test_random_programs(void **st)
{
    (void)st;
    uint64_t S = ls_test_seed(0x9e3779b97f4a7c15ull);
    r500_pvs_options o;
    r500_pvs_options_default(&o);
    o.temps = NT, o.inputs = NI, o.alt_temps = NA, o.outputs = NO;
    o.watchdog = 3000;
    unsigned faults = 0, insts = 0, fc_ok = 0;
    ls_buf dis;
    ls_buf_init(&dis);
    r500_pvs_state *lib = calloc(1, sizeof *lib);
    ref *R = calloc(1, sizeof *R);
    assert_non_null(lib);
    assert_non_null(R);
    for (int iter = 0; iter < 3000; iter++) {
        rinst prog[MAXN];
        uint32_t words[4 * MAXN];
        size_t n = 1 + rnd(&S, MAXN);
        for (size_t i = 0; i < n; i++) {
            rand_inst(&S, &prog[i]);
            encode(&prog[i], words + 4 * i);
        }
        memset(R, 0, sizeof *R);
        memset(lib, 0, sizeof *lib);
        for (int i = 0; i < NT; i++)
            for (int k = 0; k < 4; k++)
                R->m.t[i][k] = rand_val(&S);
        for (int i = 0; i < NI; i++)
            for (int k = 0; k < 4; k++)
                R->m.in[i][k] = rand_val(&S);
        for (int i = 0; i < NC; i++)
            for (int k = 0; k < 4; k++)
                R->m.c[i][k] = rand_val(&S);
        for (int k = 0; k < 4; k++)
            R->m.a0[k] = (int)rnd(&S, 40);
        R->m.pred = rnd(&S, 2);
        memcpy(lib->temp, R->m.t, sizeof R->m.t);
        memcpy(lib->input, R->m.in, sizeof R->m.in);
        memcpy(lib->a0, R->m.a0, sizeof R->m.a0);
        lib->pred = R->m.pred;
        float consts[256][4];
        memset(consts, 0, sizeof consts);
        memcpy(consts, R->m.c, sizeof R->m.c);

        ls_buf_reset(&dis);
        r500_pvs_disasm(words, n, &dis);
        /* half the programs get up to three random flow-control operations,
         * encoded by hand into the VAP_PVS_FLOW_CNTL_* layout */
        rfc fcs[3];
        unsigned nfc = iter & 1 ? 1 + rnd(&S, 3) : 0;
        r500_pvs_fc hw;
        memset(&hw, 0, sizeof hw);
        for (unsigned k = 0; k < nfc; k++) {
            rfc *c = &fcs[k];
            c->kind = 1 + rnd(&S, 3);
            c->act = rnd(&S, (unsigned)n);
            c->target = c->kind == 2 ? rnd(&S, 5) : rnd(&S, (unsigned)n);
            c->last = rnd(&S, (unsigned)n);
            c->rtn = rnd(&S, (unsigned)n);
            c->init = rnd(&S, 9);
            c->step = (int)rnd(&S, 5) - 2;
            c->nofli = rnd(&S, 4) == 0;
            hw.opc |= c->kind << (2 * k);
            hw.addrs_lw[k] = c->act | c->target << 16;
            hw.addrs_uw[k] = c->last | c->rtn << 16;
            hw.loop_index[k] = c->init | ((uint32_t)c->step & 0xffu) << 8 | (uint32_t)c->nofli << 31;
        }
        R->m.i0 = lib->i0 = 0;
        ref_run(R, prog, n, fcs, nfc, o.fc_depth, (unsigned long)o.watchdog);
        ls_diag d;
        ls_diag_clear(&d);
        ls_status s = r500_pvs_run(words, n, 0, n - 1, (const float(*)[4])consts,
                                   nfc ? &hw : NULL, &o, lib, NULL, &d);
        insts += (unsigned)n;
        if (R->faulted != (s != LS_OK) || (R->faulted && (size_t)d.index != R->fault_pc))
            fail_msg("iteration %d: reference %s at %zu, library status %d at %ld (%s)", iter,
                     R->faulted ? "faults" : "runs", R->fault_pc, s, d.index, d.msg);
        faults += R->faulted;
        fc_ok += nfc && !R->faulted;
        for (int i = 0; i < NT; i++)
            for (int k = 0; k < 4; k++)
                if (!same(R->m.t[i][k], lib->temp[i][k]))
                    fail_msg("iteration %d: temp[%d].%c: reference %.9g, library %.9g\n%s", iter, i,
                             "xyzw"[k], (double)R->m.t[i][k], (double)lib->temp[i][k], dis.data);
        for (int i = 0; i < NA; i++)
            for (int k = 0; k < 4; k++)
                if (!same(R->m.alt[i][k], lib->alt[i][k]))
                    fail_msg("iteration %d: alt_temp[%d].%c: reference %.9g, library %.9g\n%s", iter,
                             i, "xyzw"[k], (double)R->m.alt[i][k], (double)lib->alt[i][k], dis.data);
        for (int i = 0; i < NO; i++)
            for (int k = 0; k < 4; k++)
                if (!same(R->m.out[i][k], lib->out[i][k]))
                    fail_msg("iteration %d: out[%d].%c: reference %.9g, library %.9g\n%s", iter, i,
                             "xyzw"[k], (double)R->m.out[i][k], (double)lib->out[i][k], dis.data);
        for (int k = 0; k < 4; k++)
            assert_int_equal(R->m.a0[k], lib->a0[k]);
        assert_int_equal(R->m.pred, lib->pred);
        assert_int_equal(R->m.i0, lib->i0);

        /* the same words through the disassembler and back */
        r500_pvs_program p;
        ls_diag_list errs;
        ls_diag_list_init(&errs);
        if (r500_pvs_asm("dis", dis.data, dis.len, &p, &errs) != LS_OK)
            fail_msg("iteration %d: disassembly does not assemble: %s", iter, errs.items[0].msg);
        assert_int_equal(p.count, n);
        assert_memory_equal(p.words, words, 16 * n);
        r500_pvs_program_free(&p);
        ls_diag_list_free(&errs);
    }
    printf("3000 random programs (%u instructions, 1500 with flow control of which %u end "
           "normally; %u end in a fault) agree with the reference interpreter\n", insts, fc_ok,
           faults);
    free(lib);
    free(R);
    ls_buf_free(&dis);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_programs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
