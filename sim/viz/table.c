/*
 * table.c — the box-drawing table of the visualizer, drawn the way rich
 * 13.3.1 draws the Table that jax.debug.visualize_sharding prints.
 *
 * Written from our reading of rich's behaviour and checked against it (see
 * tests/test_viz.c); no rich code is reproduced. The model, in rich's terms:
 *
 *   - A cell is Padding(Align(label, "center"), (top, right, bottom, left)).
 *     Its natural width is left + len(label) + right, but never more than the
 *     width on offer; with no room for the label at all it asks for all of it.
 *   - A column is as wide as its widest cell; narrower cells centre their
 *     label (extra space split with the odd column on the right).
 *   - If the columns do not fit in max_width (less the box lines), the widest
 *     columns are cut down step by step to the next widest, then all columns
 *     evenly, sharing out the excess with Python's round-half-even; each
 *     column is then re-measured at its new width.
 *   - A label that no longer fits wraps at spaces; a word longer than the
 *     line is cut and ends in "…" (the column overflow is "ellipsis").
 *   - Cells shorter than their row get blank, unstyled lines at the bottom.
 *   - The finished lines are cropped at max_width, as Console.print crops.
 *
 * What it does not do: anything else rich can (headers, titles, other boxes,
 * wide Unicode characters, markup). Labels must be printable ASCII.
 */
#include "viz_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A run of text with one style, as rich's Segment: `text` (UTF-8, every code
 * point one display column), then an optional "…", then `spaces` blanks. */
typedef struct seg {
    const char *text;
    int bytes;
    int cols;
    bool ellipsis;
    int spaces;
    int style;
} seg;

/* One line of one rendered cell: at most a handful of segments. */
#define CELL_LINE_SEGS 8
typedef struct cell_line {
    int n;
    seg s[CELL_LINE_SEGS];
} cell_line;

/* The lines of one rendered cell. */
typedef struct cell_lines {
    int n, cap;
    cell_line *v;
    bool oom;
} cell_lines;

static const char ELLIPSIS[] = "\xe2\x80\xa6"; /* U+2026, one column */

static int seg_width(const seg *s)
{
    return s->cols + (s->ellipsis ? 1 : 0) + s->spaces;
}

static seg seg_spaces(int n, int style)
{
    seg s = {NULL, 0, 0, false, n, style};
    return s;
}

static seg seg_text(const char *text, int n, int style)
{
    seg s = {text, n, n, false, 0, style};
    return s;
}

/* Bytes taken by the first `cols` code points of s->text. */
static int utf8_prefix_bytes(const char *text, int bytes, int cols)
{
    int i = 0;
    while (i < bytes && cols > 0) {
        i++;
        while (i < bytes && ((unsigned char)text[i] & 0xC0) == 0x80)
            i++;
        cols--;
    }
    return i;
}

/* Keep only the first `cols` columns of s (cols < seg_width(s)). */
static void seg_crop(seg *s, int cols)
{
    if (cols <= s->cols) {
        s->bytes = utf8_prefix_bytes(s->text, s->bytes, cols);
        s->cols = cols;
        s->ellipsis = false;
        s->spaces = 0;
        return;
    }
    cols -= s->cols;
    if (s->ellipsis) {
        if (cols == 0) {
            s->ellipsis = false;
            s->spaces = 0;
            return;
        }
        cols--;
    }
    if (s->spaces > cols)
        s->spaces = cols;
}

static void line_add(cell_line *l, seg s)
{
    if (seg_width(&s) > 0 && l->n < CELL_LINE_SEGS)
        l->s[l->n++] = s;
}

static int line_width(const cell_line *l)
{
    int w = 0;
    for (int i = 0; i < l->n; i++)
        w += seg_width(&l->s[i]);
    return w;
}

/* Crop the line to `width` columns, or pad it with blanks of `style`. */
static void line_fit(cell_line *l, int width, int style)
{
    int w = line_width(l);
    if (w < width) {
        line_add(l, seg_spaces(width - w, style));
        return;
    }
    int used = 0;
    for (int i = 0; i < l->n; i++) {
        int sw = seg_width(&l->s[i]);
        if (used + sw < width) {
            used += sw;
            continue;
        }
        seg_crop(&l->s[i], width - used);
        l->n = i + 1;
        return;
    }
}

