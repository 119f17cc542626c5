/* One set-associative store (cache.h): geometry checks, set mapping, lookup, fill and the
 * replacement policies. Used for every cache level and TLB level of the simulator's memory model. */
#include "sim/cache.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool is_pow2(uint64_t x)
{
    return x && !(x & (x - 1));
}

static unsigned log2_u64(uint64_t x)
{
    unsigned n = 0;
    while (x > 1) {
        x >>= 1;
        n++;
    }
    return n;
}

/* ---- geometry checks ------------------------------------------------------------------------- */

static int check_capacity(const sim_geometry *g, char *msg, size_t len)
{
    uint64_t ways_sum = 0;
    bool equal = true;
    for (unsigned s = 0; s < g->sets; s++) {
        if (g->ways_per_set[s] == 0)
            return snprintf(msg, len, "set %u has 0 ways", s), -1;
        ways_sum += g->ways_per_set[s];
        equal = equal && g->ways_per_set[s] == g->ways_per_set[0];
    }
    if (ways_sum > SIM_MAX_LINES)
        return snprintf(msg, len, "%llu lines are more than the simulator holds (%u)",
                        (unsigned long long)ways_sum, SIM_MAX_LINES), -1;
    if (ways_sum * g->block_bytes == g->size_bytes)
        return 0;
    if (equal)
        snprintf(msg, len, "%u sets x %u ways x %llu B = %llu B, but size is %llu B", g->sets,
                 g->ways_per_set[0], (unsigned long long)g->block_bytes,
                 (unsigned long long)(ways_sum * g->block_bytes),
                 (unsigned long long)g->size_bytes);
    else
        snprintf(msg, len, "sum of ways_per_set (%llu) x %llu B = %llu B, but size is %llu B",
                 (unsigned long long)ways_sum, (unsigned long long)g->block_bytes,
                 (unsigned long long)(ways_sum * g->block_bytes),
                 (unsigned long long)g->size_bytes);
    return -1;
}

static int check_mapping(const sim_geometry *g, char *msg, size_t len)
{
    const sim_mapping *map = &g->mapping;
    if (map->kind == SIM_MAP_MODULO)
        return 0;
    if (!is_pow2(g->block_bytes))
        return snprintf(msg, len, "a bit mapping needs a power-of-two block (%llu B)",
                        (unsigned long long)g->block_bytes), -1;
    if (map->nbits > 31 || (1ull << map->nbits) != g->sets)
        return snprintf(msg, len, "%u index bits give %llu sets, but sets is %u", map->nbits,
                        map->nbits > 31 ? 0ull : 1ull << map->nbits, g->sets), -1;
    uint64_t seen = 0;
    for (unsigned i = 0; i < map->nbits; i++) {
        uint64_t mask = map->group_mask[i];
        if (mask == 0)
            return snprintf(msg, len, "index bit %u uses no address bit", i), -1;
        if (mask & (g->block_bytes - 1))
            return snprintf(msg, len, "index bit %u uses an address bit below the block offset "
                            "(block %llu B = bits 0..%u)", i, (unsigned long long)g->block_bytes,
                            log2_u64(g->block_bytes) - 1), -1;
        if (map->kind == SIM_MAP_BITS && (mask & seen))
            return snprintf(msg, len, "address bit %u is listed twice", log2_u64(mask)), -1;
        seen |= mask;
    }
    return 0;
}

