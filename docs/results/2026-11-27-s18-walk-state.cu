// Session 18, calls 3-4, 7 and 12 (docs/results/2026-11-27-h100-s18.md): which write stream sets the
// page walk's slow state. One 1 TB reservation aliased onto 64 MB as in -walk-reservations.cu;
// each argument is a step, after which the chain is chased (median printed): M a fresh 100 MB
// buffer cudaMalloc'd, cudaMemset, freed; Mk the same written by a kernel; Mn allocated and
// freed unwritten; Mh written and held to the next step; S1/S3 a 200 MB buffer allocated before
// the chain, read-modify-written once or three times; R3 read three times; W3 stored three times;
// Mr/G that buffer by cudaMemset; B1..B8 cudaMemset of one of eight 100 MB buffers allocated
// right after the chain; K1..K8 the same by a kernel; V a 200 MB buffer of the VMM API; - none.
// C (call 12): a read kernel (two 1024-thread blocks an SM, eight timed launches) over 8 .. 96 MB
// of a 96 MB buffer allocated first, GB/s per footprint (calls 3-4 and 7 ran this program
// without C and the 96 MB buffer).
// Build: nvcc -O2 -gencode arch=compute_90,code=sm_90 -o s18d THIS.cu -lcuda.
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
static std::vector<uint64_t> g_off(2 * N), g_val(2 * N);
static size_t FLB = 200ull << 20;
static const uint64_t SHIFT_A = 4096;
static void prepare(CUdeviceptr va)
{
    std::vector<uint64_t> order(N);
    for (size_t i = 0; i < N; i++) order[i] = i;
    srand(7);
    for (size_t i = N - 1; i > 0; i--) std::swap(order[i], order[rand() % i]);
    for (size_t i = 0; i < N; i++) {
        uint64_t r = order[i], nx = order[(i + 1) % N];
        g_off[i] = r * SPACING + r * UNIT;                 /* chain B: measured */
        g_val[i] = nx * SPACING + nx * UNIT;
        g_off[N + i] = g_off[i] + SHIFT_A;                 /* chain A: warms the walks only */
        g_val[N + i] = g_val[i] + SHIFT_A;
    }
    RT(cudaMemcpy(g_doff, g_off.data(), 2 * N * 8, cudaMemcpyHostToDevice));
    RT(cudaMemcpy(g_dval, g_val.data(), 2 * N * 8, cudaMemcpyHostToDevice));
    scatter<<<(2 * N + 255) / 256, 256>>>((char *)va, g_doff, g_dval, 2 * N);
    RT(cudaGetLastError()); RT(cudaDeviceSynchronize());
}
static double chase_once(CUdeviceptr va, uint64_t start, double *p10, double *p90)
{
    chase<<<1, 1>>>((const uint64_t *)va, start, N, g_dlat, g_sink, -1, nullptr);
    RT(cudaGetLastError()); RT(cudaDeviceSynchronize());
    std::vector<uint32_t> lat(N);
    RT(cudaMemcpy(lat.data(), g_dlat, N * 4, cudaMemcpyDeviceToHost));
    std::sort(lat.begin(), lat.end());
    *p10 = lat[N / 10]; *p90 = lat[N * 9 / 10];
    return lat[N / 2];
}
static void memset100(void)
{
    char *f2; RT(cudaMalloc(&f2, 100ull << 20)); RT(cudaMemset(f2, 0x5a, 100ull << 20));
    RT(cudaDeviceSynchronize()); RT(cudaFree(f2));
}
static void kflush3(void)
{
    for (int i = 0; i < 3; i++) flush<<<1024, 256>>>(g_fl, FLB);
    RT(cudaGetLastError()); RT(cudaDeviceSynchronize());
}

