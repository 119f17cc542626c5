/* Probe `cluster`: Hopper's thread-block clusters (compute capability 9.0+).
 * Distributed shared memory: for cluster sizes 2, 4, 8 and 16 (16 is the non-portable size, which
 * the device may refuse), whether the size can be launched and how many clusters fit at once
 * (cudaOccupancyMaxActiveClusters); the latency of a pointer chase by one thread of rank 0 in the
 * shared memory of each rank of its cluster (rank 0 its own, through ld.shared::cluster) against a
 * plain ld.shared chase; and the rate at which every block of every cluster reads its neighbour's
 * (rank + 1) shared memory, total and per SM, against each block reading its own. Bulk copies:
 * global -> shared with cp.async.bulk on an mbarrier (the TMA engine, 1D), with
 * cp.async.bulk.tensor.2d through a tensor map (2D boxes of a matrix), and with 16-byte loads and
 * st.shared of the same bytes, over a DRAM-sized and an L2-sized footprint; and the latency of
 * one bulk copy (TMA 1D) of 128 B to 16 KB from the L2, issue to the mbarrier's completion, by
 * one thread, against one warp loading the same bytes with 16-byte loads, and against one 2D
 * tensor-map copy (TMA 2D) of a box of the same bytes (rows of 256 B). Every figure of a
 * device without clusters (or a simulator model without a "cluster" section) is not determined
 * with the reason "not applicable (...)". Usage: gpusonar run cluster [--repeats N] ... */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "analysis/cluster_latency.h"
#include "analysis/stats.h"
#include "probes/probe.h"
#include "util/interrupt.h"

#define MAX_REPEATS 1000
#define SIZES 4
#define MAX_SIZE 16

static const unsigned sizes[SIZES] = {2, 4, 8, 16};

static struct {
    long long repeats;
    long long accesses;
    uint64_t chain_bytes;
    uint64_t read_bytes;
    uint64_t dram_bytes;
    uint64_t l2_bytes;
} opt;

const gs_opt gs_probe_cluster_opts[] = {
    {"repeats", GS_OPT_INT, &opt.repeats, "N",
     "timed repetitions of each measurement (default 7, 21 with --thorough)", NULL, 2,
     MAX_REPEATS},
    {"accesses", GS_OPT_INT, &opt.accesses, "N",
     "timed loads of each latency repetition (default 2048)", NULL, 16, 1 << 24},
    {"chain-bytes", GS_OPT_BYTES, &opt.chain_bytes, "BYTES",
     "shared memory each block's chain spans, 128-byte stride (default 32 KB)", NULL, 0, 0},
    {"read-bytes", GS_OPT_BYTES, &opt.read_bytes, "BYTES",
     "bytes each block reads from shared memory per bandwidth repetition (default 32 MB)",
     NULL, 0, 0},
    {"dram-bytes", GS_OPT_BYTES, &opt.dram_bytes, "BYTES",
     "footprint of the DRAM-sized bulk copies (default 1 GB, at most 1/4 of free memory)",
     NULL, 0, 0},
    {"l2-bytes", GS_OPT_BYTES, &opt.l2_bytes, "BYTES",
     "footprint of the L2-sized bulk copies (default 16 MB, at most a third of the L2)", NULL,
     0, 0},
    GS_OPT_END,
};


#define CHAIN_STRIDE 128
#define SMEM_READ_ARRAY (64u << 10)      /* each block's shared array for the bandwidth kind */
#define COPY_BAND (256u << 10)           /* copy footprints: whole bands of the tensor map's boxes */

static const char *const latency_method =
    "one thread of rank 0 chases a 128-byte-stride chain in the rank's shared memory (mapa + "
    "ld.shared::cluster, one add per hop); median over repetitions of clock64 cycles per load";
static const char *const bandwidth_method =
    "every block of as many clusters as fit at once reads, with 16-byte ld.shared::cluster "
    "loads, the shared memory of rank (own + distance) % size; bytes / (latest end - earliest "
    "start, globaltimer), median over repetitions; per SM = total / distinct SMs that ran";

