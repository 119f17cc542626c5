/* The CUDA backend's cluster operation (plan.h, gs_cluster_plan): Hopper's thread-block clusters
 * and bulk copies, compute capability 9.0+. Kernels are compiled for every architecture of the
 * build but hold code only for sm_90 and newer (their bodies are guarded by __CUDA_ARCH__ >= 900
 * and write a marker that the host checks); the host refuses devices under 9.0 and builds without
 * sm_90 PTX with GS_ERR_UNSUPPORTED. Clusters are launched with cudaLaunchKernelEx and the
 * cudaLaunchAttributeClusterDimension attribute; sizes above 8 set
 * cudaFuncAttributeNonPortableClusterSizeAllowed first. Kernels:
 *   cl_latency      one thread of rank 0 chases a chain in rank `target`'s shared memory (mapa +
 *                   ld.shared::cluster), or in its own with plain ld.shared; clock64 per
 *                   repetition, closed by a shared store of the last value (it waits for the
 *                   last load);
 *   cl_read         every block reads rank (own + distance) % size's shared memory, 16-byte
 *                   loads, 4 in flight per thread; per-block globaltimer span and %smid;
 *   cl_bulk_copy    one thread per block drives cp.async.bulk global -> shared, 16 KB chunks,
 *                   4 in flight on 4 mbarriers;
 *   cl_tensor_copy  the same with cp.async.bulk.tensor.2d and a CUtensorMap (16 KB boxes of 64
 *                   rows x 256 B out of a matrix of 4 KB rows), encoded on the host by
 *                   cuTensorMapEncodeTiled through the driver's entry point (driver_shim.cu);
 *   cl_vector_copy  512 threads copy the same chunks with 16-byte loads and st.shared;
 *   cl_bulk_latency one thread: one cp.async.bulk of `bytes` at a time from the same source (in
 *                   the L2 after the untimed first copies), clock64 from the expect_tx to the
 *                   mbarrier's completion; the copy's first word is read after each (a use);
 *   cl_load_latency one warp: the same bytes with 16-byte ld.global.cg (the L2, as the bulk
 *                   copy reads it) and st.shared, up to CL_LOAD_BATCH loads in flight per lane,
 *                   clock64 by lane 0 from before the first load to after the warp's stores;
 *   cl_tensor_latency one thread: one cp.async.bulk.tensor.2d of one box of `bytes` (rows of
 *                   256 B of a matrix of 4 KB rows, gs_cluster_tensor_box) at a time, the same
 *                   box every time, timed as cl_bulk_latency. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda/cuda_internal.h"

#define CL_LATENCY_THREADS 256
#define CL_READ_THREADS 1024
#define CL_READ_UNROLL 4
#define CL_CHUNK 16384u                 /* bytes of one copy */
#define CL_STAGES 4                     /* copies in flight per block */
#define CL_COPY_SMEM (CL_STAGES * CL_CHUNK)
#define CL_BULK_THREADS 32
#define CL_VECTOR_THREADS 512
#define CL_COPY_BLOCKS_PER_SM 2
#define CL_PORTABLE 8
#define CL_TMAP_ROW_BYTES 4096u         /* the tensor map's matrix: rows of 4 KB (1024 u32) */
#define CL_TMAP_BOX_WORDS 64u           /* a box: 64 u32 (256 B) wide, 64 rows: one chunk */
#define CL_TMAP_BOX_ROWS 64u
#define CL_TMAP_ACROSS (CL_TMAP_ROW_BYTES / (CL_TMAP_BOX_WORDS * 4u))   /* boxes per box row */
#define CL_TMAP_ALIGN 128u              /* a tensor copy's shared destination alignment */
#define CL_LAT_WARMUP 4                 /* untimed transfers first (source into the L2, code) */
#define CL_LOAD_BATCH 8                 /* 16-byte loads in flight per lane (load latency) */
static_assert(CL_TMAP_ROW_BYTES == GS_CLUSTER_TENSOR_PITCH_BYTES,
              "the tensor latency's matrix is the one plan/cluster.h states");

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
static __device__ __forceinline__ unsigned cl_rank(void)
{
    unsigned r;
    asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(r));
    return r;
}

static __device__ __forceinline__ unsigned cl_ranks(void)
{
    unsigned r;
    asm volatile("mov.u32 %0, %%cluster_nctarank;" : "=r"(r));
    return r;
}

/* Every thread of every block of the cluster (release the stores before, acquire after). Not
 * .aligned: the threads of warp 0 of rank 0 arrive after one of them chased alone, and nothing
 * promises they reconverge first. */
static __device__ __forceinline__ void cl_sync(void)
{
    asm volatile("barrier.cluster.arrive.release;\n\t"
                 "barrier.cluster.wait.acquire;" ::: "memory");
}

/* The shared::cluster address of shared::cta address a in block rank's shared memory. */
static __device__ __forceinline__ unsigned cl_mapa(unsigned a, unsigned rank)
{
    unsigned r;
    asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(rank));
    return r;
}

static __device__ __forceinline__ unsigned cl_ld_cluster(unsigned a)
{
    unsigned v;
    asm volatile("ld.shared::cluster.u32 %0, [%1];" : "=r"(v) : "r"(a) : "memory");
    return v;
}

static __device__ __forceinline__ unsigned cl_ld_cta(unsigned a)
{
    unsigned v;
    asm volatile("ld.shared.u32 %0, [%1];" : "=r"(v) : "r"(a) : "memory");
    return v;
}

static __device__ __forceinline__ uint4 cl_ld_cluster_v4(unsigned a)
{
    uint4 v;
    asm volatile("ld.shared::cluster.v4.u32 {%0, %1, %2, %3}, [%4];"
                 : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "r"(a));
    return v;
}

static __device__ __forceinline__ void cl_st_v4(unsigned a, uint4 v)
{
    asm volatile("st.shared.v4.u32 [%0], {%1, %2, %3, %4};"
                 : : "r"(a), "r"(v.x), "r"(v.y), "r"(v.z), "r"(v.w) : "memory");
}

