/* Probe `tensor`: tensor-core matrix multiply-accumulate. Per input
 * type (f16 and bf16 with f32 accumulate, tf32, fp8 e4m3 and e5m2, s8 with s32 accumulate, f64
 * DMMA) and instruction (warp-level mma.sync: all but e5m2; Hopper's warpgroup wgmma.mma_async:
 * all but f64, the native fp8 path of sm_90): the latency of one
 * instruction, from one warp's (warpgroup's) dependent chain, each accumulator feeding the next
 * instruction, timed as the difference of two chain lengths (cycles per instruction, median over
 * repetitions); and the dense throughput of every SM with several warps of independent
 * accumulators, launches calibrated to a target time (FLOP/s, s8 OP/s, and per clock per SM),
 * against the peak NVIDIA's whitepaper publishes for the architecture (src/analysis/tensor_peak.c).
 * The sparse mma.sp (2:4 structured sparsity, f16, bf16, tf32, e4m3 and s8) is measured the same
 * way, its operations counted as the dense product's (as NVIDIA's sparse peaks are), against the
 * sparse peak (twice the dense one) and as a ratio to the dense mma.sync of the same type.
 * A type the device's compute capability lacks is "not applicable"; a backend or model without
 * tensor cores makes every figure "not determined" with its reason. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/atomic_rate.h"
#include "analysis/stats.h"
#include "analysis/tensor_peak.h"
#include "probes/probe.h"
#include "util/interrupt.h"

#define MAX_REPEATS 1024
#define CALIBRATION_ITERATIONS 8
#define MAX_ITERATIONS (1u << 24)

static struct {
    const char *types;
    const char *instrs;
    long long repeats;
    long long launches;
    double target_ms;
    long long warps;
    long long blocks_per_sm;
} opt;

const gs_opt gs_probe_tensor_opts[] = {
    {"types", GS_OPT_STRING, &opt.types, "LIST",
     "input types, comma-separated: f16,bf16,tf32,e4m3,e5m2,s8,f64 (default all)", NULL, 0, 0},
    {"instrs", GS_OPT_STRING, &opt.instrs, "LIST",
     "instructions: mma_sync (warp mma.sync, no e5m2), wgmma (sm_90 warpgroup, no f64), mma_sp "
     "(warp 2:4 sparse mma.sp: f16, bf16, tf32, e4m3, s8); default all",
     NULL, 0, 0},
    {"repeats", GS_OPT_INT, &opt.repeats, "N",
     "latency chain repetitions (default 16, 64 with --thorough)", NULL, 2, MAX_REPEATS},
    {"launches", GS_OPT_INT, &opt.launches, "N",
     "timed launches per throughput point (default 5, 15 with --thorough)", NULL, 1, MAX_REPEATS},
    {"target-ms", GS_OPT_DOUBLE, &opt.target_ms, "MS",
     "length of each throughput launch (default 2, 8 with --thorough)", NULL, 0, 0},
    {"warps", GS_OPT_INT, &opt.warps, "N",
     "mma.sync throughput: warps per block (default 8; wgmma uses 4, one warpgroup)", NULL, 1, 32},
    {"blocks-per-sm", GS_OPT_INT, &opt.blocks_per_sm, "N",
     "throughput blocks per SM (default 2 for mma.sync, 4 for wgmma)", NULL, 1, 32},
    GS_OPT_END,
};

typedef struct tensor_ctx {
    gs_probe_ctx *ctx;
    gs_probe_out *p;
    bool type[GS_MMA_TYPE_COUNT];
    bool instr[GS_MMA_INSTR_COUNT];
    double *values;               /* MAX_REPEATS */
    gs_atomic_rate dense[GS_MMA_TYPE_COUNT];   /* mma.sync's measured rates (NAN per clock: none),
                                                  the denominators of mma.sp's ratio to dense */
} tensor_ctx;

/* ---- options ------------------------------------------------------------------------------- */
static int parse_list(const char *list, const char *option, int count,
                      const char *(*name)(int), bool *want, gs_error *err)
{
    if (strcmp(list, "all") == 0) {
        for (int i = 0; i < count; i++)
            want[i] = true;
        return 0;
    }
    for (const char *s = list; *s;) {
        size_t len = strcspn(s, ",");
        int found = -1;
        for (int i = 0; i < count; i++)
            if (strlen(name(i)) == len && strncmp(name(i), s, len) == 0)
                found = i;
        if (found < 0) {
            char names[160] = "";
            for (int i = 0; i < count; i++)
                snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", i ? ", " : "",
                         name(i));
            return gs_fail(err, GS_ERR_USAGE, "--%s %s: give some of %s (or all), separated by "
                           "commas", option, list, names);
        }
        want[found] = true;
        s += len + (s[len] == ',');
    }
    return 0;
}

