/* Part of the backend vocabulary (src/plan.h): the persist operation: the L2 persistence window.
 * Plain C, shared by the probes and both backends. */
#ifndef GS_PLAN_PERSIST_H
#define GS_PLAN_PERSIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The L2 persistence window (CUDA's access policy window, compute capability 8.0+). A measuring
 * plan sets this process's persisting-L2 set-aside (cudaDeviceSetLimit with
 * cudaLimitPersistingL2CacheSize: a limit of the calling context, not a device-wide setting) for
 * the duration of the plan and restores the previous value before returning, on failure too.
 * The device holds a hot region H, a cold region D of the same size and a streaming buffer S;
 * every round is: sweep S; chase the chain in H (hot); chase it again (warm); chase the same
 * chain in D (cold); sweep S; read all of H (hot read); read it again (warm read); read all of D
 * (cold read). The plan's stream carries the mode's access policy window over H, if any; every
 * kernel of the plan runs on it. One untimed round comes first. */
typedef enum gs_persist_mode {
    GS_PERSIST_QUERY = 0,         /* only the limits: nothing allocated, run or changed */
    GS_PERSIST_NONE,              /* no window: the baseline */
    GS_PERSIST_PERSISTING,        /* window over H, hitRatio 1, hitProp persisting, missProp
                                     streaming */
    GS_PERSIST_NORMAL,            /* the same window with hitProp normal: the control */
    GS_PERSIST_MODE_COUNT
} gs_persist_mode;

typedef struct gs_persist_plan {
    gs_persist_mode mode;
    uint64_t set_aside_bytes;     /* persisting L2 set-aside asked for while the plan runs */
    uint64_t hot_bytes;           /* size of H (and of D); at most the window's maximum */
    const uint64_t *chain;        /* byte offsets in H (and D) the chases visit, in order, wrapping
                                     from the last to the first; multiples of 8 */
    size_t chain_len;
    uint64_t stream_bytes;        /* size of S, the sweep meant to evict H */
    unsigned rounds;              /* timed rounds, each recorded */
} gs_persist_plan;

typedef struct gs_persist_result {
    uint64_t max_set_aside_bytes; /* cudaDevAttrMaxPersistingL2CacheSize; 0: no persisting L2 */
    uint64_t max_window_bytes;    /* cudaDevAttrMaxAccessPolicyWindowSize; 0: no window */
    uint64_t set_aside_bytes;     /* the set-aside in force while the plan ran (read back) */
    uint64_t previous_limit_bytes;/* the limit found before, and restored */
    /* rounds entries each, caller-allocated (measuring modes): chases in cycles per load
     * (clock64 over the chain), reads in seconds (globaltimer, first start to last end); a
     * backend that cannot time the reads leaves them NAN */
    double *hot_cycles, *warm_cycles, *cold_cycles;
    double *hot_read_s, *warm_read_s, *cold_read_s;
    size_t n;
} gs_persist_result;

const char *gs_persist_mode_name(gs_persist_mode m);         /* "none", "persisting", ... */
/* What every backend checks of a plan (GS_ERR_USAGE naming the field). */
int gs_persist_plan_check(const gs_persist_plan *p, const gs_persist_result *out, gs_error *err);

#ifdef __cplusplus
}
#endif

#endif
