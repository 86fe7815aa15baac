/* The command layer: walk argv down the command tree (cli_table.c), parse a
 * command's options against its table, check what the table says can be
 * checked before any work (values of fixed choices, operand counts, output
 * paths), then run the command. One parser for every command:
 *
 *   --name value, --name=value, -x value, -xvalue, clusters of short flags
 *   (-qx), "--" ends the options, "-" is an operand (stdin / stdout), an
 *   argument that is a number (-1.5, -inf) is an operand, --help/-h and
 *   --version on every command and sub-command.
 *
 * Errors are one line, "lockstep r500 run: unknown option --sze; did you mean
 * --size? (see lockstep r500 run --help)", exit status CLI_USAGE. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"

/* ---- messages ------------------------------------------------------------ */

/* Print s with bytes that are not printable UTF-8 escaped (\xNN): input
 * echoed in a message (a bad token of a binary file) never reaches the
 * terminal raw. */
static void put_clean(FILE *f, const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    while (*p) {
        int n = 0;
        if (*p >= 0x20 && *p < 0x7f)
            n = 1;
        else if (*p >= 0xc2 && *p <= 0xdf)
            n = 2;
        else if (*p >= 0xe0 && *p <= 0xef)
            n = 3;
        else if (*p >= 0xf0 && *p <= 0xf4)
            n = 4;
        for (int k = 1; k < n; k++)
            if ((p[k] & 0xc0) != 0x80)
                n = 0;
        if (*p == '\t')
            n = 1;
        if (n == 0) {
            fprintf(f, "\\x%02x", *p);
            p++;
        } else {
            fwrite(p, 1, (size_t)n, f);
            p += n;
        }
    }
}

static void vmsg(const cli_args *a, const char *kind, const char *fmt, va_list ap)
{
    char buf[2048];
    vsnprintf(buf, sizeof buf, fmt, ap);
    fprintf(stderr, "%s: %s", a ? a->prog : "lockstep", kind);
    put_clean(stderr, buf);
    fputc('\n', stderr);
}

int cli_err(const cli_args *a, int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vmsg(a, "", fmt, ap);
    va_end(ap);
    return code;
}

int cli_usage(const cli_args *a, const char *fmt, ...)
{
    char buf[1536];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    const char *prog = a ? a->prog : "lockstep";
    fprintf(stderr, "%s: ", prog);
    put_clean(stderr, buf);
    fprintf(stderr, " (see %s --help)\n", prog);
    return CLI_USAGE;
}

void cli_warn(cli_args *a, const char *fmt, ...)
{
    a->nwarn++;
    if (a->nwarn > CLI_WARN_SHOWN)
        return;
    va_list ap;
    va_start(ap, fmt);
    vmsg(a, "warning: ", fmt, ap);
    va_end(ap);
}

int cli_exit_of(ls_status st)
{
    switch (st) {
    case LS_OK:
        return CLI_OK;
    case LS_ERR_IO:
    case LS_ERR_PARSE:
    case LS_ERR_RANGE:
    case LS_ERR_ARG:
    case LS_ERR_UNSUPPORTED:
        return CLI_INPUT;
    case LS_ERR_FAULT:
        return CLI_FAULT;
    case LS_ERR_MISMATCH:
        return CLI_MISMATCH;
    case LS_ERR_NOMEM:
        break;
    }
    return CLI_INTERNAL;
}

int cli_report(const cli_args *a, const ls_diag *d)
{
    char line[1024];
    ls_diag_format(d, line, sizeof line);
    fprintf(stderr, "%s: ", a ? a->prog : "lockstep");
    put_clean(stderr, line);
    fputc('\n', stderr);
    if (d->source_line[0]) {
        fprintf(stderr, "  ");
        put_clean(stderr, d->source_line);
        fputc('\n', stderr);
        if (d->col > 0) {
            fprintf(stderr, "  ");
            for (int i = 1; i < d->col && d->source_line[i - 1]; i++)
                fputc(d->source_line[i - 1] == '\t' ? '\t' : ' ', stderr);
            fprintf(stderr, "^\n");
        }
    }
    return cli_exit_of(d->status ? d->status : LS_ERR_PARSE);
}

