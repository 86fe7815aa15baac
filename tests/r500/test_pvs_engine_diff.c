/* The vertex engines agree (docs/r500-jit.md, "The vertex JIT"): every corpus
 * vertex program (buhman/r500 src/ .vs.bin and drm/ .vs.inc files, their exact
 * words), every vertex program r300 runs in the mesa-r300 corpus captures
 * (through mesa_exec_dir, with an engine hook that runs each call through
 * both engines), and random programs run through r500_pvs_run_vertices with
 * engine interp and engine jit on the same vertices; every byte of every
 * vertex's registers (temps, alt temps, inputs, outputs, A0, predicate,
 * written-channel masks) must be identical, and so must the status and
 * faulting vertex. Inputs and constants hold values at the model's rule
 * boundaries (±0, denormals, ±inf, NaNs with payloads, 1, 0.5, FLT_MAX).
 *
 * Built with R500_PVS_JIT_PLANTED (a rule changed in the JIT only) the test
 * passes only when it finds a difference (r500/pvs-engine-diff-planted-N).
 * 77 without the JIT. */
#include "test_util.h"

#include <dirent.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lockstep/mesa_draw.h"
#include "lockstep/r500_pvs.h"
#ifdef LOCKSTEP_HAVE_JIT
#include "lockstep/r500_pvs_jit.h"
#endif
#include "base/buf.h"

#ifndef R500_PVS_JIT_PLANTED
#define R500_PVS_JIT_PLANTED 0
#endif

#ifdef LOCKSTEP_HAVE_JIT

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint32_t rnd(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (uint32_t)(rng >> 11);
}

static const uint32_t specials[] = {
    0x00000000, 0x80000000, 0x00000001, 0x80000001, 0x007fffff, 0x807fffff, 0x00800000,
    0x7f800000, 0xff800000, 0x7fc00000, 0xffc00000, 0x7fc00001, 0x7f800001, 0xffbfffff,
    0x7fffffff, 0x3f800000, 0xbf800000, 0x3f000000, 0x7f7fffff, 0xff7fffff, 0x3f7fffff,
    0x3f800001, 0x1f800000, 0x5f000000, 0x40490fdb, 0xc0490fdb, 0xc2fc0000, 0x43000000,
};

static float rval(void)
{
    uint32_t u;
    unsigned k = rnd() % 4;
    if (k == 0)
        u = specials[rnd() % (sizeof specials / sizeof specials[0])];
    else if (k == 1)
        u = rnd();
    else {
        float f = (float)((int)(rnd() % 2001) - 1000) / 64.0f;
        memcpy(&u, &f, 4);
    }
    float f;
    memcpy(&f, &u, 4);
    return f;
}

static void fill_state(r500_pvs_state *s)
{
    memset(s, 0, sizeof *s);
    for (int i = 0; i < 16; i++)
        for (int k = 0; k < 4; k++) {
            s->input[i][k] = rval();
            s->temp[i][k] = rval();
            s->alt[i][k] = rval();
        }
    s->pred = rnd() & 1;
    /* A0 for A0-relative constants: mostly small, now and then negative
     * (an index out of range: a fault) */
    for (int k = 0; k < 4; k++)
        s->a0[k] = rnd() % 24 == 0 ? -1 - (int32_t)(rnd() % 4) : (int32_t)(rnd() % 8);
}

static unsigned diffs, compared, compiled_runs, both_nan;
/* runs of compiled programs with an A0-relative constant: all vertices in
 * range, and with a vertex out of range (the compiled code's fallback) */
static unsigned a0rel_runs, a0rel_faults;

/* Whether instructions first..last read a constant relative to A0
 * (PVS_SRC_ADDR_MODE 1, pvs_source_operand_bits.txt). */
