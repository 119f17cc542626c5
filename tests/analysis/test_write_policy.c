/* Tests of the store-policy inference (src/analysis/write_policy.c) on synthetic latencies of
 * loads after stores whose policy is known: hits near 33 cycles, L2 hits near 200. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "analysis/write_policy.h"
#include "util/rng.h"

#define N 16
#define HIT 33.0
#define MISS 200.0

typedef struct cases {
    double x[7][N];
    double vis[N], ctl[N];
    gs_wp_input in;
} cases;

/* Fill case k with latency `at` plus uniform jitter in [-j, j]. */
static void fill(double *x, double at, double j, gs_rng *rng)
{
    for (int i = 0; i < N; i++)
        x[i] = at + (gs_rng_unit(rng) * 2 - 1) * j;
}

/* cold word / sector / line, warm word / line: each HIT or MISS; vis_seen of 6. */
static void make(cases *c, double jitter, double cw, double cs, double cl, double ww, double wl,
                 unsigned old, size_t vis_seen)
{
    gs_rng rng;
    gs_rng_seed(&rng, 7);
    double at[7] = {HIT, MISS, cw, cs, cl, ww, wl};
    for (int k = 0; k < 7; k++)
        fill(c->x[k], at[k], jitter, &rng);
    for (int i = 0; i < 6; i++) {
        c->vis[i] = (size_t)i < vis_seen ? 210 + i : NAN;
        c->ctl[i] = 205 + i;
    }
    gs_wp_samples s[7];
    for (int k = 0; k < 7; k++)
        s[k] = (gs_wp_samples){c->x[k], N};
    c->in = (gs_wp_input){.ref_hit = s[0], .ref_miss = s[1], .cold_word = s[2],
                          .cold_sector = s[3], .cold_line = s[4], .warm_word = s[5],
                          .warm_line = s[6], .warm_word_old = old,
                          .vis_valid = 6, .vis_seen = vis_seen, .vis_cycles = {c->vis, 6},
                          .ctl_valid = 6, .ctl_seen = 6, .ctl_cycles = {c->ctl, 6}};
}

static void textbook_l1(void **state)
{
    (void)state;
    cases c;
    make(&c, 2, MISS, MISS, MISS, HIT, HIT, 0, 6);
    gs_wp_verdict v;
    gs_wp_infer(&c.in, &v);
    assert_true(v.separated);
    assert_int_equal(v.allocate, 0);
    assert_int_equal(v.write_through, 1);
    assert_int_equal(v.store_hit, GS_WP_STORE_HIT_UPDATE);
    assert_string_equal(gs_wp_store_hit_name(v.store_hit), "updates it");
}

static void write_back_allocate_by_sector(void **state)
{
    (void)state;
    cases c;
    make(&c, 2, HIT, HIT, MISS, HIT, HIT, 0, 0);
    gs_wp_verdict v;
    gs_wp_infer(&c.in, &v);
    assert_int_equal(v.allocate, 1);
    assert_string_equal(v.allocate_unit, "sector");
    assert_int_equal(v.write_through, 0);
    assert_int_equal(v.store_hit, GS_WP_STORE_HIT_UPDATE);
}

static void allocate_units(void **state)
{
    (void)state;
    cases c;
    gs_wp_verdict v;
    make(&c, 2, HIT, HIT, HIT, HIT, HIT, 0, 6);
    gs_wp_infer(&c.in, &v);
    assert_string_equal(v.allocate_unit, "line");
    make(&c, 2, HIT, MISS, MISS, HIT, HIT, 0, 6);
    gs_wp_infer(&c.in, &v);
    assert_string_equal(v.allocate_unit, "word");
}

static void invalidate_line_and_stale(void **state)
{
    (void)state;
    cases c;
    gs_wp_verdict v;
    make(&c, 2, MISS, MISS, MISS, MISS, MISS, 0, 6);
    gs_wp_infer(&c.in, &v);
    assert_int_equal(v.store_hit, GS_WP_STORE_HIT_INVALIDATE);
    assert_string_equal(v.invalidate_unit, "line");
    make(&c, 2, MISS, MISS, MISS, MISS, HIT, 0, 6);
    gs_wp_infer(&c.in, &v);
    assert_string_equal(v.invalidate_unit, "sector");
    make(&c, 2, MISS, MISS, MISS, HIT, HIT, N, 6);
    gs_wp_infer(&c.in, &v);
    assert_int_equal(v.store_hit, GS_WP_STORE_HIT_STALE);
    make(&c, 2, MISS, MISS, MISS, HIT, HIT, 3, 6);      /* some old values: undecided */
    gs_wp_infer(&c.in, &v);
    assert_int_equal(v.store_hit, GS_WP_STORE_HIT_UNKNOWN);
}

/* References whose intervals meet: nothing is decided, and the reasons say so. */
static void overlapping_references(void **state)
{
    (void)state;
    cases c;
    make(&c, 2, MISS, MISS, MISS, HIT, HIT, 0, 6);
    gs_rng rng;
    gs_rng_seed(&rng, 3);
    fill(c.x[1], HIT + 1, 2, &rng);
    gs_wp_verdict v;
    gs_wp_infer(&c.in, &v);
    assert_false(v.separated);
    assert_int_equal(v.allocate, -1);
    assert_int_equal(v.write_through, -1);
    assert_int_equal(v.store_hit, GS_WP_STORE_HIT_UNKNOWN);
    assert_non_null(strstr(v.allocate_reason, "not separated"));
}

/* A case halfway between the references is undecided, not forced to a side. */
static void halfway_case_undecided(void **state)
{
    (void)state;
    cases c;
    make(&c, 2, (HIT + MISS) / 2, MISS, MISS, HIT, HIT, 0, 6);
    gs_wp_verdict v;
    gs_wp_infer(&c.in, &v);
    assert_int_equal(v.allocate, -1);
    assert_int_equal(v.store_hit, GS_WP_STORE_HIT_UPDATE);
}

static void visibility_rules(void **state)
{
    (void)state;
    cases c;
    gs_wp_verdict v;
    make(&c, 2, MISS, MISS, MISS, HIT, HIT, 0, 3);      /* seen in half: undecided */
    gs_wp_infer(&c.in, &v);
    assert_int_equal(v.write_through, -1);
    make(&c, 2, MISS, MISS, MISS, HIT, HIT, 0, 0);
    c.in.ctl_seen = 5;                                  /* control not always seen */
    gs_wp_infer(&c.in, &v);
    assert_int_equal(v.write_through, -1);
    assert_non_null(strstr(v.policy_reason, "control"));
    c.in.ctl_seen = 6;
    c.in.vis_valid = c.in.ctl_valid = 0;                /* every repetition void */
    gs_wp_infer(&c.in, &v);
    assert_int_equal(v.write_through, -1);
}

static void empty_input(void **state)
{
    (void)state;
    gs_wp_input in = {0};
    gs_wp_verdict v;
    gs_wp_infer(&in, &v);
    assert_false(v.separated);
    assert_int_equal(v.allocate, -1);
    assert_int_equal(v.write_through, -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(textbook_l1),
        cmocka_unit_test(write_back_allocate_by_sector),
        cmocka_unit_test(allocate_units),
        cmocka_unit_test(invalidate_line_and_stale),
        cmocka_unit_test(overlapping_references),
        cmocka_unit_test(halfway_case_undecided),
        cmocka_unit_test(visibility_rules),
        cmocka_unit_test(empty_input),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