static const char *type_name(int i) { return gs_mma_type_name((gs_mma_type)i); }
static const char *instr_name(int i) { return gs_mma_instr_name((gs_mma_instr)i); }

/* ---- measuring ----------------------------------------------------------------------------- */
/* One plan; GS_ERR_UNSUPPORTED is not an error here: *why gets the reason and 0 returns. */
static int run_plan(tensor_ctx *t, const gs_mma_plan *plan, gs_mma_result *r, char *why,
                    size_t why_len, gs_error *err)
{
    why[0] = '\0';
    if (gs_interrupted())
        return gs_fail(err, GS_ERR_INTERRUPTED, "interrupted");
    gs_backend *b = t->ctx->backend;
    if (!b->ops->mma) {
        snprintf(why, why_len, "the backend has no tensor operations");
        return 0;
    }
    *r = (gs_mma_result){.values = t->values};
    return gs_probe_unsupported_why(b->ops->mma(b, plan, r, err), err, why, why_len);
}

static void figure_name(char *buf, size_t len, gs_mma_instr i, gs_mma_type ty, const char *what)
{
    snprintf(buf, len, "%s_%s_%s", gs_mma_instr_name(i), gs_mma_type_name(ty), what);
}

/* The names and units of the rate figures: s8 counts integer operations. */
typedef struct rate_names {
    const char *rate, *rate_unit, *per_clock, *per_clock_unit, *peak;
} rate_names;

static rate_names names_of(gs_mma_type ty)
{
    if (ty == GS_MMA_S8)
        return (rate_names){"tops", "TOP/s", "ops_per_clock_per_sm", "op/clock/SM",
                            "peak_ops_per_clock_per_sm"};
    return (rate_names){"tflops", "TFLOP/s", "flops_per_clock_per_sm", "flop/clock/SM",
                        "peak_flops_per_clock_per_sm"};
}

/* The published peak of instruction i on type ty: the sparse one for mma.sp. */
static int peak_of(const tensor_ctx *t, gs_mma_instr i, gs_mma_type ty, double *peak,
                   const char **source, char *why, size_t why_len)
{
    const gs_device_info *info = t->ctx->info;
    bool consumer = gs_tensor_consumer_name(info->name);
    return i == GS_MMA_SP ? gs_tensor_sparse_peak(info->cc_major, info->cc_minor,
                                                  gs_mma_type_name(ty), consumer, peak, source,
                                                  why, why_len)
                          : gs_tensor_peak(info->cc_major, info->cc_minor, gs_mma_type_name(ty),
                                           consumer, peak, source, why, why_len);
}

/* Every figure of a combination not determined for one reason (mma.sp: and its ratio to dense). */
static void record_all_nd(tensor_ctx *t, gs_mma_instr i, gs_mma_type ty, const char *why)
{
    char name[96];
    rate_names rn = names_of(ty);
    const char *what[6] = {"latency_cycles", rn.rate, rn.per_clock, rn.peak, "fraction_of_peak",
                           "over_dense"};
    const char *unit[6] = {"cycles", rn.rate_unit, rn.per_clock_unit, rn.per_clock_unit, "ratio",
                           "ratio"};
    for (int k = 0; k < (i == GS_MMA_SP ? 6 : 5); k++) {
        figure_name(name, sizeof name, i, ty, what[k]);
        gs_figure_nd(t->p, name, unit[k], "tensor probe", "%s", why);
    }
}

static int measure_latency(tensor_ctx *t, gs_mma_instr i, gs_mma_type ty, gs_error *err)
{
    gs_mma_plan plan = {.instr = i, .type = ty, .latency = true, .repeats = (unsigned)opt.repeats};
    gs_mma_result r;
    char why[sizeof err->msg], name[96];
    const char *method = i == GS_MMA_WGMMA
        ? "one warpgroup's chain of dependent wgmma (fence, wgmma, commit_group, wait_group 0; "
          "the accumulator feeds the next); median of repetitions of (clock64 time of 64 - "
          "time of 32) / 32"
        : i == GS_MMA_SP
        ? "one warp's chain of dependent mma.sp (2:4 sparse A, each accumulator the next one's "
          "C); median of repetitions of (clock64 time of 64 - time of 32) / 32"
        : "one warp's chain of dependent mma.sync (each accumulator the next one's C); median of "
          "repetitions of (clock64 time of 64 - time of 32) / 32";
    int rc = run_plan(t, &plan, &r, why, sizeof why, err);
    figure_name(name, sizeof name, i, ty, "latency_cycles");
    if (rc || why[0]) {
        if (!rc)
            gs_figure_nd(t->p, name, "cycles", method, "%s", why);
        return rc;
    }
    gs_summary s = gs_summarize_robust(r.values, r.n, 5);
    gs_figure(t->p, name, s.median, "cycles", s.ci95, s.n, method);
    return 0;
}

