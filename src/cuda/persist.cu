/* The CUDA backend's persist operation (plan.h, gs_persist_plan): the L2 persistence window of
 * compute capability 8.0+. QUERY reads cudaDevAttrMaxPersistingL2CacheSize and
 * cudaDevAttrMaxAccessPolicyWindowSize only. A measuring mode sets this process's persisting-L2
 * set-aside with cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize): a limit of the calling
 * context, not a device-wide setting like clocks or the compute mode, and it is put back to the
 * value cudaDeviceGetLimit gave before, on every path out (failures included), after
 * cudaCtxResetPersistingL2Cache has returned the persisting lines to normal. The access policy
 * window is an attribute of a stream the operation creates and destroys; every kernel of the plan
 * runs on that stream and no other stream of the process gets the window. Kernels:
 *   ps_chase   one thread follows the chain (8-byte next offsets) with ld.global.cg; clock64
 *              around one whole pass;
 *   ps_read    every thread reads the region with 16-byte ld.global.cg, 4 in flight; per-block
 *              globaltimer start and end (times NULL: an untimed sweep of S). */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cuda/cuda_internal.h"

#define PS_READ_THREADS 512
#define PS_BLOCKS_PER_SM 2
#define PS_UNROLL 4
#define PS_CHASES 3                      /* hot, warm, cold */
#define PS_READS 3

