/* Probe `energy`: picojoules per operation (fp32 and fp64 FMA, fp16x2 FMA, mma.sync per tensor
 * type) and per byte read from shared memory, the L1, the L2 and DRAM and copied from the host,
 * from the device's total-energy counter (NVML's nvmlDeviceGetTotalEnergyConsumption), after
 * the energy-per-instruction method of the GPU power papers: the idle power measured first and
 * subtracted, pJ = (P_work - P_idle) / (operations per second). The counter updates in steps
 * (every 100 ms on current drivers), so each power is taken between two of its changes
 * (src/analysis/energy.c), over a work long enough for several of them; the repetitions are
 * `--parts` consecutive spans of one run. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "analysis/energy.h"
#include "analysis/stats.h"
#include "analysis/tensor_peak.h"
#include "probes/probe.h"
#include "util/interrupt.h"

static struct {
    double seconds;
    long long parts;
} opt;

static const gs_opt opts[] = {
    {"seconds", GS_OPT_DOUBLE, &opt.seconds, "S",
     "how long each work (and the idle wait) runs (default 2.5; at least 0.5)", NULL, 0, 0},
    {"parts", GS_OPT_INT, &opt.parts, "N",
     "spans of each run taken as repetitions (default 3)", NULL, 3, 20},
    GS_OPT_END,
};

typedef struct work_row {
    gs_energy_work work;
    gs_mma_type type;
    char figure[32];
    const char *unit, *what;
} work_row;

typedef struct power_set {
    double watts[20], span_s[20];
    size_t n;
    double gap_s;                 /* median gap between reads */
    double ops_per_s;
} power_set;

/* Runs one work and takes its powers; 0 and set->n = 0 with why when it cannot be measured. */
static int run_work(gs_probe_ctx *ctx, gs_energy_work w, gs_mma_type t, power_set *set,
                    char *why, size_t why_len, gs_error *err)
{
    size_t cap = (size_t)(opt.seconds * 2000) + 4096;
    double *ts = calloc(cap, sizeof *ts), *mj = calloc(cap, sizeof *mj);
    set->n = 0;
    if (!ts || !mj) {
        free(ts);
        free(mj);
        return gs_fail(err, GS_ERR_NO_MEMORY, "out of host memory for %zu counter reads", cap);
    }
    gs_energy_plan plan = {.work = w, .type = t, .seconds = opt.seconds, .max_reads = cap};
    gs_energy_result r = {.t_s = ts, .mj = mj};
    int rc = gs_probe_unsupported_why(ctx->backend->ops->energy(ctx->backend, &plan, &r, err),
                                      err, why, why_len);
    if (!rc && !why[0]) {
        double busy = r.busy_end_s - r.busy_start_s;
        double settle = fmin(0.25, busy / 4);   /* clocks and power settle after the start */
        set->n = gs_energy_powers(ts, mj, r.n, r.busy_start_s + settle, r.busy_end_s,
                                  (size_t)opt.parts, set->watts, set->span_s);
        set->gap_s = gs_energy_read_gap_s(ts, r.n);
        set->ops_per_s = busy > 0 ? r.ops / busy : NAN;
        if (!set->n)
            snprintf(why, why_len, "the energy counter did not change %lld times in %.2f s "
                     "(%zu reads); use a longer --seconds", opt.parts + 1, busy - settle, r.n);
    }
    free(ts);
    free(mj);
    return rc;
}

/* pJ per operation of each span against the idle power; the interval from the spans and from
 * how late a change may be seen (one read gap at each end of each span). */
static void record_work(gs_probe_out *p, const work_row *row, const power_set *work,
                        const power_set *idle, double idle_w)
{
    double pj[20], bound = 0;
    for (size_t i = 0; i < work->n; i++) {
        pj[i] = gs_energy_pj(work->watts[i], idle_w, work->ops_per_s);
        double dw = 2 * work->gap_s / work->span_s[i] * work->watts[i] +
                    2 * idle->gap_s / idle->span_s[0] * idle_w;
        bound = fmax(bound, dw / work->ops_per_s * 1e12);
    }
    gs_summary s = gs_summarize(pj, work->n);
    char method[200];
    snprintf(method, sizeof method, "(P_work - P_idle) / rate, P between energy-counter changes, "
             "median of %zu spans: %s", work->n, row->what);
    gs_figure(p, row->figure, s.median, row->unit, fmax(s.ci95, bound), s.n, method);
}

/* The works this device runs: the FMAs, mma.sync of each type it has, the reads, the copy. */
static size_t works_of(const gs_device_info *info, work_row *rows)
{
    size_t n = 0;
    rows[n++] = (work_row){GS_ENERGY_FFMA, 0, "ffma_pj", "pJ/op", "fp32 FMA per lane"};
    rows[n++] = (work_row){GS_ENERGY_DFMA, 0, "dfma_pj", "pJ/op", "fp64 FMA per lane"};
    rows[n++] = (work_row){GS_ENERGY_HFMA2, 0, "hfma2_pj", "pJ/op",
                           "fp16x2 FMA instruction per lane (two half FMAs)"};
    for (int t = 0; t < GS_MMA_TYPE_COUNT; t++) {
        unsigned m, nn, k;
        if (!gs_mma_shape(GS_MMA_SYNC, (gs_mma_type)t, &m, &nn, &k) ||
            !gs_mma_applicable(GS_MMA_SYNC, (gs_mma_type)t, info->cc_major, info->cc_minor,
                               NULL, 0))
            continue;
        work_row *r = &rows[n++];
        *r = (work_row){GS_ENERGY_MMA, (gs_mma_type)t, "", "pJ/flop",
                        "mma.sync per flop (s8: integer operation)"};
        snprintf(r->figure, sizeof r->figure, "mma_%s_pj", gs_mma_type_name((gs_mma_type)t));
    }
    rows[n++] = (work_row){GS_ENERGY_SMEM, 0, "smem_read_pj", "pJ/B",
                           "byte read from shared memory"};
    rows[n++] = (work_row){GS_ENERGY_L1, 0, "l1_read_pj", "pJ/B", "byte read from the L1"};
    rows[n++] = (work_row){GS_ENERGY_L2, 0, "l2_read_pj", "pJ/B", "byte read from the L2"};
    rows[n++] = (work_row){GS_ENERGY_DRAM, 0, "dram_read_pj", "pJ/B", "byte read from DRAM"};
    rows[n++] = (work_row){GS_ENERGY_H2D, 0, "h2d_copy_pj", "pJ/B",
                           "byte copied host to device (pinned cudaMemcpy)"};
    return n;
}

