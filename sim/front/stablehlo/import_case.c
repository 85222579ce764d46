/*
 * import_case.c — `stablehlo.case` (lax.cond, lax.switch) and
 * `stablehlo.if` through the program builder, by evaluating every branch
 * and selecting: result k is branch i's result k where the index equals i,
 * and the last branch's where no i does (an index outside 0..N-1 runs the
 * last branch, as StableHLO specifies). Branch regions take no arguments
 * and may use any value of the enclosing function, which the importer's
 * value map already holds.
 *
 * What it deliberately does not do: keep the branches apart. The program
 * IR has loops but no conditional op, so a branch's work and memory count
 * in the plan whether it runs or not (the plan is the sum over branches,
 * not XLA's max), and a value an unselected branch makes infinite or NaN
 * can reach a gradient through select's transpose (0 * inf) where JAX's
 * conditional gradient would not. The results equal XLA's otherwise:
 * StableHLO's branches have no side effects.
 */
#include "front/stablehlo/import.h"

#include <stdlib.h>
#include <string.h>

/* Run branch region `r` (one block, no arguments) into out[0..nout). */
static bool run_branch(ss__imp *im, const ss__mlir_op *op, int i, ss_value out[], int nout)
{
    const ss__mlir_region *r = op->regions[i];
    if (r->nblocks != 1 || r->blocks[0]->nargs != 0)
        return ss__imp_fail(im, op, "'%s': branch %d must be one block without arguments",
                            op->name, i);
    int nret = 0;
    if (!ss__imp_block(im, r->blocks[0], out, nout, &nret))
        return false;
    if (nret != nout)
        return ss__imp_fail(im, op, "'%s': branch %d returns %d values, expected %d", op->name,
                            i, nret, nout);
    return true;
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
    ss_value *all = calloc((size_t)(nb * (nres ? nres : 1)), sizeof *all);
    if (!all)
        return ss__imp_fail(im, op, "out of host memory");
    bool ok = true;
    for (int i = 0; ok && i < nb; i++)
        ok = run_branch(im, op, i, all + i * nres, nres);
    int before = ss_program_value_count(p);
    for (int k = 0; ok && !st && k < nres; k++) {
        /* `if`: branch 0 where the predicate holds; `case`: from the last
         * branch down, branch i where index == i */
        ss_value cur = all[(nb - 1) * nres + k];
        for (int i = nb - 2; !st && i >= 0; i--) {
            ss_value pred = x[0];
            if (!is_if) {
                int32_t iv = i;
                ss_value c;
                st = ss_constant_array(p, SS_I32, 0, NULL, &iv, &c);
                if (!st)
                    st = ss_compare(p, SS_CMP_EQ, SS_CMP_SIGNED, x[0], c, &pred);
            }
            if (!st)
                st = ss_select(p, pred, all[i * nres + k], cur, &cur);
        }
        res[k] = cur;
    }
    free(all);
    return ok && ss__imp_built(im, op, st, before);
}
