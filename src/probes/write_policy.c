/* Probe `write-policy`: what the L1 does with a global store, per load path (textbook notes on
 * the GPU memory system, "Cache Write Operations": write-through or write-back, write-allocate or
 * not). For each path it times single loads (as one access of the fine-grained
 * chase, Listing 4 of the memory-hierarchy paper) in seven cases, each repeated on fresh lines:
 * two references (a line in the L1; a line evicted from it by a walk, still in the L2), a store
 * then a load to an evicted line (same word, another word of its sector, another sector: does
 * the store allocate, and how much), and to a line in the L1 (same word, another sector: does the
 * store update the line, invalidate it, or leave an old copy). Whether the store reaches the L2
 * at once (write-through) or stays in the writer's L1 (write-back) comes from another SM's L2
 * loads, with st.global.cg as the control. analysis/write_policy.c decides. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/write_policy.h"
#include "probes/probe.h"
#include "util/interrupt.h"

static struct {
    const char *paths;
    long long repeats, vis_repeats;
    uint64_t line_bytes, sector_bytes, evict_bytes;
    long long settle_cycles, window_cycles;
} opt;

const gs_opt gs_probe_write_policy_opts[] = {
    {"paths", GS_OPT_STRING, &opt.paths, "LIST",
     "load paths to test, of default, ca, cg, cv, nc (default default,ca,cg,nc)", NULL, 0, 0},
    {"repeats", GS_OPT_INT, &opt.repeats, "N",
     "timed loads per case, each on a fresh line (default 16, 48 with --thorough)", NULL, 2, 1024},
    {"vis-repeats", GS_OPT_INT, &opt.vis_repeats, "N",
     "launches of the two-SM visibility test and of its control (default 6)", NULL, 1, 64},
    {"line", GS_OPT_BYTES, &opt.line_bytes, "BYTES",
     "the L1 line, as the cache probe finds it (default 128); stores and loads stay in one",
     NULL, 0, 0},
    {"sector", GS_OPT_BYTES, &opt.sector_bytes, "BYTES",
     "the L1 sector, as the cache probe finds it (default 32)", NULL, 0, 0},
    {"evict", GS_OPT_BYTES, &opt.evict_bytes, "BYTES",
     "eviction walk (default 4 x the shared memory per SM, at least 1 MB, at most half the L2)",
     NULL, 0, 0},
    {"settle", GS_OPT_INT, &opt.settle_cycles, "CYCLES",
     "wait between a store and the timed load (default 2000)", NULL, 0, 1000000},
    {"window", GS_OPT_INT, &opt.window_cycles, "CYCLES",
     "how long the other SM watches for the store (default 400000)", NULL, 1000, 100000000},
    GS_OPT_END,
};

/* The seven load-after-store cases: where the line is, whether and which words are stored and
 * loaded (in units of the line: 0 = word 0, 1 = the middle of the first sector, 2 = the middle of
 * the line, another sector). */
enum { C_HIT, C_MISS, C_COLD_WORD, C_COLD_SECTOR, C_COLD_LINE, C_WARM_WORD, C_WARM_LINE, N_CASES };
static const struct {
    const char *name, *what;
    bool in_l1, store;
    int load_at;
} cases[N_CASES] = {
    {"hit_cycles", "reference: load of a line in the L1", true, false, 0},
    {"l2_cycles", "reference: load of a line evicted from the L1 (an L2 hit)", false, false, 0},
    {"cold_store_cycles", "evicted line: store word 0, load word 0", false, true, 0},
    {"cold_sector_cycles", "evicted line: store word 0, load another word of its sector", false,
     true, 1},
    {"cold_line_cycles", "evicted line: store word 0, load a word of another sector", false,
     true, 2},
    {"warm_store_cycles", "line in the L1: store word 0, load word 0", true, true, 0},
    {"warm_line_cycles", "line in the L1: store word 0, load a word of another sector", true,
     true, 2},
};

typedef struct path_run {
    gs_load_path path;
    double *cycles[N_CASES];
    size_t n[N_CASES];
    unsigned warm_old;
    double *vis, *ctl;
    gs_write_result vis_res, ctl_res;
} path_run;

