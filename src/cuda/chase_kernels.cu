/* The pointer-chase kernels (Mei et al., "Benchmarking the Memory Hierarchy of Modern GPUs",
 * section 3: Listing 2, the average P-chase, and Listing 4, the fine-grained P-chase that keeps
 * each access's latency and index in shared memory). One block of one warp per walker; `lanes` of
 * its lanes load, each following its own copy of the chain. The host side is chase.cu.
 *
 * Cursor encoding (what a visited element holds): global paths with 8-byte elements, the absolute
 * address of the next element (a pure j = *j chase); global paths with 4-byte elements, constant,
 * shared and local, the next element's byte offset; texture, the next element's index; aliased
 * global chains (physical < footprint), the distance to the next element modulo a power of two.
 * The timed region holds nothing but the loads, the trace stores and the clock reads; the store of
 * the loaded value before the second clock read makes that read wait for the load's data (checked
 * in the SASS: see docs/methods.md, "Pointer chase on CUDA"). The trace keeps 2-byte latencies
 * (not Listing 4's 8 bytes of latency and index): shared memory taken by a trace is L1 lost on a
 * GPU whose L1 and shared memory are one array. */
#include "cuda/chase_kernels.h"
#include "cuda/device_loads.cuh"

/* The constant-space chain: as large as a module's __constant__ space may be (64 KB); the device's
 * own limit (totalConstMem) is checked at run time as well. */
__constant__ uint4 gs_const_chain[GS_CONST_CHAIN_BYTES / sizeof(uint4)];


/* ---- device side ------------------------------------------------------------------------------ */
static __device__ __forceinline__ uint32_t tex_fetch(cudaTextureObject_t t, uint32_t j)
{
    return tex1Dfetch<unsigned int>(t, (int)j);
}

static __device__ __forceinline__ uint64_t tex_fetch(cudaTextureObject_t t, uint64_t j)
{
    uint2 v = tex1Dfetch<uint2>(t, (int)j);
    return (uint64_t)v.x | ((uint64_t)v.y << 32);
}

/* Where cursor j points in global memory: itself (8-byte elements) or base + j (4-byte). */
template <typename T> static __device__ __forceinline__ const T *global_at(const char *base, T j)
{
    if constexpr (sizeof(T) == 8)
        return (const T *)(uintptr_t)j;
    else
        return (const T *)(base + j);
}

/* One access through path P: returns the next cursor. DELTA (aliased global chains): the element
 * holds the distance to the next one, modulo a power of two that covers the footprint, so that
 * elements which share a physical word can hold the same value. */
template <typename T, int P, bool DELTA> struct chase_load {
    const char *base;
    cudaTextureObject_t tex;
    const char *on_chip;              /* shared or local chain */
    uint64_t mask;                    /* DELTA: cursor modulus - 1 */
    __device__ __forceinline__ T operator()(T j) const
    {
        if constexpr (P <= GS_PATH_NC && DELTA)
            return (T)((j + load_global<T, P>((const T *)(base + j))) & mask);
        else if constexpr (P <= GS_PATH_NC)
            return load_global<T, P>(global_at(base, j));
        else if constexpr (P == GS_PATH_TEX)
            return tex_fetch(tex, j);
        else if constexpr (P == GS_PATH_CONST)
            return *(const T *)((const char *)gs_const_chain + j);
        else
            return *(const T *)(on_chip + j);
    }
};

/* The chase of one lane: warm-up, then Listing 4 (fine-grained) or Listing 2 (average). The
 * fine-grained trace keeps 2 bytes per access (the latency, saturated at 65535 cycles) so that a
 * trace long enough to study a cache leaves a unified L1 alone; the loaded cursor goes to one
 * volatile word per lane instead of Listing 4's index array (the host checks the final cursor). */
