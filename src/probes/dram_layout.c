/* Probe `dram-layout`: how addresses are spread over the DRAM channels (memory partitions), and
 * whether a DRAM row buffer shows in the latency of a load (the textbook chapter's memory
 * partition unit: address interleaving at a granularity over partitions, Section 4.2, and DRAM
 * row-buffer locality, Section 4.3.3). Method (docs/methods.md, "dram-layout"):
 * 1. Interleaving: the grid reads --chunk bytes at every stride over --footprint (a strided read,
 *    ld.global.cg), for strides m x 2^k (m = 1, 3, 5, 7) from the chunk to --max-stride; with a
 *    plain mapping the bandwidth halves per doubling past the granularity G and falls to 1/C from
 *    the smallest multiple of C x G on (src/analysis/interleave.c). A hashed mapping stays flat.
 * 2. Row buffer: one thread chases a chain of pairs (x, x + d), cold (the L2 evicted first,
 *    every element visited once); x lies at the start of a 64 KB block of a 2 MB region, x + d
 *    in the same region, so the second load of a pair finds its translation where the first put
 *    it. The latencies of the second loads split into row hits and misses (1-D 2-means); the
 *    offsets d whose median is a hit are the ones that stay in the row x opened. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/interleave.h"
#include "analysis/partitions.h"
#include "analysis/stats.h"
#include "probes/probe.h"
#include "util/interrupt.h"
#include "util/rng.h"

#define MAX_STRIDES 96
#define MAX_REPEATS 64
#define REGION_BYTES (2ull << 20)   /* a pair stays inside one such region (a large page) */
#define SLOT_BYTES (64ull << 10)    /* first loads start at these blocks of a region */
#define SLOTS 16                    /* per region: the first 1 MB; d goes up to 1 MB */
#define MIN_OFFSET 128              /* the smallest d: the next 128-byte line */
#define MAX_OFFSET (1ull << 20)
#define OFFSETS 15                  /* 128 B .. 1 MB, and one of random d */

static struct {
    uint64_t chunk, footprint, max_stride, traffic;
    long long repeats, pairs;
} opt;

const gs_opt gs_probe_dram_layout_opts[] = {
    {"chunk", GS_OPT_BYTES, &opt.chunk, "BYTES", "bytes read at each stride (a power of two "
     ">= 16; default 32)", NULL, 0, 0},
    {"footprint", GS_OPT_BYTES, &opt.footprint, "BYTES", "array the strided reads cover (default "
     "4 GB, at most a quarter of the free memory, at least 8 x L2)", NULL, 0, 0},
    {"max-stride", GS_OPT_BYTES, &opt.max_stride, "BYTES", "largest stride (default 1 MB)", NULL,
     0, 0},
    {"traffic", GS_OPT_BYTES, &opt.traffic, "BYTES", "bytes each strided launch reads at least "
     "(default 256 MB)", NULL, 0, 0},
    {"repeats", GS_OPT_INT, &opt.repeats, "N", "timed launches per stride (default 3, 7 with "
     "--thorough)", NULL, 2, MAX_REPEATS},
    {"pairs", GS_OPT_INT, &opt.pairs, "N", "load pairs per offset in the row-buffer chase "
     "(default 64, 192 with --thorough)", NULL, 8, 4096},
    GS_OPT_END,
};

/* ---- 1. interleaving -------------------------------------------------------------------------- */

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* m x 2^k for m = 1, 3, 5, 7, multiples of 16 from the chunk to max_stride, ascending. */
static size_t stride_list(double *out)
{
    size_t n = 0;
    for (uint64_t p = 16; p <= opt.max_stride && n + 4 <= MAX_STRIDES; p *= 2)
        for (uint64_t m = 1; m <= 7; m += 2)
            if (m * p >= opt.chunk && m * p <= opt.max_stride && (m == 1 || p >= opt.chunk))
                out[n++] = (double)(m * p);
    qsort(out, n, sizeof *out, cmp_double);
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (k == 0 || out[i] != out[k - 1])
            out[k++] = out[i];
    return k;
}

