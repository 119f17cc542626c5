/* Unit tests of src/analysis/gf2.c: reduction and null space on small hand-made cases, and set
 * index functions recovered from synthetic eviction sets whose index is known: bit-select, an XOR
 * hash of bit groups, and a modulo-370 index that no linear function explains. */
#include <math.h>
#include <stdlib.h>

#include "gs_test.h"

#include "analysis/gf2.h"
#include "util/rng.h"

#define LINE_SHIFT 7
#define NADDR 3000
static uint64_t addr[NADDR];
static int32_t group[NADDR];

static void test_reduce_and_span(void **state)
{
    (void)state;
    uint64_t v[] = {0x6, 0x3, 0x5, 0x8};   /* 0x5 = 0x6 ^ 0x3 */
    size_t r = gs_gf2_reduce(v, 4);
    assert_int_equal(r, 3);
    assert_true(v[0] == 0x8);            /* sorted by pivot, descending; pivots cleared */
    assert_true(gs_gf2_in_span(v, r, 0x5));
    assert_true(gs_gf2_in_span(v, r, 0xe));
    assert_false(gs_gf2_in_span(v, r, 0x10));
    assert_int_equal(gs_gf2_reduce(v, 0), 0);
}

static void test_null_space(void **state)
{
    (void)state;
    /* differences 0b0011 and 0b1100 inside bits 0..3: masks orthogonal to both are spanned by
     * 0b0011 and 0b1100 themselves */
    uint64_t d[] = {0x3, 0xc}, m[8];
    size_t k = gs_gf2_null_space(d, 2, 0xf, m, 8);
    assert_int_equal(k, 2);
    for (size_t i = 0; i < k; i++)
        for (size_t j = 0; j < 2; j++)
            assert_int_equal(gs_gf2_parity(m[i] & d[j]), 0);
    /* nothing constrains: every bit is its own mask */
    assert_int_equal(gs_gf2_null_space(d, 0, 0xf0, m, 8), 4);
    /* room for fewer masks than the dimension: the dimension is still returned */
    assert_int_equal(gs_gf2_null_space(d, 0, 0xff, m, 2), 8);
}

/* Random lines in 2 MB grouped by their set under index(); returns the count. */
static size_t make(gs_rng *r, uint64_t (*index)(uint64_t), size_t n)
{
    for (size_t i = 0; i < n; i++) {
        addr[i] = gs_rng_below(r, (1u << 21) >> LINE_SHIFT) << LINE_SHIFT;
        group[i] = (int32_t)index(addr[i]);
    }
    return n;
}

static uint64_t bit_select(uint64_t a) { return (a >> 7) & 0x7f; }
static uint64_t xor_hash(uint64_t a) { return ((a >> 7) ^ (a >> 14)) & 0x7f; }
static uint64_t modulo_370(uint64_t a) { return (a >> 7) % 370; }

static void test_bit_select(void **state)
{
    (void)state;
    gs_rng r;
    gs_rng_seed(&r, 3);
    size_t n = make(&r, bit_select, 2000);
    gs_gf2_fit f;
    assert_int_equal(gs_gf2_solve_sets(addr, group, n, ~0ull, 0, &f), 0);
    assert_true(f.consistent);
    assert_int_equal(f.count, 7);
    for (size_t i = 0; i < f.count; i++)   /* single bits 13 .. 7, highest first */
        assert_true(f.masks[i] == 1ull << (13 - i));
}

static void test_xor_hash(void **state)
{
    (void)state;
    gs_rng r;
    gs_rng_seed(&r, 4);
    size_t n = make(&r, xor_hash, 2000);
    gs_gf2_fit f;
    assert_int_equal(gs_gf2_solve_sets(addr, group, n, ~0ull, 0, &f), 0);
    assert_true(f.consistent);
    assert_int_equal(f.count, 7);
    /* the masks span exactly {bit k ^ bit k+7, k = 7..13} */
    uint64_t want[7];
    for (unsigned k = 0; k < 7; k++)
        want[k] = (1ull << (7 + k)) | (1ull << (14 + k));
    uint64_t both[14];
    for (unsigned k = 0; k < 7; k++) {
        both[k] = want[k];
        both[7 + k] = f.masks[k];
    }
    assert_int_equal(gs_gf2_reduce(both, 14), 7);
    /* held-out pairs are predicted */
    uint64_t a[200], b[200];
    bool same[200];
    for (size_t i = 0; i < 200; i++) {
        a[i] = gs_rng_below(&r, 1u << 13) << 7;
        b[i] = i % 2 ? a[i] ^ (want[i % 7] | (1ull << (7 + (i % 7)))) : a[i] ^ want[i % 7];
        same[i] = xor_hash(a[i]) == xor_hash(b[i]);
    }
    assert_double_equal(gs_gf2_predicts(f.masks, f.count, a, b, same, 200), 1.0, 1e-12);
}

