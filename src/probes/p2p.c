/* Probe `p2p`: the GPUs of one node to each other, as nvbandwidth measures them, inside a gpusonar
 * document. For every ordered pair (i, j), i != j, of the node's devices (data from i's memory to
 * j): whether j may access i's memory (and the link as the driver reports it: NVLink, PCIe, none,
 * its performance rank and native atomics), the copy-engine bandwidth (cudaMemcpyPeerAsync i -> j,
 * bytes / time), a copy kernel on j reading i's memory and one on i writing j's memory (GB/s,
 * median and ci95 over repetitions), and the latency of a pointer chase that one thread of j runs
 * in i's memory (ns per load). Figures are named p2p_<i>_<j>_<kind>; each kind also gives the
 * whole matrix (a figure list, row = source i, column = destination j, null on the diagonal) and
 * one series per source. On a node of one device, or a backend without peer operations, every
 * figure is not determined with the reason "not applicable". */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/stats.h"
#include "probes/probe.h"
#include "util/interrupt.h"

#define MAX_REPEATS 1000
#define MAX_DEVICES 64
#define MEASURED_KINDS 4                 /* ce, read, write, latency */

static struct {
    uint64_t bytes;
    uint64_t latency_bytes;
    uint64_t stride;
    long long accesses;
    long long repeats;
} opt;

const gs_opt gs_probe_p2p_opts[] = {
    {"bytes", GS_OPT_BYTES, &opt.bytes, "BYTES",
     "bytes of each copy (copy engine and kernels; default 256 MB, 1 GB with --thorough, at most "
     "1/4 of free memory)", NULL, 0, 0},
    {"latency-bytes", GS_OPT_BYTES, &opt.latency_bytes, "BYTES",
     "footprint of the chase in the peer's memory (default 64 MB)", NULL, 0, 0},
    {"stride", GS_OPT_BYTES, &opt.stride, "BYTES",
     "distance between consecutive loads of the chase (default 4 KB + 128 B)", NULL, 0, 0},
    {"accesses", GS_OPT_INT, &opt.accesses, "N",
     "timed loads per chase repetition (default 4096)", NULL, 16, 1 << 24},
    {"repeats", GS_OPT_INT, &opt.repeats, "N",
     "timed repetitions of each measurement (default 10, 30 with --thorough)", NULL, 2,
     MAX_REPEATS},
    GS_OPT_END,
};


static const struct {
    gs_p2p_kind kind;
    const char *name;             /* figure suffix */
    const char *unit;
    const char *method;
} kinds[MEASURED_KINDS] = {
    {GS_P2P_COPY_ENGINE, "ce_gbps", "GB/s",
     "copy engine: cudaMemcpyPeerAsync from i's memory to j's, issued on i; median over "
     "repetitions of bytes / time (events); without peer access the driver stages it through "
     "host memory"},
    {GS_P2P_KERNEL_READ, "read_gbps", "GB/s",
     "copy kernel on j loading i's memory over the peer mapping (a pull); median over repetitions "
     "of bytes / time (events)"},
    {GS_P2P_KERNEL_WRITE, "write_gbps", "GB/s",
     "copy kernel on i storing into j's memory over the peer mapping (a push); median over "
     "repetitions of bytes / time (events)"},
    {GS_P2P_LATENCY, "latency_ns", "ns",
     "one thread of j chases a strided chain in i's memory; median over repetitions of the mean "
     "time per dependent load (globaltimer)"},
};

/* Values of one ordered pair, NAN where not determined. */
typedef struct pair_values {
    double access;
    double value[MEASURED_KINDS];
} pair_values;

/* The figures of a node the probe cannot measure: every matrix, not determined with why. */
static void not_applicable(gs_probe_out *p, const char *why)
{
    char name[64];
    gs_figure_nd(p, "access_matrix", "", "cudaDeviceCanAccessPeer per ordered pair",
                 "not applicable: %s", why);
    for (int k = 0; k < MEASURED_KINDS; k++) {
        snprintf(name, sizeof name, "%s_matrix", kinds[k].name);
        gs_figure_nd(p, name, kinds[k].unit, kinds[k].method, "not applicable: %s", why);
    }
}

