/*
 * import_case.c — `stablehlo.case` (lax.cond, lax.switch) and
 * `stablehlo.if` through the program builder: ss_switch (shardsim.h), its
 * branch regions run by the importer inside the builder's callback, so a
 * branch's ops land in the conditional's sub-programs and any value of the
 * enclosing function a branch uses becomes an operand of the conditional,
 * as in the text (StableHLO regions may capture). Only the selected branch
 * runs; an index outside 0..N-1 runs the last branch, as StableHLO
 * specifies. `if` is a case on its predicate converted to an index: true
 * runs region 0 (index 0), false region 1.
 */
#include "front/stablehlo/import.h"

#include <string.h>

typedef struct case_ctx {
    ss__imp *im;
    const ss__mlir_op *op;
    bool failed; /* a branch's op failed: sc->err already says where */
} case_ctx;

/* Branch b: run region b (one block, no arguments) into out[]. */
static ss_status run_branch(ss_program *p, int b, ss_value out[], void *user)
{
    (void)p;
    case_ctx *c = user;
    const ss__mlir_op *op = c->op;
    const ss__mlir_region *r = op->regions[b];
    int nret = 0;
    if (r->nblocks != 1 || r->blocks[0]->nargs != 0) {
        ss__imp_fail(c->im, op, "'%s': branch %d must be one block without arguments",
                     op->name, b);
    } else if (!ss__imp_block(c->im, r->blocks[0], out, op->nresults, &nret)) {
        /* sc->err says where */
    } else if (nret != op->nresults) {
        ss__imp_fail(c->im, op, "'%s': branch %d returns %d values, expected %d", op->name, b,
                     nret, op->nresults);
    } else {
        return SS_OK;
    }
    c->failed = true;
    return SS_ERR_PARSE;
}

bool ss__imp_case(ss__imp *im, const ss__mlir_op *op, const ss_value x[], ss_value res[])
{
    ss_program *p = im->sc->program;
    bool is_if = strcmp(op->name, "stablehlo.if") == 0;
    int nb = op->nregions, nres = op->nresults;
    if (op->noperands != 1 || nb < 1 || (is_if && nb != 2))
        return ss__imp_fail(im, op, "'%s': expected one %s operand and %s", op->name,
                            is_if ? "predicate" : "index",
                            is_if ? "two branches" : "at least one branch");
    ss_dtype dt;
    int rank;
    int64_t shape[SS_MAX_RANK];
    ss_status st = ss_value_shape(p, x[0], &dt, &rank, shape);
    if (st || rank != 0 || (is_if ? dt != SS_BOOL : dt != SS_I32))
        return ss__imp_fail(im, op, "'%s': the %s must be a scalar %s", op->name,
                            is_if ? "predicate" : "index", is_if ? "i1" : "i32");
    int before = ss_program_value_count(p);
    ss_value index = x[0];
    if (is_if) { /* true -> 0, false -> 1: select(pred, 0, 1) */
        int32_t zero = 0, one = 1;
        ss_value c0, c1;
        st = ss_constant_array(p, SS_I32, 0, NULL, &zero, &c0);
        if (!st)
            st = ss_constant_array(p, SS_I32, 0, NULL, &one, &c1);
        if (!st)
            st = ss_select(p, x[0], c0, c1, &index);
        if (st)
            return ss__imp_built(im, op, st, before);
    }
    int at = ss_program_value_count(p);
    case_ctx c = {im, op, false};
    st = ss_switch(p, index, nb, run_branch, &c, nres, res);
    if (st && c.failed)
        return false;
    /* The conditional and its results are new values: their slots in the
     * value table held the branches' values while those were built. */
    int now = ss_program_value_count(p);
    for (int v = at; !st && v < now && v < im->sc->vinfo_cap; v++)
        memset(&im->sc->vinfo[v], 0, sizeof im->sc->vinfo[v]);
    return ss__imp_built(im, op, st, before);
}
