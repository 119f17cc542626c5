/* L2 partitions (near and far) from per-address latencies of one SM (docs/methods.md,
 * "l2-partitions"): the latencies are split into two clusters (near, far), and the far bit of each
 * address is fitted as an XOR (parity) of address bits, over GF(2), with one free constant per
 * page of 2^page_shift bytes (inside a page virtual and physical address bits agree; across pages
 * the physical bits the hash also uses are unknown, so each page gets its own constant). Pure. */
#ifndef GS_PARTITIONS_H
#define GS_PARTITIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Two clusters of y[0..n) by 1-D 2-means (Lloyd, started from the 5th and 95th percentiles).
 * centers: medians of each cluster; threshold: midway between them. *separated is true when the
 * clusters are real: each holds at least min_fraction of the samples and the gap between the
 * centers is at least 4 times the larger cluster's median absolute deviation (and at least 5% of
 * the low center). 0, or -1 when n < 8 or a sample is not finite. */
typedef struct gs_two_clusters {
    double low, high, threshold;
    size_t n_low, n_high;
    bool separated;
} gs_two_clusters;

int gs_cluster_two(const double *y, size_t n, double min_fraction, gs_two_clusters *out);

/* Fit far[i] = parity(offset[i] & mask) XOR c[offset[i] >> page_shift] over bits low_bit ..
 * page_shift - 1 by Gaussian elimination over GF(2), confident samples first (order: indices in
 * the order to use; NULL = as given). Returns the share of samples the fitted model predicts
 * (agreement, 0..1) and writes the mask; -1 on bad input (low_bit >= page_shift, page_shift > 63,
 * more than 4096 pages, n 0). */
double gs_partition_fit(const uint64_t *offset, const bool *far, size_t n, const size_t *order,
                        unsigned low_bit, unsigned page_shift, uint64_t *mask);

/* The largest page_shift in [min_shift, max_shift] whose fit agrees with at least min_agreement
 * of the samples (the most address bits that a linear hash explains); writes its mask and
 * agreement. Returns the page_shift, or -1 when none does. */
int gs_partition_fit_search(const uint64_t *offset, const bool *far, size_t n,
                            const size_t *order, unsigned low_bit, unsigned min_shift,
                            unsigned max_shift, double min_agreement, uint64_t *mask,
                            double *agreement);

#endif
