/*
 * shardsim.h — the public API of shardsim, and its manual.
 *
 * shardsim simulates a mesh of accelerator devices on a CPU so that sharded
 * (GSPMD / SPMD) programs can be prototyped, tested and taught without an
 * accelerator. Its answers are JAX's answers: which slice of an array each
 * device holds, the HLO sharding string XLA prints, the picture
 * jax.debug.visualize_array_sharding draws, and Flax's resolution of logical
 * axis names.
 *
 * This header is the foundation layer: dtypes, meshes, partition specs, named
 * shardings, HLO sharding strings, logical axis rules and the visualizer.
 *
 * Conventions
 *   - Every call that can fail returns an ss_status: SS_OK (0) or a negative
 *     code. On failure, ss_error_message() returns a one-line description of
 *     what went wrong, where and why (JAX's wording where JAX defines one).
 *     The message is per thread and stays valid until the next failing call
 *     in that thread. Library code never exits or aborts on bad input.
 *   - Results come back through out-parameters. Text results are written to
 *     caller buffers; a too-small buffer is SS_ERR_RANGE, never a truncation
 *     reported as success.
 *   - Small descriptors (ss_spec, ss_sharding, ss_shard) are plain structs a
 *     caller may fill in literally. Runtime objects (ss_mesh) are opaque.
 *
 * Example: where does each device's shard of an f32[8,1024] array live on a
 * 2x4 ('data','model') mesh under P('data', None)?
 *
 *     ss_mesh *mesh;
 *     ss_spec spec;
 *     ss_sharding sh;
 *     ss_shard shards[8];
 *     int64_t shape[2] = {8, 1024};
 *     char hlo[256];
 *
 *     if (ss_mesh_parse("data=2,model=4", 8, NULL, &mesh) != SS_OK ||
 *         ss_spec_parse("P('data', None)", &spec) != SS_OK) {
 *         fprintf(stderr, "%s\n", ss_error_message());
 *         return 1;
 *     }
 *     ss_sharding_init(&sh, mesh, &spec);
 *     if (ss_sharding_shards(&sh, 2, shape, SS_F32, shards, 8) != SS_OK)
 *         fprintf(stderr, "%s\n", ss_error_message());
 *     // shards[5].start = {4, 0}, shards[5].stop = {8, 1024},
 *     // shards[5].replica_id = 1, shards[5].bytes = 16384
 *     ss_sharding_to_hlo(&sh, 2, hlo, sizeof hlo);
 *     // hlo = "{devices=[2,1,4]<=[8] last_tile_dim_replicate}"
 *     ss_mesh_destroy(mesh);
 */
#ifndef SHARDSIM_H
#define SHARDSIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------ */
/* Status codes                                                              */
/* ------------------------------------------------------------------------ */

/* X(name, value, short description). One table gives codes, names and
 * default messages; ss_status_name() and ss_status_string() read it. */
#define SS_STATUS_TABLE(X)                                                     \
    X(OK, 0, "ok")                                                             \
    X(ERR_INVALID, -1, "invalid argument")                                     \
    X(ERR_PARSE, -2, "parse error")                                            \
    X(ERR_NOMEM, -3, "out of host memory")                                     \
    X(ERR_RANGE, -4, "value or buffer out of range")                           \
    X(ERR_AXIS, -5, "mesh axis not found")                                     \
    X(ERR_DUPLICATE, -6, "duplicate mesh axis in spec")                        \
    X(ERR_RANK, -7, "spec longer than the array rank")                         \
    X(ERR_INDIVISIBLE, -8, "dimension not divisible by its partitions")        \
    X(ERR_MESH, -9, "invalid mesh")                                            \
    X(ERR_RULES, -10, "logical axis rules error")                              \
    X(ERR_UNSUPPORTED, -11, "not supported")                                   \
    X(ERR_DEVICE_OOM, -12, "device out of memory")                             \
    X(ERR_DEADLOCK, -13, "collective can never complete")                      \
    X(ERR_MISMATCH, -14, "devices reached different collectives")              \
    X(ERR_IO, -15, "input/output error")                                      \
    X(ERR_CANCELLED, -16, "stopped by the caller")

typedef enum ss_status {
#define SS__STATUS_ENUM(name, value, text) SS_##name = value,
    SS_STATUS_TABLE(SS__STATUS_ENUM)
#undef SS__STATUS_ENUM
} ss_status;

/* "SS_ERR_AXIS" for SS_ERR_AXIS; "SS_UNKNOWN" for a value not in the table. */
const char *ss_status_name(ss_status status);
/* The table's short description ("mesh axis not found"). */
const char *ss_status_string(ss_status status);
/* The message of the last failing call in this thread ("" if none). */
const char *ss_error_message(void);

/* ------------------------------------------------------------------------ */
/* Limits and dtypes                                                         */
/* ------------------------------------------------------------------------ */

/* The limits that remain. Each is checked where input enters (parsers,
 * ss_mesh_create, ss_spec_set_*, the importers), and going past one is an
 * error whose one-line message names the constant ("mesh: 17 axes; at most
 * 16 are supported (SS_MAX_AXES)"), never a truncation.
 *   SS_MAX_RANK     array dimensions, and entries of a PartitionSpec. JAX
 *                   has no limit; 16 is the rank issue 18 asks for.
 *   SS_MAX_AXES     mesh axes, and axes in one spec entry (an entry cannot
 *                   use more axes than the mesh has). MaxText's mesh has 12
 *                   axes and its longest rule value 6. The manual and
 *                   partial masks of ss_sharding are `unsigned`, so this
 *                   cannot pass 32 without widening them.
 *   SS_MAX_DEVICES  devices of one mesh.
 * Why not more: specs and shardings are fixed-size structs copied by value
 * (sizeof(ss_spec) is 2184 bytes, as it was with 8 x 8 and names inline),
 * and the partitioner's per-value layout grows with SS_MAX_RANK x
 * SS_MAX_AXES. Names and rule lists have no limit (see "Names"). */
#define SS_MAX_RANK 16
#define SS_MAX_AXES 16
#define SS_MAX_DEVICES 4096

/* Names. Mesh axis names and logical names have no length limit (JAX takes
 * any Python str). Structs that hold a name (ss_spec_dim, ...) hold a
 * `const char *`, never a copy: the text must outlive every struct and
 * every library object (program, executable, ...) that holds the pointer.
 * Names the library hands out point into its name pool, which lives for
 * the process: they are never freed and stay valid after the struct or
 * mesh that held them is gone. A string literal may be stored directly;
 * text in a temporary buffer is stored through ss_name_intern. Names are
 * compared by their text (strcmp), so a literal and the pool's copy of the
 * same text are the same name.
 *
 * The pool is one per process, thread-safe and append-only; its memory
 * stays reachable through a global (leak checkers report nothing).
 * Why a pool: the structs stay plain values that copy by assignment (a
 * heap string per name would give every ss_spec an owner and a free), a
 * name costs one pointer instead of a fixed char array, and the set of
 * distinct names a process sees is small (a model's axis and logical
 * names), so never freeing them costs little. */

/* The pool's copy of `name` (NUL-terminated UTF-8 of any length) in *out:
 * equal texts give the same pointer. SS_ERR_NOMEM when host memory runs
 * out (*out untouched), SS_ERR_INVALID for NULL arguments. */
ss_status ss_name_intern(const char *name, const char **out);

typedef enum ss_dtype {
    SS_F32 = 0,
    SS_BF16,
    SS_F16,
    SS_I32,
    SS_F64,
    SS_I64,
    SS_I8,
    SS_U8,
    SS_BOOL, /* StableHLO's i1: one byte, 0 or 1 */
    SS_I16,
    SS_U16,
    SS_U32,
    SS_U64,
    SS_DTYPE_COUNT
} ss_dtype;

/* Size of one element in bytes (4 for SS_F32). 0 for an invalid dtype. */
size_t ss_dtype_size(ss_dtype dtype);
/* Short name as used on the command line: "f32", "bf16", "f16", "i32", ... */
const char *ss_dtype_name(ss_dtype dtype);
/* Parse a short name or its numpy spelling ("float32", "bfloat16", "int32").
 * SS_ERR_PARSE if unknown. */
ss_status ss_dtype_parse(const char *text, ss_dtype *out);

/* ------------------------------------------------------------------------ */
/* Mesh                                                                      */
/* ------------------------------------------------------------------------ */

/* A mesh: named axes with sizes laid over a fixed number of virtual devices.
 * Mesh position p (0..N-1) is the row-major index over the axes (last axis
 * fastest); device_id(p) is the device at that position, p itself unless an
 * explicit order was given (as TPU make_mesh orders do). Several meshes may
 * be created over the same devices at once; a mesh owns nothing but itself. */
typedef struct ss_mesh ss_mesh;

/* Create a mesh of `naxes` axes. `sizes[i]` >= 1, or -1 for at most one axis
 * whose size is inferred as ndevices / product(other sizes), as
 * mesh_utils.create_device_mesh does. `device_ids` (may be NULL = 0..N-1)
 * lists the device id at each mesh position; ids must be distinct and in
 * [0, ndevices). naxes may be 0 (the empty mesh over one device).
 * Errors (SS_ERR_MESH): duplicate or empty axis name, size < 1, two -1 axes,
 * product of sizes != ndevices, bad device ids, ndevices outside
 * 1..SS_MAX_DEVICES. *out is NULL on failure. */
ss_status ss_mesh_create(int naxes, const char *const names[], const int64_t sizes[],
                         int ndevices, const int *device_ids, ss_mesh **out);
/* Parse "data=2,model=4" (also "data:2 model:4", "-1" sizes; "" = empty mesh)
 * and create the mesh as ss_mesh_create. */
ss_status ss_mesh_parse(const char *text, int ndevices, const int *device_ids,
                        ss_mesh **out);
/* jax.make_mesh over `available` devices: the mesh takes the first
 * product(sizes) of them (ids 0..P-1, or `device_ids` listing P ids), a -1
 * axis is inferred from `available`, and a product larger than `available`
 * is JAX's error "Number of devices 8 must be >= the product of mesh_shape
 * (4, 4)". */
ss_status ss_mesh_make(const char *text, int available, const int *device_ids,
                       ss_mesh **out);
void ss_mesh_destroy(ss_mesh *mesh);

int ss_mesh_axis_count(const ss_mesh *mesh);
/* The name of `axis` (NULL outside 0..count-1): the name pool's copy, valid
 * for the process, after the mesh is destroyed too. */
const char *ss_mesh_axis_name(const ss_mesh *mesh, int axis);
int64_t ss_mesh_axis_size(const ss_mesh *mesh, int axis);
/* Index of the axis called `name`, or -1. */
int ss_mesh_axis_index(const ss_mesh *mesh, const char *name);
int ss_mesh_device_count(const ss_mesh *mesh);
/* Device id at mesh position `pos`. */
int ss_mesh_device_id(const ss_mesh *mesh, int pos);
/* Mesh position of device `id`, or -1 if it is not in the mesh. */
int ss_mesh_position_of(const ss_mesh *mesh, int id);
/* Mesh coordinates of position `pos`: coords[axis] for every axis. */
void ss_mesh_coords(const ss_mesh *mesh, int pos, int64_t coords[]);
/* 1 if the device order is 0..N-1 (iota), else 0. */
int ss_mesh_is_iota(const ss_mesh *mesh);
/* "Mesh('data': 2, 'model': 4)" (JAX's str before axis types; "Mesh()" for
 * the empty mesh). Names are quoted as JAX quotes them here, '...' with
 * nothing escaped (JAX's f-string, not Python's repr: a name holding a
 * quote does not read back, as in JAX). With `axis_types` nonzero, today's form
 * "Mesh('data': 2, 'model': 4, axis_types=(Auto, Auto))". */
ss_status ss_mesh_repr(const ss_mesh *mesh, int axis_types, char *buf, size_t cap);

/* ------------------------------------------------------------------------ */
/* PartitionSpec                                                             */
/* ------------------------------------------------------------------------ */

/* One spec entry: None (naxes == 0), one axis (naxes == 1) or a tuple of
 * axes, major first (naxes >= 2). `unconstrained` marks P.UNCONSTRAINED
 * (then naxes is 0). A 1-tuple and a bare axis are the same entry, and an
 * empty tuple is None: that is JAX's canonical form, built into the layout. */
typedef struct ss_spec_dim {
    int naxes;
    int unconstrained;
    const char *axes[SS_MAX_AXES]; /* axes[0..naxes): see "Names" above */
} ss_spec_dim;

/* A PartitionSpec: one entry per leading array dimension; missing trailing
 * entries mean None. Names are mesh axis names, or logical names before
 * ss_rules_resolve. */
typedef struct ss_spec {
    int ndims;
    ss_spec_dim dims[SS_MAX_RANK];
} ss_spec;

/* Parse a spec. Accepted forms:
 *   P('data', None)   PartitionSpec(('data', 'model'), None)   P()
 *   data,None         (data,model),None    ""  (= P())
 *   P('x', UNCONSTRAINED)  P.UNCONSTRAINED is also accepted
 * Quotes may be ' or " or absent; a quoted name is a Python string literal
 * ('a\'b', "a'b", '\u00e9': Python's escapes; UTF-8 of any length; the
 * names are interned, see "Names"). A nested tuple is an error with JAX's
 * wording; so is an entry with more than SS_MAX_AXES axes or a spec of
 * more than SS_MAX_RANK entries (SS_ERR_PARSE, naming the limit). */
ss_status ss_spec_parse(const char *text, ss_spec *out);
/* JAX's repr: "P('data', None)", "P('x',)", "P(('x', 'y'),)", "P()"; each
 * name as Python's repr() of the str ("P(\"a'b\",)", 'a\'b"c', '\t'), so
 * ss_spec_parse reads the text back to the same spec. */
ss_status ss_spec_repr(const ss_spec *spec, char *buf, size_t cap);
/* Equal after dropping trailing None entries. */
int ss_spec_equal(const ss_spec *a, const ss_spec *b);
/* Helpers for building specs in code: set dim `d` (growing ndims) to None,
 * to one axis, or to a tuple of `n` axes. SS_ERR_RANGE past the limits. */
ss_status ss_spec_set_none(ss_spec *spec, int d);
ss_status ss_spec_set_axes(ss_spec *spec, int d, int n, const char *const axes[]);

/* ------------------------------------------------------------------------ */
/* NamedSharding                                                             */
/* ------------------------------------------------------------------------ */

/* A NamedSharding: a mesh (borrowed, must outlive the sharding) and a spec
 * over its axis names. `manual_mask` has bit i set for mesh axes that are
 * Manual (inside a shard_map body); they never appear in the spec.
 * `partial_mask` has bit i set for mesh axes over which the value is a
 * pending sum (DTensor's Partial, Shardy's unreduced): each device holds a
 * full-size term of its block and the value is the sum over that axis. Only
 * the partitioner produces partial shardings; user-facing calls ignore it
 * unless they say otherwise. */
typedef struct ss_sharding {
    const ss_mesh *mesh;
    ss_spec spec;
    unsigned manual_mask;
    unsigned partial_mask;
} ss_sharding;

/* One device's shard of an array: [start, stop) per dimension. */
typedef struct ss_shard {
    int device;         /* device id */
    int position;       /* mesh position */
    int64_t start[SS_MAX_RANK];
    int64_t stop[SS_MAX_RANK];
    int replica_id;     /* earlier positions holding the same index */
    size_t bytes;       /* shard elements * dtype size */
} ss_shard;

void ss_sharding_init(ss_sharding *sh, const ss_mesh *mesh, const ss_spec *spec);
/* Checks that need no array shape: every axis is in the mesh (JAX's
 * "Resource axis: z of P('z',) is not found in mesh: ('x', 'y')."), no axis is
 * used twice (DuplicateSpecError wording), no entry is UNCONSTRAINED. */
ss_status ss_sharding_validate(const ss_sharding *sh);
/* ss_sharding_validate, then the rank check ("Sharding ... is only valid for
 * values of rank at least 2, but was applied to a value of rank 1."), the
 * element count (SS_ERR_RANGE: "array shape (4294967296, 4294967296, 16)
 * has more than 2^63 - 1 elements") and the divisibility check
 * (IndivisibleError's "... should evenly divide the shape)"). */
ss_status ss_sharding_check(const ss_sharding *sh, int rank, const int64_t shape[]);
/* Number of partitions of each dimension (product of its axes' sizes). */
ss_status ss_sharding_tiling(const ss_sharding *sh, int rank, int64_t factors[]);
/* Per-device block shape; requires ss_sharding_check to pass. */
ss_status ss_sharding_shard_shape(const ss_sharding *sh, int rank, const int64_t shape[],
                                  int64_t out[]);
/* Every device's shard in mesh order (JAX's devices_indices_map plus
 * replica ids): `out` has room for `cap` >= device count entries. An array
 * of more than 2^63 - 1 bytes is SS_ERR_RANGE. */
ss_status ss_sharding_shards(const ss_sharding *sh, int rank, const int64_t shape[],
                             ss_dtype dtype, ss_shard out[], int cap);
/* 1 if every device holds the whole array (JAX is_fully_replicated). */
int ss_sharding_is_replicated(const ss_sharding *sh);
/* Replica groups: devices (ids) holding identical shards. Group g's members
 * are ids[offsets[g] .. offsets[g+1]); groups ordered by their first mesh
 * position, members in mesh order. `ids` and `offsets` need room for the
 * device count and device count + 1 entries. */
ss_status ss_sharding_replica_groups(const ss_sharding *sh, int *ngroups, int ids[],
                                     int offsets[]);
/* "NamedSharding(mesh=Mesh('x': 4, 'y': 2, axis_types=(Auto, Auto)),
 *  spec=P('x', 'y'), memory_kind=device)" (as today's JAX prints it). */
ss_status ss_sharding_repr(const ss_sharding *sh, char *buf, size_t cap);

/* ------------------------------------------------------------------------ */
/* HLO sharding strings                                                      */
/* ------------------------------------------------------------------------ */

typedef enum ss_hlo_kind {
    SS_HLO_REPLICATED = 0,
    SS_HLO_MAXIMAL,
    SS_HLO_MANUAL,
    SS_HLO_TILED
} ss_hlo_kind;

typedef enum ss_hlo_subgroup {
    SS_HLO_SUB_MANUAL = 0,
    SS_HLO_SUB_REPLICATED
} ss_hlo_subgroup;

/* A parsed HLO sharding. For SS_HLO_TILED, tile_dims[0..ndims) are the
 * tile-assignment dimensions (data dims first, then `nsub` trailing subgroup
 * dims of types sub[]), and devices[] the row-major flattened tile
 * assignment (ndevices = product of tile_dims). `devices` is owned by the
 * struct: release it with ss_hlo_free. */
typedef struct ss_hlo {
    ss_hlo_kind kind;
    int maximal_device;
    int ndims;
    int64_t tile_dims[SS_MAX_RANK + 2];
    int nsub;
    ss_hlo_subgroup sub[2];
    int ndevices;
    int *devices;
} ss_hlo;

/* The HLO sharding text XLA prints for this sharding on an array of `rank`
 * dims: "{replicated}", "{devices=[2,4]<=[8]}",
 * "{devices=[4,8]<=[8,4]T(1,0)}", "... last_tile_dim_replicate",
 * "... last_tile_dims={manual, replicated}", "{manual}", or the explicit
 * device list form "{devices=[2,4]0,4,1,5,2,6,3,7}" when the mesh has a
 * non-iota device order. */
ss_status ss_sharding_to_hlo(const ss_sharding *sh, int rank, char *buf, size_t cap);
/* Parse any of the forms above (also "{maximal device=N}"). */
ss_status ss_hlo_parse(const char *text, ss_hlo *out);
void ss_hlo_free(ss_hlo *hlo);
/* Print in XLA's canonical text (iota form when the device list is an iota
 * permutation that XLA would print so, else the explicit list). */
ss_status ss_hlo_print(const ss_hlo *hlo, char *buf, size_t cap);
/* The spec over `mesh` whose HLO sharding is `hlo` for an array of `rank`
 * dims (the inverse of ss_sharding_to_hlo). SS_ERR_UNSUPPORTED with a
 * message if no NamedSharding over this mesh produces it. */
ss_status ss_hlo_to_sharding(const ss_hlo *hlo, const ss_mesh *mesh, int rank,
                             ss_sharding *out);

/* ------------------------------------------------------------------------ */
/* Logical axis rules                                                        */
/* ------------------------------------------------------------------------ */

typedef enum ss_rule_kind {
    SS_RULE_AXES = 0,      /* one axis or a tuple of axes */
    SS_RULE_NONE,          /* None: claims the dimension, shards nothing */
    SS_RULE_EMPTY,         /* (): claims the dimension, uses no axis */
    SS_RULE_UNCONSTRAINED  /* P.UNCONSTRAINED */
} ss_rule_kind;

/* One rule: logical `name` -> mesh axes axes[0..naxes) (names: see
 * "Names" above). */
typedef struct ss_rule {
    const char *name;
    ss_rule_kind kind;
    int naxes;
    const char *axes[SS_MAX_AXES];
} ss_rule;

/* An ordered list of rules of any length (`count` is an int); order is
 * priority. Owned array: ss_rules_free releases it (the names stay in the
 * pool). */
typedef struct ss_rules {
    int count;
    ss_rule *rules;
} ss_rules;

/* Parse "batch=data,hidden=model,kv=None,x=(a,b),y=(),z=UNCONSTRAINED"
 * (also separated by spaces). Names may repeat (fall-through). */
ss_status ss_rules_parse(const char *text, ss_rules *out);
void ss_rules_free(ss_rules *rules);

/* Fallback of with_logical_constraint when a name matches no usable rule. */
typedef enum ss_rules_fallback {
    SS_FALLBACK_UNSHARDED = 0, /* AXIS_IS_UNSHARDED: the dim becomes None */
    SS_FALLBACK_RAISE,         /* RAISE_ERROR: "Axis names (...) did not match a rule" */
    SS_FALLBACK_NO_CONSTRAINT  /* NO_CONSTRAINT: *constrained = 0 */
} ss_rules_fallback;

typedef struct ss_rules_options {
    /* With a mesh, after Flax's resolution an axis absent from the mesh is
     * JAX's NamedSharding error (SS_ERR_AXIS, "Resource axis: dta of
     * P('dta',) is not found in mesh: ('data', 'model').") and then
     * MaxText's step drops axes of size 1. NULL: Flax alone. */
    const ss_mesh *mesh;
    /* Nonzero: a rule that lost a dimension to an earlier claim of its mesh
     * axes is an error naming both, instead of a silent None. */
    int strict;
    ss_rules_fallback fallback;
    /* NULL, or room for names->ndims decisions: how each dimension was
     * resolved (filled on success), for reports that say why a dimension
     * ended up unsharded. */
    struct ss_rules_decision *decisions;
} ss_rules_options;

/* How ss_rules_resolve decided one dimension. */
typedef struct ss_rules_decision {
    int rule;      /* the rule that set the dimension; -1: none did, or not a logical name */
    int lost_rule; /* the first rule of its name refused because one of its
                    * mesh axes was already used, or -1 */
    int lost_axis; /* index into lost_rule's axes of that axis */
    int lost_to;   /* the dimension that held it */
} ss_rules_decision;

/* Resolve logical names to mesh axes with Flax Linen's algorithm:
 * `names` is a spec whose entries are logical names (1 axis), None or
 * UNCONSTRAINED. A name occurring twice is Flax's error "Unsupported:
 * Dimensions ('foo',) occur more than once in array names.". *constrained
 * (may be NULL) is 0 when the NO_CONSTRAINT fallback or empty rules mean no
 * constraint applies. `opts` may be NULL (Flax defaults). */
ss_status ss_rules_resolve(const ss_rules *rules, const ss_spec *names,
                           const ss_rules_options *opts, ss_spec *out, int *constrained);

