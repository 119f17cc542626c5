// session 17 exploration: does the TLB-miss latency mode (870 or 1950 cycles over a 1 TB span
// aliased onto 64 MB) belong to the process, the context or the VA reservation? In one process:
// for each of N contexts (created one after another, then two alive at once), reserve 1 TB of VA,
// map one 64 MB allocation at every 64 MB, chase 8192 regions 128 MB apart in random order
// (region r's element r x 8 KB into its region), one thread, clock64 per access; median.
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
template <bool DELTA>
__global__ void __launch_bounds__(32) gs_like(const char *base, uint64_t start, unsigned n,
                                              uint16_t *trace_out, uint64_t *final_out, int pin,
                                              unsigned *claim, uint64_t mask)
{
    extern __shared__ uint4 dyn_smem[];
    __shared__ uint32_t idx[32];
    __shared__ int go;
    uint16_t *lat = (uint16_t *)dyn_smem;
    if (threadIdx.x == 0) {
        unsigned sm;
        asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
        go = sm == (unsigned)pin && atomicAdd(claim, 1u) == 0;
    }
    __syncthreads();
    if (!go)
        return;
    if (threadIdx.x < 1) {
        uint64_t j = start;
        volatile uint32_t *ip = idx + threadIdx.x;
        for (uint32_t i = 0; i < n; i++) {
            uint32_t t0 = clk();
            if (DELTA)
                j = (j + *(volatile const uint64_t *)(base + j)) & mask;
            else
                j = *(volatile const uint64_t *)(base + j);
            *ip = (uint32_t)j;
            uint32_t t1 = clk(), d = t1 - t0;
            lat[i] = (uint16_t)(d < 65535u ? d : 65535u);
        }
        final_out[0] = j;
    }
    __syncwarp();
    for (uint32_t i = threadIdx.x; i < n; i += blockDim.x)
        trace_out[i] = lat[i];
}

__global__ void scatter(char *base, const uint64_t *off, const uint64_t *val, unsigned n)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) *(uint64_t *)(base + off[i]) = val[i];
}

__global__ void flush(char *p, size_t n) {
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) p[i] ^= 1;
}

struct Span { CUdeviceptr va; CUmemGenericAllocationHandle h; };

static bool g_ep = false, g_memset = false;
template <typename F> static F entry(const char *name)
{
    void *p = nullptr;
    cudaDriverEntryPointQueryResult q = cudaDriverEntryPointSymbolNotFound;
    if (cudaGetDriverEntryPointByVersion(name, &p, 12000, cudaEnableDefault, &q) != cudaSuccess || q != cudaDriverEntryPointSuccess) {
        fprintf(stderr, "no entry point %s\n", name); exit(1);
    }
    return reinterpret_cast<F>(p);
}
static Span map_span(int dev)
{
    Span s;
    CUmemAllocationProp prop = {};
    prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
    prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    prop.location.id = dev;
    auto create = g_ep ? entry<decltype(&cuMemCreate)>("cuMemCreate") : &cuMemCreate;
    auto reserve = g_ep ? entry<decltype(&cuMemAddressReserve)>("cuMemAddressReserve") : &cuMemAddressReserve;
    auto mapf = g_ep ? entry<decltype(&cuMemMap)>("cuMemMap") : &cuMemMap;
    auto access = g_ep ? entry<decltype(&cuMemSetAccess)>("cuMemSetAccess") : &cuMemSetAccess;
    DRV(create(&s.h, PHYS, &prop, 0));
    DRV(reserve(&s.va, SPAN, g_ep ? PHYS : 0, 0, 0));
    for (uint64_t o = 0; o < SPAN; o += PHYS)
        DRV(mapf(s.va + o, PHYS, 0, s.h, 0));
    CUmemAccessDesc acc = {};
    acc.location = prop.location;
    acc.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
    DRV(access(s.va, SPAN, &acc, 1));
    return s;
}

static void unmap_span(Span s)
{
    DRV(cuMemUnmap(s.va, SPAN));
    DRV(cuMemAddressFree(s.va, SPAN));
    DRV(cuMemRelease(s.h));
}

