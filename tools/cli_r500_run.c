/* `lockstep r500 run PROGRAM [options]`: run a fragment program over an image. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "io/image.h"
#include "lockstep/r500.h"
#include "lockstep/r500_tex.h"

static void usage(FILE *f)
{
    fprintf(f,
            "usage: lockstep r500 run PROGRAM [options]\n"
            "  PROGRAM: .bin (little-endian dwords), hex-dword text (.inc, .txt; 'cN:' lines\n"
            "           are constants), assembly (.fs.asm, docs/r500-asm.md) or a JSON job\n"
            "           (corpus program.json as it is; docs/assumptions.md, R500 jobs)\n"
            "options:\n"
            "  --size WxH               image size (default 16x16, or the job's)\n"
            "  --input tN=uv|clip|none|a,b,c,d\n"
            "                           preload temp N: uv = ((x+.5)/W, (y+.5)/H, 0, 1),\n"
            "                           clip = (2(x+.5)/W-1, 2(y+.5)/H-1, 0, 1), or a constant;\n"
            "                           y counts from the bottom row\n"
            "  --const N=a,b,c,d        constant N (0..255)\n"
            "  --bool N=0|1             bit N of US_FC_BOOL_CONST\n"
            "  --int N=count,init,step  US_FC_INT_CONST_N (KR, KG, KB)\n"
            "  --tex N=FILE             texture N: a PNG, or raw float32 RGBA as FILE@WxH;\n"
            "                           add ,nearest ,bilinear ,repeat ,clamp for the sampler\n"
            "  --thread N|quad|r520|rv530|r580   pixels per thread, 1..64 (default 48 = RV530)\n"
            "  --model NAME=VALUE       a model option (docs/assumptions.md)\n"
            "  --clear r,g,b,a          colour of killed pixels (default 0,0,0,0)\n"
            "  -o FILE.png              render target 0, 8-bit\n"
            "  --raw FILE               render target 0, float32 RGBA, bottom row first\n"
            "  --work FILE.png          instructions per pixel (while active), log-scale heat map\n"
            "  --stats FILE.json        instruction counts, FC jumps, SIMD efficiency, per thread\n"
            "  --trace FILE.json        per instruction and thread: PC, masks, FC stacks\n"
            "  --trace-writes           the trace also gives the temps each ALU/TEX\n"
            "                           instruction writes, per lane\n"
            "  --workers N              host threads (default: one per core)\n"
            "  -q, --quiet              no summary on stdout\n");
}

typedef struct override {
    enum { OV_INPUT, OV_CONST, OV_BOOL, OV_INT, OV_TEX, OV_MODEL } kind;
    unsigned index;
    float v[4];
    r500_input_kind input;
    long a, b, c;
    const char *text, *name;
} override;

/* "N=rest": the index (with optional prefix letter) and the rest. */
static bool split_index(const char *s, char prefix, unsigned max, unsigned *idx, const char **rest)
{
    const char *eq = strchr(s, '=');
    if (!eq)
        return false;
    char tmp[32];
    size_t n = (size_t)(eq - s);
    if (n == 0 || n >= sizeof tmp)
        return false;
    memcpy(tmp, s, n);
    tmp[n] = 0;
    const char *p = tmp;
    if (prefix && (*p == prefix || *p == (prefix ^ 0x20)))
        p++;
    long v;
    if (!cli_parse_int(p, 0, (long)max - 1, &v))
        return false;
    *idx = (unsigned)v;
    *rest = eq + 1;
    return true;
}

static bool parse_thread(const char *s, unsigned *out)
{
    static const struct { const char *name; unsigned n; } presets[] = {
        {"quad", 4}, {"r520", 16}, {"rv530", 48}, {"r580", 48}};
    for (size_t i = 0; i < sizeof presets / sizeof presets[0]; i++)
        if (!strcmp(s, presets[i].name)) {
            *out = presets[i].n;
            return true;
        }
    long v;
    if (!cli_parse_int(s, 1, R500_MAX_LANES, &v))
        return false;
    *out = (unsigned)v;
    return true;
}

/* Heat ramp for the work image: black, blue, magenta, orange, yellow, white. */
static void heat(double t, uint8_t rgb[3])
{
    static const double stops[6][3] = {{0, 0, 0},       {0, 0, 160},     {160, 0, 160},
                                       {240, 100, 0},  {255, 230, 0},   {255, 255, 255}};
    if (!(t > 0))
        t = 0;
    if (t > 1)
        t = 1;
    double x = t * 5;
    int i = (int)x;
    if (i >= 5)
        i = 4;
    double f = x - i;
    for (int k = 0; k < 3; k++)
        rgb[k] = (uint8_t)lrint(stops[i][k] + (stops[i + 1][k] - stops[i][k]) * f);
}

