/*
 * mlir_loc.c — locations (MLIR LangRef, "Locations"): loc(unknown),
 * loc("file.py":12:4), ranges "file.py":12:4 to 13:8 and to :8,
 * names loc("jit(f)/dot_general"(child)), loc(callsite(callee at caller)),
 * loc(fused[a, b]) and fused<metadata>[...], and #locN aliases, which JAX
 * defines before and after the module and uses before their definition.
 * Aliases are resolved once the whole text is read; an undefined or
 * cyclic alias is an error. Resolution to a user's file:line walks
 * callee frames first.
 */
#include "front/stablehlo/mlir_internal.h"

#include <stdlib.h>
#include <string.h>

static ss__mlir_loc *new_loc(ss__mlir_parser *p, ss__mlir_loc_kind k)
{
    ss__mlir_loc *l = ss__mlir_alloc(&p->m->arena, sizeof *l);
    if (!l) {
        ss__mlir_oom(p);
        return NULL;
    }
    l->kind = k;
    return l;
}

static bool num(ss__mlir_parser *p, int64_t *out)
{
    bool neg, hex;
    uint64_t v;
    if (!ss__mlir_int_lit(p, &neg, &v, &hex))
        return false;
    if (neg || v > INT32_MAX)
        return ss__mlir_err(p, "line or column out of range");
    *out = (int64_t)v;
    return true;
}

ss__mlir_loc *ss__mlir_p_loc_inner(ss__mlir_parser *p)
{
    if (!ss__mlir_enter(p))
        return NULL;
    ss__mlir_loc *l = NULL;
    ss__mlir_ws(p);
    const char *at = p->p;
    if (*at == '#') {
        const char *name = ss__mlir_suffix_id(p, '#');
        if (name && (l = new_loc(p, SS__MLIR_LOC_ALIAS))) {
            l->str = name;
            l->line = p->line;
            l->col = (int64_t)(at - p->line_start) + 1;
            l->owner = p->cur_alias;
            ss__mlir_vec_push(&p->loc_refs, l);
            if (p->loc_refs.oom)
                l = NULL, ss__mlir_oom(p);
        }
    } else if (ss__mlir_accept_kw(p, "unknown")) {
        l = new_loc(p, SS__MLIR_LOC_UNKNOWN);
    } else if (ss__mlir_accept_kw(p, "callsite")) {
        if (ss__mlir_expect(p, "(", "after 'callsite'") && (l = new_loc(p, SS__MLIR_LOC_CALLSITE)) &&
            (l->a = ss__mlir_p_loc_inner(p))) {
            if (!ss__mlir_accept_kw(p, "at"))
                ss__mlir_err(p, "expected 'at' in callsite(... at ...)");
            else if ((l->b = ss__mlir_p_loc_inner(p)))
                ss__mlir_expect(p, ")", "to close callsite(...)");
        }
    } else if (ss__mlir_accept_kw(p, "fused")) {
        if ((l = new_loc(p, SS__MLIR_LOC_FUSED))) {
            if (ss__mlir_accept(p, "<")) {
                if ((l->metadata = ss__mlir_p_attr(p)))
                    ss__mlir_expect(p, ">", "to close fused<...>");
            }
            ss__mlir_vec items = {0};
            if (!p->failed && ss__mlir_expect(p, "[", "after 'fused'")) {
                if (!ss__mlir_peek(p, "]")) {
                    do {
                        ss__mlir_loc *c = ss__mlir_p_loc_inner(p);
                        if (!c)
                            break;
                        ss__mlir_vec_push(&items, c);
                    } while (ss__mlir_accept(p, ","));
                }
                if (!p->failed && ss__mlir_expect(p, "]", "to close fused[...]")) {
                    l->n = items.n;
                    l->items = (ss__mlir_loc **)ss__mlir_vec_copy(p, &items);
                }
            }
            ss__mlir_vec_free(&items);
        }
    } else if (*at == '"') {
        size_t n;
        const char *s = ss__mlir_string(p, &n);
        if (s && ss__mlir_peek(p, ":")) {
            p->p++;
            if ((l = new_loc(p, SS__MLIR_LOC_FILE)) && num(p, &l->line)) {
                l->str = s;
                if (ss__mlir_accept(p, ":"))
                    num(p, &l->col);
                if (!p->failed && ss__mlir_accept_kw(p, "to")) {
                    /* `to L:C` or `to :C` (same line). */
                    if (ss__mlir_accept(p, ":")) {
                        l->end_line = l->line;
                        num(p, &l->end_col);
                    } else if (num(p, &l->end_line) && ss__mlir_expect(p, ":", "in a range")) {
                        num(p, &l->end_col);
                    }
                }
            }
        } else if (s && (l = new_loc(p, SS__MLIR_LOC_NAME))) {
            l->str = s;
            if (ss__mlir_accept(p, "(")) {
                if ((l->a = ss__mlir_p_loc_inner(p)))
                    ss__mlir_expect(p, ")", "to close a name location");
            }
        }
    } else {
        ss__mlir_err(p, "expected a location, found '%.12s'", at);
    }
    ss__mlir_leave(p);
    return p->failed ? NULL : l;
}