template <typename T, class L>
static __device__ __forceinline__ void chase_body(const L &ld, const chase_args &a, unsigned w,
                                                  uint16_t *lat, volatile uint32_t *idx,
                                                  volatile T *sink)
{
    const unsigned lane = threadIdx.x;
    /* through the L2 only (ld.global.cg): a start read through the L1 kept a line of its data
     * array from the chain, one of the H100's 1480 at this carve-out, and on the texture path
     * (whose lines it shares) sometimes up to four (docs/methods.md, "cache", L1 size) */
    T j = (T)(__ldcg((const unsigned long long *)a.start + w) + lane * a.lane_add);
    for (uint64_t k = 0; k < a.warm_accesses; k++)
        j = ld(j);
    if (a.record) {
        /* Lane 0 writes the trace; other loading lanes write one scratch entry, so that the timed
         * region has no branch. */
        const unsigned step = lane == 0 ? 1 : 0;
        uint16_t *lp = lane == 0 ? lat : lat + a.trace_entries - 1;
        volatile uint32_t *ip = idx + lane;
        for (uint32_t i = 0; i < (uint32_t)a.timed; i++) {
            uint32_t t0 = clock32();
            j = ld(j);
            *ip = (uint32_t)j;          /* waits for the load: t1 is read after it arrived */
            uint32_t t1 = clock32(), d = t1 - t0;
            *lp = (uint16_t)(d < 65535u ? d : 65535u);
            lp += step;
        }
    } else {
        long long c0 = clock64_read();
        unsigned long long g0 = globaltimer_read();
        for (uint64_t k = 0; k < a.timed; k++)
            j = ld(j);
        *sink = j;                      /* waits for the last load */
        long long c1 = clock64_read();
        unsigned long long g1 = globaltimer_read();
        if (lane == 0) {
            a.cycles[2 * w] = c0, a.cycles[2 * w + 1] = c1;
            a.ns[2 * w] = g0, a.ns[2 * w + 1] = g1;
        }
    }
    a.final_cursor[(uint64_t)w * a.lanes + lane] = (uint64_t)j;
    if (lane == 0) {
        uint32_t sm;
        asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
        a.sm_id[w] = sm;
    }
}

/* Whether this block is the first to reach SM pin_sm (counted in *claim): the one block that runs
 * a pinned walk or warm-up, every other one returning at once. */
static __device__ bool first_block_on(int pin_sm, unsigned *claim)
{
    __shared__ int mine;
    if (threadIdx.x == 0) {
        unsigned sm;
        asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
        mine = sm == (unsigned)pin_sm && atomicAdd(claim, 1u) == 0;
    }
    __syncthreads();
    return mine;
}

/* The walker this block runs: its index, or with pin_sm walker 0 for the first block on that SM
 * and -1 (return at once) for every other block. The SM's place decides latencies to the L2
 * slices, so a single walk runs on one SM chosen by the host rather than where the scheduler puts
 * block 0 (which differed from one process to the next). */
static __device__ int walker_of_block(const chase_args &a)
{
    if (a.pin_sm < 0)
        return (int)blockIdx.x;
    return first_block_on(a.pin_sm, a.claim) ? 0 : -1;
}

/* Walker w's trace (walker 0 only), from shared memory to a.trace, by the whole warp. */
static __device__ void copy_trace_out(const chase_args &a, unsigned w, const uint16_t *trace_smem)
{
    __syncwarp();
    if (!a.record || w != 0)
        return;
    for (uint64_t i = threadIdx.x; i < a.timed; i += blockDim.x)
        a.trace[i] = trace_smem[i];
}

/* Global, texture, constant and shared chases. Dynamic shared memory: the trace, then, for the
 * shared space, the chain image (16-byte aligned, at chain_offset). */
