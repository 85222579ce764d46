/*
 * mlir.h — a reader of MLIR's textual format as JAX (`jax.jit(f).lower(..)
 * .as_text()`) and the StableHLO test suite print it: a module of func.func
 * and sdy.mesh ops whose bodies hold stablehlo / chlo / sdy / func ops, in
 * their pretty (custom) or generic form, with attributes, types, regions,
 * shardings (Shardy and GSPMD) and locations kept per op.
 *
 * The grammar is MLIR's LangRef (https://mlir.llvm.org/docs/LangRef/):
 * generic ops `"d.op"(%a) <{props}> ({regions}) {attrs} : (T) -> T loc(..)`;
 * pretty ops are read by one generic reader of the custom assembly tokens
 * (operands, `name = attr`, keywords, `[..]`, regions with their argument
 * lists, `: types`) and the ops whose printers JAX uses are brought to the
 * attributes of their generic form (mlir_canon.c), so an importer sees one
 * representation whichever way the op was written.
 *
 * Everything a parsed module holds lives in its arena and is freed by
 * ss__mlir_free. Errors are one line `FILE:LINE:COL: message` through the
 * library's error mechanism; input sizes and nesting are bounded
 * (SS__MLIR_MAX_*), so no input crashes, hangs or exhausts memory.
 */
#ifndef SS_FRONT_MLIR_H
#define SS_FRONT_MLIR_H

#include "shardsim.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SS__MLIR_MAX_DEPTH 64        /* nesting of regions, attributes, types, locations */
#define SS__MLIR_MAX_RANK 16         /* tensor dimensions */
#define SS__MLIR_MAX_RESULTS 65536   /* results of one op */
#define SS__MLIR_MAX_INPUT (1u << 30) /* bytes of text */

/* Element types JAX emits; others (complex, i2/i4, fp8, quantized) are refused. */
typedef enum ss__mlir_elem {
    SS__MLIR_NOELEM = 0,
    SS__MLIR_F32, SS__MLIR_BF16, SS__MLIR_F16, SS__MLIR_F64,
    SS__MLIR_I1, SS__MLIR_I8, SS__MLIR_I16, SS__MLIR_I32, SS__MLIR_I64,
    SS__MLIR_UI8, SS__MLIR_UI16, SS__MLIR_UI32, SS__MLIR_UI64,
    SS__MLIR_INDEX, /* only as the type of an integer attribute */
    SS__MLIR_ELEM_COUNT
} ss__mlir_elem;

const char *ss__mlir_elem_name(ss__mlir_elem e);
/* Bytes of one element in dense storage (i1: 1 byte, 0 or 1). */
size_t ss__mlir_elem_size(ss__mlir_elem e);
bool ss__mlir_elem_is_float(ss__mlir_elem e);
bool ss__mlir_elem_is_unsigned(ss__mlir_elem e);

typedef enum ss__mlir_type_kind {
    SS__MLIR_TY_TENSOR = 0, /* tensor<2x3xf32>, tensor<f32> (rank 0) */
    SS__MLIR_TY_SCALAR,     /* f32, i64, index: the type of a number attribute */
    SS__MLIR_TY_TOKEN,      /* !stablehlo.token */
    SS__MLIR_TY_TUPLE,      /* tuple<T, ...> */
    SS__MLIR_TY_FUNC,       /* (T, ...) -> (T, ...) */
    SS__MLIR_TY_NONE        /* none */
} ss__mlir_type_kind;

typedef struct ss__mlir_type {
    ss__mlir_type_kind kind;
    ss__mlir_elem elem;                    /* TENSOR, SCALAR */
    int rank;                              /* TENSOR */
    int64_t dims[SS__MLIR_MAX_RANK];       /* TENSOR (each >= 0) */
    int n;                                 /* TUPLE elements / FUNC inputs */
    struct ss__mlir_type **items;
    int nres;                              /* FUNC results */
    struct ss__mlir_type **res;
} ss__mlir_type;

/* Elements of a tensor type (1 for rank 0); false past int64. */
bool ss__mlir_type_count(const ss__mlir_type *t, int64_t *out);
bool ss__mlir_type_equal(const ss__mlir_type *a, const ss__mlir_type *b);

/* ---- Shardy ------------------------------------------------------------ */

typedef struct ss__mlir_sdy_axis {
    const char *name;
    bool sub;             /* a sub-axis "x":(pre)size */
    int64_t pre, size;
} ss__mlir_sdy_axis;