static __device__ __forceinline__ unsigned long long cl_globaltimer(void)
{
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

static __device__ __forceinline__ unsigned cl_smid(void)
{
    unsigned s;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(s));
    return s;
}

static __device__ __forceinline__ unsigned cl_smem(const void *p)
{
    return (unsigned)__cvta_generic_to_shared(p);
}

/* Expect CL_CHUNK bytes on mbarrier bar and start the bulk copy of them into dst. */
static __device__ __forceinline__ void cl_bulk_issue(unsigned dst, const void *src, unsigned bar)
{
    asm volatile("{\n\t.reg .b64 state;\n\t"
                 "mbarrier.arrive.expect_tx.shared::cta.b64 state, [%0], %1;\n\t}"
                 : : "r"(bar), "r"(CL_CHUNK) : "memory");
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes "
                 "[%0], [%1], %2, [%3];"
                 : : "r"(dst), "l"(src), "r"(CL_CHUNK), "r"(bar) : "memory");
}

static __device__ __forceinline__ void cl_bulk_wait(unsigned bar, unsigned parity)
{
    unsigned done = 0;
    while (!done)
        asm volatile("{\n\t.reg .pred p;\n\t"
                     "mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n\t"
                     "selp.u32 %0, 1, 0, p;\n\t}"
                     : "=r"(done) : "r"(bar), "r"(parity) : "memory");
}

/* Expect `bytes` (the box's) on mbarrier bar and start the tensor copy of the box at (x, y) (u32
 * columns, rows) of the tensor map at generic address map into dst (PTX ISA,
 * "cp.async.bulk.tensor"). */
static __device__ __forceinline__ void cl_tensor_issue(unsigned dst, unsigned long long map,
                                                       unsigned x, unsigned y, unsigned bar,
                                                       unsigned bytes)
{
    asm volatile("{\n\t.reg .b64 state;\n\t"
                 "mbarrier.arrive.expect_tx.shared::cta.b64 state, [%0], %1;\n\t}"
                 : : "r"(bar), "r"(bytes) : "memory");
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes "
                 "[%0], [%1, {%2, %3}], [%4];"
                 : : "r"(dst), "l"(map), "r"(x), "r"(y), "r"(bar) : "memory");
}

/* How many of the items blockIdx.x, + gridDim.x, ... lie below items (item i copies chunk
 * i % chunks). */
static __device__ __forceinline__ unsigned long long cl_my_items(unsigned long long items)
{
    return items > blockIdx.x ? (items - blockIdx.x + gridDim.x - 1) / gridDim.x : 0;
}
#endif

/* out[0] = 1 (sm_90 code ran), out[1 + r] = cycles of repetition r, out[1 + repeats] = the end.
 * Dynamic shared memory: count * stride_bytes + 16 (the drain word after the chain). */
__global__ void cl_latency(unsigned count, unsigned stride_bytes, unsigned target, int plain,
                           unsigned accesses, unsigned repeats, unsigned long long *out)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    extern __shared__ __align__(16) unsigned char cl_dyn[];
    unsigned base = cl_smem(cl_dyn), drain = base + count * stride_bytes;
    for (unsigned k = threadIdx.x; k < count; k += blockDim.x)
        *(unsigned *)(cl_dyn + (size_t)k * stride_bytes) = (k + 1) % count * stride_bytes;
    cl_sync();
    if (cl_rank() == 0 && threadIdx.x == 0) {
        unsigned off = 0, at = plain ? base : cl_mapa(base, target);
        for (unsigned a = 0; a < count; a++)                        /* warm-up pass */
            off = plain ? cl_ld_cta(at + off) : cl_ld_cluster(at + off);
        for (unsigned r = 0; r < repeats; r++) {
            long long c0 = clock64();
            if (plain)
                for (unsigned a = 0; a < accesses; a++)
                    off = cl_ld_cta(at + off);
            else
                for (unsigned a = 0; a < accesses; a++)
                    off = cl_ld_cluster(at + off);
            asm volatile("st.shared.u32 [%0], %1;" : : "r"(drain), "r"(off) : "memory");
            long long c1 = clock64();
            out[1 + r] = (unsigned long long)(c1 - c0);
        }
        out[0] = 1;
        out[1 + repeats] = off;
    }
    cl_sync();
#endif
}

/* Block b: times[2b], times[2b + 1] its globaltimer start and end, smids[b] its SM; flag[0] = 1.
 * Dynamic shared memory: words * 16, words a multiple of CL_READ_THREADS * CL_READ_UNROLL. */
__global__ void __launch_bounds__(CL_READ_THREADS)
cl_read(unsigned words, unsigned distance, unsigned passes, unsigned long long *times,
        unsigned *smids, unsigned *flag)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    extern __shared__ __align__(16) unsigned char cl_dyn[];
    uint4 *s = (uint4 *)cl_dyn;
    for (unsigned i = threadIdx.x; i < words; i += blockDim.x)
        s[i] = make_uint4(i, i ^ 1u, i ^ 2u, i ^ 3u);
    cl_sync();
    unsigned base = cl_mapa(cl_smem(cl_dyn), (cl_rank() + distance) % cl_ranks());
    unsigned step = blockDim.x * 16u, end = words * 16u, acc = 0;
    unsigned long long t0 = cl_globaltimer();
    for (unsigned p = 0; p < passes; p++)
        for (unsigned o = threadIdx.x * 16u; o < end; o += CL_READ_UNROLL * step) {
            uint4 a = cl_ld_cluster_v4(base + o), b = cl_ld_cluster_v4(base + o + step);
            uint4 c = cl_ld_cluster_v4(base + o + 2 * step), d = cl_ld_cluster_v4(base + o + 3 * step);
            acc ^= a.x ^ a.y ^ a.z ^ a.w ^ b.x ^ b.y ^ b.z ^ b.w;
            acc ^= c.x ^ c.y ^ c.z ^ c.w ^ d.x ^ d.y ^ d.z ^ d.w;
        }
    __syncthreads();
    unsigned long long t1 = cl_globaltimer();
    if (threadIdx.x == 0) {
        times[2 * blockIdx.x] = t0;
        times[2 * blockIdx.x + 1] = t1;
        smids[blockIdx.x] = cl_smid();
        if (blockIdx.x == 0)
            flag[0] = 1;
    }
    if (acc == 0x9e3779b9u)                 /* keeps the loads; never true for this data */
        flag[1] = acc;
    cl_sync();
