/* The ladder's verdicts: how a full rise changed with the stride, and entries and ways from the
 * LRU staircase at a stride of one entry (tlb_ladder.h; docs/methods.md, "TLBs"). Pure. */
#include <math.h>

#include "analysis/tlb_ladder.h"

gs_ladder_rise gs_tlb_ladder_rise(double prev, double rise, double tol)
{
    if (!(prev > 0) || !isfinite(rise))
        return GS_RISE_OTHER;
    if (fabs(rise - 2 * prev) <= tol * 2 * prev)
        return GS_RISE_DOUBLED;
    if (fabs(rise - prev) <= tol * prev)
        return GS_RISE_HELD;
    return rise < prev * (1 - tol) ? GS_RISE_BELOW : GS_RISE_OTHER;
}

double gs_tlb_staircase_step(uint64_t entries, uint64_t ways, double penalty, uint64_t n)
{
    if (n <= entries)
        return 0;
    if (!ways || (double)n * (double)ways >= (double)entries * (double)(ways + 1))
        return penalty;
    return penalty * (double)(ways + 1) * (double)(n - entries) / (double)n;
}

gs_staircase_verdict gs_tlb_staircase_fit(const double *n, const double *step, size_t k,
                                          double penalty, double slope_tol, double root_tol,
                                          double *slope, double *root, uint64_t *entries,
                                          uint64_t *ways)
{
    *slope = *root = NAN;
    *entries = *ways = 0;
    double sx = 0, sy = 0, sxx = 0, sxy = 0;
    for (size_t i = 0; i < k; i++) {
        double m = step[i] * n[i] / penalty;        /* misses per pass */
        sx += n[i], sy += m, sxx += n[i] * n[i], sxy += n[i] * m;
    }
    double d = (double)k * sxx - sx * sx;
    if (k < 2 || !(penalty > 0) || !(d > 0))
        return GS_STAIR_FEW;
    *slope = ((double)k * sxy - sx * sy) / d;
    double w1 = round(*slope);
    if (!isfinite(*slope) || w1 < 2 || fabs(*slope - w1) > slope_tol)
        return GS_STAIR_SLOPE;
    *root = (sx - sy / w1) / (double)k;     /* the root of the whole slope through the counts */
    double e = round(*root);
    if (!(e >= 1) || fabs(*root - e) > root_tol)
        return GS_STAIR_ROOT;
    *entries = (uint64_t)e;
    *ways = (uint64_t)w1 - 1;
    return GS_STAIR_FOUND;
}

bool gs_tlb_edge_resolved(double below, double above, double sigma, double z)
{
    double rise = above - below;
    return isfinite(rise) && rise > 0 && isfinite(sigma) && rise > z * sqrt(2.0) * sigma;
}

double gs_tlb_staircase_root_se(const double *n, const double *step, size_t k, double penalty,
                                double w1, double sigma)
{
    if (!k || !(penalty > 0) || !(w1 > 0) || !(sigma >= 0))
        return NAN;
    double d = penalty * w1 * (double)k, own = 0, shared = 0, m = 0;
    for (size_t i = 0; i < k; i++) {
        own += (n[i] / d) * (n[i] / d);         /* each walk's own step */
        shared += n[i] / d;                     /* the reference's step, in every rise */
        m += step[i] * n[i] / penalty / (double)k;
    }
    double pen = m / (penalty * w1);            /* the penalty: a rise, two steps */
    return sigma * sqrt(own + shared * shared + 2 * pen * pen);
}

bool gs_tlb_root_resolved(double root, double se, double z)
{
    if (!isfinite(root) || !isfinite(se) || se < 0)
        return false;
    return fabs(root - round(root)) + z * se < 0.5;
}
