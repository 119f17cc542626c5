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
#include <vector>

#define DRV(x) do { CUresult r_ = (x); if (r_ != CUDA_SUCCESS) { const char *s; cuGetErrorString(r_, &s); \
    fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x, s); exit(1); } } while (0)
#define RT(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { fprintf(stderr, "%s:%d %s: %s\n", \
    __FILE__, __LINE__, #x, cudaGetErrorString(e_)); exit(1); } } while (0)

static const size_t N = 8192;
static const uint64_t SPAN = 1ull << 40, PHYS = 64ull << 20, SPACING = SPAN / N, UNIT = PHYS / N;

__global__ void chase(const uint64_t *base, uint64_t start, unsigned n, uint32_t *lat, uint64_t *sink)
{
    __shared__ uint64_t s_next[1];
    uint64_t cur = start;
    for (unsigned i = 0; i < n; i++) {
        long long t0 = clock64();
        uint64_t next = *(volatile const uint64_t *)((const char *)base + cur);
        s_next[0] = next;            /* waits for the data */
        long long t1 = clock64();
        lat[i] = (uint32_t)(t1 - t0);
        cur = s_next[0];
    }
    *sink = cur;
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

static Span map_span(int dev)
{
    Span s;
    CUmemAllocationProp prop = {};
    prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
    prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    prop.location.id = dev;
    DRV(cuMemCreate(&s.h, PHYS, &prop, 0));
    DRV(cuMemAddressReserve(&s.va, SPAN, 0, 0, 0));
    for (uint64_t o = 0; o < SPAN; o += PHYS)
        DRV(cuMemMap(s.va + o, PHYS, 0, s.h, 0));
    CUmemAccessDesc acc = {};
    acc.location = prop.location;
    acc.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
    DRV(cuMemSetAccess(s.va, SPAN, &acc, 1));
    return s;
}

static void unmap_span(Span s)
{
    DRV(cuMemUnmap(s.va, SPAN));
    DRV(cuMemAddressFree(s.va, SPAN));
    DRV(cuMemRelease(s.h));
}

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
    }
    uint64_t *doff, *dval, *sink; uint32_t *dlat; char *fl;
    size_t flb = 200ull << 20;
    RT(cudaMalloc(&doff, N * 8)); RT(cudaMalloc(&dval, N * 8)); RT(cudaMalloc(&dlat, N * 4));
    RT(cudaMalloc(&sink, 8)); RT(cudaMalloc(&fl, flb));
    RT(cudaMemcpy(doff, off.data(), N * 8, cudaMemcpyHostToDevice));
    RT(cudaMemcpy(dval, val.data(), N * 8, cudaMemcpyHostToDevice));
    scatter<<<(N + 255) / 256, 256>>>((char *)s.va, doff, dval, N);
    RT(cudaGetLastError());
    flush<<<1024, 256>>>(fl, flb);
    RT(cudaGetLastError());
    chase<<<1, 1>>>((const uint64_t *)s.va, off[0], N, dlat, sink);
    RT(cudaGetLastError());
    RT(cudaDeviceSynchronize());
    std::vector<uint32_t> lat(N);
    RT(cudaMemcpy(lat.data(), dlat, N * 4, cudaMemcpyDeviceToHost));
    std::sort(lat.begin(), lat.end());
    *p10 = lat[N / 10]; *p90 = lat[N * 9 / 10];
    RT(cudaFree(doff)); RT(cudaFree(dval)); RT(cudaFree(dlat)); RT(cudaFree(sink)); RT(cudaFree(fl));
    return lat[N / 2];
}

int main(int argc, char **argv)
{
    int contexts = argc > 1 ? atoi(argv[1]) : 4;
    DRV(cuInit(0));
    CUdevice dev; DRV(cuDeviceGet(&dev, 0));
    // the primary context first (as gpusonar runs), two reservations in it
    RT(cudaSetDevice(0)); RT(cudaFree(0));
    for (int k = 0; k < 2; k++) {
        Span s = map_span(0);
        double a, b, m = measure(s, 1 + k, &a, &b);
        printf("primary  span %d va 0x%llx median %.0f p10 %.0f p90 %.0f\n", k, (unsigned long long)s.va, m, a, b);
        unmap_span(s);
    }
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