#endif
}

/* One thread per block drives CL_STAGES bulk copies in flight. flag[0] = 1. */
__global__ void cl_bulk_copy(const unsigned char *src, unsigned long long chunks,
                             unsigned long long items, unsigned *flag)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    extern __shared__ __align__(16) unsigned char cl_dyn[];
    __shared__ __align__(8) unsigned long long bars[CL_STAGES];
    if (threadIdx.x != 0)
        return;
    unsigned buf = cl_smem(cl_dyn), bar = cl_smem(bars);
    for (unsigned s = 0; s < CL_STAGES; s++)
        asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" : : "r"(bar + 8 * s) : "memory");
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    unsigned long long mine = cl_my_items(items);
    for (unsigned long long k = 0; k < mine && k < CL_STAGES; k++)
        cl_bulk_issue(buf + (unsigned)k * CL_CHUNK,
                      src + (blockIdx.x + k * gridDim.x) % chunks * CL_CHUNK, bar + 8 * (unsigned)k);
    for (unsigned long long k = 0; k < mine; k++) {
        unsigned s = (unsigned)(k % CL_STAGES);
        cl_bulk_wait(bar + 8 * s, (unsigned)(k / CL_STAGES) & 1u);
        unsigned long long next = k + CL_STAGES;
        if (next < mine)
            cl_bulk_issue(buf + s * CL_CHUNK,
                          src + (blockIdx.x + next * gridDim.x) % chunks * CL_CHUNK, bar + 8 * s);
    }
    if (blockIdx.x == 0)
        flag[0] = 1;
    if (mine && *(volatile unsigned *)cl_dyn == 0x9e3779b9u)   /* the copies landed: use one */
        flag[1] = 1;
#endif
}

/* One thread per block drives CL_STAGES tensor copies in flight; chunk i is the box at column
 * i % CL_TMAP_ACROSS, row i / CL_TMAP_ACROSS. The buffers start at the first CL_TMAP_ALIGN
 * boundary of the dynamic shared memory, the mbarriers after them. flag[0] = 1. */
__global__ void cl_tensor_copy(const __grid_constant__ CUtensorMap map, unsigned long long chunks,
                               unsigned long long items, unsigned *flag)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    extern __shared__ __align__(16) unsigned char cl_dyn[];
    if (threadIdx.x != 0)
        return;
    unsigned base = cl_smem(cl_dyn);
    unsigned buf = (base + CL_TMAP_ALIGN - 1) & ~(CL_TMAP_ALIGN - 1), bar = buf + CL_COPY_SMEM;
    unsigned long long m = reinterpret_cast<unsigned long long>(&map);
    for (unsigned s = 0; s < CL_STAGES; s++)
        asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" : : "r"(bar + 8 * s) : "memory");
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    unsigned long long mine = cl_my_items(items);
    for (unsigned long long k = 0; k < mine && k < CL_STAGES; k++) {
        unsigned long long c = (blockIdx.x + k * gridDim.x) % chunks;
        cl_tensor_issue(buf + (unsigned)k * CL_CHUNK, m,
                        (unsigned)(c % CL_TMAP_ACROSS) * CL_TMAP_BOX_WORDS,
                        (unsigned)(c / CL_TMAP_ACROSS) * CL_TMAP_BOX_ROWS, bar + 8 * (unsigned)k,
                        CL_CHUNK);
    }
    for (unsigned long long k = 0; k < mine; k++) {
        unsigned s = (unsigned)(k % CL_STAGES);
        cl_bulk_wait(bar + 8 * s, (unsigned)(k / CL_STAGES) & 1u);
        unsigned long long next = k + CL_STAGES;
        if (next < mine) {
            unsigned long long c = (blockIdx.x + next * gridDim.x) % chunks;
            cl_tensor_issue(buf + s * CL_CHUNK, m, (unsigned)(c % CL_TMAP_ACROSS) * CL_TMAP_BOX_WORDS,
                            (unsigned)(c / CL_TMAP_ACROSS) * CL_TMAP_BOX_ROWS, bar + 8 * s,
                            CL_CHUNK);
        }
    }
    if (blockIdx.x == 0)
        flag[0] = 1;
    if (mine && *(volatile unsigned *)(cl_dyn + (buf - base)) == 0x9e3779b9u)   /* use one */
        flag[1] = 1;
#endif
}

/* CL_VECTOR_THREADS threads copy the same chunks, two at a time (4 x 16 B in flight per thread),
 * into the same CL_STAGES buffers. flag[0] = 1. */
__global__ void __launch_bounds__(CL_VECTOR_THREADS)
cl_vector_copy(const uint4 *src, unsigned long long chunks, unsigned long long items,
               unsigned *flag)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    extern __shared__ __align__(16) unsigned char cl_dyn[];
    const unsigned words = CL_CHUNK / 16, t = threadIdx.x, half = CL_VECTOR_THREADS;
    unsigned buf = cl_smem(cl_dyn);
    unsigned long long mine = cl_my_items(items);
    for (unsigned long long k = 0; k < mine; k += 2) {
        bool two = k + 1 < mine;
        const uint4 *a = src + (blockIdx.x + k * gridDim.x) % chunks * words;
        const uint4 *b = two ? src + (blockIdx.x + (k + 1) * gridDim.x) % chunks * words : a;
        uint4 a0 = a[t], a1 = a[t + half], b0 = b[t], b1 = b[t + half];
        unsigned sa = buf + (unsigned)(k % CL_STAGES) * CL_CHUNK;
        unsigned sb = buf + (unsigned)((k + 1) % CL_STAGES) * CL_CHUNK;
        cl_st_v4(sa + 16 * t, a0);
        cl_st_v4(sa + 16 * (t + half), a1);
        if (two) {
            cl_st_v4(sb + 16 * t, b0);
            cl_st_v4(sb + 16 * (t + half), b1);
        }
    }
    if (blockIdx.x == 0 && t == 0)
        flag[0] = 1;
