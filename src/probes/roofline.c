/* Probe `roofline`: the occupancy roofline of the roofline paper (Lemeire et al., section III and
 * Fig. 2): throughput per SM per cycle against concurrent warps per SM for each instruction type,
 * with warps varied by block size (one block per SM, two above the largest block) and by the
 * number of concurrent blocks, held by dynamic shared memory (Eq. 2: localMem = MaxLocalMem /
 * concWG); the peak and the ridge point (fewest warps within 5% of the peak). Beside it, the
 * pipeline model's prediction (section IV) from the measured lambda (1 / peak) and Lambda (one
 * warp, ILP 1) through the CPI equations with runs (section V.B), with the SM's warp schedulers
 * fitted to all curves, and the difference of the predicted and measured ridge points. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "analysis/pipeline_model.h"
#include "probes/issue_point.h"
#include "util/interrupt.h"

#define MAX_POINTS 128

static struct {
    const char *types;
    long long ilp;
    long long reps;
    double target_cycles;
    long long schedulers;
} opt;

const gs_opt gs_probe_roofline_opts[] = {
    {"types", GS_OPT_STRING, &opt.types, "LIST",
     "instruction types, comma-separated, or all (default)", NULL, 0, 0},
    {"ilp", GS_OPT_INT, &opt.ilp, "N", "independent chains per thread: 1 (default), 2 or 4", NULL,
     1, 4},
    {"reps", GS_OPT_INT, &opt.reps, "N",
     "repetitions of each point (default 3; 25, the paper's, with --thorough)", NULL, 1, 1000},
    {"target-cycles", GS_OPT_DOUBLE, &opt.target_cycles, "N",
     "cycles each kernel is sized to run (default 100000; 400000 with --thorough)", NULL, 0, 0},
    {"schedulers", GS_OPT_INT, &opt.schedulers, "N",
     "warp schedulers per SM for the model (default 0: fitted to the curves from 1, 2, 4, 8)",
     NULL, 0, 64},
    GS_OPT_END,
};

/* One series of launches: its points and each point's launch (for the runs equations). */
typedef struct series {
    size_t n;
    double warps[MAX_POINTS], ipc[MAX_POINTS], cycles[MAX_POINTS];
    gs_pipe_launch launch[MAX_POINTS];
    gs_issue_point point[MAX_POINTS];
} series;

typedef struct type_data {
    bool measured;
    series by_size, by_blocks;
    double Lambda_ilp1;           /* CPI of one warp at ILP 1 */
    double ceiling_ipc;           /* best one-block throughput (the by-size points, one block of
                                     the largest size at ILP 4) */
    size_t measurement_errors;    /* points left out (timing checks, or above the ceiling) */
    gs_pipe_curve_fit fit;        /* of by_size */
} type_data;

static type_data data[GS_INSTR_COUNT];

static gs_pipe_launch launch_of(const gs_device_info *info, const gs_issue_plan *plan,
                                const gs_issue_point *pt)
{
    double warps = (double)plan->blocks * plan->warps_per_block;
    gs_pipe_launch l = {
        .work_items = warps * info->warp_size, .wg_size = (double)plan->warps_per_block * info->warp_size,
        .max_conc_wg = plan->blocks_per_sm_limit ? (double)plan->blocks_per_sm_limit
                                                 : (double)info->max_blocks_per_sm,
        .max_conc_warps = (double)info->max_threads_per_sm / info->warp_size,
        .nbr_cu = info->sm_count, .warp_size = info->warp_size,
        .instr_kernel = pt->instructions / warps};
    return l;
}

static int add_point(gs_probe_ctx *ctx, series *s, gs_issue_plan *plan, gs_error *err)
{
    gs_issue_point pt;
    if (gs_interrupted())
        return gs_fail(err, GS_ERR_INTERRUPTED, "roofline: interrupted");
    int rc = gs_issue_measure(ctx, plan, (unsigned)opt.reps, opt.target_cycles, &pt, err);
    if (rc || s->n >= MAX_POINTS)
        return rc;
    s->point[s->n] = pt;
    s->warps[s->n] = pt.warps_per_sm;
    s->ipc[s->n] = pt.ipc.median;
    s->cycles[s->n] = pt.cycles;
    s->launch[s->n] = launch_of(ctx->info, plan, &pt);
    s->n++;
    return 0;
}

/* Marks the multi-block points above the ceiling as measurement errors and leaves out every point
 * so marked (also by the backend's timing checks); returns how many were left out. */
