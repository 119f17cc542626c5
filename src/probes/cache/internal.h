/* What the files of the `cache` probe share (src/probes/cache*.c only; the probe's public face is
 * its row in registry.c). The probe is split along its methods, one file each, named by what it
 * finds:
 *   cache.c               targets, options, and the order of the methods for one target
 *   cache/walker.c        the walker: fine-grained (Listing 4) and average chases (Listing 2)
 *   cache/level.c         one level, fine-grained, in the order of section 3.2
 *   cache/capacity.c      capacity: fine-grained and average-mode footprint sweeps (3.2 (1))
 *   cache/line.c          fetch granularity (sector) and the L2 line in average mode (3.2 (2))
 *   cache/sets.c          the overflowing set; sets and ways from blocks added past capacity
 *   cache/mapping.c       set-index bits and the bit-select geometry (3.2 (3), Fig. 12)
 *   cache/policy.c        replacement policy (3.2 (4), Fig. 8)
 *   cache/avg_structure.c line, sets, ways, mapping of an L1 from average-mode walks
 *   cache/cross_check.c   fine-grained levels checked by average-mode sweeps; the L2's near part
 *   cache/trace_budget.c  the shared memory every chase holds; L1 size per carve-out
 *   cache/tlb.c           TLBs in average mode, and the check of the fine-grained TLB level
 *   cache/record.c        one result record per level
 * Section numbers are those of the memory-hierarchy paper (Mei et al., "Benchmarking the Memory
 * Hierarchy of Modern GPUs"). Everything here talks to the backend only through chase plans. */
#ifndef GS_PROBES_CACHE_INTERNAL_H
#define GS_PROBES_CACHE_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/cache_infer.h"
#include "probes/probe.h"
#include "util/rng.h"

#define CW_MAX_SETS 256       /* sets whose ways are listed one by one (unequal sets) */
#define CW_MAX_WAYS 256       /* most ways for the replacement-policy tests */

/* |a - b| */
static inline uint64_t udiff(uint64_t a, uint64_t b) { return a > b ? a - b : b - a; }

static inline unsigned log2_floor(uint64_t x)
{
    unsigned k = 0;
    while (x >>= 1)
        k++;
    return k;
}

/* One target: which space and path reach it, how deep its levels go, and their names. */
typedef struct target_def {
    const char *name;
    gs_space space;
    gs_load_path path;
    bool tlb;
    unsigned max_levels;
    const char *const level_names[3];
} target_def;

typedef enum cw_mapping {
    CW_MAP_NONE = 0, CW_MAP_BITS, CW_MAP_MODULO, CW_MAP_HASHED,
    CW_MAP_XOR                /* index bit i = parity(address & xor_masks[i]) (analysis/gf2.h) */
} cw_mapping;

/* TLB walks alias physical memory, which a backend may round up to this (cache/walker.c,
 * stagger): two elements of one TLB chain must differ modulo it. */
#define CW_ALIAS_PERIOD (2ull << 20)

/* Chases on one space and path, with scratch buffers sized by the trace capacity. */
typedef struct cw_walker {
    gs_probe_ctx *ctx;
    gs_space space;
    gs_load_path path;
    bool tlb;                 /* TLB walks: alias physical memory and stagger lines */
    size_t cap;               /* record_capacity of the backend's trace buffer in smem_bytes */
    uint64_t smem_bytes;      /* shared memory every chase of this walker holds (the plans'
                                 smem_bytes): one value for traces and average walks alike, so a
                                 unified L1 keeps one configuration through a study */
    int carveout;             /* carve-out preference of every chase (-1: the driver's default;
                                 average sweeps may ask for another) */
    uint32_t *lat;            /* cap entries */
    uint64_t *chain;          /* cap entries */
    uint64_t *chain2;         /* cap entries */
    unsigned elem;            /* element bytes (4; 8 for TLB walks over more than 4 GB) */
    uint64_t bound;           /* largest footprint a chain may span (the space's size) */
    uint64_t min_stride;      /* sweeps below a first level: its block (every access misses it) */
    uint64_t prev_ways;       /* ways of the first level's sets (0 at depth 0) */
    uint64_t filler_step;     /* fillers' spacing below a first level (see with_fillers) */
    uint64_t filler_margin;   /* fillers per first-level way: 1, or 2 (set by the caller) */
    gs_hit_band band;         /* hit band of the level being inferred */
    unsigned chases;          /* chase plans run so far for this level */
    int avg_sm;               /* SM of the average walks so far: -1 none or not known, -2 more
                                 than one (the L2 keeps per-SM copies of far lines) */
    int pin_sm;               /* >= 0: average walks run on this SM (plan.on_sm); -1: where
                                 the backend runs one walker (SM 0 on CUDA) */
    uint64_t avg_offset;      /* cw_avg_walk's chains start this far into the space (other
                                 pages; 0 where footprint + offset would pass bound) */
    gs_rng rng;
} cw_walker;

/* What was learnt about one level; 0 / NaN / UNKNOWN where not determined (with why_*). */
#define CW_EVICT_CURVE_POINTS 12   /* pool sizes of the L2's eviction curve */

#define CW_POLICY_TRACE 512
typedef struct cw_policy_trace {  /* block and latency of the first accesses of a policy trace */
    size_t n;
    float block[CW_POLICY_TRACE];
    float cycles[CW_POLICY_TRACE];
} cw_policy_trace;

