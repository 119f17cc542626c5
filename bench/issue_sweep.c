/* A small driver of the CUDA backend's issue operation, independent of the CLI: sweeps warps per SM
 * for every instruction type and ILP (by block size, one or two blocks per SM held by Eq. 2),
 * warps by concurrent blocks for FFMA, divergent paths 1..32, and the fp32 FMA peak over
 * SMs x 128 lanes x 2 x f at the clock measured in the same run. Prints CSV rows (curve, blocks,
 * divergence) and a summary; used by bench/fma_peak.sh and for the first H100 runs.
 *
 * usage: issue_sweep [all|peak|small|timing [STAMPS.csv]] [TYPE...]
 *        (small: a tiny configuration for compute-sanitizer; timing: the per-SM timing checks of
 *        short multi-block kernels, each repetition printed, raw stamps of some appended to CSV)
 * build: see bench/fma_peak.sh */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/pipeline_model.h"
#include "analysis/stats.h"
#include "backend.h"

#define REPS 5
#define TARGET_CYCLES 200000.0

static gs_backend *dev;
static gs_device_info info;
static double clock_khz(void);
static double f_khz;       /* SM clock measured at the start, for event-timed throughput */
static double last_ns;     /* median event time of the last point */

static int issue(gs_issue_plan *p, gs_issue_result *r)
{
    gs_error err;
    gs_error_clear(&err);
    if (dev->ops->issue(dev, p, r, &err)) {
        fprintf(stderr, "issue %s ilp %u wpb %u blocks %u limit %u: %s\n", gs_instr_name(p->instr),
                p->ilp, p->warps_per_block, p->blocks, p->blocks_per_sm_limit, err.msg);
        return -1;
    }
    return 0;
}

/* Calibrate iterations to about target cycles, then REPS runs; median ipc and warps. */
static int point(gs_issue_plan *p, double target, double *ipc, double *sd, double *warps)
{
    gs_issue_result r;
    double v[REPS], t[REPS];
    p->iterations = 8;
    if (issue(p, &r))
        return -1;
    double it = p->iterations * target / (r.cycles > 1 ? r.cycles : 1);
    p->iterations = it < 8 ? 8 : it > 4e8 ? 4e8 : (unsigned)it;
    for (int i = 0; i < REPS; i++) {
        if (issue(p, &r))
            return -1;
        v[i] = r.instr_per_cycle_per_sm;
        t[i] = r.ns;
    }
    last_ns = gs_median(t, REPS);
    gs_summary s = gs_summarize(v, REPS);
    *ipc = s.median;
    *sd = s.stddev;
    *warps = r.warps_per_sm;
    return 0;
}

static void sweep_type(gs_instr t)
{
    static const unsigned ilps[3] = {1, 2, 4};
    for (int k = 0; k < 3; k++) {
        double w[64], y[64];
        int n = 0;
        for (unsigned warps = 1; warps <= 64; warps += warps < 32 ? 1 : warps == 32 ? 4 : 4) {
            unsigned two = warps > 32;
            gs_issue_plan p = {.instr = t, .ilp = ilps[k], .warps_per_block = two ? warps / 2 : warps,
                               .blocks = (two ? 2u : 1u) * (unsigned)info.sm_count,
                               .blocks_per_sm_limit = two ? 2 : 1};
            double ipc, sd, wm;
            if (point(&p, TARGET_CYCLES, &ipc, &sd, &wm))
                return;
            printf("curve,%s,%u,%u,%.1f,%.5f,%.5f,%u\n", gs_instr_name(t), ilps[k], warps, wm, ipc,
                   sd, p.iterations);
            w[n] = warps;
            y[n++] = ipc;
        }
        gs_pipe_curve_fit f;
        if (gs_pipe_fit_curve(w, y, (size_t)n, GS_PIPE_RIDGE_TOLERANCE, &f) == 0)
            fprintf(stderr, "SUMMARY %-9s ilp %u: lambda %.3f Lambda %.2f peak %.3f warp-instr/cyc/SM "
                    "(%.1f lane ops) knee %.1f ridge %.0f warps\n", gs_instr_name(t), ilps[k],
                    f.lambda_issue_cycles, f.Lambda_completion_cycles, f.peak_ipc,
                    f.peak_ipc * 32, f.knee_warps, f.ridge_warps);
    }
}

/* Points whose clock64 throughput reads above the unit's ceiling on the H100 (two blocks of
 * 19 warps), against the event-timed throughput of long kernels (2e6 cycles). */
