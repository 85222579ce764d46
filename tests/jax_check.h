/* jax_check.h — reading JAX's fixtures in C tests: .npy files, a result
 * compared with JAX's (floats within 1e-5 of the reference's largest
 * magnitude, integers exactly), and collectives as records
 * ("AR {0,1}{2,3} 256->256", "CP (0,1)(1,0) 64->64") from XLA's
 * collectives.json or from an executable's ledger, and a fixture imported
 * and run (jax_fixture_run). Static functions:
 * include from one test file only. */
#ifndef SS_TEST_JAX_CHECK_H
#define SS_TEST_JAX_CHECK_H

#include "support.h"

#include <cjson/cJSON.h>
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#define MAX_RECS 512

/* --- .npy ------------------------------------------------------------------ */

typedef struct npy {
    char descr[16];
    int rank;
    long shape[8];
    unsigned char *data;
    size_t bytes;
} npy;

static bool read_npy(const char *path, npy *a)
{
    memset(a, 0, sizeof *a);
    FILE *f = fopen(path, "rb");
    if (!f)
        return false;
    unsigned char pre[10];
    cr_assert_eq(fread(pre, 1, 10, f), 10u);
    cr_assert(memcmp(pre, "\x93NUMPY\x01\x00", 8) == 0, "%s: not npy 1.0", path);
    size_t hlen = (size_t)pre[8] | (size_t)pre[9] << 8;
    char *h = calloc(hlen + 1, 1);
    cr_assert_eq(fread(h, 1, hlen, f), hlen);
    const char *d = strstr(h, "'descr': '");
    cr_assert(d && strstr(h, "'fortran_order': False"), "%s", h);
    sscanf(d + 10, "%15[^']", a->descr);
    const char *s = strstr(h, "'shape': (");
    cr_assert(s, "%s", h);
    for (s += 10; *s != ')';) {
        char *end;
        long v = strtol(s, &end, 10);
        if (end == s)
            break;
        a->shape[a->rank++] = v;
        s = end;
        while (*s == ',' || *s == ' ')
            s++;
    }
    long pos = ftell(f);
    fseek(f, 0, SEEK_END);
    a->bytes = (size_t)(ftell(f) - pos);
    fseek(f, pos, SEEK_SET);
    a->data = malloc(a->bytes + 1);
    cr_assert_eq(fread(a->data, 1, a->bytes, f), a->bytes);
    fclose(f);
    free(h);
    return true;
}

static double elem(const npy *a, size_t i)
{
    if (strcmp(a->descr, "<f4") == 0) {
        float v;
        memcpy(&v, a->data + 4 * i, 4);
        return v;
    }
    if (strcmp(a->descr, "<f8") == 0) {
        double v;
        memcpy(&v, a->data + 8 * i, 8);
        return v;
    }
    if (strcmp(a->descr, "<V2") == 0) { /* bfloat16 */
        uint32_t w = (uint32_t)(a->data[2 * i] | a->data[2 * i + 1] << 8) << 16;
        float v;
        memcpy(&v, &w, 4);
        return v;
    }
    return NAN;
}