typedef struct cw_level {
    bool tlb;
    /* the L2's eviction curve (cache/l2_structure.c): share of targets evicted against the
     * pool's bytes; n 0: not measured */
    double evict_curve_x[CW_EVICT_CURVE_POINTS], evict_curve_y[CW_EVICT_CURVE_POINTS];
    size_t evict_curve_n;
    size_t record_capacity;
    uint64_t trace_smem_bytes; /* shared memory every chase of the level held */
    int trace_carveout;        /* and their carve-out preference (-1: the driver's default) */
    unsigned chases;
    int avg_sm;                /* the walker's avg_sm when the level's size was settled */
    uint64_t size_bytes;
    gs_hit_band band;
    double miss_cycles;       /* median latency of misses just past capacity */
    double miss_ci95;         /* interval of miss_cycles - hit (0: none stated) */
    size_t miss_n;
    uint64_t fetch_bytes;     /* distance between cold misses */
    uint64_t line_bytes;      /* line, or region one TLB entry covers */
    uint64_t page_bytes;      /* TLBs: first level's region (set by cache.c) */
    const char *line_method;
    unsigned sets;
    unsigned ways_per_set[CW_MAX_SETS];
    size_t nsets;             /* entries in ways_per_set (1 when equal sets) */
    const char *sets_method;
    char oracle_method_buf[640]; /* sets_method naming the oracle that decided it (L2) */
    double sets_ci95;         /* sets from capacity / (ways x line): the capacity's ci95 in sets
                                 (0: exact) */
    cw_mapping mapping;
    unsigned index_bits[64];
    double size_interval_ci95[2];    /* how far each bound could move: the bracket its own
                                        search stopped at (0: exact) */
    uint64_t size_interval_bytes[2]; /* L2 method: largest footprint that fits, smallest that
                                        misses (0: not measured) */
    size_t nindex;
    uint64_t xor_masks[64];   /* CW_MAP_XOR: one mask per index bit */
    size_t nxor;
    const char *mapping_method; /* CW_MAP_XOR: how the masks were found and checked */
    char mapping_method_buf[400];
    gs_policy policy;
    double way_probabilities[CW_MAX_WAYS];
    size_t nprob;
    size_t policy_n;
    const char *policy_method;
    uint64_t tag_bytes;        /* sets x ways x line where the level holds fewer lines of data
                                  than tags (0: as many), and the evidence */
    char tags_note[400];
    char why_structure[1024];
    char why_policy[640];
    /* The policy tests' evidence: the first CW_POLICY_TRACE accesses of the hardest random
     * sequence [0] (the one the best candidate mispredicted most), of the cyclic walk [1] and of
     * the last protect-then-evict round run [2] (block of each access, its latency), and each
     * candidate's share of mispredicted accesses on the first two (the largest over the
     * sequences; NaN: not run). */
    cw_policy_trace policy_trace[3];
#define CW_SLRU_MAX_WAYS 16   /* SLRU candidates (1 .. ways - 1 protected) and HSLRU ones (2 ..
                                 ways - 1 hits) up to this many ways */
#define CW_POLICY_CANDIDATES (4 + 2 * (CW_SLRU_MAX_WAYS - 1))
    double policy_mismatch[2][CW_POLICY_CANDIDATES];
    unsigned policy_protect;  /* SLRU: protected lines of a set; HSLRU: hits remembered (0: not
                                 determined) */
    char why_protect[256];    /* why policy_protect is not determined */
    char protect_method[160]; /* how policy_protect was found */
    char size_nd_why[640];    /* set: size_bytes is reported not determined, for this reason
                                 (size_bytes stays the onset the other methods start from) */
    const char *size_method;  /* NULL: the fine-grained capacity sweep; else average mode */
    char size_method_buf[640]; /* size_method when it is composed at run time */
    double size_ci95_bytes;   /* half the bracket of an average-mode size (0: exact) */
    const char *latency_method; /* NULL: fine-grained hit band; else average-mode plateaus */
    double trace_hit_cycles;  /* the fine-grained hit band's latency when the figures come from
                                 average-mode plateaus (NaN otherwise) */
} cw_level;

/* The trace budget a walker starts with: 64 KB, or half the shared memory a block may opt in to
 * where that is less. */
#define CW_TRACE_SMEM (64ull << 10)
#define CW_TRACE_SMEM_MIN (4ull << 10)   /* smallest budget cw_walker_set_smem is asked for */

int cw_walker_init(cw_walker *w, gs_probe_ctx *ctx, gs_space space, gs_load_path path, bool tlb,
                   gs_error *err);
/* Hold smem_bytes of shared memory in every chase from now on; the trace capacity follows.
 * (The carve-out preference is w->carveout, set directly.) */
int cw_walker_set_smem(cw_walker *w, uint64_t smem_bytes, gs_error *err);
void cw_walker_free(cw_walker *w);

/* ---- fine-grained chases (cache/walker.c) ---------------------------------------------------- */

/* One chase of chain (len entries) with warmup whole passes, recording up to record latencies in
 * w->lat (*got of them). TLB walks alias physical memory. */
int cw_chase(cw_walker *w, const uint64_t *chain, size_t len, unsigned warmup, size_t record,
             size_t *got, gs_error *err);