/* An mma.sync rate above the type's published dense peak counts work the kernel did not do (the
 * tensor probe refuses it the same way): why gets the reason, and true returns. */
static bool mma_above_peak(const gs_probe_ctx *ctx, gs_mma_type t, double flops_per_s, char *why,
                           size_t why_len)
{
    double khz = ctx->clock_khz > 0 ? ctx->clock_khz : ctx->info->sm_clock_khz, peak = 0;
    const char *source = NULL;
    char none[96];
    if (!(khz > 0) || gs_tensor_peak(ctx->info->cc_major, ctx->info->cc_minor,
                                     gs_mma_type_name(t), gs_tensor_consumer_name(ctx->info->name),
                                     &peak, &source, none, sizeof none) != 0)
        return false;
    double per_clock_sm = flops_per_s / (khz * 1e3 * ctx->info->sm_count);
    if (!gs_rate_above_peak(per_clock_sm, 0, peak))
        return false;
    snprintf(why, why_len, "the kernel's rate, %.0f per clock per SM, is above the dense peak "
             "(%.0f, %s): it does less work than it counts", per_clock_sm, peak, source);
    return true;
}

static int run(gs_probe_ctx *ctx, gs_error *err)
{
    opt.seconds = 2.5;
    opt.parts = 3;
    int rc = gs_probe_parse_opts(ctx, opts, err);
    if (rc)
        return rc;
    if (!(opt.seconds >= 0.5 && opt.seconds <= 600))
        return gs_fail(err, GS_ERR_USAGE, "--seconds %g: give 0.5 to 600 seconds per work",
                       opt.seconds);
    work_row rows[32];
    size_t nrows = works_of(ctx->info, rows);
    gs_probe_out *p = gs_run_add_probe(ctx->run, "energy");
    gs_param_double(p, "seconds", opt.seconds);
    gs_param_int(p, "parts", opt.parts);
    char why[256] = "this backend has no energy counter";
    power_set idle = {0}, work;
    const char *idle_method = "energy-counter change over time with nothing running, median of "
                              "the spans";
    if (ctx->backend->ops->energy) {
        gs_progress(ctx, "energy: idle power, %.1f s (1/%zu)", opt.seconds, nrows + 1);
        why[0] = '\0';
        rc = run_work(ctx, GS_ENERGY_IDLE, 0, &idle, why, sizeof why, err);
    }
    if (rc)
        return rc;
    double idle_w = NAN;
    if (idle.n) {
        gs_summary s = gs_summarize(idle.watts, idle.n);
        idle_w = s.median;
        /* a change is seen up to one read gap late, at each end of the span */
        double bound = 2 * idle.gap_s / idle.span_s[0] * idle_w;
        gs_figure(p, "idle_power_w", idle_w, "W", fmax(s.ci95, bound), s.n, idle_method);
    } else {
        gs_figure_nd(p, "idle_power_w", "W", idle_method, "%s", why);
    }
    for (size_t i = 0; i < nrows && !rc; i++) {
        char wwhy[256] = "";
        if (!idle.n) {
            gs_figure_nd(p, rows[i].figure, rows[i].unit, rows[i].what, "no idle power: %s", why);
            continue;
        }
        if (gs_interrupted())
            return gs_fail(err, GS_ERR_INTERRUPTED, "interrupted");
        gs_progress(ctx, "energy: %s, %.1f s (%zu/%zu)", rows[i].figure, opt.seconds, i + 2,
                    nrows + 1);
        rc = run_work(ctx, rows[i].work, rows[i].type, &work, wwhy, sizeof wwhy, err);
        if (!rc && work.n && rows[i].work == GS_ENERGY_MMA &&
            mma_above_peak(ctx, rows[i].type, work.ops_per_s, wwhy, sizeof wwhy))
            work.n = 0;
        if (!rc && work.n)
            record_work(p, &rows[i], &work, &idle, idle_w);
        else if (!rc)
            gs_figure_nd(p, rows[i].figure, rows[i].unit, rows[i].what, "%s", wwhy);
    }
    return rc;
}

/* The probe's descriptor (probe.h). */
const gs_probe_def gs_probe_energy_def = {
    .name = "energy",
    .run = run,
    .flags = GS_PROBE_HOST_LINK,  /* its last work copies from the host */
    .summary = "picojoules per FMA, tensor flop and byte read per level, from NVML's energy "
               "counter",
    .opts = opts,
    .expected_s = 40,
    .expected_sim_s = 0.05,
};
