/* The logic around piglit's own runner (include/lockstep/mesa_piglit_runner.h,
 * docs/mesa.md "piglit's own runner"): expectation files as Mesa CI writes
 * them for deqp-runner / piglit-runner (read in deqp-runner's README and
 * runner_results.rs: a fails list of "test,Status" lines; skips and flakes
 * lists of regular expressions; --fraction/--fraction-start sharding), the
 * status of a test against its expectation, and a reader of piglit's results
 * (framework/backends/json.py: results.json's "tests" object, and the
 * per-test files tests/N.json the runner writes as each test ends). */
#define _GNU_SOURCE 1 /* strndup */
#include <regex.h>
#include <stdlib.h>
#include <string.h>

#include "base/json.h"
#include "lockstep/mesa_piglit_runner.h"

#define STATUS_NAME(e, name) name,
static const char *const status_names[] = {MESA_RUNNER_STATUS_LIST(STATUS_NAME)};
#undef STATUS_NAME

const char *mesa_runner_status_name(mesa_runner_status s)
{
    return (unsigned)s < MESA_RUNNER_NSTATUS ? status_names[s] : "?";
}

mesa_runner_status mesa_runner_status_from_piglit(const char *r)
{
    /* piglit's framework/status.py names */
    static const struct {
        const char *piglit;
        mesa_runner_status s;
    } map[] = {
        {"pass", MESA_RUNNER_PASS},        {"fail", MESA_RUNNER_FAIL},
        {"skip", MESA_RUNNER_SKIP},        {"crash", MESA_RUNNER_CRASH},
        {"timeout", MESA_RUNNER_TIMEOUT},  {"warn", MESA_RUNNER_WARN},
        {"dmesg-warn", MESA_RUNNER_WARN},  {"dmesg-fail", MESA_RUNNER_FAIL},
        {"incomplete", MESA_RUNNER_CRASH},
    };
    for (size_t i = 0; r && i < sizeof map / sizeof map[0]; i++)
        if (!strcmp(r, map[i].piglit))
            return map[i].s;
    return MESA_RUNNER_MISSING;
}

bool mesa_runner_status_parse(const char *name, size_t len, mesa_runner_status *out)
{
    for (int s = MESA_RUNNER_PASS; s <= MESA_RUNNER_MISSING; s++)
        if (strlen(status_names[s]) == len && !memcmp(name, status_names[s], len)) {
            *out = (mesa_runner_status)s;
            return true;
        }
    if (len == 12 && !memcmp(name, "ExpectedFail", 12)) {
        *out = MESA_RUNNER_FAIL;
        return true;
    }
    return false;
}

bool mesa_runner_status_ok(mesa_runner_status s)
{
    return s == MESA_RUNNER_PASS || s == MESA_RUNNER_SKIP || s == MESA_RUNNER_WARN ||
           s == MESA_RUNNER_EXPECTED_FAIL || s == MESA_RUNNER_FLAKE;
}

static bool is_failure(mesa_runner_status s)
{
    return s == MESA_RUNNER_FAIL || s == MESA_RUNNER_CRASH || s == MESA_RUNNER_TIMEOUT;
}

mesa_runner_status mesa_runner_classify(mesa_runner_status actual, bool have_expected,
                                        mesa_runner_status expected, bool flaky)
{
    if (!have_expected)
        expected = MESA_RUNNER_PASS;
    if (actual == expected)
        return is_failure(actual) ? MESA_RUNNER_EXPECTED_FAIL : actual;
    if (is_failure(expected) && mesa_runner_status_ok(actual))
        return MESA_RUNNER_UNEXPECTED_PASS; /* "go clear the xfail out of your baseline" */
    if (!mesa_runner_status_ok(actual) && flaky)
        return MESA_RUNNER_FLAKE;
    return actual;
}

void mesa_runner_sanitize_name(char *name)
{
    for (char *c = name; *c; c++)
        if (*c == ',')
            *c = '-';
}

bool mesa_runner_in_shard(size_t k, unsigned fraction, unsigned fraction_start)
{
    if (fraction <= 1)
        return fraction_start <= 1 || k + 1 >= fraction_start;
    return k + 1 >= fraction_start && (k + 1 - fraction_start) % fraction == 0;
}

