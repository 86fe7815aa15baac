/* `lockstep mesa piglit --profile PROFILE --results DIR [FILTER]...`: piglit's
 * own runner on the virtual R500 (docs/mesa.md, "piglit's own runner"). It
 * lists the profile's tests (`piglit print-cmd`), keeps this shard
 * (--fraction), sets the --skips tests aside, and runs the rest with
 * `lockstep mesa exec -- piglit run --test-list LIST PROFILE DIR`, so DIR is
 * piglit's own results (`piglit summary html|console` read it). While it runs,
 * the runner's per-test files give a progress line; at the end each test's
 * status is set against the expectations (--fails, --flakes, --baseline:
 * include/lockstep/mesa_piglit_runner.h) and DIR gets results.csv and
 * failures.csv. The library holds the logic; this file spawns and prints. */
#define _GNU_SOURCE 1
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "lockstep/mesa_piglit_run.h"
#include "lockstep/mesa_piglit_runner.h"
#include "mesa/proc.h"

extern char **environ;

static volatile sig_atomic_t child_pid;

/* piglit run and its tests are a process group of their own; SIGTERM,
 * SIGHUP and SIGINT go on to all of it, so no test outlives the run. */
static void forward(int sig)
{
    if (child_pid > 0)
        kill(-(pid_t)child_pid, sig);
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void note(void *ctx, const char *message)
{
    fprintf(stderr, "%s: %s\n", ((cli_args *)ctx)->prog, message);
}

/* The processes this one adopted (it is their subreaper): piglit starts each
 * test in a session of its own, so a test that outlives an interrupted
 * `piglit run` comes here. Each is sent SIGTERM, then SIGKILL after two
 * seconds, and reaped. */
static void end_orphans(void)
{
    pid_t me = getpid();
    for (int round = 0; round < 40; round++) {
        bool any = false;
        DIR *dd = opendir("/proc");
        for (struct dirent *e; dd && (e = readdir(dd));) {
            char *end;
            long pid = strtol(e->d_name, &end, 10);
            if (*end || pid <= 0)
                continue;
            char path[64], buf[512];
            snprintf(path, sizeof path, "/proc/%ld/stat", pid);
            FILE *f = fopen(path, "r");
            size_t got = f ? fread(buf, 1, sizeof buf - 1, f) : 0;
            if (f)
                fclose(f);
            buf[got] = 0;
            const char *rp = strrchr(buf, ')'); /* "pid (comm) state ppid ..." */
            char state;
            long ppid;
            if (rp && sscanf(rp + 1, " %c %ld", &state, &ppid) == 2 && ppid == me) {
                any = true;
                if (state != 'Z')
                    kill((pid_t)pid, round < 8 ? SIGTERM : SIGKILL);
            }
        }
        if (dd)
            closedir(dd);
        while (waitpid(-1, NULL, WNOHANG) > 0)
            ;
        if (!any)
            return;
        struct timespec ts = {0, 250000000};
        nanosleep(&ts, NULL);
    }
}

/* Run argv with env, stdout and stderr to log, in a process group of its
 * own (group id = its pid); the child's pid or -1. */
static pid_t spawn(char *const argv[], char *const env[], const char *log)
{
    posix_spawnattr_t at;
    posix_spawnattr_init(&at);
    posix_spawnattr_setflags(&at, POSIX_SPAWN_SETPGROUP);
    posix_spawnattr_setpgroup(&at, 0);
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, log, O_WRONLY | O_CREAT | O_APPEND, 0644);
    posix_spawn_file_actions_adddup2(&fa, 1, 2);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    pid_t pid;
    int err = posix_spawn(&pid, argv[0], &fa, &at, argv, env);
    posix_spawn_file_actions_destroy(&fa);
    posix_spawnattr_destroy(&at);
    return err ? -1 : pid;
}

/* The caller's environment with these set (NAME=value strings; a later one wins). */
static char **env_with(char *const *set, size_t nset)
{
    size_t n = 0;
    while (environ[n])
        n++;
    char **env = calloc(n + nset + 1, sizeof *env);
    if (!env)
        return NULL;
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        bool keep = true;
        for (size_t k = 0; k < nset && keep; k++) {
            size_t l = (size_t)(strchr(set[k], '=') - set[k]) + 1;
            keep = strncmp(environ[i], set[k], l) != 0;
        }
        if (keep)
            env[m++] = environ[i];
    }
    for (size_t k = 0; k < nset; k++)
        env[m++] = set[k];
    env[m] = NULL;
    return env;
}

