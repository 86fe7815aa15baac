/* lockstep r300 shim: an LD_PRELOAD library that makes Debian's r300_dri.so
 * start on a fake Radeon R5xx (no hardware) and captures every command stream
 * it submits. What the loader and the radeon winsys ask of the kernel, and in
 * which order, is spec/mesa-capture.md §1; this file answers exactly that.
 *
 * Environment:
 *   LOCKSTEP_SHIM_CHIP  rv515 (0x7140) | r520 (0x7100) | rv530 (0x71C2, default) |
 *                       r580 (0x7240) | a hex PCI id
 *   LOCKSTEP_SHIM_MODE  capture (default): record only; exec: check + execute every CS
 *                       (a refused CS fails with the kernel's errno; a hang is a GPU lockup)
 *   LOCKSTEP_SHIM_OUT   directory for cs_NNNN.ib/.relocs/.flags (capture mode: default ".";
 *                       exec mode: nothing is recorded unless it is set)
 *   LOCKSTEP_SHIM_WATCHDOG  exec mode: instructions a vertex or a fragment thread may
 *                       issue before its draw counts as a GPU hang (default: the vertex
 *                       engine's "vs-watchdog", 2^24, and the fragment unit's "watchdog",
 *                       2^20)
 *   LOCKSTEP_SHIM_BOS   if set, also cs_NNNN.bo_K: relocation K's buffer contents
 *                       (LOCKSTEP_SHIM_BO_MAX bytes at most each, default 16 MiB);
 *                       exec mode: and cs_NNNN.after_K, its contents after the CS ran
 *   LOCKSTEP_SHIM_ENGINE  exec mode: auto (default) | interp | jit: the engine of the vertex
 *                       and the fragment programs (docs/r500-jit.md; jit only when the shim
 *                       is built with liblockstep_jit, else interp and a log line; auto:
 *                       the interpreter for vertices, fragment runs by their size,
 *                       r500_engine_pick); with LOCKSTEP_SHIM_TRACE the JIT's counts are
 *                       said at exit
 *   LOCKSTEP_SHIM_MODEL exec mode: model options NAME=VALUE,... of the geometry blocks,
 *                       texture units and render backend (mesa_device_model_list;
 *                       docs/assumptions.md); a bad list is logged and the defaults stand
 *   LOCKSTEP_SHIM_TRACE if set, one line per intercepted call on stderr
 *   LOCKSTEP_SHIM_KMS_SIZE, LOCKSTEP_SHIM_SCANOUT  the display on card0 (shim_kms.c)
 *   LOCKSTEP_SHIM_DIR, else XDG_RUNTIME_DIR, else TMPDIR, else /tmp: where the private sysfs mirror
 *                       (lockstep-shim-XXXXXX) is made
 *
 * The mirror is made only when the process looks for the device (a process
 * that never does, like a shell the library is preloaded into, leaves
 * nothing), and removed when the process that made it exits (destructor,
 * atexit, _exit/_Exit) or before it execs another program
 * (execve/execv/execvp/execvpe), but never by a forked child. A process
 * killed by a signal leaves it.
 *
 * This is a tool-side library (it runs inside a foreign process), so it may
 * print its trace; it never exits the process. */
#define _GNU_SOURCE
/* Define open/open64, stat/stat64… as separate symbols, not asm aliases. */
#undef _FILE_OFFSET_BITS
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <ftw.h>
#include <sys/types.h>
#include <unistd.h>

#include <libdrm/drm.h>
#include <libdrm/radeon_drm.h>

#include "lockstep/mesa_device.h"
#include "shim_kms.h"
#ifdef LOCKSTEP_HAVE_JIT
#include "lockstep/r500_jit.h"
#include "lockstep/r500_pvs_jit.h"
#endif

/* The render node and the primary node (/dev/dri/card0) of the one device. */
#define NODE "/dev/dri/renderD128"
#define CARD "/dev/dri/card0"
#define SYSDEV "/sys/dev/char/226:128/device"
#define SYSDEV_CARD "/sys/dev/char/226:0/device"
#define MAX_FDS 4096
#define MAX_BOS 4096

typedef struct bo {
    int memfd;      /* -1 when free */
    uint64_t size;
    uint32_t tiling_flags, pitch; /* GEM_SET_TILING */
    bool hung;      /* written by a CS that hung: busy until the reset */
} bo;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t once = PTHREAD_ONCE_INIT;
static uint8_t fake_fd[MAX_FDS]; /* 0: not ours; 1: the render node; 2: card0 */
static bo bos[MAX_BOS];
static unsigned pci_id = 0x71C2;
static char tmp_root[PATH_MAX];   /* holds dev_dri/ and sysfs/ mirrors; "" = none yet */
static pid_t tmp_owner;           /* the process that made it (a forked child does not own it) */
static bool tmp_failed;           /* mkdtemp failed: do not retry on every call */
static pthread_mutex_t tmp_lock = PTHREAD_MUTEX_INITIALIZER;
static bool trace;
static unsigned cs_count;
static bool exec_mode;            /* LOCKSTEP_SHIM_MODE=exec */
static uint64_t watchdog;         /* LOCKSTEP_SHIM_WATCHDOG, 0 = the library's default */
static r500_engine shim_engine;   /* LOCKSTEP_SHIM_ENGINE (default auto) */
static mesa_device_options model_opts; /* LOCKSTEP_SHIM_MODEL: .raster, .tx, .rb */
static uint32_t zpass_counter;    /* the ZB's ZPASS counter across submissions */
/* One ring: submissions execute one at a time, in the order they take it
 * (the ZPASS counter and the buffers they share) */
