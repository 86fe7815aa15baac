/* Text settings of an R500 job (include/lockstep/r500_job_args.h): the
 * syntax of `lockstep r500 run`'s options, docs/assumptions.md "R500: jobs,
 * inputs and outputs" for what each register means. */
#include "lockstep/r500_job_args.h"
#include "lockstep/values.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* "N=rest" (an optional prefix letter before N): the index and the rest. */
static bool split_index(const char *s, char prefix, unsigned count, unsigned *idx, const char **rest)
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
    if (!ls_parse_long(p, 0, (long)count - 1, &v))
        return false;
    *idx = (unsigned)v;
    *rest = eq + 1;
    return true;
}

ls_status r500_job_apply(r500_job *job, const char *name, const char *v, ls_diag *d)
{
    unsigned idx;
    const char *rest;
    float f[4];
    if (!strcmp(name, "size")) {
        int w, h;
        if (!ls_parse_size(v, &w, &h))
            return ls_diag_set(d, LS_ERR_ARG, NULL, 0, 0, "--size %s: expected WxH, 1..16384 each", v);
        job->width = w;
        job->height = h;
        return LS_OK;
    }
    if (!strcmp(name, "input")) {
        if (!split_index(v, 't', R500_NUM_TEMPS, &idx, &rest))
            return ls_diag_set(d, LS_ERR_ARG, NULL, 0, 0,
                               "--input %s: expected tN=uv|clip|none|a,b,c,d (N 0..127)", v);
        r500_input *in = &job->inputs[idx];
        if (!strcmp(rest, "uv"))
            in->kind = R500_INPUT_UV;
        else if (!strcmp(rest, "clip"))
            in->kind = R500_INPUT_CLIP;
        else if (!strcmp(rest, "none"))
            in->kind = R500_INPUT_NONE;
        else if (ls_parse_floats(rest, f, 4) == 4) {
            in->kind = R500_INPUT_CONST;
            memcpy(in->value, f, sizeof f);
        } else
            return ls_diag_set(d, LS_ERR_ARG, NULL, 0, 0,
                               "--input %s: expected uv, clip, none or 4 numbers", v);
        return LS_OK;
    }
    if (!strcmp(name, "const")) {
        if (!split_index(v, 'c', R500_NUM_CONSTS, &idx, &rest) || ls_parse_floats(rest, f, 4) != 4)
            return ls_diag_set(d, LS_ERR_ARG, NULL, 0, 0, "--const %s: expected N=a,b,c,d (N 0..255)", v);
        memcpy(job->consts[idx], f, sizeof f);
        return LS_OK;
    }
    if (!strcmp(name, "bool")) {
        long b;
        if (!split_index(v, 0, 32, &idx, &rest) || !ls_parse_long(rest, 0, 1, &b))
            return ls_diag_set(d, LS_ERR_ARG, NULL, 0, 0, "--bool %s: expected N=0|1 (N 0..31)", v);
        job->regs.fc_bool_const = (job->regs.fc_bool_const & ~(1u << idx)) | ((uint32_t)b << idx);
        return LS_OK;
    }
    if (!strcmp(name, "int")) {
        if (!split_index(v, 0, 32, &idx, &rest) || ls_parse_floats(rest, f, 3) != 3 || f[0] != floorf(f[0]) ||
            f[1] != floorf(f[1]) || f[2] != floorf(f[2]) || f[0] < 0 || f[0] > 255 || f[1] < 0 ||
            f[1] > 255 || f[2] < -128 || f[2] > 127)
            return ls_diag_set(d, LS_ERR_ARG, NULL, 0, 0,
                               "--int %s: expected N=count,init,step (count, init 0..255; step "
                               "-128..127; N 0..31)",
                               v);
        /* US_FC_INT_CONST_n: KR bits 0-7, KG 8-15, KB 16-23 (spec/r500.md) */
        job->regs.fc_int_const[idx] =
            (uint32_t)f[0] | ((uint32_t)f[1] << 8) | (((uint32_t)(int32_t)f[2] & 0xffu) << 16);
        return LS_OK;
    }
    if (!strcmp(name, "tex")) {
        if (!split_index(v, 0, R500_NUM_SAMPLERS, &idx, &rest) || !*rest)
            return ls_diag_set(d, LS_ERR_ARG, NULL, 0, 0, "--tex %s: expected N=FILE (N 0..15)", v);
        return r500_job_load_texture(job, idx, rest, d);
    }
    if (!strcmp(name, "lanes")) {
        static const struct {
            const char *name;
            unsigned n;
        } presets[] = {{"quad", 4}, {"r520", 16}, {"rv530", 48}, {"r580", 48}};
        for (size_t i = 0; i < sizeof presets / sizeof presets[0]; i++)
            if (!strcmp(v, presets[i].name)) {
                job->thread_size = presets[i].n;
                return LS_OK;
            }
        long n;
        if (!ls_parse_long(v, 1, R500_MAX_LANES, &n))
            return ls_diag_set(d, LS_ERR_ARG, NULL, 0, 0,
                               "--lanes %s: expected 1..64 or quad, r520, rv530, r580", v);
        job->thread_size = (unsigned)n;
        return LS_OK;
    }
    if (!strcmp(name, "model")) {
        const char *eq = strchr(v, '=');
        char opt[64];
        if (!eq || eq == v || (size_t)(eq - v) >= sizeof opt)
            return ls_diag_set(d, LS_ERR_ARG, NULL, 0, 0, "--model %s: expected NAME=VALUE", v);
        memcpy(opt, v, (size_t)(eq - v));
        opt[eq - v] = 0;
        ls_status st = r500_options_set(&job->options, opt, eq + 1, d);
        if (st && d) {
            char m[sizeof d->msg];
            snprintf(m, sizeof m, "%s", d->msg);
            ls_diag_set(d, LS_ERR_ARG, NULL, 0, 0, "--model %s: %s", v, m);
        }
        return st ? LS_ERR_ARG : LS_OK;
    }
    if (!strcmp(name, "max-instructions") || !strcmp(name, "timeout") || !strcmp(name, "engine")) {
        /* the job-wide limits (r500_exec_options.max_instructions, .timeout);
         * the engine (jit: only when job->options.jit is installed) */
        ls_status st = r500_options_set(&job->options, name, v, d);
        if (st && d) {
            char m[sizeof d->msg];
            snprintf(m, sizeof m, "%s", d->msg);
            ls_diag_set(d, LS_ERR_ARG, NULL, 0, 0, "--%s %s: %s", name, v, m);
        }
        return st ? LS_ERR_ARG : LS_OK;
    }
    if (!strcmp(name, "clear")) {
        if (ls_parse_floats(v, f, 4) != 4)
            return ls_diag_set(d, LS_ERR_ARG, NULL, 0, 0, "--clear %s: expected r,g,b,a", v);
        memcpy(job->clear, f, sizeof f);
        return LS_OK;
    }
    return ls_diag_set(d, LS_ERR_ARG, NULL, 0, 0, "no job setting '%s'", name);
}

