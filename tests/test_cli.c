/* test_cli.c — the shardsim command end to end: `show` and `rules` output
 * (text and JSON) checked against the conformance vectors and independent
 * arithmetic, and every kind of bad input ending in one line and status 2. */
#include "support.h"

#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static cJSON *run_json(const char *args, int want_rc)
{
    char *out, *err;
    int rc = ts_run_cli(args, &out, &err);
    cr_assert_eq(rc, want_rc, "shardsim %s: exit %d, expected %d; stderr: %s", args, rc, want_rc,
                 err);
    cJSON *j = cJSON_Parse(out);
    cr_assert(j != NULL, "shardsim %s printed invalid JSON: %s", args, out);
    free(out);
    free(err);
    return j;
}

Test(cli, show_json_shards_follow_the_mesh)
{
    cJSON *j = run_json("show --mesh data=2,model=4 --shape 8,1024 --spec data,None --json", 0);
    cr_assert_str_eq(cJSON_GetObjectItem(j, "hlo_sharding")->valuestring,
                     "{devices=[2,1,4]<=[8] last_tile_dim_replicate}");
    cr_assert_str_eq(cJSON_GetObjectItem(j, "dtype")->valuestring, "f32");
    const cJSON *mesh = cJSON_GetObjectItem(j, "mesh");
    cr_assert_str_eq(cJSON_GetArrayItem(cJSON_GetObjectItem(mesh, "axes"), 1)->valuestring,
                     "model");
    int64_t ss[2];
    ts_ints(cJSON_GetObjectItem(j, "shard_shape"), ss, 2);
    cr_assert(ss[0] == 4 && ss[1] == 1024);
    const cJSON *shards = cJSON_GetObjectItem(j, "shards");
    cr_assert_eq(cJSON_GetArraySize(shards), 8);
    for (int d = 0; d < 8; d++) {
        const cJSON *s = cJSON_GetArrayItem(shards, d);
        /* Row block = data coordinate = d / 4; replicas along model = d % 4. */
        cr_assert_eq(cJSON_GetObjectItem(s, "device")->valueint, d);
        const cJSON *idx = cJSON_GetObjectItem(s, "index");
        int64_t r0[2], r1[2];
        ts_ints(cJSON_GetArrayItem(idx, 0), r0, 2);
        ts_ints(cJSON_GetArrayItem(idx, 1), r1, 2);
        cr_assert(r0[0] == (d / 4) * 4 && r0[1] == (d / 4) * 4 + 4, "device %d rows", d);
        cr_assert(r1[0] == 0 && r1[1] == 1024, "device %d cols", d);
        cr_assert_eq(cJSON_GetObjectItem(s, "replica_id")->valueint, d % 4);
        cr_assert_eq(cJSON_GetObjectItem(s, "bytes")->valuedouble, 4 * 1024 * 4);
    }
    const cJSON *spec = cJSON_GetObjectItem(j, "spec");
    cr_assert_str_eq(cJSON_GetArrayItem(spec, 0)->valuestring, "data");
    cr_assert(cJSON_IsNull(cJSON_GetArrayItem(spec, 1)));
    cJSON_Delete(j);
}

/* The picture in --json output is the conformance text, byte for byte. */
static void picture_matches(const char *case_name, const char *args)
{
    cJSON *cases = ts_load_json("conformance/visualize.json");
    const cJSON *c = ts_find_case(cases, case_name);
    cr_assert(c != NULL, "no case %s", case_name);
    cJSON *j = run_json(args, 0);
    cr_assert_str_eq(cJSON_GetObjectItem(j, "picture")->valuestring,
                     cJSON_GetObjectItem(c, "expected")->valuestring, "%s", case_name);
    cJSON_Delete(j);
    cJSON_Delete(cases);
}

Test(cli, show_picture_is_jax_text)
{
    picture_matches("full_sharding",
                    "show --mesh x=8,y=4 --devices 32 --shape 8,8 --spec x,y --json");
    picture_matches("sharding_with_replication_2",
                    "show --mesh x=4,y=2 --shape 8,8 --spec None,y --json");
    picture_matches("tpu_nb_P_b_a", "show --mesh a=4,b=2 --device-ids 0,1,2,3,6,7,4,5 "
                                    "--platform TPU --shape 8192,8192 --spec \"P('b', 'a')\" "
                                    "--json");
}

