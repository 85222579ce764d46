/*
 * fuzz.h — what every libFuzzer target here shares: the entry points
 * libFuzzer calls and a NUL-terminated copy of the input (the parsers take C
 * strings). A target must never abort on any input: every finding (crash,
 * sanitizer report, leak, timeout, memory past -rss_limit_mb) is a bug.
 */
#ifndef SS_FUZZ_H
#define SS_FUZZ_H

#include "shardsim.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

/* The input as a malloc'd C string (an embedded NUL ends it early, as it
 * would for any caller passing C strings). NULL only when out of memory. */
static inline char *fuzz_text(const uint8_t *data, size_t size)
{
    char *s = malloc(size + 1);
    if (s) {
        memcpy(s, data, size);
        s[size] = '\0';
    }
    return s;
}

/* The mesh data=2 model=4 over 8 devices that the spec, rules and strategy
 * targets shard over. Aborts only if the library cannot make it, which is a
 * bug of the harness, not a finding. */
static inline ss_mesh *fuzz_mesh_2x4(void)
{
    ss_mesh *m = NULL;
    if (ss_mesh_make("data=2,model=4", 8, NULL, &m) != SS_OK)
        abort();
    return m;
}

/* Split `s` in place at its first newline: returns the rest (or "" when
 * there is none) and leaves the first line in `s`. */
static inline char *fuzz_split_line(char *s)
{
    char *nl = strchr(s, '\n');
    if (!nl)
        return s + strlen(s);
    *nl = '\0';
    return nl + 1;
}

/* Stop the fuzzer with a finding when an invariant fails. */
#define FUZZ_CHECK(cond)                                                        \
    do {                                                                       \
        if (!(cond))                                                           \
            __builtin_trap();                                                  \
    } while (0)

#endif
