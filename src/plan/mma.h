/* Part of the backend vocabulary (src/plan.h): the mma operation: tensor-core instructions per
 * type. Plain C, shared by the probes and both backends. */
#ifndef GS_PLAN_MMA_H
#define GS_PLAN_MMA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Tensor-core matrix multiply-accumulate (probe tensor). Instruction MMA_SYNC is the warp-level
 * mma.sync.aligned of PTX with one shape per type (f16, bf16: m16n8k16 with f32 accumulators;
 * tf32: m16n8k8, f32; e4m3: m16n8k32, f32 (cc 8.9+); s8: m16n8k32, s32; f64: m8n8k4, f64; all but
 * e4m3 cc 8.0+; no e5m2); WGMMA is Hopper's warpgroup wgmma.mma_async (cc 9.0 only; m64n128 with
 * f32 accumulators (s8: s32), k16 for f16 and bf16, k8 tf32, k32 e4m3, e5m2 and s8, no f64; both
 * operands in shared memory through descriptors, K-major); SP is the warp-level sparse
 * mma.sp.sync.aligned (A structured 2:4, 1:2 for tf32, with its metadata register; cc 8.0+, e4m3
 * 8.9+; f16 and bf16 m16n8k32, tf32 m16n8k16, e4m3 and s8 m16n8k64: twice the dense k, the
 * operations counted as those of the dense product, as NVIDIA's sparse peaks count them; no f64,
 * no e5m2). A LATENCY plan is one
 * warp (one warpgroup for WGMMA) running a dependent chain, each instruction's accumulator the
 * next one's; a throughput plan is blocks x warps_per_block warps, each with several independent
 * accumulators, timed whole. gs_mma_applicable says which combinations a compute capability has;
 * a backend answers GS_ERR_UNSUPPORTED for the others. */
typedef enum gs_mma_type {
    GS_MMA_F16 = 0,               /* fp16 inputs, f32 accumulate */
    GS_MMA_BF16,                  /* bf16 inputs, f32 accumulate */
    GS_MMA_TF32,                  /* tf32 inputs, f32 accumulate */
    GS_MMA_E4M3,                  /* fp8 e4m3 inputs, f32 accumulate */
    GS_MMA_S8,                    /* int8 inputs, s32 accumulate */
    GS_MMA_F64,                   /* fp64 (DMMA) */
    GS_MMA_E5M2,                  /* fp8 e5m2 inputs, f32 accumulate (wgmma only) */
    GS_MMA_TYPE_COUNT
} gs_mma_type;

typedef enum gs_mma_instr {
    GS_MMA_SYNC = 0,              /* mma.sync.aligned, one warp */
    GS_MMA_WGMMA,                 /* wgmma.mma_async, one warpgroup of 4 warps */
    GS_MMA_SP,                    /* mma.sp.sync.aligned (2:4 sparse A), one warp */
    GS_MMA_INSTR_COUNT
} gs_mma_instr;

/* Instructions one warp (warpgroup) issues per throughput loop trip: mma.sync over
 * GS_MMA_CHAINS independent accumulators, wgmma as one commit group on one accumulator. */
#define GS_MMA_PER_TRIP 16
#define GS_MMA_CHAINS 8

typedef struct gs_mma_plan {
    gs_mma_instr instr;
    gs_mma_type type;
    bool latency;                 /* true: one warp (warpgroup), a dependent chain; the other
                                     fields but repeats are ignored */
    unsigned blocks;              /* throughput: blocks in the grid */
    unsigned warps_per_block;     /* throughput: a multiple of 4 for WGMMA */
    uint64_t iterations;          /* throughput: loop trips per warp per launch */
    unsigned repeats;             /* timed repetitions (chains of latency, launches of
                                     throughput), each recorded */
} gs_mma_plan;

typedef struct gs_mma_result {
    double *values;               /* caller-allocated, repeats long: latency, cycles per
                                     instruction of each repetition; throughput, seconds of each
                                     launch */
    size_t n;
    uint64_t flops;               /* throughput: floating-point (s8: integer) operations one launch
                                     performs, 2 m n k per instruction */
    double clock_khz;             /* SM clock during the launches (clock64 over globaltimer), 0
                                     unknown */
} gs_mma_result;

const char *gs_mma_type_name(gs_mma_type t);                 /* "f16", "bf16", "tf32", ... */
const char *gs_mma_instr_name(gs_mma_instr i);       /* "mma_sync", "wgmma", "mma_sp" */
/* The shape (m, n, k) of instruction i on type t; false where there is none (mma_sync: no e5m2;
 * wgmma: no f64; mma_sp: neither). */
bool gs_mma_shape(gs_mma_instr i, gs_mma_type t, unsigned *m, unsigned *n, unsigned *k);
/* Whether compute capability major.minor has instruction i on type t (mma.sync and mma.sp: 8.0+,
 * e4m3 8.9+; wgmma: 9.0 only); if not, why gets "sm_XY has no ..." (why may be NULL). */
bool gs_mma_applicable(gs_mma_instr i, gs_mma_type t, int cc_major, int cc_minor, char *why,
                       size_t why_len);

#ifdef __cplusplus
}
#endif

#endif
