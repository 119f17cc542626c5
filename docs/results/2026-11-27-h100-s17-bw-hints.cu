// Exploration (session 17): do cache-hint variants make gpusonar's STREAM add and triad DRAM
// kernels reliably faster than the gpu-stream-style peer (bench/level_peers.cu)?
//
// One process, one GPU. Three 1 GiB arrays a (stored), b, c (loaded), filled once.
//   peer:     bench/level_peers.cu's add (a = b + c) and triad (a = 1.2 b + c): one double per
//             thread, block sizes 64..1024 step 64, each the median of 9 timings of two
//             back-to-back launches, the best block size timed 9 times afresh; figure = that
//             median. Run in full every round.
//   gpusonar: src/cuda/level_stream.cu's level_ticket_kernel (GS_SWEEP_GRID) replicated for add
//             (d = x + y) and triad (d = x + s y, s = 1.0009765625) with x = b, y = c, d = a,
//             templated on element type, tile bytes per thread per array, and a cache HINT:
//               H0 plain loads, plain stores (gpusonar today)
//               H1 plain loads, __stcs stores
//               H2 __ldcs loads, __stcs stores
//               H3 ld.global.nc.L1::no_allocate.L2::256B loads, plain stores
//               H4 H3's loads, __stcs stores
//               H5 ld/st .L2::cache_hint with createpolicy.fractional.L2::evict_first (1.0)
//             launched as mem-bandwidth does beyond the L2: 1024 threads, blocks = occupancy x
//             SMs, passes so one launch moves >= 8 GiB, one untimed launch then 5 timed alone
//             with cudaEvents, per footprint; footprints as mem-bandwidth's default DRAM sweep
//             of add/triad (5 x L2 + 768 B .. 20 x L2, 2 per octave; all three arrays, each the
//             first footprint/3 bytes rounded down to 256 B of a, b, c); the per-round figure is
//             the median over footprints of the per-footprint medians (as the probe's plateau
//             median), at the probe's default width 16 (float4: "q"); double ("d") too.
//             Variants: q32-H0..H5 (gpusonar's float4, 32 B tiles), q64-H0..H5 (64 B tiles),
//             d32-H0..H5 (double, 32 B tiles), and extras q32-H0/H3/H4-lb2: the same kernel
//             under __launch_bounds__(1024, 2) (gpusonar's float4 add/triad take 34 registers,
//             so one block of 1024 per SM; lb2 forces 32 and two blocks, at a 4-byte spill).
// Every variant's output is checked once (round 1, every footprint) against the host's value
// after the output array was set to NaN, and a failing variant is marked BROKEN and dropped.
// Rounds interleave everything (order rotated each round) so drift hits all alike.
// Build: nvcc -O3 -gencode arch=compute_90,code=sm_90 -o .gpu/s17bw .gpu/s17bw.cu
// Usage: .gpu/s17bw [ROUNDS (default 7)]
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
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

enum { ADD = 0, TRIAD = 1 };
static const char *kind_name[2] = {"add", "triad"};
static const size_t STREAM_N = 128ull << 20;        /* doubles per array (1 GiB), as the peer */
static const size_t ARRAY_BYTES = STREAM_N * 8;
static const unsigned THREADS = 1024;                /* level_stream.cu DEFAULT_THREADS */
static const unsigned long long TRAFFIC = 8ull << 30; /* mem-bandwidth's default --traffic */
static const int REPEATS = 5;                        /* mem-bandwidth's default --repeats */
static const double S = 1.0009765625;                /* gpusonar's scalar */
#define MAXF 8

/* ------------------------------------------------------------------ element arithmetic */
static __device__ __forceinline__ double mul(double s, double x) { return s * x; }
static __device__ __forceinline__ float4 mul(float4 s, float4 x)
{
    return make_float4(s.x * x.x, s.y * x.y, s.z * x.z, s.w * x.w);
}
static __device__ __forceinline__ double add(double a, double b) { return a + b; }
static __device__ __forceinline__ float4 add(float4 a, float4 b)
{
    return make_float4(a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w);
}
template <typename T> static __host__ __device__ __forceinline__ T splat(double v) { return (T)v; }
template <> __host__ __device__ __forceinline__ float4 splat<float4>(double v)
{
    return make_float4((float)v, (float)v, (float)v, (float)v);
}

