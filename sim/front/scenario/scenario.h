/*
 * scenario.h — the scenario language (internal to the library): a text file
 * that declares a mesh, arrays with shardings, functions over them and what
 * to do with them (scenarios/README.md is the language reference;
 * shardsim.h, "Scenarios", is the public entry).
 *
 * Pipeline: lex.c turns text into tokens (Python-like: indentation gives
 * INDENT/DEDENT, newlines inside brackets are ignored); parse.c builds a
 * syntax tree in an arena; eval.c, ops.c and transforms.c walk it and drive
 * the program builder of shardsim.h (functions are expanded inline at their
 * call sites: the IR has no calls); load.c reads the file and runs the
 * top-level statements; init.c fills host arrays from initializers;
 * strategy.c applies `strategy` statements; ckpt.c does the save and restore
 * statements; run.c compiles, runs or plans (ss_scenario_plan,
 * ss_scenario_run) and keeps what it measured for the report.
 *
 * Every error is a ss__scn_error: a message and the line:column it is
 * about; the public entry hands it out as an ss_scenario_error. Nothing
 * here prints, exits or aborts on bad input.
 */
#ifndef SS_FRONT_SCENARIO_H
#define SS_FRONT_SCENARIO_H

#include "base/base.h"

#include <stddef.h>
#include <stdio.h>

/* What a failure means to a caller that turns it into an exit status:
 * the scenario or an option is wrong (USAGE), or the run failed (CHECK: a
 * device out of memory, a deadlock, a checkpoint that does not fit, out of
 * host memory). */
enum { SS__SCN_EXIT_OK = 0, SS__SCN_EXIT_CHECK = 1, SS__SCN_EXIT_USAGE = 2 };

/* --- Arena: every syntax node and evaluation value lives here ------------ */

typedef struct ss__scn_arena_block ss__scn_arena_block;
typedef struct ss__scn_arena {
    ss__scn_arena_block *head;
    size_t used, cap;
    size_t total; /* bytes handed out, for the size limit */
    bool oom;
    ss__file *owned; /* buffers and files handed to the arena (ss__scn_arena_own) */
    int nowned, capowned;
} ss__scn_arena;

void ss__scn_arena_init(ss__scn_arena *a);
void ss__scn_arena_free(ss__scn_arena *a);
/* Zeroed memory, 16-byte aligned; NULL (and a->oom) when out of memory or
 * past the arena's limit (256 MiB). */
void *ss__scn_alloc(ss__scn_arena *a, size_t bytes);
char *ss__scn_strndup(ss__scn_arena *a, const char *s, size_t n);
/* Hands the malloc'd buffer p to the arena, which frees it with the rest
 * (a large host array read from a file keeps its buffer: no copy, and not
 * counted in the arena's limit). false, with p still the caller's, when
 * out of memory. */
bool ss__scn_arena_own(ss__scn_arena *a, void *p);
/* The same for a file in memory (ss__file_map): the arena releases it. */
bool ss__scn_arena_own_file(ss__scn_arena *a, const ss__file *f);

/* --- Errors --------------------------------------------------------------- */

typedef struct ss__scn_loc {
    int line, col; /* 1-based; 0 when unknown */
} ss__scn_loc;

typedef struct ss__scn_error {
    bool set;
    ss__scn_loc loc;
    char msg[1024];
} ss__scn_error;

/* Record the first error (later ones are ignored); returns SS_ERR_PARSE. */
ss_status ss__scn_fail(ss__scn_error *err, ss__scn_loc loc, const char *fmt, ...) SS__PRINTF(3, 4);

/* --- Tokens --------------------------------------------------------------- */

typedef enum ss__scn_tok_kind {
    SS__SCN_TK_EOF = 0,
    SS__SCN_TK_NEWLINE,
    SS__SCN_TK_INDENT,
    SS__SCN_TK_DEDENT,
    SS__SCN_TK_NAME,
    SS__SCN_TK_INT,
    SS__SCN_TK_FLOAT,
    SS__SCN_TK_STRING,
    SS__SCN_TK_OP /* punctuation; text holds it: ( ) [ ] , : = . @ + - * / // % ** */
} ss__scn_tok_kind;

typedef struct ss__scn_token {
    ss__scn_tok_kind kind;
    ss__scn_loc loc;
    size_t offset; /* byte offset of the token in the source */
    const char *text; /* NUL-terminated copy (arena) */
    int64_t ival;
    double fval;
} ss__scn_token;

