/*
 * hlo_text.c — reading and writing HLO sharding text, and the iota
 * arithmetic behind the "<=[...]T(...)" form (canonical reshape dims,
 * expansion to a device list, recognising a device list as an iota).
 *
 * Accepted (docs/semantics.md 4.1): {replicated}, {manual},
 * {maximal device=N}, and the tiled forms
 *     {devices=[d0,d1,...]id,id,...}                 explicit list ("V1")
 *     {devices=[d0,d1,...]<=[r0,...]}                 iota
 *     {devices=[d0,d1,...]<=[r0,...]T(p0,...)}        transposed iota ("V2")
 * each optionally followed by " last_tile_dim_replicate" or
 * " last_tile_dims={manual}" / "{replicated}" / "{manual, replicated}".
 * Blanks between tokens are allowed. Tuples, {unknown}, {unreduced},
 * metadata and shard groups are refused with a parse error.
 *
 * Printing first brings the sharding to XLA's normal form (as XLA's parser
 * does: subgroup canonicalisation, sorted replication groups) and then
 * writes the iota form whenever the device array is a transposed iota,
 * with XLA's canonical reshape dims, else the explicit list.
 */
#include "hlo_internal.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------------ */
/* Iota tile assignments                                                    */
/* ------------------------------------------------------------------------ */

void ss__iota_canonicalize(ss__iota *io)
{
    for (;;) {
        /* Drop size-1 dims, renumbering the permutation. */
        int renum[SS__IOTA_MAX], kept = 0;
        for (int i = 0; i < io->n; i++)
            renum[i] = io->dims[i] == 1 ? -1 : kept++;
        if (kept != io->n) {
            int np = 0;
            for (int i = 0; i < io->n; i++) {
                if (renum[i] >= 0)
                    io->dims[renum[i]] = io->dims[i];
                if (renum[io->perm[i]] >= 0)
                    io->perm[np++] = renum[io->perm[i]];
            }
            io->n = kept;
        }
        /* A run of perm entries d, d+1, d+2, ... reads those reshape dims
         * in their own order: they act as one dim of their product size.
         * Fold each run into its first dim and leave size 1 behind. */
        bool changed = false;
        for (int i = 1, base = 0; i < io->n; i++) {
            if (io->perm[i] == io->perm[base] + (i - base)) {
                io->dims[io->perm[base]] *= io->dims[io->perm[i]];
                io->dims[io->perm[i]] = 1;
                changed = true;
            } else {
                base = i;
            }
        }
        if (!changed)
            break;
    }
    if (io->n == 0) {
        io->n = 1;
        io->dims[0] = 1;
        io->perm[0] = 0;
    }
}

void ss__iota_fill(const ss__iota *io, int out[])
{
    int64_t stride[SS__IOTA_MAX], total = 1;
    for (int i = io->n - 1; i >= 0; i--) {
        stride[i] = total;
        total *= io->dims[i];
    }
    /* Walk the transposed array row-major with an odometer over its dims
     * (dims[perm[0]] major), keeping the value it holds up to date. */
    int64_t digit[SS__IOTA_MAX] = {0}, value = 0;
    for (int64_t q = 0; q < total; q++) {
        out[q] = (int)value;
        for (int k = io->n - 1; k >= 0; k--) {
            int d = io->perm[k];
            if (++digit[k] < io->dims[d]) {
                value += stride[d];
                break;
            }
            value -= (digit[k] - 1) * stride[d];
            digit[k] = 0;
        }
    }
}

