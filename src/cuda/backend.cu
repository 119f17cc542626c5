/* The CUDA backend: opening a device, its properties (info), and the dispatch table to each
 * operation's file. It only reads the device: it never changes clocks, power limits, compute mode
 * or MIG layout. The driver's current SM clock comes from NVML, loaded at run time if present. */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cuda/cuda_internal.h"

/* ---- open, info, close --------------------------------------------------------------------- */
int gs_cuda_device_count(int *count, gs_error *err)
{
    *count = 0;
    cudaError_t e = cudaGetDeviceCount(count);
    if (e == cudaErrorNoDevice) {
        *count = 0;
        return 0;
    }
    if (e != cudaSuccess) {
        *count = 0;
        return gs_cuda_fail(err, e, "cudaGetDeviceCount()", __FILE__, __LINE__);
    }
    return 0;
}

int gs_cuda_info(gs_backend *b, gs_device_info *o, gs_error *err)
{
    int rc = 0;
    gs_cuda *c = gs_cuda_of(b);
    const cudaDeviceProp *p = &c->prop;
    int v = 0;
    size_t free_bytes = 0, total_bytes = 0;
    memset(o, 0, sizeof *o);
    snprintf(o->name, sizeof o->name, "%.127s", p->name);
    snprintf(o->backend, sizeof o->backend, "cuda");
    o->ordinal = c->ordinal;
    o->cc_major = p->major;
    o->cc_minor = p->minor;
    o->sm_count = p->multiProcessorCount;
    o->warp_size = p->warpSize;
    o->max_threads_per_sm = p->maxThreadsPerMultiProcessor;
    o->max_threads_per_block = p->maxThreadsPerBlock;
    o->regs_per_sm = p->regsPerMultiprocessor;
    o->l2_bytes = (uint64_t)p->l2CacheSize;
    o->const_mem_bytes = p->totalConstMem;
    o->smem_per_sm_bytes = p->sharedMemPerMultiprocessor;
    o->smem_per_block_bytes = p->sharedMemPerBlock;
    o->smem_per_block_optin_bytes = p->sharedMemPerBlockOptin;
    o->global_mem_bytes = p->totalGlobalMem;
    o->mem_bus_bits = p->memoryBusWidth;
    o->driver_version = c->driver_version;
    o->runtime_version = c->runtime_version;
    gs_cuda_counters_probe(c->ordinal, &o->counters, o->counters_detail,
                           sizeof o->counters_detail);
    CUDA_TRY(cudaDeviceGetAttribute(&v, cudaDevAttrMaxBlocksPerMultiprocessor, c->ordinal));
    o->max_blocks_per_sm = v;
    CUDA_TRY(cudaDeviceGetAttribute(&v, cudaDevAttrClockRate, c->ordinal));
    o->sm_clock_khz = v;
    CUDA_TRY(cudaDeviceGetAttribute(&v, cudaDevAttrMemoryClockRate, c->ordinal));
    o->mem_clock_khz = v;
    CUDA_TRY(cudaMemGetInfo(&free_bytes, &total_bytes));
    o->global_mem_free_bytes = free_bytes;
    CUDA_TRY(cudaDeviceGetPCIBusId(o->pci_bus_id, (int)sizeof o->pci_bus_id, c->ordinal));
    o->sm_clock_now_khz = gs_cuda_driver_sm_clock_khz(o->pci_bus_id);
    gs_cuda_format_uuid(p->uuid.bytes, o->uuid, sizeof o->uuid);
    CUDA_TRY(cudaGetDeviceCount(&o->node_devices));
    {
        CUdevice dev;
        int vmm = 0;
        CU_TRY(cuDeviceGet(&dev, c->ordinal));
        CU_TRY(cuDeviceGetAttribute(&vmm, CU_DEVICE_ATTRIBUTE_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED,
                                    dev));
        o->vmm_supported = vmm != 0;
    }
fail:
    return rc;
}

static void cuda_close(gs_backend *b)
{
    gs_vmm_cache_release(&gs_cuda_of(b)->aliases);
    gs_cuda_issue_release();
    gs_cuda_scratch_release();
    gs_cuda_evict_release();
    gs_cuda_counters_release();
    gs_cuda_chase_release();
    gs_cuda_chase_pool_release();
    gs_cuda_chase_flush_release();
    free(b->impl);
    free(b);
}

