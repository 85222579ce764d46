/*
 * import_window.c — stablehlo.reduce_window (max and average pooling,
 * jnp.cumsum on the CPU) and stablehlo.select_and_scatter (the gradient
 * of max pooling) through the program builder, as compositions of ops the
 * IR has: the operand padded with the init value, one strided slice per
 * window position, combined in the window's row-major order starting from
 * the init value, as XLA's reduce_window accumulates each output element.
 *
 * What it deliberately does not do: add a windowed op to the IR. A window
 * of W positions is W slices (a cumulative sum over n elements is O(n^2)
 * work, refused past SS__WINDOW_MAX positions), a sharded windowed dim is
 * gathered whole (the slices need it; XLA exchanges halos with
 * collective-permutes), and the plan counts the slices. Read: one operand
 * and init, a body of one op (add, maximum, minimum, multiply, and, or),
 * base dilations of 1; select_and_scatter with select `GE` (the first
 * maximum of a window) or `LE` (the first minimum), scatter `add`, and no
 * padding. Anything else is refused by name.
 */
#include "front/stablehlo/import.h"

#include <string.h>

/* The most window positions read (each one a slice). */
#define SS__WINDOW_MAX 4096

static const struct { const char *name; ss_binary_op op; } window_bodies[] = {
    {"stablehlo.add", SS_ADD}, {"stablehlo.maximum", SS_MAX}, {"stablehlo.minimum", SS_MIN},
    {"stablehlo.multiply", SS_MUL}, {"stablehlo.and", SS_AND}, {"stablehlo.or", SS_OR},
};

/* The one op of two arguments region r computes, or its first op's name in
 * *name and false. */
static bool body_op(const ss__mlir_region *r, const char **name, const ss__mlir_op **body)
{
    const ss__mlir_block *b = r->nblocks == 1 ? r->blocks[0] : NULL;
    *name = b && b->nops ? b->ops[0]->name : "?";
    if (!b || b->nops != 2 || b->nargs != 2)
        return false;
    const ss__mlir_op *o = b->ops[0];
    *body = o;
    return o->noperands == 2 && o->nresults == 1 && b->ops[1]->noperands == 1 &&
           b->ops[1]->operands[0] == o->results[0] &&
           ((o->operands[0] == b->args[0] && o->operands[1] == b->args[1]) ||
            (o->operands[0] == b->args[1] && o->operands[1] == b->args[0]));
}

/* The geometry of a window op on an operand of `rank` dims. */
typedef struct window {
    int rank;
    int64_t size[SS_MAX_RANK], stride[SS_MAX_RANK], dil[SS_MAX_RANK];
    int64_t lo[SS_MAX_RANK], hi[SS_MAX_RANK];
    int64_t positions;
} window;

/* Attribute `name` of op as `rank` integers (absent: all `dflt`). */
static bool read_list(ss__imp *im, const ss__mlir_op *op, const char *name, int rank,
                      int64_t dflt, int64_t out[])
{
    const ss__mlir_attr *a = ss__mlir_op_attr(op, name);
    for (int d = 0; d < rank; d++)
        out[d] = dflt;
    if (!a)
        return true;
    int n = 0;
    if (!ss__imp_int_list(im, op, a, name, out, SS_MAX_RANK, &n))
        return false;
    return n == rank || ss__imp_fail(im, op, "'%s': %s has %d entries for rank %d", op->name,
                                     name, n, rank);
}

static bool read_window(ss__imp *im, const ss__mlir_op *op, int rank, window *w)
{
    memset(w, 0, sizeof *w);
    w->rank = rank;
    int64_t base[SS_MAX_RANK];
    if (!ss__mlir_op_attr(op, "window_dimensions"))
        return ss__imp_fail(im, op, "'%s': no window_dimensions", op->name);
    if (!read_list(im, op, "window_dimensions", rank, 1, w->size) ||
        !read_list(im, op, "window_strides", rank, 1, w->stride) ||
        !read_list(im, op, "window_dilations", rank, 1, w->dil) ||
        !read_list(im, op, "base_dilations", rank, 1, base))
        return false;
    const ss__mlir_attr *pad = ss__mlir_op_attr(op, "padding");
    if (pad && (pad->kind != SS__MLIR_AT_DENSE || !(pad->splat || pad->count == 2 * rank)))
        return ss__imp_fail(im, op, "'%s': padding is not %d pairs", op->name, rank);
    w->positions = 1;
    for (int d = 0; d < rank; d++) {
        if (base[d] != 1)
            return ss__imp_fail(im, op, "unsupported: '%s' with base dilations", op->name);
        if (w->size[d] < 1 || w->stride[d] < 1 || w->dil[d] < 1)
            return ss__imp_fail(im, op, "'%s': window dim %d: size %lld, stride %lld, "
                                        "dilation %lld", op->name, d, (long long)w->size[d],
                                (long long)w->stride[d], (long long)w->dil[d]);
        if (pad) {
            w->lo[d] = ss__mlir_dense_i64(pad, pad->splat ? 0 : 2 * d);
            w->hi[d] = ss__mlir_dense_i64(pad, pad->splat ? 0 : 2 * d + 1);
        }
        w->positions *= w->size[d];
        if (w->positions > SS__WINDOW_MAX)
            return ss__imp_fail(im, op, "unsupported: '%s' with a window of more than %d "
                                        "positions", op->name, SS__WINDOW_MAX);
    }
    return true;
}

