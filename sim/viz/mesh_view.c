/*
 * mesh_view.c — a picture of a mesh for teaching: which device sits at which
 * coordinates of the named axes. JAX has no such picture; the layout is ours.
 *
 *     Mesh('data': 2, 'model': 4)
 *               model →
 *                0   1   2   3
 *              ┌───┬───┬───┬───┐
 *     data ↓ 0 │ 0 │ 1 │ 2 │ 3 │
 *              ├───┼───┼───┼───┤
 *            1 │ 4 │ 5 │ 6 │ 7 │
 *              └───┴───┴───┴───┘
 *
 * The last axis runs across (its coordinates above the columns), the first
 * axis runs down (its coordinates left of the rows), and every combination
 * of the axes in between gets its own grid under a heading such as
 * "stage = 1", blocks separated by a blank line. Cells hold device ids, so
 * a TPU-style device order shows up as ids out of sequence. Axes of size 1
 * (MaxText's meshes keep a dozen) are not drawn: a line under the repr
 * names them. No line has
 * trailing blanks; the picture is never wrapped or squeezed.
 */
#include "viz_internal.h"

#include <stdlib.h>
#include <string.h>

static int digits(int64_t v)
{
    int d = 1;
    while (v >= 10) {
        v /= 10;
        d++;
    }
    return d;
}

/* Drop blanks before the line's end, then end it. */
static void end_line(ss__buf *b)
{
    while (b->len && b->data[b->len - 1] == ' ')
        b->data[--b->len] = '\0';
    ss__buf_putc(b, '\n');
}

/* A number right-aligned in a cell of `width` + 2 columns (a blank each
 * side), as numbers line up best. */
static void number_cell(ss__buf *b, long long v, int width)
{
    ss__buf_printf(b, " %*lld ", width, v);
}

static void rule(ss__buf *b, int indent, int ncols, int width, const char *left,
                 const char *divider, const char *right)
{
    ss__buf_repeat(b, " ", indent);
    ss__buf_puts(b, left);
    for (int c = 0; c < ncols; c++) {
        ss__buf_repeat(b, "\xe2\x94\x80", width); /* ─ */
        ss__buf_puts(b, c + 1 < ncols ? divider : right);
    }
    end_line(b);
}

