/* Simulator: the chase operation over the model's memory hierarchy (memory.h, parsed in
 * memory_parse.c). It runs a gs_chase_plan exactly as the CUDA backend would: the chain of byte
 * offsets is walked (wrapping), warm-up passes first, then either the latency of each of the first
 * record_n accesses is recorded (the fine-grained P-chase, Listing 4 of the memory-hierarchy paper)
 * or timed_accesses are averaged. An access costs its TLB lookups (hit cycles, or the miss penalty
 * of each level that missed), then the hit latency of the first cache level on its path that holds
 * the sector (plus miss_cycles of each level that missed before it), else the DRAM latency, plus the
 * model's noise. Each chase starts with every cache and TLB empty. docs/sim-models.md has the
 * whole latency model, including warp requests (lanes) and loaded latency (walkers). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/cache_steps.h"
#include "sim/memory.h"
#include "sim/sim.h"
#include "util/u64set.h"

/* The steps of one access, inlined where a walk makes its accesses (one run of code per request,
 * without calls and register saves between its levels) */
#define HOT SIM_STEP

#define PREFETCH_AHEAD 8     /* requests ahead whose cache state is fetched into the host's caches */
#define CHAIN_AHEAD 2         /* a split warm-up fetches each segment's chain this far ahead */
#define PREFETCH_MIN_WAYS 8192  /* stores this large (about 200 KB of state) are prefetched, for a
                                   chase that can reach as many of their lines */

typedef sim_chase_ctx chase_ctx;

gs_load_path sim_effective_path(const gs_chase_plan *plan)
{
    switch (plan->space) {
    case GS_SPACE_SHARED:
        return GS_PATH_SHARED;
    case GS_SPACE_CONSTANT:
        return plan->path == GS_PATH_DEFAULT ? GS_PATH_CONST : plan->path;
    case GS_SPACE_LOCAL:
        return plan->path == GS_PATH_DEFAULT ? GS_PATH_LOCAL : plan->path;
    case GS_SPACE_TEXTURE:
        return plan->path == GS_PATH_DEFAULT ? GS_PATH_TEX : plan->path;
    case GS_SPACE_GLOBAL:
    default:
        return plan->path;
    }
}

/* ---- preparing the hierarchy for one chase ------------------------------------------------------- */

/* The geometry for a carve-out request: the listed entry with the smallest percent >= the request,
 * else the largest; the default geometry for -1 or when none is listed. A level that shares its
 * array (default_carveout_percent) lists its own geometry at that percent too. */
static const sim_geometry *pick_geometry(const sim_level *lv, int percent)
{
    if (percent < 0 || lv->n_carveouts == 0)
        return &lv->geo;
    const sim_geometry *best = NULL, *largest = NULL;
    int best_pct = 0, largest_pct = -1;
    for (unsigned i = 0; i <= lv->n_carveouts; i++) {
        int pct = i < lv->n_carveouts ? lv->carveouts[i].percent : lv->default_carveout_percent;
        const sim_geometry *g = i < lv->n_carveouts ? &lv->carveouts[i].geo : &lv->geo;
        if (pct < 0)
            continue;
        if (pct >= percent && (!best || pct < best_pct))
            best = g, best_pct = pct;
        if (pct > largest_pct)
            largest = g, largest_pct = pct;
    }
    return best ? best : largest;
}

/* Shared memory a chase's block holds, as the CUDA backend lays it out: the trace (2 B per entry
 * and a scratch entry, rounded to 16 B), a shared-space chain, or smem_bytes if larger. */
static uint64_t chase_smem_bytes(const gs_chase_plan *p)
{
    uint64_t trace = p->record_n ? ((uint64_t)p->record_n + 1) * 2 : 0;
    uint64_t b = (trace + 15) / 16 * 16;
    if (p->space == GS_SPACE_SHARED)
        b += (p->footprint_bytes + 15) / 16 * 16;
    return p->smem_bytes > b ? p->smem_bytes : b;
}

/* The geometry a chase gets. A level that shares its array with shared memory
 * (default_carveout_percent) gives up what the chase's shared memory needs: the carve-out is the
 * larger of the one asked for (the default's percent for -1) and the one the chase needs. */
static const sim_geometry *chase_geometry(const chase_ctx *cx, const sim_level *lv)
{
    int want = cx->plan->carveout_percent;
    uint64_t per_sm = cx->m->info.smem_per_sm_bytes, held = chase_smem_bytes(cx->plan);
    if (lv->default_carveout_percent < 0 || !per_sm)
        return pick_geometry(lv, want);
    int base = want >= 0 ? want
                         : held && lv->shared_default_percent >= 0 ? lv->shared_default_percent
                                                                   : lv->default_carveout_percent;
    int need = (int)((held * 100 + per_sm - 1) / per_sm);
    return pick_geometry(lv, need > base ? (need > 100 ? 100 : need) : base);
}

static int prepare(chase_ctx *cx, gs_error *err)
{
    sim_memory *mem = cx->mem;
    for (unsigned i = 0; i < mem->n_caches; i++) {
        sim_level *lv = &mem->caches[i];
        const sim_geometry *g = chase_geometry(cx, lv);
        if (lv->active != g) {
            sim_cache_free(&lv->state);
            lv->active = NULL;
            if (sim_cache_init(&lv->state, g))
                return gs_fail(err, GS_ERR_NO_MEMORY, "out of host memory building cache '%s'",
                               lv->name);
            lv->active = g;
        }
        sim_cache_reset(&lv->state);
        lv->n_partial = 0;
        if (lv->copy_geo.size_bytes && !lv->copy_state.geo &&
            sim_cache_init(&lv->copy_state, &lv->copy_geo))
            return gs_fail(err, GS_ERR_NO_MEMORY, "out of host memory building cache '%s'",
                           lv->name);
        if (lv->copy_geo.size_bytes)
            sim_cache_reset(&lv->copy_state);
    }
    for (unsigned i = 0; i < mem->n_tlbs; i++) {
        sim_tlb *t = &mem->tlbs[i];
        if (!t->state.geo && sim_cache_init(&t->state, &t->geo))
            return gs_fail(err, GS_ERR_NO_MEMORY, "out of host memory building TLB '%s'", t->name);
        sim_cache_reset(&t->state);
    }
    sim_dram_reset(&mem->dram);
    /* a store is prefetched only where the chase can touch more of its lines than that: a
       smaller footprint's state stays in the host's caches */
    uint64_t reach = cx->alias_bytes ? cx->alias_bytes : cx->plan->footprint_bytes;
    cx->n_large = 0;
    cx->large_level = -1;
    for (unsigned i = 0; i < mem->n_caches; i++)
        if ((mem->caches[i].paths & cx->path_bit) &&
            mem->caches[i].state.total_ways >= PREFETCH_MIN_WAYS &&
            (!reach || reach / mem->caches[i].active->block_bytes >= PREFETCH_MIN_WAYS)) {
            if (cx->n_large == 0)
                cx->large_level = (int)i;
            cx->large[cx->n_large++] = &mem->caches[i].state;
        }
    cx->sector_bytes = cx->line_bytes = mem->transaction_bytes;
    for (unsigned i = 0; i < mem->n_caches; i++)
        if (mem->caches[i].paths & cx->path_bit) {
            cx->sector_bytes = mem->caches[i].active->sector_bytes;
            cx->line_bytes = mem->caches[i].active->block_bytes;
            break;
        }
    return 0;
}

/* ---- one access ----------------------------------------------------------------------------------- */

