/* The CUDA backend's evict operation (plan.h, gs_evict_plan): prime+probe on the L2 for the
 * eviction-set search of the cache probe (docs/methods.md, "L2 sets and ways"). The targets'
 * loads run in one thread, in order, each timed as one access of the fine-grained chase
 * (chase_kernels.cu): clock, ld.global.cg, a shared store of the value (it waits for the data),
 * clock. A pool pass is a launch of its own, its threads reading the pool's lines with
 * ld.global.cg through an index array (32-bit word indices, read with ld.global.cs, evict-first,
 * so that the array takes as little of the L2 from the pool as it can); kernels on one stream run
 * in order, so a pass has ended before the probe starts. By default every launch of a plan runs
 * on one SM: twice (targets) or four times (pool) as many blocks as SMs are launched, those
 * elsewhere return at once, and the blocks on the plan's SM take chunks of the list from a
 * shared cursor (as the pinned chase does, chase_kernels.cu); with all_sms a pool pass is a
 * grid-stride loop over the whole device. The buffers are kept from one
 * plan to the next (a search runs thousands of plans) and released at the backend's close. */
#include <stdlib.h>
#include <string.h>

#include "cuda/cuda_internal.h"
#include "cuda/device_loads.cuh"

#define POOL_THREADS 256
#define POOL_BLOCKS_PER_SM 4
#define ONE_SM_THREADS 512           /* a one-SM pool pass: up to 4 blocks on the SM at once */
#define ONE_SM_UNROLL 8              /* lines in flight per thread */
#define ONE_SM_CHUNK (ONE_SM_THREADS * ONE_SM_UNROLL)
#define NO_WORD 0xffffffffu          /* no word index is this (footprints stop below 32 GB) */

/* Counters of the one-SM launches, in the small buffer: the pool pass's cursor and the
 * target launch's claim are cleared before each launch, the others once per plan. */
enum { WORK_CURSOR, WORK_CLAIM, WORK_LINES_READ, WORK_TARGET_RUNS, WORK_WORDS };
#define FLIP 0x5eed5eed5eed5eedull   /* a value no load returns (the buffer is zeroed) */

/* Device buffers of the operation: the footprint (zeroed once), the pool's word indices, and
 * the targets with their results. */
static struct {
    int ordinal;
    uint64_t *data;
    size_t data_bytes;
    uint32_t *index;
    size_t index_bytes;
    uint64_t *small;              /* the targets, a word of sink, then the results */
} bufs = { -1, NULL, 0, NULL, 0, NULL };

#define SINK_WORD GS_EVICT_MAX_TARGETS
#define WORK_WORD (GS_EVICT_MAX_TARGETS + 1)  /* the one-SM launches' counters, enum below */
#define RESULTS_WORD (GS_EVICT_MAX_TARGETS + 1 + WORK_WORDS)
/* per repetition: each target's hit and probe cycles, then the SMs of the two target launches */
#define PER_REPEAT(n) (2 * (n) + 2)
#define SMALL_BYTES (RESULTS_WORD * 8 + \
                     GS_EVICT_MAX_REPEATS * PER_REPEAT(GS_EVICT_MAX_TARGETS) * sizeof(uint32_t))

void gs_cuda_evict_release(void)
{
    if (bufs.ordinal >= 0 && cudaSetDevice(bufs.ordinal) == cudaSuccess) {
        (void)cudaFree(bufs.data);
        (void)cudaFree(bufs.index);
        (void)cudaFree(bufs.small);
    }
    (void)cudaGetLastError();
    bufs.ordinal = -1;
    bufs.data = NULL, bufs.index = NULL, bufs.small = NULL;
    bufs.data_bytes = bufs.index_bytes = 0;
}

static __device__ __forceinline__ uint32_t ld_cs_u32(const uint32_t *p)
{
    uint32_t v;
    asm volatile("ld.global.cs.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
    return v;
}

/* One pool pass: every thread reads its share of the lines; the xor of what it read is stored
 * only if it equals a value no load returns, so no load can be left out. */
__global__ void evict_pool_kernel(const uint64_t *data, const uint32_t *index, size_t n,
                                  uint64_t *sink)
{
    uint64_t acc = 0;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x)
        acc ^= ld_cg(data + ld_cs_u32(index + i));
    if (acc == FLIP)
        *sink = acc;
}

