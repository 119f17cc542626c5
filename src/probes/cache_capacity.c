/* Capacity C (memory-hierarchy paper, section 3.2 (1)): the largest footprint a stride walk fits.
 * Fine-grained: footprints double, then bisect, judged by steady-state traces, with slow hits (a
 * far L2 partition, a TLB miss) told from capacity misses by chasing a small subset. Average mode
 * (Listing 2): a footprint sweep of random cyclic walks whose averages split into plateaus, each
 * plateau's end bisected (cw_avg_levels; the L2 and the cross-checks of cache_cross_check.c). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/plateaus.h"
#include "analysis/stats.h"
#include "probes/cache_internal.h"

/* ---- fine-grained footprint sweep ------------------------------------------------------------ */

/* A slow position of a data-cache sweep is a capacity miss only if it turns fast when the data
 * shrinks: chased again with a pseudo-random 64th of the other elements (a 64th of the pressure
 * on every set, nearly the same pages), an access that stays slow in three such subsets is a slow
 * hit (a far L2 partition, a TLB miss), so the band widens to hold it and the trace is judged
 * again. TLB walks keep their band (their data is aliased into a few lines instead). */
static int slow_alone(cw_walker *w, const uint64_t *chain, size_t len, size_t pos,
                      uint64_t salt, uint64_t *sub, double *latency, gs_error *err)
{
    size_t n = 0, at = 0, got;
    for (size_t i = 0; i < len; i++)
        if (i == pos || (((i ^ salt) * 0x9e3779b97f4a7c15ull) >> 58) == 0) {
            at = i == pos ? n : at;
            sub[n++] = chain[i];
        }
    size_t passes = w->cap / n > 16 ? 16 : w->cap / n;
    int rc = cw_chase(w, sub, n, 2, passes * n, &got, err);
    for (size_t p = 0; !rc && p < passes; p++)
        w->lat[p] = w->lat[p * n + at];
    *latency = rc ? 0 : gs_median_u32(w->lat, passes);
    return rc;
}

static int refine_band(cw_walker *w, const uint64_t *chain, size_t len, size_t got, bool *yes,
                       gs_error *err)
{
    if (w->tlb || len < 64)
        return 0;
    uint32_t *trace = malloc(got * sizeof *trace), *counts = malloc(len * sizeof *counts);
    uint64_t *sub = malloc(len * sizeof *sub);
    int rc = trace && counts && sub ? 0 : gs_fail(err, GS_ERR_NO_MEMORY, "out of host memory");
    if (!rc)
        memcpy(trace, w->lat, got * sizeof *trace);
    for (int round = 0; round < 4 && *yes && !rc; round++) {
        gs_trace_miss_counts(trace, got, len, w->band.threshold_cycles, counts);
        size_t pos = 0;
        for (size_t i = 1; i < len; i++)
            pos = counts[i] > counts[pos] ? i : pos;
        double alone = INFINITY, one;
        for (uint64_t salt = 1; salt <= 3 && !rc; salt++) {
            rc = slow_alone(w, chain, len, pos, salt * 7919, sub, &one, err);
            alone = one < alone ? one : alone;
        }
        if (rc || !(alone > w->band.threshold_cycles))
            break;
        w->band.threshold_cycles = alone + (w->band.threshold_cycles - w->band.hit_cycles);
        *yes = gs_trace_conflict(trace, got, len, &w->band);
    }
    free(trace), free(counts), free(sub);
    return rc;
}

static int fits(cw_walker *w, uint64_t footprint_bytes, uint64_t stride_bytes, bool *ok,
                gs_error *err)
{
    uint64_t n = footprint_bytes / stride_bytes;
    cw_stride_chain(w, n, stride_bytes, w->chain);
    size_t got;
    bool c;
    int rc = cw_conflict_got(w, w->chain, n, &c, &got, err);
    if (!rc && c)
        rc = refine_band(w, w->chain, n, got, &c, err);
    *ok = !c;
    return rc;
}

