/* The CUDA backend's level-bandwidth kinds of the stream operation (backend.h, probe
 * mem-bandwidth): read, write, copy and STREAM's scale, add and triad over arrays of a chosen
 * footprint, and a shared-memory read. GS_SWEEP_BLOCKS runs one block per SM, each streaming
 * through all of the arrays many times from its own starting point (so each SM sees the whole
 * footprint, as in gpu-benches' gpu-cache) in one launch; each thread loads BYTES_IN_FLIGHT bytes
 * per array (4 float4, 8 double or 16 float) before it uses any of them. GS_SWEEP_GRID cuts the
 * arrays into tiles of grid_bytes(kind) bytes per thread (a block's tile contiguous) and
 * hands the tiles of every pass out in address order through an atomic ticket to a grid that
 * fills the device: the whole device works inside a window of about one tile per block, as
 * gpu-stream's one element per thread does over many launches, but in one launch. (A
 * grid-stride loop spreads the device's loads over grid x BYTES_IN_FLIGHT bytes and ran 2-5 %
 * below that on an H100's DRAM: docs/hardware/h100.md)
 * GS_SWEEP_LAUNCHES is gpu-stream's own order: one element per thread, a grid covering the
 * arrays, one launch per pass (the probe sets it beside the tiles on arrays of 1 GB, where an
 * H100's add and triad ran 0.3-0.5 % faster in it: docs/methods.md, mem-bandwidth). Every
 * repetition is timed alone with cudaEvents after one untimed warm-up launch (GS_WARM_FRESH_MS of
 * them on arrays just allocated); the arrays are the backend's scratch buffers, kept from one
 * plan to the next (cuda_internal.h). */
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>

#include "cuda/cuda_internal.h"
#include "cuda/device_loads.cuh"

#define BYTES_IN_FLIGHT 64         /* per thread and array, loaded before use (blocks sweep) */
#define GRID_BYTES_IN_FLIGHT 32    /* the same for a grid sweep's tiles, of a kind that loads */
#define GRID_STORE_BYTES 64        /* of a write's tiles */
#define DEFAULT_THREADS 1024
#define SMEM_DEFAULT_THREADS 256
#define SMEM_UNROLL 4

/* Arithmetic on the three element types (float4 lane by lane). */
static __device__ __forceinline__ float mul(float s, float x) { return s * x; }
static __device__ __forceinline__ double mul(double s, double x) { return s * x; }
static __device__ __forceinline__ float4 mul(float4 s, float4 x)
{
    return make_float4(s.x * x.x, s.y * x.y, s.z * x.z, s.w * x.w);
}
static __device__ __forceinline__ float add(float a, float b) { return a + b; }
static __device__ __forceinline__ double add(double a, double b) { return a + b; }
static __device__ __forceinline__ float4 add(float4 a, float4 b)
{
    return make_float4(a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w);
}
static __device__ __forceinline__ double fold(float x) { return x; }
static __device__ __forceinline__ double fold(double x) { return x; }
static __device__ __forceinline__ double fold(float4 x) { return (double)x.x + x.y + x.z + x.w; }
/* The scalar s as a T. __host__ too: the launches build it on the host (a __device__-only
 * function called there compiles to a host body that exits the process). */
template <typename T> static __host__ __device__ __forceinline__ T splat(double v) { return (T)v; }
template <> __host__ __device__ __forceinline__ float4 splat<float4>(double v)
{
    return make_float4((float)v, (float)v, (float)v, (float)v);
}

/* Sources each kind loads (x, then y) and whether it stores. */
static __host__ __device__ constexpr int sources(int kind)
{
    return kind == GS_STREAM_LEVEL_WRITE ? 0
         : (kind == GS_STREAM_LEVEL_ADD || kind == GS_STREAM_LEVEL_TRIAD) ? 2 : 1;
}
static __host__ __device__ constexpr bool stores(int kind) { return kind != GS_STREAM_LEVEL_READ; }
/* Bytes per thread of a grid sweep's tile: a write, which waits for no load, draws tickets twice
 * as often as a copy at the same tile and ran 3.7 % slower on an H200 with 32-byte tiles (4500
 * against 4670 GB/s; the kinds that load ran best at 32:
 * docs/hardware/h100.md). */
static __host__ __device__ constexpr int grid_bytes(int kind)
{
    return sources(kind) == 0 ? GRID_STORE_BYTES : GRID_BYTES_IN_FLIGHT;
}

/* The arrays of one kind: x, y loaded, d stored (read: x; write: d = a; copy, scale: d = b from
 * x = a; add: c from a, b; triad: a from b, c). */
