/*
 * strategy.c — sharding strategies: ordered rules (a regular expression over
 * a parameter's path and the tactics to apply) and their application to a
 * list of parameters, as the seed utility's infer_sharding does
 * (docs/README.md, "the seed"; shardsim.h, "Strategies", states the contract).
 *
 * The seed's rules, which this file reproduces:
 *   - rules are tried in order, each against every parameter no earlier rule
 *     decided (re.search: a match anywhere in the path);
 *   - a parameter's spec starts as one None per dimension;
 *   - replicate refuses a spec that already has a sharded entry;
 *   - fsdp: the axis product comes first (an unknown axis fails even for a
 *     small parameter), then the size threshold (bytes <= min MiB: left
 *     alone), then the dimensions by np.argsort(shape)[::-1]: largest first,
 *     equal sizes last index first, the first None and divisible one taken;
 *   - fsdp with no axis is fsdp('data'), as the seed's string form.
 * Ours on top: explicit and logical specs as tactics, several tactics per
 * rule (left to right, on one spec), the final spec checked as a
 * NamedSharding (JAX's messages), and the reason a parameter stayed
 * replicated.
 *
 * Patterns are PCRE2 (Python's re syntax as far as PCRE2 has it: \d,
 * (?:...), lazy quantifiers, lookaround, (?P<name>...); Unicode classes as
 * Python's str patterns; Python's \Z is PCRE2's \z). Their cost is bounded:
 * a pattern is at most SS__PATTERN_MAX bytes (PCRE2 refuses longer ones
 * before compiling, and bounds the compiled size and nesting itself), and a
 * match stops at SS__MATCH_LIMIT backtracking steps, SS__DEPTH_LIMIT
 * nested backtracking frames and SS__HEAP_LIMIT_KIB of heap, an error
 * saying which limit ("... is too costly to match (PCRE2 match limit)").
 *
 * What it does not do: read text (strategy_parse.c), touch arrays
 * (spmd/strategy_reshard.c), or keep a copy of the parameter list.
 */
#include "strategy_internal.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include <stdlib.h>
#include <string.h>

enum {
    SS__PATTERN_MAX = 4096,        /* bytes of one pattern */
    SS__MATCH_LIMIT = 1000000,     /* pcre2_set_match_limit: calls of match() */
    SS__DEPTH_LIMIT = 10000,       /* pcre2_set_depth_limit: backtracking depth */
    SS__HEAP_LIMIT_KIB = 65536     /* pcre2_set_heap_limit: 64 MiB of frames */
};

typedef struct strat_rule {
    char *pattern;
    pcre2_code *re;
    int ntactics;
    ss_tactic tactics[SS__STRATEGY_MAX_TACTICS];
    int line;
} strat_rule;

/* Rules in priority order; `lrules` are the logical axis rules. */
struct ss_strategy {
    int n, cap;
    strat_rule *rules;
    ss_rules lrules;
    bool have_lrules;
};

ss_status ss_strategy_create(ss_strategy **out)
{
    if (!out)
        return ss__fail(SS_ERR_INVALID, "ss_strategy_create: out must not be NULL");
    *out = calloc(1, sizeof **out);
    return *out ? SS_OK : ss__fail(SS_ERR_NOMEM, "strategy: out of host memory");
}

void ss_strategy_destroy(ss_strategy *s)
{
    if (!s)
        return;
    for (int i = 0; i < s->n; i++) {
        pcre2_code_free(s->rules[i].re);
        free(s->rules[i].pattern);
    }
    free(s->rules);
    ss_rules_free(&s->lrules);
    free(s);
}

