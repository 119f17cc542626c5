/* The saturation point of a throughput curve (see saturation.h). */
#include "analysis/saturation.h"

#include <math.h>
#include <string.h>

int gs_saturation_find(const double *x, const double *y, size_t n, double fraction,
                       gs_saturation *out)
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
    /* Flat after the knee: every later point stays in [fraction * peak, peak] while x grows by
     * half or more, so throughput grew far slower than x did. */
    bool flat = true, far = false;
    for (size_t i = out->knee_index; i < n; i++) {
        if (!isfinite(y[i]))
            continue;
        flat = flat && y[i] >= fraction * out->peak;
        far = far || (isfinite(x[i]) && x[i] >= 1.5 * x[out->knee_index]);
    }
    out->saturated = flat && far && last != out->knee_index;
    return 0;
}
