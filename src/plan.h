/* The vocabulary that probes and devices share (DESIGN.md, "Backend interface"): what a device
 * tells about itself (info), what a probe may ask of it (a plan for clock, chase, bank, issue,
 * stream) and what comes back (a result), the names of the plans' enums as the command line and
 * JSON spell them, and the table of operations a backend fills in (gs_backend_ops). Both
 * implementations, the CUDA backend (src/cuda/) and the simulator (src/sim/), include this header
 * and nothing above it; src/backend.h opens one of them from a --device spec. Every operation
 * returns 0 or a gs_status with a message in *err; none of them exits or prints. */
#ifndef GS_PLAN_H
#define GS_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- info ------------------------------------------------------------------------------------ */
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

/* ---- clock ----------------------------------------------------------------------------------- */
/* Reads the SM cycle counter (clock64) and the globaltimer (ns) together, first back to back to
 * measure what each read costs, then across windows of window_ns to measure the SM clock. */
typedef struct gs_clock_plan {
    unsigned windows;             /* how many frequency windows, >= 1 */
    uint64_t window_ns;           /* length of each window (spin on globaltimer) */
    unsigned read_samples;        /* back-to-back reads used for the read-cost figures */
} gs_clock_plan;

typedef struct gs_clock_result {
    double clock64_read_cycles;      /* median cost of one clock64() read, in cycles */
    double globaltimer_read_cycles;  /* median cost of one %globaltimer read, in cycles */
    double globaltimer_resolution_ns;/* smallest nonzero step seen in globaltimer */
    /* windows entries, caller-allocated (plan.windows long): */
    uint64_t *window_cycles;
    uint64_t *window_ns;
    double driver_sm_clock_khz;      /* the driver's current SM clock (NVML) read while the windows
                                        ran; 0 if unavailable */
} gs_clock_result;

/* ---- chase ----------------------------------------------------------------------------------- */
typedef enum gs_space {
    GS_SPACE_GLOBAL = 0,
    GS_SPACE_SHARED,
    GS_SPACE_CONSTANT,
    GS_SPACE_LOCAL,
    GS_SPACE_TEXTURE,
} gs_space;

typedef enum gs_load_path {
    GS_PATH_DEFAULT = 0,          /* plain ld (ld.global with the compiler's default caching) */
    GS_PATH_CA,                   /* ld.global.ca: cache at all levels (L1 and L2) */
    GS_PATH_CG,                   /* ld.global.cg: cache in L2 only */
    GS_PATH_CV,                   /* ld.global.cv: do not cache, fetch again */
    GS_PATH_NC,                   /* ld.global.nc / __ldg: read-only (texture) path */
    GS_PATH_TEX,                  /* texture fetch (tex1Dfetch on a texture object) */
    GS_PATH_CONST,                /* constant-bank load (ld.const) */
    GS_PATH_SHARED,               /* ld.shared */
    GS_PATH_LOCAL,                /* ld.local */
    GS_PATH_COUNT
} gs_load_path;

typedef struct gs_chase_plan {
    gs_space space;
    gs_load_path path;
    uint64_t footprint_bytes;     /* virtual span that the chain's offsets lie in */
    uint64_t physical_bytes;      /* physical memory behind it; < footprint means the same physical
                                     memory is mapped at many virtual places (TLB studies); 0 = same */
    const uint64_t *chain;        /* byte offsets in visiting order; the walk wraps from the last to
                                     the first. Offsets are multiples of element_bytes. */
    size_t chain_len;
    unsigned element_bytes;       /* 4 or 8: width of each load and of the stored next-offset */
    unsigned warmup_passes;       /* whole passes over the chain before anything is timed */
    uint64_t warmup_accesses;     /* > 0: instead of whole passes, this many accesses: the walk
                                     starts that many chain positions before its timed accesses
                                     (which begin where they would), so the warm-up is the end of
                                     a pass; warmup_passes x chain_len is the same walk */
    size_t record_n;              /* > 0: fine-grained mode, record the latency of each of the
                                     first record_n timed accesses (Listing 2 of the memory paper) */
    uint64_t timed_accesses;      /* average mode (record_n == 0): accesses timed as one block */
    unsigned walkers;             /* independent chases at once (one warp each, spread over the
                                     SMs, each starting at its own place in the chain); 0 or 1 =
                                     one unloaded chase */
    bool on_sm;                   /* walkers <= 1: run the walk on SM `sm` (%smid numbering);
                                     else where the backend runs one walker always (CUDA: SM 0,
                                     or the next SM that takes a block), so that a latency that
                                     depends on the SM's place on the chip (an H100's L2 hit:
                                     276-307 cycles) is the same from one run to the next */
    unsigned sm;
    unsigned lanes;               /* lanes of each walker's warp that load: 0 or 1 = one lane; up to
                                     32. Lane i loads at (chain offset + i * lane_stride_bytes) and
                                     follows its own copy of the chain, so one warp request touches
                                     as many lines or sectors as the lane stride spreads it over */
    uint64_t lane_stride_bytes;
    int carveout_percent;         /* -1: driver default; else preferred shared-memory carve-out */
    uint64_t smem_bytes;          /* shared memory each walker's block holds: 0 = what the trace
                                     (and a shared-space chain) need; else at least this much, and
                                     the trace must fit in it beside a shared-space chain. One
                                     value on every chase of a study keeps a unified L1/shared
                                     array in one configuration, whatever each chase records */
} gs_chase_plan;

