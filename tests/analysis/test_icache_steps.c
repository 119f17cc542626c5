/* Unit tests of the instruction-cache levels of a footprint sweep (src/analysis/icache_steps.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <math.h>

#include "analysis/icache_steps.h"

static const double kb[12] = {4, 8, 12, 16, 24, 32, 48, 64, 96, 128, 192, 256};

static void sizes(double *bytes)
{
    for (int i = 0; i < 12; i++)
        bytes[i] = kb[i] * 1024;
}

/* Two levels, 16 KB (1.0 cycle per instruction) and 128 KB (1.6), then 4.0 beyond. */
static void test_two_levels(void **state)
{
    (void)state;
    double bytes[12], cpi[12] = {1.0, 1.02, 0.99, 1.0, 1.6, 1.61, 1.59, 1.6, 1.6, 1.62, 4.0, 4.1};
    gs_icache_level l[4];
    double beyond;
    sizes(bytes);
    assert_int_equal(gs_icache_steps(bytes, cpi, 12, 0.1, l, 4, &beyond), 2);
    assert_true(l[0].bytes_low == 16 * 1024 && l[0].bytes_high == 24 * 1024);
    assert_true(fabs(l[0].cycles_per_instruction - 1.0) < 0.02);
    assert_true(l[1].bytes_low == 128 * 1024 && l[1].bytes_high == 192 * 1024);
    assert_true(fabs(l[1].cycles_per_instruction - 1.6) < 0.02);
    assert_true(fabs(beyond - 4.05) < 0.06);
}

/* A transition point (a size that fits in part) between two plateaus: the upper bound is that
 * size, the first one the level does not hold whole. */
static void test_transition(void **state)
{
    (void)state;
    double bytes[12], cpi[12] = {1, 1, 1, 1, 1, 2.5, 4, 4, 4, 4, 4, 4};
    gs_icache_level l[4];
    double beyond;
    sizes(bytes);
    assert_int_equal(gs_icache_steps(bytes, cpi, 12, 0.1, l, 4, &beyond), 1);
    assert_true(l[0].bytes_low == 24 * 1024 && l[0].bytes_high == 32 * 1024);
    assert_true(beyond == 4);
}

/* No step: no level, the one plateau beyond; a fall ends the levels; bad input refused. */
static void test_flat_fall_and_bad(void **state)
{
    (void)state;
    double bytes[12], flat[12] = {2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2};
    double fall[12] = {1, 1, 1, 1, 3, 3, 3, 3, 0.5, 0.5, 0.5, 0.5};
    gs_icache_level l[4];
    double beyond;
    sizes(bytes);
    assert_int_equal(gs_icache_steps(bytes, flat, 12, 0.1, l, 4, &beyond), 0);
    assert_true(beyond == 2);
    assert_int_equal(gs_icache_steps(bytes, fall, 12, 0.1, l, 4, &beyond), 1);
    assert_true(l[0].bytes_low == 16 * 1024 && beyond == 3);
    assert_int_equal(gs_icache_steps(bytes, flat, 0, 0.1, l, 4, &beyond), 0);
    assert_true(isnan(beyond));
    flat[3] = NAN;
    assert_int_equal(gs_icache_steps(bytes, flat, 12, 0.1, l, 4, &beyond), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_two_levels),
        cmocka_unit_test(test_transition),
        cmocka_unit_test(test_flat_fall_and_bad),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
