/* Part of the backend vocabulary (src/plan.h): the icache operation: one warp executing a block
 * of straight-line code of a given size in a loop, for the instruction-cache footprint sweep.
 * Plain C, shared by the probes and both backends. */
#ifndef GS_PLAN_ICACHE_H
#define GS_PLAN_ICACHE_H

#include <stddef.h>
#include <stdint.h>

#include "util/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The code sizes a backend has kernels for: GS_ICACHE_SIZES sizes from 4 KB to 256 KB, powers of
 * two and their midpoints (12 sizes); gs_icache_size(i) gives the i-th in bytes. */
#define GS_ICACHE_SIZES 12
uint64_t gs_icache_size(int i);

/* One warp runs a block of code_bytes of straight-line independent integer adds (16 bytes each:
 * every instruction since sm_70 is 16 bytes), loops times per repetition after one untimed pass;
 * each repetition is timed by clock64 around its loops. code_bytes must be one of
 * gs_icache_size's. */
typedef struct gs_icache_plan {
    uint64_t code_bytes;
    unsigned loops;               /* passes over the block per repetition, >= 1 */
    unsigned repeats;             /* timed repetitions, each recorded */
} gs_icache_plan;

typedef struct gs_icache_result {
    double *values;               /* caller-allocated, repeats long: cycles per instruction of the
                                     block (the loop's own branch and counter included) */
    size_t n;
} gs_icache_result;

#ifdef __cplusplus
}
#endif

#endif
