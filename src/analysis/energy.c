/* Energy per operation from an updating energy counter (energy.h). */
#include "analysis/energy.h"

#include <math.h>
#include <stdlib.h>

#include "analysis/stats.h"

size_t gs_energy_powers(const double *t_s, const double *mj, size_t n, double from_s,
                        double to_s, size_t parts, double *watts, double *span_s)
{
    size_t *at = n ? malloc(n * sizeof *at) : NULL, m = 0;
    if (!at || parts == 0) {
        free(at);
        return 0;
    }
    for (size_t i = 1; i < n; i++)
        if (mj[i] != mj[i - 1] && t_s[i] >= from_s && t_s[i] <= to_s)
            at[m++] = i;
    size_t made = 0;
    if (m >= parts + 1) {
        for (size_t p = 0; p < parts; p++) {
            size_t a = at[p * (m - 1) / parts], b = at[(p + 1) * (m - 1) / parts];
            span_s[p] = t_s[b] - t_s[a];
            watts[p] = span_s[p] > 0 ? (mj[b] - mj[a]) / 1e3 / span_s[p] : NAN;
        }
        made = parts;
    }
    free(at);
    return made;
}

double gs_energy_read_gap_s(const double *t_s, size_t n)
{
    if (n < 2)
        return NAN;
    double *gap = malloc((n - 1) * sizeof *gap);
    if (!gap)
        return NAN;
    for (size_t i = 1; i < n; i++)
        gap[i - 1] = t_s[i] - t_s[i - 1];
    double g = gs_median(gap, n - 1);
    free(gap);
    return g;
}

double gs_energy_pj(double work_w, double idle_w, double ops_per_s)
{
    if (!(ops_per_s > 0) || !isfinite(work_w) || !isfinite(idle_w))
        return NAN;
    return (work_w - idle_w) / ops_per_s * 1e12;
}