ss__mlir_loc *ss__mlir_p_loc_opt(ss__mlir_parser *p)
{
    if (!ss__mlir_accept_kw(p, "loc"))
        return NULL;
    if (!ss__mlir_expect(p, "(", "after 'loc'"))
        return NULL;
    ss__mlir_loc *l = ss__mlir_p_loc_inner(p);
    if (l && !ss__mlir_expect(p, ")", "to close loc(...)"))
        return NULL;
    return l;
}

bool ss__mlir_resolve_loc_aliases(ss__mlir_parser *p)
{
    /* Index the location aliases, point each reference at its target. */
    int na = p->aliases.n;
    for (int i = 0; i < p->loc_refs.n; i++) {
        ss__mlir_loc *r = p->loc_refs.v[i];
        ss__mlir_alias *a = ss__mlir_alias_find(p, r->str);
        if (!a || !a->loc) {
            /* Point at the reference itself. */
            const char *at = p->text;
            for (int64_t ln = 1; ln < r->line && at < p->end; at++)
                if (*at == '\n')
                    ln++;
            return ss__mlir_err_at(p, at + r->col - 1, SS_ERR_PARSE,
                                   "undefined location alias '%s'", r->str);
        }
        r->a = a->loc;
    }
    /* A cycle among alias definitions (#a = loc("x"(#b)), #b = loc(#a)):
     * Kahn's algorithm over alias -> alias edges. */
    if (na == 0)
        return true;
    int *indeg = calloc((size_t)na, sizeof *indeg);
    int *queue = malloc(sizeof *queue * (size_t)na);
    if (!indeg || !queue) {
        free(indeg);
        free(queue);
        return ss__mlir_oom(p);
    }
    /* Edge owner -> target: target must be finished first; count per owner. */
    for (int i = 0; i < p->loc_refs.n; i++) {
        ss__mlir_loc *r = p->loc_refs.v[i];
        if (r->owner)
            indeg[r->owner - 1]++;
    }
    /* Reverse edges by scanning refs per target each round (refs are few
     * per alias; a round processes the queue). */
    int head = 0, tail = 0;
    for (int i = 0; i < na; i++)
        if (indeg[i] == 0)
            queue[tail++] = i;
    /* refs grouped by target: a simple sort of ref indices by target. */
    int nr = p->loc_refs.n;
    int *by_target = malloc(sizeof *by_target * (size_t)(nr ? nr : 1));
    int *start = calloc((size_t)na + 1, sizeof *start);
    if (!by_target || !start) {
        free(indeg);
        free(queue);
        free(by_target);
        free(start);
        return ss__mlir_oom(p);
    }
    int *tgt = malloc(sizeof *tgt * (size_t)(nr ? nr : 1));
    if (!tgt) {
        free(indeg);
        free(queue);
        free(by_target);
        free(start);
        return ss__mlir_oom(p);
    }
    for (int i = 0; i < nr; i++) {
        ss__mlir_loc *r = p->loc_refs.v[i];
        tgt[i] = ss__mlir_hmap_get(&p->alias_map, r->str);
        if (tgt[i] >= 0)
            start[tgt[i] + 1]++;
    }
    for (int k = 0; k < na; k++)
        start[k + 1] += start[k];
    int *fill = calloc((size_t)na, sizeof *fill);
    if (!fill) {
        free(indeg);
        free(queue);
        free(by_target);
        free(start);
        free(tgt);
        return ss__mlir_oom(p);
    }
    for (int i = 0; i < nr; i++)
        if (tgt[i] >= 0)
            by_target[start[tgt[i]] + fill[tgt[i]]++] = i;
    int done = 0;
    while (head < tail) {
        int k = queue[head++];
        done++;
        for (int j = start[k]; j < start[k + 1]; j++) {
            ss__mlir_loc *r = p->loc_refs.v[by_target[j]];
            if (r->owner && --indeg[r->owner - 1] == 0)
                queue[tail++] = r->owner - 1;
        }
    }
    free(indeg);
    free(queue);
    free(by_target);
    free(start);
    free(tgt);
    free(fill);
    if (done < na)
        return ss__mlir_err_at(p, p->end, SS_ERR_PARSE, "location aliases refer to each other in a cycle");
    return true;
}