/* The transfer sizes of the latency of one copy (gs_cluster_transfer_bytes: 128 B to 16 KB, a
 * bulk copy's largest being one 16 KB chunk). Figure k of a size: TRANSFER_KINDS latencies
 * (bulk, load, tensor), then the ratios bulk / load and tensor / bulk. */
#define TRANSFER_SIZES GS_CLUSTER_TRANSFER_SIZES
#define TRANSFER_KINDS 3
#define TRANSFER_FIGURES 5
static void transfer_name(char *buf, size_t len, int k, unsigned bytes)
{
    static const char *const fmt[TRANSFER_FIGURES] = {
        "bulk_%ub_latency_cycles", "load_%ub_latency_cycles", "tensor_%ub_latency_cycles",
        "bulk_over_load_%ub_latency", "tensor_over_bulk_%ub_latency"};
    snprintf(buf, len, fmt[k], bytes);
}

/* The figures of a device the probe cannot measure: not determined with why. */
static void not_applicable(gs_probe_out *p, const char *why)
{
    static const char *const names[] = {
        "max_cluster_size", "local_smem_latency_cycles", "local_smem_gbps_per_sm",
        "bulk_copy_dram_gbps", "vector_copy_dram_gbps", "tensor_copy_dram_gbps",
        "bulk_copy_l2_gbps", "vector_copy_l2_gbps", "tensor_copy_l2_gbps"};
    char name[64];
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        gs_figure_nd(p, names[i], "", "thread-block clusters", "not applicable (%s)", why);
    for (int t = 0; t < TRANSFER_SIZES; t++)
        for (int k = 0; k < TRANSFER_FIGURES; k++) {
            transfer_name(name, sizeof name, k, gs_cluster_transfer_bytes(t));
            gs_figure_nd(p, name, k < TRANSFER_KINDS ? "cycles" : "", "one transfer's latency",
                         "not applicable (%s)", why);
        }
    for (int s = 0; s < SIZES; s++) {
        snprintf(name, sizeof name, "cluster_%u_remote_latency_cycles", sizes[s]);
        gs_figure_nd(p, name, "cycles", latency_method, "not applicable (%s)", why);
        snprintf(name, sizeof name, "cluster_%u_remote_gbps_per_sm", sizes[s]);
        gs_figure_nd(p, name, "GB/s", bandwidth_method, "not applicable (%s)", why);
    }
}

/* Run one plan; its samples summarised into *sum (cycles, or GB/s for the timed kinds) and the
 * result's counts into *r. GS_ERR_UNSUPPORTED is returned as is, for the caller's figure. */
static int measure(gs_probe_ctx *ctx, gs_cluster_plan *plan, gs_cluster_result *r,
                   gs_summary *sum, gs_error *err)
{
    double values[MAX_REPEATS], sample[MAX_REPEATS];
    if (gs_interrupted())
        return gs_fail(err, GS_ERR_INTERRUPTED, "interrupted");
    plan->repeats = (unsigned)opt.repeats;
    *r = (gs_cluster_result){.values = values};
    int rc = ctx->backend->ops->cluster(ctx->backend, plan, r, err);
    if (rc)
        return rc;
    bool cycles = plan->kind == GS_CLUSTER_LATENCY || plan->kind == GS_CLUSTER_LOCAL_LATENCY ||
                  plan->kind == GS_CLUSTER_BULK_LATENCY || plan->kind == GS_CLUSTER_LOAD_LATENCY ||
                  plan->kind == GS_CLUSTER_TENSOR_LATENCY;
    for (size_t s = 0; s < r->n; s++)
        sample[s] = cycles ? values[s]
                  : values[s] > 0 ? (double)r->bytes_moved / values[s] * 1e-9 : NAN;
    *sum = gs_summarize_robust(sample, r->n, 5);
    r->values = NULL;
    return 0;
}

/* A kind the device refuses becomes a figure not determined with the backend's reason. */
static int nd_if_unsupported(int rc, gs_probe_out *p, const char *name, const char *unit,
                             const char *method, gs_error *err)
{
    if (rc != GS_ERR_UNSUPPORTED)
        return rc;
    gs_figure_nd(p, name, unit, method, "%s", err->msg);
    gs_error_clear(err);
    return 0;
}