static __device__ __forceinline__ unsigned smid(void)
{
    unsigned s;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(s));
    return s;
}

/* One pool pass on SM pin: the blocks there take chunks of the list from work[WORK_CURSOR] until
 * it is read, each thread ONE_SM_UNROLL lines of a chunk at once (the index loads first, then the
 * lines), and add what they read to work[WORK_LINES_READ]. */
__global__ void evict_pool_one_sm_kernel(const uint64_t *data, const uint32_t *index, size_t n,
                                         unsigned pin, unsigned long long *work, uint64_t *sink)
{
    __shared__ unsigned long long start;
    uint64_t acc = 0;
    unsigned long long read = 0;
    if (smid() != pin)
        return;
    for (;;) {
        if (threadIdx.x == 0)
            start = atomicAdd(&work[WORK_CURSOR], (unsigned long long)ONE_SM_CHUNK);
        __syncthreads();
        unsigned long long c = start;
        __syncthreads();              /* every thread has c before thread 0 takes the next */
        if (c >= n)
            break;                    /* the whole block at once: c is the block's */
        uint32_t w[ONE_SM_UNROLL];
#pragma unroll
        for (unsigned k = 0; k < ONE_SM_UNROLL; k++) {
            unsigned long long i = c + threadIdx.x + (unsigned long long)k * blockDim.x;
            w[k] = i < n && i < c + ONE_SM_CHUNK ? ld_cs_u32(index + i) : NO_WORD;
        }
#pragma unroll
        for (unsigned k = 0; k < ONE_SM_UNROLL; k++)
            if (w[k] != NO_WORD) {
                acc ^= ld_cg(data + w[k]);
                read++;
            }
    }
    if (read)
        atomicAdd(&work[WORK_LINES_READ], read);
    if (acc == FLIP)
        *sink = acc;
}

/* The targets' offsets, passed by value: the launch reads them from its parameters, not from
 * global memory, so the probes' launch looks up no line of the L2 but the targets' (and what the
 * launch itself fetches: its code and parameters), and the counters count the targets. */
typedef struct target_list {
    uint64_t offset[GS_EVICT_MAX_TARGETS];
} target_list;

/* The targets' loads, one thread: with hit, each target is loaded, then loaded again timed;
 * else each is loaded once, timed. cycles gets one latency per target, sm the SM it ran on.
 * With pin >= 0 only the first block on SM pin runs (work: the claim and the count of runs). */
__global__ void evict_targets_kernel(const uint64_t *data, const __grid_constant__ target_list
                                     targets, unsigned n, int hit, int pin,
                                     unsigned long long *work, uint32_t *cycles, uint32_t *sm)
{
    __shared__ volatile uint64_t sink[2];
    if (threadIdx.x != 0)
        return;
    if (pin >= 0) {
        if (smid() != (unsigned)pin || atomicAdd(&work[WORK_CLAIM], 1ull) != 0)
            return;
        atomicAdd(&work[WORK_TARGET_RUNS], 1ull);
    }
    for (unsigned i = 0; i < n; i++) {
        const uint64_t *p = data + targets.offset[i] / 8;
        asm volatile("" : "+l"(p));   /* the address is ready before the first clock read */
        if (hit)
            sink[0] = ld_cg(p);
        long long t0 = clock64_read();
        /* the address waits for t0 (never negative), else ptxas may issue the load before the
         * clock read: an H100 timed the first target at 4 cycles, hit or miss */
        uint64_t v = ld_cg(p + (t0 < 0));
        sink[1] = v;                  /* waits for the load: t1 is read after it arrived */
        long long t1 = clock64_read();
        cycles[i] = (uint32_t)(t1 - t0);
    }
    *sm = smid();
}

/* A buffer of at least bytes (gs_cuda_grow: a search's pools shrink, so this happens a few
 * times per run), zeroed when fresh if zero is set. */
static int grow(void **buf, size_t *have, size_t bytes, bool zero, gs_error *err)
{
    int rc = 0;
    bool grown = false;
    CUDA_TRY(gs_cuda_grow(buf, have, bytes, &grown));
    if (zero && grown)
        CUDA_TRY(cudaMemset(*buf, 0, *have));
fail:
    return rc;
}

