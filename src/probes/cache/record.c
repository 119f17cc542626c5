/* The `cache` probe's result records: one record per level with its parameters and figures
 * (size, line or coverage, fetch and sector, sets, ways or ways per set, mapping, policy with way
 * probabilities, hit latency and miss penalty; Table 4 of the memory-hierarchy paper), each
 * figure with the method that made it, or "not determined" with why. */
#include <math.h>

#include "probes/cache/internal.h"

#define SECTOR_UNIT_BYTES 32  /* the smallest unit NVIDIA's memory system moves (a request's
                                 sector; no NVIDIA cache tracks less) */

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
        gs_figure(p, "miss_penalty_cycles", pen, "cycles", lv->miss_ci95, lv->miss_n, miss_m);
        gs_figure(p, "miss_penalty_ns", gs_cycles_to_ns(ctx, pen), "ns",
                  gs_cycles_to_ns(ctx, lv->miss_ci95), lv->miss_n, miss_m);
    } else {
        gs_figure_nd(p, "miss_penalty_cycles", "cycles", miss_m, "%s", "no miss was observed");
        gs_figure_nd(p, "miss_penalty_ns", "ns", miss_m, "%s", "no miss was observed");
    }
}

/* fetch_bytes, what a miss brings in, for every data level the cold walk saw miss; sector_bytes,
 * the unit a line's valid bits track, only where the fetch decides it (gs_sector_from_fetch): a
 * miss every 64 B may be one 64-B sector or two 32-B sectors filled together, and a load walk
 * sees the same misses either way. */
static void add_fetch_figures(gs_probe_out *p, const cw_level *lv, const char *fetch_method,
                              const char *why_no_miss)
{
    static const char sector_m[] = "the fetch, where it is the 32-B unit the memory system moves "
                                   "(a miss fills whole sectors, so sector <= fetch)";
    unsigned long long fetch = lv->fetch_bytes;
    if (!fetch) {
        gs_figure_nd(p, "fetch_bytes", "B", fetch_method, "%s", why_no_miss);
        gs_figure_nd(p, "sector_bytes", "B", sector_m, "%s", why_no_miss);
        return;
    }
    gs_figure(p, "fetch_bytes", (double)fetch, "B", 0, 1, fetch_method);
    uint64_t sector = gs_sector_from_fetch(fetch, SECTOR_UNIT_BYTES);
    if (sector)
        gs_figure(p, "sector_bytes", (double)sector, "B", 0, 1, sector_m);
    else if (fetch > SECTOR_UNIT_BYTES)
        gs_figure_nd(p, "sector_bytes", "B", sector_m, "a miss fetches %llu B; the valid-bit unit "
                     "may be smaller and this walk cannot separate them (where the level "
                     "takes writes, a store of one %d-B unit to a line it does not hold, then a "
                     "load of the next unit of the same fetch, would: a miss there says the "
                     "valid bit covers %d B)", fetch, SECTOR_UNIT_BYTES, SECTOR_UNIT_BYTES);
    else
        gs_figure_nd(p, "sector_bytes", "B", sector_m, "a miss fetches %llu B, less than the "
                     "%d-B unit the memory system moves: the valid-bit unit may be smaller still "
                     "(loads of every byte offset of one fetch after a miss would decide it)",
                     fetch, SECTOR_UNIT_BYTES);
}

