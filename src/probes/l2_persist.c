/* Probe `l2-persist`: the L2 persistence window (CUDA's access policy window, compute capability
 * 8.0+). It reads the limits (cudaDevAttrMaxPersistingL2CacheSize, the largest
 * set-aside; cudaDevAttrMaxAccessPolicyWindowSize, the largest window), then runs one experiment
 * three ways: a hot region H (half the set-aside) is used again after every sweep of a streaming
 * buffer S (four times the L2) that would evict it, with no window, with a window over H whose
 * hits persist, and with the same window whose hits are normal (the control). It measures the
 * latency of a pointer chase over H after each sweep (average cycles per load, ld.global.cg),
 * placed between the L2-hit plateau (the same chase again) and the DRAM plateau (the same chain
 * in a cold region D), which gives the share of H's loads that hit, and the GB/s of re-reading H
 * after a sweep. The set-aside is this process's limit (cudaDeviceSetLimit), restored by the
 * backend before each plan returns; nothing device-wide changes. A device or simulator model
 * without a persisting L2 gets "not applicable (...)" on every figure; a window that changes
 * nothing beyond the intervals gets "not determined: the persistence window changed nothing
 * measurable". Usage: gpusonar run l2-persist [--rounds N] [--hot-bytes B] ... */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/chain.h"
#include "analysis/persist_gain.h"
#include "analysis/stats.h"
#include "probes/probe.h"
#include "util/interrupt.h"

#define MAX_ROUNDS 200
#define MODES 3
#define MIN_SPACING 256                  /* chain elements at least this far apart */

static const gs_persist_mode modes[MODES] = {GS_PERSIST_NONE, GS_PERSIST_PERSISTING,
                                             GS_PERSIST_NORMAL};

static struct {
    long long rounds;
    long long accesses;
    uint64_t hot_bytes;
    uint64_t stream_bytes;
    uint64_t set_aside_bytes;
} opt;

const gs_opt gs_probe_l2_persist_opts[] = {
    {"rounds", GS_OPT_INT, &opt.rounds, "N",
     "timed rounds per mode, after one untimed (default 7, 21 with --thorough)", NULL, 2,
     MAX_ROUNDS},
    {"accesses", GS_OPT_INT, &opt.accesses, "N",
     "loads of each chase: the chain's elements, spread over H (default 2048)", NULL, 16,
     1 << 20},
    {"hot-bytes", GS_OPT_BYTES, &opt.hot_bytes, "BYTES",
     "size of the hot region H (default half the set-aside, at most the largest window)", NULL,
     0, 0},
    {"stream-bytes", GS_OPT_BYTES, &opt.stream_bytes, "BYTES",
     "size of the streaming buffer S swept between uses of H (default 4 x the L2)", NULL, 0, 0},
    {"set-aside", GS_OPT_BYTES, &opt.set_aside_bytes, "BYTES",
     "persisting L2 set-aside asked for, this process only, restored after (default the "
     "device's maximum)", NULL, 0, 0},
    GS_OPT_END,
};


static const char *const chase_method =
    "one thread chases a random cyclic chain over H with ld.global.cg after a sweep of S, on a "
    "stream carrying the mode's access policy window; clock64 cycles per load, median over rounds";
static const char *const read_method =
    "every SM reads all of H with 16-byte ld.global.cg after a sweep of S; bytes / (last block's "
    "end - first block's start, globaltimer), median over rounds";
static const char *const nothing = "the persistence window changed nothing measurable";

/* What one mode gave: summaries of the chases (cycles) and of the reads (GB/s). */
typedef struct mode_stats {
    gs_summary hot, warm, cold;
    gs_summary hot_gbps, warm_gbps, cold_gbps;
    double hot_series[MAX_ROUNDS];
    size_t n;
} mode_stats;

