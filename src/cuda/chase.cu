/* The CUDA backend's chase operation, host side: checks a gs_chase_plan against the device,
 * writes the chain where the plan's space says (device memory, aliased virtual memory, constant
 * memory, or an image that the kernel copies into shared or local memory), runs the kernel of
 * chase_kernels.cu, verifies that the chase followed the chain, and fills gs_chase_result.
 * Only visited elements are written; aliased global chains hold distances (chase_kernels.cu).
 * No warm-up (warmup_passes and warmup_accesses 0) means cold caches: after the chain is
 * written, a buffer of twice the L2 size is written to evict it. Everything taken is released on
 * every path (one job struct, one release function), except an aliased footprint's mapping: the
 * backend keeps it for the next aliased chase (vmm.h; mapping costs more than the chase), the
 * last chain (kept, below) and the eviction buffer (flush, below), released at its close. */
#include <stdlib.h>
#include <string.h>

#include "cuda/chase_kernels.h"
#include "cuda/cuda_internal.h"
#include "cuda/vmm.h"

typedef struct chase_job {
    const gs_chase_plan *plan;
    gs_cuda *c;
    int path;                         /* resolved GS_PATH_* */
    bool delta;                       /* aliased global chain: elements hold distances */
    uint64_t cursor_mask;             /* delta: distances modulo cursor_mask + 1 */
    unsigned lanes, walkers;
    int pin_sm;                       /* one walker on this SM (-1: block 0 wherever it lands) */
    uint64_t timed;
    size_t trace_bytes, smem_chain_bytes;
    /* host */
    uint64_t *off, *val;              /* visited elements (chain_len * lanes) */
    size_t elems;
    unsigned char *image;             /* const/shared/local: chain image of footprint bytes */
    uint64_t *start, *final_cursor;
    long long *cycles;
    unsigned long long *ns;
    uint32_t *trace, *sm_id;
    /* device */
    char *buf;                        /* cudaMalloc'd footprint, or NULL with vmm */
    gs_vmm *vmm;                      /* aliased footprint: the backend's (gs_cuda.aliases) */
    char *base;                       /* where offsets count from (buf or vmm->va) */
    uint64_t *d_off, *d_val, *d_start, *d_final;
    uint4 *d_image;
    long long *d_cycles;
    unsigned long long *d_ns;
    uint32_t *d_trace, *d_sm_id;
    unsigned *d_claim;                /* pinned: blocks that took the walk */
    bool warmed;                      /* a split or windowed warm-up ran: the walk times at once */
    cudaTextureObject_t tex;
    bool have_tex;
} chase_job;

/* The small device buffers of a chase (the chain's offsets and cursors to scatter, the image,
 * the start and final cursors, clocks, trace, SMs and claim), kept from one chase to the next and
 * grown as needed (gs_cuda_grow): a report runs thousands of chases, and ten cudaMalloc and
 * cudaFree pairs each were a large share of a short chase's time. The footprint itself is
 * allocated per chase (malloc_footprint). Every chase writes (or zeroes) what it reads of them
 * before its kernels run. */
enum { POOL_OFF, POOL_VAL, POOL_IMAGE, POOL_START, POOL_FINAL, POOL_CYCLES, POOL_NS, POOL_TRACE,
       POOL_SM_ID, POOL_CLAIM, POOL_N };
static struct {
    int ordinal;
    void *buf[POOL_N];
    size_t bytes[POOL_N];
} pool = { -1, { NULL }, { 0 } };

void gs_cuda_chase_pool_release(void)
{
    if (pool.ordinal >= 0 && cudaSetDevice(pool.ordinal) == cudaSuccess)
        for (int i = 0; i < POOL_N; i++)
            (void)cudaFree(pool.buf[i]);
    (void)cudaGetLastError();
    for (int i = 0; i < POOL_N; i++)
        pool.buf[i] = NULL, pool.bytes[i] = 0;
    pool.ordinal = -1;
}

/* Pool buffer k of at least bytes on the job's device, into *out. */
static cudaError_t take(const chase_job *j, int k, size_t bytes, void **out)
{
    if (pool.ordinal != j->c->ordinal)
        gs_cuda_chase_pool_release();
    bool grown = false;
    cudaError_t e = gs_cuda_grow(&pool.buf[k], &pool.bytes[k], bytes ? bytes : 16, &grown);
    if (e != cudaSuccess)
        return e;
    pool.ordinal = j->c->ordinal;
    gs_cuda_spare_register(gs_cuda_chase_pool_release);
    *out = pool.buf[k];
    return cudaSuccess;
}
#define TAKE(k, ptr, bytes) take(j, (k), (bytes), (void **)&(ptr))

static void job_release(chase_job *j)
{
    if (j->have_tex)
        (void)cudaDestroyTextureObject(j->tex);
    if (j->buf)                       /* the pool's buffers stay for the next chase */
        (void)cudaFree(j->buf);
    free(j->off), free(j->val), free(j->image), free(j->start), free(j->final_cursor);
    free(j->cycles), free(j->ns), free(j->trace), free(j->sm_id);
}

/* Which load path a plan's space and path mean together. */
static int resolve_path(const gs_chase_plan *p, int *path, gs_error *err)
{
    gs_load_path want = p->path;
    switch (p->space) {
    case GS_SPACE_GLOBAL:
        if (want <= GS_PATH_CONST) {
            *path = want;
            return 0;
        }
        break;
    case GS_SPACE_TEXTURE:
        if (want == GS_PATH_DEFAULT || want == GS_PATH_TEX)
            return *path = GS_PATH_TEX, 0;
        break;
    case GS_SPACE_CONSTANT:
        if (want == GS_PATH_DEFAULT || want == GS_PATH_CONST)
            return *path = GS_PATH_CONST, 0;
        break;
    case GS_SPACE_SHARED:
        if (want == GS_PATH_DEFAULT || want == GS_PATH_SHARED)
            return *path = GS_PATH_SHARED, 0;
        break;
    case GS_SPACE_LOCAL:
        if (want == GS_PATH_DEFAULT || want == GS_PATH_LOCAL)
            return *path = GS_PATH_LOCAL, 0;
        break;
    }
    return gs_fail(err, GS_ERR_UNSUPPORTED, "chase: load path '%s' does not read the %s space; "
                   "use the space's own path or 'default'", gs_path_name(want),
                   gs_space_name(p->space));
}

