/*
 * cli.h — the shardsim command: shared option parsing and output helpers.
 *
 * Exit status: 0 ok, 1 a check failed, 2 bad input (one line on stderr, or
 * {"error": ...} on stdout with --json). Commands never crash on bad input.
 */
#ifndef SS_CLI_H
#define SS_CLI_H

#include "base/base.h"

#include <stdbool.h>

enum { SS_EXIT_OK = 0, SS_EXIT_CHECK = 1, SS_EXIT_USAGE = 2 };

/* Option scanner over argv[start..argc). Accepts "--name value" and
 * "--name=value". */
typedef struct cli_args {
    int argc;
    char **argv;
    int i;
    const char *name;  /* current option name without the value */
    const char *value; /* its value, or NULL for a flag */
    char namebuf[64];
} cli_args;

void cli_args_init(cli_args *a, int argc, char **argv, int start);
/* Advance to the next argument; false at the end. */
bool cli_args_next(cli_args *a);
/* True if the current option is `name`. */
bool cli_is(const cli_args *a, const char *name);
/* The current option's value, consuming the next argv item if needed.
 * NULL (with a message recorded) if it is missing. */
const char *cli_value(cli_args *a);

/* "8,1024" -> {8, 1024}; "" -> rank 0. One-line error on bad input. */
ss_status cli_parse_ints(const char *text, const char *what, int64_t out[], int cap, int *n);

/* True when colour should be used on stdout (a terminal, NO_COLOR unset). */
bool cli_use_color(void);

/* Report a failure and return SS_EXIT_USAGE: with json, {"error": msg} on
 * stdout; otherwise "shardsim CMD: msg" on stderr. */
int cli_fail(const char *cmd, bool json, const char *msg);

/* True when argv[0..argc) holds "--help" or "-h": the command prints its
 * usage on stdout and exits 0, whatever else is on the line. */
bool cli_wants_help(int argc, char **argv);

int cli_cmd_show(int argc, char **argv);
int cli_cmd_rules(int argc, char **argv);
/* `shardsim rules --maxtext FILE`: the options cmd_rules.c parsed. */
typedef struct cli_rules_maxtext_args {
    const char *config, *model, *names;
    const char *topology; /* --topology "v5p:4x4x4", or NULL: CPU device order */
    int noverrides;
    const char *const *overrides; /* "key=value" */
    int devices, slices;
    bool json;
} cli_rules_maxtext_args;
int ss__cli_rules_maxtext(const cli_rules_maxtext_args *a);
int cli_cmd_demo(int argc, char **argv);
/* `shardsim bench collectives ...` with argv after "collectives". */
int ss__bench_collectives(int argc, char **argv);
/* `shardsim bench mlp ...` with argv after "mlp". */
int ss__bench_mlp(int argc, char **argv);
/* `shardsim bench ckpt ...` with argv after "ckpt". */
int ss__bench_ckpt(int argc, char **argv);
/* `shardsim run FILE ...` and `shardsim plan FILE ...` with main's argv
 * (argv[1] is the command; cmd_run.c). */
int ss__cli_run(int argc, char **argv);
int ss__cli_plan(int argc, char **argv);
/* `shardsim ckpt SUBCOMMAND ...` with argv from the subcommand on. */
int ss__cli_ckpt(int argc, char **argv);

#endif
