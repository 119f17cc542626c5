/* The L2's ways and sets from eviction sets found by prime+probe (docs/methods.md, "cache", "L2
 * sets and ways"): the eviction-set reduction of the memory-hierarchy paper's section
 * 3.2 (3), run on the backend's evict operation instead of chases, since a dependent chase over
 * an L2-sized pool takes about 0.3 s on an H100 and a reduction needs hundreds of verdicts. A
 * verdict reads a pool in parallel (about a millisecond for 100 MB, every load of the plan on
 * SM 0: an H100 keeps copies of far lines near the SM that reads them, so a pool read by every
 * SM evicts according to which SM read which line, and removing lines moved the others)
 * and times one target line before and after it (analysis/evict_verdict.h: against the
 * target's own hit and miss, so a far hit never reads as a miss). Each draw: a pool of random
 * lines, twice the capacity's, from a region of 32 x the capacity (every bit the XOR fit
 * moves); a target chosen among candidates whose miss stands clear of everything they read
 * while kept; the pool reduced to the lines that still evict it, a set's ways; every line of it
 * checked to be evicted by the others and the target. Three draws must agree; sets = capacity /
 * (ways x line). Where the sets are a power of two, the XOR index (cw_xor_index) with the same
 * verdict. Before the draws, the eviction curve (evict_curve). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/evict_verdict.h"
#include "analysis/gf2.h"
#include "analysis/stats.h"
#include "probes/cache/internal.h"

#define L2E_DRAWS 3              /* reductions from independent pools and targets; all agree */
#define L2E_POOL_FACTOR 2        /* pool lines: 2 x the capacity's (2 x ways per set, evenly) */
#define L2E_CANDIDATES 16        /* target candidates of a draw */
#define L2E_REPEATS 3            /* repetitions of a verdict; the majority decides */
#define L2E_REPEATS_SMALL 7      /* of a verdict on a pool of at most L2E_SMALL_POOL lines: near
                                    the end of a reduction, where a flipped verdict costs the
                                    most and a plan costs its launches */
#define L2E_SMALL_POOL 16384
#define L2E_CAL_REPEATS 5        /* repetitions of a calibration */
#define L2E_WARM_PASSES 1        /* pool reads before the target's first load */
#define L2E_POOL_PASSES 2        /* pool reads between its hit and its probe */
#define L2E_MAX_VERDICTS 6000u   /* evict plans of the whole method, at most */
#define L2E_MAX_LINE_READS (1ull << 32) /* pool lines read by the whole method, at most (about
                                           550 GB on a 128-B line: 3.7 s on one H100 SM; the
                                           simulator's cost). On an H100, 20000 plans and twice
                                           the lines left the first draw 5 to 15 thousand lines
                                           short of a set in 14-21 s: more budget
                                           does not decide it there */

typedef struct l2e {
    cw_walker *w;
    uint64_t line, footprint;
    double far;                  /* the far partition's hit (cycles; NaN: not known) */
    double near;                 /* the near partition's (NaN: one partition seen) */
    double miss;                 /* the current draw's target's miss (cycles) */
    double noise;                /* and the spread of its hits (cycles) */
    unsigned verdicts;
    uint64_t line_reads;
    uint64_t hits;               /* counters: the last plan's counted L2 hit sectors */
    unsigned undone;             /* drops the reductions took back (cw_group_reduce) */
    bool spent;                  /* a budget ran out: every search stops */
    bool counters;               /* verdicts from the L2's lookup counters, not from timing */
    double kept_hits;            /* counters: the draw's target's counted hits per repetition
                                    with no pool (its own hit and the launch's own lookups) */
    char counter_failure[300];   /* the first count failed: why (then timing alone) */
} l2e;

/* One evict plan: targets[0..n) against pool[0..m), repeats repetitions into hit and probe. */
static int evict(l2e *c, const uint64_t *targets, size_t n, const uint64_t *pool, size_t m,
                 unsigned repeats, double *hit, double *probe, gs_error *err)
{
    gs_backend *b = c->w->ctx->backend;
    gs_evict_plan p = {.footprint_bytes = c->footprint, .targets = targets, .n_targets = n,
                       .pool = pool, .n_pool = m, .warm_passes = L2E_WARM_PASSES,
                       .pool_passes = L2E_POOL_PASSES, .repeats = repeats,
                       .all_sms = false, .sm = 0,    /* the SM of every chase (plan.h, on_sm) */
                       .count_l2 = c->counters};
    gs_evict_result r = {.hit_cycles = hit, .probe_cycles = probe};
    c->verdicts++;
    c->line_reads += (uint64_t)m * (L2E_WARM_PASSES + L2E_POOL_PASSES) * repeats;
    c->spent = c->verdicts >= L2E_MAX_VERDICTS || c->line_reads >= L2E_MAX_LINE_READS;
    int rc = b->ops->evict(b, &p, &r, err);
    c->hits = rc ? 0 : r.l2_hit_sectors;
    return rc;
}

/* Counters: the counted hits per repetition of x's probes after pool[0..m) (repeats plans'
 * worth). A probe that the pool evicted hits nowhere in the L2 (a far line's hit is a hit of
 * the far part, whatever the near part counted), so its hits fall by one sector a probe. */
static int counted_hits(l2e *c, uint64_t x, const uint64_t *pool, size_t m, unsigned repeats,
                        double *per_probe, double *probe, gs_error *err)
{
    double hit[L2E_REPEATS_SMALL], own[L2E_REPEATS_SMALL];
    int rc = evict(c, &x, 1, pool, m, repeats, hit, probe ? probe : own, err);
    *per_probe = rc ? NAN : (double)c->hits / repeats;
    return rc;
}

