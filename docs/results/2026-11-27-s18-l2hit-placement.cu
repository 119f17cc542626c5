// Session 18, calls 14 and 16 (docs/results/2026-11-27-h100-s18.md): does an L2 hit's latency (from SM 0) depend on which physical pages the
// lines lie on? One 1 GB buffer; 16 placements 64 MB apart; at each, 4096 lines 2 KB apart in a
// random cycle (8 MB; argument 2 the gap, 128 B in call 16 too: 512 KB side by side), one warm
// pass, then every access timed with %clock; mean and median.
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <algorithm>
#include <vector>
#define RT(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { fprintf(stderr, "%s:%d %s: %s\n", \
    __FILE__, __LINE__, #x, cudaGetErrorString(e_)); exit(1); } } while (0)
static const unsigned N = 4096;
static uint64_t GAP = 2048;
__device__ __forceinline__ uint32_t clk(void) { uint32_t t; asm volatile("mov.u32 %0, %%clock;" : "=r"(t)::"memory"); return t; }
__global__ void chase(const char *base, uint64_t start, unsigned n, uint32_t *lat, uint64_t *sink, unsigned *claim)
{
    __shared__ int go;
    if (threadIdx.x == 0) { unsigned sm; asm volatile("mov.u32 %0, %%smid;" : "=r"(sm)); go = sm == 0 && atomicAdd(claim, 1u) == 0; }
    __syncthreads();
    if (!go) return;
    volatile uint64_t *vs = sink;
    uint64_t cur = start;
    for (unsigned i = 0; i < n; i++) cur = __ldcg((const unsigned long long *)(base + cur));   // warm pass
    *vs = cur;
    for (unsigned i = 0; i < n; i++) {
        uint32_t t0 = clk();
        cur = __ldcg((const unsigned long long *)(base + cur));
        *vs = cur;
        uint32_t t1 = clk();
        lat[i] = t1 - t0;
    }
}
__global__ void scatter(char *base, const uint64_t *off, const uint64_t *val, unsigned n)
{ unsigned i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) *(uint64_t *)(base + off[i]) = val[i]; }
int main(int argc, char **argv)
{
    unsigned seed = argc > 1 ? atoi(argv[1]) : 1;
    if (argc > 2) GAP = strtoull(argv[2], 0, 0);
    RT(cudaSetDevice(0));
    char *buf; RT(cudaMalloc(&buf, 1ull << 30));
    uint64_t *doff, *dval, *sink; uint32_t *dlat; unsigned *claim;
    RT(cudaMalloc(&doff, N * 8)); RT(cudaMalloc(&dval, N * 8)); RT(cudaMalloc(&dlat, N * 4));
    RT(cudaMalloc(&sink, 8)); RT(cudaMalloc(&claim, 4));
    int sms; RT(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    std::vector<uint64_t> order(N), off(N), val(N);
    for (unsigned i = 0; i < N; i++) order[i] = i;
    srand(seed);
    for (unsigned i = N - 1; i > 0; i--) std::swap(order[i], order[rand() % i]);
    for (unsigned i = 0; i < N; i++) { off[i] = order[i] * GAP; val[i] = order[(i + 1) % N] * GAP; }
    RT(cudaMemcpy(doff, off.data(), N * 8, cudaMemcpyHostToDevice));
    RT(cudaMemcpy(dval, val.data(), N * 8, cudaMemcpyHostToDevice));
    printf("seed %u gap %llu:", seed, (unsigned long long)GAP);
    for (int p = 0; p < 16; p++) {
        char *base = buf + (uint64_t)p * (64ull << 20);
        scatter<<<(N + 255) / 256, 256>>>(base, doff, dval, N);
        RT(cudaMemset(claim, 0, 4));
        chase<<<2 * sms, 32>>>(base, off[0], N, dlat, sink, claim);
        RT(cudaGetLastError()); RT(cudaDeviceSynchronize());
        std::vector<uint32_t> lat(N);
        RT(cudaMemcpy(lat.data(), dlat, N * 4, cudaMemcpyDeviceToHost));
        double mean = 0; for (unsigned i = 0; i < N; i++) mean += lat[i] / (double)N;
        std::sort(lat.begin(), lat.end());
        printf(" %.1f/%u", mean, lat[N / 2]);
    }
    printf("\n");
    return 0;
}
