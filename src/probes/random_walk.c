/* Probe `random-walk`: the random walk and the varying-size random walk of the roofline paper
 * (Lemeire et al., Sections VI.B and VI.C). One warp follows a Sattolo cycle (one random cyclic
 * permutation, so every element is visited before the walk returns) through global, shared,
 * constant and local memory; the cycles per access at each array size give a rounded step per
 * cache level, fitted with Eq. 6 for each level's capacity and latency (src/analysis/eq6.c).
 * Global walks visit one element per slot of slot_bytes (default 32 B, a sector): while slot <=
 * line the fitted capacity is the cache's. Then more and more warps (of 32 chasing lanes) walk at
 * once (cold, every access a first touch): throughput against concurrent walkers, the memory side
 * of the occupancy roofline, and the walkers that saturate it. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/eq6.h"
#include "analysis/saturation.h"
#include "analysis/stats.h"
#include "probes/chain_ahead.h"
#include "probes/probe.h"
#include "util/interrupt.h"
#include "util/profile.h"

#define MAX_POINTS 96
#define SATURATION_FRACTION 0.9
/* how far a walker count's share of the peak moved between runs: 2048 walkers read 0.894-0.934
 * of it over 30 reports on H100s and H200s, so the knee, the first count at 90 %
 * of the peak on a grid of doublings, jumped from 2048 to "not saturated" in 4 of them */
#define SATURATION_TOLERANCE 0.03
#define UNLOADED_CHASES 5          /* chases of one cold walker for its latency's interval */
#define LOADED_CHASES 4            /* chases at the saturation point for the loaded latency's */
#define DEFAULT_SLOT_BYTES 32      /* a sector: no cache level of the GPUs we know is finer */

static struct {
    uint64_t slot;
    uint64_t min_size;
    uint64_t max_size;
    long long per_octave;
    long long timed;
    long long walkers_max;
    long long walker_accesses;
    long long lanes;
    uint64_t walker_slot;
    const char *warmup;
} opt;

const gs_opt gs_probe_random_walk_opts[] = {
    {"slot", GS_OPT_BYTES, &opt.slot, "BYTES", "global walks: one element per slot (default 32 B, "
     "or a smaller line or sector found by the cache probe in this run)", NULL, 0, 0},
    {"min-size", GS_OPT_BYTES, &opt.min_size, "BYTES", "smallest array (default 1 KB)", NULL, 0, 0},
    {"max-size", GS_OPT_BYTES, &opt.max_size, "BYTES",
     "largest global array (default 3 x L2, 8 x L2 with --thorough)", NULL, 0, 0},
    {"per-octave", GS_OPT_INT, &opt.per_octave, "N", "array sizes per doubling (default 2, 4 with "
     "--thorough)", NULL, 1, 16},
    {"timed", GS_OPT_INT, &opt.timed, "N", "timed accesses per array size, after the warm-up "
     "(default 2048, 8192 with --thorough)", NULL, 16, 1 << 24},
    {"warmup", GS_OPT_CHOICE, &opt.warmup, "MODE", "global walks: 'auto' (default) warms a "
     "size above 2 x L2 with the last 2 x L2 / slot accesses of a pass only, walked split (its "
     "segments at once), a smaller one of 65,536 elements or more with one pass walked by two "
     "lanes in lockstep; 'full' every size with one whole serial pass (docs/methods.md, "
     "random-walk)", "full|auto", 0, 0},
    {"walkers-max", GS_OPT_INT, &opt.walkers_max, "N", "most concurrent walkers (default: SMs x "
     "blocks per SM; 0 skips the walkers sweep)", NULL, 0, 1 << 20},
    {"walker-accesses", GS_OPT_INT, &opt.walker_accesses, "N", "accesses of each lane of each "
     "walker in the walkers sweep (default 32)", NULL, 8, 1 << 16},
    {"walker-slot", GS_OPT_BYTES, &opt.walker_slot, "BYTES", "walkers sweep: one element per "
     "slot (default 256 B, so that no two accesses share a line or a DRAM burst)", NULL, 0, 0},
    {"lanes", GS_OPT_INT, &opt.lanes, "N", "lanes of each walker's warp that chase, each its own "
     "copy of the chain (default 32: a warp-wide random gather per step; 1: the paper's single "
     "chase)", NULL, 1, 32},
    GS_OPT_END,
};


typedef struct space_walk {
    gs_space space;
    const char *name;
    uint64_t min_bytes, max_bytes;
    uint64_t slot_bytes;
    int max_levels;
    int density;                  /* sizes per octave: this times --per-octave */
} space_walk;

/* --warmup auto: the accesses that warm a global walk of this footprint, 0 for a whole pass.
 * Above 2 x L2 the warm-up is the last 2 x L2 / slot accesses of a pass (its timed accesses
 * follow as after a whole pass); docs/methods.md says when that leaves the same steady state. */
static uint64_t warmup_cap(const gs_probe_ctx *ctx, gs_space space, uint64_t footprint,
                           uint64_t slot)
{
    uint64_t l2 = ctx->info->l2_bytes;
    if (strcmp(opt.warmup, "auto") != 0 || space != GS_SPACE_GLOBAL || !l2 ||
        footprint <= 2 * l2)
        return 0;
    return 2 * l2 / slot;
}

/* --warmup auto: whether a global walk's warm-up runs split (plan.h, warmup_split): where its
 * warm-up is already the last 2 x L2 / slot accesses of a pass (above 2 x L2), one latency-bound
 * access at a time (1.4 s for 3.9 million). The L2 and TLBs meet each timed access as the serial
 * warm-up leaves them or in the same distribution (docs/methods.md, "The split warm-up"); an L1
 * would keep a timed access's line only if another element of it came within the L1's last
 * lines, a chance below (line / slot - 1) x (L1 lines) / (2 x L2 / slot): with 4 slots a line,
 * 3/2 of the L1's share of the L2, a small fraction of the accesses. Between the L2 and 2 x L2 a
 * walk hits in part, and there an H200 did not read a split pass as a serial one: the same chain
 * read 2 % faster (514.9 against 526.5 cycles at 67 MB, 586.8 against 598.4 at 95 MB, three
 * walks each, 1.5 cycles apart within a mode), so the warm-up stays serial there. */