/* Rule `i` can never apply when an earlier rule of the same name uses a
 * subset of its mesh axes (None, () and UNCONSTRAINED use none): whenever
 * the earlier rule is refused, so is rule i, and when it is not, it takes
 * the dimension first. Returns that earlier rule's index, or -1 (also for
 * i out of range). */
int ss_rules_shadowed_by(const ss_rules *rules, int i);

/* ------------------------------------------------------------------------ */
/* MaxText configurations                                                    */
/* ------------------------------------------------------------------------ */

/*
 * A MaxText configuration as its pyconfig loads one: a YAML file (its
 * `base_config` chain merged first, later keys replacing earlier ones,
 * lists whole), then the model's file (models/<model_name>.yml beside it,
 * or an explicit path), then "key=value" overrides as on MaxText's command
 * line. logical_axis_rules merge as MaxText merges them: a later layer's
 * rules replace every rule of the same logical name and are appended,
 * unless that layer sets override_logical_axis_rules, which replaces the
 * whole list. What is read: mesh_axes, logical_axis_rules, data_sharding,
 * num_slices, model_name, override_logical_axis_rules,
 * allow_split_physical_axes and every
 * ici_*_parallelism / dcn_*_parallelism; every other key is ignored.
 */
typedef struct ss_maxtext_config ss_maxtext_config;

/* Load `path` (see above). `model_path` NULL: models/<model_name>.yml
 * beside the file or one folder up, as MaxText looks (none found: no model
 * layer, as MaxText only warns). Overrides are "key=value" with a YAML
 * value ("ici_fsdp_parallelism=4", "mesh_axes=[data,fsdp]"). Errors: SS_ERR_IO
 * (unreadable file), SS_ERR_PARSE with "FILE:LINE:COL: why" (bad YAML, a
 * known key of the wrong shape, or more than SS_MAX_AXES mesh axes or
 * axes in one rule, naming the limit). *out is NULL on failure. */
ss_status ss_maxtext_config_load(const char *path, const char *model_path, int noverrides,
                                 const char *const overrides[], ss_maxtext_config **out);
void ss_maxtext_config_free(ss_maxtext_config *cfg);

/* The config's mesh_axes, in order: their count, and (when names is not
 * NULL, room for SS_MAX_AXES) their names, owned by the name pool. */
int ss_maxtext_config_mesh_axes(const ss_maxtext_config *cfg, const char **names);
/* The merged logical_axis_rules, in priority order (owned by cfg). */
const ss_rules *ss_maxtext_config_rules(const ss_maxtext_config *cfg);
/* data_sharding as the spec MaxText shards a batch with, P(*data_sharding)
 * (size-1 axes kept; ss_rules_resolve's mesh step is what drops them). */
ss_status ss_maxtext_config_data_sharding(const ss_maxtext_config *cfg, ss_spec *out);

/*
 * TPU slices. A topology as libtpu names one: "v5e:4x4", "v6e:8x8" (2-D,
 * z = 1), "v5p:4x4x4" or "v4:4x4x8" (3-D; v4 in megacore mode), one device
 * per chip, or "v7x:2x2x4" (3-D, two devices per chip). libtpu numbers a
 * slice's devices by their coordinates, id = x + X*(y + Y*z) for a slice
 * of X x Y x Z chips (on v7x core + 2*that; checked against libtpu 0.0.42.1's topology
 * descriptions, tests/data/tpu_device_orders.json). With several slices
 * libtpu's ids are 100000*(s+1) + that id; shardsim numbers device `id`
 * of slice s as s*devices + id instead, so that ids run 0..N-1.
 */
typedef struct ss_tpu_topology {
    char kind[4]; /* "v5e", "v6e", "v5p", "v4" (megacore: a device per chip) or "v7x" */
    int dims[3];  /* X, Y, Z chips (Z = 1 for v5e and v6e) */
    int devices;  /* X*Y*Z*cores, the devices of one slice */
    int cores;    /* devices per chip: 2 on v7x, else 1 */
} ss_tpu_topology;

/* Parse "KIND:XxY" (v5e, v6e) or "KIND:XxYxZ" (v5p, v4, v7x; libtpu's
 * "tpu7x" is read as v7x). Errors: SS_ERR_INVALID
 * naming the text and the expected form, or more than SS_MAX_DEVICES
 * devices. *out is zeroed on failure. */
ss_status ss_tpu_topology_parse(const char *text, ss_tpu_topology *out);

/* The coordinates (x, y, z) of shardsim's device `id` (any slice), its
 * chip's; ss_tpu_device_core gives which of the chip's devices it is (0
 * but on v7x, where libtpu numbers a chip's two cores 2*chip and 2*chip+1). */
void ss_tpu_device_coords(const ss_tpu_topology *t, int id, int coords[3]);
int ss_tpu_device_core(const ss_tpu_topology *t, int id);

/* The device order of jax.experimental.mesh_utils (JAX 0.10.2) on
 * `nslices` slices of topology `t`: create_device_mesh(ici, slice's
 * devices, allow_split_physical_axes=allow_split) in every slice and, with
 * `dcn` (NULL: all 1), create_hybrid_device_mesh's block layout of the
 * slices. The rules, restated in sim/mesh/tpu_order.c: v5e/v6e's fixed
 * ring orders for slices of 4 and 8 devices and for a 4x4 slice whose mesh
 * has an axis of all 16 devices; otherwise each mesh axis, the last first,
 * takes whole physical axes whose sizes multiply to its size (most axes
 * first); a mesh axis with none is refused with JAX's NotImplementedError
 * text unless allow_split, where JAX's axis-splitting assignment is used.
 * Writes prod(ici)*nslices shardsim device ids (see above) to `ids` in
 * row-major mesh order, mesh axis i of size ici[i]*dcn[i]. Errors
 * (SS_ERR_MESH): the products of ici and dcn are not the slice's devices
 * and the slice count; JAX's refusal, prefixed by the topology. */
ss_status ss_tpu_mesh_order(const ss_tpu_topology *t, int nslices, int naxes,
                            const int64_t ici[], const int64_t dcn[], bool allow_split,
                            int ids[]);

/* The mesh MaxText's create_device_mesh builds over `ndevices` devices in
 * `nslices` slices (0: the config's num_slices when positive, else 1):
 * every mesh axis's ICI parallelism (ici_<axis>_parallelism; stage reads
 * ici_pipeline_parallelism, fsdp defaults to -1, others to 1), one -1
 * filled so their product is the devices per slice, and with several
 * slices the same for DCN over the slices. Axis sizes are ici x dcn, size-1
 * axes kept; device ids follow mesh_utils.create_hybrid_device_mesh over
 * devices numbered slice by slice (slice s holds s*D/S .. (s+1)*D/S-1, each
 * slice's devices in order, as on CPU devices; ss_maxtext_mesh_tpu gives
 * a TPU slice's order). `ici`/`dcn` (may be NULL) receive the filled values,
 * SS_MAX_AXES entries. Errors (SS_ERR_MESH) say which parallelism values
 * do not multiply to which count, in MaxText's terms. */
ss_status ss_maxtext_mesh(const ss_maxtext_config *cfg, int ndevices, int nslices,
                          ss_mesh **out, int64_t *ici, int64_t *dcn);

/* ss_maxtext_mesh on TPU slices of topology `topo`: the devices are
 * topo->devices x nslices (nslices 0: the config's num_slices when
 * positive, else 1), the parallelism values are filled the same way, and
 * the device order is ss_tpu_mesh_order's with the config's
 * allow_split_physical_axes (default false, as in MaxText's base.yml), as
 * MaxText's create_device_mesh passes it to mesh_utils. Errors: those of
 * ss_maxtext_mesh and ss_tpu_mesh_order. */
ss_status ss_maxtext_mesh_tpu(const ss_maxtext_config *cfg, const ss_tpu_topology *topo,
                              int nslices, ss_mesh **out, int64_t *ici, int64_t *dcn);

/* ------------------------------------------------------------------------ */
/* Visualizer                                                                */
/* ------------------------------------------------------------------------ */

typedef struct ss_viz_options {
    const char *platform; /* label prefix: "CPU" (default when NULL), "TPU", "GPU";
                             upper-cased as JAX does; letters, digits, _ - . */
    double scale;         /* 0 means 1.0; finite, |scale| <= 1000 */
    int min_width;        /* 0 means 9 */
    int max_width;        /* 0 means 80: the console width */
    int color;            /* nonzero: ANSI background colours, no box */
} ss_viz_options;

/* jax.debug.visualize_array_sharding's text for a rank-1 or rank-2 array,
 * byte for byte (no colour), every line ending in '\n'. Written to `out`
 * with a NUL; *len (may be NULL) receives the length. `opts` may be NULL.
 * A table wider than max_width is squeezed as rich 13.3.1 squeezes it
 * (widest columns first, labels wrapped at spaces, over-long words cut
 * with "…", lines cropped at max_width). With `color`, JAX's use_color:
 * no box, each cell's runs written as ESC[38;2;R;G;B;48;2;R;G;Bm...ESC[0m
 * with the tab20b colour make_color_iter picks and black or white text.
 * Errors: rank outside 1..2 is SS_ERR_INVALID with JAX's message (use
 * ss_viz_sharding_nd); the sharding's own errors (SS_ERR_INDIVISIBLE for
 * uneven shards, SS_ERR_AXIS, ...); a zero-size dimension or bad options
 * SS_ERR_INVALID; SS_ERR_RANGE if `cap` is too small. */
ss_status ss_viz_sharding(const ss_sharding *sh, int rank, const int64_t shape[],
                          const ss_viz_options *opts, char *out, size_t cap, size_t *len);
/* Arrays of any rank: rank <= 2 as ss_viz_sharding (row_dim and col_dim
 * ignored); otherwise one picture of dims (row_dim, col_dim) per block of
 * the other dims, blocks in row-major order of their shard indices, each
 * under a heading giving the block's range in the other dims and ":" for
 * the pictured ones (and for other dims that are not split), e.g.
 * "[0:2, :, :]", pictures separated by an empty line. Each picture is the
 * one ss_viz_sharding draws for the devices holding that block. row_dim
 * and col_dim must be two different dims in 0..rank-1, or both -1 for the
 * last two (SS_ERR_INVALID otherwise). */
ss_status ss_viz_sharding_nd(const ss_sharding *sh, int rank, const int64_t shape[],
                             int row_dim, int col_dim, const ss_viz_options *opts,
                             char *out, size_t cap, size_t *len);
/* A picture of the mesh itself (our layout; JAX has none): the header line
 * "Mesh('data': 2, 'model': 4)", then a box of device ids with the last
 * axis across (labelled "model →" over its coordinates) and the first axis
 * down ("data ↓" beside its coordinates); each combination of the axes in
 * between gets its own box under a heading such as "stage = 1", boxes
 * separated by an empty line. No trailing blanks; never squeezed. `opts`
 * is not used yet (may be NULL). SS_ERR_RANGE if `cap` is too small. */
ss_status ss_viz_mesh(const ss_mesh *mesh, const ss_viz_options *opts, char *out,
                      size_t cap, size_t *len);

/* ------------------------------------------------------------------------ */
/* Virtual devices                                                           */
/* ------------------------------------------------------------------------ */

/* A context owns N virtual devices. Each device is a fiber (a user-space
 * thread with a stack of its own) with its own memory arena of a fixed
 * capacity, the emulated HBM: the range is reserved, not committed, so 8 x 16 GiB devices start on a 24 GiB
 * host and only touched bytes cost RAM. Devices are grouped into hosts
 * (JAX's processes): a host sees only its own devices' shards.
 *
 * Work runs on the devices with ss_context_run(): the same function is called
 * once on every device (SPMD). Inside it a device allocates from its
 * arena, runs kernels and takes part in collectives with its peers. The
 * fibers run on `threads` worker threads (the cores by default), so at most
 * that many devices compute at once; a device waiting for its peers parks
 * and its worker runs another device (a switch in user space, no system
 * call), so 256 devices on 2 cores cost 2 threads. Any worker may run any
 * device, and a device function may continue on another thread after a
 * collective: it must not keep thread-local state across one.
 *
 * Collectives are exact and deterministic: reductions start from the
 * identity and combine inputs in rank order, as XLA's in-process CPU
 * communicator does, so results are bit-identical for any worker count
 * (NaN payloads excepted: which NaN an addition keeps is the compiler's). A
 * group whose devices reach different collectives, or whose devices do not
 * all arrive within the timeout, ends the run with SS_ERR_MISMATCH or
 * SS_ERR_DEADLOCK and a one-line report of what every device waits in; the
 * run never hangs.
 *
 * Example: sum a P('x')-sharded f32[8] over 'x' on 4 devices.
 *
 *     static ss_status body(ss_device *dev, void *user) {
 *         const ss_coll *c = user;
 *         float in[2] = {(float)ss_device_id(dev), 1}, out[2];
 *         return ss_device_collective(dev, c, in, out); // out = {6, 4}
 *     }
 *     ...
 *     ss_context_options o = {.ndevices = 4};
 *     ss_context *ctx;
 *     ss_mesh *mesh;
 *     ss_coll c;
 *     ss_context_create(&o, &ctx);
 *     ss_mesh_parse("x=4", 4, NULL, &mesh);
 *     ss_coll_init(&c, SS_COLL_ALL_REDUCE, mesh, "x", SS_F32, 1,
 *                  (int64_t[]){2});
 *     if (ss_context_run(ctx, body, &c) != SS_OK)
 *         fprintf(stderr, "%s\n", ss_error_message());
 *     ss_mesh_destroy(mesh);
 *     ss_context_destroy(ctx);
 */

#define SS_DEFAULT_DEVICE_MEMORY ((size_t)16 << 30) /* 16 GiB per device */
#define SS_DEFAULT_TIMEOUT 10.0                     /* seconds a collective may wait */

typedef struct ss_context ss_context;
typedef struct ss_device ss_device;

/* Parse a byte size, as --device-memory, `device_memory` and Python's
 * shardsim.parse_bytes read it: a number, optional spaces, then a unit.
 * Binary (IEC) units KiB, MiB, GiB, TiB are powers of 1024, and so are the
 * bare letters K, M, G, T (what an accelerator's memory is quoted in: a
 * "16 GB" TPU v5e chip has 16 GiB of HBM, jax's memory_stats bytes_limit is
 * in bytes); the SI units KB, MB, GB, TB are powers of 1000, as in dd(1),
 * du --block-size and Kubernetes. "16GiB" = 16 x 2^30, "16G" = 16 x 2^30,
 * "16GB" = 16 x 10^9, "1.5 KiB" = 1536, "4096" and "4096B" = 4096. Letters
 * are case-insensitive (but "GB" is decimal only with a B after the
 * letter). The result must be a whole number of bytes. SS_ERR_PARSE for
 * anything else, SS_ERR_RANGE past SIZE_MAX. */
ss_status ss_size_parse(const char *text, size_t *out);
/* A byte count as the reports write it, in binary units with one decimal
 * ("512 B", "16.0 KiB", "1.5 MiB", "2.0 TiB"), into out (cap bytes; 16
 * always suffice). */
void ss_size_format(char *out, size_t cap, double bytes);

typedef struct ss_context_options {
    int ndevices;         /* 1..SS_MAX_DEVICES */
    size_t device_memory; /* per device; 0: $SHARDSIM_DEVICE_MEMORY, else 16 GiB */
    int hosts;            /* 0 or 1: one host; else must divide ndevices */
    int threads;          /* worker threads (devices computing at once); 0: the online cores */
    double timeout;       /* seconds a collective waits for its group; 0: 10 s */
    size_t host_memory;   /* per host, for values in host memory kinds (ss_memory_kind),
                             split evenly between its devices; 0: as much as its
                             devices' device memory together */
} ss_context_options;

/* Create the devices: reserve one arena and one stack per device and start
 * the worker threads. `opts` may not be NULL. Errors: SS_ERR_INVALID for a bad option
 * (message names it), SS_ERR_PARSE for an unparsable
 * $SHARDSIM_DEVICE_MEMORY, SS_ERR_NOMEM when the address space, memory or
 * threads cannot be had (everything created so far is released). *out is
 * NULL on failure. */
ss_status ss_context_create(const ss_context_options *opts, ss_context **out);
/* Stop the workers and unmap every arena and stack (live buffers and arrays included:
 * destroy arrays first). NULL is a no-op. */
void ss_context_destroy(ss_context *ctx);

int ss_context_device_count(const ss_context *ctx);
int ss_context_thread_count(const ss_context *ctx);
size_t ss_context_device_memory(const ss_context *ctx);
/* Hosts (JAX process_count). Devices [h*N/H, (h+1)*N/H) belong to host h. */
int ss_context_process_count(const ss_context *ctx);
/* Host of a device (JAX device.process_index); -1 for a bad id. */
int ss_context_process_index(const ss_context *ctx, int device);
/* The device ids of host `host` (JAX local_devices for that process), in id
 * order. `ids` needs room for N / hosts entries; *n receives the count.
 * SS_ERR_RANGE for a bad host or a small `cap`. */
ss_status ss_context_addressable_devices(const ss_context *ctx, int host, int ids[], int cap,
                                         int *n);
/* Seconds a collective waits for the rest of its group before the run stops
 * with SS_ERR_DEADLOCK. SS_ERR_INVALID unless 0 < seconds <= 1e6. */
ss_status ss_context_set_timeout(ss_context *ctx, double seconds);

/* A per-device function: called once on each device's thread by
 * ss_context_run with that device's handle and the caller's `user`. */
typedef ss_status (*ss_device_fn)(ss_device *dev, void *user);

/* Run `fn` on every device at once and wait for all of them. Returns SS_OK
 * when every call returned SS_OK. Otherwise the status and message of the
 * root cause: a device's own failure (an OOM, a mismatch, a deadlock report)
 * wins over failures that only follow from it (peers abandoning a
 * collective). A context runs one function at a time; calling
 * ss_context_run from inside a device function is SS_ERR_INVALID. */
ss_status ss_context_run(ss_context *ctx, ss_device_fn fn, void *user);

int ss_device_id(const ss_device *dev);
ss_context *ss_device_context(const ss_device *dev);
/* Bracket a compute kernel inside a device function, for the trace: `name`
 * (may be NULL) labels the kernel's slice. Begin twice is one begin; a
 * function returning inside a kernel ends it. (The workers already bound
 * how many devices compute at once.) */
void ss_device_kernel_begin(ss_device *dev, const char *name);
void ss_device_kernel_end(ss_device *dev);

/* --- Device memory --- */

/* Allocate `bytes` in device `device`'s arena, 64-byte aligned. `name`
 * (may be NULL) labels the buffer in statistics and OOM reports. May be
 * called from any thread. SS_ERR_RANGE for a bad device. SS_ERR_DEVICE_OOM
 * when the arena has no free block that large (or an injected fault fires):
 * the message names the device, the buffer, the requested bytes, live bytes,
 * capacity and the five largest live buffers. *out is NULL on failure. */
ss_status ss_device_alloc(ss_context *ctx, int device, size_t bytes, const char *name,
                          void **out);
/* Free a buffer from ss_device_alloc. NULL is a no-op. SS_ERR_INVALID if
 * `ptr` is not a live buffer of that device (nothing is freed). */
ss_status ss_device_free(ss_context *ctx, int device, void *ptr);

typedef struct ss_memory_stats {
    size_t capacity;
    size_t live_bytes;   /* bytes of live buffers (64-byte rounded) */
    size_t peak_bytes;   /* high-water mark of live_bytes */
    size_t largest_free; /* largest single allocation that would succeed now */
    int64_t alloc_count; /* allocations since the context was created */
    int64_t live_count;  /* buffers alive now */
} ss_memory_stats;

typedef struct ss_buffer_info {
    char name[96]; /* "w1 f32[1024,1024] shard [256,1024]" or the given name */
    size_t bytes;  /* 64-byte rounded size */
    size_t offset; /* offset in the arena */
} ss_buffer_info;

/* Bytes a buffer of `bytes` takes in a device's memory: the allocator's
 * rounding up to a multiple of 64, at least 64 (a 0-byte buffer takes 64),
 * SIZE_MAX when the rounded size would not fit in size_t. Every count of
 * device memory (the run's statistics, the plan's peak, a strategy's
 * inputs) uses this. */
size_t ss_device_buffer_bytes(size_t bytes);

/* Memory counters of one device. SS_ERR_RANGE for a bad device. */
ss_status ss_device_memory_stats(ss_context *ctx, int device, ss_memory_stats *out);
/* Host memory (values in a host memory kind, ss_memory_kind) of one device:
 * its partition of its host's arena. SS_ERR_RANGE for a bad device. */
ss_status ss_device_host_memory_stats(ss_context *ctx, int device, ss_memory_stats *out);
/* Host memory of host `host` (0 .. ss_context_host_count - 1): its
 * devices' partitions summed (capacity, live bytes, peak as the sum of
 * the partitions' peaks, counts; largest_free: the largest partition's).
 * SS_ERR_RANGE for a bad host. */
ss_status ss_host_memory_stats(ss_context *ctx, int host, ss_memory_stats *out);
/* The `cap` largest live buffers of a device, largest first (ties by
 * address); *n receives how many were written. */
ss_status ss_device_largest_buffers(ss_context *ctx, int device, ss_buffer_info out[], int cap,
                                    int *n);

/* --- Fault injection (for tests) --- */

typedef enum ss_fault_kind {
    SS_FAULT_ALLOC = 0, /* the nth allocation on the device from now fails (OOM) */
    SS_FAULT_DELAY,     /* before its nth collective of every run (0: before the
                           function starts), the device sleeps `seconds` */
    SS_FAULT_SKIP       /* the device silently skips its nth collective of every run */
} ss_fault_kind;

typedef struct ss_fault {
    ss_fault_kind kind;
    int device;
    int64_t nth; /* 1 = the first */
    double seconds;
} ss_fault;

/* Arm a fault. One fault of each kind per device; arming again replaces it.
 * SS_ERR_RANGE for a bad device, SS_ERR_INVALID for a bad kind, nth or delay. */
ss_status ss_context_inject(ss_context *ctx, const ss_fault *fault);
/* Disarm every fault. */
void ss_context_clear_faults(ss_context *ctx);

/* --- Sharded arrays --- */

/* A global array whose data lives as shards in device arenas, one per mesh
 * device. Every device is charged in its arena for its shard, replicas
 * included, as on hardware; but the bytes of identical replicas (the
 * shards ss_array_put places on several devices, replicated results of
 * ss_executable_run_arrays) may be held once and read by all of them,
 * unless the environment had SHARDSIM_STORAGE=copies when the context was
 * created. The sharding's mesh is borrowed and must outlive the array; its
 * device ids must be < the context's device count. */
typedef struct ss_array ss_array;

/* One device's shard: where it sits in the global array and its data
 * (row-major, shard shape stop - start; read-only: replicas may share it). */
typedef struct ss_array_shard {
    ss_shard index;
    int host; /* process index of the device */
    void *data;
} ss_array_shard;

/* jax.device_put: copy the row-major host array `host` (global `shape`,
 * `dtype`) to every device of the sharding, each device receiving its
 * block. Errors: those of ss_sharding_shards (JAX's wording), SS_ERR_RANGE
 * for a mesh device id outside the context, SS_ERR_DEVICE_OOM (with the
 * array name, global and shard shape; no shard is left allocated).
 * `name` may be NULL ("array"). *out is NULL on failure. */
ss_status ss_array_put(ss_context *ctx, const ss_sharding *sh, int rank, const int64_t shape[],
                       ss_dtype dtype, const void *host, const char *name, ss_array **out);
/* jax.device_get: assemble the global array row-major into `host` (`cap`
 * bytes; SS_ERR_RANGE if smaller than the array). Each element is read from
 * the replica with replica_id 0. */
ss_status ss_array_get(const ss_array *a, void *host, size_t cap);