static bool has_a0_const(const uint32_t *w, size_t first, size_t last)
{
    for (size_t i = first; i <= last; i++) {
        r500_pvs_inst in;
        r500_pvs_decode(w + 4 * i, &in);
        const uint32_t *f = in.field;
        bool dual = in.form == R500_PVS_FORM_DUAL;
        for (unsigned k = 0; k < (dual ? 2u : 3u); k++) {
            const uint32_t *sf = &f[R500_PVS_F_S0_REG_TYPE + k * R500_PVS_SRC_STRIDE];
            if (sf[0] == 2 && sf[R500_PVS_F_S0_ADDR_MODE_0 - R500_PVS_F_S0_REG_TYPE] &&
                !sf[R500_PVS_F_S0_ADDR_MODE_1 - R500_PVS_F_S0_REG_TYPE])
                return true;
        }
        if (dual && f[R500_PVS_F_DM_SRC_REG_TYPE] == 2 && f[R500_PVS_F_DM_SRC_ADDR_MODE_0] &&
            !f[R500_PVS_F_DM_SRC_ADDR_MODE_1])
            return true;
    }
    return false;
}

/* Every byte equal, except that a float both engines leave NaN may differ in
 * its sign and payload: when both operands of an addition or multiplication
 * are NaN the host returns the first one's, and which comes first is each
 * compiler's choice (docs/r500-jit.md, "NaN payloads"); those are counted. */
static bool same_state(const r500_pvs_state *a, const r500_pvs_state *b)
{
    const float *fa = &a->temp[0][0], *fb = &b->temp[0][0];
    size_t nf = (offsetof(r500_pvs_state, out) + sizeof a->out) / 4;
    for (size_t i = 0; i < nf; i++) {
        if (!memcmp(&fa[i], &fb[i], 4))
            continue;
        if (fa[i] != fa[i] && fb[i] != fb[i]) {
            both_nan++;
            continue;
        }
        return false;
    }
    size_t off = nf * 4;
    return !memcmp((const char *)a + off, (const char *)b + off, sizeof *a - off);
}

/* Both engines over n vertices of random inputs. */
static void compare(const char *what, const uint32_t *w, size_t count, size_t first, size_t last,
                    const float (*consts)[4], const r500_pvs_fc *fc, const r500_pvs_options *o,
                    const r500_pvs_engine_ops *jit, const r500_pvs_state *in, size_t n)
{
    r500_pvs_state *a = calloc(n, sizeof *a), *b = calloc(n, sizeof *b);
    if (!a || !b)
        abort();
    memcpy(a, in, n * sizeof *a);
    memcpy(b, in, n * sizeof *b);
    r500_pvs_options oi = *o, oj = *o;
    oi.engine = R500_ENGINE_INTERP;
    oj.engine = R500_ENGINE_JIT;
    oj.jit = jit;
    size_t fa = 0, fb = 0;
    r500_pvs_stats sa = {0}, sb = {0};
    ls_diag da, db;
    ls_diag_clear(&da);
    ls_diag_clear(&db);
    ls_status s1 = r500_pvs_run_vertices(w, count, first, last, consts, fc, &oi, a, n, &fa, &sa, &da);
    ls_status s2 = r500_pvs_run_vertices(w, count, first, last, consts, fc, &oj, b, n, &fb, &sb, &db);
    compared++;
    bool compiles = !r500_pvs_jit_refusal(w, count, first, last, fc, o);
    if (s1 == LS_OK && compiles)
        compiled_runs++;
    if (compiles && has_a0_const(w, first, last)) {
        if (s1 == LS_OK)
            a0rel_runs++;
        else
            a0rel_faults++;
    }
    if (s1 != s2 || (s1 && fa != fb) || sa.issued != sb.issued) {
        diffs++;
        if (diffs <= 5)
            printf("DIFF %s: status %d/%d vertex %zu/%zu issued %llu/%llu (%s | %s)\n", what, s1,
                   s2, fa, fb, (unsigned long long)sa.issued, (unsigned long long)sb.issued,
                   da.msg, db.msg);
    } else if (s1 == LS_OK) {
        for (size_t v = 0; v < n; v++) {
            if (same_state(&a[v], &b[v]))
                continue;
            diffs++;
            if (diffs <= 5) {
                const uint32_t *x = (const uint32_t *)(const void *)&a[v];
                const uint32_t *y = (const uint32_t *)(const void *)&b[v];
                size_t i = 0;
                while (x[i] == y[i])
                    i++;
                printf("DIFF %s: vertex %zu, state word %zu: interp 0x%08x jit 0x%08x\n", what, v,
                       i, x[i], y[i]);
            }
            break;
        }
    }
    free(a);
    free(b);
}

