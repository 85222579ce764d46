/*
 * args.c — option scanning and value parsing shared by every command.
 */
#include "cli.h"

#include "base/json.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void cli_args_init(cli_args *a, int argc, char **argv, int start)
{
    memset(a, 0, sizeof *a);
    a->argc = argc;
    a->argv = argv;
    a->i = start - 1;
}

bool cli_args_next(cli_args *a)
{
    a->i++;
    if (a->i >= a->argc)
        return false;
    const char *arg = a->argv[a->i];
    const char *eq = strncmp(arg, "--", 2) == 0 ? strchr(arg, '=') : NULL;
    if (eq && (size_t)(eq - arg) < sizeof a->namebuf) {
        memcpy(a->namebuf, arg, (size_t)(eq - arg));
        a->namebuf[eq - arg] = '\0';
        a->name = a->namebuf;
        a->value = eq + 1;
    } else {
        a->name = arg;
        a->value = NULL;
    }
    return true;
}

bool cli_is(const cli_args *a, const char *name) { return strcmp(a->name, name) == 0; }

const char *cli_value(cli_args *a)
{
    if (a->value)
        return a->value;
    if (a->i + 1 >= a->argc) {
        ss__fail(SS_ERR_PARSE, "option %s needs a value", a->name);
        return NULL;
    }
    a->value = a->argv[++a->i];
    return a->value;
}

ss_status cli_parse_ints(const char *text, const char *what, int64_t out[], int cap, int *n)
{
    const char *p = text;
    *n = 0;
    while (isspace((unsigned char)*p) || *p == '(' || *p == '[')
        p++;
    while (*p && *p != ')' && *p != ']') {
        if (*n == cap)
            return ss__fail(SS_ERR_PARSE, "%s '%s': more than %d values", what, text, cap);
        char *end;
        errno = 0;
        long long v = strtoll(p, &end, 10);
        if (end == p || errno)
            return ss__fail(SS_ERR_PARSE, "%s '%s': expected an integer at column %d", what,
                            text, (int)(p - text) + 1);
        out[(*n)++] = v;
        p = end;
        while (isspace((unsigned char)*p))
            p++;
        if (*p == ',' || *p == 'x')
            p++;
        else if (*p && *p != ')' && *p != ']')
            return ss__fail(SS_ERR_PARSE, "%s '%s': unexpected '%c' at column %d", what, text,
                            *p, (int)(p - text) + 1);
        while (isspace((unsigned char)*p))
            p++;
    }
    return SS_OK;
}

bool cli_use_color(void)
{
    const char *nc = getenv("NO_COLOR");
    return isatty(STDOUT_FILENO) && !(nc && nc[0]);
}

int cli_fail(const char *cmd, bool json, const char *msg)
{
    if (json) {
        ss__buf b;
        ss__buf_init(&b);
        ss__buf_putc(&b, '{');
        ss__json_key(&b, "error");
        ss__json_str(&b, msg);
        ss__buf_puts(&b, "}\n");
        fputs(b.data ? b.data : "{\"error\":\"out of memory\"}\n", stdout);
        ss__buf_free(&b);
    } else {
        fprintf(stderr, "shardsim %s: %s\n", cmd, msg);
    }
    return SS_EXIT_USAGE;
}
