/*
 * viz.c — jax.debug.visualize_array_sharding's picture of which device holds
 * which block of an array, byte for byte, and its extension to arrays of
 * any rank (one 2-D picture per block of the other dimensions).
 *
 * The layout rules (docs/semantics.md section 5), in our words: each device's
 * block gets a chunk index per dimension (start / block size); devices with
 * the same chunk indices share one cell labelled "<PLATFORM> <ids ascending>".
 * A cell's nominal size comes from the block's share of the array: height
 * int(fraction * int(10 * scale)) lines, width int(fraction * base_width *
 * 2.5) clamped to [min_width, max_width], where base_width = int(base_height
 * * shape[1] / shape[0]) (1-D arrays: one row, height 1, aspect 1/shape[0]).
 * The label is centred by Python divmod paddings; colour mode adds 1 to each
 * padding and drops the box. table.c draws the grid as rich would.
 *
 * Python float arithmetic is reproduced by doing the same IEEE double
 * operations in the same order; Python's int() is trunc().
 *
 * Not done here: drawing uneven shardings (JAX cannot either: it asserts),
 * zero-size dimensions (JAX divides by zero), rich's highlighting of numbers
 * on a colour terminal (JAX's use_color=False on a tty; our colour mode is
 * JAX's use_color=True).
 */
#include "viz_internal.h"

#include <ctype.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Resolved ss_viz_options. */
#define VIZ_PLATFORM_MAX 32 /* a platform label, with its NUL ("CPU", "TPU") */

typedef struct viz_opts {
    char platform[VIZ_PLATFORM_MAX];
    double scale;
    int min_width, max_width;
    bool color;
} viz_opts;

/* One device's block, reduced to the picture's (at most two) dimensions. */
typedef struct viz_block {
    int device;
    int64_t start[2], stop[2];
} viz_block;

#define VIZ_MAX_SCALE 1000.0   /* 10 * scale lines must stay a sane number */
#define VIZ_MAX_WIDTH 65536

static ss_status resolve_opts(const ss_viz_options *in, viz_opts *o)
{
    const char *platform = in && in->platform ? in->platform : "CPU";
    size_t n = strlen(platform);
    if (n == 0 || n >= VIZ_PLATFORM_MAX)
        return ss__fail(SS_ERR_INVALID, "visualize: platform '%s' must be 1..%d characters",
                        platform, VIZ_PLATFORM_MAX - 1);
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)platform[i];
        if (!(isalnum(c) || c == '_' || c == '-' || c == '.'))
            return ss__fail(SS_ERR_INVALID,
                            "visualize: platform '%s' may only hold letters, digits, '_', '-' "
                            "and '.'",
                            platform);
        /* JAX labels cells with device.platform.upper(). */
        o->platform[i] = (char)toupper(c);
    }
    o->platform[n] = '\0';

    o->scale = in && in->scale != 0.0 ? in->scale : 1.0;
    if (!isfinite(o->scale) || fabs(o->scale) > VIZ_MAX_SCALE)
        return ss__fail(SS_ERR_INVALID, "visualize: scale %g is outside [-%g, %g]", o->scale,
                        VIZ_MAX_SCALE, VIZ_MAX_SCALE);
    o->min_width = in && in->min_width ? in->min_width : 9;
    o->max_width = in && in->max_width ? in->max_width : 80;
    if (o->min_width < 0 || o->min_width > VIZ_MAX_WIDTH || o->max_width < 0 ||
        o->max_width > VIZ_MAX_WIDTH)
        return ss__fail(SS_ERR_INVALID,
                        "visualize: min_width %d and max_width %d must be in 0..%d (0 = default)",
                        o->min_width, o->max_width, VIZ_MAX_WIDTH);
    o->color = in && in->color;
    return SS_OK;
}

/* ------------------------------------------------------------------------ */
/* Colours                                                                   */
/* ------------------------------------------------------------------------ */

/* matplotlib's "tab20b" as JAX turns it into text: int(channel * 255) of
 * each of the 20 listed colours. Checked against matplotlib 3.6.3 (the
 * float round trip gives back these exact integers there); the list has
 * not changed in later releases as far as we know [unverified]. */
static const unsigned char TAB20B[20][3] = {
    {57, 59, 121},   {82, 84, 163},   {107, 110, 207}, {156, 158, 222}, {99, 121, 57},
    {140, 162, 82},  {181, 207, 107}, {206, 219, 156}, {140, 109, 49},  {189, 158, 57},
    {231, 186, 82},  {231, 203, 148}, {132, 60, 57},   {173, 73, 74},   {214, 97, 107},
    {231, 150, 156}, {123, 65, 115},  {165, 81, 148},  {206, 109, 189}, {222, 158, 214},
};

