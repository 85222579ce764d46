/*
 * import_gather.c — stablehlo.gather and stablehlo.scatter through
 * ss_gather and ss_scatter. JAX prints both in the generic form:
 *
 *   "stablehlo.gather"(%t, %i) <{dimension_numbers = #stablehlo.gather<
 *       offset_dims = [2], collapsed_slice_dims = [0], start_index_map = [0],
 *       index_vector_dim = 2>, indices_are_sorted = false,
 *       slice_sizes = array<i64: 1, 16>}> : (...) -> ...
 *   "stablehlo.scatter"(%x, %i, %u) <{scatter_dimension_numbers =
 *       #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0],
 *       scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, ...}> ({
 *     ^bb0(%a: tensor<f32>, %b: tensor<f32>): ... stablehlo.return ... })
 *
 * (a list the printer leaves out is empty). A scatter's region must be one
 * of: add, maximum, minimum or multiply of its two arguments, the first
 * minus the second (x.at[i].subtract), or the return of its second
 * argument (a set); or a function of its first argument alone
 * (x.at[i].apply(f): JAX's scatter_apply, whose updates are a dummy of
 * zeros), see scatter_apply below. Anything else, several operands (JAX
 * 0.10 emits none: every ScatterOp it builds has one), or a result type
 * other than the operand's is refused with a one-line error naming what
 * was found.
 */
#include "front/stablehlo/import.h"

#include <string.h>

static ss_program *prog(ss__imp *im) { return im->sc->program; }

/* One list of the dimension numbers' dict (absent: empty). */
static bool dims_of(ss__imp *im, const ss__mlir_op *op, const ss__mlir_attr *dn, const char *key,
                    int out[], int *n)
{
    return ss__imp_dims_attr(im, op, ss__mlir_dict_get(dn, key), key, out, n);
}

/* The dimension numbers of a gather (scatter: keys[] are scatter's). */
static bool read_dims(ss__imp *im, const ss__mlir_op *op, const char *attr,
                      const char *const keys[6], ss_gather_dims *g)
{
    memset(g, 0, sizeof *g);
    const ss__mlir_attr *dn = ss__mlir_op_attr(op, attr);
    if (!dn || dn->kind != SS__MLIR_AT_DIALECT)
        return ss__imp_fail(im, op, "'%s': no %s", op->name, attr);
    int nb2;
    if (!dims_of(im, op, dn, keys[0], g->offset_dims, &g->n_offset) ||
        !dims_of(im, op, dn, keys[1], g->collapsed_slice_dims, &g->n_collapsed) ||
        !dims_of(im, op, dn, keys[2], g->operand_batching_dims, &g->n_batching) ||
        !dims_of(im, op, dn, keys[3], g->start_indices_batching_dims, &nb2) ||
        !dims_of(im, op, dn, keys[4], g->start_index_map, &g->n_index_map))
        return false;
    if (nb2 != g->n_batching)
        return ss__imp_fail(im, op, "'%s': %s and %s differ in length", op->name, keys[2],
                            keys[3]);
    const ss__mlir_attr *ivd = ss__mlir_dict_get(dn, keys[5]);
    if (ivd && ivd->kind != SS__MLIR_AT_INT)
        return ss__imp_fail(im, op, "'%s': %s is not an integer", op->name, keys[5]);
    g->index_vector_dim = ivd ? (int)ivd->i : 0;
    const ss__mlir_attr *sorted = ss__mlir_op_attr(op, "indices_are_sorted");
    g->indices_are_sorted = sorted && sorted->kind == SS__MLIR_AT_BOOL && sorted->i;
    return true;
}

/* The single tensor result must be of the operand's element type. */
static bool one_result(ss__imp *im, const ss__mlir_op *op)
{
    if (op->nresults != 1 || op->results[0]->type->kind != SS__MLIR_TY_TENSOR)
        return ss__imp_fail(im, op, "unsupported: '%s' with %d results (one operand only)",
                            op->name, op->nresults);
    return true;
}