/* Counters: one counted plan before any verdict (a target probed with no pool, L2E_REPEATS
 * times) must count at least one hit a probe; a count refused (a profiler that passed the
 * capability check refusing a range) or blind to the probe turns the counters off for the
 * method, which then times its loads, with the reason in c->counter_failure. */
static int check_counting(l2e *c, gs_error *err)
{
    double per_probe;
    uint64_t x = 0;
    int rc = counted_hits(c, x, &x, 0, L2E_REPEATS, &per_probe, NULL, err);
    if (rc == GS_ERR_UNSUPPORTED) {
        snprintf(c->counter_failure, sizeof c->counter_failure, "%.299s", err->msg);
        gs_error_clear(err);
        c->counters = false;
        return 0;
    }
    if (!rc && !(per_probe >= 1)) {
        snprintf(c->counter_failure, sizeof c->counter_failure, "a probe with no pool counted "
                 "%.2f L2 hit sectors (one expected): the counters do not see the probes",
                 per_probe);
        c->counters = false;
    }
    return rc;
}

/* Whether pool[0..m) evicts target x (majority of L2E_REPEATS, L2E_REPEATS_SMALL on a small
 * pool), judged against x's own hit of this plan, the draw's miss and the far hit; value: the
 * normalized median probe. */
static int evicts(l2e *c, uint64_t x, const uint64_t *pool, size_t m, bool *yes, double *value,
                  gs_error *err)
{
    unsigned n = m <= L2E_SMALL_POOL ? L2E_REPEATS_SMALL : L2E_REPEATS;
    double hit[L2E_REPEATS_SMALL], probe[L2E_REPEATS_SMALL];
    *yes = false;
    if (c->counters) {   /* evicted: its probe lost its hit; a count is exact, so one plan (each
                            counted launch costs the profiler's range, about 20 ms) */
        n = 1;
        double per_probe;
        int rc = counted_hits(c, x, pool, m, n, &per_probe, NULL, err);
        if (value)
            *value = c->kept_hits - per_probe;
        *yes = !rc && per_probe < c->kept_hits - 0.5;
        return rc;
    }
    int rc = evict(c, &x, 1, pool, m, n, hit, probe, err);
    if (rc)
        return rc;
    double thr = gs_evict_threshold(gs_median(hit, n), c->miss, c->far);
    *yes = gs_evict_majority(probe, n, thr, c->miss, value);
    return 0;
}

/* cw_group_reduce's verdict: whether lines[0..n) still evict the draw's target. */
typedef struct reduce_ctx {
    l2e *c;
    uint64_t target;
} reduce_ctx;

static int still_evicts(void *ctx, const uint64_t *lines, size_t n, bool *yes, bool *more,
                        gs_error *err)
{
    reduce_ctx *r = ctx;
    double value;
    int rc = evicts(r->c, r->target, lines, n, yes, &value, err);
    *more = !r->c->spent;
    return rc;
}

/* cw_xor_index's verdict: x is in the set of set[0..m) (the target, then its ways lines) when
 * set[1..m) evict it. */
static int probe_in_set(void *ctx, const uint64_t *set, size_t m, uint64_t x, bool *yes,
                        double *value, gs_error *err)
{
    return evicts(ctx, x, set + 1, m - 1, yes, value, err);
}

/* n distinct random lines of the region into lines (a pool, then its targets or candidates): a
 * partial Fisher-Yates over the region's line numbers. */
static int draw_lines(l2e *c, uint64_t region_lines, size_t n, uint64_t *lines, gs_error *err)
{
    uint32_t *pick = malloc(region_lines * sizeof *pick);
    if (!pick)
        return gs_fail(err, GS_ERR_NO_MEMORY, "out of host memory");
    for (uint64_t i = 0; i < region_lines; i++)
        pick[i] = (uint32_t)i;
    for (size_t i = 0; i < n; i++) {
        uint64_t j = i + gs_rng_below(&c->w->rng, region_lines - i);
        uint32_t x = pick[i];
        pick[i] = pick[j], pick[j] = x;
        lines[i] = (uint64_t)pick[i] * c->line;
    }
    free(pick);
    return 0;
}

/* Counters: the draw's target, the first candidate whose probe hits with no pool and loses that
 * hit under the whole pool (one sector a probe, whatever the launch's own lookups add to both);
 * c->kept_hits gets its hits with no pool, c->miss and c->noise its probes' timing under the
 * pool and the spread of its hits (for the policy's timed tests). *t < 0 with why when none
 * does. */
static int pick_counted(l2e *c, const uint64_t *pool, size_t n, const uint64_t *cand, int *t,
                        char *why, size_t why_len, gs_error *err)
{
    enum { R = L2E_REPEATS_SMALL };
    double kept = NAN, full = NAN, hit[R], miss[R];
    int rc = 0;
    *t = -1;
    for (int i = 0; i < L2E_CANDIDATES && *t < 0 && !rc; i++) {
        rc = counted_hits(c, cand[i], pool, 0, R, &kept, hit, err);
        if (!rc)
            rc = counted_hits(c, cand[i], pool, n, R, &full, miss, err);
        if (!rc && kept - full > 0.75 && kept - full < 1.25) {
            *t = i, c->kept_hits = kept;
            c->miss = gs_median(miss, R);
            double lo = hit[0], hi = hit[0];
            for (size_t r = 1; r < R; r++)
                lo = hit[r] < lo ? hit[r] : lo, hi = hit[r] > hi ? hit[r] : hi;
            c->noise = hi - lo;
        }
    }
    if (!rc && *t < 0)
        snprintf(why, why_len, "no target of %d lost its L2 hit under the whole pool (%zu "
                 "lines) by the counters (candidate %d: %.2f hit sectors a probe with no pool, "
                 "%.2f under the pool; one probe is one sector): the pool does not evict, or "
                 "the launch's own lookups vary", L2E_CANDIDATES, n, L2E_CANDIDATES - 1, kept,
                 full);
    return rc;
}

