/* Part of the backend vocabulary (src/plan.h): the cluster operation: thread-block clusters,
 * distributed shared memory and TMA copies. Plain C, shared by the probes and both backends. */
#ifndef GS_PLAN_CLUSTER_H
#define GS_PLAN_CLUSTER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Hopper's thread-block clusters (cc >= 9.0): distributed shared memory (a block loading another
 * block's shared memory over the SM-to-SM network: mapa + ld.shared::cluster) and the bulk-copy
 * (TMA) engine (cp.async.bulk global -> shared, 1D or 2D through a tensor map, completed on an
 * mbarrier). A device without them,
 * or a build without sm_90 code, answers every kind with GS_ERR_UNSUPPORTED and why. */
typedef enum gs_cluster_kind {
    GS_CLUSTER_QUERY = 0,         /* only allowed, max_active_clusters and max_cluster_size */
    GS_CLUSTER_LATENCY,           /* one thread of rank 0 chases a chain in rank `rank`'s shared
                                     memory with ld.shared::cluster (rank 0: its own) */
    GS_CLUSTER_LOCAL_LATENCY,     /* the same chain in its own shared memory with plain ld.shared */
    GS_CLUSTER_BANDWIDTH,         /* every block of every cluster (as many as fit at once) reads
                                     the shared memory of rank (own + rank) % cluster_size with
                                     16-byte loads */
    GS_CLUSTER_BULK_COPY,         /* global -> shared with cp.async.bulk (1D, an mbarrier) */
    GS_CLUSTER_VECTOR_COPY,       /* the same bytes with 16-byte loads and st.shared */
    GS_CLUSTER_TENSOR_COPY,       /* the same with cp.async.bulk.tensor.2d through a CUtensorMap
                                     (16 KB boxes of 64 rows x 256 B of a 4 KB-pitch matrix; the
                                     footprint rounded down to whole 256 KB bands) */
    GS_CLUSTER_BULK_LATENCY,      /* one thread: single cp.async.bulk copies of `bytes` from the
                                     same L2-resident source, each timed with clock64 from the
                                     mbarrier's expect_tx to its completion */
    GS_CLUSTER_LOAD_LATENCY,      /* one warp: the same bytes with 16-byte ld.global.cg and
                                     st.shared, timed from the first load to the warp's last
                                     store */
    GS_CLUSTER_TENSOR_LATENCY,    /* one thread: single cp.async.bulk.tensor.2d copies of one box
                                     of `bytes` (gs_cluster_tensor_box) through a CUtensorMap of
                                     the same L2-resident matrix, timed as the bulk latency */
    GS_CLUSTER_KIND_COUNT
} gs_cluster_kind;

typedef struct gs_cluster_plan {
    gs_cluster_kind kind;
    unsigned cluster_size;        /* blocks per cluster, 1..16 (above 8 asks for the non-portable
                                     size); the copy kinds run without clusters and ignore it */
    unsigned rank;                /* latency: whose shared memory rank 0 chases; bandwidth: the
                                     rank distance to the block read (0 = its own) */
    uint64_t smem_bytes;          /* latency and bandwidth: each block's shared array */
    uint64_t stride_bytes;        /* latency: distance between consecutive chain elements */
    uint64_t accesses;            /* latency: timed loads per repetition */
    uint64_t bytes;               /* bandwidth: bytes each block reads per repetition; copy kinds:
                                     the global footprint, copied whole passes until traffic_bytes;
                                     the latency-of-a-copy kinds: one transfer's size, a
                                     multiple of 16 from 16 to 16384 (the tensor kind: one that
                                     makes a box, gs_cluster_tensor_box) */
    uint64_t traffic_bytes;       /* copy kinds: bytes one repetition copies at least */
    unsigned repeats;             /* timed repetitions, each recorded (0 for QUERY) */
} gs_cluster_plan;

typedef struct gs_cluster_result {
    bool allowed;                 /* a cluster of this size can be launched; why says otherwise */
    char why[160];
    int max_active_clusters;      /* cudaOccupancyMaxActiveClusters at this size (0 not allowed) */
    int max_cluster_size;         /* cudaOccupancyMaxPotentialClusterSize, non-portable allowed */
    double *values;               /* caller-allocated, repeats long: latency kinds, cycles per
                                     load (bulk and load latency: per transfer); bandwidth and
                                     copy kinds, seconds per repetition */
    size_t n;
    uint64_t bytes_moved;         /* bandwidth and copy kinds: bytes per repetition */
    unsigned blocks;              /* bandwidth and copy kinds: blocks launched */
    unsigned sms_used;            /* bandwidth and copy kinds: distinct SMs that ran them */
} gs_cluster_result;

const char *gs_cluster_kind_name(gs_cluster_kind k);         /* "latency", "bulk-copy", ... */

/* The transfer sizes whose latency the cluster probe measures (and a model's truth states):
 * GS_CLUSTER_TRANSFER_SIZES sizes, 128 B << i for i below it (128 B to 16 KB). */
#define GS_CLUSTER_TRANSFER_SIZES 8
unsigned gs_cluster_transfer_bytes(int i);

/* The box of one tensor-latency transfer of `bytes`: u32 elements, rows of
 * GS_CLUSTER_TENSOR_BOX_ROW_BYTES read from a matrix whose rows lie GS_CLUSTER_TENSOR_PITCH_BYTES
 * apart, or one row of bytes / 4 elements when smaller. A tensor map's box is at most 256
 * elements per dimension and its inner dimension a multiple of 16 bytes, so: bytes a multiple of
 * 16 up to one row, else a whole number of rows, at most 16384 bytes. 0 and the box, or -1. */
#define GS_CLUSTER_TENSOR_BOX_ROW_BYTES 256u
#define GS_CLUSTER_TENSOR_PITCH_BYTES 4096u
int gs_cluster_tensor_box(uint64_t bytes, unsigned *box_words, unsigned *box_rows);

#ifdef __cplusplus
}
#endif

#endif
