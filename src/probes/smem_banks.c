/* Probe `smem-banks`: shared-memory bank conflicts (memory-hierarchy paper, section 3.1 Listing 1
 * and section 4.1). One warp reads shared memory, lane i at element i * stride, for strides
 * 0..64 and access widths 2, 4, 8 and 16 bytes; each access's latency comes from a chain of
 * dependent loads timed with the SM clock (the backend's bank operation). Lanes sharing words
 * (groups) test multicast. analysis/banks.c infers the bank count, bank width and cost per way. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/banks.h"
#include "analysis/stats.h"
#include "probes/probe.h"
#include "util/interrupt.h"

static struct {
    const char *widths;
    long long max_stride;
    long long repeats;
} opt;

const gs_opt gs_probe_smem_banks_opts[] = {
    {"widths", GS_OPT_STRING, &opt.widths, "LIST", "access widths in bytes (default 2,4,8,16)",
     NULL, 0, 0},
    {"max-stride", GS_OPT_INT, &opt.max_stride, "N", "largest stride in elements (default 64)",
     NULL, 2, 1024},
    {"repeats", GS_OPT_INT, &opt.repeats, "N",
     "timed repetitions per stride (default 16, 64 with --thorough)", NULL, 1, 4096},
    GS_OPT_END,
};

static const unsigned groups[] = { 2, 4, 8, 16, 32 };
static const unsigned group_strides[] = { 1, 2, 32 };
#define N_GROUP_POINTS (sizeof groups / sizeof groups[0] * sizeof group_strides / sizeof group_strides[0])

typedef struct bank_run {
    gs_bank_point *points;
    double *ci95;                 /* per point */
    size_t n, cap;
} bank_run;

static int parse_widths(const char *text, unsigned *widths, int *count, gs_error *err)
{
    *count = 0;
    const char *s = text;
    while (*s) {
        char *end;
        unsigned long w = strtoul(s, &end, 10);
        if (end == s || (w != 2 && w != 4 && w != 8 && w != 16) || *count == 4)
            return gs_fail(err, GS_ERR_USAGE, "--widths %s: give up to 4 of 2,4,8,16 separated "
                           "by commas", text);
        widths[(*count)++] = (unsigned)w;
        s = *end == ',' ? end + 1 : end;
        if (*end && *end != ',')
            return gs_fail(err, GS_ERR_USAGE, "--widths %s: separate widths by commas", text);
    }
    return *count ? 0 : gs_fail(err, GS_ERR_USAGE, "--widths: give at least one width");
}

/* One plan: repeats timed accesses, summarized (median, ci95) into the next point. */
static int measure(gs_probe_ctx *ctx, bank_run *r, unsigned width, unsigned stride,
                   unsigned group, double *samples, gs_error *err)
{
    if (gs_interrupted())
        return gs_fail(err, GS_ERR_INTERRUPTED, "interrupted");
    gs_bank_plan plan = { .access_bytes = width, .stride_elems = stride, .group_lanes = group,
                          .repeats = (unsigned)opt.repeats };
    gs_bank_result res = { .cycles = samples };
    int rc = ctx->backend->ops->bank(ctx->backend, &plan, &res, err);
    if (rc)
        return rc;
    gs_summary s = gs_summarize_robust(samples, res.n, 5);
    r->points[r->n] = (gs_bank_point){ .access_bytes = width, .stride_elems = stride,
                                       .group_lanes = group, .latency_cycles = s.median };
    r->ci95[r->n++] = s.ci95;
    return 0;
}

static int sweep(gs_probe_ctx *ctx, bank_run *r, const unsigned *widths, int nw, gs_error *err)
{
    double *samples = calloc((size_t)opt.repeats, sizeof *samples);
    if (!samples)
        return gs_fail(err, GS_ERR_NO_MEMORY, "out of host memory for %lld samples", opt.repeats);
    int rc = 0;
    for (int k = 0; k < nw && !rc; k++) {
        gs_progress(ctx, "smem-banks: %u-byte accesses, strides 0..%lld", widths[k], opt.max_stride);
        for (unsigned s = 0; s <= (unsigned)opt.max_stride && !rc; s++)
            rc = measure(ctx, r, widths[k], s, 1, samples, err);
    }
    unsigned gw = widths[0];
    for (int k = 0; k < nw; k++)
        if (widths[k] == 4) gw = 4;
    if (!rc)
        gs_progress(ctx, "smem-banks: multicast, %u-byte accesses, lanes in groups", gw);
    for (size_t g = 0; g < sizeof groups / sizeof groups[0] && !rc; g++)
        for (size_t s = 0; s < sizeof group_strides / sizeof group_strides[0] && !rc; s++)
            rc = measure(ctx, r, gw, group_strides[s], groups[g], samples, err);
    free(samples);
    return rc;
}