ss__viz_style ss__viz_cell_style(int64_t k, int64_t ncells)
{
    /* make_color_iter: the k-th colour is linspace(0, 1, n)[k * step % n]
     * with step = n // 2 + (n even); a colormap of 20 entries maps a value v
     * to entry int(v * 20), 1.0 to the last. */
    int64_t n = ncells > 0 ? ncells : 1;
    int64_t step = n / 2 + (n % 2 == 0);
    int64_t idx = (k % n) * (step % n) % n;
    double v = n == 1 ? 0.0 : (idx == n - 1 ? 1.0 : (double)idx * (1.0 / (double)(n - 1)));
    double x = v * 20.0;
    int entry = x >= 20.0 ? 19 : (int)x;
    ss__viz_style s;
    memcpy(s.bg, TAB20B[entry], 3);
    int r = s.bg[0], g = s.bg[1], b = s.bg[2];
    unsigned char text = r * 0.299 + g * 0.587 + b * 0.114 > 186 ? 0 : 255;
    memset(s.fg, text, 3);
    return s;
}

/* ------------------------------------------------------------------------ */
/* One picture                                                               */
/* ------------------------------------------------------------------------ */

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* Python's min(max(int(x), lo), hi) for a finite double x. */
static long clamp_trunc(double x, long lo, long hi)
{
    double t = trunc(x);
    long v = t < (double)lo ? lo : (t > (double)LONG_MAX / 2 ? LONG_MAX / 2 : (long)t);
    return v > hi ? hi : v;
}

/* Append the picture of `n` blocks of an array of `rank` (1 or 2) dims. */
static ss_status draw_picture(const viz_opts *o, int rank, const int64_t shape[],
                              const viz_block *blocks, int n, ss__buf *out)
{
    for (int d = 0; d < rank; d++)
        if (shape[d] <= 0)
            return ss__fail(SS_ERR_INVALID,
                            "visualize: dimension %d has size %lld; only arrays with every "
                            "dimension >= 1 can be drawn",
                            d, (long long)shape[d]);
    double base_height = trunc(10.0 * o->scale);
    double aspect = (rank == 2 ? (double)shape[1] : 1.0) / (double)shape[0];
    double base_width = trunc(base_height * aspect);

    /* Chunk indices: row and column of every block's cell. */
    int64_t nrows = 0, ncols = 0;
    int64_t *row = malloc((size_t)n * sizeof *row), *col = malloc((size_t)n * sizeof *col);
    if (!row || !col) {
        free(row);
        free(col);
        return ss__fail(SS_ERR_NOMEM, "visualize: out of host memory");
    }
    for (int i = 0; i < n; i++) {
        int64_t chunk[2] = {0, 0};
        for (int d = 0; d < rank; d++) {
            int64_t size = blocks[i].stop[d] - blocks[i].start[d];
            if (size <= 0 || blocks[i].start[d] % size || shape[d] % size) {
                free(row);
                free(col);
                return ss__fail(SS_ERR_INVALID,
                                "visualize: device %d holds [%lld:%lld) of dimension %d (size "
                                "%lld), which is not an even block; only even shardings can "
                                "be drawn",
                                blocks[i].device, (long long)blocks[i].start[d],
                                (long long)blocks[i].stop[d], d, (long long)shape[d]);
            }
            chunk[d] = blocks[i].start[d] / size;
        }
        row[i] = rank == 2 ? chunk[0] : 0;
        col[i] = rank == 2 ? chunk[1] : chunk[0];
        if (row[i] + 1 > nrows)
            nrows = row[i] + 1;
        if (col[i] + 1 > ncols)
            ncols = col[i] + 1;
    }
    if (nrows * ncols > n) {
        free(row);
        free(col);
        return ss__fail(SS_ERR_INVALID, "visualize: %lld x %lld cells but only %d devices",
                        (long long)nrows, (long long)ncols, n);
    }
    int ncells = (int)(nrows * ncols);

    /* Devices of each cell, ascending: counting sort by cell, then qsort. */
    int *count = calloc((size_t)ncells + 1, sizeof *count);
    int *ids = malloc((size_t)n * sizeof *ids);
    int *first = malloc((size_t)ncells * sizeof *first);
    ss__viz_cell *cells = calloc((size_t)ncells, sizeof *cells);
    ss__viz_style *styles = malloc((size_t)ncells * sizeof *styles);
    size_t *label_at = malloc((size_t)ncells * sizeof *label_at);
    ss__buf labels;
    ss__buf_init(&labels);
    ss_status st = SS_OK;
    if (!count || !ids || !first || !cells || !styles || !label_at) {
        st = ss__fail(SS_ERR_NOMEM, "visualize: out of host memory");
        goto done;
    }
    for (int i = 0; i < n; i++)
        count[row[i] * ncols + col[i] + 1]++;
    for (int c = 0; c < ncells; c++) {
        if (count[c + 1] == 0) {
            st = ss__fail(SS_ERR_INVALID, "visualize: no device holds block (%lld, %lld)",
                          (long long)(c / ncols), (long long)(c % ncols));
            goto done;
        }
        count[c + 1] += count[c];
    }
    for (int i = 0; i < n; i++) {
        int64_t c = row[i] * ncols + col[i];
        first[c] = i;
        ids[count[c]++] = blocks[i].device;
    }
    /* count[c] is now the end of cell c's ids; its start is count[c - 1]. */
    for (int c = 0; c < ncells; c++) {
        int lo = c ? count[c - 1] : 0, hi = count[c];
        qsort(ids + lo, (size_t)(hi - lo), sizeof *ids, cmp_int);
        label_at[c] = labels.len;
        ss__buf_puts(&labels, o->platform);
        for (int k = lo; k < hi; k++)
            ss__buf_printf(&labels, k == lo ? " %d" : ",%d", ids[k]);
        ss__buf_putc(&labels, '\0');
    }
    if (labels.oom) {
        st = ss__fail(SS_ERR_NOMEM, "visualize: out of host memory");
        goto done;
    }

    for (int c = 0; c < ncells; c++) {
        const viz_block *b = &blocks[first[c]];
        ss__viz_cell *cell = &cells[c];
        cell->label = labels.data + label_at[c];
        double wfrac, height;
        if (rank == 2) {
            double hfrac = (double)(b->stop[0] - b->start[0]) / (double)shape[0];
            wfrac = (double)(b->stop[1] - b->start[1]) / (double)shape[1];
            height = trunc(hfrac * base_height);
        } else {
            wfrac = (double)(b->stop[0] - b->start[0]) / (double)shape[0];
            height = 1.0;
        }
        long width = clamp_trunc(wfrac * base_width * 2.5, o->min_width, o->max_width);
        long len = (long)strlen(cell->label);
        long h = (long)height;
        long left = ss__floordiv(width - len - 2, 2);
        long right = left + ss__floormod(width - len - 2, 2);
        long top = ss__floordiv(h - 2, 2);
        long bottom = top + ss__floormod(h - 2, 2);
        cell->style = -1;
        if (o->color) {
            styles[c] = ss__viz_cell_style(c, ncells);
            cell->style = c;
            left++;
            right++;
            top++;
            bottom++;
        }
        cell->left = (int)(left > 0 ? left : 0);
        cell->right = (int)(right > 0 ? right : 0);
        cell->top = (int)(top > 0 ? top : 0);
        cell->bottom = (int)(bottom > 0 ? bottom : 0);
    }

    ss__viz_table table = {(int)nrows, (int)ncols, cells, styles, !o->color, o->max_width};
    ss__viz_table_render(&table, out);

done:
    ss__buf_free(&labels);
    free(label_at);
    free(styles);
    free(cells);
    free(first);
    free(ids);
    free(count);
    free(row);
    free(col);
    return st;
}

