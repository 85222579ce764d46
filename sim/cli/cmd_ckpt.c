/*
 * cmd_ckpt.c — `shardsim ckpt ls|show|verify`: what a checkpoint directory
 * holds, each array's saved sharding drawn as JAX draws it, and a full
 * integrity check.
 *
 * ss__cli_ckpt is called with the arguments after "ckpt" (argv[0] is the
 * subcommand). It reads metadata and, for verify, every chunk; it never
 * creates devices and never writes. Exit status: 0 ok, 1 verify found a
 * problem, 2 bad usage or an unreadable checkpoint.
 */
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

int ss__cli_ckpt(int argc, char **argv);

static const char ckpt_help[] =
    "usage: shardsim ckpt ls DIR\n"
    "       shardsim ckpt show DIR [STEP] [--item NAME] [--no-color]\n"
    "       shardsim ckpt verify DIR [STEP] [--item NAME]\n"
    "\n"
    "Inspect checkpoints in Orbax's layout (DIR/STEP/ITEM/NAME/.zarray + chunks).\n"
    "\n"
    "  ls       every step in DIR: committed, incomplete (no commit_success.txt) or an\n"
    "           unfinished save (STEP.orbax-checkpoint-tmp), with array counts and sizes\n"
    "  show     the arrays of STEP (default: the latest committed): shape, dtype,\n"
    "           chunking, compression, sizes, and the sharding each was saved with,\n"
    "           drawn as jax.debug.visualize_array_sharding draws it\n"
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
            cli_fmt_bytes(s1, sizeof s1, stored);
            cli_fmt_bytes(s2, sizeof s2, logical);
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
    cli_fmt_bytes(s1, sizeof s1, (double)d.bytes_stored);
    cli_fmt_bytes(s2, sizeof s2, (double)d.bytes_logical);
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

static int cmd_show(int argc, char **argv)
{
    ckpt_opts o;
    int rc = parse(argc, argv, &o, true);
    if (rc)
        return rc < 0 ? SS_EXIT_OK : rc;
    ss_ckpt *ck;
    if (ss_ckpt_open(o.dir, o.step, o.item, &ck) != SS_OK)
        return cli_fail("ckpt show", false, ss_error_message());
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
