/* The CUDA backend's mma operation (plan.h, gs_mma_plan; probe tensor). mma.sync and sparse
 * mma.sp kernels here, one template per instruction and input type over mma_ops.cuh; Hopper's
 * wgmma kernels in src/cuda/sm90a/wgmma.cu, built for sm_90a alone (an arch-specific feature).
 * Latency: one warp runs a chain of dependent instructions (each one's accumulator is the next
 * one's C). As bank.cu and atomic.cu do, each repetition times a chain of MMA_CHAIN instructions
 * and one of 2 x MMA_CHAIN with clock64, each ending with one shared store of an accumulator
 * register (it waits for the last instruction); the difference of the two spans over MMA_CHAIN is
 * one instruction's latency, free of the clock reads and the store. Throughput: blocks x warps,
 * each warp GS_MMA_CHAINS independent accumulators and GS_MMA_PER_TRIP instructions per loop
 * trip, operands in registers from a run-time array; each launch is timed alone with events after
 * one untimed warm-up; thread 0 of block 0 reads clock64 and the globaltimer around its loop to
 * give the SM clock during the launches. */
#include <stdint.h>
#include <string.h>

#include "cuda/cuda_internal.h"
#include "cuda/mma_ops.cuh"

#define MMA_WARMUP 2              /* untimed repetitions first (instruction cache, clocks) */

/* ---- operands per input type: accumulators, A and B fragments, one instruction -------------- */
struct ab32 {
    unsigned a[4], b2[2];         /* dense B: two words */
    unsigned b4[4], e;            /* sparse B: four words; the 2:4 metadata word */
};
struct acc_f32 {
    float d[4];
};
struct acc_s32 {
    int d[4];
};
struct acc_f64 {
    double d[2];
};

/* A and B from in[0..7] (bit patterns the host chose per type), the sparse metadata from in[9],
 * accumulators from in[8] (a zero the compiler cannot see). */
static __device__ __forceinline__ void load(ab32 &c, const unsigned *in)
{
    for (int k = 0; k < 4; k++) {
        c.a[k] = in[k];
        c.b4[k] = in[4 + k];
    }
    c.b2[0] = in[4];
    c.b2[1] = in[5];
    c.e = in[9];
}
static __device__ __forceinline__ void load(acc_f32 &x, const unsigned *in, int k)
{
    for (int j = 0; j < 4; j++)
        x.d[j] = __uint_as_float(in[8]) * (float)(k + j);
}
static __device__ __forceinline__ void load(acc_s32 &x, const unsigned *in, int k)
{
    for (int j = 0; j < 4; j++)
        x.d[j] = (int)in[8] * (k + j);
}
static __device__ __forceinline__ void load(acc_f64 &x, const unsigned *in, int k)
{
    for (int j = 0; j < 2; j++)
        x.d[j] = (double)__uint_as_float(in[8]) * (k + j);
}
static __device__ __forceinline__ unsigned bits(const acc_f32 &x) { return __float_as_uint(x.d[0]); }
static __device__ __forceinline__ unsigned bits(const acc_s32 &x) { return (unsigned)x.d[0]; }
static __device__ __forceinline__ unsigned bits(const acc_f64 &x)
{
    return (unsigned)__double_as_longlong(x.d[0]);
}

template <int IN, int TY> struct mma_op;
/* One instruction IN (GS_MMA_SYNC or GS_MMA_SP) on type TY, with its accumulator type. */
#define MMA_OP(IN, TY, ACC, CALL)                                                                \
    template <> struct mma_op<IN, TY> {                                                          \
        typedef ACC Acc;                                                                         \
        static __device__ __forceinline__ void run(Acc &x, const ab32 &c) { CALL; }             \
    };
MMA_OP(GS_MMA_SYNC, GS_MMA_F16, acc_f32, gs_mma_f16(x.d, c.a, c.b2))
MMA_OP(GS_MMA_SYNC, GS_MMA_BF16, acc_f32, gs_mma_bf16(x.d, c.a, c.b2))
MMA_OP(GS_MMA_SYNC, GS_MMA_TF32, acc_f32, gs_mma_tf32(x.d, c.a, c.b2))
MMA_OP(GS_MMA_SYNC, GS_MMA_E4M3, acc_f32, gs_mma_e4m3(x.d, c.a, c.b2))
MMA_OP(GS_MMA_SYNC, GS_MMA_S8, acc_s32, gs_mma_s8(x.d, c.a, c.b2))
/* f64: A and B are one f64 each, taken from the a words. */
MMA_OP(GS_MMA_SYNC, GS_MMA_F64, acc_f64,
       gs_mma_f64(x.d, __hiloint2double((int)c.a[1], (int)c.a[0]),
                  __hiloint2double((int)c.a[3], (int)c.a[2])))
