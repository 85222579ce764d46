/*
 * out_slots.h — temporaries held in a program's not yet written output
 * buffers, as XLA's buffer assignment holds them (out_slots.c).
 */
#ifndef SS_OUT_SLOTS_H
#define SS_OUT_SLOTS_H

#include "lower.h"

#include <stdbool.h>

typedef struct ss__out_slots {
    int n;        /* output slots */
    int *buf;     /* per slot: the output buffer */
    int *def;     /* per slot: the instruction that writes it */
    int *holder;  /* per slot: the temporary in it now, or -1 */
    int *takes;   /* per slot: the operand its writer may take in place, or -1 */
    int *slot_of; /* per buffer: the slot it is in, or -1 */
    int *death;   /* per buffer: the instruction that frees it (INT_MAX: none) */
    int *assigned; /* per buffer: the slot planned for it, or -1 */
    size_t total; /* the slots' bytes (the outputs', laid out) */
} ss__out_slots;

/* The slots of e's top level: every buffer result[b] (a STORE's) that is
 * not an argument (arg_input[b] < 0), not in host memory, not fused away. */
ss_status ss__out_slots_init(ss__out_slots *s, const ss_executable *e, const bool result[],
                             const int arg_input[]);
void ss__out_slots_free(ss__out_slots *s);
/* Is b an output whose slot the plan counts from the start? */
bool ss__out_slots_is_output(const ss__out_slots *s, int b);
/* Temporary b, born now: put it in the slot planned for it (out_slots.c);
 * false when it has none. */
bool ss__out_slots_take(ss__out_slots *s, int b);
/* b leaves its slot (freed or taken over); false when it had none. */
bool ss__out_slots_release(ss__out_slots *s, int b);

#endif
