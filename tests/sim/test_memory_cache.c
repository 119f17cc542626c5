/* Tests of the simulator's set-associative store (src/sim/cache.c) against hand-computed hit/miss
 * sequences: LRU, FIFO, tree-PLRU and SRRIP on one 4-way set, random and weighted victim
 * frequencies (the Fermi L1 probabilities 1/6, 1/2, 1/6, 1/6 of the memory-hierarchy paper,
 * section 4.2), the unequal-set L2 TLB (17 + 6 x 8 entries, Fig. 10-11), bit and XOR set mappings
 * (the texture L1's bits 7-8, Fig. 12), sector fills, fewer data lines than tags, the geometry
 * checks, and every deterministic policy against the analysis's predictor on random sequences. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "analysis/cache_infer.h"
#include "sim/cache.h"
#include "util/rng.h"

/* A geometry of `sets` equal sets of `ways`, blocks of block_bytes, not sectored. */
static sim_geometry make_geo(unsigned sets, unsigned ways, uint64_t block, sim_policy policy)
{
    sim_geometry g = {0};
    g.sets = sets;
    g.block_bytes = g.sector_bytes = block;
    g.size_bytes = (uint64_t)sets * ways * block;
    g.ways_per_set = calloc(sets, sizeof *g.ways_per_set);
    assert_non_null(g.ways_per_set);
    for (unsigned s = 0; s < sets; s++)
        g.ways_per_set[s] = ways;
    g.policy = policy;
    g.protected_ways = sim_policy_segmented(policy) ? 2 : 0;
    return g;
}

/* Check geometry g and build its store in c, with rng seeded at 1. */
static void open_store(const sim_geometry *g, sim_cache *c, gs_rng *rng)
{
    const char *key;
    char msg[200];
    gs_rng_seed(rng, 1);
    assert_int_equal(sim_geometry_check(g, &key, msg, sizeof msg), 0);
    assert_int_equal(sim_cache_init(c, g), 0);
}

/* Run a sequence of blocks named by letters ('A' = block 0, ...) through one set; return the
 * outcomes as a string of 'H' (hit) and 'M' (miss). */
static void run_sequence(sim_policy policy, const char *blocks, char *outcomes)
{
    sim_geometry g = make_geo(1, 4, 64, policy);
    sim_cache c;
    gs_rng rng;
    open_store(&g, &c, &rng);
    size_t i;
    for (i = 0; blocks[i]; i++)
        outcomes[i] = sim_cache_access(&c, (uint64_t)(blocks[i] - 'A') * 64, true, &rng, NULL)
                              == SIM_HIT ? 'H' : 'M';
    outcomes[i] = '\0';
    sim_cache_free(&c);
    sim_geometry_free(&g);
}

static void lru_sequence(void **state)
{
    (void)state;
    char out[32];
    /* After A B C D A the LRU order is B C D A: E evicts B, B evicts C, A still hits. */
    run_sequence(SIM_POLICY_LRU, "ABCDAEBA", out);
    assert_string_equal(out, "MMMMHMMH");
    /* Cyclic over 5 blocks in 4 ways: LRU misses every access. */
    run_sequence(SIM_POLICY_LRU, "ABCDEABCDE", out);
    assert_string_equal(out, "MMMMMMMMMM");
}

static void fifo_sequence(void **state)
{
    (void)state;
    char out[32];
    /* The hit on A does not refresh it: E evicts A (filled first), so B hits and A misses. */
    run_sequence(SIM_POLICY_FIFO, "ABCDAEBA", out);
    assert_string_equal(out, "MMMMHMHM");
}

static void plru_sequence(void **state)
{
    (void)state;
    char out[32];
    /* Tree bits after A B C D A point right at the root and to way 2 (C) below it: E replaces C.
     * Then B (way 1) hits and C misses, replacing way 3 (D); true LRU would have evicted B. */
    run_sequence(SIM_POLICY_PLRU, "ABCDAEBCD", out);
    assert_string_equal(out, "MMMMHMHMM");
    run_sequence(SIM_POLICY_LRU, "ABCDAEBCD", out);
    assert_string_equal(out, "MMMMHMMMM");
}

