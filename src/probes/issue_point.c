/* Shared measurement helpers of the pipeline, roofline and divergence probes (issue_point.h). */
#include "probes/issue_point.h"

#include "analysis/pipeline_model.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_REPS 1000
/* One run at 1 / DIFF_SHORT of the calibrated trips, then each repetition at all of them, taking
 * the throughput of what the repetition did beyond the short run: the work and cycles every run
 * spends whatever its length (block start, barriers, the stamps, the last trip's drain: about
 * 580 cycles per SM on an H100) cancel. Measured on one run they held an fadd at 3.915
 * instructions per cycle per SM in runs of 100,000 cycles and 3.932 in runs of 400,000 (default
 * and --thorough: 0.4 % apart, 2 % for hfma2 at ILP 4, each with an interval a hundredth of
 * that), where the loop's own trip overhead allows 4 x 256 / 260 = 3.938
 * (docs/hardware/h100.md). */
#define DIFF_SHORT 4
#define DIFF_MIN_ITERATIONS 4

/* Warp instructions per cycle per SM of what the long run did beyond the short one. */
static double differential(const gs_issue_result *l, const gs_issue_result *s)
{
    if (!(l->instr_per_cycle_per_sm > 0) || !(s->instr_per_cycle_per_sm > 0))
        return NAN;
    double cl = l->instructions / l->instr_per_cycle_per_sm;
    double cs = s->instructions / s->instr_per_cycle_per_sm;
    return cl > cs && l->instructions > s->instructions
               ? (l->instructions - s->instructions) / (cl - cs) : NAN;
}

int gs_issue_measure(gs_probe_ctx *ctx, gs_issue_plan *plan, unsigned reps, double target_cycles,
                     gs_issue_point *out, gs_error *err)
{
    gs_issue_result r;
    double ipc[MAX_REPS], cpi[MAX_REPS], cycles[MAX_REPS], ns[MAX_REPS], old[MAX_REPS],
        whole[MAX_REPS], spread[MAX_REPS];
    size_t good = 0;
    reps = reps < 1 ? 1 : reps > MAX_REPS ? MAX_REPS : reps;
    memset(out, 0, sizeof *out);
    plan->iterations = 4;
    int rc = ctx->backend->ops->issue(ctx->backend, plan, &r, err);
    if (rc)
        return rc;
    double it = plan->iterations * target_cycles / (r.cycles > 1 ? r.cycles : 1);
    unsigned long_it = it < 4 ? 4 : it > 1e8 ? 100000000u : (unsigned)it;
    gs_issue_result s = { 0 };
    plan->iterations = long_it / DIFF_SHORT;
    bool diff = plan->iterations >= DIFF_MIN_ITERATIONS;
    if (diff && (rc = ctx->backend->ops->issue(ctx->backend, plan, &s, err)) != 0)
        return rc;
    diff = diff && !s.measurement_error;   /* else each run's own throughput, as before */
    plan->iterations = long_it;
    for (unsigned i = 0; i < reps; i++) {
        if ((rc = ctx->backend->ops->issue(ctx->backend, plan, &r, err)) != 0)
            return rc;
        out->clock_mismatch_sms = r.clock_mismatch_sms > out->clock_mismatch_sms
                                      ? r.clock_mismatch_sms : out->clock_mismatch_sms;
        old[i] = r.clock64_ipc_per_sm;
        whole[i] = r.kernel_ipc_per_sm;
        spread[i] = r.start_spread_cycles;
        double rate = diff ? differential(&r, &s) : r.instr_per_cycle_per_sm;
        if (r.measurement_error || !(rate > 0)) {
            out->error_reps++;
            continue;
        }
        ipc[good] = rate;
        cpi[good] = 1.0 / rate;
        cycles[good] = r.cycles;
        ns[good] = r.ns;
        good++;
    }
    out->measurement_error = good == 0;
    out->ipc = gs_summarize(ipc, good);
    out->cpi = gs_summarize(cpi, good);
    out->cycles = good ? gs_median(cycles, good) : r.cycles;
    out->ns = good ? gs_median(ns, good) : r.ns;
    out->clock64_ipc = gs_median(old, reps);
    out->kernel_ipc = gs_median(whole, reps);
    out->start_spread_cycles = gs_median(spread, reps);
    out->warps_per_sm = r.warps_per_sm;
    out->instructions = r.instructions;
    out->iterations = plan->iterations;
    out->multi_block = plan->blocks > (unsigned)ctx->info->sm_count;
    return 0;
}

