/* The truth of a simulator model, named as the probes name their figures (truth.h): the cache
 * probe's records per level and TLB level (which level each target reaches follows the probe's
 * targets in src/probes/cache/cache.c: l1 = path ca, tex = tex, ro = nc, l2 = cg, const1.. = the const
 * path's levels smaller than the constant space), smem-banks, pipeline and clock, launch, energy
 * and cluster (one transfer's latency). It reads the
 * parsed model (memory.h, banks.h, the pipeline accessor), never the probes' results. */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/banks.h"
#include "sim/memory.h"
#include "sim/sim.h"
#include "sim/truth.h"

#define CACHE_MAX_CONST_LEVELS 3 /* const1..const3, as the cache probe names them */
#define CACHE_MAX_TLB_LEVELS 3   /* l1tlb..l3tlb */


typedef struct truth_ctx {
    const gs_sim_model *m;
    json_t *records;
    double noise_cycles;         /* what noise may add to a latency on average and at the median */
    bool oom;
} truth_ctx;

/* Add {"value", "kind", "noise", "from"} as rec[name]; value is stolen. */
static void fig(truth_ctx *cx, json_t *rec, const char *name, json_t *value, const char *kind,
                double noise, const char *from)
{
    json_t *f = json_pack("{s:o?, s:s, s:f, s:s}", "value", value, "kind", kind, "noise", noise,
                          "from", from);
    if (!f || json_object_set_new(rec, name, f))
        cx->oom = true;
}

static void fig_int(truth_ctx *cx, json_t *rec, const char *name, double v, const char *from)
{
    fig(cx, rec, name, json_integer((json_int_t)v), "structure", 0, from);
}

static json_t *record(truth_ctx *cx, const char *key)
{
    json_t *r = json_object_get(cx->records, key);
    if (!r && (!(r = json_object()) || json_object_set_new(cx->records, key, r))) {
        cx->oom = true;
        return NULL;
    }
    return r;
}

static bool pow2(uint64_t n) { return n && !(n & (n - 1)); }
static unsigned log2u(uint64_t n) { unsigned b = 0; while (n > 1) { n >>= 1; b++; } return b; }

static bool ways_equal(const sim_geometry *g)
{
    for (unsigned s = 1; s < g->sets; s++)
        if (g->ways_per_set[s] != g->ways_per_set[0])
            return false;
    return true;
}

/* The mapping as the probe writes it: a sorted list of address bits, "modulo" or "xor". A
 * modulo mapping of a power-of-two number of equal sets is the bit selection above the block;
 * an XOR mapping whose groups are single bits is a bit selection. */
static json_t *mapping_value(const sim_geometry *g)
{
    const sim_mapping *map = &g->mapping;
    json_t *bits = json_array();
    if (!bits)
        return NULL;
    if (map->kind == SIM_MAP_MODULO) {
        if (g->sets == 1)
            return bits;
        if (!pow2(g->sets) || !ways_equal(g)) {
            json_decref(bits);
            return json_string("modulo");
        }
        for (unsigned b = 0; b < log2u(g->sets); b++)
            json_array_append_new(bits, json_integer(log2u(g->block_bytes) + b));
        return bits;
    }
    uint64_t all = 0;
    for (unsigned i = 0; i < map->nbits; i++) {
        if (!pow2(map->group_mask[i])) {
            json_decref(bits);
            return json_string("xor");
        }
        all |= map->group_mask[i];
    }
    for (unsigned b = 0; b < 64; b++)
        if (all & (1ull << b))
            json_array_append_new(bits, json_integer(b));
    return bits;
}

/* sets, ways (or ways_per_set), mapping, policy and victim shares of a store. */
static void geometry_figures(truth_ctx *cx, json_t *rec, const sim_geometry *g, const char *from)
{
    fig_int(cx, rec, "sets", g->sets, from);
    if (ways_equal(g)) {
        fig_int(cx, rec, "ways", g->ways_per_set[0], from);
    } else {
        json_t *w = json_array();
        for (unsigned s = 0; w && s < g->sets; s++)
            json_array_append_new(w, json_integer(g->ways_per_set[s]));
        fig(cx, rec, "ways_per_set", w, "structure", 0, from);
    }
    fig(cx, rec, "mapping", mapping_value(g), "structure", 0, from);
    fig(cx, rec, "policy", json_string(sim_policy_name(g->policy)), "structure", 0, from);
    if (g->policy == SIM_POLICY_WEIGHTED || (g->policy == SIM_POLICY_RANDOM && ways_equal(g))) {
        json_t *p = json_array();
        for (unsigned w = 0; p && w < g->ways_per_set[0]; w++)
            json_array_append_new(p, json_real(g->policy == SIM_POLICY_WEIGHTED
                                                   ? g->way_probabilities[w]
                                                   : 1.0 / g->ways_per_set[0]));
        fig(cx, rec, "way_probabilities", p, "probability", 0, from);
    }
}

