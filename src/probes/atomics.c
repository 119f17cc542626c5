/* Probe `atomics`: latency and throughput of atomic operations. Per operation
 * and type (atomicAdd on u32, u64, f32, f64; atomicCAS, atomicExch, atomicMin, atomicMax on u32
 * by default) and per space: the latency of one atomic, from one thread's dependent chain whose
 * returned values form the next addresses (cycles per atomic, median and ci95 over chain
 * repetitions), and the throughput of a full grid (every SM at full occupancy) in each pattern:
 * global memory on one address, on distinct coalesced words, and on a few contended lines;
 * shared memory on one address per block, on distinct words (no bank conflict) and on words of
 * one bank. Each throughput launch first runs short to find how many iterations last the target
 * time; its figures are Gop/s and atomics per clock (per SM where every SM works alone). On
 * global memory add, min and max also run with their results used, to compare ATOM with RED.
 * A backend or model without atomics makes every figure "not determined" with its reason. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/atomic_rate.h"
#include "analysis/stats.h"
#include "probes/probe.h"
#include "util/interrupt.h"

#define MAX_REPEATS 4096
#define MAX_OPS 16
#define MAX_LINE_COUNTS 8
#define CALIBRATION_ITERATIONS 4
#define MAX_ITERATIONS (1u << 20)

static struct {
    const char *ops;
    const char *spaces;
    const char *lines;
    long long repeats;
    long long launches;
    double target_ms;
    long long threads;
    long long blocks_per_sm;
} opt;

const gs_opt gs_probe_atomics_opts[] = {
    {"ops", GS_OPT_STRING, &opt.ops, "LIST",
     "OP.TYPE list (default add.u32, add.u64, add.f32, add.f64, cas.u32, exch.u32, min.u32, max.u32; "
     "also cas.u64, exch.u64, exch.f32, min.u64, max.u64)", NULL, 0, 0},
    {"spaces", GS_OPT_STRING, &opt.spaces, "LIST", "global,shared (default both)", NULL, 0, 0},
    {"lines", GS_OPT_STRING, &opt.lines, "LIST",
     "contended-line counts of the global lines pattern (default 1,4)", NULL, 0, 0},
    {"repeats", GS_OPT_INT, &opt.repeats, "N",
     "latency chain repetitions (default 32, 128 with --thorough)", NULL, 2, MAX_REPEATS},
    {"launches", GS_OPT_INT, &opt.launches, "N",
     "timed launches per throughput pattern (default 5, 15 with --thorough)", NULL, 1, 1000},
    {"target-ms", GS_OPT_DOUBLE, &opt.target_ms, "MS",
     "length of each throughput launch (default 1, 4 with --thorough)", NULL, 0, 0},
    {"threads", GS_OPT_INT, &opt.threads, "N", "threads per block (default 256)", NULL, 32, 1024},
    {"blocks-per-sm", GS_OPT_INT, &opt.blocks_per_sm, "N",
     "blocks per SM (default: the SM's thread limit / threads)", NULL, 1, 64},
    GS_OPT_END,
};

typedef struct op_type {
    gs_atomic_op op;
    gs_atomic_type type;
} op_type;

typedef struct atomics_ctx {
    gs_probe_ctx *ctx;
    gs_probe_out *p;
    op_type ops[MAX_OPS];
    int nops;
    bool space[2];                /* global, shared */
    unsigned lines[MAX_LINE_COUNTS];
    int nlines;
    unsigned blocks;
    double *values;               /* MAX_REPEATS */
} atomics_ctx;

/* ---- options ------------------------------------------------------------------------------- */
static int parse_op(const char *text, size_t len, op_type *out)
{
    for (int o = 0; o < GS_ATOMIC_OP_COUNT; o++)
        for (int t = 0; t < GS_ATOMIC_TYPE_COUNT; t++) {
            char name[24];
            snprintf(name, sizeof name, "%s.%s", gs_atomic_op_name((gs_atomic_op)o),
                     gs_atomic_type_name((gs_atomic_type)t));
            if (strlen(name) == len && strncmp(name, text, len) == 0 &&
                gs_atomic_op_has_type((gs_atomic_op)o, (gs_atomic_type)t)) {
                *out = (op_type){(gs_atomic_op)o, (gs_atomic_type)t};
                return 0;
            }
        }
    return -1;
}

