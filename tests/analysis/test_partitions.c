/* Unit tests of src/analysis/partitions.c: two-cluster split of latencies, and the GF(2) fit of
 * a near/far hash from synthetic addresses whose hash is known (a pure XOR of bits, and one with
 * a secret constant per 2 MB page), with and without mislabelled samples. */
#include <math.h>
#include <stdlib.h>

#include "gs_test.h"

#include "analysis/partitions.h"
#include "util/rng.h"

#define N 20000
static uint64_t offs[N];
static bool far[N];
static double lat[N];

static const uint64_t true_mask = (1ull << 12) | (1ull << 14) | (1ull << 17) | (1ull << 20) |
                                  (1ull << 23);

/* Random 128-byte lines in 32 MB; far from the mask, XOR a per-page secret when page_shift > 0. */
static void make(gs_rng *r, uint64_t mask, unsigned page_shift, double noise_rate)
{
    uint64_t secret = gs_rng_next(r);
    for (size_t i = 0; i < N; i++) {
        offs[i] = gs_rng_below(r, (32ull << 20) / 128) * 128;
        unsigned p = (unsigned)__builtin_parityll(offs[i] & mask);
        if (page_shift)
            p ^= (unsigned)((secret >> ((offs[i] >> page_shift) % 64)) & 1u);
        far[i] = p & 1u;
        if (gs_rng_unit(r) < noise_rate)
            far[i] = !far[i];
        lat[i] = (far[i] ? 520 : 283) + (double)gs_rng_below(r, 9);
    }
}

static void test_clusters(void **state)
{
    (void)state;
    gs_rng r;
    gs_rng_seed(&r, 1);
    make(&r, true_mask, 0, 0);
    gs_two_clusters c;
    assert_int_equal(gs_cluster_two(lat, N, 0.02, &c), 0);
    assert_true(c.separated);
    assert_true(fabs(c.low - 287) < 3 && fabs(c.high - 524) < 3);
    assert_true(c.threshold > 300 && c.threshold < 500);
    assert_int_equal(c.n_low + c.n_high, N);
    /* One level with jitter only: not separated. */
    for (size_t i = 0; i < N; i++)
        lat[i] = 283 + (double)gs_rng_below(&r, 9);
    assert_int_equal(gs_cluster_two(lat, N, 0.02, &c), 0);
    assert_false(c.separated);
    /* All equal. */
    for (size_t i = 0; i < N; i++)
        lat[i] = 100;
    assert_int_equal(gs_cluster_two(lat, N, 0.02, &c), 0);
    assert_false(c.separated);
    lat[3] = NAN;
    assert_int_equal(gs_cluster_two(lat, N, 0.02, &c), -1);
    assert_int_equal(gs_cluster_two(lat, 4, 0.02, &c), -1);
}

static void test_pure_xor_hash(void **state)
{
    (void)state;
    gs_rng r;
    gs_rng_seed(&r, 2);
    make(&r, true_mask, 0, 0);
    uint64_t mask = 0;
    double a = gs_partition_fit(offs, far, N, NULL, 7, 25, &mask);
    assert_double_equal(a, 1.0, 1e-12);
    assert_true(mask == true_mask);
    double agreement = 0;
    assert_int_equal(gs_partition_fit_search(offs, far, N, NULL, 7, 16, 25, 0.95, &mask,
                                             &agreement), 25);
    assert_true(mask == true_mask);
}

/* A secret constant per 2 MB page: the largest consistent page is 2 MB, and the bits below it
 * are found. */
static void test_hash_with_page_constants(void **state)
{
    (void)state;
    gs_rng r;
    gs_rng_seed(&r, 3);
    make(&r, true_mask, 21, 0);
    uint64_t mask = 0;
    double agreement = 0;
    int shift = gs_partition_fit_search(offs, far, N, NULL, 7, 16, 25, 0.99, &mask, &agreement);
    assert_int_equal(shift, 21);
    assert_true(mask == (true_mask & ((1ull << 21) - 1)));
    assert_true(agreement >= 0.99);
}

/* 1% mislabelled samples, used last (the prober orders by confidence): still the right mask. */
static void test_noise_last(void **state)
{
    (void)state;
    gs_rng r;
    gs_rng_seed(&r, 4);
    make(&r, true_mask, 0, 0);
    size_t *order = malloc(N * sizeof *order), k = 0;
    for (size_t i = 0; i < N; i++)
        if (i % 100 == 0)
            far[i] = !far[i];
    for (size_t i = 0; i < N; i++)
        if (i % 100)
            order[k++] = i;
    for (size_t i = 0; i < N; i += 100)
        order[k++] = i;
    uint64_t mask = 0;
    double a = gs_partition_fit(offs, far, N, order, 7, 25, &mask);
    assert_true(mask == true_mask);
    assert_true(a > 0.985 && a < 0.995);
    free(order);
}

/* No structure (random labels): no page size explains it. */
static void test_random_labels(void **state)
{
    (void)state;
    gs_rng r;
    gs_rng_seed(&r, 5);
    make(&r, true_mask, 0, 0);
    for (size_t i = 0; i < N; i++)
        far[i] = gs_rng_below(&r, 2);
    uint64_t mask = 0;
    double agreement = 0;
    assert_int_equal(gs_partition_fit_search(offs, far, N, NULL, 7, 16, 25, 0.95, &mask,
                                             &agreement), -1);
    assert_true(agreement < 0.6);
    assert_true(gs_partition_fit(offs, far, 0, NULL, 7, 25, &mask) < 0);
    assert_true(gs_partition_fit(offs, far, N, NULL, 25, 25, &mask) < 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_clusters),
        cmocka_unit_test(test_pure_xor_hash),
        cmocka_unit_test(test_hash_with_page_constants),
        cmocka_unit_test(test_noise_last),
        cmocka_unit_test(test_random_labels),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