int cli_report_list(const cli_args *a, const ls_diag_list *errs)
{
    int rc = CLI_INPUT;
    for (size_t i = 0; i < errs->count; i++) {
        if (i == CLI_WARN_SHOWN) {
            fprintf(stderr, "%s: ... %zu more errors not shown\n", a->prog, errs->count - i);
            break;
        }
        rc = cli_report(a, &errs->items[i]);
    }
    if (errs->count > 1)
        fprintf(stderr, "%s: %zu errors\n", a->prog, errs->count);
    return rc;
}

/* ---- files ----------------------------------------------------------------- */

const char *cli_name(const char *path) { return strcmp(path, "-") ? path : "<stdin>"; }

int cli_read(const cli_args *a, const char *path, ls_buf *b)
{
    ls_buf_init(b);
    if (strcmp(path, "-") == 0) {
        char chunk[65536];
        size_t n;
        while ((n = fread(chunk, 1, sizeof chunk, stdin)) > 0)
            ls_buf_append(b, chunk, n);
        if (ferror(stdin) || b->oom) {
            ls_buf_free(b);
            return cli_err(a, CLI_INPUT, "cannot read <stdin>: %s", strerror(errno));
        }
        ls_buf_append(b, "", 0);
        return CLI_OK;
    }
    errno = 0;
    if (!ls_read_file(path, b)) {
        int e = errno;
        ls_buf_free(b);
        return cli_err(a, CLI_INPUT, "cannot read %s: %s", path, e ? strerror(e) : "read error");
    }
    return CLI_OK;
}

int cli_write(const cli_args *a, const char *path, const ls_buf *b)
{
    if (b->oom)
        return cli_err(a, CLI_INTERNAL, "out of memory building %s", path);
    if (strcmp(path, "-") == 0) {
        if (b->len && fwrite(b->data, 1, b->len, stdout) != b->len)
            return cli_err(a, CLI_OUTPUT, "cannot write <stdout>: %s", strerror(errno));
        return fflush(stdout) == 0 ? CLI_OK
                                   : cli_err(a, CLI_OUTPUT, "cannot write <stdout>: %s", strerror(errno));
    }
    FILE *f = fopen(path, "wb");
    if (!f)
        return cli_err(a, CLI_OUTPUT, "cannot write %s: %s", path, strerror(errno));
    size_t w = b->len ? fwrite(b->data, 1, b->len, f) : 0;
    int e = errno;
    if (fclose(f) != 0 || w != b->len)
        return cli_err(a, CLI_OUTPUT, "cannot write %s: %s", path, strerror(e ? e : EIO));
    return CLI_OK;
}

/* ---- option access -------------------------------------------------------- */

const char *cli_get(const cli_args *a, const char *name)
{
    const char *v = NULL;
    for (size_t i = 0; i < a->nov; i++)
        if (!strcmp(a->ov[i].opt->name, name))
            v = a->ov[i].val ? a->ov[i].val : "";
    return v;
}

bool cli_flag(const cli_args *a, const char *name) { return cli_get(a, name) != NULL; }

int cli_opt_long(cli_args *a, const char *name, long lo, long hi, long *out)
{
    const char *v = cli_get(a, name);
    if (v && !ls_parse_long(v, lo, hi, out))
        return cli_usage(a, "--%s %s: expected an integer %ld..%ld", name, v, lo, hi);
    return CLI_OK;
}

int cli_opt_nonneg(cli_args *a, const char *name, double *out)
{
    const char *v = cli_get(a, name);
    if (!v)
        return CLI_OK;
    char *end;
    double d = strtod(v, &end);
    if (end == v || *end || !(d >= 0))
        return cli_usage(a, "--%s %s: expected a number >= 0", name, v);
    *out = d;
    return CLI_OK;
}

int cli_opt_size(cli_args *a, const char *name, int *w, int *h)
{
    const char *v = cli_get(a, name);
    if (v && !ls_parse_size(v, w, h))
        return cli_usage(a, "--%s %s: expected WxH, each 1..16384", name, v);
    return CLI_OK;
}

