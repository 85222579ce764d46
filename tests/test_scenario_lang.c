/* test_scenario_lang.c — the scenario language itself: inputs of any size
 * never overflow the stack (every form of nesting is an error at its
 * line:col, a flat chain of 50,000 operators just works), with values
 * compared against an independent naive computation in the test. */
#include "support.h"
#include "scenario_check.h"

/* Internal on purpose: the evaluator (ss__scn_load) on its own. */
#include "front/scenario/scenario.h"
/* Internal: the bf16 rounding of expected values (ss__f32_to_bf16). */
#include "kernels/kernels.h"

#include <criterion/criterion.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* --- Building generated scenario texts ------------------------------------------ */

typedef struct sbuf {
    char *s;
    size_t n, cap;
} sbuf;

static void put(sbuf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    cr_assert(k >= 0);
    while (b->n + (size_t)k + 1 > b->cap) {
        b->cap = b->cap ? b->cap * 2 : 4096;
        b->s = realloc(b->s, b->cap);
        cr_assert(b->s);
    }
    va_start(ap, fmt);
    vsnprintf(b->s + b->n, b->cap - b->n, fmt, ap);
    va_end(ap);
    b->n += (size_t)k;
}

static void rep(sbuf *b, const char *s, int n)
{
    for (int k = 0; k < n; k++)
        put(b, "%s", s);
}

#define HEAD "mesh d=2 m=4\nx = input(f32[8, 16], P('d', 'm'), iota)\n"

/* --- The program of a scenario, evaluated on the host ----------------------------- */

/* Load `text`, evaluate its program with the naive reference kernels
 * (ss_program_eval) on its inputs' initial values, and return output
 * `which` as doubles (malloc'd; *n elements). */
static double *eval_output_typed(const char *text, int which, size_t *n, ss_dtype *dtype,
                                 double **input0);

static double *eval_output(const char *text, int which, size_t *n)
{
    return eval_output_typed(text, which, n, NULL, NULL);
}

/* As eval_output; also the output's dtype and (input0) input 0's initial
 * values as doubles (malloc'd). */
static double *eval_output_typed(const char *text, int which, size_t *n, ss_dtype *dtype,
                                 double **input0)
{
    ss_scenario sc;
    ss__scn_overrides ov;
    memset(&ov, 0, sizeof ov);
    ss_status st = ss__scn_load(&sc, "t.shard", text, &ov);
    cr_assert_eq(st, SS_OK, "load: %d:%d: %s", sc.err.loc.line, sc.err.loc.col, sc.err.msg);
    void **in = calloc((size_t)sc.ninputs + 1, sizeof *in);
    for (int i = 0; i < sc.ninputs; i++) {
        const ss__scn_array *a = &sc.arrays[sc.input_array[i]];
        int64_t count = 1;
        for (int d = 0; d < a->rank; d++)
            count *= a->shape[d];
        in[i] = malloc((size_t)count * 8 + 8);
        ss__scn_init_fill(a, in[i]);
    }
    cr_assert(which < sc.noutputs);
    void **out = calloc((size_t)sc.noutputs, sizeof *out);
    ss_dtype dt[64];
    int64_t count[64];
    for (int j = 0; j < sc.noutputs; j++) {
        int rank;
        int64_t shape[SS_MAX_RANK];
        TS_OK(ss_value_shape(sc.program, sc.outputs[j].value, &dt[j], &rank, shape));
        count[j] = 1;
        for (int d = 0; d < rank; d++)
            count[j] *= shape[d];
        out[j] = malloc((size_t)count[j] * 8 + 8);
    }
    TS_OK(ss_program_eval(sc.program, (const void *const *)in, out));
    if (dtype)
        *dtype = dt[which];
    if (input0) {
        const ss__scn_array *a0 = &sc.arrays[sc.input_array[0]];
        int64_t c0 = 1;
        for (int d = 0; d < a0->rank; d++)
            c0 *= a0->shape[d];
        *input0 = malloc(sizeof **input0 * (size_t)c0);
        for (int64_t k = 0; k < c0; k++)
            (*input0)[k] = ss__elem_get(a0->dtype, in[0], (size_t)k);
    }
    double *r = malloc(sizeof *r * (size_t)count[which]);
    for (int64_t k = 0; k < count[which]; k++)
        r[k] = ss__elem_get(dt[which], out[which], (size_t)k);
    *n = (size_t)count[which];
    for (int i = 0; i < sc.ninputs; i++)
        free(in[i]);
    for (int j = 0; j < sc.noutputs; j++)
        free(out[j]);
    free(in);
    free(out);
    ss__scn_free(&sc);
    return r;
}

