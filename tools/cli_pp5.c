/* `lockstep pp5 asm|dis|run|serialize` (options: cli_table.c; render:
 * cli_pp5_render.c). The library does the work; this file reads the options
 * and prints. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "lockstep/pp5.h"
#include "pp5/render.h"
#include "pp5/stream.h"
#include "pp5/uasm.h"

static int read_input(cli_args *a, const char *path, ls_buf *b) { return cli_read(a, path, b); }

static bool ends_with(const char *s, const char *suf)
{
    size_t a = strlen(s), b = strlen(suf);
    return a >= b && strcmp(s + a - b, suf) == 0;
}

/* Load microcode: hex word list (*.hex) or assembly source. */
static int load_microcode(cli_args *a, const char *path, pp5_ucode *u)
{
    ls_buf b;
    int rc = read_input(a, path, &b);
    if (rc)
        return rc;
    if (ends_with(path, ".hex")) {
        ls_diag d;
        ls_diag_clear(&d);
        ls_status st = pp5_uhex_parse(b.data ? b.data : "", b.len, cli_name(path), u, &d);
        ls_buf_free(&b);
        return st == LS_OK ? CLI_OK : cli_report(a, &d);
    }
    ls_diag_list errs;
    ls_diag_list_init(&errs);
    ls_status st = pp5_uasm(b.data ? b.data : "", b.len, cli_name(path), u, &errs);
    ls_buf_free(&b);
    rc = st == LS_OK ? CLI_OK : cli_report_list(a, &errs);
    ls_diag_list_free(&errs);
    return rc;
}

static int cmd_asm(cli_args *a, bool dis)
{
    const char *in = a->ops[0], *out = cli_get(a, "output");
    pp5_ucode *u = calloc(1, sizeof *u);
    if (!u)
        return cli_err(a, CLI_INTERNAL, "out of memory");
    int rc;
    ls_buf o;
    ls_buf_init(&o);
    if (dis) {
        ls_buf b;
        rc = read_input(a, in, &b);
        if (!rc) {
            ls_diag d;
            ls_diag_clear(&d);
            if (pp5_uhex_parse(b.data ? b.data : "", b.len, cli_name(in), u, &d) != LS_OK)
                rc = cli_report(a, &d); /* bytes of the input are escaped when printed */
            ls_buf_free(&b);
        }
    } else {
        rc = load_microcode(a, in, u);
    }
    if (!rc && u->count == 0)
        rc = cli_err(a, CLI_INPUT, "%s: error: the microcode has no words", cli_name(in));
    if (!rc) {
        if (dis)
            pp5_udis(u, &o);
        else
            pp5_uhex_write(u, &o);
        rc = cli_write(a, out ? out : "-", &o);
    }
    ls_buf_free(&o);
    free(u);
    return rc;
}

int cli_pp5_asm(cli_args *a) { return cmd_asm(a, false); }
int cli_pp5_dis(cli_args *a) { return cmd_asm(a, true); }

/* Signals of the ASCII timing diagram (--wave). */
static const char *const wave_sigs[] = {"Busy", "IBsy", "CBsy", "PostI", "PostC", "IP", "NewL",
                                        "Done", "PC", "Shift", "TRR", "CSB", "LSBInt", "CDatInt",
                                        "LSB", "CDat", "TrSt", "MWrt", "LdE", "Addr", "AddrL"};
enum { WAVE_N = sizeof wave_sigs / sizeof wave_sigs[0], WAVE_MAX = 200 };

typedef struct run_ctx {
    long wave_from, wave_to;
    uint64_t wave[WAVE_N][WAVE_MAX];
    FILE *trace;
    pp5_vcd *vcd;   /* NULL: no --vcd */
    uint64_t *vals; /* the IGC's signals this clock (--trace) */
    size_t nsig;
    double period_ns;
} run_ctx;

