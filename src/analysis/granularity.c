/* Sector and line granularity of a warp request from a cost-vs-lane-stride curve; see
 * analysis/granularity.h for the method. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/granularity.h"

unsigned gs_request_units(unsigned lanes, uint64_t lane_stride_bytes, unsigned element_bytes,
                          uint64_t unit_bytes)
{
    if (lanes < 1 || lanes > 64 || unit_bytes == 0 || element_bytes == 0)
        return 0;
    uint64_t seen[128];
    unsigned n = 0;
    for (unsigned i = 0; i < lanes; i++) {
        uint64_t lo = i * lane_stride_bytes / unit_bytes;
        uint64_t hi = (i * lane_stride_bytes + element_bytes - 1) / unit_bytes;
        for (uint64_t u = lo; u <= hi && n < 128; u++) {
            unsigned k = 0;
            while (k < n && seen[k] != u)
                k++;
            if (k == n)
                seen[n++] = u;
        }
    }
    return n;
}

typedef struct gfit {
    double base, bs, bl, rss, se_s, se_l;
} gfit;

/* Least squares y = a + bs * xs + bl * xl with bs, bl >= 0 (a negative one is dropped). */
static gfit least_squares(const double *xs, const double *xl, const double *y, size_t n,
                          bool use_s, bool use_l)
{
    double ms = 0, ml = 0, my = 0;
    for (size_t i = 0; i < n; i++) { ms += xs[i]; ml += xl[i]; my += y[i]; }
    ms /= n; ml /= n; my /= n;
    double sss = 0, sll = 0, ssl = 0, ssy = 0, sly = 0;
    for (size_t i = 0; i < n; i++) {
        double ds = use_s ? xs[i] - ms : 0, dl = use_l ? xl[i] - ml : 0, dy = y[i] - my;
        sss += ds * ds; sll += dl * dl; ssl += ds * dl; ssy += ds * dy; sly += dl * dy;
    }
    gfit f = { 0 };
    double det = sss * sll - ssl * ssl;
    if (use_s && use_l && det > 1e-9 * (sss * sll)) {
        f.bs = (sll * ssy - ssl * sly) / det;
        f.bl = (sss * sly - ssl * ssy) / det;
        if (f.bs < 0) return least_squares(xs, xl, y, n, false, true);
        if (f.bl < 0) return least_squares(xs, xl, y, n, true, false);
    } else if (use_s && sss > 0 && (!use_l || det <= 1e-9 * (sss * sll))) {
        f.bs = ssy > 0 ? ssy / sss : 0;      /* collinear: the sector term carries both */
    } else if (use_l && sll > 0) {
        f.bl = sly > 0 ? sly / sll : 0;
    }
    f.base = my - f.bs * ms - f.bl * ml;
    for (size_t i = 0; i < n; i++) {
        double r = y[i] - f.base - f.bs * xs[i] - f.bl * xl[i];
        f.rss += r * r;
    }
    double dof = (double)n - 3, s2 = dof > 0 ? f.rss / dof : NAN;
    double ds = det > 1e-9 * (sss * sll) ? det : 0;
    f.se_s = ds > 0 ? sqrt(s2 * sll / ds) : sss > 0 ? sqrt(s2 / sss) : NAN;
    f.se_l = ds > 0 ? sqrt(s2 * sss / ds) : sll > 0 ? sqrt(s2 / sll) : NAN;
    return f;
}


/* A hypothesis after dropping a cost that does not show: the unit sizes whose cost shows. */
typedef struct hyp {
    gfit fit;
    uint64_t sector, line;         /* canonical: equal when only one unit's cost shows */
    bool any_cost;
} hyp;

/* A cost shows when it is above twice its ci95 (4 standard errors) and explains at least
 * MIN_SHARE of the curve's range over the points (cost x the spread of its unit count). Once
 * its ci95 was the bar: on an H100 a 16-B "sector" of 0.37 +- 0.24 cycles per request beat the
 * 128-B line in four runs of five (the L2 warp sweep, whose points the model misses by 2
 * cycles rms), and 128 B won the fifth. */
