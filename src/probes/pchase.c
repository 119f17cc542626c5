/* Probe `pchase`: one pointer chase as the user describes it (memory-hierarchy paper, Listing 3 for
 * the stride walk, Listing 4 for the fine-grained trace; or a Sattolo random walk): the space,
 * load path, array size, stride, recorded accesses and warm-up passes. Records a summary of the
 * latencies and the trace as a series; --trace FILE also writes the raw trace as CSV.
 * Usage: gpusonar run pchase --space global --path ca --array 16KB --stride 128B --trace t.csv */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/chain.h"
#include "analysis/stats.h"
#include "probes/probe.h"
#include "result/trace_csv.h"
#include "util/outfile.h"

static struct {
    const char *space, *path, *order, *trace;
    uint64_t array_bytes, stride_bytes, physical_bytes;
    long long iterations, warmup, element_bytes;
    bool average;
} opt;

const gs_opt gs_probe_pchase_opts[] = {
    {"space", GS_OPT_CHOICE, &opt.space, "SPACE", "memory space (default global)",
     "global|shared|constant|local|texture", 0, 0},
    {"path", GS_OPT_STRING, &opt.path, "PATH",
     "load path: default, ca, cg, cv, nc, tex, const, shared, local (default default)", NULL, 0, 0},
    {"array", GS_OPT_BYTES, &opt.array_bytes, "BYTES", "array size N (default 16KB)", NULL, 0, 0},
    {"stride", GS_OPT_BYTES, &opt.stride_bytes, "BYTES", "stride s (default 128B)", NULL, 0, 0},
    {"iterations", GS_OPT_INT, &opt.iterations, "K",
     "accesses recorded (fine-grained) or timed (--average); default 2 passes, capped by the "
     "trace buffer", NULL, 1, 1000000000},
    {"warmup", GS_OPT_INT, &opt.warmup, "PASSES", "warm-up passes before timing (default 1)",
     NULL, 0, 1000},
    {"element", GS_OPT_INT, &opt.element_bytes, "BYTES", "element width, 4 or 8 (default 4)",
     NULL, 4, 8},
    {"order", GS_OPT_CHOICE, &opt.order, "ORDER", "stride walk or Sattolo random walk",
     "stride|sattolo", 0, 0},
    {"physical", GS_OPT_BYTES, &opt.physical_bytes, "BYTES",
     "physical memory behind the array when smaller (aliasing, for TLB walks)", NULL, 0, 0},
    {"average", GS_OPT_FLAG, &opt.average, NULL, "time the accesses as one block (Listing 2)",
     NULL, 0, 0},
    {"trace", GS_OPT_STRING, &opt.trace, "FILE", "write the raw trace as CSV", NULL, 0, 0},
    GS_OPT_END,
};

static void reset_opts(const gs_probe_ctx *ctx)
{
    memset(&opt, 0, sizeof opt);
    opt.space = "global";
    opt.path = "default";
    opt.order = "stride";
    opt.array_bytes = 16384;
    opt.stride_bytes = 128;
    opt.warmup = 1;
    opt.element_bytes = 4;
    (void)ctx;
}

static int parse_space(const char *name, gs_space *out)
{
    static const char *const names[] = {"global", "shared", "constant", "local", "texture"};
    for (int i = 0; i < 5; i++)
        if (strcmp(name, names[i]) == 0)
            return *out = (gs_space)i, 0;
    return -1;
}

static int check_opts(gs_space *space, gs_load_path *path, gs_error *err)
{
    if (parse_space(opt.space, space))
        return gs_fail(err, GS_ERR_USAGE, "--space %s: use global, shared, constant, local or "
                       "texture", opt.space);
    if (gs_path_parse(opt.path, path))
        return gs_fail(err, GS_ERR_USAGE, "--path %s: use default, ca, cg, cv, nc, tex, const, "
                       "shared or local", opt.path);
    if (opt.element_bytes != 4 && opt.element_bytes != 8)
        return gs_fail(err, GS_ERR_USAGE, "--element %lld: use 4 or 8", opt.element_bytes);
    if (opt.stride_bytes == 0 || opt.stride_bytes % (uint64_t)opt.element_bytes)
        return gs_fail(err, GS_ERR_USAGE, "--stride %llu: use a multiple of the %lld-byte element",
                       (unsigned long long)opt.stride_bytes, opt.element_bytes);
    if (opt.array_bytes < opt.stride_bytes)
        return gs_fail(err, GS_ERR_USAGE, "--array %llu is smaller than --stride %llu",
                       (unsigned long long)opt.array_bytes, (unsigned long long)opt.stride_bytes);
    if (opt.array_bytes / opt.stride_bytes > (1ull << 28))
        return gs_fail(err, GS_ERR_USAGE, "--array / --stride gives more than 2^28 elements; use "
                       "a larger --stride");
    if (opt.trace)
        return gs_outfile_check(opt.trace, "--trace", err);
    return 0;
}

