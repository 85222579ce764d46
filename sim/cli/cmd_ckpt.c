/*
 * cmd_ckpt.c — `shardsim ckpt ls|show|verify`: what a checkpoint directory
 * holds, each array's saved sharding drawn as JAX draws it, and a full
 * integrity check.
 *
 * ss__cli_ckpt is called with the arguments after "ckpt" (argv[0] is the
 * subcommand). It reads metadata and, for verify, every chunk; show
 * --values restores each array whole on one virtual device of its own.
 * It never writes. Exit status: 0 ok, 1 verify found a
 * problem, 2 bad usage or an unreadable checkpoint.
 */
#include "cli.h"

#include "base/json.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

int ss__cli_ckpt(int argc, char **argv);

static const char ckpt_help[] =
    "usage: shardsim ckpt ls DIR\n"
    "       shardsim ckpt show DIR [STEP] [--item NAME] [--no-color]\n"
    "       shardsim ckpt show --values DIR [STEP] [ARRAY...] [--item NAME] [--json]\n"
    "       shardsim ckpt verify DIR [STEP] [--item NAME]\n"
    "\n"
    "Inspect checkpoints in Orbax's layouts: DIR/STEP/ITEM/NAME/.zarray + chunks, or\n"
    "the same keys in an OCDBT store (ITEM/manifest.ocdbt, Orbax's default); DIR may\n"
    "also be one checkpoint itself (StandardCheckpointer().save(DIR, ...)).\n"
    "\n"
    "  ls       every step in DIR: committed, incomplete (no commit_success.txt) or an\n"
    "           unfinished save (STEP.orbax-checkpoint-tmp), with array counts and sizes\n"
    "  show     the arrays of STEP (default: the latest committed): shape, dtype,\n"
    "           chunking, compression, sizes, and the sharding each was saved with,\n"
    "           drawn as jax.debug.visualize_array_sharding draws it\n"
    "  show --values  the restored values of every ARRAY (default: all) as numpy\n"
    "           prints them (\"...\" in the middle of arrays over 1000 elements);\n"
    "           --json gives every value as nested lists (NaN and infinities as the\n"
    "           strings \"NaN\", \"Infinity\", \"-Infinity\")\n"
    "  verify   read every chunk of STEP (default: every step) and check its size,\n"
    "           its CRC32C blocks and, for zstd, that it decompresses; one line per\n"
    "           problem\n"
    "\n"
    "  --item NAME   the item directory (default: \"default\", or the step's only item)\n"
    "  --no-color    no colour even on a terminal (NO_COLOR is honoured too)\n"
    "\n"
    "Exit status: 0 ok, 1 verify found a problem, 2 bad usage or unreadable input.\n";

typedef struct ckpt_opts {
    const char *dir, *item;
    int64_t step; /* -1: default */
    bool no_color;
    bool values, json; /* show --values [--json] */
    int nnames;        /* show --values: the ARRAYs asked for */
    const char *names[64];
} ckpt_opts;

static int parse(int argc, char **argv, ckpt_opts *o, bool allow_step)
{
    memset(o, 0, sizeof *o);
    o->step = -1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            fputs(ckpt_help, stdout);
            return -1;
        } else if (strcmp(a, "--no-color") == 0) {
            o->no_color = true;
        } else if (allow_step && strcmp(a, "--values") == 0) {
            o->values = true;
        } else if (allow_step && strcmp(a, "--json") == 0) {
            o->json = true;
        } else if (strcmp(a, "--item") == 0 || strncmp(a, "--item=", 7) == 0) {
            o->item = a[6] == '=' ? a + 7 : (i + 1 < argc ? argv[++i] : NULL);
            if (!o->item)
                return cli_fail("ckpt", false, "--item needs a value");
        } else if (a[0] == '-' && a[1]) {
            char msg[300];
            snprintf(msg, sizeof msg, "unknown option '%s' (see shardsim ckpt --help)", a);
            return cli_fail("ckpt", false, msg);
        } else if (!o->dir) {
            o->dir = a;
        } else if (o->values && (o->step >= 0 || o->nnames > 0 || a[strspn(a, "0123456789")])) {
            if (o->nnames == (int)(sizeof o->names / sizeof o->names[0]))
                return cli_fail("ckpt", false, "show --values: more than 64 ARRAY names");
            o->names[o->nnames++] = a;
        } else if (allow_step && o->step < 0) {
            char *end;
            long long v = strtoll(a, &end, 10);
            if (end == a || *end || v < 0) {
                char msg[300];
                snprintf(msg, sizeof msg, "STEP '%s' is not a step number", a);
                return cli_fail("ckpt", false, msg);
            }
            o->step = v;
        } else {
            char msg[300];
            snprintf(msg, sizeof msg, "unexpected argument '%s' (see shardsim ckpt --help)", a);
            return cli_fail("ckpt", false, msg);
        }
    }
    if (!o->dir)
        return cli_fail("ckpt", false, "a checkpoint directory is required (see shardsim ckpt "
                                       "--help)");
    if (o->json && !o->values)
        return cli_fail("ckpt", false, "--json goes with show --values");
    return 0;
}

