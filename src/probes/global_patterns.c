/* Probe `global-patterns`: global-memory latency patterns and warp access patterns.
 * 1. Table 3 of the memory-hierarchy paper (section 4.2): the latency of an L1 hit, an L1 miss
 *    that hits L2, an L2 miss (TLB hit), an L2 miss past the first TLB level's reach and an L2
 *    miss past every TLB level's, for each load path, from fine-grained single-lane chases
 *    (Listing 2): small warm chain; L2-sized random chain; cold chain inside one page region;
 *    cold chains with one element per far-apart region, over gigabytes of device memory and over
 *    a terabyte of virtual space aliased onto a little physical memory.
 * 2. Coalescing (textbook notes: 128-byte lines of 32-byte sectors): one warp whose lanes load at
 *    i * lane_stride (lane strides 4 B .. 4 KB, then scattered far apart), in a warm L1 (path ca)
 *    and through L2 only (path cg); latency per request with one warp, and requests per ns with
 *    many warps. analysis/granularity.c infers the sector and line size of a request. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/chain.h"
#include "analysis/granularity.h"
#include "analysis/stats.h"
#include "probes/probe.h"
#include "util/interrupt.h"

static struct {
    long long record;
    long long walkers;
    long long timed;
    const char *paths;
    uint64_t tlb_footprint;
    uint64_t tlb_span;
} opt;

const gs_opt gs_probe_global_patterns_opts[] = {
    {"record", GS_OPT_INT, &opt.record, "N",
     "latencies recorded per pattern (default 256, 1024 with --thorough)", NULL, 16, 1 << 20},
    {"walkers", GS_OPT_INT, &opt.walkers, "N",
     "warps chasing at once for throughput (default: SMs x blocks per SM, at most 32 each)",
     NULL, 0, 1 << 20},
    {"timed", GS_OPT_INT, &opt.timed, "N", "requests per warp timed for throughput (default 256)",
     NULL, 1, 1 << 24},
    {"paths", GS_OPT_STRING, &opt.paths, "LIST",
     "load paths for the latency table (default default,ca,cg,cv,nc)", NULL, 0, 0},
    {"tlb-footprint", GS_OPT_BYTES, &opt.tlb_footprint, "BYTES",
     "device memory the l1tlb_miss pattern spans (default: a quarter of free memory, at most "
     "16GB)", NULL, 0, 0},
    {"tlb-span", GS_OPT_BYTES, &opt.tlb_span, "BYTES",
     "virtual span of the tlb_miss pattern's 8192 regions, aliased onto at most 64MB of device "
     "memory (default 1TB; at least 16GB)", NULL, 0, 0},
    GS_OPT_END,
};

#define ELEMENT_SPACING 256u      /* bytes between chain elements of the latency patterns */
#define BLOCK_BYTES 65536u        /* the L2-miss pattern stays inside blocks this large */
#define LANES 32u
#define TLB_REGIONS 8192u         /* regions of the TLB patterns (at least --record) */
#define TLB_SPAN_DEFAULT (1ull << 40)
#define TLB_SPAN_MIN (16ull << 30)  /* 8192 regions of one 2 MB mapping each */
/* Device memory behind the tlb_miss pattern's span. The driver's cost is per mapping: an H200
 * took 0.62-0.75 s to grant access to 1 TB of 64-MB mappings and 0.39 s to release them, 0.20
 * and 0.12 s for 256-MB ones; at 128 MB the default span takes one mapping a region. */
#define TLB_PHYSICAL_MAX (128ull << 20)
#define TLB_PHYSICAL_MIN (2ull << 20)   /* CUDA's mapping granularity */

/* A chain and the plan around it. */
typedef struct pattern {
    const char *name;
    uint64_t *chain;
    size_t len;
    uint64_t footprint_bytes;
    uint64_t physical_bytes;      /* aliased: the device memory behind the span (0: all of it) */
    unsigned warmup_passes;
} pattern;

/* Offsets visited in blocks of BLOCK_BYTES in order, in random order inside each block. */
static int blocked_chain(gs_rng *rng, size_t count, uint64_t *out)
{
    size_t per_block = BLOCK_BYTES / ELEMENT_SPACING;
    for (size_t b = 0; b * per_block < count; b++) {
        size_t n = count - b * per_block < per_block ? count - b * per_block : per_block;
        if (gs_chain_sattolo(rng, n, ELEMENT_SPACING, out + b * per_block))
            return -1;
        for (size_t i = 0; i < n; i++)
            out[b * per_block + i] += (uint64_t)b * BLOCK_BYTES;
    }
    return 0;
}

