/* test_timeline.c — memory over time and per-device timelines as data
 * (shardsim.h: ss_executable_memory_timeline, ss_context_trace_get),
 * checked against a hand count of a two-op program, against the plan's and
 * the arena's own peaks, and against the Chrome trace file the same events
 * are written to. */
#include <criterion/criterion.h>
#include <cjson/cJSON.h>
#include <shardsim.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define OK(x) cr_assert_eq((x), SS_OK, "%s: %s", #x, ss_error_message())

/* One device, no fusion: x f32[64,32] (8192 B), e = exp(x) (8192 B), s =
 * sum(e, axis 0) f32[32] (128 B), output s. */
typedef struct two_op {
    ss_mesh *m;
    ss_program *p;
    ss_executable *e;
    ss_value x, ex, s;
} two_op;

static void two_op_build(two_op *t)
{
    OK(ss_mesh_parse("d=1", 1, NULL, &t->m));
    OK(ss_program_create(t->m, &t->p));
    OK(ss_input(t->p, "x", SS_F32, 2, (int64_t[]){64, 32}, NULL, &t->x));
    OK(ss_unary(t->p, SS_EXP, t->x, &t->ex));
    OK(ss_reduce(t->p, SS_REDUCE_SUM, t->ex, 1, (int[]){0}, 0, &t->s));
    OK(ss_output(t->p, t->s, NULL));
    ss_compile_options o = {.no_fusion = 1};
    OK(ss_program_compile_with(t->p, &o, &t->e));
}

static void two_op_free(two_op *t)
{
    ss_executable_destroy(t->e);
    ss_program_destroy(t->p);
    ss_mesh_destroy(t->m);
}

static ss_memory_point *timeline(const ss_executable *e, int *n)
{
    OK(ss_executable_memory_timeline(e, NULL, 0, n));
    ss_memory_point *pts = calloc((size_t)(*n ? *n : 1), sizeof *pts);
    cr_assert(pts);
    int m = -1;
    OK(ss_executable_memory_timeline(e, pts, *n, &m));
    cr_assert_eq(m, *n);
    return pts;
}

/* Load x: 8192 live; exp: 16384; sum: 16512 (the peak: x, e and s);
 * e's last use is the sum, so it is freed next: 8320. x (an argument)
 * and s (the output, stored to the host) go last: 0 at the end. */
Test(timeline, plan_memory_of_a_two_op_program)
{
    two_op t;
    two_op_build(&t);
    int n;
    ss_memory_point *pts = timeline(t.e, &n);
    cr_assert_geq(n, 4);
    struct {
        const char *what;
        ss_value v;
        size_t live;
    } want[] = {{"load", t.x, 8192}, {"kernel", t.ex, 16384}, {"kernel", t.s, 16512}};
    for (int k = 0; k < 3; k++) {
        cr_assert_str_eq(pts[k].what, want[k].what, "point %d", k);
        cr_assert_eq(pts[k].value, want[k].v, "point %d: value %d, want %d", k,
                     (int)pts[k].value, (int)want[k].v);
        cr_assert_eq(pts[k].live_bytes, want[k].live, "point %d: %zu live, want %zu", k,
                     pts[k].live_bytes, want[k].live);
        cr_assert_eq(pts[k].peak_bytes, want[k].live, "no scratch outside dots");
        cr_assert_eq(pts[k].step, k);
    }
    int free_e = -1;
    for (int k = 3; k < n; k++)
        if (strcmp(pts[k].what, "free") == 0 && pts[k].value == t.ex)
            free_e = k;
    cr_assert_geq(free_e, 3, "exp's buffer is freed");
    cr_assert_eq(pts[free_e].live_bytes, 8192u + 128u);
    cr_assert_eq(pts[n - 1].live_bytes, 0u, "everything freed by the end");
    ss_plan plan;
    OK(ss_executable_plan(t.e, &plan));
    cr_assert_eq(plan.peak_bytes, 16512u);
    /* A short buffer: the first points, the full count. */
    ss_memory_point two[2];
    int m = -1;
    OK(ss_executable_memory_timeline(t.e, two, 2, &m));
    cr_assert_eq(m, n);
    cr_assert_eq(two[1].live_bytes, 16384u);
    free(pts);
    two_op_free(&t);
}