/* Fill one shard: `dst` (index->bytes, row-major shard shape) receives the
 * block `index` of the global array. A non-OK return stops the build. */
typedef ss_status (*ss_shard_fill_fn)(const ss_shard *index, void *dst, void *user);
/* jax.make_array_from_callback: allocate every shard and let `fill` write
 * it. `fill` runs on the calling thread, once per device (replicas too).
 * Errors as ss_array_put, plus whatever `fill` returns. */
ss_status ss_array_from_callback(ss_context *ctx, const ss_sharding *sh, int rank,
                                 const int64_t shape[], ss_dtype dtype, ss_shard_fill_fn fill,
                                 void *user, const char *name, ss_array **out);
/* jax.make_array_from_single_device_arrays: `blocks[p]` is the row-major
 * shard of the device at mesh position p (shard shape, copied). Errors as
 * ss_array_put; SS_ERR_INVALID for a NULL block. */
ss_status ss_array_from_single_device_arrays(ss_context *ctx, const ss_sharding *sh, int rank,
                                             const int64_t shape[], ss_dtype dtype,
                                             const void *const blocks[], const char *name,
                                             ss_array **out);
/* Free every shard (back to the arenas) and the array. NULL is a no-op. */
void ss_array_destroy(ss_array *a);

int ss_array_rank(const ss_array *a);
const int64_t *ss_array_shape(const ss_array *a);
ss_dtype ss_array_dtype(const ss_array *a);
const ss_sharding *ss_array_sharding(const ss_array *a);
/* The shards host `host` can address, in mesh order (jax.Array
 * addressable_shards as seen by that process); host -1 = every shard.
 * SS_ERR_RANGE for a bad host or when `cap` is too small (*n then holds the
 * number needed). */
ss_status ss_array_shards(const ss_array *a, int host, ss_array_shard out[], int cap, int *n);

/* The two multi-host data helpers of big_vision-style training loops.
 * make_fsarray_from_local_slice: slices[h] is host h's row-major slice of
 * `local_shape` (the same on every host); the global array has dim 0 =
 * hosts x local_shape[0] and is sharded P(axis) over the 1-D `mesh` (all
 * devices; borrowed). Host h's rows are split evenly over its devices in
 * mesh order. Errors: SS_ERR_INVALID (mesh not 1-D, missing slice),
 * SS_ERR_INDIVISIBLE (rows do not split over a host's devices), OOM. */
ss_status ss_array_from_host_slices(ss_context *ctx, const ss_mesh *mesh, int rank,
                                    const int64_t local_shape[], ss_dtype dtype,
                                    const void *const slices[], const char *name,
                                    ss_array **out);
/* get_local_slice_from_fsarray: host `host`'s shards concatenated along dim
 * 0 in mesh order into `out` (*len, may be NULL, receives the byte count).
 * SS_ERR_UNSUPPORTED when a shard is cut along another dimension,
 * SS_ERR_RANGE for a bad host or a small `cap`. */
ss_status ss_array_host_slice(const ss_array *a, int host, void *out, size_t cap, size_t *len);

/* --- Collectives --- */

typedef enum ss_coll_kind {
    SS_COLL_ALL_REDUCE = 0, /* psum / pmax / pmin / pmean */
    SS_COLL_ALL_GATHER,     /* all_gather */
    SS_COLL_REDUCE_SCATTER, /* psum_scatter */
    SS_COLL_ALL_TO_ALL,     /* all_to_all */
    SS_COLL_PERMUTE,        /* ppermute */
    SS_COLL_BROADCAST,      /* pbroadcast */
    SS_COLL_KIND_COUNT
} ss_coll_kind;

typedef enum ss_reduce_op {
    SS_REDUCE_SUM = 0,
    SS_REDUCE_MAX,
    SS_REDUCE_MIN,
    SS_REDUCE_MEAN, /* sum / group size; integer inputs give f32, as jax.lax.pmean */
    /* ss_reduce only (collectives refuse them): */
    SS_REDUCE_PROD, /* product (lax.reduce_prod) */
    SS_REDUCE_AND,  /* bitwise and of integers, logical of bool (jnp.all) */
    SS_REDUCE_OR    /* bitwise or of integers, logical of bool (jnp.any) */
} ss_reduce_op;

/* A collective as every device of a group sees it: the same descriptor is
 * passed by all of them. Groups: the mesh axes `axes` act as one flattened
 * axis (mixed radix in the given order, first axis major); for each
 * combination of the other axes' coordinates the devices form one group,
 * ranked by that flattened index (JAX's replica groups). With
 * `index_groups` (axis_index_groups), each flattened-index list of
 * `group_size` entries is a group, rank = position in the list.
 *
 * Per-device shapes (input `shape`, G = group size):
 *   ALL_REDUCE      out = in
 *   ALL_GATHER      tiled: shape[axis] * G; else G inserted at `axis`
 *                   (`axis` may be negative, -(rank+1)..rank)
 *   REDUCE_SCATTER  along `axis`: tiled: shape[axis] / G; else shape[axis]
 *                   must be G and the dim is dropped
 *   ALL_TO_ALL      tiled: shape[split] / G, then shape[concat] * G; else
 *                   shape[split] must be G, it is dropped and G inserted at
 *                   `concat_axis` (a position after the drop)
 *   PERMUTE         out = in; `pairs` are (source rank, target rank); ranks
 *                   that are no target get zeros
 *   BROADCAST       out = in, the value of rank `root` */
typedef struct ss_coll {
    ss_coll_kind kind;
    const ss_mesh *mesh; /* borrowed */
    int naxes;           /* 0..SS_MAX_AXES */
    const char *axes[SS_MAX_AXES]; /* names: see "Names" above */
    int ngroups, group_size; /* index_groups: ngroups x group_size, or 0 */
    const int *index_groups; /* borrowed, row-major */
    ss_dtype dtype;
    int rank;
    int64_t shape[SS_MAX_RANK]; /* per-device input shape */
    ss_reduce_op op;            /* ALL_REDUCE, REDUCE_SCATTER (SUM, MAX, MIN) */
    int axis;                   /* ALL_GATHER axis, REDUCE_SCATTER scatter dimension */
    int tiled;
    int split_axis, concat_axis; /* ALL_TO_ALL */
    int npairs;
    const int (*pairs)[2]; /* PERMUTE, borrowed */
    int root;              /* BROADCAST source rank */
} ss_coll;

/* Zero `c` and set kind, mesh, axes ("x", "x,y", "(x, y)", "" = none), dtype
 * and input shape; other fields keep their zero defaults (op SUM, axis 0,
 * untiled). SS_ERR_PARSE or SS_ERR_RANGE for bad axes text or rank. */
ss_status ss_coll_init(ss_coll *c, ss_coll_kind kind, const ss_mesh *mesh, const char *axes,
                       ss_dtype dtype, int rank, const int64_t shape[]);
/* Validate `c` and give the per-device output dtype, rank and shape.
 * Errors with JAX's wording where JAX has one: SS_ERR_AXIS (unknown axis),
 * SS_ERR_DUPLICATE, SS_ERR_INVALID (bad dims, "reduce_scatter operand
 * scatter dimension size 3 must match shard count 4", "ppermute sources and
 * destinations must be unique", bad groups), SS_ERR_UNSUPPORTED (bool sums,
 * f16 without compiler support). */
ss_status ss_coll_output(const ss_coll *c, ss_dtype *dtype, int *rank, int64_t shape[]);
/* Name of a kind ("all_reduce", ...). */
const char *ss_coll_kind_name(ss_coll_kind kind);
/* The nccl-tests bus-bandwidth factor of a kind over a group of n devices
 * (busbw = algbw x factor): all_reduce 2(n-1)/n; all_gather,
 * reduce_scatter and all_to_all (n-1)/n; others 1. It is
 * ss_coll_ring_bytes of one byte. */
double ss_coll_busbw_factor(ss_coll_kind kind, int64_t n);
/* Bytes one device sends in the ring model (docs/gspmd.md 5.1; the ledger's
 * `sent`, the planner's and the cost model's bytes) for a collective over n
 * devices on `bytes`: all_reduce 2(n-1)/n x bytes (its buffer); all_gather
 * (n-1)/n x bytes (the gathered output); reduce_scatter (n-1)/n x bytes (the
 * scattered input); all_to_all (n-1)/n x bytes (one device's input); broadcast
 * bytes (0 for n <= 1); permute bytes (the caller knows whether any pair
 * moves). sim/base/ring.c has the sources. */
double ss_coll_ring_bytes(ss_coll_kind kind, int64_t n, double bytes);

/* The cost model (sim/spmd/estimate.c has the formulas and their sources).
 * Ring step count of a collective over a group of n devices: all_reduce
 * 2(n-1); all_gather, reduce_scatter, all_to_all, broadcast n-1 (0 for
 * n <= 1); permute 1. */
int64_t ss_coll_ring_steps(ss_coll_kind kind, int64_t n);
/* Seconds of a collective: ring steps x alpha (seconds per step) + `sent`
 * bytes per device / `bw` bytes per second. */
double ss_estimate_coll_seconds(ss_coll_kind kind, int64_t n, double sent, double bw,
                                double alpha);
/* Seconds of a kernel: the longer of flops / peak_flops and bytes / mem_bw
 * (a roofline). */
double ss_estimate_kernel_seconds(double flops, double bytes, double peak_flops, double mem_bw);
/* How an accelerator lays an array out in its memory. DENSE: the logical
 * bytes, as shardsim's own devices and every report without a layout use.
 * TPU: XLA's TPU compiler's tiling, as its memory_analysis() counts an
 * argument or result: the minor dimension padded to 128 elements, the
 * second-minor to 8 (1, 2 or 4 when smaller), the two chosen to waste
 * least; rank 1 padded to 128 elements and 512 bytes; scalars 512 bytes
 * (measured with libtpu: tests/data/xla_tpu/layouts.json). */
typedef enum ss_memory_layout { SS_LAYOUT_DENSE = 0, SS_LAYOUT_TPU } ss_memory_layout;
/* How an accelerator's compiler accounts a device's memory, for "will it
 * fit?": the layout of every buffer, and on-chip memory that holds
 * temporaries outside the HBM count. XLA's TPU compiler places temporaries
 * in the TensorCore's on-chip memory (memory space S(1) in its compiled
 * HLO) when they fit there, and memory_analysis() then counts them in no
 * HBM figure. The plan places them first come, first served: a temporary
 * (neither an argument nor a result of the run, or a kernel's scratch)
 * goes on chip when it fits beside those already there, for its whole
 * life, else in HBM. With xla_fusion the plan also leaves out the values
 * XLA's compiler fuses into the kernels that read them (broadcasts and
 * elementwise producers, exp and divide included, duplicated into each
 * consumer), keeping what they are computed from alive
 * until their last consumer instead; XLA chooses by cost, so the plan
 * takes such values largest first and keeps each fusion that does not
 * raise its peak (sim/spmd/xla_fusion.c). This changes the plan only, not
 * what a run allocates. It does not model the arguments XLA prefetches on
 * chip (cross-program prefetch). */
typedef struct ss_memory_model {
    ss_memory_layout layout;
    size_t onchip_bytes; /* 0: every temporary in HBM */
    bool xla_fusion;     /* leave out the values XLA fuses away */
    /* XLA's TPU compiler moves an f32 all-gather read only by f32 dots in
     * bf16 (the dots' DEFAULT precision is one bf16 pass, and the narrowing
     * convert moves above the gather): ss_executable_model_gathers marks
     * them, and the plan and ledger count them at half the bytes. */
    bool xla_bf16_gathers;
    /* XLA's TPU compiler keeps a scanned loop's stacked residual in bf16
     * when the loop that reads it back reads it only as an operand of such
     * dots (the narrowing convert moves above the stack's update):
     * ss_executable_model_gathers marks those stacks too, and the plan
     * counts them at half the bytes. */
    bool xla_bf16_stashes;
    /* XLA's TPU bookkeeping heap (sim/spmd/xla_bookkeeping.c): the HBM
     * bytes a slot of it takes (0: not modelled) and the slots of a
     * program it counts them for; the plan adds them, alive the whole
     * step, as one SS_BUFFER_BOOKKEEPING entry. */
    size_t bookkeeping_slot_bytes;
    int bookkeeping_slots;
    /* A top-level loop whose carries, outputs and body fit in the on-chip
     * memory left (onchip_bytes) is held there, as XLA's TPU compiler holds
     * the SMALL scanned LM's on v5e; with loop_stacks_hbm but for its
     * adopted carries (the stacks a scan writes in place), held in HBM, as
     * on v5p. */
    bool loops_onchip, loop_stacks_hbm;
    /* XLA's TPU temporary heap (sim/spmd/xla_heap.c; 0: not modelled): the
     * HBM XLA lets a program use. The plan places its HBM temporaries as
     * XLA's buffer assignment does (in schedule order, largest first when
     * that would not fit in this HBM with the arguments and outputs) and
     * counts the temporaries XLA reports, 2 x heap - max(A, N) (A the scan
     * stacks alive at once, N the other temporaries): what that exceeds
     * the temporaries' largest live sum by, the heap's fragmentation
     * counted twice, is one SS_BUFFER_FRAGMENTATION entry on top of the
     * peak. With while loops, not placed: their state and the rest are
     * two classes (sim/spmd/heap_trace.c). */
    size_t xla_heap_hbm_bytes;
    /* XLA's rematerialisation under the HBM limit (sim/spmd/xla_remat.c):
     * the bytes of arguments, outputs and temporaries in HBM past which
     * the plan frees a value alive at its peak and computes it again
     * before its next reader, as XLA's TPU compiler does (0: never). */
    size_t xla_remat_limit_bytes;
    /* A temporary read by dots only is never placed on chip (onchip_bytes):
     * XLA's TPU compiler on v5p computes it in HBM (sim/spmd/profiles.c). */
    bool onchip_not_dot_operands;
    /* XLA's windowed einsums (sim/spmd/xla_windowed.c): a top-level DEFAULT
     * f32 dot whose operand is all-gathered, or whose result is
     * reduce-scattered, over xla_windowed_ring to xla_windowed_ring_max
     * devices (the collective's, all its axes) is a loop around them: its
     * accumulator allocated at the program's start, its f32 operands
     * written in bf16, and, when no later loop needs it, computed after
     * the last loop it can pass (0: none). */
    int xla_windowed_ring, xla_windowed_ring_max;
} ss_memory_model;
/* Hardware profiles (sim/spmd/profiles.c: one table, the figures' sources
 * beside each row): public peak numbers of an accelerator and its links, for
 * the step-time estimate of `shardsim plan`. Devices are joined by fast
 * links (link_*) in nodes of devices_per_node consecutive device ids, by the
 * network (net_*) across nodes. "cpu-here" models this machine, its cores
 * shared by the virtual devices. */
typedef struct ss_hw_profile {
    const char *name;             /* "cpu-here", "tpu-v5e", "h100-nvlink", ... */
    const char *about;            /* one line for a listing */
    double flops_f32, flops_bf16; /* peak FLOP/s per device */
    double hbm_bw;                /* bytes/s per device */
    int devices_per_node;         /* devices joined by the fast links */
    double link_bw, link_alpha;   /* per device per axis inside a node: B/s, s */
    double net_bw, net_alpha;     /* across nodes */
    size_t hbm_bytes;             /* memory per device; 0: not modelled */
    ss_memory_model memory;       /* how its compiler counts that memory */
    double host_bw;               /* bytes/s per device and direction between a
                                     device and its host's memory (device_put to a
                                     host memory kind and back) */
} ss_hw_profile;
/* The number of profiles, profile i of them (NULL past the end), and the
 * profile named `name` (NULL if none is; names are matched exactly).
 * Profiles are static: never freed. */
int ss_hw_profile_count(void);
const ss_hw_profile *ss_hw_profile_get(int i);
const ss_hw_profile *ss_hw_profile_find(const char *name);
/* Bandwidth (bytes/s) and latency (s per ring step) that a collective over
 * mesh axes axes[0..naxes) (indices) gets under p: the node's links when
 * every group of those axes fits inside one node (row-major device ids),
 * else the network. */
void ss_hw_profile_axis_link(const ss_hw_profile *p, const ss_mesh *mesh, int naxes,
                             const int axes[], double *bw, double *alpha);
/* The group of device `device` under `c`: member device ids in rank order
 * (`members` needs room for the group size), its size and the device's
 * rank. SS_ERR_RANGE if the device is not in the mesh or `cap` is small. */
ss_status ss_coll_group(const ss_coll *c, int device, int members[], int cap, int *size,
                        int *rank);

/* Take part in collective `c` from inside a device function. `in` holds
 * this device's input (c->shape, row-major), `out` receives its output
 * (ss_coll_output's shape). Both may be anywhere in the process (arena or
 * host memory); peers read `in` in place until every member is done, so it
 * must stay valid and unchanged for the call. `out` may equal `in` for
 * ALL_REDUCE; otherwise they must not overlap any member's buffers.
 * Returns when the whole group is done. Errors: those of ss_coll_output
 * (before any waiting; peers then stop at their timeout or on the
 * mismatch), SS_ERR_MISMATCH when a peer reached a different collective
 * (kind, dtype, shape, group or sequence number; message lists each
 * device), SS_ERR_DEADLOCK when a peer did not arrive within the timeout,
 * finished its function without arriving, or the run was stopped by
 * another device's failure. */
ss_status ss_device_collective(ss_device *dev, const ss_coll *c, const void *in, void *out);

/* One entry of the collective ledger: one per collective executed (recorded
 * once, by the device at mesh position 0). Ring model bytes
 * (docs/gspmd.md 5.1): S is the full buffer (all_reduce: the buffer;
 * all_gather: the output; reduce_scatter: the input; all_to_all: input x
 * G), sent/received are per device. busbw = algbw x the nccl-tests factor. */
typedef struct ss_coll_record {
    int64_t seq; /* collective number within its run, from 1 */
    ss_coll_kind kind;
    ss_reduce_op op;
    int naxes;              /* the mesh axes it runs over, as indices of */
    int axes[SS_MAX_AXES];  /* its mesh in the collective's order (ss_axes_repr) */
    int group_size, ngroups;
    ss_dtype dtype;
    size_t bytes;    /* S */
    double sent;     /* bytes sent per device */
    double received; /* bytes received per device */
    double seconds;  /* entry to exit of the collective on the recording device */
    double algbw;    /* bytes / seconds (B/s) */
    double busbw;
} ss_coll_record;

/* Python's repr of the tuple of mesh axis names axes[0..naxes) (indices of
 * `mesh`), as JAX prints an axis_name tuple: "('x', 'y')", "('x',)", "()".
 * Names are quoted as they are, nothing escaped. Writes at most cap bytes
 * (NUL included; the text is cut short if cap is too small). SS_ERR_RANGE
 * for an index that is not an axis of the mesh. */
ss_status ss_axes_repr(const ss_mesh *mesh, int naxes, const int axes[], char *out, size_t cap);

int ss_context_ledger_count(ss_context *ctx);
/* Entry i (0 = oldest). SS_ERR_RANGE for a bad index. */
ss_status ss_context_ledger_get(ss_context *ctx, int i, ss_coll_record *out);
void ss_context_ledger_clear(ss_context *ctx);

/* --- Trace --- */

/* Start (on != 0) or stop recording Chrome trace events: per device its
 * runs, kernels, collectives (args: seq, bytes_in), the wait for the group
 * inside each collective, allocations and frees (args: bytes, live) and a
 * live-bytes counter. Times are microseconds since the first enable. */
ss_status ss_context_trace_enable(ss_context *ctx, int on);
/* Write the recorded events as Chrome trace-event JSON (opens in Perfetto
 * and chrome://tracing), one track per device. SS_ERR_IO if the file cannot
 * be written. The events stay recorded. */
ss_status ss_context_trace_write(ss_context *ctx, const char *path);
/* Drop the recorded events. */
void ss_context_trace_clear(ss_context *ctx);

/* The recorded events as data, per device in the order recorded: the
 * timeline behind ss_context_trace_write (one event here for each event of
 * the device's track in the file). */
typedef enum ss_trace_kind {
    SS_TRACE_RUN = 0,    /* a device function from start to end; name "run" or
                            the failure's status name */
    SS_TRACE_KERNEL,     /* compute: a kernel (name: the kernel's) */
    SS_TRACE_COLLECTIVE, /* a collective from entry to exit: its WAIT, then
                            the transfer (name: the collective described) */
    SS_TRACE_WAIT,       /* inside a collective: entry until the whole group
                            has arrived; or a replica's share of work done
                            once (name "share (leader)": waiting until the
                            group has copied its result; "share (copy)":
                            waiting for it and copying; group_size, bytes) */
    SS_TRACE_MEMORY,     /* an allocation (name: the buffer's; bytes: as
                            asked), "allocation failed", or "free" (bytes 0) */
    SS_TRACE_LIVE        /* the live-bytes counter, after each MEMORY event */
} ss_trace_kind;
typedef struct ss_trace_event {
    ss_trace_kind kind;
    double start_us; /* microseconds since tracing was first enabled */
    double dur_us;   /* 0 for MEMORY and LIVE (instants) */
    char name[96];
    double bytes;    /* COLLECTIVE: this device's input bytes; MEMORY: see above */
    double live;     /* MEMORY, LIVE: the device's live arena bytes after it */
    int64_t seq;     /* COLLECTIVE: its number within the run, from 1 */
    int group_size;  /* WAIT: the group waited for */
} ss_trace_event;
/* Events recorded on a device; 0 for a bad device. */
int ss_context_trace_count(ss_context *ctx, int device);
/* Event i (0 = first) of a device. SS_ERR_RANGE for a bad device or index. */
ss_status ss_context_trace_get(ss_context *ctx, int device, int i, ss_trace_event *out);

/* ------------------------------------------------------------------------ */
/* Programs on global arrays                                                 */
/* ------------------------------------------------------------------------ */

/* A program is a list of ops on GLOBAL arrays over one mesh, written as for
 * one big device, with shardings given for some values (inputs, params,
 * constraints). The partitioner (ss_program_propagate) gives every value a
 * sharding as XLA's GSPMD would. Values are numbered from 0 in creation
 * order; a builder call that fails leaves the program unchanged and says
 * why, naming the op and the shapes.
 *
 * Composite ops (softmax, log_softmax, layer_norm, cross_entropy, mean,
 * gelu's tanh form stays one op) are expanded into primitive ops at build
 * time, as jax.nn does, so that their communication is what GSPMD emits for
 * the primitives. Binary ops broadcast as numpy does, inserting explicit
 * broadcast_in_dim ops as jnp does. */
typedef struct ss_program ss_program;
typedef int32_t ss_value;

typedef enum ss_unary_op {
    SS_NEG = 0, SS_EXP, SS_LOG, SS_TANH, SS_RELU, SS_GELU, SS_SQRT, SS_RSQRT,
    SS_SQUARE,
    SS_CONVERT, /* x itself; with ss_convert, in another dtype (astype) */
    /* StableHLO's elementwise ops, by their names there. On integers: neg,
     * abs (INT_MIN stays INT_MIN), sign, not (bitwise; logical on bool),
     * popcnt. On floats: all but not and popcnt; is_finite gives bool.
     * round_nearest_even is jnp.round, round_nearest_afz lax.round's
     * default; logistic is jax.nn.sigmoid. */
    SS_ABS, SS_SIGN, SS_FLOOR, SS_CEIL, SS_ROUND_EVEN, SS_ROUND_AFZ,
    SS_SIN, SS_COS, SS_TAN, SS_ERF, SS_EXPM1, SS_LOG1P, SS_LOGISTIC, SS_CBRT,
    SS_IS_FINITE, SS_NOT, SS_POPCNT,
    /* erf_inv (chlo.erf_inv, behind jax.random.normal and truncated_normal)
     * on floats: f32, bf16 and f16 as XLA computes it (M. Giles's
     * single-precision approximation, "Approximating the erfinv function",
     * GPU Computing Gems, 2011), f64 to double accuracy; +-1 give +-inf,
     * |x| > 1 NaN. count_leading_zeros on integers (the operand's width
     * for 0). bitcast_convert: only through ss_bitcast_convert. */
    SS_ERF_INV, SS_CLZ, SS_BITCAST,
    SS_UNARY_COUNT
} ss_unary_op;