bool ss__iota_detect(const int devices[], int n, ss__iota *out)
{
    /* Read the list as a mixed-radix number system on positions: the
     * fastest position digit moves the value by w = devices[1] and runs as
     * long as devices[j] == j * w; the next digit starts at that block
     * size, and so on. A digit whose stride continues the previous run is
     * the same (merged) digit, so the runs found are already maximal. */
    int64_t w[SS__IOTA_MAX], radix[SS__IOTA_MAX];
    int nd = 0;
    if (n < 1 || devices[0] != 0)
        return false;
    for (int64_t block = 1; block < n;) {
        int64_t step = devices[block], r = 1;
        if (step <= 0 || nd == SS__IOTA_MAX)
            return false;
        while (block * r < n && devices[block * r] == r * step)
            r++;
        if (n % (block * r) != 0)
            return false;
        w[nd] = step;
        radix[nd] = r;
        nd++;
        block *= r;
    }
    /* Every entry must follow from the digits... */
    for (int64_t pos = 0; pos < n; pos++) {
        int64_t rest = pos, v = 0;
        for (int k = 0; k < nd; k++) {
            v += (rest % radix[k]) * w[k];
            rest /= radix[k];
        }
        if (v != devices[pos])
            return false;
    }
    /* ...and the strides, smallest first, must be a mixed radix over the
     * values: 1, r0, r0*r1, ... (the value-side reshape of the iota). */
    int order[SS__IOTA_MAX];
    for (int k = 0; k < nd; k++)
        order[k] = k;
    for (int i = 1; i < nd; i++)
        for (int j = i; j > 0 && w[order[j - 1]] > w[order[j]]; j--) {
            int t = order[j];
            order[j] = order[j - 1];
            order[j - 1] = t;
        }
    int64_t expect = 1;
    for (int i = 0; i < nd; i++) {
        if (w[order[i]] != expect)
            return false;
        expect *= radix[order[i]];
    }
    /* Reshape dims are the value digits, largest stride first; the
     * transpose lists them in position order, major first. */
    int dim_of[SS__IOTA_MAX];
    out->n = nd;
    for (int i = 0; i < nd; i++) {
        int k = order[nd - 1 - i];
        out->dims[i] = radix[k];
        dim_of[k] = i;
    }
    for (int i = 0; i < nd; i++)
        out->perm[i] = dim_of[nd - 1 - i];
    ss__iota_canonicalize(out);
    return true;
}

/* ------------------------------------------------------------------------ */
/* Parsing                                                                  */
/* ------------------------------------------------------------------------ */

typedef struct parser {
    const char *text;
    const char *p;
} parser;

static void skip_ws(parser *ps)
{
    while (isspace((unsigned char)*ps->p))
        ps->p++;
}

static int col_at(const parser *ps, const char *at) { return (int)(at - ps->text) + 1; }

/* Fail with the text (shortened when long) and the 1-based column of `at`. */
static ss_status fail_at(const parser *ps, const char *at, ss_status st, const char *what)
{
    size_t len = strlen(ps->text);
    return ss__fail(st, "HLO sharding '%.60s%s': %s at column %d", ps->text,
                    len > 60 ? "..." : "", what, col_at(ps, at));
}

/* Consume `lit` after optional blanks. */
static bool accept(parser *ps, const char *lit)
{
    skip_ws(ps);
    size_t n = strlen(lit);
    if (strncmp(ps->p, lit, n) != 0)
        return false;
    ps->p += n;
    return true;
}

/* Consume the keyword `word` (not followed by a letter, digit or '_'). */
static bool accept_word(parser *ps, const char *word)
{
    skip_ws(ps);
    size_t n = strlen(word);
    if (strncmp(ps->p, word, n) != 0)
        return false;
    char next = ps->p[n];
    if (isalnum((unsigned char)next) || next == '_')
        return false;
    ps->p += n;
    return true;
}

static ss_status expect(parser *ps, const char *lit, const char *what)
{
    if (accept(ps, lit))
        return SS_OK;
    return fail_at(ps, ps->p, SS_ERR_PARSE, what);
}

static ss_status parse_int(parser *ps, int64_t *out, const char *what)
{
    skip_ws(ps);
    if (!isdigit((unsigned char)*ps->p))
        return fail_at(ps, ps->p, SS_ERR_PARSE, what);
    int64_t v = 0;
    const char *start = ps->p;
    while (isdigit((unsigned char)*ps->p)) {
        if (v > (INT32_MAX - 9) / 10)
            return fail_at(ps, start, SS_ERR_RANGE, "number too large");
        v = v * 10 + (*ps->p - '0');
        ps->p++;
    }
    *out = v;
    return SS_OK;
}