static cell_line *lines_push(cell_lines *ls)
{
    if (ls->oom)
        return NULL;
    if (ls->n == ls->cap) {
        int cap = ls->cap ? 2 * ls->cap : 8;
        cell_line *v = realloc(ls->v, (size_t)cap * sizeof *v);
        if (!v) {
            ls->oom = true;
            return NULL;
        }
        ls->v = v;
        ls->cap = cap;
    }
    cell_line *l = &ls->v[ls->n++];
    l->n = 0;
    return l;
}

static void lines_blank(cell_lines *ls, int width, int style)
{
    cell_line *l = lines_push(ls);
    if (l)
        line_add(l, seg_spaces(width, style));
}

static bool is_space(char c)
{
    return c == ' ' || (c >= '\t' && c <= '\r');
}

/* ------------------------------------------------------------------------ */
/* Measuring                                                                 */
/* ------------------------------------------------------------------------ */

/* The widest a cell wants to be when `avail` columns are on offer. */
static int cell_max_width(const ss__viz_cell *c, int avail)
{
    if (avail < 1)
        return 0;
    int pad = c->left + c->right;
    if (avail - pad < 1)
        return avail; /* no room for the label: take everything */
    int len = (int)strlen(c->label);
    int text = len < avail - pad ? len : avail - pad;
    int w = text + pad;
    if (w > avail)
        w = avail;
    return w < 1 ? 0 : w;
}

static int column_max_width(const ss__viz_table *t, int col, int avail)
{
    if (avail < 1)
        return 0;
    int best = 0;
    for (int r = 0; r < t->nrows; r++) {
        int w = cell_max_width(&t->cells[(size_t)r * (size_t)t->ncols + (size_t)col], avail);
        if (w > best)
            best = w;
    }
    return best < avail ? best : avail;
}

/* Take `total` columns away from `values`, shared in proportion to `ratios`
 * (a slot with maximum 0 takes nothing), no slot losing more than its
 * maximum. Python's round() is round-half-even, as nearbyint() is. */
static void ratio_reduce(long total, const int ratios[], const int maximums[], int values[],
                         int n)
{
    long total_ratio = 0;
    for (int i = 0; i < n; i++)
        if (maximums[i])
            total_ratio += ratios[i];
    if (total_ratio == 0)
        return;
    long remaining = total;
    for (int i = 0; i < n; i++) {
        long ratio = maximums[i] ? ratios[i] : 0;
        if (!ratio || total_ratio <= 0)
            continue;
        long share = (long)nearbyint((double)(ratio * remaining) / (double)total_ratio);
        long distributed = share < maximums[i] ? share : maximums[i];
        values[i] -= (int)distributed;
        remaining -= distributed;
        total_ratio -= ratio;
    }
}

static long sum_of(const int v[], int n)
{
    long s = 0;
    for (int i = 0; i < n; i++)
        s += v[i];
    return s;
}

/* Column widths without the box lines; false on out-of-memory. */
static bool column_widths(const ss__viz_table *t, int widths[])
{
    int n = t->ncols;
    int extra = t->box ? 2 + (n - 1) : 0;
    int avail = t->max_width - extra;
    for (int c = 0; c < n; c++) {
        int w = column_max_width(t, c, avail);
        widths[c] = w ? w : 1;
    }
    long total = sum_of(widths, n);
    if (total <= avail)
        return true;

    int *ratios = calloc((size_t)n, sizeof *ratios);
    int *maxes = calloc((size_t)n, sizeof *maxes);
    if (!ratios || !maxes) {
        free(ratios);
        free(maxes);
        return false;
    }
    /* Cut the widest columns down to the next widest until it fits. */
    long excess = total - avail;
    while (total && excess > 0) {
        int widest = 0, second = 0;
        for (int c = 0; c < n; c++)
            if (widths[c] > widest)
                widest = widths[c];
        for (int c = 0; c < n; c++)
            if (widths[c] != widest && widths[c] > second)
                second = widths[c];
        int diff = widest - second;
        if (!diff)
            break;
        for (int c = 0; c < n; c++) {
            ratios[c] = widths[c] == widest;
            maxes[c] = (int)(excess < diff ? excess : diff);
        }
        ratio_reduce(excess, ratios, maxes, widths, n);
        total = sum_of(widths, n);
        excess = total - avail;
    }
    /* Last resort: take the rest evenly from every column. */
    if (total > avail) {
        for (int c = 0; c < n; c++) {
            ratios[c] = 1;
            maxes[c] = widths[c];
        }
        ratio_reduce(total - avail, ratios, maxes, widths, n);
    }
    for (int c = 0; c < n; c++)
        widths[c] = column_max_width(t, c, widths[c]);
    free(ratios);
    free(maxes);
    return true;
}

