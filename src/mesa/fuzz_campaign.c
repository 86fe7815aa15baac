/* `lockstep mesa fuzz` in the library (include/lockstep/mesa_fuzz.h,
 * docs/mesa-fuzz.md): the oracle that runs one generated shader through
 * r300 + lockstep and llvmpipe (src/mesa/r300_run.c) and classifies it,
 * campaigns over host threads with results delivered in index order, the
 * triage of disagreements, and their reduction with fz_reduce. Never prints:
 * results go to the caller's callbacks and to files in the campaign's
 * directory (docs/formats.md, "mesa fuzz"). */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/buf.h"
#include "base/json.h"
#include "lockstep/mesa_fuzz.h"
#include "lockstep/r500.h"
#include "lockstep/r500_asm.h"
#include "mesa/proc.h"

void mesa_fuzz_config_default(mesa_fuzz_config *c)
{
    memset(c, 0, sizeof *c);
    c->r300.chip = "rv530";
    c->r300.width = c->r300.height = 16;
    c->tolerance = 1e-3;
    c->seed = 1;
    c->count = 100;
    c->workers = 1;
    c->max_tries = 3000;
    c->limit = -1;
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static bool write_text(const char *path, const char *text, size_t len)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return false;
    bool ok = fwrite(text, 1, len, f) == len;
    return fclose(f) == 0 && ok;
}

static bool write_buf(const char *path, const ls_buf *b)
{
    return write_text(path, b->data ? b->data : "", b->len);
}

/* A per-shader working directory under $TMPDIR (else /tmp). */
static bool make_workdir(char *dir, size_t n)
{
    const char *t = getenv("TMPDIR");
    snprintf(dir, n, "%s/lockstep-fuzz-XXXXXX", t && *t ? t : "/tmp");
    return mkdtemp(dir) != NULL;
}

/* ---- the oracle: one shader through r300, lockstep and llvmpipe --------- */

typedef struct oracle_out {
    mesa_outcome outcome;
    char why[600];
    ls_buf log;          /* the r300 run's output */
    ls_buf job;          /* the decoded job (JSON) */
    ls_buf dis;          /* lockstep's disassembly of the emitted program */
    float *ls, *ref;     /* lockstep's and llvmpipe's RGBA, bottom row first */
    size_t bad;
    bool negzero_agrees; /* lockstep with texkill-zero=kill agrees (docs/assumptions.md) */
    double maxd;
    long first;
} oracle_out;

static void oracle_init(oracle_out *o)
{
    memset(o, 0, sizeof *o);
    ls_buf_init(&o->log);
    ls_buf_init(&o->job);
    ls_buf_init(&o->dis);
    o->first = -1;
}

static void oracle_free(oracle_out *o)
{
    ls_buf_free(&o->log);
    ls_buf_free(&o->job);
    ls_buf_free(&o->dis);
    free(o->ls);
    free(o->ref);
    o->ls = o->ref = NULL;
}