Test(cli, show_text_has_picture_hlo_and_table)
{
    char *out, *err;
    int rc = ts_run_cli("show --mesh data=2,model=4 --shape 8,16 --spec 'data,model' "
                        "--no-color",
                        &out, &err);
    cr_assert_eq(rc, 0, "%s", err);
    cr_assert(strstr(out, "HLO sharding: {devices=[2,4]<=[8]}"), "%s", out);
    cr_assert(strstr(out, "│  CPU 0   │"), "%s", out);
    cr_assert(strstr(out, "[4:8, 12:16]"), "device 7's slice missing:\n%s", out);
    cr_assert(strstr(out, "8 distinct shards"), "%s", out);
    cr_assert_null(strstr(out, "squeezes"), "no squeeze note for a narrow picture");
    free(out);
    free(err);
    /* A wide array: JAX's picture loses its labels; the note says so. */
    rc = ts_run_cli("show --mesh data=2,model=4 --shape 8,1024 --spec 'data,model' --no-color",
                    &out, &err);
    cr_assert_eq(rc, 0, "%s", err);
    cr_assert(strstr(out, "rich squeezes it"), "%s", out);
    free(out);
    free(err);
}

Test(cli, show_hlo_string_back_to_a_spec)
{
    /* Shardy export vector sdy_m0_a: P('axis_2', ('axis_0','axis_1')). */
    cJSON *j = run_json("show --mesh axis_0=2,axis_1=4,axis_2=4 --devices 32 --shape 64,64 "
                        "--hlo '{devices=[4,8]<=[8,4]T(1,0)}' --json",
                        0);
    const cJSON *spec = cJSON_GetObjectItem(j, "spec");
    cr_assert_str_eq(cJSON_GetArrayItem(spec, 0)->valuestring, "axis_2");
    const cJSON *t = cJSON_GetArrayItem(spec, 1);
    cr_assert_str_eq(cJSON_GetArrayItem(t, 0)->valuestring, "axis_0");
    cr_assert_str_eq(cJSON_GetArrayItem(t, 1)->valuestring, "axis_1");
    cr_assert_str_eq(cJSON_GetObjectItem(j, "hlo_sharding")->valuestring,
                     "{devices=[4,8]<=[8,4]T(1,0)}");
    cJSON_Delete(j);
}

Test(cli, show_logical_names_with_rules)
{
    cJSON *j = run_json("show --mesh data=2,model=4 --shape 8,1024 --spec batch,hidden "
                        "--rules batch=data,hidden=model --json",
                        0);
    cr_assert_str_eq(cJSON_GetObjectItem(j, "hlo_sharding")->valuestring,
                     "{devices=[2,4]<=[8]}");
    cJSON_Delete(j);
}

Test(cli, show_rank3_draws_one_picture_per_leading_block)
{
    char *out, *err;
    int rc = ts_run_cli("show --mesh data=2,model=4 --shape 4,8,16 --spec data,None,model "
                        "--no-color",
                        &out, &err);
    cr_assert_eq(rc, 0, "%s", err);
    cr_assert(strstr(out, "[0:2, :, :]") && strstr(out, "[2:4, :, :]"), "%s", out);
    free(out);
    free(err);
}

static void expect_error(const char *args, const char *fragment)
{
    cJSON *j = run_json(args, 2);
    const cJSON *e = cJSON_GetObjectItem(j, "error");
    cr_assert(e && cJSON_IsString(e), "shardsim %s: no error field", args);
    cr_assert(strstr(e->valuestring, fragment), "shardsim %s: '%s' lacks '%s'", args,
              e->valuestring, fragment);
    cr_assert_null(strchr(e->valuestring, '\n'), "error is not one line");
    cJSON_Delete(j);
}