/* The access and link of pair (i, j) as the driver reports it; the pair's access into *v. */
static int query(gs_probe_ctx *ctx, gs_probe_out *p, int i, int j, pair_values *v, gs_error *err)
{
    gs_p2p_plan plan = {.kind = GS_P2P_QUERY, .src_device = i, .dst_device = j};
    gs_p2p_result r = {.performance_rank = -1, .native_atomics = -1};
    int rc = ctx->backend->ops->p2p(ctx->backend, &plan, &r, err);
    if (rc)
        return rc;
    char name[64], link[96];
    snprintf(name, sizeof name, "p2p_%d_%d_access", i, j);
    gs_figure(p, name, r.access_possible, "", 0, 1,
              "cudaDeviceCanAccessPeer(j, i): 1 if j may load and store i's memory");
    snprintf(name, sizeof name, "p2p_%d_%d_link", i, j);
    snprintf(link, sizeof link, "%s%s%s%s", r.link[0] ? r.link : "unknown",
             r.link_detail[0] ? " (" : "", r.link_detail, r.link_detail[0] ? ")" : "");
    gs_figure_text(p, name, link, 1, "as the driver reports it (NVML NVLink P2P status and PCIe "
                   "common ancestor on CUDA; the model's link on the simulator)");
    snprintf(name, sizeof name, "p2p_%d_%d_rank", i, j);
    if (r.performance_rank >= 0)
        gs_figure(p, name, r.performance_rank, "", 0, 1,
                  "cudaDevP2PAttrPerformanceRank (lower is a faster link)");
    else
        gs_figure_nd(p, name, "", "cudaDevP2PAttrPerformanceRank", "the backend did not say");
    snprintf(name, sizeof name, "p2p_%d_%d_native_atomics", i, j);
    if (r.native_atomics >= 0)
        gs_figure(p, name, r.native_atomics, "", 0, 1, "cudaDevP2PAttrNativeAtomicSupported");
    else
        gs_figure_nd(p, name, "", "cudaDevP2PAttrNativeAtomicSupported", "the backend did not say");
    v->access = r.access_possible;
    return 0;
}

/* Run one kind on pair (i, j); its figure, and its median into *value. A kind the pair cannot
 * run (no peer access) is a figure not determined with the backend's reason, not an error. */
static int measure(gs_probe_ctx *ctx, gs_probe_out *p, int i, int j, int k, double *value,
                   gs_error *err)
{
    double seconds[MAX_REPEATS], sample[MAX_REPEATS];
    bool latency = kinds[k].kind == GS_P2P_LATENCY;
    gs_p2p_plan plan = {.kind = kinds[k].kind, .src_device = i, .dst_device = j,
                        .bytes = latency ? opt.latency_bytes : opt.bytes,
                        .stride_bytes = opt.stride, .accesses = (uint64_t)opt.accesses,
                        .repeats = (unsigned)opt.repeats};
    gs_p2p_result r = {.seconds = seconds, .performance_rank = -1, .native_atomics = -1};
    char name[64];
    snprintf(name, sizeof name, "p2p_%d_%d_%s", i, j, kinds[k].name);
    *value = NAN;
    int rc = ctx->backend->ops->p2p(ctx->backend, &plan, &r, err);
    if (rc == GS_ERR_UNSUPPORTED) {
        gs_figure_nd(p, name, kinds[k].unit, kinds[k].method, "%s", err->msg);
        gs_error_clear(err);
        return 0;
    }
    if (rc)
        return rc;
    for (size_t s = 0; s < r.n; s++)
        sample[s] = latency ? seconds[s] * 1e9
                  : seconds[s] > 0 ? (double)r.bytes_moved / seconds[s] * 1e-9 : NAN;
    gs_summary sum = gs_summarize_robust(sample, r.n, 5);
    gs_figure(p, name, sum.median, kinds[k].unit, sum.ci95, sum.n, kinds[k].method);
    *value = sum.median;
    return 0;
}

static int measure_pair(gs_probe_ctx *ctx, gs_probe_out *p, int i, int j, pair_values *v,
                        gs_error *err)
{
    int rc = query(ctx, p, i, j, v, err);
    for (int k = 0; k < MEASURED_KINDS && !rc; k++) {
        if (gs_interrupted())
            return gs_fail(err, GS_ERR_INTERRUPTED, "interrupted");
        rc = measure(ctx, p, i, j, k, &v->value[k], err);
    }
    return rc;
}

