/* Helpers shared by the tests (cmocka). */
#ifndef LOCKSTEP_TEST_UTIL_H
#define LOCKSTEP_TEST_UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <cmocka.h>

/* Exit status meson treats as "skipped". */
#define LS_TEST_SKIP 77

/* The shared corpus directory ($LOCKSTEP_CORPUS, else ../shared/corpus beside
 * the source tree), or NULL if it is absent. */
static inline const char *ls_test_corpus(void)
{
    const char *c = getenv("LOCKSTEP_CORPUS");
    if (!c || !*c)
        c = getenv("LOCKSTEP_CORPUS_DEFAULT");
    struct stat st;
    if (!c || stat(c, &st) != 0 || !S_ISDIR(st.st_mode))
        return NULL;
    return c;
}

/* Call at the start of a corpus test: prints why and exits "skipped" when the
 * corpus is missing. */
static inline const char *ls_test_require_corpus(void)
{
    const char *c = ls_test_corpus();
    if (!c) {
        printf("SKIP: corpus not found: set LOCKSTEP_CORPUS or put shared/ beside the "
               "project (expected ../shared/corpus)\n");
        exit(LS_TEST_SKIP);
    }
    return c;
}

/* Project source root (for examples/, docs/). */
static inline const char *ls_test_source_root(void)
{
    const char *s = getenv("LOCKSTEP_SOURCE_ROOT");
    return s && *s ? s : ".";
}

/* Deterministic seed: $LOCKSTEP_SEED if set, else the given default. Tests
 * print the seed they use so a failure can be replayed. */
static inline uint64_t ls_test_seed(uint64_t dflt)
{
    const char *s = getenv("LOCKSTEP_SEED");
    uint64_t v = s && *s ? strtoull(s, NULL, 0) : dflt;
    printf("seed: 0x%llx (replay with LOCKSTEP_SEED=0x%llx)\n", (unsigned long long)v,
           (unsigned long long)v);
    return v;
}

/* splitmix64: small deterministic PRNG for property tests. */
static inline uint64_t ls_test_rand(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

#endif