typedef struct ss__scn_tokens {
    ss__scn_token *v;
    int n, cap;
} ss__scn_tokens;

/* Tokenize `src` (len bytes). Tokens live in `arena`; the array in `out`
 * is malloc'd (free with ss__scn_tokens_free). */
ss_status ss__scn_lex(const char *src, size_t len, ss__scn_arena *arena, ss__scn_tokens *out,
                  ss__scn_error *err);
void ss__scn_tokens_free(ss__scn_tokens *t);

/* --- Syntax tree ---------------------------------------------------------- */

typedef enum ss__scn_expr_kind {
    SS__SCN_EX_INT = 0,
    SS__SCN_EX_FLOAT,
    SS__SCN_EX_STR,
    SS__SCN_EX_NAME,
    SS__SCN_EX_NONE,
    SS__SCN_EX_TUPLE,  /* items; also the parenthesized tuple (a, b) */
    SS__SCN_EX_LIST,   /* [a, b] */
    SS__SCN_EX_BINOP,  /* op a b: "+", "-", "*", "/", "//", "%", "@", "**" */
    SS__SCN_EX_NEG,    /* -a */
    SS__SCN_EX_CALL,   /* a(items, kw...) */
    SS__SCN_EX_ATTR,   /* a.name */
    SS__SCN_EX_INDEX,  /* a[items]; an item may be SS__SCN_EX_SLICE */
    SS__SCN_EX_SLICE   /* a:b inside an index; a or b may be NULL */
} ss__scn_expr_kind;

typedef struct ss__scn_expr ss__scn_expr;
struct ss__scn_expr {
    ss__scn_expr_kind kind;
    ss__scn_loc loc;
    int64_t ival;
    double fval;
    const char *str; /* name, string, op or attribute */
    ss__scn_expr *a, *b; /* operands; callee / object */
    int nitems;
    ss__scn_expr **items;
    int nkw;
    const char **kwnames;
    ss__scn_expr **kwvals;
    ss__scn_loc *kwlocs;
    /* Levels of evaluation under this node: 1 for a leaf, 1 + the deepest
     * operand otherwise, except that a chain of binary operators counts
     * once (the evaluator walks its left operands in a loop). The parser
     * refuses a node deeper than SS__SCN_MAX_DEPTH. */
    int height;
};

/* The deepest nesting of brackets, calls, operators or blocks a scenario
 * may write: "expression nested too deeply (more than SS__SCN_MAX_DEPTH levels)". */
#define SS__SCN_MAX_DEPTH 200

typedef enum ss__scn_stmt_kind {
    SS__SCN_ST_ASSIGN = 0, /* targets = value */
    SS__SCN_ST_EXPR,
    SS__SCN_ST_RETURN,
    SS__SCN_ST_PASS,
    SS__SCN_ST_DEF,
    SS__SCN_ST_FOR,
    SS__SCN_ST_MESH,   /* kw: axis=size ..., order=[...] */
    SS__SCN_ST_DEVICES,
    SS__SCN_ST_HOSTS,
    SS__SCN_ST_DEVICE_MEMORY, /* text */
    SS__SCN_ST_RULES,         /* text, strict */
    SS__SCN_ST_RUN,           /* name, optional call args (items, has_call), kw (steps=) */
    SS__SCN_ST_SHOW,          /* name, kw */
    SS__SCN_ST_CHECK,         /* name, kw (tol=) */
    SS__SCN_ST_PRINT,         /* name: memory, ledger, values, program, explain */
    SS__SCN_ST_SAVE,          /* value: DIR, kw (step=), name: a flag (force) */
    SS__SCN_ST_RESTORE,       /* value: DIR, kw (step=), name: a flag (partial) */
    SS__SCN_ST_STRATEGY       /* value: FILE, or text (a block) at text_loc (strategy.c) */
} ss__scn_stmt_kind;

