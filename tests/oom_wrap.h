/*
 * oom_wrap.h — make the Nth host allocation fail, for the allocation
 * failure sweeps of test_oom_sweep.c. A test executable linked with
 * -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc,--wrap=aligned_alloc,
 * --wrap=strdup,--wrap=strndup routes the calls of its own objects and of the
 * static library through a counter; cJSON's allocations are routed there
 * by fm_install (cJSON_InitHooks). Counting is global over all threads
 * (the device threads included).
 */
#ifndef SS_TEST_OOM_WRAP_H
#define SS_TEST_OOM_WRAP_H

#include <stdbool.h>

/* Route cJSON through the counter (once, before any cJSON call). */
void fm_install(void);
/* Start counting from 0; the `nth` call from now fails (0: none fails). */
void fm_arm(long nth);
/* Stop failing; returns the calls counted since fm_arm. */
long fm_disarm(void);
/* Whether the armed failure happened. */
bool fm_failed(void);

#endif