static void not_applicable(gs_probe_out *p, const char *why)
{
    static const char *const names[] = {
        "max_set_aside_bytes", "max_window_bytes", "l2_hit_cycles", "dram_cycles",
        "hot_cycles_none", "hot_cycles_persisting", "hot_cycles_normal", "hit_rate_persisting",
        "latency_speedup", "hot_read_gbps_none", "hot_read_gbps_persisting", "read_speedup"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        gs_figure_nd(p, names[i], "", "L2 persistence window", "not applicable (%s)", why);
}

/* The chain: `accesses` elements hot_bytes / accesses apart (a multiple of 8), in one random
 * cyclic order (Sattolo) from --seed. */
static int build_chain(const gs_probe_ctx *ctx, uint64_t **chain, gs_error *err)
{
    uint64_t spacing = opt.hot_bytes / (uint64_t)opt.accesses / 8 * 8;
    if (spacing < MIN_SPACING)
        return gs_fail(err, GS_ERR_USAGE, "l2-persist: %lld accesses over a %llu B hot region are "
                       "%llu B apart; they must be %d B apart at least: use fewer --accesses or a "
                       "larger --hot-bytes", opt.accesses, (unsigned long long)opt.hot_bytes,
                       (unsigned long long)spacing, MIN_SPACING);
    *chain = malloc((size_t)opt.accesses * sizeof **chain);
    gs_rng rng;
    gs_rng_seed(&rng, ctx->seed ^ 0x6c327065727369ull);
    if (!*chain || gs_chain_sattolo(&rng, (uint64_t)opt.accesses, spacing, *chain)) {
        free(*chain);
        *chain = NULL;
        return gs_fail(err, GS_ERR_NO_MEMORY, "out of host memory for the chain");
    }
    return 0;
}

static void to_gbps(const double *seconds, size_t n, double bytes, double *gbps)
{
    for (size_t i = 0; i < n; i++)
        gbps[i] = seconds[i] > 0 ? bytes / seconds[i] * 1e-9 : NAN;
}

/* One mode's plan, summarised. */
static int measure(gs_probe_ctx *ctx, gs_persist_plan *plan, gs_persist_mode mode,
                   mode_stats *s, gs_persist_result *r, gs_error *err)
{
    double a[6][MAX_ROUNDS], gbps[MAX_ROUNDS];
    if (gs_interrupted())
        return gs_fail(err, GS_ERR_INTERRUPTED, "interrupted");
    gs_progress(ctx, "l2-persist: %s, %lld rounds", gs_persist_mode_name(mode), opt.rounds);
    plan->mode = mode;
    *r = (gs_persist_result){.hot_cycles = a[0], .warm_cycles = a[1], .cold_cycles = a[2],
                             .hot_read_s = a[3], .warm_read_s = a[4], .cold_read_s = a[5]};
    int rc = ctx->backend->ops->persist(ctx->backend, plan, r, err);
    if (rc)
        return rc;
    s->n = r->n;
    s->hot = gs_summarize_robust(a[0], r->n, 5);
    s->warm = gs_summarize_robust(a[1], r->n, 5);
    s->cold = gs_summarize_robust(a[2], r->n, 5);
    memcpy(s->hot_series, a[0], r->n * sizeof *a[0]);
    for (int k = 0; k < 3; k++) {
        to_gbps(a[3 + k], r->n, (double)plan->hot_bytes, gbps);
        gs_summary g = gs_summarize_robust(gbps, r->n, 5);
        *(k == 0 ? &s->hot_gbps : k == 1 ? &s->warm_gbps : &s->cold_gbps) = g;
    }
    r->hot_cycles = r->warm_cycles = r->cold_cycles = NULL;
    r->hot_read_s = r->warm_read_s = r->cold_read_s = NULL;
    return 0;
}

/* a / b with the relative intervals added in quadrature. */
static double ratio_ci(const gs_summary *a, const gs_summary *b)
{
    double ra = a->median ? a->ci95 / a->median : 0, rb = b->median ? b->ci95 / b->median : 0;
    return a->median / b->median * sqrt(ra * ra + rb * rb);
}

/* Hit rate of one mode between the plateaus of the baseline (no window: the chase again is an L2
 * hit, the chain in D a DRAM access, whatever a window does to H); the window's is not determined
 * when its hot latency cannot be told from the baseline's. */
static void hit_rate_figure(gs_probe_out *p, const char *mode, const mode_stats *s,
                            const mode_stats *none, bool window)
{
    char name[64];
    snprintf(name, sizeof name, "hit_rate_%s", mode);
    const char *method = "share of H's loads that hit after a sweep: (dram_cycles - hot) / "
                         "(dram_cycles - l2_hit_cycles), the plateaus measured without a window";
    double noise = none->warm.ci95 + none->cold.ci95;
    double h = gs_persist_hit_rate(s->hot.median, none->warm.median, none->cold.median, noise);
    if (isnan(h))
        gs_figure_nd(p, name, "", method, "the L2-hit (%.4g cycles) and DRAM (%.4g cycles) "
                     "plateaus are not apart beyond their intervals", none->warm.median,
                     none->cold.median);
    else if (window && gs_persist_overlap(s->hot.median, s->hot.ci95, none->hot.median,
                                          none->hot.ci95))
        gs_figure_nd(p, name, "", method, "%s", nothing);
    else
        gs_figure(p, name, h, "", s->hot.ci95 / (none->cold.median - none->warm.median), s->n,
                  method);
}

static void chase_figures(gs_probe_out *p, const mode_stats st[MODES])
{
    const mode_stats *none = &st[0], *win = &st[1];
    char name[64];
    gs_figure(p, "l2_hit_cycles", none->warm.median, "cycles", none->warm.ci95, none->n,
              "the chase over H again right after it (H in the L2), no window; median over "
              "rounds");
    gs_figure(p, "dram_cycles", none->cold.median, "cycles", none->cold.ci95, none->n,
              "the same chain in the cold region D after the sweep, no window; median over "
              "rounds");
    for (int m = 0; m < MODES; m++) {
        const char *mode = gs_persist_mode_name(modes[m]);
        snprintf(name, sizeof name, "hot_cycles_%s", mode);
        gs_figure(p, name, st[m].hot.median, "cycles", st[m].hot.ci95, st[m].n, chase_method);
        hit_rate_figure(p, mode, &st[m], none, modes[m] == GS_PERSIST_PERSISTING);
        double x[MAX_ROUNDS];
        for (size_t i = 0; i < st[m].n; i++)
            x[i] = (double)i;
        snprintf(name, sizeof name, "hot_cycles_by_round_%s", mode);
        gs_series(p, name, "round", "", "hot chase", "cycles", x, st[m].hot_series, st[m].n);
    }
    const char *method = "hot_cycles_none / hot_cycles_persisting";
    if (gs_persist_overlap(none->hot.median, none->hot.ci95, win->hot.median, win->hot.ci95))
        gs_figure_nd(p, "latency_speedup", "", method, "%s", nothing);
    else
        gs_figure(p, "latency_speedup", none->hot.median / win->hot.median, "",
                  ratio_ci(&none->hot, &win->hot), win->n, method);
}

static void read_figures(gs_probe_out *p, const mode_stats st[MODES])
{
    const mode_stats *none = &st[0], *win = &st[1];
    char name[64];
    gs_figure(p, "l2_read_gbps", none->warm_gbps.median, "GB/s", none->warm_gbps.ci95, none->n,
              "all of H read again right after it (H in the L2), no window");
    gs_figure(p, "dram_read_gbps", none->cold_gbps.median, "GB/s", none->cold_gbps.ci95,
              none->n, "all of the cold region D read after the sweep, no window");
    for (int m = 0; m < MODES; m++) {
        snprintf(name, sizeof name, "hot_read_gbps_%s", gs_persist_mode_name(modes[m]));
        if (isnan(st[m].hot_gbps.median))
            gs_figure_nd(p, name, "GB/s", read_method, "the backend did not time the reads");
        else
            gs_figure(p, name, st[m].hot_gbps.median, "GB/s", st[m].hot_gbps.ci95, st[m].n,
                      read_method);
    }
    const char *method = "hot_read_gbps_persisting / hot_read_gbps_none";
    if (gs_persist_overlap(none->hot_gbps.median, none->hot_gbps.ci95, win->hot_gbps.median,
                           win->hot_gbps.ci95)) {
        gs_figure_nd(p, "read_speedup", "", method, "%s", nothing);
        gs_figure_nd(p, "read_hit_rate_persisting", "", "from read times", "%s", nothing);
        return;
    }
    gs_figure(p, "read_speedup", win->hot_gbps.median / none->hot_gbps.median, "",
              ratio_ci(&win->hot_gbps, &none->hot_gbps), win->n, method);
    /* seconds per byte sit between the plateaus as cycles per load do */
    double h = gs_persist_hit_rate(1 / win->hot_gbps.median, 1 / none->warm_gbps.median,
                                   1 / none->cold_gbps.median, 0);
    if (isnan(h))
        gs_figure_nd(p, "read_hit_rate_persisting", "", "from read times", "the L2 and DRAM "
                     "read times are not apart");
    else
        gs_figure(p, "read_hit_rate_persisting", h, "", 0, win->n,
                  "(1/dram - 1/hot) / (1/dram - 1/l2) of hot_read_gbps_persisting between "
                  "l2_read_gbps and dram_read_gbps: the share of H's bytes the L2 served, if "
                  "each level's time adds");
}

/* The control (window with hitProp normal) should look like no window. */
static void check_control(gs_probe_out *p, const mode_stats st[MODES])
{
    if (!gs_persist_overlap(st[0].hot.median, st[0].hot.ci95, st[2].hot.median, st[2].hot.ci95))
        gs_probe_warning(p, "the control (window with hitProp normal: %.4g cycles) differs from "
                         "no window (%.4g cycles): something besides the persisting property "
                         "moved the hot latency", st[2].hot.median, st[0].hot.median);
}

/* Defaults that need the limits: set-aside the maximum, H half of it (at most the largest
 * window, a multiple of 64 KB), S four times the L2 (or 8 H where the L2 size is unknown). */
static int fill_defaults(const gs_probe_ctx *ctx, const gs_persist_result *q, gs_error *err)
{
    if (!opt.set_aside_bytes || opt.set_aside_bytes > q->max_set_aside_bytes)
        opt.set_aside_bytes = q->max_set_aside_bytes;
    if (!opt.hot_bytes) {
        opt.hot_bytes = opt.set_aside_bytes / 2;
        if (opt.hot_bytes > q->max_window_bytes)
            opt.hot_bytes = q->max_window_bytes;
        opt.hot_bytes = opt.hot_bytes / 65536 * 65536;
    }
    opt.hot_bytes = opt.hot_bytes / 16 * 16;
    if (!opt.stream_bytes)
        opt.stream_bytes = ctx->info->l2_bytes ? 4 * ctx->info->l2_bytes : 8 * opt.hot_bytes;
    opt.stream_bytes = opt.stream_bytes / 16 * 16;
    if (opt.hot_bytes == 0 || opt.hot_bytes > q->max_window_bytes)
        return gs_fail(err, GS_ERR_USAGE, "l2-persist: --hot-bytes must be 16 B .. the largest "
                       "window, %llu B", (unsigned long long)q->max_window_bytes);
    if (opt.stream_bytes == 0)
        return gs_fail(err, GS_ERR_USAGE, "l2-persist: --stream-bytes must be at least 16 B");
    return 0;
}

static void params(gs_probe_out *p)
{
    gs_param_int(p, "rounds", opt.rounds);
    gs_param_int(p, "accesses", opt.accesses);
    gs_param_int(p, "hot_bytes", (long long)opt.hot_bytes);
    gs_param_int(p, "stream_bytes", (long long)opt.stream_bytes);
    gs_param_int(p, "set_aside_bytes", (long long)opt.set_aside_bytes);
}

/* Query, then the three modes. */
static int experiment(gs_probe_ctx *ctx, gs_probe_out *p, gs_error *err)
{
    gs_persist_plan q = {.mode = GS_PERSIST_QUERY};
    gs_persist_result r = {0};
    char why[sizeof err->msg];
    int rc = ctx->backend->ops->persist(ctx->backend, &q, &r, err);
    if (rc)
        return rc;
    if (!r.max_set_aside_bytes || !r.max_window_bytes) {
        if (ctx->info->simulated)
            snprintf(why, sizeof why, "the model has no persisting L2");
        else
            snprintf(why, sizeof why, "the device has no persisting L2: compute capability "
                     "%d.%d, the access policy window needs 8.0+", ctx->info->cc_major,
                     ctx->info->cc_minor);
        not_applicable(p, why);
        return 0;
    }
    gs_figure(p, "max_set_aside_bytes", (double)r.max_set_aside_bytes, "B", 0, 1,
              "cudaDevAttrMaxPersistingL2CacheSize");
    gs_figure(p, "max_window_bytes", (double)r.max_window_bytes, "B", 0, 1,
              "cudaDevAttrMaxAccessPolicyWindowSize");
    if ((rc = fill_defaults(ctx, &r, err)))
        return rc;
    params(p);
    uint64_t *chain = NULL;
    if ((rc = build_chain(ctx, &chain, err)))
        return rc;
    gs_persist_plan plan = {.set_aside_bytes = opt.set_aside_bytes, .hot_bytes = opt.hot_bytes,
                            .chain = chain, .chain_len = (size_t)opt.accesses,
                            .stream_bytes = opt.stream_bytes, .rounds = (unsigned)opt.rounds};
    mode_stats st[MODES];
    for (int m = 0; m < MODES && !rc; m++)
        rc = measure(ctx, &plan, modes[m], &st[m], &r, err);
    free(chain);
    if ((rc = gs_probe_unsupported_why(rc, err, why, sizeof why)) || why[0]) {
        if (why[0])
            not_applicable(p, why);
        return rc;
    }
    gs_figure(p, "set_aside_bytes", (double)r.set_aside_bytes, "B", 0, 1,
              "cudaDeviceGetLimit(cudaLimitPersistingL2CacheSize) after setting it, this process "
              "only; the previous value was restored after each mode");
    chase_figures(p, st);
    read_figures(p, st);
    check_control(p, st);
    return 0;
}

static int gs_probe_l2_persist_run(gs_probe_ctx *ctx, gs_error *err)
{
    opt.rounds = ctx->thorough ? 21 : 7;
    opt.accesses = 2048;
    opt.hot_bytes = opt.stream_bytes = opt.set_aside_bytes = 0;
    int rc = gs_probe_parse_opts(ctx, gs_probe_l2_persist_opts, err);
    if (rc)
        return rc;
    gs_probe_out *p = gs_run_add_probe(ctx->run, "l2-persist");
    if (!ctx->backend->ops->persist) {
        not_applicable(p, "the backend has no persistence window operation");
        return 0;
    }
    return experiment(ctx, p, err);
}

/* The probe's descriptor (probe.h). */
static const char *const headline[] = {"max_set_aside_bytes", "max_window_bytes", NULL};
const gs_probe_def gs_probe_l2_persist_def = {
    .name = "l2-persist",
    .run = gs_probe_l2_persist_run,
    .flags = 0,
    .summary = "L2 persistence window: set-aside and window limits, hot-region latency, hit rate "
               "and GB/s with and without it",
    .opts = gs_probe_l2_persist_opts,
    .expected_s = 0.2,
    .expected_sim_s = 9,
    .keep_rank = 0,
    .hints = {.headline = headline, .table = "l2-persist"},
};
