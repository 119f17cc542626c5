/* Unit tests of src/sim/pipeline.c: the "pipeline" section's parser (strict keys, bad values),
 * issue plans on a model whose truth is known, and the recovery of lambda, Lambda and the ridge
 * point from simulated curves by the analysis (src/analysis/pipeline_model.c) within 5%, with the
 * model's noise on. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gs_test.h"
#include "sim_test.h"

#include "analysis/pipeline_model.h"
#include "sim/model.h"
#include "sim/sim.h"

#define DEVICE                                                                                 \
    "\"device\": {\"name\": \"t\", \"cc_major\": 9, \"cc_minor\": 0, \"sm_count\": 4, "           \
    "\"clock_khz\": 1000000, \"l2_bytes\": 1048576, \"smem_per_sm_bytes\": 102400, "              \
    "\"smem_per_block_bytes\": 49152, \"smem_per_block_optin_bytes\": 101376, "                   \
    "\"global_mem_bytes\": 1073741824, \"max_threads_per_sm\": 2048, "                            \
    "\"max_threads_per_block\": 1024, \"max_blocks_per_sm\": 32}"

/* Truths: 4 schedulers; ffma 128 units, Lambda 4; dfma 64 units, Lambda 8; sfu 16 units, Lambda
 * 18; a slow one (issue every 6 cycles per scheduler), Lambda 40. */
#define PIPE                                                                                   \
    "\"pipeline\": {\"schedulers\": 4, \"instructions\": {"                                       \
    "\"ffma\": {\"units_per_sm\": 128, \"completion_cycles\": 4},"                               \
    "\"dfma\": {\"units_per_sm\": 64, \"completion_cycles\": 8},"                                \
    "\"sfu-rsqrt\": {\"units_per_sm\": 16, \"completion_cycles\": 18},"                          \
    "\"sw-sin\": {\"units_per_sm\": 128, \"completion_cycles\": 40, \"issue_cycles\": 6}}}"

static int load_text(const char *json, gs_sim_model **m, gs_error *err)
{
    return sim_test_load(json, 7, m, err);
}

static void test_parse_errors(void **state)
{
    (void)state;
    gs_sim_model *m = NULL;
    gs_error err;
    assert_int_equal(load_text("{\"name\": \"t\", " DEVICE ", " PIPE "}", &m, &err), 0);
    gs_sim_model_free(m);
    const char *bad[] = {
        "{\"name\": \"t\", " DEVICE ", \"pipeline\": {\"instructions\": {}}}",
        "{\"name\": \"t\", " DEVICE ", \"pipeline\": {\"schedulers\": 4}}",
        "{\"name\": \"t\", " DEVICE ", \"pipeline\": {\"schedulers\": 4, \"instructions\": "
        "{\"fmac\": {\"units_per_sm\": 1, \"completion_cycles\": 1}}}}",
        "{\"name\": \"t\", " DEVICE ", \"pipeline\": {\"schedulers\": 4, \"instructions\": "
        "{\"ffma\": {\"units_per_sm\": 0, \"completion_cycles\": 1}}}}",
        "{\"name\": \"t\", " DEVICE ", \"pipeline\": {\"schedulers\": 4, \"instructions\": "
        "{\"ffma\": {\"units_per_sm\": 32, \"completion_cycles\": 4, \"latency\": 3}}}}",
        "{\"name\": \"t\", " DEVICE ", \"pipeline\": {\"schedulers\": 0, \"instructions\": {}}}",
        "{\"name\": \"t\", " DEVICE ", \"pipeline\": {\"schedulers\": 4, \"instructions\": "
        "{\"ffma\": {\"units_per_sm\": 32, \"completion_cycles\": 4, \"device_error\": \"\"}}}}",
        "{\"name\": \"t\", " DEVICE ", \"pipeline\": {\"schedulers\": 4, \"instructions\": "
        "{\"ffma\": {\"units_per_sm\": 32, \"completion_cycles\": 4, \"device_error\": 1}}}}",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        m = NULL;
        assert_int_not_equal(load_text(bad[i], &m, &err), 0);
        assert_int_equal(err.status, GS_ERR_INPUT);
        assert_non_null(strstr(err.msg, "pipeline"));
        gs_sim_model_free(m);
    }
}