__global__ void rd(const char *p, size_t n, char *sink) {
    unsigned s = 0;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n / 4; i += (size_t)gridDim.x * blockDim.x) s += ((const unsigned *)p)[i];
    if (s == 0x12345678u) *sink = 1;
}
__global__ void wr(char *p, size_t n) {
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n / 4; i += (size_t)gridDim.x * blockDim.x) ((unsigned *)p)[i] = (unsigned)i;
}
static char *g_hold; static char *g_buf[8]; static CUdeviceptr g_vmm; static size_t VMMB = 200ull << 20;
static void step(const char *t)
{
    if (g_hold) { RT(cudaFree(g_hold)); g_hold = NULL; }
    if (!strcmp(t, "M")) memset100();
    else if (!strcmp(t, "S1")) { flush<<<1024, 256>>>(g_fl, FLB); }
    else if (!strcmp(t, "S3")) kflush3();
    else if (!strcmp(t, "R3")) { for (int i = 0; i < 3; i++) rd<<<1024, 256>>>(g_fl, FLB, (char *)g_sink); }
    else if (!strcmp(t, "W3")) { for (int i = 0; i < 3; i++) wr<<<1024, 256>>>(g_fl, FLB); }
    else if (!strcmp(t, "Mr")) { RT(cudaMemset(g_fl, 0x5a, FLB)); }
    else if (!strcmp(t, "Mk")) { char *f2; RT(cudaMalloc(&f2, 100ull << 20)); wr<<<1024, 256>>>(f2, 100ull << 20); RT(cudaGetLastError()); RT(cudaDeviceSynchronize()); RT(cudaFree(f2)); }
    else if (!strcmp(t, "Mn")) { char *f2; RT(cudaMalloc(&f2, 100ull << 20)); RT(cudaFree(f2)); }
    else if (!strcmp(t, "Mh")) { RT(cudaMalloc(&g_hold, 100ull << 20)); RT(cudaMemset(g_hold, 0x5a, 100ull << 20)); }
    else if (t[0] == 'B' && t[1] >= '1' && t[1] <= '8') { RT(cudaMemset(g_buf[t[1] - '1'], 0x5a, 100ull << 20)); }
    else if (t[0] == 'K' && t[1] >= '1' && t[1] <= '8') { wr<<<1024, 256>>>(g_buf[t[1] - '1'], 100ull << 20); }
    else if (!strcmp(t, "G")) { RT(cudaMemset(g_fl, 0x5a, FLB)); }
    else if (!strcmp(t, "V")) { RT(cudaMemset((void *)g_vmm, 0x5a, VMMB)); }
    else if (!strcmp(t, "-")) {}
    else { fprintf(stderr, "unknown step %s\n", t); exit(2); }
    RT(cudaGetLastError()); RT(cudaDeviceSynchronize());
}

__global__ void rd4(const uint4 *p, size_t n4, unsigned *sink) {
    unsigned s = 0;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n4; i += (size_t)gridDim.x * blockDim.x) { uint4 v = p[i]; s += v.x ^ v.y ^ v.z ^ v.w; }
    if (s == 0x12345678u) *sink = s;
}
static char *g_big; static size_t BIGB = 96ull << 20;
static void curve(const char *tag)
{
    static const int mb[] = {8, 16, 24, 32, 40, 44, 48, 52, 56, 64, 80, 96};
    int sms = 0; RT(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    cudaEvent_t a, b; RT(cudaEventCreate(&a)); RT(cudaEventCreate(&b));
    printf("  curve %s GB/s:", tag);
    for (size_t k = 0; k < sizeof mb / sizeof mb[0]; k++) {
        size_t bytes = (size_t)mb[k] << 20;
        rd4<<<sms * 2, 1024>>>((const uint4 *)g_big, bytes / 16, (unsigned *)g_sink);
        RT(cudaEventRecord(a));
        for (int r = 0; r < 8; r++) rd4<<<sms * 2, 1024>>>((const uint4 *)g_big, bytes / 16, (unsigned *)g_sink);
        RT(cudaEventRecord(b)); RT(cudaEventSynchronize(b)); RT(cudaGetLastError());
        float ms; RT(cudaEventElapsedTime(&ms, a, b));
        printf(" %d:%.0f", mb[k], 8.0 * bytes / (ms * 1e6));
    }
    printf("\n");
    RT(cudaEventDestroy(a)); RT(cudaEventDestroy(b));
}
int main(int argc, char **argv)
{
    DRV(cuInit(0));
    RT(cudaSetDevice(0)); RT(cudaFree(0));
    CUmemAllocationProp prop = {};
    prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
    prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    prop.location.id = 0;
    DRV(cuMemCreate(&g_h, PHYS, &prop, 0));
    RT(cudaMalloc(&g_doff, 2 * N * 8)); RT(cudaMalloc(&g_dval, 2 * N * 8)); RT(cudaMalloc(&g_dlat, N * 4));
    RT(cudaMalloc(&g_sink, 8)); RT(cudaMalloc(&g_fl, FLB)); RT(cudaMalloc(&g_big, BIGB));
    RT(cudaMemset(g_big, 1, BIGB));
    CUdeviceptr va = reserve_map(0, 0);
    prepare(va);
    for (int k = 0; k < 8; k++) RT(cudaMalloc(&g_buf[k], 100ull << 20));
    {
        CUmemGenericAllocationHandle h2;
        DRV(cuMemCreate(&h2, VMMB, &prop, 0));
        DRV(cuMemAddressReserve(&g_vmm, VMMB, 2ull << 20, 0, 0));
        DRV(cuMemMap(g_vmm, VMMB, 0, h2, 0));
        CUmemAccessDesc acc = {};
        acc.location = prop.location;
        acc.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
        DRV(cuMemSetAccess(g_vmm, VMMB, &acc, 1));
    }
    if (getenv("ADDR")) { for (int k = 0; k < 8; k++) printf(" b%d=%p", k + 1, (void *)g_buf[k]); printf(" fl=%p vmm=0x%llx\n", (void *)g_fl, (unsigned long long)g_vmm); }
    for (int k = 1; k < argc; k++) {
        if (!strcmp(argv[k], "C")) { curve("") ; continue; }
        step(argv[k]);
        double a, b, m = chase_once(va, g_off[0], &a, &b);
        printf(" %s:%.0f\n", argv[k], m);
        fflush(stdout);
    }
    return 0;
}