/* "a,b,c" up to (not including) `close`, which is consumed. At least one
 * number; at most `cap`. */
static ss_status parse_list(parser *ps, int64_t vals[], int cap, int *n, char close,
                            const char *what)
{
    char closing[2] = {close, '\0'};
    *n = 0;
    for (;;) {
        const char *at = (skip_ws(ps), ps->p);
        if (*n == cap)
            return fail_at(ps, at, SS_ERR_RANGE, "too many numbers in the list");
        ss_status st = parse_int(ps, &vals[*n], what);
        if (st)
            return st;
        (*n)++;
        if (accept(ps, closing))
            return SS_OK;
        if (!accept(ps, ",")) {
            char msg[48];
            snprintf(msg, sizeof msg, "expected ',' or '%c'", close);
            return fail_at(ps, ps->p, SS_ERR_PARSE, msg);
        }
    }
}

static ss_status parse_iota(parser *ps, ss_hlo *out, const char *at)
{
    ss__iota io;
    int64_t vals[SS__IOTA_MAX];
    ss_status st = expect(ps, "[", "expected '[' after '<='");
    if (!st)
        st = parse_list(ps, vals, SS__IOTA_MAX, &io.n, ']', "expected an iota dimension size");
    if (st)
        return st;
    int64_t total = 1;
    for (int i = 0; i < io.n; i++) {
        if (vals[i] < 1)
            return fail_at(ps, at, SS_ERR_PARSE, "iota dimension of size 0");
        io.dims[i] = vals[i];
        if (!ss__mul_i64_checked(total, vals[i], &total) || total > SS_MAX_DEVICES)
            return fail_at(ps, at, SS_ERR_PARSE,
                           "the iota's size differs from the product of the tile dimensions");
        io.perm[i] = i;
    }
    if (total != out->ndevices)
        return fail_at(ps, at, SS_ERR_PARSE,
                       "the iota's size differs from the product of the tile dimensions");
    skip_ws(ps);
    const char *tat = ps->p;
    if (accept(ps, "T")) {
        int np;
        st = expect(ps, "(", "expected '(' after 'T'");
        if (!st)
            st = parse_list(ps, vals, SS__IOTA_MAX, &np, ')', "expected a dimension number");
        if (st)
            return st;
        bool seen[SS__IOTA_MAX] = {false};
        for (int i = 0; i < np; i++) {
            if (np != io.n || vals[i] >= io.n || seen[vals[i]])
                return fail_at(ps, tat, SS_ERR_PARSE,
                               "the transpose is not a permutation of the iota's dimensions");
            seen[vals[i]] = true;
            io.perm[i] = (int)vals[i];
        }
    }
    ss__iota_fill(&io, out->devices);
    return SS_OK;
}

static ss_status parse_list_devices(parser *ps, ss_hlo *out)
{
    unsigned char seen[SS_MAX_DEVICES] = {0};
    const char *start = (skip_ws(ps), ps->p);
    for (int i = 0;; i++) {
        const char *at = (skip_ws(ps), ps->p);
        int64_t v;
        ss_status st = parse_int(ps, &v, "expected a device id or '<='");
        if (st)
            return st;
        if (i == out->ndevices)
            return fail_at(ps, at, SS_ERR_PARSE,
                           "more device ids than the tile dimensions hold");
        if (v >= SS_MAX_DEVICES)
            return fail_at(ps, at, SS_ERR_RANGE, "device id beyond the supported devices");
        if (seen[v]++)
            return fail_at(ps, at, SS_ERR_PARSE, "device id listed twice");
        out->devices[i] = (int)v;
        if (!accept(ps, ",")) {
            if (i + 1 != out->ndevices)
                return fail_at(ps, start, SS_ERR_PARSE,
                               "fewer device ids than the tile dimensions hold");
            return SS_OK;
        }
    }
}

