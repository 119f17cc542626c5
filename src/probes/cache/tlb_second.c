/* The second TLB level in average mode (memory-hierarchy paper, section 4.2, Fig. 10 and 11;
 * docs/methods.md "TLBs", second level): the most regions of one stride that a warm walk visits
 * before a second step in its average latency, at strides of odd multiples of the first level's
 * page (1, 3, 17, 67, 257 pages: they reach every set of a power-of-two or modulo index and tell
 * coverage from entries, analysis/tlb_reach.h), then at 2, 4, 8 ... x the coverage (sets and
 * ways, or fully associative). Where the odd multiples read no level (a hashed set index spreads
 * them unevenly: the H100's and H200's), the *ladder* (analysis/tlb_ladder.h): walks of twice the
 * count each stride of 1, 2, 4 ... pages predicts, whose full rise doubles up to the coverage and
 * stops growing past it; then, at the coverage, the LRU staircase past the entries (Fig. 11: each
 * entry added past a full set of W ways makes W + 1 entries miss a pass), a line whose slope gives
 * the ways and whose root the entries, checked against walks it predicts. The ladder assumes LRU
 * (or FIFO, the same on a cyclic walk) and an index that spreads consecutive entries evenly over
 * the sets at the coverage's stride; a staircase that is not such a line, or a prediction missed,
 * leaves entries, sets, ways and the penalty not determined. Each count is a doubling then a
 * bisection on the count, not a sweep; every walk maps 64 MB of physical memory many times
 * (CUDA's virtual memory API), so a footprint of hundreds of GB costs a few thousand mappings. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/stats.h"
#include "analysis/step_search.h"
#include "analysis/tlb_ladder.h"
#include "analysis/tlb_reach.h"
#include "probes/cache/internal.h"
#include "util/interrupt.h"

#define TLB2_SHIFT 8ull            /* element j sits 8 j bytes (mod the page) into its region:
                                      * packed words, few lines (cache/tlb.c, TLB_SHIFT) */
#define TLB2_MIN_COUNT 64ull       /* regions of the first walk, at least: past the first level */
#define TLB2_TOL 0.05              /* counts that agree within 5 % are equal */
#define TLB2_FIT_TOL (2.0 / 64)    /* a found level's prediction of every count: two counts'
                                      resolution (refine: a 64th) */

static const uint64_t odd_pages[CW_TLB2_STRIDES] = {1, 3, 17, 67, 257};

/* Virtual footprint walked by this level's search (its cost on a GPU: mappings of 64 MB). */
static uint64_t walked_bytes;

/* Physical memory behind the walks: pages enough for the base walk (which spans the piece) to stay
 * inside the first level (half its entries, so a non-LRU first level keeps them too), at least
 * 16 MB (fewer pages mean more mappings per footprint: slower on a GPU; a base walk over more
 * pages than the first level holds misses it at every count alike), at most 64 MB. */
static uint64_t piece_bytes;

static uint64_t piece_of(uint64_t page) { return piece_bytes ? piece_bytes : page; }

static void set_piece(uint64_t page, uint64_t first_entries)
{
    uint64_t pages = 1;
    while ((pages * 2 <= first_entries / 2 || pages * 2 * page <= CW_TLB_PIECE2 / 4) &&
           pages * 2 * page <= CW_TLB_PIECE2)
        pages *= 2;
    piece_bytes = pages * page;
}

/* Average cycles per access of n regions stride apart (base: the same physical words, the
 * physical offsets themselves, inside one piece: no translation misses). Element j lies at j x stride + 8 j
 * mod page: its own word, inside its own region. */
static int walk(cw_walker *w, uint64_t n, uint64_t stride, uint64_t page, bool base,
                uint64_t *walked, double *avg, gs_error *err)
{
    if (gs_interrupted())
        return gs_fail(err, GS_ERR_INTERRUPTED, "interrupted during the cache probe");
    uint64_t *chain = malloc(n * sizeof *chain), top = 0, piece = piece_of(page);
    if (!chain)
        return gs_fail(err, GS_ERR_NO_MEMORY, "out of host memory");
    for (uint64_t j = 0; j < n; j++) {
        uint64_t v = j * stride + TLB2_SHIFT * j % page;
        chain[j] = base ? v % piece : v;
    }
    if (base) {
        int drc = cw_distinct_in_piece(chain, n, piece, err);
        if (drc) {
            free(chain);
            return drc;
        }
    }
    for (uint64_t j = 0; j < n; j++)
        top = chain[j] > top ? chain[j] : top;
    uint64_t passes = n * 8 > 8192 ? 8 : (8192 + n - 1) / n;   /* whole passes only */
    gs_chase_plan p = {.space = w->space, .path = w->path, .footprint_bytes = top + AVG_ELEM,
                       .chain = chain, .chain_len = n, .element_bytes = AVG_ELEM,
                       .warmup_passes = 2, .timed_accesses = n * passes,
                       .carveout_percent = w->carveout, .smem_bytes = w->smem_bytes};
    cw_tlb_alias(&p, piece);
    gs_chase_result r = {.latency_cycles = NULL};
    int rc = w->ctx->backend->ops->chase(w->ctx->backend, &p, &r, err);
    w->chases++;
    *walked += p.footprint_bytes;
    *avg = rc ? NAN : r.avg_cycles;
    free(chain);
    return rc;
}

/* Step of n regions over their base walk. */
static int step(cw_walker *w, uint64_t n, uint64_t stride, uint64_t page, double *st, double *at,
                gs_error *err)
{
    double a, b;
    int rc = walk(w, n, stride, page, false, &walked_bytes, &a, err);
    if (!rc)
        rc = walk(w, n, stride, page, true, &walked_bytes, &b, err);
    *st = rc ? NAN : a - b;
    *at = a;
    return rc;
}

/* The scatter of one step (its sd, cycles): n0 regions at one page against their base walk,
 * TLB2_SCATTER_MIN times, then up to TLB2_SCATTER_MAX where they differ (identical steps are
 * noise-free walks, which need no more). It decides which counts stand to one region; 11 degrees
 * of freedom read it under 0.6 x the true sd in 3 % of runs (8 walks: 7 %). */