typedef struct level_arrays {
    const void *x, *y;
    void *d;
} level_arrays;

/* The kind's operation on element i alone (a read adds it to acc). */
template <typename T, int KIND>
static __device__ __forceinline__ void one(const T *__restrict__ x, const T *__restrict__ y,
                                           T *__restrict__ d, size_t i, T s, T &acc)
{
    if (KIND == GS_STREAM_LEVEL_READ)
        acc = add(acc, x[i]);
    else if (KIND == GS_STREAM_LEVEL_WRITE)
        d[i] = s;
    else if (KIND == GS_STREAM_LEVEL_COPY)
        d[i] = x[i];
    else if (KIND == GS_STREAM_LEVEL_SCALE)
        d[i] = mul(s, x[i]);
    else if (KIND == GS_STREAM_LEVEL_ADD)
        d[i] = add(x[i], y[i]);
    else
        d[i] = add(x[i], mul(s, y[i]));
}

/* One sweep of elements lo, lo + step, ... below hi: U loads per source, then the kind's
 * operation and U stores (or U sums). The loop holds nothing else. */
template <typename T, int KIND, int U>
static __device__ __forceinline__ void sweep(const T *__restrict__ x, const T *__restrict__ y,
                                             T *__restrict__ d, size_t lo, size_t hi, size_t step,
                                             T s, T &acc)
{
    size_t i = lo;
    for (; i + (U - 1) * step < hi; i += U * step) {
        T a[U], b[U];
#pragma unroll
        for (int k = 0; k < U; k++) {
            if (sources(KIND) >= 1)
                a[k] = x[i + k * step];
            if (sources(KIND) >= 2)
                b[k] = y[i + k * step];
        }
#pragma unroll
        for (int k = 0; k < U; k++) {
            if (KIND == GS_STREAM_LEVEL_READ)
                acc = add(acc, a[k]);
            else if (KIND == GS_STREAM_LEVEL_WRITE)
                d[i + k * step] = s;
            else if (KIND == GS_STREAM_LEVEL_COPY)
                d[i + k * step] = a[k];
            else if (KIND == GS_STREAM_LEVEL_SCALE)
                d[i + k * step] = mul(s, a[k]);
            else if (KIND == GS_STREAM_LEVEL_ADD)
                d[i + k * step] = add(a[k], b[k]);
            else
                d[i + k * step] = add(a[k], mul(s, b[k]));
        }
    }
    for (; i < hi; i += step)
        one<T, KIND>(x, y, d, i, s, acc);
}

/* The next element of a block's stream: step further on, wrapping at n (step <= n: a block
 * has no more threads than elements, see shape()). */
template <typename I>
static __device__ __forceinline__ I next_wrapped(I i, I step, I n)
{
    I t = i + step;
    return t >= n ? t - n : t;
}

/* The span of a launch by its own clock: span[0] the earliest block's start, span[1] the latest
 * block's end (%globaltimer, ns; the host sets them to ~0 and 0 before the launch). The kernels
 * at the SM's limit (the L1 reads, the shared-memory read) run 0.3 ms, and a launch's events also
 * hold its start and drain, a few microseconds: about 3 % of such a launch on an H200. A block
 * ends at a barrier after every warp added its last load: in-order issue waits for the data
 * before the add, so all its loads have returned. */
static __device__ __forceinline__ void span_begin(unsigned long long *span)
{
    if (threadIdx.x == 0)
        atomicMin(&span[0], globaltimer_read());
}

static __device__ __forceinline__ void span_end(unsigned long long *span)
{
    __syncthreads();
    if (threadIdx.x == 0)
        atomicMax(&span[1], globaltimer_read());
}

/* GS_SWEEP_BLOCKS: every block streams through passes x n elements per array, from its own
 * starting point (a multiple of blockDim.x spread over the grid) and wrapping at n, so each SM
 * sees the whole footprint passes times. The stream is one loop, not a loop of passes: a thread
 * keeps U loads in flight whatever n is, where a loop per pass left a thread one load per pass on
 * arrays of a few elements per thread, and an L1-sized footprint measured the loop, not the L1.
 * The index type I is 32-bit wherever n allows: the wrap then costs an add, a compare and a
 * select per load, which 64-bit indices made the limit (an L1 read at 0.7 of the 32-bit
 * stream's rate). No two loads of a thread's stream share an index expression, so none is taken
 * from an earlier one. A read stores its sum only when it equals flag (never). zero is 0 at run
 * time. */
