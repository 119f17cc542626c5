/* Unit tests of src/analysis/pipeline_model.c: Eq. 4 and 5 and the ridge point on synthetic
 * curves whose answer is known, the model's throughput at known points, the CPI equations with
 * runs (section V.B of the roofline paper) and edge cases (empty, one point, NaN). */
#include <math.h>

#include "gs_test.h"

#include "analysis/pipeline_model.h"

/* A textbook curve: ipc = min(w / Lambda, 1 / lambda) with Lambda = 8, lambda = 0.5. */
static void test_fit_min_curve(void **state)
{
    (void)state;
    double w[32], ipc[32];
    for (int i = 0; i < 32; i++) {
        w[i] = i + 1;
        ipc[i] = fmin(w[i] / 8.0, 2.0);
    }
    gs_pipe_curve_fit f;
    assert_int_equal(gs_pipe_fit_curve(w, ipc, 32, GS_PIPE_RIDGE_TOLERANCE, &f), 0);
    assert_double_equal(f.lambda_issue_cycles, 0.5, 1e-12);
    assert_double_equal(f.Lambda_completion_cycles, 8.0, 1e-12);
    assert_double_equal(f.peak_ipc, 2.0, 1e-12);
    assert_double_equal(f.knee_warps, 16.0, 1e-12);
    assert_double_equal(f.ridge_warps, 16.0, 0);  /* 15/8 = 1.875 < 0.95 * 2 = 1.9 */
    assert_int_equal(f.min_index, 0);
}

/* Order does not matter, bad points are skipped, a point within 5% counts as the ridge. */
static void test_fit_unsorted_and_bad_points(void **state)
{
    (void)state;
    double w[] = {32, 4, NAN, 1, 8, 16, 12, -1};
    double ipc[] = {4.0, 1.0, 9.0, 0.25, 2.0, 4.0, 3.81, 7.0};
    gs_pipe_curve_fit f;
    assert_int_equal(gs_pipe_fit_curve(w, ipc, 8, GS_PIPE_RIDGE_TOLERANCE, &f), 0);
    assert_double_equal(f.peak_ipc, 4.0, 0);
    assert_double_equal(f.Lambda_completion_cycles, 4.0, 1e-12);
    assert_double_equal(f.ridge_warps, 12, 0);
    assert_int_equal(f.peak_index, 0);
}

/* A point exactly on the 5% line (19 / 5 vs 0.95 x 4) is outside; 0.2% above it is inside. */
static void test_fit_ridge_tie(void **state)
{
    (void)state;
    double w[] = {18, 19, 20}, on[] = {3.6, 3.8, 4.0}, above[] = {3.6, 3.808, 4.0};
    gs_pipe_curve_fit f;
    assert_int_equal(gs_pipe_fit_curve(w, on, 3, GS_PIPE_RIDGE_TOLERANCE, &f), 0);
    assert_double_equal(f.ridge_warps, 20, 0);
    assert_int_equal(gs_pipe_fit_curve(w, above, 3, GS_PIPE_RIDGE_TOLERANCE, &f), 0);
    assert_double_equal(f.ridge_warps, 19, 0);
}

static void test_fit_edge_cases(void **state)
{
    (void)state;
    gs_pipe_curve_fit f;
    assert_int_equal(gs_pipe_fit_curve(NULL, NULL, 0, 0.05, &f), -1);
    double w1[] = {NAN}, y1[] = {1};
    assert_int_equal(gs_pipe_fit_curve(w1, y1, 1, 0.05, &f), -1);
    double w2[] = {3}, y2[] = {0.5};
    assert_int_equal(gs_pipe_fit_curve(w2, y2, 1, 0.05, &f), 0);
    assert_double_equal(f.lambda_issue_cycles, 2, 0);
    assert_double_equal(f.Lambda_completion_cycles, 2, 0);
    assert_double_equal(f.ridge_warps, 3, 0);
}

/* Model points worked by hand: 4 schedulers, lambda 0.25 (lambda_s 1), Lambda 4. */
static void test_model_known_points(void **state)
{
    (void)state;
    gs_pipe_model m = {0.25, 4.0, 4};
    assert_double_equal(gs_pipe_model_ipc(&m, 1, 1), 0.25, 1e-12);   /* CPI = Lambda */
    assert_double_equal(gs_pipe_model_ipc(&m, 1, 4), 1.0, 1e-12);    /* 4 chains hide Lambda */
    assert_double_equal(gs_pipe_model_ipc(&m, 16, 1), 4.0, 1e-12);   /* the peak, 1 / lambda */
    assert_double_equal(gs_pipe_model_ipc(&m, 17, 1), 17.0 / 5.0, 1e-12); /* one scheduler has 5 */
    assert_double_equal(gs_pipe_model_ipc(&m, 64, 4), 4.0, 1e-12);
    assert_double_equal(gs_pipe_model_ipc(&m, 0, 1), 0, 0);
    /* A slow unit: lambda 2 per SM (lambda_s 8), Lambda 18: ILP 4 on one warp is issue-bound. */
    gs_pipe_model sfu = {2.0, 18.0, 4};
    assert_double_equal(gs_pipe_model_ipc(&sfu, 1, 4), 4.0 / 32.0, 1e-12);
    assert_double_equal(gs_pipe_model_ipc(&sfu, 1, 1), 1.0 / 18.0, 1e-12);
    /* The ridge on a grid 1..32: the first point within 5% of 4 is 16. */
    double grid[32];
    for (int i = 0; i < 32; i++)
        grid[i] = i + 1;
    assert_double_equal(gs_pipe_model_ridge(&m, grid, 32, 1, 0.05), 16, 0);
    assert_double_equal(gs_pipe_model_ridge(&m, grid, 32, 4, 0.05), 4, 0);
    assert_true(isnan(gs_pipe_model_ridge(&m, grid, 0, 1, 0.05)));
}

