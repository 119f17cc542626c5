// Session 11 exploration: the L1 capacity boundary per SM and per launch, for three load paths.
// Every block (one per SM) chases the same stride-128 chain of N lines with one thread, 2 warm
// passes, then PASSES timed passes recorded in shared memory; misses = latencies above THR in
// passes after the first timed one. Prints per N the count of SMs with 0 misses and the misses of
// the others; then per SM the largest N with 0 misses. Build: nvcc -O3 -arch=sm_90 l1cap.cu
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <cuda_runtime.h>
#define PASSES 8
#define THR 150
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("%s: %s\n", #x, cudaGetErrorString(e_)); exit(1); } } while (0)

template <int P> __device__ __forceinline__ unsigned ld(const unsigned *p, cudaTextureObject_t t, unsigned j)
{
    if (P == 0) return __ldca(p + j);
    if (P == 1) return __ldg(p + j);
    return (unsigned)tex1Dfetch<int>(t, (int)j);
}

template <int P> __global__ void chase(const unsigned *p, cudaTextureObject_t t, unsigned n, unsigned *miss, unsigned *smid, unsigned *sinkp)
{
    extern __shared__ unsigned short lat[];
    if (threadIdx.x) return;
    unsigned j = 0;
    for (unsigned k = 0; k < 2 * n; k++) j = ld<P>(p, t, j);
    volatile unsigned short *v = lat;
    for (unsigned k = 0; k < PASSES * n; k++) {
        unsigned t0 = clock();
        j = ld<P>(p, t, j);
        v[k] = (unsigned short)j;          // waits for the load
        unsigned t1 = clock();
        v[k] = (unsigned short)(t1 - t0);
    }
    unsigned m = 0;
    for (unsigned k = n; k < PASSES * n; k++) m += v[k] > THR;
    miss[blockIdx.x] = m;
    unsigned s; asm volatile("mov.u32 %0, %%smid;" : "=r"(s));
    smid[blockIdx.x] = s;
    if (j == 0xffffffffu) *sinkp = j;
}

int main(int argc, char **argv)
{
    int path = atoi(argv[1]); unsigned lo = atoi(argv[2]), hi = atoi(argv[3]); int reps = atoi(argv[4]);
    int sms; CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    size_t words = (size_t)hi * 32 + 32;
    unsigned *d, *miss, *smid, *sink;
    CK(cudaMalloc(&d, words * 4)); CK(cudaMalloc(&miss, sms * 4)); CK(cudaMalloc(&smid, sms * 4)); CK(cudaMalloc(&sink, 4));
    unsigned *h = (unsigned *)malloc(words * 4), hm[1024], hs[1024];
    cudaResourceDesc rd = {}; rd.resType = cudaResourceTypeLinear; rd.res.linear.devPtr = d;
    rd.res.linear.desc = cudaCreateChannelDesc<int>(); rd.res.linear.sizeInBytes = words * 4;
    cudaTextureDesc td = {}; td.readMode = cudaReadModeElementType;
    cudaTextureObject_t t; CK(cudaCreateTextureObject(&t, &rd, &td, NULL));
    int smem = PASSES * hi * 2 + 64;
    void (*k)(const unsigned *, cudaTextureObject_t, unsigned, unsigned *, unsigned *, unsigned *) =
        path == 0 ? chase<0> : path == 1 ? chase<1> : chase<2>;
    CK(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
    CK(cudaFuncSetAttribute(k, cudaFuncAttributePreferredSharedMemoryCarveout, 18));
    static unsigned best[1024][64]; // best[sm][rep] largest N with 0 misses
    for (int r = 0; r < reps; r++) {
        for (unsigned n = lo; n <= hi; n++) {
            for (unsigned i = 0; i < n; i++) h[i * 32] = ((i + 1) % n) * 32;
            CK(cudaMemcpy(d, h, (size_t)n * 32 * 4, cudaMemcpyHostToDevice));
            k<<<sms, 32, smem>>>(d, t, n, miss, smid, sink);
            CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
            CK(cudaMemcpy(hm, miss, sms * 4, cudaMemcpyDeviceToHost)); CK(cudaMemcpy(hs, smid, sms * 4, cudaMemcpyDeviceToHost));
            int zero = 0; unsigned lo_m = ~0u, hi_m = 0;
            for (int b = 0; b < sms; b++) { zero += hm[b] == 0; if (hm[b]) { lo_m = hm[b] < lo_m ? hm[b] : lo_m; hi_m = hm[b] > hi_m ? hm[b] : hi_m; }
                if (hm[b] == 0 && n > best[hs[b]][r]) best[hs[b]][r] = n; }
            printf("path %d rep %d N %u (%u B): %d of %d SMs without misses; others %u..%u misses in %d passes\n", path, r, n, n * 128, zero, sms, zero == sms ? 0 : lo_m, hi_m, PASSES - 1);
        }
    }
    printf("path %d per SM largest N without misses, by rep:\n", path);
    int hist[4096] = {0};
    for (int s = 0; s < sms; s++) { printf("sm %3d:", s); for (int r = 0; r < reps; r++) { printf(" %u", best[s][r]); hist[best[s][r] % 4096]++; } printf("\n"); }
    for (int i = 0; i < 4096; i++) if (hist[i]) printf("path %d histogram N=%d: %d (SM x rep)\n", path, i, hist[i]);
    return 0;
}
