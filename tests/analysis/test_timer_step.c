/* Tests of the timer-step inference (src/analysis/timer_step.c) on values rounded to a known
 * tick, through a float as cudaEventElapsedTime gives them, and the edge cases. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>

#include "analysis/timer_step.h"
#include "util/rng.h"

static void tick_of_rounded_values(void **state)
{
    (void)state;
    double x[64];
    gs_rng rng;
    gs_rng_seed(&rng, 7);
    for (int i = 0; i < 64; i++) {
        double ns = 2000 + 600 * gs_rng_unit(&rng);
        float ms = (float)(32 * floor(ns / 32 + 0.5) / 1e6);  /* a float of ms, as CUDA gives */
        x[i] = (double)ms * 1e6;
    }
    assert_float_equal(gs_timer_step(x, 64, 0.5), 32, 0.01);
}

static void equal_values_within_tol_are_one(void **state)
{
    (void)state;
    double x[] = {1000, 1000.2, 999.9, 1512, 1512.1};
    assert_float_equal(gs_timer_step(x, 5, 0.5), 511.8, 1e-9);
    assert_float_equal(gs_timer_step(x, 5, 0), 0.1, 1e-9);
}

static void unsorted_and_nan(void **state)
{
    (void)state;
    double x[] = {NAN, 300, 100, INFINITY, 200, 100};
    assert_float_equal(gs_timer_step(x, 6, 0.5), 100, 1e-12);
    assert_float_equal(x[1], 300, 0);            /* the input is left as it is */
}

static void too_few_distinct(void **state)
{
    (void)state;
    double same[] = {5, 5, 5};
    double one[] = {7};
    double none[] = {NAN, NAN};
    assert_true(isnan(gs_timer_step(same, 3, 0.5)));
    assert_true(isnan(gs_timer_step(one, 1, 0.5)));
    assert_true(isnan(gs_timer_step(none, 2, 0.5)));
    assert_true(isnan(gs_timer_step(NULL, 0, 0.5)));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(tick_of_rounded_values),
        cmocka_unit_test(equal_values_within_tol_are_one),
        cmocka_unit_test(unsorted_and_nan),
        cmocka_unit_test(too_few_distinct),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
