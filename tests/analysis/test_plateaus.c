/* Unit tests of src/analysis/plateaus.c: plateaus of synthetic size sweeps whose levels are known,
 * transitions between them, level names, and bad input. */
#include <math.h>

#include "gs_test.h"

#include "analysis/plateaus.h"

#define KB 1024.0
#define MB (1024.0 * 1024.0)

/* A sweep shaped like a GPU with a 128 KB L1, a two-partition 50 MB L2 and DRAM: L1 32 cycles,
 * a transition at 192 KB, near L2 ~280 drifting up, a transition at 24 MB, far L2 ~520, DRAM. */
static const double sweep_x[] = {2 * KB, 8 * KB, 32 * KB, 128 * KB, 192 * KB, 256 * KB, 1 * MB,
                                 4 * MB, 16 * MB, 24 * MB, 32 * MB, 40 * MB, 48 * MB, 64 * MB,
                                 128 * MB, 256 * MB};
static const double sweep_y[] = {32, 32, 32.5, 32, 89, 255, 280, 283, 283, 317, 509, 527, 540,
                                 683, 684, 683};
#define SWEEP_N (sizeof sweep_x / sizeof sweep_x[0])

static void test_levels_of_a_global_path(void **state)
{
    (void)state;
    gs_plateau p[8];
    const char *names[8];
    int n = gs_plateaus_find(sweep_x, sweep_y, SWEEP_N, 0.1, p, 8);
    assert_int_equal(n, 4);
    assert_double_equal(p[0].latency, 32, 0.5);
    assert_true(p[0].last_x == 128 * KB);
    assert_true(p[1].latency > 270 && p[1].latency < 285);
    assert_true(p[1].first_x == 256 * KB && p[1].last_x == 16 * MB);
    assert_true(p[2].latency > 505 && p[2].latency < 545);
    assert_int_equal(p[2].count, 3);
    assert_double_equal(p[3].latency, 683, 1);
    gs_plateaus_name(p, n, 0, 256 * KB, 50 * MB, names);
    assert_string_equal(names[0], "l1");
    assert_string_equal(names[1], "l2");
    assert_string_equal(names[2], "l2-far");
    assert_string_equal(names[3], "dram");
}

/* A path that bypasses L1 (cg): its first plateau runs past the L1 size, so it is L2. */
static void test_bypass_path_starts_at_l2(void **state)
{
    (void)state;
    const double x[] = {2 * KB, 64 * KB, 1 * MB, 16 * MB, 32 * MB, 48 * MB, 64 * MB, 256 * MB};
    const double y[] = {291, 288, 284, 283, 508, 544, 684, 683};
    gs_plateau p[8];
    const char *names[8];
    int n = gs_plateaus_find(x, y, 8, 0.1, p, 8);
    assert_int_equal(n, 3);
    gs_plateaus_name(p, n, 0, 256 * KB, 50 * MB, names);
    assert_string_equal(names[0], "l2");
    assert_string_equal(names[1], "l2-far");
    assert_string_equal(names[2], "dram");
}

/* A first plateau only a little faster than the next (a near/far split at small footprints) is
 * not an L1. */
static void test_near_far_is_not_l1(void **state)
{
    (void)state;
    const double x[] = {2 * KB, 4 * KB, 8 * KB, 1 * MB, 16 * MB, 64 * MB, 128 * MB};
    const double y[] = {201, 201, 246, 246, 247, 542, 542};
    gs_plateau p[8];
    const char *names[8];
    int n = gs_plateaus_find(x, y, 7, 0.1, p, 8);
    assert_int_equal(n, 3);
    gs_plateaus_name(p, n, 0, 256 * KB, 50 * MB, names);
    assert_string_equal(names[0], "l2");
    assert_string_equal(names[1], "l2-far");
    assert_string_equal(names[2], "dram");
}

/* Kepler's texture L1 at half the L2 latency is still an L1. */
static void test_slow_l1_is_l1(void **state)
{
    (void)state;
    const double x[] = {2 * KB, 16 * KB, 32 * KB, 64 * KB, 1 * MB, 2 * MB, 4 * MB};
    const double y[] = {111, 111, 111, 221, 221, 362, 363};
    gs_plateau p[8];
    const char *names[8];
    int n = gs_plateaus_find(x, y, 7, 0.1, p, 8);
    assert_int_equal(n, 3);
    gs_plateaus_name(p, n, 0, 48 * KB, 1.5 * MB, names);
    assert_string_equal(names[0], "l1");
    assert_string_equal(names[1], "l2");
    assert_string_equal(names[2], "dram");
}

static void test_constant_path(void **state)
{
    (void)state;
    const double x[] = {512, 1 * KB, 2 * KB, 4 * KB, 16 * KB, 64 * KB};
    const double y[] = {28.7, 28.7, 28.9, 98.7, 98.7, 98.6};
    gs_plateau p[4];
    const char *names[4];
    int n = gs_plateaus_find(x, y, 6, 0.1, p, 4);
    assert_int_equal(n, 2);
    assert_true(p[0].last_x == 2 * KB);
    gs_plateaus_name(p, n, 1, 256 * KB, 50 * MB, names);
    assert_string_equal(names[0], "const-l1");
    assert_string_equal(names[1], "const-l1.5");
}

/* A single last point beyond the L2 still names DRAM; a lone first point is kept. */
static void test_edges(void **state)
{
    (void)state;
    const double x[] = {1, 2, 3};
    const double y[] = {10, 10, 10};
    gs_plateau p[4];
    assert_int_equal(gs_plateaus_find(x, y, 3, 0.1, p, 4), 1);
    assert_int_equal(p[0].count, 3);
    assert_double_equal(p[0].spread, 0, 1e-12);
    assert_int_equal(gs_plateaus_find(x, y, 1, 0.1, p, 4), 1);
    const double y2[] = {10, 100, 100};
    assert_int_equal(gs_plateaus_find(x, y2, 3, 0.1, p, 4), 2);
    assert_int_equal(p[0].count, 1);
    /* max limits the output */
    const double y3[] = {10, 100, 1000};
    assert_int_equal(gs_plateaus_find(x, y3, 3, 0.1, p, 2), 2);
}

static void test_bad_input(void **state)
{
    (void)state;
    const double x[] = {1, 2, 2};
    const double y[] = {1, NAN, 3};
    const double ok[] = {1, 2, 3};
    gs_plateau p[4];
    assert_int_equal(gs_plateaus_find(ok, ok, 0, 0.1, p, 4), -1);
    assert_int_equal(gs_plateaus_find(ok, y, 3, 0.1, p, 4), -1);
    assert_int_equal(gs_plateaus_find(x, ok, 3, 0.1, p, 4), -1);
    assert_int_equal(gs_plateaus_find(ok, ok, 3, 0, p, 4), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_levels_of_a_global_path),
        cmocka_unit_test(test_bypass_path_starts_at_l2),
        cmocka_unit_test(test_near_far_is_not_l1),
        cmocka_unit_test(test_slow_l1_is_l1),
        cmocka_unit_test(test_constant_path),
        cmocka_unit_test(test_edges),
        cmocka_unit_test(test_bad_input),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
