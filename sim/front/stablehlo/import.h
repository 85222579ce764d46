/*
 * import.h — the StableHLO importer: a module as `jax.jit(f).lower(..)
 * .as_text()` prints it (Shardy or GSPMD shardings) becomes the same
 * ss_scenario a scenario file makes (scenario.h), so run, plan, explain
 * and show and their reports work unchanged on it.
 *
 * What the module says becomes: the mesh (`sdy.mesh`, or inferred from
 * GSPMD device lists), one global array per argument of the public entry
 * function (its sharding the input layout, its name from the argument's
 * location), the ops through the program builder of shardsim.h (func.call
 * inlined), one output per result (its sharding the output layout, its
 * name its jax.result_info), `tf.aliasing_output` as donation (the result
 * feeds the argument between steps), and a check of every result against
 * the single-device run. Each value keeps its op's MLIR line:column and
 * the user's Python file:line (the first frame outside JAX's and Flax's
 * own sources) for errors, explain and the reports.
 *
 * Files: import.c (module, mesh, arguments, results), import_ops.c (ops),
 * import_mesh.c (shardings as specs; the mesh of a GSPMD module),
 * import_manual.c (shard_map regions and their collectives).
 * Nothing here prints or exits; failures are ss__scn_fail at the spot.
 */
#ifndef SS_FRONT_STABLEHLO_IMPORT_H
#define SS_FRONT_STABLEHLO_IMPORT_H

#include "front/scenario/scenario.h"
#include "front/stablehlo/mlir.h"

/* Is this text MLIR? Its first token after blank lines and `//` comments
 * is `module`, `func.func`, `#loc...`, `sdy.mesh` or `"builtin.module"`. */
bool ss__shlo_is_mlir(const char *text, size_t len);

/* Fill `sc` (zeroed, path and src set, arena initialised) from the MLIR
 * text sc->src. On failure sc->err says where and why; returns
 * SS_ERR_PARSE (bad or unsupported input) or SS_ERR_NOMEM. */
ss_status ss__shlo_import(ss_scenario *sc, const ss__scn_overrides *ov);

/* --- What the importer's files share ------------------------------------ */

typedef struct ss__imp {
    ss_scenario *sc;
    ss__mlir_module *m;
    const ss__scn_overrides *ov;
    const ss__mlir_sdy_mesh *mesh; /* the module's Shardy mesh, or NULL (GSPMD) */
    /* The mesh the text's device ids refer to (GSPMD tiles, replica groups):
     * the module's own, also under --mesh, whose specs (axis names) then
     * carry over to sc->mesh. */
    const ss_mesh *text_mesh;
    ss_mesh *own_text_mesh; /* text_mesh when it is not sc->mesh */
    int ndevices;                  /* of the module (mhlo.num_partitions or the mesh) */
    /* mlir value -> program value: open addressing on the pointer */
    const ss__mlir_value **keys;
    ss_value *vals;
    size_t cap, used;
    int call_depth;
    const ss__mlir_op *calls[64]; /* the func.call ops being inlined, outermost first */
    /* > 0 while a scalar region is imported on whole arrays (x.at[i].apply's
     * f): a rank-0 result type then matches a value of any shape. */
    int elementwise_region;
} ss__imp;

/* The program value an MLIR value stands for, or -1 (with sc->err set at
 * `op`) when none has been made. */
ss_value ss__imp_get(ss__imp *im, const ss__mlir_op *op, const ss__mlir_value *v);
bool ss__imp_put(ss__imp *im, const ss__mlir_value *v, ss_value x);
/* Fail at op with a message; the op's Python origin is added. */
bool ss__imp_fail(ss__imp *im, const ss__mlir_op *op, const char *fmt, ...) SS__PRINTF(3, 4);
/* Record that builder call `st` made values [before, now) for `op`: their
 * MLIR spot and Python origin; on failure the builder's message at op. */
bool ss__imp_built(ss__imp *im, const ss__mlir_op *op, ss_status st, int before);
/* The memory kind named by text[0..len) ("device", "pinned_host",
 * "unpinned_host": JAX's names); false for another. */
bool ss__imp_memory_kind(const char *text, size_t len, ss_memory_kind *out);
/* Whether program value x lives in a host memory kind (a device_put there). */
bool ss__imp_in_host_memory(ss__imp *im, ss_value x);
/* The Python line of op: its own location's, else that of the innermost
 * call being inlined that has one (a private function's ops carry only
 * names); NULL when none does. */
const char *ss__imp_op_origin(ss__imp *im, const ss__mlir_op *op);
/* "model.py:42" for a location (the first frame outside JAX's and the
 * libraries' sources), in the scenario's arena; NULL when it has none. */
const char *ss__imp_origin(ss__imp *im, const ss__mlir_loc *loc);

/* The dtype of an MLIR element type; false for one shardsim lacks. */
bool ss__imp_dtype(ss__mlir_elem e, ss_dtype *out);
/* The dimensions list attribute `what` of op into out[0..SS_MAX_RANK). */
bool ss__imp_dims(ss__imp *im, const ss__mlir_op *op, const char *what, int out[], int *n);

