/*
 * scenario.h — the scenario language: a text file that declares a mesh,
 * arrays with shardings, functions over them and what to do with them, read
 * by `shardsim run` and `shardsim plan` (scenarios/README.md is the
 * language reference).
 *
 * Pipeline: scenario_lex.c turns text into tokens (Python-like: indentation
 * gives INDENT/DEDENT, newlines inside brackets are ignored);
 * scenario_parse.c builds a syntax tree in an arena; scenario_eval.c walks
 * it and drives the program builder of shardsim.h (functions are expanded
 * inline at their call sites: the IR has no calls); scenario_init.c fills
 * host arrays from initializers; cmd_run.c compiles, runs or plans;
 * scenario_ckpt.c does the save and restore statements; report.c prints
 * the reports; exec_info.c reads the few facts about a compiled executable
 * that the public API does not give yet.
 *
 * Every error is a scn_error: a message and the line:column it is about;
 * cmd_run.c prints it as `file:line:col: message`, the source line and a
 * caret. Nothing here exits or aborts on bad input.
 */
#ifndef SS_CLI_SCENARIO_H
#define SS_CLI_SCENARIO_H

#include "cli.h"

#include <stddef.h>

/* --- Arena: every syntax node and evaluation value lives here ------------ */

typedef struct scn_arena_block scn_arena_block;
typedef struct scn_arena {
    scn_arena_block *head;
    size_t used, cap;
    size_t total; /* bytes handed out, for the size limit */
    bool oom;
} scn_arena;

void scn_arena_init(scn_arena *a);
void scn_arena_free(scn_arena *a);
/* Zeroed memory, 16-byte aligned; NULL (and a->oom) when out of memory or
 * past the arena's limit (256 MiB). */
void *scn_alloc(scn_arena *a, size_t bytes);
char *scn_strndup(scn_arena *a, const char *s, size_t n);

/* --- Errors --------------------------------------------------------------- */

typedef struct scn_loc {
    int line, col; /* 1-based; 0 when unknown */
} scn_loc;

typedef struct scn_error {
    bool set;
    scn_loc loc;
    char msg[1024];
} scn_error;

/* Record the first error (later ones are ignored); returns SS_ERR_PARSE. */
ss_status scn_fail(scn_error *err, scn_loc loc, const char *fmt, ...) SS__PRINTF(3, 4);

/* --- Tokens --------------------------------------------------------------- */

typedef enum scn_tok_kind {
    TK_EOF = 0,
    TK_NEWLINE,
    TK_INDENT,
    TK_DEDENT,
    TK_NAME,
    TK_INT,
    TK_FLOAT,
    TK_STRING,
    TK_OP /* punctuation; text holds it: ( ) [ ] , : = . @ + - * / // % ** */
} scn_tok_kind;

typedef struct scn_token {
    scn_tok_kind kind;
    scn_loc loc;
    size_t offset; /* byte offset of the token in the source */
    const char *text; /* NUL-terminated copy (arena) */
    int64_t ival;
    double fval;
} scn_token;

typedef struct scn_tokens {
    scn_token *v;
    int n, cap;
} scn_tokens;

/* Tokenize `src` (len bytes). Tokens live in `arena`; the array in `out`
 * is malloc'd (free with scn_tokens_free). */
ss_status scn_lex(const char *src, size_t len, scn_arena *arena, scn_tokens *out,
                  scn_error *err);
void scn_tokens_free(scn_tokens *t);

/* --- Syntax tree ---------------------------------------------------------- */

typedef enum scn_expr_kind {
    EX_INT = 0,
    EX_FLOAT,
    EX_STR,
    EX_NAME,
    EX_NONE,
    EX_TUPLE,  /* items; also the parenthesized tuple (a, b) */
    EX_LIST,   /* [a, b] */
    EX_BINOP,  /* op a b: "+", "-", "*", "/", "//", "%", "@", "**" */
    EX_NEG,    /* -a */
    EX_CALL,   /* a(items, kw...) */
    EX_ATTR,   /* a.name */
    EX_INDEX,  /* a[items]; an item may be EX_SLICE */
    EX_SLICE   /* a:b inside an index; a or b may be NULL */
} scn_expr_kind;

typedef struct scn_expr scn_expr;
struct scn_expr {
    scn_expr_kind kind;
    scn_loc loc;
    int64_t ival;
    double fval;
    const char *str; /* name, string, op or attribute */
    scn_expr *a, *b; /* operands; callee / object */
    int nitems;
    scn_expr **items;
    int nkw;
    const char **kwnames;
    scn_expr **kwvals;
    scn_loc *kwlocs;
    /* Levels of evaluation under this node: 1 for a leaf, 1 + the deepest
     * operand otherwise, except that a chain of binary operators counts
     * once (the evaluator walks its left operands in a loop). The parser
     * refuses a node deeper than SCN_MAX_DEPTH. */
    int height;
};

