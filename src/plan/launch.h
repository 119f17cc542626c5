/* Part of the backend vocabulary (src/plan.h): the launch operation: what launching a kernel,
 * waiting for it and synchronizing inside it cost. Plain C, shared by the probes and both
 * backends. */
#ifndef GS_PLAN_LAUNCH_H
#define GS_PLAN_LAUNCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Each kind times one thing repeats times; every repetition gives one value in ns per unit. The
 * host kinds time with the host's monotonic clock, the device kinds with %globaltimer. */
typedef enum gs_launch_kind {
    GS_LAUNCH_STREAM = 0,         /* host time of one cudaLaunchKernel of an empty kernel (one
                                     block of one thread), a burst of `burst` timed together */
    GS_LAUNCH_GRAPH,              /* host time of one cudaGraphLaunch of a graph holding that one
                                     empty kernel, a burst of `burst` timed together */
    GS_LAUNCH_COMPLETE,           /* host time from before the launch of one empty kernel on an
                                     idle stream to the return of cudaStreamSynchronize */
    GS_LAUNCH_SYNC_IDLE,          /* host time of cudaStreamSynchronize on an idle stream */
    GS_LAUNCH_EVENT,              /* host time of cudaEventRecord + cudaEventSynchronize on an
                                     idle stream */
    GS_LAUNCH_EVENT_ELAPSED,      /* cudaEventElapsedTime between two events around one empty
                                     kernel (its values' steps give the events' resolution) */
    GS_LAUNCH_GRID_SYNC,          /* one grid.sync() of a cooperative kernel with as many blocks
                                     as run at once, `burst` syncs per launch (%globaltimer of
                                     block 0 around them) */
    GS_LAUNCH_CLUSTER_SYNC,       /* one cluster.sync() of clusters of cluster_size blocks,
                                     `burst` syncs per launch (cc 9.0+; elsewhere
                                     GS_ERR_UNSUPPORTED) */
    GS_LAUNCH_KIND_COUNT
} gs_launch_kind;

typedef struct gs_launch_plan {
    gs_launch_kind kind;
    unsigned burst;               /* STREAM, GRAPH: launches per timed burst; GRID_SYNC,
                                     CLUSTER_SYNC: syncs per launch; ignored by the others */
    unsigned cluster_size;        /* CLUSTER_SYNC: blocks per cluster, 2..8 */
    unsigned repeats;             /* timed repetitions, each recorded */
} gs_launch_plan;

typedef struct gs_launch_result {
    double *values;               /* caller-allocated, repeats long: ns per launch, wait or sync */
    size_t n;                     /* repetitions done */
    unsigned blocks;              /* GRID_SYNC, CLUSTER_SYNC: blocks launched (0 for the others) */
} gs_launch_result;

const char *gs_launch_kind_name(gs_launch_kind k);            /* "stream", "graph", ... */

#ifdef __cplusplus
}
#endif

#endif
