/* The CUDA backend's atomic operation (plan.h, gs_atomic_plan). Latency (CHAIN): one thread runs
 * a chain of dependent atomics on one word of global or shared memory: each atomic's address is
 * base + (its predecessor's returned value x a run-time zero), one IMAD, so the returned value is
 * used and the compiler keeps ATOMG / ATOMS (never RED) and no atomic can issue before the
 * previous one returned. As in bank.cu, each repetition times a chain of ATOMIC_CHAIN atomics and
 * one of 2 x ATOMIC_CHAIN with clock64, each ending with one shared store of the last value (it
 * waits for the last atomic); the difference of the two spans over ATOMIC_CHAIN is one atomic's
 * latency plus that IMAD, free of the clock reads and the store. Throughput: blocks x threads
 * each run `iterations` atomics on the word the pattern gives (an index from run-time lane and
 * warp moduli, so the compiler can neither prove the address warp-uniform and aggregate it nor
 * fold it); with keep_result false the results are dropped (add/min/max on global memory compile
 * to RED), with keep_result true they are summed and conditionally stored (ATOM). Each launch is
 * timed alone with events after one untimed warm-up; thread 0 of block 0 reads clock64 and the
 * globaltimer around its loop to give the SM clock during the launches. */
#include <stdint.h>

#include "cuda/cuda_internal.h"

#define ATOMIC_CHAIN 32           /* dependent atomics in the short timed region */
#define ATOMIC_MAX_REPEATS 256    /* chain repetitions per launch (two spans each, in shared) */
#define ATOMIC_WARMUP 2           /* untimed repetitions first (cold line, instruction cache) */
#define ATOMIC_SHARED_WORDS 2048  /* the most shared words a throughput block may use */

static __device__ __forceinline__ unsigned low_bits(unsigned v) { return v; }
static __device__ __forceinline__ unsigned low_bits(unsigned long long v) { return (unsigned)v; }
static __device__ __forceinline__ unsigned low_bits(float v) { return __float_as_uint(v); }
static __device__ __forceinline__ unsigned low_bits(double v)
{
    return (unsigned)__double_as_longlong(v);
}

/* One atomic of operation O on type T: chain() in the latency chain (its operands are the
 * previous result, so compare-and-swap always succeeds and exchange writes back what it read),
 * step() in the throughput loop (operands from the loop index). Add adds inc, a kernel argument
 * (1): with a constant 1 and the result dropped, ptxas turns a shared add into ATOMS.POPC.INC,
 * an increment by the count of lanes on the word, which is not the general atomicAdd. */
template <int O, typename T> struct aop;
template <typename T> struct aop<GS_ATOMIC_ADD, T> {
    static __device__ __forceinline__ T chain(T *p, T, T inc) { return atomicAdd(p, inc); }
    static __device__ __forceinline__ T step(T *p, unsigned, T inc) { return atomicAdd(p, inc); }
};
template <typename T> struct aop<GS_ATOMIC_CAS, T> {
    static __device__ __forceinline__ T chain(T *p, T v, T) { return atomicCAS(p, v, v); }
    static __device__ __forceinline__ T step(T *p, unsigned i, T) { return atomicCAS(p, (T)i, (T)(i + 1)); }
};
template <typename T> struct aop<GS_ATOMIC_EXCH, T> {
    static __device__ __forceinline__ T chain(T *p, T v, T) { return atomicExch(p, v); }
    static __device__ __forceinline__ T step(T *p, unsigned i, T) { return atomicExch(p, (T)i); }
};
template <typename T> struct aop<GS_ATOMIC_MIN, T> {
    static __device__ __forceinline__ T chain(T *p, T v, T) { return atomicMin(p, v); }
    static __device__ __forceinline__ T step(T *p, unsigned i, T) { return atomicMin(p, (T)i); }
};
template <typename T> struct aop<GS_ATOMIC_MAX, T> {
    static __device__ __forceinline__ T chain(T *p, T v, T) { return atomicMax(p, v); }
    static __device__ __forceinline__ T step(T *p, unsigned i, T) { return atomicMax(p, (T)i); }
};

static __device__ __forceinline__ long long atomic_clock(void)
{
    long long t;
    asm volatile("mov.u64 %0, %%clock64;" : "=l"(t));
    return t;
}

static __device__ __forceinline__ unsigned long long atomic_globaltimer(void)
{
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t)::"memory");
    return t;
}

/* N dependent atomics from base, then a store of the last value to drain (it cannot issue before
 * the last atomic returns). */
