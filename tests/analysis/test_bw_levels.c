/* Unit tests of src/analysis/bw_levels.c: levels of synthetic bandwidth sweeps whose answer is
 * known (L1, L2 and DRAM plateaus; a store's plateau spanning the L1 and L2 ranges; a sweep with
 * no DRAM points; ties). */
#include "gs_test.h"

#include "analysis/bw_levels.h"

#define KB 1024.0
#define MB (1024.0 * 1024.0)

/* GB/s of a read over footprints: L1 ~30000 to 128 KB, L2 ~10000 with a dip, DRAM ~2500. */
static const double read_x[] = {16 * KB, 32 * KB, 64 * KB, 128 * KB, 256 * KB, 1 * MB, 4 * MB,
                                16 * MB, 32 * MB, 64 * MB, 128 * MB, 256 * MB, 512 * MB, 1024 * MB};
static const double read_y[] = {30000, 30500, 29800, 30100, 10200, 10500, 10300, 8300, 8200,
                                4000, 2510, 2500, 2505, 2507};
#define READ_N (sizeof read_x / sizeof read_x[0])

static void test_read_levels(void **state)
{
    (void)state;
    gs_plateau p[8];
    int pick[GS_BW_LEVELS];
    int n = gs_plateaus_find(read_x, read_y, READ_N, 0.1, p, 8);
    assert_true(n >= 3);
    gs_bw_levels_pick(p, n, read_x, 200 * KB, 50 * MB, 2, pick);
    assert_true(pick[GS_BW_L1] >= 0 && pick[GS_BW_L2] >= 0 && pick[GS_BW_DRAM] >= 0);
    assert_double_equal(p[pick[GS_BW_L1]].latency, 30000, 600);
    assert_double_equal(p[pick[GS_BW_L2]].latency, 10300, 300);   /* 3 points beat 2 */
    assert_double_equal(p[pick[GS_BW_DRAM]].latency, 2505, 10);
    assert_string_equal(gs_bw_level_name(GS_BW_L2), "l2");
    assert_string_equal(gs_bw_level_name(7), "unknown");
}

/* A write: the L1 writes through, so one plateau covers the L1 and L2 ranges; no DRAM points. */
static void test_store_spans_two_levels(void **state)
{
    (void)state;
    static const double y[] = {9000, 9100, 8950, 9050, 9000, 9020, 8990, 9010};
    gs_plateau p[4];
    int pick[GS_BW_LEVELS];
    int n = gs_plateaus_find(read_x, y, 8, 0.1, p, 4);
    assert_int_equal(n, 1);
    gs_bw_levels_pick(p, n, read_x, 200 * KB, 50 * MB, 2, pick);
    assert_int_equal(pick[GS_BW_L1], 0);
    assert_int_equal(pick[GS_BW_L2], 0);
    assert_int_equal(pick[GS_BW_DRAM], -1);
}

/* Too few points in a range: not picked; no L1 size: everything up to the L2 is L2. */
static void test_min_points_and_no_l1(void **state)
{
    (void)state;
    gs_plateau p[8];
    int pick[GS_BW_LEVELS];
    int n = gs_plateaus_find(read_x, read_y, READ_N, 0.1, p, 8);
    gs_bw_levels_pick(p, n, read_x, 200 * KB, 50 * MB, 4, pick);
    assert_int_equal(pick[GS_BW_DRAM], -1);               /* 3 DRAM points (256 MB on) < 4 */
    assert_true(pick[GS_BW_L1] >= 0);
    assert_int_equal(gs_bw_level_of(16 * KB, 0, 50 * MB), GS_BW_L2);
    assert_int_equal(gs_bw_level_of(64 * MB, 0, 50 * MB), GS_BW_NONE);   /* L2 < F < 5 x L2 */
    assert_int_equal(gs_bw_level_of(101 * MB, 0, 50 * MB), GS_BW_NONE);
    assert_int_equal(gs_bw_level_of(215 * MB, 0, 50 * MB), GS_BW_NONE);  /* 4.3 x: a triad's tail */
    assert_int_equal(gs_bw_level_of(249 * MB, 0, 50 * MB), GS_BW_NONE);
    assert_int_equal(gs_bw_level_of(250 * MB, 0, 50 * MB), GS_BW_DRAM);
    assert_int_equal(gs_bw_level_of(50 * MB, 200 * KB, 50 * MB), GS_BW_L2);
    gs_bw_levels_pick(p, 0, read_x, 200 * KB, 50 * MB, 1, pick);
    assert_int_equal(pick[GS_BW_L1], -1);
}

/* A plateau reaching from the L2 range into DRAM's: each level's points are its own, and the
 * footprints between the L2 size and 5 x it are neither's. */
static void test_level_points(void **state)
{
    (void)state;
    static const double x[] = {16 * MB, 32 * MB, 64 * MB, 128 * MB, 250 * MB, 256 * MB};
    gs_plateau q = {.first = 0, .count = 6, .latency = 3000};
    size_t idx[6];
    assert_int_equal(gs_bw_level_points(&q, x, GS_BW_L2, 0, 50 * MB, idx), 2);
    assert_int_equal(idx[0], 0);
    assert_int_equal(idx[1], 1);
    assert_int_equal(gs_bw_level_points(&q, x, GS_BW_DRAM, 0, 50 * MB, idx), 2);
    assert_int_equal(idx[0], 4);
    assert_int_equal(idx[1], 5);
    assert_int_equal(gs_bw_level_points(&q, x, GS_BW_L1, 0, 50 * MB, NULL), 0);
}

/* Two plateaus with equally many points in a range: the faster one. */
static void test_tie_takes_faster(void **state)
{
    (void)state;
    static const double x[] = {1 * MB, 2 * MB, 4 * MB, 8 * MB};
    static const double y[] = {10000, 10100, 7000, 7050};
    gs_plateau p[4];
    int pick[GS_BW_LEVELS];
    int n = gs_plateaus_find(x, y, 4, 0.1, p, 4);
    assert_int_equal(n, 2);
    gs_bw_levels_pick(p, n, x, 200 * KB, 50 * MB, 2, pick);
    assert_int_equal(pick[GS_BW_L2], 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_read_levels),
        cmocka_unit_test(test_store_spans_two_levels),
        cmocka_unit_test(test_min_points_and_no_l1),
        cmocka_unit_test(test_tie_takes_faster),
        cmocka_unit_test(test_level_points),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
