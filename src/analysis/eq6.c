/* Eq. 6 of the roofline paper fitted to a varying-size random walk (see eq6.h). For fixed
 * capacities the model is linear in the latencies, so those come from least squares; the
 * capacities are searched on a log grid (coordinate descent, then a finer local search), and the
 * number of levels is chosen by BIC with the acceptance rules of eq6.h. */
#include "analysis/eq6.h"

#include "analysis/stats.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#define GRID_PER_OCTAVE 16        /* capacity search resolution: 4.4% ... */
#define FINE_STEPS 32             /* ... then 0.14% in the final local search */
#define REFINE_ROUNDS 3
#define MIN_STEP_SD 4.0           /* a step must rise by more than this many residual sd */
#define MIN_STEP_REL 0.15         /* ... and by more than this fraction of the latency below */
#define MIN_CAPACITY_RATIO 2.0    /* two levels closer than this are one level */
#define JACK_WINDOW 0.5           /* octaves a leave-one-out refit may move a step */

#define P_MAX (GS_EQ6_MAX_LEVELS + 1)   /* columns of the basis: Λ_0 and each step */

typedef struct curve {
    double *s, *y;
    size_t n;
    const double *gs;             /* sharpnesses to try */
    int ng;
    double *phi;                  /* scratch: each point's basis, P_MAX apart (lsq's table) */
} curve;

typedef struct step {
    double cap, g;
} step;

/* The fraction of accesses past a cache of capacity c at array size s: 1 - (c/s)^g, or 0. */
static double past(double c, double s, double g)
{
    if (s <= c)
        return 0.0;
    double r = c / s, h = g;
    /* the tried sharpnesses are powers of 2: square while h is an even integer (h / 2 and its
       floor are exact, so this is fmod(h, 2) == 0 without a call, the fit's costliest part) */
    while (h >= 2 && isfinite(h) && h == 2 * floor(h / 2)) {
        r *= r;
        h /= 2;
    }
    return 1.0 - (h == 1 ? r : pow(r, h));
}

double gs_eq6_eval(const gs_eq6_fit *fit, double size_bytes)
{
    double y = fit->latency[0];
    for (int k = 0; k < fit->levels; k++) {
        double g = fit->sharpness[k] > 0 ? fit->sharpness[k] : 1;
        y += (fit->latency[k + 1] - fit->latency[k]) * past(fit->capacity_bytes[k], size_bytes, g);
    }
    return y;
}

/* Solve the p x p system a x = b in place (partial pivoting); -1 when singular. */
static int solve(double a[][GS_EQ6_MAX_LEVELS + 1], double *b, int p)
{
    for (int c = 0; c < p; c++) {
        int piv = c;
        for (int r = c + 1; r < p; r++)
            if (fabs(a[r][c]) > fabs(a[piv][c]))
                piv = r;
        if (fabs(a[piv][c]) < 1e-12)
            return -1;
        for (int k = 0; k < p; k++) {
            double t = a[c][k]; a[c][k] = a[piv][k]; a[piv][k] = t;
        }
        double t = b[c]; b[c] = b[piv]; b[piv] = t;
        for (int r = c + 1; r < p; r++) {
            double m = a[r][c] / a[c][c];
            for (int k = c; k < p; k++)
                a[r][k] -= m * a[c][k];
            b[r] -= m * b[c];
        }
    }
    for (int c = p - 1; c >= 0; c--) {
        for (int k = c + 1; k < p; k++)
            b[c] -= a[c][k] * b[k];
        b[c] /= a[c][c];
    }
    return 0;
}

static void basis(const step *st, int levels, double s, double *phi)
{
    phi[0] = 1.0;
    for (int k = 0; k < levels; k++)
        phi[k + 1] = past(st[k].cap, s, st[k].g);
}

/* Solve the normal equations ata x = atb (p unknowns) and return the RSS over the basis in
 * c->phi (INFINITY when singular); the solution goes to coef. */
static double solve_rss(const curve *c, double ata[][P_MAX], double *atb, int p, double *coef)
{
    if (solve(ata, atb, p) != 0)
        return INFINITY;
    double rss = 0;
    for (size_t i = 0; i < c->n; i++) {
        const double *phi = c->phi + i * P_MAX;
        double e = c->y[i];
        for (int k = 0; k < p; k++)
            e -= atb[k] * phi[k];
        rss += e * e;
    }
    memcpy(coef, atb, sizeof(double) * (size_t)p);
    return rss;
}