typedef enum ss_binary_op {
    SS_ADD = 0, SS_SUB, SS_MUL, SS_DIV, SS_MAX, SS_MIN, SS_POW,
    /* Comparisons: 1.0 where true, else 0.0, in the operands' dtype (NaN
     * compares false). Gradients use them as masks (autodiff.c); a bool
     * result is ss_compare's. */
    SS_EQ, SS_GT, SS_GE,
    /* StableHLO's remainder (C's fmod: the sign of the dividend), and,
     * or, xor (integers and bool), shift_left, shift_right_arithmetic,
     * shift_right_logical (integers), atan2 (floats). */
    SS_REM, SS_AND, SS_OR, SS_XOR, SS_SHIFT_LEFT, SS_SHIFT_RIGHT_ARITHMETIC,
    SS_SHIFT_RIGHT_LOGICAL, SS_ATAN2,
    /* chlo.next_after (floats; jax.lax.nextafter): the next value of a's
     * dtype after a toward b, as C's nextafter in that dtype. */
    SS_NEXT_AFTER,
    SS_BINARY_COUNT
} ss_binary_op;

/* StableHLO compare's comparison_direction and compare_type. */
typedef enum ss_cmp_dir {
    SS_CMP_EQ = 0, SS_CMP_NE, SS_CMP_LT, SS_CMP_LE, SS_CMP_GT, SS_CMP_GE
} ss_cmp_dir;
typedef enum ss_cmp_type {
    SS_CMP_FLOAT = 0,  /* IEEE: NaN is unordered (only NE is true) */
    SS_CMP_TOTALORDER, /* -NaN < -inf < ... < -0 < +0 < ... < inf < NaN */
    SS_CMP_SIGNED,     /* signed integers */
    SS_CMP_UNSIGNED    /* unsigned integers and bool */
} ss_cmp_type;

/* Create an empty program over `mesh` (borrowed; must outlive it). */
ss_status ss_program_create(const ss_mesh *mesh, ss_program **out);
void ss_program_destroy(ss_program *p);
int ss_program_value_count(const ss_program *p);

/* An input (activation) or a parameter of the program. `spec` may be NULL:
 * the partitioner then chooses (an unspecified input starts replicated
 * unless propagation finds better, as jit in_shardings=None). A given spec
 * is checked against the mesh and the shape with JAX's messages
 * ("One of pjit arguments ..."). */
ss_status ss_input(ss_program *p, const char *name, ss_dtype dtype, int rank,
                   const int64_t shape[], const ss_spec *spec, ss_value *out);
ss_status ss_param(ss_program *p, const char *name, ss_dtype dtype, int rank,
                   const int64_t shape[], const ss_spec *spec, ss_value *out);
/* A scalar f32 constant (broadcast where used), weakly typed as a Python
 * number: beside an array it takes the array's dtype. */
ss_status ss_constant(ss_program *p, double value, ss_value *out);
/* A constant array (StableHLO constant, a numpy array in a jitted
 * function): `data` holds prod(shape) elements of `dtype`, row-major,
 * little-endian (bool: one byte, 0 or 1), copied into the program. Rank 0
 * is a strongly typed scalar. Every device holds it whole (replicated) and
 * takes the block its users need. Errors: SS_ERR_INVALID for a NULL data,
 * an unknown dtype, a rank outside 0..8 or a size below 1; SS_ERR_NOMEM. */
ss_status ss_constant_array(ss_program *p, ss_dtype dtype, int rank, const int64_t shape[],
                            const void *data, ss_value *out);
/* lax.iota / lax.broadcasted_iota (StableHLO iota): an array of `shape`
 * whose element at index i is i[dim], converted to `dtype` as ss_convert
 * converts an integer (floats round to nearest even). Any dtype but bool
 * (JAX has no bool iota). Made whole on every device, like a constant. */
ss_status ss_iota(ss_program *p, ss_dtype dtype, int rank, const int64_t shape[], int dim,
                  ss_value *out);

/* Elementwise op on x. An op the dtype lacks (exp of an integer, not of a
 * float) is SS_ERR_UNSUPPORTED naming both. Integer ops wrap around as
 * XLA's (two's complement). */
ss_status ss_unary(ss_program *p, ss_unary_op op, ss_value x, ss_value *out);
/* x.astype(dtype) (lax.convert_element_type, StableHLO convert) between
 * any two dtypes, as XLA on CPU: floats round to nearest even when
 * narrowing; float -> integer truncates toward zero and saturates at the
 * type's limits, NaN -> 0 (unsigned: negatives -> 0); integer -> integer
 * wraps; -> bool is x != 0 (NaN is true); bool -> 0 or 1. The same dtype
 * returns x itself. Gradients pass between float dtypes only (JAX's float0
 * for integers). */
ss_status ss_convert(ss_program *p, ss_value x, ss_dtype dtype, ss_value *out);
/* lax.bitcast_convert_type (StableHLO bitcast_convert): the same bytes
 * read as `dtype` (f32 -> u32 gives the IEEE bits). To a dtype r times
 * wider, x's last dim (of size r; else SS_ERR_INVALID) is packed into one
 * element; to one r times narrower, a last dim of size r is added; the
 * lowest bits at index 0 either way (little-endian, as XLA's CPU backend).
 * bool to or from another size is SS_ERR_UNSUPPORTED. No gradient passes
 * (JAX's is zero). */
ss_status ss_bitcast_convert(ss_program *p, ss_value x, ss_dtype dtype, ss_value *out);
/* Elementwise with numpy broadcasting; shapes must broadcast, dtypes be
 * equal (a weakly typed scalar, ss_constant, takes the array's dtype).
 * Integer division: x / 0 = -1 (all bits), INT_MIN / -1 = INT_MIN; x % 0 =
 * x (XLA on CPU). Shifts by an amount outside [0, bits) give 0, or the sign
 * fill for shift_right_arithmetic. pow is for floats. */
ss_status ss_binary(ss_program *p, ss_binary_op op, ss_value a, ss_value b, ss_value *out);
/* StableHLO compare: a bool array, true where `a DIR b`, under `type`,
 * which must suit the operands' dtype (FLOAT or TOTALORDER for floats,
 * SIGNED for signed integers, UNSIGNED for unsigned ones and bool). Shapes
 * broadcast as ss_binary's. No gradient flows through it. */
ss_status ss_compare(ss_program *p, ss_cmp_dir dir, ss_cmp_type type, ss_value a, ss_value b,
                     ss_value *out);
/* StableHLO select (lax.select, jnp.where): on_true where pred, else
 * on_false. pred is bool, of their shape or rank 0 (then broadcast);
 * on_true and on_false have one shape and dtype. The cotangent goes to
 * both branches masked by pred (JAX's transpose), none to pred. */
ss_status ss_select(ss_program *p, ss_value pred, ss_value on_true, ss_value on_false,
                    ss_value *out);
/* StableHLO clamp (lax.clamp(min, x, max)): min(max(x, lo), hi), NaN in
 * any operand gives NaN. lo and hi have x's dtype and its shape or rank 0
 * (a weakly typed scalar, ss_constant, is converted to x's dtype).
 * Gradients as JAX's: x's where lo < x < hi, lo's where lo > x (and lo <
 * hi), hi's where hi < x. */
ss_status ss_clamp(ss_program *p, ss_value lo, ss_value x, ss_value hi, ss_value *out);
/* lax.dot_general: `nb` batch dim pairs, `nc` contracting dim pairs. The
 * result's dims are batch, then lhs free dims, then rhs free dims. */
ss_status ss_dot_general(ss_program *p, ss_value lhs, ss_value rhs, int nb,
                         const int lhs_batch[], const int rhs_batch[], int nc,
                         const int lhs_contract[], const int rhs_contract[], ss_value *out);
/* "ij,jk->ik", "bqhd,bkhd->bhqk": two operands, each letter a dim; letters
 * absent from the output are contracted (must appear in both operands). */
ss_status ss_einsum(ss_program *p, const char *spec, ss_value lhs, ss_value rhs,
                    ss_value *out);
/* x @ w over the last dim of x and the first of w (2-D w; x of any rank). */
ss_status ss_matmul(ss_program *p, ss_value x, ss_value w, ss_value *out);
/* Reduce `x` over `naxes` axes (negative counts from the end), the
 * result in x's dtype (StableHLO reduce with the op's identity as init).
 * SUM, MAX, MIN and PROD on every dtype; MEAN (sum * 1/n) on floats; AND
 * and OR on integers and bool. Integer sums and products wrap (two's
 * complement), max and min order signed or unsigned by the dtype; on bool
 * SUM and MAX are or, PROD and MIN are and; float max and min propagate
 * NaN. Float sums and products accumulate in double, rounded once.
 * Gradients: SUM, MEAN, MAX and MIN of floats. SS_ERR_UNSUPPORTED for an
 * op the dtype lacks ("reduce_and: not defined on f32"). */
ss_status ss_reduce(ss_program *p, ss_reduce_op op, ss_value x, int naxes, const int axes[],
                    int keepdims, ss_value *out);
/* lax.argmax / lax.argmin (jnp.argmax; StableHLO's two-operand reduce of
 * values and an iota): the index along `axis` of the largest (smallest)
 * element of x, in the integer dtype `index_dtype`, that axis removed.
 * As XLA runs JAX's reducer: the first NaN wins, else ties go to the
 * lowest index (-0.0 ties with +0.0). Any dtype but bool; no gradient. */
ss_status ss_argmax(ss_program *p, ss_value x, int axis, ss_dtype index_dtype, ss_value *out);
ss_status ss_argmin(ss_program *p, ss_value x, int axis, ss_dtype index_dtype, ss_value *out);
ss_status ss_transpose(ss_program *p, ss_value x, const int perm[], ss_value *out);
ss_status ss_reshape(ss_program *p, ss_value x, int rank, const int64_t shape[],
                     ss_value *out);
/* lax.broadcast_in_dim: operand dim i becomes result dim dims[i]. */
ss_status ss_broadcast_in_dim(ss_program *p, ss_value x, int rank, const int64_t shape[],
                              const int dims[], ss_value *out);
/* lax.slice: x[start:limit] per dim, 0 <= start < limit <= size. */
ss_status ss_slice(ss_program *p, ss_value x, const int64_t start[], const int64_t limit[],
                   ss_value *out);
/* lax.slice with strides (StableHLO slice): along dim d the elements
 * start[d], start[d] + strides[d], ... below limit[d] (strides >= 1; the
 * result has ceil((limit - start) / stride) of them). strides NULL is
 * ss_slice. Its gradient is a pad with zeros (JAX's transpose). */
ss_status ss_slice_strided(ss_program *p, ss_value x, const int64_t start[],
                           const int64_t limit[], const int64_t strides[], ss_value *out);
/* StableHLO dynamic_slice: the block of `sizes` (1..dim) of x starting at
 * start_indices[d] along dim d, one rank-0 integer value per dim (of one
 * dtype), clamped at run time as XLA clamps them: start = min(max(i, 0),
 * dim - size). (lax.dynamic_slice first wraps negative indices by the dim;
 * StableHLO text has that as separate ops.) The sliced dims are gathered
 * whole on each device. Gradient: a dynamic_update_slice into zeros. */
ss_status ss_dynamic_slice(ss_program *p, ss_value x, int n, const ss_value start_indices[],
                           const int64_t sizes[], ss_value *out);
/* StableHLO dynamic_update_slice: x with `update` (x's dtype and rank, no
 * dim larger) written at the clamped start indices (as ss_dynamic_slice's,
 * with the update's sizes). Gradients: x's is the cotangent with the
 * window zeroed, update's the window of the cotangent. */
ss_status ss_dynamic_update_slice(ss_program *p, ss_value x, ss_value update, int n,
                                  const ss_value start_indices[], ss_value *out);
/* The dimension numbers of StableHLO gather (and, with the names in
 * brackets, of scatter): lists of dims, each list sorted as StableHLO
 * requires. Result (scatter: update) dims are either offset (window) dims,
 * listed in offset_dims [update_window_dims], or batch (scatter) dims, the
 * rest, which walk the start indices with index_vector_dim left out.
 * Operand dims in collapsed_slice_dims [inserted_window_dims] or
 * operand_batching_dims [input_batching_dims] have window size 1 and no
 * result dim; the operand's other dims map in order to offset_dims.
 * start_index_map [scatter_dims_to_operand_dims] gives the operand dim of
 * each component of a start index vector (the index_vector_dim of the
 * indices; index_vector_dim == rank(indices) means one component, a
 * trailing dim of size 1 implied). operand_batching_dims[k] walks in step
 * with start_indices_batching_dims[k] [scatter_indices_batching_dims].
 * slice_sizes is the window of each operand dim (gather only; scatter's
 * window is the update's). A plain struct tests can write literally. */
typedef struct ss_gather_dims {
    int n_offset, n_collapsed, n_batching, n_index_map;
    int offset_dims[SS_MAX_RANK];
    int collapsed_slice_dims[SS_MAX_RANK];
    int operand_batching_dims[SS_MAX_RANK];
    int start_indices_batching_dims[SS_MAX_RANK];
    int start_index_map[SS_MAX_RANK];
    int index_vector_dim;
    int64_t slice_sizes[SS_MAX_RANK];
    bool indices_are_sorted; /* a hint only: never relied on */
} ss_gather_dims;

/* StableHLO gather: the windows of `operand` (slice_sizes) whose starts
 * `indices` (an integer array) holds, laid out by `dims` (ss_gather_dims).
 * Start indices are clamped as StableHLO specifies: to [0, dim - size] per
 * operand dim, so every window is inside the operand. Errors: dims that
 * are out of range, repeated, unsorted or inconsistent with the shapes
 * (SS_ERR_INVALID, naming the list). Partitioned as GSPMD does: operand
 * dims taken whole may stay sharded (the result follows on the matching
 * offset dim), indices sharded on batch dims give a result sharded alike,
 * a table sharded on an indexed dim of window 1 is gathered from each
 * shard, masked, and summed (an all-reduce); anything else is replicated
 * first. Gradient: a scatter-add of the cotangent into zeros at the
 * clamped start indices. */
ss_status ss_gather(ss_program *p, ss_value operand, ss_value indices, const ss_gather_dims *dims,
                    ss_value *out);

/* The update computation of a scatter (the body of StableHLO's region). */
typedef enum ss_scatter_op {
    SS_SCATTER_ADD = 0,  /* old + update */
    SS_SCATTER_SET,      /* the update (the region returns its second argument) */
    SS_SCATTER_MAX,
    SS_SCATTER_MIN,
    SS_SCATTER_MUL,
    SS_SCATTER_SUB,      /* old - update (x.at[i].subtract: JAX's scatter_sub) */
    SS_SCATTER_OP_COUNT
} ss_scatter_op;

/* StableHLO scatter with one operand: `operand` with each window of
 * `updates` combined by `op` into the place its start index (in `indices`)
 * names, windows applied in the updates' row-major order (so with
 * repeated indices SET keeps the last and ADD sums in that order). dims as
 * for ss_gather with scatter's names (slice_sizes unused). A window not
 * wholly inside the operand is skipped, as XLA does. Errors as
 * ss_gather's; an op outside ss_scatter_op is SS_ERR_INVALID. Partitioned
 * as GSPMD does when the operand and updates are sharded alike on window
 * dims taken whole, the operand on an indexed dim of window 1 (each device
 * writes what lands in its block), or the indices and updates on scatter
 * dims (ADD and SUB only: each device applies its updates, the partial
 * sums are all-reduced); anything else is replicated first. Gradients, ADD
 * and SUB only (another op's is SS_ERR_UNSUPPORTED when asked for): the
 * operand's is the cotangent, the updates' a gather of it (negated for
 * SUB). SUB of bool is SS_ERR_INVALID. */
ss_status ss_scatter(ss_program *p, ss_value operand, ss_value indices, ss_value updates,
                     ss_scatter_op op, const ss_gather_dims *dims, ss_value *out);

/* lax.sort (StableHLO sort as JAX lowers it): n operands (1 to 16) of one
 * shape sorted together along `dim` (negative counts from the end), ordered
 * by the first nkeys of them lexicographically, key k descending when bit k
 * of `descending` is set; out[k] receives operand k permuted. Floats order
 * as JAX's comparator: -0.0 equals +0.0, every NaN is equal to every other
 * and above +inf. Equal keys keep their order (stable; for an unstable
 * StableHLO sort that is one valid result: XLA's CPU sort may order ties
 * otherwise). Any dtype. Errors: shapes that differ, dim or nkeys out of
 * range (SS_ERR_INVALID). Partitioned as GSPMD does: the sorted dim is made
 * whole on every device (an all-gather when it is sharded), the other dims
 * stay as they are. Gradient: each result's cotangent is added back into
 * the place its element came from (a scatter-add along dim). */
ss_status ss_sort(ss_program *p, int n, const ss_value operands[], int dim, int nkeys,
                  unsigned descending, ss_value out[]);
/* lax.top_k (chlo.top_k): the k largest elements along x's last dim in
 * descending IEEE total order (+NaN first, -NaN last, +0.0 before -0.0),
 * ties to the lower index, as XLA's TopK computes them; *values (x's dtype)
 * and *indices (i32) have x's shape with k as the last dim (either may be
 * NULL). Errors: a scalar x, k outside 0..n (SS_ERR_INVALID). Partitioned
 * as ss_sort (the last dim made whole). Gradient of the values: the
 * cotangent added into zeros at the indices. */
ss_status ss_top_k(ss_program *p, ss_value x, int64_t k, ss_value *values, ss_value *indices);

/* The bit generator of StableHLO's rng_bit_generator. DEFAULT is the
 * algorithm XLA's CPU and GPU backends pick for it: Philox. */
typedef enum ss_rng_algorithm {
    SS_RNG_DEFAULT = 0,
    SS_RNG_THREE_FRY,
    SS_RNG_PHILOX,
} ss_rng_algorithm;
/* StableHLO rng_bit_generator (lax.rng_bit_generator, jax.random with the
 * 'rbg' and 'unsafe_rbg' PRNG implementations): random bits of `dtype`
 * (SS_U8, SS_U16, SS_U32 or SS_U64) and shape (rank, shape) from `state`, a
 * u64[2] (u64[3] for Philox: a 128-bit counter) whose element 0 is the key
 * and the rest a counter; *bits receives the bits, *new_state the state with
 * the counter advanced by the blocks used. Bit for bit what XLA's CPU
 * backend computes (its rng_bit_generator expander):
 *   ThreeFry-2x32 (20 rounds) of the counter plus a row-major index. 64-bit
 *   bits take one call each (low word first); narrower ones split the
 *   first even dim (else the largest) in halves and take the call's two
 *   words for the two elements 2h and 2h + 1 of it, u8 and u16 keeping
 *   the low bits of a u32. The counter advances by the calls made.
 *   Philox-4x32 (10 rounds) of the 128-bit counter (low word: state[1],
 *   high: state[0], or state[2] with three words; only the low word is
 *   written back in a u64[2] state) plus j, whose four words give elements
 *   4j..4j+3 (u32) or whose two halves give 2j, 2j+1 (u64).
 * Errors: a state that is not u64[2] (u64[2] or u64[3] for Philox), another
 * dtype, a negative dim (SS_ERR_INVALID). Partitioned as GSPMD does: the
 * bits are the same whatever the result's sharding (each device computes
 * its own block of the whole array's bits; XLA generates them whole and
 * takes its block with a dynamic slice, no collective); the state is
 * replicated. No gradient (the bits are integers). */
ss_status ss_rng_bit_generator(ss_program *p, ss_value state, ss_rng_algorithm algorithm,
                               ss_dtype dtype, int rank, const int64_t shape[],
                               ss_value *new_state, ss_value *bits);
/* lax.rev (StableHLO reverse): x with the order of elements reversed
 * along each of the `ndims` dims (distinct, negative counts from the end). */
ss_status ss_reverse(ss_program *p, ss_value x, int ndims, const int dims[], ss_value *out);
/* lax.pad (StableHLO pad): x with low[d] elements of `padding_value` (a
 * rank-0 value of x's dtype, or a weakly typed ss_constant) before dim d,
 * high[d] after it and interior[d] between neighbours. Negative low or high
 * cut elements off instead (interior >= 0); every result dim must keep a
 * size of at least 1. Gradients as JAX's: x's is the strided slice of the
 * cotangent, padding_value's the sum of the rest. */
ss_status ss_pad(ss_program *p, ss_value x, ss_value padding_value, const int64_t low[],
                 const int64_t high[], const int64_t interior[], ss_value *out);
ss_status ss_concatenate(ss_program *p, int n, const ss_value xs[], int dim, ss_value *out);
/* One-hot of an i32 array of class ids: result shape + (classes,), f32. */
ss_status ss_one_hot(ss_program *p, ss_value labels, int64_t classes, ss_value *out);
ss_status ss_softmax(ss_program *p, ss_value x, int axis, ss_value *out);
ss_status ss_log_softmax(ss_program *p, ss_value x, int axis, ss_value *out);
/* Normalize over the last dim (eps 1e-6, Flax's default); scale and bias may
 * be -1 (absent). */
ss_status ss_layer_norm(ss_program *p, ss_value x, ss_value scale, ss_value bias,
                        ss_value *out);
/* optax.softmax_cross_entropy_with_integer_labels: logits [..., C], labels
 * [...] i32 -> [...] f32. */
ss_status ss_cross_entropy(ss_program *p, ss_value logits, ss_value labels, ss_value *out);
/* with_sharding_constraint: a strict constraint the partitioner keeps.
 * Uneven shards are allowed here, as in JAX. */
ss_status ss_constrain(ss_program *p, ss_value x, const ss_spec *spec, ss_value *out);
/* Memory kinds (JAX's `memory_kind` of a sharding): where a value lives.
 * SS_MEMORY_DEVICE is the device's arena (HBM), the default of every
 * value. SS_MEMORY_PINNED_HOST and SS_MEMORY_UNPINNED_HOST are the memory
 * of the host the device belongs to (ss_context_options.hosts: one host
 * per process, as jax.process_index counts them): each host has one host
 * arena, partitioned per device (each device's pinned buffers, as the
 * runtime stages them per device), so plan and run count the same bytes.
 * shardsim counts both host kinds alike (what differs on a TPU, DMA from
 * pinned pages, is not modelled). */
typedef enum ss_memory_kind {
    SS_MEMORY_DEVICE = 0,
    SS_MEMORY_PINNED_HOST,
    SS_MEMORY_UNPINNED_HOST,
    SS_MEMORY_KIND_COUNT
} ss_memory_kind;
/* "device", "pinned_host", "unpinned_host"; NULL for another number. */
const char *ss_memory_kind_name(ss_memory_kind kind);
/* jax.device_put(x, sharding.with_memory_kind(kind)) inside jit (StableHLO's
 * @annotate_device_placement): *out is x's value in memory `kind`, with
 * x's sharding. Moving a value between the device and its host is a
 * transfer of each device's block over the host link: the plan counts its
 * bytes (ss_plan.to_host_bytes, to_device_bytes) and the estimate its time
 * (ss_hw_profile.host_bw); no value changes. A value in host memory may
 * be put back to the device, put in host memory again, be a program
 * output, be reshaped (a bitcast in place) or written by
 * ss_dynamic_update_slice into a buffer, which then lives in host memory
 * too, through loop carries (ss_while_loop), as XLA's host offloader
 * places a scan's offloaded residuals: a broadcast constant it starts from
 * is allocated in host memory, and ss_dynamic_slice of it is a transfer of
 * the slice back to the device. ss_program_compile refuses any other op on
 * a host value, naming both (XLA computes on device memory only), and a
 * host carry the body recomputes on the device. A put to the memory x is
 * already in is a copy. SS_ERR_INVALID for a bad value or kind. */