template <typename T, int KIND, typename I>
__global__ void level_kernel(const T *__restrict__ x, const T *__restrict__ y, T *__restrict__ d,
                             size_t n_elements, unsigned passes, T s, size_t zero, double *out,
                             double flag, unsigned long long *span)
{
    constexpr int U = BYTES_IN_FLIGHT / sizeof(T);
    if (KIND == GS_STREAM_LEVEL_READ && span)
        span_begin(span);
    T acc = splat<T>(0);
    I n = (I)n_elements, step = (I)blockDim.x;
    I start = (I)((size_t)blockIdx.x * (n / step) / gridDim.x * step + zero);
    size_t total = (size_t)passes * n_elements;
    I i = (I)((start + threadIdx.x) % n);
    size_t k = threadIdx.x;
    for (; k + (size_t)(U - 1) * step < total; k += (size_t)U * step) {
        I at[U];
        T a[U], b[U];
        at[0] = i;
#pragma unroll
        for (int u = 1; u < U; u++)
            at[u] = next_wrapped<I>(at[u - 1], step, n);
        i = next_wrapped<I>(at[U - 1], step, n);
#pragma unroll
        for (int u = 0; u < U; u++) {
            if (sources(KIND) >= 1)
                a[u] = x[at[u]];
            if (sources(KIND) >= 2)
                b[u] = y[at[u]];
        }
#pragma unroll
        for (int u = 0; u < U; u++) {
            if (KIND == GS_STREAM_LEVEL_READ)
                acc = add(acc, a[u]);
            else if (KIND == GS_STREAM_LEVEL_WRITE)
                d[at[u]] = s;
            else if (KIND == GS_STREAM_LEVEL_COPY)
                d[at[u]] = a[u];
            else if (KIND == GS_STREAM_LEVEL_SCALE)
                d[at[u]] = mul(s, a[u]);
            else if (KIND == GS_STREAM_LEVEL_ADD)
                d[at[u]] = add(a[u], b[u]);
            else
                d[at[u]] = add(a[u], mul(s, b[u]));
        }
    }
    for (; k < total; k += step) {
        one<T, KIND>(x, y, d, i, s, acc);
        i = next_wrapped<I>(i, step, n);
    }
    if (KIND == GS_STREAM_LEVEL_READ && span)
        span_end(span);
    if (KIND == GS_STREAM_LEVEL_READ && fold(acc) == flag)
        out[0] = fold(acc);
}

/* The other L1 read kernels (plan.variant 1-3, a read by blocks of float4; variant 0 is
 * level_kernel): each block sums the whole array passes times from its start, U loads of 16 B in
 * flight per thread before it adds any, their offsets immediates (blockDim fixed at L1_THREADS),
 * so the loop's only address arithmetic is one pointer add per U loads and nothing wraps: the
 * data set of gpu-cache's kernel, read 16 B at a time. NC loads through the read-only path
 * (ld.global.nc); MIN_BLOCKS 2 holds two blocks (64 warps) on an SM, which needs U 4 to fit the
 * registers. The tail of a pass under U x L1_THREADS elements is read one load at a time. */
#define L1_THREADS 1024
/* Two blocks of L1_THREADS where an SM holds 2048 threads (sm_80, sm_90); one elsewhere. */
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ == 800 || __CUDA_ARCH__ >= 900)
#define L1_TWO_BLOCKS 2
#else
#define L1_TWO_BLOCKS 1
#endif

/* A 16-byte load, plain (ld.global: a const __restrict__ pointer alone lets nvcc choose the
 * read-only path) or through the read-only path (ld.global.nc). */
template <bool NC>
static __device__ __forceinline__ float4 load16(const float4 *p)
{
    float4 v;
    if (NC)
        return __ldg(p);
    asm("ld.global.v4.f32 {%0, %1, %2, %3}, [%4];"
        : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w) : "l"(p));
    return v;
}

template <bool NC, int U, int MIN_BLOCKS>
__global__ void __launch_bounds__(L1_THREADS, MIN_BLOCKS > 1 ? L1_TWO_BLOCKS : 1)
l1_read_kernel(const float4 *__restrict__ x, unsigned n, unsigned passes, double *out,
               double flag, unsigned long long *span)
{
    span_begin(span);
    constexpr unsigned chunk = L1_THREADS * U;
    unsigned whole = n / chunk * chunk;
    float4 acc = make_float4(0, 0, 0, 0);
    const float4 *begin = x + threadIdx.x, *end = begin + whole;
    for (unsigned pass = 0; pass < passes; pass++) {
        for (const float4 *p = begin; p != end; p += chunk) {
            float4 a[U];
#pragma unroll
            for (int u = 0; u < U; u++)
                a[u] = load16<NC>(p + u * L1_THREADS);
#pragma unroll
            for (int u = 0; u < U; u++)
                acc = add(acc, a[u]);
        }
        for (unsigned i = whole + threadIdx.x; i < n; i += L1_THREADS)
            acc = add(acc, load16<NC>(x + i));
    }
    span_end(span);
    if (fold(acc) == flag)
        out[0] = fold(acc);
}