static uint64_t round16(uint64_t x) { return (x + 15) / 16 * 16; }

/* The plan's own consistency (usage errors). */
static int check_plan_shape(const gs_chase_plan *p, gs_error *err)
{
    unsigned eb = p->element_bytes, lanes = p->lanes ? p->lanes : 1;
    if (eb != 4 && eb != 8)
        return gs_fail(err, GS_ERR_USAGE, "chase: element_bytes is %u; use 4 or 8", eb);
    if (!p->chain || p->chain_len == 0)
        return gs_fail(err, GS_ERR_USAGE, "chase: the chain is empty");
    if (lanes > 32)
        return gs_fail(err, GS_ERR_USAGE, "chase: lanes is %u; a warp has 32", lanes);
    if (p->base_align_bytes & (p->base_align_bytes - 1))
        return gs_fail(err, GS_ERR_USAGE, "chase: base_align_bytes %llu is not a power of two",
                       (unsigned long long)p->base_align_bytes);
    if (p->lane_stride_bytes % eb || (lanes > 1 && p->lane_stride_bytes == 0))
        return gs_fail(err, GS_ERR_USAGE, "chase: lane_stride_bytes %llu must be a nonzero "
                       "multiple of element_bytes (%u) with %u lanes",
                       (unsigned long long)p->lane_stride_bytes, eb, lanes);
    if (p->carveout_percent < -1 || p->carveout_percent > 100)
        return gs_fail(err, GS_ERR_USAGE, "chase: carveout_percent %d is outside -1..100",
                       p->carveout_percent);
    uint64_t span = (uint64_t)(lanes - 1) * p->lane_stride_bytes + eb;
    for (size_t i = 0; i < p->chain_len; i++) {
        uint64_t o = p->chain[i];
        if (o % eb || o + span > p->footprint_bytes || o + span < o)
            return gs_fail(err, GS_ERR_USAGE, "chase: chain[%zu] = %llu is not a multiple of %u "
                           "bytes inside the %llu-byte footprint (with %u lanes %llu bytes apart)",
                           i, (unsigned long long)o, eb, (unsigned long long)p->footprint_bytes,
                           lanes, (unsigned long long)p->lane_stride_bytes);
    }
    return 0;
}

/* The trace capacity (out->record_capacity): 2-byte entries in the plan's smem_bytes, or else in
 * the opt-in shared memory beside the kernel's static shared memory, less the shared-space chain
 * and a scratch entry; and whether the plan fits in it. */
static int check_trace_capacity(chase_job *j, const void *kernel, gs_chase_result *out,
                                gs_error *err)
{
    int rc = 0;
    const gs_chase_plan *p = j->plan;
    const cudaDeviceProp *prop = &j->c->prop;
    cudaFuncAttributes fa;
    CUDA_TRY(cudaFuncGetAttributes(&fa, kernel));
    {
        uint64_t optin = prop->sharedMemPerBlockOptin, fixed = fa.sharedSizeBytes;
        uint64_t dyn_max = optin > fixed ? optin - fixed : 0;
        j->smem_chain_bytes = j->path == GS_PATH_SHARED ? round16(p->footprint_bytes) : 0;
        if (p->smem_bytes > dyn_max)
            return gs_fail(err, GS_ERR_UNSUPPORTED, "chase: smem_bytes %llu exceeds the %llu bytes "
                           "of dynamic shared memory a block may opt in to on this device",
                           (unsigned long long)p->smem_bytes, (unsigned long long)dyn_max);
        uint64_t budget = p->smem_bytes ? p->smem_bytes : dyn_max;
        uint64_t avail = budget > j->smem_chain_bytes ? budget - j->smem_chain_bytes : 0;
        size_t entries = (size_t)(avail / 16 * 16 / 2);
        out->record_capacity = entries > 1 ? entries - 1 : 0;
        if (j->path == GS_PATH_SHARED && j->smem_chain_bytes > dyn_max)
            return gs_fail(err, GS_ERR_UNSUPPORTED, "chase: a %llu-byte shared-memory footprint "
                           "exceeds the %llu bytes of shared memory a block may opt in to",
                           (unsigned long long)p->footprint_bytes, (unsigned long long)dyn_max);
        if (p->record_n > out->record_capacity)
            return gs_fail(err, GS_ERR_UNSUPPORTED, "chase: record_n %zu exceeds the on-chip trace "
                           "buffer: %zu entries of 2 bytes fit in %llu bytes of shared memory%s; "
                           "record fewer accesses%s", p->record_n, out->record_capacity,
                           (unsigned long long)budget,
                           j->path == GS_PATH_SHARED ? " beside the shared-memory chain" : "",
                           p->smem_bytes ? " or raise smem_bytes" : "");
    }
fail:
    return rc;
}

/* What this device can hold for the plan's space. */
static int check_device_limits(chase_job *j, gs_error *err)
{
    int rc = 0;
    const gs_chase_plan *p = j->plan;
    const cudaDeviceProp *prop = &j->c->prop;
    if (j->path == GS_PATH_CONST) {
        uint64_t lim = (uint64_t)GS_CONST_CHAIN_BYTES;
        if (prop->totalConstMem < lim)
            lim = prop->totalConstMem;
        if (p->footprint_bytes > lim)
            return gs_fail(err, GS_ERR_UNSUPPORTED, "chase: a %llu-byte constant footprint exceeds "
                           "the %llu-byte constant chain array", (unsigned long long)p->footprint_bytes,
                           (unsigned long long)lim);
    }
    if (j->path == GS_PATH_LOCAL && p->footprint_bytes > GS_LOCAL_CHAIN_BYTES)
        return gs_fail(err, GS_ERR_UNSUPPORTED, "chase: a %llu-byte local footprint exceeds the "
                       "%d-byte local chain array of the kernel", (unsigned long long)p->footprint_bytes,
                       GS_LOCAL_CHAIN_BYTES);
    if (j->path == GS_PATH_TEX) {
        int width = 0;
        CUDA_TRY(cudaDeviceGetAttribute(&width, cudaDevAttrMaxTexture1DLinearWidth, j->c->ordinal));
        uint64_t n = p->footprint_bytes / p->element_bytes, lim = (uint64_t)width;
        if (n > lim)
            return gs_fail(err, GS_ERR_UNSUPPORTED, "chase: %llu texture elements exceed the "
                           "device's linear texture limit of %llu", (unsigned long long)n,
                           (unsigned long long)lim);
    }
    if (p->element_bytes == 4 && p->footprint_bytes > 0xffffffffull && j->path != GS_PATH_TEX)
        return gs_fail(err, GS_ERR_UNSUPPORTED, "chase: 4-byte elements hold offsets below 4 GB, "
                       "but the footprint is %llu bytes; use element_bytes 8",
                       (unsigned long long)p->footprint_bytes);
fail:
    return rc;
}

