/* Virtual-memory aliasing for TLB studies (see vmm.h): cuMemAddressReserve, cuMemCreate,
 * cuMemMap at every multiple of the physical size, cuMemSetAccess over the whole span. */
#include <string.h>

#include "cuda/cuda_internal.h"
#include "cuda/vmm.h"

static uint64_t round_up(uint64_t x, uint64_t m) { return (x + m - 1) / m * m; }

static int vmm_create(int ordinal, gs_vmm *vm, const CUmemAllocationProp *prop, gs_error *err)
{
    CUresult r = cuMemCreate(&vm->handle, vm->physical_bytes, prop, 0);
    if (r == CUDA_ERROR_OUT_OF_MEMORY)
        return gs_fail(err, GS_ERR_NO_MEMORY, "cuMemCreate: no room for %llu bytes of physical "
                       "memory on cuda:%d behind the aliased footprint; free GPU memory or use a "
                       "smaller physical size", (unsigned long long)vm->physical_bytes, ordinal);
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
    return 0;
}

/* Mapping many small pieces can exhaust the driver's own memory (seen on an H100 with 2 MB pieces
 * over 1 TB: cuMemSetAccess out of memory); say so with the numbers. */
static int map_fail(const gs_vmm *vm, CUresult r, const char *call, gs_error *err)
{
    unsigned long long pieces = vm->va_bytes / vm->physical_bytes;
    if (r == CUDA_ERROR_OUT_OF_MEMORY)
        return gs_fail(err, GS_ERR_NO_MEMORY, "%s: out of memory aliasing %llu bytes of virtual "
                       "space onto %llu physical bytes (%llu mappings); use a larger physical size "
                       "(fewer mappings) or a smaller footprint", call,
                       (unsigned long long)vm->va_bytes, (unsigned long long)vm->physical_bytes,
                       pieces);
    return gs_cu_fail(err, r, call, __FILE__, __LINE__);
}

int gs_vmm_alias(int ordinal, uint64_t footprint_bytes, uint64_t physical_bytes, gs_vmm *vm,
                 gs_error *err)
{
    int rc = 0, supported = 0;
    size_t granularity = 0;
    CUdevice dev;
    CUmemAllocationProp prop;
    CUmemAccessDesc access;
    memset(vm, 0, sizeof *vm);
    memset(&prop, 0, sizeof prop);
    CU_TRY(cuDeviceGet(&dev, ordinal));
    CU_TRY(cuDeviceGetAttribute(&supported, CU_DEVICE_ATTRIBUTE_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED,
                                dev));
    if (!supported)
        return gs_fail(err, GS_ERR_UNSUPPORTED, "cuda:%d does not support virtual memory "
                       "management, so a footprint larger than its physical memory cannot be "
                       "aliased; use physical_bytes = footprint", ordinal);
    prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
    prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    prop.location.id = ordinal;
    CU_TRY(cuMemGetAllocationGranularity(&granularity, &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM));
    vm->granularity_bytes = granularity;
    vm->physical_bytes = round_up(physical_bytes ? physical_bytes : 1, granularity);
    vm->va_bytes = round_up(footprint_bytes, vm->physical_bytes);
    if ((rc = vmm_reserve(vm, err)) != 0)
        goto fail;
    if ((rc = vmm_create(ordinal, vm, &prop, err)) != 0)
        goto fail;
    for (uint64_t off = 0; off < vm->va_bytes; off += vm->physical_bytes) {
        CUresult r = cuMemMap(vm->va + off, vm->physical_bytes, 0, vm->handle, 0);
        if (r != CUDA_SUCCESS) {
            rc = map_fail(vm, r, "cuMemMap", err);
            goto fail;
        }
        vm->mapped_bytes = off + vm->physical_bytes;
    }
    memset(&access, 0, sizeof access);
    access.location = prop.location;
    access.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
    {
        CUresult r = cuMemSetAccess(vm->va, vm->va_bytes, &access, 1);
        if (r != CUDA_SUCCESS) {
            rc = map_fail(vm, r, "cuMemSetAccess", err);
            goto fail;
        }
    }
    return 0;
fail:
    gs_vmm_release(vm);
    return rc;
}

void gs_vmm_release(gs_vmm *vm)
{
    /* The whole mapped range at once; if the driver refuses, piece by piece (one mapping each). */
    if (vm->mapped_bytes && cuMemUnmap(vm->va, vm->mapped_bytes) != CUDA_SUCCESS)
        for (uint64_t off = 0; off < vm->mapped_bytes; off += vm->physical_bytes)
            (void)cuMemUnmap(vm->va + off, vm->physical_bytes);
    vm->mapped_bytes = 0;
    if (vm->have_handle)
        (void)cuMemRelease(vm->handle);
    vm->have_handle = false;
    if (vm->va)
        (void)cuMemAddressFree(vm->va, vm->va_bytes);
    vm->va = 0;
}
