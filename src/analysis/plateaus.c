/* Latency plateaus of a size sweep and the levels they come from (see plateaus.h). */
#include "analysis/plateaus.h"

#include <math.h>
#include <stdbool.h>

#include "analysis/stats.h"

/* Median, min and max of y[first, first + count). */
static void describe(const double *x, const double *y, size_t first, size_t count, gs_plateau *p)
{
    double lo = y[first], hi = y[first];
    for (size_t i = first; i < first + count; i++)
        lo = y[i] < lo ? y[i] : lo, hi = y[i] > hi ? y[i] : hi;
    p->first = first;
    p->count = count;
    p->latency = gs_median(y + first, count);
    p->spread = p->latency > 0 ? (hi - lo) / p->latency : 0;
    p->first_x = x[first];
    p->last_x = x[first + count - 1];
}

static bool near(double a, double b, double tolerance)
{
    return fabs(a - b) <= tolerance * fabs(b);
}

/* First pass: greedy runs. Returns the number of runs (at most n). */
static size_t runs(const double *x, const double *y, size_t n, double tolerance, gs_plateau *r)
{
    size_t k = 0, start = 0;
    for (size_t i = 1; i <= n; i++) {
        double med = gs_median(y + start, i - start);
        if (i < n && near(y[i], med, tolerance))
            continue;
        describe(x, y, start, i - start, &r[k++]);
        start = i;
    }
    return k;
}

int gs_plateaus_find(const double *x, const double *y, size_t n, double tolerance,
                     gs_plateau *out, size_t max)
{
    if (n == 0 || !(tolerance > 0) || max == 0)
        return -1;
    for (size_t i = 0; i < n; i++)
        if (!isfinite(x[i]) || !isfinite(y[i]) || (i && x[i] <= x[i - 1]))
            return -1;
    gs_plateau r[n];
    size_t k = runs(x, y, n, tolerance, r), m = 0;
    gs_plateau kept[n];
    for (size_t i = 0; i < k; i++) {
        bool transition = r[i].count == 1 && i > 0 && i + 1 < k && r[i - 1].count >= 2 &&
                          r[i + 1].count >= 2;
        if (!transition)
            kept[m++] = r[i];
    }
    size_t c = 0;
    for (size_t i = 0; i < m; i++) {
        if (c > 0 && near(kept[i].latency, out[c - 1].latency, tolerance) &&
            out[c - 1].first + out[c - 1].count <= kept[i].first) {
            size_t first = out[c - 1].first, last = kept[i].first + kept[i].count;
            describe(x, y, first, last - first, &out[c - 1]);
            continue;
        }
        if (c == max)
            break;
        out[c++] = kept[i];
    }
    return (int)c;
}

void gs_plateaus_name(const gs_plateau *p, int count, int constant, double l1_bytes,
                      double l2_bytes, const char **names)
{
    static const char *const global_l2[] = {"l2", "l2-far"};
    static const char *const const_levels[] = {"const-l1", "const-l1.5", "l2"};
    int next_l2 = 0;
    for (int i = 0; i < count; i++) {
        if (constant) {
            names[i] = i < 3 ? const_levels[i] : "unknown";
        } else if (i + 1 < count && p[i].last_x < l1_bytes && next_l2 == 0 &&
                   p[i].latency < 0.7 * p[i + 1].latency) {
            names[i] = "l1";
        } else if (i + 1 == count && i > 0 && p[i].first_x > l2_bytes) {
            names[i] = "dram";
        } else {
            names[i] = next_l2 < 2 ? global_l2[next_l2] : "unknown";
            next_l2++;
        }
    }
}
