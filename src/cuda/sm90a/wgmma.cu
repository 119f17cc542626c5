/* Hopper's warpgroup MMA for the mma operation (mma.cu; probe tensor): wgmma.mma_async m64n128
 * per input type with f32 accumulators (s8: s32), k16 for f16 and bf16, k8 for tf32, k32 for fp8
 * e4m3 and e5m2 and for s8, A and B both in shared memory through matrix descriptors (PTX ISA,
 * "Asynchronous Warpgroup Level Matrix Multiply-Accumulate"). wgmma is an arch-specific feature
 * of sm_90a, so this file is built for sm_90a alone (CMakeLists.txt, target gs_sm90a) and linked
 * in when 90 is among GS_CUDA_ARCHS; the host launches it only on a cc 9.0 device
 * (gs_mma_applicable).
 * Operands: one 6 KB tile in shared memory in the no-swizzle K-major layout (8 x 16-byte core
 * matrices, 128 B apart along K, 256 B apart along M and N). Every type's K step is 32 bytes of
 * input (16 f16, 8 tf32, 32 fp8 or s8), so one layout and one pair of descriptors serve all:
 * A 64 rows x 32 B, B 128 rows x 32 B. K-major is the only layout tf32, fp8 and s8 have (their
 * forms take no transpose operands); f16 and bf16 use it too (transpose 0). The values (1/128
 * for f16, bf16, tf32; 1/64 for fp8; 1 for s8) matter for nothing but staying finite. Latency:
 * one warpgroup, each step fence, one wgmma on the accumulator, commit_group, wait_group 0, so
 * each step waits for the previous result; spans of MMA_CHAIN and 2 x MMA_CHAIN steps as in
 * mma.cu. Throughput: every warpgroup runs commit groups of GS_MMA_PER_TRIP wgmma on its one
 * accumulator (a K loop, as a GEMM main loop issues them), then waits for the group. */
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

/* The accumulators: 64 registers per thread (m64n128: 64 x 128 / 128 threads), f32 but for s8. */
template <int TY> struct wg_acc {
    typedef float T;
};
template <> struct wg_acc<GS_MMA_S8> {
    typedef int T;
};

#if GS_WGMMA
/* The accumulators are written by the asynchronous instruction: tell the compiler so. */
static __device__ __forceinline__ void touch(float &x) { asm volatile("" : "+f"(x)::"memory"); }
static __device__ __forceinline__ void touch(int &x) { asm volatile("" : "+r"(x)::"memory"); }
#endif
static __device__ __forceinline__ unsigned bits(float x) { return __float_as_uint(x); }
static __device__ __forceinline__ unsigned bits(int x) { return (unsigned)x; }

template <typename T> static __device__ __forceinline__ void wait_all(T (&d)[64])
{
#if GS_WGMMA
    asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
    for (int i = 0; i < 64; i++)
        touch(d[i]);
#else
    (void)d;
#endif
}

/* The operand lists: D is %0..%63, a-desc %64, b-desc %65, %66 the scale-d predicate's source. */
#define WG_D                                                                                     \
    "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "                     \
    "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, "            \
    "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, "            \
    "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63}"
#define WG_OUT(C)                                                                                \
    C(d[0]), C(d[1]), C(d[2]), C(d[3]), C(d[4]), C(d[5]), C(d[6]), C(d[7]), C(d[8]), C(d[9]),   \
    C(d[10]), C(d[11]), C(d[12]), C(d[13]), C(d[14]), C(d[15]), C(d[16]), C(d[17]), C(d[18]),    \
    C(d[19]), C(d[20]), C(d[21]), C(d[22]), C(d[23]), C(d[24]), C(d[25]), C(d[26]), C(d[27]),    \
    C(d[28]), C(d[29]), C(d[30]), C(d[31]), C(d[32]), C(d[33]), C(d[34]), C(d[35]), C(d[36]),    \
    C(d[37]), C(d[38]), C(d[39]), C(d[40]), C(d[41]), C(d[42]), C(d[43]), C(d[44]), C(d[45]),    \
    C(d[46]), C(d[47]), C(d[48]), C(d[49]), C(d[50]), C(d[51]), C(d[52]), C(d[53]), C(d[54]),    \
    C(d[55]), C(d[56]), C(d[57]), C(d[58]), C(d[59]), C(d[60]), C(d[61]), C(d[62]), C(d[63])