static bool read_file(const char *path, ls_buf *b)
{
    ls_buf_init(b);
    FILE *f = fopen(path, "rb");
    if (!f)
        return false;
    char chunk[65536];
    size_t got;
    while ((got = fread(chunk, 1, sizeof chunk, f)) > 0)
        ls_buf_append(b, chunk, got);
    bool ok = !ferror(f) && !b->oom;
    fclose(f);
    return ok;
}

/* Progress from the runner's per-test files DIR/tests/N.json: a file is
 * written when its test starts (result "incomplete") and replaced when it
 * ends. */
typedef struct progress {
    char *done;           /* per file index: its test has ended */
    size_t cap, ndone;
    size_t count[MESA_RUNNER_NSTATUS];
    char what[200];
    cli_progress bar;
} progress;

static void poll_tests(progress *p, const char *results)
{
    char dir[PATH_MAX + 16];
    snprintf(dir, sizeof dir, "%s/tests", results);
    DIR *dd = opendir(dir);
    for (struct dirent *e; dd && (e = readdir(dd));) {
        char *end;
        unsigned long k = strtoul(e->d_name, &end, 10);
        if (end == e->d_name || strcmp(end, ".json") || k >= p->cap || p->done[k])
            continue;
        char path[2 * PATH_MAX];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        ls_buf b;
        ls_diag d;
        mesa_runner_results r = {0};
        if (read_file(path, &b) && mesa_runner_results_read((const char *)b.data, b.len, path, &r, &d) == LS_OK &&
            r.n == 1 && strcmp(r.r[0].piglit, "incomplete")) {
            p->done[k] = 1;
            p->ndone++;
            p->count[r.r[0].status]++;
        }
        mesa_runner_results_free(&r);
        ls_buf_free(&b);
    }
    if (dd)
        closedir(dd);
}

static void progress_draw(progress *p, size_t skipped)
{
    snprintf(p->what, sizeof p->what, "tests: %zu pass, %zu fail, %zu crash, %zu skip", p->count[MESA_RUNNER_PASS],
             p->count[MESA_RUNNER_FAIL] + p->count[MESA_RUNNER_TIMEOUT], p->count[MESA_RUNNER_CRASH],
             p->count[MESA_RUNNER_SKIP] + skipped);
    cli_progress_update(&p->bar, p->ndone + skipped);
}

/* DIR may be handed to `piglit run -o` (which deletes it first): it does not
 * exist, is empty, or holds piglit results. */
static bool results_dir_ok(const char *dir)
{
    DIR *dd = opendir(dir);
    if (!dd)
        return errno == ENOENT;
    bool empty = true, piglit = false;
    for (struct dirent *e; (e = readdir(dd));) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        empty = false;
        piglit |= !strncmp(e->d_name, "results.json", 12) || !strcmp(e->d_name, "metadata.json");
    }
    closedir(dd);
    return empty || piglit;
}

typedef struct test {
    char *name;    /* piglit's */
    char *csv;     /* as the expectation files and CSV outputs spell it (mesa_runner_sanitize_name) */
    bool skipped;  /* by --skips */
    mesa_runner_status actual, final;
    double seconds;
} test;

/* Load every FILE of a repeated option into an expectation list or regexes. */
static int load_lists(cli_args *a, const char *opt, mesa_runner_expect *e, mesa_runner_regexes *r)
{
    for (size_t k = 0; k < a->nov; k++) {
        if (strcmp(a->ov[k].opt->name, opt))
            continue;
        ls_buf b;
        int rc = cli_read(a, a->ov[k].val, &b);
        if (rc)
            return rc;
        ls_diag d;
        ls_diag_clear(&d);
        ls_status st = e ? mesa_runner_expect_add(e, (const char *)b.data, b.len, cli_name(a->ov[k].val), &d)
                         : mesa_runner_regexes_add(r, (const char *)b.data, b.len, cli_name(a->ov[k].val), &d);
        ls_buf_free(&b);
        if (st != LS_OK)
            return cli_report(a, &d);
    }
    return CLI_OK;
}

