/* L2 partitions from per-address latencies: two clusters, and a GF(2) fit of the far bit as an
 * XOR of address bits with one constant per page (see partitions.h). */
#include "analysis/partitions.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/stats.h"

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Median absolute deviation of y[i] over the samples on one side of threshold. */
static double side_mad(const double *y, size_t n, double threshold, bool high, double center,
                       double *scratch)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if ((y[i] > threshold) == high)
            scratch[k++] = fabs(y[i] - center);
    return k ? gs_median(scratch, k) : 0;
}

static double side_median(const double *y, size_t n, double threshold, bool high, double *scratch,
                          size_t *count)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if ((y[i] > threshold) == high)
            scratch[k++] = y[i];
    *count = k;
    return k ? gs_median(scratch, k) : NAN;
}

int gs_cluster_two(const double *y, size_t n, double min_fraction, gs_two_clusters *out)
{
    memset(out, 0, sizeof *out);
    if (n < 8)
        return -1;
    double *s = malloc(n * sizeof *s);
    if (!s)
        return -1;
    for (size_t i = 0; i < n; i++) {
        if (!isfinite(y[i])) {
            free(s);
            return -1;
        }
        s[i] = y[i];
    }
    qsort(s, n, sizeof *s, cmp_double);
    double c0 = s[n / 20], c1 = s[n - 1 - n / 20];
    for (int it = 0; it < 100 && c1 > c0; it++) {   /* Lloyd's iterations with means */
        double t = 0.5 * (c0 + c1), s0 = 0, s1 = 0;
        size_t n0 = 0, n1 = 0;
        for (size_t i = 0; i < n; i++)
            if (y[i] > t)
                s1 += y[i], n1++;
            else
                s0 += y[i], n0++;
        double d0 = n0 ? s0 / n0 : c0, d1 = n1 ? s1 / n1 : c1;
        if (d0 == c0 && d1 == c1)
            break;
        c0 = d0, c1 = d1;
    }
    double t = 0.5 * (c0 + c1);
    out->low = side_median(y, n, t, false, s, &out->n_low);
    out->high = c1 > c0 ? side_median(y, n, t, true, s, &out->n_high) : NAN;
    out->threshold = c1 > c0 ? 0.5 * (out->low + out->high) : t;
    if (c1 > c0 && out->n_low && out->n_high) {
        double mad = fmax(side_mad(y, n, t, false, out->low, s),
                          side_mad(y, n, t, true, out->high, s));
        double gap = out->high - out->low;
        out->separated = gap >= 4 * mad && gap >= 0.05 * fabs(out->low) &&
                         (double)out->n_low >= min_fraction * n &&
                         (double)out->n_high >= min_fraction * n;
    }
    free(s);
    return 0;
}

/* ---- GF(2) fit ------------------------------------------------------------------------------ */
typedef struct gf2 {
    size_t unknowns, words;          /* row: unknowns bits, then the right-hand side bit */
    uint64_t *rows;                  /* one row per pivot column */
    bool *has_pivot;
} gf2;

static bool row_bit(const uint64_t *r, size_t b) { return (r[b / 64] >> (b % 64)) & 1u; }
static void row_set(uint64_t *r, size_t b) { r[b / 64] |= 1ull << (b % 64); }

/* Lowest set coefficient (below unknowns), or unknowns when none. */
static size_t lowest(const gf2 *g, const uint64_t *r)
{
    for (size_t w = 0; w < g->words; w++) {
        uint64_t v = r[w];
        if (w == g->unknowns / 64)
            v &= (g->unknowns % 64) ? (1ull << (g->unknowns % 64)) - 1 : 0;
        else if (w > g->unknowns / 64)
            v = 0;
        if (v)
            return w * 64 + (size_t)__builtin_ctzll(v);
    }
    return g->unknowns;
}

