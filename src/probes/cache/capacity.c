/* Capacity C (memory-hierarchy paper, section 3.2 (1)): the largest footprint a stride walk fits.
 * Fine-grained: footprints double, then bisect, judged by steady-state traces, with slow hits (a
 * far L2 partition, a TLB miss) told from capacity misses by chasing a small subset. Average mode
 * (Listing 2): a footprint sweep of random cyclic walks whose averages split into plateaus, each
 * plateau's end bisected (cw_avg_levels; the L2 and the cross-checks of cache/cross_check.c). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/plateaus.h"
#include "analysis/stats.h"
#include "probes/cache/internal.h"

/* ---- fine-grained footprint sweep ------------------------------------------------------------ */

/* A slow position of a data-cache sweep is a capacity miss only if it turns fast when the data
 * shrinks: chased again with a pseudo-random 64th of the other elements (a 64th of the pressure
 * on every set, nearly the same pages), an access that stays slow in three such subsets is a slow
 * hit (a far L2 partition, a TLB miss), so the band widens to hold it and the trace is judged
 * again. TLB walks keep their band (their data is aliased into a few lines instead). */
static int slow_alone(cw_walker *w, const uint64_t *chain, size_t len, size_t pos,
                      uint64_t salt, uint64_t *sub, double *latency, gs_error *err)
{
    size_t n = 0, at = 0, got;
    for (size_t i = 0; i < len; i++)
        if (i == pos || (((i ^ salt) * 0x9e3779b97f4a7c15ull) >> 58) == 0) {
            at = i == pos ? n : at;
            sub[n++] = chain[i];
        }
    size_t passes = w->cap / n > 16 ? 16 : w->cap / n;
    int rc = cw_chase(w, sub, n, 2, passes * n, &got, err);
    for (size_t p = 0; !rc && p < passes; p++)
        w->lat[p] = w->lat[p * n + at];
    *latency = rc ? 0 : gs_median_u32(w->lat, passes);
    return rc;
}

static int refine_band(cw_walker *w, const uint64_t *chain, size_t len, size_t got, bool *yes,
                       gs_error *err)
{
    if (w->tlb || len < 64)
        return 0;
    uint32_t *trace = malloc(got * sizeof *trace), *counts = malloc(len * sizeof *counts);
    uint64_t *sub = malloc(len * sizeof *sub);
    int rc = trace && counts && sub ? 0 : gs_fail(err, GS_ERR_NO_MEMORY, "out of host memory");
    if (!rc)
        memcpy(trace, w->lat, got * sizeof *trace);
    for (int round = 0; round < 4 && *yes && !rc; round++) {
        gs_trace_miss_counts(trace, got, len, w->band.threshold_cycles, counts);
        size_t pos = 0;
        for (size_t i = 1; i < len; i++)
            pos = counts[i] > counts[pos] ? i : pos;
        double alone = INFINITY, one;
        for (uint64_t salt = 1; salt <= 3 && !rc; salt++) {
            rc = slow_alone(w, chain, len, pos, salt * 7919, sub, &one, err);
            alone = one < alone ? one : alone;
        }
        if (rc || !(alone > w->band.threshold_cycles))
            break;
        w->band.threshold_cycles = alone + (w->band.threshold_cycles - w->band.hit_cycles);
        *yes = gs_trace_conflict(trace, got, len, &w->band);
    }
    free(trace), free(counts), free(sub);
    return rc;
}

static int fits(cw_walker *w, uint64_t footprint_bytes, uint64_t stride_bytes, bool *ok,
                gs_error *err)
{
    uint64_t n = footprint_bytes / stride_bytes;
    cw_stride_chain(w, n, stride_bytes, w->chain);
    size_t got;
    bool c;
    int rc = cw_conflict_got(w, w->chain, n, &c, &got, err);
    if (!rc && c)
        rc = refine_band(w, w->chain, n, got, &c, err);
    *ok = !c;
    return rc;
}

/* Whether a footprint fits over CW_LONG_CHASES traces: no chain position misses, over all their
 * passes together, more often than noise spikes at the band's outlier rate explain
 * (gs_systematic_misses). One line past capacity under random replacement misses about once a
 * pass, spread over that set's blocks: too rare for one trace, not for the positions of four. */
#define CW_LONG_CHASES 4

