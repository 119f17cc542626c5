/* Average-mode sweeps of the `cache` probe (cache_walk.h): capacities and fetch granularity from
 * the average latency of a whole walk (section 3.1 of the memory-hierarchy paper, "the smallest
 * memory latency indicates cache hit and bigger latencies indicate cache misses"; the P-chase of
 * Listing 1/2 without a trace). They hold the walker's shared memory (smem_bytes, as its traces
 * do), so they see a unified L1 in the configuration the traces see, and a footprint may exceed
 * any trace buffer (an L2). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/chain.h"
#include "analysis/plateaus.h"
#include "probes/cache_walk.h"
#include "util/interrupt.h"

#define AVG_MAX_ELEMS (1ull << 20)   /* elements of one walk, at most (host and device time) */
#define AVG_TIMED 32768ull          /* accesses timed after the warm passes, at most */
#define AVG_TOLERANCE 0.1           /* plateau tolerance, relative */
#define AVG_MAX_POINTS 64
#define AVG_ELEM 8u                 /* 8-byte elements: the load's result is the next address */

static int avg_chase(cw_walker *w, const uint64_t *chain, size_t n, uint64_t footprint,
                     unsigned warmup, uint64_t timed, int carveout, double *avg, gs_error *err)
{
    if (gs_interrupted())
        return gs_fail(err, GS_ERR_INTERRUPTED, "interrupted during the cache probe");
    gs_chase_plan p = {.space = w->space, .path = w->path, .footprint_bytes = footprint,
                       .chain = chain, .chain_len = n, .element_bytes = AVG_ELEM,
                       .warmup_passes = warmup, .timed_accesses = timed,
                       .carveout_percent = carveout < 0 ? w->carveout : carveout,
                       .smem_bytes = w->smem_bytes};
    if (w->tlb && footprint > (4ull << 10))
        p.physical_bytes = 4ull << 10;        /* as the fine-grained TLB walks (cache_walk.c) */
    gs_chase_result r = {.latency_cycles = NULL};
    int rc = w->ctx->backend->ops->chase(w->ctx->backend, &p, &r, err);
    w->chases++;
    *avg = rc ? NAN : r.avg_cycles;
    return rc;
}

int cw_avg_walk(cw_walker *w, uint64_t footprint_bytes, uint64_t stride_bytes, int carveout,
                double *avg_cycles, gs_error *err)
{
    uint64_t s = stride_bytes > AVG_ELEM ? stride_bytes : AVG_ELEM;
    while (footprint_bytes / s > AVG_MAX_ELEMS)
        s *= 2;
    uint64_t n = footprint_bytes / s;
    if (n < 2)
        n = 2;
    uint64_t *chain = malloc(n * sizeof *chain);
    if (!chain)
        return gs_fail(err, GS_ERR_NO_MEMORY, "out of host memory for a %llu-element chain",
                       (unsigned long long)n);
    gs_chain_sattolo(&w->rng, n, s, chain);
    uint64_t timed = n < AVG_TIMED ? (n * 4 > AVG_TIMED ? n * 4 : AVG_TIMED) : AVG_TIMED;
    unsigned warmup = n < 65536 ? 2 : 1;
    int rc = avg_chase(w, chain, n, n * s, warmup, timed, carveout, avg_cycles, err);
    free(chain);
    return rc;
}

/* The end of plateau pl (within tolerance of its latency), bisected between its last footprint
 * (at the plateau's latency) and the next sampled one, to a 64th of the footprint. */
static int refine_end(cw_walker *w, uint64_t lo, uint64_t hi, uint64_t stride_bytes,
                      double latency, int carveout, cw_avg_level *lv, gs_error *err)
{
    uint64_t res = lo / 64 / stride_bytes * stride_bytes;
    res = res > stride_bytes ? res : stride_bytes;
    int rc = 0;
    while (!rc && hi - lo > res) {
        uint64_t half = (hi - lo) / 2 / res * res;
        uint64_t mid = lo + (half ? half : res);
        if (mid >= hi)
            break;
        double a;
        rc = cw_avg_walk(w, mid, stride_bytes, carveout, &a, err);
        if (!rc && a <= latency * (1 + AVG_TOLERANCE))
            lo = mid;
        else
            hi = mid;
    }
    lv->size_bytes = lo;
    lv->resolution_bytes = res;
    return rc;
}

