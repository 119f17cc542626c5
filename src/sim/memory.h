/* The simulator's memory hierarchy: what the "memory" section of a model file describes
 * (docs/sim-models.md), parsed by memory_parse.c and run by the chase simulation in memory.c.
 * Cache levels and TLB levels are set-associative stores (cache.h); each lists the load paths that
 * pass through it, in lookup order. Exposed here so tests can look at the parsed truth. */
#ifndef GS_SIM_MEMORY_H
#define GS_SIM_MEMORY_H

#include <stdbool.h>
#include <stdint.h>

#include "plan.h"
#include "sim/cache.h"

#define SIM_NAME_LEN 32

/* One L1-size choice per shared-memory carve-out (gs_chase_plan.carveout_percent). */
typedef struct sim_carveout {
    int percent;                   /* shared-memory share this geometry applies to */
    sim_geometry geo;
} sim_carveout;

/* A cache level: l1, tex, ro, l2, const1, const2, ... */
typedef struct sim_level {
    char name[SIM_NAME_LEN];
    sim_geometry geo;              /* geometry at the driver's default carve-out */
    sim_carveout *carveouts;       /* optional, n_carveouts long */
    unsigned n_carveouts;
    int default_carveout_percent;  /* -1: shared memory a chase holds leaves the level alone; else
                                      the level and shared memory are one array: `geo` is the
                                      geometry at this percent, and a chase that holds more shared
                                      memory than that gets the carve-out it needs */
    int shared_default_percent;    /* -1: none; else the carve-out a chase that asks for the
                                      driver's default gets when it holds any shared memory */
    double hit_latency_cycles;     /* latency of an access this level serves */
    double miss_cycles;            /* added to an access that looks this level up and misses */
    uint32_t paths;                /* bit (1 << gs_load_path) for each path through this level
                                      (names as gs_path_name spells them) */
    bool per_sm;                   /* "scope": "sm" (one per SM) or "device" (shared) */
    double max_accesses_per_ns;    /* throughput limit (whole device, or per SM); 0 = none */
    unsigned partitions;           /* 0/1: none; else count of partitions, 0 is the near one */
    sim_mapping partition_map;     /* which partition an address is in */
    uint64_t partition_block_bytes;/* partition_map MODULO: interleave granularity */
    double far_extra_cycles;       /* added to hits in a partition other than 0 */
    sim_geometry copy_geo;         /* partitions "near_copy_bytes": the near part also keeps
                                      copies of far lines in a store this size (16-way LRU); a
                                      far line found there is a near hit. size 0: none */
    sim_cache copy_state;
    uint64_t persisting_max_bytes; /* "persisting_max_bytes": the largest persisting set-aside
                                      (CUDA's access policy window); 0 = none */
    uint64_t persisting_window_max_bytes; /* "persisting_window_max_bytes": the largest window */
    sim_cache state;               /* live state, built for the chosen geometry */
    const sim_geometry *active;    /* the geometry `state` was built for */
} sim_level;

/* A TLB level: l1tlb, l2tlb, ... The block of its store is the region one entry covers. */
typedef struct sim_tlb {
    char name[SIM_NAME_LEN];
    sim_geometry geo;
    uint64_t page_bytes;           /* page size (documentation of the truth; coverage >= page) */
    uint64_t entries;
    double hit_cycles;             /* added when this level hits */
    double miss_penalty_cycles;    /* added when this level misses (the next level is asked) */
    uint32_t paths;
    uint32_t skip_on_miss;         /* bit i: cache level i is not looked up after a miss here */
    sim_cache state;
} sim_tlb;

typedef struct sim_memory {
    sim_level *caches;             /* lookup order of every path */
    unsigned n_caches;
    sim_tlb *tlbs;                 /* lookup order */
    unsigned n_tlbs;
    uint32_t uncached_paths;              /* paths allowed with no cache level: straight to DRAM */
    double dram_latency_cycles;
    double dram_max_accesses_per_ns;      /* 0 = no limit */
    double shared_latency_cycles;         /* < 0: the model has no shared-memory chase */
    double path_extra_cycles[GS_PATH_COUNT];
    uint64_t transaction_bytes;           /* warp request unit on a path with no cache */
    double extra_sector_cycles;           /* per distinct sector of a warp request beyond one */
    double extra_line_cycles;             /* per distinct line of a warp request beyond one */
} sim_memory;

/* The path a plan's accesses take: the plan's path, or the space's own path where the plan leaves
 * the path at "default" in a non-global space (texture -> tex, constant -> const, ...). */
gs_load_path sim_effective_path(const gs_chase_plan *plan);

#endif