static bool warmup_split(const gs_probe_ctx *ctx, gs_space space, uint64_t footprint)
{
    uint64_t l2 = ctx->info->l2_bytes;
    return strcmp(opt.warmup, "auto") == 0 && space == GS_SPACE_GLOBAL && l2 &&
           footprint > 2 * l2;
}

/* --warmup auto: lanes of the windowed warm-up (plan.h, warmup_window) of a global walk of count
 * elements that does not run split, 0 for a serial pass. A serial pass over a chain between the L2
 * and 2 x L2 is most of the report's time (1.0 s at 95 MB on an H200); two lanes in lockstep walk
 * it in the serial pass's order, two consecutive positions at a time, in half of it. The L2 does
 * answer a pass with more loads in flight differently: on an H200 the walk after four lanes read
 * 2.6 cycles faster than after a serial pass at 33.5 MB, after eight 4.4 (more near hits, as
 * after the split pass), after two within 1.7 cycles (under 2 standard errors of six chains) at
 * every size from 33.5 to 95 MB (docs/methods.md, "The windowed warm-up"). Below 65,536 elements
 * a serial pass costs under 30 ms and stays. */
#define WINDOW_LANES 2u
#define WINDOW_MIN_ELEMENTS 65536u

static unsigned warmup_window(gs_space space, uint64_t count)
{
    return strcmp(opt.warmup, "auto") == 0 && space == GS_SPACE_GLOBAL &&
           count >= WINDOW_MIN_ELEMENTS ? WINDOW_LANES : 0;
}

static int no_chain(gs_error *err, uint64_t count)
{
    return gs_fail(err, GS_ERR_NO_MEMORY, "out of host memory for a %llu-element chain",
                   (unsigned long long)count);
}

/* A Sattolo cycle of footprint / slot elements (*chain malloc'd, the caller frees it). */
static int sattolo(gs_rng *rng, uint64_t footprint, uint64_t slot, uint64_t **chain,
                   gs_error *err)
{
    uint64_t count = footprint / slot;   /* each lane i walks its own copy, i * footprint on */
    *chain = gs_chain_draw(rng, count, slot);
    return *chain ? 0 : no_chain(err, count);
}

/* One chase over chain (footprint / slot elements). */
static int walk_chain(gs_probe_ctx *ctx, gs_space space, uint64_t footprint, uint64_t slot,
                      const uint64_t *chain, unsigned warmup_passes, uint64_t timed,
                      unsigned walkers, unsigned lanes, gs_chase_result *res, gs_error *err)
{
    uint64_t count = footprint / slot;
    uint64_t span = footprint * lanes;
    /* global walks of 8-byte elements hold the next element's address (a pure j = *j chase, as
     * the cache probe's average walks): 4-byte ones add the base to an offset on every access,
     * which an H100 timed at 9 cycles (the L1 hit 41.3 against the cache probe's 32.0, the L2
     * 294-297 against 286.8) */
    bool wide = span > 0xffffffffull || (space == GS_SPACE_GLOBAL && slot % 8 == 0);
    gs_chase_plan plan = { .space = space, .path = GS_PATH_DEFAULT, .footprint_bytes = span,
                           .chain = chain, .chain_len = count,
                           .element_bytes = wide ? 8 : 4,
                           .warmup_passes = warmup_passes,
                           .warmup_accesses = warmup_passes == 1 && walkers <= 1
                                                  ? warmup_cap(ctx, space, footprint, slot) : 0,
                           .timed_accesses = timed,
                           .walkers = walkers, .lanes = lanes, .lane_stride_bytes = footprint,
                           .carveout_percent = -1,
                           .warmup_split = warmup_split(ctx, space, footprint),
                           .warmup_window = warmup_window(space, count) };
    memset(res, 0, sizeof *res);
    return ctx->backend->ops->chase(ctx->backend, &plan, res, err);
}

static double ns_of(const gs_probe_ctx *ctx, const gs_chase_result *r)
{
    return r->avg_ns > 0 ? r->avg_ns : gs_cycles_to_ns(ctx, r->avg_cycles);
}

/* The smallest line or sector of the `cache` records of global memory already in this run (the
 * caches a global walk goes through), the fetch where a record leaves its sector not determined
 * (a sector is never larger than the fetch); 0 when none. */
static uint64_t cache_probe_unit(const gs_probe_ctx *ctx)
{
    size_t i;
    json_t *p;
    double best = 0;
    json_array_foreach(ctx->run->probes, i, p) {
        const char *name = json_string_value(json_object_get(p, "name"));
        const char *space = json_string_value(json_object_get(json_object_get(p, "params"),
                                                              "space"));
        if (!name || strcmp(name, "cache") != 0 || !space || strcmp(space, "global") != 0)
            continue;
        double unit[2];
        bool got[2] = {gs_figure_get(p, "line_bytes", &unit[0]) == 0,
                       gs_figure_get(p, "sector_bytes", &unit[1]) == 0 ||
                           gs_figure_get(p, "fetch_bytes", &unit[1]) == 0};
        for (int u = 0; u < 2; u++)
            if (got[u] && unit[u] >= 4 && (best == 0 || unit[u] < best))
                best = unit[u];
    }
    return (uint64_t)best;
}