static int write_work_png(const char *path, const r500_result *r, uint32_t *maxw)
{
    ls_image8 img = {r->width, r->height, 3, NULL};
    size_t npix = (size_t)r->width * r->height;
    img.pixels = malloc(npix * 3);
    if (!img.pixels)
        return cli_usage_error("out of memory");
    uint32_t mx = 0;
    for (size_t i = 0; i < npix; i++)
        if (r->work[i] > mx)
            mx = r->work[i];
    *maxw = mx;
    for (int y = 0; y < r->height; y++)
        for (int x = 0; x < r->width; x++) {
            /* result rows are bottom first; PNG rows top first */
            size_t src = (size_t)y * r->width + x;
            size_t dst = (size_t)(r->height - 1 - y) * r->width + x;
            /* log scale: escape-time programs span 1..1000s of instructions */
            heat(mx ? log1p((double)r->work[src]) / log1p((double)mx) : 0.0, img.pixels + dst * 3);
        }
    ls_diag d;
    ls_diag_clear(&d);
    ls_status st = ls_png_write(path, &img, &d);
    free(img.pixels);
    return st ? cli_report(&d) : CLI_OK;
}

int cli_r500_run(int argc, char **argv)
{
    const char *prog = NULL, *png = NULL, *raw = NULL, *stats = NULL, *trace = NULL, *work = NULL;
    bool trace_writes = false;
    int width = 0, height = 0;
    unsigned thread = 0, workers = 0;
    bool quiet = false, have_clear = false;
    float clear[4] = {0, 0, 0, 0};
    override *ov = calloc((size_t)argc + 1, sizeof *ov);
    size_t nov = 0;
    int rc = CLI_OK;
    if (!ov)
        return cli_usage_error("out of memory");
#define NEED_ARG()                                                                               \
    do {                                                                                         \
        if (i + 1 >= argc) {                                                                     \
            rc = cli_usage_error("option %s needs a value", a);                                  \
            goto out;                                                                            \
        }                                                                                        \
        val = argv[++i];                                                                         \
    } while (0)
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *val = NULL, *rest;
        unsigned idx;
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            usage(stdout);
            goto out;
        } else if (!strcmp(a, "--size")) {
            NEED_ARG();
            if (!cli_parse_size(val, &width, &height)) {
                rc = cli_usage_error("--size %s: expected WxH, 1..16384", val);
                goto out;
            }
        } else if (!strcmp(a, "--input")) {
            NEED_ARG();
            override *o = &ov[nov];
            if (!split_index(val, 't', R500_NUM_TEMPS, &idx, &rest)) {
                rc = cli_usage_error("--input %s: expected tN=uv|clip|none|a,b,c,d (N 0..127)", val);
                goto out;
            }
            o->kind = OV_INPUT;
            o->index = idx;
            if (!strcmp(rest, "uv"))
                o->input = R500_INPUT_UV;
            else if (!strcmp(rest, "clip"))
                o->input = R500_INPUT_CLIP;
            else if (!strcmp(rest, "none"))
                o->input = R500_INPUT_NONE;
            else if (cli_parse_floats(rest, o->v, 4) == 4)
                o->input = R500_INPUT_CONST;
            else {
                rc = cli_usage_error("--input %s: expected uv, clip, none or 4 numbers", val);
                goto out;
            }
            nov++;
        } else if (!strcmp(a, "--const")) {
            NEED_ARG();
            override *o = &ov[nov];
            if (!split_index(val, 'c', R500_NUM_CONSTS, &idx, &rest) ||
                cli_parse_floats(rest, o->v, 4) != 4) {
                rc = cli_usage_error("--const %s: expected N=a,b,c,d (N 0..255)", val);
                goto out;
            }
            o->kind = OV_CONST;
            o->index = idx;
            nov++;
        } else if (!strcmp(a, "--bool")) {
            NEED_ARG();
            override *o = &ov[nov];
            if (!split_index(val, 0, 32, &idx, &rest) || !cli_parse_int(rest, 0, 1, &o->a)) {
                rc = cli_usage_error("--bool %s: expected N=0|1 (N 0..31)", val);
                goto out;
            }
            o->kind = OV_BOOL;
            o->index = idx;
            nov++;
        } else if (!strcmp(a, "--int")) {
            NEED_ARG();
            override *o = &ov[nov];
            float v[3];
            if (!split_index(val, 0, 32, &idx, &rest) || cli_parse_floats(rest, v, 3) != 3 ||
                v[0] != floorf(v[0]) || v[1] != floorf(v[1]) || v[2] != floorf(v[2]) ||
                v[0] < 0 || v[0] > 255 || v[1] < 0 || v[1] > 255 || v[2] < -128 || v[2] > 127) {
                rc = cli_usage_error("--int %s: expected N=count,init,step (count, init 0..255; "
                                     "step -128..127; N 0..31)",
                                     val);
                goto out;
            }
            o->kind = OV_INT;
            o->index = idx;
            o->a = (long)v[0], o->b = (long)v[1], o->c = (long)v[2];
            nov++;
        } else if (!strcmp(a, "--tex")) {
            NEED_ARG();
            override *o = &ov[nov];
            if (!split_index(val, 0, R500_NUM_SAMPLERS, &idx, &rest) || !*rest) {
                rc = cli_usage_error("--tex %s: expected N=FILE (N 0..15)", val);
                goto out;
            }
            o->kind = OV_TEX;
            o->index = idx;
            o->text = rest;
            nov++;
        } else if (!strcmp(a, "--model")) {
            NEED_ARG();
            override *o = &ov[nov];
            const char *eq = strchr(val, '=');
            if (!eq || eq == val) {
                rc = cli_usage_error("--model %s: expected NAME=VALUE", val);
                goto out;
            }
            o->kind = OV_MODEL;
            o->name = val;
            o->text = eq + 1;
            nov++;
        } else if (!strcmp(a, "--thread")) {
            NEED_ARG();
            if (!parse_thread(val, &thread)) {
                rc = cli_usage_error("--thread %s: expected 1..64 or quad, r520, rv530, r580", val);
                goto out;
            }
        } else if (!strcmp(a, "--workers")) {
            NEED_ARG();
            long v;
            if (!cli_parse_int(val, 1, 256, &v)) {
                rc = cli_usage_error("--workers %s: expected 1..256", val);
                goto out;
            }
            workers = (unsigned)v;
        } else if (!strcmp(a, "--clear")) {
            NEED_ARG();
            if (cli_parse_floats(val, clear, 4) != 4) {
                rc = cli_usage_error("--clear %s: expected r,g,b,a", val);
                goto out;
            }
            have_clear = true;
        } else if (!strcmp(a, "-o")) {
            NEED_ARG();
            png = val;
        } else if (!strcmp(a, "--raw")) {
            NEED_ARG();
            raw = val;
        } else if (!strcmp(a, "--stats")) {
            NEED_ARG();
            stats = val;
        } else if (!strcmp(a, "--trace")) {
            NEED_ARG();
            trace = val;
        } else if (!strcmp(a, "--trace-writes")) {
            trace_writes = true;
        } else if (!strcmp(a, "--work")) {
            NEED_ARG();
            work = val;
        } else if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) {
            quiet = true;
        } else if (a[0] == '-' && a[1]) {
            usage(stderr);
            rc = cli_usage_error("unknown option '%s'", a);
            goto out;
        } else if (!prog) {
            prog = a;
        } else {
            rc = cli_usage_error("more than one program ('%s' and '%s')", prog, a);
            goto out;
        }
    }
