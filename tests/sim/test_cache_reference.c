/* Tests of the simulator's set-associative store (src/sim/cache.c) against a reference store
 * written the plain way (every way of the set scanned, LRU and FIFO by stamps, the lowest empty
 * way filled first, victims drawn from the same rng): long random access sequences, with resets
 * and lookups that do not fill, must give the same outcome and the same way at every access, for
 * every policy, for sets scanned (<= SIM_SCAN_MAX_WAYS ways) and indexed (more), equal and
 * unequal, sectored or not. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "sim/cache.h"

typedef struct ref_slot {
    uint64_t block, stamp;
    uint32_t valid;
} ref_slot;

typedef struct ref_store {
    const sim_geometry *g;
    ref_slot *slots;
    unsigned *base;
    uint64_t *plru;
    uint64_t clock;
} ref_store;

static void ref_init(ref_store *r, const sim_geometry *g)
{
    unsigned total = 0;
    r->g = g;
    r->base = malloc(g->sets * sizeof *r->base);
    r->plru = calloc(g->sets, sizeof *r->plru);
    assert_non_null(r->base);
    assert_non_null(r->plru);
    for (unsigned s = 0; s < g->sets; s++) {
        r->base[s] = total;
        total += g->ways_per_set[s];
    }
    r->slots = calloc(total, sizeof *r->slots);
    assert_non_null(r->slots);
    r->clock = 0;
}

static void ref_free(ref_store *r)
{
    free(r->slots);
    free(r->base);
    free(r->plru);
}

static void ref_plru_touch(uint64_t *tree, unsigned ways, unsigned w)
{
    unsigned node = 0, lo = 0, hi = ways;
    while (hi - lo > 1) {
        unsigned mid = (lo + hi) / 2;
        if (w < mid)
            *tree |= 1ull << node, node = 2 * node + 1, hi = mid;
        else
            *tree &= ~(1ull << node), node = 2 * node + 2, lo = mid;
    }
}

static unsigned ref_plru_victim(uint64_t tree, unsigned ways)
{
    unsigned node = 0, lo = 0, hi = ways;
    while (hi - lo > 1) {
        unsigned mid = (lo + hi) / 2;
        if (tree & (1ull << node))
            node = 2 * node + 2, lo = mid;
        else
            node = 2 * node + 1, hi = mid;
    }
    return lo;
}

static unsigned ref_victim(ref_store *r, unsigned set, unsigned ways, unsigned oldest,
                           gs_rng *rng)
{
    switch (r->g->policy) {
    case SIM_POLICY_LRU:
    case SIM_POLICY_FIFO:
        return oldest;
    case SIM_POLICY_RANDOM:
        return (unsigned)gs_rng_below(rng, ways);
    case SIM_POLICY_PLRU:
        return ref_plru_victim(r->plru[set], ways);
    default: {
        double u = gs_rng_unit(rng), sum = 0;
        for (unsigned w = 0; w + 1 < ways; w++)
            if (u < (sum += r->g->way_probabilities[w]))
                return w;
        return ways - 1;
    }
    }
}

static void ref_touch(ref_store *r, unsigned set, unsigned w, bool filled)
{
    sim_policy p = r->g->policy;
    if (p == SIM_POLICY_LRU || (p == SIM_POLICY_FIFO && filled))
        r->slots[r->base[set] + w].stamp = r->clock;
    else if (p == SIM_POLICY_PLRU)
        ref_plru_touch(&r->plru[set], r->g->ways_per_set[set], w);
}

static sim_outcome ref_access(ref_store *r, unsigned set, uint64_t addr, bool fill, gs_rng *rng,
                              int *way)
{
    const sim_geometry *g = r->g;
    unsigned ways = g->ways_per_set[set], oldest = 0;
    ref_slot *slot = r->slots + r->base[set];
    uint64_t blk = addr / g->block_bytes, oldest_stamp = UINT64_MAX;
    uint32_t bit = 1u << (addr % g->block_bytes / g->sector_bytes);
    int empty = -1;
    r->clock++;
    for (unsigned w = 0; w < ways; w++) {
        if (!slot[w].valid) {
            empty = empty < 0 ? (int)w : empty;
        } else if (slot[w].block == blk) {
            *way = (int)w;
            ref_touch(r, set, w, false);
            if (slot[w].valid & bit)
                return SIM_HIT;
            slot[w].valid |= fill ? bit : 0;
            return SIM_SECTOR_MISS;
        } else if (slot[w].stamp < oldest_stamp) {
            oldest_stamp = slot[w].stamp;
            oldest = w;
        }
    }
    *way = -1;
    if (!fill)
        return SIM_MISS;
    unsigned w = empty >= 0 ? (unsigned)empty : ref_victim(r, set, ways, oldest, rng);
    slot[w].block = blk;
    slot[w].valid = bit;
    ref_touch(r, set, w, true);
    *way = (int)w;
    return SIM_MISS;
}

static void ref_reset(ref_store *r)
{
    unsigned total = r->base[r->g->sets - 1] + r->g->ways_per_set[r->g->sets - 1];
    memset(r->slots, 0, total * sizeof *r->slots);
    memset(r->plru, 0, r->g->sets * sizeof *r->plru);
    r->clock = 0;
}

/* A geometry of the given ways per set (sets = n), blocks of block_bytes split in `sectors`. */
static sim_geometry geometry(const unsigned *ways, unsigned n, uint64_t block_bytes,
                             unsigned sectors, sim_policy policy)
{
    sim_geometry g = {0};
    g.sets = n;
    g.block_bytes = block_bytes;
    g.sector_bytes = block_bytes / sectors;
    g.ways_per_set = malloc(n * sizeof *g.ways_per_set);
    assert_non_null(g.ways_per_set);
    for (unsigned s = 0; s < n; s++) {
        g.ways_per_set[s] = ways[s];
        g.size_bytes += ways[s] * block_bytes;
    }
    g.policy = policy;
    if (policy == SIM_POLICY_WEIGHTED) {
        g.way_probabilities = malloc(ways[0] * sizeof *g.way_probabilities);
        assert_non_null(g.way_probabilities);
        double left = 1.0;
        for (unsigned w = 0; w + 1 < ways[0]; w++)     /* uneven, some ways never chosen */
            left -= (g.way_probabilities[w] = w % 3 == 1 ? 0.0 : left / 3);
        g.way_probabilities[ways[0] - 1] = left;
    }
    return g;
}