static void on_clock(void *user, const pp5_igc *g, const pp5_pins *p)
{
    run_ctx *r = user;
    (void)p;
    if (!r->vals)
        return;
    pp5_igc_signal_values(g, r->vals + 1);
    uint64_t n = pp5_igc_cycle(g) - 1;
    if (r->wave_to >= 0 && (long)n >= r->wave_from && (long)n <= r->wave_to)
        for (int k = 0; k < WAVE_N; k++)
            r->wave[k][n - (uint64_t)r->wave_from] =
                pp5_igc_signal_value(g, (size_t)pp5_igc_signal_find(wave_sigs[k]));
    if (r->vcd)
        pp5_vcd_clock(r->vcd, g, NULL);
    if (r->trace) {
        FILE *t = r->trace;
        fprintf(t, "%6llu", (unsigned long long)n);
        for (size_t i = 0; i < r->nsig; i++) {
            const pp5_signal_info *s = pp5_igc_signal_info(i);
            uint64_t v = r->vals[i + 1];
            if (!strcmp(s->name, "PC") || !strcmp(s->name, "UWord"))
                fprintf(t, s->width > 9 ? " %s=%08llx" : " %s=%llu", s->name, (unsigned long long)v);
            else if (v && s->width == 1)
                fprintf(t, " %s", s->name);
            else if (v && s->width > 1)
                fprintf(t, " %s=%llu", s->name, (unsigned long long)v);
        }
        fputc('\n', t);
    }
}

static void print_wave(const run_ctx *r, uint64_t ran)
{
    long to = r->wave_to < (long)ran - 1 ? r->wave_to : (long)ran - 1;
    /* every column as wide as the largest cycle number and a space */
    int cw = snprintf(NULL, 0, "%ld", to > 0 ? to : 0) + 1;
    if (cw < 3)
        cw = 3;
    printf("%-8s", "cycle");
    for (long c = r->wave_from; c <= to; c++)
        printf("%-*ld", cw, c);
    printf("\n");
    for (int k = 0; k < WAVE_N; k++) {
        printf("%-8s", wave_sigs[k]);
        int w = pp5_igc_signal_info((size_t)pp5_igc_signal_find(wave_sigs[k]))->width;
        for (long c = r->wave_from; c <= to; c++) {
            uint64_t v = r->wave[k][c - r->wave_from];
            if (w == 1)
                for (int j = 0; j < cw; j++)
                    putchar(v ? '#' : '_');
            else if (c == r->wave_from || v != r->wave[k][c - r->wave_from - 1])
                printf("%-*llx", cw, (unsigned long long)v);
            else
                printf("%*s", cw, "");
        }
        printf("\n");
    }
}

