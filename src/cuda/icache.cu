/* The CUDA backend's icache operation (plan.h, gs_icache_plan; probe icache): one warp loops over
 * a block of straight-line code of a known size, the P-chase idea applied to code. The blocks
 * are compiled here, one kernel per size of gs_icache_size: INSTR / 8 unrolled rounds of eight
 * integer adds over eight registers (a0 += a1, a1 += a2, ..., a7 += a0), inline PTX that ptxas
 * can neither remove (the sums are stored) nor fold (each add reads a register the previous
 * round changed); a dependency reaches back seven instructions, so the warp can issue one add
 * per cycle when the instructions arrive. Every instruction since sm_70 is 16 bytes, so a block
 * of B bytes is B / 16 adds (plus the loop's counter and branch). Each repetition is timed by
 * clock64 around `loops` passes, after one untimed pass that brings the code as near as it fits. */
#include <stdint.h>
#include <stdlib.h>

#include "cuda/cuda_internal.h"

#define IC_INSTRUCTION_BYTES 16
#define IC_MAX_REPEATS 1024

#define IC_ADD(x, y) asm volatile("add.u32 %0, %0, %1;" : "+r"(x) : "r"(y))

template <int INSTR>
__global__ void __launch_bounds__(32) ic_kernel(unsigned seed, unsigned loops, unsigned repeats,
                                                long long *cycles, unsigned *sink)
{
    unsigned a0 = seed, a1 = seed + 1, a2 = seed + 2, a3 = seed + 3, a4 = seed + 4,
             a5 = seed + 5, a6 = seed + 6, a7 = seed + 7;
    for (int r = -1; r < (int)repeats; r++) {
        long long c0 = clock64();
        for (unsigned l = 0; l < loops; l++) {
#pragma unroll
            for (int i = 0; i < INSTR / 8; i++) {
                IC_ADD(a0, a1);
                IC_ADD(a1, a2);
                IC_ADD(a2, a3);
                IC_ADD(a3, a4);
                IC_ADD(a4, a5);
                IC_ADD(a5, a6);
                IC_ADD(a6, a7);
                IC_ADD(a7, a0);
            }
        }
        long long c1 = clock64();
        if (r >= 0 && threadIdx.x == 0)
            cycles[r] = c1 - c0;
    }
    sink[threadIdx.x] = a0 ^ a1 ^ a2 ^ a3 ^ a4 ^ a5 ^ a6 ^ a7;
}

typedef void (*ic_fn)(unsigned, unsigned, unsigned, long long *, unsigned *);

/* The kernel of a size, in gs_icache_size's order (4 KB .. 256 KB). */
static ic_fn ic_kernel_of(uint64_t bytes)
{
    switch (bytes / 1024) {
    case 4: return ic_kernel<4 * 1024 / IC_INSTRUCTION_BYTES>;
    case 8: return ic_kernel<8 * 1024 / IC_INSTRUCTION_BYTES>;
    case 12: return ic_kernel<12 * 1024 / IC_INSTRUCTION_BYTES>;
    case 16: return ic_kernel<16 * 1024 / IC_INSTRUCTION_BYTES>;
    case 24: return ic_kernel<24 * 1024 / IC_INSTRUCTION_BYTES>;
    case 32: return ic_kernel<32 * 1024 / IC_INSTRUCTION_BYTES>;
    case 48: return ic_kernel<48 * 1024 / IC_INSTRUCTION_BYTES>;
    case 64: return ic_kernel<64 * 1024 / IC_INSTRUCTION_BYTES>;
    case 96: return ic_kernel<96 * 1024 / IC_INSTRUCTION_BYTES>;
    case 128: return ic_kernel<128 * 1024 / IC_INSTRUCTION_BYTES>;
    case 192: return ic_kernel<192 * 1024 / IC_INSTRUCTION_BYTES>;
    case 256: return ic_kernel<256 * 1024 / IC_INSTRUCTION_BYTES>;
    default: return NULL;
    }
}

int gs_cuda_icache(gs_backend *b, const gs_icache_plan *p, gs_icache_result *out, gs_error *err)
{
    gs_cuda *cu = gs_cuda_of(b);
    int rc = 0;
    ic_fn kernel = p->code_bytes % 1024 ? NULL : ic_kernel_of(p->code_bytes);
    long long *cycles = NULL, host[IC_MAX_REPEATS];
    unsigned *sink = NULL;
    double instructions = (double)p->code_bytes / IC_INSTRUCTION_BYTES;
    out->n = 0;
    if (!kernel || p->loops < 1 || p->repeats < 1 || p->repeats > IC_MAX_REPEATS || !out->values)
        return gs_fail(err, GS_ERR_USAGE, "icache plan: code_bytes one of gs_icache_size's, "
                       "loops >= 1, 1..%d repeats and a values array", IC_MAX_REPEATS);
    CUDA_TRY(cudaSetDevice(cu->ordinal));
    CUDA_TRY(cudaMalloc(&cycles, p->repeats * sizeof *cycles));
    CUDA_TRY(cudaMalloc(&sink, 32 * sizeof *sink));
    kernel<<<1, 32>>>(1u, p->loops, p->repeats, cycles, sink);
    CUDA_LAUNCH_CHECK();
    CUDA_TRY(cudaMemcpy(host, cycles, p->repeats * sizeof *cycles, cudaMemcpyDeviceToHost));
    for (unsigned r = 0; r < p->repeats; r++)
        out->values[r] = (double)host[r] / ((double)p->loops * instructions);
    out->n = p->repeats;
fail:
    cudaFree(cycles);
    cudaFree(sink);
    return rc;
}
