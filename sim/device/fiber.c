/*
 * fiber.c — the stack switch behind fiber.h.
 *
 * x86-64 (System V): ss__fiber_swap pushes the callee-saved registers
 * (rbp, rbx, r12-r15) and the floating-point control state (MXCSR and the
 * x87 control word: a kernel that changed the rounding or flush-to-zero
 * mode keeps it to itself) on the running stack, stores the stack pointer,
 * loads the other one and pops the same frame from it. A new fiber's stack
 * holds such a frame whose return address is ss__fiber_boot, which calls
 * fiber_start(f) with the stack aligned as a call expects. Elsewhere
 * ucontext's swapcontext does the same, a system call slower.
 */
#include "fiber.h"

#include "base/base.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SS__ASAN 1
#endif
#if __has_feature(thread_sanitizer)
#define SS__TSAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) && !defined(SS__ASAN)
#define SS__ASAN 1
#endif
#if defined(__SANITIZE_THREAD__) && !defined(SS__TSAN)
#define SS__TSAN 1
#endif
#if SS__ASAN
#include <sanitizer/common_interface_defs.h>
#endif
#if SS__TSAN
#include <sanitizer/tsan_interface.h>
#endif

#if SS__FIBER_ASM
#include <xmmintrin.h>

void ss__fiber_swap(void **save, void *load);
void ss__fiber_boot(void);
__asm__(".text\n"
        ".globl ss__fiber_swap\n"
        ".hidden ss__fiber_swap\n"
        ".type ss__fiber_swap,@function\n"
        "ss__fiber_swap:\n"
        "    pushq %rbp\n"
        "    pushq %rbx\n"
        "    pushq %r12\n"
        "    pushq %r13\n"
        "    pushq %r14\n"
        "    pushq %r15\n"
        "    subq $8, %rsp\n"
        "    stmxcsr (%rsp)\n"
        "    fnstcw 4(%rsp)\n"
        "    movq %rsp, (%rdi)\n"
        "    movq %rsi, %rsp\n"
        "    ldmxcsr (%rsp)\n"
        "    fldcw 4(%rsp)\n"
        "    addq $8, %rsp\n"
        "    popq %r15\n"
        "    popq %r14\n"
        "    popq %r13\n"
        "    popq %r12\n"
        "    popq %rbx\n"
        "    popq %rbp\n"
        "    ret\n"
        ".size ss__fiber_swap,.-ss__fiber_swap\n"
        ".globl ss__fiber_boot\n"
        ".hidden ss__fiber_boot\n"
        ".type ss__fiber_boot,@function\n"
        "ss__fiber_boot:\n"
        "    movq %r12, %rdi\n"
        "    callq *%r13\n"
        "    ud2\n"
        ".size ss__fiber_boot,.-ss__fiber_boot\n");
#endif

/* The first code a new fiber runs: finish the sanitizer's switch, then its
 * entry, which ends in ss__fiber_exit and never comes back here. */
static void fiber_start(ss__fiber *f)
{
#if SS__ASAN
    __sanitizer_finish_switch_fiber(NULL, NULL, NULL);
#endif
    f->entry(f->arg);
    __builtin_trap(); /* entry broke its contract: it must exit, not return */
}

#if !SS__FIBER_ASM
static void ucontext_start(unsigned hi, unsigned lo)
{
    fiber_start((ss__fiber *)(((uintptr_t)hi << 32) | (uintptr_t)lo));
}
#endif

void ss__fiber_of_thread(ss__fiber *f)
{
    memset(f, 0, sizeof *f);
    pthread_attr_t attr;
    if (pthread_getattr_np(pthread_self(), &attr) == 0) {
        void *lo;
        size_t bytes;
        if (pthread_attr_getstack(&attr, &lo, &bytes) == 0) {
            f->stack_lo = lo;
            f->stack_bytes = bytes;
        }
        pthread_attr_destroy(&attr);
    }
#if !SS__FIBER_ASM
    f->sp = &f->uc;
#endif
#if SS__TSAN
    f->tsan = __tsan_get_current_fiber();
#endif
}