static unsigned partition_of(const sim_level *lv, uint64_t addr)
{
    const sim_mapping *map = &lv->partition_map;
    if (map->kind == SIM_MAP_MODULO)
        return (unsigned)((addr / lv->partition_block_bytes) % lv->partitions);
    unsigned p = 0;
    for (unsigned i = 0; i < map->nbits; i++)
        p |= (unsigned)__builtin_parityll(addr & map->group_mask[i]) << i;
    return p;
}

/* One access to a store of the path, filling on a miss: sim_cache_access_in (cache.h) with the
 * ordered and segmented stores' accesses inline (cache_steps.h), the same outcome and state
 * without a call for the stores most accesses go to. */
HOT sim_outcome store_access(sim_cache *c, uint64_t addr, unsigned set, bool persisting,
                             gs_rng *rng, int *way_out)
{
    if (sim_cache_memo_answers(c, addr, way_out))
        return SIM_HIT;
    unsigned how = SIM_ACCESS_FILL | (persisting ? SIM_ACCESS_PERSISTING : 0) |
                   SIM_ACCESS_WHOLE_FETCH;
    if (!c->persisting) {
        if (c->ordered)
            return sim_cache_ordered_step(c, addr, set, how, way_out);
        if (c->segmented)
            return sim_cache_segmented_step(c, addr, set, how, way_out);
    }
    return sim_cache_access_rest(c, addr, set, how, rng, way_out);
}

/* TLB levels in order until one hits; every level that missed is filled. `timed` (a constant
 * where it is inlined): the cycles are wanted; an untimed access makes the same lookups and
 * returns 0. */
HOT double translate(chase_ctx *cx, uint64_t vaddr, uint32_t *skip, bool timed)
{
    double cycles = 0;
    *skip = 0;
    for (unsigned i = 0; i < cx->mem->n_tlbs; i++) {
        sim_tlb *t = &cx->mem->tlbs[i];
        if (!(t->paths & cx->path_bit))
            continue;
        int way = -1;
        if (store_access(&t->state, vaddr, SIM_SET_UNKNOWN, false, &cx->m->rng,
                         timed && t->near_ways ? &way : NULL) == SIM_HIT)
            return !timed ? 0 : cycles + t->hit_cycles +
                   (t->near_ways && way >= (int)t->near_ways ? t->far_hit_cycles : 0);
        if (timed)
            cycles += t->miss_penalty_cycles;
        *skip |= t->skip_on_miss;
    }
    return cycles;
}

/* One lane's load: cycles, and which level served it (n_caches = DRAM). */
/* "write_allocate_unit": "word" (sim_level.allocate_words): the partly valid sectors. */
static uint64_t sector_of(const sim_level *lv, uint64_t paddr)
{
    uint64_t s = lv->active && lv->active->sector_bytes ? lv->active->sector_bytes : 32;
    return paddr - paddr % s;
}

static uint64_t words_of(const sim_level *lv, uint64_t paddr, unsigned bytes)
{
    uint64_t first = (paddr - sector_of(lv, paddr)) / 4, n = bytes > 4 ? bytes / 4 : 1;
    uint64_t mask = 0;
    for (uint64_t w = first; w < first + n && w < 64; w++)
        mask |= 1ull << w;
    return mask;
}

static int partial_find(const sim_level *lv, uint64_t sector)
{
    for (unsigned k = 0; k < lv->n_partial; k++)
        if (lv->partial_addr[k] == sector)
            return (int)k;
    return -1;
}

static void partial_drop(sim_level *lv, int k)
{
    lv->partial_addr[k] = lv->partial_addr[lv->n_partial - 1];
    lv->partial_mask[k] = lv->partial_mask[lv->n_partial - 1];
    lv->n_partial--;
}

/* A store allocated (reset) or hit (add) the sector: its words become valid. */
static void partial_store(sim_level *lv, uint64_t paddr, bool allocated)
{
    uint64_t sector = sector_of(lv, paddr), words = words_of(lv, paddr, 4);
    int k = partial_find(lv, sector);
    if (k >= 0) {
        lv->partial_mask[k] = allocated ? words : lv->partial_mask[k] | words;
        return;
    }
    if (!allocated)
        return;                        /* a hit on a whole sector: nothing partial */
    if (lv->n_partial == SIM_PARTIAL) { /* room: the oldest partial sector leaves the cache */
        sim_cache_invalidate(&lv->state, lv->partial_addr[0], false);
        partial_drop(lv, 0);
    }
    lv->partial_addr[lv->n_partial] = sector;
    lv->partial_mask[lv->n_partial++] = words;
}

/* A load found the sector: true when it holds the words asked for. A load that misses fills the
 * sector, so its partial record goes either way. */
static bool partial_holds(sim_level *lv, uint64_t paddr, unsigned bytes, bool hit)
{
    int k = partial_find(lv, sector_of(lv, paddr));
    if (k < 0)
        return hit;
    uint64_t need = words_of(lv, paddr, bytes);
    bool holds = hit && (lv->partial_mask[k] & need) == need;
    if (!holds)
        partial_drop(lv, k);
    return holds;
}

/* The accesses of cx go by path: its bit, and the cache levels on it. */
static void take_path(chase_ctx *cx, gs_load_path path)
{
    cx->path = path;
    cx->path_bit = 1u << path;
    cx->path_levels = 0;
    for (unsigned i = 0; i < cx->mem->n_caches; i++)
        if (cx->mem->caches[i].paths & cx->path_bit)
            cx->path_levels |= 1u << i;
}

/* One lane's load of vaddr; `known`: the set of vaddr in cache level large_level when the
 * request's prefetch found it (prefetch_request), else SIM_SET_UNKNOWN. `timed` (a constant
 * where it is inlined): its cycles and serving level are wanted; an untimed access (a warm-up's)
 * changes every state as a timed one does, and returns 0 with *served unset. */
HOT double access_lane(chase_ctx *cx, uint64_t vaddr, unsigned known, unsigned *served,
                       bool timed)
{
    sim_memory *mem = cx->mem;
    uint32_t skip;
    double cycles = translate(cx, vaddr, &skip, timed);
    if (timed)
        cycles = mem->path_extra_cycles[cx->path] + cycles;
    uint64_t paddr = cx->alias_bytes ? vaddr % cx->alias_bytes : vaddr;
    for (uint32_t left = cx->path_levels; left; left &= left - 1) {   /* in lookup order */
        unsigned i = (unsigned)__builtin_ctz(left);
        sim_level *lv = &mem->caches[i];
        unsigned set = (int)i == cx->large_level ? known : SIM_SET_UNKNOWN;
        if ((int)i == cx->unseen_level) {
            if (set == SIM_SET_UNKNOWN)
                set = sim_cache_set_of(&lv->state, paddr);
            if (!sim_cache_image_has_set(&lv->state, set))
                break;                 /* untimed, and no timed access will see its set */
        }
        /* whether the line lies in a far partition: needed before the access where the level
           keeps copies of far lines (the copy is accessed first), else only on a hit */
        bool far = lv->copy_geo.size_bytes && lv->partitions > 1 && partition_of(lv, paddr) != 0;
        bool copied = far &&
                      sim_cache_access(&lv->copy_state, paddr, true, &cx->m->rng, NULL) == SIM_HIT;
        bool persisting = cx->persisting && lv->persisting_max_bytes > 0;
        sim_outcome o = store_access(&lv->state, paddr, set, persisting, &cx->m->rng, NULL);
        if (skip & (1u << i))
            continue;                  /* filled, but its hit does not serve this access */
        if (timed && lv->n_sm_extra)   /* entry sm modulo n_sm_extra, dividing only past it */
            cycles += lv->sm_extra_cycles[cx->sm < lv->n_sm_extra ? cx->sm
                                                                  : cx->sm % lv->n_sm_extra];
        if (lv->allocate_words && lv->n_partial &&
            !partial_holds(lv, paddr, cx->plan ? cx->plan->element_bytes : 4, o == SIM_HIT))
            o = SIM_MISS;              /* the store left the words asked for invalid */
        if (cx->count_lookups)
            *(o == SIM_HIT ? &cx->lookup_hits : &cx->lookup_misses) += 1;
        if (o == SIM_HIT) {
            if (!timed)
                return 0;
            *served = i;
            cycles += lv->hit_latency_cycles;
            if (!lv->copy_geo.size_bytes)
                far = lv->partitions > 1 && partition_of(lv, paddr) != 0;
            if (far && !copied)
                cycles += lv->far_extra_cycles;
            return cycles;
        }
        if (timed)
            cycles += lv->miss_cycles;
    }
    if (!timed) {                      /* the row buffer's state alone (dram.c) */
        if (mem->dram.row_bytes)
            sim_dram_access(mem, paddr);
        return 0;
    }
    *served = mem->n_caches;
    return cycles + sim_dram_access(mem, paddr);    /* row buffer: dram.c */
}

