/*
 * ops_cmp.c — the scenario language's comparisons and jnp.where:
 * greater, greater_equal, less, less_equal, equal, not_equal (bool arrays,
 * StableHLO compare with the type the dtype has) and where(cond, a, b)
 * (StableHLO select, every operand broadcast to the common shape).
 */
#include "eval.h"

#include <string.h>

static ss_cmp_type type_of(ss_dtype dt)
{
    switch (dt) {
    case SS_F32: case SS_BF16: case SS_F16: case SS_F64: return SS_CMP_FLOAT;
    case SS_I8: case SS_I16: case SS_I32: case SS_I64: return SS_CMP_SIGNED;
    default: return SS_CMP_UNSIGNED;
    }
}

val *ss__scn_ev_op_compare(ss__scn_ev *e, const callargs *ca)
{
    static const struct {
        const char *name;
        ss_cmp_dir dir;
    } t[] = {{"greater", SS_CMP_GT}, {"greater_equal", SS_CMP_GE}, {"less", SS_CMP_LT},
             {"less_equal", SS_CMP_LE}, {"equal", SS_CMP_EQ},      {"not_equal", SS_CMP_NE}};
    ss_cmp_dir dir = SS_CMP_EQ;
    for (size_t k = 0; k < sizeof t / sizeof t[0]; k++)
        if (strcmp(t[k].name, ca->fname) == 0)
            dir = t[k].dir;
    if (!ss__scn_ca_check(e, ca, 2, 2, NULL))
        return NULL;
    val *a = ca->v[0], *b = ca->v[1];
    if (!ss__scn_ev_array_pair(e, &a, ca->locs[0], "argument", &b, ca->locs[1], "argument") ||
        !ss__scn_ev_check_shapes(e, ca->fname, false, a, NULL, b, NULL, ca->loc))
        return NULL;
    ss_dtype dt;
    int rank;
    int64_t shape[SS_MAX_RANK];
    ss__scn_ev_shape(e, a->v, &dt, &rank, shape);
    ss_value out;
    BEFORE();
    ss_status st_ = ss_compare(PROG, dir, type_of(dt), a->v, b->v, &out);
    return ss__scn_built(e, st_, before, ca->loc, out);
}

/* v broadcast numpy-style (right-aligned) to (rank, shape) unless it has it. */
static ss_status widen(ss__scn_ev *e, ss_value v, int rank, const int64_t shape[], ss_value *out)
{
    ss_dtype dt;
    int r;
    int64_t s[SS_MAX_RANK];
    ss__scn_ev_shape(e, v, &dt, &r, s);
    bool same = r == rank;
    for (int d = 0; same && d < rank; d++)
        same = s[d] == shape[d];
    if (same) {
        *out = v;
        return SS_OK;
    }
    int dims[SS_MAX_RANK];
    for (int i = 0; i < r; i++)
        dims[i] = rank - r + i;
    return ss_broadcast_in_dim(PROG, v, rank, shape, dims, out);
}

/* jnp.where(cond, a, b): cond a bool array (a comparison's result). */
val *ss__scn_ev_op_where(ss__scn_ev *e, const callargs *ca)
{
    if (!ss__scn_ca_check(e, ca, 3, 3, NULL))
        return NULL;
    val *c = ss__scn_arr_arg(e, ca, 0, NULL);
    if (!c)
        return NULL;
    val *a = ca->v[1], *b = ca->v[2];
    if (!ss__scn_ev_array_pair(e, &a, ca->locs[1], "argument", &b, ca->locs[2], "argument") ||
        !ss__scn_ev_check_shapes(e, "where", false, a, NULL, b, NULL, ca->loc) ||
        !ss__scn_ev_check_shapes(e, "where", false, c, NULL, a, NULL, ca->loc) ||
        !ss__scn_ev_check_shapes(e, "where", false, c, NULL, b, NULL, ca->loc))
        return NULL;
    /* the common shape, numpy's (the checks above passed) */
    ss_dtype dt;
    int rank = 0, r[3];
    int64_t shape[SS_MAX_RANK], s[3][SS_MAX_RANK];
    const ss_value vs[3] = {c->v, a->v, b->v};
    for (int k = 0; k < 3; k++) {
        ss__scn_ev_shape(e, vs[k], &dt, &r[k], s[k]);
        rank = r[k] > rank ? r[k] : rank;
    }
    for (int d = 0; d < rank; d++)
        shape[d] = 1;
    for (int k = 0; k < 3; k++)
        for (int i = 0; i < r[k]; i++)
            if (s[k][i] != 1)
                shape[rank - r[k] + i] = s[k][i];
    ss_value w[3], out = -1;
    BEFORE();
    ss_status st_ = SS_OK;
    for (int k = 0; k < 3 && !st_; k++)
        st_ = widen(e, vs[k], rank, shape, &w[k]);
    if (!st_)
        st_ = ss_select(PROG, w[0], w[1], w[2], &out);
    return ss__scn_built(e, st_, before, ca->loc, out);
}
