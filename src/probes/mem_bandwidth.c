/* Probe `mem-bandwidth`: bandwidth by memory level. Read, write, copy and STREAM's scale, add and
 * triad kernels (McCalpin's STREAM; gpu-benches' gpu-stream, gpu-cache and gpu-l2-cache on GPUs)
 * run over footprints from the L1 to far beyond the L2, log-spaced, per element width (4, 8, 16
 * bytes); GB/s counts bytes read plus written over kernel time (Section VI.D of the roofline
 * paper: bandwidth = bytesComm / runtime). A footprint up to the L2 is swept by one block per SM
 * over all of it (each SM sees the whole footprint: the L1 serves it while it fits); beyond the
 * L2 the grid sweeps it together. The plateaus of GB/s against footprint (src/analysis/plateaus.c)
 * are named after the level whose footprint range they hold (src/analysis/bw_levels.c): L1 up to
 * the L1 size, L2 up to the L2 size, DRAM beyond. Each kind's DRAM figure is the better of that
 * sweep's plateau and gpu-stream's own order (one element per thread, a launch per pass) on
 * arrays of 20 x L2 each, where an H100's add and triad ran 0.3-0.6 % faster than in the tiles
 * (docs/methods.md). Also a shared-memory read, and the DRAM's peak from what the device reports
 * (2 x memory clock x bus width / 8) with the measured share of it. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "analysis/bw_levels.h"
#include "analysis/plateaus.h"
#include "analysis/stats.h"
#include "probes/probe.h"
#include "util/interrupt.h"

#define KINDS 6
#define WIDTHS 3
#define MAX_POINTS 96
#define MAX_REPEATS 200
#define PLATEAU_TOLERANCE 0.1
#define MIN_PLATEAU_POINTS 2
#define SMEM_BYTES 32768
#define LAUNCH_WIDTH 8            /* the launch order's element: a double, as gpu-stream's */
#define LAUNCH_SIZES 3
static const unsigned launch_threads[LAUNCH_SIZES] = { 256, 512, 1024 };

static const struct {
    gs_stream_kind kind;
    const char *name;
    int arrays;                   /* arrays the kind touches: its footprint is arrays x bytes */
} kinds[KINDS] = {
    { GS_STREAM_LEVEL_READ, "read", 1 },   { GS_STREAM_LEVEL_WRITE, "write", 1 },
    { GS_STREAM_LEVEL_COPY, "copy", 2 },   { GS_STREAM_LEVEL_SCALE, "scale", 2 },
    { GS_STREAM_LEVEL_ADD, "add", 3 },     { GS_STREAM_LEVEL_TRIAD, "triad", 3 },
};
static const unsigned widths[WIDTHS] = { 4, 8, 16 };

static struct {
    uint64_t min_bytes, max_bytes, l1_bytes, traffic_bytes, launch_bytes;
    long long per_octave, repeats, threads;
} opt;

const gs_opt gs_probe_mem_bandwidth_opts[] = {
    {"min-bytes", GS_OPT_BYTES, &opt.min_bytes, "BYTES",
     "smallest footprint of a sweep, all arrays together (default 16 KB)", NULL, 0, 0},
    {"max-bytes", GS_OPT_BYTES, &opt.max_bytes, "BYTES",
     "largest footprint (default 20 x L2, at most half the free memory)", NULL, 0, 0},
    {"points-per-octave", GS_OPT_INT, &opt.per_octave, "N",
     "footprints per doubling (default 2, 4 with --thorough)", NULL, 1, 16},
    {"repeats", GS_OPT_INT, &opt.repeats, "N",
     "timed launches per footprint (default 5, 15 with --thorough; 4 x that for the "
     "shared-memory read)", NULL, 2, MAX_REPEATS},
    {"threads", GS_OPT_INT, &opt.threads, "N",
     "threads per block (default: the backend's, 1024 on CUDA)", NULL, 0, 1024},
    {"l1-bytes", GS_OPT_BYTES, &opt.l1_bytes, "BYTES",
     "L1 size that bounds the L1 range (default: shared memory per SM, as info reports it)",
     NULL, 0, 0},
    {"traffic", GS_OPT_BYTES, &opt.traffic_bytes, "BYTES",
     "bytes each launch moves at least (default 8 GB: a launch of 0.3 ms at 30 TB/s)", NULL, 0, 0},
    {"launch-bytes", GS_OPT_BYTES, &opt.launch_bytes, "BYTES",
     "each array of gpu-stream's launch order, the DRAM figures' second kernel (default 20 x L2, "
     "at most --max-bytes and a sixth of the free memory, 0 where that is under 5 x L2; at "
     "least 5 x L2; 0: not run)", NULL, 0, 0},
    GS_OPT_END,
};