/* `shardsim CMD t.shard` on text: exit status 2 and stderr starting with
 * "t.shard:WHERE: MSG" (WHERE is "line:col" or "line:"). */
static void expect_error(const char *cmd, const char *text, const char *where, const char *msg)
{
    const char *args[] = {cmd, "t.shard"};
    result r = run_cli(text, 2, args);
    cr_assert_eq(r.rc, 2, "exit %d, stderr: %.300s", r.rc, r.err);
    char head[256];
    snprintf(head, sizeof head, "t.shard:%s", where);
    cr_assert(strncmp(r.err, head, strlen(head)) == 0, "got:\n%.300s\nwanted it at %s", r.err,
              head);
    char *line_end = strchr(r.err, '\n');
    cr_assert(line_end && strstr(r.err, msg) && strstr(r.err, msg) < line_end,
              "got:\n%.300s\nwanted: %s", r.err, msg);
    result_free(&r);
}

/* --- Item: no input overflows the stack -------------------------------------------- */

Test(lang, a_flat_sum_of_50000_terms_plans_runs_and_equals_50000_x, .timeout = 240)
{
    sbuf b = {0};
    put(&b, HEAD "def f(x):\n    return x");
    rep(&b, " + x", 49999);
    put(&b, "\nrun f\ncheck f\n");
    /* the host reference: 50000 * iota, exact in f32 (< 2^24) */
    size_t n;
    double *v = eval_output(b.s, 0, &n);
    cr_assert_eq(n, 128);
    for (size_t k = 0; k < n; k++)
        cr_assert_eq(v[k], 50000.0 * (double)k, "element %zu: %g", k, v[k]);
    free(v);
    /* plan and the sharded run, checked against the single-device run */
    const char *plan[] = {"plan", "t.shard"}, *run[] = {"run", "t.shard"};
    result r = run_cli(b.s, 2, plan);
    cr_assert_eq(r.rc, 0, "plan: %.300s", r.err);
    result_free(&r);
    r = run_cli(b.s, 2, run);
    cr_assert_eq(r.rc, 0, "run: %.300s", r.err);
    cr_assert(strstr(r.out, "ok (bitwise equal)"), "%s", r.out);
    result_free(&r);
    free(b.s);
}

/* Each nesting form, 50,000 deep, ends in one clear error at its line. */
Test(lang, every_form_of_deep_nesting_is_an_error_at_its_line, .timeout = 240)
{
    static const char *const deep = "expression nested too deeply (more than 200 levels)";
    static const struct {
        const char *open, *leaf, *close;
    } forms[] = {
        {"- ", "x", ""},           /* unary minus */
        {"+ ", "x", ""},           /* unary plus */
        {"(", "x", ")"},           /* parentheses */
        {"relu(", "x", ")"},       /* nested calls */
        {"(", "x", ",)"},          /* nested tuples */
        {"[", "x", "]"},           /* nested lists */
        {"x ** ", "x", ""},        /* right-associative power */
        {"", "x", ".T"},           /* attribute chain */
        {"", "x", "[0]"},          /* index chain */
        {"", "f", "()"},           /* call chain */
        {"sum(x, axis=", "0", ")"}, /* keyword arguments */
        {"x[", "0", ":1]"},        /* slices */
    };
    for (size_t k = 0; k < sizeof forms / sizeof forms[0]; k++) {
        sbuf b = {0};
        put(&b, HEAD "def f(x):\n    return ");
        rep(&b, forms[k].open, 50000);
        put(&b, "%s", forms[k].leaf);
        rep(&b, forms[k].close, 50000);
        put(&b, "\nrun f\n");
        expect_error("plan", b.s, "4:", deep);
        expect_error("run", b.s, "4:", deep);
        free(b.s);
    }
    /* the exact spot: the 201st level opened */
    sbuf b = {0};
    put(&b, HEAD "def f(x):\n    return ");
    rep(&b, "(", 300);
    put(&b, "x");
    rep(&b, ")", 300);
    put(&b, "\nrun f\n");
    /* parse_expr is entered once for the return value, then once per '(' */
    expect_error("run", b.s, "4:211: ", deep);
    free(b.s);
}