static int check_policy(const sim_geometry *g, char *msg, size_t len)
{
    if (g->policy == SIM_POLICY_PLRU) {
        for (unsigned s = 0; s < g->sets; s++)
            if (!is_pow2(g->ways_per_set[s]) || g->ways_per_set[s] > SIM_MAX_PLRU_WAYS)
                return snprintf(msg, len, "plru needs a power-of-two number of ways (at most %d); "
                                "set %u has %u", SIM_MAX_PLRU_WAYS, s, g->ways_per_set[s]), -1;
    }
    if (g->policy != SIM_POLICY_WEIGHTED)
        return 0;
    for (unsigned s = 1; s < g->sets; s++)
        if (g->ways_per_set[s] != g->ways_per_set[0])
            return snprintf(msg, len, "weighted policy needs equal sets"), -1;
    if (!g->way_probabilities)
        return snprintf(msg, len, "weighted policy needs way_probabilities"), -1;
    double sum = 0;
    for (unsigned w = 0; w < g->ways_per_set[0]; w++) {
        if (!(g->way_probabilities[w] >= 0))
            return snprintf(msg, len, "way %u has a negative probability", w), -1;
        sum += g->way_probabilities[w];
    }
    if (fabs(sum - 1.0) > 1e-6)
        return snprintf(msg, len, "way probabilities sum to %.6g, not 1", sum), -1;
    return 0;
}

int sim_geometry_check(const sim_geometry *g, const char **key, char *msg, size_t len)
{
    *key = g->block_bytes == 0 ? "line_bytes" : g->sector_bytes == 0 ? "sector_bytes" : "sets";
    if (g->block_bytes == 0 || g->sector_bytes == 0 || g->sets == 0 || !g->ways_per_set)
        return snprintf(msg, len, "must be > 0"), -1;
    *key = "sector_bytes";
    if (g->block_bytes % g->sector_bytes || g->block_bytes / g->sector_bytes > SIM_MAX_SECTORS)
        return snprintf(msg, len, "sector %llu B must divide the line %llu B into at most %d sectors",
                        (unsigned long long)g->sector_bytes, (unsigned long long)g->block_bytes,
                        SIM_MAX_SECTORS), -1;
    *key = "size_bytes";
    if (check_capacity(g, msg, len))
        return -1;
    *key = "mapping";
    if (check_mapping(g, msg, len))
        return -1;
    *key = g->policy == SIM_POLICY_WEIGHTED && g->way_probabilities ? "way_probabilities"
                                                                     : "policy";
    return check_policy(g, msg, len);
}

void sim_geometry_free(sim_geometry *g)
{
    free(g->ways_per_set);
    free(g->way_probabilities);
    g->ways_per_set = NULL;
    g->way_probabilities = NULL;
}

/* ---- building the store ---------------------------------------------------------------------- */

/* MODULO with unequal sets: deal the slots (block mod total ways) round-robin to the sets that
 * still have ways left, so that consecutive blocks go to consecutive sets and the whole capacity
 * is reachable by consecutive blocks (the L2 TLB of section 4.2: 17 + 6 x 8 entries). */
static int deal_slots(sim_cache *c)
{
    const sim_geometry *g = c->geo;
    unsigned *left = malloc(g->sets * sizeof *left);
    c->slot_set = malloc((size_t)c->total_ways * sizeof *c->slot_set);
    if (!left || !c->slot_set) {
        free(left);
        return -1;
    }
    memcpy(left, g->ways_per_set, g->sets * sizeof *left);
    unsigned dealt = 0;
    while (dealt < c->total_ways)
        for (unsigned s = 0; s < g->sets; s++)
            if (left[s]) {
                left[s]--;
                c->slot_set[dealt++] = s;
            }
    free(left);
    return 0;
}

static bool sets_equal(const sim_geometry *g)
{
    for (unsigned s = 1; s < g->sets; s++)
        if (g->ways_per_set[s] != g->ways_per_set[0])
            return false;
    return true;
}