/* Add one equation; a row that reduces to 0 = 1 contradicts the earlier ones and is dropped. */
static void gf2_add(gf2 *g, uint64_t *r)
{
    for (;;) {
        size_t col = lowest(g, r);
        if (col == g->unknowns)
            return;
        uint64_t *p = g->rows + col * g->words;
        if (!g->has_pivot[col]) {
            memcpy(p, r, g->words * sizeof *r);
            g->has_pivot[col] = true;
            return;
        }
        for (size_t w = 0; w < g->words; w++)
            r[w] ^= p[w];
    }
}

/* Back-substitution with free unknowns 0; x has words words. */
static void gf2_solve(const gf2 *g, uint64_t *x)
{
    memset(x, 0, g->words * sizeof *x);
    for (size_t col = g->unknowns; col-- > 0;) {
        if (!g->has_pivot[col])
            continue;
        const uint64_t *p = g->rows + col * g->words;
        unsigned parity = row_bit(p, g->unknowns);
        for (size_t w = 0; w < g->words; w++)
            parity ^= (unsigned)__builtin_parityll(p[w] & x[w]);
        if (parity & 1u)
            row_set(x, col);
    }
}

static void make_row(const gf2 *g, uint64_t off, bool far, unsigned low_bit, unsigned bits,
                     unsigned page_shift, uint64_t *r)
{
    memset(r, 0, g->words * sizeof *r);
    for (unsigned b = 0; b < bits; b++)
        if ((off >> (low_bit + b)) & 1u)
            row_set(r, b);
    row_set(r, bits + (size_t)(off >> page_shift));
    if (far)
        row_set(r, g->unknowns);
}

double gs_partition_fit(const uint64_t *offset, const bool *far, size_t n, const size_t *order,
                        unsigned low_bit, unsigned page_shift, uint64_t *mask)
{
    uint64_t max_off = 0;
    *mask = 0;
    if (n == 0 || low_bit >= page_shift || page_shift > 63)
        return -1;
    for (size_t i = 0; i < n; i++)
        max_off = offset[i] > max_off ? offset[i] : max_off;
    size_t pages = (size_t)(max_off >> page_shift) + 1;
    unsigned bits = page_shift - low_bit;
    if (pages > 4096)
        return -1;
    gf2 g = {.unknowns = bits + pages, .words = (bits + pages + 1 + 63) / 64};
    g.rows = calloc(g.unknowns * g.words, sizeof *g.rows);
    g.has_pivot = calloc(g.unknowns, sizeof *g.has_pivot);
    uint64_t *r = calloc(g.words, sizeof *r), *x = calloc(g.words, sizeof *x);
    double agreement = -1;
    if (g.rows && g.has_pivot && r && x) {
        for (size_t k = 0; k < n; k++) {
            size_t i = order ? order[k] : k;
            make_row(&g, offset[i], far[i], low_bit, bits, page_shift, r);
            gf2_add(&g, r);
        }
        gf2_solve(&g, x);
        for (unsigned b = 0; b < bits; b++)
            if (row_bit(x, b))
                *mask |= 1ull << (low_bit + b);
        size_t agree = 0;
        for (size_t i = 0; i < n; i++) {
            unsigned pred = (unsigned)__builtin_parityll(offset[i] & *mask) ^
                            (unsigned)row_bit(x, bits + (size_t)(offset[i] >> page_shift));
            agree += (pred & 1u) == (unsigned)far[i];
        }
        agreement = (double)agree / (double)n;
    }
    free(g.rows), free(g.has_pivot), free(r), free(x);
    return agreement;
}

int gs_partition_fit_search(const uint64_t *offset, const bool *far, size_t n,
                            const size_t *order, unsigned low_bit, unsigned min_shift,
                            unsigned max_shift, double min_agreement, uint64_t *mask,
                            double *agreement)
{
    *mask = 0;
    *agreement = 0;
    for (unsigned shift = max_shift; shift >= min_shift && shift > low_bit; shift--) {
        uint64_t m = 0;
        double a = gs_partition_fit(offset, far, n, order, low_bit, shift, &m);
        if (a > *agreement && shift == max_shift)
            *agreement = a;
        if (a >= min_agreement) {
            *mask = m;
            *agreement = a;
            return (int)shift;
        }
    }
    return -1;
}
