/* Inference of shared-memory banks (bank count, bank width, cost per way of conflict) from
 * latency-vs-stride curves of several access widths; see analysis/banks.h for the method. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/banks.h"

#define WARP_LANES 32u
#define MAX_REQUESTS (WARP_LANES * 16u)

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

static int width_index(unsigned access_bytes)
{
    for (int k = 0; k < GS_BANK_WIDTHS; k++)
        if (access_bytes == 1u << k)
            return k;
    return -1;
}

/* Passes for one phase: words[] are the bank words asked for (one per lane and word covered). */
static unsigned phase_passes(uint64_t *words, unsigned n, unsigned banks, bool multicast)
{
    qsort(words, n, sizeof *words, cmp_u64);
    uint64_t broadcast = UINT64_MAX;
    unsigned best_run = 0;
    for (unsigned i = 0, run = 0; i < n; i++) {       /* the most-read word: broadcast */
        run = (i > 0 && words[i] == words[i - 1]) ? run + 1 : 1;
        if (run > best_run) { best_run = run; broadcast = words[i]; }
    }
    unsigned per_bank[256] = { 0 }, passes = 1;
    for (unsigned i = 0; i < n; i++) {
        bool repeat = i > 0 && words[i] == words[i - 1];
        if (repeat && (multicast || words[i] == broadcast))
            continue;
        unsigned bank = (unsigned)(words[i] % banks);
        if (++per_bank[bank] > passes)
            passes = per_bank[bank];
    }
    return passes;
}

unsigned gs_bank_predict_wavefronts(unsigned banks, unsigned bank_width_bytes, bool multicast,
                                    unsigned access_bytes, unsigned stride_elems,
                                    unsigned group_lanes)
{
    if (banks < 1 || banks > 256 || bank_width_bytes < 1 || access_bytes < 1 || access_bytes > 16)
        return 0;
    unsigned group = group_lanes > 1 ? group_lanes : 1;
    unsigned lanes = banks * bank_width_bytes / access_bytes;
    lanes = lanes < 1 ? 1 : lanes > WARP_LANES ? WARP_LANES : lanes;
    unsigned total = 0;
    for (unsigned first = 0; first < WARP_LANES; first += lanes) {
        uint64_t words[MAX_REQUESTS];
        unsigned n = 0;
        for (unsigned lane = first; lane < first + lanes && lane < WARP_LANES; lane++) {
            uint64_t addr = (uint64_t)(lane / group) * stride_elems * access_bytes;
            for (uint64_t w = addr / bank_width_bytes;
                 w <= (addr + access_bytes - 1) / bank_width_bytes && n < MAX_REQUESTS; w++)
                words[n++] = w;
        }
        total += phase_passes(words, n, banks, multicast);
    }
    return total;
}

/* Least squares with one intercept per access width and a common slope (>= 0). */
typedef struct hyp_fit {
    double slope, rss, sxx, intercept[GS_BANK_WIDTHS];
} hyp_fit;

static hyp_fit fit_hypothesis(const gs_bank_point *p, size_t n, unsigned banks, unsigned width,
                              bool multicast)
{
    double sum_n[GS_BANK_WIDTHS] = { 0 }, sum_l[GS_BANK_WIDTHS] = { 0 }, cnt[GS_BANK_WIDTHS] = { 0 };
    double *pred = malloc((n ? n : 1) * sizeof *pred);
    hyp_fit f = { .rss = INFINITY };
    if (!pred)
        return f;
    for (size_t i = 0; i < n; i++) {
        int k = width_index(p[i].access_bytes);
        if (k < 0) continue;
        pred[i] = gs_bank_predict_wavefronts(banks, width, multicast, p[i].access_bytes,
                                             p[i].stride_elems, p[i].group_lanes);
        sum_n[k] += pred[i]; sum_l[k] += p[i].latency_cycles; cnt[k] += 1;
    }
    double sxy = 0, sxx = 0;
    for (size_t i = 0; i < n; i++) {
        int k = width_index(p[i].access_bytes);
        if (k < 0) continue;
        double dn = pred[i] - sum_n[k] / cnt[k];
        sxx += dn * dn;
        sxy += dn * (p[i].latency_cycles - sum_l[k] / cnt[k]);
    }
    f.slope = sxx > 0 && sxy > 0 ? sxy / sxx : 0;
    f.sxx = sxx;
    f.rss = 0;
    for (int k = 0; k < GS_BANK_WIDTHS; k++)
        f.intercept[k] = cnt[k] > 0 ? (sum_l[k] - f.slope * sum_n[k]) / cnt[k] : NAN;
    for (size_t i = 0; i < n; i++) {
        int k = width_index(p[i].access_bytes);
        if (k < 0) continue;
        double r = p[i].latency_cycles - f.intercept[k] - f.slope * pred[i];
        f.rss += r * r;
    }
    free(pred);
    return f;
}