int cli_pp5_run(cli_args *a)
{
    const char *stream = a->ops[0], *ucode = cli_get(a, "microcode"), *vcd = cli_get(a, "vcd"),
               *tpath = cli_get(a, "trace"), *wave = cli_get(a, "wave");
    long cycles = 0, wave_from = 0, wave_to = -1;
    int rc = cli_opt_long(a, "cycles", 1, 100000000, &cycles);
    if (rc)
        return rc;
    if (wave && (sscanf(wave, "%ld:%ld", &wave_from, &wave_to) != 2 || wave_from < 0 ||
                 wave_to < wave_from || wave_to - wave_from >= WAVE_MAX))
        return cli_usage(a, "--wave %s: expected FROM:TO, at most %d cycles", wave, WAVE_MAX);
    if (!ucode)
        return cli_usage(a, "missing --microcode FILE");
    pp5_options opt;
    pp5_options_default(&opt);
    if (cli_flag(a, "lenient"))
        opt.busy_write = PP5_BUSY_WRITE_LAST_WINS;
    const char *v = cli_get(a, "msb-token");
    if (v)
        opt.msb_token = !strcmp(v, "mbi") ? PP5_MSB_TOKEN_MBI_ONLY : PP5_MSB_TOKEN_ALWAYS;
    if ((v = cli_get(a, "rmode-shift")))
        opt.rmode_shift = !strcmp(v, "text");
    pp5_ucode *u = calloc(1, sizeof *u);
    if (!u)
        return cli_err(a, CLI_INTERNAL, "out of memory");
    rc = load_microcode(a, ucode, u);
    if (rc) {
        free(u);
        return rc;
    }
    ls_buf sb;
    rc = read_input(a, stream, &sb);
    if (rc) {
        free(u);
        return rc;
    }
    ls_diag d;
    ls_diag_clear(&d);
    pp5_stream s;
    ls_status st = pp5_stream_parse(sb.data ? sb.data : "", sb.len, cli_name(stream), &s, &d);
    ls_buf_free(&sb);
    if (st != LS_OK) {
        free(u);
        return cli_report(a, &d);
    }
    pp5_igc *g;
    st = pp5_igc_create(&g, &opt, &d);
    if (st == LS_OK) {
        const char *e = cli_get(a, "engine");
        pp5_igc_set_engine(g, e && !strcmp(e, "model") ? PP5_ENGINE_MODEL : PP5_ENGINE_FAST);
        st = pp5_igc_load_ucode(g, 0, u->words, u->count, &d);
    }
    free(u);
    if (st != LS_OK) {
        pp5_stream_free(&s);
        pp5_igc_destroy(g);
        return cli_report(a, &d);
    }
    run_ctx *rp = calloc(1, sizeof *rp);
    if (!rp) {
        pp5_stream_free(&s);
        pp5_igc_destroy(g);
        return cli_err(a, CLI_INTERNAL, "out of memory");
    }
    if (tpath) {
        rp->trace = strcmp(tpath, "-") ? fopen(tpath, "w") : stdout;
        if (!rp->trace) {
            rc = cli_err(a, CLI_OUTPUT, "cannot write %s: %s", tpath, strerror(errno));
            free(rp);
            pp5_stream_free(&s);
            pp5_igc_destroy(g);
            return rc;
        }
    }
    rp->wave_from = wave_from;
    rp->wave_to = wave_to;
    rp->nsig = pp5_igc_signal_count();
    rp->vals = calloc(rp->nsig + 1, sizeof *rp->vals);
    ls_buf vb;
    ls_buf_init(&vb);
    rp->period_ns = 1e9 / opt.clock_hz;
    if (vcd && rp->vals && pp5_vcd_begin(&rp->vcd, &vb, opt.clock_hz, NULL, 0, 0, &d) != LS_OK)
        rp->vcd = NULL; /* out of memory: reported below */
    if (!rp->vals || (vcd && !rp->vcd)) {
        if (rp->trace && rp->trace != stdout)
            fclose(rp->trace);
        free(rp->vals);
        free(rp);
        pp5_stream_free(&s);
        pp5_igc_destroy(g);
        return cli_err(a, CLI_INTERNAL, "out of memory");
    }
    st = pp5_stream_run(&s, g, (uint64_t)cycles, on_clock, rp, &d);
    /* a stream the machine rejects (busy write, bad action): LS_ERR_FAULT, exit CLI_FAULT */
    rc = st == LS_OK ? CLI_OK : cli_report(a, &d);
    if (rp->trace && rp->trace != stdout && fclose(rp->trace) != 0 && !rc)
        rc = cli_err(a, CLI_OUTPUT, "cannot write %s", tpath);
    /* the IGC keeps the last 64 warnings; cli_warn bounds what is shown */
    size_t nw = pp5_igc_warning_count(g), kept = pp5_igc_warnings_kept(g);
    a->nwarn += nw - kept; /* older than the ones kept: counted only */
    for (size_t i = 0; i < kept; i++)
        cli_warn(a, "%s", pp5_igc_warning(g, i));
    if (!cli_flag(a, "quiet"))
        fprintf(stderr, "%s: %llu cycles (%.3f us at %.0f MHz), Busy=%d\n", a->prog,
                (unsigned long long)pp5_igc_cycle(g), (double)pp5_igc_cycle(g) * rp->period_ns / 1000.0,
                opt.clock_hz / 1e6, pp5_igc_busy(g));
    if (rp->vcd) {
        pp5_vcd_end(rp->vcd, pp5_igc_cycle(g));
        int wrc = cli_write(a, vcd, &vb);
        if (!rc)
            rc = wrc;
    }
    if (rp->wave_to >= 0)
        print_wave(rp, pp5_igc_cycle(g));
    ls_buf_free(&vb);
    free(rp->vals);
    free(rp);
    pp5_stream_free(&s);
    pp5_igc_destroy(g);
    return rc;
}