static int strided_gbps(gs_probe_ctx *ctx, uint64_t stride, gs_summary *out, gs_error *err)
{
    double seconds[MAX_REPEATS], gbps[MAX_REPEATS];
    gs_stream_plan plan = {.kind = GS_STREAM_STRIDED_READ, .element_bytes = 16,
                           .bytes = opt.footprint, .repeats = (unsigned)opt.repeats,
                           .traffic_bytes = opt.traffic, .stride_bytes = stride,
                           .chunk_bytes = opt.chunk};
    gs_stream_result r = {.seconds = seconds};
    int rc = ctx->backend->ops->stream(ctx->backend, &plan, &r, err);
    if (rc)
        return rc;
    for (size_t i = 0; i < r.n; i++)
        gbps[i] = seconds[i] > 0 ? (double)r.bytes_moved / seconds[i] * 1e-9 : NAN;
    *out = gs_summarize_robust(gbps, r.n, 5);
    return 0;
}

/* Strides whose reads touch less than twice the L2 per pass are served by the L2, not DRAM (on
 * the H100, with 4 GB and 32-B chunks, bandwidth rose again from 8 KB strides on): the inference
 * sees only the strides below. */
static size_t dram_strides(const double *s, size_t n, uint64_t l2_bytes)
{
    size_t k = 0;
    while (k < n && (l2_bytes == 0 ||
                     (double)opt.footprint / s[k] * (double)opt.chunk >= 2.0 * (double)l2_bytes))
        k++;
    return k;
}

static void record_interleave(gs_probe_out *p, const double *s, const double *g, size_t n,
                              uint64_t l2_bytes)
{
    gs_interleave o;
    const char *method = "strided reads (chunk at every stride, ld.global.cg) over the stride "
                         "sweep: the smallest stride at the bandwidth floor is C x G, the last "
                         "power-of-two stride at full bandwidth is G (src/analysis/interleave.c)";
    gs_series(p, "bandwidth_by_stride", "stride", "B", "bandwidth", "GB/s", s, g, n);
    size_t nd = dram_strides(s, n, l2_bytes);
    if (nd < n)
        gs_param_int(p, "dram_strides_up_to_bytes", nd ? (long long)s[nd - 1] : 0);
    if (gs_interleave_infer(s, g, nd, &o) != 0) {
        const char *why = nd < n ? "fewer than 3 strides whose reads touch at least twice the L2 "
                                   "(larger strides are served by the L2; a larger --footprint "
                                   "reaches further)"
                                 : "fewer than 3 strides measured";
        gs_figure_nd(p, "dram_channel_span_bytes", "B", method, "%s", why);
        gs_figure_nd(p, "dram_interleave_bytes", "B", method, "%s", why);
        gs_figure_nd(p, "dram_channels", "", method, "%s", why);
        return;
    }
    char joint[400];
    const char *why = o.why;
    if (!o.collapsed && nd < n) {
        /* flat over the strides DRAM serves: not "hashed", only not seen up to there */
        snprintf(joint, sizeof joint, "no stride up to %.0f B concentrates traffic (the slowest "
                 "keeps 1/%.2f of the best): a hashed mapping, or a span beyond it; larger "
                 "strides touch less than twice the L2 per pass and are served by the L2 (a "
                 "larger --footprint reaches further)",
                 s[nd - 1], o.drop);
        why = joint;
    }
    gs_figure(p, "dram_strided_best_gbps", o.best_gbps, "GB/s", 0, n, "largest median over "
              "the strides");
    gs_figure(p, "dram_strided_floor_gbps", o.floor_gbps, "GB/s", 0, n, "smallest median over "
              "the strides");
    if (o.span_found)
        gs_figure(p, "dram_channel_span_bytes", o.span_bytes, "B", 0, n, method);
    else
        gs_figure_nd(p, "dram_channel_span_bytes", "B", method, "%s", why);
    if (o.granularity_found)
        gs_figure(p, "dram_interleave_bytes", o.interleave_bytes, "B", 0, n, method);
    else
        gs_figure_nd(p, "dram_interleave_bytes", "B", method, "%s", why);
    if (o.channels_found)
        gs_figure(p, "dram_channels", o.channels, "", 0, n, method);
    else
        gs_figure_nd(p, "dram_channels", "", method, "%s", why);
}

