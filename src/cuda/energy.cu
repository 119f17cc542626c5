/* The energy operation: a work of known operation or byte count run for plan.seconds while a
 * second thread reads NVML's total-energy counter as fast as it answers (a read takes a few ms)
 * and a millisecond more, each read timed by the host's monotonic clock. The work reuses the other operations' kernels,
 * each unit sized to about UNIT_S so that the gaps between units stay a small part of the
 * window: the issue kernels (FFMA, DFMA, HFMA2), the mma.sync throughput kernels, the
 * level-stream kernels (shared memory, L1, L2 and DRAM reads) and a pinned cudaMemcpy. */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <time.h>

#include "cuda/cuda_internal.h"

#define UNIT_S 0.05               /* one unit of work: long against its launch and copies */
#define READ_PAUSE_NS 1000000     /* between counter reads: bounds the reads where NVML answers
                                     fast (the result holds 2000 a second at most) */
#define H2D_RUNS 32               /* timed copies of H2D_BYTES per unit: a unit of tens of ms
                                     against its pinned allocation */
#define H2D_BYTES (64ull << 20)

static double host_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

typedef struct poller {
    void *dev;
    double t0;
    double *t_s, *mj;
    size_t cap, n;
    int stop;                     /* set by the work's thread (atomic) */
    int nvml_rc;                  /* a failed read's NVML code, 0 */
} poller;

static void *poll_counter(void *arg)
{
    poller *p = (poller *)arg;
    while (!__atomic_load_n(&p->stop, __ATOMIC_ACQUIRE) && p->n < p->cap) {
        unsigned long long mj = 0;
        int rc = gs_cuda_nvml_energy_read(p->dev, &mj);
        if (rc) {
            p->nvml_rc = rc;
            break;
        }
        p->t_s[p->n] = host_s() - p->t0;
        p->mj[p->n++] = (double)mj;
        struct timespec ts = {0, READ_PAUSE_NS};
        nanosleep(&ts, NULL);
    }
    return NULL;
}