int sim_cache_init(sim_cache *c, const sim_geometry *g)
{
    memset(c, 0, sizeof *c);
    c->geo = g;
    c->set_base = malloc(g->sets * sizeof *c->set_base);
    if (!c->set_base)
        return -1;
    for (unsigned s = 0; s < g->sets; s++) {
        c->set_base[s] = c->total_ways;
        c->total_ways += g->ways_per_set[s];
        if (g->ways_per_set[s] > c->max_ways)
            c->max_ways = g->ways_per_set[s];
    }
    c->slots = calloc(c->total_ways, sizeof *c->slots);
    c->plru = calloc(g->sets, sizeof *c->plru);
    if (!c->slots || !c->plru)
        return sim_cache_free(c), -1;
    if (g->mapping.kind == SIM_MAP_MODULO && !sets_equal(g) && deal_slots(c))
        return sim_cache_free(c), -1;
    if (g->policy == SIM_POLICY_WEIGHTED) {
        c->cumulative = malloc(c->max_ways * sizeof *c->cumulative);
        if (!c->cumulative)
            return sim_cache_free(c), -1;
        double sum = 0;
        for (unsigned w = 0; w < c->max_ways; w++)
            c->cumulative[w] = (sum += g->way_probabilities[w]);
    }
    return 0;
}

void sim_cache_reset(sim_cache *c)
{
    memset(c->slots, 0, c->total_ways * sizeof *c->slots);
    memset(c->plru, 0, c->geo->sets * sizeof *c->plru);
    c->clock = 0;
}

void sim_cache_free(sim_cache *c)
{
    free(c->set_base);
    free(c->slot_set);
    free(c->slots);
    free(c->plru);
    free(c->cumulative);
    memset(c, 0, sizeof *c);
}

/* ---- mapping ----------------------------------------------------------------------------------- */

unsigned sim_cache_set_of(const sim_cache *c, uint64_t addr)
{
    const sim_geometry *g = c->geo;
    const sim_mapping *map = &g->mapping;
    if (map->kind == SIM_MAP_MODULO) {
        uint64_t blk = addr / g->block_bytes;
        if (c->slot_set)
            return c->slot_set[blk % c->total_ways];
        return (unsigned)(blk % g->sets);
    }
    unsigned set = 0;
    for (unsigned i = 0; i < map->nbits; i++)
        set |= (unsigned)__builtin_parityll(addr & map->group_mask[i]) << i;
    return set;
}

/* ---- replacement ------------------------------------------------------------------------------- */

/* Tree-PLRU: on a use of way w, point every node on w's path away from w. Node n's children are
 * 2n+1 (left, lower ways) and 2n+2; bit set = the next victim is on the right. */
static void plru_touch(uint64_t *tree, unsigned ways, unsigned w)
{
    unsigned node = 0, lo = 0, hi = ways;
    while (hi - lo > 1) {
        unsigned mid = (lo + hi) / 2;
        if (w < mid) {
            *tree |= 1ull << node;
            node = 2 * node + 1;
            hi = mid;
        } else {
            *tree &= ~(1ull << node);
            node = 2 * node + 2;
            lo = mid;
        }
    }
}

static unsigned plru_victim(uint64_t tree, unsigned ways)
{
    unsigned node = 0, lo = 0, hi = ways;
    while (hi - lo > 1) {
        unsigned mid = (lo + hi) / 2;
        if (tree & (1ull << node)) {
            node = 2 * node + 2;
            lo = mid;
        } else {
            node = 2 * node + 1;
            hi = mid;
        }
    }
    return lo;
}

/* SRRIP: the lowest way whose re-reference value is 3 (distant), ageing every way until one is. */
static unsigned srrip_victim(sim_slot *slot, unsigned ways)
{
    for (;;) {
        for (unsigned w = 0; w < ways; w++)
            if (slot[w].stamp >= 3)
                return w;
        for (unsigned w = 0; w < ways; w++)
            slot[w].stamp++;
    }
}

/* Victim of a full set for the policies that do not keep stamps (LRU and FIFO take the oldest
 * stamp, found during the lookup's scan). */
