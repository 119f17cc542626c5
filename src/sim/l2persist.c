/* The simulator's persist operation (plan.h, gs_persist_plan; docs/sim-models.md): the L2
 * persistence window run load by load through the model's memory hierarchy. The persisting level
 * is the first cache on the ld.global.cg path whose model gives "persisting_max_bytes"; a model
 * without one answers QUERY with zeros and every measuring mode with GS_ERR_UNSUPPORTED. The
 * set-aside asked for (at most the model's maximum) becomes that share of each set's ways
 * (sim_cache_set_persisting) for the duration of the plan, and is taken away again at the end,
 * as the CUDA backend restores its limit. Memory lies as H (hot), D (cold, same size) and S
 * (stream), each starting on a 2 MB boundary. Each round runs the CUDA backend's sequence: a
 * sweep of S (one ld.global.cg load per L2 line), the chain in H, again, the chain in D (cycles
 * per load with the model's noise on each load), a sweep of S, and reads of every sector of H, H
 * and D. With the PERSISTING mode the loads to H carry the persisting property; NORMAL and NONE
 * load H as any other memory. A read takes, for each level, the sectors it served divided by its
 * max_accesses_per_ns (per SM levels times the SMs), summed, stretched by the model's jitter over
 * the DRAM latency; a level on the path without a rate leaves the reads NAN. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/memory.h"
#include "sim/sim.h"

#define REGION_ALIGN (2ull << 20)
#define MAX_LEVELS 16             /* memory_parse.c allows at most 16 caches */

typedef struct persist_run {
    gs_sim_model *m;
    const gs_persist_plan *plan;
    sim_loads *loads;
    sim_level *level;             /* the persisting level */
    uint64_t hot, cold, stream;   /* base addresses */
    bool persisting;              /* loads to H carry the property */
} persist_run;

static uint64_t align_up(uint64_t x)
{
    return (x + REGION_ALIGN - 1) / REGION_ALIGN * REGION_ALIGN;
}

/* The first cache on the cg path with a persisting set-aside, or NULL. */
static sim_level *persisting_level(const gs_sim_model *m)
{
    if (!m->memory)
        return NULL;
    for (unsigned i = 0; i < m->memory->n_caches; i++) {
        sim_level *lv = &m->memory->caches[i];
        if ((lv->paths & (1u << GS_PATH_CG)) && lv->persisting_max_bytes)
            return lv;
    }
    return NULL;
}

static int check_plan(const gs_sim_model *m, const gs_persist_plan *p,
                      const gs_persist_result *out, gs_error *err)
{
    int rc = gs_persist_plan_check(p, out, err);
    if (rc || p->mode == GS_PERSIST_QUERY)
        return rc;
    uint64_t need = 2 * p->hot_bytes + p->stream_bytes;
    if (m->info.global_mem_free_bytes && need > m->info.global_mem_free_bytes)
        return gs_fail(err, GS_ERR_NO_MEMORY, "persist plan: %llu B of device memory needed, %llu "
                       "B free on the simulated device", (unsigned long long)need,
                       (unsigned long long)m->info.global_mem_free_bytes);
    return 0;
}

/* One load per line of S. */
static void sweep(persist_run *r)
{
    uint64_t line = r->level->active->block_bytes;
    unsigned served;
    for (uint64_t off = 0; off < r->plan->stream_bytes; off += line)
        sim_loads_load(r->loads, r->stream + off, false, &served);
}

/* One pass over the chain in the region at base: cycles per load, with noise. */
static double chase(persist_run *r, uint64_t base, bool persisting)
{
    const gs_persist_plan *p = r->plan;
    double sum = 0;
    unsigned served;
    for (size_t i = 0; i < p->chain_len; i++) {
        double c = sim_loads_load(r->loads, base + p->chain[i], persisting, &served) +
                   gs_sim_noise(r->m);
        sum += c > 0 ? c : 0;
    }
    return sum / (double)p->chain_len;
}

/* Every sector of the region at base: seconds from the sectors each level served and its rate;
 * NAN when a level that served some has no rate. One load per fetch group of the L2 (a miss
 * brings the whole group in, so its other sectors cost no second access below): the level that
 * served it counts the group's sectors. */