typedef struct ss__scn_stmt ss__scn_stmt;
struct ss__scn_stmt {
    ss__scn_stmt_kind kind;
    ss__scn_loc loc;
    /* ASSIGN: target names (ntargets >= 1); FOR: the loop variable */
    int ntargets;
    const char **targets;
    ss__scn_loc *target_locs;
    ss__scn_expr *value; /* ASSIGN/EXPR/DEVICES/HOSTS value, FOR iterable, RETURN value */
    /* DEF */
    const char *name;
    ss__scn_loc name_loc;
    int nparams;
    const char **params;
    ss__scn_loc *param_locs;
    /* DEF/FOR body */
    int nbody;
    ss__scn_stmt **body;
    /* MESH/RUN/SHOW/CHECK options: name=value */
    int nkw;
    const char **kwnames;
    ss__scn_expr **kwvals;
    ss__scn_loc *kwlocs;
    /* RUN with explicit arguments: run f(a, b) */
    bool has_call;
    int nargs;
    ss__scn_expr **args;
    /* DEVICE_MEMORY / RULES raw text; RULES strict flag */
    const char *text;
    ss__scn_loc text_loc;
    bool strict;
};

typedef struct ss__scn_file {
    int nstmts;
    ss__scn_stmt **stmts;
} ss__scn_file;

/* Parse the tokens of `src` into a file. Nodes live in `arena`. */
ss_status ss__scn_parse(const char *src, const ss__scn_tokens *toks, ss__scn_arena *arena, ss__scn_file *out,
                    ss__scn_error *err);

/* --- Evaluation: the scenario as a program --------------------------------- */

typedef enum ss__scn_init_kind {
    SS__SCN_INIT_ZEROS = 0,
    SS__SCN_INIT_ONES,
    SS__SCN_INIT_FULL,
    SS__SCN_INIT_IOTA,
    SS__SCN_INIT_NORMAL,
    SS__SCN_INIT_XAVIER,
    SS__SCN_INIT_XAVIER_UNIFORM,
    SS__SCN_INIT_UNIFORM,
    SS__SCN_INIT_RANDINT,
    SS__SCN_INIT_HOST /* given values (run --inputs DIR): `data` */
} ss__scn_init_kind;

typedef struct ss__scn_init {
    ss__scn_init_kind kind;
    uint64_t seed;
    double a;    /* FULL value; NORMAL stddev; UNIFORM scale; RANDINT high */
    int dim;     /* IOTA: -1 for the flat index, else the dimension */
    const void *data; /* HOST: the row-major values (the scenario's arena) */
} ss__scn_init;

/* A global array: `x = input(f32[8,1024], P('data', None), ones)`. */
typedef struct ss__scn_array {
    const char *name;
    ss__scn_loc loc;
    bool is_param;
    ss_dtype dtype;
    int rank;
    int64_t shape[SS_MAX_RANK];
    bool has_spec;
    ss_spec spec; /* mesh axes (logical names already resolved) */
    ss__scn_init init;
    ss_value value; /* its program input, -1 until the run references it */
    bool hidden;    /* made by an optimizer (its state), not declared */
    const char *path; /* param(..., path='a/b/kernel') for strategies; NULL: name */
} ss__scn_array;

/* Where a program value came from: the scenario name bound to it (may be
 * NULL) and the source spot of the expression that made it. */
typedef struct ss__scn_value_info {
    const char *name;
    ss__scn_loc loc;
    const char *origin; /* imported MLIR: the user's Python "file.py:42", or NULL */
} ss__scn_value_info;

typedef struct ss__scn_output {
    ss_value value;
    const char *name; /* NULL when the returned expression has no name */
    ss__scn_loc loc;
    int feeds;        /* index of the array it updates between steps, or -1 */
    bool extra;       /* added for a `check`, not returned by the function */
    bool name_is_result; /* returned by the run function (not optimizer state) */
} ss__scn_output;

typedef struct ss__scn_show {
    const char *name;
    ss__scn_loc loc;
    ss_value value; /* -1: an array the run does not use (its declared spec) */
    int array;      /* global array index, or -1 */
    int row_dim, col_dim;
} ss__scn_show;

/* Checks one scenario may ask for (an imported module checks each result). */
#define SS__SCN_MAX_CHECKS 256

typedef struct ss__scn_check {
    const char *name;
    ss__scn_loc loc;
    int output; /* index into outputs */
    double tol; /* < 0: the dtype's default */
} ss__scn_check;

/* `print(a, 'text', b)`: each part an output (its value after the last
 * step) or a constant's text (print.c). */
#define SS__SCN_PRINT_MAX_PARTS 8
typedef struct ss__scn_print_part {
    int output;       /* index into outputs, or -1 */
    const char *text; /* output -1: the constant as Python prints it */
} ss__scn_print_part;

