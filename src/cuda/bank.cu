/* The CUDA backend's bank operation (plan.h, gs_bank_plan): one warp reads shared memory,
 * lane i at element (i / group_lanes) * stride_elems of access_bytes, as in Listing 1 of the
 * memory-hierarchy paper: each element holds its own shared address, so every load's address is
 * the previous load's value (a chain that stays on the lane's element). Each repetition times a
 * chain of BANK_CHAIN loads and one of 2 x BANK_CHAIN loads with clock64, each region ending with
 * one shared store of the last value (it waits for the last load, so no load is left in flight
 * when the clock is read); the difference of the two spans over BANK_CHAIN is the latency of one
 * warp access, free of the clock reads and of that store. The timed regions hold nothing else
 * (LDS.U16 / LDS / LDS.64 / LDS.128, then one STS). */
#include <stdlib.h>

#include "cuda/cuda_internal.h"

#define BANK_BUFFER_BYTES 32768   /* the elements: 31 lanes x 64 strides x 16 B fits */
#define BANK_CHAIN 32             /* dependent loads in the short timed region */
#define BANK_MAX_REPEATS 512      /* repetitions per launch (two clock spans each, in shared) */
#define BANK_WARMUP 2             /* untimed repetitions first (cold instruction cache) */

/* Volatile loads: ptxas narrows a plain vector load whose other components are unused to LDS
 * (seen on sm_90, CUDA 13.0), which would time 4-byte loads for every width. */
template <int W> struct lds;
template <> struct lds<2> {
    static __device__ __forceinline__ unsigned load(unsigned a)
    { unsigned v; asm volatile("ld.volatile.shared.u16 %0, [%1];" : "=r"(v) : "r"(a)); return v; }
};
template <> struct lds<4> {
    static __device__ __forceinline__ unsigned load(unsigned a)
    { unsigned v; asm volatile("ld.volatile.shared.u32 %0, [%1];" : "=r"(v) : "r"(a)); return v; }
};
template <> struct lds<8> {
    static __device__ __forceinline__ unsigned load(unsigned a)
    { unsigned v, u; asm volatile("ld.volatile.shared.v2.u32 {%0, %1}, [%2];" : "=r"(v), "=r"(u) : "r"(a));
      return v | (u & 0u); }
};
template <> struct lds<16> {
    static __device__ __forceinline__ unsigned load(unsigned a)
    { unsigned v, u, x, y;
      asm volatile("ld.volatile.shared.v4.u32 {%0, %1, %2, %3}, [%4];"
                   : "=r"(v), "=r"(u), "=r"(x), "=r"(y) : "r"(a));
      return v | ((u | x | y) & 0u); }
};

static __device__ __forceinline__ long long clock_now(void)
{
    long long t;
    asm volatile("mov.u64 %0, %%clock64;" : "=l"(t));
    return t;
}

/* One chain of N dependent loads from address p, then a store of the last value to drain (it
 * cannot issue before the last load returns); returns the last address. */
template <int W, int N>
static __device__ __forceinline__ unsigned chain(unsigned p, unsigned drain)
{
#pragma unroll
    for (int k = 0; k < N; k++)
        p = lds<W>::load(p);
    asm volatile("st.shared.u32 [%0], %1;" : : "r"(drain), "r"(p) : "memory");
    return p;
}

/* spans[2r] = cycles of BANK_CHAIN loads, spans[2r + 1] = cycles of 2 x BANK_CHAIN loads.
 * sink[lane] keeps the chain alive; sink[32] = 1 if a 2-byte element cannot hold its address. */
