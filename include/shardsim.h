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
    X(ERR_IO, -15, "input/output error")

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

#define SS_MAX_RANK 8     /* array dimensions */
#define SS_MAX_AXES 8     /* mesh axes; also axes in one spec entry */
#define SS_NAME_MAX 32    /* axis or logical name, including the NUL */
#define SS_MAX_DEVICES 4096

typedef enum ss_dtype {
    SS_F32 = 0,
    SS_BF16,
    SS_F16,
    SS_I32,
    SS_F64,
    SS_I64,
    SS_I8,
    SS_U8,
    SS_BOOL,
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
 * the empty mesh). With `axis_types` nonzero, today's form
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
    char axes[SS_MAX_AXES][SS_NAME_MAX];
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
 * Quotes may be ' or " or absent. A nested tuple is an error with JAX's
 * wording; so is an entry with more than SS_MAX_AXES axes. */
ss_status ss_spec_parse(const char *text, ss_spec *out);
/* JAX's repr: "P('data', None)", "P('x',)", "P(('x', 'y'),)", "P()". */
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
 * Manual (inside a shard_map body); they never appear in the spec. */
typedef struct ss_sharding {
    const ss_mesh *mesh;
    ss_spec spec;
    unsigned manual_mask;
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
 * values of rank at least 2, but was applied to a value of rank 1.") and the
 * divisibility check (IndivisibleError's "... should evenly divide the
 * shape)"). */
ss_status ss_sharding_check(const ss_sharding *sh, int rank, const int64_t shape[]);
/* Number of partitions of each dimension (product of its axes' sizes). */
ss_status ss_sharding_tiling(const ss_sharding *sh, int rank, int64_t factors[]);
/* Per-device block shape; requires ss_sharding_check to pass. */
ss_status ss_sharding_shard_shape(const ss_sharding *sh, int rank, const int64_t shape[],
                                  int64_t out[]);
/* Every device's shard in mesh order (JAX's devices_indices_map plus
 * replica ids): `out` has room for `cap` >= device count entries. */
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

typedef struct ss_rule {
    char name[SS_NAME_MAX];
    ss_rule_kind kind;
    int naxes;
    char axes[SS_MAX_AXES][SS_NAME_MAX];
} ss_rule;

/* An ordered list of rules; order is priority. Owned array. */
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
    /* With a mesh, MaxText's step runs after Flax's resolution: axes of size
     * 1 or absent from the mesh are dropped. NULL: Flax alone. */
    const ss_mesh *mesh;
    /* Nonzero: a rule that lost a dimension to an earlier claim of its mesh
     * axes is an error naming both, instead of a silent None. */
    int strict;
    ss_rules_fallback fallback;
} ss_rules_options;

/* Resolve logical names to mesh axes with Flax Linen's algorithm:
 * `names` is a spec whose entries are logical names (1 axis), None or
 * UNCONSTRAINED. A name occurring twice is Flax's error "Unsupported:
 * Dimensions ('foo',) occur more than once in array names.". *constrained
 * (may be NULL) is 0 when the NO_CONSTRAINT fallback or empty rules mean no
 * constraint applies. `opts` may be NULL (Flax defaults). */
ss_status ss_rules_resolve(const ss_rules *rules, const ss_spec *names,
                           const ss_rules_options *opts, ss_spec *out, int *constrained);

/* ------------------------------------------------------------------------ */
/* Visualizer                                                                */
/* ------------------------------------------------------------------------ */

typedef struct ss_viz_options {
    const char *platform; /* label prefix: "CPU" (default when NULL), "TPU", "GPU" */
    double scale;         /* 0 means 1.0 */
    int min_width;        /* 0 means 9 */
    int max_width;        /* 0 means 80 */
    int color;            /* nonzero: ANSI background colours, no box */
} ss_viz_options;

/* jax.debug.visualize_array_sharding's text for a rank-1 or rank-2 array,
 * byte for byte (no colour). Written to `out` with a NUL; *len (may be NULL)
 * receives the length. Errors: rank outside 1..2 (JAX's message; use
 * ss_viz_sharding_nd), uneven shards. */
ss_status ss_viz_sharding(const ss_sharding *sh, int rank, const int64_t shape[],
                          const ss_viz_options *opts, char *out, size_t cap, size_t *len);
/* Arrays of any rank: rank <= 2 as ss_viz_sharding; otherwise one picture of
 * dims (row_dim, col_dim) per combination of the leading other dims' shard
 * indices, each under a heading such as "[0, :, :]" (-1, -1 = the last two
 * dims). */
ss_status ss_viz_sharding_nd(const ss_sharding *sh, int rank, const int64_t shape[],
                             int row_dim, int col_dim, const ss_viz_options *opts,
                             char *out, size_t cap, size_t *len);
/* A picture of the mesh itself: device ids placed on the named axes (the
 * last axis across, the others down, grouped). */
ss_status ss_viz_mesh(const ss_mesh *mesh, const ss_viz_options *opts, char *out,
                      size_t cap, size_t *len);

#ifdef __cplusplus
}
#endif

#endif /* SHARDSIM_H */