#define TLB2_SCATTER_MIN 2
#define TLB2_SCATTER_MAX 12

static int step_scatter(cw_walker *w, uint64_t n0, uint64_t page, double *sigma,
                        unsigned *reps, gs_error *err)
{
    double v[TLB2_SCATTER_MAX], at;
    unsigned r = 0;
    int rc = 0;
    bool differ = false;
    while (!rc && r < (differ ? TLB2_SCATTER_MAX : TLB2_SCATTER_MIN)) {
        rc = step(w, n0, page, page, &v[r], &at, err);
        differ = differ || (!rc && v[r] != v[0]);
        r++;
    }
    *sigma = rc ? NAN : gs_stddev(v, r);
    *reps = r;
    return rc;
}

/* One count's search: the count (0: no second step up to CW_TLB_MAX_FOOTPRINT2; 1: n0 regions
 * do not all fit, below what these walks can count), the first count past its step (hi), and
 * steps over n0 regions' (st0): of the count (plateau: the creep before the step; with no step,
 * of the last count on the plateau, top) and of hi; thr: the least rise that was a step. */
typedef struct tlb2_count {
    uint64_t count, hi, top;
    double st0, plateau, s_hi, thr;
    double edge;    /* exact counts: the step of count + 1 less the count's (NaN: none) */
} tlb2_count;

/* Walk the counts a search names; each (count, step) goes into the series when one is given. */
static int run_search(cw_walker *w, gs_step_search *s, uint64_t stride, uint64_t page,
                      double st0, cw_tlb2_walks *series, gs_error *err)
{
    int rc = 0;
    for (uint64_t n; !rc && (n = gs_step_next(s)) != 0;) {
        double st, at;
        rc = step(w, n, stride, page, &st, &at, err);
        gs_step_add(s, rc ? NAN : st - st0);
        if (!rc && series && series->n < CW_TLB2_WALKS) {
            series->count[series->n] = (double)n;
            series->step_cycles[series->n++] = st - st0;
        }
    }
    return rc;
}

/* The most regions at this stride with no second step (analysis/step_search.h): a rise of more
 * than CW_TLB_STEP_CYCLES or 1 % over the walk of n0 regions, where every access already misses
 * the first level, between counts 1/64 apart (adjacent when exact); a rise spread wider, a creep,
 * is taken into the plateau. Doubling from hint, then bisection. */
static int count_fit(cw_walker *w, uint64_t stride, uint64_t page, uint64_t n0, uint64_t hint,
                     bool exact, tlb2_count *c, cw_tlb2_walks *series, gs_error *err)
{
    double at;
    *c = (tlb2_count){.plateau = NAN, .s_hi = NAN, .edge = NAN};
    int rc = step(w, n0, stride, page, &c->st0, &at, err);
    if (rc)
        return rc;
    gs_step_search s;
    c->thr = fmax(CW_TLB_STEP_CYCLES, CW_TLB_STEP_REL * at);
    gs_step_init(&s, n0, 0.0, hint > 2 * n0 ? hint / 2 : 2 * n0, CW_TLB_MAX_FOOTPRINT2 / stride,
                 c->thr, exact);
    if (series)
        series->stride_bytes = stride;
    rc = run_search(w, &s, stride, page, c->st0, series, err);
    c->top = s.lo;
    c->plateau = s.s_lo;
    if (!rc && s.found) {
        c->count = s.lo > n0 ? s.lo : 1;
        c->hi = s.hi;
        c->s_hi = s.s_hi;
        c->edge = s.s_hi - s.s_lo;
    }
    return rc;
}

/* The count again to one region with a finer threshold: at a stride that spreads regions over
 * every set of a set-associative level, one region past the entries overflows one set only, and
 * its step, (ways + 1) / regions x the penalty, can stay under CW_TLB_STEP_CYCLES. Half of one
 * region's miss per pass (penalty / (2 count)), at least 1 cycle, between adjacent counts from the
 * coarse count less 1/32 to the coarse bracket's top. *sharp: such a rise was found; else the
 * rise is spread over several regions and the count stays coarse. */
static int refine(cw_walker *w, uint64_t stride, uint64_t page, uint64_t n0, double penalty,
                  tlb2_count *c, bool *sharp, gs_error *err)
{
    *sharp = false;
    if (!isfinite(penalty) || penalty <= 0 || c->count <= n0)
        return 0;
    double thr = fmax(1.0, penalty / (2.0 * (double)c->count)), st = c->st0, at;
    uint64_t lo = c->count - c->count / 32 > n0 ? c->count - c->count / 32 : n0;
    int rc = lo > n0 ? step(w, lo, stride, page, &st, &at, err) : 0;
    gs_step_search s;
    gs_step_init(&s, lo, st - c->st0, c->hi, c->hi, thr, true);
    gs_step_add(&s, c->s_hi);                   /* the coarse bracket's top, walked already */
    if (!rc)
        rc = run_search(w, &s, stride, page, c->st0, NULL, err);
    if (!rc && s.found) {
        c->count = s.lo;
        c->plateau = s.s_lo;
        c->edge = s.s_hi - s.s_lo;
        *sharp = true;
    }
    return rc;
}

/* Whether an exact count's edge stands: the rise from the count to the next (c->edge, from the
 * search that picked them) beyond CW_TLB_EXACT_Z x the scatter of such a rise, and, where the
 * walks scatter at all, again in a fresh walk of each (*fresh: its rise, NaN when not walked),
 * which no search picked for its noise; an underestimated scatter then has to fool two readings. */
static int edge_stands(cw_walker *w, uint64_t stride, uint64_t page, const tlb2_count *c,
                       double scatter, bool *ok, double *fresh, gs_error *err)
{
    *fresh = NAN;
    *ok = gs_tlb_edge_resolved(0, c->edge, scatter, CW_TLB_EXACT_Z);
    if (!*ok || !(scatter > 0))
        return 0;
    double below, above, at;
    int rc = step(w, c->count, stride, page, &below, &at, err);
    if (!rc)
        rc = step(w, c->count + 1, stride, page, &above, &at, err);
    *fresh = rc ? NAN : above - below;
    *ok = !rc && gs_tlb_edge_resolved(below, above, scatter, CW_TLB_EXACT_Z);
    return rc;
}

