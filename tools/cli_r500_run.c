/* `lockstep r500 run PROGRAM [options]`: load, apply the settings (library:
 * r500_job_apply), run, write the outputs. Also the outputs and fault report
 * `mesa run|check` share. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "io/image.h"
#include "lockstep/r500.h"
#include "lockstep/r500_job_args.h"
#include "lockstep/r500_tex.h"
#include "lockstep/record_run.h"
#ifdef LOCKSTEP_HAVE_JIT
#include "lockstep/r500_jit.h"
#include "lockstep/r500_pvs_jit.h"
#endif

#ifdef LOCKSTEP_HAVE_JIT
/* The process's JIT engine (liblockstep_jit): one compile cache for every
 * job this command runs (mesa bench's repeated runs compile once). */
static r500_jit_engine *cli_jit;

static void cli_jit_free(void)
{
    r500_jit_engine_free(cli_jit);
    cli_jit = NULL;
}
#endif

const r500_engine_ops *cli_jit_ops(void)
{
#ifdef LOCKSTEP_HAVE_JIT
    if (!cli_jit && (cli_jit = r500_jit_engine_new())) {
        atexit(cli_jit_free);
        /* docs/r500-jit.md, "Speed": compiled code visible to perf */
        const char *perf = getenv("LOCKSTEP_JIT_PERF");
        r500_jit_engine_set_perf(cli_jit, perf && !strcmp(perf, "1"));
    }
    /* the CLI installs it in every job; without memory, the uncached table */
    return cli_jit ? r500_jit_engine_ops(cli_jit) : r500_jit_ops();
#else
    return NULL;
#endif
}

#ifdef LOCKSTEP_HAVE_JIT
/* The process's vertex JIT (liblockstep_jit): one compile cache for every
 * draw this command runs. */
static r500_pvs_jit *cli_pvs_jit;

static void cli_pvs_jit_free(void)
{
    r500_pvs_jit_free(cli_pvs_jit);
    cli_pvs_jit = NULL;
}
#endif

const struct r500_pvs_engine_ops *cli_pvs_jit_ops(void)
{
#ifdef LOCKSTEP_HAVE_JIT
    if (!cli_pvs_jit && (cli_pvs_jit = r500_pvs_jit_new()))
        atexit(cli_pvs_jit_free);
    return cli_pvs_jit ? r500_pvs_jit_ops(cli_pvs_jit) : NULL;
#else
    return NULL;
#endif
}

int cli_engine_opt(cli_args *a, r500_engine *e)
{
    const char *v = cli_get(a, "engine");
    *e = !v || !strcmp(v, "auto") ? R500_ENGINE_AUTO
         : !strcmp(v, "jit")      ? R500_ENGINE_JIT
                                  : R500_ENGINE_INTERP;
    if (*e == R500_ENGINE_JIT && (!cli_jit_ops() || !cli_pvs_jit_ops()))
        return cli_err(a, CLI_USAGE,
                       "--engine jit: this lockstep is built without the JIT (LLVM; docs/r500-jit.md)");
    return CLI_OK;
}

bool cli_engine_counts(cli_jit_counts *c)
{
    memset(c, 0, sizeof *c);
#ifdef LOCKSTEP_HAVE_JIT
    if (cli_jit)
        c->fs_compiled = r500_jit_engine_cached(cli_jit, &c->fs_hits);
    if (cli_pvs_jit) {
        r500_pvs_jit_counts pc;
        r500_pvs_jit_get_counts(cli_pvs_jit, &pc);
        c->vs_compiled = pc.compiled;
        c->vs_hits = pc.hits;
        c->vs_interp_programs = pc.interp_programs;
        c->vs_interp_runs = pc.interp_runs;
    }
    return true;
#else
    return false;
#endif
}

/* The job settings that options carry, by option name (same as the
 * r500_job_apply setting names). */
static const char *const job_settings[] = {"size",  "input", "const", "bool", "int",
                                           "tex",   "lanes", "model", "clear", "max-instructions",
                                           "timeout", "engine", NULL};

static bool is_setting(const char *name)
{
    for (const char *const *s = job_settings; *s; s++)
        if (!strcmp(*s, name))
            return true;
    return false;
}

static int write_png_rgb(cli_args *a, const char *path, int w, int h, int channels, uint8_t *px)
{
    ls_image8 img = {w, h, channels, px};
    ls_diag d;
    ls_diag_clear(&d);
    ls_buf b;
    ls_buf_init(&b);
    int rc = ls_png_write_mem(&img, &b, &d) ? cli_report(a, &d) : cli_write(a, path, &b);
    ls_buf_free(&b);
    return rc;
}

