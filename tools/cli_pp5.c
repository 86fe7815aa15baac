/* `lockstep pp5 asm|dis|run|serialize|render`. The library does the work;
 * this file parses options and prints. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/vcd.h"
#include "cli.h"
#include "lockstep/pp5.h"
#include "pp5/stream.h"
#include "pp5/uasm.h"

static void usage(FILE *f)
{
    fprintf(f,
            "usage: lockstep pp5 asm FILE.pp5m [-o OUT.hex]\n"
            "       lockstep pp5 dis FILE.hex [-o OUT.pp5m]\n"
            "       lockstep pp5 run STREAM --microcode FILE [--cycles N] [--vcd OUT.vcd] [--trace]\n"
            "                        [--wave FROM:TO]\n"
            "                        [--lenient] [--msb-token mbi|always] [--rmode-shift text|table]\n"
            "       lockstep pp5 serialize --fbits F --mode const|linear|quad [--mbi] [--trren]\n"
            "                        --fni K A B C D E F [--json]\n"
            "       lockstep pp5 render ...\n");
}

static int read_input(const char *path, ls_buf *b)
{
    ls_buf_init(b);
    if (!ls_read_file(path, b)) {
        ls_diag d;
        ls_diag_clear(&d);
        ls_diag_set(&d, LS_ERR_IO, path, 0, 0, "cannot read file");
        ls_buf_free(b);
        return cli_report(&d);
    }
    return CLI_OK;
}

static bool ends_with(const char *s, const char *suf)
{
    size_t a = strlen(s), b = strlen(suf);
    return a >= b && strcmp(s + a - b, suf) == 0;
}

/* Load microcode: hex word list (*.hex) or assembly source. */
static int load_microcode(const char *path, pp5_ucode *u)
{
    ls_buf b;
    int rc = read_input(path, &b);
    if (rc)
        return rc;
    if (ends_with(path, ".hex")) {
        ls_diag d;
        ls_diag_clear(&d);
        ls_status st = pp5_uhex_parse(b.data ? b.data : "", b.len, path, u, &d);
        ls_buf_free(&b);
        return st == LS_OK ? CLI_OK : cli_report(&d);
    }
    ls_diag_list errs;
    ls_diag_list_init(&errs);
    ls_status st = pp5_uasm(b.data ? b.data : "", b.len, path, u, &errs);
    ls_buf_free(&b);
    for (size_t i = 0; i < errs.count; i++)
        cli_report(&errs.items[i]);
    ls_diag_list_free(&errs);
    return st == LS_OK ? CLI_OK : CLI_FAIL;
}

static int cmd_asm(int argc, char **argv, bool dis)
{
    const char *in = NULL, *out = "-";
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-o") && i + 1 < argc)
            out = argv[++i];
        else if (argv[i][0] == '-' && argv[i][1])
            return cli_usage_error("unknown option '%s'", argv[i]);
        else if (!in)
            in = argv[i];
        else
            return cli_usage_error("more than one input file");
    }
    if (!in)
        return cli_usage_error("pp5 %s: missing input file", dis ? "dis" : "asm");
    pp5_ucode *u = calloc(1, sizeof *u);
    if (!u)
        return CLI_FAIL;
    int rc;
    ls_buf o;
    ls_buf_init(&o);
    if (dis) {
        ls_buf b;
        rc = read_input(in, &b);
        if (!rc) {
            ls_diag d;
            ls_diag_clear(&d);
            if (pp5_uhex_parse(b.data ? b.data : "", b.len, in, u, &d) != LS_OK)
                rc = cli_report(&d);
            ls_buf_free(&b);
        }
        if (!rc)
            pp5_udis(u, &o);
    } else {
        rc = load_microcode(in, u);
        if (!rc)
            pp5_uhex_write(u, &o);
    }
    if (!rc)
        rc = cli_write_file(out, &o);
    ls_buf_free(&o);
    free(u);
    return rc;
}