/* Where a few lines, or lines side by side, lie decides which L2 slices serve them, and so
 * their hit latency: the l1_hit chain's 16 lines on the cv path (an L2 hit) read 280.1 and 293.1
 * cycles in two processes on an H200, the L2 warp sweep's 4096 packed slots moved
 * by up to 1.7 cycles with their place (an H100, period 256 MB) and read 301.6 and 305.7 in two
 * processes. Those figures are measured at two places PLACE_SHIFT apart, their mean reported,
 * the interval at least their difference. */
#define PLACE_SHIFT (128ull << 20)

static void shift_pattern(pattern *pt, uint64_t by)
{
    for (size_t i = 0; i < pt->len; i++)
        pt->chain[i] += by;
    pt->footprint_bytes += by;
}

/* a and b, one figure measured at two places (or over two draws): their mean, the interval at
 * least their difference in the statistic reported (the median, else the mean) */
static gs_summary two_places(const gs_summary *a, const gs_summary *b, bool median)
{
    gs_summary s = *a;
    s.mean = (a->mean + b->mean) / 2;
    s.median = (a->median + b->median) / 2;
    s.n = a->n + b->n;
    double apart = median ? fabs(a->median - b->median) : fabs(a->mean - b->mean);
    s.ci95 = fmax(fmax(a->ci95, b->ci95), apart);
    return s;
}

enum { PAT_L1_HIT, PAT_L2_HIT, PAT_L2_MISS, PAT_L1TLB_MISS, PAT_TLB_MISS, PAT_COUNT };
static const char *const pattern_names[PAT_COUNT] = { "l1_hit", "l2_hit", "l2_miss",
                                                      "l1tlb_miss", "tlb_miss" };
static const char *const pattern_methods[PAT_COUNT] = {
    "median of recorded latencies (ci95: the widest of t sd / sqrt n, the order statistics' and "
    "the 16 lines' own medians'): 16 elements 256 B apart, random cycle, 2 warm passes; at two "
    "places 128 MB apart (other L2 slices where it misses the L1), their mean, the interval at "
    "least their difference",
    "median of recorded latencies: random cycle over a quarter of L2 (256 B apart), 1 warm pass",
    "median of recorded latencies: cold (no warm pass), random inside 64 KB blocks in order",
    "median of the latencies of a whole cold pass, one element in each of 8192 --tlb-footprint "
    "regions of device memory in random order (all of them, whatever --record: the first 256 "
    "read 718 cycles on an H100 and the first 1024 858): past a first TLB level's reach, inside "
    "a second's on an H100 (2048 x 32 MB); two passes over two draws of regions, their mean, "
    "the interval at least their difference",
    "as l1tlb_miss over 8192 regions of --tlb-span virtual bytes, every region aliased onto one "
    "allocation of at most 128 MB, each element on a physical line of its own: past every TLB "
    "level's reach (the L2 evicted from the backend's one kept buffer: with a fresh buffer for "
    "each chase an H100's and an H200's walk read 1865-1970 cycles instead of 815-877 in about "
    "one process of three)",
};

static uint64_t tlb_footprint_default(const gs_device_info *info)
{
    uint64_t free_bytes = info->global_mem_free_bytes ? info->global_mem_free_bytes
                                                      : info->global_mem_bytes;
    uint64_t f = free_bytes / 4, cap = 16ull << 30;
    return f < cap ? f : cap;
}

/* The tlb_miss pattern's aliasing: len (8192) regions spacing bytes apart over --tlb-span, each
 * spacing a multiple of the physical allocation (a power of two from 2 MB to 128 MB, at least 256 B
 * a region), so region r's element, moved r x (physical / len) bytes into it, lands on a physical
 * place of its own. */
static void alias_geometry(size_t len, uint64_t *spacing, uint64_t *physical)
{
    uint64_t phys = TLB_PHYSICAL_MIN, per = opt.tlb_span / len;
    while (phys < (uint64_t)len * 256 || (phys < TLB_PHYSICAL_MAX && 2 * phys <= per))
        phys *= 2;
    *physical = phys;
    *spacing = per < phys ? phys : per / phys * phys;
}