/* ---- line files ------------------------------------------------------------ */

/* Each line of text[0..len), trimmed of blanks, without blank and '#' lines:
 * fn(ctx, line, length, line number, column of its first character). */
typedef ls_status (*line_fn)(void *ctx, const char *s, size_t n, int line, int col, ls_diag *d);
static ls_status each_line(const char *text, size_t len, line_fn fn, void *ctx, ls_diag *d)
{
    int line = 0;
    for (size_t i = 0; i < len;) {
        size_t e = i;
        while (e < len && text[e] != '\n')
            e++;
        line++;
        size_t a = i, b = e;
        while (a < b && (text[a] == ' ' || text[a] == '\t'))
            a++;
        while (b > a && (text[b - 1] == ' ' || text[b - 1] == '\t' || text[b - 1] == '\r'))
            b--;
        if (b > a && text[a] != '#') {
            ls_status st = fn(ctx, text + a, b - a, line, (int)(a - i) + 1, d);
            if (st != LS_OK)
                return st;
        }
        i = e + 1;
    }
    return LS_OK;
}

typedef struct line_ctx {
    void *list;
    const char *file;
} line_ctx;

static ls_status expect_line(void *ctx, const char *s, size_t n, int line, int col, ls_diag *d)
{
    line_ctx *lc = ctx;
    mesa_runner_expect *e = lc->list;
    const char *comma = memchr(s, ',', n);
    if (!comma || comma == s)
        return ls_diag_set(d, LS_ERR_PARSE, lc->file, line, col,
                           "expected TEST,STATUS (a fails or results file line)");
    const char *st = comma + 1, *end = memchr(st, ',', n - (size_t)(st - s));
    size_t sl = end ? (size_t)(end - st) : n - (size_t)(st - s);
    mesa_runner_status status;
    if (!mesa_runner_status_parse(st, sl, &status))
        return ls_diag_set(d, LS_ERR_PARSE, lc->file, line, col + (int)(st - s),
                           "unknown status '%.*s' (Pass, Fail, Skip, Crash, Timeout, Warn, Missing, "
                           "ExpectedFail)",
                           (int)(sl > 40 ? 40 : sl), st);
    if (e->n == e->cap) {
        size_t nc = e->cap ? 2 * e->cap : 64;
        char **nn = realloc(e->name, nc * sizeof *nn);
        if (!nn)
            return ls_diag_set(d, LS_ERR_NOMEM, lc->file, line, col, "out of memory");
        e->name = nn;
        mesa_runner_status *ns = realloc(e->status, nc * sizeof *ns);
        if (!ns)
            return ls_diag_set(d, LS_ERR_NOMEM, lc->file, line, col, "out of memory");
        e->status = ns;
        e->cap = nc;
    }
    char *name = strndup(s, (size_t)(comma - s));
    if (!name)
        return ls_diag_set(d, LS_ERR_NOMEM, lc->file, line, col, "out of memory");
    e->name[e->n] = name;
    e->status[e->n++] = status;
    e->sorted = false;
    return LS_OK;
}

ls_status mesa_runner_expect_add(mesa_runner_expect *e, const char *text, size_t len, const char *file,
                                 ls_diag *d)
{
    line_ctx lc = {e, file};
    return each_line(text, len, expect_line, &lc, d);
}

/* sort by name, stable on position: the later line of a name sorts last */
typedef struct entry {
    char *name;
    mesa_runner_status status;
    size_t pos;
} entry;
static int entry_cmp(const void *a, const void *b)
{
    const entry *x = a, *y = b;
    int c = strcmp(x->name, y->name);
    return c ? c : (x->pos > y->pos) - (x->pos < y->pos);
}

bool mesa_runner_expect_get(mesa_runner_expect *e, const char *name, mesa_runner_status *out)
{
    if (!e->n)
        return false;
    if (!e->sorted) {
        entry *t = malloc(e->n * sizeof *t);
        if (!t) { /* no memory to sort: a linear search, the last line wins */
            for (size_t k = e->n; k-- > 0;)
                if (!strcmp(e->name[k], name)) {
                    *out = e->status[k];
                    return true;
                }
            return false;
        }
        for (size_t k = 0; k < e->n; k++)
            t[k] = (entry){e->name[k], e->status[k], k};
        qsort(t, e->n, sizeof *t, entry_cmp);
        for (size_t k = 0; k < e->n; k++) {
            e->name[k] = t[k].name;
            e->status[k] = t[k].status;
        }
        free(t);
        e->sorted = true;
    }
    /* the last entry with this name */
    size_t lo = 0, hi = e->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (strcmp(e->name[mid], name) <= 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == 0 || strcmp(e->name[lo - 1], name))
        return false;
    *out = e->status[lo - 1];
    return true;
}

