/* The second TLB level in average mode (memory-hierarchy paper, section 4.2, Fig. 10 and 11;
 * docs/methods.md "TLBs", second level): the most regions of one stride that a warm walk visits
 * before a second step in its average latency, at strides of odd multiples of the first level's
 * page (1, 3, 17, 67, 257 pages: they reach every set of a power-of-two or modulo index and tell
 * coverage from entries, analysis/tlb_reach.h), then at 2, 4, 8 ... x the coverage (sets and
 * ways, or fully associative). Each count is a doubling then a bisection on the count, not a
 * sweep; every walk maps 64 MB of physical memory many times (CUDA's virtual memory API), so a
 * footprint of hundreds of GB costs a few thousand mappings. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/tlb_reach.h"
#include "probes/cache_internal.h"
#include "util/interrupt.h"

#define TLB2_SHIFT 8ull            /* element j sits 8 j bytes (mod the page) into its region:
                                      * packed words, few lines (cache_tlb.c, TLB_SHIFT) */
#define TLB2_MIN_COUNT 64ull       /* regions of the first walk, at least: past the first level */
#define TLB2_TOL 0.05              /* counts that agree within 5 % are equal */

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
        top = chain[j] > top ? chain[j] : top;
    }
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

/* The most regions at this stride with no second step (the step at n0 regions, every region a
 * first-level miss, plus CW_TLB_STEP_CYCLES or 1 %): doubling from hint, then bisection (to one
 * region when exact, else to 1/64; *hi_out: the bracket's top, which steps). 0 when
 * no second step shows up to CW_TLB_MAX_FOOTPRINT2; 1 when n0 regions do not all fit (the count
 * is at most n0, which these walks cannot resolve). */
static int count_fit(cw_walker *w, uint64_t stride, uint64_t page, uint64_t n0, uint64_t hint,
                     bool exact, uint64_t *count, uint64_t *hi_out, double *st0_out,
                     gs_error *err)
{
    double st0, at, st;
    *count = 0;
    int rc = step(w, n0, stride, page, &st0, &at, err);
    double thr = fmax(CW_TLB_STEP_CYCLES, CW_TLB_STEP_REL * at);
    uint64_t lo = n0, hi = 0, n = hint > 2 * n0 ? hint / 2 : 2 * n0;
    while (!rc && !hi && n * stride <= CW_TLB_MAX_FOOTPRINT2) {
        rc = step(w, n, stride, page, &st, &at, err);
        if (!rc && st - st0 > thr)
            hi = n;
        else if (!rc)
            lo = n, n *= 2;
    }
    while (!rc && hi && hi - lo > 1 && (exact || hi - lo > lo / 64)) {  /* 1/64: compared within
                                                                           5 %; refine() ends it */
        uint64_t mid = lo + (hi - lo) / 2;
        rc = step(w, mid, stride, page, &st, &at, err);
        if (!rc && st - st0 > thr)
            hi = mid;
        else if (!rc)
            lo = mid;
    }
    if (!rc && hi)
        *count = lo > n0 ? lo : 1;
    *hi_out = hi;     /* 1: at most n0, below what these walks can count */
    *st0_out = st0;
    return rc;
}

/* The count again with a finer step: at a stride that spreads regions over every set of a
 * set-associative level, one region past the entries overflows one set only, and its step,
 * (ways + 1) / regions x the penalty, can stay under CW_TLB_STEP_CYCLES. Half of one region's
 * miss per pass (penalty / (2 count)), at least 1 cycle, separates it; bisection between the
 * coarse count less 1/32 and the coarse bracket's top. */
static int refine(cw_walker *w, uint64_t stride, uint64_t page, uint64_t n0, uint64_t hi,
                  double st0, double penalty, uint64_t *count, gs_error *err)
{
    if (!isfinite(penalty) || penalty <= 0 || *count <= n0)
        return 0;
    double thr = fmax(1.0, penalty / (2.0 * (double)*count)), st, at;
    uint64_t lo = *count - *count / 32 > n0 ? *count - *count / 32 : n0;
    int rc = 0;
    while (!rc && hi - lo > 1) {
        uint64_t mid = lo + (hi - lo) / 2;
        rc = step(w, mid, stride, page, &st, &at, err);
        if (!rc && st - st0 > thr)
            hi = mid;
        else if (!rc)
            lo = mid;
    }
    if (!rc)
        *count = lo;
    return rc;
}

static void add_point(cw_tlb_second_result *out, uint64_t stride, uint64_t count)
{
    if (out->points < sizeof out->count / sizeof out->count[0]) {
        out->stride_bytes[out->points] = (double)stride;
        out->count[out->points++] = (double)count;
    }
}