/* ------------------------------------------------------------------ cache-hinted access */
template <int H> static __device__ __forceinline__ unsigned long long make_policy()
{
    unsigned long long pol = 0;
    if constexpr (H == 5)
        asm("createpolicy.fractional.L2::evict_first.b64 %0, 1.0;" : "=l"(pol));
    return pol;
}

template <int H>
static __device__ __forceinline__ float4 ld(const float4 *p, unsigned long long pol)
{
    (void)pol;
    if constexpr (H == 2) {
        return __ldcs(p);
    } else if constexpr (H == 3 || H == 4) {
        float4 v;
        asm volatile("ld.global.nc.L1::no_allocate.L2::256B.v4.f32 {%0, %1, %2, %3}, [%4];"
                     : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w)
                     : "l"(p));
        return v;
    } else if constexpr (H == 5) {
        float4 v;
        asm volatile("ld.global.L2::cache_hint.v4.f32 {%0, %1, %2, %3}, [%4], %5;"
                     : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w)
                     : "l"(p), "l"(pol));
        return v;
    } else {
        return *p;
    }
}
template <int H>
static __device__ __forceinline__ double ld(const double *p, unsigned long long pol)
{
    (void)pol;
    if constexpr (H == 2) {
        return __ldcs(p);
    } else if constexpr (H == 3 || H == 4) {
        double v;
        asm volatile("ld.global.nc.L1::no_allocate.L2::256B.f64 %0, [%1];" : "=d"(v) : "l"(p));
        return v;
    } else if constexpr (H == 5) {
        double v;
        asm volatile("ld.global.L2::cache_hint.f64 %0, [%1], %2;" : "=d"(v) : "l"(p), "l"(pol));
        return v;
    } else {
        return *p;
    }
}
template <int H>
static __device__ __forceinline__ void st(float4 *p, float4 v, unsigned long long pol)
{
    (void)pol;
    if constexpr (H == 1 || H == 2 || H == 4) {
        __stcs(p, v);
    } else if constexpr (H == 5) {
        asm volatile("st.global.L2::cache_hint.v4.f32 [%0], {%1, %2, %3, %4}, %5;"
                     :
                     : "l"(p), "f"(v.x), "f"(v.y), "f"(v.z), "f"(v.w), "l"(pol)
                     : "memory");
    } else {
        *p = v;
    }
}
template <int H>
static __device__ __forceinline__ void st(double *p, double v, unsigned long long pol)
{
    (void)pol;
    if constexpr (H == 1 || H == 2 || H == 4) {
        __stcs(p, v);
    } else if constexpr (H == 5) {
        asm volatile("st.global.L2::cache_hint.f64 [%0], %1, %2;"
                     :
                     : "l"(p), "d"(v), "l"(pol)
                     : "memory");
    } else {
        *p = v;
    }
}

/* ------------------------------------------------------------------ gpusonar's kernel */
/* level_stream.cu's sweep for add/triad: U loads per source, then U stores; the remainder. */
template <typename T, int KIND, int U, int H>
static __device__ __forceinline__ void sweep(const T *__restrict__ x, const T *__restrict__ y,
                                             T *__restrict__ d, size_t lo, size_t hi, size_t step,
                                             T s, unsigned long long pol)
{
    size_t i = lo;
    for (; i + (U - 1) * step < hi; i += U * step) {
        T a[U], b[U];
#pragma unroll
        for (int k = 0; k < U; k++) {
            a[k] = ld<H>(x + i + k * step, pol);
            b[k] = ld<H>(y + i + k * step, pol);
        }
#pragma unroll
        for (int k = 0; k < U; k++) {
            if (KIND == ADD)
                st<H>(d + i + k * step, add(a[k], b[k]), pol);
            else
                st<H>(d + i + k * step, add(a[k], mul(s, b[k])), pol);
        }
    }
    for (; i < hi; i += step) {
        T a = ld<H>(x + i, pol), b = ld<H>(y + i, pol);
        if (KIND == ADD)
            st<H>(d + i, add(a, b), pol);
        else
            st<H>(d + i, add(a, mul(s, b)), pol);
    }
}