typedef struct ss__mlir_sdy_dim {
    int naxes;
    ss__mlir_sdy_axis *axes; /* major first */
    bool open;               /* {?} or {"x", ?}: the partitioner may add axes */
    int priority;            /* p0 -> 0; -1 when none is written */
} ss__mlir_sdy_dim;

typedef struct ss__mlir_sdy_mesh {
    const char *name;        /* the symbol of sdy.mesh @name (NULL inline) */
    int naxes;
    const char **axis_names;
    int64_t *axis_sizes;
    int ndevices;            /* 0: iota order; else an explicit device_ids list */
    int64_t *device_ids;
    bool maximal;            /* no axes and one device id: <[], device_ids=[N]> */
} ss__mlir_sdy_mesh;

typedef struct ss__mlir_sdy_sharding {
    const char *mesh_name;              /* @mesh; NULL when the mesh is inline */
    const ss__mlir_sdy_mesh *mesh;      /* inline mesh, or resolved from the module */
    int ndims;
    ss__mlir_sdy_dim *dims;
    int nreplicated;
    ss__mlir_sdy_axis *replicated;
    int nunreduced;
    ss__mlir_sdy_axis *unreduced;
} ss__mlir_sdy_sharding;

/* ---- Attributes --------------------------------------------------------- */

typedef enum ss__mlir_attr_kind {
    SS__MLIR_AT_UNIT = 0,   /* `name` alone in a dict, or `unit` */
    SS__MLIR_AT_BOOL,       /* true / false */
    SS__MLIR_AT_INT,        /* 42 : i32 (type NULL: written without one, i64) */
    SS__MLIR_AT_FLOAT,      /* 1.5 : f32, 0x7F800000 : f32 */
    SS__MLIR_AT_STRING,     /* "text" (escapes decoded; may hold NUL bytes) */
    SS__MLIR_AT_ARRAY,      /* [a, b] */
    SS__MLIR_AT_DICT,       /* {a = 1, b} */
    SS__MLIR_AT_DENSE_ARRAY,/* array<i64: 1, 2> */
    SS__MLIR_AT_DENSE,      /* dense<...> : tensor<..> */
    SS__MLIR_AT_TYPE,       /* a type used as an attribute: tensor<f32>, i32 */
    SS__MLIR_AT_SYMBOL,     /* @f or @a::@b */
    SS__MLIR_AT_ENUM,       /* #stablehlo<comparison_direction EQ>: dialect, s=kind, s2=value */
    SS__MLIR_AT_DIALECT,    /* #stablehlo.gather<...>: s=name, body text, dict when key = value */
    SS__MLIR_AT_SDY_SHARDING, /* #sdy.sharding<@mesh, [{"x"}, {}]> */
    SS__MLIR_AT_SDY_MESH,   /* #sdy.mesh<["x"=2]> (also the value of sdy.mesh ops) */
    SS__MLIR_AT_SDY_LIST,   /* #sdy.sharding_per_value<[...]>, in/out_shardings=[...] */
    SS__MLIR_AT_KEYWORD,    /* a bare word of a pretty op (EQ, FLOAT, DEFAULT) */
    SS__MLIR_AT_PAIR        /* `[0] x [1]` of a pretty op: items[0] x items[1] */
} ss__mlir_attr_kind;

typedef struct ss__mlir_attr {
    ss__mlir_attr_kind kind;
    const ss__mlir_type *type;   /* INT, FLOAT, DENSE, TYPE; DENSE_ARRAY's element */
    int64_t i;                   /* INT (two's complement of unsigned), BOOL */
    double f;                    /* FLOAT */
    const char *s;               /* STRING bytes, SYMBOL, ENUM dialect, DIALECT name, KEYWORD */
    size_t len;                  /* STRING length */
    const char *s2;              /* ENUM kind ("comparison_direction"), DIALECT body text */
    const char *s3;              /* ENUM value ("EQ") */
    int n;                       /* ARRAY, DICT, DIALECT (when a dict), SDY_LIST, PAIR */
    struct ss__mlir_attr **items;
    const char **names;          /* DICT, DIALECT keys */
    /* DENSE and DENSE_ARRAY: raw little-endian element bytes. A splat holds
     * one element; count is the tensor's element count either way. */
    bool splat;
    int64_t count;
    unsigned char *data;
    ss__mlir_sdy_sharding *sdy;  /* SDY_SHARDING */
    ss__mlir_sdy_mesh *mesh;     /* SDY_MESH */
} ss__mlir_attr;

/* ---- Locations ------------------------------------------------------------ */

