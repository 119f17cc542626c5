/* Probe `cache`: infers each cache and TLB level's structure from fine-grained P-chase traces
 * (Mei et al., "Benchmarking the Memory Hierarchy of Modern GPUs", section 3.2 (1)-(4), Listing 4,
 * Fig. 3, 8, 10, 11, Table 4): capacity from a footprint sweep, fetch granularity from a cold walk,
 * set-index bits from moving one member of a conflicting group, ways and line from a stride walk
 * that stays in one set (bit-select mappings) or from the growth of missing blocks past capacity
 * (any mapping, unequal sets), and the replacement policy from predicted versus observed misses
 * and from victim ways. Every data-cache and TLB result is cross-checked by average-mode walks
 * (docs/methods.md "Average-mode cross-checks"). On a GPU whose L1 and shared memory are one
 * array (Volta and later) a trace in shared memory takes L1 away: every chase of a study holds
 * one shared-memory budget, the largest whose average-mode L1 size equals the L1's size with no
 * shared memory held, so traces and average walks describe the L1 as the default carve-out
 * leaves it. Where they still disagree the average-mode figures are reported and the rest is
 * "not determined". The l1 record also gets the L1 size per shared-memory carve-out.
 * This file holds the targets, the options and the order in which the methods run for one
 * target; each method is a file of its own (cache/internal.h lists them). It only builds chase
 * plans, so it runs unchanged on every backend.
 * Usage: gpusonar run cache --target l1|tex|ro|l2|const|tlb|all */
#include <stdio.h>
#include <string.h>

#include "probes/cache/cache.h"
#include "probes/cache/internal.h"
#include "util/interrupt.h"
#include "util/profile.h"

#define GS_STR_(x) #x
#define GS_STR(x) GS_STR_(x)

static struct {
    const char *target;
    const char *structure;
    bool counters;
} opt;

const gs_opt gs_probe_cache_opts[] = {
    {"target", GS_OPT_CHOICE, &opt.target, "LEVEL",
     "which structure to infer (default all)", "l1|tex|ro|l2|const|tlb|all", 0, 0},
    {"structure", GS_OPT_CHOICE, &opt.structure, "FROM",
     "L1-like levels' line, sets, ways, mapping: from fine-grained traces, average-mode stride "
     "walks where those fail (auto, the default), or average-mode walks only (average; TLBs "
     "too; with --thorough the L2's sets, ways and mapping from prime+probe eviction sets)",
     "auto|average", 0, 0},
    {"counters", GS_OPT_FLAG, &opt.counters, NULL,
     "with --thorough: the L2's eviction sets, ways, sets and mapping from its lookup counters "
     "(CUPTI; 'gpusonar info' says whether they can be read) instead of timing: each verdict is "
     "one counted launch of about 20 ms, a few minutes in all", NULL, 0, 0},
    GS_OPT_END,
};

static const target_def targets[] = {
    {"tlb", GS_SPACE_GLOBAL, GS_PATH_CG, true, 3, {"l1tlb", "l2tlb", "l3tlb"}},
    {"l1", GS_SPACE_GLOBAL, GS_PATH_CA, false, 1, {"l1"}},
    {"tex", GS_SPACE_TEXTURE, GS_PATH_TEX, false, 1, {"tex"}},
    {"ro", GS_SPACE_GLOBAL, GS_PATH_NC, false, 1, {"ro"}},
    {"l2", GS_SPACE_GLOBAL, GS_PATH_CG, false, 1, {"l2"}},
    {"const", GS_SPACE_CONSTANT, GS_PATH_CONST, false, 3, {"const1", "const2", "const3"}},
};

/* ---- one target ------------------------------------------------------------------------------ */