Test(lang, deep_blocks_tuples_and_calls_are_errors, .timeout = 120)
{
    /* defs nested by indentation */
    sbuf b = {0};
    put(&b, HEAD);
    for (int k = 0; k < 2000; k++) {
        rep(&b, " ", k);
        put(&b, "def f%d(x):\n", k);
    }
    rep(&b, " ", 2000);
    put(&b, "return x\n");
    expect_error("run", b.s, "131:", "blocks nested too deeply (more than 127 levels)");
    free(b.s);
    /* a tuple nested by a loop, a million levels: walked by the results and by grad */
    expect_error("run",
                 HEAD "def f(x):\n    t = x\n    for i in range(1000000):\n        t = (t,)\n"
                      "    return t\nrun f\n",
                 "6:13: ", "tuple nested too deeply (more than 200 levels)");
    expect_error("plan",
                 HEAD "def g(t):\n    return 1.0\ndef f(x):\n    t = x\n"
                      "    for i in range(1000000):\n        t = (t,)\n    return grad(g)(t)\nrun f\n",
                 "8:13: ", "tuple nested too deeply (more than 200 levels)");
    /* grad with a tuple of argnums wraps its grads in a tuple, in a loop */
    expect_error("run",
                 HEAD "def g(t):\n    return sum(x)\ndef f(x):\n    t = x\n"
                      "    for i in range(1000):\n        t = grad(g, argnums=(0,))(t)\n"
                      "    return x\nrun f\n",
                 "8:", "tuple nested too deeply (more than 200 levels)");
    /* recursion */
    expect_error("run", HEAD "def f(x):\n    return f(x)\nrun f\n", "4:12: ",
                 "calls nested too deeply (more than 64 levels; recursion?) in f");
    /* 60 functions, each calling the next 190 calls deep: every expression is
     * within the limit, their nesting across calls is not */
    sbuf c = {0};
    put(&c, HEAD);
    for (int k = 0; k < 60; k++) {
        put(&c, "def f%d(x):\n    return ", k);
        rep(&c, "relu(", 190);
        if (k == 59)
            put(&c, "x");
        else
            put(&c, "f%d(x)", k + 1);
        rep(&c, ")", 190);
        put(&c, "\n");
    }
    put(&c, "run f0\n");
    expect_error("plan", c.s, "",
                 "expression nested too deeply (more than 800 levels, counting the function "
                 "calls it is inside)");
    free(c.s);
}

/* Nesting below the limits evaluates as written. */
Test(lang, nesting_within_the_limits_computes_the_right_values, .timeout = 120)
{
    sbuf b = {0};
    put(&b, HEAD "def f(x):\n    return ");
    rep(&b, "- (", 99);
    put(&b, "x - 1.0");
    rep(&b, ")", 99);
    put(&b, "\nrun f\n");
    size_t n;
    double *v = eval_output(b.s, 0, &n);
    for (size_t k = 0; k < n; k++) /* 99 negations */
        cr_assert_eq(v[k], -((double)k - 1.0), "element %zu: %g", k, v[k]);
    free(v);
    free(b.s);
    /* a chain of 50,000 statements made by a loop, and its gradient */
    const char *loop = HEAD "def g(x):\n    for i in range(50000):\n        x = x * 1.0\n"
                            "    return sum(x * x)\n"
                            "def f(x):\n    return grad(g)(x)\nrun f\n";
    v = eval_output(loop, 0, &n);
    for (size_t k = 0; k < n; k++)
        cr_assert_eq(v[k], 2.0 * (double)k, "element %zu: %g", k, v[k]);
    free(v);
}

/* --- Item: JAX's weak types: a Python scalar takes the array's dtype -------------- */

/* f32 arithmetic rounded to bf16 (what XLA computes for one bf16 op). */
static double bf(double v) { return ss__bf16_to_f32(ss__f32_to_bf16((float)v)); }

#define BF16_HEAD "mesh d=2 m=4\nx = input(bf16[8, 16], P('d', 'm'), normal(seed=1, stddev=1.0))\n"

