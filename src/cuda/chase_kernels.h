/* The pointer-chase kernels' interface (src/cuda/ only): the argument block that
 * chase_kernels.cu's kernels take, and the launch helpers that chase.cu (the host side) calls. */
#ifndef GS_CUDA_CHASE_KERNELS_H
#define GS_CUDA_CHASE_KERNELS_H

#include <stdint.h>

#include <cuda_runtime.h>

#include "plan.h"

enum { GS_LOCAL_CHAIN_BYTES = 16384, GS_CONST_CHAIN_BYTES = 65536 };

typedef struct chase_args {
    const char *base;                 /* global/texture buffer (4-byte offsets count from here) */
    cudaTextureObject_t tex;
    const uint4 *image;               /* shared/local: the chain image, copied on chip first */
    uint32_t image_bytes;
    const uint64_t *start;            /* per walker: lane 0's first cursor */
    uint64_t lane_add;                /* cursor displacement of lane i is i * lane_add */
    uint64_t cursor_mask;             /* delta kernels: cursors are taken modulo cursor_mask + 1 */
    uint32_t lanes;
    uint64_t warm_accesses;
    uint64_t timed;                   /* accesses timed (average) or recorded (fine-grained) */
    uint32_t record;                  /* 1: fine-grained */
    uint32_t trace_entries;           /* record ? timed + 1 (a scratch entry) : 0; 2 bytes each */
    uint32_t chain_offset;            /* shared space: byte offset of the chain image (16-aligned) */
    uint32_t *trace;                  /* walker 0's trace: latency[timed], widened to 32 bits */
    uint64_t *final_cursor;           /* walkers * lanes: where each lane stopped */
    long long *cycles;                /* walkers * 2: clock64 at start and end */
    unsigned long long *ns;           /* walkers * 2: globaltimer at start and end */
    uint32_t *sm_id;                  /* walkers: the SM each walker ran on */
    int pin_sm;                       /* >= 0: one walker, on this SM: the grid has a block on
                                         every SM, the first block on it walks, the rest return */
    unsigned *claim;                  /* pin_sm >= 0: blocks that took the walk (1 when it ran) */
} chase_args;

/* A split warm-up (plan.h, gs_chase_split_of): one block of GS_SPLIT_SEGMENTS threads on pin_sm;
 * thread 0 walks the serial part, then every thread i < segments walks segment i. */
typedef struct chase_warm_args {
    const char *base;                 /* where 4-byte offsets count from */
    uint64_t serial_start, serial_n;  /* the serial part's first cursor and its accesses */
    const uint64_t *segment_start;    /* segments: each segment's first cursor */
    uint64_t parallel_n;              /* accesses of all segments together */
    uint32_t segments;
    uint64_t *final_cursor;           /* segments + 1: where each segment, then the serial part,
                                         stopped (the host checks them) */
    int pin_sm;
    unsigned *claim;                  /* blocks that took the warm-up (1 when it ran) */
} chase_warm_args;

/* The split warm-up's kernel for a global load path (GS_PATH_DEFAULT..GS_PATH_NC) and element
 * width; launch with GS_SPLIT_SEGMENTS threads per block and a block on every SM. */
const void *gs_chase_warm_kernel(int path, unsigned element_bytes);

/* The windowed warm-up's kernel (plan.h, gs_chase_window_of) for a global load path (8-byte
 * elements), with chase_warm_args read as: `segments` lanes of one warp, lane l from
 * segment_start[l] (the cursor of position l) following the links 8 bytes after each element
 * (segments positions on) for ceil((parallel_n - l) / segments) accesses, parallel_n the chain's
 * length; final_cursor holds where each lane stopped. Launch with 32 threads per block and a
 * block on every SM. */
const void *gs_chase_window_kernel(int path);

/* The chase kernel for a path (GS_PATH_*, after the space was resolved to a path) and element
 * width (4 or 8); delta: elements hold distances (aliased global chains). Launch with one block
 * of 32 threads per walker and the trace (plus, for the shared path, the chain image) as dynamic
 * shared memory; with pin_sm, a grid that puts a block on every SM (chase.cu: twice the SMs). */
const void *gs_chase_kernel(int path, unsigned element_bytes, bool delta);

/* Write n visited elements: *(T *)(base + off[i]) = val[i] (device arrays); launch only. */
cudaError_t gs_chase_scatter(char *base, const uint64_t *off, const uint64_t *val, size_t n,
                             unsigned element_bytes, int sm_count);

/* Copy a chain image of bytes (<= GS_CONST_CHAIN_BYTES) into the constant-space chain. */
cudaError_t gs_chase_const_upload(const void *image, size_t bytes);

#endif
