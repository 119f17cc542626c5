/* One set-associative store of the simulator: the tag array and replacement state shared by every
 * cache level and every TLB level of a model (memory.h). It knows geometry (sets, ways per set,
 * possibly unequal), set mapping (modulo, address bits, XOR of bit groups) and replacement policy
 * (LRU, FIFO, random, tree-PLRU, weighted per-way victim probabilities as found in Fermi's L1,
 * section 4.2 of the memory-hierarchy paper). An access costs about the same for 2 ways as for
 * 65,536: a set of at most 16 ways is scanned, a larger one is searched through a hash index with
 * LRU/FIFO order kept in lists; a reset is lazy (O(1)); nothing is kept per byte. A block is an
 * aligned unit of `block_bytes` (a cache line, or the region one TLB entry covers); a block may
 * be split into sectors that are filled one at a time. */
#ifndef GS_SIM_CACHE_H
#define GS_SIM_CACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/rng.h"

#define SIM_MAX_INDEX_BITS 24   /* most set-index bits a "bits" or "xor" mapping may have */
#define SIM_MAX_SECTORS 32      /* sectors per block (a 32-bit valid mask) */
#define SIM_MAX_PLRU_WAYS 64    /* tree-PLRU keeps ways - 1 bits in one 64-bit word per set */
#define SIM_MAX_TERMS 4         /* most shifted terms a mapping's set is found from (n_terms) */
#define SIM_MAX_LINES (1u << 24) /* most lines (entries) one store may have (20 B of state each,
                                    and 32 to 64 B of index past 16 ways) */

typedef enum sim_policy {
    SIM_POLICY_LRU = 0,         /* evict the least recently used way */
    SIM_POLICY_FIFO,            /* evict the way filled longest ago; hits change nothing */
    SIM_POLICY_RANDOM,          /* evict a uniformly random way */
    SIM_POLICY_PLRU,            /* binary-tree pseudo-LRU (ways a power of two) */
    SIM_POLICY_WEIGHTED,        /* evict way i with probability way_probabilities[i] */
    SIM_POLICY_SRRIP,           /* static RRIP, 2-bit re-reference values per slot (rrpv): fill at
                                   2, hit to 0; victim: the lowest way at 3, all aged until one is */
    SIM_POLICY_SLRU,            /* segmented LRU: a hit protects its line (flag in rrpv), at most
                                   protected_ways per set (the least recent protected one goes
                                   back when one more is); victim: the least recent unprotected
                                   line. Scanned sets only (at most SIM_SCAN_MAX_WAYS ways). */
    SIM_POLICY_HSLRU,           /* segmented LRU over the last protected_ways hits: the lines of
                                   the last protected_ways hit events are protected (a line hit
                                   twice in a row holds two places; its count of places in rrpv),
                                   a line left with none goes back to the most recent end of the
                                   unprotected ones; victim: the least recent unprotected line
                                   (the H100's L1). Scanned sets only. */
} sim_policy;

#define SIM_POLICY_COUNT (SIM_POLICY_HSLRU + 1)

/* A policy's name as model files spell it ("lru" ... "hslru"); "unknown" out of range. */
const char *sim_policy_name(sim_policy p);

/* Segmented LRU of either kind (slru, hslru): protected_ways applies, sets are scanned. */
bool sim_policy_segmented(sim_policy p);

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
    uint64_t fetch_bytes;       /* a load miss fills the aligned group of sectors this long (a
                                   multiple of sector_bytes dividing block_bytes); 0 = sector */
    unsigned sets;
    unsigned *ways_per_set;     /* sets entries (equal or not); owned */
    sim_mapping mapping;
    sim_policy policy;
    double *way_probabilities;  /* WEIGHTED only: ways entries summing to 1; owned */
    unsigned protected_ways;    /* SLRU: most protected lines of a set; HSLRU: hits whose lines
                                   are protected; 1 .. ways - 1 */
    uint64_t data_lines;        /* lines of data the store holds at once, fewer than its slots
                                   (tags), or 0: one per slot. A fill past it drops the data of
                                   the least recently used line anywhere in the store (its tag
                                   stays, with no valid sector). Scanned stores only. */
} sim_geometry;