/* Random accesses over a little more than the store's capacity (so sets overflow and hit),
 * mostly filling, with a reset now and then; compare every outcome and way. */
static void compare(const sim_geometry *g, uint64_t seed)
{
    const char *key;
    char msg[200];
    assert_int_equal(sim_geometry_check(g, &key, msg, sizeof msg), 0);
    sim_cache c;
    ref_store r;
    gs_rng rc, rr, pick;
    assert_int_equal(sim_cache_init(&c, g), 0);
    ref_init(&r, g);
    gs_rng_seed(&rc, seed);
    gs_rng_seed(&rr, seed);
    gs_rng_seed(&pick, seed + 1000);
    uint64_t lines = g->size_bytes / g->block_bytes;
    uint64_t span = (lines + lines / 4 + 2) * g->block_bytes;
    for (int i = 0; i < 20000; i++) {
        if (i % 7000 == 6999) {
            sim_cache_reset(&c);
            ref_reset(&r);
        }
        uint64_t addr = gs_rng_below(&pick, span);
        bool fill = gs_rng_below(&pick, 10) != 0;
        unsigned set = sim_cache_set_of(&c, addr);
        int way_c = -2, way_r = -2;
        assert_int_equal(sim_cache_access(&c, addr, fill, &rc, &way_c),
                         ref_access(&r, set, addr, fill, &rr, &way_r));
        assert_int_equal(way_c, way_r);
        uint64_t other = gs_rng_below(&pick, span);
        unsigned other_set = sim_cache_set_of(&c, other);
        bool present = false;
        const ref_slot *s = r.slots + r.base[other_set];
        for (unsigned w = 0; w < g->ways_per_set[other_set]; w++)
            present |= s[w].valid && s[w].block == other / g->block_bytes &&
                       (s[w].valid & (1u << (other % g->block_bytes / g->sector_bytes)));
        assert_int_equal(sim_cache_probe(&c, other), present);
    }
    sim_cache_free(&c);
    ref_free(&r);
}