static int run_interleave(gs_probe_ctx *ctx, gs_probe_out *p, gs_error *err)
{
    double s[MAX_STRIDES], g[MAX_STRIDES];
    size_t n = stride_list(s), done = 0;
    gs_progress(ctx, "dram-layout: %zu strides, %llu-byte chunks over %llu bytes", n,
                (unsigned long long)opt.chunk, (unsigned long long)opt.footprint);
    int rc = 0;
    for (; done < n && !rc; done++) {
        gs_summary m;
        if (gs_interrupted())
            rc = gs_fail(err, GS_ERR_INTERRUPTED, "dram-layout: interrupted");
        else if ((rc = strided_gbps(ctx, (uint64_t)s[done], &m, err)) == 0)
            g[done] = m.median;
    }
    if (rc)
        done--;
    record_interleave(p, s, g, done, ctx->info->l2_bytes);
    return rc;
}

/* ---- 2. row buffer ---------------------------------------------------------------------------- */

typedef struct pair_plan {
    uint64_t *chain;              /* 2 x pairs offsets: x, x + d, ... */
    size_t *which;                /* per pair: index of its offset (OFFSETS - 1: random d) */
    size_t pairs;
    uint64_t footprint;
} pair_plan;

static uint64_t offset_of(size_t k)
{
    return (uint64_t)MIN_OFFSET << k;   /* k < OFFSETS - 1 */
}

/* Pairs in random order; pair i takes slot (region i / SLOTS, block i % SLOTS) at byte 8 x block
 * of it, so no two elements of the chain meet (their low 7 bits differ per block, and one region
 * holds one pair per block). */
static int build_pairs(gs_rng *rng, pair_plan *pp, gs_error *err)
{
    pp->pairs = (size_t)opt.pairs * OFFSETS;
    pp->chain = malloc(2 * pp->pairs * sizeof *pp->chain);
    pp->which = malloc(pp->pairs * sizeof *pp->which);
    if (!pp->chain || !pp->which)
        return gs_fail(err, GS_ERR_NO_MEMORY, "dram-layout: out of host memory");
    for (size_t i = 0; i < pp->pairs; i++)
        pp->which[i] = i % OFFSETS;
    for (size_t i = pp->pairs - 1; i > 0; i--) {
        size_t j = (size_t)gs_rng_below(rng, i + 1), t = pp->which[i];
        pp->which[i] = pp->which[j], pp->which[j] = t;
    }
    for (size_t i = 0; i < pp->pairs; i++) {
        uint64_t block = i % SLOTS;
        uint64_t x = (uint64_t)(i / SLOTS) * REGION_BYTES + block * SLOT_BYTES + 8 * block;
        uint64_t d = pp->which[i] < OFFSETS - 1
                         ? offset_of(pp->which[i])
                         : MIN_OFFSET * (1 + gs_rng_below(rng, MAX_OFFSET / MIN_OFFSET - 1));
        pp->chain[2 * i] = x;
        pp->chain[2 * i + 1] = x + d;
    }
    pp->footprint = (uint64_t)((pp->pairs + SLOTS - 1) / SLOTS) * REGION_BYTES;
    return 0;
}

