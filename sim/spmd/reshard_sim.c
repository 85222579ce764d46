/*
 * reshard_sim.c — the naive executor of resharding plans: per-device f32
 * host buffers, one step at a time, every collective straight from its
 * definition over the step's replica groups. It exists so tests can prove
 * that a plan turns the source shards into the target shards; speed and
 * memory are not goals (each step copies every buffer).
 *
 * It shares no code with the planner: where a block sits is read from
 * ss_sharding_shards, the pending-sum terms from the partial mask, and a
 * collective's meaning from its groups, axes and dims alone. Only the
 * dynamic-slice takes its offsets from the layouts around it, as XLA's does
 * from the partition id (and the executor checks that the slice stays inside
 * the block the device holds).
 */
#include "spmd/reshard.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int64_t count_of(int rank, const int64_t shape[])
{
    int64_t n = 1;
    for (int d = 0; d < rank; d++)
        n *= shape[d];
    return n;
}

static float *alloc_block(int rank, const int64_t shape[])
{
    int64_t n = count_of(rank, shape);
    return calloc((size_t)(n > 0 ? n : 1), sizeof(float));
}

/* Copy the box of size `box` at offset `so` of array `src` (shape `ss`) to
 * offset `doff` of array `dst` (shape `ds`), element by element. */
static void copy_box(float *dst, const int64_t ds[], const int64_t doff[], const float *src,
                     const int64_t ss[], const int64_t so[], const int64_t box[], int rank)
{
    int64_t idx[SS_MAX_RANK] = {0};
    int64_t total = count_of(rank, box);
    for (int64_t e = 0; e < total; e++) {
        int64_t di = 0, si = 0;
        for (int d = 0; d < rank; d++) {
            di = di * ds[d] + doff[d] + idx[d];
            si = si * ss[d] + so[d] + idx[d];
        }
        dst[di] = src[si];
        for (int d = rank - 1; d >= 0; d--) {
            if (++idx[d] < box[d])
                break;
            idx[d] = 0;
        }
    }
}

static uint64_t mix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

/* Term `q` of `terms` whose sum is `v`, the same for every holder of
 * global element `g`. */
static float term_of(float v, uint64_t seed, int64_t g, int64_t q, int64_t terms)
{
    float sum = 0;
    for (int64_t k = 0; k + 1 < terms; k++) {
        float t = (float)((int)(mix(seed ^ mix((uint64_t)g * 131u + (uint64_t)k)) % 33u) - 16);
        if (k == q)
            return t;
        sum += t;
    }
    return v - sum;
}

/* Index of the device's term within its pending sum (partial axes in mesh
 * order), and the number of terms. */
static int64_t term_index(const ss_sharding *sh, const int64_t c[], int64_t *terms)
{
    int64_t q = 0, n = 1;
    for (int a = 0; a < ss_mesh_axis_count(sh->mesh); a++)
        if ((sh->partial_mask >> a) & 1u) {
            q = q * ss_mesh_axis_size(sh->mesh, a) + c[a];
            n *= ss_mesh_axis_size(sh->mesh, a);
        }
    *terms = n;
    return q;
}

void ss__reshard_sim_free(ss__reshard_sim *s)
{
    if (s->buf)
        for (int i = 0; i < s->ndevices; i++)
            free(s->buf[i]);
    free(s->buf);
    s->buf = NULL;
}

static ss_shard *shards_of(const ss_sharding *sh, int rank, const int64_t shape[],
                           ss_status *st)
{
    int n = ss_mesh_device_count(sh->mesh);
    ss_shard *out = malloc(sizeof *out * (size_t)n);
    if (!out) {
        *st = ss__fail(SS_ERR_NOMEM, "reshard sim: out of host memory for shards");
        return NULL;
    }
    *st = ss_sharding_shards(sh, rank, shape, SS_F32, out, n);
    if (*st) {
        free(out);
        return NULL;
    }
    return out;
}

