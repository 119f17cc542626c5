/* Probe `cache`: infers each cache and TLB level's structure from fine-grained P-chase traces
 * (Mei et al., "Benchmarking the Memory Hierarchy of Modern GPUs", section 3.2 (1)-(4), Listing 4,
 * Fig. 3, 8, 10, 11, Table 4): capacity from a footprint sweep, fetch granularity from a cold walk,
 * set-index bits from moving one member of a conflicting group, ways and line from a stride walk
 * that stays in one set (bit-select mappings) or from the growth of missing blocks past capacity
 * (any mapping, unequal sets), and the replacement policy from predicted versus observed misses
 * and from victim ways. Every data-cache and TLB result is cross-checked by average-mode walks
 * (cache_avg.c; docs/methods.md "Average-mode cross-checks"). On a GPU whose L1 and shared memory
 * are one array (Volta and later) a trace in shared memory takes L1 away: every chase of a study
 * holds one shared-memory budget, the largest whose average-mode L1 size equals the L1's size with
 * no shared memory held (pick_trace_smem), so traces and average walks describe the L1 as the
 * default carve-out leaves it. Where they still disagree the average-mode figures are reported and
 * the rest is "not determined". The l1 record also gets the L1 size per shared-memory carve-out.
 * It only builds chase plans, so it runs unchanged on every backend.
 * Usage: gpusonar run cache --target l1|tex|ro|l2|const|tlb|all */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/cache_infer.h"
#include "probes/cache_walk.h"
#include "probes/probe.h"

#define GS_STR_(x) #x
#define GS_STR(x) GS_STR_(x)

static struct {
    const char *target;
    const char *structure;
} opt;

const gs_opt gs_probe_cache_opts[] = {
    {"target", GS_OPT_CHOICE, &opt.target, "LEVEL",
     "which structure to infer (default all)", "l1|tex|ro|l2|const|tlb|all", 0, 0},
    {"structure", GS_OPT_CHOICE, &opt.structure, "FROM",
     "L1-like levels' line, sets, ways, mapping: from fine-grained traces, average-mode stride "
     "walks where those fail (auto, the default), or average-mode walks only (average; TLBs "
     "too)",
     "auto|average", 0, 0},
};
const int gs_probe_cache_opt_count = sizeof gs_probe_cache_opts / sizeof gs_probe_cache_opts[0];

/* One target: which space and path reach it, how deep its levels go, and their names. */
typedef struct target_def {
    const char *name;
    gs_space space;
    gs_load_path path;
    bool tlb;
    unsigned max_levels;
    const char *const level_names[3];
} target_def;

static const target_def targets[] = {
    {"tlb", GS_SPACE_GLOBAL, GS_PATH_CG, true, 3, {"l1tlb", "l2tlb", "l3tlb"}},
    {"l1", GS_SPACE_GLOBAL, GS_PATH_CA, false, 1, {"l1"}},
    {"tex", GS_SPACE_TEXTURE, GS_PATH_TEX, false, 1, {"tex"}},
    {"ro", GS_SPACE_GLOBAL, GS_PATH_NC, false, 1, {"ro"}},
    {"l2", GS_SPACE_GLOBAL, GS_PATH_CG, false, 1, {"l2"}},
    {"const", GS_SPACE_CONSTANT, GS_PATH_CONST, false, 3, {"const1", "const2", "const3"}},
};

/* ---- figures ------------------------------------------------------------------------------------ */

static void add_latency_figures(gs_probe_ctx *ctx, gs_probe_out *p, const cw_level *lv)
{
    const char *hit_m = lv->latency_method
                            ? "latency of the level's plateau in an average-mode footprint sweep"
                            : "median latency of a trace that fits the level (fine-grained "
                              "P-chase)";
    const char *miss_m = lv->latency_method
                             ? lv->latency_method
                             : "median latency of the missing accesses just past capacity, less "
                               "the hit latency";
    if (!lv->tlb && isfinite(lv->trace_hit_cycles))
        gs_figure(p, "trace_hit_latency_cycles", lv->trace_hit_cycles, "cycles", 0, 1,
                  "median latency of a fine-grained trace that fits the level: the load plus the "
                  "trace's own store and clock read (and 4-byte cursor arithmetic)");
    if (!lv->tlb) {
        gs_figure(p, "hit_latency_cycles", lv->band.hit_cycles, "cycles", 0, lv->band.n, hit_m);
        gs_figure(p, "hit_latency_ns", gs_cycles_to_ns(ctx, lv->band.hit_cycles), "ns", 0,
                  lv->band.n, hit_m);
    }
    if (isfinite(lv->miss_cycles)) {
        double pen = lv->miss_cycles - lv->band.hit_cycles;
        gs_figure(p, "miss_penalty_cycles", pen, "cycles", 0, lv->miss_n, miss_m);
        gs_figure(p, "miss_penalty_ns", gs_cycles_to_ns(ctx, pen), "ns", 0, lv->miss_n, miss_m);
    } else {
        gs_figure_nd(p, "miss_penalty_cycles", "cycles", miss_m, "%s", "no miss was observed");
        gs_figure_nd(p, "miss_penalty_ns", "ns", miss_m, "%s", "no miss was observed");
    }
}

static void add_geometry_figures(gs_probe_out *p, const cw_level *lv)
{
    const char *blk = lv->tlb ? "coverage_bytes" : "line_bytes";
    if (!lv->line_bytes) {
        if (!lv->tlb && lv->fetch_bytes)
            gs_figure(p, "sector_bytes", (double)lv->fetch_bytes, "B", 0, 1,
                      "miss granularity of cold sequential stride walks (average mode): the "
                      "stride from which every access misses (a sector, or the line if lines "
                      "are not sectored)");
        else if (!lv->tlb)
            gs_figure_nd(p, "sector_bytes", "B", "cold stride walks", "%s", lv->why_structure);
        gs_figure_nd(p, blk, "B", "set-index bit tests", "%s", lv->why_structure);
        gs_figure_nd(p, "sets", "", "set-index bit tests", "%s", lv->why_structure);
        gs_figure_nd(p, "ways", "", "set-index bit tests", "%s", lv->why_structure);
        gs_figure_nd(p, "mapping", "", "set-index bit tests", "%s", lv->why_structure);
        return;
    }
    gs_figure(p, blk, (double)lv->line_bytes, "B", 0, 1, lv->line_method);
    if (lv->tlb)
        gs_figure(p, "entries", (double)(lv->size_bytes / lv->line_bytes), "", 0, 1,
                  "coverage / region of one entry");
    const char *fetch_m = "distance between misses in a cold stride walk (fetch granularity)";
    if (!lv->tlb && lv->fetch_bytes && lv->fetch_bytes < lv->line_bytes)
        gs_figure(p, "sector_bytes", (double)lv->fetch_bytes, "B", 0, 1, fetch_m);
    else if (!lv->tlb && !lv->fetch_bytes)
        gs_figure_nd(p, "sector_bytes", "B", fetch_m, "%s", "the cold walk showed no miss (the "
                     "level was already warm, as an L2 is after the host copies the chain)");
    if (lv->nsets == 0) {
        gs_figure_nd(p, "sets", "", lv->sets_method, "%s", lv->why_structure);
        gs_figure_nd(p, "ways", "", lv->sets_method, "%s", lv->why_structure);
    } else {
        gs_figure(p, "sets", (double)lv->sets, "", 0, 1, lv->sets_method);
        if (gs_ways_equal(lv->ways_per_set, lv->nsets)) {
            gs_figure(p, "ways", (double)lv->ways_per_set[0], "", 0, 1, lv->sets_method);
        } else {
            double w[CW_MAX_SETS];
            for (size_t i = 0; i < lv->nsets; i++)
                w[i] = lv->ways_per_set[i];
            gs_figure_list(p, "ways_per_set", w, lv->nsets, "", 1, lv->sets_method);
        }
    }
    if (lv->mapping == CW_MAP_BITS) {
        double bits[64];
        for (size_t i = 0; i < lv->nindex; i++)
            bits[i] = lv->index_bits[i];
        gs_figure_list(p, "mapping", bits, lv->nindex, "bit", 1,
                       "address bits whose change moves a block out of its set");
    } else if (lv->mapping == CW_MAP_MODULO) {
        gs_figure_text(p, "mapping", "modulo", 1,
                       "every block added past capacity opened a new set, in order");
    } else if (lv->mapping == CW_MAP_HASHED) {
        gs_figure_text(p, "mapping", "hashed", 1,
                       "set-index bits are not a plain bit selection");
    } else {
        gs_figure_nd(p, "mapping", "", "set-index bit tests", "%s", lv->why_structure);
    }
}

