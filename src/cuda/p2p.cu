/* The CUDA backend's p2p operation (src/plan.h): between two GPUs of the node, the copy engine
 * (cudaMemcpyPeerAsync), a copy kernel pulling over the peer mapping (runs on dst, loads src's
 * memory) or pushing (runs on src, stores into dst's), and a pointer chase by one thread of dst in
 * src's memory; with the access and the link as the driver reports them (cudaDeviceCanAccessPeer,
 * cudaDeviceGetP2PAttribute, NVML). Peer access is enabled for the operation and disabled again
 * (unless someone else had enabled it); NVLink multicast is never used. As in nvbandwidth, each
 * repetition is timed alone with events on the issuing device after one untimed warm-up. The
 * backend's own device is current again on return. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "cuda/cuda_internal.h"

#define COPY_THREADS 512

/* dst[i] = src[i] in 16-byte words, grid-stride; one of the two pointers is a peer's. */
__global__ void p2p_copy(const uint4 *__restrict__ src, uint4 *__restrict__ dst, size_t words)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < words; i += stride)
        dst[i] = src[i];
}

/* The chain: element k (at k * stride_words) holds the address of element k + 1, the last the
 * first's. Run on the device that owns the memory. */
__global__ void p2p_chain_init(uint64_t *base, size_t stride_words, size_t count)
{
    size_t step = (size_t)gridDim.x * blockDim.x;
    for (size_t k = (size_t)blockIdx.x * blockDim.x + threadIdx.x; k < count; k += step)
        base[k * stride_words] = (uint64_t)(uintptr_t)&base[(k + 1) % count * stride_words];
}

static __device__ __forceinline__ unsigned long long p2p_globaltimer(void)
{
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t)::"memory");
    return t;
}

/* One thread follows accesses links from start; out[0] ns, out[1] cycles, out[2] the end (so the
 * loads are kept). The timed loop holds only the loads. */
__global__ void p2p_chase(const uint64_t *start, uint64_t accesses, unsigned long long *out)
{
    const uint64_t *p = start;
    unsigned long long t0 = p2p_globaltimer();
    long long c0 = clock64();
    for (uint64_t a = 0; a < accesses; a++)
        p = (const uint64_t *)(uintptr_t)*(volatile const uint64_t *)p;
    long long c1 = clock64();
    unsigned long long t1 = p2p_globaltimer();
    out[0] = t1 - t0;
    out[1] = (unsigned long long)(c1 - c0);
    out[2] = (unsigned long long)(uintptr_t)p;
}

/* What one operation holds, freed by p2p_release whatever happened. */
typedef struct p2p_job {
    const gs_p2p_plan *plan;
    void *src_buf, *dst_buf;      /* on src_device and dst_device */
    unsigned long long *chase_out;/* on dst_device */
    int peer_on, peer_of;         /* peer access this job enabled: on device peer_on to peer_of;
                                     -1 none */
} p2p_job;

static void p2p_release(p2p_job *j)
{
    if (j->peer_on >= 0 && cudaSetDevice(j->peer_on) == cudaSuccess)
        cudaDeviceDisablePeerAccess(j->peer_of);
    if (j->src_buf && cudaSetDevice(j->plan->src_device) == cudaSuccess)
        cudaFree(j->src_buf);
    if (j->dst_buf && cudaSetDevice(j->plan->dst_device) == cudaSuccess)
        cudaFree(j->dst_buf);
    if (j->chase_out && cudaSetDevice(j->plan->dst_device) == cudaSuccess)
        cudaFree(j->chase_out);
}

/* Let device `on` map device `of`'s memory; remember to undo it unless it was already on. */
static int enable_peer(p2p_job *j, int on, int of, gs_error *err)
{
    int rc = 0;
    CUDA_TRY(cudaSetDevice(on));
    {
        cudaError_t e = cudaDeviceEnablePeerAccess(of, 0);
        if (e == cudaErrorPeerAccessAlreadyEnabled) {
            (void)cudaGetLastError();      /* clear it: not ours to disable */
            return 0;
        }
        CUDA_TRY(e);
    }
    j->peer_on = on;
    j->peer_of = of;
fail:
    return rc;
}

/* Access, rank, atomics and link of the plan's pair, for the device that runs its kind. */
static int query(const gs_p2p_plan *plan, gs_p2p_result *out, gs_error *err)
{
    int rc = 0, can = 0, rank = -1, atomics = -1;
    int runner = plan->kind == GS_P2P_KERNEL_WRITE ? plan->src_device : plan->dst_device;
    int other = runner == plan->src_device ? plan->dst_device : plan->src_device;
    char bus_a[32], bus_b[32];
    CUDA_TRY(cudaDeviceCanAccessPeer(&can, runner, other));
    CUDA_TRY(cudaDeviceGetP2PAttribute(&rank, cudaDevP2PAttrPerformanceRank, runner, other));
    CUDA_TRY(cudaDeviceGetP2PAttribute(&atomics, cudaDevP2PAttrNativeAtomicSupported, runner,
                                       other));
    CUDA_TRY(cudaDeviceGetPCIBusId(bus_a, (int)sizeof bus_a, plan->src_device));
    CUDA_TRY(cudaDeviceGetPCIBusId(bus_b, (int)sizeof bus_b, plan->dst_device));
    out->access_possible = can != 0;
    out->performance_rank = can ? rank : -1;
    out->native_atomics = can ? atomics : -1;
    gs_cuda_nvml_link(bus_a, bus_b, out->link, sizeof out->link, out->link_detail,
                      sizeof out->link_detail);
    if (!can && out->link[0] == '\0')
        snprintf(out->link, sizeof out->link, "none");
fail:
    return rc;
}

