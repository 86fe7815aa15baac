/* Help text, man pages (roff) and bash completion, all generated from the
 * command table (cli_table.c), and --version. */
#include <limits.h>
#include <string.h>

#include "cli.h"

#ifndef LOCKSTEP_VERSION
#define LOCKSTEP_VERSION "unknown"
#endif
#ifndef LOCKSTEP_HAVE_SHIM
#define LOCKSTEP_HAVE_SHIM 0
#endif

static bool takes_value(const cli_opt *o) { return o->arg || o->choices; }

static const char *metavar(const cli_opt *o) { return o->arg ? o->arg : o->choices; }

/* ---- --help ------------------------------------------------------------------- */

/* Word-wrap text at width with an indent; col0: the column the cursor is at
 * (0: start of a line). */
static void wrap_from(FILE *f, const char *text, int indent, int width, int col0)
{
    int col = col0;
    const char *p = text;
    while (*p) {
        if (*p == '\n') {
            fputc('\n', f);
            col = 0;
            p++;
            continue;
        }
        size_t w = strcspn(p, " \n");
        if (col > indent && col + 1 + (int)w > width) {
            fputc('\n', f);
            col = 0;
        }
        if (col == 0) {
            fprintf(f, "%*s", indent, "");
            col = indent;
        } else if (col == col0 && col0 >= indent && p == text) {
            /* first word on the caller's line */
        } else {
            fputc(' ', f);
            col++;
        }
        fwrite(p, 1, w, f);
        col += (int)w;
        p += w;
        while (*p == ' ')
            p++;
    }
    if (col)
        fputc('\n', f);
}

static void wrap(FILE *f, const char *text, int indent, int width) { wrap_from(f, text, indent, width, 0); }

static void prog_of(char *out, size_t n, const cli_cmd *const *path, size_t depth)
{
    size_t k = 0;
    out[0] = 0;
    for (size_t i = 0; i < depth && k < n; i++)
        k += (size_t)snprintf(out + k, n - k, "%s%s", i ? " " : "", path[i]->name);
}

static void opt_line(FILE *f, const cli_opt *o)
{
    char left[96];
    int n;
    if (o->shrt)
        n = snprintf(left, sizeof left, "  -%c, --%s", o->shrt, o->name);
    else
        n = snprintf(left, sizeof left, "      --%s", o->name);
    if (takes_value(o) && n > 0 && (size_t)n < sizeof left)
        snprintf(left + n, sizeof left - (size_t)n, " %s", metavar(o));
    fprintf(f, "%s", left);
    int col = (int)strlen(left);
    const int at = 30;
    if (col >= at - 1) {
        fputc('\n', f);
        col = 0;
    }
    fprintf(f, "%*s", at - col, "");
    char help[1024];
    snprintf(help, sizeof help, "%s%s%s%s", o->help, o->def ? " (default: " : "", o->def ? o->def : "",
             o->def ? ")" : "");
    wrap_from(f, help, at, 79, at);
}

