/*
 * test_shape_ops_jax.c — iota, dense constants, reverse, pad and strided
 * slices, and the gradients of the last three, against JAX's results on
 * XLA's CPU backend (tests/data/jax_shape/vectors.json, written by
 * tests/jax/make_shape_vectors.py), and the dynamic slices with clamped
 * start indices. Each case is built through the public
 * builders and computed four ways: the naive reference evaluation, the
 * single-device run (fast kernels), and partitioned runs on 2 devices
 * (P('x')) and on 8 (a 2x4 mesh, P('x', 'y')), inputs and results split
 * where their dims divide. All must equal JAX's bit for bit.
 */
#include "support.h"

#include <stdlib.h>
#include <string.h>

typedef struct arr {
    ss_dtype dtype;
    int rank;
    int64_t shape[SS_MAX_RANK];
    size_t bytes;
    unsigned char *data;
} arr;

static arr arr_from(const cJSON *j)
{
    arr a;
    memset(&a, 0, sizeof a);
    TS_OK(ss_dtype_parse(cJSON_GetObjectItemCaseSensitive(j, "dtype")->valuestring, &a.dtype));
    a.rank = ts_ints(cJSON_GetObjectItemCaseSensitive(j, "shape"), a.shape, SS_MAX_RANK);
    const char *hex = cJSON_GetObjectItemCaseSensitive(j, "hex")->valuestring;
    a.bytes = strlen(hex) / 2;
    size_t want = ss_dtype_size(a.dtype);
    for (int d = 0; d < a.rank; d++)
        want *= (size_t)a.shape[d];
    cr_assert_eq(a.bytes, want, "%zu bytes for its shape", a.bytes);
    a.data = malloc(a.bytes ? a.bytes : 1);
    for (size_t i = 0; i < a.bytes; i++) {
        unsigned v;
        cr_assert_eq(sscanf(hex + 2 * i, "%2x", &v), 1);
        a.data[i] = (unsigned char)v;
    }
    return a;
}

static arr arr_of(const cJSON *c, const char *field)
{
    const cJSON *j = cJSON_GetObjectItemCaseSensitive(c, field);
    cr_assert_not_null(j, "no %s", field);
    return arr_from(j);
}

/* The spec splitting dims 0 (and 1 on the 2x4 mesh) of shape when they
 * divide, else NULL (replicated). */
static const ss_spec *split_of(int ndev, int rank, const int64_t shape[], ss_spec *buf)
{
    if (ndev == 2 && rank >= 1 && shape[0] % 2 == 0) {
        *buf = ts_spec("P('x')");
        return buf;
    }
    if (ndev == 8 && rank >= 2 && shape[0] % 2 == 0 && shape[1] % 4 == 0) {
        *buf = ts_spec("P('x', 'y')");
        return buf;
    }
    return NULL;
}

static void config_of(const cJSON *c, int64_t a[], int64_t b[], int64_t s[])
{
    const cJSON *cfg = cJSON_GetObjectItemCaseSensitive(c, "config"), *row;
    int d = 0;
    cJSON_ArrayForEach(row, cfg)
    {
        a[d] = (int64_t)cJSON_GetArrayItem(row, 0)->valuedouble;
        b[d] = (int64_t)cJSON_GetArrayItem(row, 1)->valuedouble;
        s[d] = (int64_t)cJSON_GetArrayItem(row, 2)->valuedouble;
        d++;
    }
}