/* Chain and warm-up of one latency pattern (Table 3). */
static int build_pattern(int which, const gs_device_info *info, size_t record, gs_rng *rng,
                         pattern *p)
{
    size_t len = 16;
    uint64_t spacing = ELEMENT_SPACING;
    p->name = pattern_names[which];
    p->warmup_passes = which == PAT_L1_HIT ? 2 : which == PAT_L2_HIT ? 1 : 0;
    if (which == PAT_L2_HIT) {
        uint64_t n = info->l2_bytes / 4 / ELEMENT_SPACING;
        len = n < 64 ? 64 : n > 65536 ? 65536 : (size_t)n;
    } else if (which == PAT_L2_MISS) {
        len = record > 2048 ? record : 2048;
    } else if (which == PAT_L1TLB_MISS) {   /* many regions: writing them evicts the first
                                               from the TLBs before the cold pass starts */
        len = record > TLB_REGIONS ? record : TLB_REGIONS;
        spacing = opt.tlb_footprint / len / 4096 * 4096;
        if (spacing < BLOCK_BYTES)
            spacing = BLOCK_BYTES;
    } else if (which == PAT_TLB_MISS) {   /* 8192 whatever --record: 128 MB hold them */
        len = TLB_REGIONS;
        alias_geometry(len, &spacing, &p->physical_bytes);
    }
    p->chain = malloc(len * sizeof *p->chain);
    if (!p->chain)
        return -1;
    p->len = len;
    int rc = which == PAT_L2_MISS ? blocked_chain(rng, len, p->chain)
                                  : gs_chain_sattolo(rng, len, spacing, p->chain);
    p->footprint_bytes = which == PAT_L2_MISS
        ? (len * ELEMENT_SPACING + BLOCK_BYTES - 1) / BLOCK_BYTES * BLOCK_BYTES : len * spacing;
    if (which == PAT_TLB_MISS)   /* region r on physical line r of the allocation */
        for (size_t i = 0; i < len; i++)
            p->chain[i] += p->chain[i] / spacing * (p->physical_bytes / len / 256 * 256);
    return rc;
}

static bool soft_error(int rc)
{
    return rc == GS_ERR_UNSUPPORTED || rc == GS_ERR_NO_MEMORY;
}

/* A chase of pattern pt on path with eb-byte elements: one unloaded walker, one lane, the
 * driver's carve-out; callers set the mode (record_n or timed_accesses) and any lanes. */
static gs_chase_plan pattern_plan(const pattern *pt, gs_load_path path, unsigned eb)
{
    return (gs_chase_plan){ .space = GS_SPACE_GLOBAL, .path = path,
                            .footprint_bytes = pt->footprint_bytes,
                            .physical_bytes = pt->physical_bytes, .chain = pt->chain,
                            .chain_len = pt->len, .element_bytes = eb,
                            .warmup_passes = pt->warmup_passes, .walkers = 1, .lanes = 1,
                            .carveout_percent = -1 };
}

/* One fine-grained chase (walkers 1): the recorded latencies summarized; with by_line (Table
 * 3's medians), the interval is the widest of the records', the order statistics' (latencies
 * in a few modes, near and far slices: an H100's l2_hit median moved by 4-5 cycles between
 * processes against 1.9) and, for a short cycle, its lines' own (the l1_hit chain's 16 lines on
 * the cv path, in the L2, read 273.6 and 279.6 cycles in two reports against 1.4). */
static int chase_latency(gs_probe_ctx *ctx, const pattern *pt, gs_load_path path, unsigned eb,
                         unsigned lanes, uint64_t lane_stride, size_t record, bool by_line,
                         gs_summary *s, gs_error *err)
{
    if (gs_interrupted())
        return gs_fail(err, GS_ERR_INTERRUPTED, "interrupted");
    uint32_t *lat = calloc(record, sizeof *lat);
    double *x = calloc(record, sizeof *x);
    int rc = 0;
    if (!lat || !x) {
        rc = gs_fail(err, GS_ERR_NO_MEMORY, "out of host memory for %zu latencies", record);
    } else {
        gs_chase_plan plan = pattern_plan(pt, path, eb);
        plan.record_n = record;
        plan.lanes = lanes;
        plan.lane_stride_bytes = lane_stride;
        gs_chase_result res = { .latency_cycles = lat };
        rc = ctx->backend->ops->chase(ctx->backend, &plan, &res, err);
        for (size_t i = 0; !rc && i < res.recorded; i++)
            x[i] = lat[i];
        if (!rc) {
            *s = gs_summarize(x, res.recorded);
            s->mean = gs_trimmed_mean(x, res.recorded, 0.1);   /* the sweeps fit this */
            double lines = by_line ? gs_cyclic_median_ci95(x, res.recorded, pt->len) : 0;
            double order = by_line ? gs_median_order_ci95(x, res.recorded) : 0;
            s->ci95 = fmax(s->ci95, fmax(lines, order));
        }
    }
    free(lat);
    free(x);
    return rc;
}