bool ss__imp_gather(ss__imp *im, const ss__mlir_op *op, const ss_value x[], ss_value *out)
{
    static const char *const keys[6] = {"offset_dims", "collapsed_slice_dims",
                                        "operand_batching_dims", "start_indices_batching_dims",
                                        "start_index_map", "index_vector_dim"};
    ss_gather_dims g;
    if (op->noperands != 2 || !one_result(im, op) ||
        !read_dims(im, op, "dimension_numbers", keys, &g))
        return op->noperands == 2 ? false
                                  : ss__imp_fail(im, op, "'%s': expected 2 operands, found %d",
                                                 op->name, op->noperands);
    int n;
    if (!ss__imp_int_list(im, op, ss__mlir_op_attr(op, "slice_sizes"), "slice_sizes",
                          g.slice_sizes, SS_MAX_RANK, &n))
        return false;
    if (n != op->operands[0]->type->rank)
        return ss__imp_fail(im, op, "'%s': %d slice sizes for an operand of rank %d", op->name,
                            n, op->operands[0]->type->rank);
    ss_status st = ss_gather(prog(im), x[0], x[1], &g, out);
    return st == SS_OK || ss__imp_fail(im, op, "'%s': %s", op->name, ss_error_message());
}

/* The update computation of a scatter's region. */
static bool update_op(ss__imp *im, const ss__mlir_op *op, ss_scatter_op *out)
{
    static const struct { const char *name; ss_scatter_op op; } ops[] = {
        {"stablehlo.add", SS_SCATTER_ADD}, {"stablehlo.maximum", SS_SCATTER_MAX},
        {"stablehlo.minimum", SS_SCATTER_MIN}, {"stablehlo.multiply", SS_SCATTER_MUL},
    };
    const ss__mlir_block *b = op->nregions == 1 && op->regions[0]->nblocks == 1
                                  ? op->regions[0]->blocks[0] : NULL;
    if (!b || b->nargs != 2 || b->nops < 1)
        return ss__imp_fail(im, op, "unsupported: a scatter whose region is not one block of "
                                    "two arguments");
    const ss__mlir_op *ret = b->ops[b->nops - 1];
    if (ret->noperands != 1)
        return ss__imp_fail(im, op, "unsupported: a scatter region returning %d values",
                            ret->noperands);
    if (b->nops == 1 && ret->operands[0] == b->args[1]) {
        *out = SS_SCATTER_SET;
        return true;
    }
    const ss__mlir_op *body = b->ops[0];
    /* subtract is not commutative: operand - update only (JAX's scatter_sub) */
    if (b->nops == 2 && strcmp(body->name, "stablehlo.subtract") == 0 &&
        body->noperands == 2 && body->nresults == 1 && ret->operands[0] == body->results[0] &&
        body->operands[0] == b->args[0] && body->operands[1] == b->args[1]) {
        *out = SS_SCATTER_SUB;
        return true;
    }
    if (b->nops == 2 && body->noperands == 2 && body->nresults == 1 &&
        ret->operands[0] == body->results[0] &&
        ((body->operands[0] == b->args[0] && body->operands[1] == b->args[1]) ||
         (body->operands[0] == b->args[1] && body->operands[1] == b->args[0])))
        for (size_t k = 0; k < sizeof ops / sizeof *ops; k++)
            if (strcmp(body->name, ops[k].name) == 0) {
                *out = ops[k].op;
                return true;
            }
    return ss__imp_fail(im, op, "unsupported: a scatter whose region applies '%s' (add, "
                                "maximum, minimum, multiply of its arguments, their "
                                "difference, or returning the update, are read)",
                        b->nops == 1 ? "a return of its first argument" : body->name);
}

/* The region's block when it computes a function of its first argument
 * alone (its second, the update, unused), else NULL. */
static const ss__mlir_block *apply_block(const ss__mlir_op *op)
{
    const ss__mlir_block *b = op->nregions == 1 && op->regions[0]->nblocks == 1
                                  ? op->regions[0]->blocks[0] : NULL;
    if (!b || b->nargs != 2 || b->nops < 2)
        return NULL;
    for (int i = 0; i < b->nops; i++)
        for (int k = 0; k < b->ops[i]->noperands; k++)
            if (b->ops[i]->operands[k] == b->args[1])
                return NULL;
    const ss__mlir_op *ret = b->ops[b->nops - 1];
    return ret->noperands == 1 && ret->operands[0] != b->args[0] ? b : NULL;
}

/* x.at[i].apply(f) as XLA's CPU backend computes it: each update element
 * that lands on an operand element replaces it by f of it, in turn, so an
 * element hit k times ends as f^k(x) (repeated indices apply f again) and
 * windows the scatter drops leave it. Built from ops shardsim partitions
 * already: hits = the scatter-add of ones (i32, the updates' shape) into
 * zeros, then a while loop of max(hits) steps whose step s applies f (the
 * region imported on whole arrays: its ops must be elementwise, scalar
 * constants broadcasting) where hits > s. The loop and the hit count are
 * shardsim's decomposition, not XLA's fused scatter: the values are XLA's,
 * the plan and collectives those of the pieces. */