template <int O, typename T, int N>
static __device__ __forceinline__ T chain(T *base, T v, T inc, unsigned zero, unsigned drain)
{
#pragma unroll
    for (int k = 0; k < N; k++)
        v = aop<O, T>::chain((T *)((char *)base + low_bits(v) * zero), v, inc);
    asm volatile("st.shared.u32 [%0], %1;" : : "r"(drain), "r"(low_bits(v)) : "memory");
    return v;
}

/* One thread: spans[2r] = cycles of ATOMIC_CHAIN atomics, spans[2r + 1] = of 2 x ATOMIC_CHAIN.
 * SHARED: the chain's word is in this block's shared memory, else gbuf[0]. */
template <int O, typename T, bool SHARED>
__global__ void __launch_bounds__(32) atomic_chain_kernel(T *gbuf, T inc, unsigned zero,
                                                          unsigned reps, long long *spans,
                                                          unsigned *sink)
{
    __shared__ T sbuf[2];
    __shared__ long long span[2 * ATOMIC_MAX_REPEATS];
    __shared__ unsigned drain_word;
    if (threadIdx.x != 0)
        return;
    unsigned drain = (unsigned)__cvta_generic_to_shared(&drain_word);
    sbuf[0] = (T)0;
    T *base = SHARED ? sbuf : gbuf;
    T v = (T)0;
    for (int r = -ATOMIC_WARMUP; r < (int)reps; r++) {
        long long t0 = atomic_clock();
        v = chain<O, T, ATOMIC_CHAIN>(base, v, inc, zero, drain);
        long long t1 = atomic_clock();
        v = chain<O, T, 2 * ATOMIC_CHAIN>(base, v, inc, zero, drain);
        long long t2 = atomic_clock();
        if (r >= 0) {
            span[2 * r] = t1 - t0;
            span[2 * r + 1] = t2 - t1;
        }
    }
    for (unsigned i = 0; i < 2 * reps; i++)
        spans[i] = span[i];
    sink[0] = low_bits(v);
}

/* Where each thread works: word (lane mod lane_count) x lane_stride + (warp mod groups) x
 * group_stride; the moduli are run-time values. */
typedef struct atomic_index {
    unsigned lane_count, lane_stride, groups, group_stride;
} atomic_index;

/* Throughput: every thread runs iters atomics on its word. clk[0..3] = clock64 and globaltimer
 * of thread 0 of block 0 before and after its loop. */
template <int O, typename T, bool SHARED, bool KEEP>
__global__ void atomic_tput_kernel(T *gbuf, T inc, atomic_index ix, unsigned shared_words,
                                   unsigned iters, unsigned flag, T *sink, unsigned long long *clk)
{
    __shared__ T sbuf[SHARED ? ATOMIC_SHARED_WORDS : 1];
    unsigned lane = threadIdx.x % 32;
    unsigned warp = SHARED ? threadIdx.x / 32 : (blockIdx.x * blockDim.x + threadIdx.x) / 32;
    if (SHARED) {
        for (unsigned i = threadIdx.x; i < shared_words; i += blockDim.x)
            sbuf[i] = (T)0;
        __syncthreads();
    }
    T *p = (SHARED ? sbuf : gbuf) + (lane % ix.lane_count) * ix.lane_stride +
           (warp % ix.groups) * ix.group_stride;
    bool timer = blockIdx.x == 0 && threadIdx.x == 0;
    long long c0 = timer ? atomic_clock() : 0;
    unsigned long long g0 = timer ? atomic_globaltimer() : 0;
    T acc = (T)0;
#pragma unroll 8
    for (unsigned i = 0; i < iters; i++) {
        if (KEEP)
            acc += aop<O, T>::step(p, i, inc);
        else
            aop<O, T>::step(p, i, inc);
    }
    if (KEEP && flag)
        sink[0] = acc;
    if (timer) {
        clk[0] = (unsigned long long)c0;
        clk[1] = (unsigned long long)atomic_clock();
        clk[2] = g0;
        clk[3] = atomic_globaltimer();
    }
}

/* ---- host ------------------------------------------------------------------------------------ */
typedef struct atomic_job {
    const gs_atomic_plan *plan;
    void *gbuf;
    long long *spans;             /* device, CHAIN */
    unsigned *sink;               /* device */
    unsigned long long *clk;      /* device, 4 words */
    atomic_index ix;
    unsigned shared_words;
} atomic_job;

