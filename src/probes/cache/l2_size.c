/* The L2's size in average mode, partition-aware (docs/methods.md, "cache", "L2 size"):
 * a footprint sweep's plateau (cache/cross_check.c) ends where the average latency leaves the
 * plateau by 10 %, which a mix of near and far hits and a gradual step push past the capacity
 * (the H100's 52 642 688 B against the driver's 52 428 800 B; the H200's 69 MB against 60 MB).
 * Here hit or miss is never read from one latency threshold: each walk over lines T is paired
 * with a walk that visits every line twice in a row (its first word, then the word 8 bytes on,
 * which always hits); their averages a and b give the miss excess 2 (a - b) = (share of misses)
 * x (miss penalty) whatever mix of near and far lines T holds, so a far hit is not read as a
 * miss. The capacity is bisected on that excess, then the excess just past it is extrapolated
 * back to zero (it grows linearly with the lines past the capacity: each one overflows one set).
 * Sets and ways of the L2 come from eviction sets under the same excess (cache/l2_structure.c). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/stats.h"
#include "probes/cache/internal.h"

#define L2_MAX_LINES (1ull << 19)   /* lines of one walk, at most (walks of up to 2^20 elements) */

int cw_l2_miss_excess(cw_walker *w, const uint64_t *lines, size_t n, uint64_t *twice,
                      double *excess, double *hit, gs_error *err)
{
    double a, b;
    for (size_t i = 0; i < n; i++)
        twice[2 * i] = lines[i], twice[2 * i + 1] = lines[i] + AVG_ELEM;
    int rc = cw_avg_offsets(w, lines, n, &a, err);
    if (!rc)
        rc = cw_avg_offsets(w, twice, 2 * n, &b, err);
    *excess = rc ? NAN : 2 * (a - b);
    *hit = rc ? NAN : 2 * b - a;
    return rc;
}

/* Whether the walk over T misses: its excess over the hits of its own lines is at least 3 cycles
 * or 1 % of their mean hit latency. */
static int misses(cw_walker *w, const uint64_t *lines, size_t n, uint64_t *twice, bool *yes,
                  double *excess, gs_error *err)
{
    double hit;
    int rc = cw_l2_miss_excess(w, lines, n, twice, excess, &hit, err);
    *yes = !rc && *excess > fmax(CW_TLB_STEP_CYCLES, 0.01 * hit);
    return rc;
}

/* Miss excess of a warm random cyclic walk (Sattolo) over every line of footprint_bytes. */
static int footprint_misses(cw_walker *w, uint64_t footprint_bytes, uint64_t line, bool *yes,
                            double *excess, gs_error *err)
{
    uint64_t n = footprint_bytes / line;
    uint64_t *order = malloc(n * sizeof *order), *twice = malloc(2 * n * sizeof *twice);
    int rc = order && twice && n > 1 ? 0 : gs_fail(err, GS_ERR_NO_MEMORY, "out of host memory");
    for (uint64_t i = 0; !rc && i < n; i++)
        order[i] = i;
    for (uint64_t i = n - 1; !rc && i > 0; i--) {           /* Sattolo: one cycle */
        uint64_t j = gs_rng_below(&w->rng, i), x = order[i];
        order[i] = order[j], order[j] = x;
    }
    for (uint64_t i = 0; !rc && i < n; i++)
        order[i] *= line;
    if (!rc)
        rc = misses(w, order, n, twice, yes, excess, err);
    free(order), free(twice);
    return rc;
}

/* The capacity by bisection on the miss excess (not on a latency plateau, which a mix of near
 * and far hits and a tolerance of 10 % blur): the largest footprint, in steps of `step` bytes,
 * whose random walk does not miss, between size / 2 and 2 x size. *lo (fits) and *hi (misses);
 * both 0 when the bracket does not hold. */
static int capacity_by_excess(cw_walker *w, uint64_t size, uint64_t line, uint64_t *lo,
                              uint64_t *hi, gs_error *err)
{
    uint64_t step = size / 1024 > line ? size / 1024 / line * line : line;
    uint64_t a = size / 2 / step * step, b = size + size / 4;
    bool miss = false;
    double ex;
    *lo = *hi = 0;
    int rc = footprint_misses(w, a, line, &miss, &ex, err);
    if (rc || miss || a / line > L2_MAX_LINES)
        return rc;
    for (rc = footprint_misses(w, b, line, &miss, &ex, err); !rc && !miss && b < 2 * size;) {
        a = b;
        b += size / 4;
        rc = footprint_misses(w, b, line, &miss, &ex, err);
    }
    if (rc || !miss || b / line > L2_MAX_LINES)
        return rc;
    b = b / step * step;
    while (!rc && b - a > step) {
        uint64_t mid = (a + (b - a) / 2) / step * step;
        if (mid <= a)
            break;
        rc = footprint_misses(w, mid, line, &miss, &ex, err);
        if (!rc && miss)
            b = mid;
        else if (!rc)
            a = mid;
    }
    if (!rc)
        *lo = a, *hi = b;
    return rc;
}