static int alloc_buffers(p2p_job *j, size_t src_bytes, size_t dst_bytes, gs_error *err)
{
    int rc = 0;
    CUDA_TRY(cudaSetDevice(j->plan->src_device));
    CUDA_TRY(cudaMalloc(&j->src_buf, src_bytes));
    CUDA_TRY(cudaMemset(j->src_buf, 0x5a, src_bytes));
    CUDA_TRY(cudaDeviceSynchronize());
    if (dst_bytes) {
        CUDA_TRY(cudaSetDevice(j->plan->dst_device));
        CUDA_TRY(cudaMalloc(&j->dst_buf, dst_bytes));
        CUDA_TRY(cudaMemset(j->dst_buf, 0, dst_bytes));
        CUDA_TRY(cudaDeviceSynchronize());
    }
fail:
    return rc;
}

/* One issue of the kind on the current device's stream (the copy engine or a kernel). */
static int issue(const p2p_job *j, cudaStream_t s, gs_error *err)
{
    int rc = 0;
    const gs_p2p_plan *p = j->plan;
    if (p->kind == GS_P2P_COPY_ENGINE) {
        CUDA_TRY(cudaMemcpyPeerAsync(j->dst_buf, p->dst_device, j->src_buf, p->src_device,
                                     p->bytes, s));
    } else {
        int device = 0, sms = 0;
        CUDA_TRY(cudaGetDevice(&device));
        CUDA_TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
        p2p_copy<<<(unsigned)sms * 4, COPY_THREADS, 0, s>>>((const uint4 *)j->src_buf,
                                                            (uint4 *)j->dst_buf, p->bytes / 16);
        CUDA_TRY(cudaGetLastError());
    }
fail:
    return rc;
}