#define SIM_SCAN_MAX_WAYS 16   /* stores of at most this many ways per set scan a set's ways (one
                                  run of memory); larger ones look blocks up in a hash index */

/* A slot is one way of one set, numbered set by set. A scanned store keeps all of a set in one
 * record (sim_cache.records): the set's state, its ways' blocks, their valid sectors, so that an
 * access reads a few adjacent host cache lines and no more (the records of a large L2 do not
 * stay in the host's caches: a chase's accesses go to random sets). An indexed
 * store keeps all of a slot together, with LRU/FIFO order as a list per set from the newest
 * (last used, or last filled) to the oldest, the next victim, linked by slot numbers, and where
 * the slot's index entry is (so that an eviction need not search for it). */
typedef struct sim_big_slot {
    uint64_t block;             /* block number (address / block_bytes) held */
    uint32_t valid;             /* mask of valid sectors */
    uint32_t older, newer;      /* LRU/FIFO list neighbours; SIM_NO_SLOT at the ends */
    uint32_t at;                /* position of the slot's index entry */
} sim_big_slot;

#define SIM_NO_SLOT UINT32_MAX

/* Per set: what changes on an access besides the slots. A set whose epoch is not the store's is
 * empty: a reset only advances the store's epoch, and each set is emptied when next used. */
typedef struct sim_set_state {
    uint64_t plru;              /* PLRU: tree bits; HSLRU: the ways of the last hits, 4 bits
                                   each (newest lowest), their count in bits 60..63 */
    uint32_t epoch;
    uint32_t used;              /* ways filled: ways 0..used-1 hold blocks (fills take the lowest
                                   empty way, and nothing empties a way but a reset) */
    union {
        uint64_t order;                     /* scanned LRU/FIFO: the used ways, newest first, 4
                                               bits each (position p: bits 4p..4p+3), so that a
                                               way moves to the front in a few instructions */
        struct {
            uint32_t newest, oldest;        /* indexed LRU/FIFO: ends of the list (slots) */
        };
    };
} sim_set_state;

/* The index of a store with more than SIM_SCAN_MAX_WAYS ways in a set: block -> slot, an
 * open-addressing hash table (linear probing, at most half full), so that a lookup costs the same
 * for 17 ways as for 65,536. An entry from an older epoch is empty. */
typedef struct sim_index_entry {
    uint64_t block;
    uint32_t slot;
    uint32_t epoch;
} sim_index_entry;

