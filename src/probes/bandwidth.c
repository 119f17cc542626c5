/* Probe `bandwidth`: the copy-kernel of the roofline paper (Lemeire et al., Section VI.A, with the
 * bandwidth equation of Section VI.D: bandwidth = bytesComm / runtime) for elements of 1, 2, 4, 8
 * and 16 bytes, with a compile-time and a run-time loop bound, and its read-only twin, over a
 * working set far larger than L2 with a grid that fills the device; GB/s counts bytes read plus
 * bytes written. In the same run cudaMemcpy device-to-device on buffers of the same size (the
 * ratio of the best kernel to it), and host-to-device and device-to-host over pinned memory.
 * The issue latency λ of a warp's memory instruction follows from the bandwidth (Eq. 7 at full
 * occupancy): λ = warp_size * element_bytes * sm_count * clock / bandwidth. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/stats.h"
#include "probes/probe.h"
#include "util/interrupt.h"

#define ELEMENTS 5
#define MAX_REPEATS 1000

static const unsigned element_sizes[ELEMENTS] = { 1, 2, 4, 8, 16 };

static struct {
    uint64_t bytes;
    uint64_t pcie_bytes;
    long long repeats;
    long long threads;
} opt;

const gs_opt gs_probe_bandwidth_opts[] = {
    {"bytes", GS_OPT_BYTES, &opt.bytes, "BYTES",
     "working set of each buffer (default 16 x L2, at least 256 MB, at most 1/4 of free memory)",
     NULL, 0, 0},
    {"pcie-bytes", GS_OPT_BYTES, &opt.pcie_bytes, "BYTES",
     "size of the host<->device copies (default 64 MB, 256 MB with --thorough)", NULL, 0, 0},
    {"repeats", GS_OPT_INT, &opt.repeats, "N",
     "timed repetitions of each configuration (default 10, 60 with --thorough)", NULL, 2,
     MAX_REPEATS},
    {"threads", GS_OPT_INT, &opt.threads, "N",
     "threads per block of the kernels (default: the backend's, 256 on CUDA)", NULL, 0, 1024},
    GS_OPT_END,
};


#define RETRY_CI 0.01             /* a configuration measured again above this ci95 / median */
#define RETRY_CI_THOROUGH 0.001   /* the same with --thorough's 60 repetitions (below) */
#define RETRIES 2
#define PASSES 3                  /* every configuration's repetitions in this many passes */

/* One configuration: its plan, and the GB/s of every repetition so far with their summary. */
typedef struct config {
    gs_stream_plan plan;
    double *gbps;
    size_t n;
    gs_summary s;
} config;

/* reps more repetitions of c (bytes read plus written over time), its summary redone. */
static int run_batch(gs_probe_ctx *ctx, config *c, unsigned reps, gs_error *err)
{
    if (gs_interrupted())
        return gs_fail(err, GS_ERR_INTERRUPTED, "interrupted");
    double seconds[MAX_REPEATS];
    gs_stream_plan plan = c->plan;
    plan.repeats = reps;
    gs_stream_result r = { .seconds = seconds };
    int rc = ctx->backend->ops->stream(ctx->backend, &plan, &r, err);
    for (size_t i = 0; !rc && i < r.n; i++)
        c->gbps[c->n++] = seconds[i] > 0 ? (double)r.bytes_moved / seconds[i] * 1e-9 : NAN;
    if (!rc)
        c->s = gs_summarize_robust(c->gbps, c->n, 5);
    return rc;
}

static double relative_ci(const gs_summary *s)
{
    return s->median > 0 ? s->ci95 / s->median : INFINITY;
}

/* The ci95 / median above which a configuration is measured again (measure_all). */
static double retry_ci(const gs_probe_ctx *ctx)
{
    return ctx->thorough ? RETRY_CI_THOROUGH : RETRY_CI;
}

/* Every configuration's repetitions, in PASSES passes over all of them, then another pass's
 * worth (up to RETRIES times) for one whose interval exceeds retry_ci of its median; *remeasured
 * counts those. A slow window of the card lands in one pass: on H100s one configuration in
 * about one process of three read 1.5-4 % low over all its repetitions, with an interval of
 * 0.1-0.5 % (the 8-B copy 2850 against 2964-2970 GB/s, cudaMemcpy 2875 against 2990-3009;
 * docs/hardware/h100.md) while the configurations measured just before
 * and after it read as in every other process, so measured at once its median held the window.
 * Spread over three passes, a window lowers a third of the repetitions, which the median leaves
 * out. (Measuring a configuration again while its interval stays wide catches a window inside
 * its repetitions, not one over them: on H100s one default run in five held slow repetitions
 * some 100 ms into the probe. --thorough's 60 repetitions and its 0.1 % bar keep a steady
 * configuration's interval under the bar.) */