/* level_stream.cu's level_ticket_kernel: tiles of U x blockDim.x elements handed out in address
 * order through an atomic ticket (barrier, draw, barrier, the tile's loads). */
template <typename T, int KIND, int BYTES, int H>
static __device__ __forceinline__ void ticket_body(const T *__restrict__ x,
                                                   const T *__restrict__ y, T *__restrict__ d,
                                                   size_t n, unsigned passes, T s,
                                                   unsigned long long *ticket,
                                                   unsigned long long first)
{
    constexpr int U = BYTES / sizeof(T);
    __shared__ unsigned long long drawn;
    size_t tile = (size_t)U * blockDim.x, tiles = (n + tile - 1) / tile;
    unsigned long long total = (unsigned long long)tiles * passes;
    unsigned long long pol = make_policy<H>();
    for (;;) {
        __syncthreads();
        if (threadIdx.x == 0)
            drawn = atomicAdd(ticket, 1ull) - first;
        __syncthreads();
        unsigned long long t = drawn;
        if (t >= total)
            break;
        size_t lo = (size_t)(t % tiles) * tile;
        sweep<T, KIND, U, H>(x, y, d, lo + threadIdx.x, lo + tile < n ? lo + tile : n, blockDim.x,
                             s, pol);
    }
}

/* The kernel as gpusonar compiles it (no launch bounds), and an extra: __launch_bounds__(1024, 2),
 * so that two blocks of 1024 fit on an SM (ptxas must keep it to 32 registers; gpusonar's float4
 * add/triad take 34 and so run one block per SM). */
template <typename T, int KIND, int BYTES, int H>
__global__ void ticket_kernel(const T *__restrict__ x, const T *__restrict__ y, T *__restrict__ d,
                              size_t n, unsigned passes, T s, unsigned long long *ticket,
                              unsigned long long first)
{
    ticket_body<T, KIND, BYTES, H>(x, y, d, n, passes, s, ticket, first);
}
template <typename T, int KIND, int BYTES, int H>
__global__ void __launch_bounds__(1024, 2)
    ticket_kernel_lb2(const T *__restrict__ x, const T *__restrict__ y, T *__restrict__ d,
                      size_t n, unsigned passes, T s, unsigned long long *ticket,
                      unsigned long long first)
{
    ticket_body<T, KIND, BYTES, H>(x, y, d, n, passes, s, ticket, first);
}

typedef void (*launch_fn)(const void *x, const void *y, void *d, size_t n, unsigned passes,
                          unsigned blocks, unsigned long long *ticket, unsigned long long first);

template <typename T, int KIND, int BYTES, int H, bool LB2>
static void launch(const void *x, const void *y, void *d, size_t n, unsigned passes,
                   unsigned blocks, unsigned long long *ticket, unsigned long long first)
{
    if constexpr (LB2)
        ticket_kernel_lb2<T, KIND, BYTES, H><<<blocks, THREADS>>>(
            (const T *)x, (const T *)y, (T *)d, n, passes, splat<T>(S), ticket, first);
    else
        ticket_kernel<T, KIND, BYTES, H><<<blocks, THREADS>>>(
            (const T *)x, (const T *)y, (T *)d, n, passes, splat<T>(S), ticket, first);
}

/* ------------------------------------------------------------------ the peer's kernel */
template <int KIND>
__global__ void stream_kernel(double *a, const double *__restrict__ b,
                              const double *__restrict__ c, size_t n)
{
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    if (KIND == ADD) a[i] = b[i] + c[i];
    if (KIND == TRIAD) a[i] = 1.2 * b[i] + c[i];
}

static void peer_launch(int kind, double *a, const double *b, const double *c, int bs)
{
    unsigned blocks = (unsigned)((STREAM_N + bs - 1) / bs);
    if (kind == ADD)
        stream_kernel<ADD><<<blocks, bs>>>(a, b, c, STREAM_N);
    else
        stream_kernel<TRIAD><<<blocks, bs>>>(a, b, c, STREAM_N);
}

