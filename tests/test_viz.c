/* test_viz.c — the visualizer: every case of conformance/visualize.json byte
 * for byte, JAX's errors, rich's squeezing and colour output (expected texts
 * below marked "rich 13.3.1" were produced by rich itself, driven the way
 * JAX drives it, in a scratch check), the n-d pictures and the mesh picture. */
#include "support.h"

#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <stdlib.h>
#include <string.h>

#define VIS_CASES 19
#define BIG (1u << 20)

/* Render with ss_viz_sharding into a malloc'd string; asserts success. */
static char *viz(const ss_sharding *sh, int rank, const int64_t shape[],
                 const ss_viz_options *opts)
{
    char *out = malloc(BIG);
    size_t len = 0;
    ss_status st = ss_viz_sharding(sh, rank, shape, opts, out, BIG, &len);
    cr_assert_eq(st, SS_OK, "ss_viz_sharding: %s", ss_error_message());
    cr_assert_eq(len, strlen(out));
    return out;
}

static char *viz_nd(const ss_sharding *sh, int rank, const int64_t shape[], int row, int col)
{
    char *out = malloc(BIG);
    size_t len = 0;
    ss_status st = ss_viz_sharding_nd(sh, rank, shape, row, col, NULL, out, BIG, &len);
    cr_assert_eq(st, SS_OK, "ss_viz_sharding_nd: %s", ss_error_message());
    cr_assert_eq(len, strlen(out));
    return out;
}

static char *viz_mesh(const ss_mesh *m)
{
    char *out = malloc(BIG);
    ss_status st = ss_viz_mesh(m, NULL, out, BIG, NULL);
    cr_assert_eq(st, SS_OK, "ss_viz_mesh: %s", ss_error_message());
    return out;
}

static void assert_text(const char *what, const char *got, const char *want)
{
    cr_assert(strcmp(got, want) == 0, "%s differs.\n--- expected ---\n%s--- got ---\n%s", what,
              want, got);
}

static ss_mesh *mesh(const char *text, int n, const int *ids)
{
    ss_mesh *m = NULL;
    cr_assert_eq(ss_mesh_parse(text, n, ids, &m), SS_OK, "%s", ss_error_message());
    return m;
}

static ss_sharding sharding(const ss_mesh *m, const char *spec_text)
{
    ss_spec spec;
    cr_assert_eq(ss_spec_parse(spec_text, &spec), SS_OK, "%s", ss_error_message());
    ss_sharding sh;
    ss_sharding_init(&sh, m, &spec);
    return sh;
}

/* ------------------------------------------------------------------------ */
/* Conformance: visualize.json                                               */
/* ------------------------------------------------------------------------ */

Test(viz, conformance_file_has_all_cases)
{
    cJSON *cases = ts_load_json("conformance/visualize.json");
    cr_assert_eq(cJSON_GetArraySize(cases), VIS_CASES);
    cJSON_Delete(cases);
}

ParameterizedTestParameters(viz, conformance)
{
    static int index[VIS_CASES];
    for (int i = 0; i < VIS_CASES; i++)
        index[i] = i;
    return cr_make_param_array(int, index, VIS_CASES);
}

ParameterizedTest(int *index, viz, conformance)
{
    cJSON *cases = ts_load_json("conformance/visualize.json");
    const cJSON *c = cJSON_GetArrayItem(cases, *index);
    cr_assert_not_null(c);
    const char *name = cJSON_GetObjectItem(c, "name")->valuestring;
    ss_mesh *m = ts_mesh_from_case(c);
    ss_spec spec;
    ts_spec_from_json(cJSON_GetObjectItem(c, "spec"), &spec);
    int64_t shape[SS_MAX_RANK];
    int rank = ts_ints(cJSON_GetObjectItem(c, "shape"), shape, SS_MAX_RANK);
    ss_sharding sh;
    ss_sharding_init(&sh, m, &spec);
    ss_viz_options opts = {0};
    opts.platform = cJSON_GetObjectItem(c, "platform")->valuestring;
    const cJSON *scale = cJSON_GetObjectItem(c, "scale");
    if (scale)
        opts.scale = scale->valuedouble;

    char *got = viz(&sh, rank, shape, &opts);
    assert_text(name, got, cJSON_GetObjectItem(c, "expected")->valuestring);
    /* The n-d entry point draws rank <= 2 the same way. */
    char *got_nd = malloc(BIG);
    cr_assert_eq(ss_viz_sharding_nd(&sh, rank, shape, -1, -1, &opts, got_nd, BIG, NULL), SS_OK);
    assert_text(name, got_nd, got);
    free(got_nd);
    free(got);
    ss_mesh_destroy(m);
    cJSON_Delete(cases);
}