/* Heat ramp: black, blue, magenta, orange, yellow, white. */
static void heat(double t, uint8_t rgb[3])
{
    static const double stops[6][3] = {{0, 0, 0},      {0, 0, 160},   {160, 0, 160},
                                       {240, 100, 0}, {255, 230, 0}, {255, 255, 255}};
    if (!(t > 0))
        t = 0;
    if (t > 1)
        t = 1;
    double x = t * 5;
    int i = (int)x;
    if (i >= 5)
        i = 4;
    double fr = x - i;
    for (int k = 0; k < 3; k++)
        rgb[k] = (uint8_t)lrint(stops[i][k] + (stops[i + 1][k] - stops[i][k]) * fr);
}

void r500_work_heatmap(const r500_result *r, uint8_t *rgb, uint32_t *maxw)
{
    size_t npix = (size_t)r->width * (size_t)r->height;
    uint32_t mx = 0;
    for (size_t i = 0; r->work && i < npix; i++)
        if (r->work[i] > mx)
            mx = r->work[i];
    *maxw = mx;
    for (int y = 0; y < r->height; y++)
        for (int x = 0; x < r->width; x++) {
            /* result rows are bottom first; the image's top first */
            size_t src = (size_t)y * (size_t)r->width + (size_t)x;
            size_t dst = (size_t)(r->height - 1 - y) * (size_t)r->width + (size_t)x;
            /* log scale: escape-time programs span 1..1000s of instructions */
            heat(mx ? log1p((double)r->work[src]) / log1p((double)mx) : 0.0, rgb + dst * 3);
        }
}