/* The draw's target among the candidates: hits, probes under a quarter of the pool (half the
 * capacity: too few lines to evict, enough to flush copies of far lines) and under the whole
 * pool (gs_evict_calibrate, gs_evict_pick). *t < 0 when none is usable; why says so. */
static int pick_target(l2e *c, const uint64_t *pool, size_t n, const uint64_t *cand, int *t,
                       gs_evict_target *cal, char *why, size_t why_len, gs_error *err)
{
    enum { K = L2E_CANDIDATES, R = L2E_CAL_REPEATS };
    double hit[R * K], quiet[R * K], full[R * K], rehit[R * K];
    int rc = evict(c, cand, K, pool, n / 4, R, hit, quiet, err);
    if (!rc)        /* its hits (rehit) are the same lines' again: the first plan's stand */
        rc = evict(c, cand, K, pool, n, R, rehit, full, err);
    *t = -1;
    if (rc)
        return rc;
    gs_evict_target all[K];
    for (size_t i = 0; i < K; i++)
        all[i] = gs_evict_calibrate(hit, quiet, full, R, K, i, c->far);
    *t = gs_evict_pick(all, K);
    if (*t >= 0) {
        *cal = all[*t];
        return 0;
    }
    snprintf(why, why_len, "no target of %d had its miss after the whole pool (%zu lines) 4 "
             "noise spreads above what it read kept (candidate 0: hit %.0f, kept %.0f, miss "
             "%.0f, noise %.0f cycles): the pool does not evict, or the verdict is within the "
             "noise (more repetitions per verdict would decide it)", K, n, all[0].hit_cycles,
             all[0].kept_cycles, all[0].miss_cycles, all[0].noise_cycles);
    return 0;
}

/* Whether every line of the reduced set s[0..m) is evicted by the others and the target: the
 * m + 1 lines are one set (a verdict flipped during the reduction leaves a line that is not). */
static int one_set(l2e *c, uint64_t target, const uint64_t *s, size_t m, bool *ok,
                   size_t *bad, gs_error *err)
{
    uint64_t others[CW_MAX_WAYS + 1];
    int rc = 0;
    *ok = true;
    for (size_t i = 0; i < m && *ok && !rc; i++) {
        size_t k = 0;
        for (size_t j = 0; j < m; j++)
            if (j != i)
                others[k++] = s[j];
        others[k++] = target;
        double value;
        rc = evicts(c, s[i], others, k, ok, &value, err);
        *bad = i;
    }
    return rc;
}

/* One draw: a pool, its target, the reduction and the one-set check. *ways 0 with why when it
 * gives none; group gets the target then the set's lines (ways + 1). */
static int draw(l2e *c, uint64_t region_lines, size_t n, uint64_t *pool, uint64_t *scratch,
                uint64_t *ways, uint64_t *group, char *why, size_t why_len, gs_error *err)
{
    *ways = 0;
    int rc = draw_lines(c, region_lines, n + L2E_CANDIDATES, pool, err);
    int t = -1;
    gs_evict_target cal = {.miss_cycles = NAN, .noise_cycles = NAN};
    if (!rc && c->counters) {
        rc = pick_counted(c, pool, n, pool + n, &t, why, why_len, err);
    } else if (!rc) {
        rc = pick_target(c, pool, n, pool + n, &t, &cal, why, why_len, err);
        c->miss = cal.miss_cycles;
        c->noise = cal.noise_cycles;
    }
    if (rc || t < 0)
        return rc;
    reduce_ctx r = {.c = c, .target = pool[n + (size_t)t]};
    size_t m = n;
    cw_reduce opt = {.confirm = true, .stall_groups = 2 * (CW_MAX_WAYS + 1)};
    rc = cw_group_reduce(pool, &m, scratch, still_evicts, &r, &opt, err);
    c->undone += opt.undone;
    if (rc)
        return rc;
    if (opt.stalled) {
        /* on an H100 (every load on SM 0) a near target's pool stopped at 54.8
         * thousand lines, a far target's at 259 thousand */
        snprintf(why, why_len, "%zu lines (%.1f MB) evict the target and no group of them can "
                 "go in %zu groups, where a set of at most %d ways would leave one group without "
                 "a line of it: the lines that evict one target are not one set's ways (eviction "
                 "by volume, or sets far larger than %d ways); the eviction rate against pool "
                 "size would tell more", m, (double)(m * c->line) / 1e6, opt.groups, CW_MAX_WAYS,
                 CW_MAX_WAYS);
        return 0;
    }
    if (c->spent) {
        /* on an H100 with every load on SM 0 the first draw ended here with 1 to
         * 15 thousand lines left and 64 drops taken back, whatever the budget */
        double share = (double)m * (double)c->line / (double)(n * c->line / L2E_POOL_FACTOR);
        snprintf(why, why_len, "the budget (%u evict plans, %llu pool lines read) ran out with "
                 "%zu lines left (%.1f MB, %.0f %% of the capacity)%s", L2E_MAX_VERDICTS,
                 (unsigned long long)L2E_MAX_LINE_READS, m, (double)(m * c->line) / 1e6,
                 100 * share, opt.undone >= CW_REDUCE_UNDO
                     ? " and verdicts flipping: the lines left stopped evicting the target "
                       "after drops two verdicts in a row had allowed, and a drop went back "
                       "each time, as where a policy evicts by chance near a set's fill; "
                       "verdicts of many more repetitions, or the eviction rate against pool "
                       "size, would decide it"
                     : share > 0.125
                     ? ": lines far beyond one set's still evict the target and the reduction "
                       "slows as it nears them, as where eviction goes by volume or chance, "
                       "not by a set's ways; the eviction rate against pool size would decide it"
                     : " (more verdicts would decide it)");
        return 0;
    }
    /* the group reduction stops at two lines; a set of one way needs one of them alone */
    for (size_t i = 0; !rc && m == 2 && i < 2; i++) {
        bool alone;
        double value;
        rc = evicts(c, r.target, pool + i, 1, &alone, &value, err);
        if (!rc && alone)
            pool[0] = pool[i], m = 1;
    }
    if (rc)
        return rc;
    if (m < 1 || m > CW_MAX_WAYS) {
        snprintf(why, why_len, "the reduction left %zu lines: no set of 1 to %d ways (a verdict "
                 "flipped, or the pool never evicted the target twice alike)", m, CW_MAX_WAYS);
        return 0;
    }
    bool ok;
    size_t bad = 0;
    rc = one_set(c, r.target, pool, m, &ok, &bad, err);
    if (!rc && !ok) {
        snprintf(why, why_len, "the reduction left %zu lines, of which line %zu is not evicted "
                 "by the others and the target: not one set (a verdict flipped on the way down; "
                 "verdicts of more repetitions would decide it)", m, bad);
        return 0;
    }
    group[0] = r.target;
    memcpy(group + 1, pool, m * sizeof *pool);
    *ways = m;
    return rc;
}