static void random_states(r500_pvs_state *st, size_t n)
{
    for (size_t v = 0; v < n; v++)
        fill_state(&st[v]);
}

static float consts_[R500_PVS_NUM_CONSTS][4];

static void program_file(const char *path, const char *words_path, bool binary,
                         const r500_pvs_engine_ops *jit, unsigned *files)
{
    ls_buf wb;
    ls_buf_init(&wb);
    if (!ls_read_file(words_path, &wb)) {
        ls_buf_free(&wb);
        return;
    }
    uint32_t *w;
    size_t count;
    ls_diag d;
    if (r500_pvs_load_words(words_path, wb.data, wb.len, binary, &w, &count, &d) == LS_OK &&
        count) {
        r500_pvs_options o;
        r500_pvs_options_default(&o);
        size_t n = 37;
        r500_pvs_state *st = calloc(n, sizeof *st);
        for (int rep = 0; rep < 4; rep++) {
            random_states(st, n);
            if (rep == 1)
                o.minmax = R500_PVS_MINMAX_NUMBER, o.zta = R500_PVS_ZTA_IEEE;
            if (rep == 2)
                o.math.mad = R500_MAD_FUSED, o.math.clamp_nan = R500_CLAMP_NAN_KEEP;
            compare(path, w, count, 0, count - 1, (const float(*)[4])consts_, NULL, &o, jit, st, n);
        }
        free(st);
        free(w);
        (*files)++;
    }
    ls_buf_free(&wb);
}

static void corpus_dir(const char *corpus, const char *sub, bool binary,
                       const r500_pvs_engine_ops *jit, unsigned *files)
{
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/buhman-r500/%s", corpus, sub);
    DIR *dp = opendir(dir);
    if (!dp)
        return;
    struct dirent *e;
    while ((e = readdir(dp))) {
        size_t n = strlen(e->d_name);
        if (n < 8 || strcmp(e->d_name + n - 7, ".vs.asm"))
            continue;
        char path[1300], wp[1300];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        snprintf(wp, sizeof wp, "%s/%.*s%s", dir, (int)(n - 4), e->d_name, binary ? ".bin" : ".inc");
        program_file(path, wp, binary, jit, files);
    }
    closedir(dp);
}

/* r300's programs: the hook sees every call mesa_exec makes and runs it
 * through both engines (then gives the interpreter's results back). */
typedef struct hook {
    r500_pvs_engine_ops ops;
    const r500_pvs_engine_ops *jit;
    unsigned calls;
} hook;

static ls_status hook_run(const r500_pvs_engine_ops *self, const uint32_t *words, size_t count,
                          size_t first, size_t last, const float (*consts)[4],
                          const r500_pvs_fc *fc, const r500_pvs_options *o,
                          r500_pvs_state *states, size_t nverts, size_t *fault_vertex,
                          r500_pvs_stats *stats, ls_diag *d)
{
    hook *h = self->state;
    h->calls++;
    compare("r300 capture", words, count, first, last, consts, fc, o, h->jit, states, nverts);
    /* and the same words on special values */
    r500_pvs_state *st = calloc(nverts, sizeof *st);
    memcpy(st, states, nverts * sizeof *st);
    for (size_t v = 0; v < nverts; v++)
        for (int i = 0; i < 16; i++)
            for (int k = 0; k < 4; k++)
                if (rnd() % 3 == 0)
                    st[v].input[i][k] = rval();
    compare("r300 capture, special inputs", words, count, first, last, consts, fc, o, h->jit, st,
            nverts);
    free(st);
    r500_pvs_options oi = *o;
    oi.engine = R500_ENGINE_INTERP;
    return r500_pvs_run_vertices(words, count, first, last, consts, fc, &oi, states, nverts,
                                 fault_vertex, stats, d);
}