/* Where the excess starts: the excess at hi + d and hi + 2 d (d = 1/64 of hi) fitted by a line
 * through the origin's shift: capacity = x1 - e1 (x2 - x1) / (e2 - e1), rounded to the line. Kept
 * when inside [lo - 1/64, hi] and the three points (hi, +d, +2d) lie on one line (10 %). */
static int extrapolate(cw_walker *w, uint64_t lo, uint64_t hi, uint64_t line, uint64_t *cap,
                       gs_error *err)
{
    uint64_t d = hi / 64 / line * line, x[3] = {hi, hi + d, hi + 2 * d};
    double e[3];
    bool miss;
    *cap = 0;
    for (int i = 0; i < 3; i++) {
        if (x[i] / line > L2_MAX_LINES)
            return 0;
        int rc = footprint_misses(w, x[i], line, &miss, &e[i], err);
        if (rc)
            return rc;
    }
    double s1 = (e[1] - e[0]) / (double)d, s2 = (e[2] - e[1]) / (double)d;
    if (!(s1 > 0 && s2 > 0) || fabs(s1 - s2) > 0.1 * fmax(s1, s2))
        return 0;
    double c = (double)x[1] - e[1] / ((s1 + s2) / 2);
    uint64_t r = (uint64_t)llround(c / (double)line) * line;
    if (c > 0 && r + lo / 64 >= lo && r <= hi)
        *cap = r;
    return 0;
}

/* The excess of a far line copied into the near partition: on the H100 a line homed in the far
 * partition is also kept in the near one while the near part has room, and the second visit of a
 * "twice" walk hits that copy. Once the footprint outgrows the near part the copies go, the
 * single visits slow to far hits and the excess rises: its edge is then the near part's, not the
 * capacity (seen on the H100: 24.9 MB in two runs of four, against a 49 MB plateau). An edge
 * that does not clear the near plateau's end by an eighth is not taken as the capacity. */
static bool edge_is_near_part(uint64_t hi, const cw_avg_sweep *sw)
{
    if (!sw || sw->count < 2)
        return false;
    uint64_t near = sw->levels[0].size_bytes;
    return hi <= near + near / 8;
}

int cw_l2_size(cw_walker *w, cw_level *lv, const cw_avg_sweep *sw, gs_error *err)
{
    uint64_t line = lv->line_bytes ? lv->line_bytes : 128, lo = 0, hi = 0, cap = 0;
    if (lv->size_bytes / line < 64)
        return 0;
    int rc = capacity_by_excess(w, lv->size_bytes, line, &lo, &hi, err);
    /* an edge an eighth or more below the plateau's end, which the walks kept at hit latency:
     * on an H100 the excess once started at 26.4 MB against a 49.2 MB plateau with
     * a near plateau ending too early for the rule above; the capacity read 26.4 +- 13.2 MB,
     * the driver's 50 MiB outside it */
    bool near = !rc && lo && edge_is_near_part(hi, sw);
    bool under = !rc && lo && !near && hi + hi / 8 < lv->size_bytes;
    if (near || under) {
        char kept[sizeof lv->size_method_buf];   /* the method may live in the buffer already */
        snprintf(kept, sizeof kept, "%s", lv->size_method);
        if (under)
            snprintf(lv->size_method_buf, sizeof lv->size_method_buf,
                     "%.300s; the miss excess (a walk less the same lines visited twice) starts "
                     "at %llu..%llu B, an eighth or more below the plateau's end: a partition or "
                     "far lines' copies, not the capacity, so the plateau is kept",
                     kept, (unsigned long long)lo, (unsigned long long)hi);
        else
            snprintf(lv->size_method_buf, sizeof lv->size_method_buf,
                     "%.300s; the miss excess (a walk less the same lines visited twice) starts "
                     "at %llu..%llu B, where the near partition's plateau ends (%llu B): far "
                     "lines' copies in the near part, not the capacity, so the plateau is kept",
                     kept, (unsigned long long)lo, (unsigned long long)hi,
                     (unsigned long long)sw->levels[0].size_bytes);
        lv->size_method = lv->size_method_buf;
        return 0;
    }
    if (!rc && lo)
        rc = extrapolate(w, lo, hi, line, &cap, err);
    if (rc || !lo)
        return rc;
    /* capacity < hi (misses seen there); above cap - 1/256 (the extrapolation's spread), or
     * above lo / 2 (fits) when it did not hold */
    lv->size_interval_bytes[0] = cap ? cap - cap / 256 : lo / 2;
    lv->size_interval_bytes[1] = hi;
    lv->size_interval_ci95[0] = lv->size_interval_ci95[1] = 0;
    lv->size_bytes = cap ? cap : lo;
    /* The figure carries its interval: ci95 is the farther bound's distance, so a reader (and
     * verify) sees that the size is known to the interval, not to the byte. */
    uint64_t below = lv->size_bytes - lv->size_interval_bytes[0];
    uint64_t above = hi > lv->size_bytes ? hi - lv->size_bytes : 0;
    lv->size_ci95_bytes = (double)(below > above ? below : above);
    lv->size_method = cap ? "footprint where the miss excess (a random walk less the same lines "
                            "visited twice in a row: near and far hits cancel) starts, "
                            "extrapolated from the excess at 1/64 and 2/64 past the bisected "
                            "edge, rounded to the line (interval: size_low_bytes .. "
                            "size_high_bytes)"
                          : "largest footprint whose random walk shows no miss excess (3 cycles "
                            "or 1 %; a walk less the same lines visited twice in a row), "
                            "bisected to 1/1024: an upper bound, a few lines per set past the "
                            "capacity can stay under the threshold";
    return 0;
}