static void add_policy_figures(gs_probe_out *p, const cw_level *lv)
{
    if (lv->policy == GS_POLICY_UNKNOWN) {
        gs_figure_nd(p, "policy", "", "replacement tests", "%s", lv->why_policy);
        return;
    }
    gs_figure_text(p, "policy", gs_policy_name(lv->policy), lv->policy_n, lv->policy_method);
    if (lv->policy == GS_POLICY_WEIGHTED || lv->policy == GS_POLICY_RANDOM)
        gs_figure_list(p, "way_probabilities", lv->way_probabilities, lv->nprob, "",
                       lv->policy_n, "victim way shares; ways named in the order the empty set "
                       "filled them");
}

/* A result record for level depth of target t, with the parameters every level carries. */
static gs_probe_out *level_record(gs_probe_ctx *ctx, const target_def *t, unsigned depth)
{
    gs_probe_out *p = gs_run_add_probe(ctx->run, "cache");
    gs_param_string(p, "level", t->level_names[depth]);
    gs_param_string(p, "target", t->name);
    gs_param_string(p, "path", gs_path_name(t->path));
    return p;
}

/* |a - b| */
static uint64_t udiff(uint64_t a, uint64_t b) { return a > b ? a - b : b - a; }

static gs_probe_out *record_level(gs_probe_ctx *ctx, const target_def *t, unsigned depth,
                                  const cw_level *lv)
{
    gs_probe_out *p = level_record(ctx, t, depth);
    gs_param_string(p, "space", gs_space_name(t->space));
    gs_param_int(p, "chases", (long long)lv->chases);
    gs_param_int(p, "record_capacity", (long long)lv->record_capacity);
    gs_param_int(p, "trace_smem_bytes", (long long)lv->trace_smem_bytes);
    gs_param_int(p, "trace_carveout_percent", (long long)lv->trace_carveout);
    gs_figure(p, "size_bytes", (double)lv->size_bytes, "B", 0, 1,
              lv->size_method ? lv->size_method
                              : "largest footprint whose steady-state trace has no repeating "
                                "miss (section 3.2 (1))");
    if (lv->tlb && lv->page_bytes)
        gs_figure(p, "page_bytes", (double)lv->page_bytes, "B", 0, 1,
                  "region one entry of the first TLB level covers");
    add_geometry_figures(p, lv);
    add_policy_figures(p, lv);
    add_latency_figures(ctx, p, lv);
    return p;
}

static void record_missing(gs_probe_ctx *ctx, const target_def *t, unsigned depth,
                           const char *why)
{
    gs_probe_out *p = level_record(ctx, t, depth);
    gs_figure_nd(p, "size_bytes", "B", "footprint sweep", "%s", why);
    gs_probe_status(p, "ok", NULL);
}

/* ---- average-mode cross-checks (a trace kept in shared memory shrinks a unified L1; an L2 is
 * larger than any trace) -------------------------------------------------------------------------- */

static const char avg_size_m[] = "end of the level's latency plateau in an average-mode footprint "
                                 "sweep (random cyclic walk, no trace in shared memory; footprints "
                                 "at ratio sqrt 2, the plateau's end bisected to a 64th)";
static const char avg_miss_m[] = "latency of the plateau behind the level less the level's "
                                 "plateau latency (average-mode footprint sweep)";

/* preferences tried: every percent to 10 (the driver rounds small ones to few sizes), then
 * coarser */
static const int carveouts[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 15, 20, 30, 40, 50, 60, 70,
                                80, 90, 100};

/* The structure found under the trace does not describe the level: keep only what the average
 * sweep measured (size, latencies, and the cold-walk miss granularity in fetch). */
static void adopt_average(cw_level *lv, const cw_avg_level *a, double beyond_cycles,
                          uint64_t fetch_bytes, const char *why)
{
    lv->size_bytes = a->size_bytes;
    lv->size_method = avg_size_m;
    lv->latency_method = avg_miss_m;
    lv->band.hit_cycles = a->hit_cycles;
    lv->band.n = 1;
    lv->miss_cycles = beyond_cycles;
    lv->miss_n = 1;
    lv->fetch_bytes = fetch_bytes;
    lv->line_bytes = 0;
    lv->nsets = 0;
    lv->mapping = CW_MAP_NONE;
    lv->policy = GS_POLICY_UNKNOWN;
    snprintf(lv->why_structure, sizeof lv->why_structure, "%s", why);
    snprintf(lv->why_policy, sizeof lv->why_policy, "%s", why);
}

/* Which level of the sweep the target's first level is: the first plateau's end for an L1-like
 * target; for the L2 path the last cache plateau (the whole L2; earlier ones are the part one SM
 * sees nearer). */
static const cw_avg_level *avg_level_of(const target_def *t, const cw_avg_sweep *sw)
{
    if (sw->count == 0)
        return NULL;
    return t->path == GS_PATH_CG ? &sw->levels[sw->count - 1] : &sw->levels[0];
}

/* The average sweep's element spacing: the line the fine-grained walk found; else 128 B, the
 * largest line of the GPUs and models this tool knows (a larger line would read as capacity x
 * line / 128 B: docs/methods.md, "cache"). */
static uint64_t avg_stride(const cw_level *lv)
{
    return lv->line_bytes && !lv->tlb ? lv->line_bytes : 128;
}

