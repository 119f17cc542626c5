// Exploration (session 16): does the L2 read bandwidth of a footprint that fits the L2 depend on
// where its pages lie? One block per SM, each reading the whole footprint (as gpusonar's blocks
// sweep), float4 loads, at windows of a 4 GB buffer 64 MB apart, then from fresh allocations.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    fprintf(stderr, "%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)

__global__ void rd(const float4 *__restrict__ p, size_t n, int passes, float *out)
{
    float acc = 0;
    for (int k = 0; k < passes; k++)
        for (size_t i = threadIdx.x; i < n; i += blockDim.x * 4) {
            float4 a = p[i];
            float4 b = i + blockDim.x < n ? p[i + blockDim.x] : a;
            float4 c = i + 2 * blockDim.x < n ? p[i + 2 * blockDim.x] : a;
            float4 d = i + 3 * blockDim.x < n ? p[i + 3 * blockDim.x] : a;
            acc += a.x + b.y + c.z + d.w;
        }
    if (acc == 12345.f)
        *out = acc;
}

static double tbps(const float4 *p, size_t bytes, int sms, float *out)
{
    size_t n = bytes / 16;
    int passes = (int)(8e9 / (bytes * (double)sms)) + 1;
    cudaEvent_t a, b;
    CK(cudaEventCreate(&a)); CK(cudaEventCreate(&b));
    rd<<<sms, 512>>>(p, n, 1, out);
    std::vector<double> r;
    for (int rep = 0; rep < 5; rep++) {
        CK(cudaEventRecord(a));
        rd<<<sms, 512>>>(p, n, passes, out);
        CK(cudaEventRecord(b));
        CK(cudaEventSynchronize(b));
        CK(cudaGetLastError());
        float ms;
        CK(cudaEventElapsedTime(&ms, a, b));
        r.push_back((double)bytes * sms * passes / (ms * 1e-3) / 1e12);
    }
    CK(cudaEventDestroy(a)); CK(cudaEventDestroy(b));
    std::sort(r.begin(), r.end());
    return r[2];
}

int main()
{
    int sms;
    CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    float *out;
    CK(cudaMalloc(&out, 4));
    size_t fps[] = {1 << 20, 2 << 20, 4 << 20};
    for (int round = 0; round < 2; round++) {
        for (size_t f : fps) {
            void *p;
            CK(cudaMalloc(&p, f));
            CK(cudaMemset(p, 0, f));
            printf("round %d fp %5zu KB: own allocation %.2f", round, f >> 10,
                   tbps((const float4 *)p, f, sms, out));
            CK(cudaFree(p));
            char *buf;
            CK(cudaMalloc(&buf, 1ull << 30));
            CK(cudaMemset(buf, 0, 1ull << 30));
            printf("  start of 1 GB %.2f", tbps((const float4 *)buf, f, sms, out));
            printf("  1 GB + 512 MB %.2f", tbps((const float4 *)(buf + (512u << 20)), f, sms, out));
            CK(cudaMalloc(&p, f));
            CK(cudaMemset(p, 0, f));
            printf("  own, 1 GB held %.2f", tbps((const float4 *)p, f, sms, out));
            CK(cudaFree(p));
            CK(cudaFree(buf));
            CK(cudaMalloc(&p, f));
            CK(cudaMemset(p, 0, f));
            printf("  own, 1 GB freed %.2f\n", tbps((const float4 *)p, f, sms, out));
            CK(cudaFree(p));
        }
    }
    return 0;
}
