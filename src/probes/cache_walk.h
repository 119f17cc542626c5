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
    size_t cap;               /* record_capacity of the backend's trace buffer */
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
    char why_structure[160];
    char why_policy[160];
} cw_level;

int cw_walker_init(cw_walker *w, gs_probe_ctx *ctx, gs_space space, gs_load_path path, bool tlb,
                   gs_error *err);
void cw_walker_free(cw_walker *w);

/* Infer level depth (0 = the first on the path) whose predecessor holds prev_size_bytes in blocks
 * of prev_block_bytes, its sets spanning prev_span_bytes (sets x block; all 0 for depth 0),
 * searching footprints up to bound_bytes.
 * GS_ERR_UNSUPPORTED when the backend cannot chase this path; lv->size_bytes 0 (with
 * why_structure) when no level was found. */
int cw_infer_level(cw_walker *w, unsigned depth, uint64_t prev_size_bytes,
                   uint64_t prev_block_bytes, uint64_t prev_span_bytes, uint64_t bound_bytes,
                   cw_level *lv, gs_error *err);

#endif
