/* Inference of the granularity of a warp's global-memory request (textbook notes on coalescing:
 * 128-byte lines of four 32-byte sectors): when lane i of a warp loads at i * lane_stride, the
 * request touches S(s) distinct sectors of s bytes and N(l) distinct lines of l bytes. A cost curve
 * over lane strides (latency per request, or ns per request under load) is fitted, for every
 * hypothesis (s, l), as base + sector_cost x (S - 1) + line_cost x (N - 1); the smallest residual
 * wins. Pure functions over arrays; no device. */
#ifndef GS_ANALYSIS_GRANULARITY_H
#define GS_ANALYSIS_GRANULARITY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Distinct units of unit_bytes that lanes 0..lanes-1 at i * lane_stride_bytes (each loading
 * element_bytes from an address aligned to unit_bytes) touch; 0 for bad arguments. */
unsigned gs_request_units(unsigned lanes, uint64_t lane_stride_bytes, unsigned element_bytes,
                          uint64_t unit_bytes);

typedef struct gs_granularity_fit {
    bool sector_determined, line_determined;
    char sector_reason[192], line_reason[192];  /* why not, when not determined */
    uint64_t sector_bytes, line_bytes;          /* best hypothesis */
    double base;                                /* cost of a request in one sector */
    double sector_cost, sector_ci95;            /* per distinct sector beyond the first */
    double line_cost, line_ci95;                /* per distinct line beyond the first */
    double rms;                                 /* residual root mean square */
    size_t points;
} gs_granularity_fit;

/* Fit cost[k] measured at lane_stride_bytes[k] (k < n; NaN costs are skipped) for sectors of
 * element_bytes..512 B and lines of sector..4096 B. A unit's cost shows when it is above twice
 * its ci95 and explains at least 10% of the curve's range. A size is determined when some cost
 * shows, no hypothesis with another value of that size fits within a tie of the best residual
 * (rel_tie of it, plus the sum of the points' variances (cost_ci95[k] / 1.96)^2 when cost_ci95
 * is not NULL), and the best residual rms is at most max_rms_fraction of the curve's range
 * (else the curve does not follow the model). Returns 0, or -1 out of memory. */
int gs_granularity_infer(const uint64_t *lane_stride_bytes, const double *cost,
                         const double *cost_ci95, size_t n,
                         unsigned lanes, unsigned element_bytes, double rel_tie,
                         double max_rms_fraction, gs_granularity_fit *out);

/* Mean of x[0..n) after dropping the lowest and highest trim_fraction of the finite samples
 * (0 <= trim_fraction < 0.5): stable for two-mode latencies and robust to rare spikes.
 * NaN when no finite sample. */
double gs_trimmed_mean(const double *x, size_t n, double trim_fraction);

#endif