void cli_help(FILE *f, const cli_cmd *const *path, size_t depth)
{
    const cli_cmd *c = path[depth - 1];
    char prog[96];
    prog_of(prog, sizeof prog, path, depth);
    if (depth == 1) {
        fprintf(f, "usage: %s MACHINE COMMAND [options] [operands]\n", prog);
        fprintf(f, "       %s help [MACHINE [COMMAND]]\n", prog);
        fprintf(f, "%s: %s\n\n", prog, c->summary);
        wrap(f, c->description, 0, 78);
        fprintf(f, "\ncommands:\n");
        for (const cli_cmd *m = c->subs; m->name; m++) {
            if (m->flags & CLI_C_HIDDEN)
                continue;
            fprintf(f, "  %s: %s\n", m->name, m->summary);
            for (const cli_cmd *k = m->subs; k && k->name; k++) {
                if (k->flags & CLI_C_HIDDEN)
                    continue;
                char syn[128];
                if (k->subs) {
                    for (const cli_cmd *s = k->subs; s->name; s++) {
                        snprintf(syn, sizeof syn, "%s %s %s %s", m->name, k->name, s->name,
                                 s->operands ? s->operands : "");
                        fprintf(f, "    %-34s %s\n", syn, s->summary);
                    }
                    continue;
                }
                snprintf(syn, sizeof syn, "%s %s %s", m->name, k->name, k->operands ? k->operands : "");
                fprintf(f, "    %-34s %s\n", syn, k->summary);
            }
        }
        fprintf(f, "\noptions:\n");
        fprintf(f, "  -h, --help                  print this help and exit\n");
        fprintf(f, "      --version               print the version and build features and exit\n");
        fprintf(f, "\nexit status:\n");
        for (const cli_exit_info *e = cli_exit_table; e->name; e++) {
            char code[16];
            if (e->last != e->code)
                snprintf(code, sizeof code, "%d-%d", e->code, e->last);
            else
                snprintf(code, sizeof code, "%d", e->code);
            fprintf(f, "  %-6s", code);
            wrap_from(f, e->meaning, 8, 79, 8);
        }
        fprintf(f, "\nEvery command takes --help; `man lockstep` and lockstep-r500(1), lockstep-pp5(1),\n"
                   "lockstep-mesa(1) describe them in full.\n");
        return;
    }
    if (c->subs) {
        fprintf(f, "usage: %s COMMAND [options]\n", prog);
        fprintf(f, "%s: %s\n\n", prog, c->summary);
        if (c->description)
            wrap(f, c->description, 0, 78);
        fprintf(f, "\ncommands:\n");
        for (const cli_cmd *k = c->subs; k->name; k++)
            if (!(k->flags & CLI_C_HIDDEN))
                fprintf(f, "  %-10s %-28s %s\n", k->name, k->operands ? k->operands : "", k->summary);
        fprintf(f, "\n`%s COMMAND --help` lists a command's options.\n", prog);
        return;
    }
    fprintf(f, "usage: %s [options]%s%s\n", prog, c->operands ? " " : "", c->operands ? c->operands : "");
    fprintf(f, "%s: %s\n", prog, c->summary);
    if (c->description) {
        fputc('\n', f);
        wrap(f, c->description, 0, 78);
    }
    fprintf(f, "\noptions:\n");
    for (const cli_opt *o = c->opts; o && o->name; o++)
        if (!(o->flags & CLI_O_HIDDEN))
            opt_line(f, o);
    fprintf(f, "  -h, --help                  print this help and exit\n");
    fprintf(f, "      --version               print the version and build features and exit\n");
    if (c->examples)
        fprintf(f, "\nexample:\n  %s\n", c->examples);
    /* the exit statuses, from cli_exit_table */
    char es[1024];
    size_t n = (size_t)snprintf(es, sizeof es, "Exit status:");
    for (const cli_exit_info *e = cli_exit_table; e->name && n < sizeof es; e++)
        n += (size_t)snprintf(es + n, sizeof es - n, " %d %s;", e->code, e->name);
    if (n < sizeof es)
        snprintf(es + n - 1, sizeof es - (n - 1), " (man lockstep).");
    fputc('\n', f);
    wrap_from(f, es, 0, 79, 0);
}

/* ---- man pages -------------------------------------------------------------- */

/* roff text: backslashes, hyphens (as \-), and a leading '.' or '\''. */
static void roff(FILE *f, const char *s)
{
    bool bol = true;
    for (; *s; s++) {
        if (bol && (*s == '.' || *s == '\''))
            fputs("\\&", f);
        bol = false;
        if (*s == '\\')
            fputs("\\e", f);
        else if (*s == '-')
            fputs("\\-", f);
        else if (*s == '\n')
            fputc(' ', f);
        else
            fputc(*s, f);
    }
}

static void man_synopsis(FILE *f, const char *prog, const cli_cmd *k)
{
    fputs(".B ", f);
    roff(f, prog);
    fputs("\n[\\fIoptions\\fR]", f);
    if (k->operands) {
        fputs(" \\fI", f);
        roff(f, k->operands);
        fputs("\\fR", f);
    }
    fputs("\n.br\n", f);
}