static void srrip_sequence(void **state)
{
    (void)state;
    char out[32];
    /* A A B C D then a cyclic walk: A's hit sets it to 0, the others fill at 2; every miss ages
     * the set until a way is at 3 and evicts the lowest such way, never A's: A hits in every
     * pass and ways 1-3 take turns as victims (the H100 L1's victims 0, 1/3, 1/3, 1/3). */
    run_sequence(SIM_POLICY_SRRIP, "AABCDEABCDEABCDE", out);
    assert_string_equal(out, "MHMMMMHMMMMHMMMM");
}

static void slru_sequence(void **state)
{
    (void)state;
    char out[32];
    /* The H100 L1's cyclic walk (docs/methods.md, "Policy"): A touched twice a round is
     * protected and stays; B C D E take turns in the three other ways. LRU loses A. */
    run_sequence(SIM_POLICY_SLRU, "AABCDEAABCDEAABCDE", out);
    assert_string_equal(out, "MHMMMMHHMMMMHHMMMM");
    /* Two protected at most: C's hit demotes A (the least recent protected) to the most recent
     * end of the unprotected ways, so E evicts D, not A; D then misses and evicts A, the least
     * recent unprotected by then. A demoted line that kept its old place (A's last use, before
     * D's) would have gone to E, and D would have hit. */
    run_sequence(SIM_POLICY_SLRU, "ABABCDCEDA", out);
    assert_string_equal(out, "MMHHMMHMMM");
}

static void hslru_sequence(void **state)
{
    (void)state;
    /* Over the last two hits (tests/analysis/test_cache_infer.c predicts the same): the hits on
     * A and B protect both, so E F G evict C D E and A hits; B's second hit takes A's place, A
     * goes back to the most recent end of the unprotected ways, and G evicts it; the cyclic walk
     * of the H100's L1: A's two touches a round keep it, B C D E take turns. */
    static const char *const cases[][2] = {{"ABCDABEFGA", "MMMMHHMMMH"},
                                           {"ABCDABBEFGA", "MMMMHHHMMMM"},
                                           {"AABCDEAABCDEAABCDE", "MHMMMMHHMMMMHHMMMM"}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char out[32];
        run_sequence(SIM_POLICY_HSLRU, cases[i][0], out);
        assert_string_equal(out, cases[i][1]);
    }
}

/* The simulator and the analysis's predictor (gs_policy_predict, what the cache probe compares
 * card traces with) agree on every access of random sequences over ways + 1 .. ways + 4 blocks
 * of one set, for every deterministic policy and count: a rule the two spelled differently
 * would name a policy the simulator does not hold. */
static void simulator_matches_predictor(void **state)
{
    (void)state;
    static const struct { sim_policy sim; gs_policy predicted; } pairs[] = {
        {SIM_POLICY_LRU, GS_POLICY_LRU},   {SIM_POLICY_FIFO, GS_POLICY_FIFO},
        {SIM_POLICY_PLRU, GS_POLICY_PLRU}, {SIM_POLICY_SRRIP, GS_POLICY_SRRIP},
        {SIM_POLICY_SLRU, GS_POLICY_SLRU}, {SIM_POLICY_HSLRU, GS_POLICY_HSLRU}};
    enum { N = 400 };
    gs_rng pick;
    gs_rng_seed(&pick, 17);
    for (unsigned ways = 4; ways <= 8; ways *= 2)
        for (size_t p = 0; p < sizeof pairs / sizeof pairs[0]; p++) {
            bool segmented = sim_policy_segmented(pairs[p].sim);
            for (unsigned k = segmented ? 1 : 0; k < (segmented ? ways : 1u); k++)
                for (int round = 0; round < 4; round++) {
                    uint32_t blocks[N];
                    bool predicted[N];
                    unsigned span = ways + 1 + (unsigned)gs_rng_below(&pick, 4);
                    for (size_t i = 0; i < N; i++)   /* runs of repeats: hits in a row */
                        blocks[i] = i && gs_rng_below(&pick, 4) == 0
                                        ? blocks[i - 1]
                                        : (uint32_t)gs_rng_below(&pick, span);
                    assert_int_equal(gs_policy_predict(pairs[p].predicted, k, blocks, N, ways,
                                                       predicted), 0);
                    sim_geometry g = make_geo(1, ways, 64, pairs[p].sim);
                    g.protected_ways = k;
                    sim_cache c;
                    gs_rng rng;
                    open_store(&g, &c, &rng);
                    for (size_t i = 0; i < N; i++) {
                        bool hit = sim_cache_access(&c, (uint64_t)blocks[i] * 64, true, &rng,
                                                    NULL) == SIM_HIT;
                        if (hit != predicted[i])
                            fail_msg("%s, %u ways, k %u: access %zu of block %u: simulator %s, "
                                     "predictor %s", sim_policy_name(pairs[p].sim), ways, k, i,
                                     blocks[i], hit ? "hit" : "miss",
                                     predicted[i] ? "hit" : "miss");
                    }
                    sim_cache_free(&c);
                    sim_geometry_free(&g);
                }
        }
}