/* Whether a walk of the first n strides' searches stepped more than one level's misses can add:
 * every access missing it at most once, no step exceeds its penalty but by noise (the least step,
 * 4 x sqrt(2) x the scatter) and TLB2_OVER of it (a farther footprint's cost). *wj, *wk: that
 * walk (the largest such step in *most). */
#define TLB2_OVER 0.25

static bool above_penalty(const cw_tlb_second_result *out, size_t n, double penalty, size_t *wj,
                          size_t *wk, double *most)
{
    double limit = penalty * (1 + TLB2_OVER) + CW_TLB_STEP_CYCLES +
                   CW_TLB_EXACT_Z * sqrt(2.0) * out->scatter_cycles;
    bool over = false;
    for (size_t j = 0; j < n && j < out->n_walks; j++)
        for (size_t k = 0; k < out->walks[j].n; k++)
            if (out->walks[j].step_cycles[k] > limit &&
                (!over || out->walks[j].step_cycles[k] > *most)) {
                over = true;
                *wj = j, *wk = k, *most = out->walks[j].step_cycles[k];
            }
    return over;
}

/* out->why: the counts of strides i - 1 and i ("A regions of P pages and B of Q pages fit"), then
 * what the rest of fmt says of them. */
static void why_pair(cw_tlb_second_result *out, const uint64_t *n, size_t i, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void why_pair(cw_tlb_second_result *out, const uint64_t *n, size_t i, const char *fmt, ...)
{
    int k = snprintf(out->why, sizeof out->why, "%llu regions of %llu pages and %llu of %llu "
                     "pages fit", (unsigned long long)n[i - 1],
                     (unsigned long long)odd_pages[i - 1], (unsigned long long)n[i],
                     (unsigned long long)odd_pages[i]);
    if (k < 0 || (size_t)k >= sizeof out->why)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(out->why + k, sizeof out->why - (size_t)k, fmt, ap);
    va_end(ap);
}

static void add_point(cw_tlb_second_result *out, uint64_t stride, uint64_t count)
{
    if (out->points < sizeof out->count / sizeof out->count[0]) {
        out->stride_bytes[out->points] = (double)stride;
        out->count[out->points++] = (double)count;
    }
}

/* Entries and coverage from counts at odd multiples of the page (gs_tlb_reach); *c0: the count at
 * one page (count 0 when not reached). */
static int entries_and_coverage(cw_walker *w, uint64_t n0, bool unit_is_page,
                                cw_tlb_second_result *out, tlb2_count *c0, gs_error *err)
{
    uint64_t page = out->page_bytes, n[CW_TLB2_STRIDES] = {0};
    tlb2_count c[CW_TLB2_STRIDES];
    int rc = 0;
    *c0 = (tlb2_count){.count = 0};
    for (size_t i = 0; i < CW_TLB2_STRIDES && !rc; i++) {
        uint64_t hint = i ? n[i - 1] * odd_pages[i - 1] / odd_pages[i] : 0;
        rc = count_fit(w, odd_pages[i] * page, page, n0, hint, false, &c[i], &out->walks[i], err);
        if (!i)
            *c0 = c[0];
        n[i] = c[i].count;
        out->n_walks = i + 1;
        if (rc)
            break;
        if (!n[i] && c[i].plateau > c[i].thr) {
            snprintf(out->why, sizeof out->why, "the step rose %.0f cycles from %llu to %llu "
                     "regions of %llu pages, but never %.1f between counts 1/64 apart: gradual "
                     "(a creep, or conflicts growing a region at a time), no level's step "
                     "(series steps_%llu_pages)", c[i].plateau, (unsigned long long)n0,
                     (unsigned long long)c[i].top, (unsigned long long)odd_pages[i], c[i].thr,
                     (unsigned long long)odd_pages[i]);
            break;
        }
        if (!n[i]) {
            int k = snprintf(out->why, sizeof out->why, "no second step from %llu to %llu "
                             "regions of %llu B (a second level below %llu entries, or none up "
                             "to %llu B of footprint)", (unsigned long long)n0,
                             (unsigned long long)(CW_TLB_MAX_FOOTPRINT2 / (odd_pages[i] * page)),
                             (unsigned long long)(odd_pages[i] * page), (unsigned long long)n0,
                             (unsigned long long)CW_TLB_MAX_FOOTPRINT2);
            /* the counts of the smaller strides, which did step: a level indexed so that this
             * stride spreads over more of it (a hashed set index) reads so too */
            for (size_t j = 0; j < i && k > 0 && (size_t)k < sizeof out->why; j++)
                k += snprintf(out->why + k, sizeof out->why - (size_t)k, "%s%llu regions of %llu "
                              "pages%s", j ? ", " : ", yet at smaller strides ",
                              (unsigned long long)n[j], (unsigned long long)odd_pages[j],
                              j + 1 == i ? " fit: no one count or reach" : "");
            break;
        }
        add_point(out, odd_pages[i] * page, n[i]);
        if (n[i] == 1) {
            snprintf(out->why, sizeof out->why, "at most %llu regions of %llu B fit: the fewest "
                     "regions that miss the first level on every access already step",
                     (unsigned long long)n0, (unsigned long long)(odd_pages[i] * page));
            return 0;
        }
        out->reach_bytes = n[i] * odd_pages[i] * page;
        out->reach_min = true;
        if (!i)
            continue;
        uint64_t cover = 0, e = 0;
        gs_reach_verdict v = gs_tlb_reach(odd_pages[i - 1], n[i - 1], odd_pages[i], n[i],
                                          TLB2_TOL, &cover, &e);
        if (v == GS_REACH_FOUND) {
            /* E entries of C pages hold E x C / k regions of k < C pages and E of k >= C: every
             * stride counted must say so within the count search's resolution (two counts a
             * 64th apart), not only the pair that found C (two H100s whose second level read
             * 1.58 x slower gave 4096, 1364 and 266 regions of 1, 3 and 17 pages: 16 pages of
             * coverage from the last two within 5 %, while 266 x 16 predicts 4256 at one) */
            double want;
            int j = gs_tlb_reach_explains(e, cover, odd_pages, n, (unsigned)i, TLB2_FIT_TOL,
                                          &want);
            if (j >= 0) {
                why_pair(out, n, i, ", as %llu entries of %llu pages would, but %llu of %llu "
                         "pages fit where those predict %.0f (more than %.1f %% off): no one "
                         "level's entries and coverage (a hashed set index spreads some strides "
                         "over fewer sets; series steps_<k>_pages)", (unsigned long long)e,
                         (unsigned long long)cover, (unsigned long long)n[j],
                         (unsigned long long)odd_pages[j], want, 100 * TLB2_FIT_TOL);
                return 0;
            }
            if (cover == 1 && !unit_is_page) {
                snprintf(out->why, sizeof out->why, "%llu regions fit at strides of 1 and 3 x "
                         "%llu B: an entry covers at most %llu B, but the first level's page (the "
                         "stride unit) was not determined", (unsigned long long)e,
                         (unsigned long long)page, (unsigned long long)page);
                return 0;
            }
            /* the penalty: twice the entries miss on every access, past every set's ways */
            double st, at;
            bool sharp = false;
            rc = step(w, 2 * e, odd_pages[i] * page, page, &st, &at, err);
            out->penalty_cycles = rc ? NAN : st - c[i].st0;
            if (!rc)
                rc = refine(w, odd_pages[i] * page, page, n0, out->penalty_cycles, &c[i], &sharp,
                            err);
            if (!rc && !(out->penalty_cycles > c[i].thr)) {
                snprintf(out->why, sizeof out->why, "about %llu regions of %llu pages fit, but "
                         "twice as many step only %.1f cycles over the walk of %llu: no level's "
                         "misses past the entries", (unsigned long long)e,
                         (unsigned long long)odd_pages[i], out->penalty_cycles,
                         (unsigned long long)n0);
                out->penalty_cycles = NAN;
                return 0;
            }
            if (!rc && !sharp) {
                snprintf(out->why, sizeof out->why, "about %llu regions of %llu pages fit, but "
                         "their step (%.1f cycles at %llu regions) rises over several regions, "
                         "never by %.1f cycles from one to the next: a level's first overflowing "
                         "set would; a creep does not", (unsigned long long)e,
                         (unsigned long long)odd_pages[i], c[i].s_hi - c[i].plateau,
                         (unsigned long long)c[i].hi, fmax(1.0, out->penalty_cycles /
                         (2.0 * (double)e)));
                out->penalty_cycles = NAN;
                return 0;
            }
            bool stands = false;
            double fresh = NAN;
            if (!rc)
                rc = edge_stands(w, odd_pages[i] * page, page, &c[i], out->scatter_cycles,
                                 &stands, &fresh, err);
            if (!rc && !stands) {
                snprintf(out->why, sizeof out->why, "about %llu regions of %llu pages fit, but "
                         "the rise from %llu to %llu regions (%.1f cycles; walked again: %.1f) "
                         "is not beyond %.0f x the scatter of a difference of two steps (sqrt(2) "
                         "x %.2f cycles, from repeated walks): the count is not resolved to one "
                         "region", (unsigned long long)c[i].count,
                         (unsigned long long)odd_pages[i], (unsigned long long)c[i].count,
                         (unsigned long long)c[i].count + 1, c[i].edge, fresh, CW_TLB_EXACT_Z,
                         out->scatter_cycles);
                out->penalty_cycles = NAN;
                return 0;
            }
            size_t wj, wk;
            double most = NAN;
            if (!rc && above_penalty(out, i + 1, out->penalty_cycles, &wj, &wk, &most)) {
                why_pair(out, n, i, ", as %llu entries of %llu pages would, whose misses add "
                         "%.1f cycles at most, but %.0f regions of %llu pages stepped %.1f: "
                         "another level's misses, or sets no odd stride fills evenly (a hashed "
                         "index); no one level's entries and coverage (series steps_<k>_pages)",
                         (unsigned long long)c[i].count, (unsigned long long)cover,
                         out->penalty_cycles, out->walks[wj].count[wk],
                         (unsigned long long)odd_pages[wj], most);
                out->penalty_cycles = NAN;
                return 0;
            }
            e = c[i].count;
            out->creep_cycles = c[i].plateau;
            out->entries = e;
            out->coverage_bytes = cover * page;
            out->reach_bytes = e * cover * page;
            out->reach_min = false;
            return rc;
        }
        if (v == GS_REACH_UNCLEAR) {
            why_pair(out, n, i, ": neither one count (entries) nor one reach, nor a "
                     "power-of-two coverage between (sets on a hashed index read so; the steps "
                     "past each count, series steps_<k>_pages, rise ways + 1 misses for each "
                     "entry added past a full set, Fig. 11, which a stride of one entry would "
                     "count)");
            return 0;
        }
    }
    if (!rc && !out->why[0])
        snprintf(out->why, sizeof out->why, "one reach at every stride up to %llu pages: an "
                 "entry covers more", (unsigned long long)odd_pages[CW_TLB2_STRIDES - 1]);
    return rc;
}

/* Whether n regions at this stride fit: no second step over n0 regions (CW_TLB_STEP_CYCLES or
 * 1 %) beyond the creep the entries' count showed before its step (creep_cycles: n regions that
 * fit keep at most the entries, so they creep no more). Two walks of n0 and n regions: a
 * verification, cheaper than a count. */
static int fits(cw_walker *w, uint64_t n, uint64_t stride, uint64_t n0, uint64_t page,
                double creep_cycles, bool *yes, gs_error *err)
{
    double st0, st, at;
    int rc = step(w, n0, stride, page, &st0, &at, err);
    double thr = fmax(CW_TLB_STEP_CYCLES, CW_TLB_STEP_REL * at) + fmax(0.0, creep_cycles);
    if (!rc)
        rc = step(w, n, stride, page, &st, &at, err);
    *yes = !rc && st - st0 <= thr;
    return rc;
}

/* Sets and ways from strides of 2, 4, 8 ... x the coverage, verified rather than counted: at
 * stride 2^(k+1) x C a power-of-two index over S sets holds E / 2^(k+1) regions while 2^(k+1) <= S,
 * then the ways W. Each stride: does (1 - 5 %) x the previous count fit (held: S = 2^k sets of
 * W ways, W counted exactly there; k = 0: one set, checked at 3 and 5 x C, which a modulo index
 * over an odd count of slots, like the 17 + 6 x 8 sets of Fig. 10, fails)? else do half of it fit
 * and not (1 + 5 %) x half (halved: go on)? anything else: not determined. */
static int sets_and_ways(cw_walker *w, uint64_t n0, cw_tlb_second_result *out, gs_error *err)
{
    uint64_t prev = out->entries, page = out->page_bytes, C = out->coverage_bytes;
    int rc = 0;
    for (unsigned k = 0; k < CW_TLB2_SETS_STEPS && !rc; k++) {
        uint64_t s = C << (k + 1), lo = prev - (uint64_t)((double)prev * TLB2_TOL);
        if (lo <= n0 || (prev + prev / 10) * s > CW_TLB_MAX_FOOTPRINT2)
            break;
        bool held, y1 = false, y2 = true;
        rc = fits(w, lo, s, n0, page, out->creep_cycles, &held, err);
        if (!rc && held && k == 0) {
            for (uint64_t odd = 3; odd <= 5 && !rc && held; odd += 2)
                rc = fits(w, lo, odd * C, n0, page, out->creep_cycles, &held, err);
            if (!rc && held)
                out->sets = 1, out->ways = out->entries;
            else if (!rc)
                snprintf(out->why_sets, sizeof out->why_sets, "%llu regions fit at 2 x the "
                         "coverage but not at 3 or 5 x: not one set (one set holds the entries "
                         "at every stride), nor a power-of-two index (whose count halves at 2 x)",
                         (unsigned long long)lo);
            return rc;
        }
        if (!rc && held) {                      /* held from 2^k sets on: W counted exactly */
            tlb2_count c;
            rc = count_fit(w, s, page, n0, prev, true, &c, NULL, err);
            if (!rc && c.count > 1)
                add_point(out, s, c.count);
            uint64_t sets = 1ull << k;
            bool near = !rc && c.count > 1 && fabs((double)(sets * c.count) -
                                                   (double)out->entries) <=
                                              TLB2_TOL * (double)out->entries, stands = false;
            double fresh = NAN;
            if (near)
                rc = edge_stands(w, s, page, &c, out->scatter_cycles, &stands, &fresh, err);
            if (!rc && near && stands)
                out->sets = sets, out->ways = c.count;
            else if (!rc && near)
                snprintf(out->why_sets, sizeof out->why_sets, "the count held from %llu sets "
                         "on at about %llu ways, but the rise past %llu regions (%.1f cycles; "
                         "walked again: %.1f) is not beyond %.0f x the scatter of a difference "
                         "of two steps (sqrt(2) x %.2f cycles): the ways are not resolved to one",
                         (unsigned long long)sets, (unsigned long long)c.count,
                         (unsigned long long)c.count, c.edge, fresh, CW_TLB_EXACT_Z,
                         out->scatter_cycles);
            break;
        }
        uint64_t half = prev / 2;
        if (!rc)
            rc = fits(w, half - (uint64_t)((double)half * TLB2_TOL), s, n0, page,
                      out->creep_cycles, &y1, err);
        if (!rc && y1)
            rc = fits(w, half + (uint64_t)((double)half * TLB2_TOL) + 1, s, n0, page,
                      out->creep_cycles, &y2, err);
        if (rc || !y1 || y2)
            break;                              /* neither held nor halved */
        add_point(out, s, half);
        prev = half;
    }
    if (!rc && !out->sets && !out->why_sets[0])
        snprintf(out->why_sets, sizeof out->why_sets, "counts at 2, 4, 8 ... x the coverage "
                 "(regions_by_stride) neither held at the entries (fully associative) nor halved "
                 "then held (power-of-two index): unequal or hashed sets, or ways below %llu "
                 "(the fewest regions a walk past the first level has)", (unsigned long long)n0);
    return rc;
}

/* ---- the ladder: strides of 1, 2, 4 ... pages (analysis/tlb_ladder.h) ------------------------ */

#define LADDER_SAT 0.02        /* a staircase walk within 2 % of the full rise: saturated */
/* LADDER_FULL: the full rise is the walk of 1.5 x the count a stride predicts, saturated for
 * W >= 2 ways (from count x (W + 1) / W on); a direct-mapped level saturates only at twice its
 * count, reads a smaller rise and fails the saturation check (not determined). Twice the step
 * search's upper count would reach 256 GB of footprint on an H100 (8192 regions
 * of 16 MB past a search that bracketed at 8192), where a farther effect already adds 2.7
 * cycles at 128 GB, and read a full rise of 75 and 150 cycles for 47 and 94: the staircase then
 * fits no whole ways (docs/hardware/h100.md). */
#define LADDER_SLOPE_TOL 0.15  /* misses per added entry: within 0.15 of a whole ways + 1 */
#define LADDER_ROOT_TOL 0.35   /* the staircase's root: within 0.35 of a whole count */
#define LADDER_ROOT_Z 3.0      /* and that count +- 1/2 holds the root +- 3 standard errors (its
                                  walks are chosen by count, not by noise: 3, not 4) */