/* A new size from the last run's seconds: a run of about UNIT_S / UNIT_RUNS, within [1, max]. */
#define UNIT_RUNS 4               /* timed runs per unit; each unit adds one untimed warm-up run
                                     (the harness's), counted as well */
static double rescale(double size, double seconds, double max)
{
    double s = seconds > 0 ? size * UNIT_S / UNIT_RUNS / seconds : size * 2;
    return fmin(fmax(floor(s), 1), max);
}

/* One unit of work adds its operations (bytes) to *ops and rescales the sizes in *st for the
 * next unit. */
typedef struct work_state {
    double iterations;            /* issue and mma trips */
    double traffic;               /* level-stream bytes per run */
} work_state;

/* One issue launch (the issue operation runs its kernel once, untimed runs none). */
static int fma_unit(gs_backend *b, const gs_energy_plan *p, work_state *st, double *ops,
                    gs_error *err)
{
    const cudaDeviceProp *prop = &gs_cuda_of(b)->prop;
    gs_instr instr = p->work == GS_ENERGY_FFMA   ? GS_INSTR_FFMA
                     : p->work == GS_ENERGY_DFMA ? GS_INSTR_DFMA
                                                 : GS_INSTR_HFMA2;
    unsigned per_sm = (unsigned)prop->maxThreadsPerMultiProcessor / 256;
    gs_issue_plan plan = {.instr = instr, .ilp = 4, .warps_per_block = 8,
                          .blocks = (per_sm ? per_sm : 1) * (unsigned)prop->multiProcessorCount,
                          .iterations = (unsigned)st->iterations};
    gs_issue_result r;
    int rc = gs_cuda_issue(b, &plan, &r, err);
    if (rc)
        return rc;
    *ops += r.instructions * prop->warpSize;
    st->iterations = rescale(st->iterations, r.ns * 1e-9 / UNIT_RUNS, 1e8);
    return 0;
}

/* UNIT_RUNS timed throughput launches after one untimed one, all of the same flops. */
static int mma_unit(gs_backend *b, const gs_energy_plan *p, work_state *st, double *ops,
                    gs_error *err)
{
    double seconds[UNIT_RUNS];
    gs_mma_plan plan = {.instr = GS_MMA_SYNC, .type = p->type,
                        .blocks = 4 * (unsigned)gs_cuda_of(b)->prop.multiProcessorCount,
                        .warps_per_block = 4, .iterations = (uint64_t)st->iterations,
                        .repeats = UNIT_RUNS};
    gs_mma_result r = {.values = seconds};
    int rc = gs_cuda_mma(b, &plan, &r, err);
    if (rc)
        return rc;
    *ops += (double)r.flops * (double)(r.n + 1);
    st->iterations = rescale(st->iterations, r.n ? seconds[0] : 0, 1e9);
    return 0;
}

/* UNIT_RUNS timed level-stream runs (or pinned copies) after one untimed one; the footprint stays
 * the same from unit to unit, so its buffers are warm after the first (harness.cu). */
static int stream_unit(gs_backend *b, const gs_energy_plan *p, work_state *st, double *ops,
                       gs_error *err)
{
    const gs_cuda *c = gs_cuda_of(b);
    double seconds[H2D_RUNS];
    uint64_t l2 = (uint64_t)c->prop.l2CacheSize;
    gs_stream_plan plan = {.kind = GS_STREAM_LEVEL_READ, .element_bytes = 16,
                           .repeats = UNIT_RUNS, .traffic_bytes = (uint64_t)st->traffic};
    switch (p->work) {
    case GS_ENERGY_SMEM: plan.kind = GS_STREAM_SMEM_READ; plan.bytes = 32768; break;
    case GS_ENERGY_L1: plan.bytes = 16384; plan.sweep = GS_SWEEP_BLOCKS; break;
    case GS_ENERGY_L2: plan.bytes = l2 / 4 / 256 * 256; plan.sweep = GS_SWEEP_GRID; break;
    case GS_ENERGY_DRAM:
        plan.bytes = 8 * l2 > (1ull << 30) ? 8 * l2 : (1ull << 30);
        plan.sweep = GS_SWEEP_GRID;
        break;
    default:
        plan.kind = GS_STREAM_MEMCPY_H2D;
        plan.bytes = H2D_BYTES;
        plan.repeats = H2D_RUNS;
        break;
    }
    gs_stream_result r = {.seconds = seconds};
    int rc = plan.kind == GS_STREAM_MEMCPY_H2D ? gs_cuda_stream(b, &plan, &r, err)
                                                : gs_cuda_level_stream(b, &plan, &r, err);
    if (rc)
        return rc;
    *ops += (double)r.bytes_moved * (double)(r.n + 1);
    if (plan.kind != GS_STREAM_MEMCPY_H2D)
        st->traffic = rescale(st->traffic, r.n ? seconds[0] : 0, 1e13);
    return 0;
}

static int one_unit(gs_backend *b, const gs_energy_plan *p, work_state *st, double *ops,
                    gs_error *err)
{
    if (p->work <= GS_ENERGY_HFMA2)
        return fma_unit(b, p, st, ops, err);
    if (p->work == GS_ENERGY_MMA)
        return mma_unit(b, p, st, ops, err);
    return stream_unit(b, p, st, ops, err);
}

/* The work for plan.seconds, unit after unit, after one uncounted unit that sizes the units and
 * warms fresh buffers (its warm-up runs are not counted by the operations); IDLE sleeps. */
static int run_work(gs_backend *b, const gs_energy_plan *p, double t0, gs_energy_result *out,
                    gs_error *err)
{
    work_state st = {1000, 256.0 * (1 << 20)};
    double ops = 0, ignored = 0;
    int rc = 0;
    if (p->work != GS_ENERGY_IDLE)
        rc = one_unit(b, p, &st, &ignored, err);
    out->busy_start_s = host_s() - t0;
    if (p->work == GS_ENERGY_IDLE) {
        struct timespec ts = {(time_t)p->seconds,
                              (long)((p->seconds - floor(p->seconds)) * 1e9)};
        nanosleep(&ts, NULL);
    }
    while (p->work != GS_ENERGY_IDLE && !rc && host_s() - t0 - out->busy_start_s < p->seconds)
        rc = one_unit(b, p, &st, &ops, err);
    out->busy_end_s = host_s() - t0;
    out->ops = ops;
    return rc;
}

int gs_cuda_energy(gs_backend *b, const gs_energy_plan *p, gs_energy_result *out, gs_error *err)
{
    int rc = 0;
    char bus[32] = "", why[200] = "";
    poller pl = {0};
    pthread_t thread;
    out->n = 0;
    out->ops = 0;
    if (!(p->seconds > 0) || (unsigned)p->work >= GS_ENERGY_WORK_COUNT || p->max_reads == 0)
        return gs_fail(err, GS_ERR_USAGE, "energy plan needs a known work, seconds > 0 and room "
                       "for reads");
    CUDA_TRY(cudaSetDevice(gs_cuda_of(b)->ordinal));
    CUDA_TRY(cudaDeviceGetPCIBusId(bus, (int)sizeof bus, gs_cuda_of(b)->ordinal));
    if (gs_cuda_nvml_energy_open(bus, &pl.dev, why, sizeof why))
        return gs_fail(err, GS_ERR_UNSUPPORTED, "%s", why);
    pl.t0 = host_s();
    pl.t_s = out->t_s;
    pl.mj = out->mj;
    pl.cap = p->max_reads;
    if (pthread_create(&thread, NULL, poll_counter, &pl) != 0)
        return gs_fail(err, GS_ERR_DEVICE, "cannot start the thread that reads the energy "
                       "counter");
    rc = run_work(b, p, pl.t0, out, err);
    __atomic_store_n(&pl.stop, 1, __ATOMIC_RELEASE);
    pthread_join(thread, NULL);
    out->n = pl.n;
    if (!rc && pl.nvml_rc)
        rc = gs_fail(err, GS_ERR_DEVICE, "nvmlDeviceGetTotalEnergyConsumption failed during the "
                     "work (NVML error %d)", pl.nvml_rc);
fail:
    return rc;
}