/* ---- caches --------------------------------------------------------------------------------------- */

static bool on_path(uint32_t paths, gs_load_path p) { return paths & (1u << p); }

/* Index of the first cache level on path p at or after level `from`, or -1. */
static int next_level(const sim_memory *mem, gs_load_path p, unsigned from)
{
    for (unsigned i = from; i < mem->n_caches; i++)
        if (on_path(mem->caches[i].paths, p))
            return (int)i;
    return -1;
}

static const sim_tlb *first_tlb(const sim_memory *mem, gs_load_path p)
{
    for (unsigned i = 0; i < mem->n_tlbs; i++)
        if (on_path(mem->tlbs[i].paths, p))
            return &mem->tlbs[i];
    return NULL;
}

/* The latency of a hit in level i on path p: the path's extra cycles, the first TLB's hit, the
 * miss cycles of the levels before i on p, and the level's own hit latency (memory.c,
 * access_lane). Only where every footprint that fits the level fits the first TLB's reach, and
 * the level has one partition; else false (the probe's plateau would mix other costs). */
static bool hit_latency(const sim_memory *mem, unsigned i, gs_load_path p, double *cycles)
{
    const sim_level *lv = &mem->caches[i];
    const sim_tlb *t = first_tlb(mem, p);
    if (lv->partitions > 1 || (t && lv->geo.size_bytes > t->entries * t->geo.block_bytes))
        return false;
    *cycles = mem->path_extra_cycles[p] + (t ? t->hit_cycles : 0) + lv->hit_latency_cycles;
    for (unsigned j = 0; j <= i; j++) {
        const sim_level *o = &mem->caches[j];
        if (!on_path(o->paths, p))
            continue;
        *cycles += (j < i ? o->miss_cycles : 0) + (o->n_sm_extra ? o->sm_extra_cycles[0] : 0);
    }
    return true;
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The L2's hit latency from each SM: hit_latency (SM 0's) less SM 0's sm_extra_cycles plus each
 * SM's, its least, median and largest over the SMs (where the model states the hit latency on
 * the cg path and its first TLB covers the 32 MB the walks draw their lines from: past it they
 * time TLB misses too), and the spread from the fastest SM to the slowest. */
#define SM_WALK_REGION (32ull << 20)
static void sm_spread_truth(truth_ctx *cx, json_t *rec, unsigned i, const char *from)
{
    const sim_level *lv = &cx->m->memory->caches[i];
    int sms = cx->m->info.sm_count;
    if (sms <= 0)
        return;
    double *e = malloc((size_t)sms * sizeof *e), base;
    if (!e) {
        cx->oom = true;
        return;
    }
    for (int k = 0; k < sms; k++)
        e[k] = lv->n_sm_extra ? lv->sm_extra_cycles[(unsigned)k % lv->n_sm_extra] : 0;
    double extra0 = e[0];                                  /* SM 0's, before the sort */
    qsort(e, (size_t)sms, sizeof *e, by_value);
    double lo = e[0], hi = e[sms - 1];
    double median = sms % 2 ? e[sms / 2] : (e[sms / 2 - 1] + e[sms / 2]) / 2;
    char how[256];
    snprintf(how, sizeof how, "%s sm_extra_cycles, largest less smallest over the %d SMs",
             from, sms);
    fig(cx, rec, "hit_latency_sm_spread_cycles", json_real(hi - lo), "latency", cx->noise_cycles,
        how);
    const sim_tlb *t = first_tlb(cx->m->memory, GS_PATH_CG);
    if ((!t || t->entries * t->geo.block_bytes >= SM_WALK_REGION) &&
        hit_latency(cx->m->memory, i, GS_PATH_CG, &base)) {
        base -= extra0;
        snprintf(how, sizeof how, "%s: the hit latency from SM 0 less its sm_extra_cycles, plus "
                 "each SM's, over the %d SMs", from, sms);
        fig(cx, rec, "hit_latency_sm_min_cycles", json_real(base + lo), "latency",
            cx->noise_cycles, how);
        fig(cx, rec, "hit_latency_sm_median_cycles", json_real(base + median),
            "latency", cx->noise_cycles, how);
        fig(cx, rec, "hit_latency_sm_max_cycles", json_real(base + hi), "latency",
            cx->noise_cycles, how);
    }
    free(e);
}

