/* The search for the count at which a walk's average latency steps (docs/methods.md, "TLBs",
 * second level): the most regions a walk visits before a level's misses begin. The step of a
 * count (its average over a base walk, less that of the first count n0) may *creep* up before
 * the real step (as an H100's early raw walks seemed to; its probe steps did not), so a
 * step is a rise of more than thr between two counts no further apart than the precision (adjacent
 * counts, or 1/64 of the count); a rise spread wider than that is taken into the plateau, however
 * high it climbs. Counts double from the first one until a rise of more than thr over the
 * plateau; the bracket is then halved, keeping the half that rises more than thr over its bottom,
 * and where neither half does the rise was gradual and the doubling goes on from the bracket's
 * top. The caller walks the count gs_step_next names and hands its step to gs_step_add until
 * gs_step_next returns 0. Pure. */
#ifndef GS_STEP_SEARCH_H
#define GS_STEP_SEARCH_H

#include <stdbool.h>
#include <stdint.h>

typedef struct gs_step_search {
    uint64_t lo;            /* the largest count known on the plateau (its step s_lo) */
    uint64_t hi;            /* a count past a rise of more than thr over lo (s_hi); 0: none */
    double s_lo, s_hi;
    uint64_t next;          /* the count to walk next; 0: the search is over */
    uint64_t max_count;     /* doubling stops past it */
    double thr;             /* the least rise that is a step (cycles) */
    bool exact;             /* precision: adjacent counts (else 1/64 of the count) */
    bool found;             /* over, with a step between lo and hi */
} gs_step_search;

/* Start at count n0 whose step is s0 (0 for the reference walk itself); first: the first count
 * to walk (> n0); counts past max_count are never walked. */
void gs_step_init(gs_step_search *s, uint64_t n0, double s0, uint64_t first, uint64_t max_count,
                  double thr, bool exact);

/* The count to walk next, 0 when the search is over (found, or no step up to max_count). */
uint64_t gs_step_next(const gs_step_search *s);

/* The step of the count gs_step_next named (a step that is not finite ends the search, not
 * found). */
void gs_step_add(gs_step_search *s, double step);

#endif