typedef struct apply_ctx {
    ss__imp *im;
    const ss__mlir_op *op;
    const ss__mlir_block *b;
    ss_value hits, most;
    bool failed;
} apply_ctx;

static ss_status apply_cond(ss_program *p, const ss_value carry[], ss_value *pred, void *user)
{
    apply_ctx *c = user;
    return ss_compare(p, SS_CMP_LT, SS_CMP_SIGNED, carry[0], c->most, pred);
}

static ss_status apply_body(ss_program *p, const ss_value carry[], ss_value next[], void *user)
{
    apply_ctx *c = user;
    ss_value fy, hit, one;
    int nret = 0;
    const int32_t one32 = 1;
    c->im->elementwise_region++;
    bool ok = ss__imp_put(c->im, c->b->args[0], carry[1]) &&
              ss__imp_block(c->im, c->b, &fy, 1, &nret) && nret == 1;
    c->im->elementwise_region--;
    if (!ok) {
        if (nret != 1 && !c->failed)
            ss__imp_fail(c->im, c->op, "'%s': its region returns %d values", c->op->name, nret);
        c->failed = true;
        return SS_ERR_PARSE;
    }
    ss_status st = ss_compare(p, SS_CMP_GT, SS_CMP_SIGNED, c->hits, carry[0], &hit);
    if (!st)
        st = ss_select(p, hit, fy, carry[1], &next[1]);
    if (!st)
        st = ss_constant_array(p, SS_I32, 0, NULL, &one32, &one);
    if (!st)
        st = ss_binary(p, SS_ADD, carry[0], one, &next[0]);
    return st;
}

static bool scatter_apply(ss__imp *im, const ss__mlir_op *op, const ss__mlir_block *b,
                          const ss_value x[], const ss_gather_dims *g, ss_value *out)
{
    ss_program *p = prog(im);
    const ss__mlir_type *xt = op->operands[0]->type, *ut = op->operands[2]->type;
    const int32_t zero = 0, one = 1;
    int none[1] = {0};
    ss_value z, o, zeros, ones, all[2], carry[2];
    int axes[SS_MAX_RANK];
    for (int k = 0; k < xt->rank; k++)
        axes[k] = k;
    apply_ctx c = {im, op, b, -1, -1, false};
    ss_status st = ss_constant_array(p, SS_I32, 0, NULL, &zero, &z);
    if (!st)
        st = ss_constant_array(p, SS_I32, 0, NULL, &one, &o);
    if (!st)
        st = ss_broadcast_in_dim(p, z, xt->rank, xt->dims, none, &zeros);
    if (!st)
        st = ss_broadcast_in_dim(p, o, ut->rank, ut->dims, none, &ones);
    if (!st)
        st = ss_scatter(p, zeros, x[1], ones, SS_SCATTER_ADD, g, &c.hits);
    if (!st)
        st = xt->rank ? ss_reduce(p, SS_REDUCE_MAX, c.hits, xt->rank, axes, 0, &c.most)
                      : SS_OK;
    if (!st && !xt->rank)
        c.most = c.hits;
    all[0] = z;
    all[1] = x[0];
    if (!st)
        st = ss_while_loop(p, apply_cond, apply_body, &c, 2, all, carry);
    if (!st)
        *out = carry[1];
    return st == SS_OK || c.failed ||
           ss__imp_fail(im, op, "'%s' (x.at[i].apply): %s", op->name, ss_error_message());
}

bool ss__imp_scatter(ss__imp *im, const ss__mlir_op *op, const ss_value x[], ss_value *out)
{
    static const char *const keys[6] = {"update_window_dims", "inserted_window_dims",
                                        "input_batching_dims", "scatter_indices_batching_dims",
                                        "scatter_dims_to_operand_dims", "index_vector_dim"};
    if (op->noperands != 3)
        return ss__imp_fail(im, op, "unsupported: '%s' with %d operands (one operand, its "
                                    "indices and updates are read)", op->name, op->noperands);
    ss_gather_dims g;
    ss_scatter_op sop = SS_SCATTER_ADD;
    if (!one_result(im, op) || !read_dims(im, op, "scatter_dimension_numbers", keys, &g))
        return false;
    const ss__mlir_block *apply = apply_block(op);
    if (apply)
        return scatter_apply(im, op, apply, x, &g, out);
    if (!update_op(im, op, &sop))
        return false;
    ss_status st = ss_scatter(prog(im), x[0], x[1], x[2], sop, &g, out);
    return st == SS_OK || ss__imp_fail(im, op, "'%s': %s", op->name, ss_error_message());
}