/* One kind and width over a list of footprints. */
typedef struct sweep {
    double x[MAX_POINTS];         /* footprint of all arrays, bytes */
    double gbps[MAX_POINTS];      /* median over repeats */
    size_t n;
} sweep;

/* Best figure per level and kind over the widths measured (0: none). */
typedef struct levels_best {
    double gbps[GS_BW_LEVELS][KINDS];
    double ci95[GS_BW_LEVELS][KINDS];
    size_t n[GS_BW_LEVELS][KINDS];
    gs_summary launches[KINDS];   /* gpu-stream's launch order, DRAM (n 0: not run) */
    unsigned launch_threads[KINDS];
} levels_best;

static double l1_bytes(const gs_probe_ctx *ctx)
{
    return opt.l1_bytes ? (double)opt.l1_bytes : (double)ctx->info->smem_per_sm_bytes;
}

/* Log-spaced footprints from lo to hi (both included), per_octave per doubling; returns count. */
static size_t footprints(uint64_t lo, uint64_t hi, long long per_octave, double *out)
{
    size_t n = 0;
    double step = pow(2.0, 1.0 / (double)per_octave);
    for (double f = (double)lo; f < (double)hi * 0.999 && n + 1 < MAX_POINTS; f *= step)
        out[n++] = floor(f);
    out[n++] = (double)hi;
    return n;
}

/* The L1 read kernels' best medians over the L1-sized footprints (plan.variant; 0: not run). */
static gs_summary l1_variant_best[GS_L1_READ_VARIANTS];

/* Median GB/s of one plan. */
static int measure_plan(gs_probe_ctx *ctx, const gs_stream_plan *plan, gs_summary *out,
                        gs_error *err)
{
    double seconds[MAX_REPEATS], gbps[MAX_REPEATS];
    gs_stream_result r = { .seconds = seconds };
    int rc = ctx->backend->ops->stream(ctx->backend, plan, &r, err);
    if (rc)
        return rc;
    for (size_t i = 0; i < r.n; i++)
        gbps[i] = seconds[i] > 0 ? (double)r.bytes_moved / seconds[i] * 1e-9 : NAN;
    *out = gs_summarize_robust(gbps, r.n, 5);
    return 0;
}

/* Median GB/s of one kind, width and footprint in the given order and block size. A read of
 * 16-byte elements by blocks over an L1-sized footprint runs every L1 read kernel the backend
 * has (plan.variant) and keeps the fastest: they differ in loads in flight, the load path and
 * warps per SM, and which one an SM's L1 serves best is the card's to say. */