static int fits_long(cw_walker *w, uint64_t footprint_bytes, uint64_t stride_bytes, bool *ok,
                     gs_error *err)
{
    uint64_t n = footprint_bytes / stride_bytes;
    cw_stride_chain(w, n, stride_bytes, w->chain);
    size_t passes = w->cap / n > 16 ? 16 : w->cap / n, total = 0, got = 0;
    uint32_t *counts = calloc(n, sizeof *counts), *one = malloc(n * sizeof *one);
    int rc = counts && one ? 0 : gs_fail(err, GS_ERR_NO_MEMORY, "out of host memory");
    for (unsigned c = 0; c < CW_LONG_CHASES && !rc && passes; c++) {
        rc = cw_chase(w, w->chain, n, 2, passes * n, &got, err);
        if (!rc)
            gs_trace_miss_counts(w->lat, got, n, w->band.threshold_cycles, one);
        for (size_t i = 0; !rc && i < n; i++)
            counts[i] += one[i];
        total += got / n;
    }
    unsigned min_misses = gs_systematic_misses(total, w->band.outlier_rate, n);
    *ok = true;
    for (size_t i = 0; !rc && total && i < n; i++)
        *ok = *ok && counts[i] < min_misses;
    free(counts), free(one);
    return rc;
}

/* Double from start until a conflict, then bisect in steps of the sweep stride. lo fits. */
int cw_find_capacity(cw_walker *w, uint64_t lo, uint64_t start, uint64_t bound,
                     cw_level *lv, gs_error *err)
{
    uint64_t hi = start;
    bool ok = true;
    int rc = 0;
    while (!rc && hi <= bound) {
        rc = fits(w, hi, cw_sweep_stride(w, hi), &ok, err);
        if (rc || !ok)
            break;
        lo = hi;
        hi *= 2;
    }
    if (rc)
        return rc;
    if (ok) {
        snprintf(lv->why_structure, sizeof lv->why_structure, "no capacity miss up to %llu B",
                 (unsigned long long)bound);
        return 0;
    }
    uint64_t s = cw_sweep_stride(w, hi);
    while (!rc && hi - lo > s) {
        uint64_t mid = lo + (hi - lo) / 2 / s * s;
        rc = fits(w, mid, s, &ok, err);
        if (ok)
            lo = mid;
        else
            hi = mid;
    }
    /* one line past capacity under random or weighted replacement misses about once a pass,
     * spread over the set's blocks: a verdict of 16 passes can miss it; the end is checked with
     * four times as many passes, and when they show misses a footprint that fits is sought
     * below (steps doubling from one stride) and the end bisected again with them */
    if (!rc)
        rc = fits_long(w, lo, s, &ok, err);
    uint64_t bad = lo, good = 0;
    for (uint64_t step = s; !rc && !ok && step < lo && !good; step *= 2) {
        bool fit = false;
        rc = fits_long(w, lo - step, s, &fit, err);
        if (!rc && fit)
            good = lo - step;
        else if (!rc)
            bad = lo - step;
    }
    while (!rc && good && bad - good > s) {
        uint64_t mid = good + (bad - good) / 2 / s * s;
        bool fit = false;
        rc = fits_long(w, mid, s, &fit, err);
        if (fit)
            good = mid;
        else
            bad = mid;
    }
    lv->size_bytes = good ? good : lo;
    return rc;
}

/* ---- average-mode footprint sweep ------------------------------------------------------------ */

#define AVG_MAX_POINTS 64

/* The end of plateau pl (within tolerance of its latency), bisected between its last footprint
 * (at the plateau's latency) and the next sampled one, to a 64th of the footprint; then again to
 * one stride with the strict margin (the plateau's own noise, at least AVG_STRICT), between
 * lo_fit, a footprint inside the plateau, and the first one past the tolerance. No average
 * proves a fit: a walk of F = C + k elements over a cyclic order overflows about k sets, each
 * missing at least once a pass whatever the policy (ways + 1 lines pass through ways), so it
 * shows at least k misses in F / stride accesses, which stay under a margin m while
 * k < m x latency x (F / stride) / penalty. Those k strides are the ci95 (0 when k < 1: exact),
 * and the strict bisection stops at a 16th of them. */
#define AVG_STRICT 0.01

/* The walks one bisection made: footprints and their averages. */
#define REFINE_MAX_WALKS 64
typedef struct walked {
    size_t n;
    uint64_t at[REFINE_MAX_WALKS];
    double avg[REFINE_MAX_WALKS];
} walked;

