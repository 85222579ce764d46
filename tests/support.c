/*
 * support.c — test helpers (see support.h).
 */
#include "support.h"

#include <criterion/criterion.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

char *ts_read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (s && fread(s, 1, (size_t)n, f) != (size_t)n) {
        free(s);
        s = NULL;
    }
    if (s) {
        s[n] = '\0';
        if (len)
            *len = (size_t)n;
    }
    fclose(f);
    return s;
}

char *ts_read_data(const char *rel)
{
    const char *dir = getenv("SS_TEST_DATA");
    cr_assert(dir != NULL, "SS_TEST_DATA is not set (run the tests with meson test)");
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, rel);
    char *s = ts_read_file(path, NULL);
    cr_assert(s != NULL, "cannot read %s", path);
    return s;
}

cJSON *ts_load_json(const char *rel)
{
    char *s = ts_read_data(rel);
    cJSON *j = cJSON_Parse(s);
    free(s);
    cr_assert(j != NULL, "%s is not valid JSON", rel);
    return j;
}

int ts_ints(const cJSON *arr, int64_t out[], int cap)
{
    int n = 0;
    const cJSON *e;
    cJSON_ArrayForEach(e, arr)
    {
        cr_assert(n < cap, "array longer than %d", cap);
        out[n++] = (int64_t)e->valuedouble;
    }
    return n;
}

ss_mesh *ts_mesh_from_case(const cJSON *c)
{
    int64_t sizes[SS_MAX_AXES];
    const char *names[SS_MAX_AXES];
    int naxes = ts_ints(cJSON_GetObjectItem(c, "mesh_shape"), sizes, SS_MAX_AXES);
    const cJSON *jn = cJSON_GetObjectItem(c, "axis_names");
    for (int i = 0; i < naxes; i++)
        names[i] = cJSON_GetArrayItem(jn, i)->valuestring;
    int64_t n = 1;
    for (int i = 0; i < naxes; i++)
        n *= sizes[i];
    int ids[SS_MAX_DEVICES];
    const cJSON *jids = cJSON_GetObjectItem(c, "device_ids");
    if (jids) {
        int64_t tmp[SS_MAX_DEVICES];
        int k = ts_ints(jids, tmp, SS_MAX_DEVICES);
        for (int i = 0; i < k; i++)
            ids[i] = (int)tmp[i];
    }
    ss_mesh *m = NULL;
    ss_status st = ss_mesh_create(naxes, names, sizes, (int)n, jids ? ids : NULL, &m);
    cr_assert_eq(st, SS_OK, "mesh: %s", ss_error_message());
    return m;
}

void ts_spec_from_json(const cJSON *arr, ss_spec *out)
{
    memset(out, 0, sizeof *out);
    const cJSON *e;
    cJSON_ArrayForEach(e, arr)
    {
        ss_spec_dim *d = &out->dims[out->ndims++];
        if (cJSON_IsString(e) && strcmp(e->valuestring, "UNCONSTRAINED") == 0) {
            d->unconstrained = 1;
        } else if (cJSON_IsString(e)) {
            if (ss_name_intern(e->valuestring, &d->axes[d->naxes++]) != SS_OK)
                abort();
        } else if (cJSON_IsArray(e)) {
            const cJSON *a;
            cJSON_ArrayForEach(a, e) if (ss_name_intern(a->valuestring, &d->axes[d->naxes++]))
                abort();
        }
    }
}

const cJSON *ts_find_case(const cJSON *cases, const char *name)
{
    const cJSON *c;
    cJSON_ArrayForEach(c, cases)
    {
        const cJSON *n = cJSON_GetObjectItem(c, "name");
        if (n && strcmp(n->valuestring, name) == 0)
            return c;
    }
    return NULL;
}