static int latency_by_rank(gs_probe_ctx *ctx, gs_probe_out *p, unsigned size, double local,
                           gs_error *err)
{
    double by_rank[MAX_SIZE], x[MAX_SIZE], tolerance = 0;
    char name[80];
    for (unsigned d = 0; d < size; d++) {
        gs_cluster_plan plan = {.kind = GS_CLUSTER_LATENCY, .cluster_size = size, .rank = d,
                                .smem_bytes = opt.chain_bytes, .stride_bytes = CHAIN_STRIDE,
                                .accesses = (uint64_t)opt.accesses};
        gs_cluster_result r;
        gs_summary sum;
        snprintf(name, sizeof name, "cluster_%u_rank_%u_latency_cycles", size, d);
        x[d] = d;
        by_rank[d] = NAN;
        int rc = measure(ctx, &plan, &r, &sum, err);
        if (rc) {
            if ((rc = nd_if_unsupported(rc, p, name, "cycles", latency_method, err)))
                return rc;
            continue;
        }
        gs_figure(p, name, sum.median, "cycles", sum.ci95, sum.n, latency_method);
        by_rank[d] = sum.median;
        tolerance = fmax(tolerance, 2 * sum.ci95 + 1);
    }
    snprintf(name, sizeof name, "cluster_%u_latency_by_rank", size);
    gs_series(p, name, "rank", "", "latency", "cycles", x, by_rank, size);
    gs_cluster_latency s;
    char remote[80], spread[80], ratio[80];
    snprintf(remote, sizeof remote, "cluster_%u_remote_latency_cycles", size);
    snprintf(spread, sizeof spread, "cluster_%u_remote_spread_cycles", size);
    snprintf(ratio, sizeof ratio, "cluster_%u_remote_over_local", size);
    if (gs_cluster_latency_summarize(by_rank, size, local, tolerance, &s)) {
        gs_figure_nd(p, remote, "cycles", latency_method, "no remote rank was measured");
        return 0;
    }
    gs_figure(p, remote, s.remote_median, "cycles", 0, s.remote_ranks,
              "median over ranks 1..size-1 of cluster_<size>_rank_<r>_latency_cycles");
    gs_figure(p, spread, s.remote_spread, "cycles", 0, s.remote_ranks,
              "largest minus smallest remote rank latency (above the noise: some ranks are "
              "farther)");
    if (isfinite(s.remote_over_local))
        gs_figure(p, ratio, s.remote_over_local, "", 0, s.remote_ranks,
                  "remote latency / local_smem_latency_cycles");
    else
        gs_figure_nd(p, ratio, "", "remote / local latency", "the local latency is unknown");
    return 0;
}

/* Reads of the shared memory at rank distance d by every block; total and per-SM GB/s. */
static int read_rate(gs_probe_ctx *ctx, unsigned size, unsigned d, double *total,
                     double *per_sm, gs_summary *sum, gs_error *err)
{
    gs_cluster_plan plan = {.kind = GS_CLUSTER_BANDWIDTH, .cluster_size = size, .rank = d,
                            .smem_bytes = SMEM_READ_ARRAY, .bytes = opt.read_bytes};
    gs_cluster_result r;
    int rc = measure(ctx, &plan, &r, sum, err);
    if (rc)
        return rc;
    *total = sum->median;
    *per_sm = r.sms_used ? sum->median / r.sms_used : NAN;
    return 0;
}

static int remote_bandwidth(gs_probe_ctx *ctx, gs_probe_out *p, unsigned size, double local_sm,
                            gs_error *err)
{
    double total, per_sm;
    gs_summary sum;
    char name[80];
    snprintf(name, sizeof name, "cluster_%u_remote_gbps_per_sm", size);
    int rc = read_rate(ctx, size, 1, &total, &per_sm, &sum, err);
    if (rc)
        return nd_if_unsupported(rc, p, name, "GB/s", bandwidth_method, err);
    gs_figure(p, name, per_sm, "GB/s", total > 0 ? sum.ci95 * per_sm / total : 0, sum.n,
              bandwidth_method);
    snprintf(name, sizeof name, "cluster_%u_remote_gbps", size);
    gs_figure(p, name, total, "GB/s", sum.ci95, sum.n, bandwidth_method);
    snprintf(name, sizeof name, "cluster_%u_remote_over_local_gbps", size);
    if (isfinite(local_sm) && local_sm > 0)
        gs_figure(p, name, per_sm / local_sm, "", 0, sum.n,
                  "remote GB/s per SM / local_smem_gbps_per_sm");
    return 0;
}