/* Whether a walk of footprint averages within margin of latency; kept (or NULL) keeps the walk. */
static int avg_fits(cw_walker *w, uint64_t footprint, uint64_t stride_bytes, double latency,
                    double margin, int carveout, walked *kept, bool *fits, gs_error *err)
{
    double a;
    int rc = cw_avg_walk(w, footprint, stride_bytes, carveout, &a, err);
    *fits = !rc && a <= latency * (1 + margin);
    if (!rc && kept && kept->n < REFINE_MAX_WALKS) {
        kept->at[kept->n] = footprint;
        kept->avg[kept->n++] = a;
    }
    return rc;
}

/* The bracket the walks already made give under a stricter margin, inside [*a, *b): *b the
 * least footprint over it, *a the largest one under it below that. Returns whether some walk
 * fits under it (then *a is one). */
static bool kept_bracket(const walked *kept, double latency, double margin, uint64_t *a,
                         uint64_t *b)
{
    double limit = latency * (1 + margin);
    for (size_t i = 0; i < kept->n; i++)
        if (kept->avg[i] > limit && kept->at[i] > *a && kept->at[i] < *b)
            *b = kept->at[i];
    bool found = false;
    for (size_t i = 0; i < kept->n; i++)
        if (kept->avg[i] <= limit && kept->at[i] >= *a && kept->at[i] < *b) {
            *a = kept->at[i];
            found = true;
        }
    return found;
}

/* Strides a walk of footprint_bytes can overflow with its misses hidden under margin. */
static double hidden_bytes(uint64_t footprint_bytes, uint64_t stride_bytes, double latency,
                           double penalty, double margin)
{
    if (!(penalty > 0))
        return (double)footprint_bytes;
    double k = floor(margin * latency * (double)(footprint_bytes / stride_bytes) / penalty);
    return k * (double)stride_bytes;
}

static int refine_end(cw_walker *w, uint64_t lo_fit, uint64_t lo, uint64_t hi,
                      uint64_t stride_bytes, double latency, double penalty, double margin,
                      int carveout, cw_avg_level *lv, gs_error *err)
{
    /* on the L2 path no finer than 1/256 of the end: its ends spread over MBs between walks (an
     * H100's near part over 0.5-4 MB, ci95 0.48-3.9; the whole L2's ci95 4-5 MB), where a 16th
     * of what the margin hides went on to 10-75 KB, two or three walks more each */
    uint64_t floor_bytes = w->path == GS_PATH_CG ? lo / 256 : 0;
    uint64_t res = lo / 64 / stride_bytes * stride_bytes;
    res = res > stride_bytes ? res : stride_bytes;
    int rc = 0;
    bool fits = false;
    walked kept = {.n = 0};
    while (!rc && hi - lo > res) {
        uint64_t half = (hi - lo) / 2 / res * res;
        uint64_t mid = lo + (half ? half : res);
        if (mid >= hi)
            break;
        rc = avg_fits(w, mid, stride_bytes, latency, AVG_TOLERANCE, carveout, &kept, &fits,
                      err);
        if (rc)
            break;
        if (fits)
            lo = mid;
        else
            hi = mid;
    }
    lv->size_bytes = lo;
    lv->upper_bytes = hi;
    lv->margin = AVG_TOLERANCE;
    lv->resolution_bytes = res;
    lv->ci95_bytes = (double)(hi - lo) / 2 + hidden_bytes(lo, stride_bytes, latency, penalty,
                                                          AVG_TOLERANCE);
    lv->strict = false;
    /* the strict bisection starts from what the walks above already say under its margin (a
     * margin below the tolerance: a walk over the tolerance is over it too), else from lo_fit,
     * walked once more to see that it fits under it */
    uint64_t a = lo_fit / stride_bytes * stride_bytes, b = hi;
    if (rc || !a || a >= b)
        return rc;
    if (!kept_bracket(&kept, latency, margin, &a, &b))
        rc = avg_fits(w, a, stride_bytes, latency, margin, carveout, NULL, &fits, err);
    else
        fits = true;
    if (rc || !fits)
        return rc;
    /* no finer than a 16th of the strides the margin hides: the capacity lies in
     * [a - hidden, b), which a +- hidden already covers (on an H100's L2, 9 walks of 0.13 s each
     * bisected a 5 MB interval to 128 B) */
    while (!rc && b - a > stride_bytes && b - a > floor_bytes &&
           (double)(b - a) > hidden_bytes(a, stride_bytes, latency, penalty, margin) / 16) {
        uint64_t mid = a + (b - a) / 2 / stride_bytes * stride_bytes;
        rc = avg_fits(w, mid, stride_bytes, latency, margin, carveout, NULL, &fits, err);
        if (rc)
            break;
        if (fits)
            a = mid;
        else
            b = mid;
    }
    if (!rc) {
        lv->size_bytes = a;
        lv->upper_bytes = b;
        lv->margin = margin;
        lv->ci95_bytes = hidden_bytes(a, stride_bytes, latency, penalty, margin);
        lv->strict = true;
    }
    return rc;
}