typedef struct gs_chase_result {
    uint32_t *latency_cycles;     /* caller-allocated, record_n long; filled in fine-grained mode */
    size_t recorded;              /* how many latencies were written */
    double avg_cycles;            /* average cycles per access over the timed accesses */
    double avg_ns;                /* average ns per access (globaltimer), 0 if not measured */
    double accesses_per_ns;       /* with walkers > 1: accesses completed per ns by all walkers */
    size_t record_capacity;       /* most entries the on-chip trace buffer can hold on this device:
                                     within plan.smem_bytes when set, else within the shared memory
                                     a block may opt in to. An entry is 2 bytes of shared memory (a
                                     latency, saturated at 65535 cycles) */
    int sm_id;                    /* SM that ran walker 0 (%smid; CUDA backend); backends that do
                                     not know leave it as the caller set it: set -1 first. With
                                     on_sm, the backend fails (GS_ERR_UNSUPPORTED) rather than run
                                     the walk on another SM */
} gs_chase_result;

/* ---- bank ------------------------------------------------------------------------------------ */
/* One warp reads shared memory: lane i reads word (i * stride_elems) of access_bytes each
 * (stride 0 = all lanes the same word, a broadcast). With group_lanes > 1, lanes are grouped and
 * each group shares one address (multicast): lane i reads word ((i / group_lanes) * stride_elems). */
typedef struct gs_bank_plan {
    unsigned access_bytes;        /* 2, 4, 8 or 16 */
    unsigned stride_elems;        /* 0..64, in elements of access_bytes */
    unsigned group_lanes;         /* 0 or 1: none; else lanes per shared address */
    unsigned repeats;             /* timed repetitions, each recorded */
} gs_bank_plan;

typedef struct gs_bank_result {
    double *cycles;               /* caller-allocated, repeats long: cycles of one warp access */
    size_t n;
} gs_bank_result;

/* ---- issue ----------------------------------------------------------------------------------- */
typedef enum gs_instr {
    GS_INSTR_FADD = 0,            /* SP: fp32 add */
    GS_INSTR_FFMA,                /* MADD: fp32 fused multiply-add */
    GS_INSTR_IADD,                /* INT: int32 add */
    GS_INSTR_IMUL,                /* INT: int32 multiply */
    GS_INSTR_DFMA,                /* DP: fp64 FMA */
    GS_INSTR_SFU_SIN,             /* native special function: __sinf (MUFU.SIN) */
    GS_INSTR_SFU_RSQRT,           /* native special function: rsqrtf (MUFU.RSQ) */
    GS_INSTR_SW_SIN,              /* software special function: full-precision sinf */
    GS_INSTR_HFMA2,               /* fp16x2 FMA (cc >= 5.3) */
    GS_INSTR_MMA,                 /* one tensor-core MMA shape (mma.sync m16n8k16 f16, cc >= 8.0) */
    GS_INSTR_COUNT
} gs_instr;

typedef struct gs_issue_plan {
    gs_instr instr;
    unsigned ilp;                 /* independent chains per thread: 1, 2 or 4 */
    unsigned warps_per_block;
    unsigned blocks;              /* total blocks in the grid */
    unsigned blocks_per_sm_limit; /* 0: no limit; else limit concurrent blocks per SM by shared
                                     memory allocation (Eq. 2 of the roofline paper) */
    unsigned iterations;          /* loop trips; each trip issues ilp * unroll instructions */
    unsigned divergent_paths;     /* 0 or 1: none; else lanes split into that many paths (1..32) */
} gs_issue_plan;