static gs_sim_model *truth_model(void)
{
    gs_sim_model *m = NULL;
    gs_error err;
    assert_int_equal(load_text("{\"name\": \"t\", " DEVICE ", \"noise\": {\"jitter_cycles\": 20}, "
                               PIPE "}", &m, &err), 0);
    return m;
}

static double sweep_point(gs_sim_model *m, gs_instr t, unsigned ilp, unsigned warps)
{
    unsigned two = warps > 32;
    gs_issue_plan plan = {.instr = t, .ilp = ilp, .warps_per_block = two ? warps / 2 : warps,
                          .blocks = (two ? 2u : 1u) * 4, .blocks_per_sm_limit = two ? 2 : 1,
                          .iterations = 200};
    gs_issue_result r;
    gs_error err;
    gs_error_clear(&err);
    assert_int_equal(sim_issue(m, &plan, &r, &err), 0);
    assert_double_equal(r.warps_per_sm, warps, 0);
    return r.instr_per_cycle_per_sm;
}

/* The ridge of the truth, worked independently of the analysis: the busiest scheduler holds
 * ceil(w / 4) warps; one instruction per warp per max(Lambda, lambda_s) cycles at ILP 1. */
static double truth_ridge(double lambda_s, double Lambda, const double *w, size_t n)
{
    double peak = 4.0 / lambda_s, ridge = NAN;
    for (size_t i = 0; i < n; i++) {
        double per_sched = ceil(w[i] / 4);
        double ipc = w[i] / fmax(Lambda, per_sched * lambda_s);
        if (ipc >= 0.951 * peak && !(w[i] >= ridge))  /* 5%, ties of 0.1% outside */
            ridge = w[i];
    }
    return ridge;
}

static void check_type(gs_sim_model *m, gs_instr t, double lambda_s, double Lambda)
{
    double w[64], ipc[64];
    size_t n = 0;
    for (unsigned warps = 1; warps <= 64; warps += warps < 32 ? 1 : 4)
        if (warps <= 32 || warps % 4 == 0) {
            w[n] = warps;
            ipc[n++] = sweep_point(m, t, 1, warps);
        }
    gs_pipe_curve_fit f;
    assert_int_equal(gs_pipe_fit_curve(w, ipc, n, GS_PIPE_RIDGE_TOLERANCE, &f), 0);
    double lambda = lambda_s / 4;
    assert_true(fabs(f.lambda_issue_cycles - lambda) <= 0.05 * lambda);
    assert_true(fabs(f.Lambda_completion_cycles - Lambda) <= 0.05 * Lambda);
    double ridge = truth_ridge(lambda_s, Lambda, w, n);
    assert_true(fabs(f.ridge_warps - ridge) <= 0.05 * ridge);
    /* the pipeline model from the recovered latencies predicts the same ridge */
    gs_pipe_model pm = {f.lambda_issue_cycles, f.Lambda_completion_cycles, 4};
    assert_true(fabs(gs_pipe_model_ridge(&pm, w, n, 1, GS_PIPE_RIDGE_TOLERANCE) - ridge) <=
                0.05 * ridge);
}

static void test_recover_latencies_and_ridge(void **state)
{
    (void)state;
    gs_sim_model *m = truth_model();
    check_type(m, GS_INSTR_FFMA, 1.0, 4);       /* 32 lanes per scheduler: one per cycle */
    check_type(m, GS_INSTR_DFMA, 2.0, 8);
    check_type(m, GS_INSTR_SFU_RSQRT, 8.0, 18);
    check_type(m, GS_INSTR_SW_SIN, 6.0, 40);    /* issue_cycles rules, not the units */
    gs_sim_model_free(m);
}