/* Many warps at once (average mode): warp requests completed per ns, all warps together. */
static int chase_throughput(gs_probe_ctx *ctx, const pattern *pt, gs_load_path path,
                            uint64_t lane_stride, double *per_ns, gs_error *err)
{
    if (gs_interrupted())
        return gs_fail(err, GS_ERR_INTERRUPTED, "interrupted");
    gs_chase_plan plan = pattern_plan(pt, path, 4);
    plan.timed_accesses = (uint64_t)opt.timed;
    plan.walkers = (unsigned)opt.walkers;
    plan.lanes = LANES;
    plan.lane_stride_bytes = lane_stride;
    gs_chase_result res = { 0 };
    int rc = ctx->backend->ops->chase(ctx->backend, &plan, &res, err);
    *per_ns = rc ? NAN : res.accesses_per_ns;
    return rc;
}

/* Every name of --paths is a load path (checked before anything is measured). */
static int check_paths(gs_error *err)
{
    char list[128];
    snprintf(list, sizeof list, "%s", opt.paths);
    for (char *save = NULL, *name = strtok_r(list, ",", &save); name;
         name = strtok_r(NULL, ",", &save)) {
        gs_load_path path;
        if (gs_path_parse(name, &path) != 0)
            return gs_fail(err, GS_ERR_USAGE, "--paths: '%s' is not a load path; use some of "
                           "default, ca, cg, cv, nc, tex, const", name);
    }
    return 0;
}

/* One warp chasing pt in average mode (no trace): cycles per access over 256 passes. */
static int chase_average(gs_probe_ctx *ctx, const pattern *pt, gs_load_path path, double *avg,
                         gs_error *err)
{
    gs_chase_plan plan = pattern_plan(pt, path, 8);
    plan.timed_accesses = 256 * (uint64_t)pt->len;
    gs_chase_result res = { .sm_id = -1 };
    int rc = ctx->backend->ops->chase(ctx->backend, &plan, &res, err);
    *avg = rc ? NAN : res.avg_cycles;
    return rc;
}

/* The trace's own cost per access: the L1-hit pattern's median recorded latency (the load, the
 * trace's store and clock read) less the same chain's average-mode latency (the load alone, as
 * the cache probe's plateaus read it). Every recorded latency of the table is reported less it,
 * so that one structure gets one latency whichever probe asks: on an H100 the
 * recorded L1 hit read 35 cycles against the cache probe's 32.0, the L2 hit 280.5-282 against
 * 278.8. *cost 0 where it cannot be measured (why in the figure). */
static int trace_cost(gs_probe_ctx *ctx, gs_probe_out *p, gs_rng *rng, double *cost,
                      double *ci, gs_error *err)
{
    static const char *method = "median recorded latency of the l1_hit pattern (default path) "
                                "less the same chain's average-mode cycles per access (256 "
                                "passes, no trace): what recording each access adds; ci95: the "
                                "recorded median's";
    pattern pt = { 0 };
    gs_summary s = { 0 };
    double avg = NAN;
    *cost = *ci = 0;
    int rc = build_pattern(PAT_L1_HIT, ctx->info, (size_t)opt.record, rng, &pt) != 0
                 ? gs_fail(err, GS_ERR_NO_MEMORY, "out of host memory for the l1_hit chain")
                 : chase_latency(ctx, &pt, GS_PATH_DEFAULT, 8, 1, 0, (size_t)opt.record, false,
                                 &s, err);
    if (!rc)
        rc = chase_average(ctx, &pt, GS_PATH_DEFAULT, &avg, err);
    free(pt.chain);
    if (!rc && isfinite(avg) && s.n > 0) {
        *cost = s.median - avg;
        *ci = s.ci95;
        gs_figure(p, "trace_cost_cycles", *cost, "cycles", *ci, s.n, method);
    } else if (!rc || soft_error(rc)) {
        gs_figure_nd(p, "trace_cost_cycles", "cycles", method, "%s; the table's latencies are "
                     "the recorded ones", rc ? err->msg : "no average-mode latency");
        rc = 0;
    }
    return rc;
}