/* The live state of a store built from a geometry. */
typedef struct sim_cache {
    const sim_geometry *geo;
    unsigned total_ways;        /* sum of ways_per_set: the number of slots */
    unsigned max_ways;
    unsigned *set_base;         /* first slot of each set */
    unsigned equal_ways;        /* ways of every set when all sets have as many, else 0 */
    uint64_t pow2_sets;         /* MODULO over equal sets, a power of two of them: sets (the set
                                   is block & (sets - 1), no division), else 0 */
    unsigned *slot_set;         /* MODULO with unequal sets: slot (block mod total) -> set */
    unsigned char *records;     /* scanned: one record per set, record_bytes apart (whole 64-B
                                   lines, aligned to 64 B): its sim_set_state, then max_ways
                                   blocks held (uint64_t, address / block_bytes), then at
                                   masks_at max_ways masks of valid sectors (uint32_t) */
    size_t record_bytes, masks_at;
    void *records_block;        /* the allocation `records` lies in */
    uint32_t *slot_owner;       /* scanned, with unequal sets or a data-line limit: slot -> set */
    sim_big_slot *big;          /* indexed: the slots */
    sim_set_state *set_state;   /* indexed: sets entries (scanned: in the records) */
    bool scan;                  /* max_ways <= SIM_SCAN_MAX_WAYS: no index */
    bool ordered;               /* scanned, LRU or FIFO, no data-line limit: accesses take the
                                   short path for such stores (without persisting lines) */
    bool segmented;             /* scanned, SLRU or HSLRU: accesses take the segmented path
                                   (without persisting lines) */
    sim_index_entry *index;     /* index_mask + 1 entries; NULL when scanned */
    uint64_t index_mask;
    unsigned index_shift;       /* 64 - log2(index entries) */
    double *cumulative;         /* WEIGHTED: running sums of the way probabilities */
    uint8_t *rrpv;              /* SRRIP, per slot: re-reference prediction value 0..3; SLRU:
                                   1 when the slot's line is protected; HSLRU: its places among
                                   the last hits (protected when not 0) */
    uint32_t epoch;             /* current epoch (never 0: zeroed state is empty) */
    uint8_t *persisting;        /* NULL: no persisting lines; else per slot, 1 = a persisting
                                   line (sim_cache_set_persisting) */
    double persisting_fraction; /* share of each set's ways persisting lines may hold */
    int block_shift;            /* log2(block_bytes) when a power of two, else -1 */
    int sector_shift;           /* log2(sector_bytes) when a power of two, else -1 */
    unsigned fetch_sectors;     /* sectors a load miss fills: fetch_bytes / sector_bytes */
    /* Copies and tables made once, so that an access reads them without going through geo: */
    sim_policy policy;          /* geo->policy */
    uint64_t block_mask;        /* block_bytes - 1 (when a power of two) */
    uint32_t fetch_mask[SIM_MAX_SECTORS];  /* per sector: the sectors a load miss there fills */
    /* BITS / XOR: the set index as a XOR of one table entry per address byte that some group
     * touches (set = xor_table[k][(address >> xor_shift[k]) & 0xff], xor_shift[k] = 8 x the
     * byte's place): a few loads in place of a parity per index bit */
    unsigned xor_bytes;
    uint8_t xor_shift[8];
    uint32_t (*xor_table)[256];
    /* BITS / XOR whose index bits are few runs of address bits moved down together (bit i of
     * the set from address bits s_t + i, as in a XOR of two address fields): the set as the XOR
     * of n_terms terms (address >> term_shift[t]) & term_mask[t], where they are fewer than the
     * table loads (the terms past n_terms have mask 0); 0: the tables */
    unsigned n_terms;
    uint8_t term_shift[SIM_MAX_TERMS];
    uint32_t term_mask[SIM_MAX_TERMS];
    /* data_lines (geo): the slots that hold data (a valid sector) in the current epoch, as a
     * list from the most to the least recently used (per slot: neighbours, and the epoch in which
     * it joined), and how many; NULL / 0 without a limit */
    uint32_t *data_newer, *data_older, *data_epoch;
    uint32_t data_newest, data_oldest;
    uint64_t held;
    /* The block the last access used, when one more hit on it would change nothing (memo_epoch
     * is the store's epoch then, else the memo is empty): a chase's accesses often find one TLB
     * entry, or one line, again and again, and such a hit is answered here without a lookup.
     * Every access and invalidation sets or empties it; a reset empties it (a new epoch). */
    uint64_t memo_block;
    uint32_t memo_slot, memo_epoch;
    uint32_t memo_home;         /* the set of memo_slot */
    int memo_way;
    /* The sets a state image covers (sim_cache_image_begin): their numbers, and one bit per set
     * (listed or not; 4 KB for 32768 sets, so that a test of it stays in the host's cache).
     * NULL until an image is first asked for. */
    uint32_t *image_sets;
    uint64_t *image_bits;
    uint32_t n_image_sets;
    uint64_t image_ways;        /* the ways of those sets, summed */
} sim_cache;

/* Outcome of one access. */
typedef enum sim_outcome {
    SIM_HIT = 0,                /* block present and the sector valid */
    SIM_SECTOR_MISS,            /* block present, sector not yet filled (now filled) */
    SIM_MISS,                   /* block absent (now filled, evicting a victim if the set was full) */
} sim_outcome;

/* Check a geometry: sets x ways x block = size (or sum of ways_per_set x block = size), sector
 * divides block, fetch (when not 0) is a multiple of the sector that divides block, mapping gives
 * `sets` sets, probabilities sum to 1, PLRU ways a power of two. On a problem writes a message
 * (without the key path prefix) into msg, the model-file key it is about into *key
 * ("size_bytes", "sector_bytes", "fetch_bytes", "mapping", "policy", "way_probabilities") and
 * returns -1. */
int sim_geometry_check(const sim_geometry *g, const char **key, char *msg, size_t msg_len);
void sim_geometry_free(sim_geometry *g);

