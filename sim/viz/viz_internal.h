/*
 * viz_internal.h — what the files of sim/viz share: the description of one
 * grid of labelled cells and the renderer that draws it the way rich 13.3.1
 * draws jax.debug.visualize_sharding's table.
 *
 * The table is deliberately narrow: every cell is a one-line ASCII label
 * centred inside explicit padding (rich's Padding(Align(label, "center"))),
 * there is no header, no cell padding of the table's own, and either a
 * SQUARE box with a line between rows or no box at all. Those are the only
 * tables JAX draws, so nothing more general is modelled.
 */
#ifndef SS_VIZ_INTERNAL_H
#define SS_VIZ_INTERNAL_H

#include "base/base.h"

/* A 24-bit foreground/background pair for colour mode. */
typedef struct ss__viz_style {
    unsigned char fg[3];
    unsigned char bg[3];
} ss__viz_style;

/* One cell: `label` (printable ASCII, one display column per byte, not
 * owned) centred inside the padding. Paddings are already clamped to >= 0.
 * `style` indexes the table's styles, or is -1 for plain text. */
typedef struct ss__viz_cell {
    const char *label;
    int top, right, bottom, left;
    int style;
} ss__viz_cell;

typedef struct ss__viz_table {
    int nrows, ncols;
    const ss__viz_cell *cells;   /* nrows * ncols, row-major */
    const ss__viz_style *styles; /* may be NULL if every cell has style -1 */
    bool box;                    /* true: box.SQUARE and show_lines */
    int max_width;               /* the console width, >= 1 */
} ss__viz_table;

/* Append the table's text to `out`, every line ending in '\n'. Column
 * widths, squeezing of tables wider than max_width, word wrapping with an
 * ellipsis and the final crop at max_width follow rich 13.3.1. Styled runs
 * are written as ESC[38;2;R;G;B;48;2;R;G;Bm ... ESC[0m, one per rich
 * segment. Out-of-memory is reported through out->oom. */
void ss__viz_table_render(const ss__viz_table *t, ss__buf *out);

/* The colour of the k-th cell (0-based, row-major) of a rows x cols picture
 * as JAX's make_color_iter picks it from matplotlib's tab20b, with the
 * black or white text JAX chooses for it. */
ss__viz_style ss__viz_cell_style(int64_t k, int64_t ncells);

#endif
