/* Entries, coverage, sets and ways of a TLB level from counts of regions that fit at chosen
 * strides (tlb_reach.h; docs/methods.md, "TLBs"). Pure. */
#include <math.h>

#include "analysis/tlb_reach.h"

static int near(double a, double b, double tol) { return fabs(a - b) <= tol * fmax(a, b); }

gs_reach_verdict gs_tlb_reach(uint64_t k_a, uint64_t n_a, uint64_t k_b, uint64_t n_b, double tol,
                              uint64_t *coverage_pages, uint64_t *entries)
{
    *coverage_pages = 0;
    *entries = 0;
    if (!k_a || k_b <= k_a || !n_a || !n_b)
        return GS_REACH_UNCLEAR;
    if (near((double)n_a, (double)n_b, tol)) {
        if (k_a != 1)                  /* C <= k_a pages, but a smaller pair should have said so */
            return GS_REACH_UNCLEAR;
        *coverage_pages = 1;
        *entries = n_b;
        return GS_REACH_FOUND;
    }
    double c = (double)n_a * (double)k_a / (double)n_b;   /* C in pages, when C <= k_b pages */
    if (near(c, (double)k_b, tol))
        return GS_REACH_LARGER;
    double p2 = exp2(round(log2(c)));
    if (near(c, p2, tol) && p2 > (double)k_a && p2 < (double)k_b) {
        *coverage_pages = (uint64_t)p2;
        *entries = n_b;
        return GS_REACH_FOUND;
    }
    return GS_REACH_UNCLEAR;
}

int gs_tlb_reach_explains(uint64_t entries, uint64_t coverage_pages, const uint64_t *k,
                          const uint64_t *count, unsigned n, double tol, double *want)
{
    for (unsigned j = 0; j < n; j++) {
        *want = (double)entries * (k[j] < coverage_pages ? (double)coverage_pages / (double)k[j]
                                                         : 1.0);
        if (fabs((double)count[j] - *want) > tol * *want)
            return (int)j;
    }
    return -1;
}

int gs_tlb_sets(uint64_t entries, const uint64_t *count, unsigned n, double tol, uint64_t *sets,
                uint64_t *ways)
{
    *sets = 0;
    *ways = 0;
    double prev = (double)entries;
    for (unsigned m = 0; m < n; m++) {
        double c = (double)count[m];
        if (!count[m])
            return -1;
        if (near(c, prev, tol)) {              /* the count held: 2^m sets of c ways */
            uint64_t s = 1ull << m, w = count[m];
            if (!near((double)(s * w), (double)entries, tol))
                return -1;
            *sets = s;
            *ways = w;
            return 0;
        }
        if (!near(c, prev / 2, tol))           /* neither halved nor held */
            return -1;
        prev = c;
    }
    return -1;
}
