/* The CUDA backend's write operation (plan.h, gs_write_plan): loads after global stores, for the
 * write-policy probe. LOAD_AFTER_STORE: one block of one warp; each repetition takes a fresh line
 * of a zeroed buffer, makes it be in the L1 (lane 0 loads its words twice through the path) or
 * out of it (lane 0 loads it with ld.cg so that the L2 holds it, then the whole warp loads an
 * eviction buffer through the path), stores a new value (st.global or st.global.cg), waits
 * settle_cycles, and times one load through the path as one access of the fine-grained chase
 * (chase_kernels.cu): clock, load, a shared store of the value (it waits for the data), clock.
 * VISIBILITY: two blocks, one launch per repetition. The reader announces itself with a flag;
 * the writer loads its line twice through the path, raises a second flag, stores, and stays for
 * window_cycles; the reader, after the second flag, polls the line with ld.cg until it reads the
 * new value or window_cycles pass. Every wait is bounded by the clock: blocks that do not run at
 * once give a void repetition, never a hang. */
#include <math.h>
#include <stdlib.h>

#include "cuda/cuda_internal.h"
#include "cuda/device_loads.cuh"

#define WRITE_MAX_REPEATS 1024    /* latencies of one launch, kept in shared memory */
#define OLD_BIT 0x80000000u       /* in a kept latency: the load returned the old value */

typedef struct write_args {
    uint32_t *targets;            /* (repeats + 1) lines, zeroed; line 0 is the warm-up's */
    const uint32_t *evict;        /* evict_bytes */
    uint32_t line_words, store_word, load_word;
    uint32_t in_l1, store, store_cg;
    uint64_t evict_bytes;
    uint32_t evict_stride_words;
    uint32_t settle_cycles;
    uint32_t repeats;
    uint64_t window_cycles;
    uint32_t *out;                /* LOAD_AFTER_STORE: repeats latencies (| OLD_BIT) */
    uint32_t *flags;              /* VISIBILITY: [0] reader ready, [1] store coming */
    long long *vis;               /* VISIBILITY: [0] reader cycles (-1 unseen, -2 void),
                                     [1] writer SM, [2] reader SM */
    uint32_t new_value;
} write_args;

static __device__ __forceinline__ void st_global(uint32_t *p, uint32_t v, bool cg)
{
    if (cg)
        asm volatile("st.global.cg.u32 [%0], %1;" : : "l"(p), "r"(v) : "memory");
    else
        asm volatile("st.global.u32 [%0], %1;" : : "l"(p), "r"(v) : "memory");
}

static __device__ __forceinline__ uint32_t ld_flag(const uint32_t *p)
{
    uint32_t v;
    asm volatile("ld.volatile.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
    return v;
}

static __device__ __forceinline__ void st_flag(uint32_t *p, uint32_t v)
{
    asm volatile("st.volatile.global.u32 [%0], %1;" : : "l"(p), "r"(v) : "memory");
}

static __device__ __forceinline__ void spin(uint64_t cycles)
{
    long long t = clock64_read();
    while ((uint64_t)(clock64_read() - t) < cycles)
        ;
}

static __device__ __forceinline__ uint32_t smid(void)
{
    uint32_t s;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(s));
    return s;
}

/* The whole warp loads the eviction buffer through P; the sum goes to a shared word, so every
 * load has arrived before the warp goes on. */
template <int P> static __device__ void evict_walk(const write_args &a, volatile uint32_t *sink)
{
    uint32_t acc = 0;
    uint64_t words = a.evict_bytes / 4;
    for (uint64_t i = (uint64_t)threadIdx.x * a.evict_stride_words; i < words;
         i += 32ull * a.evict_stride_words)
        acc += load_global<uint32_t, P>(a.evict + i);
    sink[threadIdx.x] = acc;
    __syncwarp();
}

