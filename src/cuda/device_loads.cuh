/* Device helpers shared by the kernels that time single global loads (src/cuda/ only): the SM
 * clock and globaltimer reads, and ld.global with each cache operator as inline PTX, so that a
 * kernel's timed region holds exactly the load it asks for (chase_kernels.cu, write.cu). */
#ifndef GS_CUDA_DEVICE_LOADS_CUH
#define GS_CUDA_DEVICE_LOADS_CUH

#include <stdint.h>

#include "plan.h"

static __device__ __forceinline__ uint32_t clock32(void)
{
    uint32_t t;
    asm volatile("mov.u32 %0, %%clock;" : "=r"(t)::"memory");
    return t;
}

static __device__ __forceinline__ long long clock64_read(void)
{
    long long t;
    asm volatile("mov.u64 %0, %%clock64;" : "=l"(t)::"memory");
    return t;
}

static __device__ __forceinline__ unsigned long long globaltimer_read(void)
{
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t)::"memory");
    return t;
}

/* ld.global, plain (the compiler's default caching) or with an explicit cache operator; 4 and 8
 * bytes. Plain C++ would not do for the default path: a cursor that is an integer gives a generic
 * pointer, which compiles to a generic LD, not LDG. */
#define GS_DEFINE_LD(name, op)                                                                    \
    static __device__ __forceinline__ uint32_t name(const uint32_t *p)                            \
    {                                                                                             \
        uint32_t v;                                                                               \
        asm volatile(op ".u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");                          \
        return v;                                                                                 \
    }                                                                                             \
    static __device__ __forceinline__ uint64_t name(const uint64_t *p)                            \
    {                                                                                             \
        uint64_t v;                                                                               \
        asm volatile(op ".u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");                          \
        return v;                                                                                 \
    }
GS_DEFINE_LD(ld_plain, "ld.global")
GS_DEFINE_LD(ld_ca, "ld.global.ca")
GS_DEFINE_LD(ld_cg, "ld.global.cg")
GS_DEFINE_LD(ld_cv, "ld.global.cv")
GS_DEFINE_LD(ld_nc, "ld.global.nc")


/* A global load through path P (plain, ca, cg, cv, nc). */
template <typename T, int P> static __device__ __forceinline__ T load_global(const T *p)
{
    if constexpr (P == GS_PATH_DEFAULT)
        return ld_plain(p);
    else if constexpr (P == GS_PATH_CA)
        return ld_ca(p);
    else if constexpr (P == GS_PATH_CG)
        return ld_cg(p);
    else if constexpr (P == GS_PATH_CV)
        return ld_cv(p);
    else
        return ld_nc(p);
}

#endif