static int measure_in(gs_probe_ctx *ctx, int k, unsigned width, double footprint, gs_sweep order,
                      unsigned threads, double *x, gs_summary *out, gs_error *err)
{
    uint64_t per_array = (uint64_t)(footprint / kinds[k].arrays) / 256 * 256;
    gs_stream_plan plan = {
        .kind = kinds[k].kind, .element_bytes = width, .bytes = per_array ? per_array : 256,
        .repeats = (unsigned)opt.repeats, .threads_per_block = threads, .sweep = order,
        .traffic_bytes = opt.traffic_bytes,
    };
    int rc = measure_plan(ctx, &plan, out, err);
    if (rc)
        return rc;
    *x = (double)(plan.bytes / width * width) * kinds[k].arrays;
    bool l1_read = kinds[k].kind == GS_STREAM_LEVEL_READ && width == 16 &&
                   order == GS_SWEEP_BLOCKS && footprint <= l1_bytes(ctx);
    for (unsigned v = 0; l1_read && v < GS_L1_READ_VARIANTS; v++) {
        gs_summary m = *out;
        plan.variant = v;
        if (v && (rc = measure_plan(ctx, &plan, &m, err))) {
            if (rc != GS_ERR_UNSUPPORTED)
                return rc;
            gs_error_clear(err);   /* a kernel this plan or backend lacks: the others stand */
            continue;
        }
        if (m.median > l1_variant_best[v].median)
            l1_variant_best[v] = m;
        if (v && m.median > out->median)
            *out = m;
    }
    return 0;
}

/* Each L1 read kernel's best median over the L1-sized footprints, and the fastest one's name. */
static void record_l1_variants(gs_probe_out *p)
{
    int top = -1;
    char name[64];
    for (unsigned v = 0; v < GS_L1_READ_VARIANTS; v++) {
        const gs_summary *m = &l1_variant_best[v];
        if (!(m->median > 0))
            continue;
        snprintf(name, sizeof name, "l1_read_kernel_%s_gbps", gs_l1_read_variant_name(v));
        for (char *c = name; *c; c++)
            *c = *c == '-' ? '_' : *c;
        gs_figure(p, name, m->median, "GB/s", m->ci95, m->n, "best median over the L1-sized "
                  "footprints of this L1 read kernel (src/cuda/level_stream.cu)");
        if (top < 0 || m->median > l1_variant_best[top].median)
            top = (int)v;
    }
    if (top >= 0)
        gs_figure_text(p, "l1_read_kernel", gs_l1_read_variant_name((unsigned)top), 1,
                       "the L1 read kernel of the highest median (each L1-sized footprint keeps "
                       "its fastest kernel's)");
}

/* Median GB/s of one kind, width and footprint: a blocks sweep up to the L2, a grid sweep beyond. */
static int measure(gs_probe_ctx *ctx, int k, unsigned width, double footprint, double *x,
                   gs_summary *out, gs_error *err)
{
    gs_sweep order = footprint <= (double)ctx->info->l2_bytes ? GS_SWEEP_BLOCKS : GS_SWEEP_GRID;
    return measure_in(ctx, k, width, footprint, order, (unsigned)opt.threads, x, out, err);
}

/* gpu-stream's order (one double per thread, a launch per pass) on arrays of --launch-bytes,
 * each kind at block sizes 256, 512 and 1024 (or --threads), the best median kept: the peer's
 * kernel, measured beside the tiles so that neither order's advantage on a card is lost (an
 * H100's add and triad ran 0.3-0.6 % faster in it on 1 GB arrays, 1.5-2 % slower on 128 MB,
 * its launches' tails; read, copy and scale ran 3-8 % slower: docs/methods.md). */