/* Every TLB walk, its base walk included, runs over aliased physical memory of the given size: the
 * footprint is raised to twice that, so that a backend aliases even a walk that fits (a walk over
 * a plain allocation reads other physical lines, another L2 partition: on the H100 the 20-cycle
 * difference between the two allocations was read as a one-entry TLB). */
void cw_tlb_alias(gs_chase_plan *p, uint64_t physical_bytes);
/* A TLB record's page_bytes, not determined: walks see the region one entry of the first level
 * covers (region_bytes), and a page smaller than it (an entry holding the translations of several
 * pages) reads the same. */
void cw_page_nd(gs_probe_out *p, uint64_t region_bytes);
/* n elements stride_bytes apart (staggered by a word per element on TLB walks) into out. */
void cw_stride_chain(const cw_walker *w, uint64_t n, uint64_t stride_bytes, uint64_t *out);

/* A TLB base walk's elements are physical words inside one piece (the stride walk's words, which
 * repeat when the walk has more elements than its step leaves distinct words: 8 j mod a 64 KB
 * page from j = 8192 on); a chain may not visit one offset twice, so the k-th element on a word
 * moves k pieces on: the same word of the aliased memory, an offset of its own, a few more
 * pages. (An H100 base walk at seed 2 hit "the elements at offsets 512 and 512 land on one
 * physical word", and the TLB target stopped there.) */
int cw_distinct_in_piece(uint64_t *chain, size_t n, uint64_t piece, gs_error *err);
/* Stride of a sweep chain over footprint_bytes: two passes fit the trace. */
uint64_t cw_sweep_stride(const cw_walker *w, uint64_t footprint_bytes);
/* members with fillers that thrash a first level (depth >= 1) into out; member index of each
 * entry into member_of (may be NULL). Returns the chain's length. */
size_t cw_with_fillers(const cw_walker *w, const uint64_t *members, size_t m, uint64_t *out,
                       uint32_t *member_of);
/* Steady-state conflict verdict on a chain, confirmed by a second trace; the first trace stays in
 * w->lat, its length in *got. */
int cw_conflict_got(cw_walker *w, const uint64_t *chain, size_t len, bool *yes, size_t *got,
                    gs_error *err);
/* Conflict verdict on a group of blocks (with fillers below a first level). */
int cw_group_conflict(cw_walker *w, const uint64_t *members, size_t m, bool *yes,
                      gs_error *err);

/* ---- the steps of one level (cache/capacity.c, cache/sets.c, cache/line.c, cache/mapping.c) -- */

/* Capacity: double footprints from start until a conflict, then bisect; lo fits. Sets
 * lv->size_bytes, or lv->why_structure when nothing misses up to bound. */
int cw_find_capacity(cw_walker *w, uint64_t lo, uint64_t start, uint64_t bound,
                     cw_level *lv, gs_error *err);
/* The blocks that miss one sweep stride past capacity (one overflowing set) into group, and the
 * level's miss latency. */
int cw_overflow_group(cw_walker *w, cw_level *lv, uint64_t *group, size_t *ngroup,
                      gs_error *err);
/* Fetch granularity (lv->fetch_bytes) from a cold fine-grained stride walk. */
int cw_fetch_granularity(cw_walker *w, cw_level *lv, gs_error *err);
/* Set-index bits (lv->index_bits) from moving the group's added block by 2^k. */
int cw_index_bits(cw_walker *w, cw_level *lv, const uint64_t *group, size_t m, gs_error *err);
/* Line, sets, ways and a bit-select mapping when a stride walk and random blocks confirm it; the
 * group becomes ways + 1 blocks of one set. */
int cw_try_bit_select(cw_walker *w, cw_level *lv, uint64_t *group, size_t *ngroup,
                      gs_error *err);
/* Sets, ways and mapping from the missing blocks as blocks are added past capacity (Fig. 11);
 * the group becomes the first overflowing set. */
int cw_overflow_sets(cw_walker *w, cw_level *lv, uint64_t *group, size_t *ngroup,
                     gs_error *err);

/* Infer level depth (0 = the first on the path) whose predecessor holds prev_size_bytes in blocks
 * of prev_block_bytes, its sets spanning prev_span_bytes (sets x block; all 0 for depth 0),
 * searching footprints up to bound_bytes.
 * GS_ERR_UNSUPPORTED when the backend cannot chase this path; lv->size_bytes 0 (with
 * why_structure) when no level was found. */
int cw_infer_level(cw_walker *w, unsigned depth, uint64_t prev_size_bytes,
                   uint64_t prev_block_bytes, uint64_t prev_span_bytes, uint64_t bound_bytes,
                   cw_level *lv, gs_error *err);

/* Replacement policy of a set from fine-grained traces (section 3.2 (4)): group holds the m
 * blocks (ways + 1) of one set, by byte offset; lv->band must hold the level's hit band.
 * Sets lv->policy (and way probabilities) or lv->why_policy. */
int cw_infer_policy(cw_walker *w, cw_level *lv, const uint64_t *group, size_t m,
                    unsigned depth, gs_error *err);

/* ---- average-mode walks (cache/walker.c, cache/capacity.c, cache/line.c, cache/tlb.c, ...) --- */

#define CW_AVG_MAX_LEVELS 4

#define AVG_MAX_ELEMS (1ull << 20)   /* elements of one walk, at most (host and device time) */
#define AVG_TIMED 32768ull          /* accesses timed after the warm passes, at most */
#define AVG_TOLERANCE 0.1           /* plateau tolerance, relative */
#define AVG_ELEM 8u                 /* 8-byte elements: the load's result is the next address */
#define CW_MIN_LINE 32u             /* the shortest line or sector the memory system moves */