/* Entries and coverage from counts at odd multiples of the page (gs_tlb_reach). */
static int entries_and_coverage(cw_walker *w, uint64_t n0, bool unit_is_page,
                                cw_tlb_second_result *out, gs_error *err)
{
    uint64_t page = out->page_bytes, n[CW_TLB2_STRIDES] = {0}, nhi[CW_TLB2_STRIDES] = {0};
    double st0 = NAN;
    int rc = 0;
    for (size_t i = 0; i < CW_TLB2_STRIDES && !rc; i++) {
        uint64_t hint = i ? n[i - 1] * odd_pages[i - 1] / odd_pages[i] : 0;
        rc = count_fit(w, odd_pages[i] * page, page, n0, hint, false, &n[i], &nhi[i], &st0, err);
        if (rc)
            break;
        if (!n[i]) {
            snprintf(out->why, sizeof out->why, "no second step from %llu to %llu regions of %llu B "
                     "(a second level below %llu entries, or none up to %llu B of footprint)",
                     (unsigned long long)n0, (unsigned long long)(CW_TLB_MAX_FOOTPRINT2 /
                     (odd_pages[i] * page)), (unsigned long long)(odd_pages[i] * page),
                     (unsigned long long)n0, (unsigned long long)CW_TLB_MAX_FOOTPRINT2);
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
            if (cover == 1 && !unit_is_page) {
                snprintf(out->why, sizeof out->why, "%llu regions fit at strides of 1 and 3 x "
                         "%llu B: an entry covers at most %llu B, but the first level's page (the "
                         "stride unit) was not determined", (unsigned long long)e,
                         (unsigned long long)page, (unsigned long long)page);
                return 0;
            }
            /* the penalty: twice the entries miss on every access, past every set's ways */
            double st, at;
            rc = step(w, 2 * e, odd_pages[i] * page, page, &st, &at, err);
            out->penalty_cycles = rc ? NAN : st - st0;
            if (!rc)
                rc = refine(w, odd_pages[i] * page, page, n0, nhi[i], st0, out->penalty_cycles, &e, err);
            out->entries = e;
            out->coverage_bytes = cover * page;
            out->reach_bytes = e * cover * page;
            out->reach_min = false;
            return rc;
        }
        if (v == GS_REACH_UNCLEAR) {
            snprintf(out->why, sizeof out->why, "%llu regions of %llu pages and %llu of %llu "
                     "pages fit: neither one count (entries) nor one reach, nor a power-of-two "
                     "coverage between", (unsigned long long)n[i - 1],
                     (unsigned long long)odd_pages[i - 1], (unsigned long long)n[i],
                     (unsigned long long)odd_pages[i]);
            return 0;
        }
    }
    if (!rc && !out->why[0])
        snprintf(out->why, sizeof out->why, "one reach at every stride up to %llu pages: an "
                 "entry covers more", (unsigned long long)odd_pages[CW_TLB2_STRIDES - 1]);
    return rc;
}

/* Whether n regions at this stride fit: no second step over n0 regions (CW_TLB_STEP_CYCLES or
 * 1 %). Two walks of n0 and n regions: a verification, cheaper than a count. */
static int fits(cw_walker *w, uint64_t n, uint64_t stride, uint64_t n0, uint64_t page, bool *yes,
                gs_error *err)
{
    double st0, st, at;
    int rc = step(w, n0, stride, page, &st0, &at, err);
    double thr = fmax(CW_TLB_STEP_CYCLES, CW_TLB_STEP_REL * at);
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
        rc = fits(w, lo, s, n0, page, &held, err);
        if (!rc && held && k == 0) {
            for (uint64_t odd = 3; odd <= 5 && !rc && held; odd += 2)
                rc = fits(w, lo, odd * C, n0, page, &held, err);
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
            uint64_t c = 0, top;
            double st0;
            rc = count_fit(w, s, page, n0, prev, true, &c, &top, &st0, err);
            if (!rc && c > 1)
                add_point(out, s, c);
            uint64_t sets = 1ull << k;
            if (!rc && c > 1 && fabs((double)(sets * c) - (double)out->entries) <=
                                    TLB2_TOL * (double)out->entries)
                out->sets = sets, out->ways = c;
            break;
        }
        uint64_t half = prev / 2;
        if (!rc)
            rc = fits(w, half - (uint64_t)((double)half * TLB2_TOL), s, n0, page, &y1, err);
        if (!rc && y1)
            rc = fits(w, half + (uint64_t)((double)half * TLB2_TOL) + 1, s, n0, page, &y2, err);
        if (rc || !y1 || y2)
            break;                              /* neither held nor halved */
        add_point(out, s, half);
        prev = half;
    }
    if (!rc && !out->sets)
        snprintf(out->why_sets, sizeof out->why_sets, "counts at 2, 4, 8 ... x the coverage "
                 "(regions_by_stride) neither held at the entries (fully associative) nor halved "
                 "then held (power-of-two index): unequal or hashed sets, or ways below %llu "
                 "(the fewest regions a walk past the first level has)", (unsigned long long)n0);
    return rc;
}

int cw_tlb_second(cw_walker *w, uint64_t first_entries, uint64_t page_bytes, bool unit_is_page,
                  cw_tlb_second_result *out, gs_error *err)
{
    memset(out, 0, sizeof *out);
    walked_bytes = 0;
    out->penalty_cycles = NAN;
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
    int rc = entries_and_coverage(w, n0, unit_is_page, out, err);
    if (!rc && out->entries)
        rc = sets_and_ways(w, n0, out, err);
    else if (!rc)
        snprintf(out->why_sets, sizeof out->why_sets, "the entries were not determined");
    out->walked_bytes = walked_bytes;
    if (rc == GS_ERR_NO_MEMORY || rc == GS_ERR_UNSUPPORTED) {   /* a plan the device cannot run */
        snprintf(out->why, sizeof out->why, "%.230s", err->msg);
        snprintf(out->why_sets, sizeof out->why_sets, "%.230s", err->msg);
        out->entries = out->sets = 0;
        gs_error_clear(err);
        rc = 0;
    }
    return rc;
}