static const gs_backend_ops cuda_ops = {
    gs_cuda_info, gs_cuda_clock, gs_cuda_chase, gs_cuda_bank,
    gs_cuda_issue, gs_cuda_stream, cuda_close, gs_cuda_state, gs_cuda_p2p, gs_cuda_atomic,
    gs_cuda_cluster, gs_cuda_write, gs_cuda_persist, gs_cuda_mma, gs_cuda_evict,
    gs_cuda_launch, gs_cuda_energy, gs_cuda_icache,
};

void gs_cuda_format_uuid(const char *bytes, char *out, size_t len)
{
    const unsigned char *u = (const unsigned char *)bytes;
    snprintf(out, len, "GPU-%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x",
             u[0], u[1], u[2], u[3], u[4], u[5], u[6], u[7], u[8], u[9], u[10], u[11], u[12],
             u[13], u[14], u[15]);
}

int gs_cuda_find_uuid(const char *uuid, int *ordinal, gs_error *err)
{
    int count = 0, found = -1, matches = 0;
    int rc = gs_cuda_device_count(&count, err);
    if (rc)
        return rc;
    for (int i = 0; i < count; i++) {
        cudaDeviceProp p;
        char text[48];
        if (cudaGetDeviceProperties(&p, i) != cudaSuccess)
            continue;
        gs_cuda_format_uuid(p.uuid.bytes, text, sizeof text);
        if (strncasecmp(text, uuid, strlen(uuid)) == 0) {
            found = i;
            matches++;
        }
    }
    if (matches == 1) {
        *ordinal = found;
        return 0;
    }
    return gs_fail(err, matches ? GS_ERR_USAGE : GS_ERR_NO_DEVICE,
                   "--device cuda:%s: %s; 'gpusonar devices' lists the GPUs and their UUIDs", uuid,
                   matches ? "more than one GPU has a UUID beginning so" : "no GPU has this UUID");
}

int gs_cuda_open(int ordinal, gs_backend **out, gs_error *err)
{
    int rc = 0, count = 0;
    gs_cuda *c = NULL;
    gs_backend *b = NULL;
    *out = NULL;
    cudaError_t e = cudaGetDeviceCount(&count);
    if (e == cudaErrorNoDevice || (e == cudaSuccess && count == 0))
        return gs_fail(err, GS_ERR_NO_DEVICE, "no CUDA GPU found (cudaGetDeviceCount: %s); check "
                       "the driver with nvidia-smi, or use --device sim", cudaGetErrorString(e));
    if (e == cudaErrorInsufficientDriver && !dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD) &&
        !dlopen("libcuda.so.1", RTLD_LAZY))
        return gs_fail(err, GS_ERR_NO_DEVICE, "no NVIDIA driver on this machine (libcuda.so.1 "
                       "not found); install the driver, or use --device sim");
    if (e == cudaErrorInsufficientDriver)
        return gs_fail(err, GS_ERR_DRIVER, "the NVIDIA driver is too old for this build's CUDA "
                       "runtime %d.%d; update the driver or rebuild with an older toolkit",
                       CUDART_VERSION / 1000, CUDART_VERSION % 1000 / 10);
    if (e != cudaSuccess)
        return gs_fail(err, GS_ERR_NO_DEVICE, "CUDA is not usable: %s (%s); check the driver with "
                       "nvidia-smi, or use --device sim", cudaGetErrorString(e), cudaGetErrorName(e));
    if (ordinal >= count)
        return gs_fail(err, GS_ERR_NO_DEVICE, "--device cuda:%d does not exist: this machine has "
                       "%d CUDA device%s (cuda:0%s)", ordinal, count, count == 1 ? "" : "s",
                       count > 1 ? " to cuda:N-1" : "");
    c = (gs_cuda *)calloc(1, sizeof *c);
    b = (gs_backend *)calloc(1, sizeof *b);
    if (!c || !b) {
        rc = gs_fail(err, GS_ERR_NO_MEMORY, "out of host memory opening cuda:%d", ordinal);
        goto fail;
    }
    c->ordinal = ordinal;
    CUDA_TRY(cudaSetDevice(ordinal));
    CUDA_TRY(cudaGetDeviceProperties(&c->prop, ordinal));
    CUDA_TRY(cudaDriverGetVersion(&c->driver_version));
    CUDA_TRY(cudaRuntimeGetVersion(&c->runtime_version));
    CUDA_TRY(cudaFree(0)); /* create the context now, so later timings do not include it */
    CU_TRY(cuInit(0));
    b->ops = &cuda_ops;
    b->impl = c;
    *out = b;
    return 0;
fail:
    free(c);
    free(b);
    return rc;
}