/* The deepest nesting of brackets, calls, operators or blocks a scenario
 * may write: "expression nested too deeply (more than SCN_MAX_DEPTH levels)". */
#define SCN_MAX_DEPTH 200

typedef enum scn_stmt_kind {
    ST_ASSIGN = 0, /* targets = value */
    ST_EXPR,
    ST_RETURN,
    ST_PASS,
    ST_DEF,
    ST_FOR,
    ST_MESH,   /* kw: axis=size ..., order=[...] */
    ST_DEVICES,
    ST_HOSTS,
    ST_DEVICE_MEMORY, /* text */
    ST_RULES,         /* text, strict */
    ST_RUN,           /* name, optional call args (items, has_call), kw (steps=) */
    ST_SHOW,          /* name, kw */
    ST_CHECK,         /* name, kw (tol=) */
    ST_PRINT,         /* name: memory, ledger, values, program, explain */
    ST_SAVE,          /* value: DIR, kw (step=), name: a flag (force) */
    ST_RESTORE,       /* value: DIR, kw (step=), name: a flag (partial) */
    ST_STRATEGY       /* value: FILE, or text (a block) at text_loc (cmd_strategy.c) */
} scn_stmt_kind;

typedef struct scn_stmt scn_stmt;
struct scn_stmt {
    scn_stmt_kind kind;
    scn_loc loc;
    /* ASSIGN: target names (ntargets >= 1); FOR: the loop variable */
    int ntargets;
    const char **targets;
    scn_loc *target_locs;
    scn_expr *value; /* ASSIGN/EXPR/DEVICES/HOSTS value, FOR iterable, RETURN value */
    /* DEF */
    const char *name;
    scn_loc name_loc;
    int nparams;
    const char **params;
    scn_loc *param_locs;
    /* DEF/FOR body */
    int nbody;
    scn_stmt **body;
    /* MESH/RUN/SHOW/CHECK options: name=value */
    int nkw;
    const char **kwnames;
    scn_expr **kwvals;
    scn_loc *kwlocs;
    /* RUN with explicit arguments: run f(a, b) */
    bool has_call;
    int nargs;
    scn_expr **args;
    /* DEVICE_MEMORY / RULES raw text; RULES strict flag */
    const char *text;
    scn_loc text_loc;
    bool strict;
};

typedef struct scn_file {
    int nstmts;
    scn_stmt **stmts;
} scn_file;

/* Parse the tokens of `src` into a file. Nodes live in `arena`. */
ss_status scn_parse(const char *src, const scn_tokens *toks, scn_arena *arena, scn_file *out,
                    scn_error *err);

/* --- Evaluation: the scenario as a program --------------------------------- */

typedef enum scn_init_kind {
    INIT_ZEROS = 0,
    INIT_ONES,
    INIT_FULL,
    INIT_IOTA,
    INIT_NORMAL,
    INIT_XAVIER,
    INIT_XAVIER_UNIFORM,
    INIT_UNIFORM,
    INIT_RANDINT
} scn_init_kind;

typedef struct scn_init {
    scn_init_kind kind;
    uint64_t seed;
    double a;    /* FULL value; NORMAL stddev; UNIFORM scale; RANDINT high */
    int dim;     /* IOTA: -1 for the flat index, else the dimension */
} scn_init;

/* A global array: `x = input(f32[8,1024], P('data', None), ones)`. */
typedef struct scn_array {
    const char *name;
    scn_loc loc;
    bool is_param;
    ss_dtype dtype;
    int rank;
    int64_t shape[SS_MAX_RANK];
    bool has_spec;
    ss_spec spec; /* mesh axes (logical names already resolved) */
    scn_init init;
    ss_value value; /* its program input, -1 until the run references it */
    bool hidden;    /* made by an optimizer (its state), not declared */
    const char *path; /* param(..., path='a/b/kernel') for strategies; NULL: name */
} scn_array;

/* Where a program value came from: the scenario name bound to it (may be
 * NULL) and the source spot of the expression that made it. */
typedef struct scn_value_info {
    const char *name;
    scn_loc loc;
} scn_value_info;

