/* Probe `pipeline`: the issue latency lambda and the completion latency Lambda of each instruction
 * type (SP add, MADD/FMA, INT add and multiply, DP FMA, native and software special functions,
 * fp16x2 FMA, one tensor-core MMA shape) at ILP 1, 2 and 4, by the method of the roofline paper
 * (Lemeire et al., section V.A-C): throughput against concurrent warps per SM, from one warp to
 * full occupancy (warps set by block size, concurrent blocks held by Eq. 2); CPI_warp = 1 /
 * throughput (section V.B); lambda = min CPI_warp (Eq. 4), Lambda = max CPI_warp (Eq. 5); the
 * saturation peak, the knee (Lambda / lambda) and the ridge point (fewest warps within 5% of the
 * peak, section III). With --table (and under --thorough) it also measures the instruction
 * table: per SASS class, the completion latency of one warp's dependent chain and the issue
 * latency and throughput of full occupancy at ILP 4, one "itable" record per class. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "analysis/pipeline_model.h"
#include "probes/issue_point.h"
#include "util/interrupt.h"

#define MAX_GRID 128

static const unsigned ilps[3] = {1, 2, 4};

static struct {
    const char *types;
    long long reps;
    double target_cycles;
    bool table;
} opt;

const gs_opt gs_probe_pipeline_opts[] = {
    {"types", GS_OPT_STRING, &opt.types, "LIST",
     "instruction types, comma-separated: fadd, ffma, iadd, imul, dfma, sfu-sin, sfu-rsqrt, "
     "sw-sin, hfma2, mma; the table's classes lop3, shf, popc, flo, brev, prmt, fmul, fmnmx, "
     "sfu-cos, sfu-ex2, sfu-lg2, sfu-rcp, sfu-sqrt, dadd, dmul, hadd2, f2f-f64, f2f-f16, f2i-i2f, "
     "shfl, vote, match, redux, lds, sts, ldg, stg, ldsm, atoms, dpx-max3, dpx-addmax; all (the "
     "first ten: default) or table (every class)", NULL, 0, 0},
    {"table", GS_OPT_FLAG, &opt.table, NULL,
     "the instruction table instead of the sweep: per class, the completion latency of one warp's "
     "dependent chain and the issue latency and throughput of full occupancy at ILP 4 (--types "
     "defaults to table; --thorough adds the table of every class to the sweep)", NULL, 0, 0},
    {"reps", GS_OPT_INT, &opt.reps, "N",
     "repetitions of each point (default 5; 25, the paper's, with --thorough)", NULL, 1, 1000},
    {"target-cycles", GS_OPT_DOUBLE, &opt.target_cycles, "N",
     "cycles each kernel is sized to run (default 100000; 400000 with --thorough)", NULL, 0, 0},
    GS_OPT_END,
};

/* One curve: the points of the warps grid at one ILP. */
typedef struct curve {
    size_t n;
    double warps[MAX_GRID], ipc[MAX_GRID], cpi[MAX_GRID];
    gs_issue_point point[MAX_GRID];
} curve;

static int measure_curve(gs_probe_ctx *ctx, gs_instr t, unsigned ilp, curve *c, gs_error *err)
{
    unsigned grid[MAX_GRID];
    size_t n = gs_issue_warps_grid(ctx->info, grid, MAX_GRID);
    c->n = 0;
    for (size_t i = 0; i < n; i++) {
        gs_issue_plan plan;
        if (!gs_issue_plan_warps(ctx->info, t, ilp, grid[i], &plan))
            continue;
        if (gs_interrupted())
            return gs_fail(err, GS_ERR_INTERRUPTED, "pipeline: interrupted");
        gs_issue_point *pt = &c->point[c->n];
        int rc = gs_issue_measure(ctx, &plan, (unsigned)opt.reps, opt.target_cycles, pt, err);
        if (rc)
            return rc;
        c->warps[c->n] = pt->warps_per_sm > 0 ? pt->warps_per_sm : grid[i];
        c->n++;
    }
    return 0;
}

/* Leaves out the points marked as measurement errors (the backend's timing checks, or above the
 * type's ceiling) and fills the ipc and cpi arrays of the rest; returns how many were left out. */
static size_t keep_sound_points(curve *c)
{
    size_t kept = 0, n = c->n;
    for (size_t i = 0; i < n; i++) {
        if (c->point[i].measurement_error)
            continue;
        c->point[kept] = c->point[i];
        c->warps[kept] = c->warps[i];
        c->ipc[kept] = c->point[i].ipc.median;
        c->cpi[kept] = c->ipc[kept] > 0 ? 1.0 / c->ipc[kept] : NAN;
        kept++;
    }
    c->n = kept;
    return n - kept;
}