static void level_truth(truth_ctx *cx, const char *key, unsigned i, gs_load_path p)
{
    const sim_memory *mem = cx->m->memory;
    const sim_level *lv = &mem->caches[i];
    const sim_geometry *g = &lv->geo;
    json_t *rec = record(cx, key);
    char from[96];
    double cycles;
    if (!rec)
        return;
    snprintf(from, sizeof from, "memory.caches[%u] (%s)", i, lv->name);
    fig_int(cx, rec, "size_bytes", (double)(g->data_lines ? g->data_lines * g->block_bytes
                                                          : g->size_bytes), from);
    fig_int(cx, rec, "line_bytes", (double)g->block_bytes, from);
    fig_int(cx, rec, "fetch_bytes", (double)(g->fetch_bytes ? g->fetch_bytes : g->sector_bytes),
            from);
    fig_int(cx, rec, "sector_bytes", (double)g->sector_bytes, from);
    geometry_figures(cx, rec, g, from);
    if (hit_latency(mem, i, p, &cycles)) {
        char how[256];
        snprintf(how, sizeof how, "%s hit_latency_cycles + path_extra_cycles.%s + first TLB's "
                 "hit_cycles + miss_cycles of the levels before it", from, gs_path_name(p));
        fig(cx, rec, "hit_latency_cycles", json_real(cycles), "latency", cx->noise_cycles, how);
    }
}

/* l1, tex, ro: the first level on the target's path, unless that is the L2 (the first level on
 * cg), which the probe does not report as a first level: then none (size_bytes null). */
static void l1_like_truth(truth_ctx *cx, const char *key, gs_load_path p)
{
    const sim_memory *mem = cx->m->memory;
    int first = next_level(mem, p, 0), l2 = next_level(mem, GS_PATH_CG, 0);
    if (first < 0)
        return;
    if (l2 < 0 || first != l2) {
        level_truth(cx, key, (unsigned)first, p);
        return;
    }
    json_t *rec = record(cx, key);
    if (rec)
        fig(cx, rec, "size_bytes", NULL, "structure", 0,
            "no level on this path before the L2 (the first level on cg)");
}

/* const1, const2, ..: the const path's levels smaller than the constant space (a level at least
 * that large never misses on it and is not seen). */
static void const_truth(truth_ctx *cx)
{
    const sim_memory *mem = cx->m->memory;
    uint64_t space = cx->m->info.const_mem_bytes ? cx->m->info.const_mem_bytes : 65536;
    unsigned depth = 0;
    for (int i = next_level(mem, GS_PATH_CONST, 0); i >= 0 && depth < CACHE_MAX_CONST_LEVELS;
         i = next_level(mem, GS_PATH_CONST, (unsigned)i + 1), depth++) {
        char key[32];
        snprintf(key, sizeof key, "cache:const%u", depth + 1);
        if (mem->caches[i].geo.size_bytes < space)
            level_truth(cx, key, (unsigned)i, GS_PATH_CONST);
    }
}

/* ---- TLBs (the probe walks them on the cg path) ----------------------------------------------------- */

/* A miss penalty the model states exactly: this level and the next cost nothing on a hit (the
 * next level's far ways, near_ways, lie past twice this level's entries, the most a walk that
 * measures this level keeps), and a miss here passes over no cache level of the cg path. */
static bool clean_miss_penalty(const sim_memory *mem, const sim_tlb *t, const sim_tlb *next)
{
    if (t->hit_cycles != 0 || (next && next->hit_cycles != 0))
        return false;
    if (next && next->near_ways && next->near_ways < 2 * t->entries)
        return false;
    for (unsigned i = 0; i < mem->n_caches; i++)
        if ((t->skip_on_miss & (1u << i)) && on_path(mem->caches[i].paths, GS_PATH_CG))
            return false;
    return true;
}

