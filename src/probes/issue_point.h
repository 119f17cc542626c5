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
    bool multi_block;        /* more blocks than SMs: several blocks per SM */
    unsigned error_reps;     /* repetitions whose timing failed the backend's checks (left out) */
    bool measurement_error;  /* every repetition failed, or the point is above its ceiling */
    double clock64_ipc;      /* median throughput by clock64 spans across blocks (the old method) */
    double kernel_ipc;       /* median whole-kernel throughput (a lower bound) */
    double start_spread_cycles; /* median over repetitions of the backend's start spread */
    unsigned clock_mismatch_sms; /* most SMs with incomparable clock64 in one repetition */
} gs_issue_point;

/* Calibrate plan->iterations so that one run takes about target_cycles, then run reps times;
 * repetitions that the backend marks as a measurement error are left out of the summaries. 0 or
 * the backend's error. */
int gs_issue_measure(gs_probe_ctx *ctx, gs_issue_plan *plan, unsigned reps, double target_cycles,
                     gs_issue_point *out, gs_error *err);

/* The plan for `warps` concurrent warps per SM on every SM (one run): one block per SM when a block
 * can hold them, else two equal blocks (warps even). false when warps cannot be laid out so. */
bool gs_issue_plan_warps(const gs_device_info *info, gs_instr instr, unsigned ilp, unsigned warps,
                         gs_issue_plan *plan);

/* The warps-per-SM grid of the sweeps: every count from 1 to the largest block, then multiples
 * of 4 up to the SM's limit. Fills grid (capacity cap), returns the count. */
size_t gs_issue_warps_grid(const gs_device_info *info, unsigned *grid, size_t cap);

/* Tolerance above a type's ceiling (its throughput with one block per SM, where the timing is
 * sound) beyond which a point is a measurement error: no unit runs faster than its saturation. */
#define GS_ISSUE_CEILING_TOLERANCE 0.02

/* Marks as measurement errors the multi-block points of pts[0..n) whose median throughput is
 * above ceiling x (1 + GS_ISSUE_CEILING_TOLERANCE) (gs_pipe_over_ceiling); returns how many. */
size_t gs_issue_flag_over_ceiling(gs_issue_point *pts, size_t n, double ceiling);

/* The ceiling of a set of points: the highest median throughput among its one-block points
 * without measurement error (0 if none). */
double gs_issue_ceiling(const gs_issue_point *pts, size_t n);

/* Measures the reference of a type's ceiling: one block per SM of the largest block (as many warps
 * as one block may hold) at ILP 4, where the timing is sound and every unit saturates that can;
 * *ceiling is its median throughput (0 if the point failed its timing checks). */
int gs_issue_reference_ceiling(gs_probe_ctx *ctx, gs_instr t, unsigned reps, double target_cycles,
                               double *ceiling, gs_error *err);

/* Parse a comma-separated list of instruction names ("ffma,dfma" or "all") into want[]. */
int gs_issue_parse_types(const char *list, bool want[GS_INSTR_COUNT], gs_error *err);

#endif