static int g_pin = -1;
static int g_variant = 0;      /* 0: the plain kernel; 1: gpusonar's shape; 2: that with distances */
static double measure(Span s, unsigned seed, double *p10, double *p90)
{
    std::vector<uint64_t> order(N);
    for (size_t i = 0; i < N; i++) order[i] = i;
    srand(seed);
    for (size_t i = N - 1; i > 0; i--) std::swap(order[i], order[rand() % i]);   // Sattolo-ish
    std::vector<uint64_t> off(N), val(N);
    for (size_t i = 0; i < N; i++) {
        uint64_t r = order[i], nx = order[(i + 1) % N];
        off[i] = r * SPACING + r * UNIT;
        val[i] = nx * SPACING + nx * UNIT;
        if (g_variant == 2)
            val[i] = (val[i] - off[i]) & ((2ull << 40) - 1);
    }
    uint64_t *doff, *dval, *sink; uint32_t *dlat; char *fl;
    size_t flb = 200ull << 20;
    RT(cudaMalloc(&doff, N * 8)); RT(cudaMalloc(&dval, N * 8)); RT(cudaMalloc(&dlat, N * 4));
    RT(cudaMalloc(&sink, 8)); RT(cudaMalloc(&fl, flb));
    RT(cudaMemcpy(doff, off.data(), N * 8, cudaMemcpyHostToDevice));
    RT(cudaMemcpy(dval, val.data(), N * 8, cudaMemcpyHostToDevice));
    scatter<<<(N + 255) / 256, 256>>>((char *)s.va, doff, dval, N);
    RT(cudaGetLastError());
    if (g_memset) {
        char *f2;
        RT(cudaMalloc(&f2, 100ull << 20));
        RT(cudaMemset(f2, 0x5a, 100ull << 20));
        RT(cudaDeviceSynchronize());
        RT(cudaFree(f2));
    } else {
        flush<<<1024, 256>>>(fl, flb);
        RT(cudaGetLastError());
    }
    unsigned *claim;
    RT(cudaMalloc(&claim, 4));
    RT(cudaMemset(claim, 0, 4));
    int sms = 0;
    RT(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    std::vector<uint32_t> lat(N);
    if (g_variant == 0) {
        chase<<<g_pin < 0 ? 1 : 2 * sms, 1>>>((const uint64_t *)s.va, off[0], N, dlat, sink, g_pin, claim);
        RT(cudaGetLastError());
        RT(cudaDeviceSynchronize());
        RT(cudaMemcpy(lat.data(), dlat, N * 4, cudaMemcpyDeviceToHost));
    } else {
        int pin = g_pin < 0 ? 0 : g_pin;
        if (g_variant == 1)
            gs_like<false><<<2 * sms, 32, N * 2>>>((const char *)s.va, off[0], N, (uint16_t *)dlat, sink, pin, claim, 0);
        else
            gs_like<true><<<2 * sms, 32, N * 2>>>((const char *)s.va, off[0], N, (uint16_t *)dlat, sink, pin, claim, (2ull << 40) - 1);
        RT(cudaGetLastError());
        RT(cudaDeviceSynchronize());
        std::vector<uint16_t> l16(N);
        RT(cudaMemcpy(l16.data(), dlat, N * 2, cudaMemcpyDeviceToHost));
        for (size_t i = 0; i < N; i++) lat[i] = l16[i];
    }
    std::sort(lat.begin(), lat.end());
    *p10 = lat[N / 10]; *p90 = lat[N * 9 / 10];
    RT(cudaFree(claim));
    RT(cudaFree(doff)); RT(cudaFree(dval)); RT(cudaFree(dlat)); RT(cudaFree(sink)); RT(cudaFree(fl));
    return lat[N / 2];
}

int main(int argc, char **argv)
{
    int contexts = argc > 1 ? atoi(argv[1]) : 4;
    if (argc > 3 && !strcmp(argv[3], "nvml")) {
        void *lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
        int (*init)(void) = lib ? (int (*)(void))dlsym(lib, "nvmlInit_v2") : NULL;
        printf("nvml %d\n", init ? init() : -1);
    }
    DRV(cuInit(0));
    CUdevice dev; DRV(cuDeviceGet(&dev, 0));
    // the primary context first (as gpusonar runs), two reservations in it
    RT(cudaSetDevice(0)); RT(cudaFree(0));
    size_t hold_gb = argc > 2 ? (size_t)atoi(argv[2]) : 0;
    if (hold_gb) {
        char *h;
        RT(cudaMalloc(&h, hold_gb << 30));
        RT(cudaMemset(h, 1, hold_gb << 30));
        RT(cudaDeviceSynchronize());
        printf("holding %zu GB at %p\n", hold_gb, (void *)h);
    }
    g_variant = argc > 4 ? atoi(argv[4]) : 0;
    g_ep = argc > 5 && strchr(argv[5], 'e');
    g_memset = argc > 5 && strchr(argv[5], 'm');
    static const int pins[] = {0, 0};
    Span s0 = map_span(0);
    for (int k = 0; k < (int)(sizeof pins / sizeof pins[0]); k++) {
        g_pin = pins[k];
        double a, b, m = measure(s0, 1 + k, &a, &b);
        printf("pin %4d median %.0f p10 %.0f p90 %.0f\n", g_pin, m, a, b);
    }
    unmap_span(s0);
    g_pin = -1;
    for (int c = 0; c < contexts; c++) {
        CUcontext ctx;
        CUctxCreateParams params = {};
        DRV(cuCtxCreate(&ctx, &params, 0, dev));
        Span s = map_span(0);
        double a, b, m = measure(s, 10 + c, &a, &b);
        printf("context %d va 0x%llx median %.0f p10 %.0f p90 %.0f\n", c, (unsigned long long)s.va, m, a, b);
        unmap_span(s);
        DRV(cuCtxDestroy(ctx));
    }
    return 0;
}
