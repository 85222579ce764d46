/*
 * test_xla_heap.c — xla_heap.c's placement and figures held to a naive
 * reference: a grid of (instruction, byte) cells filled buffer by buffer,
 * in the order written out here by plain comparison, each buffer tried at
 * every offset; and the most bytes alive at once counted per instruction.
 * And XLA's side: tests/data/xla_tpu/heap_probes.json (written by
 * tests/xla_tpu/make_heap_probes.py from libtpu's buffer assignments of
 * three probes and of the fit sweep's six MLP records, three of which XLA
 * placed largest first) holds the arrays of XLA's heap with their live ranges,
 * the bytes from the bottom one's start to the top one's end, and the temp
 * XLA reported; placed by xla_heap.c they must take those bytes, and
 * 2 x heap - max(A, N) must be XLA's temp.
 */
#include "spmd/lower.h"
#include "support.h"

#include <criterion/criterion.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { T = 12, MAXB = 14, CAP = 512 }; /* instructions, buffers, grid bytes */

/* Is [off, off + bytes) free over instructions first..last of grid g? */
static bool grid_free(bool g[T][CAP], const ss__heap_buffer *b, size_t off)
{
    for (int t = b->first; t <= b->last; t++)
        for (size_t x = off; x < off + b->bytes; x++)
            if (x >= CAP || g[t][x])
                return false;
    return true;
}

/* The reference: every offset from 0 up tried; a gap is a maximal run of
 * offsets where the buffer fits whose start is free and whose cell below
 * is not (or is offset 0), its length the free run above that start; the
 * smallest gap that holds the buffer wins, the lowest among equals, else
 * the offset just above the highest cell used over its live range. */
static size_t naive_place(const ss__heap_buffer b[], int n, const int order[], size_t offset[])
{
    static bool g[T][CAP];
    memset(g, 0, sizeof g);
    size_t heap = 0;
    for (int k = 0; k < n; k++) {
        const ss__heap_buffer *x = &b[order[k]];
        size_t top = 0, best = SIZE_MAX, at = 0;
        for (int t = x->first; t <= x->last; t++)
            for (size_t y = 0; y < CAP; y++)
                if (g[t][y] && y + 1 > top)
                    top = y + 1;
        for (size_t start = 0; start < top; start++) {
            bool below_used = start == 0;
            for (int t = x->first; t <= x->last && !below_used; t++)
                below_used = g[t][start - 1];
            ss__heap_buffer one = *x;
            one.bytes = 1;
            if (!below_used || !grid_free(g, &one, start))
                continue;
            size_t len = 0;
            while (start + len < top) {
                one.bytes = 1;
                if (!grid_free(g, &one, start + len))
                    break;
                len++;
            }
            if (start + len < top && len >= x->bytes && len < best) {
                best = len;
                at = start;
            }
        }
        offset[order[k]] = best != SIZE_MAX ? at : top;
        cr_assert(grid_free(g, x, offset[order[k]]), "the reference placed over a buffer");
        for (int t = x->first; t <= x->last; t++)
            for (size_t y = offset[order[k]]; y < offset[order[k]] + x->bytes; y++)
                g[t][y] = true;
        if (offset[order[k]] + x->bytes > heap)
            heap = offset[order[k]] + x->bytes;
    }
    return heap;
}

/* Does buffer i come before j in `order`? Written out, not shared. */
static bool before(const ss__heap_buffer b[], int i, int j, ss__heap_order order)
{
    const ss__heap_buffer *x = &b[i], *y = &b[j];
    if (order == SS__HEAP_BY_START) {
        if (x->first != y->first)
            return x->first < y->first;
        if (x->bytes != y->bytes)
            return x->bytes > y->bytes;
    } else {
        if (x->bytes != y->bytes)
            return x->bytes > y->bytes;
        if (x->last - x->first != y->last - y->first)
            return x->last - x->first > y->last - y->first;
    }
    return i < j;
}

static void naive_order(const ss__heap_buffer b[], int n, ss__heap_order order, int out[])
{
    for (int k = 0; k < n; k++)
        out[k] = k;
    for (int k = 1; k < n; k++) /* insertion sort */
        for (int j = k; j > 0 && before(b, out[j], out[j - 1], order); j--) {
            int s = out[j];
            out[j] = out[j - 1];
            out[j - 1] = s;
        }
}

static size_t naive_live(const ss__heap_buffer b[], int n, int stacks)
{
    size_t most = 0;
    for (int t = 0; t < T; t++) {
        size_t now = 0;
        for (int k = 0; k < n; k++)
            if (b[k].first <= t && t <= b[k].last && (stacks < 0 || b[k].scan_stack == (stacks == 1)))
                now += b[k].bytes;
        most = now > most ? now : most;
    }
    return most;
}

static void random_buffers(unsigned *seed, ss__heap_buffer b[], int n)
{
    for (int k = 0; k < n; k++) {
        int a = rand_r(seed) % T, len = rand_r(seed) % 4;
        b[k] = (ss__heap_buffer){(size_t)(1 + rand_r(seed) % 24), a, a + len < T ? a + len : T - 1,
                                 rand_r(seed) % 4 == 0, false};
    }
}