/* An average at or above this misses on every access: within CW_TLB_STEP_CYCLES or 1 % of the
 * plateau behind the level. */
static double all_miss_cycles(const cw_avg_sweep *sw)
{
    return sw->beyond_cycles - fmax(CW_TLB_STEP_CYCLES, 0.01 * sw->beyond_cycles);
}

/* Whether warm random walks over footprint miss on every access: FULL_MISS_WALKS walks, each
 * over its own chain, all of them (the first that hits says no). Near the bound a walk's few
 * hits come and go: one walk per verdict put the H100's bound at 57.1-60.2 MB over 30 runs, two
 * of them 2.1 MB apart on one card, against a bisection bracket of 0.57 MB. */
#define FULL_MISS_WALKS 2
static int all_miss(cw_walker *w, uint64_t footprint, const cw_avg_sweep *sw, bool *yes,
                    gs_error *err)
{
    int rc = 0;
    *yes = true;
    for (int k = 0; k < FULL_MISS_WALKS && *yes && !rc; k++) {
        double avg;
        rc = cw_avg_walk(w, footprint, sw->stride_bytes, -1, &avg, err);
        *yes = !rc && avg >= all_miss_cycles(sw);
    }
    return rc;
}

/* One bisection of the bound between a (some access hits) and b (every access misses), to a
 * 64th of b; *a_out, *b_out the bracket it stopped at. */
static int full_miss_bisect(cw_walker *w, const cw_avg_sweep *sw, uint64_t a, uint64_t b,
                            uint64_t *a_out, uint64_t *b_out, gs_error *err)
{
    uint64_t step = b / 64 > sw->stride_bytes ? b / 64 / sw->stride_bytes * sw->stride_bytes
                                              : sw->stride_bytes;
    int rc = 0;
    while (!rc && b - a > step) {
        uint64_t mid = (a + (b - a) / 2) / sw->stride_bytes * sw->stride_bytes;
        bool full;
        if (mid <= a)
            break;
        rc = all_miss(w, mid, sw, &full, err);
        if (!rc && full)
            b = mid;
        else if (!rc)
            a = mid;
    }
    *a_out = a, *b_out = b;
    return rc;
}