int cli_r500_faults(cli_args *a, const char *prog, const r500_result *res)
{
    if (!res->stats.faulted_threads)
        return CLI_OK;
    /* counts by kind (the library's summary), then the first few in full */
    fprintf(stderr, "%s: %s: %llu of %llu threads faulted (", a->prog, prog,
            (unsigned long long)res->stats.faulted_threads, (unsigned long long)res->stats.threads);
    const char *sep = "";
    for (unsigned k = 0; k < R500_FAULT_KINDS; k++)
        if (res->fault_counts[k]) {
            fprintf(stderr, "%s%s %llu", sep, r500_fault_kind_name((r500_fault_kind)k),
                    (unsigned long long)res->fault_counts[k]);
            sep = ", ";
        }
    fprintf(stderr, ")%s\n", res->stats.faulted_threads > res->nfaults ? "; the first:" : "");
    for (size_t k = 0; k < res->nfaults; k++) {
        ls_diag fd = res->faults[k].diag;
        if (!fd.file[0])
            snprintf(fd.file, sizeof fd.file, "%s", prog);
        char line[1024];
        ls_diag_format(&fd, line, sizeof line);
        fprintf(stderr, "%s: thread %zu: %s\n", a->prog, res->faults[k].thread, line);
    }
    return CLI_FAULT;
}

int cli_r500_outputs(cli_args *a, const char *prog, const r500_job *job, const r500_result *res,
                     const ls_buf *trace)
{
    int rc = CLI_OK, wr;
    ls_diag d;
    ls_diag_clear(&d);
    const char *png = cli_get(a, "output"), *raw = cli_get(a, "raw"), *work = cli_get(a, "work"),
               *stats = cli_get(a, "stats"), *tpath = cli_get(a, "trace");
    /* the image is written even when threads faulted: it shows where */
    if (png) {
        ls_imagef img = {res->width, res->height, res->target[0]};
        ls_image8 i8;
        if (ls_imagef_to_8(&img, &i8, &d))
            wr = cli_report(a, &d);
        else
            wr = write_png_rgb(a, png, i8.width, i8.height, i8.channels, i8.pixels);
        ls_image8_free(&i8);
        rc = rc ? rc : wr;
    }
    if (raw) {
        ls_buf b;
        ls_buf_init(&b);
        /* float32 RGBA, little-endian (every target lockstep builds for) */
        ls_buf_append(&b, res->target[0], (size_t)res->width * (size_t)res->height * 4 * sizeof(float));
        wr = cli_write(a, raw, &b);
        ls_buf_free(&b);
        rc = rc ? rc : wr;
    }
    uint32_t maxwork = 0;
    if (work) {
        size_t n = (size_t)res->width * (size_t)res->height * 3;
        uint8_t *rgb = malloc(n);
        if (!rgb)
            return cli_err(a, CLI_INTERNAL, "out of memory");
        r500_work_heatmap(res, rgb, &maxwork);
        wr = write_png_rgb(a, work, res->width, res->height, 3, rgb);
        free(rgb);
        rc = rc ? rc : wr;
    }
    if (stats) {
        ls_buf sb;
        ls_buf_init(&sb);
        r500_stats_write_json(&res->stats, &sb);
        wr = cli_write(a, stats, &sb);
        ls_buf_free(&sb);
        rc = rc ? rc : wr;
    }
    if (tpath) {
        ls_buf tb;
        ls_buf_init(&tb);
        ls_buf_puts(&tb, "[\n");
        if (trace && trace->len)
            ls_buf_append(&tb, trace->data, trace->len);
        ls_buf_puts(&tb, "\n]\n");
        wr = cli_write(a, tpath, &tb);
        ls_buf_free(&tb);
        rc = rc ? rc : wr;
    }
    if (!cli_flag(a, "quiet")) {
        /* a summary: stderr (stdout carries data only) */
        const r500_stats *s = &res->stats;
        unsigned long long total = s->inst_alu + s->inst_out + s->inst_tex + s->inst_fc;
        fprintf(stderr,
                "%s: %dx%d pixels, %llu threads of %u: %llu instructions issued "
                "(ALU %llu, OUT %llu, TEX %llu, FC %llu), FC jumps %llu taken / %llu not\n",
                prog, res->width, res->height, (unsigned long long)s->threads, job->thread_size, total,
                (unsigned long long)s->inst_alu, (unsigned long long)s->inst_out,
                (unsigned long long)s->inst_tex, (unsigned long long)s->inst_fc,
                (unsigned long long)s->fc_jumps_taken, (unsigned long long)s->fc_jumps_not_taken);
        fprintf(stderr, "SIMD efficiency: %.1f%% (active / issued lane-slots = %llu / %llu)\n",
                100.0 * r500_stats_simd_efficiency(s), (unsigned long long)s->lane_slots_active,
                (unsigned long long)s->lane_slots_issued);
        if (r500_engine_pick(&job->options, (size_t)res->width * res->height) == R500_ENGINE_JIT)
            fprintf(stderr, "engine: jit (compiled in %.3f s; 0: the program was cached)\n",
                    s->compile_seconds);
        else
            fprintf(stderr, "engine: interp\n");
        if (work)
            fprintf(stderr, "work image: %s (log scale, white = %u instructions per pixel)\n", work,
                    maxwork);
        if (s->faulted_threads)
            fprintf(stderr, "%llu thread(s) faulted\n", (unsigned long long)s->faulted_threads);
    }
    return rc;
}