static __device__ __forceinline__ unsigned long long ps_globaltimer(void)
{
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

/* out[0] = cycles of one pass over `accesses` loads from `start`, out[1] = the last offset. */
__global__ void ps_chase(const unsigned char *base, unsigned long long start,
                         unsigned long long accesses, unsigned long long *out)
{
    unsigned long long off = start;
    long long c0 = clock64();
    for (unsigned long long a = 0; a < accesses; a++)
        off = __ldcg((const unsigned long long *)(base + off));
    long long c1 = clock64();
    out[0] = (unsigned long long)(c1 - c0);
    out[1] = off;
}

/* times[2b], times[2b + 1]: block b's globaltimer start and end (times may be NULL). */
__global__ void __launch_bounds__(PS_READ_THREADS)
ps_read(const uint4 *p, unsigned long long words, unsigned long long *times, unsigned *sink)
{
    unsigned long long t0 = ps_globaltimer();
    unsigned long long step = (unsigned long long)gridDim.x * blockDim.x;
    unsigned acc = 0;
    for (unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x;
         i < words; i += PS_UNROLL * step) {
        uint4 v[PS_UNROLL];
#pragma unroll
        for (int k = 0; k < PS_UNROLL; k++)
            v[k] = i + k * step < words ? __ldcg(p + i + k * step) : make_uint4(0, 0, 0, 0);
#pragma unroll
        for (int k = 0; k < PS_UNROLL; k++)
            acc ^= v[k].x ^ v[k].y ^ v[k].z ^ v[k].w;
    }
    __syncthreads();
    unsigned long long t1 = ps_globaltimer();
    if (times && threadIdx.x == 0) {
        times[2 * blockIdx.x] = t0;
        times[2 * blockIdx.x + 1] = t1;
    }
    if (acc == 0x9e3779b9u)                 /* keeps the loads */
        sink[0] = acc;
}

typedef struct ps_job {
    const gs_persist_plan *plan;
    unsigned char *hot, *cold, *stream_buf;
    unsigned long long *chase_out;           /* PS_CHASES x 2 */
    unsigned long long *times;               /* PS_READS x blocks x 2 */
    unsigned *sink;
    cudaStream_t stream;
    unsigned blocks;
} ps_job;

/* H and D hold the chain (8-byte next offsets), S zeros. */
static int ps_alloc(ps_job *j, gs_error *err)
{
    int rc = 0;
    const gs_persist_plan *p = j->plan;
    uint64_t *image = (uint64_t *)calloc(p->hot_bytes / 8, 8);
    if (!image)
        return gs_fail(err, GS_ERR_NO_MEMORY, "out of host memory (%llu B for the chain image)",
                       (unsigned long long)p->hot_bytes);
    for (size_t i = 0; i < p->chain_len; i++)
        image[p->chain[i] / 8] = p->chain[(i + 1) % p->chain_len];
    CUDA_TRY(cudaMalloc(&j->hot, p->hot_bytes));
    CUDA_TRY(cudaMalloc(&j->cold, p->hot_bytes));
    CUDA_TRY(cudaMalloc(&j->stream_buf, p->stream_bytes));
    CUDA_TRY(cudaMalloc(&j->chase_out, PS_CHASES * 2 * sizeof *j->chase_out));
    CUDA_TRY(cudaMalloc(&j->times, PS_READS * 2 * (size_t)j->blocks * sizeof *j->times));
    CUDA_TRY(cudaMalloc(&j->sink, sizeof *j->sink));
    CUDA_TRY(cudaMemcpy(j->hot, image, p->hot_bytes, cudaMemcpyHostToDevice));
    CUDA_TRY(cudaMemcpy(j->cold, image, p->hot_bytes, cudaMemcpyHostToDevice));
    CUDA_TRY(cudaMemset(j->stream_buf, 0, p->stream_bytes));
fail:
    free(image);
    return rc;
}

/* The stream and its window: base H, all of it, hitRatio 1, missProp streaming. */
static int ps_stream(ps_job *j, gs_error *err)
{
    int rc = 0;
    CUDA_TRY(cudaStreamCreateWithFlags(&j->stream, cudaStreamNonBlocking));
    if (j->plan->mode == GS_PERSIST_NONE)
        return 0;
    cudaStreamAttrValue attr;
    memset(&attr, 0, sizeof attr);
    attr.accessPolicyWindow.base_ptr = j->hot;
    attr.accessPolicyWindow.num_bytes = j->plan->hot_bytes;
    attr.accessPolicyWindow.hitRatio = 1.0f;
    attr.accessPolicyWindow.hitProp = j->plan->mode == GS_PERSIST_PERSISTING
                                          ? cudaAccessPropertyPersisting
                                          : cudaAccessPropertyNormal;
    attr.accessPolicyWindow.missProp = cudaAccessPropertyStreaming;
    CUDA_TRY(cudaStreamSetAttribute(j->stream, cudaStreamAttributeAccessPolicyWindow, &attr));
fail:
    return rc;
}

static int ps_launch_read(ps_job *j, const unsigned char *buf, uint64_t bytes,
                          unsigned long long *times, gs_error *err)
{
    int rc = 0;
    ps_read<<<j->blocks, PS_READ_THREADS, 0, j->stream>>>((const uint4 *)buf, bytes / 16, times,
                                                          j->sink);
    CUDA_TRY(cudaGetLastError());
fail:
    return rc;
}

static int ps_launch_chase(ps_job *j, const unsigned char *buf, int k, gs_error *err)
{
    int rc = 0;
    ps_chase<<<1, 1, 0, j->stream>>>(buf, j->plan->chain[0], j->plan->chain_len,
                                     j->chase_out + 2 * k);
    CUDA_TRY(cudaGetLastError());
fail:
    return rc;
}

/* Seconds from the first block's start to the last block's end. */
static double ps_span_s(const unsigned long long *t, unsigned blocks)
{
    unsigned long long first = t[0], last = t[1];
    for (unsigned b = 1; b < blocks; b++) {
        first = t[2 * b] < first ? t[2 * b] : first;
        last = t[2 * b + 1] > last ? t[2 * b + 1] : last;
    }
    return (double)(last - first) * 1e-9;
}

/* One round: sweep, chase H, H, D; sweep, read H, H, D. Round r > 0 is recorded as r - 1. */
static int ps_round(ps_job *j, unsigned r, gs_persist_result *out, unsigned long long *times,
                    gs_error *err)
{
    int rc = 0;
    const gs_persist_plan *p = j->plan;
    unsigned long long chase[PS_CHASES * 2];
    size_t per_read = 2 * (size_t)j->blocks;
    if ((rc = ps_launch_read(j, j->stream_buf, p->stream_bytes, NULL, err)) ||
        (rc = ps_launch_chase(j, j->hot, 0, err)) || (rc = ps_launch_chase(j, j->hot, 1, err)) ||
        (rc = ps_launch_chase(j, j->cold, 2, err)) ||
        (rc = ps_launch_read(j, j->stream_buf, p->stream_bytes, NULL, err)) ||
        (rc = ps_launch_read(j, j->hot, p->hot_bytes, j->times, err)) ||
        (rc = ps_launch_read(j, j->hot, p->hot_bytes, j->times + per_read, err)) ||
        (rc = ps_launch_read(j, j->cold, p->hot_bytes, j->times + 2 * per_read, err)))
        return rc;
    CUDA_TRY(cudaStreamSynchronize(j->stream));
    CUDA_TRY(cudaMemcpy(chase, j->chase_out, sizeof chase, cudaMemcpyDeviceToHost));
    CUDA_TRY(cudaMemcpy(times, j->times, PS_READS * per_read * sizeof *times,
                        cudaMemcpyDeviceToHost));
    if (r == 0)
        return 0;
    out->hot_cycles[r - 1] = (double)chase[0] / (double)p->chain_len;
    out->warm_cycles[r - 1] = (double)chase[2] / (double)p->chain_len;
    out->cold_cycles[r - 1] = (double)chase[4] / (double)p->chain_len;
    out->hot_read_s[r - 1] = ps_span_s(times, j->blocks);
    out->warm_read_s[r - 1] = ps_span_s(times + per_read, j->blocks);
    out->cold_read_s[r - 1] = ps_span_s(times + 2 * per_read, j->blocks);
    out->n = r;
fail:
    return rc;
}

static int ps_measure(ps_job *j, gs_persist_result *out, gs_error *err)
{
    int rc = ps_alloc(j, err);
    if (!rc)
        rc = ps_stream(j, err);
    unsigned long long *times =
        (unsigned long long *)malloc(PS_READS * 2 * (size_t)j->blocks * sizeof *times);
    if (!rc && !times)
        rc = gs_fail(err, GS_ERR_NO_MEMORY, "out of host memory");
    for (unsigned r = 0; !rc && r <= j->plan->rounds; r++)   /* round 0 is the warm-up */
        rc = ps_round(j, r, out, times, err);
    free(times);
    return rc;
}

static void ps_release(ps_job *j)
{
    if (j->stream)
        cudaStreamDestroy(j->stream);
    cudaFree(j->hot);
    cudaFree(j->cold);
    cudaFree(j->stream_buf);
    cudaFree(j->chase_out);
    cudaFree(j->times);
    cudaFree(j->sink);
}

/* The limits; 0 for a device without them (under 8.0 the attributes read 0). */
static int ps_query(int ordinal, gs_persist_result *out, gs_error *err)
{
    int rc = 0, set_aside = 0, window = 0;
    CUDA_TRY(cudaDeviceGetAttribute(&set_aside, cudaDevAttrMaxPersistingL2CacheSize, ordinal));
    CUDA_TRY(cudaDeviceGetAttribute(&window, cudaDevAttrMaxAccessPolicyWindowSize, ordinal));
    out->max_set_aside_bytes = set_aside > 0 ? (uint64_t)set_aside : 0;
    out->max_window_bytes = window > 0 ? (uint64_t)window : 0;
fail:
    return rc;
}

/* Put the context's set-aside back: persisting lines to normal, then the previous limit. The
 * first failure is kept in *err unless an earlier one is there (rc). */
static int ps_restore(size_t previous, int rc, gs_error *err)
{
    gs_error mine;
    gs_error_clear(&mine);
    int r2 = 0;
    cudaError_t e = cudaCtxResetPersistingL2Cache();
    if (e != cudaSuccess)
        r2 = gs_cuda_fail(&mine, e, "cudaCtxResetPersistingL2Cache()", __FILE__, __LINE__);
    e = cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, previous);
    if (e != cudaSuccess && !r2)
        r2 = gs_cuda_fail(&mine, e, "cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, previous)",
                          __FILE__, __LINE__);
    size_t now = 0;
    if (!r2 && (e = cudaDeviceGetLimit(&now, cudaLimitPersistingL2CacheSize)) != cudaSuccess)
        r2 = gs_cuda_fail(&mine, e, "cudaDeviceGetLimit(cudaLimitPersistingL2CacheSize)",
                          __FILE__, __LINE__);
    if (!r2 && now != previous)
        r2 = gs_fail(&mine, GS_ERR_DEVICE, "the persisting L2 limit reads %zu B after restoring "
                     "it to %zu B", now, previous);
    if (rc || !r2)
        return rc;
    *err = mine;
    return r2;
}