static int cross_check(gs_probe_ctx *ctx, cw_walker *w, const target_def *t, uint64_t bound,
                       cw_level *lv, cw_avg_sweep *sw, gs_error *err)
{
    gs_progress(ctx, "cache: %s, average-mode footprint sweep", t->name);
    /* on the L2 path start where a footprint holds enough lines to mix near and far ones */
    int rc = cw_avg_levels(w, t->path == GS_PATH_CG ? 65536 : 1024, bound, avg_stride(lv), -1,
                           sw, err);
    if (rc)
        return rc;
    const cw_avg_level *a = avg_level_of(t, sw);
    double beyond = sw->count > 0 && t->path != GS_PATH_CG ? a->next_cycles : sw->beyond_cycles;
    if (!a) {
        char why[320];
        snprintf(why, sizeof why, "the fine-grained sweep found %llu B, but the average-mode "
                 "sweep shows %s: contradiction", (unsigned long long)lv->size_bytes, sw->why);
        lv->size_bytes = 0;
        snprintf(lv->why_structure, sizeof lv->why_structure, "%s", why);
        return 0;
    }
    if (gs_sizes_consistent(lv->size_bytes, a->size_bytes, a->resolution_bytes))
        return 0;
    uint64_t l2_info = ctx->info ? ctx->info->l2_bytes : 0;
    if (t->path == GS_PATH_CG && l2_info && a->size_bytes > l2_info + l2_info / 8) {
        /* plausibility: no part of the L2 holds more than the driver says the L2 holds */
        snprintf(lv->why_structure, sizeof lv->why_structure, "the average-mode sweep's last "
                 "cache plateau ends at %llu B, more than the %llu B the driver reports for the "
                 "L2 (plateaus at %.0f and %.0f cycles): implausible, so not reported",
                 (unsigned long long)a->size_bytes, (unsigned long long)l2_info,
                 sw->levels[0].hit_cycles, a->hit_cycles);
        lv->size_bytes = 0;
        return 0;
    }
    char fine[400];
    if (lv->size_bytes)
        snprintf(fine, sizeof fine, "under a fine-grained trace the level held %llu B",
                 (unsigned long long)lv->size_bytes);
    else
        snprintf(fine, sizeof fine, "fine-grained traces found no capacity (%.300s)",
                 lv->why_structure);
    uint64_t fetch = 0;
    if (t->path == GS_PATH_CG)
        rc = cw_avg_fetch(w, &fetch, err);
    char why[640];
    if (t->path == GS_PATH_CG)
        snprintf(why, sizeof why, "the L2 (%llu B in average-mode walks) holds more lines than a "
                 "trace can follow (%zu entries), and slow hits in a far partition read as misses "
                 "in one (%.200s): sets, ways, mapping and policy need a method for L2-sized chains "
                 "that this probe does not have", (unsigned long long)a->size_bytes,
                 lv->record_capacity, fine);
    else
        snprintf(why, sizeof why, "%.400s, average-mode walks %llu B: the trace changed the level "
                 "or its traces were misread, so no structure from them describes it", fine,
                 (unsigned long long)a->size_bytes);
    adopt_average(lv, a, beyond, fetch, why);
    if (t->path == GS_PATH_CG && !rc) {
        /* the line from the first plateau (the near part when there are two) */
        const cw_avg_level *first = &sw->levels[0];
        uint64_t line = 0;
        rc = cw_avg_line(w, first->size_bytes, first->hit_cycles, first->next_cycles, fetch,
                         &line, err);
        if (!rc && line) {
            lv->line_bytes = line;
            lv->line_method = "half the smallest stride s at which a random walk of 1.5 x "
                              "capacity / s elements, one per s-byte slot, fits (average mode)";
        }
    }
    if (t->path == GS_PATH_CG && sw->count > 1) {
        /* hits: what one SM sees at small footprints (the near part); a miss costs the memory
         * plateau less the whole L2's (far) plateau */
        lv->band.hit_cycles = sw->levels[0].hit_cycles;
        lv->miss_cycles = lv->band.hit_cycles + (beyond - a->hit_cycles);
        lv->latency_method = "latency of the plateau behind the whole L2 less the plateau of its "
                             "far part (average-mode footprint sweep)";
    }
    return rc;
}

/* The L2 as one SM sees it: with two cache plateaus on the cg path the first is the near part. */
static void add_near_figures(gs_probe_ctx *ctx, gs_probe_out *p, const cw_avg_sweep *sw)
{
    const char *m = "first of two L2 plateaus in an average-mode footprint sweep from one SM "
                    "(lines this SM reaches at the near latency)";
    if (sw->count < 2) {
        gs_figure_nd(p, "near_size_bytes", "B", m, "%s", sw->count ? "one L2 plateau: every "
                     "footprint that fits hits at one latency" : sw->why);
        return;
    }
    gs_figure(p, "near_size_bytes", (double)sw->levels[0].size_bytes, "B", 0, 1, m);
    gs_figure(p, "near_hit_latency_cycles", sw->levels[0].hit_cycles, "cycles", 0, 1, m);
    gs_figure(p, "near_hit_latency_ns", gs_cycles_to_ns(ctx, sw->levels[0].hit_cycles), "ns", 0,
              1, m);
    gs_figure(p, "far_hit_latency_cycles", sw->levels[sw->count - 1].hit_cycles, "cycles", 0, 1,
              "plateau of the whole L2 past the near part (average-mode footprint sweep)");
}

/* Average-mode L1 size holding b bytes of shared memory under the walker's preference, and
 * whether it equals size0 (within the two sweeps' resolutions). */
static int l1_size_holding(gs_probe_ctx *ctx, cw_walker *w, const target_def *t, uint64_t hi,
                           uint64_t b, const cw_avg_level *l0, uint64_t *size, bool *same,
                           gs_error *err)
{
    cw_avg_sweep sw;
    gs_progress(ctx, "cache: %s, L1 size holding %llu B of shared memory, carve-out %d%s",
                t->name, (unsigned long long)b, w->carveout, w->carveout < 0 ? " (default)" : "%");
    int rc = cw_walker_set_smem(w, b, err);
    if (!rc)
        rc = cw_avg_levels(w, 1024, hi, 128, -1, &sw, err);
    *size = !rc && sw.count ? sw.levels[0].size_bytes : 0;
    uint64_t d = udiff(*size, l0->size_bytes);
    *same = *size && d <= sw.levels[0].resolution_bytes + l0->resolution_bytes;
    return rc;
}

/* The preference under which holding CW_TRACE_SMEM_MIN bytes leaves the L1 at l0's size: the
 * driver's default (-1) if it does, else bisected over 0..100 % (holding shared memory, a larger
 * preference never gives a larger L1). *found false when none does; tried lists the sizes. */