/* ------------------------------------------------------------------------ */
/* Rendering one cell                                                        */
/* ------------------------------------------------------------------------ */

/* Word-wrap the label to `width` (>= 1) columns as rich's Text.wrap does
 * with justify "left" and overflow "ellipsis": each line becomes one segment
 * of exactly `width` columns. *out is malloc'd. */
static void wrap_label(const char *label, int len, int width, int style, seg **out, int *nout,
                       bool *oom)
{
    /* Break offsets: a word (leading blanks, non-blanks, trailing blanks)
     * starts a new line when it does not fit after the previous ones. */
    int *breaks = malloc(((size_t)len + 2) * sizeof *breaks);
    seg *lines = malloc(((size_t)len + 1) * sizeof *lines);
    if (!breaks || !lines) {
        free(breaks);
        free(lines);
        *oom = true;
        *nout = 0;
        return;
    }
    int nb = 0, pos = 0, line_pos = 0;
    breaks[nb++] = 0;
    while (pos < len) {
        int s = pos, e = pos;
        while (e < len && is_space(label[e]))
            e++;
        if (e == len)
            break;
        while (e < len && !is_space(label[e]))
            e++;
        int word_len = e - s; /* without trailing blanks */
        while (e < len && is_space(label[e]))
            e++;
        if (line_pos + word_len > width) {
            if (word_len > width) {
                if (s)
                    breaks[nb++] = s;
                line_pos = e - s;
            } else if (line_pos && s) {
                breaks[nb++] = s;
                line_pos = e - s;
            }
        } else {
            line_pos += e - s;
        }
        pos = e;
    }
    breaks[nb] = len;

    for (int i = 0; i < nb; i++) {
        const char *text = label + breaks[i];
        int n = breaks[i + 1] - breaks[i];
        /* Drop trailing blanks that stick out past the width. */
        if (n > width) {
            int blanks = 0;
            while (blanks < n && is_space(text[n - 1 - blanks]))
                blanks++;
            int cut = n - width < blanks ? n - width : blanks;
            n -= cut;
        }
        seg s = seg_text(text, n, style);
        if (n > width) {
            s.bytes = s.cols = width - 1;
            s.ellipsis = true;
        } else {
            s.spaces = width - n;
        }
        lines[i] = s;
    }
    free(breaks);
    *out = lines;
    *nout = nb;
}

/* Render cell `c` at `width` columns into `ls` (rich's Padding over Align). */
static void render_cell(const ss__viz_cell *c, int width, cell_lines *ls)
{
    /* rich renders nothing at all into less than one column. */
    if (width < 1)
        return;
    int style = c->style;
    int inner = width - c->left - c->right;
    int len = (int)strlen(c->label);
    seg *text = NULL;
    int ntext = 0;
    if (inner >= 1 && len >= 1)
        wrap_label(c->label, len, len < inner ? len : inner, style, &text, &ntext, &ls->oom);

    int block = 0;
    for (int i = 0; i < ntext; i++)
        if (seg_width(&text[i]) > block)
            block = seg_width(&text[i]);
    int excess = inner - block;

    for (int i = 0; i < c->top; i++)
        lines_blank(ls, width, style);
    for (int i = 0; i < ntext; i++) {
        cell_line body = {0};
        if (excess > 0)
            line_add(&body, seg_spaces(excess / 2, style));
        line_add(&body, text[i]);
        line_add(&body, seg_spaces(block - seg_width(&text[i]), style));
        if (excess > 0)
            line_add(&body, seg_spaces(excess - excess / 2, style));
        line_fit(&body, inner, style);

        cell_line *l = lines_push(ls);
        if (!l)
            break;
        line_add(l, seg_spaces(c->left, style));
        for (int k = 0; k < body.n; k++)
            line_add(l, body.s[k]);
        line_add(l, seg_spaces(c->right, style));
        line_fit(l, width, -1);
    }
    for (int i = 0; i < c->bottom; i++)
        lines_blank(ls, width, style);
    free(text);
}

/* ------------------------------------------------------------------------ */
/* Output                                                                    */
/* ------------------------------------------------------------------------ */

