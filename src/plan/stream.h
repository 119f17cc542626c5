/* Part of the backend vocabulary (src/plan.h): the stream operation: copy, read and level-
 * bandwidth kernels. Plain C, shared by the probes and both backends. */
#ifndef GS_PLAN_STREAM_H
#define GS_PLAN_STREAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/error.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum gs_stream_kind {
    GS_STREAM_COPY = 0,           /* b[i] = a[i] */
    GS_STREAM_READ,               /* sum += a[i], result kept */
    GS_STREAM_MEMCPY_D2D,         /* cudaMemcpy device to device, same buffers */
    GS_STREAM_MEMCPY_H2D,         /* pinned host to device */
    GS_STREAM_MEMCPY_D2H,         /* device to pinned host */
    /* Level-bandwidth kinds (probe mem-bandwidth; src/cuda/level_stream.cu,
     * src/sim/level_bandwidth.c): run over arrays of plan.bytes each in plan.sweep's order until
     * plan.traffic_bytes have moved; element_bytes 4, 8 or 16 (float, double, float4; 16-byte
     * vector accesses at 16). s is a constant scalar. */
    GS_STREAM_LEVEL_READ,         /* sum += a[i], the sum kept */
    GS_STREAM_LEVEL_WRITE,        /* a[i] = s */
    GS_STREAM_LEVEL_COPY,         /* b[i] = a[i] */
    GS_STREAM_LEVEL_SCALE,        /* b[i] = s * a[i] (STREAM scale) */
    GS_STREAM_LEVEL_ADD,          /* c[i] = a[i] + b[i] (STREAM add) */
    GS_STREAM_LEVEL_TRIAD,        /* a[i] = b[i] + s * c[i] (STREAM triad) */
    GS_STREAM_SMEM_READ,          /* each block sums its own shared-memory array of plan.bytes */
    GS_STREAM_STRIDED_READ,       /* probe dram-layout (src/cuda/dram_stream.cu, src/sim/dram.c):
                                     the grid sums 16-byte elements at a * stride_bytes + [0,
                                     chunk_bytes) for every a with a * stride_bytes below
                                     plan.bytes, pass after pass until traffic_bytes have moved;
                                     element_bytes 16, sweep ignored */
} gs_stream_kind;

/* What runs a kind: the family decides the backend's code and the plan's fields that count. */
typedef enum gs_stream_family {
    GS_STREAM_FAMILY_PLAIN,       /* copy, read and cudaMemcpy (probe bandwidth) */
    GS_STREAM_FAMILY_LEVEL,       /* the level kinds and the shared-memory read (mem-bandwidth) */
    GS_STREAM_FAMILY_STRIDED,     /* the strided read (dram-layout) */
    GS_STREAM_FAMILY_NONE,        /* not a kind */
} gs_stream_family;

/* How the level kinds walk their arrays. */
typedef enum gs_sweep {
    GS_SWEEP_GRID = 0,            /* the grid sweeps the arrays together, pass after pass, in
                                     tiles handed out in address order: each SM sees about
                                     1/SMs of them (DRAM, and the L2) */
    GS_SWEEP_BLOCKS,              /* one block per SM, each sweeping the whole arrays from its own
                                     starting point, pass after pass: each SM sees all of them,
                                     so a footprint under the L1 stays in the L1 (caches) */
    GS_SWEEP_LAUNCHES,            /* gpu-stream's order: one element per thread, a grid of
                                     blocks of threads_per_block covering the arrays, one launch
                                     per pass, the launches of a repetition timed together */
} gs_sweep;

typedef struct gs_stream_plan {
    gs_stream_kind kind;
    unsigned element_bytes;       /* 1, 2, 4, 8 or 16 */
    bool dynamic_bound;           /* loop bound read at run time (vs. a compile-time constant) */
    uint64_t bytes;               /* working-set size of the source buffer */
    unsigned blocks;              /* 0: fill the device */
    unsigned threads_per_block;   /* 0: backend default */
    unsigned repeats;             /* timed repetitions, each recorded */
    /* Level kinds only: */
    gs_sweep sweep;
    uint64_t traffic_bytes;       /* bytes (read + written) one launch moves at least: whole
                                     passes over the arrays, one at least; bytes_moved says what
                                     moved */
    unsigned variant;             /* a level read by blocks of 16-byte elements: which L1 read
                                     kernel (gs_l1_read_variant_name; 0 the wrapped stream, what
                                     every other plan runs); a backend with one kernel refuses
                                     the others (GS_ERR_UNSUPPORTED) */
    /* GS_STREAM_STRIDED_READ only (multiples of 16, chunk_bytes <= stride_bytes <= bytes): */
    uint64_t stride_bytes;        /* distance between the starts of consecutive chunks */
    uint64_t chunk_bytes;         /* bytes read at each start */
} gs_stream_plan;

typedef struct gs_stream_result {
    double *seconds;              /* caller-allocated, repeats long */
    size_t n;
    uint64_t bytes_moved;         /* bytes read plus written by one repetition */
} gs_stream_result;

/* A kind's family, by a switch over every kind: a kind added to the enum without a family is a
 * compile-time warning (-Wswitch), never a kind that one backend refuses by its place in the
 * enum. */
gs_stream_family gs_stream_kind_family(gs_stream_kind k);
/* The L1 read kernels of plan.variant (src/cuda/level_stream.cu): the probe runs each on an
 * L1-sized read by blocks and keeps the fastest. */
#define GS_L1_READ_VARIANTS 4
/* Variant v's name ("wrapped", "linear", "linear-nc", "linear-nc-2"); NULL past the last. */
const char *gs_l1_read_variant_name(unsigned v);

/* A level kind's index among read, write, copy, scale, add and triad (0-5); -1 for any other. */
int gs_stream_level_index(gs_stream_kind k);

#ifdef __cplusplus
}
#endif

#endif