/* One pattern's median latency on one path. A TLB pattern is walked twice, over two draws of its
 * regions, its interval at least the two medians' difference: l1tlb_miss's median moved by 10-15
 * cycles between processes on an H100, far beyond one pass's interval. */
static int table_latency(gs_probe_ctx *ctx, int k, gs_load_path path, gs_rng *rng,
                         gs_summary *s, gs_error *err)
{
    gs_summary d[2];
    bool tlb = k == PAT_L1TLB_MISS || k == PAT_TLB_MISS;
    int rc = 0, draws = tlb || k == PAT_L1_HIT ? 2 : 1;
    for (int i = 0; i < draws && !rc; i++) {
        pattern pt = { 0 };
        if (build_pattern(k, ctx->info, (size_t)opt.record, rng, &pt) != 0) {
            rc = gs_fail(err, GS_ERR_NO_MEMORY, "out of host memory for the %s chain",
                         pattern_names[k]);
        } else {
            if (k == PAT_L1_HIT && i == 1)
                shift_pattern(&pt, PLACE_SHIFT);
            rc = chase_latency(ctx, &pt, path, 8, 1, 0,
                               tlb ? pt.len : (size_t)opt.record, true, &d[i],
                               err);
        }
        free(pt.chain);
    }
    if (rc)
        return rc;
    *s = draws == 2 ? two_places(&d[0], &d[1], true) : d[0];
    return 0;
}

/* Table 3: every pattern on every path of --paths. */
static int latency_table(gs_probe_ctx *ctx, gs_probe_out *p, gs_rng *rng, gs_error *err)
{
    char list[128];
    snprintf(list, sizeof list, "%s", opt.paths);
    double cost, cost_ci;
    int rc = trace_cost(ctx, p, rng, &cost, &cost_ci, err);
    for (char *save = NULL, *name = strtok_r(list, ",", &save); name && !rc;
         name = strtok_r(NULL, ",", &save)) {
        gs_load_path path;
        if (gs_path_parse(name, &path) != 0)
            return gs_fail(err, GS_ERR_USAGE, "--paths: '%s' is not a load path", name);
        gs_progress(ctx, "global-patterns: latency table, path %s", name);
        double x[PAT_COUNT], y[PAT_COUNT];
        for (int k = 0; k < PAT_COUNT && !rc; k++) {
            char fig[64];
            snprintf(fig, sizeof fig, "latency_%s_%s_cycles", pattern_names[k], name);
            x[k] = k;
            y[k] = NAN;
            gs_summary s;
            rc = table_latency(ctx, k, path, rng, &s, err);
            if (!rc) {
                char method[640];
                snprintf(method, sizeof method, "%s; less the trace's own cost "
                         "(trace_cost_cycles, %.1f cycles; ci95 of both)", pattern_methods[k],
                         cost);
                y[k] = s.median - cost;
                gs_figure(p, fig, y[k], "cycles", hypot(s.ci95, cost_ci), s.n, method);
            } else if (soft_error(rc)) {
                gs_figure_nd(p, fig, "cycles", pattern_methods[k], "%s", err->msg);
                rc = 0;
            }
        }
        char series[48];
        snprintf(series, sizeof series, "table3_%s", name);
        gs_series(p, series, "pattern (0 l1_hit, 1 l2_hit, 2 l2_miss, 3 l1tlb_miss, 4 tlb_miss)",
                  "",
                  "latency", "cycles", x, y, PAT_COUNT);
    }
    return rc;
}

#define N_STRIDES 12              /* 4 B .. 4 KB, then scattered */

/* Lane strides 4, 8, .. 128 B, then 2^k + 128 B up to 4224 B: odd multiples of 128 B, so that 32
 * lanes fall in 32 different sets of a power-of-two-set cache and stay resident. */
static uint64_t sweep_stride(size_t k)
{
    return k < 6 ? 4ull << k : (256ull << (k - 6)) + 128;
}

/* The chain of one sweep point: "l1": one slot, warm; "l2": random slots over a quarter of L2
 * that never share a line between lanes or slots. */
