/*
 * main.c — the `shardsim` command: dispatch to subcommands, help, demo.
 */
#include "cli.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#ifdef __GLIBC__
#include <malloc.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#endif

static const char main_help[] =
    "usage: shardsim COMMAND [options]\n"
    "\n"
    "shardsim simulates a mesh of accelerator devices on this CPU and answers\n"
    "sharding questions the way JAX and XLA's GSPMD partitioner do.\n"
    "\n"
    "commands:\n"
    "  run      run a scenario file on virtual devices: memory, collectives, step\n"
    "           times, checks against the single-device run (shardsim run --help)\n"
    "  plan     the same reports without data or compute, plus estimated step\n"
    "           times on hardware profiles (shardsim plan --help)\n"
    "  show     where each device's shard of an array lives: JAX's picture, the\n"
    "           HLO sharding string and a per-device table (shardsim show --help)\n"
    "  rules    resolve logical axis names with Flax's rules, or those of a MaxText\n"
    "           config on its mesh, in a TPU slice's device order with --topology\n"
    "           (shardsim rules --help)\n"
    "  demo     a short tour on the 2x4 ('data', 'model') mesh of the Flax guide\n"
    "           (shardsim demo --help)\n"
    "  ckpt     checkpoints in Orbax's layout: `shardsim ckpt ls DIR`, `ckpt show DIR\n"
    "           [STEP]`, `ckpt verify DIR` (shardsim ckpt --help)\n"
    "  bench    benchmarks: `shardsim bench mlp` (the Flax guide's train step on\n"
    "           2x4 devices), `bench collectives` (the collectives on 8 and 64\n"
    "           virtual devices), `bench ckpt` (save and restore 1 GiB on 8\n"
    "           devices) (shardsim bench --help)\n"
    "  version  print the version (shardsim version --help)\n"
    "\n"
    "Every command takes --help. Exit status: 0 ok, 1 a check failed, 2 bad input.\n";

static const char demo_help[] =
    "usage: shardsim demo\n"
    "\n"
    "A short tour: the Flax guide's 2x4 ('data', 'model') mesh of 8 virtual CPU\n"
    "devices, and an f32[8,16] array shown under four shardings (rows, columns,\n"
    "both, and rows over both axes), each as `shardsim show` prints it.\n"
    "Takes no options.\n";

static const char bench_help[] =
    "usage: shardsim bench mlp [--json] [--no-donate] [--steps N] [--threads N]\n"
    "       shardsim bench collectives [--json] [--threads N] [--iters N]\n"
    "       shardsim bench ckpt [--mib N] [--dir DIR] [--compression none|zstd|both] [--keep]\n"
    "\n"
    "Benchmarks (README.md, \"Performance\"); figures depend on the machine.\n"
    "\n"
    "  mlp          the Flax guide's train step on 2x4 virtual devices\n"
    "  collectives  all_reduce, all_gather, reduce_scatter, all_to_all on 8 and 64\n"
    "               virtual devices, beside a memcpy baseline\n"
    "  ckpt         save and restore of a sharded state, beside plain file I/O\n"
    "\n"
    "`shardsim bench SUBCOMMAND --help` gives each one's options.\n";

static const char version_help[] = "usage: shardsim version\n\nPrint the version.\n";

bool cli_wants_help(int argc, char **argv)
{
    for (int i = 0; i < argc; i++)
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0)
            return true;
    return false;
}

int cli_cmd_demo(int argc, char **argv)
{
    if (cli_wants_help(argc - 2, argv + 2)) {
        fputs(demo_help, stdout);
        return SS_EXIT_OK;
    }
    if (argc > 2) {
        fprintf(stderr, "shardsim demo: unexpected argument '%s' (demo takes no options)\n",
                argv[2]);
        return SS_EXIT_USAGE;
    }
    static const char *const specs[] = {"data,None", "None,model", "data,model",
                                        "(data,model),None"};
    char *args[16];
    int rc = SS_EXIT_OK;
    printf("shardsim demo: the Flax guide's mesh of 8 virtual CPU devices, "
           "data=2 x model=4,\nand an f32[8,16] array under four shardings.\n\n");
    ss_mesh *mesh;
    char pic[4096];
    if (ss_mesh_make("data=2,model=4", 8, NULL, &mesh) == SS_OK) {
        if (ss_viz_mesh(mesh, NULL, pic, sizeof pic, NULL) == SS_OK)
            printf("%s\n", pic);
        ss_mesh_destroy(mesh);
    }
    for (size_t i = 0; i < sizeof specs / sizeof specs[0] && rc == SS_EXIT_OK; i++) {
        int n = 0;
        args[n++] = argv[0];
        args[n++] = (char *)"show";
        args[n++] = (char *)"--mesh";
        args[n++] = (char *)"data=2,model=4";
        args[n++] = (char *)"--shape";
        args[n++] = (char *)"8,16";
        args[n++] = (char *)"--spec";
        args[n++] = (char *)specs[i];
        args[n] = NULL;
        printf("$ shardsim show --mesh data=2,model=4 --shape 8,16 --spec '%s'\n", specs[i]);
        rc = cli_cmd_show(n, args);
        printf("\n");
    }
    return rc;
}

