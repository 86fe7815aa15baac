/* The memory floor of a `lockstep mesa bench` run: the time to copy an N×N
 * RGBA32F image (the size of the varying image such a run reads) into another
 * (the size of the render target it writes) on T threads, each thread a
 * stripe of rows. No engine can run a program over the window in less (the
 * JIT on a program of one instruction comes close; docs/r500-jit.md,
 * "Speed"). The mean of R copies after one untimed copy, wall and process CPU
 * time, as `lockstep mesa bench` times its runs. Never part of make check.
 *
 * usage: bench_copy [--size N] [--threads T] [--reps R] */
#include <pthread.h>
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

/* one copy of the whole image on nt threads (this one included) */
static int copy_all(stripe *st, pthread_t *tid, unsigned nt)
{
    for (unsigned i = 1; i < nt; i++)
        if (pthread_create(&tid[i], NULL, copy_stripe, &st[i]))
            return -1;
    copy_stripe(&st[0]);
    for (unsigned i = 1; i < nt; i++)
        pthread_join(tid[i], NULL);
    return 0;
}

int main(int argc, char **argv)
{
    long size = 2048, reps = 10, threads = sysconf(_SC_NPROCESSORS_ONLN);
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--size") && i + 1 < argc)
            size = atol(argv[++i]);
        else if (!strcmp(argv[i], "--threads") && i + 1 < argc)
            threads = atol(argv[++i]);
        else if (!strcmp(argv[i], "--reps") && i + 1 < argc)
            reps = atol(argv[++i]);
        else {
            fprintf(stderr, "usage: bench_copy [--size N] [--threads T] [--reps R]\n");
            return 2;
        }
    }
    if (size < 1 || size > 16384 || threads < 1 || threads > 256 || reps < 1) {
        fprintf(stderr, "bench_copy: size 1..16384, threads 1..256, reps >= 1\n");
        return 2;
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
