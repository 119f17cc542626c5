/* Unit tests of src/analysis/tlb_ladder.c: the verdict on a full rise as the stride doubles, the
 * LRU staircase past a set-associative level's entries (Fig. 11: ways + 1 misses per added
 * entry), and entries and ways fitted from steps made from known levels, with noise, with a
 * random policy's shallower staircase and with too few counts; and the rules that let a count
 * stand to one region under noise (an edge's rise, a root's standard error), driven by walks
 * whose every step scatters by a known sigma: what they let stand is never a wrong count. */
#include <math.h>

#include "gs_test.h"

#include "analysis/step_search.h"
#include "analysis/tlb_ladder.h"

/* A normal deviate from a fixed xorshift stream (Box-Muller): the same draws on every run. */
static uint64_t rng_state = 88172645463325252ull;

static double unit(void)
{
    rng_state ^= rng_state << 13, rng_state ^= rng_state >> 7, rng_state ^= rng_state << 17;
    return ((double)(rng_state >> 11) + 0.5) / 9007199254740992.0;
}

static double normal(void)
{
    return sqrt(-2 * log(unit())) * cos(2 * M_PI * unit());
}

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

static void edge_verdicts(void **state)
{
    (void)state;
    assert_true(gs_tlb_edge_resolved(0, 0.2, 0, 4));           /* noise-free: any rise */
    assert_false(gs_tlb_edge_resolved(0, 0, 0, 4));
    assert_false(gs_tlb_edge_resolved(5, 3, 0, 4));            /* a fall */
    /* one set's overflow past 512 entries of 8 ways, miss 120: 2.1 cycles, under steps that
     * scatter by 2.7 (600 cycles of jitter over 8192 loads, two walks): not resolved */
    assert_false(gs_tlb_edge_resolved(0, 120.0 * 9 / 513, 2.7, 4));
    assert_true(gs_tlb_edge_resolved(0, 120, 2.7, 4));         /* a fully associative cliff */
    assert_false(gs_tlb_edge_resolved(0, NAN, 0, 4));
    assert_false(gs_tlb_edge_resolved(0, 10, NAN, 4));
}

/* The refinement to one region (tlb_second.c, refine): a bisection with a threshold of half a
 * region's miss over the staircase of 512 entries in 64 sets of 8 ways, miss 120. Noise-free it
 * finds 512 and the edge stands; with steps scattering by 2.7 cycles it stops where noise crossed
 * the threshold, a few regions short, and the edge rule lets none of those stand. */
static uint64_t bisect(double sigma, bool *resolved)
{
    gs_step_search s;
    double thr = fmax(1.0, 120.0 / (2 * 512));
    gs_step_init(&s, 496, sigma * normal(), 576, 576, thr, true);
    gs_step_add(&s, gs_tlb_staircase_step(512, 8, 120, 576) + sigma * normal());
    for (uint64_t n; (n = gs_step_next(&s)) != 0;)
        gs_step_add(&s, gs_tlb_staircase_step(512, 8, 120, n) + sigma * normal());
    *resolved = s.found && gs_tlb_edge_resolved(s.s_lo, s.s_hi, sigma, 4);
    return s.found ? s.lo : 0;
}

static void edge_under_noise(void **state)
{
    (void)state;
    bool resolved;
    assert_int_equal(bisect(0, &resolved), 512);
    assert_true(resolved);
    int wrong = 0, stood = 0;
    for (int t = 0; t < 400; t++) {
        uint64_t e = bisect(2.7, &resolved);
        wrong += e != 512;
        stood += resolved;
        assert_false(resolved && e != 512);
    }
    assert_true(wrong > 100);   /* the bisection alone is wrong under this noise */
    assert_int_equal(stood, 0);
}

static void root_se_of_hopper(void **state)
{
    (void)state;
    double n[2] = {2112, 2144}, st[2];
    for (int i = 0; i < 2; i++)
        st[i] = gs_tlb_staircase_step(2048, 8, 94, (uint64_t)n[i]);
    assert_double_equal(gs_tlb_staircase_root_se(n, st, 2, 94, 9, 0), 0, 1e-12);
    /* 0.02 cycles a step (the cards' walks): well under a twelfth of a region */
    double se = gs_tlb_staircase_root_se(n, st, 2, 94, 9, 0.02);
    assert_true(se > 0.02 && se < 0.1);
    assert_true(gs_tlb_root_resolved(2048.02, se, 3));
    /* linear in sigma */
    assert_double_equal(gs_tlb_staircase_root_se(n, st, 2, 94, 9, 0.04), 2 * se, 1e-12);
    assert_false(gs_tlb_root_resolved(2048.3, 0.1, 3));       /* 0.3 + 0.3 reaches 2048.5 */
    assert_true(gs_tlb_root_resolved(2047.9, 0.1, 3));
    assert_false(gs_tlb_root_resolved(NAN, 0, 3));
    assert_false(gs_tlb_root_resolved(2048, NAN, 3));
    assert_true(isnan(gs_tlb_staircase_root_se(n, st, 0, 94, 9, 0.02)));
    assert_true(isnan(gs_tlb_staircase_root_se(n, st, 2, 0, 9, 0.02)));
}

/* The staircase of 512 entries in 64 sets of 8 ways (miss 120) walked at 544 and 528 regions,
 * each rise a step less a shared reference step, the full rise a rise of its own, every step
 * scattering by sigma: the fit alone names wrong counts (its root lands within 0.35 of some whole
 * count), the root's standard error lets none of them stand; at 0.02 cycles it stands, exact. */
static int stair_trial(double sigma, uint64_t *e)
{
    double n[2] = {544, 528}, st[2], slope, root, ref = sigma * normal();
    double pen = 120 + sigma * normal() - sigma * normal();
    uint64_t ways;
    for (int i = 0; i < 2; i++)
        st[i] = gs_tlb_staircase_step(512, 8, 120, (uint64_t)n[i]) + sigma * normal() - ref;
    if (gs_tlb_staircase_fit(n, st, 2, pen, 0.15, 0.35, &slope, &root, e, &ways) !=
        GS_STAIR_FOUND)
        return 0;
    double se = gs_tlb_staircase_root_se(n, st, 2, pen, (double)(ways + 1), sigma);
    return gs_tlb_root_resolved(root, se, 3) ? 2 : 1;
}

static void root_under_noise(void **state)
{
    (void)state;
    int wrong_fits = 0;
    uint64_t e;
    for (int t = 0; t < 400; t++) {
        int v = stair_trial(2.7, &e);
        wrong_fits += v && e != 512;
        assert_false(v == 2 && e != 512);
    }
    assert_true(wrong_fits > 10);
    for (int t = 0; t < 50; t++) {
        assert_int_equal(stair_trial(0.02, &e), 2);
        assert_int_equal(e, 512);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(rise_verdicts),
        cmocka_unit_test(staircase_of_hopper),
        cmocka_unit_test(fit_exact_and_noisy),
        cmocka_unit_test(fit_refused),
        cmocka_unit_test(edge_verdicts),
        cmocka_unit_test(edge_under_noise),
        cmocka_unit_test(root_se_of_hopper),
        cmocka_unit_test(root_under_noise),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