static void not_determined(cw_level *lv, const char *why)
{
    size_t used = strlen(lv->why_structure);
    snprintf(lv->why_structure + used, sizeof lv->why_structure - used, "%s%s",
             used ? "; L2 eviction sets: " : "L2 eviction sets: ", why);
}

/* How far the capacity may lie from lv->size_bytes: its ci95, or as far as the interval from the
 * L2's end from above reaches (one SM's walk keeps less than the capacity where sets fill
 * unevenly: on the H100 the size read 46.6-47.5 MiB of the driver's 50). */
static double capacity_spread(const cw_level *lv)
{
    double size = (double)lv->size_bytes, spread = lv->size_ci95_bytes;
    if (lv->size_interval_bytes[1]) {
        double below = size - (double)lv->size_interval_bytes[0];
        double above = (double)lv->size_interval_bytes[1] - size;
        spread = below > spread ? below : spread;
        spread = above > spread ? above : spread;
    }
    return spread;
}

/* The one power of two within sets +- ci, ci > 0 (0: none, or several). */
static uint64_t pow2_within(uint64_t sets, double ci)
{
    uint64_t lo = sets > ci ? sets - (uint64_t)ci : 1, hi = sets + (uint64_t)ci, found = 0;
    for (uint64_t p = 1; ci > 0 && p && p <= hi; p *= 2)
        if (p >= lo) {
            if (found)
                return 0;
            found = p;
        }
    return found;
}

/* Counters: sets +- ci95 hold several powers of two; the XOR fit is tried with each, from the
 * smallest: k masks must make exactly 2^k sets, put every line that left the set elsewhere and
 * predict held-out lines, so at most one count passes with exact verdicts, and it is the count.
 * None passing leaves sets and mapping not determined with each fit's reason. */
static int fit_among(l2e *c, cw_level *lv, uint64_t sets, uint64_t W, const uint64_t *group,
                     const uint64_t *diffs, size_t nd, gs_error *err)
{
    uint64_t lo = sets > lv->sets_ci95 ? sets - (uint64_t)lv->sets_ci95 : 1;
    uint64_t hi = sets + (uint64_t)lv->sets_ci95;
    size_t before = strlen(lv->why_structure);
    int rc = 0;
    for (uint64_t p = 1; p && p <= hi && !rc; p *= 2) {
        if (p < lo)
            continue;
        lv->sets = (unsigned)p;
        rc = cw_xor_index(c->w, lv, group, (size_t)W + 1, c->line, diffs, nd, probe_in_set, c,
                          err);
        if (!rc && lv->mapping != CW_MAP_NONE) {
            lv->why_structure[before] = 0;      /* the other counts' failed fits */
            lv->sets_ci95 = 0;
            lv->sets_method = "ways: lines of one set left by prime+probe eviction-set "
                              "reductions (three pools of random lines, twice the capacity, "
                              "and targets agree; every line evicted by the others); sets: the "
                              "2^k sets of the XOR index fitted to the set's lines (k masks), "
                              "the one power of two inside capacity / (ways x line) and its "
                              "spread whose fit held on the lines that left the set and on "
                              "held-out lines";
            return 0;
        }
    }
    lv->sets = (unsigned)sets;
    return rc;
}

/* The figures from ways that three draws agree on: sets = capacity / (ways x line) when it
 * makes the capacity within 3 % and the capacity is determined; then the XOR index, with the
 * differences of every draw's set (diffs[0..nd)) among the moves known to stay in a set. */
