/* Summary of distributed shared-memory latencies by cluster rank (probe `cluster`): from the
 * median latency of a chase into each rank's shared memory (rank 0 = the block's own, 1..N-1 the
 * other blocks of its cluster) and the plain local shared-memory latency, the typical remote
 * latency, its spread over ranks and its ratio to the local one. Pure: no device. */
#ifndef GS_CLUSTER_LATENCY_H
#define GS_CLUSTER_LATENCY_H

#include <stdbool.h>
#include <stddef.h>

typedef struct gs_cluster_latency {
    size_t remote_ranks;          /* finite remote ranks used (1..n-1) */
    double remote_median;         /* median over the remote ranks, NAN when none */
    double remote_min, remote_max;
    double remote_spread;         /* remote_max - remote_min */
    double remote_over_local;     /* remote_median / local, NAN when local is not positive */
    bool distance_matters;        /* the spread exceeds tolerance: some ranks are farther */
} gs_cluster_latency;

/* by_rank[r] for r in 0..n-1 (NaN skipped; rank 0 is not remote), local the plain ld.shared
 * latency, tolerance the spread in cycles that noise explains. 0, or -1 when no remote rank is
 * finite (out still filled with NANs). */
int gs_cluster_latency_summarize(const double *by_rank, size_t n, double local, double tolerance,
                                 gs_cluster_latency *out);

#endif