ss_status ss__reshard_sim_load(ss__reshard_sim *s, const ss_sharding *sh, int rank,
                               const int64_t shape[], const float *global, uint64_t seed)
{
    memset(s, 0, sizeof *s);
    ss_status st;
    ss_shard *sd = shards_of(sh, rank, shape, &st);
    if (!sd)
        return st;
    s->ndevices = ss_mesh_device_count(sh->mesh);
    s->rank = rank;
    int64_t stride[SS_MAX_RANK];
    for (int d = rank - 1; d >= 0; d--) {
        s->shape[d] = shape[d];
        s->local[d] = sd[0].stop[d] - sd[0].start[d];
        stride[d] = d == rank - 1 ? 1 : stride[d + 1] * shape[d + 1];
    }
    s->buf = calloc((size_t)s->ndevices, sizeof(float *));
    if (!s->buf) {
        free(sd);
        return ss__fail(SS_ERR_NOMEM, "reshard sim: out of host memory for buffers");
    }
    int64_t n = count_of(rank, s->local), c[SS_MAX_AXES];
    for (int p = 0; p < s->ndevices; p++) {
        float *b = alloc_block(rank, s->local);
        if (!b) {
            free(sd);
            ss__reshard_sim_free(s);
            return ss__fail(SS_ERR_NOMEM, "reshard sim: out of host memory for buffers");
        }
        s->buf[sd[p].device] = b;
        ss_mesh_coords(sh->mesh, p, c);
        int64_t terms, q = term_index(sh, c, &terms);
        for (int64_t e = 0; e < n; e++) {
            int64_t rest = e, g = 0;
            for (int d = rank - 1; d >= 0; d--) {
                g += (sd[p].start[d] + rest % s->local[d]) * stride[d];
                rest /= s->local[d];
            }
            b[e] = terms > 1 ? term_of(global[g], seed, g, q, terms) : global[g];
        }
    }
    free(sd);
    return SS_OK;
}

/* Replace every device's buffer by next[id] (NULL: zeros of the new shape). */
static ss_status commit(ss__reshard_sim *s, float **next, const int64_t local[])
{
    for (int i = 0; i < s->ndevices; i++) {
        if (!next[i])
            next[i] = alloc_block(s->rank, local);
        if (!next[i]) {
            for (int j = 0; j < s->ndevices; j++)
                free(next[j]);
            free(next);
            return ss__fail(SS_ERR_NOMEM, "reshard sim: out of host memory for buffers");
        }
    }
    ss__reshard_sim_free(s);
    s->buf = next;
    for (int d = 0; d < s->rank; d++)
        s->local[d] = local[d];
    return SS_OK;
}

/* Digit of axis k (of st->axes) in group rank r. */
static int64_t digit(const ss__reshard_step *st, int64_t r, int k)
{
    for (int j = st->naxes - 1; j > k; j--)
        r /= ss_mesh_axis_size(st->mesh, st->axes[j]);
    return r % ss_mesh_axis_size(st->mesh, st->axes[k]);
}

/* Run one replica group of a collective: members[r] is the id of rank r. */
static ss_status run_group(const ss__reshard_sim *s, const ss__reshard_step *st,
                           const int *members, float **next)
{
    int rank = s->rank, n = st->group_size;
    const int64_t *in = st->local_before, *out = st->local_after;
    int64_t zero[SS_MAX_RANK] = {0}, off[SS_MAX_RANK] = {0}, box[SS_MAX_RANK];
    int64_t cnt = count_of(rank, in);
    if (st->kind == SS__RESHARD_ALL_REDUCE || st->kind == SS__RESHARD_REDUCE_SCATTER) {
        float *acc = alloc_block(rank, in);
        if (!acc)
            return ss__fail(SS_ERR_NOMEM, "reshard sim: out of host memory for a sum");
        for (int r = 0; r < n; r++)
            for (int64_t e = 0; e < cnt; e++)
                acc[e] += s->buf[members[r]][e];
        for (int r = 0; r < n; r++) {
            memcpy(off, zero, sizeof off);
            off[st->dim] = st->kind == SS__RESHARD_REDUCE_SCATTER ? r * out[st->dim] : 0;
            copy_box(next[members[r]], out, zero, acc, in, off, out, rank);
        }
        free(acc);
    } else if (st->kind == SS__RESHARD_ALL_GATHER) {
        for (int r = 0; r < n; r++) {
            /* Rank r's block sits at its sub-rank along each gathered dim. */
            for (int d = 0, k = 0; d < rank; d++) {
                int64_t sub = 0;
                for (int j = 0; j < st->dim_axes[d]; j++, k++)
                    sub = sub * ss_mesh_axis_size(st->mesh, st->axes[k]) + digit(st, r, k);
                off[d] = sub * in[d];
            }
            for (int q = 0; q < n; q++)
                copy_box(next[members[q]], out, off, s->buf[members[r]], in, zero, in, rank);
        }
    } else if (st->kind == SS__RESHARD_ALL_TO_ALL) {
        int j = st->dim, i = st->concat_dim;
        memcpy(box, in, sizeof box);
        box[j] = in[j] / n;
        for (int r = 0; r < n; r++)     /* receiver */
            for (int k = 0; k < n; k++) { /* sender */
                int64_t so[SS_MAX_RANK] = {0}, doff[SS_MAX_RANK] = {0};
                so[j] = r * box[j];
                doff[i] = k * in[i];
                copy_box(next[members[r]], out, doff, s->buf[members[k]], in, so, box, rank);
            }
    }
    return SS_OK;
}

