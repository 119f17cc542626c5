/* Verdicts of prime+probe on the L2 (the backend's evict operation; docs/methods.md, "L2 sets and
 * ways"): whether a pool evicted a target, judged against the target's own levels. A target
 * reads three levels: its hit (near or far partition), the far hit where the near partition kept
 * only a copy of it (a pool can evict the copy and leave the line), and a miss. Its threshold
 * lies midway between the highest level it reads while kept and its miss, so a far hit never
 * reads as a miss. Pure functions over arrays of cycles; arrays of several targets are
 * repetition-major (entry r x n + i is target i's reading in repetition r). */
#ifndef GS_EVICT_VERDICT_H
#define GS_EVICT_VERDICT_H

#include <stdbool.h>
#include <stddef.h>

/* What one target reads, from its calibration. */
typedef struct gs_evict_target {
    double hit_cycles;       /* median of its own hits */
    double kept_cycles;      /* the highest level it reads while the pool leaves it: the larger
                                of its hit, its probe under a pool too small to evict it, and
                                the far partition's hit when that lies below its miss */
    double miss_cycles;      /* median probe after a pool that evicts it */
    double noise_cycles;     /* spread (max - min) of its own hits */
    double threshold_cycles; /* midway between kept and miss */
    bool usable;             /* miss - kept exceeds 4 x the noise (and 2 cycles) */
} gs_evict_target;

/* Target i of n (readings of `repeats` repetitions each): hits, probes under a quiet pool (too
 * small to evict: it flushes copies at most) and under the full pool (evicts); far_cycles is
 * the far partition's hit where known (NaN: not known). */
gs_evict_target gs_evict_calibrate(const double *hit, const double *quiet, const double *full,
                                   size_t repeats, size_t n, size_t i, double far_cycles);

/* Of n calibrated targets, the usable one whose miss lies furthest above its kept level in units
 * of its noise (plus one cycle); -1 when none is usable. */
int gs_evict_pick(const gs_evict_target *t, size_t n);

/* The threshold of a target whose hit was just measured (hit_cycles), under the miss level of a
 * calibrated target (the same for every line: memory and translation) and the far hit where
 * known (NaN: not). */
double gs_evict_threshold(double hit_cycles, double miss_cycles, double far_cycles);

/* Majority verdict over n probes of one target: true when more than half lie above threshold.
 * *value (may be NULL) = (median probe - threshold) / (miss - threshold): about -1 or less for a
 * kept target, about +1 for an evicted one; NaN when miss is not above the threshold. */
bool gs_evict_majority(const double *probe, size_t n, double threshold, double miss_cycles,
                       double *value);

#endif