/* Average cycles per access of one average-mode chase holding the walker's shared memory, under
 * the given carve-out (-1 = the walker's). */
int cw_avg_chase(cw_walker *w, const uint64_t *chain, size_t n, uint64_t footprint,
                 unsigned warmup, uint64_t timed, int carveout, double *avg, gs_error *err);

/* One level seen by an average-mode footprint sweep: the end of a latency plateau. */
typedef struct cw_avg_level {
    uint64_t size_bytes;       /* largest footprint still at the plateau's latency */
    uint64_t resolution_bytes; /* the bisection stopped when the bracket was this narrow */
    double ci95_bytes;         /* 0: size_bytes fits and one stride more does not, within the
                                  plateau's noise; else half the bracket the size lies in */
    bool strict;               /* the strict bisection to one stride held (else to a 64th) */
    uint64_t upper_bytes;      /* the smallest footprint the bisection found not to fit */
    double margin;             /* the tolerance over hit_cycles that decided fitting there */
    double hit_cycles;         /* plateau latency (median of its points) */
    double hit_halfrange;      /* half the range of its points' latencies (cycles) */
    bool repeated;             /* the end was found twice over new walks (cw_avg_repeat_end) */
    double next_cycles;        /* latency of the plateau after it */
} cw_avg_level;

typedef struct cw_avg_sweep {
    cw_avg_level levels[CW_AVG_MAX_LEVELS];
    size_t count;              /* plateaus before the last (the last is what lies behind) */
    double beyond_cycles;      /* latency of the last plateau */
    double beyond_halfrange;   /* half the range of its points' latencies (cycles) */
    unsigned chases;
    uint64_t stride_bytes;     /* element spacing of the walks */
    uint64_t line_at_most;     /* nonzero: the first level's line proved shorter than the
                                  stride asked for, and the sweep ran again at this one */
    double x[64], y[64];       /* the sampled footprints (B) and their averages (cycles) */
    size_t points;
    char why[160];             /* set when count is 0 */
} cw_avg_sweep;

/* Average cycles per access of a random cyclic walk (Sattolo) over footprint_bytes, one element
 * per stride_bytes (doubled until at most 2^20 elements), warm, average mode, under the given
 * carve-out (-1 = the walker's, w->carveout). */
int cw_avg_walk(cw_walker *w, uint64_t footprint_bytes, uint64_t stride_bytes, int carveout,
                double *avg_cycles, gs_error *err);

/* The end of sweep level i found again over new random walks, CW_END_REPEATS times (the
 * same bisection from the sweep's bracket, under a margin from three walks' noise inside the
 * plateau, the k-th end's walks CW_END_SHIFT x k into the space, on other pages): where an end
 * moves with the walk's lines and pages, one bisection's bracket understates how far. The
 * level's end becomes the mean of them (to the stride), its ci95 Student's t over them or the
 * widest bracket; upper_bytes the largest. */
#define CW_END_REPEATS 3
#define CW_END_SHIFT (42ull << 20)   /* 21 pages of 2 MB: no power-of-two multiple */
int cw_avg_repeat_end(cw_walker *w, cw_avg_sweep *sw, size_t i, int carveout, gs_error *err);

/* Sweep footprints lo_bytes .. hi_bytes at ratio sqrt(2) with random cyclic walks of one element
 * per stride_bytes, split the averages into plateaus (analysis/plateaus.h) and bisect the end of
 * each plateau but the last. stride_bytes should be the line: below it a random order re-uses
 * lines and blurs the plateau's end; above it a set index that skips the bits just above the line
 * sees only some sets (capacity x stride / line). Level defer_level (-1: none) is left at the
 * sweep's bracket, unbisected, for a caller that bisects it anew (cw_avg_repeat_end). Where the
 * first level's line proves shorter than the stride (a walk at half the stride over 3/4 of its
 * end overflows), the sweep runs again at half the stride, down to CW_MIN_LINE, so that its
 * ends count bytes whatever the line (out->line_at_most, out->stride_bytes say so). */
int cw_avg_levels(cw_walker *w, uint64_t lo_bytes, uint64_t hi_bytes, uint64_t stride_bytes,
                  int carveout, int defer_level, cw_avg_sweep *out, gs_error *err);

/* One sweep of cw_avg_levels at stride_bytes as given, whatever the first level's line. */
int cw_avg_sweep_at(cw_walker *w, uint64_t lo_bytes, uint64_t hi_bytes, uint64_t stride_bytes,
                    int carveout, int defer_level, cw_avg_sweep *out, gs_error *err);

/* Where a level that an earlier sweep at the same stride found (was) ends under carveout, against
 * where it ended: two walks, at was->size_bytes - tol_bytes and at the larger of
 * was->upper_bytes and was->size_bytes + tol_bytes, each judged as the bisection judged it
 * (was->margin over was->hit_cycles). *cmp: 0 the same end (the first fits, the second does
 * not), -1 smaller (the first no longer fits), 1 larger (the second fits too); -2 when was holds
 * no bracket (nothing walked). tol_bytes 0 asks for the bisection's own bracket. */
int cw_avg_compare_end(cw_walker *w, const cw_avg_level *was, uint64_t stride_bytes, int carveout,
                       uint64_t tol_bytes, int *cmp, gs_error *err);

