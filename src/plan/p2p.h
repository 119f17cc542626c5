/* Part of the backend vocabulary (src/plan.h): the p2p operation: GPU-to-GPU copies, loads and
 * chases in one node. Plain C, shared by the probes and both backends. */
#ifndef GS_PLAN_P2P_H
#define GS_PLAN_P2P_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Between two devices of the node (ordinals 0..node_devices-1 of the backend's node, not only the
 * one it opened). Data always flows from src_device's memory to dst_device's memory: the copy
 * engine copies src -> dst (issued on src, a push), the read kernel runs on dst and loads src's
 * memory (a pull), the write kernel runs on src and stores into dst's memory (a push), and the
 * latency chase runs on dst and follows a chain in src's memory. Peer access is enabled for the
 * duration of the operation only and disabled again; NVLink multicast is never used. */
typedef enum gs_p2p_kind {
    GS_P2P_QUERY = 0,             /* only the access and link fields, nothing timed */
    GS_P2P_COPY_ENGINE,           /* cudaMemcpyPeerAsync of bytes, src -> dst */
    GS_P2P_KERNEL_READ,           /* a copy kernel on dst: dst[i] = src[i] over the peer link */
    GS_P2P_KERNEL_WRITE,          /* a copy kernel on src: dst[i] = src[i] over the peer link */
    GS_P2P_LATENCY,               /* one thread on dst chases a chain in src's memory */
    GS_P2P_KIND_COUNT
} gs_p2p_kind;

typedef struct gs_p2p_plan {
    gs_p2p_kind kind;
    int src_device, dst_device;   /* node ordinals, different */
    uint64_t bytes;               /* bandwidth kinds: bytes copied per repetition; latency: the
                                     chase's footprint in src's memory */
    uint64_t stride_bytes;        /* latency: distance between consecutive chain elements */
    uint64_t accesses;            /* latency: timed loads per repetition */
    unsigned repeats;             /* timed repetitions, each recorded (0 for QUERY) */
} gs_p2p_plan;

typedef struct gs_p2p_result {
    bool access_possible;         /* the device running the kind's kernel may map the other's
                                     memory (cudaDeviceCanAccessPeer): dst on src's for query, ce,
                                     read and latency; src on dst's for write */
    int performance_rank;         /* cudaDevP2PAttrPerformanceRank (lower is better); -1 unknown */
    int native_atomics;           /* cudaDevP2PAttrNativeAtomicSupported: 1, 0, -1 unknown */
    char link[16];                /* as the driver reports it: "nvlink", "pcie", "none" (no path
                                     for peer access), "" unknown */
    char link_detail[64];         /* what else the driver says ("PIX: one PCIe switch", "NVLink
                                     per NVML", a model's note); may be "" */
    double *seconds;              /* caller-allocated, repeats long: bandwidth kinds, seconds of
                                     each repetition; latency, seconds per load of each one */
    size_t n;
    uint64_t bytes_moved;         /* bandwidth kinds: bytes crossing the link per repetition */
    double latency_cycles;        /* latency: mean cycles of dst's clock per load, 0 unknown */
} gs_p2p_result;

const char *gs_p2p_kind_name(gs_p2p_kind k);                 /* "ce", "read", "write", ... */

#ifdef __cplusplus
}
#endif

#endif