static int measure_all(gs_probe_ctx *ctx, config *cs, size_t count, long long *remeasured,
                       gs_error *err)
{
    unsigned repeats = (unsigned)opt.repeats;
    unsigned passes = repeats < PASSES ? repeats : PASSES;
    int rc = 0;
    for (unsigned k = 0; k < passes && !rc; k++) {
        gs_progress(ctx, "bandwidth: pass %u of %u over %zu configurations", k + 1, passes,
                    count);
        for (size_t i = 0; i < count && !rc; i++)
            rc = run_batch(ctx, &cs[i], repeats / passes + (k < repeats % passes), err);
    }
    unsigned more = (repeats + passes - 1) / passes;
    for (size_t i = 0; i < count && !rc; i++)
        for (int a = 0; a < RETRIES && !rc && relative_ci(&cs[i].s) > retry_ci(ctx); a++) {
            rc = run_batch(ctx, &cs[i], more, err);
            ++*remeasured;
        }
    return rc;
}

static const char *bound_name(bool dynamic_bound)
{
    return dynamic_bound ? "dynamic" : "constant";
}

/* λ for one element size from the bandwidth (and its ci95), or "not determined" without a
 * measured clock. */
static void record_lambda(gs_probe_ctx *ctx, gs_probe_out *p, unsigned e, double gbps,
                          double gbps_ci95)
{
    char name[64];
    snprintf(name, sizeof name, "copy_%uB_lambda_cycles", e);
    const char *method = "Eq. 7 at full occupancy: warp_size * element_bytes * sm_count * "
                         "clock / best copy bandwidth (cycles per warp memory instruction per SM; "
                         "interval: the bandwidth's, relative)";
    if (ctx->clock_khz > 0 && gbps > 0) {
        double lambda = ctx->info->warp_size * (double)e * ctx->info->sm_count
                        * ctx->clock_khz * 1e3 / (gbps * 1e9);
        gs_figure(p, name, lambda, "cycles", lambda * gbps_ci95 / gbps, 1, method);
    } else {
        gs_figure_nd(p, name, "cycles", method, "the SM clock was not measured (run the clock "
                     "probe first)");
    }
}

/* The configurations, in the order they are measured and reported: copy and read kernels for
 * every element size and loop bound (KERNELS), the constant-bound copy of 8- and 16-byte
 * elements with 128 to 1024 threads per block when --threads does not fix it (BLOCK_SIZES), and
 * cudaMemcpy device to device, host to device and device to host (MEMCPYS). */
#define KERNELS (2 * ELEMENTS * 2)
#define BLOCK_SIZES 8
#define MEMCPYS 3
static const unsigned block_threads[4] = { 128, 256, 512, 1024 };
static const unsigned block_elements[2] = { 8, 16 };
static const struct { gs_stream_kind kind; const char *name; } memcpys[MEMCPYS] = {
    { GS_STREAM_MEMCPY_D2D, "memcpy_d2d_gbps" },
    { GS_STREAM_MEMCPY_H2D, "h2d_gbps" },
    { GS_STREAM_MEMCPY_D2H, "d2h_gbps" },
};

static size_t build_configs(gs_stream_plan base, config *cs)
{
    size_t n = 0;
    for (int k = GS_STREAM_COPY; k <= GS_STREAM_READ; k++)
        for (int e = 0; e < ELEMENTS; e++)
            for (int d = 0; d < 2; d++) {
                cs[n].plan = base;
                cs[n].plan.kind = (gs_stream_kind)k;
                cs[n].plan.element_bytes = element_sizes[e];
                cs[n++].plan.dynamic_bound = d;
            }
    for (int e = 0; e < 2 && opt.threads == 0; e++)
        for (int t = 0; t < 4; t++) {
            cs[n].plan = base;
            cs[n].plan.kind = GS_STREAM_COPY;
            cs[n].plan.element_bytes = block_elements[e];
            cs[n++].plan.threads_per_block = block_threads[t];
        }
    for (int i = 0; i < MEMCPYS; i++) {
        cs[n].plan = base;
        cs[n].plan.kind = memcpys[i].kind;
        cs[n].plan.element_bytes = 1;
        if (i > 0)
            cs[n].plan.bytes = opt.pcie_bytes;
        n++;
    }
    return n;
}