typedef struct gs_issue_result {
    double cycles;                /* SM cycles of the longest SM span (earliest block start to
                                     latest block end on that SM) */
    double ns;                    /* wall time of the kernel */
    double instructions;          /* warp instructions of the measured type executed in total */
    double warps_per_sm;          /* concurrent warps per SM that actually ran */
    double instr_per_cycle_per_sm;/* warp instructions per cycle per SM */
    /* Timing checks (added at the end; zero where a backend does not fill them): */
    double clock_khz;             /* SM clock during the kernel (clock64 over globaltimer) */
    double kernel_ipc_per_sm;     /* instructions / (SMs x whole-kernel cycles): a lower bound */
    double clock64_ipc_per_sm;    /* throughput from clock64 spans across the blocks of an SM id */
    double start_spread_cycles;   /* median over SMs of latest minus earliest block start */
    unsigned clock_mismatch_sms;  /* SMs whose blocks' clock64 values were not comparable */
    unsigned moved_blocks;        /* blocks whose %smid changed during the timed region */
    bool measurement_error;       /* a timing check failed: instr_per_cycle_per_sm is not valid */
} gs_issue_result;

/* ---- stream ---------------------------------------------------------------------------------- */
typedef enum gs_stream_kind {
    GS_STREAM_COPY = 0,           /* b[i] = a[i] */
    GS_STREAM_READ,               /* sum += a[i], result kept */
    GS_STREAM_MEMCPY_D2D,         /* cudaMemcpy device to device, same buffers */
    GS_STREAM_MEMCPY_H2D,         /* pinned host to device */
    GS_STREAM_MEMCPY_D2H,         /* device to pinned host */
    /* Level-bandwidth kinds (probe mem-bandwidth; src/cuda/level_stream.cu,
     * src/sim/level_bandwidth.c): run over arrays of plan.bytes each in plan.sweep's order until
     * plan.traffic_bytes have moved; element_bytes 4, 8 or 16 (float, double, float4; 16-byte
     * vector accesses at 16). s is a constant scalar. */
    GS_STREAM_LEVEL_READ,         /* sum += a[i], the sum kept */
    GS_STREAM_LEVEL_WRITE,        /* a[i] = s */
    GS_STREAM_LEVEL_COPY,         /* b[i] = a[i] */
    GS_STREAM_LEVEL_SCALE,        /* b[i] = s * a[i] (STREAM scale) */
    GS_STREAM_LEVEL_ADD,          /* c[i] = a[i] + b[i] (STREAM add) */
    GS_STREAM_LEVEL_TRIAD,        /* a[i] = b[i] + s * c[i] (STREAM triad) */
    GS_STREAM_SMEM_READ,          /* each block sums its own shared-memory array of plan.bytes */
    GS_STREAM_STRIDED_READ,       /* probe dram-layout (src/cuda/dram_stream.cu, src/sim/dram.c):
                                     the grid sums 16-byte elements at a * stride_bytes + [0,
                                     chunk_bytes) for every a with a * stride_bytes below
                                     plan.bytes, pass after pass until traffic_bytes have moved;
                                     element_bytes 16, sweep ignored */
} gs_stream_kind;

/* How the level kinds walk their arrays. */
typedef enum gs_sweep {
    GS_SWEEP_GRID = 0,            /* the grid sweeps the arrays together, pass after pass, in
                                     tiles handed out in address order: each SM sees about
                                     1/SMs of them (DRAM, and the L2) */
    GS_SWEEP_BLOCKS,              /* one block per SM, each sweeping the whole arrays from its own
                                     starting point, pass after pass: each SM sees all of them,
                                     so a footprint under the L1 stays in the L1 (caches) */
    GS_SWEEP_LAUNCHES,            /* gpu-stream's order: one element per thread, a grid of
                                     blocks of threads_per_block covering the arrays, one launch
                                     per pass, the launches of a repetition timed together */
} gs_sweep;

typedef struct gs_stream_plan {
    gs_stream_kind kind;
    unsigned element_bytes;       /* 1, 2, 4, 8 or 16 */
    bool dynamic_bound;           /* loop bound read at run time (vs. a compile-time constant) */
    uint64_t bytes;               /* working-set size of the source buffer */
    unsigned blocks;              /* 0: fill the device */
    unsigned threads_per_block;   /* 0: backend default */
    unsigned repeats;             /* timed repetitions, each recorded */
    /* Level kinds only: */
    gs_sweep sweep;
    uint64_t traffic_bytes;       /* bytes (read + written) one launch moves at least: whole
                                     passes over the arrays, one at least; bytes_moved says what
                                     moved */
    /* GS_STREAM_STRIDED_READ only (multiples of 16, chunk_bytes <= stride_bytes <= bytes): */
    uint64_t stride_bytes;        /* distance between the starts of consecutive chunks */
    uint64_t chunk_bytes;         /* bytes read at each start */
} gs_stream_plan;