Test(cli, show_errors_are_jax_errors)
{
    expect_error("show --mesh x=4,y=2 --shape 8,2 --spec z --json",
                 "Resource axis: z of P('z',) is not found in mesh: ('x', 'y').");
    expect_error("show --mesh x=4,y=2 --shape 8,3 --spec x,y --json",
                 "implies that array axis 1 is partitioned 2 times, but the dimension size is 3 "
                 "(full shape: (8, 3), per-dimension tiling factors: [4, 2] should evenly "
                 "divide the shape)");
    expect_error("show --mesh x=4,y=2 --shape 8,8 --spec x,x --json",
                 "has duplicate entries for `x`");
    expect_error("show --mesh x=4,y=2 --shape 8 --spec x,y --json",
                 "is only valid for values of rank at least 2, but was applied to a value of "
                 "rank 1.");
    expect_error("show --mesh x=4,y=4 --shape 8,8 --json",
                 "Number of devices 8 must be >= the product of mesh_shape (4, 4)");
    expect_error("show --mesh x=2,x=4 --shape 8 --json", "axis name 'x' appears twice");
    expect_error("show --mesh x=-1,y=-1 --shape 8 --json", "both -1");
    expect_error("show --mesh x=8 --shape 8 --spec \"P('x'\" --json", "spec");
    expect_error("show --mesh x=8 --shape 8,a --json", "--shape '8,a'");
    expect_error("show --mesh x=8 --shape 8 --dtype f33 --json", "unknown dtype 'f33'");
    expect_error("show --mesh x=8 --shape 8 --frobnicate --json", "unknown option");
    expect_error("show --shape 8 --json", "--mesh is required");
    expect_error("show --mesh x=2,y=4 --shape 8,8 --hlo '{devices=[3,1]<=[3]}' --json",
                 "{devices=[3,1]<=[3]}");
    expect_error("show --mesh x=2,y=4 --shape 8,8 --hlo '{devices=[2,4]<=[8]' --json", "column");
    expect_error("show --mesh x=2,y=4 --shape 8,8 --spec x --hlo '{replicated}' --json",
                 "--hlo replaces --spec");
    expect_error("show --mesh x=8 --shape 8 --device-ids 0,1 --json", "--device-ids lists 2");
    expect_error("show --mesh x=4 --shape 8 --device-ids 0,1,1,2 --json", "appears twice");
}

Test(cli, show_error_without_json_is_one_stderr_line)
{
    char *out, *err;
    int rc = ts_run_cli("show --mesh x=4,y=2 --shape 8,3 --spec x,y", &out, &err);
    cr_assert_eq(rc, 2);
    cr_assert_str_eq(out, "");
    cr_assert(strncmp(err, "shardsim show: Sharding NamedSharding(", 38) == 0, "%s", err);
    cr_assert_eq(strchr(err, '\n'), err + strlen(err) - 1, "one line: %s", err);
    free(out);
    free(err);
}

Test(cli, rules_resolves_like_flax)
{
    /* Conformance L20 (flax#1702, fixed by PR #1703): 'embed' skips nothing
     * here, its first rule 'model' is free, so it gets 'model'. */
    char *out, *err;
    int rc = ts_run_cli("rules --rules 'batch=data,vocab=model,mlp=model,heads=model,"
                        "joined_kv=None,kv=None,embed=model,embed=data,relpos_buckets=None,"
                        "length=None,layers=None,stack=None' --names batch,length,embed",
                        &out, &err);
    cr_assert_eq(rc, 0, "%s", err);
    cr_assert_str_eq(out, "P('data', None, 'model')\n");
    free(out);
    free(err);
    cJSON *j = run_json("rules --rules 'a=(model,replica),b=data' --names a,b --json", 0);
    const cJSON *spec = cJSON_GetObjectItem(j, "spec");
    cr_assert_str_eq(cJSON_GetArrayItem(cJSON_GetArrayItem(spec, 0), 1)->valuestring, "replica");
    cr_assert_str_eq(cJSON_GetArrayItem(spec, 1)->valuestring, "data");
    cJSON_Delete(j);
}