#endif
}

/* One thread: out[0] = 1 (sm_90 code ran), out[1 + r] = cycles of transfer r, out[1 + repeats]
 * the words read back. Dynamic shared memory: bytes (16..CL_CHUNK, a multiple of 16). */
__global__ void cl_bulk_latency(const unsigned char *src, unsigned bytes, unsigned repeats,
                                unsigned long long *out)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    extern __shared__ __align__(16) unsigned char cl_dyn[];
    __shared__ __align__(8) unsigned long long bar_word;
    if (threadIdx.x != 0)
        return;
    unsigned buf = cl_smem(cl_dyn), bar = cl_smem(&bar_word), sum = 0;
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" : : "r"(bar) : "memory");
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    for (int r = -CL_LAT_WARMUP; r < (int)repeats; r++) {
        long long c0 = clock64();
        asm volatile("{\n\t.reg .b64 state;\n\t"
                     "mbarrier.arrive.expect_tx.shared::cta.b64 state, [%0], %1;\n\t}"
                     : : "r"(bar), "r"(bytes) : "memory");
        asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes "
                     "[%0], [%1], %2, [%3];"
                     : : "r"(buf), "l"(src), "r"(bytes), "r"(bar) : "memory");
        cl_bulk_wait(bar, (unsigned)(r + CL_LAT_WARMUP) & 1u);
        long long c1 = clock64();
        sum += *(volatile unsigned *)cl_dyn;
        if (r >= 0)
            out[1 + r] = (unsigned long long)(c1 - c0);
    }
    out[0] = 1;
    out[1 + repeats] = sum;
#endif
}

/* One thread: out as cl_bulk_latency's; each transfer is the box at (0, 0) of map, `bytes` long.
 * Dynamic shared memory: bytes + CL_TMAP_ALIGN (the box lands at the first aligned address). */
__global__ void cl_tensor_latency(const __grid_constant__ CUtensorMap map, unsigned bytes,
                                  unsigned repeats, unsigned long long *out)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    extern __shared__ __align__(16) unsigned char cl_dyn[];
    __shared__ __align__(8) unsigned long long bar_word;
    if (threadIdx.x != 0)
        return;
    unsigned base = cl_smem(cl_dyn), bar = cl_smem(&bar_word), sum = 0;
    unsigned buf = (base + CL_TMAP_ALIGN - 1) & ~(CL_TMAP_ALIGN - 1);
    unsigned long long m = reinterpret_cast<unsigned long long>(&map);
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" : : "r"(bar) : "memory");
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    for (int r = -CL_LAT_WARMUP; r < (int)repeats; r++) {
        long long c0 = clock64();
        cl_tensor_issue(buf, m, 0, 0, bar, bytes);
        cl_bulk_wait(bar, (unsigned)(r + CL_LAT_WARMUP) & 1u);
        long long c1 = clock64();
        sum += *(volatile unsigned *)(cl_dyn + (buf - base));
        if (r >= 0)
            out[1 + r] = (unsigned long long)(c1 - c0);
    }
    out[0] = 1;
    out[1 + repeats] = sum;
#endif
}

/* One warp: out as cl_bulk_latency's. Dynamic shared memory: bytes. */
__global__ void __launch_bounds__(32)
cl_load_latency(const uint4 *src, unsigned bytes, unsigned repeats, unsigned long long *out)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    extern __shared__ __align__(16) unsigned char cl_dyn[];
    const unsigned words = bytes / 16, lane = threadIdx.x;
    unsigned buf = cl_smem(cl_dyn);
    for (int r = -CL_LAT_WARMUP; r < (int)repeats; r++) {
        __syncwarp();
        long long c0 = clock64();
        for (unsigned w = lane; w < words; w += 32 * CL_LOAD_BATCH) {
            uint4 v[CL_LOAD_BATCH];
#pragma unroll
            for (unsigned k = 0; k < CL_LOAD_BATCH; k++)
                if (w + 32 * k < words)
                    v[k] = __ldcg(src + w + 32 * k);
#pragma unroll
            for (unsigned k = 0; k < CL_LOAD_BATCH; k++)
                if (w + 32 * k < words)
                    cl_st_v4(buf + 16 * (w + 32 * k), v[k]);
        }
        __syncwarp();
        long long c1 = clock64();
        if (r >= 0 && lane == 0)
            out[1 + r] = (unsigned long long)(c1 - c0);
    }
    if (lane == 0) {
        out[0] = 1;
        out[1 + repeats] = *(volatile unsigned *)cl_dyn;
    }
#endif
}

/* ---- host ----------------------------------------------------------------------------------- */
/* What one operation holds, freed whatever happened. */
typedef struct cl_job {
    unsigned long long *out;      /* latency results, or the read kernel's times */
    unsigned *smids;
    unsigned *flag;
    void *src;
    cudaEvent_t start, stop;
    CUtensorMap map;              /* the tensor copy's map of src */
} cl_job;

static void cl_release(cl_job *j)
{
    if (j->out)
        cudaFree(j->out);
    if (j->smids)
        cudaFree(j->smids);
    if (j->flag)
        cudaFree(j->flag);
    if (j->src)
        cudaFree(j->src);
    if (j->start)
        cudaEventDestroy(j->start);
    if (j->stop)
        cudaEventDestroy(j->stop);
}

static const void *cl_kernel_of(gs_cluster_kind k)
{
    return k == GS_CLUSTER_BULK_LATENCY ? (const void *)cl_bulk_latency
         : k == GS_CLUSTER_LOAD_LATENCY ? (const void *)cl_load_latency
         : k == GS_CLUSTER_TENSOR_LATENCY ? (const void *)cl_tensor_latency
         : k == GS_CLUSTER_BULK_COPY ? (const void *)cl_bulk_copy
         : k == GS_CLUSTER_TENSOR_COPY ? (const void *)cl_tensor_copy
         : k == GS_CLUSTER_VECTOR_COPY ? (const void *)cl_vector_copy
         : k == GS_CLUSTER_BANDWIDTH || k == GS_CLUSTER_QUERY ? (const void *)cl_read
         : (const void *)cl_latency;
}

