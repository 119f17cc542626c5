/* Tests of the energy-counter analysis (src/analysis/energy.c): powers between counter changes
 * on synthetic traces of a counter that updates in steps, read more often than it updates, with
 * a known power; the read gap; pJ per operation; and the edge cases. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>

#include "analysis/energy.h"

#define READS 600

/* A counter of a device drawing watts, updated every 0.1 s from phase, read every 4 ms: the
 * reads' values are the energy at the last update, in mJ, from 1e6 mJ. */
static size_t trace(double watts, double phase, double *t, double *mj)
{
    for (size_t i = 0; i < READS; i++) {
        t[i] = i * 0.004;
        double last = t[i] < phase ? -1 : phase + floor((t[i] - phase) / 0.1) * 0.1;
        mj[i] = 1e6 + (last < 0 ? 0 : watts * last * 1e3);
    }
    return READS;
}

static void power_between_changes_is_exact(void **state)
{
    (void)state;
    double t[READS], mj[READS], w[3], span[3];
    for (double phase = 0.001; phase < 0.1; phase += 0.013) {
        size_t n = trace(250, phase, t, mj);
        assert_int_equal(gs_energy_powers(t, mj, n, 0.2, 2.2, 3, w, span), 3);
        for (int i = 0; i < 3; i++) {
            /* a change is seen up to one read (4 ms) late at each end of a span */
            assert_true(fabs(w[i] - 250) <= 250 * 2 * 0.004 / span[i] + 1e-9);
            assert_true(span[i] > 0.5);
        }
    }
}

static void arbitrary_reads_would_miss_a_step(void **state)
{
    (void)state;
    double t[READS], mj[READS];
    trace(250, 0.05, t, mj);
    /* reads at 0.2 and 0.44 s, not at changes: (mj[110] - mj[50]) / 0.24 s is 25 J short */
    double naive = (mj[110] - mj[50]) / 1e3 / (t[110] - t[50]);
    assert_true(fabs(naive - 250) > 20);
}

static void too_few_changes(void **state)
{
    (void)state;
    double t[READS], mj[READS], w[3], span[3];
    size_t n = trace(250, 0.05, t, mj);
    assert_int_equal(gs_energy_powers(t, mj, n, 0.2, 0.45, 3, w, span), 0);   /* 3 changes */
    assert_int_equal(gs_energy_powers(t, mj, n, 0.2, 0.56, 3, w, span), 3);   /* 4 changes */
    assert_int_equal(gs_energy_powers(t, mj, 0, 0, 1, 3, w, span), 0);
    assert_int_equal(gs_energy_powers(t, mj, n, 0, 1, 0, w, span), 0);
    double flat[4] = {5, 5, 5, 5}, ft[4] = {0, 1, 2, 3};
    assert_int_equal(gs_energy_powers(ft, flat, 4, 0, 3, 1, w, span), 0);
}

static void read_gap_and_pj(void **state)
{
    (void)state;
    double t[READS], mj[READS];
    trace(100, 0.01, t, mj);
    assert_float_equal(gs_energy_read_gap_s(t, READS), 0.004, 1e-12);
    assert_true(isnan(gs_energy_read_gap_s(t, 1)));
    /* 300 W busy, 80 W idle, 1e14 operations per second: 2.2 pJ */
    assert_float_equal(gs_energy_pj(300, 80, 1e14), 2.2, 1e-12);
    assert_true(isnan(gs_energy_pj(300, 80, 0)));
    assert_true(isnan(gs_energy_pj(NAN, 80, 1e14)));
    assert_true(isnan(gs_energy_pj(300, NAN, 1e14)));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(power_between_changes_is_exact),
        cmocka_unit_test(arbitrary_reads_would_miss_a_step),
        cmocka_unit_test(too_few_changes),
        cmocka_unit_test(read_gap_and_pj),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