/* Double from start until a conflict, then bisect in steps of the sweep stride. lo fits. */
int cw_find_capacity(cw_walker *w, uint64_t lo, uint64_t start, uint64_t bound,
                     cw_level *lv, gs_error *err)
{
    uint64_t hi = start;
    bool ok = true;
    int rc = 0;
    while (!rc && hi <= bound) {
        rc = fits(w, hi, cw_sweep_stride(w, hi), &ok, err);
        if (rc || !ok)
            break;
        lo = hi;
        hi *= 2;
    }
    if (rc)
        return rc;
    if (ok) {
        snprintf(lv->why_structure, sizeof lv->why_structure, "no capacity miss up to %llu B",
                 (unsigned long long)bound);
        return 0;
    }
    uint64_t s = cw_sweep_stride(w, hi);
    while (!rc && hi - lo > s) {
        uint64_t mid = lo + (hi - lo) / 2 / s * s;
        rc = fits(w, mid, s, &ok, err);
        if (ok)
            lo = mid;
        else
            hi = mid;
    }
    lv->size_bytes = lo;
    return rc;
}

/* ---- average-mode footprint sweep ------------------------------------------------------------ */

#define AVG_MAX_POINTS 64

/* The end of plateau pl (within tolerance of its latency), bisected between its last footprint
 * (at the plateau's latency) and the next sampled one, to a 64th of the footprint. */
static int refine_end(cw_walker *w, uint64_t lo, uint64_t hi, uint64_t stride_bytes,
                      double latency, int carveout, cw_avg_level *lv, gs_error *err)
{
    uint64_t res = lo / 64 / stride_bytes * stride_bytes;
    res = res > stride_bytes ? res : stride_bytes;
    int rc = 0;
    while (!rc && hi - lo > res) {
        uint64_t half = (hi - lo) / 2 / res * res;
        uint64_t mid = lo + (half ? half : res);
        if (mid >= hi)
            break;
        double a;
        rc = cw_avg_walk(w, mid, stride_bytes, carveout, &a, err);
        if (!rc && a <= latency * (1 + AVG_TOLERANCE))
            lo = mid;
        else
            hi = mid;
    }
    lv->size_bytes = lo;
    lv->resolution_bytes = res;
    return rc;
}

int cw_avg_levels(cw_walker *w, uint64_t lo_bytes, uint64_t hi_bytes, uint64_t stride_bytes,
                  int carveout, cw_avg_sweep *out, gs_error *err)
{
    memset(out, 0, sizeof *out);
    out->stride_bytes = stride_bytes;
    unsigned start = w->chases;
    double x[AVG_MAX_POINTS], y[AVG_MAX_POINTS];
    size_t n = 0;
    int rc = 0;
    for (double f = (double)lo_bytes; f <= (double)hi_bytes && n < AVG_MAX_POINTS && !rc;
         f *= M_SQRT2) {
        uint64_t fb = (uint64_t)f / stride_bytes * stride_bytes;
        x[n] = (double)fb;
        rc = cw_avg_walk(w, fb, stride_bytes, carveout, &y[n], err);
        n++;
    }
    memcpy(out->x, x, n * sizeof *x);
    memcpy(out->y, y, n * sizeof *y);
    out->points = n;
    gs_plateau pl[CW_AVG_MAX_LEVELS + 1];
    int k = rc ? 0 : gs_plateaus_find(x, y, n, AVG_TOLERANCE, pl, CW_AVG_MAX_LEVELS + 1);
    if (!rc && k < 2)
        snprintf(out->why, sizeof out->why, "one latency from %llu B to %llu B: no capacity "
                 "seen in the sweep", (unsigned long long)lo_bytes, (unsigned long long)hi_bytes);
    for (int i = 0; !rc && i + 1 < k; i++) {
        cw_avg_level *lv = &out->levels[out->count++];
        lv->hit_cycles = pl[i].latency;
        lv->next_cycles = pl[i + 1].latency;
        size_t last = pl[i].first + pl[i].count - 1;
        rc = refine_end(w, (uint64_t)x[last], (uint64_t)x[last + 1], stride_bytes, pl[i].latency,
                        carveout, lv, err);
    }
    if (!rc && k >= 1)
        out->beyond_cycles = pl[k - 1].latency;
    out->chases = w->chases - start;
    return rc;
}