static uint32_t load_offset(int at)
{
    return at == 0 ? 0 : at == 1 ? (uint32_t)opt.sector_bytes / 2 : (uint32_t)opt.line_bytes / 2;
}

static gs_write_plan base_plan(gs_load_path path, const gs_probe_ctx *ctx)
{
    uint64_t evict = opt.evict_bytes;
    if (!evict) {
        evict = 4 * ctx->info->smem_per_sm_bytes;
        if (evict < (1u << 20))
            evict = 1u << 20;
        if (ctx->info->l2_bytes && evict > ctx->info->l2_bytes / 2)
            evict = ctx->info->l2_bytes / 2;   /* the walk must leave the targets in the L2 */
    }
    return (gs_write_plan){.path = path, .line_bytes = (uint32_t)opt.line_bytes,
                           .evict_bytes = evict, .evict_stride_bytes = (uint32_t)opt.line_bytes,
                           .settle_cycles = (uint32_t)opt.settle_cycles,
                           .window_cycles = (uint64_t)opt.window_cycles};
}

static int run_cases(gs_probe_ctx *ctx, path_run *r, gs_error *err)
{
    for (int c = 0; c < N_CASES; c++) {
        if (gs_interrupted())
            return gs_fail(err, GS_ERR_INTERRUPTED, "interrupted");
        gs_write_plan plan = base_plan(r->path, ctx);
        plan.kind = GS_WRITE_LOAD_AFTER_STORE;
        plan.line_in_l1 = cases[c].in_l1;
        plan.store = cases[c].store;
        plan.load_offset_bytes = load_offset(cases[c].load_at);
        plan.repeats = (unsigned)opt.repeats;
        gs_write_result res = {.cycles = r->cycles[c], .sm_id = -1, .reader_sm_id = -1};
        int rc = ctx->backend->ops->write(ctx->backend, &plan, &res, err);
        if (rc)
            return rc;
        r->n[c] = res.n;
        if (c == C_WARM_WORD)
            r->warm_old = res.old_values;
    }
    return 0;
}

static int run_visibility(gs_probe_ctx *ctx, path_run *r, gs_store_op op, double *cycles,
                          gs_write_result *res, gs_error *err)
{
    if (gs_interrupted())
        return gs_fail(err, GS_ERR_INTERRUPTED, "interrupted");
    gs_write_plan plan = base_plan(r->path, ctx);
    plan.kind = GS_WRITE_VISIBILITY;
    plan.store_op = op;
    plan.repeats = (unsigned)opt.vis_repeats;
    *res = (gs_write_result){.cycles = cycles, .sm_id = -1, .reader_sm_id = -1};
    return ctx->backend->ops->write(ctx->backend, &plan, res, err);
}

static gs_wp_samples samples(const path_run *r, int c)
{
    return (gs_wp_samples){r->cycles[c], r->n[c]};
}

static void record_latencies(gs_probe_out *p, const path_run *r, const gs_wp_verdict *v)
{
    const gs_summary *s[N_CASES] = {&v->ref_hit, &v->ref_miss, &v->cold_word, &v->cold_sector,
                                    &v->cold_line, &v->warm_word, &v->warm_line};
    const char *pn = gs_path_name(r->path);
    char name[64], method[200];
    for (int c = 0; c < N_CASES; c++) {
        snprintf(name, sizeof name, "%s_%s", pn, cases[c].name);
        snprintf(method, sizeof method, "median of single timed loads through %s; %s", pn,
                 cases[c].what);
        if (s[c]->n > 0)
            gs_figure(p, name, s[c]->median, "cycles", s[c]->ci95, s[c]->n, method);
        else
            gs_figure_nd(p, name, "cycles", method, "no sample");
        double x[1024];
        for (size_t i = 0; i < r->n[c] && i < 1024; i++)
            x[i] = (double)i;
        gs_series(p, name, "repetition", "", "latency", "cycles", x, r->cycles[c],
                  r->n[c] < 1024 ? r->n[c] : 1024);
    }
    snprintf(name, sizeof name, "%s_visible_cycles", pn);
    if (v->vis.n > 0)
        gs_figure(p, name, v->vis.median, "cycles", v->vis.ci95, v->vis.n, "another SM's ld.cg "
                  "polling: cycles from the store's flag until it read the new value (st.global "
                  "to a line in the writer's L1)");
    snprintf(name, sizeof name, "%s_control_cycles", pn);
    if (v->ctl.n > 0)
        gs_figure(p, name, v->ctl.median, "cycles", v->ctl.ci95, v->ctl.n, "the same for "
                  "st.global.cg (the control, which writes the L2)");
}