/* The matrices (row-major, row = source) and one series per source and kind. */
static void record_matrices(gs_probe_out *p, int n, const pair_values *v)
{
    double *m = malloc((size_t)n * n * sizeof *m);
    double x[MAX_DEVICES];
    char name[64];
    if (!m)
        return;
    for (int c = 0; c < n; c++)
        x[c] = c;
    for (int at = 0; at < n * n; at++)
        m[at] = v[at].access;
    gs_figure_list(p, "access_matrix", m, (size_t)n * n, "", 1, "cudaDeviceCanAccessPeer per "
                   "ordered pair, row-major (row i = source, column j = destination), null on "
                   "the diagonal");
    for (int k = 0; k < MEASURED_KINDS; k++) {
        for (int at = 0; at < n * n; at++)
            m[at] = v[at].value[k];
        snprintf(name, sizeof name, "%s_matrix", kinds[k].name);
        gs_figure_list(p, name, m, (size_t)n * n, kinds[k].unit, (size_t)opt.repeats,
                       "the p2p_<i>_<j> medians, row-major (row i = source, column j = "
                       "destination), null on the diagonal and where not determined");
        for (int i = 0; i < n; i++) {
            snprintf(name, sizeof name, "%s_from_%d", kinds[k].name, i);
            gs_series(p, name, "destination", "device", kinds[k].name, kinds[k].unit, x,
                      m + (size_t)i * n, (size_t)n);
        }
    }
    free(m);
}

static int measure_node(gs_probe_ctx *ctx, gs_probe_out *p, int n, gs_error *err)
{
    pair_values *v = malloc((size_t)n * n * sizeof *v);
    if (!v)
        return gs_fail(err, GS_ERR_NO_MEMORY, "out of host memory");
    int rc = 0;
    for (int at = 0; at < n * n; at++) {
        v[at].access = NAN;
        for (int k = 0; k < MEASURED_KINDS; k++)
            v[at].value[k] = NAN;
    }
    for (int i = 0; i < n && !rc; i++)
        for (int j = 0; j < n && !rc; j++) {
            if (i == j)
                continue;
            gs_progress(ctx, "p2p: device %d -> device %d", i, j);
            rc = measure_pair(ctx, p, i, j, &v[i * n + j], err);
        }
    if (!rc)
        record_matrices(p, n, v);
    free(v);
    return rc;
}

static int parse(gs_probe_ctx *ctx, gs_error *err)
{
    opt.bytes = ctx->thorough ? 1ull << 30 : 256ull << 20;
    if (ctx->info->global_mem_free_bytes && opt.bytes > ctx->info->global_mem_free_bytes / 4)
        opt.bytes = ctx->info->global_mem_free_bytes / 4;
    opt.latency_bytes = 64ull << 20;
    opt.stride = 4096 + 128;
    opt.accesses = 4096;
    opt.repeats = ctx->thorough ? 30 : 10;
    int rc = gs_probe_parse_opts(ctx, gs_probe_p2p_opts, err);
    if (rc)
        return rc;
    if (opt.bytes < 4096 || opt.stride < 8 || opt.stride % 8 || opt.latency_bytes < 2 * opt.stride)
        return gs_fail(err, GS_ERR_USAGE, "p2p: --bytes must be at least 4 KB, --stride a multiple "
                       "of 8 bytes, and --latency-bytes at least two strides");
    return 0;
}

static int gs_probe_p2p_run(gs_probe_ctx *ctx, gs_error *err)
{
    int rc = parse(ctx, err);
    if (rc)
        return rc;
    int n = ctx->info->node_devices > 0 ? ctx->info->node_devices : 1;
    gs_probe_out *p = gs_run_add_probe(ctx->run, "p2p");
    gs_param_int(p, "devices", n);
    gs_param_int(p, "bytes", (long long)opt.bytes);
    gs_param_int(p, "latency_bytes", (long long)opt.latency_bytes);
    gs_param_int(p, "stride_bytes", (long long)opt.stride);
    gs_param_int(p, "accesses", opt.accesses);
    gs_param_int(p, "repeats", opt.repeats);
    gs_figure(p, "devices", n, "devices", 0, 1, "devices of the node the backend can address "
              "(CUDA: cudaGetDeviceCount, as CUDA_VISIBLE_DEVICES leaves them)");
    if (!ctx->backend->ops->p2p) {
        not_applicable(p, "the backend has no peer operations");
        return 0;
    }
    if (n < 2) {
        not_applicable(p, "one GPU");
        return 0;
    }
    if (n > MAX_DEVICES)
        return gs_fail(err, GS_ERR_UNSUPPORTED, "p2p: %d devices; at most %d are measured", n,
                       MAX_DEVICES);
    return measure_node(ctx, p, n, err);
}

/* The probe's descriptor (probe.h). */
const gs_probe_def gs_probe_p2p_def = {
    .name = "p2p",
    .run = gs_probe_p2p_run,
    .flags = GS_PROBE_HOST_LINK,
    .summary = "GPU to GPU in one node: peer access, link, copy-engine and kernel GB/s, chase "
               "latency per pair",
    .opts = gs_probe_p2p_opts,
    .expected_s = 2,
    .expected_sim_s = 0.05,
    .keep_rank = 0,
    .hints = {},
};