static int buffers(int ordinal, const gs_evict_plan *p, gs_error *err)
{
    int rc = 0;
    size_t small_have;
    if (bufs.ordinal != ordinal)
        gs_cuda_evict_release();
    CUDA_TRY(cudaSetDevice(ordinal));
    bufs.ordinal = ordinal;
    small_have = bufs.small ? SMALL_BYTES : 0;
    rc = grow((void **)&bufs.data, &bufs.data_bytes, p->footprint_bytes, true, err);
    if (!rc)
        rc = grow((void **)&bufs.index, &bufs.index_bytes,
                  (p->n_pool ? p->n_pool : 1) * sizeof(uint32_t), false, err);
    if (!rc)
        rc = grow((void **)&bufs.small, &small_have, SMALL_BYTES, true, err);
fail:
    return rc;
}

/* The pool as 8-byte word indices into the buffer, uploaded. */
static int upload(const gs_evict_plan *p, gs_error *err)
{
    int rc = 0;
    uint32_t *host = NULL;
    if (!p->n_pool)
        return 0;
    if (p->footprint_bytes / 8 > UINT32_MAX)
        return gs_fail(err, GS_ERR_UNSUPPORTED, "evict plan: a %llu B footprint is past the "
                       "32-bit word indices of the pool (32 GB)",
                       (unsigned long long)p->footprint_bytes);
    host = (uint32_t *)malloc(p->n_pool * sizeof *host);
    if (!host)
        return gs_fail(err, GS_ERR_NO_MEMORY, "out of host memory");
    for (size_t i = 0; i < p->n_pool; i++)
        host[i] = (uint32_t)(p->pool[i] / 8);
    CUDA_TRY(cudaMemcpy(bufs.index, host, p->n_pool * sizeof *host, cudaMemcpyHostToDevice));
fail:
    free(host);
    return rc;
}

static unsigned long long *work_counters(void)
{
    return (unsigned long long *)(bufs.small + WORK_WORD);
}

/* Clear one counter of the one-SM launches, in stream order. */
static cudaError_t clear(unsigned word)
{
    return cudaMemsetAsync(work_counters() + word, 0, sizeof(unsigned long long));
}

static int pool_passes(const gs_evict_plan *p, unsigned passes, unsigned sms, gs_error *err)
{
    int rc = 0;
    for (unsigned k = 0; k < passes && p->n_pool; k++) {
        if (p->all_sms) {
            evict_pool_kernel<<<sms * POOL_BLOCKS_PER_SM, POOL_THREADS>>>(
                bufs.data, bufs.index, p->n_pool, bufs.small + SINK_WORD);
        } else {
            CUDA_TRY(clear(WORK_CURSOR));
            evict_pool_one_sm_kernel<<<sms * POOL_BLOCKS_PER_SM, ONE_SM_THREADS>>>(
                bufs.data, bufs.index, p->n_pool, p->sm, work_counters(),
                bufs.small + SINK_WORD);
        }
        CUDA_TRY(cudaGetLastError());
    }
fail:
    return rc;
}

static int targets(const gs_evict_plan *p, int hit, unsigned sms, uint32_t *cycles, uint32_t *sm,
                   gs_error *err)
{
    int rc = 0;
    int pin = p->all_sms ? -1 : (int)p->sm;
    target_list list;
    memset(&list, 0, sizeof list);
    memcpy(list.offset, p->targets, p->n_targets * sizeof *p->targets);
    if (pin >= 0)
        CUDA_TRY(clear(WORK_CLAIM));
    evict_targets_kernel<<<pin >= 0 ? 2 * sms : 1, 32>>>(bufs.data, list, (unsigned)p->n_targets,
                                                         hit, pin, work_counters(), cycles, sm);
    CUDA_TRY(cudaGetLastError());
fail:
    return rc;
}

/* The probes' launch; with count_l2, alone inside a counted range (cupti.cu), its L2 sector
 * lookup hits and misses added to out. */
static int probes(const gs_evict_plan *p, unsigned sms, uint32_t *cycles, uint32_t *sm,
                  gs_evict_result *out, gs_error *err)
{
    uint64_t hit = 0, miss = 0;
    int rc = p->count_l2 ? gs_cuda_counters_begin(err) : 0;
    if (rc)
        return rc;                    /* nothing started: nothing to end */
    rc = targets(p, 0, sms, cycles, sm, err);
    if (p->count_l2) {                /* the range ends whether the launch started or not */
        gs_error end_err;
        int end = gs_cuda_counters_end(&hit, &miss, rc ? &end_err : err);
        rc = rc ? rc : end;
    }
    out->l2_hit_sectors += hit;
    out->l2_miss_sectors += miss;
    return rc;
}