static mesa_outcome fail(oracle_out *o, mesa_outcome oc, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static mesa_outcome fail(oracle_out *o, mesa_outcome oc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(o->why, sizeof o->why, fmt, ap);
    va_end(ap);
    return o->outcome = oc;
}

/* Run job on lockstep (one host thread) with the TEXKILL model tz: *out gets
 * render target 0; fault a description of the first thread fault ("" when
 * none). */
static ls_status lockstep_pixels(r500_job *job, r500_texkill_zero tz, float **out, char *fault,
                                 size_t fn, ls_diag *d)
{
    job->workers = 1;
    job->options.exec.texkill_zero = tz;
    r500_result r;
    memset(&r, 0, sizeof r);
    ls_status st = r500_run(job, &r, NULL, d);
    if (st != LS_OK)
        return st;
    size_t n = (size_t)job->width * (size_t)job->height;
    *out = malloc(n * 4 * sizeof(float));
    if (*out)
        memcpy(*out, r.target[0], n * 4 * sizeof(float));
    fault[0] = 0;
    if (r.nfaults) {
        char fd[300];
        ls_diag_format(&r.faults[0].diag, fd, sizeof fd);
        snprintf(fault, fn, "%llu lockstep thread(s) faulted: %s",
                 (unsigned long long)r.stats.faulted_threads, fd);
    }
    r500_result_free(&r);
    return *out ? LS_OK : ls_diag_set(d, LS_ERR_NOMEM, NULL, 0, 0, "out of memory");
}

/* Pixels of ls that differ from ref beyond the tolerance (relative to
 * 1 + |ref|); the guard's unstable pixels are left out. */
static size_t count_bad(const mesa_fuzz_config *c, const float *ls, const float *ref,
                        const fz_pixel *px, double *maxd, long *first)
{
    size_t n = (size_t)c->r300.width * (size_t)c->r300.height, nbad = 0;
    *maxd = 0;
    *first = -1;
    for (size_t i = 0; i < n; i++) {
        if (px && !px[i].stable)
            continue;
        bool bad = false;
        for (int k = 0; k < 4; k++) {
            double x = ls[4 * i + k], y = ref[4 * i + k];
            double dd = x == y ? 0 : fabs(x - y);
            if (dd != dd)
                dd = INFINITY;
            if (dd > *maxd)
                *maxd = dd;
            if (dd > c->tolerance * (1 + fabs(y)))
                bad = true;
        }
        if (bad) {
            nbad++;
            if (*first < 0)
                *first = (long)i;
        }
    }
    return nbad;
}

/* Split NUL-separated "name=v,..." strings (fz_program_uniform_args). */
static size_t uniform_list(const ls_buf *u, int nuni, const char **out, size_t max)
{
    const char *s = u && u->data ? u->data : NULL;
    size_t k = 0;
    for (int i = 0; s && i < nuni && k < max; i++, s += strlen(s) + 1)
        out[k++] = s;
    return k;
}

/* One shader (frag, its uniforms) through the three: the class and, in o,
 * what a report needs. px: the interpreter's pixels (stable mask, expected
 * values) or NULL. radeon_debug: RADEON_DEBUG of the r300 run, or NULL. */
static mesa_outcome oracle(const mesa_fuzz_config *c, const char *frag, const ls_buf *uniforms,
                           int nuni, const char *radeon_debug, const fz_pixel *px, oracle_out *o)
{
    const char *uv[64];
    mesa_r300_config rc = c->r300;
    rc.uniforms = uv;
    rc.nuniforms = uniform_list(uniforms, nuni, uv, 64);
    rc.vert = NULL;
    rc.radeon_debug = radeon_debug;
    rc.output = &o->log;
    rc.job_json = &o->job;
    rc.wpos = 0;
    const int w = rc.width, h = rc.height;
    ls_diag d;
    ls_diag_clear(&d);
    r500_job job;
    r500_job_init(&job);
    float *varying = NULL;
    mesa_r300_verdict v;
    ls_status st = mesa_r300_job(&rc, frag, &job, &varying, &v, &d);
    free(varying);
    if (v.outcome != MESA_OUTCOME_AGREE) {
        r500_job_free(&job);
        if (v.outcome == MESA_OUTCOME_R300_CRASH)
            return fail(o, v.outcome, "GL program killed by signal %d under r300%s%s", v.gl_status - 128,
                        v.why[0] ? ": " : "", v.why);
        if (v.outcome == MESA_OUTCOME_HARNESS_ERROR)
            return fail(o, v.outcome, "%s", st != LS_OK ? d.msg : "the GL program failed under r300");
        return fail(o, v.outcome, "%s", v.why[0] ? v.why : mesa_outcome_table[v.outcome].meaning);
    }
    r500_disasm(job.words, job.ninst, NULL, &o->dis);
    char fault[400] = "";
    st = lockstep_pixels(&job, R500_TEXKILL_ZERO_KEEP, &o->ls, fault, sizeof fault, &d);
    if (st != LS_OK) {
        r500_job_free(&job);
        return fail(o, MESA_OUTCOME_HARNESS_ERROR, "lockstep could not run the job: %s", d.msg);
    }
    if (fault[0]) {
        r500_job_free(&job);
        return fail(o, MESA_OUTCOME_LOCKSTEP_FAULT, "%s", fault);
    }
    /* llvmpipe: the system's driver (mesa_llvmpipe_image drops LIBGL_DRIVERS_PATH) */
    if (mesa_llvmpipe_image(&rc, frag, &o->ref, &d) != LS_OK) {
        r500_job_free(&job);
        return fail(o, MESA_OUTCOME_HARNESS_ERROR, "llvmpipe could not draw the shader: %s", d.msg);
    }
    size_t n = (size_t)w * (size_t)h;
    /* llvmpipe against the interpreter first: when they differ, the
     * reference itself is in doubt */
    size_t refbad = 0;
    long reffirst = -1;
    for (size_t i = 0; px && i < n; i++) {
        if (!px[i].stable)
            continue;
        for (int k = 0; k < 4; k++) {
            double e = px[i].rgba[k], g = o->ref[4 * i + k];
            if (!(fabs(e - g) <= c->tolerance * (1 + fabs(e)))) {
                refbad++;
                if (reffirst < 0)
                    reffirst = (long)i;
                break;
            }
        }
    }
    o->bad = count_bad(c, o->ls, o->ref, px, &o->maxd, &o->first);
    /* gl_FragCoord in the text but one texcoord input: r300 dropped either
     * WPOS or uv as dead code (mesa-capture.md §4); the other reading is
     * tried too */
    ls_buf src;
    ls_buf_init(&src);
    bool ambiguous = v.wpos && v.rs_texcoords == 1 && ls_read_file(frag, &src) && src.data &&
                     strstr(src.data, "uv");
    ls_buf_free(&src);
    if (o->bad && ambiguous) {
        mesa_r300_config alt_c = rc;
        alt_c.wpos = 2;
        alt_c.output = NULL;
        alt_c.job_json = NULL;
        r500_job alt_job;
        r500_job_init(&alt_job);
        float *alt = NULL, *alt_var = NULL;
        char f2[400] = "";
        double md = 0;
        long fi = -1;
        if (mesa_r300_job(&alt_c, frag, &alt_job, &alt_var, NULL, &d) == LS_OK &&
            lockstep_pixels(&alt_job, R500_TEXKILL_ZERO_KEEP, &alt, f2, sizeof f2, &d) == LS_OK &&
            !f2[0] && alt && count_bad(c, alt, o->ref, px, &md, &fi) == 0) {
            free(o->ls);
            o->ls = alt;
            alt = NULL;
            o->bad = 0;
            o->maxd = md;
            o->first = -1;
        }
        free(alt);
        free(alt_var);
        r500_job_free(&alt_job);
    }
    /* a disagreement that TEXKILL of -0.0 decides: run the other model */
    if (o->bad && !refbad) {
        float *alt = NULL;
        char f2[400] = "";
        if (lockstep_pixels(&job, R500_TEXKILL_ZERO_KILL, &alt, f2, sizeof f2, &d) == LS_OK && !f2[0] &&
            alt) {
            double md = 0;
            long fi = -1;
            o->negzero_agrees = count_bad(c, alt, o->ref, px, &md, &fi) == 0;
        }
        free(alt);
    }
    r500_job_free(&job);
    if (refbad) {
        long i = reffirst;
        return fail(o, MESA_OUTCOME_REFERENCE,
                    "%zu pixel(s): llvmpipe differs from the interpreter, first (%ld, %ld): "
                    "llvmpipe (%g, %g, %g, %g), interpreter (%g, %g, %g, %g)",
                    refbad, i % w, i / w, o->ref[4 * i], o->ref[4 * i + 1], o->ref[4 * i + 2],
                    o->ref[4 * i + 3], px[i].rgba[0], px[i].rgba[1], px[i].rgba[2], px[i].rgba[3]);
    }
    if (o->bad) {
        long i = o->first;
        return fail(o, MESA_OUTCOME_DISAGREE,
                    "%zu pixel(s) differ, max |diff| %g, first (%ld, %ld): lockstep (%g, %g, %g, %g), "
                    "llvmpipe (%g, %g, %g, %g)%s",
                    o->bad, o->maxd, i % w, i / w, o->ls[4 * i], o->ls[4 * i + 1], o->ls[4 * i + 2],
                    o->ls[4 * i + 3], o->ref[4 * i], o->ref[4 * i + 1], o->ref[4 * i + 2],
                    o->ref[4 * i + 3], o->negzero_agrees ? " [agrees with texkill-zero=kill]" : "");
    }
    return fail(o, MESA_OUTCOME_AGREE, "max |diff| %g", o->maxd);
}

/* |lockstep - llvmpipe| / tolerance, clamped, through the caller's writer. */
static void write_diff(const mesa_fuzz_config *c, const oracle_out *o, const char *path)
{
    if (!c->png || !o->ls || !o->ref)
        return;
    size_t n = (size_t)c->r300.width * (size_t)c->r300.height;
    float *diff = calloc(n * 4, sizeof *diff);
    if (!diff)
        return;
    for (size_t i = 0; i < n; i++)
        for (int k = 0; k < 4; k++) {
            double dd = fabs((double)o->ls[4 * i + k] - o->ref[4 * i + k]);
            double v = dd != dd ? 1 : dd / (c->tolerance * (1 + fabs(o->ref[4 * i + k])));
            diff[4 * i + k] = k == 3 ? 1.0f : (float)(v > 1 ? 1 : v);
        }
    ls_diag d;
    ls_diag_clear(&d);
    c->png(path, diff, c->r300.width, c->r300.height, &d);
    free(diff);
}

static void save_outputs(const mesa_fuzz_config *c, const oracle_out *o, const char *dir,
                         const char *prefix)
{
    char p[PATH_MAX + 64];
    snprintf(p, sizeof p, "%.*s/%sr300.log", PATH_MAX - 64, dir, prefix);
    write_buf(p, &o->log);
    if (o->job.len) {
        snprintf(p, sizeof p, "%.*s/%sjob.json", PATH_MAX - 64, dir, prefix);
        write_buf(p, &o->job);
    }
    if (o->dis.len) {
        snprintf(p, sizeof p, "%.*s/%sprogram.asm", PATH_MAX - 64, dir, prefix);
        write_buf(p, &o->dis);
    }
    snprintf(p, sizeof p, "%.*s/%sdiff.png", PATH_MAX - 64, dir, prefix);
    write_diff(c, o, p);
}

/* ---- one shader of a campaign ------------------------------------------- */

uint64_t mesa_fuzz_case_seed(uint64_t s, uint64_t index, uint64_t k)
{
    uint64_t z = s * 0x9E3779B97F4A7C15ull ^ (index + 1) * 0xBF58476D1CE4E5B9ull ^ k * 0x94D049BB133111EBull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* A shader that passes the guard: up to 64 attempts. */
static bool guarded_program(const mesa_fuzz_config *c, uint64_t index, fz_program *p, fz_pixel *px,
                            uint64_t *seed_out, int *rejected)
{
    *rejected = 0;
    for (uint64_t k = 0; k < 64; k++) {
        uint64_t seed = mesa_fuzz_case_seed(c->seed, index, k);
        ls_diag d;
        if (fz_generate(seed, NULL, p, &d) != LS_OK)
            continue;
        char why[200];
        if (fz_guard(p, c->r300.width, c->r300.height, px, why, sizeof why)) {
            *seed_out = seed;
            return true;
        }
        (*rejected)++;
        fz_program_free(p);
    }
    return false;
}

/* The shader's text into frag, its "--uniform" arguments into uni (and,
 * one per line, into unifile when not NULL). */
static bool write_program(const fz_program *p, const char *frag, const char *unifile, ls_buf *uni,
                          int *nuni)
{
    ls_buf text;
    ls_buf_init(&text);
    fz_program_print(p, &text);
    bool ok = write_buf(frag, &text);
    ls_buf_free(&text);
    ls_buf_reset(uni);
    *nuni = fz_program_uniform_args(p, uni);
    if (unifile) {
        ls_buf lines;
        ls_buf_init(&lines);
        const char *u = uni->data;
        for (int i = 0; u && i < *nuni; i++, u += strlen(u) + 1)
            ls_buf_printf(&lines, "--uniform %s\n", u);
        ok = write_buf(unifile, &lines) && ok;
        ls_buf_free(&lines);
    }
    return ok;
}

/* findings/INDEX/finding.json (docs/schemas/mesa-fuzz-finding.schema.json) */
static void finding_json(const mesa_fuzz_config *c, const mesa_fuzz_case *k, ls_buf *b)
{
    ls_buf_printf(b, "{\n  \"index\": %" PRIu64 ",\n  \"seed\": \"%" PRIu64 "\",\n  \"outcome\": ",
                  k->index, k->seed);
    ls_json_write_string(b, mesa_outcome_table[k->outcome].name);
    ls_buf_puts(b, ",\n  \"why\": ");
    ls_json_write_string(b, k->why);
    ls_buf_printf(b, ",\n  \"texkill_zero_kill\": %s,\n  \"width\": %d,\n  \"height\": %d,\n  \"chip\": ",
                  k->texkill_kill ? "true" : "false", c->r300.width, c->r300.height);
    ls_json_write_string(b, c->r300.chip ? c->r300.chip : "rv530");
    ls_buf_puts(b, ",\n  \"tolerance\": ");
    ls_json_write_double(b, c->tolerance);
    ls_buf_puts(b, "\n}\n");
}

static void run_case(const mesa_fuzz_config *c, uint64_t index, mesa_fuzz_case *k)
{
    memset(k, 0, sizeof *k);
    k->index = index;
    k->outcome = MESA_OUTCOME_HARNESS_ERROR;
    size_t npx = (size_t)c->r300.width * (size_t)c->r300.height;
    fz_pixel *px = calloc(npx, sizeof *px);
    fz_program p;
    char work[PATH_MAX / 2];
    if (!px || !guarded_program(c, index, &p, px, &k->seed, &k->rejected)) {
        snprintf(k->why, sizeof k->why, "no shader passed the guard in 64 attempts");
        free(px);
        return;
    }
    if (!make_workdir(work, sizeof work)) {
        snprintf(k->why, sizeof k->why, "cannot create a temporary directory: %s", strerror(errno));
        fz_program_free(&p);
        free(px);
        return;
    }
    char frag[PATH_MAX];
    snprintf(frag, sizeof frag, "%s/case.frag", work);
    ls_buf uni;
    ls_buf_init(&uni);
    int nuni = 0;
    oracle_out o;
    oracle_init(&o);
    if (!write_program(&p, frag, NULL, &uni, &nuni))
        fail(&o, MESA_OUTCOME_HARNESS_ERROR, "cannot write %s", frag);
    else
        oracle(c, frag, &uni, nuni, NULL, px, &o);
    k->outcome = o.outcome;
    k->texkill_kill = o.outcome == MESA_OUTCOME_DISAGREE && o.negzero_agrees;
    snprintf(k->why, sizeof k->why, "%s", o.why);
    if (c->out && o.outcome != MESA_OUTCOME_AGREE) {
        char dir[PATH_MAX], path[PATH_MAX + 64], up[PATH_MAX + 64];
        snprintf(dir, sizeof dir, "%.*s/findings/%06" PRIu64, PATH_MAX - 40, c->out, index);
        mkdir(dir, 0755);
        snprintf(path, sizeof path, "%s/original.frag", dir);
        snprintf(up, sizeof up, "%s/original.uniforms", dir);
        write_program(&p, path, up, &uni, &nuni);
        save_outputs(c, &o, dir, "original-");
        ls_buf info;
        ls_buf_init(&info);
        finding_json(c, k, &info);
        snprintf(path, sizeof path, "%s/finding.json", dir);
        write_buf(path, &info);
        ls_buf_free(&info);
    }
    mesa_rm_tree(work);
    oracle_free(&o);
    ls_buf_free(&uni);
    fz_program_free(&p);
    free(px);
}

/* ---- the campaign: worker threads, results in index order ---------------- */

typedef struct campaign {
    const mesa_fuzz_config *c;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    uint64_t next, delivered;
    size_t ring;              /* slots: a worker waits when it is this far ahead */
    mesa_fuzz_case *slot;
    bool *ready;
    double t0;
    FILE *log;
    mesa_fuzz_summary *s;
} campaign;

static bool more(const campaign *g)
{
    if (g->c->count)
        return g->next < g->c->count;
    return now_s() - g->t0 < g->c->seconds;
}

/* Under the lock: account for case k, log it, hand it to the caller. */
static void deliver(campaign *g, const mesa_fuzz_case *k)
{
    g->s->shaders++;
    g->s->rejected += (uint64_t)k->rejected;
    g->s->counts[k->outcome]++;
    g->s->texkill_kill += k->texkill_kill;
    if (g->log) {
        fprintf(g->log, "%" PRIu64 " %" PRIu64 " %d %s\t%s\n", k->index, k->seed, k->rejected,
                mesa_outcome_table[k->outcome].name, k->why);
        fflush(g->log);
    }
    if (g->c->on_case)
        g->c->on_case(g->c->user, k);
}

static void *worker(void *arg)
{
    campaign *g = arg;
    pthread_mutex_lock(&g->mu);
    for (;;) {
        while (g->next - g->delivered >= g->ring)
            pthread_cond_wait(&g->cv, &g->mu);
        if (!more(g))
            break;
        uint64_t i = g->next++;
        pthread_mutex_unlock(&g->mu);
        mesa_fuzz_case k;
        run_case(g->c, i, &k);
        pthread_mutex_lock(&g->mu);
        g->slot[i % g->ring] = k;
        g->ready[i % g->ring] = true;
        while (g->ready[g->delivered % g->ring]) {
            g->ready[g->delivered % g->ring] = false;
            deliver(g, &g->slot[g->delivered % g->ring]);
            g->delivered++;
        }
        pthread_cond_broadcast(&g->cv);
    }
    pthread_cond_broadcast(&g->cv);
    pthread_mutex_unlock(&g->mu);
    return NULL;
}

static int make_dir(const char *path)
{
    return mkdir(path, 0755) == 0 || errno == EEXIST ? 0 : -1;
}

static void summary_json(const mesa_fuzz_config *c, const mesa_fuzz_summary *s, ls_buf *b)
{
    ls_buf_printf(b, "{\n  \"seed\": \"%" PRIu64 "\",\n  \"width\": %d,\n  \"height\": %d,\n  \"chip\": ",
                  c->seed, c->r300.width, c->r300.height);
    ls_json_write_string(b, c->r300.chip ? c->r300.chip : "rv530");
    ls_buf_puts(b, ",\n  \"tolerance\": ");
    ls_json_write_double(b, c->tolerance);
    ls_buf_puts(b, ",\n  \"drivers\": ");
    ls_json_write_string(b, c->r300.drivers && *c->r300.drivers ? c->r300.drivers : "");
    ls_buf_printf(b, ",\n  \"workers\": %u,\n  \"shaders\": %" PRIu64 ",\n  \"seconds\": ", c->workers,
                  s->shaders);
    ls_json_write_double(b, round(s->seconds * 10) / 10);
    ls_buf_printf(b, ",\n  \"rejected_by_guard\": %" PRIu64 ",\n  \"texkill_zero_kill\": %" PRIu64
                     ",\n  \"outcomes\": {",
                  s->rejected, s->texkill_kill);
    for (int k = 0; k < MESA_OUTCOME_COUNT; k++)
        ls_buf_printf(b, "%s\n    \"%s\": %" PRIu64, k ? "," : "", mesa_outcome_table[k].name,
                      s->counts[k]);
    ls_buf_puts(b, "\n  }\n}\n");
}

ls_status mesa_fuzz_campaign(const mesa_fuzz_config *c, mesa_fuzz_summary *s, ls_diag *d)
{
    memset(s, 0, sizeof *s);
    if (!c->r300.shim || !c->r300.gl)
        return ls_diag_set(d, LS_ERR_ARG, NULL, 0, 0, "mesa fuzz: no shim or GL program given");
    if (c->r300.width < 1 || c->r300.height < 1 || c->workers < 1 || (!c->count && !(c->seconds > 0)))
        return ls_diag_set(d, LS_ERR_ARG, NULL, 0, 0, "mesa fuzz: bad size, workers, count or time");
    campaign g;
    memset(&g, 0, sizeof g);
    g.c = c;
    g.s = s;
    g.ring = 4 * (size_t)c->workers;
    g.slot = calloc(g.ring, sizeof *g.slot);
    g.ready = calloc(g.ring, sizeof *g.ready);
    if (!g.slot || !g.ready) {
        free(g.slot);
        free(g.ready);
        return ls_diag_set(d, LS_ERR_NOMEM, NULL, 0, 0, "out of memory");
    }
    char p[PATH_MAX];
    if (c->out) {
        snprintf(p, sizeof p, "%.*s/findings", PATH_MAX - 16, c->out);
        if (make_dir(c->out) || make_dir(p)) {
            free(g.slot);
            free(g.ready);
            return ls_diag_set(d, LS_ERR_IO, c->out, 0, 0, "cannot create %s: %s", p, strerror(errno));
        }
        snprintf(p, sizeof p, "%.*s/log.txt", PATH_MAX - 16, c->out);
        g.log = fopen(p, "w");
        if (!g.log) {
            free(g.slot);
            free(g.ready);
            return ls_diag_set(d, LS_ERR_IO, p, 0, 0, "cannot write: %s", strerror(errno));
        }
        fprintf(g.log, "# lockstep mesa fuzz --seed %" PRIu64 ", %dx%d, chip %s, tolerance %g, drivers %s\n",
                c->seed, c->r300.width, c->r300.height, c->r300.chip ? c->r300.chip : "rv530",
                c->tolerance, c->r300.drivers && *c->r300.drivers ? c->r300.drivers : "(system)");
    }
    pthread_mutex_init(&g.mu, NULL);
    pthread_cond_init(&g.cv, NULL);
    g.t0 = now_s();
    pthread_t *th = calloc(c->workers, sizeof *th);
    unsigned started = 0;
    for (unsigned i = 0; th && i < c->workers; i++)
        if (pthread_create(&th[i], NULL, worker, &g) == 0)
            started++;
    if (!started) /* no thread: run on this one */
        worker(&g);
    for (unsigned i = 0; i < started; i++)
        pthread_join(th[i], NULL);
    free(th);
    s->seconds = now_s() - g.t0;
    pthread_mutex_destroy(&g.mu);
    pthread_cond_destroy(&g.cv);
    free(g.slot);
    free(g.ready);
    ls_status st = LS_OK;
    if (c->out) {
        ls_buf b;
        ls_buf_init(&b);
        summary_json(c, s, &b);
        snprintf(p, sizeof p, "%.*s/summary.json", PATH_MAX - 16, c->out);
        if (!write_buf(p, &b))
            st = ls_diag_set(d, LS_ERR_IO, p, 0, 0, "cannot write: %s", strerror(errno));
        ls_buf_free(&b);
        if (fclose(g.log) != 0 && st == LS_OK)
            st = ls_diag_set(d, LS_ERR_IO, c->out, 0, 0, "cannot write log.txt: %s", strerror(errno));
    }
    return st;
}

/* ---- findings of a campaign directory ------------------------------------ */

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* The finding directories' names, sorted. */
static ls_status list_findings(const char *dir, char ***names, size_t *n, ls_diag *d)
{
    char fdir[PATH_MAX];
    snprintf(fdir, sizeof fdir, "%.*s/findings", PATH_MAX - 16, dir);
    *names = NULL;
    *n = 0;
    DIR *dp = opendir(fdir);
    if (!dp)
        return ls_diag_set(d, LS_ERR_IO, fdir, 0, 0, "no findings directory (%s; run a campaign with "
                           "--out first)", strerror(errno));
    for (struct dirent *de; (de = readdir(dp));) {
        if (de->d_name[0] == '.' || strlen(de->d_name) > 64)
            continue;
        char **nv = realloc(*names, (*n + 1) * sizeof **names);
        char *s = strdup(de->d_name);
        if (!nv || !s) {
            free(nv ? NULL : s);
            if (nv)
                *names = nv;
            free(s);
            break;
        }
        *names = nv;
        (*names)[(*n)++] = s;
    }
    closedir(dp);
    qsort(*names, *n, sizeof **names, cmp_str);
    return LS_OK;
}

static void free_names(char **names, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(names[i]);
    free(names);
}

typedef struct finding {
    uint64_t seed;
    mesa_outcome outcome;
    bool texkill_kill;
    char why[600];
} finding;

/* A JSON file the campaign wrote, or NULL. */
static ls_json *load_json(const char *path)
{
    ls_buf b;
    ls_buf_init(&b);
    ls_json *j = NULL;
    ls_diag d;
    if (ls_read_file(path, &b) && ls_json_parse(b.data, b.len, path, &j, &d) != LS_OK)
        j = NULL;
    ls_buf_free(&b);
    return j;
}

/* findings/NAME/finding.json */
static bool read_finding(const char *dir, const char *name, finding *f)
{
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%.*s/findings/%s/finding.json", PATH_MAX - 100, dir, name);
    ls_json *j = load_json(path);
    if (!j)
        return false;
    bool ok;
    const ls_json *seed = ls_json_get(j, "seed"), *oc = ls_json_get(j, "outcome"),
                  *why = ls_json_get(j, "why"), *tk = ls_json_get(j, "texkill_zero_kill");
    ok = seed && seed->type == LS_JSON_STRING && oc && oc->type == LS_JSON_STRING;
    memset(f, 0, sizeof *f);
    f->outcome = MESA_OUTCOME_COUNT;
    if (ok) {
        char *end;
        f->seed = strtoull(seed->text, &end, 10);
        ok = *seed->text && !*end;
        for (int k = 0; k < MESA_OUTCOME_COUNT; k++)
            if (!strcmp(oc->text, mesa_outcome_table[k].name))
                f->outcome = (mesa_outcome)k;
        ok = ok && f->outcome != MESA_OUTCOME_COUNT;
        snprintf(f->why, sizeof f->why, "%s", why && why->type == LS_JSON_STRING ? why->text : "");
        f->texkill_kill = tk && tk->type == LS_JSON_BOOL && tk->boolean;
    }
    ls_json_free(j);
    return ok;
}

static void note(const mesa_fuzz_config *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void note(const mesa_fuzz_config *c, const char *fmt, ...)
{
    if (!c->on_note)
        return;
    char line[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    c->on_note(c->user, line);
}

/* One oracle run of p (after the guard) in a scratch directory. */
static mesa_outcome judge(const mesa_fuzz_config *c, const fz_program *p, const char *radeon_debug,
                          char *why, size_t wn)
{
    size_t npx = (size_t)c->r300.width * (size_t)c->r300.height;
    fz_pixel *px = calloc(npx, sizeof *px);
    if (!px)
        return MESA_OUTCOME_HARNESS_ERROR;
    char g[200];
    if (!fz_guard(p, c->r300.width, c->r300.height, px, g, sizeof g)) {
        free(px);
        snprintf(why, wn, "rejected by the guard: %s", g);
        return MESA_OUTCOME_HARNESS_ERROR;
    }
    char work[PATH_MAX / 2], frag[PATH_MAX];
    if (!make_workdir(work, sizeof work)) {
        free(px);
        snprintf(why, wn, "cannot create a temporary directory");
        return MESA_OUTCOME_HARNESS_ERROR;
    }
    snprintf(frag, sizeof frag, "%s/judge.frag", work);
    ls_buf uni;
    ls_buf_init(&uni);
    int nuni = 0;
    oracle_out o;
    oracle_init(&o);
    mesa_outcome oc = write_program(p, frag, NULL, &uni, &nuni)
                          ? oracle(c, frag, &uni, nuni, radeon_debug, px, &o)
                          : fail(&o, MESA_OUTCOME_HARNESS_ERROR, "cannot write %s", frag);
    snprintf(why, wn, "%s", o.why);
    oracle_free(&o);
    ls_buf_free(&uni);
    free(px);
    mesa_rm_tree(work);
    return oc;
}

/* Remove every discard statement (and nothing else). */
static void drop_discards(fz_node *n)
{
    for (int i = 0; i < n->nkids;) {
        if (n->kind == FZ_BLOCK && n->kids[i]->kind == FZ_DISCARD) {
            fz_node_free(n->kids[i]);
            memmove(n->kids + i, n->kids + i + 1, (size_t)(n->nkids - i - 1) * sizeof *n->kids);
            n->nkids--;
            continue;
        }
        drop_discards(n->kids[i]);
        i++;
    }
}

ls_status mesa_fuzz_triage(const mesa_fuzz_config *c, const char *dir, mesa_fuzz_triage_counts *t,
                           ls_diag *d)
{
    memset(t, 0, sizeof *t);
    char **names;
    size_t nn;
    ls_status st = list_findings(dir, &names, &nn, d);
    if (st != LS_OK)
        return st;
    finding *fs = calloc(nn ? nn : 1, sizeof *fs);
    size_t total = 0;
    for (size_t i = 0; fs && i < nn; i++)
        if (read_finding(dir, names[i], &fs[i]) && fs[i].outcome == MESA_OUTCOME_DISAGREE)
            total++;
        else
            fs[i].outcome = MESA_OUTCOME_COUNT;
    ls_buf b;
    ls_buf_init(&b);
    ls_buf_puts(&b, "{\n  \"findings\": [");
    size_t done = 0;
    for (size_t i = 0; fs && i < nn; i++) {
        if (fs[i].outcome != MESA_OUTCOME_DISAGREE)
            continue;
        fz_program p;
        ls_diag gd;
        if (fz_generate(fs[i].seed, NULL, &p, &gd) != LS_OK)
            continue;
        char w1[600], w2[600], w3[600];
        mesa_outcome base = judge(c, &p, NULL, w1, sizeof w1);
        mesa_outcome noopt = judge(c, &p, "noopt", w2, sizeof w2);
        drop_discards(p.main);
        mesa_outcome nodis = judge(c, &p, NULL, w3, sizeof w3);
        fz_program_free(&p);
        const char *cls;
        t->total++;
        if (base != MESA_OUTCOME_DISAGREE) {
            cls = "no-longer-disagrees";
            t->gone++;
        } else if (noopt == MESA_OUTCOME_AGREE) {
            cls = "noopt-agrees";
            t->noopt++;
        } else if (nodis == MESA_OUTCOME_AGREE) {
            cls = "agrees-without-discard";
            t->discard++;
        } else {
            cls = "other";
            t->other++;
        }
        ls_buf_printf(&b, "%s\n    {\"finding\": \"%s\", \"class\": \"%s\", \"noopt\": \"%s\", "
                          "\"without_discard\": \"%s\"}",
                      t->total > 1 ? "," : "", names[i], cls, mesa_outcome_table[noopt].name,
                      mesa_outcome_table[nodis].name);
        note(c, "%s: %s (noopt %s, without discard %s)", names[i], cls, mesa_outcome_table[noopt].name,
             mesa_outcome_table[nodis].name);
        if (c->on_progress)
            c->on_progress(c->user, ++done, total);
    }
    ls_buf_printf(&b, "\n  ],\n  \"counts\": {\"disagreements\": %zu, \"noopt_agrees\": %zu, "
                      "\"agrees_without_discard\": %zu, \"other\": %zu, \"no_longer_disagrees\": %zu}\n}\n",
                  t->total, t->noopt, t->discard, t->other, t->gone);
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%.*s/triage.json", PATH_MAX - 16, dir);
    if (!write_buf(path, &b))
        st = ls_diag_set(d, LS_ERR_IO, path, 0, 0, "cannot write: %s", strerror(errno));
    ls_buf_free(&b);
    free(fs);
    free_names(names, nn);
    return st;
}

/* ---- reduction ------------------------------------------------------------ */

typedef struct reduce_ctx {
    const mesa_fuzz_config *c;
    char frag[PATH_MAX];
    mesa_outcome want;
    bool negzero; /* the disagreement goes away with texkill-zero=kill */
    size_t calls;
} reduce_ctx;

/* The predicate: passes the guard and is still the same kind of finding. */
static bool still_fails(const fz_program *p, void *vctx)
{
    reduce_ctx *r = vctx;
    r->calls++;
    size_t npx = (size_t)r->c->r300.width * (size_t)r->c->r300.height;
    fz_pixel *px = calloc(npx, sizeof *px);
    if (!px)
        return false;
    char why[200];
    bool ok = fz_guard(p, r->c->r300.width, r->c->r300.height, px, why, sizeof why);
    if (ok) {
        ls_buf uni;
        ls_buf_init(&uni);
        int nuni = 0;
        ok = write_program(p, r->frag, NULL, &uni, &nuni);
        oracle_out o;
        oracle_init(&o);
        ok = ok && oracle(r->c, r->frag, &uni, nuni, NULL, px, &o) == r->want &&
             o.negzero_agrees == r->negzero;
        oracle_free(&o);
        ls_buf_free(&uni);
    }
    free(px);
    return ok;
}

/* A signature of a reduced shader: its statement skeleton with the
 * built-ins and operators it uses, names and constants left out. */
static void skeleton(const fz_program *p, const fz_node *n, ls_buf *b)
{
    static const char *const kinds[FZ_KIND_COUNT] = {
        "", "decl", "asg", "out", "if", "loop", "break", "continue", "discard", "return",
        "c", "v", "i", "swz", "neg", "bin", "call", "vec", "cmp", "icmp", "and", "or", "not", "bool"};
    switch (n->kind) {
    case FZ_BLOCK:
        ls_buf_putc(b, '{');
        for (int i = 0; i < n->nkids; i++) {
            if (i)
                ls_buf_putc(b, ';');
            skeleton(p, n->kids[i], b);
        }
        ls_buf_putc(b, '}');
        return;
    case FZ_CONST: ls_buf_putc(b, 'c'); return;
    case FZ_VAR:
        ls_buf_puts(b, p->vars[n->op].kind == FZ_VAR_UNIFORM ? "u"
                       : p->vars[n->op].kind == FZ_VAR_LOCAL ? "t"
                                                             : "in");
        return;
    case FZ_CALL: ls_buf_puts(b, fz_builtin_names[n->op]); break;
    case FZ_BIN: ls_buf_putc(b, "+-*/"[n->aux & 3]); break;
    case FZ_LOOP: ls_buf_puts(b, n->aux == FZ_FOR ? "for" : n->aux == FZ_WHILE ? "while" : "do"); break;
    default: ls_buf_puts(b, kinds[n->kind]); break;
    }
    if (n->nkids) {
        ls_buf_putc(b, '(');
        for (int i = 0; i < n->nkids; i++) {
            if (i)
                ls_buf_putc(b, ',');
            skeleton(p, n->kids[i], b);
        }
        ls_buf_putc(b, ')');
    }
}

typedef struct group {
    char *sig, *members, *first, noopt[32];
    int count;
} group;

static void add_group(group **groups, size_t *ngroups, const char *sig, const char *name,
                      const char *noopt)
{
    size_t g = 0;
    while (g < *ngroups && strcmp((*groups)[g].sig, sig))
        g++;
    if (g == *ngroups) {
        group *ng = realloc(*groups, (*ngroups + 1) * sizeof **groups);
        if (!ng)
            return;
        *groups = ng;
        memset(&ng[g], 0, sizeof ng[g]);
        ng[g].sig = strdup(sig);
        ng[g].first = strdup(name);
        ng[g].members = strdup("");
        snprintf(ng[g].noopt, sizeof ng[g].noopt, "%s", noopt);
        if (!ng[g].sig || !ng[g].first || !ng[g].members) {
            free(ng[g].sig);
            free(ng[g].first);
            free(ng[g].members);
            return;
        }
        (*ngroups)++;
    }
    group *gr = &(*groups)[g];
    gr->count++;
    size_t l = strlen(gr->members) + strlen(name) + 2;
    char *m = malloc(l);
    if (m) {
        snprintf(m, l, "%s%s%s", gr->members, gr->members[0] ? " " : "", name);
        free(gr->members);
        gr->members = m;
    }
}

/* report.json of a finding reduced earlier: its signature and noopt class. */
static bool read_report(const char *path, char *sig, size_t sn, char *noopt, size_t nn)
{
    ls_json *j = load_json(path);
    if (!j)
        return false;
    const ls_json *s = ls_json_get(j, "signature"), *no = ls_json_get(j, "noopt");
    const ls_json *noc = no ? ls_json_get(no, "outcome") : NULL;
    snprintf(sig, sn, "%s", s && s->type == LS_JSON_STRING ? s->text : "");
    snprintf(noopt, nn, "%s", noc && noc->type == LS_JSON_STRING ? noc->text : "");
    ls_json_free(j);
    return true;
}

static bool reducible(const mesa_fuzz_config *c, mesa_outcome oc)
{
    if (c->only_class)
        return oc != MESA_OUTCOME_AGREE && !strcmp(mesa_outcome_table[oc].name, c->only_class);
    return oc == MESA_OUTCOME_DISAGREE ||
           (c->all_classes && (oc == MESA_OUTCOME_R300_COMPILE_ERROR || oc == MESA_OUTCOME_R300_CRASH ||
                               oc == MESA_OUTCOME_LOCKSTEP_FAULT));
}

/* Reduce one finding; writes its min.* files and report.json. false when it
 * does not reproduce or the generator no longer gives its shader. */
static bool reduce_one(const mesa_fuzz_config *c, const char *fdir, const finding *f, char *sig,
                       size_t sn, char *noopt, size_t nn)
{
    fz_program p;
    ls_diag d;
    if (fz_generate(f->seed, NULL, &p, &d) != LS_OK)
        return false;
    char path[PATH_MAX + 64];
    {
        /* the generator must still give the campaign's shader */
        ls_buf now, then;
        ls_buf_init(&now);
        ls_buf_init(&then);
        fz_program_print(&p, &now);
        snprintf(path, sizeof path, "%s/original.frag", fdir);
        bool same = ls_read_file(path, &then) && then.len == now.len &&
                    !memcmp(then.data, now.data, now.len);
        ls_buf_free(&now);
        ls_buf_free(&then);
        if (!same) {
            note(c, "%s: seed %" PRIu64 " no longer generates original.frag (the generator changed); "
                    "skipped", fdir, f->seed);
            fz_program_free(&p);
            return false;
        }
    }
    reduce_ctx rc = {.c = c, .want = f->outcome, .negzero = f->texkill_kill};
    char work[PATH_MAX / 2];
    if (!make_workdir(work, sizeof work)) {
        fz_program_free(&p);
        return false;
    }
    snprintf(rc.frag, sizeof rc.frag, "%s/candidate.frag", work);
    fz_reduce_stats rs;
    memset(&rs, 0, sizeof rs);
    bool first_ok = still_fails(&p, &rc);
    if (first_ok)
        fz_reduce(&p, still_fails, &rc, c->max_tries, &rs, &d);
    mesa_rm_tree(work);
    if (!first_ok) {
        note(c, "%s: does not reproduce; left as it is", fdir);
        fz_program_free(&p);
        return false;
    }
    /* the minimal shader's report */
    char mfrag[PATH_MAX + 64], muni[PATH_MAX + 64];
    snprintf(mfrag, sizeof mfrag, "%s/min.frag", fdir);
    snprintf(muni, sizeof muni, "%s/min.uniforms", fdir);
    ls_buf uni;
    ls_buf_init(&uni);
    int nuni = 0;
    write_program(&p, mfrag, muni, &uni, &nuni);
    size_t npx = (size_t)c->r300.width * (size_t)c->r300.height;
    fz_pixel *px = calloc(npx, sizeof *px);
    char why[200];
    if (px)
        fz_guard(&p, c->r300.width, c->r300.height, px, why, sizeof why);
    oracle_out o, on;
    oracle_init(&o);
    oracle_init(&on);
    mesa_outcome oc = oracle(c, mfrag, &uni, nuni, "fp", px, &o);
    save_outputs(c, &o, fdir, "min-");
    mesa_outcome ocn = oracle(c, mfrag, &uni, nuni, "fp,noopt", px, &on);
    save_outputs(c, &on, fdir, "min-noopt-");
    ls_buf sk;
    ls_buf_init(&sk);
    skeleton(&p, p.main, &sk);
    snprintf(sig, sn, "%s", sk.data ? sk.data : "");
    snprintf(noopt, nn, "%s", mesa_outcome_table[ocn].name);
    ls_buf rep;
    ls_buf_init(&rep);
    ls_buf_printf(&rep, "{\n  \"seed\": \"%" PRIu64 "\",\n  \"outcome\": \"%s\",\n  \"texkill_zero_kill\": %s,\n"
                        "  \"size_before\": %zu,\n  \"size_after\": %zu,\n  \"predicate_calls\": %zu,\n"
                        "  \"accepted\": %zu,\n  \"minimal\": {\"outcome\": \"%s\", \"why\": ",
                  f->seed, mesa_outcome_table[f->outcome].name, f->texkill_kill ? "true" : "false",
                  rs.size_before, rs.size_after, rc.calls, rs.accepted, mesa_outcome_table[oc].name);
    ls_json_write_string(&rep, o.why);
    ls_buf_printf(&rep, "},\n  \"noopt\": {\"outcome\": \"%s\", \"why\": ", mesa_outcome_table[ocn].name);
    ls_json_write_string(&rep, on.why);
    ls_buf_puts(&rep, "},\n  \"signature\": ");
    ls_json_write_string(&rep, sig);
    ls_buf_puts(&rep, "\n}\n");
    snprintf(path, sizeof path, "%s/report.json", fdir);
    write_buf(path, &rep);
    note(c, "%s: %zu -> %zu nodes in %zu predicate calls; minimal %s; noopt %s", fdir, rs.size_before,
         rs.size_after, rc.calls, mesa_outcome_table[oc].name, mesa_outcome_table[ocn].name);
    ls_buf_free(&rep);
    ls_buf_free(&sk);
    oracle_free(&o);
    oracle_free(&on);
    free(px);
    ls_buf_free(&uni);
    fz_program_free(&p);
    return true;
}

ls_status mesa_fuzz_reduce_campaign(const mesa_fuzz_config *c, const char *dir, size_t *reduced,
                                    size_t *ngroups_out, ls_diag *d)
{
    *reduced = 0;
    *ngroups_out = 0;
    char **names;
    size_t nn;
    ls_status st = list_findings(dir, &names, &nn, d);
    if (st != LS_OK)
        return st;
    /* what to do for each: 0 nothing, 1 count an earlier report, 2 reduce */
    finding *fs = calloc(nn ? nn : 1, sizeof *fs);
    char *todo = calloc(nn ? nn : 1, 1);
    size_t total = 0;
    for (size_t i = 0; fs && todo && i < nn; i++) {
        char path[PATH_MAX];
        if (!read_finding(dir, names[i], &fs[i]) || !reducible(c, fs[i].outcome))
            continue;
        snprintf(path, sizeof path, "%.*s/findings/%s/report.json", PATH_MAX - 100, dir, names[i]);
        if (access(path, R_OK) == 0)
            todo[i] = 1;
        else if (c->limit < 0 || (long)total < c->limit)
            todo[i] = 2, total++;
    }
    group *groups = NULL;
    size_t ngroups = 0, done = 0;
    for (size_t i = 0; fs && todo && i < nn; i++) {
        char fdir[PATH_MAX], path[PATH_MAX + 64], sig[4096] = "", noopt[64] = "";
        snprintf(fdir, sizeof fdir, "%.*s/findings/%s", PATH_MAX - 100, dir, names[i]);
        snprintf(path, sizeof path, "%s/report.json", fdir);
        if (todo[i] == 1 && read_report(path, sig, sizeof sig, noopt, sizeof noopt)) {
            add_group(&groups, &ngroups, sig, names[i], noopt);
        } else if (todo[i] == 2) {
            if (reduce_one(c, fdir, &fs[i], sig, sizeof sig, noopt, sizeof noopt)) {
                (*reduced)++;
                add_group(&groups, &ngroups, sig, names[i], noopt);
            }
            if (c->on_progress)
                c->on_progress(c->user, ++done, total);
        }
    }
    ls_buf sum;
    ls_buf_init(&sum);
    ls_buf_printf(&sum, "%zu signature group(s)\n", ngroups);
    for (size_t g = 0; g < ngroups; g++) {
        ls_buf_printf(&sum, "\n== group %zu: %d finding(s), noopt of the first: %s\n", g + 1,
                      groups[g].count, groups[g].noopt);
        ls_buf_printf(&sum, "signature: %s\nfindings: %s\n", groups[g].sig, groups[g].members);
        char path[PATH_MAX + 100];
        snprintf(path, sizeof path, "%.*s/findings/%s/min.frag", PATH_MAX - 100, dir, groups[g].first);
        ls_buf t;
        ls_buf_init(&t);
        if (ls_read_file(path, &t))
            ls_buf_printf(&sum, "minimal shader (%s):\n%s", groups[g].first, t.data);
        ls_buf_free(&t);
        free(groups[g].sig);
        free(groups[g].members);
        free(groups[g].first);
    }
    free(groups);
    char spath[PATH_MAX];
    snprintf(spath, sizeof spath, "%.*s/findings-summary.txt", PATH_MAX - 32, dir);
    if (!write_buf(spath, &sum))
        st = ls_diag_set(d, LS_ERR_IO, spath, 0, 0, "cannot write: %s", strerror(errno));
    ls_buf_free(&sum);
    *ngroups_out = ngroups;
    free(fs);
    free(todo);
    free_names(names, nn);
    return st;
}