static void test_ilp_runs_divergence_and_unsupported(void **state)
{
    (void)state;
    gs_sim_model *m = truth_model();
    /* ILP 4 on one warp: a group of 4 every max(4, 4 x 1) cycles: 1 instruction per cycle. */
    assert_true(fabs(sweep_point(m, GS_INSTR_FFMA, 4, 1) - 1.0) < 0.01);
    /* Eq. 2: one block per SM, twice the SMs' worth of blocks: two runs, twice the cycles. */
    gs_issue_plan plan = {.instr = GS_INSTR_FFMA, .ilp = 1, .warps_per_block = 8, .blocks = 4,
                          .blocks_per_sm_limit = 1, .iterations = 1000};
    gs_issue_result one, two, div;
    gs_error err;
    gs_error_clear(&err);
    assert_int_equal(sim_issue(m, &plan, &one, &err), 0);
    plan.blocks = 8;
    assert_int_equal(sim_issue(m, &plan, &two, &err), 0);
    assert_true(fabs(two.cycles / one.cycles - 2.0) < 0.01);
    assert_true(fabs(two.instr_per_cycle_per_sm - one.instr_per_cycle_per_sm) < 0.01);
    /* No Eq. 2 limit: both blocks of an SM run at once. */
    plan.blocks_per_sm_limit = 0;
    assert_int_equal(sim_issue(m, &plan, &two, &err), 0);
    assert_double_equal(two.warps_per_sm, 16, 0);
    /* 8 divergent paths: 8 passes. */
    plan.blocks = 4;
    plan.blocks_per_sm_limit = 1;
    plan.divergent_paths = 8;
    assert_int_equal(sim_issue(m, &plan, &div, &err), 0);
    assert_true(fabs(div.cycles / one.cycles - 8.0) < 0.01);
    /* A type the model lacks, an impossible limit, a bad ILP. */
    plan.divergent_paths = 0;
    plan.instr = GS_INSTR_MMA;
    assert_int_equal(sim_issue(m, &plan, &div, &err), GS_ERR_UNSUPPORTED);
    assert_non_null(strstr(err.msg, "mma"));
    plan.instr = GS_INSTR_FFMA;
    plan.ilp = 3;
    assert_int_equal(sim_issue(m, &plan, &div, &err), GS_ERR_UNSUPPORTED);
    gs_sim_model_free(m);
}

/* A type whose entry names a device_error fails every issue plan with it (GS_ERR_DEVICE, as a
 * kernel that fails on a device); the other types still run. */
static void test_device_error(void **state)
{
    (void)state;
    gs_sim_model *m = NULL;
    gs_error err;
    assert_int_equal(load_text("{\"name\": \"t\", " DEVICE ", \"pipeline\": {\"schedulers\": 4, "
                               "\"instructions\": {\"ffma\": {\"units_per_sm\": 128, "
                               "\"completion_cycles\": 4, \"device_error\": \"bad stamp\"}, "
                               "\"dfma\": {\"units_per_sm\": 64, \"completion_cycles\": 8}}}}",
                               &m, &err), 0);
    gs_issue_plan plan = {.instr = GS_INSTR_FFMA, .ilp = 1, .warps_per_block = 8, .blocks = 4,
                          .blocks_per_sm_limit = 1, .iterations = 1000};
    gs_issue_result r;
    gs_error_clear(&err);
    assert_int_equal(sim_issue(m, &plan, &r, &err), GS_ERR_DEVICE);
    assert_non_null(strstr(err.msg, "bad stamp"));
    gs_error_clear(&err);
    plan.instr = GS_INSTR_DFMA;
    assert_int_equal(sim_issue(m, &plan, &r, &err), 0);
    gs_sim_model_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse_errors),
        cmocka_unit_test(test_recover_latencies_and_ridge),
        cmocka_unit_test(test_ilp_runs_divergence_and_unsupported),
        cmocka_unit_test(test_device_error),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