/* ---- the chain: visited elements, what they hold, where they land ------------------------- */
static bool global_pointer_cursors(const chase_job *j)
{
    return !j->delta && j->plan->element_bytes == 8 && j->path <= GS_PATH_NC;
}

/* The cursor that names the element at byte offset off (see chase_kernels.cu's header). */
static uint64_t cursor_of(const chase_job *j, uint64_t off)
{
    if (global_pointer_cursors(j))
        return (uint64_t)(uintptr_t)j->base + off;
    if (j->path == GS_PATH_TEX)
        return off / j->plan->element_bytes;
    return off;
}

static uint64_t lane_add(const chase_job *j)
{
    uint64_t ls = j->plan->lane_stride_bytes;
    return j->path == GS_PATH_TEX ? ls / j->plan->element_bytes : ls;
}

/* off/val of every visited element: lane i's copy of chain element k is at chain[k] + i * stride
 * and holds the cursor of chain[k + 1] (wrapping) displaced likewise. */
static int build_elements(chase_job *j, gs_error *err)
{
    const gs_chase_plan *p = j->plan;
    j->elems = p->chain_len * j->lanes;
    j->off = (uint64_t *)malloc(j->elems * sizeof *j->off);
    j->val = (uint64_t *)malloc(j->elems * sizeof *j->val);
    if (!j->off || !j->val)
        return gs_fail(err, GS_ERR_NO_MEMORY, "chase: out of host memory for a %zu-element chain",
                       j->elems);
    /* no division per element (tens of cycles each; a report builds some 10 million elements) */
    uint64_t add = lane_add(j);
    for (size_t k = 0; k < p->chain_len; k++) {
        uint64_t after = p->chain[k + 1 < p->chain_len ? k + 1 : 0];
        uint64_t next = j->delta ? (after - p->chain[k]) & j->cursor_mask : cursor_of(j, after);
        for (unsigned i = 0; i < j->lanes; i++) {
            j->off[k * j->lanes + i] = p->chain[k] + i * p->lane_stride_bytes;
            j->val[k * j->lanes + i] = j->delta ? next : next + i * add;
        }
    }
    return 0;
}

typedef struct chase_slot {
    uint64_t phys, val, off;
} chase_slot;

static int cmp_slot(const void *a, const void *b)
{
    const chase_slot *x = (const chase_slot *)a, *y = (const chase_slot *)b;
    return (x->phys > y->phys) - (x->phys < y->phys);
}

/* Two elements on one physical word must hold the same cursor (sorting check). */
static int check_slots_sorted(const chase_job *j, uint64_t phys_bytes, gs_error *err)
{
    chase_slot *s = (chase_slot *)malloc(j->elems * sizeof *s);
    if (!s)
        return gs_fail(err, GS_ERR_NO_MEMORY, "chase: out of host memory checking the chain");
    for (size_t i = 0; i < j->elems; i++)
        s[i] = (chase_slot){j->off[i] % phys_bytes, j->val[i], j->off[i]};
    qsort(s, j->elems, sizeof *s, cmp_slot);
    for (size_t i = 1; i < j->elems; i++)
        if (s[i].phys == s[i - 1].phys && s[i].val != s[i - 1].val) {
            unsigned long long a = s[i - 1].off, b = s[i].off, ph = s[i].phys;
            free(s);
            return gs_fail(err, GS_ERR_UNSUPPORTED, "chase: the elements at offsets %llu and %llu "
                           "land on one physical word (offset %llu of %llu physical bytes) but "
                           "must hold different cursors (a chain that visits one place twice, or "
                           "aliasing); give each element its own place modulo the physical size "
                           "(for example add k * 128 bytes to the k-th) or raise physical_bytes",
                           a, b, ph, (unsigned long long)phys_bytes);
        }
    free(s);
    return 0;
}

/* A bitmap over the physical words finds whether any two elements share one; only then sort. */
static int check_collisions(const chase_job *j, uint64_t phys_bytes, gs_error *err)
{
    uint64_t words = phys_bytes / j->plan->element_bytes;
    if (words / 8 <= (uint64_t)j->elems * 16 + (64ull << 20)) {
        unsigned char *bits = (unsigned char *)calloc(words / 8 + 1, 1);
        bool shared_word = false;
        if (!bits)
            return gs_fail(err, GS_ERR_NO_MEMORY, "chase: out of host memory checking the chain");
        unsigned shift = j->plan->element_bytes == 8 ? 3 : 2;
        for (size_t i = 0; i < j->elems && !shared_word; i++) {
            uint64_t off = j->off[i];
            uint64_t w = (off < phys_bytes ? off : off % phys_bytes) >> shift;
            shared_word = bits[w / 8] & (1u << (w % 8));
            bits[w / 8] |= (unsigned char)(1u << (w % 8));
        }
        free(bits);
        if (!shared_word)
            return 0;
    }
    return check_slots_sorted(j, phys_bytes, err);
}

/* ---- memory ------------------------------------------------------------------------------------ */
/* Accesses before the timed ones: whole passes, or the plan's warmup_accesses. */
static uint64_t warm_accesses(const gs_chase_plan *p)
{
    return p->warmup_accesses ? p->warmup_accesses : (uint64_t)p->warmup_passes * p->chain_len;
}

static bool aliased(const gs_chase_plan *p)
{
    return p->physical_bytes && p->physical_bytes < p->footprint_bytes;
}

/* The footprint and chain of the last keepable chase, kept for the next one (src/cuda only):
 * random-walk's walkers sweep runs the same 1.1 GB chain at 14 walker counts, and allocating,
 * building and scattering it took 0.18 s of each (2.5 s of an H100's default report). A chase
 * never writes its chain, so a plan with the same key finds it as it was left. */
static struct {
    int ordinal;
    char *buf, *base;
    uint64_t footprint, align, key;
} kept = { -1, NULL, NULL, 0, 0, 0 };

