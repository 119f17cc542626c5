/* The CUDA backend's stream operation: the copy-kernel of the roofline paper (Section VI.A) and
 * its read-only twin, for elements of 1, 2, 4, 8 and 16 bytes (16 = uint4 vector loads), with a
 * compile-time loop bound (ITEMS elements per thread, unrolled) or a run-time bound (grid-stride
 * loop over n), and cudaMemcpy device-to-device, host-to-device and device-to-host (pinned) on
 * the same sizes. Each repetition is timed alone with cudaEvents after one untimed warm-up, or
 * after GS_WARM_FRESH_MS of them on buffers just allocated: on an H100 the kernels of the first
 * 3 ms after a plan freed 1.6 GB and allocated as much again ran 15-20 % slow (a 1-byte read at
 * 2050 GB/s against 2460), whatever the fill, and not at all on buffers kept from the plan before
 * (docs/hardware/h100.md). So the buffers stay from one plan to the next
 * (gs_cuda_scratch). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cuda/cuda_internal.h"

#define ITEMS 8                    /* elements per thread and chunk of the constant-bound kernels */
#define DEFAULT_THREADS 256

/* Fold an element into a 64-bit accumulator (the read kernel's sum). */
static __device__ __forceinline__ unsigned long long fold(uint8_t x) { return x; }
static __device__ __forceinline__ unsigned long long fold(uint16_t x) { return x; }
static __device__ __forceinline__ unsigned long long fold(uint32_t x) { return x; }
static __device__ __forceinline__ unsigned long long fold(unsigned long long x) { return x; }
static __device__ __forceinline__ unsigned long long fold(uint4 x)
{
    return ((unsigned long long)(x.x ^ x.z) << 32) | (x.y ^ x.w);
}

/* Constant bound: each block copies chunks of blockDim.x * ITEMS elements, loads first. */
template <typename T>
__global__ void copy_constant(const T *__restrict__ src, T *__restrict__ dst, size_t chunks)
{
    for (size_t c = blockIdx.x; c < chunks; c += gridDim.x) {
        size_t base = c * blockDim.x * ITEMS + threadIdx.x;
        T v[ITEMS];
#pragma unroll
        for (int k = 0; k < ITEMS; k++)
            v[k] = src[base + (size_t)k * blockDim.x];
#pragma unroll
        for (int k = 0; k < ITEMS; k++)
            dst[base + (size_t)k * blockDim.x] = v[k];
    }
}

/* Dynamic bound: a grid-stride loop whose trip count comes from the parameter n. */
template <typename T>
__global__ void copy_dynamic(const T *__restrict__ src, T *__restrict__ dst, size_t n)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        dst[i] = src[i];
}

/* Read kernels: the sum is stored only when it equals flag (never, in practice), as in the
 * paper's `if (flag * sum)`, so the loads cannot be removed and nothing is written. */
template <typename T>
__global__ void read_constant(const T *__restrict__ src, unsigned long long *out, size_t chunks,
                              unsigned long long flag)
{
    unsigned long long acc = 0;
    for (size_t c = blockIdx.x; c < chunks; c += gridDim.x) {
        size_t base = c * blockDim.x * ITEMS + threadIdx.x;
#pragma unroll
        for (int k = 0; k < ITEMS; k++)
            acc += fold(src[base + (size_t)k * blockDim.x]);
    }
    if (acc == flag)
        out[threadIdx.x] = acc;
}

template <typename T>
__global__ void read_dynamic(const T *__restrict__ src, unsigned long long *out, size_t n,
                             unsigned long long flag)
{
    unsigned long long acc = 0;
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        acc += fold(src[i]);
    if (acc == flag)
        out[threadIdx.x] = acc;
}

/* A pattern in the source, so nothing is timed on zeros. */
__global__ void stream_fill(uint32_t *p, size_t words)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < words; i += stride)
        p[i] = (uint32_t)(i * 2654435761u) ^ 0x5bd1e995u;
}

typedef struct stream_job {
    const gs_stream_plan *plan;
    void *src, *dst;              /* device buffers, plan->bytes long at least */
    size_t n;                     /* elements */
    unsigned threads, blocks;
    bool fresh;                   /* the buffers were allocated for this plan */
} stream_job;

/* Blocks for a launch: the plan's, else ceil(chunks) for the constant bound, else a grid that
 * fills the device at the kernel's occupancy for the dynamic bound. */