#define WG_F(x) "+f"(x)
#define WG_R(x) "+r"(x)
/* One wgmma, D = A x B + D (scale-d true): INSTR its name, TAIL what follows scale-d (PTX ISA,
 * "wgmma.mma_async" syntax: f16 and bf16 imm-scale-a, imm-scale-b, imm-trans-a, imm-trans-b;
 * tf32 and fp8 the two scales; integer nothing). */
#define WG_ASM(INSTR, TAIL, C)                                                                   \
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %66, 0;\n" INSTR " " WG_D                    \
                 ", %64, %65, p" TAIL ";\n}\n"                                                    \
                 : WG_OUT(C)                                                                      \
                 : "l"(a), "l"(b), "r"(1))

template <int TY> struct wg_op;
#if GS_WGMMA
#define WG_OP(TY, INSTR, TAIL, C)                                                                \
    template <> struct wg_op<TY> {                                                               \
        static __device__ __forceinline__ void run(typename wg_acc<TY>::T (&d)[64], uint64_t a,   \
                                                   uint64_t b)                                    \
        {                                                                                        \
            WG_ASM(INSTR, TAIL, C);                                                              \
        }                                                                                        \
    };
#else
#define WG_OP(TY, INSTR, TAIL, C)                                                                \
    template <> struct wg_op<TY> {                                                               \
        static __device__ __forceinline__ void run(typename wg_acc<TY>::T (&d)[64], uint64_t a,   \
                                                   uint64_t b)                                    \
        {                                                                                        \
            (void)d, (void)a, (void)b;                                                           \
            __trap();                                                                            \
        }                                                                                        \
    };
#endif
WG_OP(GS_MMA_F16, "wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16", ", 1, 1, 0, 0", WG_F)
WG_OP(GS_MMA_BF16, "wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16", ", 1, 1, 0, 0", WG_F)
WG_OP(GS_MMA_TF32, "wgmma.mma_async.sync.aligned.m64n128k8.f32.tf32.tf32", ", 1, 1", WG_F)
WG_OP(GS_MMA_E4M3, "wgmma.mma_async.sync.aligned.m64n128k32.f32.e4m3.e4m3", ", 1, 1", WG_F)
WG_OP(GS_MMA_E5M2, "wgmma.mma_async.sync.aligned.m64n128k32.f32.e5m2.e5m2", ", 1, 1", WG_F)
WG_OP(GS_MMA_S8, "wgmma.mma_async.sync.aligned.m64n128k32.s32.s8.s8", "", WG_R)

/* One 32-bit word of the tile per type: f16 and bf16 1/128 x 2, tf32 1/128, e4m3 and e5m2
 * 1/64 x 4 (0x08, 0x24: normal numbers), s8 1 x 4. */
template <int TY> struct wg_fill;
template <> struct wg_fill<GS_MMA_F16> { enum : uint32_t { word = 0x20002000u }; };
template <> struct wg_fill<GS_MMA_BF16> { enum : uint32_t { word = 0x3c003c00u }; };
template <> struct wg_fill<GS_MMA_TF32> { enum : uint32_t { word = 0x3c000000u }; };
template <> struct wg_fill<GS_MMA_E4M3> { enum : uint32_t { word = 0x08080808u }; };
template <> struct wg_fill<GS_MMA_E5M2> { enum : uint32_t { word = 0x24242424u }; };
template <> struct wg_fill<GS_MMA_S8> { enum : uint32_t { word = 0x01010101u }; };

/* Fill the tile, make it visible to the asynchronous proxy, zero the accumulators. */
template <int TY>
static __device__ __forceinline__ void setup(unsigned char *tile,
                                             typename wg_acc<TY>::T (&d)[64], uint64_t *a,
                                             uint64_t *b)
{
    for (unsigned i = threadIdx.x; i < TILE_BYTES / 4; i += blockDim.x)
        ((uint32_t *)tile)[i] = (uint32_t)wg_fill<TY>::word;
#if GS_WGMMA
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
#endif
    __syncthreads();
    for (int i = 0; i < 64; i++)
        d[i] = 0;
    uint32_t base = (uint32_t)__cvta_generic_to_shared(tile);
    *a = descriptor(base + A_OFFSET);
    *b = descriptor(base + B_OFFSET);
}