/* ------------------------------------------------------------------------ */
/* Errors                                                                    */
/* ------------------------------------------------------------------------ */

Test(viz, rank_outside_1_2_is_jax_error)
{
    ss_mesh *m = mesh("x=2", 2, NULL);
    ss_sharding sh = sharding(m, "P('x')");
    int64_t shape[3] = {4, 4, 4};
    char out[256];
    static const char msg[] = "`visualize_sharding` only works for shapes with 1 and 2 dimensions.";
    cr_assert_eq(ss_viz_sharding(&sh, 3, shape, NULL, out, sizeof out, NULL), SS_ERR_INVALID);
    cr_assert_str_eq(ss_error_message(), msg);
    cr_assert_eq(ss_viz_sharding(&sh, 0, shape, NULL, out, sizeof out, NULL), SS_ERR_INVALID);
    cr_assert_str_eq(ss_error_message(), msg);
    ss_mesh_destroy(m);
}

Test(viz, uneven_shards_are_an_error)
{
    ss_mesh *m = mesh("x=4", 4, NULL);
    ss_sharding sh = sharding(m, "P('x')");
    int64_t shape[1] = {6};
    char out[4096];
    cr_assert_eq(ss_viz_sharding(&sh, 1, shape, NULL, out, sizeof out, NULL), SS_ERR_INDIVISIBLE);
    cr_assert(strstr(ss_error_message(), "should evenly divide the shape"), "%s",
              ss_error_message());
    int64_t shape3[3] = {6, 2, 2};
    cr_assert_eq(ss_viz_sharding_nd(&sh, 3, shape3, -1, -1, NULL, out, sizeof out, NULL),
                 SS_ERR_INDIVISIBLE);
    ss_mesh_destroy(m);
}

Test(viz, zero_size_dimension_is_an_error)
{
    ss_mesh *m = mesh("x=2", 2, NULL);
    ss_sharding sh = sharding(m, "P(None, 'x')");
    int64_t shape[2] = {0, 4};
    char out[4096];
    cr_assert_eq(ss_viz_sharding(&sh, 2, shape, NULL, out, sizeof out, NULL), SS_ERR_INVALID);
    ss_mesh_destroy(m);
}

Test(viz, buffer_too_small_is_range_error)
{
    ss_mesh *m = mesh("x=2", 2, NULL);
    ss_sharding sh = sharding(m, "P('x')");
    int64_t shape[1] = {8};
    char small[16];
    size_t len = 123;
    cr_assert_eq(ss_viz_sharding(&sh, 1, shape, NULL, small, sizeof small, &len), SS_ERR_RANGE);
    cr_assert_eq(small[0], '\0');
    cr_assert_eq(ss_viz_mesh(m, NULL, small, sizeof small, NULL), SS_ERR_RANGE);
    int64_t shape3[3] = {2, 2, 2};
    cr_assert_eq(ss_viz_sharding_nd(&sh, 3, shape3, -1, -1, NULL, small, sizeof small, NULL),
                 SS_ERR_RANGE);
    ss_mesh_destroy(m);
}

Test(viz, bad_options_are_rejected)
{
    ss_mesh *m = mesh("x=2", 2, NULL);
    ss_sharding sh = sharding(m, "P('x')");
    int64_t shape[1] = {8};
    char out[4096];
    ss_viz_options bad_platform = {"C P U", 0, 0, 0, 0};
    cr_assert_eq(ss_viz_sharding(&sh, 1, shape, &bad_platform, out, sizeof out, NULL),
                 SS_ERR_INVALID);
    ss_viz_options bad_width = {NULL, 0, -1, 0, 0};
    cr_assert_eq(ss_viz_sharding(&sh, 1, shape, &bad_width, out, sizeof out, NULL),
                 SS_ERR_INVALID);
    int64_t shape3[3] = {2, 2, 2};
    cr_assert_eq(ss_viz_sharding_nd(&sh, 3, shape3, 1, 1, NULL, out, sizeof out, NULL),
                 SS_ERR_INVALID);
    cr_assert_eq(ss_viz_sharding_nd(&sh, 3, shape3, 0, 3, NULL, out, sizeof out, NULL),
                 SS_ERR_INVALID);
    ss_mesh_destroy(m);
}