static int sweep_chain(bool l1, const gs_device_info *info, uint64_t ls, bool scattered,
                       gs_rng *rng, pattern *pt)
{
    uint64_t slot = scattered ? ELEMENT_SPACING : LANES * ls;
    size_t slots = 1;
    if (!l1) {   /* a quarter of L2 in the lines touched (32 lanes, at most 256 B each) */
        uint64_t touched = LANES * (ls < 256 ? ls : 256);
        uint64_t n = scattered ? 64 : info->l2_bytes / 4 / touched;
        slots = n < 8 ? 8 : n > 4096 ? 4096 : (size_t)n;
    }
    pt->chain = malloc(slots * sizeof *pt->chain);
    if (!pt->chain)
        return -1;
    pt->len = slots;
    pt->warmup_passes = l1 ? 2 : 1;
    pt->footprint_bytes = (slots - 1) * slot + (LANES - 1) * ls + 4;
    pt->footprint_bytes = (pt->footprint_bytes + 255) / 256 * 256;
    return gs_chain_sattolo(rng, slots, slot, pt->chain);
}

typedef struct sweep_out {
    double stride[N_STRIDES], latency[N_STRIDES], ci95[N_STRIDES], per_ns[N_STRIDES];
    uint64_t strides[N_STRIDES];
    size_t n;
    bool two_places;              /* the first point measured at two places (the L2 sweep) */
} sweep_out;

/* One warp-pattern sweep: latency per request (one warp) and requests per ns (many warps). */
static int sweep(gs_probe_ctx *ctx, bool l1, gs_rng *rng, sweep_out *o, gs_error *err)
{
    gs_load_path path = l1 ? GS_PATH_CA : GS_PATH_CG;
    uint64_t scattered = ctx->info->l2_bytes / 128 / 128 * 128 + 128;
    if (scattered < 64 * ELEMENT_SPACING + 128)
        scattered = 64 * ELEMENT_SPACING + 128;
    gs_progress(ctx, "global-patterns: warp patterns, path %s, lane strides 4 B..4 KB and %llu B",
                gs_path_name(path), (unsigned long long)scattered);
    int rc = 0;
    o->n = 0;
    o->two_places = !l1;
    for (size_t k = 0; k < N_STRIDES && !rc; k++) {
        uint64_t ls = k + 1 == N_STRIDES ? scattered : sweep_stride(k);
        pattern pt = { .name = l1 ? "l1" : "l2" };
        gs_summary s = { 0 };
        double per_ns = NAN;
        if (sweep_chain(l1, ctx->info, ls, k + 1 == N_STRIDES, rng, &pt) != 0)
            rc = gs_fail(err, GS_ERR_NO_MEMORY, "out of host memory for a sweep chain");
        if (!rc)
            rc = chase_latency(ctx, &pt, path, 4, LANES, ls, (size_t)opt.record, false, &s,
                               err);
        if (!rc)
            rc = chase_throughput(ctx, &pt, path, ls, &per_ns, err);
        if (!rc && !l1 && k == 0) {   /* the coalesced figure: slots side by side */
            gs_summary there = { 0 };
            shift_pattern(&pt, PLACE_SHIFT);
            rc = chase_latency(ctx, &pt, path, 4, LANES, ls, (size_t)opt.record, false, &there,
                               err);
            s = rc ? s : two_places(&s, &there, false);
        }
        free(pt.chain);
        if (rc)
            break;
        o->strides[o->n] = ls;
        o->stride[o->n] = (double)ls;
        o->latency[o->n] = s.mean;
        o->ci95[o->n] = s.ci95;
        o->per_ns[o->n++] = per_ns;
    }
    return rc;
}

/* One unit of a request (sector or line): its size and the cost of each extra one, or "not
 * determined" with the fit's reason. */
static void record_unit(gs_probe_out *p, const char *prefix, const char *what, const char *unit,
                        bool determined, uint64_t bytes, double cost, double ci95,
                        const char *reason, size_t points, const char *method)
{
    char name[64];
    snprintf(name, sizeof name, "%s_%s_bytes", prefix, what);
    if (!determined) {
        gs_figure_nd(p, name, "B", method, "%s", reason);
        return;
    }
    gs_figure(p, name, (double)bytes, "B", 0, points, method);
    snprintf(name, sizeof name, "%s_extra_%s_%s", prefix, what, unit);
    gs_figure(p, name, cost, unit, ci95, points, method);
}

