/* Unit tests of src/probes/issue_point.c (shared by the pipeline, roofline and divergence probes):
 * the ceiling is the best one-block point without error; multi-block points more than
 * GS_ISSUE_CEILING_TOLERANCE above it become measurement errors, one-block points and points
 * already in error are left alone; gs_issue_measure's throughput leaves out what every run spends
 * whatever its length (a fake backend whose runs carry a fixed overhead). Synthetic points and
 * runs whose answer is known. */
#include <math.h>
#include <string.h>

#include "gs_test.h"

#include "probes/issue_point.h"

static gs_issue_point point(double ipc, bool multi_block, bool error)
{
    gs_issue_point p;
    memset(&p, 0, sizeof p);
    p.ipc.median = ipc;
    p.multi_block = multi_block;
    p.measurement_error = error;
    return p;
}

static void test_ceiling_and_flags(void **state)
{
    (void)state;
    gs_issue_point pts[6] = {
        point(3.90, false, false), point(3.95, false, false), point(9.00, false, true),
        point(3.99, true, false),  /* within 2% of 3.95: kept */
        point(4.30, true, false),  /* the H100's old ILP 4 reading: flagged */
        point(4.40, true, true),   /* already an error: not counted again */
    };
    double ceiling = gs_issue_ceiling(pts, 6);
    assert_double_equal(ceiling, 3.95, 0);
    assert_int_equal(gs_issue_flag_over_ceiling(pts, 6, ceiling), 1);
    assert_false(pts[3].measurement_error);
    assert_true(pts[4].measurement_error);
    assert_false(pts[0].measurement_error);
    assert_false(pts[1].measurement_error);
}

static void test_no_ceiling(void **state)
{
    (void)state;
    gs_issue_point pts[2] = {point(4.3, true, false), point(3.0, false, true)};
    double ceiling = gs_issue_ceiling(pts, 2);   /* no sound one-block point */
    assert_double_equal(ceiling, 0, 0);
    assert_int_equal(gs_issue_flag_over_ceiling(pts, 2, ceiling), 0);
    assert_false(pts[0].measurement_error);
}

/* A fake issue operation on 4 SMs: each trip issues 256 warp instructions per SM in 260 cycles
 * (4 x 256 / 260 per cycle), and every run spends OVERHEAD cycles per SM besides; the run named
 * fail_at (counted from 1) reports a measurement error. */
#define OVERHEAD 580.0
static int runs, fail_at;

static int fake_issue(gs_backend *b, const gs_issue_plan *plan, gs_issue_result *out,
                      gs_error *err)
{
    (void)b;
    (void)err;
    memset(out, 0, sizeof *out);
    double per_sm = 65.0 * plan->iterations + OVERHEAD;   /* 260 / 4 cycles a trip */
    out->instructions = 4.0 * 256 * plan->iterations / 4;  /* 4 SMs, ILP-free count */
    out->cycles = per_sm;
    out->instr_per_cycle_per_sm = out->instructions / (4 * per_sm);
    out->measurement_error = ++runs == fail_at;
    return 0;
}

static void test_measure_leaves_out_fixed_cost(void **state)
{
    (void)state;
    static const gs_backend_ops ops = { .issue = fake_issue };
    gs_backend b = { .ops = &ops };
    gs_device_info info;
    memset(&info, 0, sizeof info);
    info.sm_count = 4;
    gs_probe_ctx ctx = { .backend = &b, .info = &info };
    gs_issue_plan plan;
    memset(&plan, 0, sizeof plan);
    plan.blocks = 4;
    gs_issue_point pt;
    gs_error err = { 0 };
    runs = 0;
    fail_at = 0;
    assert_int_equal(gs_issue_measure(&ctx, &plan, 5, 100000, &pt, &err), 0);
    /* one run of 100,000 cycles alone would read 256 x (iterations) / (65 x it + 580) = 3.91 */
    assert_double_equal(pt.ipc.median, 256.0 / 65 / 4, 1e-9);
    assert_int_equal(pt.ipc.n, 5);
    assert_int_equal(pt.error_reps, 0);
    assert_int_equal(runs, 1 + 1 + 5);                     /* calibration, short, 5 long */
    /* a failed repetition is dropped */
    runs = 0;
    fail_at = 3;
    assert_int_equal(gs_issue_measure(&ctx, &plan, 5, 100000, &pt, &err), 0);
    assert_int_equal(pt.ipc.n, 4);
    assert_int_equal(pt.error_reps, 1);
    assert_double_equal(pt.ipc.median, 256.0 / 65 / 4, 1e-9);
    /* a failed short run: each run's own throughput, the fixed cost in it */
    runs = 0;
    fail_at = 2;
    assert_int_equal(gs_issue_measure(&ctx, &plan, 5, 100000, &pt, &err), 0);
    assert_int_equal(pt.ipc.n, 5);
    assert_true(pt.ipc.median < 256.0 / 65 / 4 * 0.995);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ceiling_and_flags),
        cmocka_unit_test(test_no_ceiling),
        cmocka_unit_test(test_measure_leaves_out_fixed_cost),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