static void record(gs_probe_ctx *ctx, const gs_chase_plan *plan, const gs_chase_result *r,
                   const uint64_t *chain)
{
    gs_probe_out *p = gs_run_add_probe(ctx->run, "pchase");
    gs_param_string(p, "space", gs_space_name(plan->space));
    gs_param_string(p, "path", gs_path_name(plan->path));
    gs_param_int(p, "array_bytes", (long long)opt.array_bytes);
    gs_param_int(p, "stride_bytes", (long long)opt.stride_bytes);
    gs_param_string(p, "order", opt.order);
    gs_param_int(p, "warmup_passes", plan->warmup_passes);
    gs_param_int(p, "record_capacity", (long long)r->record_capacity);
    size_t n = r->recorded;
    const char *m = opt.average ? "total cycles / accesses (Listing 2)"
                                : "mean of the recorded latencies (Listing 4)";
    size_t count = opt.average ? plan->timed_accesses : n;
    gs_figure(p, "avg_latency_cycles", r->avg_cycles, "cycles", 0, count, m);
    gs_figure(p, "avg_latency_ns", r->avg_ns > 0 ? r->avg_ns : gs_cycles_to_ns(ctx, r->avg_cycles),
              "ns", 0, count, m);
    if (n == 0)
        return;
    double *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y);
    if (!x || !y) {
        free(x);
        free(y);
        return;
    }
    for (size_t i = 0; i < n; i++) {
        x[i] = (double)chain[i % plan->chain_len];
        y[i] = r->latency_cycles[i];
    }
    gs_summary s = gs_summarize(y, n);
    const char *tm = "fine-grained trace (Listing 4)";
    gs_figure(p, "median_latency_cycles", s.median, "cycles", s.ci95, s.n, tm);
    gs_figure(p, "min_latency_cycles", s.min, "cycles", 0, s.n, tm);
    gs_figure(p, "max_latency_cycles", s.max, "cycles", 0, s.n, tm);
    gs_series(p, "trace", "offset", "B", "latency", "cycles", x, y, n);
    free(x);
    free(y);
}

static int gs_probe_pchase_run(gs_probe_ctx *ctx, gs_error *err)
{
    reset_opts(ctx);
    gs_space space = GS_SPACE_GLOBAL;
    gs_load_path path = GS_PATH_DEFAULT;
    int rc = gs_probe_parse_opts(ctx, gs_probe_pchase_opts, err);
    if (!rc)
        rc = check_opts(&space, &path, err);
    if (rc)
        return rc;
    uint64_t count = opt.array_bytes / opt.stride_bytes;
    uint64_t *chain = malloc(count * sizeof *chain);
    if (!chain)
        return gs_fail(err, GS_ERR_NO_MEMORY, "out of host memory for %llu chain entries",
                       (unsigned long long)count);
    gs_rng rng;
    gs_rng_seed(&rng, ctx->seed);
    if (strcmp(opt.order, "sattolo") == 0)
        gs_chain_sattolo(&rng, count, opt.stride_bytes, chain);
    else
        gs_chain_stride(count, opt.stride_bytes, chain);
    uint64_t k = opt.iterations ? (uint64_t)opt.iterations : 2 * count;
    gs_chase_plan plan = {.space = space, .path = path, .footprint_bytes = opt.array_bytes,
                          .physical_bytes = opt.physical_bytes, .chain = chain,
                          .chain_len = count, .element_bytes = (unsigned)opt.element_bytes,
                          .warmup_passes = (unsigned)opt.warmup, .carveout_percent = -1};
    uint32_t probe_buf[1];
    gs_chase_result r = {.latency_cycles = probe_buf};
    uint32_t *lat = NULL;
    if (opt.average) {
        plan.timed_accesses = k;
    } else {
        /* Learn the trace capacity with a one-entry chase, then record up to it. */
        plan.record_n = 1;
        rc = ctx->backend->ops->chase(ctx->backend, &plan, &r, err);
        plan.record_n = k < r.record_capacity ? k : r.record_capacity;
        lat = rc ? NULL : malloc((plan.record_n ? plan.record_n : 1) * sizeof *lat);
        if (!rc && !lat)
            rc = gs_fail(err, GS_ERR_NO_MEMORY, "out of host memory for the trace");
        r = (gs_chase_result){.latency_cycles = lat};
    }
    gs_progress(ctx, "pchase: %s/%s, %llu elements of stride %llu B", opt.space, opt.path,
                (unsigned long long)count, (unsigned long long)opt.stride_bytes);
    if (!rc)
        rc = ctx->backend->ops->chase(ctx->backend, &plan, &r, err);
    if (!rc) {
        record(ctx, &plan, &r, chain);
        if (opt.trace && r.recorded)
            rc = gs_trace_csv_write(opt.trace, chain, count, lat, r.recorded, err);
    }
    free(lat);
    free(chain);
    return rc;
}

/* The probe's descriptor (probe.h). */
const gs_probe_def gs_probe_pchase_def = {
    .name = "pchase",
    .run = gs_probe_pchase_run,
    .flags = 0,
    .summary = "one pointer chase (space, path, array, stride, warm-up); summary and raw trace "
               "(--trace)",
    .opts = gs_probe_pchase_opts,
    .expected_s = 0.1,
    .expected_sim_s = 0.05,
    .keep_rank = 0,
    .hints = {},
};
