/* Unit tests of src/analysis/tlb_ladder.c: the verdict on a full rise as the stride doubles, the
 * LRU staircase past a set-associative level's entries (Fig. 11: ways + 1 misses per added
 * entry), and entries and ways fitted from steps made from known levels, with noise, with a
 * random policy's shallower staircase and with too few counts. */
#include <math.h>

#include "gs_test.h"

#include "analysis/tlb_ladder.h"

static void rise_verdicts(void **state)
{
    (void)state;
    assert_int_equal(gs_tlb_ladder_rise(47.0, 94.1, 0.05), GS_RISE_DOUBLED);
    assert_int_equal(gs_tlb_ladder_rise(94.0, 93.0, 0.05), GS_RISE_HELD);
    assert_int_equal(gs_tlb_ladder_rise(94.0, 13.0, 0.05), GS_RISE_BELOW);
    assert_int_equal(gs_tlb_ladder_rise(94.0, 0.0, 0.05), GS_RISE_BELOW);
    assert_int_equal(gs_tlb_ladder_rise(94.0, 140.0, 0.05), GS_RISE_OTHER);   /* 1.5 x */
    assert_int_equal(gs_tlb_ladder_rise(94.0, 300.0, 0.05), GS_RISE_OTHER);
    assert_int_equal(gs_tlb_ladder_rise(0.0, 10.0, 0.05), GS_RISE_OTHER);
    assert_int_equal(gs_tlb_ladder_rise(94.0, NAN, 0.05), GS_RISE_OTHER);
}

static void staircase_of_hopper(void **state)
{
    (void)state;
    /* 2048 entries in 256 sets of 8 ways, miss 94: the cards' steps at 16 MB, at 32 MB */
    assert_double_equal(gs_tlb_staircase_step(2048, 8, 94, 2048), 0, 1e-12);
    assert_double_equal(gs_tlb_staircase_step(2048, 8, 94, 2080), 94.0 * 9 * 32 / 2080, 1e-9);
    assert_double_equal(gs_tlb_staircase_step(2048, 8, 94, 2304), 94, 1e-9);
    assert_double_equal(gs_tlb_staircase_step(2048, 8, 94, 4096), 94, 1e-9);
    /* fully associative: a cliff at the entries */
    assert_double_equal(gs_tlb_staircase_step(512, 512, 200, 513), 200, 1e-9);
}

static void fit_exact_and_noisy(void **state)
{
    (void)state;
    const uint64_t e = 2048, w = 8;
    double n[3] = {2112, 2144, 2176}, st[3], slope, root;
    uint64_t fe, fw;
    for (int i = 0; i < 3; i++)
        st[i] = gs_tlb_staircase_step(e, w, 94, (uint64_t)n[i]);
    assert_int_equal(gs_tlb_staircase_fit(n, st, 3, 94, 0.15, 0.35, &slope, &root, &fe, &fw),
                     GS_STAIR_FOUND);
    assert_int_equal(fe, 2048);
    assert_int_equal(fw, 8);
    assert_double_equal(slope, 9, 1e-9);
    /* 0.05 cycles of noise (the simulator's): still exact */
    st[0] += 0.05, st[1] -= 0.05;
    assert_int_equal(gs_tlb_staircase_fit(n, st, 2, 94, 0.15, 0.35, &slope, &root, &fe, &fw),
                     GS_STAIR_FOUND);
    assert_int_equal(fe, 2048);
    assert_int_equal(fw, 8);
    /* 1024 entries of 16 ways (64 sets) */
    double n2[2] = {1056, 1072}, st2[2];
    for (int i = 0; i < 2; i++)
        st2[i] = gs_tlb_staircase_step(1024, 16, 150, (uint64_t)n2[i]);
    assert_int_equal(gs_tlb_staircase_fit(n2, st2, 2, 150, 0.15, 0.35, &slope, &root, &fe, &fw),
                     GS_STAIR_FOUND);
    assert_int_equal(fe, 1024);
    assert_int_equal(fw, 16);
}

static void fit_refused(void **state)
{
    (void)state;
    double slope, root;
    uint64_t fe = 9, fw = 9;
    /* a random policy misses fewer than ways + 1 per added entry: slope 3.4, no whole number */
    double n[2] = {2112, 2144}, st[2] = {94 * 3.4 * 64 / 2112, 94 * 3.4 * 96 / 2144};
    assert_int_equal(gs_tlb_staircase_fit(n, st, 2, 94, 0.15, 0.35, &slope, &root, &fe, &fw),
                     GS_STAIR_SLOPE);
    assert_int_equal(fe, 0);
    assert_int_equal(fw, 0);
    /* slope 9 but a root between two counts */
    double st2[2] = {94 * 9 * 63.5 / 2112, 94 * 9 * 95.5 / 2144};
    assert_int_equal(gs_tlb_staircase_fit(n, st2, 2, 94, 0.15, 0.35, &slope, &root, &fe, &fw),
                     GS_STAIR_ROOT);
    assert_double_equal(root, 2048.5, 1e-6);
    /* one count, or the same count twice */
    assert_int_equal(gs_tlb_staircase_fit(n, st, 1, 94, 0.15, 0.35, &slope, &root, &fe, &fw),
                     GS_STAIR_FEW);
    double same[2] = {2112, 2112};
    assert_int_equal(gs_tlb_staircase_fit(same, st, 2, 94, 0.15, 0.35, &slope, &root, &fe, &fw),
                     GS_STAIR_FEW);
    assert_int_equal(gs_tlb_staircase_fit(n, st, 2, 0, 0.15, 0.35, &slope, &root, &fe, &fw),
                     GS_STAIR_FEW);
    assert_true(isnan(slope));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(rise_verdicts),
        cmocka_unit_test(staircase_of_hopper),
        cmocka_unit_test(fit_exact_and_noisy),
        cmocka_unit_test(fit_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