/* GS_SWEEP_GRID: passes sweeps over n elements per array in tiles of U x blockDim.x elements,
 * tile t of the launch being tile t mod tiles of pass t / tiles. Each block draws tickets from
 * *ticket until one is past the last tile; the counter only grows, so the launch's tickets start
 * at first (the host's count of the tickets drawn before it: tiles x passes + blocks a launch).
 * The barrier before each draw keeps a block's tiles in order; the tile's loads follow it. */
template <typename T, int KIND>
__global__ void level_ticket_kernel(const T *__restrict__ x, const T *__restrict__ y,
                                    T *__restrict__ d, size_t n, unsigned passes, T s,
                                    unsigned long long *ticket, unsigned long long first,
                                    double *out, double flag)
{
    constexpr int U = grid_bytes(KIND) / sizeof(T);
    __shared__ unsigned long long drawn;
    size_t tile = (size_t)U * blockDim.x, tiles = (n + tile - 1) / tile;
    unsigned long long total = (unsigned long long)tiles * passes;
    T acc = splat<T>(0);
    for (;;) {
        __syncthreads();
        if (threadIdx.x == 0)
            drawn = atomicAdd(ticket, 1ull) - first;
        __syncthreads();
        unsigned long long t = drawn;
        if (t >= total)
            break;
        size_t lo = (size_t)(t % tiles) * tile;
        sweep<T, KIND, U>(x, y, d, lo + threadIdx.x, lo + tile < n ? lo + tile : n, blockDim.x, s,
                          acc);
    }
    if (KIND == GS_STREAM_LEVEL_READ && fold(acc) == flag)
        out[0] = fold(acc);
}

/* GS_SWEEP_LAUNCHES: one pass, element i by thread i of the grid (gpu-stream's kernel). */
template <typename T, int KIND>
__global__ void level_launch_kernel(const T *__restrict__ x, const T *__restrict__ y,
                                    T *__restrict__ d, size_t n, T s, double *out, double flag)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    T acc = splat<T>(0);
    if (i >= n)
        return;
    one<T, KIND>(x, y, d, i, s, acc);
    if (KIND == GS_STREAM_LEVEL_READ && fold(acc) == flag)
        out[0] = fold(acc);
}

/* Shared memory: each block fills words float4 of its own (words a power of two, a multiple of
 * blockDim.x * SMEM_UNROLL), then sums them passes times; pass p starts p blocks of threads
 * further on (modulo words), so no pass's loads repeat an earlier one's. A warp reads 32
 * consecutive float4: no bank conflict. */
__global__ void smem_read_kernel(unsigned words, unsigned passes, double *out, double flag,
                                 unsigned long long *span)
{
    extern __shared__ float4 smem[];
    for (unsigned i = threadIdx.x; i < words; i += blockDim.x)
        smem[i] = make_float4((float)i, 1.0f, 2.0f, 3.0f);
    __syncthreads();
    span_begin(span);
    float4 acc = make_float4(0, 0, 0, 0);
    unsigned mask = words - 1;
    for (unsigned p = 0; p < passes; p++) {
        unsigned base = threadIdx.x + p * blockDim.x;
        for (unsigned k = 0; k < words; k += SMEM_UNROLL * blockDim.x) {
            float4 v[SMEM_UNROLL];
#pragma unroll
            for (int u = 0; u < SMEM_UNROLL; u++)
                v[u] = smem[(base + k + u * blockDim.x) & mask];
#pragma unroll
            for (int u = 0; u < SMEM_UNROLL; u++)
                acc = add(acc, v[u]);
        }
    }
    span_end(span);
    if (fold(acc) == flag)
        out[0] = fold(acc);
}

/* Values in the arrays, so nothing is timed on zeros (and no denormals). */
template <typename T>
__global__ void level_fill(T *p, size_t n)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        p[i] = splat<T>(1.0 + (double)(i & 7) * 0.125);
}

typedef struct level_job {
    const gs_stream_plan *plan;
    unsigned blocks_per_sm;        /* a blocks sweep's blocks on each SM (an L1 read variant's) */
    level_arrays arrays;
    size_t n;                      /* elements per array */
    unsigned threads, blocks, passes;
    double *out;                   /* 8 bytes: where a read's sum would go */
    unsigned long long *ticket;    /* a grid sweep's tile counter (zeroed once) */
    unsigned long long drawn;      /* tickets its launches have drawn so far */
    bool fresh;                    /* the arrays were allocated for this plan */
    unsigned long long *span;      /* a self-timed kernel's span (span_begin), else NULL */
    double *span_s;                /* the span of each run, slot run % plan->repeats */
    unsigned runs;                 /* launches so far, warm-up included */
} level_job;