/* Series per width: measured median latency, its ci95, and what the fit predicts. */
static void record_series(gs_probe_out *p, const bank_run *r, const gs_bank_fit *fit)
{
    double *x = calloc(r->n + 1, sizeof *x), *y = calloc(r->n + 1, sizeof *y);
    double *c = calloc(r->n + 1, sizeof *c), *f = calloc(r->n + 1, sizeof *f);
    for (unsigned w = 2; x && y && c && f && w <= 16; w *= 2) {
        size_t m = 0;
        for (size_t i = 0; i < r->n; i++) {
            if (r->points[i].access_bytes != w || r->points[i].group_lanes > 1) continue;
            x[m] = r->points[i].stride_elems;
            y[m] = r->points[i].latency_cycles;
            c[m] = r->ci95[i];
            f[m++] = fit->points ? gs_bank_fit_predict(fit, fit->multicast, &r->points[i]) : NAN;
        }
        if (!m) continue;
        char name[48];
        snprintf(name, sizeof name, "latency_w%u", w);
        gs_series(p, name, "stride", "elements", "latency", "cycles", x, y, m);
        snprintf(name, sizeof name, "latency_ci95_w%u", w);
        gs_series(p, name, "stride", "elements", "ci95", "cycles", x, c, m);
        snprintf(name, sizeof name, "fit_w%u", w);
        gs_series(p, name, "stride", "elements", "latency", "cycles", x, f, m);
    }
    for (size_t g = 0; x && y && g < sizeof groups / sizeof groups[0]; g++) {
        size_t m = 0;
        for (size_t i = 0; i < r->n; i++)
            if (r->points[i].group_lanes == groups[g]) {
                x[m] = r->points[i].stride_elems;
                y[m++] = r->points[i].latency_cycles;
            }
        char name[48];
        snprintf(name, sizeof name, "multicast_g%u", groups[g]);
        if (m) gs_series(p, name, "stride", "elements", "latency", "cycles", x, y, m);
    }
    free(x); free(y); free(c); free(f);
}

/* The latency (median, ci95) of one measured point, or NAN. */
static const gs_bank_point *find_point(const bank_run *r, unsigned w, unsigned s, double *ci)
{
    for (size_t i = 0; i < r->n; i++)
        if (r->points[i].access_bytes == w && r->points[i].stride_elems == s &&
            r->points[i].group_lanes <= 1) {
            *ci = r->ci95[i];
            return &r->points[i];
        }
    return NULL;
}

static void record_latencies(gs_probe_out *p, const bank_run *r, unsigned w, size_t n)
{
    double ci = 0;
    const gs_bank_point *q = find_point(r, w, 1, &ci);
    char name[48];
    snprintf(name, sizeof name, "latency_w%u_stride1_cycles", w);
    if (q) gs_figure(p, name, q->latency_cycles, "cycles", ci, n,
                     "median of repeats: one warp, lane i at element i (dependent loads / clock64)");
    q = find_point(r, w, 0, &ci);
    snprintf(name, sizeof name, "broadcast_w%u_cycles", w);
    if (q) gs_figure(p, name, q->latency_cycles, "cycles", ci, n,
                     "median of repeats: stride 0, every lane the same element (broadcast)");
}