static void each_policy(const unsigned *ways, unsigned n, uint64_t block, unsigned sectors)
{
    static const sim_policy policies[] = {SIM_POLICY_LRU, SIM_POLICY_FIFO, SIM_POLICY_RANDOM,
                                          SIM_POLICY_PLRU, SIM_POLICY_WEIGHTED};
    for (size_t p = 0; p < sizeof policies / sizeof policies[0]; p++) {
        bool pow2 = true, equal = true;
        for (unsigned s = 0; s < n; s++) {
            pow2 = pow2 && ways[s] <= SIM_MAX_PLRU_WAYS && !(ways[s] & (ways[s] - 1));
            equal = equal && ways[s] == ways[0];
        }
        if ((policies[p] == SIM_POLICY_PLRU && !pow2) ||
            (policies[p] == SIM_POLICY_WEIGHTED && !equal))
            continue;
        sim_geometry g = geometry(ways, n, block, sectors, policies[p]);
        compare(&g, 17 + p);
        sim_geometry_free(&g);
    }
}

static void scanned_sets(void **state)
{
    (void)state;
    static const unsigned one[1] = {1}, four[4] = {4, 4, 4, 4}, sixteen[3] = {16, 16, 16};
    each_policy(one, 1, 64, 1);
    each_policy(four, 4, 128, 4);            /* sectored */
    each_policy(sixteen, 3, 96, 3);          /* a block that is not a power of two */
}

static void indexed_sets(void **state)
{
    (void)state;
    static const unsigned w17[2] = {17, 17}, w64[2] = {64, 64}, w200[1] = {200};
    each_policy(w17, 2, 64, 1);
    each_policy(w64, 2, 128, 4);
    each_policy(w200, 1, 64, 2);
}

static void unequal_sets(void **state)
{
    (void)state;
    static const unsigned tlb[7] = {17, 8, 8, 8, 8, 8, 8}, small[3] = {6, 4, 4};
    each_policy(tlb, 7, 4096, 1);            /* indexed (17 ways), slots dealt to the sets */
    each_policy(small, 3, 64, 1);            /* scanned */
}

static void sixty_four_k_ways(void **state)
{
    (void)state;
    /* One set of 65,536 ways (the reference's scan would be too slow to compare here): cycling
     * over 70,000 blocks, LRU always misses, and the newest 65,536 blocks are the ones present. */
    static const unsigned ways[1] = {65536};
    sim_geometry g = geometry(ways, 1, 64, 1, SIM_POLICY_LRU);
    sim_cache c;
    gs_rng rng;
    gs_rng_seed(&rng, 1);
    assert_int_equal(sim_cache_init(&c, &g), 0);
    unsigned hits = 0;
    for (uint64_t i = 0; i < 1000000; i++)
        hits += sim_cache_access(&c, (i % 70000) * 64, true, &rng, NULL) == SIM_HIT;
    assert_int_equal(hits, 0);
    for (uint64_t i = 0; i < 65536; i++)
        assert_true(sim_cache_probe(&c, ((1000000 - 1 - i) % 70000) * 64));
    sim_cache_free(&c);
    sim_geometry_free(&g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(scanned_sets),
        cmocka_unit_test(indexed_sets),
        cmocka_unit_test(unequal_sets),
        cmocka_unit_test(sixty_four_k_ways),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
