/* Fit of Eq. 6 of the roofline paper (Lemeire et al., Section VI.C, "varying-size random walk") to
 * a latency-against-array-size curve: while an array of arraySize bytes fits a cache of CacheSize
 * bytes every access hits; past it the hit ratio is CacheSize / arraySize, so
 *     CPMR = Λ_L1 + (Λ_L2 - Λ_L1) (1 - CacheSize / arraySize)        (Eq. 6)
 * With several levels the steps add up: CPMR(s) = Λ_0 + Σ_k (Λ_k+1 - Λ_k) max(0, 1 - C_k / s).
 * The fit finds the number of levels, each capacity C_k and each latency Λ_k. Pure: no device.
 * Eq. 6 takes the hit ratio past a cache to be C/s (data found "by chance"), which holds for random
 * replacement; an LRU cache walked in the same cyclic order misses almost always once s > C, a
 * sharp step that Eq. 6 fits with too small a capacity. gs_eq6_fit_curve_sharp therefore also
 * tries hit ratios (C_k/s)^g_k with a sharpness g_k > 1 per level (g = 1 is Eq. 6) and keeps the
 * best by BIC. */
#ifndef GS_EQ6_H
#define GS_EQ6_H

#include <stddef.h>

#define GS_EQ6_MAX_LEVELS 4

typedef struct gs_eq6_fit {
    int levels;                                   /* caches (steps) found, 0..max_levels */
    double capacity_bytes[GS_EQ6_MAX_LEVELS];     /* C_k, increasing */
    double latency[GS_EQ6_MAX_LEVELS + 1];        /* Λ_0 .. Λ_levels, in the unit of the input */
    double residual_sd;                           /* sd of the residuals of the chosen fit */
    double residual_sd_ci95;                      /* the jackknife's half-width of it (eq6.c;
                                                     0 where none was made) */
    double capacity_ci95[GS_EQ6_MAX_LEVELS];      /* the capacities the same fits put the
                                                     step at: the farthest from the best, at
                                                     least half a grid step (1/32 octave) and
                                                     the jackknife's reach (eq6.c) */
    double latency_ci95[GS_EQ6_MAX_LEVELS + 1];   /* half-width of a 95 % interval of each
                                                     latency: least squares' t x standard error
                                                     with the capacities and sharpnesses held,
                                                     widened to the latencies of the fits with
                                                     one step moved that the data cannot tell
                                                     from the best, and to t x the jackknife's
                                                     standard error over the sizes (eq6.c);
                                                     NaN: not known */
    double sharpness[GS_EQ6_MAX_LEVELS];          /* g_k: hit ratio (C_k/s)^g_k past C_k; 1 = Eq. 6
                                                     (0 is read as 1) */
    double sharpness_ci95[GS_EQ6_MAX_LEVELS];     /* the farthest g_k of the jackknife's refits
                                                     from g_k (0: every refit kept it) */
    size_t n;                                     /* points used (finite, size > 0) */
} gs_eq6_fit;

/* Eq. 6 with fit's levels (and sharpness) at one array size. */
double gs_eq6_eval(const gs_eq6_fit *fit, double size_bytes);

/* Fit latency[i] measured at size_bytes[i] (any order; NaN and non-positive sizes are skipped)
 * with at most max_levels steps (<= GS_EQ6_MAX_LEVELS). The number of levels is chosen by the
 * Bayesian information criterion, and a step is kept only when it rises by more than
 * 4 residual sd and 15% of the latency below it, with at least two points past its capacity,
 * and beyond the 95 % intervals of the latencies on either side of it together (otherwise the
 * best fit with fewer levels is taken). Capacities lie between the smallest and largest size,
 * at least 2x apart. 0, or -1 when fewer than 3 usable points (then fit->levels is 0 and the
 * latencies NaN). */
int gs_eq6_fit_curve(const double *size_bytes, const double *latency, size_t n, int max_levels,
                     gs_eq6_fit *fit);

/* The same, also trying sharpness 2, 4, 8, 16 and 32 for each level (one more parameter per level
 * in the BIC). */
int gs_eq6_fit_curve_sharp(const double *size_bytes, const double *latency, size_t n,
                           int max_levels, gs_eq6_fit *fit);

/* Bounds on the slowest level's latency that hold whatever shape the hit ratio takes past the
 * last capacity. The fit extrapolates its (C/s)^g past the largest size walked; a hit curve of
 * another shape (an LRU L2 filled 64 B at a time, walked in 32-B slots) nears its limit slower,
 * and a walk that ends at 3 x the L2 then put the limit outside the fit's own interval. Every
 * average is a mix of the levels' latencies, none slower than the slowest: *lo is the slowest
 * walk less margin. At array size s at most cached_bytes / s of the accesses hit (a random
 * element is held with no more chance than that, whatever the policy), each no faster than
 * `fastest`: *hi is the least over the sizes above cached_bytes of
 * (y + margin - fastest h) / (1 - h), h = cached_bytes / s. 0, or -1 when no size lies above
 * cached_bytes (*hi is then infinite) or no size is usable. */
int gs_eq6_last_bounds(const double *size_bytes, const double *latency, size_t n, double fastest,
                       double cached_bytes, double margin, double *lo, double *hi);

/* The most bytes the caches in front of the fit's slowest level can hold, for
 * gs_eq6_last_bounds: each fitted capacity with its interval (a capacity fitted below the true
 * one, 2,010 B for a 2 KB constant cache, put a walk of 2,048 B that still hit throughout past
 * the caches, and the upper bound 10 cycles under the slowest walk), the last one at least
 * last_at_least bytes (a global walk's L2 as the driver reports it; 0: none). */
double gs_eq6_cached_bound(const gs_eq6_fit *fit, double last_at_least);

/* Bounds on the latency of each level between the fastest and the slowest (0 < k < levels)
 * that hold whatever shape the hit curve takes and whatever the policy: a hashed L1 of 64-B lines
 * walked in 32-B slots hits past its capacity on a curve of its own (spatial hits fade with the
 * array size), no (C/s)^g, and the fit lowered the next level's latency to match, 193.5 +- 2.4
 * cycles for an L2 hit of 201.5. A walk below level k's capacity (the fitted one less its
 * interval) is served by level k and faster ones only: lo[k] is the slowest such walk less
 * margin. At any size s at least twice the caches in front of level k (the fitted capacities
 * below it with their intervals, `cached`) at most cached / s of the accesses hit in front of
 * it, each no faster than the fastest level, and every other access costs at least level k's
 * latency: hi[k] is the least over those sizes of (y + margin - Λ_0 h) / (1 - h),
 * h = cached / s. margin is each walk's scatter about the fit; where the walks on level k's
 * plateau scatter less among themselves (t x the sd of each against its neighbours), that is
 * the margin (the fit's residuals also hold its misfit at the steps). With both bounds the
 * level's latency is their middle and its interval half their span (the fit's value may lie
 * outside them: 193.5 or 210.6 for a hit of 201.5 past hashed L1s); with one, the fit's value
 * stays and its interval widens to hold it. A level whose bounds conflict (lo > hi: a capacity
 * or its interval is not where the walks say) keeps its interval and comes back as bit k of the
 * result, its latency not determined by the walks. lo and hi (GS_EQ6_MAX_LEVELS + 1 each) get
 * every level's bounds, -/+ infinity where there is none (the fastest and the slowest level, no
 * size on that side). */
unsigned gs_eq6_widen_between(gs_eq6_fit *fit, const double *size_bytes, const double *latency,
                              size_t n, double margin, double *lo, double *hi);

#endif
