// Session 13 exploration: L2-hit and DRAM latency of a one-lane pointer chase, per SM.
// For each footprint: one launch of `sms` blocks where only the block on SM `t` chases (t = 0..sms-1),
// so each SM's walk runs alone; prints smid, cycles per access.
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <vector>
#include <algorithm>
#include <random>
#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { fprintf(stderr, "%s: %s\n", #x, cudaGetErrorString(e)); exit(1); } } while (0)
__global__ void walk(const uint32_t *buf, unsigned target, uint64_t warm, uint64_t timed, double *out, unsigned *ran)
{
    unsigned sm; asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
    if (sm != target || threadIdx.x != 0) return;
    if (atomicAdd(ran, 1u) != 0) return;            // one block per SM
    uint32_t j = 0;
    for (uint64_t k = 0; k < warm; k++) { uint32_t v; asm volatile("ld.global.cg.u32 %0, [%1];" : "=r"(v) : "l"(buf + j)); j = v; }
    long long c0 = clock64();
    for (uint64_t k = 0; k < timed; k++) { uint32_t v; asm volatile("ld.global.cg.u32 %0, [%1];" : "=r"(v) : "l"(buf + j)); j = v; }
    if (j == 0xffffffffu) out[1] = 1;
    long long c1 = clock64();
    out[0] = (double)(c1 - c0) / (double)timed;
}
int main(int argc, char **argv)
{
    int dev = 0; cudaDeviceProp pr; CK(cudaGetDeviceProperties(&pr, dev));
    unsigned sms = pr.multiProcessorCount;
    size_t bufb = (size_t)1 << 30;
    uint32_t *d; CK(cudaMalloc(&d, bufb));
    double *dout; unsigned *dran; CK(cudaMalloc(&dout, 16)); CK(cudaMalloc(&dran, 4));
    size_t fps[] = {(size_t)4 << 20, (size_t)512 << 20};
    for (size_t fp : fps) {
        size_t stride = 128 / 4, n = fp / 128;
        std::vector<uint32_t> perm(n); for (size_t i = 0; i < n; i++) perm[i] = (uint32_t)i;
        std::mt19937_64 rng(7); std::shuffle(perm.begin() + 1, perm.end(), rng);
        std::vector<uint32_t> h(fp / 4, 0);
        for (size_t i = 0; i < n; i++) h[perm[i] * stride] = (uint32_t)(perm[(i + 1) % n] * stride);
        CK(cudaMemcpy(d, h.data(), fp, cudaMemcpyHostToDevice));
        uint64_t warm = fp <= ((size_t)8 << 20) ? 2 * n : 20000, timed = 20000;
        printf("footprint %zu MB\n", fp >> 20);
        std::vector<double> v(sms, 0);
        for (int rep = 0; rep < 2; rep++)
        for (unsigned t = 0; t < sms; t++) {
            double o[2] = {0, 0}; unsigned z = 0;
            CK(cudaMemcpy(dran, &z, 4, cudaMemcpyHostToDevice));
            CK(cudaMemcpy(dout, o, 16, cudaMemcpyHostToDevice));
            walk<<<sms * 2, 32>>>(d, t, warm, timed, dout, dran);
            CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
            CK(cudaMemcpy(o, dout, 16, cudaMemcpyDeviceToHost)); CK(cudaMemcpy(&z, dran, 4, cudaMemcpyDeviceToHost));
            printf("rep %d sm %u ran %u cycles %.2f\n", rep, t, z, o[0]);
        }
    }
    return 0;
}
