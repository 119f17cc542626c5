/* Unit tests of src/analysis/stats.c: known answers, edge cases (empty, one sample, all equal,
 * NaN) and the outlier rule. */
#include <math.h>

#include "gs_test.h"

#include "analysis/stats.h"

static void test_known_answers(void **state)
{
    (void)state;
    const double x[] = {2, 4, 4, 4, 5, 5, 7, 9};
    gs_summary s = gs_summarize(x, 8);
    assert_int_equal(s.n, 8);
    assert_double_equal(s.mean, 5.0, 1e-12);
    assert_double_equal(s.median, 4.5, 1e-12);
    assert_double_equal(s.stddev, sqrt(32.0 / 7.0), 1e-12);
    assert_double_equal(s.ci95, 2.365 * sqrt(32.0 / 7.0) / sqrt(8.0), 1e-12);   /* t(7) */
    assert_double_equal(gs_ci95(x, 8), s.ci95, 1e-12);
    assert_double_equal(s.min, 2, 0);
    assert_double_equal(s.max, 9, 0);
    const double odd[] = {3, 1, 2};
    assert_double_equal(gs_median(odd, 3), 2, 0);
}

/* Student's t: the table's ends, the expansion beyond it (t(0.975, 31) = 2.0395, t(0.975, 120)
 * = 1.9799, to four places), falling toward 1.96 without a jump at 30. */
/* gs_rms_ci95: the sd of 10 normal samples (9 degrees of freedom) lies within its interval of
 * the true sigma in about 95 % of 2000 draws (the large-sample form is allowed a little less);
 * and the form itself. */
static void test_rms_ci95(void **state)
{
    (void)state;
    assert_true(isnan(gs_rms_ci95(1, 0)));
    assert_double_equal(gs_rms_ci95(2, 8), 2 * 1.96 / 4, 1e-12);
    uint64_t z = 12345;
    unsigned held = 0;
    for (int draw = 0; draw < 2000; draw++) {
        double x[10];
        for (int i = 0; i < 10; i++) {      /* Box-Muller over a 64-bit LCG */
            z = z * 6364136223846793005ull + 1442695040888963407ull;
            double u1 = ((double)(z >> 11) + 1) / 9007199254740993.0;
            z = z * 6364136223846793005ull + 1442695040888963407ull;
            double u2 = (double)(z >> 11) / 9007199254740992.0;
            x[i] = 3.0 * sqrt(-2 * log(u1)) * cos(2 * M_PI * u2);
        }
        double sd = gs_stddev(x, 10);
        held += fabs(sd - 3.0) <= gs_rms_ci95(sd, 9);
    }
    assert_true(held >= 0.88 * 2000 && held <= 0.99 * 2000);
}

/* gs_median_order_ci95: tight on one mode, as wide as the gap where the median falls between
 * two modes; gs_cyclic_median_ci95: 0 where every element reads alike however noisy the
 * repetitions' order, the elements' spread otherwise. */
static void test_median_intervals(void **state)
{
    (void)state;
    double x[256];
    for (int i = 0; i < 256; i++)
        x[i] = 280 + (i % 3);                          /* one mode: 280, 281, 282 */
    assert_true(gs_median_order_ci95(x, 256) <= 1.0);
    for (int i = 0; i < 256; i++)
        x[i] = i % 2 ? 300 : 270;                      /* two modes, the median between */
    assert_double_equal(gs_median_order_ci95(x, 256), 15.0, 1e-12);
    assert_double_equal(gs_median_order_ci95(x, 7), 0.0, 0);
    for (int i = 0; i < 256; i++)                      /* 16 elements alike */
        x[i] = 32 + (i / 16) % 2;
    assert_double_equal(gs_cyclic_median_ci95(x, 256, 16), 0.0, 1e-12);
    for (int i = 0; i < 256; i++)                      /* element e reads 270 + 2 e */
        x[i] = 270 + 2 * (i % 16);
    double ci = gs_cyclic_median_ci95(x, 256, 16);
    assert_true(ci > 4 && ci < 6);                     /* 2.131 x 9.52 / 4 = 5.07 */
    assert_double_equal(gs_cyclic_median_ci95(x, 20, 16), 0.0, 0);   /* not visited twice */
}

static void test_t95(void **state)
{
    (void)state;
    assert_true(isnan(gs_t95(0)));
    assert_double_equal(gs_t95(1), 12.706, 1e-9);
    assert_double_equal(gs_t95(4), 2.776, 1e-9);
    assert_double_equal(gs_t95(30), 2.042, 1e-9);
    assert_double_equal(gs_t95(31), 2.0395, 2e-4);
    assert_double_equal(gs_t95(120), 1.9799, 2e-4);
    assert_true(gs_t95(100000) > 1.95996 && gs_t95(100000) < 1.9600);
    for (size_t d = 1; d < 400; d++)
        assert_true(gs_t95(d + 1) < gs_t95(d));
}

static void test_edge_cases(void **state)
{
    (void)state;
    gs_summary e = gs_summarize(NULL, 0);
    assert_int_equal(e.n, 0);
    assert_true(isnan(e.median) && isnan(e.mean));
    const double one[] = {7};
    gs_summary o = gs_summarize(one, 1);
    assert_double_equal(o.median, 7, 0);
    assert_double_equal(o.stddev, 0, 0);
    assert_double_equal(o.ci95, 0, 0);
    const double same[] = {3, 3, 3, 3};
    gs_summary s = gs_summarize(same, 4);
    assert_double_equal(s.stddev, 0, 0);
    assert_double_equal(s.ci95, 0, 0);
    const double withnan[] = {1, NAN, 3, INFINITY};
    gs_summary w = gs_summarize(withnan, 4);
    assert_int_equal(w.n, 2);
    assert_double_equal(w.mean, 2, 1e-12);
    const double allnan[] = {NAN, NAN};
    assert_true(isnan(gs_median(allnan, 2)));
    assert_true(isnan(gs_median_u32(NULL, 0)));
    const uint32_t lat[] = {10, 500, 12, 11};
    assert_double_equal(gs_median_u32(lat, 4), 11.5, 0);
}

static void test_robust_drops_outliers(void **state)
{
    (void)state;
    double x[101];
    for (int i = 0; i < 100; i++)
        x[i] = 100 + (i % 5);     /* 100..104 */
    x[100] = 5000;                /* one spike */
    gs_summary r = gs_summarize_robust(x, 101, 5);
    assert_int_equal(r.outliers, 1);
    assert_int_equal(r.n, 100);
    assert_double_equal(r.max, 104, 0);
    gs_summary plain = gs_summarize(x, 101);
    assert_true(plain.max == 5000);
    /* MAD of zero: more than half equal; only far samples are dropped. */
    const double flat[] = {50, 50, 50, 50, 50, 51, 90};
    gs_summary f = gs_summarize_robust(flat, 7, 5);
    assert_int_equal(f.outliers, 1);
    assert_double_equal(f.max, 51, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_known_answers),
        cmocka_unit_test(test_t95),
        cmocka_unit_test(test_rms_ci95),
        cmocka_unit_test(test_median_intervals),
        cmocka_unit_test(test_edge_cases),
        cmocka_unit_test(test_robust_drops_outliers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
