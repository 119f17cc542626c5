/* The step of a quantized timer (timer_step.h): sort a copy, take the smallest gap above tol. */
#include "analysis/timer_step.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double gs_timer_step(const double *x, size_t n, double tol)
{
    double *v = n ? malloc(n * sizeof *v) : NULL;
    size_t m = 0;
    if (!v)
        return NAN;
    for (size_t i = 0; i < n; i++)
        if (isfinite(x[i]))
            v[m++] = x[i];
    qsort(v, m, sizeof *v, cmp_double);
    double step = NAN;
    for (size_t i = 1; i < m; i++) {
        double gap = v[i] - v[i - 1];
        if (gap > tol && (isnan(step) || gap < step))
            step = gap;
    }
    free(v);
    return step;
}
