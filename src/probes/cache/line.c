/* Line and sector (memory-hierarchy paper, section 3.2 (2)): the fetch granularity, from the
 * distance between misses of a cold fine-grained stride walk, or (average mode) from cold stride
 * walks whose average stops growing with the stride; the L2 line in average mode, from the
 * stride at which 1.5 x capacity / stride elements start to fit. (The fine-grained line comes
 * with the set geometry: cache/mapping.c, cache/sets.c.) */
#include <stdlib.h>

#include "analysis/chain.h"
#include "probes/cache/internal.h"

int cw_fetch_granularity(cw_walker *w, cw_level *lv, gs_error *err)
{
    size_t n = w->cap < 512 ? w->cap : 512, got;
    cw_stride_chain(w, n, w->elem, w->chain);
    int rc = cw_chase(w, w->chain, n, 0, n, &got, err);
    if (!rc)
        lv->fetch_bytes = gs_fetch_granularity(w->lat, got, w->elem, w->band.threshold_cycles);
    return rc;
}

/* Cold sequential walks (warmup 0: the backend evicts the chain from the L2 first) of 2048
 * accesses at strides elem .. 4 KB. Each average must sit within 5 % of the flat ones past the
 * fetch: with 512 accesses a model whose loads each take 0 to 600 cycles more (write_noisy) put
 * one of them 4 % off (772.6 against 742-761 cycles), and past 5 % in one run in twenty, which
 * doubled the fetch; 2048 halve that scatter. */
int cw_avg_fetch(cw_walker *w, uint64_t *fetch_bytes, gs_error *err)
{
    enum { COUNT = 2048, MAXS = 12 };
    uint64_t stride[MAXS], *chain = malloc(COUNT * sizeof *chain);
    double avg[MAXS];
    size_t n = 0;
    int rc = chain ? 0 : gs_fail(err, GS_ERR_NO_MEMORY, "out of host memory");
    for (uint64_t s = AVG_ELEM; s <= 4096 && n < MAXS && !rc; s *= 2, n++) {
        gs_chain_stride(COUNT, s, chain);
        stride[n] = s;
        rc = cw_avg_chase(w, chain, COUNT, COUNT * s, 0, COUNT, -1, &avg[n], err);
    }
    *fetch_bytes = rc ? 0 : gs_fetch_from_strides(stride, avg, n, 0.05);
    free(chain);
    return rc;
}

/* ---- L2 line from the element count that overflows (average mode) ---------------------------- */

/* Walks of n = 1.5 C / s elements, one per s-byte slot at a random 8-byte place in it (random
 * order): below the line several elements share lines and the walk occupies n s = 1.5 C (misses);
 * from the line up every element holds a line of its own, n x line = 1.5 C x line / s, which
 * fits from s = 2 x line on. The line is half the smallest stride whose walk fits (average below
 * the midpoint of hit and next latency), when the stride before it did not. */
int cw_avg_line(cw_walker *w, uint64_t capacity_bytes, double hit_cycles, double next_cycles,
                uint64_t min_stride, uint64_t *line_bytes, gs_error *err)
{
    *line_bytes = 0;
    int rc = 0;
    bool missed_before = false;
    double mid = (hit_cycles + next_cycles) / 2;
    for (uint64_t s = min_stride > 2 * AVG_ELEM ? min_stride : 2 * AVG_ELEM; s <= 4096 && !rc;
         s *= 2) {
        uint64_t n = capacity_bytes / 2 * 3 / s;
        if (n < 16 || n > 4 * AVG_MAX_ELEMS)
            continue;
        uint64_t *chain = malloc(n * sizeof *chain);
        if (!chain)
            return gs_fail(err, GS_ERR_NO_MEMORY, "out of host memory");
        gs_chain_sattolo(&w->rng, n, s, chain);
        for (uint64_t i = 0; i < n; i++)
            chain[i] += AVG_ELEM * gs_rng_below(&w->rng, s / AVG_ELEM);
        double a;
        rc = cw_avg_chase(w, chain, n, n * s, 1, AVG_TIMED, -1, &a, err);
        free(chain);
        if (rc)
            break;
        bool fits = a < mid;
        if (fits && missed_before) {
            *line_bytes = s / 2;
            break;
        }
        if (fits)
            break;                    /* fits from the smallest stride: no line seen */
        missed_before = true;
    }
    return rc;
}