static ss_status parse_subgroups(parser *ps, ss_hlo *out)
{
    ss_status st = expect(ps, "=", "expected '=' after last_tile_dims");
    const char *open = (skip_ws(ps), ps->p);
    if (!st)
        st = expect(ps, "{", "expected '{' after last_tile_dims=");
    if (st)
        return st;
    for (;;) {
        const char *at = (skip_ws(ps), ps->p);
        ss_hlo_subgroup t;
        if (accept_word(ps, "manual"))
            t = SS_HLO_SUB_MANUAL;
        else if (accept_word(ps, "replicated"))
            t = SS_HLO_SUB_REPLICATED;
        else
            return fail_at(ps, at, SS_ERR_PARSE,
                           "expected subgroup type manual or replicated");
        if (out->nsub == 2)
            return fail_at(ps, at, SS_ERR_PARSE, "more than two subgroup types");
        out->sub[out->nsub++] = t;
        if (accept(ps, "}"))
            break;
        if (!accept(ps, ","))
            return fail_at(ps, ps->p, SS_ERR_PARSE, "expected ',' or '}'");
    }
    if (out->nsub > out->ndims)
        return fail_at(ps, open, SS_ERR_PARSE, "more subgroup types than tile dimensions");
    return SS_OK;
}

static ss_status parse_tiled(parser *ps, ss_hlo *out)
{
    int64_t dims[SS_MAX_RANK + 2];
    ss_status st = expect(ps, "=", "expected '=' after devices");
    if (!st)
        st = expect(ps, "[", "expected '[' after devices=");
    const char *dims_at = (skip_ws(ps), ps->p);
    if (!st)
        st = parse_list(ps, dims, SS_MAX_RANK + 2, &out->ndims, ']',
                        "expected a tile dimension size");
    if (st)
        return st;
    int64_t total = 1;
    for (int i = 0; i < out->ndims; i++) {
        if (dims[i] < 1)
            return fail_at(ps, dims_at, SS_ERR_PARSE, "tile dimension of size 0");
        out->tile_dims[i] = dims[i];
        if (!ss__mul_i64_checked(total, dims[i], &total) || total > SS_MAX_DEVICES)
            return fail_at(ps, dims_at, SS_ERR_RANGE, "more tiles than the supported devices");
    }
    out->ndevices = (int)total;
    out->devices = malloc(sizeof(int) * (size_t)total);
    if (!out->devices)
        return ss__fail(SS_ERR_NOMEM, "HLO sharding: out of host memory");
    skip_ws(ps);
    const char *at = ps->p;
    st = accept(ps, "<=") ? parse_iota(ps, out, at) : parse_list_devices(ps, out);
    if (st)
        return st;

    skip_ws(ps);
    at = ps->p;
    if (accept_word(ps, "last_tile_dim_replicate")) {
        out->nsub = 1;
        out->sub[0] = SS_HLO_SUB_REPLICATED;
    } else if (accept_word(ps, "last_tile_dims")) {
        st = parse_subgroups(ps, out);
    } else if (*ps->p != '}') {
        return fail_at(ps, at, SS_ERR_PARSE,
                       "expected '}', last_tile_dim_replicate or last_tile_dims=");
    }
    return st;
}

ss_status ss_hlo_parse(const char *text, ss_hlo *out)
{
    memset(out, 0, sizeof *out);
    if (!text)
        return ss__fail(SS_ERR_INVALID, "HLO sharding: text is NULL");
    parser ps = {text, text};
    ss_status st = expect(&ps, "{", "expected '{'");
    if (st)
        return st;
    const char *at = (skip_ws(&ps), ps.p);
    if (accept_word(&ps, "replicated")) {
        out->kind = SS_HLO_REPLICATED;
    } else if (accept_word(&ps, "manual")) {
        out->kind = SS_HLO_MANUAL;
    } else if (accept_word(&ps, "maximal")) {
        int64_t id;
        out->kind = SS_HLO_MAXIMAL;
        st = accept_word(&ps, "device") ? SS_OK
                                        : fail_at(&ps, ps.p, SS_ERR_PARSE,
                                                  "expected 'device' after maximal");
        if (!st)
            st = expect(&ps, "=", "expected '=' after device");
        if (!st)
            st = parse_int(&ps, &id, "expected a device id");
        if (!st)
            out->maximal_device = (int)id;
    } else if (accept_word(&ps, "devices")) {
        out->kind = SS_HLO_TILED;
        st = parse_tiled(&ps, out);
    } else {
        st = fail_at(&ps, at, SS_ERR_PARSE,
                     "expected replicated, manual, maximal or devices (other HLO shardings "
                     "are not supported)");
    }
    if (!st)
        st = expect(&ps, "}", "expected '}'");
    if (!st) {
        skip_ws(&ps);
        if (*ps.p)
            st = fail_at(&ps, ps.p, SS_ERR_PARSE, "unexpected text after the closing '}'");
    }
    if (st)
        ss_hlo_free(out);
    return st;
}