template <typename T, int P, bool DELTA = false>
__global__ void __launch_bounds__(32) chase_kernel(chase_args a)
{
    extern __shared__ uint4 dyn_smem[];
    __shared__ T sink;
    __shared__ uint32_t idx[32];
    uint16_t *lat = (uint16_t *)dyn_smem;
    chase_load<T, P, DELTA> ld{a.base, a.tex, nullptr, a.cursor_mask};
    const int w = walker_of_block(a);
    if (w < 0)
        return;
    if constexpr (P == GS_PATH_SHARED) {
        uint4 *chain = dyn_smem + a.chain_offset / 16;
        for (uint32_t i = threadIdx.x; i < a.image_bytes / 16; i += blockDim.x)
            chain[i] = a.image[i];
        __syncthreads();
        ld.on_chip = (const char *)chain;
    }
    if (threadIdx.x < a.lanes)
        chase_body<T>(ld, a, (unsigned)w, lat, idx, &sink);
    copy_trace_out(a, (unsigned)w, lat);
}

/* The local-space chase: each loading lane copies the chain image into its own local array. */
template <typename T> __global__ void __launch_bounds__(32) chase_local_kernel(chase_args a)
{
    extern __shared__ uint4 dyn_smem[];
    __shared__ T sink;
    __shared__ uint32_t idx[32];
    uint4 chain[GS_LOCAL_CHAIN_BYTES / sizeof(uint4)];
    uint16_t *lat = (uint16_t *)dyn_smem;
    const int w = walker_of_block(a);
    if (w < 0)
        return;
    if (threadIdx.x < a.lanes) {
        for (uint32_t i = 0; i < a.image_bytes / 16; i++)
            chain[i] = a.image[i];
        chase_load<T, GS_PATH_LOCAL, false> ld{a.base, a.tex, (const char *)chain, 0};
        chase_body<T>(ld, a, (unsigned)w, lat, idx, &sink);
    }
    copy_trace_out(a, (unsigned)w, lat);
}

/* The split warm-up (plan.h): the first block on pin_sm walks it, every other block returns.
 * Thread 0 walks the timed accesses' own positions one after another; only after its last load
 * arrived (its cursor stored) do the segments start, each thread its own, all at once. */
template <typename T, int P>
__global__ void __launch_bounds__(GS_SPLIT_SEGMENTS) chase_warm_kernel(chase_warm_args a)
{
    if (!first_block_on(a.pin_sm, a.claim))
        return;
    chase_load<T, P, false> ld{a.base, 0, nullptr, 0};
    if (threadIdx.x == 0) {
        T j = (T)a.serial_start;
        for (uint64_t k = 0; k < a.serial_n; k++)
            j = ld(j);
        a.final_cursor[a.segments] = (uint64_t)j;    /* waits for the last load */
    }
    __syncthreads();
    const uint64_t i = threadIdx.x;
    if (i < a.segments) {
        uint64_t from = i * a.parallel_n / a.segments, to = (i + 1) * a.parallel_n / a.segments;
        T j = (T)a.segment_start[i];
        for (uint64_t k = from; k < to; k++)
            j = ld(j);
        a.final_cursor[i] = (uint64_t)j;
    }
}

template <typename T> static const void *warm_kernel_for(int path)
{
    switch (path) {
    case GS_PATH_DEFAULT: return (const void *)chase_warm_kernel<T, GS_PATH_DEFAULT>;
    case GS_PATH_CA: return (const void *)chase_warm_kernel<T, GS_PATH_CA>;
    case GS_PATH_CG: return (const void *)chase_warm_kernel<T, GS_PATH_CG>;
    case GS_PATH_CV: return (const void *)chase_warm_kernel<T, GS_PATH_CV>;
    default: return (const void *)chase_warm_kernel<T, GS_PATH_NC>;
    }
}

const void *gs_chase_warm_kernel(int path, unsigned element_bytes)
{
    return element_bytes == 8 ? warm_kernel_for<uint64_t>(path) : warm_kernel_for<uint32_t>(path);
}

/* The windowed warm-up (plan.h): the first block on pin_sm walks it, every other block returns.
 * The lanes load in lockstep, one warp instruction per step: positions l, l + W, ... of the pass,
 * W consecutive positions at a time, each load reading the link 8 bytes after its element (the
 * element's own sector). */