/* One stride's reference: the step of n0 regions (every access past the first level, none past
 * the second) and the least rise that is a step (CW_TLB_STEP_CYCLES or 1 %). */
typedef struct ladder_ref {
    uint64_t stride;
    double st0, thr;
} ladder_ref;

static int ladder_ref_at(cw_walker *w, uint64_t stride, uint64_t page, uint64_t n0,
                         ladder_ref *r, gs_error *err)
{
    double at;
    r->stride = stride;
    int rc = step(w, n0, stride, page, &r->st0, &at, err);
    r->thr = fmax(CW_TLB_STEP_CYCLES, CW_TLB_STEP_REL * at);
    return rc;
}

/* The step of n regions at the reference's stride over its n0 regions'. */
static int rise_of(cw_walker *w, uint64_t n, const ladder_ref *r, uint64_t page, double *rise,
                   gs_error *err)
{
    double st, at;
    int rc = step(w, n, r->stride, page, &st, &at, err);
    *rise = rc ? NAN : st - r->st0;
    return rc;
}

/* What the ladder found: the coverage (page << at_c), its full rise, how the rise went past it,
 * the references at the coverage and at twice it. */
typedef struct ladder_state {
    unsigned at_c;
    double penalty;
    gs_ladder_rise past;
    ladder_ref ref_c, ref_2c;
} ladder_state;