static pthread_mutex_t ring_lock = PTHREAD_MUTEX_INITIALIZER;
#ifdef LOCKSTEP_HAVE_JIT
/* The process's JIT engines (compile caches shared by every submission; made
 * in init, kept until the process ends: compiled code may run until then). */
static r500_jit_engine *fs_jit;
static r500_pvs_jit *vs_jit;
#endif
static bool lockup_pending;       /* a CS hung; the next wait or submission resets */
static unsigned lockup_cs;        /* ... which one */
static unsigned reset_count;      /* RADEON_INFO_GPU_RESET_COUNTER */

/* Real libc entry points. */
static int (*real_open)(const char *, int, ...);
static FILE *(*real_fopen)(const char *, const char *);
static int (*real_stat)(const char *, struct stat *);
static int (*real_fstat)(int, struct stat *);
static DIR *(*real_opendir)(const char *);
static ssize_t (*real_readlink)(const char *, char *, size_t);
static char *(*real_realpath)(const char *, char *);
static int (*real_access)(const char *, int);
static int (*real_ioctl)(int, unsigned long, ...);
static void *(*real_mmap)(void *, size_t, int, int, int, off_t);
static int (*real_fcntl)(int, int, ...);
static int (*real_dup)(int);
static int (*real_close)(int);
static int (*real_execve)(const char *, char *const[], char *const[]);
static int (*real_execv)(const char *, char *const[]);
static int (*real_execvp)(const char *, char *const[]);
static int (*real_execvpe)(const char *, char *const[], char *const[]);
static void (*real__exit)(int);

