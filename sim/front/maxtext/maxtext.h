/*
 * maxtext.h — a MaxText configuration as the library holds it after
 * loading (config.c) and before building its mesh (mesh.c). Internal to
 * sim/front/maxtext.
 */
#ifndef SS_FRONT_MAXTEXT_H
#define SS_FRONT_MAXTEXT_H

#include "base/base.h"

#include <stdbool.h>
#include <stdint.h>

/* One ici_*_parallelism or dcn_*_parallelism key and its value. */
typedef struct mt_param {
    const char *key; /* the full key, in the name pool */
    int64_t value;
    char where[160]; /* "FILE:LINE:COL" of the value that set it */
} mt_param;

struct ss_maxtext_config {
    int naxes;                      /* mesh_axes, in order */
    const char *axes[SS_MAX_AXES];
    int nparams, cap_params;        /* every parallelism key seen, last value wins */
    mt_param *params;
    int64_t num_slices;             /* -1 when unset, as base.yml has it */
    bool allow_split;               /* allow_split_physical_axes (false when unset) */
    bool have_data_sharding;
    ss_spec data_sharding;          /* P(*data_sharding) */
    ss_rules rules;                 /* merged logical_axis_rules */
    const char *model_name;         /* NULL or "default": no model file */
};

/* The value of `key` ("ici_fsdp_parallelism"), or `dflt` when no layer set
 * it; *where (may be NULL) receives the place that set it or "". */
int64_t ss__maxtext_param(const ss_maxtext_config *cfg, const char *key, int64_t dflt,
                          const char **where);

/* ss_maxtext_config_load of `len` bytes of YAML text named `name` (a
 * base_config and the model file are still looked for beside `name`):
 * the fuzz target's entry. */
ss_status ss__maxtext_config_parse(const char *name, const char *text, size_t len,
                                   int noverrides, const char *const overrides[],
                                   ss_maxtext_config **out);

#endif
