/* The launch operation: host time of a kernel launch (stream and graph), of waiting for an empty
 * kernel, of synchronizing an idle stream and of an event's round trip, timed with the host's
 * monotonic clock over bursts; cudaEventElapsedTime around one empty kernel; and the cost of one
 * grid.sync() of a cooperative kernel and of one cluster.sync() (cc 9.0+), timed inside one
 * launch with %globaltimer. Cluster code is built only for sm_90 and newer (__CUDA_ARCH__ >= 900);
 * an older device or build answers GS_ERR_UNSUPPORTED. */
#include <time.h>

#include <cooperative_groups.h>

#include "cuda/cuda_internal.h"

namespace cg = cooperative_groups;

#define LAUNCH_SYNC_THREADS 128   /* threads per block of the sync kernels: four warps, so a
                                     block barrier is part of each grid or cluster sync */
#define LAUNCH_WARM 8             /* untimed launches or waits before each kind's repetitions */

static __device__ __forceinline__ unsigned long long launch_globaltimer_ns(void)
{
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

__global__ void launch_empty(void) {}

/* out[rep]: ns of `syncs` grid syncs seen by block 0, after one sync that waits for every block
 * to start. */
__global__ void launch_grid_sync(unsigned long long *out, unsigned rep, unsigned syncs)
{
    cg::grid_group g = cg::this_grid();
    g.sync();
    unsigned long long t0 = launch_globaltimer_ns();
    for (unsigned i = 0; i < syncs; i++)
        g.sync();
    unsigned long long t1 = launch_globaltimer_ns();
    if (blockIdx.x == 0 && threadIdx.x == 0)
        out[rep] = t1 - t0;
}

/* The same with cluster.sync(): block 0 (of cluster 0) writes out[rep]. */
__global__ void launch_cluster_sync(unsigned long long *out, unsigned rep, unsigned syncs)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    cg::cluster_group c = cg::this_cluster();
    c.sync();
    unsigned long long t0 = launch_globaltimer_ns();
    for (unsigned i = 0; i < syncs; i++)
        c.sync();
    unsigned long long t1 = launch_globaltimer_ns();
    if (blockIdx.x == 0 && threadIdx.x == 0)
        out[rep] = t1 - t0;
#else
    (void)out;
    (void)rep;
    (void)syncs;
#endif
}

static double host_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static cudaError_t launch_one(cudaStream_t s)
{
    return cudaLaunchKernel((const void *)launch_empty, dim3(1), dim3(1), NULL, 0, s);
}

/* STREAM: bursts of launches, the host's time per launch call. */
static int time_stream(const gs_launch_plan *p, cudaStream_t s, gs_launch_result *out,
                       gs_error *err)
{
    int rc = 0;
    for (unsigned r = 0; r < LAUNCH_WARM; r++)
        CUDA_TRY(launch_one(s));
    CUDA_TRY(cudaStreamSynchronize(s));
    for (unsigned r = 0; r < p->repeats; r++) {
        double t0 = host_ns();
        for (unsigned i = 0; i < p->burst; i++)
            CUDA_TRY(launch_one(s));
        double t1 = host_ns();
        CUDA_TRY(cudaStreamSynchronize(s));
        out->values[out->n++] = (t1 - t0) / p->burst;
    }
fail:
    return rc;
}

