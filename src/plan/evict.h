/* Part of the backend vocabulary (src/plan.h): the evict operation: prime and probe of the L2
 * (eviction sets). Plain C, shared by the probes and both backends. */
#ifndef GS_PLAN_EVICT_H
#define GS_PLAN_EVICT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "plan/chase.h"
#include "util/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Prime+probe on the L2 (probe cache, "L2 sets and ways"): one buffer of footprint_bytes, every
 * load ld.global.cg (the L2 serves it, never the L1). Each repetition: warm_passes reads of
 * every pool line; each target loaded once and loaded again, timed (its own hit, just measured:
 * a target in the far L2 partition hits later than one in the near part); pool_passes reads of
 * every pool line; each target loaded again, timed (the probe: its own hit if the pool left it
 * in the L2, a miss if the pool evicted it). The targets' loads run in order from one thread
 * (a dependent load between two clock reads); a pool pass reads its lines in parallel and has
 * ended before anything after it starts. Every load of a plan runs on one SM (`sm`, SM 0 by
 * default) unless all_sms: then a pool pass reads its lines with the whole device, each line
 * from whichever SM its place in the list gives it. An L2 that keeps copies of a far
 * partition's lines near the SM that reads them (the H100) then sees a pool whose effect
 * depends on its order, not only on its lines: a search that removes lines moves every later
 * line to another SM (docs/methods.md, "L2 sets and ways"). */
#define GS_EVICT_MAX_TARGETS 64
#define GS_EVICT_MAX_REPEATS 64

typedef struct gs_evict_plan {
    uint64_t footprint_bytes;     /* every offset lies below it */
    const uint64_t *targets;      /* byte offsets, multiples of 8, n_targets of them */
    size_t n_targets;             /* 1 .. GS_EVICT_MAX_TARGETS */
    const uint64_t *pool;         /* byte offsets, multiples of 8, n_pool of them (may be 0) */
    size_t n_pool;
    unsigned warm_passes;         /* pool reads before the targets' first loads */
    unsigned pool_passes;         /* pool reads between the targets' hits and their probes */
    unsigned repeats;             /* repetitions of the whole sequence, each recorded (1 ..
                                     GS_EVICT_MAX_REPEATS) */
    bool all_sms;                 /* pool passes on every SM (above); false: the whole plan on
                                     SM `sm` */
    unsigned sm;                  /* the plan's SM (%smid numbering) when !all_sms */
    bool count_l2;                /* count the L2's sector lookups of the probe loads (the
                                     result's l2_*), where the device's info says counters;
                                     elsewhere the plan answers GS_ERR_UNSUPPORTED with why */
} gs_evict_plan;

typedef struct gs_evict_result {
    double *hit_cycles;           /* caller-allocated, repeats x n_targets (repetition-major):
                                     each target's second load, right after its first */
    double *probe_cycles;         /* the same shape: each target's load after the pool passes */
    size_t n;                     /* repetitions recorded */
    unsigned sm_moves;            /* repetitions whose hit and probe loads ran on different SMs
                                     (near and far differ per SM; all_sms only, where the
                                     targets run wherever their block lands); 0 where not
                                     known */
    /* With count_l2: the L2's sector lookups that hit and that missed, summed over every
     * repetition's probe loads (each target's load after the pool passes; an 8-B load looks up
     * one sector). The card counts the launch of the probes, whose own lookups (its code, its
     * parameters) it may add: the method calibrates them against a plan without a pool. The
     * misses read 0 where the card counts the hits alone in one pass (the method uses hits). */
    uint64_t l2_hit_sectors;
    uint64_t l2_miss_sectors;
} gs_evict_result;

/* What every backend checks of a plan (GS_ERR_USAGE naming the field). */
int gs_evict_plan_check(const gs_evict_plan *p, const gs_evict_result *out, gs_error *err);

#ifdef __cplusplus
}
#endif

#endif