static uint64_t target_bound(const gs_probe_ctx *ctx, const target_def *t)
{
    const gs_device_info *in = ctx->info;
    if (t->tlb)
        return 1ull << 35;                         /* virtual span; physical memory is aliased */
    if (t->space == GS_SPACE_CONSTANT)
        return in->const_mem_bytes ? in->const_mem_bytes : 65536;
    if (t->path == GS_PATH_CG) {                   /* the L2 size hint bounds the search only */
        uint64_t b = in->l2_bytes ? 4 * in->l2_bytes : 1ull << 30;
        return in->global_mem_bytes && b > in->global_mem_bytes / 2 ? in->global_mem_bytes / 2 : b;
    }
    uint64_t sm = in->smem_per_sm_bytes ? in->smem_per_sm_bytes : 262144;
    return 4 * sm > (1u << 20) ? 4 * sm : 1u << 20;
}

/* A level whose study failed stays in the document: its record, the figures the study had
 * inferred before it failed (lv, when the level's first step finished), status "failed" and the
 * message. */
static void record_failed_level(gs_probe_ctx *ctx, const target_def *t, unsigned depth,
                                const cw_level *lv, const gs_error *err)
{
    gs_probe_out *p = lv ? cw_record_level(ctx, t, depth, lv) : cw_level_record(ctx, t, depth);
    if (!lv)
        gs_figure_nd(p, cw_size_name(t), "B", "footprint sweep", "the study failed: %s",
                     err->msg);
    gs_probe_status(p, "failed", err->msg);
}

