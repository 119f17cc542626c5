/* Part of the backend vocabulary (src/plan.h): the issue operation: dependent and independent
 * instruction chains per instruction type. Plain C, shared by the probes and both backends. */
#ifndef GS_PLAN_ISSUE_H
#define GS_PLAN_ISSUE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/error.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum gs_instr {
    GS_INSTR_FADD = 0,            /* SP: fp32 add */
    GS_INSTR_FFMA,                /* MADD: fp32 fused multiply-add */
    GS_INSTR_IADD,                /* INT: int32 add */
    GS_INSTR_IMUL,                /* INT: int32 multiply */
    GS_INSTR_DFMA,                /* DP: fp64 FMA */
    GS_INSTR_SFU_SIN,             /* native special function: __sinf (MUFU.SIN) */
    GS_INSTR_SFU_RSQRT,           /* native special function: rsqrtf (MUFU.RSQ) */
    GS_INSTR_SW_SIN,              /* software special function: full-precision sinf */
    GS_INSTR_HFMA2,               /* fp16x2 FMA (cc >= 5.3) */
    GS_INSTR_MMA,                 /* one tensor-core MMA shape (mma.sync m16n8k16 f16, cc >= 8.0) */
    GS_INSTR_COUNT
} gs_instr;

typedef struct gs_issue_plan {
    gs_instr instr;
    unsigned ilp;                 /* independent chains per thread: 1, 2 or 4 */
    unsigned warps_per_block;
    unsigned blocks;              /* total blocks in the grid */
    unsigned blocks_per_sm_limit; /* 0: no limit; else limit concurrent blocks per SM by shared
                                     memory allocation (Eq. 2 of the roofline paper) */
    unsigned iterations;          /* loop trips; each trip issues ilp * unroll instructions */
    unsigned divergent_paths;     /* 0 or 1: none; else lanes split into that many paths (1..32) */
} gs_issue_plan;

typedef struct gs_issue_result {
    double cycles;                /* SM cycles of the longest SM span (earliest block start to
                                     latest block end on that SM) */
    double ns;                    /* wall time of the kernel */
    double instructions;          /* warp instructions of the measured type executed in total */
    double warps_per_sm;          /* concurrent warps per SM that actually ran */
    double instr_per_cycle_per_sm;/* warp instructions per cycle per SM */
    /* Timing checks (added at the end; zero where a backend does not fill them): */
    double clock_khz;             /* SM clock during the kernel (clock64 over globaltimer) */
    double kernel_ipc_per_sm;     /* instructions / (SMs x whole-kernel cycles): a lower bound */
    double clock64_ipc_per_sm;    /* throughput from clock64 spans across the blocks of an SM id */
    double start_spread_cycles;   /* median over SMs of latest minus earliest block start */
    unsigned clock_mismatch_sms;  /* SMs whose blocks' clock64 values were not comparable */
    unsigned moved_blocks;        /* blocks whose %smid changed during the timed region */
    bool measurement_error;       /* a timing check failed: instr_per_cycle_per_sm is not valid */
} gs_issue_result;

/* Names as the command line and JSON spell them. */
const char *gs_instr_name(gs_instr i);
int gs_instr_parse(const char *name, gs_instr *out);         /* 0 or -1 */

#ifdef __cplusplus
}
#endif

#endif