/* Copy engine or kernel: one warm-up, then each repetition timed with events on the issuer. */
static int time_copies(p2p_job *j, int issuer, gs_p2p_result *out, gs_error *err)
{
    int rc = 0;
    cudaStream_t s = NULL;
    cudaEvent_t start = NULL, stop = NULL;
    CUDA_TRY(cudaSetDevice(issuer));
    CUDA_TRY(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    CUDA_TRY(cudaEventCreate(&start));
    CUDA_TRY(cudaEventCreate(&stop));
    if ((rc = issue(j, s, err)))
        goto fail;
    CUDA_TRY(cudaStreamSynchronize(s));
    for (unsigned r = 0; r < j->plan->repeats; r++) {
        float ms = 0;
        CUDA_TRY(cudaEventRecord(start, s));
        if ((rc = issue(j, s, err)))
            goto fail;
        CUDA_TRY(cudaEventRecord(stop, s));
        CUDA_TRY(cudaEventSynchronize(stop));
        CUDA_TRY(cudaEventElapsedTime(&ms, start, stop));
        out->seconds[r] = ms * 1e-3;
    }
    out->n = j->plan->repeats;
    out->bytes_moved = j->plan->bytes;
fail:
    if (stop)
        cudaEventDestroy(stop);
    if (start)
        cudaEventDestroy(start);
    if (s)
        cudaStreamDestroy(s);
    return rc;
}

/* The chain in src's memory, chased by one thread of dst: a warm-up pass, then repeats runs. */
static int time_chase(p2p_job *j, gs_p2p_result *out, gs_error *err)
{
    int rc = 0;
    const gs_p2p_plan *p = j->plan;
    size_t stride_words = p->stride_bytes / 8, count = p->bytes / p->stride_bytes;
    unsigned long long host[3];
    double cycles = 0;
    CUDA_TRY(cudaSetDevice(p->src_device));
    p2p_chain_init<<<256, 256>>>((uint64_t *)j->src_buf, stride_words, count);
    CUDA_LAUNCH_CHECK();
    CUDA_TRY(cudaSetDevice(p->dst_device));
    CUDA_TRY(cudaMalloc(&j->chase_out, sizeof host));
    p2p_chase<<<1, 1>>>((const uint64_t *)j->src_buf, count, j->chase_out);
    CUDA_LAUNCH_CHECK();
    for (unsigned r = 0; r < p->repeats; r++) {
        p2p_chase<<<1, 1>>>((const uint64_t *)j->src_buf, p->accesses, j->chase_out);
        CUDA_LAUNCH_CHECK();
        CUDA_TRY(cudaMemcpy(host, j->chase_out, sizeof host, cudaMemcpyDeviceToHost));
        out->seconds[r] = (double)host[0] * 1e-9 / (double)p->accesses;
        cycles += (double)host[1] / (double)p->accesses;
    }
    out->n = p->repeats;
    out->latency_cycles = cycles / p->repeats;
fail:
    return rc;
}

static int check_plan(const gs_p2p_plan *p, const gs_p2p_result *out, gs_error *err)
{
    int rc = 0, count = 0;
    CUDA_TRY(cudaGetDeviceCount(&count));
    if (p->src_device < 0 || p->dst_device < 0 || p->src_device >= count ||
        p->dst_device >= count || p->src_device == p->dst_device)
        return gs_fail(err, GS_ERR_USAGE, "p2p: devices %d -> %d are not two devices of this "
                       "node of %d", p->src_device, p->dst_device, count);
    if ((unsigned)p->kind >= GS_P2P_KIND_COUNT)
        return gs_fail(err, GS_ERR_USAGE, "p2p: unknown kind %d", (int)p->kind);
    if (p->kind != GS_P2P_QUERY && (p->repeats == 0 || p->bytes < 16 || !out->seconds))
        return gs_fail(err, GS_ERR_USAGE, "p2p %s: needs repeats, bytes and a seconds array",
                       gs_p2p_kind_name(p->kind));
    if (p->kind == GS_P2P_LATENCY && (p->stride_bytes < 8 || p->stride_bytes % 8 ||
                                      p->bytes / p->stride_bytes < 2 || p->accesses == 0))
        return gs_fail(err, GS_ERR_USAGE, "p2p latency: stride a multiple of 8 bytes, at least "
                       "two strides of footprint and accesses > 0");
fail:
    return rc;
}

/* The kind's measurement on a pair that has peer access where the kind needs it. */
static int run_kind(p2p_job *j, gs_p2p_result *out, gs_error *err)
{
    const gs_p2p_plan *p = j->plan;
    int rc = 0;
    switch (p->kind) {
    case GS_P2P_COPY_ENGINE:           /* direct when peer access is possible, else staged */
        rc = alloc_buffers(j, p->bytes, p->bytes, err);
        if (!rc && out->access_possible)
            rc = enable_peer(j, p->src_device, p->dst_device, err);
        return rc ? rc : time_copies(j, p->src_device, out, err);
    case GS_P2P_KERNEL_READ:
        rc = alloc_buffers(j, p->bytes, p->bytes, err);
        if (!rc)
            rc = enable_peer(j, p->dst_device, p->src_device, err);
        return rc ? rc : time_copies(j, p->dst_device, out, err);
    case GS_P2P_KERNEL_WRITE:
        rc = alloc_buffers(j, p->bytes, p->bytes, err);
        if (!rc)
            rc = enable_peer(j, p->src_device, p->dst_device, err);
        return rc ? rc : time_copies(j, p->src_device, out, err);
    default:
        rc = alloc_buffers(j, p->bytes, 0, err);
        if (!rc)
            rc = enable_peer(j, p->dst_device, p->src_device, err);
        return rc ? rc : time_chase(j, out, err);
    }
}

int gs_cuda_p2p(gs_backend *b, const gs_p2p_plan *plan_in, gs_p2p_result *out, gs_error *err)
{
    int rc = check_plan(plan_in, out, err);
    if (rc)
        return rc;
    gs_p2p_plan plan = *plan_in;
    if (plan.kind != GS_P2P_QUERY && plan.kind != GS_P2P_LATENCY)
        plan.bytes = plan.bytes / 16 * 16;        /* whole 16-byte words for the kernels */
    p2p_job j = {&plan, NULL, NULL, NULL, -1, -1};
    out->n = 0;
    rc = query(&plan, out, err);
    if (!rc && plan.kind != GS_P2P_QUERY && plan.kind != GS_P2P_COPY_ENGINE &&
        !out->access_possible)
        rc = gs_fail(err, GS_ERR_UNSUPPORTED, "p2p %s: device %d cannot access device %d's memory "
                     "(cudaDeviceCanAccessPeer is 0)", gs_p2p_kind_name(plan.kind),
                     plan.kind == GS_P2P_KERNEL_WRITE ? plan.src_device : plan.dst_device,
                     plan.kind == GS_P2P_KERNEL_WRITE ? plan.dst_device : plan.src_device);
    if (!rc && plan.kind != GS_P2P_QUERY)
        rc = run_kind(&j, out, err);
    p2p_release(&j);
    cudaError_t e = cudaSetDevice(gs_cuda_of(b)->ordinal);
    if (!rc && e != cudaSuccess)
        rc = gs_cuda_fail(err, e, "cudaSetDevice(backend ordinal)", __FILE__, __LINE__);
    return rc;
}