/* Writes segments of one output line, cropping at the console width. */
typedef struct emitter {
    ss__buf *out;
    const ss__viz_style *styles;
    int used;
    int limit;
} emitter;

static void emit(emitter *e, seg s)
{
    int room = e->limit - e->used;
    if (room <= 0)
        return;
    if (seg_width(&s) > room)
        seg_crop(&s, room);
    int w = seg_width(&s);
    if (w == 0)
        return;
    e->used += w;
    if (s.style >= 0) {
        const ss__viz_style *st = &e->styles[s.style];
        ss__buf_printf(e->out, "\x1b[38;2;%d;%d;%d;48;2;%d;%d;%dm", st->fg[0], st->fg[1],
                       st->fg[2], st->bg[0], st->bg[1], st->bg[2]);
    }
    if (s.bytes)
        ss__buf_putn(e->out, s.text, (size_t)s.bytes);
    if (s.ellipsis)
        ss__buf_puts(e->out, ELLIPSIS);
    ss__buf_repeat(e->out, " ", s.spaces);
    if (s.style >= 0)
        ss__buf_puts(e->out, "\x1b[0m");
}

static void emit_str(emitter *e, const char *utf8)
{
    int cols = 0;
    for (const char *p = utf8; *p; p++)
        cols += ((unsigned char)*p & 0xC0) != 0x80;
    seg s = {utf8, (int)strlen(utf8), cols, false, 0, -1};
    emit(e, s);
}

static void end_line(emitter *e)
{
    ss__buf_putc(e->out, '\n');
    e->used = 0;
}

/* A horizontal box line: left, the fill over each column, dividers, right. */
static void emit_rule(emitter *e, const int widths[], int n, const char *left,
                      const char *divider, const char *right)
{
    emit_str(e, left);
    for (int c = 0; c < n; c++) {
        for (int k = 0; k < widths[c] && e->used < e->limit; k++)
            emit_str(e, "\xe2\x94\x80"); /* ─ */
        if (c + 1 < n)
            emit_str(e, divider);
    }
    emit_str(e, right);
    end_line(e);
}

void ss__viz_table_render(const ss__viz_table *t, ss__buf *out)
{
    static const char V[] = "\xe2\x94\x82"; /* │ */
    int n = t->ncols;
    int *widths = malloc((size_t)n * sizeof *widths);
    cell_lines *rows = calloc((size_t)n, sizeof *rows);
    if (!widths || !rows || !column_widths(t, widths)) {
        free(widths);
        free(rows);
        out->oom = true;
        return;
    }
    emitter e = {out, t->styles, 0, t->max_width};
    if (t->box)
        emit_rule(&e, widths, n, "\xe2\x94\x8c", "\xe2\x94\xac", "\xe2\x94\x90"); /* ┌┬┐ */

    for (int r = 0; r < t->nrows && !out->oom; r++) {
        int height = 1; /* a row is at least one line high */
        for (int c = 0; c < n; c++) {
            rows[c].n = 0;
            render_cell(&t->cells[(size_t)r * (size_t)n + (size_t)c], widths[c], &rows[c]);
            if (rows[c].oom)
                out->oom = true;
            if (rows[c].n > height)
                height = rows[c].n;
        }
        for (int c = 0; c < n; c++)
            while (rows[c].n < height && !rows[c].oom)
                lines_blank(&rows[c], widths[c], -1);
        if (out->oom)
            break;
        for (int i = 0; i < height; i++) {
            if (t->box)
                emit_str(&e, V);
            for (int c = 0; c < n; c++) {
                const cell_line *l = &rows[c].v[i];
                for (int k = 0; k < l->n; k++)
                    emit(&e, l->s[k]);
                if (t->box && c + 1 < n)
                    emit_str(&e, V);
            }
            if (t->box)
                emit_str(&e, V);
            end_line(&e);
        }
        if (t->box && r + 1 < t->nrows)
            emit_rule(&e, widths, n, "\xe2\x94\x9c", "\xe2\x94\xbc", "\xe2\x94\xa4"); /* ├┼┤ */
    }
    if (t->box && !out->oom)
        emit_rule(&e, widths, n, "\xe2\x94\x94", "\xe2\x94\xb4", "\xe2\x94\x98"); /* └┴┘ */

    for (int c = 0; c < n; c++)
        free(rows[c].v);
    free(rows);
    free(widths);
}
