/* A TLB level from walks at power-of-two strides, the "ladder" (docs/methods.md, "TLBs", second
 * level; memory-hierarchy paper, Fig. 11: under LRU each entry added past a full set of W ways
 * makes W + 1 entries miss per cyclic pass). For a level of E entries covering C bytes in S sets
 * of W ways whose index spreads consecutive entries evenly over the sets at stride C (bit-select
 * or XOR hash), a warm cyclic walk of n regions at stride s <= C keeps C / s regions in one entry:
 * its count is E x C / s, and its *full rise* (every entry missing once a pass, from
 * n = count x (W + 1) / W on) is penalty x s / C. Doubling the stride from the first level's page
 * doubles the full rise up to C and holds it from there. At stride C the rise past E is the
 * staircase step(E + k) = penalty x (W + 1) k / (E + k) for 0 <= k <= S = E / W: misses per pass
 * m(n) = step(n) x n / penalty = (W + 1)(n - E), a line whose slope is W + 1 and whose root is E.
 * Pure. */
#ifndef GS_TLB_LADDER_H
#define GS_TLB_LADDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum gs_ladder_rise {
    GS_RISE_DOUBLED = 0,    /* the stride is at most the coverage: go on */
    GS_RISE_HELD,           /* the full rise stopped growing: the previous stride is the coverage */
    GS_RISE_BELOW,          /* under the previous one: the count did not halve (a hashed index
                               past the coverage holds it), the previous stride is the coverage */
    GS_RISE_OTHER,          /* none of these (noise, a policy or index the ladder does not model) */
} gs_ladder_rise;

/* Verdict on the rise of a walk at twice the count the previous stride predicts for this one
 * (rise) against the previous stride's full rise (prev), relative tolerance tol. */
gs_ladder_rise gs_tlb_ladder_rise(double prev, double rise, double tol);

/* The LRU step of n regions at stride C over a level of `entries` in sets of `ways` (evenly
 * spread): 0 up to the entries, penalty x (ways + 1)(n - entries) / n on the staircase, penalty
 * from entries x (ways + 1) / ways on. */
double gs_tlb_staircase_step(uint64_t entries, uint64_t ways, double penalty, uint64_t n);

typedef enum gs_staircase_verdict {
    GS_STAIR_FOUND = 0,     /* entries and ways set */
    GS_STAIR_FEW,           /* fewer than two distinct counts on the staircase */
    GS_STAIR_SLOPE,         /* the slope is not a whole number of misses (ways + 1 >= 2) */
    GS_STAIR_ROOT,          /* the root is not a whole count */
} gs_staircase_verdict;

/* Entries and ways from k walks on the staircase at stride C (counts n[], steps step[], full
 * rise penalty): the least-squares line through m = step x n / penalty; its slope must lie
 * within slope_tol of a whole number >= 2 (ways + 1), and the root of the line of that whole
 * slope through the counts within root_tol of a whole count. *slope and *root get the fitted
 * values (NaN when not reached). */
gs_staircase_verdict gs_tlb_staircase_fit(const double *n, const double *step, size_t k,
                                          double penalty, double slope_tol, double root_tol,
                                          double *slope, double *root, uint64_t *entries,
                                          uint64_t *ways);

/* Whether the rise from a count's step (below) to the next walked count's (above) is an edge
 * beyond the walks' scatter: each step (an average less its base walk's) scatters by sigma
 * cycles, so their difference by sqrt(2) x sigma, and the rise must exceed z times that (and be
 * positive). Noise-free walks (sigma 0) resolve any rise; a search that picked the edge where the
 * steps crossed a threshold picked its noise too, hence z of 4 rather than 2. */
bool gs_tlb_edge_resolved(double below, double above, double sigma, double z);

/* Standard error (regions) of the staircase's root fitted through k walks (counts n[], rises
 * step[]) at whole slope w1 over the full rise penalty, when each step scatters by sigma cycles:
 * every rise is a step less the reference's step (shared by the k rises) and the penalty is a
 * rise at another stride. First-order propagation through root = mean(n) - mean(m) / w1,
 * m = step x n / penalty. NaN when the inputs give no root. */
double gs_tlb_staircase_root_se(const double *n, const double *step, size_t k, double penalty,
                                double w1, double sigma);

/* Whether a fitted root names one whole count beyond its scatter: root +- z x se lies inside
 * (e - 1/2, e + 1/2) around the nearest whole count e. */
bool gs_tlb_root_resolved(double root, double se, double z);

#endif
