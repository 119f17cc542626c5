// Session 19: does a DRAM copy's bandwidth depend on where its source and destination lie?
// One 4 GB pool; 800 MB copies of 8-B elements (grid-stride, 4 blocks of 256 per SM x SMs) from
// the pool's start to destinations at 1 GB + k x 2 MB (k 0..7) and at 1 GB + 64 MB x k; each
// the median of 10 timed launches (events). Argument: a label.
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <algorithm>
#define RT(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { fprintf(stderr, "%s:%d %s: %s\n", \
    __FILE__, __LINE__, #x, cudaGetErrorString(e_)); exit(1); } } while (0)
__global__ void copy8(const unsigned long long *__restrict__ a, unsigned long long *__restrict__ b, size_t n)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) b[i] = a[i];
}
static int sms;
static double gbps(char *src, char *dst, size_t bytes)
{
    size_t n = bytes / 8;
    cudaEvent_t e0, e1; RT(cudaEventCreate(&e0)); RT(cudaEventCreate(&e1));
    float t[10];
    copy8<<<sms * 8, 256>>>((const unsigned long long *)src, (unsigned long long *)dst, n);
    RT(cudaGetLastError());
    for (int r = 0; r < 10; r++) {
        RT(cudaEventRecord(e0));
        copy8<<<sms * 8, 256>>>((const unsigned long long *)src, (unsigned long long *)dst, n);
        RT(cudaEventRecord(e1)); RT(cudaEventSynchronize(e1)); RT(cudaGetLastError());
        RT(cudaEventElapsedTime(&t[r], e0, e1));
    }
    std::sort(t, t + 10);
    RT(cudaEventDestroy(e0)); RT(cudaEventDestroy(e1));
    return 2.0 * bytes / (t[5] * 1e-3) * 1e-9;
}
int main(int argc, char **argv)
{
    RT(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    const size_t MB = 1 << 20, bytes = 800 * MB;
    char *pool; RT(cudaMalloc(&pool, 4096 * MB));
    RT(cudaMemset(pool, 1, 4096 * MB));
    printf("%s 2MB-steps:", argc > 1 ? argv[1] : "");
    for (int k = 0; k < 8; k++) printf(" %.0f", gbps(pool, pool + 1024 * MB + k * 2 * MB, bytes));
    printf("  64MB-steps:");
    for (int k = 0; k < 8; k++) printf(" %.0f", gbps(pool, pool + 1024 * MB + k * 64 * MB, bytes));
    printf("  src+32MB:");
    for (int k = 0; k < 4; k++) printf(" %.0f", gbps(pool + 32 * MB * (k + 1), pool + 2048 * MB, bytes));
    printf("\n");
    return 0;
}