/* On a sharded program with a fused loop and a dot whose operands need
 * permuting (scratch while it runs), the plan's peak is the timeline's
 * highest point, reached inside the dot. */
Test(timeline, plan_peak_is_the_timelines_maximum)
{
    ss_mesh *m;
    OK(ss_mesh_parse("data=2,model=4", 8, NULL, &m));
    ss_program *p;
    OK(ss_program_create(m, &p));
    ss_spec xs, ws, os;
    OK(ss_spec_parse("P('data', None)", &xs));
    OK(ss_spec_parse("P(None, None, 'model')", &ws));
    OK(ss_spec_parse("P('data', None, 'model')", &os));
    ss_value x, w, h, g, two, y;
    OK(ss_input(p, "x", SS_F32, 3, (int64_t[]){8, 64, 16}, &xs, &x));
    OK(ss_param(p, "w", SS_F32, 3, (int64_t[]){16, 8, 256}, &ws, &w));
    /* batch b is not leading in w, j not last in x: both are permuted */
    OK(ss_einsum(p, "bij,jbk->bik", x, w, &h));
    OK(ss_unary(p, SS_TANH, h, &g));
    OK(ss_constant(p, 2.0, &two));
    OK(ss_binary(p, SS_MUL, g, two, &y));
    OK(ss_output(p, y, &os));
    ss_executable *e;
    OK(ss_program_compile(p, &e));
    int n;
    ss_memory_point *pts = timeline(e, &n);
    size_t top = 0, top_live = 0;
    int scratch = 0, fused = 0;
    for (int k = 0; k < n; k++) {
        cr_assert_geq(pts[k].peak_bytes, pts[k].live_bytes);
        scratch += pts[k].peak_bytes > pts[k].live_bytes;
        fused += strcmp(pts[k].what, "fused") == 0;
        if (pts[k].peak_bytes > top)
            top = pts[k].peak_bytes;
        if (pts[k].live_bytes > top_live)
            top_live = pts[k].live_bytes;
        if (k)
            cr_assert_gt(pts[k].step, pts[k - 1].step);
    }
    ss_plan plan;
    OK(ss_executable_plan(e, &plan));
    cr_assert_eq(top, plan.peak_bytes, "timeline max %zu, plan %zu", top, plan.peak_bytes);
    cr_assert_eq(scratch, 1, "the dot's scratch, once");
    cr_assert_gt(top, top_live, "the peak is reached inside the dot");
    cr_assert_eq(fused, 1, "tanh(h) * 2 is one fused loop");
    cr_assert_eq(pts[n - 1].live_bytes, 0u);
    free(pts);
    ss_executable_destroy(e);
    ss_program_destroy(p);
    ss_mesh_destroy(m);
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    cr_assert(f, "cannot open %s", path);
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = malloc((size_t)len + 1);
    cr_assert(s);
    cr_assert_eq(fread(s, 1, (size_t)len, f), (size_t)len);
    s[len] = '\0';
    fclose(f);
    return s;
}

static double arg(const cJSON *ev, const char *key)
{
    const cJSON *a = cJSON_GetObjectItem(cJSON_GetObjectItem(ev, "args"), key);
    return a ? a->valuedouble : 0;
}

/* Every event of every device equals the one the trace file holds for the
 * device's track, in order: kind from ph and cat, name, times (the file
 * rounds them to 1 ns), args. */
