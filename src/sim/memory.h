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
#include "sim/model.h"

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
#define SIM_MAX_SM_EXTRA 256
    double sm_extra_cycles[SIM_MAX_SM_EXTRA]; /* "sm_extra_cycles": added to every access from
                                      SM k that reaches this level (a hit it serves or a miss it
                                      passes on), entry k modulo n_sm_extra: how far the SM sits
                                      from the level's slices */
    unsigned n_sm_extra;
    sim_geometry copy_geo;         /* partitions "near_copy_bytes": the near part also keeps
                                      copies of far lines in a store this size (16-way LRU); a
                                      far line found there is a near hit. size 0: none */
    sim_cache copy_state;
    uint64_t persisting_max_bytes; /* "persisting_max_bytes": the largest persisting set-aside
                                      (CUDA's access policy window); 0 = none */
    uint64_t persisting_window_max_bytes; /* "persisting_window_max_bytes": the largest window */
    sim_cache state;               /* live state, built for the chosen geometry */
    const sim_geometry *active;    /* the geometry `state` was built for */
    /* What a global store does here (levels on the default path; docs/sim-models.md): */
    bool write_back;               /* "write_policy" "write-back": a store that hits or allocates
                                      stops here; "write-through": it goes on to the next level */
    bool write_allocate;           /* "write_allocate": a store that misses fills its sector */
    bool store_invalidates;        /* "store_hit" "invalidate": a store that hits drops the whole
                                      line; "update": the line keeps it */
    bool allocate_words;           /* "write_allocate_unit" "word": an allocating store makes only
                                      the 4-byte words it wrote valid (the H100's L1); a load of
                                      another word of that sector misses and fills it */
    /* Sectors an allocating store left partly valid: address and mask of valid words. At most
     * SIM_PARTIAL of them; the oldest is dropped from the cache when a new one needs room. */
#define SIM_PARTIAL 256
    uint64_t partial_addr[SIM_PARTIAL];
    uint64_t partial_mask[SIM_PARTIAL];
    unsigned n_partial;
} sim_level;

/* A TLB level: l1tlb, l2tlb, ... The block of its store is the region one entry covers. */
typedef struct sim_tlb {
    char name[SIM_NAME_LEN];
    sim_geometry geo;
    uint64_t page_bytes;           /* page size (documentation of the truth; coverage >= page) */
    uint64_t entries;
    double hit_cycles;             /* added when this level hits */
    double miss_penalty_cycles;    /* added when this level misses (the next level is asked) */
    unsigned near_ways;            /* "near_ways": a hit in way near_ways or past of its set (ways
                                      fill lowest first) costs far_hit_cycles more: an array whose
                                      farther banks answer later; 0 = every way alike */
    double far_hit_cycles;
    uint32_t paths;
    uint32_t skip_on_miss;         /* bit i: cache level i is not looked up after a miss here */
    sim_cache state;
} sim_tlb;

/* The DRAM's layout (memory.dram's optional keys; src/sim/dram.c): how addresses spread over
 * channels, and which row of which bank each one is in. channels 0: not modelled (every access
 * costs latency_cycles, strided reads see every channel). */
typedef enum sim_dram_hash { SIM_DRAM_HASH_NONE = 0, SIM_DRAM_HASH_XOR } sim_dram_hash;

typedef struct sim_dram {
    unsigned channels;             /* C: channels (memory partitions) addresses interleave over */
    uint64_t interleave_bytes;     /* G: consecutive bytes one channel holds before the next */
    sim_dram_hash hash;            /* none: channel = (addr / G) mod C; xor: the XOR of every
                                      log2(C)-bit group of addr / G (C a power of two) */
    unsigned banks;                /* banks per channel (default 16) */
    uint64_t row_bytes;            /* R: bytes of one row of one bank; 0 = no row buffer model */
    double row_hit_cycles;         /* a DRAM access to the row open in its bank */
    double row_miss_cycles;        /* any other DRAM access (default latency_cycles) */
    uint64_t *open_row;            /* channels x banks: open row + 1, 0 = none (per chase) */
} sim_dram;

typedef struct sim_memory {
    sim_level *caches;             /* lookup order of every path */
    unsigned n_caches;
    sim_tlb *tlbs;                 /* lookup order */
    unsigned n_tlbs;
    uint32_t uncached_paths;              /* paths allowed with no cache level: straight to DRAM */
    double dram_latency_cycles;
    double dram_max_accesses_per_ns;      /* 0 = no limit */
    sim_dram dram;                        /* layout; dram.channels 0 = not modelled */
    double shared_latency_cycles;         /* < 0: the model has no shared-memory chase */
    double path_extra_cycles[GS_PATH_COUNT];
    uint64_t transaction_bytes;           /* warp request unit on a path with no cache */
    double extra_sector_cycles;           /* per distinct sector of a warp request beyond one */
    double extra_line_cycles;             /* per distinct line of a warp request beyond one */
    uint64_t chase_base_bytes;            /* device address of a global chase's offset 0 */
} sim_memory;