static ss_status apply_slice(ss__reshard_sim *s, const ss__reshard_step *st, float **next)
{
    ss_status e;
    ss_shard *from = shards_of(&st->before, s->rank, s->shape, &e);
    if (!from)
        return e;
    ss_shard *to = shards_of(&st->after, s->rank, s->shape, &e);
    if (!to) {
        free(from);
        return e;
    }
    int n = s->ndevices;
    e = SS_OK;
    for (int p = 0; p < n && !e; p++) {
        const ss_shard *t = &to[p];
        const ss_shard *f = &from[ss_mesh_position_of(st->before.mesh, t->device)];
        int64_t off[SS_MAX_RANK], zero[SS_MAX_RANK] = {0};
        for (int d = 0; d < s->rank; d++) {
            off[d] = t->start[d] - f->start[d];
            if (off[d] < 0 || t->stop[d] > f->stop[d])
                e = ss__fail(SS_ERR_INVALID,
                             "reshard dynamic_slice: device %d needs [%lld,%lld) of dim %d "
                             "but holds [%lld,%lld)",
                             t->device, (long long)t->start[d], (long long)t->stop[d],
                             d, (long long)f->start[d], (long long)f->stop[d]);
        }
        if (!e) {
            next[t->device] = alloc_block(s->rank, st->local_after);
            if (!next[t->device])
                e = ss__fail(SS_ERR_NOMEM, "reshard sim: out of host memory for buffers");
            else
                copy_box(next[t->device], st->local_after, zero, s->buf[t->device], s->local,
                         off, st->local_after, s->rank);
        }
    }
    free(from);
    free(to);
    return e;
}

ss_status ss__reshard_sim_apply(ss__reshard_sim *s, const ss__reshard_step *st)
{
    for (int d = 0; d < s->rank; d++)
        if (s->local[d] != st->local_before[d])
            return ss__fail(SS_ERR_INVALID,
                            "reshard %s: buffers have %lld elements on dim %d, the step "
                            "expects %lld",
                            ss__reshard_kind_name(st->kind), (long long)s->local[d], d,
                            (long long)st->local_before[d]);
    float **next = calloc((size_t)s->ndevices, sizeof(float *));
    if (!next)
        return ss__fail(SS_ERR_NOMEM, "reshard sim: out of host memory for buffers");
    ss_status e = SS_OK;
    switch (st->kind) {
    case SS__RESHARD_DYNAMIC_SLICE:
        e = apply_slice(s, st, next);
        break;
    case SS__RESHARD_PERMUTE:
        for (int k = 0; k < st->npairs && !e; k++) {
            int from = st->pairs[2 * k], to = st->pairs[2 * k + 1];
            free(next[to]);
            next[to] = alloc_block(s->rank, s->local);
            if (!next[to])
                e = ss__fail(SS_ERR_NOMEM, "reshard sim: out of host memory for buffers");
            else
                memcpy(next[to], s->buf[from], sizeof(float) * (size_t)count_of(s->rank, s->local));
        }
        break;
    default:
        for (int i = 0; i < s->ndevices && !e; i++) {
            next[i] = alloc_block(s->rank, st->local_after);
            if (!next[i])
                e = ss__fail(SS_ERR_NOMEM, "reshard sim: out of host memory for buffers");
        }
        for (int g = 0; g < st->ngroups && !e; g++)
            e = run_group(s, st, st->groups + (size_t)g * (size_t)st->group_size, next);
        break;
    }
    if (e) {
        for (int i = 0; i < s->ndevices; i++)
            free(next[i]);
        free(next);
        return e;
    }
    return commit(s, next, st->local_after);
}