/* GRAPH: the same with cudaGraphLaunch of a graph captured from one empty kernel's launch. */
static int time_graph(const gs_launch_plan *p, cudaStream_t s, gs_launch_result *out,
                      gs_error *err)
{
    int rc = 0;
    cudaGraph_t graph = NULL;
    cudaGraphExec_t exec = NULL;
    CUDA_TRY(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
    {
        cudaError_t e = launch_one(s);
        cudaError_t end = cudaStreamEndCapture(s, &graph);
        CUDA_TRY(e);
        CUDA_TRY(end);
    }
    CUDA_TRY(cudaGraphInstantiate(&exec, graph, 0));
    for (unsigned r = 0; r < LAUNCH_WARM; r++)
        CUDA_TRY(cudaGraphLaunch(exec, s));
    CUDA_TRY(cudaStreamSynchronize(s));
    for (unsigned r = 0; r < p->repeats; r++) {
        double t0 = host_ns();
        for (unsigned i = 0; i < p->burst; i++)
            CUDA_TRY(cudaGraphLaunch(exec, s));
        double t1 = host_ns();
        CUDA_TRY(cudaStreamSynchronize(s));
        out->values[out->n++] = (t1 - t0) / p->burst;
    }
fail:
    if (exec)
        cudaGraphExecDestroy(exec);
    if (graph)
        cudaGraphDestroy(graph);
    return rc;
}

/* COMPLETE, SYNC_IDLE, EVENT: one wait per repetition on an idle stream. */
static int time_waits(const gs_launch_plan *p, cudaStream_t s, gs_launch_result *out,
                      gs_error *err)
{
    int rc = 0;
    cudaEvent_t ev = NULL;
    CUDA_TRY(cudaEventCreate(&ev));
    for (unsigned r = 0; r < LAUNCH_WARM + p->repeats; r++) {
        double t0 = host_ns();
        if (p->kind == GS_LAUNCH_COMPLETE)
            CUDA_TRY(launch_one(s));
        if (p->kind == GS_LAUNCH_EVENT) {
            CUDA_TRY(cudaEventRecord(ev, s));
            CUDA_TRY(cudaEventSynchronize(ev));
        } else {
            CUDA_TRY(cudaStreamSynchronize(s));
        }
        double t1 = host_ns();
        if (r >= LAUNCH_WARM)
            out->values[out->n++] = t1 - t0;
    }
fail:
    if (ev)
        cudaEventDestroy(ev);
    return rc;
}

/* EVENT_ELAPSED: cudaEventElapsedTime between events recorded around one empty kernel. */
static int time_elapsed(const gs_launch_plan *p, cudaStream_t s, gs_launch_result *out,
                        gs_error *err)
{
    int rc = 0;
    cudaEvent_t e0 = NULL, e1 = NULL;
    CUDA_TRY(cudaEventCreate(&e0));
    CUDA_TRY(cudaEventCreate(&e1));
    for (unsigned r = 0; r < LAUNCH_WARM + p->repeats; r++) {
        float ms = 0;
        CUDA_TRY(cudaEventRecord(e0, s));
        CUDA_TRY(launch_one(s));
        CUDA_TRY(cudaEventRecord(e1, s));
        CUDA_TRY(cudaEventSynchronize(e1));
        CUDA_TRY(cudaEventElapsedTime(&ms, e0, e1));
        if (r >= LAUNCH_WARM)
            out->values[out->n++] = (double)ms * 1e6;
    }
fail:
    if (e0)
        cudaEventDestroy(e0);
    if (e1)
        cudaEventDestroy(e1);
    return rc;
}

/* The grid-sync kernel needs cooperative launch; one block per SM, every block resident. */
static int check_grid(gs_backend *b, unsigned *blocks, gs_error *err)
{
    int rc = 0, per_sm = 0;
    const cudaDeviceProp *prop = &gs_cuda_of(b)->prop;
    if (!prop->cooperativeLaunch)
        return gs_fail(err, GS_ERR_UNSUPPORTED, "the device does not support cooperative launch "
                       "(cudaDevAttrCooperativeLaunch is 0)");
    CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, launch_grid_sync,
                                                           LAUNCH_SYNC_THREADS, 0));
    if (per_sm < 1)
        return gs_fail(err, GS_ERR_UNSUPPORTED, "no block of the grid-sync kernel fits on an SM");
    *blocks = (unsigned)prop->multiProcessorCount;
fail:
    return rc;
}

/* A cluster of p->cluster_size blocks needs cc 9.0 and this build's sm_90 code; blocks: as many
 * whole clusters as one per SM pair allows, at least one cluster. */
static int check_cluster(gs_backend *b, const gs_launch_plan *p, unsigned *blocks, gs_error *err)
{
    int rc = 0;
    const cudaDeviceProp *prop = &gs_cuda_of(b)->prop;
    cudaFuncAttributes fa;
    if (prop->major < 9)
        return gs_fail(err, GS_ERR_UNSUPPORTED, "needs cc 9.0 (thread-block clusters); this "
                       "device is %d.%d", prop->major, prop->minor);
    CUDA_TRY(cudaFuncGetAttributes(&fa, launch_cluster_sync));
    if (fa.ptxVersion < 90)
        return gs_fail(err, GS_ERR_UNSUPPORTED, "this gpusonar has no sm_90 code for its cluster "
                       "kernel (built for compute_%d; add 90 to GS_CUDA_ARCHS)", fa.ptxVersion);
    if (p->cluster_size < 2 || p->cluster_size > 8)
        return gs_fail(err, GS_ERR_USAGE, "cluster sync plan needs a cluster of 2 to 8 blocks");
    *blocks = (unsigned)prop->multiProcessorCount / p->cluster_size * p->cluster_size;
    if (*blocks < p->cluster_size)
        *blocks = p->cluster_size;
fail:
    return rc;
}

