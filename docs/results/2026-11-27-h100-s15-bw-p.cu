// Exploration (session 15): add/triad, atomic-ticket tiles with the next ticket drawn while the
// current tile's loads are in flight (one barrier per tile instead of two), against the current
// ticket kernel (two barriers, draw then load) and gpu-stream's one element per thread (D/512).
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>
#define CHECK(c) do { cudaError_t e_ = (c); if (e_ != cudaSuccess) { fprintf(stderr, "%d %s\n", __LINE__, cudaGetErrorString(e_)); exit(1);} } while (0)
__device__ __forceinline__ double op(int k, double a, double b) { return k == 3 ? a + b : 1.2 * a + b; }
__device__ __forceinline__ float4 op(int k, float4 a, float4 b) {
  return make_float4(op(k, a.x, b.x), op(k, a.y, b.y), op(k, a.z, b.z), op(k, a.w, b.w)); }
__device__ __forceinline__ float op(int k, float a, float b) { return k == 3 ? a + b : 1.2f * a + b; }
__device__ unsigned long long ticket;
// F: the current kernel's shape (barrier, draw, barrier, loads)
template <typename T, int K, int U> __global__ void kF(T *d, const T *__restrict__ x, const T *__restrict__ y, size_t n, int passes) {
  __shared__ unsigned long long t_s;
  size_t tile = (size_t)U * blockDim.x, tiles = n / tile, total = tiles * passes;
  for (;;) {
    __syncthreads();
    if (threadIdx.x == 0) t_s = atomicAdd(&ticket, 1ull);
    __syncthreads();
    unsigned long long t = t_s;
    if (t >= total) break;
    size_t i = (t % tiles) * tile + threadIdx.x;
    T a[U], b[U];
#pragma unroll
    for (int k = 0; k < U; k++) { a[k] = x[i + k * blockDim.x]; b[k] = y[i + k * blockDim.x]; }
#pragma unroll
    for (int k = 0; k < U; k++) d[i + k * blockDim.x] = op(K, a[k], b[k]);
  }
}
// P: the next ticket drawn after this tile's loads are issued; one barrier per tile
template <typename T, int K, int U> __global__ void kP(T *d, const T *__restrict__ x, const T *__restrict__ y, size_t n, int passes) {
  __shared__ unsigned long long slot[2];
  size_t tile = (size_t)U * blockDim.x, tiles = n / tile, total = tiles * passes;
  if (threadIdx.x == 0) slot[0] = atomicAdd(&ticket, 1ull);
  __syncthreads();
  for (unsigned it = 0;; it++) {
    unsigned long long t = slot[it & 1];
    if (t >= total) break;
    size_t i = (t % tiles) * tile + threadIdx.x;
    T a[U], b[U];
#pragma unroll
    for (int k = 0; k < U; k++) { a[k] = x[i + k * blockDim.x]; b[k] = y[i + k * blockDim.x]; }
    if (threadIdx.x == 0) slot[(it + 1) & 1] = atomicAdd(&ticket, 1ull);
#pragma unroll
    for (int k = 0; k < U; k++) d[i + k * blockDim.x] = op(K, a[k], b[k]);
    __syncthreads();
  }
}
// W: per-warp tickets (no block barrier), prefetched, tile = 32 x U elements
template <typename T, int K, int U> __global__ void kW(T *d, const T *__restrict__ x, const T *__restrict__ y, size_t n, int passes) {
  size_t tile = (size_t)U * 32, tiles = n / tile, total = tiles * passes;
  int lane = threadIdx.x & 31;
  unsigned long long t = 0;
  if (lane == 0) t = atomicAdd(&ticket, 1ull);
  t = __shfl_sync(~0u, t, 0);
  while (t < total) {
    size_t i = (t % tiles) * tile + lane;
    T a[U], b[U];
#pragma unroll
    for (int k = 0; k < U; k++) { a[k] = x[i + k * 32]; b[k] = y[i + k * 32]; }
    unsigned long long nt = 0;
    if (lane == 0) nt = atomicAdd(&ticket, 1ull);
#pragma unroll
    for (int k = 0; k < U; k++) d[i + k * 32] = op(K, a[k], b[k]);
    t = __shfl_sync(~0u, nt, 0);
  }
}
template <int K> __global__ void kD(double *d, const double *__restrict__ x, const double *__restrict__ y, size_t n, int) {
  size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) d[i] = op(K, x[i], y[i]);
}
template <typename T, typename F>
static double run(F f, int per_thread, bool persistent, int threads, char *d, char *x, char *y, size_t bytes_per_array) {
  size_t n = bytes_per_array / sizeof(T);
  int sms, per = 0; CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per, (const void *)f, threads, 0));
  size_t bytes = 3 * bytes_per_array;
  int passes = persistent ? (int)std::max<size_t>(1, (8ull << 30) / bytes) : 1;
  int launches = persistent ? 1 : (int)std::max<size_t>(2, (8ull << 30) / bytes);
  unsigned blocks = persistent ? sms * per : (unsigned)((n + threads - 1) / threads);
  cudaEvent_t s, e; CHECK(cudaEventCreate(&s)); CHECK(cudaEventCreate(&e));
  std::vector<float> t;
  for (int r = 0; r < 8; r++) {
    unsigned long long z = 0; CHECK(cudaMemcpyToSymbol(ticket, &z, 8));
    CHECK(cudaEventRecord(s));
    for (int l = 0; l < launches; l++) f<<<blocks, threads>>>((T *)d, (const T *)x, (const T *)y, n, passes);
    CHECK(cudaEventRecord(e)); CHECK(cudaEventSynchronize(e)); CHECK(cudaGetLastError());
    float ms; CHECK(cudaEventElapsedTime(&ms, s, e)); if (r) t.push_back(ms);
  }
  CHECK(cudaEventDestroy(s)); CHECK(cudaEventDestroy(e));
  std::sort(t.begin(), t.end());
  size_t tile = persistent ? (size_t)per_thread * threads : 1;
  size_t moved = persistent ? n / tile * tile * sizeof(T) * 3 : bytes;
  return (double)moved * passes * launches / (t[t.size() / 2] * 1e-3) * 1e-9;
}
template <int K> static void row(const char *name, char *d, char *x, char *y, size_t b) {
  printf("%5zuMB %-5s", b >> 20, name);
  printf(" D/512=%.0f", run<double>(kD<K>, 1, false, 512, d, x, y, b));
  printf(" Fq2/1024=%.0f", run<float4>(kF<float4, K, 2>, 2, true, 1024, d, x, y, b));
  printf(" Fq1/1024=%.0f", run<float4>(kF<float4, K, 1>, 1, true, 1024, d, x, y, b));
  printf(" Pq2/1024=%.0f", run<float4>(kP<float4, K, 2>, 2, true, 1024, d, x, y, b));
  printf(" Pq1/1024=%.0f", run<float4>(kP<float4, K, 1>, 1, true, 1024, d, x, y, b));
  printf(" Pq1/512=%.0f", run<float4>(kP<float4, K, 1>, 1, true, 512, d, x, y, b));
  printf(" Pd4/1024=%.0f", run<double>(kP<double, K, 4>, 4, true, 1024, d, x, y, b));
  printf(" Pd2/512=%.0f", run<double>(kP<double, K, 2>, 2, true, 512, d, x, y, b));
  printf(" Pd1/512=%.0f", run<double>(kP<double, K, 1>, 1, true, 512, d, x, y, b));
  printf(" Pf8/1024=%.0f", run<float>(kP<float, K, 8>, 8, true, 1024, d, x, y, b));
  printf(" Wq4=%.0f", run<float4>(kW<float4, K, 4>, 4, true, 256, d, x, y, b));
  printf(" Wq8=%.0f", run<float4>(kW<float4, K, 8>, 8, true, 256, d, x, y, b));
  printf("\n"); fflush(stdout);
}
int main() {
  size_t maxb = 1ull << 30;
  char *d, *x, *y; CHECK(cudaMalloc(&d, maxb)); CHECK(cudaMalloc(&x, maxb)); CHECK(cudaMalloc(&y, maxb));
  CHECK(cudaMemset(x, 0, maxb)); CHECK(cudaMemset(y, 0, maxb)); CHECK(cudaMemset(d, 0, maxb));
  for (int rep = 0; rep < 2; rep++)
    for (size_t b : {128ull << 20, 336ull << 20, 1ull << 30}) {
      row<3>("add", d, x, y, b);
      row<4>("triad", d, x, y, b);
    }
}