static void fmt_time(char *buf, size_t cap, int64_t ns)
{
    if (ns <= 0) {
        snprintf(buf, cap, "-");
        return;
    }
    time_t t = (time_t)(ns / 1000000000);
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(buf, cap, "%Y-%m-%d %H:%M:%S UTC", &tm);
}

/* Sum the sizes of a committed step; false (message recorded) if unreadable. */
static bool step_sizes(ss_ckpt *ck, double *stored, double *logical)
{
    *stored = *logical = 0;
    for (int i = 0; i < ss_ckpt_array_count(ck); i++) {
        ss_ckpt_array_desc d;
        if (ss_ckpt_array_info(ck, i, &d) != SS_OK)
            return false;
        *stored += (double)d.bytes_stored;
        *logical += (double)d.bytes_logical;
    }
    return true;
}

static int cmd_ls(int argc, char **argv)
{
    ckpt_opts o;
    int rc = parse(argc, argv, &o, false);
    if (rc)
        return rc < 0 ? SS_EXIT_OK : rc;
    int n = 0;
    ss_ckpt_entry one;
    ss_status st = ss_ckpt_list(o.dir, &one, 0, &n);
    if (st && st != SS_ERR_RANGE)
        return cli_fail("ckpt ls", false, ss_error_message());
    ss_ckpt_entry *all = malloc((size_t)(n ? n : 1) * sizeof *all);
    if (!all || ss_ckpt_list(o.dir, all, n, &n) != SS_OK) {
        free(all);
        return cli_fail("ckpt ls", false, ss_error_message());
    }
    printf("%s: %d entr%s\n", o.dir, n, n == 1 ? "y" : "ies");
    if (n)
        printf("  %-10s %-10s %6s %12s %12s  %s\n", "step", "state", "arrays", "stored",
               "logical", "committed");
    for (int i = 0; i < n; i++) {
        char step[32];
        snprintf(step, sizeof step, "%lld", (long long)all[i].step);
        if (all[i].state == SS_CKPT_IN_PROGRESS) {
            printf("  %-10s unfinished save in %s%s (ignored by readers)\n", step, step,
                   SS_CKPT_TMP_SUFFIX);
            continue;
        }
        if (all[i].state == SS_CKPT_INCOMPLETE) {
            printf("  %-10s incomplete: no commit_success.txt (not restorable)\n", step);
            continue;
        }
        ss_ckpt *ck;
        double stored, logical;
        if (ss_ckpt_open(o.dir, all[i].step, NULL, &ck) != SS_OK) {
            printf("  %-10s unreadable: %s\n", step, ss_error_message());
            continue;
        }
        if (!step_sizes(ck, &stored, &logical)) {
            printf("  %-10s unreadable: %s\n", step, ss_error_message());
        } else {
            char s1[32], s2[32], when[64];
            int64_t commit;
            ss__fmt_bytes(s1, sizeof s1, stored);
            ss__fmt_bytes(s2, sizeof s2, logical);
            ss_ckpt_timestamps(ck, NULL, &commit);
            fmt_time(when, sizeof when, commit);
            printf("  %-10s %-10s %6d %12s %12s  %s\n", step, "committed",
                   ss_ckpt_array_count(ck), s1, s2, when);
        }
        ss_ckpt_close(ck);
    }
    free(all);
    return SS_EXIT_OK;
}

