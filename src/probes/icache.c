/* Probe `icache`: the instruction-cache levels from a code-footprint sweep, the P-chase idea
 * applied to code (the published method of characterising GPU instruction caches by timing
 * straight-line code of growing size): one warp loops over a block of straight-line independent
 * integer adds of 4 KB to 256 KB (powers of two and midpoints), and the cycles per instruction
 * against the block's size step up where the code outgrows a level (the per-sub-partition L0,
 * then the SM's L1 / L1.5 instruction cache, then the L2). Each level found is reported with the
 * interval the sweep's sizes give (it holds the largest size on its plateau, not the next size
 * measured) and its cycles per instruction; a level whose step the sweep does not show is "not
 * determined". Usage: gpusonar run icache [--repeats N] [--instructions N] */
#include <math.h>
#include <stdio.h>

#include "analysis/icache_steps.h"
#include "analysis/stats.h"
#include "probes/probe.h"
#include "util/interrupt.h"

#define MAX_REPEATS 256
#define LEVELS 2                  /* the levels reported: L0 and L1 (L1.5); the L2 is beyond */
#define STEP_TOLERANCE 0.15       /* a step is a rise of more than 15 % in cycles per instruction */

static struct {
    long long repeats;
    long long instructions;
} opt;

const gs_opt gs_probe_icache_opts[] = {
    {"repeats", GS_OPT_INT, &opt.repeats, "N",
     "timed repetitions per code size (default 9, 25 with --thorough)", NULL, 2, MAX_REPEATS},
    {"instructions", GS_OPT_INT, &opt.instructions, "N",
     "instructions executed per repetition, the block looped over (default 1048576)", NULL,
     1 << 14, 1 << 28},
    GS_OPT_END,
};

/* Cycles per instruction of every size into cpi[]; a backend or model without the operation
 * makes *why its reason. */
static int sweep(gs_probe_ctx *ctx, double *bytes, double *cpi, size_t *n, char *why,
                 size_t why_len, gs_error *err)
{
    double values[MAX_REPEATS];
    gs_backend *b = ctx->backend;
    *n = 0;
    why[0] = '\0';
    if (!b->ops->icache) {
        snprintf(why, why_len, "the backend has no instruction-cache operation");
        return 0;
    }
    for (int i = 0; i < GS_ICACHE_SIZES; i++) {
        if (gs_interrupted())
            return gs_fail(err, GS_ERR_INTERRUPTED, "interrupted");
        uint64_t size = gs_icache_size(i), instr = size / 16;
        gs_icache_plan plan = {.code_bytes = size, .repeats = (unsigned)opt.repeats,
                               .loops = (unsigned)((opt.instructions + instr - 1) / instr)};
        gs_icache_result r = {.values = values};
        gs_progress(ctx, "icache: %llu KB of code", (unsigned long long)(size / 1024));
        int rc = gs_probe_unsupported_why(b->ops->icache(b, &plan, &r, err), err, why, why_len);
        if (rc || why[0])
            return rc;
        bytes[*n] = (double)size;
        cpi[(*n)++] = gs_summarize_robust(values, r.n, 5).median;
    }
    return 0;
}

static void record_levels(gs_probe_out *p, const double *bytes, const double *cpi, size_t n,
                          const char *why)
{
    gs_icache_level level[LEVELS];
    double beyond = NAN;
    char name[64];
    int found = why[0] ? 0 : gs_icache_steps(bytes, cpi, n, STEP_TOLERANCE, level, LEVELS,
                                             &beyond);
    const char *method = "one warp loops over straight-line independent integer adds (16 bytes "
                         "each) of 4 KB to 256 KB, median over repetitions of clock64 cycles per "
                         "instruction, after one untimed pass; the sweep's plateaus (a rise above "
                         "15 % is a step): the level holds the largest size on its plateau "
                         "(value) and not the next size measured (_upper)";
    for (int k = 0; k < LEVELS; k++) {
        static const char *const what[3] = {"bytes", "bytes_upper", "cycles_per_instruction"};
        static const char *const unit[3] = {"bytes", "bytes", "cycles"};
        for (int f = 0; f < 3; f++) {
            snprintf(name, sizeof name, "level%d_%s", k + 1, what[f]);
            if (why[0])
                gs_figure_nd(p, name, unit[f], method, "%s", why);
            else if (k >= found)
                gs_figure_nd(p, name, unit[f], method, "no %s step in the sweep (%s of 4 KB to "
                             "256 KB): the level holds all of it, or the sweep cannot see it",
                             k ? "second" : "first", found ? "one step" : "no step");
            else {
                double v = f == 0 ? level[k].bytes_low : f == 1 ? level[k].bytes_high
                                                                : level[k].cycles_per_instruction;
                if (isnan(v))
                    gs_figure_nd(p, name, unit[f], method, "no size beyond the step was measured");
                else
                    gs_figure(p, name, v, unit[f], 0, level[k].points, method);
            }
        }
    }
    if (why[0] || isnan(beyond))
        gs_figure_nd(p, "beyond_cycles_per_instruction", "cycles", method, "%s",
                     why[0] ? why : "no size measured");
    else
        gs_figure(p, "beyond_cycles_per_instruction", beyond, "cycles", 0, 1,
                  "the plateau after the last level found: code larger than it");
}

static int gs_probe_icache_run(gs_probe_ctx *ctx, gs_error *err)
{
    double bytes[GS_ICACHE_SIZES], cpi[GS_ICACHE_SIZES];
    size_t n = 0;
    char why[sizeof err->msg];
    opt.repeats = ctx->thorough ? 25 : 9;
    opt.instructions = 1 << 20;
    int rc = gs_probe_parse_opts(ctx, gs_probe_icache_opts, err);
    if (rc)
        return rc;
    gs_probe_out *p = gs_run_add_probe(ctx->run, "icache");
    gs_param_int(p, "repeats", opt.repeats);
    gs_param_int(p, "instructions", opt.instructions);
    rc = sweep(ctx, bytes, cpi, &n, why, sizeof why, err);
    if (rc)
        return rc;
    if (!why[0])
        gs_series(p, "cycles_per_instruction", "code size", "bytes", "cycles per instruction",
                  "cycles", bytes, cpi, n);
    record_levels(p, bytes, cpi, n, why);
    return 0;
}

/* The probe's descriptor (probe.h). */
static const char *const headline[] = {"level1_bytes", "level2_bytes", NULL};
const gs_probe_def gs_probe_icache_def = {
    .name = "icache",
    .run = gs_probe_icache_run,
    .flags = 0,
    .summary = "instruction caches: level sizes and cycles per instruction from a code-footprint "
               "sweep (4 KB to 256 KB)",
    .opts = gs_probe_icache_opts,
    .expected_s = 0.3,
    .expected_sim_s = 0.02,
    .keep_rank = 0,
    .hints = {.headline = headline},
};