typedef struct ss__scn_print {
    const char *source; /* "print(l)", as written */
    ss__scn_loc loc;
    int nparts;
    ss__scn_print_part parts[SS__SCN_PRINT_MAX_PARTS];
} ss__scn_print;

enum { SS__SCN_PRINT_MEMORY = 1, SS__SCN_PRINT_LEDGER = 2, SS__SCN_PRINT_VALUES = 4, SS__SCN_PRINT_PROGRAM = 8,
       SS__SCN_PRINT_EXPLAIN = 16 };

/* Command-line settings that change what the file says. */
typedef struct ss__scn_overrides {
    const char *mesh;     /* --mesh data=64,model=64 */
    int devices;          /* --devices N, 0 = the file's */
    size_t device_memory; /* --device-memory, 0 = the file's */
    int nsets;            /* --set NAME=VALUE: integer constants */
    const char *set_names[32];
    int64_t set_values[32];
    const char *strategy; /* --strategy FILE: replaces the file's `strategy` */
    const char *inputs;   /* --inputs DIR: an imported module's arguments as DIR/NAME.npy */
    const ss_maxtext_config *maxtext; /* --maxtext: the mesh and the rules (scenarios only) */
    int slices;                       /* --slices: the MaxText mesh's slices, 0 = the config's */
    const ss_tpu_topology *topology;  /* --topology: TPU slices (NULL: CPU devices) */
} ss__scn_overrides;

struct ss_scenario {
    const char *path;
    bool imported; /* a StableHLO module (front/stablehlo/import.h), not a scenario */
    char *src; /* the file's text (malloc'd) */
    size_t len;
    double load_s; /* seconds ss_scenario_load took (read, parse, import) */
    ss__scn_arena arena;
    ss__scn_tokens toks;
    ss__scn_file file;
    ss__scn_error err;

    /* configuration */
    ss_mesh *mesh;
    char mesh_text[512];
    int devices;       /* devices available (make_mesh takes the first N) */
    int hosts;
    size_t device_memory;
    ss_rules rules;
    bool have_rules, rules_strict;

    /* arrays and the program */
    int narrays, arrays_cap;
    ss__scn_array *arrays;
    ss_program *program;
    ss__scn_value_info *vinfo;
    int vinfo_cap;
    int *input_array; /* program input i -> array index */
    int ninputs, inputs_cap;

    /* actions */
    const char *run_name;
    ss__scn_loc run_loc;
    int steps;
    bool donate; /* run ... donate=True: the carried inputs are donated */
    int noutputs, outputs_cap;
    ss__scn_output *outputs;
    int nshows;
    ss__scn_show shows[64];
    int nchecks;
    ss__scn_check checks[SS__SCN_MAX_CHECKS];
    unsigned prints;
    int nvprints;
    ss__scn_print vprints[64]; /* print(...) statements made, in order */
    struct ss__scn_ckpt_script *ckpt; /* save/restore statements (ckpt.c) */
    struct ss__scn_strategy *strategy; /* the params' strategy (strategy.c) */

    /* The public entry (run.c): the options as given, and what plan or run
     * made and measured (NULL until ss_scenario_compile). */
    ss_scenario_options opts;
    struct ss__scn_run *run;
};

/* The largest scenario file read (text given in memory has no limit). */
#define SS__SCN_FILE_MAX SS_SCENARIO_FILE_MAX

/* Read `path` (or take `text` when non-NULL, naming it `path` in
 * messages), lex, parse and evaluate: configuration, arrays, functions,
 * the run function expanded into sc->program with its outputs, shows and
 * checks. On failure sc->err says where and why. */
ss_status ss__scn_load(ss_scenario *sc, const char *path, const char *text,
                   const ss__scn_overrides *ov);
void ss__scn_free(ss_scenario *sc);
/* The location of value v (its creating expression), {0,0} if unknown. */
ss__scn_loc ss__scn_value_loc(const ss_scenario *sc, ss_value v);
/* The scenario name of value v, or NULL. */
const char *ss__scn_value_name(const ss_scenario *sc, ss_value v);
/* Append what print statement p shows (its parts joined by spaces), given
 * the last step's output buffers. */
ss_status ss__scn_print_text(const ss_scenario *sc, const ss__scn_print *p, void *const outputs[],
                         ss__buf *b);
/* For a library message mentioning "%N", the location of value N. */
ss__scn_loc ss__scn_loc_from_message(const ss_scenario *sc, const char *msg);