static void man_command(FILE *f, const char *prog, const cli_cmd *k)
{
    fputs(".SS \"", f);
    roff(f, prog);
    fputs("\"\n", f);
    roff(f, k->summary);
    fputs(".\n", f);
    if (k->description) {
        fputs("\n", f);
        roff(f, k->description);
        fputs("\n", f);
    }
    for (const cli_opt *o = k->opts; o && o->name; o++) {
        if (o->flags & CLI_O_HIDDEN)
            continue;
        fputs(".TP\n", f);
        if (o->shrt)
            fprintf(f, "\\fB\\-%c\\fR, ", o->shrt);
        fputs("\\fB\\-\\-", f);
        roff(f, o->name);
        fputs("\\fR", f);
        if (takes_value(o)) {
            fputs(" \\fI", f);
            roff(f, metavar(o));
            fputs("\\fR", f);
        }
        fputs("\n", f);
        roff(f, o->help);
        if (o->def) {
            fputs(" (default: ", f);
            roff(f, o->def);
            fputs(")", f);
        }
        fputs("\n", f);
    }
    if (k->examples) {
        fputs(".PP\nExample:\n.PP\n.RS\n.nf\n", f);
        roff(f, k->examples);
        fputs("\n.fi\n.RE\n", f);
    }
}

/* Calls fn for every visible command below the top-level command m (and for
 * every sub-command of a command group), with its full name ("lockstep m k s"). */
static void man_each_command(FILE *f, const cli_cmd *m,
                             void (*fn)(FILE *, const char *, const cli_cmd *))
{
    for (const cli_cmd *k = m->subs; k && k->name; k++) {
        if (k->flags & CLI_C_HIDDEN)
            continue;
        char prog[96];
        snprintf(prog, sizeof prog, "lockstep %s %s", m->name, k->name);
        if (!k->subs) {
            fn(f, prog, k);
            continue;
        }
        for (const cli_cmd *s = k->subs; s->name; s++) {
            char p2[128];
            snprintf(p2, sizeof p2, "%s %s", prog, s->name);
            fn(f, p2, s);
        }
    }
}

static void man_exit(FILE *f)
{
    fputs(".SH \"EXIT STATUS\"\n", f);
    for (const cli_exit_info *e = cli_exit_table; e->name; e++) {
        if (e->last != e->code)
            fprintf(f, ".TP\n.B %d\\(en%d\n", e->code, e->last);
        else
            fprintf(f, ".TP\n.B %d\n", e->code);
        roff(f, e->name);
        fputs(": ", f);
        roff(f, e->meaning);
        fputs(".\n", f);
    }
}

static void man_header(FILE *f, const char *title, const char *name, const char *summary)
{
    fputs(".\\\" Generated by `lockstep help --man` from tools/cli_table.c; do not edit.\n", f);
    fprintf(f, ".TH %s 1 \"\" \"lockstep %s\" \"User Commands\"\n", title, LOCKSTEP_VERSION);
    fputs(".SH NAME\n", f);
    roff(f, name);
    fputs(" \\- ", f);
    roff(f, summary);
    fputs("\n", f);
}