static int figures(l2e *c, cw_level *lv, uint64_t W, const uint64_t *group,
                   const uint64_t *diffs, size_t nd, gs_error *err)
{
    char why[400];
    uint64_t sets = (lv->size_bytes + W * c->line / 2) / (W * c->line);
    uint64_t d = udiff(sets * W * c->line, lv->size_bytes);
    lv->ways_per_set[0] = (unsigned)W;
    lv->nsets = 1;
    lv->sets_method = "ways: lines of one set left by prime+probe eviction-set reductions (three "
                      "pools of random lines, twice the capacity, and targets agree; every line "
                      "evicted by the others); sets: capacity / (ways x line), with the "
                      "capacity's ci95 and interval (size_low_bytes, size_high_bytes) in sets";
    if (lv->size_nd_why[0] || d > lv->size_bytes / 32) {
        snprintf(why, sizeof why, "%llu ways of %llu-B lines: sets not determined (%s)",
                 (unsigned long long)W, (unsigned long long)c->line,
                 lv->size_nd_why[0] ? "the capacity is not determined"
                                    : "capacity / (ways x line) is no whole count within 3 %");
        not_determined(lv, why);
        lv->sets = 0;
        return 0;
    }
    lv->sets = (unsigned)sets;
    lv->sets_ci95 = ceil(capacity_spread(lv) / (double)(W * c->line));
    uint64_t p2 = pow2_within(sets, lv->sets_ci95);
    if (!p2 && lv->sets_ci95 > 0 && c->counters)
        return fit_among(c, lv, sets, W, group, diffs, nd, err);
    if (!p2 && lv->sets_ci95 > 0) {
        snprintf(why, sizeof why, "mapping: %llu +- %.0f sets (the capacity's ci95 and "
                 "interval) hold no one power of two for an XOR fit to test (a capacity known to "
                 "a line would decide it)", (unsigned long long)sets, lv->sets_ci95);
        not_determined(lv, why);
        return 0;
    }
    if (!p2)
        return cw_xor_index(c->w, lv, group, (size_t)W + 1, c->line, diffs, nd, probe_in_set, c,
                            err);
    /* a power of two inside the interval: the XOR fit tests it (k masks that put every line
     * where the verdicts do make exactly 2^k sets), and a fit makes it the count */
    lv->sets = (unsigned)p2;
    int rc = cw_xor_index(c->w, lv, group, (size_t)W + 1, c->line, diffs, nd, probe_in_set, c,
                          err);
    if (!rc && lv->mapping != CW_MAP_NONE) {
        lv->sets_ci95 = 0;
        lv->sets_method = "ways: lines of one set left by prime+probe eviction-set reductions "
                          "(three pools of random lines, twice the capacity, and targets agree; "
                          "every line evicted by the others); sets: the 2^k sets of the XOR "
                          "index fitted to the set's lines (k masks), inside capacity / (ways x "
                          "line) and its spread";
    } else {
        lv->sets = (unsigned)sets;
    }
    return rc;
}

/* Whether lines x and y share a set by the index the XOR fit or the bit selection found. */
static bool same_set(const cw_level *lv, uint64_t x, uint64_t y)
{
    uint64_t d = x ^ y;
    if (lv->mapping == CW_MAP_XOR) {
        for (size_t i = 0; i < lv->nxor; i++)
            if (gs_gf2_parity(d & lv->xor_masks[i]))
                return false;
        return true;
    }
    for (size_t i = 0; i < lv->nindex; i++)
        if ((d >> lv->index_bits[i]) & 1)
            return false;
    return true;
}

/* How many of the set's lines group[0..W] lie in the far partition (*far): each probed after a
 * pool of half the capacity's random lines of other sets (by the fitted index), which leaves
 * the set alone and flushes copies of far lines kept near the reading SM, and counted far when
 * its median probe lies nearer the far partition's hit than the near one's (or misses). */
static int far_lines(l2e *c, const cw_level *lv, const uint64_t *group, uint64_t W,
                     uint64_t region_lines, unsigned *far, gs_error *err)
{
    enum { R = L2E_CAL_REPEATS, CH_MAX = GS_EVICT_MAX_TARGETS };
    size_t want = lv->size_bytes / c->line / 2, m = 0;
    size_t ch = W < CH_MAX ? (size_t)W : CH_MAX;   /* lines a plan probes: fewer than the set's */
    uint64_t *pool = malloc(2 * want * sizeof *pool);
    double hit[R * CH_MAX], probe[R * CH_MAX], col[R];
    int rc = pool ? draw_lines(c, region_lines, 2 * want, pool, err)
                  : gs_fail(err, GS_ERR_NO_MEMORY, "out of host memory");
    for (size_t i = 0; !rc && i < 2 * want && m < want; i++)
        if (!same_set(lv, pool[i], group[0]))
            pool[m++] = pool[i];
    *far = 0;
    for (size_t at = 0; at <= W && !rc; at += ch) {  /* the W + 1 lines, ch at a time */
        size_t k = W + 1 - at < ch ? (size_t)W + 1 - at : ch;
        rc = evict(c, group + at, k, pool, m, R, hit, probe, err);
        for (size_t i = 0; !rc && i < k; i++) {
            for (size_t r = 0; r < R; r++)
                col[r] = probe[r * k + i];
            *far += gs_median(col, R) > (c->near + c->far) / 2;
        }
    }
    free(pool);
    return rc;
}

/* The median hit of each of the set's W + 1 lines group[0..W] (a walk of W of them fits the
 * set: lines 1..W, then 0..W-1); the slowest into *slowest (NaN: a trace too short). */