int gs_cuda_persist(gs_backend *b, const gs_persist_plan *plan, gs_persist_result *out,
                    gs_error *err)
{
    int rc = gs_persist_plan_check(plan, out, err);
    gs_cuda *cu = gs_cuda_of(b);
    size_t previous = 0, now = 0;
    if (rc)
        return rc;
    out->n = 0;
    CUDA_TRY(cudaSetDevice(cu->ordinal));
    if ((rc = ps_query(cu->ordinal, out, err)) || plan->mode == GS_PERSIST_QUERY)
        return rc;
    if (out->max_set_aside_bytes == 0 || out->max_window_bytes == 0)
        return gs_fail(err, GS_ERR_UNSUPPORTED, "the device has no persisting L2 (compute "
                       "capability %d.%d; the access policy window needs 8.0+)",
                       cu->prop.major, cu->prop.minor);
    if (plan->hot_bytes > out->max_window_bytes)
        return gs_fail(err, GS_ERR_USAGE, "persist plan: hot_bytes %llu exceed the largest "
                       "access policy window, %llu B", (unsigned long long)plan->hot_bytes,
                       (unsigned long long)out->max_window_bytes);
    CUDA_TRY(cudaDeviceGetLimit(&previous, cudaLimitPersistingL2CacheSize));
    out->previous_limit_bytes = previous;
    {
        /* From here on the limit is ours to put back: every path goes through ps_restore. */
        ps_job j;
        memset(&j, 0, sizeof j);
        j.plan = plan;
        j.blocks = (unsigned)cu->prop.multiProcessorCount * PS_BLOCKS_PER_SM;
        size_t want = plan->set_aside_bytes < out->max_set_aside_bytes
                          ? (size_t)plan->set_aside_bytes : (size_t)out->max_set_aside_bytes;
        cudaError_t e = cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, want);
        if (e == cudaErrorUnsupportedLimit)
            rc = gs_fail(err, GS_ERR_UNSUPPORTED, "cudaDeviceSetLimit(cudaLimitPersistingL2"
                         "CacheSize) is not supported here (MIG or MPS?): %s",
                         cudaGetErrorString(e));
        else if (e != cudaSuccess)
            rc = gs_cuda_fail(err, e, "cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize)",
                              __FILE__, __LINE__);
        if (!rc && (e = cudaDeviceGetLimit(&now, cudaLimitPersistingL2CacheSize)) != cudaSuccess)
            rc = gs_cuda_fail(err, e, "cudaDeviceGetLimit(cudaLimitPersistingL2CacheSize)",
                              __FILE__, __LINE__);
        out->set_aside_bytes = now;
        if (!rc)
            rc = ps_measure(&j, out, err);
        ps_release(&j);
        return ps_restore(previous, rc, err);
    }
fail:
    return rc;
}