static void print_array(ss_ckpt *ck, int i, bool color)
{
    ss_ckpt_array_desc d;
    if (ss_ckpt_array_info(ck, i, &d) != SS_OK) {
        printf("%s: unreadable: %s\n\n", ss_ckpt_array_name(ck, i), ss_error_message());
        return;
    }
    char shape[256] = "", chunks[256] = "", s1[32], s2[32];
    size_t a = 0, b = 0;
    for (int k = 0; k < d.rank; k++) {
        a += (size_t)snprintf(shape + a, sizeof shape - a, k ? ",%lld" : "%lld",
                              (long long)d.shape[k]);
        b += (size_t)snprintf(chunks + b, sizeof chunks - b, k ? ",%lld" : "%lld",
                              (long long)d.chunks[k]);
        if (a >= sizeof shape || b >= sizeof chunks)
            break;
    }
    ss__fmt_bytes(s1, sizeof s1, (double)d.bytes_stored);
    ss__fmt_bytes(s2, sizeof s2, (double)d.bytes_logical);
    char comp[32];
    if (d.compression == SS_CKPT_ZSTD)
        snprintf(comp, sizeof comp, "zstd level %d", d.zstd_level);
    else
        snprintf(comp, sizeof comp, "uncompressed");
    printf("%s  %s[%s]  chunks [%s] x %lld  %s  %s stored, %s logical, %s\n", d.name,
           ss_dtype_name(d.dtype), shape, chunks, (long long)d.nchunks, comp, s1, s2,
           d.has_crc ? "crc32c" : "no checksums");
    if (d.chunks_missing)
        printf("  %lld of %lld chunk files are missing\n", (long long)d.chunks_missing,
               (long long)d.nchunks);
    if (d.saved == SS_CKPT_SHARDING_NONE) {
        printf("  saved sharding: none recorded\n\n");
        return;
    }
    printf("  saved sharding: %s\n", d.saved_text);
    ss_mesh *mesh;
    ss_sharding sh;
    if (d.rank == 0 || ss_ckpt_saved_sharding(ck, i, SS_MAX_DEVICES, &mesh, &sh) != SS_OK) {
        printf("\n");
        return;
    }
    size_t cap = 1 << 20;
    char *pic = malloc(cap);
    ss_viz_options vo = {.color = color};
    if (pic && ss_viz_sharding_nd(&sh, d.rank, d.shape, -1, -1, &vo, pic, cap, NULL) == SS_OK)
        printf("%s\n", pic);
    else
        printf("  (no picture: %s)\n\n", pic ? ss_error_message() : "out of memory");
    free(pic);
    ss_mesh_destroy(mesh);
}

/* A failure of the checkpoint layer: out of host memory is exit 1, the
 * rest (an unreadable or damaged checkpoint, bad usage) exit 2. */
static int ckpt_fail(const char *cmd, bool json, ss_status st)
{
    int rc = cli_fail(cmd, json, ss_error_message());
    return st == SS_ERR_NOMEM ? SS_EXIT_CHECK : rc;
}

/* --- show --values ----------------------------------------------------------- */

enum { VALUES_MAX_BYTES = 1 << 30 }; /* one array restored on the host at a time */

/* Restore array `name` of the opened step whole, on one device, in its
 * stored dtype: *host (malloc'd) gets its row-major bytes. */
static ss_status restore_whole(const ckpt_opts *o, ss_ckpt *ck, const ss_ckpt_array_desc *d,
                               void **host)
{
    *host = NULL;
    if (d->bytes_logical > VALUES_MAX_BYTES)
        return ss__fail(SS_ERR_RANGE, "array '%s' holds %llu bytes: --values shows arrays of "
                                      "up to 1 GiB",
                        d->name, (unsigned long long)d->bytes_logical);
    size_t bytes = (size_t)d->bytes_logical;
    ss_context_options co = {.ndevices = 1,
                             .device_memory = bytes + SS_CKPT_DEFAULT_STAGING + (1 << 20)};
    ss_context *ctx = NULL;
    ss_mesh *m = NULL;
    ss_ckpt_state *state = NULL;
    ss_status st = ss_context_create(&co, &ctx);
    if (!st)
        st = ss_mesh_make("x=1", 1, NULL, &m);
    if (!st) {
        ss_ckpt_target t;
        memset(&t, 0, sizeof t);
        t.name = d->name;
        t.dtype = d->dtype;
        t.rank = d->rank;
        memcpy(t.shape, d->shape, sizeof t.shape);
        ss_spec none;
        memset(&none, 0, sizeof none);
        ss_sharding_init(&t.sharding, m, &none);
        ss_ckpt_restore_options ro = {.item = ss_ckpt_item(ck), .partial = 1};
        st = ss_ckpt_restore(ctx, o->dir, ss_ckpt_step(ck), 1, &t, &ro, &state, NULL);
    }
    if (!st && !(*host = malloc(bytes ? bytes : 1)))
        st = ss__fail(SS_ERR_NOMEM, "show --values: out of host memory for '%s'", d->name);
    if (!st)
        st = ss_array_get(ss_ckpt_state_array(state, 0), *host, bytes);
    if (st) {
        free(*host);
        *host = NULL;
    }
    ss_ckpt_state_destroy(state);
    ss_mesh_destroy(m);
    ss_context_destroy(ctx);
    return st;
}

