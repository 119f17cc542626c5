/* Shared by the CUDA backend's files (src/cuda/ only): the backend state, the one error-checking
 * macro, and each operation's entry point (backend.cu dispatches to them). */
#ifndef GS_CUDA_INTERNAL_H
#define GS_CUDA_INTERNAL_H

#include <cuda.h>
#include <cuda_runtime.h>

#include "cuda/cuda_backend.h"
#include "cuda/vmm.h"
#include "plan.h"

typedef struct gs_cuda {
    int ordinal;
    cudaDeviceProp prop;
    int driver_version;
    int runtime_version;
    gs_vmm_cache aliases;         /* aliased footprints of TLB chases, kept until close (vmm.h) */
} gs_cuda;

/* The backend state of b. */
static inline gs_cuda *gs_cuda_of(gs_backend *b) { return (gs_cuda *)b->impl; }

/* Device buffers of the stream operations (scratch.cu), kept from one plan to the next and
 * released at the backend's close: the first count of GS_SCRATCH_BUFFERS, each bytes long at
 * least, into out; *fresh when any was allocated for this call (its kernels then warm up longer).
 * Freeing and allocating anew per plan cost about 20 ms per footprint of a mem-bandwidth sweep
 * (24 of its 44 s with --thorough on an H100), and on an H100 the kernels of the 3 ms after a
 * plan had freed 1.6 GB and allocated as much again ran 15-20 % slow (a 1-byte read at 2050
 * GB/s against 2460; docs/hardware/h100.md). */
/* *buf of at least bytes (*have long): kept, or allocated anew at twice *have, or at bytes where
 * that does not fit; *grown set when it was allocated anew (scratch.cu; evict.cu's buffers too). */
cudaError_t gs_cuda_grow(void **buf, size_t *have, size_t bytes, bool *grown);
/* A buffer kept between plans that gs_cuda_scratch may free when it finds no room. */
void gs_cuda_spare_register(void (*release)(void));
#define GS_SCRATCH_BUFFERS 3
#define GS_WARM_FRESH_MS 20.0f    /* untimed launches on fresh scratch buffers, at least */
/* A scratch buffer's first allocation, at least (less where that does not fit): from 16 KB a
 * sweep's footprints reallocated once an octave, each with GS_WARM_FRESH_MS of warm-up, 0.6 s
 * of mem-bandwidth's 2.9 s on an H100 (docs/hardware/h100.md). */
#define GS_SCRATCH_MIN_BYTES (256ull << 20)
int gs_cuda_scratch(int ordinal, int count, size_t bytes, void **out, bool *fresh,
                    gs_error *err);
void gs_cuda_scratch_release(void);
/* The chain kept from the last multi-walker chase (chase.cu), released at close, before any
 * other chase's footprint and when an allocation runs out of memory. */
void gs_cuda_chase_release(void);
void gs_cuda_chase_pool_release(void);   /* the chases' small buffers (chase.cu) */
void gs_cuda_chase_flush_release(void);   /* the cold chases' eviction buffer (chase.cu) */

/* One run of a stream operation on the current stream (a launch, a copy), arg its job. */
typedef int (*gs_cuda_run_fn)(void *arg, gs_error *err);

/* The harness (harness.cu). Untimed runs (one, or GS_WARM_FRESH_MS of them when the buffers are
 * fresh), then repeats runs each timed alone between two events into seconds (*n: the runs
 * timed). */
int gs_cuda_time_launches(gs_cuda_run_fn run, void *arg, bool fresh, unsigned repeats,
                          double *seconds, size_t *n, gs_error *err);
/* The same into a stream result (out->n: repeats, 0 on an error). */
int gs_cuda_time_runs(gs_cuda_run_fn run, void *arg, bool fresh, unsigned repeats,
                      gs_stream_result *out, gs_error *err);

/* A launch of reps repetitions of a dependent chain, arg its job. */
typedef int (*gs_cuda_reps_fn)(void *arg, unsigned reps, gs_error *err);
#define GS_CUDA_MAX_CHAIN_REPEATS 512

/* repeats repetitions of a chain in launches of at most max_per_launch, each repetition leaving
 * two cycle spans in spans_dev (chain steps, then twice as many): values[r] = their difference
 * over chain, the cycles of one step without the timer's own cost (*n: the repetitions done). */
