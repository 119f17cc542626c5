// Session 19: what moves the end of the L2's near part between processes?
// Average-mode random walks (one 8-B element per 128-B line, a random cycle, ld.global.cg, one
// thread on SM 0; one warm pass, then one timed pass: cycles / accesses) over footprints of 16 to
// 32 MB, on several buffers of one process whose physical pages differ (spacer allocations
// between them), on the first buffer again at the end, after a large write stream, and with
// another order on the same lines. The "end": the largest footprint whose average stays within
// 1 % of the near plateau (the mean of the points up to 18 MB).
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <algorithm>
#include <vector>
#define RT(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { fprintf(stderr, "%s:%d %s: %s\n", \
    __FILE__, __LINE__, #x, cudaGetErrorString(e_)); exit(1); } } while (0)
static const uint64_t LINE = 128, MB = 1 << 20, MAXF = 32 * MB, NMAX = MAXF / LINE;
__global__ void walk(const char *base, uint64_t start, uint64_t n, uint64_t *out, unsigned *claim)
{
    __shared__ int go;
    if (threadIdx.x == 0) { unsigned sm; asm volatile("mov.u32 %0, %%smid;" : "=r"(sm)); go = sm == 0 && atomicAdd(claim, 1u) == 0; }
    __syncthreads();
    if (!go || threadIdx.x) return;
    uint64_t cur = start;
    for (uint64_t i = 0; i < n; i++) cur = __ldcg((const unsigned long long *)(base + cur));
    long long t0 = clock64();
    for (uint64_t i = 0; i < n; i++) cur = __ldcg((const unsigned long long *)(base + cur));
    long long t1 = clock64();
    out[0] = (uint64_t)(t1 - t0);
    out[1] = cur;
}
__global__ void scatter(char *base, const uint64_t *off, const uint64_t *val, uint64_t n)
{ uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; if (i < n) *(uint64_t *)(base + off[i]) = val[i]; }
static uint64_t *doff, *dval, *dout; static unsigned *claim; static int sms;
static double avg(char *base, uint64_t footprint, unsigned seed)
{
    uint64_t n = footprint / LINE;
    std::vector<uint64_t> order(n), off(n), val(n);
    for (uint64_t i = 0; i < n; i++) order[i] = i;
    srand(seed);
    for (uint64_t i = n - 1; i > 0; i--) std::swap(order[i], order[(uint64_t)rand() % i]);
    for (uint64_t i = 0; i < n; i++) { off[i] = order[i] * LINE; val[i] = order[(i + 1) % n] * LINE; }
    RT(cudaMemcpy(doff, off.data(), n * 8, cudaMemcpyHostToDevice));
    RT(cudaMemcpy(dval, val.data(), n * 8, cudaMemcpyHostToDevice));
    scatter<<<(unsigned)((n + 255) / 256), 256>>>(base, doff, dval, n);
    RT(cudaGetLastError());
    RT(cudaMemset(claim, 0, 4));
    walk<<<2 * sms, 32>>>(base, off[0], n, dout, claim);
    RT(cudaGetLastError()); RT(cudaDeviceSynchronize());
    uint64_t o[2]; RT(cudaMemcpy(o, dout, 16, cudaMemcpyDeviceToHost));
    return (double)o[0] / n;
}
static void curve(const char *name, char *base, unsigned seed)
{
    double x[64], y[64]; int k = 0;
    for (uint64_t f = (getenv("F0") ? atoi(getenv("F0")) : 16) * MB; f <= MAXF; f += MB / 2, k++) { x[k] = f / (double)MB; y[k] = avg(base, f, seed); }
    double near = 0; int m = 0;
    for (int i = 0; i < k; i++) if (x[i] <= 18) { near += y[i]; m++; }
    near /= m;
    double end = 0;
    for (int i = 0; i < k; i++) if (y[i] <= near * 1.01) end = x[i];
    printf("%-10s near %.1f end %.1f MB:", name, near, end);
    for (int i = 0; i < k; i++) printf(" %.0f", y[i]);
    printf("\n");
    fflush(stdout);
}
int main(int argc, char **argv)
{
    unsigned seed = argc > 1 ? atoi(argv[1]) : 1;
    RT(cudaSetDevice(0));
    RT(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    RT(cudaMalloc(&doff, NMAX * 8)); RT(cudaMalloc(&dval, NMAX * 8));
    RT(cudaMalloc(&dout, 16)); RT(cudaMalloc(&claim, 4));
    if (argc > 2) {   // placements inside one 2 GB allocation
        char *big; RT(cudaMalloc(&big, 2048 * MB));
        static const unsigned at[] = {0, 40, 80, 120, 160, 320, 640, 1280, 2010};
        printf("seed %u, one allocation\n", seed);
        char nm[32];
        for (unsigned i = 0; i < sizeof at / sizeof *at; i++) {
            snprintf(nm, sizeof nm, "at%uMB", at[i]);
            curve(nm, big + (uint64_t)at[i] * MB, seed);
        }
        return 0;
    }
    char *buf[4]; char *spacer[4];
    for (int b = 0; b < 4; b++) {
        RT(cudaMalloc(&buf[b], MAXF));
        RT(cudaMalloc(&spacer[b], (uint64_t)(b + 1) * 4096 * MB));   // 4, 8, 12, 16 GB between them
    }
    printf("seed %u\n", seed);
    char name[32];
    for (int b = 0; b < 4; b++) { snprintf(name, sizeof name, "buf%d", b); curve(name, buf[b], seed); }
    curve("buf0-again", buf[0], seed);
    curve("buf0-seed+", buf[0], seed + 100);
    RT(cudaMemset(spacer[3], 1, 4096 * MB));   // a 4 GB write stream
    RT(cudaDeviceSynchronize());
    curve("buf0-aftW", buf[0], seed);
    return 0;
}