/* Array sizes from min to max, density x per_octave per doubling, multiples of slot, max last. */
static size_t sizes_for(const space_walk *sw, double *sizes)
{
    size_t n = 0;
    double step = 1.0 / (double)(opt.per_octave * sw->density);
    for (double x = log2((double)sw->min_bytes); n + 1 < MAX_POINTS; x += step) {
        uint64_t s = (uint64_t)exp2(x) / sw->slot_bytes * sw->slot_bytes;
        if (s >= sw->max_bytes)
            break;
        if (s >= 2 * sw->slot_bytes && (n == 0 || s > sizes[n - 1]))
            sizes[n++] = (double)s;
    }
    sizes[n++] = (double)(sw->max_bytes / sw->slot_bytes * sw->slot_bytes);
    return n;
}

static void name_of(char *buf, size_t len, const space_walk *sw, const char *what)
{
    snprintf(buf, len, "%s_%s", sw->name, what);
}

/* Parameters of a sharp Eq. 6 fit (gs_eq6_fit_curve_sharp): its latencies, capacities and
 * sharpnesses. */
static size_t fit_params(const gs_eq6_fit *fit)
{
    return 3 * (size_t)fit->levels + 1;
}

/* How far one walk may lie from the fitted curve: t x the fit's residual sd (0 when no degree
 * of freedom is left). */
static double walk_scatter(const gs_eq6_fit *fit)
{
    size_t params = fit_params(fit);
    return fit->n > params ? gs_t95(fit->n - params) * fit->residual_sd : 0;
}

/* The slowest level's latency is the fit's limit past the largest size walked: widen its
 * interval to the bounds that hold whatever the hit curve's shape (gs_eq6_last_bounds), the
 * caches in front holding the fitted capacities with their intervals (gs_eq6_cached_bound), for
 * global walks at least the driver's L2 (a partitioned L2's fitted step is the near part
 * alone), and each walk's scatter about the fit (t x its residual sd) allowed. On sim:hopper a
 * walk to 3 x the L2 (501 cycles at its largest size, still rising) fitted 498 +- 6 for a limit
 * of 532 (a walk to 16 x the L2): its LRU L2 fills 64 B at a time, so the second 32-B slot of a
 * line hits past the capacity for longer than (C/s)^g has it. Unbounded (no size past the
 * caches): the interval is left as the fit has it. */
static void widen_last(const gs_probe_ctx *ctx, const space_walk *sw, const double *sizes,
                       const double *cycles, size_t n, gs_eq6_fit *fit)
{
    int last = fit->levels;
    double cached = gs_eq6_cached_bound(fit, sw->space == GS_SPACE_GLOBAL
                                                 ? (double)ctx->info->l2_bytes : 0);
    double margin = walk_scatter(fit);
    double lo, hi, v = fit->latency[last], ci = fit->latency_ci95[last];
    if (!isfinite(margin) || !isfinite(v) || !isfinite(ci) ||
        gs_eq6_last_bounds(sizes, cycles, n, fit->latency[0], cached, margin, &lo, &hi) != 0)
        return;
    fit->latency_ci95[last] = fmax(ci, fmax(lo - v, fmax(hi - v, v - hi)));
}

/* A level between the fastest and the slowest: the fit's latency leans on the hit curve's
 * shape past the capacity in front (a hashed L1 of 64-B lines walked in 32-B slots, whose
 * spatial hits fade on a curve of their own, put the L2 at 193.5 +- 2.4 cycles for a hit of
 * 201.5), so the level is put between the bounds that hold whatever that shape
 * (gs_eq6_widen_between), with each walk's scatter allowed (the fit's, or the level's plateau's
 * own where less). Returns the levels whose bounds conflict (bit k: level k), their bounds in
 * lo and hi. */
static unsigned widen_between(const double *sizes, const double *cycles, size_t n,
                              gs_eq6_fit *fit, double *lo, double *hi)
{
    double margin = walk_scatter(fit);
    if (!isfinite(margin))
        margin = INFINITY;              /* no scatter known: no bound */
    return gs_eq6_widen_between(fit, sizes, cycles, n, margin, lo, hi);
}

/* Why a level whose bounds conflict is not determined (its two bounds follow). */
static const char conflict_why[] = "the walks bound it to at least %.1f cycles (below its "
                                   "capacity) and at most %.1f (past the caches in front), "
                                   "which conflict: a capacity is not where the fit puts it";

/* Each level's latency (cycles and ns) and capacity as figures of their own; a level whose
 * bounds conflict (bit k of conflicts, its bounds lo[k] and hi[k]) not determined. */
static void record_levels(gs_probe_ctx *ctx, gs_probe_out *p, const space_walk *sw,
                          const gs_eq6_fit *fit, unsigned conflicts, const double *lo,
                          const double *hi, const char *method_ci)
{
    char name[96], ns_name[96], method_last[1024], method_mid[1024];
    snprintf(method_last, sizeof method_last, "%s; the slowest level's interval also covers the "
             "bounds that hold whatever the hit curve's shape past the largest size: at least "
             "the slowest walk, at most what the largest walks allow if as many accesses hit as "
             "the caches in front hold (docs/methods.md, random-walk)", method_ci);
    snprintf(method_mid, sizeof method_mid, "%s; a level between the fastest and the slowest "
             "is put between the bounds that hold whatever the hit curve's shape (its value "
             "their middle, its interval half their span): at least the slowest walk below its "
             "capacity, at most what each walk twice past the caches in front allows if as many "
             "accesses hit there as they hold; each walk's scatter allowed, t x its sd about "
             "the fit or among the level's plateau walks where less (docs/methods.md, "
             "random-walk)",
             method_ci);
    for (int k = 0; k <= fit->levels; k++) {
        /* the interval: eq6.h's (the standard error, widened to the fits the data allow) */
        double ci = isfinite(fit->latency_ci95[k]) ? fit->latency_ci95[k] : 0;
        const char *how = k == 0 ? method_ci : k == fit->levels ? method_last : method_mid;
        snprintf(name, sizeof name, "%s_level%d_latency_cycles", sw->name, k + 1);
        snprintf(ns_name, sizeof ns_name, "%s_level%d_latency_ns", sw->name, k + 1);
        if (conflicts & (1u << k)) {
            gs_figure_nd(p, name, "cycles", how, conflict_why, lo[k], hi[k]);
            gs_figure_nd(p, ns_name, "ns", how, conflict_why, lo[k], hi[k]);
        } else {
            gs_figure(p, name, fit->latency[k], "cycles", ci, fit->n, how);
            gs_figure(p, ns_name, gs_cycles_to_ns(ctx, fit->latency[k]), "ns",
                      gs_cycles_to_ns(ctx, ci), fit->n, how);
        }
        if (k < fit->levels) {
            snprintf(name, sizeof name, "%s_level%d_capacity_bytes", sw->name, k + 1);
            gs_figure(p, name, fit->capacity_bytes[k], "B",
                      isfinite(fit->capacity_ci95[k]) ? fit->capacity_ci95[k] : 0, fit->n,
                      method_ci);
        }
    }
}