static int parse_lists(atomics_ctx *a, gs_error *err)
{
    for (const char *s = opt.ops; *s;) {
        size_t len = strcspn(s, ",");
        if (a->nops == MAX_OPS || parse_op(s, len, &a->ops[a->nops]))
            return gs_fail(err, GS_ERR_USAGE, "--ops %s: give up to %d of add.u32, add.u64, "
                           "add.f32, add.f64, cas.u32, cas.u64, exch.u32, exch.u64, exch.f32, "
                           "min.u32, min.u64, max.u32, max.u64, separated by commas", opt.ops,
                           MAX_OPS);
        a->nops++;
        s += len + (s[len] == ',');
    }
    for (const char *s = opt.spaces; *s;) {
        size_t len = strcspn(s, ",");
        bool g = len == 6 && strncmp(s, "global", 6) == 0, sh = len == 6 && strncmp(s, "shared", 6) == 0;
        if (!g && !sh)
            return gs_fail(err, GS_ERR_USAGE, "--spaces %s: use global, shared or both", opt.spaces);
        a->space[sh] = true;
        s += len + (s[len] == ',');
    }
    for (const char *s = opt.lines; *s;) {
        char *end;
        unsigned long v = strtoul(s, &end, 10);
        if (end == s || v < 1 || v > 4096 || a->nlines == MAX_LINE_COUNTS || (*end && *end != ','))
            return gs_fail(err, GS_ERR_USAGE, "--lines %s: up to %d counts in 1..4096, separated "
                           "by commas", opt.lines, MAX_LINE_COUNTS);
        a->lines[a->nlines++] = (unsigned)v;
        s = *end ? end + 1 : end;
    }
    if (!a->nops || !(a->space[0] || a->space[1]))
        return gs_fail(err, GS_ERR_USAGE, "atomics: give at least one operation and one space");
    if (!(opt.target_ms > 0 && opt.target_ms <= 1000))
        return gs_fail(err, GS_ERR_USAGE, "--target-ms %g: use a length in (0, 1000] ms",
                       opt.target_ms);
    return 0;
}

/* ---- measuring ----------------------------------------------------------------------------- */
/* One plan; GS_ERR_UNSUPPORTED is not an error here: *why gets the reason and 0 returns. */
static int run_plan(atomics_ctx *a, const gs_atomic_plan *plan, gs_atomic_result *r, char *why,
                    size_t why_len, gs_error *err)
{
    why[0] = '\0';
    if (gs_interrupted())
        return gs_fail(err, GS_ERR_INTERRUPTED, "interrupted");
    gs_backend *b = a->ctx->backend;
    if (!b->ops->atomic) {
        snprintf(why, why_len, "the backend has no atomic operations");
        return 0;
    }
    *r = (gs_atomic_result){.values = a->values};
    return gs_probe_unsupported_why(b->ops->atomic(b, plan, r, err), err, why, why_len);
}

static void figure_name(char *buf, size_t len, gs_space space, op_type ot, const char *what)
{
    snprintf(buf, len, "%s_%s_%s_%s", gs_space_name(space), gs_atomic_op_name(ot.op),
             gs_atomic_type_name(ot.type), what);
}

static int measure_latency(atomics_ctx *a, gs_space space, op_type ot, gs_error *err)
{
    gs_atomic_plan plan = {.space = space, .op = ot.op, .type = ot.type,
                           .pattern = GS_ATOMIC_CHAIN, .repeats = (unsigned)opt.repeats};
    gs_atomic_result r;
    char why[sizeof err->msg], name[96];
    const char *method = space == GS_SPACE_SHARED
        ? "one thread's chain of dependent atomics on one shared word, each address = base + "
          "the previous result x a run-time zero (ATOMS; includes that IMAD); median of "
          "repetitions of (time of 64 - time of 32) / 32 in clock64 cycles"
        : "one thread's chain of dependent atomics on one global word (an L2 hit after warm-up), "
          "each address = base + the previous result x a run-time zero (ATOMG, never RED; "
          "includes that IMAD); median of repetitions of (time of 64 - time of 32) / 32 in "
          "clock64 cycles";
    int rc = run_plan(a, &plan, &r, why, sizeof why, err);
    figure_name(name, sizeof name, space, ot, "latency_cycles");
    if (rc || why[0]) {
        if (!rc)
            gs_figure_nd(a->p, name, "cycles", method, "%s", why);
        return rc;
    }
    gs_summary s = gs_summarize_robust(r.values, r.n, 5);
    gs_figure(a->p, name, s.median, "cycles", s.ci95, s.n, method);
    return 0;
}

/* The figures of one throughput pattern: Gop/s, and atomics per clock of the whole GPU (global
 * one address and lines) or per clock per SM (every other pattern). */
