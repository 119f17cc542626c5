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
    /* The instruction table's further classes (pipeline --table): not in --types all, so that
     * the sweep of the default report keeps its ten types. */
    GS_INSTR_LOP3,                /* lop3.b32: LOP3.LUT */
    GS_INSTR_SHF,                 /* shf.l.wrap.b32 funnel shift: SHF */
    GS_INSTR_POPC,                /* popc.b32: POPC */
    GS_INSTR_FLO,                 /* bfind.u32 (find leading one): FLO */
    GS_INSTR_BREV,                /* brev.b32: BREV */
    GS_INSTR_PRMT,                /* prmt.b32 byte permute: PRMT */
    GS_INSTR_FMUL,                /* mul.rn.f32: FMUL */
    GS_INSTR_FMNMX,               /* max.f32: FMNMX */
    GS_INSTR_SFU_COS,             /* cos.approx: FMUL.RZ + MUFU.COS */
    GS_INSTR_SFU_EX2,             /* ex2.approx.ftz: MUFU.EX2 */
    GS_INSTR_SFU_LG2,             /* lg2.approx.ftz: MUFU.LG2 */
    GS_INSTR_SFU_RCP,             /* rcp.approx.ftz: MUFU.RCP */
    GS_INSTR_SFU_SQRT,            /* sqrt.approx.ftz: MUFU.SQRT */
    GS_INSTR_DADD,                /* add.rn.f64: DADD */
    GS_INSTR_DMUL,                /* mul.rn.f64: DMUL */
    GS_INSTR_HADD2,               /* add.rn.f16x2: HADD2 and HFMA2.MMA (cc >= 5.3) */
    GS_INSTR_F2F_F64,             /* f64 -> f32 -> f64: F2F.F32.F64 + F2F.F64.F32, one pair */
    GS_INSTR_F2F_F16,             /* f32 -> f16 -> f32: F2FP pack + HADD2.F32, one pair */
    GS_INSTR_F2I_I2F,             /* s32 -> f32 -> s32: I2F + F2I, one pair */
    GS_INSTR_SHFL,                /* shfl.sync.idx: SHFL.IDX (whole warp) */
    GS_INSTR_VOTE,                /* setp + vote.sync.ballot: ISETP + VOTE.ANY (whole warp) */
    GS_INSTR_MATCH,               /* match.any.sync: MATCH.ANY (cc >= 7.0, whole warp) */
    GS_INSTR_REDUX,               /* redux.sync.add: REDUX.SUM (cc >= 8.0, whole warp) */
    GS_INSTR_LDS,                 /* ld.shared chase: LDS */
    GS_INSTR_STS,                 /* st.shared: STS (no result: no completion latency) */
    GS_INSTR_LDG,                 /* ld.global.ca chase in 256 B: LDG, an L1 hit */
    GS_INSTR_STG,                 /* st.global: STG (no result: no completion latency) */
    GS_INSTR_LDSM,                /* ldmatrix .x1 chase: LDSM (cc >= 7.5, whole warp) */
    GS_INSTR_ATOMS,               /* atom.shared.add returning its value: ATOMS.ADD */
    GS_INSTR_DPX_MAX3,            /* two dependent max.s32 (__vimax3_s32): VIMNMX3 (cc 9.0 DPX) */
    GS_INSTR_DPX_ADDMAX,          /* add.s32 then max.s32 (__viaddmax_s32): VIADDMNMX (cc 9.0) */
    GS_INSTR_COUNT
} gs_instr;

/* The types of --types all (the sweep): the first ten. */
#define GS_INSTR_BASE_COUNT (GS_INSTR_MMA + 1)

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
    double instructions_per_trip; /* instructions of the type per loop trip of one warp, summed
                                     over its ILP chains (0 where a backend does not say) */
} gs_issue_result;

/* Names as the command line and JSON spell them. */
const char *gs_instr_name(gs_instr i);
int gs_instr_parse(const char *name, gs_instr *out);         /* 0 or -1 */
/* The SASS opcode the CUDA kernel of type i compiles to on cc 9.0 (scripts/check_sass.sh checks
 * it), with "+" between the two of a pair. */
const char *gs_instr_sass(gs_instr i);
/* Whether type i needs the whole warp converged (mma.sync, the warp-wide instructions). */
bool gs_instr_converged(gs_instr i);
/* Whether type i writes no register (a store): it has no dependent chain, no completion latency. */
bool gs_instr_no_result(gs_instr i);

#ifdef __cplusplus
}
#endif

#endif
