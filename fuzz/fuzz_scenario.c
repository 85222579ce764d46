/*
 * fuzz_scenario — the scenario language: the input is a .shard file given to
 * `shardsim plan` (load, evaluate, compile, plan, checkpoint plans, the
 * report) with 4 MiB of device memory. `plan` writes no file, so an input
 * cannot touch the disk. The exit status must be 0, 1 or 2.
 *
 * The reports go to /dev/null: the FILE pointers stdout and stderr are
 * swapped, not the descriptors, so sanitizer reports and libFuzzer's own
 * lines (written to descriptor 2 or to libFuzzer's copy of stderr) still
 * show.
 */
#include "fuzz.h"

#include "cli/scenario_cli.h"

#include <stdio.h>

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    FILE *null = fopen("/dev/null", "w");
    if (!null)
        abort();
    stdout = null;
    stderr = null;
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size);
    if (!text)
        return 0;
    char *argv[] = {"shardsim", "plan", "fuzz.shard", "--device-memory", "4MiB", NULL};
    int rc = ss__cli_scenario_text(5, argv, text);
    FUZZ_CHECK(rc == 0 || rc == 1 || rc == 2);
    free(text);
    return 0;
}