static void say(const char *fmt, ...)
{
    if (!trace)
        return;
    va_list ap;
    va_start(ap, fmt);
    fputs("[lockstep-shim] ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

/* What the kernel would write to its log (a refused CS, a lockup): always on
 * stderr, one line each. */
static void klog(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void klog(const char *fmt, ...)
{
    char line[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    fprintf(stderr, "[lockstep-shim] %s\n", line);
}

static void write_text(const char *rel, const char *text)
{
    char p[PATH_MAX + 64];
    snprintf(p, sizeof p, "%s/%s", tmp_root, rel);
    int fd = real_open(p, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd >= 0) {
        ssize_t r = write(fd, text, strlen(text));
        (void)r;
        real_close(fd);
    }
}

static void init(void)
{
    real_open = dlsym(RTLD_NEXT, "open");
    real_fopen = dlsym(RTLD_NEXT, "fopen");
    real_stat = dlsym(RTLD_NEXT, "stat");
    real_fstat = dlsym(RTLD_NEXT, "fstat");
    real_opendir = dlsym(RTLD_NEXT, "opendir");
    real_readlink = dlsym(RTLD_NEXT, "readlink");
    real_realpath = dlsym(RTLD_NEXT, "realpath");
    real_access = dlsym(RTLD_NEXT, "access");
    real_ioctl = dlsym(RTLD_NEXT, "ioctl");
    real_mmap = dlsym(RTLD_NEXT, "mmap");
    real_fcntl = dlsym(RTLD_NEXT, "fcntl");
    real_dup = dlsym(RTLD_NEXT, "dup");
    real_close = dlsym(RTLD_NEXT, "close");
    real_execve = dlsym(RTLD_NEXT, "execve");
    real_execv = dlsym(RTLD_NEXT, "execv");
    real_execvp = dlsym(RTLD_NEXT, "execvp");
    real_execvpe = dlsym(RTLD_NEXT, "execvpe");
    real__exit = dlsym(RTLD_NEXT, "_exit");
    trace = getenv("LOCKSTEP_SHIM_TRACE") != NULL;
    const char *mode = getenv("LOCKSTEP_SHIM_MODE");
    exec_mode = mode && !strcmp(mode, "exec");
    const char *wd = getenv("LOCKSTEP_SHIM_WATCHDOG");
    if (wd && *wd)
        watchdog = strtoull(wd, NULL, 0);
    const char *eng = getenv("LOCKSTEP_SHIM_ENGINE");
    shim_engine = !eng || !*eng || !strcmp(eng, "auto") ? R500_ENGINE_AUTO
                  : !strcmp(eng, "jit")                  ? R500_ENGINE_JIT
                                                         : R500_ENGINE_INTERP;
#ifdef LOCKSTEP_HAVE_JIT
    if (shim_engine != R500_ENGINE_INTERP && exec_mode)
        fs_jit = r500_jit_engine_new();
    if (shim_engine == R500_ENGINE_JIT && exec_mode)
        vs_jit = r500_pvs_jit_new();
#endif
    mesa_device_options_default(&model_opts);
    const char *model = getenv("LOCKSTEP_SHIM_MODEL");
    ls_diag md;
    if (model && mesa_device_model_list(&model_opts, model, &md) != LS_OK) {
        klog("LOCKSTEP_SHIM_MODEL: %s; the defaults stand", md.msg);
        mesa_device_options_default(&model_opts);
    }
    const char *chip = getenv("LOCKSTEP_SHIM_CHIP");
    if (chip && *chip) {
        if (!strcasecmp(chip, "rv515"))
            pci_id = 0x7140;
        else if (!strcasecmp(chip, "r520"))
            pci_id = 0x7100;
        else if (!strcasecmp(chip, "rv530"))
            pci_id = 0x71C2;
        else if (!strcasecmp(chip, "r580"))
            pci_id = 0x7240;
        else
            pci_id = (unsigned)strtoul(chip, NULL, 16);
    }
    for (unsigned i = 0; i < MAX_BOS; i++)
        bos[i].memfd = -1;
}

static void cleanup_at_exit(void);

/* A private mirror of the sysfs files libdrm reads (mesa-capture.md §1.1),
 * made on first use. Called with tmp_lock held. */
static void make_mirror(void)
{
    if (tmp_root[0] || tmp_failed)
        return;
    static bool registered;
    if (!registered) {
        registered = atexit(cleanup_at_exit) == 0;
    }
    const char *t = getenv("LOCKSTEP_SHIM_DIR"); /* lockstep mesa exec's private directory */
    if (!t || !*t || real_access(t, W_OK | X_OK) != 0)
        t = getenv("XDG_RUNTIME_DIR");
    if (!t || !*t || real_access(t, W_OK | X_OK) != 0)
        t = getenv("TMPDIR");
    if (!t || !*t || real_access(t, W_OK | X_OK) != 0)
        t = "/tmp";
    snprintf(tmp_root, sizeof tmp_root, "%s/lockstep-shim-XXXXXX", t);
    if (!mkdtemp(tmp_root)) {
        tmp_root[0] = 0;
        tmp_failed = true;
        return;
    }
    tmp_owner = getpid();
    char p[PATH_MAX + 64], buf[128];
    snprintf(p, sizeof p, "%s/dev_dri", tmp_root);
    mkdir(p, 0755);
    write_text("dev_dri/renderD128", "");
    write_text("dev_dri/card0", "");
    snprintf(p, sizeof p, "%s/sysfs", tmp_root);
    mkdir(p, 0755);
    snprintf(p, sizeof p, "%s/sysfs/drm", tmp_root);
    mkdir(p, 0755);
    write_text("sysfs/uevent", "DRIVER=radeon\nPCI_SLOT_NAME=0000:01:00.0\n");
    write_text("sysfs/vendor", "0x1002\n");
    snprintf(buf, sizeof buf, "0x%04x\n", pci_id);
    write_text("sysfs/device", buf);
    write_text("sysfs/subsystem_vendor", "0x1002\n");
    write_text("sysfs/subsystem_device", "0x0000\n");
    write_text("sysfs/revision", "0x00\n");
    say("mirror: faking " NODE " and " CARD " as PCI 1002:%04x (mirror %s)", pci_id, tmp_root);
}

static void ensure(void) { pthread_once(&once, init); }

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st, (void)ftw;
    return flag == FTW_DP ? rmdir(path) : unlink(path), 0;
}

/* Remove the mirror (everything under it), if this process made it. At exit
 * it is not made again (tmp_failed); before an exec it is, if the exec fails. */
static void cleanup_mirror(bool final)
{
    if (!tmp_root[0] || tmp_owner != getpid())
        return; /* nothing made, or a forked child's (tmp_lock may be held in it) */
    pthread_mutex_lock(&tmp_lock);
    if (final)
        tmp_failed = true;
    if (tmp_root[0] && tmp_owner == getpid()) {
        nftw(tmp_root, remove_one, 8, FTW_DEPTH | FTW_PHYS);
        say("removed the mirror %s", tmp_root);
        tmp_root[0] = 0; /* made again if the process still needs it */
    }
    pthread_mutex_unlock(&tmp_lock);
}

/* With LOCKSTEP_SHIM_ENGINE=jit (or auto, when a fragment run used the JIT)
 * and LOCKSTEP_SHIM_TRACE: what the JIT engines did. */
static void say_jit_counts(void)
{
#ifdef LOCKSTEP_HAVE_JIT
    if (!fs_jit)
        return;
    size_t hits, n = r500_jit_engine_cached(fs_jit, &hits);
    r500_pvs_jit_counts c = {0};
    if (vs_jit)
        r500_pvs_jit_get_counts(vs_jit, &c);
    else if (!n && !hits)
        return;
    say("engine jit: fragment programs %zu compiled, %zu cache hits; vertex programs %zu "
        "compiled, %zu cache hits, %zu left to the interpreter (%zu runs)",
        n, hits, c.compiled, c.hits, c.interp_programs, c.interp_runs);
#endif
}

static void cleanup_at_exit(void) { cleanup_mirror(true); }
__attribute__((destructor)) static void fini(void)
{
    say_jit_counts();
    cleanup_mirror(true);
}

/* _exit (a shell's way out, a child after fork) runs no destructors either. */
void _exit(int status)
{
    ensure();
    cleanup_mirror(true);
    real__exit(status);
    __builtin_unreachable();
}
void _Exit(int status) { _exit(status); }

/* exec replaces the process without running destructors or atexit handlers. */
int execve(const char *path, char *const argv[], char *const envp[])
{
    ensure();
    cleanup_mirror(false);
    return real_execve(path, argv, envp);
}
int execv(const char *path, char *const argv[])
{
    ensure();
    cleanup_mirror(false);
    return real_execv(path, argv);
}
int execvp(const char *file, char *const argv[])
{
    ensure();
    cleanup_mirror(false);
    return real_execvp(file, argv);
}
int execvpe(const char *file, char *const argv[], char *const envp[])
{
    ensure();
    cleanup_mirror(false);
    return real_execvpe(file, argv, envp);
}

/* Map a faked path to its mirror (made on first use); NULL when the path is
 * not ours. */
static const char *redirect(const char *path, char *out, size_t n)
{
    if (!path)
        return NULL;
    size_t l = strlen(SYSDEV);
    bool sys = !strncmp(path, SYSDEV, l) && (path[l] == 0 || path[l] == '/');
    if (!sys) { /* the primary node's device directory is the same device */
        l = strlen(SYSDEV_CARD);
        sys = !strncmp(path, SYSDEV_CARD, l) && (path[l] == 0 || path[l] == '/');
    }
    bool dri = !strcmp(path, "/dev/dri") || !strcmp(path, "/dev/dri/");
    if (!sys && !dri)
        return NULL;
    pthread_mutex_lock(&tmp_lock);
    make_mirror();
    bool ok = tmp_root[0] != 0;
    if (ok && sys)
        snprintf(out, n, "%s/sysfs%s", tmp_root, path + l);
    else if (ok)
        snprintf(out, n, "%s/dev_dri", tmp_root);
    pthread_mutex_unlock(&tmp_lock);
    return ok ? out : NULL;
}

static uint8_t fake_kind(int fd)
{
    pthread_mutex_lock(&lock);
    uint8_t r = fd >= 0 && fd < MAX_FDS ? fake_fd[fd] : 0;
    pthread_mutex_unlock(&lock);
    return r;
}
static bool is_fake(int fd) { return fake_kind(fd) != 0; }

static void mark(int fd, uint8_t v)
{
    if (fd < 0 || fd >= MAX_FDS)
        return;
    pthread_mutex_lock(&lock);
    fake_fd[fd] = v;
    pthread_mutex_unlock(&lock);
}

static bool is_node(const char *path) { return path && (!strcmp(path, NODE) || !strcmp(path, CARD)); }

/* The node's minor: 128 for the render node, 0 for card0 (libdrm takes the
 * node type from it). */
static void fake_node_stat(struct stat *st, unsigned minor)
{
    memset(st, 0, sizeof *st);
    st->st_mode = S_IFCHR | 0666;
    st->st_rdev = makedev(226, minor);
}

static int do_open(const char *path, int flags, mode_t mode)
{
    ensure();
    if (is_node(path)) {
        int fd = real_open("/dev/null", O_RDWR | (flags & O_CLOEXEC));
        mark(fd, !strcmp(path, NODE) ? 1 : 2);
        say("open %s -> fd %d", path, fd);
        return fd;
    }
    char buf[PATH_MAX + 64];
    const char *r = redirect(path, buf, sizeof buf);
    return real_open(r ? r : path, flags, mode);
}

#define OPEN_MODE(flags, mode)                                                     \
    mode_t mode = 0;                                                               \
    if ((flags) & (O_CREAT | O_TMPFILE)) {                                         \
        va_list ap;                                                                \
        va_start(ap, flags);                                                       \
        mode = (mode_t)va_arg(ap, int);                                            \
        va_end(ap);                                                                \
    }

int open(const char *path, int flags, ...)
{
    OPEN_MODE(flags, mode)
    return do_open(path, flags, mode);
}
int open64(const char *path, int flags, ...)
{
    OPEN_MODE(flags, mode)
    return do_open(path, flags, mode);
}
int __open_2(const char *path, int flags) { return do_open(path, flags, 0); }
int __open64_2(const char *path, int flags) { return do_open(path, flags, 0); }

FILE *fopen(const char *path, const char *m)
{
    ensure();
    char buf[PATH_MAX + 64];
    const char *r = redirect(path, buf, sizeof buf);
    return real_fopen(r ? r : path, m);
}
FILE *fopen64(const char *path, const char *m) { return fopen(path, m); }

int stat(const char *path, struct stat *st)
{
    ensure();
    if (is_node(path)) {
        fake_node_stat(st, !strcmp(path, NODE) ? 128 : 0);
        return 0;
    }
    char buf[PATH_MAX + 64];
    const char *r = redirect(path, buf, sizeof buf);
    return real_stat(r ? r : path, st);
}
int stat64(const char *path, struct stat64 *st) { return stat(path, (struct stat *)st); }

int fstat(int fd, struct stat *st)
{
    ensure();
    uint8_t k = fake_kind(fd);
    if (k) {
        fake_node_stat(st, k == 1 ? 128 : 0);
        return 0;
    }
    return real_fstat(fd, st);
}
int fstat64(int fd, struct stat64 *st) { return fstat(fd, (struct stat *)st); }

DIR *opendir(const char *path)
{
    ensure();
    char buf[PATH_MAX + 64];
    const char *r = redirect(path, buf, sizeof buf);
    return real_opendir(r ? r : path);
}

ssize_t readlink(const char *path, char *out, size_t n)
{
    ensure();
    if (!strcmp(path, SYSDEV "/subsystem") || !strcmp(path, SYSDEV_CARD "/subsystem")) {
        /* libdrm wants the link to end in "/pci" (mesa-capture.md §1.1) */
        const char *t = "../../../bus/pci";
        size_t l = strlen(t) < n ? strlen(t) : n;
        memcpy(out, t, l);
        return (ssize_t)l;
    }
    return real_readlink(path, out, n);
}

char *realpath(const char *path, char *out)
{
    ensure();
    if (path && (!strncmp(path, SYSDEV, strlen(SYSDEV)) ||
                 !strncmp(path, SYSDEV_CARD, strlen(SYSDEV_CARD)))) {
        if (!out)
            return strdup(path);
        snprintf(out, PATH_MAX, "%s", path);
        return out;
    }
    return real_realpath(path, out);
}

int access(const char *path, int m)
{
    ensure();
    if (is_node(path))
        return 0;
    char buf[PATH_MAX + 64];
    const char *r = redirect(path, buf, sizeof buf);
    return real_access(r ? r : path, m);
}

int dup(int fd)
{
    ensure();
    int n = real_dup(fd);
    uint8_t k = n >= 0 ? fake_kind(fd) : 0;
    if (k) {
        mark(n, k);
        say("dup fd %d -> %d", fd, n);
    }
    return n;
}

static int do_fcntl(int fd, int cmd, long arg)
{
    ensure();
    int n = real_fcntl(fd, cmd, arg);
    uint8_t k = (cmd == F_DUPFD || cmd == F_DUPFD_CLOEXEC) && n >= 0 ? fake_kind(fd) : 0;
    if (k) {
        mark(n, k);
        say("fcntl dup fd %d -> %d", fd, n);
    }
    return n;
}
int fcntl(int fd, int cmd, ...)
{
    va_list ap;
    va_start(ap, cmd);
    long arg = va_arg(ap, long);
    va_end(ap);
    return do_fcntl(fd, cmd, arg);
}
int fcntl64(int fd, int cmd, ...)
{
    va_list ap;
    va_start(ap, cmd);
    long arg = va_arg(ap, long);
    va_end(ap);
    return do_fcntl(fd, cmd, arg);
}

int close(int fd)
{
    ensure();
    if (is_fake(fd)) {
        mark(fd, 0);
        say("close fd %d", fd);
    }
    return real_close(fd);
}

void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
    ensure();
    if (is_fake(fd)) {
        /* GEM_MMAP hands out offset = handle << 32 */
        uint64_t h = (uint64_t)off >> 32;
        pthread_mutex_lock(&lock);
        int memfd = h < MAX_BOS ? bos[h].memfd : -1;
        pthread_mutex_unlock(&lock);
        if (memfd < 0) {
            errno = EINVAL;
            return MAP_FAILED;
        }
        return real_mmap(addr, len, prot, flags, memfd, (off_t)((uint64_t)off & 0xFFFFFFFFu));
    }
    return real_mmap(addr, len, prot, flags, fd, off);
}
void *mmap64(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
    return mmap(addr, len, prot, flags, fd, off);
}

static void dump(const char *ext, unsigned n, const void *p, size_t bytes)
{
    const char *dir = getenv("LOCKSTEP_SHIM_OUT");
    if (exec_mode && (!dir || !*dir))
        return; /* the device records nothing unless asked */
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/cs_%04u.%s", dir && *dir ? dir : ".", n, ext);
    int fd = real_open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0)
        return;
    ssize_t r = write(fd, p, bytes);
    (void)r;
    real_close(fd);
}

/* LOCKSTEP_SHIM_BOS set: the contents of every buffer object the CS
 * relocates, at submit time, as cs_NNNN.bo_K (K = relocation index; the
 * relocation chunk is 4 dwords a relocation, handle first: radeon_drm.h
 * drm_radeon_cs_reloc). Bounded: a buffer larger than LOCKSTEP_SHIM_BO_MAX
 * bytes (default 16 MiB) and relocations past the 4096th are not saved.
 * In exec mode the same buffers are saved again once the device has executed
 * the CS, as cs_NNNN.after_K (what the submission left in them; prefix
 * "after"): a replay of cs_NNNN with its .bo_K (`lockstep r500 draw
 * --buffers-out`) must leave exactly these bytes. */
static void dump_bos(unsigned n, const uint32_t *rel, uint32_t len_dw, const char *prefix)
{
    const char *m = getenv("LOCKSTEP_SHIM_BO_MAX");
    uint64_t max = m && *m ? strtoull(m, NULL, 0) : (16u << 20);
    char ext[32];
    for (uint32_t k = 0; k < len_dw / 4 && k < 4096; k++) {
        uint32_t h = rel[4 * k];
        pthread_mutex_lock(&lock);
        int fd = h < MAX_BOS ? bos[h].memfd : -1;
        uint64_t size = h < MAX_BOS ? bos[h].size : 0;
        void *buf = NULL;
        if (fd >= 0 && size && size <= max && (buf = malloc((size_t)size)) != NULL) {
            ssize_t r = pread(fd, buf, (size_t)size, 0);
            if (r < 0)
                r = 0;
            if ((uint64_t)r < size)
                memset((char *)buf + r, 0, (size_t)(size - (uint64_t)r));
        }
        pthread_mutex_unlock(&lock);
        if (!buf)
            continue;
        snprintf(ext, sizeof ext, "%s_%u", prefix, k);
        dump(ext, n, buf, (size_t)size);
        free(buf);
    }
}

static int fail(int e)
{
    errno = e;
    return -1;
}

static int radeon_info(struct drm_radeon_info *in)
{
    uint32_t *v = (uint32_t *)(uintptr_t)in->value;
    say("RADEON_INFO request 0x%02x", in->request);
    switch (in->request) {
    case RADEON_INFO_DEVICE_ID: *v = pci_id; return 0;
    /* the kernel's r420_pipes_init reads ((GB_PIPE_SELECT >> 12) & 3) + 1: at
     * most 4 (r300_emit_query_end_frag_pipes aborts on more) */
    case RADEON_INFO_NUM_GB_PIPES: *v = (pci_id == 0x7240 || pci_id == 0x7100) ? 4 : pci_id == 0x71C2 ? 2 : 1; return 0;
    case RADEON_INFO_NUM_Z_PIPES: *v = 1; return 0;
    case RADEON_INFO_ACCEL_WORKING2: *v = 1; return 0;
    case 0x10: /* MAX_PIPES */ *v = 1; return 0;
    case 0x15: /* RING_WORKING */ *v = 0; return 0;
    case 0x1a: /* MAX_SCLK */ *v = 500000; return 0;
    case 0x26: /* GPU_RESET_COUNTER */
        pthread_mutex_lock(&lock);
        *v = reset_count;
        pthread_mutex_unlock(&lock);
        return 0;
    case RADEON_INFO_WANT_HYPERZ:
    case RADEON_INFO_WANT_CMASK: *v = 0; return 0;
    default: return fail(EINVAL);
    }
}

/* A GPU reset after a lockup (the kernel's radeon_gpu_reset, reached through
 * radeon_cs_handle_lockup / radeon_gem_handle_lockup): the hung buffers are
 * idle again, the reset counter advances, and the ioctl that found the
 * lockup fails with EAGAIN. Called with lock held. */
static int gpu_reset_locked(const char *who)
{
    klog("GPU reset (lockup of CS %u, found by %s); the ioctl fails with EAGAIN", lockup_cs, who);
    lockup_pending = false;
    reset_count++;
    for (unsigned h = 0; h < MAX_BOS; h++)
        bos[h].hung = false;
    errno = EAGAIN;
    return -1;
}

/* Exec mode: resolve the relocations to the buffer objects (mapped for the
 * call), check as the kernel checks, execute; a refused CS fails with the
 * kernel's errno, a hang leaves the buffers busy until the next wait resets
 * the GPU. */
static int device_submit(unsigned n, const uint32_t *ib, uint32_t ib_dw, const uint32_t *rel,
                         uint32_t rel_dw, const uint32_t *flags, uint32_t flags_dw)
{
    pthread_mutex_lock(&lock);
    if (lockup_pending) {
        int r = gpu_reset_locked("the next DRM_RADEON_CS");
        pthread_mutex_unlock(&lock);
        return r;
    }
    pthread_mutex_unlock(&lock);
    size_t nrel = rel ? rel_dw / 4 : 0;
    mesa_device_bo *db = calloc(nrel ? nrel : 1, sizeof *db);
    if (!db)
        return fail(ENOMEM);
    for (size_t k = 0; k < nrel; k++) {
        uint32_t h = rel[4 * k];
        pthread_mutex_lock(&lock);
        int fd = h < MAX_BOS ? bos[h].memfd : -1;
        uint64_t size = h < MAX_BOS ? bos[h].size : 0;
        uint32_t tiling = h < MAX_BOS ? bos[h].tiling_flags : 0;
        pthread_mutex_unlock(&lock);
        if (fd < 0)
            continue; /* no such object: the checker's ENOENT */
        void *m = size ? real_mmap(NULL, (size_t)size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0)
                       : MAP_FAILED;
        /* an empty object still exists: point at a harmless byte */
        static uint8_t empty;
        db[k].data = m == MAP_FAILED ? &empty : m;
        db[k].size = m == MAP_FAILED ? 0 : size;
        db[k].tiling_flags = tiling;
    }
    mesa_device_options o;
    mesa_device_options_default(&o);
    mesa_chip_family fam;
    if (mesa_chip_family_of(pci_id, &fam))
        o.check.family = fam;
    if (watchdog) {
        o.exec.pvs.watchdog = watchdog;
        o.fs_watchdog = watchdog;
    }
    o.zpass_counter = &zpass_counter;
    o.raster = model_opts.raster;
    o.tx = model_opts.tx;
    o.rb = model_opts.rb;
    if (shim_engine == R500_ENGINE_AUTO) {
#ifdef LOCKSTEP_HAVE_JIT
        if (fs_jit) { /* vertices: the interpreter; fragment runs: by size */
            o.fs_engine = R500_ENGINE_AUTO;
            o.fs_jit = r500_jit_engine_ops(fs_jit);
        }
#endif
    } else if (shim_engine == R500_ENGINE_JIT) {
#ifdef LOCKSTEP_HAVE_JIT
        if (fs_jit && vs_jit) {
            o.exec.pvs.engine = R500_ENGINE_JIT;
            o.exec.pvs.jit = r500_pvs_jit_ops(vs_jit);
            o.fs_engine = R500_ENGINE_JIT;
            o.fs_jit = r500_jit_engine_ops(fs_jit);
        }
#else
        static bool told;
        if (!told)
            klog("LOCKSTEP_SHIM_ENGINE=jit: this shim is built without the JIT; the interpreter runs");
        told = true;
#endif
    }
    /* WANT_HYPERZ / WANT_CMASK are answered "denied": this client owns neither */
    mesa_cs_submit sub = {ib, ib_dw, rel, rel_dw, flags, flags_dw, NULL, 0};
    mesa_submit_result r;
    ls_diag d;
    pthread_mutex_lock(&ring_lock);
    ls_status st = mesa_device_submit(&sub, db, nrel, &o, &r, &d);
    pthread_mutex_unlock(&ring_lock);
    for (size_t k = 0; k < nrel; k++)
        if (db[k].size)
            munmap(db[k].data, (size_t)db[k].size);
    free(db);
    char line[700];
    if (st != LS_OK) {
        ls_diag_format(&d, line, sizeof line);
        klog("CS %u: lockstep failed: %s", n, line);
        return fail(ENOMEM);
    }
    switch (r.outcome) {
    case MESA_SUBMIT_REFUSED:
        ls_diag_format(&r.diag, line, sizeof line);
        klog("CS %u refused (%s): %s", n, r.err == ENOENT ? "ENOENT" : "EINVAL", line);
        return fail(r.err);
    case MESA_SUBMIT_HANG:
        ls_diag_format(&r.diag, line, sizeof line);
        klog("GPU lockup: CS %u hung at the draw packet at dword %ld: %s", n, r.hang_packet, line);
        pthread_mutex_lock(&lock);
        lockup_pending = true;
        lockup_cs = n;
        for (size_t k = 0; k < nrel; k++)
            if (rel[4 * k] < MAX_BOS)
                bos[rel[4 * k]].hung = true;
        pthread_mutex_unlock(&lock);
        return 0; /* the kernel accepted and queued it; the lockup shows at the next wait */
    case MESA_SUBMIT_DONE:
        if (r.draws_stopped) {
            ls_diag_format(&r.diag, line, sizeof line);
            klog("CS %u: %zu of %zu draws not executed (the model stops them): %s", n,
                 r.draws_stopped, r.draws, line);
        }
        say("CS %u executed: %zu draws", n, r.draws);
        return 0;
    }
    return 0;
}

static int radeon_cs(struct drm_radeon_cs *cs)
{
    pthread_mutex_lock(&lock);
    unsigned n = cs_count++;
    pthread_mutex_unlock(&lock);
    const uint64_t *chunks = (const uint64_t *)(uintptr_t)cs->chunks;
    const uint32_t *ib = NULL, *rel = NULL, *flags = NULL;
    uint32_t ib_dw = 0, rel_dw = 0, flags_dw = 0;
    for (unsigned i = 0; i < cs->num_chunks; i++) {
        const struct drm_radeon_cs_chunk *c =
            (const struct drm_radeon_cs_chunk *)(uintptr_t)chunks[i];
        const char *ext = c->chunk_id == RADEON_CHUNK_ID_IB       ? "ib"
                          : c->chunk_id == RADEON_CHUNK_ID_RELOCS ? "relocs"
                          : c->chunk_id == RADEON_CHUNK_ID_FLAGS  ? "flags"
                                                                  : NULL;
        const uint32_t *data = (const uint32_t *)(uintptr_t)c->chunk_data;
        if (c->chunk_id == RADEON_CHUNK_ID_IB)
            ib = data, ib_dw = c->length_dw;
        else if (c->chunk_id == RADEON_CHUNK_ID_RELOCS)
            rel = data, rel_dw = c->length_dw;
        else if (c->chunk_id == RADEON_CHUNK_ID_FLAGS)
            flags = data, flags_dw = c->length_dw;
        say("CS %u chunk %u id %u len %u dw", n, i, c->chunk_id, c->length_dw);
        if (ext)
            dump(ext, n, data, (size_t)c->length_dw * 4);
        if (c->chunk_id == RADEON_CHUNK_ID_RELOCS && getenv("LOCKSTEP_SHIM_BOS"))
            dump_bos(n, data, c->length_dw, "bo");
    }
    if (exec_mode) {
        int r = device_submit(n, ib, ib_dw, rel, rel_dw, flags, flags_dw);
        int e = errno;
        if (rel && getenv("LOCKSTEP_SHIM_BOS"))
            dump_bos(n, rel, rel_dw, "after");
        errno = e;
        return r;
    }
    return 0;
}

static int fake_ioctl(unsigned long req, void *arg)
{
    unsigned nr = _IOC_NR(req);
    /* core ioctls are below DRM_COMMAND_BASE and from DRM_COMMAND_END on
     * (the mode-setting ones, 0xA0...) */
    if (nr < DRM_COMMAND_BASE || nr >= DRM_COMMAND_END) {
        switch (nr) {
        case 0x00: { /* VERSION: 2.50 ("kernel 4.12", mesa-capture.md §1.4) */
            struct drm_version *v = arg;
            v->version_major = 2;
            v->version_minor = 50;
            v->version_patchlevel = 0;
            static const char name[] = "radeon", date[] = "20080528", desc[] = "lockstep fake radeon";
            if (v->name && v->name_len)
                memcpy(v->name, name, v->name_len < sizeof name ? v->name_len : sizeof name);
            if (v->date && v->date_len)
                memcpy(v->date, date, v->date_len < sizeof date ? v->date_len : sizeof date);
            if (v->desc && v->desc_len)
                memcpy(v->desc, desc, v->desc_len < sizeof desc ? v->desc_len : sizeof desc);
            v->name_len = sizeof name - 1;
            v->date_len = sizeof date - 1;
            v->desc_len = sizeof desc - 1;
            return 0;
        }
        case 0x09: { /* GEM_CLOSE */
            struct drm_gem_close *g = arg;
            pthread_mutex_lock(&lock);
            if (g->handle < MAX_BOS && bos[g->handle].memfd >= 0) {
                real_close(bos[g->handle].memfd);
                bos[g->handle].memfd = -1;
            }
            pthread_mutex_unlock(&lock);
            return 0;
        }
        case 0x0c: { /* GET_CAP */
            struct drm_get_cap *c = arg;
            c->value = 0;
            return 0;
        }
        default: {
            int r;
            if (shim_kms_ioctl(nr, arg, &r)) { /* the display: shim_kms.c */
                say("KMS ioctl 0x%02x -> %d", nr, r);
                return r;
            }
            say("core ioctl 0x%02x unsupported", nr);
            return fail(EINVAL);
        }
        }
    }
    switch (nr - DRM_COMMAND_BASE) {
    case DRM_RADEON_INFO: return radeon_info(arg);
    case DRM_RADEON_GEM_USERPTR: return fail(EINVAL); /* "no userptr" */
    case DRM_RADEON_GEM_INFO: {
        struct drm_radeon_gem_info *g = arg;
        g->gart_size = 256u << 20;
        g->vram_size = 256u << 20;
        g->vram_visible = 256u << 20;
        return 0;
    }
    case DRM_RADEON_GEM_CREATE: {
        struct drm_radeon_gem_create *g = arg;
        int memfd = memfd_create("lockstep-bo", MFD_CLOEXEC);
        if (memfd < 0 || ftruncate(memfd, (off_t)g->size) != 0) {
            if (memfd >= 0)
                real_close(memfd);
            return fail(ENOMEM);
        }
        pthread_mutex_lock(&lock);
        unsigned h = 1;
        while (h < MAX_BOS && bos[h].memfd >= 0)
            h++;
        if (h < MAX_BOS) {
            bos[h] = (bo){memfd, g->size, 0, 0, false};
        }
        pthread_mutex_unlock(&lock);
        if (h >= MAX_BOS) {
            real_close(memfd);
            return fail(ENOMEM);
        }
        g->handle = h;
        say("GEM_CREATE size %llu domain %u -> handle %u", (unsigned long long)g->size,
            g->initial_domain, h);
        return 0;
    }
    case DRM_RADEON_GEM_MMAP: {
        struct drm_radeon_gem_mmap *g = arg;
        g->addr_ptr = (uint64_t)g->handle << 32;
        return 0;
    }
    case DRM_RADEON_GEM_WAIT_IDLE: {
        /* Execution finished inside DRM_RADEON_CS: every buffer is idle,
         * unless a CS hung; then the wait finds the lockup and resets
         * (radeon_gem_wait_idle_ioctl -> radeon_gem_handle_lockup). */
        pthread_mutex_lock(&lock);
        int r = lockup_pending ? gpu_reset_locked("GEM_WAIT_IDLE") : 0;
        pthread_mutex_unlock(&lock);
        return r;
    }
    case DRM_RADEON_GEM_BUSY: {
        /* busy (EBUSY, radeon_gem_busy_ioctl) only while a hung CS holds it */
        struct drm_radeon_gem_busy *g = arg;
        pthread_mutex_lock(&lock);
        bool busy = g->handle < MAX_BOS && bos[g->handle].memfd >= 0 && bos[g->handle].hung;
        pthread_mutex_unlock(&lock);
        g->domain = RADEON_GEM_DOMAIN_VRAM;
        return busy ? fail(EBUSY) : 0;
    }
    case DRM_RADEON_GEM_SET_TILING: {
        struct drm_radeon_gem_set_tiling *g = arg;
        pthread_mutex_lock(&lock);
        bool ok = g->handle < MAX_BOS && bos[g->handle].memfd >= 0;
        if (ok) {
            bos[g->handle].tiling_flags = g->tiling_flags;
            bos[g->handle].pitch = g->pitch;
        }
        pthread_mutex_unlock(&lock);
        say("GEM_SET_TILING handle %u flags 0x%x pitch %u", g->handle, g->tiling_flags, g->pitch);
        return ok ? 0 : fail(ENOENT);
    }
    case DRM_RADEON_GEM_SET_DOMAIN:
        return 0;
    case DRM_RADEON_GEM_GET_TILING: {
        struct drm_radeon_gem_get_tiling *g = arg;
        pthread_mutex_lock(&lock);
        bool ok = g->handle < MAX_BOS && bos[g->handle].memfd >= 0;
        g->tiling_flags = ok ? bos[g->handle].tiling_flags : 0;
        g->pitch = ok ? bos[g->handle].pitch : 0;
        pthread_mutex_unlock(&lock);
        return ok ? 0 : fail(ENOENT);
    }
    case DRM_RADEON_CS: return radeon_cs(arg);
    default:
        say("radeon ioctl 0x%02x unsupported", nr - DRM_COMMAND_BASE);
        return fail(EINVAL);
    }
}

int shim_bo_memfd(uint32_t handle, int *memfd, uint64_t *size)
{
    pthread_mutex_lock(&lock);
    bool ok = handle < MAX_BOS && bos[handle].memfd >= 0;
    if (ok) {
        *memfd = bos[handle].memfd;
        *size = bos[handle].size;
    }
    pthread_mutex_unlock(&lock);
    return ok ? 0 : -1;
}

/* read() on the device returns its pending events (page flips: shim_kms.c);
 * with none, the /dev/null behind the fd answers. */
ssize_t read(int fd, void *buf, size_t n)
{
    static ssize_t (*real_read)(int, void *, size_t);
    if (!real_read)
        real_read = dlsym(RTLD_NEXT, "read");
    if (fake_kind(fd)) {
        bool handled;
        ssize_t r = shim_kms_read(buf, n, &handled);
        if (handled)
            return r;
    }
    return real_read(fd, buf, n);
}

int ioctl(int fd, unsigned long req, ...)
{
    va_list ap;
    va_start(ap, req);
    void *arg = va_arg(ap, void *);
    va_end(ap);
    ensure();
    if (is_fake(fd)) {
        say("ioctl fd %d nr 0x%02x", fd, (unsigned)_IOC_NR(req));
        return fake_ioctl(req, arg);
    }
    return real_ioctl(fd, req, arg);
}