/* Signals of the ASCII timing diagram (--wave). */
static const char *const wave_sigs[] = {"Busy", "IBsy", "CBsy", "PostI", "PostC", "IP", "NewL",
                                        "Done", "PC", "Shift", "TRR", "CSB", "LSBInt", "CDatInt",
                                        "LSB", "CDat", "TrSt", "MWrt", "LdE", "Addr", "AddrL"};
enum { WAVE_N = sizeof wave_sigs / sizeof wave_sigs[0], WAVE_MAX = 200 };

typedef struct run_ctx {
    long wave_from, wave_to;
    uint64_t wave[WAVE_N][WAVE_MAX];
    bool trace;
    ls_vcd vcd;
    bool vcd_on;
    uint64_t *vals;
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
    if (r->vcd_on) {
        uint64_t t0 = (uint64_t)(n * r->period_ns);
        r->vals[0] = 1;
        ls_vcd_sample(&r->vcd, t0, r->vals);
        r->vals[0] = 0;
        ls_vcd_sample(&r->vcd, t0 + (uint64_t)(r->period_ns / 2), r->vals);
    }
    if (r->trace) {
        printf("%6llu", (unsigned long long)n);
        for (size_t i = 0; i < r->nsig; i++) {
            const pp5_signal_info *s = pp5_igc_signal_info(i);
            uint64_t v = r->vals[i + 1];
            if (!strcmp(s->name, "PC") || !strcmp(s->name, "UWord"))
                printf(s->width > 9 ? " %s=%08llx" : " %s=%llu", s->name, (unsigned long long)v);
            else if (v && s->width == 1)
                printf(" %s", s->name);
            else if (v && s->width > 1)
                printf(" %s=%llu", s->name, (unsigned long long)v);
        }
        printf("\n");
    }
}

static void print_wave(const run_ctx *r, uint64_t ran)
{
    long to = r->wave_to < (long)ran - 1 ? r->wave_to : (long)ran - 1;
    printf("%-8s", "cycle");
    for (long c = r->wave_from; c <= to; c++)
        printf("%-3ld", c % 1000);
    printf("\n");
    for (int k = 0; k < WAVE_N; k++) {
        printf("%-8s", wave_sigs[k]);
        int w = pp5_igc_signal_info((size_t)pp5_igc_signal_find(wave_sigs[k]))->width;
        for (long c = r->wave_from; c <= to; c++) {
            uint64_t v = r->wave[k][c - r->wave_from];
            if (w == 1)
                printf("%s", v ? "###" : "___");
            else if (c == r->wave_from || v != r->wave[k][c - r->wave_from - 1])
                printf("%-3llx", (unsigned long long)v);
            else
                printf("   ");
        }
        printf("\n");
    }
}

