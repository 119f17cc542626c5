/* Where a throughput curve saturates: the memory side of the occupancy roofline (roofline paper,
 * Section III, applied to random walks): throughput against concurrent walkers rises until memory
 * is saturated, then stays flat. Pure: no device. */
#ifndef GS_SATURATION_H
#define GS_SATURATION_H

#include <stdbool.h>
#include <stddef.h>

typedef struct gs_saturation {
    double peak;                  /* largest throughput */
    size_t peak_index;
    size_t knee_index;            /* first point reaching fraction * peak */
    bool saturated;               /* the curve flattened: a later point has at least 1.5x the
                                     knee's x while every point from the knee on stays at or above
                                     fraction * peak (so y grew far slower than x) */
} gs_saturation;

/* y[i] measured at increasing x[i] (n points; NaN skipped). fraction in (0, 1), e.g. 0.9.
 * 0, or -1 when no finite point. */
int gs_saturation_find(const double *x, const double *y, size_t n, double fraction,
                       gs_saturation *out);

#endif