Test(xla_heap, placement_matches_a_grid_of_cells)
{
    unsigned seed = 12345;
    for (int trial = 0; trial < 400; trial++) {
        ss__heap_buffer b[MAXB];
        int n = 1 + rand_r(&seed) % MAXB;
        random_buffers(&seed, b, n);
        for (int o = 0; o < 2; o++) {
            ss__heap_order order = o ? SS__HEAP_BY_SIZE : SS__HEAP_BY_START;
            int ord[MAXB];
            size_t want_off[MAXB], got_off[MAXB], got;
            naive_order(b, n, order, ord);
            size_t want = naive_place(b, n, ord, want_off);
            cr_assert_eq(ss__heap_place(b, n, order, got_off, &got), SS_OK);
            cr_assert_eq(got, want, "trial %d order %d: heap %zu, the grid's %zu", trial, o, got,
                         want);
            for (int k = 0; k < n; k++)
                cr_assert_eq(got_off[k], want_off[k], "trial %d order %d buffer %d", trial, o, k);
        }
    }
}

Test(xla_heap, live_and_temp_against_a_count_per_instruction)
{
    unsigned seed = 777;
    for (int trial = 0; trial < 200; trial++) {
        ss__heap_buffer b[MAXB];
        int n = 1 + rand_r(&seed) % MAXB;
        random_buffers(&seed, b, n);
        ss__heap_figures f;
        cr_assert_eq(ss__xla_heap_figures(b, n, SIZE_MAX, &f), SS_OK);
        size_t a = naive_live(b, n, 1), other = naive_live(b, n, 0);
        cr_assert_eq(f.stacks, a);
        cr_assert_eq(f.others, other);
        int ord[MAXB];
        size_t off[MAXB];
        naive_order(b, n, SS__HEAP_BY_START, ord);
        cr_assert_eq(f.heap, naive_place(b, n, ord, off));
        cr_assert(!f.by_size);
        cr_assert_eq(f.temp, 2 * f.heap - (a > other ? a : other));
        cr_assert_geq(f.heap, naive_live(b, n, -1), "a heap below the bytes alive at once");
    }
}

/* With while loops (ss__xla_heap_loop_extra): the heap's most bytes at
 * once with the early buffers less the plan's own most (without them),
 * plus that most less the larger of the loop state's and the rest's, each
 * counted per instruction. */
Test(xla_heap, loop_extra_against_a_count_per_instruction)
{
    unsigned seed = 4242;
    for (int trial = 0; trial < 300; trial++) {
        ss__heap_buffer b[MAXB], own[MAXB];
        int n = 1 + rand_r(&seed) % MAXB, m = 0;
        random_buffers(&seed, b, n);
        for (int k = 0; k < n; k++) {
            b[k].early = rand_r(&seed) % 5 == 0;
            if (!b[k].early)
                own[m++] = b[k];
        }
        size_t all = naive_live(b, n, -1), planned = naive_live(own, m, -1);
        size_t state = naive_live(b, n, 1), rest = naive_live(b, n, 0);
        size_t most = state > rest ? state : rest, got;
        cr_assert_eq(ss__xla_heap_loop_extra(b, n, &got), SS_OK);
        cr_assert_eq(got, (all - planned) + (all - most), "trial %d", trial);
    }
}

/* Two scans' gradients in MiB as libtpu 0.0.42.1's buffer assignments
 * have them (tests/xla_tpu/xla_heap.py). lm_large_dots v5e:2x4: the
 * stacks' 3584 allocated at the program's start (early, instructions
 * 0..2), the forward loop's state from 3, the backward loop's body 1088 at
 * 6: 4672 at once, and XLA reports 1102 more (the body's 1088 again, and
 * 14 of gaps, which the plan does not place through loops). lm_large_dots
 * v5e:16x16: before the loop the 448 of stacks beside 266 of other values,
 * the state 576, the body 142: 718 at once, and XLA reports 11 more (4 and
 * 7 of gaps); without the stacks' early start the rule would count the
 * body twice (142). */
Test(xla_heap, loop_extra_of_scanned_gradients)
{
    ss__heap_buffer dots[] = {{3584, 0, 2, false, true}, {3584, 3, 8, true, false},
                              {1088, 6, 6, false, false}};
    size_t got;
    cr_assert_eq(ss__xla_heap_loop_extra(dots, 3, &got), SS_OK);
    cr_assert_eq(got, 1088);
    ss__heap_buffer wide[] = {{448, 0, 2, false, true}, {266, 1, 2, false, false},
                              {576, 3, 8, true, false}, {142, 6, 6, false, false}};
    cr_assert_eq(ss__xla_heap_loop_extra(wide, 4, &got), SS_OK);
    cr_assert_eq(got, 4);
    cr_assert_eq(ss__xla_heap_loop_extra(wide + 1, 3, &got), SS_OK);
    cr_assert_eq(got, 142);
}