/* Before a self-timed launch: the earliest start at its largest value, the latest end at 0. */
static cudaError_t span_reset(level_job *j)
{
    cudaError_t e = cudaMemsetAsync(j->span, 0xff, sizeof *j->span);
    return e == cudaSuccess ? cudaMemsetAsync(j->span + 1, 0, sizeof *j->span) : e;
}

/* After it: its span in seconds into the run's slot (0 when a block left no stamp). */
static int span_read(level_job *j, gs_error *err)
{
    int rc = 0;
    unsigned long long t[2];
    CUDA_TRY(cudaMemcpy(t, j->span, sizeof t, cudaMemcpyDeviceToHost));
    j->span_s[j->runs++ % j->plan->repeats] = t[1] > t[0] ? (double)(t[1] - t[0]) * 1e-9 : 0;
fail:
    return rc;
}

/* The timed runs' spans replace their event times: the last repeats launches were the timed
 * ones. A span missing or longer than its launch's events (a clock that jumped) keeps the events'. */
static void use_spans(const level_job *j, gs_stream_result *out)
{
    unsigned r = j->plan->repeats;
    for (size_t i = 0; i < out->n && j->runs >= r; i++) {
        double s = j->span_s[(j->runs - r + i) % r];
        if (s > 0 && s <= out->seconds[i])
            out->seconds[i] = s;
    }
}

template <typename T, int KIND>
static int launch(level_job *j, gs_error *err)
{
    int rc = 0;
    const T *x = (const T *)j->arrays.x, *y = (const T *)j->arrays.y;
    T *d = (T *)j->arrays.d;
    if (j->span)
        CUDA_TRY(span_reset(j));
    if (j->plan->sweep == GS_SWEEP_BLOCKS) {
        if (j->n <= UINT_MAX / 2)
            level_kernel<T, KIND, unsigned><<<j->blocks, j->threads>>>(
                x, y, d, j->n, j->passes, splat<T>(1.0009765625), 0, j->out, -1.0, j->span);
        else
            level_kernel<T, KIND, size_t><<<j->blocks, j->threads>>>(
                x, y, d, j->n, j->passes, splat<T>(1.0009765625), 0, j->out, -1.0, j->span);
    } else if (j->plan->sweep == GS_SWEEP_LAUNCHES) {
        for (unsigned p = 0; p < j->passes; p++)
            level_launch_kernel<T, KIND><<<j->blocks, j->threads>>>(
                x, y, d, j->n, splat<T>(1.0009765625), j->out, -1.0);
    } else {
        size_t tile = (size_t)grid_bytes(KIND) / sizeof(T) * j->threads;
        level_ticket_kernel<T, KIND><<<j->blocks, j->threads>>>(
            x, y, d, j->n, j->passes, splat<T>(1.0009765625), j->ticket, j->drawn, j->out, -1.0);
        j->drawn += (unsigned long long)((j->n + tile - 1) / tile) * j->passes + j->blocks;
    }
    CUDA_TRY(cudaGetLastError());
    if (j->span)
        rc = span_read(j, err);
fail:
    return rc;
}

template <bool NC, int U, int MIN_BLOCKS>
static int launch_l1(level_job *j, gs_error *err)
{
    int rc = 0;
    CUDA_TRY(span_reset(j));
    l1_read_kernel<NC, U, MIN_BLOCKS><<<j->blocks, j->threads>>>(
        (const float4 *)j->arrays.x, (unsigned)j->n, j->passes, j->out, -1.0, j->span);
    CUDA_TRY(cudaGetLastError());
    rc = span_read(j, err);
fail:
    return rc;
}

static int launch_smem(level_job *j, gs_error *err)
{
    int rc = 0;
    CUDA_TRY(span_reset(j));
    smem_read_kernel<<<j->blocks, j->threads, j->plan->bytes>>>((unsigned)(j->plan->bytes / 16),
                                                                 j->passes, j->out, -1.0, j->span);
    CUDA_TRY(cudaGetLastError());
    rc = span_read(j, err);
fail:
    return rc;
}

typedef int (*launch_fn)(level_job *j, gs_error *err);