/* ---- progress ------------------------------------------------------------ */

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

void cli_progress_start(cli_progress *p, size_t total, const char *what)
{
    p->on = isatty(2) == 1 && total > 1;
    p->total = total;
    p->what = what;
    p->t0 = now_s();
    p->last = -1;
}

/* Drawn at most ten times a second, and always for the first and the last
 * unit, so a short run still shows (and clears) one line. */
void cli_progress_update(cli_progress *p, size_t done)
{
    if (!p->on)
        return;
    double t = now_s();
    if (p->last >= 0 && done < p->total && t - p->last < 0.1)
        return;
    p->last = t;
    /* the rate (and the time left) once there is half a second to judge by */
    double dt = t - p->t0, rate = dt >= 0.5 ? (double)done / dt : 0;
    fprintf(stderr, "\r\033[K[%zu/%zu %s]", done, p->total, p->what);
    if (rate > 0)
        fprintf(stderr, " %.1f/s", rate);
    if (rate > 0 && done < p->total) {
        double eta = (double)(p->total - done) / rate;
        fprintf(stderr, ", ETA %dm%02ds", (int)(eta / 60), (int)fmod(eta, 60));
    }
    fflush(stderr);
}

void cli_progress_report(void *ctx, unsigned long long done, unsigned long long total)
{
    cli_progress *p = ctx;
    if (p->total != total) { /* the library knows the total once the work starts */
        const char *what = p->what;
        cli_progress_start(p, (size_t)total, what);
    }
    cli_progress_update(p, (size_t)done);
}

void cli_progress_end(cli_progress *p)
{
    if (p->on)
        fprintf(stderr, "\r\033[K");
    p->on = false;
}

/* ---- the parser ------------------------------------------------------------- */

static size_t edit_distance(const char *s, const char *t)
{
    size_t n = strlen(s), m = strlen(t);
    if (n > 63 || m > 63)
        return 64;
    size_t row[64];
    for (size_t j = 0; j <= m; j++)
        row[j] = j;
    for (size_t i = 1; i <= n; i++) {
        size_t diag = row[0];
        row[0] = i;
        for (size_t j = 1; j <= m; j++) {
            size_t up = row[j];
            size_t best = diag + (s[i - 1] != t[j - 1]);
            if (up + 1 < best)
                best = up + 1;
            if (row[j - 1] + 1 < best)
                best = row[j - 1] + 1;
            row[j] = best;
            diag = up;
        }
    }
    return row[m];
}

/* The closest of names (NULL if none is close): edit distance at most a
 * third of the word (at least 1, at most 3), or a prefix. */
static const char *closest(const char *word, const char *const *names, size_t n)
{
    const char *best = NULL;
    size_t bd = 99, wl = strlen(word);
    size_t lim = wl / 3 < 1 ? 1 : wl / 3 > 3 ? 3 : wl / 3;
    for (size_t i = 0; i < n; i++) {
        size_t d = edit_distance(word, names[i]);
        if (wl >= 2 && !strncmp(names[i], word, wl))
            d = 1;
        if (d <= lim && d < bd)
            bd = d, best = names[i];
    }
    return best;
}

static const cli_opt help_opt = {"help", 'h', NULL, "print this help and exit", NULL, NULL, 0, NULL};
static const cli_opt version_opt = {"version", 0, NULL, "print the version and build features and exit",
                                    NULL, NULL, 0, NULL};

static const cli_opt *find_long(const cli_cmd *c, const char *name, size_t len)
{
    if (len == 4 && !strncmp(name, "help", 4))
        return &help_opt;
    if (len == 7 && !strncmp(name, "version", 7))
        return &version_opt;
    for (const cli_opt *o = c->opts; o && o->name; o++)
        if (strlen(o->name) == len && !strncmp(o->name, name, len)) {
            if (o->alias_of)
                for (const cli_opt *t = c->opts; t->name; t++)
                    if (!strcmp(t->name, o->alias_of))
                        return t;
            return o;
        }
    return NULL;
}

