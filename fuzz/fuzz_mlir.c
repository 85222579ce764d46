/*
 * fuzz_mlir — the reader of MLIR text (sim/front/stablehlo/mlir.h): any
 * text is either refused with one located line or parsed; a parsed module
 * prints in generic form, the print parses back and prints the same, every
 * op's location resolves, and every Shardy sharding of a function argument
 * gives tiles (or a clear refusal) over its mesh.
 */
#include "fuzz.h"

#include "front/stablehlo/mlir.h"

#include <stdio.h>

static void walk(const ss__mlir_op *op, int depth)
{
    ss__mlir_where w;
    ss__mlir_loc_resolve(op->loc, &w);
    for (int r = 0; r < op->nregions; r++)
        for (int b = 0; b < op->regions[r]->nblocks; b++) {
            const ss__mlir_block *blk = op->regions[r]->blocks[b];
            for (int i = 0; i < blk->nargs; i++)
                ss__mlir_loc_resolve(blk->args[i]->loc, &w);
            for (int i = 0; i < blk->nops; i++)
                walk(blk->ops[i], depth + 1);
        }
}

static void shardings(const ss__mlir_module *m)
{
    for (int i = 0; i < ss__mlir_func_count(m); i++) {
        ss__mlir_func f;
        ss__mlir_func_at(m, i, &f);
        if (!f.arg_attrs || f.arg_attrs->kind != SS__MLIR_AT_ARRAY)
            continue;
        for (int a = 0; a < f.arg_attrs->n; a++) {
            const ss__mlir_attr *sh = ss__mlir_dict_get(f.arg_attrs->items[a], "sdy.sharding");
            if (!sh || sh->kind != SS__MLIR_AT_SDY_SHARDING)
                continue;
            ss__mlir_tiles t;
            if (ss__mlir_sdy_tiles(sh->sdy, sh->sdy->mesh, &t) == SS_OK) {
                FUZZ_CHECK(t.ndevices >= 1);
                ss__mlir_tiles_free(&t);
            }
        }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size);
    ss__mlir_module *m = NULL;
    if (!text || ss__mlir_parse(text, "fuzz.mlir", &m) != SS_OK) {
        if (text)
            FUZZ_CHECK(strncmp(ss_error_message(), "fuzz.mlir:", 10) == 0 ||
                       strstr(ss_error_message(), "out of memory"));
        free(text);
        return 0;
    }
    walk(ss__mlir_module_op(m), 0);
    shardings(m);
    char *once = NULL, *twice = NULL;
    FUZZ_CHECK(ss__mlir_print(m, &once, NULL) == SS_OK);
    ss__mlir_module *m2 = NULL;
    if (ss__mlir_parse(once, "printed.mlir", &m2) != SS_OK) {
        fprintf(stderr, "the print does not parse: %s\n%s\n", ss_error_message(), once);
        FUZZ_CHECK(0);
    }
    FUZZ_CHECK(ss__mlir_print(m2, &twice, NULL) == SS_OK);
    if (strcmp(once, twice) != 0) {
        fprintf(stderr, "printed once:\n%s\nprinted twice:\n%s\n", once, twice);
        FUZZ_CHECK(0);
    }
    free(once);
    free(twice);
    ss__mlir_free(m2);
    ss__mlir_free(m);
    free(text);
    return 0;
}
