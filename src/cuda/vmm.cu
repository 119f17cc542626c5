/* Virtual-memory aliasing for TLB studies (see vmm.h): cuMemAddressReserve, cuMemCreate,
 * cuMemMap at every multiple of the physical size, cuMemSetAccess over the span; the cache of
 * aliases that chases reuse, grown by reserving the range right after a span. */
#include <string.h>

#include "cuda/cuda_internal.h"
#include "cuda/vmm.h"

static uint64_t round_up(uint64_t x, uint64_t m) { return (x + m - 1) / m * m; }

static void pinned_prop(int ordinal, CUmemAllocationProp *prop)
{
    memset(prop, 0, sizeof *prop);
    prop->type = CU_MEM_ALLOCATION_TYPE_PINNED;
    prop->location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    prop->location.id = ordinal;
}

/* The driver's minimum mapping granularity on device ordinal, after checking that it has VMM. */
static int vmm_granularity(int ordinal, uint64_t *granularity_bytes, gs_error *err)
{
    int rc = 0, supported = 0;
    size_t granularity = 0;
    CUdevice dev;
    CUmemAllocationProp prop;
    pinned_prop(ordinal, &prop);
    CU_TRY(cuDeviceGet(&dev, ordinal));
    CU_TRY(cuDeviceGetAttribute(&supported, CU_DEVICE_ATTRIBUTE_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED,
                                dev));
    if (!supported)
        return gs_fail(err, GS_ERR_UNSUPPORTED, "cuda:%d does not support virtual memory "
                       "management, so a footprint larger than its physical memory cannot be "
                       "aliased; use physical_bytes = footprint", ordinal);
    CU_TRY(cuMemGetAllocationGranularity(&granularity, &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM));
    *granularity_bytes = granularity;
fail:
    return rc;
}

static int vmm_create(gs_vmm *vm, gs_error *err)
{
    CUmemAllocationProp prop;
    pinned_prop(vm->ordinal, &prop);
    CUresult r = cuMemCreate(&vm->handle, vm->physical_bytes, &prop, 0);
    if (r == CUDA_ERROR_OUT_OF_MEMORY)
        return gs_fail(err, GS_ERR_NO_MEMORY, "cuMemCreate: no room for %llu bytes of physical "
                       "memory on cuda:%d behind the aliased footprint; free GPU memory or use a "
                       "smaller physical size", (unsigned long long)vm->physical_bytes,
                       vm->ordinal);
    if (r != CUDA_SUCCESS)
        return gs_cu_fail(err, r, "cuMemCreate(physical)", __FILE__, __LINE__);
    vm->have_handle = true;
    return 0;
}

static int vmm_reserve(gs_vmm *vm, gs_error *err)
{
    CUresult r = cuMemAddressReserve(&vm->va, vm->va_bytes, vm->physical_bytes, 0, 0);
    if (r == CUDA_ERROR_OUT_OF_MEMORY || r == CUDA_ERROR_INVALID_VALUE) {
        vm->va = 0;
        return gs_fail(err, GS_ERR_NO_MEMORY, "cuMemAddressReserve: cannot reserve %llu bytes of "
                       "virtual address space (%s); use a smaller footprint",
                       (unsigned long long)vm->va_bytes,
                       r == CUDA_ERROR_OUT_OF_MEMORY ? "out of memory" : "invalid value");
    }
    if (r != CUDA_SUCCESS) {
        vm->va = 0;
        return gs_cu_fail(err, r, "cuMemAddressReserve(footprint)", __FILE__, __LINE__);
    }
    vm->spans = 1;
    vm->span_va[0] = vm->va;
    vm->span_bytes[0] = vm->va_bytes;
    return 0;
}

/* Mapping many small pieces can exhaust the driver's own memory (seen on an H100 with 2 MB pieces
 * over 1 TB: cuMemSetAccess out of memory); say so with the numbers. */