/* ------------------------------------------------------------------------ */
/* Printing                                                                 */
/* ------------------------------------------------------------------------ */

void ss_hlo_free(ss_hlo *hlo)
{
    if (!hlo)
        return;
    free(hlo->devices);
    hlo->devices = NULL;
    hlo->ndevices = 0;
}

void ss__hlo_print_buf(ss__buf *b, const ss_hlo *hlo, const ss__iota *iota)
{
    switch (hlo->kind) {
    case SS_HLO_REPLICATED:
        ss__buf_puts(b, "{replicated}");
        return;
    case SS_HLO_MANUAL:
        ss__buf_puts(b, "{manual}");
        return;
    case SS_HLO_MAXIMAL:
        ss__buf_printf(b, "{maximal device=%d}", hlo->maximal_device);
        return;
    case SS_HLO_TILED:
        break;
    }
    ss__buf_puts(b, "{devices=[");
    for (int i = 0; i < hlo->ndims; i++)
        ss__buf_printf(b, i ? ",%lld" : "%lld", (long long)hlo->tile_dims[i]);
    ss__buf_putc(b, ']');
    if (iota) {
        ss__buf_puts(b, "<=[");
        for (int i = 0; i < iota->n; i++)
            ss__buf_printf(b, i ? ",%lld" : "%lld", (long long)iota->dims[i]);
        ss__buf_putc(b, ']');
        if (iota->n > 1) {
            ss__buf_puts(b, "T(");
            for (int i = 0; i < iota->n; i++)
                ss__buf_printf(b, i ? ",%d" : "%d", iota->perm[i]);
            ss__buf_putc(b, ')');
        }
    } else {
        for (int i = 0; i < hlo->ndevices; i++)
            ss__buf_printf(b, i ? ",%d" : "%d", hlo->devices[i]);
    }
    if (hlo->nsub == 1 && hlo->sub[0] == SS_HLO_SUB_REPLICATED) {
        ss__buf_puts(b, " last_tile_dim_replicate");
    } else if (hlo->nsub > 0) {
        ss__buf_puts(b, " last_tile_dims={");
        for (int i = 0; i < hlo->nsub; i++) {
            if (i)
                ss__buf_puts(b, ", ");
            ss__buf_puts(b, hlo->sub[i] == SS_HLO_SUB_MANUAL ? "manual" : "replicated");
        }
        ss__buf_putc(b, '}');
    }
    ss__buf_putc(b, '}');
}

ss_status ss_hlo_print(const ss_hlo *hlo, char *buf, size_t cap)
{
    ss_status st = ss__hlo_check(hlo);
    if (st)
        return st;
    ss_hlo norm;
    st = ss__hlo_normalize(hlo, &norm);
    if (st)
        return st;
    ss__iota iota;
    bool has_iota =
        norm.kind == SS_HLO_TILED && ss__iota_detect(norm.devices, norm.ndevices, &iota);
    ss__buf b;
    ss__buf_init(&b);
    ss__hlo_print_buf(&b, &norm, has_iota ? &iota : NULL);
    ss_hlo_free(&norm);
    st = ss__buf_copy_out(&b, buf, cap, NULL);
    ss__buf_free(&b);
    return st;
}
