/* One set-associative store of the simulator: the tag array and replacement state shared by every
 * cache level and every TLB level of a model (memory.h). It knows geometry (sets, ways per set,
 * possibly unequal), set mapping (modulo, address bits, XOR of bit groups) and replacement policy
 * (LRU, FIFO, random, tree-PLRU, weighted per-way victim probabilities as found in Fermi's L1,
 * section 4.2 of the memory-hierarchy paper). Lookups cost O(ways of one set); nothing is kept per
 * byte. A block is an aligned unit of `block_bytes` (a cache line, or the region one TLB entry
 * covers); a block may be split into sectors that are filled one at a time. */
#ifndef GS_SIM_CACHE_H
#define GS_SIM_CACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/rng.h"

#define SIM_MAX_INDEX_BITS 24   /* most set-index bits a "bits" or "xor" mapping may have */
#define SIM_MAX_SECTORS 32      /* sectors per block (a 32-bit valid mask) */
#define SIM_MAX_PLRU_WAYS 64    /* tree-PLRU keeps ways - 1 bits in one 64-bit word per set */
#define SIM_MAX_LINES (1u << 24) /* most lines (entries) one store may have (24 B of state each) */

typedef enum sim_policy {
    SIM_POLICY_LRU = 0,         /* evict the least recently used way */
    SIM_POLICY_FIFO,            /* evict the way filled longest ago; hits change nothing */
    SIM_POLICY_RANDOM,          /* evict a uniformly random way */
    SIM_POLICY_PLRU,            /* binary-tree pseudo-LRU (ways a power of two) */
    SIM_POLICY_WEIGHTED,        /* evict way i with probability way_probabilities[i] */
    SIM_POLICY_SRRIP,           /* static RRIP, 2-bit re-reference values (in stamp): fill at 2,
                                   hit to 0; victim: the lowest way at 3, all aged until one is */
} sim_policy;

typedef enum sim_mapping_kind {
    SIM_MAP_MODULO = 0,         /* slot = block mod (total ways); slots dealt round-robin to sets */
    SIM_MAP_BITS,               /* set index bit i = address bit bits[i] */
    SIM_MAP_XOR,                /* set index bit i = XOR of the address bits of group i */
} sim_mapping_kind;

typedef struct sim_mapping {
    sim_mapping_kind kind;
    unsigned nbits;                               /* BITS / XOR: set-index bits */
    uint64_t group_mask[SIM_MAX_INDEX_BITS];      /* BITS: one bit; XOR: the group's bits */
} sim_mapping;

/* What a store is made of: filled by the model parser, checked by sim_geometry_check. */
typedef struct sim_geometry {
    uint64_t size_bytes;
    uint64_t block_bytes;       /* line (caches) or region one entry covers (TLBs) */
    uint64_t sector_bytes;      /* == block_bytes when not sectored */
    unsigned sets;
    unsigned *ways_per_set;     /* sets entries (equal or not); owned */
    sim_mapping mapping;
    sim_policy policy;
    double *way_probabilities;  /* WEIGHTED only: ways entries summing to 1; owned */
} sim_geometry;

/* One way of one set; a set's ways lie side by side, so a lookup reads one run of memory. */
typedef struct sim_slot {
    uint64_t block;             /* block number (address / block_bytes) held */
    uint64_t stamp;             /* last use (LRU), fill time (FIFO), re-reference value (SRRIP) */
    uint32_t valid;             /* mask of valid sectors; 0 = slot empty */
} sim_slot;

/* The live state of a store built from a geometry. */
typedef struct sim_cache {
    const sim_geometry *geo;
    unsigned total_ways;        /* sum of ways_per_set: the number of slots */
    unsigned max_ways;
    unsigned *set_base;         /* first slot of each set */
    unsigned *slot_set;         /* MODULO with unequal sets: slot (block mod total) -> set */
    sim_slot *slots;            /* total_ways slots, set by set */
    uint64_t *plru;             /* per set: tree bits */
    double *cumulative;         /* WEIGHTED: running sums of the way probabilities */
    uint64_t clock;             /* advances on every access */
} sim_cache;

/* Outcome of one access. */
typedef enum sim_outcome {
    SIM_HIT = 0,                /* block present and the sector valid */
    SIM_SECTOR_MISS,            /* block present, sector not yet filled (now filled) */
    SIM_MISS,                   /* block absent (now filled, evicting a victim if the set was full) */
} sim_outcome;

/* Check a geometry: sets x ways x block = size (or sum of ways_per_set x block = size), sector
 * divides block, mapping gives `sets` sets, probabilities sum to 1, PLRU ways a power of two.
 * On a problem writes a message (without the key path prefix) into msg, the model-file key it is
 * about into *key ("size_bytes", "sector_bytes", "mapping", "policy", "way_probabilities") and
 * returns -1. */
int sim_geometry_check(const sim_geometry *g, const char **key, char *msg, size_t msg_len);
void sim_geometry_free(sim_geometry *g);

/* Build the store of a checked geometry, empty. 0 or -1 (out of memory). */
int sim_cache_init(sim_cache *c, const sim_geometry *g);
void sim_cache_reset(sim_cache *c);   /* empty every slot, keep geometry */
void sim_cache_free(sim_cache *c);

/* Set of an address under the geometry's mapping. */
unsigned sim_cache_set_of(const sim_cache *c, uint64_t addr);

/* Look up addr; on a miss fill it (only when fill is true), choosing the victim by the policy
 * (empty ways first, lowest index first). rng draws for RANDOM and WEIGHTED. If way_out is not
 * NULL it receives the way (within the set) that was hit or filled, or -1. */
sim_outcome sim_cache_access(sim_cache *c, uint64_t addr, bool fill, gs_rng *rng, int *way_out);

/* True if addr's block and sector are present (no state change). */
bool sim_cache_probe(const sim_cache *c, uint64_t addr);

#endif
