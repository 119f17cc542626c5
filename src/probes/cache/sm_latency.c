/* The L2 hit latency from every SM (docs/methods.md, "cache", "L2 hit latency by SM"). An SM's
 * distance from the L2 slices sets its hit latency: on an H100 one-walker walks read 276 to 307
 * cycles depending on the SM (the two SMs of a TPC alike), and a single walk used to run wherever
 * the scheduler put block 0, which changed from one process to the next. Every walk of the probe
 * now runs on one SM (plan.h, on_sm; SM 0 unless named), and this pass gives the spread. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/chain.h"
#include "analysis/sm_spread.h"
#include "probes/cache/internal.h"

#define SM_LAT_LINES 2048u           /* 256 KB of 128-B lines: inside any L2 and its near part */
/* Lines drawn at random fall into the L2's sets as balls into bins, and a set given more lines
 * than its ways misses on every visit of the cyclic walk: 2048 lines in a 512-KB L2 of 8 ways
 * (4 to a set on average) put 5 % of the accesses in such sets, and a model whose L2 hits in 371
 * cycles read a median of 385.7 over its SMs. At most this share of the L2's lines leaves one set
 * of W ways W / 16 lines on average, more than W of them a chance below 1e-8 for 8 ways. */
#define SM_LAT_L2_SHARE 16u
#define SM_LAT_MIN_LINES 64u
#define SM_LAT_REGION (32ull << 20)   /* drawn from 32 MB: 16 pages of 2 MB, not one page's */
#define SM_LAT_TIMED 8192u            /* accesses timed per SM: 0.3 cycles between passes */

static const char sm_lat_m[] =
    "average walk on the L2 path (ld.global.cg) over %zu lines drawn at random from %llu KB: 32 "
    "MB, so that many pages, and the slices their physical addresses hash to, are in it (256 "
    "contiguous KB moved an SM's reading by up to 2 cycles from one run to the next), or the "
    "first TLB level's reach where this run's TLB target found it smaller, so that every access "
    "hits that level; at most 1/16 of the L2's lines (so that hardly a set is given more lines "
    "than its ways), random cyclic order, two warm passes and 8192 timed accesses, run on each "
    "SM in turn (one block pinned by %%smid), two passes over the SMs, each over its own draw of "
    "lines; an SM's value is the mean of its two, the interval the largest difference between "
    "one SM's two passes (twice that for the spread); where the near part keeps no copies of far "
    "lines, near and far hits mixed";

/* The reach of the first TLB level on the L2 path where this run's cache probe determined it
 * (its l1tlb record's size_bytes), else 0. A walk over 32 MB past it timed a TLB miss on nearly
 * every access: a model with 32 entries of 64 KB read 229.4 cycles from every SM for an L2 hit
 * of 201.5. */
static uint64_t first_tlb_reach(const gs_probe_ctx *ctx)
{
    size_t i;
    json_t *rec;
    double reach;
    json_array_foreach(ctx->run->probes, i, rec) {
        const char *name = json_string_value(json_object_get(rec, "name"));
        const char *level = json_string_value(json_object_get(json_object_get(rec, "params"),
                                                              "level"));
        if (name && level && strcmp(name, "cache") == 0 && strcmp(level, "l1tlb") == 0 &&
            gs_figure_get(rec, "size_bytes", &reach) == 0 && reach > 0)
            return (uint64_t)reach;
    }
    return 0;
}

/* One pass: every SM's average walk over one chain; NaN where the SM took no block. */
static int one_pass(cw_walker *w, const uint64_t *chain, size_t n, uint64_t region, double *out,
                    unsigned sms, gs_error *err)
{
    int rc = 0;
    for (unsigned k = 0; k < sms && !rc; k++) {
        w->pin_sm = (int)k;
        rc = cw_avg_chase(w, chain, n, region, 2, SM_LAT_TIMED, -1, &out[k], err);
        if (rc == GS_ERR_UNSUPPORTED) {      /* this process may not reach the SM (MPS) */
            out[k] = NAN;
            gs_error_clear(err);
            rc = 0;
        }
    }
    w->pin_sm = -1;
    return rc;
}