/* Eq. 6 fit of one space's curve (fit, or -1 when it could not be made) into figures. */
static void record_fit(gs_probe_ctx *ctx, gs_probe_out *p, const space_walk *sw,
                       const double *sizes, const double *cycles, size_t n, int fitted,
                       const gs_eq6_fit *f)
{
    char name[96];
    gs_eq6_fit fit = *f;
    const char *method = "Eq. 6 of the roofline paper fitted to the varying-size random walk "
                         "(least squares; levels and step sharpness chosen by BIC, fewer "
                         "while a step does not rise beyond its two latencies' intervals)";
    const char *method_ci = "Eq. 6 of the roofline paper fitted to the varying-size random walk "
                            "(least squares; levels and step sharpness chosen by BIC, fewer "
                            "while a step does not rise beyond its two latencies' intervals; "
                            "interval: "
                            "t x a latency's standard error with the capacities held, widened "
                            "to the fits with one step moved that stay within the 95 % bound "
                            "of the residuals and to t x the jackknife's standard error over "
                            "the sizes walked)";
    if (fitted != 0) {
        name_of(name, sizeof name, sw, "latencies_cycles");
        gs_figure_nd(p, name, "cycles", method, "fewer than 3 array sizes were walked");
        return;
    }
    unsigned conflicts = 0;
    double lo[GS_EQ6_MAX_LEVELS + 1], hi[GS_EQ6_MAX_LEVELS + 1];
    if (fit.levels > 0) {
        conflicts = widen_between(sizes, cycles, n, &fit, lo, hi);
        widen_last(ctx, sw, sizes, cycles, n, &fit);
    }
    name_of(name, sizeof name, sw, "levels");
    gs_figure(p, name, fit.levels, "", 0, fit.n, method);
    name_of(name, sizeof name, sw, "latencies_cycles");
    if (conflicts) {
        /* the list is read whole (the summary, the fitted curve): not determined, with its
         * first such level */
        int k = 1;
        while (!(conflicts & (1u << k)))
            k++;
        char reason[320];
        snprintf(reason, sizeof reason, conflict_why, lo[k], hi[k]);
        gs_figure_nd(p, name, "cycles", method_ci, "level %d: %s", k + 1, reason);
    } else {
        gs_figure_list_ci(p, name, fit.latency, fit.latency_ci95, (size_t)fit.levels + 1,
                          "cycles", fit.n, method_ci);
    }
    name_of(name, sizeof name, sw, "capacities_bytes");
    if (fit.levels > 0)
        gs_figure_list_ci(p, name, fit.capacity_bytes, fit.capacity_ci95, (size_t)fit.levels,
                          "B", fit.n, method_ci);
    else
        gs_figure_nd(p, name, "B", method, "no step between %llu B and %llu B: one level serves "
                     "every size walked", (unsigned long long)sizes[0],
                     (unsigned long long)sizes[n - 1]);
    record_levels(ctx, p, sw, &fit, conflicts, lo, hi, method_ci);
    name_of(name, sizeof name, sw, "step_sharpness");
    if (fit.levels > 0)
        gs_figure_list_ci(p, name, fit.sharpness, fit.sharpness_ci95, (size_t)fit.levels, "",
                          fit.n, "g_k of the hit ratio (C_k/s)^g_k past each capacity: 1 is Eq. 6 "
                          "(random hits), large is a sharp LRU-like step (interval: the farthest "
                          "g_k of the fits the data cannot tell from the best fit, or of the "
                          "fits with one size left out)");
    name_of(name, sizeof name, sw, "fit_residual_cycles");
    size_t params = fit_params(&fit);
    double rms_ci = fit.n > params ? gs_rms_ci95(fit.residual_sd, fit.n - params) : 0;
    if (!isfinite(rms_ci))
        rms_ci = 0;
    /* a ragged curve's residual sd leans on its few outlying sizes (the H100's local walk: 8.97
     * and 22.9 cycles in two runs, +- 2-5 by the normal rule): the jackknife's reach too */
    if (isfinite(fit.residual_sd_ci95) && fit.residual_sd_ci95 > rms_ci)
        rms_ci = fit.residual_sd_ci95;
    gs_figure(p, name, fit.residual_sd, "cycles", rms_ci, fit.n,
              "sd of the Eq. 6 fit's residuals (interval: 1.96 / sqrt(2 df) of it, the "
              "degrees of freedom left by every fitted parameter, or t x the jackknife's "
              "standard error over the sizes where wider)");
}

/* A space's latency curve, kept sorted by array size. */
typedef struct curve {
    double sizes[MAX_POINTS], cycles[MAX_POINTS], ns[MAX_POINTS];
    size_t n;
} curve;

/* The largest walk as the space's latency, the curve as a series, then the fit: have where
 * fitted is 0 (-1: none possible), else (fitted 1) one made here. */
