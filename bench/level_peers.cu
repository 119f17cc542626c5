/* Peer-style reference kernels for bench/level_bandwidth.sh: the methods of te42kyfo/gpu-benches,
 * rewritten here (no code copied), so gpusonar's mem-bandwidth figures can be set beside what
 * those methods give on the same GPU in the same run.
 *   stream (gpu-stream): double arrays of 128 Mi elements, one element per thread, a grid that
 *     covers the array, block sizes 64..1024 in steps of 64, each the median of 9 timings of two
 *     back-to-back launches; the best block size is then timed 9 times afresh, and that median
 *     is the figure (the best of 16 medians leans high by their spread, the fresh one does not),
 *     with the 2nd and 8th of the 9 as its interval (a 96 % one for a median of 9, whatever the
 *     distribution). Kinds: write (a = c), read (t = b, kept), copy (a = b), scale (a = 1.2 b),
 *     add (a = b + c), triad (a = 1.2 b + c).
 *   l2 (gpu-l2-cache): 200000 blocks of 1024 threads; block i reads its 512 KB share of a data
 *     set of R such shares (blocks with the same i mod R read the same share); best over data
 *     sets up to half the L2 of the fastest of 5 timings.
 *   l1 (gpu-cache): one block of 256 threads per SM, each block sums the same N floats (1.1
 *     each) 10^9 / N + 2 times, N a compile-time constant and the loops unrolled as in the peer;
 *     best over data sets of 8-192 kB of the fastest of 5 timings.
 * Prints one line per figure: "peer_NAME GBPS [LOW HIGH]" (the interval: stream figures only).
 * Build: nvcc -O3 -arch=native level_peers.cu */
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <cuda_runtime.h>

#define CHECK(call)                                                                          \
    do {                                                                                     \
        cudaError_t e_ = (call);                                                             \
        if (e_ != cudaSuccess) {                                                             \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call,                    \
                    cudaGetErrorString(e_));                                                 \
            exit(1);                                                                         \
        }                                                                                    \
    } while (0)

static const size_t STREAM_N = 128ull << 20;

__global__ void fill(double *p, size_t n, double v)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x)
        p[i] = v;
}

/* One element per thread, as gpu-stream does; kind chooses the operation at compile time. */
template <int KIND>
__global__ void stream_kernel(double *a, const double *__restrict__ b,
                              const double *__restrict__ c, size_t n)
{
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    if (KIND == 0) a[i] = 0.23;
    if (KIND == 1) { double t = b[i]; if (t == 123.0) a[i] = t; }
    if (KIND == 2) a[i] = b[i];
    if (KIND == 3) a[i] = 1.2 * b[i];
    if (KIND == 4) a[i] = b[i] + c[i];
    if (KIND == 5) a[i] = 1.2 * b[i] + c[i];
}

static float time_ms(cudaEvent_t s, cudaEvent_t e)
{
    float ms = 0;
    CHECK(cudaEventSynchronize(e));
    CHECK(cudaEventElapsedTime(&ms, s, e));
    return ms;
}

/* The 9 timings of block size bs, each of two back-to-back launches, as GB/s in ascending order. */
template <int KIND>
static std::vector<double> stream_rates(double *a, double *b, double *c, int arrays, int bs,
                                        cudaEvent_t s, cudaEvent_t e)
{
    unsigned blocks = (unsigned)((STREAM_N + bs - 1) / bs);
    std::vector<double> gbps;
    for (int r = 0; r < 9; r++) {
        CHECK(cudaEventRecord(s));
        stream_kernel<KIND><<<blocks, bs>>>(a, b, c, STREAM_N);
        stream_kernel<KIND><<<blocks, bs>>>(a, b, c, STREAM_N);
        CHECK(cudaEventRecord(e));
        gbps.push_back(arrays * STREAM_N * 8.0 / (time_ms(s, e) / 2 * 1e-3) * 1e-9);
        CHECK(cudaGetLastError());
    }
    std::sort(gbps.begin(), gbps.end());
    return gbps;
}

