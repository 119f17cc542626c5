/* The L2's ways and sets from eviction sets found in average mode (docs/methods.md, "cache",
 * "L2 sets and ways"; issue 16): the eviction-set reduction of the memory-hierarchy paper's
 * section 3.2 (3) run without a trace, since no trace holds an L2-sized chain. Every verdict is
 * "does this walk miss": the miss excess of cw_l2_miss_excess (a walk less the same lines
 * visited twice in a row, so near and far hits cancel and a far hit never reads as a miss)
 * summed over one pass, less the excess of a walk over one random line of each 2 MB page the
 * walk visits in the same order (translation misses), above 1.5 x the miss penalty: more than
 * one line missing a pass. A random pool would need about the L2's lines (409 600 on an H100)
 * before one set overflows, and its one overflowing set would drown in its average; lines at a
 * power-of-two stride fall into few sets when the index maps strides onto few of them, so the
 * fewest lines at a stride whose walk misses overflow one set and the reduction starts small.
 * Pools span at most the walker's bound (4 x the driver's L2 size). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "probes/cache_internal.h"

#define L2S_MAX_LINES 4096u      /* lines of one pool, at most */
#define L2S_MAX_VERDICTS 1500u   /* verdicts (four walks each, at most) of the whole method */
#define L2S_DRAWS 3              /* reductions from pools at different bases; all must agree */
#define L2S_PAGE (2ull << 20)    /* translation unit assumed for the reference walks */
#define L2S_MAX_ACCESSES 24000000ull /* loads of the whole method, at most (about 4-12 s on an
                                         H100 at 0.17-0.5 us a load) */
#define L2S_PASSES 8u            /* timed passes of a walk (at least 2048 loads) */

typedef struct l2s {
    cw_walker *w;
    uint64_t line, bound;
    double penalty;              /* miss latency less the far hit (cycles) */
    uint64_t *sorted, *twice, *ref;
    unsigned verdicts;
    uint64_t accesses;           /* loads of every walk so far, warm-up included */
} l2s;

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* One warm average walk over lines[0..n), L2S_PASSES timed passes (2048 loads at least). */
static int walk(l2s *c, const uint64_t *lines, size_t n, double *avg, gs_error *err)
{
    uint64_t top = 0, timed = n * L2S_PASSES < 2048 ? 2048 : n * L2S_PASSES;
    for (size_t i = 0; i < n; i++)
        top = lines[i] > top ? lines[i] : top;
    c->accesses += 2 * n + timed;
    return cw_avg_chase(c->w, lines, n, top + AVG_ELEM, 2, timed, -1, avg, err);
}

/* Miss excess of one pass over lines (cycles): n x 2 (a - b), a the walk's average, b that of
 * the walk visiting each line twice in a row (as cw_l2_miss_excess, with fewer timed passes). */
static int pass_excess(l2s *c, const uint64_t *lines, size_t n, double *e, gs_error *err)
{
    double a, b;
    for (size_t i = 0; i < n; i++)
        c->twice[2 * i] = lines[i], c->twice[2 * i + 1] = lines[i] + AVG_ELEM;
    int rc = walk(c, lines, n, &a, err);
    if (!rc)
        rc = walk(c, c->twice, 2 * n, &b, err);
    *e = rc ? NAN : 2 * (a - b) * (double)n;
    return rc;
}

/* Whether a cyclic walk over lines[0..n) (ascending) misses: its pass excess less that of one
 * random line per 2 MB page it visits, in the same page order, above 1.5 x the penalty. */
static int overflows(l2s *c, const uint64_t *lines, size_t n, bool *yes, double *net,
                     gs_error *err)
{
    *yes = false;
    if (c->verdicts++ >= L2S_MAX_VERDICTS || c->accesses >= L2S_MAX_ACCESSES) {
        c->verdicts = L2S_MAX_VERDICTS;        /* the budget is spent: every search stops */
        return 0;
    }
    memcpy(c->sorted, lines, n * sizeof *lines);
    qsort(c->sorted, n, sizeof *c->sorted, cmp_u64);
    size_t pages = 0;
    for (size_t i = 0; i < n; i++)
        if (i == 0 || c->sorted[i] / L2S_PAGE != c->sorted[i - 1] / L2S_PAGE)
            c->ref[pages++] = c->sorted[i] / L2S_PAGE * L2S_PAGE +
                              gs_rng_below(&c->w->rng, L2S_PAGE / c->line) * c->line;
    double e, e_ref = 0;
    int rc = pass_excess(c, c->sorted, n, &e, err);
    if (!rc && pages > 1)
        rc = pass_excess(c, c->ref, pages, &e_ref, err);
    *net = rc ? NAN : e - e_ref;
    *yes = !rc && *net > 1.5 * c->penalty;
    return rc;
}

static void stride_pool(uint64_t base, uint64_t stride, size_t n, uint64_t *out)
{
    for (size_t i = 0; i < n; i++)
        out[i] = base + i * stride;
}