#define MIN_SHARE 0.1
#define SHOWS_SE 4.0

static bool shows(double cost, double se, double count_spread, double y_range)
{
    bool significant = cost > SHOWS_SE * se || (cost > 0 && !(se > 0));
    return significant && cost * count_spread >= MIN_SHARE * y_range;
}

static double spread(const double *x, size_t n)
{
    double lo = x[0], hi = x[0];
    for (size_t k = 1; k < n; k++) { lo = x[k] < lo ? x[k] : lo; hi = x[k] > hi ? x[k] : hi; }
    return hi - lo;
}

static hyp canonical(gfit f, uint64_t sb, uint64_t lb, double s_spread, double l_spread,
                     double y_range)
{
    hyp h = { .fit = f, .sector = sb, .line = lb };
    bool s_shows = shows(f.bs, f.se_s, s_spread, y_range);
    bool l_shows = lb != sb && shows(f.bl, f.se_l, l_spread, y_range);
    if (!s_shows) h.sector = lb;
    if (!l_shows) h.line = s_shows ? sb : lb;
    if (!s_shows && !l_shows) h.sector = h.line = 0;
    h.any_cost = s_shows || l_shows;
    if (h.sector == h.line && h.any_cost)
        h.fit.bs = h.fit.bl = f.bs + f.bl, h.fit.se_s = h.fit.se_l = s_shows ? f.se_s : f.se_l;
    return h;
}

enum { MAX_HYP = 128 };

/* Every hypothesis (sector sb, line lb >= sb), canonical; returns how many. */
static size_t search_all(const uint64_t *ls, const double *y, size_t n, unsigned lanes,
                         unsigned eb, double *xs, double *xl, hyp *all)
{
    size_t count = 0;
    uint64_t first = 1;
    while (first < eb) first *= 2;
    for (uint64_t sb = first; sb <= 512; sb *= 2)
        for (uint64_t lb = sb; lb <= 4096 && count < MAX_HYP; lb *= 2) {
            for (size_t k = 0; k < n; k++) {
                xs[k] = gs_request_units(lanes, ls[k], eb, sb) - 1.0;
                xl[k] = lb == sb ? 0 : gs_request_units(lanes, ls[k], eb, lb) - 1.0;
            }
            all[count++] = canonical(least_squares(xs, xl, y, n, true, lb != sb), sb, lb,
                                     spread(xs, n), spread(xl, n), spread(y, n));
        }
    return count;
}

/* Decide from the hypotheses within rel_tie of the best residual. */
static void decide(const hyp *all, size_t count, double rel_tie, double noise_rss,
                   gs_granularity_fit *out, size_t m)
{
    size_t b = 0;
    if (count == 0) {
        snprintf(out->sector_reason, sizeof out->sector_reason, "no hypothesis to fit");
        snprintf(out->line_reason, sizeof out->line_reason, "no hypothesis to fit");
        return;
    }
    for (size_t i = 1; i < count; i++)
        if (all[i].fit.rss < all[b].fit.rss) b = i;
    const hyp *h = &all[b];
    out->sector_bytes = h->sector;
    out->line_bytes = h->line;
    out->base = h->fit.base;
    out->sector_cost = h->fit.bs;
    out->sector_ci95 = 1.96 * h->fit.se_s;
    out->line_cost = h->fit.bl;
    out->line_ci95 = 1.96 * h->fit.se_l;
    out->rms = sqrt(h->fit.rss / (double)m);
    double tie = h->fit.rss * (1 + rel_tie) + noise_rss + 1e-12;
    uint64_t alt_s = 0, alt_l = 0;
    for (size_t i = 0; i < count; i++) {
        if (all[i].fit.rss > tie) continue;
        if (all[i].sector != h->sector) alt_s = all[i].sector;
        if (all[i].line != h->line) alt_l = all[i].line;
    }
    out->sector_determined = h->any_cost && !alt_s;
    out->line_determined = h->any_cost && !alt_l;
    if (!h->any_cost) {
        snprintf(out->sector_reason, sizeof out->sector_reason, "no cost per sector or line is "
                 "visible above twice its ci95: the curve is flat");
        snprintf(out->line_reason, sizeof out->line_reason, "%s", out->sector_reason);
        return;
    }
    if (alt_s)
        snprintf(out->sector_reason, sizeof out->sector_reason, "sector sizes %llu B and %llu B "
                 "fit equally well", (unsigned long long)h->sector, (unsigned long long)alt_s);
    if (alt_l)
        snprintf(out->line_reason, sizeof out->line_reason, "line sizes %llu B and %llu B fit "
                 "equally well", (unsigned long long)h->line, (unsigned long long)alt_l);
}