typedef struct scn_output {
    ss_value value;
    const char *name; /* NULL when the returned expression has no name */
    scn_loc loc;
    int feeds;        /* index of the array it updates between steps, or -1 */
    bool extra;       /* added for a `check`, not returned by the function */
    bool name_is_result; /* returned by the run function (not optimizer state) */
} scn_output;

typedef struct scn_show {
    const char *name;
    scn_loc loc;
    ss_value value; /* -1: an array the run does not use (its declared spec) */
    int array;      /* global array index, or -1 */
    int row_dim, col_dim;
} scn_show;

typedef struct scn_check {
    const char *name;
    scn_loc loc;
    int output; /* index into outputs */
    double tol; /* < 0: the dtype's default */
} scn_check;

/* `print(a, 'text', b)`: each part an output (its value after the last
 * step) or a constant's text (scenario_print.c). */
#define SCN_PRINT_MAX_PARTS 8
typedef struct scn_print_part {
    int output;       /* index into outputs, or -1 */
    const char *text; /* output -1: the constant as Python prints it */
} scn_print_part;

typedef struct scn_print {
    const char *source; /* "print(l)", as written */
    scn_loc loc;
    int nparts;
    scn_print_part parts[SCN_PRINT_MAX_PARTS];
} scn_print;

enum { SCN_PRINT_MEMORY = 1, SCN_PRINT_LEDGER = 2, SCN_PRINT_VALUES = 4, SCN_PRINT_PROGRAM = 8,
       SCN_PRINT_EXPLAIN = 16 };

/* Command-line settings that change what the file says. */
typedef struct scn_overrides {
    const char *mesh;     /* --mesh data=64,model=64 */
    int devices;          /* --devices N, 0 = the file's */
    size_t device_memory; /* --device-memory, 0 = the file's */
    int nsets;            /* --set NAME=VALUE: integer constants */
    const char *set_names[32];
    int64_t set_values[32];
    const char *strategy; /* --strategy FILE: replaces the file's `strategy` */
} scn_overrides;

typedef struct scenario {
    const char *path;
    char *src; /* the file's text (malloc'd) */
    size_t len;
    scn_arena arena;
    scn_tokens toks;
    scn_file file;
    scn_error err;

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
    scn_array *arrays;
    ss_program *program;
    scn_value_info *vinfo;
    int vinfo_cap;
    int *input_array; /* program input i -> array index */
    int ninputs, inputs_cap;

    /* actions */
    const char *run_name;
    scn_loc run_loc;
    int steps;
    bool donate; /* run ... donate=True: the carried inputs are donated */
    int noutputs, outputs_cap;
    scn_output *outputs;
    int nshows;
    scn_show shows[64];
    int nchecks;
    scn_check checks[64];
    unsigned prints;
    int nvprints;
    scn_print vprints[64]; /* print(...) statements made, in order */
    struct scn_ckpt_script *ckpt; /* save/restore statements (scenario_ckpt.c) */
    struct scn_strategy *strategy; /* the params' strategy (cmd_strategy.c) */
} scenario;

/* Read `path` (or take `text` when non-NULL, naming it `path` in
 * messages), lex, parse and evaluate: configuration, arrays, functions,
 * the run function expanded into sc->program with its outputs, shows and
 * checks. On failure sc->err says where and why. */
ss_status scn_load(scenario *sc, const char *path, const char *text,
                   const scn_overrides *ov);
void scn_free(scenario *sc);
/* The location of value v (its creating expression), {0,0} if unknown. */
scn_loc scn_value_loc(const scenario *sc, ss_value v);
/* The scenario name of value v, or NULL. */
const char *scn_value_name(const scenario *sc, ss_value v);
/* Append what print statement p shows (its parts joined by spaces), given
 * the last step's output buffers. */
ss_status scn_print_text(const scenario *sc, const scn_print *p, void *const outputs[],
                         ss__buf *b);
/* For a library message mentioning "%N", the location of value N. */
scn_loc scn_loc_from_message(const scenario *sc, const char *msg);

/* Fill the host buffer of array `a` (row-major, its dtype) from its
 * initializer: values depend only on the seed and each element's global
 * index, never on a sharding. */
void scn_init_fill(const scn_array *a, void *dst);
/* Element k of a host buffer of `dtype` as a double. */
double scn_elem_get(ss_dtype dtype, const void *buf, size_t k);

/* --- Host arrays as numpy shows and stores them (npfmt.c) --------------- */

/* Append numpy's str of the array (what `print(x)` shows for a jax.Array:
 * line width 75, "..." past 1000 elements with 3 at each edge). */
ss_status scn_np_str(ss_dtype dt, int rank, const int64_t shape[], const void *data,
                     ss__buf *out);