static void record_rate(atomics_ctx *a, const char *stem, bool per_sm, const gs_atomic_rate *rt,
                        const char *why, const char *method)
{
    char name[128];
    const char *pc_unit = per_sm ? "atomics/clock/SM" : "atomics/clock";
    snprintf(name, sizeof name, "%s_gops", stem);
    if (why)
        gs_figure_nd(a->p, name, "Gop/s", method, "%s", why);
    else
        gs_figure(a->p, name, rt->gops, "Gop/s", rt->gops_ci95, rt->n, method);
    snprintf(name, sizeof name, "%s_%s", stem, per_sm ? "ops_per_clock_per_sm" : "ops_per_clock");
    double v = per_sm ? rt->per_clock_per_sm : rt->per_clock;
    double ci = per_sm ? rt->per_clock_per_sm_ci95 : rt->per_clock_ci95;
    if (why)
        gs_figure_nd(a->p, name, pc_unit, method, "%s", why);
    else if (isnan(v))
        gs_figure_nd(a->p, name, pc_unit, method, "the SM clock is unknown");
    else
        gs_figure(a->p, name, v, pc_unit, ci, rt->n, per_sm
                  ? "the Gop/s figure over the SM clock measured before the probe and over the SMs"
                  : "the Gop/s figure over the SM clock measured before the probe (whole GPU)");
}

/* Calibrate the iterations to the target time, then time opt.launches launches. */
static int measure_rate(atomics_ctx *a, gs_atomic_plan *plan, const char *stem, bool per_sm,
                        const char *method, gs_error *err)
{
    char why[sizeof err->msg];
    gs_atomic_result r;
    plan->blocks = a->blocks;
    plan->threads_per_block = (unsigned)opt.threads;
    plan->iterations = CALIBRATION_ITERATIONS;
    plan->repeats = 1;
    int rc = run_plan(a, plan, &r, why, sizeof why, err);
    if (!rc && !why[0]) {
        plan->iterations = gs_atomic_iterations_for(CALIBRATION_ITERATIONS, r.values[0],
                                                    opt.target_ms * 1e-3, MAX_ITERATIONS);
        plan->repeats = (unsigned)opt.launches;
        rc = run_plan(a, plan, &r, why, sizeof why, err);
    }
    if (rc)
        return rc;
    gs_atomic_rate rt = {0};
    /* The SM clock measured before the probe (the run loop's clock plan); the one thread 0 of
     * block 0 sees inside a launch only where that is unknown. On the H100 the in-launch ratio of
     * clock64 to globaltimer read 1.17 and 0.25 GHz in one-address launches (a short span of a
     * coarse timer) while the card ran at 1.98 GHz, so per-clock figures came out up to 8x high. */
    double khz = a->ctx->clock_khz > 0 ? a->ctx->clock_khz : r.clock_khz;
    if (!why[0] && gs_atomic_rate_of(r.values, r.n, r.operations, khz, a->ctx->info->sm_count, &rt))
        snprintf(why, sizeof why, "no launch took a measurable time");
    record_rate(a, stem, per_sm, &rt, why[0] ? why : NULL, method);
    return 0;
}

static int measure_patterns(atomics_ctx *a, gs_space space, op_type ot, gs_error *err)
{
    char stem[96], method[400];
    gs_atomic_plan plan = {.space = space, .op = ot.op, .type = ot.type};
    int rc = 0;
    bool global = space == GS_SPACE_GLOBAL;
    const char *grid = "blocks x threads (every SM full) each run N atomics, N calibrated to the "
                       "target time; median over launches of atomics / launch time (events)";
    plan.pattern = GS_ATOMIC_ONE_ADDRESS;
    figure_name(stem, sizeof stem, space, ot, "one_address");
    snprintf(method, sizeof method, "%s; %s", global ? "every thread of the grid on one word"
             : "every thread of a block on its block's one word", grid);
    rc = measure_rate(a, &plan, stem, !global, method, err);
    plan.pattern = GS_ATOMIC_DISTINCT;
    figure_name(stem, sizeof stem, space, ot, "distinct");
    snprintf(method, sizeof method, "%s; %s", "every thread its own word, a warp's 32 words "
             "contiguous", grid);
    if (!rc)
        rc = measure_rate(a, &plan, stem, true, method, err);
    if (!rc && global && ot.op != GS_ATOMIC_CAS && ot.op != GS_ATOMIC_EXCH) {
        plan.keep_result = true;
        figure_name(stem, sizeof stem, space, ot, "distinct_returned");
        snprintf(method, sizeof method, "as distinct, with every result used (ATOM instead of "
                 "RED); %s", grid);
        rc = measure_rate(a, &plan, stem, true, method, err);
        plan.keep_result = false;
    }
    for (int k = 0; global && k < a->nlines && !rc; k++) {
        plan.pattern = GS_ATOMIC_LINES;
        plan.lines = a->lines[k];
        char what[32];
        snprintf(what, sizeof what, "lines%u", a->lines[k]);
        figure_name(stem, sizeof stem, space, ot, what);
        snprintf(method, sizeof method, "the 32 lanes of a warp on distinct words of one warp "
                 "footprint (128 B for 4-byte types, 256 B for 8-byte), all warps of the grid "
                 "sharing %u of them; %s", a->lines[k], grid);
        rc = measure_rate(a, &plan, stem, false, method, err);
    }
    if (!rc && !global) {
        plan.pattern = GS_ATOMIC_SAME_BANK;
        figure_name(stem, sizeof stem, space, ot, "same_bank");
        snprintf(method, sizeof method, "the 32 lanes of a warp on distinct words 128 B apart "
                 "(one bank, a 32-way conflict); %s", grid);
        rc = measure_rate(a, &plan, stem, true, method, err);
    }
    return rc;
}