/* The basis of steps st at every point into c->phi, and the sums of the normal equations over
 * every column but skip (-1: none), in the points' order. */
static void normal_sums(const curve *c, const step *st, int levels, int skip,
                        double ata[][P_MAX], double *atb)
{
    int p = levels + 1;
    memset(ata, 0, sizeof(double) * P_MAX * P_MAX);
    memset(atb, 0, sizeof(double) * P_MAX);
    for (size_t i = 0; i < c->n; i++) {
        double *phi = c->phi + i * P_MAX;
        basis(st, levels, c->s[i], phi);
        for (int r = 0; r < p; r++) {
            if (r == skip)
                continue;
            atb[r] += phi[r] * c->y[i];
            for (int k = 0; k < p; k++)
                if (k != skip)
                    ata[r][k] += phi[r] * phi[k];
        }
    }
}

/* Least squares for the step heights with steps st (any order); returns the RSS (INFINITY when
 * singular) and writes Λ_0 and the heights into coef (levels + 1). */
static double lsq(const curve *c, const step *st, int levels, double *coef)
{
    double ata[P_MAX][P_MAX], atb[P_MAX];
    normal_sums(c, st, levels, -1, ata, atb);
    return solve_rss(c, ata, atb, levels + 1, coef);
}

/* lsq with one column free: the basis and the sums over the other columns are computed once
 * (normal_sums), and a candidate for level k rewrites only its column (k + 1) and the sums that
 * hold it. Each sum adds the same products in the same order as lsq, so the RSS and coefficients
 * are lsq's to the bit, at about 1 / (levels + 1) of its cost: the grid searches below were most
 * of a random-walk's host time. */
typedef struct one_free {
    int p, col;
    double ata[P_MAX][P_MAX], atb[P_MAX];           /* the sums without column col */
} one_free;

static double one_free_lsq(const curve *c, const one_free *f, step cand, double *coef)
{
    int p = f->p, col = f->col;
    double ata[P_MAX][P_MAX], atb[P_MAX];
    memcpy(ata, f->ata, sizeof ata);
    memcpy(atb, f->atb, sizeof atb);
    for (size_t i = 0; i < c->n; i++) {
        double *phi = c->phi + i * P_MAX;
        phi[col] = past(cand.cap, c->s[i], cand.g);
        /* a point at or below the capacity adds a product of 0 to each sum of the column: the
           sums start at +0 and never become -0 (an exact cancellation rounds to +0), so adding
           +0 or -0 leaves them as they are, and the point is passed by */
        if (c->s[i] <= cand.cap)
            continue;
        atb[col] += phi[col] * c->y[i];
        for (int r = 0; r < p; r++) {
            ata[r][col] += phi[r] * phi[col];
            if (r != col)
                ata[col][r] += phi[col] * phi[r];
        }
    }
    return solve_rss(c, ata, atb, p, coef);
}

/* Best capacity (log2 from lo to hi in steps of step_log2) and sharpness for level k, the
 * others fixed. */
