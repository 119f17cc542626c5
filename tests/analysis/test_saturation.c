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
    assert_int_equal(gs_saturation_find(x, y, 12, 0.9, 0.03, &s), 0);
    assert_int_equal(s.knee_index, 6);
    assert_true(s.saturated);
    assert_true(s.peak == 64);
    /* 57.6 lies 0.8 of the way from 32 to 64: 2^5.8 walkers; 55.68 and 59.52 around it */
    assert_float_equal(s.knee_x, exp2(5.8), 1e-9);
    assert_float_equal(s.knee_x_low, exp2(5 + 55.68 / 32 - 1), 1e-9);
    assert_float_equal(s.knee_x_high, exp2(5 + 59.52 / 32 - 1), 1e-9);
}

/* Two runs of one card (an H100's walkers, two processes): 2048 walkers at
 * 0.894 and at 0.92 of the peak. The first knee on the grid was 4096 (with no count 1.5 x past
 * it: "not saturated") in one and 2048 in the other; the crossing is 2147 and 1895, each
 * inside the other's interval, and both saturate. */
static void test_a_point_at_the_threshold_moves_the_knee_little(void **state)
{
    (void)state;
    double x[6] = {256, 512, 1024, 2048, 4096, 4224};
    double a[6] = {9.277, 14.694, 21.629, 26.037, 29.101, 29.162};
    double b[6] = {9.277, 14.694, 21.629, 26.83, 29.101, 29.162};
    gs_saturation sa, sb;
    assert_int_equal(gs_saturation_find(x, a, 6, 0.9, 0.03, &sa), 0);
    assert_int_equal(gs_saturation_find(x, b, 6, 0.9, 0.03, &sb), 0);
    assert_int_equal(sa.knee_index, 4);
    assert_int_equal(sb.knee_index, 3);
    assert_true(sa.saturated);
    assert_true(sb.saturated);
    assert_true(sa.knee_x > 1850 && sa.knee_x < 2200);
    assert_true(sb.knee_x > 1850 && sb.knee_x < 2200);
    assert_true(sa.knee_x >= sb.knee_x_low && sa.knee_x <= sb.knee_x_high);
    assert_true(sb.knee_x >= sa.knee_x_low && sb.knee_x <= sa.knee_x_high);
}

static void test_still_rising_is_not_saturated(void **state)
{
    (void)state;
    double x[6] = {1, 2, 4, 8, 16, 32}, y[6] = {1, 2, 4, 8, 16, 32};
    gs_saturation s;
    assert_int_equal(gs_saturation_find(x, y, 6, 0.9, 0.03, &s), 0);
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
    assert_int_equal(gs_saturation_find(x, y, 5, 0.9, 0.03, &s), 0);
    assert_int_equal(s.knee_index, 3);
    assert_false(s.saturated);
}

static void test_drop_after_peak_is_not_flat(void **state)
{
    (void)state;
    double x[5] = {1, 2, 4, 8, 16}, y[5] = {1, 2, 10, 5, 4};
    gs_saturation s;
    assert_int_equal(gs_saturation_find(x, y, 5, 0.9, 0.03, &s), 0);
    assert_int_equal(s.knee_index, 2);
    assert_false(s.saturated);
}

static void test_nan_and_empty(void **state)
{
    (void)state;
    double x[4] = {1, 2, 4, 8}, y[4] = {NAN, 5, 10, 10};
    gs_saturation s;
    assert_int_equal(gs_saturation_find(x, y, 4, 0.9, 0.03, &s), 0);
    assert_int_equal(s.knee_index, 2);
    assert_true(s.saturated);
    double z[2] = {NAN, NAN};
    assert_int_equal(gs_saturation_find(x, z, 2, 0.9, 0.03, &s), -1);
    assert_int_equal(gs_saturation_find(x, y, 0, 0.9, 0.03, &s), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_knee_of_a_roofline),
        cmocka_unit_test(test_a_point_at_the_threshold_moves_the_knee_little),
        cmocka_unit_test(test_still_rising_is_not_saturated),
        cmocka_unit_test(test_small_last_step_is_not_saturation),
        cmocka_unit_test(test_drop_after_peak_is_not_flat),
        cmocka_unit_test(test_nan_and_empty),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
