/*
 * support.h — helpers for the Criterion tests: loading the conformance
 * vectors in tests/data, building meshes and specs from them, and running
 * the shardsim binary.
 */
#ifndef SS_TEST_SUPPORT_H
#define SS_TEST_SUPPORT_H

#include "shardsim.h"

#include <cjson/cJSON.h>
#include <criterion/criterion.h>

/* Parse tests/data/<rel> (via $SS_TEST_DATA); aborts the test on failure. */
cJSON *ts_load_json(const char *rel);
/* Read a whole file under tests/data into a malloc'd string. */
char *ts_read_data(const char *rel);
/* The bytes of file `path`, NUL-terminated, malloc'd (*len: their count,
 * if len is not NULL), or NULL. */
char *ts_read_file(const char *path, size_t *len);

/* Mesh from a case's mesh_shape, axis_names and optional device_ids. */
ss_mesh *ts_mesh_from_case(const cJSON *c);
/* Spec from the conformance encoding: null, "x", ["x","y"], "UNCONSTRAINED". */
void ts_spec_from_json(const cJSON *arr, ss_spec *out);
/* int64 array from a JSON array; returns its length. */
int ts_ints(const cJSON *arr, int64_t out[], int cap);
/* The case named `name` in an array of cases, or NULL. */
const cJSON *ts_find_case(const cJSON *cases, const char *name);

/* Assert that a call succeeded, printing the library's message (a macro, so
 * a failure reports the caller's file and line). */
#define TS_OK(expr) cr_assert_eq((expr), SS_OK, "%s", ss_error_message())

/* A spec from its text (asserts it parses). */
ss_spec ts_spec(const char *text);
/* jax.make_mesh-style mesh over `devices` devices (asserts it is valid). */
ss_mesh *ts_make_mesh(const char *text, int devices);
/* An f32 input named `name` with spec text (NULL: unspecified) and `rank`
 * int dims given after it. */
ss_value ts_input(ss_program *p, const char *name, const char *spec, int rank, ...);
/* Scenario S7's attention (docs/gspmd.md section 7) on x with
 * w = {Wq, Wk, Wv, Wo}: out = {q, scores, softmax, o, y}. */
void ts_attention(ss_program *p, ss_value x, const ss_value w[4], ss_value out[5]);
/* One Adam step of a two-layer MLP on `m` ('data' x 'model'), compiled:
 * x [16, 128] on 'data'; W1 [128, 256] on 'model', W2 [256, 128] on
 * 'model' (replicated over 'data'); loss = sum(relu(x W1) W2). Outputs:
 * W1, W2, then Adam's state (mu0 mu1 nu0 nu1 count); with `echo_x`, x
 * unchanged as a last output (an undonated input returned as is). */
ss_executable *ts_adam_mlp_step(ss_mesh *m, bool echo_x, ss_program **pp);

/* Run `$SS_SHARDSIM args` with /bin/sh, capture stdout (malloc'd) and return
 * the exit status (or -1). stderr goes to *err if err is non-NULL. */
int ts_run_cli(const char *args, char **out, char **err);

/* A scenario after jax.experimental.shard_map's tutorial: y = psum(x, 'i')
 * over x = iota(8) on 4 devices; each device holds x[2d:2d+2] and gets the
 * sum of the four blocks. */
extern const char ts_psum_scenario[];

#endif