typedef struct gs_stream_result {
    double *seconds;              /* caller-allocated, repeats long */
    size_t n;
    uint64_t bytes_moved;         /* bytes read plus written by one repetition */
} gs_stream_result;

/* ---- p2p ------------------------------------------------------------------------------------- */
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

/* ---- atomic ---------------------------------------------------------------------------------- */
/* Atomic read-modify-write operations on global or shared memory. A CHAIN plan is one thread's
 * dependent chain: each atomic's returned value forms the next one's address (address = base +
 * value x a run-time zero), so every atomic waits for the previous one's return (ATOM / ATOMS,
 * never the fire-and-forget RED) and the time per atomic is its latency. The other patterns are
 * throughput plans: blocks x threads_per_block threads each issue iterations atomics on a word
 * the pattern gives (below) and the launch is timed whole. */
typedef enum gs_atomic_op {
    GS_ATOMIC_ADD = 0,            /* atomicAdd */
    GS_ATOMIC_CAS,                /* atomicCAS */
    GS_ATOMIC_EXCH,               /* atomicExch */
    GS_ATOMIC_MIN,                /* atomicMin */
    GS_ATOMIC_MAX,                /* atomicMax */
    GS_ATOMIC_OP_COUNT
} gs_atomic_op;

typedef enum gs_atomic_type {
    GS_ATOMIC_U32 = 0,            /* unsigned int */
    GS_ATOMIC_U64,                /* unsigned long long */
    GS_ATOMIC_F32,                /* float */
    GS_ATOMIC_F64,                /* double */
    GS_ATOMIC_TYPE_COUNT
} gs_atomic_type;

/* Which word thread (warp w, lane l) works on, in elements of the type: w is the warp's index in
 * the grid for global memory and in its block for shared memory (each block has its own array). */
typedef enum gs_atomic_pattern {
    GS_ATOMIC_CHAIN = 0,          /* latency: one thread, a dependent chain on one word */
    GS_ATOMIC_ONE_ADDRESS,        /* every thread on word 0 (global: the whole grid; shared: each
                                     block on its own word 0) */
    GS_ATOMIC_DISTINCT,           /* word 32 w + l: every thread its own word, a warp's words
                                     contiguous (coalesced; no bank conflict in shared memory) */
    GS_ATOMIC_LINES,              /* global: word 32 (w mod lines) + l: the lanes of a warp on
                                     distinct words of one warp footprint (one 128-B line for a
                                     4-byte type), all warps of the grid sharing `lines` of them */
    GS_ATOMIC_SAME_BANK,          /* shared: word (128 / element bytes) l + w: the lanes of a warp
                                     on distinct words 128 B apart, all in one bank */
    GS_ATOMIC_PATTERN_COUNT
} gs_atomic_pattern;

typedef struct gs_atomic_plan {
    gs_space space;               /* GS_SPACE_GLOBAL or GS_SPACE_SHARED */
    gs_atomic_op op;
    gs_atomic_type type;
    gs_atomic_pattern pattern;
    unsigned lines;               /* LINES: warp footprints the grid shares (>= 1) */
    bool keep_result;             /* throughput: every returned value is used (ATOM); false: the
                                     results are dropped, so add, min and max on global memory
                                     become RED (CAS and exchange stay ATOM; shared: ATOMS) */
    unsigned blocks;              /* throughput: blocks in the grid */
    unsigned threads_per_block;   /* throughput: a multiple of 32 */
    uint64_t iterations;          /* throughput: atomics per thread per launch */
    unsigned repeats;             /* timed repetitions (launches for throughput, chains of
                                     latency), each recorded */
} gs_atomic_plan;

typedef struct gs_atomic_result {
    double *values;               /* caller-allocated, repeats long: CHAIN, cycles per atomic of
                                     each repetition; throughput, seconds of each launch */
    size_t n;
    uint64_t operations;          /* throughput: atomics one launch performs */
    double clock_khz;             /* SM clock during the launches (clock64 over globaltimer), 0
                                     unknown */
} gs_atomic_result;
/* ---- cluster -------------------------------------------------------------------------------- */
/* Hopper's thread-block clusters (cc >= 9.0): distributed shared memory (a block loading another
 * block's shared memory over the SM-to-SM network: mapa + ld.shared::cluster) and the bulk-copy
 * (TMA) engine (cp.async.bulk global -> shared, 1D or 2D through a tensor map, completed on an
 * mbarrier). A device without them,
 * or a build without sm_90 code, answers every kind with GS_ERR_UNSUPPORTED and why. */
