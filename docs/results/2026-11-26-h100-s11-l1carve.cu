// Session 11 exploration: the H100 L1 against the shared-memory carve-out. For each carve-out
// preference: (1) capacity: the largest N (lines, stride 128 B, one thread of block 0) whose
// average latency over 8 passes stays within 5 % of a 64-line walk's; (2) ways: k lines of one
// set (by gpusonar's nine XOR masks over buffer offsets) walked cyclically, k = 2..8, average
// latency. No shared memory is held unless the carve-out asks for it (dynamic smem = that share).
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <vector>
#include <cuda_runtime.h>
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("%s: %s\n", #x, cudaGetErrorString(e_)); exit(1); } } while (0)

__global__ void walk(const unsigned *p, unsigned n, unsigned passes, double *out, unsigned *sink)
{
    extern __shared__ unsigned dummy[];
    if (threadIdx.x || blockIdx.x) return;
    unsigned j = 0;
    for (unsigned k = 0; k < 2 * n; k++) j = __ldca(p + j);
    long long t0 = clock64();
    for (unsigned k = 0; k < passes * n; k++) j = __ldca(p + j);
    *sink = j;
    long long t1 = clock64();
    out[0] = (double)(t1 - t0) / (passes * n);
    if (j == 0xffffffffu) dummy[0] = j;
}

static const uint64_t masks[9] = {2104064, 1054336, 528768, 262656, 131840, 73600, 34944, 23296, 14080};
static unsigned setof(uint64_t off) { unsigned s = 0; for (int i = 0; i < 9; i++) s |= (__builtin_popcountll(off & masks[i]) & 1) << i; return s; }

int main()
{
    size_t words = (64u << 20) / 4;
    unsigned *d, *sink; double *out, h_out;
    CK(cudaMalloc(&d, words * 4)); CK(cudaMalloc(&out, 8)); CK(cudaMalloc(&sink, 4));
    printf("buffer base %p (mod 4 MB: %llu)\n", (void *)d, (unsigned long long)((uintptr_t)d % (4u << 20)));
    std::vector<unsigned> h(words);
    CK(cudaFuncSetAttribute(walk, cudaFuncAttributeMaxDynamicSharedMemorySize, 227 * 1024));
    auto run = [&](const std::vector<uint64_t> &lines, int carve, int smem) {
        for (size_t i = 0; i < lines.size(); i++) h[lines[i] / 4] = (unsigned)(lines[(i + 1) % lines.size()] / 4);
        uint64_t top = 0; for (auto o : lines) top = o > top ? o : top;
        CK(cudaMemcpy(d, h.data(), top + 4, cudaMemcpyHostToDevice));
        CK(cudaFuncSetAttribute(walk, cudaFuncAttributePreferredSharedMemoryCarveout, carve));
        walk<<<1, 32, smem>>>(d, (unsigned)lines.size(), 8, out, sink);
        CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
        CK(cudaMemcpy(&h_out, out, 8, cudaMemcpyDeviceToHost));
        return h_out;
    };
    auto contiguous = [](unsigned n) { std::vector<uint64_t> v(n); for (unsigned i = 0; i < n; i++) v[i] = (uint64_t)i * 128; return v; };
    std::vector<uint64_t> set0;
    for (uint64_t off = 0; set0.size() < 12 && off < (64u << 20); off += 128) if (setof(off) == setof(0)) set0.push_back(off);
    printf("set-0 lines:"); for (auto o : set0) printf(" 0x%llx", (unsigned long long)o); printf("\n");
    int carves[] = {0, 4, 14, 28, 44, 58, 72, 86, 100};
    for (int c : carves) {
        int smem = c * 228 * 1024 / 100; if (smem > 227 * 1024) smem = 227 * 1024;
        double hit = run(contiguous(64), c, smem);
        unsigned lo = 64, n;
        for (n = 128; n <= 2560; n += 16) { double a = run(contiguous(n), c, smem); if (a > hit * 1.05) break; lo = n; }
        unsigned cap = lo;
        for (unsigned m = lo + 1; m < n; m++) { double a = run(contiguous(m), c, smem); if (a > hit * 1.05) break; cap = m; }
        printf("carveout %3d%% (dyn smem %6d B): hit %.1f cycles, capacity %u lines (%u B), next %u: %.1f\n", c, smem, hit, cap, cap * 128, cap + 1, run(contiguous(cap + 1), c, smem));
        printf("   one set, k lines:");
        for (unsigned k = 2; k <= 8; k++) { std::vector<uint64_t> v(set0.begin(), set0.begin() + k); printf(" %u:%.1f", k, run(v, c, smem)); }
        printf("\n");
    }
    return 0;
}