/* The first 24 MiB of the heap in transparent huge pages where the kernel
 * offers them on request (THP "madvise" mode): a plan touches some 10 MiB
 * of fresh heap, and each 4 KiB page faulted in on its own cost about as
 * much CPU as the rest of the plan's work together (lm_noremat on v5e 8x8:
 * 2,650 faults, 7 of 20 ms; with 2 MiB pages 1,000 faults). What glibc's
 * tunable glibc.malloc.hugetlb=1 does, which a program cannot set for
 * itself: the block is taken from the heap (below the mmap threshold) and
 * freed again, so the heap's next allocations are carved from it (below
 * the trim threshold, it is not given back). Without THP, a no-op. */
static void huge_page_heap(void)
{
#if defined(__GLIBC__) && defined(MADV_HUGEPAGE)
    enum { HEAP = 24 << 20, HUGE_PAGE = 2 << 20 };
    char *p = malloc(HEAP);
    if (!p)
        return;
    uintptr_t lo = ((uintptr_t)p + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1);
    uintptr_t hi = ((uintptr_t)p + HEAP) & ~(uintptr_t)(HUGE_PAGE - 1);
    if (hi > lo)
        madvise((void *)lo, hi - lo, MADV_HUGEPAGE);
    free(p);
#endif
}

/* `plan` lives tens of milliseconds and allocates, frees and allocates
 * again host arrays of up to megabytes (instruction lists, their copies
 * per candidate plan): glibc's malloc would hand each one above 128 KiB
 * back to the kernel (munmap, or trimming the heap) and take the next one
 * as fresh pages, each faulted in and zeroed again (a quarter of the
 * plan's page faults). Freed memory is kept for reuse instead; device
 * arenas are mmapped on their own and not affected. */
static void keep_freed_memory(void)
{
#ifdef __GLIBC__
    enum { KEEP = 32 << 20 }; /* glibc's largest mmap threshold on 64-bit */
    mallopt(M_MMAP_THRESHOLD, KEEP);
    mallopt(M_TRIM_THRESHOLD, KEEP);
    huge_page_heap();
#endif
}

int main(int argc, char **argv)
{
    if (argc < 2 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
        strcmp(argv[1], "help") == 0) {
        fputs(main_help, argc < 2 ? stderr : stdout);
        return argc < 2 ? SS_EXIT_USAGE : SS_EXIT_OK;
    }
    const char *cmd = argv[1];
    if (strcmp(cmd, "run") == 0)
        return ss__cli_run(argc, argv);
    if (strcmp(cmd, "plan") == 0) {
        keep_freed_memory();
        return ss__cli_plan(argc, argv);
    }
    if (strcmp(cmd, "show") == 0)
        return cli_cmd_show(argc, argv);
    if (strcmp(cmd, "rules") == 0)
        return cli_cmd_rules(argc, argv);
    if (strcmp(cmd, "demo") == 0)
        return cli_cmd_demo(argc, argv);
    if (strcmp(cmd, "ckpt") == 0)
        return ss__cli_ckpt(argc - 2, argv + 2);
    if (strcmp(cmd, "bench") == 0) {
        if (argc < 3 || strcmp(argv[2], "--help") == 0 || strcmp(argv[2], "-h") == 0 ||
            strcmp(argv[2], "help") == 0) {
            fputs(bench_help, argc < 3 ? stderr : stdout);
            return argc < 3 ? SS_EXIT_USAGE : SS_EXIT_OK;
        }
        if (argc >= 3 && strcmp(argv[2], "collectives") == 0)
            return ss__bench_collectives(argc - 3, argv + 3);
        if (argc >= 3 && strcmp(argv[2], "mlp") == 0)
            return ss__bench_mlp(argc - 3, argv + 3);
        if (argc >= 3 && strcmp(argv[2], "ckpt") == 0)
            return ss__bench_ckpt(argc - 3, argv + 3);
        fprintf(stderr, "shardsim bench: unknown benchmark '%s' (expected mlp, collectives or "
                        "ckpt; see shardsim bench --help)\n", argv[2]);
        return SS_EXIT_USAGE;
    }
    if (strcmp(cmd, "version") == 0 || strcmp(cmd, "--version") == 0) {
        if (cli_wants_help(argc - 2, argv + 2)) {
            fputs(version_help, stdout);
            return SS_EXIT_OK;
        }
        printf("shardsim 0.1.0\n");
        return SS_EXIT_OK;
    }
    fprintf(stderr, "shardsim: unknown command '%s' (see shardsim --help)\n", cmd);
    return SS_EXIT_USAGE;
}