/* Build the store of a checked geometry, empty. 0 or -1 (out of memory). */
int sim_cache_init(sim_cache *c, const sim_geometry *g);
void sim_cache_reset(sim_cache *c);   /* empty every slot, keep geometry; O(1) */
void sim_cache_free(sim_cache *c);

/* The accesses below are inline: each first asks the block the store used last (memo_block),
 * whose hit changes nothing, in a few instructions where it is called (a chase's most common
 * access), and only otherwise calls sim_cache_access_rest, which does the whole access: set
 * `set` (SIM_SET_UNKNOWN: found there), and `how`, of SIM_ACCESS_FILL (fill on a miss),
 * SIM_ACCESS_PERSISTING, SIM_ACCESS_WHOLE_FETCH (a load's fetch group, else the sector). */
#define SIM_SET_UNKNOWN UINT32_MAX
#define SIM_ACCESS_FILL 1u
#define SIM_ACCESS_PERSISTING 2u
#define SIM_ACCESS_WHOLE_FETCH 4u

sim_outcome sim_cache_access_rest(sim_cache *c, uint64_t addr, unsigned set, unsigned how,
                                  gs_rng *rng, int *way_out);

/* The rest of an access to an ordered store (sim_cache.ordered) without persisting lines: the
 * short path sim_cache_access_rest would take, called where the access is made. */
sim_outcome sim_cache_access_ordered(sim_cache *c, uint64_t addr, unsigned set, unsigned how,
                                     int *way_out);

/* The same for a segmented store (sim_cache.segmented) without persisting lines. */
sim_outcome sim_cache_access_segmented(sim_cache *c, uint64_t addr, unsigned set, unsigned how,
                                       int *way_out);

static inline sim_outcome sim_cache_access_next(sim_cache *c, uint64_t addr, unsigned set,
                                                unsigned how, gs_rng *rng, int *way_out)
{
    if (!c->persisting) {
        if (c->ordered)
            return sim_cache_access_ordered(c, addr, set, how, way_out);
        if (c->segmented)
            return sim_cache_access_segmented(c, addr, set, how, way_out);
    }
    return sim_cache_access_rest(c, addr, set, how, rng, way_out);
}

/* The block of addr, its sector within the block, and the valid-sector masks of a scanned set's
 * record (inline: the accesses below ask them where they are called). */
static inline uint64_t sim_cache_block_of(const sim_cache *c, uint64_t addr)
{
    return c->block_shift >= 0 ? addr >> c->block_shift : addr / c->geo->block_bytes;
}

static inline unsigned sim_cache_sector_of(const sim_cache *c, uint64_t addr)
{
    uint64_t offset = c->block_shift >= 0 ? addr & c->block_mask : addr % c->geo->block_bytes;
    return (unsigned)(c->sector_shift >= 0 ? offset >> c->sector_shift
                                           : offset / c->geo->sector_bytes);
}

/* The set of addr, whose block is blk: a BITS or XOR mapping is the one with tables (xor_table),
 * tested first so that neither kind reads the geometry; its terms, where it has them, before its
 * tables. */
static inline __attribute__((always_inline)) unsigned
sim_cache_set_of_block(const sim_cache *c, uint64_t blk, uint64_t addr)
{
    if (!c->xor_table) {                     /* MODULO */
        if (c->pow2_sets)
            return (unsigned)(blk & (c->pow2_sets - 1));
        if (c->slot_set)
            return c->slot_set[blk % c->total_ways];
        if (blk <= UINT32_MAX)               /* a 32-bit division is the faster one */
            return (uint32_t)blk % c->geo->sets;
        return (unsigned)(blk % c->geo->sets);
    }
    unsigned set = 0;
    if (c->n_terms) {                        /* two terms at once: a term past n_terms masks 0 */
        const uint8_t *sh = c->term_shift;
        const uint32_t *mask = c->term_mask;
        set = ((uint32_t)(addr >> sh[0]) & mask[0]) ^ ((uint32_t)(addr >> sh[1]) & mask[1]);
        if (c->n_terms > 2)
            set ^= ((uint32_t)(addr >> sh[2]) & mask[2]) ^ ((uint32_t)(addr >> sh[3]) & mask[3]);
        return set;
    }
    /* parity is linear: a XOR over the bytes, one table load each (unrolled: no loop to run) */
    const uint32_t (*table)[256] = c->xor_table;
    const uint8_t *shift = c->xor_shift;
    switch (c->xor_bytes) {
    case 8: set ^= table[7][(addr >> shift[7]) & 0xff]; /* fall through */
    case 7: set ^= table[6][(addr >> shift[6]) & 0xff]; /* fall through */
    case 6: set ^= table[5][(addr >> shift[5]) & 0xff]; /* fall through */
    case 5: set ^= table[4][(addr >> shift[4]) & 0xff]; /* fall through */
    case 4: set ^= table[3][(addr >> shift[3]) & 0xff]; /* fall through */
    case 3: set ^= table[2][(addr >> shift[2]) & 0xff]; /* fall through */
    case 2: set ^= table[1][(addr >> shift[1]) & 0xff]; /* fall through */
    case 1: set ^= table[0][(addr >> shift[0]) & 0xff]; /* fall through */
    default: break;
    }
    return set;
}