/* The best block size by median, then that block size timed afresh: "GBPS LOW HIGH". */
template <int KIND>
static void stream_best(const char *name, double *a, double *b, double *c, int arrays)
{
    cudaEvent_t s, e;
    CHECK(cudaEventCreate(&s));
    CHECK(cudaEventCreate(&e));
    double best = 0;
    int best_bs = 64;
    for (int bs = 64; bs <= 1024; bs += 64) {
        stream_kernel<KIND><<<(unsigned)((STREAM_N + bs - 1) / bs), bs>>>(a, b, c, STREAM_N);
        CHECK(cudaGetLastError());
        double median = stream_rates<KIND>(a, b, c, arrays, bs, s, e)[4];
        if (median > best)
            best = median, best_bs = bs;
    }
    std::vector<double> fresh = stream_rates<KIND>(a, b, c, arrays, best_bs, s, e);
    printf("peer_%s %.1f %.1f %.1f\n", name, fresh[4], fresh[1], fresh[7]);
    CHECK(cudaEventDestroy(s));
    CHECK(cudaEventDestroy(e));
}

/* gpu-l2-cache's pattern: block i reads rows of its share (i mod R) of 2 x 1024 doubles each. */
__global__ void l2_kernel(double *out, const double *__restrict__ b, int shares, int rows)
{
    double sum = 0;
    for (int r = 0; r < rows; r++) {
        size_t idx = ((size_t)blockDim.x * shares * r + (size_t)(blockIdx.x % shares) * blockDim.x)
                     * 2 + threadIdx.x;
        sum += b[idx] * b[idx + blockDim.x];
    }
    if (sum == 23.12)
        out[threadIdx.x] = sum;
}

static double l2_best(size_t l2_bytes)
{
    const int threads = 1024, rows = 32, blocks = 200000;   /* 2 x 32 x 1024 x 8 B = 512 KB */
    const size_t share = 2ull * rows * threads * 8;
    double best = 0, *out;
    CHECK(cudaMalloc(&out, threads * sizeof(double)));
    cudaEvent_t s, e;
    CHECK(cudaEventCreate(&s));
    CHECK(cudaEventCreate(&e));
    for (int shares = 3; (size_t)shares * share <= l2_bytes / 2; shares += std::max(1, shares / 5)) {
        double *b;
        size_t n = (size_t)shares * share / 8;
        CHECK(cudaMalloc(&b, n * 8));
        fill<<<256, 256>>>(b, n, 1.1);
        CHECK(cudaGetLastError());
        float fastest = 1e30f;
        for (int r = 0; r < 6; r++) {
            CHECK(cudaEventRecord(s));
            l2_kernel<<<blocks, threads>>>(out, b, shares, rows);
            CHECK(cudaEventRecord(e));
            float ms = time_ms(s, e);
            CHECK(cudaGetLastError());
            if (r > 0)
                fastest = std::min(fastest, ms);
        }
        best = std::max(best, (double)share * blocks / (fastest * 1e-3) * 1e-9);
        CHECK(cudaFree(b));
    }
    CHECK(cudaFree(out));
    return best;
}

/* gpu-cache's kernel shape: the data set N (floats) and the block size are compile-time
 * constants, as there, so the inner loop unrolls as the peer's does (fully up to 32 loads per
 * thread, 32 at a time beyond); every block sums the same N floats iters times. */
template <int N, int ITERS_UNROLL, int INNER_UNROLL>
__global__ void l1_kernel(float *out, const float *__restrict__ b, int iters, int zero)
{
    float sum = 0;
    const float *p = b + threadIdx.x;
#pragma unroll ITERS_UNROLL
    for (int it = 0; it < iters; it++) {
        p += zero;
#pragma unroll INNER_UNROLL
        for (int i = 0; i < N; i += 256)
            sum += p[i];
        sum *= 1.3f;
    }
    if (sum == 1233.0f)
        out[threadIdx.x] = sum;
}