static int find_pin_pref(gs_probe_ctx *ctx, cw_walker *w, const target_def *t, uint64_t hi,
                         const cw_avg_level *l0, bool *found, char *tried, size_t tried_len,
                         gs_error *err)
{
    size_t used = 0;
    uint64_t size;
    bool same;
    int lo = 0, up = 100, rc = 0;
    *found = false;
    tried[0] = 0;
#define GS_TRY(pref)                                                                           \
    do {                                                                                       \
        w->carveout = (pref);                                                                  \
        if ((rc = l1_size_holding(ctx, w, t, hi, CW_TRACE_SMEM_MIN, l0, &size, &same, err)))   \
            return rc;                                                                         \
        if (same)                                                                              \
            return *found = true, 0;                                                           \
        if (used < tried_len)                                                                  \
            used += (size_t)snprintf(tried + used, tried_len - used, "%s%d%%: %llu B",         \
                                     used ? ", " : "", (pref), (unsigned long long)size);      \
    } while (0)
    GS_TRY(-1);
    GS_TRY(lo);
    if (size < l0->size_bytes)                 /* even the smallest preference leaves less */
        return 0;
    GS_TRY(up);
    if (size > l0->size_bytes)                 /* even the largest leaves more */
        return 0;
    while (up - lo > 1) {
        int mid = lo + (up - lo) / 2;
        GS_TRY(mid);
        if (size > l0->size_bytes)
            lo = mid;
        else
            up = mid;
    }
#undef GS_TRY
    return 0;
}

/* The trace budget for an L1-like target: the L1's size with no shared memory held (sw0, the
 * default carve-out as a kernel without shared memory gets it); the preference under which
 * holding CW_TRACE_SMEM_MIN bytes leaves that size (find_pin_pref); then budgets from the
 * walker's down, halving, until one leaves it too. The walker keeps the budget and preference
 * found. *pinned is false when no preference does (why says so). */
static int pick_trace_smem(gs_probe_ctx *ctx, cw_walker *w, const target_def *t, uint64_t bound,
                           cw_avg_sweep *sw0, bool *pinned, char *why, size_t why_len,
                           gs_error *err)
{
    uint64_t budget = w->smem_bytes;
    *pinned = true;
    gs_progress(ctx, "cache: %s, L1 size with no shared memory held", t->name);
    w->smem_bytes = 0;
    int rc = cw_avg_levels(w, 1024, bound, 128, -1, sw0, err);
    w->smem_bytes = budget;
    if (rc || sw0->count == 0)
        return rc;
    const cw_avg_level *l0 = &sw0->levels[0];
    uint64_t hi = 4 * l0->size_bytes < bound ? 4 * l0->size_bytes : bound, size;
    char tried[320];
    bool found, same;
    if ((rc = find_pin_pref(ctx, w, t, hi, l0, &found, tried, sizeof tried, err)) != 0)
        return rc;
    if (!found) {
        *pinned = false;
        w->carveout = -1;
        snprintf(why, why_len, "holding even %llu B of shared memory changed the L1 under every "
                 "carve-out preference tried (no shared memory: %llu B; with it: %s; -1 = the "
                 "driver's default): traces would describe another L1 configuration",
                 (unsigned long long)CW_TRACE_SMEM_MIN, (unsigned long long)l0->size_bytes,
                 tried);
        return cw_walker_set_smem(w, budget, err);
    }
    for (uint64_t b = budget; b > CW_TRACE_SMEM_MIN && !rc; b /= 2) {
        rc = l1_size_holding(ctx, w, t, hi, b, l0, &size, &same, err);
        if (!rc && same)
            return 0;
    }
    return rc ? rc : cw_walker_set_smem(w, CW_TRACE_SMEM_MIN, err);
}

/* ---- structure in average mode (an L1 whose replacement defeats the fine-grained walks) -------- */

static unsigned log2u(uint64_t x)
{
    unsigned k = 0;
    while (x >>= 1)
        k++;
    return k;
}

/* Whether a cyclic walk over ways + max(1, ways / 8) random blocks that agree on the index bits
 * [low_bit, log2 span) misses while ways of them fit (a bit-select set index predicts both), less
 * a 64th past 64 ways (stride walks judged with a 10 % tolerance can pass a few blocks past a
 * randomised capacity); the other bits above the line are random. The blocks stay inside one
 * 1 MB region, so that they share a 2 MB page more often than not (a first-level TLB of one entry
 * would otherwise add its misses to the averages). over/under: the two walks' averages. */
static int verify_stride_sets(cw_walker *w, uint64_t line, uint64_t span, unsigned low_bit,
                              unsigned ways, double hit, bool *holds, double *over,
                              double *under, gs_error *err)
{
    uint64_t region = 1ull << 20, above = region / span, below = (1ull << low_bit) / line;
    size_t extra = ways + (ways / 8 > 1 ? ways / 8 : 1), fit = ways - (ways > 64 ? ways / 64 : 0);
    uint64_t *b = malloc(extra * sizeof *b);
    *holds = false;
    *over = *under = NAN;
    if (!b)
        return gs_fail(err, GS_ERR_NO_MEMORY, "out of host memory");
    if (above < 1 || above * below < extra) {
        free(b);
        return 0;
    }
    size_t n = 0;
    for (unsigned tries = 0; n < extra && tries < 64 * extra; tries++) {
        uint64_t a = gs_rng_below(&w->rng, above) * span + gs_rng_below(&w->rng, below) * line;
        bool dup = false;
        for (size_t i = 0; i < n; i++)
            dup |= b[i] == a;
        if (!dup)
            b[n++] = a;
    }
    int rc = n == extra ? cw_avg_offsets(w, b, n, over, err) : 0;
    if (!rc && n == extra)
        rc = cw_avg_offsets(w, b, fit, under, err);
    *holds = !rc && n == extra && *over > hit * 1.1 && *under <= hit * 1.1;
    free(b);
    return rc;
}

/* Ways of one set under any index (average mode): a pool of random lines of a 1 MB region, 1.5 x
 * the capacity, overflows some sets; groups of it are dropped while the rest still misses (a walk
 * averaging more than 10 % over hits), in finer groups when none can go, until no single line can:
 * ways + 1 lines of one set are left (the group reduction of eviction-set searches). 0 when the
 * pool does not miss or the reduction runs past its budget of walks. */
static int reduce_ways(cw_walker *w, uint64_t line, uint64_t cap_lines, double hit,
                       uint64_t *ways, uint64_t *group, gs_error *err)
{
    uint64_t region = (1ull << 20) / line, n = cap_lines + cap_lines / 2 + 8;
    *ways = 0;
    if (n > region / 2 || n < 4)
        return 0;
    uint64_t *s = malloc(n * sizeof *s), *t = malloc(n * sizeof *t);
    uint32_t *pick = malloc(region * sizeof *pick);
    int rc = s && t && pick ? 0 : gs_fail(err, GS_ERR_NO_MEMORY, "out of host memory");
    for (uint64_t i = 0; !rc && i < region; i++)
        pick[i] = (uint32_t)i;
    for (uint64_t i = 0; !rc && i < n; i++) {                  /* partial Fisher-Yates */
        uint64_t j = i + gs_rng_below(&w->rng, region - i);
        uint32_t x = pick[i];
        pick[i] = pick[j], pick[j] = x;
        s[i] = (uint64_t)pick[i] * line;
    }
    double avg = 0;
    if (!rc)
        rc = cw_avg_offsets(w, s, n, &avg, err);
    uint64_t m = n, groups = 8;
    unsigned walks = 0;
    bool missing = !rc && avg > hit * 1.1;
    while (!rc && missing && m > 1 && walks < 1500) {
        uint64_t size = (m + groups - 1) / groups;
        bool dropped = false;
        for (uint64_t g = 0; !rc && g * size < m && m > 1 && walks < 1500;) {
            uint64_t lo = g * size, hi = lo + size < m ? lo + size : m, k = 0;
            for (uint64_t i = 0; i < m; i++)
                if (i < lo || i >= hi)
                    t[k++] = s[i];
            rc = cw_avg_offsets(w, t, k, &avg, err);
            walks++;
            if (!rc && avg > hit * 1.1) {
                memcpy(s, t, k * sizeof *t);
                m = k;
                dropped = true;
            } else {
                g++;
            }
        }
        if (!dropped && size == 1)
            break;
        if (!dropped)
            groups *= 2;
    }
    if (!rc && missing && walks < 1500 && m > 1 && m <= CW_MAX_WAYS + 1) {
        *ways = m - 1;
        memcpy(group, s, m * sizeof *s);
    }
    free(s), free(t), free(pick);
    return rc;
}