static int run_launches(gs_probe_ctx *ctx, gs_probe_out *p, levels_best *best, gs_error *err)
{
    char name[64], method[320];
    if (!opt.launch_bytes)
        return 0;
    gs_progress(ctx, "mem-bandwidth: gpu-stream's launch order, %llu-byte arrays",
                (unsigned long long)opt.launch_bytes);
    for (int k = 0; k < KINDS; k++) {
        gs_summary top = { 0 };
        unsigned top_threads = 0;
        for (int t = 0; t < LAUNCH_SIZES; t++) {
            unsigned threads = opt.threads ? (unsigned)opt.threads : launch_threads[t];
            gs_summary m;
            double x;
            if (gs_interrupted())
                return gs_fail(err, GS_ERR_INTERRUPTED, "interrupted");
            int rc = measure_in(ctx, k, LAUNCH_WIDTH, (double)opt.launch_bytes * kinds[k].arrays,
                                GS_SWEEP_LAUNCHES, threads, &x, &m, err);
            if (rc)
                return rc;
            if (m.median > top.median)
                top = m, top_threads = threads;
            if (opt.threads)
                break;
        }
        snprintf(name, sizeof name, "%s_%uB_dram_launches_gbps", kinds[k].name, LAUNCH_WIDTH);
        if (!(top.median > 0)) {
            gs_figure_nd(p, name, "GB/s", "gpu-stream's launch order", "no repetition gave a "
                         "positive time");
            continue;
        }
        best->launches[k] = top;
        best->launch_threads[k] = top_threads;
        snprintf(method, sizeof method, "gpu-stream's order: one %u-byte element per thread, a "
                 "grid covering %d array(s) of %llu B, a launch per pass; the median over "
                 "repetitions (bytes read + written / time) at the best block size (%u threads)",
                 LAUNCH_WIDTH, kinds[k].arrays, (unsigned long long)opt.launch_bytes,
                 top_threads);
        gs_figure(p, name, top.median, "GB/s", top.ci95, top.n, method);
    }
    return 0;
}

/* A DRAM-range footprint whose median lies further from the range's median than 3 scaled MADs
 * (and 0.3 %) is measured once more and the new median kept: the range is flat from 2 to 64 x
 * L2 (docs/methods.md, mem-bandwidth), and on an H100 one footprint of nine read 1 % low in one
 * --thorough run only, which made that run's interval five times the default's. A
 * footprint the card really serves slower reads low again. Counted in *remeasured. */
static int retry_outliers(gs_probe_ctx *ctx, int k, unsigned width, sweep *s,
                          unsigned *remeasured, gs_error *err)
{
    double in[MAX_POINTS];
    double dram = GS_BW_DRAM_FROM_L2 * (double)ctx->info->l2_bytes;
    size_t n = 0, first = s->n;
    for (size_t i = 0; i < s->n; i++)
        if (s->x[i] >= dram) {
            first = first < i ? first : i;
            in[n++] = s->gbps[i];
        }
    if (n < 5)
        return 0;
    double med = gs_median(in, n);
    double limit = fmax(3 * gs_mad_sigma(in, n, med), 0.003 * med);
    for (size_t i = first; i < s->n; i++) {
        if (fabs(s->gbps[i] - med) <= limit)
            continue;
        gs_summary m;
        double x;
        int rc = measure(ctx, k, width, s->x[i], &x, &m, err);
        if (rc)
            return rc;
        s->gbps[i] = m.median;
        (*remeasured)++;
    }
    return 0;
}

static int run_sweep(gs_probe_ctx *ctx, int k, unsigned width, uint64_t lo, uint64_t hi,
                     sweep *s, unsigned *remeasured, gs_error *err)
{
    double f[MAX_POINTS];
    size_t n = footprints(lo, hi, opt.per_octave, f);
    gs_progress(ctx, "mem-bandwidth: %s, %u-byte elements, %zu footprints", kinds[k].name, width,
                n);
    s->n = 0;
    for (size_t i = 0; i < n; i++) {
        gs_summary m;
        double x;
        if (gs_interrupted())
            return gs_fail(err, GS_ERR_INTERRUPTED, "interrupted");
        int rc = measure(ctx, k, width, f[i], &x, &m, err);
        if (rc)
            return rc;
        if (s->n > 0 && x <= s->x[s->n - 1])
            continue;                /* rounding made two footprints one */
        s->x[s->n] = x;
        s->gbps[s->n++] = m.median;
    }
    return retry_outliers(ctx, k, width, s, remeasured, err);
}

