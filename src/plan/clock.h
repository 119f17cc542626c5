/* Part of the backend vocabulary (src/plan.h): the clock operation: SM cycles against the
 * globaltimer. Plain C, shared by the probes and both backends. */
#ifndef GS_PLAN_CLOCK_H
#define GS_PLAN_CLOCK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Reads the SM cycle counter (clock64) and the globaltimer (ns) together, first back to back to
 * measure what each read costs, then across windows of window_ns to measure the SM clock. */
typedef struct gs_clock_plan {
    unsigned windows;             /* how many frequency windows, >= 1 */
    uint64_t window_ns;           /* length of each window (spin on globaltimer) */
    unsigned read_samples;        /* back-to-back reads used for the read-cost figures */
} gs_clock_plan;

typedef struct gs_clock_result {
    double clock64_read_cycles;      /* median cost of one clock64() read, in cycles */
    double globaltimer_read_cycles;  /* median cost of one %globaltimer read, in cycles */
    double globaltimer_resolution_ns;/* smallest nonzero step seen in globaltimer */
    /* windows entries, caller-allocated (plan.windows long): */
    uint64_t *window_cycles;
    uint64_t *window_ns;
    double driver_sm_clock_khz;      /* the driver's current SM clock (NVML) read while the windows
                                        ran; 0 if unavailable */
} gs_clock_result;

#ifdef __cplusplus
}
#endif

#endif
