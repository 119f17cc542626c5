/* Unit tests of src/analysis/sm_spread.c: per-SM values, extremes and their SMs, median, the
 * two passes' noise bound, and SMs left out (a pass that failed, none at all). */
#include <math.h>

#include "gs_test.h"

#include "analysis/sm_spread.h"

/* SMs in pairs of equal latency (as an H100's TPCs), one pass a little off the other. */
static void test_pairs(void **state)
{
    (void)state;
    const double a[] = {286, 286, 290, 290, 276, 276, 307, 307};
    const double b[] = {286.2, 285.8, 290, 290.1, 276, 276.3, 307, 306.9};
    double v[8];
    gs_sm_spread s;
    gs_sm_spread_of(a, b, 8, v, &s);
    assert_int_equal(s.n, 8);
    assert_double_equal(v[0], 286.1, 1e-9);
    assert_double_equal(s.min, 276, 1e-9);
    assert_int_equal(s.min_sm, 4);
    assert_double_equal(s.max, 307, 1e-9);
    assert_int_equal(s.max_sm, 6);
    assert_double_equal(s.spread, 31, 1e-9);
    assert_double_equal(s.median, (286.1 + 290) / 2, 1e-9);
    assert_double_equal(s.noise, 0.3, 1e-9);
}

/* An SM whose pass failed (NaN) is left out of every figure; no SM at all gives NaN. */
static void test_missing(void **state)
{
    (void)state;
    const double a[] = {NAN, 300, 310};
    const double b[] = {250, 300, 312};
    double v[3];
    gs_sm_spread s;
    gs_sm_spread_of(a, b, 3, v, &s);
    assert_int_equal(s.n, 2);
    assert_true(isnan(v[0]));
    assert_double_equal(s.min, 300, 0);
    assert_int_equal(s.min_sm, 1);
    assert_double_equal(s.max, 311, 0);
    assert_double_equal(s.median, 305.5, 1e-9);
    assert_double_equal(s.noise, 2, 0);
    gs_sm_spread_of(a, b, 0, v, &s);
    assert_int_equal(s.n, 0);
    assert_true(isnan(s.min) && isnan(s.median) && isnan(s.spread) && isnan(s.noise));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pairs),
        cmocka_unit_test(test_missing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