void gs_cuda_chase_release(void)
{
    if (kept.buf && cudaSetDevice(kept.ordinal) == cudaSuccess)
        (void)cudaFree(kept.buf);
    (void)cudaGetLastError();
    kept.buf = NULL;
    kept.ordinal = -1;
}

/* What the buffer's contents follow from (FNV-1a): the chain, its element width, lanes and lane
 * stride; only for plans whose cursors do not depend on the path beyond the global loads. */
static uint64_t chain_key(const gs_chase_plan *p)
{
    uint64_t h = 0xcbf29ce484222325ull;
    uint64_t head[4] = {p->chain_len, p->element_bytes, p->lanes, p->lane_stride_bytes};
    for (size_t i = 0; i < 4 + p->chain_len; i++) {
        uint64_t v = i < 4 ? head[i] : p->chain[i - 4];
        for (int b = 0; b < 8; b++)
            h = (h ^ ((v >> (8 * b)) & 0xff)) * 0x100000001b3ull;
    }
    return h;
}

/* Chases of several walkers, and cold chases of several lanes (the sweep's single walker, whose
 * chases came between those of the others and each took the chain's 1.1 GB anew: 0.6 s of an
 * H200's report): a cold chase meets the L2 evicted (evict_l2) however its chain was written.
 * Not the single-lane cold chases (the cold traces of TLB and miss latencies): writing a chain
 * touches every page of it, and what their TLBs hold of that is part of what they time. */
static bool keepable(const chase_job *j)
{
    const gs_chase_plan *p = j->plan;
    return (p->walkers > 1 || (j->lanes > 1 && warm_accesses(p) == 0)) && !aliased(p) &&
           j->path <= GS_PATH_NC;
}

/* cudaMalloc of the footprint, offset 0 at a multiple of the plan's base_align_bytes (plan/chase.h:
 * the footprint plus the alignment is allocated and the chain starts at the first aligned address;
 * cudaMalloc itself promises 256 bytes, and where a small buffer falls depends on every allocation
 * before it). Out of memory once, the aliases kept for TLB chases, the kept chain and the cold
 * chases' eviction buffer go back to the driver and it is tried again. */
static cudaError_t malloc_footprint(chase_job *j)
{
    uint64_t align = j->plan->base_align_bytes > 256 ? j->plan->base_align_bytes : 0;
    size_t bytes = (size_t)(j->plan->footprint_bytes + align);
    cudaError_t e = cudaMalloc((void **)&j->buf, bytes);
    if (e == cudaErrorMemoryAllocation) {
        (void)cudaGetLastError();
        j->buf = NULL;
        gs_vmm_cache_release(&j->c->aliases);
        gs_cuda_chase_release();
        gs_cuda_chase_flush_release();
        e = cudaMalloc((void **)&j->buf, bytes);
    }
    if (e == cudaSuccess)
        j->base = align ? (char *)(((uintptr_t)j->buf + align - 1) & ~(uintptr_t)(align - 1))
                        : j->buf;
    return e;
}

static int alloc_global(chase_job *j, gs_error *err)
{
    int rc = 0;
    const gs_chase_plan *p = j->plan;
    if (aliased(p)) {
        if ((rc = gs_vmm_cache_alias(&j->c->aliases, j->c->ordinal, p->footprint_bytes,
                                     p->physical_bytes, &j->vmm, err)) != 0)
            return rc;
        j->base = (char *)(uintptr_t)j->vmm->va;
        return 0;
    }
    cudaError_t e = malloc_footprint(j);
    if (e == cudaErrorMemoryAllocation) {
        size_t free_bytes = 0, total_bytes = 0;
        (void)cudaGetLastError();
        (void)cudaMemGetInfo(&free_bytes, &total_bytes);
        j->buf = NULL;
        return gs_fail(err, GS_ERR_NO_MEMORY, "chase: no room for a %llu-byte footprint on "
                       "cuda:%d (%llu bytes free); use a smaller footprint, or alias it onto less "
                       "physical memory (physical_bytes < footprint_bytes)",
                       (unsigned long long)p->footprint_bytes, j->c->ordinal,
                       (unsigned long long)free_bytes);
    }
    CUDA_TRY(e);
fail:
    return rc;
}

static int make_texture(chase_job *j, gs_error *err)
{
    int rc = 0;
    unsigned bits = 32;
    cudaResourceDesc res;
    cudaTextureDesc td;
    memset(&res, 0, sizeof res);
    memset(&td, 0, sizeof td);
    res.resType = cudaResourceTypeLinear;
    res.res.linear.devPtr = j->base;
    res.res.linear.desc = j->plan->element_bytes == 8
                              ? cudaCreateChannelDesc(bits, bits, 0, 0, cudaChannelFormatKindUnsigned)
                              : cudaCreateChannelDesc(bits, 0, 0, 0, cudaChannelFormatKindUnsigned);
    res.res.linear.sizeInBytes = j->plan->footprint_bytes;
    td.readMode = cudaReadModeElementType;
    CUDA_TRY(cudaCreateTextureObject(&j->tex, &res, &td, NULL));
    j->have_tex = true;
fail:
    return rc;
}

/* Global and texture (memory already allocated): the elements go to the device and a kernel
 * scatters them. */
static int write_global_chain(chase_job *j, gs_error *err)
{
    int rc = 0;
    size_t bytes = j->elems * sizeof(uint64_t);
    CUDA_TRY(TAKE(POOL_OFF, j->d_off, bytes));
    CUDA_TRY(TAKE(POOL_VAL, j->d_val, bytes));
    CUDA_TRY(cudaMemcpy(j->d_off, j->off, bytes, cudaMemcpyHostToDevice));
    CUDA_TRY(cudaMemcpy(j->d_val, j->val, bytes, cudaMemcpyHostToDevice));
    CUDA_TRY(gs_chase_scatter(j->base, j->d_off, j->d_val, j->elems, j->plan->element_bytes,
                              j->c->prop.multiProcessorCount));
    CUDA_LAUNCH_CHECK();
    if (j->path == GS_PATH_TEX && (rc = make_texture(j, err)) != 0)
        return rc;
fail:
    return rc;
}

/* A windowed warm-up's links (gs_chase_window_of): the 8 bytes after the element at position k
 * hold the cursor of position k + W (wrapping), written as the elements were. */