double sim_load_lane(chase_ctx *cx, gs_load_path path, uint64_t vaddr, unsigned *served)
{
    gs_load_path was = cx->path;
    take_path(cx, path);
    double cycles = access_lane(cx, vaddr, SIM_SET_UNKNOWN, served, true);
    take_path(cx, was);
    return cycles;
}

bool sim_store_lane(chase_ctx *cx, uint64_t vaddr, gs_store_op op, uint32_t *touched)
{
    sim_memory *mem = cx->mem;
    uint64_t paddr = cx->alias_bytes ? vaddr % cx->alias_bytes : vaddr;
    uint32_t store_bit = 1u << GS_PATH_DEFAULT;
    *touched = 0;
    for (unsigned i = 0; i < mem->n_caches; i++) {
        sim_level *lv = &mem->caches[i];
        if (!(lv->paths & store_bit))
            continue;
        *touched |= 1u << i;
        if (op == GS_STORE_CG && lv->per_sm) {
            sim_cache_invalidate(&lv->state, paddr, false);
            continue;
        }
        bool held = sim_cache_probe(&lv->state, paddr);
        if (held && lv->store_invalidates) {
            sim_cache_invalidate(&lv->state, paddr, true);
            held = false;
        } else if (held) {
            sim_cache_write(&lv->state, paddr, &cx->m->rng);   /* a hit: refreshed */
            if (lv->allocate_words)
                partial_store(lv, paddr, false);
        } else if (lv->write_allocate) {
            sim_cache_write(&lv->state, paddr, &cx->m->rng);
            held = true;
            if (lv->allocate_words)
                partial_store(lv, paddr, true);
        }
        if (held && lv->write_back)
            return !lv->per_sm;
    }
    return true;
}

/* The distinct ids among ids[0 .. n); ids that never fall (`rising`: the sectors or lines of a
 * request's lanes without aliasing, whose addresses rise with the lane) are counted by where
 * they change. */
static unsigned count_distinct(uint64_t *ids, unsigned n, bool rising)
{
    unsigned distinct = 0;
    if (rising) {
        for (unsigned i = 0; i < n; i++)
            distinct += i == 0 || ids[i] != ids[i - 1];
        return distinct;
    }
    for (unsigned i = 0; i < n; i++) {
        unsigned k = 0;
        while (k < distinct && ids[k] != ids[i])
            k++;
        if (k == distinct)
            ids[distinct++] = ids[i];
    }
    return distinct;
}

/* One warp request at chain offset `offset`: the slowest lane, plus the serialization cost of each
 * distinct sector and line beyond the first (warp_request in the model). `slot`: the ring slot
 * (sim_chase_ctx.ring_set) its prefetch may have filled, or NO_SLOT; the sets there are used
 * where the slot holds this offset's (a set is a function of the address alone, so a slot
 * that holds it is right whenever it was filled). */
#define NO_SLOT UINT32_MAX

HOT double access_request(chase_ctx *cx, uint64_t offset, unsigned slot, unsigned *level)
{
    *level = 0;
    if (cx->plan->space == GS_SPACE_SHARED)
        return cx->mem->shared_latency_cycles;
    uint64_t sectors[32], lines[32];
    double worst = 0;
    unsigned worst_level = 0;
    const uint32_t *known = slot != NO_SLOT && cx->ring_offset[slot] == offset + 1
                                ? cx->ring_set[slot] : NULL;
    for (unsigned i = 0; i < cx->lanes; i++) {
        uint64_t vaddr = cx->base + offset + i * cx->plan->lane_stride_bytes;
        uint64_t paddr = cx->alias_bytes ? vaddr % cx->alias_bytes : vaddr;
        unsigned served;
        double cycles = access_lane(cx, vaddr, known ? known[i] : SIM_SET_UNKNOWN, &served, true);
        if (i == 0 || cycles > worst) {
            worst = cycles;
            worst_level = served;
        }
        if (cx->lanes > 1) {           /* one lane is one sector and one line */
            sectors[i] = paddr / cx->sector_bytes;
            lines[i] = paddr / cx->line_bytes;
        }
    }
    *level = worst_level;
    if (cx->lanes > 1) {
        bool rising = !cx->alias_bytes;
        worst += cx->mem->extra_sector_cycles * (count_distinct(sectors, cx->lanes, rising) - 1);
        worst += cx->mem->extra_line_cycles * (count_distinct(lines, cx->lanes, rising) - 1);
    }
    return worst;
}

/* A request whose outcome is not wanted (a warm-up's, recording nothing): its lanes' loads,
 * every state changed as access_request changes it, without their cycles. */
HOT void warm_request(chase_ctx *cx, uint64_t offset, unsigned slot)
{
    if (cx->plan->space == GS_SPACE_SHARED)
        return;
    const uint32_t *known = slot != NO_SLOT && cx->ring_offset[slot] == offset + 1
                                ? cx->ring_set[slot] : NULL;
    uint64_t vaddr = cx->base + offset, stride = cx->plan->lane_stride_bytes;
    for (unsigned i = 0; i < cx->lanes; i++, vaddr += stride)
        access_lane(cx, vaddr, known ? known[i] : SIM_SET_UNKNOWN, NULL, false);
}

/* Start fetching the host memory the request at chain offset `offset` will read in the large
 * stores on the path (TLBs and small caches stay in the host's caches anyway); not in a set the
 * request will skip (the unseen level's sets that no timed access reaches). The sets found in
 * large[0] go into ring slot `slot`, for the request itself (access_request). */
static void prefetch_lanes(chase_ctx *cx, uint64_t offset, unsigned slot)
{
    const sim_cache *unseen = cx->unseen_level >= 0 ? &cx->mem->caches[cx->unseen_level].state
                                                    : NULL;
    for (unsigned i = 0; i < cx->lanes; i++) {
        uint64_t vaddr = cx->base + offset + i * cx->plan->lane_stride_bytes;
        uint64_t paddr = cx->alias_bytes ? vaddr % cx->alias_bytes : vaddr;
        for (unsigned k = 0; k < cx->n_large; k++) {
            unsigned set = sim_cache_set_of(cx->large[k], paddr);
            if (k == 0)
                cx->ring_set[slot][i] = set;
            if (cx->large[k] != unseen || sim_cache_image_has_set(unseen, set))
                sim_cache_prefetch_in(cx->large[k], paddr, set);
        }
    }
    cx->ring_offset[slot] = offset + 1;
}

/* prefetch_request: most chases have one lane and one large store (an L2), whose request is
 * handled here inline, with the same sets kept and the same lines fetched; the rest by
 * prefetch_lanes. */
