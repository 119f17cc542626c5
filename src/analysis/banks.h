/* Inference of shared-memory bank structure from latency-vs-stride curves (memory-hierarchy
 * paper, sections 3.1 and 4.1): each hypothesis (bank count B, bank width W) predicts how many
 * conflict-free passes (wavefronts) every measured access needs; the latencies are fitted as
 * intercept(access width) + conflict_cycles_per_way * wavefronts, and the hypothesis with the
 * smallest residual wins. Pure functions over arrays; no device. */
#ifndef GS_ANALYSIS_BANKS_H
#define GS_ANALYSIS_BANKS_H

#include <stdbool.h>
#include <stddef.h>

/* One measured access pattern: one warp, lane i reads element (i / group_lanes) * stride_elems of
 * access_bytes; latency_cycles is the median of its repeats. */
typedef struct gs_bank_point {
    unsigned access_bytes;        /* 2, 4, 8 or 16 */
    unsigned stride_elems;
    unsigned group_lanes;         /* 0 or 1: every lane its own address */
    double latency_cycles;
} gs_bank_point;

#define GS_BANK_WIDTHS 5          /* intercepts indexed by log2(access_bytes): 1 .. 16 B */

typedef struct gs_bank_fit {
    bool determined;              /* false: reason says why; the other fields may be partial */
    char reason[256];
    unsigned banks;
    unsigned bank_width_bytes;
    double conflict_cycles_per_way;
    double conflict_ci95;         /* 1.96 x standard error of the fitted slope */
    double intercept_cycles[GS_BANK_WIDTHS]; /* latency of "zero" wavefronts, per access width */
    bool has_width[GS_BANK_WIDTHS];
    double rms_cycles;            /* residual root mean square of the best hypothesis */
    unsigned runner_up_banks;     /* best hypothesis with another (B, W) */
    unsigned runner_up_width_bytes;
    double runner_up_rms_cycles;
    bool multicast;               /* the best hypothesis's broadcast rule */
    bool rule_determined;         /* false when the other rule fits as well (no point differs) */
    double other_rule_rms_cycles; /* residual rms of the same (B, W) under the other rule */
    size_t points;                /* points used */
} gs_bank_fit;

/* Wavefronts one warp access needs on B banks of W bytes: the warp goes in phases of
 * B * W / access_bytes lanes (1..32); a phase needs as many passes as the most distinct rows
 * any bank is asked for; with multicast, lanes reading one bank word share it, without it only
 * the most-read word is broadcast. 0 for impossible arguments. */
unsigned gs_bank_predict_wavefronts(unsigned banks, unsigned bank_width_bytes, bool multicast,
                                    unsigned access_bytes, unsigned stride_elems,
                                    unsigned group_lanes);

/* Fit all hypotheses B in 2..256, W in 1..16 (powers of two), broadcast rule multicast or single,
 * to all points. Not determined when fewer than 3 points per width, when no conflicts are visible
 * (slope not above its ci95), or when another (B, W) fits as well (within rel_tie of the best
 * residual); the rule is determined when the other rule's residual is not within rel_tie. */
int gs_bank_infer(const gs_bank_point *points, size_t n, double rel_tie, gs_bank_fit *out);

/* Predicted latency of a point under a determined fit and a broadcast rule; NaN if the fit has
 * no intercept for the point's width. */
double gs_bank_fit_predict(const gs_bank_fit *fit, bool multicast, const gs_bank_point *point);

#endif
