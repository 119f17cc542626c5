/* Probe `divergence`: thread divergence (roofline paper, Lemeire et al., section V.D and Fig. 5):
 * throughput of one instruction type against the number of divergent paths in a warp, 1 to 32.
 * The lanes of each warp are split into P paths (lane mod P); every path runs the same loop of the
 * instruction under test, so a warp issues the loop P times with a partial mask. Measured at the
 * SM's full occupancy (two blocks of half the SM's warps, held by Eq. 2), so the pipelines are
 * full and the loss is the issue slots spent on idle lanes. Reported as useful thread
 * instructions per cycle per SM, the efficiency against one path, and the serialization: the
 * least-squares slope of cycles(P) / cycles(1) against P (1 = paths run one after another). */
#include <math.h>
#include <stdio.h>

#include "analysis/pipeline_model.h"
#include "probes/issue_point.h"
#include "util/interrupt.h"

#define MAX_PATHS 32

static struct {
    const char *type;
    long long ilp;
    long long reps;
    double target_cycles;
} opt;

const gs_opt gs_probe_divergence_opts[] = {
    {"type", GS_OPT_STRING, &opt.type, "TYPE", "instruction type (default ffma; not mma)", NULL, 0, 0},
    {"ilp", GS_OPT_INT, &opt.ilp, "N", "independent chains per thread: 1, 2 or 4 (default 4)",
     NULL, 1, 4},
    {"reps", GS_OPT_INT, &opt.reps, "N",
     "repetitions of each point (default 3; 25 with --thorough)", NULL, 1, 1000},
    {"target-cycles", GS_OPT_DOUBLE, &opt.target_cycles, "N",
     "cycles each one-path kernel is sized to run (default 50000; 200000 with --thorough)", NULL, 0, 0},
    GS_OPT_END,
};

/* Least-squares slope through the origin of (P, cycles(P) / cycles(1)). */
static double serialization_slope(const double *paths, const double *relative, size_t n)
{
    double sxy = 0, sxx = 0;
    for (size_t i = 0; i < n; i++) {
        if (!isfinite(relative[i]))
            continue;
        sxy += paths[i] * relative[i];
        sxx += paths[i] * paths[i];
    }
    return sxx > 0 ? sxy / sxx : NAN;
}

/* The sweep: plan at full occupancy, paths 1..32, the same work per lane at every P. */
static int sweep(gs_probe_ctx *ctx, gs_instr t, double *paths, double *ops, double *cycles,
                 size_t *count, bool *bad, gs_error *err)
{
    unsigned max_warps = (unsigned)(ctx->info->max_threads_per_sm / ctx->info->warp_size);
    gs_issue_plan plan;
    unsigned warps = max_warps;
    while (warps > 1 && !gs_issue_plan_warps(ctx->info, t, (unsigned)opt.ilp, warps, &plan))
        warps--;
    if (!gs_issue_plan_warps(ctx->info, t, (unsigned)opt.ilp, warps, &plan))
        return gs_fail(err, GS_ERR_UNSUPPORTED, "divergence: no plan fits this device");
    unsigned iterations = 0;
    *count = 0;
    for (unsigned p = 1; p <= MAX_PATHS; p++) {
        gs_issue_point pt;
        if (gs_interrupted())
            return gs_fail(err, GS_ERR_INTERRUPTED, "divergence: interrupted");
        plan.divergent_paths = p;
        int rc = gs_issue_measure(ctx, &plan, (unsigned)opt.reps, opt.target_cycles * p, &pt, err);
        if (rc)
            return rc;
        if (p == 1)
            iterations = pt.iterations;
        bad[*count] = pt.measurement_error;
        /* each lane runs the loop once: useful thread instructions = issued / P * warp_size */
        paths[*count] = p;
        ops[*count] = pt.ipc.median / p * ctx->info->warp_size;
        cycles[*count] = pt.cycles / pt.iterations * iterations; /* at the one-path work */
        (*count)++;
    }
    return 0;
}

/* The one-path point against the type's one-block ceiling at ILP 4 (timing sound there): more
 * than GS_ISSUE_CEILING_TOLERANCE above it is a measurement error (bad[0]); counted as a figure. */
static int check_one_path(gs_probe_ctx *ctx, gs_probe_out *p, gs_instr t, const double *ops,
                          bool *bad, size_t n, gs_error *err)
{
    double ceiling = 0, ws = ctx->info->warp_size;
    int rc = gs_issue_reference_ceiling(ctx, t, (unsigned)opt.reps, opt.target_cycles, &ceiling, err);
    if (rc)
        return rc;
    gs_figure(p, "ceiling_ops_per_cycle_per_sm", ceiling * ws, "thread instr/cycle/SM", 0, 1,
              "one block per SM of the largest size, ILP 4, one path: the type's throughput where "
              "the timing is sound");
    size_t errors = 0;
    for (size_t i = 0; i < n; i++) {
        /* P paths issue P times the instructions: compare issued throughput, ops x P / warp_size */
        if (!bad[i] && gs_pipe_over_ceiling(ops[i] * (double)(i + 1) / ws, ceiling,
                                            GS_ISSUE_CEILING_TOLERANCE))
            bad[i] = true;
        errors += bad[i];
    }
    gs_figure(p, "measurement_errors", (double)errors, "points", 0, n,
              "paths whose point failed the timing checks or read more than 2% above the ceiling");
    if (errors)
        gs_probe_warning(p, "divergence: %zu point(s) are measurement errors", errors);
    return 0;
}

