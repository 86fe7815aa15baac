/* One R500 vertex from text settings (include/lockstep/r500_pvs.h,
 * r500_pvs_vertex_apply): the syntax of `lockstep r500 vs run`'s options,
 * docs/r500-vs.md. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "lockstep/r500_pvs.h"
#include "lockstep/values.h"

void r500_pvs_vertex_init(r500_pvs_vertex *v)
{
    memset(v, 0, sizeof *v);
    r500_pvs_options_default(&v->options);
    v->last = -1;
}

/* "iN=x[,y[,z[,w]]]" / "cN=...": the index (below max) and 1..4 floats, the rest 0 */
static bool parse_vec(const char *s, char prefix, unsigned max, unsigned *idx, float v[4])
{
    if ((s[0] | 32) != prefix)
        return false;
    char *end;
    errno = 0;
    unsigned long i = strtoul(s + 1, &end, 10);
    if (end == s + 1 || *end != '=' || errno || i >= max)
        return false;
    float tmp[4] = {0, 0, 0, 0};
    if (ls_parse_floats(end + 1, tmp, 4) < 1)
        return false;
    *idx = (unsigned)i;
    memcpy(v, tmp, sizeof tmp);
    return true;
}

/* "NAME=VALUE": the name into name[n] */
static const char *split_name(const char *s, char *name, size_t n)
{
    const char *eq = strchr(s, '=');
    if (!eq || eq == s || (size_t)(eq - s) >= n)
        return NULL;
    memcpy(name, s, (size_t)(eq - s));
    name[eq - s] = 0;
    return eq + 1;
}

ls_status r500_pvs_vertex_apply(r500_pvs_vertex *v, const char *name, const char *value, ls_diag *d)
{
    char key[64];
    const char *rest;
    unsigned idx;
    float f[4];
    if (!strcmp(name, "model")) {
        if (!(rest = split_name(value, key, sizeof key)))
            return ls_diag_set(d, LS_ERR_ARG, NULL, 0, 0, "--model %s: expected NAME=VALUE", value);
        ls_diag od;
        if (r500_pvs_options_set(&v->options, key, rest, &od) != LS_OK)
            return ls_diag_set(d, LS_ERR_ARG, NULL, 0, 0, "--model %s: %s", value, od.msg);
        return LS_OK;
    }
    if (!strcmp(name, "input")) {
        if (!parse_vec(value, 'i', v->options.inputs, &idx, f))
            return ls_diag_set(d, LS_ERR_ARG, NULL, 0, 0, "--input %s: expected iN=x[,y[,z[,w]]] with N < %u",
                               value, v->options.inputs);
        memcpy(v->state.input[idx], f, sizeof f);
        return LS_OK;
    }
    if (!strcmp(name, "const")) {
        if (!parse_vec(value, 'c', R500_PVS_NUM_CONSTS, &idx, f))
            return ls_diag_set(d, LS_ERR_ARG, NULL, 0, 0, "--const %s: expected cN=x[,y[,z[,w]]] with N < 256",
                               value);
        memcpy(v->consts[idx], f, sizeof f);
        return LS_OK;
    }
    if (!strcmp(name, "first") || !strcmp(name, "last")) {
        long n;
        if (!ls_parse_long(value, 0, R500_PVS_MAX_INSTS - 1, &n))
            return ls_diag_set(d, LS_ERR_ARG, NULL, 0, 0, "--%s %s: expected 0..%d", name, value,
                               R500_PVS_MAX_INSTS - 1);
        *(name[0] == 'f' ? &v->first : &v->last) = n;
        return LS_OK;
    }
    if (!strcmp(name, "reg")) {
        if (!(rest = split_name(value, key, sizeof key)))
            return ls_diag_set(d, LS_ERR_ARG, NULL, 0, 0, "--reg %s: expected NAME=VALUE", value);
        char *end;
        errno = 0;
        unsigned long long rv = strtoull(rest, &end, 0);
        if (!*rest || *end || errno || rv > 0xffffffffull)
            return ls_diag_set(d, LS_ERR_ARG, NULL, 0, 0, "--reg %s: the value is not a 32-bit number", value);
        if (!strcasecmp(key, "VAP_PVS_CODE_CNTL_0")) {
            /* PVS_FIRST_INST 9:0, PVS_LAST_INST 29:20 (vap_pvs_code_cntl_0.txt) */
            v->first = (long)(rv & 0x3ff);
            v->last = (long)((rv >> 20) & 0x3ff);
            return LS_OK;
        }
        ls_diag fd;
        if (r500_pvs_fc_set(&v->fc, key, (uint32_t)rv, &fd) != LS_OK)
            return ls_diag_set(d, LS_ERR_ARG, NULL, 0, 0, "--reg %s: %s", value, fd.msg);
        v->have_fc = true;
        return LS_OK;
    }
    return ls_diag_set(d, LS_ERR_ARG, NULL, 0, 0, "no vertex setting '%s'", name);
}
