/* The warp-level tensor-core instructions as inline PTX, one function each (mma.sync.aligned,
 * row-major A, column-major B, D = A x B + C with C the same registers as D): shared by the issue
 * kernels (issue.cu, the pipeline probe's `mma` type: m16n8k16 with f16 accumulators) and the mma
 * kernels (mma.cu, probe tensor: one shape per input type). Each is compiled only for the
 * architectures that have it (PTX ISA, "Warp-level matrix multiply-accumulate instructions":
 * m16n8k16 f16/bf16, m16n8k8 tf32, m16n8k32 s8 and m8n8k4 f64 need sm_80, m16n8k32 e4m3 sm_89);
 * elsewhere it traps, and the host never launches it there (gs_mma_applicable). The sparse forms
 * (mma.sp::ordered_metadata, A structured 2:4 (tf32 1:2) with one metadata register and sparsity
 * selector 0) take twice the dense k at the same register counts: m16n8k32 f16 and bf16, m16n8k16
 * tf32, m16n8k64 s8 (sm_80) and e4m3 (sm_89); D, C four 32-bit words, A four, B four. */
#ifndef GS_MMA_OPS_CUH
#define GS_MMA_OPS_CUH

#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800
#define GS_MMA_SM80 1
#else
#define GS_MMA_SM80 0
#endif
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 890
#define GS_MMA_SM89 1
#else
#define GS_MMA_SM89 0
#endif

/* m16n8k16, f16 inputs, f16 accumulators (two f16x2 registers). */
static __device__ __forceinline__ void gs_mma_f16_f16acc(unsigned (&d)[2], const unsigned (&a)[4],
                                                         const unsigned (&b)[2])
{
#if GS_MMA_SM80
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 {%0, %1}, {%2, %3, %4, %5}, "
                 "{%6, %7}, {%0, %1};"
                 : "+r"(d[0]), "+r"(d[1])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
#else
    (void)d, (void)a, (void)b;
    __trap();
#endif
}

/* The four f32-accumulate shapes share their operand lists: D and C four f32, A four b32, B two. */
#define GS_MMA_F32_OPERANDS                                                                      \
    " {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};"                           \
    : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])                                             \
    : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1])

/* m16n8k16, f16 inputs, f32 accumulators. */
static __device__ __forceinline__ void gs_mma_f16(float (&d)[4], const unsigned (&a)[4],
                                                  const unsigned (&b)[2])
{
#if GS_MMA_SM80
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32" GS_MMA_F32_OPERANDS);
#else
    (void)d, (void)a, (void)b;
    __trap();
#endif
}

/* m16n8k16, bf16 inputs, f32 accumulators. */
static __device__ __forceinline__ void gs_mma_bf16(float (&d)[4], const unsigned (&a)[4],
                                                   const unsigned (&b)[2])
{
#if GS_MMA_SM80
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32" GS_MMA_F32_OPERANDS);
#else
    (void)d, (void)a, (void)b;
    __trap();
#endif
}

/* m16n8k8, tf32 inputs, f32 accumulators. */
static __device__ __forceinline__ void gs_mma_tf32(float (&d)[4], const unsigned (&a)[4],
                                                   const unsigned (&b)[2])
{
#if GS_MMA_SM80
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32" GS_MMA_F32_OPERANDS);
#else
    (void)d, (void)a, (void)b;
    __trap();
#endif
}

/* m16n8k32, fp8 e4m3 inputs, f32 accumulators (sm_89). */
static __device__ __forceinline__ void gs_mma_e4m3(float (&d)[4], const unsigned (&a)[4],
                                                   const unsigned (&b)[2])
{
#if GS_MMA_SM89
    asm volatile("mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32" GS_MMA_F32_OPERANDS);
#else
    (void)d, (void)a, (void)b;
    __trap();
#endif
}