static void add_geometry_figures(gs_probe_out *p, const cw_level *lv)
{
    const char *blk = lv->tlb ? "coverage_bytes" : "line_bytes";
    if (!lv->line_bytes) {
        if (!lv->tlb)
            add_fetch_figures(p, lv, "bytes a miss brings in from the level below: from cold "
                              "stride walks, the distance between misses (fine-grained) or the "
                              "smallest stride from which every access misses (average mode)",
                              lv->why_structure);
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
    if (!lv->tlb)
        add_fetch_figures(p, lv, "bytes a miss brings in from the level below: the distance "
                          "between misses in a cold stride walk", "the cold walk showed no miss "
                          "(the level was already warm, as an L2 is after the host copies the "
                          "chain)");
    if (lv->nsets == 0) {
        gs_figure_nd(p, "sets", "", lv->sets_method, "%s", lv->why_structure);
        gs_figure_nd(p, "ways", "", lv->sets_method, "%s", lv->why_structure);
    } else {
        if (lv->sets)
            gs_figure(p, "sets", (double)lv->sets, "", lv->sets_ci95, 1, lv->sets_method);
        else                  /* ways known, sets not (the L2's capacity does not factor) */
            gs_figure_nd(p, "sets", "", lv->sets_method, "%s", lv->why_structure);
        if (gs_ways_equal(lv->ways_per_set, lv->nsets)) {
            gs_figure(p, "ways", (double)lv->ways_per_set[0], "", 0, 1, lv->sets_method);
        } else {
            double w[CW_MAX_SETS];
            for (size_t i = 0; i < lv->nsets; i++)
                w[i] = lv->ways_per_set[i];
            gs_figure_list(p, "ways_per_set", w, lv->nsets, "", 1, lv->sets_method);
        }
    }
    if (lv->tag_bytes)
        gs_figure(p, "tag_bytes", (double)lv->tag_bytes, "B", 0, 1, lv->tags_note);
    if (lv->mapping == CW_MAP_BITS) {
        double bits[64];
        for (size_t i = 0; i < lv->nindex; i++)
            bits[i] = lv->index_bits[i];
        gs_figure_list(p, "mapping", bits, lv->nindex, "bit", 1,
                       lv->mapping_method ? lv->mapping_method
                                          : "address bits whose change moves a block out of its set");
    } else if (lv->mapping == CW_MAP_MODULO) {
        gs_figure_text(p, "mapping", "modulo", 1,
                       lv->mapping_method ? lv->mapping_method
                                          : "every block added past capacity opened a new set, "
                                            "in order");
    } else if (lv->mapping == CW_MAP_XOR) {
        double masks[64];
        for (size_t i = 0; i < lv->nxor; i++)
            masks[i] = (double)lv->xor_masks[i];
        gs_figure_text(p, "mapping", "xor", 1, lv->mapping_method);
        gs_figure_list(p, "set_index_xor_masks", masks, lv->nxor, "", 1, lv->mapping_method);
    } else if (lv->mapping == CW_MAP_HASHED) {
        gs_figure_text(p, "mapping", "hashed", 1,
                       lv->mapping_method ? lv->mapping_method
                                          : "set-index bits are not a plain bit selection");
    } else {
        gs_figure_nd(p, "mapping", "", "set-index bit tests", "%s", lv->why_structure);
    }
}

/* The policy tests' traces, the evidence a reader (or a new candidate policy) checks against:
 * per access, the block of the set it touched (0 .. ways) and its latency. */
static void add_policy_traces(gs_probe_out *p, const cw_level *lv)
{
    static const char *const names[3][2] = {{"policy_sequence_blocks", "policy_sequence_cycles"},
                                            {"policy_cyclic_blocks", "policy_cyclic_cycles"},
                                            {"policy_round_blocks", "policy_round_cycles"}};
    double x[CW_POLICY_TRACE], b[CW_POLICY_TRACE], c[CW_POLICY_TRACE];
    for (int t = 0; t < 3; t++) {
        size_t n = lv->policy_trace[t].n;
        for (size_t i = 0; i < n; i++) {
            x[i] = (double)i;
            b[i] = lv->policy_trace[t].block[i];
            c[i] = lv->policy_trace[t].cycles[i];
        }
        if (n) {
            gs_series(p, names[t][0], "access", "", "block of the set", "", x, b, n);
            gs_series(p, names[t][1], "access", "", "latency", "cycles", x, c, n);
        }
    }
}

static void add_policy_figures(gs_probe_out *p, const cw_level *lv)
{
    add_policy_traces(p, lv);
    if (lv->policy == GS_POLICY_UNKNOWN) {
        gs_figure_nd(p, "policy", "", "replacement tests", "%s", lv->why_policy);
        return;
    }
    gs_figure_text(p, "policy", gs_policy_name(lv->policy), lv->policy_n, lv->policy_method);
    if (lv->policy == GS_POLICY_WEIGHTED || lv->policy == GS_POLICY_RANDOM)
        gs_figure_list(p, "way_probabilities", lv->way_probabilities, lv->nprob, "",
                       lv->policy_n, "victim way shares; ways named in the order the empty set "
                       "filled them");
    /* slru: most protected lines; hslru: the last hits whose lines are protected */
    if (gs_policy_segmented(lv->policy) && lv->policy_protect)
        gs_figure(p, "protected_ways", lv->policy_protect, "", 0, lv->policy_n,
                  lv->protect_method);
    else if (gs_policy_segmented(lv->policy))
        gs_figure_nd(p, "protected_ways", "", "replacement tests", "%s", lv->why_protect);
}

/* A result record for level depth of target t, with the parameters every level carries. */
gs_probe_out *cw_level_record(gs_probe_ctx *ctx, const target_def *t, unsigned depth)
{
    gs_probe_out *p = gs_run_add_probe(ctx->run, "cache");
    gs_param_string(p, "level", t->level_names[depth]);
    gs_param_string(p, "target", t->name);
    gs_param_string(p, "path", gs_path_name(t->path));
    return p;
}

const char *cw_size_name(const target_def *t)
{
    return t->path == GS_PATH_CG && !t->tlb ? "usable_size_bytes" : "size_bytes";
}

void cw_add_nominal_size(gs_probe_ctx *ctx, gs_probe_out *p)
{
    static const char m[] = "driver: the L2 size in the backend's device information "
                            "(cudaDevAttrL2CacheSize; a model's device.l2_bytes), the nominal "
                            "capacity, beside the usable one a random walk keeps";
    uint64_t l2 = ctx->info ? ctx->info->l2_bytes : 0;
    if (l2)
        gs_figure(p, "nominal_size_bytes", (double)l2, "B", 0, 1, m);
    else
        gs_figure_nd(p, "nominal_size_bytes", "B", m, "the backend reports no L2 size");
}

gs_probe_out *cw_record_level(gs_probe_ctx *ctx, const target_def *t, unsigned depth,
                              const cw_level *lv)
{
    gs_probe_out *p = cw_level_record(ctx, t, depth);
    gs_param_string(p, "space", gs_space_name(t->space));
    gs_param_int(p, "chases", (long long)lv->chases);
    gs_param_int(p, "record_capacity", (long long)lv->record_capacity);
    gs_param_int(p, "trace_smem_bytes", (long long)lv->trace_smem_bytes);
    gs_param_int(p, "trace_carveout_percent", (long long)lv->trace_carveout);
    if (lv->avg_sm != -1)           /* -2: the average walks ran on more than one SM */
        gs_param_int(p, "average_walks_sm", lv->avg_sm);
    const char *size_m = lv->size_method ? lv->size_method
                                         : "largest footprint whose steady-state trace has no "
                                           "repeating miss (section 3.2 (1))";
    const char *size_name = cw_size_name(t);
    char usable_m[1024];
    if (t->path == GS_PATH_CG && !t->tlb) {
        snprintf(usable_m, sizeof usable_m, "usable capacity, what a random walk keeps (hashed "
                 "sets filling unevenly, copies of far lines in the near part and the policy "
                 "leave it under the nominal capacity, nominal_size_bytes): %s", size_m);
        size_m = usable_m;
    }
    if (lv->size_nd_why[0])
        gs_figure_nd(p, size_name, "B", size_m, "%s", lv->size_nd_why);
    else
        gs_figure(p, size_name, (double)lv->size_bytes, "B", lv->size_ci95_bytes, 1, size_m);
    if (t->path == GS_PATH_CG && !t->tlb)
        cw_add_nominal_size(ctx, p);
    if (lv->tlb && lv->page_bytes)
        cw_page_nd(p, lv->page_bytes);
    add_geometry_figures(p, lv);
    add_policy_figures(p, lv);
    add_latency_figures(ctx, p, lv);
    return p;
}

void cw_record_missing(gs_probe_ctx *ctx, const target_def *t, unsigned depth,
                       const char *why)
{
    gs_probe_out *p = cw_level_record(ctx, t, depth);
    gs_figure_nd(p, cw_size_name(t), "B", "footprint sweep", "%s", why);
    if (t->path == GS_PATH_CG && !t->tlb)
        cw_add_nominal_size(ctx, p);
    gs_probe_status(p, "ok", NULL);
}

/* The page stays not determined: stride walks see the region one entry covers. */
void cw_page_nd(gs_probe_out *p, uint64_t region_bytes)
{
    gs_figure_nd(p, "page_bytes", "B", "stride walks over aliased memory", "stride walks see the "
                 "region one entry of the first level covers (%llu B, coverage_bytes); a smaller "
                 "page, an entry holding the translations of several pages, reads the same (the "
                 "same walks over a region whose pages are mapped to scattered physical pages "
                 "would decide it: an entry that holds contiguous pages then covers one)",
                 (unsigned long long)region_bytes);
}
