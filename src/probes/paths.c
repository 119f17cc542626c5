/* Probe `paths`: which cache levels each global-memory load path passes through, and their
 * latencies. For each path (plain ld, ld.ca, ld.cg, ld.cv, ld.nc, texture fetch, constant load)
 * an average-mode P-chase (Listing 2 of the memory-hierarchy paper, over a Sattolo cycle of one
 * element per --stride bytes) sweeps the footprint from 2 KB (256 B for constant) to 4 x L2; the
 * latency plateaus of the sweep (src/analysis/plateaus.c) are the levels the path reaches, named
 * from where they lie against the unified L1 size and the L2 size (docs/methods.md, "paths"). */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/chain.h"
#include "analysis/plateaus.h"
#include "analysis/stats.h"
#include "probes/probe.h"
#include "util/interrupt.h"

#define MAX_POINTS 64
#define TOLERANCE 0.1

static struct {
    const char *path;
    uint64_t stride;
    uint64_t max_footprint;
    long long accesses;
} opt;

const gs_opt gs_probe_paths_opts[] = {
    {"path", GS_OPT_CHOICE, &opt.path, "PATH", "one load path, or all (default)",
     "all|default|ca|cg|cv|nc|tex|const", 0, 0},
    {"stride", GS_OPT_BYTES, &opt.stride, "BYTES", "one chain element per stride bytes (default 128)",
     NULL, 0, 0},
    {"max-footprint", GS_OPT_BYTES, &opt.max_footprint, "BYTES",
     "largest footprint of the global paths (default 4 x L2)", NULL, 0, 0},
    {"accesses", GS_OPT_INT, &opt.accesses, "N", "timed accesses per footprint (default 4096, "
     "16384 with --thorough)", NULL, 64, 1 << 24},
    GS_OPT_END,
};

typedef struct sweep {
    gs_load_path path;
    size_t n;
    double footprint[MAX_POINTS], cycles[MAX_POINTS], ns[MAX_POINTS];
} sweep;

/* Footprints: doubling up to L2 / 4, then by sqrt(2) (the L2's near and far halves need several
 * points each), rounded to the stride. The constant path doubles from 256 B to its 64 KB. */
static size_t footprints(const gs_device_info *info, gs_load_path path, double *out)
{
    double lo = path == GS_PATH_CONST ? 256 : 2048;
    double hi = path == GS_PATH_CONST ? fmin(65536, (double)info->const_mem_bytes)
                                      : (double)opt.max_footprint;
    double knee = info->l2_bytes ? (double)info->l2_bytes / 4 : hi;
    size_t n = 0;
    for (double f = lo; f <= hi * 1.0001 && n < MAX_POINTS; f *= f < knee ? 2 : M_SQRT2) {
        double r = floor(f / (double)opt.stride) * (double)opt.stride;
        if (r >= 2.0 * (double)opt.stride && (n == 0 || r > out[n - 1]))
            out[n++] = r;
    }
    return n;
}

static gs_space space_of(gs_load_path p)
{
    return p == GS_PATH_TEX ? GS_SPACE_TEXTURE : p == GS_PATH_CONST ? GS_SPACE_CONSTANT
                                                                    : GS_SPACE_GLOBAL;
}

/* One footprint: a warm pass (none past 2 x L2, where the backend starts cold), then the
 * timed accesses. */
static int measure(gs_probe_ctx *ctx, gs_load_path path, uint64_t footprint, gs_rng *rng,
                   double *cycles, double *ns, gs_error *err)
{
    uint64_t count = footprint / opt.stride;
    uint64_t *chain = malloc(count * sizeof *chain);
    if (!chain)
        return gs_fail(err, GS_ERR_NO_MEMORY, "paths: out of host memory for %llu elements",
                       (unsigned long long)count);
    gs_chain_sattolo(rng, count, opt.stride, chain);
    gs_chase_plan plan = {
        .space = space_of(path), .path = path, .footprint_bytes = footprint, .chain = chain,
        .chain_len = count, .element_bytes = 8, .timed_accesses = (uint64_t)opt.accesses,
        .warmup_passes = footprint > 2 * ctx->info->l2_bytes ? 0 : 1, .carveout_percent = -1};
    gs_chase_result r = {.sm_id = -1};
    int rc = ctx->backend->ops->chase(ctx->backend, &plan, &r, err);
    *cycles = r.avg_cycles;
    *ns = r.avg_ns > 0 ? r.avg_ns : gs_cycles_to_ns(ctx, r.avg_cycles);
    free(chain);
    return rc;
}