template <int O, typename T>
static void launch_chain(atomic_job *j, unsigned reps)
{
    if (j->plan->space == GS_SPACE_SHARED)
        atomic_chain_kernel<O, T, true><<<1, 32>>>((T *)j->gbuf, (T)1, 0, reps, j->spans, j->sink);
    else
        atomic_chain_kernel<O, T, false><<<1, 32>>>((T *)j->gbuf, (T)1, 0, reps, j->spans, j->sink);
}

template <int O, typename T>
static void launch_tput(atomic_job *j)
{
    const gs_atomic_plan *p = j->plan;
    unsigned it = (unsigned)p->iterations;
    T *g = (T *)j->gbuf, *s = (T *)j->sink;
    if (p->space == GS_SPACE_SHARED)
        atomic_tput_kernel<O, T, true, false><<<p->blocks, p->threads_per_block>>>(
            g, (T)1, j->ix, j->shared_words, it, 0, s, j->clk);
    else if (p->keep_result)
        atomic_tput_kernel<O, T, false, true><<<p->blocks, p->threads_per_block>>>(
            g, (T)1, j->ix, 0, it, 0, s, j->clk);
    else
        atomic_tput_kernel<O, T, false, false><<<p->blocks, p->threads_per_block>>>(
            g, (T)1, j->ix, 0, it, 0, s, j->clk);
}

template <int O, typename T>
static void launch_typed(atomic_job *j, unsigned reps)
{
    if (j->plan->pattern == GS_ATOMIC_CHAIN)
        launch_chain<O, T>(j, reps);
    else
        launch_tput<O, T>(j);
}

template <typename T>
static void launch_op(atomic_job *j, unsigned reps)
{
    switch (j->plan->op) {
    case GS_ATOMIC_ADD: launch_typed<GS_ATOMIC_ADD, T>(j, reps); break;
    case GS_ATOMIC_CAS: launch_typed<GS_ATOMIC_CAS, T>(j, reps); break;
    case GS_ATOMIC_EXCH: launch_typed<GS_ATOMIC_EXCH, T>(j, reps); break;
    case GS_ATOMIC_MIN: launch_typed<GS_ATOMIC_MIN, T>(j, reps); break;
    default: launch_typed<GS_ATOMIC_MAX, T>(j, reps); break;
    }
}

/* Only the combinations CUDA has (gs_atomic_op_has_type, checked first) are instantiated. */
static void launch(atomic_job *j, unsigned reps)
{
    const gs_atomic_plan *p = j->plan;
    switch (p->type) {
    case GS_ATOMIC_U32: launch_op<unsigned>(j, reps); break;
    case GS_ATOMIC_U64: launch_op<unsigned long long>(j, reps); break;
    case GS_ATOMIC_F32:
        if (p->op == GS_ATOMIC_ADD) launch_typed<GS_ATOMIC_ADD, float>(j, reps);
        else launch_typed<GS_ATOMIC_EXCH, float>(j, reps);
        break;
    default: launch_typed<GS_ATOMIC_ADD, double>(j, reps); break;
    }
}

static unsigned element_bytes(gs_atomic_type t)
{
    return t == GS_ATOMIC_U32 || t == GS_ATOMIC_F32 ? 4 : 8;
}

/* The pattern's index moduli and strides, and the words it reaches (plan.h, gs_atomic_pattern). */
static void pattern_index(const gs_atomic_plan *p, atomic_index *ix, uint64_t *words)
{
    unsigned warps = p->space == GS_SPACE_SHARED ? p->threads_per_block / 32
                                                 : p->threads_per_block / 32 * p->blocks;
    *ix = (atomic_index){1, 0, 1, 0};
    switch (p->pattern) {
    case GS_ATOMIC_DISTINCT: *ix = (atomic_index){32, 1, warps, 32}; break;
    case GS_ATOMIC_LINES: *ix = (atomic_index){32, 1, p->lines, 32}; break;
    case GS_ATOMIC_SAME_BANK: *ix = (atomic_index){32, 128 / element_bytes(p->type), warps, 1}; break;
    default: break;
    }
    *words = (uint64_t)(ix->lane_count - 1) * ix->lane_stride +
             (uint64_t)(ix->groups - 1) * ix->group_stride + 1;
}