/* Counts usable points per width; 0 when every width present has at least 3 points. */
static int count_points(const gs_bank_point *p, size_t n, gs_bank_fit *out, size_t *widths)
{
    size_t per[GS_BANK_WIDTHS] = { 0 };
    out->points = 0;
    for (size_t i = 0; i < n; i++) {
        int k = width_index(p[i].access_bytes);
        if (k < 0 || !isfinite(p[i].latency_cycles)) continue;
        per[k]++;
        out->points++;
    }
    *widths = 0;
    for (int k = 0; k < GS_BANK_WIDTHS; k++) {
        out->has_width[k] = per[k] > 0;
        *widths += per[k] > 0;
        if (per[k] > 0 && per[k] < 3)
            return -1;
    }
    return out->points == 0 ? -1 : 0;
}

static size_t finite_points(const gs_bank_point *p, size_t n, gs_bank_point *keep)
{
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (isfinite(p[i].latency_cycles) && width_index(p[i].access_bytes) >= 0)
            keep[m++] = p[i];
    return m;
}

int gs_bank_infer(const gs_bank_point *points, size_t n, double rel_tie, gs_bank_fit *out)
{
    memset(out, 0, sizeof *out);
    size_t widths = 0;
    if (count_points(points, n, out, &widths) != 0) {
        snprintf(out->reason, sizeof out->reason, "too few points: every access width needs at "
                 "least 3 strides (%zu points usable)", out->points);
        return 0;
    }
    gs_bank_point *p = malloc(n * sizeof *p);
    if (!p) { snprintf(out->reason, sizeof out->reason, "out of host memory"); return -1; }
    n = finite_points(points, n, p);
    hyp_fit best = { .rss = INFINITY }, second = { .rss = INFINITY };
    for (unsigned banks = 2; banks <= 256; banks *= 2)
        for (unsigned width = 1; width <= 16; width *= 2) {
            hyp_fit f = fit_hypothesis(p, n, banks, width, true);
            hyp_fit g = fit_hypothesis(p, n, banks, width, false);
            bool multicast = f.rss <= g.rss;
            hyp_fit *h = multicast ? &f : &g;
            if (h->rss < best.rss) {
                if (best.rss < INFINITY) { second = best; out->runner_up_banks = out->banks;
                                           out->runner_up_width_bytes = out->bank_width_bytes; }
                best = *h; out->banks = banks; out->bank_width_bytes = width;
                out->multicast = multicast;
                out->other_rule_rms_cycles = (multicast ? g.rss : f.rss);
            } else if (h->rss < second.rss) {
                second = *h; out->runner_up_banks = banks; out->runner_up_width_bytes = width;
            }
        }
    free(p);
    double dof = (double)out->points - (double)widths - 1;
    out->conflict_cycles_per_way = best.slope;
    out->conflict_ci95 = dof > 0 && best.sxx > 0 ? 1.96 * sqrt(best.rss / dof / best.sxx) : NAN;
    memcpy(out->intercept_cycles, best.intercept, sizeof best.intercept);
    out->rms_cycles = sqrt(best.rss / (double)out->points);
    out->runner_up_rms_cycles = sqrt(second.rss / (double)out->points);
    out->rule_determined = out->other_rule_rms_cycles > best.rss * (1 + rel_tie) + 1e-12;
    out->other_rule_rms_cycles = sqrt(out->other_rule_rms_cycles / (double)out->points);
    if (dof <= 0)
        snprintf(out->reason, sizeof out->reason, "too few points for a fit (%zu)", out->points);
    else if (!(best.slope > out->conflict_ci95))
        snprintf(out->reason, sizeof out->reason, "no bank conflicts visible: the cost per way "
                 "(%.3g cycles) is not above its ci95 (%.3g)", best.slope, out->conflict_ci95);
    else if (second.rss <= best.rss * (1 + rel_tie) + 1e-12)
        snprintf(out->reason, sizeof out->reason, "%u banks x %u B and %u banks x %u B explain the "
                 "curves equally well (rms %.3g vs %.3g cycles); measure more widths or strides",
                 out->banks, out->bank_width_bytes, out->runner_up_banks,
                 out->runner_up_width_bytes, out->rms_cycles, out->runner_up_rms_cycles);
    else
        out->determined = true;
    return 0;
}

double gs_bank_fit_predict(const gs_bank_fit *fit, bool multicast, const gs_bank_point *point)
{
    int k = width_index(point->access_bytes);
    if (k < 0 || !fit->has_width[k])
        return NAN;
    unsigned w = gs_bank_predict_wavefronts(fit->banks, fit->bank_width_bytes, multicast,
                                            point->access_bytes, point->stride_elems,
                                            point->group_lanes);
    return fit->intercept_cycles[k] + fit->conflict_cycles_per_way * w;
}
