/* Part of the backend vocabulary (src/plan.h): the bank operation: shared-memory accesses of a
 * stride and width. Plain C, shared by the probes and both backends. */
#ifndef GS_PLAN_BANK_H
#define GS_PLAN_BANK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One warp reads shared memory: lane i reads word (i * stride_elems) of access_bytes each
 * (stride 0 = all lanes the same word, a broadcast). With group_lanes > 1, lanes are grouped and
 * each group shares one address (multicast): lane i reads word ((i / group_lanes) * stride_elems). */
typedef struct gs_bank_plan {
    unsigned access_bytes;        /* 2, 4, 8 or 16 */
    unsigned stride_elems;        /* 0..64, in elements of access_bytes */
    unsigned group_lanes;         /* 0 or 1: none; else lanes per shared address */
    unsigned repeats;             /* timed repetitions, each recorded */
} gs_bank_plan;

typedef struct gs_bank_result {
    double *cycles;               /* caller-allocated, repeats long: cycles of one warp access */
    size_t n;
} gs_bank_result;

#ifdef __cplusplus
}
#endif

#endif