/* The figure of one level: the median over the points of the picked plateau in its range. */
static gs_summary level_summary(const gs_probe_ctx *ctx, const sweep *s, const gs_plateau *q,
                                int level)
{
    size_t idx[MAX_POINTS];
    double in[MAX_POINTS];
    size_t n = gs_bw_level_points(q, s->x, level, l1_bytes(ctx), (double)ctx->info->l2_bytes,
                                  idx);
    for (size_t i = 0; i < n; i++)
        in[i] = s->gbps[idx[i]];
    return gs_summarize(in, n);
}

/* Plateaus of one sweep named by level: a figure per level found, the best per level kept. A
 * kind that stores gets no L1 figure unless its L1 footprints ran faster than its L2 ones (by
 * more than the plateau tolerance): NVIDIA's L1 writes stores through to the L2, and with every
 * SM storing to the same lines those footprints measure the L2's store path under contention
 * (an H200's write rose from 1.0 to 3.3 TB/s across them, its L2 plateau 4.6), not a level. */
static void analyse(gs_probe_ctx *ctx, gs_probe_out *p, int k, unsigned width, const sweep *s,
                    levels_best *best)
{
    gs_plateau pl[MAX_POINTS];
    int pick[GS_BW_LEVELS];
    gs_summary sum[GS_BW_LEVELS];
    char name[64];
    int count = gs_plateaus_find(s->x, s->gbps, s->n, PLATEAU_TOLERANCE, pl, MAX_POINTS);
    snprintf(name, sizeof name, "%s_%uB", kinds[k].name, width);
    gs_series(p, name, "footprint", "bytes", "bandwidth", "GB/s", s->x, s->gbps, s->n);
    if (count < 0)
        return;
    gs_bw_levels_pick(pl, count, s->x, l1_bytes(ctx), (double)ctx->info->l2_bytes,
                      MIN_PLATEAU_POINTS, pick);
    for (int level = 0; level < GS_BW_LEVELS; level++)
        if (pick[level] >= 0)
            sum[level] = level_summary(ctx, s, &pl[pick[level]], level);
    if (kinds[k].kind != GS_STREAM_LEVEL_READ && pick[GS_BW_L1] >= 0 &&
        (pick[GS_BW_L2] < 0 ||
         sum[GS_BW_L1].median <= sum[GS_BW_L2].median * (1 + PLATEAU_TOLERANCE)))
        pick[GS_BW_L1] = -1;
    for (int level = 0; level < GS_BW_LEVELS; level++) {
        if (pick[level] < 0)
            continue;
        snprintf(name, sizeof name, "%s_%uB_%s_gbps", kinds[k].name, width,
                 gs_bw_level_name(level));
        gs_figure(p, name, sum[level].median, "GB/s", sum[level].ci95, sum[level].n,
                  "median over the footprints in this level's range (each the median over "
                  "launches) of (bytes read + written) / kernel time, of the plateau holding "
                  "the most of them");
        if (sum[level].median > best->gbps[level][k]) {
            best->gbps[level][k] = sum[level].median;
            best->ci95[level][k] = sum[level].ci95;
            best->n[level][k] = sum[level].n;
        }
    }
}

/* The headline figures: per level and kind, the best over widths; STREAM's names for DRAM,
 * where the launch order's figure stands instead of the plateau's when it is higher. */
