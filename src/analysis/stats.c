/* Descriptive statistics (see stats.h). */
#include "analysis/stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Copy the finite samples of x into a new sorted array; *m gets their count. */
static double *sorted_finite(const double *x, size_t n, size_t *m)
{
    double *s = malloc((n ? n : 1) * sizeof *s);
    *m = 0;
    if (!s)
        return NULL;
    for (size_t i = 0; i < n; i++)
        if (isfinite(x[i]))
            s[(*m)++] = x[i];
    qsort(s, *m, sizeof *s, cmp_double);
    return s;
}

static double median_sorted(const double *s, size_t m)
{
    if (m == 0)
        return NAN;
    return m % 2 ? s[m / 2] : 0.5 * (s[m / 2 - 1] + s[m / 2]);
}

double gs_median(const double *x, size_t n)
{
    size_t m;
    double *s = sorted_finite(x, n, &m);
    double med = s ? median_sorted(s, m) : NAN;
    free(s);
    return med;
}

double gs_mean(const double *x, size_t n)
{
    double sum = 0;
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (isfinite(x[i])) {
            sum += x[i];
            m++;
        }
    return m ? sum / (double)m : NAN;
}

double gs_stddev(const double *x, size_t n)
{
    double mean = gs_mean(x, n), ss = 0;
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (isfinite(x[i])) {
            ss += (x[i] - mean) * (x[i] - mean);
            m++;
        }
    return m < 2 ? 0.0 : sqrt(ss / (double)(m - 1));
}

double gs_t95(size_t dof)
{
    /* t(0.975, dof) for dof 1..30 (any statistics table) */
    static const double t[] = {12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262,
                               2.228,  2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101,
                               2.093,  2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052,
                               2.048,  2.045, 2.042};
    if (dof == 0)
        return NAN;
    if (dof <= sizeof t / sizeof t[0])
        return t[dof - 1];
    /* beyond: the Cornish-Fisher expansion in 1 / dof around z = 1.959964 (2.0423 at 30,
       within 1e-4 of the table's) */
    double z = 1.959964, v = (double)dof, z2 = z * z;
    return z + z * (z2 + 1) / (4 * v) + z * (5 * z2 * z2 + 16 * z2 + 3) / (96 * v * v) +
           z * (3 * z2 * z2 * z2 + 19 * z2 * z2 + 17 * z2 - 15) / (384 * v * v * v);
}

/* The 95 % interval of the mean of m samples with standard deviation sd (0 below two). */
static double ci95_of(double sd, size_t m)
{
    return m < 2 ? 0.0 : gs_t95(m - 1) * sd / sqrt((double)m);
}

double gs_ci95(const double *x, size_t n)
{
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        m += isfinite(x[i]) != 0;
    return ci95_of(gs_stddev(x, n), m);
}

static gs_summary summarize_sorted(const double *s, size_t m, size_t outliers)
{
    gs_summary r;
    r.n = m;
    r.outliers = outliers;
    if (m == 0) {
        r.median = r.mean = r.stddev = r.ci95 = r.min = r.max = NAN;
        return r;
    }
    r.median = median_sorted(s, m);
    r.mean = gs_mean(s, m);
    r.stddev = gs_stddev(s, m);
    r.ci95 = ci95_of(r.stddev, m);
    r.min = s[0];
    r.max = s[m - 1];
    return r;
}

gs_summary gs_summarize(const double *x, size_t n)
{
    size_t m;
    double *s = sorted_finite(x, n, &m);
    gs_summary r = summarize_sorted(s ? s : x, s ? m : 0, 0);
    free(s);
    return r;
}

double gs_mad_sigma(const double *x, size_t n, double center)
{
    double *dev = malloc((n ? n : 1) * sizeof *dev);
    if (!dev)
        return NAN;
    for (size_t i = 0; i < n; i++)
        dev[i] = fabs(x[i] - center);     /* NaN stays NaN: gs_median skips it */
    double mad = gs_median(dev, n);
    free(dev);
    return 1.4826 * mad;
}

gs_summary gs_summarize_robust(const double *x, size_t n, double k)
{
    size_t m;
    double *s = sorted_finite(x, n, &m);
    if (!s || m < 3) {
        gs_summary r = summarize_sorted(s ? s : x, s ? m : 0, 0);
        free(s);
        return r;
    }
    double med = median_sorted(s, m), sigma = gs_mad_sigma(s, m, med);
    if (isnan(sigma)) {
        gs_summary r = summarize_sorted(s, m, 0);
        free(s);
        return r;
    }
    double limit = sigma > 0 ? k * sigma : (med != 0 ? 0.05 * fabs(med) : 1.0);
    size_t kept = 0;
    for (size_t i = 0; i < m; i++)
        if (fabs(s[i] - med) <= limit)
            s[kept++] = s[i];
    gs_summary r = summarize_sorted(s, kept, m - kept);
    free(s);
    return r;
}

double gs_median_u32(const uint32_t *x, size_t n)
{
    if (n == 0)
        return NAN;
    double *d = malloc(n * sizeof *d);
    if (!d)
        return NAN;
    for (size_t i = 0; i < n; i++)
        d[i] = x[i];
    double med = gs_median(d, n);
    free(d);
    return med;
}

double gs_rms_ci95(double rms, size_t dof)
{
    return dof ? rms * 1.96 / sqrt(2.0 * (double)dof) : NAN;
}

double gs_median_order_ci95(const double *x, size_t n)
{
    size_t m;
    double *s = sorted_finite(x, n, &m);
    double ci = 0;
    if (s && m >= 8) {
        double h = 0.98 * sqrt((double)m), mid = (double)m / 2;
        size_t lo = mid - h > 0 ? (size_t)floor(mid - h) : 0;
        size_t hi = (size_t)ceil(mid + h) < m ? (size_t)ceil(mid + h) : m - 1;
        ci = (s[hi] - s[lo]) / 2;
    }
    free(s);
    return ci;
}

double gs_cyclic_median_ci95(const double *x, size_t n, size_t len)
{
    enum { MAX_LEN = 1024, MAX_VISITS = 64 };
    if (len < 2 || len > MAX_LEN || n < 2 * len)
        return 0;
    double med[MAX_LEN], col[MAX_VISITS];
    for (size_t e = 0; e < len; e++) {
        size_t k = 0;
        for (size_t i = e; i < n && k < MAX_VISITS; i += len)
            col[k++] = x[i];
        med[e] = gs_median(col, k);
    }
    return gs_t95(len - 1) * gs_stddev(med, len) / sqrt((double)len);
}