/* The coverage: doubling the stride from the page (c0: the count there, count fits, hi steps),
 * a walk of twice the count each stride predicts (c0's halved) rises twice the previous full rise
 * while the stride is at most the coverage (its count, predicted, must fit too); past it the rise
 * holds (the count halved: bit-select) or falls (the count held: hashed). *found false: why. */
static int ladder_coverage(cw_walker *w, uint64_t n0, const tlb2_count *c0,
                           cw_tlb_second_result *out, ladder_state *ls, bool *found, gs_error *err)
{
    uint64_t page = out->page_bytes;
    ladder_ref ref = {.stride = page, .st0 = c0->st0, .thr = c0->thr}, prev_ref = ref;
    double prev = NAN;
    int rc = 0;
    *found = false;
    for (unsigned i = 0; i < CW_TLB2_LADDER && !rc; i++) {
        uint64_t s = page << i, fit = c0->count >> i;
        uint64_t n = fit + fit / 2;   /* saturated for 2 ways or more: see LADDER_FULL */
        if (fit <= n0 || (double)n * (double)s > (double)CW_TLB_MAX_FOOTPRINT2) {
            snprintf(out->why, sizeof out->why, "the ladder's full rise doubled up to %llu B "
                     "strides (series ladder_rise_by_stride); the next, %llu regions of %llu B, "
                     "%s: a coverage of %llu B or more is not reached", (unsigned long long)(s / 2),
                     (unsigned long long)n, (unsigned long long)s, fit <= n0 ? "would count at "
                     "most the fewest regions past the first level" : "would pass the footprint "
                     "limit", (unsigned long long)s);
            return 0;
        }
        if (i)
            rc = ladder_ref_at(w, s, page, n0, &ref, err);
        double rise = NAN, f = 0;
        if (!rc)
            rc = rise_of(w, n, &ref, page, &rise, err);
        gs_ladder_rise v = i ? gs_tlb_ladder_rise(prev, rise, TLB2_TOL) : GS_RISE_DOUBLED;
        if (!rc && i && v == GS_RISE_DOUBLED)
            rc = rise_of(w, fit, &ref, page, &f, err);
        out->ladder_stride[i] = (double)s;
        out->ladder_rise[i] = rise;
        out->ladder_fit[i] = !i || (v == GS_RISE_DOUBLED && f <= ref.thr) ? (double)fit : 0;
        out->ladder_points = i + 1;
        if (rc)
            break;
        if (!i && !(rise > ref.thr)) {
            snprintf(out->why, sizeof out->why, "the ladder: %llu regions of one page rise only "
                     "%.1f cycles over %llu: no level's full rise", (unsigned long long)n, rise,
                     (unsigned long long)n0);
            return 0;
        }
        if (v == GS_RISE_DOUBLED && !out->ladder_fit[i]) {
            snprintf(out->why, sizeof out->why, "the ladder: at %llu B the full rise doubled "
                     "(%.1f cycles) but %llu regions, half the count of %llu B, step %.1f: a count "
                     "that fell faster than the stride grew (uneven sets)", (unsigned long long)s,
                     rise, (unsigned long long)fit, (unsigned long long)(s / 2), f);
            return 0;
        }
        if (v == GS_RISE_HELD || v == GS_RISE_BELOW) {
            *ls = (ladder_state){.at_c = i - 1, .penalty = prev, .past = v, .ref_c = prev_ref,
                                 .ref_2c = ref};
            *found = true;
            return 0;
        }
        if (v == GS_RISE_OTHER) {
            snprintf(out->why, sizeof out->why, "the ladder: the rise of %llu regions of %llu B, "
                     "%.1f cycles, neither doubled nor held the full rise at half the stride "
                     "(%.1f): not an LRU level spread evenly over its sets (series "
                     "ladder_rise_by_stride)", (unsigned long long)n, (unsigned long long)s, rise,
                     prev);
            return 0;
        }
        prev = rise;
        prev_ref = ref;
    }
    if (!rc)
        snprintf(out->why, sizeof out->why, "the ladder's full rise doubled at every stride up "
                 "to %llu B: a coverage larger still", (unsigned long long)(page <<
                 (CW_TLB2_LADDER - 1)));
    return rc;
}

