/* The measuring half of the `cache` probe (cache.c records figures): chase plans for one load
 * path, and the steps that turn their traces into one level's structure (section 3.2 of the
 * memory-hierarchy paper). Everything here talks to the backend only through chase plans. */
#ifndef GS_PROBES_CACHE_WALK_H
#define GS_PROBES_CACHE_WALK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/cache_infer.h"
#include "probes/probe.h"
#include "util/rng.h"

#define CW_MAX_SETS 256       /* sets whose ways are listed one by one (unequal sets) */
#define CW_MAX_WAYS 256       /* most ways for the replacement-policy tests */

typedef enum cw_mapping { CW_MAP_NONE = 0, CW_MAP_BITS, CW_MAP_MODULO, CW_MAP_HASHED } cw_mapping;

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
    gs_rng rng;
} cw_walker;

/* What was learnt about one level; 0 / NaN / UNKNOWN where not determined (with why_*). */
typedef struct cw_level {
    bool tlb;
    size_t record_capacity;
    uint64_t trace_smem_bytes; /* shared memory every chase of the level held */
    int trace_carveout;        /* and their carve-out preference (-1: the driver's default) */
    unsigned chases;
    uint64_t size_bytes;
    gs_hit_band band;
    double miss_cycles;       /* median latency of misses just past capacity */
    size_t miss_n;
    uint64_t fetch_bytes;     /* distance between cold misses */
    uint64_t line_bytes;      /* line, or region one TLB entry covers */
    uint64_t page_bytes;      /* TLBs: first level's region (set by cache.c) */
    const char *line_method;
    unsigned sets;
    unsigned ways_per_set[CW_MAX_SETS];
    size_t nsets;             /* entries in ways_per_set (1 when equal sets) */
    const char *sets_method;
    cw_mapping mapping;
    unsigned index_bits[64];
    size_t nindex;
    gs_policy policy;
    double way_probabilities[CW_MAX_WAYS];
    size_t nprob;
    size_t policy_n;
    const char *policy_method;
    char why_structure[640];
    char why_policy[640];
    const char *size_method;  /* NULL: the fine-grained capacity sweep; else average mode */
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

/* ---- average-mode sweeps (cache_avg.c) ----------------------------------------------------------- */

#define CW_AVG_MAX_LEVELS 4

/* One level seen by an average-mode footprint sweep: the end of a latency plateau. */
typedef struct cw_avg_level {
    uint64_t size_bytes;       /* largest footprint still at the plateau's latency */
    uint64_t resolution_bytes; /* the bisection stopped when the bracket was this narrow */
    double hit_cycles;         /* plateau latency (median of its points) */
    double next_cycles;        /* latency of the plateau after it */
} cw_avg_level;

typedef struct cw_avg_sweep {
    cw_avg_level levels[CW_AVG_MAX_LEVELS];
    size_t count;              /* plateaus before the last (the last is what lies behind) */
    double beyond_cycles;      /* latency of the last plateau */
    unsigned chases;
    uint64_t stride_bytes;     /* element spacing of the walks */
    double x[64], y[64];       /* the sampled footprints (B) and their averages (cycles) */
    size_t points;
    char why[160];             /* set when count is 0 */
} cw_avg_sweep;

/* Average cycles per access of a random cyclic walk (Sattolo) over footprint_bytes, one element
 * per stride_bytes (doubled until at most 2^20 elements), warm, average mode, under the given
 * carve-out (-1 = the walker's, w->carveout). */
int cw_avg_walk(cw_walker *w, uint64_t footprint_bytes, uint64_t stride_bytes, int carveout,
                double *avg_cycles, gs_error *err);

/* Sweep footprints lo_bytes .. hi_bytes at ratio sqrt(2) with random cyclic walks of one element
 * per stride_bytes, split the averages into plateaus (analysis/plateaus.h) and bisect the end of
 * each plateau but the last. stride_bytes should be the line: below it a random order re-uses
 * lines and blurs the plateau's end; above it a set index that skips the bits just above the line
 * sees only some sets (capacity x stride / line). */
int cw_avg_levels(cw_walker *w, uint64_t lo_bytes, uint64_t hi_bytes, uint64_t stride_bytes,
                  int carveout, cw_avg_sweep *out, gs_error *err);

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
#define CW_TLB_STEP_CYCLES 3.0
#define CW_TLB_STEP_REL 0.01

typedef struct cw_avg_tlb_result {
    uint64_t stride_bytes[CW_TLB_STRIDES];
    uint64_t fit_count[CW_TLB_STRIDES];  /* 0: no step seen */
    double hit_cycles[CW_TLB_STRIDES], miss_cycles[CW_TLB_STRIDES];
    size_t n;
    double page_stride[CW_TLB_STRIDES], page_step[CW_TLB_STRIDES]; /* 1.5 x entries walks */
    size_t page_points;
    uint64_t entries;          /* 0: not determined (why) */
    uint64_t page_bytes;       /* 0: not determined (why) */
    double penalty_cycles;
    uint64_t l2_entries;       /* second level: regions of l2_stride_bytes; 0: why2 */
    uint64_t l2_stride_bytes;
    double l2_penalty_cycles;
    uint64_t l2_entries_half;  /* the same at half that stride (0: not measured) */
    char why2[240];
    unsigned chases;
    char why[240];
} cw_avg_tlb_result;

int cw_avg_tlb(cw_walker *w, cw_avg_tlb_result *out, gs_error *err);

/* L2 line in average mode (cache_avg.c, cw_avg_line): from walks of 1.5 x capacity_bytes / s
 * elements, one per s-byte slot, s doubling from min_stride; 0 when not seen. */
int cw_avg_line(cw_walker *w, uint64_t capacity_bytes, double hit_cycles, double next_cycles,
                uint64_t min_stride, uint64_t *line_bytes, gs_error *err);

/* Ways from stride walks in average mode (cache_avg.c, cw_avg_fits): for strides S doubling from
 * 2 x line up to CW_FIT_MAX_STRIDE (a larger stride puts few elements on each 2 MB page and
 * brings TLB misses into the average), fit[i] = the most blocks at stride S that a cyclic walk
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

/* Average cycles per access of a warm cyclic walk over the given byte offsets (8-byte elements,
 * any order). */
int cw_avg_offsets(cw_walker *w, const uint64_t *offsets, size_t n, double *avg_cycles,
                   gs_error *err);

#endif