static unsigned captures(const char *corpus, const r500_pvs_engine_ops *jit, unsigned *calls)
{
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/mesa-r300/out", corpus);
    DIR *dp = opendir(dir);
    if (!dp)
        return 0;
    hook h = {.ops = {.run_vertices = hook_run}, .jit = jit};
    h.ops.state = &h;
    unsigned ndirs = 0;
    struct dirent *e;
    while ((e = readdir(dp))) {
        if (e->d_name[0] == '.')
            continue;
        char cs[1300];
        snprintf(cs, sizeof cs, "%s/%s/cs", dir, e->d_name);
        DIR *c = opendir(cs);
        if (!c)
            continue;
        closedir(c);
        mesa_exec_options mo;
        mesa_exec_options_default(&mo);
        mo.pvs.jit = &h.ops;
        mo.pvs.engine = R500_ENGINE_JIT;
        mesa_exec_all all;
        ls_diag d;
        if (mesa_exec_dir(cs, &mo, &all, &d) == LS_OK) {
            ndirs++;
            mesa_exec_all_free(&all);
        }
    }
    closedir(dp);
    *calls = h.calls;
    return ndirs;
}

/* A random instruction: fields random within their widths, steered so that
 * most instructions compile (registers 0..7, direct addressing); now and
 * then a reserved value (the program then runs on the interpreter). */