int cw_avg_levels(cw_walker *w, uint64_t lo_bytes, uint64_t hi_bytes, uint64_t stride_bytes,
                  int carveout, cw_avg_sweep *out, gs_error *err)
{
    memset(out, 0, sizeof *out);
    out->stride_bytes = stride_bytes;
    unsigned start = w->chases;
    double x[AVG_MAX_POINTS], y[AVG_MAX_POINTS];
    size_t n = 0;
    int rc = 0;
    for (double f = (double)lo_bytes; f <= (double)hi_bytes && n < AVG_MAX_POINTS && !rc;
         f *= M_SQRT2) {
        uint64_t fb = (uint64_t)f / stride_bytes * stride_bytes;
        x[n] = (double)fb;
        rc = cw_avg_walk(w, fb, stride_bytes, carveout, &y[n], err);
        n++;
    }
    memcpy(out->x, x, n * sizeof *x);
    memcpy(out->y, y, n * sizeof *y);
    out->points = n;
    gs_plateau pl[CW_AVG_MAX_LEVELS + 1];
    int k = rc ? 0 : gs_plateaus_find(x, y, n, AVG_TOLERANCE, pl, CW_AVG_MAX_LEVELS + 1);
    if (!rc && k < 2)
        snprintf(out->why, sizeof out->why, "one latency from %llu B to %llu B: no capacity "
                 "seen in the sweep", (unsigned long long)lo_bytes, (unsigned long long)hi_bytes);
    for (int i = 0; !rc && i + 1 < k; i++) {
        cw_avg_level *lv = &out->levels[out->count++];
        lv->hit_cycles = pl[i].latency;
        lv->next_cycles = pl[i + 1].latency;
        size_t last = pl[i].first + pl[i].count - 1;
        rc = refine_end(w, (uint64_t)x[last], (uint64_t)x[last + 1], stride_bytes, pl[i].latency,
                        carveout, lv, err);
    }
    if (!rc && k >= 1)
        out->beyond_cycles = pl[k - 1].latency;
    out->chases = w->chases - start;
    return rc;
}

/* Cold sequential walks (warmup 0: the backend evicts the chain from the L2 first) of 512
 * accesses at strides elem .. 4 KB. */
int cw_avg_fetch(cw_walker *w, uint64_t *fetch_bytes, gs_error *err)
{
    enum { COUNT = 512, MAXS = 12 };
    uint64_t stride[MAXS], *chain = malloc(COUNT * sizeof *chain);
    double avg[MAXS];
    size_t n = 0;
    int rc = chain ? 0 : gs_fail(err, GS_ERR_NO_MEMORY, "out of host memory");
    for (uint64_t s = AVG_ELEM; s <= 4096 && n < MAXS && !rc; s *= 2, n++) {
        gs_chain_stride(COUNT, s, chain);
        stride[n] = s;
        rc = avg_chase(w, chain, COUNT, COUNT * s, 0, COUNT, -1, &avg[n], err);
    }
    *fetch_bytes = rc ? 0 : gs_fetch_from_strides(stride, avg, n, 0.05);
    free(chain);
    return rc;
}

/* ---- TLBs in average mode ------------------------------------------------------------------------ */

#define TLB_PIECE (2ull << 20)       /* physical memory behind the walks (CUDA's VMM granularity) */
#define TLB_BIG_PIECE (64ull << 20)  /* behind strides it divides: fewer mappings per footprint */
#define TLB_SHIFT 136ull             /* element j sits 136 j bytes (mod the piece) into its slot */

/* Element j of a stride walk at j x stride + (136 j mod piece): its physical word, (stride + 136)
 * j mod piece, is its own for j < 2^18, and its line differs from its neighbours'. The base walk
 * visits the same physical words inside one piece (one page): the same data-cache behaviour, no
 * TLB pressure; the step is the stride walk's average less the base walk's. */
