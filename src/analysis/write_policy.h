/* Inference of the L1's policy for global stores (probe write-policy; textbook notes on the GPU
 * memory system, "Cache Write Operations": write-through or write-back, write-allocate or not)
 * from the latencies of single loads after stores. Two reference latencies of one load path
 * bracket every decision: the load of a line the L1 holds (hit) and of a line only the L2 holds
 * (miss). A case is on the hit side when its median plus ci95 is under the midpoint of the two
 * references' medians, on the miss side when its median minus ci95 is over it, and undecided
 * otherwise; nothing is decided when the references' own intervals (median +- ci95) meet, or
 * their medians are not two standard deviations apart.
 * Pure functions over arrays; no device. */
#ifndef GS_ANALYSIS_WRITE_POLICY_H
#define GS_ANALYSIS_WRITE_POLICY_H

#include <stdbool.h>
#include <stddef.h>

#include "analysis/stats.h"

typedef enum gs_wp_side {
    GS_WP_UNDECIDED = 0,
    GS_WP_HIT,                    /* served by the L1 */
    GS_WP_MISS,                   /* served beyond it */
} gs_wp_side;

/* The samples of one case (cycles; NaN skipped). */
typedef struct gs_wp_samples {
    const double *x;
    size_t n;
} gs_wp_samples;

/* What one load path's cases measured. */
typedef struct gs_wp_input {
    gs_wp_samples ref_hit;        /* line in the L1, no store */
    gs_wp_samples ref_miss;       /* line evicted from the L1 (in the L2), no store */
    gs_wp_samples cold_word;      /* line evicted, store word w, load word w */
    gs_wp_samples cold_sector;    /* line evicted, store word w, load another word of its sector */
    gs_wp_samples cold_line;      /* line evicted, store word w, load a word of another sector */
    gs_wp_samples warm_word;      /* line in the L1, store word w, load word w */
    gs_wp_samples warm_line;      /* line in the L1, store word w, load a word of another sector */
    unsigned warm_word_old;       /* warm_word loads that returned the value before the store */
    /* Visibility to another SM of a store to a line the writer's L1 holds: */
    size_t vis_valid, vis_seen;   /* repetitions that met, and those whose reader saw the value */
    gs_wp_samples vis_cycles;     /* reader cycles until it saw it (NaN where unseen) */
    size_t ctl_valid, ctl_seen;   /* the same with st.global.cg (the control: reaches the L2) */
    gs_wp_samples ctl_cycles;
} gs_wp_input;

typedef enum gs_wp_store_hit {
    GS_WP_STORE_HIT_UNKNOWN = 0,
    GS_WP_STORE_HIT_UPDATE,       /* the line stays in the L1 with the new value */
    GS_WP_STORE_HIT_INVALIDATE,   /* the line leaves the L1 */
    GS_WP_STORE_HIT_STALE,        /* the line stays with the old value (not coherent) */
} gs_wp_store_hit;

typedef struct gs_wp_verdict {
    gs_summary ref_hit, ref_miss, cold_word, cold_sector, cold_line, warm_word, warm_line;
    gs_summary vis, ctl;
    double threshold_cycles;      /* midpoint of the references' medians */
    bool separated;               /* the references' intervals do not meet */
    /* write-allocate: 1 yes, 0 no, -1 not determined; unit "sector", "line" or "word" (only the
     * stored word: the rest of its sector misses) when yes and the other cases decide it */
    int allocate;
    const char *allocate_unit;
    char allocate_reason[192];
    /* write policy: 1 write-through, 0 write-back, -1 not determined */
    int write_through;
    char policy_reason[192];
    gs_wp_store_hit store_hit;
    const char *invalidate_unit;  /* STORE_HIT_INVALIDATE: "line" or "sector" when decided */
    char store_hit_reason[192];
} gs_wp_verdict;

/* Which side of the references x falls on (GS_WP_UNDECIDED when they are not separated); *s
 * receives x's robust summary (outliers beyond 5 MADs dropped). */
gs_wp_side gs_wp_classify(const gs_wp_verdict *refs, gs_wp_samples x, gs_summary *s);

/* Decide the three policies of one path from its cases. */
void gs_wp_infer(const gs_wp_input *in, gs_wp_verdict *out);

/* "write-through"/"write-back", "updates it"/"invalidates it"/"keeps the old value": names of
 * the verdicts as the figures spell them. */
const char *gs_wp_store_hit_name(gs_wp_store_hit h);

#endif