/* ------------------------------------------------------------------------ */
/* Public entry points                                                       */
/* ------------------------------------------------------------------------ */

static ss_status all_shards(const ss_sharding *sh, int rank, const int64_t shape[],
                            ss_shard **out, int *n)
{
    if (!sh || !sh->mesh || (rank > 0 && !shape))
        return ss__fail(SS_ERR_INVALID, "visualize: sharding, mesh and shape are required");
    *n = ss_mesh_device_count(sh->mesh);
    *out = malloc((size_t)*n * sizeof **out);
    if (!*out)
        return ss__fail(SS_ERR_NOMEM, "visualize: out of host memory");
    ss_status st = ss_sharding_shards(sh, rank, shape, SS_F32, *out, *n);
    if (st) {
        free(*out);
        *out = NULL;
    }
    return st;
}

static ss_status finish(ss__buf *b, ss_status st, char *out, size_t cap, size_t *len)
{
    if (st == SS_OK)
        st = ss__buf_copy_out(b, out, cap, len);
    else if (out && cap)
        out[0] = '\0';
    ss__buf_free(b);
    return st;
}

ss_status ss_viz_sharding(const ss_sharding *sh, int rank, const int64_t shape[],
                          const ss_viz_options *opts, char *out, size_t cap, size_t *len)
{
    if (rank < 1 || rank > 2)
        return ss__fail(SS_ERR_INVALID,
                        "`visualize_sharding` only works for shapes with 1 and 2 dimensions.");
    viz_opts o;
    ss_status st = resolve_opts(opts, &o);
    if (st)
        return st;
    ss_shard *shards;
    int n;
    st = all_shards(sh, rank, shape, &shards, &n);
    if (st)
        return st;
    viz_block *blocks = malloc((size_t)n * sizeof *blocks);
    ss__buf b;
    ss__buf_init(&b);
    if (!blocks) {
        st = ss__fail(SS_ERR_NOMEM, "visualize: out of host memory");
    } else {
        for (int i = 0; i < n; i++) {
            blocks[i].device = shards[i].device;
            for (int d = 0; d < rank; d++) {
                blocks[i].start[d] = shards[i].start[d];
                blocks[i].stop[d] = shards[i].stop[d];
            }
        }
        st = draw_picture(&o, rank, shape, blocks, n, &b);
    }
    free(blocks);
    free(shards);
    return finish(&b, st, out, cap, len);
}

