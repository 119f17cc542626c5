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
    double knee_x;                /* where the curve crosses fraction * peak: linear in y
                                     between the knee and the point before it, on a log scale of
                                     x (the knee's own x where it is the first point) */
    double knee_x_low, knee_x_high; /* the same crossing of (fraction -+ tolerance) * peak */
    bool saturated;               /* the curve flattened: a point has at least 1.5x knee_x while
                                     every point from the knee on stays at or above (fraction -
                                     tolerance) * peak (so y grew far slower than x) */
} gs_saturation;

/* y[i] measured at increasing x[i] (n points; NaN skipped). fraction in (0, 1), e.g. 0.9;
 * tolerance in [0, fraction), how far a point's share of the peak moves between runs (the knee
 * on a grid of doublings otherwise jumps a doubling, or to "not saturated", when a point's
 * share crosses fraction: an H100's 2048 walkers read 0.894-0.934 of the peak in 30 reports).
 * 0, or -1 when no finite point. */
int gs_saturation_find(const double *x, const double *y, size_t n, double fraction,
                       double tolerance, gs_saturation *out);

#endif