static int check_plan(const gs_atomic_plan *p, gs_error *err)
{
    if (p->space != GS_SPACE_GLOBAL && p->space != GS_SPACE_SHARED)
        return gs_fail(err, GS_ERR_UNSUPPORTED, "atomic plan: space %s; use global or shared",
                       gs_space_name(p->space));
    if (!gs_atomic_op_has_type(p->op, p->type))
        return gs_fail(err, GS_ERR_UNSUPPORTED, "CUDA has no atomic %s on %s",
                       gs_atomic_op_name(p->op), gs_atomic_type_name(p->type));
    if ((p->pattern == GS_ATOMIC_LINES && (p->space != GS_SPACE_GLOBAL || p->lines < 1)) ||
        (p->pattern == GS_ATOMIC_SAME_BANK && p->space != GS_SPACE_SHARED) ||
        (unsigned)p->pattern >= GS_ATOMIC_PATTERN_COUNT)
        return gs_fail(err, GS_ERR_UNSUPPORTED, "atomic plan: pattern %s does not apply to %s "
                       "memory", gs_atomic_pattern_name(p->pattern), gs_space_name(p->space));
    if (p->repeats < 1)
        return gs_fail(err, GS_ERR_USAGE, "atomic plan: repeats must be >= 1");
    if (p->pattern != GS_ATOMIC_CHAIN &&
        (p->blocks < 1 || p->threads_per_block < 32 || p->threads_per_block > 1024 ||
         p->threads_per_block % 32 || p->iterations < 1 || p->iterations > UINT32_MAX))
        return gs_fail(err, GS_ERR_USAGE, "atomic plan: blocks >= 1, threads_per_block a multiple "
                       "of 32 up to 1024 and iterations 1..2^32-1");
    return 0;
}

/* The harness's launches (harness.cu): reps chain repetitions, or one throughput launch. */
static int launch_reps(void *arg, unsigned reps, gs_error *err)
{
    (void)err;
    launch((atomic_job *)arg, reps);
    return 0;
}

static int launch_tput(void *arg, gs_error *err)
{
    (void)err;
    launch((atomic_job *)arg, 0);
    return 0;
}

static int run_chain(atomic_job *j, gs_atomic_result *out, gs_error *err)
{
    return gs_cuda_chain_spans(launch_reps, j, j->plan->repeats, ATOMIC_MAX_REPEATS, j->spans,
                               ATOMIC_CHAIN, out->values, &out->n, err);
}

static int run_tput(atomic_job *j, gs_atomic_result *out, gs_error *err)
{
    const gs_atomic_plan *p = j->plan;
    int rc = gs_cuda_time_launches(launch_tput, j, false, p->repeats, out->values, &out->n, err);
    if (rc)
        return rc;
    out->operations = (uint64_t)p->blocks * p->threads_per_block * p->iterations;
    return gs_cuda_clock_of(j->clk, &out->clock_khz, err);
}

int gs_cuda_atomic(gs_backend *b, const gs_atomic_plan *plan, gs_atomic_result *out, gs_error *err)
{
    int rc = check_plan(plan, err);
    if (rc)
        return rc;
    atomic_job j = {plan};
    uint64_t words = 1;
    bool chain = plan->pattern == GS_ATOMIC_CHAIN;
    if (!chain)
        pattern_index(plan, &j.ix, &words);
    if (plan->space == GS_SPACE_SHARED && words > ATOMIC_SHARED_WORDS)
        return gs_fail(err, GS_ERR_UNSUPPORTED, "atomic plan: pattern %s with %u threads per "
                       "block reaches shared word %llu, past the %d-word array; use fewer "
                       "threads per block", gs_atomic_pattern_name(plan->pattern),
                       plan->threads_per_block, (unsigned long long)words, ATOMIC_SHARED_WORDS);
    j.shared_words = (unsigned)words;
    size_t gbytes = plan->space == GS_SPACE_GLOBAL ? words * element_bytes(plan->type) : 8;
    out->n = 0;
    out->operations = 0;
    out->clock_khz = 0;
    CUDA_TRY(cudaSetDevice(gs_cuda_of(b)->ordinal));
    CUDA_TRY(cudaMalloc(&j.gbuf, gbytes));
    CUDA_TRY(cudaMemset(j.gbuf, 0, gbytes));
    CUDA_TRY(cudaMalloc(&j.sink, 16));
    CUDA_TRY(cudaMalloc(&j.clk, 4 * sizeof *j.clk));
    CUDA_TRY(cudaMemset(j.clk, 0, 4 * sizeof *j.clk));
    if (chain)
        CUDA_TRY(cudaMalloc(&j.spans, 2 * ATOMIC_MAX_REPEATS * sizeof *j.spans));
    rc = chain ? run_chain(&j, out, err) : run_tput(&j, out, err);
fail:
    cudaFree(j.gbuf);
    cudaFree(j.sink);
    cudaFree(j.clk);
    cudaFree(j.spans);
    return rc;
}