int cli_man(FILE *f, const char *page)
{
    const cli_cmd *root = &cli_root;
    if (!strcmp(page, "lockstep")) {
        man_header(f, "LOCKSTEP", "lockstep", root->summary);
        fputs(".SH SYNOPSIS\n.B lockstep\n\\fIMACHINE COMMAND\\fR [\\fIoptions\\fR] [\\fIoperands\\fR]\n"
              ".br\n.B lockstep help\n[\\fIMACHINE\\fR [\\fICOMMAND\\fR]]\n.br\n"
              ".B lockstep \\-\\-version\n.SH DESCRIPTION\n", f);
        roff(f, root->description);
        fputs("\n.SH COMMANDS\n", f);
        for (const cli_cmd *m = root->subs; m->name; m++) {
            if (m->flags & CLI_C_HIDDEN)
                continue;
            if (!m->subs) { /* a command of its own (lockstep view) */
                fprintf(f, ".TP\n.B lockstep %s", m->name);
                if (m->operands) {
                    fputs(" \\fI", f);
                    roff(f, m->operands);
                    fputs("\\fR", f);
                }
                fputs("\n", f);
                roff(f, m->summary);
                fprintf(f, " (lockstep\\-%s(1))\n", m->name);
                continue;
            }
            for (const cli_cmd *k = m->subs; k && k->name; k++) {
                if (k->flags & CLI_C_HIDDEN)
                    continue;
                const cli_cmd *one[2] = {k, NULL};
                const cli_cmd *const *list = one;
                const cli_cmd *nested[16];
                if (k->subs) {
                    size_t nn = 0;
                    for (const cli_cmd *s = k->subs; s->name && nn < 15; s++)
                        nested[nn++] = s;
                    nested[nn] = NULL;
                    list = nested;
                }
                for (; *list; list++) {
                    const cli_cmd *s = *list;
                    if (s == k)
                        fprintf(f, ".TP\n.B lockstep %s %s", m->name, k->name);
                    else
                        fprintf(f, ".TP\n.B lockstep %s %s %s", m->name, k->name, s->name);
                    if (s->operands) {
                        fputs(" \\fI", f);
                        roff(f, s->operands);
                        fputs("\\fR", f);
                    }
                    fputs("\n", f);
                    roff(f, s->summary);
                    fprintf(f, " (lockstep\\-%s(1))\n", m->name);
                }
            }
        }
        fputs(".SH CONVENTIONS\n"
              "Every command and sub-command takes \\fB\\-\\-help\\fR (\\fB\\-h\\fR; usage on "
              "standard output, exit 0) and \\fB\\-\\-version\\fR. Options are "
              "\\fB\\-\\-name\\fR \\fIvalue\\fR, \\fB\\-\\-name=\\fR\\fIvalue\\fR or \\fB\\-x\\fR "
              "\\fIvalue\\fR; \\fB\\-\\-\\fR ends the options, so later arguments are operands "
              "even if they start with '\\-'; a negative number is an operand. "
              "\\fB\\-\\fR as an input reads standard input and, for an output that is a stream, "
              "\\fB\\-o \\-\\fR writes standard output. Output files are checked before any work "
              "is done. The data a command was asked for goes to standard output (or its output "
              "file); diagnostics, warnings, summaries and progress go to standard error. "
              "Errors are one line; warnings are counted, the first 10 shown in full. Progress "
              "(counts, rate, ETA) is shown only when standard error is a terminal.\n", f);
        man_exit(f);
        fputs(".SH ENVIRONMENT\n"
              ".TP\n.B LOCKSTEP_MESA_SHIM\nthe r300 fake-device shim (default: found beside the "
              "lockstep binary)\n"
              ".TP\n.B LOCKSTEP_MESA_GL\nthe lockstep\\-mesa\\-gl program (likewise)\n"
              ".TP\n.B LOCKSTEP_PIGLIT_CACHE\nwhere mesa piglit keeps the piglit package\n"
              ".TP\n.B LOCKSTEP_JIT_PERF\n1: the R500 JIT's compiled code is visible to "
              "perf(1) (LLVM's perf JIT event listener; docs/r500-jit.md, \"Speed\")\n", f);
        fputs(".SH \"SEE ALSO\"\n.BR lockstep\\-r500 (1),\n.BR lockstep\\-pp5 (1),\n"
              ".BR lockstep\\-mesa (1),\n.BR lockstep\\-view (1)\n", f);
        return CLI_OK;
    }
    for (const cli_cmd *m = root->subs; m->name; m++) {
        if (strcmp(m->name, page))
            continue;
        char title[64], name[64];
        snprintf(name, sizeof name, "lockstep-%s", m->name);
        size_t i = 0;
        for (; name[i] && i + 1 < sizeof title; i++)
            title[i] = (char)(name[i] >= 'a' && name[i] <= 'z' ? name[i] - 32 : name[i]);
        title[i] = 0;
        man_header(f, title, name, m->summary);
        fputs(".SH SYNOPSIS\n", f);
        if (!m->subs) { /* a command of its own: one synopsis, its options */
            char prog[96];
            snprintf(prog, sizeof prog, "lockstep %s", m->name);
            man_synopsis(f, prog, m);
            fputs(".SH DESCRIPTION\nThe command below also takes \\fB\\-h\\fR, \\fB\\-\\-help\\fR and "
                  "\\fB\\-\\-version\\fR; the conventions are in \\fBlockstep\\fR(1).\n"
                  ".SH OPTIONS\n", f);
            man_command(f, prog, m);
            man_exit(f);
            fputs(".SH \"SEE ALSO\"\n.BR lockstep (1)\n", f);
            return CLI_OK;
        }
        man_each_command(f, m, man_synopsis);
        fputs(".SH DESCRIPTION\n", f);
        roff(f, m->description);
        fputs("\nEvery command also takes \\fB\\-h\\fR, \\fB\\-\\-help\\fR and "
              "\\fB\\-\\-version\\fR; the conventions are in \\fBlockstep\\fR(1).\n"
              ".SH COMMANDS\n", f);
        man_each_command(f, m, man_command);
        man_exit(f);
        fputs(".SH \"SEE ALSO\"\n.BR lockstep (1)\n", f);
        return CLI_OK;
    }
    fprintf(stderr, "lockstep help: no man page '%s' (lockstep", page);
    for (const cli_cmd *m = root->subs; m->name; m++)
        fprintf(stderr, ", %s", m->name);
    fprintf(stderr, ")\n");
    return CLI_USAGE;
}