static int slowest_hit(cw_walker *w, const uint64_t *group, uint64_t W, double *slowest,
                       gs_error *err)
{
    enum { PASSES = 8 };
    double lat[PASSES];
    size_t got = 0;
    int rc = 0;
    *slowest = -INFINITY;
    for (size_t k = 0; k < 2 && !rc; k++) {
        rc = cw_chase(w, group + 1 - k, (size_t)W, 2, PASSES * (size_t)W, &got, err);
        if (!rc && got < PASSES * W)
            *slowest = NAN;
        for (size_t i = 0; !rc && got >= PASSES * W && i < (size_t)W; i++) {
            for (size_t r = 0; r < PASSES; r++)
                lat[r] = w->lat[r * W + i];
            double h = gs_median(lat, PASSES);
            *slowest = h > *slowest ? h : *slowest;
        }
    }
    return rc;
}

/* The replacement policy from the fine-grained tests (cw_infer_policy: random sequences over a
 * set's ways + 1 lines from cold, and a cyclic walk) on the first of the draws' sets, last draw
 * first, whose lines all lie in the near partition: a far line may answer from a copy kept near
 * the reading SM after its own set evicted it (the H100 keeps such copies), and the
 * tests would read that hit as the set's. A chase of the L2 path times each access; it counts
 * as a miss above a threshold halfway between the set's slowest hit and its target's miss,
 * which must stand four noise spreads clear of it. groups[d]: draw d's target then its W lines;
 * miss[d], noise[d]: its target's miss and hits' spread. */
static int policy(l2e *c, cw_level *lv, uint64_t groups[][CW_MAX_WAYS + 1], uint64_t W,
                  const double *miss, const double *noise, uint64_t region_lines, gs_error *err)
{
    cw_walker *w = c->w;
    bool parts = !isnan(c->far);
    lv->policy = GS_POLICY_UNKNOWN;
    if (parts && lv->mapping != CW_MAP_XOR && lv->mapping != CW_MAP_BITS) {
        snprintf(lv->why_policy, sizeof lv->why_policy, "the L2 answers from two partitions "
                 "(hits %.1f and %.1f cycles), and a far line may answer from a copy kept near "
                 "the reading SM after its set evicted it: the replacement tests need a set of "
                 "near lines, told apart after a pool of other sets' lines, and the set index "
                 "that picks such a pool was not determined (it would decide it)", c->near,
                 c->far);
        return 0;
    }
    char seen[L2E_DRAWS][80];
    for (int d = L2E_DRAWS - 1; d >= 0; d--) {
        unsigned far = 0;
        double slowest = NAN;
        int rc = parts ? far_lines(c, lv, groups[d], W, region_lines, &far, err) : 0;
        if (!rc && !far)
            rc = slowest_hit(w, groups[d], W, &slowest, err);
        if (rc)
            return rc;
        snprintf(seen[d], sizeof seen[d], "draw %d: %u far, hits to %.1f, miss %.1f", d + 1,
                 far, slowest, miss[d]);
        if (far || !(miss[d] - slowest > 4 * noise[d] + 2))
            continue;
        gs_hit_band keep = w->band;
        w->band.threshold_cycles = (slowest + miss[d]) / 2;
        lv->why_policy[0] = 0;
        rc = cw_infer_policy(w, lv, groups[d], (size_t)W + 1, 0, err);
        w->band = keep;
        return rc;
    }
    snprintf(lv->why_policy, sizeof lv->why_policy, "no set of the three draws has every line "
             "in the near partition (a far line may answer from a copy kept near the reading "
             "SM) and its target's miss four noise spreads above its slowest hit (%s; %s; %s): "
             "the replacement tests would misread hits (a set of near lines would decide it)",
             seen[2], seen[1], seen[0]);
    return 0;
}

/* ---- the eviction curve ---------------------------------------------------------------------- */

#define L2E_CURVE_REPEATS 3

/* Pool sizes of the curve, in capacities: the share of targets a pool evicts rises from none to
 * all between about a quarter and twice the capacity on the cards and the models. */
static const double curve_f[CW_EVICT_CURVE_POINTS] = {0.25, 0.375, 0.5, 0.625, 0.75, 0.875, 1.0,
                                                      1.125, 1.25, 1.5, 2.0, 3.0};

/* The eviction curve by the counters: the K targets' probes hit K sectors a repetition, plus
 * the launch's own lookups, with no pool (kept); each target a pool evicts takes one away. */
static int counted_curve(l2e *c, cw_level *lv, const uint64_t *lines, size_t n, char *why,
                         size_t why_len, gs_error *err)
{
    enum { K = GS_EVICT_MAX_TARGETS, R = L2E_CURVE_REPEATS };
    double hit[R * K], probe[R * K], kept, half = NAN;
    size_t cap = lv->size_bytes / c->line;
    const uint64_t *targets = lines + n;
    int rc = evict(c, targets, K, lines, 0, R, hit, probe, err);
    kept = (double)c->hits / R;
    for (size_t k = 0; !rc && k < CW_EVICT_CURVE_POINTS; k++) {
        size_t m = (size_t)(curve_f[k] * (double)cap);
        rc = evict(c, targets, K, lines, m, R, hit, probe, err);
        double evicted = (kept - (double)c->hits / R) / K;
        lv->evict_curve_x[k] = (double)m * (double)c->line;
        lv->evict_curve_y[k] = evicted < 0 ? 0 : evicted > 1 ? 1 : evicted;
        lv->evict_curve_n = k + 1;
        if (isnan(half) && lv->evict_curve_y[k] >= 0.5)
            half = curve_f[k];
    }
    if (!rc)
        snprintf(why, why_len, "the eviction curve by the L2's counters (series "
                 "evicted_share_by_pool, %d targets, %.1f hit sectors a repetition with no "
                 "pool): half of them evicted from %s%.3g x the capacity of pool, %.0f %% at 1 "
                 "x, %.0f %% at 3 x", K, kept, isnan(half) ? "beyond " : "",
                 isnan(half) ? curve_f[CW_EVICT_CURVE_POINTS - 1] : half,
                 100 * lv->evict_curve_y[6], 100 * lv->evict_curve_y[CW_EVICT_CURVE_POINTS - 1]);
    return rc;
}