HOT void prefetch_request(chase_ctx *cx, uint64_t offset, unsigned slot)
{
    if (cx->lanes != 1 || cx->n_large != 1) {
        prefetch_lanes(cx, offset, slot);
        return;
    }
    uint64_t vaddr = cx->base + offset;
    uint64_t paddr = cx->alias_bytes ? vaddr % cx->alias_bytes : vaddr;
    const sim_cache *c = cx->large[0];
    unsigned set = sim_cache_set_of(c, paddr);
    cx->ring_set[slot][0] = set;
    if (cx->unseen_level != cx->large_level || sim_cache_image_has_set(c, set))
        sim_cache_prefetch_in(c, paddr, set);
    cx->ring_offset[slot] = offset + 1;
}

/* The ring slot of the t-th request of a run of requests each prefetched PREFETCH_AHEAD
 * requests before it (t counts from 0): its prefetch's slot, and the slot of the request it
 * prefetches. */
static unsigned ring_slot(uint64_t t)
{
    return (unsigned)(t % SIM_SET_RING);
}

static unsigned ring_slot_of_request(uint64_t t)
{
    return t >= PREFETCH_AHEAD ? ring_slot(t - PREFETCH_AHEAD) : NO_SLOT;
}

_Static_assert(SIM_SET_RING > PREFETCH_AHEAD, "a ring slot is read before it is filled again");

static size_t next_position(size_t k, size_t chain_len)
{
    return k + 1 < chain_len ? k + 1 : 0;
}

/* A split warm-up (gs_chase_split_of): the serial part in chain order, then the parallel part's
 * segments in lockstep, one access of each segment in turn (segment i's k-th access before
 * segment i + 1's), as threads that start together and take one latency per access would. */
static void warm_split(chase_ctx *cx, const gs_chase_split *s)
{
    const uint64_t *chain = cx->plan->chain;
    bool prefetch = cx->n_large != 0;
    size_t from[GS_SPLIT_SEGMENTS + 1];                 /* segment i: from[i] .. from[i + 1] - 1 */
    for (size_t k = 0; k < s->serial_n; k++)
        warm_request(cx, chain[s->serial_first + k], NO_SLOT);
    for (unsigned i = 0; i <= s->segments; i++)
        from[i] = s->parallel_first + (size_t)((uint64_t)i * s->parallel_n / s->segments);
    size_t longest = (s->parallel_n + s->segments - 1) / s->segments;
    unsigned ahead_segment[GS_SPLIT_SEGMENTS];   /* segment i: the segment PREFETCH_AHEAD on */
    for (unsigned i = 0; i < s->segments; i++)
        ahead_segment[i] = (i + PREFETCH_AHEAD) % s->segments;
    uint64_t t = 0;                                 /* requests in lockstep order */
    size_t k = 0, shortest = s->parallel_n / s->segments, end = from[s->segments];
    /* the rounds whose next round has every segment's access too (each segment has at least
       `shortest`): the access PREFETCH_AHEAD on is there, and no test is needed */
    for (; prefetch && s->segments > PREFETCH_AHEAD && k + 1 < shortest; k++) {
        unsigned i = 0;
        for (; i + PREFETCH_AHEAD < s->segments; i++, t++) {
            size_t ahead = from[i + PREFETCH_AHEAD] + k;
            prefetch_request(cx, chain[ahead], ring_slot(t));
            if (ahead + CHAIN_AHEAD < end)
                __builtin_prefetch(&chain[ahead + CHAIN_AHEAD]);
            warm_request(cx, chain[from[i] + k], ring_slot_of_request(t));
        }
        for (; i < s->segments; i++, t++) {
            size_t ahead = from[i + PREFETCH_AHEAD - s->segments] + k + 1;
            prefetch_request(cx, chain[ahead], ring_slot(t));
            if (ahead + CHAIN_AHEAD < end)
                __builtin_prefetch(&chain[ahead + CHAIN_AHEAD]);
            warm_request(cx, chain[from[i] + k], ring_slot_of_request(t));
        }
    }
    for (; k < longest; k++)
        for (unsigned i = 0; i < s->segments; i++, t++) {
            unsigned j = ahead_segment[i];              /* the access PREFETCH_AHEAD on */
            size_t ahead = i + PREFETCH_AHEAD < s->segments ? from[j] + k : from[j] + k + 1;
            if (prefetch && ahead < from[j + 1])
                prefetch_request(cx, chain[ahead], ring_slot(t));
            /* the chain itself, a round or two ahead: no host prefetcher follows 1024 streams */
            if (ahead + CHAIN_AHEAD < from[j + 1])
                __builtin_prefetch(&chain[ahead + CHAIN_AHEAD]);
            if (from[i] + k < from[i + 1])
                warm_request(cx, chain[from[i] + k], prefetch ? ring_slot_of_request(t) : NO_SLOT);
        }
}

/* ---- checking the plan ----------------------------------------------------------------------------- */

static int check_path(const chase_ctx *cx, gs_error *err)
{
    const sim_memory *mem = cx->mem;
    if (cx->path == GS_PATH_SHARED) {
        if (mem->shared_latency_cycles < 0)
            return gs_fail(err, GS_ERR_UNSUPPORTED, "model '%s' has no memory.shared_latency_cycles:"
                           " it cannot chase in shared memory", cx->m->name);
        return 0;
    }
    if (mem->uncached_paths & cx->path_bit)
        return 0;
    for (unsigned i = 0; i < mem->n_caches; i++)
        if (mem->caches[i].paths & cx->path_bit)
            return 0;
    return gs_fail(err, GS_ERR_UNSUPPORTED, "model '%s' has no cache level on load path '%s' "
                   "(space %s) and does not list it in memory.uncached_paths: the path is not "
                   "modelled", cx->m->name, gs_path_name(cx->path), gs_space_name(cx->plan->space));
}

static uint64_t block_smem_bytes(const gs_sim_model *m)
{
    return m->info.smem_per_block_optin_bytes ? m->info.smem_per_block_optin_bytes
                                              : m->info.smem_per_block_bytes;
}

/* The on-chip trace, as the CUDA backend keeps it: 2 B per entry and a scratch entry, in the
 * plan's smem_bytes or else the shared memory a block may opt in to, less the chain itself when
 * the chase is in shared memory. */
static int trace_capacity(const gs_sim_model *m, const gs_chase_plan *p, gs_chase_result *out,
                          gs_error *err)
{
    uint64_t optin = block_smem_bytes(m), smem = p->smem_bytes ? p->smem_bytes : optin;
    out->record_capacity = 0;
    if (p->smem_bytes > optin)
        return gs_fail(err, GS_ERR_UNSUPPORTED, "chase plan: smem_bytes %llu exceeds the %llu B of "
                       "shared memory a block may opt in to", (unsigned long long)p->smem_bytes,
                       (unsigned long long)optin);
    if (p->space == GS_SPACE_SHARED) {
        uint64_t chain = (p->footprint_bytes + 15) / 16 * 16;
        if (p->footprint_bytes > optin)
            return gs_fail(err, GS_ERR_UNSUPPORTED, "chase plan: a %llu B shared-memory footprint "
                           "exceeds the %llu B of shared memory a block may opt in to",
                           (unsigned long long)p->footprint_bytes, (unsigned long long)optin);
        smem = smem > chain ? smem - chain : 0;
    }
    size_t entries = (size_t)(smem / 16 * 16 / 2);
    out->record_capacity = entries > 1 ? entries - 1 : 0;
    return 0;
}