static double read_region(persist_run *r, uint64_t base, bool persisting)
{
    const sim_memory *mem = r->m->memory;
    const sim_geometry *g = r->level->active;
    uint64_t sector = g->sector_bytes, served_by[MAX_LEVELS + 1];
    uint64_t group = g->fetch_bytes > sector ? g->fetch_bytes : sector;
    unsigned served;
    memset(served_by, 0, sizeof served_by);
    for (uint64_t off = 0; off < r->plan->hot_bytes; off += group) {
        sim_loads_load(r->loads, base + off, persisting, &served);
        served_by[served <= MAX_LEVELS ? served : MAX_LEVELS] += group / sector;
    }
    double ns = 0;
    unsigned sms = r->m->info.sm_count > 0 ? (unsigned)r->m->info.sm_count : 1;
    for (unsigned i = 0; i <= mem->n_caches && i <= MAX_LEVELS; i++) {
        uint64_t n = served_by[i];
        if (!n)
            continue;
        double cap = i == mem->n_caches ? mem->dram_max_accesses_per_ns
                                        : mem->caches[i].max_accesses_per_ns;
        if (i < mem->n_caches && mem->caches[i].per_sm)
            cap *= sms;
        if (!(cap > 0))
            return NAN;
        ns += (double)n / cap;
    }
    double stretch = mem->dram_latency_cycles > 0 ? gs_sim_noise(r->m) / mem->dram_latency_cycles
                                                  : 0;
    return ns * (1 + stretch) * 1e-9;
}

/* The round of the CUDA backend: sweep, chase H, H, D; sweep, read H, H, D. */
static void round_once(persist_run *r, unsigned k, gs_persist_result *out)
{
    sweep(r);
    double hot = chase(r, r->hot, r->persisting);
    double warm = chase(r, r->hot, r->persisting);
    double cold = chase(r, r->cold, false);
    sweep(r);
    double hot_s = read_region(r, r->hot, r->persisting);
    double warm_s = read_region(r, r->hot, r->persisting);
    double cold_s = read_region(r, r->cold, false);
    if (k == 0)
        return;                   /* the untimed first round */
    out->hot_cycles[k - 1] = hot;
    out->warm_cycles[k - 1] = warm;
    out->cold_cycles[k - 1] = cold;
    out->hot_read_s[k - 1] = hot_s;
    out->warm_read_s[k - 1] = warm_s;
    out->cold_read_s[k - 1] = cold_s;
    out->n = k;
}

int sim_persist(gs_sim_model *m, const gs_persist_plan *plan, gs_persist_result *out,
                gs_error *err)
{
    int rc = check_plan(m, plan, out, err);
    if (rc)
        return rc;
    sim_level *lv = persisting_level(m);
    out->n = 0;
    out->max_set_aside_bytes = lv ? lv->persisting_max_bytes : 0;
    out->max_window_bytes = lv ? lv->persisting_window_max_bytes : 0;
    out->previous_limit_bytes = out->set_aside_bytes = 0;
    if (plan->mode == GS_PERSIST_QUERY)
        return 0;
    if (!lv)
        return gs_fail(err, GS_ERR_UNSUPPORTED, "model '%s' has no persisting L2 (no cache level "
                       "on the cg path gives persisting_max_bytes)", m->name);
    if (plan->hot_bytes > out->max_window_bytes)
        return gs_fail(err, GS_ERR_USAGE, "persist plan: hot_bytes %llu exceed the largest access "
                       "policy window, %llu B", (unsigned long long)plan->hot_bytes,
                       (unsigned long long)out->max_window_bytes);
    persist_run r = {.m = m, .plan = plan, .level = lv, .hot = 0,
                     .persisting = plan->mode == GS_PERSIST_PERSISTING};
    r.cold = align_up(plan->hot_bytes);
    r.stream = r.cold + align_up(plan->hot_bytes);
    if (!(r.loads = sim_loads_begin(m, GS_PATH_CG, err)))
        return err->status ? (int)err->status : GS_ERR_DEVICE;
    out->set_aside_bytes = plan->set_aside_bytes < lv->persisting_max_bytes
                               ? plan->set_aside_bytes : lv->persisting_max_bytes;
    if (sim_cache_set_persisting(&lv->state, (double)out->set_aside_bytes /
                                                 (double)lv->active->size_bytes)) {
        sim_loads_end(r.loads);
        return gs_fail(err, GS_ERR_NO_MEMORY, "out of host memory");
    }
    for (unsigned k = 0; k <= plan->rounds; k++)
        round_once(&r, k, out);
    sim_cache_set_persisting(&lv->state, 0);     /* the set-aside goes, as the limit is restored */
    sim_loads_end(r.loads);
    return 0;
}