static int map_fail(const gs_vmm *vm, uint64_t span_bytes, CUresult r, const char *call,
                    gs_error *err)
{
    unsigned long long pieces = span_bytes / vm->physical_bytes;
    if (r == CUDA_ERROR_OUT_OF_MEMORY)
        return gs_fail(err, GS_ERR_NO_MEMORY, "%s: out of memory aliasing %llu bytes of virtual "
                       "space onto %llu physical bytes (%llu mappings); use a larger physical size "
                       "(fewer mappings) or a smaller footprint", call,
                       (unsigned long long)span_bytes, (unsigned long long)vm->physical_bytes,
                       pieces);
    return gs_cu_fail(err, r, call, __FILE__, __LINE__);
}

/* Map the physical allocation at every multiple of its size in [va + from, va + to), then make
 * that range readable and writable (one reservation: from and to lie in one span). */
static int map_range(gs_vmm *vm, uint64_t from, uint64_t to, gs_error *err)
{
    CUmemAccessDesc access;
    for (uint64_t off = from; off < to; off += vm->physical_bytes) {
        CUresult r = cuMemMap(vm->va + off, vm->physical_bytes, 0, vm->handle, 0);
        if (r != CUDA_SUCCESS)
            return map_fail(vm, to - from, r, "cuMemMap", err);
        vm->mapped_bytes = off + vm->physical_bytes;
    }
    memset(&access, 0, sizeof access);
    access.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    access.location.id = vm->ordinal;
    access.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
    CUresult r = cuMemSetAccess(vm->va + from, to - from, &access, 1);
    return r == CUDA_SUCCESS ? 0 : map_fail(vm, to - from, r, "cuMemSetAccess", err);
}

int gs_vmm_alias(int ordinal, uint64_t footprint_bytes, uint64_t physical_bytes, gs_vmm *vm,
                 gs_error *err)
{
    int rc;
    uint64_t granularity = 0;
    memset(vm, 0, sizeof *vm);
    vm->ordinal = ordinal;
    if ((rc = vmm_granularity(ordinal, &granularity, err)) != 0)
        return rc;
    vm->granularity_bytes = granularity;
    vm->physical_bytes = round_up(physical_bytes ? physical_bytes : 1, granularity);
    vm->va_bytes = round_up(footprint_bytes, vm->physical_bytes);
    if ((rc = vmm_reserve(vm, err)) == 0 && (rc = vmm_create(vm, err)) == 0 &&
        (rc = map_range(vm, 0, vm->va_bytes, err)) == 0)
        return 0;
    gs_vmm_release(vm);
    return rc;
}

/* Grow vm to span_bytes by reserving the range right after it; *grown is false (and nothing
 * changed) when the driver gives another range or no more spans fit: then the caller starts over. */
static int vmm_grow(gs_vmm *vm, uint64_t span_bytes, bool *grown, gs_error *err)
{
    CUdeviceptr want = vm->va + vm->va_bytes, got = 0;
    uint64_t extra = span_bytes - vm->va_bytes;
    *grown = false;
    if (vm->spans == GS_VMM_MAX_SPANS || vm->mapped_bytes != vm->va_bytes)
        return 0;
    /* the hint is only a hint: any failure or other address means "start over", whose own
     * reservation reports a real error */
    if (cuMemAddressReserve(&got, extra, vm->physical_bytes, want, 0) != CUDA_SUCCESS)
        return 0;
    if (got != want) {
        CUresult r = cuMemAddressFree(got, extra);
        return r == CUDA_SUCCESS ? 0 : gs_cu_fail(err, r, "cuMemAddressFree(unwanted range)",
                                                  __FILE__, __LINE__);
    }
    vm->span_va[vm->spans] = got;
    vm->span_bytes[vm->spans++] = extra;
    vm->va_bytes = span_bytes;
    *grown = true;
    return map_range(vm, span_bytes - extra, span_bytes, err);
}

