/* Probe `l2-partitions`: does the L2 show near and far partitions from one SM, with which
 * latencies, and which addresses are far? Method (docs/methods.md, "l2-partitions"): a fine-grained
 * P-chase (Listing 4 of the memory-hierarchy paper) on the L2-only path (ld.cg) over a Sattolo
 * cycle of lines filling --footprint (default 9/10 of the L2, past one partition's half), warmed by
 * one pass; the on-chip trace holds fewer accesses than the chain has lines, so the trace is taken
 * in windows: each window is a new chase of the same cycle started further along, recording the
 * next trace-buffer-full of accesses. Latencies near device-memory latency are set apart, the rest
 * split into two clusters (near, far), and the far bit is fitted as an XOR of address bits with one
 * constant per page (src/analysis/partitions.c). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/chain.h"
#include "analysis/partitions.h"
#include "analysis/stats.h"
#include "probes/probe.h"
#include "util/interrupt.h"

static struct {
    uint64_t footprint;
    uint64_t stride;
    long long windows;
} opt;

const gs_opt gs_probe_l2_partitions_opts[] = {
    {"footprint", GS_OPT_BYTES, &opt.footprint, "BYTES", "lines chased (default 9/10 of the L2)",
     NULL, 0, 0},
    {"stride", GS_OPT_BYTES, &opt.stride, "BYTES", "one line per stride bytes (default 128)", NULL,
     0, 0},
    {"windows", GS_OPT_INT, &opt.windows, "N", "trace windows of one trace buffer each (default "
     "2, 8 with --thorough)", NULL, 1, 1024},
    GS_OPT_END,
};

typedef struct samples {
    uint64_t *offset;
    double *latency;
    size_t n, cap;
    int sm_id;
} samples;

static int chase(gs_probe_ctx *ctx, gs_chase_plan *plan, gs_chase_result *r, gs_error *err)
{
    plan->space = GS_SPACE_GLOBAL;
    plan->path = GS_PATH_CG;
    plan->element_bytes = 8;
    plan->carveout_percent = -1;
    return ctx->backend->ops->chase(ctx->backend, plan, r, err);
}

/* Average-mode latency of the cg path over footprint bytes (cold when warm is 0). */
static int average(gs_probe_ctx *ctx, uint64_t footprint, unsigned warm, gs_rng *rng, double *cyc,
                   gs_error *err)
{
    uint64_t count = footprint / opt.stride;
    uint64_t *chain = malloc(count * sizeof *chain);
    if (!chain)
        return gs_fail(err, GS_ERR_NO_MEMORY, "l2-partitions: out of host memory");
    gs_chain_sattolo(rng, count, opt.stride, chain);
    gs_chase_plan plan = {.footprint_bytes = footprint, .chain = chain, .chain_len = count,
                          .warmup_passes = warm, .timed_accesses = count < 8192 ? count : 8192};
    gs_chase_result r = {.sm_id = -1};
    int rc = chase(ctx, &plan, &r, err);
    *cyc = r.avg_cycles;
    free(chain);
    return rc;
}

/* The trace buffer's capacity, from a two-element chase that records one access. */
static int capacity(gs_probe_ctx *ctx, size_t *cap, gs_error *err)
{
    uint64_t chain[2] = {0, opt.stride};
    uint32_t lat[1];
    gs_chase_plan plan = {.footprint_bytes = 2 * opt.stride, .chain = chain, .chain_len = 2,
                          .warmup_passes = 1, .record_n = 1};
    gs_chase_result r = {.latency_cycles = lat, .sm_id = -1};
    int rc = chase(ctx, &plan, &r, err);
    *cap = r.record_capacity;
    return rc;
}

/* Window w: the cycle rotated to start w * cap further on, warmed once, cap accesses recorded. */
static int window(gs_probe_ctx *ctx, const uint64_t *chain, size_t len, size_t w, samples *s,
                  uint32_t *lat, uint64_t *rotated, gs_error *err)
{
    size_t rec = s->cap < len ? s->cap : len;
    for (size_t i = 0; i < len; i++)
        rotated[i] = chain[(w * rec + i) % len];
    gs_chase_plan plan = {.footprint_bytes = opt.footprint, .chain = rotated, .chain_len = len,
                          .warmup_passes = 1, .record_n = rec};
    gs_chase_result r = {.latency_cycles = lat, .sm_id = -1};
    int rc = chase(ctx, &plan, &r, err);
    if (rc)
        return rc;
    s->sm_id = r.sm_id;
    for (size_t i = 0; i < r.recorded; i++) {
        s->offset[s->n] = rotated[i % len];
        s->latency[s->n++] = lat[i];
    }
    return 0;
}

/* Samples near device-memory latency (past 90% of the way from the L2 latency at a small
 * footprint to the cold latency) are misses, not a partition; the rest keep their order. */