int gs_granularity_infer(const uint64_t *lane_stride_bytes, const double *cost,
                         const double *cost_ci95, size_t n,
                         unsigned lanes, unsigned element_bytes, double rel_tie,
                         double max_rms_fraction, gs_granularity_fit *out)
{
    memset(out, 0, sizeof *out);
    uint64_t *ls = malloc((n ? n : 1) * sizeof *ls);
    double *y = malloc((n ? n : 1) * sizeof *y), *xs = malloc((n ? n : 1) * sizeof *xs);
    double *xl = malloc((n ? n : 1) * sizeof *xl);
    hyp *all = calloc(MAX_HYP, sizeof *all);
    int rc = 0;
    if (!ls || !y || !xs || !xl || !all) {
        rc = -1;
        goto done;
    }
    size_t m = 0;
    double noise_rss = 0;
    for (size_t k = 0; k < n; k++)
        if (isfinite(cost[k]) && lane_stride_bytes[k] > 0) {
            ls[m] = lane_stride_bytes[k];
            y[m++] = cost[k];
            if (cost_ci95 && isfinite(cost_ci95[k]))
                noise_rss += (cost_ci95[k] / 1.96) * (cost_ci95[k] / 1.96);
        }
    out->points = m;
    if (m < 4 || element_bytes == 0 || lanes < 2) {
        snprintf(out->sector_reason, sizeof out->sector_reason, "too few points (%zu; need 4 lane "
                 "strides and 2 or more lanes)", m);
        snprintf(out->line_reason, sizeof out->line_reason, "%s", out->sector_reason);
        goto done;
    }
    decide(all, search_all(ls, y, m, lanes, element_bytes, xs, xl, all), rel_tie, noise_rss, out, m);
    double lo = y[0], hi = y[0];
    for (size_t k = 1; k < m; k++) { lo = y[k] < lo ? y[k] : lo; hi = y[k] > hi ? y[k] : hi; }
    if (out->rms > max_rms_fraction * (hi - lo)) {
        out->sector_determined = out->line_determined = false;
        snprintf(out->sector_reason, sizeof out->sector_reason, "the curve does not follow the "
                 "sector/line model: residual rms %.3g is over %.0f%% of its range %.3g",
                 out->rms, max_rms_fraction * 100, hi - lo);
        snprintf(out->line_reason, sizeof out->line_reason, "%s", out->sector_reason);
    }
done:
    free(ls); free(y); free(xs); free(xl); free(all);
    return rc;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double gs_trimmed_mean(const double *x, size_t n, double trim_fraction)
{
    double *v = malloc((n ? n : 1) * sizeof *v);
    if (!v)
        return NAN;
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (isfinite(x[i]))
            v[m++] = x[i];
    double mean = NAN;
    if (m > 0 && trim_fraction >= 0 && trim_fraction < 0.5) {
        qsort(v, m, sizeof *v, cmp_double);
        size_t drop = (size_t)(trim_fraction * (double)m), kept = m - 2 * drop;
        double sum = 0;
        for (size_t i = drop; i < m - drop; i++)
            sum += v[i];
        mean = sum / (double)kept;
    }
    free(v);
    return mean;
}
