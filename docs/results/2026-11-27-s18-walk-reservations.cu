// Session 18, call 1 (docs/results/2026-11-27-h100-s18.md): one process maps 1 TB of virtual
// space onto one 64 MB allocation (8192 regions 128 MB apart, region r's element r x 8 KB in),
// chases it in random order (one thread, %clock around each load), then in turn writes a fresh
// 100 MB buffer (cudaMemset), a fresh 16 GB one, or read-modify-writes a 200 MB buffer three
// times, maps another 1 TB reservation 4 TB further up, and chases every reservation after each.
// Build: nvcc -O2 -gencode arch=compute_90,code=sm_90 -o s18pt THIS.cu -lcuda; run: s18pt 5 r.
#include <cuda.h>
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <algorithm>
#include <dlfcn.h>
#include <string.h>
#include <vector>

#define DRV(x) do { CUresult r_ = (x); if (r_ != CUDA_SUCCESS) { const char *s; cuGetErrorString(r_, &s); \
    fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x, s); exit(1); } } while (0)
#define RT(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { fprintf(stderr, "%s:%d %s: %s\n", \
    __FILE__, __LINE__, #x, cudaGetErrorString(e_)); exit(1); } } while (0)

static const size_t N = 8192;
static const uint64_t SPAN = 1ull << 40, PHYS = 64ull << 20, SPACING = SPAN / N, UNIT = PHYS / N;

static __device__ __forceinline__ uint32_t clk(void)
{
    uint32_t t;
    asm volatile("mov.u32 %0, %%clock;" : "=r"(t)::"memory");
    return t;
}

__global__ void chase(const uint64_t *base, uint64_t start, unsigned n, uint32_t *lat, uint64_t *sink,
                      int pin, unsigned *claim)
{
    __shared__ int go;
    if (threadIdx.x == 0) {
        unsigned sm;
        asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
        go = pin < 0 ? blockIdx.x == 0 : (sm == (unsigned)pin && atomicAdd(claim, 1u) == 0);
    }
    __syncthreads();
    if (!go)
        return;
    volatile uint64_t *vs = sink;
    uint64_t cur = start;
    for (unsigned i = 0; i < n; i++) {
        uint32_t t0 = clk();
        cur = *(volatile const uint64_t *)((const char *)base + cur);
        *vs = cur;                   /* waits for the data */
        uint32_t t1 = clk();
        lat[i] = t1 - t0;
    }
}

/* gpusonar's shape: 32-thread blocks, 2 x SMs of them, the one on SM pin walks with lane 0; the
 * trace in dynamic shared memory (2 bytes an access), the loaded cursor stored to a volatile
 * shared word; DELTA: elements hold the distance to the next, modulo mask + 1. */

