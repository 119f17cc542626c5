/* Part of the backend vocabulary (src/plan.h): the chase operation: pointer chases in every memory
 * space and load path, and the names of spaces and paths. Plain C, shared by the probes and both
 * backends. */
#ifndef GS_PLAN_CHASE_H
#define GS_PLAN_CHASE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/error.h"

#ifdef __cplusplus
extern "C" {
#endif

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
    bool warmup_split;            /* where gs_chase_split says it applies: the warm-up walks its
                                     accesses to the timed accesses' own chain positions first,
                                     one after another, then every other position of the warm-up
                                     in GS_SPLIT_SEGMENTS contiguous segments at once (segment i
                                     in chain order), on the SM of the timed walk. Each timed
                                     access then finds between its warm visit and itself every
                                     other element of the walk once, as after the serial warm-up
                                     (docs/methods.md, "The split warm-up") */
    unsigned warmup_window;       /* where gs_chase_window_of says it applies (2 to 32): the
                                     warm-up, one whole pass, is walked by this many lanes of one
                                     warp on the SM of the timed walk, lane l at positions l,
                                     l + W, l + 2W, ... in lockstep, each element holding in the
                                     8 bytes after it the cursor W positions on: the serial pass's
                                     order, W consecutive positions at a time (docs/methods.md,
                                     "The windowed warm-up") */
    uint64_t base_align_bytes;    /* global and texture chases not aliased: 0 = offset 0 lies
                                     wherever the backend's allocator puts it (CUDA: cudaMalloc,
                                     256-B aligned at least); else a power of two, and offset 0
                                     lies at a device address that is a multiple of it, so that
                                     base + offset = base | offset below it: a set index hashed
                                     from address bits under that alignment sees the offsets' own
                                     bits (docs/methods.md, "Where a chase's buffer lies") */
} gs_chase_plan;

/* Segments of a split warm-up's parallel part, at most (one block of threads of one SM). */
#define GS_SPLIT_SEGMENTS 1024u

/* A split warm-up (plan.warmup_split) as positions of the chain: the serial part is positions
 * serial_first .. serial_first + serial_n - 1, then the parallel part, positions parallel_first .. chain_len
 * - 1 (parallel_n of them), cut into `segments` contiguous pieces, piece i starting
 * i * parallel_n / segments positions in. */
typedef struct gs_chase_split {
    size_t serial_first, serial_n;
    size_t parallel_first, parallel_n;
    unsigned segments;
} gs_chase_split;

/* Whether plan p's warm-up runs split, and how (*s): warmup_split on a global chase through a
 * global load path (not texture), one walker of one lane, average mode, not aliased, with a
 * warm-up of one pass or fewer accesses that leaves more than the timed accesses' positions to
 * walk at once. Otherwise the warm-up is walked one access after another. Both backends decide
 * by this function. */
bool gs_chase_split_of(const gs_chase_plan *p, gs_chase_split *s);

/* Lanes of plan p's windowed warm-up (plan.warmup_window), 0 where it does not apply: a global
 * chase through a global load path, one walker of one lane, average mode, not aliased, 8-byte
 * elements at offsets that are multiples of 16 (so the 8 bytes after each hold its link and no
 * element), a warm-up of exactly one pass, more positions than lanes, and no split warm-up
 * (gs_chase_split_of). Both backends decide by this function. */
unsigned gs_chase_window_of(const gs_chase_plan *p);

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

/* Names as the command line and JSON spell them. */
const char *gs_space_name(gs_space s);
const char *gs_path_name(gs_load_path p);
int gs_path_parse(const char *name, gs_load_path *out);      /* 0 or -1 */

#ifdef __cplusplus
}
#endif

#endif
