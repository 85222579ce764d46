/* test_mesh.c — meshes: creation, inference, device orders, reprs, errors. */
#include "support.h"

#include <criterion/criterion.h>
#include <string.h>

Test(mesh, row_major_ids_and_coords)
{
    ss_mesh *m;
    cr_assert_eq(ss_mesh_parse("data=2,model=4", 8, NULL, &m), SS_OK);
    cr_assert_eq(ss_mesh_axis_count(m), 2);
    cr_assert_str_eq(ss_mesh_axis_name(m, 1), "model");
    cr_assert_eq(ss_mesh_axis_size(m, 1), 4);
    cr_assert(ss_mesh_is_iota(m));
    int64_t c[2];
    ss_mesh_coords(m, 6, c);
    cr_assert_eq(c[0], 1);
    cr_assert_eq(c[1], 2);
    cr_assert_eq(ss_mesh_device_id(m, 6), 6);
    ss_mesh_destroy(m);
}

Test(mesh, infers_one_axis)
{
    ss_mesh *m;
    cr_assert_eq(ss_mesh_parse("data=-1 model=4", 8, NULL, &m), SS_OK, "%s", ss_error_message());
    cr_assert_eq(ss_mesh_axis_size(m, 0), 2);
    ss_mesh_destroy(m);
}

Test(mesh, explicit_device_order)
{
    int ids[8] = {0, 1, 2, 3, 6, 7, 4, 5};
    ss_mesh *m;
    cr_assert_eq(ss_mesh_parse("a=4,b=2", 8, ids, &m), SS_OK);
    cr_assert_not(ss_mesh_is_iota(m));
    cr_assert_eq(ss_mesh_device_id(m, 4), 6);
    cr_assert_eq(ss_mesh_position_of(m, 4), 6);
    ss_mesh_destroy(m);
}

Test(mesh, repr_matches_jax)
{
    ss_mesh *m;
    char buf[128];
    cr_assert_eq(ss_mesh_parse("data=2,model=4", 8, NULL, &m), SS_OK);
    ss_mesh_repr(m, 0, buf, sizeof buf);
    cr_assert_str_eq(buf, "Mesh('data': 2, 'model': 4)");
    ss_mesh_repr(m, 1, buf, sizeof buf);
    cr_assert_str_eq(buf, "Mesh('data': 2, 'model': 4, axis_types=(Auto, Auto))");
    ss_mesh_destroy(m);
    cr_assert_eq(ss_mesh_parse("a=8", 8, NULL, &m), SS_OK);
    ss_mesh_repr(m, 1, buf, sizeof buf);
    cr_assert_str_eq(buf, "Mesh('a': 8, axis_types=(Auto,))");
    ss_mesh_destroy(m);
    cr_assert_eq(ss_mesh_parse("", 1, NULL, &m), SS_OK);
    ss_mesh_repr(m, 0, buf, sizeof buf);
    cr_assert_str_eq(buf, "Mesh()");
    ss_mesh_destroy(m);
}

Test(mesh, several_meshes_over_the_same_devices)
{
    /* The restore case of the seeds: 2x4, 2x2x2 and 8 over the same 8 devices. */
    ss_mesh *a, *b, *c;
    cr_assert_eq(ss_mesh_parse("x=2,y=4", 8, NULL, &a), SS_OK);
    cr_assert_eq(ss_mesh_parse("x=2,y=2,z=2", 8, NULL, &b), SS_OK);
    cr_assert_eq(ss_mesh_parse("x=8", 8, NULL, &c), SS_OK);
    cr_assert_eq(ss_mesh_device_count(a) + ss_mesh_device_count(b) + ss_mesh_device_count(c), 24);
    ss_mesh_destroy(a);
    ss_mesh_destroy(b);
    ss_mesh_destroy(c);
}

static void expect_error(const char *text, int n, const char *fragment)
{
    ss_mesh *m = (ss_mesh *)1;
    ss_status st = ss_mesh_parse(text, n, NULL, &m);
    cr_assert_neq(st, SS_OK, "'%s' should fail", text);
    cr_assert_null(m);
    cr_assert(strstr(ss_error_message(), fragment) != NULL, "'%s': message '%s' lacks '%s'", text,
              ss_error_message(), fragment);
}

Test(mesh, errors)
{
    expect_error("x=2,x=4", 8, "axis name 'x' appears twice");
    expect_error("x=2,y=2", 8, "Number of devices 8 must equal the product of mesh_shape (2, 2)");
    expect_error("x=0,y=8", 8, "sizes must be >= 1");
    expect_error("x=-1,y=-1", 8, "both -1");
    expect_error("x=-1,y=3", 8, "cannot infer");
    expect_error("x=two", 8, "needs an integer size");
    expect_error("x", 8, "expected name=size");
    int dup[4] = {0, 1, 1, 3};
    ss_mesh *m;
    cr_assert_eq(ss_mesh_parse("x=4", 4, dup, &m), SS_ERR_MESH);
    cr_assert(strstr(ss_error_message(), "device id 1 appears twice"));
}