static void stair_add(cw_tlb_second_result *out, uint64_t n, double rise)
{
    if (out->stair_points < CW_TLB2_STAIR) {
        out->stair_count[out->stair_points] = (double)n;
        out->stair_step[out->stair_points] = rise;
        out->stair_predicted[out->stair_points++] = NAN;
    }
}

/* Two walks on the staircase at the coverage: counts past the entries' bracket [lo, hi) (the
 * page's count halved at each doubling), the largest first, kept where they rise past the
 * threshold and stay under the full rise (saturated from entries x (ways + 1) / ways on). */
static int stair_walks(cw_walker *w, uint64_t lo, uint64_t hi, const ladder_state *ls,
                       uint64_t page, cw_tlb_second_result *out, double *xs, double *ys,
                       size_t *k, gs_error *err)
{
    uint64_t d = hi - lo > 1 ? hi - lo : 1, cand[4] = {hi + 2 * d, hi + d, hi + d / 2, hi};
    int rc = 0;
    *k = 0;
    for (size_t j = 0; j < 4 && *k < 2 && !rc; j++) {
        if (j && cand[j] == cand[j - 1])
            continue;
        double r;
        rc = rise_of(w, cand[j], &ls->ref_c, page, &r, err);
        stair_add(out, cand[j], r);
        if (rc || r >= ls->penalty * (1 - LADDER_SAT))
            continue;                               /* saturated: a narrower staircase */
        if (r <= ls->ref_c.thr)
            break;                                  /* no staircase this far down */
        xs[*k] = (double)cand[j];
        ys[(*k)++] = r;
    }
    return rc;
}

