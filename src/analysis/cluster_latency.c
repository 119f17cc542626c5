/* Summary of distributed shared-memory latencies by cluster rank (see cluster_latency.h). */
#include "analysis/cluster_latency.h"

#include <math.h>
#include <stdlib.h>

#include "analysis/stats.h"

int gs_cluster_latency_summarize(const double *by_rank, size_t n, double local, double tolerance,
                                 gs_cluster_latency *out)
{
    double remote[64];
    size_t m = 0;
    *out = (gs_cluster_latency){0, NAN, NAN, NAN, NAN, NAN, false};
    for (size_t r = 1; r < n && m < sizeof remote / sizeof remote[0]; r++)
        if (isfinite(by_rank[r]))
            remote[m++] = by_rank[r];
    if (m == 0)
        return -1;
    out->remote_ranks = m;
    out->remote_median = gs_median(remote, m);
    out->remote_min = out->remote_max = remote[0];
    for (size_t i = 1; i < m; i++) {
        out->remote_min = fmin(out->remote_min, remote[i]);
        out->remote_max = fmax(out->remote_max, remote[i]);
    }
    out->remote_spread = out->remote_max - out->remote_min;
    out->distance_matters = out->remote_spread > tolerance;
    if (isfinite(local) && local > 0)
        out->remote_over_local = out->remote_median / local;
    return 0;
}