/* One cluster size: can it launch, how many fit, latency by rank, neighbour reads. */
static int measure_size(gs_probe_ctx *ctx, gs_probe_out *p, unsigned size, double local,
                        double local_sm, gs_error *err)
{
    gs_cluster_plan plan = {.kind = GS_CLUSTER_QUERY, .cluster_size = size,
                            .smem_bytes = SMEM_READ_ARRAY};
    gs_cluster_result r = {0};
    char name[80];
    gs_progress(ctx, "cluster: size %u", size);
    int rc = ctx->backend->ops->cluster(ctx->backend, &plan, &r, err);
    if (rc)
        return rc;
    snprintf(name, sizeof name, "cluster_%u_allowed", size);
    gs_figure(p, name, r.allowed, "", 0, 1, size > 8
              ? "cudaFuncAttributeNonPortableClusterSizeAllowed set, then "
                "cudaOccupancyMaxActiveClusters > 0 (1 allowed, 0 refused)"
              : "cudaOccupancyMaxActiveClusters > 0 (1 allowed, 0 refused)");
    snprintf(name, sizeof name, "cluster_%u_max_active_clusters", size);
    if (!r.allowed) {
        gs_figure_nd(p, name, "clusters", "cudaOccupancyMaxActiveClusters", "not allowed: %s",
                     r.why);
        snprintf(name, sizeof name, "cluster_%u_remote_latency_cycles", size);
        gs_figure_nd(p, name, "cycles", latency_method, "not allowed: %s", r.why);
        snprintf(name, sizeof name, "cluster_%u_remote_gbps_per_sm", size);
        gs_figure_nd(p, name, "GB/s", bandwidth_method, "not allowed: %s", r.why);
        return 0;
    }
    gs_figure(p, name, r.max_active_clusters, "clusters", 0, 1,
              "cudaOccupancyMaxActiveClusters for the bandwidth kernel (1024 threads, 64 KB of "
              "shared memory per block)");
    rc = latency_by_rank(ctx, p, size, local, err);
    return rc ? rc : remote_bandwidth(ctx, p, size, local_sm, err);
}

/* The plain local baselines: ld.shared latency and each block reading its own shared memory. */
static int local_baselines(gs_probe_ctx *ctx, gs_probe_out *p, double *local, double *local_sm,
                           gs_error *err)
{
    gs_cluster_plan plan = {.kind = GS_CLUSTER_LOCAL_LATENCY, .cluster_size = 2,
                            .smem_bytes = opt.chain_bytes, .stride_bytes = CHAIN_STRIDE,
                            .accesses = (uint64_t)opt.accesses};
    gs_cluster_result r;
    gs_summary sum;
    double total;
    *local = *local_sm = NAN;
    int rc = measure(ctx, &plan, &r, &sum, err);
    if (rc && (rc = nd_if_unsupported(rc, p, "local_smem_latency_cycles", "cycles",
                                      "plain ld.shared chase", err)))
        return rc;
    if (!rc && r.n) {
        *local = sum.median;
        gs_figure(p, "local_smem_latency_cycles", sum.median, "cycles", sum.ci95, sum.n,
                  "one thread chases the same chain in its own shared memory with plain "
                  "ld.shared (one add per hop); median over repetitions of cycles per load");
    }
    rc = read_rate(ctx, 2, 0, &total, local_sm, &sum, err);
    if (rc)
        return nd_if_unsupported(rc, p, "local_smem_gbps_per_sm", "GB/s", bandwidth_method, err);
    gs_figure(p, "local_smem_gbps_per_sm", *local_sm, "GB/s",
              total > 0 ? sum.ci95 * *local_sm / total : 0, sum.n,
              "as cluster_<size>_remote_gbps_per_sm at distance 0 (each block its own shared "
              "memory, through ld.shared::cluster), cluster size 2");
    return 0;
}