/* Set of an address under the geometry's mapping (inline, always, as the tests above are a few
 * instructions: a walk's prefetch asks it of every access). */
static inline __attribute__((always_inline)) unsigned sim_cache_set_of(const sim_cache *c,
                                                                      uint64_t addr)
{
    return sim_cache_set_of_block(c, sim_cache_block_of(c, addr), addr);
}

static inline uint32_t *sim_cache_masks_of(const sim_cache *c, unsigned set)
{
    return (uint32_t *)(c->records + (size_t)set * c->record_bytes + c->masks_at);
}

/* Whether the remembered block answers an access to addr: its block, and its sector valid. */
static inline bool sim_cache_memo_answers(const sim_cache *c, uint64_t addr, int *way_out)
{
    if (c->memo_epoch != c->epoch || c->memo_block != sim_cache_block_of(c, addr))
        return false;
    uint32_t valid = c->scan ? sim_cache_masks_of(c, c->memo_home)[c->memo_way]
                             : c->big[c->memo_slot].valid;
    if (!(valid & 1u << sim_cache_sector_of(c, addr)))
        return false;
    if (way_out)
        *way_out = c->memo_way;
    return true;
}

/* Look up addr; on a miss fill it (only when fill is true): the aligned fetch_bytes group of
 * sectors around addr's sector (a load brings in what the level below sends), choosing the victim
 * by the policy (empty ways first, lowest index first). rng draws for RANDOM and WEIGHTED. If way_out is not
 * NULL it receives the way (within the set) that was hit or filled, or -1. */
static inline sim_outcome sim_cache_access(sim_cache *c, uint64_t addr, bool fill, gs_rng *rng,
                                           int *way_out);

/* The same, for an access with CUDA's persisting property when `persisting` is true (the L2
 * persistence window). A store with a set-aside (sim_cache_set_persisting) keeps at most
 * floor(fraction x ways) persisting lines per set (never all its ways): a normal access never
 * evicts a persisting line; a persisting access fills (or promotes the line it hits) as
 * persisting while the set has room, and once the set holds its share it evicts the oldest
 * persisting line instead (oldest by the LRU/FIFO order; other policies take their victim if it
 * is of the right kind, else the lowest way of that kind). Without a set-aside it is
 * sim_cache_access. */
static inline sim_outcome sim_cache_access_as(sim_cache *c, uint64_t addr, bool fill,
                                              bool persisting, gs_rng *rng, int *way_out);

/* The same, for addr whose set (sim_cache_set_of) the caller has found already: a caller that
 * asks about the set first (sim_cache_image_has_set) need not have it found twice. */
static inline sim_outcome sim_cache_access_in(sim_cache *c, uint64_t addr, unsigned set,
                                              bool fill, bool persisting, gs_rng *rng,
                                              int *way_out)
{
    if (sim_cache_memo_answers(c, addr, way_out))
        return SIM_HIT;
    return sim_cache_access_next(c, addr, set,
                                 (fill ? SIM_ACCESS_FILL : 0) |
                                     (persisting ? SIM_ACCESS_PERSISTING : 0) |
                                     SIM_ACCESS_WHOLE_FETCH, rng, way_out);
}

static inline sim_outcome sim_cache_access_as(sim_cache *c, uint64_t addr, bool fill,
                                              bool persisting, gs_rng *rng, int *way_out)
{
    return sim_cache_access_in(c, addr, SIM_SET_UNKNOWN, fill, persisting, rng, way_out);
}