static ss_status check_tactic(const ss_tactic *t)
{
    switch (t->kind) {
    case SS_TACTIC_REPLICATE: return SS_OK;
    case SS_TACTIC_FSDP:
        if (t->axes.naxes < 1 || t->axes.naxes > SS_MAX_AXES || t->axes.unconstrained)
            return ss__fail(SS_ERR_INVALID, "fsdp needs one mesh axis or a tuple of them");
        for (int k = 0; k < t->axes.naxes; k++)
            if (!t->axes.axes[k] || !t->axes.axes[k][0])
                return ss__fail(SS_ERR_INVALID, "fsdp: empty or NULL axis name");
        if (!(t->min_size_mb >= 0) || t->min_size_mb > 1e15)
            return ss__fail(SS_ERR_INVALID, "fsdp: min_size_mb must be a number >= 0");
        return SS_OK;
    case SS_TACTIC_SPEC:
    case SS_TACTIC_LOGICAL:
        if (t->spec.ndims < 0 || t->spec.ndims > SS_MAX_RANK)
            return ss__fail(SS_ERR_INVALID, "a spec tactic with %d entries", t->spec.ndims);
        return SS_OK;
    default: return ss__fail(SS_ERR_INVALID, "unknown tactic kind %d", (int)t->kind);
    }
}

/* The pattern as messages quote it: at most 60 bytes, then "...". */
static void pattern_shown(const char *pattern, char out[72])
{
    size_t n = strlen(pattern);
    if (n <= 60)
        snprintf(out, 72, "%s", pattern);
    else
        snprintf(out, 72, "%.57s...", pattern);
}

/* Python's \Z (end of string only) is PCRE2's \z; PCRE2's \Z also matches
 * before a final newline. Everything else goes to PCRE2 as written. Returns
 * a malloc'd copy, NULL when out of memory. */
static char *python_to_pcre2(const char *pattern)
{
    size_t len = strlen(pattern);
    char *out = malloc(len + 1);
    if (!out)
        return NULL;
    memcpy(out, pattern, len + 1);
    for (size_t i = 0; i + 1 < len; i++) {
        if (out[i] != '\\')
            continue;
        if (out[i + 1] == 'Z')
            out[i + 1] = 'z';
        i++;
    }
    return out;
}

static bool compile_cost_error(int code)
{
    return code == PCRE2_ERROR_PATTERN_TOO_LARGE || code == PCRE2_ERROR_PATTERN_TOO_COMPLICATED ||
           code == PCRE2_ERROR_PARENTHESES_NEST_TOO_DEEP ||
           code == PCRE2_ERROR_PARENTHESES_STACK_CHECK || code == PCRE2_ERROR_HEAP_FAILED ||
           code == PCRE2_ERROR_PATTERN_STRING_TOO_LONG;
}

/* Compile `pattern` with the bounds above into *out. */
static ss_status compile_pattern(const char *pattern, pcre2_code **out)
{
    char shown[72];
    pattern_shown(pattern, shown);
    size_t len = strlen(pattern);
    if (len > SS__PATTERN_MAX)
        return ss__fail(SS_ERR_PARSE,
                        "pattern '%s' is too costly to compile (%zu bytes; at most %d)", shown,
                        len, SS__PATTERN_MAX);
    pcre2_compile_context *cc = pcre2_compile_context_create(NULL);
    char *text = python_to_pcre2(pattern);
    if (!cc || !text) {
        pcre2_compile_context_free(cc);
        free(text);
        return ss__fail(SS_ERR_NOMEM, "strategy: out of host memory");
    }
    pcre2_set_max_pattern_length(cc, SS__PATTERN_MAX);
    pcre2_set_parens_nest_limit(cc, 64);
    int code = 0;
    PCRE2_SIZE offset = 0;
    *out = pcre2_compile((PCRE2_SPTR)text, PCRE2_ZERO_TERMINATED,
                         PCRE2_UTF | PCRE2_UCP | PCRE2_MATCH_INVALID_UTF | PCRE2_NEVER_BACKSLASH_C,
                         &code, &offset, cc);
    pcre2_compile_context_free(cc);
    free(text);
    if (*out)
        return SS_OK;
    if (code == PCRE2_ERROR_HEAP_FAILED)
        return ss__fail(SS_ERR_NOMEM, "pattern '%s': out of host memory", shown);
    PCRE2_UCHAR msg[256];
    if (pcre2_get_error_message(code, msg, sizeof msg) < 0)
        snprintf((char *)msg, sizeof msg, "PCRE2 error %d", code);
    if (compile_cost_error(code))
        return ss__fail(SS_ERR_PARSE, "pattern '%s' is too costly to compile (PCRE2: %s)", shown,
                        (const char *)msg);
    return ss__fail(SS_ERR_PARSE, "pattern '%s', offset %zu: %s", shown, (size_t)offset,
                    (const char *)msg);
}