/* Fetch granularity from cold sequential stride walks (gs_fetch_from_strides); 0 when not seen. */
int cw_avg_fetch(cw_walker *w, uint64_t *fetch_bytes, gs_error *err);

/* Average cycles per access of a warm sequential walk over count elements stride_bytes apart
 * (TLB walks: aliased physical memory, staggered lines). */
int cw_avg_stride(cw_walker *w, uint64_t count, uint64_t stride_bytes, double *avg_cycles,
                  gs_error *err);

/* TLB levels in average mode (when the fine-grained walk is refuted): for strides
 * the entries are the most regions of one stride that a warm walk visits with no step in its
 * average latency over a walk of the same physical words inside one page (a step:
 * CW_TLB_STEP_CYCLES or 1%), equal at the two largest strides (CW_TLB_MAX_STRIDE / 4 and
 * CW_TLB_MAX_STRIDE); the page is the smallest stride (doubling from CW_TLB_MIN_STRIDE) from which
 * a walk of 1.5 x entries elements steps. Footprints up to CW_TLB_MAX_FOOTPRINT over 2 MB of
 * physical memory. */
#define CW_TLB_MIN_STRIDE (64ull << 10)
#define CW_TLB_MAX_STRIDE (256ull << 20)
#define CW_TLB_STRIDES 16
#define CW_TLB_MAX_FOOTPRINT (1ull << 35)
#define CW_TLB_MAX_FOOTPRINT2 (1ull << 38)  /* second level: 256 GB over 64 MB pieces */
#define CW_TLB_PIECE2 (64ull << 20)         /* physical memory behind second-level walks */
#define CW_TLB_STEP_CYCLES 3.0
#define CW_TLB_STEP_REL 0.01
#define CW_TLB_PENALTY_REPS 5   /* the first level's penalty: walks at entries + 1 and 1 region */
/* A count to one region, or a step, stands only where it is this many standard deviations of the
 * walks' own scatter (measured by repeated walks) clear of noise (analysis/tlb_ladder.h). */
#define CW_TLB_EXACT_Z 4.0

/* The second TLB level in average mode (cache/tlb_second.c, docs/methods.md "TLBs"): counts of
 * regions that fit (no second step over the first level's misses) at strides of odd multiples of
 * the first level's page (1, 3, 17, 67, 257 pages) give entries and coverage (analysis/tlb_reach.h);
 * counts at 2, 4, 8 ... x coverage give sets and ways (or fully associative). Where the odd
 * multiples read no level (a hashed set index), the ladder: full rises at 1, 2, 4 ... pages (up to
 * CW_TLB2_LADDER strides) give the coverage, the LRU staircase there entries, sets and ways
 * (analysis/tlb_ladder.h). Each count is a doubling then a bisection; footprints up to
 * CW_TLB_MAX_FOOTPRINT2 over 64 MB of physical memory mapped many times. */
#define CW_TLB2_STRIDES 5
#define CW_TLB2_SETS_STEPS 12
#define CW_TLB2_LADDER 8          /* ladder strides: 1, 2, 4 ... 128 pages */
#define CW_TLB2_STAIR 8           /* walks on the staircase at the coverage, verifications too */

/* The counts one stride's search walked and their steps over n0 regions' (a series). */
#define CW_TLB2_WALKS 64
typedef struct cw_tlb2_walks {
    uint64_t stride_bytes;
    double count[CW_TLB2_WALKS], step_cycles[CW_TLB2_WALKS];
    size_t n;
} cw_tlb2_walks;

typedef struct cw_tlb_second_result {
    uint64_t page_bytes;                        /* unit of the strides (the first level's page) */
    double stride_bytes[CW_TLB2_STRIDES + CW_TLB2_SETS_STEPS];
    double count[CW_TLB2_STRIDES + CW_TLB2_SETS_STEPS];  /* regions that fit (series) */
    size_t points;
    uint64_t entries, coverage_bytes;           /* 0: not determined (why) */
    uint64_t reach_bytes;                       /* entries x coverage, or a lower bound's count x
                                                   stride when only that is known (reach_min) */
    bool reach_min;
    uint64_t sets, ways;                        /* 0: not determined (why_sets) */
    double penalty_cycles;                      /* NaN: not determined */
    double creep_cycles;                        /* step of the entries over n0 regions at the
                                                   entries' stride: a rise before the level's
                                                   misses (NaN: entries not determined) */
    double scatter_cycles;                      /* sd of one step (two walks) over repeated walks
                                                   of the fewest regions at one page */
    unsigned scatter_reps;                      /* how many such steps */
    cw_tlb2_walks walks[CW_TLB2_STRIDES];       /* each odd stride's search */
    size_t n_walks;
    /* the ladder (run where the odd multiples read no level): per stride, the rise of a walk at
     * twice the count the previous stride predicts and the regions verified to fit (0: none) */
    bool ladder;                                /* entries, sets, ways, penalty from it */
    double ladder_stride[CW_TLB2_LADDER], ladder_rise[CW_TLB2_LADDER];
    double ladder_fit[CW_TLB2_LADDER];
    size_t ladder_points;
    double stair_count[CW_TLB2_STAIR], stair_step[CW_TLB2_STAIR]; /* walks at the coverage */
    double stair_predicted[CW_TLB2_STAIR];      /* LRU's step for them (NaN: before the fit) */
    size_t stair_points;
    uint64_t walked_bytes;                      /* virtual footprint of every walk, summed */
    unsigned chases;                            /* walks of this level's search, base walks too */
    char why[1024], why_sets[1024];   /* a reason, then "; odd multiples of the page: ..." */
} cw_tlb_second_result;

