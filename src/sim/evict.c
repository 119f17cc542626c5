/* Simulator: the evict operation (plan.h, gs_evict_plan), prime+probe on the L2, load by load
 * through the model's memory hierarchy on the ld.global.cg path (memory.c's loads: the L1 is
 * bypassed, the L2 answers with its mapping, partitions, near copies and policy, and every
 * timed load gets the model's noise). The CUDA backend reads a pool pass with a whole grid in
 * parallel; here the pool is read in its own order, which a policy that evicts only from full
 * sets sees alike. Like a chase, each plan starts with every cache empty; its cost is one load
 * per access. */
#include <math.h>

#include "sim/memory.h"
#include "sim/sim.h"

static void pool_pass(sim_loads *l, const gs_evict_plan *p)
{
    unsigned served;
    for (size_t i = 0; i < p->n_pool; i++)
        sim_loads_load(l, p->pool[i], false, &served);
}

static double timed_load(gs_sim_model *m, sim_loads *l, uint64_t offset)
{
    unsigned served;
    double cycles = sim_loads_load(l, offset, false, &served) + gs_sim_noise(m);
    return cycles < 0 ? 0 : round(cycles);
}

/* One repetition: warm passes, each target's hit, the pool passes, each target's probe (its
 * L2 lookups counted where the plan asks). */
static void repetition(gs_sim_model *m, sim_loads *l, const gs_evict_plan *p, double *hit,
                       double *probe)
{
    unsigned served;
    for (unsigned k = 0; k < p->warm_passes; k++)
        pool_pass(l, p);
    for (size_t i = 0; i < p->n_targets; i++) {
        sim_loads_load(l, p->targets[i], false, &served);
        hit[i] = timed_load(m, l, p->targets[i]);
    }
    for (unsigned k = 0; k < p->pool_passes; k++)
        pool_pass(l, p);
    l->count_lookups = p->count_l2;
    for (size_t i = 0; i < p->n_targets; i++)
        probe[i] = timed_load(m, l, p->targets[i]);
    l->count_lookups = false;
}

int sim_evict(gs_sim_model *m, const gs_evict_plan *p, gs_evict_result *out, gs_error *err)
{
    int rc = gs_evict_plan_check(p, out, err);
    if (rc)
        return rc;
    if (m->info.global_mem_free_bytes && p->footprint_bytes > m->info.global_mem_free_bytes)
        return gs_fail(err, GS_ERR_NO_MEMORY, "evict plan: %llu B of device memory needed, %llu "
                       "B free on the simulated device", (unsigned long long)p->footprint_bytes,
                       (unsigned long long)m->info.global_mem_free_bytes);
    if (p->count_l2 && !m->info.counters)
        return gs_fail(err, GS_ERR_UNSUPPORTED, "evict plan: L2 counters not available: %s",
                       m->info.counters_detail);
    sim_loads *l = sim_loads_begin(m, GS_PATH_CG, err);
    if (!l)
        return err->status ? (int)err->status : GS_ERR_DEVICE;
    out->n = 0;
    out->sm_moves = 0;
    out->l2_hit_sectors = out->l2_miss_sectors = 0;
    for (unsigned r = 0; r < p->repeats; r++, out->n++)
        repetition(m, l, p, out->hit_cycles + r * p->n_targets,
                   out->probe_cycles + r * p->n_targets);
    out->l2_hit_sectors = l->lookup_hits;
    out->l2_miss_sectors = l->lookup_misses;
    sim_loads_end(l);
    return 0;
}