static int gs_probe_divergence_run(gs_probe_ctx *ctx, gs_error *err)
{
    gs_instr t;
    double paths[MAX_PATHS], ops[MAX_PATHS], cycles[MAX_PATHS], relative[MAX_PATHS];
    bool bad[MAX_PATHS];
    size_t n = 0;
    opt.type = "ffma";
    opt.ilp = 4;
    opt.reps = ctx->thorough ? 25 : 3;
    opt.target_cycles = ctx->thorough ? 200000 : 50000;
    int rc = gs_probe_parse_opts(ctx, gs_probe_divergence_opts, err);
    if (rc)
        return rc;
    if (gs_instr_parse(opt.type, &t) != 0 || gs_instr_converged(t))
        return gs_fail(err, GS_ERR_USAGE, "--type %s: use one of fadd, ffma, iadd, imul, dfma, "
                       "sfu-sin, sfu-rsqrt, sw-sin, hfma2 or a table class that runs per lane "
                       "(mma.sync and the warp-wide classes need a converged warp)", opt.type);
    if (opt.ilp != 1 && opt.ilp != 2 && opt.ilp != 4)
        return gs_fail(err, GS_ERR_USAGE, "--ilp %lld: use 1, 2 or 4", opt.ilp);
    if (!(opt.target_cycles >= 1000 && opt.target_cycles <= 1e9))
        return gs_fail(err, GS_ERR_USAGE, "--target-cycles %g: use 1000 to 1e9", opt.target_cycles);
    gs_probe_out *p = gs_run_add_probe(ctx->run, "divergence");
    gs_param_string(p, "type", opt.type);
    gs_param_int(p, "ilp", opt.ilp);
    gs_param_int(p, "reps", opt.reps);
    gs_progress(ctx, "divergence: %s, 1 to %d paths", opt.type, MAX_PATHS);
    rc = sweep(ctx, t, paths, ops, cycles, &n, bad, err);
    if (n == 0)
        return rc;
    if (!rc && (rc = check_one_path(ctx, p, t, ops, bad, n, err)) != 0)
        return rc;
    for (size_t i = 0; i < n; i++)
        relative[i] = cycles[i] / cycles[0];
    const char *m = "useful thread instructions per cycle per SM (issued / paths x warp_size)";
    if (bad[0]) {
        static const char *const against_one[] = {"ops_per_cycle_per_sm_1_path", "efficiency_2_paths",
                                                  "efficiency_32_paths", "serialization_slope"};
        for (int i = 0; i < 4; i++)
            gs_figure_nd(p, against_one[i], i ? "" : "thread instr/cycle/SM", m, "measurement "
                         "error: the one-path point failed its timing checks or read above the "
                         "one-block ceiling");
        return rc;
    }
    gs_figure(p, "ops_per_cycle_per_sm_1_path", ops[0], "thread instr/cycle/SM", 0, 1, m);
    gs_figure(p, "ops_per_cycle_per_sm_32_paths", n == MAX_PATHS ? ops[n - 1] : NAN,
              "thread instr/cycle/SM", 0, 1, m);
    gs_figure(p, "efficiency_2_paths", n >= 2 ? ops[1] / ops[0] : NAN, "", 0, 1,
              "throughput at 2 paths over 1 path (0.5 when paths serialize)");
    gs_figure(p, "efficiency_32_paths", n == MAX_PATHS ? ops[n - 1] / ops[0] : NAN, "", 0, 1,
              "throughput at 32 paths over 1 path (1/32 when paths serialize)");
    gs_figure(p, "serialization_slope", serialization_slope(paths, relative, n), "", 0, n,
              "least-squares slope through the origin of cycles(P) / cycles(1) against P "
              "(1: each path costs a whole pass)");
    gs_series(p, "throughput", "paths", "", "ops_per_cycle_per_sm", "thread instr/cycle/SM",
              paths, ops, n);
    gs_series(p, "relative_cycles", "paths", "", "cycles_over_one_path", "", paths, relative, n);
    return rc;
}

/* The probe's descriptor (probe.h). */
static const char *const headline[] = {"ceiling_ops_per_cycle_per_sm", "efficiency_2_paths", "efficiency_32_paths", "serialization_slope", NULL};
const gs_probe_def gs_probe_divergence_def = {
    .name = "divergence",
    .run = gs_probe_divergence_run,
    .flags = 0,
    .summary = "throughput against the number of divergent paths in a warp (1 to 32)",
    .opts = gs_probe_divergence_opts,
    .expected_s = 1,
    .expected_sim_s = 0.15,
    .keep_rank = 10,
    .hints = {.headline = headline},
};