static const cli_opt *find_short(const cli_cmd *c, char ch)
{
    if (ch == 'h')
        return &help_opt;
    for (const cli_opt *o = c->opts; o && o->name; o++)
        if (o->shrt == ch && !o->alias_of)
            return o;
    return NULL;
}

static int unknown_option(const cli_args *a, const char *arg)
{
    const cli_cmd *c = a->cmd;
    const char *names[80];
    size_t n = 0;
    names[n++] = "help";
    names[n++] = "version";
    for (const cli_opt *o = c->opts; o && o->name && n < 80; o++)
        if (!(o->flags & CLI_O_HIDDEN))
            names[n++] = o->name;
    char word[64];
    snprintf(word, sizeof word, "%s", arg + (arg[1] == '-' ? 2 : 1));
    word[strcspn(word, "=")] = 0;
    const char *s = arg[1] == '-' ? closest(word, names, n) : NULL;
    if (s)
        return cli_usage(a, "unknown option %.*s; did you mean --%s?", (int)strcspn(arg, "="), arg, s);
    return cli_usage(a, "unknown option %.*s", (int)strcspn(arg, "="), arg);
}

static bool is_number(const char *s)
{
    char *end;
    errno = 0;
    (void)strtod(s, &end);
    return end != s && *end == 0;
}

static bool in_choices(const char *choices, const char *v)
{
    size_t l = strlen(v);
    for (const char *p = choices; *p;) {
        size_t k = strcspn(p, "|");
        if (k == l && !strncmp(p, v, l))
            return true;
        p += k + (p[k] == '|');
    }
    return false;
}

static int check_choice(const cli_args *a, const cli_opt *o, const char *v)
{
    if (!o->choices || in_choices(o->choices, v))
        return CLI_OK;
    const char *names[32];
    char copy[256];
    size_t n = 0;
    snprintf(copy, sizeof copy, "%s", o->choices);
    for (char *t = strtok(copy, "|"); t && n < 32; t = strtok(NULL, "|"))
        names[n++] = t;
    const char *s = closest(v, names, n);
    if (s)
        return cli_usage(a, "--%s %s: expected %s; did you mean %s?", o->name, v, o->choices, s);
    return cli_usage(a, "--%s %s: expected %s", o->name, v, o->choices);
}

/* Output paths are checked before any work: the directory must exist and be
 * writable, the file (if it exists) writable and not a directory. */
static int check_output(const cli_args *a, const cli_opt *o, const char *v, int *stdout_users)
{
    if (!strcmp(v, "-")) {
        if (!(o->flags & CLI_O_STREAM))
            return cli_usage(a, "--%s: '-' (stdout) is not possible for this output", o->name);
        if (++*stdout_users > 1)
            return cli_usage(a, "only one output can go to stdout ('-')");
        return CLI_OK;
    }
    if (!*v)
        return cli_usage(a, "--%s: empty file name", o->name);
    struct stat sb;
    if (stat(v, &sb) == 0) {
        if (S_ISDIR(sb.st_mode))
            return cli_err(a, CLI_OUTPUT, "cannot write %s: %s", v, strerror(EISDIR));
        if (access(v, W_OK))
            return cli_err(a, CLI_OUTPUT, "cannot write %s: %s", v, strerror(errno));
        return CLI_OK;
    }
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", v);
    char *slash = strrchr(dir, '/');
    if (slash == dir)
        dir[1] = 0;
    else if (slash)
        *slash = 0;
    else
        snprintf(dir, sizeof dir, ".");
    if (stat(dir, &sb) || !S_ISDIR(sb.st_mode))
        return cli_err(a, CLI_OUTPUT, "cannot write %s: %s", v, strerror(errno ? errno : ENOTDIR));
    if (access(dir, W_OK))
        return cli_err(a, CLI_OUTPUT, "cannot write %s: %s", v, strerror(errno));
    return CLI_OK;
}

static bool takes_value(const cli_opt *o) { return o->arg || o->choices; }