static unsigned victim_way(sim_cache *c, unsigned set, unsigned ways, gs_rng *rng)
{
    switch (c->geo->policy) {
    case SIM_POLICY_RANDOM:
        return (unsigned)gs_rng_below(rng, ways);
    case SIM_POLICY_PLRU:
        return plru_victim(c->plru[set], ways);
    case SIM_POLICY_SRRIP:
        return srrip_victim(c->slots + c->set_base[set], ways);
    case SIM_POLICY_WEIGHTED:
    default: {
        double u = gs_rng_unit(rng);
        for (unsigned w = 0; w + 1 < ways; w++)
            if (u < c->cumulative[w])
                return w;
        return ways - 1;
    }
    }
}

static void touch(sim_cache *c, unsigned set, unsigned ways, unsigned w, bool filled)
{
    sim_policy p = c->geo->policy;
    if (p == SIM_POLICY_LRU || (p == SIM_POLICY_FIFO && filled))
        c->slots[c->set_base[set] + w].stamp = c->clock;
    else if (p == SIM_POLICY_PLRU)
        plru_touch(&c->plru[set], ways, w);
    else if (p == SIM_POLICY_SRRIP)
        c->slots[c->set_base[set] + w].stamp = filled ? 2 : 0;   /* long re-reference on fill */
}

/* ---- access ------------------------------------------------------------------------------------ */

/* Hit: mark the sector (when filling) and refresh the way for the policy. */
static sim_outcome hit_way(sim_cache *c, unsigned set, unsigned ways, unsigned w, uint32_t bit,
                           bool fill)
{
    sim_slot *slot = &c->slots[c->set_base[set] + w];
    touch(c, set, ways, w, false);
    if (slot->valid & bit)
        return SIM_HIT;
    if (fill)
        slot->valid |= bit;
    return SIM_SECTOR_MISS;
}

/* One pass over the set finds the block, the first empty way and the oldest stamp together. */
sim_outcome sim_cache_access(sim_cache *c, uint64_t addr, bool fill, gs_rng *rng, int *way_out)
{
    const sim_geometry *g = c->geo;
    unsigned set = sim_cache_set_of(c, addr);
    unsigned ways = g->ways_per_set[set];
    sim_slot *slot = c->slots + c->set_base[set];
    uint64_t blk = addr / g->block_bytes;
    uint32_t bit = 1u << ((addr % g->block_bytes) / g->sector_bytes);
    int empty = -1;
    unsigned oldest = 0;
    uint64_t oldest_stamp = UINT64_MAX;
    c->clock++;
    for (unsigned w = 0; w < ways; w++) {
        if (!slot[w].valid) {
            if (empty < 0)
                empty = (int)w;
            continue;
        }
        if (slot[w].block == blk) {
            if (way_out)
                *way_out = (int)w;
            return hit_way(c, set, ways, w, bit, fill);
        }
        if (slot[w].stamp < oldest_stamp) {
            oldest_stamp = slot[w].stamp;
            oldest = w;
        }
    }
    if (way_out)
        *way_out = -1;
    if (!fill)
        return SIM_MISS;
    unsigned w = empty >= 0 ? (unsigned)empty
               : g->policy == SIM_POLICY_LRU || g->policy == SIM_POLICY_FIFO
                   ? oldest : victim_way(c, set, ways, rng);
    slot[w].block = blk;
    slot[w].valid = bit;
    touch(c, set, ways, w, true);
    if (way_out)
        *way_out = (int)w;
    return SIM_MISS;
}

bool sim_cache_probe(const sim_cache *c, uint64_t addr)
{
    const sim_geometry *g = c->geo;
    unsigned set = sim_cache_set_of(c, addr);
    const sim_slot *slot = c->slots + c->set_base[set];
    uint64_t blk = addr / g->block_bytes;
    uint32_t bit = 1u << ((addr % g->block_bytes) / g->sector_bytes);
    for (unsigned w = 0; w < g->ways_per_set[set]; w++)
        if ((slot[w].valid & bit) && slot[w].block == blk)
            return true;
    return false;
}
