/* Tests of the shared-memory bank inference (src/analysis/banks.c) on synthetic latency curves
 * whose bank count, width and cost per way are known: exact curves, noisy curves, flat curves,
 * curves too short to tell hypotheses apart, and the broadcast rule. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "analysis/banks.h"
#include "util/rng.h"

#define MAX_POINTS 400

static unsigned gcd(unsigned a, unsigned b) { while (b) { unsigned t = a % b; a = b; b = t; } return a; }

/* Curves for widths 2..16 and strides 0..64 on (banks, width) with cost c, plus noise +-jitter. */
static size_t make_curves_rule(gs_bank_point *p, unsigned banks, unsigned width, bool multicast,
                               double c, double jitter, gs_rng *rng)
{
    size_t n = 0;
    for (unsigned w = 2; w <= 16; w *= 2)
        for (unsigned s = 0; s <= 64; s++) {
            unsigned ways = gs_bank_predict_wavefronts(banks, width, multicast, w, s, 1);
            double noise = rng ? (gs_rng_unit(rng) * 2 - 1) * jitter : 0;
            p[n++] = (gs_bank_point){ .access_bytes = w, .stride_elems = s,
                                      .latency_cycles = 28 + w / 4.0 + c * ways + noise };
        }
    return n;
}

static size_t make_curves(gs_bank_point *p, unsigned banks, unsigned width, double c,
                          double jitter, gs_rng *rng)
{
    return make_curves_rule(p, banks, width, true, c, jitter, rng);
}

static void predictions_follow_the_paper(void **state)
{
    (void)state;
    for (unsigned s = 1; s <= 64; s++)     /* Fermi: gcd(stride, 32) ways (section 4.1) */
        assert_int_equal(gs_bank_predict_wavefronts(32, 4, true, 4, s, 1), gcd(s, 32));
    assert_int_equal(gs_bank_predict_wavefronts(32, 4, true, 4, 0, 1), 1);
    assert_int_equal(gs_bank_predict_wavefronts(32, 8, true, 4, 2, 1), 1);   /* Kepler 8 B */
    assert_int_equal(gs_bank_predict_wavefronts(32, 8, true, 4, 4, 1), 2);
    assert_int_equal(gs_bank_predict_wavefronts(32, 8, true, 4, 6, 1), 1);
    assert_int_equal(gs_bank_predict_wavefronts(32, 4, true, 16, 1, 1), 4);  /* quarter warps */
    assert_int_equal(gs_bank_predict_wavefronts(16, 4, true, 4, 1, 1), 2);   /* half warps */
    assert_int_equal(gs_bank_predict_wavefronts(16, 4, true, 4, 0, 1), 2);   /* one per phase */
    assert_int_equal(gs_bank_predict_wavefronts(32, 4, true, 16, 0, 1), 4);
    assert_int_equal(gs_bank_predict_wavefronts(32, 4, true, 2, 3, 1), 2);   /* 2 B, stride 3 */
    assert_int_equal(gs_bank_predict_wavefronts(64, 2, true, 2, 3, 1), 1);
    assert_int_equal(gs_bank_predict_wavefronts(32, 4, true, 4, 1, 2), 1);   /* multicast */
    assert_int_equal(gs_bank_predict_wavefronts(32, 4, false, 4, 1, 2), 2);  /* single */
    assert_int_equal(gs_bank_predict_wavefronts(32, 4, false, 4, 0, 1), 1);
    assert_int_equal(gs_bank_predict_wavefronts(0, 4, true, 4, 1, 1), 0);
}

static void infers_exact_models(void **state)
{
    (void)state;
    static const unsigned truth[][2] = { { 16, 4 }, { 32, 4 }, { 16, 8 }, { 32, 8 }, { 64, 4 } };
    gs_bank_point p[MAX_POINTS];
    for (size_t t = 0; t < sizeof truth / sizeof truth[0]; t++) {
        size_t n = make_curves(p, truth[t][0], truth[t][1], 2.5, 0, NULL);
        gs_bank_fit fit;
        assert_int_equal(gs_bank_infer(p, n, 0.02, &fit), 0);
        assert_true(fit.determined);
        assert_int_equal(fit.banks, truth[t][0]);
        assert_int_equal(fit.bank_width_bytes, truth[t][1]);
        assert_float_equal(fit.conflict_cycles_per_way, 2.5, 1e-9);
        assert_float_equal(fit.intercept_cycles[2], 29, 1e-9);          /* 4 B: 28 + 1 */
        assert_true(fit.rms_cycles < 1e-9);
        assert_true(fit.runner_up_rms_cycles > 0.1);
        assert_int_equal(fit.points, 4 * 65);
    }
}