static int tlb_walk(cw_walker *w, uint64_t count, uint64_t stride, bool base, double *avg,
                    gs_error *err)
{
    uint64_t *chain = malloc(count * sizeof *chain), top = 0;
    /* the largest piece (2 MB .. 64 MB) that divides the stride: every element on one physical
     * page of it, and few mappings per footprint */
    uint64_t piece = TLB_BIG_PIECE;
    while (piece > TLB_PIECE && stride % piece)
        piece /= 2;
    if (!chain)
        return gs_fail(err, GS_ERR_NO_MEMORY, "out of host memory");
    for (uint64_t j = 0; j < count; j++) {
        uint64_t phys = ((stride % piece) + TLB_SHIFT) * j % piece;
        chain[j] = base ? phys : j * stride + TLB_SHIFT * j % piece;
        top = chain[j] > top ? chain[j] : top;
    }
    gs_chase_plan p = {.space = w->space, .path = w->path, .footprint_bytes = top + w->elem,
                       .chain = chain, .chain_len = count, .element_bytes = w->elem,
                       .warmup_passes = 2, .timed_accesses = count * 8 > 8192 ? count * 8 : 8192,
                       .carveout_percent = -1};
    if (p.footprint_bytes > piece)
        p.physical_bytes = piece;
    int rc = avg_chase(w, chain, count, p.footprint_bytes, 2, p.timed_accesses, -1, avg, err);
    free(chain);
    return rc;
}

static int tlb_step(cw_walker *w, uint64_t n, uint64_t stride, double *step, double *at,
                    gs_error *err)
{
    double a, b;
    int rc = tlb_walk(w, n, stride, false, &a, err);
    if (!rc)
        rc = tlb_walk(w, n, stride, true, &b, err);
    *step = rc ? 0 : a - b;
    *at = a;
    return rc;
}

/* Most elements (doubling from 1, then bisected) whose stride walk shows no step over its base
 * walk (CW_TLB_STEP_CYCLES or 2%); 0 when a step shows nowhere up to 8192 elements or
 * CW_TLB_MAX_FOOTPRINT. */
static int tlb_knee(cw_walker *w, uint64_t stride, uint64_t max_count, uint64_t *knee,
                    double *below, double *above, gs_error *err)
{
    double st, a = NAN, base = NAN;
    int rc = tlb_step(w, 1, stride, &st, &base, err);
    uint64_t lo = 1, hi = 0;
    for (uint64_t n = 2; !rc && n <= max_count && n * stride <= CW_TLB_MAX_FOOTPRINT; n *= 2) {
        rc = tlb_step(w, n, stride, &st, &a, err);
        if (!rc && st > fmax(CW_TLB_STEP_CYCLES, CW_TLB_STEP_REL * base)) {
            hi = n;
            *above = a;
            break;
        }
        lo = n;
    }
    while (!rc && hi && hi - lo > 1) {
        uint64_t mid = lo + (hi - lo) / 2;
        rc = tlb_step(w, mid, stride, &st, &a, err);
        if (!rc && st > fmax(CW_TLB_STEP_CYCLES, CW_TLB_STEP_REL * base))
            hi = mid, *above = a;
        else
            lo = mid;
    }
    *below = base;
    *knee = hi ? lo : 0;
    return rc;
}

/* A second level: past the first level's entries, the most regions of stride s (each its own
 * entry there if its entries cover no more than s) before a second step. Plans the device cannot
 * run end the search (why2), not the probe. */
static int tlb_second(cw_walker *w, uint64_t s, cw_avg_tlb_result *out, gs_error *err)
{
    double st1, st, at;
    uint64_t lo = 2 * (out->entries + 1), hi = 0;
    if (out->l2_entries && lo < out->l2_entries / 2)
        lo = out->l2_entries / 2;           /* a second stride: start near the first count */
    int rc = tlb_step(w, lo, s, &st1, &at, err);
    double thr = fmax(CW_TLB_STEP_CYCLES, CW_TLB_STEP_REL * at);
    for (uint64_t n = 2 * lo; !rc && n * s <= CW_TLB_MAX_FOOTPRINT2; n *= 2) {
        rc = tlb_step(w, n, s, &st, &at, err);
        if (!rc && st - st1 > thr) {
            hi = n;
            if (!out->l2_entries)           /* the first stride's step is the penalty */
                out->l2_penalty_cycles = st - st1;
            break;
        }
        lo = n;
    }
    while (!rc && hi && hi - lo > 1) {
        uint64_t mid = lo + (hi - lo) / 2;
        rc = tlb_step(w, mid, s, &st, &at, err);
        if (!rc && st - st1 > thr)
            hi = mid;
        else
            lo = mid;
    }
    if (out->l2_entries) {                  /* the second stride (cw_avg_tlb) */
        if (rc == GS_ERR_NO_MEMORY || rc == GS_ERR_UNSUPPORTED)
            gs_error_clear(err), rc = 0;
        else if (!rc && hi)
            out->l2_entries_half = lo;
        return rc;
    }
    out->l2_stride_bytes = s;
    if (rc == GS_ERR_NO_MEMORY || rc == GS_ERR_UNSUPPORTED) {
        snprintf(out->why2, sizeof out->why2, "%.200s", err->msg);
        gs_error_clear(err);
        return 0;
    }
    if (!rc && hi)
        out->l2_entries = lo;
    else if (!rc)
        snprintf(out->why2, sizeof out->why2, "no second step up to %llu regions of %llu B",
                 (unsigned long long)lo, (unsigned long long)s);
    return rc;
}