/* Sets and ways of a level whose index is not a bit selection: three reductions (reduce_ways)
 * from different random pools must agree (to a 64th), and sets x ways x line must be the
 * capacity within 3 %. Unequal sets give different ways and are refused. The last reduction's
 * ways + 1 lines of one set then go through the fine-grained policy tests (cw_infer_policy). */
static int hashed_sets(cw_walker *w, cw_level *lv, uint64_t line, double hit, const char *why,
                       gs_error *err)
{
    uint64_t r[3] = {0, 0, 0}, cap_lines = lv->size_bytes / line, group[CW_MAX_WAYS + 1];
    int rc = 0;
    for (int i = 0; i < 3 && !rc; i++)
        rc = reduce_ways(w, line, cap_lines, hit, &r[i], group, err);
    if (rc)
        return rc;
    uint64_t lo = r[0], hi = r[0];
    for (int i = 1; i < 3; i++)
        lo = r[i] < lo ? r[i] : lo, hi = r[i] > hi ? r[i] : hi;
    uint64_t ways = r[2], sets = lo ? (lv->size_bytes + ways * line / 2) / (ways * line) : 0;
    uint64_t d = udiff(sets * ways * line, lv->size_bytes);
    uint64_t tol = lv->size_bytes / 32 > line ? lv->size_bytes / 32 : line;
    if (!lo || hi - lo > hi / 64 || !sets || d > tol) {
        snprintf(lv->why_structure, sizeof lv->why_structure, "%.420s; eviction-set reductions "
                 "over three pools of random lines left %llu, %llu and %llu lines of one set%s",
                 why, (unsigned long long)r[0], (unsigned long long)r[1],
                 (unsigned long long)r[2], lo && hi - lo <= hi / 64
                                               ? ", which do not make the capacity"
                                               : " (0: none): unequal sets, or a policy that "
                                                 "defeats the reduction");
        return 0;
    }
    lv->sets = (unsigned)sets;
    lv->ways_per_set[0] = (unsigned)ways;
    lv->nsets = 1;
    lv->sets_method = "ways: lines of one set left by an eviction-set reduction over random lines "
                      "(three pools agree), less one; sets: capacity / (ways x line)";
    lv->mapping = CW_MAP_NONE;
    snprintf(lv->why_structure, sizeof lv->why_structure, "%s", why);
    /* the last reduction's lines are ways + 1 blocks of one set: the fine-grained policy tests */
    lv->policy = GS_POLICY_UNKNOWN;
    lv->why_policy[0] = 0;
    return cw_infer_policy(w, lv, group, (size_t)r[2] + 1, 0, err);
}

/* Line, sets, ways and mapping from average-mode walks, and the policy from the fine-grained
 * tests on one set they found, for an L1-like level whose fine-grained structure was not
 * determined: the line from cw_avg_line; ways = the blocks that stride walks fit at the largest
 * strides (cw_avg_fits), sets = capacity / (ways x line), accepted for a bit-select index when
 * random blocks agreeing on the index bits conflict as predicted; else sets and ways from
 * eviction-set reductions over random lines (hashed_sets). */
