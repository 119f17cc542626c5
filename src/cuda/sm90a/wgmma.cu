/* Hopper's warpgroup MMA for the mma operation (mma.cu; probe tensor): wgmma.mma_async
 * m64n128k16 with f16 inputs and f32 accumulators, A and B both in shared memory through matrix
 * descriptors (PTX ISA, "Asynchronous Warpgroup Level Matrix Multiply-Accumulate"). wgmma is an
 * arch-specific feature of sm_90a, so this file is built for sm_90a alone (CMakeLists.txt,
 * target gs_sm90a) and linked in when 90 is among GS_CUDA_ARCHS; the host launches it only on a
 * cc 9.0 device (gs_mma_applicable).
 * Operands: one 6 KB tile in shared memory in the no-swizzle K-major layout (8 x 16-byte core
 * matrices, 128 B apart along K, 256 B apart along M and N); the values (f16 1/128) matter for
 * nothing but staying finite. Latency: one warpgroup, each step fence, one wgmma on the
 * accumulator, commit_group, wait_group 0, so each step waits for the previous result; spans of
 * MMA_CHAIN and 2 x MMA_CHAIN steps as in mma.cu. Throughput: every warpgroup runs commit groups
 * of GS_MMA_PER_TRIP wgmma on its one accumulator (a K loop, as a GEMM main loop issues them),
 * then waits for the group. */
#include <stdint.h>

#include "cuda/cuda_internal.h"

#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
#define GS_WGMMA 1
#else
#define GS_WGMMA 0
#endif

#define TILE_BYTES 6144
#define A_OFFSET 0
#define B_OFFSET 2048

/* A matrix descriptor (PTX ISA, "Matrix Descriptor Format"): start address >> 4 in bits 0-13,
 * leading-dimension byte offset >> 4 in 16-29, stride-dimension byte offset >> 4 in 32-45, base
 * offset 0, swizzle mode 0 (none) in 62-63. */
static __device__ __forceinline__ uint64_t descriptor(uint32_t smem_address)
{
    return (uint64_t)((smem_address & 0x3ffffu) >> 4) | ((uint64_t)(128 >> 4) << 16) |
           ((uint64_t)(256 >> 4) << 32);
}

static __device__ __forceinline__ void fence(void)
{
#if GS_WGMMA
    asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
#endif
}

static __device__ __forceinline__ void commit(void)
{
#if GS_WGMMA
    asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
#endif
}

static __device__ __forceinline__ void wait_all(float (&d)[64])
{
#if GS_WGMMA
    asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
    /* the accumulators are written by the asynchronous instruction: tell the compiler so */
    for (int i = 0; i < 64; i++)
        asm volatile("" : "+f"(d[i])::"memory");
#else
    (void)d;
#endif
}

/* D = A x B + D, m64n128k16, f32 += f16 x f16, scale 1, no transpose. */
static __device__ __forceinline__ void wgmma(float (&d)[64], uint64_t a, uint64_t b)
{
#if GS_WGMMA
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %66, 0;\n"
                 "wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 "
                 "{%0, %1, %2, %3, %4, %5, %6, %7, "
                 "%8, %9, %10, %11, %12, %13, %14, %15, "
                 "%16, %17, %18, %19, %20, %21, %22, %23, "
                 "%24, %25, %26, %27, %28, %29, %30, %31, "
                 "%32, %33, %34, %35, %36, %37, %38, %39, "
                 "%40, %41, %42, %43, %44, %45, %46, %47, "
                 "%48, %49, %50, %51, %52, %53, %54, %55, "
                 "%56, %57, %58, %59, %60, %61, %62, %63}, "
                 "%64, %65, p, 1, 1, 0, 0;\n}\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]),
                   "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]),
                   "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]),
                   "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
                   "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]),
                   "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]),
                   "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]),
                   "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]),
                   "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]),
                   "+f"(d[54]), "+f"(d[55]), "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]),
                   "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63])
                 : "l"(a), "l"(b), "r"(1));
#else
    (void)d, (void)a, (void)b;
    __trap();
#endif
}