static void infers_noisy_models_with_honest_ci(void **state)
{
    (void)state;
    gs_rng rng;
    gs_rng_seed(&rng, 7);
    gs_bank_point p[MAX_POINTS];
    size_t n = make_curves(p, 32, 4, 1.9, 1.0, &rng);
    p[5].latency_cycles = NAN;                                          /* a lost sample */
    gs_bank_fit fit;
    assert_int_equal(gs_bank_infer(p, n, 0.02, &fit), 0);
    assert_true(fit.determined);
    assert_int_equal(fit.banks, 32);
    assert_int_equal(fit.bank_width_bytes, 4);
    assert_true(fabs(fit.conflict_cycles_per_way - 1.9) <= fit.conflict_ci95);
    assert_true(fit.conflict_ci95 > 0 && fit.conflict_ci95 < 0.1);
    assert_int_equal(fit.points, 4 * 65 - 1);
}

static void flat_curves_are_not_determined(void **state)
{
    (void)state;
    gs_bank_point p[MAX_POINTS];
    size_t n = make_curves(p, 32, 4, 0.0, 0, NULL);
    gs_bank_fit fit;
    assert_int_equal(gs_bank_infer(p, n, 0.02, &fit), 0);
    assert_false(fit.determined);
    assert_non_null(strstr(fit.reason, "no bank conflicts"));
}

static void short_curves_tie(void **state)
{
    (void)state;
    gs_bank_point p[4];
    for (unsigned s = 0; s < 4; s++)   /* strides 0..3 of 4 B cannot tell 32x4 from 64x4 */
        p[s] = (gs_bank_point){ .access_bytes = 4, .stride_elems = s,
                                .latency_cycles = 30 + 2.0 * gs_bank_predict_wavefronts(32, 4, true, 4, s, 1) };
    gs_bank_fit fit;
    assert_int_equal(gs_bank_infer(p, 4, 0.02, &fit), 0);
    assert_false(fit.determined);
    assert_non_null(strstr(fit.reason, "equally well"));
    assert_int_equal(gs_bank_infer(p, 2, 0.02, &fit), 0);               /* 2 points: too few */
    assert_false(fit.determined);
    assert_non_null(strstr(fit.reason, "too few"));
    assert_int_equal(gs_bank_infer(p, 0, 0.02, &fit), 0);               /* empty */
    assert_false(fit.determined);
}

static void broadcast_rule_is_part_of_the_fit(void **state)
{
    (void)state;
    static const unsigned groups[] = { 2, 4, 8, 16 };
    gs_bank_point p[MAX_POINTS + 16];
    for (int rule = 0; rule <= 1; rule++) {
        size_t n = make_curves_rule(p, 16, 8, rule, 3.0, 0, NULL);
        for (int g = 0; g < 4; g++)
            for (unsigned s = 1; s <= 2; s++) {
                gs_bank_point q = { .access_bytes = 4, .stride_elems = s, .group_lanes = groups[g] };
                q.latency_cycles = 29 + 3.0 * gs_bank_predict_wavefronts(16, 8, rule, 4, s, groups[g]);
                p[n++] = q;
            }
        gs_bank_fit fit;
        assert_int_equal(gs_bank_infer(p, n, 0.02, &fit), 0);
        assert_true(fit.determined);
        assert_int_equal(fit.banks, 16);
        assert_int_equal(fit.bank_width_bytes, 8);
        assert_int_equal(fit.multicast, rule);
        assert_true(fit.rule_determined);
        assert_true(fit.other_rule_rms_cycles > 0.5);
        assert_float_equal(fit.conflict_cycles_per_way, 3.0, 1e-9);
    }
    gs_bank_point q[65];                    /* 4-byte strides only: the rules agree */
    for (unsigned s = 0; s <= 64; s++)
        q[s] = (gs_bank_point){ .access_bytes = 4, .stride_elems = s,
                                .latency_cycles = 30 + 2.0 * gs_bank_predict_wavefronts(32, 4, true, 4, s, 1) };
    gs_bank_fit fit;
    assert_int_equal(gs_bank_infer(q, 65, 0.02, &fit), 0);
    assert_false(fit.rule_determined);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(predictions_follow_the_paper),
        cmocka_unit_test(infers_exact_models),
        cmocka_unit_test(infers_noisy_models_with_honest_ci),
        cmocka_unit_test(flat_curves_are_not_determined),
        cmocka_unit_test(short_curves_tie),
        cmocka_unit_test(broadcast_rule_is_part_of_the_fit),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