/* The eviction rate against pool size: GS_EVICT_MAX_TARGETS random target lines against pools
 * of f x the capacity, each a prefix of one list of 3 x the capacity's random lines; a target
 * counts as evicted by the majority of its probes above its calibrated threshold (its hit or
 * its probe under a quarter-capacity pool, and its probe under the whole list). Into
 * lv->evict_curve_*; a sentence into why (the pool that evicts half the usable targets). A
 * hashed set-associative cache evicts a target once its set has received its ways' worth of
 * the pool, so each target has its own pool size; the curve is evidence for sets and ways
 * that the reduction could not isolate, not a count. */
static int evict_curve(l2e *c, cw_level *lv, uint64_t region_lines, char *why, size_t why_len,
                       gs_error *err)
{
    enum { K = GS_EVICT_MAX_TARGETS, R = L2E_CURVE_REPEATS };
    size_t cap = lv->size_bytes / c->line, n = 3 * cap;
    uint64_t *lines = malloc((n + K) * sizeof *lines);
    double hit[R * K], quiet[R * K], full[R * K], probe[R * K];
    gs_evict_target t[K];
    lv->evict_curve_n = 0;
    why[0] = 0;
    if (!lines)
        return gs_fail(err, GS_ERR_NO_MEMORY, "out of host memory");
    int rc = draw_lines(c, region_lines, n + K, lines, err);   /* the pool, then the targets */
    const uint64_t *targets = lines + n;
    if (!rc && c->counters) {
        rc = counted_curve(c, lv, lines, n, why, why_len, err);
        free(lines);
        return rc;
    }
    if (!rc)
        rc = evict(c, targets, K, lines, cap / 4, R, hit, quiet, err);
    if (!rc)
        rc = evict(c, targets, K, lines, n, R, probe, full, err);
    unsigned usable = 0;
    for (size_t i = 0; !rc && i < K; i++) {
        t[i] = gs_evict_calibrate(hit, quiet, full, R, K, i, c->far);
        usable += t[i].usable;
    }
    double half = NAN;
    for (size_t k = 0; !rc && usable && k < CW_EVICT_CURVE_POINTS; k++) {
        size_t m = (size_t)(curve_f[k] * (double)cap);
        rc = evict(c, targets, K, lines, m, R, hit, probe, err);
        unsigned evicted = 0;
        for (size_t i = 0; !rc && i < K; i++) {
            double col[R];
            for (size_t r = 0; r < R; r++)
                col[r] = probe[r * K + i];
            evicted += t[i].usable &&
                       gs_evict_majority(col, R, t[i].threshold_cycles, t[i].miss_cycles, NULL);
        }
        lv->evict_curve_x[k] = (double)m * (double)c->line;
        lv->evict_curve_y[k] = (double)evicted / usable;
        lv->evict_curve_n = k + 1;
        if (isnan(half) && 2 * evicted >= usable)
            half = curve_f[k];
    }
    if (!rc && usable)
        snprintf(why, why_len, "the eviction curve (series evicted_share_by_pool, %u targets): "
                 "half of them evicted from %s%.3g x the capacity of pool, %.0f %% at 1 x, "
                 "%.0f %% at 3 x", usable, isnan(half) ? "beyond " : "",
                 isnan(half) ? curve_f[CW_EVICT_CURVE_POINTS - 1] : half,
                 100 * lv->evict_curve_y[6], 100 * lv->evict_curve_y[CW_EVICT_CURVE_POINTS - 1]);
    free(lines);
    return rc;
}

/* The figures the counters decided say so in their method: the eviction sets, ways, sets and
 * masks (the policy's tests time each access and keep their own method). */
static void name_oracle(cw_level *lv, const char *detail)
{
    if (lv->sets_method && lv->ways_per_set[0]) {
        snprintf(lv->oracle_method_buf, sizeof lv->oracle_method_buf, "oracle: the L2's lookup "
                 "counters (%s), a target evicted when its probes lose their counted hit; %s",
                 detail, lv->sets_method);
        lv->sets_method = lv->oracle_method_buf;
    }
    if ((lv->mapping == CW_MAP_XOR || lv->mapping == CW_MAP_BITS) && lv->mapping_method) {
        if (lv->mapping_method != lv->mapping_method_buf)
            snprintf(lv->mapping_method_buf, sizeof lv->mapping_method_buf, "%s",
                     lv->mapping_method);
        size_t used = strlen(lv->mapping_method_buf), tail = 40;
        if (used + tail >= sizeof lv->mapping_method_buf)
            used = sizeof lv->mapping_method_buf - tail;
        snprintf(lv->mapping_method_buf + used, sizeof lv->mapping_method_buf - used,
                 "; oracle: the L2's lookup counters");
        lv->mapping_method = lv->mapping_method_buf;
    }
}

