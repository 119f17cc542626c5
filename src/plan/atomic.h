/* Part of the backend vocabulary (src/plan.h): the atomic operation: atomics per operation, type
 * and pattern. Plain C, shared by the probes and both backends. */
#ifndef GS_PLAN_ATOMIC_H
#define GS_PLAN_ATOMIC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "plan/chase.h"
#include "util/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Atomic read-modify-write operations on global or shared memory. A CHAIN plan is one thread's
 * dependent chain: each atomic's returned value forms the next one's address (address = base +
 * value x a run-time zero), so every atomic waits for the previous one's return (ATOM / ATOMS,
 * never the fire-and-forget RED) and the time per atomic is its latency. The other patterns are
 * throughput plans: blocks x threads_per_block threads each issue iterations atomics on a word
 * the pattern gives (below) and the launch is timed whole. */
typedef enum gs_atomic_op {
    GS_ATOMIC_ADD = 0,            /* atomicAdd */
    GS_ATOMIC_CAS,                /* atomicCAS */
    GS_ATOMIC_EXCH,               /* atomicExch */
    GS_ATOMIC_MIN,                /* atomicMin */
    GS_ATOMIC_MAX,                /* atomicMax */
    GS_ATOMIC_OP_COUNT
} gs_atomic_op;

typedef enum gs_atomic_type {
    GS_ATOMIC_U32 = 0,            /* unsigned int */
    GS_ATOMIC_U64,                /* unsigned long long */
    GS_ATOMIC_F32,                /* float */
    GS_ATOMIC_F64,                /* double */
    GS_ATOMIC_TYPE_COUNT
} gs_atomic_type;

/* Which word thread (warp w, lane l) works on, in elements of the type: w is the warp's index in
 * the grid for global memory and in its block for shared memory (each block has its own array). */
typedef enum gs_atomic_pattern {
    GS_ATOMIC_CHAIN = 0,          /* latency: one thread, a dependent chain on one word */
    GS_ATOMIC_ONE_ADDRESS,        /* every thread on word 0 (global: the whole grid; shared: each
                                     block on its own word 0) */
    GS_ATOMIC_DISTINCT,           /* word 32 w + l: every thread its own word, a warp's words
                                     contiguous (coalesced; no bank conflict in shared memory) */
    GS_ATOMIC_LINES,              /* global: word 32 (w mod lines) + l: the lanes of a warp on
                                     distinct words of one warp footprint (one 128-B line for a
                                     4-byte type), all warps of the grid sharing `lines` of them */
    GS_ATOMIC_SAME_BANK,          /* shared: word (128 / element bytes) l + w: the lanes of a warp
                                     on distinct words 128 B apart, all in one bank */
    GS_ATOMIC_PATTERN_COUNT
} gs_atomic_pattern;

typedef struct gs_atomic_plan {
    gs_space space;               /* GS_SPACE_GLOBAL or GS_SPACE_SHARED */
    gs_atomic_op op;
    gs_atomic_type type;
    gs_atomic_pattern pattern;
    unsigned lines;               /* LINES: warp footprints the grid shares (>= 1) */
    bool keep_result;             /* throughput: every returned value is used (ATOM); false: the
                                     results are dropped, so add, min and max on global memory
                                     become RED (CAS and exchange stay ATOM; shared: ATOMS) */
    unsigned blocks;              /* throughput: blocks in the grid */
    unsigned threads_per_block;   /* throughput: a multiple of 32 */
    uint64_t iterations;          /* throughput: atomics per thread per launch */
    unsigned repeats;             /* timed repetitions (launches for throughput, chains of
                                     latency), each recorded */
} gs_atomic_plan;

typedef struct gs_atomic_result {
    double *values;               /* caller-allocated, repeats long: CHAIN, cycles per atomic of
                                     each repetition; throughput, seconds of each launch */
    size_t n;
    uint64_t operations;          /* throughput: atomics one launch performs */
    double clock_khz;             /* SM clock during the launches (clock64 over globaltimer), 0
                                     unknown */
} gs_atomic_result;

const char *gs_atomic_op_name(gs_atomic_op o);               /* "add", "cas", "exch", ... */
const char *gs_atomic_type_name(gs_atomic_type t);           /* "u32", "u64", "f32", "f64" */
const char *gs_atomic_pattern_name(gs_atomic_pattern p);     /* "chain", "one_address", ... */
/* Whether CUDA has atomicOP on type t (add: all four; cas, min, max: u32, u64; exch: u32, u64,
 * f32). */
bool gs_atomic_op_has_type(gs_atomic_op o, gs_atomic_type t);

#ifdef __cplusplus
}
#endif

#endif