int gs_cuda_chain_spans(gs_cuda_reps_fn launch, void *arg, unsigned repeats,
                        unsigned max_per_launch, const long long *spans_dev, unsigned chain,
                        double *values, size_t *n, gs_error *err);

/* The SM clock from clk_dev[0..3] = clock64 and %globaltimer read before and after a loop (kHz;
 * *clock_khz left as it is where the reads are not increasing). */
int gs_cuda_clock_of(const unsigned long long *clk_dev, double *clock_khz, gs_error *err);

/* Turn a CUDA runtime error into a gpusonar error naming the call and file:line (out of memory
 * becomes GS_ERR_NO_MEMORY; everything else GS_ERR_DEVICE). */
int gs_cuda_fail(gs_error *err, cudaError_t e, const char *call, const char *file, int line);
int gs_cu_fail(gs_error *err, CUresult r, const char *call, const char *file, int line);

/* Check a runtime call; on failure set *err and jump to the label `fail` of the caller, with rc
 * set (every function that uses it declares `int rc = 0;` and a `fail:` cleanup label). */
#define CUDA_TRY(call)                                                                       \
    do {                                                                                     \
        cudaError_t e_ = (call);                                                             \
        if (e_ != cudaSuccess) {                                                             \
            rc = gs_cuda_fail(err, e_, #call, __FILE__, __LINE__);                           \
            goto fail;                                                                       \
        }                                                                                    \
    } while (0)
/* The same for driver API calls (cuMemMap and friends). */
#define CU_TRY(call)                                                                         \
    do {                                                                                     \
        CUresult r_ = (call);                                                                \
        if (r_ != CUDA_SUCCESS) {                                                            \
            rc = gs_cu_fail(err, r_, #call, __FILE__, __LINE__);                             \
            goto fail;                                                                       \
        }                                                                                    \
    } while (0)
/* After a kernel launch: the launch error, then the execution error. */
#define CUDA_LAUNCH_CHECK()                                                                  \
    do {                                                                                     \
        CUDA_TRY(cudaGetLastError());                                                        \
        CUDA_TRY(cudaDeviceSynchronize());                                                   \
    } while (0)

/* Whether the driver hands out entry point `name` (driver_shim.cu forwards the driver functions
 * gpusonar calls to such entry points; a missing one answers CUDA_ERROR_NOT_INITIALIZED). */
bool gs_driver_has(const char *name);                                        /* driver_shim.cu */
/* The driver's current SM clock in kHz, read through NVML (dlopen); 0 when NVML is absent. */
double gs_cuda_driver_sm_clock_khz(const char *pci_bus_id);                 /* nvml.cu */
/* The link between two GPUs (PCI bus ids) as NVML reports it: link "nvlink" when NVLink P2P
 * status is OK, else "pcie" with the topology level in detail ("PIX: one PCIe switch"); link ""
 * and why in detail when NVML cannot say. */
void gs_cuda_nvml_link(const char *bus_a, const char *bus_b, char *link, size_t link_len,
                       char *detail, size_t detail_len);                     /* nvml.cu */
/* NVML's total-energy counter of the GPU at pci_bus_id (nvmlDeviceGetTotalEnergyConsumption):
 * open checks that it reads and gives its handle in *dev, or GS_ERR_UNSUPPORTED with why (NVML
 * absent, the symbol absent, NVML_ERROR_NOT_SUPPORTED); read gives mJ since the driver loaded
 * (0, or NVML's error code). */
int gs_cuda_nvml_energy_open(const char *pci_bus_id, void **dev, char *why,
                             size_t why_len);                                /* nvml.cu */
int gs_cuda_nvml_energy_read(void *dev, unsigned long long *mj);            /* nvml.cu */
/* "GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx" from a 16-byte CUDA UUID. */
void gs_cuda_format_uuid(const char *bytes, char *out, size_t len);        /* backend.cu */

/* Operations, one file each. */
int gs_cuda_info(gs_backend *b, gs_device_info *out, gs_error *err);        /* backend.cu */
int gs_cuda_clock(gs_backend *b, const gs_clock_plan *plan, gs_clock_result *out,
                  gs_error *err);                                            /* clock.cu */
int gs_cuda_chase(gs_backend *b, const gs_chase_plan *plan, gs_chase_result *out,
                  gs_error *err);                                            /* chase.cu */
int gs_cuda_bank(gs_backend *b, const gs_bank_plan *plan, gs_bank_result *out,
                 gs_error *err);                                             /* bank.cu */
int gs_cuda_issue(gs_backend *b, const gs_issue_plan *plan, gs_issue_result *out,
                  gs_error *err);                                            /* issue.cu */
void gs_cuda_issue_release(void);          /* issue.cu: its buffers back, at the backend's close */
int gs_cuda_stream(gs_backend *b, const gs_stream_plan *plan, gs_stream_result *out,
                   gs_error *err);                                           /* stream.cu */
int gs_cuda_state(gs_backend *b, gs_device_state *out, gs_error *err);      /* nvml.cu */
/* The L2's lookup counters (cupti.cu): probe sets *on and what reads them, or why not, once per
 * process; begin and end bracket the launches to count (every launch between them, after a
 * device synchronize), end giving the L2's sector lookup hits and misses; release at close. */
void gs_cuda_counters_probe(int ordinal, bool *on, char *detail, size_t len);
int gs_cuda_counters_begin(gs_error *err);
int gs_cuda_counters_end(uint64_t *hit, uint64_t *miss, gs_error *err);
void gs_cuda_counters_release(void);
int gs_cuda_p2p(gs_backend *b, const gs_p2p_plan *plan, gs_p2p_result *out,
                gs_error *err);                                              /* p2p.cu */
int gs_cuda_atomic(gs_backend *b, const gs_atomic_plan *plan, gs_atomic_result *out,
                   gs_error *err);                                           /* atomic.cu */
int gs_cuda_mma(gs_backend *b, const gs_mma_plan *plan, gs_mma_result *out,
                gs_error *err);                                              /* mma.cu */
/* The latency chains of mma.cu and sm90a/wgmma.cu: MMA_CHAIN and 2 x MMA_CHAIN dependent
 * instructions per repetition, at most MMA_MAX_REPEATS repetitions per launch. */
#define MMA_CHAIN 32
#define MMA_MAX_REPEATS 256
#ifdef GS_HAVE_SM90A
/* The wgmma kernels (sm90a/wgmma.cu, built for sm_90a alone), one per input type: a latency
 * launch of one warpgroup (spans as mma.cu's latency kernel) and a throughput launch of blocks
 * warpgroups; each returns the launch error (cudaErrorNotSupported for a type without wgmma). */
cudaError_t gs_wgmma_launch_latency(gs_mma_type type, unsigned reps, long long *spans,
                                    unsigned *sink);
cudaError_t gs_wgmma_launch_tput(gs_mma_type type, unsigned blocks, unsigned iterations,
                                 unsigned *sink, unsigned long long *clk);
#endif
int gs_cuda_cluster(gs_backend *b, const gs_cluster_plan *plan, gs_cluster_result *out,
                    gs_error *err);                                          /* cluster.cu */
int gs_cuda_write(gs_backend *b, const gs_write_plan *plan, gs_write_result *out,
                  gs_error *err);                                            /* write.cu */
int gs_cuda_persist(gs_backend *b, const gs_persist_plan *plan, gs_persist_result *out,
                    gs_error *err);                                          /* persist.cu */
int gs_cuda_icache(gs_backend *b, const gs_icache_plan *plan, gs_icache_result *out,
                   gs_error *err);                                        /* icache.cu */
int gs_cuda_evict(gs_backend *b, const gs_evict_plan *plan, gs_evict_result *out,
                  gs_error *err);                                            /* evict.cu */
/* The evict operation's device buffers, kept from one plan to the next, released at close. */
void gs_cuda_evict_release(void);                                           /* evict.cu */
int gs_cuda_launch(gs_backend *b, const gs_launch_plan *plan, gs_launch_result *out,
                   gs_error *err);                                           /* launch.cu */
int gs_cuda_energy(gs_backend *b, const gs_energy_plan *plan, gs_energy_result *out,
                   gs_error *err);                                           /* energy.cu */
int gs_cuda_level_stream(gs_backend *b, const gs_stream_plan *plan, gs_stream_result *out,
                         gs_error *err);                                     /* level_stream.cu */
int gs_cuda_strided_stream(gs_backend *b, const gs_stream_plan *plan, gs_stream_result *out,
                           gs_error *err);                                   /* dram_stream.cu */

#endif
