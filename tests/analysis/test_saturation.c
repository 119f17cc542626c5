/* Unit tests of the saturation point (src/analysis/saturation.c) on synthetic throughput curves. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <math.h>

#include "analysis/saturation.h"

static void test_knee_of_a_roofline(void **state)
{
    (void)state;
    /* throughput = min(w / latency, peak): w walkers, latency 1, peak 64 */
    double x[12], y[12];
    for (int i = 0; i < 12; i++) {
        x[i] = pow(2, i);
        y[i] = fmin(x[i], 64.0);
    }
    gs_saturation s;
    assert_int_equal(gs_saturation_find(x, y, 12, 0.9, &s), 0);
    assert_int_equal(s.knee_index, 6);
    assert_true(s.saturated);
    assert_true(s.peak == 64);
}

static void test_still_rising_is_not_saturated(void **state)
{
    (void)state;
    double x[6] = {1, 2, 4, 8, 16, 32}, y[6] = {1, 2, 4, 8, 16, 32};
    gs_saturation s;
    assert_int_equal(gs_saturation_find(x, y, 6, 0.9, &s), 0);
    assert_int_equal(s.knee_index, 5);
    assert_false(s.saturated);
}

static void test_small_last_step_is_not_saturation(void **state)
{
    (void)state;
    /* Linear up to the last point, which adds only 3% more walkers: still rising. */
    double x[5] = {512, 1024, 2048, 4096, 4224}, y[5];
    for (int i = 0; i < 5; i++)
        y[i] = x[i] / 100;
    gs_saturation s;
    assert_int_equal(gs_saturation_find(x, y, 5, 0.9, &s), 0);
    assert_int_equal(s.knee_index, 3);
    assert_false(s.saturated);
}

static void test_drop_after_peak_is_not_flat(void **state)
{
    (void)state;
    double x[5] = {1, 2, 4, 8, 16}, y[5] = {1, 2, 10, 5, 4};
    gs_saturation s;
    assert_int_equal(gs_saturation_find(x, y, 5, 0.9, &s), 0);
    assert_int_equal(s.knee_index, 2);
    assert_false(s.saturated);
}

static void test_nan_and_empty(void **state)
{
    (void)state;
    double x[4] = {1, 2, 4, 8}, y[4] = {NAN, 5, 10, 10};
    gs_saturation s;
    assert_int_equal(gs_saturation_find(x, y, 4, 0.9, &s), 0);
    assert_int_equal(s.knee_index, 2);
    assert_true(s.saturated);
    double z[2] = {NAN, NAN};
    assert_int_equal(gs_saturation_find(x, z, 2, 0.9, &s), -1);
    assert_int_equal(gs_saturation_find(x, y, 0, 0.9, &s), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_knee_of_a_roofline),
        cmocka_unit_test(test_still_rising_is_not_saturated),
        cmocka_unit_test(test_small_last_step_is_not_saturation),
        cmocka_unit_test(test_drop_after_peak_is_not_flat),
        cmocka_unit_test(test_nan_and_empty),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