/* The second level past a first of first_entries entries, strides in units of page_bytes (the
 * first level's page, or a stride at least that page when unit_is_page is false: coverage of a
 * unit or less is then not determined); out->why when not determined. */
int cw_tlb_second(cw_walker *w, uint64_t first_entries, uint64_t page_bytes, bool unit_is_page,
                  cw_tlb_second_result *out, gs_error *err);

typedef struct cw_avg_tlb_result {
    uint64_t stride_bytes[CW_TLB_STRIDES];
    uint64_t fit_count[CW_TLB_STRIDES];  /* 0: no step seen */
    double hit_cycles[CW_TLB_STRIDES], miss_cycles[CW_TLB_STRIDES];
    double edge_cycles[CW_TLB_STRIDES];  /* step past the count less the count's own */
    double scatter_cycles;     /* sd of one step (two walks), from the penalty's repeated walks */
    size_t n;
    double page_stride[CW_TLB_STRIDES], page_step[CW_TLB_STRIDES]; /* 1.5 x entries walks */
    size_t page_points;
    uint64_t entries;          /* 0: not determined (why) */
    uint64_t page_bytes;       /* 0: not determined (why) */
    double penalty_cycles;     /* mean of CW_TLB_PENALTY_REPS steps at the largest stride (or
                                  at the page: penalty_stride_bytes) */
    double penalty_ci95;       /* t x their sd / sqrt(reps) */
    uint64_t penalty_stride_bytes;  /* 0: the largest stride; else the page, where the largest
                                       stride's walks stepped more (penalty_above_cycles) */
    double penalty_above_cycles;
    cw_tlb_second_result l2;   /* the second level (cw_tlb_second) */
    unsigned chases;
    char why[240];
    char blind[400];           /* why the fine-grained walk cannot judge this level ("": it can) */
} cw_avg_tlb_result;

int cw_avg_tlb(cw_walker *w, cw_avg_tlb_result *out, gs_error *err);

/* L2 line in average mode (cache/line.c, cw_avg_line): from walks of 1.5 x capacity_bytes / s
 * elements, one per s-byte slot, s doubling from min_stride; 0 when not seen. */
int cw_avg_line(cw_walker *w, uint64_t capacity_bytes, double hit_cycles, double next_cycles,
                uint64_t min_stride, uint64_t *line_bytes, gs_error *err);

/* Ways from stride walks in average mode (cache/avg_structure.c, cw_avg_fits): for strides S
 * doubling from 2 x line up to CW_FIT_MAX_STRIDE (a larger stride puts few elements on each 2 MB
 * page and brings TLB misses into the average), fit[i] = the most blocks at stride S that a cyclic walk
 * holds with its average within 10 % of hit_cycles (0: more than CW_FIT_MAX_BLOCKS). Under a
 * bit-select set index, from S = sets x line on every block lands in one set: fit = ways. */
#define CW_FIT_MAX_STRIDE (128ull << 10)
#define CW_FIT_MAX_BLOCKS 2048     /* more lines than the L1s of the GPUs this tool knows */
#define CW_FIT_STRIDES 16

typedef struct cw_avg_fits_result {
    uint64_t stride_bytes[CW_FIT_STRIDES];
    uint64_t fit[CW_FIT_STRIDES];
    size_t n;
} cw_avg_fits_result;

int cw_avg_fits(cw_walker *w, uint64_t line_bytes, double hit_cycles, cw_avg_fits_result *out,
                gs_error *err);

/* Whether a walk of lines[0..n) misses (*yes), and whether the search may go on (*more: its
 * budget); returns an error code. */
typedef int (*cw_misses_fn)(void *ctx, const uint64_t *lines, size_t n, bool *yes, bool *more,
                            gs_error *err);
/* The group reduction of eviction-set searches (cache/avg_structure.c): groups of s[0..*m) are
 * dropped while the rest still misses, in finer groups when none can go, until no single line
 * can or misses says *more false; t holds *m scratch lines. Where no group can go and the lines
 * left no longer miss (a verdict flipped and dropped lines the miss needed), the last drop goes
 * back, at most CW_REDUCE_UNDO times, in groups half as fine. opt (NULL: the defaults, all off
 * or zero) tunes it and reports. */
#define CW_REDUCE_UNDO 64
typedef struct cw_reduce {
    bool confirm;            /* in: a drop needs two verdicts in a row */
    size_t stall_groups;     /* in, 0: none: stop once a sweep over at least this many groups
                                drops none while the lines still miss. With W <= k ways, any
                                k + 1 groups leave one without a line of the set (pigeonhole),
                                so past 2 (k + 1) a stall means the miss needs more lines than
                                any set of k ways holds */
    unsigned undone;         /* out: drops taken back */
    bool stalled;            /* out: stopped at stall_groups */
    size_t groups;           /* out: groups of the last sweep */
} cw_reduce;
int cw_group_reduce(uint64_t *s, size_t *m, uint64_t *t, cw_misses_fn misses, void *ctx,
                    cw_reduce *opt, gs_error *err);