static int check_plan(const gs_sim_model *m, const gs_chase_plan *p, gs_chase_result *out,
                      gs_error *err)
{
    if (!p->chain || p->chain_len == 0)
        return gs_fail(err, GS_ERR_USAGE, "chase: the chain is empty");
    /* an aliased chain (TLB walks) that visits one offset twice is refused, as the CUDA backend
     * refuses it; checked here only where the chains are short enough to sort */
    int rep = p->physical_bytes && p->chain_len <= (1u << 20)
                  ? gs_u64_repeats(p->chain, p->chain_len) : 0;
    if (rep < 0)
        return gs_fail(err, GS_ERR_NO_MEMORY, "chase: out of host memory");
    if (rep)
        return gs_fail(err, GS_ERR_USAGE, "chase: the chain visits one offset twice (a chain "
                       "must give each element a place of its own)");
    if (p->element_bytes != 4 && p->element_bytes != 8)
        return gs_fail(err, GS_ERR_USAGE, "chase plan: element_bytes must be 4 or 8, not %u",
                       p->element_bytes);
    if (p->lanes > (unsigned)(m->info.warp_size > 0 ? m->info.warp_size : 32) || p->lanes > 32)
        return gs_fail(err, GS_ERR_USAGE, "chase plan: %u lanes exceed the warp", p->lanes);
    if (p->record_n == 0 && p->timed_accesses == 0)
        return gs_fail(err, GS_ERR_USAGE, "chase plan: neither record_n nor timed_accesses set");
    if (p->record_n > out->record_capacity)
        return gs_fail(err, GS_ERR_UNSUPPORTED, "chase plan: record_n %zu exceeds the trace "
                       "capacity of %zu entries (2 B each) in %llu B of shared memory per "
                       "block%s; record fewer accesses", p->record_n, out->record_capacity,
                       (unsigned long long)(p->smem_bytes ? p->smem_bytes : block_smem_bytes(m)),
                       p->space == GS_SPACE_SHARED ? " left beside the shared-memory chain" : "");
    if (p->record_n && !out->latency_cycles)
        return gs_fail(err, GS_ERR_USAGE, "chase plan: record_n set but no latency buffer");
    /* Device memory, as the CUDA backend would allocate it: the physical part of the footprint. */
    uint64_t physical = p->physical_bytes && p->physical_bytes < p->footprint_bytes
                            ? p->physical_bytes : p->footprint_bytes;
    if ((p->space == GS_SPACE_GLOBAL || p->space == GS_SPACE_TEXTURE) &&
        m->info.global_mem_free_bytes && physical > m->info.global_mem_free_bytes)
        return gs_fail(err, GS_ERR_NO_MEMORY, "chase plan: %llu B of device memory needed, %llu B "
                       "free on the simulated device; use a smaller array, or map less physical "
                       "memory at many places (--physical)", (unsigned long long)physical,
                       (unsigned long long)m->info.global_mem_free_bytes);
    /* element_bytes is 4 or 8: a mask, not a division; `last`: the last offset that fits */
    uint64_t misaligned = p->element_bytes - 1;
    bool none_fits = p->footprint_bytes && p->footprint_bytes < p->element_bytes;
    uint64_t last = p->footprint_bytes && !none_fits ? p->footprint_bytes - p->element_bytes
                                                     : UINT64_MAX;
    /* the whole chain's low bits and largest offset first (no test per element); the element
       to name only where one is wrong */
    uint64_t low = 0, top = 0;
    for (size_t i = 0; i < p->chain_len; i++) {
        low |= p->chain[i];
        top = p->chain[i] > top ? p->chain[i] : top;
    }
    if (!(low & misaligned) && !none_fits && top <= last)
        return 0;
    for (size_t i = 0; i < p->chain_len; i++)
        if ((p->chain[i] & misaligned) || none_fits || p->chain[i] > last)
            return gs_fail(err, GS_ERR_USAGE, "chase plan: chain[%zu] = %llu is not an aligned "
                           "offset inside the %llu B footprint", i,
                           (unsigned long long)p->chain[i], (unsigned long long)p->footprint_bytes);
    return 0;
}

/* ---- loaded latency ------------------------------------------------------------------------------ */

/* walkers > 1: each walker issues one access per latency, so demand = walkers / latency (Little's
 * law). Each level l serving a fraction f_l of accesses with a throughput limit cap_l (per SM
 * limits scale with the SMs in use) bounds the total to 1 / sum(f_l / cap_l). Returns the
 * accesses per ns achieved; *scale is loaded latency / unloaded latency (>= 1). */
static double queueing(const chase_ctx *cx, double unloaded_ns, uint64_t timed, double *scale)
{
    const sim_memory *mem = cx->mem;
    unsigned walkers = cx->plan->walkers > 1 ? cx->plan->walkers : 1;
    unsigned sms = cx->m->info.sm_count > 0 ? (unsigned)cx->m->info.sm_count : 1;
    double demand = unloaded_ns > 0 ? walkers / unloaded_ns : INFINITY;
    double inv_cap = 0;
    for (unsigned i = 0; i <= mem->n_caches && timed; i++) {
        double f = (double)cx->served[i] / (double)timed;
        double cap = i == mem->n_caches ? mem->dram_max_accesses_per_ns
                                        : mem->caches[i].max_accesses_per_ns;
        if (i < mem->n_caches && mem->caches[i].per_sm)
            cap *= walkers < sms ? walkers : sms;
        if (cap > 0)
            inv_cap += f / cap;
    }
    double rate = demand;
    if (inv_cap > 0 && 1.0 / inv_cap < demand)
        rate = 1.0 / inv_cap;
    *scale = isfinite(demand) && rate > 0 ? demand / rate : 1.0;
    return isfinite(rate) ? rate : 0;
}

/* ---- the chase --------------------------------------------------------------------------------- */

/* ---- repeated passes -------------------------------------------------------------------------- */

/* A walk passes the chain again and again. Where the path's state at the start of a pass (every
 * store, partial-sector list and open DRAM row on it) is the state at the start of a pass d
 * passes before, the walk from there on repeats those d passes, with the same cycles and serving
 * levels at each position: the rest of the walk replays their results in turn (the noise is
 * still drawn per access, in the same order) instead of running them again. Most walks repeat
 * after one pass; an HSLRU set of 4 ways walked by more lines than it holds comes back after 4 (a
 * fifth of sim:hopper's L1 walks, with half of their simulated accesses, ran whole before), so
 * the last REPEAT_PERIODS passes are kept. A path with a store whose policy draws from the generator never repeats (the draws would
 * be lost), nor does a walk whose lookups are counted (every lookup must be made to be counted).
 * Images are saved and compared at every pass where one costs less than about a pass of
 * accesses, else only while their bytes stay within a share of the walk's accesses, so that
 * a walk that never repeats is not slowed much. */
#define REPEAT_BYTES_PER_ACCESS 256  /* image bytes saved and compared per access of a pass */
#define REPEAT_PERIODS 8             /* the most passes a period may take */
#define REPEAT_KEEP_BYTES (32u << 20) /* at most this for the kept passes' images and results */

typedef struct repeat {
    unsigned periods;                /* passes kept (pass t's results in slot t % periods) */
    size_t image_bytes;
    unsigned char *images;           /* periods + 1 states at the start of a pass, pass t's in
                                        image t % (periods + 1): saved where it is compared */
    double *cycles;                  /* per slot and chain position: the request's cycles */
    unsigned char *level;            /* and the level that served it */
    uint64_t pass;                   /* pass starts met */
    unsigned kept;                   /* the last passes recorded whole, one after another */
    bool recording, repeating;
    size_t slot;                     /* the slot being recorded, or replayed */
    uint64_t first;                  /* repeating: the first pass of the period */
    unsigned period, played;         /* repeating: its passes, and which of them is replayed */
    uint64_t budget;                 /* image bytes still to save or compare (UINT64_MAX: any) */
} repeat;