ss_status ss_viz_mesh(const ss_mesh *mesh, const ss_viz_options *opts, char *out, size_t cap,
                      size_t *len)
{
    (void)opts; /* the picture has no options yet */
    if (!mesh)
        return ss__fail(SS_ERR_INVALID, "visualize: mesh is required");
    int all_axes = ss_mesh_axis_count(mesh);
    int ndev = ss_mesh_device_count(mesh);
    /* The drawn axes: those of size > 1, in mesh order. */
    int ax[SS_MAX_AXES], naxes = 0;
    for (int a = 0; a < all_axes; a++)
        if (ss_mesh_axis_size(mesh, a) > 1)
            ax[naxes++] = a;
    int across = naxes - 1;            /* -1: nothing to draw across */
    int down = naxes >= 2 ? 0 : -1;
    int64_t ncols = naxes >= 1 ? ss_mesh_axis_size(mesh, ax[across]) : 1;
    int64_t nrows = down >= 0 ? ss_mesh_axis_size(mesh, ax[down]) : 1;
    int64_t nblocks = ndev / (ncols * nrows);

    /* Cell text width: the widest id or column coordinate (a cell is that
     * plus a blank on each side). The gutter left of the box holds
     * "<down axis> ↓ " on the first row and the row coordinate on every row. */
    int cell = 1;
    for (int p = 0; p < ndev; p++)
        if (digits(ss_mesh_device_id(mesh, p)) > cell)
            cell = digits(ss_mesh_device_id(mesh, p));
    if (naxes >= 1 && digits(ncols - 1) > cell)
        cell = digits(ncols - 1);
    int name_cols = down >= 0 ? (int)strlen(ss_mesh_axis_name(mesh, ax[down])) + 3 : 0;
    int row_digits = down >= 0 ? digits(nrows - 1) : 0;
    int gutter = down >= 0 ? name_cols + row_digits + 1 : 0;

    ss__buf b;
    ss__buf_init(&b);
    size_t rcap = 16; /* "Mesh(" ")" and, per axis, "'name': size, " */
    for (int a = 0; a < all_axes; a++)
        rcap += strlen(ss_mesh_axis_name(mesh, a)) + 32;
    char *repr = malloc(rcap);
    ss_status st = repr ? ss_mesh_repr(mesh, 0, repr, rcap)
                        : ss__fail(SS_ERR_NOMEM, "mesh picture: out of host memory");
    if (st) {
        free(repr);
        ss__buf_free(&b);
        return st;
    }
    ss__buf_puts(&b, repr);
    free(repr);
    end_line(&b);
    if (naxes < all_axes) {
        ss__buf_puts(&b, "(not drawn, size 1:");
        for (int a = 0; a < all_axes; a++)
            if (ss_mesh_axis_size(mesh, a) == 1)
                ss__buf_printf(&b, " %s", ss_mesh_axis_name(mesh, a));
        ss__buf_putc(&b, ')');
        end_line(&b);
    }

    for (int64_t blk = 0; blk < nblocks; blk++) {
        /* Coordinates of the middle axes (1 .. naxes-2), last fastest. */
        int64_t coord[SS_MAX_AXES] = {0}, rest = blk;
        for (int a = naxes - 2; a >= 1; a--) {
            coord[a] = rest % ss_mesh_axis_size(mesh, ax[a]);
            rest /= ss_mesh_axis_size(mesh, ax[a]);
        }
        if (naxes >= 3) {
            if (blk)
                end_line(&b);
            for (int a = 1; a <= naxes - 2; a++)
                ss__buf_printf(&b, "%s%s = %lld", a > 1 ? ", " : "",
                               ss_mesh_axis_name(mesh, ax[a]), (long long)coord[a]);
            end_line(&b);
        }
        if (naxes >= 1) {
            ss__buf_repeat(&b, " ", gutter + 1);
            ss__buf_printf(&b, "%s \xe2\x86\x92", ss_mesh_axis_name(mesh, ax[across])); /* → */
            end_line(&b);
            ss__buf_repeat(&b, " ", gutter + 1);
            for (int64_t c = 0; c < ncols; c++) {
                number_cell(&b, (long long)c, cell);
                ss__buf_putc(&b, ' ');
            }
            end_line(&b);
        }
        rule(&b, gutter, (int)ncols, cell + 2, "\xe2\x94\x8c", "\xe2\x94\xac", "\xe2\x94\x90");
        for (int64_t r = 0; r < nrows; r++) {
            if (down >= 0) {
                if (r == 0)
                    ss__buf_printf(&b, "%s \xe2\x86\x93 ", ss_mesh_axis_name(mesh, ax[down])); /* ↓ */
                else
                    ss__buf_repeat(&b, " ", name_cols);
                ss__buf_printf(&b, "%*lld ", row_digits, (long long)r);
            }
            ss__buf_puts(&b, "\xe2\x94\x82"); /* │ */
            for (int64_t c = 0; c < ncols; c++) {
                /* Undrawn (size-1) axes sit at coordinate 0. */
                int64_t pos = 0;
                for (int a = 0, k = 0; a < all_axes; a++) {
                    int64_t x = 0;
                    if (k < naxes && ax[k] == a) {
                        x = k == across ? c : (k == down ? r : coord[k]);
                        k++;
                    }
                    pos = pos * ss_mesh_axis_size(mesh, a) + x;
                }
                number_cell(&b, ss_mesh_device_id(mesh, (int)pos), cell);
                ss__buf_puts(&b, "\xe2\x94\x82");
            }
            end_line(&b);
            if (r + 1 < nrows)
                rule(&b, gutter, (int)ncols, cell + 2, "\xe2\x94\x9c", "\xe2\x94\xbc",
                     "\xe2\x94\xa4");
        }
        rule(&b, gutter, (int)ncols, cell + 2, "\xe2\x94\x94", "\xe2\x94\xb4", "\xe2\x94\x98");
    }
    st = ss__buf_copy_out(&b, out, cap, len);
    ss__buf_free(&b);
    return st;
}