/* Fill a 4-way set, then miss many times; count the way each miss replaced. */
static void victim_counts(sim_geometry *g, unsigned counts[4], unsigned misses)
{
    sim_cache c;
    gs_rng rng;
    gs_rng_seed(&rng, 42);
    assert_int_equal(sim_cache_init(&c, g), 0);
    for (uint64_t b = 0; b < 4; b++)
        sim_cache_access(&c, b * 64, true, &rng, NULL);
    memset(counts, 0, 4 * sizeof *counts);
    for (unsigned i = 0; i < misses; i++) {
        int way = -1;
        assert_int_equal(sim_cache_access(&c, (uint64_t)(100 + i) * 64, true, &rng, &way),
                         SIM_MISS);
        assert_true(way >= 0 && way < 4);
        counts[way]++;
    }
    sim_cache_free(&c);
}

static void weighted_frequencies(void **state)
{
    (void)state;
    sim_geometry g = make_geo(1, 4, 64, SIM_POLICY_WEIGHTED);
    g.way_probabilities = malloc(4 * sizeof(double));
    double p[4] = {1.0 / 6, 1.0 / 2, 1.0 / 6, 1.0 / 6};
    memcpy(g.way_probabilities, p, sizeof p);
    unsigned counts[4];
    victim_counts(&g, counts, 60000);
    for (int w = 0; w < 4; w++)
        assert_true(abs((int)counts[w] - (int)(p[w] * 60000)) < 900);   /* > 5 sigma */
    sim_geometry_free(&g);
}

static void random_frequencies(void **state)
{
    (void)state;
    sim_geometry g = make_geo(1, 4, 64, SIM_POLICY_RANDOM);
    unsigned counts[4];
    victim_counts(&g, counts, 40000);
    for (int w = 0; w < 4; w++)
        assert_true(abs((int)counts[w] - 10000) < 600);
    sim_geometry_free(&g);
}

/* The Fermi/Kepler L2 TLB: 65 entries in sets of 17, 8, 8, 8, 8, 8, 8 over 2 MB pages. */
static sim_geometry l2tlb_geometry(void)
{
    static const unsigned ways[7] = {17, 8, 8, 8, 8, 8, 8};
    sim_geometry g = make_geo(7, 1, 2u << 20, SIM_POLICY_LRU);
    memcpy(g.ways_per_set, ways, sizeof ways);
    g.size_bytes = 65ull * (2u << 20);
    return g;
}

/* Misses in the second pass of a cyclic walk over `pages` consecutive pages. */
static unsigned second_pass_misses(const sim_geometry *g, unsigned pages)
{
    sim_cache c;
    gs_rng rng;
    gs_rng_seed(&rng, 3);
    assert_int_equal(sim_cache_init(&c, g), 0);
    unsigned misses = 0;
    for (int pass = 0; pass < 2; pass++)
        for (uint64_t p = 0; p < pages; p++)
            if (sim_cache_access(&c, p * g->block_bytes, true, &rng, NULL) != SIM_HIT && pass)
                misses++;
    sim_cache_free(&c);
    return misses;
}