/* Write the array as a .npy file (format 1.0, little-endian; bf16 as
 * '<V2', numpy's own record of an ml_dtypes.bfloat16 array). */
ss_status scn_npy_write(const char *path, ss_dtype dt, int rank, const int64_t shape[],
                        const void *data);

/* --- Executable facts the public API does not give yet (exec_info.c) ---- */

/* The program value whose op or operand reshard emitted ledger entry i, and
 * whether it is an explicit collective written in a shard_map body. */
ss_status scn_exec_ledger_source(const ss_executable *e, int i, ss_value *value, bool *user);
/* Replica groups of ledger entry i: ids[offsets[g]..offsets[g+1]). `ids`
 * needs room for the device count, `offsets` for count + 1. */
ss_status scn_exec_ledger_groups(const ss_executable *e, int i, int *ngroups, int ids[],
                                 int offsets[]);

/* The part of the step ledger entry i runs in (forward, backward,
 * optimizer): the phase of the value a computed value's collective serves,
 * and for a reshard of an input or param, the phase of the op that reads it. */
ss_phase scn_exec_ledger_phase(const ss_executable *e, int i);
/* A permute's (source, target) pairs as ranks within each group of ledger
 * entry i (the groups of scn_exec_ledger_groups); 0 for other kinds. */
int scn_exec_ledger_pairs(const ss_executable *e, int i, const int (**pairs)[2]);

typedef struct scn_live_buffer {
    char name[48]; /* "%12 dot_general" */
    size_t bytes;  /* arena bytes */
} scn_live_buffer;

/* The buffers alive at the plan's peak (largest first, at most `cap`);
 * -1 when out of host memory. */
int scn_exec_peak_buffers(const ss_executable *e, scn_live_buffer out[], int cap);

typedef struct scn_step_cost {
    bool is_coll;
    ss_value value;
    ss_dtype dtype;     /* kernel output dtype */
    double flops;       /* kernel */
    double bytes;       /* kernel: operand + result bytes (HBM traffic) */
    int ledger_index;   /* collective: its ledger entry */
} scn_step_cost;

/* One entry per kernel or collective instruction in order (malloc'd). */
ss_status scn_exec_costs(const ss_executable *e, scn_step_cost **out, int *n);

/* --- Hardware profiles and the step-time estimate (profiles.c) ----------- */

typedef struct scn_profile {
    const char *name;
    const char *about;
    double flops_f32, flops_bf16; /* peak FLOP/s per device */
    double hbm_bw;                /* bytes/s per device */
    int devices_per_node;         /* devices joined by the fast links */
    double link_bw, link_alpha;   /* per device per axis inside a node: B/s, s */
    double net_bw, net_alpha;     /* across nodes */
} scn_profile;

int scn_profile_count(void);
const scn_profile *scn_profile_get(int i);
const scn_profile *scn_profile_find(const char *name);

typedef struct scn_estimate {
    double compute, comm, total; /* seconds per step */
} scn_estimate;

/* Alpha-beta ring model (docs/gspmd.md 5.3) over the executable's
 * collectives plus a roofline per kernel; communication is not overlapped. */
ss_status scn_estimate_step(const ss_executable *e, const ss_mesh *mesh,
                            const scn_profile *p, scn_estimate *out);
/* Bandwidth and latency an axis group of the mesh gets under profile p. */
void scn_profile_axis_link(const scn_profile *p, const ss_mesh *mesh, const char *axes,
                           double *bw, double *alpha);

/* --- Reports (report.c) ---------------------------------------------------- */

/* NaN and Inf compare as numpy.testing.assert_allclose (JAX's tests) does:
 * NaN against NaN and an infinity against the same infinity are equal;
 * NaN or an infinity against anything else is a mismatch, whatever the
 * tolerance. max_abs and ref_max are over the elements finite on both
 * sides. */
typedef struct scn_check_result {
    double max_abs;  /* largest |run - reference| over finite pairs */
    double ref_max;  /* largest finite |reference| */
    double tol;      /* the tolerance used: pass if max_abs <= tol * max(1, ref_max) */
    int64_t nonfinite_bad;   /* elements NaN/Inf on one side and not equal on the other */
    int64_t nonfinite_equal; /* elements NaN/Inf on both sides, equal */
    int64_t first_bad;       /* flat index of the first of nonfinite_bad, -1 */
    double bad_run, bad_ref; /* its values */
    bool pass;
} scn_check_result;

/* Compare n elements of `run` with `ref` (dtype dt); tol < 0: the dtype's
 * default (1e-4 f32, 1e-10 f64, 2e-2 bf16/f16, 0 integers). */