int ts_run_cli(const char *args, char **out, char **err)
{
    const char *bin = getenv("SS_SHARDSIM");
    cr_assert(bin != NULL, "SS_SHARDSIM is not set");
    char errpath[] = "/tmp/ss_test_err_XXXXXX";
    int fd = mkstemp(errpath);
    cr_assert(fd >= 0);
    close(fd);
    char cmd[8192];
    snprintf(cmd, sizeof cmd, "%s %s 2>%s", bin, args, errpath);
    FILE *p = popen(cmd, "r");
    cr_assert(p != NULL);
    size_t cap = 4096, len = 0;
    char *buf = malloc(cap);
    size_t n;
    while ((n = fread(buf + len, 1, cap - len - 1, p)) > 0) {
        len += n;
        if (cap - len < 1024) {
            cap *= 2;
            buf = realloc(buf, cap);
        }
    }
    buf[len] = '\0';
    int status = pclose(p);
    if (out)
        *out = buf;
    else
        free(buf);
    char *e = ts_read_file(errpath, NULL);
    unlink(errpath);
    if (err)
        *err = e ? e : strdup("");
    else
        free(e);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

ss_spec ts_spec(const char *text)
{
    ss_spec s;
    TS_OK(ss_spec_parse(text, &s));
    return s;
}

ss_mesh *ts_make_mesh(const char *text, int devices)
{
    ss_mesh *m;
    TS_OK(ss_mesh_make(text, devices, NULL, &m));
    return m;
}

ss_value ts_input(ss_program *p, const char *name, const char *spec, int rank, ...)
{
    int64_t shape[SS_MAX_RANK];
    va_list ap;
    va_start(ap, rank);
    for (int d = 0; d < rank; d++)
        shape[d] = va_arg(ap, int);
    va_end(ap);
    ss_spec s;
    if (spec)
        s = ts_spec(spec);
    ss_value v;
    TS_OK(ss_input(p, name, SS_F32, rank, shape, spec ? &s : NULL, &v));
    return v;
}

void ts_attention(ss_program *p, ss_value x, const ss_value w[4], ss_value out[5])
{
    ss_value k, v, sc, c;
    TS_OK(ss_einsum(p, "bsD,Dhd->bshd", x, w[0], &out[0]));
    TS_OK(ss_einsum(p, "bsD,Dhd->bshd", x, w[1], &k));
    TS_OK(ss_einsum(p, "bsD,Dhd->bshd", x, w[2], &v));
    TS_OK(ss_einsum(p, "bqhd,bkhd->bhqk", out[0], k, &out[1]));
    TS_OK(ss_constant(p, 1.0 / 2.8284271247461903, &c)); /* 1/sqrt(8) */
    TS_OK(ss_binary(p, SS_MUL, out[1], c, &sc));
    TS_OK(ss_softmax(p, sc, -1, &out[2]));
    TS_OK(ss_einsum(p, "bhqk,bkhd->bqhd", out[2], v, &out[3]));
    TS_OK(ss_einsum(p, "bqhd,hdD->bqD", out[3], w[3], &out[4]));
}

const char ts_psum_scenario[] = "mesh i=4\n"
                                 "\n"
                                 "x = input(f32[8], P('i'), iota)\n"
                                 "\n"
                                 "def f(x):\n"
                                 "    y = psum(x, 'i')\n"
                                 "    return y\n"
                                 "\n"
                                 "def step(x):\n"
                                 "    return shard_map(f, in_specs=P('i'), out_specs=P())(x)\n"
                                 "\n"
                                 "run step\n";

ss_executable *ts_adam_mlp_step(ss_mesh *m, bool echo_x, ss_program **pp)
{
    ss_program *p;
    TS_OK(ss_program_create(m, &p));
    ss_value x = ts_input(p, "x", "P('data', None)", 2, 16, 128);
    ss_value w[2] = {ts_input(p, "W1", "P(None, 'model')", 2, 128, 256),
                     ts_input(p, "W2", "P('model', None)", 2, 256, 128)};
    ss_value a, h, y, loss, g[2], st[5], nw[2], ns[5]; /* Adam: mu0 mu1 nu0 nu1 count */
    TS_OK(ss_matmul(p, x, w[0], &a));
    TS_OK(ss_unary(p, SS_RELU, a, &h));
    TS_OK(ss_matmul(p, h, w[1], &y));
    int axes[2] = {0, 1};
    TS_OK(ss_reduce(p, SS_REDUCE_SUM, y, 2, axes, 0, &loss));
    TS_OK(ss_grad(p, loss, 2, w, g));
    ss_optim o = ss_optim_adam(1e-3);
    TS_OK(ss_optim_state_inputs(p, &o, 2, w, st));
    TS_OK(ss_optim_update(p, &o, 2, w, g, st, nw, ns));
    for (int i = 0; i < 2; i++)
        TS_OK(ss_output(p, nw[i], NULL));
    for (int j = 0; j < ss_optim_state_count(&o, 2); j++)
        TS_OK(ss_output(p, ns[j], NULL));
    if (echo_x)
        TS_OK(ss_output(p, x, NULL));
    ss_executable *e;
    TS_OK(ss_program_compile(p, &e));
    *pp = p;
    return e;
}
