/* The few CUDA driver API functions gpusonar uses (virtual memory management, attributes, error
 * names, tensor maps), defined here as forwarders to the entry points that the runtime hands out
 * (cudaGetDriverEntryPointByVersion). So the binary does not link libcuda.so: it starts on a
 * machine without an NVIDIA driver (CI, the simulator) and says "no GPU" instead of failing to
 * load. Code in src/cuda/ calls cuMemMap and friends as usual; add a line here for a new one. */
#include "cuda/cuda_internal.h"

template <typename F> static F driver_entry(const char *name)
{
    void *p = nullptr;
    cudaDriverEntryPointQueryResult q = cudaDriverEntryPointSymbolNotFound;
    if (cudaGetDriverEntryPointByVersion(name, &p, 12000, cudaEnableDefault, &q) != cudaSuccess ||
        q != cudaDriverEntryPointSuccess)
        return nullptr;
    return reinterpret_cast<F>(p);
}

#define GS_DRIVER_SHIM(name, params, args)                                                   \
    extern "C" CUresult CUDAAPI name params                                                   \
    {                                                                                         \
        static decltype(&::name) fn = driver_entry<decltype(&::name)>(#name);                 \
        return fn ? fn args : CUDA_ERROR_NOT_INITIALIZED;                                     \
    }

GS_DRIVER_SHIM(cuInit, (unsigned int flags), (flags))
GS_DRIVER_SHIM(cuCtxGetCurrent, (CUcontext *pctx), (pctx))
GS_DRIVER_SHIM(cuDeviceGet, (CUdevice *device, int ordinal), (device, ordinal))
GS_DRIVER_SHIM(cuDeviceGetAttribute, (int *pi, CUdevice_attribute attrib, CUdevice dev),
               (pi, attrib, dev))
GS_DRIVER_SHIM(cuMemAddressReserve,
               (CUdeviceptr *ptr, size_t size, size_t alignment, CUdeviceptr addr,
                unsigned long long flags),
               (ptr, size, alignment, addr, flags))
GS_DRIVER_SHIM(cuMemAddressFree, (CUdeviceptr ptr, size_t size), (ptr, size))
GS_DRIVER_SHIM(cuMemCreate,
               (CUmemGenericAllocationHandle *handle, size_t size, const CUmemAllocationProp *prop,
                unsigned long long flags),
               (handle, size, prop, flags))
GS_DRIVER_SHIM(cuMemRelease, (CUmemGenericAllocationHandle handle), (handle))
GS_DRIVER_SHIM(cuMemMap,
               (CUdeviceptr ptr, size_t size, size_t offset, CUmemGenericAllocationHandle handle,
                unsigned long long flags),
               (ptr, size, offset, handle, flags))
GS_DRIVER_SHIM(cuMemUnmap, (CUdeviceptr ptr, size_t size), (ptr, size))
GS_DRIVER_SHIM(cuMemSetAccess,
               (CUdeviceptr ptr, size_t size, const CUmemAccessDesc *desc, size_t count),
               (ptr, size, desc, count))
GS_DRIVER_SHIM(cuMemGetAllocationGranularity,
               (size_t *granularity, const CUmemAllocationProp *prop,
                CUmemAllocationGranularity_flags option),
               (granularity, prop, option))
GS_DRIVER_SHIM(cuTensorMapEncodeTiled,
               (CUtensorMap *map, CUtensorMapDataType type, cuuint32_t rank, void *address,
                const cuuint64_t *dims, const cuuint64_t *strides, const cuuint32_t *box,
                const cuuint32_t *element_strides, CUtensorMapInterleave interleave,
                CUtensorMapSwizzle swizzle, CUtensorMapL2promotion l2_promotion,
                CUtensorMapFloatOOBfill oob_fill),
               (map, type, rank, address, dims, strides, box, element_strides, interleave,
                swizzle, l2_promotion, oob_fill))

bool gs_driver_has(const char *name)
{
    return driver_entry<void *>(name) != nullptr;
}

extern "C" CUresult CUDAAPI cuGetErrorName(CUresult error, const char **str)
{
    static decltype(&::cuGetErrorName) fn = driver_entry<decltype(&::cuGetErrorName)>("cuGetErrorName");
    if (fn)
        return fn(error, str);
    *str = "CUDA_ERROR_(driver unavailable)";
    return CUDA_ERROR_NOT_INITIALIZED;
}

extern "C" CUresult CUDAAPI cuGetErrorString(CUresult error, const char **str)
{
    static decltype(&::cuGetErrorString) fn =
        driver_entry<decltype(&::cuGetErrorString)>("cuGetErrorString");
    if (fn)
        return fn(error, str);
    *str = "the CUDA driver is not available";
    return CUDA_ERROR_NOT_INITIALIZED;
}