ss_status ss_device_put(ss_program *p, ss_value x, ss_memory_kind kind, ss_value *out);
/* The memory value v lives in: a device_put's kind, passed on by sharding
 * constraints (ss_constrain), else SS_MEMORY_DEVICE (also for a bad value);
 * after ss_program_compile, also the host buffers and carries placed
 * through loops (ss_device_put). */
ss_memory_kind ss_value_memory_kind(const ss_program *p, ss_value v);
/* Mark a program output; `spec` NULL lets propagation choose. */
ss_status ss_output(ss_program *p, ss_value x, const ss_spec *spec);

/* lax.scan: `body` builds one step from the carries and the step's slices
 * of the stacked inputs (their leading axis dropped), writing the new
 * carries (same shapes and dtypes) and the step's outputs. The scan is one
 * counted loop (the body is built once, so the program does not grow with
 * the length, and the plan holds one step plus the carries and stacked
 * outputs): `length` steps (-1: the xs' common leading size; needed when
 * nxs is 0, which is plain repetition). ys[k] is
 * the k-th output stacked along a new leading axis. A sharded leading axis
 * of an xs is gathered before slicing, as XLA does for a dynamic-slice.
 * Errors from `body` are returned unchanged. */
typedef ss_status (*ss_scan_body)(ss_program *p, const ss_value carry[], const ss_value xs[],
                                  ss_value new_carry[], ss_value ys[], void *user);
ss_status ss_scan(ss_program *p, ss_scan_body body, void *user, int64_t length, int ncarry,
                  const ss_value init[], int nxs, const ss_value xs[], int nys,
                  ss_value final_carry[], ss_value ys[]);

/* lax.while_loop (StableHLO while): the carries start as init[] and, while
 * the scalar `cond` builds from them is nonzero (a comparison's 1.0, or a
 * bool true), `body` builds the next carries from them (same shapes and
 * dtypes). The condition is evaluated on the devices' values at run time,
 * so the trip count may depend on data; ss_executable_plan counts the body
 * as many times as a counted form shows (a counter from a constant,
 * compared less-than with a constant, stepped by one: fori_loop and scan),
 * else once and says so (ss_plan.unknown_trip_loops). At most 64 carries.
 * Both callbacks build into `p` and may use values built before the loop
 * (they become loop operands, at most 64 operands in all). Reverse-mode differentiation
 * through a while loop is an error, as in JAX. */
typedef ss_status (*ss_while_cond)(ss_program *p, const ss_value carry[], ss_value *pred,
                                   void *user);
typedef ss_status (*ss_while_body)(ss_program *p, const ss_value carry[], ss_value next[],
                                   void *user);
ss_status ss_while_loop(ss_program *p, ss_while_cond cond, ss_while_body body, void *user,
                        int ncarry, const ss_value init[], ss_value final_carry[]);

/* lax.switch (StableHLO case; lax.cond is two branches with index 0 for
 * false): `branch` builds branch b (0 <= b < nbranches) from no arguments,
 * using any values built before it (they become operands of the
 * conditional, at most 63 in all), and writes its nout results; every
 * branch must give the same shapes and dtypes. `index` is a scalar i32
 * value; at run time only branch `index` runs, and an index outside
 * 0..nbranches-1 runs the last branch, as StableHLO specifies. The plan
 * holds the largest branch (not their sum) on top of the operands; the
 * ledger lists every branch's collectives, as XLA's compiled text does.
 * Each branch is partitioned with the operands' shardings (GSPMD's
 * conditional), its results resharded to the conditional's. The gradient
 * is a conditional of the branches' gradients (JAX's cond transpose), so a
 * branch that does not run sends no cotangent, inf or NaN. Errors: a
 * non-scalar or non-i32 index, branches that disagree, more than 64
 * results, or the branch callback's own error, returned unchanged. */
typedef ss_status (*ss_switch_branch)(ss_program *p, int branch, ss_value outs[], void *user);
ss_status ss_switch(ss_program *p, ss_value index, int nbranches, ss_switch_branch branch,
                    void *user, int nout, ss_value outs[]);

/* shard_map: per-device code with explicit collectives, which the
 * partitioner leaves alone (docs/gspmd.md S10). ss_shard_map_begin gives,
 * for each global value xs[k], its per-device block under in_specs[k]
 * (every dim must divide evenly, as JAX requires); ops built after it work
 * on block shapes, until ss_shard_map_end assembles each block value
 * locals[k] into a global value by out_specs[k]. An axis absent from an
 * out_spec means the blocks are replicas along it (one is kept), and, as
 * with JAX's default check_vma=True, that must be inferable: the block must
 * come from a psum over that axis or from inputs replicated along it
 * (SS_ERR_INVALID in JAX's wording otherwise). ss_shard_map_end_unchecked
 * is check_vma=False: no check, and no gradient through the region. Every
 * mesh axis is manual inside. Regions do not nest; values cross only
 * through begin/end. */
ss_status ss_shard_map_begin(ss_program *p, int n, const ss_value xs[], const ss_spec in_specs[],
                             ss_value locals[]);
ss_status ss_shard_map_end(ss_program *p, int n, const ss_value locals[],
                           const ss_spec out_specs[], ss_value outs[]);
ss_status ss_shard_map_end_unchecked(ss_program *p, int n, const ss_value locals[],
                                     const ss_spec out_specs[], ss_value outs[]);
/* Collectives inside a shard_map region, as jax.lax's: `axes` names one
 * mesh axis or several ("x", "x,y" or "('x', 'y')"; a tuple acts as one
 * flattened axis). Shapes and errors are those of the runtime's collectives
 * (JAX's wording), e.g. psum_scatter with tiled=0 needs x.shape[dim] equal
 * to the group size. ppermute pairs are (source, target) axis indices;
 * devices that are no target get zeros. Outside a region: JAX's "Found an
 * unbound axis name" error. */
ss_status ss_psum(ss_program *p, ss_value x, const char *axes, ss_reduce_op op, ss_value *out);
ss_status ss_all_gather(ss_program *p, ss_value x, const char *axes, int axis, int tiled,
                        ss_value *out);
ss_status ss_psum_scatter(ss_program *p, ss_value x, const char *axes, int dim, int tiled,
                          ss_value *out);
/* lax.all_gather_invariant: the same gather, typed as the same value on
 * every device (so out_specs may replicate it), whose transpose is each
 * device slicing its own block (no communication) instead of all_gather's
 * reduce-scatter. */
ss_status ss_all_gather_invariant(ss_program *p, ss_value x, const char *axes, int axis,
                                  int tiled, ss_value *out);
ss_status ss_all_to_all(ss_program *p, ss_value x, const char *axes, int split_axis,
                        int concat_axis, int tiled, ss_value *out);
ss_status ss_ppermute(ss_program *p, ss_value x, const char *axes, int npairs,
                      const int pairs[][2], ss_value *out);
/* lax.axis_index inside a shard_map region: this device's index along
 * `axes` (several: the row-major index over them, first axis major), as an
 * f32 scalar (JAX gives int32; values compute in floats here, exact below
 * 2^24). It is the block of iota(axis size) that in_specs P(axes) hands each
 * device, so it costs no communication. Outside a region: JAX's "Found an
 * unbound axis name" error. */
ss_status ss_axis_index(ss_program *p, const char *axes, ss_value *out);

/* Facts about a value. */
ss_status ss_value_shape(const ss_program *p, ss_value v, ss_dtype *dtype, int *rank,
                         int64_t shape[]);
/* "dot_general", "add", "broadcast_in_dim", ... */
const char *ss_value_op_name(const ss_program *p, ss_value v);
/* The name value v's builder gave it (an input's or param's, an optimizer
 * state's), else "" (also for an invalid value). */
const char *ss_value_name(const ss_program *p, ss_value v);
/* The source position of the code that built value v, as a front end
 * records it (the scenario language: the statement's line and column, as
 * JAX's source_info names the user's Python line). SS_ERR_RANGE for a
 * value that is not p's. ss_value_source gives 0, 0 when none was recorded
 * (or for an invalid value). */
ss_status ss_value_set_source(ss_program *p, ss_value v, int line, int col);
void ss_value_source(const ss_program *p, ss_value v, int *line, int *col);
/* The i-th operand of value v's op; SS_ERR_RANGE past its operands. */
ss_status ss_value_operand(const ss_program *p, ss_value v, int i, ss_value *out);

/* The part of a training step that made value v: the caller's own ops
 * (the forward, and anything written by hand), the ops ss_vjp, ss_grad and
 * ss_value_and_grad add (the backward: transposes and their cotangents), or
 * those of ss_optim_state_inputs and ss_optim_update (the optimizer).
 * SS_PHASE_FORWARD for an invalid value. */
typedef enum ss_phase { SS_PHASE_FORWARD = 0, SS_PHASE_BACKWARD, SS_PHASE_OPTIMIZER } ss_phase;
ss_phase ss_value_phase(const ss_program *p, ss_value v);
/* "forward", "backward", "optimizer". */
const char *ss_phase_name(ss_phase phase);

/* Run sharding propagation (docs/gspmd.md section 2: fixed user shardings,
 * shardings only become more specific, forward and backward sweeps by
 * op-priority level, dot rules from both operands). Idempotent. */
ss_status ss_program_propagate(ss_program *p);
/* The sharding propagation chose for value v (after ss_program_propagate). */
ss_status ss_value_sharding(const ss_program *p, ss_value v, ss_sharding *out);
/* What decided value v's sharding (the last change propagation made):
 * DEFAULT: nothing reached it, replicated; DECLARED: its own spec (an
 * input's or param's, a constraint's, shard_map's out_specs); MANUAL: a
 * block inside shard_map; CONSTRAINT: lent by the constraint `from` that
 * reads it; OPERANDS: its op's forward rule from its operands; USER: the
 * backward rule of `from`, an op that reads it; PRIMAL: a gradient laid
 * out as its primal `from`. `level` is the op-priority level of the sweep
 * (0 elementwise and shape ops .. 3; docs/gspmd.md section 2) for OPERANDS
 * and USER, else 0; `from` is -1 where no value is named. A loop region's
 * values have none (SS_ERR_INVALID), as does a program not propagated. */
typedef enum ss_sharding_origin_kind {
    SS_ORIGIN_DEFAULT = 0,
    SS_ORIGIN_DECLARED,
    SS_ORIGIN_MANUAL,
    SS_ORIGIN_CONSTRAINT,
    SS_ORIGIN_OPERANDS,
    SS_ORIGIN_USER,
    SS_ORIGIN_PRIMAL
} ss_sharding_origin_kind;
typedef struct ss_sharding_origin {
    ss_sharding_origin_kind kind;
    ss_value from;
    int level;
} ss_sharding_origin;
ss_status ss_value_sharding_origin(const ss_program *p, ss_value v, ss_sharding_origin *out);
/* "default", "declared", "manual", "constraint", "operands", "user",
 * "primal"; "?" for another value. */
const char *ss_sharding_origin_name(ss_sharding_origin_kind kind);
/* Print the program, one op per line with shapes and shardings:
 * "%3 = dot_general(%0, %1) f32[8,1024] P('data', 'model')". */
ss_status ss_program_print(const ss_program *p, FILE *f);

/* The single-device reference: evaluate the program on the host with naive
 * kernels, whole arrays. `inputs[i]` is the row-major host array of the
 * i-th input or param (creation order), `outputs[j]` receives the j-th
 * output (ss_output order). Each intermediate is freed after its last use,
 * so host memory is about the live set, not the whole program. Slow on
 * purpose (a loop per output element, arithmetic in double): this is what
 * the kernel and partitioner tests compare against. Errors: SS_ERR_INVALID
 * for a NULL input or output, SS_ERR_NOMEM when the host is out of memory,
 * a kernel's error naming the op ("eval: %7 (dot_general): ..."). */
ss_status ss_program_eval(const ss_program *p, const void *const inputs[],
                          void *const outputs[]);

/* Evaluation options (zero-initialise for ss_program_eval's behaviour). */
typedef struct ss_eval_options {
    /* Nonzero: the single-device run, the analog of jax.jit of the same
     * function with no shardings on one device. Whole arrays on the calling
     * thread, with the fast kernels every virtual device runs (dot_general
     * through single-threaded OpenBLAS sgemm, f32 elementwise blocks)
     * instead of the naive references: 15x less CPU time on the Flax
     * guide's MLP at depth 1024 (3 train steps: 10.6 s -> 0.7 s) and over
     * 100x on scenarios/gpt2_block.shard, with results that differ from the
     * reference's by f32 rounding only (sgemm sums in f32). No
     * fusion, no partitioning, no device arenas: it shares the kernels with
     * the sharded run but not the partitioner, so comparing the two still
     * checks the partitioner and the runtime. `shardsim run`'s `check` uses
     * it. Zero: the naive reference kernels. */
    int fast_kernels;
} ss_eval_options;

/* ss_program_eval with options (NULL means all zero). Same inputs, outputs
 * and errors. */
ss_status ss_program_eval_with(const ss_program *p, const ss_eval_options *opts,
                               const void *const inputs[], void *const outputs[]);

/* ------------------------------------------------------------------------ */
/* Executables: the partitioned program                                      */
/* ------------------------------------------------------------------------ */

/* The program partitioned for its mesh: propagation (if not done), then
 * GSPMD's lowering to one per-device instruction list with the collectives
 * and reshards it needs, and buffer lifetimes. Compile once, run many
 * times. The program must outlive the executable and not change.
 *
 * Uneven shards (a constraint whose dim its axes do not divide, as
 * with_sharding_constraint allows inside jit) are lowered as XLA lowers
 * them: every device holds a block ceil(size / tiles) long (the last ones
 * padded, or all padding), counted whole by the plan; reductions and dots
 * over such a dim first set the padding to their identity (0 for sums and
 * dots, -inf for max, +inf for min); leaving the layout all-gathers the
 * padded blocks and cuts the padding off; an uneven output is returned
 * replicated (jit's output sharding P()). Elementwise ops, transposes,
 * broadcasts, reductions, dots, gathers and scatters (an operand split on
 * an indexed dim: each device works in its padded block), loop carries,
 * conditional results and reshapes that keep the dim compute on padded
 * blocks; other reshapes, slice, concatenate, pad, reverse, one_hot,
 * dynamic_slice, dynamic_update_slice, sort and top_k gather their uneven
 * operands first and slice the result back locally.
 *
 * Errors: SS_ERR_UNSUPPORTED with the op named (e.g. a scatter whose
 * indices or updates are split unevenly, or a loop's stacked xs: the
 * message names the op, and the constraint that made the layout). */
typedef struct ss_executable ss_executable;
ss_status ss_program_compile(ss_program *p, ss_executable **out);

/* Compile options (zero-initialise for the defaults). */
typedef struct ss_compile_options {
    /* Windowed einsum (collective matmul, docs/gspmd.md 3.3 and S11): a
     * dot whose operand would be all-gathered along a free dim is computed
     * in n steps instead, passing that operand's blocks around the ring
     * with n-1 collective-permutes and writing each step's slice of the
     * result: the same bytes as the all-gather, but no device ever holds
     * the gathered operand. Applies when the gathered operand is at least
     * this many MiB; 0 means off (XLA's default: off). */
    double windowed_einsum_threshold_mib;
    /* Nonzero: turn loop fusion off (for comparisons). */
    int no_fusion;
    /* Nonzero: loop fusion reads broadcasts of arrays (not of scalars)
     * from their results, as if fusion could not fold them: for a plan
     * under a memory model with xla_fusion, whose search chooses which
     * broadcasts XLA materialises (ss_memory_model). */
    int materialize_broadcasts;
    /* Nonzero: where GSPMD's choice moves more bytes than another valid
     * lowering (reducing a large partial dot result where gathering its
     * small operands would move less, docs/gspmd.md 3.2, S2, S5), take the
     * cheaper one. The explanation names the alternative either way. */
    int cheapest;
    /* Nonzero: do not write the one-line reason for every op's
     * partitioning (ss_executable_explain then writes nothing), for a
     * caller that never prints it: `shardsim plan` without --explain. */
    int no_explain;
} ss_compile_options;
ss_status ss_program_compile_with(ss_program *p, const ss_compile_options *opts,
                                  ss_executable **out);
void ss_executable_destroy(ss_executable *e);
int ss_executable_input_count(const ss_executable *e);
int ss_executable_output_count(const ss_executable *e);
ss_status ss_executable_input(const ss_executable *e, int i, ss_value *out);
ss_status ss_executable_output(const ss_executable *e, int i, ss_value *out);

/* Run on the context's devices (its device count must equal the mesh's).
 * Host arrays as ss_program_eval. Each device loads its blocks of the
 * inputs into its arena, runs, and the replica 0 of every output block
 * writes it to the host. Work replicated along mesh axes (an instruction
 * of at least 16 KiB of results whose operands are identical on a group of
 * devices, such as an optimizer update of replicated params) is computed
 * by the group's first device and copied by the others where they read
 * it; every device still allocates its buffers, so its peak is the plan's,
 * and results are bit for bit those of every device computing everything
 * (environment SHARDSIM_REPLICAS=each, the naive path). Like JAX, this
 * assumes an input array's replicas hold the same values. Same for
 * ss_executable_run_arrays. Errors: device OOM, deadlock or mismatch reports
 * from the runtime, SS_ERR_INVALID for NULL buffers. */
ss_status ss_executable_run(ss_executable *e, ss_context *ctx, const void *const inputs[],
                            void *const outputs[]);

/* Run with device-resident arrays, as a jitted step with sharded
 * jax.Arrays: inputs[k] must live in `ctx`, have the program's shape and be
 * laid out as propagation decided for that input (ss_value_sharding) over a
 * mesh with the same device order; nothing is copied in. outputs[j]
 * receives a new array (the caller destroys it) laid out as the output's
 * propagated sharding; its mesh is the program's. donate[k] (donate may be
 * NULL) hands input k's shards to the run, as jit's donate_argnums: they
 * are freed after their last use or become an output's shards, and the
 * input array must then only be destroyed (it holds no data). Errors as
 * ss_executable_run, plus SS_ERR_INVALID naming an input whose layout
 * differs; on failure no output array is returned (the caller owns none). */
ss_status ss_executable_run_arrays(ss_executable *e, ss_context *ctx, ss_array *const inputs[],
                                   const bool donate[], ss_array *outputs[]);

/* Watching collectives (the teaching view of shard_map): one device's local
 * block right before (after = 0) or right after (after = 1) one collective
 * of a run. `index` numbers the step's collectives from 0 in ledger order
 * (ss_executable_ledger_get); `value` is the program value the collective
 * produces and `operand` the one it reads: for a collective written in a
 * shard_map body (psum, ppermute, ...) its argument, for a reshard the
 * partitioner inserted the value itself (another layout of it). `data` is
 * valid during the call only. */
typedef struct ss_watch_event {
    int device;
    int after;
    int index;
    ss_value value, operand;
    const ss_coll *coll;
    ss_dtype dtype;
    int rank;
    const int64_t *shape;
    const void *data;
} ss_watch_event;
typedef void (*ss_watch_fn)(const ss_watch_event *ev, void *user);

/* Call fn around every collective of the later runs of e (fn NULL: stop).
 * fn runs in the devices' fibers, several at once, each with its own
 * device's events in order; it must not call into the library. */
void ss_executable_watch(ss_executable *e, ss_watch_fn fn, void *user);

/* What a run will cost, with no data and no compute (eval_shape's analog):
 * per-device peak arena bytes (inputs and scratch included), FLOPs per
 * device, the number of collectives and the bytes each device sends. A run
 * on a fresh context measures the same peak (ss_device_memory_stats). */
typedef struct ss_plan {
    size_t peak_bytes;
    double flops;
    int ncollectives;
    double sent_bytes;
    /* Loops whose trip count is only known at run time (while loops): their
     * body is counted once in the figures above. Counted loops (scan) are
     * multiplied by their length, and so is a while whose form shows its
     * trip count: carry k starts at an integer constant c0, the condition is
     * `carry k < N` for a constant N and the body adds 1 to carry k (JAX's
     * fori_loop and scan lowerings): N - c0 trips, the condition once more. */
    int unknown_trip_loops;
    /* Host memory (values device_put to a host memory kind, ss_memory_kind):
     * the peak of this device's partition of its host's arena (the same on
     * every device: a host's peak is this times its device count), and the
     * bytes each device moves to host and back to the device per step, with
     * the number of transfers (loops multiplied as above). */
    size_t host_peak_bytes;
    double to_host_bytes, to_device_bytes;
    int transfers;
} ss_plan;
ss_status ss_executable_plan(const ss_executable *e, ss_plan *out);
/* The plan of ss_executable_run_arrays with input k donated where donate[k]
 * (donate may be NULL): results written over donated inputs take no new
 * bytes, and an undonated input returned unchanged is copied. Its peak
 * counts the inputs, which are resident before the run. */
ss_status ss_executable_plan_arrays(const ss_executable *e, const bool donate[], ss_plan *out);
/* Bytes of one array of `shape` under `layout`; 0 for a bad dtype or rank,
 * an empty array or a negative dimension, SIZE_MAX past 10^18 bytes. */
size_t ss_layout_array_bytes(ss_memory_layout layout, ss_dtype dtype, int rank,
                             const int64_t shape[]);
/* ss_executable_plan with every buffer that holds an array sized by
 * `layout` (SS_ERR_INVALID for an unknown layout). Buffers inside loop
 * bodies keep their dense size. */
ss_status ss_executable_plan_layout(const ss_executable *e, ss_memory_layout layout, ss_plan *out);
/* The plan of ss_executable_plan_arrays (inputs resident, donate as there,
 * may be NULL) under `model`: peak_bytes are the HBM bytes. Loop bodies are
 * planned densely, all in HBM. */
ss_status ss_executable_plan_model(const ss_executable *e, const bool donate[],
                                   const ss_memory_model *model, ss_plan *out);
/* Mark e's collectives that the device's compiler moves in a narrower type
 * than the program (model->xla_bf16_gathers: the f32 all-gathers whose
 * only readers are f32 dot_generals of DEFAULT precision, in e and in its
 * loops' regions). From then on e's ledger (ss_executable_ledger_get, the
 * plan's sent bytes) records them as bf16 and a plan under a memory model
 * sizes their results as bf16; runs are unchanged (they gather f32 and
 * compute JAX's CPU values). With model->xla_bf16_stashes it also marks
 * the stacked residuals one loop fills and a later one reads back only as
 * such dots' operands, which a plan then sizes as bf16 (no collective
 * changes). *marked (may be NULL): how many collectives were marked.
 * Nothing is marked when the model does not ask for it. */
ss_status ss_executable_model_gathers(ss_executable *e, const ss_memory_model *model,
                                      int *marked);
/* The collectives a run will record, in order (ss_coll_record without
 * timings); equal to the context's ledger after one run. A counted loop's
 * body is listed once per step, as is a while's whose trip count its form
 * shows (ss_plan.unknown_trip_loops), its condition once more; any other
 * while's condition and body once each (its trip count is known only when
 * it runs). */
int ss_executable_ledger_count(const ss_executable *e);
ss_status ss_executable_ledger_get(const ss_executable *e, int i, ss_coll_record *out);
/* One line per op: its operands' and result's shardings and how it was
 * partitioned ("local, no communication", or each reshard step with its
 * groups and bytes per device). */
ss_status ss_executable_explain(const ss_executable *e, FILE *f);

/* --- Executable facts: what a report shows, as data --- */

/* Per-device memory over the instruction list, as ss_executable_plan
 * replays it (every device runs the same list): one point per instruction
 * (ss_executable_memory_timeline). */
