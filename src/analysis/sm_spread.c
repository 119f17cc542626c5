/* Per-SM latency spread: see sm_spread.h. */
#include "analysis/sm_spread.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>

#include "analysis/stats.h"

void gs_sm_spread_of(const double *pass1, const double *pass2, size_t n, double *value,
                     gs_sm_spread *out)
{
    *out = (gs_sm_spread){.min = NAN, .median = NAN, .max = NAN, .spread = NAN, .noise = NAN};
    double *ok = malloc((n ? n : 1) * sizeof *ok);
    size_t m = 0;
    double noise = 0;
    for (size_t k = 0; k < n; k++) {
        bool both = isfinite(pass1[k]) && isfinite(pass2[k]);
        value[k] = both ? (pass1[k] + pass2[k]) / 2 : NAN;
        if (!both)
            continue;
        noise = fmax(noise, fabs(pass1[k] - pass2[k]));
        if (!m || value[k] < out->min)
            out->min = value[k], out->min_sm = k;
        if (!m || value[k] > out->max)
            out->max = value[k], out->max_sm = k;
        if (ok)
            ok[m] = value[k];
        m++;
    }
    out->n = m;
    if (m) {
        out->median = ok ? gs_median(ok, m) : NAN;
        out->spread = out->max - out->min;
        out->noise = noise;
    }
    free(ok);
}