/* Whether line x falls in the set of set[0..m) (ways + 1 lines of one set; x is none of them),
 * and the value the verdict rests on (a walk's average, a normalized probe); an error code. */
typedef int (*cw_in_set_fn)(void *ctx, const uint64_t *set, size_t m, uint64_t x, bool *yes,
                            double *value, gs_error *err);
/* The highest address bit cw_xor_index moves a line by: 16 x the capacity (device memory), at
 * most bit 40, below the walker's bound in the other spaces. */
unsigned cw_xor_top_bit(const cw_walker *w, uint64_t size_bytes);
/* The set index as XOR masks of address bits (gs_gf2; cache/avg_structure.c): lines set[0] ^ v,
 * v of one or two bits from the line's up to cw_xor_top_bit, judged by in_set against ways + 1
 * lines of one set; the masks are the null space of the differences that stay in the set and
 * of known[0..n_known) (differences of lines found in one set: a hash of three or more bits
 * per index bit keeps few one- and two-bit moves in a set, random lines of a set span them).
 * Accepted when they make lv->sets sets, put every line that left the set elsewhere, predict
 * held-out lines, and the verdicts' values in and out lie apart beyond their noise; then
 * lv->mapping is CW_MAP_XOR (or CW_MAP_BITS for single-bit masks); else the mapping stays not
 * determined with why (appended to lv->why_structure). */
int cw_xor_index(cw_walker *w, cw_level *lv, const uint64_t *set, size_t m, uint64_t line,
                 const uint64_t *known, size_t n_known, cw_in_set_fn in_set, void *ctx,
                 gs_error *err);

/* Average cycles per access of a warm cyclic walk over the given byte offsets (8-byte elements,
 * any order); _at under a carve-out preference (-1: the walker's). */
int cw_avg_offsets_at(cw_walker *w, const uint64_t *offsets, size_t n, int carveout,
                      double *avg_cycles, gs_error *err);
int cw_avg_offsets(cw_walker *w, const uint64_t *offsets, size_t n, double *avg_cycles,
                   gs_error *err);

/* The values behind in-set verdicts (walk averages, probes): lowest and highest of those judged
 * in the set and of those judged out, with their counts; gs_gf2_bands_apart says whether the two
 * lie apart beyond their noise. */
typedef struct cw_bands {
    double yes_lo, yes_hi, no_lo, no_hi;
    size_t yes_n, no_n;
} cw_bands;

static inline void cw_bands_add(cw_bands *b, bool yes, double v)
{
    double *lo = yes ? &b->yes_lo : &b->no_lo, *hi = yes ? &b->yes_hi : &b->no_hi;
    size_t *n = yes ? &b->yes_n : &b->no_n;
    *lo = *n == 0 || v < *lo ? v : *lo;
    *hi = *n == 0 || v > *hi ? v : *hi;
    (*n)++;
}

/* The set index as XOR masks from lines of one set found by group tests (cache/xor_members.c):
 * set[0..m) are ways + 1 lines of one set, candidates lie below bit top. On success lv->mapping
 * is CW_MAP_XOR with the masks; else why says what stopped it. */
int cw_xor_members(cw_walker *w, cw_level *lv, const uint64_t *set, size_t m, uint64_t line,
                   unsigned top, char *why, size_t why_size, gs_error *err);

/* XOR masks for a hashed set index that the fine-grained walks found (sets and equal ways from
 * blocks added past capacity, lv->mapping CW_MAP_HASHED): set[0..m) are the ways + 1 blocks of
 * the set that overflowed; average-mode walks of set[1..m) with a line x judge x in the set (hit
 * reference: the walk of set[1..m) alone), and the masks come from one- and two-bit moves
 * (cw_xor_index) or from many lines of the set (cw_xor_members), each checked on held-out
 * lines. Accepted when they make lv->sets sets (mapping CW_MAP_XOR, or CW_MAP_BITS for single
 * bits); else the mapping stays "hashed" and mapping_method says why. */
int cw_hashed_masks(cw_walker *w, cw_level *lv, const uint64_t *set, size_t m, gs_error *err);

/* ---- the probe's steps for one target (cache.c calls them in order) -------------------------- */

/* Records (cache/record.c): a record for level depth of target t with the parameters every level
 * carries; a level's whole record; a level not determined (why). */
gs_probe_out *cw_level_record(gs_probe_ctx *ctx, const target_def *t, unsigned depth);
gs_probe_out *cw_record_level(gs_probe_ctx *ctx, const target_def *t, unsigned depth,
                              const cw_level *lv);
void cw_record_missing(gs_probe_ctx *ctx, const target_def *t, unsigned depth,
                       const char *why);
/* The name of a level's capacity figure: usable_size_bytes for the L2 path (what a random walk
 * keeps, beside the driver's nominal capacity), size_bytes for every other level. */
const char *cw_size_name(const target_def *t);
/* The L2's nominal capacity, nominal_size_bytes: the driver's figure (method "driver"). */
void cw_add_nominal_size(gs_probe_ctx *ctx, gs_probe_out *p);

/* Trace budget (cache/trace_budget.c): the shared memory and carve-out preference every chase of
 * an L1-like target holds (*pinned false, with why, when none leaves the L1 as it is), from sw0,
 * the sweep with no shared memory held; and the series of the L1 size per carve-out. */
