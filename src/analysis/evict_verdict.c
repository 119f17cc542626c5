/* Verdicts of prime+probe on the L2 (see evict_verdict.h). Pure. */
#include <math.h>

#include "analysis/evict_verdict.h"
#include "analysis/stats.h"

#define COLUMN_MAX 64          /* repetitions of one target gathered for a median */

/* Target i's readings (one per repetition) into col; their count. */
static size_t column(const double *x, size_t repeats, size_t n, size_t i, double *col)
{
    size_t k = 0;
    for (size_t r = 0; r < repeats && k < COLUMN_MAX; r++)
        col[k++] = x[r * n + i];
    return k;
}

/* The highest level a kept line reads: its own level, or the far hit where that lies between
 * it and the miss (a far line whose near copy a pool evicted reads it). */
static double kept_level(double own_cycles, double miss_cycles, double far_cycles)
{
    return far_cycles < miss_cycles && far_cycles > own_cycles ? far_cycles : own_cycles;
}

double gs_evict_threshold(double hit_cycles, double miss_cycles, double far_cycles)
{
    return (kept_level(hit_cycles, miss_cycles, far_cycles) + miss_cycles) / 2;
}

gs_evict_target gs_evict_calibrate(const double *hit, const double *quiet, const double *full,
                                   size_t repeats, size_t n, size_t i, double far_cycles)
{
    double col[COLUMN_MAX] = {0};
    gs_evict_target t = {.usable = false};
    size_t k = column(hit, repeats, n, i, col);
    t.hit_cycles = gs_median(col, k);
    double lo = INFINITY, hi = -INFINITY;
    for (size_t j = 0; j < k; j++)
        lo = col[j] < lo ? col[j] : lo, hi = col[j] > hi ? col[j] : hi;
    t.noise_cycles = k ? hi - lo : NAN;
    t.miss_cycles = gs_median(col, column(full, repeats, n, i, col));
    double q = gs_median(col, column(quiet, repeats, n, i, col));
    t.kept_cycles = kept_level(q > t.hit_cycles ? q : t.hit_cycles, t.miss_cycles, far_cycles);
    t.threshold_cycles = (t.kept_cycles + t.miss_cycles) / 2;
    double gap = t.miss_cycles - t.kept_cycles;
    t.usable = k > 0 && gap > 4 * t.noise_cycles && gap > 2;
    return t;
}

int gs_evict_pick(const gs_evict_target *t, size_t n)
{
    int best = -1;
    double best_score = 0;
    for (size_t i = 0; i < n; i++) {
        if (!t[i].usable)
            continue;
        double score = (t[i].miss_cycles - t[i].kept_cycles) / (t[i].noise_cycles + 1);
        if (best < 0 || score > best_score)
            best = (int)i, best_score = score;
    }
    return best;
}

bool gs_evict_majority(const double *probe, size_t n, double threshold, double miss_cycles,
                       double *value)
{
    size_t above = 0;
    for (size_t r = 0; r < n; r++)
        above += probe[r] > threshold;
    if (value) {
        double col[COLUMN_MAX] = {0};
        size_t k = 0;
        for (size_t r = 0; r < n && k < COLUMN_MAX; r++)
            col[k++] = probe[r];
        double span = miss_cycles - threshold;
        *value = span > 0 ? (gs_median(col, k) - threshold) / span : NAN;
    }
    return 2 * above > n;
}