static void record_best(gs_probe_out *p, const levels_best *best)
{
    char name[64], method[320];
    for (int level = 0; level < GS_BW_LEVELS; level++)
        for (int k = 0; k < KINDS; k++) {
            const gs_summary *l = &best->launches[k];
            bool dram = level == GS_BW_DRAM, stream = dram && k >= 3;
            bool launches = dram && l->n && l->median > best->gbps[level][k];
            if (best->gbps[level][k] <= 0 && !launches)
                continue;
            snprintf(name, sizeof name, stream ? "stream_%s_gbps" : "%s_%s_gbps",
                     stream ? kinds[k].name : gs_bw_level_name(level), kinds[k].name);
            const char *plateau = "largest over the element widths measured of the plateau "
                                  "median in this level's footprint range";
            if (launches && best->gbps[level][k] > 0)
                snprintf(method, sizeof method, "gpu-stream's launch order (%s_%uB_dram_launches"
                         "_gbps, %u threads), above the tiles' plateau (%s: %.1f GB/s)",
                         kinds[k].name, LAUNCH_WIDTH, best->launch_threads[k], plateau,
                         best->gbps[level][k]);
            else if (launches)
                snprintf(method, sizeof method, "gpu-stream's launch order (%s_%uB_dram_launches"
                         "_gbps, %u threads); the tiles' sweep found no plateau in this level's "
                         "footprint range", kinds[k].name, LAUNCH_WIDTH,
                         best->launch_threads[k]);
            else if (dram && l->n)
                snprintf(method, sizeof method, "%s; above gpu-stream's launch order (%.1f GB/s)",
                         plateau, l->median);
            else
                snprintf(method, sizeof method, "%s", plateau);
            if (launches)
                gs_figure(p, name, l->median, "GB/s", l->ci95, l->n, method);
            else
                gs_figure(p, name, best->gbps[level][k], "GB/s", best->ci95[level][k],
                          best->n[level][k], method);
        }
}

static int run_smem(gs_probe_ctx *ctx, gs_probe_out *p, gs_error *err)
{
    double seconds[MAX_REPEATS], gbps[MAX_REPEATS];
    /* four times the footprints' launches: one configuration, a quarter of a millisecond each
       on an H100, whose interval otherwise came out wider with --thorough's 15 than with the
       default's 5 in two runs of three (0.1-0.17 % of 31.7 TB/s) */
    unsigned repeats = 4 * opt.repeats < MAX_REPEATS ? 4 * (unsigned)opt.repeats : MAX_REPEATS;
    gs_stream_plan plan = { .kind = GS_STREAM_SMEM_READ, .element_bytes = 16,
                            .bytes = SMEM_BYTES, .repeats = repeats,
                            .traffic_bytes = opt.traffic_bytes };
    gs_stream_result r = { .seconds = seconds };
    gs_progress(ctx, "mem-bandwidth: shared-memory read");
    int rc = ctx->backend->ops->stream(ctx->backend, &plan, &r, err);
    if (rc)
        return rc;
    for (size_t i = 0; i < r.n; i++)
        gbps[i] = seconds[i] > 0 ? (double)r.bytes_moved / seconds[i] * 1e-9 : NAN;
    gs_summary m = gs_summarize_robust(gbps, r.n, 5);
    gs_figure(p, "smem_read_gbps", m.median, "GB/s", m.ci95, m.n, "every block of a full grid "
              "sums its own 32 KB of shared memory (16-byte loads, conflict-free) pass after "
              "pass: median over launches of bytes read / kernel time");
    return 0;
}

/* The DRAM's peak from info (2 x memory clock x bus width / 8: the clock CUDA reports is the
 * one that transfers on both edges) and the best DRAM figure's share of it. */
static void record_peak(gs_probe_ctx *ctx, gs_probe_out *p, const levels_best *best)
{
    const gs_device_info *info = ctx->info;
    double measured = 0;
    for (int k = 0; k < KINDS; k++)
        measured = fmax(measured, fmax(best->gbps[GS_BW_DRAM][k],
                                       best->launches[k].n ? best->launches[k].median : 0));
    const char *method = "2 x memory clock (kHz, as the device reports it) x bus width (bits) / 8";
    if (info->mem_clock_khz <= 0 || info->mem_bus_bits <= 0) {
        gs_figure_nd(p, "dram_peak_gbps", "GB/s", method, "the device does not report its memory "
                     "clock or bus width");
        return;
    }
    double peak = 2 * info->mem_clock_khz * 1e3 * info->mem_bus_bits / 8 * 1e-9;
    gs_figure(p, "dram_peak_gbps", peak, "GB/s", 0, 1, method);
    if (measured > 0)
        gs_figure(p, "dram_efficiency", measured / peak, "", 0, 1, "best DRAM figure over the "
                  "kinds measured / dram_peak_gbps");
    else
        gs_figure_nd(p, "dram_efficiency", "", "best DRAM figure / dram_peak_gbps",
                     "no DRAM plateau was found");
}