int cli_pp5_serialize(cli_args *a)
{
    pp5_serialize_req q;
    memset(&q, 0, sizeof q);
    q.mode = PP5_QEE_NONE;
    long fbits = -1, fni = 0;
    int rc = cli_opt_long(a, "fbits", 0, 30, &fbits);
    if (!rc)
        rc = cli_opt_long(a, "fni", -115, 140, &fni);
    if (rc)
        return rc;
    const char *mode = cli_get(a, "mode");
    if (fbits < 0 || !mode || !cli_get(a, "fni"))
        return cli_usage(a, "needs --fbits, --mode and --fni");
    q.fbits = (int)fbits;
    q.fni = (int)fni;
    q.mode = !strcmp(mode, "const") ? PP5_QEE_CONST : !strcmp(mode, "linear") ? PP5_QEE_LINEAR : PP5_QEE_QUAD;
    q.mbi = cli_flag(a, "mbi");
    q.trren = cli_flag(a, "trren");
    bool json = cli_flag(a, "json");
    for (int k = 0; k < 6; k++) {
        const char *c = a->ops[k];
        char *end;
        errno = 0;
        float f = strtof(c, &end);
        /* float32 coefficients: a value that is not finite, or rounds to
         * infinity, has no serial form (docs/pp5.md, Serializer) */
        if (end == c || *end)
            return cli_usage(a, "coefficient %c = '%s' is not a number", "ABCDEF"[k], c);
        if (!isfinite(f))
            return cli_usage(a, "coefficient %c = %s is not a finite float32 (NaN, infinity or "
                                "beyond +-3.4e38)", "ABCDEF"[k], c);
        memcpy(&q.coef[k], &f, 4);
    }
    pp5_serialize_result r;
    ls_diag d;
    ls_diag_clear(&d);
    if (pp5_serialize(&q, NULL, &r, &d) != LS_OK)
        return cli_report(a, &d);
    if (r.n_bits > PP5_SER_MAX_BITS)
        return cli_err(a, CLI_INTERNAL, "internal: %d bits exceed the buffer", r.n_bits);
    const char *names = "ABCDEF";
    if (json) {
        printf("{\"bits\": %d, \"streams\": {", r.n_bits);
        for (int k = 0; k < 6; k++) {
            printf("%s\"%c\": \"", k ? ", " : "", names[k]);
            for (int j = 0; j < r.n_bits; j++)
                putchar(r.stream[k][j] ? '1' : '0');
            printf("\"");
        }
        printf("}, \"trr\": [");
        for (int i = 0; i < r.ntrr; i++)
            printf("%s%d", i ? ", " : "", r.trr[i]);
        printf("]}\n");
        return CLI_OK;
    }
    printf("coefficient bits N = %d (CSB high for %d shift cycles); posted at shift s=0,\n"
           "LSB token at s=%d, first *Dat bit at s=%d. Streams first bit first, '|' then the separator bit:\n",
           r.n_bits, r.n_bits, r.lsb_shift, r.dat_first_shift);
    for (int k = 0; k < 6; k++) {
        float f;
        memcpy(&f, &q.coef[k], 4);
        printf("  %cDat %-14g ", names[k], (double)f);
        for (int j = 0; j < r.n_bits; j++)
            putchar(r.stream[k][j] ? '1' : '0');
        printf("|%d\n", r.stream[k][r.n_bits]);
    }
    printf("TRR tokens at shift cycles:");
    for (int i = 0; i < r.ntrr; i++)
        printf(" %d", r.trr[i]);
    printf(r.ntrr ? "\n" : " none\n");
    return CLI_OK;
}