/* The fewest lines at this stride from base whose walk misses, below `below` (0: none); most:
 * the count tried first (the largest the bound and L2S_MAX_LINES allow). */
static int fewest_missing(l2s *c, uint64_t base, uint64_t stride, size_t below, uint64_t *pool,
                          size_t *fewest, gs_error *err)
{
    size_t hi = L2S_MAX_LINES;
    if ((c->bound - base) / stride < hi)
        hi = (size_t)((c->bound - base) / stride);
    if (below && below - 1 < hi)
        hi = below - 1;
    *fewest = 0;
    if (hi < 3)
        return 0;
    bool yes;
    double net;
    stride_pool(base, stride, hi, pool);
    int rc = overflows(c, pool, hi, &yes, &net, err);
    if (rc || !yes)
        return rc;
    size_t lo = 2;                              /* lo fits (two lines: assumed) */
    while (!rc && hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        stride_pool(base, stride, mid, pool);
        rc = overflows(c, pool, mid, &yes, &net, err);
        if (!rc && yes)
            hi = mid;
        else
            lo = mid;
    }
    *fewest = rc ? 0 : hi;
    return rc;
}

/* cw_group_reduce's verdict: overflows, while the budget lasts. */
static int l2_misses(void *ctx, const uint64_t *lines, size_t n, bool *yes, bool *more,
                     gs_error *err)
{
    l2s *c = ctx;
    double net;
    int rc = overflows(c, lines, n, yes, &net, err);
    *more = c->verdicts < L2S_MAX_VERDICTS;
    return rc;
}

/* Group reduction (cw_group_reduce) under this file's verdict; *m = 0 when the verdict budget
 * ran out. */
static int reduce(l2s *c, uint64_t *s, size_t *m, uint64_t *t, gs_error *err)
{
    int rc = cw_group_reduce(s, m, t, l2_misses, c, err);
    if (c->verdicts >= L2S_MAX_VERDICTS)
        *m = 0;
    return rc;
}

/* The stride whose pool misses with the fewest lines: power-of-two strides from 2 lines up to
 * the bound / 4, each pool from a random line of the first 2 MB page. A stride's fewest count
 * counts only when a second verdict on the same pool misses again: on an H100 a pool of 4 lines
 * at 16 MB once read as missing, and no other base's pool missed there. */
static int best_stride(l2s *c, uint64_t *pool, uint64_t *stride, size_t *fewest, gs_error *err)
{
    int rc = 0;
    *stride = 0;
    *fewest = 0;
    for (uint64_t s = 2 * c->line; s <= c->bound / 4 && !rc; s *= 2) {
        uint64_t span = s < L2S_PAGE ? s : L2S_PAGE;
        uint64_t base = gs_rng_below(&c->w->rng, span / c->line) * c->line;
        size_t n;
        bool again = false;
        double net;
        rc = fewest_missing(c, base, s, *fewest, pool, &n, err);
        if (!rc && n) {
            stride_pool(base, s, n, pool);
            rc = overflows(c, pool, n, &again, &net, err);
        }
        if (!rc && n && again)
            *stride = s, *fewest = n;
    }
    return rc;
}

static void not_determined(cw_level *lv, const char *fmt, unsigned long long a,
                           unsigned long long b, unsigned long long x)
{
    char why[400];
    snprintf(why, sizeof why, fmt, a, b, x);
    size_t used = strlen(lv->why_structure);
    snprintf(lv->why_structure + used, sizeof lv->why_structure - used, "%s%s",
             used ? "; L2 eviction sets: " : "L2 eviction sets: ", why);
}