/* The copy kinds: figure stem, plan kind, method. */
static const struct {
    const char *what;
    gs_cluster_kind kind;
    const char *method;
} copy_kinds[] = {
    {"bulk", GS_CLUSTER_BULK_COPY,
     "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes, 16 KB chunks, 4 in "
     "flight per block, 2 blocks per SM; bytes / kernel time (events), median over repetitions"},
    {"vector", GS_CLUSTER_VECTOR_COPY,
     "16-byte ld.global and st.shared by 512 threads per block, 2 chunks in flight per thread; "
     "bytes / kernel time (events), median over repetitions"},
    {"tensor", GS_CLUSTER_TENSOR_COPY,
     "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes through a "
     "CUtensorMap (cuTensorMapEncodeTiled: u32 matrix of 4 KB rows, 64 x 64 boxes of 16 KB, no "
     "swizzle, 256 B L2 promotion), 4 in flight per block, 2 blocks per SM, the footprint in "
     "whole 256 KB bands; bytes / kernel time (events), median over repetitions"},
};
enum { COPY_KINDS = sizeof copy_kinds / sizeof copy_kinds[0] };

/* Bulk (TMA 1D), tensor (TMA 2D) and vectorized copies of one footprint; their GB/s and the
 * ratios of the two TMA copies to the vector one and of the 2D to the 1D. */
static int copies(gs_probe_ctx *ctx, gs_probe_out *p, const char *level, uint64_t bytes,
                  gs_error *err)
{
    double gbps[COPY_KINDS] = {NAN, NAN, NAN};
    char name[80];
    gs_progress(ctx, "cluster: bulk, vector and tensor-map copies, %s footprint", level);
    for (int k = 0; k < COPY_KINDS; k++) {
        gs_cluster_plan plan = {.kind = copy_kinds[k].kind, .bytes = bytes,
                                .traffic_bytes = 1ull << 30};
        gs_cluster_result r;
        gs_summary sum;
        snprintf(name, sizeof name, "%s_copy_%s_gbps", copy_kinds[k].what, level);
        int rc = measure(ctx, &plan, &r, &sum, err);
        if (rc) {
            if ((rc = nd_if_unsupported(rc, p, name, "GB/s", copy_kinds[k].method, err)))
                return rc;
            continue;
        }
        gs_figure(p, name, sum.median, "GB/s", sum.ci95, sum.n, copy_kinds[k].method);
        gbps[k] = sum.median;
    }
    static const int ratios[][2] = {{0, 1}, {2, 1}, {2, 0}};
    for (size_t i = 0; i < sizeof ratios / sizeof ratios[0]; i++) {
        double num = gbps[ratios[i][0]], den = gbps[ratios[i][1]];
        const char *a = copy_kinds[ratios[i][0]].what, *b = copy_kinds[ratios[i][1]].what;
        char method[96];
        snprintf(name, sizeof name, "%s_over_%s_%s", a, b, level);
        snprintf(method, sizeof method, "%s_copy GB/s / %s_copy GB/s, same footprint", a, b);
        if (isfinite(num) && isfinite(den) && den > 0)
            gs_figure(p, name, num / den, "", 0, (size_t)opt.repeats, method);
    }
    return 0;
}

static const char *const transfer_method[TRANSFER_KINDS] = {
    "one thread: mbarrier.arrive.expect_tx then one cp.async.bulk global -> shared of the "
    "bytes, waiting on the mbarrier (try_wait.parity); the same source every time (in the L2 "
    "after 4 untimed copies); median over repetitions of clock64 cycles from before the "
    "expect_tx to after the wait",
    "one warp: the same bytes with 16-byte ld.global.cg (the L2) and st.shared, up to 8 loads "
    "in flight per lane; median over repetitions of lane 0's clock64 cycles from before the "
    "first load to after the warp's last store (__syncwarp)",
    "one thread: mbarrier.arrive.expect_tx then one cp.async.bulk.tensor.2d of a box of the "
    "bytes (u32, rows of 256 B, or one row under 256 B) of a matrix of 4 KB rows through a "
    "CUtensorMap (cuTensorMapEncodeTiled, no swizzle), waiting on the mbarrier; the same box "
    "every time (in the L2 after 4 untimed copies); median over repetitions of clock64 cycles "
    "from before the expect_tx to after the wait"};