/* ------------------------------------------------------------------------ */
/* Layout details beyond the conformance file                               */
/* ------------------------------------------------------------------------ */

Test(viz, platform_is_upper_cased_like_jax)
{
    ss_mesh *m = mesh("x=1", 1, NULL);
    ss_sharding sh = sharding(m, "P('x')");
    int64_t shape[1] = {5};
    ss_viz_options opts = {"tpu", 0, 0, 0, 0};
    char *got = viz(&sh, 1, shape, &opts);
    assert_text("tpu", got,
                "┌───────┐\n"
                "│ TPU 0 │\n"
                "└───────┘\n");
    free(got);
    ss_mesh_destroy(m);
}

/* 16 columns need 129 columns unsqueezed; rich cuts them to fit in 80. */
Test(viz, wide_table_is_squeezed_as_rich_does)
{
    ss_mesh *m = mesh("x=16", 16, NULL);
    ss_sharding sh = sharding(m, "P('x')");
    int64_t shape[1] = {16};
    char *got = viz(&sh, 1, shape, NULL);
    /* rich 13.3.1 */
    assert_text("16 columns", got,
                "┌────┬────┬────┬────┬────┬────┬────┬────┬────┬────┬────┬────┬────┬────┬───┬────┐\n"
                "│ C… │ C… │ C… │ C… │ C… │ C… │ C… │ C… │ C… │ C… │CPU │CPU │CPU │CPU │C… │CPU │\n"
                "│ 0  │ 1  │ 2  │ 3  │ 4  │ 5  │ 6  │ 7  │ 8  │ 9  │10  │11  │12  │13  │14 │15  │\n"
                "└────┴────┴────┴────┴────┴────┴────┴────┴────┴────┴────┴────┴────┴────┴───┴────┘\n");
    free(got);
    ss_mesh_destroy(m);
}

Test(viz, color_mode_has_escapes_and_no_box)
{
    ss_mesh *m = mesh("x=2,y=4", 8, NULL);
    ss_sharding sh = sharding(m, "P('x', 'y')");
    int64_t shape[2] = {8, 8};
    ss_viz_options opts = {NULL, 0, 0, 0, 1};
    char *got = viz(&sh, 2, shape, &opts);
    cr_assert(strstr(got, "\x1b[38;2;255;255;255;48;2;57;59;121m"), "%s", got);
    /* Cell 4 gets tab20b entry 11, light enough for black text. */
    cr_assert(strstr(got, "\x1b[38;2;0;0;0;48;2;231;203;148mCPU 4\x1b[0m"), "%s", got);
    static const char *const box[] = {"│", "─", "┌", "┐", "└", "┘", "├", "┤", "┬", "┴", "┼"};
    for (size_t i = 0; i < sizeof box / sizeof box[0]; i++)
        cr_assert_null(strstr(got, box[i]), "box character %s in colour output", box[i]);
    free(got);
    ss_mesh_destroy(m);
}

/* Two cells: make_color_iter steps by 2 mod 2, so both get the first colour. */
Test(viz, color_mode_matches_rich)
{
    ss_mesh *m = mesh("x=2", 2, NULL);
    ss_sharding sh = sharding(m, "P('x')");
    int64_t shape[1] = {8};
    ss_viz_options opts = {NULL, 0, 0, 0, 1};
    char *got = viz(&sh, 1, shape, &opts);
#define S "\x1b[38;2;255;255;255;48;2;57;59;121m"
#define E "\x1b[0m"
    /* rich 13.3.1 */
    assert_text("colour", got,
                S "  " E S "CPU 0" E S "  " E S "  " E S "CPU 1" E S "  " E "\n"
                S "         " E S "         " E "\n");
#undef S
#undef E
    free(got);
    ss_mesh_destroy(m);
}