int cw_avg_tlb(cw_walker *w, cw_avg_tlb_result *out, gs_error *err)
{
    memset(out, 0, sizeof *out);
    unsigned start = w->chases;
    int rc = 0;
    /* entries: the most elements that fit, one per region, at the two largest strides */
    for (size_t i = 0; i < 2 && !rc; i++) {
        uint64_t s = CW_TLB_MAX_STRIDE >> (2 * (1 - i));
        out->stride_bytes[i] = s;
        rc = tlb_knee(w, s, 8192, &out->fit_count[i], &out->hit_cycles[i], &out->miss_cycles[i],
                      err);
    }
    out->n = 2;
    if (!rc && (!out->fit_count[1] || out->fit_count[0] != out->fit_count[1]))
        snprintf(out->why, sizeof out->why, "the most regions that fit differ at the two largest "
                 "strides (%llu at %llu B, %llu at %llu B; 0 = no step seen)",
                 (unsigned long long)out->fit_count[0], (unsigned long long)out->stride_bytes[0],
                 (unsigned long long)out->fit_count[1], (unsigned long long)out->stride_bytes[1]);
    if (rc || out->why[0]) {
        out->chases = w->chases - start;
        return rc;
    }
    uint64_t e = out->fit_count[1];
    out->entries = e;
    out->penalty_cycles = out->miss_cycles[1] - out->hit_cycles[1];
    /* page: the smallest stride from which 1.5 x entries elements (each on its own page from the
     * page up; two on one page below it, E x 0.75 pages) step over their base walk */
    uint64_t n = e + (e + 1) / 2, page = 0;
    size_t k = 0;
    for (uint64_t s = CW_TLB_MIN_STRIDE; s <= CW_TLB_MAX_STRIDE && !rc && k < CW_TLB_STRIDES;
         s *= 2, k++) {
        double st, at;
        rc = tlb_step(w, n, s, &st, &at, err);
        out->page_stride[k] = (double)s;
        out->page_step[k] = st;
        bool step = !rc && st > fmax(CW_TLB_STEP_CYCLES, CW_TLB_STEP_REL * out->hit_cycles[1]);
        if (step && !page)
            page = s;
        else if (!step)
            page = 0;                 /* a step must hold at every larger stride */
    }
    out->page_points = k;
    /* the second level needs footprints up to 256 GB: tens of seconds of mapping on an H100
     * (docs/results/2026-11-23-cache-h100.md), so only with --thorough */
    if (!rc && w->ctx->thorough) {
        rc = tlb_second(w, CW_TLB_MAX_STRIDE / 4, out, err);
        if (!rc && out->l2_entries)                  /* the same at half the stride */
            rc = tlb_second(w, CW_TLB_MAX_STRIDE / 8, out, err);
    } else if (!rc)
        snprintf(out->why2, sizeof out->why2, "the search for a second level maps footprints up "
                 "to 256 GB (about 80 s on an H100): run with --thorough");
    out->chases = w->chases - start;
    if (rc)
        return rc;
    if (page > CW_TLB_MIN_STRIDE)
        out->page_bytes = page;
    else
        snprintf(out->why, sizeof out->why, "%s", page ? "the step shows from the smallest "
                 "stride tried: the page is at most that" : "no stride shows a step at 1.5 x "
                 "entries from some stride on");
    return 0;
}

/* ---- L2 line from the element count that overflows (average mode) ------------------------------- */

/* Walks of n = 1.5 C / s elements, one per s-byte slot at a random 8-byte place in it (random
 * order): below the line several elements share lines and the walk occupies n s = 1.5 C (misses);
 * from the line up every element holds a line of its own, n x line = 1.5 C x line / s, which
 * fits from s = 2 x line on. The line is half the smallest stride whose walk fits (average below
 * the midpoint of hit and next latency), when the stride before it did not. */
