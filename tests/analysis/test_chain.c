/* Tests of the chain builders (src/analysis/chain.c): stride walks, Sattolo single cycles (every
 * element once, repeatable from a seed, uniform successor, every cycle as often, the textbook
 * shuffle's chain exactly), the unbiased bounded draw, and bad input. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>

#include "analysis/chain.h"
#include "probes/chain_ahead.h"

static void stride_walk_is_listing_3(void **state)
{
    (void)state;
    uint64_t c[5];
    assert_int_equal(gs_chain_stride(5, 128, c), 0);
    for (int i = 0; i < 5; i++)
        assert_int_equal(c[i], (uint64_t)i * 128);
    assert_true(gs_chain_valid(c, 5, 4, 5 * 128));
    assert_false(gs_chain_valid(c, 5, 4, 4 * 128));   /* last element outside the footprint */
}

static void bad_input_is_refused(void **state)
{
    (void)state;
    uint64_t c[2];
    gs_rng r;
    gs_rng_seed(&r, 1);
    assert_int_equal(gs_chain_stride(0, 4, c), -1);
    assert_int_equal(gs_chain_stride(2, 0, c), -1);
    assert_int_equal(gs_chain_stride(3, (UINT64_MAX / 2) + 1, c), -1);  /* 2 x 2^63 overflows */
    assert_int_equal(gs_chain_sattolo(&r, 0, 4, c), -1);
    assert_int_equal(gs_chain_sattolo(&r, 2, 0, c), -1);
    assert_false(gs_chain_valid(c, 0, 4, 64));
}

static void sattolo_is_one_cycle(void **state)
{
    (void)state;
    enum { N = 1000 };
    uint64_t *c = malloc(N * sizeof *c);
    gs_rng r;
    gs_rng_seed(&r, 42);
    assert_int_equal(gs_chain_sattolo(&r, N, 8, c), 0);
    assert_int_equal(c[0], 0);
    assert_true(gs_chain_valid(c, N, 8, N * 8));       /* distinct: every element once */
    /* a random order, not the stride walk */
    int in_place = 0;
    for (int i = 0; i < N; i++)
        in_place += c[i] == (uint64_t)i * 8;
    assert_true(in_place < N / 10);
    free(c);
}

static void sattolo_repeats_with_seed(void **state)
{
    (void)state;
    uint64_t a[64], b[64], d[64];
    gs_rng r;
    gs_rng_seed(&r, 7);
    gs_chain_sattolo(&r, 64, 4, a);
    gs_rng_seed(&r, 7);
    gs_chain_sattolo(&r, 64, 4, b);
    gs_rng_seed(&r, 8);
    gs_chain_sattolo(&r, 64, 4, d);
    int same = 1, differ = 0;
    for (int i = 0; i < 64; i++) {
        same &= a[i] == b[i];
        differ |= a[i] != d[i];
    }
    assert_true(same);
    assert_true(differ);
}

/* Sattolo's cycles are uniform over the (n-1)! cyclic orders: element 0's successor is uniform
 * over the other n-1 elements. */
static void sattolo_successor_is_uniform(void **state)
{
    (void)state;
    enum { N = 5, TRIALS = 20000 };
    uint64_t c[N];
    unsigned hist[N] = {0};
    gs_rng r;
    gs_rng_seed(&r, 3);
    for (int t = 0; t < TRIALS; t++) {
        gs_chain_sattolo(&r, N, 1, c);
        hist[c[1]]++;
    }
    assert_int_equal(hist[0], 0);
    for (int i = 1; i < N; i++)
        assert_in_range(hist[i], TRIALS / 4 - 400, TRIALS / 4 + 400);
}

static void one_element(void **state)
{
    (void)state;
    uint64_t c[1];
    gs_rng r;
    gs_rng_seed(&r, 1);
    assert_int_equal(gs_chain_sattolo(&r, 1, 64, c), 0);
    assert_int_equal(c[0], 0);
}

/* The textbook algorithm (Durstenfeld's shuffle of elements 1 .. n-1, one draw per swap, i =
 * n-1 .. 2, j uniform in 1 .. i) with a textbook unbiased draw: the chain builder, which draws
 * ahead, must give exactly this chain. */
static uint64_t reference_below(gs_rng *r, uint64_t bound)
{
    uint64_t limit = UINT64_MAX - UINT64_MAX % bound, x;
    do
        x = gs_rng_next(r);
    while (x >= limit);
    return x % bound;
}

static void reference_order(gs_rng *r, uint64_t n, uint64_t stride, uint64_t *out)
{
    for (uint64_t i = 0; i < n; i++)
        out[i] = i * stride;
    for (uint64_t i = n - 1; i > 1; i--) {
        uint64_t j = 1 + reference_below(r, i), t = out[i];
        out[i] = out[j];
        out[j] = t;
    }
}