/* re.search of rule i's pattern in `path`: *matched 1 or 0. A match past the
 * limits fails with SS_ERR_RANGE, "pattern '...' is too costly to match
 * (PCRE2 match limit)". */
static ss_status rule_search(const strat_rule *r, const char *path, int *matched)
{
    *matched = 0;
    pcre2_match_context *mc = pcre2_match_context_create(NULL);
    pcre2_match_data *md = pcre2_match_data_create(1, NULL);
    if (!mc || !md) {
        pcre2_match_context_free(mc);
        pcre2_match_data_free(md);
        return ss__fail(SS_ERR_NOMEM, "strategy: out of host memory");
    }
    pcre2_set_match_limit(mc, SS__MATCH_LIMIT);
    pcre2_set_depth_limit(mc, SS__DEPTH_LIMIT);
    pcre2_set_heap_limit(mc, SS__HEAP_LIMIT_KIB);
    int rc = pcre2_match(r->re, (PCRE2_SPTR)path, PCRE2_ZERO_TERMINATED, 0, 0, md, mc);
    pcre2_match_data_free(md);
    pcre2_match_context_free(mc);
    if (rc >= 0) {
        *matched = 1;
        return SS_OK;
    }
    if (rc == PCRE2_ERROR_NOMATCH)
        return SS_OK;
    char shown[72];
    pattern_shown(r->pattern, shown);
    const char *limit = rc == PCRE2_ERROR_MATCHLIMIT   ? "match limit"
                        : rc == PCRE2_ERROR_DEPTHLIMIT ? "depth limit"
                        : rc == PCRE2_ERROR_HEAPLIMIT  ? "heap limit"
                                                       : NULL;
    if (limit)
        return ss__fail(SS_ERR_RANGE, "pattern '%s' is too costly to match (PCRE2 %s)", shown,
                        limit);
    if (rc == PCRE2_ERROR_NOMEMORY)
        return ss__fail(SS_ERR_NOMEM, "strategy: out of host memory");
    PCRE2_UCHAR msg[256];
    if (pcre2_get_error_message(rc, msg, sizeof msg) < 0)
        snprintf((char *)msg, sizeof msg, "PCRE2 error %d", rc);
    return ss__fail(SS_ERR_INVALID, "pattern '%s': %s", shown, (const char *)msg);
}

ss_status ss__strategy_add_at(ss_strategy *s, const char *pattern, int ntactics,
                              const ss_tactic tactics[], int line)
{
    if (!s || !pattern || (ntactics > 0 && !tactics))
        return ss__fail(SS_ERR_INVALID, "ss_strategy_add: NULL argument");
    if (ntactics < 1 || ntactics > SS__STRATEGY_MAX_TACTICS)
        return ss__fail(SS_ERR_INVALID, "a rule takes 1..%d tactics, not %d",
                        SS__STRATEGY_MAX_TACTICS, ntactics);
    for (int k = 0; k < ntactics; k++) {
        ss_status st = check_tactic(&tactics[k]);
        if (st)
            return st;
    }
    if (s->n == s->cap) {
        int cap = s->cap ? s->cap * 2 : 8;
        strat_rule *r = realloc(s->rules, sizeof *r * (size_t)cap);
        if (!r)
            return ss__fail(SS_ERR_NOMEM, "strategy: out of host memory");
        s->rules = r;
        s->cap = cap;
    }
    strat_rule *r = &s->rules[s->n];
    memset(r, 0, sizeof *r);
    ss_status st = compile_pattern(pattern, &r->re);
    if (st)
        return st;
    size_t len = strlen(pattern);
    if (!(r->pattern = malloc(len + 1))) {
        pcre2_code_free(r->re);
        return ss__fail(SS_ERR_NOMEM, "strategy: out of host memory");
    }
    memcpy(r->pattern, pattern, len + 1);
    memcpy(r->tactics, tactics, sizeof *tactics * (size_t)ntactics);
    r->ntactics = ntactics;
    r->line = line;
    s->n++;
    return SS_OK;
}

