/* Unit tests of the ceiling check of src/probes/issue_point.c (shared by the pipeline, roofline and
 * divergence probes): the ceiling is the best one-block point without error; multi-block points
 * more than GS_ISSUE_CEILING_TOLERANCE above it become measurement errors, one-block points and
 * points already in error are left alone. Synthetic points whose answer is known. */
#include <math.h>
#include <string.h>

#include "gs_test.h"

#include "probes/issue_point.h"

static gs_issue_point point(double ipc, bool multi_block, bool error)
{
    gs_issue_point p;
    memset(&p, 0, sizeof p);
    p.ipc.median = ipc;
    p.multi_block = multi_block;
    p.measurement_error = error;
    return p;
}

static void test_ceiling_and_flags(void **state)
{
    (void)state;
    gs_issue_point pts[6] = {
        point(3.90, false, false), point(3.95, false, false), point(9.00, false, true),
        point(3.99, true, false),  /* within 2% of 3.95: kept */
        point(4.30, true, false),  /* the H100's old ILP 4 reading: flagged */
        point(4.40, true, true),   /* already an error: not counted again */
    };
    double ceiling = gs_issue_ceiling(pts, 6);
    assert_double_equal(ceiling, 3.95, 0);
    assert_int_equal(gs_issue_flag_over_ceiling(pts, 6, ceiling), 1);
    assert_false(pts[3].measurement_error);
    assert_true(pts[4].measurement_error);
    assert_false(pts[0].measurement_error);
    assert_false(pts[1].measurement_error);
}

static void test_no_ceiling(void **state)
{
    (void)state;
    gs_issue_point pts[2] = {point(4.3, true, false), point(3.0, false, true)};
    double ceiling = gs_issue_ceiling(pts, 2);   /* no sound one-block point */
    assert_double_equal(ceiling, 0, 0);
    assert_int_equal(gs_issue_flag_over_ceiling(pts, 2, ceiling), 0);
    assert_false(pts[0].measurement_error);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ceiling_and_flags),
        cmocka_unit_test(test_no_ceiling),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