static void record_space(gs_probe_ctx *ctx, gs_probe_out *p, const space_walk *sw,
                         const curve *c, int fitted, const gs_eq6_fit *have)
{
    char name[96], method[448];
    size_t last = c->n - 1;
    uint64_t cap = warmup_cap(ctx, sw->space, (uint64_t)c->sizes[last], sw->slot_bytes);
    char warm[192] = "one whole pass";
    bool split = warmup_split(ctx, sw->space, (uint64_t)c->sizes[last]);
    bool window = false;
    for (size_t i = 0; i < c->n; i++)
        window |= !warmup_cap(ctx, sw->space, (uint64_t)c->sizes[i], sw->slot_bytes) &&
                  warmup_window(sw->space, (uint64_t)c->sizes[i] / sw->slot_bytes);
    char lanes[80] = "", above[96] = "";
    if (window)
        snprintf(lanes, sizeof lanes, " (from %u elements walked by %u lanes in lockstep)",
                 WINDOW_MIN_ELEMENTS, WINDOW_LANES);
    if (cap)
        snprintf(above, sizeof above, ", above 2 x L2 the last %llu accesses of a pass%s",
                 (unsigned long long)cap, split ? ", split" : "");
    snprintf(warm, sizeof warm, "one whole pass%s%s%s", lanes, above,
             window || cap ? " (--warmup auto)" : "");
    snprintf(method, sizeof method, "random walk (Sattolo cycle over every %llu-B element of a "
             "%llu-B array), one warp, after %s: average cycles per access",
             (unsigned long long)sw->slot_bytes, (unsigned long long)c->sizes[last], warm);
    /* one walk's value moves from run to run with its chain's placement (an H100's local walk
     * of 16 KB: 261.6-267.0 cycles in four runs); its interval is the scatter of single walks
     * about the fitted curve, t x the fit's residual sd (0 where no fit was made) */
    gs_eq6_fit fit = *have;
    if (fitted == 1)
        fitted = gs_eq6_fit_curve_sharp(c->sizes, c->cycles, c->n, sw->max_levels, &fit);
    size_t params = fit_params(&fit);
    double ci = fitted == 0 && fit.n > params ? gs_t95(fit.n - params) * fit.residual_sd : 0;
    if (!isfinite(ci))
        ci = 0;
    strncat(method, " (interval: t x the sd of the walks about the Eq. 6 fit)",
            sizeof method - strlen(method) - 1);
    name_of(name, sizeof name, sw, "latency_cycles");
    gs_figure(p, name, c->cycles[last], "cycles", ci, (size_t)opt.timed, method);
    name_of(name, sizeof name, sw, "latency_ns");
    gs_figure(p, name, c->ns[last], "ns", c->cycles[last] > 0 ? ci * c->ns[last] / c->cycles[last]
              : 0, (size_t)opt.timed, method);
    name_of(name, sizeof name, sw, "walk");
    gs_series(p, name, "array", "B", "latency", "cycles", c->sizes, c->cycles, c->n);
    record_fit(ctx, p, sw, c->sizes, c->cycles, c->n, fitted, &fit);
}

/* Walk one array size over chain (footprint / slot elements; NULL: drawing it ran out of host
 * memory) into the curve (inserted in order). */
static int walk_point_chain(gs_probe_ctx *ctx, const space_walk *sw, double size,
                            const uint64_t *chain, curve *c, gs_error *err)
{
    gs_chase_result r;
    if (gs_interrupted())
        return gs_fail(err, GS_ERR_INTERRUPTED, "interrupted");
    if (!chain)
        return no_chain(err, (uint64_t)size / sw->slot_bytes);
    int rc = walk_chain(ctx, sw->space, (uint64_t)size, sw->slot_bytes, chain, 1,
                        (uint64_t)opt.timed, 1, 1, &r, err);
    if (rc)
        return rc;
    size_t i = c->n;
    for (; i > 0 && c->sizes[i - 1] > size; i--) {
        c->sizes[i] = c->sizes[i - 1];
        c->cycles[i] = c->cycles[i - 1];
        c->ns[i] = c->ns[i - 1];
    }
    c->sizes[i] = size;
    c->cycles[i] = r.avg_cycles;
    c->ns[i] = ns_of(ctx, &r);
    c->n++;
    return 0;
}

/* Walk sizes[0 .. n) in turn into the curve, each size's chain drawn while the one before is
 * walked; *at: the size walked last or failing. */
static int walk_sizes(gs_probe_ctx *ctx, const space_walk *sw, const double *sizes, size_t n,
                      gs_rng *rng, curve *c, double *at, gs_error *err)
{
    int rc = 0;
    gs_chain_ahead next = {0};
    if (n)
        gs_chain_ahead_start(&next, rng, (uint64_t)sizes[0] / sw->slot_bytes, sw->slot_bytes);
    for (size_t i = 0; i < n && rc == 0; i++) {
        uint64_t *chain = gs_chain_ahead_take(&next);
        if (i + 1 < n)
            gs_chain_ahead_start(&next, rng, (uint64_t)sizes[i + 1] / sw->slot_bytes,
                                 sw->slot_bytes);
        rc = walk_point_chain(ctx, sw, *at = sizes[i], chain, c, err);
        free(chain);
    }
    free(gs_chain_ahead_take(&next));   /* the one drawn for a size not walked */
    return rc;
}

/* Sizes that sharpen capacity k of a fit: the geometric middles of the interval that holds it and
 * of the next one (where the step rounds off), as multiples of the slot. */
static size_t refine_sizes(const space_walk *sw, const curve *c, const gs_eq6_fit *fit, int k,
                           double *add, size_t room)
{
    size_t n = 0;
    for (size_t i = 0; i + 1 < c->n; i++) {
        if (!(c->sizes[i] <= fit->capacity_bytes[k] && fit->capacity_bytes[k] < c->sizes[i + 1]))
            continue;
        for (size_t j = i; j <= i + 1 && j + 1 < c->n && n < room; j++) {
            double mid = sqrt(c->sizes[j] * c->sizes[j + 1]);
            mid = floor(mid / (double)sw->slot_bytes) * (double)sw->slot_bytes;
            if (mid > c->sizes[j] && mid < c->sizes[j + 1] && (n == 0 || add[n - 1] != mid))
                add[n++] = mid;
        }
    }
    return n;
}