/* Window position k (row-major) as per-dim offsets. */
static void position(const window *w, int64_t k, int64_t off[])
{
    for (int d = w->rank - 1; d >= 0; d--) {
        off[d] = k % w->size[d];
        k /= w->size[d];
    }
}

/* The strided slice of padded operand xp (shape pshape) that window
 * position `off` sees for every output element (out[] the output shape). */
static ss_status window_slice(ss_program *p, const window *w, ss_value xp, const int64_t off[],
                              const int64_t out[], ss_value *s)
{
    int64_t start[SS_MAX_RANK], limit[SS_MAX_RANK];
    for (int d = 0; d < w->rank; d++) {
        start[d] = off[d] * w->dil[d];
        limit[d] = start[d] + (out[d] - 1) * w->stride[d] + 1;
    }
    return ss_slice_strided(p, xp, start, limit, w->stride, s);
}

bool ss__imp_reduce_window(ss__imp *im, const ss__mlir_op *op, const ss_value x[],
                           ss_value res[])
{
    ss_program *p = im->sc->program;
    const char *bname = "?";
    const ss__mlir_op *body = NULL;
    if (op->noperands != 2 || op->nresults != 1 || op->nregions != 1)
        return ss__imp_fail(im, op, "unsupported: '%s' of %d operands", op->name,
                            op->noperands / 2);
    if (!body_op(op->regions[0], &bname, &body))
        return ss__imp_fail(im, op, "unsupported: a reduce_window body other than one op of "
                                    "its two arguments");
    int k = -1;
    for (size_t j = 0; j < sizeof window_bodies / sizeof *window_bodies; j++)
        if (strcmp(bname, window_bodies[j].name) == 0)
            k = (int)j;
    if (k < 0)
        return ss__imp_fail(im, op, "unsupported: a reduce_window applying '%s'", bname);
    ss_dtype dt;
    int rank;
    int64_t shape[SS_MAX_RANK];
    ss_status st = ss_value_shape(p, x[0], &dt, &rank, shape);
    window w;
    if (st || !read_window(im, op, rank, &w))
        return st ? ss__imp_fail(im, op, "'%s': %s", op->name, ss_error_message()) : false;
    int before = ss_program_value_count(p);
    int64_t zero[SS_MAX_RANK] = {0}, out[SS_MAX_RANK], off[SS_MAX_RANK];
    for (int d = 0; d < rank; d++) {
        int64_t span = (w.size[d] - 1) * w.dil[d] + 1, padded = shape[d] + w.lo[d] + w.hi[d];
        out[d] = padded < span ? 0 : (padded - span) / w.stride[d] + 1;
        if (out[d] < 1)
            return ss__imp_fail(im, op, "unsupported: '%s' with an empty result", op->name);
    }
    ss_value xp, acc;
    st = ss_pad(p, x[0], x[1], w.lo, w.hi, zero, &xp);
    if (!st)
        st = ss_broadcast_in_dim(p, x[1], rank, out, (int[]){0}, &acc);
    for (int64_t q = 0; !st && q < w.positions; q++) {
        ss_value s;
        position(&w, q, off);
        st = window_slice(p, &w, xp, off, out, &s);
        if (!st)
            st = ss_binary(p, window_bodies[k].op, acc, s, &acc);
    }
    if (!st)
        res[0] = acc;
    return ss__imp_built(im, op, st, before);
}