/* Medians per offset and the two clusters of all second loads. */
static void record_rows(gs_probe_out *p, const pair_plan *pp, const uint32_t *lat, size_t n)
{
    const char *method = "second loads of cold (x, x + d) pairs in one 2 MB region, one thread, "
                         "ld.global.cg; 1-D 2-means over their latencies";
    double *second = malloc(pp->pairs * sizeof *second), *per = malloc(pp->pairs * sizeof *per);
    double x[OFFSETS], med[OFFSETS];
    size_t m = 0;
    if (!second || !per) {
        free(second), free(per);
        gs_figure_nd(p, "dram_row_hit_latency_cycles", "cycles", method, "out of host memory");
        return;
    }
    for (size_t i = 0; 2 * i + 1 < n && i < pp->pairs; i++)
        second[m++] = lat[2 * i + 1];
    for (size_t k = 0; k < OFFSETS; k++) {
        size_t c = 0;
        for (size_t i = 0; i < m; i++)
            if (pp->which[i] == k)
                per[c++] = second[i];
        x[k] = k < OFFSETS - 1 ? (double)offset_of(k) : 0;
        med[k] = gs_median(per, c);
    }
    gs_series(p, "latency_by_offset", "offset (0 = random)", "B", "latency", "cycles", x, med,
              OFFSETS);
    gs_figure(p, "dram_random_pair_latency_cycles", med[OFFSETS - 1], "cycles", 0,
              (size_t)opt.pairs, "median second-load latency of pairs with d random in "
              "[128 B, 1 MB)");
    gs_two_clusters c;
    if (gs_cluster_two(second, m, 0.02, &c) != 0 || !c.separated) {
        const char *why = m < 8 ? "fewer than 8 pairs recorded"
                                : "one latency cluster: a row-buffer hit is not faster than a miss "
                                  "here (or the row is closed between two dependent loads)";
        gs_figure_nd(p, "dram_row_hit_latency_cycles", "cycles", method, "%s", why);
        gs_figure_nd(p, "dram_row_miss_latency_cycles", "cycles", method, "%s", why);
        gs_figure_nd(p, "dram_row_miss_extra_cycles", "cycles", method, "%s", why);
        free(second), free(per);
        return;
    }
    char hits[256] = "";
    for (size_t k = 0; k + 1 < OFFSETS; k++)
        if (med[k] < c.threshold)
            snprintf(hits + strlen(hits), sizeof hits - strlen(hits), "%s%llu", hits[0] ? "," : "",
                     (unsigned long long)offset_of(k));
    /* The same offsets must hit in both halves of the pairs (even and odd), or the split is noise:
     * on the H100 one run had no offset in the faster group and the next 128, 4096, 65536 and
     * 131072 B, with about 4 pairs per offset. */
    bool same_halves = true;
    for (size_t k = 0; k + 1 < OFFSETS && same_halves; k++) {
        double half[2] = {0, 0};
        for (int h = 0; h < 2; h++) {
            size_t c2 = 0;
            for (size_t i = (size_t)h; i < m; i += 2)
                if (pp->which[i] == k)
                    per[c2++] = second[i];
            half[h] = c2 ? gs_median(per, c2) : NAN;
        }
        if (isnan(half[0]) || isnan(half[1]) ||
            (half[0] < c.threshold) != (half[1] < c.threshold))
            same_halves = false;
    }
    /* Two clusters but no offset whose median is a hit: the split is not by row (on the H100 the
     * samples split at 569 and 765 cycles while every offset's median lay at 680-743). */
    if (!hits[0] || !same_halves) {
        char why[300];
        snprintf(why, sizeof why, "the second loads split into %.0f and %.0f cycles, but %s: the "
                 "split is not by row (more --pairs may tell)", c.low, c.high,
                 !hits[0] ? "no offset's median falls in the faster group"
                          : "the offsets in the faster group differ between two halves of the "
                            "pairs");
        gs_figure_nd(p, "dram_row_hit_latency_cycles", "cycles", method, "%s", why);
        gs_figure_nd(p, "dram_row_miss_latency_cycles", "cycles", method, "%s", why);
        gs_figure_nd(p, "dram_row_miss_extra_cycles", "cycles", method, "%s", why);
        gs_figure_nd(p, "dram_row_hit_offsets", "", method, "%s", why);
        free(second), free(per);
        return;
    }
    gs_figure(p, "dram_row_hit_latency_cycles", c.low, "cycles", 0, c.n_low, method);
    gs_figure(p, "dram_row_miss_latency_cycles", c.high, "cycles", 0, c.n_high, method);
    gs_figure(p, "dram_row_miss_extra_cycles", c.high - c.low, "cycles", 0, m, method);
    gs_figure_text(p, "dram_row_hit_offsets", hits[0] ? hits : "(none)", m, "offsets d (bytes) "
                   "whose median second-load latency is below the threshold between the "
                   "clusters: x + d is in the row x opened");
    free(second), free(per);
}