static void unequal_sets(void **state)
{
    (void)state;
    sim_geometry g = l2tlb_geometry();
    const char *key;
    char msg[200];
    assert_int_equal(sim_geometry_check(&g, &key, msg, sizeof msg), 0);
    sim_cache c;
    assert_int_equal(sim_cache_init(&c, &g), 0);
    unsigned per_set[7] = {0};
    for (uint64_t p = 0; p < 65; p++)
        per_set[sim_cache_set_of(&c, p << 21)]++;
    for (unsigned s = 0; s < 7; s++)
        assert_int_equal(per_set[s], g.ways_per_set[s]);   /* 65 pages fill it exactly */
    assert_int_equal(sim_cache_set_of(&c, 65ull << 21), 0); /* page 65 goes to the big set */
    assert_int_equal(sim_cache_set_of(&c, 66ull << 21), 1);
    sim_cache_free(&c);
    assert_int_equal(second_pass_misses(&g, 65), 0);
    assert_int_equal(second_pass_misses(&g, 66), 18);      /* the 17-way set overflows */
    assert_int_equal(second_pass_misses(&g, 67), 18 + 9);  /* then one 8-way set per page */
    assert_int_equal(second_pass_misses(&g, 68), 18 + 9 + 9);
    sim_geometry_free(&g);
}

static void bit_mapping(void **state)
{
    (void)state;
    /* The texture L1 of Fig. 12: 32-byte lines, 4 sets chosen by address bits 7 and 8. */
    sim_geometry g = make_geo(4, 96, 32, SIM_POLICY_LRU);
    g.mapping.kind = SIM_MAP_BITS;
    g.mapping.nbits = 2;
    g.mapping.group_mask[0] = 1u << 7;
    g.mapping.group_mask[1] = 1u << 8;
    const char *key;
    char msg[200];
    assert_int_equal(sim_geometry_check(&g, &key, msg, sizeof msg), 0);
    sim_cache c;
    assert_int_equal(sim_cache_init(&c, &g), 0);
    assert_int_equal(sim_cache_set_of(&c, 0), 0);
    assert_int_equal(sim_cache_set_of(&c, 32), 0);      /* bits 5-6 do not choose the set */
    assert_int_equal(sim_cache_set_of(&c, 96), 0);
    assert_int_equal(sim_cache_set_of(&c, 128), 1);
    assert_int_equal(sim_cache_set_of(&c, 256), 2);
    assert_int_equal(sim_cache_set_of(&c, 384), 3);
    assert_int_equal(sim_cache_set_of(&c, 512), 0);
    sim_cache_free(&c);
    sim_geometry_free(&g);
}

/* An XOR mapping whose groups take bits from every byte of the address (the set is read from one
 * table per byte, as many bytes as the groups touch): the set of any address is the parity of
 * its bits in each group. */
static void xor_mapping_every_byte(void **state)
{
    (void)state;
    sim_geometry g = make_geo(16, 2, 64, SIM_POLICY_LRU);
    g.mapping.kind = SIM_MAP_XOR;
    g.mapping.nbits = 4;
    g.mapping.group_mask[0] = (1ull << 6) | (1ull << 15) | (1ull << 63);
    g.mapping.group_mask[1] = (1ull << 7) | (1ull << 23) | (1ull << 40);
    g.mapping.group_mask[2] = (1ull << 8) | (1ull << 31) | (1ull << 55);
    g.mapping.group_mask[3] = (1ull << 9) | (1ull << 36) | (1ull << 47);
    const char *key;
    char msg[200];
    assert_int_equal(sim_geometry_check(&g, &key, msg, sizeof msg), 0);
    sim_cache c;
    gs_rng rng;
    gs_rng_seed(&rng, 7);
    assert_int_equal(sim_cache_init(&c, &g), 0);
    for (int i = 0; i < 1000; i++) {
        uint64_t addr = gs_rng_next(&rng);
        unsigned want = 0;
        for (unsigned b = 0; b < 4; b++)
            want |= (unsigned)__builtin_parityll(addr & g.mapping.group_mask[b]) << b;
        assert_int_equal(sim_cache_set_of(&c, addr), want);
    }
    sim_cache_free(&c);
    sim_geometry_free(&g);
}

/* A mapping whose index bit i is the XOR of address bits 7 + i and 22 + i (two fields of the
 * address, as the hopper model's L2) is found from two shifted terms, and a group with a bit
 * below its index bit (which no shift down reaches) from the tables: either way the set of any
 * address is the parity of its bits in each group. */
static void check_parity_sets(const sim_geometry *g, unsigned want_terms)
{
    sim_cache c;
    gs_rng rng;
    gs_rng_seed(&rng, 11);
    assert_int_equal(sim_cache_init(&c, g), 0);
    assert_int_equal(c.n_terms, want_terms);
    for (int i = 0; i < 4000; i++) {
        uint64_t addr = gs_rng_next(&rng) >> (i % 24);
        unsigned want = 0;
        for (unsigned b = 0; b < g->mapping.nbits; b++)
            want |= (unsigned)__builtin_parityll(addr & g->mapping.group_mask[b]) << b;
        assert_int_equal(sim_cache_set_of(&c, addr), want);
    }
    sim_cache_free(&c);
}