/* Result file `name`: ours equals JAX's. */
static void compare_output(const char *jax_dir, const char *our_dir, const char *name)
{
    char p1[8192], p2[8192];
    snprintf(p1, sizeof p1, "%s/%s", jax_dir, name);
    snprintf(p2, sizeof p2, "%s/%s", our_dir, name);
    npy ref, got;
    cr_assert(read_npy(p1, &ref));
    cr_assert(read_npy(p2, &got), "no result %s written", name);
    cr_assert_str_eq(got.descr, ref.descr, "%s: dtype", name);
    cr_assert_eq(got.rank, ref.rank, "%s: rank", name);
    for (int d = 0; d < ref.rank; d++)
        cr_assert_eq(got.shape[d], ref.shape[d], "%s: dim %d", name, d);
    cr_assert_eq(got.bytes, ref.bytes, "%s: bytes", name);
    bool fl = ref.descr[1] == 'f' || strcmp(ref.descr, "<V2") == 0;
    if (!fl) {
        cr_assert(memcmp(got.data, ref.data, ref.bytes) == 0, "%s: integers differ", name);
    } else {
        size_t esz = strcmp(ref.descr, "<f8") == 0 ? 8 : strcmp(ref.descr, "<f4") == 0 ? 4 : 2;
        size_t n = ref.bytes / esz;
        double scale = 0;
        for (size_t i = 0; i < n; i++)
            scale = fmax(scale, fabs(elem(&ref, i)));
        double tol = (esz == 2 ? 1e-2 : 1e-5) * (scale > 0 ? scale : 1);
        for (size_t i = 0; i < n; i++) {
            double r = elem(&ref, i), g = elem(&got, i);
            cr_assert(fabs(r - g) <= tol || (isnan(r) && isnan(g)),
                      "%s[%zu]: shardsim %.9g, JAX %.9g (tolerance %.3g)", name, i, g, r, tol);
        }
    }
    free(ref.data);
    free(got.data);
}

/* --- Ledger records ------------------------------------------------------------- */

typedef struct recs {
    int n;
    char *s[MAX_RECS];
} recs;

