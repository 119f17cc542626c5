/* Tests of the request-granularity inference (src/analysis/granularity.c) on synthetic
 * cost-vs-lane-stride curves with known sector and line sizes and costs. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "analysis/granularity.h"
#include "util/rng.h"

#define NPTS 12

static size_t curve(uint64_t *ls, double *y, uint64_t sector, uint64_t line, double bs,
                    double bl, double jitter, gs_rng *rng)
{
    size_t n = 0;
    for (uint64_t s = 4; s <= 4096; s *= 2)
        ls[n++] = s;
    ls[n++] = 409600 + 128;                  /* scattered */
    for (size_t k = 0; k < n; k++)
        y[k] = 100 + bs * (gs_request_units(32, ls[k], 4, sector) - 1.0) +
               bl * (gs_request_units(32, ls[k], 4, line) - 1.0) +
               (rng ? (gs_rng_unit(rng) * 2 - 1) * jitter : 0);
    return n;
}

static void units_count_sectors_and_lines(void **state)
{
    (void)state;
    assert_int_equal(gs_request_units(32, 4, 4, 32), 4);     /* coalesced: 128 B */
    assert_int_equal(gs_request_units(32, 4, 4, 128), 1);
    assert_int_equal(gs_request_units(32, 32, 4, 32), 32);
    assert_int_equal(gs_request_units(32, 32, 4, 128), 8);
    assert_int_equal(gs_request_units(32, 128, 4, 128), 32);
    assert_int_equal(gs_request_units(32, 8, 8, 32), 8);
    assert_int_equal(gs_request_units(1, 4, 4, 32), 1);
    assert_int_equal(gs_request_units(0, 4, 4, 32), 0);
}

static void infers_sectors_and_lines(void **state)
{
    (void)state;
    static const uint64_t truth[][2] = { { 32, 128 }, { 32, 64 }, { 16, 256 } };
    uint64_t ls[NPTS];
    double y[NPTS];
    for (size_t t = 0; t < 3; t++) {
        size_t n = curve(ls, y, truth[t][0], truth[t][1], 2, 4, 0, NULL);
        gs_granularity_fit f;
        assert_int_equal(gs_granularity_infer(ls, y, NULL, n, 32, 4, 0.02, 0.05, &f), 0);
        assert_true(f.sector_determined);
        assert_true(f.line_determined);
        assert_int_equal(f.sector_bytes, truth[t][0]);
        assert_int_equal(f.line_bytes, truth[t][1]);
        assert_float_equal(f.sector_cost, 2, 1e-6);
        assert_float_equal(f.line_cost, 4, 1e-6);
        assert_float_equal(f.base, 100, 1e-6);
    }
}

static void noisy_curve_keeps_sizes(void **state)
{
    (void)state;
    gs_rng rng;
    gs_rng_seed(&rng, 11);
    uint64_t ls[NPTS];
    double y[NPTS];
    size_t n = curve(ls, y, 32, 128, 3, 6, 1.0, &rng);
    y[3] = NAN;                                              /* a lost point */
    gs_granularity_fit f;
    assert_int_equal(gs_granularity_infer(ls, y, NULL, n, 32, 4, 0.02, 0.05, &f), 0);
    assert_int_equal(f.points, n - 1);
    assert_true(f.line_determined);
    assert_int_equal(f.line_bytes, 128);
    assert_true(fabs(f.line_cost - 6) <= f.line_ci95 + 0.5);
}

static void one_unit_only(void **state)
{
    (void)state;
    uint64_t ls[NPTS];
    double y[NPTS];
    size_t n = curve(ls, y, 128, 128, 0, 8, 0, NULL);        /* Fermi-like: 128-B transactions */
    gs_granularity_fit f;
    assert_int_equal(gs_granularity_infer(ls, y, NULL, n, 32, 4, 0.02, 0.05, &f), 0);
    assert_true(f.line_determined);
    assert_int_equal(f.line_bytes, 128);
    assert_true(f.sector_determined);
    assert_int_equal(f.sector_bytes, 128);                  /* one unit: sector = line */
    assert_float_equal(f.line_cost, 8, 1e-6);
    n = curve(ls, y, 32, 128, 5, 0, 0, NULL);                /* sectors only */
    assert_int_equal(gs_granularity_infer(ls, y, NULL, n, 32, 4, 0.02, 0.05, &f), 0);
    assert_true(f.sector_determined && f.line_determined);
    assert_int_equal(f.sector_bytes, 32);
    assert_int_equal(f.line_bytes, 32);
    n = curve(ls, y, 32, 128, 0, 0, 0, NULL);                /* flat: nothing to see */
    assert_int_equal(gs_granularity_infer(ls, y, NULL, n, 32, 4, 0.02, 0.05, &f), 0);
    assert_false(f.sector_determined);
    assert_false(f.line_determined);
    assert_non_null(strstr(f.sector_reason, "flat"));
    assert_int_equal(gs_granularity_infer(ls, y, NULL, 3, 32, 4, 0.02, 0.05, &f), 0);   /* too few */
    assert_false(f.line_determined);
    assert_non_null(strstr(f.line_reason, "too few"));
}