template <typename T>
static int grid_for(stream_job *j, const void *kernel, gs_error *err)
{
    int rc = 0, per_sm = 0, device = 0, sms = 0;
    if (j->plan->blocks) {
        j->blocks = j->plan->blocks;
        return 0;
    }
    if (!j->plan->dynamic_bound) {
        j->blocks = (unsigned)(j->n / ((size_t)j->threads * ITEMS));
        return 0;
    }
    CUDA_TRY(cudaGetDevice(&device));
    CUDA_TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, (int)j->threads, 0));
    j->blocks = (unsigned)(per_sm > 0 ? per_sm : 1) * (unsigned)sms;
fail:
    return rc;
}

/* One launch of the plan's kernel for element type T. */
template <typename T>
static int launch(stream_job *j, gs_error *err)
{
    int rc = 0;
    const T *src = (const T *)j->src;
    size_t chunks = j->n / ((size_t)j->threads * ITEMS);
    unsigned long long flag = ~0ull;
    bool copy = j->plan->kind == GS_STREAM_COPY;
    if (copy && j->plan->dynamic_bound)
        copy_dynamic<T><<<j->blocks, j->threads>>>(src, (T *)j->dst, j->n);
    else if (copy)
        copy_constant<T><<<j->blocks, j->threads>>>(src, (T *)j->dst, chunks);
    else if (j->plan->dynamic_bound)
        read_dynamic<T><<<j->blocks, j->threads>>>(src, (unsigned long long *)j->dst, j->n, flag);
    else
        read_constant<T><<<j->blocks, j->threads>>>(src, (unsigned long long *)j->dst, chunks,
                                                     flag);
    CUDA_TRY(cudaGetLastError());
fail:
    return rc;
}

template <typename T>
static const void *kernel_of(const gs_stream_plan *plan)
{
    bool copy = plan->kind == GS_STREAM_COPY;
    if (copy)
        return plan->dynamic_bound ? (const void *)copy_dynamic<T> : (const void *)copy_constant<T>;
    return plan->dynamic_bound ? (const void *)read_dynamic<T> : (const void *)read_constant<T>;
}

/* One launch of the plan's kernel (arg: the stream_job), for gs_cuda_time_runs. */
template <typename T>
static int run_kernel(void *arg, gs_error *err)
{
    return launch<T>((stream_job *)arg, err);
}

/* Time the kernel of element type T (gs_cuda_time_runs). */
template <typename T>
static int time_kernel(stream_job *j, gs_stream_result *out, gs_error *err)
{
    int rc = grid_for<T>(j, kernel_of<T>(j->plan), err);
    return rc ? rc : gs_cuda_time_runs(run_kernel<T>, j, j->fresh, j->plan->repeats, out, err);
}

static int time_kernel_any(stream_job *j, gs_stream_result *out, gs_error *err)
{
    switch (j->plan->element_bytes) {
    case 1: return time_kernel<uint8_t>(j, out, err);
    case 2: return time_kernel<uint16_t>(j, out, err);
    case 4: return time_kernel<uint32_t>(j, out, err);
    case 8: return time_kernel<unsigned long long>(j, out, err);
    default: return time_kernel<uint4>(j, out, err);
    }
}

/* One cudaMemcpy of a plan's bytes, for gs_cuda_time_runs. */
typedef struct copy_job {
    void *to;
    const void *from;
    size_t bytes;
    cudaMemcpyKind kind;
} copy_job;

static int run_copy(void *arg, gs_error *err)
{
    int rc = 0;
    const copy_job *c = (const copy_job *)arg;
    CUDA_TRY(cudaMemcpyAsync(c->to, c->from, c->bytes, c->kind, 0));
fail:
    return rc;
}

/* cudaMemcpy of plan->bytes in the plan's direction, timed as time_kernel's launches. */
static int time_memcpy(const stream_job *j, void *host, gs_stream_result *out, gs_error *err)
{
    const gs_stream_plan *plan = j->plan;
    copy_job c = { j->dst, j->src, plan->bytes, cudaMemcpyDeviceToDevice };
    if (plan->kind == GS_STREAM_MEMCPY_H2D) {   /* into the source buffer */
        c.to = j->src;
        c.from = host;
        c.kind = cudaMemcpyHostToDevice;
    } else if (plan->kind == GS_STREAM_MEMCPY_D2H) {
        c.to = host;
        c.kind = cudaMemcpyDeviceToHost;
    }
    return gs_cuda_time_runs(run_copy, &c, j->fresh, plan->repeats, out, err);
}