ss_status ss_strategy_add(ss_strategy *s, const char *pattern, int ntactics,
                          const ss_tactic tactics[])
{
    return ss__strategy_add_at(s, pattern, ntactics, tactics, 0);
}

ss_status ss_strategy_add_text(ss_strategy *s, const char *pattern, const char *tactics)
{
    ss_tactic t[SS__STRATEGY_MAX_TACTICS];
    int n = 0, col = 0;
    if (!tactics)
        return ss__fail(SS_ERR_INVALID, "ss_strategy_add_text: tactics must not be NULL");
    ss_status st = ss__tactics_parse(tactics, t, &n, &col);
    if (st) {
        char msg[1024];
        snprintf(msg, sizeof msg, "%s", ss_error_message());
        return ss__fail(st, "tactics '%s', column %d: %s", tactics, col, msg);
    }
    return ss__strategy_add_at(s, pattern, n, t, 0);
}

ss_status ss_strategy_set_rules(ss_strategy *s, const ss_rules *rules)
{
    if (!s || !rules || rules->count < 0 || (rules->count > 0 && !rules->rules))
        return ss__fail(SS_ERR_INVALID, "ss_strategy_set_rules: bad arguments");
    ss_rule *copy = malloc(sizeof *copy * (size_t)(rules->count ? rules->count : 1));
    if (!copy)
        return ss__fail(SS_ERR_NOMEM, "strategy: out of host memory");
    if (rules->count)
        memcpy(copy, rules->rules, sizeof *copy * (size_t)rules->count);
    ss_rules_free(&s->lrules);
    s->lrules.rules = copy;
    s->lrules.count = rules->count;
    s->have_lrules = true;
    return SS_OK;
}

int ss_strategy_has_rules(const ss_strategy *s) { return s && s->have_lrules; }

int ss_strategy_rule_count(const ss_strategy *s) { return s ? s->n : 0; }

int ss_strategy_rule_line(const ss_strategy *s, int i)
{
    return s && i >= 0 && i < s->n ? s->rules[i].line : -1;
}

int ss_strategy_rule_matches(const ss_strategy *s, int i, const char *path)
{
    int matched = 0;
    if (!s || i < 0 || i >= s->n || !path)
        return 0;
    if (rule_search(&s->rules[i], path, &matched))
        return 0;
    return matched;
}

static void tactic_repr_buf(ss__buf *b, const ss_tactic *t)
{
    switch (t->kind) {
    case SS_TACTIC_REPLICATE: ss__buf_puts(b, "replicate"); break;
    case SS_TACTIC_FSDP:
        ss__buf_puts(b, "fsdp(");
        ss__spec_dim_repr_buf(b, &t->axes);
        ss__buf_printf(b, ", min_size_mb=%.15g)", t->min_size_mb);
        break;
    case SS_TACTIC_SPEC: ss__spec_repr_buf(b, &t->spec); break;
    case SS_TACTIC_LOGICAL: {
        ss__buf mark;
        ss__buf_init(&mark);
        ss__spec_repr_buf(&mark, &t->spec);
        if (mark.oom)
            b->oom = true; /* the repr reports it, instead of "logical(?)" */
        else
            ss__buf_printf(b, "logical%s", mark.data + 1);
        ss__buf_free(&mark);
        break;
    }
    }
}

static void rule_repr_buf(ss__buf *b, const strat_rule *r)
{
    char q = strchr(r->pattern, '\'') ? '"' : '\'';
    ss__buf_printf(b, "%c%s%c", q, r->pattern, q);
    for (int k = 0; k < r->ntactics; k++) {
        ss__buf_putc(b, ' ');
        tactic_repr_buf(b, &r->tactics[k]);
    }
}

