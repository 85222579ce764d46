/* test_scenario_lang.c — the scenario language itself: inputs of any size
 * never overflow the stack (every form of nesting is an error at its
 * line:col, a flat chain of 50,000 operators just works), with values
 * compared against an independent naive computation in the test. */
#include "support.h"
#include "scenario_check.h"

#include "cli/scenario.h"

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
static double *eval_output(const char *text, int which, size_t *n)
{
    scenario sc;
    scn_overrides ov;
    memset(&ov, 0, sizeof ov);
    ss_status st = scn_load(&sc, "t.shard", text, &ov);
    cr_assert_eq(st, SS_OK, "load: %d:%d: %s", sc.err.loc.line, sc.err.loc.col, sc.err.msg);
    void **in = calloc((size_t)sc.ninputs + 1, sizeof *in);
    for (int i = 0; i < sc.ninputs; i++) {
        const scn_array *a = &sc.arrays[sc.input_array[i]];
        int64_t count = 1;
        for (int d = 0; d < a->rank; d++)
            count *= a->shape[d];
        in[i] = malloc((size_t)count * 8 + 8);
        scn_init_fill(a, in[i]);
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
    double *r = malloc(sizeof *r * (size_t)count[which]);
    for (int64_t k = 0; k < count[which]; k++)
        r[k] = scn_elem_get(dt[which], out[which], (size_t)k);
    *n = (size_t)count[which];
    for (int i = 0; i < sc.ninputs; i++)
        free(in[i]);
    for (int j = 0; j < sc.noutputs; j++)
        free(out[j]);
    free(in);
    free(out);
    scn_free(&sc);
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
