/* Latency plateaus of an average-mode size sweep (section 3.1 of the memory-hierarchy paper: "the
 * smallest memory latency indicates cache hit and bigger latencies indicate cache misses"): the
 * sweep is split into runs of footprints with one latency each, isolated points between two runs
 * are transitions (a footprint that hits one level in part), and each plateau is named after the
 * level that serves it from where it lies against the unified L1 size and the L2 size. Pure. */
#ifndef GS_PLATEAUS_H
#define GS_PLATEAUS_H

#include <stddef.h>
#include <stdint.h>

typedef struct gs_plateau {
    double latency;          /* median latency of its points */
    double spread;           /* (max - min) / median of its points */
    double first_x, last_x;  /* first and last footprint on it */
    size_t first, count;     /* index range into the sweep */
} gs_plateau;

/* Split the sweep (x ascending, n points) into plateaus: a point joins the current plateau when
 * it lies within tolerance (relative, e.g. 0.1) of the plateau's median; single points between two
 * plateaus of two points or more are dropped as transitions, and neighbours that then agree within
 * tolerance are merged. Writes at most max plateaus; returns how many, or -1 on bad input (n 0,
 * NaN, x not ascending, tolerance <= 0). */
int gs_plateaus_find(const double *x, const double *y, size_t n, double tolerance,
                     gs_plateau *out, size_t max);

/* Names for the plateaus of one load path, in order (names[i] for out[i]):
 * global-memory paths: a plateau that ends below l1_bytes, is not the last and takes less than
 * 0.7 of the next plateau's latency (an L1 hit is at least twice as fast as an L2 hit: 0.27 on
 * the H100, 0.5 for Kepler's texture L1; L2 partitions differ by far less): "l1"; the
 * last plateau when it starts beyond l2_bytes: "dram"; the others in order "l2", "l2-far", then
 * "unknown". Constant path (constant = 1): "const-l1", "const-l1.5", "l2", then "unknown" (on
 * a GPU whose constant caches hold 64 KB, the chain never reaches the L2). */
void gs_plateaus_name(const gs_plateau *p, int count, int constant, double l1_bytes,
                      double l2_bytes, const char **names);

#endif