/* Ratio figure k (TRANSFER_KINDS + i) of one size: numerator and denominator kinds. */
static const int transfer_ratio[TRANSFER_FIGURES - TRANSFER_KINDS][2] = {{0, 1}, {2, 0}};
static const char *const transfer_ratio_method[TRANSFER_FIGURES - TRANSFER_KINDS] = {
    "bulk copy latency / vector-load latency, same bytes",
    "tensor-map (2D) copy latency / bulk (1D) copy latency, same bytes"};
static const char *const transfer_what[TRANSFER_KINDS] = {"bulk copy", "load", "tensor-map copy"};

/* The latencies and their ratios of one transfer size. */
static int transfer_size(gs_probe_ctx *ctx, gs_probe_out *p, unsigned bytes, gs_error *err)
{
    static const gs_cluster_kind kinds[TRANSFER_KINDS] = {
        GS_CLUSTER_BULK_LATENCY, GS_CLUSTER_LOAD_LATENCY, GS_CLUSTER_TENSOR_LATENCY};
    double median[TRANSFER_KINDS] = {NAN, NAN, NAN};
    size_t n[TRANSFER_KINDS] = {0, 0, 0};
    char name[80];
    for (int k = 0; k < TRANSFER_KINDS; k++) {
        gs_cluster_plan plan = {.kind = kinds[k], .bytes = bytes};
        gs_cluster_result r;
        gs_summary sum;
        transfer_name(name, sizeof name, k, bytes);
        int rc = measure(ctx, &plan, &r, &sum, err);
        if (rc) {
            if ((rc = nd_if_unsupported(rc, p, name, "cycles", transfer_method[k], err)))
                return rc;
            continue;
        }
        gs_figure(p, name, sum.median, "cycles", sum.ci95, sum.n, transfer_method[k]);
        median[k] = sum.median;
        n[k] = sum.n;
    }
    for (int i = 0; i < TRANSFER_FIGURES - TRANSFER_KINDS; i++) {
        int a = transfer_ratio[i][0], b = transfer_ratio[i][1];
        transfer_name(name, sizeof name, TRANSFER_KINDS + i, bytes);
        if (isfinite(median[a]) && isfinite(median[b]) && median[b] > 0)
            gs_figure(p, name, median[a] / median[b], "", 0, n[a] < n[b] ? n[a] : n[b],
                      transfer_ratio_method[i]);
        else
            gs_figure_nd(p, name, "", transfer_ratio_method[i], "the %s latency was not measured",
                         transfer_what[isfinite(median[a]) ? b : a]);
    }
    return 0;
}

/* The latency of one TMA bulk copy (1D) and one tensor-map copy (2D) against one warp's vector
 * loads of the same bytes, per transfer size, all from the L2. */
static int transfers(gs_probe_ctx *ctx, gs_probe_out *p, gs_error *err)
{
    int rc = 0;
    gs_progress(ctx, "cluster: one bulk and one tensor-map copy's latency against vector loads, "
                "128 B to 16 KB");
    for (int t = 0; t < TRANSFER_SIZES && !rc; t++)
        rc = transfer_size(ctx, p, gs_cluster_transfer_bytes(t), err);
    return rc;
}

