/*
 * fiber.h — stackful fibers: a device's function runs on a stack of its
 * own, and a worker thread switches between devices' stacks in user space
 * (a few nanoseconds) instead of the kernel switching between threads (a
 * few microseconds, and a futex call to wake each one).
 *
 * A fiber is resumed by ss__fiber_switch from any thread and runs until it
 * switches away again; it may resume on a different thread than it left.
 * x86-64 switches with a few instructions of our own (the callee-saved
 * registers, MXCSR and the x87 control word); other machines use
 * ucontext. Under AddressSanitizer and ThreadSanitizer every switch is
 * announced to the sanitizer, so the builds of CI check fiber code too.
 */
#ifndef SS_FIBER_H
#define SS_FIBER_H

#include "shardsim.h"

#include <stddef.h>

#if defined(__x86_64__) && defined(__ELF__) && !defined(SS_FIBER_UCONTEXT)
#define SS__FIBER_ASM 1
#else
#include <ucontext.h>
#endif

typedef struct ss__fiber {
    void *sp; /* the saved stack pointer (x86-64) or &uc */
#if !SS__FIBER_ASM
    ucontext_t uc;
#endif
    char *map;         /* the stack's mapping, guard page first; NULL: a thread's own */
    size_t map_bytes;
    const void *stack_lo; /* lowest usable stack byte and the usable size */
    size_t stack_bytes;
    void (*entry)(void *);
    void *arg;
    void *san_fake;  /* AddressSanitizer: the fake stack of the context switched from */
    void *tsan;      /* ThreadSanitizer's fiber */
} ss__fiber;

/* The calling thread's own context, to switch back to. */
void ss__fiber_of_thread(ss__fiber *f);
/* A fiber with a stack of `bytes` (reserved, not committed; a guard page
 * below it) that will start entry(arg) at its first switch. entry must
 * never return: it ends with ss__fiber_exit. SS_ERR_NOMEM. */
ss_status ss__fiber_create(ss__fiber *f, size_t bytes, void (*entry)(void *), void *arg);
/* Unmap a created fiber's stack (it must not be running). */
void ss__fiber_destroy(ss__fiber *f);
/* Save the running context into `from` (the fiber that is running) and
 * continue `to`. Returns when something switches back to `from`. */
void ss__fiber_switch(ss__fiber *from, ss__fiber *to);
/* The last switch of a fiber whose entry is done: never returns. */
_Noreturn void ss__fiber_exit(ss__fiber *from, ss__fiber *to);

#endif