static void tlb_truth(truth_ctx *cx)
{
    const sim_memory *mem = cx->m->memory;
    const sim_tlb *cg[CACHE_MAX_TLB_LEVELS + 1];
    unsigned n = 0;
    for (unsigned i = 0; i < mem->n_tlbs && n <= CACHE_MAX_TLB_LEVELS; i++)
        if (on_path(mem->tlbs[i].paths, GS_PATH_CG))
            cg[n++] = &mem->tlbs[i];
    for (unsigned d = 0; d < n && d < CACHE_MAX_TLB_LEVELS; d++) {
        const sim_tlb *t = cg[d];
        char key[32], from[96];
        snprintf(key, sizeof key, "cache:l%utlb", d + 1);
        snprintf(from, sizeof from, "memory.tlbs (%s)", t->name);
        json_t *rec = record(cx, key);
        if (!rec)
            return;
        fig_int(cx, rec, "entries", (double)t->entries, from);
        fig_int(cx, rec, "coverage_bytes", (double)t->geo.block_bytes, from);
        fig_int(cx, rec, "page_bytes", (double)cg[0]->geo.block_bytes,
                "the region one entry of the first TLB level covers");
        fig_int(cx, rec, "size_bytes", (double)(t->entries * t->geo.block_bytes), from);
        geometry_figures(cx, rec, &t->geo, from);
        if (clean_miss_penalty(mem, t, d + 1 < n ? cg[d + 1] : NULL))
            fig(cx, rec, "miss_penalty_cycles", json_real(t->miss_penalty_cycles), "latency",
                cx->noise_cycles, from);
    }
}

static void memory_truth(truth_ctx *cx)
{
    if (!cx->m->memory)
        return;
    tlb_truth(cx);
    l1_like_truth(cx, "cache:l1", GS_PATH_CA);
    l1_like_truth(cx, "cache:tex", GS_PATH_TEX);
    l1_like_truth(cx, "cache:ro", GS_PATH_NC);
    int l2 = next_level(cx->m->memory, GS_PATH_CG, 0);
    if (l2 >= 0) {
        level_truth(cx, "cache:l2", (unsigned)l2, GS_PATH_CG);
        json_t *rec = record(cx, "cache:l2");
        char from[96];
        snprintf(from, sizeof from, "memory.caches[%d] (%s)", l2,
                 cx->m->memory->caches[l2].name);
        if (rec)
            sm_spread_truth(cx, rec, (unsigned)l2, from);
        /* the probe names the L2's walked capacity usable_size_bytes (the level's data in a
         * model) and reports the device's L2 size apart as nominal_size_bytes */
        json_t *size = rec ? json_object_get(rec, "size_bytes") : NULL;
        if (size && (json_object_set(rec, "usable_size_bytes", size) ||
                     json_object_del(rec, "size_bytes")))
            cx->oom = true;
        if (rec && cx->m->info.l2_bytes)
            fig_int(cx, rec, "nominal_size_bytes", (double)cx->m->info.l2_bytes,
                    "device.l2_bytes (the driver's L2 size)");
    }
    const_truth(cx);
}

/* ---- banks, pipeline, clock -------------------------------------------------------------------------- */

static void banks_truth(truth_ctx *cx)
{
    const sim_banks *b = cx->m->banks;
    json_t *rec;
    if (!b || !(rec = record(cx, "smem-banks")))
        return;
    fig_int(cx, rec, "banks", b->banks, "shared_memory.banks");
    fig_int(cx, rec, "bank_width_bytes", b->bank_width_bytes, "shared_memory.bank_width_bytes");
    fig(cx, rec, "conflict_cycles_per_way", json_real(b->conflict_cycles_per_way), "latency",
        cx->noise_cycles, "shared_memory.conflict_cycles_per_way");
    fig(cx, rec, "broadcast_rule", json_string(b->multicast ? "multicast" : "single"),
        "structure", 0, "shared_memory.broadcast");
}

/* lambda = max(issue_cycles, warp_size x S / units_per_sm) / S and Lambda = completion_cycles
 * (docs/sim-models.md, pipeline). */
