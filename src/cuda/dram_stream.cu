/* The CUDA backend's strided read (GS_STREAM_STRIDED_READ, probe dram-layout): the grid sums the
 * 16-byte elements at a * stride + [0, chunk) for every chunk start a * stride below plan.bytes,
 * pass after pass in one launch until the plan's traffic has moved. Loads are ld.global.cg
 * (__ldcg): L2 only, so a later pass is never served by an SM's L1. Each thread keeps UNROLL
 * loads in flight. One untimed warm-up launch, then each repetition timed alone with cudaEvents.
 * The buffer is zeroed once so nothing is timed on uninitialised memory. */
#include <limits.h>
#include <stdint.h>

#include "cuda/cuda_internal.h"

#define THREADS 256
#define UNROLL 4

static __device__ __forceinline__ float4 add4(float4 a, float4 b)
{
    return make_float4(a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w);
}

/* Element j of a pass: chunk j >> chunk_shift, element j & chunk_mask of it. */
static __device__ __forceinline__ const float4 *element(const char *base, uint64_t stride,
                                                        unsigned chunk_shift, uint32_t j)
{
    uint32_t mask = (1u << chunk_shift) - 1;
    return (const float4 *)(base + (uint64_t)(j >> chunk_shift) * stride + ((j & mask) << 4));
}

/* zero is 0 at run time: pass p reads from base + p * zero, so no pass's loads can be hoisted
 * out of the pass loop. The sum is stored only when it equals flag (never). */
__global__ void strided_read_kernel(const char *base, uint64_t stride, unsigned chunk_shift,
                                    uint32_t items, unsigned passes, size_t zero, double *out,
                                    double flag)
{
    float4 acc = make_float4(0, 0, 0, 0);
    uint32_t step = gridDim.x * blockDim.x, first = blockIdx.x * blockDim.x + threadIdx.x;
    for (unsigned p = 0; p < passes; p++) {
        const char *b = base + (size_t)p * zero;
        uint32_t i = first;
        for (; (uint64_t)i + (UNROLL - 1) * (uint64_t)step < items; i += UNROLL * step) {
            float4 v[UNROLL];
#pragma unroll
            for (int k = 0; k < UNROLL; k++)
                v[k] = __ldcg(element(b, stride, chunk_shift, i + k * step));
#pragma unroll
            for (int k = 0; k < UNROLL; k++)
                acc = add4(acc, v[k]);
        }
        for (; i < items; i += step)
            acc = add4(acc, __ldcg(element(b, stride, chunk_shift, i)));
    }
    if ((double)acc.x + acc.y + acc.z + acc.w == flag)
        out[0] = acc.x;
}

static int check_plan(const gs_stream_plan *p, const gs_stream_result *out, gs_error *err)
{
    uint64_t chunks = p->stride_bytes ? p->bytes / p->stride_bytes : 0;
    if (p->element_bytes != 16 || p->chunk_bytes < 16 || (p->chunk_bytes & (p->chunk_bytes - 1)) ||
        p->stride_bytes % 16 || p->stride_bytes < p->chunk_bytes || p->bytes < p->stride_bytes)
        return gs_fail(err, GS_ERR_USAGE, "stream: a strided read takes 16-byte elements, a "
                       "power-of-two chunk >= 16 B and chunk <= stride <= bytes, stride a "
                       "multiple of 16 (chunk %llu, stride %llu, bytes %llu)",
                       (unsigned long long)p->chunk_bytes, (unsigned long long)p->stride_bytes,
                       (unsigned long long)p->bytes);
    if (chunks * (p->chunk_bytes / 16) > UINT32_MAX)
        return gs_fail(err, GS_ERR_USAGE, "stream: a strided read of %llu elements per pass: at "
                       "most 2^32 - 1; use a smaller footprint",
                       (unsigned long long)(chunks * (p->chunk_bytes / 16)));
    if (p->repeats == 0 || !out->seconds)
        return gs_fail(err, GS_ERR_USAGE, "stream: a plan needs repeats > 0 and a seconds array");
    return 0;
}

/* One launch of a strided read, for the harness (harness.cu). */
typedef struct strided_job {
    char *buf;
    uint64_t stride_bytes;
    unsigned shift;
    uint32_t items;
    unsigned npass;
    double *d_out;
    unsigned blocks, threads;
} strided_job;

static int run_strided(void *arg, gs_error *err)
{
    int rc = 0;
    strided_job *j = (strided_job *)arg;
    strided_read_kernel<<<j->blocks, j->threads>>>(j->buf, j->stride_bytes, j->shift, j->items,
                                                   j->npass, 0, j->d_out, -1.0);
    CUDA_TRY(cudaGetLastError());
fail:
    return rc;
}

int gs_cuda_strided_stream(gs_backend *b, const gs_stream_plan *plan, gs_stream_result *out,
                           gs_error *err)
{
    int rc = check_plan(plan, out, err);
    if (rc)
        return rc;
    char *buf = NULL;
    double *d_out = NULL;
    uint64_t chunks = plan->bytes / plan->stride_bytes;
    uint32_t items = (uint32_t)(chunks * (plan->chunk_bytes / 16));
    unsigned shift = (unsigned)__builtin_ctzll(plan->chunk_bytes / 16);
    uint64_t per_pass = chunks * plan->chunk_bytes;
    uint64_t passes = (plan->traffic_bytes + per_pass - 1) / per_pass;
    unsigned npass = passes < 1 ? 1 : passes > UINT_MAX / 2 ? UINT_MAX / 2 : (unsigned)passes;
    int per_sm = 0, sms = gs_cuda_of(b)->prop.multiProcessorCount;
    unsigned threads = plan->threads_per_block ? plan->threads_per_block : THREADS;
    CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, strided_read_kernel,
                                                           (int)threads, 0));
    {
        unsigned blocks = plan->blocks ? plan->blocks : (unsigned)(per_sm > 0 ? per_sm : 1) * sms;
        CUDA_TRY(cudaMalloc(&buf, plan->bytes));
        CUDA_TRY(cudaMalloc(&d_out, sizeof(double)));
        CUDA_TRY(cudaMemset(buf, 0, plan->bytes));
        strided_job j = { buf, plan->stride_bytes, shift, items, npass, d_out, blocks, threads };
        rc = gs_cuda_time_runs(run_strided, &j, false, plan->repeats, out, err);
        if (rc)
            goto fail;
        out->bytes_moved = (uint64_t)npass * per_pass;
    }
fail:
    if (buf)
        cudaFree(buf);
    if (d_out)
        cudaFree(d_out);
    return rc;
}
