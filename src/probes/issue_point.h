/* What the pipeline, roofline and divergence probes share (src/probes/ only): one measured point
 * of an issue kernel (a calibration run that sizes the loop to a target number of cycles, then
 * repetitions summarised by their median and ci95), the plan for w concurrent warps per SM
 * (one block of w warps, or two equal blocks above the largest block, each held to its SM by
 * Eq. 2 of the roofline paper), and the --types list. */
#ifndef GS_PROBES_ISSUE_POINT_H
#define GS_PROBES_ISSUE_POINT_H

#include <stdbool.h>

#include "analysis/stats.h"
#include "probes/probe.h"

typedef struct gs_issue_point {
    gs_summary ipc;          /* warp instructions per cycle per SM over the repetitions */
    gs_summary cpi;          /* CPI_warp = 1 / ipc per repetition */
    double warps_per_sm;     /* concurrent warps per SM that ran (backend's count) */
    double cycles;           /* median kernel cycles */
    double ns;               /* median kernel time */
    double instructions;     /* warp instructions of one repetition */
    unsigned iterations;     /* loop trips after calibration */
} gs_issue_point;

/* Kernels of several blocks per SM run this many times longer (see gs_issue_measure). */
#define GS_ISSUE_MULTI_BLOCK_FACTOR 20

/* Calibrate plan->iterations so that one run takes about target_cycles (GS_ISSUE_MULTI_BLOCK_FACTOR
 * times that when the plan has more blocks than SMs), then run reps times. 0 or the backend's
 * error. */
int gs_issue_measure(gs_probe_ctx *ctx, gs_issue_plan *plan, unsigned reps, double target_cycles,
                     gs_issue_point *out, gs_error *err);

/* The plan for `warps` concurrent warps per SM on every SM (one run): one block per SM when a block
 * can hold them, else two equal blocks (warps even). false when warps cannot be laid out so. */
bool gs_issue_plan_warps(const gs_device_info *info, gs_instr instr, unsigned ilp, unsigned warps,
                         gs_issue_plan *plan);

/* The warps-per-SM grid of the sweeps: every count from 1 to the largest block, then multiples
 * of 4 up to the SM's limit. Fills grid (capacity cap), returns the count. */
size_t gs_issue_warps_grid(const gs_device_info *info, unsigned *grid, size_t cap);

/* Parse a comma-separated list of instruction names ("ffma,dfma" or "all") into want[]. */
int gs_issue_parse_types(const char *list, bool want[GS_INSTR_COUNT], gs_error *err);

#endif
