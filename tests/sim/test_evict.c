/* Tests of the simulator's evict operation (src/sim/evict.c) on test models whose L2 is known:
 * ways lines of one set evict a target and one line fewer does not (LRU, bit-select index), each
 * repetition records the target's own hit and its probe, a far line hits 240 cycles later than a
 * near one (partitions), the L2's counted lookups of the probes (hits whatever the partition,
 * misses where the pool evicted; refused on a model without counters), and plans the operation
 * refuses. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "gs_test.h"

#include "sim/model.h"
#include "sim/sim.h"

#define SET_SPAN (1024ull * 128)   /* l2_modulo_lru_2mb: 1024 sets of 128-B lines */
#define WAYS 16

static gs_sim_model *load(const char *name)
{
    char path[512];
    gs_sim_model *m = NULL;
    gs_error err;
    gs_error_clear(&err);
    snprintf(path, sizeof path, "%s/tests/models/%s.json", GS_SOURCE_DIR, name);
    assert_int_equal(gs_sim_model_load(path, 1, &m, &err), 0);
    return m;
}

/* The target's probes after a pool of n lines of its set, 3 repetitions; hits too. */
static void run(gs_sim_model *m, size_t n, double *hit, double *probe)
{
    uint64_t target = 3 * 128, pool[WAYS + 1];
    for (size_t i = 0; i < n; i++)
        pool[i] = target + (i + 1) * SET_SPAN;
    gs_evict_plan p = {.footprint_bytes = 64ull << 20, .targets = &target, .n_targets = 1,
                       .pool = pool, .n_pool = n, .warm_passes = 1, .pool_passes = 2,
                       .repeats = 3};
    gs_evict_result r = {.hit_cycles = hit, .probe_cycles = probe};
    gs_error err;
    gs_error_clear(&err);
    assert_int_equal(sim_evict(m, &p, &r, &err), 0);
    assert_int_equal(r.n, 3);
    assert_int_equal(r.sm_moves, 0);
}

static void test_ways_evict(void **state)
{
    (void)state;
    gs_sim_model *m = load("l2_modulo_lru_2mb");
    double hit[3], probe[3];
    run(m, WAYS, hit, probe);                    /* the set's ways: the target is evicted */
    for (int r = 0; r < 3; r++) {
        assert_true(hit[r] >= 200 && hit[r] <= 203);     /* L2 hit, jitter 0..3 */
        assert_true(probe[r] >= 450);                    /* DRAM */
    }
    run(m, WAYS - 1, hit, probe);                /* one fewer: it stays */
    for (int r = 0; r < 3; r++)
        assert_true(probe[r] <= 203);
    gs_sim_model_free(m);
}

static void test_far_hit(void **state)
{
    (void)state;
    /* l2_hashed_partitioned: the far partition is the parity of address bits 12, 13, 16, 17,
     * 19; its hits cost 240 cycles more */
    gs_sim_model *m = load("l2_hashed_partitioned");
    uint64_t targets[2] = {0, 1ull << 12};
    double hit[2], probe[2];
    gs_evict_plan p = {.footprint_bytes = 16ull << 20, .targets = targets, .n_targets = 2,
                       .pool_passes = 1, .repeats = 1};
    gs_evict_result r = {.hit_cycles = hit, .probe_cycles = probe};
    gs_error err;
    gs_error_clear(&err);
    assert_int_equal(sim_evict(m, &p, &r, &err), 0);
    assert_true(hit[0] >= 200 && hit[0] <= 203);
    assert_true(hit[1] >= 440 && hit[1] <= 443);
    assert_true(probe[1] >= 440 && probe[1] <= 443);     /* no pool: kept, at its own hit */
    gs_sim_model_free(m);
}

/* count_l2 on l2_hashed_partitioned (counters switched on here, as a model's
 * device.l2_counters does): a near and a far target, each a counted hit with no pool, whatever
 * their latency; after a pool of the near target's set's ways, its probes are counted misses. */
static void test_counted(void **state)
{
    (void)state;
    gs_sim_model *m = load("l2_hashed_partitioned");
    /* the XOR index of bits 7+i ^ 16+i ^ 25+i: moving bits 16+i and 25+i together keeps a set */
    uint64_t targets[2] = {0, 1ull << 12}, pool[16];
    double hit[2 * 4], probe[2 * 4];
    gs_evict_plan p = {.footprint_bytes = 1ull << 32, .targets = targets, .n_targets = 2,
                       .pool_passes = 1, .repeats = 4, .count_l2 = true};
    gs_evict_result r = {.hit_cycles = hit, .probe_cycles = probe};
    gs_error err;
    gs_error_clear(&err);
    assert_int_equal(sim_evict(m, &p, &r, &err), GS_ERR_UNSUPPORTED);  /* no counters */
    assert_non_null(strstr(err.msg, "no L2 counters"));
    m->info.counters = true;
    assert_int_equal(sim_evict(m, &p, &r, &err), 0);
    assert_int_equal(r.l2_hit_sectors, 8);              /* 2 targets x 4 repetitions */
    assert_int_equal(r.l2_miss_sectors, 0);
    assert_true(probe[1] >= 440);                       /* the far one as slow as it is */
    for (uint64_t i = 0; i < 16; i++)                   /* 16 ways of target 0's set */
        pool[i] = ((i + 1) << 16) | ((i + 1) << 25);
    /* one repetition from cold (a later one finds the pool's lines in the set already) */
    p.n_targets = 1, p.pool = pool, p.n_pool = 16, p.repeats = 1;
    assert_int_equal(sim_evict(m, &p, &r, &err), 0);
    assert_int_equal(r.l2_hit_sectors, 0);              /* 16 new lines evict it */
    assert_int_equal(r.l2_miss_sectors, 1);
    p.n_pool = 15;
    assert_int_equal(sim_evict(m, &p, &r, &err), 0);
    assert_int_equal(r.l2_hit_sectors, 1);              /* one fewer: kept */
    assert_int_equal(r.l2_miss_sectors, 0);
    gs_sim_model_free(m);
}

static void test_refused(void **state)
{
    (void)state;
    gs_sim_model *m = load("l2_modulo_lru_2mb");
    uint64_t target = 4, far = 64ull << 20;
    double hit[1], probe[1];
    gs_evict_plan p = {.footprint_bytes = 64ull << 20, .targets = &target, .n_targets = 1,
                       .repeats = 1};
    gs_evict_result r = {.hit_cycles = hit, .probe_cycles = probe};
    gs_error err;
    gs_error_clear(&err);
    assert_int_equal(sim_evict(m, &p, &r, &err), GS_ERR_USAGE);     /* not an 8-byte word */
    target = 0;
    p.pool = &far, p.n_pool = 1;
    assert_int_equal(sim_evict(m, &p, &r, &err), GS_ERR_USAGE);     /* past the footprint */
    p.n_pool = 0, p.repeats = 0;
    assert_int_equal(sim_evict(m, &p, &r, &err), GS_ERR_USAGE);     /* no repetition */
    gs_sim_model_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ways_evict),
        cmocka_unit_test(test_far_hit),
        cmocka_unit_test(test_counted),
        cmocka_unit_test(test_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