static int check_plan(const gs_stream_plan *plan, const gs_stream_result *out, gs_error *err)
{
    unsigned e = plan->element_bytes;
    bool kernel = plan->kind == GS_STREAM_COPY || plan->kind == GS_STREAM_READ;
    if (gs_stream_kind_family(plan->kind) != GS_STREAM_FAMILY_PLAIN)
        return gs_fail(err, GS_ERR_USAGE, "stream: unknown kind %d", (int)plan->kind);
    if (kernel && e != 1 && e != 2 && e != 4 && e != 8 && e != 16)
        return gs_fail(err, GS_ERR_UNSUPPORTED, "stream: element size %u bytes is not one of 1, "
                       "2, 4, 8, 16", e);
    if (plan->repeats == 0 || !out->seconds)
        return gs_fail(err, GS_ERR_USAGE, "stream: a plan needs repeats > 0 and a seconds array");
    if (plan->threads_per_block > 1024 || plan->threads_per_block % 32)
        return gs_fail(err, GS_ERR_USAGE, "stream: %u threads per block: use a multiple of 32 "
                       "up to 1024", plan->threads_per_block);
    return 0;
}

int gs_cuda_stream(gs_backend *b, const gs_stream_plan *plan_in, gs_stream_result *out,
                   gs_error *err)
{
    switch (gs_stream_kind_family(plan_in->kind)) {
    case GS_STREAM_FAMILY_STRIDED:                      /* probe dram-layout: dram_stream.cu */
        return gs_cuda_strided_stream(b, plan_in, out, err);
    case GS_STREAM_FAMILY_LEVEL:                        /* probe mem-bandwidth: level_stream.cu */
        return gs_cuda_level_stream(b, plan_in, out, err);
    case GS_STREAM_FAMILY_PLAIN:
        break;
    case GS_STREAM_FAMILY_NONE:
        return gs_fail(err, GS_ERR_USAGE, "stream: unknown kind %d", (int)plan_in->kind);
    }
    int rc = check_plan(plan_in, out, err);
    if (rc)
        return rc;
    gs_stream_plan plan = *plan_in;
    stream_job j = { &plan, NULL, NULL, 0, plan.threads_per_block ? plan.threads_per_block
                                                                   : DEFAULT_THREADS, 0, false };
    void *host = NULL;
    bool kernel = plan.kind == GS_STREAM_COPY || plan.kind == GS_STREAM_READ;
    size_t unit = kernel ? (size_t)j.threads * ITEMS * plan.element_bytes : 4;
    plan.bytes = plan.bytes / unit * unit;   /* whole chunks of the constant-bound kernels */
    if (plan.bytes == 0)
        return gs_fail(err, GS_ERR_USAGE, "stream: %llu bytes is less than one chunk of %zu bytes",
                       (unsigned long long)plan_in->bytes, unit);
    j.n = plan.bytes / (kernel ? plan.element_bytes : 1);
    bool needs_dst = plan.kind == GS_STREAM_COPY || plan.kind == GS_STREAM_MEMCPY_D2D;
    void *buf[2];
    rc = gs_cuda_scratch(gs_cuda_of(b)->ordinal, 2, plan.bytes, buf, &j.fresh, err);
    if (rc)
        return rc;
    j.src = buf[0];
    j.dst = buf[1];
    stream_fill<<<1024, 256>>>((uint32_t *)j.src, plan.bytes / 4);
    CUDA_LAUNCH_CHECK();
    CUDA_TRY(cudaMemset(j.dst, 0, needs_dst ? plan.bytes : 8192));
    if (plan.kind == GS_STREAM_MEMCPY_H2D || plan.kind == GS_STREAM_MEMCPY_D2H) {
        CUDA_TRY(cudaMallocHost(&host, plan.bytes));
        memset(host, 0xa5, plan.bytes);
    }
    if (kernel)
        rc = time_kernel_any(&j, out, err);
    else
        rc = time_memcpy(&j, host, out, err);
    if (rc)
        goto fail;
    out->bytes_moved = needs_dst ? 2 * plan.bytes : plan.bytes;
fail:
    if (host)
        cudaFreeHost(host);
    return rc;
}