/* ------------------------------------------------------------------------ */
/* n-d pictures                                                              */
/* ------------------------------------------------------------------------ */

/* Derived by hand from the rules: each block is a (2, 2) array split in two
 * rows, so base 10 x 10, width int(1 * 10 * 2.5) = 25, height int(0.5 * 10)
 * = 5; "CPU 0" gets divmod(18, 2) = 9 blanks each side (a 23-wide column)
 * and divmod(3, 2) = 1 line above, 2 below. */
Test(viz, nd_rank3_exact)
{
    ss_mesh *m = mesh("x=2,y=2", 4, NULL);
    ss_sharding sh = sharding(m, "P('x', 'y', None)");
    int64_t shape[3] = {4, 2, 2};
    char *got = viz_nd(&sh, 3, shape, -1, -1);
#define TOP "┌───────────────────────┐\n"
#define MID "├───────────────────────┤\n"
#define BOT "└───────────────────────┘\n"
#define BLANK "│                       │\n"
#define CELL(id) BLANK "│         CPU " id "         │\n" BLANK BLANK
    assert_text("rank 3", got,
                "[0:2, :, :]\n" TOP CELL("0") MID CELL("1") BOT
                "\n"
                "[2:4, :, :]\n" TOP CELL("2") MID CELL("3") BOT);
#undef TOP
#undef MID
#undef BOT
#undef BLANK
#undef CELL
    free(got);
    ss_mesh_destroy(m);
}

/* Replace each digit d in s by map[d] (single-digit ids only). */
static void renumber(char *s, const char map[10])
{
    for (; *s; s++)
        if (*s >= '0' && *s <= '9')
            *s = map[*s - '0'];
}

/* Each n-d picture is ss_viz_sharding of the 2-D sharding the devices of
 * that block form: mesh (x, z) over the positions with that y, spec
 * P('x', 'z'). A mesh's ids must be 0..N-1, so the slice mesh is built with
 * ids 0..3 and its picture renumbered to the real (ascending) ids. */
Test(viz, nd_pictures_are_2d_slice_pictures)
{
    ss_mesh *m = mesh("x=2,y=2,z=2", 8, NULL);
    ss_sharding sh = sharding(m, "P('y', 'x', 'z')");
    int64_t shape[3] = {4, 4, 6};
    char *got = viz_nd(&sh, 3, shape, 1, 2);

    ss_mesh *sub = mesh("x=2,z=2", 4, NULL);
    ss_sharding sub_sh = sharding(sub, "P('x', 'z')");
    int64_t sub_shape[2] = {4, 6};
    /* y = 0 holds positions x*4 + z: ids 0,1,4,5; y = 1: ids 2,3,6,7. */
    static const char map0[10] = {'0', '1', '4', '5'}, map1[10] = {'2', '3', '6', '7'};
    char *pic0 = viz(&sub_sh, 2, sub_shape, NULL);
    char *pic1 = viz(&sub_sh, 2, sub_shape, NULL);
    renumber(pic0, map0);
    renumber(pic1, map1);
    size_t cap = strlen(pic0) + strlen(pic1) + 64;
    char *want = malloc(cap);
    snprintf(want, cap, "[0:2, :, :]\n%s\n[2:4, :, :]\n%s", pic0, pic1);
    assert_text("rank 3 slices", got, want);
    free(want);
    free(pic0);
    free(pic1);
    free(got);
    ss_mesh_destroy(sub);
    ss_mesh_destroy(m);
}