static void record_verdicts(gs_probe_out *p, const path_run *r, const gs_wp_verdict *v)
{
    const char *pn = gs_path_name(r->path);
    char name[64];
    size_t n = r->n[C_COLD_WORD];
    snprintf(name, sizeof name, "%s_write_allocate", pn);
    if (v->allocate >= 0)
        gs_figure_text(p, name, v->allocate ? "yes" : "no", n, v->allocate_reason);
    else
        gs_figure_nd(p, name, "", "store to a line evicted from the L1, then load it",
                     "%s", v->allocate_reason);
    snprintf(name, sizeof name, "%s_allocate_unit", pn);
    if (v->allocate == 1 && v->allocate_unit)
        gs_figure_text(p, name, v->allocate_unit, n, "which loads after a store to an evicted "
                       "line hit: the word, the rest of its sector, another sector");
    snprintf(name, sizeof name, "%s_write_policy", pn);
    if (v->write_through >= 0)
        gs_figure_text(p, name, v->write_through ? "write-through" : "write-back",
                       r->vis_res.n, v->policy_reason);
    else
        gs_figure_nd(p, name, "", "another SM polls the L2 for a store to a line in the "
                     "writer's L1", "%s", v->policy_reason);
    snprintf(name, sizeof name, "%s_store_hit", pn);
    if (v->store_hit != GS_WP_STORE_HIT_UNKNOWN)
        gs_figure_text(p, name, gs_wp_store_hit_name(v->store_hit), r->n[C_WARM_WORD],
                       v->store_hit_reason);
    else
        gs_figure_nd(p, name, "", "store to a line in the L1, then load it", "%s",
                     v->store_hit_reason);
    snprintf(name, sizeof name, "%s_invalidate_unit", pn);
    if (v->store_hit == GS_WP_STORE_HIT_INVALIDATE && v->invalidate_unit)
        gs_figure_text(p, name, v->invalidate_unit, r->n[C_WARM_LINE], "whether another sector "
                       "of the line stays in the L1 after a store to the line");
}

static void analyse(gs_probe_out *p, const path_run *r)
{
    gs_wp_input in = {
        .ref_hit = samples(r, C_HIT), .ref_miss = samples(r, C_MISS),
        .cold_word = samples(r, C_COLD_WORD), .cold_sector = samples(r, C_COLD_SECTOR),
        .cold_line = samples(r, C_COLD_LINE), .warm_word = samples(r, C_WARM_WORD),
        .warm_line = samples(r, C_WARM_LINE), .warm_word_old = r->warm_old,
        .vis_valid = r->vis_res.n - r->vis_res.void_repeats, .vis_seen = r->vis_res.seen,
        .vis_cycles = {r->vis, r->vis_res.n},
        .ctl_valid = r->ctl_res.n - r->ctl_res.void_repeats, .ctl_seen = r->ctl_res.seen,
        .ctl_cycles = {r->ctl, r->ctl_res.n},
    };
    gs_wp_verdict v;
    gs_wp_infer(&in, &v);
    record_verdicts(p, r, &v);
    record_latencies(p, r, &v);
}

static int parse_paths(const char *text, gs_load_path *paths, int *count, gs_error *err)
{
    char buf[128];
    snprintf(buf, sizeof buf, "%s", text);
    *count = 0;
    for (char *save = NULL, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        gs_load_path pth;
        if (gs_path_parse(t, &pth) || (pth != GS_PATH_DEFAULT && pth != GS_PATH_CA &&
                                       pth != GS_PATH_CG && pth != GS_PATH_CV &&
                                       pth != GS_PATH_NC) || *count == 5)
            return gs_fail(err, GS_ERR_USAGE, "--paths %s: give up to 5 of default, ca, cg, cv, "
                           "nc separated by commas", text);
        paths[(*count)++] = pth;
    }
    return *count ? 0 : gs_fail(err, GS_ERR_USAGE, "--paths: give at least one load path");
}