/* Which kinds and widths run, and over which footprints: --thorough sweeps every kind and width
 * over the whole range; the default sweeps read, write and copy at 16 bytes over the whole range
 * and STREAM's scale, add and triad at 16 bytes over the DRAM range only (from 5 x L2: each
 * array a little more, so that rounding it down to 256 bytes keeps the first point inside). */
static int run_all(gs_probe_ctx *ctx, gs_probe_out *p, levels_best *best, gs_error *err)
{
    static sweep s;
    unsigned remeasured = 0;
    for (int k = 0; k < KINDS; k++)
        for (int w = 0; w < WIDTHS; w++) {
            if (!ctx->thorough && widths[w] != 16)
                continue;
            uint64_t dram_lo = GS_BW_DRAM_FROM_L2 * ctx->info->l2_bytes + 256ull * kinds[k].arrays;
            uint64_t lo = !ctx->thorough && k >= 3 && dram_lo > opt.min_bytes &&
                          dram_lo < opt.max_bytes ? dram_lo : opt.min_bytes;
            int rc = run_sweep(ctx, k, widths[w], lo, opt.max_bytes, &s, &remeasured, err);
            if (rc)
                return rc;
            analyse(ctx, p, k, widths[w], &s, best);
        }
    gs_param_int(p, "remeasured_footprints", remeasured);
    return 0;
}

static void set_defaults(const gs_probe_ctx *ctx)
{
    const gs_device_info *info = ctx->info;
    opt.min_bytes = 16384;
    opt.max_bytes = 4 * GS_BW_DRAM_FROM_L2 * info->l2_bytes;
    if (opt.max_bytes < (64ull << 20))
        opt.max_bytes = 64ull << 20;
    if (info->global_mem_free_bytes && opt.max_bytes > info->global_mem_free_bytes / 2)
        opt.max_bytes = info->global_mem_free_bytes / 2;
    opt.per_octave = ctx->thorough ? 4 : 2;
    opt.repeats = ctx->thorough ? 15 : 5;
    opt.threads = 0;
    opt.l1_bytes = 0;
    opt.traffic_bytes = 8ull << 30;
    opt.launch_bytes = UINT64_MAX;    /* not given: launch_default, once --max-bytes is known */
}

/* 20 x L2 per array: gpu-stream's 1 GB on an H100, where its launches' tails weigh least; at
 * most --max-bytes (a user who caps the sweeps' memory caps this too) and a sixth of the free
 * memory; 0 (not run) where that leaves less than the DRAM range's 5 x L2. */
static uint64_t launch_default(const gs_device_info *info)
{
    uint64_t b = 4 * GS_BW_DRAM_FROM_L2 * info->l2_bytes;
    b = b < opt.max_bytes ? b : opt.max_bytes;
    if (info->global_mem_free_bytes && b > info->global_mem_free_bytes / 6)
        b = info->global_mem_free_bytes / 6;
    b = b / 256 * 256;
    return b < GS_BW_DRAM_FROM_L2 * info->l2_bytes ? 0 : b;
}