static void check_against_file(ss_context *ctx, int ndev)
{
    char path[] = "/tmp/ss_timeline_XXXXXX";
    int fd = mkstemp(path);
    cr_assert_geq(fd, 0);
    close(fd);
    OK(ss_context_trace_write(ctx, path));
    char *text = slurp(path);
    unlink(path);
    cJSON *root = cJSON_Parse(text);
    free(text);
    cr_assert(root, "the trace file is JSON");
    const cJSON *events = cJSON_GetObjectItem(root, "traceEvents");
    for (int d = 0; d < ndev; d++) {
        int i = 0;
        const cJSON *ev;
        cJSON_ArrayForEach(ev, events)
        {
            const char *ph = cJSON_GetObjectItem(ev, "ph")->valuestring;
            const cJSON *tid = cJSON_GetObjectItem(ev, "tid");
            if (strcmp(ph, "M") == 0 || !tid || tid->valueint != d)
                continue;
            ss_trace_event te;
            OK(ss_context_trace_get(ctx, d, i, &te));
            const char *cat = cJSON_GetObjectItem(ev, "cat")->valuestring;
            ss_trace_kind kind = strcmp(ph, "C") == 0   ? SS_TRACE_LIVE
                                 : strcmp(ph, "i") == 0 ? SS_TRACE_MEMORY
                                 : strcmp(cat, "kernel") == 0     ? SS_TRACE_KERNEL
                                 : strcmp(cat, "collective") == 0 ? SS_TRACE_COLLECTIVE
                                 : strcmp(cat, "wait") == 0       ? SS_TRACE_WAIT
                                                                  : SS_TRACE_RUN;
            cr_assert_eq(te.kind, kind, "device %d event %d: kind %d, the file says %s %s", d, i,
                         te.kind, ph, cat);
            cr_assert_str_eq(te.name, cJSON_GetObjectItem(ev, "name")->valuestring);
            cr_assert(fabs(te.start_us - cJSON_GetObjectItem(ev, "ts")->valuedouble) < 6e-4);
            const cJSON *dur = cJSON_GetObjectItem(ev, "dur");
            cr_assert(fabs(te.dur_us - (dur ? dur->valuedouble : 0)) < 6e-4);
            if (kind == SS_TRACE_COLLECTIVE) {
                cr_assert_eq(te.bytes, arg(ev, "bytes_in"));
                cr_assert_eq((double)te.seq, arg(ev, "seq"));
            }
            if (kind == SS_TRACE_MEMORY)
                cr_assert_eq(te.bytes, arg(ev, "bytes"));
            if (kind == SS_TRACE_MEMORY || kind == SS_TRACE_LIVE)
                cr_assert_eq(te.live, arg(ev, "live"));
            if (kind == SS_TRACE_WAIT)
                cr_assert_eq((double)te.group_size, arg(ev, "group_size"));
            i++;
        }
        cr_assert_eq(i, ss_context_trace_count(ctx, d), "device %d: %d events in the file, %d",
                     d, i, ss_context_trace_count(ctx, d));
    }
    cJSON_Delete(root);
}

/* The run's memory over time: the highest live count among the device's
 * memory events is the arena's measured peak, which is the plan's. */