static int check_sizes(gs_error *err)
{
    if (opt.sector_bytes < 8 || opt.sector_bytes % 4 || opt.line_bytes % opt.sector_bytes ||
        opt.line_bytes < 2 * opt.sector_bytes || opt.line_bytes > 65536)
        return gs_fail(err, GS_ERR_USAGE, "--line %llu, --sector %llu: the line must hold at "
                       "least two sectors of at least 8 bytes", (unsigned long long)opt.line_bytes,
                       (unsigned long long)opt.sector_bytes);
    return 0;
}

static int run_path(gs_probe_ctx *ctx, gs_probe_out *p, gs_load_path path, double *store,
                    gs_error *err)
{
    size_t reps = (size_t)opt.repeats, vreps = (size_t)opt.vis_repeats;
    path_run r = {.path = path};
    for (int c = 0; c < N_CASES; c++)
        r.cycles[c] = store + (size_t)c * reps;
    r.vis = store + N_CASES * reps;
    r.ctl = r.vis + vreps;
    gs_progress(ctx, "write-policy: path %s", gs_path_name(path));
    int rc = run_cases(ctx, &r, err);
    if (!rc)
        rc = run_visibility(ctx, &r, GS_STORE_DEFAULT, r.vis, &r.vis_res, err);
    if (!rc)
        rc = run_visibility(ctx, &r, GS_STORE_CG, r.ctl, &r.ctl_res, err);
    if (!rc)
        analyse(p, &r);
    return rc;
}

static int gs_probe_write_policy_run(gs_probe_ctx *ctx, gs_error *err)
{
    opt.paths = "default,ca,cg,nc";
    opt.repeats = ctx->thorough ? 48 : 16;
    opt.vis_repeats = 6;
    opt.line_bytes = 128;
    opt.sector_bytes = 32;
    opt.evict_bytes = 0;
    opt.settle_cycles = 2000;
    opt.window_cycles = 400000;
    gs_load_path paths[5];
    int np = 0;
    int rc = gs_probe_parse_opts(ctx, gs_probe_write_policy_opts, err);
    if (rc || (rc = parse_paths(opt.paths, paths, &np, err)) || (rc = check_sizes(err)))
        return rc;
    gs_probe_out *p = gs_run_add_probe(ctx->run, "write-policy");
    gs_param_string(p, "paths", opt.paths);
    gs_param_int(p, "repeats", opt.repeats);
    gs_param_int(p, "vis_repeats", opt.vis_repeats);
    gs_param_int(p, "line_bytes", (long long)opt.line_bytes);
    gs_param_int(p, "sector_bytes", (long long)opt.sector_bytes);
    gs_param_int(p, "evict_bytes", (long long)base_plan(paths[0], ctx).evict_bytes);
    gs_param_int(p, "settle_cycles", opt.settle_cycles);
    gs_param_int(p, "window_cycles", opt.window_cycles);
    if (!ctx->backend->ops->write) {
        gs_figure_nd(p, "write_policy", "", "loads after stores", "this backend cannot time "
                     "loads after stores");
        return 0;
    }
    double *store = calloc((size_t)(N_CASES * opt.repeats + 2 * opt.vis_repeats), sizeof *store);
    if (!store)
        return gs_fail(err, GS_ERR_NO_MEMORY, "out of host memory for the samples");
    for (int i = 0; i < np && !rc; i++)
        rc = run_path(ctx, p, paths[i], store, err);
    free(store);
    return rc;
}

/* The probe's descriptor (probe.h). */
const gs_probe_def gs_probe_write_policy_def = {
    .name = "write-policy",
    .run = gs_probe_write_policy_run,
    .flags = 0,
    .summary = "L1 policy for global stores per load path: write-allocate, write-through/back, "
               "store hit",
    .opts = gs_probe_write_policy_opts,
    .expected_s = 0.1,
    .expected_sim_s = 0.15,
    .keep_rank = 0,
    .hints = {},
};