static int gs_probe_mem_bandwidth_run(gs_probe_ctx *ctx, gs_error *err)
{
    set_defaults(ctx);
    int rc = gs_probe_parse_opts(ctx, gs_probe_mem_bandwidth_opts, err);
    if (rc)
        return rc;
    if (opt.min_bytes < 1024 || opt.max_bytes <= opt.min_bytes || (opt.threads % 32))
        return gs_fail(err, GS_ERR_USAGE, "mem-bandwidth: --min-bytes must be at least 1 KB and "
                       "below --max-bytes, --threads a multiple of 32");
    uint64_t dram_from = GS_BW_DRAM_FROM_L2 * ctx->info->l2_bytes;
    if (opt.launch_bytes == UINT64_MAX)
        opt.launch_bytes = launch_default(ctx->info);
    if (opt.launch_bytes && opt.launch_bytes < dram_from)
        return gs_fail(err, GS_ERR_USAGE, "mem-bandwidth: --launch-bytes %llu is under 5 x L2 "
                       "(%llu B), where the DRAM range starts: use at least that, or 0 to skip "
                       "the launch order", (unsigned long long)opt.launch_bytes,
                       (unsigned long long)dram_from);
    uint64_t free_bytes = ctx->info->global_mem_free_bytes;
    if (opt.launch_bytes && free_bytes && opt.launch_bytes > free_bytes / 3)
        return gs_fail(err, GS_ERR_USAGE, "mem-bandwidth: --launch-bytes %llu: three such arrays "
                       "do not fit the %llu B free on the device; use at most %llu, or 0",
                       (unsigned long long)opt.launch_bytes, (unsigned long long)free_bytes,
                       (unsigned long long)(free_bytes / 3 / 256 * 256));
    opt.launch_bytes = opt.launch_bytes / 256 * 256;
    gs_probe_out *p = gs_run_add_probe(ctx->run, "mem-bandwidth");
    gs_param_int(p, "min_bytes", (long long)opt.min_bytes);
    gs_param_int(p, "max_bytes", (long long)opt.max_bytes);
    gs_param_int(p, "points_per_octave", opt.per_octave);
    gs_param_int(p, "repeats", opt.repeats);
    gs_param_int(p, "threads_per_block", opt.threads);
    gs_param_double(p, "l1_bytes", l1_bytes(ctx));
    gs_param_int(p, "l2_bytes", (long long)ctx->info->l2_bytes);
    gs_param_int(p, "traffic_bytes", (long long)opt.traffic_bytes);
    gs_param_int(p, "launch_bytes", (long long)opt.launch_bytes);
    gs_param_string(p, "sweep", "footprint <= L2: one block per SM, each over all arrays; "
                    "beyond: the grid together, tiles handed out in address order; and "
                    "gpu-stream's order (an element per thread, a launch per pass) on arrays of "
                    "launch_bytes");
    levels_best best;
    memset(&best, 0, sizeof best);
    memset(l1_variant_best, 0, sizeof l1_variant_best);
    /* shared memory first: after the DRAM sweeps and the launch order the card had throttled
     * (an H100's SM clock 1980 MHz before the probe, 1972.8 after), and the read, last, came
     * out 1.2-3.2 % apart between two reports, beyond their clocks' 0.76 % */
    rc = run_smem(ctx, p, err);
    if (rc == 0)
        rc = run_all(ctx, p, &best, err);
    if (rc == 0)
        rc = run_launches(ctx, p, &best, err);
    record_best(p, &best);
    record_l1_variants(p);
    record_peak(ctx, p, &best);
    return rc;
}

/* The probe's descriptor (probe.h). */
static const char *const headline[] = {"smem_read_gbps", "l1_read_gbps", "l2_read_gbps", "dram_read_gbps", "dram_write_gbps", "dram_copy_gbps", "stream_triad_gbps", "dram_peak_gbps", "dram_efficiency", NULL};
const gs_probe_def gs_probe_mem_bandwidth_def = {
    .name = "mem-bandwidth",
    .run = gs_probe_mem_bandwidth_run,
    .flags = GS_PROBE_DEFAULT,
    .summary = "read, write, copy and STREAM kernels over footprints from the L1 to DRAM: GB/s "
               "per level",
    .opts = gs_probe_mem_bandwidth_opts,
    .expected_s = 2.9,
    .expected_sim_s = 0.05,
    .keep_rank = 7,
    .hints = {.headline = headline},
};