int cw_l2_sm_latency(gs_probe_ctx *ctx, cw_walker *w, gs_probe_out *p, const cw_avg_sweep *sw,
                     gs_error *err)
{
    unsigned sms = ctx->info && ctx->info->sm_count > 0 ? (unsigned)ctx->info->sm_count : 0;
    uint64_t stride = sw->stride_bytes >= 32 ? sw->stride_bytes : 128;
    uint64_t region = SM_LAT_REGION, reach = first_tlb_reach(ctx);
    if (reach && reach < region)
        region = reach;
    size_t n = SM_LAT_LINES, all = (size_t)(region / stride);
    uint64_t l2 = ctx->info ? ctx->info->l2_bytes : 0;
    if (l2 && l2 / stride / SM_LAT_L2_SHARE < n)
        n = l2 / stride / SM_LAT_L2_SHARE;
    if (all / 4 < n)                      /* the lines a quarter of the region's at most */
        n = all / 4;
    if (n < SM_LAT_MIN_LINES)
        n = all < SM_LAT_MIN_LINES ? all : SM_LAT_MIN_LINES;
    char method[sizeof sm_lat_m + 40];
    snprintf(method, sizeof method, sm_lat_m, n, (unsigned long long)(region >> 10));
    if (!sms) {
        gs_figure_nd(p, "hit_latency_sm_spread_cycles", "cycles", method, "the device reports "
                     "no SM count");
        return 0;
    }
    gs_progress(ctx, "cache: l2, hit latency from each of %u SMs", sms);
    uint64_t *chain = malloc(all * sizeof *chain);
    double *buf = malloc(3 * (size_t)sms * sizeof *buf), *x = malloc(sms * sizeof *x);
    int rc = 0;
    if (!chain || !buf || !x) {
        rc = gs_fail(err, GS_ERR_NO_MEMORY, "out of host memory for the per-SM L2 walks");
        goto out;
    }
    /* a random cyclic order over all the region's lines; its first n visits are n random lines
     * in random order, walked as a cycle. Each pass draws its own lines: which slices they hash
     * to moves an SM's reading by about half a cycle, and two passes over one draw hid that */
    double *a = buf, *b = buf + sms, *v = buf + 2 * (size_t)sms;
    for (int pass = 0; pass < 2 && !rc; pass++) {
        if (gs_chain_sattolo(&w->rng, all, stride, chain) != 0)
            rc = gs_fail(err, GS_ERR_NO_MEMORY, "out of host memory for the per-SM L2 chain");
        else
            rc = one_pass(w, chain, n, region, pass ? b : a, sms, err);
    }
    if (rc)
        goto out;
    gs_sm_spread s;
    gs_sm_spread_of(a, b, sms, v, &s);
    for (unsigned k = 0; k < sms; k++)
        x[k] = k;
    gs_series(p, "hit_latency_by_sm", "SM", "", "L2 hit latency", "cycles", x, v, sms);
    if (!s.n) {
        gs_figure_nd(p, "hit_latency_sm_spread_cycles", "cycles", method, "no SM ran the walk");
        goto out;
    }
    gs_figure(p, "hit_latency_sm_min_cycles", s.min, "cycles", s.noise, s.n, method);
    gs_figure(p, "hit_latency_sm_median_cycles", s.median, "cycles", s.noise, s.n, method);
    gs_figure(p, "hit_latency_sm_max_cycles", s.max, "cycles", s.noise, s.n, method);
    gs_figure(p, "hit_latency_sm_spread_cycles", s.spread, "cycles", 2 * s.noise, s.n, method);
    gs_param_int(p, "hit_latency_sm_min_sm", (long long)s.min_sm);
    gs_param_int(p, "hit_latency_sm_max_sm", (long long)s.max_sm);
    gs_param_int(p, "sms_walked", (long long)s.n);
out:
    free(chain);
    free(buf);
    free(x);
    return rc;
}