/* Visit each part of the path's state: fn(store) for stores, raw (bytes) for the rest. */
typedef struct image_cursor {
    unsigned char *at;               /* NULL: only count bytes */
    size_t bytes;
    bool same;
    bool save;                       /* save (true) or compare (false) */
} image_cursor;

static void image_raw(image_cursor *ic, const void *p, size_t n)
{
    if (ic->at && ic->save)
        memcpy(ic->at + ic->bytes, p, n);
    else if (ic->at && ic->same)
        ic->same = !memcmp(ic->at + ic->bytes, p, n);
    ic->bytes += n;
}

static void image_store(image_cursor *ic, const sim_cache *c)
{
    size_t n = sim_cache_image_bytes(c);
    if (ic->at && ic->save)
        sim_cache_save(c, ic->at + ic->bytes);
    else if (ic->at && ic->same)
        ic->same = sim_cache_same(c, ic->at + ic->bytes);
    ic->bytes += n;
}

/* Walk the path's state with the cursor; false if a store on the path draws. */
static bool image_walk(const chase_ctx *cx, image_cursor *ic)
{
    const sim_memory *mem = cx->mem;
    bool deterministic = true;
    for (unsigned i = 0; i < mem->n_tlbs; i++)
        if (mem->tlbs[i].paths & cx->path_bit) {
            image_store(ic, &mem->tlbs[i].state);
            deterministic = deterministic && !sim_cache_draws(&mem->tlbs[i].state);
        }
    for (unsigned i = 0; i < mem->n_caches; i++) {
        const sim_level *lv = &mem->caches[i];
        if (!(lv->paths & cx->path_bit))
            continue;
        image_store(ic, &lv->state);
        deterministic = deterministic && !sim_cache_draws(&lv->state);
        if (lv->copy_geo.size_bytes) {
            image_store(ic, &lv->copy_state);
            deterministic = deterministic && !sim_cache_draws(&lv->copy_state);
        }
        image_raw(ic, &lv->n_partial, sizeof lv->n_partial);
        image_raw(ic, lv->partial_addr, sizeof lv->partial_addr);   /* whole: a fixed size */
        image_raw(ic, lv->partial_mask, sizeof lv->partial_mask);
    }
    if (mem->dram.row_bytes && mem->dram.open_row)
        image_raw(ic, mem->dram.open_row,
                  (size_t)mem->dram.channels * mem->dram.banks * sizeof *mem->dram.open_row);
    return deterministic;
}

/* Name to each store on the path the addresses a pass gives it (images cover their sets): the
 * lists are emptied, then every address of the pass is named, virtual ones to the TLBs and
 * physical ones to the cache levels and their copies (the stores on the path listed once).
 * 0 or -1 (out of memory). */
static int image_sets(const chase_ctx *cx)
{
    const sim_memory *mem = cx->mem;
    sim_cache *virt[SIM_MAX_LEVELS], *phys[2 * SIM_MAX_LEVELS];
    unsigned n_virt = 0, n_phys = 0;
    for (unsigned i = 0; i < mem->n_tlbs && n_virt < SIM_MAX_LEVELS; i++)
        if (mem->tlbs[i].paths & cx->path_bit)
            virt[n_virt++] = &mem->tlbs[i].state;
    for (unsigned i = 0; i < mem->n_caches && n_phys + 1 < 2 * SIM_MAX_LEVELS; i++) {
        sim_level *lv = &mem->caches[i];
        if (!(lv->paths & cx->path_bit))
            continue;
        phys[n_phys++] = &lv->state;
        if (lv->copy_geo.size_bytes)
            phys[n_phys++] = &lv->copy_state;
    }
    for (unsigned j = 0; j < n_virt; j++)
        if (sim_cache_image_begin(virt[j]))
            return -1;
    for (unsigned j = 0; j < n_phys; j++)
        if (sim_cache_image_begin(phys[j]))
            return -1;
    const uint64_t *chain = cx->plan->chain;
    uint64_t stride = cx->plan->lane_stride_bytes, alias = cx->alias_bytes;
    /* a TLB's block (the region of an entry) holds many of a walk's addresses in a row, and a
       set is a function of the block (no mapping reads a bit below it): one in the same block
       as the last one named names nothing new */
    uint64_t last_block[SIM_MAX_LEVELS];
    bool named = false;
    for (size_t k = 0; k < cx->plan->chain_len; k++) {
        uint64_t vaddr = cx->base + chain[k];
        for (unsigned lane = 0; lane < cx->lanes; lane++, vaddr += stride, named = true) {
            uint64_t paddr = alias ? vaddr % alias : vaddr;
            for (unsigned j = 0; j < n_virt; j++) {
                uint64_t block = sim_cache_block_of(virt[j], vaddr);
                if (named && block == last_block[j])
                    continue;
                last_block[j] = block;
                sim_cache_image_add_step(virt[j], vaddr);
            }
            for (unsigned j = 0; j < n_phys; j++)
                sim_cache_image_add_step(phys[j], paddr);
        }
    }
    return 0;
}

static void repeat_end(repeat *r);

/* Set up repeats for a walk of `total` accesses, if the path allows them and they pay. 0, or -1
 * (out of memory). */
static int repeat_begin(const chase_ctx *cx, uint64_t total, repeat *r)
{
    const gs_chase_plan *p = cx->plan;
    image_cursor ic = {0};
    *r = (repeat){0};
    if (p->space == GS_SPACE_SHARED || total < 2 * (uint64_t)p->chain_len || cx->count_lookups ||
        !image_walk(cx, &ic))
        return 0;
    if (image_sets(cx))
        return -1;
    ic = (image_cursor){0};
    image_walk(cx, &ic);
    uint64_t pass_accesses = (uint64_t)p->chain_len * cx->lanes;
    r->budget = ic.bytes <= pass_accesses * REPEAT_BYTES_PER_ACCESS
                    ? UINT64_MAX : total * cx->lanes * REPEAT_BYTES_PER_ACCESS / 4;
    if (r->budget < 4 * ic.bytes)
        return 0;
    /* as many passes as the walk holds, up to REPEAT_PERIODS and REPEAT_KEEP_BYTES (at least
       one, as the walk holds two) */
    uint64_t passes = total / p->chain_len, per_pass = ic.bytes + (uint64_t)p->chain_len * 9;
    unsigned periods = (unsigned)(passes - 1 < REPEAT_PERIODS ? passes - 1 : REPEAT_PERIODS);
    while (periods > 1 && periods * per_pass > REPEAT_KEEP_BYTES)
        periods--;
    r->periods = periods;
    r->image_bytes = ic.bytes;
    r->images = malloc((periods + 1) * ic.bytes + 1);
    r->cycles = malloc(periods * p->chain_len * sizeof *r->cycles);
    r->level = malloc(periods * p->chain_len);
    if (r->images && r->cycles && r->level)
        return 0;
    repeat_end(r);
    return -1;
}

/* Free what repeats kept: the walk runs every access from here on. */
static void repeat_end(repeat *r)
{
    free(r->images);
    free(r->cycles);
    free(r->level);
    r->images = r->level = NULL;
    r->cycles = NULL;
    r->recording = r->repeating = false;
}

/* Take one image operation (a save or a compare) from the budget; false when it is spent. */
static bool repeat_afford(repeat *r)
{
    if (r->budget == UINT64_MAX)
        return true;
    if (r->budget < r->image_bytes)
        return false;
    r->budget -= r->image_bytes;
    return true;
}