static size_t drop_misses(samples *s, double small_cycles, double dram_cycles, size_t *misses)
{
    double limit = dram_cycles > 1.2 * small_cycles
                       ? small_cycles + 0.9 * (dram_cycles - small_cycles) : INFINITY;
    size_t k = 0;
    for (size_t i = 0; i < s->n; i++)
        if (s->latency[i] < limit) {
            s->offset[k] = s->offset[i];
            s->latency[k++] = s->latency[i];
        }
    *misses = s->n - k;
    return k;
}

static const samples *sort_key;
static int by_confidence(const void *a, const void *b)
{
    double t = sort_key->latency[sort_key->n], x, y;   /* the threshold is stored past the end */
    x = fabs(sort_key->latency[*(const size_t *)a] - t);
    y = fabs(sort_key->latency[*(const size_t *)b] - t);
    return (x < y) - (x > y);
}

static void record_hash(gs_probe_out *p, const samples *s, const gs_two_clusters *c)
{
    bool *far = malloc(s->n * sizeof *far);
    size_t *order = malloc(s->n * sizeof *order);
    const char *method = "GF(2) fit of the far bit as an XOR of address bits with one constant per "
                         "page, most confident samples first (src/analysis/partitions.c)";
    if (!far || !order) {
        free(far), free(order);
        gs_figure_nd(p, "l2_partition_hash", "", method, "out of host memory");
        return;
    }
    uint64_t top = 0;
    for (size_t i = 0; i < s->n; i++) {
        far[i] = s->latency[i] > c->threshold;
        order[i] = i;
        top = s->offset[i] > top ? s->offset[i] : top;
    }
    s->latency[s->n] = c->threshold;
    sort_key = s;
    qsort(order, s->n, sizeof *order, by_confidence);
    unsigned low = (unsigned)__builtin_ctzll(opt.stride), max_shift = 64 - (unsigned)__builtin_clzll(top | 1);
    uint64_t mask = 0;
    double agreement = 0;
    int shift = gs_partition_fit_search(s->offset, far, s->n, order, low, 16 > low ? 16 : low + 1,
                                        max_shift, 0.95, &mask, &agreement);
    gs_figure(p, "l2_partition_hash_agreement_percent", agreement * 100, "%", 0, s->n, method);
    if (shift < 0) {
        gs_figure_nd(p, "l2_partition_hash", "", method, "no XOR of address bits %u..%u (with a "
                     "constant per page of 64 KB or more) predicts 95%% of the far bits; best %.1f%%",
                     low, max_shift - 1, agreement * 100);
    } else {
        char bits[256] = "";
        for (unsigned b = 0; b < 64; b++)
            if ((mask >> b) & 1u)
                snprintf(bits + strlen(bits), sizeof bits - strlen(bits), "%s%u", bits[0] ? "," : "", b);
        char text[320];
        snprintf(text, sizeof text, "xor of bits %s%s", bits[0] ? bits : "(none)",
                 (unsigned)shift < max_shift ? " (+ one constant per page)" : "");
        gs_figure_text(p, "l2_partition_hash", text, s->n, method);
        gs_figure(p, "l2_partition_hash_page_bytes", ldexp(1, shift), "B", 0, s->n,
                  "largest page over which the fit holds (virtual = physical bits below it)");
    }
    free(far), free(order);
}

static void record_clusters(gs_probe_out *p, samples *s, size_t misses)
{
    gs_two_clusters c;
    const char *method = "per-address latencies of one SM on ld.cg, split by 1-D 2-means";
    gs_figure(p, "l2_miss_fraction", (double)misses / (double)(s->n + misses), "", 0,
              s->n + misses, "share of samples near device-memory latency (set apart)");
    if (gs_cluster_two(s->latency, s->n, 0.02, &c) != 0) {
        gs_figure_nd(p, "l2_near_latency_cycles", "cycles", method, "fewer than 8 L2 hits");
        return;
    }
    if (!c.separated) {
        gs_figure(p, "l2_hit_latency_cycles", gs_median(s->latency, s->n), "cycles", 0, s->n, method);
        gs_figure_nd(p, "l2_far_latency_cycles", "cycles", method, "one latency cluster (%.0f and "
                     "%.0f cycles are not apart): no near/far split from this SM at this footprint",
                     c.low, c.high);
        gs_figure_nd(p, "l2_partition_hash", "", method, "no far accesses to fit");
        return;
    }
    gs_figure(p, "l2_near_latency_cycles", c.low, "cycles", 0, c.n_low, method);
    gs_figure(p, "l2_far_latency_cycles", c.high, "cycles", 0, c.n_high, method);
    gs_figure(p, "l2_far_fraction", (double)c.n_high / (double)s->n, "", 0, s->n, method);
    record_hash(p, s, &c);
}