/* Schedule order: 12 B at 0 (over 0..1), 4 B at 12 (1..3), 8 B at 0 once
 * the 12 B one is dead (2..4), 16 B above the 4 B one at 16 (3..5): a heap
 * of 32 B. Largest first: 16 B at 0, 12 B at 0 (dead before), 8 B at 16,
 * 4 B at 24: 28 B. Placed by
 * start when its temp fits the room, largest first when it does not. */
Test(xla_heap, too_big_for_the_room_places_largest_first)
{
    ss__heap_buffer b[] = {{16, 3, 5, false, false}, {8, 2, 4, false, false}, {12, 0, 1, false, false},
                           {4, 1, 3, false, false}};
    ss__heap_figures roomy, tight;
    size_t off[4], by_start, by_size;
    cr_assert_eq(ss__heap_place(b, 4, SS__HEAP_BY_START, off, &by_start), SS_OK);
    cr_assert_eq(by_start, 32);
    cr_assert_eq(ss__heap_place(b, 4, SS__HEAP_BY_SIZE, off, &by_size), SS_OK);
    cr_assert_eq(by_size, 28);
    cr_assert_eq(ss__xla_heap_figures(b, 4, SIZE_MAX, &roomy), SS_OK);
    cr_assert_eq(roomy.heap, 32);
    cr_assert(!roomy.by_size);
    cr_assert_eq(ss__xla_heap_figures(b, 4, roomy.temp - 1, &tight), SS_OK);
    cr_assert(tight.by_size);
    cr_assert_eq(tight.heap, 28);
    cr_assert_eq(tight.temp, 2 * 28 - tight.others);
}

Test(xla_heap, a_buffer_ending_before_it_starts_is_refused)
{
    ss__heap_buffer b[] = {{4, 3, 1, false, false}};
    ss__heap_figures f;
    cr_assert_eq(ss__xla_heap_figures(b, 1, SIZE_MAX, &f), SS_ERR_INVALID);
}

/* XLA's probes: its own heap arrays placed again. */
Test(xla_heap, xla_probes_placed_as_xla_placed_them)
{
    cJSON *rec = ts_load_json("xla_tpu/heap_probes.json");
    int cases = 0;
    const cJSON *c;
    cJSON_ArrayForEach(c, cJSON_GetObjectItem(rec, "cases"))
    {
        const char *name = cJSON_GetObjectItem(c, "case")->valuestring;
        const cJSON *topo = cJSON_GetObjectItem(c, "topology");
        if (!topo)
            topo = cJSON_GetObjectItem(rec, "topology");
        const ss_hw_profile *chip =
            ss_hw_profile_find(strncmp(topo->valuestring, "v5p", 3) == 0 ? "tpu-v5p" : "tpu-v5e");
        cr_assert(chip && chip->memory.xla_heap_hbm_bytes, "%s: the profile models XLA's heap", name);
        const cJSON *mem = cJSON_GetObjectItem(c, "memory"), *bufs = cJSON_GetObjectItem(c, "buffers");
        int n = cJSON_GetArraySize(bufs);
        cr_assert_gt(n, 0, "%s: no arrays in XLA's heap", name);
        ss__heap_buffer *b = calloc((size_t)n, sizeof *b);
        cr_assert(b);
        for (int k = 0; k < n; k++) {
            const cJSON *x = cJSON_GetArrayItem(bufs, k);
            b[k] = (ss__heap_buffer){(size_t)cJSON_GetObjectItem(x, "bytes")->valuedouble,
                                     cJSON_GetObjectItem(x, "first")->valueint,
                                     cJSON_GetObjectItem(x, "last")->valueint,
                                     cJSON_IsTrue(cJSON_GetObjectItem(x, "scan_stack")), false};
        }
        size_t fixed = (size_t)(cJSON_GetObjectItem(mem, "argument_size_in_bytes")->valuedouble +
                                cJSON_GetObjectItem(mem, "output_size_in_bytes")->valuedouble);
        size_t hbm = chip->memory.xla_heap_hbm_bytes;
        ss__heap_figures f;
        TS_OK(ss__xla_heap_figures(b, n, hbm > fixed ? hbm - fixed : 0, &f));
        /* XLA's pointer tuples have slots of their own, below or above */
        size_t span = (size_t)(cJSON_GetObjectItem(c, "arrays_top")->valuedouble -
                               cJSON_GetObjectItem(c, "arrays_bottom")->valuedouble);
        cr_assert_eq(f.heap, span, "%s: arrays placed in %zu B, XLA's in %zu B", name, f.heap, span);
        /* XLA's temp from XLA's heap (its pointer-tuple slots included) */
        double heap = cJSON_GetObjectItem(c, "heap_bytes")->valuedouble;
        double temp = cJSON_GetObjectItem(mem, "temp_size_in_bytes")->valuedouble;
        double most = (double)(f.stacks > f.others ? f.stacks : f.others);
        cr_assert_lt(fabs(2 * heap - most - temp), 32768.0,
                     "%s: 2 x heap %.0f - max(A %zu, N %zu) against XLA's temp %.0f", name, heap,
                     f.stacks, f.others, temp);
        free(b);
        cases++;
    }
    cr_assert_geq(cases, 9);
    cJSON_Delete(rec);
}