template <int W>
__global__ void __launch_bounds__(32) bank_kernel(unsigned stride, unsigned group, unsigned reps,
                                                  long long *spans, unsigned *sink)
{
    __shared__ __align__(16) unsigned char buf[BANK_BUFFER_BYTES];
    __shared__ long long span[2 * BANK_MAX_REPEATS];
    __shared__ unsigned drains[32];
    unsigned lane = threadIdx.x;
    unsigned drain = (unsigned)__cvta_generic_to_shared(&drains[lane]);
    for (unsigned i = lane; i < BANK_BUFFER_BYTES / 4; i += 32)
        ((unsigned *)buf)[i] = 0;
    __syncwarp();
    unsigned offset = lane / group * stride * W;
    unsigned p = (unsigned)__cvta_generic_to_shared(buf + offset);
    if (W == 2)
        *(unsigned short *)(buf + offset) = (unsigned short)p;
    else
        *(unsigned *)(buf + offset) = p;
    if (W == 2 && p > 0xffffu)
        sink[32] = 1;
    __syncwarp();
    for (int r = -BANK_WARMUP; r < (int)reps; r++) {
        long long t0 = clock_now();
        p = chain<W, BANK_CHAIN>(p, drain);
        long long t1 = clock_now();
        p = chain<W, 2 * BANK_CHAIN>(p, drain);
        long long t2 = clock_now();
        if (r >= 0 && lane == 0) {
            span[2 * r] = t1 - t0;
            span[2 * r + 1] = t2 - t1;
        }
    }
    sink[lane] = p;
    __syncwarp();
    for (unsigned i = lane; i < 2 * reps; i += 32)
        spans[i] = span[i];
}

static int launch(unsigned width, unsigned stride, unsigned group, unsigned reps, long long *d_spans,
                  unsigned *d_sink, gs_error *err)
{
    int rc = 0;
    switch (width) {
    case 2: bank_kernel<2><<<1, 32>>>(stride, group, reps, d_spans, d_sink); break;
    case 4: bank_kernel<4><<<1, 32>>>(stride, group, reps, d_spans, d_sink); break;
    case 8: bank_kernel<8><<<1, 32>>>(stride, group, reps, d_spans, d_sink); break;
    default: bank_kernel<16><<<1, 32>>>(stride, group, reps, d_spans, d_sink); break;
    }
    CUDA_LAUNCH_CHECK();
fail:
    return rc;
}

/* A bank plan's chain launches, for the harness (harness.cu). */
typedef struct bank_job {
    unsigned width, stride, group;
    long long *d_spans;
    unsigned *d_sink;
} bank_job;

static int launch_reps(void *arg, unsigned reps, gs_error *err)
{
    bank_job *j = (bank_job *)arg;
    return launch(j->width, j->stride, j->group, reps, j->d_spans, j->d_sink, err);
}

int gs_cuda_bank(gs_backend *b, const gs_bank_plan *plan, gs_bank_result *out, gs_error *err)
{
    int rc = 0;
    unsigned w = plan->access_bytes, group = plan->group_lanes > 1 ? plan->group_lanes : 1;
    if (w != 2 && w != 4 && w != 8 && w != 16)
        return gs_fail(err, GS_ERR_UNSUPPORTED, "bank plan: access width %u B; use 2, 4, 8 or 16", w);
    if (group > 32)
        return gs_fail(err, GS_ERR_UNSUPPORTED, "bank plan: group_lanes %u exceeds a warp", group);
    unsigned long long last = (unsigned long long)(31 / group) * plan->stride_elems * w + w;
    if (last > BANK_BUFFER_BYTES)
        return gs_fail(err, GS_ERR_UNSUPPORTED, "bank plan: stride %u x %u B reaches byte %llu, "
                       "past the %d-byte buffer; use a smaller stride", plan->stride_elems, w,
                       last, BANK_BUFFER_BYTES);
    long long *d_spans = NULL;
    unsigned *d_sink = NULL, flag = 0;
    CUDA_TRY(cudaSetDevice(gs_cuda_of(b)->ordinal));
    CUDA_TRY(cudaMalloc(&d_spans, 2 * BANK_MAX_REPEATS * sizeof *d_spans));
    CUDA_TRY(cudaMalloc(&d_sink, 33 * sizeof *d_sink));
    CUDA_TRY(cudaMemset(d_sink, 0, 33 * sizeof *d_sink));
    {
        bank_job j = { w, plan->stride_elems, group, d_spans, d_sink };
        rc = gs_cuda_chain_spans(launch_reps, &j, plan->repeats, BANK_MAX_REPEATS, d_spans,
                                 BANK_CHAIN, out->cycles, &out->n, err);
        if (rc)
            goto fail;
    }
    CUDA_TRY(cudaMemcpy(&flag, d_sink + 32, sizeof flag, cudaMemcpyDeviceToHost));
    if (flag)
        rc = gs_fail(err, GS_ERR_UNSUPPORTED, "bank plan: a 2-byte element cannot hold its shared "
                     "address on this device");
fail:
    cudaFree(d_spans);
    cudaFree(d_sink);
    return rc;
}