ss_status ss_strategy_rule_repr(const ss_strategy *s, int i, char *buf, size_t cap)
{
    if (!s || i < 0 || i >= s->n)
        return ss__fail(SS_ERR_RANGE, "strategy rule %d of %d", i, s ? s->n : 0);
    ss__buf b;
    ss__buf_init(&b);
    rule_repr_buf(&b, &s->rules[i]);
    ss_status st = ss__buf_copy_out(&b, buf, cap, NULL);
    ss__buf_free(&b);
    return st;
}

/* --- Applying ------------------------------------------------------------- */

/* The spec as the seed holds it, a Python tuple: ('data', None), ('x',), (). */
static void spec_tuple_buf(ss__buf *b, const ss_spec *spec)
{
    ss__buf_putc(b, '(');
    for (int d = 0; d < spec->ndims; d++) {
        if (d)
            ss__buf_puts(b, ", ");
        ss__spec_dim_repr_buf(b, &spec->dims[d]);
    }
    ss__buf_puts(b, spec->ndims == 1 ? ",)" : ")");
}

/* Fail with "strategy rule R (RULE, line L), param 'PATH': MESSAGE". */
static ss_status rule_fail(const strat_rule *r, int index, const char *path, ss_status st,
                           const char *msg)
{
    ss__buf b;
    ss__buf_init(&b);
    ss__buf_printf(&b, "strategy rule %d (", index);
    rule_repr_buf(&b, r);
    if (r->line > 0)
        ss__buf_printf(&b, ", line %d", r->line);
    ss__buf_printf(&b, "), param '%s': %s", path, msg);
    ss_status out = b.oom ? ss__fail(SS_ERR_NOMEM, "strategy: out of host memory")
                          : ss__fail(st, "%s", b.data);
    ss__buf_free(&b);
    return out;
}

static bool entry_sharded(const ss_spec_dim *d) { return d->naxes > 0 || d->unconstrained; }

static bool entries_equal(const ss_spec_dim *a, const ss_spec_dim *b)
{
    if (a->naxes != b->naxes || a->unconstrained != b->unconstrained)
        return false;
    for (int k = 0; k < a->naxes; k++)
        if (strcmp(a->axes[k], b->axes[k]) != 0)
            return false;
    return true;
}

typedef struct apply_ctx {
    const ss_strategy *s;
    const ss_mesh *mesh;
    const strat_rule *rule;
    int index;
    const ss_param_info *p;
    ss_spec cur;
    ss_strategy_reason why;
} apply_ctx;

static ss_status conflict(apply_ctx *a, const char *what)
{
    ss__buf b;
    ss__buf_init(&b);
    ss__buf_printf(&b, "Conflict: %s already has a sharding spec ", a->p->path);
    spec_tuple_buf(&b, &a->cur);
    ss__buf_printf(&b, ", cannot %s.", what);
    ss_status st = rule_fail(a->rule, a->index, a->p->path, SS_ERR_INVALID,
                             b.data ? b.data : "Conflict");
    ss__buf_free(&b);
    return st;
}

static ss_status do_replicate(apply_ctx *a)
{
    for (int d = 0; d < a->cur.ndims; d++)
        if (entry_sharded(&a->cur.dims[d]))
            return conflict(a, "replicate");
    a->why = SS_REASON_REPLICATED;
    return SS_OK;
}