/* At the start of a pass (chain position 0) with `left` accesses to go. Repeating: the next pass
 * of the period is replayed. Else the state is compared with the kept passes' starts, the latest
 * first: where one is the same, the passes from it on are replayed from here; else this pass is
 * kept, if another pass follows it. */
static void repeat_at_start(const chase_ctx *cx, repeat *r, uint64_t left)
{
    size_t len = cx->plan->chain_len;
    if (!r->images)
        return;
    if (r->repeating) {
        r->played = r->played + 1 < r->period ? r->played + 1 : 0;
        r->slot = (size_t)((r->first + r->played) % r->periods);
        return;
    }
    r->kept = r->recording ? (r->kept < r->periods ? r->kept + 1 : r->periods) : 0;
    if (!repeat_afford(r) || !repeat_afford(r)) {   /* a save, and compares that mostly end early */
        repeat_end(r);
        return;
    }
    unsigned char *now = r->images + (size_t)(r->pass % (r->periods + 1)) * r->image_bytes;
    image_cursor ic = {.at = now, .save = true};
    image_walk(cx, &ic);
    for (unsigned d = 1; d <= r->kept; d++) {
        size_t s = (size_t)((r->pass - d) % r->periods);
        if (!memcmp(r->images + (size_t)((r->pass - d) % (r->periods + 1)) * r->image_bytes, now,
                    r->image_bytes)) {
            r->repeating = true;
            r->recording = false;
            r->first = r->pass - d;
            r->period = d;
            r->played = 0;
            r->slot = s;
            return;
        }
    }
    r->recording = left > len;
    r->slot = (size_t)(r->pass % r->periods);
    r->pass++;
}

/* ---- untimed accesses no timed one sees ------------------------------------------------------- */

/* A long untimed walk before a few timed accesses (one warm-up pass over a large array): the
 * last cache level on the path need not take the untimed accesses to sets that no timed access
 * reaches, as nothing the timed accesses see depends on them, when an access there changes its
 * own set alone (sim_cache_sets_coupled), and nothing past the level keeps state (no DRAM row
 * buffer) or depends on its outcome (no copies of far lines), and no lookup is counted. Untimed
 * cycles are dropped anyway. A split warm-up takes the skip too: it holds whatever the order of
 * the untimed accesses.
 * The timed accesses are walks from position 0 (at most the first `timed` positions). */
#define UNSEEN_MIN_RATIO 4   /* untimed accesses per timed position for the skip to pay */

static int unseen_begin(chase_ctx *cx, uint64_t warm, uint64_t timed)
{
    const gs_chase_plan *p = cx->plan;
    const sim_memory *mem = cx->mem;
    cx->unseen_level = -1;
    uint64_t positions = timed < p->chain_len ? timed : p->chain_len;
    if (p->space == GS_SPACE_SHARED || cx->count_lookups || warm < UNSEEN_MIN_RATIO * positions ||
        positions * UNSEEN_MIN_RATIO > p->chain_len || (mem->dram.row_bytes && mem->dram.open_row))
        return 0;
    int last = -1;
    for (unsigned i = 0; i < mem->n_caches; i++)
        if (mem->caches[i].paths & cx->path_bit)
            last = (int)i;
    if (last < 0)
        return 0;
    sim_level *lv = &mem->caches[last];
    if (lv->copy_geo.size_bytes || sim_cache_sets_coupled(&lv->state))
        return 0;
    if (sim_cache_image_begin(&lv->state))
        return -1;
    for (uint64_t k = 0; k < positions; k++)
        for (unsigned lane = 0; lane < cx->lanes; lane++) {
            uint64_t vaddr = cx->base + p->chain[k] + lane * p->lane_stride_bytes;
            sim_cache_image_add_step(&lv->state,
                                     cx->alias_bytes ? vaddr % cx->alias_bytes : vaddr);
        }
    cx->unseen_level = last;
    return 0;
}

/* ---- the walk ---------------------------------------------------------------------------------- */

/* lround(c) for c in 0 .. 4e9 without the call (a timed access rounds its cycles): c less its
 * whole part is exact, so halves round up as lround's do; anything else (NaN) goes to lround. */
static inline uint32_t round_cycles(double c)
{
    if (!(c >= 0 && c <= 4e9))
        return (uint32_t)lround(c);
    double whole = (double)(uint64_t)c;
    return (uint32_t)whole + (c - whole >= 0.5);
}

/* One timed access of a walk (the t-th), whose request took `request` cycles and was served by
 * `level`: counted, given its noise (drawn from rng), recorded; returns what it adds to the
 * sum. */
HOT double timed_access_from(chase_ctx *cx, gs_rng *rng, gs_chase_result *out, uint64_t t,
                             double request, unsigned level)
{
    const gs_chase_plan *p = cx->plan;
    cx->served[level]++;
    double cycles = request + gs_sim_noise_from(cx->m, rng);
    if (cycles < 0)
        cycles = 0;
    if (!p->record_n)
        return cycles;
    out->latency_cycles[t] = cycles > 4e9 ? 4000000000u : round_cycles(cycles);
    return (double)out->latency_cycles[t];
}

static inline double timed_access(chase_ctx *cx, gs_chase_result *out, uint64_t t, double request,
                                  unsigned level)
{
    return timed_access_from(cx, &cx->m->rng, out, t, request, level);
}

/* A replayed stretch of `run` timed accesses from the t-th, their requests' cycles and levels
 * given: each as timed_access, in order, with the model's generator in a local copy meanwhile
 * (put back after: the same draws in the same order). Returns sum with theirs added. */
static double timed_run(chase_ctx *cx, gs_chase_result *out, uint64_t t, const double *cycles,
                        const unsigned char *level, uint64_t run, double sum)
{
    const gs_sim_model *m = cx->m;
    gs_rng rng = m->rng;
    if (cx->plan->record_n || !(m->noise_cycles > 0) || m->noise_outlier_rate > 0) {
        for (uint64_t j = 0; j < run; j++)
            sum += timed_access_from(cx, &rng, out, t + j, cycles[j], level[j]);
    } else {
        /* most walks: averaged, with a few cycles of noise and no outliers; the noise is the
           draw itself (gs_sim_noise_from: 0 + a whole number of cycles, to the bit) */
        uint64_t bound = (uint64_t)m->noise_cycles + 1;
        for (uint64_t j = 0; j < run; j++) {
            cx->served[level[j]]++;
            double access = cycles[j] + (double)gs_rng_below(&rng, bound);
            sum += access < 0 ? 0 : access;
        }
    }
    cx->m->rng = rng;
    return sum;
}

/* `warm` accesses that end where the timed ones begin (position 0; whole passes when warm is a
 * multiple of the chain's length), not timed, then the timed ones: record_n latencies recorded,
 * or timed_accesses averaged. *avg: the mean cycles of the timed accesses. 0 or -1 (out of
 * host memory). A replayed stretch (repeating, up to the end of the pass, or of the warm-up)
 * is run at once: its warm accesses leave nothing to do, its timed ones draw their noise in
 * order, as one by one. */