/* The launcher and kernel of a kind, element type and sweep (the kernel: for occupancy). */
template <typename T, int KIND>
static void pick_kind(gs_sweep sweep, launch_fn *fn, const void **kernel)
{
    *fn = launch<T, KIND>;
    *kernel = sweep == GS_SWEEP_BLOCKS     ? (const void *)level_kernel<T, KIND, unsigned>
            : sweep == GS_SWEEP_LAUNCHES ? (const void *)level_launch_kernel<T, KIND>
                                         : (const void *)level_ticket_kernel<T, KIND>;
}

template <typename T>
static void pick_typed(int kind, gs_sweep sweep, launch_fn *fn, const void **kernel)
{
    switch (kind) {
    case GS_STREAM_LEVEL_READ:  pick_kind<T, GS_STREAM_LEVEL_READ>(sweep, fn, kernel); break;
    case GS_STREAM_LEVEL_WRITE: pick_kind<T, GS_STREAM_LEVEL_WRITE>(sweep, fn, kernel); break;
    case GS_STREAM_LEVEL_COPY:  pick_kind<T, GS_STREAM_LEVEL_COPY>(sweep, fn, kernel); break;
    case GS_STREAM_LEVEL_SCALE: pick_kind<T, GS_STREAM_LEVEL_SCALE>(sweep, fn, kernel); break;
    case GS_STREAM_LEVEL_ADD:   pick_kind<T, GS_STREAM_LEVEL_ADD>(sweep, fn, kernel); break;
    default:                    pick_kind<T, GS_STREAM_LEVEL_TRIAD>(sweep, fn, kernel); break;
    }
}

/* An L1 read variant's launcher, kernel and blocks per SM (plan.variant 1-3). */
static void pick_l1(unsigned variant, launch_fn *fn, const void **kernel, unsigned *per_sm)
{
    *per_sm = 1;
    if (variant == 1) {
        *fn = launch_l1<false, 8, 1>;
        *kernel = (const void *)l1_read_kernel<false, 8, 1>;
    } else if (variant == 2) {
        *fn = launch_l1<true, 8, 1>;
        *kernel = (const void *)l1_read_kernel<true, 8, 1>;
    } else {
        *fn = launch_l1<true, 4, 2>;
        *kernel = (const void *)l1_read_kernel<true, 4, 2>;
        *per_sm = 2;
    }
}

static void pick(const gs_stream_plan *plan, launch_fn *fn, const void **kernel)
{
    if (plan->kind == GS_STREAM_SMEM_READ) {
        *fn = launch_smem;
        *kernel = (const void *)smem_read_kernel;
    } else if (plan->element_bytes == 4) {
        pick_typed<float>(plan->kind, plan->sweep, fn, kernel);
    } else if (plan->element_bytes == 8) {
        pick_typed<double>(plan->kind, plan->sweep, fn, kernel);
    } else {
        pick_typed<float4>(plan->kind, plan->sweep, fn, kernel);
    }
}

/* Arrays a kind touches: loaded ones plus the stored one (write: 1, read: 1, copy and scale: 2,
 * add and triad: 3). */
static int arrays_of(gs_stream_kind kind)
{
    return kind == GS_STREAM_SMEM_READ ? 0 : sources(kind) + (stores(kind) ? 1 : 0);
}

/* Grid and passes: blocks mode (and shared memory: one grid of resident blocks) as the plan says
 * or from the SM count and occupancy; passes so the launch moves traffic_bytes at least. */
static int shape(gs_backend *b, level_job *j, const void *kernel, gs_error *err)
{
    int rc = 0, per_sm = 0;
    const gs_stream_plan *plan = j->plan;
    int sms = gs_cuda_of(b)->prop.multiProcessorCount;
    size_t smem = plan->kind == GS_STREAM_SMEM_READ ? plan->bytes : 0;
    uint64_t per_pass;
    CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, (int)j->threads,
                                                           smem));
    if (per_sm < 1) {
        rc = gs_fail(err, GS_ERR_UNSUPPORTED, "stream: no block of %u threads%s fits on an SM",
                     j->threads, smem ? " with that shared memory" : "");
        goto fail;
    }
    /* a blocks sweep's stream wraps once per step at most: no more threads than elements */
    if (plan->sweep == GS_SWEEP_BLOCKS && !smem && j->n < j->threads) {
        if (j->n < 32) {
            rc = gs_fail(err, GS_ERR_USAGE, "stream: %zu elements per array: a sweep by blocks "
                         "needs 32 at least (a larger footprint)", j->n);
            goto fail;
        }
        j->threads = (unsigned)(j->n / 32 * 32);
    }
    if (plan->sweep == GS_SWEEP_LAUNCHES && !smem &&
        (j->n + j->threads - 1) / j->threads > INT_MAX) {
        rc = gs_fail(err, GS_ERR_UNSUPPORTED, "stream: %zu elements need more than %d blocks of %u "
                     "threads in one launch", j->n, INT_MAX, j->threads);
        goto fail;
    }
    j->blocks = plan->sweep == GS_SWEEP_LAUNCHES && !smem
                  ? (unsigned)((j->n + j->threads - 1) / j->threads)
              : plan->blocks ? plan->blocks
              : plan->sweep == GS_SWEEP_BLOCKS && !smem
                  ? (unsigned)sms * (j->blocks_per_sm < (unsigned)per_sm ? j->blocks_per_sm
                                                                         : (unsigned)per_sm)
              : (unsigned)(per_sm * sms);
    per_pass = smem ? (uint64_t)j->blocks * plan->bytes
             : (uint64_t)arrays_of(plan->kind) * j->n * plan->element_bytes
               * (plan->sweep == GS_SWEEP_BLOCKS ? j->blocks : 1);
    {
        uint64_t passes = (plan->traffic_bytes + per_pass - 1) / per_pass;
        j->passes = passes < 1 ? 1 : passes > UINT_MAX / 2 ? UINT_MAX / 2 : (unsigned)passes;
    }