static int parse(gs_probe_ctx *ctx, gs_error *err)
{
    opt.repeats = ctx->thorough ? 21 : 7;
    opt.accesses = 2048;
    opt.chain_bytes = 32u << 10;
    opt.read_bytes = 32ull << 20;
    opt.dram_bytes = 1ull << 30;
    if (ctx->info->global_mem_free_bytes && opt.dram_bytes > ctx->info->global_mem_free_bytes / 4)
        opt.dram_bytes = ctx->info->global_mem_free_bytes / 4;
    opt.l2_bytes = 16ull << 20;
    if (ctx->info->l2_bytes && opt.l2_bytes > ctx->info->l2_bytes / 3)
        opt.l2_bytes = ctx->info->l2_bytes / 3;
    if (opt.l2_bytes < COPY_BAND)        /* an L2 under 768 KB: no device with clusters */
        opt.l2_bytes = COPY_BAND;
    int rc = gs_probe_parse_opts(ctx, gs_probe_cluster_opts, err);
    if (rc)
        return rc;
    /* whole 256 KB bands: the tensor copy's boxes tile them exactly, and every copy kind moves
     * the same footprint */
    opt.l2_bytes = opt.l2_bytes / COPY_BAND * COPY_BAND;
    opt.dram_bytes = opt.dram_bytes / COPY_BAND * COPY_BAND;
    if (opt.chain_bytes < 2 * CHAIN_STRIDE || opt.chain_bytes > (48u << 10) ||
        opt.read_bytes < SMEM_READ_ARRAY || opt.l2_bytes == 0 || opt.dram_bytes == 0)
        return gs_fail(err, GS_ERR_USAGE, "cluster: --chain-bytes must be 256 B..48 KB, "
                       "--read-bytes at least 64 KB, --l2-bytes and --dram-bytes at least 256 KB");
    return 0;
}

static int gs_probe_cluster_run(gs_probe_ctx *ctx, gs_error *err)
{
    int rc = parse(ctx, err);
    if (rc)
        return rc;
    gs_probe_out *p = gs_run_add_probe(ctx->run, "cluster");
    gs_param_int(p, "repeats", opt.repeats);
    gs_param_int(p, "accesses", opt.accesses);
    gs_param_int(p, "chain_bytes", (long long)opt.chain_bytes);
    gs_param_int(p, "read_bytes", (long long)opt.read_bytes);
    gs_param_int(p, "dram_bytes", (long long)opt.dram_bytes);
    gs_param_int(p, "l2_bytes", (long long)opt.l2_bytes);
    char why[sizeof err->msg];
    if (!ctx->backend->ops->cluster) {
        not_applicable(p, "the backend has no cluster operations");
        return 0;
    }
    if (ctx->info->cc_major < 9) {
        snprintf(why, sizeof why, "needs compute capability 9.0+; this device is %d.%d",
                 ctx->info->cc_major, ctx->info->cc_minor);
        not_applicable(p, why);
        return 0;
    }
    gs_cluster_plan q = {.kind = GS_CLUSTER_QUERY, .cluster_size = 2,
                         .smem_bytes = SMEM_READ_ARRAY};
    gs_cluster_result r = {0};
    rc = gs_probe_unsupported_why(ctx->backend->ops->cluster(ctx->backend, &q, &r, err), err,
                                  why, sizeof why);
    if (rc || why[0]) {
        if (why[0])
            not_applicable(p, why);
        return rc;
    }
    gs_figure(p, "max_cluster_size", r.max_cluster_size, "blocks", 0, 1,
              "cudaOccupancyMaxPotentialClusterSize with the non-portable size allowed");
    double local, local_sm;
    rc = local_baselines(ctx, p, &local, &local_sm, err);
    for (int s = 0; s < SIZES && !rc; s++)
        rc = measure_size(ctx, p, sizes[s], local, local_sm, err);
    if (!rc)
        rc = copies(ctx, p, "dram", opt.dram_bytes, err);
    if (!rc)
        rc = copies(ctx, p, "l2", opt.l2_bytes, err);
    return rc ? rc : transfers(ctx, p, err);
}

/* The probe's descriptor (probe.h). */
static const char *const headline[] = {"max_cluster_size", "local_smem_*", "cluster_*_remote_latency_cycles", "cluster_*_remote_gbps", NULL};
const gs_probe_def gs_probe_cluster_def = {
    .name = "cluster",
    .run = gs_probe_cluster_run,
    .flags = 0,
    .summary = "Hopper clusters: distributed shared-memory latency by rank and GB/s, TMA bulk vs "
               "vector copies, one bulk and one tensor-map copy's latency",
    .opts = gs_probe_cluster_opts,
    .expected_s = 0.2,
    .expected_sim_s = 0.05,
    .keep_rank = 0,
    .hints = {.headline = headline},
};