static int sweep_path(gs_probe_ctx *ctx, sweep *s, gs_rng *rng, gs_error *err)
{
    double fp[MAX_POINTS];
    size_t n = footprints(ctx->info, s->path, fp);
    gs_progress(ctx, "paths: %s, %zu footprints from %.0f B to %.0f B", gs_path_name(s->path), n,
                fp[0], n ? fp[n - 1] : 0);
    for (size_t i = 0; i < n; i++) {
        if (gs_interrupted())
            return gs_fail(err, GS_ERR_INTERRUPTED, "paths: interrupted");
        int rc = measure(ctx, s->path, (uint64_t)fp[i], rng, &s->cycles[i], &s->ns[i], err);
        if (rc)
            return rc;
        s->footprint[i] = fp[i];
        s->n = i + 1;
    }
    return 0;
}

/* Figures of one path: its levels, and per level the latency (cycles and ns) and the largest
 * footprint still served at that latency. */
static int record_path(gs_probe_out *p, const gs_device_info *info, const sweep *s,
                       gs_plateau *pl)
{
    const char *pn = gs_path_name(s->path), *names[MAX_POINTS];
    char key[96], levels[256] = "";
    gs_series(p, pn, "footprint", "B", "latency", "cycles", s->footprint, s->cycles, s->n);
    int count = gs_plateaus_find(s->footprint, s->cycles, s->n, TOLERANCE, pl, MAX_POINTS);
    if (count <= 0) {
        snprintf(key, sizeof key, "%s_levels", pn);
        gs_figure_nd(p, key, "", "latency plateaus of the size sweep", "no plateau in %zu points",
                     s->n);
        return 0;
    }
    /* one element per stride: past a 128-B line (the largest an NVIDIA L1 has) a level of L
     * bytes holds a footprint of L x stride / 128 (the H100's L1, 1480 lines, 378 KB at 256 B) */
    double reach = opt.stride > 128 ? (double)opt.stride / 128 : 1;
    gs_plateaus_name(pl, count, s->path == GS_PATH_CONST, (double)info->smem_per_sm_bytes * reach,
                     (double)info->l2_bytes, names);
    for (int i = 0; i < count; i++) {
        gs_summary cyc = gs_summarize(s->cycles + pl[i].first, pl[i].count);
        gs_summary ns = gs_summarize(s->ns + pl[i].first, pl[i].count);
        char method[256];
        snprintf(method, sizeof method, "median of the average-mode latencies (Listing 2) at %zu "
                 "footprints from %.0f to %.0f bytes", pl[i].count, pl[i].first_x, pl[i].last_x);
        snprintf(key, sizeof key, "%s_%s_latency_cycles", pn, names[i]);
        gs_figure(p, key, cyc.median, "cycles", cyc.ci95, cyc.n, method);
        snprintf(key, sizeof key, "%s_%s_latency_ns", pn, names[i]);
        gs_figure(p, key, ns.median, "ns", ns.ci95, ns.n, method);
        snprintf(key, sizeof key, "%s_%s_footprint_max_bytes", pn, names[i]);
        gs_figure(p, key, pl[i].last_x, "B", 0, pl[i].count,
                  "largest swept footprint on this plateau (a lower bound on what the level holds "
                  "for this path)");
        snprintf(levels + strlen(levels), sizeof levels - strlen(levels), "%s%s", i ? "," : "",
                 names[i]);
    }
    snprintf(key, sizeof key, "%s_levels", pn);
    gs_figure_text(p, key, levels, (size_t)count, "latency plateaus of the size sweep, in order of "
                   "footprint; named from the unified L1 size and the L2 size (docs/methods.md)");
    return count;
}

