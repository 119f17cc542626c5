/* Probe `launch`: what launching and synchronizing cost. On the host: one cudaLaunchKernel of an
 * empty kernel and one cudaGraphLaunch of a graph holding it (each timed over a burst of
 * launches), an empty kernel's launch to completion (launch, then cudaStreamSynchronize), a
 * cudaStreamSynchronize of an idle stream and an event's round trip (cudaEventRecord +
 * cudaEventSynchronize); cudaEventElapsedTime around one empty kernel and the step of its values
 * (the events' resolution); on the device: one grid.sync() of a cooperative kernel and one
 * cluster.sync() (cc 9.0), each timed with %globaltimer over many syncs inside one launch. The
 * launch-overhead benchmarks of gpu-benches and of the Hopper microbenchmark papers time the
 * same calls; every figure is the median of its repetitions with the median's own interval. */
#include <math.h>
#include <stdlib.h>

#include "analysis/stats.h"
#include "analysis/timer_step.h"
#include "probes/probe.h"
#include "util/interrupt.h"

static struct {
    long long repeats, burst, syncs, cluster_size;
} opt;

static const gs_opt opts[] = {
    {"repeats", GS_OPT_INT, &opt.repeats, "N",
     "timed repetitions per figure (default 32; 128 with --thorough)", NULL, 2, 100000},
    {"burst", GS_OPT_INT, &opt.burst, "N",
     "launches timed together per repetition of the stream and graph launches (default 100)",
     NULL, 1, 1000},
    {"syncs", GS_OPT_INT, &opt.syncs, "N",
     "grid or cluster syncs per launch, timed together (default 1000)", NULL, 1, 1000000},
    {"cluster-size", GS_OPT_INT, &opt.cluster_size, "N",
     "blocks per cluster of the cluster barrier (default 2)", NULL, 2, 8},
    GS_OPT_END,
};

/* One figure per kind: its name, its unit and ns per unit, and how it is measured. */
static const struct {
    gs_launch_kind kind;
    const char *figure, *unit;
    double unit_ns;
    const char *method;
} figures[] = {
    {GS_LAUNCH_STREAM, "stream_launch_us", "us", 1e3,
     "host time per cudaLaunchKernel of an empty kernel, over a burst, median of repetitions"},
    {GS_LAUNCH_GRAPH, "graph_launch_us", "us", 1e3,
     "host time per cudaGraphLaunch of a one-kernel graph, over a burst, median of repetitions"},
    {GS_LAUNCH_COMPLETE, "empty_kernel_complete_us", "us", 1e3,
     "host time from an empty kernel's launch to the return of cudaStreamSynchronize, median"},
    {GS_LAUNCH_SYNC_IDLE, "sync_idle_us", "us", 1e3,
     "host time of cudaStreamSynchronize on an idle stream, median"},
    {GS_LAUNCH_EVENT, "event_round_trip_us", "us", 1e3,
     "host time of cudaEventRecord + cudaEventSynchronize on an idle stream, median"},
    {GS_LAUNCH_EVENT_ELAPSED, "event_elapsed_us", "us", 1e3,
     "cudaEventElapsedTime between events recorded around one empty kernel, median"},
    {GS_LAUNCH_GRID_SYNC, "grid_sync_ns", "ns", 1,
     "%globaltimer over many grid.sync() of a cooperative kernel, one block per SM, per sync, "
     "median of launches"},
    {GS_LAUNCH_CLUSTER_SYNC, "cluster_sync_ns", "ns", 1,
     "%globaltimer over many cluster.sync() in one launch, per sync, median of launches"},
};
enum { FIGURES = sizeof figures / sizeof figures[0] };

#define RESOLUTION_METHOD "smallest step between distinct cudaEventElapsedTime values"

/* The events' resolution from the elapsed times (ns): the smallest step between their values. */
static void record_resolution(gs_probe_out *p, const double *ns, size_t n)
{
    double step = gs_timer_step(ns, n, 0.5);
    if (isnan(step))
        gs_figure_nd(p, "event_resolution_ns", "ns", RESOLUTION_METHOD,
                     "all %zu elapsed times were equal: the resolution is that value or coarser",
                     n);
    else
        gs_figure(p, "event_resolution_ns", step, "ns", 0, n, RESOLUTION_METHOD);
}

