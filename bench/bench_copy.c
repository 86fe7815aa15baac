/* The memory floor of a `lockstep mesa bench` run: the time to copy an N×N
 * RGBA32F image (the size of the varying image such a run reads) into another
 * (the size of the render target it writes) on T threads, each thread a
 * stripe of rows. No engine runs a program that reads a varying image over
 * the window in less (the JIT on a program of one instruction comes within
 * about 3×; docs/r500-jit.md, "Speed"). glibc's memcpy may use
 * non-temporal stores, which the engines' results copy does not: if
 * anything, the floor is lower than what an engine could reach. The mean of R copies after one untimed copy, wall and process CPU
 * time, as `lockstep mesa bench` times its runs. Never part of make check.
 *
 * usage: bench_copy [--size N] [--threads T] [--reps R] */
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

typedef struct stripe {
    const char *src;
    char *dst;
    size_t len;
} stripe;

static double clock_sec(clockid_t c)
{
    struct timespec ts;
    clock_gettime(c, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* n bytes in 2 MB pages where the host has them, as lockstep allocates its
 * images (src/base/buf.c, ls_alloc_image) */
static void *image_alloc(size_t n)
{
    const size_t huge = (size_t)2 << 20;
    n = (n + huge - 1) & ~(huge - 1);
    void *p = aligned_alloc(huge, n);
#ifdef MADV_HUGEPAGE
    if (p)
        madvise(p, n, MADV_HUGEPAGE);
#endif
    return p;
}

static void *copy_stripe(void *arg)
{
    const stripe *s = arg;
    memcpy(s->dst, s->src, s->len);
    return NULL;
}

/* one copy of the whole image on nt threads (this one included); -1: a
 * thread could not be started (those that were are joined) */
static int copy_all(stripe *st, pthread_t *tid, unsigned nt)
{
    unsigned started = 1;
    while (started < nt && !pthread_create(&tid[started], NULL, copy_stripe, &st[started]))
        started++;
    if (started == nt)
        copy_stripe(&st[0]);
    for (unsigned i = 1; i < started; i++)
        pthread_join(tid[i], NULL);
    return started == nt ? 0 : -1;
}

/* a whole decimal argument in [lo, hi]; false: not one */
static bool number(const char *s, long lo, long hi, long *v)
{
    char *end;
    errno = 0;
    long x = strtol(s, &end, 10);
    if (errno || end == s || *end || x < lo || x > hi)
        return false;
    *v = x;
    return true;
}

int main(int argc, char **argv)
{
    long size = 2048, reps = 10, threads = sysconf(_SC_NPROCESSORS_ONLN);
    if (threads < 1)
        threads = 1;
    for (int i = 1; i < argc; i += 2) {
        const char *o = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        bool ok = v != NULL;
        if (ok && !strcmp(o, "--size"))
            ok = number(v, 1, 16384, &size);
        else if (ok && !strcmp(o, "--threads"))
            ok = number(v, 1, 256, &threads);
        else if (ok && !strcmp(o, "--reps"))
            ok = number(v, 1, 1000000, &reps);
        else
            ok = false;
        if (!ok) {
            fprintf(stderr, "bench_copy: argument %d: %s%s%s: expected --size 1..16384, --threads "
                            "1..256 or --reps 1..1000000\n",
                    i, o, v ? " " : "", v ? v : "");
            return 2;
        }
    }
    const size_t rows = (size_t)size, row = (size_t)size * 4 * sizeof(float);
    char *src = image_alloc(rows * row), *dst = image_alloc(rows * row);
    stripe *st = calloc((size_t)threads, sizeof *st);
    pthread_t *tid = calloc((size_t)threads, sizeof *tid);
    if (!src || !dst || !st || !tid) {
        fprintf(stderr, "bench_copy: out of memory\n");
        return 1;
    }
    memset(src, 0x3f, rows * row);
    const unsigned nt = (unsigned)threads;
    for (unsigned i = 0; i < nt; i++) {
        size_t r0 = rows * i / nt, r1 = rows * (i + 1) / nt;
        st[i] = (stripe){src + r0 * row, dst + r0 * row, (r1 - r0) * row};
    }
    if (copy_all(st, tid, nt)) { /* untimed: the pages exist */
        fprintf(stderr, "bench_copy: cannot start a thread\n");
        return 1;
    }
    double w0 = clock_sec(CLOCK_MONOTONIC), c0 = clock_sec(CLOCK_PROCESS_CPUTIME_ID);
    for (long r = 0; r < reps; r++)
        if (copy_all(st, tid, nt)) {
            fprintf(stderr, "bench_copy: cannot start a thread\n");
            return 1;
        }
    double c1 = clock_sec(CLOCK_PROCESS_CPUTIME_ID), w1 = clock_sec(CLOCK_MONOTONIC);
    printf("bench_copy: %ldx%ld RGBA32F image copied on %u thread(s): %.6f s wall, %.6f s CPU "
           "(mean of %ld copies)\n",
           size, size, nt, (w1 - w0) / (double)reps, (c1 - c0) / (double)reps, reps);
    free(src);
    free(dst);
    free(st);
    free(tid);
    return 0;
}