static void push_opt(cli_args *a, const cli_opt *o, const char *v)
{
    /* a repeated single-value option: the last one wins, but say so */
    if (!(o->flags & CLI_O_REPEAT) && takes_value(o))
        for (size_t i = 0; i < a->nov; i++)
            if (a->ov[i].opt == o) {
                cli_warn(a, "--%s given more than once; the last (%s) applies", o->name, v);
                break;
            }
    a->ov[a->nov].opt = o;
    a->ov[a->nov].val = v;
    a->nov++;
}

static int run_command(const cli_cmd *const *path, size_t depth, cli_args *a, int argc, char **argv);

static void set_prog(cli_args *a, const cli_cmd *const *path, size_t depth)
{
    size_t n = 0;
    a->prog[0] = 0;
    for (size_t i = 0; i < depth; i++)
        n += (size_t)snprintf(a->prog + n, sizeof a->prog - n, "%s%s", i ? " " : "", path[i]->name);
}

/* argv[0] is the command's own name. */
static int dispatch(const cli_cmd **path, size_t depth, cli_args *a, int argc, char **argv)
{
    const cli_cmd *c = path[depth - 1];
    a->cmd = c;
    set_prog(a, path, depth);
    if (!c->subs)
        return run_command(path, depth, a, argc, argv);
    if (argc < 2)
        return cli_usage(a, "missing command");
    const char *s = argv[1];
    if (!strcmp(s, "--help") || !strcmp(s, "-h")) {
        cli_help(stdout, path, depth);
        return CLI_OK;
    }
    if (!strcmp(s, "--version")) {
        cli_version(stdout);
        return CLI_OK;
    }
    if (depth == 1 && !strcmp(s, "help")) {
        /* lockstep help [--man [PAGE]] [--completion] [--commands] [MACHINE [COMMAND...]] */
        if (argc >= 3 && !strcmp(argv[2], "--man"))
            return cli_man(stdout, argc >= 4 ? argv[3] : "lockstep");
        if (argc >= 3 && !strcmp(argv[2], "--completion")) {
            cli_completion(stdout);
            return CLI_OK;
        }
        if (argc >= 3 && !strcmp(argv[2], "--exit-statuses")) {
            for (const cli_exit_info *e = cli_exit_table; e->name; e++)
                printf("%d\t%d\t%s\t%s\n", e->code, e->last, e->name, e->meaning);
            return CLI_OK;
        }
        if (argc >= 3 && !strcmp(argv[2], "--commands")) {
            cli_list_commands(stdout);
            return CLI_OK;
        }
        const cli_cmd *hp[8] = {path[0]};
        size_t hd = 1;
        for (int i = 2; i < argc && hd < 8; i++) {
            const cli_cmd *found = NULL;
            for (const cli_cmd *k = hp[hd - 1]->subs; k && k->name; k++)
                if (!strcmp(k->name, argv[i]))
                    found = k;
            if (!found) {
                set_prog(a, hp, hd);
                return cli_usage(a, "no command '%s'", argv[i]);
            }
            hp[hd++] = found;
        }
        cli_help(stdout, hp, hd);
        return CLI_OK;
    }
    const char *names[64];
    size_t n = 0;
    for (const cli_cmd *k = c->subs; k->name; k++) {
        if (!strcmp(k->name, s)) {
            path[depth] = k;
            return dispatch(path, depth + 1, a, argc - 1, argv + 1);
        }
        if (!(k->flags & CLI_C_HIDDEN) && n < 64)
            names[n++] = k->name;
    }
    if (s[0] == '-')
        return unknown_option(a, s);
    const char *sug = closest(s, names, n);
    if (sug)
        return cli_usage(a, "unknown command '%s'; did you mean '%s'?", s, sug);
    return cli_usage(a, "unknown command '%s'", s);
}

