/*
 * strategy_internal.h — what strategy.c (the rules and their application)
 * and strategy_parse.c (the text format) share.
 */
#ifndef SS_STRATEGY_INTERNAL_H
#define SS_STRATEGY_INTERNAL_H

#include "mesh_internal.h"

#define SS__STRATEGY_MAX_TACTICS 16

/* Append a rule recorded as coming from source line `line` (0: code). */
ss_status ss__strategy_add_at(ss_strategy *s, const char *pattern, int ntactics,
                              const ss_tactic tactics[], int line);

/* Parse a tactic list ("P(None, 'model') fsdp(data)") into tactics[] (room
 * for SS__STRATEGY_MAX_TACTICS). On failure *err_col (1-based, within
 * `text`) says where. Messages carry no location. */
ss_status ss__tactics_parse(const char *text, ss_tactic tactics[], int *ntactics, int *err_col);

#endif