int cw_avg_compare_end(cw_walker *w, const cw_avg_level *was, uint64_t stride_bytes, int carveout,
                       uint64_t tol_bytes, int *cmp, gs_error *err)
{
    bool fits = false;
    *cmp = -2;
    if (!was->size_bytes || was->upper_bytes <= was->size_bytes || !(was->hit_cycles > 0))
        return 0;
    uint64_t lo = was->size_bytes > tol_bytes + stride_bytes ? was->size_bytes - tol_bytes
                                                              : stride_bytes;
    uint64_t hi = was->size_bytes + tol_bytes > was->upper_bytes ? was->size_bytes + tol_bytes
                                                                 : was->upper_bytes;
    lo = lo / stride_bytes * stride_bytes;
    int rc = avg_fits(w, lo, stride_bytes, was->hit_cycles, was->margin, carveout, NULL, &fits,
                      err);
    if (!rc && !fits)
        *cmp = -1;
    else if (!rc) {
        rc = avg_fits(w, hi, stride_bytes, was->hit_cycles, was->margin, carveout, NULL, &fits,
                      err);
        if (!rc)
            *cmp = fits ? 1 : 0;
    }
    return rc;
}

int cw_avg_repeat_end(cw_walker *w, cw_avg_sweep *sw, size_t i, int carveout, gs_error *err)
{
    cw_avg_level *a = &sw->levels[i];
    if (i >= sw->count || !a->size_bytes || !(a->hit_cycles > 0) ||
        !(a->next_cycles > a->hit_cycles))
        return 0;
    size_t last = 0;                          /* the sweep's bracket the end was refined in */
    while (last + 1 < sw->points && sw->x[last + 1] <= (double)a->size_bytes)
        last++;
    if (last + 1 >= sw->points)
        return 0;
    size_t inside = last ? last - 1 : last;   /* a footprint inside the plateau */
    /* The margin: the walks' own noise, three walks inside the plateau, not the plateau's
     * spread. That spread holds the plateau's last point, whose few far lines on a hashed L2
     * move it by up to 3 % between processes (H100: 22.6 MiB read 0.2-2.8 % above the near
     * plateau in twenty reports), and a margin taken from it moved every end of one process
     * together (ends below 22.6 MiB in some processes, above in others, each process's three
     * within 0.3-0.7 MB) */
    double noise[3];
    int rc = 0;
    for (int k = 0; k < 3 && !rc; k++)
        rc = cw_avg_walk(w, (uint64_t)sw->x[inside], sw->stride_bytes, carveout, &noise[k], err);
    if (rc)
        return rc;
    gs_summary walks = gs_summarize(noise, 3);
    double spread = 2 * (walks.max - walks.min) / a->hit_cycles;
    double margin = spread > AVG_STRICT ? spread : AVG_STRICT;
    /* every end bisected again under that margin (the sweep's own used the plateau's spread),
     * each on other pages: where the first big step of the far share lies moves with the
     * placement (an H100: 23.5, 24.0 or 24.5 MB on four buffers, the same in every process), so
     * ends on one process's pages agreed better than two processes did (24.94
     * and 23.65 MB) */
    double ends[CW_END_REPEATS];
    double ci = 0;
    uint64_t upper = 0, resolution = 0;
    bool strict = true;
    for (int k = 0; k < CW_END_REPEATS && !rc; k++) {
        cw_avg_level b = *a;
        w->avg_offset = (uint64_t)k * CW_END_SHIFT;
        rc = refine_end(w, (uint64_t)sw->x[inside], (uint64_t)sw->x[last],
                        (uint64_t)sw->x[last + 1], sw->stride_bytes, a->hit_cycles,
                        a->next_cycles - a->hit_cycles, margin, carveout, &b, err);
        ends[k] = (double)b.size_bytes;
        ci = b.ci95_bytes > ci ? b.ci95_bytes : ci;
        upper = b.upper_bytes > upper ? b.upper_bytes : upper;
        resolution = b.resolution_bytes > resolution ? b.resolution_bytes : resolution;
        strict = strict && b.strict;
    }
    w->avg_offset = 0;
    if (rc)
        return rc;
    /* the mean of the ends and its ci95 (Student's t over them), or the bisections' own
     * bracket where that is wider */
    gs_summary sm = gs_summarize(ends, CW_END_REPEATS);
    a->size_bytes = (uint64_t)sm.mean / sw->stride_bytes * sw->stride_bytes;
    a->ci95_bytes = sm.ci95 > ci ? sm.ci95 : ci;
    a->upper_bytes = upper;
    a->resolution_bytes = resolution;
    a->strict = strict;
    a->margin = margin;
    a->repeated = true;
    return 0;
}