/* "[0:2, :, :]": the block's range in each other dimension (":" when that
 * dimension is not split), ":" for the two pictured dimensions. */
static void block_heading(ss__buf *b, int rank, const int64_t shape[], const int64_t factors[],
                          const int64_t chunk[], int row_dim, int col_dim)
{
    ss__buf_putc(b, '[');
    for (int d = 0; d < rank; d++) {
        if (d)
            ss__buf_puts(b, ", ");
        if (d == row_dim || d == col_dim || factors[d] == 1) {
            ss__buf_putc(b, ':');
        } else {
            int64_t size = shape[d] / factors[d];
            ss__buf_printf(b, "%lld:%lld", (long long)(chunk[d] * size),
                           (long long)((chunk[d] + 1) * size));
        }
    }
    ss__buf_puts(b, "]\n");
}

ss_status ss_viz_sharding_nd(const ss_sharding *sh, int rank, const int64_t shape[],
                             int row_dim, int col_dim, const ss_viz_options *opts,
                             char *out, size_t cap, size_t *len)
{
    if (rank <= 2)
        return ss_viz_sharding(sh, rank, shape, opts, out, cap, len);
    if (rank > SS_MAX_RANK)
        return ss__fail(SS_ERR_RANK, "visualize: rank %d is above %d", rank, SS_MAX_RANK);
    if (row_dim == -1 && col_dim == -1) {
        row_dim = rank - 2;
        col_dim = rank - 1;
    }
    if (row_dim < 0 || row_dim >= rank || col_dim < 0 || col_dim >= rank || row_dim == col_dim)
        return ss__fail(SS_ERR_INVALID,
                        "visualize: row_dim %d and col_dim %d must be two different "
                        "dimensions in 0..%d (or both -1 for the last two)",
                        row_dim, col_dim, rank - 1);
    viz_opts o;
    ss_status st = resolve_opts(opts, &o);
    if (st)
        return st;
    ss_shard *shards;
    int n;
    st = all_shards(sh, rank, shape, &shards, &n);
    if (st)
        return st;
    for (int d = 0; d < rank; d++)
        if (shape[d] == 0) {
            free(shards);
            return ss__fail(SS_ERR_INVALID,
                            "visualize: dimension %d has size 0; only arrays with every "
                            "dimension >= 1 can be drawn",
                            d);
        }
    int64_t factors[SS_MAX_RANK];
    ss_sharding_tiling(sh, rank, factors);

    int64_t nblocks = 1;
    for (int d = 0; d < rank; d++)
        if (d != row_dim && d != col_dim)
            nblocks *= factors[d];
    int64_t shape2[2] = {shape[row_dim], shape[col_dim]};
    viz_block *blocks = malloc((size_t)n * sizeof *blocks);
    ss__buf b;
    ss__buf_init(&b);
    if (!blocks)
        st = ss__fail(SS_ERR_NOMEM, "visualize: out of host memory");
    for (int64_t k = 0; k < nblocks && st == SS_OK; k++) {
        /* Chunk of every other dimension, the last one varying fastest. */
        int64_t chunk[SS_MAX_RANK] = {0}, rest = k;
        for (int d = rank - 1; d >= 0; d--) {
            if (d == row_dim || d == col_dim)
                continue;
            chunk[d] = rest % factors[d];
            rest /= factors[d];
        }
        int m = 0;
        for (int i = 0; i < n; i++) {
            bool inside = true;
            for (int d = 0; d < rank && inside; d++)
                if (d != row_dim && d != col_dim)
                    inside = shards[i].start[d] == chunk[d] * (shape[d] / factors[d]);
            if (!inside)
                continue;
            blocks[m].device = shards[i].device;
            blocks[m].start[0] = shards[i].start[row_dim];
            blocks[m].stop[0] = shards[i].stop[row_dim];
            blocks[m].start[1] = shards[i].start[col_dim];
            blocks[m].stop[1] = shards[i].stop[col_dim];
            m++;
        }
        if (k)
            ss__buf_putc(&b, '\n');
        block_heading(&b, rank, shape, factors, chunk, row_dim, col_dim);
        st = draw_picture(&o, 2, shape2, blocks, m, &b);
    }
    free(blocks);
    free(shards);
    return finish(&b, st, out, cap, len);
}