typedef enum gs_cluster_kind {
    GS_CLUSTER_QUERY = 0,         /* only allowed, max_active_clusters and max_cluster_size */
    GS_CLUSTER_LATENCY,           /* one thread of rank 0 chases a chain in rank `rank`'s shared
                                     memory with ld.shared::cluster (rank 0: its own) */
    GS_CLUSTER_LOCAL_LATENCY,     /* the same chain in its own shared memory with plain ld.shared */
    GS_CLUSTER_BANDWIDTH,         /* every block of every cluster (as many as fit at once) reads
                                     the shared memory of rank (own + rank) % cluster_size with
                                     16-byte loads */
    GS_CLUSTER_BULK_COPY,         /* global -> shared with cp.async.bulk (1D, an mbarrier) */
    GS_CLUSTER_VECTOR_COPY,       /* the same bytes with 16-byte loads and st.shared */
    GS_CLUSTER_TENSOR_COPY,       /* the same with cp.async.bulk.tensor.2d through a CUtensorMap
                                     (16 KB boxes of 64 rows x 256 B of a 4 KB-pitch matrix; the
                                     footprint rounded down to whole 256 KB bands) */
    GS_CLUSTER_KIND_COUNT
} gs_cluster_kind;

typedef struct gs_cluster_plan {
    gs_cluster_kind kind;
    unsigned cluster_size;        /* blocks per cluster, 1..16 (above 8 asks for the non-portable
                                     size); the copy kinds run without clusters and ignore it */
    unsigned rank;                /* latency: whose shared memory rank 0 chases; bandwidth: the
                                     rank distance to the block read (0 = its own) */
    uint64_t smem_bytes;          /* latency and bandwidth: each block's shared array */
    uint64_t stride_bytes;        /* latency: distance between consecutive chain elements */
    uint64_t accesses;            /* latency: timed loads per repetition */
    uint64_t bytes;               /* bandwidth: bytes each block reads per repetition; copy kinds:
                                     the global footprint, copied whole passes until traffic_bytes */
    uint64_t traffic_bytes;       /* copy kinds: bytes one repetition copies at least */
    unsigned repeats;             /* timed repetitions, each recorded (0 for QUERY) */
} gs_cluster_plan;

typedef struct gs_cluster_result {
    bool allowed;                 /* a cluster of this size can be launched; why says otherwise */
    char why[160];
    int max_active_clusters;      /* cudaOccupancyMaxActiveClusters at this size (0 not allowed) */
    int max_cluster_size;         /* cudaOccupancyMaxPotentialClusterSize, non-portable allowed */
    double *values;               /* caller-allocated, repeats long: latency kinds, cycles per
                                     load; bandwidth and copy kinds, seconds per repetition */
    size_t n;
    uint64_t bytes_moved;         /* bandwidth and copy kinds: bytes per repetition */
    unsigned blocks;              /* bandwidth and copy kinds: blocks launched */
    unsigned sms_used;            /* bandwidth and copy kinds: distinct SMs that ran them */
} gs_cluster_result;
/* ---- write ----------------------------------------------------------------------------------- */
/* What the L1 does with a global store (probe write-policy): one warp, lane 0 timing single
 * loads, the whole warp walking an eviction buffer. Each repetition, on a target line X of its
 * own (line_bytes apart, so one repetition leaves the next alone):
 *   LOAD_AFTER_STORE: X is made to be in the L1 (line_in_l1: the words at store_offset and
 *     load_offset loaded twice through path) or out of it but in the L2 (a ld.cg of X, then
 *     evict_bytes of another buffer loaded through path at evict_stride_bytes); then, if store,
 *     one st.global (store_op) of a new value to X + store_offset; settle_cycles of waiting; then
 *     one load of X + load_offset through path, timed with the SM clock (as one access of the
 *     fine-grained chase) and its value checked.
 *   VISIBILITY: two blocks on two SMs. The writer loads X twice through path (X in its L1),
 *     then stores a new value (store_op); the reader, told by a flag that the store comes,
 *     polls X with ld.cg (the L2) for at most window_cycles and records how long until it saw
 *     the new value. The writer waits window_cycles after its store before it ends (a kernel's
 *     end would write back what an L1 held). */
typedef enum gs_write_kind {
    GS_WRITE_LOAD_AFTER_STORE = 0,
    GS_WRITE_VISIBILITY,
} gs_write_kind;

typedef enum gs_store_op {
    GS_STORE_DEFAULT = 0,         /* st.global (.wb, the compiler's default) */
    GS_STORE_CG,                  /* st.global.cg: cache in the L2, not the L1 */
} gs_store_op;

