/* Probe `cache`: infers each cache and TLB level's structure from fine-grained P-chase traces
 * (Mei et al., "Benchmarking the Memory Hierarchy of Modern GPUs", section 3.2 (1)-(4), Listing 4,
 * Fig. 3, 8, 10, 11, Table 4): capacity from a footprint sweep, fetch granularity from a cold walk,
 * set-index bits from moving one member of a conflicting group, ways and line from a stride walk
 * that stays in one set (bit-select mappings) or from the growth of missing blocks past capacity
 * (any mapping, unequal sets), and the replacement policy from predicted versus observed misses
 * and from victim ways. It only builds chase plans, so it runs unchanged on every backend.
 * Usage: gpusonar run cache --target l1|tex|ro|l2|const|tlb|all */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/cache_infer.h"
#include "probes/cache_walk.h"
#include "probes/probe.h"

static struct {
    const char *target;
} opt;

const gs_opt gs_probe_cache_opts[] = {
    {"target", GS_OPT_CHOICE, &opt.target, "LEVEL",
     "which structure to infer (default all)", "l1|tex|ro|l2|const|tlb|all", 0, 0},
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
    const char *hit_m = "median latency of a trace that fits the level (fine-grained P-chase)";
    const char *miss_m = "median latency of the missing accesses just past capacity, less the hit "
                         "latency";
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

static void record_level(gs_probe_ctx *ctx, const target_def *t, unsigned depth,
                         const cw_level *lv)
{
    gs_probe_out *p = gs_run_add_probe(ctx->run, "cache");
    gs_param_string(p, "level", t->level_names[depth]);
    gs_param_string(p, "target", t->name);
    gs_param_string(p, "space", gs_space_name(t->space));
    gs_param_string(p, "path", gs_path_name(t->path));
    gs_param_int(p, "chases", (long long)lv->chases);
    gs_param_int(p, "record_capacity", (long long)lv->record_capacity);
    gs_figure(p, "size_bytes", (double)lv->size_bytes, "B", 0, 1,
              "largest footprint whose steady-state trace has no repeating miss "
              "(section 3.2 (1))");
    if (lv->tlb && lv->page_bytes)
        gs_figure(p, "page_bytes", (double)lv->page_bytes, "B", 0, 1,
                  "region one entry of the first TLB level covers");
    add_geometry_figures(p, lv);
    add_policy_figures(p, lv);
    add_latency_figures(ctx, p, lv);
    gs_probe_status(p, "ok", NULL);
}

static void record_missing(gs_probe_ctx *ctx, const target_def *t, unsigned depth,
                           const char *why)
{
    gs_probe_out *p = gs_run_add_probe(ctx->run, "cache");
    gs_param_string(p, "level", t->level_names[depth]);
    gs_param_string(p, "target", t->name);
    gs_param_string(p, "path", gs_path_name(t->path));
    gs_figure_nd(p, "size_bytes", "B", "footprint sweep", "%s", why);
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
        if (!lv.size_bytes) {
            if (depth == 0)
                record_missing(ctx, t, depth, lv.why_structure);
            break;
        }
        if (t->tlb && depth == 0)
            page = lv.line_bytes;
        lv.page_bytes = page;
        record_level(ctx, t, depth, &lv);
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
    int rc = gs_probe_parse_opts(ctx, gs_probe_cache_opts, gs_probe_cache_opt_count, err);
    if (rc)
        return rc;
    bool all = strcmp(opt.target, "all") == 0;
    for (size_t i = 0; i < sizeof targets / sizeof targets[0] && !rc; i++)
        if (all || strcmp(opt.target, targets[i].name) == 0)
            rc = run_target(ctx, &targets[i], err);
    return rc;
}