fail:
    return rc;
}

/* One launch of a level job by its kind's launcher, for gs_cuda_time_runs. */
typedef struct level_run {
    level_job *j;
    launch_fn fn;
} level_run;

static int run_level(void *arg, gs_error *err)
{
    level_run *r = (level_run *)arg;
    return r->fn(r->j, err);
}

static int check_plan(const gs_stream_plan *plan, const gs_stream_result *out, unsigned threads,
                      gs_error *err)
{
    unsigned e = plan->element_bytes;
    if (gs_stream_kind_family(plan->kind) != GS_STREAM_FAMILY_LEVEL)
        return gs_fail(err, GS_ERR_USAGE, "stream: unknown level kind %d", (int)plan->kind);
    if (plan->kind != GS_STREAM_SMEM_READ && e != 4 && e != 8 && e != 16)
        return gs_fail(err, GS_ERR_UNSUPPORTED, "stream: level kinds take 4-, 8- or 16-byte "
                       "elements, not %u", e);
    if (plan->repeats == 0 || !out->seconds || plan->bytes < e)
        return gs_fail(err, GS_ERR_USAGE, "stream: a plan needs repeats > 0, a seconds array and "
                       "bytes of one element at least");
    if (threads == 0 || threads > 1024 || threads % 32)
        return gs_fail(err, GS_ERR_USAGE, "stream: %u threads per block: use a multiple of 32 "
                       "up to 1024", threads);
    if (plan->variant && (plan->kind != GS_STREAM_LEVEL_READ || e != 16 ||
                          plan->sweep != GS_SWEEP_BLOCKS || threads != L1_THREADS ||
                          plan->variant >= GS_L1_READ_VARIANTS ||
                          plan->bytes < (uint64_t)L1_THREADS * 16))
        return gs_fail(err, GS_ERR_UNSUPPORTED, "stream: L1 read kernel %u runs a read by blocks "
                       "of 16-byte elements, %d threads per block and %d KB at least", plan->variant,
                       L1_THREADS, L1_THREADS * 16 / 1024);
    if (plan->kind == GS_STREAM_SMEM_READ &&
        ((plan->bytes & (plan->bytes - 1)) || plan->bytes > 49152 ||
         plan->bytes % ((uint64_t)threads * SMEM_UNROLL * 16)))
        return gs_fail(err, GS_ERR_USAGE, "stream: shared-memory read of %llu bytes: use a power "
                       "of two up to 48 KB and a multiple of %u (threads x %d x 16 B)",
                       (unsigned long long)plan->bytes, threads * SMEM_UNROLL * 16, SMEM_UNROLL);
    return 0;
}

