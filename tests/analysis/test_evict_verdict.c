/* Unit tests of src/analysis/evict_verdict.c: calibration of prime+probe targets whose levels are
 * known (a near line, a far line, a far line whose near copy a pool evicts, a noisy one), the
 * choice among them, thresholds under the far hit, and majority verdicts with their values. */
#include <math.h>

#include "gs_test.h"

#include "analysis/evict_verdict.h"

#define R 3   /* repetitions */
#define N 4   /* targets */

/* Levels as an H100 shows them from one SM: near hit 276, far hit 517, miss 680 cycles. */
static const double hit[R * N] = {276, 517, 276, 276,
                                  277, 518, 276, 386,
                                  276, 517, 277, 276};
static const double quiet[R * N] = {280, 520, 517, 276,
                                    276, 517, 518, 276,
                                    279, 519, 276, 280};
static const double full[R * N] = {680, 683, 681, 680,
                                   682, 680, 680, 690,
                                   681, 682, 682, 681};

static void test_calibrate_levels(void **state)
{
    (void)state;
    gs_evict_target near = gs_evict_calibrate(hit, quiet, full, R, N, 0, NAN);
    assert_double_equal(near.hit_cycles, 276, 1e-9);
    assert_double_equal(near.kept_cycles, 279, 1e-9);    /* its quiet probes' median */
    assert_double_equal(near.miss_cycles, 681, 1e-9);
    assert_double_equal(near.noise_cycles, 1, 1e-9);
    assert_double_equal(near.threshold_cycles, (279 + 681) / 2.0, 1e-9);
    assert_true(near.usable);
    /* a far line: kept at its own far hit */
    gs_evict_target far = gs_evict_calibrate(hit, quiet, full, R, N, 1, NAN);
    assert_double_equal(far.kept_cycles, 519, 1e-9);
    assert_true(far.usable);
    /* a far line read as near (its copy), whose copy the quiet pool evicted: kept at the far
     * hit, not its own */
    gs_evict_target copy = gs_evict_calibrate(hit, quiet, full, R, N, 2, NAN);
    assert_double_equal(copy.hit_cycles, 276, 1e-9);
    assert_double_equal(copy.kept_cycles, 517, 1e-9);
    /* one hit spiked 110 cycles: noise 110, the gap to the miss (405) under 4 x that */
    gs_evict_target noisy = gs_evict_calibrate(hit, quiet, full, R, N, 3, NAN);
    assert_double_equal(noisy.noise_cycles, 110, 1e-9);
    assert_false(noisy.usable);
}

static void test_far_level(void **state)
{
    (void)state;
    /* the far partition's hit lifts a near line's kept level (a copy that a pool evicts reads
     * it); a far hit at or above the miss is no level of a kept line and is ignored */
    gs_evict_target t = gs_evict_calibrate(hit, quiet, full, R, N, 0, 517);
    assert_double_equal(t.kept_cycles, 517, 1e-9);
    assert_double_equal(t.threshold_cycles, 599, 1e-9);
    assert_true(t.usable);
    t = gs_evict_calibrate(hit, quiet, full, R, N, 0, 700);
    assert_double_equal(t.kept_cycles, 279, 1e-9);
    assert_double_equal(gs_evict_threshold(276, 680, 517), 598.5, 1e-9);
    assert_double_equal(gs_evict_threshold(276, 680, NAN), 478, 1e-9);
    assert_double_equal(gs_evict_threshold(600, 680, 517), 640, 1e-9);
}

static void test_pick(void **state)
{
    (void)state;
    gs_evict_target t[N];
    for (size_t i = 0; i < N; i++)
        t[i] = gs_evict_calibrate(hit, quiet, full, R, N, i, NAN);
    /* the near line: the widest gap per noise (the far and copied ones' gaps are under half) */
    assert_int_equal(gs_evict_pick(t, N), 0);
    t[0].usable = t[1].usable = t[2].usable = false;
    assert_int_equal(gs_evict_pick(t, N), -1);
    assert_int_equal(gs_evict_pick(t, 0), -1);
}

static void test_majority(void **state)
{
    (void)state;
    double probe[3] = {690, 280, 700}, v;
    assert_true(gs_evict_majority(probe, 3, 478, 680, &v));
    assert_double_equal(v, (690 - 478) / 202.0, 1e-9);
    probe[0] = 280;                              /* one of three above: kept */
    assert_false(gs_evict_majority(probe, 3, 478, 680, &v));
    assert_true(v < -0.9);
    assert_false(gs_evict_majority(probe, 2, 478, 680, NULL));   /* one of two: no majority */
    assert_false(gs_evict_majority(probe, 3, 700, 680, &v));     /* no span to the miss */
    assert_true(isnan(v));
    assert_false(gs_evict_majority(probe, 0, 478, 680, &v));     /* nothing measured */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_calibrate_levels),
        cmocka_unit_test(test_far_level),
        cmocka_unit_test(test_pick),
        cmocka_unit_test(test_majority),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