Test(cli, rules_with_mesh_drops_size_one_axes)
{
    cJSON *j = run_json("rules --rules 'batch=(fsdp,tensor),seq=tensor_sequence' "
                        "--names batch,seq --mesh fsdp=8,tensor=1,tensor_sequence=1 --json",
                        0);
    const cJSON *spec = cJSON_GetObjectItem(j, "spec");
    cr_assert_str_eq(cJSON_GetArrayItem(spec, 0)->valuestring, "fsdp");
    cr_assert(cJSON_IsNull(cJSON_GetArrayItem(spec, 1)));
    cJSON_Delete(j);
}

Test(cli, rules_errors)
{
    expect_error("rules --rules foo=data --names foo,foo --json",
                 "Unsupported: Dimensions ('foo',) occur more than once in array names.");
    expect_error("rules --rules foo=data --json", "--rules and --names are required");
    expect_error("rules --rules 'mlp=model,embed=model' --names mlp,embed --strict --json",
                 "embed");
}

/* Sizes past int64 are errors naming the sizes, never wrapped (the shape
 * below printed "0 B per device" and exit 0; the mesh overflowed into
 * "device count -2"). */
Test(cli, show_sizes_past_int64_are_errors)
{
    expect_error("show --mesh data=2,model=4 --shape 4294967296,4294967296,16 --spec data,model "
                 "--json",
                 "array shape (4294967296, 4294967296, 16) has more than 2^63 - 1 elements");
    expect_error("show --mesh data=2,model=4 --shape 2147483648,1073741824 --spec data,model "
                 "--json",
                 "f32 array of shape (2147483648, 1073741824) has more than 2^63 - 1 bytes");
    expect_error("show --mesh a=2,b=9223372036854775807 --shape 8,8 --spec a,b --json",
                 "Number of devices 8 must be >= the product of mesh_shape "
                 "(2, 9223372036854775807)");
    expect_error("show --mesh a=2,b=99999999999999999999 --shape 8,8 --json",
                 "beyond 64-bit integers");
    expect_error("show --mesh a=2 --shape 99999999999999999999 --json",
                 "--shape '99999999999999999999': expected an integer");
    /* 2^40 i8 elements sharded 2 x 4: 128 GiB per device, 1 TiB in all. */
    cJSON *j = run_json("show --mesh data=2,model=4 --shape 1048576,1048576 --dtype i8 "
                        "--spec data,model --json",
                        0);
    const cJSON *s0 = cJSON_GetArrayItem(cJSON_GetObjectItem(j, "shards"), 0);
    cr_assert_eq(cJSON_GetObjectItem(s0, "bytes")->valuedouble, 137438953472.0);
    cJSON_Delete(j);
}

/* A zero device memory says why (it printed "--device-memory: " and no
 * reason); so does the scenario statement. */
Test(cli, zero_device_memory_says_why)
{
    const char *forms[] = {"0", "0B", "0.0GiB", "0KiB"};
    for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++) {
        char args[256];
        snprintf(args, sizeof args, "run %s/megatron.shard --device-memory %s --json",
                 getenv("SS_SCENARIOS"), forms[i]);
        expect_error(args, "--device-memory: must be more than 0 bytes");
        snprintf(args, sizeof args, "plan %s/megatron.shard --device-memory=%s --json",
                 getenv("SS_SCENARIOS"), forms[i]);
        expect_error(args, "--device-memory: must be more than 0 bytes");
    }
    char path[] = "/tmp/ss_cli_dm_XXXXXX";
    int fd = mkstemp(path);
    cr_assert(fd >= 0);
    const char *text = "mesh d=2\ndevice_memory 0B\nx = input(f32[8], P(), ones)\n"
                       "def f(x):\n    return x\nrun f\n";
    cr_assert_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    close(fd);
    char *out, *err, args[256];
    snprintf(args, sizeof args, "run %s", path);
    int rc = ts_run_cli(args, &out, &err);
    unlink(path);
    cr_assert_eq(rc, 2, "exit %d: %s", rc, err);
    cr_assert(strstr(err, ":2:15: device_memory: must be more than 0 bytes"), "%s", err);
    free(out);
    free(err);
}

/* plan --device: the chip's HBM is the capacity unless --device-memory
 * says otherwise, the plan's peak is never above the plan for shardsim's
 * own devices by more than TPU tiling adds, and run refuses it. */