static int cmd_run(int argc, char **argv)
{
    const char *stream = NULL, *ucode = NULL, *vcd = NULL;
    long cycles = 0, wave_from = 0, wave_to = -1;
    bool trace = false;
    pp5_options opt;
    pp5_options_default(&opt);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        bool has = i + 1 < argc;
        if (!strcmp(a, "--microcode") && has)
            ucode = argv[++i];
        else if (!strcmp(a, "--vcd") && has)
            vcd = argv[++i];
        else if (!strcmp(a, "--cycles") && has) {
            if (!cli_parse_int(argv[++i], 1, 100000000, &cycles))
                return cli_usage_error("--cycles needs 1..100000000");
        } else if (!strcmp(a, "--trace"))
            trace = true;
        else if (!strcmp(a, "--wave") && has) {
            if (sscanf(argv[++i], "%ld:%ld", &wave_from, &wave_to) != 2 || wave_from < 0 ||
                wave_to < wave_from || wave_to - wave_from >= WAVE_MAX)
                return cli_usage_error("--wave FROM:TO (at most %d cycles)", WAVE_MAX);
        }
        else if (!strcmp(a, "--lenient"))
            opt.busy_write = PP5_BUSY_WRITE_LAST_WINS;
        else if (!strcmp(a, "--msb-token") && has) {
            const char *v = argv[++i];
            if (!strcmp(v, "mbi"))
                opt.msb_token = PP5_MSB_TOKEN_MBI_ONLY;
            else if (!strcmp(v, "always"))
                opt.msb_token = PP5_MSB_TOKEN_ALWAYS;
            else
                return cli_usage_error("--msb-token mbi|always");
        } else if (!strcmp(a, "--rmode-shift") && has) {
            const char *v = argv[++i];
            if (!strcmp(v, "text"))
                opt.rmode_shift = true;
            else if (!strcmp(v, "table"))
                opt.rmode_shift = false;
            else
                return cli_usage_error("--rmode-shift text|table");
        } else if (a[0] == '-' && a[1])
            return cli_usage_error("unknown or incomplete option '%s'", a);
        else if (!stream)
            stream = a;
        else
            return cli_usage_error("more than one stream file");
    }
    if (!stream || !ucode)
        return cli_usage_error("pp5 run needs STREAM and --microcode FILE");
    pp5_ucode *u = calloc(1, sizeof *u);
    if (!u)
        return CLI_FAIL;
    int rc = load_microcode(ucode, u);
    if (rc) {
        free(u);
        return rc;
    }
    ls_buf sb;
    rc = read_input(stream, &sb);
    if (rc) {
        free(u);
        return rc;
    }
    ls_diag d;
    ls_diag_clear(&d);
    pp5_stream s;
    ls_status st = pp5_stream_parse(sb.data ? sb.data : "", sb.len, stream, &s, &d);
    ls_buf_free(&sb);
    if (st != LS_OK) {
        free(u);
        return cli_report(&d);
    }
    pp5_igc *g;
    st = pp5_igc_create(&g, &opt, &d);
    if (st == LS_OK)
        st = pp5_igc_load_ucode(g, 0, u->words, u->count, &d);
    free(u);
    if (st != LS_OK) {
        pp5_stream_free(&s);
        pp5_igc_destroy(g);
        return cli_report(&d);
    }
    run_ctx *rp = calloc(1, sizeof *rp);
    if (!rp) {
        pp5_stream_free(&s);
        pp5_igc_destroy(g);
        return CLI_FAIL;
    }
    rp->trace = trace;
    rp->wave_from = wave_from;
    rp->wave_to = wave_to;
    rp->nsig = pp5_igc_signal_count();
    rp->vals = calloc(rp->nsig + 1, sizeof *rp->vals);
    const char **names = calloc(rp->nsig + 1, sizeof *names);
    int *widths = calloc(rp->nsig + 1, sizeof *widths);
    ls_buf vb;
    ls_buf_init(&vb);
    rp->period_ns = 1e9 / opt.clock_hz;
    if (rp->vals && names && widths && vcd) {
        names[0] = "clk";
        widths[0] = 1;
        for (size_t i = 0; i < rp->nsig; i++) {
            names[i + 1] = pp5_igc_signal_info(i)->name;
            widths[i + 1] = pp5_igc_signal_info(i)->width;
        }
        rp->vcd_on = ls_vcd_begin(&rp->vcd, &vb, "1ns", "igc", rp->nsig + 1, names, widths) == 0;
    }
    st = pp5_stream_run(&s, g, (uint64_t)cycles, on_clock, rp, &d);
    rc = st == LS_OK ? CLI_OK : cli_report(&d);
    for (size_t i = 0; i < pp5_igc_warning_count(g); i++)
        fprintf(stderr, "lockstep: warning: %s\n", pp5_igc_warning(g, i));
    fprintf(stderr, "lockstep: pp5 run: %llu cycles (%.3f us at %.0f MHz), Busy=%d\n",
            (unsigned long long)pp5_igc_cycle(g), (double)pp5_igc_cycle(g) * rp->period_ns / 1000.0,
            opt.clock_hz / 1e6, pp5_igc_busy(g));
    if (rp->vcd_on) {
        ls_vcd_end(&rp->vcd, (uint64_t)(pp5_igc_cycle(g) * rp->period_ns));
        int wrc = cli_write_file(vcd, &vb);
        if (!rc)
            rc = wrc;
    }
    if (rp->wave_to >= 0)
        print_wave(rp, pp5_igc_cycle(g));
    ls_buf_free(&vb);
    free(rp->vals);
    free(names);
    free(widths);
    free(rp);
    pp5_stream_free(&s);
    pp5_igc_destroy(g);
    return rc;
}