static int run_rows(gs_probe_ctx *ctx, gs_probe_out *p, gs_rng *rng, gs_error *err)
{
    pair_plan pp = {0};
    uint32_t *lat = NULL;
    int rc = build_pairs(rng, &pp, err);
    if (!rc && !(lat = malloc(2 * pp.pairs * sizeof *lat)))
        rc = gs_fail(err, GS_ERR_NO_MEMORY, "dram-layout: out of host memory");
    if (!rc) {
        gs_progress(ctx, "dram-layout: row buffer, %zu cold load pairs over %llu bytes", pp.pairs,
                    (unsigned long long)pp.footprint);
        gs_chase_plan plan = {.space = GS_SPACE_GLOBAL, .path = GS_PATH_CG,
                              .footprint_bytes = pp.footprint, .chain = pp.chain,
                              .chain_len = 2 * pp.pairs, .element_bytes = 8, .warmup_passes = 0,
                              .record_n = 2 * pp.pairs, .carveout_percent = -1};
        gs_chase_result r = {.latency_cycles = lat, .sm_id = -1};
        gs_param_int(p, "row_pairs", (long long)pp.pairs);
        gs_param_int(p, "row_footprint_bytes", (long long)pp.footprint);
        rc = ctx->backend->ops->chase(ctx->backend, &plan, &r, err);
        if (!rc)
            record_rows(p, &pp, lat, r.recorded);
    }
    free(pp.chain), free(pp.which), free(lat);
    return rc;
}

/* ---- the probe -------------------------------------------------------------------------------- */

static void set_defaults(const gs_probe_ctx *ctx)
{
    const gs_device_info *info = ctx->info;
    opt.chunk = 32;
    opt.footprint = 4ull << 30;
    if (info->global_mem_free_bytes && opt.footprint > info->global_mem_free_bytes / 4)
        opt.footprint = info->global_mem_free_bytes / 4;
    if (opt.footprint < 8 * info->l2_bytes)
        opt.footprint = 8 * info->l2_bytes;
    opt.max_stride = 1ull << 20;
    opt.traffic = 256ull << 20;
    opt.repeats = ctx->thorough ? 7 : 3;
    opt.pairs = ctx->thorough ? 192 : 64;
}

static int gs_probe_dram_layout_run(gs_probe_ctx *ctx, gs_error *err)
{
    set_defaults(ctx);
    int rc = gs_probe_parse_opts(ctx, gs_probe_dram_layout_opts, err);
    if (rc)
        return rc;
    if (opt.chunk < 16 || (opt.chunk & (opt.chunk - 1)) || opt.max_stride < 4 * opt.chunk ||
        opt.footprint < opt.max_stride * 64)
        return gs_fail(err, GS_ERR_USAGE, "dram-layout: --chunk must be a power of two >= 16, "
                       "--max-stride at least 4 chunks and --footprint at least 64 x --max-stride");
    opt.footprint -= opt.footprint % 16;
    gs_probe_out *p = gs_run_add_probe(ctx->run, "dram-layout");
    gs_param_int(p, "chunk_bytes", (long long)opt.chunk);
    gs_param_int(p, "footprint_bytes", (long long)opt.footprint);
    gs_param_int(p, "max_stride_bytes", (long long)opt.max_stride);
    gs_param_int(p, "traffic_bytes", (long long)opt.traffic);
    gs_param_int(p, "repeats", opt.repeats);
    gs_rng rng;
    gs_rng_seed(&rng, ctx->seed);
    rc = run_interleave(ctx, p, err);
    if (!rc)
        rc = run_rows(ctx, p, &rng, err);
    return rc;
}

/* The probe's descriptor (probe.h). */
static const char *const headline[] = {"dram_channels", "dram_interleave_bytes", "dram_channel_span_bytes", "dram_row_hit_latency_cycles", "dram_row_miss_latency_cycles", NULL};
const gs_probe_def gs_probe_dram_layout_def = {
    .name = "dram-layout",
    .run = gs_probe_dram_layout_run,
    .flags = 0,
    .summary = "DRAM channels: interleave granularity and channel count from strided reads; "
               "row-buffer hit and miss latency",
    .opts = gs_probe_dram_layout_opts,
    .expected_s = 0.3,
    .expected_sim_s = 0.05,
    .keep_rank = 0,
    .hints = {.headline = headline},
};
