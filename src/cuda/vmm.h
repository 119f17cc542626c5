/* Virtual-memory aliasing for TLB studies (src/cuda/ only): reserve a large span of virtual address
 * space with the driver's virtual memory management API and map one small physical allocation at
 * every place in it, so that a chase over >= 1 TB of virtual space costs only physical_bytes of
 * device memory. Virtual offset v is backed by physical offset (v mod physical_bytes). */
#ifndef GS_CUDA_VMM_H
#define GS_CUDA_VMM_H

#include <stdbool.h>
#include <stdint.h>

#include <cuda.h>

#include "util/error.h"

typedef struct gs_vmm {
    CUdeviceptr va;               /* start of the reserved span; 0 when nothing is reserved */
    uint64_t va_bytes;            /* reserved span: footprint rounded up to physical_bytes */
    uint64_t physical_bytes;      /* physical allocation, rounded up to the granularity */
    uint64_t granularity_bytes;   /* the driver's minimum mapping granularity */
    uint64_t mapped_bytes;        /* how much of the span is mapped (from va) */
    CUmemGenericAllocationHandle handle;
    bool have_handle;
} gs_vmm;

/* Reserve footprint_bytes of virtual space on device ordinal and map physical_bytes of device
 * memory at every multiple of physical_bytes in it, readable and writable. On failure everything
 * taken is released, and err says what failed (GS_ERR_NO_MEMORY for the physical allocation,
 * GS_ERR_UNSUPPORTED when the device has no VMM). */
int gs_vmm_alias(int ordinal, uint64_t footprint_bytes, uint64_t physical_bytes, gs_vmm *vm,
                 gs_error *err);

/* Unmap, release and free whatever vm holds; safe on a zeroed or partly built vm. */
void gs_vmm_release(gs_vmm *vm);

#endif