/* The kernels' figures, λ and series; the best copy into *best and config. */
static void record_kernels(gs_probe_ctx *ctx, gs_probe_out *p, const config *cs, double *best,
                           double *best_ci95, char *config_text, size_t config_len)
{
    char name[64];
    double x[ELEMENTS], y[2][2][ELEMENTS];
    for (int k = GS_STREAM_COPY; k <= GS_STREAM_READ; k++)
        for (int e = 0; e < ELEMENTS; e++) {
            double best_of_bounds = 0, bounds_ci95 = 0;
            for (int d = 0; d < 2; d++) {
                const gs_summary *m = &cs[(k * ELEMENTS + e) * 2 + d].s;
                const char *kind = k == GS_STREAM_COPY ? "copy" : "read";
                snprintf(name, sizeof name, "%s_%uB_%s_gbps", kind, element_sizes[e],
                         bound_name(d));
                gs_figure(p, name, m->median, "GB/s", m->ci95, m->n,
                          "median over repetitions (three passes over the configurations) of "
                          "(bytes read + bytes written) / kernel time (events)");
                if (k == GS_STREAM_COPY && m->median > *best) {
                    *best = m->median;
                    *best_ci95 = m->ci95;
                    snprintf(config_text, config_len, "copy, %u-byte elements, %s loop bound",
                             element_sizes[e], bound_name(d));
                }
                if (m->median > best_of_bounds) {
                    best_of_bounds = m->median;
                    bounds_ci95 = m->ci95;
                }
                y[k][d][e] = m->median;
            }
            x[e] = element_sizes[e];
            if (k == GS_STREAM_COPY)
                record_lambda(ctx, p, element_sizes[e], best_of_bounds, bounds_ci95);
        }
    for (int k = 0; k < 2; k++)
        for (int d = 0; d < 2; d++) {
            snprintf(name, sizeof name, "%s_%s", k == GS_STREAM_COPY ? "copy" : "read",
                     bound_name(d));
            gs_series(p, name, "element", "B", "bandwidth", "GB/s", x, y[k][d], ELEMENTS);
        }
}

/* The block-size series of the constant-bound 8- and 16-byte copies; the best into *best. */
static void record_block_sizes(gs_probe_out *p, const config *cs, double *best,
                               double *best_ci95, char *config_text, size_t config_len)
{
    for (int e = 0; e < 2; e++) {
        double x[4], y[4];
        char name[64];
        for (int t = 0; t < 4; t++) {
            const gs_summary *m = &cs[e * 4 + t].s;
            x[t] = block_threads[t];
            y[t] = m->median;
            if (m->median > *best) {
                *best = m->median;
                *best_ci95 = m->ci95;
                snprintf(config_text, config_len, "copy, %u-byte elements, constant loop bound, "
                         "%u threads per block", block_elements[e], block_threads[t]);
            }
        }
        snprintf(name, sizeof name, "copy_%uB_constant_by_threads", block_elements[e]);
        gs_series(p, name, "threads_per_block", "threads", "bandwidth", "GB/s", x, y, 4);
    }
}

/* cudaMemcpy device to device on buffers of the kernels' size, the ratio of the best copy kernel
 * to it (its interval from both medians' relative ones), and the PCIe directions over pinned
 * memory. */
static void record_memcpy(gs_probe_out *p, const config *cs, double best, double best_ci95)
{
    for (size_t i = 0; i < MEMCPYS; i++) {
        const gs_summary *m = &cs[i].s;
        gs_figure(p, memcpys[i].name, m->median, "GB/s", m->ci95, m->n,
                  i == 0 ? "cudaMemcpy device to device on the same buffers: median of "
                           "(bytes read + bytes written) / time (events), three passes"
                         : "cudaMemcpy over pinned host memory: median of bytes / time (events), "
                           "three passes");
        if (i == 0) {
            double ratio = best / m->median;
            gs_figure(p, "copy_over_memcpy", ratio, "", ratio * hypot(best_ci95 / best,
                                                                      m->ci95 / m->median),
                      m->n, "best copy-kernel median over cudaMemcpy device-to-device median, "
                      "same run (interval: both medians', relative)");
        }
    }
}

static uint64_t default_bytes(const gs_device_info *info)
{
    uint64_t bytes = 16 * info->l2_bytes;
    if (bytes < (256ull << 20))
        bytes = 256ull << 20;
    if (info->global_mem_free_bytes && bytes > info->global_mem_free_bytes / 4)
        bytes = info->global_mem_free_bytes / 4;
    return bytes;
}