/* Fill the host buffer of array `a` (row-major, its dtype) from its
 * initializer: values depend only on the seed and each element's global
 * index, never on a sharding. */
void ss__scn_init_fill(const ss__scn_array *a, void *dst);

/* --- Host arrays as numpy shows and stores them (npfmt.c) --------------- */

/* Append numpy's str of the array (what `print(x)` shows for a jax.Array:
 * line width 75, "..." past 1000 elements with 3 at each edge). */
ss_status ss__scn_np_str(ss_dtype dt, int rank, const int64_t shape[], const void *data,
                     ss__buf *out);
/* Write the array as a .npy file (format 1.0, little-endian; bf16 as
 * '<V2', numpy's own record of an ml_dtypes.bfloat16 array). */
ss_status ss__scn_npy_write(const char *path, ss_dtype dt, int rank, const int64_t shape[],
                        const void *data);

/* Read a .npy file (npread.c): its dtype, shape and data (*bytes long, at
 * a 16-byte aligned address inside *file, which the caller releases with
 * ss__file_release or hands to an arena; a regular file is mapped, not
 * copied). SS_ERR_IO when unreadable, SS_ERR_PARSE for a bad file,
 * SS_ERR_UNSUPPORTED for an element type or order shardsim lacks; the
 * message names the file. Files above `limit` bytes are refused. On
 * failure *file is zeroed. */
ss_status ss__scn_npy_read(const char *path, size_t limit, ss_dtype *dt, int *rank,
                           int64_t shape[], ss__file *file, void **data, size_t *bytes);

/* --- Reports (report.c) ---------------------------------------------------- */

/* NaN and Inf compare as numpy.testing.assert_allclose (JAX's tests) does:
 * NaN against NaN and an infinity against the same infinity are equal;
 * NaN or an infinity against anything else is a mismatch, whatever the
 * tolerance. max_abs and ref_max are over the elements finite on both
 * sides. */
typedef struct ss__scn_check_result {
    double max_abs;  /* largest |run - reference| over finite pairs */
    double ref_max;  /* largest finite |reference| */
    double tol;      /* the tolerance used: pass if max_abs <= tol * max(1, ref_max) */
    int64_t nonfinite_bad;   /* elements NaN/Inf on one side and not equal on the other */
    int64_t nonfinite_equal; /* elements NaN/Inf on both sides, equal */
    int64_t first_bad;       /* flat index of the first of nonfinite_bad, -1 */
    double bad_run, bad_ref; /* its values */
    bool pass;
} ss__scn_check_result;

/* Compare n elements of `run` with `ref` (dtype dt); tol < 0: the dtype's
 * default (1e-4 f32, 1e-10 f64, 2e-2 bf16/f16, 0 integers). */
void ss__scn_check_compare(ss_dtype dt, const void *run, const void *ref, int64_t n, double tol,
                       ss__scn_check_result *res);

/* What run.c measured or planned, for the report. The presentation
 * fields (json, explain, color, profile, watch) are the caller's. */
typedef struct ss__scn_report {
    bool is_plan, json, explain, color;
    const char *profile;    /* plan: one profile, or NULL for all */
    ss_executable *exe;     /* NULL when the scenario has no run */
    ss_context *ctx;        /* run: the devices after the steps */
    ss_plan plan;
    int steps;
    double compile_s, first_s, median_s;
    double plan_s;          /* the plan under the memory model (ss_executable_peak_detail) */
    ss__scn_check_result checks[SS__SCN_MAX_CHECKS];
    bool fits;              /* plan: peak <= capacity */
    struct ss__scn_ckpt_rt *ckpt; /* what the save/restore statements did or will do */
    struct ss__scn_watch *watch;  /* run --watch NAME: the blocks caught, or NULL */
    void *const *outputs;     /* run: the last step's output buffers (host) */
    double **step_values;     /* run: [output][step] of one-element outputs, else NULL */
    const char *outputs_dir;  /* run --outputs DIR: where the .npy files went */
    bool explain_memory;      /* print the peak's buffers (the caller's) */
    ss_live_buffer *peak;     /* the plan's peak: its buffers, largest first */
    int npeak;                /* (ss_executable_peak_detail; at most SS__SCN_PEAK_BUFFERS) */
} ss__scn_report;
#define SS__SCN_PEAK_BUFFERS 512