static size_t drop_errors(series *s, double ceiling)
{
    size_t kept = 0, n = s->n;
    gs_issue_flag_over_ceiling(s->point, s->n, ceiling);
    for (size_t i = 0; i < n; i++) {
        if (s->point[i].measurement_error)
            continue;
        s->point[kept] = s->point[i];
        s->warps[kept] = s->warps[i];
        s->ipc[kept] = s->ipc[i];
        s->cycles[kept] = s->cycles[i];
        s->launch[kept] = s->launch[i];
        kept++;
    }
    s->n = kept;
    return n - kept;
}

/* Warps by block size (one block per SM, then two), and by concurrent blocks (Eq. 2) of
 * max_warps / max_blocks warps each; and one warp at ILP 1 for Lambda. */
static int measure_type(gs_probe_ctx *ctx, gs_instr t, type_data *d, gs_error *err)
{
    const gs_device_info *info = ctx->info;
    unsigned grid[MAX_POINTS], ilp = (unsigned)opt.ilp;
    size_t n = gs_issue_warps_grid(info, grid, MAX_POINTS);
    gs_issue_plan plan;
    int rc = 0;
    d->by_size.n = d->by_blocks.n = 0;
    for (size_t i = 0; i < n && !rc; i++)
        if (gs_issue_plan_warps(info, t, ilp, grid[i], &plan))
            rc = add_point(ctx, &d->by_size, &plan, err);
    unsigned max_warps = (unsigned)(info->max_threads_per_sm / info->warp_size);
    unsigned max_blocks = info->max_blocks_per_sm > 0 ? (unsigned)info->max_blocks_per_sm : 1;
    unsigned wpb = max_warps / max_blocks ? max_warps / max_blocks : 1;
    for (unsigned b = 1; b <= max_blocks && b * wpb <= max_warps && !rc; b++) {
        gs_issue_plan bp = {.instr = t, .ilp = ilp, .warps_per_block = wpb,
                            .blocks = b * (unsigned)info->sm_count, .blocks_per_sm_limit = b};
        rc = add_point(ctx, &d->by_blocks, &bp, err);
    }
    if (!rc)
        rc = gs_issue_reference_ceiling(ctx, t, (unsigned)opt.reps, opt.target_cycles,
                                        &d->ceiling_ipc, err);
    if (rc)
        return rc;
    d->ceiling_ipc = fmax(d->ceiling_ipc, gs_issue_ceiling(d->by_size.point, d->by_size.n));
    d->measurement_errors = drop_errors(&d->by_size, d->ceiling_ipc) +
                            drop_errors(&d->by_blocks, d->ceiling_ipc);
    if (gs_pipe_fit_curve(d->by_size.warps, d->by_size.ipc, d->by_size.n, GS_PIPE_RIDGE_TOLERANCE,
                          &d->fit) != 0)
        return gs_fail(err, GS_ERR_PROBE, "roofline: no usable point for %s", gs_instr_name(t));
    d->Lambda_ilp1 = d->fit.Lambda_completion_cycles;
    if (ilp != 1 && gs_issue_plan_warps(info, t, 1, 1, &plan)) {
        gs_issue_point pt;
        if ((rc = gs_issue_measure(ctx, &plan, (unsigned)opt.reps, opt.target_cycles, &pt, err)))
            return rc;
        d->Lambda_ilp1 = pt.cpi.median;
    }
    d->measured = true;
    return 0;
}

static gs_pipe_model model_of(const type_data *d, unsigned schedulers)
{
    gs_pipe_model m = {d->fit.lambda_issue_cycles, d->Lambda_ilp1, schedulers};
    return m;
}

/* The schedulers per SM (1, 2, 4 or 8) whose model fits every measured curve best. */
static unsigned fit_schedulers(double *best_error)
{
    unsigned best = 1;
    *best_error = INFINITY;
    for (unsigned s = 1; s <= 8; s *= 2) {
        double sum = 0;
        for (int t = 0; t < GS_INSTR_COUNT; t++) {
            if (!data[t].measured)
                continue;
            unsigned ilp[MAX_POINTS];
            for (size_t i = 0; i < data[t].by_size.n; i++)
                ilp[i] = (unsigned)opt.ilp;
            gs_pipe_model m = model_of(&data[t], s);
            double e = gs_pipe_model_error(&m, data[t].by_size.warps, data[t].by_size.ipc, ilp,
                                           data[t].by_size.n);
            sum += isfinite(e) ? e * e : 0;
        }
        if (sum < *best_error) {
            *best_error = sum;
            best = s;
        }
    }
    *best_error = sqrt(*best_error);
    return best;
}

/* The model's throughput for each launch of a series: the runs equations' predicted runtime,
 * turned back into CPI_warp by the same equations. Returns the rms relative error in percent. */