Test(lang, a_python_scalar_next_to_bf16_is_bf16_forward_and_in_grad, .timeout = 120)
{
    const char *text = BF16_HEAD
        "def g(x):\n    return sum(x * 0.1)\n"
        "def f(x):\n    return x * 0.1, 0.1 * x + 1.0, grad(g)(x), x - 3, maximum(x, 0.3), "
        "x / 3.0\n"
        "run f\ncheck f\n";
    const double k01 = bf(0.1); /* jnp.asarray(0.1, bfloat16) = 0.10009765625 */
    cr_assert_eq(k01, 0.10009765625);
    for (int out = 0; out < 6; out++) {
        size_t n;
        ss_dtype dt;
        double *x, *v = eval_output_typed(text, out, &n, &dt, &x);
        cr_assert_eq(dt, SS_BF16, "output %d is %s, not bf16", out, ss_dtype_name(dt));
        for (size_t k = 0; k < n; k++) {
            double want = out == 0   ? bf(x[k] * k01)
                          : out == 1 ? bf(bf(k01 * x[k]) + 1.0)
                          : out == 2 ? k01 /* the cotangent 1 times bf16(0.1) */
                          : out == 3 ? bf(x[k] - 3.0)
                          : out == 4 ? fmax(x[k], bf(0.3))
                                     : bf(x[k] / bf(3.0));
            cr_assert_eq(v[k], want, "output %d element %zu: x %.9g got %.9g want %.9g", out, k,
                         x[k], v[k], want);
        }
        free(v);
        free(x);
    }
    /* the sharded run gives the same bits */
    const char *args[] = {"run", "t.shard"};
    result r = run_cli(text, 2, args);
    cr_assert_eq(r.rc, 0, "%.400s", r.err);
    for (int out = 0; out < 6; out++) {
        char line[64];
        snprintf(line, sizeof line, "f[%d]", out);
        const char *at = strstr(r.out, line);
        cr_assert(at && strstr(at, "ok (bitwise equal)") &&
                      strstr(at, "ok (bitwise equal)") < strchr(at, '\n'),
                  "%s", r.out);
    }
    result_free(&r);
}

Test(lang, layer_norm_and_optimizers_on_bf16_differentiate_in_bf16, .timeout = 120)
{
    /* d/dx sum(w * layer_norm(x)) = (w - mean(w) - y mean(w y)) / sigma per row */
    const char *text = BF16_HEAD
        "w = input(bf16[16], P(None), iota)\n"
        "def g(x, w):\n    return sum(layer_norm(x) * w)\n"
        "def f(x, w):\n    return grad(g)(x, w)\n"
        "run f\ncheck f\n";
    size_t n;
    ss_dtype dt;
    double *x, *v = eval_output_typed(text, 0, &n, &dt, &x);
    cr_assert_eq(dt, SS_BF16);
    cr_assert_eq(n, 128);
    double maxerr = 0, maxref = 0;
    for (int r = 0; r < 8; r++) {
        const double *xr = x + 16 * r;
        double mu = 0, var = 0, mw = 0, mwy = 0, y[16];
        for (int c = 0; c < 16; c++)
            mu += xr[c] / 16;
        for (int c = 0; c < 16; c++)
            var += (xr[c] - mu) * (xr[c] - mu) / 16;
        double sigma = sqrt(var + 1e-6);
        for (int c = 0; c < 16; c++) {
            y[c] = (xr[c] - mu) / sigma;
            mw += (double)c / 16;
            mwy += (double)c * y[c] / 16;
        }
        for (int c = 0; c < 16; c++) {
            double want = ((double)c - mw - y[c] * mwy) / sigma;
            maxerr = fmax(maxerr, fabs(v[16 * r + c] - want));
            maxref = fmax(maxref, fabs(want));
        }
    }
    /* a dozen bf16 roundings (2^-9 relative each) on the way */
    cr_assert(maxerr <= 0.05 * maxref, "max error %g, max |grad| %g", maxerr, maxref);
    free(v);
    free(x);
    /* optimizers' constants meet bf16 params and moments: sgd trains and
     * matches the single-device run, adam builds (bias corrections cast to
     * the moments' dtype as optax does) */
    const char *train = BF16_HEAD
        "w = param(bf16[16, 16], P(None, 'm'), xavier_normal(seed=2))\n"
        "def loss(x, w):\n    return mean(relu(x @ w) * 0.5 + 0.25)\n"
        "def step(x, w):\n    l, g = value_and_grad(loss, argnums=1)(x, w)\n"
        "    return l, OPT(w, g, learning_rate=0.1)\n"
        "run step steps=3\ncheck step\n";
    static const char *const opts[] = {"sgd", "adam"};
    for (int k = 0; k < 2; k++) {
        char buf[1024], *at;
        snprintf(buf, sizeof buf, "%s", train);
        at = strstr(buf, "OPT");
        memmove(at + strlen(opts[k]), at + 3, strlen(at + 3) + 1);
        memcpy(at, opts[k], strlen(opts[k]));
        const char *args[] = {k ? "plan" : "run", "t.shard"};
        result r = run_cli(buf, 2, args);
        cr_assert_eq(r.rc, 0, "%s: %.400s", opts[k], r.err);
        cr_assert(k || strstr(r.out, "step[1]"), "%s", r.out);
        result_free(&r);
    }
}