static void chain_matches_textbook(void **state)
{
    (void)state;
    /* one element, two, three, a few, the draws ahead and one or two more, more, many */
    static const uint64_t counts[] = {1, 2, 3, 17, 18, 19, 4095, 4097, 100003};
    uint64_t *got = malloc(100003 * sizeof *got), *want = malloc(100003 * sizeof *want);
    assert_non_null(got);
    assert_non_null(want);
    for (size_t k = 0; k < sizeof counts / sizeof counts[0]; k++) {
        gs_rng r1, r2;
        gs_rng_seed(&r1, 11 + k);
        gs_rng_seed(&r2, 11 + k);
        assert_int_equal(gs_chain_sattolo(&r1, counts[k], 32, got), 0);
        reference_order(&r2, counts[k], 32, want);
        for (uint64_t i = 0; i < counts[k]; i++)
            assert_int_equal(got[i], want[i]);
        assert_int_equal(gs_rng_next(&r1), gs_rng_next(&r2));   /* the same draws were used */
    }
    free(got);
    free(want);
}

/* A uniform cycle read from element 0: each of the (n-1)! cycles of n = 4 elements, as Sattolo's
 * algorithm draws them, comes as often (6 orders, 24000 chains: 4000 each, sd 58). */
static void every_cycle_as_often(void **state)
{
    (void)state;
    enum { N = 4, TRIALS = 24000 };
    unsigned seen[64] = {0};
    gs_rng r;
    gs_rng_seed(&r, 9);
    for (int t = 0; t < TRIALS; t++) {
        uint64_t c[N];
        assert_int_equal(gs_chain_sattolo(&r, N, 1, c), 0);
        seen[c[1] * 16 + c[2] * 4 + c[3]]++;
    }
    unsigned orders = 0;
    for (unsigned k = 0; k < 64; k++) {
        if (!seen[k])
            continue;
        orders++;
        assert_in_range(seen[k], 4000 - 300, 4000 + 300);
    }
    assert_int_equal(orders, 6);
}

/* gs_rng_below skips the rejection test's division when no draw can be rejected: the same
 * numbers as the textbook draw, for bounds small and near 2^64 (where rejections happen). */
static void below_matches_textbook(void **state)
{
    (void)state;
    static const uint64_t bounds[] = {1, 2, 3, 1000, (1ull << 63) + 1, UINT64_MAX / 3 * 2,
                                      UINT64_MAX};
    for (size_t k = 0; k < sizeof bounds / sizeof bounds[0]; k++) {
        gs_rng r1, r2;
        gs_rng_seed(&r1, 5);
        gs_rng_seed(&r2, 5);
        for (int i = 0; i < 2000; i++)
            assert_int_equal(gs_rng_below(&r1, bounds[k]), reference_below(&r2, bounds[k]));
    }
}

/* Chains drawn ahead on a thread, each started while the one before is held, are the chains
 * gs_chain_sattolo draws one after another from the same seed; out of memory gives NULL and
 * leaves the next start usable; a take with nothing started gives NULL. */
static void ahead_matches_one_after_another(void **state)
{
    (void)state;
    static const uint64_t counts[] = {1, 7, 4096, 100003, 3};
    enum { N = sizeof counts / sizeof counts[0] };
    gs_rng a, b;
    gs_rng_seed(&a, 42);
    gs_rng_seed(&b, 42);
    gs_chain_ahead next;
    gs_chain_ahead_start(&next, &a, counts[0], 64);
    for (int i = 0; i < N; i++) {
        uint64_t *got = gs_chain_ahead_take(&next);
        if (i + 1 < N)
            gs_chain_ahead_start(&next, &a, counts[i + 1], 64);
        uint64_t *want = malloc(counts[i] * sizeof *want);
        assert_non_null(got);
        assert_non_null(want);
        assert_int_equal(gs_chain_sattolo(&b, counts[i], 64, want), 0);
        assert_memory_equal(got, want, counts[i] * sizeof *want);
        free(got);
        free(want);
    }
    assert_null(gs_chain_ahead_take(&next));
    gs_chain_ahead_start(&next, &a, UINT64_MAX / 4, 64);
    assert_null(gs_chain_ahead_take(&next));
    gs_chain_ahead_start(&next, &a, 5, 64);
    uint64_t *five = gs_chain_ahead_take(&next);
    assert_non_null(five);
    assert_true(gs_chain_valid(five, 5, 8, 5 * 64));
    free(five);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(stride_walk_is_listing_3),
        cmocka_unit_test(bad_input_is_refused),
        cmocka_unit_test(sattolo_is_one_cycle),
        cmocka_unit_test(sattolo_repeats_with_seed),
        cmocka_unit_test(sattolo_successor_is_uniform),
        cmocka_unit_test(one_element),
        cmocka_unit_test(chain_matches_textbook),
        cmocka_unit_test(every_cycle_as_often),
        cmocka_unit_test(below_matches_textbook),
        cmocka_unit_test(ahead_matches_one_after_another),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