int cw_pick_trace_smem(gs_probe_ctx *ctx, cw_walker *w, const target_def *t, uint64_t bound,
                       cw_avg_sweep *sw0, bool *pinned, char *why, size_t why_len,
                       gs_error *err);
int cw_add_carveout_series(gs_probe_ctx *ctx, cw_walker *w, uint64_t bound,
                           uint64_t stride_bytes, gs_probe_out *p, gs_error *err);

/* Cross-checks (cache/cross_check.c): the fine-grained level against an average-mode footprint
 * sweep (into sw); keeping only what the average sweep measured; the L2's near-part figures. */
extern const char cw_avg_miss_m[];   /* method of a miss penalty from average-mode plateaus */
int cw_cross_check(gs_probe_ctx *ctx, cw_walker *w, const target_def *t, uint64_t bound,
                   cw_level *lv, cw_avg_sweep *sw, gs_error *err);
void cw_adopt_average(cw_level *lv, const cw_avg_level *a, double beyond_cycles,
                      uint64_t fetch_bytes, const char *why);
void cw_add_near_figures(gs_probe_ctx *ctx, gs_probe_out *p, const cw_avg_sweep *sw);

/* The L2 hit latency from every SM (cache/sm_latency.c): an average walk inside the L2 pinned to
 * each SM, two passes; series hit_latency_by_sm and the hit_latency_sm_* figures on p. */
int cw_l2_sm_latency(gs_probe_ctx *ctx, cw_walker *w, gs_probe_out *p, const cw_avg_sweep *sw,
                     gs_error *err);

/* Structure in average mode (cache/avg_structure.c): line, sets, ways, mapping and policy of an
 * L1-like level whose fine-grained structure was not determined; fits gets the ways_by_stride
 * series. */
int cw_avg_structure(cw_walker *w, cw_level *lv, const cw_avg_sweep *sw,
                     cw_avg_fits_result *fits, gs_error *err);

/* The L2's size in average mode, partition-aware (cache/l2_size.c): a bisection on the
 * miss excess (a walk less the same lines visited twice in a row) from lv->size_bytes (the
 * sweep's), then extrapolated to where the excess starts; sets lv->size_bytes, size_method and
 * size_interval_bytes. cw_add_l2_size_figures records the interval. */
int cw_l2_size(cw_walker *w, cw_level *lv, const cw_avg_sweep *sw, gs_error *err);
void cw_add_l2_size_figures(gs_probe_out *p, const cw_level *lv);

/* The L2's end from above (cache/l2_size.c): the smallest footprint whose random walk misses on
 * every access (its average within noise of the plateau behind the L2), bisected between the
 * sweep's points. A capacity lies below it under any policy that evicts only from a full set.
 * Where it lies more than a quarter past the sweep's end (lv->size_bytes) the end is gradual:
 * misses start before the capacity (hashed sets filling unevenly, copies of far lines in the
 * near partition), so the size is set not determined with the interval from the onset's lower
 * bracket to this bound (size_interval_bytes, size_nd_why). */
int cw_l2_full_miss(cw_walker *w, cw_level *lv, const cw_avg_sweep *sw, uint64_t driver_bytes,
                    gs_error *err);
/* Miss excess of a warm cyclic walk over the lines at offsets lines[0..n) (in that order): a,
 * the walk's average, b, the average of the walk that visits each line twice in a row (twice:
 * 2n entries of scratch); *excess = 2 (a - b) per access, *hit = 2b - a (the lines' own hits). */
int cw_l2_miss_excess(cw_walker *w, const uint64_t *lines, size_t n, uint64_t *twice,
                      double *excess, double *hit, gs_error *err);

/* The L2's ways, sets and mapping from eviction sets found by prime+probe (cache/l2_structure.c,
 * docs/methods.md "L2 sets and ways"; the backend's evict operation): three pools of random
 * lines, twice the capacity, each reduced to the lines that still evict a target; ways = their
 * count where three agree, sets = capacity / (ways x line), the XOR index where the sets are a
 * power of two. Sets lv->sets / ways / mapping or lv->why_structure; the policy stays not
 * determined (why). sw gives the far partition's hit where it saw two L2 plateaus. */
int cw_l2_structure(cw_walker *w, cw_level *lv, const cw_avg_sweep *sw, bool counters,
                    gs_error *err);

/* TLBs (cache/tlb.c): the fine-grained first level checked against average-mode stride walks
 * (*ok false, with lv->why_structure, when they disagree; r gets the walks); the records made
 * from those walks when the fine-grained level is refuted (or --structure average). */
int cw_tlb_check(cw_walker *w, cw_level *lv, cw_avg_tlb_result *r, bool *ok, gs_error *err);
void cw_record_tlb_average(gs_probe_ctx *ctx, const target_def *t, const char *refuted,
                           const cw_avg_tlb_result *rp);
/* The second level's record from average-mode walks; refuted: why a fine-grained reading is not
 * reported (NULL: none); page_known: the first level's page, the strides' unit, was determined
 * (false where its fine-grained and stride walks disagreed). */
void cw_record_tlb_second(gs_probe_ctx *ctx, const target_def *t, const cw_tlb_second_result *r,
                          const char *refuted, bool page_known);
/* The fine-grained second level checked against the average-mode one (*ok false, with
 * lv->why_structure, when both found entries and they differ in entries or coverage). */
void cw_tlb_check_second(cw_level *lv, const cw_tlb_second_result *r, bool *ok);

#endif
