/*
 * tpu_layout.c — the bytes an array takes in a device's memory under a
 * memory layout, and the plan with every buffer sized so.
 *
 * SS_LAYOUT_TPU is what XLA's TPU compiler allocates for an array whose
 * layout it is free to choose (a jitted function's argument or result),
 * measured with libtpu's ahead-of-time compiler (tests/xla_tpu/
 * make_layouts.py; the table is tests/data/xla_tpu/layouts.json):
 *
 *   - rank >= 2: two dimensions are tiled, the minor one padded to a
 *     multiple of 128 elements, the second-minor one to a multiple of 8 (a
 *     power of two below 8: 1, 2, 4, but never below 512 bytes per tile
 *     row group: 1 row for 4-byte types, 2 for 2-byte, 4 for 1-byte); the
 *     other dimensions multiply. XLA picks the two dimensions (its layout
 *     T(8,128), T(4,128), T(2,128), T(1,128), with (2,1) / (4,1) packing of
 *     narrow types) that waste least: f32[1000,75] is laid out {0,1}, the
 *     1000 minor, 1024 x 80 x 4 bytes.
 *   - rank 1: the elements padded to a multiple of 128, the bytes to a
 *     multiple of 512 (f32[100]: 512; bf16[1000]: 2048).
 *   - rank 0: 512 bytes.
 *
 * Arrays inside a program may get other layouts (XLA's layout assignment
 * follows the ops), and XLA's temporaries are not sized here alone:
 * ss_executable_plan_layout sizes every buffer of the plan by this rule.
 */
#include "lower.h"

#include <stdlib.h>
#include <string.h>

static int64_t round_up(int64_t n, int64_t to) { return (n + to - 1) / to * to; }

/* The second-minor dimension's padded size under TPU tiling. */
static int64_t tpu_rows(int64_t d, int64_t elem)
{
    if (d >= 8)
        return round_up(d, 8);
    int64_t rows = elem >= 4 ? 1 : 4 / elem; /* 512-byte tile rows of 128 elements */
    while (rows < d)
        rows *= 2;
    return rows;
}

size_t ss_layout_array_bytes(ss_memory_layout layout, ss_dtype dtype, int rank,
                             const int64_t shape[])
{
    if ((unsigned)dtype >= SS_DTYPE_COUNT || rank < 0 || rank > SS_MAX_RANK ||
        (rank > 0 && !shape))
        return 0;
    int64_t elem = (int64_t)ss_dtype_size(dtype);
    double dense = (double)elem;
    for (int d = 0; d < rank; d++) {
        if (shape[d] <= 0)
            return 0;
        dense *= (double)shape[d];
    }
    if (dense > 1e18)
        return SIZE_MAX;
    if (layout != SS_LAYOUT_TPU)
        return (size_t)dense;
    if (rank == 0)
        return 512;
    if (rank == 1)
        return (size_t)round_up(round_up(shape[0], 128) * elem, 512);
    int64_t best = -1;
    for (int m = 0; m < rank; m++)
        for (int s = 0; s < rank; s++) {
            if (s == m)
                continue;
            int64_t n = round_up(shape[m], 128) * tpu_rows(shape[s], elem) * elem;
            for (int d = 0; d < rank; d++)
                if (d != m && d != s)
                    n *= shape[d];
            if (best < 0 || n < best)
                best = n;
        }
    return (size_t)best;
}

ss_status ss__executable_laid_out(const ss_executable *e, ss_memory_layout layout,
                                 ss_executable *copy)
{
    if (layout != SS_LAYOUT_DENSE && layout != SS_LAYOUT_TPU)
        return ss__fail(SS_ERR_INVALID, "plan: memory layout %d is not one of ss_memory_layout",
                        (int)layout);
    *copy = *e;
    copy->bufs = malloc(sizeof *copy->bufs * (size_t)(e->nbufs ? e->nbufs : 1));
    if (!copy->bufs)
        return ss__fail(SS_ERR_NOMEM, "plan: out of host memory");
    for (int b = 0; b < e->nbufs; b++) {
        const ss__bufdesc *d = &e->bufs[b];
        copy->bufs[b] = *d;
        /* Only buffers that hold exactly their shape (not a packed scratch). */
        if (d->bytes > 0 && d->bytes == ss_layout_array_bytes(SS_LAYOUT_DENSE, d->dtype, d->rank, d->shape))
            copy->bufs[b].bytes = ss_layout_array_bytes(
                layout, d->xla_bf16 && d->dtype == SS_F32 ? SS_BF16 : d->dtype, d->rank, d->shape);
    }
    return SS_OK;
}

ss_status ss_executable_plan_layout(const ss_executable *e, ss_memory_layout layout, ss_plan *out)
{
    if (!e || !out)
        return ss__fail(SS_ERR_INVALID, "plan: no executable or no plan to fill");
    if (layout == SS_LAYOUT_DENSE)
        return ss_executable_plan(e, out);
    /* The same executable with its buffers resized: a shallow copy whose
     * buffer table is its own (the plan reads the executable, never writes). */
    ss_executable copy;
    ss_status st = ss__executable_laid_out(e, layout, &copy);
    if (st)
        return st;
    st = ss_executable_plan(&copy, out);
    free(copy.bufs);
    return st;
}