typedef struct gs_write_plan {
    gs_write_kind kind;
    gs_load_path path;            /* default, ca, cg, cv or nc: the timed (and warming) loads */
    gs_store_op store_op;
    bool line_in_l1;              /* LOAD_AFTER_STORE: X loaded into the L1 first (else evicted) */
    bool store;                   /* LOAD_AFTER_STORE: false = no store (a reference latency) */
    uint32_t store_offset_bytes;  /* word of X stored (multiple of 4, < line_bytes) */
    uint32_t load_offset_bytes;   /* word of X loaded and timed (multiple of 4, < line_bytes) */
    uint32_t line_bytes;          /* distance between the repetitions' targets */
    uint64_t evict_bytes;         /* eviction walk: footprint (> the L1) */
    uint32_t evict_stride_bytes;  /* and stride (the L1's line) */
    uint32_t settle_cycles;       /* wait between the store and the timed load */
    uint64_t window_cycles;       /* VISIBILITY: how long the reader polls and the writer waits */
    unsigned repeats;             /* timed repetitions, each recorded */
} gs_write_plan;

typedef struct gs_write_result {
    double *cycles;               /* caller-allocated, repeats long. LOAD_AFTER_STORE: cycles of
                                     the timed load. VISIBILITY: reader cycles from the flag to
                                     the new value, NAN where it did not come within the window
                                     or the repetition is void */
    size_t n;
    unsigned old_values;          /* LOAD_AFTER_STORE with store, load_offset == store_offset:
                                     timed loads that returned the value before the store */
    unsigned seen;                /* VISIBILITY: repetitions whose reader saw the new value */
    unsigned void_repeats;        /* VISIBILITY: repetitions whose blocks did not meet (the
                                     handshake timed out, or both ran on one SM) */
    int sm_id;                    /* SM of the (writer) warp; -1 where not known */
    int reader_sm_id;             /* VISIBILITY: SM of the reader; -1 where not known */
} gs_write_result;

/* ---- persist --------------------------------------------------------------------------------- */
/* The L2 persistence window (CUDA's access policy window, compute capability 8.0+). A measuring
 * plan sets this process's persisting-L2 set-aside (cudaDeviceSetLimit with
 * cudaLimitPersistingL2CacheSize: a limit of the calling context, not a device-wide setting) for
 * the duration of the plan and restores the previous value before returning, on failure too.
 * The device holds a hot region H, a cold region D of the same size and a streaming buffer S;
 * every round is: sweep S; chase the chain in H (hot); chase it again (warm); chase the same
 * chain in D (cold); sweep S; read all of H (hot read); read it again (warm read); read all of D
 * (cold read). The plan's stream carries the mode's access policy window over H, if any; every
 * kernel of the plan runs on it. One untimed round comes first. */
typedef enum gs_persist_mode {
    GS_PERSIST_QUERY = 0,         /* only the limits: nothing allocated, run or changed */
    GS_PERSIST_NONE,              /* no window: the baseline */
    GS_PERSIST_PERSISTING,        /* window over H, hitRatio 1, hitProp persisting, missProp
                                     streaming */
    GS_PERSIST_NORMAL,            /* the same window with hitProp normal: the control */
    GS_PERSIST_MODE_COUNT
} gs_persist_mode;

typedef struct gs_persist_plan {
    gs_persist_mode mode;
    uint64_t set_aside_bytes;     /* persisting L2 set-aside asked for while the plan runs */
    uint64_t hot_bytes;           /* size of H (and of D); at most the window's maximum */
    const uint64_t *chain;        /* byte offsets in H (and D) the chases visit, in order, wrapping
                                     from the last to the first; multiples of 8 */
    size_t chain_len;
    uint64_t stream_bytes;        /* size of S, the sweep meant to evict H */
    unsigned rounds;              /* timed rounds, each recorded */
} gs_persist_plan;

typedef struct gs_persist_result {
    uint64_t max_set_aside_bytes; /* cudaDevAttrMaxPersistingL2CacheSize; 0: no persisting L2 */
    uint64_t max_window_bytes;    /* cudaDevAttrMaxAccessPolicyWindowSize; 0: no window */
    uint64_t set_aside_bytes;     /* the set-aside in force while the plan ran (read back) */
    uint64_t previous_limit_bytes;/* the limit found before, and restored */
    /* rounds entries each, caller-allocated (measuring modes): chases in cycles per load
     * (clock64 over the chain), reads in seconds (globaltimer, first start to last end); a
     * backend that cannot time the reads leaves them NAN */
    double *hot_cycles, *warm_cycles, *cold_cycles;
    double *hot_read_s, *warm_read_s, *cold_read_s;
    size_t n;
} gs_persist_result;