static void figure_name(char *buf, size_t len, gs_instr t, unsigned ilp, const char *what)
{
    if (ilp)
        snprintf(buf, len, "%s_ilp%u_%s", gs_instr_name(t), ilp, what);
    else
        snprintf(buf, len, "%s_%s", gs_instr_name(t), what);
}

/* Figures and the CPI series of one curve. */
static void record_curve(gs_probe_ctx *ctx, gs_probe_out *p, gs_instr t, unsigned ilp,
                         const curve *c, const gs_pipe_curve_fit *f)
{
    char name[96];
    const gs_issue_point *hi = &c->point[f->peak_index], *lo = &c->point[f->min_index];
    figure_name(name, sizeof name, t, ilp, "lambda_cycles");
    gs_figure(p, name, f->lambda_issue_cycles, "cycles", hi->cpi.ci95, hi->cpi.n,
              "Eq. 4: min over warps per SM of CPI_warp = 1 / (warp instructions per cycle per SM)");
    figure_name(name, sizeof name, t, ilp, "cpi_warp_cycles");
    gs_figure(p, name, f->Lambda_completion_cycles, "cycles", lo->cpi.ci95, lo->cpi.n,
              "Eq. 5: max over warps per SM of CPI_warp (one warp per SM, ILP chains in flight)");
    figure_name(name, sizeof name, t, ilp, "peak_ipc");
    gs_figure(p, name, f->peak_ipc, "warp instr/cycle/SM", hi->ipc.ci95, hi->ipc.n,
              "saturation peak: max over warps per SM of warp instructions per cycle per SM");
    figure_name(name, sizeof name, t, ilp, "gops");
    double khz = ctx->clock_khz > 0 ? ctx->clock_khz : ctx->info->sm_clock_khz;
    gs_figure(p, name, f->peak_ipc * ctx->info->warp_size * ctx->info->sm_count * khz * 1e-6,
              "Gop/s", hi->ipc.ci95 * ctx->info->warp_size * ctx->info->sm_count * khz * 1e-6,
              hi->ipc.n, ctx->clock_khz > 0 ? "peak x warp_size x SMs x measured SM clock"
                                            : "peak x warp_size x SMs x the driver's SM clock");
    figure_name(name, sizeof name, t, ilp, "knee_warps");
    gs_figure(p, name, f->knee_warps, "warps", 0, c->n,
              "where the latency line w / Lambda meets the peak: Lambda / lambda");
    figure_name(name, sizeof name, t, ilp, "ridge_warps");
    gs_figure(p, name, f->ridge_warps, "warps", 0, c->n,
              "section III: fewest concurrent warps per SM within 5% of the peak");
    figure_name(name, sizeof name, t, ilp, "cpi");
    gs_series(p, name, "warps_per_sm", "warps", "cpi_warp", "cycles", c->warps, c->cpi, c->n);
}

/* The completion latency Lambda seen at each ILP. One warp runs ILP independent chains, so a
 * group of ILP instructions takes max(Lambda, ILP x its own issue interval): ILP x CPI_warp is an
 * upper bound of Lambda at every ILP, and equals it only while the warp's chains, not its issue,
 * set the pace. The least bound is the latency; a bound more than 5% above it means the warp was
 * issue-bound at that ILP (INT and DP on Hopper issue one warp instruction per 2 cycles), and its
 * Lambda is not determined there, rather than read as a latency that halves with ILP. */
static void record_latencies(gs_probe_out *p, gs_instr t, const curve c[3],
                             const gs_pipe_curve_fit f[3])
{
    double bound[3], least = INFINITY;
    for (int k = 0; k < 3; k++) {
        bound[k] = ilps[k] * f[k].Lambda_completion_cycles;
        least = fmin(least, bound[k]);
    }
    for (int k = 0; k < 3; k++) {
        char name[96];
        const gs_issue_point *lo = &c[k].point[f[k].min_index];
        figure_name(name, sizeof name, t, ilps[k], "Lambda_cycles");
        if (bound[k] <= 1.05 * least)
            gs_figure(p, name, bound[k], "cycles", ilps[k] * lo->cpi.ci95, lo->cpi.n,
                      "ILP x Eq. 5's max CPI_warp (one warp): the chains' completion latency");
        else
            gs_figure_nd(p, name, "cycles", "ILP x Eq. 5's max CPI_warp (one warp)",
                         "one warp is issue-bound at ILP %u: a group of %u takes %.3g cycles, "
                         "above the %.3g-cycle latency seen at lower ILP, so it shows the warp's "
                         "issue interval (%.3g cycles), not the completion latency",
                         ilps[k], ilps[k], bound[k], least, f[k].Lambda_completion_cycles);
    }
}