/* The op of case c (kind `kind`, without "_grad") on x (and padding value v). */
static ss_value build_op(ss_program *p, const cJSON *c, const char *kind, ss_value x,
                         ss_value v)
{
    ss_value y = -1;
    int64_t a[SS_MAX_RANK], b[SS_MAX_RANK], s[SS_MAX_RANK];
    if (strncmp(kind, "reverse", 7) == 0) {
        int64_t d64[SS_MAX_RANK];
        int dims[SS_MAX_RANK];
        int nd = ts_ints(cJSON_GetObjectItemCaseSensitive(c, "dims"), d64, SS_MAX_RANK);
        for (int k = 0; k < nd; k++)
            dims[k] = (int)d64[k];
        TS_OK(ss_reverse(p, x, nd, dims, &y));
    } else if (strncmp(kind, "pad", 3) == 0) {
        config_of(c, a, b, s);
        TS_OK(ss_pad(p, x, v, a, b, s, &y));
    } else if (strncmp(kind, "slice", 5) == 0) {
        config_of(c, a, b, s);
        TS_OK(ss_slice_strided(p, x, a, b, s, &y));
    } else {
        cr_assert_fail("unknown kind %s", kind);
    }
    return y;
}

/* Case c built over mesh m (ndev devices): its inputs (into ins[], with
 * their host data in hin[]) and outputs (the expected arrays in want[]). */
typedef struct built {
    ss_program *p;
    int nin, nout;
    const void *hin[8];
    arr in[8], want[4];
} built;

static ss_value add_input(built *b, ss_program *p, int ndev, const arr *a, bool split)
{
    ss_spec buf;
    ss_value v;
    char name[8];
    snprintf(name, sizeof name, "in%d", b->nin);
    const ss_spec *s = split ? split_of(ndev, a->rank, a->shape, &buf) : NULL;
    TS_OK(ss_input(p, name, a->dtype, a->rank, a->shape, s, &v));
    b->in[b->nin] = *a;
    b->hin[b->nin++] = a->data;
    return v;
}

static void add_output(built *b, ss_program *p, int ndev, ss_value y, const arr *want)
{
    ss_spec buf;
    ss_dtype dt;
    int rank;
    int64_t shape[SS_MAX_RANK];
    TS_OK(ss_value_shape(p, y, &dt, &rank, shape));
    cr_assert_eq(dt, want->dtype, "result dtype %s, JAX %s", ss_dtype_name(dt),
                 ss_dtype_name(want->dtype));
    cr_assert_eq(rank, want->rank);
    for (int d = 0; d < rank; d++)
        cr_assert_eq(shape[d], want->shape[d], "dim %d: %lld, JAX %lld", d, (long long)shape[d],
                     (long long)want->shape[d]);
    TS_OK(ss_output(p, y, split_of(ndev, rank, shape, &buf)));
    b->want[b->nout++] = *want;
}

/* dynamic_slice, dynamic_update_slice and their gradients: x (and the
 * update u), then the start indices as rank-0 inputs. */
static void build_dynamic(built *b, ss_program *p, int ndev, const cJSON *c, const char *kind)
{
    bool update = strncmp(kind, "dynamic_update", 14) == 0, grad = strstr(kind, "_grad");
    arr x = arr_of(c, "x");
    ss_value xv = add_input(b, p, ndev, &x, true), uv = -1, idx[SS_MAX_RANK], y, g[2];
    if (update) {
        arr u = arr_of(c, "u");
        uv = add_input(b, p, ndev, &u, true);
    }
    const cJSON *s;
    int n = 0;
    cJSON_ArrayForEach(s, cJSON_GetObjectItemCaseSensitive(c, "starts"))
    {
        arr v = arr_from(s);
        idx[n++] = add_input(b, p, ndev, &v, false);
    }
    int64_t sizes[SS_MAX_RANK];
    if (!update)
        ts_ints(cJSON_GetObjectItemCaseSensitive(c, "sizes"), sizes, SS_MAX_RANK);
    ss_value ctv = -1; /* inputs first: the runs bind them by value number */
    if (grad) {
        arr ct = arr_of(c, "ct");
        ctv = add_input(b, p, ndev, &ct, true);
    }
    if (update)
        TS_OK(ss_dynamic_update_slice(p, xv, uv, n, idx, &y));
    else
        TS_OK(ss_dynamic_slice(p, xv, n, idx, sizes, &y));
    if (!grad) {
        arr out = arr_of(c, "out");
        add_output(b, p, ndev, y, &out);
        return;
    }
    arr gx = arr_of(c, "gx");
    TS_OK(ss_vjp(p, y, ctv, update ? 2 : 1, (ss_value[]){xv, uv}, g));
    add_output(b, p, ndev, g[0], &gx);
    if (update) {
        arr gu = arr_of(c, "gu");
        add_output(b, p, ndev, g[1], &gu);
    }
}