static int write_window_links(chase_job *j, unsigned w, gs_error *err)
{
    int rc = 0;
    const gs_chase_plan *p = j->plan;
    size_t n = p->chain_len, bytes = n * sizeof(uint64_t);
    for (size_t k = 0; k < n; k++) {
        j->off[k] = p->chain[k] + 8;
        j->val[k] = cursor_of(j, p->chain[k + w < n ? k + w : k + w - n]);
    }
    CUDA_TRY(cudaMemcpy(j->d_off, j->off, bytes, cudaMemcpyHostToDevice));
    CUDA_TRY(cudaMemcpy(j->d_val, j->val, bytes, cudaMemcpyHostToDevice));
    CUDA_TRY(gs_chase_scatter(j->base, j->d_off, j->d_val, n, 8, j->c->prop.multiProcessorCount));
    CUDA_LAUNCH_CHECK();
fail:
    return rc;
}

/* Constant, shared and local: a host image of the footprint; constant memory gets it directly,
 * shared and local through a device copy that the kernel reads in. */
static int write_image_chain(chase_job *j, gs_error *err)
{
    int rc = 0;
    size_t bytes = round16(j->plan->footprint_bytes);
    j->image = (unsigned char *)calloc(bytes, 1);
    if (!j->image)
        return gs_fail(err, GS_ERR_NO_MEMORY, "chase: out of host memory for the chain image");
    for (size_t i = 0; i < j->elems; i++) {
        if (j->plan->element_bytes == 8)
            memcpy(j->image + j->off[i], &j->val[i], 8);
        else {
            uint32_t v = (uint32_t)j->val[i];
            memcpy(j->image + j->off[i], &v, 4);
        }
    }
    if (j->path == GS_PATH_CONST) {
        CUDA_TRY(gs_chase_const_upload(j->image, bytes));
        return 0;
    }
    CUDA_TRY(TAKE(POOL_IMAGE, j->d_image, bytes));
    CUDA_TRY(cudaMemcpy(j->d_image, j->image, bytes, cudaMemcpyHostToDevice));
fail:
    return rc;
}

/* Cold caches without a warm-up: write twice the L2's size elsewhere, into one buffer the backend
 * keeps from the first cold chase to its close. A fresh buffer for every chase
 * leaves the card's page walks in one of two states that differ by about 1050 cycles a walk past
 * every TLB level: writing some freshly allocated buffers put it in the slow one, writing a
 * buffer that earlier chases had written put it back (docs/methods.md, "The page walk's two
 * states"); with one kept buffer every cold chase of a process starts from the same state. */
static struct {
    int ordinal;
    char *buf;
    size_t bytes;
} flush = { -1, NULL, 0 };

void gs_cuda_chase_flush_release(void)
{
    if (flush.buf && cudaSetDevice(flush.ordinal) == cudaSuccess)
        (void)cudaFree(flush.buf);
    (void)cudaGetLastError();
    flush.buf = NULL;
    flush.bytes = 0;
    flush.ordinal = -1;
}

static int evict_l2(chase_job *j, gs_error *err)
{
    int rc = 0;
    size_t bytes = 2 * (size_t)j->c->prop.l2CacheSize;
    if (bytes == 0)
        return 0;
    if (flush.buf && flush.ordinal != j->c->ordinal)
        gs_cuda_chase_flush_release();
    bool grown = false;
    cudaError_t e = gs_cuda_grow((void **)&flush.buf, &flush.bytes, bytes, &grown);
    if (e == cudaErrorMemoryAllocation) {
        (void)cudaGetLastError();
        return gs_fail(err, GS_ERR_NO_MEMORY, "chase: no room for the %zu-byte buffer that "
                       "evicts the chain from L2 before a cold chase; free GPU memory, or use "
                       "warmup_passes >= 1", bytes);
    }
    CUDA_TRY(e);
    gs_cuda_spare_register(gs_cuda_chase_flush_release);
    flush.ordinal = j->c->ordinal;
    CUDA_TRY(cudaMemset(flush.buf, 0x5a, bytes));
    CUDA_TRY(cudaDeviceSynchronize());
fail:
    return rc;
}

/* ---- the run -------------------------------------------------------------------------------- */
static size_t walker_start(const chase_job *j, unsigned w)
{
    return (size_t)((unsigned __int128)w * j->plan->chain_len / j->walkers);
}

/* Where walker w starts: warm_accesses before its timed accesses, which begin at its place. */
static size_t walker_first(const chase_job *j, unsigned w)
{
    size_t n = j->plan->chain_len, back = (size_t)(warm_accesses(j->plan) % n);
    return (walker_start(j, w) + n - back) % n;
}

static int alloc_run_buffers(chase_job *j, gs_error *err)
{
    int rc = 0;
    size_t w = j->walkers, wl = (size_t)j->walkers * j->lanes;
    j->start = (uint64_t *)malloc(w * sizeof *j->start);
    j->final_cursor = (uint64_t *)malloc(wl * sizeof *j->final_cursor);
    j->cycles = (long long *)malloc(2 * w * sizeof *j->cycles);
    j->ns = (unsigned long long *)malloc(2 * w * sizeof *j->ns);
    j->trace = (uint32_t *)malloc((j->plan->record_n + 1) * sizeof *j->trace);
    j->sm_id = (uint32_t *)malloc(w * sizeof *j->sm_id);
    if (!j->start || !j->final_cursor || !j->cycles || !j->ns || !j->trace || !j->sm_id)
        return gs_fail(err, GS_ERR_NO_MEMORY, "chase: out of host memory for %u walkers", j->walkers);
    for (unsigned i = 0; i < j->walkers; i++)
        j->start[i] = cursor_of(j, j->plan->chain[walker_first(j, i)]);
    CUDA_TRY(TAKE(POOL_START, j->d_start, w * sizeof *j->d_start));
    CUDA_TRY(TAKE(POOL_FINAL, j->d_final, wl * sizeof *j->d_final));
    CUDA_TRY(TAKE(POOL_CYCLES, j->d_cycles, 2 * w * sizeof *j->d_cycles));
    CUDA_TRY(TAKE(POOL_NS, j->d_ns, 2 * w * sizeof *j->d_ns));
    CUDA_TRY(TAKE(POOL_TRACE, j->d_trace, (j->plan->record_n + 1) * sizeof *j->d_trace));
    CUDA_TRY(TAKE(POOL_SM_ID, j->d_sm_id, w * sizeof *j->d_sm_id));
    CUDA_TRY(TAKE(POOL_CLAIM, j->d_claim, sizeof *j->d_claim));
    /* what the kernel must write, poisoned: a value left by an earlier chase never passes */
    CUDA_TRY(cudaMemset(j->d_final, 0xff, wl * sizeof *j->d_final));
    CUDA_TRY(cudaMemset(j->d_sm_id, 0xff, w * sizeof *j->d_sm_id));
    CUDA_TRY(cudaMemset(j->d_trace, 0xff, (j->plan->record_n + 1) * sizeof *j->d_trace));
    CUDA_TRY(cudaMemset(j->d_claim, 0, sizeof *j->d_claim));
    CUDA_TRY(cudaMemcpy(j->d_start, j->start, w * sizeof *j->d_start, cudaMemcpyHostToDevice));
    CUDA_TRY(cudaMemset(j->d_cycles, 0, 2 * w * sizeof *j->d_cycles));
    CUDA_TRY(cudaMemset(j->d_ns, 0, 2 * w * sizeof *j->d_ns));
fail:
    return rc;
}