static void resolve(const ss__mlir_loc *l, ss__mlir_where *w, const char *name, int depth,
                    int *budget)
{
    /* Aliases were checked acyclic; the depth and visit bounds keep a walk
     * short on shared (DAG) alias chains that hold no file location. */
    while (l && l->kind == SS__MLIR_LOC_ALIAS && depth++ < 256)
        l = l->a;
    if (!l || w->file || depth > 256 || --*budget < 0)
        return;
    switch (l->kind) {
    case SS__MLIR_LOC_FILE:
        w->file = l->str;
        w->line = l->line;
        w->col = l->col;
        w->callee = name;
        break;
    case SS__MLIR_LOC_NAME:
        if (!w->op_name)
            w->op_name = l->str;
        resolve(l->a, w, l->str, depth + 1, budget);
        break;
    case SS__MLIR_LOC_CALLSITE:
        resolve(l->a, w, name, depth + 1, budget);
        resolve(l->b, w, name, depth + 1, budget);
        break;
    case SS__MLIR_LOC_FUSED:
        for (int i = 0; i < l->n && !w->file; i++)
            resolve(l->items[i], w, name, depth + 1, budget);
        break;
    default:
        break;
    }
}

void ss__mlir_loc_resolve(const ss__mlir_loc *loc, ss__mlir_where *out)
{
    memset(out, 0, sizeof *out);
    int budget = 4096;
    resolve(loc, out, NULL, 0, &budget);
}

typedef struct frames_ctx {
    ss__mlir_where *out;
    int cap, n, budget;
} frames_ctx;

static void frames(const ss__mlir_loc *l, frames_ctx *c, const char *name, int depth)
{
    while (l && l->kind == SS__MLIR_LOC_ALIAS && depth++ < 256)
        l = l->a;
    if (!l || depth > 256 || --c->budget < 0)
        return;
    switch (l->kind) {
    case SS__MLIR_LOC_FILE:
        if (c->n < c->cap)
            c->out[c->n] = (ss__mlir_where){l->str, l->line, l->col, name, NULL};
        c->n++;
        break;
    case SS__MLIR_LOC_NAME:
        frames(l->a, c, l->str, depth + 1);
        break;
    case SS__MLIR_LOC_CALLSITE:
        frames(l->a, c, name, depth + 1);
        frames(l->b, c, NULL, depth + 1);
        break;
    case SS__MLIR_LOC_FUSED: {
        int before = c->n;
        for (int i = 0; i < l->n && c->n == before; i++)
            frames(l->items[i], c, name, depth + 1);
        break;
    }
    default:
        break;
    }
}

int ss__mlir_loc_frames(const ss__mlir_loc *loc, ss__mlir_where *out, int cap)
{
    frames_ctx c = {out, cap, 0, 4096};
    frames(loc, &c, NULL, 0);
    return c.n;
}