static int gs_probe_bandwidth_run(gs_probe_ctx *ctx, gs_error *err)
{
    opt.bytes = default_bytes(ctx->info);
    opt.pcie_bytes = ctx->thorough ? 256ull << 20 : 64ull << 20;
    opt.repeats = ctx->thorough ? 60 : 10;
    opt.threads = 0;
    int rc = gs_probe_parse_opts(ctx, gs_probe_bandwidth_opts, err);
    if (rc)
        return rc;
    if (opt.bytes < (1u << 20) || opt.pcie_bytes < (1u << 20))
        return gs_fail(err, GS_ERR_USAGE, "--bytes and --pcie-bytes must be at least 1 MB");
    gs_probe_out *p = gs_run_add_probe(ctx->run, "bandwidth");
    gs_param_int(p, "bytes", (long long)opt.bytes);
    gs_param_int(p, "pcie_bytes", (long long)opt.pcie_bytes);
    gs_param_int(p, "repeats", opt.repeats);
    gs_param_int(p, "passes", opt.repeats < PASSES ? opt.repeats : PASSES);
    gs_param_string(p, "remeasure", ctx->thorough
                    ? "a configuration whose ci95 exceeds 0.1 % of its median gets a pass's "
                      "repetitions more, up to twice (count: remeasured)"
                    : "a configuration whose ci95 exceeds 1 % of its median gets a pass's "
                      "repetitions more, up to twice (count: remeasured)");
    gs_param_int(p, "threads_per_block", opt.threads);
    gs_param_string(p, "blocks", "fill the device (constant bound: one chunk per block; dynamic: "
                    "occupancy x SMs)");
    gs_stream_plan plan = { .bytes = opt.bytes, .threads_per_block = (unsigned)opt.threads };
    config cs[KERNELS + BLOCK_SIZES + MEMCPYS];
    size_t count = build_configs(plan, cs);
    size_t per = (size_t)opt.repeats + RETRIES * (((size_t)opt.repeats + PASSES - 1) / PASSES);
    double *samples = calloc(count * per, sizeof *samples);
    if (!samples)
        return gs_fail(err, GS_ERR_NO_MEMORY, "out of host memory for %zu repetitions",
                       count * per);
    for (size_t i = 0; i < count; i++)
        cs[i].gbps = samples + i * per, cs[i].n = 0;
    long long remeasured = 0;
    gs_progress(ctx, "bandwidth: copy and read kernels over 2 x %.0f MB, cudaMemcpy "
                "device-to-device, host-to-device, device-to-host", opt.bytes / 1048576.0);
    rc = measure_all(ctx, cs, count, &remeasured, err);
    if (rc == 0) {
        double best = 0, best_ci95 = 0;
        char config_text[128] = "";
        record_kernels(ctx, p, cs, &best, &best_ci95, config_text, sizeof config_text);
        if (opt.threads == 0)
            record_block_sizes(p, cs + KERNELS, &best, &best_ci95, config_text,
                               sizeof config_text);
        gs_figure_text(p, "best_copy_config", config_text, 1, "largest median copy bandwidth "
                       "over element sizes, loop bounds and (8 and 16 B) threads per block");
        gs_figure(p, "best_copy_gbps", best, "GB/s", best_ci95, (size_t)opt.repeats,
                  "largest median over the copy configurations (interval: that median's)");
        record_memcpy(p, cs + count - MEMCPYS, best, best_ci95);
    }
    free(samples);
    gs_param_int(p, "remeasured", remeasured);
    return rc;
}

/* The probe's descriptor (probe.h). */
static const char *const headline[] = {"best_copy_gbps", "best_copy_config", "memcpy_d2d_gbps", "copy_over_memcpy", "h2d_gbps", "d2h_gbps", NULL};
const gs_probe_def gs_probe_bandwidth_def = {
    .name = "bandwidth",
    .run = gs_probe_bandwidth_run,
    .flags = GS_PROBE_DEFAULT | GS_PROBE_HOST_LINK,
    .summary = "copy and read kernels per element size and loop bound, cudaMemcpy D2D/H2D/D2H, "
               "in GB/s",
    .opts = gs_probe_bandwidth_opts,
    .expected_s = 0.7,
    .expected_sim_s = 0.05,
    .keep_rank = 5,
    .hints = {.headline = headline},
};