/* The row of the summary table: lambda (least over ILP), Lambda (ILP 1), peak, ridge (ILP 1). */
static void record_summary(gs_probe_ctx *ctx, gs_probe_out *p, gs_instr t,
                           const gs_pipe_curve_fit f[3])
{
    char name[96];
    double lambda = fmin(f[0].lambda_issue_cycles, fmin(f[1].lambda_issue_cycles,
                                                        f[2].lambda_issue_cycles));
    figure_name(name, sizeof name, t, 0, "lambda_cycles");
    gs_figure(p, name, lambda, "cycles", 0, 3, "least Eq. 4 lambda over ILP 1, 2 and 4");
    figure_name(name, sizeof name, t, 0, "Lambda_cycles");
    gs_figure(p, name, f[0].Lambda_completion_cycles, "cycles", 0, 1,
              "Eq. 5 at ILP 1: one warp's dependent chain (the completion latency)");
    figure_name(name, sizeof name, t, 0, "peak_ops_per_cycle_per_sm");
    gs_figure(p, name, ctx->info->warp_size / lambda, "thread instr/cycle/SM", 0, 3,
              "warp_size / lambda: thread instructions per cycle per SM at the saturation peak");
    figure_name(name, sizeof name, t, 0, "ridge_warps");
    gs_figure(p, name, f[0].ridge_warps, "warps", 0, 1, "ridge point at ILP 1 (section III)");
    if (t == GS_INSTR_MMA) {
        figure_name(name, sizeof name, t, 0, "peak_flops_per_cycle_per_sm");
        gs_figure(p, name, 2.0 * 16 * 8 * 16 / lambda, "flop/cycle/SM", 0, 3,
                  "m16n8k16: 2 x 16 x 8 x 16 flops per warp MMA / lambda");
    }
}

static void record_not_determined(gs_probe_out *p, gs_instr t, const char *why)
{
    static const char *const what[] = {"lambda_cycles", "Lambda_cycles", "peak_ops_per_cycle_per_sm",
                                       "ridge_warps"};
    char name[96];
    for (int i = 0; i < 4; i++) {
        figure_name(name, sizeof name, t, 0, what[i]);
        gs_figure_nd(p, name, i == 3 ? "warps" : i == 2 ? "thread instr/cycle/SM" : "cycles",
                     "pipeline sweep (roofline paper, section V)", "%s", why);
    }
}

/* The type's ceiling is its best one-block point over the three ILPs (one block per SM: timing
 * sound); multi-block points above it are measurement errors, counted and left out of the fits. */
static size_t check_curves(gs_probe_ctx *ctx, gs_probe_out *p, gs_instr t, curve c[3])
{
    char name[96];
    double ceiling = 0;
    size_t errors = 0, backend_errors = 0;
    for (int k = 0; k < 3; k++)
        ceiling = fmax(ceiling, gs_issue_ceiling(c[k].point, c[k].n));
    for (int k = 0; k < 3; k++) {
        for (size_t i = 0; i < c[k].n; i++)
            backend_errors += c[k].point[i].measurement_error;
        errors += gs_issue_flag_over_ceiling(c[k].point, c[k].n, ceiling);
    }
    for (int k = 0; k < 3; k++)
        keep_sound_points(&c[k]);
    errors += backend_errors;
    figure_name(name, sizeof name, t, 0, "measurement_errors");
    gs_figure(p, name, (double)errors, "points", 0, 1,
              "points left out: timing checks failed (clock64 / globaltimer / %smid), or more than "
              "2% above the best one-block throughput of the type");
    if (errors)
        gs_probe_warning(p, "pipeline: %s: %zu point(s) left out as measurement errors",
                         gs_instr_name(t), errors);
    (void)ctx;
    return errors;
}

