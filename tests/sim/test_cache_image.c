/* Tests of the simulator's state images (sim_cache_save / sim_cache_same in src/sim/cache.c),
 * which let a chase repeat a pass instead of running it again: a store found as saved after a
 * cyclic trace gives the same outcome and way at every access of the next pass (random traces,
 * every policy, scanned and indexed sets, a data-line limit); a trace that fits is found
 * repeating; a change in a listed set, and a line's data dropped by the data-line limit from an
 * access to another set, are seen. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "sim/cache.h"

#define BLOCK 128

static sim_geometry geometry(unsigned sets, unsigned ways, sim_policy policy, uint64_t data_lines)
{
    sim_geometry g = {0};
    g.sets = sets;
    g.block_bytes = BLOCK;
    g.sector_bytes = BLOCK / 4;
    g.fetch_bytes = BLOCK / 2;
    g.size_bytes = (uint64_t)sets * ways * BLOCK;
    g.ways_per_set = malloc(sets * sizeof *g.ways_per_set);
    assert_non_null(g.ways_per_set);
    for (unsigned s = 0; s < sets; s++)
        g.ways_per_set[s] = ways;
    g.policy = policy;
    g.protected_ways = ways / 2;
    g.data_lines = data_lines;
    const char *key;
    char msg[200];
    assert_int_equal(sim_geometry_check(&g, &key, msg, sizeof msg), 0);
    return g;
}

/* Run a cyclic trace of n addresses for `passes` passes. At each pass's start the store is
 * compared with the image saved at the previous one; when it is the same, the next pass must
 * give exactly the outcomes and ways of the last one. Returns the pass at whose start the
 * store was first found the same (0: never). */
static unsigned check_repeats(const sim_geometry *g, const uint64_t *trace, size_t n,
                              unsigned passes)
{
    sim_cache c;
    gs_rng rng;
    gs_rng_seed(&rng, 5);
    assert_int_equal(sim_cache_init(&c, g), 0);
    assert_int_equal(sim_cache_image_begin(&c), 0);
    for (size_t i = 0; i < n; i++)
        sim_cache_image_add(&c, trace[i]);
    unsigned char *image = malloc(sim_cache_image_bytes(&c));
    int *last = malloc(n * sizeof *last), *now = malloc(n * sizeof *now);
    assert_non_null(image);
    assert_non_null(last);
    assert_non_null(now);
    unsigned first_same = 0;
    for (unsigned pass = 0; pass < passes; pass++) {
        bool same = pass > 0 && sim_cache_same(&c, image);
        if (same && !first_same)
            first_same = pass;
        sim_cache_save(&c, image);
        for (size_t i = 0; i < n; i++) {
            int way = -2;
            sim_outcome o = sim_cache_access(&c, trace[i], true, &rng, &way);
            now[i] = (int)o * 1000 + way;
        }
        if (same)
            assert_memory_equal(now, last, n * sizeof *now);
        memcpy(last, now, n * sizeof *now);
    }
    free(image);
    free(last);
    free(now);
    sim_cache_free(&c);
    return first_same;
}

/* n distinct random addresses within span bytes (any byte of a block, so sectors differ). */
static uint64_t *random_trace(size_t n, uint64_t span, uint64_t seed)
{
    uint64_t *t = malloc(n * sizeof *t);
    assert_non_null(t);
    gs_rng pick;
    gs_rng_seed(&pick, seed);
    for (size_t i = 0; i < n; i++) {
        bool again;
        do {
            t[i] = gs_rng_below(&pick, span);
            again = false;
            for (size_t k = 0; k < i; k++)
                again |= t[k] == t[i];
        } while (again);
    }
    return t;
}

static const sim_policy deterministic[] = {SIM_POLICY_LRU, SIM_POLICY_FIFO, SIM_POLICY_PLRU,
                                           SIM_POLICY_SRRIP, SIM_POLICY_SLRU, SIM_POLICY_HSLRU};
#define N_DETERMINISTIC (sizeof deterministic / sizeof deterministic[0])

/* Random cyclic traces over less than, about, and more than the capacity: a pass found the
 * same repeats exactly; a trace that fits is found the same within three passes. */
static void scanned_sets_repeat(void **state)
{
    (void)state;
    for (size_t p = 0; p < N_DETERMINISTIC; p++)
        for (uint64_t data_lines = 0; data_lines <= 20; data_lines += 20)
            for (unsigned span_lines = 16; span_lines <= 96; span_lines *= 2) {
                sim_geometry g = geometry(8, 4, deterministic[p], data_lines);
                uint64_t *t = random_trace(span_lines * 2, (uint64_t)span_lines * BLOCK,
                                           p * 100 + span_lines);
                unsigned found = check_repeats(&g, t, span_lines * 2, 8);
                if (span_lines == 16 && !data_lines)
                    assert_in_range(found, 1, 3);
                free(t);
                sim_geometry_free(&g);
            }
}

static void indexed_sets_repeat(void **state)
{
    (void)state;
    static const sim_policy big[] = {SIM_POLICY_LRU, SIM_POLICY_FIFO, SIM_POLICY_PLRU,
                                     SIM_POLICY_SRRIP};
    for (size_t p = 0; p < sizeof big / sizeof big[0]; p++)
        for (unsigned span_lines = 32; span_lines <= 256; span_lines *= 2) {
            sim_geometry g = geometry(2, 32, big[p], 0);
            uint64_t *t = random_trace(span_lines, (uint64_t)span_lines * BLOCK, p + span_lines);
            unsigned found = check_repeats(&g, t, span_lines, 6);
            if (span_lines == 32)
                assert_in_range(found, 1, 3);
            free(t);
            sim_geometry_free(&g);
        }
}

