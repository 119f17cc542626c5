/* Probe `clock`: what reading clock64() and %globaltimer costs in cycles, the globaltimer's step,
 * and the SM clock frequency as SM cycles over globaltimer nanoseconds across windows, with its
 * stability over the run. Every later probe converts cycles to ns with this frequency. */
#include <math.h>
#include <stdlib.h>

#include "analysis/stats.h"
#include "probes/probe.h"
#include "util/interrupt.h"

static struct {
    long long windows;
    double window_ms;
} opt;

const gs_opt gs_probe_clock_opts[] = {
    {"windows", GS_OPT_INT, &opt.windows, "N", "frequency windows (default 10, 25 with --thorough)",
     NULL, 1, 10000},
    {"window-ms", GS_OPT_DOUBLE, &opt.window_ms, "MS", "length of each window in ms (default 20)",
     NULL, 0, 0},
    GS_OPT_END,
};


/* Figures from the windows: frequency median/ci95 and stability (max-min over median). */
static void record_frequency(gs_probe_out *p, const gs_clock_result *r, unsigned windows,
                             double *khz_out)
{
    double *khz = calloc(windows, sizeof *khz), *idx = calloc(windows, sizeof *idx);
    if (!khz || !idx) {
        free(khz);
        free(idx);
        return;
    }
    for (unsigned i = 0; i < windows; i++) {
        khz[i] = r->window_ns[i] ? (double)r->window_cycles[i] / (double)r->window_ns[i] * 1e6 : NAN;
        idx[i] = i;
    }
    gs_summary s = gs_summarize(khz, windows);
    const char *method = "SM cycles (clock64) over globaltimer ns, per window, median";
    gs_figure(p, "sm_clock_khz", s.median, "kHz", s.ci95, s.n, method);
    gs_figure(p, "sm_clock_spread_percent", s.median > 0 ? (s.max - s.min) / s.median * 100 : NAN,
              "%", 0, s.n, "(max - min) / median of the windows' frequencies");
    gs_series(p, "frequency", "window", "", "sm_clock", "kHz", idx, khz, windows);
    *khz_out = s.median;
    free(khz);
    free(idx);
}

static int gs_probe_clock_run(gs_probe_ctx *ctx, gs_error *err)
{
    opt.windows = ctx->thorough ? 25 : 10;
    opt.window_ms = 20;
    int rc = gs_probe_parse_opts(ctx, gs_probe_clock_opts, err);
    if (rc)
        return rc;
    if (opt.window_ms <= 0 || opt.window_ms > 10000)
        return gs_fail(err, GS_ERR_USAGE, "--window-ms %g: use a window from 0.001 to 10000 ms",
                       opt.window_ms);
    unsigned windows = (unsigned)opt.windows;
    uint64_t *cycles = calloc(windows, sizeof *cycles), *ns = calloc(windows, sizeof *ns);
    if (!cycles || !ns) {
        free(cycles);
        free(ns);
        return gs_fail(err, GS_ERR_NO_MEMORY, "out of host memory for %u windows", windows);
    }
    gs_clock_plan plan = {.windows = windows, .window_ns = (uint64_t)(opt.window_ms * 1e6),
                          .read_samples = 64};
    gs_clock_result r = {.window_cycles = cycles, .window_ns = ns};
    gs_progress(ctx, "clock: %u windows of %g ms", windows, opt.window_ms);
    rc = ctx->backend->ops->clock(ctx->backend, &plan, &r, err);
    if (!rc) {
        gs_probe_out *p = gs_run_add_probe(ctx->run, "clock");
        gs_param_int(p, "windows", windows);
        gs_param_double(p, "window_ms", opt.window_ms);
        gs_figure(p, "clock64_read_cycles", r.clock64_read_cycles, "cycles", 0, 64,
                  "median of 64 back-to-back clock64() pairs");
        gs_figure(p, "globaltimer_read_cycles", r.globaltimer_read_cycles, "cycles", 0, 64,
                  "median clock64 span around one %globaltimer read, less one clock64 read");
        gs_figure(p, "globaltimer_resolution_ns", r.globaltimer_resolution_ns, "ns", 0, 64,
                  "smallest step between successive differing %globaltimer reads");
        double khz = 0;
        record_frequency(p, &r, windows, &khz);
        const char *dm = "the driver's current SM clock (NVML) read while the windows ran";
        if (r.driver_sm_clock_khz > 0) {
            gs_figure(p, "driver_sm_clock_khz", r.driver_sm_clock_khz, "kHz", 0, 1, dm);
            gs_figure(p, "measured_vs_driver_percent",
                      (khz - r.driver_sm_clock_khz) / r.driver_sm_clock_khz * 100, "%", 0, 1,
                      "(measured - driver) / driver");
        } else {
            gs_figure_nd(p, "driver_sm_clock_khz", "kHz", dm,
                         "NVML (libnvidia-ml.so.1) is not available on this machine");
        }
        if (khz > 0)
            ctx->clock_khz = khz;
    }
    free(cycles);
    free(ns);
    return rc;
}

/* The probe's descriptor (probe.h). */
static const char *const headline[] = {"sm_clock_khz", "driver_sm_clock_khz", "measured_vs_driver_percent", NULL};
const gs_probe_def gs_probe_clock_def = {
    .name = "clock",
    .run = gs_probe_clock_run,
    .flags = GS_PROBE_DEFAULT,
    .summary = "SM clock frequency, its stability, and the cost of clock64 and globaltimer reads",
    .opts = gs_probe_clock_opts,
    .expected_s = 0.25,
    .expected_sim_s = 0.05,
    .keep_rank = 1,
    .hints = {.headline = headline},
};