static int launch(chase_job *j, const void *kernel, gs_error *err)
{
    int rc = 0;
    const gs_chase_plan *p = j->plan;
    chase_args a;
    memset(&a, 0, sizeof a);
    a.base = j->base;
    a.tex = j->tex;
    a.image = j->d_image;
    a.image_bytes = j->d_image ? (uint32_t)round16(p->footprint_bytes) : 0;
    a.start = j->d_start;
    a.lane_add = lane_add(j);
    a.cursor_mask = j->cursor_mask;
    a.lanes = j->lanes;
    a.warm_accesses = j->warmed ? 0 : warm_accesses(p);
    a.timed = j->timed;
    a.record = p->record_n > 0;
    a.trace_entries = p->record_n ? (uint32_t)p->record_n + 1 : 0;
    a.chain_offset = (uint32_t)j->trace_bytes;
    a.trace = j->d_trace;
    a.final_cursor = j->d_final;
    a.cycles = j->d_cycles;
    a.ns = j->d_ns;
    a.sm_id = j->d_sm_id;
    a.pin_sm = j->pin_sm;
    a.claim = j->d_claim;
    /* pinned: twice the SMs, so that every SM gets a block while the others return at once */
    unsigned grid = j->pin_sm >= 0 ? 2u * (unsigned)j->c->prop.multiProcessorCount : j->walkers;
    size_t dyn = j->trace_bytes + j->smem_chain_bytes;
    if (p->smem_bytes > dyn)
        dyn = p->smem_bytes;
    void *args[] = {&a};
    CUDA_TRY(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)dyn));
    CUDA_TRY(cudaFuncSetAttribute(kernel, cudaFuncAttributePreferredSharedMemoryCarveout,
                                  p->carveout_percent < 0 ? cudaSharedmemCarveoutDefault
                                                          : p->carveout_percent));
    CUDA_TRY(cudaLaunchKernel(kernel, dim3(grid), dim3(32), args, dyn, 0));
    CUDA_LAUNCH_CHECK();
fail:
    return rc;
}

/* A pinned launch where no block reached the SM (a process limited to some SMs, as under MPS)
 * walked nothing: *ran is false and the launch may be repeated. */
static int pinned_walk_ran(chase_job *j, bool *ran, gs_error *err)
{
    int rc = 0;
    unsigned claimed = 1;
    if (j->pin_sm >= 0)
        CUDA_TRY(cudaMemcpy(&claimed, j->d_claim, sizeof claimed, cudaMemcpyDeviceToHost));
    *ran = claimed > 0;
fail:
    return rc;
}

/* A warm-up kernel ran: the timed accesses begin at position 0 (walker_start) with no warm-up of
 * their own. */
static int warmed(chase_job *j, gs_error *err)
{
    int rc = 0;
    j->warmed = true;
    j->start[0] = cursor_of(j, j->plan->chain[walker_start(j, 0)]);
    CUDA_TRY(cudaMemcpy(j->d_start, j->start, sizeof *j->d_start, cudaMemcpyHostToDevice));
fail:
    return rc;
}

/* A warm-up kernel on the walk's SM: a (pin_sm and the kernel's own fields set here) reads
 * start[n_start] and writes fin[n_fin]; *claimed is whether a block reached that SM. */
static int run_warm_kernel(chase_job *j, const void *kernel, unsigned threads,
                           chase_warm_args *a, const uint64_t *start, size_t n_start,
                           uint64_t *fin, size_t n_fin, unsigned *claimed, gs_error *err)
{
    int rc = 0;
    uint64_t *d_start = NULL, *d_fin = NULL;
    unsigned *d_claim = NULL;
    *claimed = 0;
    CUDA_TRY(cudaMalloc((void **)&d_start, n_start * sizeof *d_start));
    CUDA_TRY(cudaMalloc((void **)&d_fin, n_fin * sizeof *d_fin));
    CUDA_TRY(cudaMalloc((void **)&d_claim, sizeof *d_claim));
    CUDA_TRY(cudaMemset(d_claim, 0, sizeof *d_claim));
    CUDA_TRY(cudaMemset(d_fin, 0xff, n_fin * sizeof *d_fin));
    CUDA_TRY(cudaMemcpy(d_start, start, n_start * sizeof *d_start, cudaMemcpyHostToDevice));
    a->pin_sm = j->pin_sm;
    a->segment_start = d_start;
    a->final_cursor = d_fin;
    a->claim = d_claim;
    {
        void *args[] = {a};
        CUDA_TRY(cudaLaunchKernel(kernel, dim3(2u * (unsigned)j->c->prop.multiProcessorCount),
                                  dim3(threads), args, 0, 0));
        CUDA_LAUNCH_CHECK();
    }
    CUDA_TRY(cudaMemcpy(claimed, d_claim, sizeof *claimed, cudaMemcpyDeviceToHost));
    CUDA_TRY(cudaMemcpy(fin, d_fin, n_fin * sizeof *fin, cudaMemcpyDeviceToHost));
fail:
    if (d_start)
        (void)cudaFree(d_start);
    if (d_fin)
        (void)cudaFree(d_fin);
    if (d_claim)
        (void)cudaFree(d_claim);
    return rc;
}

/* The split warm-up (plan.h, gs_chase_split_of) on the walk's SM, checked like the walk: every
 * segment and the serial part must stop where the chain says. No block on that SM (a process
 * limited to some SMs) leaves j->warmed false: the walk then warms up one access at a time. */
