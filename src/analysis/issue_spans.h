/* Per-SM timing of a multi-block kernel from per-block stamps (pure; used by the CUDA issue
 * operation, unit-tested with synthetic stamps in tests/analysis/test_issue_spans.c).
 *
 * Each block records, behind barriers, its SM cycle counter (clock64) and the GPU-wide
 * globaltimer (ns) at the start and end of its timed region, and its SM id (%smid) at both ends.
 * clock64 is a per-SM counter: values of two blocks are comparable only when both ran on the same
 * physical SM, and a block's own clock64 span is always sound. globaltimer is one clock for the
 * whole GPU. So an SM's time is taken as the globaltimer span from its earliest block start to its
 * latest block end, converted to cycles with that SM's own clock (its blocks' clock64 cycles over
 * their globaltimer ns); the clock64 span of the same SM (latest end minus earliest start across
 * blocks) is computed as well, and an SM where the two disagree is counted: there the blocks that
 * share an SM id did not share one cycle counter. Blocks whose SM id changed (migrated), more
 * blocks on one SM than the plan allows, or more SM ids than SMs mean that %smid does not name the
 * physical SM; the caller then cannot group by SM (sm_grouping_ok false). */
#ifndef GS_ANALYSIS_ISSUE_SPANS_H
#define GS_ANALYSIS_ISSUE_SPANS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct gs_block_stamp {
    uint64_t start_cycles, end_cycles; /* clock64 of the block's SM */
    uint64_t start_ns, end_ns;         /* globaltimer */
    unsigned smid_start, smid_end;     /* %smid read with each pair */
} gs_block_stamp;

typedef struct gs_span_summary {
    double sum_sm_cycles;       /* sum over SMs of the SM's span (globaltimer x the SM's clock) */
    double max_sm_cycles;       /* the longest of those spans */
    double sum_sm_clock64_cycles;/* sum over SMs of the clock64 span (latest end - earliest start) */
    double kernel_cycles;       /* whole kernel: latest end - earliest start over all blocks (ns)
                                   x the median clock */
    double clock_khz;           /* all blocks' clock64 cycles over their globaltimer ns */
    double conc_blocks;         /* median over SMs of the blocks running on average: the sum of the
                                   SM's block spans over the SM's span (globaltimer) */
    double start_spread_cycles; /* median over SMs of (latest - earliest block start) */
    double worst_mismatch;      /* largest relative clock64 / globaltimer span disagreement */
    double resolution_ns;       /* the globaltimer step used */
    unsigned sms;               /* distinct SM ids */
    unsigned max_blocks_per_sm; /* most blocks with one SM id */
    unsigned moved_blocks;      /* blocks whose SM id changed between start and end */
    unsigned clock_mismatch_sms;/* SMs whose clock64 span disagrees with the globaltimer span */
} gs_span_summary;

/* Tolerance of the clock64 / globaltimer agreement of one SM: a relative part (the clock may move
 * a little during a kernel) plus the globaltimer steps at both ends. */
#define GS_SPAN_REL_TOLERANCE 0.01

/* Sorts st by SM id and start, and fills *out. resolution_ns: the globaltimer's step; 0: taken
 * from the stamps (the greatest common divisor of their globaltimer differences). 0, or -1 when a stamp is malformed (end before start, no ns elapsed,
 * n == 0); *bad is then the index of the first such block (before sorting). */
int gs_issue_spans(gs_block_stamp *st, size_t n, double resolution_ns, gs_span_summary *out,
                   size_t *bad);

/* Whether the per-SM grouping by %smid can be trusted: no block moved, no SM id held more than
 * blocks_per_sm_limit blocks (when the limit is > 0), no more SM ids than SMs. */
bool gs_issue_spans_grouping_ok(const gs_span_summary *s, unsigned blocks_per_sm_limit,
                                unsigned sm_count);

#ifdef __cplusplus
}
#endif

#endif
