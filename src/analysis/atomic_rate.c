/* Rates of atomic throughput launches (atomic_rate.h). */
#include "analysis/atomic_rate.h"

#include <math.h>
#include <stdlib.h>

#include "analysis/stats.h"

int gs_atomic_rate_of(const double *seconds, size_t n, uint64_t operations, double clock_khz,
                      int sms, gs_atomic_rate *out)
{
    *out = (gs_atomic_rate){0, NAN, NAN, NAN, NAN, NAN, NAN};
    if (!operations || !n)
        return -1;
    double *gops = malloc(n * sizeof *gops);
    if (!gops)
        return -1;
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (isfinite(seconds[i]) && seconds[i] > 0)
            gops[m++] = (double)operations / seconds[i] * 1e-9;
    gs_summary s = gs_summarize_robust(gops, m, 5);
    free(gops);
    if (!m || !(s.n > 0))
        return -1;
    out->n = s.n;
    out->gops = s.median;
    out->gops_ci95 = s.ci95;
    if (clock_khz > 0) {
        double ghz = clock_khz * 1e-6;
        out->per_clock = s.median / ghz;
        out->per_clock_ci95 = s.ci95 / ghz;
        if (sms > 0) {
            out->per_clock_per_sm = out->per_clock / sms;
            out->per_clock_per_sm_ci95 = out->per_clock_ci95 / sms;
        }
    }
    return 0;
}

uint64_t gs_atomic_iterations_for(uint64_t iterations, double seconds, double target_s,
                                  uint64_t max_iterations)
{
    double want = isfinite(seconds) && seconds > 0 ? ceil((double)iterations * target_s / seconds)
                                                   : (double)iterations * 16;
    if (!(want >= 1))
        want = 1;
    return want >= (double)max_iterations ? max_iterations : (uint64_t)want;
}