/* m16n8k32, s8 inputs, s32 accumulators. */
static __device__ __forceinline__ void gs_mma_s8(int (&d)[4], const unsigned (&a)[4],
                                                 const unsigned (&b)[2])
{
#if GS_MMA_SM80
    asm volatile("mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 {%0, %1, %2, %3}, "
                 "{%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};"
                 : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
#else
    (void)d, (void)a, (void)b;
    __trap();
#endif
}

/* m8n8k4, f64 (DMMA): D and C two f64, A and B one. */
static __device__ __forceinline__ void gs_mma_f64(double (&d)[2], double a, double b)
{
#if GS_MMA_SM80
    asm volatile("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0, %1}, {%2}, {%3}, {%0, %1};"
                 : "+d"(d[0]), "+d"(d[1])
                 : "d"(a), "d"(b));
#else
    (void)d, (void)a, (void)b;
    __trap();
#endif
}

/* The sparse f32-accumulate shapes: D and C four f32, A four b32, B four, the metadata word e. */
#define GS_MMA_SP_F32_OPERANDS                                                                   \
    " {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9, %10, %11}, {%0, %1, %2, %3}, %12, 0x0;"       \
    : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])                                             \
    : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(b[2]), "r"(b[3]),  \
      "r"(e)

/* m16n8k32 sparse, f16 inputs, f32 accumulators. */
static __device__ __forceinline__ void gs_mma_sp_f16(float (&d)[4], const unsigned (&a)[4],
                                                     const unsigned (&b)[4], unsigned e)
{
#if GS_MMA_SM80
    asm volatile("mma.sp::ordered_metadata.sync.aligned.m16n8k32.row.col.f32.f16.f16.f32"
                 GS_MMA_SP_F32_OPERANDS);
#else
    (void)d, (void)a, (void)b, (void)e;
    __trap();
#endif
}

/* m16n8k32 sparse, bf16 inputs, f32 accumulators. */
static __device__ __forceinline__ void gs_mma_sp_bf16(float (&d)[4], const unsigned (&a)[4],
                                                      const unsigned (&b)[4], unsigned e)
{
#if GS_MMA_SM80
    asm volatile("mma.sp::ordered_metadata.sync.aligned.m16n8k32.row.col.f32.bf16.bf16.f32"
                 GS_MMA_SP_F32_OPERANDS);
#else
    (void)d, (void)a, (void)b, (void)e;
    __trap();
#endif
}

/* m16n8k16 sparse (1:2), tf32 inputs, f32 accumulators. */
static __device__ __forceinline__ void gs_mma_sp_tf32(float (&d)[4], const unsigned (&a)[4],
                                                      const unsigned (&b)[4], unsigned e)
{
#if GS_MMA_SM80
    asm volatile("mma.sp::ordered_metadata.sync.aligned.m16n8k16.row.col.f32.tf32.tf32.f32"
                 GS_MMA_SP_F32_OPERANDS);
#else
    (void)d, (void)a, (void)b, (void)e;
    __trap();
#endif
}

/* m16n8k64 sparse, fp8 e4m3 inputs, f32 accumulators (sm_89). */
static __device__ __forceinline__ void gs_mma_sp_e4m3(float (&d)[4], const unsigned (&a)[4],
                                                      const unsigned (&b)[4], unsigned e)
{
#if GS_MMA_SM89
    asm volatile("mma.sp::ordered_metadata.sync.aligned.m16n8k64.row.col.f32.e4m3.e4m3.f32"
                 GS_MMA_SP_F32_OPERANDS);
#else
    (void)d, (void)a, (void)b, (void)e;
    __trap();
#endif
}

/* m16n8k64 sparse, s8 inputs, s32 accumulators. */
static __device__ __forceinline__ void gs_mma_sp_s8(int (&d)[4], const unsigned (&a)[4],
                                                    const unsigned (&b)[4], unsigned e)
{
#if GS_MMA_SM80
    asm volatile("mma.sp::ordered_metadata.sync.aligned.m16n8k64.row.col.s32.s8.s8.s32 "
                 "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9, %10, %11}, {%0, %1, %2, %3}, %12, "
                 "0x0;"
                 : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(b[2]),
                   "r"(b[3]), "r"(e));
#else
    (void)d, (void)a, (void)b, (void)e;
    __trap();
#endif
}

#endif