__global__ void scatter(char *base, const uint64_t *off, const uint64_t *val, unsigned n)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) *(uint64_t *)(base + off[i]) = val[i];
}
__global__ void flush(char *p, size_t n) {
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) p[i] ^= 1;
}
static CUmemGenericAllocationHandle g_h;
static CUdeviceptr reserve_map(int dev, CUdeviceptr hint)
{
    CUdeviceptr va;
    CUmemAllocationProp prop = {};
    prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
    prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    prop.location.id = dev;
    DRV(cuMemAddressReserve(&va, SPAN, PHYS, hint, 0));
    for (uint64_t o = 0; o < SPAN; o += PHYS)
        DRV(cuMemMap(va + o, PHYS, 0, g_h, 0));
    CUmemAccessDesc acc = {};
    acc.location = prop.location;
    acc.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
    DRV(cuMemSetAccess(va, SPAN, &acc, 1));
    return va;
}
static uint64_t *g_doff, *g_dval, *g_sink; static uint32_t *g_dlat; static char *g_fl;
static std::vector<uint64_t> g_off(N), g_val(N);
static size_t FLB = 200ull << 20;
static void prepare(CUdeviceptr va, bool stride)
{
    std::vector<uint64_t> order(N);
    for (size_t i = 0; i < N; i++) order[i] = i;
    srand(7);
    if (!stride) for (size_t i = N - 1; i > 0; i--) std::swap(order[i], order[rand() % i]);
    for (size_t i = 0; i < N; i++) {
        uint64_t r = order[i], nx = order[(i + 1) % N];
        g_off[i] = r * SPACING + r * UNIT;
        g_val[i] = nx * SPACING + nx * UNIT;
    }
    RT(cudaMemcpy(g_doff, g_off.data(), N * 8, cudaMemcpyHostToDevice));
    RT(cudaMemcpy(g_dval, g_val.data(), N * 8, cudaMemcpyHostToDevice));
    scatter<<<(N + 255) / 256, 256>>>((char *)va, g_doff, g_dval, N);
    RT(cudaGetLastError()); RT(cudaDeviceSynchronize());
}
static void chase_once(CUdeviceptr va, double *p10, double *med, double *p90)
{
    flush<<<1024, 256>>>(g_fl, FLB);
    RT(cudaGetLastError());
    chase<<<1, 1>>>((const uint64_t *)va, g_off[0], N, g_dlat, g_sink, -1, nullptr);
    RT(cudaGetLastError()); RT(cudaDeviceSynchronize());
    std::vector<uint32_t> lat(N);
    RT(cudaMemcpy(lat.data(), g_dlat, N * 4, cudaMemcpyDeviceToHost));
    std::sort(lat.begin(), lat.end());
    *p10 = lat[N / 10]; *med = lat[N / 2]; *p90 = lat[N * 9 / 10];
}
static void trigger(int kind)
{
    if (kind == 0) { /* cudaMemset of a fresh 100 MB buffer, freed */
        char *f2; RT(cudaMalloc(&f2, 100ull << 20)); RT(cudaMemset(f2, 0x5a, 100ull << 20));
        RT(cudaDeviceSynchronize()); RT(cudaFree(f2));
    } else if (kind == 1) { /* a 16 GB allocation, memset, freed */
        char *f2; RT(cudaMalloc(&f2, 16ull << 30)); RT(cudaMemset(f2, 0, 16ull << 30));
        RT(cudaDeviceSynchronize()); RT(cudaFree(f2));
    } else { /* kernel flush of 600 MB three times */
        for (int i = 0; i < 3; i++) flush<<<1024, 256>>>(g_fl, FLB);
        RT(cudaGetLastError()); RT(cudaDeviceSynchronize());
    }
}
int main(int argc, char **argv)
{
    int nres = argc > 1 ? atoi(argv[1]) : 5;
    bool stride = argc > 2 && argv[2][0] == 's';
    DRV(cuInit(0));
    RT(cudaSetDevice(0)); RT(cudaFree(0));
    CUmemAllocationProp prop = {};
    prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
    prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    prop.location.id = 0;
    DRV(cuMemCreate(&g_h, PHYS, &prop, 0));
    RT(cudaMalloc(&g_doff, N * 8)); RT(cudaMalloc(&g_dval, N * 8)); RT(cudaMalloc(&g_dlat, N * 4));
    RT(cudaMalloc(&g_sink, 8)); RT(cudaMalloc(&g_fl, FLB));
    std::vector<CUdeviceptr> vas;
    static const char *tn[] = {"memset100M", "memset16G", "kflush"};
    for (int k = 0; k < nres; k++) {
        CUdeviceptr hint = k == 0 ? 0 : (CUdeviceptr)(0x100000000000ull + (uint64_t)k * (4ull << 40));
        CUdeviceptr va = reserve_map(0, hint);
        vas.push_back(va);
        if (k == 0) prepare(va, stride);
        printf("step %d: mapped R%d at 0x%llx\n", k, k, (unsigned long long)va);
        for (size_t j = 0; j < vas.size(); j++) {
            double a, m, b; chase_once(vas[j], &a, &m, &b);
            printf("  R%zu p10 %5.0f med %5.0f p90 %5.0f\n", j, a, m, b);
        }
        int kind = k % 3;
        trigger(kind);
        printf("  trigger %s\n", tn[kind]);
        for (size_t j = 0; j < vas.size(); j++) {
            double a, m, b; chase_once(vas[j], &a, &m, &b);
            printf("  R%zu p10 %5.0f med %5.0f p90 %5.0f\n", j, a, m, b);
        }
        fflush(stdout);
    }
    return 0;
}
