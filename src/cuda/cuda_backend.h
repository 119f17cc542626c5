/* The CUDA backend's constructors (src/cuda/backend.cu; src/cuda/none.c in a build without nvcc):
 * what src/backend.c calls to open a real GPU. Plain C: no CUDA header. */
#ifndef GS_CUDA_BACKEND_H
#define GS_CUDA_BACKEND_H

#include "plan.h"

#ifdef __cplusplus
extern "C" {
#endif

int gs_cuda_open(int ordinal, gs_backend **out, gs_error *err);
int gs_cuda_device_count(int *count, gs_error *err);         /* 0 devices is not an error */
/* The index of the CUDA device whose UUID is uuid ("GPU-..."; a unique prefix is enough). */
int gs_cuda_find_uuid(const char *uuid, int *ordinal, gs_error *err);

#ifdef __cplusplus
}
#endif

#endif