static void tiny_spurious_costs_do_not_count(void **state)
{
    (void)state;
    gs_rng rng;
    gs_rng_seed(&rng, 3);
    uint64_t ls[NPTS];
    double y[NPTS];
    for (int seed = 0; seed < 20; seed++) {      /* per-line cost only, noisy plateau */
        size_t n = curve(ls, y, 32, 128, 0, 2.25, 3.0, &rng);
        gs_granularity_fit f;
        assert_int_equal(gs_granularity_infer(ls, y, NULL, n, 32, 4, 0.02, 0.05, &f), 0);
        assert_true(f.line_determined);
        assert_int_equal(f.line_bytes, 128);
        assert_int_equal(f.sector_bytes, 128);
    }
}

static void noise_makes_close_sizes_tie(void **state)
{
    (void)state;
    uint64_t ls[NPTS];
    double y[NPTS], ci[NPTS];
    size_t n = curve(ls, y, 16, 128, 0.4, 2, 0, NULL);        /* a faint 16-B sector cost */
    gs_granularity_fit f;
    assert_int_equal(gs_granularity_infer(ls, y, NULL, n, 32, 4, 0.02, 0.05, &f), 0);
    assert_true(f.sector_determined);                        /* exact: it shows */
    assert_int_equal(f.sector_bytes, 16);
    for (size_t k = 0; k < n; k++)
        ci[k] = 6.0;                                         /* points known to +-6 cycles */
    assert_int_equal(gs_granularity_infer(ls, y, ci, n, 32, 4, 0.02, 0.05, &f), 0);
    assert_false(f.sector_determined);
    assert_non_null(strstr(f.sector_reason, "equally well"));
    assert_true(f.line_determined);
    assert_int_equal(f.line_bytes, 128);
}

static void poor_fit_is_not_determined(void **state)
{
    (void)state;
    uint64_t ls[NPTS];
    double y[NPTS];
    size_t n = curve(ls, y, 32, 128, 2, 4, 0, NULL);
    y[5] += 60;                                              /* a bump no hypothesis explains */
    gs_granularity_fit f;
    assert_int_equal(gs_granularity_infer(ls, y, NULL, n, 32, 4, 0.02, 0.05, &f), 0);
    assert_false(f.sector_determined);
    assert_false(f.line_determined);
    assert_non_null(strstr(f.line_reason, "does not follow"));
}

static void trimmed_mean_drops_tails(void **state)
{
    (void)state;
    double x[10] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 1000 };
    assert_float_equal(gs_trimmed_mean(x, 10, 0.1), 5.5, 1e-12);
    assert_float_equal(gs_trimmed_mean(x, 10, 0), 104.5, 1e-12);
    double two[4] = { 200, 290, 200, 290 };
    assert_float_equal(gs_trimmed_mean(two, 4, 0.1), 245, 1e-12);
    double none[2] = { NAN, NAN };
    assert_true(isnan(gs_trimmed_mean(none, 2, 0.1)));
    assert_true(isnan(gs_trimmed_mean(x, 0, 0.1)));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(units_count_sectors_and_lines),
        cmocka_unit_test(infers_sectors_and_lines),
        cmocka_unit_test(noisy_curve_keeps_sizes),
        cmocka_unit_test(one_unit_only),
        cmocka_unit_test(tiny_spurious_costs_do_not_count),
        cmocka_unit_test(noise_makes_close_sizes_tie),
        cmocka_unit_test(poor_fit_is_not_determined),
        cmocka_unit_test(trimmed_mean_drops_tails),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