/* The kind's arrays from the scratch buffers (cuda_internal.h), each filled anew. */
static int alloc_arrays(gs_backend *b, level_job *j, gs_error *err)
{
    int rc = 0;
    int count = arrays_of(j->plan->kind);
    size_t bytes = j->n * j->plan->element_bytes;
    void *buf[GS_SCRATCH_BUFFERS];
    if (count == 0)                              /* the shared-memory read */
        return 0;
    rc = gs_cuda_scratch(gs_cuda_of(b)->ordinal, count, bytes, buf, &j->fresh, err);
    if (rc)
        return rc;
    for (int a = 0; a < count; a++) {
        if (j->plan->element_bytes == 4)
            level_fill<float><<<1024, 256>>>((float *)buf[a], j->n);
        else if (j->plan->element_bytes == 8)
            level_fill<double><<<1024, 256>>>((double *)buf[a], j->n);
        else
            level_fill<float4><<<1024, 256>>>((float4 *)buf[a], j->n);
        CUDA_LAUNCH_CHECK();
    }
    switch (j->plan->kind) {
    case GS_STREAM_LEVEL_READ:  j->arrays.x = buf[0]; break;
    case GS_STREAM_LEVEL_WRITE: j->arrays.d = buf[0]; break;
    case GS_STREAM_LEVEL_COPY:
    case GS_STREAM_LEVEL_SCALE: j->arrays.x = buf[0]; j->arrays.d = buf[1]; break;
    case GS_STREAM_LEVEL_ADD:   j->arrays.x = buf[0]; j->arrays.y = buf[1]; j->arrays.d = buf[2];
                                break;
    default:                    j->arrays.x = buf[1]; j->arrays.y = buf[2]; j->arrays.d = buf[0];
                                break;
    }
fail:
    return rc;
}

/* Threads per block: the plan's, else the kind's default (a blocks sweep's stream keeps its
 * loads in flight at any footprint; shape() takes no more threads than elements). */
static unsigned threads_for(const gs_stream_plan *plan)
{
    if (plan->threads_per_block)
        return plan->threads_per_block;
    return plan->kind == GS_STREAM_SMEM_READ ? SMEM_DEFAULT_THREADS : DEFAULT_THREADS;
}

int gs_cuda_level_stream(gs_backend *b, const gs_stream_plan *plan, gs_stream_result *out,
                         gs_error *err)
{
    level_job j = { plan, 1, { NULL, NULL, NULL }, 0, 0, 0, 0, NULL, NULL, 0, false, NULL, NULL, 0 };
    level_run run = { &j, NULL };    /* its launcher: the plan's kind, width and sweep */
    const void *kernel;
    j.threads = threads_for(plan);
    int rc = check_plan(plan, out, j.threads, err);
    if (rc)
        return rc;
    j.n = plan->kind == GS_STREAM_SMEM_READ ? 0 : plan->bytes / plan->element_bytes;
    if (plan->variant)
        pick_l1(plan->variant, &run.fn, &kernel, &j.blocks_per_sm);
    else
        pick(plan, &run.fn, &kernel);
    if (plan->kind == GS_STREAM_SMEM_READ)
        CUDA_TRY(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                      (int)plan->bytes));
    rc = shape(b, &j, kernel, err);
    if (rc)
        goto fail;
    CUDA_TRY(cudaMalloc(&j.out, sizeof(double)));
    /* self-timed: the launches at the SM's limit (the L1 read kernels, the shared-memory read,
     * and the read by blocks of a footprint an SM's shared memory would hold, its L1's range) */
    if (plan->variant || plan->kind == GS_STREAM_SMEM_READ ||
        (plan->kind == GS_STREAM_LEVEL_READ && plan->sweep == GS_SWEEP_BLOCKS &&
         plan->bytes <= (uint64_t)gs_cuda_of(b)->prop.sharedMemPerMultiprocessor)) {
        CUDA_TRY(cudaMalloc(&j.span, 2 * sizeof *j.span));
        j.span_s = (double *)calloc(plan->repeats, sizeof *j.span_s);
        if (!j.span_s) {
            rc = gs_fail(err, GS_ERR_NO_MEMORY, "stream: out of host memory");
            goto fail;
        }
    }
    if (plan->kind != GS_STREAM_SMEM_READ && plan->sweep == GS_SWEEP_GRID) {
        CUDA_TRY(cudaMalloc(&j.ticket, sizeof *j.ticket));
        CUDA_TRY(cudaMemset(j.ticket, 0, sizeof *j.ticket));
    }
    rc = alloc_arrays(b, &j, err);
    if (rc)
        goto fail;
    rc = gs_cuda_time_runs(run_level, &run, j.fresh, plan->repeats, out, err);
    if (rc)
        goto fail;
    if (j.span)
        use_spans(&j, out);
    out->bytes_moved = (uint64_t)j.passes * (plan->kind == GS_STREAM_SMEM_READ
        ? (uint64_t)j.blocks * plan->bytes
        : (uint64_t)arrays_of(plan->kind) * j.n * plan->element_bytes
          * (plan->sweep == GS_SWEEP_BLOCKS ? j.blocks : 1));
fail:
    if (j.out)
        cudaFree(j.out);
    if (j.span)
        cudaFree(j.span);
    free(j.span_s);
    if (j.ticket)
        cudaFree(j.ticket);
    return rc;
}
