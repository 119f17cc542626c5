/* The clock operation: what one clock64() and one %globaltimer read cost, the globaltimer's step,
 * and SM cycles against globaltimer nanoseconds over windows (the SM clock). One thread of one
 * block spins; nothing else runs in the timed region. */
#include <stdlib.h>
#include <time.h>

#include "cuda/cuda_internal.h"

static __device__ __forceinline__ unsigned long long globaltimer_ns(void)
{
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

/* out layout: [0, n) clock64 pair spans; [n, 2n) clock64-globaltimer-clock64 spans;
 * [2n, 3n) globaltimer steps. */
__global__ void clock_read_costs(unsigned long long *out, int n)
{
    for (int i = 0; i < n; i++) {
        long long a = clock64();
        long long b = clock64();
        out[i] = (unsigned long long)(b - a);
    }
    for (int i = 0; i < n; i++) {
        long long c = clock64();
        unsigned long long g = globaltimer_ns();
        long long d = clock64();
        out[n + i] = (unsigned long long)(d - c);
        out[3 * n] ^= g; /* keeps the read; the slot is scratch */
    }
    for (int i = 0; i < n; i++) {
        unsigned long long g0 = globaltimer_ns(), g1;
        do {
            g1 = globaltimer_ns();
        } while (g1 == g0);
        out[2 * n + i] = g1 - g0;
    }
}

/* Windows of window_ns each, after one unrecorded warm-up window. */
__global__ void clock_windows(unsigned long long *cycles, unsigned long long *ns, int windows,
                              unsigned long long window_ns)
{
    for (int w = -1; w < windows; w++) {
        unsigned long long g0 = globaltimer_ns(), g1;
        long long c0 = clock64();
        do {
            g1 = globaltimer_ns();
        } while (g1 - g0 < window_ns);
        long long c1 = clock64();
        if (w >= 0) {
            cycles[w] = (unsigned long long)(c1 - c0);
            ns[w] = g1 - g0;
        }
    }
}

static int cmp_u64(const void *a, const void *b)
{
    unsigned long long x = *(const unsigned long long *)a, y = *(const unsigned long long *)b;
    return (x > y) - (x < y);
}

static double median_u64(unsigned long long *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_u64);
    return n % 2 ? (double)v[n / 2] : 0.5 * ((double)v[n / 2 - 1] + (double)v[n / 2]);
}

static void sleep_ns(unsigned long long ns)
{
    struct timespec ts = {(time_t)(ns / 1000000000ull), (long)(ns % 1000000000ull)};
    nanosleep(&ts, NULL);
}

int gs_cuda_clock(gs_backend *b, const gs_clock_plan *plan, gs_clock_result *out, gs_error *err)
{
    int rc = 0;
    int n = plan->read_samples > 0 ? (int)plan->read_samples : 64;
    int windows = plan->windows > 0 ? (int)plan->windows : 1;
    unsigned long long *d_costs = NULL, *d_cycles = NULL, *d_ns = NULL;
    unsigned long long *costs = (unsigned long long *)calloc((size_t)(3 * n + 1), sizeof *costs);
    char bus[32] = "";
    if (!costs)
        return gs_fail(err, GS_ERR_NO_MEMORY, "out of host memory for the clock plan");
    CUDA_TRY(cudaSetDevice(gs_cuda_of(b)->ordinal));
    CUDA_TRY(cudaDeviceGetPCIBusId(bus, (int)sizeof bus, gs_cuda_of(b)->ordinal));
    CUDA_TRY(cudaMalloc(&d_costs, (size_t)(3 * n + 1) * sizeof *d_costs));
    CUDA_TRY(cudaMemset(d_costs, 0, (size_t)(3 * n + 1) * sizeof *d_costs));
    CUDA_TRY(cudaMalloc(&d_cycles, (size_t)windows * sizeof *d_cycles));
    CUDA_TRY(cudaMalloc(&d_ns, (size_t)windows * sizeof *d_ns));
    clock_read_costs<<<1, 1>>>(d_costs, n);
    CUDA_LAUNCH_CHECK();
    CUDA_TRY(cudaMemcpy(costs, d_costs, (size_t)(3 * n) * sizeof *costs, cudaMemcpyDeviceToHost));
    out->clock64_read_cycles = median_u64(costs, n);
    out->globaltimer_read_cycles = median_u64(costs + n, n) - out->clock64_read_cycles;
    qsort(costs + 2 * n, (size_t)n, sizeof *costs, cmp_u64);
    out->globaltimer_resolution_ns = (double)costs[2 * n];

    clock_windows<<<1, 1>>>(d_cycles, d_ns, windows, (unsigned long long)plan->window_ns);
    CUDA_TRY(cudaGetLastError());
    /* Read the driver's clock while the kernel spins (halfway through the windows). */
    sleep_ns(plan->window_ns * (unsigned long long)(windows + 2) / 2);
    out->driver_sm_clock_khz = gs_cuda_driver_sm_clock_khz(bus);
    CUDA_TRY(cudaDeviceSynchronize());
    CUDA_TRY(cudaMemcpy(out->window_cycles, d_cycles, (size_t)windows * sizeof *d_cycles,
                        cudaMemcpyDeviceToHost));
    CUDA_TRY(cudaMemcpy(out->window_ns, d_ns, (size_t)windows * sizeof *d_ns,
                        cudaMemcpyDeviceToHost));
fail:
    cudaFree(d_costs);
    cudaFree(d_cycles);
    cudaFree(d_ns);
    free(costs);
    return rc;
}
