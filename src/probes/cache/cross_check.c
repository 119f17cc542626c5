/* Average-mode cross-checks (docs/methods.md, "Average-mode cross-checks"): every fine-grained
 * data-cache level is checked against an average-mode footprint sweep (the average P-chase of
 * Listing 2 in the memory-hierarchy paper, section 3.2). A trace kept in shared memory shrinks a
 * unified L1 and an L2 is larger than any trace; where the two sizes disagree the average-mode
 * figures are kept and the structure is "not determined". On the L2 path it also gives the
 * sector, the line and the near and far parts one SM sees. */
#include <stdio.h>

#include "probes/cache/internal.h"

static const char avg_size_m[] = "end of the level's latency plateau in an average-mode footprint "
                                 "sweep (random cyclic walk, no trace in shared memory; footprints "
                                 "at ratio sqrt 2, the plateau's end bisected to one stride within "
                                 "the plateau's noise, else to a 64th with ci95 half the bracket)";

const char cw_avg_miss_m[] = "latency of the plateau behind the level less the level's "
                             "plateau latency (average-mode footprint sweep)";

/* The structure found under the trace does not describe the level: keep only what the average
 * sweep measured (size, latencies, and the cold-walk miss granularity in fetch). */
void cw_adopt_average(cw_level *lv, const cw_avg_level *a, double beyond_cycles,
                      uint64_t fetch_bytes, const char *why)
{
    lv->size_bytes = a->size_bytes;
    lv->size_ci95_bytes = a->ci95_bytes;
    lv->size_method = avg_size_m;
    lv->latency_method = cw_avg_miss_m;
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

/* The average sweep's first element spacing: the line the fine-grained walk found; else 128 B
 * (a longer line reads the same bytes; cw_avg_levels halves a stride longer than the line). */
static uint64_t avg_stride(const cw_level *lv)
{
    return lv->line_bytes && !lv->tlb ? lv->line_bytes : 128;
}

int cw_cross_check(gs_probe_ctx *ctx, cw_walker *w, const target_def *t, uint64_t bound,
                   cw_level *lv, cw_avg_sweep *sw, gs_error *err)
{
    gs_progress(ctx, "cache: %s, average-mode footprint sweep", t->name);
    /* on the L2 path start where a footprint holds enough lines to mix near and far ones; the
     * first level's end (the near part's, or the L2's where it has one part) moves with the
     * walk's lines (an H100: 22.5-26.2 MB over six runs, 0.4-1.3 MB apart between two runs of
     * one seed, against brackets of 0.3-1.3 MB; found twice, two runs still lay 1.6 MB apart
     * against 1.4 MB of intervals): found three times under one margin from the walks' noise,
     * the interval is Student's over them. The sweep leaves it unbisected: the three bisections
     * decide it, and a fourth (0.7 s on an H100) would add nothing. */
    bool repeat = t->path == GS_PATH_CG;
    int rc = cw_avg_levels(w, repeat ? 65536 : 1024, bound, avg_stride(lv), -1, repeat ? 0 : -1,
                           sw, err);
    if (!rc && repeat && sw->count > 0)
        rc = cw_avg_repeat_end(w, sw, 0, -1, err);
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
                 "in one (%.200s): sets, ways, mapping and policy are not from traces (sets "
                 "and ways: eviction sets in average mode, --thorough; the policy: the policy "
                 "tests on one eviction set's lines, each access timed against its own hit and "
                 "miss, would decide it)",
                 (unsigned long long)a->size_bytes, lv->record_capacity, fine);
    else
        snprintf(why, sizeof why, "%.400s, average-mode walks %llu B: the trace changed the level "
                 "or its traces were misread, so no structure from them describes it", fine,
                 (unsigned long long)a->size_bytes);
    cw_adopt_average(lv, a, beyond, fetch, why);
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
        /* the far plateau is short and sloped on an H100 (508-529 cycles over two points), and
         * two runs' penalties lay 2 cycles apart with no interval: the two plateaus' half
         * ranges together bound where the difference lies */
        lv->miss_ci95 = a->hit_halfrange + sw->beyond_halfrange;
        lv->latency_method = "latency of the plateau behind the whole L2 less the plateau of its "
                             "far part (average-mode footprint sweep; interval: the two "
                             "plateaus' half ranges together)";
    }
    return rc;
}

/* The L2 as one SM sees it: with two cache plateaus on the cg path the first is the near part. */
void cw_add_near_figures(gs_probe_ctx *ctx, gs_probe_out *p, const cw_avg_sweep *sw)
{
    const char *m = sw->count > 1 && sw->levels[0].repeated
                        ? "first of two L2 plateaus in an average-mode footprint sweep from one SM "
                          "(lines this SM reaches at the near latency); its end bisected three "
                          "times over new random walks, each within the walks' own noise "
                          "(three walks inside the plateau; at least 1 %): their mean and its "
                          "ci95"
                        : "first of two L2 plateaus in an average-mode footprint sweep from one SM "
                          "(lines this SM reaches at the near latency)";
    if (sw->count < 2) {
        gs_figure_nd(p, "near_size_bytes", "B", m, "%s", sw->count ? "one L2 plateau: every "
                     "footprint that fits hits at one latency" : sw->why);
        return;
    }
    gs_figure(p, "near_size_bytes", (double)sw->levels[0].size_bytes, "B",
              sw->levels[0].ci95_bytes, 1, m);
    gs_figure(p, "near_hit_latency_cycles", sw->levels[0].hit_cycles, "cycles", 0, 1, m);
    gs_figure(p, "near_hit_latency_ns", gs_cycles_to_ns(ctx, sw->levels[0].hit_cycles), "ns", 0,
              1, m);
    gs_figure(p, "far_hit_latency_cycles", sw->levels[sw->count - 1].hit_cycles, "cycles",
              sw->levels[sw->count - 1].hit_halfrange, 1, "plateau of the whole L2 past the near "
              "part (average-mode footprint sweep; interval: half its points' range)");
}