/* ---- bash completion ------------------------------------------------------- */

static void comp_node(FILE *f, const char *key, const cli_cmd *c, int pass)
{
    char k2[128];
    if (pass == 0) {
        /* children */
        if (c->subs) {
            fprintf(f, "        '%s') echo '", key);
            bool first = true;
            for (const cli_cmd *s = c->subs; s->name; s++)
                if (!(s->flags & CLI_C_HIDDEN)) {
                    fprintf(f, "%s%s", first ? "" : " ", s->name);
                    first = false;
                }
            if (c == &cli_root)
                fprintf(f, " help");
            fprintf(f, "' ;;\n");
        }
    } else if (pass == 1) {
        /* options */
        fprintf(f, "        '%s') echo '--help -h --version", key);
        for (const cli_opt *o = c->opts; o && o->name; o++)
            if (!(o->flags & CLI_O_HIDDEN)) {
                fprintf(f, " --%s", o->name);
                if (o->shrt)
                    fprintf(f, " -%c", o->shrt);
            }
        fprintf(f, "' ;;\n");
    } else {
        /* values of options: "choices" word list, or file/dir */
        for (const cli_opt *o = c->opts; o && o->name; o++) {
            if (!takes_value(o) || (o->flags & CLI_O_HIDDEN))
                continue;
            char pat[64];
            if (o->shrt)
                snprintf(pat, sizeof pat, "'%s --%s'|'%s -%c'", key, o->name, key, o->shrt);
            else
                snprintf(pat, sizeof pat, "'%s --%s'", key, o->name);
            if (o->choices) {
                char ch[256];
                snprintf(ch, sizeof ch, "%s", o->choices);
                for (char *p = ch; *p; p++)
                    if (*p == '|')
                        *p = ' ';
                fprintf(f, "        %s) COMPREPLY=($(compgen -W '%s' -- \"$cur\")) ;;\n", pat, ch);
            } else if (o->flags & CLI_O_DIR) {
                fprintf(f, "        %s) COMPREPLY=($(compgen -d -- \"$cur\")) ;;\n", pat);
            } else if (o->flags & (CLI_O_IN | CLI_O_OUT)) {
                fprintf(f, "        %s) COMPREPLY=($(compgen -f -- \"$cur\")) ;;\n", pat);
            } else {
                fprintf(f, "        %s) COMPREPLY=() ;;\n", pat);
            }
        }
    }
    for (const cli_cmd *s = c->subs; s && s->name; s++) {
        if (s->flags & CLI_C_HIDDEN)
            continue;
        snprintf(k2, sizeof k2, "%s %s", key, s->name);
        comp_node(f, k2, s, pass);
    }
}

void cli_completion(FILE *f)
{
    fputs("# bash completion for lockstep; generated by `lockstep help --completion`\n"
          "# from tools/cli_table.c. Do not edit.\n"
          "_lockstep_children() {\n    case \"$1\" in\n", f);
    comp_node(f, "lockstep", &cli_root, 0);
    fputs("        'lockstep help') echo 'r500 pp5 mesa' ;;\n"
          "    esac\n}\n_lockstep_options() {\n    case \"$1\" in\n", f);
    comp_node(f, "lockstep", &cli_root, 1);
    fputs("    esac\n}\n_lockstep() {\n"
          "    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}\n"
          "    local node=lockstep i w kids\n"
          "    for ((i = 1; i < COMP_CWORD; i++)); do\n"
          "        w=${COMP_WORDS[i]}\n"
          "        kids=\" $(_lockstep_children \"$node\") \"\n"
          "        if [[ $kids == *\" $w \"* ]]; then node=\"$node $w\"; else break; fi\n"
          "    done\n"
          "    COMPREPLY=()\n"
          "    case \"$node $prev\" in\n", f);
    comp_node(f, "lockstep", &cli_root, 2);
    fputs("        *)\n"
          "            kids=$(_lockstep_children \"$node\")\n"
          "            if [[ $cur == -* ]]; then\n"
          "                COMPREPLY=($(compgen -W \"$(_lockstep_options \"$node\")\" -- \"$cur\"))\n"
          "            elif [[ -n $kids ]]; then\n"
          "                COMPREPLY=($(compgen -W \"$kids\" -- \"$cur\"))\n"
          "            else\n"
          "                COMPREPLY=($(compgen -f -- \"$cur\"))\n"
          "            fi ;;\n"
          "    esac\n"
          "}\n"
          "complete -o filenames -F _lockstep lockstep\n", f);
}