ss_status ss__reshard_sim_check(const ss__reshard_sim *s, const ss_sharding *sh,
                                const float *global, double tol, double *max_err)
{
    ss_status e;
    ss_shard *sd = shards_of(sh, s->rank, s->shape, &e);
    if (!sd)
        return e;
    const ss_mesh *m = sh->mesh;
    int na = ss_mesh_axis_count(m);
    int64_t n = count_of(s->rank, s->local), c[SS_MAX_AXES], stride[SS_MAX_RANK];
    for (int d = s->rank - 1; d >= 0; d--)
        stride[d] = d == s->rank - 1 ? 1 : stride[d + 1] * s->shape[d + 1];
    double worst = 0;
    e = SS_OK;
    for (int d = 0; d < s->rank && !e; d++)
        if (sd[0].stop[d] - sd[0].start[d] != s->local[d])
            e = ss__fail(SS_ERR_INVALID, "reshard check: blocks have %lld elements on dim %d, "
                         "the layout wants %lld", (long long)s->local[d], d,
                         (long long)(sd[0].stop[d] - sd[0].start[d]));
    for (int p = 0; p < s->ndevices && !e; p++) {
        int64_t terms;
        ss_mesh_coords(m, p, c);
        if (term_index(sh, c, &terms) != 0)
            continue; /* each pending sum is checked once, from its first term */
        for (int64_t el = 0; el < n && !e; el++) {
            /* Sum the terms held by the devices that differ from p only in
             * the partial axes' coordinates. */
            double got = 0;
            for (int64_t q = 0; q < terms; q++) {
                int64_t cc[SS_MAX_AXES], rest = q, pos = 0;
                memcpy(cc, c, sizeof cc);
                for (int a = na - 1; a >= 0; a--)
                    if ((sh->partial_mask >> a) & 1u) {
                        cc[a] = rest % ss_mesh_axis_size(m, a);
                        rest /= ss_mesh_axis_size(m, a);
                    }
                for (int a = 0; a < na; a++)
                    pos = pos * ss_mesh_axis_size(m, a) + cc[a];
                got += s->buf[ss_mesh_device_id(m, (int)pos)][el];
            }
            int64_t rest = el, g = 0, idx[SS_MAX_RANK] = {0};
            for (int d = s->rank - 1; d >= 0; d--) {
                idx[d] = sd[p].start[d] + rest % s->local[d];
                g += idx[d] * stride[d];
                rest /= s->local[d];
            }
            double want = global[g], diff = fabs(got - want);
            if (diff > worst)
                worst = diff;
            if (diff > tol * (fabs(want) > 1 ? fabs(want) : 1)) {
                ss__buf b;
                ss__buf_init(&b);
                ss__buf_int_tuple(&b, s->rank, idx);
                e = ss__fail(SS_ERR_INVALID,
                             "reshard check: device %d holds %g at global index %s, expected %g",
                             sd[p].device, got, b.data ? b.data : "?", want);
                ss__buf_free(&b);
            }
        }
    }
    free(sd);
    if (max_err && worst > *max_err)
        *max_err = worst;
    return e;
}

static ss_status at_step(ss_status e, int i, const ss__reshard_step *st)
{
    char msg[512];
    snprintf(msg, sizeof msg, "%s", ss_error_message());
    return ss__fail(e, "after step %d (%s): %s", i + 1, ss__reshard_kind_name(st->kind), msg);
}

ss_status ss__reshard_sim_run(const ss__reshard_plan *plan, const float *global, uint64_t seed,
                              double tol, double *max_err)
{
    ss__reshard_sim s;
    if (max_err)
        *max_err = 0;
    ss_status e = ss__reshard_sim_load(&s, &plan->src, plan->rank, plan->shape, global, seed);
    if (e)
        return e;
    for (int i = 0; i < plan->nsteps && !e; i++) {
        const ss__reshard_step *st = &plan->steps[i];
        e = ss__reshard_sim_apply(&s, st);
        if (!e)
            e = ss__reshard_sim_check(&s, &st->after, global, tol, max_err);
        if (e)
            e = at_step(e, i, st);
    }
    if (!e)
        e = ss__reshard_sim_check(&s, &plan->dst, global, tol, max_err);
    ss__reshard_sim_free(&s);
    return e;
}