/* The varying-size walk of one space, refined around the fitted capacities; a size the backend
 * cannot walk ends the sweep there. */
static int sweep_space(gs_probe_ctx *ctx, gs_probe_out *p, const space_walk *sw, gs_rng *rng,
                       gs_error *err)
{
    double sizes[MAX_POINTS], add[2 * GS_EQ6_MAX_LEVELS];
    static curve c;
    size_t n = sizes_for(sw, sizes);
    char name[96];
    c.n = 0;
    char stage[64];
    snprintf(stage, sizeof stage, "random-walk:%s", sw->name);
    gs_profile_stage(stage);
    gs_progress(ctx, "random-walk: %s, %zu sizes from %.0f B to %.0f B", sw->name, n, sizes[0],
                sizes[n - 1]);
    double at = 0;
    int rc = walk_sizes(ctx, sw, sizes, n, rng, &c, &at, err);
    /* Then each capacity, lowest first, sharpened by the fit of the curve as walked so far: a
     * step that a first fit puts past the L2 can go once the L2's own sizes are walked (an H200:
     * a first fit's third level at 63.7 MB, gone from the fit with the L2's two sizes, whose
     * own two sizes of 56 and 80 MB would have taken 1.3 s of warm-up). */
    gs_eq6_fit fit = {0};
    int fitted = 1;                                        /* 1: no fit of the curve made */
    size_t room = MAX_POINTS - n < 8 ? MAX_POINTS - n : 8, fit_n = c.n;
    if (rc == 0)
        fitted = gs_eq6_fit_curve_sharp(c.sizes, c.cycles, c.n, sw->max_levels, &fit);
    for (int k = 0; rc == 0 && fitted == 0 && k < fit.levels && room > 0; k++) {
        size_t extra = refine_sizes(sw, &c, &fit, k, add, room);
        room -= extra;
        rc = walk_sizes(ctx, sw, add, extra, rng, &c, &at, err);
        if (rc == 0 && extra) {
            fitted = gs_eq6_fit_curve_sharp(c.sizes, c.cycles, c.n, sw->max_levels, &fit);
            fit_n = c.n;
        }
    }
    if ((rc == GS_ERR_UNSUPPORTED || rc == GS_ERR_NO_MEMORY) && c.n == 0) {
        name_of(name, sizeof name, sw, "latency_cycles");
        gs_figure_nd(p, name, "cycles", "random walk", "%s", err->msg);
        gs_error_clear(err);
        return 0;
    }
    if (rc == GS_ERR_UNSUPPORTED || rc == GS_ERR_NO_MEMORY) {
        gs_probe_warning(p, "%s walk stopped at %.0f B: %s", sw->name, at, err->msg);
        gs_error_clear(err);
    } else if (rc) {
        return rc;
    }
    record_space(ctx, p, sw, &c, fit_n == c.n ? fitted : 1, &fit);
    return 0;
}

/* Walker counts 1, 2, 4, ... up to max (max last). */
static size_t walker_counts(unsigned max, double *w)
{
    size_t n = 0;
    for (unsigned x = 1; x < max && n + 1 < MAX_POINTS; x *= 2)
        w[n++] = x;
    w[n++] = max;
    return n;
}

/* y at x on the curve (xs, ys): linear in y between the points around x on a log2 scale of x
 * (the end point's y outside them). */
static double at_log_x(const double *xs, const double *ys, size_t n, double x)
{
    if (n == 0)
        return NAN;
    if (x <= xs[0])
        return ys[0];
    for (size_t i = 1; i < n; i++)
        if (x <= xs[i]) {
            double t = (log2(x) - log2(xs[i - 1])) / (log2(xs[i]) - log2(xs[i - 1]));
            return ys[i - 1] + t * (ys[i] - ys[i - 1]);
        }
    return ys[n - 1];
}