static int run_type(gs_probe_ctx *ctx, gs_probe_out *p, gs_instr t, gs_error *err)
{
    static curve c[3];
    gs_pipe_curve_fit f[3];
    for (int k = 0; k < 3; k++) {
        gs_progress(ctx, "pipeline: %s ILP %u", gs_instr_name(t), ilps[k]);
        int rc = measure_curve(ctx, t, ilps[k], &c[k], err);
        if (rc == GS_ERR_UNSUPPORTED) {
            record_not_determined(p, t, err->msg);
            gs_error_clear(err);
            return 0;
        }
        if (rc)
            return rc;
    }
    check_curves(ctx, p, t, c);
    for (int k = 0; k < 3; k++)
        if (gs_pipe_fit_curve(c[k].warps, c[k].ipc, c[k].n, GS_PIPE_RIDGE_TOLERANCE, &f[k]) != 0) {
            record_not_determined(p, t, "no usable point in the warps sweep");
            return 0;
        }
    for (int k = 0; k < 3; k++)
        record_curve(ctx, p, t, ilps[k], &c[k], &f[k]);
    record_latencies(p, t, c, f);
    record_summary(ctx, p, t, f);
    return 0;
}

/* ---- the instruction table ------------------------------------------------------------------- */

/* One point of the table: plan for `warps` per SM at ILP ilp, measured. GS_ERR_UNSUPPORTED
 * passes up (the class is not determined on this device). */
static int table_point(gs_probe_ctx *ctx, gs_instr t, unsigned ilp, unsigned warps,
                       gs_issue_point *pt, gs_error *err)
{
    gs_issue_plan plan;
    if (!gs_issue_plan_warps(ctx->info, t, ilp, warps, &plan))
        return gs_fail(err, GS_ERR_UNSUPPORTED, "%u warps per SM cannot be laid out", warps);
    return gs_issue_measure(ctx, &plan, (unsigned)opt.reps, opt.target_cycles, pt, err);
}

/* One record per class: the SASS opcode, the completion latency Lambda (one warp per SM, ILP 1:
 * its CPI_warp is the dependent chain's cycles per instruction, Eq. 5), the issue latency lambda
 * (every warp an SM holds, ILP 4: 1 / warp instructions per cycle per SM, Eq. 4) and the
 * throughput per SM (warp_size / lambda). A pair class (two SASS instructions per step) gives its
 * figures per pair; a store writes no register, so it has no chain and no completion latency. */
static int table_class(gs_probe_ctx *ctx, gs_instr t, gs_error *err)
{
    const gs_device_info *info = ctx->info;
    unsigned max_warps = (unsigned)(info->max_threads_per_sm / info->warp_size);
    unsigned max_wpb = (unsigned)(info->max_threads_per_block / info->warp_size);
    gs_issue_point one, full;
    char why[256] = "";
    gs_probe_out *p = gs_run_add_probe(ctx->run, "itable");
    gs_param_string(p, "level", gs_instr_name(t));
    gs_figure_text(p, "sass", gs_instr_sass(t), 1,
                   "the opcode the kernel compiles to on cc 9.0 (scripts/check_sass.sh)");
    gs_progress(ctx, "pipeline: table: %s", gs_instr_name(t));
    int rc = table_point(ctx, t, 4, max_warps, &full, err);
    if (rc == GS_ERR_UNSUPPORTED && max_wpb < max_warps) /* two blocks did not fit: one */
        rc = table_point(ctx, t, 4, max_wpb, &full, err);
    if (!rc && !gs_instr_no_result(t))
        rc = table_point(ctx, t, 1, 1, &one, err);
    const char *m_issue = "Eq. 4: 1 / (warp instructions per cycle per SM) with every warp an SM "
                          "holds, ILP 4";
    if ((rc = gs_probe_unsupported_why(rc, err, why, sizeof why)) != 0) {
        /* One class's kernel failing (a launch error, a stamp the timers could not resolve)
         * says nothing of the others: its record is failed with the reason, and the table goes
         * on. Ctrl-C still stops the run. */
        if (rc == GS_ERR_INTERRUPTED)
            return rc;
        gs_probe_status(p, "failed", err->msg);
        gs_probe_warning(p, "pipeline: table: %s failed: %s", gs_instr_name(t), err->msg);
        const char *r = err->msg;
        gs_figure_nd(p, "lambda_cycles", "cycles", m_issue, "the class's kernel failed: %s", r);
        gs_figure_nd(p, "ops_per_cycle_per_sm", "thread instr/cycle/SM", m_issue,
                     "the class's kernel failed: %s", r);
        gs_figure_nd(p, "Lambda_cycles", "cycles", "one warp's dependent chain",
                     "the class's kernel failed: %s", r);
        gs_error_clear(err);
        return 0;
    }
    if (*why || full.measurement_error) {
        const char *r = *why ? why : "every repetition failed its timing checks";
        gs_figure_nd(p, "lambda_cycles", "cycles", m_issue, "%s", r);
        gs_figure_nd(p, "ops_per_cycle_per_sm", "thread instr/cycle/SM", m_issue, "%s", r);
        gs_figure_nd(p, "Lambda_cycles", "cycles", "one warp's dependent chain",
                     "%s", r);
        gs_probe_status(p, "ok", NULL);
        return 0;
    }
    gs_figure(p, "lambda_cycles", full.cpi.median, "cycles", full.cpi.ci95, full.cpi.n,
              m_issue);
    gs_figure(p, "ops_per_cycle_per_sm", info->warp_size * full.ipc.median,
              "thread instr/cycle/SM", info->warp_size * full.ipc.ci95, full.ipc.n,
              "warp_size x warp instructions per cycle per SM at the lambda point");
    if (gs_instr_no_result(t))
        gs_figure_nd(p, "Lambda_cycles", "cycles", "one warp's dependent chain",
                     "a store writes no register: no dependent chain");
    else if (one.measurement_error)
        gs_figure_nd(p, "Lambda_cycles", "cycles", "one warp's dependent chain",
                     "every repetition failed its timing checks");
    else
        gs_figure(p, "Lambda_cycles", one.cpi.median, "cycles", one.cpi.ci95,
                  one.cpi.n, "Eq. 5: CPI_warp of one warp per SM, ILP 1 (one dependent chain; "
                  "the loop's counter, compare and branch, at most 4 per 256, issue in its "
                  "shadow)");
    gs_probe_status(p, "ok", NULL);
    return 0;
}