static void xor_mapping_terms(void **state)
{
    (void)state;
    sim_geometry g = make_geo(1u << 15, 2, 128, SIM_POLICY_LRU);
    g.mapping.kind = SIM_MAP_XOR;
    g.mapping.nbits = 15;
    for (unsigned i = 0; i < 15; i++)
        g.mapping.group_mask[i] = (1ull << (7 + i)) | (1ull << (22 + i));
    const char *key;
    char msg[200];
    assert_int_equal(sim_geometry_check(&g, &key, msg, sizeof msg), 0);
    check_parity_sets(&g, 2);
    g.mapping.group_mask[3] |= 1ull << 40;       /* a third field for one bit: three terms */
    check_parity_sets(&g, 3);
    g.mapping.group_mask[14] |= 1ull << 9;       /* bit 9 for index bit 14: tables */
    check_parity_sets(&g, 0);
    sim_geometry_free(&g);
}

static void xor_mapping(void **state)
{
    (void)state;
    sim_geometry g = make_geo(4, 2, 64, SIM_POLICY_LRU);
    g.mapping.kind = SIM_MAP_XOR;
    g.mapping.nbits = 2;
    g.mapping.group_mask[0] = (1u << 6) | (1u << 12);
    g.mapping.group_mask[1] = (1u << 7) | (1u << 13);
    const char *key;
    char msg[200];
    assert_int_equal(sim_geometry_check(&g, &key, msg, sizeof msg), 0);
    sim_cache c;
    gs_rng rng;
    gs_rng_seed(&rng, 1);
    assert_int_equal(sim_cache_init(&c, &g), 0);
    assert_int_equal(sim_cache_set_of(&c, 0), 0);
    assert_int_equal(sim_cache_set_of(&c, 64), 1);
    assert_int_equal(sim_cache_set_of(&c, 4096), 1);
    assert_int_equal(sim_cache_set_of(&c, 4096 + 64), 0);
    assert_int_equal(sim_cache_set_of(&c, 8192 + 128), 0);
    assert_int_equal(sim_cache_set_of(&c, 8192 + 4096 + 64), 2);
    /* 0, 4096+64 and 8192+128 share set 0 (2 ways): cycling over them always misses, while a
     * plain modulo mapping would have spread them over sets 0, 1 and 2. */
    uint64_t addr[3] = {0, 4096 + 64, 8192 + 128};
    unsigned misses = 0;
    for (int i = 0; i < 30; i++)
        misses += sim_cache_access(&c, addr[i % 3], true, &rng, NULL) != SIM_HIT;
    assert_int_equal(misses, 30);
    sim_cache_free(&c);
    sim_geometry_free(&g);
}

/* A store's invalidation: one sector, or the whole line; the slot stays, so the next access is a
 * sector miss that refills it. Small (scanned) and large (indexed) stores alike. */
static void invalidation(void **state)
{
    (void)state;
    for (unsigned ways = 2; ways <= 32; ways *= 16) {
        sim_geometry g = make_geo(2, ways, 128, SIM_POLICY_LRU);
        g.sector_bytes = 32;
        gs_rng rng;
        gs_rng_seed(&rng, 1);
        sim_cache c;
        assert_int_equal(sim_cache_init(&c, &g), 0);
        sim_cache_access(&c, 0, true, &rng, NULL);
        sim_cache_access(&c, 32, true, &rng, NULL);
        assert_true(sim_cache_invalidate(&c, 0, false));
        assert_false(sim_cache_probe(&c, 0));
        assert_true(sim_cache_probe(&c, 32));                 /* the other sector stays */
        assert_false(sim_cache_invalidate(&c, 0, false));     /* nothing left to drop */
        assert_true(sim_cache_invalidate(&c, 32, true));
        assert_false(sim_cache_probe(&c, 32));
        assert_int_equal(sim_cache_access(&c, 0, true, &rng, NULL), SIM_SECTOR_MISS);
        assert_int_equal(sim_cache_access(&c, 0, true, &rng, NULL), SIM_HIT);
        assert_false(sim_cache_invalidate(&c, 4096, true));   /* absent block */
        sim_cache_free(&c);
        sim_geometry_free(&g);
    }
}