static ss_status do_fsdp(apply_ctx *a, const ss_tactic *t)
{
    const ss_param_info *p = a->p;
    int64_t axis_size = 1;
    for (int k = 0; k < t->axes.naxes; k++) {
        int ax = ss_mesh_axis_index(a->mesh, t->axes.axes[k]);
        if (ax < 0) {
            char mesh[512], msg[1024], name[SS__PY_REPR_MAX];
            ss_mesh_repr(a->mesh, 0, mesh, sizeof mesh);
            snprintf(msg, sizeof msg, "fsdp: mesh axis %s is not in %s",
                     ss__py_repr(t->axes.axes[k], name, sizeof name), mesh);
            return rule_fail(a->rule, a->index, p->path, SS_ERR_AXIS, msg);
        }
        axis_size *= ss_mesh_axis_size(a->mesh, ax);
    }
    int64_t numel = 1;
    ss__product(p->rank, p->shape, &numel); /* check_param: it fits */
    double bytes = (double)numel * (double)ss_dtype_size(p->dtype);
    if (bytes <= t->min_size_mb * 1048576.0) {
        a->why = SS_REASON_SMALL;
        return SS_OK;
    }
    /* np.argsort(shape)[::-1] with numpy's reference introsort, which keeps
     * equal sizes in index order for fewer than 17 elements: descending
     * size, and among equal sizes the last dimension first. */
    int order[SS_MAX_RANK];
    for (int d = 0; d < p->rank; d++)
        order[d] = p->rank - 1 - d;
    for (int i = 1; i < p->rank; i++) {
        int x = order[i], j = i;
        while (j > 0 && p->shape[order[j - 1]] < p->shape[x]) {
            order[j] = order[j - 1];
            j--;
        }
        order[j] = x;
    }
    for (int i = 0; i < p->rank; i++) {
        int d = order[i];
        if (entry_sharded(&a->cur.dims[d]) || p->shape[d] % axis_size != 0)
            continue;
        a->cur.dims[d] = t->axes;
        return SS_OK;
    }
    a->why = SS_REASON_INDIVISIBLE;
    return SS_OK;
}

/* Set the non-None entries of `spec` (mesh axes). */
static ss_status do_spec(apply_ctx *a, const ss_spec *spec, const char *what)
{
    ss_sharding sh;
    ss_sharding_init(&sh, a->mesh, spec);
    ss_status st = ss_sharding_check(&sh, a->p->rank, a->p->shape);
    if (st)
        return rule_fail(a->rule, a->index, a->p->path, st, ss_error_message());
    for (int d = 0; d < spec->ndims; d++) {
        const ss_spec_dim *e = &spec->dims[d];
        if (!entry_sharded(e))
            continue;
        if (entry_sharded(&a->cur.dims[d]) && !entries_equal(&a->cur.dims[d], e))
            return conflict(a, what);
    }
    for (int d = 0; d < spec->ndims; d++)
        if (entry_sharded(&spec->dims[d]))
            a->cur.dims[d] = spec->dims[d];
    a->why = SS_REASON_REPLICATED;
    return SS_OK;
}

static ss_status do_logical(apply_ctx *a, const ss_tactic *t)
{
    if (!a->s->have_lrules)
        return rule_fail(a->rule, a->index, a->p->path, SS_ERR_INVALID,
                         "logical(...) needs logical axis rules: add a `rules` line to the "
                         "strategy (or the scenario)");
    ss_rules_options o = {a->mesh, 0, SS_FALLBACK_UNSHARDED, NULL};
    ss_spec out;
    ss_status st = ss_rules_resolve(&a->s->lrules, &t->spec, &o, &out, NULL);
    if (st)
        return rule_fail(a->rule, a->index, a->p->path, st, ss_error_message());
    return do_spec(a, &out, "apply logical names");
}

static ss_status apply_rule(apply_ctx *a)
{
    for (int k = 0; k < a->rule->ntactics; k++) {
        const ss_tactic *t = &a->rule->tactics[k];
        ss_status st = SS_OK;
        switch (t->kind) {
        case SS_TACTIC_REPLICATE: st = do_replicate(a); break;
        case SS_TACTIC_FSDP: st = do_fsdp(a, t); break;
        case SS_TACTIC_SPEC: st = do_spec(a, &t->spec, "apply an explicit spec"); break;
        case SS_TACTIC_LOGICAL: st = do_logical(a, t); break;
        }
        if (st)
            return st;
    }
    return SS_OK;
}