Test(cli, plan_device_sets_capacity_and_accounting)
{
    char args[256], *out, *err;
    snprintf(args, sizeof args, "plan %s/megatron.shard --device tpu-v5p --json",
             getenv("SS_SCENARIOS"));
    cr_assert_eq(ts_run_cli(args, &out, &err), 0, "%s", err);
    cJSON *j = cJSON_Parse(out);
    cr_assert(j, "%s", out);
    const cJSON *mem = cJSON_GetObjectItem(j, "memory");
    cr_assert_eq(cJSON_GetObjectItem(mem, "capacity")->valuedouble,
                 (double)ss_hw_profile_find("tpu-v5p")->hbm_bytes);
    cJSON_Delete(j);
    free(out);
    free(err);
    snprintf(args, sizeof args, "plan %s/megatron.shard --device tpu-v5e --device-memory 1GiB --json",
             getenv("SS_SCENARIOS"));
    cr_assert_eq(ts_run_cli(args, &out, &err), 0, "%s", err);
    j = cJSON_Parse(out);
    mem = cJSON_GetObjectItem(j, "memory");
    cr_assert_eq(cJSON_GetObjectItem(mem, "capacity")->valuedouble, (double)(1ull << 30));
    cJSON_Delete(j);
    free(out);
    free(err);
    snprintf(args, sizeof args, "plan %s/megatron.shard --device tpu-v9 --json", getenv("SS_SCENARIOS"));
    expect_error(args, "--device: unknown profile 'tpu-v9' (cpu-here, tpu-v5e, tpu-v5p, h100-nvlink)");
    snprintf(args, sizeof args, "run %s/megatron.shard --device tpu-v5e --json", getenv("SS_SCENARIOS"));
    expect_error(args, "--device plans for an accelerator: use it with shardsim plan");
}

/* plan --json times its phases in the process: each is a duration, and
 * together they fit in the whole command's wall time. */
Test(cli, plan_json_times_its_phases)
{
    char args[256], *out, *err;
    snprintf(args, sizeof args, "plan %s/transformer.shard --device tpu-v5e --json",
             getenv("SS_SCENARIOS"));
    double t0 = now_s();
    cr_assert_eq(ts_run_cli(args, &out, &err), 0, "%s", err);
    double wall = now_s() - t0;
    cJSON *j = cJSON_Parse(out);
    cr_assert(j, "%s", out);
    const cJSON *sec = cJSON_GetObjectItem(j, "seconds");
    cr_assert(cJSON_IsObject(sec), "no seconds in %s", out);
    double sum = 0;
    for (const char *const *k = (const char *const[]){"load", "compile", "plan", NULL}; *k; k++) {
        const cJSON *v = cJSON_GetObjectItem(sec, *k);
        cr_assert(cJSON_IsNumber(v), "seconds.%s missing", *k);
        cr_assert(v->valuedouble > 0, "seconds.%s = %g", *k, v->valuedouble);
        sum += v->valuedouble;
    }
    cr_assert_lt(sum, wall, "phases %g s, whole command %g s", sum, wall);
    cJSON_Delete(j);
    free(out);
    free(err);
}

/* --explain-memory lists the planned peak's buffers: their bytes add up
 * to the peak, under shardsim's own accounting and a device's. */
Test(cli, explain_memory_adds_up_to_the_peak)
{
    const char *devices[] = {"", "--device tpu-v5e", "--device tpu-v5p"};
    /* The last: a scanned LM whose loop carries a temporary that v5e
     * keeps on chip (it was listed as in HBM too). */
    const char *files[] = {"megatron.shard", "transformer.shard", "flax_mlp.shard",
                           "../tests/data/xla_tpu/lm_noremat/v5e_2x4/lowered.mlir"};
    for (size_t f = 0; f < sizeof files / sizeof files[0]; f++)
        for (size_t d = 0; d < sizeof devices / sizeof devices[0]; d++) {
            char args[512], *out, *err;
            snprintf(args, sizeof args, "plan %s/%s %s --explain-memory --json",
                     getenv("SS_SCENARIOS"), files[f], devices[d]);
            int rc = ts_run_cli(args, &out, &err);
            cr_assert(rc == 0 || rc == 1, "%s: exit %d %s", args, rc, err);
            cJSON *j = cJSON_Parse(out);
            cr_assert(j, "%s", out);
            const cJSON *mem = cJSON_GetObjectItem(j, "memory"), *b;
            double sum = 0;
            int n = 0;
            cJSON_ArrayForEach(b, cJSON_GetObjectItem(mem, "peak_buffers"))
            {
                sum += cJSON_GetObjectItem(b, "bytes")->valuedouble;
                n++;
            }
            cr_assert_gt(n, 0, "%s", args);
            cr_assert_eq(sum, cJSON_GetObjectItem(mem, "plan_peak_bytes")->valuedouble,
                         "%s: buffers %.0f, peak %.0f", args, sum,
                         cJSON_GetObjectItem(mem, "plan_peak_bytes")->valuedouble);
            cJSON_Delete(j);
            free(out);
            free(err);
        }
}