template <int P> __global__ void __launch_bounds__(32) load_after_store_kernel(write_args a)
{
    __shared__ uint32_t kept[WRITE_MAX_REPEATS];
    __shared__ uint32_t sink[32];
    volatile uint32_t *vs = sink;
    for (int r = -1; r < (int)a.repeats; r++) {
        uint32_t *x = a.targets + (uint64_t)(r + 1) * a.line_words;
        uint32_t value = a.new_value + (uint32_t)(r + 1);
        if (threadIdx.x == 0) {
            vs[0] = ld_cg(x + a.store_word) + ld_cg(x + a.load_word);
            if (a.in_l1)
                for (int k = 0; k < 2; k++)
                    vs[0] = load_global<uint32_t, P>(x + a.store_word) +
                            load_global<uint32_t, P>(x + a.load_word);
        }
        __syncwarp();
        if (!a.in_l1)
            evict_walk<P>(a, vs);
        if (threadIdx.x == 0) {
            if (a.store)
                st_global(x + a.store_word, value, a.store_cg);
            spin(a.settle_cycles);
            uint32_t t0 = clock32();
            uint32_t v = load_global<uint32_t, P>(x + a.load_word);
            vs[1] = v;                  /* waits for the load: t1 is read after it arrived */
            uint32_t t1 = clock32();
            bool old = a.store && a.load_word == a.store_word && v != value;
            if (r >= 0)
                kept[r] = ((t1 - t0) & ~OLD_BIT) | (old ? OLD_BIT : 0u);
        }
        __syncwarp();
    }
    for (uint32_t i = threadIdx.x; i < a.repeats; i += 32)
        a.out[i] = kept[i];
}

template <int P> __global__ void __launch_bounds__(32) visibility_kernel(write_args a)
{
    if (threadIdx.x != 0)
        return;
    uint64_t patience = 4 * a.window_cycles + 1000000;
    uint32_t *x = a.targets + a.store_word;
    if (blockIdx.x == 0) {              /* the writer */
        a.vis[1] = smid();
        long long t = clock64_read();
        while (ld_flag(&a.flags[0]) != 1)
            if ((uint64_t)(clock64_read() - t) > patience)
                return;                 /* the reader never came: void */
        __shared__ uint32_t sink;       /* shared, not a local variable: local memory is
                                           cached in the L1 the test looks at */
        volatile uint32_t *vs = &sink;
        *vs = load_global<uint32_t, P>(x);
        *vs = load_global<uint32_t, P>(x) + *vs;
        st_flag(&a.flags[1], 1);
        st_global(x, a.new_value, a.store_cg);
        spin(a.window_cycles);          /* stay: the kernel's end would write back the L1 */
        return;
    }
    a.vis[2] = smid();                  /* the reader */
    st_flag(&a.flags[0], 1);
    long long t = clock64_read();
    while (ld_flag(&a.flags[1]) != 1)
        if ((uint64_t)(clock64_read() - t) > patience) {
            a.vis[0] = -2;
            return;
        }
    long long t0 = clock64_read(), now = t0;
    while ((uint64_t)(now - t0) <= a.window_cycles) {
        uint32_t v = ld_cg(x);
        now = clock64_read();
        if (v == a.new_value) {
            a.vis[0] = now - t0;
            return;
        }
    }
    a.vis[0] = -1;
}

template <int P> static void launch(const gs_write_plan *p, const write_args &a)
{
    if (p->kind == GS_WRITE_VISIBILITY)
        visibility_kernel<P><<<2, 32>>>(a);
    else
        load_after_store_kernel<P><<<1, 32>>>(a);
}

static int launch_path(const gs_write_plan *p, const write_args &a, gs_error *err)
{
    int rc = 0;
    switch (p->path) {
    case GS_PATH_DEFAULT: launch<GS_PATH_DEFAULT>(p, a); break;
    case GS_PATH_CA: launch<GS_PATH_CA>(p, a); break;
    case GS_PATH_CG: launch<GS_PATH_CG>(p, a); break;
    case GS_PATH_CV: launch<GS_PATH_CV>(p, a); break;
    default: launch<GS_PATH_NC>(p, a); break;
    }
    CUDA_LAUNCH_CHECK();
fail:
    return rc;
}

static int check_plan(const gs_write_plan *p, gs_error *err)
{
    int rc = gs_write_plan_check(p, err);
    if (!rc && p->repeats > WRITE_MAX_REPEATS)
        rc = gs_fail(err, GS_ERR_USAGE, "write plan: at most %d repeats", WRITE_MAX_REPEATS);
    return rc;
}