typedef struct ss_memory_point {
    int step;          /* the instruction's position, from 0 */
    ss_value value;    /* the value it loads, computes, reshards, stores or frees */
    const char *what;  /* "load", "constant", "kernel", "fused", "collective",
                          "slice", "unstack", "store", "alloc", "place", "free",
                          "loop", "transfer" (a device_put between memories) */
    size_t live_bytes; /* arena bytes alive after it */
    size_t peak_bytes; /* the most alive while it ran (a kernel's scratch
                          included); its maximum over the list is the plan's
                          peak_bytes */
    size_t host_live_bytes; /* bytes alive in the device's partition of its
                               host's arena after it (host memory kinds) */
} ss_memory_point;
/* The points of a run from host arrays (ss_executable_run); *n receives
 * their count, at most cap are written (cap 0: count only). */
ss_status ss_executable_memory_timeline(const ss_executable *e, ss_memory_point out[], int cap,
                                        int *n);

/* Ledger entry i with where it comes from (ss_executable_ledger_entry). */
typedef struct ss_ledger_entry {
    ss_coll_record coll; /* as ss_executable_ledger_get: kind, op, axes, group
                            counts, dtype, bytes, sent and received per device */
    /* Provenance: the program value whose op emitted the collective (user:
     * an explicit collective written in a shard_map body, psum, ppermute ...)
     * or one of whose layouts the partitioner made with it (not user: a
     * reshard, a partial sum's reduction, a windowed einsum's permute).
     * ss_value_op_name and ss_value_name tell its op and name. */
    ss_value value;
    int user;
    /* The part of the step it runs in: a computed value's collective
     * belongs to the phase that computed the value; a reshard of an input,
     * param or constant (FSDP's gathers: once for the forward, again for the
     * backward) to the phase of the first op that reads the result. */
    ss_phase phase;
    int npairs; /* PERMUTE: its source_target_pairs over all groups; else 0 */
    /* Loop position. A collective of a loop's body or condition (a scan's
     * step, a while's round) has `loop` = the loop op's value in the
     * executable's program (and `value` = `loop`: the loop is what a report
     * can name and place; phase is the loop's); `iteration` the step it runs
     * in, from 0 (a counted loop's body is listed once per step, so step t
     * of a 96-step scan has iteration t, and so for a while whose form
     * shows its trip count, whose last condition has iteration = trips;
     * any other while's condition and body are listed once, iteration 0);
     * `trips` the loop's step count, -1 for a while whose count is known
     * only when it runs; `in_cond` 1 when the while's
     * condition emits it; `region_op` and `region_name` the op and the name
     * ("" if unnamed) of the value inside the region that emits it, borrowed
     * for the executable's lifetime. For a loop nested in a loop's body,
     * these describe the outermost loop, region_* the innermost op. Outside
     * loops: loop -1, iteration 0, trips 0, in_cond 0, region_* NULL. */
    ss_value loop;
    int64_t iteration;
    int64_t trips;
    int in_cond;
    const char *region_op;
    const char *region_name;
} ss_ledger_entry;
/* Every entry of ss_executable_ledger_count has one, loops' included;
 * SS_ERR_RANGE for a bad index. */
ss_status ss_executable_ledger_entry(const ss_executable *e, int i, ss_ledger_entry *out);
/* Replica groups of ledger entry i as XLA's replica_groups list them:
 * device ids, coll.ngroups groups of coll.group_size row-major in ids[],
 * each group in rank order (the mesh axes flattened in the collective's
 * order, first axis major), the groups in the mesh position order of their
 * first member. cap: room in ids[]; SS_ERR_RANGE for a bad index or too
 * small a cap. */
ss_status ss_executable_ledger_groups(const ss_executable *e, int i, int ids[], int cap);
/* source_target_pairs of a permute ledger entry as XLA prints them: the
 * (source, target) pairs of every group in group order, as device ids
 * (a pair naming a rank past a group's size is left out). *n receives
 * entry.npairs, at most cap are written; 0 for other kinds. */
ss_status ss_executable_ledger_pairs(const ss_executable *e, int i, int pairs[][2], int cap,
                                     int *n);

/* What a buffer alive at the peak holds for the run. */
typedef enum ss_buffer_role {
    SS_BUFFER_TEMPORARY = 0, /* a value computed and freed inside the step */
    SS_BUFFER_ARGUMENT,      /* an input, resident before the step */
    SS_BUFFER_RESULT,        /* a result of the step (or a copy of an input returned) */
    SS_BUFFER_SCRATCH,       /* a kernel's working memory while it runs */
    SS_BUFFER_LOOP,          /* a loop running at the peak: its carries, outputs and body */
    SS_BUFFER_BOOKKEEPING,   /* the compiler's own bookkeeping for the whole step (XLA TPU's
                                heap of pointer tuples, ss_memory_model.bookkeeping_*) */
    SS_BUFFER_FRAGMENTATION, /* the gaps of the compiler's temporary heap, as it counts them
                                for the whole step (ss_memory_model.xla_heap_hbm_bytes) */
    SS_BUFFER_RECOMPUTED     /* not alive at the peak: a value the plan frees before it and
                                computes again after it, as XLA's rematerialisation does
                                (ss_memory_model.xla_remat_limit_bytes); its bytes are
                                what that saves, not part of the peak */
} ss_buffer_role;
/* A buffer alive at the per-device peak (ss_executable_peak_buffers,
 * ss_executable_peak_detail). */
typedef struct ss_live_buffer {
    ss_value value; /* the value it holds a block (or a reshard step) of;
                       -1 for a kernel's scratch */
    size_t bytes;   /* arena bytes (64-byte rounded) */
    char name[48];  /* "%12 dot_general", "%3 all_gather", "dot scratch" */
    ss_buffer_role role; /* ss_executable_peak_detail's; TEMPORARY or
                            SCRATCH from ss_executable_peak_buffers */
    ss_value loop;  /* -1, or the loop (a value of the program) whose body
                       holds it: value and name are then the body's, ARGUMENT
                       a carry or operand of the body, RESULT what the body
                       hands back */
    int line;       /* in a loop's body: the source line of its value (0:
                       none recorded) */
} ss_live_buffer;
/* What makes up the peak of ss_executable_plan_model(e, donate, model)
 * (model NULL: of ss_executable_plan_arrays): every buffer counted in HBM
 * at that instruction, largest first, ties by name, with its role; a
 * kernel's scratch is one more entry. When a loop's body runs at the peak,
 * the body's buffers at its own peak are listed (ss_live_buffer.loop) and
 * the loop's entry keeps the rest: its stacked outputs and the carries it
 * holds outside the body. Their bytes sum to plan->peak_bytes, which
 * receives the plan, but for the SS_BUFFER_RECOMPUTED entries (the values
 * recomputed under the model's rematerialisation, listed too). At most cap are
 * written, *n how many. */
ss_status ss_executable_peak_detail(const ss_executable *e, const bool donate[],
                                    const ss_memory_model *model, ss_live_buffer out[], int cap,
                                    int *n, ss_plan *plan);
/* The buffers alive at the peak of the instruction list's allocations (a
 * kernel's scratch counted while it runs), largest first, ties by name; at
 * most cap, *n how many were written. The replay counts every result as a
 * new buffer (no in-place reuse). SS_ERR_NOMEM when out of host memory. */
ss_status ss_executable_peak_buffers(const ss_executable *e, ss_live_buffer out[], int cap,
                                     int *n);

/* One step of the per-device instruction list that costs time: a kernel,
 * a fused elementwise loop or a collective (ss_executable_steps). */
typedef enum ss_step_kind {
    SS_STEP_KERNEL = 0,
    SS_STEP_FUSED,
    SS_STEP_COLLECTIVE,
    SS_STEP_TO_HOST,  /* a device_put from device to host memory: bytes moved per device */
    SS_STEP_TO_DEVICE /* from host memory back to the device */
} ss_step_kind;
typedef struct ss_step_cost {
    ss_step_kind kind;
    ss_value value;   /* the op's value (a fused loop: its last op's) */
    ss_dtype dtype;   /* the result's */
    double flops;     /* per device, counted as ss_executable_plan counts them */
    double bytes;     /* kernel, fused: bytes of the operands and results
                         (memory traffic); collective: bytes sent per device */
    int ledger_index; /* collective: its ledger entry; else -1 */
} ss_step_cost;
/* The steps in execution order; *n receives how many there are, at most
 * cap are written (cap 0: count only). Their flops sum to the plan's. A
 * loop's steps are its body's (and condition's) once per run, as its
 * ledger entries are, and a conditional's are those of its branch with the
 * most FLOPs; these carry the outer program's loop or case value. */
ss_status ss_executable_steps(const ss_executable *e, ss_step_cost out[], int cap, int *n);
/* Seconds per step of e under p (docs/gspmd.md 5.3): a roofline per
 * kernel (ss_estimate_kernel_seconds) and alpha-beta ring costs per
 * collective (ss_estimate_coll_seconds), summed with no overlap; fused
 * elementwise loops are not counted. SS_ERR_NOMEM on host memory. */
typedef struct ss_step_estimate {
    double compute, comm, total; /* seconds per step */
    double host; /* of which transfers between device and host memory (bytes /
                    ss_hw_profile.host_bw each, in total, not in comm) */
} ss_step_estimate;
ss_status ss_estimate_step(const ss_executable *e, const ss_mesh *mesh, const ss_hw_profile *p,
                           ss_step_estimate *out);
/* Seconds to move `bytes` between a device and its host's memory under p
 * (bytes / p->host_bw; 0 when the profile has no host link). */
double ss_estimate_host_seconds(double bytes, const ss_hw_profile *p);

/* ------------------------------------------------------------------------ */
/* Training                                                                  */
/* ------------------------------------------------------------------------ */

/* Autodiff, optimizers and initializers for a train step on the simulated
 * mesh, as jax.grad, optax and jax.nn.initializers give it.
 *
 * Gradients are appended to the program as ordinary ops (reverse mode), so
 * the partitioner shards the backward pass as GSPMD does: a weight used by
 * a batch-sharded activation gets a partial gradient and an all-reduce (or
 * a reduce-scatter when its output is sharded), a gathered operand's
 * gradient is reduce-scattered, a constraint's cotangent gets the same
 * constraint. The cotangent rules are JAX's, including its tie rules: a
 * reduce_max/min splits the cotangent equally among all elements equal to
 * the result; binary max/min give each operand equal to the result
 * g / (1 + [the other is equal too]) (half each on a tie); relu's gradient
 * at 0 is 0. Only values between the arguments and the differentiated value
 * get cotangents (JAX's symbolic zeros), so a first layer's input gradient
 * is never built unless asked for.
 *
 * Example: one Adam step of a two-layer MLP, data parallel on 'd'.
 *
 *     ss_value x, w1, w2, h, y, loss, g[2], st[5], np[2], ns[5];
 *     ... x = input P('d'), w1, w2 = params P(), y = relu(x @ w1) @ w2 ...
 *     ss_reduce(p, SS_REDUCE_SUM, y, 2, (int[]){0, 1}, 0, &loss);
 *     ss_value params[2] = {w1, w2};
 *     ss_grad(p, loss, 2, params, g);
 *     ss_optim o = ss_optim_adam(1e-3);
 *     ss_optim_state_inputs(p, &o, 2, params, st);  // mu0 mu1 nu0 nu1 count
 *     ss_optim_update(p, &o, 2, params, g, st, np, ns);
 *     for (int i = 0; i < 2; i++) ss_output(p, np[i], NULL);
 *     for (int i = 0; i < 5; i++) ss_output(p, ns[i], NULL);
 */

/* jax.vjp: append the cotangents of `wrt[0..n)` for the cotangent
 * `cotangent` (a float value of y's shape) of float value `y`. grads[i]
 * receives a value of wrt[i]'s shape and dtype: the sum over all paths from
 * wrt[i] to y (a value that does not reach y gets zeros). wrt may hold
 * inputs, params or intermediate values (each is then perturbed as if it
 * were an argument); repeats are allowed. Errors (the program is left
 * unchanged): SS_ERR_INVALID for a bad value, a non-float y or argument, or
 * a cotangent of another shape; SS_ERR_UNSUPPORTED when the path crosses a
 * shard_map region. */
ss_status ss_vjp(ss_program *p, ss_value y, ss_value cotangent, int n, const ss_value wrt[],
                 ss_value grads[]);
/* jax.grad: ss_vjp of a scalar (rank 0) float `loss` with cotangent 1.
 * SS_ERR_INVALID also for a loss of rank > 0. */
ss_status ss_grad(ss_program *p, ss_value loss, int n, const ss_value wrt[], ss_value grads[]);
/* jax.value_and_grad: as ss_grad; *value (may be NULL) receives the loss
 * value itself (the forward pass is not repeated). */
ss_status ss_value_and_grad(ss_program *p, ss_value loss, int n, const ss_value wrt[],
                            ss_value *value, ss_value grads[]);
/* lax.stop_gradient: the value of x, which autodiff treats as a constant
 * (an identity reshape, local under any sharding). */
ss_status ss_stop_gradient(ss_program *p, ss_value x, ss_value *out);

/* --- Optimizers (optax) --- */

typedef enum ss_optim_kind {
    SS_OPTIM_SGD = 0, /* optax.sgd(lr) */
    SS_OPTIM_MOMENTUM, /* optax.sgd(lr, momentum, nesterov) */
    SS_OPTIM_ADAM,     /* optax.adam(lr, b1, b2, eps, eps_root) */
    SS_OPTIM_ADAMW     /* optax.adamw(lr, b1, b2, eps, eps_root, weight_decay) */
} ss_optim_kind;

/* An optimizer's hyperparameters. Start from ss_optim_sgd/momentum/adam/
 * adamw (optax's defaults) and change fields as needed. Updates, in optax's
 * order of operations (p param, g gradient, constants rounded to f32):
 *   SGD       p' = p + (-lr) * g
 *   MOMENTUM  t' = g + momentum * t;  d = nesterov ? g + momentum * t' : t';
 *             p' = p + (-lr) * d
 *   ADAM      mu' = (1 - b1) * g + b1 * mu;  nu' = (1 - b2) * g^2 + b2 * nu;
 *             c' = c + 1;  d = (mu' / (1 - b1^c')) / (sqrt(nu' / (1 - b2^c')
 *             + eps_root) + eps);  p' = p + (-lr) * d
 *             (eps outside the square root, eps_root inside; the bias
 *             corrections use the incremented count)
 *   ADAMW     as ADAM with d replaced by d + weight_decay * p (every param
 *             decays; optax's mask is not modelled) */
typedef struct ss_optim {
    ss_optim_kind kind;
    double learning_rate;
    double momentum; /* MOMENTUM: decay of the trace */
    int nesterov;    /* MOMENTUM */
    double b1, b2, eps, eps_root; /* ADAM, ADAMW */
    double weight_decay;          /* ADAMW */
} ss_optim;

ss_optim ss_optim_sgd(double learning_rate);
ss_optim ss_optim_momentum(double learning_rate, double momentum, int nesterov);
/* b1 0.9, b2 0.999, eps 1e-8, eps_root 0. */
ss_optim ss_optim_adam(double learning_rate);
/* As adam; optax.adamw's default weight_decay is 1e-4. */
ss_optim ss_optim_adamw(double learning_rate, double weight_decay);

/* The number of state values for `nparams` params: SGD 0; MOMENTUM one
 * trace per param; ADAM and ADAMW mu and nu per param plus one step count. */
int ss_optim_state_count(const ss_optim *o, int nparams);
/* Declare the optimizer state as program inputs: state[] (room for
 * ss_optim_state_count values) receives, slot by slot, one array per param
 * shaped like it and named after it ("W1.trace", "W1.mu", "W1.nu"), laid out
 * with the param's spec when the param is an input or param that has one;
 * for ADAM/ADAMW the f32 scalar "count" comes last, replicated. Order:
 * MOMENTUM trace[0..n); ADAM mu[0..n), nu[0..n), count. Every initial value
 * is zero (optax's init). Errors: SS_ERR_INVALID for a bad optimizer or
 * value (the program is left unchanged). */
ss_status ss_optim_state_inputs(ss_program *p, const ss_optim *o, int n, const ss_value params[],
                                ss_value state[]);
/* One optimizer step: new_params[i] and new_state (same layout as state)
 * from params, grads (each of its param's shape and dtype) and state.
 * Every op is elementwise with the param or a scalar, so the partitioner
 * keeps the state sharded like the params and adds no communication. The
 * caller marks the results as outputs. Errors: SS_ERR_INVALID for a shape
 * or dtype mismatch or a count that is not an f32 scalar (the program is
 * left unchanged). */
ss_status ss_optim_update(ss_program *p, const ss_optim *o, int n, const ss_value params[],
                          const ss_value grads[], const ss_value state[], ss_value new_params[],
                          ss_value new_state[]);

/* --- Initializers (jax.nn.initializers), made in the shards --- */

typedef enum ss_init_kind {
    SS_INIT_ZEROS = 0,
    SS_INIT_ONES,
    SS_INIT_CONSTANT,       /* `scale` everywhere */
    SS_INIT_NORMAL,         /* normal(stddev = scale, default 1e-2) */
    SS_INIT_UNIFORM,        /* uniform(scale, default 1e-2): [0, scale) */
    SS_INIT_XAVIER_NORMAL,  /* glorot_normal: truncated normal, fan_avg */
    SS_INIT_XAVIER_UNIFORM  /* glorot_uniform */
} ss_init_kind;

/* An initializer. Element values depend only on (seed, the element's flat
 * row-major index in the global array): never on the sharding, the device
 * count or the block being filled. The xavier kinds are JAX's
 * variance_scaling(scale (0 means 1), "fan_avg", ...): fan_in =
 * shape[in_axis] * receptive field, fan_out = shape[out_axis] * receptive
 * field, variance = scale / ((fan_in + fan_out) / 2); normal: a standard
 * normal truncated to [-2, 2] times sqrt(variance) / 0.87962566103423978;
 * uniform: on [-sqrt(3 variance), sqrt(3 variance)). in_axis == out_axis
 * (e.g. both 0, as a literal leaves them) means JAX's defaults -2 and -1.
 * The random bits are a counter-based hash (splitmix64 of seed and index,
 * Box-Muller for normals), not jax.random's threefry. */
typedef struct ss_init {
    ss_init_kind kind;
    uint64_t seed;
    double scale;
    int in_axis, out_axis;
} ss_init;

/* Fill the block [start, stop) (NULL: the whole array) of a global array of
 * `shape` and float `dtype` (f32, bf16, f16, f64) into `dst`, row-major in
 * the block's shape. Errors: SS_ERR_INVALID (xavier on rank < 2, bad axes,
 * unknown kind), SS_ERR_RANGE (block outside the array), SS_ERR_UNSUPPORTED
 * (dtype). */
ss_status ss_init_fill(const ss_init *init, int rank, const int64_t shape[], ss_dtype dtype,
                       const int64_t start[], const int64_t stop[], void *dst);
/* A sharded array made in place: every device fills its own shard with
 * ss_init_fill (the whole array never exists on one device or the host).
 * Errors: those of ss_init_fill and ss_array_from_callback. *out is NULL on
 * failure. */
ss_status ss_array_from_init(ss_context *ctx, const ss_sharding *sh, int rank,
                             const int64_t shape[], ss_dtype dtype, const ss_init *init,
                             const char *name, ss_array **out);

/* ------------------------------------------------------------------------ */
/* Checkpoints                                                               */
/* ------------------------------------------------------------------------ */

/* Save sharded arrays in Orbax's on-disk layout and restore them into any
 * other sharding, on any mesh of the context's devices. The layout is
 * Orbax's non-OCDBT PyTree layout with zarr v2 arrays, readable by
 * zarr-python and TensorStore:
 *
 *   DIR/STEP/                          step name = the decimal step ("12")
 *     _CHECKPOINT_METADATA             JSON: item handlers, timestamps
 *     commit_success.txt               "Checkpoint commit was successful to DIR/STEP"
 *     ITEM/                            "default" unless the options say otherwise
 *       _METADATA                      JSON: the tree (keys, key types, write shapes)
 *       _sharding                      JSON: {base64url(name): "<saved sharding JSON>"}
 *       array_metadatas/process_H      JSON: per array write/chunk shape, and in
 *                                      ext_metadata the CRC32C of every chunk file
 *       NAME/.zarray                   zarr v2: shape, chunks = the shard shape,
 *                                      dtype "<f4" "bfloat16" "<i4" ..., order C,
 *                                      fill_value null, dimension_separator ".",
 *                                      compressor {"id":"zstd","level":1} or null
 *       NAME/0.1                       one chunk file per distinct shard
 *
 * With ss_ckpt_save_options.ocdbt the NAME/ files are instead the keys
 * "NAME/.zarray", "NAME/0.1" of one OCDBT store (TensorStore's key-value
 * format, Orbax's default): ITEM/manifest.ocdbt and ITEM/d/<id>.
 *
 * Reading accepts, besides that layout, what orbax-checkpoint writes: an
 * item holding an OCDBT store (chosen by ITEM/manifest.ocdbt; merged from
 * ocdbt.process_N/ stores), zarr v3 arrays (NAME/zarr.json with one
 * sharding_indexed inner chunk per chunk, keys NAME/c/1/0), and a DIR that
 * is one checkpoint itself (StandardCheckpointer().save(DIR): DIR holds
 * _CHECKPOINT_METADATA or _METADATA), opened as step 0 (any other step is
 * SS_ERR_INVALID). Damaged stores are SS_ERR_IO naming the file (CRC32C
 * mismatch, bad length, truncated data file, missing key); format
 * features not read are SS_ERR_UNSUPPORTED naming what.
 *
 * NAME is the array's tree path with keys joined by '.' ("params.dense.kernel");
 * each key is letters, digits, '_' or '-', and a key of digits only is a
 * sequence index (Orbax key_type 1), any other a dict key (key_type 2).
 *
 * Saving: the chunk of every distinct shard is written once, by the device
 * holding its replica 0, on that device's thread, all devices at once; no
 * data moves between devices. Memory beyond the shards is one staging buffer
 * per writing device (zstd output), allocated in the device's arena so that
 * it shows in ss_device_memory_stats. The step is written into
 * DIR/STEP.orbax-checkpoint-tmp; every file and directory is fsynced, the
 * commit marker is written, and one rename(2) publishes DIR/STEP. A process
 * killed at any moment leaves every earlier step intact and the step it was
 * writing invisible: a leftover temporary directory is ignored by readers
 * and removed by the next save into DIR (one writer per directory, as
 * Orbax's primary host).
 *
 * Integrity: every chunk file is covered by CRC32Cs of its consecutive
 * SS_CKPT_CRC_BLOCK-byte blocks (one CRC for a small chunk), recorded at
 * save time. Restore checks every block it reads; ss_ckpt_verify checks
 * every block of every chunk. A corrupted, truncated or missing chunk, a
 * missing commit marker, a bad .zarray and a shape mismatch each fail with
 * one line naming the array and the chunk.
 *
 * The checksum contract. The CRC32Cs live in ITEM/array_metadatas/process_H
 * (one record per array: its chunks' CRC lists and byte counts, and the
 * CRC32C of its .zarray text), and ITEM/_METADATA says they are there
 * ("custom_metadata": {"shardsim_checksums": 1}). So no single damaged or
 * deleted file makes shardsim skip a check: when _METADATA carries the
 * mark, a missing, unparsable or incomplete checksum file, an array
 * without its record, a chunk of its grid without its CRC list, and a
 * .zarray whose bytes changed are each an error (SS_ERR_IO or
 * SS_ERR_PARSE) for restore, verify and ss_ckpt_open; and a step whose
 * records cover some arrays (an older shardsim's) needs them for all.
 * Checkpoints written by Orbax or zarr-python carry no checksums: they
 * restore, their sizes and zstd frames are checked, and ss_ckpt_verify
 * says "readable, but it records no checksums" instead of "ok".
 * Every JSON file (_METADATA, _sharding, .zarray, array_metadatas,
 * _CHECKPOINT_METADATA) must hold exactly one value: trailing bytes and a
 * truncated file are SS_ERR_PARSE errors naming the file. A host
 * allocation that fails while reading is SS_ERR_NOMEM ("out of host
 * memory ..."), never reported as damage.
 *
 * Restoring: the caller gives the abstract target state, one
 * ss_ckpt_target per array (name, shape, dtype, sharding: what
 * nnx.eval_shape gives once it propagates shardings). Every chunk file that
 * some distinct target block (replica 0) overlaps is read once, by the
 * device of the block needing most of it (ties go to the device with the
 * least to read), all devices at once, through one staging buffer in that
 * device's arena; the reader copies each overlapping block's part into that
 * block, wherever it lives (a host-side copy, as Orbax's device_put of one
 * read buffer), and replicas then copy their block from replica 0. Of an
 * uncompressed chunk only the CRC blocks some target block needs are read
 * (a restore cut by rows reads only those rows); a zstd chunk is read
 * whole. So every device's peak is its target shards plus, if it reads,
 * one staging buffer, whatever the saved sharding was, and a restore reads
 * each stored byte at most once. A target without a sharding gets the
 * saved one if it can be rebuilt on the context's devices, and otherwise
 * fails with Orbax's "Topology mismatch detected" message; it is never
 * silently copied whole to every device. Stored values are cast to the
 * target dtype on read.
 *
 * Example: save on a 2x4 mesh, restore on 8 devices sharded by rows.
 *
 *     const char *names[] = {"params.w"};
 *     ss_array *arrays[] = {w};                   // f32[1024,1024], P('a','b')
 *     ss_ckpt_save(ctx, "/tmp/ck", 1, 1, names, arrays, NULL, NULL);
 *
 *     ss_mesh *m8;
 *     ss_spec rows;
 *     ss_mesh_make("c=8", 8, NULL, &m8);
 *     ss_spec_parse("P('c', None)", &rows);
 *     ss_ckpt_target t = {.name = "params.w", .dtype = SS_BF16, .rank = 2,
 *                         .shape = {1024, 1024}};
 *     ss_sharding_init(&t.sharding, m8, &rows);
 *     ss_ckpt_state *state;
 *     if (ss_ckpt_restore(ctx, "/tmp/ck", 1, 1, &t, NULL, &state, NULL) != SS_OK)
 *         fprintf(stderr, "%s\n", ss_error_message());
 *     ss_array *w2 = ss_ckpt_state_array(state, 0);   // bf16, P('c', None)
 *     ...
 *     ss_ckpt_state_destroy(state);                   // frees w2 too
 *
 * What is not done: OCDBT and zarr v3 (Orbax's newer defaults), chunks
 * smaller than a shard, uneven shards, restoring with padding or truncation
 * (strict=False), compressors other than zstd, non-array leaves. */