/* The device has clusters and this build has sm_90 code for the kind's kernel. */
static int cl_check_device(gs_backend *b, const gs_cluster_plan *plan, gs_error *err)
{
    const cudaDeviceProp *p = &gs_cuda_of(b)->prop;
    int rc = 0;
    cudaFuncAttributes fa;
    if (p->major < 9)
        return gs_fail(err, GS_ERR_UNSUPPORTED, "needs compute capability 9.0+; this device is "
                       "%d.%d", p->major, p->minor);
    CUDA_TRY(cudaFuncGetAttributes(&fa, cl_kernel_of(plan->kind)));
    if (fa.ptxVersion < 90)
        return gs_fail(err, GS_ERR_UNSUPPORTED, "this gpusonar has no sm_90 code for its cluster "
                       "kernels (built for compute_%d; add 90 to GS_CUDA_ARCHS)", fa.ptxVersion);
fail:
    return rc;
}

static void cl_config(cudaLaunchConfig_t *cfg, cudaLaunchAttribute *attr, unsigned size,
                      unsigned blocks, unsigned threads, size_t smem)
{
    *cfg = cudaLaunchConfig_t();
    *attr = cudaLaunchAttribute();
    attr->id = cudaLaunchAttributeClusterDimension;
    attr->val.clusterDim.x = size;
    attr->val.clusterDim.y = 1;
    attr->val.clusterDim.z = 1;
    cfg->gridDim = dim3(blocks, 1, 1);
    cfg->blockDim = dim3(threads, 1, 1);
    cfg->dynamicSmemBytes = smem;
    cfg->attrs = attr;
    cfg->numAttrs = 1;
}

/* Shared-memory limit and, above the portable size, the non-portable permission on the
 * kernel; a refusal of the permission is the answer "not allowed", not an error. */
