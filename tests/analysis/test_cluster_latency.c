/* Unit tests of the distributed shared-memory latency summary (src/analysis/cluster_latency.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <math.h>

#include "analysis/cluster_latency.h"

static void test_uniform_remote_ranks(void **state)
{
    (void)state;
    double by_rank[4] = {30, 200, 201, 199};
    gs_cluster_latency s;
    assert_int_equal(gs_cluster_latency_summarize(by_rank, 4, 29, 4, &s), 0);
    assert_int_equal(s.remote_ranks, 3);
    assert_true(s.remote_median == 200);
    assert_true(s.remote_min == 199 && s.remote_max == 201);
    assert_true(fabs(s.remote_over_local - 200.0 / 29) < 1e-12);
    assert_false(s.distance_matters);
}

static void test_rank_zero_is_not_remote(void **state)
{
    (void)state;
    /* a huge own-rank value must not move the remote figures */
    double by_rank[3] = {1e6, 180, 220};
    gs_cluster_latency s;
    assert_int_equal(gs_cluster_latency_summarize(by_rank, 3, 30, 10, &s), 0);
    assert_true(s.remote_median == 200);
    assert_true(s.remote_spread == 40);
    assert_true(s.distance_matters);
}

static void test_nan_skipped_and_no_local(void **state)
{
    (void)state;
    double by_rank[4] = {30, NAN, 210, NAN};
    gs_cluster_latency s;
    assert_int_equal(gs_cluster_latency_summarize(by_rank, 4, NAN, 4, &s), 0);
    assert_int_equal(s.remote_ranks, 1);
    assert_true(s.remote_median == 210 && s.remote_spread == 0);
    assert_true(isnan(s.remote_over_local));
}

static void test_no_remote_rank(void **state)
{
    (void)state;
    double one[1] = {30}, nans[3] = {30, NAN, NAN};
    gs_cluster_latency s;
    assert_int_equal(gs_cluster_latency_summarize(one, 1, 30, 4, &s), -1);
    assert_true(isnan(s.remote_median));
    assert_int_equal(gs_cluster_latency_summarize(nans, 3, 30, 4, &s), -1);
    assert_int_equal(gs_cluster_latency_summarize(NULL, 0, 30, 4, &s), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_uniform_remote_ranks),
        cmocka_unit_test(test_rank_zero_is_not_remote),
        cmocka_unit_test(test_nan_skipped_and_no_local),
        cmocka_unit_test(test_no_remote_rank),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
