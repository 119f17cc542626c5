/* How a latency varies with the SM it is measured from: two passes over the SMs, each SM's value
 * the mean of its two, and the extremes, median and spread with a noise bound (pure; the cache
 * probe's per-SM L2 hit latency, docs/methods.md "cache", "L2 hit latency by SM"). */
#ifndef GS_ANALYSIS_SM_SPREAD_H
#define GS_ANALYSIS_SM_SPREAD_H

#include <stddef.h>

typedef struct gs_sm_spread {
    size_t n;              /* SMs with both passes measured (finite) */
    double min, median, max;
    size_t min_sm, max_sm; /* index of the lowest and highest SM value (the first if tied) */
    double spread;         /* max - min */
    double noise;          /* largest difference between one SM's two passes: each SM value is
                              known to about this, so min, median and max to it and the
                              spread to twice it */
} gs_sm_spread;

/* value[k] = (pass1[k] + pass2[k]) / 2 into value (n long, NaN where either pass is not finite);
 * out->n = 0 when no SM has both. */
void gs_sm_spread_of(const double *pass1, const double *pass2, size_t n, double *value,
                     gs_sm_spread *out);

#endif