/* --- Item: numbers past int64 are clear errors -------------------------------------- */

Test(lang, integers_and_sizes_past_int64_are_errors_naming_the_value_and_the_limit)
{
    const char *text = "mesh d=2\nN = 4\nx = input(f32[N, 16], P('d'), ones)\n"
                       "def f(x):\n    return x\nrun f\n";
    const char *args[] = {"plan", "t.shard", "--set", "N=99999999999999999999999"};
    result r = run_cli(text, 4, args);
    cr_assert_eq(r.rc, 2);
    cr_assert(strstr(r.err, "--set N: 99999999999999999999999 is out of range (int64: "
                            "-9223372036854775808 to 9223372036854775807)"), "%s", r.err);
    result_free(&r);
    args[3] = "N=-99999999999999999999999";
    r = run_cli(text, 4, args);
    cr_assert_eq(r.rc, 2);
    cr_assert(strstr(r.err, "--set N: -99999999999999999999999 is out of range"), "%s", r.err);
    result_free(&r);
    expect_error("plan", "mesh d=2\nN = 9223372036854775808\n", "2:5: ",
                 "integer '9223372036854775808' is out of range (int64: at most "
                 "9223372036854775807)");
    expect_error("plan", "mesh d=2\nN = 9223372036854775807 + 1\n", "2:25: ",
                 "integer overflow");
    /* 2^32 * 2^32 * 16 elements; 2^61 f32 elements = 2^63 bytes */
    expect_error("plan",
                 "mesh d=2\nx = input(f32[4294967296, 4294967296, 16], P('d'), ones)\n"
                 "def f(x):\n    return x\nrun f\n",
                 "2:14: ",
                 "shape too large: f32[4294967296, 4294967296, 16] has more elements than int64 "
                 "holds (at most 9223372036854775807)");
    expect_error("plan",
                 "mesh d=2\nx = input(f32[2305843009213693952], P('d'), ones)\n"
                 "def f(x):\n    return x\nrun f\n",
                 "2:14: ",
                 "shape too large: f32[2305843009213693952] has more bytes than int64 holds");
    /* one below the limits is accepted by the language (plan then says it does not fit) */
    args[3] = "N=9223372036854775807";
    r = run_cli(text, 4, args);
    cr_assert(!strstr(r.err, "out of range"), "%s", r.err);
    result_free(&r);
}

/* --- Item: JAX's spellings ------------------------------------------------------------ */

