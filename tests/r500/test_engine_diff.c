/* The engines agree (docs/r500-jit.md): every corpus program, every example
 * and random programs — random ALU/OUT words (every field random within its
 * width, sources drawn from a few temps, constants holding ±0, denormals,
 * ±inf, NaNs, inline floats) inside random structured flow control (nested
 * IF/ELSE, LOOP with BREAK/CONTINUE, on the ALU result the random
 * instructions set) and random TEX instructions (LD, TEXKILL, PROJ, LODBIAS,
 * LOD on a bound random texture) — run through the interpreter (the model of record) and
 * the JIT, which must give identical bits in every render target, W, the kill
 * mask, the work counts, every statistic and every fault
 * (R500_RESULT_IMAGES and R500_STATS_COUNTERS in lockstep/r500.h: one list).
 * The corpus programs and the examples run twice more through one JIT
 * engine with a compile cache: the first run compiles, the second must find
 * the program in the cache (no compile time) and give the same bits.
 * Skipped (77) when the JIT is not built. */
#include "test_util.h"

#include <dirent.h>
#include <stdio.h>

#include "lockstep/r500.h"
#include "lockstep/r500_asm.h"
#include "lockstep/r500_tex.h"
#ifdef LOCKSTEP_HAVE_JIT
#include "lockstep/r500_jit.h"
#endif
#include "base/buf.h"

/* R500_JIT_PLANTED=N: this test linked with a JIT built with planted wrong
 * rule N (src/r500/jit/jit.c; tests/r500/meson.build) must fail to agree */
#ifndef R500_JIT_PLANTED
#define R500_JIT_PLANTED 0
#endif

static int mismatches;
#ifdef LOCKSTEP_HAVE_JIT
static r500_jit_engine *cached; /* the corpus's and examples' compile cache */
#endif

/* NaN results whose bits differ: counted, not failures. When two NaNs meet
 * in one operation, which one the host's SSE/AVX instruction returns depends
 * on the operand order the C compiler (interpreter) or LLVM (JIT) chose for a
 * commutative operation, so neither engine defines those bits
 * (docs/r500-jit.md, "NaN payloads"). A NaN's bits never reach a non-NaN
 * value (comparisons and OMOD do not look at them), so every other bit is
 * compared exactly. */
static unsigned long nan_payload_diffs;

/* A random program whose every ALU/OUT instruction has OMOD 0..6: every NaN
 * it writes is OMOD's 0x7FFFFFFF (alu.c r500_alu_omod), TEX results are the
 * sampler's (one code for both engines), so NaN bits are defined and
 * compared exactly too. */
static bool strict_nan;

/* The first difference found (the planted-bug builds check it names a
 * float image). */
static char first_diff[256];

static bool is_nan_bits(uint32_t u)
{
    return (u & 0x7f800000u) == 0x7f800000u && (u & 0x7fffffu);
}

/* Compare an image; report the first difference. */
static bool same_image(const char *what, const char *m, const void *a, const void *b,
                       size_t len, bool is_float)
{
    if (!a || !b) {
        if (!a != !b)
            fprintf(stderr, "%s: %s present in one engine only\n", what, m);
        return !a == !b;
    }
    if (memcmp(a, b, len) == 0)
        return true;
    if (is_float) {
        const uint32_t *x = a, *y = b;
        unsigned long nans = 0;
        for (size_t i = 0; i < len / 4; i++) {
            if (x[i] == y[i])
                continue;
            if (!strict_nan && is_nan_bits(x[i]) && is_nan_bits(y[i])) {
                nans++;
                continue;
            }
            fprintf(stderr, "%s: %s differs at word %zu: 0x%08x (interp) != 0x%08x (jit)\n",
                    what, m, i, x[i], y[i]);
            if (!first_diff[0])
                snprintf(first_diff, sizeof first_diff, "%s differs at word %zu: 0x%08x != 0x%08x",
                         m, i, x[i], y[i]);
            return false;
        }
        nan_payload_diffs += nans;
        return true;
    }
    const unsigned char *x = a, *y = b;
    size_t i = 0;
    while (i < len && x[i] == y[i])
        i++;
    fprintf(stderr, "%s: %s differs at byte %zu\n", what, m, i);
    return false;
}

/* Compare two results field by field from the one declaration; print the
 * first difference of each kind. */