/* A scanned LM (LARGE, v5e 16x16: its loops do not fit on chip) whose peak
 * is in its backward loop's body: --explain-memory
 * lists the body's buffers there, each with its source line and the loop
 * (the while at line 869), among them the body's dots; the sum holds. */
Test(cli, explain_memory_lists_a_loop_body)
{
    char args[512], *out, *err;
    snprintf(args, sizeof args,
             "plan %s/../tests/data/xla_tpu/lm_large_noremat/v5e_16x16/lowered.mlir "
             "--device tpu-v5e --explain-memory --json",
             getenv("SS_SCENARIOS"));
    int rc = ts_run_cli(args, &out, &err);
    cr_assert_eq(rc, 0, "%s: exit %d %s", args, rc, err);
    cJSON *j = cJSON_Parse(out);
    cr_assert(j, "%s", out);
    const cJSON *mem = cJSON_GetObjectItem(j, "memory"), *b;
    double sum = 0;
    int in_body = 0, dots = 0, loop_line = -1; /* one of its two while loops (lines 85, 869) */
    char dot_text[160] = "";
    cJSON_ArrayForEach(b, cJSON_GetObjectItem(mem, "peak_buffers"))
    {
        sum += cJSON_GetObjectItem(b, "bytes")->valuedouble;
        const cJSON *loop = cJSON_GetObjectItem(b, "loop");
        if (!loop)
            continue;
        in_body++;
        cr_assert_str_eq(cJSON_GetObjectItem(loop, "op")->valuestring, "while");
        int line = cJSON_GetObjectItem(loop, "line")->valueint;
        cr_assert(line == 85 || line == 869, "loop line %d", line);
        cr_assert(loop_line < 0 || line == loop_line, "one loop's body");
        loop_line = line;
        const char *name = cJSON_GetObjectItem(b, "buffer")->valuestring;
        if (strstr(name, "dot_general")) {
            dots++;
            int at = cJSON_GetObjectItem(b, "line")->valueint;
            cr_assert_gt(at, line, "%s: a line of the body's function, after the loop's", name);
            snprintf(dot_text, sizeof dot_text, "%s (line %d) in %%", name, at);
        }
    }
    cr_assert_gt(in_body, 0);
    cr_assert_gt(dots, 0);
    cr_assert_eq(sum, cJSON_GetObjectItem(mem, "plan_peak_bytes")->valuedouble);
    cJSON_Delete(j);
    free(out);
    free(err);
    snprintf(args, sizeof args,
             "plan %s/../tests/data/xla_tpu/lm_large_noremat/v5e_16x16/lowered.mlir "
             "--device tpu-v5e --explain-memory",
             getenv("SS_SCENARIOS"));
    rc = ts_run_cli(args, &out, &err);
    cr_assert_eq(rc, 0, "%s", err);
    /* The text names the same body's dot with its line and the loop's. */
    char loop_text[64];
    snprintf(loop_text, sizeof loop_text, " while (line %d)", loop_line);
    const char *at = strstr(out, dot_text);
    cr_assert(at, "%s not in %s", dot_text, out);
    const char *eol = strchr(at, '\n');
    const char *w = strstr(at, loop_text);
    cr_assert(w && (!eol || w < eol), "%s: not in loop%s", dot_text, loop_text);
    free(out);
    free(err);
}

