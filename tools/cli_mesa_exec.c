/* lockstep mesa exec [options] -- PROGRAM ARGS...: run any program on the
 * virtual R500 (docs/mesa.md, "The live device"). Like valgrind or wine, it
 * prepares the process and gets out of the way: the fake-device shim is
 * preloaded in exec mode (every command stream checked as the radeon kernel
 * checks it, then executed by lockstep), the chip and the watchdog are passed
 * to it (and the engine, --engine), EGL and piglit's waffle are pointed at a platform that needs no
 * display (and waffle's GBM platform at the fake render node), and the shim's private files go to a temporary directory that is
 * removed when the program ends, however it ends. The program's exit status
 * is the command's. */
#define _GNU_SOURCE 1
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "lockstep/mesa_device.h"
#include "mesa/proc.h"

extern char **environ;

static volatile sig_atomic_t child_pid;

/* SIGTERM/SIGHUP to lockstep go on to the program (lockstep then cleans up
 * when it ends); SIGINT/SIGQUIT from a terminal reach the program directly,
 * so lockstep ignores them while it waits (as system() does). */
static void forward(int sig)
{
    if (child_pid > 0)
        kill((pid_t)child_pid, sig);
}

int cli_mesa_model_env(cli_args *a, char *env, size_t size)
{
    mesa_device_options o;
    mesa_device_options_default(&o);
    size_t len = (size_t)snprintf(env, size, "LOCKSTEP_SHIM_MODEL=");
    const size_t start = len;
    unsigned count = 0;
    for (size_t i = 0; i < a->nov; i++) {
        if (strcmp(a->ov[i].opt->name, "model"))
            continue;
        if (++count > 16)
            return cli_usage(a, "--model: at most 16 model options");
        const char *v = a->ov[i].val, *eq = strchr(v, '=');
        char name[64];
        if (!eq || eq == v || (size_t)(eq - v) >= sizeof name || strchr(v, ','))
            return cli_usage(a, "--model %s: expected NAME=VALUE", v);
        memcpy(name, v, (size_t)(eq - v));
        name[eq - v] = 0;
        ls_diag d;
        if (mesa_device_model_set(&o, name, eq + 1, &d))
            return cli_usage(a, "--model %s: %s", v, d.msg);
        len += (size_t)snprintf(env + len, len < size ? size - len : 0, "%s%s",
                                len > start ? "," : "", v);
        if (len >= size)
            return cli_usage(a, "--model: too many model options");
    }
    if (len == start)
        env[0] = 0;
    return CLI_OK;
}