/* GRID_SYNC, CLUSTER_SYNC: one launch per repetition, the syncs timed inside it. */
static int time_syncs(gs_backend *b, const gs_launch_plan *p, cudaStream_t s,
                      gs_launch_result *out, gs_error *err)
{
    int rc = 0;
    unsigned blocks = 0, total = LAUNCH_WARM + p->repeats, syncs = p->burst;
    unsigned long long *d_ns = NULL, *ns = NULL;
    rc = p->kind == GS_LAUNCH_GRID_SYNC ? check_grid(b, &blocks, err)
                                        : check_cluster(b, p, &blocks, err);
    if (rc)
        return rc;
    ns = (unsigned long long *)calloc(total, sizeof *ns);
    if (!ns)
        return gs_fail(err, GS_ERR_NO_MEMORY, "out of host memory for %u launch timings", total);
    CUDA_TRY(cudaMalloc(&d_ns, total * sizeof *d_ns));
    for (unsigned r = 0; r < total; r++) {
        if (p->kind == GS_LAUNCH_GRID_SYNC) {
            void *args[] = {&d_ns, &r, &syncs};
            CUDA_TRY(cudaLaunchCooperativeKernel((const void *)launch_grid_sync, dim3(blocks),
                                                 dim3(LAUNCH_SYNC_THREADS), args, 0, s));
        } else {
            cudaLaunchConfig_t cfg = cudaLaunchConfig_t();
            cudaLaunchAttribute attr = cudaLaunchAttribute();
            attr.id = cudaLaunchAttributeClusterDimension;
            attr.val.clusterDim.x = p->cluster_size;
            attr.val.clusterDim.y = 1;
            attr.val.clusterDim.z = 1;
            cfg.gridDim = dim3(blocks, 1, 1);
            cfg.blockDim = dim3(LAUNCH_SYNC_THREADS, 1, 1);
            cfg.stream = s;
            cfg.attrs = &attr;
            cfg.numAttrs = 1;
            CUDA_TRY(cudaLaunchKernelEx(&cfg, launch_cluster_sync, d_ns, r, syncs));
        }
        CUDA_TRY(cudaGetLastError());
    }
    CUDA_TRY(cudaStreamSynchronize(s));
    CUDA_TRY(cudaMemcpy(ns, d_ns, total * sizeof *ns, cudaMemcpyDeviceToHost));
    for (unsigned r = LAUNCH_WARM; r < total; r++)
        out->values[out->n++] = (double)ns[r] / syncs;
    out->blocks = blocks;
fail:
    cudaFree(d_ns);
    free(ns);
    return rc;
}

int gs_cuda_launch(gs_backend *b, const gs_launch_plan *p, gs_launch_result *out, gs_error *err)
{
    int rc = 0;
    cudaStream_t s = NULL;
    out->n = 0;
    out->blocks = 0;
    if (p->repeats == 0 || (p->burst == 0 && (p->kind == GS_LAUNCH_STREAM ||
                                              p->kind == GS_LAUNCH_GRAPH ||
                                              p->kind == GS_LAUNCH_GRID_SYNC ||
                                              p->kind == GS_LAUNCH_CLUSTER_SYNC)))
        return gs_fail(err, GS_ERR_USAGE, "launch plan needs repeats >= 1 and burst >= 1");
    CUDA_TRY(cudaSetDevice(gs_cuda_of(b)->ordinal));
    CUDA_TRY(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    switch (p->kind) {
    case GS_LAUNCH_STREAM: rc = time_stream(p, s, out, err); break;
    case GS_LAUNCH_GRAPH: rc = time_graph(p, s, out, err); break;
    case GS_LAUNCH_COMPLETE:
    case GS_LAUNCH_SYNC_IDLE:
    case GS_LAUNCH_EVENT: rc = time_waits(p, s, out, err); break;
    case GS_LAUNCH_EVENT_ELAPSED: rc = time_elapsed(p, s, out, err); break;
    case GS_LAUNCH_GRID_SYNC:
    case GS_LAUNCH_CLUSTER_SYNC: rc = time_syncs(b, p, s, out, err); break;
    default: rc = gs_fail(err, GS_ERR_USAGE, "unknown launch kind %d", (int)p->kind);
    }
fail:
    if (s) {
        cudaError_t e = cudaStreamSynchronize(s);
        cudaStreamDestroy(s);
        if (!rc && e != cudaSuccess)
            rc = gs_cuda_fail(err, e, "cudaStreamSynchronize(s)", __FILE__, __LINE__);
    }
    return rc;
}