ss_status ss__fiber_create(ss__fiber *f, size_t bytes, void (*entry)(void *), void *arg)
{
    memset(f, 0, sizeof *f);
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    bytes = (bytes + page - 1) / page * page;
    char *map = mmap(NULL, bytes + page, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
    if (map == MAP_FAILED)
        return ss__fail(SS_ERR_NOMEM, "fiber: cannot map a %zu-byte stack", bytes);
    if (mprotect(map, page, PROT_NONE) != 0) {
        munmap(map, bytes + page);
        return ss__fail(SS_ERR_NOMEM, "fiber: cannot protect a stack's guard page");
    }
    f->map = map;
    f->map_bytes = bytes + page;
    f->stack_lo = map + page;
    f->stack_bytes = bytes;
    f->entry = entry;
    f->arg = arg;
#if SS__FIBER_ASM
    uintptr_t top = ((uintptr_t)map + page + bytes) & ~(uintptr_t)15;
    uint64_t *x = (uint64_t *)(top - 16); /* rsp after the boot frame's ret */
    uint16_t fcw;
    __asm__ volatile("fnstcw %0" : "=m"(fcw));
    x[-1] = (uint64_t)(uintptr_t)ss__fiber_boot;
    x[-2] = 0;                                   /* rbp */
    x[-3] = 0;                                   /* rbx */
    x[-4] = (uint64_t)(uintptr_t)f;              /* r12: boot's argument */
    x[-5] = (uint64_t)(uintptr_t)fiber_start;    /* r13: what boot calls */
    x[-6] = 0;                                   /* r14 */
    x[-7] = 0;                                   /* r15 */
    x[-8] = (uint64_t)_mm_getcsr() | (uint64_t)fcw << 32;
    f->sp = &x[-8];
#else
    ucontext_t *uc = &f->uc;
    if (getcontext(uc) != 0) {
        munmap(map, f->map_bytes);
        f->map = NULL;
        return ss__fail(SS_ERR_NOMEM, "fiber: cannot make a context");
    }
    uc->uc_stack.ss_sp = map + page;
    uc->uc_stack.ss_size = bytes;
    uc->uc_link = NULL;
    uintptr_t p = (uintptr_t)f;
    makecontext(uc, (void (*)(void))ucontext_start, 2, (unsigned)(p >> 32),
                (unsigned)(p & 0xffffffffu));
    f->sp = uc;
#endif
#if SS__TSAN
    f->tsan = __tsan_create_fiber(0);
#endif
    return SS_OK;
}

void ss__fiber_destroy(ss__fiber *f)
{
#if SS__TSAN
    if (f->map && f->tsan)
        __tsan_destroy_fiber(f->tsan);
#endif
    if (f->map)
        munmap(f->map, f->map_bytes);
    memset(f, 0, sizeof *f);
}

static void swap_to(ss__fiber *from, ss__fiber *to)
{
#if SS__TSAN
    __tsan_switch_to_fiber(to->tsan, 0);
#endif
#if SS__FIBER_ASM
    ss__fiber_swap(&from->sp, to->sp);
#else
    swapcontext(from->sp, to->sp);
#endif
}

void ss__fiber_switch(ss__fiber *from, ss__fiber *to)
{
#if SS__ASAN
    __sanitizer_start_switch_fiber(&from->san_fake, to->stack_lo, to->stack_bytes);
#endif
    swap_to(from, to);
#if SS__ASAN
    __sanitizer_finish_switch_fiber(from->san_fake, NULL, NULL);
#endif
}

_Noreturn void ss__fiber_exit(ss__fiber *from, ss__fiber *to)
{
#if SS__ASAN
    __sanitizer_start_switch_fiber(NULL, to->stack_lo, to->stack_bytes);
#endif
    swap_to(from, to);
    __builtin_trap(); /* an exited fiber was resumed */
}