static int avg_structure(cw_walker *w, cw_level *lv, const cw_avg_sweep *sw,
                         cw_avg_fits_result *fits, gs_error *err)
{
    char why[640];
    const cw_avg_level *a = &sw->levels[0];
    uint64_t line = 0, floor_stride = lv->fetch_bytes ? lv->fetch_bytes : 8;
    int rc = cw_avg_line(w, a->size_bytes, a->hit_cycles, a->next_cycles, floor_stride, &line, err);
    if (rc || !line) {
        snprintf(why, sizeof why, "%.400s; average-mode line walks saw no line either",
                 lv->why_structure);
        snprintf(lv->why_structure, sizeof lv->why_structure, "%s", why);
        return rc;
    }
    lv->line_bytes = line;
    lv->line_method = "half the smallest stride s at which a random walk of 1.5 x capacity / s "
                      "elements, one per s-byte slot, fits (average mode)";
    if ((rc = cw_avg_fits(w, line, a->hit_cycles, fits, err)) != 0)
        return rc;
    size_t n = fits->n;
    uint64_t ways = n ? fits->fit[n - 1] : 0;
    bool none = n > 0;
    for (size_t i = 0; i < n; i++)
        none = none && fits->fit[i] == 0;
    if (none) {
        snprintf(lv->why_structure, sizeof lv->why_structure, "the fine-grained walks found no "
                 "conflicting set, and more than %d blocks fit at every power-of-two stride from "
                 "%llu B to %llu B (series ways_by_stride): no selection of the address bits "
                 "below bit %u picks the set; a bit-select index would need %d or more ways (a "
                 "hash of higher bits, or near full associativity)", CW_FIT_MAX_BLOCKS,
                 (unsigned long long)fits->stride_bytes[0],
                 (unsigned long long)fits->stride_bytes[n - 1],
                 log2u(fits->stride_bytes[n - 1]) + 1, CW_FIT_MAX_BLOCKS);
        return 0;
    }
    if (n < 2 || !ways || !fits->fit[n - 2] ||
        udiff(fits->fit[n - 2], ways) > ways / 64) {
        char nb[320];
        snprintf(nb, sizeof nb, "the blocks that stride walks fit still change at the largest "
                 "stride (%llu B; series ways_by_stride): no bit selection found",
                 (unsigned long long)CW_FIT_MAX_STRIDE);
        return hashed_sets(w, lv, line, a->hit_cycles, nb, err);
    }
    /* the stride from which the count holds (to a 64th: walks near a randomised capacity vary) */
    size_t i0 = n - 1;
    while (i0 > 0 && fits->fit[i0 - 1] && udiff(fits->fit[i0 - 1], ways) <= ways / 64)
        i0--;
    /* sets from the capacity; their index bits are the log2(sets) bits below the stride from
     * which every block lands in one set (contiguous from the line, or higher: Kepler's texture
     * L1 indexes on bits 7-8 above 32-B lines) */
    uint64_t span = fits->stride_bytes[i0];
    uint64_t sets = (lv->size_bytes + ways * line / 2) / (ways * line);
    uint64_t d = udiff(sets * ways * line, lv->size_bytes);
    /* within a line, or 3 % for sets of hundreds of ways (the walks' 10 % latency tolerance
     * lets a few blocks past a randomised capacity pass) */
    uint64_t tol = lv->size_bytes / 32 > line ? lv->size_bytes / 32 : line;
    bool pow2 = sets && (sets & (sets - 1)) == 0 && sets * line <= span && (ways > 64 || d < line);
    unsigned low = pow2 ? log2u(span) - log2u(sets) : 0;
    bool holds = pow2 && d <= tol;
    double over = NAN, under = NAN;
    for (int draw = 0; draw < 3 && holds && !rc; draw++)    /* three random draws must all hold */
        rc = verify_stride_sets(w, line, span, low, (unsigned)ways, a->hit_cycles, &holds, &over,
                                &under, err);
    if (rc)
        return rc;
    if (!pow2 || d > tol || !holds) {
        char detail[240];
        if (!pow2 || d > tol)
            snprintf(detail, sizeof detail, "capacity / (ways x line) is not a power of two "
                     "within the stride");
        else if (sets == 1) {
            /* the whole capacity fits at every stride, yet random lines overflow: sets exist,
             * and power-of-two strides spread over them evenly */
            char hash[640];
            snprintf(hash, sizeof hash, "the whole capacity (%llu blocks of %llu B) fits at "
                     "every power-of-two stride from %llu B to %llu B, yet %llu random blocks of a "
                     "1 MB region do not (%.1f cycles against hits at %.1f): the sets spread "
                     "power-of-two strides evenly, so the set index is not a bit selection (a "
                     "hash of address bits, or modulo an odd set count)", (unsigned long long)ways,
                     (unsigned long long)line, (unsigned long long)fits->stride_bytes[0],
                     (unsigned long long)fits->stride_bytes[n - 1],
                     (unsigned long long)(ways - (ways > 64 ? ways / 64 : 0)), under,
                     a->hit_cycles);
            return hashed_sets(w, lv, line, a->hit_cycles, hash, err);
        }
        else
            snprintf(detail, sizeof detail, "random blocks that agree on its index bits (%u..%u) "
                     "do not conflict as that predicts (%llu of them averaged %.1f cycles, fewer "
                     "%.1f; hits %.1f)", low, log2u(span) - 1, (unsigned long long)(ways +
                     (ways / 8 > 1 ? ways / 8 : 1)), over, under, a->hit_cycles);
        char nb[640];
        snprintf(nb, sizeof nb, "stride walks fit %llu blocks of %llu B from a %llu-B stride on "
                 "(%llu such sets would make the capacity), but %s: not a bit-select set index "
                 "(a hashed or modulo one spreads strided blocks over sets)",
                 (unsigned long long)ways, (unsigned long long)line, (unsigned long long)span,
                 (unsigned long long)sets, detail);
        return hashed_sets(w, lv, line, a->hit_cycles, nb, err);
    }
    lv->why_structure[0] = 0;
    lv->sets = (unsigned)sets;
    lv->ways_per_set[0] = (unsigned)ways;
    lv->nsets = 1;
    lv->sets_method = "ways: most blocks a stride walk holds at the largest strides; sets: the "
                      "smallest such stride / line (average mode, checked with random blocks)";
    lv->mapping = CW_MAP_BITS;
    lv->nindex = 0;
    for (unsigned k = low; k < log2u(span) && lv->nindex < 64; k++)
        lv->index_bits[lv->nindex++] = k;
    /* policy: the fine-grained tests on ways + 1 blocks of one set (stride span apart) */
    uint64_t group[CW_MAX_WAYS + 1];
    if (ways + 1 > CW_MAX_WAYS + 1) {
        snprintf(lv->why_policy, sizeof lv->why_policy, "%llu ways: more than the policy tests "
                 "take (%d)", (unsigned long long)ways, CW_MAX_WAYS);
        return 0;
    }
    for (uint64_t i = 0; i <= ways; i++)
        group[i] = i * span;
    lv->policy = GS_POLICY_UNKNOWN;
    lv->why_policy[0] = 0;
    rc = cw_infer_policy(w, lv, group, (size_t)ways + 1, 0, err);
    return rc;
}

/* The L1 size under each carve-out preference (cudaFuncAttributePreferredSharedMemoryCarveout;
 * a hint the driver may round), from one average-mode sweep each. */
static int add_carveout_series(gs_probe_ctx *ctx, cw_walker *w, uint64_t bound,
                               uint64_t stride_bytes, gs_probe_out *p, gs_error *err)
{
    double x[sizeof carveouts / sizeof carveouts[0]], y[sizeof x / sizeof x[0]];
    size_t n = 0;
    int rc = 0;
    uint64_t budget = w->smem_bytes;
    w->smem_bytes = 0;                         /* the preference alone decides */
    for (size_t i = 0; i < sizeof carveouts / sizeof carveouts[0] && !rc; i++) {
        cw_avg_sweep sw;
        gs_progress(ctx, "cache: l1 under a %d%% shared-memory carve-out", carveouts[i]);
        rc = cw_avg_levels(w, 1024, bound, stride_bytes, carveouts[i], &sw, err);
        if (!rc && sw.count > 0) {
            x[n] = carveouts[i];
            y[n++] = (double)sw.levels[0].size_bytes;
        } else if (!rc) {
            gs_probe_warning(p, "carve-out %d%%: %s", carveouts[i], sw.why);
        }
    }
    w->smem_bytes = budget;
    if (n)
        gs_series(p, "l1_size_by_carveout", "preferred shared-memory carve-out", "%",
                  "L1 size (average-mode plateau end)", "B", x, y, n);
    return rc;
}

/* The first TLB level from fine-grained walks must agree with average-mode stride walks
 * (cw_avg_tlb): the same entries, and the same page (or a page below the walks' smallest stride
 * where they see none). */
static int tlb_check(cw_walker *w, cw_level *lv, cw_avg_tlb_result *r, bool *ok, gs_error *err)
{
    int rc = cw_avg_tlb(w, r, err);
    *ok = false;
    if (rc)
        return rc;
    uint64_t entries = lv->line_bytes ? lv->size_bytes / lv->line_bytes : 0;
    bool page_ok = r->page_bytes ? r->page_bytes == lv->line_bytes
                                 : r->entries && r->page_points &&
                                       lv->line_bytes <= CW_TLB_MIN_STRIDE;
    *ok = r->entries && entries == r->entries && page_ok;
    if (!*ok)
        snprintf(lv->why_structure, sizeof lv->why_structure, "fine-grained walks found %llu "
                 "entries of %llu B, average-mode stride walks %llu entries of %llu B: they "
                 "disagree", (unsigned long long)entries, (unsigned long long)lv->line_bytes,
                 (unsigned long long)r->entries, (unsigned long long)r->page_bytes);
    return 0;
}