int cw_l2_structure(cw_walker *w, cw_level *lv, const cw_avg_sweep *sw, gs_error *err)
{
    /* the penalty of a miss over a far hit: the memory plateau less the whole L2's plateau */
    double penalty = sw && sw->count ? sw->beyond_cycles - sw->levels[sw->count - 1].hit_cycles
                                     : NAN;
    l2s c = {.w = w, .line = lv->line_bytes, .bound = w->bound, .penalty = penalty};
    if (!c.line || !lv->size_bytes || !(c.penalty > 0)) {
        not_determined(lv, "no line (%llu B), capacity (%llu B) or miss penalty (%llu cycles) "
                       "to search with", c.line, lv->size_bytes,
                       (unsigned long long)(c.penalty > 0 ? c.penalty : 0));
        return 0;
    }
    size_t cap = L2S_MAX_LINES;
    c.sorted = malloc(cap * sizeof *c.sorted);
    c.twice = malloc(2 * cap * sizeof *c.twice);
    c.ref = malloc(cap * sizeof *c.ref);
    uint64_t *pool = malloc(cap * sizeof *pool), *t = malloc(cap * sizeof *t);
    int rc = c.sorted && c.twice && c.ref && pool && t
                 ? 0 : gs_fail(err, GS_ERR_NO_MEMORY, "out of host memory");
    uint64_t stride = 0, ways[L2S_DRAWS] = {0};
    size_t fewest = 0, draw = 0, first = 0, left = 0;
    if (!rc)
        rc = best_stride(&c, pool, &stride, &fewest, err);
    for (; !rc && stride && draw < L2S_DRAWS; draw++) {
        /* each draw from its own base: its fewest missing count at this stride, then reduced */
        uint64_t span = stride < L2S_PAGE ? stride : L2S_PAGE;
        uint64_t base = gs_rng_below(&w->rng, span / c.line) * c.line;
        size_t n = 0;
        rc = fewest_missing(&c, base, stride, 0, pool, &n, err);
        first = n;
        left = 0;
        if (rc || !n)
            break;
        stride_pool(base, stride, n, pool);
        rc = reduce(&c, pool, &n, t, err);
        left = n;
        if (rc || n < 2)
            break;
        ways[draw] = n - 1;
    }
    bool agree = !rc && draw == L2S_DRAWS;
    for (size_t i = 1; agree && i < L2S_DRAWS; i++)
        agree = ways[i] == ways[0];
    uint64_t W = ways[0], sets = W ? (lv->size_bytes + W * c.line / 2) / (W * c.line) : 0;
    uint64_t d = udiff(sets * W * c.line, lv->size_bytes);
    if (!rc && !stride)
        not_determined(lv, "no power-of-two stride from %llu B to %llu B put a set's ways + 1 "
                       "lines among %llu lines (the index spreads strided lines over the sets: "
                       "a pool of random lines about the L2's size would be needed)",
                       2 * c.line, c.bound / 4, L2S_MAX_LINES);
    else if (!rc && !agree && draw < L2S_DRAWS && c.verdicts >= L2S_MAX_VERDICTS)
        not_determined(lv, "the method's budget (%llu verdicts) ran out in reduction %llu of "
                       "3 at a %llu-B stride (more verdicts, or faster ones, would decide it)",
                       L2S_MAX_VERDICTS, draw + 1, stride);
    else if (!rc && !agree && draw < L2S_DRAWS && !first)
        not_determined(lv, "at a %llu-B stride the pool of reduction %llu of 3 (a new base) "
                       "never missed up to the most lines tried, though the first pool there "
                       "missed with %llu: the misses do not repeat from base to base (pools at "
                       "more bases, each verdict taken twice, would decide it)", stride,
                       draw + 1, fewest);
    else if (!rc && !agree && draw < L2S_DRAWS)
        not_determined(lv, "at a %llu-B stride reduction %llu of 3 started from a pool that "
                       "missed but left %llu line(s): a verdict flipped on the way down (a "
                       "reduction whose verdicts are each taken twice would decide it)", stride,
                       draw + 1, left);
    else if (!rc && !agree)
        not_determined(lv, "reductions from three pools left %llu, %llu and %llu lines less "
                       "one: they disagree (more pools at the same stride, until three agree, "
                       "would decide it)", ways[0], ways[1], ways[2]);
    /* only three agreeing reductions give a figure (before session 6's fix, disagreeing ones
     * fell through to the figures: the H100 read 2, 4 and 15 ways in three runs) */
    if (rc || !stride || !agree)
        ;
    else if (c.verdicts >= L2S_MAX_VERDICTS)
        not_determined(lv, "the method's budget (%llu verdicts, %llu loads) ran out after %llu "
                       "loads", L2S_MAX_VERDICTS, L2S_MAX_ACCESSES, c.accesses);
    else if (d > lv->size_bytes / 32)
        not_determined(lv, "%llu ways of %llu-B lines do not divide the capacity into equal "
                       "sets (%llu sets x ways x line off by more than 3 %%)", W, c.line, sets);
    else {
        lv->sets = (unsigned)sets;
        /* the capacity's own spread, in sets: exact only where the capacity is */
        lv->sets_ci95 = ceil(lv->size_ci95_bytes / (double)(W * c.line));
        lv->ways_per_set[0] = (unsigned)W;
        lv->nsets = 1;
        lv->sets_method = "ways: lines of one set left by eviction-set reductions in average "
                          "mode (three pools of lines at one power-of-two stride agree; a walk "
                          "misses when its excess over the same lines visited twice in a row, "
                          "less that of one line per page, exceeds 1.5 miss penalties a pass), "
                          "less one; sets: capacity / (ways x line), with the capacity's ci95 "
                          "in sets";
        size_t used = strlen(lv->why_structure);
        snprintf(lv->why_structure + used, sizeof lv->why_structure - used,
                 "%smapping: the eviction sets were found at a %llu-B stride; which address "
                 "bits index the sets is not measured (a GF(2) fit needs the in-set verdict of "
                 "lines one or two bits away from a set's line, each inside its 2 MB page)",
                 used ? "; " : "", (unsigned long long)stride);
        snprintf(lv->why_policy, sizeof lv->why_policy, "the L2's replacement tests would need "
                 "each access's hit or miss in a set whose lines lie in both partitions (a "
                 "far hit is slower than the trace's hit band); not built");
    }
    free(c.sorted), free(c.twice), free(c.ref), free(pool), free(t);
    return rc;
}