static int cl_prepare(const void *kernel, unsigned size, size_t smem, gs_cluster_result *out,
                      gs_error *err)
{
    int rc = 0;
    CUDA_TRY(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
    if (size > CL_PORTABLE) {
        cudaError_t e = cudaFuncSetAttribute(kernel, cudaFuncAttributeNonPortableClusterSizeAllowed, 1);
        if (e != cudaSuccess) {
            (void)cudaGetLastError();
            out->allowed = false;
            snprintf(out->why, sizeof out->why, "cudaFuncAttributeNonPortableClusterSizeAllowed "
                     "refused: %s", cudaGetErrorString(e));
        }
    }
fail:
    return rc;
}

/* allowed, why, max_active_clusters (of the read kernel, 1024 threads and smem_bytes of shared
 * memory) and max_cluster_size. */
static int cl_query(const gs_cluster_plan *plan, gs_cluster_result *out, gs_error *err)
{
    int rc = 0, active = 0, potential = 0;
    size_t smem = plan->smem_bytes ? plan->smem_bytes : 65536;
    cudaLaunchConfig_t cfg;
    cudaLaunchAttribute attr;
    out->allowed = true;
    out->why[0] = '\0';
    if ((rc = cl_prepare((const void *)cl_read, CL_PORTABLE * 2, smem, out, err)))
        return rc;
    cl_config(&cfg, &attr, plan->cluster_size, plan->cluster_size, CL_READ_THREADS, smem);
    cfg.numAttrs = 0;
    if (cudaOccupancyMaxPotentialClusterSize(&potential, (const void *)cl_read, &cfg) !=
        cudaSuccess)
        (void)cudaGetLastError();
    out->max_cluster_size = potential;
    if (!out->allowed && plan->cluster_size > CL_PORTABLE)
        return 0;
    out->allowed = true;
    out->why[0] = '\0';
    cfg.numAttrs = 1;
    cudaError_t e = cudaOccupancyMaxActiveClusters(&active, (const void *)cl_read, &cfg);
    if (e != cudaSuccess) {
        (void)cudaGetLastError();
        out->allowed = false;
        snprintf(out->why, sizeof out->why, "cudaOccupancyMaxActiveClusters: %s",
                 cudaGetErrorString(e));
    } else if (active <= 0) {
        out->allowed = false;
        snprintf(out->why, sizeof out->why, "no cluster of %u blocks (%d threads, %zu B of "
                 "shared memory each) fits", plan->cluster_size, CL_READ_THREADS, smem);
    }
    out->max_active_clusters = out->allowed ? active : 0;
    return rc;
}

static int cl_time_latency(const gs_cluster_plan *p, cl_job *j, gs_cluster_result *out,
                           gs_error *err)
{
    int rc = 0;
    unsigned count = (unsigned)(p->smem_bytes / p->stride_bytes);
    size_t smem = (size_t)count * p->stride_bytes + 16;
    unsigned long long *host = (unsigned long long *)calloc(p->repeats + 2, sizeof *host);
    cudaLaunchConfig_t cfg;
    cudaLaunchAttribute attr;
    int plain = p->kind == GS_CLUSTER_LOCAL_LATENCY;
    if (!host)
        return gs_fail(err, GS_ERR_NO_MEMORY, "out of host memory");
    if ((rc = cl_prepare((const void *)cl_latency, p->cluster_size, smem, out, err)))
        goto fail;
    CUDA_TRY(cudaMalloc(&j->out, (p->repeats + 2) * sizeof *host));
    CUDA_TRY(cudaMemset(j->out, 0, (p->repeats + 2) * sizeof *host));
    cl_config(&cfg, &attr, p->cluster_size, p->cluster_size, CL_LATENCY_THREADS, smem);
    CUDA_TRY(cudaLaunchKernelEx(&cfg, cl_latency, count, (unsigned)p->stride_bytes, p->rank, plain,
                                (unsigned)p->accesses, p->repeats, j->out));
    CUDA_LAUNCH_CHECK();
    CUDA_TRY(cudaMemcpy(host, j->out, (p->repeats + 2) * sizeof *host, cudaMemcpyDeviceToHost));
    if (host[0] != 1) {
        rc = gs_fail(err, GS_ERR_UNSUPPORTED, "the cluster latency kernel ran without sm_90 code");
        goto fail;
    }
    for (unsigned r = 0; r < p->repeats; r++)
        out->values[r] = (double)host[1 + r] / (double)p->accesses;
    out->n = p->repeats;
fail:
    free(host);
    return rc;
}

/* Distinct SMs among n ids. */
static unsigned cl_distinct(const unsigned *ids, unsigned n)
{
    unsigned char seen[4096] = {0};
    unsigned count = 0;
    for (unsigned i = 0; i < n; i++)
        if (ids[i] < sizeof seen && !seen[ids[i]]++)
            count++;
    return count;
}

static int cl_time_read(const gs_cluster_plan *p, cl_job *j, gs_cluster_result *out,
                        gs_error *err)
{
    int rc = 0;
    const unsigned unit = CL_READ_THREADS * CL_READ_UNROLL;
    unsigned words = (unsigned)(p->smem_bytes / 16) / unit * unit;
    unsigned passes = (unsigned)((p->bytes + words * 16ull - 1) / (words * 16ull));
    unsigned blocks = (unsigned)out->max_active_clusters * p->cluster_size;
    size_t smem = (size_t)words * 16;
    unsigned long long *times = (unsigned long long *)calloc(2 * (size_t)blocks, sizeof *times);
    unsigned *smids = (unsigned *)calloc(blocks, sizeof *smids), flag[2] = {0, 0};
    cudaLaunchConfig_t cfg;
    cudaLaunchAttribute attr;
    if (!times || !smids) {
        rc = gs_fail(err, GS_ERR_NO_MEMORY, "out of host memory");
        goto fail;
    }
    if (words == 0) {
        rc = gs_fail(err, GS_ERR_USAGE, "cluster bandwidth: smem_bytes under %u", unit * 16);
        goto fail;
    }
    CUDA_TRY(cudaMalloc(&j->out, 2 * (size_t)blocks * sizeof *times));
    CUDA_TRY(cudaMalloc(&j->smids, blocks * sizeof *smids));
    CUDA_TRY(cudaMalloc(&j->flag, sizeof flag));
    CUDA_TRY(cudaMemset(j->flag, 0, sizeof flag));
    cl_config(&cfg, &attr, p->cluster_size, blocks, CL_READ_THREADS, smem);
    for (unsigned r = 0; r <= p->repeats; r++) {            /* repetition 0 is the warm-up */
        CUDA_TRY(cudaLaunchKernelEx(&cfg, cl_read, words, p->rank, passes, j->out, j->smids,
                                    j->flag));
        CUDA_LAUNCH_CHECK();
        CUDA_TRY(cudaMemcpy(times, j->out, 2 * (size_t)blocks * sizeof *times,
                            cudaMemcpyDeviceToHost));
        unsigned long long first = times[0], last = times[1];
        for (unsigned b = 1; b < blocks; b++) {
            first = times[2 * b] < first ? times[2 * b] : first;
            last = times[2 * b + 1] > last ? times[2 * b + 1] : last;
        }
        if (r > 0)
            out->values[r - 1] = (double)(last - first) * 1e-9;
    }
    CUDA_TRY(cudaMemcpy(flag, j->flag, sizeof flag, cudaMemcpyDeviceToHost));
    CUDA_TRY(cudaMemcpy(smids, j->smids, blocks * sizeof *smids, cudaMemcpyDeviceToHost));
    if (flag[0] != 1) {
        rc = gs_fail(err, GS_ERR_UNSUPPORTED, "the cluster read kernel ran without sm_90 code");
        goto fail;
    }
    out->n = p->repeats;
    out->blocks = blocks;
    out->sms_used = cl_distinct(smids, blocks);
    out->bytes_moved = (uint64_t)blocks * passes * words * 16ull;
fail:
    free(times);
    free(smids);
    return rc;
}

/* The tensor copy's shared memory: the buffers from an aligned start, then the mbarriers. */
#define CL_TENSOR_SMEM (CL_COPY_SMEM + CL_TMAP_ALIGN + 8 * CL_STAGES)

static int cl_launch_copy(const gs_cluster_plan *p, cl_job *j, unsigned blocks,
                          unsigned long long chunks, unsigned long long items, gs_error *err)
{
    int rc = 0;
    if (p->kind == GS_CLUSTER_BULK_COPY)
        cl_bulk_copy<<<blocks, CL_BULK_THREADS, CL_COPY_SMEM>>>((const unsigned char *)j->src,
                                                                chunks, items, j->flag);
    else if (p->kind == GS_CLUSTER_TENSOR_COPY)
        cl_tensor_copy<<<blocks, CL_BULK_THREADS, CL_TENSOR_SMEM>>>(j->map, chunks, items, j->flag);
    else
        cl_vector_copy<<<blocks, CL_VECTOR_THREADS, CL_COPY_SMEM>>>((const uint4 *)j->src, chunks,
                                                                    items, j->flag);
    CUDA_TRY(cudaGetLastError());
fail:
    return rc;
}

/* The tensor map of the tensor copies: src as a matrix of u32, CL_TMAP_ROW_BYTES per row, rows
 * rows, boxes of box_words x box_rows, no interleave, no swizzle, 256-byte L2 promotion.
 * cuTensorMapEncodeTiled comes from the driver's entry point (driver_shim.cu); a driver without
 * it, or one that refuses the map (encoding is host work: the device is untouched), makes the
 * copy unsupported, with the reason. */
static int cl_encode_map(cl_job *j, unsigned long long rows, unsigned box_words,
                         unsigned box_rows, gs_error *err)
{
    cuuint64_t dims[2] = {CL_TMAP_ROW_BYTES / 4, rows}, strides[1] = {CL_TMAP_ROW_BYTES};
    cuuint32_t box[2] = {box_words, box_rows}, element_strides[2] = {1, 1};
    const char *name = "?", *text = "?";
    if (!gs_driver_has("cuTensorMapEncodeTiled"))
        return gs_fail(err, GS_ERR_UNSUPPORTED, "the CUDA driver hands out no "
                       "cuTensorMapEncodeTiled entry point (cudaGetDriverEntryPointByVersion, "
                       "CUDA 12.0 ABI): no tensor map can be encoded; update the driver");
    CUresult r = cuTensorMapEncodeTiled(&j->map, CU_TENSOR_MAP_DATA_TYPE_UINT32, 2, j->src, dims,
                                        strides, box, element_strides,
                                        CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,
                                        CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
                                        CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    if (r == CUDA_SUCCESS)
        return 0;
    if (cuGetErrorName(r, &name) != CUDA_SUCCESS || cuGetErrorString(r, &text) != CUDA_SUCCESS)
        name = text = "?";
    return gs_fail(err, GS_ERR_UNSUPPORTED, "cuTensorMapEncodeTiled refused a map of %llu rows of "
                   "%u B with boxes of %u x %u u32: %s (%s); no tensor copy can run",
                   rows, CL_TMAP_ROW_BYTES, box_words, box_rows, text, name);
}

static int cl_time_copy(gs_backend *b, const gs_cluster_plan *p, cl_job *j,
                        gs_cluster_result *out, gs_error *err)
{
    int rc = 0;
    unsigned sms = (unsigned)gs_cuda_of(b)->prop.multiProcessorCount;
    unsigned blocks = sms * CL_COPY_BLOCKS_PER_SM, flag[2] = {0, 0};
    bool tensor = p->kind == GS_CLUSTER_TENSOR_COPY;
    /* the tensor copy's matrix: whole bands of CL_TMAP_BOX_ROWS rows, CL_TMAP_ACROSS boxes each */
    unsigned long long rows = p->bytes / CL_TMAP_ROW_BYTES / CL_TMAP_BOX_ROWS * CL_TMAP_BOX_ROWS;
    unsigned long long chunks = tensor ? rows / CL_TMAP_BOX_ROWS * CL_TMAP_ACROSS
                                       : p->bytes / CL_CHUNK;
    unsigned long long passes = p->traffic_bytes > chunks * CL_CHUNK
                              ? (p->traffic_bytes + chunks * CL_CHUNK - 1) / (chunks * CL_CHUNK) : 1;
    const void *kernel = cl_kernel_of(p->kind);
    if (chunks == 0)
        return gs_fail(err, GS_ERR_USAGE, "cluster %s: bytes under one %u-byte %s",
                       gs_cluster_kind_name(p->kind), tensor ? CL_TMAP_ROW_BYTES * CL_TMAP_BOX_ROWS
                       : CL_CHUNK, tensor ? "band of boxes" : "chunk");
    CUDA_TRY(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                  (int)(tensor ? CL_TENSOR_SMEM : CL_COPY_SMEM)));
    CUDA_TRY(cudaMalloc(&j->src, chunks * CL_CHUNK));
    CUDA_TRY(cudaMemset(j->src, 0x5a, chunks * CL_CHUNK));
    if (tensor && (rc = cl_encode_map(j, rows, CL_TMAP_BOX_WORDS, CL_TMAP_BOX_ROWS, err)))
        goto fail;
    CUDA_TRY(cudaMalloc(&j->flag, sizeof flag));
    CUDA_TRY(cudaMemset(j->flag, 0, sizeof flag));
    CUDA_TRY(cudaEventCreate(&j->start));
    CUDA_TRY(cudaEventCreate(&j->stop));
    if ((rc = cl_launch_copy(p, j, blocks, chunks, chunks * passes, err)))
        goto fail;
    CUDA_TRY(cudaDeviceSynchronize());
    for (unsigned r = 0; r < p->repeats; r++) {
        float ms = 0;
        CUDA_TRY(cudaEventRecord(j->start));
        if ((rc = cl_launch_copy(p, j, blocks, chunks, chunks * passes, err)))
            goto fail;
        CUDA_TRY(cudaEventRecord(j->stop));
        CUDA_TRY(cudaEventSynchronize(j->stop));
        CUDA_TRY(cudaEventElapsedTime(&ms, j->start, j->stop));
        out->values[r] = ms * 1e-3;
    }
    CUDA_TRY(cudaMemcpy(flag, j->flag, sizeof flag, cudaMemcpyDeviceToHost));
    if (flag[0] != 1)
        return gs_fail(err, GS_ERR_UNSUPPORTED, "the copy kernel ran without sm_90 code");
    out->n = p->repeats;
    out->blocks = blocks;
    out->sms_used = sms;
    out->bytes_moved = chunks * passes * CL_CHUNK;
fail:
    return rc;
}

/* One thread's (one warp's) transfers of plan->bytes, each timed on the device. The tensor kind
 * reads a box of box_rows rows of its matrix (rows CL_TMAP_ROW_BYTES apart), made by
 * cl_check_plan's gs_cluster_tensor_box. */
static int cl_time_transfer(const gs_cluster_plan *p, cl_job *j, gs_cluster_result *out,
                            gs_error *err)
{
    int rc = 0;
    size_t words = (size_t)p->repeats + 2;
    unsigned long long *host = (unsigned long long *)calloc(words, sizeof *host);
    bool bulk = p->kind == GS_CLUSTER_BULK_LATENCY, tensor = p->kind == GS_CLUSTER_TENSOR_LATENCY;
    unsigned box_words = 0, box_rows = 0;
    if (!host)
        return gs_fail(err, GS_ERR_NO_MEMORY, "out of host memory");
    if (tensor)
        (void)gs_cluster_tensor_box(p->bytes, &box_words, &box_rows);
    size_t src_bytes = tensor ? (size_t)box_rows * CL_TMAP_ROW_BYTES : (size_t)p->bytes;
    CUDA_TRY(cudaMalloc(&j->src, src_bytes));
    CUDA_TRY(cudaMemset(j->src, 0x5a, src_bytes));
    if (tensor && (rc = cl_encode_map(j, box_rows, box_words, box_rows, err)))
        goto fail;
    CUDA_TRY(cudaMalloc(&j->out, words * sizeof *host));
    CUDA_TRY(cudaMemset(j->out, 0, words * sizeof *host));
    if (bulk)
        cl_bulk_latency<<<1, 32, (size_t)p->bytes>>>((const unsigned char *)j->src,
                                                     (unsigned)p->bytes, p->repeats, j->out);
    else if (tensor)
        cl_tensor_latency<<<1, 32, (size_t)p->bytes + CL_TMAP_ALIGN>>>(j->map, (unsigned)p->bytes,
                                                                       p->repeats, j->out);
    else
        cl_load_latency<<<1, 32, (size_t)p->bytes>>>((const uint4 *)j->src, (unsigned)p->bytes,
                                                     p->repeats, j->out);
    CUDA_LAUNCH_CHECK();
    CUDA_TRY(cudaMemcpy(host, j->out, words * sizeof *host, cudaMemcpyDeviceToHost));
    if (host[0] != 1) {
        rc = gs_fail(err, GS_ERR_UNSUPPORTED, "the %s kernel ran without sm_90 code",
                     gs_cluster_kind_name(p->kind));
        goto fail;
    }
    for (unsigned r = 0; r < p->repeats; r++)
        out->values[r] = (double)host[1 + r];
    out->n = p->repeats;
    out->blocks = 1;
    out->sms_used = 1;
    out->bytes_moved = p->bytes;
fail:
    free(host);
    return rc;
}

static int cl_check_plan(const gs_cluster_plan *p, const gs_cluster_result *out, gs_error *err)
{
    if ((unsigned)p->kind >= GS_CLUSTER_KIND_COUNT)
        return gs_fail(err, GS_ERR_USAGE, "cluster: unknown kind %d", (int)p->kind);
    if (p->kind != GS_CLUSTER_QUERY && (p->repeats == 0 || !out->values))
        return gs_fail(err, GS_ERR_USAGE, "cluster %s: needs repeats and a values array",
                       gs_cluster_kind_name(p->kind));
    bool transfer = p->kind == GS_CLUSTER_BULK_LATENCY || p->kind == GS_CLUSTER_LOAD_LATENCY ||
                    p->kind == GS_CLUSTER_TENSOR_LATENCY;
    unsigned box_words, box_rows;
    bool copies = p->kind == GS_CLUSTER_BULK_COPY || p->kind == GS_CLUSTER_VECTOR_COPY ||
                  p->kind == GS_CLUSTER_TENSOR_COPY || transfer;
    if (transfer && (p->bytes < 16 || p->bytes > CL_CHUNK || p->bytes % 16))
        return gs_fail(err, GS_ERR_USAGE, "cluster %s: bytes %llu; a multiple of 16 from 16 to "
                       "%u", gs_cluster_kind_name(p->kind), (unsigned long long)p->bytes,
                       CL_CHUNK);
    if (p->kind == GS_CLUSTER_TENSOR_LATENCY &&
        gs_cluster_tensor_box(p->bytes, &box_words, &box_rows))
        return gs_fail(err, GS_ERR_USAGE, "cluster tensor-latency: bytes %llu make no box (a "
                       "multiple of 16 up to %u, else of %u)", (unsigned long long)p->bytes,
                       GS_CLUSTER_TENSOR_BOX_ROW_BYTES, GS_CLUSTER_TENSOR_BOX_ROW_BYTES);
    if (!copies && (p->cluster_size < 1 || p->cluster_size > 16 || p->rank >= p->cluster_size))
        return gs_fail(err, GS_ERR_USAGE, "cluster %s: size %u and rank %u (size 1..16, rank "
                       "below it)", gs_cluster_kind_name(p->kind), p->cluster_size, p->rank);
    if ((p->kind == GS_CLUSTER_LATENCY || p->kind == GS_CLUSTER_LOCAL_LATENCY) &&
        (p->stride_bytes < 4 || p->stride_bytes % 4 || p->smem_bytes / p->stride_bytes < 2 ||
         p->smem_bytes > 200000 || p->accesses == 0))
        return gs_fail(err, GS_ERR_USAGE, "cluster latency: stride a multiple of 4 bytes, at "
                       "least two strides of shared memory (at most 200000 B), accesses > 0");
    return 0;
}

int gs_cuda_cluster(gs_backend *b, const gs_cluster_plan *plan, gs_cluster_result *out,
                    gs_error *err)
{
    int rc = cl_check_plan(plan, out, err);
    if (!rc)
        rc = cl_check_device(b, plan, err);
    if (rc)
        return rc;
    cl_job j;
    memset(&j, 0, sizeof j);
    out->n = 0;
    if (plan->kind == GS_CLUSTER_BULK_LATENCY || plan->kind == GS_CLUSTER_LOAD_LATENCY ||
        plan->kind == GS_CLUSTER_TENSOR_LATENCY) {
        rc = cl_time_transfer(plan, &j, out, err);
    } else if (plan->kind == GS_CLUSTER_BULK_COPY || plan->kind == GS_CLUSTER_VECTOR_COPY ||
               plan->kind == GS_CLUSTER_TENSOR_COPY) {
        rc = cl_time_copy(b, plan, &j, out, err);
    } else {
        gs_cluster_plan q = *plan;
        if (plan->kind != GS_CLUSTER_BANDWIDTH)
            q.smem_bytes = 65536;                 /* the figure's kernel configuration */
        rc = cl_query(&q, out, err);
        if (!rc && plan->kind != GS_CLUSTER_QUERY && !out->allowed)
            rc = gs_fail(err, GS_ERR_UNSUPPORTED, "cluster size %u not allowed: %s",
                         plan->cluster_size, out->why);
        if (!rc && plan->kind == GS_CLUSTER_BANDWIDTH)
            rc = cl_time_read(plan, &j, out, err);
        else if (!rc && plan->kind != GS_CLUSTER_QUERY)
            rc = cl_time_latency(plan, &j, out, err);
    }
    cl_release(&j);
    return rc;
}
