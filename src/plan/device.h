/* Part of the backend vocabulary (src/plan.h): what a device tells about itself (info) and what
 * the card is doing now (state). Plain C, shared by the probes and both backends. */
#ifndef GS_PLAN_DEVICE_H
#define GS_PLAN_DEVICE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/error.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct gs_device_info {
    char name[128];               /* "NVIDIA H100 80GB HBM3" or "hopper (simulated model)" */
    char backend[8];              /* "cuda" or "sim" */
    char model[256];              /* sim: model name or file; cuda: "" */
    bool simulated;
    int ordinal;                  /* cuda device index; 0 for sim */
    int cc_major, cc_minor;       /* compute capability */
    int sm_count;
    int warp_size;
    int max_threads_per_sm;
    int max_threads_per_block;
    int max_blocks_per_sm;
    int regs_per_sm;
    double sm_clock_khz;          /* clock the driver (or the model) reports; 0 if unknown */
    double mem_clock_khz;         /* 0 if unknown */
    int mem_bus_bits;             /* 0 if unknown */
    uint64_t global_mem_bytes;
    uint64_t global_mem_free_bytes;
    uint64_t l2_bytes;
    uint64_t const_mem_bytes;
    uint64_t smem_per_sm_bytes;
    uint64_t smem_per_block_bytes;         /* default limit */
    uint64_t smem_per_block_optin_bytes;   /* with cudaFuncAttributeMaxDynamicSharedMemorySize */
    int driver_version;           /* 13000 for 13.0; 0 for sim */
    int runtime_version;
    bool vmm_supported;           /* virtual memory management (cuMemMap) usable */
    double sm_clock_now_khz;      /* the driver's current SM clock (NVML), 0 if unavailable */
    char pci_bus_id[32];          /* "0000:45:00.0"; "" for sim */
    char uuid[48];                /* "GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx"; sim: "SIM-<model>" */
    int node_devices;             /* devices of the node the p2p op can address (cuda: every
                                     visible GPU; sim: the model's "node" section, else 1) */
    bool counters;                /* the L2's lookup counters can be read (gs_evict_plan's
                                     count_l2): CUPTI's range profiler on CUDA, the L2 model's
                                     own count on the simulator */
    char counters_detail[200];    /* on: what reads them ("CUPTI 2025.3 (130000), chip GH100");
                                     off: why not, for the document */
} gs_device_info;

/* ---- state ----------------------------------------------------------------------------------- */
/* What the card is doing now, read only (NVML on CUDA, loaded at run time): the environment
 * record of a result document is two of these, at the start and at the end of a run. */
typedef struct gs_device_state {
    bool available;               /* false: nothing could be read; reason says why */
    char reason[160];
    char driver_version[32];      /* the driver's version string ("580.159.04") */
    int cuda_driver_version;      /* the CUDA version the driver supports (13000), 0 unknown */
    int mig_mode;                 /* -1 unknown, 0 disabled, 1 enabled */
    int compute_mode;             /* -1 unknown, else NVML's (0 default, 2 prohibited, 3 exclusive) */
    double temperature_c;         /* NAN where unknown, for every reading below */
    double power_w;
    double power_limit_w;         /* the enforced limit */
    double sm_clock_khz;
    double mem_clock_khz;
    uint64_t throttle_reasons;    /* NVML's clocks-event reason bits (GS_THROTTLE_*) */
    bool throttle_known;
    int other_processes;          /* compute processes on the GPU other than this one; -1 unknown */
    unsigned other_pids[8];       /* the first of them */
} gs_device_state;

/* NVML's clocks-event (throttle) reason bits, as read; those of GS_THROTTLE_SLOWDOWN lower the
 * clock against the application's will. */
enum {
    GS_THROTTLE_IDLE = 0x1,
    GS_THROTTLE_APP_CLOCKS = 0x2,
    GS_THROTTLE_SW_POWER_CAP = 0x4,
    GS_THROTTLE_HW_SLOWDOWN = 0x8,
    GS_THROTTLE_SYNC_BOOST = 0x10,
    GS_THROTTLE_SW_THERMAL = 0x20,
    GS_THROTTLE_HW_THERMAL = 0x40,
    GS_THROTTLE_HW_POWER_BRAKE = 0x80,
    GS_THROTTLE_DISPLAY_CLOCKS = 0x100,
    GS_THROTTLE_SLOWDOWN = 0x4 | 0x8 | 0x20 | 0x40 | 0x80,
};

#ifdef __cplusplus
}
#endif

#endif