MMA_OP(GS_MMA_SP, GS_MMA_F16, acc_f32, gs_mma_sp_f16(x.d, c.a, c.b4, c.e))
MMA_OP(GS_MMA_SP, GS_MMA_BF16, acc_f32, gs_mma_sp_bf16(x.d, c.a, c.b4, c.e))
MMA_OP(GS_MMA_SP, GS_MMA_TF32, acc_f32, gs_mma_sp_tf32(x.d, c.a, c.b4, c.e))
MMA_OP(GS_MMA_SP, GS_MMA_E4M3, acc_f32, gs_mma_sp_e4m3(x.d, c.a, c.b4, c.e))
MMA_OP(GS_MMA_SP, GS_MMA_S8, acc_s32, gs_mma_sp_s8(x.d, c.a, c.b4, c.e))
#undef MMA_OP

static __device__ __forceinline__ long long mma_clock(void)
{
    long long t;
    asm volatile("mov.u64 %0, %%clock64;" : "=l"(t));
    return t;
}

static __device__ __forceinline__ unsigned long long mma_globaltimer(void)
{
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t)::"memory");
    return t;
}

/* N dependent instructions, then a store of an accumulator register to drain (it cannot issue
 * before the last instruction's result is written). */
template <int IN, int TY, int N>
static __device__ __forceinline__ void chain(typename mma_op<IN, TY>::Acc &x, const ab32 &c,
                                             unsigned drain)
{
#pragma unroll
    for (int k = 0; k < N; k++)
        mma_op<IN, TY>::run(x, c);
    asm volatile("st.shared.u32 [%0], %1;" : : "r"(drain), "r"(bits(x)) : "memory");
}

/* One warp: spans[2r] = cycles of MMA_CHAIN instructions, spans[2r + 1] = of 2 x MMA_CHAIN. */
template <int IN, int TY>
__global__ void __launch_bounds__(32) mma_latency_kernel(const unsigned *in, unsigned reps,
                                                         long long *spans, unsigned *sink)
{
    __shared__ long long span[2 * MMA_MAX_REPEATS];
    __shared__ unsigned drain_word;
    unsigned drain = (unsigned)__cvta_generic_to_shared(&drain_word);
    ab32 c;
    typename mma_op<IN, TY>::Acc x;
    load(c, in);
    load(x, in, 1);
    for (int r = -MMA_WARMUP; r < (int)reps; r++) {
        long long t0 = mma_clock();
        chain<IN, TY, MMA_CHAIN>(x, c, drain);
        long long t1 = mma_clock();
        chain<IN, TY, 2 * MMA_CHAIN>(x, c, drain);
        long long t2 = mma_clock();
        if (r >= 0 && threadIdx.x == 0) {
            span[2 * r] = t1 - t0;
            span[2 * r + 1] = t2 - t1;
        }
    }
    __syncwarp();
    if (threadIdx.x == 0)
        for (unsigned i = 0; i < 2 * reps; i++)
            spans[i] = span[i];
    sink[threadIdx.x] = bits(x);
}

/* Every warp: GS_MMA_CHAINS independent accumulators, iters trips of GS_MMA_PER_TRIP
 * instructions. clk[0..3] = clock64 and globaltimer of thread 0 of block 0 around its loop. */
template <int IN, int TY>
__global__ void mma_tput_kernel(const unsigned *in, unsigned iters, unsigned flag, unsigned *sink,
                                unsigned long long *clk)
{
    ab32 c;
    typename mma_op<IN, TY>::Acc x[GS_MMA_CHAINS];
    load(c, in);
#pragma unroll
    for (int k = 0; k < GS_MMA_CHAINS; k++)
        load(x[k], in, k);
    bool timer = blockIdx.x == 0 && threadIdx.x == 0;
    long long c0 = timer ? mma_clock() : 0;
    unsigned long long g0 = timer ? mma_globaltimer() : 0;
    for (unsigned i = 0; i < iters; i++) {
#pragma unroll
        for (int u = 0; u < GS_MMA_PER_TRIP / GS_MMA_CHAINS; u++) {
#pragma unroll
            for (int k = 0; k < GS_MMA_CHAINS; k++)
                mma_op<IN, TY>::run(x[k], c);
        }
    }
    if (timer) {
        clk[0] = (unsigned long long)c0;
        clk[1] = (unsigned long long)mma_clock();
        clk[2] = g0;
        clk[3] = mma_globaltimer();
    }
    if (flag) {
        unsigned acc = 0;
#pragma unroll
        for (int k = 0; k < GS_MMA_CHAINS; k++)
            acc ^= bits(x[k]);
        sink[threadIdx.x] = acc;
    }
}

