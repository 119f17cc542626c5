/* The vocabulary that probes and devices share (DESIGN.md, "Backend interface"): what a device
 * tells about itself, what a probe may ask of it (a plan per operation) and what comes back (a
 * result), one header per operation under src/plan/, and here the table of operations a backend
 * fills in (gs_backend_ops). Both implementations, the CUDA backend (src/cuda/) and the simulator
 * (src/sim/), include this header and nothing above it; src/backend.h opens one of them from a
 * --device spec. Every operation returns 0 or a gs_status with a message in *err; none of them
 * exits or prints. */
#ifndef GS_PLAN_H
#define GS_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "plan/atomic.h"
#include "plan/bank.h"
#include "plan/chase.h"
#include "plan/clock.h"
#include "plan/cluster.h"
#include "plan/device.h"
#include "plan/energy.h"
#include "plan/evict.h"
#include "plan/icache.h"
#include "plan/issue.h"
#include "plan/launch.h"
#include "plan/mma.h"
#include "plan/p2p.h"
#include "plan/persist.h"
#include "plan/stream.h"
#include "plan/write.h"
#include "util/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- the operations every backend fills in (src/cuda/backend.cu, src/sim/sim_backend.c) -- */
typedef struct gs_backend gs_backend;

typedef struct gs_backend_ops {
    int (*info)(gs_backend *b, gs_device_info *out, gs_error *err);
    int (*clock)(gs_backend *b, const gs_clock_plan *plan, gs_clock_result *out, gs_error *err);
    int (*chase)(gs_backend *b, const gs_chase_plan *plan, gs_chase_result *out, gs_error *err);
    int (*bank)(gs_backend *b, const gs_bank_plan *plan, gs_bank_result *out, gs_error *err);
    int (*issue)(gs_backend *b, const gs_issue_plan *plan, gs_issue_result *out, gs_error *err);
    int (*stream)(gs_backend *b, const gs_stream_plan *plan, gs_stream_result *out, gs_error *err);
    void (*close)(gs_backend *b);
    /* Optional (NULL: the backend has no state to read, as a simulated device). */
    int (*state)(gs_backend *b, gs_device_state *out, gs_error *err);
    /* Optional (NULL: the backend has no peer operations). A plan whose pair has no peer access
     * answers the access fields and, for kinds that need access, GS_ERR_UNSUPPORTED. */
    int (*p2p)(gs_backend *b, const gs_p2p_plan *plan, gs_p2p_result *out, gs_error *err);
    /* Optional (NULL: no atomic operations). A combination of operation, type and space the
     * device (or the model) has no atomic for answers GS_ERR_UNSUPPORTED with why. */
    int (*atomic)(gs_backend *b, const gs_atomic_plan *plan, gs_atomic_result *out,
                  gs_error *err);
    /* Optional (NULL: no cluster operations). A device without clusters answers
     * GS_ERR_UNSUPPORTED; a size it cannot launch answers QUERY with allowed false and the
     * measuring kinds with GS_ERR_UNSUPPORTED. */
    int (*cluster)(gs_backend *b, const gs_cluster_plan *plan, gs_cluster_result *out,
                   gs_error *err);
    /* Optional (NULL: the backend cannot time loads after stores). */
    int (*write)(gs_backend *b, const gs_write_plan *plan, gs_write_result *out, gs_error *err);
    /* Optional (NULL: no persistence window). QUERY answers the limits (0 where the device or
     * the model has no persisting L2); a measuring mode there answers GS_ERR_UNSUPPORTED. */
    int (*persist)(gs_backend *b, const gs_persist_plan *plan, gs_persist_result *out,
                   gs_error *err);
    /* Optional (NULL: no tensor cores). A combination that gs_mma_applicable refuses for the
     * device, or that the backend (build, model) cannot run, answers GS_ERR_UNSUPPORTED. */
    int (*mma)(gs_backend *b, const gs_mma_plan *plan, gs_mma_result *out, gs_error *err);
    /* Optional (NULL: no prime+probe of the L2). A model or device without a cache on the cg
     * path answers GS_ERR_UNSUPPORTED. */
    int (*evict)(gs_backend *b, const gs_evict_plan *plan, gs_evict_result *out, gs_error *err);
    /* Optional (NULL: no launch timings). A kind the device (cluster sync below cc 9.0, a grid
     * sync without cooperative launch) or the model cannot run answers GS_ERR_UNSUPPORTED. */
    int (*launch)(gs_backend *b, const gs_launch_plan *plan, gs_launch_result *out,
                  gs_error *err);
    /* Optional (NULL: no energy counter). A device whose counter NVML does not give (or without
     * NVML), a model without one, or a work the device cannot run answers GS_ERR_UNSUPPORTED. */
    int (*energy)(gs_backend *b, const gs_energy_plan *plan, gs_energy_result *out,
                  gs_error *err);
    /* Optional (NULL: no instruction-cache sweep). A model without an "icache" section answers
     * GS_ERR_UNSUPPORTED. */
    int (*icache)(gs_backend *b, const gs_icache_plan *plan, gs_icache_result *out,
                  gs_error *err);
} gs_backend_ops;

struct gs_backend {
    const gs_backend_ops *ops;
    void *impl;                   /* backend-private state */
    uint64_t seed;                /* --seed: simulator noise, random chains */
};

#ifdef __cplusplus
}
#endif

#endif