static void sector_fills(void **state)
{
    (void)state;
    sim_geometry g = make_geo(2, 2, 128, SIM_POLICY_LRU);
    g.sector_bytes = 32;
    gs_rng rng;
    gs_rng_seed(&rng, 1);
    sim_cache c;
    assert_int_equal(sim_cache_init(&c, &g), 0);
    assert_int_equal(sim_cache_access(&c, 0, true, &rng, NULL), SIM_MISS);
    assert_int_equal(sim_cache_access(&c, 4, true, &rng, NULL), SIM_HIT);     /* same sector */
    assert_int_equal(sim_cache_access(&c, 32, true, &rng, NULL), SIM_SECTOR_MISS);
    assert_int_equal(sim_cache_access(&c, 32, true, &rng, NULL), SIM_HIT);
    assert_false(sim_cache_probe(&c, 64));
    assert_int_equal(sim_cache_access(&c, 64, false, &rng, NULL), SIM_SECTOR_MISS);
    assert_false(sim_cache_probe(&c, 64));                                    /* no fill */
    assert_true(sim_cache_probe(&c, 0));
    /* A new line in the same set evicts the whole line, all its sectors. */
    sim_cache_access(&c, 256, true, &rng, NULL);
    sim_cache_access(&c, 512, true, &rng, NULL);
    assert_false(sim_cache_probe(&c, 0));
    assert_false(sim_cache_probe(&c, 32));
    sim_cache_free(&c);
    sim_geometry_free(&g);
}

/* fetch_bytes 64 of 32-B sectors (the H100's L2): a load miss fills the aligned 64 B around its
 * sector, tag miss or sector miss alike; a store that allocates fills its own sector only. */
static void fetch_group_fills(void **state)
{
    (void)state;
    sim_geometry g = make_geo(2, 2, 128, SIM_POLICY_LRU);
    g.sector_bytes = 32;
    g.fetch_bytes = 64;
    gs_rng rng;
    gs_rng_seed(&rng, 1);
    sim_cache c;
    assert_int_equal(sim_cache_init(&c, &g), 0);
    assert_int_equal(sim_cache_access(&c, 32, true, &rng, NULL), SIM_MISS);
    assert_true(sim_cache_probe(&c, 0));                                      /* its pair */
    assert_int_equal(sim_cache_access(&c, 0, true, &rng, NULL), SIM_HIT);
    assert_false(sim_cache_probe(&c, 64));                                    /* next group */
    assert_int_equal(sim_cache_access(&c, 100, true, &rng, NULL), SIM_SECTOR_MISS);
    assert_true(sim_cache_probe(&c, 64));
    assert_int_equal(sim_cache_write(&c, 256, &rng), SIM_MISS);               /* a new line */
    assert_true(sim_cache_probe(&c, 256));
    assert_false(sim_cache_probe(&c, 288));                                   /* not fetched */
    assert_int_equal(sim_cache_access(&c, 288, true, &rng, NULL), SIM_SECTOR_MISS);
    sim_cache_free(&c);
    sim_geometry_free(&g);
}

/* data_lines: 4 sets x 2 ways of tags, data for 3 lines. Three blocks in three sets stay; a
 * fourth drops the least recently used one's data (its tag stays: the next access to it is a
 * sector miss that takes a line again, dropping the next oldest); a set still holds 2 blocks
 * with the store otherwise empty; a reset frees every data line. */