/* ---- evict ----------------------------------------------------------------------------------- */
/* Prime+probe on the L2 (probe cache, "L2 sets and ways"): one buffer of footprint_bytes, every
 * load ld.global.cg (the L2 serves it, never the L1). Each repetition: warm_passes reads of
 * every pool line; each target loaded once and loaded again, timed (its own hit, just measured:
 * a target in the far L2 partition hits later than one in the near part); pool_passes reads of
 * every pool line; each target loaded again, timed (the probe: its own hit if the pool left it
 * in the L2, a miss if the pool evicted it). The targets' loads run in order from one thread
 * (a dependent load between two clock reads); a pool pass reads its lines in parallel and has
 * ended before anything after it starts. Every load of a plan runs on one SM (`sm`, SM 0 by
 * default) unless all_sms: then a pool pass reads its lines with the whole device, each line
 * from whichever SM its place in the list gives it. An L2 that keeps copies of a far
 * partition's lines near the SM that reads them (the H100) then sees a pool whose effect
 * depends on its order, not only on its lines: a search that removes lines moves every later
 * line to another SM (docs/methods.md, "L2 sets and ways"). */
#define GS_EVICT_MAX_TARGETS 64
#define GS_EVICT_MAX_REPEATS 64

typedef struct gs_evict_plan {
    uint64_t footprint_bytes;     /* every offset lies below it */
    const uint64_t *targets;      /* byte offsets, multiples of 8, n_targets of them */
    size_t n_targets;             /* 1 .. GS_EVICT_MAX_TARGETS */
    const uint64_t *pool;         /* byte offsets, multiples of 8, n_pool of them (may be 0) */
    size_t n_pool;
    unsigned warm_passes;         /* pool reads before the targets' first loads */
    unsigned pool_passes;         /* pool reads between the targets' hits and their probes */
    unsigned repeats;             /* repetitions of the whole sequence, each recorded (1 ..
                                     GS_EVICT_MAX_REPEATS) */
    bool all_sms;                 /* pool passes on every SM (above); false: the whole plan on
                                     SM `sm` */
    unsigned sm;                  /* the plan's SM (%smid numbering) when !all_sms */
} gs_evict_plan;

typedef struct gs_evict_result {
    double *hit_cycles;           /* caller-allocated, repeats x n_targets (repetition-major):
                                     each target's second load, right after its first */
    double *probe_cycles;         /* the same shape: each target's load after the pool passes */
    size_t n;                     /* repetitions recorded */
    unsigned sm_moves;            /* repetitions whose hit and probe loads ran on different SMs
                                     (near and far differ per SM; all_sms only, where the
                                     targets run wherever their block lands); 0 where not
                                     known */
} gs_evict_result;

/* ---- mma ------------------------------------------------------------------------------------- */
/* Tensor-core matrix multiply-accumulate (probe tensor). Instruction MMA_SYNC is the warp-level
 * mma.sync.aligned of PTX with one shape per type (f16, bf16: m16n8k16 with f32 accumulators;
 * tf32: m16n8k8, f32; e4m3: m16n8k32, f32 (cc 8.9+); s8: m16n8k32, s32; f64: m8n8k4, f64; all but
 * e4m3 cc 8.0+; no e5m2); WGMMA is Hopper's warpgroup wgmma.mma_async (cc 9.0 only; m64n128 with
 * f32 accumulators (s8: s32), k16 for f16 and bf16, k8 tf32, k32 e4m3, e5m2 and s8, no f64; both
 * operands in shared memory through descriptors, K-major). A LATENCY plan is one
 * warp (one warpgroup for WGMMA) running a dependent chain, each instruction's accumulator the
 * next one's; a throughput plan is blocks x warps_per_block warps, each with several independent
 * accumulators, timed whole. gs_mma_applicable says which combinations a compute capability has;
 * a backend answers GS_ERR_UNSUPPORTED for the others. */
typedef enum gs_mma_type {
    GS_MMA_F16 = 0,               /* fp16 inputs, f32 accumulate */
    GS_MMA_BF16,                  /* bf16 inputs, f32 accumulate */
    GS_MMA_TF32,                  /* tf32 inputs, f32 accumulate */
    GS_MMA_E4M3,                  /* fp8 e4m3 inputs, f32 accumulate */
    GS_MMA_S8,                    /* int8 inputs, s32 accumulate */
    GS_MMA_F64,                   /* fp64 (DMMA) */
    GS_MMA_E5M2,                  /* fp8 e5m2 inputs, f32 accumulate (wgmma only) */
    GS_MMA_TYPE_COUNT
} gs_mma_type;