int cli_r500_run(cli_args *a)
{
    const char *prog = a->ops[0];
    long workers = 0;
    int rc = cli_opt_long(a, "workers", 1, 256, &workers);
    if (rc)
        return rc;
    if (cli_flag(a, "trace-writes") && !cli_get(a, "trace"))
        return cli_usage(a, "--trace-writes adds to the trace: give --trace FILE too");
    ls_buf src;
    if ((rc = cli_read(a, prog, &src)))
        return rc;
    r500_job job;
    r500_job_init(&job);
    job.texture_loader.load = r500_texture_load_file; /* PNG / raw float32 files */
    job.trace_writes = cli_flag(a, "trace-writes");
    job.work_image = cli_get(a, "work") != NULL;
    job.options.jit = cli_jit_ops(); /* a JSON job's "engine": "jit" */
    ls_diag d;
    ls_diag_clear(&d);
    ls_status st = r500_job_load_mem(&job, cli_name(prog), src.data, src.len, &d);
    ls_buf_free(&src);
    if (st) {
        r500_job_free(&job);
        return cli_report(a, &d);
    }
    job.options.jit = cli_jit_ops(); /* --engine jit (NULL without LLVM) */
    /* settings in command-line order: a later one overrides an earlier one */
    for (size_t i = 0; i < a->nov; i++) {
        const char *name = a->ov[i].opt->name;
        if (!is_setting(name))
            continue;
        if ((st = r500_job_apply(&job, name, a->ov[i].val, &d))) {
            r500_job_free(&job);
            return st == LS_ERR_ARG ? cli_usage(a, "%s", d.msg) : cli_report(a, &d);
        }
    }
    job.workers = (unsigned)workers;
    ls_buf tbuf;
    ls_buf_init(&tbuf);
    r500_result res;
    const char *record = cli_get(a, "record");
    r500_observer obs;
    ls_rec_values vals;
    ls_rec_values_default(job.width, job.height, &vals);
    const char *vspec = cli_get(a, "record-values");
    if (vspec && ls_rec_values_parse(vspec, &vals)) {
        r500_job_free(&job);
        return cli_usage(a, "--record-values: 'all', 'none' or X,Y,W,H (pixels, y from the bottom row), not '%s'", vspec);
    }
    ls_rec_r500 *rec = record ? ls_rec_r500_new(&job, cli_name(prog), &vals, &obs) : NULL;
    if (record && !rec) {
        r500_job_free(&job);
        return cli_err(a, CLI_INTERNAL, "out of memory");
    }
    /* threads done, on a terminal (-q: none) */
    cli_progress progress;
    cli_progress_start(&progress, 0, "threads");
    if (isatty(2) && !cli_flag(a, "quiet"))
        job.progress = (ls_progress){.report = cli_progress_report, .ctx = &progress};
    /* a recorded run is observed (the interpreter); otherwise the job's engine */
    ls_buf *tb = cli_get(a, "trace") ? &tbuf : NULL;
    if (rec)
        job.options.engine = R500_ENGINE_INTERP;
    ls_status rst = rec ? r500_run_observed(&job, &res, tb, &obs, &d) : r500_run(&job, &res, tb, &d);
    cli_progress_end(&progress);
    if (rst) {
        if (!d.file[0])
            snprintf(d.file, sizeof d.file, "%s", cli_name(prog));
        rc = cli_report(a, &d);
    } else {
        rc = cli_r500_faults(a, cli_name(prog), &res);
        int wr = cli_r500_outputs(a, cli_name(prog), &job, &res, &tbuf);
        rc = rc ? rc : wr;
        if (rec) { /* written also when threads faulted: the recording shows where */
            ls_buf rb;
            ls_buf_init(&rb);
            ls_diag rd;
            ls_diag_clear(&rd);
            wr = ls_rec_r500_finish(rec, &res, &rb, &rd) ? cli_report(a, &rd) : cli_write(a, record, &rb);
            ls_buf_free(&rb);
            rc = rc ? rc : wr;
        }
        r500_result_free(&res);
    }
    ls_rec_r500_free(rec);
    ls_buf_free(&tbuf);
    r500_job_free(&job);
    return rc;
}