static void anomaly_check(void)
{
    static const unsigned warps[] = {16, 20, 36, 38, 40, 46};
    static const gs_instr types[] = {GS_INSTR_FFMA, GS_INSTR_DFMA};
    for (int k = 0; k < 2; k++)
        for (int i = 0; i < 6; i++) {
            unsigned w = warps[i], two = w > 32;
            gs_issue_plan p = {.instr = types[k], .ilp = 1, .warps_per_block = two ? w / 2 : w,
                               .blocks = (two ? 2u : 1u) * (unsigned)info.sm_count,
                               .blocks_per_sm_limit = two ? 2 : 1};
            double ipc, sd, wm;
            if (point(&p, 2e6, &ipc, &sd, &wm))
                continue;
            double ev = (double)p.blocks * p.warps_per_block * p.iterations *
                        (types[k] == GS_INSTR_FFMA || types[k] == GS_INSTR_DFMA ? 256 : 0) /
                        (info.sm_count * last_ns * f_khz * 1e-6);
            printf("anomaly,%s,%u,clock64_ipc=%.4f,event_ipc=%.4f,warps_measured=%.1f\n",
                   gs_instr_name(types[k]), w, ipc, ev, wm);
        }
}

static void sweep_blocks(void)
{
    for (unsigned wpb = 1; wpb <= 2; wpb++)
        for (unsigned b = 1; b <= 32; b++) {
            gs_issue_plan p = {.instr = GS_INSTR_FFMA, .ilp = 1, .warps_per_block = wpb,
                               .blocks = b * (unsigned)info.sm_count, .blocks_per_sm_limit = b};
            double ipc, sd, wm;
            if (point(&p, TARGET_CYCLES, &ipc, &sd, &wm))
                continue;
            printf("blocks,ffma,1,%u,%u,%.1f,%.5f,%.5f\n", wpb, b, wm, ipc, sd);
        }
}

static void sweep_divergence(void)
{
    for (unsigned paths = 1; paths <= 32; paths++) {
        gs_issue_plan p = {.instr = GS_INSTR_FFMA, .ilp = 4, .warps_per_block = 32,
                           .blocks = 2 * (unsigned)info.sm_count, .blocks_per_sm_limit = 2,
                           .divergent_paths = paths};
        double ipc, sd, wm;
        if (point(&p, TARGET_CYCLES * paths, &ipc, &sd, &wm))
            return;
        printf("divergence,ffma,4,%u,%.1f,%.5f,%.5f,lane_ops_per_cycle_per_sm=%.2f\n", paths, wm,
               ipc, sd, ipc * 32 / paths);
    }
}

/* fp32 FMA peak: FFMA ILP 4 at 64 warps per SM for about 50 ms, against SMs x 128 x 2 x f with f
 * from the clock operation (globaltimer windows) just before and after, and from the kernel. */
static double clock_khz(void)
{
    uint64_t cyc[8], ns[8];
    gs_clock_plan cp = {.windows = 8, .window_ns = 2000000, .read_samples = 16};
    gs_clock_result cr = {.window_cycles = cyc, .window_ns = ns};
    gs_error err;
    gs_error_clear(&err);
    if (dev->ops->clock(dev, &cp, &cr, &err)) {
        fprintf(stderr, "clock: %s\n", err.msg);
        return NAN;
    }
    double c = 0, t = 0;
    for (int i = 0; i < 8; i++)
        c += (double)cyc[i], t += (double)ns[i];
    return c / t * 1e6;
}

static void fma_peak(void)
{
    gs_issue_plan p = {.instr = GS_INSTR_FFMA, .ilp = 4, .warps_per_block = 32,
                       .blocks = 2 * (unsigned)info.sm_count, .blocks_per_sm_limit = 2};
    gs_issue_result r;
    double ipc, sd, wm;
    if (point(&p, 1e8, &ipc, &sd, &wm))   /* about 50 ms at 2 GHz */
        return;
    double before = clock_khz();
    if (issue(&p, &r))
        return;
    double after = clock_khz();
    double kernel_khz = r.cycles / r.ns * 1e6;
    double f_hz = fmax(fmax(before, after), kernel_khz) * 1e3;
    double flops = r.instructions * 32 * 2 / (r.ns * 1e-9);
    const char *lanes_env = getenv("LANES");  /* fp32 lanes per SM: the datasheet's 128 */
    double lanes = lanes_env ? atof(lanes_env) : 128.0;
    double theory = info.sm_count * lanes * 2 * f_hz;
    printf("fma_peak,clock_before_khz=%.0f,clock_after_khz=%.0f,kernel_khz=%.0f,"
           "measured_tflops=%.3f,theory_tflops=%.3f,ratio=%.4f,ipc=%.4f\n", before, after,
           kernel_khz, flops / 1e12, theory / 1e12, flops / theory, r.instr_per_cycle_per_sm);
    fprintf(stderr, "FMA PEAK: %.2f TFLOP/s measured, %.2f theoretical (%d SMs x %.0f x 2 x %.0f MHz)"
            " ratio %.4f\n", flops / 1e12, theory / 1e12, info.sm_count, lanes, f_hz / 1e6,
            flops / theory);
}