#define SIM_MAX_LEVELS 16    /* memory_parse.c allows at most 16 caches */

/* One chase (or another operation's accesses) over the hierarchy: memory.c's state for a plan. */
#define SIM_SET_RING 16   /* a power of two above PREFETCH_AHEAD (memory.c) */

typedef struct sim_chase_ctx {
    gs_sim_model *m;
    sim_memory *mem;
    const gs_chase_plan *plan;
    gs_load_path path;
    uint32_t path_bit;
    uint32_t path_levels;           /* bit i: cache level i is on the path (memory.c, take_path) */
    uint64_t alias_bytes;           /* physical memory behind the footprint; 0 = no aliasing */
    uint64_t base;                  /* address of chain offset 0 (global and texture chases) */
    uint64_t sector_bytes;          /* warp-request units: the first cache on the path, */
    uint64_t line_bytes;            /* or transaction_bytes when no cache is on it */
    unsigned lanes;
    uint64_t served[SIM_MAX_LEVELS + 1];  /* timed accesses served per level; last = DRAM */
    bool count_lookups;                   /* count every cache lookup below (the evict
                                             operation's L2 counters): one sector a load */
    uint64_t lookup_hits, lookup_misses;
    sim_cache *large[SIM_MAX_LEVELS];     /* stores on the path too large for the host's caches */
    unsigned n_large;
    bool persisting;                      /* loads carry the persisting property (sim_loads) */
    unsigned sm;                          /* the SM the accesses come from (plan.on_sm, else 0) */
    gs_chase_plan own_plan;               /* sim_loads: the plan `plan` points at */
    int unseen_level;                     /* >= 0: untimed accesses skip this cache level in the
                                             sets the timed ones never reach (memory.c) */
    /* The sets of large[0] (cache level large_level) that a request's prefetch found, kept for
       the request itself, PREFETCH_AHEAD requests later (memory.c): per ring slot, the request's
       chain offset + 1 (0: none) and its lanes' sets */
    int large_level;
    uint64_t ring_offset[SIM_SET_RING];
    uint32_t ring_set[SIM_SET_RING][32];
} sim_chase_ctx;

/* Check a chase plan against the model and build its hierarchy, every cache and TLB empty (the
 * start of sim_chase; write.c starts its accesses the same way). 0 or an error. */
int sim_chase_begin(sim_chase_ctx *cx, gs_sim_model *m, const gs_chase_plan *plan,
                    gs_chase_result *out, gs_error *err);

/* One lane's load of vaddr on path (levels and TLBs of that path): its cycles, without noise, and
 * the level that served it in *served (n_caches = DRAM). */
double sim_load_lane(sim_chase_ctx *cx, gs_load_path path, uint64_t vaddr, unsigned *served);

/* One lane's global store to vaddr. It passes the levels of the default load path in order (a
 * global store takes the levels plain loads do): a level that holds the sector keeps it
 * ("update") or drops the line ("invalidate"); one that does not fills it if write-allocate; a
 * write-back level that now holds it keeps the store (dirty), a write-through one passes it on.
 * op CG passes the per-SM levels, dropping their copy of the sector. Bit i of *touched is set for
 * each level the store reached. True when the store went past every per-SM level (other SMs
 * can read it). */
bool sim_store_lane(sim_chase_ctx *cx, uint64_t vaddr, gs_store_op op, uint32_t *touched);

/* The path a plan's accesses take: the plan's path, or the space's own path where the plan leaves
 * the path at "default" in a non-global space (texture -> tex, constant -> const, ...). */
gs_load_path sim_effective_path(const gs_chase_plan *plan);

/* src/sim/dram.c: the channel of a physical address (0 when the layout is not modelled), the
 * latency of a DRAM access under the row-buffer model (latency_cycles without one; opens the
 * row), every bank's row closed, and the checks and defaults of the layout keys. */
unsigned sim_dram_channel(const sim_dram *d, uint64_t paddr);
double sim_dram_access(sim_memory *mem, uint64_t paddr);
void sim_dram_reset(sim_dram *d);
/* Share of the full DRAM rate a strided read (plan.bytes, stride, chunk) gets: 1 when every
 * channel moves as much, 1/C when one channel moves everything. */
double sim_dram_strided_share(const sim_dram *d, uint64_t bytes, uint64_t stride,
                              uint64_t chunk);
int sim_dram_parse(const void *json_dram, const char *where, sim_memory *mem, gs_error *err);

#endif