/* One kind: its plan, its figure (median and the median's interval) or why not. */
static int measure(gs_probe_ctx *ctx, gs_probe_out *p, int f, double *ns, gs_error *err)
{
    if (gs_interrupted())
        return gs_fail(err, GS_ERR_INTERRUPTED, "interrupted");
    gs_launch_kind k = figures[f].kind;
    bool syncs = k == GS_LAUNCH_GRID_SYNC || k == GS_LAUNCH_CLUSTER_SYNC;
    gs_launch_plan plan = {.kind = k, .burst = (unsigned)(syncs ? opt.syncs : opt.burst),
                           .cluster_size = (unsigned)opt.cluster_size,
                           .repeats = (unsigned)opt.repeats};
    gs_launch_result res = {.values = ns};
    char why[256];
    int rc = gs_probe_unsupported_why(ctx->backend->ops->launch(ctx->backend, &plan, &res, err),
                                      err, why, sizeof why);
    if (rc)
        return rc;
    if (why[0] || res.n == 0) {
        gs_figure_nd(p, figures[f].figure, figures[f].unit, figures[f].method, "%s",
                     why[0] ? why : "no repetition completed");
        if (k == GS_LAUNCH_EVENT_ELAPSED)
            gs_figure_nd(p, "event_resolution_ns", "ns", RESOLUTION_METHOD, "%s",
                         why[0] ? why : "no repetition completed");
        return 0;
    }
    for (size_t i = 0; i < res.n; i++)
        ns[i] /= figures[f].unit_ns;
    gs_summary s = gs_summarize(ns, res.n);
    /* The median's own interval, never narrower than the mean's: timings rounded to a coarse
     * tick (the events' resolution) leave the order statistics equal and that interval 0. */
    double ci = res.n >= 8 ? fmax(gs_median_order_ci95(ns, res.n), s.ci95) : s.ci95;
    gs_figure(p, figures[f].figure, s.median, figures[f].unit, ci, s.n, figures[f].method);
    if (syncs && res.blocks)
        gs_param_int(p, k == GS_LAUNCH_GRID_SYNC ? "grid_sync_blocks" : "cluster_sync_blocks",
                     res.blocks);
    if (k == GS_LAUNCH_EVENT_ELAPSED) {
        for (size_t i = 0; i < res.n; i++)
            ns[i] *= figures[f].unit_ns;
        record_resolution(p, ns, res.n);
    }
    return 0;
}

static int run(gs_probe_ctx *ctx, gs_error *err)
{
    opt.repeats = ctx->thorough ? 128 : 32;
    opt.burst = 100;
    opt.syncs = 1000;
    opt.cluster_size = 2;
    int rc = gs_probe_parse_opts(ctx, opts, err);
    if (rc)
        return rc;
    if (!ctx->backend->ops->launch)
        return gs_fail(err, GS_ERR_UNSUPPORTED, "this backend has no launch operation");
    double *ns = calloc((size_t)opt.repeats, sizeof *ns);
    if (!ns)
        return gs_fail(err, GS_ERR_NO_MEMORY, "out of host memory for %lld samples", opt.repeats);
    gs_probe_out *p = gs_run_add_probe(ctx->run, "launch");
    gs_param_int(p, "repeats", opt.repeats);
    gs_param_int(p, "burst", opt.burst);
    gs_param_int(p, "syncs", opt.syncs);
    gs_param_int(p, "cluster_size", opt.cluster_size);
    gs_progress(ctx, "launch: launches, waits, events and barriers, %lld repetitions each",
                opt.repeats);
    for (int f = 0; f < FIGURES && !rc; f++)
        rc = measure(ctx, p, f, ns, err);
    free(ns);
    return rc;
}

/* The probe's descriptor (probe.h). */
static const char *const headline[] = {"stream_launch_us", "graph_launch_us",
                                       "empty_kernel_complete_us", "grid_sync_ns",
                                       "cluster_sync_ns", NULL};
const gs_probe_def gs_probe_launch_def = {
    .name = "launch",
    .run = run,
    .flags = 0,
    .summary = "kernel launch (stream, graph), an empty kernel's completion, stream and event "
               "waits, grid and cluster barriers",
    .opts = opts,
    .expected_s = 0.3,
    .expected_sim_s = 0.01,
    .hints = {.headline = headline},
};
