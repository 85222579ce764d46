/*
 * import_control.c — StableHLO's control flow through the program
 * builder: `stablehlo.while` becomes ss_while_loop (shardsim.h), its
 * `cond` and `do` regions run by the importer inside the builder's
 * callbacks, so the region's ops land in the loop's sub-programs and any
 * value of the enclosing function a region uses becomes a loop operand,
 * as in the text (StableHLO regions may capture). The loop's trip count is
 * then whatever the condition computes at run time, as XLA runs it.
 */
#include "front/stablehlo/import.h"

typedef struct region_ctx {
    ss__imp *im;
    const ss__mlir_op *op;
    bool failed; /* a region's op failed: sc->err already says where */
} region_ctx;

/* Run region `which` of the while op with its arguments bound to carry[]
 * and its return's values into out[0..nout). */
static ss_status run_region(region_ctx *c, int which, const ss_value carry[], ss_value out[],
                            int nout)
{
    const ss__mlir_op *op = c->op;
    const ss__mlir_region *r = op->regions[which];
    const char *name = which == 0 ? "cond" : "do";
    if (r->nblocks != 1 || r->blocks[0]->nargs != op->noperands) {
        ss__imp_fail(c->im, op, "'%s': its %s region must be one block of %d arguments", op->name,
                     name, op->noperands);
        c->failed = true;
        return SS_ERR_PARSE;
    }
    const ss__mlir_block *b = r->blocks[0];
    for (int k = 0; k < b->nargs; k++)
        if (!ss__imp_put(c->im, b->args[k], carry[k])) {
            c->failed = true;
            return SS_ERR_NOMEM;
        }
    int nret = 0;
    if (!ss__imp_block(c->im, b, out, nout, &nret)) {
        c->failed = true;
        return SS_ERR_PARSE;
    }
    if (nret != nout) {
        ss__imp_fail(c->im, op, "'%s': its %s region returns %d values, expected %d", op->name,
                     name, nret, nout);
        c->failed = true;
        return SS_ERR_PARSE;
    }
    return SS_OK;
}

static ss_status while_cond(ss_program *p, const ss_value carry[], ss_value *pred, void *user)
{
    (void)p;
    return run_region(user, 0, carry, pred, 1);
}

static ss_status while_body(ss_program *p, const ss_value carry[], ss_value next[], void *user)
{
    region_ctx *c = user;
    (void)p;
    return run_region(c, 1, carry, next, c->op->noperands);
}

bool ss__imp_while(ss__imp *im, const ss__mlir_op *op, const ss_value x[], ss_value res[])
{
    if (op->nregions != 2 || op->nresults != op->noperands)
        return ss__imp_fail(im, op, "'%s': expected a cond and a do region and one result per "
                                    "operand", op->name);
    region_ctx c = {im, op, false};
    ss_status st = ss_while_loop(im->sc->program, while_cond, while_body, &c, op->noperands, x,
                                 res);
    if (st == SS_OK || c.failed)
        return st == SS_OK;
    return ss__imp_fail(im, op, "'%s': %s", op->name, ss_error_message());
}