/* ---- host ------------------------------------------------------------------------------------ */
typedef struct mma_job {
    const gs_mma_plan *plan;
    unsigned *in;                 /* device, 16 words */
    long long *spans;             /* device, latency */
    unsigned *sink;               /* device, 1024 words */
    unsigned long long *clk;      /* device, 4 words */
} mma_job;

template <int IN, int TY>
static void launch_typed(mma_job *j, unsigned reps)
{
    const gs_mma_plan *p = j->plan;
    if (p->latency)
        mma_latency_kernel<IN, TY><<<1, 32>>>(j->in, reps, j->spans, j->sink);
    else
        mma_tput_kernel<IN, TY><<<p->blocks, p->warps_per_block * 32>>>(
            j->in, (unsigned)p->iterations, 0, j->sink, j->clk);
}

/* One launch of the plan's kernel (reps: latency chain repetitions). */
static cudaError_t launch(mma_job *j, unsigned reps)
{
    const gs_mma_plan *p = j->plan;
    if (p->instr == GS_MMA_WGMMA) {
#ifdef GS_HAVE_SM90A
        return p->latency ? gs_wgmma_launch_latency(p->type, reps, j->spans, j->sink)
                          : gs_wgmma_launch_tput(p->type, p->blocks, (unsigned)p->iterations,
                                                 j->sink, j->clk);
#else
        return cudaErrorNotSupported;
#endif
    }
    if (p->instr == GS_MMA_SP) {
        switch (p->type) {
        case GS_MMA_F16: launch_typed<GS_MMA_SP, GS_MMA_F16>(j, reps); break;
        case GS_MMA_BF16: launch_typed<GS_MMA_SP, GS_MMA_BF16>(j, reps); break;
        case GS_MMA_TF32: launch_typed<GS_MMA_SP, GS_MMA_TF32>(j, reps); break;
        case GS_MMA_E4M3: launch_typed<GS_MMA_SP, GS_MMA_E4M3>(j, reps); break;
        case GS_MMA_S8: launch_typed<GS_MMA_SP, GS_MMA_S8>(j, reps); break;
        default: return cudaErrorNotSupported;   /* no such mma.sp (gs_mma_shape) */
        }
        return cudaGetLastError();
    }
    switch (p->type) {
    case GS_MMA_F16: launch_typed<GS_MMA_SYNC, GS_MMA_F16>(j, reps); break;
    case GS_MMA_BF16: launch_typed<GS_MMA_SYNC, GS_MMA_BF16>(j, reps); break;
    case GS_MMA_TF32: launch_typed<GS_MMA_SYNC, GS_MMA_TF32>(j, reps); break;
    case GS_MMA_E4M3: launch_typed<GS_MMA_SYNC, GS_MMA_E4M3>(j, reps); break;
    case GS_MMA_S8: launch_typed<GS_MMA_SYNC, GS_MMA_S8>(j, reps); break;
    case GS_MMA_F64: launch_typed<GS_MMA_SYNC, GS_MMA_F64>(j, reps); break;
    default: return cudaErrorNotSupported;   /* no such mma.sync (gs_mma_shape) */
    }
    return cudaGetLastError();
}

/* A and B bit patterns per type: 0.5 in every element (fp8 e4m3 0x30, s8 1), so the accumulators
 * grow slowly and stay finite over the longest launch; the sparse metadata 0x4 in every nibble
 * (the kept elements of each group are its first two, indices 0 and 1 in increasing order, as
 * ::ordered_metadata requires; for tf32's 1:2 groups a valid pattern too). */
static void seeds(gs_mma_type t, unsigned in[16])
{
    unsigned v = 0;
    double half = 0.5;
    memset(in, 0, 16 * sizeof *in);
    switch (t) {
    case GS_MMA_F16: v = 0x38003800u; break;
    case GS_MMA_BF16: v = 0x3f003f00u; break;
    case GS_MMA_TF32: v = 0x3f000000u; break;
    case GS_MMA_E4M3: v = 0x30303030u; break;
    case GS_MMA_S8: v = 0x01010101u; break;
    default: break;
    }
    for (int k = 0; k < 8; k++)
        in[k] = v;
    in[9] = 0x44444444u;
    if (t == GS_MMA_F64) {
        memcpy(&in[0], &half, 8);
        memcpy(&in[2], &half, 8);
    }
}

