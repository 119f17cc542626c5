/* The saturation point of a throughput curve (see saturation.h). */
#include "analysis/saturation.h"

#include <math.h>
#include <string.h>

/* Where the curve first reaches level: linear in y between that point and the finite point
 * before it, on a log2 scale of x; the first point's x where no point lies before it; the
 * peak's x where no point reaches level. */
static double crossing(const double *x, const double *y, size_t n, double level, size_t peak)
{
    size_t prev = n;
    for (size_t i = 0; i < n; i++) {
        if (!isfinite(y[i]) || !(x[i] > 0))
            continue;
        if (y[i] >= level) {
            if (prev == n || !(y[i] > y[prev]))
                return x[i];
            double t = (level - y[prev]) / (y[i] - y[prev]);
            return exp2(log2(x[prev]) + t * (log2(x[i]) - log2(x[prev])));
        }
        prev = i;
    }
    return x[peak];
}

int gs_saturation_find(const double *x, const double *y, size_t n, double fraction,
                       double tolerance, gs_saturation *out)
{
    memset(out, 0, sizeof *out);
    out->peak = NAN;
    size_t last = n, finite = 0;
    for (size_t i = 0; i < n; i++) {
        if (!isfinite(y[i]))
            continue;
        if (finite++ == 0 || y[i] > out->peak) {
            out->peak = y[i];
            out->peak_index = i;
        }
        last = i;
    }
    if (finite == 0)
        return -1;
    for (size_t i = 0; i < n; i++)
        if (isfinite(y[i]) && y[i] >= fraction * out->peak) {
            out->knee_index = i;
            break;
        }
    out->knee_x = crossing(x, y, n, fraction * out->peak, out->peak_index);
    out->knee_x_low = crossing(x, y, n, (fraction - tolerance) * out->peak, out->peak_index);
    out->knee_x_high = crossing(x, y, n, fmin(fraction + tolerance, 1) * out->peak,
                                out->peak_index);
    /* Flat after the knee: every later point stays in [(fraction - tolerance) * peak, peak]
     * while x grows by half or more past the crossing, so throughput grew far slower than x. */
    bool flat = true, far = false;
    for (size_t i = out->knee_index; i < n; i++) {
        if (!isfinite(y[i]))
            continue;
        flat = flat && y[i] >= (fraction - tolerance) * out->peak;
        far = far || (isfinite(x[i]) && x[i] >= 1.5 * out->knee_x);
    }
    out->saturated = flat && far && last != out->knee_index;
    return 0;
}