static void test_modulo_not_linear(void **state)
{
    (void)state;
    gs_rng r;
    gs_rng_seed(&r, 5);
    size_t n = make(&r, modulo_370, NADDR);
    gs_gf2_fit f;
    assert_int_equal(gs_gf2_solve_sets(addr, group, n, ~0ull, 0, &f), 0);
    assert_false(f.consistent);
}

static void test_unknown_and_bad_input(void **state)
{
    (void)state;
    uint64_t a[] = {0, 128, 256};
    int32_t g[] = {-1, -1, -1};
    gs_gf2_fit f;
    assert_int_equal(gs_gf2_solve_sets(a, g, 3, ~0ull, 0, &f), -1);
    assert_int_equal(gs_gf2_solve_sets(a, g, 0, ~0ull, 0, &f), -1);
    int32_t one[] = {0, 0, -1};            /* a single group: nothing separates, not consistent */
    assert_int_equal(gs_gf2_solve_sets(a, one, 3, ~0ull, 0, &f), 0);
    assert_false(f.consistent);
    assert_int_equal(f.separate_checked, 0);
}

/* A fit whose masks are single bits is a bit selection (reported as bits, not "xor"); a span
 * with any mask of two bits is not, whatever basis it comes in. */
static void test_bit_selection(void **state)
{
    (void)state;
    gs_rng r;
    gs_rng_seed(&r, 6);
    size_t n = make(&r, bit_select, 2000);
    gs_gf2_fit f;
    assert_int_equal(gs_gf2_solve_sets(addr, group, n, ~0ull, 0, &f), 0);
    unsigned bits[64];
    assert_true(gs_gf2_bit_selection(f.masks, f.count, bits));
    for (unsigned i = 0; i < 7; i++)
        assert_int_equal(bits[i], 7 + i);
    n = make(&r, xor_hash, 2000);
    assert_int_equal(gs_gf2_solve_sets(addr, group, n, ~0ull, 0, &f), 0);
    assert_true(f.consistent);
    assert_false(gs_gf2_bit_selection(f.masks, f.count, bits));
    uint64_t unordered[] = {1ull << 9, 1ull << 12, 1ull << 7};
    assert_true(gs_gf2_bit_selection(unordered, 3, bits));
    assert_int_equal(bits[0], 7), assert_int_equal(bits[1], 9), assert_int_equal(bits[2], 12);
    assert_false(gs_gf2_bit_selection(unordered, 0, bits));
    uint64_t zero[] = {0};
    assert_false(gs_gf2_bit_selection(zero, 1, bits));
}

/* Verdict bands: apart when the gap beats twice the wider spread (write_noisy's walks: misses
 * 493.5-507.0, hits 324.9-336.7; cache_xor_random's partial misses 67.8-70.3 over hits at 31.5);
 * not when the bands touch, when the noise is as wide as the gap, or with one walk of a kind. */
static void test_bands_apart(void **state)
{
    (void)state;
    assert_true(gs_gf2_bands_apart(493.5, 507.0, 44, 324.9, 336.7, 78));
    assert_true(gs_gf2_bands_apart(67.8, 70.3, 21, 31.5, 31.5, 128));
    assert_false(gs_gf2_bands_apart(340.0, 520.0, 40, 300.0, 362.0, 80));  /* noise ~ gap */
    assert_false(gs_gf2_bands_apart(400.0, 420.0, 10, 330.0, 380.0, 10));  /* gap 20, spread 50 */
    assert_false(gs_gf2_bands_apart(500.0, 500.0, 1, 330.0, 331.0, 90));   /* one slow walk */
    assert_false(gs_gf2_bands_apart(500.0, 501.0, 30, 330.0, 331.0, 0));
    assert_false(gs_gf2_bands_apart(NAN, 501.0, 30, 330.0, 331.0, 30));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reduce_and_span), cmocka_unit_test(test_null_space),
        cmocka_unit_test(test_bit_select),      cmocka_unit_test(test_xor_hash),
        cmocka_unit_test(test_modulo_not_linear), cmocka_unit_test(test_unknown_and_bad_input),
        cmocka_unit_test(test_bit_selection),   cmocka_unit_test(test_bands_apart),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