static void build(built *b, const ss_mesh *m, int ndev, const cJSON *c)
{
    memset(b, 0, sizeof *b);
    const char *kind = cJSON_GetObjectItemCaseSensitive(c, "kind")->valuestring;
    TS_OK(ss_program_create(m, &b->p));
    ss_program *p = b->p;
    ss_value y;
    if (strncmp(kind, "dynamic", 7) == 0) {
        build_dynamic(b, p, ndev, c, kind);
    } else if (strcmp(kind, "iota") == 0) {
        arr out = arr_of(c, "out");
        int dim = (int)cJSON_GetObjectItemCaseSensitive(c, "dim")->valuedouble;
        TS_OK(ss_iota(p, out.dtype, out.rank, out.shape, dim, &y));
        add_output(b, p, ndev, y, &out);
    } else if (strcmp(kind, "constant") == 0) {
        arr x = arr_of(c, "x"), k = arr_of(c, "c"), out = arr_of(c, "out");
        ss_value xv = add_input(b, p, ndev, &x, true), kv;
        TS_OK(ss_constant_array(p, k.dtype, k.rank, k.shape, k.data, &kv));
        free(k.data);
        TS_OK(ss_binary(p, x.dtype == SS_BOOL ? SS_OR : SS_ADD, xv, kv, &y));
        add_output(b, p, ndev, y, &out);
    } else if (strstr(kind, "_grad")) {
        arr x = arr_of(c, "x"), ct = arr_of(c, "ct"), gx = arr_of(c, "gx");
        bool pad = strncmp(kind, "pad", 3) == 0;
        ss_value xv = add_input(b, p, ndev, &x, true), vv = -1, ctv, g[2];
        if (pad) {
            arr v = arr_of(c, "v");
            vv = add_input(b, p, ndev, &v, false);
        }
        ctv = add_input(b, p, ndev, &ct, true);
        y = build_op(p, c, kind, xv, vv);
        TS_OK(ss_vjp(p, y, ctv, pad ? 2 : 1, (ss_value[]){xv, vv}, g));
        add_output(b, p, ndev, g[0], &gx);
        if (pad) {
            arr gv = arr_of(c, "gv");
            add_output(b, p, ndev, g[1], &gv);
        }
    } else {
        arr x = arr_of(c, "x"), out = arr_of(c, "out");
        ss_value xv = add_input(b, p, ndev, &x, true), vv = -1;
        if (strcmp(kind, "pad") == 0) {
            arr v = arr_of(c, "v");
            vv = add_input(b, p, ndev, &v, false);
        }
        y = build_op(p, c, kind, xv, vv);
        add_output(b, p, ndev, y, &out);
    }
}

static void free_built(built *b)
{
    for (int k = 0; k < b->nin; k++)
        free(b->in[k].data);
    for (int k = 0; k < b->nout; k++)
        free(b->want[k].data);
    ss_program_destroy(b->p);
}

static void compare(const char *how, int at, const cJSON *c, const built *b, void *const got[])
{
    for (int o = 0; o < b->nout; o++) {
        const arr *w = &b->want[o];
        size_t es = ss_dtype_size(w->dtype);
        for (size_t i = 0; i < w->bytes; i += es)
            if (memcmp((const unsigned char *)got[o] + i, w->data + i, es) != 0) {
                uint64_t g = 0, j = 0;
                memcpy(&g, (const unsigned char *)got[o] + i, es);
                memcpy(&j, w->data + i, es);
                cr_assert_fail("%s: case %d (%s, %s) output %d element %zu: got 0x%llx, JAX "
                               "0x%llx",
                               how, at, cJSON_GetObjectItemCaseSensitive(c, "kind")->valuestring,
                               ss_dtype_name(w->dtype), o, i / es, (unsigned long long)g,
                               (unsigned long long)j);
            }
    }
}