/* One element as a JSON value: integers and booleans exact, floats with
 * the digits that read back to the same value in their dtype. */
static void json_elem(ss__buf *b, ss_dtype dt, const void *data, size_t k)
{
    double v = ss__elem_get(dt, data, k);
    if (dt == SS_BOOL)
        ss__buf_puts(b, v != 0 ? "true" : "false");
    else if (isnan(v))
        ss__buf_puts(b, "\"NaN\"");
    else if (isinf(v))
        ss__buf_puts(b, v > 0 ? "\"Infinity\"" : "\"-Infinity\"");
    else if (dt == SS_I64)
        ss__buf_printf(b, "%lld", (long long)((const int64_t *)data)[k]);
    else if (dt == SS_I32 || dt == SS_I8 || dt == SS_U8)
        ss__buf_printf(b, "%.0f", v);
    else
        ss__buf_printf(b, dt == SS_F64 ? "%.17g" : "%.9g", v);
}

/* Nested lists of dims [d, rank) starting at element *k. */
static void json_values(ss__buf *b, const ss_ckpt_array_desc *d, const void *data, int dim,
                        size_t *k)
{
    if (dim == d->rank) {
        json_elem(b, d->dtype, data, (*k)++);
        return;
    }
    ss__buf_putc(b, '[');
    for (int64_t i = 0; i < d->shape[dim]; i++) {
        if (i)
            ss__buf_putc(b, ',');
        json_values(b, d, data, dim + 1, k);
    }
    ss__buf_putc(b, ']');
}

static int show_values(const ckpt_opts *o, ss_ckpt *ck)
{
    int n = ss_ckpt_array_count(ck);
    for (int k = 0; k < o->nnames; k++)
        if (ss_ckpt_array_find(ck, o->names[k]) < 0) {
            ss__buf l;
            ss__buf_init(&l);
            for (int i = 0; i < n; i++)
                ss__buf_printf(&l, i ? ", %s" : "%s", ss_ckpt_array_name(ck, i));
            char msg[1200];
            snprintf(msg, sizeof msg, "step %lld has no array '%s' (it has: %s)",
                     (long long)ss_ckpt_step(ck), o->names[k], l.data ? l.data : "none");
            ss__buf_free(&l);
            return cli_fail("ckpt show", o->json, msg);
        }
    ss__buf b;
    ss__buf_init(&b);
    if (o->json) {
        ss__buf_printf(&b, "{\"dir\":");
        ss__json_str(&b, o->dir);
        ss__buf_printf(&b, ",\"step\":%lld,\"item\":", (long long)ss_ckpt_step(ck));
        ss__json_str(&b, ss_ckpt_item(ck));
        ss__buf_puts(&b, ",\"arrays\":[");
    } else {
        ss__buf_printf(&b, "step %lld of %s, item '%s'\n", (long long)ss_ckpt_step(ck), o->dir,
                       ss_ckpt_item(ck));
    }
    int shown = 0;
    ss_status st = SS_OK;
    for (int i = 0; i < n && st == SS_OK; i++) {
        const char *name = ss_ckpt_array_name(ck, i);
        bool wanted = o->nnames == 0;
        for (int k = 0; k < o->nnames; k++)
            wanted = wanted || strcmp(o->names[k], name) == 0;
        if (!wanted)
            continue;
        ss_ckpt_array_desc d;
        void *host = NULL;
        st = ss_ckpt_array_info(ck, i, &d);
        if (!st)
            st = restore_whole(o, ck, &d, &host);
        if (st)
            break;
        char type[300];
        ss__shape_text(type, sizeof type, d.dtype, d.rank, d.shape);
        if (o->json) {
            ss__buf_puts(&b, shown ? ",{\"name\":" : "{\"name\":");
            ss__json_str(&b, d.name);
            ss__buf_puts(&b, ",\"dtype\":");
            ss__json_str(&b, ss_dtype_name(d.dtype));
            ss__buf_puts(&b, ",\"shape\":");
            ss__json_int_array(&b, d.rank, d.shape);
            ss__buf_puts(&b, ",\"values\":");
            size_t k = 0;
            json_values(&b, &d, host, 0, &k);
            ss__buf_putc(&b, '}');
        } else {
            ss__buf_printf(&b, "\n%s: %s\n", d.name, type);
            char *text = NULL;
            st = ss_format_numpy(d.dtype, d.rank, d.shape, host, &text);
            if (!st)
                ss__buf_puts(&b, text);
            free(text);
            ss__buf_putc(&b, '\n');
        }
        free(host);
        shown++;
    }
    if (o->json)
        ss__buf_puts(&b, "]}\n");
    if (st == SS_OK && b.oom)
        st = ss__fail(SS_ERR_NOMEM, "show --values: out of host memory");
    if (st) {
        ss__buf_free(&b);
        return ckpt_fail("ckpt show", o->json, st);
    }
    fputs(b.data, stdout);
    ss__buf_free(&b);
    return SS_EXIT_OK;
}