typedef enum gs_mma_instr {
    GS_MMA_SYNC = 0,              /* mma.sync.aligned, one warp */
    GS_MMA_WGMMA,                 /* wgmma.mma_async, one warpgroup of 4 warps */
    GS_MMA_INSTR_COUNT
} gs_mma_instr;

/* Instructions one warp (warpgroup) issues per throughput loop trip: mma.sync over
 * GS_MMA_CHAINS independent accumulators, wgmma as one commit group on one accumulator. */
#define GS_MMA_PER_TRIP 16
#define GS_MMA_CHAINS 8

typedef struct gs_mma_plan {
    gs_mma_instr instr;
    gs_mma_type type;
    bool latency;                 /* true: one warp (warpgroup), a dependent chain; the other
                                     fields but repeats are ignored */
    unsigned blocks;              /* throughput: blocks in the grid */
    unsigned warps_per_block;     /* throughput: a multiple of 4 for WGMMA */
    uint64_t iterations;          /* throughput: loop trips per warp per launch */
    unsigned repeats;             /* timed repetitions (chains of latency, launches of
                                     throughput), each recorded */
} gs_mma_plan;

typedef struct gs_mma_result {
    double *values;               /* caller-allocated, repeats long: latency, cycles per
                                     instruction of each repetition; throughput, seconds of each
                                     launch */
    size_t n;
    uint64_t flops;               /* throughput: floating-point (s8: integer) operations one launch
                                     performs, 2 m n k per instruction */
    double clock_khz;             /* SM clock during the launches (clock64 over globaltimer), 0
                                     unknown */
} gs_mma_result;

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
} gs_backend_ops;

struct gs_backend {
    const gs_backend_ops *ops;
    void *impl;                   /* backend-private state */
    uint64_t seed;                /* --seed: simulator noise, random chains */
};

/* Names for plans' enums, as used on the command line and in JSON. */
const char *gs_space_name(gs_space s);
const char *gs_path_name(gs_load_path p);
int gs_path_parse(const char *name, gs_load_path *out);      /* 0 or -1 */
const char *gs_instr_name(gs_instr i);
const char *gs_p2p_kind_name(gs_p2p_kind k);                 /* "ce", "read", "write", ... */
const char *gs_cluster_kind_name(gs_cluster_kind k);         /* "latency", "bulk-copy", ... */
const char *gs_persist_mode_name(gs_persist_mode m);         /* "none", "persisting", ... */
int gs_instr_parse(const char *name, gs_instr *out);         /* 0 or -1 */
const char *gs_atomic_op_name(gs_atomic_op o);               /* "add", "cas", "exch", ... */
const char *gs_atomic_type_name(gs_atomic_type t);           /* "u32", "u64", "f32", "f64" */
const char *gs_atomic_pattern_name(gs_atomic_pattern p);     /* "chain", "one_address", ... */
/* Whether CUDA has atomicOP on type t (add: all four; cas, min, max: u32, u64; exch: u32, u64,
 * f32). */
bool gs_atomic_op_has_type(gs_atomic_op o, gs_atomic_type t);
/* What every backend checks of a write, persist or evict plan (GS_ERR_USAGE naming the field). */
int gs_write_plan_check(const gs_write_plan *p, gs_error *err);
int gs_persist_plan_check(const gs_persist_plan *p, const gs_persist_result *out, gs_error *err);
int gs_evict_plan_check(const gs_evict_plan *p, const gs_evict_result *out, gs_error *err);
const char *gs_mma_type_name(gs_mma_type t);                 /* "f16", "bf16", "tf32", ... */
const char *gs_mma_instr_name(gs_mma_instr i);               /* "mma_sync", "wgmma" */
/* The shape (m, n, k) of instruction i on type t; false where there is none (mma_sync: no e5m2;
 * wgmma: no f64). */
bool gs_mma_shape(gs_mma_instr i, gs_mma_type t, unsigned *m, unsigned *n, unsigned *k);
/* Whether compute capability major.minor has instruction i on type t (mma.sync: 8.0+, e4m3 8.9+;
 * wgmma: 9.0 only); if not, why gets "sm_XY has no ..." (why may be NULL). */
bool gs_mma_applicable(gs_mma_instr i, gs_mma_type t, int cc_major, int cc_minor, char *why,
                       size_t why_len);

#ifdef __cplusplus
}
#endif

#endif