size_t gs_issue_flag_over_ceiling(gs_issue_point *pts, size_t n, double ceiling)
{
    size_t flagged = 0;
    for (size_t i = 0; i < n; i++) {
        double ipc = pts[i].ipc.median;
        if (pts[i].multi_block && !pts[i].measurement_error &&
            gs_pipe_over_ceiling(ipc, ceiling, GS_ISSUE_CEILING_TOLERANCE)) {
            pts[i].measurement_error = true;
            flagged++;
        }
    }
    return flagged;
}

double gs_issue_ceiling(const gs_issue_point *pts, size_t n)
{
    double c = 0;
    for (size_t i = 0; i < n; i++)
        if (!pts[i].multi_block && !pts[i].measurement_error && pts[i].ipc.median > c)
            c = pts[i].ipc.median;
    return c;
}

int gs_issue_reference_ceiling(gs_probe_ctx *ctx, gs_instr t, unsigned reps, double target_cycles,
                               double *ceiling, gs_error *err)
{
    const gs_device_info *info = ctx->info;
    unsigned max_wpb = (unsigned)(info->max_threads_per_block / info->warp_size);
    unsigned max_warps = (unsigned)(info->max_threads_per_sm / info->warp_size);
    gs_issue_plan plan;
    gs_issue_point pt;
    *ceiling = 0;
    if (!gs_issue_plan_warps(info, t, 4, max_wpb < max_warps ? max_wpb : max_warps, &plan))
        return 0;
    int rc = gs_issue_measure(ctx, &plan, reps, target_cycles, &pt, err);
    if (rc == 0 && !pt.measurement_error)
        *ceiling = pt.ipc.median;
    return rc;
}

bool gs_issue_plan_warps(const gs_device_info *info, gs_instr instr, unsigned ilp, unsigned warps,
                         gs_issue_plan *plan)
{
    unsigned max_wpb = (unsigned)(info->max_threads_per_block / info->warp_size);
    unsigned max_warps = (unsigned)(info->max_threads_per_sm / info->warp_size);
    if (warps < 1 || warps > max_warps)
        return false;
    unsigned blocks_per_sm = warps <= max_wpb ? 1 : 2;
    if (warps % blocks_per_sm || warps / blocks_per_sm > max_wpb)
        return false;
    memset(plan, 0, sizeof *plan);
    plan->instr = instr;
    plan->ilp = ilp;
    plan->warps_per_block = warps / blocks_per_sm;
    plan->blocks = blocks_per_sm * (unsigned)info->sm_count;
    plan->blocks_per_sm_limit = blocks_per_sm;
    return true;
}

size_t gs_issue_warps_grid(const gs_device_info *info, unsigned *grid, size_t cap)
{
    unsigned max_wpb = (unsigned)(info->max_threads_per_block / info->warp_size);
    unsigned max_warps = (unsigned)(info->max_threads_per_sm / info->warp_size);
    size_t n = 0;
    for (unsigned w = 1; w <= max_wpb && w <= max_warps && n < cap; w++)
        grid[n++] = w;
    /* Above one block: two equal blocks, in steps of 4 warps (one per scheduler on recent SMs). */
    for (unsigned w = (max_wpb / 4 + 1) * 4; w <= max_warps && w <= 2 * max_wpb && n < cap; w += 4)
        grid[n++] = w;
    return n;
}

int gs_issue_parse_types(const char *list, bool want[GS_INSTR_COUNT], gs_error *err)
{
    char buf[256];
    bool all = !list || strcmp(list, "all") == 0, table = list && strcmp(list, "table") == 0;
    for (int i = 0; i < GS_INSTR_COUNT; i++)
        want[i] = table || (all && i < GS_INSTR_BASE_COUNT);
    if (all || table)
        return 0;
    snprintf(buf, sizeof buf, "%s", list);
    for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        gs_instr t;
        if (gs_instr_parse(tok, &t) != 0)
            return gs_fail(err, GS_ERR_USAGE, "--types: '%s' is not an instruction type; use a "
                           "comma-separated list of fadd, ffma, iadd, imul, dfma, sfu-sin, "
                           "sfu-rsqrt, sw-sin, hfma2, mma (or the table's classes: `gpusonar run "
                           "pipeline --help`), all (those ten) or table (every class)", tok);
        want[t] = true;
    }
    return 0;
}
