/* Unit tests of src/analysis/interleave.c: bandwidth curves of a strided read computed from a
 * known channel mapping (plain interleaving over 8 channels of 256 B, over 6 channels of 512 B,
 * a hashed mapping), with and without noise, and bad input. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gs_test.h"

#include "analysis/interleave.h"
#include "util/rng.h"

#define MAX 64
static double stride[MAX], gbps[MAX];

/* Strides 32 B .. 1 MB: powers of two and 3, 5, 7 times them, ascending. */
static size_t strides(void)
{
    size_t n = 0;
    for (int k = 5; k <= 20; k++)
        for (int m = 1; m <= 7; m += 2) {
            double s = ldexp(m, k);
            if (s <= 1048576 && n < MAX)
                stride[n++] = s;
        }
    for (size_t i = 1; i < n; i++)   /* insertion sort */
        for (size_t k = i; k > 0 && stride[k] < stride[k - 1]; k--) {
            double t = stride[k];
            stride[k] = stride[k - 1], stride[k - 1] = t;
        }
    return n;
}

/* Bandwidth of 32-byte chunks at each stride over channels (modulo or xor), noise relative. */
static size_t curve(unsigned channels, uint64_t g, bool xor_hash, double noise, gs_rng *r)
{
    size_t n = strides();
    for (size_t i = 0; i < n; i++) {
        uint64_t count[64] = {0}, busiest = 0, total = 0;
        for (uint64_t a = 0; a < 4096; a++) {
            uint64_t block = a * (uint64_t)stride[i] / g;
            unsigned ch = (unsigned)(block % channels);
            if (xor_hash)
                for (ch = 0; block; block >>= 3)
                    ch ^= (unsigned)(block & 7);
            count[ch]++, total++;
            busiest = count[ch] > busiest ? count[ch] : busiest;
        }
        gbps[i] = 3000.0 * (double)total / ((double)channels * (double)busiest);
        if (r)
            gbps[i] *= 1 + noise * (2 * gs_rng_unit(r) - 1);
    }
    return n;
}

static void test_plain_8x256(void **state)
{
    (void)state;
    gs_interleave o;
    size_t n = curve(8, 256, false, 0, NULL);
    assert_int_equal(gs_interleave_infer(stride, gbps, n, &o), 0);
    assert_true(o.collapsed && o.span_found && o.granularity_found && o.channels_found);
    assert_double_equal(o.span_bytes, 2048, 0);
    assert_double_equal(o.interleave_bytes, 256, 0);
    assert_double_equal(o.channels, 8, 0);
    assert_double_equal(o.drop, 8, 1e-9);
}

static void test_plain_6x512_needs_odd_strides(void **state)
{
    (void)state;
    gs_interleave o;
    size_t n = curve(6, 512, false, 0, NULL);
    assert_int_equal(gs_interleave_infer(stride, gbps, n, &o), 0);
    assert_true(o.channels_found);
    assert_double_equal(o.span_bytes, 3072, 0);
    assert_double_equal(o.interleave_bytes, 512, 0);
    assert_double_equal(o.channels, 6, 0);
}

static void test_noisy(void **state)
{
    (void)state;
    gs_rng r;
    gs_rng_seed(&r, 3);
    gs_interleave o;
    size_t n = curve(8, 1024, false, 0.08, &r);
    assert_int_equal(gs_interleave_infer(stride, gbps, n, &o), 0);
    assert_true(o.channels_found);
    assert_double_equal(o.span_bytes, 8192, 0);
    assert_double_equal(o.interleave_bytes, 1024, 0);
}

static void test_hashed(void **state)
{
    (void)state;
    gs_interleave o;
    size_t n = curve(8, 256, true, 0, NULL);
    assert_int_equal(gs_interleave_infer(stride, gbps, n, &o), 0);
    assert_false(o.collapsed);
    assert_false(o.span_found || o.granularity_found || o.channels_found);
    assert_non_null(strstr(o.why, "hashed"));
}

static void test_not_periodic(void **state)
{
    (void)state;
    double s[] = {256, 512, 1024, 2048}, g[] = {3000, 3000, 300, 2900};
    gs_interleave o;
    assert_int_equal(gs_interleave_infer(s, g, 4, &o), 0);
    assert_true(o.collapsed);
    assert_false(o.span_found);
}

static void test_bad_input(void **state)
{
    (void)state;
    double s[] = {256, 512, 512}, g[] = {1, 2, 3}, bad[] = {1, NAN, 3};
    gs_interleave o;
    assert_int_equal(gs_interleave_infer(s, g, 2, &o), -1);
    assert_int_equal(gs_interleave_infer(s, g, 3, &o), -1);          /* not ascending */
    s[2] = 1024;
    assert_int_equal(gs_interleave_infer(s, bad, 3, &o), -1);
    assert_int_equal(gs_interleave_infer(s, g, 3, &o), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_plain_8x256),
        cmocka_unit_test(test_plain_6x512_needs_odd_strides),
        cmocka_unit_test(test_noisy),
        cmocka_unit_test(test_hashed),
        cmocka_unit_test(test_not_periodic),
        cmocka_unit_test(test_bad_input),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