static void random_inst(uint32_t w[4])
{
    r500_pvs_inst in;
    memset(&in, 0, sizeof in);
    bool dual = rnd() % 6 == 0;
    in.form = dual ? R500_PVS_FORM_DUAL : R500_PVS_FORM_NORMAL;
    uint32_t *f = in.field;
    f[R500_PVS_F_DUAL_MATH_OP] = dual;
    unsigned kind = rnd() % 10;
    if (!dual && kind < 3) {
        f[R500_PVS_F_MATH_INST] = 1;
        static const unsigned me_ops[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 16, 17, 18,
                                          19, 20, 21, 22, 23, 24, 25, 26, 27, 28};
        f[R500_PVS_F_OPCODE] = me_ops[rnd() % (sizeof me_ops / sizeof me_ops[0])];
    } else if (!dual && kind == 3) {
        f[R500_PVS_F_MACRO_INST] = 1;
        f[R500_PVS_F_OPCODE] = rnd() % 2;
    } else {
        unsigned op = rnd() % 29;
        f[R500_PVS_F_OPCODE] = op == 12 ? 4 : op;
    }
    if (rnd() % 50 == 0)
        f[R500_PVS_F_OPCODE] = rnd() % 64; /* reserved now and then */
    static const unsigned dtypes[] = {0, 0, 0, 2, 3, 4, 5, 1};
    f[R500_PVS_F_DST_REG_TYPE] = dtypes[rnd() % 8];
    f[R500_PVS_F_DST_OFFSET] = rnd() % 8;
    f[R500_PVS_F_DST_WE_X] = rnd() % 4 != 0;
    f[R500_PVS_F_DST_WE_Y] = rnd() % 4 != 0;
    f[R500_PVS_F_DST_WE_Z] = rnd() % 4 != 0;
    f[R500_PVS_F_DST_WE_W] = rnd() % 4 != 0;
    f[R500_PVS_F_VE_SAT] = rnd() % 4 == 0;
    f[R500_PVS_F_ME_SAT] = rnd() % 4 == 0;
    f[R500_PVS_F_PRED_ENABLE] = rnd() % 4 == 0;
    f[R500_PVS_F_PRED_SENSE] = rnd() % 2;
    for (unsigned k = 0; k < (dual ? 2u : 3u); k++) {
        uint32_t *s = &f[R500_PVS_F_S0_REG_TYPE + k * R500_PVS_SRC_STRIDE];
        s[R500_PVS_F_S0_REG_TYPE - R500_PVS_F_S0_REG_TYPE] = rnd() % 4;
        s[R500_PVS_F_S0_ABS - R500_PVS_F_S0_REG_TYPE] = rnd() % 4 == 0;
        s[R500_PVS_F_S0_OFFSET - R500_PVS_F_S0_REG_TYPE] = rnd() % 8;
        if (s[0] == 2 && rnd() % 3 == 0) { /* a constant relative to A0 */
            s[R500_PVS_F_S0_ADDR_MODE_0 - R500_PVS_F_S0_REG_TYPE] = 1;
            s[R500_PVS_F_S0_ADDR_SEL - R500_PVS_F_S0_REG_TYPE] = rnd() % 4;
            if (rnd() % 16 == 0) /* near the end: A0 may take it past const[255] */
                s[R500_PVS_F_S0_OFFSET - R500_PVS_F_S0_REG_TYPE] = 250 + rnd() % 6;
        }
        for (unsigned c = 0; c < 4; c++) {
            s[R500_PVS_F_S0_SWIZZLE_X - R500_PVS_F_S0_REG_TYPE + c] = rnd() % 8;
            s[R500_PVS_F_S0_MODIFIER_X - R500_PVS_F_S0_REG_TYPE + c] = rnd() % 3 == 0;
        }
    }
    if (dual) {
        f[R500_PVS_F_DM_SRC_REG_TYPE] = rnd() % 4;
        f[R500_PVS_F_DM_SRC_ABS] = rnd() % 4 == 0;
        f[R500_PVS_F_DM_SRC_OFFSET] = rnd() % 8;
        if (f[R500_PVS_F_DM_SRC_REG_TYPE] == 2 && rnd() % 3 == 0) {
            f[R500_PVS_F_DM_SRC_ADDR_MODE_0] = 1;
            f[R500_PVS_F_DM_SRC_ADDR_SEL] = rnd() % 4;
        }
        f[R500_PVS_F_DM_SRC_SWIZZLE_X] = rnd() % 8;
        f[R500_PVS_F_DM_SRC_SWIZZLE_Y] = rnd() % 8;
        f[R500_PVS_F_DM_SRC_MODIFIER_X] = rnd() % 3 == 0;
        f[R500_PVS_F_DM_SRC_MODIFIER_Y] = rnd() % 3 == 0;
        f[R500_PVS_F_DM_DST_OFFSET] = rnd() % 4;
        f[R500_PVS_F_DM_DST_WE_SEL] = rnd() % 4;
        unsigned mop = rnd() % 29;
        mop = mop == 4 || (mop >= 13 && mop <= 15) ? 6 : mop;
        f[R500_PVS_F_DM_OPCODE] = mop & 15;
        f[R500_PVS_F_DM_OPCODE_MSB] = mop >> 4;
    }
    r500_pvs_encode(&in, w);
}