static int walk(chase_ctx *cx, uint64_t warm, gs_chase_result *out, double *avg)
{
    const gs_chase_plan *p = cx->plan;
    uint64_t n = p->record_n ? p->record_n : p->timed_accesses, total = warm + n;
    size_t len = p->chain_len;
    size_t k = (size_t)((len - warm % len) % len);
    size_t ahead = (k + PREFETCH_AHEAD) % len;
    bool prefetch = cx->n_large && p->space != GS_SPACE_SHARED;
    repeat r;
    if (repeat_begin(cx, total, &r) || (!r.images && unseen_begin(cx, warm, n)))
        return -1;
    double sum = 0;
    for (uint64_t i = 0; i < total;) {
        if (!r.images && i < warm) {    /* no pass recorded or replayed: the warm-up in a row */
            for (; prefetch && i < warm; i++) {
                prefetch_request(cx, p->chain[ahead], ring_slot(i));
                warm_request(cx, p->chain[k], ring_slot_of_request(i));
                ahead = next_position(ahead, len);
                k = next_position(k, len);
            }
            for (; i < warm; i++) {
                warm_request(cx, p->chain[k], NO_SLOT);
                k = next_position(k, len);
            }
            continue;
        }
        if (i == warm)
            cx->unseen_level = -1;
        if (k == 0)
            repeat_at_start(cx, &r, total - i);
        if (r.repeating) {
            uint64_t run = len - k;
            if (run > total - i)
                run = total - i;
            if (i < warm && run > warm - i)
                run = warm - i;
            const double *cycles = r.cycles + r.slot * len + k;
            const unsigned char *level = r.level + r.slot * len + k;
            if (i >= warm)
                sum = timed_run(cx, out, i - warm, cycles, level, run, sum);
            i += run;
            k += (size_t)run;
            k = k == len ? 0 : k;
            ahead = (size_t)((ahead + run) % len);
            continue;
        }
        unsigned level;
        if (prefetch)
            prefetch_request(cx, p->chain[ahead], ring_slot(i));
        if (i < warm && !r.recording) {     /* nothing of it is wanted but its state */
            warm_request(cx, p->chain[k], prefetch ? ring_slot_of_request(i) : NO_SLOT);
            ahead = next_position(ahead, len);
            k = next_position(k, len);
            i++;
            continue;
        }
        double request = access_request(cx, p->chain[k], prefetch ? ring_slot_of_request(i)
                                                                  : NO_SLOT, &level);
        if (r.recording) {
            r.cycles[r.slot * len + k] = request;
            r.level[r.slot * len + k] = (unsigned char)level;
        }
        ahead = next_position(ahead, len);
        k = next_position(k, len);
        if (i >= warm)
            sum += timed_access(cx, out, i - warm, request, level);
        i++;
    }
    repeat_end(&r);
    *avg = sum / (double)n;
    return 0;
}

int sim_chase_begin(chase_ctx *cx, gs_sim_model *m, const gs_chase_plan *plan,
                    gs_chase_result *out, gs_error *err)
{
    if (!m->memory)
        return gs_fail(err, GS_ERR_UNSUPPORTED, "model '%s' has no \"memory\" section: it cannot "
                       "run chase plans", m->name);
    out->recorded = 0;
    *cx = (chase_ctx){.m = m, .mem = m->memory, .plan = plan, .unseen_level = -1};
    if (plan->on_sm && (plan->walkers > 1 || plan->sm >= (unsigned)m->info.sm_count))
        return gs_fail(err, GS_ERR_USAGE, "chase: on_sm takes one walker on an SM below %d "
                       "(walkers %u, sm %u)", m->info.sm_count, plan->walkers, plan->sm);
    cx->sm = plan->on_sm ? plan->sm : 0;
    if (plan->walkers <= 1)
        out->sm_id = (int)cx->sm;
    take_path(cx, sim_effective_path(plan));
    cx->lanes = plan->lanes > 1 ? plan->lanes : 1;
    if (plan->physical_bytes && plan->physical_bytes < plan->footprint_bytes)
        cx->alias_bytes = plan->physical_bytes;
    /* where offset 0 lies: the model's placement of a device buffer (memory.chase_base_bytes),
       moved up to the alignment the plan asks for; aliased walks keep the mapping's own base */
    if (!cx->alias_bytes && (plan->space == GS_SPACE_GLOBAL || plan->space == GS_SPACE_TEXTURE)) {
        uint64_t a = plan->base_align_bytes;
        cx->base = m->memory->chase_base_bytes;
        if (a > 1)
            cx->base = (cx->base + a - 1) / a * a;
    }
    int rc = trace_capacity(m, plan, out, err);
    if (!rc)
        rc = check_plan(m, plan, out, err);
    if (!rc)
        rc = check_path(cx, err);
    if (!rc)
        rc = prepare(cx, err);
    return rc;
}

int sim_chase(gs_sim_model *m, const gs_chase_plan *plan, gs_chase_result *out, gs_error *err)
{
    chase_ctx cx;
    int rc = sim_chase_begin(&cx, m, plan, out, err);
    if (rc)
        return rc;
    uint64_t warm = plan->warmup_accesses ? plan->warmup_accesses
                                           : (uint64_t)plan->warmup_passes * plan->chain_len;
    /* a windowed warm-up (gs_chase_window_of) visits the pass's positions in order, lane after
       lane within a step: the serial warm-up itself, walked below */
    gs_chase_split split;
    if (gs_chase_split_of(plan, &split)) {
        /* the timed walk starts at position 0 with no warm-up of its own; the split warm-up
           ends no walk, so it skips unseen sets as a serial one would, and never repeats */
        if (unseen_begin(&cx, warm, plan->timed_accesses))
            return gs_fail(err, GS_ERR_NO_MEMORY, "chase: out of host memory");
        warm_split(&cx, &split);
        cx.unseen_level = -1;
        warm = 0;
    }
    double avg;
    rc = walk(&cx, warm, out, &avg);
    if (rc)
        return gs_fail(err, GS_ERR_NO_MEMORY, "chase: out of host memory");
    uint64_t timed = plan->record_n ? plan->record_n : plan->timed_accesses;
    double clock_khz = m->info.sm_clock_khz;
    double scale = 1.0;
    if (plan->walkers > 1)
        out->accesses_per_ns = queueing(&cx, avg * 1e6 / clock_khz, timed, &scale);
    else
        out->accesses_per_ns = avg > 0 ? clock_khz / (avg * 1e6) : 0;
    if (scale > 1.0) {
        for (size_t i = 0; i < plan->record_n; i++) {
            double cycles = out->latency_cycles[i] * scale;
            out->latency_cycles[i] = cycles > 4e9 ? 4000000000u : (uint32_t)lround(cycles);
        }
        avg *= scale;
    }
    out->recorded = plan->record_n;
    out->avg_cycles = avg;
    out->avg_ns = avg * 1e6 / clock_khz;
    return 0;
}

/* ---- loads one by one (the persist operation) ----------------------------------------------------- */

sim_loads *sim_loads_begin(gs_sim_model *m, gs_load_path path, gs_error *err)
{
    if (!m->memory) {
        gs_fail(err, GS_ERR_UNSUPPORTED, "model '%s' has no \"memory\" section", m->name);
        return NULL;
    }
    chase_ctx *cx = calloc(1, sizeof *cx);
    if (!cx) {
        gs_fail(err, GS_ERR_NO_MEMORY, "out of host memory");
        return NULL;
    }
    cx->m = m;
    cx->mem = m->memory;
    cx->unseen_level = -1;
    cx->own_plan = (gs_chase_plan){.space = GS_SPACE_GLOBAL, .path = path, .element_bytes = 8,
                                   .carveout_percent = -1, .lanes = 1};
    cx->plan = &cx->own_plan;
    take_path(cx, path);
    cx->lanes = 1;
    if (check_path(cx, err) || prepare(cx, err)) {
        free(cx);
        return NULL;
    }
    return cx;
}

double sim_loads_load(sim_loads *l, uint64_t addr, bool persisting, unsigned *served)
{
    l->persisting = persisting;
    return access_lane(l, addr, SIM_SET_UNKNOWN, served, true);
}

void sim_loads_end(sim_loads *l)
{
    free(l);
}