/* Three draws; the ways they agree on, else why not (into lv->why_structure). */
static int draws(l2e *c, cw_level *lv, uint64_t region_lines, size_t n, gs_error *err)
{
    uint64_t *pool = malloc((n + L2E_CANDIDATES) * sizeof *pool);
    uint64_t *scratch = malloc(n * sizeof *scratch);
    uint64_t ways[L2E_DRAWS] = {0}, group[L2E_DRAWS][CW_MAX_WAYS + 1];
    uint64_t diffs[L2E_DRAWS * CW_MAX_WAYS];
    double miss[L2E_DRAWS], noise[L2E_DRAWS];
    size_t nd = 0;
    char why[640] = "";
    int rc = pool && scratch ? 0 : gs_fail(err, GS_ERR_NO_MEMORY, "out of host memory");
    size_t i = 0;
    for (; !rc && i < L2E_DRAWS; i++) {
        rc = draw(c, region_lines, n, pool, scratch, &ways[i], group[i], why, sizeof why, err);
        if (!rc && !ways[i])
            break;
        miss[i] = c->miss, noise[i] = c->noise;
        for (size_t j = 1; !rc && j <= ways[i]; j++)
            diffs[nd++] = group[i][j] ^ group[i][0];
    }
    char msg[800], before[80] = "";
    for (size_t j = 0; j < i && j < L2E_DRAWS; j++)
        snprintf(before + strlen(before), sizeof before - strlen(before), "%s%llu",
                 j ? ", " : " (the draws before it left sets of ", (unsigned long long)ways[j]);
    if (i > 0 && i < L2E_DRAWS)
        snprintf(before + strlen(before), sizeof before - strlen(before), " lines)");
    if (!rc && i < L2E_DRAWS) {
        snprintf(msg, sizeof msg, "draw %zu of %d%s: %s", i + 1, L2E_DRAWS, before, why);
        not_determined(lv, msg);
    } else if (!rc && (ways[1] != ways[0] || ways[2] != ways[0])) {
        snprintf(msg, sizeof msg, "three draws left %llu, %llu and %llu lines of one set: they "
                 "disagree (a policy that evicts at random from a set reduces to no one count; "
                 "more draws until three agree would decide it)", (unsigned long long)ways[0],
                 (unsigned long long)ways[1], (unsigned long long)ways[2]);
        not_determined(lv, msg);
    } else if (!rc) {
        rc = figures(c, lv, ways[0], group[L2E_DRAWS - 1], diffs, nd, err);
        if (!rc)
            rc = policy(c, lv, group, ways[0], miss, noise, region_lines, err);
    }
    free(pool), free(scratch);
    return rc;
}

int cw_l2_structure(cw_walker *w, cw_level *lv, const cw_avg_sweep *sw, bool counters,
                    gs_error *err)
{
    gs_backend *b = w->ctx->backend;
    const gs_device_info *info = w->ctx->info;
    l2e c = {.w = w, .line = lv->line_bytes, .far = NAN, .near = NAN,
             .counters = counters && info && info->counters, .kept_hits = NAN};
    if (!b->ops->evict) {
        not_determined(lv, "the backend has no evict operation (prime+probe)");
        return 0;
    }
    if (!c.line || !lv->size_bytes) {
        not_determined(lv, "no line or capacity to draw pools with");
        return 0;
    }
    snprintf(lv->why_policy, sizeof lv->why_policy, "the replacement tests run on the ways + 1 "
             "lines of one set, and the eviction-set draws isolated none (the sets' reason says "
             "why; a set they isolate would decide it)");
    /* two L2 plateaus: the second is the far partition's hit (cw_add_near_figures) */
    if (sw && sw->count >= 2) {
        c.far = sw->levels[sw->count - 1].hit_cycles;
        c.near = sw->levels[sw->count - 2].hit_cycles;
    }
    /* the pool's region reaches every bit the XOR fit moves, so that the differences of a set's
     * lines span them */
    c.footprint = 2ull << cw_xor_top_bit(w, lv->size_bytes);
    uint64_t cap_lines = lv->size_bytes / c.line, region_lines = c.footprint / c.line;
    size_t n = (size_t)(L2E_POOL_FACTOR * cap_lines);
    if (region_lines > UINT32_MAX || region_lines < n + L2E_CANDIDATES) {
        not_determined(lv, "the capacity is too large for the pool's line numbers");
        return 0;
    }
    char curve[240];
    int rc = c.counters ? check_counting(&c, err) : 0;
    if (!rc)
        rc = evict_curve(&c, lv, region_lines, curve, sizeof curve, err);
    size_t before = strlen(lv->why_structure);
    if (!rc)
        rc = draws(&c, lv, region_lines, n, err);
    if (!rc && curve[0] && strlen(lv->why_structure) > before)   /* evidence where nothing */
        not_determined(lv, curve);                                /* was determined */
    if (rc == GS_ERR_UNSUPPORTED) {   /* no block of this process on SM 0 (MPS) */
        not_determined(lv, err->msg);
        gs_error_clear(err);
        rc = 0;
    }
    size_t used = strlen(lv->why_structure);
    snprintf(lv->why_structure + used, sizeof lv->why_structure - used, "%s(prime+probe, every "
             "load on SM 0: %u evict plans, %llu pool lines read, %u drops of the reductions "
             "taken back; verdicts by %s%s)", used ? "; " : "", c.verdicts,
             (unsigned long long)c.line_reads, c.undone,
             c.counters ? "the L2's lookup counters: "
             : !c.counter_failure[0] && info && info->counters
                 ? "timing; counters: readable, not asked for (--counters): "
                 : "timing; counters: not available: ",
             c.counter_failure[0] ? c.counter_failure
                                  : info ? info->counters_detail : "no device information");
    if (c.counters)
        name_oracle(lv, info->counters_detail);
    return rc;
}