static inline sim_outcome sim_cache_access(sim_cache *c, uint64_t addr, bool fill, gs_rng *rng,
                                           int *way_out)
{
    return sim_cache_access_in(c, addr, SIM_SET_UNKNOWN, fill, false, rng, way_out);
}

/* The same for a store that allocates: it brings its own bytes, so a miss fills addr's sector
 * alone, never the rest of its fetch group. */
static inline sim_outcome sim_cache_write(sim_cache *c, uint64_t addr, gs_rng *rng)
{
    if (sim_cache_memo_answers(c, addr, NULL))
        return SIM_HIT;
    return sim_cache_access_next(c, addr, SIM_SET_UNKNOWN, SIM_ACCESS_FILL, rng, NULL);
}

/* Give the store a persisting set-aside of `fraction` of each set's ways (0: none, every line
 * normal again). Call on an empty store (just reset): 0 or -1 (out of memory). */
int sim_cache_set_persisting(sim_cache *c, double fraction);

/* Start fetching, into the host's caches, the state an access to addr will read (no state
 * change): a chase knows its addresses ahead, so their lookups need not wait on host memory. */
void sim_cache_prefetch(const sim_cache *c, uint64_t addr);
void sim_cache_prefetch_indexed(const sim_cache *c, uint64_t addr, unsigned set);

/* The same with addr's set known (inline: a walk prefetches for most of its accesses): a scanned
 * store's record, whole; an indexed one's set state and index entry. */
static inline void sim_cache_prefetch_in(const sim_cache *c, uint64_t addr, unsigned set)
{
    if (!c->scan) {
        sim_cache_prefetch_indexed(c, addr, set);
        return;
    }
    const unsigned char *record = c->records + (size_t)set * c->record_bytes;
    for (size_t at = 0; at < c->record_bytes; at += 64)
        __builtin_prefetch(record + at, 1);
}

/* True if addr's block and sector are present (no state change). */
bool sim_cache_probe(const sim_cache *c, uint64_t addr);

/* Drop addr's sector (or, whole_block, every sector of its block) from the store: the slot keeps
 * its block with no valid sector, so the next access is a sector miss that refills it (a store
 * that invalidates the L1's copy). Replacement state is left as it was. True if a sector was
 * valid. */
bool sim_cache_invalidate(sim_cache *c, uint64_t addr, bool whole_block);

/* State images: a copy of the state that accesses to a given set of addresses may change in a
 * store, so that a caller can tell whether a run of those accesses left the store exactly as it
 * found it (then the same run again gives the same outcomes: a store's outcomes are a function of
 * its state and the addresses, except under a policy that draws from the generator,
 * sim_cache_draws). An image covers the sets of the addresses named since image_begin, which
 * must name every address the run accesses (an access changes only its own set's ways, and the
 * data-line links of slots that hold data, all in such sets; the index of a store of many ways
 * spans its sets, and an image holds it whole). begin: name no address yet (0, or -1: out of
 * memory); add: name addr; bytes: what an image takes; save: copy one into image; same: whether
 * the store is byte for byte as saved (a difference the store's behaviour cannot see, such as
 * a stale list link, counts as one). */
int sim_cache_image_begin(sim_cache *c);
void sim_cache_image_add(sim_cache *c, uint64_t addr);
size_t sim_cache_image_bytes(const sim_cache *c);
void sim_cache_save(const sim_cache *c, unsigned char *image);
bool sim_cache_same(const sim_cache *c, const unsigned char *image);

/* Whether addr's set is among those named since image_begin. */
bool sim_cache_image_has(const sim_cache *c, uint64_t addr);

/* The same, by set (inline: a walk asks it of most of its accesses). */
static inline bool sim_cache_image_has_set(const sim_cache *c, unsigned set)
{
    return c->image_bits[set / 64] >> (set % 64) & 1;
}

/* Whether an access to one set may change another's state or outcomes: a data-line limit, or a
 * policy that draws from the generator (whose draws every set shares). */
bool sim_cache_sets_coupled(const sim_cache *c);

/* Whether accesses may draw from the generator (random and weighted victims). */
bool sim_cache_draws(const sim_cache *c);

#endif