static int cmd_show(int argc, char **argv)
{
    ckpt_opts o;
    int rc = parse(argc, argv, &o, true);
    if (rc)
        return rc < 0 ? SS_EXIT_OK : rc;
    ss_ckpt *ck;
    ss_status st = ss_ckpt_open(o.dir, o.step, o.item, &ck);
    if (st)
        return ckpt_fail("ckpt show", o.json, st);
    if (o.values) {
        rc = show_values(&o, ck);
        ss_ckpt_close(ck);
        return rc;
    }
    int64_t commit;
    char when[64];
    ss_ckpt_timestamps(ck, NULL, &commit);
    fmt_time(when, sizeof when, commit);
    printf("step %lld of %s, item '%s', %d array%s, committed %s\n\n",
           (long long)ss_ckpt_step(ck), o.dir, ss_ckpt_item(ck), ss_ckpt_array_count(ck),
           ss_ckpt_array_count(ck) == 1 ? "" : "s", when);
    bool color = !o.no_color && cli_use_color();
    for (int i = 0; i < ss_ckpt_array_count(ck); i++)
        print_array(ck, i, color);
    ss_ckpt_close(ck);
    return SS_EXIT_OK;
}

static int cmd_verify(int argc, char **argv)
{
    ckpt_opts o;
    int rc = parse(argc, argv, &o, true);
    if (rc)
        return rc < 0 ? SS_EXIT_OK : rc;
    int problems = 0;
    ss_status st = ss_ckpt_verify(o.dir, o.step, o.item, stdout, &problems);
    if (st == SS_ERR_NOMEM) {
        /* Not a verdict on the checkpoint: nothing was found wrong with it. */
        fflush(stdout);
        cli_fail("ckpt verify", false, ss_error_message());
        return SS_EXIT_CHECK;
    }
    if (problems) {
        printf("%d problem%s\n", problems, problems == 1 ? "" : "s");
        return SS_EXIT_CHECK;
    }
    if (st)
        return cli_fail("ckpt verify", false, ss_error_message());
    return SS_EXIT_OK;
}

int ss__cli_ckpt(int argc, char **argv)
{
    if (argc < 1 || strcmp(argv[0], "--help") == 0 || strcmp(argv[0], "-h") == 0 ||
        strcmp(argv[0], "help") == 0) {
        fputs(ckpt_help, argc < 1 ? stderr : stdout);
        return argc < 1 ? SS_EXIT_USAGE : SS_EXIT_OK;
    }
    if (strcmp(argv[0], "ls") == 0)
        return cmd_ls(argc, argv);
    if (strcmp(argv[0], "show") == 0)
        return cmd_show(argc, argv);
    if (strcmp(argv[0], "verify") == 0)
        return cmd_verify(argc, argv);
    char msg[300];
    snprintf(msg, sizeof msg, "unknown subcommand '%s' (ls, show or verify)", argv[0]);
    return cli_fail("ckpt", false, msg);
}
