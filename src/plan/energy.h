/* Part of the backend vocabulary (src/plan.h): the energy operation: a workload of known
 * operation or byte count run for a while, with the device's total-energy counter read all the
 * while. Plain C, shared by the probes and both backends. */
#ifndef GS_PLAN_ENERGY_H
#define GS_PLAN_ENERGY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "plan/mma.h"
#include "util/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What runs while the counter is read, and what one of its operations is. */
typedef enum gs_energy_work {
    GS_ENERGY_IDLE = 0,           /* nothing: the idle power */
    GS_ENERGY_FFMA,               /* fp32 FMA, per lane (the issue kernels) */
    GS_ENERGY_DFMA,               /* fp64 FMA, per lane */
    GS_ENERGY_HFMA2,              /* fp16x2 FMA instruction, per lane (two half FMAs) */
    GS_ENERGY_MMA,                /* mma.sync of plan.type, per flop (s8: integer op) */
    GS_ENERGY_SMEM,               /* a byte read from shared memory (the level-stream kernels) */
    GS_ENERGY_L1,                 /* a byte read from the L1 (a footprint under it, per SM) */
    GS_ENERGY_L2,                 /* a byte read from the L2 (a quarter of it, over the grid) */
    GS_ENERGY_DRAM,               /* a byte read from DRAM (eight times the L2, at least 1 GiB) */
    GS_ENERGY_H2D,                /* a byte copied host to device (pinned cudaMemcpy) */
    GS_ENERGY_WORK_COUNT
} gs_energy_work;

typedef struct gs_energy_plan {
    gs_energy_work work;
    gs_mma_type type;             /* MMA: the input type */
    double seconds;               /* how long the work runs (or the idle wait lasts), > 0 */
    size_t max_reads;             /* room in the result's arrays */
} gs_energy_plan;

typedef struct gs_energy_result {
    double *t_s;                  /* caller-allocated, max_reads long: host seconds of each counter
                                     read from the plan's start */
    double *mj;                   /* the counter's value at each read, mJ */
    size_t n;                     /* reads made */
    double busy_start_s;          /* the window the work ran in (IDLE: the wait), host seconds */
    double busy_end_s;
    double ops;                   /* operations (bytes) the work did in the window */
} gs_energy_result;

const char *gs_energy_work_name(gs_energy_work w);            /* "idle", "ffma", ... */

#ifdef __cplusplus
}
#endif

#endif