static void record_fit(gs_probe_out *p, const gs_bank_fit *fit)
{
    const char *m = "least squares over hypotheses (banks 2..256, width 1..16 B): latency = "
                    "intercept(width) + cost x predicted wavefronts; smallest residual wins";
    if (fit->determined) {
        gs_figure(p, "banks", fit->banks, "banks", 0, fit->points, m);
        gs_figure(p, "bank_width_bytes", fit->bank_width_bytes, "B", 0, fit->points, m);
        gs_figure(p, "conflict_cycles_per_way", fit->conflict_cycles_per_way, "cycles",
                  fit->conflict_ci95, fit->points, "slope of that fit; ci95 = 1.96 x its standard error");
        char alt[64];
        snprintf(alt, sizeof alt, "%u x %u B", fit->runner_up_banks, fit->runner_up_width_bytes);
        gs_figure_text(p, "runner_up_hypothesis", alt, fit->points, m);
        gs_figure(p, "runner_up_rms_cycles", fit->runner_up_rms_cycles, "cycles", 0, fit->points,
                  "residual rms of the runner-up hypothesis");
    } else {
        gs_figure_nd(p, "banks", "banks", m, "%s", fit->reason);
        gs_figure_nd(p, "bank_width_bytes", "B", m, "%s", fit->reason);
        gs_figure_nd(p, "conflict_cycles_per_way", "cycles", m, "%s", fit->reason);
    }
    if (fit->points)
        gs_figure(p, "fit_rms_cycles", fit->rms_cycles, "cycles", 0, fit->points,
                  "residual rms of the chosen hypothesis over all widths and strides");
    const char *mm = "the broadcast rule (multicast: lanes reading one bank word share it; "
                     "single: one word per request) whose fit has the smaller residual";
    if (fit->determined && fit->rule_determined) {
        gs_figure_text(p, "broadcast_rule", fit->multicast ? "multicast" : "single", fit->points, mm);
        gs_figure(p, "other_rule_rms_cycles", fit->other_rule_rms_cycles, "cycles", 0, fit->points,
                  "residual rms of the same banks under the other broadcast rule");
    } else {
        gs_figure_nd(p, "broadcast_rule", "", mm, "%s", fit->determined
                     ? "no measured point tells the rules apart" : "the bank fit is not determined");
    }
}

static int gs_probe_smem_banks_run(gs_probe_ctx *ctx, gs_error *err)
{
    opt.widths = "2,4,8,16";
    opt.max_stride = 64;
    opt.repeats = ctx->thorough ? 64 : 16;
    int rc = gs_probe_parse_opts(ctx, gs_probe_smem_banks_opts, err);
    unsigned widths[4];
    int nw = 0;
    if (rc || (rc = parse_widths(opt.widths, widths, &nw, err)))
        return rc;
    bank_run r = { .cap = (size_t)nw * (size_t)(opt.max_stride + 1) + N_GROUP_POINTS };
    r.points = calloc(r.cap, sizeof *r.points);
    r.ci95 = calloc(r.cap, sizeof *r.ci95);
    if (!r.points || !r.ci95) {
        free(r.points); free(r.ci95);
        return gs_fail(err, GS_ERR_NO_MEMORY, "out of host memory for %zu points", r.cap);
    }
    rc = sweep(ctx, &r, widths, nw, err);
    gs_probe_out *p = gs_run_add_probe(ctx->run, "smem-banks");
    gs_param_string(p, "widths", opt.widths);
    gs_param_int(p, "max_stride", opt.max_stride);
    gs_param_int(p, "repeats", opt.repeats);
    gs_bank_fit fit;
    if (gs_bank_infer(r.points, r.n, 0.02, &fit) != 0 && !rc)
        rc = gs_fail(err, GS_ERR_NO_MEMORY, "out of host memory in the bank fit");
    record_series(p, &r, &fit);
    for (int k = 0; k < nw; k++)
        record_latencies(p, &r, widths[k], (size_t)opt.repeats);
    if (!rc)
        record_fit(p, &fit);
    free(r.points); free(r.ci95);
    return rc;
}

/* The probe's descriptor (probe.h). */
static const char *const headline[] = {"banks", "bank_width_bytes", "conflict_cycles_per_way", "broadcast_rule", "latency_w4_stride1_cycles", NULL};
const gs_probe_def gs_probe_smem_banks_def = {
    .name = "smem-banks",
    .run = gs_probe_smem_banks_run,
    .flags = GS_PROBE_DEFAULT,
    .summary = "shared-memory bank count, bank width and cost per way of conflict, from stride "
               "sweeps",
    .opts = gs_probe_smem_banks_opts,
    .expected_s = 0.15,
    .expected_sim_s = 1.2,
    .keep_rank = 3,
    .hints = {.headline = headline},
};
