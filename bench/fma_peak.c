/* The driver of bench/fma_peak.sh: the fp32 FMA peak of cuda:0 against SMs x LANES x 2 x f, with f
 * the SM clock measured in the same run. FFMA at ILP 4 with every SM full (two blocks of 32 warps
 * per SM), iterations calibrated to about 1e8 cycles (50 ms at 2 GHz), timed with CUDA events
 * through the backend's issue operation; f is the largest of the clock operation's reading
 * (globaltimer windows) just before and just after the kernel and the kernel's own clock64
 * cycles over its event time. LANES (environment, default 128) is the fp32 lanes per SM of the
 * datasheet, the one number here that is not measured.
 * Built by CMake with the project (target fma_peak, beside gpusonar in the build folder).
 * usage: fma_peak    prints one line fma_peak,...,ratio=R,... on stdout; exit 1 on failure */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "backend.h"

#define REPS 5

static gs_backend *dev;
static gs_device_info info;

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

/* Calibrate iterations to about target cycles, then REPS runs (the kernel warm and its clock up). */
static int calibrate(gs_issue_plan *p, double target)
{
    gs_issue_result r;
    p->iterations = 8;
    if (issue(p, &r))
        return -1;
    double it = p->iterations * target / (r.cycles > 1 ? r.cycles : 1);
    p->iterations = it < 8 ? 8 : it > 4e8 ? 4e8 : (unsigned)it;
    for (int i = 0; i < REPS; i++)
        if (issue(p, &r))
            return -1;
    return 0;
}

/* SM clock from the clock operation: cycles over globaltimer ns across 8 windows of 2 ms. */
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

static int fma_peak(void)
{
    gs_issue_plan p = {.instr = GS_INSTR_FFMA, .ilp = 4, .warps_per_block = 32,
                       .blocks = 2 * (unsigned)info.sm_count, .blocks_per_sm_limit = 2};
    gs_issue_result r;
    if (calibrate(&p, 1e8))   /* about 50 ms at 2 GHz */
        return -1;
    double before = clock_khz();
    if (issue(&p, &r))
        return -1;
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
    fprintf(stderr, "FMA PEAK: %.2f TFLOP/s measured, %.2f theoretical (%d SMs x %.0f x 2 x %.0f "
            "MHz) ratio %.4f\n", flops / 1e12, theory / 1e12, info.sm_count, lanes, f_hz / 1e6,
            flops / theory);
    return 0;
}

int main(void)
{
    gs_error err;
    gs_error_clear(&err);
    if (gs_cuda_open(0, &dev, &err) || dev->ops->info(dev, &info, &err)) {
        fprintf(stderr, "fma_peak: %s\n", err.msg);
        return 1;
    }
    double f_khz = clock_khz();
    fprintf(stderr, "device %s, %d SMs, cc %d.%d, clock %.0f kHz (driver), %.0f kHz (measured)\n",
            info.name, info.sm_count, info.cc_major, info.cc_minor, info.sm_clock_khz, f_khz);
    int rc = fma_peak();
    gs_backend_close(dev);
    return rc ? 1 : 0;
}