static ss_status check_param(const ss_param_info *p, int i)
{
    if (!p->path)
        return ss__fail(SS_ERR_INVALID, "strategy: param %d has no path", i);
    if (p->rank < 0 || p->rank > SS_MAX_RANK)
        return ss__fail(SS_ERR_RANK, "strategy: param '%s' has rank %d (0..%d)", p->path,
                        p->rank, SS_MAX_RANK);
    if (!ss_dtype_size(p->dtype))
        return ss__fail(SS_ERR_INVALID, "strategy: param '%s' has an invalid dtype", p->path);
    for (int d = 0; d < p->rank; d++)
        if (p->shape[d] < 0)
            return ss__fail(SS_ERR_INVALID, "strategy: param '%s' has a negative dimension",
                            p->path);
    int64_t numel, bytes;
    if (!ss__product(p->rank, p->shape, &numel) ||
        !ss__mul_i64_checked(numel, (int64_t)ss_dtype_size(p->dtype), &bytes)) {
        ss__buf b;
        ss__buf_init(&b);
        ss__buf_int_tuple(&b, p->rank, p->shape);
        ss_status st = ss__fail(SS_ERR_RANGE, "strategy: param '%s' of shape %s has more than "
                                "2^63 - 1 bytes", p->path, b.data ? b.data : "(...)");
        ss__buf_free(&b);
        return st;
    }
    return SS_OK;
}

/* Close a parameter: check its spec as a NamedSharding and count bytes. */
static ss_status finish(const ss_strategy *s, const ss_mesh *mesh, const ss_param_info *p,
                        ss_param_sharding *o, ss_strategy_reason why)
{
    ss_sharding sh;
    int64_t local[SS_MAX_RANK];
    ss_sharding_init(&sh, mesh, &o->spec);
    ss_status st = ss_sharding_shard_shape(&sh, p->rank, p->shape, local);
    if (st) {
        if (o->rule >= 0)
            return rule_fail(&s->rules[o->rule], o->rule, p->path, st, ss_error_message());
        return st;
    }
    size_t bytes = ss_dtype_size(p->dtype);
    for (int d = 0; d < p->rank; d++)
        bytes *= (size_t)local[d];
    o->bytes_per_device = bytes;
    bool sharded = false;
    for (int d = 0; d < o->spec.ndims; d++)
        sharded = sharded || entry_sharded(&o->spec.dims[d]);
    o->reason = sharded ? SS_REASON_SHARDED : o->rule < 0 ? SS_REASON_NO_RULE : why;
    return SS_OK;
}

ss_status ss_strategy_apply(const ss_strategy *s, const ss_mesh *mesh, int n,
                            const ss_param_info params[], ss_param_sharding out[])
{
    if (!s || !mesh || n < 0 || (n > 0 && (!params || !out)))
        return ss__fail(SS_ERR_INVALID, "ss_strategy_apply: bad arguments");
    for (int i = 0; i < n; i++) {
        ss_status st = check_param(&params[i], i);
        if (st)
            return st;
        memset(&out[i], 0, sizeof out[i]);
        out[i].spec.ndims = params[i].rank;
        out[i].rule = -1;
    }
    ss_strategy_reason *why = calloc((size_t)(n ? n : 1), sizeof *why);
    if (!why)
        return ss__fail(SS_ERR_NOMEM, "strategy: out of host memory");
    ss_status st = SS_OK;
    /* Rule-major, as the seed: rule r sees the params no earlier rule took. */
    for (int r = 0; r < s->n && !st; r++) {
        for (int i = 0; i < n && !st; i++) {
            int matched = 0;
            if (out[i].rule >= 0)
                continue;
            st = rule_search(&s->rules[r], params[i].path, &matched);
            if (st) {
                char msg[1024];
                snprintf(msg, sizeof msg, "%s", ss_error_message());
                st = rule_fail(&s->rules[r], r, params[i].path, st, msg);
                break;
            }
            if (!matched)
                continue;
            apply_ctx a = {s, mesh, &s->rules[r], r, &params[i], out[i].spec,
                           SS_REASON_REPLICATED};
            st = apply_rule(&a);
            out[i].spec = a.cur;
            out[i].rule = r;
            why[i] = a.why;
        }
    }
    for (int i = 0; i < n && !st; i++)
        st = finish(s, mesh, &params[i], &out[i], why[i]);
    free(why);
    return st;
}