static void record_tlb_refuted(gs_probe_ctx *ctx, const target_def *t, unsigned depth,
                               const char *why)
{
    gs_probe_out *p = level_record(ctx, t, depth);
    static const char *const names[] = {"size_bytes", "entries", "page_bytes", "coverage_bytes",
                                        "sets", "ways", "miss_penalty_cycles"};
    static const char *const units[] = {"B", "", "B", "B", "", "", "cycles"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        gs_figure_nd(p, names[i], units[i], "fine-grained TLB walk checked in average mode", "%s",
                     why);
    gs_probe_status(p, "ok", NULL);
}

/* The fine-grained TLB level was refuted: the first level from average-mode stride walks
 * (cw_avg_tlb); deeper levels not determined. */
static void record_tlb_average(gs_probe_ctx *ctx, const target_def *t, const char *refuted,
                               const cw_avg_tlb_result *rp)
{
    cw_avg_tlb_result r = *rp;
    char why[640];
    snprintf(why, sizeof why, "%.400s; average mode: %.200s", refuted, r.why[0] ? r.why : "ok");
    if (!r.entries) {
        record_tlb_refuted(ctx, t, 0, why);
    } else {
        gs_probe_out *p = level_record(ctx, t, 0);
        const char *m = "average-mode stride walks over aliased memory: most regions of one "
                        "stride visited with no step in the average latency, equal at the largest "
                        "strides";
        gs_param_int(p, "chases", (long long)r.chases);
        gs_figure(p, "entries", (double)r.entries, "", 0, 1, m);
        if (r.page_bytes) {
            const char *pm = "entries x page = most regions that fit x stride, below the page";
            gs_figure(p, "page_bytes", (double)r.page_bytes, "B", 0, 1, pm);
            gs_figure(p, "coverage_bytes", (double)r.page_bytes, "B", 0, 1, pm);
            gs_figure(p, "size_bytes", (double)(r.page_bytes * r.entries), "B", 0, 1,
                      "entries x coverage");
        } else {
            gs_figure_nd(p, "page_bytes", "B", m, "%s", r.why);
            gs_figure_nd(p, "coverage_bytes", "B", m, "%s", r.why);
            gs_figure_nd(p, "size_bytes", "B", m, "%s", r.why);
        }
        if (r.entries == 1) {
            const char *one = "a level of one entry is one set of one way";
            gs_figure(p, "sets", 1, "", 0, 1, one);
            gs_figure(p, "ways", 1, "", 0, 1, one);
        } else {
            gs_figure_nd(p, "sets", "", m, "%s", "average-mode walks give the count of entries "
                         "only");
            gs_figure_nd(p, "ways", "", m, "%s", "average-mode walks give the count of entries "
                         "only");
        }
        gs_figure(p, "miss_penalty_cycles", r.penalty_cycles, "cycles", 0, 1,
                  "step of the average latency past the entries, at the largest stride");
        gs_figure(p, "miss_penalty_ns", gs_cycles_to_ns(ctx, r.penalty_cycles), "ns", 0, 1,
                  "step of the average latency past the entries, at the largest stride");
        gs_series(p, "tlb_step_by_stride", "stride", "B", "step over the base walk at 1.5 x entries",
                  "cycles", r.page_stride, r.page_step, r.page_points);
        if (strcmp(refuted, "--structure average") != 0)
            gs_probe_warning(p, "the fine-grained walk was refuted: %s", refuted);
        gs_probe_status(p, "ok", NULL);
    }
    if (!r.l2_entries) {
        record_tlb_refuted(ctx, t, 1, r.entries ? r.why2 : "no first level");
        return;
    }
    gs_probe_out *p = level_record(ctx, t, 1);
    char m[320];
    snprintf(m, sizeof m, "average-mode stride walks over aliased memory, stride %llu B: most "
             "regions visited before a second step (each its own entry if an entry covers no "
             "more than the stride; a set-associative level whose sets the stride does not all "
             "reach shows fewer)", (unsigned long long)r.l2_stride_bytes);
    if (r.page_bytes)
        gs_figure(p, "page_bytes", (double)r.page_bytes, "B", 0, 1, "the first level's page");
    uint64_t e = r.l2_entries, h = r.l2_entries_half, s2 = r.l2_stride_bytes;
    double reach = (double)e * (double)s2, reach_h = (double)h * (double)(s2 / 2);
    bool same_count = h && udiff(h, e) <= e / 20;
    bool same_reach = h && !same_count && fabs(reach - reach_h) <= 0.05 * reach;
    char nd[320];
    if (!h)
        snprintf(nd, sizeof nd, "%s", "average-mode walks at one stride give a count of regions "
                 "only");
    else
        snprintf(nd, sizeof nd, "%llu regions of %llu B and %llu of %llu B before the step: %s",
                 (unsigned long long)e, (unsigned long long)s2, (unsigned long long)h,
                 (unsigned long long)(s2 / 2),
                 same_count ? "the same count at both strides: the entries of a fully "
                              "associative level whose entries cover at most the smaller stride, "
                              "or the ways of a set both strides fall into; the walks cannot "
                              "tell which"
                 : same_reach ? "the same reach at both strides (regions share entries, or "
                                "strides skip sets): entries x coverage only"
                              : "neither the same count nor the same reach");
    if (!h)
        gs_figure(p, "entries", (double)e, "", 0, 1, m);
    else
        gs_figure_nd(p, "entries", "", m, "%s", nd);
    gs_figure_nd(p, "coverage_bytes", "B", m, "%s", nd);
    if (same_reach)
        gs_figure(p, "size_bytes", reach, "B", 0, 2, "regions before the second step x stride, "
                  "equal at two strides: the bytes the level translates (entries x coverage)");
    else
        gs_figure_nd(p, "size_bytes", "B", m, "%s", nd);
    gs_figure_nd(p, "sets", "", m, "%s", nd);
    gs_figure_nd(p, "ways", "", m, "%s", nd);
    if (h) {
        double x[2] = {(double)(s2 / 2), (double)s2}, y[2] = {(double)h, (double)e};
        gs_series(p, "regions_by_stride", "stride", "B", "regions before the second step",
                  "regions", x, y, 2);
    }
    gs_figure(p, "miss_penalty_cycles", r.l2_penalty_cycles, "cycles", 0, 1,
              "second step of the average latency over the base walk");
    gs_figure(p, "miss_penalty_ns", gs_cycles_to_ns(ctx, r.l2_penalty_cycles), "ns", 0, 1,
              "second step of the average latency over the base walk");
    gs_probe_status(p, "ok", NULL);
}

/* ---- one target -------------------------------------------------------------------------------- */

static uint64_t target_bound(const gs_probe_ctx *ctx, const target_def *t)
{
    const gs_device_info *in = ctx->info;
    if (t->tlb)
        return 1ull << 36;                         /* virtual span; physical memory is aliased */
    if (t->space == GS_SPACE_CONSTANT)
        return in->const_mem_bytes ? in->const_mem_bytes : 65536;
    if (t->path == GS_PATH_CG) {                   /* the L2 size hint bounds the search only */
        uint64_t b = in->l2_bytes ? 4 * in->l2_bytes : 1ull << 30;
        return in->global_mem_bytes && b > in->global_mem_bytes / 2 ? in->global_mem_bytes / 2 : b;
    }
    uint64_t sm = in->smem_per_sm_bytes ? in->smem_per_sm_bytes : 262144;
    return 4 * sm > (1u << 20) ? 4 * sm : 1u << 20;
}

static int run_target(gs_probe_ctx *ctx, const target_def *t, gs_error *err)
{
    cw_walker w;
    int rc = cw_walker_init(&w, ctx, t->space, t->path, t->tlb, err);
    if (rc == GS_ERR_UNSUPPORTED) {            /* the backend has no such path: say so, go on */
        record_missing(ctx, t, 0, err->msg);
        gs_error_clear(err);
        return 0;
    }
    if (rc)
        return rc;
    uint64_t bound = target_bound(ctx, t), prev_size = 0, prev_block = 0, prev_span = 0, page = 0;
    /* L1-like data targets: a trace budget that leaves the L1 as it is without one */
    bool l1like = !t->tlb && t->space != GS_SPACE_CONSTANT && t->path != GS_PATH_CG, pinned = true;
    cw_avg_sweep sw0 = {.count = 0};
    char why_pin[640] = "";
    if (l1like)
        rc = pick_trace_smem(ctx, &w, t, bound, &sw0, &pinned, why_pin, sizeof why_pin, err);
    for (unsigned depth = 0; depth < t->max_levels && !rc; depth++) {
        cw_level lv;
        gs_progress(ctx, "cache: %s (%s path), level %u", t->name, gs_path_name(t->path),
                    depth + 1);
        rc = cw_infer_level(&w, depth, prev_size, prev_block, prev_span, bound, &lv, err);
        if (rc == GS_ERR_UNSUPPORTED || rc == GS_ERR_NO_MEMORY) {
            /* a plan this device cannot run: this level is not determined, the others go on */
            record_missing(ctx, t, depth, err->msg);
            gs_error_clear(err);
            rc = 0;
            break;
        }
        if (rc)
            break;
        cw_avg_sweep sw = {.count = 0};
        bool data = !t->tlb && t->space != GS_SPACE_CONSTANT && depth == 0;
        /* the L2 path gets its average sweep even when the fine-grained one found nothing */
        if (!lv.size_bytes && !(data && t->path == GS_PATH_CG)) {
            if (depth == 0)
                record_missing(ctx, t, depth, lv.why_structure);
            break;
        }
        if (data && (rc = cross_check(ctx, &w, t, bound, &lv, &sw, err)) != 0)
            break;
        if (data && !pinned && sw0.count) {
            /* the traces saw another L1: report the L1 as it is without them */
            adopt_average(&lv, &sw0.levels[0], sw0.levels[0].next_cycles, 0, why_pin);
            sw = sw0;
        }
        if (data && l1like && pinned && lv.size_bytes && sw.count && !lv.latency_method) {
            /* the load alone: the average sweep's plateaus (the trace adds its own store) */
            lv.trace_hit_cycles = lv.band.hit_cycles;
            lv.band.hit_cycles = sw.levels[0].hit_cycles;
            lv.band.n = 1;
            lv.miss_cycles = sw.levels[0].next_cycles;
            lv.miss_n = 1;
            lv.latency_method = avg_miss_m;
        }
        cw_avg_fits_result fits = {.n = 0};
        if (data && l1like && pinned && lv.size_bytes && sw.count &&
            strcmp(opt.structure, "average") == 0) {
            lv.line_bytes = 0, lv.nsets = 0, lv.mapping = CW_MAP_NONE;
            lv.policy = GS_POLICY_UNKNOWN;
            snprintf(lv.why_structure, sizeof lv.why_structure, "--structure average");
            snprintf(lv.why_policy, sizeof lv.why_policy, "--structure average");
        }
        if (data && l1like && pinned && lv.size_bytes && !lv.line_bytes && sw.count) {
            gs_progress(ctx, "cache: %s, structure from average-mode stride walks", t->name);
            if ((rc = avg_structure(&w, &lv, &sw, &fits, err)) != 0)
                break;
        }
        if (data && !lv.size_bytes) {
            record_missing(ctx, t, depth, lv.why_structure);
            break;
        }
        bool real = true;
        cw_avg_tlb_result tr;
        if (t->tlb && depth == 0) {
            gs_progress(ctx, "cache: tlb, average-mode stride walks");
            if ((rc = tlb_check(&w, &lv, &tr, &real, err)) != 0)
                break;
        }
        if (t->tlb && depth == 0 && real && strcmp(opt.structure, "average") == 0) {
            record_tlb_average(ctx, t, "--structure average", &tr);
            break;
        }
        if (!real) {
            record_tlb_average(ctx, t, lv.why_structure, &tr);
            break;
        }
        if (t->tlb && depth == 0)
            page = lv.line_bytes;
        lv.page_bytes = page;
        gs_probe_out *p = record_level(ctx, t, depth, &lv);
        if (data && sw.points)
            gs_series(p, "average_sweep", "footprint", "B", "average latency", "cycles", sw.x,
                      sw.y, sw.points);
        if (data && t->path == GS_PATH_CG)
            add_near_figures(ctx, p, &sw);
        if (fits.n) {
            double fx[CW_FIT_STRIDES], fy[CW_FIT_STRIDES];
            for (size_t i = 0; i < fits.n; i++)
                fx[i] = (double)fits.stride_bytes[i], fy[i] = (double)fits.fit[i];
            gs_series(p, "ways_by_stride", "stride", "B", "most blocks a stride walk fits (0: "
                      "more than " GS_STR(CW_FIT_MAX_BLOCKS) ")", "blocks", fx, fy, fits.n);
        }
        if (data && t->path == GS_PATH_CA)
            rc = add_carveout_series(ctx, &w, bound, sw.stride_bytes, p, err);
        gs_probe_status(p, rc ? "failed" : "ok", rc ? err->msg : NULL);
        if (rc)
            break;
        prev_size = lv.size_bytes;
        prev_block = lv.line_bytes;
        /* one set's span under a bit-select mapping; else treat the level as one set */
        prev_span = lv.mapping == CW_MAP_BITS ? lv.sets * lv.line_bytes : lv.line_bytes;
        w.filler_margin = lv.mapping == CW_MAP_BITS ? 1 : 2;
        if (!prev_block)                       /* deeper levels need the block to miss it */
            break;
    }
    cw_walker_free(&w);
    return rc;
}

int gs_probe_cache_run(gs_probe_ctx *ctx, gs_error *err)
{
    opt.target = "all";
    opt.structure = "auto";
    int rc = gs_probe_parse_opts(ctx, gs_probe_cache_opts, gs_probe_cache_opt_count, err);
    if (rc)
        return rc;
    bool all = strcmp(opt.target, "all") == 0;
    for (size_t i = 0; i < sizeof targets / sizeof targets[0] && !rc; i++)
        if (all || strcmp(opt.target, targets[i].name) == 0)
            rc = run_target(ctx, &targets[i], err);
    return rc;
}