/* Output o's values after a run (run.c): *data is the host copy, fetched
 * from the devices on first use when the run left it there, or NULL before
 * a run (or a run that failed). Fails only when that fetch does. */
ss_status ss__scn_output_data(const ss_scenario *sc, int o, const void **data);

/* Host buffers of one trajectory: program inputs and outputs. An input
 * given as host data (--inputs, ss_scenario_input_set) is borrowed from
 * the scenario, not copied, until something writes it (run.c host_own). */
typedef struct ss__scn_host {
    int nin, nout;
    void **in, **out;
    bool *borrowed; /* per input: in[i] is the scenario's, not to be freed */
} ss__scn_host;

/* What ss_scenario_compile, _plan and _run made (run.c): the report's
 * facts, the last step's host buffers (report.outputs points into them)
 * and the watch to attach for the first step. */
#define SS__SCN_OUTPUT_NAME 512 /* bytes of an output's file name, NUL included */

typedef struct ss__scn_run {
    ss__scn_report report;
    char (*output_names)[SS__SCN_OUTPUT_NAME]; /* ss__scn_output_file_name */
    ss__scn_host host;
    bool compiled, planned, ran, pass;
    ss_watch_fn watch;
    void *watch_user;
    /* The last step's output arrays left on the devices, one per
     * sc->outputs entry (NULL where the run failed first or the array was
     * dropped): all of them with opts.keep_outputs, until ss_scenario_free;
     * else those whose host copy nothing in the run needed, until their
     * first ss__scn_output_data (fetched[o] false until then). */
    ss_array **kept;
    bool *fetched; /* per output: host.out[o] holds the last step's values */
} ss__scn_run;

/* The name of output o as `--outputs` names its file (without ".npy"):
 * its name, or RUN_K for the K-th result without one; path characters
 * become '_'; a name taken by an earlier output gets _2, _3, ... Known
 * after ss_scenario_compile ("" before). */
const char *ss__scn_output_file_name(const ss_scenario *sc, int o);

/* The load overrides that opts asks for (ss_scenario_load's options as
 * ss__scn_load takes them; opts->nsets at most 32). */
void ss__scn_overrides_from(const ss_scenario_options *opts, ss__scn_overrides *ov);

/* The report's facts after ss_scenario_compile, _plan or _run (NULL
 * before); the caller may set its presentation fields. */
ss__scn_report *ss__scn_report_of(ss_scenario *sc);

/* --- save / restore statements (ckpt.c) -------------------------- */

/* Each returns an exit status (0, 1 for out of memory or a topology
 * mismatch, 2 for bad input) with *err set to the statement's line:col.
 * Without save/restore statements they do nothing and *out stays NULL. */
typedef struct ss__scn_ckpt_rt ss__scn_ckpt_rt;
/* plan: every restore against its checkpoint's metadata (per-device peak,
 * layouts, fit); saves are listed, not written. */
int ss__scn_ckpt_plan(const ss_scenario *sc, ss__scn_ckpt_rt **out, ss__scn_error *err);
/* run: the statements above `run` (all of them without a run), on the
 * initial values; restored values are copied into the run's input buffers
 * `in` and the reference's `ref_in` (either may be NULL). */
int ss__scn_ckpt_run_before(const ss_scenario *sc, void *const in[], void *const ref_in[],
                        ss__scn_ckpt_rt **out, ss__scn_error *err);
/* run: the statements below `run`, on the values after the last step
 * (`in`, `out`: the last step's host buffers). */
int ss__scn_ckpt_run_after(const ss_scenario *sc, ss__scn_ckpt_rt *rt, void *const in[],
                       void *const out[], ss__scn_error *err);
void ss__scn_ckpt_destroy(ss__scn_ckpt_rt *rt);
/* The layout a restore gave array `array` (its mesh lives as long as rt) and
 * a note for the show line; false if no restore touched it. */
bool ss__scn_ckpt_show(const ss__scn_ckpt_rt *rt, int array, ss_sharding *sh, char *note, size_t cap);
/* The "Checkpoints" report section; JSON: ,"checkpoints":[...]. */
void ss__scn_ckpt_report_text(const ss_scenario *sc, const ss__scn_ckpt_rt *rt, FILE *f);
void ss__scn_ckpt_report_json(const ss_scenario *sc, const ss__scn_ckpt_rt *rt, ss__buf *b);

#endif