typedef enum ss__mlir_loc_kind {
    SS__MLIR_LOC_UNKNOWN = 0,
    SS__MLIR_LOC_FILE,      /* "f.py":12:4, with a range "f.py":12:4 to 13:8 */
    SS__MLIR_LOC_NAME,      /* "name"(child) or "name" */
    SS__MLIR_LOC_CALLSITE,  /* callsite(callee at caller) */
    SS__MLIR_LOC_FUSED,     /* fused[a, b] or fused<attr>[...] */
    SS__MLIR_LOC_ALIAS      /* #loc3, resolved after the whole text is read */
} ss__mlir_loc_kind;

typedef struct ss__mlir_loc {
    ss__mlir_loc_kind kind;
    const char *str;            /* FILE name, NAME name, ALIAS name */
    int64_t line, col, end_line, end_col; /* FILE; end_* 0 when no range */
    struct ss__mlir_loc *a;     /* NAME child (may be NULL), CALLSITE callee, ALIAS target */
    struct ss__mlir_loc *b;     /* CALLSITE caller */
    int n;                      /* FUSED */
    struct ss__mlir_loc **items;
    ss__mlir_attr *metadata;    /* FUSED<metadata> */
    int owner;                  /* ALIAS: 1 + the alias whose definition holds it, or 0 */
} ss__mlir_loc;

/* What a location tells a user: the innermost file:line:col (the callee
 * frame of callsites first), the name wrapping it (the Python function JAX
 * names the frame after) and the outermost name (JAX's op name path,
 * "jit(f)/dot_general"). Each NULL / 0 when absent. */
typedef struct ss__mlir_where {
    const char *file;
    int64_t line, col;
    const char *callee;
    const char *op_name;
} ss__mlir_where;
void ss__mlir_loc_resolve(const ss__mlir_loc *loc, ss__mlir_where *out);
/* The call stack a location holds, innermost frame first (JAX's
 * callsite(callee at caller) chains): file, line, col and the name that
 * wraps each frame (op_name NULL). Writes at most cap frames and returns
 * how many there are, so an importer can skip library frames (a path
 * under site-packages) to reach the user's own line. */
int ss__mlir_loc_frames(const ss__mlir_loc *loc, ss__mlir_where *out, int cap);

/* ---- Operations ------------------------------------------------------------ */

struct ss__mlir_op;
struct ss__mlir_block;

typedef struct ss__mlir_value {
    const char *name;            /* as written, "%0#1" for a result of "%0:2" */
    const ss__mlir_type *type;
    struct ss__mlir_op *def;     /* defining op, or NULL for a block argument */
    struct ss__mlir_block *block;/* block of a block argument */
    int index;                   /* result or argument number */
    ss__mlir_attr *attrs;        /* a function argument's {attrs} (DICT) or NULL */
    ss__mlir_loc *loc;           /* a block argument's loc(..) or NULL */
} ss__mlir_value;

typedef struct ss__mlir_named {
    const char *name;
    ss__mlir_attr *value;
} ss__mlir_named;

typedef struct ss__mlir_block {
    const char *label;           /* "^bb0" or NULL (entry block without label) */
    int nargs;
    ss__mlir_value **args;
    int nops;
    struct ss__mlir_op **ops;
} ss__mlir_block;

typedef struct ss__mlir_region {
    int nblocks;
    ss__mlir_block **blocks;
} ss__mlir_region;

typedef struct ss__mlir_op {
    const char *name;            /* "stablehlo.add", "func.func", "builtin.module" */
    bool generic;                /* written in generic form */
    int line, col;               /* of the op's first token */
    int nresults;
    ss__mlir_value **results;
    int noperands;
    ss__mlir_value **operands;
    int nprops;                  /* <{...}> of the generic form */
    ss__mlir_named *props;
    int nattrs;                  /* {...}, and every attribute of a pretty op */
    ss__mlir_named *attrs;
    int nregions;
    ss__mlir_region **regions;
    ss__mlir_loc *loc;           /* loc(..) after the op, or NULL */
} ss__mlir_op;

/* A function: func.func's pieces decoded (a view of the op). */
typedef struct ss__mlir_func {
    const ss__mlir_op *op;
    const char *name;            /* without @ */
    bool is_public;              /* no sym_visibility = "private" */
    const ss__mlir_type *type;   /* FUNC */
    const ss__mlir_attr *arg_attrs; /* ARRAY of DICT, one per argument, or NULL */
    const ss__mlir_attr *res_attrs;
    const ss__mlir_block *body;  /* NULL for a declaration */
} ss__mlir_func;

typedef struct ss__mlir_module ss__mlir_module;

