/* The L2 persistence window's effect (persist_gain.h): hit rate between plateaus, interval test. */
#include "analysis/persist_gain.h"

#include <math.h>

double gs_persist_hit_rate(double hot, double warm, double cold, double noise)
{
    if (!isfinite(hot) || !isfinite(warm) || !isfinite(cold) || !(cold - warm > noise) ||
        !(cold - warm > 0))
        return NAN;
    double h = (cold - hot) / (cold - warm);
    return h < 0 ? 0 : h > 1 ? 1 : h;
}

bool gs_persist_overlap(double a, double ci_a, double b, double ci_b)
{
    if (!isfinite(a) || !isfinite(b))
        return true;
    ci_a = isfinite(ci_a) ? fabs(ci_a) : 0;
    ci_b = isfinite(ci_b) ? fabs(ci_b) : 0;
    return fabs(a - b) <= ci_a + ci_b;
}