Test(viz, nd_rank4_headings_in_row_major_order)
{
    ss_mesh *m = mesh("x=2,y=2", 4, NULL);
    ss_sharding sh = sharding(m, "P('x', 'y')");
    int64_t shape[4] = {2, 4, 4, 4};
    char *got = viz_nd(&sh, 4, shape, -1, -1);
    static const char *const heads[] = {"[0:1, 0:2, :, :]\n", "[0:1, 2:4, :, :]\n",
                                        "[1:2, 0:2, :, :]\n", "[1:2, 2:4, :, :]\n"};
    const char *at = got;
    for (int i = 0; i < 4; i++) {
        const char *h = strstr(at, heads[i]);
        cr_assert_not_null(h, "heading %s missing or out of order in\n%s", heads[i], got);
        /* One device per block: the i-th device fills the picture. */
        char label[16];
        snprintf(label, sizeof label, "CPU %d ", i);
        const char *next = i < 3 ? strstr(h + 1, "\n[") : got + strlen(got);
        const char *l = strstr(h, label);
        cr_assert(l && l < next, "block %d lacks %s", i, label);
        at = h + 1;
    }
    cr_assert_eq(strncmp(got, heads[0], strlen(heads[0])), 0);
    free(got);
    ss_mesh_destroy(m);
}

/* ------------------------------------------------------------------------ */
/* The mesh picture                                                          */
/* ------------------------------------------------------------------------ */

Test(viz, mesh_2x4)
{
    ss_mesh *m = mesh("data=2,model=4", 8, NULL);
    char *got = viz_mesh(m);
    assert_text("mesh 2x4", got,
                "Mesh('data': 2, 'model': 4)\n"
                "          model →\n"
                "           0   1   2   3\n"
                "         ┌───┬───┬───┬───┐\n"
                "data ↓ 0 │ 0 │ 1 │ 2 │ 3 │\n"
                "         ├───┼───┼───┼───┤\n"
                "       1 │ 4 │ 5 │ 6 │ 7 │\n"
                "         └───┴───┴───┴───┘\n");
    free(got);
    ss_mesh_destroy(m);
}

Test(viz, mesh_tpu_order_4x2)
{
    static const int order[8] = {0, 1, 2, 3, 6, 7, 4, 5};
    ss_mesh *m = mesh("a=4,b=2", 8, order);
    char *got = viz_mesh(m);
    assert_text("mesh 4x2", got,
                "Mesh('a': 4, 'b': 2)\n"
                "       b →\n"
                "        0   1\n"
                "      ┌───┬───┐\n"
                "a ↓ 0 │ 0 │ 1 │\n"
                "      ├───┼───┤\n"
                "    1 │ 2 │ 3 │\n"
                "      ├───┼───┤\n"
                "    2 │ 6 │ 7 │\n"
                "      ├───┼───┤\n"
                "    3 │ 4 │ 5 │\n"
                "      └───┴───┘\n");
    free(got);
    ss_mesh_destroy(m);
}

Test(viz, mesh_middle_axes_make_blocks)
{
    ss_mesh *m = mesh("data=2,stage=2,model=3", 12, NULL);
    char *got = viz_mesh(m);
    assert_text("mesh 2x2x3", got,
                "Mesh('data': 2, 'stage': 2, 'model': 3)\n"
                "stage = 0\n"
                "          model →\n"
                "            0    1    2\n"
                "         ┌────┬────┬────┐\n"
                "data ↓ 0 │  0 │  1 │  2 │\n"
                "         ├────┼────┼────┤\n"
                "       1 │  6 │  7 │  8 │\n"
                "         └────┴────┴────┘\n"
                "\n"
                "stage = 1\n"
                "          model →\n"
                "            0    1    2\n"
                "         ┌────┬────┬────┐\n"
                "data ↓ 0 │  3 │  4 │  5 │\n"
                "         ├────┼────┼────┤\n"
                "       1 │  9 │ 10 │ 11 │\n"
                "         └────┴────┴────┘\n");
    free(got);
    ss_mesh_destroy(m);
}

Test(viz, mesh_one_axis_and_empty)
{
    ss_mesh *m = mesh("x=4", 4, NULL);
    char *got = viz_mesh(m);
    assert_text("mesh x=4", got,
                "Mesh('x': 4)\n"
                " x →\n"
                "  0   1   2   3\n"
                "┌───┬───┬───┬───┐\n"
                "│ 0 │ 1 │ 2 │ 3 │\n"
                "└───┴───┴───┴───┘\n");
    free(got);
    ss_mesh_destroy(m);
    m = mesh("", 1, NULL);
    got = viz_mesh(m);
    assert_text("empty mesh", got,
                "Mesh()\n"
                "┌───┐\n"
                "│ 0 │\n"
                "└───┘\n");
    free(got);
    ss_mesh_destroy(m);
}