/* ------------------------------------------------------------------ inputs and checks */
/* b and c hold floats (every float and every pair of floats read as a double is normal). */
static __host__ __device__ __forceinline__ float bf(size_t j) { return 1.0f + (float)(j & 7) * 0.125f; }
static __host__ __device__ __forceinline__ float cf(size_t j) { return 0.75f + (float)(j % 5) * 0.0625f; }

__global__ void fill_inputs(float *b, float *c, size_t nf)
{
    for (size_t j = blockIdx.x * (size_t)blockDim.x + threadIdx.x; j < nf;
         j += (size_t)gridDim.x * blockDim.x) {
        b[j] = bf(j);
        c[j] = cf(j);
    }
}

__global__ void fill_value(double *p, size_t n, double v)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x)
        p[i] = v;
}

static double host_double(float (*f)(size_t), size_t i)
{
    float w[2] = {f(2 * i), f(2 * i + 1)};
    double v;
    memcpy(&v, w, sizeof v);
    return v;
}

static bool close_to(double got, double want, double tol)
{
    return std::isfinite(got) && fabs(got - want) <= tol * fabs(want);
}

/* A few elements of a (n elements of elem bytes) against the host's value. peer: 1.2 b + c for
 * the triad, else b + S c. Prints the first mismatch. */
static bool check_output(const void *a, size_t n, int elem, int kind, bool peer, const char *who)
{
    size_t idx[] = {0, 1, 2, 1023, 1024, 4097, n / 3, n / 2 + 7, n - 1025, n - 3, n - 2, n - 1};
    for (size_t q = 0; q < sizeof idx / sizeof idx[0]; q++) {
        size_t i = idx[q];
        if (i >= n)
            continue;
        unsigned char buf[16];
        CHECK(cudaMemcpy(buf, (const char *)a + i * elem, elem, cudaMemcpyDeviceToHost));
        if (elem == 16) {
            float got[4];
            memcpy(got, buf, 16);
            for (int l = 0; l < 4; l++) {
                size_t j = 4 * i + l;
                float x = bf(j), y = cf(j);
                float want = kind == ADD ? x + y : x + (float)S * y;
                if (!close_to(got[l], want, 1e-6)) {
                    fprintf(stderr, "BROKEN %s %s: element %zu lane %d: %.9g, want %.9g\n", who,
                            kind_name[kind], i, l, got[l], want);
                    return false;
                }
            }
        } else {
            double got;
            memcpy(&got, buf, 8);
            double x = host_double(bf, i), y = host_double(cf, i);
            double want = kind == ADD ? x + y : peer ? 1.2 * x + y : x + S * y;
            if (!close_to(got, want, 1e-12)) {
                fprintf(stderr, "BROKEN %s %s: element %zu: %.17g, want %.17g\n", who,
                        kind_name[kind], i, got, want);
                return false;
            }
        }
    }
    return true;
}

/* ------------------------------------------------------------------ statistics */
static double median(std::vector<double> v)
{
    if (v.empty())
        return NAN;
    std::sort(v.begin(), v.end());
    size_t m = v.size();
    return m % 2 ? v[m / 2] : 0.5 * (v[m / 2 - 1] + v[m / 2]);
}
static double vmin(const std::vector<double> &v)
{
    return v.empty() ? NAN : *std::min_element(v.begin(), v.end());
}
static double vmax(const std::vector<double> &v)
{
    return v.empty() ? NAN : *std::max_element(v.begin(), v.end());
}

/* ------------------------------------------------------------------ variants */
struct Variant {
    char name[16];
    const char *type;
    int elem, tile, hint;
    launch_fn fn[2];
    const void *kern[2];
    int per_sm[2], regs[2];
    unsigned blocks[2];
    bool broken[2];
    std::vector<double> all[2];            /* every timed launch, GB/s */
    std::vector<double> fig[2];            /* per round: median over footprints of medians */
    std::vector<double> foot[2][MAXF];     /* per footprint: every timed launch */
};