/* The published peak and the measured rate's fraction of it; refused: why the rate is not
 * reported (empty when it is). */
static void record_peak(tensor_ctx *t, gs_mma_instr i, gs_mma_type ty, const gs_atomic_rate *rt,
                        const char *refused)
{
    char name[96], why[256];
    rate_names rn = names_of(ty);
    bool consumer = gs_tensor_consumer_name(t->ctx->info->name);
    double peak;
    const char *source;
    const char *method = i == GS_MMA_SP
        ? (consumer ? "published sparse (2:4) peak per SM per clock, GeForce rate: twice the "
                      "whitepaper's dense TFLOPS / (SMs x its boost clock), as its sparse row"
                    : "published sparse (2:4) peak per SM per clock: twice the whitepaper's dense "
                      "TFLOPS / (SMs x its boost clock), as its sparse row")
        : (consumer ? "published dense peak per SM per clock, GeForce rate (the whitepaper's "
                      "TFLOPS / (SMs x its boost clock))"
                    : "published dense peak per SM per clock (the whitepaper's TFLOPS / (SMs x "
                      "its boost clock))");
    figure_name(name, sizeof name, i, ty, rn.peak);
    int rc = peak_of(t, i, ty, &peak, &source, why, sizeof why);
    if (rc) {
        gs_figure_nd(t->p, name, rn.per_clock_unit, method, "%s", why);
    } else {
        char m[400];
        snprintf(m, sizeof m, "%s: %s", method, source);
        gs_figure(t->p, name, peak, rn.per_clock_unit, 0, 1, m);
    }
    figure_name(name, sizeof name, i, ty, "fraction_of_peak");
    const char *fmethod = "measured per clock per SM / the published peak";
    if (rc)
        gs_figure_nd(t->p, name, "ratio", fmethod, "%s", why);
    else if (refused[0] || isnan(rt->per_clock_per_sm))
        gs_figure_nd(t->p, name, "ratio", fmethod, "the rate per clock per SM was not measured%s%s",
                     refused[0] ? ": " : "", refused);
    else
        gs_figure(t->p, name, gs_tensor_fraction_of_peak(rt->per_clock_per_sm, peak), "ratio",
                  rt->per_clock_per_sm_ci95 / peak, rt->n, fmethod);
}

/* mma.sp's rate per clock per SM over the dense mma.sync's of the same type (the whitepapers'
 * sparse peak is twice the dense one), with the quotient's interval from both. */
static void record_over_dense(tensor_ctx *t, gs_mma_type ty, const gs_atomic_rate *sparse)
{
    char name[96];
    const gs_atomic_rate *d = &t->dense[ty];
    const char *method = "mma.sp per clock per SM / mma.sync per clock per SM of the same type "
                         "(the same warps, blocks and loop)";
    figure_name(name, sizeof name, GS_MMA_SP, ty, "over_dense");
    if (isnan(sparse->per_clock_per_sm))
        gs_figure_nd(t->p, name, "ratio", method, "the sparse rate per clock per SM was not "
                     "measured");
    else if (!t->instr[GS_MMA_SYNC])
        gs_figure_nd(t->p, name, "ratio", method, "the dense mma.sync was not measured (add "
                     "mma_sync to --instrs)");
    else if (!(d->per_clock_per_sm > 0))
        gs_figure_nd(t->p, name, "ratio", method, "the dense mma.sync %s rate per clock per SM "
                     "was not determined", gs_mma_type_name(ty));
    else {
        double q = sparse->per_clock_per_sm / d->per_clock_per_sm;
        double ra = sparse->per_clock_per_sm_ci95 / sparse->per_clock_per_sm;
        double rb = d->per_clock_per_sm_ci95 / d->per_clock_per_sm;
        gs_figure(t->p, name, q, "ratio", q * sqrt(ra * ra + rb * rb),
                  sparse->n < d->n ? sparse->n : d->n, method);
    }
}