static int run_target(gs_probe_ctx *ctx, const target_def *t, gs_error *err)
{
    cw_walker w;
    int rc = cw_walker_init(&w, ctx, t->space, t->path, t->tlb, err);
    if (rc == GS_ERR_UNSUPPORTED) {            /* the backend has no such path: say so, go on */
        cw_record_missing(ctx, t, 0, err->msg);
        gs_error_clear(err);
        return 0;
    }
    if (rc) {
        if (rc != GS_ERR_INTERRUPTED && rc != GS_ERR_DRY_RUN)
            record_failed_level(ctx, t, 0, NULL, err);
        return rc;
    }
    uint64_t bound = target_bound(ctx, t), prev_size = 0, prev_block = 0, prev_span = 0, page = 0;
    /* L1-like data targets: a trace budget that leaves the L1 as it is without one */
    bool l1like = !t->tlb && t->space != GS_SPACE_CONSTANT && t->path != GS_PATH_CG, pinned = true;
    cw_avg_sweep sw0 = {.count = 0};
    char why_pin[640] = "";
    cw_avg_tlb_result tr;                      /* the TLB's average-mode walks (level 1) */
    if (l1like)
        rc = cw_pick_trace_smem(ctx, &w, t, bound, &sw0, &pinned, why_pin, sizeof why_pin, err);
    unsigned depth = 0;
    bool have_lv = false, recorded = false;
    cw_level lv;
    for (; depth < t->max_levels && !rc; depth++) {
        have_lv = recorded = false;
        gs_progress(ctx, "cache: %s (%s path), level %u", t->name, gs_path_name(t->path),
                    depth + 1);
        char stage[64];
        snprintf(stage, sizeof stage, "cache:%s:%u", t->name, depth + 1);
        gs_profile_stage(stage);
        rc = cw_infer_level(&w, depth, prev_size, prev_block, prev_span, bound, &lv, err);
        have_lv = rc == 0;
        if (rc == GS_ERR_UNSUPPORTED || rc == GS_ERR_NO_MEMORY) {
            /* a plan this device cannot run: this level is not determined, the others go on */
            cw_record_missing(ctx, t, depth, err->msg);
            gs_error_clear(err);
            rc = 0;
            break;
        }
        if (rc)
            break;
        cw_avg_sweep sw = {.count = 0};
        bool data = !t->tlb && t->space != GS_SPACE_CONSTANT && depth == 0;
        /* the L2 path gets its average sweep even when the fine-grained one found nothing, and
         * so does an L1 that the sweep without shared memory saw (sw0) while its traces saw no
         * miss at all: jitter wider than the gap to the next level hides a trace's misses, not
         * an average's (tests/models/write_noisy.json: 600 cycles, half the seeds) */
        /* a first TLB level the fine-grained walk did not see still gets its stride walks: a
         * miss penalty inside the trace's jitter is invisible to it (cw_tlb_check) */
        if (!lv.size_bytes && !(data && (t->path == GS_PATH_CG || (l1like && sw0.count))) &&
            !(t->tlb && depth == 0)) {
            if (depth == 0)
                cw_record_missing(ctx, t, depth, lv.why_structure);
            else if (t->tlb && depth == 1)   /* the average-mode second level stands alone */
                cw_record_tlb_second(ctx, t, &tr.l2, NULL, true);
            break;
        }
        if (data && (rc = cw_cross_check(ctx, &w, t, bound, &lv, &sw, err)) != 0)
            break;
        if (data && !pinned && sw0.count) {
            /* the traces saw another L1: report the L1 as it is without them */
            cw_adopt_average(&lv, &sw0.levels[0], sw0.levels[0].next_cycles, 0, why_pin);
            sw = sw0;
        }
        if (data && l1like && pinned && lv.size_bytes && sw.count && !lv.latency_method) {
            /* the load alone: the average sweep's plateaus (the trace adds its own store) */
            lv.trace_hit_cycles = lv.band.hit_cycles;
            lv.band.hit_cycles = sw.levels[0].hit_cycles;
            lv.band.n = 1;
            lv.miss_cycles = sw.levels[0].next_cycles;
            lv.miss_n = 1;
            lv.latency_method = cw_avg_miss_m;
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
            if ((rc = cw_avg_structure(&w, &lv, &sw, &fits, err)) != 0)
                break;
        }
        if (data && !lv.size_bytes) {
            cw_record_missing(ctx, t, depth, lv.why_structure);
            break;
        }
        /* the L2's end from above: a gradual end makes the size an interval */
        if (data && t->path == GS_PATH_CG && lv.size_bytes && lv.size_method && sw.points) {
            gs_progress(ctx, "cache: l2, where every access misses");
            if ((rc = cw_l2_full_miss(&w, &lv, &sw, ctx->info ? ctx->info->l2_bytes : 0,
                                      err)) != 0)
                break;
        }
        /* --thorough only: about 10 s of L2-sized walks on the H100, where the near partition's
         * copies made it reject its own edge in every run (docs/methods.md, "L2 size"); its
         * premise (each line past the capacity overflows one set) fails on a gradual end */
        if (data && t->path == GS_PATH_CG && lv.size_bytes && lv.size_method && ctx->thorough &&
            !lv.size_nd_why[0]) {
            gs_progress(ctx, "cache: l2, size from the miss excess");
            if ((rc = cw_l2_size(&w, &lv, &sw, err)) != 0)
                break;
        }
        /* --thorough only: sets and ways of the L2 from eviction sets in average mode, where
         * the traces did not give them (the card), or instead of them with --structure average */
        if (data && t->path == GS_PATH_CG && lv.size_bytes && ctx->thorough &&
            (!lv.nsets || strcmp(opt.structure, "average") == 0)) {
            if (lv.nsets) {
                lv.sets = 0, lv.nsets = 0, lv.mapping = CW_MAP_NONE;
                lv.policy = GS_POLICY_UNKNOWN;
                snprintf(lv.why_structure, sizeof lv.why_structure, "--structure average");
                snprintf(lv.why_policy, sizeof lv.why_policy, "--structure average");
            }
            gs_progress(ctx, "cache: l2, sets and ways from eviction sets");
            gs_profile_stage("cache:l2:eviction-sets");
            if ((rc = cw_l2_structure(&w, &lv, &sw, opt.counters, err)) != 0)
                break;
        }
        bool real = true;
        if (t->tlb && depth == 0) {
            gs_progress(ctx, "cache: tlb, average-mode stride walks");
            if ((rc = cw_tlb_check(&w, &lv, &tr, &real, err)) != 0)
                break;
        }
        if (t->tlb && depth == 0 && real && strcmp(opt.structure, "average") == 0) {
            cw_record_tlb_average(ctx, t, "--structure average", &tr);
            break;
        }
        if (!real) {
            cw_record_tlb_average(ctx, t, lv.why_structure, &tr);
            break;
        }
        if (t->tlb && depth == 1 && (cw_tlb_check_second(&lv, &tr.l2, &real), !real)) {
            cw_record_tlb_second(ctx, t, &tr.l2, lv.why_structure, true);
            break;
        }
        if (t->tlb && depth == 0)
            page = lv.line_bytes;
        lv.page_bytes = page;
        lv.avg_sm = w.avg_sm;
        gs_probe_out *p = cw_record_level(ctx, t, depth, &lv);
        recorded = true;
        if (data && sw.points)
            gs_series(p, "average_sweep", "footprint", "B", "average latency", "cycles", sw.x,
                      sw.y, sw.points);
        if (data && t->path == GS_PATH_CG)
            cw_add_near_figures(ctx, p, &sw);
        if (lv.evict_curve_n)
            gs_series(p, "evicted_share_by_pool", "pool", "B", "share of the targets evicted",
                      "", lv.evict_curve_x, lv.evict_curve_y, lv.evict_curve_n);
        cw_add_l2_size_figures(p, &lv);
        if (fits.n) {
            double fx[CW_FIT_STRIDES], fy[CW_FIT_STRIDES];
            for (size_t i = 0; i < fits.n; i++)
                fx[i] = (double)fits.stride_bytes[i], fy[i] = (double)fits.fit[i];
            gs_series(p, "ways_by_stride", "stride", "B", "most blocks a stride walk fits (0: "
                      "more than " GS_STR(CW_FIT_MAX_BLOCKS) ")", "blocks", fx, fy, fits.n);
        }
        if (data && t->path == GS_PATH_CA)
            rc = cw_add_carveout_series(ctx, &w, bound, sw.stride_bytes, p, err);
        if (!rc && data && t->path == GS_PATH_CG && sw.points)
            rc = cw_l2_sm_latency(ctx, &w, p, &sw, err);
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
    if (rc && rc != GS_ERR_INTERRUPTED && rc != GS_ERR_DRY_RUN && !recorded) /* it stays, failed */
        record_failed_level(ctx, t, depth, have_lv ? &lv : NULL, err);
    cw_walker_free(&w);
    return rc;
}

static int gs_probe_cache_run(gs_probe_ctx *ctx, gs_error *err)
{
    opt.target = "all";
    opt.structure = "auto";
    opt.counters = false;
    int rc = gs_probe_parse_opts(ctx, gs_probe_cache_opts, err);
    if (rc)
        return rc;
    bool all = strcmp(opt.target, "all") == 0;
    /* A target that fails is recorded as failed and the others still run; the probe then
     * returns the first failure. */
    gs_error first;
    gs_error_clear(&first);
    for (size_t i = 0; i < sizeof targets / sizeof targets[0]; i++) {
        if (!all && strcmp(opt.target, targets[i].name) != 0)
            continue;
        rc = run_target(ctx, &targets[i], err);
        if (rc == GS_ERR_INTERRUPTED || rc == GS_ERR_DRY_RUN)
            return rc;
        if (rc && first.status == GS_OK)
            first = *err;
        gs_error_clear(err);
        if (gs_interrupted())
            break;
    }
    if (first.status != GS_OK)
        *err = first;
    return (int)first.status;
}

/* The probe's descriptor (probe.h). */
static const char *const headline[] = {"size_bytes", "line_bytes", "sector_bytes", "fetch_bytes", "sets", "ways", "entries", "coverage_bytes", "mapping", "policy", "hit_latency_cycles", "miss_penalty_cycles", "near_size_bytes", NULL};
const gs_probe_def gs_probe_cache_def = {
    .name = "cache",
    .run = gs_probe_cache_run,
    .flags = GS_PROBE_DEFAULT,
    .summary = "cache and TLB structure: size, line, fetch, sector, sets, ways, mapping, policy, "
               "latencies",
    .opts = gs_probe_cache_opts,
    .expected_s = 8,
    .expected_sim_s = 200,
    .keep_rank = 2,
    .hints = {.headline = headline},
};