static bool same_result(const char *what, const r500_result *a, const r500_result *b)
{
    bool ok = a->width == b->width && a->height == b->height;
    size_t npix = (size_t)a->width * (size_t)a->height;
#define CMP_IMAGE(m, bpp, is_float)                                                                \
    if (ok && !same_image(what, #m, a->m, b->m, npix * (bpp), is_float))                           \
        ok = false;
    R500_RESULT_IMAGES(CMP_IMAGE)
#undef CMP_IMAGE
#define CMP_COUNTER(f)                                                                             \
    if (ok && a->stats.f != b->stats.f) {                                                          \
        fprintf(stderr, "%s: stats.%s %llu != %llu\n", what, #f,                                   \
                (unsigned long long)a->stats.f, (unsigned long long)b->stats.f);                   \
        ok = false;                                                                                \
    }
    R500_STATS_COUNTERS(CMP_COUNTER)
#undef CMP_COUNTER
    if (ok && (a->stats.nthreads != b->stats.nthreads ||
               memcmp(a->stats.thread_insts, b->stats.thread_insts,
                      a->stats.nthreads * sizeof *a->stats.thread_insts) != 0)) {
        fprintf(stderr, "%s: thread_insts differ\n", what);
        ok = false;
    }
    if (ok && a->nfaults != b->nfaults) {
        fprintf(stderr, "%s: %zu faults != %zu\n", what, a->nfaults, b->nfaults);
        ok = false;
    }
    for (size_t i = 0; ok && i < a->nfaults; i++) {
        const r500_fault *x = &a->faults[i], *y = &b->faults[i];
        if (x->thread != y->thread || x->diag.status != y->diag.status ||
            x->diag.index != y->diag.index || strcmp(x->diag.msg, y->diag.msg) != 0) {
            fprintf(stderr, "%s: fault %zu differs: '%s' / '%s'\n", what, i, x->diag.msg,
                    y->diag.msg);
            ok = false;
        }
    }
    if (!ok)
        mismatches++;
    return ok;
}

/* Run job on both engines and compare; false if either engine refuses it
 * (then both must refuse it with the same status). */
static bool use_cache; /* diff_job: also through the caching engine */

/* With use_cache, the interpreter's run and the caching engine's first run
 * write into the images of the previous such job's runs (r500_job.recycle:
 * another program's pixels, kills and work counts, at the same size), and
 * must still give the bits of a fresh run through the other engine. */
static r500_result stale_interp;
#ifdef LOCKSTEP_HAVE_JIT
static r500_result stale_jit;
#endif

static void diff_job(const char *what, r500_job *job)
{
    r500_result a, b;
    ls_diag da, db;
    ls_diag_clear(&da);
    ls_diag_clear(&db);
    job->work_image = true; /* compared like every image */
    job->options.engine = R500_ENGINE_INTERP;
    job->recycle = use_cache ? &stale_interp : NULL;
    const float *old0 = use_cache && stale_interp.width == job->width &&
                                stale_interp.height == job->height
                            ? stale_interp.target[0]
                            : NULL;
    ls_status sa = r500_run(job, &a, NULL, &da);
    job->recycle = NULL;
    if (sa == LS_OK && old0 && (a.target[0] != old0 || stale_interp.target[0])) {
        fprintf(stderr, "%s: the run did not take over the recycled image\n", what);
        mismatches++;
    }
    if (use_cache)
        r500_result_free(&stale_interp); /* what the run did not take */
    job->options.engine = R500_ENGINE_JIT;
#ifdef LOCKSTEP_HAVE_JIT
    job->options.jit = r500_jit_ops();
#endif
    ls_status sb = r500_run(job, &b, NULL, &db);
    if (sa != sb) {
        fprintf(stderr, "%s: status %d (interp) != %d (jit): %s / %s\n", what, sa, sb, da.msg,
                db.msg);
        mismatches++;
    } else if (sa == LS_OK) {
        same_result(what, &a, &b);
    }
    r500_result_free(&b);
    static unsigned long no_work_runs;
    if (sa == LS_OK && no_work_runs++ % 2 == 0) {
        /* every other job once more without a work image: compiled code
         * that keeps no per-lane counts gives every other result the same */
        job->work_image = false;
        ls_status sn = r500_run(job, &b, NULL, &db);
        r500_result ref = a;
        ref.work = NULL;
        if (sn != sa || b.work) {
            fprintf(stderr, "%s: without a work image: status %d, work %p\n", what, sn,
                    (void *)b.work);
            mismatches++;
        } else {
            char w2[300];
            snprintf(w2, sizeof w2, "%s (no work image)", what);
            same_result(w2, &ref, &b);
        }
        r500_result_free(&b);
        job->work_image = true;
    }
#ifdef LOCKSTEP_HAVE_JIT
    if (use_cache && cached) {
        /* twice through the caching engine: the second run is a cache hit */
        job->options.jit = r500_jit_engine_ops(cached);
        for (int k = 0; k < 2; k++) {
            size_t hits0 = 0, hits1 = 0;
            r500_jit_engine_cached(cached, &hits0);
            job->recycle = k == 0 ? &stale_jit : NULL;
            ls_status sc = r500_run(job, &b, NULL, &db);
            job->recycle = NULL;
            if (k == 0)
                r500_result_free(&stale_jit);
            r500_jit_engine_cached(cached, &hits1);
            if (sc != sa) {
                fprintf(stderr, "%s: status %d (interp) != %d (cached jit)\n", what, sa, sc);
                mismatches++;
            } else if (sa == LS_OK) {
                same_result(what, &a, &b);
                if (k == 1 && (hits1 != hits0 + 1 || b.stats.compile_seconds != 0)) {
                    fprintf(stderr, "%s: second cached run: %zu hits (was %zu), compiled %g s\n",
                            what, hits1, hits0, b.stats.compile_seconds);
                    mismatches++;
                }
            }
            if (k == 1 && sc == LS_OK)
                stale_jit = b; /* the next job's first cached run writes into it */
            else
                r500_result_free(&b);
        }
        job->options.jit = r500_jit_ops();
    }
#endif
    if (use_cache && sa == LS_OK)
        stale_interp = a; /* the next job's interpreter run writes into it */
    else
        r500_result_free(&a);
}

static const char *root(const char *env, const char *fallback)
{
    const char *r = getenv(env);
    return r && *r ? r : fallback;
}

/* ---- the corpus and the examples ---------------------------------------- */

static void test_corpus(void **st)
{
    (void)st;
    char dir[1024];
    const char *c = getenv("LOCKSTEP_CORPUS");
    if (!c || !*c)
        c = root("LOCKSTEP_CORPUS_DEFAULT", "../shared/corpus");
    snprintf(dir, sizeof dir, "%s/mesa-r300/out", c);
    DIR *dp = opendir(dir);
    if (!dp) {
        fprintf(stderr, "no corpus at %s: skipped\n", dir);
        skip();
    }
    int n = 0;
    struct dirent *e;
    while ((e = readdir(dp))) {
        if (e->d_name[0] == '.')
            continue;
        char path[2048];
        snprintf(path, sizeof path, "%s/%s/program.json", dir, e->d_name);
        r500_job job;
        r500_job_init(&job);
        ls_diag d;
        if (r500_job_load(&job, path, &d) != LS_OK) {
            r500_job_free(&job);
            continue;
        }
        /* a size with partial quads, every thread size class */
        static const unsigned ts[3] = {48, 64, 7};
        for (int k = 0; k < 3; k++) {
            job.width = 37;
            job.height = 29;
            job.thread_size = ts[k];
            job.inputs[0].kind = R500_INPUT_UV;
            use_cache = true;
            diff_job(path, &job);
            use_cache = false;
        }
        r500_job_free(&job);
        n++;
    }
    closedir(dp);
    fprintf(stderr, "corpus: %d programs\n", n);
    assert_true(n > 0);
    assert_int_equal(mismatches, 0);
}

static void test_examples(void **st)
{
    (void)st;
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/examples/r500", root("LOCKSTEP_SOURCE_ROOT", "."));
    DIR *dp = opendir(dir);
    assert_non_null(dp);
    int n = 0;
    struct dirent *e;
    while ((e = readdir(dp))) {
        size_t l = strlen(e->d_name);
        if (l < 7 || strcmp(e->d_name + l - 7, ".fs.asm") != 0)
            continue;
        char path[2048];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        r500_job job;
        r500_job_init(&job);
        ls_diag d;
        assert_int_equal(r500_job_load(&job, path, &d), LS_OK);
        job.width = 67;
        job.height = 45;
        job.inputs[0].kind = R500_INPUT_UV;
        use_cache = true;
        diff_job(path, &job);
        use_cache = false;
        job.thread_size = 4;
        diff_job(path, &job);
        r500_job_free(&job);
        n++;
    }
    closedir(dp);
    fprintf(stderr, "examples: %d programs\n", n);
    assert_true(n >= 5);
    assert_int_equal(mismatches, 0);
}

/* ---- random programs ---------------------------------------------------- */

static uint32_t rnd(uint64_t *s, uint32_t n)
{
    return (uint32_t)(ls_test_rand(s) % n);
}

/* Special values (float bits), chosen at the boundaries of the
 * interpreter's rules (alu.c): */
static const uint32_t specials[] = {
    /* ±0; r500_alu_omod flushes |u| < 0x00800000 to ±0 (denormals on both
     * sides of 2^-127 and 2^-126); r500_cmp_zero treats |v| < FLT_MIN as 0 */
    0x00000000, 0x80000000, 0x00000001, 0x80000001, 0x003fffff, 0x803fffff, 0x00400000,
    0x80400000, 0x00400001, 0x005fffff, 0x80600000, 0x007fffff, 0x807fffff, 0x00800000,
    0x80800000, 0x00800001, 0x80800001,
    /* products and OMOD ÷2..÷8 results near 2^-126: 2^-63·2^-63 = 2^-126,
     * 0x1fffffff² and 2^-63·2^-64 below it; 2^-125, 2^-124 ÷ 8 */
    0x20000000, 0xa0000000, 0x1fffffff, 0x20000001, 0x1f800000, 0x9f800000, 0x01000000,
    0x81800000, 0x00ffffff,
    /* ±inf, NaNs with payloads (signalling and quiet, both signs), OMOD's
     * canonical NaN */
    0x7f800000, 0xff800000, 0x7fc00000, 0xffc00000, 0x7f800001, 0xff800001, 0x7fa5a5a5,
    0xffc0ffee, 0x7fffffff, 0xffffffff,
    /* OMOD ×2..×8 near overflow; FLT_MAX; RCP of 2^127 is denormal */
    0x7f7fffff, 0xff7fffff, 0x7e800000, 0x7e7fffff, 0x7f000000, 0xff000000, 0x7dffffff,
    /* clamp01 bounds, CND's 0.5, BIAS presubtract 1-2s; ordinary values */
    0x3f800000, 0xbf800000, 0x3f7fffff, 0x3f800001, 0x3f000000, 0x3effffff, 0x3f000001,
    0x33800000, 0xb3800000, 0x40490fdb, 0xc0000000, 0x3e800000,
    /* EX2 at -126, -127, -149 (normal, denormal, smallest) and 128 (inf) */
    0xc2fc0000, 0xc2fe0000, 0xc3150000, 0x43000000,
};

static uint32_t rand_value(uint64_t *s)
{
    if (rnd(s, 3) == 0) {
        float f = (float)((int)rnd(s, 2001) - 1000) / 250.0f;
        uint32_t u;
        memcpy(&u, &f, 4);
        return u;
    }
    return specials[rnd(s, sizeof specials / sizeof specials[0])];
}

/* One random ALU or OUT instruction as a `.raw` line. */
static void rand_alu(uint64_t *s, ls_buf *b)
{
    r500_inst in;
    r500_inst_type t = rnd(s, 4) == 0 ? R500_TYPE_OUT : R500_TYPE_ALU;
    r500_inst_init(&in, t);
    for (unsigned f = 0; f < R500_F_COUNT; f++) {
        const r500_field_desc *fd = r500_field((r500_field_id)f);
        if (f == R500_F_TYPE || !r500_field_applies(fd, t))
            continue;
        uint32_t mask = fd->width >= 32 ? 0xffffffffu : (1u << fd->width) - 1u;
        in.field[f] = (uint32_t)ls_test_rand(s) & mask;
    }
    /* sources: temps 0..7, constants 0..7 or inline floats; aL-relative rarely */
    static const r500_field_id addr[6][3] = {
        {R500_F_RGB_ADDR0, R500_F_RGB_ADDR0_CONST, R500_F_RGB_ADDR0_REL},
        {R500_F_RGB_ADDR1, R500_F_RGB_ADDR1_CONST, R500_F_RGB_ADDR1_REL},
        {R500_F_RGB_ADDR2, R500_F_RGB_ADDR2_CONST, R500_F_RGB_ADDR2_REL},
        {R500_F_ALPHA_ADDR0, R500_F_ALPHA_ADDR0_CONST, R500_F_ALPHA_ADDR0_REL},
        {R500_F_ALPHA_ADDR1, R500_F_ALPHA_ADDR1_CONST, R500_F_ALPHA_ADDR1_REL},
        {R500_F_ALPHA_ADDR2, R500_F_ALPHA_ADDR2_CONST, R500_F_ALPHA_ADDR2_REL},
    };
    for (int k = 0; k < 6; k++) {
        bool inl = rnd(s, 8) == 0;
        in.field[addr[k][1]] = !inl && rnd(s, 3) == 0;
        in.field[addr[k][0]] = inl ? 0x80u | rnd(s, 128) : rnd(s, 8);
        in.field[addr[k][2]] = rnd(s, 16) == 0;
    }
    in.field[R500_F_RGB_ADDRD] = rnd(s, 8);
    in.field[R500_F_ALPHA_ADDRD] = rnd(s, 8);
    in.field[R500_F_RGB_ADDRD_REL] = rnd(s, 16) == 0;
    in.field[R500_F_ALPHA_ADDRD_REL] = rnd(s, 16) == 0;
    /* mostly defined opcodes (a reserved one is a fault, also compared) */
    if (rnd(s, 16)) {
        static const uint8_t rops[] = {0, 1, 2, 3, 4, 5, 7, 8, 9, 10, 11, 12};
        static const uint8_t aops[] = {0, 1, 2, 3, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};
        in.field[R500_F_RGB_OP] = rops[rnd(s, sizeof rops)];
        in.field[R500_F_ALPHA_OP] = aops[rnd(s, sizeof aops)];
        if (in.field[R500_F_ALPHA_OP] == 1 && !(in.field[R500_F_RGB_OP] >= 1 && in.field[R500_F_RGB_OP] <= 3))
            in.field[R500_F_ALPHA_OP] = 0;
        if (in.field[R500_F_RGB_OP] == 10 && !(in.field[R500_F_ALPHA_OP] >= 8 && in.field[R500_F_ALPHA_OP] <= 13))
            in.field[R500_F_ALPHA_OP] = 8 + rnd(s, 6);
        in.field[R500_F_RGB_PRED_SEL] = rnd(s, 6);
        in.field[R500_F_ALPHA_PRED_SEL] = rnd(s, 6);
        if (rnd(s, 2)) /* OMOD 7 passes values bit-exactly: NaN payloads reach the outputs */
            in.field[R500_F_RGB_OMOD] = in.field[R500_F_ALPHA_OMOD] = rnd(s, 2) ? 7 : 0;
    }
    if (strict_nan) { /* OMOD 0..6 only: ×1 half the time, else ×2..÷8 */
        in.field[R500_F_RGB_OMOD] = rnd(s, 2) ? 0 : 1 + rnd(s, 6);
        in.field[R500_F_ALPHA_OMOD] = rnd(s, 2) ? 0 : 1 + rnd(s, 6);
    }
    if (rnd(s, 2)) { /* often no predicates: more pixels written */
        in.field[R500_F_RGB_PRED_SEL] = 0;
        in.field[R500_F_ALPHA_PRED_SEL] = 0;
    }
    for (unsigned w = 0; w < R500_INST_WORDS; w++)
        in.unclaimed[w] = 0;
    uint32_t words[R500_INST_WORDS];
    r500_encode(&in, words);
    ls_buf_printf(b, ".raw 0x%08x 0x%08x 0x%08x 0x%08x 0x%08x 0x%08x\n", words[0], words[1],
                  words[2], words[3], words[4], words[5]);
}

static int rand_block(uint64_t *s, ls_buf *b, int depth, int loops, int budget);

static int rand_stmt(uint64_t *s, ls_buf *b, int depth, int loops, int budget)
{
    uint32_t r = rnd(s, 10);
    if (depth >= 4 || budget <= 0)
        r = 0;
    if (r <= 3 || (r == 4 && !rnd(s, 2))) {
        rand_alu(s, b);
        return 1;
    }
    if (r == 4) {
        /* TEX on sampler 0 (bound): LD, TEXKILL, PROJ, LODBIAS or LOD */
        static const char *const ops[] = {"LD", "TEXKILL", "PROJ", "LODBIAS", "LOD"};
        static const char *const sw[] = {"rgba", "abgr", "rrra", "ggba"};
        ls_buf_printf(b, "TEX temp[%u].%s = %s tex[0].%s temp[%u].%s", rnd(s, 8),
                      rnd(s, 2) ? "rgba" : "rg", ops[rnd(s, 5)], sw[rnd(s, 4)], rnd(s, 8),
                      sw[rnd(s, 4)]);
        /* fields: IGNORE_UNCOVERED now and then; the predicate (RGB_PRED_SEL,
         * RGB_PRED_INV: which lanes a TEXKILL kills and a fetch writes) from a
         * second stream, so that the main one (and the programs the planted
         * tests find first) stays as it was */
        const bool ign = !rnd(s, 3);
        uint64_t s2 = *s * 0x9E3779B97F4A7C15ull + 1;
        static const char *const psel[] = {"", "RGBA", "RRRR", "GGGG", "BBBB", "AAAA"};
        const uint32_t ps = rnd(&s2, 3) ? 0 : 1 + rnd(&s2, 5), pinv = rnd(&s2, 2);
        if (ign || ps)
            ls_buf_printf(b, " {%s", ign ? " TEX_IGNORE_UNCOVERED=1" : "");
        if (ps)
            ls_buf_printf(b, " RGB_PRED_SEL=%s RGB_PRED_INV=%u", psel[ps], pinv);
        ls_buf_puts(b, ign || ps ? " } ;\n" : " ;\n");
        return 1;
    }
    if (r <= 7) {
        int used = 1;
        rand_alu(s, b); /* sets the ALU result the IF reads, when ALU_WMASK is set */
        ls_buf_puts(b, rnd(s, 4) == 0 ? "IF !alu\n" : "IF alu\n");
        used += rand_block(s, b, depth + 1, loops, budget - 1);
        if (loops && rnd(s, 3) == 0)
            ls_buf_puts(b, rnd(s, 2) ? "BREAK\n" : "CONTINUE\n");
        if (rnd(s, 2)) {
            ls_buf_puts(b, "ELSE\n");
            used += rand_block(s, b, depth + 1, loops, budget - used);
        }
        ls_buf_puts(b, "ENDIF\n");
        return used + 2;
    }
    if (loops < 2) {
        ls_buf_printf(b, "LOOP %u\n", rnd(s, 2));
        int used = rand_block(s, b, depth + 1, loops + 1, budget - 1);
        ls_buf_puts(b, "ENDLOOP\n");
        return used + 2;
    }
    rand_alu(s, b);
    return 1;
}

static int rand_block(uint64_t *s, ls_buf *b, int depth, int loops, int budget)
{
    int n = 1 + (int)rnd(s, 4), used = 0;
    for (int i = 0; i < n && used < budget; i++)
        used += rand_stmt(s, b, depth, loops, budget - used);
    return used;
}

static void random_programs(int count, uint64_t seed)
{
    uint64_t s = seed;
    int ran = 0, strict = 0;
    for (int p = 0; p < count; p++) {
        ls_buf src;
        ls_buf_init(&src);
        strict_nan = p % 3 == 1;
        strict += strict_nan;
        for (unsigned k = 0; k < 8; k++)
            ls_buf_printf(&src, ".const %u 0x%08x 0x%08x 0x%08x 0x%08x\n", k, rand_value(&s),
                          rand_value(&s), rand_value(&s), rand_value(&s));
        ls_buf_printf(&src, ".int 0 %u %u 1\n.int 1 %u 0 %d\n", 1 + rnd(&s, 4), rnd(&s, 4),
                      1 + rnd(&s, 3), (int)rnd(&s, 3) - 1);
        rand_block(&s, &src, 0, 0, 24);
        rand_alu(&s, &src);
        char name[64];
        snprintf(name, sizeof name, "random-%d.fs.asm", p);
        r500_job job;
        r500_job_init(&job);
        ls_diag d;
        if (r500_job_load_mem(&job, name, src.data, src.len, &d) != LS_OK) {
            fprintf(stderr, "%s: %s\n%s", name, d.msg, src.data);
            fail();
        }
        static const unsigned ts[] = {1, 3, 4, 8, 16, 48, 64};
        job.thread_size = ts[rnd(&s, sizeof ts / sizeof ts[0])];
        job.width = 5 + (int)rnd(&s, 12);
        job.height = 3 + (int)rnd(&s, 9);
        job.workers = 1 + rnd(&s, 2);
        job.regs.us_config = rnd(&s, 2) << 1; /* ZERO_TIMES_ANYTHING either way */
        {
            /* sampler 0: a random 4x4 texture (with special values) */
            float texels[4 * 4 * 4];
            for (int k = 0; k < 64; k++) {
                uint32_t u = rnd(&s, 4) ? (uint32_t)rnd(&s, 1000) * 0x00010000u + 0x3c000000u
                                        : rand_value(&s);
                memcpy(&texels[k], &u, 4);
            }
            r500_texture *tx = NULL;
            assert_int_equal(r500_texture_create(4, 4, texels, &tx, &d), LS_OK);
            job.tex[0] = tx;
        }
        job.inputs[0].kind = R500_INPUT_UV;
        job.inputs[1].kind = R500_INPUT_CLIP;
        job.inputs[2].kind = R500_INPUT_CONST;
        for (int c = 0; c < 4; c++) {
            uint32_t u = rand_value(&s);
            memcpy(&job.inputs[2].value[c], &u, 4);
        }
        /* temps 3 and 4: a special or ordinary value per pixel and channel,
         * so that every program meets many of them in its lanes */
        size_t npix = (size_t)job.width * (size_t)job.height;
        float *img = malloc(2 * 4 * npix * sizeof *img);
        assert_non_null(img);
        for (size_t k = 0; k < 2 * 4 * npix; k++) {
            uint32_t u = rand_value(&s);
            memcpy(&img[k], &u, 4);
        }
        job.inputs[3].kind = R500_INPUT_IMAGE;
        job.inputs[3].image = img;
        job.inputs[4].kind = R500_INPUT_IMAGE;
        job.inputs[4].image = img + 4 * npix;
        static const char *const opts[][3] = {
            {"mad", "separate", "fused"},      {"clamp-nan", "zero", "keep"},
            {"rcp-zero", "inf", "max"},        {"rsq-negative", "nan", "abs"},
            {"ln2-zero", "-inf", "-max"},      {"pred-write", "active", "predicated"},
            {"kill", "stop", "continue"},
        };
        for (size_t o = 0; o < sizeof opts / sizeof opts[0]; o++)
            assert_int_equal(r500_options_set(&job.options, opts[o][0], opts[o][1 + rnd(&s, 2)], &d),
                             LS_OK);
        /* every other program: random FC model options (compiled code has
         * them as constants; small stacks and counters make FC faults) */
        static const char *const fco[][3] = {
            {"loop-trips", "kr", "kr+1"},           {"al-update", "on-jump", "every-endloop"},
            {"loop-skip", "fallthrough", "literal"}, {"break-inhibit", "any", "loop"},
            {"pred-none", "0", "1"},                {"incr-scope", "branch", "all"},
            {"alu-result-after-fc", "keep", "clear"}, {"loop-stack-depth", "4", "1"},
            {"branch-counter-max", "255", "2"},
        };
        for (size_t o = 0; p % 2 == 0 && o < sizeof fco / sizeof fco[0]; o++)
            if (rnd(&s, 2))
                assert_int_equal(r500_options_set(&job.options, fco[o][0], fco[o][1 + rnd(&s, 2)],
                                                  &d),
                                 LS_OK);
        static const char *const wd[] = {"30", "150", "100000"};
        assert_int_equal(r500_options_set(&job.options, "watchdog", wd[rnd(&s, 3)], &d), LS_OK);
        int before = mismatches;
        diff_job(name, &job);
        if (mismatches != before)
            fprintf(stderr, "%s (seed %llu, program %d):\n%s\n", name, (unsigned long long)seed,
                    p, src.data);
        ran++;
        r500_job_free(&job);
        free(img);
        ls_buf_free(&src);
        if (mismatches > (R500_JIT_PLANTED ? 0 : 3))
            break;
    }
    strict_nan = false;
    fprintf(stderr,
            "random: %d programs, %d of them with NaN bits compared (elsewhere NaN results "
            "with other bits: %lu values)\n",
            ran, strict, nan_payload_diffs);
}

/* Directed programs at the edges of rules the JIT proves statically (jit.c's
 * sum_clean: a MAD x 1 c result that OMOD's rule would not change goes
 * unclassified), NaN bits compared: temp[5] = c0 (-2^-126 and a NaN, which
 * OMOD makes 0x7FFFFFFF); temp[6].r = temp[5].r + (2^-126 + 2^-149), which
 * is 2^-149 and flushed to 0 — a constant below 2^-102, so it must be
 * classified; temp[6].g = 0x7FFFFFFF + 1 (not classified: the NaN the sum
 * returns is the canonical one); temp[6].b = -0x7FFFFFFF + 1 (a negated NaN:
 * classified). */
static const char directed_sum[] = ".const 0 0x80800000 0x7fc00001 0 0\n"
                                   ".const 1 0x00800001 0x3f800000 0 0\n"
                                   "src0.rgb = const[0] :\n"
                                   "  temp[5].rg = MAD src0.rg0 src0.110 src0.000 ;\n"
                                   "src0.rgb = temp[5], src1.rgb = const[1] :\n"
                                   "  temp[6].rg = MAD src0.rg0 src0.110 src1.rg0 ;\n"
                                   "src0.rgb = temp[5], src1.rgb = const[1] :\n"
                                   "  temp[6].b = MAD -src0.00g src0.001 src1.00g ;\n"
                                   "OUT\n"
                                   "src0.rgb = temp[6] :\n"
                                   "  out[0].rgb = MAD src0.rgb src0.111 src0.000 ;\n";

/* Directed program at the edge of jit.c's select_clean (a MIN, MAX, CND or
 * CMP of two clean operands with OMOD x1 goes unclassified), NaN bits
 * compared: temp[5] = c0 through OMOD (-2^-126 and 0x7FFFFFFF); temp[1].r =
 * 2^-149 without OMOD's rule (not clean). temp[6].r = MAX of temp[1].r
 * (flushed to 0: classified), temp[6].g = CMP choosing -temp[5].g (a
 * negated NaN, 0xFFFFFFFF, which the rule makes 0x7FFFFFFF: classified),
 * temp[6].b = MIN of the constant 2^-149 (below 2^-102: classified, 0),
 * temp[6].a = MAX of temp[5].r and 0 (clean: 0). */
static const char directed_select[] = ".const 0 0x80800000 0x7fc00001 0 0\n"
                                      ".const 1 0x00000001 0 0 0\n"
                                      "src0.rgb = const[0] :\n"
                                      "  temp[5].rg = MAD src0.rg0 src0.110 src0.000 ;\n"
                                      "src0.rgb = const[1] :\n"
                                      "  temp[1].r = MAD src0.r00 src0.100 src0.000 { RGB_OMOD=7 } ;\n"
                                      "src0.rgb = temp[1] :\n"
                                      "  temp[6].r = MAX src0.r00 src0.r00 ;\n"
                                      "src0.rgb = temp[5] :\n"
                                      "  temp[6].g = CMP -src0.0g0 -src0.0g0 src0.000 ;\n"
                                      "src0.rgb = const[1] :\n"
                                      "  temp[6].b = MIN src0.00r src0.00r ;\n"
                                      "src0.a = temp[5] :\n"
                                      "  temp[6].a = MAX src0.r src0.0 ;\n"
                                      "OUT\n"
                                      "src0.rgb = temp[6], src0.a = temp[6] :\n"
                                      "  out[0].a = MAX src0.a src0.a ,\n"
                                      "  out[0].rgb = MAX src0.rgb src0.rgb { RGB_OMOD=7 ALPHA_OMOD=7 } ;\n";

/* Directed program for jit.c's input guard (an input's channel a rule takes
 * as clean is classified on the thread's first entry), NaN bits compared:
 * temp[0] is an input image whose second thread's pixels hold a denormal,
 * a NaN other than 0x7FFFFFFF and 0x7FFFFFFF (input_guard_image); temp[1] =
 * MAX of temp[0] with OMOD x1 (a select of input channels: unclassified
 * where the guard found the thread clean, flushed to 0 or made 0x7FFFFFFF
 * where not). */
static const char directed_input_guard[] =
    "src0.rgb = temp[0], src0.a = temp[0] :\n"
    "  temp[1].a = MAX src0.a src0.a ,\n"
    "  temp[1].rgb = MAX src0.rgb src0.rgb ;\n"
    "OUT\n"
    "src0.rgb = temp[1], src0.a = temp[1] :\n"
    "  out[0].a = MAX src0.a src0.a ,\n"
    "  out[0].rgb = MAX src0.rgb src0.rgb { RGB_OMOD=7 ALPHA_OMOD=7 } ;\n";

/* directed_input_guard's 8x4 input: 0.25 * (k + 1) in channel k of every
 * pixel, but in three pixels of the second thread (threads of 16 lanes:
 * quads 4..7, image rows 2 and 3) a denormal, a NaN and 0x7FFFFFFF */
static void input_guard_image(float img[8 * 4 * 4])
{
    for (int k = 0; k < 8 * 4 * 4; k++)
        img[k] = 0.25f * (float)(k % 4 + 1);
    const uint32_t odd[3] = {0x00000123u, 0xffc00005u, 0x7fffffffu};
    const int at[3] = {4 * (2 * 8 + 5) + 0, 4 * (3 * 8 + 6) + 1, 4 * (2 * 8 + 1) + 3};
    for (int k = 0; k < 3; k++)
        memcpy(&img[at[k]], &odd[k], 4);
}

/* A slot below the program's start that a jump reaches (US_CODE_ADDR 2..4,
 * US_CODE_RANGE from 0) writes a denormal without OMOD's rule: temp[1] is
 * not clean, and temp[2] = temp[1] + 0 (OMOD x1) must be flushed to 0. */
static const char directed_below_start[] =
    ".const 0 0x00200000 0 0 0\n"
    "pre:\n"
    "src0.rgb = const[0] :\n"
    "  temp[1].r = MAD src0.r00 src0.100 src0.000 { RGB_OMOD=7 } ;\n"
    "JUMP body\n"
    "JUMP pre\n"
    "body:\n"
    "src0.rgb = temp[1] :\n"
    "  temp[2].r = MAD src0.r00 src0.111 src0.000 ;\n"
    "OUT\n"
    "src0.rgb = temp[2] :\n"
    "  out[0].rgb = MAX src0.rgb src0.rgb { RGB_OMOD=7 } ;\n";

/* A thread of more than R500_LIMIT_CHECK (4096) instructions under a
 * job-wide limit that never stops it (max-instructions 2^40): compiled code
 * leaves the runs that cross a limit check to the interpreter, whose steps
 * read the temps the compiled code kept in registers — so it must have
 * stored them on that return (255 iterations of REP 20 over one MAD: about
 * 10,000 instructions). */
static const char directed_limit[] =
    ".int 0 255 0 1\n"
    ".int 1 20 0 0\n"
    "src0.rgb = temp[0] :\n"
    "  temp[1].rg = MAD src0.rg0 src0.110 src0.000 ;\n"
    "LOOP 0\n"
    "    REP 1\n"
    "        src0.rgb = temp[1], src1.rgb = float(24) :\n"
    "          temp[1].rg = MAD src1.rr0 src0.110 src0.rg0 ;\n"
    "    ENDREP\n"
    "ENDLOOP\n"
    "OUT\n"
    "src0.rgb = temp[1] :\n"
    "  out[0].rgb = MAD src0.rg0 src0.110 src0.000 ;\n";

/* Every temp in memory (an aL-relative temp source) and no instruction the
 * interpreter steps: temp[2] is read before it is written, so each thread
 * must find it 0 — run_thread clears it because the compiled code said it
 * wrote temps (r500_seg_ctx.temps_dirty); one worker, two threads. */
static const char directed_memory_temps[] =
    ".int 0 1 0 1\n"
    "src0.rgb = temp[2] :\n"
    "  temp[3].rgb = MAD src0.rgb src0.111 src0.111 ;\n"
    "src0.rgb = temp[3] :\n"
    "  temp[2].rgb = MAD src0.rgb src0.111 src0.000 ;\n"
    "LOOP 0\n"
    "    src0.rgb = temp[1] :\n"
    "      temp[1].r = MAD src0.rrr src0.111 src0.000 { RGB_ADDR0_REL=1 } ;\n"
    "ENDLOOP\n"
    "OUT\n"
    "src0.rgb = temp[3] :\n"
    "  out[0].rgb = MAD src0.rgb src0.111 src0.000 ;\n";

/* One program whose results depend on each model option compiled code holds
 * as a constant (jit.c's model_options): RCP, RSQ and LN2 of 0 and -1, a
 * TEXKILL of negative and one of -0 coordinates, instructions after a kill.
 * directed_options runs it with each option flipped in turn through the
 * caching engine too: the cache key must tell them apart, or a cached
 * program compiled for another option gives other bits. */
static const char directed_options_src[] =
    ".const 0 0 0x80000000 -1 0.5\n"
    ".const 1 0.5 0.5 0.5 -1\n"
    "src0.a = const[0] :\n"
    "  temp[1].a = RCP src0.r ;\n"
    "src0.a = const[1] :\n"
    "  temp[2].a = RSQ src0.a ;\n"
    "src0.a = const[0] :\n"
    "  temp[3].a = LN2 src0.r ;\n"
    "src0.rgb = temp[0], src1.rgb = const[0], src2.rgb = const[1] :\n"
    "  temp[4].rgb = MAD src0.rrr src1.bbb src2.rrr ;\n"
    "src0.rgb = const[0] :\n"
    "  temp[5].rgb = MAX src0.ggg src0.ggg ;\n"
    "TEX\n"
    "  temp[6].rgba = TEXKILL tex[0].rgba temp[4].rgba ;\n"
    "src0.a = temp[1], src0.rgb = temp[1] :\n"
    "  temp[7].rgb = MAD src0.aaa src0.111 src0.000 ;\n"
    "src0.a = temp[2], src0.rgb = temp[2] :\n"
    "  temp[7].g = MAD src0.0a0 src0.010 src0.000 ;\n"
    "TEX\n"
    "  temp[6].rgba = TEXKILL tex[0].rgba temp[5].rgba ;\n"
    "src0.a = temp[3], src0.rgb = temp[3] :\n"
    "  temp[7].b = MAD src0.00a src0.001 src0.000 ;\n"
    "OUT\n"
    "src0.a = temp[7], src0.rgb = temp[7] :\n"
    "  out[0].a = MAX src0.1 src0.1 ,\n"
    "  out[0].rgb = MAX src0.rgb src0.rgb ;\n";

static void directed_options(void)
{
    static const char *const flip[][2] = {{NULL, NULL},
                                          {"rcp-zero", "max"},
                                          {"rsq-negative", "abs"},
                                          {"ln2-zero", "-max"},
                                          {"kill", "continue"},
                                          {"texkill-zero", "kill"}};
    for (size_t k = 0; k < sizeof flip / sizeof flip[0]; k++) {
        r500_job job;
        r500_job_init(&job);
        ls_diag d;
        assert_int_equal(r500_job_load_mem(&job, "directed-options.fs.asm", directed_options_src,
                                           strlen(directed_options_src), &d),
                         LS_OK);
        if (flip[k][0])
            assert_int_equal(r500_options_set(&job.options, flip[k][0], flip[k][1], &d), LS_OK);
        job.width = 8;
        job.height = 4;
        job.thread_size = 16;
        job.inputs[0].kind = R500_INPUT_UV;
        char what[96];
        snprintf(what, sizeof what, "directed-options.fs.asm (%s=%s)",
                 flip[k][0] ? flip[k][0] : "defaults", flip[k][0] ? flip[k][1] : "");
        strict_nan = true;
        use_cache = true;
        diff_job(what, &job);
        use_cache = false;
        r500_job_free(&job);
    }
}

static void directed_programs(void)
{
    static const struct {
        const char *name, *src;
        uint32_t code_addr, code_range; /* 0: as the assembler sets them */
    } progs[] = {{"directed-sum.fs.asm", directed_sum, 0, 0},
                 {"directed-select.fs.asm", directed_select, 0, 0},
                 {"directed-below-start.fs.asm", directed_below_start, 0x00040002u, 0x00040000u},
                 {"directed-limit.fs.asm", directed_limit, 0, 0},
                 {"directed-memory-temps.fs.asm", directed_memory_temps, 0, 0},
                 {"directed-input-guard.fs.asm", directed_input_guard, 0, 0}};
    float guard_img[8 * 4 * 4];
    input_guard_image(guard_img);
    for (size_t k = 0; k < sizeof progs / sizeof progs[0]; k++) {
        r500_job job;
        r500_job_init(&job);
        ls_diag d;
        if (r500_job_load_mem(&job, progs[k].name, progs[k].src, strlen(progs[k].src), &d) !=
            LS_OK) {
            fprintf(stderr, "%s: %s\n", progs[k].name, d.msg);
            fail();
        }
        if (progs[k].code_addr) {
            job.regs.code_addr = progs[k].code_addr;
            job.regs.code_range = progs[k].code_range;
        }
        job.width = 8;
        job.height = 4;
        job.thread_size = 16;
        if (progs[k].src == directed_memory_temps)
            job.workers = 1;
        if (progs[k].src == directed_input_guard) {
            job.inputs[0].kind = R500_INPUT_IMAGE;
            job.inputs[0].image = guard_img;
        }
        if (progs[k].src == directed_limit) {
            job.inputs[0].kind = R500_INPUT_UV;
            job.options.exec.max_instructions = (uint64_t)1 << 40;
        }
        strict_nan = true;
        diff_job(progs[k].name, &job);
        r500_job_free(&job);
    }
}

static void test_random(void **st)
{
    (void)st;
    /* LOCKSTEP_DIFF_PROGRAMS (manual runs), else the count meson test sets
     * (LOCKSTEP_DIFF_PROGRAMS_DEFAULT: 120, 40 under sanitizers), else 1000 */
    const char *n = getenv("LOCKSTEP_DIFF_PROGRAMS");
    if (!n || !*n)
        n = getenv("LOCKSTEP_DIFF_PROGRAMS_DEFAULT");
    directed_programs();
    directed_options();
    random_programs(n && *n ? atoi(n) : 1000, 0x5eed0019u);
#if R500_JIT_PLANTED
    /* a JIT built with a planted wrong rule (tests/r500/meson.build): the
     * random programs must find a float image that differs */
    fprintf(stderr, "planted rule %d: first difference: %s\n", R500_JIT_PLANTED,
            first_diff[0] ? first_diff : "(none)");
    assert_true(mismatches > 0);
#if R500_JIT_PLANTED != 3 /* 3, an FC rule: any result may show it (work, stats, images) */
    assert_non_null(strstr(first_diff, " differs at word "));
#endif
#else
    assert_int_equal(mismatches, 0);
#endif
}

int main(void)
{
#ifndef LOCKSTEP_HAVE_JIT
    (void)test_examples;
    (void)test_corpus;
    (void)test_random;
    printf("skip: lockstep was built without the JIT (LLVM not found)\n");
    return 77;
#else
#if R500_JIT_PLANTED || R500_JIT_PORTABLE
    (void)test_examples;
    (void)test_corpus;
#endif
#if (R500_JIT_PORTABLE || R500_JIT_PLANTED == 4) && (defined(__x86_64__) || defined(__i386__))
    /* without AVX-512 DQ the JIT never uses VFPCLASSPS (jit.c), so
     * r500/engine-diff has already run the portable code, and planted rule
     * 4 (in the first try that VFPCLASSPS checks) is never compiled */
    if (!__builtin_cpu_supports("avx512dq")) {
        printf("skip: no AVX-512 DQ on this host: r500/engine-diff runs the portable JIT\n");
        return 77;
    }
#endif
    const struct CMUnitTest tests[] = {
#if R500_JIT_PLANTED || R500_JIT_PORTABLE
        /* only the random programs: the planted ones stop at the first
         * difference; the portable JIT differs in OMOD's classification only,
         * which every third random program exercises in every instruction */
        cmocka_unit_test(test_random),
#else
        cmocka_unit_test(test_examples),
        cmocka_unit_test(test_corpus),
        cmocka_unit_test(test_random),
#endif
    };
    cached = r500_jit_engine_new();
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    r500_result_free(&stale_interp);
    r500_result_free(&stale_jit);
    r500_jit_engine_free(cached);
    return rc;
#endif
}