/* Names with quotes print as Python's repr (it used to print P('a'b',),
 * which does not parse), and the printed spec parses back. */
Test(cli, rules_print_quoted_names_that_parse_back)
{
    char *out, *err;
    int rc = ts_run_cli("rules --rules \"x=\\\"a'b\\\",y='c\\\"d'\" --names x,y", &out, &err);
    cr_assert_eq(rc, 0, "%s", err);
    cr_assert_str_eq(out, "P(\"a'b\", 'c\"d')\n");
    ss_spec s;
    out[strlen(out) - 1] = '\0';
    cr_assert_eq(ss_spec_parse(out, &s), SS_OK, "%s", ss_error_message());
    cr_assert_str_eq(s.dims[0].axes[0], "a'b");
    cr_assert_str_eq(s.dims[1].axes[0], "c\"d");
    free(out);
    free(err);
}

/* A rule naming an axis the mesh lacks is JAX's NamedSharding error at every
 * place rules meet a mesh (it used to replicate silently, even --strict). */
Test(cli, rules_axis_missing_from_the_mesh_is_an_error)
{
    const char *want = "Resource axis: dta of P('dta', None) is not found in mesh: "
                       "('data', 'model').";
    expect_error("rules --rules batch=dta --names batch,None --mesh data=2,model=4 --json", want);
    expect_error("rules --rules batch=dta --names batch,None --mesh data=2,model=4 --strict "
                 "--json",
                 want);
    expect_error("show --mesh data=2,model=4 --shape 8,8 --rules batch=dta --spec batch,None "
                 "--json",
                 want);
    expect_error("show --mesh data=2,model=4 --shape 8,8 --rules batch=dta --spec batch,None "
                 "--strict --json",
                 want);
    /* A scenario's `rules`. */
    char path[] = "/tmp/ss_cli_rules_XXXXXX";
    int fd = mkstemp(path);
    cr_assert(fd >= 0);
    const char *text = "mesh data=2 model=4\n"
                       "rules batch=dta\n"
                       "x = input(f32[8, 8], P('batch', None), ones)\n"
                       "def f(x):\n"
                       "    return x * 2.0\n"
                       "run f\n";
    cr_assert_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    close(fd);
    char *out, *err, args[256];
    snprintf(args, sizeof args, "run %s", path);
    int rc = ts_run_cli(args, &out, &err);
    unlink(path);
    cr_assert_eq(rc, 2, "exit %d: %s%s", rc, out, err);
    cr_assert(strstr(err, want), "%s", err);
    free(out);
    free(err);
    /* Without the bad axis all of these succeed. */
    cJSON *j = run_json("rules --rules batch=data --names batch,None --mesh data=2,model=4 --json",
                        0);
    cr_assert_str_eq(cJSON_GetArrayItem(cJSON_GetObjectItem(j, "spec"), 0)->valuestring, "data");
    cJSON_Delete(j);
}

Test(cli, help_documents_every_option)
{
    char *out, *err;
    cr_assert_eq(ts_run_cli("show --help", &out, &err), 0);
    const char *opts[] = {"--mesh", "--shape", "--spec", "--dtype", "--devices", "--device-ids",
                          "--platform", "--scale", "--rules", "--json", "--dims", "--strict"};
    for (size_t i = 0; i < sizeof opts / sizeof opts[0]; i++)
        cr_assert(strstr(out, opts[i]), "show --help lacks %s", opts[i]);
    free(out);
    free(err);
    cr_assert_eq(ts_run_cli("--help", &out, &err), 0);
    cr_assert(strstr(out, "show") && strstr(out, "rules"));
    free(out);
    free(err);
    cr_assert_eq(ts_run_cli("bogus", &out, &err), 2);
    cr_assert(strstr(err, "unknown command 'bogus'"));
    free(out);
    free(err);
}

Test(cli, demo_runs)
{
    char *out, *err;
    cr_assert_eq(ts_run_cli("demo", &out, &err), 0, "%s", err);
    cr_assert(strstr(out, "{devices=[2,4]<=[8]}"), "%s", out);
    free(out);
    free(err);
}