static double predict_series(const gs_pipe_model *m, const series *s, double *pred_ops,
                             double warp_size)
{
    double sum = 0;
    size_t used = 0;
    for (size_t i = 0; i < s->n; i++) {
        double cycles = gs_pipe_predict_cycles(m, &s->launch[i], (unsigned)opt.ilp);
        double cpi = gs_pipe_cpi_warp(&s->launch[i], cycles);
        pred_ops[i] = cpi > 0 ? warp_size / cpi : NAN;
        if (isfinite(pred_ops[i]) && s->ipc[i] > 0) {
            double r = (pred_ops[i] / warp_size - s->ipc[i]) / s->ipc[i];
            sum += r * r;
            used++;
        }
    }
    return used ? sqrt(sum / (double)used) * 100 : NAN;
}

static void record_series(gs_probe_out *p, gs_instr t, const char *what, const series *s,
                          double warp_size)
{
    char name[96];
    double ops[MAX_POINTS];
    for (size_t i = 0; i < s->n; i++)
        ops[i] = s->ipc[i] * warp_size;
    snprintf(name, sizeof name, "%s_%s", gs_instr_name(t), what);
    gs_series(p, name, "warps_per_sm", "warps", "ops_per_cycle_per_sm", "thread instr/cycle/SM",
              s->warps, ops, s->n);
}

/* 95 % half-width of an rms over n points, 0 where it has none */
static double rms_interval(double rms, size_t n)
{
    double ci = n > 1 && isfinite(rms) ? gs_rms_ci95(rms, n - 1) : 0;
    return isfinite(ci) ? ci : 0;
}

/* Figures of one type: measured peak and ridge, the model's ridge and its difference, errors. */
static void record_type(gs_probe_ctx *ctx, gs_probe_out *p, gs_instr t, unsigned schedulers)
{
    const type_data *d = &data[t];
    double ws = ctx->info->warp_size, pred[MAX_POINTS], pred_blocks[MAX_POINTS];
    char name[96];
    const char *tn = gs_instr_name(t);
    gs_pipe_model m = model_of(d, schedulers);
    double err_size = predict_series(&m, &d->by_size, pred, ws);
    double err_blocks = predict_series(&m, &d->by_blocks, pred_blocks, ws);
    double model_ridge = gs_pipe_model_ridge(&m, d->by_size.warps, d->by_size.n, (unsigned)opt.ilp,
                                             GS_PIPE_RIDGE_TOLERANCE);
    snprintf(name, sizeof name, "%s_peak_ops_per_cycle_per_sm", tn);
    gs_figure(p, name, d->fit.peak_ipc * ws, "thread instr/cycle/SM", 0, d->by_size.n,
              "max over warps per SM (by block size) of thread instructions per cycle per SM");
    snprintf(name, sizeof name, "%s_ilp%lld_ridge_warps", tn, opt.ilp);
    gs_figure(p, name, d->fit.ridge_warps, "warps", 0, d->by_size.n,
              "section III: fewest concurrent warps per SM (by block size) within 5% of the peak");
    snprintf(name, sizeof name, "%s_model_ridge_warps", tn);
    gs_figure(p, name, model_ridge, "warps", 0, d->by_size.n,
              "pipeline model (lambda = 1 / peak, Lambda = one warp at ILP 1, fitted schedulers) "
              "on the same warps grid, same 5% rule");
    snprintf(name, sizeof name, "%s_ridge_difference_percent", tn);
    gs_figure(p, name, (d->fit.ridge_warps - model_ridge) / model_ridge * 100, "%", 0, 1,
              "(measured ridge - model ridge) / model ridge");
    /* an rms over n points is known to 1.96 / sqrt(2 (n - 1)) of itself (the schedulers are
     * fitted): without it two reports on an H200 read 0.709 and 0.699 % "apart" */
    snprintf(name, sizeof name, "%s_model_error_percent", tn);
    gs_figure(p, name, err_size, "%", rms_interval(err_size, d->by_size.n), d->by_size.n,
              "rms relative difference of the model (CPI equations with runs) and the measured "
              "throughput, warps by block size (interval: 1.96 / sqrt(2 (n - 1)) of it)");
    snprintf(name, sizeof name, "%s_model_error_by_blocks_percent", tn);
    gs_figure(p, name, err_blocks, "%", rms_interval(err_blocks, d->by_blocks.n),
              d->by_blocks.n, "the same for warps by concurrent blocks (Eq. 2)");
    snprintf(name, sizeof name, "%s_measurement_errors", tn);
    gs_figure(p, name, (double)d->measurement_errors, "points", 0, 1,
              "points left out: timing checks failed (clock64 / globaltimer / %smid), or more than "
              "2% above the best one-block throughput of the type (ILP 1 by size, ILP 4 at the "
              "largest block)");
    if (d->measurement_errors)
        gs_probe_warning(p, "roofline: %s: %zu point(s) left out as measurement errors", tn,
                         d->measurement_errors);
    record_series(p, t, "by_block_size", &d->by_size, ws);
    record_series(p, t, "by_blocks", &d->by_blocks, ws);
    snprintf(name, sizeof name, "%s_model", tn);
    gs_series(p, name, "warps_per_sm", "warps", "ops_per_cycle_per_sm", "thread instr/cycle/SM",
              d->by_size.warps, pred, d->by_size.n);
    snprintf(name, sizeof name, "%s_model_by_blocks", tn);
    gs_series(p, name, "warps_per_sm", "warps", "ops_per_cycle_per_sm", "thread instr/cycle/SM",
              d->by_blocks.warps, pred_blocks, d->by_blocks.n);
}