static int cmd_serialize(int argc, char **argv)
{
    pp5_serialize_req q;
    memset(&q, 0, sizeof q);
    q.fbits = -1;
    q.mode = PP5_QEE_NONE;
    bool have_fni = false, json = false, have_mode = false;
    int ncoef = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        long v;
        if (!strcmp(a, "--fbits") && i + 1 < argc) {
            if (!cli_parse_int(argv[++i], 0, 30, &v))
                return cli_usage_error("--fbits needs 0..30");
            q.fbits = (int)v;
        } else if (!strcmp(a, "--fni") && i + 1 < argc) {
            if (!cli_parse_int(argv[++i], -115, 140, &v))
                return cli_usage_error("--fni needs -115..140 (the field FNI + 115 is 8 bits)");
            q.fni = (int)v;
            have_fni = true;
        } else if (!strcmp(a, "--mode") && i + 1 < argc) {
            const char *m = argv[++i];
            have_mode = true;
            if (!strcmp(m, "const"))
                q.mode = PP5_QEE_CONST;
            else if (!strcmp(m, "linear"))
                q.mode = PP5_QEE_LINEAR;
            else if (!strcmp(m, "quad"))
                q.mode = PP5_QEE_QUAD;
            else
                return cli_usage_error("--mode const|linear|quad");
        } else if (!strcmp(a, "--mbi"))
            q.mbi = true;
        else if (!strcmp(a, "--trren"))
            q.trren = true;
        else if (!strcmp(a, "--json"))
            json = true;
        else if (ncoef < 6 && (a[0] != '-' || (a[1] >= '0' && a[1] <= '9') || a[1] == '.' ||
                               !strncmp(a, "-inf", 4) || !strncmp(a, "-nan", 4))) {
            char *end;
            float f = strtof(a, &end);
            if (*end || end == a)
                return cli_usage_error("bad coefficient '%s'", a);
            memcpy(&q.coef[ncoef++], &f, 4);
        } else
            return cli_usage_error("unknown option or extra argument '%s'", a);
    }
    if (q.fbits < 0 || !have_fni || !have_mode || ncoef != 6)
        return cli_usage_error("pp5 serialize needs --fbits, --mode, --fni and six coefficients A B C D E F");
    pp5_serialize_result r;
    ls_diag d;
    ls_diag_clear(&d);
    if (pp5_serialize(&q, NULL, &r, &d) != LS_OK)
        return cli_report(&d);
    if (r.n_bits > PP5_SER_MAX_BITS)
        return cli_usage_error("internal: %d bits exceed the buffer", r.n_bits);
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

int cli_pp5(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return CLI_USAGE;
    }
    const char *c = argv[1];
    if (!strcmp(c, "-h") || !strcmp(c, "--help")) {
        usage(stdout);
        return CLI_OK;
    }
    if (!strcmp(c, "asm"))
        return cmd_asm(argc - 1, argv + 1, false);
    if (!strcmp(c, "dis"))
        return cmd_asm(argc - 1, argv + 1, true);
    if (!strcmp(c, "run"))
        return cmd_run(argc - 1, argv + 1);
    if (!strcmp(c, "serialize"))
        return cmd_serialize(argc - 1, argv + 1);
    if (!strcmp(c, "render"))
        return cli_pp5_render(argc - 1, argv + 1);
    usage(stderr);
    return cli_usage_error("unknown pp5 command '%s'", c);
}