static const char *hint_desc[6] = {
    "plain ld / plain st (gpusonar today)",
    "plain ld / __stcs st",
    "__ldcs ld / __stcs st",
    "ld.global.nc.L1::no_allocate.L2::256B / plain st",
    "ld.global.nc.L1::no_allocate.L2::256B / __stcs st",
    "ld+st .L2::cache_hint, createpolicy.fractional.L2::evict_first 1.0",
};

template <typename T, int BYTES, int H, bool LB2 = false>
static Variant make_variant(const char *prefix)
{
    Variant v;
    snprintf(v.name, sizeof v.name, "%s%d-H%d%s", prefix, BYTES, H, LB2 ? "-lb2" : "");
    v.type = sizeof(T) == 16 ? "float4" : "double";
    v.elem = (int)sizeof(T);
    v.tile = BYTES;
    v.hint = H;
    v.fn[ADD] = launch<T, ADD, BYTES, H, LB2>;
    v.fn[TRIAD] = launch<T, TRIAD, BYTES, H, LB2>;
    if constexpr (LB2) {
        v.kern[ADD] = (const void *)ticket_kernel_lb2<T, ADD, BYTES, H>;
        v.kern[TRIAD] = (const void *)ticket_kernel_lb2<T, TRIAD, BYTES, H>;
    } else {
        v.kern[ADD] = (const void *)ticket_kernel<T, ADD, BYTES, H>;
        v.kern[TRIAD] = (const void *)ticket_kernel<T, TRIAD, BYTES, H>;
    }
    for (int k = 0; k < 2; k++) {
        v.per_sm[k] = v.regs[k] = 0;
        v.blocks[k] = 0;
        v.broken[k] = false;
    }
    return v;
}

template <typename T, int BYTES>
static void add_hints(std::vector<Variant> &vs, const char *prefix)
{
    vs.push_back(make_variant<T, BYTES, 0>(prefix));
    vs.push_back(make_variant<T, BYTES, 1>(prefix));
    vs.push_back(make_variant<T, BYTES, 2>(prefix));
    vs.push_back(make_variant<T, BYTES, 3>(prefix));
    vs.push_back(make_variant<T, BYTES, 4>(prefix));
    vs.push_back(make_variant<T, BYTES, 5>(prefix));
}

/* ------------------------------------------------------------------ state */
static double *A, *B, *C;
static unsigned long long *ticket_dev;
static unsigned long long drawn_host = 0;  /* tickets drawn so far (level_job.drawn) */
static cudaEvent_t ev0, ev1;
static int sms;

static float elapsed_ms()
{
    float ms = 0;
    CHECK(cudaEventSynchronize(ev1));
    CHECK(cudaEventElapsedTime(&ms, ev0, ev1));
    return ms;
}

/* One gpusonar launch between two events (gs_cuda_time_runs' timed_run): milliseconds. */
static float gs_timed(const Variant &v, int kind, size_t n, unsigned passes)
{
    size_t tile = (size_t)(v.tile / v.elem) * THREADS;
    CHECK(cudaEventRecord(ev0));
    v.fn[kind](B, C, A, n, passes, v.blocks[kind], ticket_dev, drawn_host);
    CHECK(cudaGetLastError());
    CHECK(cudaEventRecord(ev1));
    drawn_host += (unsigned long long)((n + tile - 1) / tile) * passes + v.blocks[kind];
    float ms = elapsed_ms();
    CHECK(cudaGetLastError());
    return ms;
}

/* One footprint (per_array bytes per array): one untimed launch, REPEATS timed; GB/s appended
 * to out; returns false when the check (verify) fails. */
static bool gs_footprint(const Variant &v, int kind, size_t per_array, bool verify,
                         std::vector<double> &out)
{
    size_t n = per_array / v.elem;
    unsigned long long per_pass = 3ull * n * v.elem;
    unsigned long long p = (TRAFFIC + per_pass - 1) / per_pass;
    unsigned passes = p < 1 ? 1 : p > 0x7fffffffull ? 0x7fffffffu : (unsigned)p;
    if (verify)
        CHECK(cudaMemset(A, 0xff, n * v.elem));
    gs_timed(v, kind, n, passes);
    if (verify && !check_output(A, n, v.elem, kind, false, v.name))
        return false;
    for (int r = 0; r < REPEATS; r++) {
        float ms = gs_timed(v, kind, n, passes);
        out.push_back((double)passes * per_pass / (ms * 1e-3) * 1e-9);
    }
    return true;
}