#undef NEED_ARG
    if (!prog) {
        usage(stderr);
        rc = CLI_USAGE;
        goto out;
    }

    r500_job job;
    r500_job_init(&job);
    job.trace_writes = trace_writes;
    job.texture_loader.load = r500_texture_load_file; /* PNG / raw float32 files */
    ls_diag d;
    ls_diag_clear(&d);
    if (r500_job_load(&job, prog, &d)) {
        rc = cli_report(&d);
        r500_job_free(&job);
        goto out;
    }
    if (width) {
        job.width = width;
        job.height = height;
    }
    if (thread)
        job.thread_size = thread;
    if (have_clear)
        memcpy(job.clear, clear, sizeof clear);
    job.workers = workers;
    for (size_t k = 0; k < nov; k++) {
        override *o = &ov[k];
        switch (o->kind) {
        case OV_INPUT:
            job.inputs[o->index].kind = o->input;
            memcpy(job.inputs[o->index].value, o->v, sizeof o->v);
            break;
        case OV_CONST:
            memcpy(job.consts[o->index], o->v, sizeof o->v);
            break;
        case OV_BOOL:
            job.regs.fc_bool_const = (job.regs.fc_bool_const & ~(1u << o->index)) |
                                     ((uint32_t)o->a << o->index);
            break;
        case OV_INT:
            job.regs.fc_int_const[o->index] =
                (uint32_t)o->a | ((uint32_t)o->b << 8) | (((uint32_t)o->c & 0xffu) << 16);
            break;
        case OV_TEX:
            if (r500_job_load_texture(&job, o->index, o->text, &d)) {
                rc = cli_report(&d);
                r500_job_free(&job);
                goto out;
            }
            break;
        case OV_MODEL: {
            char name[64];
            size_t n = (size_t)(strchr(o->name, '=') - o->name);
            if (n >= sizeof name)
                n = sizeof name - 1;
            memcpy(name, o->name, n);
            name[n] = 0;
            if (r500_options_set(&job.options, name, o->text, &d)) {
                rc = cli_usage_error("--model %s: %s", o->name, d.msg);
                r500_job_free(&job);
                goto out;
            }
            break;
        }
        }
    }

    ls_buf tbuf;
    ls_buf_init(&tbuf);
    r500_result res;
    if (r500_run(&job, &res, trace ? &tbuf : NULL, &d)) {
        if (!d.file[0])
            snprintf(d.file, sizeof d.file, "%s", prog);
        rc = cli_report(&d);
        ls_buf_free(&tbuf);
        r500_job_free(&job);
        goto out;
    }
    /* faults, summarised: counts by kind, then the first few in full */
    if (res.stats.faulted_threads) {
        fprintf(stderr, "lockstep: %s: %llu of %llu threads faulted (", prog,
                (unsigned long long)res.stats.faulted_threads,
                (unsigned long long)res.stats.threads);
        const char *sep = "";
        for (unsigned k = 0; k < R500_FAULT_KINDS; k++)
            if (res.fault_counts[k]) {
                fprintf(stderr, "%s%s %llu", sep, r500_fault_kind_name((r500_fault_kind)k),
                        (unsigned long long)res.fault_counts[k]);
                sep = ", ";
            }
        fprintf(stderr, ")%s\n", res.stats.faulted_threads > res.nfaults ? "; the first:" : "");
        rc = CLI_FAIL;
    }
    for (size_t k = 0; k < res.nfaults; k++) {
        ls_diag fd = res.faults[k].diag;
        if (!fd.file[0])
            snprintf(fd.file, sizeof fd.file, "%s", prog);
        char line[1024];
        ls_diag_format(&fd, line, sizeof line);
        fprintf(stderr, "lockstep: thread %zu: %s\n", res.faults[k].thread, line);
    }
    if (png && !rc) {
        ls_imagef img = {res.width, res.height, res.target[0]};
        ls_image8 i8;
        if (ls_imagef_to_8(&img, &i8, &d) || ls_png_write(png, &i8, &d))
            rc = cli_report(&d);
        ls_image8_free(&i8);
    } else if (png) {
        ls_imagef img = {res.width, res.height, res.target[0]};
        ls_image8 i8;
        if (!ls_imagef_to_8(&img, &i8, &d))
            ls_png_write(png, &i8, &d);
        ls_image8_free(&i8);
    }
    if (raw) {
        ls_imagef img = {res.width, res.height, res.target[0]};
        if (ls_rawf_write(raw, &img, &d))
            rc = cli_report(&d);
    }
    uint32_t maxwork = 0;
    if (work) {
        int wr = write_work_png(work, &res, &maxwork);
        if (wr)
            rc = wr;
    }
    if (stats) {
        ls_buf sb;
        ls_buf_init(&sb);
        r500_stats_write_json(&res.stats, &sb);
        int wr = cli_write_file(stats, &sb);
        if (wr)
            rc = wr;
        ls_buf_free(&sb);
    }
    if (trace) {
        ls_buf tb;
        ls_buf_init(&tb);
        ls_buf_puts(&tb, "[\n");
        if (tbuf.len)
            ls_buf_append(&tb, tbuf.data, tbuf.len);
        ls_buf_puts(&tb, "\n]\n");
        int wr = cli_write_file(trace, &tb);
        if (wr)
            rc = wr;
        ls_buf_free(&tb);
    }
    if (!quiet) {
        const r500_stats *s = &res.stats;
        unsigned long long total = s->inst_alu + s->inst_out + s->inst_tex + s->inst_fc;
        printf("%s: %dx%d pixels, %llu threads of %u: %llu instructions issued "
               "(ALU %llu, OUT %llu, TEX %llu, FC %llu), FC jumps %llu taken / %llu not\n",
               prog, res.width, res.height, (unsigned long long)s->threads, job.thread_size, total,
               (unsigned long long)s->inst_alu, (unsigned long long)s->inst_out,
               (unsigned long long)s->inst_tex, (unsigned long long)s->inst_fc,
               (unsigned long long)s->fc_jumps_taken, (unsigned long long)s->fc_jumps_not_taken);
        printf("SIMD efficiency: %.1f%% (active / issued lane-slots = %llu / %llu)\n",
               100.0 * r500_stats_simd_efficiency(s), (unsigned long long)s->lane_slots_active,
               (unsigned long long)s->lane_slots_issued);
        if (work)
            printf("work image: %s (log scale, white = %u instructions per pixel)\n", work, maxwork);
        if (s->faulted_threads)
            printf("%llu thread(s) faulted (see stderr)\n", (unsigned long long)s->faulted_threads);
    }
    ls_buf_free(&tbuf);
    r500_result_free(&res);
    r500_job_free(&job);
out:
    free(ov);
    return rc;
}
