/* Virtual-memory aliasing for TLB studies (src/cuda/ only): reserve a large span of virtual address
 * space with the driver's virtual memory management API and map one small physical allocation at
 * every place in it, so that a chase over >= 1 TB of virtual space costs only physical_bytes of
 * device memory. Virtual offset v is backed by physical offset (v mod physical_bytes).
 * Mapping hundreds of GB takes the driver 0.2-0.5 s, so the backend keeps its aliased
 * spans in a gs_vmm_cache until it closes: a chase reuses the span of its physical size,
 * which grows (in place when the driver gives the adjacent range) when a chase needs more. */
#ifndef GS_CUDA_VMM_H
#define GS_CUDA_VMM_H

#include <stdbool.h>
#include <stdint.h>

#include <cuda.h>

#include "util/error.h"

#define GS_VMM_MAX_SPANS 16       /* reservations one alias may grow through */
#define GS_VMM_CACHED 4           /* aliases (physical sizes) a cache keeps at once */

typedef struct gs_vmm {
    CUdeviceptr va;               /* start of the reserved span; 0 when nothing is reserved */
    uint64_t va_bytes;            /* reserved span: a multiple of physical_bytes */
    uint64_t physical_bytes;      /* physical allocation, rounded up to the granularity */
    uint64_t granularity_bytes;   /* the driver's minimum mapping granularity */
    uint64_t mapped_bytes;        /* how much of the span is mapped (from va) */
    CUmemGenericAllocationHandle handle;
    bool have_handle;
    int ordinal;
    unsigned spans;               /* reservations that make up [va, va + va_bytes), in order */
    CUdeviceptr span_va[GS_VMM_MAX_SPANS];
    uint64_t span_bytes[GS_VMM_MAX_SPANS];
} gs_vmm;

/* Reserve footprint_bytes of virtual space on device ordinal and map physical_bytes of device
 * memory at every multiple of physical_bytes in it, readable and writable. On failure everything
 * taken is released, and err says what failed (GS_ERR_NO_MEMORY for the physical allocation,
 * GS_ERR_UNSUPPORTED when the device has no VMM). */
int gs_vmm_alias(int ordinal, uint64_t footprint_bytes, uint64_t physical_bytes, gs_vmm *vm,
                 gs_error *err);

/* Unmap, release and free whatever vm holds; safe on a zeroed or partly built vm. */
void gs_vmm_release(gs_vmm *vm);

/* Aliased spans kept across chases, one per physical size (the least recently used goes when a
 * fifth size comes). Zeroed means empty. */
typedef struct gs_vmm_cache {
    gs_vmm vm[GS_VMM_CACHED];
    uint64_t last_use[GS_VMM_CACHED];
    uint64_t uses;
    uint64_t granularity_bytes;   /* 0 until the first alias */
} gs_vmm_cache;

/* An alias of at least footprint_bytes onto physical_bytes (rounded up to the granularity, as
 * gs_vmm_alias does), with the same meaning as a fresh gs_vmm_alias: offset v from (*out)->va is
 * backed by physical offset v mod (*out)->physical_bytes. The physical memory keeps whatever
 * earlier chases wrote there. *out belongs to the cache and stays valid until the next call or
 * gs_vmm_cache_release. When the driver runs out of memory, the cache's other aliases are
 * released and the alias is made once more before the error is returned. */
int gs_vmm_cache_alias(gs_vmm_cache *c, int ordinal, uint64_t footprint_bytes,
                       uint64_t physical_bytes, gs_vmm **out, gs_error *err);

/* Release every alias the cache holds (at the backend's close, or to give memory back). */
void gs_vmm_cache_release(gs_vmm_cache *c);

#endif