void scn_check_compare(ss_dtype dt, const void *run, const void *ref, int64_t n, double tol,
                       scn_check_result *res);

/* What cmd_run.c measured or planned, for the report. */
typedef struct scn_report {
    bool is_plan, json, explain, color;
    const char *profile;    /* plan: one profile, or NULL for all */
    ss_executable *exe;     /* NULL when the scenario has no run */
    ss_context *ctx;        /* run: the devices after the steps */
    ss_plan plan;
    int steps;
    double compile_s, first_s, median_s;
    scn_check_result checks[64];
    bool fits;              /* plan: peak <= capacity */
    struct scn_ckpt_rt *ckpt; /* what the save/restore statements did or will do */
    struct scn_watch *watch;  /* run --watch NAME: the blocks caught, or NULL */
    void *const *outputs;     /* run: the last step's output buffers (host) */
    double **step_values;     /* run: [output][step] of one-element outputs, else NULL */
    const char *outputs_dir;  /* run --outputs DIR: where the .npy files went */
} scn_report;

/* --- `run --watch NAME` (watch.c) ---------------------------------------- */

/* Blocks caught around the collectives that read or write values named
 * NAME during the steps it was attached for. */
typedef struct scn_watch scn_watch;
/* Does the scenario name any value `name`? */
bool scn_watch_known(const scenario *sc, const char *name);
/* Attach to e (its runs call back); scn_watch_stop detaches. */
ss_status scn_watch_start(const scenario *sc, ss_executable *e, const char *name,
                          scn_watch **out);
void scn_watch_stop(scn_watch *w, ss_executable *e);
void scn_watch_free(scn_watch *w);
/* The "Watch NAME" report section; JSON: ,"watch":{...}. */
void scn_watch_report_text(const scn_watch *w, const ss_executable *e, FILE *f);
void scn_watch_report_json(const scn_watch *w, ss__buf *b);

/* Print the whole report: text in the order of the issue (mesh, shows,
 * values (plan), memory, ledger, explain, step times or estimates, checks)
 * or one JSON object (scenarios/README.md documents its schema). A part
 * that cannot be made (out of host memory) fails the report: the text
 * printed so far stays, JSON is not printed, and the status says why. */
ss_status scn_report_print(const scenario *sc, const scn_report *r, FILE *f);

/* --- save / restore statements (scenario_ckpt.c) -------------------------- */

/* Each returns an exit status (0, 1 for out of memory or a topology
 * mismatch, 2 for bad input) with *err set to the statement's line:col.
 * Without save/restore statements they do nothing and *out stays NULL. */
typedef struct scn_ckpt_rt scn_ckpt_rt;
/* plan: every restore against its checkpoint's metadata (per-device peak,
 * layouts, fit); saves are listed, not written. */
int scn_ckpt_plan(const scenario *sc, scn_ckpt_rt **out, scn_error *err);
/* run: the statements above `run` (all of them without a run), on the
 * initial values; restored values are copied into the run's input buffers
 * `in` and the reference's `ref_in` (either may be NULL). */
int scn_ckpt_run_before(const scenario *sc, void *const in[], void *const ref_in[],
                        scn_ckpt_rt **out, scn_error *err);
/* run: the statements below `run`, on the values after the last step
 * (`in`, `out`: the last step's host buffers). */
int scn_ckpt_run_after(const scenario *sc, scn_ckpt_rt *rt, void *const in[],
                       void *const out[], scn_error *err);
void scn_ckpt_destroy(scn_ckpt_rt *rt);
/* The layout a restore gave array `array` (its mesh lives as long as rt) and
 * a note for the show line; false if no restore touched it. */
bool scn_ckpt_show(const scn_ckpt_rt *rt, int array, ss_sharding *sh, char *note, size_t cap);
/* The "Checkpoints" report section; JSON: ,"checkpoints":[...]. */
void scn_ckpt_report_text(const scenario *sc, const scn_ckpt_rt *rt, FILE *f);
void scn_ckpt_report_json(const scenario *sc, const scn_ckpt_rt *rt, ss__buf *b);

/* --- Commands (cmd_run.c) ------------------------------------------------ */

int ss__cli_run(int argc, char **argv);
int ss__cli_plan(int argc, char **argv);

/* `argv` as main's: argv[1] is "run" or "plan", options follow. The command
 * on a scenario given as text (for tests and the fuzzer): the file argument
 * only names the text in messages. */
int ss__cli_scenario_text(int argc, char **argv, const char *text);

#endif