void mesa_runner_expect_free(mesa_runner_expect *e)
{
    for (size_t k = 0; k < e->n; k++)
        free(e->name[k]);
    free(e->name);
    free(e->status);
    memset(e, 0, sizeof *e);
}

/* glibc's regcomp copies the tree of an expression under '+' and under
 * {n,m} (regcomp.c duplicate_tree), so nested repetitions grow it
 * exponentially: "x++++...+" with 40 '+' asks for 2^40 nodes. An upper bound
 * of that growth, the product of the copies every repetition makes times the
 * length; expressions over 10^6 are refused (what Mesa CI writes is a name
 * with a '.*' or two). */
/* Whether glibc's regcomp could take unbounded time on s: '+' and {n,m}
 * copy what they repeat, so nested ones multiply (a cost over 10^6 is
 * refused), and duplication symbols applied to a duplication ("a*+",
 * "a{2}{3}"; POSIX leaves "multiple adjacent duplication symbols"
 * undefined in EREs) make regcomp's closure computation blow up. Returns
 * NULL or why. */
static const char *regex_too_big(const char *s, size_t n)
{
    double cost = (double)n;
    bool bracket = false, after_dup = false;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        bool dup = false;
        if (c == '\\') {
            i++;
        } else if (bracket) {
            bracket = c != ']';
        } else if (c == '[') {
            bracket = true;
            if (i + 1 < n && s[i + 1] == ']')
                i++; /* "[]...]": the ']' is a member */
        } else if (c == '*' || c == '?') {
            dup = true;
        } else if (c == '+') {
            dup = true;
            cost *= 2;
        } else if (c == '{') {
            unsigned long lo = 0, hi = 0;
            size_t j = i + 1;
            while (j < n && s[j] >= '0' && s[j] <= '9' && lo < 100000)
                lo = lo * 10 + (unsigned long)(s[j++] - '0');
            hi = lo;
            if (j < n && s[j] == ',') {
                hi = 0;
                j++;
                while (j < n && s[j] >= '0' && s[j] <= '9' && hi < 100000)
                    hi = hi * 10 + (unsigned long)(s[j++] - '0');
                if (hi < lo)
                    hi = lo;
            }
            cost *= (double)hi + 1;
            dup = true;
            if (j < n && s[j] == '}')
                i = j;
        }
        if (dup && after_dup)
            return "adjacent repetitions such as '*+' or '{2}{3}' (undefined in POSIX extended "
                   "regular expressions)";
        after_dup = dup;
        if (cost > 1e6)
            return "regular expression too complex (nested repetitions: '+' and {n,m} copy what "
                   "they repeat)";
    }
    return NULL;
}

static ls_status regex_line(void *ctx, const char *s, size_t n, int line, int col, ls_diag *d)
{
    line_ctx *lc = ctx;
    mesa_runner_regexes *r = lc->list;
    if (r->n == r->cap) {
        size_t nc = r->cap ? 2 * r->cap : 32;
        regex_t *nr = realloc(r->re, nc * sizeof *nr);
        if (!nr)
            return ls_diag_set(d, LS_ERR_NOMEM, lc->file, line, col, "out of memory");
        r->re = nr;
        char **nt = realloc(r->text, nc * sizeof *nt);
        if (!nt)
            return ls_diag_set(d, LS_ERR_NOMEM, lc->file, line, col, "out of memory");
        r->text = nt;
        r->cap = nc;
    }
    if (memchr(s, 0, n))
        return ls_diag_set(d, LS_ERR_PARSE, lc->file, line, col,
                           "a NUL byte in a regular expression");
    const char *why = regex_too_big(s, n);
    if (why)
        return ls_diag_set(d, LS_ERR_PARSE, lc->file, line, col, "%s", why);
    char *t = strndup(s, n);
    if (!t)
        return ls_diag_set(d, LS_ERR_NOMEM, lc->file, line, col, "out of memory");
    regex_t *re = (regex_t *)r->re + r->n;
    int rc = regcomp(re, t, REG_EXTENDED | REG_NOSUB);
    if (rc) {
        char msg[160];
        regerror(rc, re, msg, sizeof msg);
        ls_status st = ls_diag_set(d, LS_ERR_PARSE, lc->file, line, col, "bad regular expression '%.60s': %s",
                                   t, msg);
        free(t);
        return st;
    }
    r->text[r->n++] = t;
    return LS_OK;
}