int cw_avg_line(cw_walker *w, uint64_t capacity_bytes, double hit_cycles, double next_cycles,
                uint64_t min_stride, uint64_t *line_bytes, gs_error *err)
{
    *line_bytes = 0;
    int rc = 0;
    bool missed_before = false;
    double mid = (hit_cycles + next_cycles) / 2;
    for (uint64_t s = min_stride > 2 * AVG_ELEM ? min_stride : 2 * AVG_ELEM; s <= 4096 && !rc;
         s *= 2) {
        uint64_t n = capacity_bytes / 2 * 3 / s;
        if (n < 16 || n > 4 * AVG_MAX_ELEMS)
            continue;
        uint64_t *chain = malloc(n * sizeof *chain);
        if (!chain)
            return gs_fail(err, GS_ERR_NO_MEMORY, "out of host memory");
        gs_chain_sattolo(&w->rng, n, s, chain);
        for (uint64_t i = 0; i < n; i++)
            chain[i] += AVG_ELEM * gs_rng_below(&w->rng, s / AVG_ELEM);
        double a;
        rc = avg_chase(w, chain, n, n * s, 1, AVG_TIMED, -1, &a, err);
        free(chain);
        if (rc)
            break;
        bool fits = a < mid;
        if (fits && missed_before) {
            *line_bytes = s / 2;
            break;
        }
        if (fits)
            break;                    /* fits from the smallest stride: no line seen */
        missed_before = true;
    }
    return rc;
}

/* ---- ways from stride walks (cw_avg_fits) ------------------------------------------------------ */

int cw_avg_offsets(cw_walker *w, const uint64_t *offsets, size_t n, double *avg_cycles,
                   gs_error *err)
{
    uint64_t top = 0;
    for (size_t i = 0; i < n; i++)
        top = offsets[i] > top ? offsets[i] : top;
    uint64_t timed = n * 64 > AVG_TIMED ? AVG_TIMED : (n * 64 > 4096 ? n * 64 : 4096);
    return avg_chase(w, offsets, n, top + AVG_ELEM, 2, timed, -1, avg_cycles, err);
}

/* Whether n blocks at stride S fit: their walk averages within AVG_TOLERANCE of hit_cycles. */
static int stride_blocks_fit(cw_walker *w, uint64_t n, uint64_t stride, double hit_cycles,
                             bool *fit, gs_error *err)
{
    uint64_t *chain = malloc(n * sizeof *chain);
    if (!chain)
        return gs_fail(err, GS_ERR_NO_MEMORY, "out of host memory");
    for (uint64_t i = 0; i < n; i++)
        chain[i] = i * stride;
    double a;
    int rc = cw_avg_offsets(w, chain, n, &a, err);
    *fit = !rc && a <= hit_cycles * (1 + AVG_TOLERANCE);
    free(chain);
    return rc;
}

int cw_avg_fits(cw_walker *w, uint64_t line_bytes, double hit_cycles, cw_avg_fits_result *out,
                gs_error *err)
{
    int rc = 0;
    /* device memory spaces reach past the capacity search's bound; the constant bank does not */
    uint64_t bound = w->bound, reach = CW_FIT_MAX_STRIDE * (CW_FIT_MAX_BLOCKS + 1);
    if ((w->space == GS_SPACE_GLOBAL || w->space == GS_SPACE_TEXTURE) && bound < reach)
        bound = reach;
    out->n = 0;
    for (uint64_t s = 2 * line_bytes; s <= CW_FIT_MAX_STRIDE && out->n < CW_FIT_STRIDES && !rc;
         s *= 2) {
        uint64_t lo = 1, hi = CW_FIT_MAX_BLOCKS + 1;   /* lo fits; hi: not known to fit */
        bool fit = true, bounded = bound / s < hi;
        if (bounded)
            hi = bound / s;
        if (hi < 2)
            break;
        rc = stride_blocks_fit(w, hi, s, hit_cycles, &fit, err);
        if (!rc && fit && bounded)
            break;                                  /* the space ends before a conflict */
        if (!rc && fit) {
            out->stride_bytes[out->n] = s;
            out->fit[out->n++] = 0;                 /* more than the most tried */
            continue;
        }
        while (!rc && hi - lo > 1) {
            uint64_t mid = lo + (hi - lo) / 2;
            rc = stride_blocks_fit(w, mid, s, hit_cycles, &fit, err);
            if (fit)
                lo = mid;
            else
                hi = mid;
        }
        out->stride_bytes[out->n] = s;
        out->fit[out->n++] = lo;
    }
    return rc;
}