static void record_granularity(gs_probe_out *p, const char *prefix, const char *unit,
                               const uint64_t *ls, const double *cost, const double *ci95,
                               size_t n, const char *what, gs_granularity_fit *fit)
{
    gs_granularity_fit f;
    char name[64], method[256];
    snprintf(method, sizeof method, "least squares of %s over lane strides: base + cost x (distinct "
             "sectors - 1) + cost x (distinct lines - 1), best of sector 4..512 B, line ..4096 B", what);
    if (gs_granularity_infer(ls, cost, ci95, n, LANES, 4, 0.02, 0.05, &f) != 0)
        return;
    /* one visible unit is the line's cost: a sector of that size would contradict a probe that
     * sees smaller sectors of the same cache (an H100's L1: 32 B in the cache probe, where this
     * curve alone would read "128 B"), so the curve's sector is not determined */
    bool one_unit = f.sector_determined && f.sector_bytes >= f.line_bytes;
    char one[160];
    snprintf(one, sizeof one, "only one unit (%llu B) has a visible cost in this curve: no cost "
             "per smaller sector shows", (unsigned long long)f.sector_bytes);
    record_unit(p, prefix, "sector", unit, f.sector_determined && !one_unit, f.sector_bytes,
                f.sector_cost, f.sector_ci95, one_unit ? one : f.sector_reason, f.points, method);
    record_unit(p, prefix, "line", unit, f.line_determined, f.line_bytes, f.line_cost,
                f.line_ci95, f.line_reason, f.points, method);
    snprintf(name, sizeof name, "%s_fit_rms_%s", prefix, unit);
    if (f.points)                     /* base, sector cost, line cost: 3 parameters */
        gs_figure(p, name, f.rms, unit, f.points > 3 ? gs_rms_ci95(f.rms, f.points - 3) : 0,
                  f.points, "residual rms of that fit (interval: 1.96 / sqrt(2 df) of it)");
    if (fit)
        *fit = f;
}

static void record_sweep(gs_probe_out *p, const char *prefix, const sweep_out *o)
{
    char name[64];
    double gbps[N_STRIDES], ns_per[N_STRIDES];
    for (size_t k = 0; k < o->n; k++) {
        gbps[k] = o->per_ns[k] * LANES * 4;     /* useful bytes per ns = GB/s */
        ns_per[k] = o->per_ns[k] > 0 ? 1.0 / o->per_ns[k] : NAN;
    }
    snprintf(name, sizeof name, "%s_latency", prefix);
    gs_series(p, name, "lane_stride", "B", "latency_per_request (10% trimmed mean)", "cycles",
              o->stride, o->latency, o->n);
    snprintf(name, sizeof name, "%s_latency_ci95", prefix);
    gs_series(p, name, "lane_stride", "B", "ci95", "cycles", o->stride, o->ci95, o->n);
    snprintf(name, sizeof name, "%s_requests_per_ns", prefix);
    gs_series(p, name, "lane_stride", "B", "warp_requests", "1/ns", o->stride, o->per_ns, o->n);
    snprintf(name, sizeof name, "%s_useful_gbps", prefix);
    gs_series(p, name, "lane_stride", "B", "useful_bandwidth", "GB/s", o->stride, gbps, o->n);
    if (o->n) {
        snprintf(name, sizeof name, "%s_coalesced_cycles", prefix);
        gs_figure(p, name, o->latency[0], "cycles", o->ci95[0], (size_t)opt.record,
                  o->two_places ? "10% trimmed mean latency of one warp request, lanes 4 B apart "
                  "(a 128-B span); its slots side by side at two places 128 MB apart (other L2 "
                  "slices), their mean, the interval at least their difference"
                  : "10% trimmed mean latency of one warp request, lanes 4 B apart (a 128-B "
                  "span)");
        snprintf(name, sizeof name, "%s_scattered_cycles", prefix);
        gs_figure(p, name, o->latency[o->n - 1], "cycles", o->ci95[o->n - 1], (size_t)opt.record,
                  "10% trimmed mean latency of one warp request, lanes far apart");
    }
    gs_granularity_fit fit = { .sector_reason = "out of host memory",
                               .line_reason = "out of host memory" };
    snprintf(name, sizeof name, "%s_latency", prefix);
    record_granularity(p, name, "cycles", o->strides, o->latency, o->ci95, o->n,
                       "latency per request", &fit);
    snprintf(name, sizeof name, "%s_loaded", prefix);
    record_granularity(p, name, "ns", o->strides, ns_per, NULL, o->n,
                       "ns per warp request with many warps (1 / requests per ns)", NULL);
    if (strcmp(prefix, "l1") != 0)
        return;
    const char *m = "the L1-hit warp sweep (path ca): l1_latency_sector_bytes and l1_latency_line_bytes";
    if (fit.sector_determined && fit.sector_bytes < fit.line_bytes)
        gs_figure(p, "sector_bytes", (double)fit.sector_bytes, "B", 0, fit.points, m);
    else if (fit.sector_determined)
        gs_figure_nd(p, "sector_bytes", "B", m, "only one unit (%llu B) has a visible cost in the "
                     "L1-hit latency: no cost per smaller sector shows",
                     (unsigned long long)fit.sector_bytes);
    else
        gs_figure_nd(p, "sector_bytes", "B", m, "%s", fit.sector_reason);
    if (fit.line_determined)
        gs_figure(p, "line_bytes", (double)fit.line_bytes, "B", 0, fit.points, m);
    else
        gs_figure_nd(p, "line_bytes", "B", m, "%s", fit.line_reason);
}