static void list_node(FILE *f, const char *prefix, const cli_cmd *c)
{
    for (const cli_cmd *k = c->subs; k && k->name; k++) {
        char path[128];
        snprintf(path, sizeof path, "%s%s%s", prefix, *prefix ? " " : "", k->name);
        if (k->subs) {
            list_node(f, path, k);
            continue;
        }
        fprintf(f, "%s\t%d\t%d\t", path, k->min_ops, k->max_ops);
        int n = 0;
        for (const cli_opt *o = k->opts; o && o->name; o++)
            if (takes_value(o) && !(o->flags & CLI_O_HIDDEN))
                fprintf(f, "%s%s", n++ ? "," : "", o->name);
        fprintf(f, "%s\t", n ? "" : "-");
        n = 0;
        for (const cli_opt *o = k->opts; o && o->name; o++)
            if ((o->flags & CLI_O_STREAM) && !(o->flags & CLI_O_HIDDEN))
                fprintf(f, "%s%s", n++ ? "," : "", o->name);
        fprintf(f, "%s\t", n ? "" : "-");
        n = 0;
        for (const cli_opt *o = k->opts; o && o->name; o++)
            if ((o->flags & CLI_O_OUT) && !(o->flags & CLI_O_STREAM) && !(o->flags & CLI_O_HIDDEN))
                fprintf(f, "%s%s", n++ ? "," : "", o->name);
        fprintf(f, "%s\n", n ? "" : "-");
    }
}

void cli_list_commands(FILE *f) { list_node(f, "", &cli_root); }

/* ---- --version -------------------------------------------------------------- */

/* A JIT, when one is linked in, defines this (weak: absent today). */
extern int r500_jit_available(void) __attribute__((weak));

void cli_version(FILE *f)
{
    fprintf(f, "lockstep %s\n", LOCKSTEP_VERSION);
    char shim[PATH_MAX];
    bool found = cli_mesa_find_helper("LOCKSTEP_MESA_SHIM", "liblockstep_r300_shim.so", shim, sizeof shim);
    if (LOCKSTEP_HAVE_SHIM || found)
        fprintf(f, "mesa r300 shim: %s%s%s\n", LOCKSTEP_HAVE_SHIM ? "built" : "not built here",
                found ? ", found at " : ", not found", found ? shim : "");
    else
        fprintf(f, "mesa r300 shim: not built (libdrm-dev, libegl-dev, libgl-dev absent)\n");
    fprintf(f, "r500 jit: %s\n", r500_jit_available && r500_jit_available() ? "yes" : "no");
#if defined(__x86_64__) || defined(__i386__)
    __builtin_cpu_init();
    fprintf(f, "simd paths: r500 ALU AVX2 clone, pp5 EMC AVX2 and AVX-512 (F/BW/VL, VBMI, GFNI), "
               "chosen at run time\n");
    fprintf(f, "this cpu: avx2 %s, avx512f %s, avx512bw %s, avx512vbmi %s, gfni %s\n",
            __builtin_cpu_supports("avx2") ? "yes" : "no", __builtin_cpu_supports("avx512f") ? "yes" : "no",
            __builtin_cpu_supports("avx512bw") ? "yes" : "no",
            __builtin_cpu_supports("avx512vbmi") ? "yes" : "no",
            __builtin_cpu_supports("gfni") ? "yes" : "no");
#else
    fprintf(f, "simd paths: none (portable C on this architecture)\n");
#endif
}