static void record_walkers(gs_probe_ctx *ctx, gs_probe_out *p, const double *w,
                           const double *rate, const double *cycles, size_t n,
                           const gs_summary *unloaded, const gs_summary *loaded)
{
    const char *method = "walkers warps chase one cold Sattolo cycle at once, each from its own "
                         "place (every access a first touch): accesses (of all lanes) completed "
                         "per ns";
    gs_series(p, "walkers_throughput", "walkers", "warps", "throughput", "accesses/ns", w, rate, n);
    gs_series(p, "walkers_latency", "walkers", "warps", "latency", "cycles", w, cycles, n);
    char um[128];
    snprintf(um, sizeof um, "one walker, cold: average cycles per access, the mean of %d chases "
             "of one walker (the first the sweep's)", UNLOADED_CHASES);
    if (unloaded->n > 0)
        gs_figure(p, "walkers_unloaded_latency_cycles", unloaded->mean, "cycles",
                  unloaded->ci95, unloaded->n, um);
    else
        gs_figure_nd(p, "walkers_unloaded_latency_cycles", "cycles", um, "no walk of one "
                     "walker was made");
    gs_saturation s;
    if (gs_saturation_find(w, rate, n, SATURATION_FRACTION, SATURATION_TOLERANCE, &s) != 0) {
        gs_figure_nd(p, "walkers_saturation", "warps", method, "no throughput was measured");
        return;
    }
    gs_figure(p, "walkers_peak_accesses_per_ns", s.peak, "accesses/ns", 0, n, method);
    const char *sm = "walkers where the throughput curve crosses 90 % of its peak (between the "
                     "two counts around it, on a log scale of walkers), with the curve flat "
                     "after it; interval: where it crosses 87 % and 93 %";
    if (!s.saturated) {
        gs_figure_nd(p, "walkers_saturation", "warps", sm, "throughput still rises at %.0f "
                     "walkers (the most tried): memory did not saturate", w[n - 1]);
        return;
    }
    double knee = round(s.knee_x);
    double ci = fmax(knee - s.knee_x_low, s.knee_x_high - knee);
    gs_figure(p, "walkers_saturation", knee, "warps", ci, n, sm);
    gs_figure(p, "walkers_saturation_per_sm", knee / ctx->info->sm_count, "warps",
              ci / ctx->info->sm_count, n, sm);
    /* the loaded latency as far as the sweep's curve moves across the knee's interval */
    double at = at_log_x(w, cycles, n, knee);
    double reach = fmax(fabs(at_log_x(w, cycles, n, s.knee_x_low) - at),
                        fabs(at_log_x(w, cycles, n, s.knee_x_high) - at));
    char lm[320];
    snprintf(lm, sizeof lm, "average cycles per access of each walker at the saturation point "
             "(loaded latency): the mean of %zu chases of that many walkers; interval: theirs, "
             "or how far the sweep's latency curve moves across the saturation's interval",
             loaded->n);
    if (loaded->n > 0)
        gs_figure(p, "walkers_latency_at_saturation_cycles", loaded->mean, "cycles",
                  fmax(loaded->ci95, reach), loaded->n, lm);
    else
        gs_figure(p, "walkers_latency_at_saturation_cycles", at, "cycles", reach,
                  (size_t)opt.walker_accesses, "average cycles per access of each walker at "
                  "the saturation point (loaded latency), from the sweep's latency curve");
}

/* n chases of `walkers` walkers over the walkers' chain for an interval, the first already made
 * where first is a number (its average cycles): the averages into out, how many into *got. */
static int chase_repeats(gs_probe_ctx *ctx, uint64_t footprint, uint64_t slot,
                         const uint64_t *chain, unsigned walkers, double first, double *out,
                         size_t n, size_t *got, gs_error *err)
{
    int rc = 0;
    size_t k = 0;
    if (!isnan(first))
        out[k++] = first;
    while (!rc && k < n) {
        gs_chase_result r;
        rc = walk_chain(ctx, GS_SPACE_GLOBAL, footprint, slot, chain, 0,
                        (uint64_t)opt.walker_accesses, walkers, (unsigned)opt.lanes, &r, err);
        if (!rc)
            out[k++] = r.avg_cycles;
    }
    *got = k;
    return rc;
}

/* Throughput against concurrent walkers (the memory side of the occupancy roofline). */
static int sweep_walkers(gs_probe_ctx *ctx, gs_probe_out *p, uint64_t slot, gs_rng *rng,
                         gs_error *err)
{
    double w[MAX_POINTS], rate[MAX_POINTS], cycles[MAX_POINTS];
    size_t n = walker_counts((unsigned)opt.walkers_max, w), done = 0;
    uint64_t footprint = (uint64_t)opt.walkers_max * (uint64_t)opt.walker_accesses * slot;
    gs_param_int(p, "walkers_footprint_bytes", (long long)(footprint * opt.lanes));
    gs_param_int(p, "walker_lanes", opt.lanes);
    gs_profile_stage("random-walk:walkers");
    gs_progress(ctx, "random-walk: 1 to %lld concurrent walkers of %lld lane%s over %.0f MB",
                opt.walkers_max, opt.lanes, opt.lanes > 1 ? "s" : "",
                footprint * opt.lanes / 1048576.0);
    /* one chain for every count (each chase evicts the L2 first): the backend keeps what it
     * built for the last one (on an H100, 0.15 s of each of 14 chases) */
    uint64_t *chain;
    int rc = sattolo(rng, footprint, slot, &chain, err);
    for (; !rc && done < n; done++) {
        if (gs_interrupted()) {
            rc = gs_fail(err, GS_ERR_INTERRUPTED, "interrupted");
            break;
        }
        gs_chase_result r;
        rc = walk_chain(ctx, GS_SPACE_GLOBAL, footprint, slot, chain, 0,
                        (uint64_t)opt.walker_accesses, (unsigned)w[done], (unsigned)opt.lanes,
                        &r, err);
        if (rc == GS_ERR_UNSUPPORTED && done > 0) {
            gs_probe_warning(p, "walkers sweep stopped at %.0f walkers: %s", w[done], err->msg);
            gs_error_clear(err);
            rc = 0;
            break;
        }
        if (rc)
            break;
        rate[done] = (r.accesses_per_ns > 0 ? r.accesses_per_ns
                                            : w[done] / ns_of(ctx, &r))   /* Little's law */
                     * (double)opt.lanes;                 /* each lane's load is an access */
        cycles[done] = r.avg_cycles;
    }
    /* one cold walker's latency moves 3-4 % from one process to the next on an H100 (1110.8 and
     * 1065.3 cycles): it is chased UNLOADED_CHASES times for its interval; and the
     * loaded latency at the saturation point moved 1.1 % between two reports on an H100 (4617.6
     * and 4565.9 cycles) with no interval: that count is chased LOADED_CHASES times */
    double one[UNLOADED_CHASES], at_knee[LOADED_CHASES];
    size_t k = 0, m = 0;
    gs_saturation sat;
    if (!rc && done > 0)                 /* walker_counts starts at one walker */
        rc = chase_repeats(ctx, footprint, slot, chain, 1, cycles[0], one, UNLOADED_CHASES, &k,
                           err);
    if (!rc && done > 0 &&
        gs_saturation_find(w, rate, done, SATURATION_FRACTION, SATURATION_TOLERANCE, &sat) == 0 &&
        sat.saturated)
        rc = chase_repeats(ctx, footprint, slot, chain, (unsigned)round(sat.knee_x), NAN,
                           at_knee, LOADED_CHASES, &m, err);
    free(chain);
    if (rc)
        return rc;
    gs_summary unloaded = gs_summarize(one, k), loaded = gs_summarize(at_knee, m);
    record_walkers(ctx, p, w, rate, cycles, done, &unloaded, &loaded);
    return 0;
}