/* The same program in shardsim's names and in JAX's: the same values. */
Test(lang, jax_spellings_compute_what_the_shardsim_names_do, .timeout = 120)
{
    const char *head = "mesh d=2 m=4\nx = input(f32[8, 16], P('d', 'm'), normal(seed=3))\n"
                       "w = input(f32[16, 4], P('m', None), normal(seed=4))\n"
                       "def blk(a):\n    return psum(a, 'm')\n";
    static const char *const pairs[][2] = {
        {"relu(x @ w)", "jax.nn.relu(jnp.dot(x, w))"},
        {"matmul(x, w)", "jnp.matmul(x, w)"},
        {"sum(x, axis=0) + mean(x) + max(x) + min(x)",
         "jnp.sum(x, axis=0) + jnp.mean(x) + jnp.max(x) + jax.numpy.min(x)"},
        {"gelu(x) + softmax(x) + log_softmax(x) + exp(x) + tanh(x)",
         "jax.nn.gelu(x) + jax.nn.softmax(x) + jax.nn.log_softmax(x) + jnp.exp(x) + jnp.tanh(x)"},
        {"transpose(x) + reshape(x, (16, 8))", "jnp.transpose(x) + x.T * 0.0 + x.reshape(16, 8)"},
        {"constrain(x, P('d', None))", "jax.lax.with_sharding_constraint(x, P('d', None))"},
        {"neg(x) + pow(x, 2.0)", "jnp.negative(x) + jnp.power(x, 2.0)"},
        {"shard_map(blk, in_specs=P('d', 'm'), out_specs=P('d', None))(x)",
         "shard_map(lambda_blk, in_specs=P('d', 'm'), out_specs=P('d', None))(x)"},
    };
    for (size_t k = 0; k < sizeof pairs / sizeof pairs[0]; k++) {
        double *v[2];
        size_t n[2];
        for (int j = 0; j < 2; j++) {
            char text[2048];
            snprintf(text, sizeof text,
                     "%sdef lambda_blk(a):\n    return jax.lax.psum(a, 'm')\n"
                     "def f(x, w):\n    return %s\nrun f\n",
                     head, pairs[k][j]);
            v[j] = eval_output(text, 0, &n[j]);
        }
        cr_assert_eq(n[0], n[1], "%s", pairs[k][1]);
        for (size_t i = 0; i < n[0]; i++)
            cr_assert_eq(v[0][i], v[1][i], "%s: element %zu", pairs[k][1], i);
        free(v[0]);
        free(v[1]);
    }
    /* astype: jnp.bfloat16, 'bfloat16' and back; values rounded as bf16 */
    const char *text = "mesh d=2 m=4\nx = input(f32[8, 16], P('d', 'm'), normal(seed=3))\n"
                       "def f(x):\n    return x.astype(jnp.bfloat16), "
                       "x.astype('bfloat16').astype(jnp.float32), x.astype(jnp.float32)\nrun f\n";
    for (int out = 0; out < 3; out++) {
        size_t n;
        ss_dtype dt;
        double *x, *v = eval_output_typed(text, out, &n, &dt, &x);
        cr_assert_eq(dt, out == 0 ? SS_BF16 : SS_F32);
        for (size_t i = 0; i < n; i++)
            cr_assert_eq(v[i], out == 2 ? x[i] : bf(x[i]), "astype %d element %zu", out, i);
        free(v);
        free(x);
    }
}

/* jnp's elementwise functions, comparisons and where, against C's math on
 * the input's values. */
Test(lang, elementwise_functions_comparisons_and_where_compute_their_definitions,
     .timeout = 120)
{
    const char *text = "mesh d=2 m=4\nx = input(f32[8, 16], P('d', 'm'), normal(seed=3))\n"
                       "def f(x):\n    return (jnp.where(jnp.greater(x, 0.25), x, -2.0 * x), "
                       "jnp.abs(x) + jnp.floor(x) * 4.0 + jnp.ceil(x) * 16.0, jnp.round(4.0 * x), "
                       "jnp.less_equal(x, 0.0), x.astype(jnp.int32), 3.0 * x.astype(jnp.int8), "
                       "jnp.fmod(x, 0.3), jnp.sin(x), jax.nn.sigmoid(x))\nrun f\n";
    for (int out = 0; out < 9; out++) {
        size_t n;
        ss_dtype dt;
        double *x, *v = eval_output_typed(text, out, &n, &dt, &x);
        static const ss_dtype want_dt[] = {SS_F32, SS_F32, SS_F32, SS_BOOL, SS_I32,
                                           SS_I8,  SS_F32, SS_F32, SS_F32};
        cr_assert_eq(dt, want_dt[out], "output %d: dtype %s", out, ss_dtype_name(dt));
        for (size_t i = 0; i < n; i++) {
            float xf = (float)x[i];
            double w = out == 0   ? (xf > 0.25f ? xf : -2.0f * xf)
                       : out == 1 ? (double)(fabsf(xf) + floorf(xf) * 4.0f + ceilf(xf) * 16.0f)
                       : out == 2 ? (double)nearbyintf(4.0f * xf)
                       : out == 3 ? (double)(xf <= 0.0f)
                       : out == 4 ? trunc(xf)
                       : out == 5 ? (double)(int8_t)(3 * (int)trunc(xf))
                       : out == 6 ? (double)fmodf(xf, 0.3f)
                       : out == 7 ? sin((double)xf)
                                  : 1.0 / (1.0 + exp(-(double)xf));
            if (out >= 7)
                cr_assert(fabs(v[i] - w) <= 2e-7 * fabs(w) + 1e-7, "output %d element %zu: %.9g, want %.9g",
                          out, i, v[i], w);
            else
                cr_assert_eq(v[i], w, "output %d element %zu: %.9g, want %.9g (x %.9g)", out, i,
                             v[i], w, x[i]);
        }
        free(v);
        free(x);
    }
}

