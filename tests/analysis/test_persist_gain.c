/* Unit tests of the persistence window's hit rate and interval test (src/analysis/persist_gain.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <math.h>

#include "analysis/persist_gain.h"

static void test_hit_rate_between_plateaus(void **state)
{
    (void)state;
    assert_true(fabs(gs_persist_hit_rate(200, 200, 600, 1) - 1) < 1e-12);
    assert_true(fabs(gs_persist_hit_rate(600, 200, 600, 1)) < 1e-12);
    assert_true(fabs(gs_persist_hit_rate(300, 200, 600, 1) - 0.75) < 1e-12);
    /* seconds per read work the same way */
    assert_true(fabs(gs_persist_hit_rate(4e-6, 2e-6, 6e-6, 0) - 0.5) < 1e-12);
}

static void test_hit_rate_clamped(void **state)
{
    (void)state;
    assert_true(gs_persist_hit_rate(150, 200, 600, 1) == 1);   /* faster than the hit plateau */
    assert_true(gs_persist_hit_rate(700, 200, 600, 1) == 0);   /* slower than DRAM */
}

static void test_hit_rate_undetermined(void **state)
{
    (void)state;
    assert_true(isnan(gs_persist_hit_rate(300, 200, 205, 10)));  /* plateaus within the noise */
    assert_true(isnan(gs_persist_hit_rate(300, 600, 200, 0)));   /* cold faster than warm */
    assert_true(isnan(gs_persist_hit_rate(300, 300, 300, 0)));   /* all equal */
    assert_true(isnan(gs_persist_hit_rate(NAN, 200, 600, 0)));
    assert_true(isnan(gs_persist_hit_rate(300, 200, INFINITY, 0)));
}

static void test_overlap(void **state)
{
    (void)state;
    assert_true(gs_persist_overlap(100, 5, 108, 5));
    assert_true(gs_persist_overlap(100, 5, 110, 5));              /* touching counts */
    assert_false(gs_persist_overlap(100, 5, 111, 5));
    assert_false(gs_persist_overlap(100, 0, 101, 0));             /* exact, one sample each */
    assert_true(gs_persist_overlap(100, 0, 100, 0));
    assert_true(gs_persist_overlap(NAN, 1, 100, 1));
    assert_false(gs_persist_overlap(100, NAN, 300, 1));           /* unknown ci counts as 0 */
    assert_false(gs_persist_overlap(100, -5, 111, 5));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hit_rate_between_plateaus),
        cmocka_unit_test(test_hit_rate_clamped),
        cmocka_unit_test(test_hit_rate_undetermined),
        cmocka_unit_test(test_overlap),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