static int check_opts(const gs_device_info *info, gs_error *err)
{
    if (opt.min_size < 16 || opt.max_size <= opt.min_size)
        return gs_fail(err, GS_ERR_USAGE, "--min-size %llu B and --max-size %llu B: use "
                       "16 B <= min < max", (unsigned long long)opt.min_size,
                       (unsigned long long)opt.max_size);
    if (opt.slot < 4 || opt.slot % 4 || opt.slot > opt.max_size / 4)
        return gs_fail(err, GS_ERR_USAGE, "--slot %llu B: use a multiple of 4 B, at most a "
                       "quarter of --max-size", (unsigned long long)opt.slot);
    if (opt.walker_slot < 8 || opt.walker_slot % 8)
        return gs_fail(err, GS_ERR_USAGE, "--walker-slot %llu B: use a multiple of 8 B",
                       (unsigned long long)opt.walker_slot);
    if (info->global_mem_free_bytes && opt.max_size > info->global_mem_free_bytes / 2)
        return gs_fail(err, GS_ERR_USAGE, "--max-size %llu B exceeds half of the free device "
                       "memory (%llu B)", (unsigned long long)opt.max_size,
                       (unsigned long long)info->global_mem_free_bytes);
    return 0;
}

static void set_defaults(const gs_probe_ctx *ctx)
{
    const gs_device_info *info = ctx->info;
    opt.slot = 0;
    opt.min_size = 256;
    opt.max_size = info->l2_bytes ? (ctx->thorough ? 8 : 3) * info->l2_bytes : 64ull << 20;
    opt.per_octave = ctx->thorough ? 4 : 2;
    opt.timed = ctx->thorough ? 8192 : 2048;
    opt.walkers_max = (long long)info->sm_count * (info->max_blocks_per_sm > 0
                                                   ? info->max_blocks_per_sm : 16);
    opt.walker_accesses = 32;
    opt.lanes = 32;
    opt.walker_slot = 256;
    opt.warmup = "auto";
}

static int gs_probe_random_walk_run(gs_probe_ctx *ctx, gs_error *err)
{
    set_defaults(ctx);
    int rc = gs_probe_parse_opts(ctx, gs_probe_random_walk_opts, err);
    if (rc)
        return rc;
    /* The slot must not exceed any line on the way (else capacities come out slot / line too
     * large): 32 B, the sector, unless the cache probe found a smaller unit in this run. */
    uint64_t unit = cache_probe_unit(ctx);
    bool auto_slot = opt.slot == 0;
    if (auto_slot)
        opt.slot = unit && unit < DEFAULT_SLOT_BYTES ? unit : DEFAULT_SLOT_BYTES;
    if ((rc = check_opts(ctx->info, err)) != 0)
        return rc;
    const gs_device_info *info = ctx->info;
    space_walk spaces[] = {
        /* The small spaces are cheap to walk: twice the sizes per octave. */
        { GS_SPACE_GLOBAL, "global", opt.min_size, opt.max_size, opt.slot, 4, 1 },
        { GS_SPACE_SHARED, "shared", opt.min_size, info->smem_per_block_bytes, 4, 2, 2 },
        { GS_SPACE_CONSTANT, "constant", opt.min_size, info->const_mem_bytes, 4, 3, 2 },
        { GS_SPACE_LOCAL, "local", opt.min_size, 16384, 4, 2, 2 },
    };
    gs_probe_out *p = gs_run_add_probe(ctx->run, "random-walk");
    gs_param_int(p, "slot_bytes", (long long)opt.slot);
    gs_param_string(p, "slot_from", !auto_slot ? "--slot"
                    : unit && unit < DEFAULT_SLOT_BYTES
                        ? "cache probe's smallest line or sector (or fetch)"
                    : "default");
    gs_param_int(p, "min_size_bytes", (long long)opt.min_size);
    gs_param_int(p, "max_size_bytes", (long long)opt.max_size);
    gs_param_int(p, "per_octave", opt.per_octave);
    gs_param_int(p, "timed_accesses", opt.timed);
    gs_param_string(p, "warmup", opt.warmup);
    gs_param_int(p, "walkers_max", opt.walkers_max);
    gs_param_int(p, "walker_accesses", opt.walker_accesses);
    gs_param_int(p, "walker_slot_bytes", (long long)opt.walker_slot);
    gs_param_int(p, "seed", (long long)ctx->seed);
    gs_rng rng;
    gs_rng_seed(&rng, ctx->seed);
    for (size_t i = 0; rc == 0 && i < sizeof spaces / sizeof spaces[0]; i++)
        if (spaces[i].max_bytes > spaces[i].min_bytes)
            rc = sweep_space(ctx, p, &spaces[i], &rng, err);
    if (rc == 0 && opt.walkers_max > 0)
        rc = sweep_walkers(ctx, p, opt.walker_slot, &rng, err);
    return rc;
}

/* The probe's descriptor (probe.h). */
static const char *const headline[] = {"*_latencies_cycles", "*_capacities_bytes", "walkers_*", NULL};
const gs_probe_def gs_probe_random_walk_def = {
    .name = "random-walk",
    .run = gs_probe_random_walk_run,
    .flags = GS_PROBE_DEFAULT | GS_PROBE_APART,
    .summary = "Sattolo random walks in global/shared/constant/local memory, Eq. 6 levels, "
               "walkers sweep",
    .opts = gs_probe_random_walk_opts,
    .expected_s = 5,
    .expected_sim_s = 140,
    .keep_rank = 9,
    .hints = {.headline = headline},
};