/* VISIBILITY: one launch per repetition, on a fresh line. */
static int run_visibility(const gs_write_plan *p, write_args a, gs_write_result *out,
                          gs_error *err)
{
    int rc = 0;
    uint32_t *line0 = a.targets;
    for (unsigned r = 0; r < p->repeats; r++) {
        long long vis[3] = {-2, -1, -1};
        a.targets = line0 + (uint64_t)(r + 1) * a.line_words;
        a.new_value = 0x5a000001u + r;
        CUDA_TRY(cudaMemset(a.flags, 0, 2 * sizeof *a.flags));
        CUDA_TRY(cudaMemcpy(a.vis, vis, sizeof vis, cudaMemcpyHostToDevice));
        if ((rc = launch_path(p, a, err)))
            goto fail;
        CUDA_TRY(cudaMemcpy(vis, a.vis, sizeof vis, cudaMemcpyDeviceToHost));
        bool void_rep = vis[0] == -2 || vis[1] < 0 || vis[1] == vis[2];
        out->cycles[out->n++] = vis[0] >= 0 && !void_rep ? (double)vis[0] : NAN;
        out->void_repeats += void_rep;
        out->seen += vis[0] >= 0 && !void_rep;
        out->sm_id = (int)vis[1];
        out->reader_sm_id = (int)vis[2];
    }
fail:
    return rc;
}

int gs_cuda_write(gs_backend *b, const gs_write_plan *p, gs_write_result *out, gs_error *err)
{
    int rc = check_plan(p, err);
    if (rc)
        return rc;
    uint64_t target_bytes = (uint64_t)(p->repeats + 1) * p->line_bytes;
    write_args a = {};
    uint32_t *kept = NULL;
    a.line_words = p->line_bytes / 4;
    a.store_word = p->store_offset_bytes / 4;
    a.load_word = p->load_offset_bytes / 4;
    a.in_l1 = p->line_in_l1, a.store = p->store, a.store_cg = p->store_op == GS_STORE_CG;
    a.evict_bytes = p->evict_bytes;
    a.evict_stride_words = p->evict_stride_bytes / 4;
    a.settle_cycles = p->settle_cycles;
    a.repeats = p->repeats;
    a.window_cycles = p->window_cycles;
    a.new_value = 0x5a000001u;
    out->n = 0;
    out->old_values = out->seen = out->void_repeats = 0;
    out->sm_id = out->reader_sm_id = -1;
    CUDA_TRY(cudaSetDevice(gs_cuda_of(b)->ordinal));
    CUDA_TRY(cudaMalloc(&a.targets, target_bytes));
    CUDA_TRY(cudaMemset(a.targets, 0, target_bytes));
    if (p->kind == GS_WRITE_VISIBILITY) {
        CUDA_TRY(cudaMalloc(&a.flags, 2 * sizeof *a.flags));
        CUDA_TRY(cudaMalloc(&a.vis, 3 * sizeof *a.vis));
        rc = run_visibility(p, a, out, err);
        goto fail;
    }
    if (!p->line_in_l1 && p->evict_bytes) {
        CUDA_TRY(cudaMalloc((void **)&a.evict, p->evict_bytes));
        CUDA_TRY(cudaMemset((void *)a.evict, 0, p->evict_bytes));
    }
    CUDA_TRY(cudaMalloc(&a.out, p->repeats * sizeof *a.out));
    if ((rc = launch_path(p, a, err)))
        goto fail;
    kept = (uint32_t *)malloc(p->repeats * sizeof *kept);
    if (!kept) {
        rc = gs_fail(err, GS_ERR_NO_MEMORY, "out of host memory for %u latencies", p->repeats);
        goto fail;
    }
    CUDA_TRY(cudaMemcpy(kept, a.out, p->repeats * sizeof *kept, cudaMemcpyDeviceToHost));
    for (unsigned r = 0; r < p->repeats; r++) {
        out->cycles[out->n++] = (double)(kept[r] & ~OLD_BIT);
        out->old_values += (kept[r] & OLD_BIT) != 0;
    }
fail:
    free(kept);
    cudaFree(a.targets);
    cudaFree((void *)a.evict);
    cudaFree(a.out);
    cudaFree(a.flags);
    cudaFree(a.vis);
    return rc;
}
