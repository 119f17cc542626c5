/* A TLB level's entries and coverage from the counts of regions that fit at strides that are odd
 * multiples of the page (docs/methods.md, "TLBs", second level): at a stride s at least the
 * coverage C every region takes an entry of its own, so the count is the entries E; below it
 * C / s regions share one entry, so the count is E x C / s. Two strides k_a x page < k_b x page
 * (odd k, C a power-of-two multiple of the page, never equal to an odd stride but the page) then
 * say: equal counts, C <= k_a x page; counts in the ratio k_b / k_a, C > k_b x page (try larger
 * strides); a ratio 2^c / k_a with k_a < 2^c < k_b, C = 2^c pages and E = the count at k_b. Pure. */
#ifndef GS_TLB_REACH_H
#define GS_TLB_REACH_H

#include <stdint.h>

typedef enum gs_reach_verdict {
    GS_REACH_FOUND = 0,     /* coverage_pages and entries set */
    GS_REACH_LARGER,        /* the coverage is above the larger stride: try a larger one */
    GS_REACH_UNCLEAR,       /* the counts fit no coverage (noise, sets that strides skip) */
} gs_reach_verdict;

/* Verdict on the counts n_a at k_a pages and n_b at k_b pages (k_a < k_b, both odd or k_a 1),
 * with a relative tolerance tol (e.g. 0.05); coverage in pages and entries when FOUND. */
gs_reach_verdict gs_tlb_reach(uint64_t k_a, uint64_t n_a, uint64_t k_b, uint64_t n_b, double tol,
                              uint64_t *coverage_pages, uint64_t *entries);

/* Whether a level of `entries` entries covering `coverage_pages` pages explains every count:
 * count[j] regions of k[j] pages (j < n) within tol of entries x coverage / k[j] (k[j] below the
 * coverage) or entries (k[j] at least it). Returns -1 when all do, else the first j that does
 * not, with its prediction in *want. */
int gs_tlb_reach_explains(uint64_t entries, uint64_t coverage_pages, const uint64_t *k,
                          const uint64_t *count, unsigned n, double tol, double *want);

/* Sets and ways from the counts at strides 2^m x coverage (m = 1 .. n; count[m - 1]) below a
 * level of `entries`: a bit-select or modulo index over S sets halves the count at each doubling
 * until 2^m >= S, then holds it at the ways. Returns 0 with sets and ways when the counts halve
 * (within tol) and then hold, with sets x ways = entries; -1 otherwise (hashed or unequal sets, or
 * too few strides to see the count hold). */
int gs_tlb_sets(uint64_t entries, const uint64_t *count, unsigned n, double tol, uint64_t *sets,
                uint64_t *ways);

#endif