ls_status mesa_runner_regexes_add(mesa_runner_regexes *r, const char *text, size_t len, const char *file,
                                  ls_diag *d)
{
    line_ctx lc = {r, file};
    return each_line(text, len, regex_line, &lc, d);
}

long mesa_runner_regexes_match(const mesa_runner_regexes *r, const char *name)
{
    for (size_t k = 0; k < r->n; k++)
        if (!regexec((const regex_t *)r->re + k, name, 0, NULL, 0))
            return (long)k;
    return -1;
}

void mesa_runner_regexes_free(mesa_runner_regexes *r)
{
    for (size_t k = 0; k < r->n; k++) {
        regfree((regex_t *)r->re + k);
        free(r->text[k]);
    }
    free(r->re);
    free(r->text);
    memset(r, 0, sizeof *r);
}

/* ---- piglit's results -------------------------------------------------------- */

static double number_or_0(const ls_json *v)
{
    return v && v->type == LS_JSON_NUMBER ? v->number : 0;
}

ls_status mesa_runner_results_read(const char *text, size_t len, const char *file, mesa_runner_results *out,
                                   ls_diag *d)
{
    ls_json *root = NULL;
    ls_status st = ls_json_parse(text, len, file, &root, d);
    if (st != LS_OK)
        return st;
    const ls_json *tests = root;
    if (root->type == LS_JSON_OBJECT && ls_json_get(root, "results_version"))
        tests = ls_json_get(root, "tests");
    if (!tests || tests->type != LS_JSON_OBJECT) {
        st = ls_diag_set(d, LS_ERR_PARSE, file, root->line, root->col,
                         "not piglit results: expected an object of tests (or a results.json with one)");
        ls_json_free(root);
        return st;
    }
    for (size_t k = 0; k < tests->count; k++) {
        const ls_json *t = tests->items[k];
        const ls_json *res = t->type == LS_JSON_OBJECT ? ls_json_get(t, "result") : NULL;
        if (!res || res->type != LS_JSON_STRING) {
            st = ls_diag_set(d, LS_ERR_PARSE, file, t->line, t->col, "test '%.200s' has no \"result\" string",
                             tests->keys[k]);
            break;
        }
        if (out->n == out->cap) {
            size_t nc = out->cap ? 2 * out->cap : 64;
            mesa_runner_result *nr = realloc(out->r, nc * sizeof *nr);
            if (!nr) {
                st = ls_diag_set(d, LS_ERR_NOMEM, file, 0, 0, "out of memory");
                break;
            }
            out->r = nr;
            out->cap = nc;
        }
        const ls_json *time = ls_json_get(t, "time");
        mesa_runner_result r = {strdup(tests->keys[k]), mesa_runner_status_from_piglit(res->text),
                                strdup(res->text), 0, 0};
        if (time && time->type == LS_JSON_OBJECT) {
            r.start = number_or_0(ls_json_get(time, "start"));
            r.end = number_or_0(ls_json_get(time, "end"));
        }
        if (!r.name || !r.piglit) {
            free(r.name);
            free(r.piglit);
            st = ls_diag_set(d, LS_ERR_NOMEM, file, 0, 0, "out of memory");
            break;
        }
        out->r[out->n++] = r;
    }
    ls_json_free(root);
    return st;
}

void mesa_runner_results_free(mesa_runner_results *r)
{
    for (size_t k = 0; k < r->n; k++) {
        free(r->r[k].name);
        free(r->r[k].piglit);
    }
    free(r->r);
    memset(r, 0, sizeof *r);
}