int cli_mesa_piglit_runner(cli_args *a)
{
    const char *profile = cli_get(a, "profile"), *results = cli_get(a, "results");
    const char *chip = cli_get(a, "chip") ? cli_get(a, "chip") : "rv530";
    bool list = cli_flag(a, "list");
    long jobs = 0, fraction = 1, fraction_start = 1, timeout = 0;
    int rc = cli_opt_long(a, "workers", 1, 64, &jobs);
    if (!rc)
        rc = cli_opt_long(a, "fraction", 1, 1000000, &fraction);
    if (!rc)
        rc = cli_opt_long(a, "fraction-start", 1, 1000000, &fraction_start);
    if (!rc)
        rc = cli_opt_long(a, "timeout", 1, 86400, &timeout);
    if (rc || (rc = cli_mesa_check_chip(a, chip)))
        return rc;
    if (!results && !list)
        return cli_usage(a, "--profile needs --results DIR (piglit's results directory)");
    if (cli_get(a, "json") || cli_get(a, "keep") || cli_flag(a, "no-keep"))
        return cli_usage(a, "--json, --keep and --no-keep belong to the shader_test harness, not to --profile "
                         "(piglit writes its own results into --results)");
    bool llvmpipe = cli_flag(a, "llvmpipe"); /* the reference run: the same list on llvmpipe */
    if (llvmpipe && cli_get(a, "model"))
        return cli_usage(a, "--model sets lockstep's model options; llvmpipe has none");
    char model_env[1024]; /* checked now, passed to mesa exec as --model */
    if ((rc = cli_mesa_model_env(a, model_env, sizeof model_env)))
        return rc;
    for (size_t i = 0; i < a->nops; i++)
        if (strlen(a->ops[i]) > 12 && !strcmp(a->ops[i] + strlen(a->ops[i]) - 12, ".shader_test"))
            return cli_usage(a, "with --profile, operands are piglit test-name filters, not files (%s)",
                             a->ops[i]);
    if (results && !list && !results_dir_ok(results))
        return cli_err(a, CLI_OUTPUT, "%s exists and does not hold piglit results; piglit run would delete it "
                                      "(give a new or empty directory)", results);
    char drivers[PATH_MAX];
    if ((rc = cli_mesa_drivers(a, drivers, sizeof drivers)))
        return rc;
    mesa_runner_expect expect = {0};
    mesa_runner_regexes skips = {0}, flakes = {0};
    rc = load_lists(a, "fails", &expect, NULL);
    if (!rc)
        rc = load_lists(a, "baseline", &expect, NULL);
    if (!rc)
        rc = load_lists(a, "skips", NULL, &skips);
    if (!rc)
        rc = load_lists(a, "flakes", NULL, &flakes);
    mesa_runner_expect base = {0};
    if (!rc)
        rc = load_lists(a, "baseline", &base, NULL);
    char self[PATH_MAX];
    ssize_t sl = readlink("/proc/self/exe", self, sizeof self - 1);
    if (!rc && sl <= 0)
        rc = cli_err(a, CLI_INTERNAL, "cannot find the lockstep binary (/proc/self/exe)");
    if (!rc)
        self[sl] = 0;
    char shim[PATH_MAX];
    if (!rc && !list && !cli_mesa_find_helper("LOCKSTEP_MESA_SHIM", "liblockstep_r300_shim.so", shim, sizeof shim))
        rc = cli_err(a, CLI_UNAVAILABLE, "the r300 shim is not built (install libdrm-dev libegl-dev libgl-dev "
                                         "and reconfigure; docs/mesa.md)");
    char cache[PATH_MAX], pdir[PATH_MAX];
    mesa_piglit_cache_dir(cli_get(a, "cache"), cache, sizeof cache);
    ls_diag d;
    ls_diag_clear(&d);
    if (!rc && mesa_runner_cache_ensure(cache, note, a, &d) != LS_OK)
        cli_report(a, &d), rc = CLI_UNAVAILABLE;
    mesa_runner_piglit_dir(cache, pdir, sizeof pdir);
    char piglit[PATH_MAX + 32], work[PATH_MAX], listf[PATH_MAX + 32], log[PATH_MAX + 32];
    snprintf(piglit, sizeof piglit, "%s/runner/usr/bin/piglit", cache);
    const char *t = getenv("TMPDIR");
    snprintf(work, sizeof work, "%s/lockstep-piglit-runner-XXXXXX", t && *t ? t : "/tmp");
    if (!rc && !mkdtemp(work))
        rc = cli_err(a, CLI_OUTPUT, "cannot make a temporary directory: %s", strerror(errno));
    bool have_work = !rc;
    snprintf(listf, sizeof listf, "%s/testlist.txt", work);
    snprintf(log, sizeof log, "%s/print-cmd.log", work);

    /* 1. the profile's tests: piglit print-cmd (with the FILTERs as -t) */
    test *tests = NULL;
    size_t nt = 0, nrun = 0, nskipped = 0;
    char **gen = NULL;
    size_t ngen = 0;
    if (!rc) {
        char **argv = calloc(2 * a->nops + 8, sizeof *argv);
        size_t m = 0;
        if (argv) {
            argv[m++] = "/usr/bin/python3";
            argv[m++] = piglit;
            argv[m++] = "print-cmd";
            argv[m++] = "--format";
            argv[m++] = "{name} ::: {command}";
            for (size_t i = 0; i < a->nops; i++) {
                argv[m++] = "-t";
                argv[m++] = a->ops[i];
            }
            argv[m++] = (char *)profile;
        }
        char *env_set[] = {"PYTHONDONTWRITEBYTECODE=1"};
        char **env = env_with(env_set, 1);
        pid_t pid = argv && env ? spawn(argv, env, log) : -1;
        int status = 0;
        while (pid > 0 && waitpid(pid, &status, 0) < 0 && errno == EINTR)
            ;
        free(argv);
        free(env);
        ls_buf b;
        bool got = read_file(log, &b);
        if (pid <= 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0 || !got) {
            rc = cli_err(a, CLI_INPUT, "piglit print-cmd %s failed (an unknown profile?):", profile);
            fwrite(b.data, 1, b.len > 2000 ? 2000 : b.len, stderr);
        } else {
            /* "name ::: command" lines; the generated shader_tests a command names */
            size_t cap = 0, gcap = 0;
            char *s = (char *)b.data, *end = s + b.len;
            for (char *p = s; p < end;) {
                char *nl = memchr(p, '\n', (size_t)(end - p));
                if (!nl)
                    nl = end;
                *nl = 0;
                char *sep = strstr(p, " ::: ");
                if (sep) {
                    *sep = 0;
                    if (nt == cap) {
                        cap = cap ? 2 * cap : 1024;
                        test *nt2 = realloc(tests, cap * sizeof *nt2);
                        if (!nt2)
                            break;
                        tests = nt2;
                    }
                    tests[nt] = (test){strdup(p), strdup(p), false, MESA_RUNNER_MISSING, MESA_RUNNER_MISSING, 0};
                    if (!tests[nt].name || !tests[nt].csv) {
                        free(tests[nt].name);
                        free(tests[nt].csv);
                        break;
                    }
                    mesa_runner_sanitize_name(tests[nt].csv);
                    bool in = mesa_runner_in_shard(nt, (unsigned)fraction, (unsigned)fraction_start);
                    if (in && mesa_runner_regexes_match(&skips, tests[nt].csv) >= 0)
                        tests[nt].skipped = true;
                    char *g = in && !tests[nt].skipped ? strstr(sep + 5, "generated_tests/") : NULL;
                    if (g) {
                        char *ge = g + strcspn(g, " ");
                        if (ngen == gcap) {
                            gcap = gcap ? 2 * gcap : 256;
                            char **ng = realloc(gen, gcap * sizeof *ng);
                            if (ng)
                                gen = ng;
                        }
                        char *gp = ngen < gcap ? strndup(g, (size_t)(ge - g)) : NULL;
                        if (gp)
                            gen[ngen++] = gp;
                    }
                    nt++;
                }
                p = nl + 1;
            }
        }
        ls_buf_free(&b);
    }
    /* 2. this shard */
    test **shard = calloc(nt + 1, sizeof *shard);
    size_t ns = 0;
    for (size_t k = 0; !rc && shard && k < nt; k++)
        if (mesa_runner_in_shard(k, (unsigned)fraction, (unsigned)fraction_start)) {
            shard[ns++] = &tests[k];
            nrun += !tests[k].skipped;
            nskipped += tests[k].skipped;
        }
    if (!rc && !shard)
        rc = cli_err(a, CLI_INTERNAL, "out of memory");
    if (!rc && ns == 0)
        rc = cli_err(a, CLI_INPUT, "no test of profile %s is selected", profile);
    if (!rc && list) {
        for (size_t k = 0; k < ns; k++)
            printf("%s%s\n", shard[k]->name, shard[k]->skipped ? "  (skipped: --skips)" : "");
    }
    double t0 = now_s();
    if (!rc && !list && nrun) {
        size_t extracted = 0;
        if (mesa_runner_cache_extract(cache, (const char *const *)gen, ngen, &extracted, note, a, &d) != LS_OK)
            rc = cli_report(a, &d);
    }
    /* 3. piglit run under mesa exec */
    int piglit_status = 0;
    if (!rc && !list && nrun) {
        FILE *lf = fopen(listf, "w");
        for (size_t k = 0; lf && k < ns; k++)
            if (!shard[k]->skipped)
                fprintf(lf, "%s\n", shard[k]->name);
        if (!lf || fclose(lf) != 0)
            rc = cli_err(a, CLI_OUTPUT, "cannot write %s", listf);
        char jobs_s[24], timeout_s[24], ld[2 * PATH_MAX + 32], drv[PATH_MAX + 32];
        snprintf(jobs_s, sizeof jobs_s, "%ld", jobs ? jobs : sysconf(_SC_NPROCESSORS_ONLN));
        snprintf(timeout_s, sizeof timeout_s, "%ld", timeout);
        const char *old_ld = getenv("LD_LIBRARY_PATH");
        snprintf(ld, sizeof ld, "LD_LIBRARY_PATH=%s/lib%s%s", pdir, old_ld && *old_ld ? ":" : "",
                 old_ld ? old_ld : "");
        snprintf(drv, sizeof drv, "LIBGL_DRIVERS_PATH=%s", drivers);
        /* llvmpipe has no render node to open here: surfaceless unless asked */
        const char *platform = cli_get(a, "platform") ? cli_get(a, "platform") : llvmpipe ? "surfaceless_egl" : "gbm";
        char plat[64];
        snprintf(plat, sizeof plat, "PIGLIT_PLATFORM=%s", platform);
        char *env_set[] = {ld, "PIGLIT_COMPRESSION=none", "PYTHONDONTWRITEBYTECODE=1", plat, drv};
        char *env_sw[] = {ld, "PIGLIT_COMPRESSION=none", "PYTHONDONTWRITEBYTECODE=1", plat,
                          "LIBGL_ALWAYS_SOFTWARE=1", "GALLIUM_DRIVER=llvmpipe"};
        char **env = llvmpipe ? env_with(env_sw, 6) : env_with(env_set, drivers[0] ? 5 : 4);
        char *argv[] = {self, "mesa", "exec", "--chip", (char *)chip, "--", "/usr/bin/python3", piglit, "run",
                        "-p", (char *)platform, "-l", "dummy", "-j", jobs_s, "-o", "--test-list", listf,
                        (char *)profile, (char *)results, timeout ? "--timeout" : NULL, timeout_s, NULL};
        enum { NARGV = sizeof argv / sizeof argv[0] };
        /* --model V...: before "--" as mesa exec options */
        char *argm[NARGV + 64];
        size_t na = 0;
        for (size_t k = 0; k < 5; k++)
            argm[na++] = argv[k];
        for (size_t i = 0; i < a->nov && na + NARGV < sizeof argm / sizeof argm[0]; i++)
            if (!strcmp(a->ov[i].opt->name, "model")) {
                argm[na++] = "--model";
                argm[na++] = (char *)a->ov[i].val;
            }
        for (size_t k = 5; k < NARGV; k++)
            argm[na++] = argv[k];
        snprintf(log, sizeof log, "%s/piglit-run.log", work);
        /* on llvmpipe, piglit run itself (argv from the python on), not under mesa exec */
        pid_t pid = !rc && env ? spawn(llvmpipe ? argv + 6 : argm, env, log) : -1;
        free(env);
        if (!rc && pid < 0)
            rc = cli_err(a, CLI_UNAVAILABLE, "cannot start piglit run");
        progress p = {0};
        p.cap = nrun;
        p.done = calloc(nrun ? nrun : 1, 1);
        cli_progress_start(&p.bar, ns, p.what);
        prctl(PR_SET_CHILD_SUBREAPER, 1); /* tests that outlive piglit run come here: end_orphans */
        struct sigaction fw = {0}, old_term, old_hup, old_int;
        fw.sa_handler = forward;
        child_pid = pid;
        sigaction(SIGTERM, &fw, &old_term);
        sigaction(SIGHUP, &fw, &old_hup);
        sigaction(SIGINT, &fw, &old_int);
        while (pid > 0) {
            pid_t w = waitpid(pid, &piglit_status, WNOHANG);
            if (w == pid || (w < 0 && errno != EINTR))
                break;
            if (p.done && p.bar.on) {
                poll_tests(&p, results);
                progress_draw(&p, nskipped);
            }
            struct timespec ts = {0, 250000000};
            nanosleep(&ts, NULL);
        }
        sigaction(SIGTERM, &old_term, NULL);
        sigaction(SIGHUP, &old_hup, NULL);
        sigaction(SIGINT, &old_int, NULL);
        child_pid = 0;
        end_orphans();
        cli_progress_end(&p.bar);
        free(p.done);
    }
    double wall = now_s() - t0;
    /* 4. piglit's results, each test against its expectation */
    size_t count[MESA_RUNNER_NSTATUS] = {0};
    bool changed_any = false;
    if (!rc && !list) {
        mesa_runner_results r = {0};
        char rj[PATH_MAX + 32];
        snprintf(rj, sizeof rj, "%s/results.json", results);
        ls_buf b = {0};
        if (nrun && !read_file(rj, &b)) {
            ls_buf_free(&b);
            rc = cli_err(a, CLI_UNAVAILABLE, "piglit run wrote no %s (exit status %d; `piglit summary aggregate "
                                             "DIR` collects the tests it finished); its log:", rj,
                         WIFEXITED(piglit_status) ? WEXITSTATUS(piglit_status) : 128 + WTERMSIG(piglit_status));
            ls_buf lb;
            if (read_file(log, &lb))
                fwrite(lb.data, 1, lb.len > 4000 ? 4000 : lb.len, stderr);
            ls_buf_free(&lb);
        } else if (nrun && mesa_runner_results_read((const char *)b.data, b.len, rj, &r, &d) != LS_OK) {
            rc = cli_report(a, &d);
        }
        ls_buf_free(&b);
        /* match by name: both lists sorted */
        mesa_runner_expect got = {0};
        for (size_t k = 0; !rc && k < r.n; k++) {
            mesa_runner_sanitize_name(r.r[k].name);
            char line[2048];
            int l = snprintf(line, sizeof line, "%s,%s\n", r.r[k].name, mesa_runner_status_name(r.r[k].status));
            if (l > 0 && (size_t)l < sizeof line)
                mesa_runner_expect_add(&got, line, (size_t)l, "results", &d);
        }
        char csv[PATH_MAX + 32], fcsv[PATH_MAX + 32];
        snprintf(csv, sizeof csv, "%s/statuses.csv", results); /* not results.*: piglit summary takes
                                                                  * any file named result* for its results */
        snprintf(fcsv, sizeof fcsv, "%s/failures.csv", results);
        if (!rc && mesa_piglit_make_dirs(results))
            rc = cli_err(a, CLI_OUTPUT, "cannot create %s: %s", results, strerror(errno));
        FILE *cf = rc ? NULL : fopen(csv, "w"), *ff = rc ? NULL : fopen(fcsv, "w");
        if (!rc && (!cf || !ff))
            rc = cli_err(a, CLI_OUTPUT, "cannot write %s: %s", !cf ? csv : fcsv, strerror(errno));
        for (size_t k = 0; !rc && k < ns; k++) {
            test *x = shard[k];
            if (x->skipped)
                x->actual = MESA_RUNNER_SKIP;
            else if (!mesa_runner_expect_get(&got, x->csv, &x->actual))
                x->actual = MESA_RUNNER_MISSING;
            mesa_runner_status want = MESA_RUNNER_PASS;
            bool have = mesa_runner_expect_get(&expect, x->csv, &want);
            x->final = mesa_runner_classify(x->actual, have, want, mesa_runner_regexes_match(&flakes, x->csv) >= 0);
            count[x->final]++;
            fprintf(cf, "%s,%s\n", x->csv, mesa_runner_status_name(x->actual));
            if (x->actual == MESA_RUNNER_FAIL || x->actual == MESA_RUNNER_CRASH || x->actual == MESA_RUNNER_TIMEOUT)
                fprintf(ff, "%s,%s\n", x->csv, mesa_runner_status_name(x->actual));
            /* the lines: what is not a success, flakes; with --baseline only what changed */
            mesa_runner_status before = MESA_RUNNER_PASS;
            bool in_base = mesa_runner_expect_get(&base, x->csv, &before);
            bool changed = x->actual != before;
            changed_any |= changed;
            bool show = base.n ? changed : !mesa_runner_status_ok(x->final) || x->final == MESA_RUNNER_FLAKE;
            if (show) {
                if (base.n)
                    printf("%-22s %s  (%s -> %s)\n", mesa_runner_status_name(x->final), x->name,
                           in_base ? mesa_runner_status_name(before) : "new",
                           mesa_runner_status_name(x->actual));
                else if (have && x->final != MESA_RUNNER_EXPECTED_FAIL)
                    printf("%-22s %s  (expected %s)\n", mesa_runner_status_name(x->final), x->name,
                           mesa_runner_status_name(want));
                else
                    printf("%-22s %s\n", mesa_runner_status_name(x->final), x->name);
            }
        }
        if (cf && fclose(cf) != 0 && !rc)
            rc = cli_err(a, CLI_OUTPUT, "cannot write %s", csv);
        if (ff && fclose(ff) != 0 && !rc)
            rc = cli_err(a, CLI_OUTPUT, "cannot write %s", fcsv);
        mesa_runner_expect_free(&got);
        mesa_runner_results_free(&r);
        /* the run's log beside the results */
        char dst[PATH_MAX + 32];
        snprintf(dst, sizeof dst, "%s/lockstep-piglit-run.log", results);
        ls_buf lb = {0};
        if (!rc && nrun && read_file(log, &lb)) {
            FILE *f = fopen(dst, "w");
            if (f) {
                fwrite(lb.data, 1, lb.len, f);
                fclose(f);
            }
        }
        ls_buf_free(&lb);
        if (!rc) {
            fflush(stdout);
            fprintf(stderr, "\n%zu tests (profile %s", ns, profile);
            if (fraction > 1)
                fprintf(stderr, ", shard %ld of every %ld", fraction_start, fraction);
            fprintf(stderr, "; %zu run by piglit, %zu skipped by --skips) in %.0f s:", nrun, nskipped, wall);
            const char *sep = "";
            for (int s = 0; s < MESA_RUNNER_NSTATUS; s++)
                if (count[s]) {
                    fprintf(stderr, "%s %zu %s", sep, count[s], mesa_runner_status_name((mesa_runner_status)s));
                    sep = ",";
                }
            fprintf(stderr, "\n");
            if (base.n)
                fprintf(stderr, "%s the baseline\n", changed_any ? "changes against" : "no change against");
            fprintf(stderr, "piglit's results: %s (piglit summary html|console), %s, %s\n", results, csv, fcsv);
            for (int s = 0; s < MESA_RUNNER_NSTATUS; s++)
                if (count[s] && !mesa_runner_status_ok((mesa_runner_status)s))
                    rc = CLI_MISMATCH;
        }
    }
    for (size_t k = 0; k < nt; k++) {
        free(tests[k].name);
        free(tests[k].csv);
    }
    free(tests);
    free(shard);
    for (size_t k = 0; k < ngen; k++)
        free(gen[k]);
    free(gen);
    if (have_work)
        mesa_rm_tree(work);
    mesa_runner_expect_free(&expect);
    mesa_runner_expect_free(&base);
    mesa_runner_regexes_free(&skips);
    mesa_runner_regexes_free(&flakes);
    return rc;
}