static void search_level(const curve *c, step *st, int levels, int k, double lo, double hi,
                         double step_log2)
{
    double coef[P_MAX];
    step best = st[k];
    one_free f = {.p = levels + 1, .col = k + 1};
    normal_sums(c, st, levels, f.col, f.ata, f.atb);
    double best_rss = one_free_lsq(c, &f, st[k], coef);
    for (int gi = 0; gi < c->ng; gi++)
        for (double x = lo; x <= hi + 1e-9; x += step_log2) {
            st[k].cap = exp2(x);
            st[k].g = c->gs[gi];
            double rss = one_free_lsq(c, &f, st[k], coef);
            if (rss < best_rss) {
                best_rss = rss;
                best = st[k];
            }
        }
    st[k] = best;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Fit exactly `levels` steps: greedy placement, coordinate rounds, then a fine local search.
 * The steps come back sorted by capacity. */
static double fit_levels(const curve *c, int levels, step *st, double *coef)
{
    double lo = log2(c->s[0]), hi = log2(c->s[c->n - 1]), grid = 1.0 / GRID_PER_OCTAVE;
    for (int k = 0; k < levels; k++) {
        st[k] = (step){ c->s[0], 1 };
        search_level(c, st, k + 1, k, lo, hi, grid);
    }
    for (int round = 0; round < REFINE_ROUNDS; round++)
        for (int k = 0; k < levels; k++)
            search_level(c, st, levels, k, lo, hi, grid);
    for (int k = 0; k < levels; k++) {
        double x = log2(st[k].cap);
        search_level(c, st, levels, k, fmax(lo, x - grid), fmin(hi, x + grid),
                     grid / FINE_STEPS);
    }
    qsort(st, (size_t)levels, sizeof(step), cmp_double);   /* by cap, the first member */
    return lsq(c, st, levels, coef);
}

/* The acceptance rules of eq6.h for a fit of `levels` steps. */
static bool acceptable(const curve *c, const step *st, const double *coef, int levels,
                       double sd)
{
    double below = coef[0];
    for (int k = 0; k < levels; k++) {
        double rise = coef[k + 1];
        if (!(rise > MIN_STEP_SD * sd) || !(rise > MIN_STEP_REL * fabs(below)))
            return false;
        if (k > 0 && st[k].cap < MIN_CAPACITY_RATIO * st[k - 1].cap)
            return false;
        size_t past = 0;
        for (size_t i = 0; i < c->n; i++)
            past += c->s[i] > st[k].cap;
        if (past < 2)
            return false;
        below += rise;
    }
    return true;
}

static int load_curve(const double *size_bytes, const double *latency, size_t n, curve *c)
{
    double *pairs = malloc(sizeof(double) * 2 * (n ? n : 1));
    c->s = malloc(sizeof(double) * (n ? n : 1));
    c->y = malloc(sizeof(double) * (n ? n : 1));
    c->phi = malloc(sizeof(double) * P_MAX * (n ? n : 1));
    c->n = 0;
    if (!pairs || !c->s || !c->y || !c->phi) {
        free(pairs);
        return -1;
    }
    for (size_t i = 0; i < n; i++)
        if (isfinite(size_bytes[i]) && size_bytes[i] > 0 && isfinite(latency[i])) {
            pairs[2 * c->n] = size_bytes[i];
            pairs[2 * c->n + 1] = latency[i];
            c->n++;
        }
    qsort(pairs, c->n, 2 * sizeof(double), cmp_double);   /* sorts by the size, the first */
    for (size_t i = 0; i < c->n; i++) {
        c->s[i] = pairs[2 * i];
        c->y[i] = pairs[2 * i + 1];
    }
    free(pairs);
    return 0;
}

/* 95 % half-widths of the latencies Λ_k = coef[0] + coef[1] + .. + coef[k] of the linear least
 * squares with steps st: t(n - params) x s x sqrt(a_k' (X'X)^-1 a_k), a_k = (1, .., 1, 0, ..),
 * s the residual sd over n - params degrees of freedom. */
static void latency_intervals(const curve *c, const step *st, int levels, size_t params,
                              double sd, double *ci)
{
    int p = levels + 1;
    double ata[GS_EQ6_MAX_LEVELS + 1][GS_EQ6_MAX_LEVELS + 1] = {{0}};
    double phi[GS_EQ6_MAX_LEVELS + 1];
    for (int k = 0; k <= GS_EQ6_MAX_LEVELS; k++)
        ci[k] = NAN;
    if (c->n <= params || !isfinite(sd))
        return;
    for (size_t i = 0; i < c->n; i++) {
        basis(st, levels, c->s[i], phi);
        for (int r = 0; r < p; r++)
            for (int k = 0; k < p; k++)
                ata[r][k] += phi[r] * phi[k];
    }
    /* sd came with the linear parameters' degrees of freedom; the interval counts every fitted
     * parameter (capacities and sharpnesses too) */
    double rss = sd * sd * (double)(c->n - (size_t)p);
    double t = gs_t95(c->n - params), s = sqrt(rss / (double)(c->n - params));
    for (int k = 0; k < p; k++) {
        /* x = (X'X)^-1 a_k, then a_k' x */
        double a[GS_EQ6_MAX_LEVELS + 1][GS_EQ6_MAX_LEVELS + 1], x[GS_EQ6_MAX_LEVELS + 1];
        memcpy(a, ata, sizeof a);
        for (int j = 0; j < p; j++)
            x[j] = j <= k ? 1.0 : 0.0;
        if (solve(a, x, p) != 0)
            return;
        double v = 0;
        for (int j = 0; j <= k; j++)
            v += x[j];
        ci[k] = v > 0 ? t * s * sqrt(v) : NAN;
    }
}

/* Widen ci to the latencies of the fits that the data cannot tell from the best (cap_ci to their
 * capacities, g_ci to their sharpnesses): one level's capacity (on the search grid, kept between
 * its neighbours at MIN_CAPACITY_RATIO) and sharpness moved at a time, the others held, each fit
 * whose RSS stays within the 95 % bound of one more parameter (rss x (1 + t^2 / df)); ci[j]
 * becomes at least the farthest of their latency j from the best's. So a latency that leans on
 * where a step sits (a level with few sizes past it) gets the interval its step's place allows,
 * and a sharpness the range the data allow (an H100's ragged local-memory walk read 16 +- 8 and 2
 * in two reports, each interval from the jackknife alone). */
static void latency_envelope(const curve *c, const step *best, int levels, size_t params,
                             const double *best_coef, double *ci, double *cap_ci, double *g_ci)
{
    /* the envelope tests capacities on the coarse grid: a step is known at best to half its
     * spacing, even where every grid point but the best's own is refuted */
    for (int k = 0; k < levels; k++) {
        cap_ci[k] = best[k].cap * (exp2(0.5 / GRID_PER_OCTAVE) - 1);
        g_ci[k] = 0;
    }
    double coef[GS_EQ6_MAX_LEVELS + 1], lat_best[GS_EQ6_MAX_LEVELS + 1];
    if (levels == 0 || c->n <= params)
        return;
    double rss_best = lsq(c, best, levels, coef), df = (double)(c->n - params);
    double t = gs_t95(c->n - params), bound = rss_best * (1 + t * t / df);
    lat_best[0] = best_coef[0];
    for (int k = 0; k < levels; k++)
        lat_best[k + 1] = lat_best[k] + best_coef[k + 1];
    double lo = log2(c->s[0]), hi = log2(c->s[c->n - 1]), grid = 1.0 / GRID_PER_OCTAVE;
    for (int k = 0; k < levels; k++) {
        step st[GS_EQ6_MAX_LEVELS];
        memcpy(st, best, sizeof(step) * (size_t)levels);
        double below = k > 0 ? log2(best[k - 1].cap * MIN_CAPACITY_RATIO) : lo;
        double above = k + 1 < levels ? log2(best[k + 1].cap / MIN_CAPACITY_RATIO) : hi;
        for (int gi = 0; gi < c->ng; gi++)
            for (double x = fmax(lo, below); x <= fmin(hi, above) + 1e-9; x += grid) {
                st[k] = (step){ exp2(x), c->gs[gi] };
                double rss = lsq(c, st, levels, coef);
                if (!(rss <= bound))
                    continue;
                cap_ci[k] = fmax(cap_ci[k], fabs(st[k].cap - best[k].cap));
                g_ci[k] = fmax(g_ci[k], fabs(st[k].g - best[k].g));
                double lat = coef[0];
                for (int j = 0; j <= levels; j++) {
                    if (j > 0)
                        lat += coef[j];
                    double d = fabs(lat - lat_best[j]);
                    if (isfinite(ci[j]) && d > ci[j])
                        ci[j] = d;
                }
            }
    }
}

/* Refit the steps st (levels of them, sorted) to curve c from where they are: coordinate rounds,
 * each step within JACK_WINDOW octaves of its start and MIN_CAPACITY_RATIO of its neighbours,
 * every sharpness, then a fine search; the latencies into lat (levels + 1). Returns the RSS. */
static double refit_near(const curve *c, step *st, int levels, double *lat)
{
    double coef[GS_EQ6_MAX_LEVELS + 1], start[GS_EQ6_MAX_LEVELS];
    double grid = 1.0 / GRID_PER_OCTAVE;
    for (int k = 0; k < levels; k++)
        start[k] = log2(st[k].cap);
    for (int round = 0; round <= REFINE_ROUNDS; round++) {
        bool fine = round == REFINE_ROUNDS;
        for (int k = 0; k < levels; k++) {
            double x = log2(st[k].cap);
            double lo = fine ? x - grid : start[k] - JACK_WINDOW;
            double hi = fine ? x + grid : start[k] + JACK_WINDOW;
            if (k > 0)
                lo = fmax(lo, log2(st[k - 1].cap * MIN_CAPACITY_RATIO));
            if (k + 1 < levels)
                hi = fmin(hi, log2(st[k + 1].cap / MIN_CAPACITY_RATIO));
            search_level(c, st, levels, k, lo, hi, fine ? grid / 8 : grid);
        }
    }
    double rss = lsq(c, st, levels, coef);
    lat[0] = coef[0];
    for (int k = 0; k < levels; k++)
        lat[k + 1] = lat[k] + coef[k + 1];
    return rss;
}

/* t x the jackknife's standard error of n leave-one-out values x[0], x[stride], ..:
 * t x sqrt((n - 1) / n x the sum of squares about their mean). */
static double jack_half(const double *x, size_t n, size_t stride, double t)
{
    double mean = 0, ss = 0;
    for (size_t d = 0; d < n; d++)
        mean += x[d * stride] / (double)n;
    for (size_t d = 0; d < n; d++)
        ss += pow(x[d * stride] - mean, 2);
    return t * sqrt((double)(n - 1) / (double)n * ss);
}

/* Widen the intervals to a jackknife over the sizes walked: each size left out in turn and the
 * chosen fit's steps refitted near where they were (refit_near); a parameter's half-width
 * becomes at least t(n - 1) x its jackknife standard error, sqrt((n - 1) / n x the sum of
 * squares about the refits' mean), and a sharpness's the farthest refit's from the best; the
 * residual sd gets the same jackknife's half-width (residual_sd_ci95). A
 * curve whose sizes each pull the fit its own way (an H100's local-memory walk past the L1,
 * where single sizes read 120 cycles off their neighbours) gets the interval its scatter
 * allows, where the least squares' standard error, which believes the model, does not. */
static void jackknife(const curve *c, const step *best, int levels, gs_eq6_fit *fit)
{
    size_t n = c->n;
    int p = levels + 1;
    if (levels == 0 || n < 5)
        return;
    double *lat = malloc(sizeof(double) * n * (size_t)p);
    double *cap = malloc(sizeof(double) * n * (size_t)levels);   /* log2 of each refit's */
    double *sd = malloc(sizeof(double) * n);
    curve sub = *c;
    sub.s = malloc(sizeof(double) * n);
    sub.y = malloc(sizeof(double) * n);
    sub.n = n - 1;
    if (!lat || !cap || !sd || !sub.s || !sub.y)
        goto out;
    for (size_t d = 0; d < n; d++) {
        for (size_t i = 0, j = 0; i < n; i++)
            if (i != d) {
                sub.s[j] = c->s[i];
                sub.y[j++] = c->y[i];
            }
        step st[GS_EQ6_MAX_LEVELS];
        memcpy(st, best, sizeof(step) * (size_t)levels);
        double rss = refit_near(&sub, st, levels, lat + d * (size_t)p);
        sd[d] = sqrt(rss / (double)(n - 1 - (size_t)p));   /* as the fit's: linear dof */
        for (int k = 0; k < levels; k++) {
            cap[d * (size_t)levels + (size_t)k] = log2(st[k].cap);
            fit->sharpness_ci95[k] = fmax(fit->sharpness_ci95[k], fabs(st[k].g - best[k].g));
        }
    }
    double t = gs_t95(n - 1);
    for (int k = 0; k < p; k++) {
        double half = jack_half(lat + k, n, (size_t)p, t);
        if (isfinite(half) && !(fit->latency_ci95[k] >= half))
            fit->latency_ci95[k] = half;
    }
    fit->residual_sd_ci95 = jack_half(sd, n, 1, t);
    for (int k = 0; k < levels; k++) {
        /* on a log scale, as the search: the half-width in bytes above the best */
        double half = best[k].cap * (exp2(jack_half(cap + k, n, (size_t)levels, t)) - 1);
        if (isfinite(half) && !(fit->capacity_ci95[k] >= half))
            fit->capacity_ci95[k] = half;
    }
out:
    free(lat);
    free(cap);
    free(sd);
    free(sub.s);
    free(sub.y);
}

static void store(gs_eq6_fit *fit, int levels, const step *st, const double *coef, double sd)
{
    fit->levels = levels;
    fit->latency[0] = coef[0];
    for (int k = 0; k < levels; k++) {
        fit->capacity_bytes[k] = st[k].cap;
        fit->sharpness[k] = st[k].g;
        fit->latency[k + 1] = fit->latency[k] + coef[k + 1];
    }
    fit->residual_sd = sd;
}

static void reset(gs_eq6_fit *fit, size_t n)
{
    memset(fit, 0, sizeof(*fit));
    for (int k = 0; k <= GS_EQ6_MAX_LEVELS; k++)
        fit->latency[k] = fit->latency_ci95[k] = NAN;
    for (int k = 0; k < GS_EQ6_MAX_LEVELS; k++)
        fit->capacity_ci95[k] = NAN;   /* sharpness_ci95: 0 from the memset */
    fit->residual_sd = NAN;
    fit->n = n;
}

/* Parameters of a fit of `levels` steps: the latencies, the capacities and, where sharpness is
 * fitted too, the sharpnesses. */
static size_t fit_params(const curve *c, int levels)
{
    return (size_t)((c->ng > 1 ? 3 : 2) * levels + 1);
}

/* Whether every step of the fit rises by more than the two latencies' intervals together
 * (sqrt(ci_k^2 + ci_k+1^2)); an interval not known counts as none. The slowest level's latency
 * is an extrapolation past the largest size, its interval wide where the curve still rises
 * there, but the walks past its capacity show that it is at least as slow as the slowest of them
 * less its scatter (t x the residual sd, as gs_eq6_last_bounds): that step is resolved too when
 * the slowest walk rises past the level before by more than that level's interval and the
 * scatter. A random-replacement L2 walked to 3 x its size rose from 200 to 382 cycles with a
 * residual sd of 3, and its fit's limit 407 +- 179 was resolved or not as the walk at 3 x moved
 * by 0.3 cycles: one level was reported in place of two. */
static bool resolved(const curve *c, const gs_eq6_fit *fit)
{
    for (int k = 0; k < fit->levels; k++) {
        double a = fit->latency_ci95[k], b = fit->latency_ci95[k + 1];
        double ci = sqrt((isfinite(a) ? a * a : 0) + (isfinite(b) ? b * b : 0));
        if (fit->latency[k + 1] - fit->latency[k] > ci)
            continue;
        if (k + 1 < fit->levels)
            return false;
        double slowest = -INFINITY;
        for (size_t i = 0; i < c->n; i++)
            if (c->s[i] > fit->capacity_bytes[k])
                slowest = fmax(slowest, c->y[i]);
        size_t params = fit_params(c, fit->levels);
        double scatter = c->n > params ? gs_t95(c->n - params) * fit->residual_sd : INFINITY;
        if (!(slowest - scatter - fit->latency[k] > (isfinite(a) ? a : 0)))
            return false;
    }
    return true;
}

/* Fit every level count up to max_levels with the sharpnesses gs[0..ng); keep the lowest BIC
 * among the fits the acceptance rules allow, and widen its intervals (jackknife). */
static void select_levels(const curve *c, int max_levels, double floor_rss, gs_eq6_fit *fit)
{
    double best_bic = INFINITY;
    step best[GS_EQ6_MAX_LEVELS];
    reset(fit, c->n);
    for (int levels = 0; levels <= max_levels && (size_t)(3 * levels + 1) < c->n; levels++) {
        step st[GS_EQ6_MAX_LEVELS];
        double coef[GS_EQ6_MAX_LEVELS + 1];
        double rss = fit_levels(c, levels, st, coef);
        if (!isfinite(rss))
            continue;
        size_t p = fit_params(c, levels);
        double sd = sqrt(rss / (double)(c->n - (size_t)levels - 1));
        double bic = (double)c->n * log(fmax(rss, floor_rss) / (double)c->n)
                     + (double)p * log((double)c->n);
        if (bic < best_bic && acceptable(c, st, coef, levels, sd)) {
            best_bic = bic;
            store(fit, levels, st, coef, sd);
            latency_intervals(c, st, levels, p, sd, fit->latency_ci95);
            latency_envelope(c, st, levels, p, coef, fit->latency_ci95, fit->capacity_ci95,
                             fit->sharpness_ci95);
            memcpy(best, st, sizeof(step) * (size_t)levels);
        }
    }
    jackknife(c, best, fit->levels, fit);
}

/* The BIC's choice, then fewer levels while a step does not rise beyond its latencies'
 * intervals: a level the data cannot place is not reported as one. An H200's global walk
 * had a third level between the far L2 and DRAM, 568 +- 165 cycles after 281 and
 * before 660, in one run; the next run's search missed it and gave two; both now give two. */
static int fit_with(const double *size_bytes, const double *latency, size_t n, int max_levels,
                    const double *gs, int ng, gs_eq6_fit *fit)
{
    reset(fit, 0);
    curve c = { .gs = gs, .ng = ng };
    int rc = -1;
    if (load_curve(size_bytes, latency, n, &c) != 0)
        goto out;
    fit->n = c.n;
    if (c.n >= 3) {
        if (max_levels > GS_EQ6_MAX_LEVELS)
            max_levels = GS_EQ6_MAX_LEVELS;
        double mean_abs = 0;
        for (size_t i = 0; i < c.n; i++)
            mean_abs += fabs(c.y[i]) / (double)c.n;
        double floor_rss = (double)c.n * pow(1e-6 * (mean_abs > 0 ? mean_abs : 1), 2);
        select_levels(&c, max_levels, floor_rss, fit);
        while (fit->levels > 0 && !resolved(&c, fit))
            select_levels(&c, fit->levels - 1, floor_rss, fit);
        rc = 0;
    }
out:
    free(c.s);
    free(c.y);
    free(c.phi);
    return rc;
}

int gs_eq6_fit_curve(const double *size_bytes, const double *latency, size_t n, int max_levels,
                     gs_eq6_fit *fit)
{
    static const double eq6[] = { 1 };
    return fit_with(size_bytes, latency, n, max_levels, eq6, 1, fit);
}

int gs_eq6_fit_curve_sharp(const double *size_bytes, const double *latency, size_t n,
                           int max_levels, gs_eq6_fit *fit)
{
    static const double gs[] = { 1, 2, 4, 8, 16, 32 };
    return fit_with(size_bytes, latency, n, max_levels, gs, (int)(sizeof gs / sizeof gs[0]), fit);
}

int gs_eq6_last_bounds(const double *size_bytes, const double *latency, size_t n, double fastest,
                       double cached_bytes, double margin, double *lo, double *hi)
{
    *lo = -INFINITY;
    *hi = INFINITY;
    bool any = false;
    for (size_t i = 0; i < n; i++) {
        double s = size_bytes[i], y = latency[i];
        if (!isfinite(s) || !(s > 0) || !isfinite(y))
            continue;
        any = true;
        *lo = fmax(*lo, y - margin);
        if (!(s > cached_bytes))
            continue;
        double h = cached_bytes > 0 ? cached_bytes / s : 0;
        *hi = fmin(*hi, (y + margin - fastest * h) / (1 - h));
    }
    return any && isfinite(*hi) ? 0 : -1;
}

/* The bytes the caches in front of level k can hold: the fitted capacities below it with their
 * intervals. */
static double cached_before(const gs_eq6_fit *fit, int k)
{
    double cached = 0;
    for (int j = 0; j < k && j < fit->levels; j++)
        cached += fit->capacity_bytes[j] +
                  (isfinite(fit->capacity_ci95[j]) ? fit->capacity_ci95[j] : 0);
    return cached;
}

/* One walk as (size, latency), for plateau_scatter's sort. */
typedef struct walk_point {
    double s, y;
} walk_point;

static int by_size(const void *a, const void *b)
{
    double x = ((const walk_point *)a)->s, y = ((const walk_point *)b)->s;
    return (x > y) - (x < y);
}

/* How far one walk on a level's plateau, the sizes from `from` to `to`, may lie from the truth:
 * t x the scatter of single walks there, from the differences of neighbours (each walk against
 * the line through the walks on either side, in log size, scaled to one walk's sd), which a
 * smooth trend along the plateau does not enter. NaN with fewer than four such walks. The
 * fit's residual sd is the scatter of every walk about one curve, and a hit curve that is not
 * (C/s)^g at the steps enters it too (on an H200 4.5-5.1 cycles, the walks on the L2's plateau
 * 0.2-0.3 apart against their neighbours). */
static double plateau_scatter(const double *size_bytes, const double *latency, size_t n,
                              double from, double to)
{
    walk_point *w = malloc((n ? n : 1) * sizeof *w);
    if (!w)
        return NAN;
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (isfinite(size_bytes[i]) && size_bytes[i] >= from && size_bytes[i] <= to &&
            size_bytes[i] > 0 && isfinite(latency[i]))
            w[m++] = (walk_point){size_bytes[i], latency[i]};
    qsort(w, m, sizeof *w, by_size);
    double sum = 0;
    size_t used = 0;
    for (size_t i = 1; i + 1 < m; i++) {
        double a = log(w[i - 1].s), b = log(w[i].s), c = log(w[i + 1].s);
        if (!(c > a))
            continue;
        double f = (c - b) / (c - a);
        double e = (w[i].y - f * w[i - 1].y - (1 - f) * w[i + 1].y) /
                   sqrt(1 + f * f + (1 - f) * (1 - f));
        sum += e * e;
        used++;
    }
    free(w);
    return used >= 2 ? gs_t95(used) * sqrt(sum / (double)used) : NAN;
}

/* gs_eq6_widen_between's two bounds on level k's latency (0 < k < levels), each walk allowed
 * margin, or the scatter of the level's plateau (the walks at least twice the caches in front
 * and at most half its capacity less its interval) where that is less. The upper bound takes
 * the walks at least twice the caches in front: nearer, 1 / (1 - h) multiplies an error of
 * their fitted capacity (an L1 of unequal sets fitted at 4,035 +- 168 B put the bound 3 cycles
 * under the L2's hit from its 8-KB walk). */
static void level_bounds(const gs_eq6_fit *fit, int k, const double *size_bytes,
                         const double *latency, size_t n, double margin, double *lo, double *hi)
{
    double ci = fit->capacity_ci95[k];
    double below = fit->capacity_bytes[k] - (isfinite(ci) ? ci : 0);
    double cached = cached_before(fit, k), fastest = fit->latency[0];
    double own = plateau_scatter(size_bytes, latency, n, 2 * cached, below / 2);
    if (isfinite(own) && own < margin)
        margin = own;
    *lo = -INFINITY;
    *hi = INFINITY;
    for (size_t i = 0; i < n; i++) {
        double s = size_bytes[i], y = latency[i];
        if (!isfinite(s) || !(s > 0) || !isfinite(y))
            continue;
        if (s <= below)
            *lo = fmax(*lo, y - margin);
        if (s > 2 * cached) {
            double h = cached / s;
            *hi = fmin(*hi, (y + margin - fastest * h) / (1 - h));
        }
    }
}

unsigned gs_eq6_widen_between(gs_eq6_fit *fit, const double *size_bytes, const double *latency,
                              size_t n, double margin, double *lo, double *hi)
{
    unsigned conflicts = 0;
    for (int k = 0; k <= GS_EQ6_MAX_LEVELS; k++) {
        lo[k] = -INFINITY;
        hi[k] = INFINITY;
    }
    for (int k = 1; k < fit->levels; k++) {
        level_bounds(fit, k, size_bytes, latency, n, margin, &lo[k], &hi[k]);
        if (lo[k] > hi[k]) {
            conflicts |= 1u << k;
            continue;
        }
        double v = fit->latency[k], ci = fit->latency_ci95[k];
        if (!isfinite(v) || !isfinite(ci))
            continue;
        if (isfinite(lo[k]) && isfinite(hi[k])) {
            /* both bounds hold whatever the curve's shape: the level is where they put it */
            fit->latency[k] = (lo[k] + hi[k]) / 2;
            fit->latency_ci95[k] = (hi[k] - lo[k]) / 2;
            continue;
        }
        if (isfinite(lo[k]))
            ci = fmax(ci, fabs(v - lo[k]));
        if (isfinite(hi[k]))
            ci = fmax(ci, fabs(hi[k] - v));
        fit->latency_ci95[k] = ci;
    }
    return conflicts;
}

double gs_eq6_cached_bound(const gs_eq6_fit *fit, double last_at_least)
{
    double cached = 0, last = 0;
    for (int k = 0; k < fit->levels; k++) {
        double ci = isfinite(fit->capacity_ci95[k]) ? fit->capacity_ci95[k] : 0;
        last = fit->capacity_bytes[k] + ci;
        cached += last;
    }
    return cached - last + fmax(last, last_at_least);
}