/* level_peers.cu's stream_rates: 9 timings of two back-to-back launches, GB/s ascending. */
static std::vector<double> peer_rates(int kind, int bs)
{
    std::vector<double> gbps;
    for (int r = 0; r < 9; r++) {
        CHECK(cudaEventRecord(ev0));
        peer_launch(kind, A, B, C, bs);
        peer_launch(kind, A, B, C, bs);
        CHECK(cudaEventRecord(ev1));
        gbps.push_back(3 * STREAM_N * 8.0 / (elapsed_ms() / 2 * 1e-3) * 1e-9);
        CHECK(cudaGetLastError());
    }
    std::sort(gbps.begin(), gbps.end());
    return gbps;
}

/* level_peers.cu's stream_best: the fresh 9 of the best block size (*bs_out). */
static std::vector<double> peer_best(int kind, bool verify, int *bs_out, bool *ok)
{
    double best = 0;
    int best_bs = 64;
    *ok = true;
    for (int bs = 64; bs <= 1024; bs += 64) {
        if (verify && bs == 64)
            CHECK(cudaMemset(A, 0xff, ARRAY_BYTES));
        peer_launch(kind, A, B, C, bs);
        CHECK(cudaGetLastError());
        if (verify && bs == 64) {
            CHECK(cudaDeviceSynchronize());
            *ok = check_output(A, STREAM_N, 8, kind, true, "peer");
        }
        double med = peer_rates(kind, bs)[4];
        if (med > best)
            best = med, best_bs = bs;
    }
    *bs_out = best_bs;
    return peer_rates(kind, best_bs);
}