/* Calibrate the iterations to the target time, then time opt.launches launches. */
static int measure_rate(tensor_ctx *t, gs_mma_instr i, gs_mma_type ty, gs_error *err)
{
    char why[sizeof err->msg], name[96], method[400];
    rate_names rn = names_of(ty);
    gs_mma_result r;
    unsigned sms = t->ctx->info->sm_count > 0 ? (unsigned)t->ctx->info->sm_count : 1;
    unsigned per_sm = opt.blocks_per_sm ? (unsigned)opt.blocks_per_sm : i == GS_MMA_WGMMA ? 4 : 2;
    gs_mma_plan plan = {.instr = i, .type = ty, .blocks = per_sm * sms,
                        .warps_per_block = i == GS_MMA_WGMMA ? 4 : (unsigned)opt.warps,
                        .iterations = CALIBRATION_ITERATIONS, .repeats = 1};
    int rc = run_plan(t, &plan, &r, why, sizeof why, err);
    if (!rc && !why[0]) {
        plan.iterations = gs_atomic_iterations_for(CALIBRATION_ITERATIONS, r.values[0],
                                                   opt.target_ms * 1e-3, MAX_ITERATIONS);
        plan.repeats = (unsigned)opt.launches;
        rc = run_plan(t, &plan, &r, why, sizeof why, err);
    }
    if (rc)
        return rc;
    gs_atomic_rate rt = {0};
    /* The SM clock during the launches (thread 0 of block 0 runs the whole 2 ms loop, so its
     * clock64 / globaltimer span is the launch's): on the H100 it read about 1.80 GHz under
     * tensor load against 1.98 GHz before the probe, a power-limited clock the figures per clock
     * must use. (The atomics probe, whose thread 0 may finish early, uses the clock before.) */
    double khz = r.clock_khz > 0 ? r.clock_khz : t->ctx->clock_khz;
    if (!why[0] && gs_atomic_rate_of(r.values, r.n, r.flops, khz, (int)sms, &rt))
        snprintf(why, sizeof why, "no launch took a measurable time");
    /* A rate above the published peak beyond its interval means the kernel did less work than
     * it counts (on the H100 the fp8 (e4m3) mma.sync compiled to a few HMMA after conversions, 4
     * in the loop for the other types' 80, and read 2.4 x the peak), or a clock that read low. No
     * rate of such a kernel is reported, and its latency chain (the same instruction) is not
     * trusted either. */
    double peak_pc = 0;
    const char *peak_src = NULL;
    char peak_why[160];
    if (!why[0] && !isnan(rt.per_clock_per_sm) &&
        peak_of(t, i, ty, &peak_pc, &peak_src, peak_why, sizeof peak_why) == 0 &&
        gs_rate_above_peak(rt.per_clock_per_sm, rt.per_clock_per_sm_ci95, peak_pc)) {
        snprintf(why, sizeof why, "above the %s peak per clock per SM (%.0f, %s): measured "
                 "%.0f +- %.0f per clock per SM (%.3f of it); the kernel did less work than it "
                 "counts (the compiler removed or replaced the instructions; see the SASS), or "
                 "the clock read low", i == GS_MMA_SP ? "sparse" : "dense", peak_pc, peak_src,
                 rt.per_clock_per_sm,
                 rt.per_clock_per_sm_ci95, rt.per_clock_per_sm / peak_pc);
        figure_name(name, sizeof name, i, ty, "latency_cycles");
        gs_figure_nd(t->p, name, "cycles", "dependent chain", "%s", why);
    }
    snprintf(method, sizeof method, "%u blocks (%u per SM) of %u warps, each %s, %d instructions "
             "per loop trip; %s / launch time (events), median over launches",
             plan.blocks, per_sm, plan.warps_per_block,
             i == GS_MMA_WGMMA ? "warpgroup one accumulator, commit groups of 16 wgmma"
                               : "warp 8 independent accumulators", GS_MMA_PER_TRIP,
             i == GS_MMA_SP ? "the dense product's 2mnk operations (k the logical, uncompressed "
                              "depth)" : "dense 2mnk operations");
    figure_name(name, sizeof name, i, ty, rn.rate);
    if (why[0])
        gs_figure_nd(t->p, name, rn.rate_unit, method, "%s", why);
    else
        gs_figure(t->p, name, rt.gops * 1e-3, rn.rate_unit, rt.gops_ci95 * 1e-3, rt.n, method);
    figure_name(name, sizeof name, i, ty, rn.per_clock);
    if (why[0])
        gs_figure_nd(t->p, name, rn.per_clock_unit, method, "%s", why);
    else if (isnan(rt.per_clock_per_sm))
        gs_figure_nd(t->p, name, rn.per_clock_unit, method, "the SM clock is unknown");
    else
        gs_figure(t->p, name, rt.per_clock_per_sm, rn.per_clock_unit, rt.per_clock_per_sm_ci95,
                  rt.n, "the rate over the SM clock during the launches (clock64 / globaltimer) "
                  "and over the SMs");
    record_peak(t, i, ty, &rt, why);
    if (why[0])
        rt.per_clock_per_sm = NAN;
    if (i == GS_MMA_SYNC)
        t->dense[ty] = rt;
    if (i == GS_MMA_SP)
        record_over_dense(t, ty, &rt);
    return 0;
}

