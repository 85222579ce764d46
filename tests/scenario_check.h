/*
 * scenario_check.h — running the shardsim command in process for the
 * scenario tests: stdout and stderr captured, the exit status returned.
 * Functions are static: include it from one test file each.
 */
#ifndef SS_SCENARIO_CHECK_H
#define SS_SCENARIO_CHECK_H

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* sim/cli: the command with the scenario given as text. */
int ss__cli_scenario_text(int argc, char **argv, const char *text);

typedef struct result {
    int rc;
    char *out, *err;
} result;

static char *slurp_fd(int fd)
{
    lseek(fd, 0, SEEK_SET);
    size_t cap = 4096, len = 0;
    char *s = malloc(cap);
    ssize_t n;
    while ((n = read(fd, s + len, cap - len - 1)) > 0) {
        len += (size_t)n;
        if (len + 1 == cap)
            s = realloc(s, cap *= 2);
    }
    s[len] = '\0';
    return s;
}

/* `shardsim args...` with `text` as the scenario file's contents. */
static result run_cli(const char *text, int argc, const char *const args[])
{
    char *argv[32];
    cr_assert(argc < 30);
    argv[0] = (char *)"shardsim";
    for (int k = 0; k < argc; k++)
        argv[k + 1] = (char *)args[k];
    argv[argc + 1] = NULL;
    fflush(stdout);
    fflush(stderr);
    FILE *fo = tmpfile(), *fe = tmpfile();
    int so = dup(1), se = dup(2);
    dup2(fileno(fo), 1);
    dup2(fileno(fe), 2);
    result r;
    r.rc = ss__cli_scenario_text(argc + 1, argv, text);
    fflush(stdout);
    fflush(stderr);
    dup2(so, 1);
    dup2(se, 2);
    close(so);
    close(se);
    r.out = slurp_fd(fileno(fo));
    r.err = slurp_fd(fileno(fe));
    fclose(fo);
    fclose(fe);
    return r;
}

static void result_free(result *r)
{
    free(r->out);
    free(r->err);
}

#endif