int main(void)
{
    r500_pvs_jit *jit = r500_pvs_jit_new();
    if (!jit)
        return 1;
    const r500_pvs_engine_ops *ops = r500_pvs_jit_ops(jit);
    for (int i = 0; i < R500_PVS_NUM_CONSTS; i++)
        for (int k = 0; k < 4; k++)
            consts_[i][k] = rval();
    unsigned files = 0, calls = 0, ncap = 0;
    const char *corpus = ls_test_corpus();
    if (corpus) {
        corpus_dir(corpus, "src", true, ops, &files);
        corpus_dir(corpus, "drm", false, ops, &files);
        if (!R500_PVS_JIT_PLANTED || !diffs)
            ncap = captures(corpus, ops, &calls);
    } else {
        printf("corpus not found (LOCKSTEP_CORPUS or ../shared/corpus): random programs only\n");
    }
    printf("%u corpus vertex programs; %u r300 captures, %u vertex program runs in them\n", files,
           ncap, calls);
    const char *env = getenv("LOCKSTEP_DIFF_PROGRAMS");
    if (!env || !*env)
        env = getenv("LOCKSTEP_DIFF_PROGRAMS_DEFAULT");
    unsigned nprog = env && *env ? (unsigned)strtoul(env, NULL, 10) : 400;
    unsigned p;
    for (p = 0; p < nprog && !(R500_PVS_JIT_PLANTED && diffs); p++) {
        size_t count = 1 + rnd() % 12;
        uint32_t w[12 * 4];
        for (size_t i = 0; i < count; i++)
            random_inst(&w[4 * i]);
        r500_pvs_options o;
        r500_pvs_options_default(&o);
        o.zta = rnd() % 2 ? R500_PVS_ZTA_LEGACY : R500_PVS_ZTA_IEEE;
        o.minmax = rnd() % 2 ? R500_PVS_MINMAX_SECOND : R500_PVS_MINMAX_NUMBER;
        o.math.mad = rnd() % 2 ? R500_MAD_SEPARATE : R500_MAD_FUSED;
        o.math.clamp_nan = rnd() % 2 ? R500_CLAMP_NAN_ZERO : R500_CLAMP_NAN_KEEP;
        o.me_b = rnd() % 2 ? R500_PVS_ME_B_SRC1 : R500_PVS_ME_B_SRC2;
        o.sincos = rnd() % 2 ? R500_PVS_SINCOS_CLAMP : R500_PVS_SINCOS_FULL;
        o.ff_inf = rnd() % 2 ? R500_PVS_FF_INF_MAX : R500_PVS_FF_INF_INF;
        o.math.rcp_zero = (r500_rcp_zero)(rnd() % 2);
        o.math.rsq_negative = (r500_rsq_neg)(rnd() % 2);
        o.math.ln2_zero = (r500_ln2_zero)(rnd() % 2);
        size_t n = 1 + rnd() % 21;
        r500_pvs_state *st = calloc(n, sizeof *st);
        random_states(st, n);
        char name[64];
        snprintf(name, sizeof name, "random-%u", p);
        compare(name, w, count, 0, count - 1, (const float(*)[4])consts_, NULL, &o, ops, st, n);
        free(st);
    }
    r500_pvs_jit_counts c;
    r500_pvs_jit_get_counts(jit, &c);
    printf("%u random programs; %u comparisons (%u of programs the JIT compiles); "
           "%zu compiled, %zu cache hits, %zu left to the interpreter; %u differing; "
           "%u values NaN in both (bits not compared)\n",
           p, compared, compiled_runs, c.compiled, c.hits, c.interp_programs, diffs, both_nan);
    printf("compiled programs with an A0-relative constant: %u runs in range, %u with a vertex "
           "out of range (left to the interpreter)\n",
           a0rel_runs, a0rel_faults);
    r500_pvs_jit_free(jit);
    if (R500_PVS_JIT_PLANTED) {
        printf(diffs ? "planted rule %d found\n" : "planted rule %d NOT found\n",
               R500_PVS_JIT_PLANTED);
        return diffs ? 0 : 1;
    }
    if (compiled_runs < compared / 4) {
        printf("too few comparisons of compiled programs\n");
        return 1;
    }
    if (nprog >= 50 && (!a0rel_runs || !a0rel_faults)) {
        printf("no compiled A0-relative constant run %s\n", a0rel_runs ? "out of range" : "in range");
        return 1;
    }
    return diffs ? 1 : 0;
}

#else
int main(void)
{
    printf("SKIP: built without the JIT (LLVM)\n");
    return 77;
}
#endif
