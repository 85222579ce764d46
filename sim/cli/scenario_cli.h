/*
 * scenario_cli.h — `shardsim run` and `shardsim plan` (cmd_run.c) over the
 * library's scenario front end (shardsim.h, "Scenarios"): options, then
 * load, compile, plan or run, and the report the library writes.
 */
#ifndef SS_CLI_SCENARIO_CLI_H
#define SS_CLI_SCENARIO_CLI_H

#include "cli.h"

/* `argv` as main's: argv[1] is "run" or "plan", options follow. The command
 * on a scenario given as text (for tests and the fuzzer): the file argument
 * only names the text in messages. */
int ss__cli_scenario_text(int argc, char **argv, const char *text);

#endif