/* An xor of every accumulator (constant indices: the array stays in registers). */
template <typename T> static __device__ __forceinline__ unsigned fold(const T (&d)[64])
{
    unsigned x = 0;
#pragma unroll
    for (int i = 0; i < 64; i++)
        x ^= bits(d[i]);
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

template <int TY, int N>
static __device__ __forceinline__ void chain(typename wg_acc<TY>::T (&d)[64], uint64_t a,
                                             uint64_t b, unsigned drain)
{
#pragma unroll
    for (int k = 0; k < N; k++) {
        fence();
        wg_op<TY>::run(d, a, b);
        commit();
        wait_all(d);
    }
    asm volatile("st.shared.u32 [%0], %1;" : : "r"(drain), "r"(bits(d[0])) : "memory");
}

template <int TY>
__global__ void __launch_bounds__(128) gs_wgmma_latency_kernel(unsigned reps, long long *spans,
                                                               unsigned *sink)
{
    __shared__ __align__(128) unsigned char tile[TILE_BYTES];
    __shared__ long long span[2 * MMA_MAX_REPEATS];
    __shared__ unsigned drain_word;
    typename wg_acc<TY>::T d[64];
    uint64_t a, b;
    setup<TY>(tile, d, &a, &b);
    unsigned drain = (unsigned)__cvta_generic_to_shared(&drain_word);
    for (int r = -2; r < (int)reps; r++) {
        long long t0 = wg_clock();
        chain<TY, MMA_CHAIN>(d, a, b, drain);
        long long t1 = wg_clock();
        chain<TY, 2 * MMA_CHAIN>(d, a, b, drain);
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

template <int TY>
__global__ void __launch_bounds__(128) gs_wgmma_tput_kernel(unsigned iters, unsigned *sink,
                                                            unsigned long long *clk)
{
    __shared__ __align__(128) unsigned char tile[TILE_BYTES];
    typename wg_acc<TY>::T d[64];
    uint64_t a, b;
    setup<TY>(tile, d, &a, &b);
    bool timer = blockIdx.x == 0 && threadIdx.x == 0;
    long long c0 = timer ? wg_clock() : 0;
    unsigned long long g0 = timer ? wg_globaltimer() : 0;
    for (unsigned i = 0; i < iters; i++) {
        fence();
#pragma unroll
        for (int k = 0; k < GS_MMA_PER_TRIP; k++)
            wg_op<TY>::run(d, a, b);
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

template <int TY>
static cudaError_t launch_typed(bool latency, unsigned reps, unsigned blocks, unsigned iterations,
                                long long *spans, unsigned *sink, unsigned long long *clk)
{
    if (latency)
        gs_wgmma_latency_kernel<TY><<<1, 128>>>(reps, spans, sink);
    else
        gs_wgmma_tput_kernel<TY><<<blocks, 128>>>(iterations, sink, clk);
    return cudaGetLastError();
}

static cudaError_t launch(gs_mma_type type, bool latency, unsigned reps, unsigned blocks,
                          unsigned iterations, long long *spans, unsigned *sink,
                          unsigned long long *clk)
{
#define WG_CASE(TY)                                                                              \
    case TY:                                                                                     \
        return launch_typed<TY>(latency, reps, blocks, iterations, spans, sink, clk)
    switch (type) {
    WG_CASE(GS_MMA_F16);
    WG_CASE(GS_MMA_BF16);
    WG_CASE(GS_MMA_TF32);
    WG_CASE(GS_MMA_E4M3);
    WG_CASE(GS_MMA_E5M2);
    WG_CASE(GS_MMA_S8);
    default: return cudaErrorNotSupported;   /* no f64 wgmma (gs_mma_shape) */
    }
}

cudaError_t gs_wgmma_launch_latency(gs_mma_type type, unsigned reps, long long *spans,
                                    unsigned *sink)
{
    return launch(type, true, reps, 0, 0, spans, sink, NULL);
}

cudaError_t gs_wgmma_launch_tput(gs_mma_type type, unsigned blocks, unsigned iterations,
                                 unsigned *sink, unsigned long long *clk)
{
    return launch(type, false, 0, blocks, iterations, NULL, sink, clk);
}