/* Names that do not exist here are answered with the right one. */
Test(lang, jax_spellings_that_differ_or_are_missing_name_what_to_write)
{
    static const char *const cases[][3] = {
        {"x.relu()", "4:14: ", "'relu' is a function, not a method: write relu(x, ...)"},
        {"x.sums()", "4:14: ", "no method 'sums' (did you mean sum? methods: reshape, "
                               "transpose, sum, mean, max, min, astype)"},
        {"jnp.resahpe(x, 2)", "4:16: ", "jnp.resahpe is not supported; shardsim has reshape"},
        {"jnp.clip(x, 0, 1)", "4:16: ", "jnp.clip is not supported; write "
                                        "maximum(minimum(x, hi), lo)"},
        {"jnp.linalg.norm(x)", "4:23: ", "jnp.linalg.norm is not supported"},
        {"optax.adam(0.1)", "4:18: ", "optax.adam is not supported as a GradientTransformation; "
                                      "shardsim has adam(params, grads, learning_rate=...)"},
        {"foo.bar(x)", "4:16: ", "name 'foo' is not defined"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        char text[512];
        snprintf(text, sizeof text,
                 "mesh d=2 m=4\nx = input(f32[8, 16], P('d', 'm'), iota)\ndef f(x):\n"
                 "    return %s\nrun f\n", cases[k][0]);
        expect_error("plan", text, cases[k][1], cases[k][2]);
    }
}

/* --- Item: errors point at the op that caused them, with the sizes ------------------ */

Test(lang, an_uneven_constraint_reaches_a_slice_which_gathers_it_first)
{
    /* Uneven shards run through elementwise ops (tests/test_uneven.c); a
     * slice cannot compute on padded blocks, so the constrained value is
     * gathered first (lower_uneven.c): plan and run succeed, and the run
     * equals the single-device run (`check f`). */
    const char *text = "mesh d=2 m=4\nx = input(f32[8, 6], P('d', None), iota)\n"
                       "def f(x):\n    y = x * 2.0\n    z = y + 1.0\n"
                       "    w = constrain(z, P(None, 'm'))\n    return w[0:4, 1:5]\n"
                       "run f\ncheck f\n";
    const char *plan[] = {"plan", "t.shard"}, *run[] = {"run", "t.shard"};
    result r = run_cli(text, 2, plan);
    cr_assert_eq(r.rc, 0, "plan: %.300s", r.err);
    result_free(&r);
    r = run_cli(text, 2, run);
    cr_assert_eq(r.rc, 0, "run: %.300s", r.err);
    cr_assert(strstr(r.out, "ok ("), "%s", r.out);
    result_free(&r);
}

Test(lang, shape_errors_name_the_sizes_that_differ)
{
    const char *head = "mesh d=2\nx = input(f32[8, 1024], P('d', None), iota)\n"
                       "w = input(f32[512, 64], P(), iota)\ndef f(x, w):\n    return ";
    static const char *const cases[][3] = {
        {"x @ w", "5:14: ", "matmul: contracting dims differ: x is f32[8,1024] (dim 1 = 1024), "
                            "w is f32[512,64] (dim 0 = 512)"},
        {"jnp.dot(x, w)", "5:16: ", "dot: contracting dims differ: x is f32[8,1024] "
                                    "(dim 1 = 1024), w is f32[512,64] (dim 0 = 512)"},
        {"dot_general(x, w, (((1,), (0,)), ((), ())))", "5:12: ",
         "dot_general: contracting dims differ: lhs is f32[8,1024] (dim 1 = 1024), rhs is "
         "f32[512,64] (dim 0 = 512)"},
        {"x[:, 0:64] + w", "5:23: ", "add: shapes do not broadcast: the left operand is "
                                     "f32[8,64] (dim 0 = 8), w is f32[512,64] (dim 0 = 512)"},
        {"maximum(x, w)", "5:12: ", "maximum: shapes do not broadcast: x is f32[8,1024] "
                                    "(dim 0 = 8), w is f32[512,64] (dim 0 = 512)"},
        {"x ** w", "5:14: ", "power: shapes do not broadcast: x is f32[8,1024] "
                             "(dim 0 = 8), w is f32[512,64] (dim 0 = 512)"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        char text[512];
        snprintf(text, sizeof text, "%s%s\nrun f\n", head, cases[k][0]);
        expect_error("plan", text, cases[k][1], cases[k][2]);
    }
}
