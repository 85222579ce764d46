/* test_mesh.c — meshes: creation, inference, device orders, reprs, errors. */
#include "support.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
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

/* --- Checked arithmetic: every product of a user's numbers --------------------------- */

/* Internal on purpose: the checked-arithmetic helpers have no public face. */
#include "base/base.h"

#include <stdint.h>

/* ss__mul_i64_checked (the builtin) and ss__mul_i64_portable (the plain C
 * fallback) against the exact product in 128 bits. */
Test(mesh, checked_multiplication_matches_exact_arithmetic)
{
    static const int64_t v[] = {0,
                                1,
                                -1,
                                2,
                                -2,
                                3,
                                7,
                                4096,
                                (int64_t)1 << 31,
                                (int64_t)1 << 32,
                                -((int64_t)1 << 32),
                                3037000499,
                                3037000500,
                                -3037000500,
                                INT64_MAX / 2,
                                INT64_MAX / 2 + 1,
                                INT64_MIN / 2,
                                INT64_MIN / 2 - 1,
                                INT64_MAX,
                                INT64_MIN,
                                INT64_MIN + 1};
    int n = (int)(sizeof v / sizeof v[0]);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            __int128 exact = (__int128)v[i] * (__int128)v[j];
            bool fits = exact >= INT64_MIN && exact <= INT64_MAX;
            int64_t a = 42, b = 42;
            cr_assert_eq(ss__mul_i64_checked(v[i], v[j], &a), fits, "%lld * %lld",
                         (long long)v[i], (long long)v[j]);
            cr_assert_eq(ss__mul_i64_portable(v[i], v[j], &b), fits, "%lld * %lld (portable)",
                         (long long)v[i], (long long)v[j]);
            if (fits) {
                cr_assert_eq(a, (int64_t)exact);
                cr_assert_eq(b, (int64_t)exact);
            } else {
                cr_assert_eq(a, 42, "untouched on overflow");
                cr_assert_eq(b, 42, "untouched on overflow");
            }
        }
    int64_t p;
    int64_t dims[3] = {4294967296, 4294967296, 16};
    cr_assert_not(ss__product(3, dims, &p));
    dims[2] = 0;
    cr_assert(ss__product(3, dims, &p));
    cr_assert_eq(p, 0);
}

static void expect_make_error(const char *text, int available, const char *want)
{
    ss_mesh *m = (ss_mesh *)1;
    cr_assert_eq(ss_mesh_make(text, available, NULL, &m), SS_ERR_MESH, "%s made", text);
    cr_assert_null(m);
    cr_assert_str_eq(ss_error_message(), want);
}

/* JAX's make_mesh compares math.prod(axis_shapes) (an exact Python int) with
 * the devices available: a product past int64 is simply too many devices. */
Test(mesh, make_with_huge_axis_sizes_is_jaxs_error)
{
    expect_make_error("a=2,b=9223372036854775807", 8,
                      "Number of devices 8 must be >= the product of mesh_shape "
                      "(2, 9223372036854775807)");
    expect_make_error("a=4294967296,b=4294967296", 8,
                      "Number of devices 8 must be >= the product of mesh_shape "
                      "(4294967296, 4294967296)");
    expect_make_error("a=9223372036854775807,b=-1", 8,
                      "mesh: the product of the axis sizes exceeds 4096 devices");
    ss_mesh *m;
    cr_assert_eq(ss_mesh_make("a=99999999999999999999", 8, NULL, &m), SS_ERR_PARSE);
    cr_assert(strstr(ss_error_message(), "beyond 64-bit integers"), "%s", ss_error_message());
}

/* Shapes whose element or byte count leaves int64 are refused with the
 * shape in the message, never wrapped into a small or negative size. */
