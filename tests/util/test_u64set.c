/* Tests of src/util/u64set.c: membership after adds, repeats refused, the value with no slot of
 * its own (UINT64_MAX) and 0 alike, a set filled to its capacity, and gs_u64_repeats on lists
 * with and without a repeat. */
#include <stdint.h>

#include "gs_test.h"

#include "util/u64set.h"

static void test_add_has(void **state)
{
    (void)state;
    gs_u64set s;
    assert_int_equal(gs_u64set_init(&s, 4), 0);
    assert_false(gs_u64set_has(&s, 0));
    assert_true(gs_u64set_add(&s, 0));
    assert_true(gs_u64set_add(&s, UINT64_MAX));
    assert_true(gs_u64set_add(&s, 512));
    assert_false(gs_u64set_add(&s, 512));
    assert_false(gs_u64set_add(&s, UINT64_MAX));
    assert_true(gs_u64set_has(&s, 0) && gs_u64set_has(&s, 512) && gs_u64set_has(&s, UINT64_MAX));
    assert_false(gs_u64set_has(&s, 504) || gs_u64set_has(&s, UINT64_MAX - 1));
    gs_u64set_free(&s);
}

/* Filled to capacity with values that share their low bits, every one still found. */
static void test_full(void **state)
{
    (void)state;
    gs_u64set s;
    assert_int_equal(gs_u64set_init(&s, 1000), 0);
    for (uint64_t i = 0; i < 1000; i++)
        assert_true(gs_u64set_add(&s, i << 21));
    for (uint64_t i = 0; i < 1000; i++)
        assert_true(gs_u64set_has(&s, i << 21) && !gs_u64set_has(&s, (i << 21) + 8));
    gs_u64set_free(&s);
}

static void test_repeats(void **state)
{
    (void)state;
    const uint64_t distinct[] = {0, 256, 512, 768, 2097152};
    const uint64_t twice[] = {0, 256, 512, 768, 512};
    assert_int_equal(gs_u64_repeats(distinct, 5), 0);
    assert_int_equal(gs_u64_repeats(twice, 5), 1);
    assert_int_equal(gs_u64_repeats(twice, 4), 0);
    assert_int_equal(gs_u64_repeats(NULL, 0), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_add_has),
        cmocka_unit_test(test_full),
        cmocka_unit_test(test_repeats),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