static int measure_all(atomics_ctx *a, gs_error *err)
{
    int rc = 0;
    for (int s = 0; s < 2 && !rc; s++) {
        if (!a->space[s])
            continue;
        gs_space space = s ? GS_SPACE_SHARED : GS_SPACE_GLOBAL;
        for (int i = 0; i < a->nops && !rc; i++) {
            gs_progress(a->ctx, "atomics: %s %s.%s", gs_space_name(space),
                        gs_atomic_op_name(a->ops[i].op), gs_atomic_type_name(a->ops[i].type));
            rc = measure_latency(a, space, a->ops[i], err);
            if (!rc)
                rc = measure_patterns(a, space, a->ops[i], err);
        }
    }
    return rc;
}

static int gs_probe_atomics_run(gs_probe_ctx *ctx, gs_error *err)
{
    opt.ops = "add.u32,add.u64,add.f32,add.f64,cas.u32,exch.u32,min.u32,max.u32";
    opt.spaces = "global,shared";
    opt.lines = "1,4";
    opt.repeats = ctx->thorough ? 128 : 32;
    opt.launches = ctx->thorough ? 15 : 5;
    opt.target_ms = ctx->thorough ? 4 : 1;
    opt.threads = 256;
    opt.blocks_per_sm = 0;
    atomics_ctx a = {.ctx = ctx};
    int rc = gs_probe_parse_opts(ctx, gs_probe_atomics_opts, err);
    if (rc || (rc = parse_lists(&a, err)))
        return rc;
    if (opt.threads % 32)
        return gs_fail(err, GS_ERR_USAGE, "--threads %lld: use a multiple of 32", opt.threads);
    long long per_sm = opt.blocks_per_sm;
    if (!per_sm) {
        per_sm = ctx->info->max_threads_per_sm > 0 ? ctx->info->max_threads_per_sm / opt.threads : 1;
        if (ctx->info->max_blocks_per_sm > 0 && per_sm > ctx->info->max_blocks_per_sm)
            per_sm = ctx->info->max_blocks_per_sm;
        if (per_sm < 1)
            per_sm = 1;
    }
    a.blocks = (unsigned)(per_sm * (ctx->info->sm_count > 0 ? ctx->info->sm_count : 1));
    if (!(a.values = calloc(MAX_REPEATS, sizeof *a.values)))
        return gs_fail(err, GS_ERR_NO_MEMORY, "out of host memory");
    a.p = gs_run_add_probe(ctx->run, "atomics");
    gs_param_string(a.p, "ops", opt.ops);
    gs_param_string(a.p, "spaces", opt.spaces);
    gs_param_string(a.p, "lines", opt.lines);
    gs_param_int(a.p, "repeats", opt.repeats);
    gs_param_int(a.p, "launches", opt.launches);
    gs_param_double(a.p, "target_ms", opt.target_ms);
    gs_param_int(a.p, "threads_per_block", opt.threads);
    gs_param_int(a.p, "blocks", a.blocks);
    rc = measure_all(&a, err);
    free(a.values);
    return rc;
}

/* The probe's descriptor (probe.h). */
static const char *const headline[] = {"-", NULL};
const gs_probe_def gs_probe_atomics_def = {
    .name = "atomics",
    .run = gs_probe_atomics_run,
    .flags = 0,
    .summary = "atomics per operation and type: latency of a dependent chain, Gop/s on one "
               "address, distinct words, contended lines, shared banks",
    .opts = gs_probe_atomics_opts,
    .expected_s = 0.4,
    .expected_sim_s = 0.05,
    .keep_rank = 0,
    .hints = {.headline = headline, .table = "atomics"},
};