static void pipeline_truth(truth_ctx *cx)
{
    json_t *rec = NULL;
    /* the sweep's types (the pipeline record); the table's classes are checked by their own test */
    for (int i = 0; i < GS_INSTR_BASE_COUNT; i++) {
        unsigned s;
        double units, completion, issue;
        if (sim_pipeline_instr_truth(cx->m, (gs_instr)i, &s, &units, &completion, &issue))
            continue;
        if (!rec && !(rec = record(cx, "pipeline")))
            return;
        const char *name = gs_instr_name((gs_instr)i);
        double lambda_s = issue > cx->m->info.warp_size * s / units
                              ? issue : cx->m->info.warp_size * s / units;
        char key[64], from[160];
        snprintf(key, sizeof key, "%s_lambda_cycles", name);
        snprintf(from, sizeof from, "pipeline.instructions.%s: max(issue_cycles, warp_size x "
                 "schedulers / units_per_sm) / schedulers", name);
        fig(cx, rec, key, json_real(lambda_s / s), "latency", 0, from);
        snprintf(key, sizeof key, "%s_Lambda_cycles", name);
        snprintf(from, sizeof from, "pipeline.instructions.%s.completion_cycles", name);
        fig(cx, rec, key, json_real(completion), "latency", 0, from);
    }
}

static void clock_truth(truth_ctx *cx)
{
    const gs_sim_model *m = cx->m;
    json_t *rec = record(cx, "clock");
    if (!rec)
        return;
    fig(cx, rec, "sm_clock_khz", json_real(m->info.sm_clock_khz), "clock",
        m->info.sm_clock_khz * m->clock_wander_percent / 100, "device.clock_khz");
    fig(cx, rec, "clock64_read_cycles", json_real(m->clock64_read_cycles), "latency", 0,
        "device.clock64_read_cycles");
    fig(cx, rec, "globaltimer_read_cycles", json_real(m->globaltimer_read_cycles), "latency", 0,
        "device.globaltimer_read_cycles");
    fig(cx, rec, "globaltimer_resolution_ns", json_real(m->globaltimer_resolution_ns), "latency",
        0, "device.globaltimer_resolution_ns");
}

/* The launch section's costs, in the probe's units (us on the host, ns on the device), each
 * within the section's jitter of it (the event elapsed time also within half a resolution step);
 * the resolution itself exactly. A cluster sync below cc 9.0 is none. */
static void launch_truth(truth_ctx *cx)
{
    static const struct {
        gs_launch_kind kind;
        const char *figure, *key;
        double unit_ns;
    } rows[] = {
        {GS_LAUNCH_STREAM, "stream_launch_us", "stream_launch_ns", 1e3},
        {GS_LAUNCH_GRAPH, "graph_launch_us", "graph_launch_ns", 1e3},
        {GS_LAUNCH_COMPLETE, "empty_kernel_complete_us", "complete_ns", 1e3},
        {GS_LAUNCH_SYNC_IDLE, "sync_idle_us", "sync_idle_ns", 1e3},
        {GS_LAUNCH_EVENT, "event_round_trip_us", "event_round_trip_ns", 1e3},
        {GS_LAUNCH_EVENT_ELAPSED, "event_elapsed_us", "event_elapsed_ns", 1e3},
        {GS_LAUNCH_GRID_SYNC, "grid_sync_ns", "grid_sync_ns", 1},
        {GS_LAUNCH_CLUSTER_SYNC, "cluster_sync_ns", "cluster_sync_ns", 1},
    };
    json_t *rec = NULL;
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        double res = 0, jf = 0;
        double ns = sim_launch_truth(cx->m, rows[i].kind, &res, &jf);
        if (isnan(ns) || (rows[i].kind == GS_LAUNCH_CLUSTER_SYNC && cx->m->info.cc_major < 9))
            continue;
        if (!rec && !(rec = record(cx, "launch")))
            return;
        char from[96];
        snprintf(from, sizeof from, "launch.%s", rows[i].key);
        double noise = ns * jf + (rows[i].kind == GS_LAUNCH_EVENT_ELAPSED ? res / 2 : 0);
        fig(cx, rec, rows[i].figure, json_real(ns / rows[i].unit_ns), "measured",
            noise / rows[i].unit_ns, from);
        if (rows[i].kind == GS_LAUNCH_EVENT_ELAPSED && res > 0)
            fig(cx, rec, "event_resolution_ns", json_real(res), "measured", 0,
                "launch.event_resolution_ns");
    }
}

/* The energy section's idle power and pJ per operation, in the probe's figure names, within the
 * probe's own interval (the counter's steps and noise are what the method must see through). */