/* Parse `text` (NUL-terminated; `file` names it in errors). *out is the
 * module or NULL. SS_ERR_PARSE with "FILE:LINE:COL: message" for bad text,
 * SS_ERR_UNSUPPORTED for text MLIR accepts but shardsim does not (dynamic
 * dims, complex and sub-byte types, ...), SS_ERR_NOMEM. A text without a
 * `module` gets one around its top-level ops, as MLIR's parser does. */
ss_status ss__mlir_parse(const char *text, const char *file, ss__mlir_module **out);
void ss__mlir_free(ss__mlir_module *m);

const ss__mlir_op *ss__mlir_module_op(const ss__mlir_module *m);
const char *ss__mlir_module_name(const ss__mlir_module *m); /* NULL if unnamed */
int ss__mlir_func_count(const ss__mlir_module *m);
void ss__mlir_func_at(const ss__mlir_module *m, int i, ss__mlir_func *out);
bool ss__mlir_func_find(const ss__mlir_module *m, const char *name, ss__mlir_func *out);
int ss__mlir_mesh_count(const ss__mlir_module *m);
const ss__mlir_sdy_mesh *ss__mlir_mesh_at(const ss__mlir_module *m, int i);
const ss__mlir_sdy_mesh *ss__mlir_mesh_find(const ss__mlir_module *m, const char *name);

/* The attribute `name` of an op (its properties first), or NULL. */
const ss__mlir_attr *ss__mlir_op_attr(const ss__mlir_op *op, const char *name);
/* The attribute `name` in a DICT attribute, or NULL. */
const ss__mlir_attr *ss__mlir_dict_get(const ss__mlir_attr *dict, const char *name);
/* The element at flat index i of a DENSE attribute as a double / int64
 * (a splat answers its element for every i). */
double ss__mlir_dense_f64(const ss__mlir_attr *a, int64_t i);
int64_t ss__mlir_dense_i64(const ss__mlir_attr *a, int64_t i);

/* Write the module in MLIR's generic form (every op `"name"(...)`, every
 * attribute spelled out, locations as written with their #loc aliases):
 * text that ss__mlir_parse reads back to the same module. Caller frees *out. */
ss_status ss__mlir_print(const ss__mlir_module *m, char **out, size_t *len);

/* ---- Shardings as tiles ----------------------------------------------------- */

/* A sharding of one value in one form: which device holds which tile.
 * tile_dims[d] pieces along data dim d; then `repl` copies of each tile
 * (replication, incl. unreduced axes), and `manual` devices per group of a
 * manual sharding; devices[] lists device ids in the order of the tile
 * array [tile_dims..., manual, repl] (row-major), as XLA's HLO sharding
 * tile assignment with last_tile_dims={manual, replicated} does. */
typedef struct ss__mlir_tiles {
    bool maximal;                /* one device holds everything: devices[0] */
    bool manual_all;             /* {manual} */
    int rank;
    int64_t tile_dims[SS__MLIR_MAX_RANK];
    int64_t manual, repl;
    int ndevices;
    int64_t *devices;            /* malloc'd: free with ss__mlir_tiles_free */
} ss__mlir_tiles;

/* Tiles of a Shardy sharding over its mesh (sub-axes and device_ids honoured). */
ss_status ss__mlir_sdy_tiles(const ss__mlir_sdy_sharding *sh, const ss__mlir_sdy_mesh *mesh,
                             ss__mlir_tiles *out);
/* Tiles of a GSPMD mhlo.sharding string for a value of `rank` dims
 * ("{devices=[2,1,4]<=[8] last_tile_dim_replicate}", "{replicated}", ...;
 * read by shardsim's HLO sharding parser). ndevices sizes {replicated}. */
ss_status ss__mlir_gspmd_tiles(const char *text, int rank, int ndevices, ss__mlir_tiles *out);
/* Same tile for every device (replication groups compared as sets). */
bool ss__mlir_tiles_equal(const ss__mlir_tiles *a, const ss__mlir_tiles *b);
void ss__mlir_tiles_free(ss__mlir_tiles *t);

/* Parse one attribute written as text into the module's arena: how the
 * third sharding spelling is read, where mhlo.frontend_attributes carry
 * Shardy's attributes as strings (xla.sdy.sharding =
 * "#sdy.sharding_per_value<[<@mesh, [{\22x\22}]>]>", xla.sdy.meshes =
 * "{mesh = #sdy.mesh<[\22x\22=2]>}"). A sharding's @mesh is left for
 * the caller to resolve (mesh NULL): those meshes may live in another
 * string. */
ss_status ss__mlir_attr_parse_text(ss__mlir_module *m, const char *text,
                                   const ss__mlir_attr **out);

#endif
