/* One level, fine-grained: the steps of section 3.2 of the memory-hierarchy paper in their order
 * (docs/methods.md, "cache", steps 1-9): the hit band from a trace that fits, the capacity
 * (cache/capacity.c), the overflowing set and its miss latency (cache/sets.c), the fetch
 * granularity (cache/line.c), the set-index bits and a bit-select geometry (cache/mapping.c), or
 * sets from the growth of missing blocks (cache/sets.c), then the replacement policy
 * (cache/policy.c). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "probes/cache/internal.h"

static int learn_band(cw_walker *w, const uint64_t *chain, size_t len, gs_error *err)
{
    size_t got, record = len * 64 > 4096 ? len * 64 : 4096;
    int rc = cw_chase(w, chain, len, 2, record, &got, err);
    if (!rc && gs_hit_band_from_trace(w->lat, got, &w->band))
        rc = gs_fail(err, GS_ERR_PROBE, "cache: the reference trace has only %zu entries", got);
    return rc;
}

static int infer_structure(cw_walker *w, cw_level *lv, unsigned depth, gs_error *err)
{
    uint64_t *group = malloc(w->cap * sizeof *group);
    if (!group)
        return gs_fail(err, GS_ERR_NO_MEMORY, "out of host memory");
    size_t m = 0;
    int rc = cw_overflow_group(w, lv, group, &m, err);
    if (!rc && !w->tlb)
        rc = cw_fetch_granularity(w, lv, err);
    if (!rc && m == 0)
        snprintf(lv->why_structure, sizeof lv->why_structure, "the block added past capacity "
                 "did not miss in the trace (or the set is larger than half the trace buffer); "
                 "a trace that holds two sets' worth of blocks, or eviction sets in average "
                 "mode, would decide it");
    if (!rc && m > 0)
        rc = cw_index_bits(w, lv, group, m, err);
    if (!rc && m > 0 && !lv->why_structure[0])
        rc = cw_try_bit_select(w, lv, group, &m, err);
    if (!rc && m > 0 && !lv->line_bytes && !lv->why_structure[0]) {
        if (lv->nindex == 0)
            snprintf(lv->why_structure, sizeof lv->why_structure, "no address bit moves a block "
                     "out of its set, yet no stride walk fits a bit-select geometry");
        else {
            m = 0;
            rc = cw_overflow_sets(w, lv, group, &m, err);
            if (!rc)
                rc = cw_hashed_masks(w, lv, group, m, err);
        }
    }
    if (!rc && lv->nsets > 0)
        rc = cw_infer_policy(w, lv, group, m, depth, err);
    else if (!rc)
        snprintf(lv->why_policy, sizeof lv->why_policy, "the sets were not determined (the "
                 "policy tests run on one set's blocks: the sets would decide it)");
    free(group);
    return rc;
}

int cw_infer_level(cw_walker *w, unsigned depth, uint64_t prev_size_bytes,
                   uint64_t prev_block_bytes, uint64_t prev_span_bytes, uint64_t bound_bytes,
                   cw_level *lv, gs_error *err)
{
    w->filler_step = w->tlb ? prev_block_bytes : prev_span_bytes;
    w->min_stride = depth ? prev_block_bytes : 0;
    w->bound = bound_bytes;
    w->prev_ways = depth && prev_span_bytes ? prev_size_bytes / prev_span_bytes : 0;
    memset(lv, 0, sizeof *lv);
    lv->tlb = w->tlb;
    lv->miss_cycles = NAN;
    lv->trace_hit_cycles = NAN;
    lv->policy = GS_POLICY_UNKNOWN;
    lv->record_capacity = w->cap;
    lv->trace_smem_bytes = w->smem_bytes;
    lv->trace_carveout = w->carveout;
    lv->avg_sm = -1;
    w->chases = 0;
    w->avg_sm = -1;
    uint64_t ref = depth == 0 ? 32ull * w->elem : 2 * prev_size_bytes;
    uint64_t s = cw_sweep_stride(w, ref);
    cw_stride_chain(w, ref / s, s, w->chain);
    int rc = learn_band(w, w->chain, ref / s, err);
    if (!rc)
        rc = cw_find_capacity(w, ref, 2 * ref, bound_bytes, lv, err);
    lv->band = w->band;
    if (!rc && lv->size_bytes)
        rc = infer_structure(w, lv, depth, err);
    lv->chases = w->chases;
    return rc;
}