/* Do two paths show the same plateaus (count and latencies within the tolerance)? */
static void compare_paths(gs_probe_out *p, const sweep *a, const sweep *b)
{
    gs_plateau pa[MAX_POINTS], pb[MAX_POINTS];
    int na = gs_plateaus_find(a->footprint, a->cycles, a->n, TOLERANCE, pa, MAX_POINTS);
    int nb = gs_plateaus_find(b->footprint, b->cycles, b->n, TOLERANCE, pb, MAX_POINTS);
    if (na <= 0 || nb <= 0)
        return;
    bool alike = na == nb;
    for (int i = 0; alike && i < na; i++)
        alike = fabs(pa[i].latency - pb[i].latency) <= 0.05 * pb[i].latency;
    char key[64];
    snprintf(key, sizeof key, "%s_vs_%s", gs_path_name(a->path), gs_path_name(b->path));
    gs_figure_text(p, key, alike ? "alike" : "different", (size_t)(na + nb),
                   "same number of plateaus with latencies within 5%");
}

static const gs_load_path all_paths[] = {GS_PATH_DEFAULT, GS_PATH_CA, GS_PATH_CG, GS_PATH_CV,
                                         GS_PATH_NC, GS_PATH_TEX, GS_PATH_CONST};
#define PATH_COUNT (sizeof all_paths / sizeof all_paths[0])

static void set_defaults(const gs_probe_ctx *ctx)
{
    opt.path = "all";
    opt.stride = 128;
    opt.max_footprint = ctx->info->l2_bytes ? 4 * ctx->info->l2_bytes : 256ull << 20;
    opt.accesses = ctx->thorough ? 16384 : 4096;
}

static int gs_probe_paths_run(gs_probe_ctx *ctx, gs_error *err)
{
    set_defaults(ctx);
    int rc = gs_probe_parse_opts(ctx, gs_probe_paths_opts, err);
    if (rc)
        return rc;
    if (opt.stride < 8 || opt.stride % 8)
        return gs_fail(err, GS_ERR_USAGE, "paths: --stride %llu must be a multiple of 8 bytes",
                       (unsigned long long)opt.stride);
    sweep *s = calloc(PATH_COUNT, sizeof *s);
    gs_plateau *pl = calloc(MAX_POINTS, sizeof *pl);
    if (!s || !pl) {
        free(s), free(pl);
        return gs_fail(err, GS_ERR_NO_MEMORY, "paths: out of host memory");
    }
    gs_probe_out *p = gs_run_add_probe(ctx->run, "paths");
    gs_param_string(p, "path", opt.path);
    gs_param_int(p, "stride_bytes", (long long)opt.stride);
    gs_param_int(p, "max_footprint_bytes", (long long)opt.max_footprint);
    gs_param_int(p, "accesses", opt.accesses);
    gs_rng rng;
    gs_rng_seed(&rng, ctx->seed);
    for (size_t i = 0; i < PATH_COUNT && rc == 0; i++) {
        s[i].path = all_paths[i];
        if (strcmp(opt.path, "all") && strcmp(opt.path, gs_path_name(all_paths[i])))
            continue;
        rc = sweep_path(ctx, &s[i], &rng, err);
        if (rc == GS_ERR_UNSUPPORTED) {   /* the backend has no such path: say so, go on */
            char key[64];
            snprintf(key, sizeof key, "%s_levels", gs_path_name(all_paths[i]));
            gs_figure_nd(p, key, "", "latency plateaus of the size sweep", "%s", err->msg);
            s[i].n = 0;
            rc = 0;
            continue;
        }
        if (s[i].n)   /* also the part swept before an interruption */
            record_path(p, ctx->info, &s[i], pl);
    }
    if (rc == 0 && s[0].n && s[1].n)
        compare_paths(p, &s[0], &s[1]);
    if (rc == 0 && s[2].n && s[3].n)
        compare_paths(p, &s[2], &s[3]);
    if (rc == 0 && s[0].n && s[4].n)
        compare_paths(p, &s[0], &s[4]);
    free(s), free(pl);
    return rc;
}

/* The probe's descriptor (probe.h). */
const gs_probe_def gs_probe_paths_def = {
    .name = "paths",
    .run = gs_probe_paths_run,
    .flags = 0,
    .summary = "per global load path (ld, ca, cg, cv, nc, tex, const): latency plateaus and the "
               "levels it passes",
    .opts = gs_probe_paths_opts,
    .expected_s = 5,
    .expected_sim_s = 27,
    .keep_rank = 11,
    .hints = {},
};