/* A change in a listed set is seen; so is a line's data dropped, by the data-line limit, in a
 * set other than the one accessed (the limit spans the store). */
static void changes_are_seen(void **state)
{
    (void)state;
    sim_geometry g = geometry(4, 2, SIM_POLICY_LRU, 2);
    sim_cache c;
    gs_rng rng;
    gs_rng_seed(&rng, 1);
    assert_int_equal(sim_cache_init(&c, &g), 0);
    /* blocks 1 and 5 are in set 1, 0 and 4 in set 0 (modulo 4 sets) */
    sim_cache_access(&c, 1 * BLOCK, true, &rng, NULL);
    sim_cache_access(&c, 5 * BLOCK, true, &rng, NULL);
    assert_int_equal(sim_cache_image_begin(&c), 0);
    sim_cache_image_add(&c, 1 * BLOCK);
    sim_cache_image_add(&c, 0);
    unsigned char *image = malloc(sim_cache_image_bytes(&c));
    assert_non_null(image);
    sim_cache_save(&c, image);
    assert_true(sim_cache_same(&c, image));
    sim_cache_access(&c, 0, true, &rng, NULL);      /* set 0: drops block 1's data in set 1 */
    assert_false(sim_cache_probe(&c, 1 * BLOCK));
    assert_false(sim_cache_same(&c, image));
    sim_cache_access(&c, 5 * BLOCK, true, &rng, NULL);   /* the most recent data line */
    sim_cache_save(&c, image);
    sim_cache_access(&c, 5 * BLOCK + 64, true, &rng, NULL);  /* a sector miss: its mask alone */
    assert_false(sim_cache_same(&c, image));
    free(image);
    sim_cache_free(&c);
    sim_geometry_free(&g);
}

/* A store with no per-slot bytes (LRU, no data-line limit) images each listed set as its record
 * up to its masks: a change of order, tag or sector there is seen, one in a set not listed is
 * not. */
static void plain_sets_image(void **state)
{
    (void)state;
    sim_geometry g = geometry(4, 2, SIM_POLICY_LRU, 0);
    sim_cache c;
    gs_rng rng;
    gs_rng_seed(&rng, 1);
    assert_int_equal(sim_cache_init(&c, &g), 0);
    sim_cache_access(&c, 1 * BLOCK, true, &rng, NULL);     /* set 1 */
    sim_cache_access(&c, 5 * BLOCK, true, &rng, NULL);     /* set 1 */
    sim_cache_access(&c, 3 * BLOCK, true, &rng, NULL);     /* set 3 */
    assert_int_equal(sim_cache_image_begin(&c), 0);
    sim_cache_image_add(&c, 1 * BLOCK);
    sim_cache_image_add(&c, 3 * BLOCK);
    unsigned char *image = malloc(sim_cache_image_bytes(&c));
    assert_non_null(image);
    sim_cache_save(&c, image);
    sim_cache_access(&c, 2 * BLOCK, true, &rng, NULL);     /* set 2, not listed */
    sim_cache_access(&c, 3 * BLOCK, true, &rng, NULL);     /* set 3's newest: remembered again */
    assert_true(sim_cache_same(&c, image));
    sim_cache_access(&c, 1 * BLOCK, true, &rng, NULL);     /* set 1's order */
    assert_false(sim_cache_same(&c, image));
    sim_cache_access(&c, 3 * BLOCK, true, &rng, NULL);
    sim_cache_save(&c, image);
    sim_cache_access(&c, 3 * BLOCK + BLOCK / 2, true, &rng, NULL);   /* set 3's masks alone */
    assert_false(sim_cache_same(&c, image));
    sim_cache_save(&c, image);
    sim_cache_access(&c, 7 * BLOCK, true, &rng, NULL);     /* set 3: a tag */
    assert_false(sim_cache_same(&c, image));
    free(image);
    sim_cache_free(&c);
    sim_geometry_free(&g);
}

/* Hits that reorder the data-line list and nothing else (one way per set, the same newest and
 * oldest line, the same last block) are seen. */
static void data_line_order_is_seen(void **state)
{
    (void)state;
    sim_geometry g = geometry(4, 1, SIM_POLICY_LRU, 4);
    sim_cache c;
    gs_rng rng;
    gs_rng_seed(&rng, 1);
    assert_int_equal(sim_cache_init(&c, &g), 0);
    assert_int_equal(sim_cache_image_begin(&c), 0);
    for (uint64_t b = 0; b < 4; b++) {
        sim_cache_image_add(&c, b * BLOCK);
        sim_cache_access(&c, b * BLOCK, true, &rng, NULL);  /* data, newest first: 3 2 1 0 */
    }
    unsigned char *image = malloc(sim_cache_image_bytes(&c));
    assert_non_null(image);
    sim_cache_save(&c, image);
    static const uint64_t hits[] = {2, 1, 3};              /* now 3 1 2 0 */
    for (int i = 0; i < 3; i++)
        assert_int_equal(sim_cache_access(&c, hits[i] * BLOCK, true, &rng, NULL), SIM_HIT);
    assert_false(sim_cache_same(&c, image));
    free(image);
    sim_cache_free(&c);
    sim_geometry_free(&g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(scanned_sets_repeat),
        cmocka_unit_test(indexed_sets_repeat),
        cmocka_unit_test(changes_are_seen),
        cmocka_unit_test(plain_sets_image),
        cmocka_unit_test(data_line_order_is_seen),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
