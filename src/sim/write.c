/* Simulator: the write operation (plan.h, gs_write_plan) over the model's memory hierarchy. Each
 * repetition does what the CUDA kernel (src/cuda/write.cu) does, access by access, through
 * memory.c's loads and stores, so the levels' write policies ("write_policy", "write_allocate",
 * "store_hit" in docs/sim-models.md) decide what the timed load costs and which value it reads:
 * a load served by a level that held the line before the store and that the store did not reach
 * returns the old value. VISIBILITY: the reader (another SM) polls the device-wide levels with
 * .cg loads, so it sees the value when, and only when, the store went past every per-SM level. */
#include <math.h>
#include <stdlib.h>

#include "sim/memory.h"
#include "sim/sim.h"

#define WRITE_SMEM_BYTES 4096   /* shared memory the CUDA kernel holds (its latency array) */

/* Where things lie: the repetitions' targets from 0, the eviction buffer after them. */
static uint64_t evict_base(const gs_write_plan *p)
{
    uint64_t targets = (uint64_t)p->repeats * p->line_bytes;
    return (targets + 65535) / 65536 * 65536;
}

static void load_into_l1(sim_chase_ctx *cx, const gs_write_plan *p, uint64_t x)
{
    unsigned served;
    for (int k = 0; k < 2; k++) {
        sim_load_lane(cx, p->path, x + p->store_offset_bytes, &served);
        sim_load_lane(cx, p->path, x + p->load_offset_bytes, &served);
    }
}

static void evict(sim_chase_ctx *cx, const gs_write_plan *p)
{
    unsigned served;
    uint64_t base = evict_base(p);
    for (uint64_t a = 0; a + 4 <= p->evict_bytes; a += p->evict_stride_bytes)
        sim_load_lane(cx, p->path, base + a, &served);
}

/* One LOAD_AFTER_STORE repetition on target x. */
static void load_after_store(sim_chase_ctx *cx, const gs_write_plan *p, uint64_t x,
                             gs_write_result *out)
{
    sim_memory *mem = cx->mem;
    unsigned served;
    sim_load_lane(cx, GS_PATH_CG, x + p->store_offset_bytes, &served);
    sim_load_lane(cx, GS_PATH_CG, x + p->load_offset_bytes, &served);
    if (p->line_in_l1)
        load_into_l1(cx, p, x);
    else
        evict(cx, p);
    uint32_t held = 0, touched = 0;
    for (unsigned i = 0; i < mem->n_caches; i++)
        if (sim_cache_probe(&mem->caches[i].state, x + p->load_offset_bytes))
            held |= 1u << i;
    if (p->store)
        sim_store_lane(cx, x + p->store_offset_bytes, p->store_op, &touched);
    double cycles = sim_load_lane(cx, p->path, x + p->load_offset_bytes, &served) +
                    gs_sim_noise(cx->m);
    out->cycles[out->n++] = cycles < 0 ? 0 : round(cycles);
    if (p->store && p->load_offset_bytes == p->store_offset_bytes && served < mem->n_caches &&
        (held >> served & 1u) && !(touched >> served & 1u))
        out->old_values++;
}

/* One VISIBILITY repetition on target x: the writer's L1 holds x, then the store; the reader's
 * .cg load sees it if it reached the device-wide levels. */
static void visibility(sim_chase_ctx *cx, const gs_write_plan *p, uint64_t x,
                       gs_write_result *out)
{
    unsigned served;
    uint32_t touched;
    for (int k = 0; k < 2; k++)
        sim_load_lane(cx, p->path, x + p->store_offset_bytes, &served);
    bool reached = sim_store_lane(cx, x + p->store_offset_bytes, p->store_op, &touched);
    double cycles = sim_load_lane(cx, GS_PATH_CG, x + p->store_offset_bytes, &served) +
                    gs_sim_noise(cx->m);
    out->cycles[out->n++] = reached ? (cycles < 0 ? 0 : round(cycles)) : NAN;
    out->seen += reached;
}

int sim_write(gs_sim_model *m, const gs_write_plan *p, gs_write_result *out, gs_error *err)
{
    int rc = gs_write_plan_check(p, err);
    if (rc)
        return rc;
    uint64_t chain0 = 0;
    gs_chase_plan cp = {.space = GS_SPACE_GLOBAL, .path = p->path,
                        .footprint_bytes = evict_base(p) + p->evict_bytes + p->evict_stride_bytes,
                        .chain = &chain0, .chain_len = 1, .element_bytes = 4,
                        .timed_accesses = 1, .carveout_percent = -1,
                        .smem_bytes = WRITE_SMEM_BYTES};
    gs_chase_result cr = {.sm_id = -1};
    sim_chase_ctx cx;
    if ((rc = sim_chase_begin(&cx, m, &cp, &cr, err)))
        return rc;
    out->n = 0;
    out->old_values = out->seen = out->void_repeats = 0;
    out->sm_id = 0;
    out->reader_sm_id = p->kind == GS_WRITE_VISIBILITY ? 1 : -1;
    for (unsigned r = 0; r < p->repeats; r++) {
        uint64_t x = (uint64_t)r * p->line_bytes;
        if (p->kind == GS_WRITE_VISIBILITY)
            visibility(&cx, p, x, out);
        else
            load_after_store(&cx, p, x, out);
    }
    return 0;
}