static int warm_split(chase_job *j, gs_error *err)
{
    int rc;
    const gs_chase_plan *p = j->plan;
    gs_chase_split s;
    unsigned claimed = 0;
    if (j->pin_sm < 0 || !gs_chase_split_of(p, &s))
        return 0;
    size_t n = p->chain_len, words = (size_t)s.segments + 1;
    uint64_t *start = (uint64_t *)malloc(s.segments * sizeof *start);
    uint64_t *fin = (uint64_t *)malloc(words * sizeof *fin);
    if (!start || !fin) {
        free(start), free(fin);
        return gs_fail(err, GS_ERR_NO_MEMORY, "chase: out of host memory for the warm-up");
    }
    for (unsigned i = 0; i < s.segments; i++)
        start[i] = cursor_of(j, p->chain[s.parallel_first +
                                         (size_t)((uint64_t)i * s.parallel_n / s.segments)]);
    chase_warm_args a;
    memset(&a, 0, sizeof a);
    a.base = j->base;
    a.serial_start = cursor_of(j, p->chain[s.serial_first]);
    a.serial_n = s.serial_n;
    a.parallel_n = s.parallel_n;
    a.segments = s.segments;
    rc = run_warm_kernel(j, gs_chase_warm_kernel(j->path, p->element_bytes), GS_SPLIT_SEGMENTS,
                         &a, start, s.segments, fin, words, &claimed, err);
    if (!rc && claimed) {
        uint64_t mask = p->element_bytes == 8 ? ~0ull : 0xffffffffull;
        for (size_t i = 0; i < words && !rc; i++) {
            size_t end = i < s.segments
                ? s.parallel_first + (size_t)((uint64_t)(i + 1) * s.parallel_n / s.segments)
                : s.serial_first + s.serial_n;
            uint64_t want = cursor_of(j, p->chain[end % n]) & mask;
            if (s.serial_n == 0 && i == s.segments)
                want = a.serial_start & mask;        /* no serial part: the cursor it began at */
            if (fin[i] != want)
                rc = gs_fail(err, GS_ERR_DEVICE, "chase: the warm-up's %s %zu stopped at cursor "
                             "%#llx, but the chain says %#llx (memory written by something "
                             "else, or a kernel fault)", i < s.segments ? "segment" : "serial part",
                             i, (unsigned long long)fin[i], (unsigned long long)want);
        }
    }
    if (!rc && claimed)
        rc = warmed(j, err);
    free(start), free(fin);
    return rc;
}

/* The windowed warm-up (plan.h, gs_chase_window_of) on the walk's SM, checked like the walk: lane
 * l stops at position (l + steps x W) mod n. No block on that SM leaves j->warmed false: the walk
 * then warms up one access at a time. */
static int warm_window(chase_job *j, gs_error *err)
{
    int rc;
    const gs_chase_plan *p = j->plan;
    unsigned w = gs_chase_window_of(p), claimed = 0;
    uint64_t start[32], fin[32];
    if (j->pin_sm < 0 || w == 0 || j->warmed)
        return 0;
    size_t n = p->chain_len;
    for (unsigned l = 0; l < w; l++)
        start[l] = cursor_of(j, p->chain[l]);
    chase_warm_args a;
    memset(&a, 0, sizeof a);
    a.parallel_n = n;
    a.segments = w;
    rc = run_warm_kernel(j, gs_chase_window_kernel(j->path), 32, &a, start, w, fin, w, &claimed,
                         err);
    for (unsigned l = 0; l < w && claimed && !rc; l++) {
        uint64_t steps = (n - l + w - 1) / w;
        uint64_t want = cursor_of(j, p->chain[(l + steps * w) % n]);
        if (fin[l] != want)
            rc = gs_fail(err, GS_ERR_DEVICE, "chase: the windowed warm-up's lane %u stopped at "
                         "cursor %#llx, but the chain says %#llx (memory written by something "
                         "else, or a kernel fault)", l, (unsigned long long)fin[l],
                         (unsigned long long)want);
    }
    if (!rc && claimed)
        rc = warmed(j, err);
    return rc;
}

/* Launch; a walk pinned by default to an SM that took no block runs again where block 0 lands. */
static int run_walk(chase_job *j, const void *kernel, gs_error *err)
{
    bool ran = false;
    int rc = launch(j, kernel, err);
    if (!rc)
        rc = pinned_walk_ran(j, &ran, err);
    if (rc || ran)
        return rc;
    if (j->plan->on_sm)
        return gs_fail(err, GS_ERR_UNSUPPORTED, "chase: no block of %u ran on SM %d (this process "
                       "may use only some SMs, as under MPS): choose another SM",
                       2u * (unsigned)j->c->prop.multiProcessorCount, j->pin_sm);
    j->pin_sm = -1;
    return launch(j, kernel, err);
}

static int fetch_results(chase_job *j, gs_error *err)
{
    int rc = 0;
    size_t w = j->walkers, wl = (size_t)j->walkers * j->lanes;
    CUDA_TRY(cudaMemcpy(j->final_cursor, j->d_final, wl * sizeof *j->d_final,
                        cudaMemcpyDeviceToHost));
    CUDA_TRY(cudaMemcpy(j->cycles, j->d_cycles, 2 * w * sizeof *j->d_cycles,
                        cudaMemcpyDeviceToHost));
    CUDA_TRY(cudaMemcpy(j->ns, j->d_ns, 2 * w * sizeof *j->d_ns, cudaMemcpyDeviceToHost));
    CUDA_TRY(cudaMemcpy(j->sm_id, j->d_sm_id, w * sizeof *j->d_sm_id, cudaMemcpyDeviceToHost));
    CUDA_TRY(cudaMemcpy(j->trace, j->d_trace, j->plan->record_n * sizeof *j->trace,
                        cudaMemcpyDeviceToHost));
fail:
    return rc;
}

/* Every lane must stop where the chain says (after exactly the timed accesses). */
static int verify(const chase_job *j, gs_error *err)
{
    const gs_chase_plan *p = j->plan;
    uint64_t mask = p->element_bytes == 8 ? ~0ull : 0xffffffffull;
    for (unsigned w = 0; w < j->walkers; w++)
        for (unsigned i = 0; i < j->lanes; i++) {
            size_t pos = (size_t)((walker_start(j, w) + j->timed) % p->chain_len);
            uint64_t want = (cursor_of(j, p->chain[pos]) + i * lane_add(j)) & mask;
            uint64_t got = j->final_cursor[(size_t)w * j->lanes + i];
            if (got != want)
                return gs_fail(err, GS_ERR_DEVICE, "chase: walker %u lane %u stopped at cursor "
                               "%#llx, but the chain says %#llx: the chase did not follow the "
                               "chain (memory written by something else, or a kernel fault)", w, i,
                               (unsigned long long)got, (unsigned long long)want);
        }
    return 0;
}