#define SS_CKPT_TMP_SUFFIX ".orbax-checkpoint-tmp"
#define SS_CKPT_DEFAULT_ITEM "default"
#define SS_CKPT_DEFAULT_STAGING ((size_t)4 << 20) /* bytes per device */
#define SS_CKPT_CRC_BLOCK 65536                   /* bytes covered by one CRC32C */
#define SS_CKPT_NAME_MAX 256                      /* array name, including the NUL */

/* CRC32C (Castagnoli) of `n` bytes, continuing from `crc` (0 to start):
 * ss_crc32c(0, "123456789", 9) == 0xE3069283. Uses the SSE4.2 instruction
 * when the CPU has it, else tables; both give the same value. */
uint32_t ss_crc32c(uint32_t crc, const void *data, size_t n);

typedef enum ss_ckpt_compression {
    SS_CKPT_ZSTD = 0,     /* zstd (level 1 unless zstd_level says otherwise) */
    SS_CKPT_UNCOMPRESSED  /* compressor null: chunk files are the raw bytes */
} ss_ckpt_compression;

typedef struct ss_ckpt_save_options {
    const char *item;                /* NULL: "default" */
    ss_ckpt_compression compression; /* default SS_CKPT_ZSTD */
    int zstd_level;                  /* 0: 1 (TensorStore's default); 1..19 */
    size_t staging_bytes;            /* per writing device; 0: SS_CKPT_DEFAULT_STAGING */
    int max_to_keep;                 /* > 0: after the commit, delete the oldest
                                        committed steps beyond this many */
    int force;                       /* nonzero: replace an existing DIR/STEP (Orbax's
                                        force=True), atomically: see ss_ckpt_save */
    int ocdbt;                       /* nonzero: the item's .zarray and chunk files go
                                        into one OCDBT store (ITEM/manifest.ocdbt,
                                        ITEM/d/...), Orbax's default layout */
} ss_ckpt_save_options;

/* What a save or restore did. Restore counts: bytes_needed is the size, in
 * the stored dtype, of every distinct target shard (replicas once);
 * bytes_read is what was read from chunk files for them. */
typedef struct ss_ckpt_stats {
    uint64_t bytes_written;  /* save: chunk file bytes */
    uint64_t bytes_logical;  /* save: uncompressed bytes of the distinct shards */
    uint64_t bytes_needed;   /* restore */
    uint64_t bytes_read;     /* restore */
    int64_t chunks;          /* chunk files written, or opened by the restore */
    size_t staging_bytes;    /* largest staging buffer one device allocated */
    double seconds;          /* wall time of the call */
} ss_ckpt_stats;

/* Save `n` arrays (names[i] -> arrays[i], all on `ctx`'s devices) as step
 * `step` (>= 0) of the checkpoint directory `dir` (created if missing).
 * `opts` and `stats` may be NULL. Errors: SS_ERR_INVALID for a bad or
 * repeated name, a partial or manual sharding, a bad option, or a step that
 * already exists without `force` (Orbax's "Destination DIR/STEP already
 * exists."); SS_ERR_IO
 * with the path and strerror for a file that cannot be written (the
 * temporary directory stays behind, invisible); SS_ERR_RANGE for an array
 * on a device outside the context; SS_ERR_DEVICE_OOM when a writing device
 * has no room for its staging buffer. Leftover temporary directories of
 * killed saves in `dir` are removed first. Nothing is published unless
 * everything was written and synced. With `force`, an existing DIR/STEP is
 * replaced only once the new step is complete, by exchanging the two
 * directories in one atomic rename (renameat2 RENAME_EXCHANGE on Linux,
 * renamex_np RENAME_SWAP on macOS) and deleting the old one after it: a
 * process killed at any moment leaves DIR/STEP holding either the old
 * step or the new one, never neither (where the file system cannot
 * exchange, two renames are used and that window is two system calls
 * long). With max_to_keep, older steps
 * are removed after the commit (renamed to the temporary name first, so a
 * half-deleted step is never visible); a failure there is reported but the
 * new step stays committed. */
ss_status ss_ckpt_save(ss_context *ctx, const char *dir, int64_t step, int n,
                       const char *const names[], ss_array *const arrays[],
                       const ss_ckpt_save_options *opts, ss_ckpt_stats *stats);

typedef enum ss_ckpt_step_state {
    SS_CKPT_COMMITTED = 0,  /* DIR/STEP with its commit marker: restorable */
    SS_CKPT_INCOMPLETE,     /* DIR/STEP without commit_success.txt */
    SS_CKPT_IN_PROGRESS     /* DIR/STEP.orbax-checkpoint-tmp: being written or killed */
} ss_ckpt_step_state;

typedef struct ss_ckpt_entry {
    int64_t step;
    ss_ckpt_step_state state;
} ss_ckpt_entry;

/* Every step-like entry of `dir` in ascending step order (a step may appear
 * twice: committed and in progress). *n receives the count; SS_ERR_RANGE
 * when `cap` is too small (*n then holds the number needed), SS_ERR_IO when
 * `dir` cannot be read. Other names in `dir` are ignored. */
ss_status ss_ckpt_list(const char *dir, ss_ckpt_entry out[], int cap, int *n);
/* The committed steps only, ascending (what a CheckpointManager lists).
 * Errors as ss_ckpt_list. */
ss_status ss_ckpt_steps(const char *dir, int64_t steps[], int cap, int *n);
/* The largest committed step. SS_ERR_IO when there is none (the message
 * says so) or `dir` cannot be read. */
ss_status ss_ckpt_latest_step(const char *dir, int64_t *step);

/* --- Reading a checkpoint's metadata --- */

/* An opened committed step: its tree, array metadata and saved shardings;
 * chunk data are not read. One thread at a time per handle (.zarray files
 * are parsed and cached on first use). */
typedef struct ss_ckpt ss_ckpt;

/* How an array was sharded when it was saved (from `_sharding`). */
typedef enum ss_ckpt_sharding_kind {
    SS_CKPT_SHARDING_NONE = 0,      /* no entry in _sharding */
    SS_CKPT_SHARDING_SINGLE_DEVICE, /* SingleDeviceSharding: the whole array on one device */
    SS_CKPT_SHARDING_NAMED,         /* NamedSharding over a mesh */
    SS_CKPT_SHARDING_OTHER          /* an entry shardsim cannot rebuild */
} ss_ckpt_sharding_kind;

typedef struct ss_ckpt_array_desc {
    char name[SS_CKPT_NAME_MAX];
    ss_dtype dtype;         /* stored dtype */
    int rank;
    int64_t shape[SS_MAX_RANK];
    int64_t chunks[SS_MAX_RANK]; /* chunk shape (the saved shard shape) */
    ss_ckpt_compression compression;
    int zstd_level;
    int64_t nchunks;        /* chunks in the grid */
    uint64_t bytes_logical; /* elements x dtype size */
    uint64_t bytes_stored;  /* sum of the chunk files present */
    int64_t chunks_missing; /* chunk files absent */
    int has_crc;            /* CRC32Cs recorded for its chunks */
    ss_ckpt_sharding_kind saved;
    char saved_text[512];   /* "NamedSharding(mesh=Mesh('a': 2, 'b': 4), spec=P('a', 'b'))",
                               "SingleDeviceSharding(device=cpu:0)", or "" */
} ss_ckpt_array_desc;

/* Open step `step` (-1: the latest committed) of `dir`, item `item` (NULL:
 * "default", or the step's only item). Reads _CHECKPOINT_METADATA, _METADATA,
 * _sharding and array_metadatas; .zarray files are read when asked for.
 * Errors (SS_ERR_IO unless said): "Requested directory for restore does not
 * exist at DIR/STEP"; "Found incomplete checkpoint at DIR/STEP: no
 * commit_success.txt"; a missing item or _METADATA; SS_ERR_PARSE for bad
 * JSON (trailing bytes and truncation included), with the file named; a
 * missing or malformed checksum record where the step requires them (see
 * "The checksum contract"); SS_ERR_NOMEM when a host allocation fails.
 * *out is NULL on failure. */
ss_status ss_ckpt_open(const char *dir, int64_t step, const char *item, ss_ckpt **out);
void ss_ckpt_close(ss_ckpt *ck);
int64_t ss_ckpt_step(const ss_ckpt *ck);
const char *ss_ckpt_item(const ss_ckpt *ck);
/* init_timestamp_nsecs and commit_timestamp_nsecs of _CHECKPOINT_METADATA
 * (0 when absent). */
void ss_ckpt_timestamps(const ss_ckpt *ck, int64_t *init_ns, int64_t *commit_ns);
/* Arrays in _METADATA order (leaves with skip_deserialize excluded). */
int ss_ckpt_array_count(const ss_ckpt *ck);
const char *ss_ckpt_array_name(const ss_ckpt *ck, int i);
/* Index of array `name`, or -1. */
int ss_ckpt_array_find(const ss_ckpt *ck, const char *name);
/* Facts about array i: parses its .zarray and stats its chunk files.
 * Errors: SS_ERR_RANGE for a bad index; a missing .zarray is Orbax's
 * "File not found: .../.zarray. In many cases, this results from copying
 * a checkpoint without using the `-a` flag."; a bad one SS_ERR_PARSE or
 * SS_ERR_UNSUPPORTED naming the array and the field. */
ss_status ss_ckpt_array_info(const ss_ckpt *ck, int i, ss_ckpt_array_desc *out);
/* Rebuild array i's saved sharding over the devices 0..ndevices-1: *mesh
 * (owned by the caller; destroy it after the sharding's last use) and *out.
 * Errors: SS_ERR_INVALID when nothing was saved (Orbax's "Sharding of
 * jax.Array cannot be None. Provide `mesh` and `mesh_axes` OR `sharding`");
 * SS_ERR_MESH with "Topology mismatch detected. ..." when the saved devices
 * are not all among 0..ndevices-1; SS_ERR_UNSUPPORTED for sharding types
 * shardsim cannot rebuild. */
ss_status ss_ckpt_saved_sharding(const ss_ckpt *ck, int i, int ndevices, ss_mesh **mesh,
                                 ss_sharding *out);

/* Check step `step` of `dir` (-1: every step-like entry, committed or not):
 * commit marker, metadata, every array's .zarray, every chunk file's
 * presence, size, CRC32C blocks and (for zstd) that it decompresses to the
 * chunk's size. One line per problem is written to `log` (may be NULL), and
 * with `log` one "ok" line per good step ("readable, but it records no
 * checksums" for a step without any); *problems (may be NULL) receives
 * the count. Returns SS_OK when there is no problem, else the status and
 * message of the first one. A failed host allocation is not a problem
 * found: verification stops and returns SS_ERR_NOMEM ("verify stopped, out
 * of host memory: ..."). */
ss_status ss_ckpt_verify(const char *dir, int64_t step, const char *item, FILE *log,
                         int *problems);

/* --- Restoring --- */

/* One array of the abstract target state (jax.ShapeDtypeStruct). */
typedef struct ss_ckpt_target {
    const char *name;            /* tree path as saved, "params.w" */
    ss_dtype dtype;              /* stored values are cast to it */
    int rank;
    int64_t shape[SS_MAX_RANK];  /* must equal the stored shape */
    ss_sharding sharding;        /* sharding.mesh NULL: none given */
} ss_ckpt_target;

typedef struct ss_ckpt_restore_options {
    const char *item;      /* NULL: as ss_ckpt_open */
    int partial;           /* nonzero: partial_restore=True, restore only the targets */
    size_t staging_bytes;  /* per reading device; 0: SS_CKPT_DEFAULT_STAGING;
                              at least SS_CKPT_CRC_BLOCK */
} ss_ckpt_restore_options;

/* The restored arrays and the meshes of any saved shardings they use. */
typedef struct ss_ckpt_state ss_ckpt_state;

/* Restore `n` targets from step `step` (-1: latest) of `dir` onto `ctx`'s
 * devices. Each target's mesh device ids must be < the device count.
 * `opts` and `stats` may be NULL. Errors, each one line naming the array:
 *   - without `partial`, target names that differ from the checkpoint's:
 *     "User-provided restore item and on-disk value metadata tree
 *     structures do not match: missing in checkpoint: [...]; not in target:
 *     [...]. If this mismatch is intentional, pass `partial_restore=True`
 *     ..." (SS_ERR_INVALID); with `partial`, only names absent from the
 *     checkpoint are an error;
 *   - a shape differing from the stored one: "Requested shape: (8, 8) is
 *     not compatible with the stored shape: (16, 16). Truncating/padding is
 *     disabled. ..." (SS_ERR_INVALID);
 *   - the sharding's own errors (JAX's wording) for the target shape;
 *   - no target sharding: ss_ckpt_saved_sharding's errors ("Topology
 *     mismatch detected. ...");
 *   - SS_ERR_DEVICE_OOM when a device cannot hold its shards and staging
 *     buffer; when the sharding was the saved one the message says so;
 *   - SS_ERR_IO / SS_ERR_PARSE for a missing, truncated or corrupted chunk
 *     ("array 'w' chunk 1.0: CRC32C mismatch in bytes [0, 65536) of PATH")
 *     or a bad .zarray.
 * Nothing is left allocated on failure; *out is NULL. On success the state
 * owns the arrays (target order) and the meshes of saved shardings; arrays
 * restored into a target sharding borrow its mesh, which must outlive the
 * state. */
ss_status ss_ckpt_restore(ss_context *ctx, const char *dir, int64_t step, int n,
                          const ss_ckpt_target targets[], const ss_ckpt_restore_options *opts,
                          ss_ckpt_state **out, ss_ckpt_stats *stats);

/* A restore's cost without reading any chunk data: per device the peak
 * arena bytes the restore will add (its shards, 64-byte rounded, plus its
 * staging buffer); a restore into a fresh context measures exactly this
 * with ss_device_memory_stats. `peak_bytes` has room for `cap` >= the
 * device count entries (indexed by device id); *needed and *to_read (may be
 * NULL) receive the restore's bytes_needed and the bytes it will read.
 * Errors: those of ss_ckpt_restore that do not need chunk data. */
ss_status ss_ckpt_restore_plan(ss_context *ctx, const char *dir, int64_t step, int n,
                               const ss_ckpt_target targets[],
                               const ss_ckpt_restore_options *opts, size_t peak_bytes[],
                               int cap, uint64_t *needed, uint64_t *to_read);

int ss_ckpt_state_count(const ss_ckpt_state *s);
const char *ss_ckpt_state_name(const ss_ckpt_state *s, int i);
/* Array i (borrowed: it lives until ss_ckpt_state_destroy). NULL for a bad
 * index. */
ss_array *ss_ckpt_state_array(const ss_ckpt_state *s, int i);
/* The array restored for `name`, or NULL. */
ss_array *ss_ckpt_state_find(const ss_ckpt_state *s, const char *name);
/* 1 when array i got the saved sharding because its target had none (Orbax
 * then warns "Sharding info not provided when restoring. Populating
 * sharding info from sharding file. ..."). */
int ss_ckpt_state_used_saved_sharding(const ss_ckpt_state *s, int i);
/* Destroy the arrays and the meshes. NULL is a no-op. */
void ss_ckpt_state_destroy(ss_ckpt_state *s);

/* ------------------------------------------------------------------------ */
/* Strategies                                                                */
/* ------------------------------------------------------------------------ */

/* Shard a whole model by rules over parameter paths instead of one spec per
 * parameter, as big_vision-style sharding utilities (infer_sharding,
 * update_model_sharding) and MaxText's logical rules do.
 *
 * A strategy is an ordered list of rules. A rule is a regular expression
 * in Python's re syntax (PCRE2: \d, (?:...), lazy quantifiers, lookaround;
 * Unicode classes as Python's str patterns) over a parameter's path (levels joined by '/':
 * "Encoder/Layer_0/kernel") and the tactics to apply, left to right, to the
 * parameter's spec, which starts with every dimension None. A pattern
 * matches when it matches anywhere in the path (Python's re.search); the
 * first rule whose pattern matches decides a parameter and later rules skip
 * it. A parameter no rule matches stays replicated and is reported as such.
 * A pattern's cost is bounded: at most 4096 bytes, PCRE2's compile limits,
 * and per match 10^6 backtracking steps, depth 10^4 and 64 MiB of heap; past
 * them the error says "pattern '(a+)+$' is too costly to match (PCRE2 match
 * limit)" (SS_ERR_RANGE from ss_strategy_apply).
 *
 * Tactics:
 *   replicate       leaves the spec as it is; an error when an earlier tactic
 *                   of the rule already sharded a dimension, in the seed's
 *                   words: "Conflict: NAME already has a sharding spec
 *                   ('data', None), cannot replicate."
 *   fsdp(AXES, min_size_mb=4)
 *                   a parameter of at most min_size_mb MiB (elements x dtype
 *                   size <= min_size_mb x 2^20) is left as it is; otherwise
 *                   its dimensions are tried from the largest to the
 *                   smallest, equal sizes from the last dimension to the
 *                   first (the order of numpy's argsort(shape)[::-1] with its
 *                   reference sort, which keeps ties in index order), and the
 *                   first that is still None and divisible by the product of
 *                   the AXES' sizes gets AXES (one mesh axis, or a tuple); if
 *                   none qualifies the spec is left as it is. An axis missing
 *                   from the mesh is an error even for a small parameter.
 *   P(...)          an explicit spec over mesh axes: its non-None entries are
 *                   set; an entry already sharded otherwise is a conflict.
 *   logical(...)    logical names, resolved with the strategy's logical axis
 *                   rules (ss_rules_resolve with the mesh: Flax's algorithm,
 *                   then MaxText's removal of size-1 mesh axes; an axis
 *                   the mesh lacks is JAX's "Resource axis" error),
 *                   then set as P(...) is.
 * When a parameter's tactics are done its spec must be a valid sharding of
 * it (ss_sharding_check: JAX's messages for an unknown axis, an axis used
 * twice, a spec longer than the rank, an uneven split).
 *
 * Example: FSDP for the big kernels, everything else replicated.
 *
 *     ss_strategy *s;
 *     ss_strategy_parse("'/kernel$' fsdp(data)\n'.*' replicate\n", 1, &s, NULL, NULL);
 *     ss_param_info p[2] = {{"dense/kernel", SS_F32, 2, {1024, 4096}},
 *                           {"dense/bias", SS_F32, 1, {4096}}};
 *     ss_param_sharding out[2];
 *     if (ss_strategy_apply(s, mesh, 2, p, out) != SS_OK)   // mesh data=8
 *         fprintf(stderr, "%s\n", ss_error_message());
 *     // out[0].spec = P(None, 'data'), rule 0, 2 MiB per device
 *     // out[1].spec = P(None,), rule 1, 16 KiB per device
 *     ss_strategy_destroy(s);
 */

#define SS_FSDP_MIN_SIZE_MB 4.0 /* fsdp's default threshold, as the seed's */

typedef enum ss_tactic_kind {
    SS_TACTIC_REPLICATE = 0,
    SS_TACTIC_FSDP,
    SS_TACTIC_SPEC,   /* P(...) over mesh axes */
    SS_TACTIC_LOGICAL /* P(...) of logical names */
} ss_tactic_kind;

/* One tactic, a plain struct tests may write literally. */
typedef struct ss_tactic {
    ss_tactic_kind kind;
    ss_spec_dim axes;   /* FSDP: one axis (naxes 1) or a tuple (naxes >= 2) */
    double min_size_mb; /* FSDP: the threshold, taken as written (0 shards anything) */
    ss_spec spec;       /* SPEC: mesh axes; LOGICAL: one logical name or None per dim */
} ss_tactic;

/* An ordered list of rules with their compiled regular expressions, and
 * the logical axis rules LOGICAL tactics use. Opaque. */
typedef struct ss_strategy ss_strategy;

ss_status ss_strategy_create(ss_strategy **out);
/* NULL is a no-op. */
void ss_strategy_destroy(ss_strategy *s);
/* Append a rule: `pattern` (compiled now; PCRE2's message and offset on a
 * bad one, "pattern 'P' is too costly to compile (...)" past the limits)
 * and 1..16 tactics (copied). Errors: SS_ERR_PARSE for the pattern, SS_ERR_INVALID for a bad tactic (no FSDP axes, a negative
 * threshold). */
ss_status ss_strategy_add(ss_strategy *s, const char *pattern, int ntactics,
                          const ss_tactic tactics[]);
/* Append a rule whose tactics are text, as in a strategy file:
 * "fsdp(data, min_size_mb=4)", "replicate", "P(None, 'model') fsdp(data)". */
ss_status ss_strategy_add_text(ss_strategy *s, const char *pattern, const char *tactics);
/* The logical axis rules of LOGICAL tactics (copied; replaces earlier ones). */
ss_status ss_strategy_set_rules(ss_strategy *s, const ss_rules *rules);
/* 1 when the strategy has logical axis rules (from the file or set). */
int ss_strategy_has_rules(const ss_strategy *s);