static int measure_all(tensor_ctx *t, gs_error *err)
{
    int rc = 0;
    const gs_device_info *info = t->ctx->info;
    for (int i = 0; i < GS_MMA_INSTR_COUNT && !rc; i++) {
        for (int ty = 0; ty < GS_MMA_TYPE_COUNT && !rc; ty++) {
            unsigned m, n, k;
            char why[200], na[240];
            if (!t->instr[i] || !t->type[ty] || !gs_mma_shape((gs_mma_instr)i, (gs_mma_type)ty,
                                                              &m, &n, &k))
                continue;
            if (!gs_mma_applicable((gs_mma_instr)i, (gs_mma_type)ty, info->cc_major,
                                   info->cc_minor, why, sizeof why)) {
                snprintf(na, sizeof na, "not applicable: %s", why);
                record_all_nd(t, (gs_mma_instr)i, (gs_mma_type)ty, na);
                continue;
            }
            gs_progress(t->ctx, "tensor: %s %s", instr_name(i), type_name(ty));
            rc = measure_latency(t, (gs_mma_instr)i, (gs_mma_type)ty, err);
            if (!rc)
                rc = measure_rate(t, (gs_mma_instr)i, (gs_mma_type)ty, err);
        }
    }
    return rc;
}

static int gs_probe_tensor_run(gs_probe_ctx *ctx, gs_error *err)
{
    opt.types = "all";
    opt.instrs = "all";
    opt.repeats = ctx->thorough ? 64 : 16;
    opt.launches = ctx->thorough ? 15 : 5;
    opt.target_ms = ctx->thorough ? 8 : 2;
    opt.warps = 8;
    opt.blocks_per_sm = 0;
    tensor_ctx t = {.ctx = ctx};
    for (int ty = 0; ty < GS_MMA_TYPE_COUNT; ty++)
        t.dense[ty].per_clock_per_sm = NAN;
    int rc = gs_probe_parse_opts(ctx, gs_probe_tensor_opts, err);
    if (!rc)
        rc = parse_list(opt.types, "types", GS_MMA_TYPE_COUNT, type_name, t.type, err);
    if (!rc)
        rc = parse_list(opt.instrs, "instrs", GS_MMA_INSTR_COUNT, instr_name, t.instr, err);
    if (rc)
        return rc;
    if (!(opt.target_ms > 0 && opt.target_ms <= 1000))
        return gs_fail(err, GS_ERR_USAGE, "--target-ms %g: use a length in (0, 1000] ms",
                       opt.target_ms);
    if (!(t.values = calloc(MAX_REPEATS, sizeof *t.values)))
        return gs_fail(err, GS_ERR_NO_MEMORY, "out of host memory");
    t.p = gs_run_add_probe(ctx->run, "tensor");
    gs_param_string(t.p, "types", opt.types);
    gs_param_string(t.p, "instrs", opt.instrs);
    gs_param_int(t.p, "repeats", opt.repeats);
    gs_param_int(t.p, "launches", opt.launches);
    gs_param_double(t.p, "target_ms", opt.target_ms);
    gs_param_int(t.p, "warps_per_block", opt.warps);
    gs_param_int(t.p, "blocks_per_sm", opt.blocks_per_sm);
    rc = measure_all(&t, err);
    free(t.values);
    return rc;
}

/* The probe's descriptor (probe.h). */
static const char *const headline[] = {"-", NULL};
const gs_probe_def gs_probe_tensor_def = {
    .name = "tensor",
    .run = gs_probe_tensor_run,
    .flags = 0,
    .summary = "tensor cores: mma.sync (and sm_90 wgmma) latency and dense FLOP/s per type "
               "against the published peak; 2:4 sparse mma.sp against dense",
    .opts = gs_probe_tensor_opts,
    .expected_s = 0.1,
    .expected_sim_s = 0.05,
    .keep_rank = 0,
    .hints = {.headline = headline, .table = "tensor"},
};