static void data_lines(void **state)
{
    (void)state;
    sim_geometry g = make_geo(4, 2, 64, SIM_POLICY_LRU);
    g.data_lines = 3;
    sim_cache c;
    gs_rng rng;
    const char *key;
    char msg[200];
    open_store(&g, &c, &rng);
    /* blocks 0, 1, 2 (sets 0, 1, 2: modulo) */
    for (int pass = 0; pass < 2; pass++)
        for (uint64_t b = 0; b < 3; b++)
            assert_int_equal(sim_cache_access(&c, b * 64, true, &rng, NULL),
                             pass ? SIM_HIT : SIM_MISS);
    assert_int_equal(sim_cache_access(&c, 3 * 64, true, &rng, NULL), SIM_MISS);   /* drops 0 */
    assert_false(sim_cache_probe(&c, 0));
    assert_int_equal(sim_cache_access(&c, 0, true, &rng, NULL), SIM_SECTOR_MISS); /* drops 1 */
    assert_int_equal(sim_cache_access(&c, 2 * 64, true, &rng, NULL), SIM_HIT);
    assert_int_equal(sim_cache_access(&c, 1 * 64, true, &rng, NULL), SIM_SECTOR_MISS);
    assert_int_equal(sim_cache_access(&c, 3 * 64, true, &rng, NULL), SIM_SECTOR_MISS);
    sim_cache_reset(&c);
    /* blocks 0 and 4 share set 0: both stay (2 ways, 2 of 3 data lines) */
    for (int pass = 0; pass < 2; pass++) {
        assert_int_equal(sim_cache_access(&c, 0, true, &rng, NULL), pass ? SIM_HIT : SIM_MISS);
        assert_int_equal(sim_cache_access(&c, 4 * 64, true, &rng, NULL),
                         pass ? SIM_HIT : SIM_MISS);
    }
    /* more data lines than tags is refused */
    g.data_lines = 9;
    assert_int_equal(sim_geometry_check(&g, &key, msg, sizeof msg), -1);
    assert_string_equal(key, "data_lines");
    sim_cache_free(&c);
    sim_geometry_free(&g);
}

/* The short paths of ordered stores (LRU, FIFO: sim_cache_access_ordered) and segmented ones
 * (SLRU, HSLRU: sim_cache_access_segmented): random loads, loads that do not fill, stores and
 * invalidations over a sectored store (with a data-line limit where the path allows one) give
 * the outcomes, ways and state (images, byte for byte) of the general path, which the same
 * store takes with its path's flag cleared. */
static void short_path_as_general(sim_policy policy, uint64_t data_lines)
{
    sim_geometry g = make_geo(4, 4, 128, policy);
    g.sector_bytes = 32;
    g.fetch_bytes = 64;
    g.data_lines = data_lines;
    sim_cache fast, slow;
    gs_rng r1, r2, pick;
    open_store(&g, &fast, &r1);
    open_store(&g, &slow, &r2);
    if (sim_policy_segmented(policy)) {
        assert_true(fast.segmented);
        slow.segmented = false;
    } else {
        assert_true(fast.ordered);
        slow.ordered = false;
    }
    gs_rng_seed(&pick, 5 + policy);
    for (int i = 0; i < 6000; i++) {
        uint64_t addr = gs_rng_below(&pick, 40) * 128 + gs_rng_below(&pick, 4) * 32;
        unsigned kind = (unsigned)gs_rng_below(&pick, 10);
        int w1 = -2, w2 = -2;
        if (kind < 6) {
            assert_int_equal(sim_cache_access(&fast, addr, true, &r1, &w1),
                             sim_cache_access(&slow, addr, true, &r2, &w2));
        } else if (kind < 7) {
            assert_int_equal(sim_cache_access(&fast, addr, false, &r1, &w1),
                             sim_cache_access(&slow, addr, false, &r2, &w2));
        } else if (kind < 9) {
            assert_int_equal(sim_cache_write(&fast, addr, &r1), sim_cache_write(&slow, addr, &r2));
        } else {
            assert_int_equal(sim_cache_invalidate(&fast, addr, i % 2),
                             sim_cache_invalidate(&slow, addr, i % 2));
        }
        assert_int_equal(w1, w2);
        if (i % 500 == 0 || i == 5999) {
            assert_int_equal(sim_cache_image_begin(&fast), 0);
            assert_int_equal(sim_cache_image_begin(&slow), 0);
            for (uint64_t b = 0; b < 40; b++) {
                sim_cache_image_add(&fast, b * 128);
                sim_cache_image_add(&slow, b * 128);
            }
            size_t n = sim_cache_image_bytes(&fast);
            assert_int_equal(n, sim_cache_image_bytes(&slow));
            unsigned char *image = malloc(n);
            assert_non_null(image);
            sim_cache_save(&slow, image);
            assert_true(sim_cache_same(&fast, image));
            free(image);
        }
    }
    sim_cache_free(&fast);
    sim_cache_free(&slow);
    sim_geometry_free(&g);
}