static int gs_probe_global_patterns_run(gs_probe_ctx *ctx, gs_error *err)
{
    int per_sm = ctx->info->max_blocks_per_sm > 0 && ctx->info->max_blocks_per_sm < 32
               ? ctx->info->max_blocks_per_sm : 32;
    opt.record = ctx->thorough ? 1024 : 256;
    opt.walkers = (long long)(ctx->info->sm_count > 0 ? ctx->info->sm_count : 1) * per_sm;
    opt.timed = 256;
    opt.paths = "default,ca,cg,cv,nc";
    opt.tlb_footprint = tlb_footprint_default(ctx->info);
    opt.tlb_span = TLB_SPAN_DEFAULT;
    int rc = gs_probe_parse_opts(ctx, gs_probe_global_patterns_opts, err);
    if (rc)
        return rc;
    if (opt.tlb_span < TLB_SPAN_MIN)
        return gs_fail(err, GS_ERR_USAGE, "--tlb-span: %llu bytes is too little to pass a TLB's "
                       "reach; give at least 16GB (default 1TB)",
                       (unsigned long long)opt.tlb_span);
    if (opt.walkers < 1)
        return gs_fail(err, GS_ERR_USAGE, "--walkers must be at least 1");
    if ((rc = check_paths(err)))
        return rc;
    gs_probe_out *p = gs_run_add_probe(ctx->run, "global-patterns");
    gs_param_int(p, "record", opt.record);
    gs_param_int(p, "walkers", opt.walkers);
    gs_param_int(p, "timed", opt.timed);
    gs_param_string(p, "paths", opt.paths);
    gs_param_int(p, "tlb_footprint_bytes", (long long)opt.tlb_footprint);
    gs_param_int(p, "tlb_span_bytes", (long long)opt.tlb_span);
    gs_rng rng;
    gs_rng_seed(&rng, ctx->seed);
    rc = latency_table(ctx, p, &rng, err);
    static const char *const prefixes[2] = { "l1", "l2" };
    for (int l = 0; l < 2 && !rc; l++) {
        sweep_out o;
        rc = sweep(ctx, l == 0, &rng, &o, err);
        if (soft_error(rc)) {
            gs_probe_warning(p, "warp patterns through %s not run: %s", l == 0 ? "ca" : "cg", err->msg);
            rc = 0;
            continue;
        }
        record_sweep(p, prefixes[l], &o);
    }
    return rc;
}

/* The probe's descriptor (probe.h). */
static const char *const headline[] = {"latency_*_default_cycles", "sector_bytes", "line_bytes", "l1_coalesced_cycles", "l1_scattered_cycles", "l2_coalesced_cycles", "l2_scattered_cycles", NULL};
const gs_probe_def gs_probe_global_patterns_def = {
    .name = "global-patterns",
    .run = gs_probe_global_patterns_run,
    .flags = GS_PROBE_DEFAULT,
    .summary = "global-memory latency per pattern and load path (Table 3), and warp coalescing: "
               "line and sector of a request",
    .opts = gs_probe_global_patterns_opts,
    .expected_s = 1.1,
    .expected_sim_s = 5,
    .keep_rank = 6,
    .hints = {.headline = headline},
};