static void run_case(const ss_mesh *m2, ss_context *c2, const ss_mesh *m8, ss_context *c8,
                     const cJSON *c, int at)
{
    for (int pass = 0; pass < 2; pass++) {
        int ndev = pass ? 8 : 2;
        built b;
        build(&b, pass ? m8 : m2, ndev, c);
        void *got[4];
        for (int o = 0; o < b.nout; o++)
            got[o] = malloc(b.want[o].bytes + 1);
        if (!pass) {
            TS_OK(ss_program_eval(b.p, b.hin, got));
            compare("reference", at, c, &b, got);
            ss_eval_options fast = {.fast_kernels = 1};
            for (int o = 0; o < b.nout; o++)
                memset(got[o], 0xa5, b.want[o].bytes);
            TS_OK(ss_program_eval_with(b.p, &fast, b.hin, got));
            compare("single-device", at, c, &b, got);
        }
        ss_executable *e;
        TS_OK(ss_program_compile(b.p, &e));
        cr_assert_eq(ss_executable_input_count(e), b.nin);
        for (int o = 0; o < b.nout; o++)
            memset(got[o], 0xa5, b.want[o].bytes);
        /* inputs are the program's first values, in order */
        const void *ein[8];
        for (int i = 0; i < b.nin; i++) {
            ss_value v;
            TS_OK(ss_executable_input(e, i, &v));
            ein[i] = b.hin[v];
        }
        TS_OK(ss_executable_run(e, pass ? c8 : c2, ein, got));
        compare(pass ? "8 devices" : "2 devices", at, c, &b, got);
        ss_executable_destroy(e);
        for (int o = 0; o < b.nout; o++)
            free(got[o]);
        free_built(&b);
    }
}

static void run_kind(const char *kind)
{
    cJSON *doc = ts_load_json("jax_shape/vectors.json");
    ss_mesh *m2 = ts_make_mesh("x=2", 2), *m8 = ts_make_mesh("x=2,y=4", 8);
    ss_context_options o2 = {.ndevices = 2, .device_memory = (size_t)16 << 20, .timeout = 30};
    ss_context_options o8 = {.ndevices = 8, .device_memory = (size_t)16 << 20, .timeout = 30};
    ss_context *c2, *c8;
    TS_OK(ss_context_create(&o2, &c2));
    TS_OK(ss_context_create(&o8, &c8));
    int ran = 0, at = 0;
    const cJSON *c;
    cJSON_ArrayForEach(c, cJSON_GetObjectItemCaseSensitive(doc, "cases"))
    {
        if (strcmp(cJSON_GetObjectItemCaseSensitive(c, "kind")->valuestring, kind) == 0) {
            run_case(m2, c2, m8, c8, c, at);
            ran++;
        }
        at++;
    }
    cr_assert_gt(ran, 0, "no %s cases", kind);
    ss_context_destroy(c2);
    ss_context_destroy(c8);
    ss_mesh_destroy(m2);
    ss_mesh_destroy(m8);
    cJSON_Delete(doc);
}

Test(shape_ops_jax, iota, .timeout = 120) { run_kind("iota"); }
Test(shape_ops_jax, dense_constant, .timeout = 120) { run_kind("constant"); }
Test(shape_ops_jax, reverse, .timeout = 120) { run_kind("reverse"); }
Test(shape_ops_jax, pad, .timeout = 120) { run_kind("pad"); }
Test(shape_ops_jax, strided_slice, .timeout = 120) { run_kind("slice"); }
Test(shape_ops_jax, reverse_grad, .timeout = 120) { run_kind("reverse_grad"); }
Test(shape_ops_jax, pad_grad, .timeout = 120) { run_kind("pad_grad"); }
Test(shape_ops_jax, strided_slice_grad, .timeout = 120) { run_kind("slice_grad"); }
Test(shape_ops_jax, dynamic_slice, .timeout = 120) { run_kind("dynamic_slice"); }
Test(shape_ops_jax, dynamic_update_slice, .timeout = 120) { run_kind("dynamic_update_slice"); }
Test(shape_ops_jax, dynamic_slice_grad, .timeout = 120) { run_kind("dynamic_slice_grad"); }
Test(shape_ops_jax, dynamic_update_slice_grad, .timeout = 120)
{
    run_kind("dynamic_update_slice_grad");
}