static void fill_result(const chase_job *j, gs_chase_result *out)
{
    const gs_chase_plan *p = j->plan;
    double cyc = 0, ns = 0;
    unsigned long long g0 = ~0ull, g1 = 0;
    out->sm_id = (int)j->sm_id[0];
    if (p->record_n) {
        memcpy(out->latency_cycles, j->trace, p->record_n * sizeof *j->trace);
        out->recorded = p->record_n;
        for (size_t i = 0; i < p->record_n; i++)
            cyc += j->trace[i];
        out->avg_cycles = cyc / (double)p->record_n;
        return;
    }
    for (unsigned w = 0; w < j->walkers; w++) {
        cyc += (double)(j->cycles[2 * w + 1] - j->cycles[2 * w]);
        ns += (double)(j->ns[2 * w + 1] - j->ns[2 * w]);
        g0 = j->ns[2 * w] < g0 ? j->ns[2 * w] : g0;
        g1 = j->ns[2 * w + 1] > g1 ? j->ns[2 * w + 1] : g1;
    }
    out->avg_cycles = cyc / j->walkers / (double)j->timed;
    out->avg_ns = ns / j->walkers / (double)j->timed;
    out->accesses_per_ns = g1 > g0 ? (double)j->walkers * (double)j->timed / (double)(g1 - g0) : 0;
}

static int chase_setup(chase_job *j, gs_chase_result *out, const void **kernel, gs_error *err)
{
    int rc;
    const gs_chase_plan *p = j->plan;
    if ((rc = resolve_path(p, &j->path, err)) != 0 || (rc = check_plan_shape(p, err)) != 0)
        return rc;
    if (p->record_n && !out->latency_cycles)
        return gs_fail(err, GS_ERR_USAGE, "chase: record_n is %zu but latency_cycles is NULL",
                       p->record_n);
    if (p->record_n > 0xfffffff0u)
        return gs_fail(err, GS_ERR_USAGE, "chase: record_n %zu is too large", p->record_n);
    j->delta = aliased(p) && j->path <= GS_PATH_NC;
    for (j->cursor_mask = 1; j->cursor_mask < p->footprint_bytes && j->cursor_mask >> 63 == 0;)
        j->cursor_mask <<= 1;
    j->cursor_mask -= 1;
    *kernel = gs_chase_kernel(j->path, p->element_bytes, j->delta);
    if ((rc = check_trace_capacity(j, *kernel, out, err)) != 0 ||
        (rc = check_device_limits(j, err)) != 0)
        return rc;
    j->trace_bytes = p->record_n ? round16(((uint64_t)p->record_n + 1) * 2) : 0;
    bool global = j->path <= GS_PATH_TEX;
    uint64_t key = keepable(j) ? chain_key(p) : 0;
    if (key && kept.buf && kept.ordinal == j->c->ordinal && kept.footprint == p->footprint_bytes &&
        kept.align == p->base_align_bytes && kept.key == key) {
        j->base = kept.base;          /* the chain as the last chase left it */
        rc = 0;
    } else {
        gs_cuda_chase_release();      /* before the allocation: no two footprints at once */
        if (global && (rc = alloc_global(j, err)) != 0)
            return rc;
        if ((rc = build_elements(j, err)) != 0)
            return rc;
        uint64_t phys = global && aliased(p) ? j->vmm->physical_bytes : p->footprint_bytes;
        if ((rc = check_collisions(j, phys, err)) != 0)
            return rc;
        rc = global ? write_global_chain(j, err) : write_image_chain(j, err);
        unsigned w = rc == 0 && global ? gs_chase_window_of(p) : 0;
        if (w)
            rc = write_window_links(j, w, err);
        if (rc == 0 && key) {
            kept.ordinal = j->c->ordinal, kept.buf = j->buf, kept.base = j->base;
            kept.footprint = p->footprint_bytes, kept.align = p->base_align_bytes;
            gs_cuda_spare_register(gs_cuda_chase_release);
            kept.key = key;
            j->buf = NULL;            /* kept: job_release leaves it */
        }
    }
    if (rc == 0 && warm_accesses(p) == 0)
        rc = evict_l2(j, err);
    return rc ? rc : alloc_run_buffers(j, err);
}

int gs_cuda_chase(gs_backend *b, const gs_chase_plan *plan, gs_chase_result *out, gs_error *err)
{
    int rc;
    const void *kernel = NULL;
    chase_job j;
    memset(&j, 0, sizeof j);
    j.plan = plan;
    j.c = gs_cuda_of(b);
    j.lanes = plan->lanes ? plan->lanes : 1;
    j.walkers = plan->walkers ? plan->walkers : 1;
    /* one walker runs on a chosen SM, SM 0 unless the plan names one (plan.h, on_sm) */
    j.pin_sm = j.walkers == 1 ? (plan->on_sm ? (int)plan->sm : 0) : -1;
    if (plan->on_sm && (j.walkers > 1 || plan->sm >= (unsigned)j.c->prop.multiProcessorCount))
        return gs_fail(err, GS_ERR_USAGE, "chase: on_sm takes one walker on an SM below %d "
                       "(walkers %u, sm %u)", j.c->prop.multiProcessorCount, j.walkers, plan->sm);
    j.timed = plan->record_n ? plan->record_n
                             : (plan->timed_accesses ? plan->timed_accesses : plan->chain_len);
    out->recorded = 0;
    out->avg_cycles = out->avg_ns = out->accesses_per_ns = 0;
    out->record_capacity = 0;
    if ((rc = chase_setup(&j, out, &kernel, err)) == 0 && (rc = warm_split(&j, err)) == 0 &&
        (rc = warm_window(&j, err)) == 0 &&
        (rc = run_walk(&j, kernel, err)) == 0 &&
        (rc = fetch_results(&j, err)) == 0 && (rc = verify(&j, err)) == 0)
        fill_result(&j, out);
    job_release(&j);
    return rc;
}