void gs_vmm_release(gs_vmm *vm)
{
    /* Each reservation's mapped range at once; if the driver refuses, piece by piece (one mapping
     * each). */
    for (unsigned i = 0; i < vm->spans; i++) {
        uint64_t at = vm->span_va[i] - vm->va;
        uint64_t mapped = vm->mapped_bytes > at ? vm->mapped_bytes - at : 0;
        if (mapped > vm->span_bytes[i])
            mapped = vm->span_bytes[i];
        if (mapped && cuMemUnmap(vm->span_va[i], mapped) != CUDA_SUCCESS)
            for (uint64_t off = 0; off < mapped; off += vm->physical_bytes)
                (void)cuMemUnmap(vm->span_va[i] + off, vm->physical_bytes);
    }
    vm->mapped_bytes = 0;
    if (vm->have_handle)
        (void)cuMemRelease(vm->handle);
    vm->have_handle = false;
    for (unsigned i = vm->spans; i-- > 0;)
        (void)cuMemAddressFree(vm->span_va[i], vm->span_bytes[i]);
    vm->spans = 0;
    vm->va = 0;
    vm->va_bytes = 0;
}

/* ---- the cache -------------------------------------------------------------------------------- */

/* The alias of this physical size, else an empty slot, else the least recently used one. */
static unsigned cache_slot(const gs_vmm_cache *c, uint64_t physical_bytes)
{
    unsigned best = 0;
    for (unsigned i = 0; i < GS_VMM_CACHED; i++)
        if (c->vm[i].va && c->vm[i].physical_bytes == physical_bytes)
            return i;
    for (unsigned i = 0; i < GS_VMM_CACHED; i++) {
        if (!c->vm[i].va)
            return i;
        if (c->last_use[i] < c->last_use[best])
            best = i;
    }
    return best;
}

/* Slot i made to span span_bytes over physical_bytes: reused, grown, or made anew. */
static int cache_fit(gs_vmm_cache *c, unsigned i, int ordinal, uint64_t span_bytes,
                     uint64_t physical_bytes, gs_error *err)
{
    gs_vmm *vm = &c->vm[i];
    bool grown = false;
    int rc = 0;
    if (vm->va && vm->physical_bytes == physical_bytes) {
        if (vm->va_bytes >= span_bytes)
            return 0;
        if ((rc = vmm_grow(vm, span_bytes, &grown, err)) != 0 || grown) {
            if (rc)
                gs_vmm_release(vm);
            return rc;
        }
    }
    gs_vmm_release(vm);
    return gs_vmm_alias(ordinal, span_bytes, physical_bytes, vm, err);
}

int gs_vmm_cache_alias(gs_vmm_cache *c, int ordinal, uint64_t footprint_bytes,
                       uint64_t physical_bytes, gs_vmm **out, gs_error *err)
{
    int rc;
    *out = NULL;
    if (!c->granularity_bytes && (rc = vmm_granularity(ordinal, &c->granularity_bytes, err)) != 0)
        return rc;
    uint64_t phys = round_up(physical_bytes ? physical_bytes : 1, c->granularity_bytes);
    uint64_t span = round_up(footprint_bytes, phys);
    unsigned i = cache_slot(c, phys);
    rc = cache_fit(c, i, ordinal, span, phys, err);
    if (rc == GS_ERR_NO_MEMORY) {
        /* the other aliases' mappings and memory back to the driver, then once more */
        for (unsigned k = 0; k < GS_VMM_CACHED; k++)
            gs_vmm_release(&c->vm[k]);
        gs_error_clear(err);
        rc = gs_vmm_alias(ordinal, span, phys, &c->vm[i], err);
    }
    if (rc)
        return rc;
    c->last_use[i] = ++c->uses;
    *out = &c->vm[i];
    return 0;
}

void gs_vmm_cache_release(gs_vmm_cache *c)
{
    for (unsigned k = 0; k < GS_VMM_CACHED; k++)
        gs_vmm_release(&c->vm[k]);
    memset(c, 0, sizeof *c);
}
