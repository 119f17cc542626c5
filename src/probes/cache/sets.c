/* Sets and ways from blocks added past capacity (memory-hierarchy paper, section 3.2 (2)-(3),
 * Fig. 3 and Fig. 11): at capacity plus one stride the blocks that miss are the one set that
 * overflowed (and their latency is the miss latency); adding blocks one at a time, the missing
 * blocks jump by ways + 1 when a new set overflows, which lists unequal sets (the L2 TLB's
 * 17 + 6 x 8) and tells a modulo mapping from a hashed one. Used where the index is not a bit
 * selection (cache/mapping.c). */
#include <stdio.h>
#include <stdlib.h>

#include "probes/cache/internal.h"

#define CW_OVERFLOW_STEPS 64   /* blocks added past capacity, at most, to list the sets */

/* Footprint one sweep stride past capacity: the missing positions are the blocks of the set that
 * overflowed (Fig. 3); the last element, the block added, is one of them. Fills group/ngroup. */
int cw_overflow_group(cw_walker *w, cw_level *lv, uint64_t *group, size_t *ngroup,
                      gs_error *err)
{
    uint64_t s = cw_sweep_stride(w, lv->size_bytes + cw_sweep_stride(w, lv->size_bytes));
    size_t len = lv->size_bytes / s + 1, got, passes = 0, misses = 0;
    cw_stride_chain(w, len, s, w->chain);
    uint32_t *counts = calloc(len, sizeof *counts), *one = malloc(len * sizeof *one);
    uint32_t *miss_lat = malloc(w->cap * sizeof *miss_lat);
    if (!counts || !one || !miss_lat) {
        free(counts), free(one), free(miss_lat);
        return gs_fail(err, GS_ERR_NO_MEMORY, "out of host memory");
    }
    /* At least 64 steady-state passes, over several chases when one trace holds fewer, so that
     * under a random policy every block of the overflowing set misses more than once. */
    int rc = 0;
    for (unsigned c = 0; c < 64 && passes < 64 && !rc; c++) {
        size_t p = w->cap / len > 64 ? 64 : w->cap / len;
        rc = cw_chase(w, w->chain, len, 2, p * len, &got, err);
        if (rc)
            break;
        passes += p;
        gs_trace_miss_counts(w->lat, got, len, w->band.threshold_cycles, one);
        for (size_t i = 0; i < len; i++)
            counts[i] += one[i];
        for (size_t i = 0; i < got && misses < w->cap; i++)
            if (w->lat[i] > w->band.threshold_cycles)
                miss_lat[misses++] = w->lat[i];
    }
    if (!rc) {
        lv->miss_cycles = gs_trace_miss_latency(miss_lat, misses, 0);
        unsigned min_misses = gs_systematic_misses(passes, w->band.outlier_rate, len);
        size_t m = 0;
        for (size_t i = 0; i < len; i++)
            m += counts[i] >= min_misses;
        lv->miss_n = m;
        *ngroup = 0;
        if (m > 0 && counts[len - 1] >= min_misses && m <= w->cap / 2)
            for (size_t i = 0; i < len; i++)
                if (counts[i] >= min_misses)
                    group[(*ngroup)++] = w->chain[i];
    }
    free(counts), free(one), free(miss_lat);
    return rc;
}

/* Sets and mapping from the overflow steps: the whole list when every set overflowed, else
 * equal sets assumed from the first ones seen. */
static void classify_sets(cw_level *lv, uint64_t line, bool complete, int nsets, bool in_order)
{
    lv->line_bytes = line;
    lv->line_method = "2^(lowest address bit whose change moves a block out of its set)";
    if (nsets <= 0) {
        snprintf(lv->why_structure, sizeof lv->why_structure,
                 "missing blocks past capacity did not grow set by set");
        return;
    }
    if (complete) {
        lv->nsets = (size_t)nsets;
        lv->sets = (unsigned)nsets;
        lv->sets_method = "blocks added past capacity one by one: each set that overflows adds "
                          "its ways + 1 missing blocks (Fig. 11)";
    } else if (gs_ways_equal(lv->ways_per_set, (size_t)nsets) &&
               lv->size_bytes % (line * lv->ways_per_set[0]) == 0) {
        lv->nsets = 1;
        lv->sets = (unsigned)(lv->size_bytes / (line * lv->ways_per_set[0]));
        lv->sets_method = "ways from the first sets that overflowed past capacity; sets = "
                          "capacity / (line x ways), assuming equal sets";
    } else {
        snprintf(lv->why_structure, sizeof lv->why_structure, "%d sets seen with unequal ways in "
                 "%d blocks past capacity; the rest is beyond the trace", nsets,
                 CW_OVERFLOW_STEPS);
        return;
    }
    bool pow2 = (lv->sets & (lv->sets - 1)) == 0;
    lv->mapping = in_order && (!pow2 || !gs_ways_equal(lv->ways_per_set, lv->nsets))
                      ? CW_MAP_MODULO : CW_MAP_HASHED;
}

/* Missing distinct blocks as blocks are added past capacity one at a time (Fig. 11); the first
 * step's missing blocks (one overflowing set) become the group for the policy tests. */
int cw_overflow_sets(cw_walker *w, cw_level *lv, uint64_t *group, size_t *ngroup,
                     gs_error *err)
{
    uint64_t line = 1ull << lv->index_bits[0], s = line;
    while (lv->size_bytes / s + CW_OVERFLOW_STEPS > w->cap / 2)
        s *= 2;
    uint64_t base = lv->size_bytes / s;
    size_t missing[CW_OVERFLOW_STEPS], *pos = malloc((base + CW_OVERFLOW_STEPS) * sizeof *pos);
    if (!pos)
        return gs_fail(err, GS_ERR_NO_MEMORY, "out of host memory");
    int rc = 0, nsets = 0;
    bool in_order = true, complete = false;
    for (size_t k = 1; k <= CW_OVERFLOW_STEPS && !rc && !complete; k++) {
        size_t len = base + k, got, passes = w->cap / len > 16 ? 16 : w->cap / len;
        cw_stride_chain(w, len, s, w->chain);
        rc = cw_chase(w, w->chain, len, 2, passes * len, &got, err);
        if (rc)
            break;
        unsigned min_misses = gs_systematic_misses(passes, w->band.outlier_rate, len);
        missing[k - 1] = gs_trace_missing_positions(w->lat, got, len, w->band.threshold_cycles,
                                                    min_misses, pos);
        for (size_t i = 0; k == 1 && i < missing[0] && i < w->cap / 2; i++)
            group[(*ngroup)++] = w->chain[pos[i]];
        if ((nsets = gs_overflow_sets(missing, k, lv->ways_per_set, CW_MAX_SETS)) < 0)
            break;
        in_order = in_order && (size_t)nsets == k;
        unsigned sum = 0;
        for (int i = 0; i < nsets; i++)
            sum += lv->ways_per_set[i];
        complete = s == line && sum == lv->size_bytes / line;
    }
    free(pos);
    if (!rc)
        classify_sets(lv, line, complete, nsets, in_order);
    /* no sets: leave the line to the average-mode structure (eviction sets work under any index
     * and policy); a TLB keeps it, the region one entry covers */
    if (!rc && !lv->nsets && !w->tlb)
        lv->line_bytes = 0;
    return rc;
}