/* Fill the tile, make it visible to the asynchronous proxy, zero the accumulators. */
static __device__ __forceinline__ void setup(unsigned char *tile, float (&d)[64], uint64_t *a,
                                             uint64_t *b)
{
    for (unsigned i = threadIdx.x; i < TILE_BYTES / 4; i += blockDim.x)
        ((uint32_t *)tile)[i] = 0x20002000u;   /* f16 1/128 */
#if GS_WGMMA
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
#endif
    __syncthreads();
    for (int i = 0; i < 64; i++)
        d[i] = 0.0f;
    uint32_t base = (uint32_t)__cvta_generic_to_shared(tile);
    *a = descriptor(base + A_OFFSET);
    *b = descriptor(base + B_OFFSET);
}

/* An xor of every accumulator (constant indices: the array stays in registers). */
static __device__ __forceinline__ unsigned fold(const float (&d)[64])
{
    unsigned x = 0;
#pragma unroll
    for (int i = 0; i < 64; i++)
        x ^= __float_as_uint(d[i]);
    return x;
}

static __device__ __forceinline__ long long wg_clock(void)
{
    long long t;
    asm volatile("mov.u64 %0, %%clock64;" : "=l"(t)::"memory");
    return t;
}

static __device__ __forceinline__ unsigned long long wg_globaltimer(void)
{
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t)::"memory");
    return t;
}

template <int N>
static __device__ __forceinline__ void chain(float (&d)[64], uint64_t a, uint64_t b, unsigned drain)
{
#pragma unroll
    for (int k = 0; k < N; k++) {
        fence();
        wgmma(d, a, b);
        commit();
        wait_all(d);
    }
    asm volatile("st.shared.u32 [%0], %1;" : : "r"(drain), "r"(__float_as_uint(d[0])) : "memory");
}

__global__ void __launch_bounds__(128) gs_wgmma_latency_kernel(unsigned reps, long long *spans,
                                                               unsigned *sink)
{
    __shared__ __align__(128) unsigned char tile[TILE_BYTES];
    __shared__ long long span[2 * MMA_MAX_REPEATS];
    __shared__ unsigned drain_word;
    float d[64];
    uint64_t a, b;
    setup(tile, d, &a, &b);
    unsigned drain = (unsigned)__cvta_generic_to_shared(&drain_word);
    for (int r = -2; r < (int)reps; r++) {
        long long t0 = wg_clock();
        chain<MMA_CHAIN>(d, a, b, drain);
        long long t1 = wg_clock();
        chain<2 * MMA_CHAIN>(d, a, b, drain);
        long long t2 = wg_clock();
        if (r >= 0 && threadIdx.x == 0) {
            span[2 * r] = t1 - t0;
            span[2 * r + 1] = t2 - t1;
        }
    }
    __syncthreads();
    if (threadIdx.x == 0)
        for (unsigned i = 0; i < 2 * reps; i++)
            spans[i] = span[i];
    sink[threadIdx.x] = fold(d);
}

__global__ void __launch_bounds__(128) gs_wgmma_tput_kernel(unsigned iters, unsigned *sink,
                                                            unsigned long long *clk)
{
    __shared__ __align__(128) unsigned char tile[TILE_BYTES];
    float d[64];
    uint64_t a, b;
    setup(tile, d, &a, &b);
    bool timer = blockIdx.x == 0 && threadIdx.x == 0;
    long long c0 = timer ? wg_clock() : 0;
    unsigned long long g0 = timer ? wg_globaltimer() : 0;
    for (unsigned i = 0; i < iters; i++) {
        fence();
#pragma unroll
        for (int k = 0; k < GS_MMA_PER_TRIP; k++)
            wgmma(d, a, b);
        commit();
        wait_all(d);
    }
    if (timer) {
        clk[0] = (unsigned long long)c0;
        clk[1] = (unsigned long long)wg_clock();
        clk[2] = g0;
        clk[3] = wg_globaltimer();
    }
    if (iters == 0xffffffffu)   /* never: keeps the accumulators live */
        sink[threadIdx.x] = fold(d);
}

cudaError_t gs_wgmma_launch_latency(unsigned reps, long long *spans, unsigned *sink)
{
    gs_wgmma_latency_kernel<<<1, 128>>>(reps, spans, sink);
    return cudaGetLastError();
}

cudaError_t gs_wgmma_launch_tput(unsigned blocks, unsigned iterations, unsigned *sink,
                                 unsigned long long *clk)
{
    gs_wgmma_tput_kernel<<<blocks, 128>>>(iterations, sink, clk);
    return cudaGetLastError();
}