int cw_l2_full_miss(cw_walker *w, cw_level *lv, const cw_avg_sweep *sw, uint64_t driver_bytes,
                    gs_error *err)
{
    uint64_t size = lv->size_bytes, a0 = size, b0 = 0;
    for (size_t i = 0; i < sw->points && !b0; i++) {
        if (sw->x[i] <= (double)size)
            continue;
        if (sw->y[i] >= all_miss_cycles(sw))
            b0 = (uint64_t)sw->x[i];
        else
            a0 = (uint64_t)sw->x[i];
    }
    if (!size || !b0)
        return 0;                      /* no sweep point misses throughout: no bound */
    /* The bound bisected CW_END_REPEATS times, the k-th over walks CW_END_SHIFT x k into the
     * space (other pages), as the near part's end (cw_avg_repeat_end): near the bound a walk's
     * few hits come and go with its lines, so one bisection's bracket (0.57 MB on an H100)
     * understated how far the bound moves: 58.01 +- 0.88 against 56.82 +- 0.88 MB in two
     * reports on one card, 57.1-60.2 MB over thirty runs before two walks per
     * verdict. The bound is their mean, its ci95 Student's t over them or the widest bracket.
     * The later two bisect inside 2 brackets either side of the first one's bound (1.8 MB on an
     * H100, where reports' bounds lay within 0.9 MB of each other and a bound's sd is 0.3-0.9
     * MB), unchecked: a bound beyond that window ends at its edge, which still widens the
     * interval, and each costs 2 verdicts, not 5-6 (three whole bisections made the default
     * report 1.7 s longer). */
    double bounds[CW_END_REPEATS], bracket = 0;
    uint64_t lo = a0, hi = b0;
    int rc = 0;
    for (int k = 0; k < CW_END_REPEATS && !rc; k++) {
        uint64_t a, b;
        w->avg_offset = (uint64_t)k * CW_END_SHIFT;
        rc = full_miss_bisect(w, sw, lo, hi, &a, &b, err);
        if (k == 0) {
            uint64_t window = 2 * (b - a > sw->stride_bytes ? b - a : sw->stride_bytes);
            lo = b > a0 + window ? b - window : a0;
            hi = b + window < b0 ? b + window : b0;
        }
        bounds[k] = (double)b;
        bracket = (double)(b - a) > bracket ? (double)(b - a) : bracket;
    }
    w->avg_offset = 0;
    if (rc)
        return rc;
    gs_summary bs = gs_summarize(bounds, CW_END_REPEATS);
    uint64_t b = (uint64_t)bs.mean / sw->stride_bytes * sw->stride_bytes;
    uint64_t low = size - (uint64_t)lv->size_ci95_bytes;
    lv->size_interval_bytes[0] = low;
    lv->size_interval_bytes[1] = b;
    /* each bound as precise as what made it: the lower one is the end less its interval, which
     * moves with the plateau's noise from run to run (45.9-46.5 MB on one H100, each stated
     * with no interval, read as a disagreement), so it is known to that interval; the upper one
     * to its bisections' spread or widest bracket */
    lv->size_interval_ci95[0] = lv->size_ci95_bytes;
    lv->size_interval_ci95[1] = bs.ci95 > bracket ? bs.ci95 : bracket;
    if (b <= size + size / 4) {
        /* a sharp end: the sweep's size stands, as what one SM's walk keeps */
        snprintf(lv->size_method_buf, sizeof lv->size_method_buf,
                 "%s; on the L2 path the lines one SM's walk keeps: the capacity lies in "
                 "[size_low_bytes, size_high_bytes) (every access misses from there), which "
                 "can exceed this where the near partition holds copies of far lines",
                 lv->size_method);
        lv->size_method = lv->size_method_buf;
        return 0;
    }
    char drv[96] = "";
    if (driver_bytes)
        snprintf(drv, sizeof drv, "; the driver reports %llu B, %s",
                 (unsigned long long)driver_bytes,
                 driver_bytes >= low && driver_bytes < b ? "inside" : "outside it");
    snprintf(lv->size_nd_why, sizeof lv->size_nd_why,
             "misses begin at %llu B (+- %.0f) but every access misses only from %llu B on: a "
             "gradual end (hashed sets filling unevenly, copies of far lines in the near part, or "
             "a policy that keeps some lines), so the capacity lies in [%llu, %llu) B "
             "(size_low_bytes, size_high_bytes) and the onset is no size%s; the mapping of "
             "addresses to sets would decide it", (unsigned long long)size, lv->size_ci95_bytes,
             (unsigned long long)b, (unsigned long long)low, (unsigned long long)b, drv);
    return 0;
}

void cw_add_l2_size_figures(gs_probe_out *p, const cw_level *lv)
{
    if (!lv->size_interval_bytes[1])
        return;
    const char *m = lv->size_method && strncmp(lv->size_method, "end of", 6) == 0
        ? "interval of the capacity: below, the sweep's end less its bracket (a walk that "
          "fits); above, the smallest footprint whose walk misses on every access, bisected to "
          "a 64th, the mean of three bisections on other pages (no capacity lies above it "
          "while a set with room keeps its lines)"
        : "interval of the capacity: below, the extrapolated start of the miss excess "
          "less 1/256 (or half the bisected edge, which fits); above, the smallest "
          "footprint whose walk misses, the mean of three bisections on other pages";
    gs_figure(p, "size_low_bytes", (double)lv->size_interval_bytes[0], "B",
              lv->size_interval_ci95[0], 1, m);
    gs_figure(p, "size_high_bytes", (double)lv->size_interval_bytes[1], "B",
              lv->size_interval_ci95[1], 1, m);
}
