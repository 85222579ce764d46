/*
 * optable.c — the graph layer's view of the op table (ops.def): each op's
 * name, operand and result counts and flags, and the names of the variants
 * of the ops that have them. The other layers build their own dispatch
 * arrays from the same rows (see ops.def for which file owns which column).
 */
#include "graph.h"

#include <string.h>

/* A new op changes this count: go through ops.def's checklist. */
_Static_assert(SS__OP_COUNT == 36, "a new op: follow the checklist at the top of ops.def");

/* A constant's variant (SS__CONST_*): a weak scalar, a dense array, iota. */
static const char *const_name(int sub)
{
    static const char *const names[] = {"constant", "dense_constant", "iota"};
    return (unsigned)sub < sizeof names / sizeof names[0] ? names[sub] : NULL;
}

static const char *unary_name(int sub)
{
    static const char *const names[SS_UNARY_COUNT] = {
        "neg", "exp", "log", "tanh", "relu", "gelu", "sqrt", "rsqrt", "square", "convert",
        "abs", "sign", "floor", "ceil", "round_nearest_even", "round_nearest_afz", "sine",
        "cosine", "tan", "erf", "exponential_minus_one", "log_plus_one", "logistic", "cbrt",
        "is_finite", "not", "popcnt", "erf_inv", "count_leading_zeros", "bitcast_convert"};
    return (unsigned)sub < SS_UNARY_COUNT ? names[sub] : NULL;
}

static const char *binary_name(int sub)
{
    static const char *const names[SS_BINARY_COUNT] = {
        "add", "sub", "mul", "div", "max", "min", "pow", "eq", "gt", "ge", "remainder", "and",
        "or", "xor", "shift_left", "shift_right_arithmetic", "shift_right_logical", "atan2",
        "next_after"};
    return (unsigned)sub < SS_BINARY_COUNT ? names[sub] : NULL;
}

/* Indexed by ss_reduce_op; a reduce node is never MEAN (a mean is built
 * as a sum and a multiplication). */
static const char *reduce_name(int sub)
{
    static const char *const names[] = {"reduce_sum", "reduce_max",  "reduce_min",
                                        "reduce_mean", "reduce_prod", "reduce_and",
                                        "reduce_or"};
    return (unsigned)sub < sizeof names / sizeof names[0] ? names[sub] : NULL;
}

/* argmax (sub 0) or argmin (1). */
static const char *arg_name(int sub)
{
    static const char *const names[] = {"argmax", "argmin"};
    return (unsigned)sub < sizeof names / sizeof names[0] ? names[sub] : NULL;
}

/* A fused multiply-add's form (ss__k_fma_form order: a*b+c, a*b-c, c-a*b). */
static const char *fma_name(int sub)
{
    static const char *const names[] = {"fma", "fms", "fnma"};
    return (unsigned)sub < sizeof names / sizeof names[0] ? names[sub] : NULL;
}

static const char *coll_name(int sub)
{
    return (unsigned)sub < SS_COLL_KIND_COUNT ? ss_coll_kind_name((ss_coll_kind)sub) : NULL;
}

/* A loop node's variant: StableHLO's while, or lax.scan's counted loop. */
static const char *loop_name(int sub)
{
    static const char *const names[] = {"while", "scan"};
    return (unsigned)sub < sizeof names / sizeof names[0] ? names[sub] : NULL;
}

/* A scatter's update computation (ss_scatter_op). */
static const char *scatter_name(int sub)
{
    static const char *const names[] = {"scatter_add", "scatter", "scatter_max", "scatter_min",
                                        "scatter_mul", "scatter_sub"};
    return (unsigned)sub < sizeof names / sizeof names[0] ? names[sub] : NULL;
}

/* top_k's result: its values (sub 0) or their indices (1). */
static const char *top_k_name(int sub)
{
    static const char *const names[] = {"top_k", "top_k_indices"};
    return (unsigned)sub < sizeof names / sizeof names[0] ? names[sub] : NULL;
}

/* rng_bit_generator's result: its bits (sub 0) or the new state (1). */
static const char *rng_name(int sub)
{
    static const char *const names[] = {"rng_bit_generator", "rng_bit_generator_state"};
    return (unsigned)sub < sizeof names / sizeof names[0] ? names[sub] : NULL;
}

/* A device_put's target memory (ss_memory_kind), JAX's kind names. */
static const char *memory_name(int sub)
{
    static const char *const names[SS_MEMORY_KIND_COUNT] = {
        "device_put_device", "device_put_pinned_host", "device_put_unpinned_host"};
    return (unsigned)sub < SS_MEMORY_KIND_COUNT ? names[sub] : NULL;
}

static const ss__op_info op_table[] = {
#define SS__OP(ID, NAME, NIN, NOUT, FLAGS, SUBNAME, VJP, FWD, BWD, LOWER, EVAL, KERNEL, FLOPS) \
    [SS__OP_##ID] = {NAME, NIN, NOUT, FLAGS, SUBNAME},
#include "ops.def"
#undef SS__OP
};
_Static_assert(sizeof op_table / sizeof op_table[0] == SS__OP_COUNT, "one row per opcode");

const ss__op_info *ss__op_info_of(ss__opcode op)
{
    return (unsigned)op < SS__OP_COUNT ? &op_table[op] : NULL;
}

bool ss__op_is(ss__opcode op, unsigned flags)
{
    return (unsigned)op < SS__OP_COUNT && (op_table[op].flags & flags) == flags;
}

const char *ss__opcode_name(const ss__node *n)
{
    const ss__op_info *o = ss__op_info_of(n->op);
    if (!o)
        return "?";
    const char *sub = o->subname ? o->subname(n->sub) : NULL;
    return sub ? sub : o->name;
}

bool ss__opcode_lookup(const char *name, ss__opcode *op, int *sub)
{
    for (int k = 0; k < SS__OP_COUNT; k++) {
        const ss__op_info *o = &op_table[k];
        if (!o->subname) {
            if (strcmp(o->name, name) == 0) {
                *op = (ss__opcode)k;
                *sub = 0;
                return true;
            }
            continue;
        }
        const char *s;
        for (int j = 0; (s = o->subname(j)) != NULL; j++)
            if (strcmp(s, name) == 0) {
                *op = (ss__opcode)k;
                *sub = j;
                return true;
            }
    }
    return false;
}