/* Run the ops of `block` (its arguments already mapped); `ret` receives
 * the program values of its terminator's operands (func.return,
 * stablehlo.return, sdy.return), at most `cap`, *nret their count. */
bool ss__imp_block(ss__imp *im, const ss__mlir_block *block, ss_value ret[], int cap, int *nret);

/* shard_map (import_manual.c): sdy.manual_computation into res[]; the
 * collectives inside a manual region and partition_id; the GSPMD form's
 * @Sharding + @SPMDFullToShardShape / @SPMDShardToFullShape runs at
 * block->ops[*i] (*handled false when op i starts none; *i is left on the
 * run's last op). */
bool ss__imp_manual(ss__imp *im, const ss__mlir_op *op, const ss_value x[], ss_value res[]);
bool ss__imp_is_collective(const char *name);
/* stablehlo.reduce (import_reduce.c): one operand with a body of one
 * op (add, maximum, minimum, multiply, and, or), or JAX's argmax/argmin
 * (a value and an iota, reduced by compare-and-select); results into res[]. */
bool ss__imp_reduce(ss__imp *im, const ss__mlir_op *op, const ss_value x[], ss_value res[]);
/* A dims list from attribute a (absent: empty), and an integer list
 * (array<i64: ..> or [..]) into out[0..cap) (import_ops.c). */
bool ss__imp_dims_attr(ss__imp *im, const ss__mlir_op *op, const ss__mlir_attr *a,
                       const char *what, int out[], int *n);
bool ss__imp_int_list(ss__imp *im, const ss__mlir_op *op, const ss__mlir_attr *a,
                      const char *what, int64_t out[], int cap, int *n);
/* stablehlo.divide (import_arith.c): by a constant (or a broadcast of one)
 * as XLA computes it, a multiply by the reciprocal; else a divide. */
bool ss__imp_divide(ss__imp *im, const ss__mlir_op *op, const ss_value x[], ss_value *out);
/* stablehlo.multiply (import_arith.c): (A * C1) * C2 as A * (C1 * C2) for
 * constants C1, C2 (XLA's reassociation), else a multiply. */
bool ss__imp_multiply(ss__imp *im, const ss__mlir_op *op, const ss_value x[], ss_value *out);
/* stablehlo.gather and stablehlo.scatter (import_gather.c). */
bool ss__imp_gather(ss__imp *im, const ss__mlir_op *op, const ss_value x[], ss_value *out);
bool ss__imp_scatter(ss__imp *im, const ss__mlir_op *op, const ss_value x[], ss_value *out);
/* stablehlo.sort with JAX's comparators and chlo.top_k (import_sort.c):
 * results into res[]. */
bool ss__imp_sort(ss__imp *im, const ss__mlir_op *op, const ss_value x[], ss_value res[]);
bool ss__imp_top_k(ss__imp *im, const ss__mlir_op *op, const ss_value x[], ss_value res[]);
/* stablehlo.reduce_window and stablehlo.select_and_scatter as pads, strided
 * slices and elementwise ops (import_window.c): the result into res[0]. */
bool ss__imp_reduce_window(ss__imp *im, const ss__mlir_op *op, const ss_value x[],
                           ss_value res[]);
bool ss__imp_select_and_scatter(ss__imp *im, const ss__mlir_op *op, const ss_value x[],
                                ss_value res[]);
/* stablehlo.case and stablehlo.if (import_case.c): every branch, its
 * results selected by the index; results into res[]. */
bool ss__imp_case(ss__imp *im, const ss__mlir_op *op, const ss_value x[], ss_value res[]);
/* stablehlo.while as a loop (import_control.c): results into res[]. */
bool ss__imp_while(ss__imp *im, const ss__mlir_op *op, const ss_value x[], ss_value res[]);
bool ss__imp_collective(ss__imp *im, const ss__mlir_op *op, const ss_value x[], ss_value *out);
bool ss__imp_gspmd_manual(ss__imp *im, const ss__mlir_block *b, int *i, bool *handled);

/* The spec a Shardy sharding or a GSPMD mhlo.sharding string gives a value
 * of `rank` dims over sc->mesh. `what` names the value in errors. */
bool ss__imp_sdy_spec(ss__imp *im, const ss__mlir_op *at, const ss__mlir_sdy_sharding *sh,
                      int rank, ss_spec *out);
bool ss__imp_gspmd_spec(ss__imp *im, const ss__mlir_op *at, const char *text, size_t len,
                        int rank, ss_spec *out);
/* The spec of an attribute holding either spelling (an SDY_SHARDING, an
 * SDY_LIST's item `index`, or an mhlo.sharding STRING). */
bool ss__imp_attr_spec(ss__imp *im, const ss__mlir_op *at, const ss__mlir_attr *a, int index,
                       int rank, ss_spec *out);
/* The mesh text ("data=2,model=4") and device order of the module: from
 * its sdy.mesh, or the smallest mesh over which every GSPMD sharding of the
 * entry function is a NamedSharding (axes named x, y, z, ...); --mesh
 * replaces it in text, and module_text (cap bytes) keeps the module's. */
bool ss__imp_mesh_text(ss__imp *im, const ss__mlir_func *entry, char *text, size_t cap,
                       int order[], int *norder, char *module_text);

#endif