template <int P> __global__ void __launch_bounds__(32) chase_window_kernel(chase_warm_args a)
{
    const uint32_t lane = threadIdx.x;
    if (!first_block_on(a.pin_sm, a.claim) || lane >= a.segments)
        return;
    uint64_t j = a.segment_start[lane];
    const uint64_t steps = (a.parallel_n - lane + a.segments - 1) / a.segments;
    for (uint64_t k = 0; k < steps; k++)
        j = load_global<uint64_t, P>((const uint64_t *)(uintptr_t)(j + 8));
    a.final_cursor[lane] = j;
}

const void *gs_chase_window_kernel(int path)
{
    switch (path) {
    case GS_PATH_DEFAULT: return (const void *)chase_window_kernel<GS_PATH_DEFAULT>;
    case GS_PATH_CA: return (const void *)chase_window_kernel<GS_PATH_CA>;
    case GS_PATH_CG: return (const void *)chase_window_kernel<GS_PATH_CG>;
    case GS_PATH_CV: return (const void *)chase_window_kernel<GS_PATH_CV>;
    default: return (const void *)chase_window_kernel<GS_PATH_NC>;
    }
}

/* Writes the visited elements: *(T *)(base + off[i]) = val[i]. */
template <typename T>
__global__ void chase_scatter(char *base, const uint64_t *off, const uint64_t *val, size_t n)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x)
        *(T *)(base + off[i]) = (T)val[i];
}

template <typename T> static const void *kernel_for(int path, bool delta)
{
    switch (path) {
    case GS_PATH_DEFAULT:
        return delta ? (const void *)chase_kernel<T, GS_PATH_DEFAULT, true>
                     : (const void *)chase_kernel<T, GS_PATH_DEFAULT>;
    case GS_PATH_CA:
        return delta ? (const void *)chase_kernel<T, GS_PATH_CA, true>
                     : (const void *)chase_kernel<T, GS_PATH_CA>;
    case GS_PATH_CG:
        return delta ? (const void *)chase_kernel<T, GS_PATH_CG, true>
                     : (const void *)chase_kernel<T, GS_PATH_CG>;
    case GS_PATH_CV:
        return delta ? (const void *)chase_kernel<T, GS_PATH_CV, true>
                     : (const void *)chase_kernel<T, GS_PATH_CV>;
    case GS_PATH_NC:
        return delta ? (const void *)chase_kernel<T, GS_PATH_NC, true>
                     : (const void *)chase_kernel<T, GS_PATH_NC>;
    case GS_PATH_TEX: return (const void *)chase_kernel<T, GS_PATH_TEX>;
    case GS_PATH_CONST: return (const void *)chase_kernel<T, GS_PATH_CONST>;
    case GS_PATH_SHARED: return (const void *)chase_kernel<T, GS_PATH_SHARED>;
    default: return (const void *)chase_local_kernel<T>;
    }
}

const void *gs_chase_kernel(int path, unsigned element_bytes, bool delta)
{
    return element_bytes == 8 ? kernel_for<uint64_t>(path, delta)
                              : kernel_for<uint32_t>(path, delta);
}

cudaError_t gs_chase_scatter(char *base, const uint64_t *off, const uint64_t *val, size_t n,
                             unsigned element_bytes, int sm_count)
{
    unsigned blocks = (unsigned)((n + 255) / 256);
    if (blocks > (unsigned)sm_count * 8u)
        blocks = (unsigned)sm_count * 8u;
    if (blocks == 0)
        blocks = 1;
    if (element_bytes == 8)
        chase_scatter<uint64_t><<<blocks, 256>>>(base, off, val, n);
    else
        chase_scatter<uint32_t><<<blocks, 256>>>(base, off, val, n);
    return cudaGetLastError();
}

cudaError_t gs_chase_const_upload(const void *image, size_t bytes)
{
    return cudaMemcpyToSymbol(gs_const_chain, image, bytes);
}
