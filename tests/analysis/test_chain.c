/* Tests of the chain builders (src/analysis/chain.c): stride walks, Sattolo single cycles (every
 * element once, repeatable from a seed, uniform successor), and bad input. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>

#include "analysis/chain.h"

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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(stride_walk_is_listing_3),
        cmocka_unit_test(bad_input_is_refused),
        cmocka_unit_test(sattolo_is_one_cycle),
        cmocka_unit_test(sattolo_repeats_with_seed),
        cmocka_unit_test(sattolo_successor_is_uniform),
        cmocka_unit_test(one_element),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