/* Whether the first level's line is shorter than the sweep's stride s. A walk at stride s over
 * footprint F holds F / s lines when the line L <= s, so a sweep at s reads C x s / L where
 * L < s (a 64-B line at a 128-B stride: twice the capacity). A random walk at stride s / 2 over
 * 3/4 of the level's end then holds 3/4 of its lines where L >= s (both halves of a slot share a
 * line) and 3/2 of them where L <= s / 2 (each element a line of its own): it fits (average
 * below the midpoint of the level's and the next latency, as in cw_avg_line) exactly when the
 * line is at least the stride. */
static int line_below_stride(cw_walker *w, const cw_avg_level *a, uint64_t stride_bytes,
                             int carveout, bool *below, gs_error *err)
{
    uint64_t half = stride_bytes / 2, f = a->size_bytes / 4 * 3 / half * half;
    double avg;
    *below = false;
    if (f < 16 * half || !(a->next_cycles > a->hit_cycles))
        return 0;
    int rc = cw_avg_walk(w, f, half, carveout, &avg, err);
    *below = !rc && avg >= (a->hit_cycles + a->next_cycles) / 2;
    return rc;
}

int cw_avg_levels(cw_walker *w, uint64_t lo_bytes, uint64_t hi_bytes, uint64_t stride_bytes,
                  int carveout, int defer_level, cw_avg_sweep *out, gs_error *err)
{
    for (;;) {
        int rc = cw_avg_sweep_at(w, lo_bytes, hi_bytes, stride_bytes, carveout, defer_level, out,
                                 err);
        bool below = false;
        if (!rc && out->count && stride_bytes > CW_MIN_LINE)
            rc = line_below_stride(w, &out->levels[0], stride_bytes, carveout, &below, err);
        /* on the L2 path a sweep with no end may have walked a short line at a long stride, which
         * puts the end at C x stride / line, past the range (a 32-B line at 128 B: 4 x C) */
        if (!rc && !out->count && w->path == GS_PATH_CG && stride_bytes > CW_MIN_LINE)
            below = true;
        if (rc || !below)
            return rc;
        stride_bytes /= 2;                     /* the line is shorter: sweep again at half */
        out->line_at_most = stride_bytes;
    }
}

int cw_avg_sweep_at(cw_walker *w, uint64_t lo_bytes, uint64_t hi_bytes, uint64_t stride_bytes,
                    int carveout, int defer_level, cw_avg_sweep *out, gs_error *err)
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
        lv->hit_halfrange = pl[i].spread * pl[i].latency / 2;
        lv->next_cycles = pl[i + 1].latency;
        size_t last = pl[i].first + pl[i].count - 1;
        double margin = pl[i].spread > AVG_STRICT ? pl[i].spread : AVG_STRICT;
        size_t fit_at = pl[i].count > 1 ? last - 1 : last;  /* a point inside the plateau */
        if (i == defer_level) {            /* the caller bisects it (cw_avg_repeat_end) */
            lv->size_bytes = (uint64_t)x[last];
            lv->upper_bytes = (uint64_t)x[last + 1];
            lv->resolution_bytes = lv->upper_bytes - lv->size_bytes;
            lv->ci95_bytes = (double)lv->resolution_bytes;
            lv->margin = margin;
            continue;
        }
        rc = refine_end(w, (uint64_t)x[fit_at], (uint64_t)x[last], (uint64_t)x[last + 1],
                        stride_bytes, pl[i].latency, pl[i + 1].latency - pl[i].latency, margin,
                        carveout, lv, err);
    }
    if (!rc && k >= 1) {
        out->beyond_cycles = pl[k - 1].latency;
        out->beyond_halfrange = pl[k - 1].spread * pl[k - 1].latency / 2;
    }
    out->chases = w->chases - start;
    return rc;
}