Test(mesh, sharding_of_a_huge_shape_is_refused)
{
    ss_mesh *m;
    cr_assert_eq(ss_mesh_parse("data=2,model=4", 8, NULL, &m), SS_OK);
    ss_spec spec;
    cr_assert_eq(ss_spec_parse("data,model", &spec), SS_OK);
    ss_sharding sh;
    ss_sharding_init(&sh, m, &spec);
    ss_shard shards[8];
    int64_t big[3] = {4294967296, 4294967296, 16};
    cr_assert_eq(ss_sharding_check(&sh, 3, big), SS_ERR_RANGE);
    cr_assert_str_eq(ss_error_message(),
                     "array shape (4294967296, 4294967296, 16) has more than 2^63 - 1 elements");
    cr_assert_eq(ss_sharding_shards(&sh, 3, big, SS_F32, shards, 8), SS_ERR_RANGE);
    /* 2^31 * 2^30 elements fit; their 2^63 bytes of f32 do not. */
    int64_t bytes[2] = {(int64_t)1 << 31, (int64_t)1 << 30};
    cr_assert_eq(ss_sharding_check(&sh, 2, bytes), SS_OK);
    cr_assert_eq(ss_sharding_shards(&sh, 2, bytes, SS_F32, shards, 8), SS_ERR_RANGE);
    cr_assert_str_eq(ss_error_message(),
                     "f32 array of shape (2147483648, 1073741824) has more than 2^63 - 1 bytes");
    /* One byte per element less: 2^61 bytes, sharded 2 x 4. */
    cr_assert_eq(ss_sharding_shards(&sh, 2, bytes, SS_I8, shards, 8), SS_OK);
    cr_assert_eq(shards[7].bytes, ((size_t)1 << 61) / 8);
    ss_mesh_destroy(m);
}

/* HLO tile assignments with huge dims (the struct filled in code; the text
 * parser caps numbers at 2^31). */
Test(mesh, hlo_tile_dims_past_int64_are_refused)
{
    int devices[8] = {0, 1, 2, 3, 4, 5, 6, 7};
    ss_hlo h = {.kind = SS_HLO_TILED, .ndims = 2, .tile_dims = {2, INT64_MAX / 2 + 1},
                .ndevices = 8, .devices = devices};
    char buf[256];
    cr_assert_eq(ss_hlo_print(&h, buf, sizeof buf), SS_ERR_RANGE);
    cr_assert_str_eq(ss_error_message(), "HLO sharding: more than 4096 devices");
    h.tile_dims[0] = 4294967296;
    h.tile_dims[1] = 4294967296;
    cr_assert_eq(ss_hlo_print(&h, buf, sizeof buf), SS_ERR_RANGE);
    /* Text: tile and iota dims whose product passes the device limit. */
    ss_hlo t;
    cr_assert_eq(ss_hlo_parse("{devices=[1000000000,1000000000,1000000000]<=[8]}", &t),
                 SS_ERR_RANGE);
    cr_assert_eq(ss_hlo_parse("{devices=[2,4]<=[1000000000,1000000000,1000000000]}", &t),
                 SS_ERR_PARSE);
    cr_assert(strstr(ss_error_message(), "the iota's size differs"), "%s", ss_error_message());
}

/* A mesh of SS_MAX_AXES axes with names longer than 31 bytes; one axis
 * more is the limit's error. */
Test(mesh, axes_at_and_past_the_limit)
{
    char names[SS_MAX_AXES + 1][64];
    const char *ptrs[SS_MAX_AXES + 1];
    int64_t sizes[SS_MAX_AXES + 1];
    for (int k = 0; k <= SS_MAX_AXES; k++) {
        snprintf(names[k], sizeof names[k], "mesh_axis_%d_with_a_name_past_31_bytes", k);
        ptrs[k] = names[k];
        sizes[k] = k < 3 ? 2 : 1;
    }
    ss_mesh *m;
    cr_assert_eq(ss_mesh_create(SS_MAX_AXES, ptrs, sizes, 8, NULL, &m), SS_OK, "%s",
                 ss_error_message());
    cr_assert_eq(ss_mesh_axis_count(m), SS_MAX_AXES);
    const char *last = ss_mesh_axis_name(m, SS_MAX_AXES - 1);
    cr_assert_str_eq(last, names[SS_MAX_AXES - 1]);
    ss_mesh_destroy(m);
    cr_assert_str_eq(last, names[SS_MAX_AXES - 1], "axis names outlive their mesh");
    cr_assert_eq(ss_mesh_create(SS_MAX_AXES + 1, ptrs, sizes, 8, NULL, &m), SS_ERR_MESH);
    char msg[128];
    snprintf(msg, sizeof msg, "mesh: %d axes; at most %d are supported (SS_MAX_AXES)",
             SS_MAX_AXES + 1, SS_MAX_AXES);
    cr_assert_str_eq(ss_error_message(), msg);
}