/* Parse a strategy file's text (scenarios/README.md, "Strategies"): one
 * rule per line, a quoted pattern then its tactics ("'/kernel$'
 * fsdp(data, min_size_mb=4)"), or the seed's tuple form ("('.*', 'fsdp(axis=
 * \"data\")'),"); `rules NAME=AXIS ...` lines give logical axis rules (as
 * ss_rules_parse); '#' starts a comment. Patterns are raw strings (no
 * escapes). `first_line` numbers the text's first line in messages and in
 * ss_strategy_rule_line. On failure the message is "line L, column C: what"
 * and *err_line, *err_col (may be NULL) receive L and C; *out is NULL. */
ss_status ss_strategy_parse(const char *text, int first_line, ss_strategy **out, int *err_line,
                            int *err_col);
/* Read and parse a file; messages are "PATH:L:C: what" (SS_ERR_IO when it
 * cannot be read). */
ss_status ss_strategy_load(const char *path, ss_strategy **out);

int ss_strategy_rule_count(const ss_strategy *s);
/* Rule i as a strategy line: "'/kernel$' fsdp('data', min_size_mb=4)". */
ss_status ss_strategy_rule_repr(const ss_strategy *s, int i, char *buf, size_t cap);
/* The source line of rule i (0 when it was added in code); -1 for a bad i. */
int ss_strategy_rule_line(const ss_strategy *s, int i);
/* 1 if rule i's pattern matches `path` anywhere (re.search), else 0 (also
 * when the match is too costly; ss_strategy_apply reports that). */
int ss_strategy_rule_matches(const ss_strategy *s, int i, const char *path);

/* One parameter: its path and abstract value (jax.ShapeDtypeStruct). */
typedef struct ss_param_info {
    const char *path;
    ss_dtype dtype;
    int rank;
    int64_t shape[SS_MAX_RANK];
} ss_param_info;

/* Why a parameter ended up fully replicated (SS_REASON_SHARDED if not). */
typedef enum ss_strategy_reason {
    SS_REASON_SHARDED = 0,
    SS_REASON_NO_RULE,     /* no rule matched */
    SS_REASON_REPLICATED,  /* its rule replicated it (replicate, or no sharded entry) */
    SS_REASON_SMALL,       /* fsdp left it: at most min_size_mb */
    SS_REASON_INDIVISIBLE  /* fsdp left it: no free dimension divisible by the axes' size */
} ss_strategy_reason;

typedef struct ss_param_sharding {
    ss_spec spec;            /* over mesh axes, one entry per dimension */
    int rule;                /* index of the deciding rule, -1 when none matched */
    ss_strategy_reason reason;
    size_t bytes_per_device; /* shard elements x dtype size (every device holds one) */
} ss_param_sharding;

/* infer_sharding: the spec of every parameter under the strategy, over
 * `mesh` (borrowed). Rules are applied in order, each to the parameters no
 * earlier rule decided, so the first failing (rule, parameter) pair in that
 * order is the one reported: "strategy rule 2 ('.*bias' replicate, line 3),
 * param 'Encoder/bias': <what>". Errors: SS_ERR_INVALID (a bad parameter, a
 * conflict, LOGICAL without rules), SS_ERR_AXIS (fsdp over an axis the mesh
 * lacks), and the sharding's own errors with JAX's wording. `out` has room
 * for n entries; on failure its contents are unspecified. */
ss_status ss_strategy_apply(const ss_strategy *s, const ss_mesh *mesh, int n,
                            const ss_param_info params[], ss_param_sharding out[]);
/* update_model_sharding's other trees: `state` (room for
 * ss_optim_state_count(o, n)) receives the optimizer state's shardings in
 * ss_optim_state_inputs's order, each slot its parameter's (Adam's moments
 * follow their parameter, whatever their path), the f32 step count
 * replicated (rule -1, SS_REASON_NO_RULE); `ema` (may be NULL; n entries)
 * receives an EMA copy's, the parameters' own. SS_ERR_INVALID for a bad
 * optimizer. */
ss_status ss_strategy_state_shardings(const ss_optim *o, int n, const ss_param_sharding params[],
                                      ss_param_sharding state[], ss_param_sharding ema[]);

/* --- Resharding arrays that already live on the devices --- */

#define SS_RESHARD_DEFAULT_STAGING ((size_t)64 << 20) /* bytes per device */

typedef struct ss_reshard_options {
    /* Per device, the most bytes of new layouts and reshard scratch alive at
     * once beyond the arrays themselves; 0: SS_RESHARD_DEFAULT_STAGING. An
     * array that alone needs more is moved alone. */
    size_t staging_bytes;
} ss_reshard_options;

typedef struct ss_reshard_stats {
    int moved;          /* arrays whose layout changed */
    int kept;           /* arrays already laid out as asked: adopted, no copy */
    int batches;        /* programs run */
    size_t peak_bytes;  /* planned peak of live arena bytes on the fullest device */
    int ncollectives;   /* ledger entries the operation added */
    double sent_bytes;  /* bytes each device sent, summed over those entries */
} ss_reshard_stats;

/* Reshard `n` arrays living in `ctx` to targets[i] (a sharding over a mesh
 * of the same devices; the mesh is borrowed by the results) as one
 * operation, as update_model_sharding's with_sharding_constraint over a
 * loaded state. out[i] receives the array in its new layout (the caller
 * destroys it). Every input is donated: afterwards it holds no data and must
 * only be destroyed by its owner (an ss_ckpt_state may own it).
 *
 * What moves: an array already laid out as its target (the same block on
 * every device, even over a differently named mesh) is not copied; its
 * shards are adopted by out[i]. The others go, a batch at a time, through a
 * compiled program of sharding constraints run with donation
 * (ss_executable_run_arrays), so the partitioner picks the collectives
 * (a slice, all-to-all, all-gather ...) and the context's ledger records
 * them. Batches are formed greedily, arrays that shrink first, so that each
 * batch's new layouts plus its reshard scratch (from the batch program's
 * plan) stay within staging_bytes per device; a batch's inputs are freed
 * when it ends. So a device never holds more than its arrays plus one
 * batch's staging. The whole schedule is planned before anything moves:
 * when some device would exceed its capacity, the call fails with
 * SS_ERR_DEVICE_OOM naming the device and the batch and nothing has moved.
 *
 * `opts` and `stats` may be NULL. Errors before anything moves (inputs
 * untouched, out[] NULL): SS_ERR_INVALID (NULL array, an array in another
 * context, a partial sharding, a target over other devices), the target's
 * own errors (JAX's wording), SS_ERR_DEVICE_OOM as above. A failure while a
 * batch runs (an injected fault) leaves out[i] set for arrays moved by
 * earlier batches (the caller destroys them; their inputs are empty) and
 * NULL for the others, whose inputs still hold their data, except the
 * failed batch's: those were donated and hold nothing. */
ss_status ss_arrays_reshard(ss_context *ctx, int n, ss_array *const arrays[],
                            const ss_sharding targets[], const ss_reshard_options *opts,
                            ss_array *out[], ss_reshard_stats *stats);
/* update_model_sharding: apply the strategy to the arrays' paths, shapes
 * and dtypes over `mesh` (ss_strategy_apply, so optimizer state and EMA
 * arrays named by their tree paths match as in the seed) and reshard them
 * with ss_arrays_reshard. `shardings` (may be NULL; n entries) receives
 * what the strategy decided. Errors: those of both calls. */
ss_status ss_strategy_reshard(ss_context *ctx, const ss_strategy *s, const ss_mesh *mesh, int n,
                              const char *const paths[], ss_array *const arrays[],
                              const ss_reshard_options *opts, ss_array *out[],
                              ss_param_sharding shardings[], ss_reshard_stats *stats);

/* numpy's str of a host array, as `print(x)` shows a jax.Array (line width
 * 75, "..." past 1000 elements with 3 at each edge): data row-major in
 * `dtype`. *out receives heap text (no trailing newline) the caller frees
 * with free(). SS_ERR_INVALID for a bad rank or NULL data, SS_ERR_NOMEM. */
ss_status ss_format_numpy(ss_dtype dtype, int rank, const int64_t shape[], const void *data,
                          char **out);
/* ------------------------------------------------------------------------ */
/* Scenarios                                                                 */
/* ------------------------------------------------------------------------ */

/* A scenario is a text file in the .shard language (scenarios/README.md):
 * a mesh, arrays with shardings, functions over them and what to do with
 * them (run steps, show layouts, check against the single-device run,
 * save and restore checkpoints, print values). `shardsim run` and
 * `shardsim plan` are this API plus printing.
 *
 *     ss_scenario_options o = {.steps = 3};
 *     ss_scenario_error err;
 *     ss_scenario *sc;
 *     if (ss_scenario_load("scenarios/megatron.shard", &o, &sc, &err) != SS_OK ||
 *         ss_scenario_run(sc, &err) != SS_OK)
 *         fprintf(stderr, "%d:%d: %s\n", err.line, err.col, err.message);
 *     else if (!ss_scenario_checks_passed(sc))
 *         ...;
 *     ss_scenario_free(sc);
 *
 * Every failure fills the caller's ss_scenario_error (when not NULL) with
 * the line and column it is about, the message and that source line, so a
 * caller can print `file:line:col: message`, the line and a caret. */

typedef struct ss_scenario ss_scenario;

/* The largest scenario or .mlir file ss_scenario_load reads (64 MiB). */
#define SS_SCENARIO_FILE_MAX ((size_t)64 << 20)

/* What the command line can change; zero-initialize and set what you need.
 * Strings and arrays are borrowed: they must outlive the scenario. */
typedef struct ss_scenario_options {
    int steps;             /* > 0: replaces the run's steps=N (1..10^6) */
    const char *mesh;      /* "data=4,model=2": replaces the file's mesh; NULL: the file's */
    int devices;           /* devices available (the mesh takes the first); 0: the file's */
    size_t device_memory;  /* bytes per device; 0: the file's, else SS_DEFAULT_DEVICE_MEMORY */
    int threads;           /* run: worker threads (devices computing at once); 0: the cores */
    int nsets;             /* integer constants: NAME = VALUE replaces the file's (<= 32) */
    const char *const *set_names;
    const int64_t *set_values;
    const char *strategy;  /* strategy file replacing the file's `strategy` statement */
    ss_compile_options compile; /* windowed einsum, cheapest (ss_program_compile_with) */
    const char *outputs;   /* run: write every result of the last step as DIR/NAME.npy */
    /* An imported StableHLO module: its arguments from DIR/NAME.npy (NAME
     * the argument's location name, JAX's argument path, else argN);
     * NULL: deterministic random values. */
    const char *inputs;
    const char *trace;     /* run: write a Chrome/Perfetto trace of the devices here */
    /* run: called after every step with the steps done, of `total`, and the
     * seconds since the first began (NULL: not called). */
    void (*progress)(int done, int total, double elapsed_s, void *user);
    void *progress_user;
    /* run: when not NULL, the run stops after the step in progress once
     * *cancel is nonzero (set it from another thread, a signal handler or
     * the progress callback): ss_scenario_run fails with SS_ERR_CANCELLED. */
    const volatile int *cancel;
    /* run: keep the last step's results on the devices until
     * ss_scenario_free, for ss_scenario_output_array (false: freed when the
     * run ends, as the command line does). */
    bool keep_outputs;
    /* plan: the accelerator planned for (ss_hw_profile_find("tpu-v5e")):
     * its hbm_bytes are the device memory unless device_memory is set, and
     * the plan's peak is counted under its memory model
     * (ss_executable_plan_model). NULL: shardsim's own devices. A run's
     * devices are always shardsim's; only its plan follows the profile. */
    const ss_hw_profile *device;
    /* run: record the devices' trace events (ss_context_trace_get) as
     * `trace` does, without writing a file (the command line's --html
     * draws its timeline from them). */
    bool trace_events;
    /* A MaxText configuration (ss_maxtext_config_load; NULL: none): the
     * mesh ss_maxtext_mesh builds from it over `devices` (0: the count the
     * file's mesh asks for) in `slices` slices (0: the config's) replaces
     * the file's mesh and device order, and its logical_axis_rules replace
     * the file's `rules`. Scenario files only (a lowered StableHLO module's
     * shardings are already resolved); not with `mesh`. */
    const ss_maxtext_config *maxtext;
    int slices;
    /* With `maxtext`: TPU slices of this topology (ss_tpu_topology_parse;
     * NULL: CPU devices) give the devices (its devices x `slices`, replacing
     * `devices`) and their order, ss_maxtext_mesh_tpu's. */
    const ss_tpu_topology *topology;
    /* run: skip the `check` statements and the single-device run they
     * compare with (an imported module checks every result by default):
     * the report then has no checks, ss_scenario_checks_passed is true and
     * ss_scenario_check_count is 0. For timing the sharded run alone. */
    bool no_checks;
} ss_scenario_options;

typedef struct ss_scenario_error {
    int line, col;     /* 1-based; 0 when the error is not about a spot in the file */
    /* true: the scenario or an option is wrong (a command exits 2); false:
     * it failed when planned or run: a device out of memory, a deadlock, a
     * checkpoint that does not match, out of host memory (exit 1). */
    bool bad_input;
    char message[2048];
    char source_line[1024]; /* the text of line `line` (no newline), "" if none */
} ss_scenario_error;

/* Read the file at `path` (or take the NUL-terminated `text`, naming it
 * `name` in messages), lex, parse and evaluate it: configuration, arrays,
 * functions, and the run function expanded into a program with its
 * outputs, shows and checks. `opts` may be NULL. On failure *out is NULL
 * and `err` (may be NULL) says where and why: SS_ERR_PARSE for anything
 * the scenario says wrong (the message as the language reference shows
 * it), SS_ERR_IO for an unreadable file, SS_ERR_NOMEM. */
ss_status ss_scenario_load(const char *path, const ss_scenario_options *opts, ss_scenario **out,
                           ss_scenario_error *err);
ss_status ss_scenario_load_text(const char *name, const char *text,
                                const ss_scenario_options *opts, ss_scenario **out,
                                ss_scenario_error *err);
void ss_scenario_free(ss_scenario *sc);

/* Compile the run function (without one: nothing) and plan its memory
 * with the carried inputs donated as the run donates them. plan and run
 * call it; call it first to read ss_scenario_executable, e.g. to attach a
 * watch. Idempotent. */
ss_status ss_scenario_compile(ss_scenario *sc, ss_scenario_error *err);
/* The compiled run function, or NULL (not compiled, no run function). */
ss_executable *ss_scenario_executable(const ss_scenario *sc);
/* The run calls `fn` (from the devices' fibers) around every collective of
 * its first step, as ss_executable_watch; NULL detaches. */
void ss_scenario_watch(ss_scenario *sc, ss_watch_fn fn, void *user);

/* jax.eval_shape's analog: compile, plan per-device memory and check every
 * `restore` against its checkpoint's metadata, without devices or data.
 * ss_scenario_fits says whether the peak fits in device memory. */
ss_status ss_scenario_plan(ss_scenario *sc, ss_scenario_error *err);
/* Run the steps on virtual devices (results that update arrays feed the
 * next step; the arrays stay on the devices between steps), the save and
 * restore statements, the same steps on the single-device reference when
 * there are checks, and write `outputs` and `trace`. A failed check is not
 * an error: see ss_scenario_checks_passed. Run once per scenario. */
ss_status ss_scenario_run(ss_scenario *sc, ss_scenario_error *err);
/* After a plan: does the peak fit? (true without a run function.) */
bool ss_scenario_fits(const ss_scenario *sc);
/* After a run: did every `check` pass? (true without checks.) */
bool ss_scenario_checks_passed(const ss_scenario *sc);

/* --- Scenario results: what a plan or run made, as data --- */

/* The scenario's mesh and program (borrowed; NULL for NULL). The program's
 * values name the ledger entries' and outputs' ops (ss_value_name). */
const ss_mesh *ss_scenario_mesh(const ss_scenario *sc);
const ss_program *ss_scenario_program(const ss_scenario *sc);

/* The name the file gave value v (a variable of the scenario, or the
 * argument or result name of an imported program), "" if none; *line and
 * *col (may be NULL) receive where in the file it was made (0 if unknown). */
const char *ss_scenario_value_name(const ss_scenario *sc, ss_value v, int *line, int *col);
/* The first value the file named `name` (its lowest value id), -1 if no
 * value has that name. */
ss_value ss_scenario_value_find(const ss_scenario *sc, const char *name);

typedef struct ss_scenario_result {
    bool has_run;            /* the scenario has a run function */
    ss_plan plan;            /* per-device figures of one step, planned as the run
                                executes it (carried inputs donated if run donates) */
    size_t device_memory;    /* bytes per device */
    bool fits;               /* plan.peak_bytes <= device_memory */
    bool ran;                /* ss_scenario_run was called and ran the steps */
    int steps;               /* steps the run does (did) */
    double compile_seconds;  /* compiling the run function */
    double first_seconds, median_seconds; /* ran: the first step, the median of the rest */
    bool checks_passed;      /* ran: every check passed (true without checks) */
} ss_scenario_result;
/* After ss_scenario_compile, _plan or _run; SS_ERR_INVALID before. */
ss_status ss_scenario_result_get(const ss_scenario *sc, ss_scenario_result *out);

/* The results of the run function (not the values added for checks and
 * prints), in order; 0 without a run function. */
int ss_scenario_output_count(const ss_scenario *sc);
typedef struct ss_scenario_output {
    char name[512];        /* as `--outputs` names its .npy file (RUN_K if unnamed);
                              "" before ss_scenario_compile, _plan or _run */
    ss_value value;        /* in ss_scenario_program */
    ss_dtype dtype;
    int rank;
    int64_t shape[SS_MAX_RANK];
    bool feeds_input;      /* it updates an array between steps (params, state) */
    const void *data;      /* after a run: the last step's values, row-major,
                              owned by the scenario; NULL before */
} ss_scenario_output;
/* SS_ERR_RANGE past the results. A run leaves a result on the devices,
 * as a jitted step does, unless the run itself reads it (checks, prints,
 * `outputs`, checkpoints): the first call asking for its data copies it to
 * the host, and fails only if that copy does. */
ss_status ss_scenario_output_get(const ss_scenario *sc, int i, ss_scenario_output *out);

/* The `check` statements, in order: after a run, the largest difference
 * from the single-device run and the verdict. */
int ss_scenario_check_count(const ss_scenario *sc);
typedef struct ss_scenario_check {
    const char *name;      /* the checked value's name (borrowed) */
    int line;              /* its statement's line, 0 if unknown */
    bool ran;              /* false before a run: the fields below are 0 */
    double max_abs_err;    /* largest |run - reference| over finite pairs */
    double ref_max;        /* largest finite |reference| */
    double tol;            /* pass if max_abs_err <= tol * max(1, ref_max) */
    bool passed;
} ss_scenario_check;
/* SS_ERR_RANGE past the checks. */
ss_status ss_scenario_check_get(const ss_scenario *sc, int i, ss_scenario_check *out);

/* After a run with keep_outputs: result i (ss_scenario_output_get's order)
 * as it lies on the devices after the last step, in the layout the
 * partitioner gave it (borrowed; valid until ss_scenario_free). Its shards
 * (ss_array_shards) point into the device arenas, row-major. NULL before
 * such a run or past the results. */
const ss_array *ss_scenario_output_array(const ss_scenario *sc, int i);

/* --- Scenario inputs: the run's arguments, as data and given by a caller --- */

/* The run function's inputs, in the program's input order (for an imported
 * StableHLO module: the entry function's arguments in order; for a
 * scenario: its arrays in the order the run first uses them, optimizer
 * state included); 0 before a run function exists. */
int ss_scenario_input_count(const ss_scenario *sc);
typedef struct ss_scenario_input {
    const char *name;      /* the argument's name (JAX's argument path, else argN;
                              a scenario's variable name); borrowed */
    ss_value value;        /* in ss_scenario_program */
    ss_dtype dtype;
    int rank;
    int64_t shape[SS_MAX_RANK];
    bool is_param;         /* a param (imported: a donated argument) */
    bool hidden;           /* made by an optimizer (its state), not declared */
    bool given;            /* its values come from ss_scenario_input_set or --inputs */
} ss_scenario_input;
/* SS_ERR_RANGE past the inputs. */
ss_status ss_scenario_input_get(const ss_scenario *sc, int i, ss_scenario_input *out);
/* Give input i's values for the run's first step, replacing its
 * initializer (random values for an imported module): `data` holds the
 * array row-major in the input's dtype and shape, `bytes` long; it is
 * borrowed (read when the run starts, not copied now) and must stay valid
 * until ss_scenario_run returns. Call after loading and before
 * ss_scenario_run. Errors: SS_ERR_RANGE for a bad i, SS_ERR_INVALID for
 * NULL data, a byte count that is not the input's, or a scenario that has
 * run already; nothing changes on error. */
ss_status ss_scenario_input_set(ss_scenario *sc, int i, const void *data, size_t bytes);

/* --- Scenario reports: what `shardsim run` and `plan` print --------------- */

/* How the report looks; zero-initialize for the plain text report. */
typedef struct ss_scenario_report_options {
    bool json;           /* one JSON object (scenarios/README.md documents it) */
    bool explain;        /* how the partitioner lowered each op */
    bool explain_memory; /* plan: the live buffers at the peak, with their lines */
    bool color;          /* ANSI colours in the text */
    const char *profile; /* plan: the hardware profile of the step estimates
                            (ss_hw_profile_find's names); NULL: every profile */
} ss_scenario_report_options;
/* Write the report of a planned or run scenario to f: the mesh, the shows,
 * memory per device, the ledger, step times or estimates, checks and
 * prints, in the order `shardsim run|plan` prints them, or one JSON
 * object. A part that cannot be made fails the report (SS_ERR_NOMEM): the
 * text written so far stays, JSON is not written. SS_ERR_INVALID before
 * ss_scenario_plan or ss_scenario_run has succeeded. */
ss_status ss_scenario_report_write(ss_scenario *sc, const ss_scenario_report_options *opts,
                                   FILE *f);
/* The same report as one self-contained HTML page at `path` (no network:
 * the page's style, script and data are inside it). SS_ERR_IO when the
 * file cannot be written, SS_ERR_NOMEM, SS_ERR_INVALID as above. */
ss_status ss_scenario_report_html(ss_scenario *sc, const ss_scenario_report_options *opts,
                                  const char *path);
/* A planned scenario's estimated timeline of one device (every device runs
 * the same instruction list) on hardware profile `profile` (NULL:
 * tpu-v5e) as a Chrome trace-event file at `path`: one slice per kernel
 * and collective. SS_ERR_IO, SS_ERR_NOMEM; SS_ERR_INVALID before a plan
 * or when the scenario has no run. */
ss_status ss_scenario_plan_trace(ss_scenario *sc, const char *profile, const char *path);
/* `run --watch NAME`: during the first step, catch each device's block
 * before and after every collective that reads or writes a value named
 * `name`; the report then shows them. Call after ss_scenario_compile and
 * before ss_scenario_run. SS_ERR_INVALID when no value has that name or
 * the scenario has no run; SS_ERR_NOMEM. */
ss_status ss_scenario_watch_value(ss_scenario *sc, const char *name);

/* `shardsim plan FILE --strategy A --strategy B ...`: the scenario at
 * `path` (or the NUL-terminated `text`, named `path` in messages) planned
 * once per strategy file in strategies[0..n), with `opts` (its `strategy`
 * is replaced each time), written side by side to f: per device params,
 * optimizer state, inputs, activations, the planned peak and whether it
 * fits, bytes sent and collectives per step; or one JSON object. *any_fits
 * says whether one of them fits. On failure `err` says where and why, as
 * ss_scenario_load does, and nothing is written. */
ss_status ss_scenario_compare_strategies(const char *path, const char *text,
                                         const ss_scenario_options *opts, int n,
                                         const char *const strategies[], bool json, FILE *f,
                                         bool *any_fits, ss_scenario_error *err);

#ifdef __cplusplus
}
#endif

#endif /* SHARDSIM_H */