static bool walked(const cw_tlb_second_result *out, uint64_t n)
{
    for (size_t i = 0; i < out->stair_points; i++)
        if (out->stair_count[i] == (double)n)
            return true;
    return false;
}

/* The fit's predictions checked by walks: a count on the staircase (half of it up, or a quarter,
 * three quarters, an eighth, whichever was not walked), one past its top at the coverage and, when
 * the count held past the coverage (a hashed index), the same past it at twice the coverage: LRU
 * over evenly spread sets predicts each step (gs_tlb_staircase_step). *ok false: why_sets. */
static int ladder_verify(cw_walker *w, uint64_t e, uint64_t ways, const ladder_state *ls,
                         uint64_t page, cw_tlb_second_result *out, bool *ok, gs_error *err)
{
    uint64_t sets = e / ways, top = e + sets + (sets / 8 ? sets / 8 : 1), mid = 0;
    const uint64_t part[4][2] = {{1, 2}, {1, 4}, {3, 4}, {1, 8}};
    for (size_t j = 0; j < 4 && !mid; j++) {
        uint64_t m = e + sets * part[j][0] / part[j][1];
        mid = m > e && !walked(out, m) ? m : 0;
    }
    uint64_t n[3] = {mid, top, top};
    const ladder_ref *ref[3] = {&ls->ref_c, &ls->ref_c, &ls->ref_2c};
    int rc = 0;
    *ok = true;
    for (size_t j = 0; j < 3 && !rc && *ok; j++) {
        if (!n[j] || (j == 2 && ls->past != GS_RISE_BELOW))
            continue;
        if ((double)n[j] * (double)ref[j]->stride > (double)CW_TLB_MAX_FOOTPRINT2) {
            snprintf(out->why_sets, sizeof out->why_sets, "the full rise past %llu regions of "
                     "%llu B would pass the footprint limit: not checked",
                     (unsigned long long)n[j], (unsigned long long)ref[j]->stride);
            *ok = false;
            break;
        }
        double r, want = gs_tlb_staircase_step(e, ways, ls->penalty, n[j]);
        rc = rise_of(w, n[j], ref[j], page, &r, err);
        if (j < 2) {
            stair_add(out, n[j], r);
            out->stair_predicted[out->stair_points - 1] = want;
        }
        if (!rc && fabs(r - want) > fmax(1.0, TLB2_TOL * want)) {
            snprintf(out->why_sets, sizeof out->why_sets, "%llu regions of %llu B rose %.1f "
                     "cycles where %llu entries in %llu sets of %llu ways (LRU) predict %.1f "
                     "(series ladder_staircase)", (unsigned long long)n[j],
                     (unsigned long long)ref[j]->stride, r, (unsigned long long)e,
                     (unsigned long long)sets, (unsigned long long)ways, want);
            *ok = false;
        }
    }
    return rc;
}

/* Why the staircase gave no entries (the fit's verdict v), into out->why. */
static void stair_why(cw_tlb_second_result *out, gs_staircase_verdict v, double slope, double root,
                      uint64_t lo, uint64_t hi, double penalty)
{
    int k = snprintf(out->why, sizeof out->why, "the ladder read a coverage of %llu B (full rise "
                     "%.1f cycles), but at that stride ", (unsigned long long)out->coverage_bytes,
                     penalty);
    size_t left = k > 0 && (size_t)k < sizeof out->why ? sizeof out->why - (size_t)k : 0;
    if (!left)
        return;
    if (v == GS_STAIR_FEW)
        snprintf(out->why + k, left, "fewer than two walks past the %llu-%llu regions that fit "
                 "rose between the threshold and the full rise (series ladder_staircase): a "
                 "staircase narrower than the count's precision (many ways) or none; walks at "
                 "every count from %llu up would decide", (unsigned long long)lo,
                 (unsigned long long)hi, (unsigned long long)lo);
    else if (v == GS_STAIR_SLOPE)
        snprintf(out->why + k, left, "the walks past the %llu-%llu regions that fit miss %.2f "
                 "times per region added, not a whole ways + 1 as LRU misses a full set's (Fig. "
                 "11): another policy, or uneven sets; a count to one region there (a step of "
                 "one set's misses) would decide the entries", (unsigned long long)lo,
                 (unsigned long long)hi, slope);
    else if (v == GS_STAIR_ROOT)
        snprintf(out->why + k, left, "the staircase of %.2f misses per region added starts at "
                 "%.2f regions, no whole count (noise, or uneven sets); a count to one region "
                 "there would decide the entries", slope, root);
    else
        snprintf(out->why + k, left, "the staircase's fit (%.2f misses per region added from "
                 "%.2f regions) fits no level: outside the %llu-%llu regions that fit, or ways "
                 "that do not divide the entries (unequal sets); a count to one region there "
                 "would decide the entries", slope, root,
                 (unsigned long long)lo, (unsigned long long)hi);
}

/* Entries, sets and ways at the coverage the ladder found: the staircase's fit, then its checks;
 * the coverage stands (out->coverage_bytes) whatever they say. */