static int gs_probe_roofline_run(gs_probe_ctx *ctx, gs_error *err)
{
    bool want[GS_INSTR_COUNT];
    opt.types = "all";
    opt.ilp = 1;
    opt.reps = ctx->thorough ? 25 : 3;
    opt.target_cycles = ctx->thorough ? 400000 : 100000;
    opt.schedulers = 0;
    int rc = gs_probe_parse_opts(ctx, gs_probe_roofline_opts, err);
    if (!rc)
        rc = gs_issue_parse_types(opt.types, want, err);
    if (rc)
        return rc;
    if (opt.ilp != 1 && opt.ilp != 2 && opt.ilp != 4)
        return gs_fail(err, GS_ERR_USAGE, "--ilp %lld: use 1, 2 or 4", opt.ilp);
    if (!(opt.target_cycles >= 1000 && opt.target_cycles <= 1e10))
        return gs_fail(err, GS_ERR_USAGE, "--target-cycles %g: use 1000 to 1e10", opt.target_cycles);
    gs_probe_out *p = gs_run_add_probe(ctx->run, "roofline");
    gs_param_string(p, "types", opt.types);
    gs_param_int(p, "ilp", opt.ilp);
    gs_param_int(p, "reps", opt.reps);
    gs_param_double(p, "target_cycles", opt.target_cycles);
    for (int t = 0; t < GS_INSTR_COUNT && !rc; t++) {
        data[t].measured = false;
        if (!want[t])
            continue;
        gs_progress(ctx, "roofline: %s", gs_instr_name((gs_instr)t));
        rc = measure_type(ctx, (gs_instr)t, &data[t], err);
        if (rc == GS_ERR_UNSUPPORTED || rc == GS_ERR_PROBE) {
            char name[96];
            snprintf(name, sizeof name, "%s_ilp%lld_ridge_warps", gs_instr_name((gs_instr)t), opt.ilp);
            gs_figure_nd(p, name, "warps", "occupancy roofline (section III)", "%s", err->msg);
            gs_error_clear(err);
            rc = 0;
        }
    }
    double fit_error = NAN;
    unsigned schedulers = opt.schedulers > 0 ? (unsigned)opt.schedulers : fit_schedulers(&fit_error);
    gs_figure(p, "schedulers", schedulers, "per SM", 0, 1, opt.schedulers > 0
              ? "given with --schedulers"
              : "the count in 1, 2, 4, 8 whose pipeline model fits all curves best (least squares)");
    for (int t = 0; t < GS_INSTR_COUNT; t++)
        if (data[t].measured)
            record_type(ctx, p, (gs_instr)t, schedulers);
    return rc;
}

/* The probe's descriptor (probe.h). */
static const char *const headline[] = {"schedulers", NULL};
static const gs_hint_column columns[] = {
    {"peak_ops_per_cycle_per_sm", "ops/cycle/SM"},
    {"ilp1_ridge_warps", "ridge (warps)"},
    {"model_ridge_warps", "model ridge (warps)"},
    {"model_error_percent", "model error (%)"},
    {NULL, NULL},
};
const gs_probe_def gs_probe_roofline_def = {
    .name = "roofline",
    .run = gs_probe_roofline_run,
    .flags = GS_PROBE_DEFAULT,
    .summary = "occupancy roofline per instruction type, ridge point, and the pipeline model's "
               "prediction",
    .opts = gs_probe_roofline_opts,
    .expected_s = 0.8,
    .expected_sim_s = 0.05,
    .keep_rank = 8,
    .hints = {.headline = headline, .rows = "itype", .columns = columns},
};