/* The model's curve gives back its own lambda, Lambda and ridge through the fit. */
static void test_model_roundtrip(void **state)
{
    (void)state;
    gs_pipe_model m = {0.5, 8.0, 4};
    double w[64], ipc[64];
    unsigned ilp[64];
    for (int i = 0; i < 64; i++) {
        w[i] = i + 1;
        ipc[i] = gs_pipe_model_ipc(&m, w[i], 1);
        ilp[i] = 1;
    }
    gs_pipe_curve_fit f;
    assert_int_equal(gs_pipe_fit_curve(w, ipc, 64, 0.05, &f), 0);
    assert_double_equal(f.lambda_issue_cycles, 0.5, 1e-12);
    assert_double_equal(f.Lambda_completion_cycles, 8.0, 1e-12);
    assert_double_equal(f.ridge_warps, gs_pipe_model_ridge(&m, w, 64, 1, 0.05), 0);
    assert_double_equal(gs_pipe_model_error(&m, w, ipc, ilp, 64), 0, 1e-12);
    gs_pipe_model wrong = {0.5, 8.0, 1};
    assert_true(gs_pipe_model_error(&wrong, w, ipc, ilp, 64) > 0.01);
}

/* Section V.B: 3 CUs, 2 work groups of 3 warps each concurrently (Fig. 4). */
static void test_runs_equations(void **state)
{
    (void)state;
    gs_pipe_launch l = {.work_items = 96 * 20, .wg_size = 96, .max_conc_wg = 2,
                        .max_conc_warps = 64, .nbr_cu = 3, .warp_size = 32, .instr_kernel = 100};
    gs_pipe_runs r;
    assert_int_equal(gs_pipe_runs_of(&l, &r), 0);
    assert_double_equal(r.wg, 20, 0);
    assert_double_equal(r.warps_wg, 3, 0);
    assert_double_equal(r.actual_warp_size, 32, 0);
    assert_double_equal(r.conc_warps, 6, 0);
    assert_double_equal(r.total_warps, 60, 0);
    assert_double_equal(r.runs_cu, 4, 0);  /* ceil(60 / 3 / 6) */
    assert_double_equal(r.instr_run, 100 * 96 * 2, 0);
    /* 4 runs of 1200 cycles: cyclesOfRun 1200 over 6 warps x 100 instructions = CPI_warp 2. */
    assert_double_equal(gs_pipe_cpi_warp(&l, 4800), 2.0, 1e-12);
    /* The model predicts runs x cycles of one run. */
    gs_pipe_model m = {0.5, 8.0, 1};
    double ipc = gs_pipe_model_ipc(&m, 6, 1);  /* 6 / max(8, 3) = 0.75 */
    assert_double_equal(gs_pipe_predict_cycles(&m, &l, 1), 4 * 100 * 6 / ipc, 1e-9);
    /* Work items not filling a warp: WG of 48 is 2 warps of 24. */
    gs_pipe_launch odd = l;
    odd.wg_size = 48;
    odd.work_items = 48 * 6;
    assert_int_equal(gs_pipe_runs_of(&odd, &r), 0);
    assert_double_equal(r.actual_warp_size, 24, 0);
    assert_double_equal(r.runs_cu, 1, 0);
    gs_pipe_launch bad = l;
    bad.nbr_cu = 0;
    assert_int_equal(gs_pipe_runs_of(&bad, &r), -1);
    assert_true(isnan(gs_pipe_cpi_warp(&l, 0)));
    assert_true(isnan(gs_pipe_predict_cycles(&m, &bad, 1)));
}

/* The ceiling check: above ceiling x (1 + tolerance) only; unknown ceilings check nothing. */
static void test_over_ceiling(void **state)
{
    (void)state;
    assert_false(gs_pipe_over_ceiling(4.0, 3.95, 0.02));
    assert_false(gs_pipe_over_ceiling(4.02, 3.95, 0.02));
    assert_true(gs_pipe_over_ceiling(4.3, 3.95, 0.02));
    assert_true(gs_pipe_over_ceiling(140.0 / 32, 3.95, 0.02)); /* divergence's one-path point */
    assert_false(gs_pipe_over_ceiling(4.3, 0, 0.02));
    assert_false(gs_pipe_over_ceiling(4.3, NAN, 0.02));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fit_min_curve),
        cmocka_unit_test(test_fit_unsorted_and_bad_points),
        cmocka_unit_test(test_fit_ridge_tie),
        cmocka_unit_test(test_fit_edge_cases),
        cmocka_unit_test(test_model_known_points),
        cmocka_unit_test(test_model_roundtrip),
        cmocka_unit_test(test_runs_equations),
        cmocka_unit_test(test_over_ceiling),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