/* Bad arguments: one line naming the op and what is wrong, and the
 * program left as it was. */
Test(shape_ops_jax, bad_arguments_are_one_line_errors)
{
    ss_mesh *m = ts_make_mesh("x=2", 2);
    ss_program *p;
    TS_OK(ss_program_create(m, &p));
    ss_value x, i, y;
    TS_OK(ss_input(p, "x", SS_F32, 2, (int64_t[]){4, 6}, NULL, &x));
    TS_OK(ss_input(p, "i", SS_I32, 0, NULL, NULL, &i));
    static const struct {
        ss_status st;
        const char *msg;
    } want[] = {
        {SS_ERR_UNSUPPORTED, "iota: not defined on bool"},
        {SS_ERR_INVALID, "iota: iota_dimension 2 is outside 0..1"},
        {SS_ERR_INVALID, "constant: data is NULL"},
        {SS_ERR_INVALID, "constant: dimension 1 has size 0"},
        {SS_ERR_INVALID, "reverse: dims[1] = -2 is out of range for rank 2 or repeated"},
        {SS_ERR_INVALID, "pad: operand f32 and padding_value i32 differ"},
        {SS_ERR_INVALID, "pad: dimension 1 of size 6 with low -4, high -2, interior 0 leaves 0 "
                         "elements"},
        {SS_ERR_INVALID, "pad: dimension 0: interior padding -1 is negative"},
        {SS_ERR_INVALID, "slice: dimension 1: stride 0 is below 1"},
        {SS_ERR_INVALID, "slice: dimension 0: [3, 5) is not a non-empty range within 0..4"},
    };
    ss_value zero;
    TS_OK(ss_constant(p, 0.0, &zero)); /* a Python scalar: takes x's dtype */
    int n0 = ss_program_value_count(p);
    for (size_t k = 0; k < sizeof want / sizeof want[0]; k++) {
        int64_t z[2] = {0, 0};
        ss_status st = SS_OK;
        switch (k) {
        case 0: st = ss_iota(p, SS_BOOL, 1, (int64_t[]){3}, 0, &y); break;
        case 1: st = ss_iota(p, SS_I32, 2, (int64_t[]){3, 2}, 2, &y); break;
        case 2: st = ss_constant_array(p, SS_F32, 1, (int64_t[]){3}, NULL, &y); break;
        case 3: st = ss_constant_array(p, SS_F32, 2, (int64_t[]){3, 0}, z, &y); break;
        case 4: st = ss_reverse(p, x, 2, (int[]){0, -2}, &y); break;
        case 5: st = ss_pad(p, x, i, z, z, z, &y); break;
        case 6: st = ss_pad(p, x, zero, (int64_t[]){0, -4}, (int64_t[]){0, -2}, z, &y); break;
        case 7: st = ss_pad(p, x, zero, z, z, (int64_t[]){-1, 0}, &y); break;
        case 8: st = ss_slice_strided(p, x, z, (int64_t[]){4, 6}, (int64_t[]){1, 0}, &y); break;
        default:
            st = ss_slice_strided(p, x, (int64_t[]){3, 0}, (int64_t[]){5, 6}, (int64_t[]){1, 2},
                                  &y);
        }
        cr_assert_eq(st, want[k].st, "case %zu: status %d (%s)", k, st, ss_error_message());
        cr_assert(strcmp(ss_error_message(), want[k].msg) == 0, "case %zu: \"%s\", want \"%s\"",
                  k, ss_error_message(), want[k].msg);
        cr_assert_eq(ss_program_value_count(p), n0, "case %zu left values behind", k);
    }
    ss_program_destroy(p);
    ss_mesh_destroy(m);
}