static void add_rec(recs *r, const char *s)
{
    cr_assert_lt(r->n, MAX_RECS);
    r->s[r->n++] = strdup(s);
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* "AR {0,1}{2,3} 256->256", "CP (0,1)(1,0) 64->64" (pairs sorted). */
static void rec_text(char *buf, size_t cap, const char *kind, const char *where, long in,
                     long out)
{
    snprintf(buf, cap, "%s %s %ld->%ld", kind, where, in, out);
}

static void pairs_text(char *buf, size_t cap, int n, int pairs[][2])
{
    char *items[512];
    cr_assert_leq(n, 512);
    for (int k = 0; k < n; k++) {
        items[k] = malloc(32);
        snprintf(items[k], 32, "(%d,%d)", pairs[k][0], pairs[k][1]);
    }
    qsort(items, (size_t)n, sizeof *items, cmp_str);
    size_t len = 0;
    buf[0] = '\0';
    for (int k = 0; k < n; k++) {
        len += (size_t)snprintf(buf + len, cap - len, "%s", items[k]);
        free(items[k]);
    }
}

static void xla_records(const cJSON *j, recs *r)
{
    static const char *const kinds[][2] = {{"all-reduce", "AR"}, {"all-gather", "AG"},
                                           {"reduce-scatter", "RS"}, {"all-to-all", "A2A"},
                                           {"collective-permute", "CP"}};
    const cJSON *c;
    cJSON_ArrayForEach(c, cJSON_GetObjectItem(j, "collectives")) {
        const char *k = cJSON_GetObjectItem(c, "kind")->valuestring, *kind = NULL;
        for (size_t i = 0; i < sizeof kinds / sizeof *kinds; i++)
            if (strcmp(kinds[i][0], k) == 0)
                kind = kinds[i][1];
        cr_assert(kind, "XLA collective kind %s", k);
        char where[4096] = "", buf[4200];
        size_t len = 0;
        if (strcmp(kind, "CP") == 0) {
            int pairs[512][2], n = 0;
            const cJSON *p;
            cJSON_ArrayForEach(p, cJSON_GetObjectItem(c, "source_target_pairs")) {
                pairs[n][0] = cJSON_GetArrayItem(p, 0)->valueint;
                pairs[n++][1] = cJSON_GetArrayItem(p, 1)->valueint;
            }
            pairs_text(where, sizeof where, n, pairs);
        } else {
            const cJSON *g, *d;
            cJSON_ArrayForEach(g, cJSON_GetObjectItem(c, "replica_groups")) {
                len += (size_t)snprintf(where + len, sizeof where - len, "{");
                cJSON_ArrayForEach(d, g)
                    len += (size_t)snprintf(where + len, sizeof where - len, "%s%d",
                                            where[len - 1] == '{' ? "" : ",", d->valueint);
                len += (size_t)snprintf(where + len, sizeof where - len, "}");
            }
        }
        const cJSON *ops = cJSON_GetObjectItem(c, "operands");
        const cJSON *res = cJSON_GetObjectItem(c, "result");
        /* A combined instruction is one record per buffer; an all-to-all's
         * tuple form (a buffer per peer) is one exchange. */
        if (strcmp(kind, "A2A") == 0 || cJSON_GetArraySize(ops) == 1) {
            rec_text(buf, sizeof buf, kind, where,
                     (long)cJSON_GetObjectItem(c, "operand_bytes")->valuedouble,
                     (long)cJSON_GetObjectItem(c, "result_bytes")->valuedouble);
            add_rec(r, buf);
            continue;
        }
        for (int i = 0; i < cJSON_GetArraySize(ops); i++) {
            rec_text(buf, sizeof buf, kind, where,
                     (long)cJSON_GetObjectItem(cJSON_GetArrayItem(ops, i), "bytes")->valuedouble,
                     (long)cJSON_GetObjectItem(cJSON_GetArrayItem(res, i), "bytes")->valuedouble);
            add_rec(r, buf);
        }
    }
}

static void our_records(const ss_executable *e, recs *r)
{
    static const char *const kinds[] = {[SS_COLL_ALL_REDUCE] = "AR", [SS_COLL_ALL_GATHER] = "AG",
                                        [SS_COLL_REDUCE_SCATTER] = "RS",
                                        [SS_COLL_ALL_TO_ALL] = "A2A", [SS_COLL_PERMUTE] = "CP"};
    for (int i = 0; i < ss_executable_ledger_count(e); i++) {
        ss_ledger_entry le;
        TS_OK(ss_executable_ledger_entry(e, i, &le));
        const ss_coll_record *c = &le.coll;
        cr_assert(c->kind < sizeof kinds / sizeof *kinds && kinds[c->kind], "kind %d", c->kind);
        long S = (long)c->bytes, G = c->group_size, in = S, out = S;
        if (c->kind == SS_COLL_ALL_GATHER)
            in = S / G;
        else if (c->kind == SS_COLL_REDUCE_SCATTER)
            out = S / G;
        else if (c->kind == SS_COLL_ALL_TO_ALL)
            in = out = S / G;
        char where[4096] = "", buf[4200];
        if (c->kind == SS_COLL_PERMUTE) {
            int pairs[512][2], n;
            TS_OK(ss_executable_ledger_pairs(e, i, pairs, 512, &n));
            pairs_text(where, sizeof where, n, pairs);
        } else {
            int ids[SS_MAX_DEVICES];
            TS_OK(ss_executable_ledger_groups(e, i, ids, SS_MAX_DEVICES));
            size_t len = 0;
            for (int g = 0; g < c->ngroups; g++) {
                len += (size_t)snprintf(where + len, sizeof where - len, "{");
                for (int k = 0; k < c->group_size; k++)
                    len += (size_t)snprintf(where + len, sizeof where - len, "%s%d", k ? "," : "",
                                            ids[g * c->group_size + k]);
                len += (size_t)snprintf(where + len, sizeof where - len, "}");
            }
        }
        rec_text(buf, sizeof buf, kinds[c->kind], where, in, out);
        add_rec(r, buf);
    }
}

static void free_recs(recs *r)
{
    for (int i = 0; i < r->n; i++)
        free(r->s[i]);
    r->n = 0;
}

/* --- One fixture, run -------------------------------------------------------------- */

/* A fixture of tests/data/SET/PROG loaded and run (jax_fixture_run). */
typedef struct jax_fixture {
    const char *set, *prog;
    bool gspmd;
    cJSON *meta;
    ss_scenario *sc;
    char outputs[64], links[64];
} jax_fixture;

/* Import fixture SET/PROG in its Shardy lowering with locations (argument
 * names from them) or its GSPMD one (no names: arguments read as argN.npy,
 * linked to the fixture's files in argument order from meta.json), run it
 * on the fixture's mesh and inputs, and assert that the checks against the
 * single-device run passed and every result equals JAX's. */
static void jax_fixture_run(const char *set, const char *prog, bool gspmd, jax_fixture *f)
{
    const char *data = getenv("SS_TEST_DATA");
    cr_assert(data, "SS_TEST_DATA is not set");
    memset(f, 0, sizeof *f);
    f->set = set;
    f->prog = prog;
    f->gspmd = gspmd;
    snprintf(f->outputs, sizeof f->outputs, "/tmp/ss_fixture_out_XXXXXX");
    char dir[1024], path[1200], inputs[1200], rel[256];
    snprintf(dir, sizeof dir, "%s/%s/%s", data, set, prog);
    snprintf(path, sizeof path, "%s/lowered.%s.mlir", dir, gspmd ? "gspmd" : "shardy.loc");
    cr_assert(mkdtemp(f->outputs));
    snprintf(inputs, sizeof inputs, "%s/inputs", dir);
    snprintf(rel, sizeof rel, "%s/%s/meta.json", set, prog);
    f->meta = ts_load_json(rel);
    if (gspmd) { /* argN.npy -> the fixture's files, in argument order */
        snprintf(f->links, sizeof f->links, "/tmp/ss_fixture_in_XXXXXX");
        cr_assert(mkdtemp(f->links));
        int k = 0;
        const cJSON *a;
        cJSON_ArrayForEach(a, cJSON_GetObjectItem(f->meta, "arguments")) {
            if (!cJSON_IsTrue(cJSON_GetObjectItem(a, "in_module")))
                continue;
            char from[2400], to[1300];
            snprintf(from, sizeof from, "%s/inputs/%s.npy", dir,
                     cJSON_GetObjectItem(a, "name")->valuestring);
            snprintf(to, sizeof to, "%s/arg%d.npy", f->links, k++);
            cr_assert_eq(symlink(from, to), 0, "symlink %s", to);
        }
        snprintf(inputs, sizeof inputs, "%s", f->links);
    }
    ss_scenario_options opts = {.inputs = inputs, .outputs = f->outputs};
    ss_scenario_error err;
    cr_assert_eq(ss_scenario_load(path, &opts, &f->sc, &err), SS_OK, "%s:%d:%d: %s", path,
                 err.line, err.col, err.message);
    cr_assert_eq(ss_scenario_run(f->sc, &err), SS_OK, "%s: %s", path, err.message);
    cr_assert(ss_scenario_checks_passed(f->sc), "%s: a result differs from the single-device run",
              path);
    char jax_out[1100];
    snprintf(jax_out, sizeof jax_out, "%s/outputs", dir);
    const cJSON *r;
    cJSON_ArrayForEach(r, cJSON_GetObjectItem(f->meta, "results")) {
        char name[600];
        snprintf(name, sizeof name, "%s.npy", cJSON_GetObjectItem(r, "name")->valuestring);
        compare_output(jax_out, f->outputs, name);
    }
}

/* The collectives of f's executable (ours) and of XLA's compiled text for
 * the same lowering (collectives.json or collectives.gspmd.json). */
static void jax_fixture_records(const jax_fixture *f, recs *ours, recs *xla)
{
    char rel[256];
    our_records(ss_scenario_executable(f->sc), ours);
    snprintf(rel, sizeof rel, "%s/%s/%s", f->set, f->prog,
             f->gspmd ? "collectives.gspmd.json" : "collectives.json");
    cJSON *coll = ts_load_json(rel);
    xla_records(coll, xla);
    cJSON_Delete(coll);
}

/* Free what jax_fixture_run made and remove its temporary directories. */
static void jax_fixture_free(jax_fixture *f)
{
    cJSON_Delete(f->meta);
    ss_scenario_free(f->sc);
    char cmd[256];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'%s%s%s", f->outputs, f->gspmd ? " '" : "",
             f->gspmd ? f->links : "", f->gspmd ? "'" : "");
    cr_assert_eq(system(cmd), 0);
}

#endif