static void small(void)
{
    for (int t = 0; t < GS_INSTR_COUNT; t++)
        for (unsigned ilp = 1; ilp <= 4; ilp *= 2) {
            gs_issue_plan p = {.instr = (gs_instr)t, .ilp = ilp, .warps_per_block = 3,
                               .blocks = 2 * (unsigned)info.sm_count, .blocks_per_sm_limit = 1,
                               .iterations = 4, .divergent_paths = 3};
            gs_issue_result r;
            if (issue(&p, &r) == 0)
                printf("small,%s,%u,%.0f,%.1f,%.4f\n", gs_instr_name(p.instr), ilp, r.cycles,
                       r.warps_per_sm, r.instr_per_cycle_per_sm);
        }
}

/* The timing of multi-block kernels: for each plan and kernel length, every repetition's
 * throughput by the backend's method (globaltimer per SM x the SM's own clock), by clock64 spans
 * across the blocks of one SM id (the old method), over the whole kernel (globaltimer, a lower
 * bound) and from the events; and the checks. Stamps of the first repetition of each go to csv. */
static void timing_check(const char *csv)
{
    struct { gs_instr t; unsigned ilp, wpb, per_sm, paths; } plans[] = {
        {GS_INSTR_FFMA, 4, 32, 1, 1}, {GS_INSTR_FFMA, 4, 24, 2, 1}, {GS_INSTR_FFMA, 4, 32, 2, 1},
        {GS_INSTR_FFMA, 1, 19, 2, 1}, {GS_INSTR_FFMA, 4, 32, 2, 2}, {GS_INSTR_FFMA, 1, 1, 17, 1},
        {GS_INSTR_FFMA, 1, 2, 32, 1}, {GS_INSTR_DFMA, 1, 23, 2, 1},
    };
    static const double targets[] = {25000, 100000, 2000000};
    for (size_t k = 0; k < sizeof plans / sizeof plans[0]; k++)
        for (int j = 0; j < 3; j++) {
            gs_issue_plan p = {.instr = plans[k].t, .ilp = plans[k].ilp,
                               .warps_per_block = plans[k].wpb,
                               .blocks = plans[k].per_sm * (unsigned)info.sm_count,
                               .blocks_per_sm_limit = plans[k].per_sm,
                               .divergent_paths = plans[k].paths};
            gs_issue_result r;
            p.iterations = 8;
            if (issue(&p, &r))
                break;
            double it = p.iterations * targets[j] / (r.cycles > 1 ? r.cycles : 1);
            p.iterations = it < 8 ? 8 : (unsigned)it;
            for (int i = 0; i < REPS; i++) {
                if (csv && i == 0 && j < 2)
                    setenv("GS_ISSUE_STAMPS_CSV", csv, 1);
                int bad = issue(&p, &r);
                unsetenv("GS_ISSUE_STAMPS_CSV");
                if (bad)
                    break;
                double ev = r.instructions / (info.sm_count * r.ns * r.clock_khz * 1e-6);
                printf("timing,%s,ilp%u,%ux%u warps,paths %u,target %.0f,rep %d,ipc %.4f,"
                       "clock64_ipc %.4f,kernel_ipc %.4f,event_ipc %.4f,warps %.1f,"
                       "start_spread %.0f,mismatch_sms %u,moved %u,error %d,clock %.0f kHz,"
                       "cycles %.0f\n", gs_instr_name(p.instr), p.ilp, plans[k].per_sm, p.warps_per_block,
                       plans[k].paths, targets[j], i, r.instr_per_cycle_per_sm, r.clock64_ipc_per_sm,
                       r.kernel_ipc_per_sm, ev, r.warps_per_sm, r.start_spread_cycles,
                       r.clock_mismatch_sms, r.moved_blocks, (int)r.measurement_error, r.clock_khz,
                       r.cycles);
            }
        }
}

int main(int argc, char **argv)
{
    gs_error err;
    gs_error_clear(&err);
    const char *mode = argc > 1 ? argv[1] : "all";
    if (gs_cuda_open(0, &dev, &err) || dev->ops->info(dev, &info, &err)) {
        fprintf(stderr, "issue_sweep: %s\n", err.msg);
        return 1;
    }
    f_khz = clock_khz();
    fprintf(stderr, "device %s, %d SMs, cc %d.%d, clock %.0f kHz (driver), %.0f kHz (measured)\n",
            info.name, info.sm_count, info.cc_major, info.cc_minor, info.sm_clock_khz, f_khz);
    if (strcmp(mode, "small") == 0) {
        small();
    } else if (strcmp(mode, "timing") == 0) {
        timing_check(argc > 2 ? argv[2] : NULL);
    } else if (strcmp(mode, "peak") == 0) {
        fma_peak();
    } else {
        for (int t = 0; t < GS_INSTR_COUNT; t++) {
            gs_instr i = (gs_instr)t;
            int want = argc <= 2;
            for (int a = 2; a < argc; a++)
                want |= strcmp(argv[a], gs_instr_name(i)) == 0;
            if (want)
                sweep_type(i);
        }
        sweep_blocks();
        sweep_divergence();
        anomaly_check();
        fma_peak();
    }
    gs_backend_close(dev);
    return 0;
}