/* Every repetition's launches, in stream order; cycles and sms get (per repetition) the hits,
 * then the probes, and the two SMs. */
static int run(const gs_evict_plan *p, unsigned sms, uint32_t *cycles, uint32_t *sm_of,
               gs_evict_result *out, gs_error *err)
{
    int rc = 0;
    unsigned n = (unsigned)p->n_targets;
    CUDA_TRY(clear(WORK_LINES_READ));
    CUDA_TRY(clear(WORK_TARGET_RUNS));
    for (unsigned r = 0; r < p->repeats && !rc; r++) {
        rc = pool_passes(p, p->warm_passes, sms, err);
        if (!rc)
            rc = targets(p, 1, sms, cycles + 2 * r * n, sm_of + 2 * r, err);
        if (!rc)
            rc = pool_passes(p, p->pool_passes, sms, err);
        if (!rc)
            rc = probes(p, sms, cycles + (2 * r + 1) * n, sm_of + 2 * r + 1, out, err);
    }
fail:
    return rc;
}

/* On one SM: whether its blocks read every pool line and ran every target launch (a process
 * limited to some SMs, as under MPS, may have none there). */
static int one_sm_ran(const gs_evict_plan *p, gs_error *err)
{
    int rc = 0;
    unsigned long long work[WORK_WORDS];
    unsigned long long lines = (unsigned long long)p->n_pool * p->repeats *
                               (p->warm_passes + p->pool_passes);
    if (p->all_sms)
        return 0;
    CUDA_TRY(cudaMemcpy(work, work_counters(), sizeof work, cudaMemcpyDeviceToHost));
    if (work[WORK_LINES_READ] != lines || work[WORK_TARGET_RUNS] != 2ull * p->repeats)
        return gs_fail(err, GS_ERR_UNSUPPORTED, "evict plan: SM %u ran %llu of %llu pool line "
                       "reads and %llu of %u target launches (no block of this process reached "
                       "it, as under MPS: name another SM)", p->sm,
                       work[WORK_LINES_READ], lines, work[WORK_TARGET_RUNS], 2 * p->repeats);
fail:
    return rc;
}

int gs_cuda_evict(gs_backend *b, const gs_evict_plan *plan, gs_evict_result *out,
                  gs_error *err)
{
    int rc = gs_evict_plan_check(plan, out, err);
    gs_cuda *c = gs_cuda_of(b);
    size_t n = plan->n_targets, per = PER_REPEAT(n);
    unsigned sms = (unsigned)c->prop.multiProcessorCount;
    uint32_t *dev, *host = NULL;
    out->n = 0;
    out->sm_moves = 0;
    out->l2_hit_sectors = out->l2_miss_sectors = 0;
    if (!rc && !plan->all_sms && plan->sm >= sms)
        rc = gs_fail(err, GS_ERR_USAGE, "evict plan: SM %u, the device has %u", plan->sm, sms);
    if (!rc)
        rc = buffers(c->ordinal, plan, err);
    if (!rc)
        rc = upload(plan, err);
    if (rc)
        return rc;
    dev = (uint32_t *)(bufs.small + RESULTS_WORD);
    host = (uint32_t *)malloc(plan->repeats * per * sizeof *host);
    if (!host)
        return gs_fail(err, GS_ERR_NO_MEMORY, "out of host memory");
    rc = run(plan, sms, dev, dev + plan->repeats * 2 * n, out, err);
    if (!rc)
        rc = one_sm_ran(plan, err);
    if (rc)
        goto fail;
    CUDA_TRY(cudaMemcpy(host, dev, plan->repeats * per * sizeof *host, cudaMemcpyDeviceToHost));
    CUDA_TRY(cudaGetLastError());
    for (unsigned r = 0; r < plan->repeats; r++) {
        const uint32_t *sm = host + plan->repeats * 2 * n + 2 * r;
        for (size_t i = 0; i < n; i++) {
            out->hit_cycles[r * n + i] = host[2 * r * n + i];
            out->probe_cycles[r * n + i] = host[(2 * r + 1) * n + i];
        }
        out->sm_moves += sm[0] != sm[1];
    }
    out->n = plan->repeats;
fail:
    free(host);
    return rc;
}
