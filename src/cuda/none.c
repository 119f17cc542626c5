/* The CUDA backend of a build without nvcc: every request says how to get a CUDA build. */
#include "cuda/cuda_backend.h"

int gs_cuda_device_count(int *count, gs_error *err)
{
    (void)err;
    *count = 0;
    return 0;
}

int gs_cuda_open(int ordinal, gs_backend **out, gs_error *err)
{
    (void)ordinal;
    *out = NULL;
    return gs_fail(err, GS_ERR_NO_DEVICE,
                   "this gpusonar was built without CUDA (nvcc was not found at configure time); "
                   "install the CUDA toolkit, set CUDACXX, rebuild, or use --device sim");
}

int gs_cuda_find_uuid(const char *uuid, int *ordinal, gs_error *err)
{
    (void)uuid;
    gs_backend *none = NULL;
    *ordinal = -1;
    return gs_cuda_open(0, &none, err);
}