int cli_mesa_exec(cli_args *a)
{
    const char *chip = cli_get(a, "chip");
    if (chip) {
        int rc = cli_mesa_check_chip(a, chip);
        if (rc)
            return rc;
    }
    const char *capture = cli_get(a, "capture");
    bool capture_only = cli_flag(a, "capture-only");
    const char *wd = cli_get(a, "watchdog");
    char wdbuf[32] = "";
    if (wd) {
        long v = 0;
        int rc = cli_opt_long(a, "watchdog", 1, 1l << 40, &v);
        if (rc)
            return rc;
        snprintf(wdbuf, sizeof wdbuf, "%ld", v);
    }
    r500_engine engine;
    int erc = cli_engine_opt(a, &engine);
    if (erc)
        return erc;
    /* --model NAME=VALUE...: checked here, passed on as LOCKSTEP_SHIM_MODEL */
    char e_model[1024];
    erc = cli_mesa_model_env(a, e_model, sizeof e_model);
    if (erc)
        return erc;
    const char *scanout = cli_get(a, "scanout"), *mode = cli_get(a, "mode");
    int mw = 320, mh = 240;
    if (mode) {
        int rc = cli_opt_size(a, "mode", &mw, &mh);
        if (rc)
            return rc;
    }
    if (scanout && mkdir(scanout, 0777) != 0 && errno != EEXIST)
        return cli_err(a, CLI_OUTPUT, "cannot make the scan-out directory %s: %s", scanout, strerror(errno));
    if (capture_only && !capture)
        cli_warn(a, "--capture-only without --capture: the streams are neither executed nor kept");
    if (capture && mkdir(capture, 0777) != 0 && errno != EEXIST)
        return cli_err(a, CLI_OUTPUT, "cannot make the capture directory %s: %s", capture,
                       strerror(errno));
    char shim[PATH_MAX];
    if (!cli_mesa_find_helper("LOCKSTEP_MESA_SHIM", "liblockstep_r300_shim.so", shim, sizeof shim))
        return cli_err(a, CLI_UNAVAILABLE, "the r300 shim is not built (install libdrm-dev "
                                           "libegl-dev libgl-dev and reconfigure; docs/mesa.md)");
    { /* LD_PRELOAD must not depend on the program's directory */
        char abs[PATH_MAX];
        if (realpath(shim, abs))
            snprintf(shim, sizeof shim, "%s", abs);
    }
    /* the shim's private mirror of sysfs and /dev/dri goes here, removed at the end */
    const char *t = getenv("TMPDIR");
    char priv[PATH_MAX];
    snprintf(priv, sizeof priv, "%s/lockstep-exec-XXXXXX", t && *t ? t : "/tmp");
    if (!mkdtemp(priv))
        return cli_err(a, CLI_OUTPUT, "cannot make a temporary directory in %s: %s",
                       t && *t ? t : "/tmp", strerror(errno));

    /* The environment: the caller's, minus what would pick another driver or
     * preload something else first, plus the device's. */
    static const char *const drop[] = {"LD_PRELOAD=", "LIBGL_ALWAYS_SOFTWARE=", "GALLIUM_DRIVER=",
                                       "MESA_LOADER_DRIVER_OVERRIDE=", "LOCKSTEP_SHIM_", NULL};
    size_t n = 0;
    while (environ[n])
        n++;
    char **env = calloc(n + 16, sizeof *env);
    char e_pre[PATH_MAX + 16], e_mode[32], e_chip[64], e_dir[PATH_MAX + 32], e_out[PATH_MAX + 32],
        e_wd[64], e_scan[PATH_MAX + 32], e_kms[64];
    if (!env) {
        mesa_rm_tree(priv);
        return cli_err(a, CLI_INTERNAL, "out of memory");
    }
    size_t m = 0;
    bool have_egl = false, have_piglit = false, have_gbm = false;
    for (size_t i = 0; i < n; i++) {
        bool keep = true;
        for (const char *const *dp = drop; *dp && keep; dp++)
            keep = strncmp(environ[i], *dp, strlen(*dp)) != 0;
        keep = keep || !strncmp(environ[i], "LOCKSTEP_SHIM_TRACE=", 20);
        have_egl |= !strncmp(environ[i], "EGL_PLATFORM=", 13);
        have_piglit |= !strncmp(environ[i], "PIGLIT_PLATFORM=", 16);
        have_gbm |= !strncmp(environ[i], "WAFFLE_GBM_DEVICE=", 18);
        if (keep)
            env[m++] = environ[i];
    }
    snprintf(e_pre, sizeof e_pre, "LD_PRELOAD=%s", shim);
    env[m++] = e_pre;
    snprintf(e_mode, sizeof e_mode, "LOCKSTEP_SHIM_MODE=%s", capture_only ? "capture" : "exec");
    env[m++] = e_mode;
    snprintf(e_chip, sizeof e_chip, "LOCKSTEP_SHIM_CHIP=%s", chip ? chip : "rv530");
    env[m++] = e_chip;
    snprintf(e_dir, sizeof e_dir, "LOCKSTEP_SHIM_DIR=%s", priv);
    env[m++] = e_dir;
    if (capture) {
        snprintf(e_out, sizeof e_out, "LOCKSTEP_SHIM_OUT=%s", capture);
        env[m++] = e_out;
        env[m++] = "LOCKSTEP_SHIM_BOS=1";
    } else if (capture_only) {
        /* capture mode records into "." by default: keep it in the private dir */
        snprintf(e_out, sizeof e_out, "LOCKSTEP_SHIM_OUT=%s", priv);
        env[m++] = e_out;
    }
    if (wd) {
        snprintf(e_wd, sizeof e_wd, "LOCKSTEP_SHIM_WATCHDOG=%s", wdbuf);
        env[m++] = e_wd;
    }
    /* the display (src/mesa/shim_kms.c) */
    if (scanout) {
        char abs[PATH_MAX];
        snprintf(e_scan, sizeof e_scan, "LOCKSTEP_SHIM_SCANOUT=%s", realpath(scanout, abs) ? abs : scanout);
        env[m++] = e_scan;
    }
    snprintf(e_kms, sizeof e_kms, "LOCKSTEP_SHIM_KMS_SIZE=%dx%d", mw, mh);
    env[m++] = e_kms;
    if (e_model[0])
        env[m++] = e_model;
    env[m++] = engine == R500_ENGINE_JIT      ? "LOCKSTEP_SHIM_ENGINE=jit"
               : engine == R500_ENGINE_AUTO ? "LOCKSTEP_SHIM_ENGINE=auto"
                                            : "LOCKSTEP_SHIM_ENGINE=interp";
    /* No display needed: EGL's default display is the surfaceless platform,
     * piglit's waffle uses surfaceless EGL (docs/mesa.md); the caller's own
     * choices win. */
    if (!have_egl)
        env[m++] = "EGL_PLATFORM=surfaceless";
    if (!have_piglit)
        env[m++] = "PIGLIT_PLATFORM=surfaceless_egl";
    /* waffle's GBM platform finds its node through libudev, which the shim
     * does not fake; WAFFLE_GBM_DEVICE names it (PIGLIT_PLATFORM=gbm) */
    if (!have_gbm)
        env[m++] = "WAFFLE_GBM_DEVICE=/dev/dri/renderD128";
    env[m] = NULL;

    pid_t pid;
    int err = posix_spawnp(&pid, a->ops[0], NULL, NULL, a->ops, env);
    free(env);
    if (err) {
        mesa_rm_tree(priv);
        return cli_err(a, err == ENOENT ? 127 : 126, "cannot run %s: %s", a->ops[0], strerror(err));
    }
    child_pid = pid;
    struct sigaction fw = {0}, ign = {0}, old_term, old_hup, old_int, old_quit;
    fw.sa_handler = forward;
    ign.sa_handler = SIG_IGN;
    sigaction(SIGTERM, &fw, &old_term);
    sigaction(SIGHUP, &fw, &old_hup);
    sigaction(SIGINT, &ign, &old_int);
    sigaction(SIGQUIT, &ign, &old_quit);
    int status = 0;
    pid_t w;
    while ((w = waitpid(pid, &status, 0)) < 0 && errno == EINTR)
        ;
    sigaction(SIGTERM, &old_term, NULL);
    sigaction(SIGHUP, &old_hup, NULL);
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGQUIT, &old_quit, NULL);
    child_pid = 0;
    mesa_rm_tree(priv);
    if (w < 0)
        return cli_err(a, CLI_INTERNAL, "waiting for %s: %s", a->ops[0], strerror(errno));
    if (WIFEXITED(status))
        return WEXITSTATUS(status);
    return 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}
