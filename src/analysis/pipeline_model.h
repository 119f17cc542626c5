/* The pipeline model of the roofline paper (Lemeire et al., sections III and V): what a curve of
 * throughput against concurrent warps per SM says about an instruction type (issue latency
 * lambda, completion latency Lambda, the saturation peak, the knee and the ridge point; Eq. 4
 * and 5), the CPI equations with runs (section V.B) that turn a runtime into CPI, and the model
 * that predicts the curve back from lambda and Lambda. Pure functions over arrays. */
#ifndef GS_PIPELINE_MODEL_H
#define GS_PIPELINE_MODEL_H

#include <stdbool.h>
#include <stddef.h>

/* The paper's ridge rule: the fewest warps whose throughput differs from the peak by less than 5%
 * (section III). A point within GS_PIPE_RIDGE_TIE (0.1%) of the 5% line counts as outside, so that
 * noise does not decide a point that sits on the line (with 4 schedulers, 19 warps of an
 * issue-bound type sit exactly on it: 19 / (5 lambda_s) = 0.95 x 4 / lambda_s). */
#define GS_PIPE_RIDGE_TOLERANCE 0.05
#define GS_PIPE_RIDGE_TIE 0.001

/* What one curve (throughput against warps per SM, at one ILP) says. Throughput is in warp
 * instructions per cycle per SM, so CPI_warp = 1 / throughput (section V.B). */
typedef struct gs_pipe_curve_fit {
    double lambda_issue_cycles;       /* Eq. 4: min CPI_warp over the curve = 1 / peak */
    double Lambda_completion_cycles;  /* Eq. 5: max CPI_warp over the curve */
    double peak_ipc;                  /* the saturation peak, warp instructions per cycle per SM */
    double knee_warps;                /* where the latency line w / Lambda meets the peak:
                                         Lambda / lambda */
    double ridge_warps;               /* fewest warps with throughput >= (1 - tol + tie) * peak */
    size_t peak_index, min_index;     /* points that gave lambda and Lambda */
} gs_pipe_curve_fit;

/* Analyse a curve of n points (warps[i], ipc[i]) in any order; points with a non-finite or
 * non-positive value are skipped. tol is the ridge tolerance (GS_PIPE_RIDGE_TOLERANCE).
 * 0, or -1 when no point is usable. */
int gs_pipe_fit_curve(const double *warps, const double *ipc, size_t n, double tol,
                      gs_pipe_curve_fit *out);

/* The pipeline model of one instruction type on one SM (section IV.A, with the SM's schedulers:
 * warps are spread evenly over them and each scheduler issues to its share of the units). */
typedef struct gs_pipe_model {
    double lambda_issue_cycles;       /* per SM: 1 / peak warp instructions per cycle */
    double Lambda_completion_cycles;  /* a dependent instruction waits this long */
    unsigned schedulers;              /* warp schedulers per SM, >= 1 */
} gs_pipe_model;

/* Predicted throughput (warp instructions per cycle per SM) of warps concurrent warps each running
 * ilp independent chains: the busiest scheduler holds ceil(warps / S) warps, each issuing a group
 * of ilp instructions every max(Lambda, ilp * lambda_s) cycles, with lambda_s = S * lambda the
 * scheduler's own issue interval; the SM finishes with its busiest scheduler. 0 for warps < 1. */
double gs_pipe_model_ipc(const gs_pipe_model *m, double warps, unsigned ilp);

/* Root-mean-square relative error of the model against n measured points (warps, ipc, ilp).
 * NaN when no point is usable. */
double gs_pipe_model_error(const gs_pipe_model *m, const double *warps, const double *ipc,
                           const unsigned *ilp, size_t n);

/* The software parameters of one launch (Table I and section V.B). */
typedef struct gs_pipe_launch {
    double work_items;       /* threads in the grid */
    double wg_size;          /* WGSize: threads per block */
    double max_conc_wg;      /* MaxConcWG, or the Eq. 2 limit from shared memory, whichever less */
    double max_conc_warps;   /* MaxConcWarps per SM */
    double nbr_cu;           /* NbrCU: SMs */
    double warp_size;        /* WarpSize */
    double instr_kernel;     /* instrKernel: instructions of the type per work item */
} gs_pipe_launch;

/* The CPI equations with runs (section V.B). */
typedef struct gs_pipe_runs {
    double wg;               /* WG = ceil(workItems / WGSize) */
    double conc_wg;          /* concWG = min(MaxConcWG, WG) */
    double warps_wg;         /* warpsWG = ceil(WGSize / WarpSize) */
    double actual_warp_size; /* WGSize / warpsWG */
    double conc_warps;       /* min(MaxConcWarps, warpsWG * concWG) */
    double total_warps;      /* workItems / actualWarpSize */
    double runs_cu;          /* ceil(totalWarps / NbrCU / concWarps) */
    double instr_run;        /* instrKernel * WGSize * concWG */
} gs_pipe_runs;

/* Fill the runs of a launch. 0, or -1 when a parameter is not positive. */
int gs_pipe_runs_of(const gs_pipe_launch *l, gs_pipe_runs *out);

/* CPI_warp of a launch that took runtime_cycles (cyclesOfRun = runtime / runsCU;
 * CPI_warp = cyclesOfRun / instrRun * actualWarpSize). NaN on bad input. */
double gs_pipe_cpi_warp(const gs_pipe_launch *l, double runtime_cycles);

/* The model's runtime of a launch: runsCU runs, each of concWarps warps running instrKernel
 * instructions at the throughput gs_pipe_model_ipc predicts. NaN on bad input. */
double gs_pipe_predict_cycles(const gs_pipe_model *m, const gs_pipe_launch *l, unsigned ilp);

/* The ridge point the model predicts on a grid of warps (the same 5% rule as the measurement,
 * against the model's own peak over the grid). NaN when the grid is empty. */
double gs_pipe_model_ridge(const gs_pipe_model *m, const double *warps, size_t n, unsigned ilp,
                           double tol);

/* Whether a throughput reads above a ceiling measured where the timing is sound (one block per SM)
 * by more than the relative tolerance: no unit runs faster than its saturation, so such a point is
 * a measurement error. false when the ceiling is unknown (<= 0 or not finite). */
bool gs_pipe_over_ceiling(double ipc, double ceiling, double tolerance);

#endif