static void short_paths_as_general(void **state)
{
    (void)state;
    short_path_as_general(SIM_POLICY_LRU, 0);
    short_path_as_general(SIM_POLICY_FIFO, 0);
    short_path_as_general(SIM_POLICY_SLRU, 11);
    short_path_as_general(SIM_POLICY_HSLRU, 11);
    short_path_as_general(SIM_POLICY_HSLRU, 0);
}

static void geometry_checks(void **state)
{
    (void)state;
    const char *key;
    char msg[200];
    sim_geometry g = make_geo(32, 4, 128, SIM_POLICY_LRU);
    g.size_bytes = 12288;
    assert_int_equal(sim_geometry_check(&g, &key, msg, sizeof msg), -1);
    assert_string_equal(key, "size_bytes");
    assert_string_equal(msg, "32 sets x 4 ways x 128 B = 16384 B, but size is 12288 B");
    g.size_bytes = 16384;
    g.mapping.kind = SIM_MAP_BITS;
    g.mapping.nbits = 4;
    for (int i = 0; i < 4; i++)
        g.mapping.group_mask[i] = 1u << (7 + i);
    assert_int_equal(sim_geometry_check(&g, &key, msg, sizeof msg), -1);
    assert_string_equal(key, "mapping");
    assert_string_equal(msg, "4 index bits give 16 sets, but sets is 32");
    g.mapping.nbits = 5;
    g.mapping.group_mask[4] = 1u << 3;                 /* inside the 128-byte line */
    assert_int_equal(sim_geometry_check(&g, &key, msg, sizeof msg), -1);
    assert_string_equal(key, "mapping");
    g.mapping.group_mask[4] = 1u << 11;
    assert_int_equal(sim_geometry_check(&g, &key, msg, sizeof msg), 0);
    g.sector_bytes = 48;
    assert_int_equal(sim_geometry_check(&g, &key, msg, sizeof msg), -1);
    assert_string_equal(key, "sector_bytes");
    g.sector_bytes = 32;
    g.fetch_bytes = 48;                                 /* not whole sectors */
    assert_int_equal(sim_geometry_check(&g, &key, msg, sizeof msg), -1);
    assert_string_equal(key, "fetch_bytes");
    g.fetch_bytes = 96;                                 /* does not divide the line */
    assert_int_equal(sim_geometry_check(&g, &key, msg, sizeof msg), -1);
    assert_string_equal(key, "fetch_bytes");
    g.fetch_bytes = 64;
    assert_int_equal(sim_geometry_check(&g, &key, msg, sizeof msg), 0);
    g.fetch_bytes = 0;
    g.sector_bytes = 128;
    g.policy = SIM_POLICY_WEIGHTED;
    g.way_probabilities = calloc(4, sizeof(double));
    for (int i = 0; i < 4; i++)
        g.way_probabilities[i] = 0.5;
    assert_int_equal(sim_geometry_check(&g, &key, msg, sizeof msg), -1);
    assert_string_equal(key, "way_probabilities");
    assert_string_equal(msg, "way probabilities sum to 2, not 1");
    sim_geometry_free(&g);
    g = make_geo(1, 6, 64, SIM_POLICY_PLRU);
    assert_int_equal(sim_geometry_check(&g, &key, msg, sizeof msg), -1);
    assert_string_equal(key, "policy");
    sim_geometry_free(&g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(lru_sequence),      cmocka_unit_test(fifo_sequence),
        cmocka_unit_test(plru_sequence),     cmocka_unit_test(srrip_sequence),
        cmocka_unit_test(slru_sequence),
        cmocka_unit_test(hslru_sequence),
        cmocka_unit_test(simulator_matches_predictor),
        cmocka_unit_test(weighted_frequencies),
        cmocka_unit_test(random_frequencies), cmocka_unit_test(unequal_sets),
        cmocka_unit_test(bit_mapping),       cmocka_unit_test(xor_mapping),
        cmocka_unit_test(xor_mapping_every_byte), cmocka_unit_test(xor_mapping_terms),
        cmocka_unit_test(sector_fills),      cmocka_unit_test(fetch_group_fills),
        cmocka_unit_test(geometry_checks),   cmocka_unit_test(short_paths_as_general),
        cmocka_unit_test(invalidation),      cmocka_unit_test(data_lines),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
