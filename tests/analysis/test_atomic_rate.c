/* Unit tests of the atomic throughput rates (src/analysis/atomic_rate.c) on launch times whose
 * rate is known. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <math.h>

#include "analysis/atomic_rate.h"

static void test_known_rate(void **state)
{
    (void)state;
    /* 2e9 atomics in 1 ms each: 2000 Gop/s; at 2 GHz 1000 per clock, on 100 SMs 10 per SM */
    double s[5] = {1e-3, 1e-3, 1e-3, 1e-3, 1e-3};
    gs_atomic_rate r;
    assert_int_equal(gs_atomic_rate_of(s, 5, 2000000000ull, 2e6, 100, &r), 0);
    assert_int_equal(r.n, 5);
    assert_true(fabs(r.gops - 2000) < 1e-9);
    assert_true(r.gops_ci95 < 1e-9);
    assert_true(fabs(r.per_clock - 1000) < 1e-9);
    assert_true(fabs(r.per_clock_per_sm - 10) < 1e-9);
}

static void test_median_skips_bad_times_and_outliers(void **state)
{
    (void)state;
    double s[7] = {1e-3, 1.01e-3, 0.99e-3, 0, NAN, -1, 1e-3};
    gs_atomic_rate r;
    assert_int_equal(gs_atomic_rate_of(s, 7, 1000000, 0, 0, &r), 0);
    assert_int_equal(r.n, 4);
    assert_true(fabs(r.gops - 1.0) < 1e-9);
    assert_true(r.gops_ci95 > 0);
    assert_true(isnan(r.per_clock) && isnan(r.per_clock_per_sm));   /* clock unknown */
}

static void test_clock_without_sms(void **state)
{
    (void)state;
    double s[1] = {1e-3};
    gs_atomic_rate r;
    assert_int_equal(gs_atomic_rate_of(s, 1, 1000000, 1e6, 0, &r), 0);
    assert_true(fabs(r.per_clock - 1) < 1e-9);
    assert_true(isnan(r.per_clock_per_sm));
}

static void test_nothing_measured(void **state)
{
    (void)state;
    double s[2] = {0, NAN};
    gs_atomic_rate r;
    assert_int_equal(gs_atomic_rate_of(s, 2, 100, 1e6, 1, &r), -1);
    assert_true(isnan(r.gops));
    assert_int_equal(gs_atomic_rate_of(s, 0, 100, 1e6, 1, &r), -1);
    double ok[1] = {1};
    assert_int_equal(gs_atomic_rate_of(ok, 1, 0, 1e6, 1, &r), -1);
}

static void test_iterations_for_target(void **state)
{
    (void)state;
    assert_int_equal(gs_atomic_iterations_for(4, 1e-4, 1e-3, 1u << 20), 40);
    assert_int_equal(gs_atomic_iterations_for(4, 3e-4, 1e-3, 1u << 20), 14);   /* rounded up */
    assert_int_equal(gs_atomic_iterations_for(100, 1.0, 1e-3, 1u << 20), 1);   /* at least 1 */
    assert_int_equal(gs_atomic_iterations_for(4, 1e-9, 1.0, 1000), 1000);     /* at most max */
    assert_int_equal(gs_atomic_iterations_for(4, 0, 1e-3, 1000), 64);         /* unseen: x16 */
    assert_int_equal(gs_atomic_iterations_for(4, NAN, 1e-3, 1000), 64);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_known_rate),
        cmocka_unit_test(test_median_skips_bad_times_and_outliers),
        cmocka_unit_test(test_clock_without_sms),
        cmocka_unit_test(test_nothing_measured),
        cmocka_unit_test(test_iterations_for_target),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