static int ladder_entries(cw_walker *w, const tlb2_count *c0, const ladder_state *ls,
                          cw_tlb_second_result *out, gs_error *err)
{
    uint64_t page = out->page_bytes, lo = c0->count >> ls->at_c, e, ways;
    uint64_t hi = (c0->hi + (1ull << ls->at_c) - 1) >> ls->at_c;
    double xs[2], ys[2], slope, root;
    size_t k;
    out->coverage_bytes = page << ls->at_c;
    int rc = stair_walks(w, lo, hi, ls, page, out, xs, ys, &k, err);
    if (rc)
        return rc;
    gs_staircase_verdict v = gs_tlb_staircase_fit(xs, ys, k, ls->penalty, LADDER_SLOPE_TOL,
                                                  LADDER_ROOT_TOL, &slope, &root, &e, &ways);
    if (v != GS_STAIR_FOUND || e < lo || e >= hi || e % ways) {  /* FOUND here: no level */
        stair_why(out, v, slope, root, lo, hi, ls->penalty);
        return 0;
    }
    double se = gs_tlb_staircase_root_se(xs, ys, k, ls->penalty, (double)(ways + 1),
                                         out->scatter_cycles);
    if (!gs_tlb_root_resolved(root, se, LADDER_ROOT_Z)) {
        snprintf(out->why, sizeof out->why, "the ladder read a coverage of %llu B (full rise "
                 "%.1f cycles) and its staircase %.2f misses per region added from %.2f "
                 "regions, but the walks' scatter (%.2f cycles a step, from repeated walks) "
                 "leaves that root %.2f regions uncertain (standard error): %.0f of them reach "
                 "past the nearest whole count, so the entries are not resolved to one",
                 (unsigned long long)out->coverage_bytes, ls->penalty, slope, root,
                 out->scatter_cycles, se, LADDER_ROOT_Z);
        return 0;
    }
    for (size_t i = 0; i < out->stair_points; i++)
        out->stair_predicted[i] = gs_tlb_staircase_step(e, ways, ls->penalty,
                                                        (uint64_t)out->stair_count[i]);
    bool ok;
    rc = ladder_verify(w, e, ways, ls, page, out, &ok, err);
    if (!rc && !ok) {
        snprintf(out->why, sizeof out->why, "the ladder read a coverage of %llu B and its "
                 "staircase %llu entries of %llu ways, but a check failed: %.400s",
                 (unsigned long long)out->coverage_bytes, (unsigned long long)e,
                 (unsigned long long)ways, out->why_sets);
        return 0;
    }
    if (!rc) {
        out->entries = e;
        out->reach_bytes = e * out->coverage_bytes;
        out->reach_min = false;
        out->penalty_cycles = ls->penalty;
        out->sets = e / ways;
        out->ways = ways;
        out->ladder = true;
    }
    return rc;
}

/* Where the odd multiples read no level: the ladder from the count at one page (c0). The odd
 * multiples' reason stays behind the ladder's when it determines nothing either. */
static int ladder(cw_walker *w, uint64_t n0, bool unit_is_page, const tlb2_count *c0,
                  cw_tlb_second_result *out, gs_error *err)
{
    char before[sizeof out->why];
    snprintf(before, sizeof before, "%s", out->why);
    out->why[0] = 0;
    ladder_state ls;
    bool found;
    int rc = ladder_coverage(w, n0, c0, out, &ls, &found, err);
    if (!rc && found && ls.at_c == 0 && !unit_is_page) {
        snprintf(out->why, sizeof out->why, "the ladder's full rise stopped growing at the "
                 "stride unit, %llu B, which is not a known page: an entry covers at most that",
                 (unsigned long long)out->page_bytes);
        found = false;
    }
    if (!rc && found)
        rc = ladder_entries(w, c0, &ls, out, err);
    if (!out->entries) {
        size_t k = strlen(out->why);
        snprintf(out->why + k, sizeof out->why - k, "; odd multiples of the page: %s", before);
        snprintf(out->why_sets, sizeof out->why_sets, "%s", out->why);
    }
    return rc;
}

int cw_tlb_second(cw_walker *w, uint64_t first_entries, uint64_t page_bytes, bool unit_is_page,
                  cw_tlb_second_result *out, gs_error *err)
{
    memset(out, 0, sizeof *out);
    walked_bytes = 0;
    out->penalty_cycles = NAN;
    out->creep_cycles = NAN;
    out->page_bytes = page_bytes;
    if (!page_bytes || !first_entries) {
        snprintf(out->why, sizeof out->why, "the first level's entries and page were not "
                 "determined: the strides of the second level are multiples of that page");
        snprintf(out->why_sets, sizeof out->why_sets, "%s", out->why);
        return 0;
    }
    set_piece(page_bytes, first_entries);
    uint64_t n0 = 2 * (first_entries + 1) > TLB2_MIN_COUNT ? 2 * (first_entries + 1)
                                                          : TLB2_MIN_COUNT;
    unsigned chases = w->chases;
    tlb2_count c0 = {.count = 0};
    int rc = step_scatter(w, n0, page_bytes, &out->scatter_cycles, &out->scatter_reps, err);
    if (!rc)
        rc = entries_and_coverage(w, n0, unit_is_page, out, &c0, err);
    if (!rc && !out->entries && c0.count > n0 && c0.hi > c0.count)
        rc = ladder(w, n0, unit_is_page, &c0, out, err);
    if (!rc && out->entries && !out->ladder)  /* the ladder's sets are its own, checked already */
        rc = sets_and_ways(w, n0, out, err);
    else if (!rc && !out->entries && !out->why_sets[0])
        snprintf(out->why_sets, sizeof out->why_sets, "the entries were not determined");
    out->walked_bytes = walked_bytes;
    out->chases = w->chases - chases;
    if (rc == GS_ERR_NO_MEMORY || rc == GS_ERR_UNSUPPORTED) {   /* a plan the device cannot run */
        snprintf(out->why, sizeof out->why, "%.230s", err->msg);
        snprintf(out->why_sets, sizeof out->why_sets, "%.230s", err->msg);
        out->entries = out->sets = 0;
        gs_error_clear(err);
        rc = 0;
    }
    return rc;
}
