/* CUDA errors as gpusonar errors: the call, file:line, CUDA's name and text, and what the user can
 * do (cuda_internal.h, CUDA_TRY and CU_TRY). Every file of the backend reports through these. */
#include "cuda/cuda_internal.h"

int gs_cuda_fail(gs_error *err, cudaError_t e, const char *call, const char *file, int line)
{
    gs_status st = e == cudaErrorMemoryAllocation ? GS_ERR_NO_MEMORY
                   : (e == cudaErrorInsufficientDriver || e == cudaErrorCompatNotSupportedOnDevice)
                       ? GS_ERR_DRIVER
                   : e == cudaErrorNoDevice ? GS_ERR_NO_DEVICE
                   : e == cudaErrorNoKernelImageForDevice ? GS_ERR_UNSUPPORTED
                                                          : GS_ERR_DEVICE;
    const char *hint = st == GS_ERR_NO_MEMORY ? "; free GPU memory or use a smaller footprint"
                       : st == GS_ERR_DRIVER ? "; update the NVIDIA driver to one that supports "
                                               "this CUDA runtime"
                       : e == cudaErrorNoKernelImageForDevice
                           ? "; rebuild with this GPU's architecture in GS_CUDA_ARCHS"
                           : "";
    return gs_fail(err, st, "%s failed at %s:%d: %s (%s)%s", call, file, line,
                   cudaGetErrorString(e), cudaGetErrorName(e), hint);
}

int gs_cu_fail(gs_error *err, CUresult r, const char *call, const char *file, int line)
{
    const char *name = "?", *text = "?";
    cuGetErrorName(r, &name);
    cuGetErrorString(r, &text);
    gs_status st = r == CUDA_ERROR_OUT_OF_MEMORY ? GS_ERR_NO_MEMORY
                   : r == CUDA_ERROR_NOT_SUPPORTED ? GS_ERR_UNSUPPORTED
                                                   : GS_ERR_DEVICE;
    return gs_fail(err, st, "%s failed at %s:%d: %s (%s)", call, file, line, text, name);
}