__global__ void l1_fill(float *p, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        p[i] = 1.1f;
}

/* One data set of N floats: GB/s of the fastest of 5 timings after one warm-up launch. */
template <int N>
static double l1_one(int sms, float *out, const float *b, cudaEvent_t s, cudaEvent_t e)
{
    constexpr int per_thread = N / 256;
    constexpr int iters_unroll = per_thread > 32 ? 1 : 32 / per_thread;
    constexpr int inner_unroll = per_thread >= 64 ? 32 : per_thread;
    int iters = (int)(1000000000ll / N + 2);   /* the peer's: 4 GB per block per launch */
    float fastest = 1e30f;
    for (int r = 0; r < 6; r++) {
        CHECK(cudaEventRecord(s));
        l1_kernel<N, iters_unroll, inner_unroll><<<sms, 256>>>(out, b, iters, 0);
        CHECK(cudaEventRecord(e));
        float ms = time_ms(s, e);
        CHECK(cudaGetLastError());
        if (r > 0)
            fastest = std::min(fastest, ms);
    }
    return (double)N * 4 * iters * sms / (fastest * 1e-3) * 1e-9;
}

/* The best over data sets of 8 to 192 kB per block, the range where gpu-cache's own curve on
 * Hopper is flat. */
static double l1_best(int sms)
{
    double best = 0;
    float *b, *out;
    CHECK(cudaMalloc(&b, 196608));
    CHECK(cudaMalloc(&out, 256 * sizeof(float)));
    l1_fill<<<48, 1024>>>(b, 196608 / 4);   /* the peer's initKernel: every float 1.1 */
    CHECK(cudaGetLastError());
    cudaEvent_t s, e;
    CHECK(cudaEventCreate(&s));
    CHECK(cudaEventCreate(&e));
    best = std::max(best, l1_one<2048>(sms, out, b, s, e));
    best = std::max(best, l1_one<4096>(sms, out, b, s, e));
    best = std::max(best, l1_one<8192>(sms, out, b, s, e));
    best = std::max(best, l1_one<14336>(sms, out, b, s, e));
    best = std::max(best, l1_one<16384>(sms, out, b, s, e));
    best = std::max(best, l1_one<32768>(sms, out, b, s, e));
    best = std::max(best, l1_one<49152>(sms, out, b, s, e));
    CHECK(cudaFree(b));
    CHECK(cudaFree(out));
    return best;
}

int main()
{
    cudaDeviceProp prop;
    CHECK(cudaGetDeviceProperties(&prop, 0));
    double *a, *b, *c;
    CHECK(cudaMalloc(&a, STREAM_N * 8));
    CHECK(cudaMalloc(&b, STREAM_N * 8));
    CHECK(cudaMalloc(&c, STREAM_N * 8));
    fill<<<1024, 256>>>(a, STREAM_N, 0.5);
    fill<<<1024, 256>>>(b, STREAM_N, 1.5);
    fill<<<1024, 256>>>(c, STREAM_N, 2.5);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    stream_best<0>("dram_write_gbps", a, b, c, 1);
    stream_best<1>("dram_read_gbps", a, b, c, 1);
    stream_best<2>("dram_copy_gbps", a, b, c, 2);
    stream_best<3>("stream_scale_gbps", a, b, c, 2);
    stream_best<4>("stream_add_gbps", a, b, c, 3);
    stream_best<5>("stream_triad_gbps", a, b, c, 3);
    CHECK(cudaFree(a));
    CHECK(cudaFree(b));
    CHECK(cudaFree(c));
    printf("peer_l2_read_gbps %.1f\n", l2_best((size_t)prop.l2CacheSize));
    printf("peer_l1_read_gbps %.1f\n", l1_best(prop.multiProcessorCount));
    return 0;
}