static int run_command(const cli_cmd *const *path, size_t depth, cli_args *a, int argc, char **argv)
{
    const cli_cmd *c = a->cmd;
    a->ov = calloc((size_t)argc + 1, sizeof *a->ov);
    a->ops = calloc((size_t)argc + 1, sizeof *a->ops);
    if (!a->ov || !a->ops)
        return cli_err(a, CLI_INTERNAL, "out of memory");
    bool only_ops = false;
    for (int i = 1; i < argc; i++) {
        char *s = argv[i];
        if (only_ops || s[0] != '-' || !s[1] || is_number(s)) {
            a->ops[a->nops++] = s;
            continue;
        }
        if (!strcmp(s, "--")) {
            only_ops = true;
            continue;
        }
        if (s[1] == '-') {
            const char *eq = strchr(s, '=');
            size_t len = eq ? (size_t)(eq - s - 2) : strlen(s + 2);
            const cli_opt *o = find_long(c, s + 2, len);
            if (!o)
                return unknown_option(a, s);
            if (o == &help_opt) {
                cli_help(stdout, path, depth);
                return CLI_OK;
            }
            if (o == &version_opt) {
                cli_version(stdout);
                return CLI_OK;
            }
            const char *v = NULL;
            if (takes_value(o)) {
                if (eq)
                    v = eq + 1;
                else if (i + 1 < argc)
                    v = argv[++i];
                else
                    return cli_usage(a, "missing value for --%s", o->name);
            } else if (eq) {
                return cli_usage(a, "--%s takes no value", o->name);
            }
            push_opt(a, o, v);
            continue;
        }
        /* short options, possibly clustered */
        for (const char *p = s + 1; *p; p++) {
            const cli_opt *o = find_short(c, *p);
            if (!o) {
                char tmp[3] = {'-', *p, 0};
                return unknown_option(a, tmp);
            }
            if (o == &help_opt) {
                cli_help(stdout, path, depth);
                return CLI_OK;
            }
            if (takes_value(o)) {
                const char *v;
                if (p[1])
                    v = p + 1;
                else if (i + 1 < argc)
                    v = argv[++i];
                else
                    return cli_usage(a, "missing value for -%c", o->shrt);
                push_opt(a, o, v);
                break;
            }
            push_opt(a, o, NULL);
        }
    }
    /* what the table lets us check before any work */
    for (size_t i = 0; i < a->nov; i++) {
        int rc = a->ov[i].val ? check_choice(a, a->ov[i].opt, a->ov[i].val) : CLI_OK;
        if (rc)
            return rc;
    }
    if ((int)a->nops < c->min_ops) {
        if (c->operands)
            return cli_usage(a, "missing %s", c->operands);
        return cli_usage(a, "missing operand");
    }
    if (c->max_ops >= 0 && (int)a->nops > c->max_ops)
        return cli_usage(a, "unexpected operand '%s'", a->ops[c->max_ops]);
    int stdout_users = 0, stdin_users = 0;
    for (size_t i = 0; i < a->nov; i++) {
        const cli_opt *o = a->ov[i].opt;
        if (o->flags & CLI_O_OUT) {
            int rc = check_output(a, o, a->ov[i].val, &stdout_users);
            if (rc)
                return rc;
        }
        if ((o->flags & CLI_O_IN) && !strcmp(a->ov[i].val, "-"))
            stdin_users++;
    }
    if (c->flags & CLI_C_IN)
        for (size_t i = 0; i < a->nops; i++)
            stdin_users += !strcmp(a->ops[i], "-");
    if (stdin_users > 1)
        return cli_usage(a, "only one input can come from stdin ('-')");
    return c->run(a);
}

int cli_main(int argc, char **argv)
{
    cli_args a;
    memset(&a, 0, sizeof a);
    const cli_cmd *path[8] = {&cli_root};
    int rc;
    if (argc < 1) {
        rc = CLI_USAGE;
    } else {
        rc = dispatch(path, 1, &a, argc, argv);
    }
    if (a.nwarn > CLI_WARN_SHOWN)
        fprintf(stderr, "%s: ... %zu more warnings not shown (%zu in all)\n", a.prog,
                a.nwarn - CLI_WARN_SHOWN, a.nwarn);
    free(a.ov);
    free(a.ops);
    return rc;
}