bool ss__imp_select_and_scatter(ss__imp *im, const ss__mlir_op *op, const ss_value x[],
                                ss_value res[])
{
    ss_program *p = im->sc->program;
    const char *sname = "?", *aname = "?";
    const ss__mlir_op *sel = NULL, *add = NULL;
    if (op->noperands != 3 || op->nresults != 1 || op->nregions != 2)
        return ss__imp_fail(im, op, "'%s': expected an operand, a source, an init and two "
                                    "regions", op->name);
    const char *dir = "";
    if (body_op(op->regions[0], &sname, &sel) && strcmp(sname, "stablehlo.compare") == 0) {
        const ss__mlir_attr *a = ss__mlir_op_attr(sel, "comparison_direction");
        dir = a && a->kind == SS__MLIR_AT_ENUM && a->s3 ? a->s3 : "";
        /* the current selection is the first argument */
        if (sel->operands[0] != op->regions[0]->blocks[0]->args[0])
            dir = "";
    }
    bool ge = strcmp(dir, "GE") == 0, le = strcmp(dir, "LE") == 0;
    if (!ge && !le)
        return ss__imp_fail(im, op, "unsupported: a select_and_scatter selecting other than "
                                    "by compare GE or LE");
    if (!body_op(op->regions[1], &aname, &add) || strcmp(aname, "stablehlo.add") != 0)
        return ss__imp_fail(im, op, "unsupported: a select_and_scatter scattering by '%s'",
                            aname);
    ss_dtype dt, sdt;
    int rank, srank;
    int64_t shape[SS_MAX_RANK], sshape[SS_MAX_RANK];
    ss_status st = ss_value_shape(p, x[0], &dt, &rank, shape);
    if (!st)
        st = ss_value_shape(p, x[1], &sdt, &srank, sshape);
    if (!st && dt != SS_F32 && dt != SS_BF16 && dt != SS_F16 && dt != SS_F64)
        return ss__imp_fail(im, op, "unsupported: '%s' of %s (floats only)", op->name,
                            ss_dtype_name(dt));
    window w;
    if (st || !read_window(im, op, rank, &w))
        return st ? ss__imp_fail(im, op, "'%s': %s", op->name, ss_error_message()) : false;
    for (int d = 0; d < rank; d++)
        if (w.lo[d] || w.hi[d])
            return ss__imp_fail(im, op, "unsupported: '%s' with padding", op->name);
    int before = ss_program_value_count(p);
    int64_t off[SS_MAX_RANK];
    ss_value best = -1, taken = -1, result, zero_s, fzero;
    /* the selected value of each window: its max (GE) or min (LE) */
    for (int64_t q = 0; !st && q < w.positions; q++) {
        ss_value s;
        position(&w, q, off);
        st = window_slice(p, &w, x[0], off, sshape, &s);
        if (!st)
            st = q == 0 ? (best = s, SS_OK) : ss_binary(p, ge ? SS_MAX : SS_MIN, best, s, &best);
    }
    if (!st)
        st = ss_broadcast_in_dim(p, x[2], rank, shape, (int[]){0}, &result);
    if (!st)
        st = ss_constant(p, 0.0, &fzero);
    if (!st)
        st = ss_convert(p, fzero, sdt, &fzero);
    if (!st)
        st = ss_broadcast_in_dim(p, fzero, srank, sshape, (int[]){0}, &zero_s);
    /* the first position holding it gets the source value, added in place */
    for (int64_t q = 0; !st && q < w.positions; q++) {
        ss_value s, hit, contrib, placed, not_taken;
        int64_t lo[SS_MAX_RANK], hi[SS_MAX_RANK], in[SS_MAX_RANK];
        position(&w, q, off);
        for (int d = 0; d < rank; d++) {
            lo[d] = off[d] * w.dil[d];
            hi[d] = shape[d] - (lo[d] + (sshape[d] - 1) * w.stride[d] + 1);
            in[d] = w.stride[d] - 1;
        }
        st = window_slice(p, &w, x[0], off, sshape, &s);
        if (!st)
            st = ss_compare(p, SS_CMP_EQ, SS_CMP_FLOAT, s, best, &hit);
        if (!st && taken >= 0 && !(st = ss_unary(p, SS_NOT, taken, &not_taken)))
            st = ss_binary(p, SS_AND, hit, not_taken, &hit);
        if (!st)
            st = taken < 0 ? (taken = hit, SS_OK) : ss_binary(p, SS_OR, taken, hit, &taken);
        if (!st)
            st = ss_select(p, hit, x[1], zero_s, &contrib);
        if (!st)
            st = ss_pad(p, contrib, fzero, lo, hi, in, &placed);
        if (!st)
            st = ss_binary(p, SS_ADD, result, placed, &result);
    }
    if (!st)
        res[0] = result;
    return ss__imp_built(im, op, st, before);
}