static int run_windows(gs_probe_ctx *ctx, samples *s, gs_rng *rng, gs_error *err)
{
    size_t len = opt.footprint / opt.stride;
    uint64_t *chain = malloc(len * sizeof *chain), *rotated = malloc(len * sizeof *rotated);
    uint32_t *lat = malloc(s->cap * sizeof *lat);
    int rc = 0;
    if (!chain || !rotated || !lat)
        rc = gs_fail(err, GS_ERR_NO_MEMORY, "l2-partitions: out of host memory");
    if (!rc)
        gs_chain_sattolo(rng, len, opt.stride, chain);
    for (long long w = 0; !rc && w < opt.windows; w++) {
        if (gs_interrupted())
            rc = gs_fail(err, GS_ERR_INTERRUPTED, "l2-partitions: interrupted");
        else
            rc = window(ctx, chain, len, (size_t)w, s, lat, rotated, err);
    }
    free(chain), free(rotated), free(lat);
    return rc;
}

/* The first 4096 samples as (offset, latency): which addresses are near and far. */
static void record_series(gs_probe_out *p, const samples *s)
{
    size_t n = s->n < 4096 ? s->n : 4096;
    double *x = malloc(n * sizeof *x);
    if (!x)
        return;
    for (size_t i = 0; i < n; i++)
        x[i] = (double)s->offset[i];
    gs_series(p, "latency_by_address", "offset", "B", "latency", "cycles", x, s->latency, n);
    free(x);
}

static void set_defaults(const gs_probe_ctx *ctx)
{
    uint64_t l2 = ctx->info->l2_bytes ? ctx->info->l2_bytes : 32ull << 20;
    opt.stride = 128;
    opt.footprint = l2 / 10 * 9;
    opt.windows = ctx->thorough ? 8 : 2;
}

static int gs_probe_l2_partitions_run(gs_probe_ctx *ctx, gs_error *err)
{
    set_defaults(ctx);
    int rc = gs_probe_parse_opts(ctx, gs_probe_l2_partitions_opts, err);
    if (rc)
        return rc;
    if (opt.stride < 8 || (opt.stride & (opt.stride - 1)) || opt.footprint < 64 * opt.stride)
        return gs_fail(err, GS_ERR_USAGE, "l2-partitions: --stride must be a power of two >= 8 "
                       "and --footprint at least 64 strides");
    opt.footprint -= opt.footprint % opt.stride;
    samples s = {.sm_id = -1};
    double small = 0, dram = 0;
    size_t misses = 0;
    gs_rng rng;
    gs_rng_seed(&rng, ctx->seed);
    if ((rc = capacity(ctx, &s.cap, err)) != 0)
        return rc;
    s.offset = malloc((s.cap * (size_t)opt.windows + 1) * sizeof *s.offset);
    s.latency = malloc((s.cap * (size_t)opt.windows + 1) * sizeof *s.latency);
    if (!s.offset || !s.latency) {
        free(s.offset), free(s.latency);
        return gs_fail(err, GS_ERR_NO_MEMORY, "l2-partitions: out of host memory");
    }
    gs_probe_out *p = gs_run_add_probe(ctx->run, "l2-partitions");
    gs_param_int(p, "footprint_bytes", (long long)opt.footprint);
    gs_param_int(p, "stride_bytes", (long long)opt.stride);
    gs_param_int(p, "windows", opt.windows);
    gs_progress(ctx, "l2-partitions: %lld windows of %zu accesses over %llu bytes", opt.windows,
                s.cap, (unsigned long long)opt.footprint);
    rc = average(ctx, opt.footprint / 32, 1, &rng, &small, err);
    if (!rc)
        rc = average(ctx, 4 * (ctx->info->l2_bytes ? ctx->info->l2_bytes : opt.footprint), 0, &rng,
                     &dram, err);
    if (!rc) {
        gs_figure(p, "l2_small_footprint_latency_cycles", small, "cycles", 0, 1,
                  "average-mode ld.cg chase over 1/32 of the footprint, warm");
        gs_figure(p, "memory_latency_cycles", dram, "cycles", 0, 1,
                  "average-mode ld.cg chase over 4 x L2, cold");
        rc = run_windows(ctx, &s, &rng, err);
    }
    if (s.n) {   /* also what was recorded before an interruption */
        gs_param_int(p, "sm_id", s.sm_id);
        record_series(p, &s);
        s.n = drop_misses(&s, small, dram, &misses);
        record_clusters(p, &s, misses);
    }
    free(s.offset), free(s.latency);
    return rc;
}

/* The probe's descriptor (probe.h). */
static const char *const headline[] = {"l2_partition_hash", "l2_near_latency_cycles", "l2_hit_latency_cycles", "l2_far_latency_cycles", "l2_far_fraction", "memory_latency_cycles", NULL};
const gs_probe_def gs_probe_l2_partitions_def = {
    .name = "l2-partitions",
    .run = gs_probe_l2_partitions_run,
    .flags = 0,
    .summary = "L2 near and far partitions from one SM: latencies, share of far lines, address "
               "hash",
    .opts = gs_probe_l2_partitions_opts,
    .expected_s = 5,
    .expected_sim_s = 3,
    .keep_rank = 12,
    .hints = {.headline = headline},
};