Test(timeline, run_memory_matches_the_arena_and_the_plan)
{
    two_op t;
    two_op_build(&t);
    ss_context *ctx;
    ss_context_options co = {.ndevices = 1, .device_memory = 1 << 20, .threads = 1};
    OK(ss_context_create(&co, &ctx));
    OK(ss_context_trace_enable(ctx, 1));
    float *x = calloc(64 * 32, sizeof *x), s[32];
    cr_assert(x);
    OK(ss_executable_run(t.e, ctx, (const void *const[]){x}, (void *const[]){s}));
    free(x);
    int n = ss_context_trace_count(ctx, 0);
    cr_assert_gt(n, 0);
    double top = 0;
    int kernels = 0, allocs = 0, frees = 0;
    for (int i = 0; i < n; i++) {
        ss_trace_event te;
        OK(ss_context_trace_get(ctx, 0, i, &te));
        if (te.kind == SS_TRACE_MEMORY) {
            top = te.live > top ? te.live : top;
            if (strcmp(te.name, "free") == 0)
                frees++;
            else
                allocs++;
        }
        kernels += te.kind == SS_TRACE_KERNEL;
    }
    ss_memory_stats ms;
    OK(ss_device_memory_stats(ctx, 0, &ms));
    cr_assert_eq((size_t)top, ms.peak_bytes, "trace max %.0f, arena peak %zu", top,
                 ms.peak_bytes);
    cr_assert_eq(ms.peak_bytes, 16512u, "x, exp(x) and the sum, as counted by hand");
    /* x, exp(x) and s are allocated and all freed again. */
    cr_assert_eq(allocs, 3);
    cr_assert_eq(frees, 3);
    cr_assert_geq(kernels, 2, "exp and the sum at least");
    check_against_file(ctx, 1);
    ss_trace_event te;
    cr_assert_eq(ss_context_trace_get(ctx, 0, n, &te), SS_ERR_RANGE);
    cr_assert_eq(ss_context_trace_get(ctx, 1, 0, &te), SS_ERR_RANGE);
    cr_assert_eq(ss_context_trace_count(ctx, 1), 0);
    ss_context_trace_clear(ctx);
    cr_assert_eq(ss_context_trace_count(ctx, 0), 0);
    ss_context_destroy(ctx);
    two_op_free(&t);
}

/* A psum over every device of a 2x4 mesh: each device's timeline has the
 * collective (seq 1, its 16 input bytes) and, inside it, the wait for the
 * group of 8; what is left of the collective is the transfer. */
Test(timeline, collective_wait_and_transfer_per_device)
{
    ss_mesh *m;
    OK(ss_mesh_parse("x=2,y=4", 8, NULL, &m));
    ss_program *p;
    OK(ss_program_create(m, &p));
    ss_spec s;
    OK(ss_spec_parse("P('x', 'y')", &s));
    ss_value x, block, sum, out;
    OK(ss_input(p, "x", SS_F32, 2, (int64_t[]){8, 4}, &s, &x));
    OK(ss_shard_map_begin(p, 1, &x, &s, &block));
    OK(ss_psum(p, block, "x,y", SS_REDUCE_SUM, &sum));
    OK(ss_shard_map_end_unchecked(p, 1, &sum, &s, &out));
    OK(ss_output(p, out, &s));
    ss_executable *e;
    OK(ss_program_compile(p, &e));
    ss_context *ctx;
    ss_context_options co = {.ndevices = 8, .device_memory = 1 << 20, .threads = 1};
    OK(ss_context_create(&co, &ctx));
    OK(ss_context_trace_enable(ctx, 1));
    float xin[32], res[32];
    for (int k = 0; k < 32; k++)
        xin[k] = (float)k;
    OK(ss_executable_run(e, ctx, (const void *const[]){xin}, (void *const[]){res}));
    for (int d = 0; d < 8; d++) {
        ss_trace_event coll = {0}, wait = {0}, te;
        int ncoll = 0, nwait = 0;
        for (int i = 0; i < ss_context_trace_count(ctx, d); i++) {
            OK(ss_context_trace_get(ctx, d, i, &te));
            if (te.kind == SS_TRACE_COLLECTIVE)
                coll = te, ncoll++;
            if (te.kind == SS_TRACE_WAIT)
                wait = te, nwait++;
        }
        cr_assert(ncoll == 1 && nwait == 1, "device %d: %d collectives, %d waits", d, ncoll,
                  nwait);
        cr_assert_eq(coll.seq, 1);
        cr_assert_eq(coll.bytes, 16.0, "f32[4,1] in: %g", coll.bytes);
        cr_assert_eq(wait.group_size, 8);
        cr_assert_eq(wait.start_us, coll.start_us, "the wait starts at entry");
        cr_assert_leq(wait.dur_us, coll.dur_us);
    }
    check_against_file(ctx, 8);
    ss_context_destroy(ctx);
    ss_executable_destroy(e);
    ss_program_destroy(p);
    ss_mesh_destroy(m);
}