static void energy_truth(truth_ctx *cx)
{
    static const struct {
        gs_energy_work work;
        const char *figure;
    } rows[] = {
        {GS_ENERGY_FFMA, "ffma_pj"}, {GS_ENERGY_DFMA, "dfma_pj"}, {GS_ENERGY_HFMA2, "hfma2_pj"},
        {GS_ENERGY_SMEM, "smem_read_pj"}, {GS_ENERGY_L1, "l1_read_pj"},
        {GS_ENERGY_L2, "l2_read_pj"}, {GS_ENERGY_DRAM, "dram_read_pj"},
        {GS_ENERGY_H2D, "h2d_copy_pj"},
    };
    double pj, idle_w;
    if (sim_energy_truth(cx->m, GS_ENERGY_IDLE, 0, &pj, &idle_w))
        return;
    json_t *rec = record(cx, "energy");
    if (!rec)
        return;
    fig(cx, rec, "idle_power_w", json_real(idle_w), "measured", 0, "energy.idle_w");
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
        if (!sim_energy_truth(cx->m, rows[i].work, 0, &pj, &idle_w) && !isnan(pj)) {
            char from[64];
            snprintf(from, sizeof from, "energy.work.%s.pj", gs_energy_work_name(rows[i].work));
            fig(cx, rec, rows[i].figure, json_real(pj), "measured", 0, from);
        }
    for (int t = 0; t < GS_MMA_TYPE_COUNT; t++) {
        unsigned m, n, k;
        if (!gs_mma_shape(GS_MMA_SYNC, (gs_mma_type)t, &m, &n, &k) ||
            !gs_mma_applicable(GS_MMA_SYNC, (gs_mma_type)t, cx->m->info.cc_major,
                               cx->m->info.cc_minor, NULL, 0) ||
            sim_energy_truth(cx->m, GS_ENERGY_MMA, (gs_mma_type)t, &pj, &idle_w) || isnan(pj))
            continue;
        char name[48], from[64];
        snprintf(name, sizeof name, "mma_%s_pj", gs_mma_type_name((gs_mma_type)t));
        snprintf(from, sizeof from, "energy.work.mma_%s.pj", gs_mma_type_name((gs_mma_type)t));
        fig(cx, rec, name, json_real(pj), "measured", 0, from);
    }
}

/* The cluster section's latency of one transfer, per size the cluster probe measures, by the 1D
 * bulk copy, a warp's loads and the 2D tensor-map copy: base + per KB x size, as the model
 * states them, within its noise. */
static void cluster_truth(truth_ctx *cx)
{
    static const struct {
        gs_cluster_kind kind;
        const char *stem;
    } rows[] = {
        {GS_CLUSTER_BULK_LATENCY, "bulk"},
        {GS_CLUSTER_LOAD_LATENCY, "load"},
        {GS_CLUSTER_TENSOR_LATENCY, "tensor"},
    };
    json_t *rec = NULL;
    for (size_t k = 0; k < sizeof rows / sizeof rows[0]; k++)
        for (int i = 0; i < GS_CLUSTER_TRANSFER_SIZES; i++) {
            unsigned bytes = gs_cluster_transfer_bytes(i);
            double cycles = sim_cluster_transfer_truth(cx->m, rows[k].kind, bytes);
            if (isnan(cycles))
                continue;
            if (!rec && !(rec = record(cx, "cluster")))
                return;
            char name[64], from[128];
            snprintf(name, sizeof name, "%s_%ub_latency_cycles", rows[k].stem, bytes);
            snprintf(from, sizeof from, "cluster.tma.%s_latency_base_cycles + "
                     "%s_latency_cycles_per_kb x %u / 1024", rows[k].stem, rows[k].stem, bytes);
            fig(cx, rec, name, json_real(cycles), "latency", cx->noise_cycles, from);
        }
}

int gs_sim_truth(const gs_sim_model *m, json_t **truth, gs_error *err)
{
    truth_ctx cx = {m, json_object(), m->noise_cycles + m->noise_outlier_rate *
                                           m->noise_outlier_cycles, false};
    *truth = NULL;
    if (cx.records) {
        memory_truth(&cx);
        banks_truth(&cx);
        pipeline_truth(&cx);
        clock_truth(&cx);
        launch_truth(&cx);
        energy_truth(&cx);
        cluster_truth(&cx);
    }
    json_t *doc = cx.records ? json_pack("{s:s, s:o}", "model", m->name, "records", cx.records)
                             : NULL;
    if (!doc || cx.oom) {
        json_decref(doc);
        return gs_fail(err, GS_ERR_NO_MEMORY, "truth of model %s: out of host memory", m->name);
    }
    *truth = doc;
    return 0;
}