/* ------------------------------------------------------------------ main */
int main(int argc, char **argv)
{
    int rounds = argc > 1 ? atoi(argv[1]) : 7;
    if (rounds < 1 || rounds > 100) {
        fprintf(stderr, "usage: %s [ROUNDS 1..100]\n", argv[0]);
        return 2;
    }
    cudaDeviceProp prop;
    CHECK(cudaSetDevice(0));
    CHECK(cudaGetDeviceProperties(&prop, 0));
    sms = prop.multiProcessorCount;
    size_t free_b = 0, total_b = 0;
    CHECK(cudaMemGetInfo(&free_b, &total_b));
    printf("device: %s, %d SMs, L2 %d B, free %zu of %zu B\n", prop.name, sms, prop.l2CacheSize,
           free_b, total_b);

    /* mem-bandwidth's default DRAM footprints of add/triad (all arrays, bytes). */
    unsigned long long l2 = (unsigned long long)prop.l2CacheSize;
    unsigned long long lo = 5 * l2 + 256ull * 3, hi = 4 * 5 * l2;
    if (hi < (64ull << 20))
        hi = 64ull << 20;
    if (hi > free_b / 2)
        hi = free_b / 2;
    if (hi > 3 * ARRAY_BYTES)
        hi = 3 * ARRAY_BYTES;
    size_t per_array[MAXF];
    int nf = 0;
    {
        double step = pow(2.0, 1.0 / 2);
        double f[MAXF];
        int m = 0;
        for (double x = (double)lo; x < (double)hi * 0.999 && m + 1 < MAXF; x *= step)
            f[m++] = floor(x);
        f[m++] = (double)hi;
        for (int i = 0; i < m; i++) {
            size_t pa = (size_t)(f[i] / 3) / 256 * 256;
            if (nf > 0 && pa <= per_array[nf - 1])
                continue;
            per_array[nf++] = pa;
        }
    }
    printf("gpusonar footprints (bytes per array; x3 for all arrays):");
    for (int i = 0; i < nf; i++)
        printf(" %zu", per_array[i]);
    printf("\npeer: %zu B per array\n", ARRAY_BYTES);

    CHECK(cudaMalloc(&A, ARRAY_BYTES));
    CHECK(cudaMalloc(&B, ARRAY_BYTES));
    CHECK(cudaMalloc(&C, ARRAY_BYTES));
    CHECK(cudaMalloc(&ticket_dev, sizeof *ticket_dev));
    CHECK(cudaMemset(ticket_dev, 0, sizeof *ticket_dev));
    CHECK(cudaEventCreate(&ev0));
    CHECK(cudaEventCreate(&ev1));
    fill_inputs<<<1024, 256>>>((float *)B, (float *)C, ARRAY_BYTES / 4);
    CHECK(cudaGetLastError());
    fill_value<<<1024, 256>>>(A, STREAM_N, 0.5);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());

    std::vector<Variant> vs;
    vs.push_back(make_variant<float4, 32, 0>("q"));
    vs.push_back(make_variant<float4, 32, 1>("q"));
    vs.push_back(make_variant<float4, 16, 0>("q"));
    vs.push_back(make_variant<float4, 16, 1>("q"));
    vs.push_back(make_variant<double, 16, 0>("d"));
    vs.push_back(make_variant<double, 16, 1>("d"));
    vs.push_back(make_variant<double, 8, 0>("d"));
    vs.push_back(make_variant<double, 8, 1>("d"));
    printf("\nvariants (q: float4 elements, d: double; number: tile bytes per thread per array; "
           "%u threads per block; blocks = occupancy x %d SMs):\n", THREADS, sms);
    for (Variant &v : vs) {
        for (int k = 0; k < 2; k++) {
            cudaFuncAttributes at;
            CHECK(cudaFuncGetAttributes(&at, v.kern[k]));
            CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&v.per_sm[k], v.kern[k],
                                                                (int)THREADS, 0));
            v.regs[k] = at.numRegs;
            if (v.per_sm[k] < 1) {
                fprintf(stderr, "%s %s: no block of %u threads fits\n", v.name, kind_name[k],
                        THREADS);
                v.broken[k] = true;
            }
            v.blocks[k] = (unsigned)(v.per_sm[k] * sms);
        }
        printf("  %-10s %s tile %2d B: %-66s add %d regs %d/SM, triad %d regs %d/SM\n", v.name,
               v.type, v.tile, hint_desc[v.hint], v.regs[ADD], v.per_sm[ADD], v.regs[TRIAD],
               v.per_sm[TRIAD]);
    }

    /* Warm-up on the fresh arrays (GS_WARM_FRESH_MS is 20 ms; take ~0.3 s). */
    {
        float warm = 0;
        while (warm < 300.0f) {
            CHECK(cudaEventRecord(ev0));
            peer_launch(ADD, A, B, C, 512);
            CHECK(cudaGetLastError());
            CHECK(cudaEventRecord(ev1));
            warm += elapsed_ms();
        }
    }

    /* items: 0 = peer, 1.. = variants; each round rotates the order. */
    int items = 1 + (int)vs.size();
    std::vector<double> peer_fig[2], peer_all[2];
    std::vector<int> peer_bs[2];
    bool peer_ok = true;
    printf("\nper round: the figure (peer: median of 9 fresh at its best block size; gpusonar: "
           "median over footprints of the median of %d), GB/s\n", REPEATS);
    for (int r = 0; r < rounds; r++) {
        bool verify = r == 0;
        int offset = (r * 7) % items;
        for (int k = 0; k < 2; k++) {
            double pf = NAN;
            int pbs = 0;
            for (int q = 0; q < items; q++) {
                int it = (q + offset) % items;
                if (it == 0) {
                    bool ok;
                    std::vector<double> fresh = peer_best(k, verify, &pbs, &ok);
                    peer_ok = peer_ok && ok;
                    pf = fresh[4];
                    peer_fig[k].push_back(pf);
                    peer_bs[k].push_back(pbs);
                    peer_all[k].insert(peer_all[k].end(), fresh.begin(), fresh.end());
                    continue;
                }
                Variant &v = vs[it - 1];
                if (v.broken[k])
                    continue;
                std::vector<double> meds;
                for (int f = 0; f < nf && !v.broken[k]; f++) {
                    std::vector<double> g;
                    if (!gs_footprint(v, k, per_array[f], verify, g)) {
                        v.broken[k] = true;
                        break;
                    }
                    meds.push_back(median(g));
                    v.foot[k][f].insert(v.foot[k][f].end(), g.begin(), g.end());
                    v.all[k].insert(v.all[k].end(), g.begin(), g.end());
                }
                if (!v.broken[k])
                    v.fig[k].push_back(median(meds));
            }
            printf("r%d %-5s peer=%.1f/bs%d", r + 1, kind_name[k], pf, pbs);
            for (Variant &v : vs) {
                if (v.broken[k])
                    printf(" %s=BROKEN", v.name);
                else
                    printf(" %s=%.1f(%.4f)", v.name, v.fig[k].back(), v.fig[k].back() / pf);
            }
            printf("\n");
            fflush(stdout);
        }
    }
    if (!peer_ok)
        printf("WARNING: the peer's output check failed (see stderr)\n");

    /* Per variant and kind. */
    printf("\nper variant: GB/s over every timed launch (%d rounds x %d footprints x %d); "
           "ratio = median / peer's median over its %d rounds x 9 fresh timings;\n"
           "round ratios = the round's gpusonar-style figure / that round's peer figure "
           "(min, median, max, rounds above 1); then per-footprint medians\n",
           rounds, nf, REPEATS, rounds);
    for (int k = 0; k < 2; k++) {
        double pm = median(peer_all[k]);
        printf("%-5s peer       median %.1f min %.1f max %.1f; round figures %.1f..%.1f; best "
               "block sizes:", kind_name[k], pm, vmin(peer_all[k]), vmax(peer_all[k]),
               vmin(peer_fig[k]), vmax(peer_fig[k]));
        for (int bs : peer_bs[k])
            printf(" %d", bs);
        printf("\n");
        for (Variant &v : vs) {
            if (v.broken[k]) {
                printf("%-5s %-10s BROKEN\n", kind_name[k], v.name);
                continue;
            }
            std::vector<double> rr;
            int above = 0;
            for (size_t r = 0; r < v.fig[k].size(); r++) {
                rr.push_back(v.fig[k][r] / peer_fig[k][r]);
                above += rr.back() > 1.0;
            }
            printf("%-5s %-10s median %.1f min %.1f max %.1f ratio %.4f | rounds %.4f %.4f "
                   "%.4f %d/%zu | footprints", kind_name[k], v.name, median(v.all[k]),
                   vmin(v.all[k]), vmax(v.all[k]), median(v.all[k]) / pm, vmin(rr), median(rr),
                   vmax(rr), above, rr.size());
            for (int f = 0; f < nf; f++)
                printf(" %.1f", median(v.foot[k][f]));
            printf("\n");
        }
    }

    /* Final table. */
    printf("\nFINAL kind variant median_gbps ratio_to_peer round_ratio_min round_ratio_max "
           "rounds_above\n");
    bool any_broken = false;
    for (int k = 0; k < 2; k++) {
        double pm = median(peer_all[k]);
        printf("FINAL %s peer %.1f 1.0000 - - -\n", kind_name[k], pm);
        for (Variant &v : vs) {
            if (v.broken[k]) {
                any_broken = true;
                printf("FINAL %s %s BROKEN - - - -\n", kind_name[k], v.name);
                continue;
            }
            std::vector<double> rr;
            int above = 0;
            for (size_t r = 0; r < v.fig[k].size(); r++) {
                rr.push_back(v.fig[k][r] / peer_fig[k][r]);
                above += rr.back() > 1.0;
            }
            printf("FINAL %s %s %.1f %.4f %.4f %.4f %d/%zu\n", kind_name[k], v.name,
                   median(v.all[k]), median(v.all[k]) / pm, vmin(rr), vmax(rr), above,
                   rr.size());
        }
    }
    CHECK(cudaEventDestroy(ev0));
    CHECK(cudaEventDestroy(ev1));
    CHECK(cudaFree(A));
    CHECK(cudaFree(B));
    CHECK(cudaFree(C));
    CHECK(cudaFree(ticket_dev));
    return any_broken || !peer_ok ? 3 : 0;
}