static int check_plan(const gs_cuda *cu, const gs_mma_plan *p, gs_error *err)
{
    char why[160];
    if (!gs_mma_applicable(p->instr, p->type, cu->prop.major, cu->prop.minor, why, sizeof why))
        return gs_fail(err, GS_ERR_UNSUPPORTED, "not applicable: %s", why);
#ifndef GS_HAVE_SM90A
    if (p->instr == GS_MMA_WGMMA)
        return gs_fail(err, GS_ERR_UNSUPPORTED, "this build has no sm_90a code for wgmma "
                       "(configure with 90 in GS_CUDA_ARCHS)");
#endif
    if (p->repeats < 1)
        return gs_fail(err, GS_ERR_USAGE, "mma plan: repeats must be >= 1");
    unsigned threads = p->warps_per_block * 32;
    if (!p->latency &&
        (p->blocks < 1 || threads < 32 || threads > (unsigned)cu->prop.maxThreadsPerBlock ||
         p->iterations < 1 || p->iterations > UINT32_MAX ||
         (p->instr == GS_MMA_WGMMA && p->warps_per_block != 4)))
        return gs_fail(err, GS_ERR_USAGE, "mma plan: blocks >= 1, 1 to %d warps per block (wgmma: "
                       "4) and iterations 1..2^32-1", cu->prop.maxThreadsPerBlock / 32);
    return 0;
}

/* The harness's launches (harness.cu): reps chain repetitions, or one throughput launch. */
static int launch_reps(void *arg, unsigned reps, gs_error *err)
{
    int rc = 0;
    CUDA_TRY(launch((mma_job *)arg, reps));
fail:
    return rc;
}

static int launch_tput(void *arg, gs_error *err)
{
    return launch_reps(arg, 0, err);
}

static int run_latency(mma_job *j, gs_mma_result *out, gs_error *err)
{
    return gs_cuda_chain_spans(launch_reps, j, j->plan->repeats, MMA_MAX_REPEATS, j->spans,
                               MMA_CHAIN, out->values, &out->n, err);
}

static int run_tput(mma_job *j, gs_mma_result *out, gs_error *err)
{
    unsigned m = 0, n = 0, k = 0;
    const gs_mma_plan *p = j->plan;
    unsigned warps_per_instr = p->instr == GS_MMA_WGMMA ? 4 : 1;
    int rc = gs_cuda_time_launches(launch_tput, j, false, p->repeats, out->values, &out->n, err);
    if (rc)
        return rc;
    gs_mma_shape(p->instr, p->type, &m, &n, &k);
    out->flops = (uint64_t)p->blocks * (p->warps_per_block / warps_per_instr) * p->iterations *
                 GS_MMA_PER_TRIP * 2ull * m * n * k;
    return gs_cuda_clock_of(j->clk, &out->clock_khz, err);
}

int gs_cuda_mma(gs_backend *b, const gs_mma_plan *plan, gs_mma_result *out, gs_error *err)
{
    gs_cuda *cu = gs_cuda_of(b);
    int rc = check_plan(cu, plan, err);
    if (rc)
        return rc;
    mma_job j = {plan};
    unsigned in[16];
    out->n = 0;
    out->flops = 0;
    out->clock_khz = 0;
    seeds(plan->type, in);
    CUDA_TRY(cudaSetDevice(cu->ordinal));
    CUDA_TRY(cudaMalloc(&j.in, sizeof in));
    CUDA_TRY(cudaMemcpy(j.in, in, sizeof in, cudaMemcpyHostToDevice));
    CUDA_TRY(cudaMalloc(&j.sink, 1024 * sizeof *j.sink));
    CUDA_TRY(cudaMalloc(&j.clk, 4 * sizeof *j.clk));
    CUDA_TRY(cudaMemset(j.clk, 0, 4 * sizeof *j.clk));
    if (plan->latency)
        CUDA_TRY(cudaMalloc(&j.spans, 2 * MMA_MAX_REPEATS * sizeof *j.spans));
    rc = plan->latency ? run_latency(&j, out, err) : run_tput(&j, out, err);
fail:
    cudaFree(j.in);
    cudaFree(j.sink);
    cudaFree(j.clk);
    cudaFree(j.spans);
    return rc;
}
