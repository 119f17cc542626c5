/* Descriptive statistics for every figure: median, mean, standard deviation and the 95%
 * confidence interval of the mean, t sigma / sqrt(n) with t Student's 97.5 % quantile for n - 1
 * degrees of freedom (1.96 for many samples, DESIGN.md principle 2; 2.78 for five, where 1.96
 * would make an 88 % interval), with one documented outlier rule. Pure functions over arrays;
 * NaN samples are ignored. */
#ifndef GS_STATS_H
#define GS_STATS_H

#include <stddef.h>
#include <stdint.h>

typedef struct gs_summary {
    size_t n;            /* finite samples used (after outlier removal when asked) */
    size_t outliers;     /* samples dropped as outliers */
    double median;
    double mean;
    double stddev;       /* sample standard deviation (n - 1); 0 when n < 2 */
    double ci95;         /* gs_t95(n - 1) * stddev / sqrt(n); 0 when n < 2 */
    double min, max;
} gs_summary;

/* Summary of x[0..n). All fields NaN (n = 0) when no finite sample. */
gs_summary gs_summarize(const double *x, size_t n);

/* The same after dropping outliers: samples farther than k median absolute deviations
 * (scaled by 1.4826 to estimate sigma) from the median; k = 5 is the default used by probes.
 * When the MAD is 0 (more than half the samples equal), only samples differing from the median
 * by more than 5% of it (or 1 when the median is 0) count as outliers. */
gs_summary gs_summarize_robust(const double *x, size_t n, double k);

double gs_median(const double *x, size_t n);     /* NaN for n = 0 */

/* 1.4826 x the median absolute deviation of x from center (sigma for normal data); NaN samples
 * are ignored; NaN when none is finite or out of memory. */
double gs_mad_sigma(const double *x, size_t n, double center);
double gs_mean(const double *x, size_t n);
double gs_stddev(const double *x, size_t n);     /* sample sd; 0 for n < 2 */
double gs_ci95(const double *x, size_t n);       /* as gs_summary.ci95 */
/* Student's t quantile for a two-sided 95 % interval with dof degrees of freedom (12.706 for 1,
 * 2.042 for 30, toward 1.96); NaN for 0. */
double gs_t95(size_t dof);
/* Half-width of a 95 % interval of an rms (or sd) estimated with dof degrees of freedom from
 * normal residuals: rms x 1.96 / sqrt(2 dof), the large-sample chi interval; NaN for dof 0. A
 * residual rms from 9 degrees of freedom is known to about +-46 %. */
double gs_rms_ci95(double rms, size_t dof);
/* Half-width of a distribution-free 95 % interval of the median of the finite x[0..n): half the
 * span between the order statistics m/2 -+ 0.98 sqrt(m). Holds where the samples fall in a few
 * modes and t sd / sqrt(n) holds the median too tightly; 0 for fewer than 8 samples. */
double gs_median_order_ci95(const double *x, size_t n);
/* Half-width of a 95 % interval of a median over len elements each sampled many times, x[i]
 * being element i mod len (a cyclic walk): t(len - 1) x the sd of the elements' own medians /
 * sqrt(len), the elements as the sampling unit. 0 unless 2 <= len <= 1024 and n >= 2 len. */
double gs_cyclic_median_ci95(const double *x, size_t n, size_t len);

/* Median of n uint32 values (latency traces); NaN for n = 0. */
double gs_median_u32(const uint32_t *x, size_t n);

#endif