static int run_table(gs_probe_ctx *ctx, const bool want[GS_INSTR_COUNT], gs_error *err)
{
    int rc = 0;
    for (int t = 0; t < GS_INSTR_COUNT && !rc; t++) {
        if (!want[t])
            continue;
        if (gs_interrupted())
            return gs_fail(err, GS_ERR_INTERRUPTED, "pipeline: interrupted");
        rc = table_class(ctx, (gs_instr)t, err);
    }
    return rc;
}

static int gs_probe_pipeline_run(gs_probe_ctx *ctx, gs_error *err)
{
    bool want[GS_INSTR_COUNT], every[GS_INSTR_COUNT];
    opt.types = NULL;
    opt.table = false;
    opt.reps = ctx->thorough ? 25 : 5;
    opt.target_cycles = ctx->thorough ? 400000 : 100000;
    int rc = gs_probe_parse_opts(ctx, gs_probe_pipeline_opts, err);
    if (!opt.types)
        opt.types = opt.table ? "table" : "all";
    if (!rc)
        rc = gs_issue_parse_types(opt.types, want, err);
    if (!rc)
        rc = gs_issue_parse_types("table", every, err);
    if (rc)
        return rc;
    if (!(opt.target_cycles >= 1000 && opt.target_cycles <= 1e10))
        return gs_fail(err, GS_ERR_USAGE, "--target-cycles %g: use 1000 to 1e10", opt.target_cycles);
    gs_probe_out *p = gs_run_add_probe(ctx->run, "pipeline");
    gs_param_string(p, "types", opt.types);
    gs_param_bool(p, "table", opt.table || ctx->thorough);
    if (opt.table)
        return run_table(ctx, want, err);
    gs_param_int(p, "reps", opt.reps);
    gs_param_double(p, "target_cycles", opt.target_cycles);
    gs_param_string(p, "warps_layout", "one block per SM up to the largest block, then two equal "
                    "blocks; concurrent blocks held by dynamic shared memory (Eq. 2)");
    for (int t = 0; t < GS_INSTR_COUNT && !rc; t++)
        if (want[t])
            rc = run_type(ctx, p, (gs_instr)t, err);
    if (!rc && ctx->thorough)
        rc = run_table(ctx, every, err);
    return rc;
}

/* The probe's descriptor (probe.h). */
static const char *const headline[] = {"mma_peak_flops_per_cycle_per_sm", NULL};
static const gs_hint_column columns[] = {
    {"lambda_cycles", "issue λ (cycles)"},
    {"Lambda_cycles", "completion Λ (cycles)"},
    {"peak_ops_per_cycle_per_sm", "ops/cycle/SM"},
    {"ridge_warps", "ridge (warps)"},
    {NULL, NULL},
};
const gs_probe_def gs_probe_pipeline_def = {
    .name = "pipeline",
    .run = gs_probe_pipeline_run,
    .flags = GS_PROBE_DEFAULT,
    .summary = "issue latency lambda and completion latency Lambda per instruction type at ILP "
               "1, 2, 4",
    .opts = gs_probe_pipeline_opts,
    .expected_s = 0.9,
    .expected_sim_s = 0.05,
    .keep_rank = 4,
    .hints = {.headline = headline, .rows = "itype", .columns = columns},
};
